# ctlcc.plots.crosscheck - cross-check tables and the Reno-vs-formulas figure
"""Figures and tables of :mod:`ctlcc.crosscheck` for ``ctlcc report``.

``report_items()`` runs every claim once (:func:`ctlcc.crosscheck.run_all`)
and yields a summary table (one row per claim), a detail table (one row
per compared point) and the figure of Reno's send rate against the
square-root law and PFTK.
"""

import fnmatch

import numpy as np

from ..references import cite
from . import ReportFigure, ReportTable, get_axes, new_figure

__all__ = ["plot_reno_vs_formulas", "plot_stpd_decay", "summary_table", "detail_table",
           "report_items"]


def plot_reno_vs_formulas(sqrt_check, pftk_check, ax=None, sqrt_beyond=None):
    """Simulated Reno send rate vs the square-root law and PFTK.

    Parameters
    ----------
    sqrt_check, pftk_check : ctlcc.crosscheck.CrossCheck
        Results of :func:`~ctlcc.crosscheck.reno_square_root_law` and
        :func:`~ctlcc.crosscheck.reno_pftk` (same runs).
    ax : matplotlib.axes.Axes, optional
    sqrt_beyond : ctlcc.crosscheck.CrossCheck, optional
        The square-root law beyond its range (drawn dotted).

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = get_axes(ax)
    if sqrt_beyond is not None:
        p_out = np.array([float(label.split("=")[1]) for label in sqrt_beyond.labels])
        p_in = float(sqrt_check.labels[-1].split("=")[1])
        ax.plot(np.r_[p_in, p_out], np.r_[sqrt_check.predicted[-1], sqrt_beyond.predicted],
                "s:", color="C0", label="square-root law beyond p = 1e-2 (no timeouts)")
    p_pftk = np.array([float(label.split("=")[1]) for label in pftk_check.labels])
    p_sqrt = np.array([float(label.split("=")[1]) for label in sqrt_check.labels])
    ax.errorbar(p_pftk, pftk_check.measured, yerr=pftk_check.spread, fmt="o", color="k",
                capsize=3, label=f"packet sim ({pftk_check.parameters['protocol']}, "
                                 f"{len(pftk_check.parameters['seeds'])} seeds, mean ± sd)")
    ax.plot(p_sqrt, sqrt_check.predicted, "s--", color="C0",
            label=f"square-root law, C = sqrt(3/2) ({cite('mathis')})")
    ax.fill_between(p_sqrt, sqrt_check.predicted - sqrt_check.tolerance,
                    sqrt_check.predicted + sqrt_check.tolerance, color="C0", alpha=0.15)
    ax.plot(p_pftk, pftk_check.predicted, "^-", color="C1", label="PFTK full model (eq. 31)")
    ax.fill_between(p_pftk, pftk_check.predicted - pftk_check.tolerance,
                    pftk_check.predicted + pftk_check.tolerance, color="C1", alpha=0.15,
                    label="tolerance bands")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("packet-error probability p [1]")
    ax.set_ylabel("send rate [packets/s]")
    ax.set_title("Reno under Bernoulli loss: Mathis vs PFTK vs packets\n"
                 f"({cite('stpd', 'Fig. 4.7')} path, 1.5 Mb/s, 80 ms)")
    ax.legend(fontsize="small")
    ax.grid(True, which="both", alpha=0.3)
    return ax


def plot_stpd_decay(per_rtt_check, per_slot_check, ax=None):
    """ST-PD's simulated window transient against both loop models.

    Parameters
    ----------
    per_rtt_check, per_slot_check : ctlcc.crosscheck.CrossCheck
        :func:`~ctlcc.crosscheck.stpd_decay` with ``model="per_rtt"`` and
        ``"per_slot"`` (same runs).
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = get_axes(ax)
    curves = per_rtt_check.parameters["curves"]
    for i, (rounds, distance, mask, intercept) in enumerate(curves):
        color = f"C{i}"
        label = per_rtt_check.labels[i]
        ax.semilogy(rounds, np.maximum(distance, 1e-2), color=color, lw=1,
                    label=f"packets: {label}")
        if not np.isfinite(intercept):
            continue
        k = rounds[mask]
        start = np.exp(intercept + np.log(per_rtt_check.measured[i]) * k[0])
        span = np.linspace(k[0], min(k[0] + 150, rounds[-1]), 50)
        ax.semilogy(span, start * per_rtt_check.predicted[i] ** (span - k[0]), "--",
                    color=color, label=f"per-RTT loop, r = {per_rtt_check.predicted[i]:.3f}")
        grow = np.linspace(k[0], k[0] + np.log(100.0 / start)
                           / np.log(per_slot_check.predicted[i]), 20)
        ax.semilogy(grow, start * per_slot_check.predicted[i] ** (grow - k[0]), ":",
                    color=color, lw=3, zorder=5,
                    label=f"per-slot loop, r^m = {per_slot_check.predicted[i]:.2f}")
    ax.set_ylim(1e-1, 1e2)
    ax.set_xlim(0, 200)
    ax.set_xlabel("round trips (sender's count) [1]")
    ax.set_ylabel("|window - final window| [packets]")
    kp, kd = per_rtt_check.parameters["gains"]
    ax.set_title(f"ST-PD transient (kp={kp}, kd={kd}): packets vs loop models\n"
                 f"({cite('stpd', 'eqs. (3.5), (4.1)-(4.11)')}; Fig. 3.7 and 4.7 paths)")
    ax.legend(fontsize="x-small")
    ax.grid(True, which="both", alpha=0.3)
    return ax


def summary_table(checks, records=None):
    """One row per check: the ledger's records and verdicts it feeds, its worst point.

    Parameters
    ----------
    checks : sequence of ctlcc.crosscheck.CrossCheck
    records : sequence of ctlcc.claims.Claim, optional
        The ledger's records judged on these checks (default: evaluated here
        from the registered units).  Their verdicts follow the tolerances
        declared in ``data/ledger_*.csv``; a check's own ``passed`` is the
        function's acceptance band for interactive use, shown apart.

    Returns
    -------
    ReportTable
    """
    if records is None:
        from ..claims import evaluate, units

        records = evaluate(units(section="crosscheck"),
                           results={check.name: check for check in checks})
    by_check = _records_by_check(records)
    rows = []
    for check in checks:
        worst = int(np.nanargmax(np.abs(check.error) - check.tolerance)) \
            if np.any(np.isfinite(check.error)) else 0
        mine = by_check.get(check.name, [])
        ledger = "; ".join(f"{c.id} ({c.kind}): {c.verdict}" for c in mine) or "—"
        rows.append((check.name, check.claim, check.source, ledger,
                     f"{check.labels[worst]}: {check.error[worst]:+.4g}",
                     f"{int(np.sum(check.within))}/{len(check.within)} "
                     f"({'pass' if check.passed else 'FAIL'}): {check.tolerance_reason}",
                     check.note))
    return ReportTable(
        "crosscheck_summary",
        "Every cross-check of ctlcc.crosscheck against the packet simulator: the ledger records "
        "it feeds, with their verdicts (tolerances declared in data/ledger_*.csv), the worst "
        "point's error (measured - predicted), and the function's own acceptance band (for "
        "interactive use; not the ledger's verdict).",
        ("check", "claim", "source", "ledger records (kind): verdict", "worst point: error",
         "function's own band: within (pass/FAIL), why", "note"),
        tuple(rows))


def _records_by_check(records):
    """``{check name: [record]}``: the checks each ledger record's unit reads."""
    from ..claims import units

    out = {}
    for u in units(section="crosscheck"):
        for claim in records:
            if any(claim.id == p or ("*" in p and fnmatch.fnmatchcase(claim.id, p))
                   for p in u.ids):
                for name in u.needs:
                    out.setdefault(name, []).append(claim)
    return out


def detail_table(checks):
    """One row per compared point of every claim.

    Parameters
    ----------
    checks : sequence of ctlcc.crosscheck.CrossCheck

    Returns
    -------
    ReportTable
    """
    rows = []
    for check in checks:
        for row in check.rows():
            rows.append(row[:2] + (check.quantity,) + row[2:])
    return ReportTable(
        "crosscheck_points",
        "Predicted (analysis/bounds) vs measured (packet simulator, mean ± sd over seeds) for "
        "every point of every check, with the function's own acceptance band on |measured - "
        "predicted| (the ledger's verdicts, from data/ledger_*.csv, are in crosscheck_summary "
        "and on the claims pages).",
        ("check", "point", "quantity", "predicted", "measured", "own band", "own pass/FAIL"),
        tuple(rows))


def report_items():
    """Cross-check tables and figure for ``ctlcc report --section crosscheck``."""
    from .. import crosscheck

    checks = crosscheck.run_all()
    yield summary_table(checks)
    yield detail_table(checks)
    by_name = {check.name: check for check in checks}
    figure, ax = new_figure(figsize=(7.0, 5.0))
    plot_reno_vs_formulas(by_name["reno_square_root_law"], by_name["reno_pftk"], ax=ax,
                          sqrt_beyond=by_name["reno_square_root_law_beyond"])
    yield ReportFigure(
        "crosscheck_reno_vs_mathis_pftk",
        "NewReno's send rate on the thesis Fig. 4.7 path (1.5 Mb/s, 80 ms, 30-packet buffer, "
        "Bernoulli loss p on the wireless hop) over 3 seeds of 60 s, against the square-root "
        "law (Mathis et al. 1997, Ait-Hellal, Yamamoto & Leduc (1999), eq. 1) and the PFTK full "
        "model (Padhye et al. 1998 eq. 31) evaluated at the runs' mean RTT, T0 = 1 s; shaded: "
        "the tolerances.",
        figure)
    figure, ax = new_figure(figsize=(7.0, 5.0))
    plot_stpd_decay(by_name["stpd_decay_per_rtt"], by_name["stpd_decay_per_slot"], ax=ax)
    yield ReportFigure(
        "crosscheck_stpd_decay_per_rtt_vs_per_slot",
        "ST-PD started 10 packets above the BDP (100-packet buffer, no loss, thesis gains "
        "kp = 0.033, kd = 0.368): distance of the simulated window to its final value per "
        "round trip, with the decay the per-RTT loop predicts (dashed) and the growth of the "
        "thesis's per-slot loop at m = BDP (dotted, unstable).",
        figure)
