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
from ._common import (NS2_PACKETS, _bdp, _check_times, _ev, _fraction_within, _run, experiment,
                      thesis_unit)

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


# --- private helpers ---------------------------------------------------------------------

def _window_at_overflow(r, after, flow=0, gap=1.0):
    """Median window at the first queue drop of each overflow episode. [packets]"""
    t = r.overflow_times[r.overflow_times >= after]
    if t.size == 0:
        return math.nan
    firsts = t[np.concatenate([[True], np.diff(t) > gap])]
    k = np.clip(np.searchsorted(r.time, firsts, side="right") - 1, 0, r.time.size - 1)
    return float(np.median(r.window[k, flow]))
