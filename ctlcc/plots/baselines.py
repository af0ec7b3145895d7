# ctlcc.plots.baselines - CUBIC beside ST-PD and Primo in the papers' comparisons (report)
"""Figures of :mod:`ctlcc.experiments.baselines`: the papers' comparisons with CUBIC.

New results, not paper claims: each figure is the paper's comparison
re-run on ctlcc's engine with a CUBIC (RFC 9438) series added; the papers'
stated values stay drawn where their own figure functions draw them.
"""

import numpy as np

from ..experiments import baselines as exp
from ..references import cite
from ..sim.criteria import CRITERIA
from . import ReportFigure, ReportTable, new_figure
from . import primo_experiments as primo_plots
from . import thesis_experiments as thesis_plots

__all__ = ["plot_sharing", "lossy_sharing_table", "many_sources_table",
           "multi_congestion_table", "report_items"]

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
                   "lossy_sharing": exp.lossy_sharing(quick=True),
                   "primo_sweeps": exp.primo_criteria(quick=True),
                   "primo_many_sources": exp.primo_many_sources(quick=True),
                   "primo_multi_congestion": exp.primo_multi_congestion(quick=True)}
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
        "The thesis's bursty-loss experiment (Figs. 4.13-4.17) with CUBIC added: CUBIC's "
        "window (first seed) beside Reno's and ST-PD's against the in-order packet index and "
        "against time, and every protocol's throughput between packets 2001 and 10000.", fig)
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
    lossy = results.get("lossy_sharing")
    if lossy is not None:
        fig = thesis_plots.plot_mixed(lossy)
        fig.suptitle(f"ST-PD, Reno and CUBIC as S2D2 beside Reno S1D1 (buffer {lossy.buffer}, "
                     f"our choice) - {cite('stpd', 'Figs. 6.2-6.6')}\n{_NEW}",
                     fontsize="medium")
        yield ReportFigure(
            "baselines_thesis_fig6_3_6_lossy_sharing_cubic",
            f"§6's sharing with wireless loss (Figs. 6.3-6.6) with CUBIC as a third S2D2: "
            f"S2D2's in-order deliveries in {lossy.duration:g} s beside Reno S1D1, loss "
            f"{lossy.loss:g} on the shared link R1R2 (Fig. 6.4) or on S2's access S2R1 "
            f"(Fig. 6.6), seeds {', '.join(map(str, lossy.seeds))}; the thesis's ratio is "
            f"ST-PD/Reno, CUBIC/Reno is ctlcc's addition. Top: the no-loss runs of Fig. 6.2 "
            f"(unchanged).", fig)
        yield lossy_sharing_table(lossy)
    many = results.get("primo_many_sources")
    if many is not None:
        fig = primo_plots.plot_many_sources(many)
        fig.suptitle(f"{cite('primo', '§V-E')}: N sources on Fig. 1-top, together or "
                     f"{many.stagger:g} s apart (ctlcc runs)\n{_NEW}", fontsize="medium")
        yield ReportFigure(
            "baselines_primo_sec5e_many_sources_cubic",
            f"Primo's §V-E (criteria against the number of sources, "
            f"{', '.join(map(str, many.counts))} sources, {many.duration:g} s after the last "
            f"start) with CUBIC beside Reno, Sack, Vegas, TFRC and Primo.", fig)
        yield many_sources_table(many)
    multi = results.get("primo_multi_congestion")
    if multi is not None:
        fig = primo_plots.plot_multi_congestion(multi["together"], multi["staggered"])
        fig.suptitle(f"{cite('primo', 'Figs. 6-7')}: Fig. 1-bottom, router links 2 Mb/s 10 ms "
                     f"(not printed; our choice), queues 30\n{_NEW}", fontsize="medium")
        yield ReportFigure(
            "baselines_primo_fig6_7_multi_congestion_cubic",
            "Primo's multi-congestion network (Figs. 6-7): sending rates of flows a-e in 0.5 s "
            "bins, all together (left) and a,b at 0 s, c,d at 5 s, e at 10 s (right), with "
            "CUBIC as a sixth row beside Reno, Sack, Vegas, TFRC and Primo.", fig)
        yield multi_congestion_table(multi)


def lossy_sharing_table(result):
    """Figs. 6.4 and 6.6's ratio for ST-PD (the thesis's) and each added S2D2 protocol.

    Parameters
    ----------
    result : ctlcc.experiments.thesis.MixedRenoResult
        With ``extra_gain`` (:func:`ctlcc.experiments.baselines.lossy_sharing`).

    Returns
    -------
    ReportTable
    """
    pub = thesis_plots.exp.published()
    rows = []
    for placement, gains, key in (("R1R2", result.shared_gain, "fig6_4_gain_shared_loss"),
                                  ("S2R1", result.own_gain, "fig6_6_gain_own_loss")):
        series = [("stpd", gains, f"{pub[key]['value']:.2f}")] + [
            (p, g, "(not in the thesis)") for (where, p), g in result.extra_gain.items()
            if where == placement]
        for protocol, g, thesis in series:
            rows.append((placement, thesis_plots.LABELS.get(protocol, protocol),
                         f"{np.mean(g):.3f}", f"{np.std(g):.3f}",
                         " ".join(f"{v:.3f}" for v in g), thesis))
    return ReportTable(
        "baselines_thesis_fig6_3_6_lossy_sharing_cubic_table",
        f"S2D2's in-order deliveries in {result.duration:g} s as each protocol over as Reno, "
        f"beside Reno S1D1, loss {result.loss:g} on R1R2 (Fig. 6.4) or S2R1 (Fig. 6.6), buffer "
        f"{result.buffer}, seeds {', '.join(map(str, result.seeds))}. The ST-PD rows are the "
        f"thesis's comparison (the thesis_sim section's runs); CUBIC's are ctlcc's addition.",
        ("loss on", "S2D2", "mean ratio to Reno [1]", "sd [1]", "per seed [1]", "thesis [1]"),
        tuple(rows))


def many_sources_table(result):
    """The five criteria per protocol, schedule and number of sources (§V-E with CUBIC)."""
    rows = []
    for i, p in enumerate(result.protocols):
        for s, schedule in enumerate(result.schedules):
            for c, n in enumerate(result.counts):
                rows.append((primo_plots.LABELS.get(p, p), schedule, int(n))
                            + tuple(round(float(v), 1) for v in result.criteria[i, s, c])
                            + (int(result.starved[i, s, c]),))
    return ReportTable(
        "baselines_primo_sec5e_many_sources_cubic_table",
        f"{cite('primo', '§V-E')} with CUBIC (ctlcc's addition): the five criteria (§IV-C) "
        f"for N sources on Fig. 1-top, together or {result.stagger:g} s apart, over "
        f"{result.duration:g} s after the last start; starved: flows below a tenth of the fair "
        f"share.",
        ("protocol", "schedule", "sources [1]")
        + tuple(f"{c.replace('_', ' ')} [%]" for c in CRITERIA) + ("starved flows [1]",),
        tuple(rows))


def multi_congestion_table(results):
    """Link shares of flows a-e and the five criteria on Fig. 1-bottom (Figs. 6-7 with CUBIC)."""
    rows = []
    for schedule in ("together", "staggered"):
        res = results[schedule]
        for i, p in enumerate(res.protocols):
            rows.append((primo_plots.LABELS.get(p, p), schedule)
                        + tuple(round(float(v), 3) for v in res.link_share[i])
                        + tuple(round(float(v), 1) for v in res.criteria[i])
                        + (int(np.sum(res.timeouts[i])),))
    res = results["together"]
    return ReportTable(
        "baselines_primo_fig6_7_multi_congestion_cubic_table",
        f"{cite('primo', '§VI, Figs. 6-7')} with CUBIC (ctlcc's addition): each flow's "
        f"delivery rate over the last half of the {res.duration:g}-s run as a share of one "
        f"router link (paper: one third for Primo), the five criteria (occupancy of link "
        f"R0-R1) and the time-outs of the five flows.",
        ("protocol", "schedule")
        + tuple(f"share {n} ({h} hop{'s' if h > 1 else ''}) [1]"
                for n, h in zip(res.flow_names, res.hops))
        + tuple(f"{c.replace('_', ' ')} [%]" for c in CRITERIA) + ("time-outs [1]",),
        tuple(rows))
