# ctlcc.plots.iftp_experiments - IFTP's §6 figures and tables, re-run on ctlcc's engine
"""Figures of :mod:`ctlcc.experiments.iftp`, with the paper's numbers overlaid.

Figure 5 (UDP against TCP), Figure 6 with Table I (TCP friendliness, the
gap G), Tables II-III (losses, delay and jitter against the UDP rate) and
Table IV (B and D varied), plus the table of every checked claim.
``python -m ctlcc.plots.iftp_experiments OUT`` writes them alone.
"""

import sys
from pathlib import Path

import numpy as np

from ..experiments import iftp as exp
from ..references import cite
from . import ReportFigure, ReportTable, new_figure

__all__ = ["plot_udp_unfairness", "plot_friendliness", "plot_udp_losses", "plot_table4",
           "claims_table", "report_items"]

PAPER = dict(color="k", ls="none", marker="*", ms=9)


def plot_udp_unfairness(result, ax=None):
    """Figure 5: TCP and UDP bandwidth at source and sink against the UDP rate.

    Parameters
    ----------
    result : UdpUnfairness
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    if ax is None:
        _, ax = new_figure(figsize=(7, 4.5))
    x = result.udp_rates / 1e6
    ax.plot(x, result.udp_source / 1e6, "C1--o", label="UDP at the source")
    ax.plot(x, result.udp_sink / 1e6, "C1-o", label="UDP at the sink")
    ax.plot(x, result.tcp_source / 1e6, "C0--s", label="TCP Reno at the source")
    ax.plot(x, result.tcp_sink / 1e6, "C0-s", label="TCP Reno at the sink")
    ax.axhline(result.bottleneck_rate / 1e6, color="0.5", ls=":", lw=1.0,
               label=f"bottleneck B = {result.bottleneck_rate / 1e6:g} Mb/s (our choice)")
    ax.axvline(0.3, color="k", ls="--", lw=1.0,
               label="paper: TCP's reduction starts at 0.3 Mb/s")
    ax.set_xlabel("UDP arrival rate [Mb/s]")
    ax.set_ylabel("bandwidth [Mb/s]")
    ax.set_title(f"{cite('iftp', 'Figure 5')}: one Reno and one UDP source on Figure 4's "
                 f"network, {result.duration:g} s", fontsize="small")
    ax.legend(fontsize="x-small")
    return ax


def plot_friendliness(results):
    """Figure 6 and Table I: running average bandwidths and the mean gap G.

    Parameters
    ----------
    results : dict
        Label -> :class:`~ctlcc.experiments.iftp.Friendliness` (e.g. the two
        readings of tau and of Transmit_Window's pacing).

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, (ax, bx) = new_figure(1, 2, figsize=(12, 4.8))
    styles = ("-", "--", "-.", ":")
    first = next(iter(results.values()))
    shown = set()
    for k, (label, res) in enumerate(results.items()):
        pacing = label.split(",")[0]
        if pacing in shown:      # tau moves G, not the sending times: same curves
            continue
        shown.add(pacing)
        ls = styles[len(shown) - 1]
        ax.plot(res.time, res.running[:, 0] / 1e3, color="C0", ls=ls, lw=1.2,
                label=f"TCP per source (beside IFTP pacing {pacing})")
        ax.plot(res.time, res.running[:, 1] / 1e3, color="C3", ls=ls, lw=1.2,
                label=f"IFTP per source, pacing {pacing}")
    ax.axhline(first.bottleneck_rate / 4e3, color="0.5", ls=":", label="fair share B/4")
    ax.set_xlabel("time [s]")
    ax.set_ylabel("running average bandwidth [kb/s]")
    ax.set_ylim(0, None)
    ax.set_title(f"{cite('iftp', 'Figure 6')}: 2 Reno + 2 IFTP on 1 Mb/s", fontsize="small")
    ax.legend(fontsize="x-small", loc="lower right")
    tables = exp.published_tables()
    width = 0.8 / (len(results) + 1)
    x = np.arange(2)
    for k, (label, res) in enumerate(results.items()):
        bx.bar(x + k * width, 1e3 * res.gap_mean.mean(axis=0), width,
               yerr=1e3 * res.gap_std.mean(axis=0), capsize=3, label=f"ctlcc, {label}")
    pub = [tables[("I", "G", c)] for c in ("IFTP0", "IFTP1")]
    sd = [tables[("I", "stdev(G)", c)] for c in ("IFTP0", "IFTP1")]
    bx.bar(x + len(results) * width, pub, width, yerr=sd, capsize=3, color="0.6",
           label="paper, Table I")
    bx.set_xticks(x + 0.4 - width / 2, ["IFTP0", "IFTP1"])
    bx.set_ylabel("mean inter-packet gap G ± stdev [ms]")
    bx.set_title(f"{cite('iftp', 'Table I')}: G over {first.duration:g} s", fontsize="small")
    bx.legend(fontsize="xx-small")
    return fig


def plot_udp_losses(result):
    """Tables II-III: packets lost per source, and delay/jitter, against the UDP rate.

    Parameters
    ----------
    result : UdpLosses

    Returns
    -------
    matplotlib.figure.Figure
    """
    tables = exp.published_tables()
    cols = [f"{r / 1e6:g}" for r in result.udp_rates]
    x = result.udp_rates / 1e6
    fig, (ax, bx) = new_figure(1, 2, figsize=(11, 4.5))
    for k, (who, colour) in enumerate((("UDP", "C1"), ("IFTP", "C3"), ("TCP", "C0"))):
        ax.semilogy(x, np.maximum(result.lost[:, k], 0.5), "-o", color=colour,
                    label=f"{who}, ctlcc")
        ax.semilogy(x, [tables[("II", who, c)] for c in cols], "*", color=colour, ms=10,
                    ls="none", label=f"{who}, paper Table II")
    ax.set_xlabel("UDP arrival rate [Mb/s]")
    ax.set_ylabel("packets lost per source [packets] (0 drawn at 0.5)")
    ax.set_title(f"{cite('iftp', 'Table II')}: 1 UDP + 1 Reno + 2 IFTP on 1.5 Mb/s, "
                 f"{result.duration:g} s", fontsize="small")
    ax.legend(fontsize="xx-small", ncol=2)
    for k, (who, colour) in enumerate((("IFTP", "C3"), ("UDP", "C1"))):
        bx.errorbar(x, 1e3 * result.delay[:, k], yerr=1e3 * result.jitter[:, k], color=colour,
                    marker="o", capsize=3, label=f"{who}, ctlcc (bars: jitter)")
        bx.axhline(tables[("III", "delay", who)], color=colour, ls="--", lw=1.0,
                   label=f"{who}, paper Table III ({tables[('III', 'delay', who)]:g} ms)")
    bx.axhline(11 + 1e3 * 51 * 8000 / result.bottleneck_rate, color="k", ls=":", lw=1.0,
               label="11 ms + a full 50-packet queue")
    bx.set_xlabel("UDP arrival rate [Mb/s]")
    bx.set_ylabel("one-way delay [ms]")
    bx.set_title(f"{cite('iftp', 'Table III')}: delay and jitter", fontsize="small")
    bx.legend(fontsize="xx-small")
    return fig


def plot_table4(result):
    """Table IV: per-source bandwidths and utilisation for each B and D.

    Parameters
    ----------
    result : BandwidthDelay

    Returns
    -------
    matplotlib.figure.Figure
    """
    tables = exp.published_tables()
    fig, axes = new_figure(1, len(result.delays), figsize=(5.5 * len(result.delays), 4.5),
                           sharey=True)
    axes = np.atleast_1d(axes)
    x = np.arange(len(result.bandwidths))
    w = 0.2
    for d, (ax, delay) in enumerate(zip(axes, result.delays)):
        cells = [f"B={b / 1e6:.1f} D={1e3 * delay:g}" for b in result.bandwidths]
        ax.bar(x - 1.5 * w, result.tcp[d] / 1e6, w, color="C0", label="TCP, ctlcc")
        ax.bar(x - 0.5 * w, [tables[("IV", "TCP bandwidth", c)] for c in cells], w,
               color="C0", alpha=0.4, hatch="//", label="TCP, paper")
        ax.bar(x + 0.5 * w, result.iftp[d] / 1e6, w, color="C3", label="IFTP, ctlcc")
        ax.bar(x + 1.5 * w, [tables[("IV", "IFTP bandwidth", c)] for c in cells], w,
               color="C3", alpha=0.4, hatch="//", label="IFTP, paper")
        ax.set_xticks(x, [f"B = {b / 1e6:g} Mb/s\nutilisation {100 * result.utilisation[d, i]:.0f} %"
                          f"\n(paper {tables[('IV', 'utilization', c)]:g} %)"
                          for i, (b, c) in enumerate(zip(result.bandwidths, cells))],
                      fontsize="x-small")
        ax.set_xlabel("bottleneck bandwidth B")
        ax.set_title(f"{cite('iftp', 'Table IV')}: D = {1e3 * delay:g} ms", fontsize="small")
    axes[0].set_ylabel("mean bandwidth per source [Mb/s]")
    axes[0].legend(fontsize="x-small")
    return fig


def claims_table(claim_list):
    """The checked claims as a report table."""
    rows = tuple((c.id, c.location, c.claim, _cell(c.published), _cell(c.value), c.unit,
                  c.verdict, c.reason, " ".join(str(s) for s in c.seeds)) for c in claim_list)
    return ReportTable(
        "iftp_sim_claims",
        f"Claims of {cite('iftp', '§6')} on its simulations (data/iftp_tables.csv, "
        f"data/iftp_sim_published.csv), checked on ctlcc's packet engine with the IFTP sender "
        f"(ctlcc.experiments.iftp.claims).",
        ("id", "location", "claim", "published", "ctlcc", "unit", "verdict", "reason", "seeds"),
        rows)


def report_items(results=None):
    """Figures and the claims table for ``ctlcc report`` (quick settings)."""
    res = exp.run_all(quick=True) if results is None else results
    f5 = res["fig5"]
    fig, ax = new_figure(figsize=(7, 4.5))
    plot_udp_unfairness(f5, ax)
    yield ReportFigure(
        "iftp_fig5_udp_vs_tcp",
        f"Figure 5: one Reno and one constant-rate UDP source on the Figure 4 network "
        f"(11 ms, 50-packet buffer; B = {f5.bottleneck_rate / 1e6:g} Mb/s, not restated in the "
        f"paper), {f5.duration:g} s. UDP takes the link; TCP keeps source = sink.", fig)
    yield ReportFigure(
        "iftp_fig6_table1_friendliness",
        "Figure 6 and Table I: two Reno and two IFTP sources on 1 Mb/s. Left: running average "
        "bandwidth per source; right: mean gap G ± its standard deviation. IFTP read four "
        "ways: Transmit_Window's n packets then a pause (pacing 'figure1', ctlcc's default) "
        "or a continuous sweep at the gap ('continuous'), and tau one packet on the 10 Mb/s "
        "access link (default) or at the 1 Mb/s bottleneck. Only 'continuous' with the "
        "bottleneck's tau puts G next to Table I.",
        plot_friendliness(_readings(res, "sec61")))
    for suffix, pacing in (("", "figure1"), ("_continuous", "continuous")):
        if "tables23" + suffix in res:
            fig = plot_udp_losses(res["tables23" + suffix])
            fig.suptitle(f"IFTP pacing={pacing!r}", fontsize="small")
            yield ReportFigure(
                "iftp_table2_3_losses_delay" + suffix,
                f"Tables II and III against the UDP rate (IFTP pacing {pacing!r}): packets "
                f"lost per source, one-way delay and jitter. The paper's delays exceed what "
                f"the stated 50-packet bottleneck can hold.", fig)
        if "table4" + suffix in res:
            fig = plot_table4(res["table4" + suffix])
            fig.suptitle(f"IFTP pacing={pacing!r}", fontsize="small")
            yield ReportFigure(
                "iftp_table4_bandwidth_delay" + suffix,
                f"Table IV (IFTP pacing {pacing!r}): mean bandwidth per TCP and IFTP source "
                f"and link utilisation for B = 0.5, 1.0, 1.5 Mb/s and the bottleneck delay "
                f"D = 0.003 ms and 3 ms.", fig)
    yield claims_table(exp.claims(res))


def _readings(res, key):
    """The four §6.1 runs of run_all, labelled by their reading."""
    out = {}
    for suffix, pacing in (("", "figure1"), ("_continuous", "continuous")):
        for extra, tau in (("", "tau access"), ("_tau_bottleneck", "tau bottleneck")):
            name = key + extra + suffix
            if name in res:
                out[f"{pacing}, {tau}"] = res[name]
    return out


def _cell(value):
    if isinstance(value, float) and value != value:
        return "no value"     # NaN: ctlcc measured nothing to compare
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def _main(out):  # pragma: no cover
    import matplotlib

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    with matplotlib.rc_context({"pdf.fonttype": 42, "ps.fonttype": 42}):
        for item in report_items():
            if isinstance(item, ReportFigure):
                for fmt in ("png", "pdf"):
                    item.figure.savefig(out / f"{item.name}.{fmt}", dpi=110)
                print(out / f"{item.name}.png")
            else:
                lines = [" | ".join(item.columns)] + [" | ".join(map(_cell, r)) for r in item.rows]
                (out / f"{item.name}.md").write_text("\n".join(lines) + "\n")
                print(out / f"{item.name}.md")


if __name__ == "__main__":  # pragma: no cover
    _main(sys.argv[1] if len(sys.argv) > 1 else "iftp-sim-report")
