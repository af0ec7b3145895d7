# ctlcc.experiments.thesis.multi_flow - shared and moving bottlenecks, FTP beside Telnet (§3.5.2-3)
"""The thesis's multi-connection experiments (Xu 2002, §3.5.2-§3.5.3).

* :func:`fixed_bottleneck` - three connections join and leave one
  bottleneck (Figs. 3.14-3.17);
* :func:`moving_bottleneck` - a connection whose bottleneck moves from R1
  to R2 (Figs. 3.18-3.20);
* :func:`telnet_delay` - an FTP transfer beside a Telnet source on a
  quarter-T1 link (:func:`fig3_21`, Figs. 3.21-3.24).

Each experiment is followed by the units that measure its records
(``stpd-fig.3.15-*`` ... ``stpd-fig.3.23-*`` of ``data/ledger_stpd.csv``).

References
----------
Xu (2002), §3.5.2-§3.5.3, Figs. 3.14-3.24.
"""

import math
from dataclasses import dataclass, field

import numpy as np

from ..._validation import check_interval, check_positive
from ...claims.registry import Measurement
from ...errors import ParameterError
from ...references import cite
from ...sim import jain_index, scenarios
from ...sim.scenarios import Flow, Link, Scenario
from ...sim.senders import Poisson
from .. import _args
from .._args import checked
from ._common import (NS2_PACKETS, _base_rtt, _check_times, _ev, _fraction_within, _hops,
                      _run, _seconds, experiment, thesis_unit)

__all__ = ["FixedBottleneckResult", "MovingBottleneckResult", "TelnetResult", "fig3_21",
           "fixed_bottleneck", "moving_bottleneck", "telnet_delay"]


# --- §3.5.2.1 fixed bottleneck (Figs. 3.14-3.17) -----------------------------------------

@dataclass(frozen=True)
class FixedBottleneckResult:
    """Figs. 3.15-3.17: three connections join and leave a fixed bottleneck.

    Attributes
    ----------
    protocols : tuple of str
    duration : float
        [s]
    seed : int
    buffer : int
        R1's buffer. [packets]
    settle : float
        Time left out at the start of each phase for the shares. [s]
    phases : tuple of (float, float, tuple of int)
        (start [s], end [s], active flows) of the sharing phases.
    jain : dict
        ``{protocol: ndarray (phases,)}`` Jain index of the active flows'
        delivery rates over each phase. [1]
    fair_time : dict
        ``{protocol: ndarray (phases,)}`` seconds from the start of each
        phase until every active flow's delivery rate, averaged over the
        last *window* seconds, stays within *band* of the fair share C/n
        to the end of the phase (at least *window*; inf: never). [s]
    band : float
        Relative band around the fair share. [1]
    window : float
        Averaging window of the rates. [s]
    runs : dict
        ``{protocol: ThesisRun}``.
    overflow_rate : dict
        ``{protocol: ndarray (phases,)}`` overflow episodes at R1 per second
        over each phase after *settle* (queue drops less than
        *episode_gap* apart form one episode). [1/s]
    episode_gap : float
        [s]
    sweep_rate : dict
        ``{(protocol, buffer): float}`` all flows' in-order delivery rate
        over [settle, duration] with R1's buffer set to *buffer*, for the
        protocols and buffers of the sweep (the run's own buffer included).
        [bit/s]
    """

    protocols: tuple
    duration: float
    seed: int
    buffer: int
    settle: float
    phases: tuple
    jain: dict
    fair_time: dict
    band: float
    window: float
    runs: dict = field(repr=False)
    overflow_rate: dict = field(default_factory=dict)
    episode_gap: float = 0.25
    sweep_rate: dict = field(default_factory=dict)


@experiment()
@checked(episode_gap=_args.positive, sweep_protocols=_args.protocols,
         sweep_buffers=_args.buffers)
def fixed_bottleneck(protocols=("reno", "vegas", "stpd"), duration=60.0, seed=0, buffer=20,
                     settle=2.0, bin_width=0.5, band=0.2, window=2.0, episode_gap=0.25,
                     sweep_protocols=("vegas",), sweep_buffers=(4,)):
    """Figs. 3.15-3.17: three connections join and leave one bottleneck.

    Connection i is active over [12 i, 12 i + 36] s (thesis Fig. 3.14 and
    :func:`ctlcc.sim.scenarios.thesis_fig3_14`).

    Parameters
    ----------
    protocols : sequence of str
    duration : float
        [s]
    seed : int
    buffer : int
        R1's buffer (thesis: 20). [packets]
    settle : float
        Seconds after each join or leave left out of the phase's shares. [s]
    bin_width : float
        Throughput bin. [s]
    band : float
        "Reaches its fair share": within this fraction of C/n. [1]
    window : float
        Averaging window of the rates for *band*. [s]
    episode_gap : float
        Queue drops less than this apart are one overflow episode; default
        0.25 s, longer than the round trip with R1's 20 packets queued
        (0.164 s). [s]
    sweep_protocols : sequence of str
        Those of them that are among *protocols* are also run with each of
        *sweep_buffers* ("the achievable throughput of TCP Vegas depends on
        the buffer size", §3.5.2.1).
    sweep_buffers : sequence of int
        R1's buffers of the sweep; default the 4-packet "insufficient
        buffer" of §3.5.1.2 (the thesis names none for this sentence). [packets]

    Returns
    -------
    FixedBottleneckResult

    References
    ----------
    Xu (2002), §3.5.2.1, Figs. 3.14-3.17.
    """
    duration = check_positive("duration", duration)
    phases = tuple((t0, t1, active) for t0, t1, active in
                   ((0.0, 12.0, (0,)), (12.0, 24.0, (0, 1)), (24.0, 36.0, (0, 1, 2)),
                    (36.0, 48.0, (1, 2)), (48.0, 60.0, (2,))) if t1 <= duration)
    check_interval("band", band, 0.0, 1.0)
    window = check_positive("window", window)
    runs, jain, fair, overflow, sweep = {}, {}, {}, {}, {}
    for protocol in protocols:
        scenario = scenarios.preset("thesis_fig3_14", protocol=protocol, buffer=buffer,
                                    **NS2_PACKETS)
        r = _run(scenario, duration, seed, bin_width, 0.01)
        runs[protocol] = r
        overflow[protocol] = np.array([
            _episode_count(r.overflow_times, t0 + settle, t1, episode_gap) / (t1 - t0 - settle)
            for t0, t1, _ in phases])
        jain[protocol] = np.array([
            jain_index([r.rate_between(i, t0 + settle, t1) for i in active])
            for t0, t1, active in phases])
        fair[protocol] = np.array([_fair_time(r, t0, t1, active, 1.5e6, band, window)
                                   for t0, t1, active in phases])
    for protocol in (p for p in sweep_protocols if p in runs):
        for b in sorted({int(buffer), *(int(x) for x in sweep_buffers)}):
            if b == buffer:
                r = runs[protocol]
            else:
                r = _run(scenarios.preset("thesis_fig3_14", protocol=protocol, buffer=b,
                                          **NS2_PACKETS), duration, seed, bin_width, 0.01)
            sweep[(protocol, b)] = sum(r.rate_between(i, settle, duration)
                                       for i in range(len(r.flow_names)))
    return FixedBottleneckResult(tuple(protocols), duration, seed, buffer, settle, phases,
                                 jain, fair, float(band), window, runs, overflow,
                                 float(episode_gap), sweep)


# ledger: Figs. 3.16-3.17 (data/ledger_stpd.csv)

_FIXED = _ev("fixed_bottleneck", "thesis_fig3_15_17_fixed_bottleneck")


@thesis_unit("stpd-fig.3.17-fig3_17_stpd_queue", needs="fixed_bottleneck",
             evidence=_FIXED)
def _fig3_17_stpd_queue(res):
    if "stpd" not in res.protocols:
        return None
    r = res.runs["stpd"]
    q = r.queue_after(2.0)
    per = ", ".join(f"{len(a)} flow{'s' if len(a) > 1 else ''} "
                    f"{r.queue[(r.time >= t0 + 2) & (r.time < t1), 0].mean():.2f}"
                    for t0, t1, a in res.phases)
    return Measurement(value=float(q.mean()),
                       reason=f"mean queue after 2 s (95th percentile {np.percentile(q, 95):.0f} "
                              f"packets); by phase: {per}: each flow regulates its own "
                              f"estimate to ref = 1 packet")


@thesis_unit("stpd-fig.3.17-fig3_17_stpd_fair", needs="fixed_bottleneck",
             evidence=_FIXED)
def _fig3_17_stpd_fair(res):
    if "stpd" not in res.protocols or len(res.protocols) < 2:
        return None
    shared = [k for k, (_, _, a) in enumerate(res.phases) if len(a) >= 2]
    worst = {p: float(res.fair_time[p][shared].max()) for p in res.protocols}
    others = min(worst[p] for p in res.protocols if p != "stpd")
    value = worst["stpd"] - others
    if math.isinf(worst["stpd"]) and math.isinf(others):
        value = math.nan
    text = "; ".join(f"{p} " + ", ".join(_seconds(x) for x in res.fair_time[p][shared])
                     for p in res.protocols)
    r = res.runs["stpd"]
    last = max(t1 for _, t1, a in res.phases if len(a) >= 2)
    excess = r.rtt_min_excess(until=last) * 1e3
    return Measurement(
        value=value,
        reason=(f"seconds until every connection stays within {res.band:.0%} of C/n after each "
                f"join or leave (rates over {res.window:g} s, shared phases): {text}; ST-PD's "
                f"worst minus the best other protocol's worst. Up to {last:g} s each ST-PD "
                f"flow's RTT_min exceeds its empty-path RTT by "
                f"{', '.join(f'{m:.1f}' for m in excess)} ms: a flow joining a standing queue "
                f"takes it as empty and claims more"),
        other_evidence="Jain's index of the shared phases: " + "; ".join(
            f"{p} {np.round(res.jain[p][shared], 3).tolist()}" for p in res.protocols))


@thesis_unit("stpd-fig.3.16-fig3_16_vegas_queue", needs="fixed_bottleneck",
             evidence=_FIXED)
def _fig3_16_vegas_queue(res):
    if "vegas" not in res.protocols:
        return None
    r = res.runs["vegas"]
    q = r.queue[(r.time >= 4.0) & (r.time < 12.0), 0]
    return Measurement(value=_fraction_within(q, 0.5, 3.5),
                       reason=f"share of the queue samples over 4-12 s (one connection) within "
                              f"0.5-3.5 packets; mean {q.mean():.2f}, range "
                              f"[{q.min():.0f}, {q.max():.0f}]")


@thesis_unit("stpd-fig3.15-reno-overflows-more-with-n", needs="fixed_bottleneck",
             evidence=_FIXED)
def _fig3_15_reno_overflows(res):
    if "reno" not in res.protocols or not res.overflow_rate:
        return None
    f = {}
    for n in (1, 2, 3):
        k = [i for i, (t0, t1, a) in enumerate(res.phases) if len(a) == n]
        if not k:
            return None
        span = sum(res.phases[i][1] - res.phases[i][0] - res.settle for i in k)
        f[n] = sum(res.overflow_rate["reno"][i] * (res.phases[i][1] - res.phases[i][0]
                                                   - res.settle) for i in k) / span
    steps = (f[2] - f[1], f[3] - f[2])
    per = ", ".join(f"{res.phases[i][0]:g}-{res.phases[i][1]:g} s ({len(a)} "
                    f"flow{'s' if len(a) > 1 else ''}) "
                    f"{res.overflow_rate['reno'][i]:.2f}/s"
                    for i, (_, _, a) in enumerate(res.phases))
    return Measurement(
        value=float(min(steps)),
        reason=f"Reno's overflow episodes at R1 per second (drops less than "
               f"{res.episode_gap:g} s apart form one; {res.settle:g} s after each join or "
               f"leave left out): 1 flow {f[1]:.2f}, 2 flows {f[2]:.2f}, 3 flows {f[3]:.2f}; "
               f"steps {steps[0]:+.2f}, {steps[1]:+.2f} (the smaller is the value); by phase: "
               + per)


@thesis_unit("stpd-fig3.16-vegas-queue-grows-with-n", needs="fixed_bottleneck",
             evidence=_FIXED)
def _fig3_16_vegas_queue_grows(res):
    if "vegas" not in res.protocols or res.duration < 36.0:
        return None
    r = res.runs["vegas"]
    q = [float(r.queue[(r.time >= a) & (r.time < b), 0].mean())
         for a, b in ((4.0, 12.0), (14.0, 24.0), (26.0, 36.0))]
    rises = (q[1] - q[0], q[2] - q[1])
    return Measurement(value=float(min(rises)),
                       reason=f"Vegas's mean queue at R1: {q[0]:.2f} (one connection, 4-12 s), "
                              f"{q[1]:.2f} (two, 14-24 s), {q[2]:.2f} packets (three, 26-36 s); "
                              f"rises {rises[0]:+.2f}, {rises[1]:+.2f} (the smaller is the value)")


@thesis_unit("stpd-fig3.16-vegas-depends-on-buffer", needs="fixed_bottleneck",
             evidence=_FIXED)
def _fig3_16_vegas_buffer(res):
    small = sorted(b for p, b in res.sweep_rate if p == "vegas" and b < res.buffer)
    if ("vegas", res.buffer) not in res.sweep_rate or not small:
        return None
    big, lo = res.sweep_rate[("vegas", res.buffer)], res.sweep_rate[("vegas", small[0])]
    other = ", ".join(f"{p} buffer {b}: {v / 1e6:.3f}" for (p, b), v in sorted(res.sweep_rate.items()))
    return Measurement(value=(big - lo) / 1e6,
                       reason=f"the Vegas connections' total delivery rate over "
                              f"{res.settle:g}-{res.duration:g} s: {big / 1e6:.3f} Mb/s with R1's "
                              f"{res.buffer}-packet buffer, {lo / 1e6:.3f} with {small[0]} "
                              f"packets (sweep: {other} Mb/s)")


@thesis_unit("stpd-fig3.17a-overshoots-subdued", needs="fixed_bottleneck", evidence=_FIXED)
def _fig3_17a_overshoots(res):
    if "stpd" not in res.protocols:
        return None
    r = res.runs["stpd"]
    times, heights = [], []
    for t0, t1, active in res.phases:
        if t0 not in (12.0, 24.0):
            continue
        level = float(r.queue[(r.time >= t1 - 4.0) & (r.time < t1), 0].mean())
        ends, m = _means(r.time, r.queue[:, 0], t0, t1, 0.5)
        times.append(_subsided_after(ends, m, level, 1.0))
        heights.append(float(np.nanmax(m) - level))
    if len(times) < 2:
        return None
    return Measurement(
        value=float(max(times)),
        reason="seconds from the joins at 12 and 24 s until R1's queue (0.5-s means) stays "
               "within one packet of the level of the phase's last 4 s: "
               + ", ".join(_seconds(t) for t in times)
               + "; overshoot heights above that level "
               + ", ".join(f"{h:.1f}" for h in heights) + " packets")


# --- §3.5.2.2 moving bottleneck (Figs. 3.18-3.20) ----------------------------------------

@dataclass(frozen=True)
class MovingBottleneckResult:
    """Figs. 3.19-3.20: a connection whose bottleneck moves from R1 to R2.

    Attributes
    ----------
    protocols : tuple of str
    duration : float
        [s]
    seed : int
    settle : float
        Time left out after each join for the shares. [s]
    s1_share : dict
        ``{protocol: float}`` S1D1's share of the two flows' delivery over
        [15 + settle, 30] s. [1]
    s3_rate, s1_rate_late : dict
        ``{protocol: float}`` delivery rates of S3D3 and S1D1 over
        [45 + settle, 60] s. [bit/s]
    runs : dict
        ``{protocol: ThesisRun}`` (queues: R1->R2, R2->R3).
    """

    protocols: tuple
    duration: float
    seed: int
    settle: float
    s1_share: dict
    s3_rate: dict
    s1_rate_late: dict
    runs: dict = field(repr=False)


@experiment()
@checked()
def moving_bottleneck(protocols=("stpd", "reno"), duration=60.0, seed=0, settle=2.0,
                      bin_width=0.5):
    """Figs. 3.19-3.20: S1D1's bottleneck moves from R1 (S2D2) to R2 (S3D3).

    Parameters
    ----------
    protocols : sequence of str
    duration : float
        [s]
    seed : int
    settle : float
        Seconds after each join left out of the shares. [s]
    bin_width : float
        Throughput bin. [s]

    Returns
    -------
    MovingBottleneckResult

    References
    ----------
    Xu (2002), §3.5.2.2, Figs. 3.18-3.20; scenario
    :func:`ctlcc.sim.scenarios.thesis_fig3_18`.
    """
    duration = check_positive("duration", duration)
    if duration < 60.0:
        raise ParameterError(f"duration must be >= 60 s (S3D3 is active 45-60 s), got {duration!r}")
    runs, share, s3, s1 = {}, {}, {}, {}
    for protocol in protocols:
        scenario = scenarios.preset("thesis_fig3_18", protocol=protocol, **NS2_PACKETS)
        r = _run(scenario, duration, seed, bin_width, 0.01, by_flow=True)
        runs[protocol] = r
        a, b = r.delivered_between(0, 15 + settle, 30), r.delivered_between(1, 15 + settle, 30)
        share[protocol] = a / (a + b) if a + b > 0 else 0.0
        s3[protocol] = r.rate_between(2, 45 + settle, 60)
        s1[protocol] = r.rate_between(0, 45 + settle, 60)
    return MovingBottleneckResult(tuple(protocols), duration, seed, settle, share, s3, s1, runs)


# ledger: Figs. 3.19-3.20 (data/ledger_stpd.csv)

_MOVING = _ev("moving_bottleneck", "thesis_fig3_19_moving_bottleneck")


@thesis_unit("stpd-fig.3.19-fig3_19_stpd_queues", needs="moving_bottleneck",
             evidence=_MOVING)
def _fig3_19_stpd_queues(res):
    if "stpd" not in res.protocols:
        return None
    r = res.runs["stpd"]
    q1 = float(r.queue[(r.time >= 2) & (r.time < 45), 0].mean())
    q2 = float(r.queue[(r.time >= 47) & (r.time < 60), 1].mean())
    value = q1 if abs(q1 - 1) >= abs(q2 - 1) else q2
    return Measurement(value=value, reason=f"mean queue R1 {q1:.2f} (2-45 s), R2 {q2:.2f} "
                                           f"(47-60 s); the one farther from 1 packet")


@thesis_unit("stpd-fig.3.19-fig3_19_stpd_share", needs="moving_bottleneck",
             evidence=_MOVING)
def _fig3_19_stpd_share(res):
    if "stpd" not in res.protocols:
        return None
    s = res.s1_share["stpd"]
    excess = res.runs["stpd"].rtt_min_excess(until=30.0) * 1e3
    return Measurement(value=s, reason=f"S1D1's share of R1R2 over {15 + res.settle:g}-30 s; "
                                       f"S2D2 joined a standing queue: its RTT_min is "
                                       f"{excess[1]:.1f} ms above its empty-path RTT (S1D1's "
                                       f"{excess[0]:.1f} ms)")


@thesis_unit("stpd-fig.3.19-fig3_19_s3_full_speed", needs="moving_bottleneck",
             evidence=_MOVING)
def _fig3_19_s3_full_speed(res):
    if "stpd" not in res.protocols:
        return None
    s3 = res.s3_rate["stpd"] / 1e6
    return Measurement(value=s3, reason=f"S3D3 over {45 + res.settle:g}-60 s; S1D1 "
                                        f"{res.s1_rate_late['stpd'] / 1e6:.3f} Mb/s")


@thesis_unit("stpd-fig3.19b-s1-uses-rest", needs="moving_bottleneck", evidence=_MOVING)
def _fig3_19b_s1_uses_rest(res):
    if "stpd" not in res.protocols:
        return None
    s1, s3 = res.s1_rate_late["stpd"] / 1e6, res.s3_rate["stpd"] / 1e6
    return Measurement(value=s1 + s3,
                       reason=f"over {45 + res.settle:g}-60 s S1D1 {s1:.3f} + S3D3 {s3:.3f} Mb/s "
                              f"on R2R3 (1.5 Mb/s); S1D1 against 1.5 - S3D3's = "
                              f"{1.5 - s3:.3f} Mb/s")


@thesis_unit("stpd-fig.3.20-fig3_20_reno_share", needs="moving_bottleneck",
             evidence=_MOVING)
def _fig3_20_reno_share(res):
    if "reno" not in res.protocols:
        return None
    s = res.s1_share["reno"]
    base = res.runs["reno"].base_rtt * 1e3
    return Measurement(
        value=s,
        reason=(f"Reno S1D1 takes {s:.1%} of R1R2 while S2D2 is active, although its "
                f"empty-path RTT is {base[0]:.1f} ms against S2D2's {base[1]:.1f} ms: S2D2's "
                f"45 Mb/s access does not lock S1D1 out of ctlcc's drop-tail FIFO (a "
                f"deterministic ns-2 run can phase-lock, Floyd & Jacobson 1992)"))


@thesis_unit("stpd-fig3.20-reno-fills-buffer-gets-more", needs="moving_bottleneck",
             evidence=_MOVING)
def _fig3_20_buffer_holder_share(res):
    if "reno" not in res.protocols:
        return None
    r = res.runs["reno"]
    t0, t1 = 15 + res.settle, 30.0
    held = [r.mean_waiting(f, t0, t1, queue=0) for f in (0, 1)]
    h = int(np.argmax(held))
    got = [r.delivered_between(f, t0, t1) for f in (0, 1)]
    share = got[h] / sum(got) if sum(got) > 0 else 0.0
    inside = (r.time >= t0) & (r.time < t1)
    q = r.queue_by_flow[inside, 0, :2]
    more = float(np.mean(q[:, h] > q[:, 1 - h]))
    names = r.flow_names
    return Measurement(
        value=share,
        reason=(f"over {t0:g}-{t1:g} s {names[h]} holds {held[h]:.2f} of R1's waiting packets on "
                f"average against {names[1 - h]}'s {held[1 - h]:.2f} (more in {more:.0%} of the "
                f"10-ms samples) and takes {share:.1%} of R1R2's in-order delivery; by Little's "
                f"law the time-averaged holdings are the accepted rates times the waits, so "
                f"the two rankings agree unless the waits differ"))


# --- §3.5.3 FTP and Telnet (Figs. 3.21-3.24) ----------------------------------------------

@dataclass(frozen=True)
class TelnetResult:
    """Figs. 3.22-3.24: FTP and Telnet share a 384 kb/s link.

    Attributes
    ----------
    protocols : tuple of str
        The FTP connection's protocol in each run.
    duration : float
        [s]
    seed : int
    buffer : int
        R1's buffer. [packets]
    telnet_rate : float
        Mean rate of the Telnet source (Poisson). [packets/s]
    base_rtt : float
        Round trip of a 1000-byte packet and its 40-byte ACK with empty
        queues. [s]
    packet_time : float
        Transmission time of a packet on R1-R2. [s]
    rtt : dict
        ``{protocol: ndarray (m, 2)}`` (time [s], round-trip time [s]) of
        1000-byte packets crossing R1, sampled at the Telnet source's
        Poisson instants: base RTT + the waiting packets ahead of it x
        packet time (the queue trace at that instant; its own transmission
        is in the base RTT; the residual of the packet in service is
        bounded by one packet time and left out).
    runs : dict
        ``{protocol: ThesisRun}``.
    ftp_goodput : dict
        ``{protocol: float}`` the FTP connection's in-order delivery rate
        over [warmup, duration], whole packets. [bit/s]
    ftp_stall : dict
        ``{protocol: float}`` the FTP connection's longest span without an
        in-order delivery after *warmup* (the flat steps of Fig. 3.24's
        acknowledged sequence). [s]
    rtt_queue : dict
        ``{protocol: ndarray (m, 2)}`` (packets waiting at R1 when the packet
        reached it [packets], its round-trip time [s]) of every FTP ACK
        after *warmup*: the engine's own RTT samples beside the queue trace
        (the Telnet source is open-loop and has none).
    """

    protocols: tuple
    duration: float
    seed: int
    buffer: int
    telnet_rate: float
    base_rtt: float
    packet_time: float
    rtt: dict
    runs: dict = field(repr=False)
    ftp_goodput: dict = field(default_factory=dict)
    ftp_stall: dict = field(default_factory=dict)
    rtt_queue: dict = field(default_factory=dict, repr=False)


@checked()
def fig3_21(protocol="reno", buffer=40, telnet_rate=2.0, **options):
    """Thesis Fig. 3.21: FTP and Telnet over a quarter-T1 (384 kb/s) link.

    S1 (FTP) and S2 (Telnet) reach R1 over 10 Mb/s 0.3 ms; R1-R2 is
    384 kb/s 20 ms with a 40-packet buffer at R1; R2 reaches D1 and D2 over
    10 Mb/s 0.2 ms.  The Telnet source is an open-loop Poisson source of
    1000-byte packets (ns-2's tcplib Telnet inter-arrival library is not
    reproduced; at a few packets per second it loads the link by a few per
    cent either way).

    Parameters
    ----------
    protocol : str
        FTP connection's protocol.
    buffer : int
        R1's buffer. [packets]
    telnet_rate : float
        Mean packet rate of the Telnet source. [packets/s]
    **options
        Scenario fields (default :data:`NS2_PACKETS`).

    Returns
    -------
    Scenario

    References
    ----------
    Xu (2002), §3.5.3, Fig. 3.21.
    """
    check_positive("telnet_rate", telnet_rate)
    options = {**NS2_PACKETS, **options}
    links = (Link("S1", "R1", 10e6, 0.3e-3), Link("S2", "R1", 10e6, 0.3e-3),
             Link("R1", "R2", 384e3, 20e-3, buffer), Link("R2", "D1", 10e6, 0.2e-3),
             Link("R2", "D2", 10e6, 0.2e-3))
    flows = (Flow(("S1", "R1", "R2", "D1"), protocol, name="FTP S1D1"),
             Flow(("S2", "R1", "R2", "D2"), name="Telnet S2D2", sender=Poisson(rate=telnet_rate)))
    return Scenario("thesis_fig3_21", links, flows, (("R1", "R2"),),
                    description=f"{cite('stpd', '§3.5.3, Fig. 3.21')}", **options)


@experiment()
@checked()
def telnet_delay(protocols=("stpd", "reno"), duration=50.0, seed=0, buffer=40,
                 telnet_rate=2.0, warmup=5.0):
    """Figs. 3.22-3.24: Telnet's round-trip time beside an FTP transfer.

    Parameters
    ----------
    protocols : sequence of str
        The FTP connection's protocol, one run each.
    duration : float
        [s]
    seed : int
        Seed of the Telnet source's arrivals and of the sampling instants.
    buffer : int
        R1's buffer (thesis: 40). [packets]
    telnet_rate : float
        Mean Telnet packet rate. [packets/s]
    warmup : float
        Telnet samples before this time are dropped. [s]

    Returns
    -------
    TelnetResult

    References
    ----------
    Xu (2002), §3.5.3, Figs. 3.21-3.24.
    """
    duration, warmup = _check_times(duration, warmup)
    runs, rtts, goodput, stall, rq = {}, {}, {}, {}, {}
    base, packet_time = None, None
    for protocol in protocols:
        scenario = fig3_21(protocol, buffer, telnet_rate)
        r = _run(scenario, duration, seed, 0.5, 0.002)
        runs[protocol] = r
        if base is None:
            base = _base_rtt(scenario, scenario.flows[1].path)
            packet_time = scenario.data_bits / 384e3
        rng = np.random.default_rng(seed)
        count = rng.poisson(telnet_rate * (duration - warmup))
        instants = np.sort(rng.uniform(warmup, duration, count))
        k = np.clip(np.searchsorted(r.time, instants, side="right") - 1, 0, r.time.size - 1)
        rtts[protocol] = np.column_stack([instants, base + r.queue[k, 0] * packet_time])
        goodput[protocol] = r.rate_between(0, warmup, duration)
        stall[protocol] = _longest_stall(r.time, r.delivered[:, 0], warmup)
        first = _hops(scenario, scenario.flows[0].path)[0]
        s = r.rtt[(r.rtt[:, 1] == 0) & (r.rtt[:, 0] >= warmup)]
        arrive = s[:, 0] - s[:, 2] + scenario.data_bits / first.rate + first.delay
        k = np.clip(np.searchsorted(r.time, arrive, side="right") - 1, 0, r.time.size - 1)
        rq[protocol] = np.column_stack([r.queue[k, 0], s[:, 2]])
    return TelnetResult(tuple(protocols), duration, seed, buffer, telnet_rate, base,
                        packet_time, rtts, runs, goodput, stall, rq)


# ledger: Figs. 3.22-3.23 (data/ledger_stpd.csv)

_TELNET = _ev("telnet_delay", "thesis_fig3_22_23_telnet_rtt")


@thesis_unit("stpd-fig.3.22-fig3_22_rtt_low", needs="telnet_delay", evidence=_TELNET)
def _fig3_22_rtt_low(res):
    base = res.base_rtt * 1e3
    return Measurement(value=base,
                       reason="ctlcc's empty-queue round trip of S2D2: 2 x 20.5 ms propagation "
                              "+ 1000 bytes on each link + a 40-byte ACK on each link")


@thesis_unit("stpd-fig.3.22-fig3_22_rtt_high", needs="telnet_delay", evidence=_TELNET)
def _fig3_22_rtt_high(res):
    if "stpd" not in res.protocols:
        return None
    rtt = res.rtt["stpd"][:, 1] * 1e3
    return Measurement(value=float(rtt.max()),
                       reason=f"largest Telnet RTT under ST-PD over {len(rtt)} samples (99th "
                              f"percentile {np.percentile(rtt, 99):.1f} ms)")


@thesis_unit("stpd-fig.3.22-fig3_22_stpd_queue", needs="telnet_delay",
             evidence=_TELNET)
def _fig3_22_stpd_queue(res):
    if "stpd" not in res.protocols:
        return None
    q = res.runs["stpd"].queue_after(5.0)
    return Measurement(value=_fraction_within(q, -0.5, 3.5),
                       reason=f"share of R1's queue samples after 5 s within 0-3 packets "
                              f"(+- half a packet); 99th percentile "
                              f"{np.percentile(q, 99):.0f}, max {q.max():.0f}")


@thesis_unit("stpd-fig3.23-rtt-proportional-to-queue", needs="telnet_delay",
             evidence=_TELNET)
def _fig3_23_rtt_proportional(res):
    if "reno" not in res.protocols or not res.rtt_queue:
        return None
    q, rtt = res.rtt_queue["reno"][:, 0], res.rtt_queue["reno"][:, 1]
    slope, icept = np.polyfit(q, rtt, 1)
    corr = float(np.corrcoef(q, rtt)[0, 1])
    return Measurement(
        value=float(slope * 1e3),
        reason=f"least-squares line of {rtt.size} FTP round trips on the packets waiting at R1 "
               f"(Reno, {res.buffer}-packet buffer; queue {q.min():.0f}-{q.max():.0f}): slope "
               f"{slope * 1e3:.2f} ms/packet (one packet time {res.packet_time * 1e3:.2f} ms), "
               f"intercept {icept * 1e3:.1f} ms, correlation {corr:.4f}")


@thesis_unit("stpd-fig3.24-ftp-goodput-not-compromised", needs="telnet_delay",
             evidence=_TELNET)
def _fig3_24_ftp_goodput(res):
    if not all(p in res.protocols for p in ("stpd", "reno")) or not res.ftp_goodput:
        return None
    g, st = res.ftp_goodput, res.ftp_stall
    w = res.runs["stpd"].duration
    return Measurement(
        value=(g["stpd"] - g["reno"]) / 1e3,
        reason=f"FTP in-order delivery rate over 5-{w:g} s: ST-PD {g['stpd'] / 1e3:.1f}, Reno "
               f"{g['reno'] / 1e3:.1f} kb/s (384 kb/s link, Telnet beside it)",
        other_evidence=f"longest stall of in-order delivery after 5 s: ST-PD "
                       f"{st['stpd']:.2f} s, Reno {st['reno']:.2f} s")


@thesis_unit("stpd-fig.3.23-fig3_23_rtt_max", needs="telnet_delay", evidence=_TELNET)
def _fig3_23_rtt_max(res):
    if "reno" not in res.protocols:
        return None
    mx = float(res.rtt["reno"][:, 1].max() * 1e3)
    return Measurement(value=mx, reason="largest Telnet RTT under Reno (40-packet buffer)")


# --- private helpers ---------------------------------------------------------------------

def _fair_time(r, t0, t1, active, capacity, band, window, step=0.1):
    """Seconds after *t0* from which every active flow stays within *band* of C/n. [s]"""
    share = capacity / len(active)
    times = np.arange(t0 + window, t1 + 1e-9, step)
    ok = np.ones(times.size, dtype=bool)
    for i in active:
        d = np.interp(times, r.time, r.delivered[:, i]) - np.interp(times - window, r.time,
                                                                    r.delivered[:, i])
        ok &= np.abs(d * r.packet_bits / window - share) <= band * share
    if not ok[-1]:
        return math.inf
    bad = np.nonzero(~ok)[0]
    first = times[bad[-1] + 1] if bad.size else times[0]
    return float(first - t0)


def _episode_count(times, t0, t1, gap):
    """Drop episodes starting in [t0, t1) (drops less than *gap* apart form one)."""
    t = np.sort(np.asarray(times, dtype=float))
    if t.size == 0:
        return 0
    starts = t[np.concatenate([[True], np.diff(t) >= gap])]
    return int(np.count_nonzero((starts >= t0) & (starts < t1)))


def _means(time, x, t0, t1, width):
    """Means of *x* over consecutive bins of *width* in [t0, t1): (bin ends, means)."""
    edges = np.arange(t0, t1 + 1e-9, width)
    idx = np.digitize(time, edges) - 1
    ok = (time >= t0) & (time < edges[-1])
    sums = np.bincount(idx[ok], weights=np.asarray(x, dtype=float)[ok], minlength=edges.size - 1)
    counts = np.bincount(idx[ok], minlength=edges.size - 1)
    with np.errstate(invalid="ignore"):
        return edges[1:], sums / counts


def _subsided_after(ends, means, level, band):
    """Seconds from the first bin's start until *means* stays within *band* of *level*.

    Measured to the end of the bin after the last one outside (0 if none is
    outside, inf if the last one is).
    """
    out = np.abs(np.asarray(means) - level) > band
    if not out.any():
        return 0.0
    last = int(np.nonzero(out)[0][-1])
    if last == len(ends) - 1:
        return math.inf
    width = ends[1] - ends[0] if len(ends) > 1 else 0.0
    return float(ends[last] - (ends[0] - width))


def _longest_stall(time, delivered, after):
    """Longest span after *after* over which *delivered* does not grow. [s]"""
    sel = np.asarray(time) >= after
    t, d = np.asarray(time)[sel], np.asarray(delivered)[sel]
    if t.size < 2:
        return 0.0
    grow = np.nonzero(np.diff(d) > 0)[0] + 1           # samples at which d has grown
    marks = np.concatenate([[0], grow, [t.size - 1]])
    return float(np.max(np.diff(t[marks])))

