# ctlcc.plots.fuzzy - figures of ST-PD's fuzzy supervisor (thesis §3.4.3.2)
"""Figures of ST-PD's fuzzy supervisor and its stability surfaces.

Membership functions, the kp/kd gain schedules, the spectral radius of the
fuzzy-tuned loop over (BDP, m) with the stability boundary and the
physically consistent diagonal, the rule-assignment comparison and
before/after tuning (Xu (2002), §3.4.3.2, §4.3).
"""

import numpy as np
from matplotlib.colors import TwoSlopeNorm

from ..references import cite
from ..analysis.fuzzy_surface import compare_rule_assignments, gain_surface, tune_breakpoints
from ..laws.stpd_fuzzy import (
    CALIBRATIONS,
    DIRECT_RULES,
    EXAMPLE_BDP,
    INVERSE_RULES,
    SCENARIO_BDPS,
    TERMS,
    FuzzySupervisor,
    default_config,
)
from . import ReportFigure, ReportTable, get_axes, new_figure, pyplot_axes

__all__ = [
    "plot_input_memberships",
    "plot_output_memberships",
    "plot_gain_schedules",
    "plot_radius_surface",
    "plot_diagonal",
    "report_items",
]

_TERM_COLOURS = dict(zip(TERMS, ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple")))
_SOURCE = cite("stpd", "§3.4.3.2")


def plot_input_memberships(supervisor=None, ax=None, scenarios=True):
    """BDP membership functions ES..EL (log BDP axis).

    Parameters
    ----------
    supervisor : FuzzySupervisor, optional
    ax : matplotlib.axes.Axes, optional
    scenarios : bool, optional
        Mark the thesis's scenario BDPs (3, 9, 31, 94 packets).

    Returns
    -------
    matplotlib.axes.Axes
    """
    supervisor = FuzzySupervisor() if supervisor is None else supervisor
    ax = get_axes(ax)
    low, high = supervisor.config.bdp_universe
    x = np.union1d(np.geomspace(low, high, 400), supervisor.config.bdp_peaks)
    for term, mu in zip(TERMS, supervisor.memberships(x)):
        ax.plot(x, mu, color=_TERM_COLOURS[term], label=term)
    if scenarios:
        for i, bdp in enumerate((EXAMPLE_BDP,) + SCENARIO_BDPS):
            ax.axvline(bdp, color="0.5", ls=":", lw=0.9,
                       label="thesis links\n(3, 9, 31, 94)" if i == 0 else None)
    ax.set_xscale("log")
    ax.set_xlabel("perceived BDP [packets]")
    ax.set_ylabel("membership μ [1]")
    ax.set_ylim(-0.02, 1.05)
    ax.legend(fontsize="x-small", ncol=1, loc="center right")
    return ax


def plot_output_memberships(supervisor=None, gain="kp", ax=None):
    """Output terms of one gain; CoM uses only their maxima (markers).

    Parameters
    ----------
    supervisor : FuzzySupervisor, optional
    gain : {"kp", "kd"}
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    supervisor = FuzzySupervisor() if supervisor is None else supervisor
    ax = get_axes(ax)
    config = supervisor.config
    low, high = config.output_universe[gain]
    maxima = config.output_maxima[gain]
    y = np.union1d(np.linspace(low, high, 400), maxima)
    for term, mu, peak in zip(TERMS, supervisor.output_memberships(gain, y), maxima):
        ax.plot(y, mu, color=_TERM_COLOURS[term], label=f"{term} ({peak:.3g})")
        ax.plot([peak], [1.0], marker="v", color=_TERM_COLOURS[term])
    ax.set_xlabel(f"{gain} [1]")
    ax.set_ylabel("membership μ [1]")
    ax.set_ylim(-0.02, 1.4)
    ax.legend(fontsize="x-small", ncol=3, loc="upper center", title="term (maximum)",
              title_fontsize="x-small")
    return ax


def plot_gain_schedules(supervisors, ax=None, bdp=None):
    """kp(BDP) and kd(BDP) of one or more supervisors.

    Parameters
    ----------
    supervisors : dict
        Label -> FuzzySupervisor.
    ax : sequence of two Axes, optional
        (kp axes, kd axes); new ones if None.
    bdp : array_like, optional
        BDP grid. [packets]

    Returns
    -------
    tuple of matplotlib.axes.Axes
    """
    if ax is None:
        ax = pyplot_axes(1, 2, figsize=(10, 4))
    ax_kp, ax_kd = ax
    for k, (label, sup) in enumerate(supervisors.items()):
        low, high = sup.config.bdp_universe
        grid = np.geomspace(low, high, 400) if bdp is None else np.asarray(bdp)
        grid = np.union1d(grid, [b for b in sup.config.bdp_peaks if grid.min() <= b <= grid.max()])
        kp, kd = sup.gains(grid)
        style = dict(color=f"C{k}", label=label)
        ax_kp.plot(grid, kp, **style)
        ax_kd.plot(grid, kd, **style)
        scen = np.array(SCENARIO_BDPS)
        skp, skd = sup.gains(scen)
        ax_kp.plot(scen, skp, "o", color=f"C{k}", mfc="none")
        ax_kd.plot(scen, skd, "o", color=f"C{k}", mfc="none")
    for axis, name in ((ax_kp, "kp"), (ax_kd, "kd")):
        axis.set_xscale("log")
        axis.set_xlabel("perceived BDP [packets]")
        axis.set_ylabel(f"{name} [1]")
        axis.grid(alpha=0.3)
        axis.legend(fontsize="small")
    first = next(iter(supervisors.values())).config.rules
    ax_kp.set_title(f"kp: {_describe_rules(first['kp'])}", fontsize="medium")
    ax_kd.set_title(f"kd: {_describe_rules(first['kd'])}", fontsize="medium")
    return ax_kp, ax_kd


def plot_radius_surface(surface, ax=None, colorbar=True, levels=(0.9,), vmin=0.7, vmax=1.1):
    """Spectral radius over (BDP, m) with the stability boundary and diagonal.

    Parameters
    ----------
    surface : ctlcc.analysis.fuzzy_surface.GainSurface
    ax : matplotlib.axes.Axes, optional
    colorbar : bool, optional
    levels : sequence of float, optional
        Extra contour levels drawn dashed (e.g. 0.9). [1]
    vmin, vmax : float, optional
        Colour range, white at rho = 1; values outside saturate. [1]

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = get_axes(ax)
    radius = surface.spectral_radius
    norm = TwoSlopeNorm(vmin=vmin, vcenter=1.0, vmax=vmax)
    mesh = ax.pcolormesh(surface.bdp, surface.m, radius, cmap="RdBu_r", norm=norm, shading="nearest")
    if radius.min() < 1.0 < radius.max():
        ax.contour(surface.bdp, surface.m, radius, levels=[1.0], colors="k", linewidths=1.6)
        ax.plot([], [], "k-", lw=1.6, label="stability boundary ρ = 1")
    for level in levels:
        if radius.min() < level < radius.max():
            ax.contour(surface.bdp, surface.m, radius, levels=[level], colors="k",
                       linewidths=0.9, linestyles="--")
            ax.plot([], [], "k--", lw=0.9, label=f"ρ = {level:g}")
    diag = (surface.diagonal_m >= surface.m.min()) & (surface.diagonal_m <= surface.m.max())
    ax.plot(surface.bdp[diag], surface.diagonal_m[diag], color="gold", lw=2.2,
            label="physical diagonal m = BDP")
    bad = diag & ~surface.diagonal_stable
    ax.plot(surface.bdp[bad], surface.diagonal_m[bad], "x", color="gold", ms=5,
            label="diagonal unstable")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("perceived BDP (sets kp, kd) [packets]")
    ax.set_ylabel("round trip m [slots]")
    ax.legend(fontsize="x-small", loc="upper left", framealpha=0.85)
    if colorbar:
        ax.figure.colorbar(mesh, ax=ax, extend="both",
                           label="spectral radius ρ [1]  (red: unstable)")
    return ax


def plot_diagonal(bdp, curves, ax=None, target=None, ylabel="spectral radius ρ on m = BDP [1]"):
    """Curves along the physical diagonal m = round(BDP).

    Parameters
    ----------
    bdp : array_like
        [packets]
    curves : dict
        Label -> values at *bdp*.
    ax : matplotlib.axes.Axes, optional
    target : float, optional
        Horizontal target line. [1]
    ylabel : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = get_axes(ax)
    for k, (label, values) in enumerate(curves.items()):
        ax.plot(bdp, values, marker=".", color=f"C{k}", label=label)
    ax.axhline(1.0, color="k", lw=1.2, label="stability limit")
    if target is not None:
        ax.axhline(target, color="k", lw=0.9, ls="--", label=f"target {target:g}")
    for bdp_value in SCENARIO_BDPS:
        ax.axvline(bdp_value, color="0.6", ls=":", lw=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("BDP = round trip m [packets = slots]")
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    ax.legend(fontsize="x-small")
    return ax


def report_items():
    """Figures and tables of the fuzzy supervisor for ``ctlcc report``."""
    default = FuzzySupervisor()
    printed = FuzzySupervisor(default_config("printed"))

    figure, axes = new_figure(1, 3, figsize=(15, 4.2))
    plot_input_memberships(default, ax=axes[0])
    axes[0].set_title("BDP terms (Fig. 3.4 lost in OCR: ctlcc default)", fontsize="medium")
    plot_output_memberships(default, "kp", ax=axes[1])
    axes[1].set_title("kp terms (Fig. 3.5a), CoM uses the maxima ▼", fontsize="medium")
    plot_output_memberships(default, "kd", ax=axes[2])
    axes[2].set_title("kd terms (Fig. 3.5b), CoM uses the maxima ▼", fontsize="medium")
    figure.suptitle(f"ST-PD fuzzy supervisor membership functions, {_SOURCE} (Figs. 3.4-3.5)")
    yield ReportFigure(
        "thesis_fig3_4_3_5_membership_functions",
        "Membership functions of the default supervisor: a strong partition of the BDP with peaks "
        "3, 9, 31, 94, 300 packets (the §4.3.3 link and the three simulation scenarios), and the "
        "output terms of kp and kd as equally spaced ladders centred on kp = 0.033, kd = 0.368.",
        figure,
    )

    figure, axes = new_figure(1, 2, figsize=(11, 4.2))
    plot_gain_schedules({"calibration 'poles' (default)": default,
                         "calibration 'printed'": printed}, ax=axes)
    for axis, gain in zip(axes, (0, 1)):
        for k, calib in enumerate(("poles", "printed")):
            axis.axhline(CALIBRATIONS[calib][gain], color=f"C{k}", ls="--", lw=0.8)
    figure.suptitle(f"ST-PD gain schedules, {_SOURCE}; circles: scenarios 9, 31, 94 packets, "
                    "dashed: their average (§4.3.3)", fontsize="medium")
    yield ReportFigure(
        "thesis_sec3_4_3_2_gain_schedules",
        "kp(BDP) and kd(BDP) by CoM. Averaged over the scenarios (circles) the default gives "
        "kp = 0.033, kd = 0.368, the pair that reproduces the poles printed in §4.3.3; "
        "'printed' uses the pair as printed (kp = 0.368, kd = 0.033).",
        figure,
    )

    bdp = np.geomspace(1.0, 150.0, 40)
    m = np.unique(np.rint(np.geomspace(1, 150, 34)).astype(int))
    surface = default.surface(bdp, m)
    figure, ax = new_figure(figsize=(7.5, 5.6))
    plot_radius_surface(surface, ax=ax)
    ax.set_title("Spectral radius of the fuzzy-tuned ST-PD loop (per-slot model)\n"
                 f"{_SOURCE} schedule in eqs. (4.1)-(4.11)", fontsize="medium")
    stable_to = surface.largest_stable_bdp()
    yield ReportFigure(
        "thesis_sec3_4_3_2_spectral_radius_surface",
        "Spectral radius of the per-slot loop with the default schedule: the BDP sets kp, kd; "
        "m is the round trip. Black: stability boundary; gold: the physical diagonal m = BDP, "
        f"stable only up to BDP = {stable_to:.3g} packets on this grid; the thesis's scenarios "
        "(9, 31, 94) are unstable.",
        figure,
    )

    bdp_diag = np.geomspace(1.0, 150.0, 36)
    comparison = compare_rule_assignments(bdp_diag)
    figure, ax = new_figure(figsize=(7.5, 4.6))
    plot_diagonal(bdp_diag, comparison.radius, ax=ax)
    ax.set_title("Which rule base drives which gain: ρ on the diagonal m = BDP\n"
                 f"{_SOURCE}, per-slot loop (4.1)-(4.11)", fontsize="medium")
    yield ReportFigure(
        "fuzzy_rule_assignment_diagonal",
        "Spectral radius along m = BDP for the thesis's reading (kp inverse, kd direct), the "
        "swapped reading and both inverse, with the default output terms; dotted: scenarios.",
        figure,
    )

    yield from _tuning_items(default)
    yield _scenario_table(default, printed)


def _tuning_items(default):
    inverse = default.with_config(rules={"kp": dict(INVERSE_RULES), "kd": dict(INVERSE_RULES)})
    runs = {
        "thesis rules": tune_breakpoints(default, bdp_range=(3.0, 31.0), target=0.9,
                                         tune="output", n_points=7, maxiter=500, restarts=2),
        "kd inverse": tune_breakpoints(inverse, bdp_range=(3.0, 31.0), target=0.9,
                                       tune="output", n_points=7, maxiter=500, restarts=2),
    }
    figure, axes = new_figure(1, 3, figsize=(16, 4.6))
    curves = {}
    for name, run in runs.items():
        curves[f"{name}, before"] = run.contraction_before
        curves[f"{name}, after (target {'met' if run.met else 'NOT met'})"] = run.contraction_after
    plot_diagonal(runs["thesis rules"].bdp, curves, ax=axes[0], target=0.9,
                  ylabel="slowest-mode decay per round trip ρ^m [1]")
    axes[0].set_ylim(0, 1.6)
    axes[0].set_title("Target ρ^m ≤ 0.9 on BDP 3-31, m = BDP", fontsize="medium")
    bdp = np.geomspace(1.0, 60.0, 30)
    m = np.unique(np.rint(np.geomspace(1, 60, 24)).astype(int))
    for axis, (label, sup) in zip(axes[1:], (("before (default)", default),
                                             ("after, thesis rules", runs["thesis rules"].after))):
        plot_radius_surface(sup.surface(bdp, m), ax=axis, colorbar=axis is axes[2])
        axis.set_title(f"ρ over (BDP, m), {label}", fontsize="medium")
    figure.suptitle(f"tune_breakpoints(tune='output'): Nelder-Mead on the output maxima, {_SOURCE}",
                    fontsize="medium")
    yield ReportFigure(
        "fuzzy_tuning_before_after",
        "Output maxima fitted so the slowest mode decays by >= 10 % per round trip on the diagonal "
        "BDP 3-31. With the thesis's direct kd rule base the target is "
        f"{'met' if runs['thesis rules'].met else 'not met'} (kd must grow with the BDP, "
        "the loop needs it to shrink); with kd inverse it is "
        f"{'met' if runs['kd inverse'].met else 'not met'}. Right: surfaces before/after "
        "(thesis rules).",
        figure,
    )


def _scenario_table(default, printed):
    rows = []
    bdp = np.array((EXAMPLE_BDP,) + SCENARIO_BDPS)
    for label, sup in (("poles", default), ("printed", printed)):
        kp, kd = sup.gains(bdp)
        surface = sup.surface(bdp, [3])
        for b, p, d, r3, rd in zip(bdp, kp, kd, surface.spectral_radius[0], surface.diagonal_radius):
            rows.append((label, float(b), float(p), float(d), float(r3), float(rd)))
    return ReportTable(
        "fuzzy_scenario_gains",
        "Scheduled gains at the §4.3.3 link (BDP 3) and the thesis's scenarios (9, 31, 94), "
        "with the per-slot spectral radius at m = 3 (the §4.3.3 loop) and on the diagonal m = BDP.",
        ("calibration", "BDP [packets]", "kp [1]", "kd [1]", "rho at m=3 [1]", "rho at m=BDP [1]"),
        tuple(rows),
    )


def _describe_rules(rules):
    if dict(rules) == dict(INVERSE_RULES):
        return "inverse rule base (ES→EL … EL→ES)"
    if dict(rules) == dict(DIRECT_RULES):
        return "direct rule base (ES→ES … EL→EL)"
    return "custom rule base"
