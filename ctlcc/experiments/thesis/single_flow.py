# ctlcc.experiments.thesis.single_flow - one connection, sufficient and short buffer (§3.5.1)
"""The thesis's single-connection experiment (Xu 2002, §3.5.1, Figs. 3.7-3.13).

:func:`buffer_dimension` re-runs Reno and ST-PD on the Fig. 3.7 path with
a sufficient (14-packet) and an insufficient (4-packet) buffer; the units
after it measure the records ``stpd-fig.3.8-*`` ... ``stpd-fig.3.13-*`` of
``data/ledger_stpd.csv`` from its result.

References
----------
Xu (2002), §3.5.1, Figs. 3.7-3.13.
"""

import math
from dataclasses import dataclass, field

import numpy as np

from ...claims.registry import Measurement
from ...sim import scenarios
from .._args import checked
from ._common import (NS2_PACKETS, _bdp, _check_times, _ev, _fraction_within, _hops, _run,
                      experiment, thesis_unit)

__all__ = ["BufferDimensionResult", "buffer_dimension"]


@dataclass(frozen=True)
class BufferDimensionResult:
    """Figs. 3.8-3.13: one connection, sufficient and insufficient buffer.

    Attributes
    ----------
    protocols : tuple of str
    buffers : tuple of int
        Buffers at R (14 = sufficient, 4 = insufficient). [packets]
    duration : float
        [s]
    seed : int
    warmup : float
        Start of the steady-state statistics. [s]
    bdp : float
        Bottleneck rate x base RTT of the path. [packets]
    runs : dict
        ``{(buffer, protocol): ThesisRun}``.
    """

    protocols: tuple
    buffers: tuple
    duration: float
    seed: int
    warmup: float
    bdp: float
    runs: dict = field(repr=False)


@experiment()
@checked()
def buffer_dimension(protocols=("reno", "stpd"), buffers=(14, 4), duration=30.0, seed=0,
                     warmup=5.0, bin_width=0.5):
    """Figs. 3.8-3.13: Reno and ST-PD with a sufficient and insufficient buffer.

    Parameters
    ----------
    protocols : sequence of str
    buffers : sequence of int
        Buffers at R; the thesis uses 14 (§3.5.1.1) and 4 (§3.5.1.2). [packets]
    duration : float
        Simulated time (thesis: 30 s). [s]
    seed : int
    warmup : float
        Start of the steady-state statistics. [s]
    bin_width : float
        Throughput bin (thesis: 0.5 s). [s]

    Returns
    -------
    BufferDimensionResult

    References
    ----------
    Xu (2002), §3.5.1, Figs. 3.7-3.13.
    """
    duration, warmup = _check_times(duration, warmup)
    runs = {}
    for buffer in buffers:
        for protocol in protocols:
            scenario = scenarios.preset("thesis_fig3_7_sufficient", protocol=protocol,
                                        buffer=buffer, **NS2_PACKETS)
            runs[(buffer, protocol)] = _run(scenario, duration, seed, bin_width, 0.002)
    bdp = _bdp(scenarios.preset("thesis_fig3_7_sufficient", **NS2_PACKETS))
    return BufferDimensionResult(tuple(protocols), tuple(buffers), duration, seed, warmup,
                                 bdp, runs)


# ledger: Figs. 3.8-3.13 (data/ledger_stpd.csv)

_BUFFER = _ev("buffer_dimension", "thesis_fig3_8_13_buffer")


@thesis_unit("stpd-fig.3.8-fig3_8_stpd_window", needs="buffer_dimension",
             evidence=_BUFFER)
def _fig3_8_stpd_window(res):
    hi = max(res.buffers)
    if "stpd" not in res.protocols:
        return None
    r = res.runs[(hi, "stpd")]
    win = r.window_after(res.warmup)
    p5, p95 = np.percentile(win, [5, 95])
    return Measurement(
        value=_fraction_within(win, 9.5, 12.5),
        reason=(f"share of the window samples after {res.warmup:g} s within 9.5-12.5 packets; "
                f"5-95 % range [{p5:.1f}, {p95:.1f}], median {np.median(win):.1f} (ctlcc's BDP "
                f"{res.bdp:.1f} + ref 1); {int(r.timeouts[0])} timeout(s) in the start-up"))


@thesis_unit("stpd-fig.3.9-fig3_9_stpd_queue", needs="buffer_dimension",
             evidence=_BUFFER)
def _fig3_9_stpd_queue(res):
    hi = max(res.buffers)
    if "stpd" not in res.protocols:
        return None
    q = res.runs[(hi, "stpd")].queue_after(res.warmup)
    return Measurement(value=float(q.mean()),
                       reason=f"mean queue after {res.warmup:g} s (95th percentile "
                              f"{np.percentile(q, 95):.0f} packets)")


@thesis_unit("stpd-fig.3.9-fig3_9_reno_queue", needs="buffer_dimension",
             evidence=_BUFFER)
def _fig3_9_reno_queue(res):
    hi = max(res.buffers)
    if "reno" not in res.protocols:
        return None
    q = res.runs[(hi, "reno")].queue_after(res.warmup)
    return Measurement(value=float(q.min()),
                       reason=f"Reno's queue after {res.warmup:g} s spans "
                              f"[{q.min():.0f}, {q.max():.0f}] packets (buffer {hi})")


@thesis_unit("stpd-fig.3.8-fig3_8_reno_peak", needs="buffer_dimension",
             evidence=_BUFFER)
def _fig3_8_reno_peak(res):
    hi = max(res.buffers)
    if "reno" not in res.protocols:
        return None
    wmax = _window_at_overflow(res.runs[(hi, "reno")], res.warmup)
    return Measurement(value=wmax,
                       reason=f"Reno's window at the first drop of each overflow after "
                              f"{res.warmup:g} s (median); ctlcc's path holds BDP "
                              f"{res.bdp:.1f} + {hi} + 1 in service")


def _rates(res, buffer, protocols):
    return [res.runs[(buffer, p)].rate_between(0, res.warmup, res.duration) / 1e6
            for p in protocols]


@thesis_unit("stpd-fig.3.11-fig3_11_reno_overflow", needs="buffer_dimension",
             evidence=_BUFFER)
def _fig3_11_reno_overflow(res):
    lo, hi = min(res.buffers), max(res.buffers)
    if lo == hi or "reno" not in res.protocols:
        return None
    wmax = _window_at_overflow(res.runs[(lo, "reno")], res.warmup)
    return Measurement(value=wmax,
                       reason=f"Reno's window at the first drop of each overflow of the "
                              f"{lo}-packet buffer after {res.warmup:g} s (median); ctlcc's path "
                              f"holds BDP {res.bdp:.1f} + {lo} + 1 in service")


@thesis_unit("stpd-fig.3.10-fig3_10_full_throughput", needs="buffer_dimension",
             evidence=_BUFFER)
def _fig3_10_full_throughput(res):
    hi = max(res.buffers)
    if not all(p in res.protocols for p in ("reno", "stpd")):
        return None
    reno, stpd = _rates(res, hi, ("reno", "stpd"))
    return Measurement(value=min(reno, stpd),
                       reason=f"throughput over {res.warmup:g}-{res.duration:g} s: Reno "
                              f"{reno:.3f}, ST-PD {stpd:.3f} Mb/s (the smaller is the value)")


@thesis_unit("stpd-fig.3.13-fig3_13_reno_throughput", needs="buffer_dimension",
             evidence=_BUFFER)
def _fig3_13_reno_throughput(res):
    lo, hi = min(res.buffers), max(res.buffers)
    if lo == hi or "reno" not in res.protocols:
        return None
    rate, = _rates(res, lo, ("reno",))
    return Measurement(value=rate, reason=f"Reno over {res.warmup:g}-{res.duration:g} s with a "
                                          f"{lo}-packet buffer (the window of Fig. 3.10's record)")


@thesis_unit("stpd-fig.3.13-fig3_13_stpd_throughput", needs="buffer_dimension",
             evidence=_BUFFER)
def _fig3_13_stpd_throughput(res):
    lo, hi = min(res.buffers), max(res.buffers)
    if lo == hi or "stpd" not in res.protocols:
        return None
    (a,), (b,) = _rates(res, hi, ("stpd",)), _rates(res, lo, ("stpd",))
    ra, rb = res.runs[(hi, "stpd")], res.runs[(lo, "stpd")]
    whole = [r.rate_between(0, 0.0, res.duration) / 1e6 for r in (ra, rb)]
    return Measurement(
        value=a - b,
        reason=f"ST-PD over {res.warmup:g}-{res.duration:g} s: {a:.3f} (buffer {hi}) vs "
               f"{b:.3f} Mb/s (buffer {lo})",
        other_evidence=f"over the whole 0-{res.duration:g} s, start-up included: {whole[0]:.3f} "
                       f"vs {whole[1]:.3f} Mb/s ({int(ra.queue_drops[0])} vs "
                       f"{int(rb.queue_drops[0])} buffer drops, {int(ra.timeouts[0])} vs "
                       f"{int(rb.timeouts[0])} timeouts in the start-up)")


@thesis_unit("stpd-fig.3.12-fig3_12_stpd_queue", needs="buffer_dimension",
             evidence=_BUFFER)
def _fig3_12_stpd_queue(res):
    lo, hi = min(res.buffers), max(res.buffers)
    if lo == hi or "stpd" not in res.protocols:
        return None
    qa = res.runs[(hi, "stpd")].queue_after(res.warmup).mean()
    qb = res.runs[(lo, "stpd")].queue_after(res.warmup).mean()
    return Measurement(value=float(qb - qa),
                       reason=f"mean queue after {res.warmup:g} s: {qa:.2f} (buffer {hi}) vs "
                              f"{qb:.2f} (buffer {lo})")


@thesis_unit("stpd-eq3.3-queue-estimate", needs="buffer_dimension", evidence=_BUFFER)
def _eq3_3_queue_estimate(res):
    hi = max(res.buffers)
    present = [p for p in ("reno", "stpd") if p in res.protocols]
    if not present:
        return None
    reach, rate = _path()
    med = {}
    for p in present:
        err = _queue_estimate_error(res.runs[(hi, p)], rate, reach, res.warmup)
        med[p] = (float(np.median(err)), float(np.percentile(err, 95)), err.size)
    worst = max(med, key=lambda p: med[p][0])
    return Measurement(
        value=med[worst][0],
        reason="median |(RTT - RTT_min) x C - waiting packets at R| after "
               f"{res.warmup:g} s, buffer {hi}: " + ", ".join(
                   f"{p} {m:.2f} (95th percentile {q95:.2f}, {n} ACKs)"
                   for p, (m, q95, n) in med.items())
               + f"; the value is {worst}'s. The estimate also counts the rest of the packet in "
                 "service, which the waiting count leaves out")


def _overflow_cycles(res, protocol="reno"):
    lo = min(res.buffers)
    r = res.runs[(lo, protocol)]
    pt = 1.0 / _path()[1]
    # one overflow's drops fall within a round trip with the buffer full
    return r, _episode_starts(r.overflow_times, res.warmup, r.base_rtt[0] + lo * pt), pt


def _path():
    """(seconds for a packet from S to reach R, bottleneck rate [packets/s]) of Fig. 3.7."""
    sc = scenarios.preset("thesis_fig3_7_sufficient", **NS2_PACKETS)
    hops = _hops(sc, sc.flows[0].path)
    return (sc.data_bits / hops[0].rate + hops[0].delay,
            min(l.rate for l in hops) / sc.data_bits)


@thesis_unit("stpd-fig3.11a-link-idle-after-cut", needs="buffer_dimension", evidence=_BUFFER)
def _fig3_11a_link_idle(res):
    lo, hi = min(res.buffers), max(res.buffers)
    if lo == hi or "reno" not in res.protocols:
        return None
    r, starts, pt = _overflow_cycles(res)
    idle = _idle_per_cycle(r.time, r.delivered[:, 0], starts, pt)
    if idle.size == 0:
        return Measurement(value=math.nan, reason="fewer than two overflow episodes after "
                                                  f"{res.warmup:g} s: no full cycle")
    k = np.clip(np.searchsorted(r.time, starts, side="right") - 1, 0, r.time.size - 1)
    w = r.window[k, 0]
    return Measurement(
        value=float(np.mean(idle > pt)),
        reason=f"{idle.size} full overflow cycles after {res.warmup:g} s (buffer {lo}); idle "
               f"time per cycle {np.round(idle * 1e3, 1).tolist()} ms against one packet time "
               f"{pt * 1e3:.2f} ms; Reno's window at the overflows (median {np.median(w):.1f}) "
               f"halves to about {np.median(w) / 2:.1f} packets, below the path's BDP "
               f"{res.bdp:.1f}")


@thesis_unit("stpd-fig3.12a-buffer-empty-some-time", needs="buffer_dimension",
             evidence=_BUFFER)
def _fig3_12a_buffer_empty(res):
    lo, hi = min(res.buffers), max(res.buffers)
    if lo == hi or "reno" not in res.protocols:
        return None
    r, starts, pt = _overflow_cycles(res)
    if starts.size < 2:
        return Measurement(value=math.nan, reason="fewer than two overflow episodes after "
                                                  f"{res.warmup:g} s: no full cycle")
    spells = np.array([_longest_zero_run(r.time, r.queue[:, 0], a, b)
                       for a, b in zip(starts[:-1], starts[1:])])
    big = res.runs[(hi, "reno")].queue_after(res.warmup)
    return Measurement(
        value=float(np.mean(spells >= pt - 1e-9)),
        reason=f"longest empty spell of R's queue in each of the {spells.size} full overflow "
               f"cycles after {res.warmup:g} s (buffer {lo}): "
               f"{np.round(spells * 1e3, 0).astype(int).tolist()} ms, against one packet time "
               f"{pt * 1e3:.2f} ms",
        other_evidence=f"with the {hi}-packet buffer Reno's queue never falls below "
                       f"{big.min():.0f} packets after {res.warmup:g} s")


@thesis_unit("stpd-fig3.11b-stpd-window-unaffected", needs="buffer_dimension",
             evidence=_BUFFER)
def _fig3_11b_stpd_window(res):
    lo, hi = min(res.buffers), max(res.buffers)
    if lo == hi or "stpd" not in res.protocols:
        return None
    wa = res.runs[(hi, "stpd")].window_after(res.warmup)
    wb = res.runs[(lo, "stpd")].window_after(res.warmup)
    return Measurement(
        value=float(wb.mean() - wa.mean()),
        reason=f"ST-PD's mean window after {res.warmup:g} s: {wb.mean():.2f} (buffer {lo}) vs "
               f"{wa.mean():.2f} packets (buffer {hi}); 5-95 % ranges "
               f"[{np.percentile(wb, 5):.1f}, {np.percentile(wb, 95):.1f}] vs "
               f"[{np.percentile(wa, 5):.1f}, {np.percentile(wa, 95):.1f}]")


# --- private helpers ---------------------------------------------------------------------

def _window_at_overflow(r, after, flow=0, gap=1.0):
    """Median window at the first queue drop of each overflow episode. [packets]"""
    t = r.overflow_times[r.overflow_times >= after]
    if t.size == 0:
        return math.nan
    firsts = t[np.concatenate([[True], np.diff(t) > gap])]
    k = np.clip(np.searchsorted(r.time, firsts, side="right") - 1, 0, r.time.size - 1)
    return float(np.median(r.window[k, flow]))


def _episode_starts(times, after=0.0, gap=1.0):
    """First drop time of each drop episode (drops less than *gap* apart form one). [s]"""
    t = np.sort(np.asarray(times, dtype=float))
    t = t[t >= after]
    if t.size == 0:
        return t
    return t[np.concatenate([[True], np.diff(t) >= gap])]


def _idle_per_cycle(time, delivered, starts, packet_time):
    """Link idle time of each cycle between consecutive *starts*. [s]

    Cycle length minus the packets delivered in order during it times the
    transmission time of one packet (a single flow whose drops never cross
    the link: every packet that crosses is delivered once).
    """
    starts = np.asarray(starts, dtype=float)
    if starts.size < 2:
        return np.zeros(0)
    d = np.interp(starts, time, delivered)
    return np.diff(starts) - np.diff(d) * packet_time


def _longest_zero_run(time, queue, t0, t1):
    """Longest span of consecutive zero samples of *queue* within [t0, t1). [s]

    A run of k zero samples spaced dt apart counts k x dt (each sample stands
    for its sampling interval).
    """
    sel = (time >= t0) & (time < t1)
    q, t = np.asarray(queue)[sel], np.asarray(time)[sel]
    if t.size < 2:
        return 0.0
    dt = float(np.median(np.diff(t)))
    best = run = 0
    for z in q == 0:
        run = run + 1 if z else 0
        best = max(best, run)
    return best * dt


def _queue_seen(r, ack_time, rtt, hop_delay, queue=0):
    """Waiting packets in *queue* at the trace sample at or before each packet reached it."""
    arrive = np.asarray(ack_time) - np.asarray(rtt) + hop_delay
    k = np.clip(np.searchsorted(r.time, arrive, side="right") - 1, 0, r.time.size - 1)
    return r.queue[k, queue]


def _queue_estimate_error(r, rate_pps, hop_delay, after, flow=0):
    """|(RTT - RTT_min) x rate - waiting packets| per ACK after *after* (eq. 3.3). [packets]"""
    s = r.rtt[r.rtt[:, 1] == flow]
    rtt_min = np.minimum.accumulate(s[:, 2])
    keep = s[:, 0] >= after
    est = (s[keep, 2] - rtt_min[keep]) * rate_pps
    q = _queue_seen(r, s[keep, 0], s[keep, 2], hop_delay)
    return np.abs(est - q)
