# ctlcc.plots.thesis_experiments - the ST-PD thesis' ns-2 figures, re-run on ctlcc's engine
"""Figures of :mod:`ctlcc.experiments.thesis`, with the thesis' numbers overlaid.

One figure per group of the thesis' figures (named after them), each with
the values the thesis' text states drawn over ctlcc's runs (the figures
themselves are lost in the copy ctlcc works from), and a table of every
checked claim.  ``python -m ctlcc.plots.thesis_experiments OUT`` writes
them alone.
"""

import math

import numpy as np

from ..experiments import thesis as exp
from ..references import cite
from . import ReportFigure, ReportTable, new_figure

__all__ = ["plot_buffer_dimension", "plot_fixed_bottleneck", "plot_moving_bottleneck",
           "plot_moving_bottleneck_occupancy",
           "plot_telnet", "plot_loss_sweep", "plot_loss_windows", "plot_bursty", "plot_geo",
           "plot_mixed", "claims_table", "report_items"]

#: Line colour per protocol, shared by every figure.
COLOURS = {"reno": "C0", "stpd": "C3", "vegas": "C2", "tahoe": "C1", "newreno": "C4",
           "cubic": "C5"}
LABELS = {"reno": "Reno", "stpd": "ST-PD", "vegas": "Vegas", "tahoe": "Tahoe",
          "newreno": "NewReno", "cubic": "CUBIC"}
THESIS = dict(color="k", ls="--", lw=1.0)
#: Protocols the thesis did not run, drawn when an experiment has them (ctlcc's additions).
ADDED = ("newreno", "cubic")
#: Buffers of the §6 sensitivity table (the thesis does not print R1's). [packets]
MIXED_BUFFERS = (10, 20, 40)


def plot_buffer_dimension(result):
    """Figs. 3.8-3.13: window, queue and throughput, both buffers.

    Parameters
    ----------
    result : BufferDimensionResult

    Returns
    -------
    matplotlib.figure.Figure
    """
    pub = exp.published()
    fig, axes = new_figure(3, len(result.buffers), figsize=(11, 8.5), sharex=True)
    axes = np.atleast_2d(axes).reshape(3, len(result.buffers))
    for c, buffer in enumerate(result.buffers):
        aw, aq, at = axes[:, c]
        for p in result.protocols:
            r = result.runs[(buffer, p)]
            col = COLOURS.get(p)
            aw.plot(r.time, r.window[:, 0], color=col, lw=0.8, label=f"{LABELS.get(p, p)} (ctlcc)")
            aq.plot(r.time, r.queue[:, 0], color=col, lw=0.5, alpha=0.7,
                    label=f"{LABELS.get(p, p)} (ctlcc, 2 ms samples)")
            at.step(r.bin_time, r.throughput[:, 0] / 1e6, where="pre", color=col, lw=1.0,
                    label=f"{LABELS.get(p, p)} (ctlcc, 0.5 s bins)")
        overflow = result.bdp + buffer + 1
        aw.axhline(overflow, color="0.5", ls=":", lw=1.0,
                   label=f"ctlcc overflow window BDP + B + 1 = {overflow:.1f}")
        key = "fig3_8_reno_peak" if buffer == max(result.buffers) else "fig3_11_reno_overflow"
        aw.axhline(pub[key]["value"], label=f"thesis: Reno overflows above N + B = "
                   f"{pub[key]['value']:g}", **THESIS)
        if buffer == max(result.buffers):
            row = pub["fig3_8_stpd_window"]
            aw.axhspan(row["low"], row["high"], color="C3", alpha=0.15,
                       label="thesis: ST-PD window 10-12 (Fig. 3.8(b))")
            row = pub["fig3_9_reno_queue"]
            aq.axhline(row["low"], label="thesis: Reno queue 2 ... buffer (Fig. 3.9(a))", **THESIS)
            at.axhline(1.5, label="thesis: both reach 1.5 Mb/s (Fig. 3.10)", **THESIS)
        else:
            at.axhline(1.4, label="thesis: Reno below 1.4 Mb/s (Fig. 3.13)", **THESIS)
        aq.axhline(1.0, color="C3", ls="--", lw=1.0, label="thesis: ST-PD around 1 packet")
        aw.set_ylabel("congestion window [packets]")
        aq.set_ylabel("queue at R [packets]")
        at.set_ylabel("throughput [Mb/s]")
        at.set_xlabel("time [s]")
        at.set_ylim(0, 1.8)
        kind = "sufficient" if buffer >= result.bdp else "insufficient"
        aw.set_title(f"buffer {buffer} packets ({kind})", fontsize="medium")
        for ax in (aw, aq, at):
            ax.legend(fontsize="x-small", loc="upper right")
    fig.suptitle(f"Reno vs ST-PD, one connection (ctlcc packet engine) - "
                 f"{cite('stpd', 'Figs. 3.8-3.13')}", fontsize="medium")
    return fig


def plot_fixed_bottleneck(result):
    """Figs. 3.15-3.17: queue and per-connection throughput per protocol.

    Parameters
    ----------
    result : FixedBottleneckResult

    Returns
    -------
    matplotlib.figure.Figure
    """
    n = len(result.protocols)
    fig, axes = new_figure(n, 2, figsize=(11, 2.8 * n + 0.6), sharex=True)
    axes = np.atleast_2d(axes)
    for k, p in enumerate(result.protocols):
        r = result.runs[p]
        aq, at = axes[k]
        aq.plot(r.time, r.queue[:, 0], color=COLOURS.get(p), lw=0.6, label="queue at R1 (ctlcc)")
        if p == "stpd":
            aq.axhline(1.0, label="thesis: around 1 packet (Fig. 3.17(a))", **THESIS)
        if p == "vegas":
            aq.axhspan(1, 3, color="0.5", alpha=0.2, label="thesis: 1-3 packets, one flow")
        aq.axhline(result.buffer, color="0.5", ls=":", lw=0.8, label=f"buffer {result.buffer}")
        aq.set_ylabel(f"{LABELS.get(p, p)}: queue [packets]")
        for i, name in enumerate(r.flow_names):
            at.step(r.bin_time, r.throughput[:, i] / 1e6, where="pre", lw=0.9,
                    label=f"S{i + 1}D{i + 1}")
        share = np.zeros_like(r.bin_time)
        for t0, t1, active in result.phases:
            share[(r.bin_time > t0) & (r.bin_time <= t1)] = 1.5 / len(active)
        at.step(r.bin_time, share, where="pre", label="fair share C/n", **THESIS)
        jain = ", ".join(f"{j:.2f}" for j in result.jain[p][1:4])
        fair = ", ".join("never" if not np.isfinite(x) else f"{x:.1f} s"
                         for x in result.fair_time[p][1:4])
        at.set_title(f"{LABELS.get(p, p)}: Jain in the shared phases {jain};\n"
                     f"time to within {result.band:.0%} of C/n: {fair}", fontsize="small")
        at.set_ylabel("throughput [Mb/s]")
        for ax in (aq, at):
            ax.legend(fontsize="x-small", loc="upper right", ncol=2)
    axes[-1, 0].set_xlabel("time [s]")
    axes[-1, 1].set_xlabel("time [s]")
    fig.suptitle(f"Three connections join and leave a 1.5 Mb/s bottleneck - "
                 f"{cite('stpd', 'Figs. 3.14-3.17')}", fontsize="medium")
    return fig


def plot_moving_bottleneck(result):
    """Figs. 3.19-3.20: queues at R1 and R2, throughput of the three flows.

    Parameters
    ----------
    result : MovingBottleneckResult

    Returns
    -------
    matplotlib.figure.Figure
    """
    n = len(result.protocols)
    fig, axes = new_figure(n, 2, figsize=(11, 3.2 * n + 0.6), sharex=True)
    axes = np.atleast_2d(axes)
    for k, p in enumerate(result.protocols):
        r = result.runs[p]
        aq, at = axes[k]
        aq.plot(r.time, r.queue[:, 0], lw=0.6, label="R1 -> R2 (ctlcc)")
        aq.plot(r.time, r.queue[:, 1], lw=0.6, label="R2 -> R3 (ctlcc)")
        if p == "stpd":
            aq.axhline(1.0, label="thesis: around 1 packet (Fig. 3.19(a))", **THESIS)
        aq.set_ylabel(f"{LABELS.get(p, p)}: queue [packets]")
        for i, name in enumerate(r.flow_names):
            at.step(r.bin_time, r.throughput[:, i] / 1e6, where="pre", lw=0.9, label=name)
        if p == "stpd":
            at.hlines(0.75, 15, 30, label="thesis: equal halves of R1R2", **THESIS)
            at.hlines(0.384, 45, 60, color="k", ls=":", lw=1.0,
                      label="thesis: S3D3 at full 384 kb/s")
        at.set_title(f"{LABELS.get(p, p)}: S1D1 share 15-30 s = {result.s1_share[p]:.2f}",
                     fontsize="small")
        at.set_ylabel("throughput [Mb/s]")
        for ax in (aq, at):
            ax.legend(fontsize="x-small", loc="upper right", ncol=2)
    axes[-1, 0].set_xlabel("time [s]")
    axes[-1, 1].set_xlabel("time [s]")
    fig.suptitle(f"Moving bottleneck R1 -> R2 - {cite('stpd', 'Figs. 3.18-3.20')}",
                 fontsize="medium")
    return fig


def plot_moving_bottleneck_occupancy(result, protocol="reno"):
    """Fig. 3.20(a): whose packets wait in R1's queue, and what each connection gets.

    Parameters
    ----------
    result : MovingBottleneckResult
        Its runs keep the per-flow occupancy trace (``ThesisRun.queue_by_flow``).
    protocol : str
        One of ``result.protocols``.

    Returns
    -------
    matplotlib.figure.Figure
    """
    if protocol not in result.runs:
        raise ValueError(f"protocol must be one of {sorted(result.runs)}, got {protocol!r}")
    r = result.runs[protocol]
    if r.queue_by_flow is None:
        raise ValueError("result's runs have no per-flow queue trace (queue_by_flow is None)")
    t0, t1 = 15.0 + result.settle, 30.0
    fig, (aq, at) = new_figure(2, 1, figsize=(11, 6.2), sharex=True)
    for i in (0, 1):
        name = r.flow_names[i]
        held = r.mean_waiting(i, t0, t1)
        aq.plot(r.time, r.queue_by_flow[:, 0, i], lw=0.6, color=f"C{i}",
                label=f"{name} (mean {held:.2f} over {t0:g}-{t1:g} s)")
        at.step(r.bin_time, r.throughput[:, i] / 1e6, where="pre", lw=0.9, color=f"C{i}",
                label=name)
    aq.plot(r.time, r.queue[:, 0], lw=0.4, color="0.6", label="all packets waiting at R1")
    at.axhline(0.75, label="fair share of R1R2 (0.75 Mb/s)", **THESIS)
    for ax in (aq, at):
        ax.axvspan(t0, t1, color="0.92", zorder=0, label=f"judged span {t0:g}-{t1:g} s")
        ax.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    aq.set_ylabel("packets waiting at R1 -> R2 [packets]")
    at.set_ylabel("in-order throughput [Mb/s]")
    at.set_xlabel("time [s]")
    aq.set_xlim(10.0, 35.0)
    fig.suptitle(f"{LABELS.get(protocol, protocol)}: per-connection occupancy of R1's buffer - "
                 f"{cite('stpd', 'Fig. 3.20(a)')}", fontsize="medium")
    return fig


def plot_telnet(result):
    """Figs. 3.22-3.23: R1's queue and Telnet's round-trip time.

    Parameters
    ----------
    result : TelnetResult

    Returns
    -------
    matplotlib.figure.Figure
    """
    pub = exp.published()
    n = len(result.protocols)
    fig, axes = new_figure(n, 2, figsize=(11, 3.0 * n + 0.6), sharex=True)
    axes = np.atleast_2d(axes)
    for k, p in enumerate(result.protocols):
        r = result.runs[p]
        aq, ar = axes[k]
        aq.plot(r.time, r.queue[:, 0], color=COLOURS.get(p), lw=0.5, label="queue at R1 (ctlcc)")
        aq.set_ylabel(f"{LABELS.get(p, p)} FTP: queue [packets]")
        rtt = result.rtt[p]
        ar.plot(rtt[:, 0], rtt[:, 1] * 1e3, ".", ms=2, color=COLOURS.get(p),
                label="Telnet RTT (ctlcc, Poisson instants)")
        ar.axhline(pub["fig3_22_rtt_low"]["value"], label="thesis: 63 ms (empty queue)", **THESIS)
        if p == "stpd":
            aq.axhspan(0, 3, color="0.5", alpha=0.2, label="thesis: 0-3 packets (Fig. 3.22(a))")
            ar.axhline(pub["fig3_22_rtt_high"]["value"], color="k", ls=":", lw=1.0,
                       label="thesis: upper bound 127 ms")
        else:
            ar.axhline(pub["fig3_23_rtt_max"]["value"], color="k", ls=":", lw=1.0,
                       label="thesis: maximum 894 ms (Fig. 3.23(b))")
        ar.set_ylabel("round-trip time [ms]")
        for ax in (aq, ar):
            ax.legend(fontsize="x-small", loc="upper right")
    axes[-1, 0].set_xlabel("time [s]")
    axes[-1, 1].set_xlabel("time [s]")
    fig.suptitle(f"FTP and Telnet over 384 kb/s - {cite('stpd', 'Figs. 3.21-3.23')}",
                 fontsize="medium")
    return fig


def plot_loss_sweep(result, ax=None):
    """Fig. 4.8: normalised throughput against uniform packet-error probability.

    Parameters
    ----------
    result : LossSweepResult
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    fig = None
    if ax is None:
        fig, ax = new_figure(figsize=(7.5, 5.2))
    pub = exp.published()
    for i, p in enumerate(result.protocols):
        mean, sd = result.throughput[i].mean(1), result.throughput[i].std(1)
        ax.errorbar(result.losses, mean, yerr=sd, color=COLOURS.get(p), marker="o", ms=3,
                    capsize=2, label=f"{LABELS.get(p, p)} (ctlcc, {len(result.seeds)} seeds)")
        for loss, tag in ((1e-2, "1e-2"), (1e-1, "1e-1")):
            row = pub.get(f"fig4_8_{p}_{tag}")
            if row is None:
                continue
            if row["kind"] == "upper bound":
                ax.plot(loss * (1.06 if p in ("reno", "tahoe") else 0.94), row["high"], marker="v",
                        ms=8, color=COLOURS.get(p), mec="k", ls="none")
            else:
                ax.plot(loss, row["value"], marker="*", ms=13, color=COLOURS.get(p), mec="k",
                        ls="none")
    ax.plot([], [], "k*", ms=10, label="thesis' stated value")
    ax.plot([], [], "kv", ms=7, label="thesis' stated upper bound")
    ax.set_xscale("log")
    ax.set_xlabel("packet transmission error probability [1]")
    ax.set_ylabel("normalised throughput [1]")
    ax.set_ylim(0, 1.05)
    ax.legend(fontsize="small")
    ax.set_title(f"Throughput vs uniform wireless loss, Fig. 4.7 path, {result.duration:g} s runs\n"
                 f"{cite('stpd', 'Fig. 4.8')}", fontsize="medium")
    return ax


def plot_loss_windows(result):
    """Figs. 4.9-4.12: window traces at the trace loss, one panel each.

    Parameters
    ----------
    result : LossSweepResult

    Returns
    -------
    matplotlib.figure.Figure
    """
    pub = exp.published()
    ps = [p for p in result.protocols if p in result.traces]
    fig, axes = new_figure(len(ps), 1, figsize=(9, 2.2 * len(ps) + 0.6), sharex=True)
    axes = np.atleast_1d(axes)
    for ax, p in zip(axes, ps):
        r = result.traces[p]
        ax.plot(r.time, r.window[:, 0], color=COLOURS.get(p), lw=0.7,
                label=f"{LABELS.get(p, p)} (ctlcc, seed {r.seed})")
        ax.axhline(31, color="0.5", ls=":", lw=0.8, label="BDP 31 (thesis)")
        ax.axhline(61, color="0.5", ls="-.", lw=0.8, label="BDP + buffer 61 (thesis)")
        if p == "tahoe":
            ax.axhline(pub["fig4_9_tahoe_window_max"]["value"], label="thesis: Tahoe max 37",
                       **THESIS)
            ax.axhline(20, color="k", ls=":", lw=1.0, label="thesis: mostly below 20")
        ax.set_ylabel("window [packets]")
        ax.legend(fontsize="x-small", loc="upper right", ncol=2)
    axes[-1].set_xlabel("time [s]")
    fig.suptitle(f"Congestion windows at uniform loss {result.trace_loss:g} - "
                 f"{cite('stpd', 'Figs. 4.9-4.12')}", fontsize="medium")
    return fig


def plot_bursty(result, alternative=None):
    """Figs. 4.14-4.17: windows against packet index and time, bursty loss.

    Parameters
    ----------
    result : BurstyLossResult
    alternative : BurstyLossResult, optional
        The other channel reading, drawn in the summary panel.

    Returns
    -------
    matplotlib.figure.Figure
    """
    pub = exp.published()
    fig, axes = new_figure(3, 1, figsize=(9.5, 9))
    ai, at, ab = axes
    # the thesis's Figs. 4.16-4.17 (Reno, ST-PD), then any protocol it did not run
    for p in ("reno", "stpd") + tuple(p for p in result.protocols if p in ADDED):
        if p not in result.traces:
            continue
        r = result.traces[p]
        d = r.delivered[:, 0]
        keep = (d >= result.first - 1) & (d <= result.last)
        label = f"{LABELS.get(p, p)} ({_added(p)}seed {r.seed})"
        ai.plot(d[keep], r.window[keep, 0], color=COLOURS.get(p), lw=0.7, label=label)
        at.plot(r.time, r.window[:, 0], color=COLOURS.get(p), lw=0.7, label=label)
    for p, key in (("reno", "fig4_16"), ("stpd", "fig4_17")):
        t0, t1 = pub[f"{key}_{p}_start"]["value"], pub[f"{key}_{p}_end"]["value"]
        at.axvspan(t0, t1, color=COLOURS[p], alpha=0.08,
                   label=f"thesis: {LABELS[p]} packets 2001-10000 in {t0:g}-{t1:g} s")
    ai.set_xlabel("packets delivered in order [packets]")
    at.set_xlabel("time [s]")
    for ax in (ai, at):
        ax.set_ylabel("window [packets]")
        ax.legend(fontsize="x-small", loc="upper right")
    runs = [result] + ([alternative] if alternative is not None else [])
    width = 0.8 / (len(runs) + 1)
    x = np.arange(len(result.protocols))
    for k, res in enumerate(runs):
        ab.bar(x + k * width, res.throughput.mean(1), width, yerr=res.throughput.std(1),
               capsize=2, label=f"ctlcc, {res.channel}-counted states ({len(res.seeds)} seeds)")
    thesis = [pub.get(f"fig4_16_{p}_throughput", pub.get(f"fig4_17_{p}_throughput"))
              for p in result.protocols]
    ab.bar(x + len(runs) * width, [row["value"] if row else 0 for row in thesis], width,
           color="k", label="thesis (one run)")
    ab.set_xticks(x + width * len(runs) / 2, [LABELS.get(p, p) for p in result.protocols])
    ab.set_ylabel("normalised throughput,\npackets 2001-10000 [1]")
    ab.legend(fontsize="x-small")
    fig.suptitle(f"Bursty loss, mean burst {result.mean_burst:g} packets, ratio "
                 f"{result.loss_ratio:g} - {cite('stpd', 'Figs. 4.13-4.17')}", fontsize="medium")
    return fig


def plot_geo(result):
    """Figs. 4.19-4.22: window, throughput and in-order sequence on the GEO path.

    Parameters
    ----------
    result : GeoBurstResult

    Returns
    -------
    matplotlib.figure.Figure
    """
    pub = exp.published()
    fig, (aw, at, ad) = new_figure(3, 1, figsize=(9, 9), sharex=True)
    for p in result.protocols:
        r = result.runs[p]
        col = COLOURS.get(p)
        aw.plot(r.time, r.window[:, 0], color=col, lw=0.9, label=f"{LABELS.get(p, p)} (ctlcc)")
        at.step(r.bin_time, r.throughput[:, 0] / 1e6, where="pre", color=col, lw=0.9,
                label=f"{LABELS.get(p, p)} (ctlcc)")
        ad.plot(r.time, r.delivered[:, 0], color=col, lw=1.0,
                label=f"{LABELS.get(p, p)}: {result.delivered[p]} packets (ctlcc)")
    aw.axhline(result.bdp, color="0.5", ls=":", lw=0.8, label=f"BDP {result.bdp:.0f}")
    aw.axhline(pub["fig4_19_reno_cut"]["value"], label="thesis: Reno halved twice to ~33",
               **THESIS)
    if "reno" in result.delivered:
        target = result.delivered["reno"] + pub["fig4_22_stpd_minus_reno"]["value"]
        ad.plot([result.duration], [target], "k*", ms=12,
                label=f"thesis: ST-PD = Reno + 1861 = {target:.0f}")
    aw.set_ylabel("window [packets]")
    at.set_ylabel("throughput [Mb/s]")
    ad.set_ylabel("in-order packets [packets]")
    ad.set_xlabel("time [s]")
    for ax in (aw, at, ad):
        ax.legend(fontsize="x-small", loc="upper left")
    fig.suptitle(f"GEO T1 path, packets 2000 and 2001 corrupted - "
                 f"{cite('stpd', 'Figs. 4.19-4.22')}", fontsize="medium")
    return fig


def plot_mixed(result):
    """Figs. 6.2-6.6: ST-PD beside Reno; S2D2's deliveries with loss.

    Parameters
    ----------
    result : MixedRenoResult

    Returns
    -------
    matplotlib.figure.Figure
    """
    pub = exp.published()
    fig, axes = new_figure(2, 2, figsize=(11, 7.5))
    for ax, r, title in ((axes[0, 0], result.pair, "Fig. 6.2(a): Reno S1D1 + ST-PD S2D2"),
                         (axes[0, 1], result.trio, "Fig. 6.2(b): + Reno S3D3 at 10 s")):
        protos = ["Reno", "ST-PD", "Reno"]
        for i, name in enumerate(r.flow_names):
            ax.step(r.bin_time, r.throughput[:, i] / 1e6, where="pre", lw=0.9,
                    label=f"{protos[i]} {name} (ctlcc)")
        ax.set_title(title, fontsize="small")
        ax.set_xlabel("time [s]")
        ax.set_ylabel("throughput [Mb/s]")
        ax.legend(fontsize="x-small", loc="upper right")
    for ax, placement, key, fig_no in ((axes[1, 0], "R1R2", "fig6_4_gain_shared_loss", "6.4"),
                                       (axes[1, 1], "S2R1", "fig6_6_gain_own_loss", "6.6")):
        gains = result.shared_gain if placement == "R1R2" else result.own_gain
        extra = [p for (where, p) in result.extra_gain if where == placement]
        for p in ("stpd", "reno", *extra):
            r = result.lossy[(placement, p)]
            ax.plot(r.time, r.delivered[:, 1], color=COLOURS.get(p), lw=1.0,
                    label=f"S2D2 = {LABELS.get(p, p)} ({_added(p)}seed {r.seed})")
        added = "".join(
            f"\n{LABELS.get(p, p)}/Reno = {np.mean(result.extra_gain[(placement, p)]):.2f} ± "
            f"{np.std(result.extra_gain[(placement, p)]):.2f} (ctlcc's addition, not in the "
            f"thesis)" for p in extra)
        ax.set_title(f"Fig. {fig_no}: loss {result.loss:g} on {placement}; ST-PD/Reno = "
                     f"{np.mean(gains):.2f} ± {np.std(gains):.2f} (thesis "
                     f"{pub[key]['value']:.2f}){added}", fontsize="small")
        ax.set_xlabel("time [s]")
        ax.set_ylabel("S2D2 in-order packets [packets]")
        ax.legend(fontsize="x-small", loc="upper left")
    fig.suptitle(f"ST-PD sharing a queue with Reno (buffer {result.buffer}, our choice) - "
                 f"{cite('stpd', 'Figs. 6.2-6.6')}", fontsize="medium")
    return fig


def _added(protocol):
    """'ctlcc, ' or, for a protocol the thesis did not run, 'ctlcc's addition, '."""
    return "ctlcc's addition, " if protocol in ADDED else "ctlcc, "


def claims_table(claim_list):
    """The checked claims as a report table."""
    rows = tuple((c.id, c.location, c.claim, _cell(c.published), _cell(c.value),
                  "" if c.spread is None else c.spread, c.unit, c.verdict, c.reason,
                  " ".join(str(s) for s in c.seeds)) for c in claim_list)
    return ReportTable(
        "thesis_sim_claims",
        f"Every number and claim the text of {cite('stpd', '§3.5, §4.4, §6')} states about its "
        f"ns-2 experiments (data/thesis_sim_published.csv), checked on ctlcc's packet engine "
        f"(ctlcc.experiments.thesis.claims). 'differs' rows say by how much and why.",
        ("id", "location", "claim", "published", "ctlcc", "spread", "unit", "verdict", "reason",
         "seeds"), rows)


def report_items(results=None):
    """Figures and the claims table for ``ctlcc report`` (quick settings)."""
    results = exp.run_all(quick=True) if results is None else results
    bursty_time = exp.bursty_loss(seeds=exp.QUICK["bursty_seeds"],
                                  duration=exp.QUICK["bursty_duration"], channel="time")
    b = results["buffer_dimension"]
    yield ReportFigure(
        "thesis_fig3_8_13_buffer",
        f"Reno and ST-PD on thesis Fig. 3.7 (10 Mb/s 0.2 ms + 1.5 Mb/s 20 ms), buffer "
        f"{' and '.join(str(x) for x in b.buffers)} packets, {b.duration:g} s, 1000-byte packets "
        f"on the wire as in ns-2. Dashed black: what the thesis' text states.",
        plot_buffer_dimension(b))
    f = results["fixed_bottleneck"]
    yield ReportFigure(
        "thesis_fig3_15_17_fixed_bottleneck",
        "Thesis Fig. 3.14: connections active 0-36, 12-48 and 24-60 s over 1.5 Mb/s 20 ms, "
        "buffer 20. Throughput in 0.5 s bins against the fair share C/n; Jain index over each "
        "shared phase (2 s after each join or leave left out).",
        plot_fixed_bottleneck(f))
    m = results["moving_bottleneck"]
    yield ReportFigure(
        "thesis_fig3_19_20_moving_bottleneck",
        "Thesis Fig. 3.18: S1D1 over R1-R2-R3 for 60 s, S2D2 (45 Mb/s access) over R1-R2 during "
        "15-30 s, S3D3 (384 kb/s access) over R2-R3 during 45-60 s; queues of 20 packets.",
        plot_moving_bottleneck(m))
    if "reno" in m.runs:
        yield ReportFigure(
            "thesis_fig3_20a_occupancy_by_flow",
            "Thesis Fig. 3.18 with TCP Reno: each connection's packets waiting in R1's queue "
            "towards R2 (the engine's per-flow occupancy trace, every 10 ms) and its in-order "
            "throughput in 0.5-s bins; the thesis's Fig. 3.20(a) finding is judged over the "
            "shaded span.",
            plot_moving_bottleneck_occupancy(m))
    t = results["telnet_delay"]
    yield ReportFigure(
        "thesis_fig3_22_23_telnet_rtt",
        f"Thesis Fig. 3.21: an FTP transfer and a Telnet source ({t.telnet_rate:g} packets/s, "
        f"Poisson) over a 384 kb/s 20 ms link, buffer {t.buffer}. Telnet RTT = empty-network "
        f"RTT {t.base_rtt * 1e3:.1f} ms + the packets waiting at R1 x "
        f"{t.packet_time * 1e3:.2f} ms.",
        plot_telnet(t))
    u = results["uniform_loss"]
    yield ReportFigure(
        "thesis_fig4_8_throughput_vs_loss",
        f"Thesis Fig. 4.7 path (10 Mb/s 0.1 ms + 1.5 Mb/s 80 ms wireless, buffer 30): in-order "
        f"throughput / 1.5 Mb/s, mean ± sd over seeds {', '.join(map(str, u.seeds))}, "
        f"{u.duration:g} s per run. Stars: values the thesis states; triangles: its bounds.",
        plot_loss_sweep(u).figure)
    yield ReportFigure(
        "thesis_fig4_9_12_windows",
        f"Congestion windows of Tahoe, Reno, Vegas and ST-PD at uniform loss {u.trace_loss:g} "
        f"(first seed).", plot_loss_windows(u))
    bl = results["bursty_loss"]
    yield ReportFigure(
        "thesis_fig4_13_17_bursty",
        f"Two-state bursty loss (mean burst {bl.mean_burst:g} packets, ratio {bl.loss_ratio:g}) "
        f"on the Fig. 4.7 path: windows against the in-order packet index and against time; "
        f"throughput between packets {bl.first} and {bl.last} with the states counted in "
        f"packets (the thesis' reading) and in seconds.",
        plot_bursty(bl, bursty_time))
    g = results["geo_burst"]
    yield ReportFigure(
        "thesis_fig4_19_22_geo",
        "Thesis Fig. 4.18: 10 Mb/s 0.2 ms, 1.5 Mb/s 250 ms, 10 Mb/s 0.2 ms; packets 2000 and "
        "2001 lost on the satellite link; window limit 132 and buffer 100 packets (our reading, "
        "see ctlcc.sim.scenarios.thesis_fig4_18).", plot_geo(g))
    x = results["mixed_reno"]
    yield ReportFigure(
        "thesis_fig6_2_4_mixed",
        "Thesis Fig. 6.1: 10 Mb/s 0.2 ms access, 1.5 Mb/s 25 ms shared link, 10 Mb/s 0.3 ms "
        f"exits, buffer {x.buffer} (not printed). Bottom: S2D2's in-order deliveries in "
        f"{x.duration:g} s as ST-PD and as Reno, loss {x.loss:g} on the shared link (Fig. 6.4) "
        f"or on S2's access (Fig. 6.6), seeds {', '.join(map(str, x.seeds))}.",
        plot_mixed(x))
    rows = []
    for buffer in MIXED_BUFFERS:
        m = x if buffer == x.buffer else exp.mixed_reno(buffer=buffer, seeds=x.seeds)
        ratio = m.stpd_rate_after / m.stpd_rate_before if m.stpd_rate_before > 0 else math.inf
        rows.append((buffer, round(m.stpd_share, 4), round(ratio, 4),
                     round(float(np.mean(m.shared_gain)), 4),
                     round(float(np.std(m.shared_gain)), 4), round(float(np.mean(m.own_gain)), 4),
                     round(float(np.std(m.own_gain)), 4)))
    yield ReportTable(
        "thesis_fig6_buffer_sensitivity",
        f"{cite('stpd', '§6')} does not print R1's buffer: the Fig. 6.2-6.6 measures for "
        f"several buffers (seeds {', '.join(map(str, x.seeds))}). Thesis: ST-PD share < 0.5, "
        f"rate after/before the second Reno ~1, ST-PD/Reno 1.10 (Fig. 6.4) and 1.14 (Fig. 6.6).",
        ("buffer [packets]", "ST-PD share beside one Reno [1]", "ST-PD rate after/before [1]",
         "ST-PD/Reno, loss on R1R2 [1]", "sd [1]", "ST-PD/Reno, loss on S2R1 [1]", "sd [1]"),
        tuple(rows))
    yield claims_table(exp.claims(results) + exp.claims({"bursty_loss": bursty_time}))


def _cell(value):
    if isinstance(value, float) and value != value:
        return "no value"     # NaN: ctlcc measured nothing to compare
    if isinstance(value, float):
        return round(value, 6)
    return "" if value is None else value


if __name__ == "__main__":  # pragma: no cover
    import sys

    from ..report import _save
    from pathlib import Path

    out = Path(sys.argv[1] if len(sys.argv) > 1 else "thesis-sim-report")
    out.mkdir(parents=True, exist_ok=True)
    for item in report_items():
        for path in _save(item, out, 110):
            print(path)
