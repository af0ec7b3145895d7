# ctlcc.plots.baselines - CUBIC beside ST-PD and Primo in the papers' comparisons (report)
"""Figures of :mod:`ctlcc.experiments.baselines`: the papers' comparisons with CUBIC.

New results, not paper claims: each figure is the paper's comparison
re-run on ctlcc's engine with a CUBIC (RFC 9438) series added; the papers'
stated values stay drawn where their own figure functions draw them.
"""

import numpy as np

from ..experiments import baselines as exp
from ..references import cite
from . import ReportFigure, ReportTable, new_figure
from . import primo_experiments as primo_plots
from . import thesis_experiments as thesis_plots

__all__ = ["plot_sharing", "report_items"]

_NEW = "with CUBIC (RFC 9438) added: a baseline the paper did not run"


def _names(pair):
    return tuple(thesis_plots.LABELS.get(p, p) for p in pair)


def plot_sharing(result, ax=None):
    """The joining connection's share of Fig. 6.1's bottleneck, per pair.

    Parameters
    ----------
    result : ctlcc.experiments.baselines.SharingResult
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    if ax is None:
        _, ax = new_figure(figsize=(7.5, 4.6))
    x = np.arange(len(result.pairs))
    shares = np.asarray(result.shares, dtype=float)
    joining = [p[1] for p in result.pairs]
    for protocol in dict.fromkeys(joining):   # one legend entry per joining protocol
        where = [i for i, p in enumerate(joining) if p == protocol]
        ax.bar(x[where], shares[where], color=thesis_plots.COLOURS.get(protocol), width=0.6,
               label=f"{_names(('', protocol))[1]} joining: its share (ctlcc)")
    ax.axhline(0.5, color="k", ls="--", lw=1.0, label="fair share 1/2")
    ax.set_xticks(x, [f"{a} first,\n{b} joins at 5 s" for a, b in map(_names, result.pairs)],
                  fontsize="small")
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of in-order deliveries [1]")
    ax.set_xlabel("pair of connections on Fig. 6.1's bottleneck")
    ax.legend(fontsize="small", loc="upper left")
    ax.set_title(f"Sharing R1-R2 over [{5 + result.settle:g}, {result.duration:g}] s, buffer "
                 f"{result.buffer}, no loss\n{cite('stpd', '§6, Figs. 6.1-6.2')} {_NEW}",
                 fontsize="medium")
    return ax


def report_items(results=None):
    """Figures for ``ctlcc report`` (quick settings)."""
    if results is None:
        results = {**exp.thesis_comparisons(quick=True), "sharing": exp.sharing(),
                   "primo_sweeps": exp.primo_criteria(quick=True)}
    fig, ax = new_figure(figsize=(7.5, 5.2))
    loss = results["uniform_loss"]
    thesis_plots.plot_loss_sweep(loss, ax)
    ax.set_title(f"Throughput vs uniform wireless loss, Fig. 4.7 path, {loss.duration:g} s runs"
                 f"\n{cite('stpd', 'Fig. 4.8')} {_NEW}", fontsize="medium")
    yield ReportFigure(
        "baselines_thesis_fig4_8_cubic",
        f"The thesis's Fig. 4.8 (normalised throughput against uniform packet-error "
        f"probability, {len(loss.seeds)} seeds x {loss.duration:g} s) with CUBIC beside Tahoe, "
        f"Reno, NewReno, Vegas and ST-PD; stars: the thesis's stated values (none for CUBIC).",
        ax.figure)
    fig = thesis_plots.plot_bursty(results["bursty_loss"])
    fig.suptitle(f"Two-state bursty loss - {cite('stpd', 'Figs. 4.13-4.17')}\n{_NEW}",
                 fontsize="medium")
    yield ReportFigure(
        "baselines_thesis_fig4_13_17_cubic",
        "The thesis's bursty-loss experiment (Figs. 4.13-4.17) with CUBIC added.", fig)
    fig = thesis_plots.plot_geo(results["geo_burst"])
    fig.suptitle(f"GEO T1 path, packets 2000 and 2001 corrupted - "
                 f"{cite('stpd', 'Figs. 4.19-4.22')}\n{_NEW}", fontsize="medium")
    yield ReportFigure(
        "baselines_thesis_fig4_19_22_cubic",
        "The thesis's GEO burst (Figs. 4.19-4.22) with CUBIC added: window, throughput and "
        "in-order deliveries.", fig)
    share = results["sharing"]
    yield ReportFigure(
        "baselines_thesis_sec6_sharing_cubic",
        "§6's sharing on Fig. 6.1's dumbbell: the joining connection's share of the pair's "
        "in-order deliveries, ST-PD beside Reno (the thesis's case) and beside CUBIC, CUBIC "
        "beside Reno and beside CUBIC.", plot_sharing(share).figure)
    yield ReportTable(
        "baselines_thesis_sec6_sharing_cubic_table",
        "§6's sharing with CUBIC: in-order deliveries of each connection after the join "
        "(ctlcc, one deterministic run each).",
        ("first", "joining", "first delivered [packets]", "joining delivered [packets]",
         "joining share [1]"),
        tuple((a, b, f"{d[0]:.0f}", f"{d[1]:.0f}", f"{s:.3f}")
              for (a, b), d, s in zip(share.pairs, share.delivered, share.shares)))
    sweeps = results["primo_sweeps"]
    fig = primo_plots.plot_pentagons(sweeps)
    fig.suptitle(f"{cite('primo', 'Figs. 2-5')}: five criteria on Fig. 1-top (ctlcc runs)\n"
                 f"{_NEW}; stars/triangles: the paper's values", fontsize="medium")
    yield ReportFigure(
        "baselines_primo_fig2_5_pentagons_cubic",
        f"Primo's five criteria (§IV-C) averaged over the reduced §IV-B sweeps, "
        f"{sweeps[0].duration:g} s runs, with CUBIC beside Reno, Sack, Vegas, TFRC and Primo.",
        fig)
