# ctlcc.plots.stpd - figures of ST-PD's closed loop (thesis §4.3)
"""Figures of ST-PD's z-domain closed loop (Xu (2002)).

The thesis's §4.3.3 example prints kp = 0.368, kd = 0.033 but poles that
belong to kp = 0.033, kd = 0.368 (see ``data/thesis_stpd_numerical_example.csv``);
every figure that reproduces it shows both pairs.  The thesis's Figures 4.5
and 4.6 were lost in the OCR of the seed text, so no curve of theirs can be
overlaid; the qualitative claims of the text that the figures support are
listed in ``data/thesis_stpd_figure_claims.csv`` and checked by the tests.
"""

import numpy as np

from ..laws.stpd_fuzzy import CALIBRATIONS
from ..references import cite
from ..analysis.stability import gain_margin, max_stable_delay, stability_region
from ..analysis.stpd import _companion_eigenvalues, characteristic_coefficients, stpd_loop
from . import ReportFigure, ReportTable, get_axes, new_figure

__all__ = [
    "plot_poles",
    "plot_root_locus",
    "plot_loss_response",
    "plot_throughput_under_loss",
    "plot_stability_region",
    "plot_gain_margin",
    "model_comparison_rows",
    "report_items",
]

#: Gains that reproduce the poles printed in thesis §4.3.3 (printed gains
#: swapped): ctlcc's one default ST-PD gain pair, ``CALIBRATIONS["poles"]``.
SWAPPED_GAINS = CALIBRATIONS["poles"]
#: Gains as printed in thesis §4.3.3.
PRINTED_GAINS = CALIBRATIONS["printed"]
#: Bandwidth-delay products of the thesis's simulated scenarios: about 9
#: packets (the chapter 3 dumbbell), 31 packets and 94 packets (the GEO
#: satellite T1 link, Fig. 4.18). [packets]
THESIS_BDPS = (9, 31, 94)


def plot_poles(loop, ax=None, label=None, marker="x", **kwargs):
    """Pole map of an ST-PD loop with the unit circle.

    Parameters
    ----------
    loop : StpdLoop
    ax : matplotlib.axes.Axes, optional
    label : str, optional
        Legend entry (default: the gains and m).
    marker : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = get_axes(ax)
    _unit_circle(ax)
    poles = loop.poles()
    label = label or f"poles, kp={loop.kp:g}, kd={loop.kd:g}, m={loop.m}"
    ax.plot(poles.real, poles.imag, linestyle="none", marker=marker, label=label, **kwargs)
    ax.set_aspect("equal")
    ax.set_xlabel("Re z [1]")
    ax.set_ylabel("Im z [1]")
    ax.legend(loc="lower left", fontsize="small")
    return ax


def plot_root_locus(kp, kd, m, factors=None, model="per_slot", ax=None, **kwargs):
    """Root locus of the loop with both gains scaled by K.

    The roots of ``P(z; K kp, K kd)`` are computed for every K at once from
    the exact characteristic polynomial (batched companion eigenvalues), not
    by python-control's ``root_locus`` on a ``z**-m`` chain.

    Parameters
    ----------
    kp, kd : float
        Nominal gains (K = 1). [1]
    m : int
        Round trip. [slots]
    factors : array_like, optional
        Gain factors K (default 0..3, 600 points). [1]
    model : {"per_slot", "per_rtt"}, optional
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = get_axes(ax)
    factors = np.linspace(0, 3, 600) if factors is None else np.asarray(factors, dtype=float)
    roots = _companion_eigenvalues(characteristic_coefficients(factors * kp, factors * kd, m, model))
    _unit_circle(ax)
    kwargs.setdefault("s", 3)
    points = ax.scatter(roots.real.ravel(), roots.imag.ravel(),
                        c=np.repeat(factors, roots.shape[-1]), cmap="viridis", **kwargs)
    nominal = stpd_loop(kp, kd, m, model).poles()
    ax.plot(nominal.real, nominal.imag, "kx", label="K = 1")
    ax.set_aspect("equal")
    ax.set_xlabel("Re z [1]")
    ax.set_ylabel("Im z [1]")
    ax.figure.colorbar(points, ax=ax, label="gain factor K [1]", shrink=0.8)
    return ax


def plot_loss_response(response, ax=None, show_iteration=True, **kwargs):
    """a(n) after a loss (thesis Fig. 4.5), both computation routes.

    Parameters
    ----------
    response : LossResponse
        From :meth:`StpdLoop.loss_response` (the z-transform route).
    ax : matplotlib.axes.Axes, optional
    show_iteration : bool, optional
        Overlay the iterated difference equations as markers.

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = get_axes(ax)
    label = kwargs.pop("label", f"kp={response.kp:g}, kd={response.kd:g}: inverse z-transform")
    ax.plot(response.time, response.arrival, label=label, **kwargs)
    if show_iteration:
        loop = stpd_loop(response.kp, response.kd, response.m, response.model)
        iterated = loop.loss_response(response.p, response.time.size, method="iteration")
        ax.plot(iterated.time[::3], iterated.arrival[::3], linestyle="none", marker="o",
                mfc="none", ms=3.5, color="0.3", label="iterated difference equations")
    ax.axvspan(response.p, response.p + response.m, color="tab:red", alpha=0.15,
               label=f"loss disturbance, slots {response.p}..{response.p + response.m}")
    ax.set_xlabel("n [slots]")
    ax.set_ylabel("a(n) [packets/slot]")
    ax.legend(fontsize="small")
    return ax


def plot_throughput_under_loss(loop, prob=None, ax=None, readings=("periodic", "single_loss")):
    """Normalised throughput against packet-error probability (thesis Fig. 4.6).

    Parameters
    ----------
    loop : StpdLoop
        A stable per-slot loop.
    prob : array_like, optional
        Packet-error probabilities (default 1e-4..1e-1). [1]
    ax : matplotlib.axes.Axes, optional
    readings : sequence of str, optional
        Readings of eq. (4.19) to draw.

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = get_axes(ax)
    prob = np.logspace(-4, -1, 61) if prob is None else np.asarray(prob, dtype=float)
    styles = {"periodic": "-", "single_loss": "--"}
    names = {"periodic": "periodic losses (superposed)", "single_loss": "one loss per cycle"}
    for reading in readings:
        ax.semilogx(prob, loop.throughput_under_loss(prob, reading=reading),
                    linestyle=styles[reading],
                    label=f"eq. 4.19, {names[reading]}, kp={loop.kp:g}, kd={loop.kd:g}")
    ax.set_xlabel("packet-error probability [1]")
    ax.set_ylabel("normalised throughput [1]")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small")
    return ax


def plot_stability_region(m_values, kp=None, kd=None, ax=None, model="per_slot", points=None):
    """Stability boundaries in the (kp, kd) plane for several delays, overlaid.

    Parameters
    ----------
    m_values : sequence of int
        Round trips. [slots]
    kp, kd : array_like, optional
        Grids (default 0..1, 400 points each). [1]
    ax : matplotlib.axes.Axes, optional
    model : {"per_slot", "per_rtt"}, optional
    points : dict, optional
        ``{label: (kp, kd)}`` marked on the map.

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = get_axes(ax)
    kp = np.linspace(0, 1, 400) if kp is None else np.asarray(kp, dtype=float)
    kd = np.linspace(0, 1, 400) if kd is None else np.asarray(kd, dtype=float)
    colours = _colours(len(m_values))
    for colour, m in zip(colours, m_values):
        region = stability_region(m, kp, kd, model=model).astype(float)
        ax.contourf(kp, kd, region.T, levels=[0.5, 1.5], colors=[colour], alpha=0.12)
        ax.contour(kp, kd, region.T, levels=[0.5], colors=[colour], linewidths=1.2)
        ax.plot([], [], color=colour, label=f"m = {m}")
    for label, (x, y), marker in zip(*_points(points)):
        ax.plot(x, y, marker, color="k", ms=8, mfc="none" if marker == "o" else "k", label=label)
    ax.set_xlabel("kp [1]")
    ax.set_ylabel("kd [1]")
    ax.legend(fontsize="small", ncol=2)
    return ax


def plot_gain_margin(kp, kd, m_values, ax=None, model="per_slot", **kwargs):
    """Gain margin (both gains scaled by K) against the round trip m.

    Both routes are drawn: the unit-circle crossing (line) and bisection on
    the stability test (markers).

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = get_axes(ax)
    m_values = np.asarray(m_values)
    crossing = [gain_margin(kp, kd, int(m), model=model) for m in m_values]
    bisection = [gain_margin(kp, kd, int(m), model=model, method="bisection") for m in m_values]
    line, = ax.semilogy(m_values, crossing, label=f"kp={kp:g}, kd={kd:g}: unit-circle crossing",
                        **kwargs)
    ax.semilogy(m_values, bisection, linestyle="none", marker="o", mfc="none",
                color=line.get_color(), label="bisection on the stability test")
    ax.set_xlabel("round trip m [slots]")
    ax.set_ylabel("gain margin K* [1]")
    ax.grid(True, which="both", alpha=0.3)
    return ax


def model_comparison_rows(gains=None, bdps=THESIS_BDPS):
    """Per-slot vs per-RTT stability verdicts for gains at the thesis's BDPs.

    Returns
    -------
    tuple of tuple
        ``(label, kp, kd, BDP, rho per slot, stable per slot, rho per RTT,
        stable per RTT, largest stable m per slot)``.
    """
    from ..analysis.stpd import spectral_radius

    gains = gains or {"printed §4.3.3": PRINTED_GAINS, "swapped (printed poles)": SWAPPED_GAINS}
    rows = []
    for label, (kp, kd) in gains.items():
        delay = max_stable_delay(kp, kd, m_max=max(bdps))
        for bdp in bdps:
            slot = spectral_radius(kp, kd, bdp, "per_slot")
            rtt = spectral_radius(kp, kd, bdp, "per_rtt")
            rows.append((label, kp, kd, bdp, round(slot, 4), bool(slot < 1), round(rtt, 4),
                         bool(rtt < 1), int(delay)))
    return tuple(rows)


def report_items():
    """Figures and tables of the ST-PD loop for ``ctlcc report``."""
    m, p = 3, 100
    thesis_points = {
        f"kp={SWAPPED_GAINS[0]}, kd={SWAPPED_GAINS[1]} (reproduces printed poles)": SWAPPED_GAINS,
        f"kp={PRINTED_GAINS[0]}, kd={PRINTED_GAINS[1]} (as printed)": PRINTED_GAINS,
    }

    figure, ax = new_figure(figsize=(6.0, 6.0))
    plot_poles(stpd_loop(*SWAPPED_GAINS, m), ax=ax,
               label="kp=0.033, kd=0.368 (reproduces printed poles)")
    plot_poles(stpd_loop(*PRINTED_GAINS, m), ax=ax, marker="o", mfc="none",
               label="kp=0.368, kd=0.033 (as printed: unstable)")
    ax.set_title("ST-PD closed-loop poles, m = 3\n" + cite("stpd", "eq. (4.18), §4.3.3"))
    yield ReportFigure(
        "thesis_eq4_18_pole_map",
        "Poles of ST-PD's per-slot closed loop (thesis eq. 4.18) for m = 3 with the "
        "printed averaged gains and with them swapped; only the swapped pair "
        "reproduces the printed poles -0.5023, 0.8031±0.4155i, 0.8961.",
        figure,
    )

    figure, (top, bottom) = new_figure(2, 1, figsize=(7.5, 7.5))
    stable = stpd_loop(*SWAPPED_GAINS, m).loss_response(p, 260)
    plot_loss_response(stable, ax=top)
    top.set_title("ST-PD a(n) after a loss, m = 3, p = 100\n" + cite("stpd", "Fig. 4.5, eqs. (4.17)-(4.18)"))
    unstable = stpd_loop(*PRINTED_GAINS, m).loss_response(p, 130)
    plot_loss_response(unstable, ax=bottom, color="tab:orange")
    bottom.set_yscale("symlog", linthresh=1.0)
    bottom.set_ylabel("a(n) [packets/slot] (symlog)")
    bottom.set_title("printed gains kp=0.368, kd=0.033: spectral radius "
                     f"{stpd_loop(*PRINTED_GAINS, m).spectral_radius():.3f}, a(n) diverges",
                     fontsize="medium")
    yield ReportFigure(
        "thesis_fig4_5_loss_response",
        "Normalised arrival rate a(n) of the linear per-slot loop from an empty start, with a "
        "loss disturbing slots 100..103 (thesis Fig. 4.5; the printed figure is lost in the "
        "OCR, so it cannot be overlaid). Top: the gains that reproduce the printed poles; "
        "bottom: the printed gains, whose loop diverges. Lines: inverse z-transform of the "
        "derived A(z); markers: the difference equations iterated.",
        figure,
    )

    figure, ax = new_figure(figsize=(7.0, 4.8))
    plot_throughput_under_loss(stpd_loop(*SWAPPED_GAINS, m), ax=ax)
    ax.axvline(1e-2, color="0.5", lw=0.8, linestyle=":")
    ax.text(0.9e-2, 0.82, "thesis: analysis matches simulation\nbelow 1e-2 "
            "(text, §4.3.3)", fontsize="small", color="0.3", ha="right")
    ax.text(1.2e-4, ax.get_ylim()[0] + 0.02,
            "printed gains kp=0.368, kd=0.033:\nloop unstable (ρ = 1.239), eq. 4.19 undefined",
            fontsize="small", color="tab:red")
    ax.set_title("ST-PD normalised throughput under packet errors, m = 3\n" +
                 cite("stpd", "Fig. 4.6, eq. (4.19)") + " (analysis curve)")
    yield ReportFigure(
        "thesis_fig4_6_throughput_vs_loss",
        "Normalised throughput of eq. 4.19 with one loss every K = 1/prob slots for the gains "
        "that reproduce the printed poles (m = 3): solid, the periodic steady state (all "
        "earlier losses superposed); dashed, one isolated loss per cycle. Above about 3e-2 "
        "the cycle K = round(1/prob) is a few slots and beats with the loop's ringing "
        "(period about 13 slots), hence the ripple. The printed gains give an unstable loop, "
        "for which eq. 4.19 has no value. The thesis's curves are lost in the OCR.",
        figure,
    )

    figure, ax = new_figure(figsize=(7.0, 6.0))
    kp_grid = np.linspace(0, 0.42, 320)
    kd_grid = np.linspace(0, 1.05, 320)
    plot_stability_region(range(1, 9), kp_grid, kd_grid, ax=ax, points=thesis_points)
    ax.text(0.41, 0.6, "m = 1 is stable on the whole box\n(kp > 0, kd < 2, kp + 2 kd < 4)",
            ha="right", fontsize="small", color="0.3")
    ax.set_title("ST-PD per-slot stability regions in (kp, kd), m = 1..8\n" +
                 cite("stpd", "eq. (4.11)") + " denominator (Schur-Cohn test)")
    yield ReportFigure(
        "stpd_stability_region_m1_8",
        "Region of (kp, kd) where every pole of the per-slot loop lies inside the unit circle, "
        "for m = 1..8 slots (each region nests inside the previous one's lower corner as m "
        "grows). Marked: the thesis §4.3.3 gains as printed and swapped.",
        figure,
    )

    figure, (left, right) = new_figure(1, 2, figsize=(11.0, 4.8))
    plot_root_locus(*SWAPPED_GAINS, m, ax=left)
    left.set_title("root locus, gains (K·0.033, K·0.368), m = 3", fontsize="medium")
    left.legend(loc="lower left", fontsize="small")
    m_values = np.arange(1, 41)
    for gains in (SWAPPED_GAINS, (0.01, 0.2), (0.002, 0.1)):
        plot_gain_margin(*gains, m_values, ax=right)
    right.axhline(1, color="0.4", lw=0.8, linestyle=":")
    right.set_ylim(1e-2, 1e2)
    right.legend(fontsize="x-small")
    right.set_title("gain margin vs round trip (K* = 0: unstable for every K)", fontsize="medium")
    figure.suptitle(f"ST-PD per-slot loop: root locus and gain margin ({cite('stpd', 'eq. (4.11)')})")
    yield ReportFigure(
        "stpd_gain_margin_vs_m",
        "Left: roots of the m = 3 loop as both gains are scaled by K (colour), from the exact "
        "polynomial. Right: the largest K keeping the loop stable against m, by the unit-circle "
        "crossing (lines) and by bisection (markers); a margin below 1 (dotted) means the "
        "nominal gains are unstable at that m; the curve ends where kd < (m-1) kp, beyond which "
        "no scaling stabilises the loop.",
        figure,
    )

    figure, (left, right) = new_figure(1, 2, figsize=(11.5, 5.0))
    kp_grid = np.logspace(-5, 0.5, 200)
    kd_grid = np.logspace(-4, 0.5, 200)
    for colour, bdp in zip(_colours(3), THESIS_BDPS):
        region = stability_region(bdp, kp_grid, kd_grid).astype(float)
        left.contourf(kp_grid, kd_grid, region.T, levels=[0.5, 1.5], colors=[colour], alpha=0.2)
        left.contour(kp_grid, kd_grid, region.T, levels=[0.5], colors=[colour])
        left.plot([], [], color=colour, label=f"per slot, m = BDP = {bdp}")
    region = stability_region(9, kp_grid, kd_grid, model="per_rtt").astype(float)
    left.contour(kp_grid, kd_grid, region.T, levels=[0.5], colors=["k"], linestyles="--")
    left.plot([], [], "k--", label="per RTT (any BDP)")
    for label, (x, y), marker in zip(*_points(thesis_points)):
        left.plot(x, y, marker, color="k", ms=8, mfc="none" if marker == "o" else "k", label=label)
    left.set_xscale("log")
    left.set_yscale("log")
    left.set_xlabel("kp [1]")
    left.set_ylabel("kd [1]")
    left.legend(fontsize="x-small", loc="lower left")
    left.set_title("stable regions (inside each boundary)", fontsize="medium")
    m_values = np.arange(1, 101)
    for model, style in (("per_slot", "-"), ("per_rtt", "--")):
        margins = [gain_margin(*SWAPPED_GAINS, int(mm), model=model) for mm in m_values]
        right.semilogy(m_values, margins, style, label=f"{model}, kp=0.033, kd=0.368")
    for bdp in THESIS_BDPS:
        right.axvline(bdp, color="0.6", lw=0.8, linestyle=":")
    right.axhline(1, color="0.4", lw=0.8)
    right.set_ylim(1e-2, 10)
    right.text(14, 0.02, "per slot: K* = 0 for m >= 13\n(kd < (m - 1) kp: no scaling helps)",
               fontsize="small")
    right.set_xlabel("round trip m = BDP [slots] = [packets]")
    right.set_ylabel("gain margin K* [1]")
    right.legend(fontsize="small")
    right.set_title("gain margin; dotted: thesis BDPs 9, 31, 94", fontsize="medium")
    figure.suptitle(f"ST-PD: per-slot model ({cite('stpd', 'eqs. (4.1)-(4.11)')}) vs per-RTT model (eqs. (3.3)-(3.5))")
    yield ReportFigure(
        "stpd_per_slot_vs_per_rtt",
        "Where the two loop models disagree. Per slot (thesis eqs. 4.1-4.11, m = BDP slots for "
        "a saturating flow) the stable gains shrink with the BDP; per round trip (eqs. 3.3-3.5 "
        "updated once per RTT, queue = window - BDP) the stable set is kp > 0, kd < 1, "
        "kp + 2 kd < 2 whatever the BDP.",
        figure,
    )

    yield ReportTable(
        "stpd_per_slot_vs_per_rtt",
        "Spectral radius and stability of the thesis §4.3.3 gains at the BDPs of the thesis's "
        "scenarios (about 9, 31, 94 packets) under the per-slot model (m = BDP slots) and the "
        "per-RTT model; last column: largest m for which the per-slot loop is stable at every "
        "delay 1..m.",
        ("gains", "kp", "kd", "BDP [packets]", "rho per slot", "stable per slot",
         "rho per RTT", "stable per RTT", "max stable m per slot"),
        model_comparison_rows(),
    )


def _unit_circle(ax):
    if any(line.get_label() == "unit circle" for line in ax.lines):
        return
    theta = np.linspace(0, 2 * np.pi, 400)
    ax.plot(np.cos(theta), np.sin(theta), color="0.6", lw=0.8, label="unit circle")
    ax.axhline(0, color="0.85", lw=0.6)
    ax.axvline(0, color="0.85", lw=0.6)


def _colours(count):
    from matplotlib import colormaps

    return [colormaps["viridis"](x) for x in np.linspace(0.0, 0.9, count)]


def _points(points):
    points = points or {}
    markers = ["*", "o", "s", "^", "D"]
    return list(points), list(points.values()), markers[: len(points)]
