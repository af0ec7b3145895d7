# ctlcc.experiments.thesis.wireless - throughput under uniform, bursty and GEO-burst link errors
"""The thesis's wireless-loss experiments (Xu 2002, §4.4, Figs. 4.7-4.22).

* :func:`uniform_loss` - normalised throughput against a uniform packet
  error probability on the wireless link (Figs. 4.8-4.12);
* :func:`bursty_loss` - a two-state bursty channel
  (:func:`packet_burst_channel`), throughput between packets 2001 and
  10000 (Figs. 4.13-4.17); its second reading, states counted in seconds,
  is the experiment ``bursty_loss_time``, other evidence of the same records;
* :func:`geo_burst` - one burst corrupts packets 2000 and 2001 on a GEO T1
  path (Figs. 4.18-4.22).

Each experiment is followed by the units that measure its records
(``stpd-fig.4.8-*`` ... ``stpd-fig.4.22-*`` of ``data/ledger_stpd.csv``).

References
----------
Xu (2002), §4.4.1-§4.4.2, Figs. 4.7-4.22.
"""

import math
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from ..._validation import check_interval, check_positive, check_positive_int
from ...claims.registry import Measurement
from ...errors import ParameterError
from ...sim import scenarios
from ...sim.scenarios import GilbertElliott, PacketList
from .._args import checked
from ._common import (FULL, NS2_PACKETS, QUICK, _base_rtt, _bdp, _check_seeds, _crossing, _ev,
                      _run, experiment, thesis_unit)

__all__ = ["LOSS_GRID", "LossSweepResult", "BurstyLossResult", "GeoBurstResult",
           "packet_burst_channel", "uniform_loss", "bursty_loss", "geo_burst"]

#: Uniform packet-error probabilities of Fig. 4.8 (the OCR keeps the axis
#: labels 1e-4 ... 1e-1; the text quotes 1e-2 and 1e-1). [1]
LOSS_GRID = (1e-3, 2e-3, 5e-3, 1e-2, 2e-2, 5e-2, 1e-1)


# --- §4.4.1.1 uniform loss (Figs. 4.7-4.12) -----------------------------------------------

@dataclass(frozen=True)
class LossSweepResult:
    """Figs. 4.8-4.12: throughput against uniform packet-error probability.

    Attributes
    ----------
    protocols : tuple of str
    losses : ndarray, shape (L,)
        Packet-error probabilities of the wireless link. [1]
    seeds : tuple of int
    duration : float
        [s]
    throughput : ndarray, shape (P, L, S)
        In-order delivery rate / bottleneck rate, whole packets. [1]
    timeouts : ndarray, shape (P, L, S)
        Retransmission timeouts per run. [1]
    trace_loss : float
        Loss of the window traces (Figs. 4.9-4.12). [1]
    traces : dict
        ``{protocol: ThesisRun}`` at *trace_loss*, first seed.
    """

    protocols: tuple
    losses: np.ndarray
    seeds: tuple
    duration: float
    throughput: np.ndarray
    timeouts: np.ndarray
    trace_loss: float
    traces: dict = field(repr=False)

    def at(self, protocol, loss):
        """Normalised throughputs over the seeds at one grid loss. [1]"""
        i = self.protocols.index(protocol)
        j = int(np.argmin(np.abs(np.log(self.losses) - math.log(loss))))
        if not math.isclose(self.losses[j], loss, rel_tol=1e-9):
            raise ParameterError(f"loss must be on the grid {self.losses.tolist()}, got {loss!r}")
        return self.throughput[i, j]


@experiment(quick={"seeds": QUICK["loss_seeds"], "duration": QUICK["loss_duration"]},
            full={"seeds": FULL["loss_seeds"], "duration": FULL["loss_duration"]}, newreno=True)
@checked()
def uniform_loss(protocols=("tahoe", "reno", "vegas", "stpd"), losses=LOSS_GRID,
                 seeds=(0, 1, 2), duration=100.0, trace_loss=1e-2, buffer=30):
    """Figs. 4.8-4.12: normalised throughput against uniform wireless loss.

    Parameters
    ----------
    protocols : sequence of str
    losses : sequence of float
        Packet-error probabilities of the R-D wireless link, in (0, 1). [1]
    seeds : sequence of int
    duration : float
        Simulated time per run (not printed in the thesis). [s]
    trace_loss : float
        Loss of the window traces (thesis: 1e-2); must be in *losses*. [1]
    buffer : int
        R's buffer (thesis: 30). [packets]

    Returns
    -------
    LossSweepResult

    References
    ----------
    Xu (2002), §4.4.1.1, Figs. 4.7-4.12.
    """
    duration = check_positive("duration", duration)
    losses = np.array([check_interval("losses", p, 0.0, 1.0) for p in losses])
    seeds = _check_seeds(seeds)
    if not np.any(np.isclose(losses, trace_loss)):
        raise ParameterError(f"trace_loss must be one of losses {losses.tolist()}, "
                             f"got {trace_loss!r}")
    shape = (len(protocols), losses.size, len(seeds))
    thr, tos = np.zeros(shape), np.zeros(shape)
    traces = {}
    for i, protocol in enumerate(protocols):
        for j, p in enumerate(losses):
            for k, seed in enumerate(seeds):
                scenario = scenarios.preset("thesis_fig4_7", protocol=protocol, loss=float(p),
                                            buffer=buffer, **NS2_PACKETS)
                keep = k == 0 and math.isclose(p, trace_loss)
                r = _run(scenario, duration, seed, 1.0, 0.05 if keep else None, light=not keep)
                thr[i, j, k] = r.goodput[0] / 1.5e6
                tos[i, j, k] = r.timeouts[0]
                if keep:
                    traces[protocol] = r
    return LossSweepResult(tuple(protocols), losses, seeds, duration, thr, tos,
                           float(trace_loss), traces)


# ledger: Figs. 4.8-4.12 (data/ledger_stpd.csv)

_UNIFORM = _ev("uniform_loss", "thesis_fig4_8_throughput_vs_loss")
_FIG4_8 = {f"stpd-fig.4.8-fig4_8_{p}_{tag}": (p, loss)
           for p in ("tahoe", "reno", "vegas", "stpd") for tag, loss in (("1e-2", 1e-2),
                                                                        ("1e-1", 1e-1))}


@thesis_unit(*_FIG4_8, needs="uniform_loss", evidence=_UNIFORM)
def _fig4_8(res):
    out = {}
    for cid, (protocol, loss) in _FIG4_8.items():
        if protocol not in res.protocols or not np.any(np.isclose(res.losses, loss)):
            continue
        v = res.at(protocol, loss)
        other = ""
        if "newreno" in res.protocols and protocol in ("reno", "tahoe"):
            other = f"NewReno (RFC 6582, not in the thesis): {res.at('newreno', loss).mean():.3f}"
        if protocol == "stpd":
            other = _readings_note(loss)
        out[cid] = Measurement(value=float(v.mean()), samples=tuple(v), seeds=res.seeds,
                               reason=_uniform_reason(res, protocol, loss, float(v.mean())),
                               other_evidence=other)
    return out


def _readings_note(loss):
    """The best ST-PD reading of data/thesis_stpd_readings.csv at *loss* (other evidence)."""
    from ... import _data

    key = "fig4_8_p1e-2" if loss == 1e-2 else "fig4_8_p1e-1"
    rows = _data.read_csv("thesis_stpd_readings.csv")
    default = _default_reading(rows)
    best = max(rows, key=lambda r: float(r[key]))
    return (f"the readings sweep of the ST-PD sender (data/thesis_stpd_readings.csv, "
            f"{len(rows)} readings, {default['duration_s']} s x seeds {default['seeds']}): the "
            f"default reading {float(default[key]):.3f}, the best {float(best[key]):.3f} "
            f"(gains {best['gains']}, update {best['update']}, bdp {best['bdp']})")


def _default_reading(rows):
    from ...sim.senders import Stpd

    d = Stpd()
    want = {"gains": "fuzzy", "update": d.update, "bdp": d.bdp, "repair": d.repair,
            "inflation": str(d.inflation), "start": d.start,
            "slow_start_exit": d.slow_start_exit, "after_timeout": d.after_timeout}
    found = [r for r in rows if all(r[k] == v for k, v in want.items())]
    return found[0] if found else rows[0]


def _uniform_reason(res, protocol, loss, mean):
    i = res.protocols.index(protocol)
    j = int(np.argmin(np.abs(res.losses - loss)))
    tos = res.timeouts[i, j].mean()
    text = (f"{protocol} {mean:.3f} at {loss:g} ({tos:.0f} timeouts per "
            f"{res.duration:g} s run)")
    r = res.traces.get(protocol)
    if r is not None and math.isclose(loss, res.trace_loss):
        count, size = _window_cuts(r)
        text += (f"; seed {r.seed}: median window {np.median(r.window[:, 0]):.1f} packets "
                 f"(BDP 31), {count} window cuts of mean {size:.1f} packets for "
                 f"{int(r.link_losses[0])} link losses")
    if protocol in ("reno", "tahoe") and math.isclose(loss, 1e-2):
        scenario = scenarios.preset("thesis_fig4_7", **NS2_PACKETS)
        rtt = _base_rtt(scenario, scenario.flows[0].path)
        text += ("; the Mathis et al. bound 1.22/sqrt(p) x MSS/RTT_min gives "
                 f"{1.22 / math.sqrt(loss) * scenario.data_bits / rtt / 1.5e6:.2f} for this path")
    return text


@thesis_unit("stpd-fig.4.9-fig4_9_tahoe_window_max", "stpd-fig.4.9-fig4_9_tahoe_window_typical",
             needs="uniform_loss",
             evidence=_ev("uniform_loss", "thesis_fig4_9_12_windows"))
def _fig4_9(res):
    if "tahoe" not in res.traces:
        return None
    r = res.traces["tahoe"]
    win = r.window[:, 0]
    return {
        "stpd-fig.4.9-fig4_9_tahoe_window_max": Measurement(
            value=float(win.max()), seeds=res.seeds[:1],
            reason=f"Tahoe's largest window in one {res.duration:g}-s run at p = "
                   f"{res.trace_loss:g} (the thesis's run length is not printed)"),
        "stpd-fig.4.9-fig4_9_tahoe_window_typical": Measurement(
            value=float(np.median(win)), seeds=res.seeds[:1],
            reason=f"median window of the same run (share below 20 packets "
                   f"{np.mean(win < 20):.0%})"),
    }


@thesis_unit("stpd-fig.4.11-fig4_11_vegas_above_reno", needs="uniform_loss",
             evidence=_UNIFORM)
def _fig4_11(res):
    if not all(p in res.protocols for p in ("vegas", "reno")):
        return None
    v, r = res.at("vegas", 1e-2), res.at("reno", 1e-2)
    diff = v - r
    return Measurement(value=float(diff.mean()), samples=tuple(diff), seeds=res.seeds,
                       reason=f"Vegas {v.mean():.3f} vs Reno {r.mean():.3f} at p = 1e-2 "
                              f"(difference per seed, same loss pattern)")


def _trace_episodes(r, flow=0):
    """:func:`_loss_episodes` of one flow of a traced single-flow run, all data losses."""
    losses = np.concatenate([r.loss_times, r.overflow_times])
    return _loss_episodes(r.time, r.window[:, flow], r.delivered[:, flow], losses)


@thesis_unit("stpd-fig.4.10-fig4_10_tahoe_one_reno_half", needs="uniform_loss",
             evidence=_ev("uniform_loss", "thesis_fig4_9_12_windows"))
def _fig4_10(res):
    if not all(p in res.traces for p in ("tahoe", "reno")):
        return None
    _, _, tahoe_after = _trace_episodes(res.traces["tahoe"])
    _, before, after = _trace_episodes(res.traces["reno"])
    dup = after > 1.5
    ratio = after[dup] / before[dup]
    if not tahoe_after.size or not ratio.size:
        return None
    tahoe = float(np.mean(tahoe_after <= 1.5))
    reno = float(np.mean(np.abs(ratio - 0.5) <= 0.1))
    return Measurement(
        value=min(tahoe, reno), seeds=res.seeds[:1],
        reason=f"seed {res.seeds[0]}, p = {res.trace_loss:g}, {res.duration:g} s: Tahoe's window "
               f"falls to 1 after {tahoe:.0%} of its {tahoe_after.size} loss episodes; Reno "
               f"recovers {ratio.size} of its {after.size} episodes by duplicate ACKs (the others "
               f"time out), {reno:.0%} of them at half the window before (median ratio "
               f"{np.median(ratio):.2f}; {np.mean(ratio < 0.4):.0%} below 0.4, as two halvings "
               f"in one episode would be, {np.mean(ratio > 0.6):.0%} above 0.6)")


@thesis_unit("stpd-fig.4.12-fig4_12_stpd_small_cuts", needs="uniform_loss",
             evidence=_ev("uniform_loss", "thesis_fig4_9_12_windows"))
def _fig4_12(res):
    if "stpd" not in res.traces:
        return None
    _, before, after = _trace_episodes(res.traces["stpd"])
    ok = before > 0
    if not ok.any():
        return None
    cut = 1.0 - after[ok] / before[ok]
    return Measurement(
        value=float(cut.mean()), seeds=res.seeds[:1],
        reason=f"seed {res.seeds[0]}, p = {res.trace_loss:g}, {res.duration:g} s: "
               f"{cut.size} loss episodes, mean relative window reduction {cut.mean():.3f} "
               f"(median {np.median(cut):.3f}, largest {cut.max():.2f}; "
               f"{int(np.sum(after[ok] <= 1.5))} to window 1)")


@thesis_unit("stpd-s4.3.3-stpd_timeouts_high_loss", needs="uniform_loss", evidence=_UNIFORM)
def _stpd_timeouts(res):
    if "stpd" not in res.protocols or not np.any(np.isclose(res.losses, 1e-1)):
        return None
    i = res.protocols.index("stpd")
    j = int(np.argmin(np.abs(res.losses - 1e-1)))
    v = res.timeouts[i, j]
    per_loss = ", ".join(f"{p:g}: {res.timeouts[i, n].mean():.1f}"
                         for n, p in enumerate(res.losses))
    return Measurement(value=float(v.mean()), samples=tuple(float(x) for x in v),
                       seeds=res.seeds,
                       reason=f"ST-PD's timeouts per {res.duration:g}-s run by loss ({per_loss}); "
                              f"normalised throughput at 1e-1 {res.at('stpd', 1e-1).mean():.3f}")


@thesis_unit("stpd-s4.5-stpd_window_loss_insensitive", needs="uniform_loss",
             evidence=_ev("uniform_loss", "thesis_fig4_9_12_windows"))
def _s4_5(res):
    if "stpd" not in res.traces:
        return None
    scenario = scenarios.preset("thesis_fig4_7", **NS2_PACKETS)
    level = _bdp(scenario) + 1.0
    med = float(np.median(res.traces["stpd"].window_after(5.0)))
    return Measurement(
        value=med / level, seeds=res.seeds[:1],
        reason=f"ST-PD's median window {med:.1f} packets at p = {res.trace_loss:g} (seed "
               f"{res.seeds[0]}, after 5 s) against its lossless level BDP + 1 = {level:.1f}; "
               f"normalised throughput {res.at('stpd', res.trace_loss).mean():.3f}")


# --- §4.4.1.2 bursty loss (Figs. 4.13-4.17) -----------------------------------------------

@dataclass(frozen=True)
class BurstyLossResult:
    """Figs. 4.13-4.17: two-state bursty loss, mean burst 8, ratio 1e-2.

    Attributes
    ----------
    protocols : tuple of str
    seeds : tuple of int
    duration : float
        [s]
    mean_burst : float
        Mean burst length. [packets]
    loss_ratio : float
        Long-run packet error ratio. [1]
    channel : str
        "packets" (state sojourns counted in packets crossing the link,
        the thesis' reading) or "time" (sojourns in seconds).
    first, last : int
        Packet indices of the thesis' measurement (2001 and 10000). [packets]
    start, end : ndarray, shape (P, S)
        Times the first / last packet was delivered in order; ``end`` is
        the run's end where *last* was not reached (see ``reached``). [s]
    reached : ndarray of bool, shape (P, S)
    throughput : ndarray, shape (P, S)
        (delivered(end) - delivered(start)) x packet bits / (end - start) /
        bottleneck rate. [1]
    timeouts : ndarray, shape (P, S)
        [1]
    traces : dict
        ``{protocol: ThesisRun}`` of the first seed.
    stalls : ndarray, shape (P, S)
        Pauses of in-order delivery of at least ``STALL_GAP`` between packets
        *first* and *last* (a retransmission timeout's stall). [1]
    reset_share : ndarray, shape (P, S)
        Share of the link-error loss episodes (:func:`_loss_episodes`) after
        which the window falls to one (at most 1.5); NaN without episodes. [1]
    episode_cut : ndarray, shape (P, S)
        Mean relative window reduction, 1 - after / before, per loss episode
        of all data losses (link errors and queue overflows). [1]
    """

    protocols: tuple
    seeds: tuple
    duration: float
    mean_burst: float
    loss_ratio: float
    channel: str
    first: int
    last: int
    start: np.ndarray
    end: np.ndarray
    reached: np.ndarray
    throughput: np.ndarray
    timeouts: np.ndarray
    traces: dict = field(repr=False)
    stalls: np.ndarray = None
    reset_share: np.ndarray = None
    episode_cut: np.ndarray = None


@checked()
def packet_burst_channel(mean_burst, loss_ratio, packets, seed=0):
    """Two-state error channel counted in packets, as a packet list.

    The channel alternates between an error-free state S0 and an error
    state S1; every packet crossing the link in S1 is corrupted.  The
    sojourns are memoryless and counted in packets (geometric, the
    discrete form of the exponential durations of §4.4.1.2): mean
    *mean_burst* packets in S1 and ``mean_burst (1 - r) / r`` in S0 for an
    overall ratio r.  Because the state advances only when a packet
    crosses, a sender that stops (a timeout) finds the burst still there:
    each retransmission into a long burst is lost too.

    Parameters
    ----------
    mean_burst : float
        Mean number of consecutive corrupted packets, >= 1. [packets]
    loss_ratio : float
        Long-run fraction of corrupted packets, in (0, 1). [1]
    packets : int
        Length of the pattern (packets beyond it are not lost). [packets]
    seed : int or numpy.random.Generator

    Returns
    -------
    PacketList
        1-based indices of the corrupted packets.

    References
    ----------
    Xu (2002), §4.4.1.2, Fig. 4.13.

    Examples
    --------
    >>> ch = packet_burst_channel(8, 0.01, 2_000_000, seed=1)
    >>> round(len(ch.indices) / 2_000_000, 3)
    0.01
    """
    if not (isinstance(mean_burst, (int, float)) and mean_burst >= 1):
        raise ParameterError(f"mean_burst must be >= 1 [packets], got {mean_burst!r}")
    check_interval("loss_ratio", loss_ratio, 0.0, 1.0)
    packets = check_positive_int("packets", packets)
    if mean_burst * (1 - loss_ratio) / loss_ratio < 1:
        raise ParameterError(
            f"loss_ratio must be <= mean_burst / (1 + mean_burst) = "
            f"{mean_burst / (1 + mean_burst):.6g} (a good run lasts at least one packet), "
            f"got {loss_ratio!r} with mean_burst={mean_burst!r}")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    mean_good = mean_burst * (1 - loss_ratio) / loss_ratio
    lost, position = [], 0
    while position < packets:
        position += int(rng.geometric(1.0 / mean_good))
        burst = int(rng.geometric(1.0 / mean_burst))
        lost.extend(range(position + 1, min(position + burst, packets) + 1))
        position += burst
    return PacketList(tuple(lost))


@experiment(quick={"seeds": QUICK["bursty_seeds"], "duration": QUICK["bursty_duration"]},
            full={"seeds": FULL["bursty_seeds"], "duration": FULL["bursty_duration"]})
@experiment("bursty_loss_time", report_only=True,
            quick={"seeds": QUICK["bursty_seeds"], "duration": QUICK["bursty_duration"],
                   "channel": "time"})
@checked(hashable=True)
@lru_cache(maxsize=4)
def bursty_loss(protocols=("tahoe", "reno", "vegas", "stpd"), seeds=(0, 1, 2), duration=400.0,
                mean_burst=8.0, loss_ratio=1e-2, buffer=30, first=2001, last=10000,
                channel="packets"):
    """Figs. 4.13-4.17: two-state bursty loss, the thesis' packet-index window.

    The wireless link alternates between an error-free and an error state,
    mean burst *mean_burst* packets, overall ratio *loss_ratio*.  The
    thesis counts the states in packets ("the length of an error burst,
    which is the number of consecutively corrupted packets, is determined
    by the duration of state S1"; Fig. 4.13 is drawn against the packet
    index): ``channel="packets"`` (:func:`packet_burst_channel`, default).
    ``channel="time"`` is the other reading, sojourns in seconds
    (:class:`ctlcc.sim.scenarios.GilbertElliott`), in which an idle sender
    waits the burst out.  The
    throughput is measured, as in §4.4.1.2, between the in-order delivery
    of packet *first* and of packet *last*.

    Parameters
    ----------
    protocols : sequence of str
    seeds : sequence of int
    duration : float
        Simulated time; long enough for Reno to reach *last* (thesis: 322 s). [s]
    mean_burst : float
        [packets]
    loss_ratio : float
        [1]
    buffer : int
        [packets]
    first, last : int
        Packet indices of the measurement. [packets]
    channel : {"packets", "time"}
        How the channel's states are counted.

    Returns
    -------
    BurstyLossResult

    References
    ----------
    Xu (2002), §4.4.1.2, Figs. 4.13-4.17.
    """
    duration = check_positive("duration", duration)
    seeds = _check_seeds(seeds)
    first, last = check_positive_int("first", first), check_positive_int("last", last)
    if last <= first:
        raise ParameterError(f"last must be > first, got first={first}, last={last}")
    if channel not in ("packets", "time"):
        raise ParameterError(f"channel must be 'packets' or 'time', got {channel!r}")
    bits = 8.0 * 1000
    from ..thesis_typed_claims import stalls as _stalls

    shape = (len(protocols), len(seeds))
    start, end, thr, tos, stall, reset, cut = (np.zeros(shape) for _ in range(7))
    reached = np.zeros(shape, dtype=bool)
    traces = {}
    for i, protocol in enumerate(protocols):
        for k, seed in enumerate(seeds):
            if channel == "time":
                model = GilbertElliott.from_burst(mean_burst, loss_ratio, packet_time=bits / 1.5e6)
            else:  # the same pattern for every protocol of a seed; enough packets for the run
                model = packet_burst_channel(mean_burst, loss_ratio,
                                             int(1.5e6 / bits * duration * 1.1) + 1000, seed)
            scenario = scenarios.preset("thesis_fig4_7", protocol=protocol, loss=model,
                                        buffer=buffer, **NS2_PACKETS)
            r = _run(scenario, duration, seed, 1.0, 0.02)
            d = r.delivered[:, 0]
            t0 = _crossing(r.time, d, first - 1)
            t1 = _crossing(r.time, d, last)
            reached[i, k] = np.isfinite(t1)
            t0 = t0 if np.isfinite(t0) else duration  # never got to *first*: nothing measured
            t1 = t1 if np.isfinite(t1) else duration
            start[i, k], end[i, k] = t0, t1
            thr[i, k] = (r.delivered_between(0, t0, t1) * r.packet_bits / (t1 - t0) / 1.5e6
                         if np.isfinite(t0) and t1 > t0 else 0.0)
            tos[i, k] = r.timeouts[0]
            stall[i, k] = _stalls(r.time, d, t0, t1)
            reset[i, k], cut[i, k] = _episode_stats(r)
            if k == 0:
                traces[protocol] = r
    return BurstyLossResult(tuple(protocols), seeds, duration, float(mean_burst),
                            float(loss_ratio), channel, first, last, start, end, reached, thr,
                            tos, traces, stall, reset, cut)


# ledger: Figs. 4.13-4.17 (data/ledger_stpd.csv)

_BURSTY = _ev("bursty_loss", "thesis_fig4_13_17_bursty")


def _bursty_text(res, i):
    return (f"{res.channel} channel; {int(res.reached[i].sum())}/{len(res.seeds)} runs reached "
            f"packet {res.last} in {res.duration:g} s; {res.timeouts[i].mean():.1f} timeouts per "
            f"run")


@thesis_unit("stpd-fig.4.16-fig4_16_reno_throughput", "stpd-fig.4.17-fig4_17_stpd_throughput",
             "stpd-fig.4.16-fig4_16_reno_end", needs="bursty_loss",
             optional={"other": "bursty_loss_time"}, evidence=_BURSTY)
def _bursty(res, other=None):
    out = {}
    for protocol, cid in (("reno", "stpd-fig.4.16-fig4_16_reno_throughput"),
                          ("stpd", "stpd-fig.4.17-fig4_17_stpd_throughput")):
        if protocol not in res.protocols:
            continue
        i = res.protocols.index(protocol)
        v = res.throughput[i]
        alt = ""
        if other is not None and protocol in other.protocols:
            w = other.throughput[other.protocols.index(protocol)]
            alt = (f"states counted in seconds (GilbertElliott): {w.mean():.3f} +- "
                   f"{w.std(ddof=1):.3f} over {len(w)} seeds")
        out[cid] = Measurement(
            value=float(v.mean()), samples=tuple(v), seeds=res.seeds,
            reason=f"normalised throughput over packets {res.first}-{res.last}; "
                   + _bursty_text(res, i), other_evidence=alt)
    if "reno" in res.protocols:
        i = res.protocols.index("reno")
        started = res.start[i] < res.duration
        span = (res.end[i] - res.start[i])[started]
        alt = ""
        if other is not None and "reno" in other.protocols:
            k = other.protocols.index("reno")
            ok = other.start[k] < other.duration
            alt = (f"states counted in seconds: "
                   f"{np.mean((other.end[k] - other.start[k])[ok]):.0f} s")
        out["stpd-fig.4.16-fig4_16_reno_end"] = Measurement(
            value=float(span.mean()), samples=tuple(span),
            seeds=tuple(np.array(res.seeds)[started].tolist()),
            reason=f"Reno's time from packet {res.first} to packet {res.last} (runs that do "
                   f"not reach it count until the end); " + _bursty_text(res, i),
            other_evidence=alt)
    return out


_TYPED = {"stpd-fig.4.16-fig4_16_reno_start": ("reno", "start"),
          "stpd-fig.4.17-fig4_17_stpd_start": ("stpd", "start"),
          "stpd-fig.4.17-fig4_17_stpd_end": ("stpd", "end"),
          "stpd-fig.4.16-fig4_16_reno_stalls": ("reno", "stalls")}


@thesis_unit(*_TYPED, needs="bursty_loss", evidence=_BURSTY)
def _bursty_times(res):
    out = {}
    for cid, (protocol, attr) in _TYPED.items():
        if protocol not in res.protocols or (attr == "stalls" and res.stalls is None):
            continue
        i = res.protocols.index(protocol)
        v = getattr(res, attr)[i]
        what = {"start": f"time packet {res.first} is delivered in order",
                "end": f"time packet {res.last} is delivered in order",
                "stalls": f"pauses of in-order delivery of 1 s or more between packets "
                          f"{res.first} and {res.last}"}[attr]
        out[cid] = Measurement(value=float(v.mean()), samples=tuple(float(x) for x in v),
                               seeds=res.seeds,
                               reason=f"{protocol}: {what} (runs that never get there count at "
                                      f"{res.duration:g} s); " + _bursty_text(res, i))
    return out


@thesis_unit("stpd-fig.4.14-fig4_14_reno_bursts_to_one", needs="bursty_loss",
             evidence=_BURSTY)
def _fig4_14(res):
    if "reno" not in res.protocols or res.reset_share is None:
        return None
    v = res.reset_share[res.protocols.index("reno")]
    ok = np.isfinite(v)
    if not ok.any():
        return None
    return Measurement(
        value=float(v[ok].mean()), samples=tuple(float(x) for x in v[ok]),
        seeds=tuple(np.array(res.seeds)[ok].tolist()),
        reason=f"share of Reno's link-error loss episodes ending at window 1, per seed: "
               f"{', '.join(f'{x:.2f}' for x in v[ok])}; "
               + _bursty_text(res, res.protocols.index("reno")))


def _difference(bursty, uniform):
    """Difference of two independent means, and the spread over len(bursty) seeds whose
    standard error is that of the difference."""
    bursty, uniform = np.asarray(bursty, float), np.asarray(uniform, float)
    se = math.sqrt(bursty.var(ddof=1) / bursty.size + uniform.var(ddof=1) / uniform.size)
    return float(bursty.mean() - uniform.mean()), se * math.sqrt(bursty.size)


@thesis_unit("stpd-fig.4.15-fig4_15_stpd_bursty_vs_uniform",
             "stpd-s4.4.1.2-reno_bursty_below_uniform", "stpd-s4.4.1.2-stpd_bursty_above_uniform",
             needs=("bursty_loss", "uniform_loss"), evidence=_BURSTY + "; " + _UNIFORM)
def _bursty_vs_uniform(res, uniform):
    out = {}
    if ("stpd" in res.protocols and "stpd" in uniform.traces
            and res.episode_cut is not None):
        v = res.episode_cut[res.protocols.index("stpd")]
        ok = np.isfinite(v)
        ref = _episode_stats(uniform.traces["stpd"])[1]
        if ok.any() and math.isfinite(ref):
            d = v[ok] - ref
            out["stpd-fig.4.15-fig4_15_stpd_bursty_vs_uniform"] = Measurement(
                value=float(d.mean()), samples=tuple(float(x) for x in d),
                seeds=tuple(np.array(res.seeds)[ok].tolist()),
                reason=f"ST-PD's mean relative window reduction per loss episode: bursty "
                       f"{v[ok].mean():.3f} (per seed), uniform 1e-2 {ref:.3f} (seed "
                       f"{uniform.seeds[0]})")
    for protocol, cid in (("reno", "stpd-s4.4.1.2-reno_bursty_below_uniform"),
                          ("stpd", "stpd-s4.4.1.2-stpd_bursty_above_uniform")):
        if protocol not in res.protocols or protocol not in uniform.protocols \
                or not np.any(np.isclose(uniform.losses, res.loss_ratio)):
            continue
        b = res.throughput[res.protocols.index(protocol)]
        u = uniform.at(protocol, res.loss_ratio)
        diff, spread = _difference(b, u)
        out[cid] = Measurement(
            value=diff, spread=spread, seeds=res.seeds,
            reason=f"{protocol}: bursty {b.mean():.3f} +- {b.std(ddof=1):.3f} ({b.size} seeds, "
                   f"packets {res.first}-{res.last}), uniform {res.loss_ratio:g} {u.mean():.3f} "
                   f"+- {u.std(ddof=1):.3f} ({u.size} seeds x {uniform.duration:g} s); the "
                   f"spread is that of the difference of the two means over {b.size} seeds"
                   + ("; ctlcc's bursty mean is not on the claimed side of its uniform mean: "
                      "the verdict rests on the seed part, the runs cannot tell the two apart"
                      if (diff > 0) == (protocol == "reno") and diff != 0
                      and abs(diff) <= 2 * spread / math.sqrt(b.size) else ""))
    return out


# --- §4.4.2 GEO burst (Figs. 4.18-4.22) ---------------------------------------------------

@dataclass(frozen=True)
class GeoBurstResult:
    """Figs. 4.19-4.22: GEO T1 path, packets 2000 and 2001 corrupted.

    Attributes
    ----------
    protocols : tuple of str
    duration : float
        [s]
    bdp : float
        Bottleneck rate x base RTT. [packets]
    delivered : dict
        ``{protocol: int}`` packets delivered in order in *duration*. [packets]
    loss_time : dict
        ``{protocol: float}`` time of the first corrupted packet (NaN when
        the run sent fewer than 2000 packets). [s]
    window_after_loss : dict
        ``{protocol: float}`` smallest window in the 10 s after the loss. [packets]
    recovery_time : dict
        ``{protocol: float}`` time from the loss until the window is back
        at the BDP (inf when it never is). [s]
    runs : dict
        ``{protocol: ThesisRun}``.
    """

    protocols: tuple
    duration: float
    bdp: float
    delivered: dict
    loss_time: dict
    window_after_loss: dict
    recovery_time: dict
    runs: dict = field(repr=False)


@experiment(newreno=True)
@checked()
def geo_burst(protocols=("reno", "vegas", "stpd"), duration=60.0, seed=0, bin_width=1.0):
    """Figs. 4.19-4.22: one burst corrupts packets 2000 and 2001 on a GEO T1.

    Parameters
    ----------
    protocols : sequence of str
    duration : float
        (thesis: 60 s). [s]
    seed : int
    bin_width : float
        Throughput bin. [s]

    Returns
    -------
    GeoBurstResult

    References
    ----------
    Xu (2002), §4.4.2, Figs. 4.18-4.22; scenario
    :func:`ctlcc.sim.scenarios.thesis_fig4_18`.
    """
    duration = check_positive("duration", duration)
    runs, delivered, lost_at, low, back = {}, {}, {}, {}, {}
    bdp = None
    for protocol in protocols:
        scenario = scenarios.preset("thesis_fig4_18", protocol=protocol, **NS2_PACKETS)
        bdp = _bdp(scenario) if bdp is None else bdp
        r = _run(scenario, duration, seed, bin_width, 0.02)
        runs[protocol] = r
        delivered[protocol] = int(r.delivered_total[0])
        t_loss = float(r.loss_times.min()) if r.loss_times.size else math.nan
        lost_at[protocol] = t_loss
        if math.isnan(t_loss):
            low[protocol], back[protocol] = math.nan, math.nan
            continue
        after = (r.time >= t_loss) & (r.time <= t_loss + 10.0)
        low[protocol] = float(r.window[after, 0].min())
        t_low = r.time[after][int(np.argmin(r.window[after, 0]))]
        later = (r.time >= t_low) & (r.window[:, 0] >= bdp)
        back[protocol] = float(r.time[later][0] - t_loss) if later.any() else math.inf
    return GeoBurstResult(tuple(protocols), duration, bdp, delivered, lost_at, low, back, runs)


# ledger: Figs. 4.19-4.22 (data/ledger_stpd.csv)

_GEO = _ev("geo_burst", "thesis_fig4_19_22_geo")


@thesis_unit("stpd-fig.4.19-fig4_19_reno_cut", "stpd-fig.4.19-fig4_19_reno_recovery",
             needs="geo_burst", evidence=_GEO)
def _fig4_19(res):
    if "reno" not in res.protocols:
        return None
    cut = res.window_after_loss["reno"]
    alt = ""
    if "newreno" in res.protocols:
        alt = (f"NewReno (RFC 6582) repairs both losses in one recovery and halves once, to "
               f"{res.window_after_loss['newreno']:.0f}")
    back = res.recovery_time["reno"]
    return {
        "stpd-fig.4.19-fig4_19_reno_cut": Measurement(
            value=float(cut),
            reason=f"ctlcc's Reno falls to {cut:.1f} ({int(res.runs['reno'].timeouts[0])} "
                   f"timeout: RFC 5681 fast recovery leaves the second loss to the timer; ns-2's "
                   f"Reno halved cwnd on each loss, 132 -> 66 -> 33)", other_evidence=alt),
        "stpd-fig.4.19-fig4_19_reno_recovery": Measurement(
            value=float(back),
            reason=f"ctlcc's Reno is back at the BDP {res.bdp:.0f} {back:.1f} s after the loss: "
                   f"it slow-starts from 1 to ssthresh ~66 then climbs; from the thesis's 33 at "
                   f"one packet per RTT the climb alone takes "
                   f"{(res.bdp - 33) * res.bdp * 8000 / 1.5e6:.0f} s"),
    }


@thesis_unit("stpd-fig.4.21-fig4_21_stpd_window", needs="geo_burst", evidence=_GEO)
def _fig4_21(res):
    if "stpd" not in res.protocols:
        return None
    r = res.runs["stpd"]
    med = float(np.median(r.window_after(10.0)))
    return Measurement(value=med,
                       reason=f"median ST-PD window after 10 s (ctlcc's path: BDP + 1 = "
                              f"{res.bdp + 1:.1f}); it grew "
                              f"{_growth_per_rtt(r, res):.2f} packet per base RTT over the "
                              f"first 30 s")


@thesis_unit("stpd-fig.4.22-fig4_22_stpd_minus_reno", "stpd-fig.4.22-fig4_22_vegas_below",
             needs="geo_burst", evidence=_GEO)
def _fig4_22(res):
    out = {}
    d = res.delivered
    if "stpd" in res.protocols and "reno" in res.protocols:
        cap = int(1.5e6 * res.duration / res.runs["stpd"].packet_bits)
        deficit = sum(res.bdp - w for w in np.arange(33.0, res.bdp, 1.0))
        out["stpd-fig.4.22-fig4_22_stpd_minus_reno"] = Measurement(
            value=float(d["stpd"] - d["reno"]),
            reason=(f"ST-PD {d['stpd']}, Reno {d['reno']} packets in {res.duration:g} s; the "
                    f"link carries at most {cap}, so no sender can beat ctlcc's Reno by more "
                    f"than {cap - d['reno']} (the thesis's 1861 is what a Reno window climbing "
                    f"from 33 to the BDP at one packet per RTT misses: {deficit:.0f} packets)"),
            other_evidence=_geo_readings_note())
    if all(p in res.protocols for p in ("vegas", "reno", "stpd")):
        out["stpd-fig.4.22-fig4_22_vegas_below"] = Measurement(
            value=float(d["vegas"] - min(d["reno"], d["stpd"])),
            reason=f"Vegas {d['vegas']}, Reno {d['reno']}, ST-PD {d['stpd']} in-order "
                   f"segments in {res.duration:g} s")
    return out


@thesis_unit("stpd-fig.4.20-fig4_20_vegas_early_exit", "stpd-fig.4.20-fig4_20_vegas_rise_then_half",
             needs="geo_burst", evidence=_GEO)
def _fig4_20(res):
    if "vegas" not in res.protocols:
        return None
    r = res.runs["vegas"]
    win = r.window[:, 0]
    rtt = res.bdp * r.packet_bits / 1.5e6
    out = {}
    k = _slow_start_exit(r.time, win, rtt)
    if k >= 0:
        span = (r.time >= r.time[k]) & (r.time <= r.time[k] + 2 * rtt)
        w_exit = float(win[span].max())
        out["stpd-fig.4.20-fig4_20_vegas_early_exit"] = Measurement(
            value=w_exit / res.bdp,
            reason=f"Vegas's window grows by less than half over the two base RTTs after "
                   f"{r.time[k]:.2f} s (window {win[k]:.1f}), reaching at most {w_exit:.1f} "
                   f"packets (ctlcc's path BDP {res.bdp:.1f}; over the thesis's 94: "
                   f"{w_exit / 94:.2f}); it reaches the BDP "
                   + (f"at {r.time[np.argmax(win >= res.bdp)]:.1f} s" if (win >= res.bdp).any()
                      else "never in the run"))
    t_loss = res.loss_time["vegas"]
    if math.isfinite(t_loss):
        w_loss, w_peak, w_cut = _rise_then_cut(r.time, win, t_loss)
        flat = ("; the window did not rise between the loss and the cut" if w_peak <= w_loss
                else "")
        out["stpd-fig.4.20-fig4_20_vegas_rise_then_half"] = Measurement(
            value=min((w_peak - w_loss - 1.0) / w_loss, 0.1 - abs(w_cut / w_peak - 0.5)),
            reason=f"Vegas's window {w_loss:.1f} at the first corrupted packet "
                   f"({t_loss:.2f} s), at most {w_peak:.1f} before the cut, {w_cut:.1f} "
                   f"after it (ratio {w_cut / w_peak:.2f}"
                   + ("" if w_cut < 0.75 * w_peak else "; no cut below 3/4 of the running "
                      "maximum within 10 s: the smallest window of those 10 s") + "); "
                   + f"{int(r.timeouts[0])} timeouts, {int(r.fast_retransmits[0])} fast "
                   f"retransmits" + flat)
    return out


@thesis_unit("stpd-fig.4.21-fig4_21_stpd_impact_minimal", needs="geo_burst", evidence=_GEO)
def _fig4_21_impact(res):
    if "stpd" not in res.protocols or not math.isfinite(res.loss_time["stpd"]):
        return None
    r, t = res.runs["stpd"], res.loss_time["stpd"]
    k = int(np.searchsorted(r.time, t, side="right")) - 1
    at = float(r.window[k, 0])
    low = res.window_after_loss["stpd"]
    t1 = min(t + 10.0, res.duration)
    return Measurement(
        value=1.0 - low / at,
        reason=f"ST-PD's window {at:.1f} at the first corrupted packet ({t:.2f} s), smallest "
               f"{low:.1f} in the 10 s after; its in-order rate over those 10 s "
               f"{r.rate_between(0, t, t1) / 1.5e6:.3f} of the link")


@thesis_unit("stpd-fig.4.22-fig4_22_reno_growth_reduced", needs="geo_burst", evidence=_GEO)
def _fig4_22_reno(res):
    if "reno" not in res.protocols or not math.isfinite(res.loss_time["reno"]):
        return None
    r, t = res.runs["reno"], res.loss_time["reno"]
    t1 = min(t + 30.0, res.duration)
    before, after = r.rate_between(0, max(t - 5.0, 0.0), t), r.rate_between(0, t, t1)
    return Measurement(
        value=after / before,
        reason=f"Reno's in-order rate {before / 1e6:.3f} Mb/s over the 5 s before the first "
               f"corrupted packet ({t:.2f} s), {after / 1e6:.3f} Mb/s over {t:.1f}-{t1:.1f} s")


def _geo_readings_note():
    from ... import _data

    rows = _data.read_csv("thesis_stpd_readings.csv")
    default = _default_reading(rows)
    best = max(rows, key=lambda r: float(r["geo_extra_segments"]))
    return (f"readings sweep (data/thesis_stpd_readings.csv): default reading "
            f"{float(default['geo_extra_segments']):.0f}, best "
            f"{float(best['geo_extra_segments']):.0f} segments")


# --- private helpers ---------------------------------------------------------------------

def _growth_per_rtt(r, res, t1=30.0):
    """Mean window growth per base round trip over [0, t1]. [packets]"""
    k = int(np.searchsorted(r.time, t1))
    rtt = res.bdp * r.packet_bits / 1.5e6
    return float((r.window[k, 0] - r.window[0, 0]) / (r.time[k] / rtt))


def _window_cuts(r, flow=0, min_cut=1.0):
    """Number and mean size of window decreases larger than *min_cut* between samples."""
    step = np.diff(r.window[:, flow])
    cuts = -step[step < -min_cut]
    return int(cuts.size), float(cuts.mean()) if cuts.size else 0.0


def _loss_episodes(time, window, delivered, losses, horizon=10.0):
    """Window before and after each loss episode of one flow.

    An episode holds the losses of one window of data: a loss opens a new
    episode once more packets than the window held at the previous loss
    have been delivered in order since that loss.  The window *before* is
    the last sample before the episode's first loss; the window *after* is
    the smallest sample from that loss until the next episode's first loss,
    at most *horizon* seconds later.

    Parameters
    ----------
    time : ndarray, shape (k,)
        Sampling instants, increasing. [s]
    window : ndarray, shape (k,)
        Congestion window samples. [packets]
    delivered : ndarray, shape (k,)
        Cumulative packets delivered in order. [packets]
    losses : array_like
        Times of the flow's data losses. [s]
    horizon : float
        [s]

    Returns
    -------
    first, before, after : ndarray, shape (e,)
        Time of each episode's first loss [s] and its windows [packets];
        episodes without a sample before their first loss are left out.
    """
    losses = np.sort(np.asarray(losses, dtype=float))
    starts = []
    last = None
    for x in losses:
        if last is not None:
            since = np.interp(x, time, delivered) - np.interp(last, time, delivered)
            k = int(np.searchsorted(time, last, side="left")) - 1
            held = window[k] if k >= 0 else window[0]
            if since <= held:
                last = x
                continue
        starts.append(x)
        last = x
    first, before, after = [], [], []
    for n, t0 in enumerate(starts):
        k = int(np.searchsorted(time, t0, side="left")) - 1
        t1 = min(starts[n + 1] if n + 1 < len(starts) else math.inf, t0 + horizon)
        span = (time >= t0) & (time < t1)
        if k < 0 or not span.any():
            continue
        first.append(t0)
        before.append(float(window[k]))
        after.append(float(window[span].min()))
    return np.array(first), np.array(before), np.array(after)


def _episode_stats(r, flow=0):
    """(share of link-error episodes ending at window 1, mean relative cut per episode of
    all data losses) of one single-flow run; NaN where there is no episode."""
    win, got = r.window[:, flow], r.delivered[:, flow]
    _, b, a = _loss_episodes(r.time, win, got, r.loss_times)
    reset = float(np.mean(a <= 1.5)) if a.size else math.nan
    _, b, a = _loss_episodes(r.time, win, got, np.concatenate([r.loss_times,
                                                               r.overflow_times]))
    ok = b > 0
    cut = float(np.mean(1.0 - a[ok] / b[ok])) if ok.any() else math.nan
    return reset, cut


def _slow_start_exit(time, window, rtt):
    """Index of the sample at which slow start ends: the first sample with a window of
    at least 2 after which the window grows by less than half over two round trips
    *rtt* [s] (slow start at least doubles over two round trips); -1 if none."""
    later = np.interp(time + 2 * rtt, time, window)
    inside = time + 2 * rtt <= time[-1]
    hit = np.nonzero(inside & (window >= 2) & (later < 1.5 * window))[0]
    return int(hit[0]) if hit.size else -1


def _rise_then_cut(time, window, t_loss, horizon=10.0):
    """(w_loss, w_peak, w_cut): the window at the last sample up to *t_loss*, the largest
    from then until the cut (the first sample below 3/4 of that running maximum) and the
    sample at the cut; without a cut within *horizon* [s], the largest and the smallest
    sample of that span; NaNs without a sample up to *t_loss*."""
    k = int(np.searchsorted(time, t_loss, side="right")) - 1
    if k < 0:
        return math.nan, math.nan, math.nan
    w_loss = peak = low = float(window[k])
    for j in range(k + 1, time.size):
        if time[j] > t_loss + horizon:
            break
        if window[j] < 0.75 * peak:
            return w_loss, peak, float(window[j])
        peak, low = max(peak, float(window[j])), min(low, float(window[j]))
    return w_loss, peak, low
