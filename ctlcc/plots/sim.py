# ctlcc.plots.sim - figures of the packet-level simulator
"""Figures and tables of :mod:`ctlcc.sim` (packet engine).

:func:`plot_window` and :func:`plot_queue` take any number of
:class:`~ctlcc.sim.engine.SimResult` (or objects with the same ``traces``
layout), so fluid-model or ns-3 traces can be overlaid on the same axes.
"""

import numpy as np

from ..errors import ParameterError
from ..references import cite
from ..sim import run, scenarios
from . import ReportFigure, ReportTable, get_axes, new_figure

__all__ = ["plot_window", "plot_queue", "thesis_fig3_7_figure", "report_items"]

#: Simulated time of the thesis Fig. 3.7 runs (§3.5.1: "the first 30 seconds"). [s]
FIG3_7_DURATION = 30.0


def plot_window(result, flow=0, ax=None, label=None, **kwargs):
    """Congestion window (or Primo's rate) of one flow against time.

    A window-based flow (Reno, NewReno, Tahoe, Vegas, ST-PD) draws its
    congestion window; a rate-based flow (Primo) has no window and draws its
    sending rate instead, with the y label saying so.

    Parameters
    ----------
    result : SimResult
        Run made with ``trace=True``.
    flow : int
        Flow index.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new pyplot figure if None.
    label : str, optional
        Legend entry (default: the flow's protocol).
    **kwargs
        Passed to :meth:`matplotlib.axes.Axes.step`.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ValueError
        *result* holds no traces (run without ``trace=True``), or *flow* is
        not a flow index of the run.
    """
    traces = _traces(result, "plot_window")
    n_flows = traces.window.shape[1]
    if not (isinstance(flow, (int, np.integer)) and 0 <= flow < n_flows):
        raise ParameterError(f"flow must be an integer in [0, {n_flows - 1}], got {flow!r}")
    ax = get_axes(ax)
    window = traces.window[:, flow]
    rate_based = np.all(np.isnan(window)) and not np.all(np.isnan(traces.rate[:, flow]))
    values = traces.rate[:, flow] if rate_based else window
    label = label or result.flows[flow].protocol
    ax.step(traces.time, values, where="post", label=label, **kwargs)
    ax.set_xlabel("time [s]")
    ax.set_ylabel("sending rate [packets/s]" if rate_based else "congestion window [packets]")
    ax.legend(loc="upper right", fontsize="small")
    return ax


def plot_queue(result, queue=0, ax=None, label=None, **kwargs):
    """Packets waiting in a reported queue against time.

    Parameters
    ----------
    result : SimResult
        Run made with ``trace=True``.
    queue : int
        Index in ``scenario.bottlenecks``.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new pyplot figure if None.
    label : str, optional
        Legend entry.  Default: the protocol when every flow of the run uses
        the same one, otherwise the queue's link ("queue R->D"), since a
        shared queue belongs to no single flow.
    **kwargs
        Passed to :meth:`matplotlib.axes.Axes.step`.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ValueError
        *result* holds no traces (run without ``trace=True``), or *queue* is
        not an index of ``scenario.bottlenecks``.
    """
    traces = _traces(result, "plot_queue")
    n_queues = traces.queue.shape[1]
    if not (isinstance(queue, (int, np.integer)) and 0 <= queue < n_queues):
        raise ParameterError(f"queue must be an integer in [0, {n_queues - 1}], got {queue!r}")
    ax = get_axes(ax)
    if label is None:
        protocols = {f.protocol for f in result.flows}
        if len(protocols) == 1:
            label = protocols.pop()
        else:
            a, b = result.queues[queue].link
            label = f"queue {a}->{b}"
    ax.step(traces.time, traces.queue[:, queue], where="post", label=label, **kwargs)
    ax.set_xlabel("time [s]")
    ax.set_ylabel("queue [packets]")
    ax.legend(loc="upper right", fontsize="small")
    return ax


def thesis_fig3_7_figure(buffer_case="sufficient", protocols=("reno", "vegas", "stpd"),
                         duration=FIG3_7_DURATION, seed=0, overlays=()):
    """Window and queue traces in the thesis Fig. 3.7 scenario.

    Parameters
    ----------
    buffer_case : {"sufficient", "insufficient"}
        14- or 4-packet buffer at R (thesis §3.5.1.1 / §3.5.1.2).
    protocols : sequence of str
    duration : float
        Simulated time. [s]
    seed : int
    overlays : iterable of (label, time, window, queue)
        Other models' traces (fluid model, ns-3) drawn dashed on the same
        axes; ``window`` or ``queue`` may be None. [s], [packets], [packets]

    Returns
    -------
    (matplotlib.figure.Figure, dict)
        The figure and the runs by protocol.
    """
    name = f"thesis_fig3_7_{buffer_case}"
    runs = {p: run(scenarios.preset(name, protocol=p), duration, seed=seed, trace=True,
                   sample_interval=0.005) for p in protocols}
    first = runs[protocols[0]].scenario
    bottleneck = next(l for l in first.links if (l.a, l.b) == first.bottlenecks[0])
    figure, (ax_w, ax_q) = new_figure(2, 1, figsize=(7.5, 6.5), sharex=True)
    smooth = int(round(0.25 / 0.005))
    for p, result in runs.items():
        line = plot_window(result, ax=ax_w, label=p, lw=0.9).lines[-1]
        plot_queue(result, ax=ax_q, label=f"{p} (5 ms samples)", lw=0.5, alpha=0.35,
                   color=line.get_color())
        q = result.traces.queue[:, 0]
        mean = np.convolve(q, np.ones(smooth) / smooth, mode="valid")
        ax_q.plot(result.traces.time[smooth - 1:], mean, color=line.get_color(), lw=1.6,
                  label=f"{p} (0.25 s mean)")
    for label, time, window, queue in overlays:
        if window is not None:
            ax_w.plot(time, window, ls="--", lw=1.0, label=label)
        if queue is not None:
            ax_q.plot(time, queue, ls="--", lw=1.0, label=label)
    bdp = _base_bdp(first)
    ax_w.axhline(bdp + bottleneck.buffer + 1, color="0.4", ls="--", lw=0.8,
                 label=f"BDP + buffer + 1 = {bdp + bottleneck.buffer + 1:.1f} (overflow)")
    ax_w.axhline(bdp, color="0.6", ls=":", lw=0.8, label=f"BDP = {bdp:.1f}")
    ax_w.legend(loc="upper right", fontsize="small")
    ax_q.axhline(bottleneck.buffer, color="0.4", ls="--", lw=0.8,
                 label=f"buffer = {bottleneck.buffer} packets")
    ax_q.set_ylim(-0.3, bottleneck.buffer * 1.5)  # room for the legend above the data
    ax_q.legend(loc="upper right", fontsize="x-small", ncol=3)
    ax_w.set_xlabel("")
    source = {"sufficient": "§3.5.1.1, Figs. 3.8-3.9", "insufficient": "§3.5.1.2, Figs. 3.11-3.12"}
    ax_w.set_title(f"{cite('stpd', 'Fig. 3.7')} scenario, {buffer_case} buffer ({bottleneck.buffer} packets "
                   f"at R): packet simulation\ncf. {cite('stpd', source.get(buffer_case, ''))}",
                   fontsize="medium")
    ax_q.set_xlim(0, duration)
    return figure, runs


def report_items():
    """Figures and the preset table for ``ctlcc report``."""
    for case in ("sufficient", "insufficient"):
        figure, runs = thesis_fig3_7_figure(case)
        stats = "; ".join(
            f"{p}: goodput {r.flows[0].goodput_bps / 1e6:.3f} Mb/s, mean queue "
            f"{r.queues[0].mean:.2f} packets, {r.flows[0].dropped} drops"
            for p, r in runs.items())
        yield ReportFigure(
            f"thesis_fig3_7_{case}_window_queue",
            f"Packet-level Reno, Vegas and ST-PD (fixed gains kp=0.368, kd=0.033) in thesis Fig. 3.7 (10 Mb/s 0.2 ms + 1.5 Mb/s 20 ms, "
            f"{case} buffer), 1000-byte payloads + 54-byte headers, IW 1, min RTO 1 s, "
            f"{FIG3_7_DURATION:g} s. Dashed: the window at which R overflows (BDP + buffer + 1 "
            f"in service), the thesis' N + B rule of §3.5.1. {stats}.",
            figure)
    rows = []
    for name in scenarios.PRESETS:
        result = run(scenarios.preset(name), 20.0)
        q = result.queues[0]
        rows.append((name, result.flows[0].protocol, len(result.flows),
                     round(sum(result.goodputs_bps) / 1e6, 4), round(result.jain, 4),
                     round(q.mean, 3), q.max, q.drops, round(q.utilisation, 4)))
    yield ReportTable(
        "sim_presets_summary",
        "Every preset of ctlcc.sim.scenarios run 20 s with its default protocol (seed 0): "
        "total goodput, Jain index of the flows' goodputs (flows active for different "
        "periods are not comparable), and the first reported queue.",
        ("preset", "protocol", "flows", "goodput [Mb/s]", "Jain [1]", "mean queue [packets]",
         "max queue [packets]", "queue drops [packets]", "utilisation [1]"),
        tuple(rows))


def _base_bdp(scenario):
    """Bottleneck rate x base RTT of the first flow. [packets]"""
    links = {}
    for link in scenario.links:
        links[(link.a, link.b)] = link
        links[(link.b, link.a)] = link
    path = scenario.flows[0].path
    hops = [links[h] for h in zip(path[:-1], path[1:])]
    rtt = sum(2 * l.delay + scenario.data_bits / l.rate + 8 * scenario.ack_bytes / l.rate
              for l in hops)
    rate = min(l.rate for l in hops) / scenario.data_bits
    return rate * rtt


def _traces(result, caller):
    """The run's traces, or an error saying how to get them."""
    traces = getattr(result, "traces", None)
    if traces is None:
        raise ParameterError(
            f"{caller} needs the run's traces, but result.traces is None: run the "
            "simulation with trace=True, e.g. ctlcc.sim.run(scenario, duration, trace=True)")
    return traces
