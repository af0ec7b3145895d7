# ctlcc.plots.bounds - figures of the closed-form throughput bounds (IFTP, Mathis, PFTK, TFRC, CBRAA)
"""Figures of the throughput bounds: IFTP Figure 3, rate vs loss, CBRAA Loss_th."""

import csv

import numpy as np

from .. import _data
from ..references import cite
from ..bounds import cbraa, iftp, mathis_constant, mathis_rate, pftk_rate, tfrc_rate
from . import ReportFigure, ReportTable, get_axes, new_figure

__all__ = [
    "plot_iftp_bandwidth_rtt",
    "plot_rate_vs_loss",
    "plot_loss_th",
    "report_items",
]



def plot_iftp_bandwidth_rtt(Ws=32, Wmax=50, R=0.022, tau=0.008, n_max=5000, ax=None):
    """IFTP bandwidth x RTT vs file size N, ideal and worst case (ElAarag & Bassiouni (2002), Fig. 3).

    Parameters
    ----------
    Ws, Wmax : int, optional
        ssthresh and maximum window (the paper's 32 and 50). [packets]
    R : float, optional
        Round-trip time for the worst case (default 22 ms, twice §6.1's
        11 ms path delay). [s]
    tau : float, optional
        Packet transmission time (default 8 ms: 1000 B at 1 Mb/s). [s]
    n_max : int, optional
        Largest N plotted. [packets]
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = get_axes(ax)
    n = np.unique(np.round(np.logspace(0, np.log10(n_max), 600)).astype(int))
    ax.plot(n, iftp.ideal_bandwidth(n, 1.0, 1.0, Ws, Wmax), label="ideal, exact (enumeration)")
    ax.plot(n, iftp.ideal_bandwidth(n, 1.0, 1.0, Ws, Wmax, published=True), "--",
            label="ideal, printed eqs. (17)-(19)")
    ax.axhline(Wmax, color="0.4", lw=0.8, ls=":", label=f"limit eq. (20): Wmax = {Wmax}")
    worst = iftp.worst_case_bandwidth(1.0, tau) * R
    ax.axhline(worst, color="C3", lw=1.2,
               label=f"worst case eq. (27) x R: R/(tau + 64 ms) = {worst:.3f}")
    cases = _read_csv("iftp_fig3_cases.csv")
    for row, color in zip(cases, ("C0", "C1", "C2")):
        lo, hi = int(row["N_first"]), int(row["N_last"])
        ax.axvspan(lo, hi, color=color, alpha=0.08)
        pts = [2**k for k in range(int(np.log2(lo)), int(np.log2(hi)) + 1)] + ([hi] if hi & (hi - 1) else [])
        pts = np.array(pts)
        ax.plot(pts, iftp.ideal_bandwidth(pts, 1.0, 1.0, Ws, Wmax, published=True), "o", color=color,
                mfc="none", label=f"paper's case {row['case']}: N = {lo}-{hi}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("file size N [packets]")
    ax.set_ylabel("bandwidth x RTT, theta R / P [packets]")
    ax.set_ylim(0.1, 2 * Wmax)
    ax.legend(loc="upper left", fontsize="small")
    ax.grid(True, which="both", alpha=0.3)
    return ax


def plot_rate_vs_loss(rtt=0.1, rto=None, p=None, ax=None, ratio_ax=None):
    """Rate vs loss: three Mathis constants, PFTK, TFRC and IFTP's bound.

    Parameters
    ----------
    rtt : float, optional
        Round-trip time. [s]
    rto : float, optional
        PFTK base timeout T0 (default 4 rtt, as TFRC). [s]
    p : array_like, optional
        Loss rates (default 1e-5 .. 0.5). [1]
    ax : matplotlib.axes.Axes, optional
        Axes for the rates.
    ratio_ax : matplotlib.axes.Axes, optional
        If given, also plots each rate divided by the sqrt(3/2) law.

    Returns
    -------
    matplotlib.axes.Axes
    """
    import warnings

    from ..bounds.mathis import MathisValidityWarning

    ax = get_axes(ax)
    rto = 4 * rtt if rto is None else rto
    p = np.logspace(-5, np.log10(0.5), 400) if p is None else np.asarray(p, dtype=float)
    curves = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MathisValidityWarning)     # drawn beyond 0.16 on purpose
        for model, style in (("floyd", "-"), ("mathis", "-"), ("cbraa", "-")):
            curves[f"Mathis C = {mathis_constant(model):.4g} ({model})"] = (
                mathis_rate(p, rtt, C=model), style)
    curves["PFTK'98 full, eq. (31)"] = (pftk_rate(p, rtt, rto), "-")
    curves["TFRC, RFC 5348 §3.1"] = (tfrc_rate(p, rtt, rto), "--")
    curves["IFTP non-ideal, exact n (eqs. 23, 25)"] = (iftp.nonideal_bandwidth(p, 1.0, rtt), ":")
    base = curves["Mathis C = 1.225 (floyd)"][0]
    for label, (rate, style) in curves.items():
        ax.plot(p, rate, style, label=label)
        if ratio_ax is not None:
            ratio_ax.plot(p, rate / base, style, label=label)
    part = p[np.argmax(curves["PFTK'98 full, eq. (31)"][0] / base < 0.9)]
    for a in (ax, ratio_ax):
        if a is None:
            continue
        a.axvline(0.16, color="0.3", lw=0.8, ls="-.")
        a.axvspan(part, p[-1], color="C3", alpha=0.06)
        a.set_xscale("log")
        a.grid(True, which="both", alpha=0.3)
    ax.text(0.165, base.max() / 3, "p = 0.16\n(eq. (1) limit)", fontsize="x-small")
    ax.set_yscale("log")
    ax.set_ylabel(f"rate [packets/s] (RTT = {rtt:g} s, T0 = {rto:g} s)")
    ax.legend(loc="lower left", fontsize="x-small")
    if ratio_ax is not None:
        ratio_ax.set_ylabel("rate / sqrt(3/2)-law rate [1]")
        ratio_ax.set_xlabel("loss event rate p [1]")
        ratio_ax.text(part * 1.1, 0.3, f"PFTK < 0.9 x Mathis\nfrom p = {part:.2g}", fontsize="x-small")
    else:
        ax.set_xlabel("loss event rate p [1]")
    return ax


def plot_loss_th(ax_rate=None, ax_rtt=None, ax_ratio=None):
    """CBRAA's ideal loss Loss_th (eq. 4) vs rate and vs RTT, exact and printed.

    Values above 1 (a cycle of less than one packet, B srtt < 0.52) are not
    drawn.

    Parameters
    ----------
    ax_rate, ax_rtt, ax_ratio : matplotlib.axes.Axes, optional
        Axes for Loss_th vs rate (fixed RTTs), vs RTT (fixed rates), and
        printed/exact vs B srtt.

    Returns
    -------
    tuple of matplotlib.axes.Axes
    """
    ax_rate = get_axes(ax_rate)
    rate = np.logspace(0, 4, 300)
    for k, srtt in enumerate((0.02, 0.07, 0.12, 0.22)):
        ax_rate.plot(rate, _probability(cbraa.loss_th(rate, srtt)), color=f"C{k}",
                     label=f"srtt = {srtt * 1e3:g} ms, exact")
        ax_rate.plot(rate, _probability(cbraa.loss_th(rate, srtt, published=True)), "--",
                     color=f"C{k}", lw=0.9)
    ax_rate.plot([], [], "k--", lw=0.9, label="printed 1.61/(B²R²+1.54BR)")
    sec4 = {r["quantity"]: float(r["value"]) for r in _read_csv("cbraa_section4.csv")}
    size = sec4["packet_size"]
    points = [(sec4["fair_share_2_sources"] / (8 * size), 0.12, "§4.1 fair share 2 Mb/s, ~120 ms"),
              (sec4["fig6_cbraa_short_rate"] / size, sec4["fig6_rtt_short"], "§4.3 Fig. 6: 233 kB/s, ~70 ms"),
              (sec4["fig6_cbraa_long_rate"] / size, sec4["fig6_rtt_long"], "§4.3 Fig. 6: 69 kB/s, ~220 ms")]
    for (b, r, label), marker in zip(points, ("o", "s", "^")):
        ax_rate.plot(b, cbraa.loss_th(b, r), marker, color="k", mfc="none", label=label)
    ax_rate.set_xscale("log")
    ax_rate.set_yscale("log")
    ax_rate.set_xlabel("sending rate B [packets/s]")
    ax_rate.set_ylabel("Loss_th [1]")
    ax_rate.legend(fontsize="x-small", loc="lower left")
    ax_rate.grid(True, which="both", alpha=0.3)
    if ax_rtt is not None:
        srtt = np.logspace(-3, 0, 300)
        for k, b in enumerate((10.0, 100.0, 250.0, 1000.0)):
            ax_rtt.plot(srtt, _probability(cbraa.loss_th(b, srtt)), color=f"C{k}", label=f"B = {b:g} packets/s")
            ax_rtt.plot(srtt, _probability(cbraa.loss_th(b, srtt, published=True)), "--", color=f"C{k}", lw=0.9)
        ax_rtt.set_xscale("log")
        ax_rtt.set_yscale("log")
        ax_rtt.set_xlabel("average RTT srtt [s]")
        ax_rtt.set_ylabel("Loss_th [1]")
        ax_rtt.legend(fontsize="x-small", loc="lower left", title="solid exact, dashed printed",
                      title_fontsize="x-small")
        ax_rtt.grid(True, which="both", alpha=0.3)
    if ax_ratio is not None:
        x = np.logspace(-2, 4, 400)
        ax_ratio.plot(x, 100 * (cbraa.loss_th(x, 1.0, published=True) / cbraa.loss_th(x, 1.0) - 1),
                      label="eq. (4) printed / exact - 1")
        ax_ratio.plot(x, 100 * (1 / (x * cbraa.cycle(x, 1.0, published=True)) / cbraa.loss_th(x, 1.0) - 1),
                      "--", label="Figure 1 (0.62, 0.96) / exact - 1")
        ax_ratio.axhline(0, color="0.5", lw=0.8)
        ax_ratio.set_xscale("log")
        ax_ratio.set_xlabel("window B srtt [packets]")
        ax_ratio.set_ylabel("relative difference of Loss_th [%]")
        ax_ratio.legend(fontsize="x-small")
        ax_ratio.grid(True, which="both", alpha=0.3)
    return ax_rate, ax_rtt


def report_items():
    """Figures and tables of the bounds section of ``ctlcc report``."""
    figure, ax = new_figure(figsize=(7.5, 5.2))
    plot_iftp_bandwidth_rtt(ax=ax)
    ax.set_title("IFTP bandwidth x RTT vs file size, ideal and worst case\n" +
                 cite("iftp", "Figure 3, eqs. (10)-(20) and (27)") + "; Ws = 32, Wmax = 50")
    yield ReportFigure(
        "iftp_fig3_bandwidth_rtt_vs_n",
        "IFTP ideal-case bandwidth x RTT theta(N) R / P (eqs. (10)-(19)) for Ws = 32, Wmax = 50, "
        "computed exactly (enumeration) and with the printed closed forms, which count one extra "
        "round trip for N not a power of two in case 1 and for every N in case 3. Shaded bands "
        "and markers are the N ranges the paper gives for Figure 3's three cases "
        "(data/iftp_fig3_cases.csv; the plotted values themselves are not in the text). Worst "
        "case: eq. (27) times R = 22 ms, tau = 8 ms (1000 B at 1 Mb/s), our choice.",
        figure)

    figure, (ax, ratio_ax) = new_figure(2, 1, figsize=(7.5, 8.0), sharex=True)
    plot_rate_vs_loss(ax=ax, ratio_ax=ratio_ax)
    ax.set_title("TCP-friendly rate vs loss: square-root law, C = 1.22, 1.30, 1.27\n"
                 f"({cite('cbraa', '§2, eq. (1)')}); PFTK ({cite('pftk', 'eq. (31)')});\n"
                 f"TFRC ({cite('rfc5348', '§3.1')}); IFTP ({cite('iftp', 'eqs. (23)+(25)')})",
                 fontsize="medium")
    yield ReportFigure(
        "rate_vs_loss_mathis_pftk_tfrc_iftp",
        "Rate vs loss event rate p for RTT = 0.1 s, T0 = t_RTO = 0.4 s, b = 1, no Wmax. The three "
        "Mathis constants differ by a fixed factor; PFTK and TFRC fall below the square-root law "
        "once timeouts matter (shaded: PFTK < 0.9 x the sqrt(3/2) law); the dash-dotted line is "
        "p = 0.16, beyond which Ait-Hellal et al. say eq. (1) does not apply. IFTP's exact steady state "
        "(3/4)(sqrt(1 + 8/(3p)) - 1)/R lies below its printed bound eq. (26), which equals the "
        "sqrt(3/2) law.",
        figure)

    figure, (ax_rate, ax_rtt, ax_ratio) = new_figure(1, 3, figsize=(15.0, 4.8))
    plot_loss_th(ax_rate, ax_rtt, ax_ratio)
    figure.suptitle(f"CBRAA ideal loss Loss_th = 1/(B Cycle), {cite('cbraa', 'eqs. (3)-(4)')}: "
                    "vs rate, vs RTT, and printed vs exact constants")
    yield ReportFigure(
        "cbraa_eq4_loss_th_vs_rate_and_rtt",
        "CBRAA's ideal TCP Reno loss ratio, exact (392/243)/(B²R² + (14/9) B R) (solid) and as "
        "printed 1.61/(B²R² + 1.54 B R) (dashed; indistinguishable at this scale, the right panel "
        "shows the -0.2 %..+0.8 % difference, and that of Figure 1's 1/(B Cycle) with 0.62, 0.96). "
        "Values above 1 (window below half a packet) are not drawn. Markers: the operating "
        "points quoted in Ait-Hellal, Yamamoto & Leduc (1999), §4 (data/cbraa_section4.csv, 1000-byte packets).",
        figure)

    rows = _read_csv("iftp_closed_form_vs_enumeration.csv")
    yield ReportTable(
        "iftp_closed_form_vs_enumeration",
        "IFTP round trips k(N) by enumeration of 1, 2, 4, ..., Ws, Ws+1, ..., Wmax, Wmax, ... "
        "and by the printed eqs. (15)-(19) (Ws = 32, Wmax = 50); theta error = "
        "k_enum/k_printed - 1. Source: data/iftp_closed_form_vs_enumeration.csv.",
        ("N", "case (enum)", "case (printed)", "k enum", "k printed", "theta error"),
        tuple((int(r["N"]), int(r["case_enumerated"]), int(r["case_published"]),
               int(r["round_trips_enumerated"]), int(r["round_trips_published"]),
               float(r["theta_published_rel_error"])) for r in rows))

    rows = _read_csv("paper_constants.csv")
    yield ReportTable(
        "paper_constants",
        "Every printed constant of 004, 003 and 000 that ctlcc reproduces, its exact form and "
        "how it is reproduced (data/paper_constants.csv).",
        ("name", "printed", "exact", "reproduced by", "note"),
        tuple((r["name"], r["printed"], r["exact_expression"], r["reproduced_by"], r["note"])
              for r in rows))


def _probability(values):
    """Hide values above 1 (not a loss ratio) instead of drawing them."""
    values = np.asarray(values, dtype=float)
    return np.where(values <= 1.0, values, np.nan)


def _read_csv(name):
    with _data.path(name).open(newline="") as handle:
        return list(csv.DictReader(handle))
