# ctlcc.plots.cbraa_experiments - CBRAA's §4 figures re-run on ctlcc's engine, paper overlaid
"""Figures of :mod:`ctlcc.experiments.cbraa` with the numbers of §4 overlaid.

Goodput against time for Figs. 3 and 4 (the paper's averages and fair
shares as dashed segments), the average rates of Figs. 5 and 6 as bars
beside the paper's, and the table of the checked claims.
"""

import numpy as np

from ..experiments import cbraa as exp
from ..references import cite
from . import ReportFigure, ReportTable, get_axes, new_figure

__all__ = ["plot_fig3", "plot_fig4", "plot_bars", "claims_table", "readings_table",
           "report_items"]

COLOURS = {"CBRAA": "C3", "TCP-Friend": "C1"}
_KB = 1e3


def plot_fig3(runs, ax=None):
    """Fig. 3: goodput of TCP-Friend (first run) and CBRAA (second run) beside Reno.

    The two runs are drawn one after the other (CBRAA shifted by the first
    run's length), as the paper replaces the TCP-Friend source by CBRAA.

    Parameters
    ----------
    runs : tuple of RateRun
        :func:`ctlcc.experiments.cbraa.fig3`.
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = get_axes(ax)
    friend, cb = runs
    shift = friend.duration
    ax.plot(friend.time, friend.goodput[:, 0] / _KB, color="C1", lw=0.8,
            label="TCP-Friend (ctlcc)")
    ax.plot(friend.time, friend.goodput[:, 1] / _KB, color="C0", lw=0.5, alpha=0.5,
            label="TCP Reno (ctlcc)")
    ax.plot(cb.time + shift, cb.goodput[:, 0] / _KB, color="C3", lw=1.0, label="CBRAA (ctlcc)")
    ax.plot(cb.time + shift, cb.goodput[:, 1] / _KB, color="C0", lw=0.5, alpha=0.5)
    pub = exp.published()
    fair = pub["fair_share_2_sources"]["value"] / 8 / _KB
    ax.axhline(fair, color="k", ls="--", lw=1,
               label=f"paper: fair share 2 Mb/s ({pub['fair_share_2_sources']['location']})")
    conv = pub["s4_1_cbraa_convergence"]["value"]
    ax.axvline(shift + conv, color="C3", ls=":", lw=1,
               label=f"paper: CBRAA at its fair share after {conv:g} s (§4.1)")
    ax.axvline(shift, color="grey", lw=0.8)
    ax.set_xlabel("time [s] (TCP-Friend run, then CBRAA run)")
    ax.set_ylabel("goodput [kbyte/s]")
    ax.set_title(f"{cite('cbraa', 'Fig. 3')}: TCP-Friend vs CBRAA beside TCP Reno")
    ax.legend(fontsize="small", loc="upper right")
    ax.set_ylim(0, 2.4 * fair)
    return ax


def plot_fig4(run, ax=None):
    """Fig. 4: goodput of the four sources, the paper's averages as segments.

    Parameters
    ----------
    run : RateRun
        :func:`ctlcc.experiments.cbraa.fig4`.
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = get_axes(ax)
    for i, label in enumerate(run.labels):
        smooth = _moving(run.goodput[:, i], 5)
        ax.plot(run.time[4:], smooth / _KB, lw=1.2 if i == 0 else 0.7,
                color="C3" if i == 0 else f"C{i - 1}", label=f"{label} (ctlcc, 5-s mean)")
    pub = exp.published()
    segments = [
        (70, 300, pub["cbraa_rate_70_300s"]["value"], "paper: CBRAA 270 kbyte/s, 70-300 s"),
        (310, 550, pub["fair_share_4_sources"]["value"] / 8, "paper: every source ~1 Mb/s"),
        (570, 700, pub["cbraa_rate_570_700s"]["value"],
         "paper: CBRAA 200 kbyte/s = 1.6 Mb/s, 570-700 s"),
    ]
    for k, (t0, t1, v, label) in enumerate(segments):
        ax.hlines(v / _KB, t0, t1, colors="k", linestyles=("--", ":", "-.")[k], lw=1.5,
                  label=label)
    ax.set_xlabel("time [s]")
    ax.set_ylabel("goodput [kbyte/s]")
    ax.set_title(f"{cite('cbraa', 'Fig. 4')}: two TCP sources arrive at 300 s, leave at "
                 f"550/560 s")
    ax.legend(fontsize="x-small", loc="upper right", ncol=2)
    ax.set_ylim(0, 600)
    return ax


def plot_bars(run, paper, ideal=None, ax=None, title=""):
    """Average goodput per source after the warm-up, ctlcc beside the paper.

    Parameters
    ----------
    run : RateRun
    paper : sequence of float
        The paper's averages, one per source. [B/s]
    ideal : sequence of float, optional
        The paper's ideal shares (Fig. 6). [B/s]
    ax : matplotlib.axes.Axes, optional
    title : str

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = get_axes(ax)
    x = np.arange(len(run.labels))
    got = [run.mean(i, exp.WARMUP, run.duration) / _KB for i in x]
    width = 0.38 if ideal is None else 0.27
    ax.bar(x - width / 2 if ideal is None else x - width, np.asarray(paper) / _KB, width,
           color="0.6", label="paper (§4.3)")
    if ideal is not None:
        ax.bar(x, np.asarray(ideal) / _KB, width, color="0.85", hatch="//",
               label="paper: ideal share (rate ~ 1/RTT)")
    ax.bar(x + width / 2 if ideal is None else x + width, got, width, color="C3",
           label=f"ctlcc ({exp.WARMUP:g}-{run.duration:g} s)")
    labels = list(run.labels)
    if ideal is not None:
        labels = [f"{lab}\nRTT {r * 1e3:.0f} ms" for lab, r in zip(labels, run.rtt)]
    ax.set_xticks(x, labels, fontsize="small")
    ax.set_xlabel("source")
    ax.set_ylabel("mean goodput [kbyte/s]")
    ax.set_title(title)
    ax.legend(fontsize="small")
    return ax


def claims_table(claim_list):
    """The checked §4 claims as a report table."""
    rows = tuple((c.id, c.location, c.claim, c.published, round(c.value, 3), c.unit,
                  c.verdict, c.reason) for c in claim_list)
    return ReportTable(
        "cbraa_sim_claims",
        f"Claims of {cite('cbraa', '§4')} on its simulations (data/cbraa_section4.csv), "
        f"checked on ctlcc's packet engine (ctlcc.experiments.cbraa.claims; tolerance "
        f"{exp.TOLERANCE:.0%} on the paper's averages).",
        ("id", "location", "claim", "published", "ctlcc", "unit", "verdict", "reason"), rows)


def readings_table(readings):
    """Each claim's value and verdict for several values of beta (:func:`~ctlcc.experiments.cbraa.readings`)."""
    betas = sorted(readings)
    first = readings[betas[0]]
    rows = tuple((c.id, c.published, c.unit) + tuple(
        f"{readings[b][i].value:.3g} ({readings[b][i].verdict})" for b in betas)
        for i, c in enumerate(first))
    return ReportTable(
        "cbraa_beta_readings",
        f"{cite('cbraa', '§3.2')} blends Loss_th and Loss_obs with a weight beta it does not "
        f"print: every §4 claim for several beta (quick runs: 300 s for Figs. 3, 5, 6).",
        ("id", "published", "unit") + tuple(f"beta = {b:g}" for b in betas), rows)


def report_items(results=None, alternative=None, readings=None):
    """Figures, the claims table and the beta readings for ``ctlcc report``."""
    res = exp.run_all(quick=False) if results is None else results
    if alternative is None:
        alternative = exp.run_all(quick=False, sender=exp.ALTERNATIVE)
    fig, ax = new_figure(figsize=(9, 4.5))
    plot_fig3(res["fig3"], ax)
    yield ReportFigure(
        "cbraa_fig3_smoothness",
        "Fig. 3 on the Fig. 2 dumbbell (4 Mb/s, 50 ms, 20-packet buffer, 1000-byte packets): "
        "goodput per second of a TCP-Friend source beside TCP Reno, then of CBRAA beside "
        "Reno; dashed: the paper's 2 Mb/s fair share, dotted: its 60-s convergence.", fig)
    fig, ax = new_figure(figsize=(9, 4.5))
    plot_fig4(res["fig4"], ax)
    yield ReportFigure(
        "cbraa_fig4_arrivals",
        "Fig. 4: one TCP and one CBRAA source; two TCP sources join at 300 s and leave at 550 "
        "and 560 s (the paper's times); segments: the paper's averages and fair shares.", fig)
    pub = exp.published()
    fig, axes = new_figure(1, 2, figsize=(11, 4.5))
    plot_bars(res["fig5"], [pub[k]["value"] for k in ("fig5_cbraa_rate", "fig5_tcp1_rate",
                                                      "fig5_tcp2_rate", "fig5_tcp3_rate")],
              ax=axes[0], title="Fig. 5: three TCP + one CBRAA, equal RTTs")
    plot_bars(res["fig6"], [pub[k]["value"] for k in ("fig6_tcp_rate", "fig6_cbraa_short_rate",
                                                      "fig6_cbraa_long_rate")],
              ideal=[pub[k]["value"] for k in ("fig6_ideal_short", "fig6_ideal_short",
                                               "fig6_ideal_long")],
              ax=axes[1], title="Fig. 6: 25 ms and 100 ms propagation")
    fig.suptitle(f"{cite('cbraa', 'Figs. 5-6')}: mean rates, ctlcc vs paper")
    yield ReportFigure(
        "cbraa_fig5_6_shares",
        "Figs. 5-6: mean goodput of each source after 60 s, ctlcc beside the paper's averages "
        "(Fig. 5: three TCP and one CBRAA source; Fig. 6: TCP and CBRAA at 25 ms, CBRAA at "
        "100 ms one-way propagation).", fig)
    yield claims_table(exp.claims(res, alternative=alternative))
    yield readings_table(exp.readings() if readings is None else readings)


def _moving(x, k):
    return np.convolve(x, np.ones(k) / k, mode="valid")
