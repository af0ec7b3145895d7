# ctlcc.plots.primo_experiments - Primo's simulation figures (§V-§VI), re-run on ctlcc's engine
"""Figures of :mod:`ctlcc.experiments.primo`, with the paper's numbers overlaid.

Pentagons of the five criteria (Figs. 2-5), the criteria against the
number of sources (§V-E) and the diagnosis of the many-sources collapse,
Primo beside Reno (§I-B, §VII-B), the sending rates on Fig. 1-bottom
(Figs. 6-7), and the table of every checked claim.
"""

import numpy as np

from ..experiments import primo as exp
from ..laws.primo import PrimoParams
from ..references import cite
from ..sim.criteria import CRITERIA
from . import ReportFigure, ReportTable, new_figure

__all__ = ["plot_criteria_pentagon", "plot_pentagon", "plot_pentagons", "plot_many_sources", "plot_startup",
           "plot_collapse", "plot_mixed", "plot_multi_congestion", "claims_table",
           "report_items"]

COLOURS = {"reno": "C0", "sack": "C4", "vegas": "C2", "tfrc": "C1", "primo": "C3", "cubic": "C5"}
LABELS = {"reno": "Reno", "sack": "Sack", "vegas": "Vegas", "tfrc": "TFRC", "primo": "Primo",
          "cubic": "CUBIC"}
#: Protocols the paper did not run (ctlcc's additions), so marked in legends.
ADDED = ("cubic",)
CORNERS = ("sending\nstability", "reception\nstability", "goodput", "occupancy", "fairness")
_TITLES = {"bandwidth": "shared link 1-16 Mb/s", "queue": "queue 5-50 packets",
           "delay": "shared link delay 5-200 ms", "access_delay": "S2 access delay 1-50 ms"}
# the paper's stated values that sit on a pentagon corner: sweep -> [(claim_id, protocol,
# criterion)]; a claim on "sending and reception" stability is drawn on the sending corner
_ON_PENTAGON = {
    "queue": [("sec5b_vegas_fairness_q5", "vegas", "fairness"),
              ("sec5b_reno_fairness_q5", "reno", "fairness"),
              ("sec5b_primo_fairness_q5", "primo", "fairness"),
              ("sec5b_vegas_fairness_max", "vegas", "fairness"),
              ("sec5b_primo_fairness_large", "primo", "fairness"),
              ("sec5b_primo_stability_large", "primo", "sending_stability")],
    "delay": [("sec5c_reno_stability_long", "reno", "sending_stability"),
              ("sec5c_vegas_stability_long", "vegas", "sending_stability"),
              ("sec5c_primo_stability", "primo", "sending_stability")],
    "access_delay": [("sec5d_reno_fairness", "reno", "fairness"),
                     ("sec5d_vegas_fairness", "vegas", "fairness"),
                     ("sec5d_primo_fairness", "primo", "fairness"),
                     ("sec5d_reno_stability", "reno", "sending_stability")],
}
# §V-A's claims are on the queue, not on a corner: written under Fig. 2's pentagon
_OFF_PENTAGON = {"bandwidth": ("sec5a_primo_queue", "sec5a_vegas_queue", "sec5a_tfrc_queue")}


def plot_criteria_pentagon(criteria, ax=None, title=None):
    """Pentagons of the five criteria of a few runs (§IV-D's diagram).

    Parameters
    ----------
    criteria : dict
        Label -> mapping of the five criteria (a :class:`PrimoCriteria` or
        its ``as_dict()``). [%]
    ax : matplotlib polar Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    if ax is None:
        _, ax = new_figure(figsize=(6, 5.5), subplot_kw={"projection": "polar"})
    ax.set_theta_offset(np.pi / 2)
    angles = 2 * np.pi * np.arange(5) / 5
    closed = np.append(angles, angles[0])
    for i, (label, crit) in enumerate(criteria.items()):
        values = np.array([crit[k] for k in CRITERIA], dtype=float)
        ax.plot(closed, np.append(values, values[0]), color=f"C{i}", lw=1.5, marker="o", ms=3,
                label=label)
        ax.fill(closed, np.append(values, values[0]), color=f"C{i}", alpha=0.08)
    _pentagon_axes(ax)
    ax.set_title(title or f"{cite('primo', '§IV-C')}: five criteria [%]", fontsize="small")
    ax.legend(fontsize="x-small", loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=3)
    return ax


def plot_pentagon(sweep, ax=None, claims=None):
    """One sweep's pentagon: each protocol's criteria averaged over the sweep.

    The paper's stated values for this sweep (``data/primo_sim_published.csv``)
    are drawn on their corners as stars (a bound as a triangle at the bound),
    ctlcc's value at the same condition as a cross, and each claim's verdict
    (from *claims*, the primo ledger source) is written under the pentagon.

    Parameters
    ----------
    sweep : SweepResult
    ax : matplotlib polar Axes, optional
    claims : sequence of Claim, optional
        :func:`ctlcc.experiments.primo.claims` of the same runs.

    Returns
    -------
    matplotlib.axes.Axes
    """
    if ax is None:
        _, ax = new_figure(subplot_kw={"projection": "polar"})
    ax.set_theta_offset(np.pi / 2)  # first corner on top, the paper's pentagon orientation
    angles = 2 * np.pi * np.arange(5) / 5
    closed = np.append(angles, angles[0])
    pub = exp.published()
    by_id = {c.id.rsplit("-", 1)[-1]: c for c in (claims or ())}
    lines = []
    for p in sweep.protocols:
        values = sweep.mean(p)
        ax.plot(closed, np.append(values, values[0]), color=COLOURS.get(p), lw=1.5,
                label=f"{LABELS.get(p, p)} (ctlcc, sweep mean)")
        ax.fill(closed, np.append(values, values[0]), color=COLOURS.get(p), alpha=0.08)
    shown = set()
    for cid, p, name in _ON_PENTAGON.get(sweep.parameter, ()):
        row = pub[cid]
        k = CRITERIA.index(name)
        bound = row["value"] is None
        paper_value = row["high"] if bound else row["value"]
        if p not in sweep.protocols:
            lines.append(f"{row['location']} {LABELS.get(p, p)} {_short(row['quantity'])}: paper "
                         f"{'<= ' if bound else ''}{paper_value:g}, not run here")
            continue
        ax.plot(angles[k], paper_value, color=COLOURS.get(p), marker="v" if bound else "*",
                ms=11, ls="none", mec="k",
                label=None if ("paper", bound) in shown else
                ("paper: upper bound" if bound else "paper: stated value"))
        shown.add(("paper", bound))
        claim = by_id.get(cid)
        if claim is None:
            lines.append(f"{row['location']} {LABELS.get(p, p)} {_short(row['quantity'])}: paper "
                         f"{'<= ' if bound else ''}{paper_value:g}, condition not in this sweep")
            continue
        ax.plot(angles[k], float(claim.value), color=COLOURS.get(p), marker="X", ms=8,
                ls="none", mec="k", label=None if "ctlcc" in shown else
                "ctlcc at the paper's condition")
        shown.add("ctlcc")
        mark = "reproduced" if claim.verdict == "reproduced" else "NOT reproduced"
        lines.append(f"{row['location']} {LABELS.get(p, p)} {_short(row['quantity'])}: paper "
                     f"{'<= ' if bound else ''}{paper_value:g}, ctlcc {float(claim.value):.1f} "
                     f"-> {mark}")
    for cid in _OFF_PENTAGON.get(sweep.parameter, ()):
        row, claim = pub[cid], by_id.get(cid)
        lines.append(f"{row['location']} {LABELS.get(row['protocol'])} queue "
                     f"{100 * row['value']:g} % of the buffer: "
                     + (f"ctlcc {100 * float(claim.value):.1f} % -> "
                        f"{'reproduced' if claim.verdict == 'reproduced' else 'NOT reproduced'}"
                        if claim is not None else "not run (no sender)"))
    _pentagon_axes(ax)
    ax.set_title(f"{exp._FIGURE[sweep.parameter]}: {_TITLES[sweep.parameter]}",
                 fontsize="small")
    ax.legend(fontsize="xx-small", loc="upper left", bbox_to_anchor=(0.82, 1.15))
    if lines:
        ax.text(0.5, -0.2, "\n".join(lines), transform=ax.transAxes, ha="center", va="top",
                fontsize=5.5)
    return ax


def plot_pentagons(sweeps, claims=None):
    """Figs. 2-5 side by side, the paper's values and verdicts on each.

    Parameters
    ----------
    sweeps : sequence of SweepResult
    claims : sequence of Claim, optional
        :func:`ctlcc.experiments.primo.claims` of the same runs.

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, axes = new_figure(2, 2, figsize=(12, 13), subplot_kw={"projection": "polar"})
    for ax, sweep in zip(np.ravel(axes), sweeps):
        plot_pentagon(sweep, ax, claims)
        values = ", ".join(_fmt_value(sweep.parameter, v) for v in sweep.values)
        ax.text(0.5, -0.12, f"values: {values}; criteria [%] averaged", transform=ax.transAxes,
                ha="center", fontsize="xx-small")
    fig.suptitle(f"{cite('primo', 'Figs. 2-5')}: five criteria on Fig. 1-top (ctlcc runs; "
                 f"stars/triangles: the paper, crosses: ctlcc at the same condition)",
                 fontsize="medium")
    return fig


def plot_many_sources(result):
    """§V-E: fairness, sending stability and occupancy against the number of sources.

    Parameters
    ----------
    result : ManySourcesResult

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, axes = new_figure(1, 3, figsize=(14, 4.2))
    styles = {"together": "-", "staggered": "--"}
    for ax, name in zip(axes, ("fairness", "sending_stability", "occupancy")):
        k = CRITERIA.index(name)
        for i, p in enumerate(result.protocols):
            for s, schedule in enumerate(result.schedules):
                ax.plot(result.counts, result.criteria[i, s, :, k], styles[schedule],
                        marker="o", color=COLOURS.get(p),
                        label=f"{_label(p)}, {schedule}")
        ax.set_xlabel("number of sources [1]")
        ax.set_ylabel(f"{name.replace('_', ' ')} [%]")
        # a criterion above 100 % (the occupancy can exceed it by the packets propagating
        # beyond the link at the window's ends) stays on the chart, not cut off at the top
        ax.set_ylim(-2, max(102.0, float(np.nanmax(result.criteria[..., k])) + 3.0))
    pub = exp.published("sec5e_vegas_fairness_n")
    axes[0].axhline(pub["high"], color="C2", ls=":", lw=1.0,
                    label=f"paper: Vegas fairness at most {pub['high']:g} % (§V-E)")
    axes[0].legend(fontsize="x-small")
    fig.suptitle(f"{cite('primo', '§V-E')}: N sources on Fig. 1-top, together or "
                 f"{result.stagger:g} s apart (paper: Primo 'not significantly affected')",
                 fontsize="medium")
    return fig


_READING_LABELS = {"literal": "literal (Primo.legacy())", "spread_restart": "+ spread restart",
                   "outstanding_timeout": "+ time-out on outstanding", "supported":
                   "both (Primo(), default)"}


def plot_startup(result):
    """Occupancy, fairness and time-outs against N under each start-up/time-out reading.

    Parameters
    ----------
    result : StartupDiagnosis

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, axes = new_figure(1, 3, figsize=(13, 4.2))
    styles = {"together": "-", "staggered": "--"}
    for r, reading in enumerate(result.readings):
        for s, schedule in enumerate(result.schedules):
            kw = dict(color=f"C{r}", ls=styles[schedule], marker="osD^"[r % 4], ms=6 - r,
                      mfc="none" if schedule == "staggered" else f"C{r}",
                      label=f"{_READING_LABELS.get(reading, reading)}, {schedule}")
            axes[0].plot(result.counts, result.value(reading, schedule, "occupancy"), **kw)
            axes[1].plot(result.counts, result.value(reading, schedule, "fairness"), **kw)
            axes[2].plot(result.counts, np.maximum(result.timeouts[r, s], 0.5), **kw)
    axes[0].set_ylabel("occupancy of the shared link [%]")
    axes[1].set_ylabel("fairness (lowest share x N) [%]")
    axes[2].set_ylabel("time-outs, all flows [1] (0 drawn at 0.5)")
    axes[2].set_yscale("log")
    for ax in axes[:2]:
        ax.set_ylim(-2, 105)
    for ax in axes:
        ax.set_xlabel("number of Primo sources N [1]")
    axes[1].axhline(100.0, color="k", ls=":", lw=1.0,
                    label="paper §V-E: 'not significantly affected'")
    axes[1].legend(fontsize="xx-small")
    axes[0].text(0.02, 0.02, "literal, together, N >= 15: lockstep start-up\n(fairness of a "
                 "nearly idle link is not meaningful)", transform=axes[0].transAxes,
                 fontsize="xx-small")
    fig.suptitle(f"{cite('primo', '§III-B, §III-D, §V-E')}: N Primo flows on Fig. 1-top, "
                 f"together or {result.stagger:g} s apart ({result.duration:g} s after the last "
                 f"start, warm-up {result.warmup:g} s)", fontsize="medium")
    return fig


def plot_collapse(result, ax=None):
    """Sending rates of N Primo flows against the time-out threshold.

    Parameters
    ----------
    result : CollapseResult
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    if ax is None:
        _, ax = new_figure(figsize=(8, 4.5))
    for j in range(result.n):
        ax.semilogy(result.time, np.maximum(result.rate[:, j], 1e-3), lw=0.8,
                    label=f"flow {j}" if j < 10 else None)
    ax.axhline(np.nanmin(result.threshold), color="k", ls="--", lw=1.0,
               label=f"1/(2 RTT_ref) = {np.nanmin(result.threshold):.1f} packets/s")
    ax.axhline(result.fair_share, color="0.4", ls=":", lw=1.0,
               label=f"fair share C/N = {result.fair_share:.1f} packets/s")
    ax.set_xlabel("time [s]")
    ax.set_ylabel("sending rate [packets/s]")
    ax.set_ylim(1e-3, 1e3)
    ax.set_title(f"{cite('primo', '§III-D')}: {result.n} Primo flows started together; "
                 f"rates halve with no loss once 1/rate > TO", fontsize="small")
    ax.legend(fontsize="xx-small", ncol=2)
    return ax


def plot_mixed(result, ax=None, literal=None):
    """Primo's share beside a corrective flow against the buffer, for each start order.

    Parameters
    ----------
    result : MixedResult
        The default sender, ``Primo()``.
    ax : matplotlib.axes.Axes, optional
    literal : MixedResult, optional
        The same runs with ``Primo.legacy()`` (dotted).

    Returns
    -------
    matplotlib.axes.Axes
    """
    if ax is None:
        _, ax = new_figure(figsize=(7, 4.5))
    for o, order in enumerate(result.orders):
        ax.plot(result.buffers, result.primo_share[:, o], marker="o", color=f"C{o}",
                label=f"Primo(), {order.replace('_', ' ')}")
        if literal is not None:
            ax.plot(literal.buffers, literal.primo_share[:, o], marker="x", ls=":",
                    color=f"C{o}", label=f"Primo.legacy(), {order.replace('_', ' ')}")
    ax.axhline(0.0, color="k", ls="--", lw=1.0,
               label=f"paper §I-B: {LABELS.get(result.against, result.against)} takes all")
    ax.axhline(0.5, color="0.5", ls=":", lw=1.0, label="even split")
    fixed = exp.interleaved_share(PrimoParams().F_str)
    ax.axhline(fixed, color="C3", ls="-.", lw=1.0,
               label=f"per-packet rcv_rate fixed point 1 - s = -F_str ln s: {fixed:.2f}")
    ax.set_xlabel("shared queue [packets]")
    ax.set_ylabel("Primo's fraction of the delivered packets [1]")
    ax.set_ylim(-0.05, 1.05)
    ax.set_title(f"{cite('primo', '§I-B, §VII-B')}: one Primo and one "
                 f"{LABELS.get(result.against, result.against)} flow on Fig. 1-top",
                 fontsize="small")
    ax.legend(fontsize="xx-small", ncol=2)
    return ax


def plot_multi_congestion(together, staggered, counterfactual=None):
    """Figs. 6-7: sending rates of flows a-e on Fig. 1-bottom.

    Parameters
    ----------
    together, staggered : MultiCongestionResult
    counterfactual : (MultiCongestionResult, MultiCongestionResult), optional
        Together and staggered runs of ``Primo(reception_rate="mean_gap")``,
        drawn as a last row.

    Returns
    -------
    matplotlib.figure.Figure
    """
    rows = [(i, p, together, staggered, _label(p))
            for i, p in enumerate(together.protocols)]
    if counterfactual is not None:
        rows.append((0, "primo", counterfactual[0], counterfactual[1],
                     "Primo, mean-gap rcv_rate (counterfactual)"))
    fig, axes = new_figure(len(rows), 2, figsize=(11, 2.6 * len(rows)), sharex=True,
                           sharey=True)
    axes = np.atleast_2d(axes)
    for r, (i, p, tog, stag, label) in enumerate(rows):
        for c, res in enumerate((tog, stag)):
            ax = axes[r, c]
            for j, name in enumerate(res.flow_names):
                ax.step(res.bin_time, res.send_rate[i, :, j], where="pre", lw=0.9,
                        label=f"{name} ({res.hops[j]} hop{'s' if res.hops[j] > 1 else ''})")
            ax.axhline(res.capacity / 3, color="k", ls="--", lw=1.0,
                       label="paper §VI: one third of a link (Primo)")
            shares = ", ".join(f"{n} {v:.2f}" for n, v in zip(res.flow_names, res.link_share[i]))
            ax.set_title(f"{label}, "
                         f"{'Fig. 6: all together' if c == 0 else 'Fig. 7: a,b then c,d then e'}"
                         f"\nshares of a link: {shares}", fontsize="x-small")
            ax.set_ylabel("sending rate [packets/s]")
            if r == len(rows) - 1:
                ax.set_xlabel("time [s]")
        axes[0, 0].legend(fontsize="xx-small", ncol=2)
    fig.suptitle(f"{cite('primo', 'Figs. 6-7')}: Fig. 1-bottom, router links 2 Mb/s 10 ms "
                 f"(not printed; our choice), queues 30", fontsize="medium")
    return fig


def claims_table(claim_list):
    """The checked claims as a report table."""
    rows = tuple((c.id, c.location, c.claim, _cell(c.published), _cell(c.value), c.unit,
                  c.verdict, c.reason, " ".join(str(s) for s in c.seeds)) for c in claim_list)
    return ReportTable(
        "primo_sim_claims",
        f"Claims of {cite('primo', '§I, §V, §VI')} on its simulations "
        f"(data/primo_sim_published.csv), checked on ctlcc's packet engine with Reno, Sack, "
        f"Vegas, TFRC and Primo (ctlcc.experiments.primo.claims; declared in "
        f"data/ledger_primo.csv).",
        ("id", "location", "claim", "published", "ctlcc", "unit", "verdict", "reason", "seeds"),
        rows)


def report_items(results=None):
    """Figures and the claims table for ``ctlcc report`` (quick settings)."""
    res = exp.run_all(quick=True) if results is None else results
    claim_list = exp.claims(res)
    sweeps = [res[f"sweep_{p}"] for p in exp.QUICK_GRIDS]
    yield ReportFigure(
        "primo_fig2_5_pentagons",
        f"Pentagons of the five criteria (§IV-C) on Fig. 1-top for Reno, Vegas and Primo, "
        f"averaged over reduced sweeps (report; full grids: run_all(quick=False)), "
        f"{sweeps[0].duration:g} s runs, warm-up {sweeps[0].warmup:g} s, rates per "
        f"{sweeps[0].interval:g} s. Stars: the paper's stated values (triangles: its bounds), "
        f"crosses: ctlcc at the paper's condition, with each claim's verdict under its "
        f"pentagon; Primo's 98 % fairness under heterogeneous RTT does not hold on packets.",
        plot_pentagons(sweeps, claim_list))
    m = res["many_sources"]
    yield ReportFigure(
        "primo_sec5e_many_sources",
        f"§V-E: {', '.join(map(str, m.counts))} sources on Fig. 1-top, started together or "
        f"{m.stagger:g} s apart; criteria over {m.duration:g} s after the last start.",
        plot_many_sources(m))
    s = res["startup"]
    yield ReportFigure(
        "primo_sec5e_startup_diagnosis",
        "Many Primo flows before and after the start-up/time-out fix: read literally "
        "(Primo.legacy()), flows started together overflow the 30-packet queue with their "
        "4-packet bursts and restart in lockstep after the same 1-s timer, and the timer "
        "re-armed at every ACK halves slow flows with nothing lost; the default Primo() "
        "(restart after U[0.5, 1.5] s, time-out only on an outstanding packet) fills the link "
        "for every N, but fairness still collapses from N = 10 (the per-packet reception "
        "rate's fixed point).", plot_startup(s))
    fig, ax = new_figure(figsize=(8, 4.5))
    plot_collapse(res["collapse_together"], ax)
    yield ReportFigure(
        "primo_sec3d_timeout_collapse",
        "Ten Primo flows started together (0.01 s samples): a flow whose gap between packets "
        "exceeds TO = 2 RTT_ref gets no ACK within TO and halves its rate, with nothing lost; "
        "the halved rate doubles the gap, so the flow falls silent.", fig)
    fig, ax = new_figure(figsize=(7.5, 4.8))
    plot_mixed(res["mixed"], ax, res.get("mixed_literal"))
    yield ReportFigure(
        "primo_sec1_against_reno",
        "Primo beside Reno in one drop-tail queue: the default Primo() loses the link, as "
        "§I-B says, through its time-out (its packets wait behind Reno's queue longer than "
        "TO = 2 RTT_ref, and each time-out halves its rate) - except when Reno's standing "
        "queue is built into Primo's RTT_ref and FTT_ref (Reno first, deep buffer). Read "
        "literally (dotted), the time-out never fires and the per-packet reception rate keeps "
        "Primo near its fixed point 0.90.", fig)
    cf = (res.get("multi_together_mean_gap"), res.get("multi_staggered_mean_gap"))
    yield ReportFigure(
        "primo_fig6_7_multi_congestion",
        "Sending rates on Fig. 1-bottom in 0.5 s bins, all flows together (left) and a,b at 0 s, "
        "c,d at 5 s, e at 10 s (right). Last row: the counterfactual mean-gap reception rate "
        "(not the paper's), which brings the staggered shares near one third.",
        plot_multi_congestion(res["multi_together"], res["multi_staggered"],
                              cf if None not in cf else None))
    iv = res["intervals"]
    yield ReportTable(
        "primo_sec4c_sampling_interval",
        f"{cite('primo', '§IV-C')} does not print the interval over which the rates of the "
        f"stability criteria are measured. Sending / reception stability [%] on Fig. 1-top with "
        f"the shared link delay {1e3 * iv.value:g} ms, for several intervals.",
        ("protocol",) + tuple(f"sending, {t:g} s [%]" for t in iv.intervals)
        + tuple(f"reception, {t:g} s [%]" for t in iv.intervals),
        tuple((p,) + tuple(round(float(v), 1) for v in iv.sending[i])
              + tuple(round(float(v), 1) for v in iv.reception[i])
              for i, p in enumerate(iv.protocols)))
    yield claims_table(claim_list)


def _label(protocol):
    """The protocol's name, marked when the paper did not run it."""
    name = LABELS.get(protocol, protocol)
    return f"{name} (ctlcc's addition)" if protocol in ADDED else name


def _short(text, width=60):
    """A claim's quantity cut at a word boundary for a figure note."""
    return text if len(text) <= width else text[:width].rsplit(" ", 1)[0] + " ..."


def _pentagon_axes(ax):
    """Corners, radial scale 0-100 % of a criteria pentagon."""
    angles = 2 * np.pi * np.arange(5) / 5
    ax.set_xticks(angles)
    ax.set_xticklabels(CORNERS, fontsize="x-small")
    ax.set_thetalim(0.0, 2 * np.pi)
    ax.set_ylim(0, 100)
    ax.set_yticks([25, 50, 75, 100])
    ax.set_yticklabels(["25 %", "50 %", "75 %", "100 %"], fontsize="xx-small")


def _fmt_value(parameter, value):
    if parameter == "bandwidth":
        return f"{value / 1e6:g} Mb/s"
    if parameter == "queue":
        return f"{value:g} packets"
    return f"{1e3 * value:g} ms"


def _cell(value):
    if isinstance(value, float) and value != value:
        return "no value"     # NaN: ctlcc measured nothing to compare
    if isinstance(value, float):
        return f"{value:.4g}"
    return "" if value is None else str(value)


if __name__ == "__main__":  # pragma: no cover
    import sys
    from pathlib import Path

    out = Path(sys.argv[1] if len(sys.argv) > 1 else "primo-sim-report")
    out.mkdir(parents=True, exist_ok=True)
    for item in report_items():
        if isinstance(item, ReportFigure):
            item.figure.savefig(out / f"{item.name}.png", dpi=110)
        else:
            print(item.name, len(item.rows), "rows")
