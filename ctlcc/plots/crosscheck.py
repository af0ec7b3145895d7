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
    band = _declared_tolerance("cbraa-reno-square-root-law-*", sqrt_check.predicted)
    ax.fill_between(p_sqrt, sqrt_check.predicted - band, sqrt_check.predicted + band,
                    color="C0", alpha=0.15)
    ax.plot(p_pftk, pftk_check.predicted, "^-", color="C1", label="PFTK full model (eq. 31)")
    band = _declared_tolerance("pftk-reno-pftk-*", pftk_check.predicted)
    ax.fill_between(p_pftk, pftk_check.predicted - band, pftk_check.predicted + band,
                    color="C1", alpha=0.15,
                    label="declared tolerances (data/ledger_*.csv, before the seeds' part)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("packet-error probability p [1]")
    ax.set_ylabel("send rate [packets/s]")
    ax.set_title("Reno under Bernoulli loss: Mathis vs PFTK vs packets\n"
                 f"({cite('stpd', 'Fig. 4.7')} path, 1.5 Mb/s, 80 ms)")
    ax.legend(fontsize="small")
    ax.grid(True, which="both", alpha=0.3)
    return ax


def _declared_tolerance(rule_id, predicted):
    """The tolerance the ledger declares for the records *rule_id*, at each prediction."""
    from ..claims import rules

    rule = rules()[rule_id]
    return np.array([rule.absolute_tolerance(p) for p in predicted])


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
        declared in ``data/ledger_*.csv``: the one verdict a check has.

    Returns
    -------
    ReportTable
    """
    by_check = _records_by_check(_records(checks, records))
    rows = []
    for check in checks:
        worst = _worst(check)
        mine = by_check.get(check.name, [])
        ledger = "; ".join(f"{c.id} ({c.kind}): {c.verdict}" for c in mine) or "—"
        rows.append((check.name, check.claim, check.source, ledger,
                     f"{check.labels[worst]}: {check.error[worst]:+.4g}", check.note))
    return ReportTable(
        "crosscheck_summary",
        "Every cross-check of ctlcc.crosscheck against the packet simulator: the ledger records "
        "it feeds, with their verdicts (tolerances declared in data/ledger_*.csv), and the "
        "point farthest from the prediction (largest |measured - predicted| / |predicted|), "
        "with its error measured - predicted.",
        ("check", "claim", "source", "ledger records (kind): verdict", "worst point: error",
         "note"),
        tuple(rows))


def _records(checks, records):
    if records is None:
        from ..claims import evaluate, units

        records = evaluate(units(section="crosscheck"),
                           results={check.name: check for check in checks})
    return records


def _worst(check):
    """Index of the point with the largest relative error (absolute where the prediction is 0)."""
    size = np.where(np.isfinite(check.relative_error), np.abs(check.relative_error),
                    np.abs(check.error))
    return int(np.nanargmax(size)) if np.any(np.isfinite(size)) else 0


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


def detail_table(checks, records=None):
    """One row per compared point of every check, with the ledger's verdict of its record.

    Parameters
    ----------
    checks : sequence of ctlcc.crosscheck.CrossCheck
    records : sequence of ctlcc.claims.Claim, optional
        As in :func:`summary_table`.

    Returns
    -------
    ReportTable
    """
    from ..claims._common import slug

    by_check = _records_by_check(_records(checks, records))
    rows = []
    for check in checks:
        mine = by_check.get(check.name, [])
        for row in check.rows():
            label = slug(row[1])
            verdicts = [f"{c.id}: {c.verdict}" for c in mine if c.id.endswith("-" + label)]
            rows.append(row[:2] + (check.quantity,) + row[2:]
                        + ("; ".join(verdicts) or "— (judged as a whole: crosscheck_summary)",))
    return ReportTable(
        "crosscheck_points",
        "Predicted (analysis/bounds) vs measured (packet simulator, mean ± sd over seeds) for "
        "every point of every check, with the ledger's verdict of the point's record "
        "(tolerances declared in data/ledger_*.csv; records judged on a check as a whole are "
        "in crosscheck_summary and on the claims pages).",
        ("check", "point", "quantity", "predicted", "measured", "ledger record: verdict"),
        tuple(rows))


def report_items():
    """Cross-check tables and figure for ``ctlcc report --section crosscheck``."""
    from .. import crosscheck

    checks = crosscheck.run_all()
    records = _records(checks, None)
    yield summary_table(checks, records)
    yield detail_table(checks, records)
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
        "the tolerances the ledger declares for these records (data/ledger_*.csv; the verdict "
        "adds twice the standard error over seeds).",
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
