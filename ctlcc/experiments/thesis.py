# ctlcc.experiments.thesis - the ST-PD thesis' ns-2 experiments on ctlcc's packet engine
"""The ST-PD thesis' simulation experiments, re-run and checked.

Xu (2002) evaluates ST-PD TCP with ns-2 in eight experiments (§3.5, §4.4,
§6).  Each function below rebuilds one of them on :func:`ctlcc.sim.run`,
through the public scenario API only (protocol strings, presets, ``Link`` /
``Flow`` / ``Scenario``), so whatever ST-PD sender the engine registers
under ``"stpd"`` is the one measured.  Each returns a frozen result with
the arrays behind the thesis' figures and the parameters that made them;
:func:`claims` hands the results to the claims ledger, which judges each
against the record declared for it in ``data/ledger_stpd.csv`` (the numbers
the thesis prints, as in ``data/thesis_sim_published.csv``).

Common choices (the thesis is silent or ns-2 defaults apply):

* packets are 1000 bytes **on the wire** and ACKs 40 bytes, as in ns-2
  (:data:`NS2_PACKETS`; §3.5.3 states both sizes); throughput counts the
  whole packet ("payload and protocol overhead are taken into account",
  §3.5.1.2 footnote) and is normalised by the bottleneck rate;
* no delayed ACKs, initial window 1, RTO floor 1 s (ctlcc's defaults, those
  of ns-2's one-way TCP agents of the time);
* the receiver window is ctlcc's default (4096 packets) except on the GEO
  path, where the preset caps it at 132 packets (see
  :func:`ctlcc.sim.scenarios.thesis_fig4_18`).

Figures the OCR lost are compared through the numbers the text states; a
qualitative statement is checked through a stated reading (e.g. "reaches
its fair share swiftly" as Jain's index of the per-phase throughputs).

References
----------
Xu (2002), §3.5 (Figs. 3.7-3.24), §4.4 (Figs. 4.7-4.22), §6 (Figs. 6.1-6.6).
"""

import math
from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np

from .._validation import check_interval, check_positive, check_positive_int
from ._published import read_published
from ..errors import ParameterError
from ..references import cite
from ..sim import jain_index, run, scenarios
from ..sim.scenarios import Bernoulli, Flow, GilbertElliott, Link, PacketList, Scenario
from ..sim.senders import Poisson

__all__ = [
    "NS2_PACKETS",
    "PUBLISHED_FILE",
    "ThesisRun",
    "BufferDimensionResult",
    "FixedBottleneckResult",
    "MovingBottleneckResult",
    "TelnetResult",
    "LossSweepResult",
    "BurstyLossResult",
    "GeoBurstResult",
    "MixedRenoResult",
    "published",
    "packet_burst_channel",
    "fig3_21",
    "fig6_1",
    "buffer_dimension",
    "fixed_bottleneck",
    "moving_bottleneck",
    "telnet_delay",
    "uniform_loss",
    "bursty_loss",
    "geo_burst",
    "mixed_reno",
    "run_all",
    "claims",
]

#: Packet sizes of the thesis' ns-2 runs: 1000 bytes on the wire, 40-byte
#: ACKs (Xu 2002, §3.5.3).  Passed to every scenario as Scenario fields.
NS2_PACKETS = {"header_bytes": 0, "ack_bytes": 40}

#: The thesis' published numbers and qualitative claims, with their source.
PUBLISHED_FILE = "thesis_sim_published.csv"

#: Uniform packet-error probabilities of Fig. 4.8 (the OCR keeps the axis
#: labels 1e-4 ... 1e-1; the text quotes 1e-2 and 1e-1). [1]
LOSS_GRID = (1e-3, 2e-3, 5e-3, 1e-2, 2e-2, 5e-2, 1e-1)

#: Durations used by :func:`run_all`: the report's (``quick``) and the
#: long runs of the slow tests. [s]
QUICK = {"loss_duration": 100.0, "loss_seeds": (0, 1, 2), "bursty_duration": 400.0,
         "bursty_seeds": tuple(range(10)), "mixed_seeds": (0, 1, 2, 3, 4)}
FULL = {"loss_duration": 300.0, "loss_seeds": tuple(range(5)), "bursty_duration": 600.0,
        "bursty_seeds": tuple(range(30)), "mixed_seeds": tuple(range(10))}


# --- results ---------------------------------------------------------------------------

@dataclass(frozen=True)
class ThesisRun:
    """What one run keeps for the thesis' figures.

    Attributes
    ----------
    protocol : str
        Protocol of the run ('+'-joined when the flows differ).
    seed : int
    duration : float
        Simulated time. [s]
    flow_names : tuple of str
    time : ndarray, shape (k,)
        Sampling instants. [s]
    window : ndarray, shape (k, flows)
        Congestion windows. [packets]
    queue : ndarray, shape (k, queues)
        Packets waiting in the reported queues. [packets]
    delivered : ndarray, shape (k, flows)
        Cumulative packets delivered in order. [packets]
    bin_time : ndarray, shape (b,)
        Ends of the throughput bins. [s]
    throughput : ndarray, shape (b, flows)
        In-order delivery rate per bin, whole packets counted. [bit/s]
    rtt : ndarray, shape (m, 3)
        (time [s], flow, RTT sample [s]) of every ACK.
    goodput : ndarray, shape (flows,)
        In-order packets delivered per active second, whole packets. [bit/s]
    delivered_total : ndarray, shape (flows,)
        Packets delivered in order by the end. [packets]
    timeouts, fast_retransmits : ndarray, shape (flows,)
        Recovery episodes. [1]
    queue_drops, link_losses : ndarray, shape (flows,)
        Data packets lost to full queues / to link errors. [packets]
    loss_times : ndarray
        Times of the link-error losses, all flows. [s]
    overflow_times : ndarray
        Times of the data packets dropped by full queues, all flows. [s]
    packet_bits : float
        Size of a data packet on the wire. [bit]
    base_rtt : ndarray, shape (flows,)
        Round trip of each flow's packet and ACK through empty queues. [s]
    """

    protocol: str
    seed: int
    duration: float
    flow_names: tuple
    time: np.ndarray
    window: np.ndarray
    queue: np.ndarray
    delivered: np.ndarray
    bin_time: np.ndarray
    throughput: np.ndarray
    rtt: np.ndarray
    goodput: np.ndarray
    delivered_total: np.ndarray
    timeouts: np.ndarray
    fast_retransmits: np.ndarray
    queue_drops: np.ndarray
    link_losses: np.ndarray
    loss_times: np.ndarray
    overflow_times: np.ndarray
    packet_bits: float
    base_rtt: np.ndarray = None

    def delivered_between(self, flow, t0, t1):
        """Packets of *flow* delivered in order during [t0, t1]. [packets]"""
        d = self.delivered[:, flow]
        return float(np.interp(t1, self.time, d) - np.interp(t0, self.time, d))

    def rate_between(self, flow, t0, t1):
        """In-order delivery rate of *flow* over [t0, t1]. [bit/s]"""
        if not t1 > t0:
            raise ParameterError(f"t1 must be > t0, got t0={t0!r}, t1={t1!r}")
        return self.delivered_between(flow, t0, t1) * self.packet_bits / (t1 - t0)

    def rtt_min_excess(self, until=math.inf):
        """Each flow's smallest RTT sample minus its empty-network RTT. [s]

        What a flow that takes its smallest RTT for the empty-queue RTT
        (eq. 3.3's RTT_min) mistakes for an empty queue; NaN for flows
        without RTT samples before *until* [s].
        """
        out = np.full(len(self.flow_names), np.nan)
        for i in range(out.size):
            samples = self.rtt[(self.rtt[:, 1] == i) & (self.rtt[:, 0] <= until), 2]
            if samples.size and self.base_rtt is not None:
                out[i] = max(samples.min() - self.base_rtt[i], 0.0)  # float rounding below 0
        return out

    def queue_after(self, t0, queue=0):
        """Queue samples at or after *t0*. [packets]"""
        return self.queue[self.time >= t0, queue]

    def window_after(self, t0, flow=0):
        """Window samples at or after *t0*. [packets]"""
        return self.window[self.time >= t0, flow]


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


@dataclass(frozen=True)
class MixedRenoResult:
    """Figs. 6.2-6.6: ST-PD and Reno sharing a bottleneck queue.

    Attributes
    ----------
    duration : float
        [s]
    buffer : int
        R1's buffer (not printed in the thesis). [packets]
    seeds : tuple of int
        Seeds of the lossy runs.
    loss : float
        Packet-error probability of the lossy runs. [1]
    pair : ThesisRun
        Reno S1D1 from 0 s, ST-PD S2D2 from 5 s, no loss (Fig. 6.2(a)).
    trio : ThesisRun
        As *pair* plus Reno S3D3 from 10 s (Fig. 6.2(b)).
    stpd_share : float
        ST-PD's share of the pair's delivery over [5 + settle, duration]. [1]
    stpd_rate_before, stpd_rate_after : float
        ST-PD's delivery rate over [5 + settle, 10] and [10 + settle,
        duration] in *trio*. [bit/s]
    shared_gain : ndarray, shape (S,)
        S2D2's in-order delivery with ST-PD over that with Reno, loss on
        R1R2 (Fig. 6.4). [1]
    own_gain : ndarray, shape (S,)
        The same with the loss on S2R1 (Fig. 6.6). [1]
    lossy : dict
        ``{(placement, protocol): ThesisRun}`` of the first seed.
    settle : float
        [s]
    """

    duration: float
    buffer: int
    seeds: tuple
    loss: float
    pair: ThesisRun = field(repr=False)
    trio: ThesisRun = field(repr=False)
    stpd_share: float = 0.0
    stpd_rate_before: float = 0.0
    stpd_rate_after: float = 0.0
    shared_gain: np.ndarray = None
    own_gain: np.ndarray = None
    lossy: dict = field(default=None, repr=False)
    settle: float = 2.0


# --- published numbers ---------------------------------------------------------------------

def published(claim_id=None):
    """The thesis' published numbers (``data/thesis_sim_published.csv``).

    Parameters
    ----------
    claim_id : str, optional
        One row's ``claim_id``; default: every row.

    Returns
    -------
    dict
        One row (column -> value; numbers as float, blanks as None), or
        ``{claim_id: row}``.

    Examples
    --------
    >>> published("fig4_8_stpd_1e-2")["value"]
    0.94
    """
    return read_published(PUBLISHED_FILE, claim_id)


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
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    mean_good = mean_burst * (1 - loss_ratio) / loss_ratio
    lost, position = [], 0
    while position < packets:
        position += int(rng.geometric(1.0 / mean_good))
        burst = int(rng.geometric(1.0 / mean_burst))
        lost.extend(range(position + 1, min(position + burst, packets) + 1))
        position += burst
    return PacketList(tuple(lost))


# --- scenarios the presets do not hold ---------------------------------------------------

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


def fig6_1(protocols=("reno", "stpd"), starts=(0.0, 5.0), buffer=20, loss=None,
           loss_link="R1R2", **options):
    """Thesis Fig. 6.1: Reno and ST-PD connections sharing R1-R2.

    Sources reach R1 over 10 Mb/s 0.2 ms, R1-R2 is 1.5 Mb/s 25 ms, R2
    reaches the destinations over 10 Mb/s 0.3 ms.  The sentence giving R1's
    buffer is cut in the OCR ("... packets of the size of 1000 bytes"); 20
    packets (the value of the thesis' other 1.5 Mb/s bottlenecks, §3.5.2)
    is our choice.

    Parameters
    ----------
    protocols : sequence of str
        Protocol of S1D1, S2D2 (and S3D3 ...).
    starts : sequence of float
        Start of each connection. [s]
    buffer : int
        R1's buffer. [packets]
    loss : float or None
        Uniform packet-error probability. [1]
    loss_link : {"R1R2", "S2R1"}
        Where the loss is (Fig. 6.3: R1R2; Fig. 6.5: S2R1).
    **options
        Scenario fields (default :data:`NS2_PACKETS`).

    Returns
    -------
    Scenario

    References
    ----------
    Xu (2002), §6, Fig. 6.1.
    """
    if loss_link not in ("R1R2", "S2R1"):
        raise ParameterError(f"loss_link must be 'R1R2' or 'S2R1', got {loss_link!r}")
    protocols, starts = tuple(protocols), tuple(starts)
    if len(protocols) != len(starts) or len(protocols) < 2:
        raise ParameterError(f"protocols and starts must have the same length >= 2, got "
                             f"{len(protocols)} and {len(starts)}")
    options = {**NS2_PACKETS, **options}
    scenario = scenarios.dumbbell(
        len(protocols), 10e6, 0.2e-3, 1.5e6, 25e-3, buffer,
        loss if loss_link == "R1R2" else None, list(protocols), start=list(starts),
        egress_delay=0.3e-3, name="thesis_fig6_1",
        description=cite("stpd", "§6, Fig. 6.1"), **options)
    if loss is not None and loss_link == "S2R1":
        links = tuple(replace(l, loss=Bernoulli(loss)) if (l.a, l.b) == ("S1", "A") else l
                      for l in scenario.links)
        scenario = replace(scenario, links=links)
    names = tuple(replace(f, name=f"S{i + 1}D{i + 1}") for i, f in enumerate(scenario.flows))
    return replace(scenario, flows=names)


# --- experiments ---------------------------------------------------------------------------

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


def fixed_bottleneck(protocols=("reno", "vegas", "stpd"), duration=60.0, seed=0, buffer=20,
                     settle=2.0, bin_width=0.5, band=0.2, window=2.0):
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
    runs, jain, fair = {}, {}, {}
    for protocol in protocols:
        scenario = scenarios.preset("thesis_fig3_14", protocol=protocol, buffer=buffer,
                                    **NS2_PACKETS)
        r = _run(scenario, duration, seed, bin_width, 0.01)
        runs[protocol] = r
        jain[protocol] = np.array([
            jain_index([r.rate_between(i, t0 + settle, t1) for i in active])
            for t0, t1, active in phases])
        fair[protocol] = np.array([_fair_time(r, t0, t1, active, 1.5e6, band, window)
                                   for t0, t1, active in phases])
    return FixedBottleneckResult(tuple(protocols), duration, seed, buffer, settle, phases,
                                 jain, fair, float(band), window, runs)


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
        r = _run(scenario, duration, seed, bin_width, 0.01)
        runs[protocol] = r
        a, b = r.delivered_between(0, 15 + settle, 30), r.delivered_between(1, 15 + settle, 30)
        share[protocol] = a / (a + b) if a + b > 0 else 0.0
        s3[protocol] = r.rate_between(2, 45 + settle, 60)
        s1[protocol] = r.rate_between(0, 45 + settle, 60)
    return MovingBottleneckResult(tuple(protocols), duration, seed, settle, share, s3, s1, runs)


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
    runs, rtts = {}, {}
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
    return TelnetResult(tuple(protocols), duration, seed, buffer, telnet_rate, base,
                        packet_time, rtts, runs)


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
    from .thesis_typed_claims import stalls as _stalls

    shape = (len(protocols), len(seeds))
    start, end, thr, tos, stall = (np.zeros(shape) for _ in range(5))
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
            if k == 0:
                traces[protocol] = r
    return BurstyLossResult(tuple(protocols), seeds, duration, float(mean_burst),
                            float(loss_ratio), channel, first, last, start, end, reached, thr,
                            tos, traces, stall)


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


def mixed_reno(duration=20.0, buffer=20, seeds=(0, 1, 2, 3, 4), loss=1e-2, settle=2.0,
               bin_width=0.5):
    """Figs. 6.2-6.6: ST-PD sharing a bottleneck queue with Reno.

    Runs (thesis Fig. 6.1): Reno S1D1 from 0 s and ST-PD S2D2 from 5 s
    (Fig. 6.2(a)); plus Reno S3D3 from 10 s (Fig. 6.2(b)); then, with a
    uniform loss on R1R2 (Fig. 6.3) or on S2R1 (Fig. 6.5), S2D2 as ST-PD
    and as Reno, and the ratio of S2D2's in-order deliveries (Figs. 6.4,
    6.6).

    Parameters
    ----------
    duration : float
        (thesis: "during the 20 seconds"). [s]
    buffer : int
        R1's buffer (not printed; see :func:`fig6_1`). [packets]
    seeds : sequence of int
        Seeds of the lossy runs.
    loss : float
        Packet-error probability of the lossy runs (thesis: 1e-2). [1]
    settle : float
        Seconds after each join left out of the shares. [s]
    bin_width : float
        Throughput bin. [s]

    Returns
    -------
    MixedRenoResult

    References
    ----------
    Xu (2002), §6, Figs. 6.1-6.6.
    """
    duration = check_positive("duration", duration)
    if duration <= 10.0 + settle:
        raise ParameterError(f"duration must be > {10.0 + settle} s, got {duration!r}")
    seeds = _check_seeds(seeds)
    pair = _run(fig6_1(("reno", "stpd"), (0.0, 5.0), buffer), duration, 0, bin_width, 0.01)
    trio = _run(fig6_1(("reno", "stpd", "reno"), (0.0, 5.0, 10.0), buffer), duration, 0,
                bin_width, 0.01)
    a, b = pair.delivered_between(0, 5 + settle, duration), pair.delivered_between(
        1, 5 + settle, duration)
    share = b / (a + b) if a + b > 0 else 0.0
    before = trio.rate_between(1, 5 + settle, 10.0)
    after = trio.rate_between(1, 10.0 + settle, duration)
    gains = {}
    lossy = {}
    for placement in ("R1R2", "S2R1"):
        ratio = []
        for k, seed in enumerate(seeds):
            got = {}
            for protocol in ("stpd", "reno"):
                scenario = fig6_1(("reno", protocol), (0.0, 5.0), buffer, loss, placement)
                r = _run(scenario, duration, seed, bin_width, 0.01, light=k > 0)
                got[protocol] = r.delivered_total[1]
                if k == 0:
                    lossy[(placement, protocol)] = r
            ratio.append(got["stpd"] / got["reno"] if got["reno"] > 0 else math.inf)
        gains[placement] = np.array(ratio)
    return MixedRenoResult(duration, buffer, seeds, float(loss), pair, trio, share, before,
                           after, gains["R1R2"], gains["S2R1"], lossy, settle)


@lru_cache(maxsize=2)
def run_all(quick=True, newreno=True):
    """Every experiment with the report's (quick) or the long settings.

    Memoised: the report's ``thesis_sim`` section and the claims ledger
    (:func:`ctlcc.claims.stpd_sim.thesis_results`) share one run per process.

    Parameters
    ----------
    quick : bool
        :data:`QUICK` durations and seeds (the report's) or :data:`FULL`.
    newreno : bool
        Add NewReno (RFC 6582, not in the thesis) to the loss sweep and the
        GEO run: the recovery ctlcc's and ns-3's TCPs use, for comparison.

    Returns
    -------
    dict
        Experiment name -> result.
    """
    s = QUICK if quick else FULL
    extra = ("newreno",) if newreno else ()
    return {
        "buffer_dimension": buffer_dimension(),
        "fixed_bottleneck": fixed_bottleneck(),
        "moving_bottleneck": moving_bottleneck(),
        "telnet_delay": telnet_delay(),
        "uniform_loss": uniform_loss(("tahoe", "reno", "vegas", "stpd") + extra,
                                     seeds=s["loss_seeds"], duration=s["loss_duration"]),
        "bursty_loss": bursty_loss(seeds=s["bursty_seeds"], duration=s["bursty_duration"]),
        "geo_burst": geo_burst(("reno", "vegas", "stpd") + extra),
        "mixed_reno": mixed_reno(seeds=s["mixed_seeds"]),
    }


# --- claims --------------------------------------------------------------------------------

def claims(results=None, quick=True):
    """The thesis' simulation claims, judged on ctlcc's engine.

    The records (the thesis's words and numbers, tolerances and their basis)
    are declared in ``data/ledger_stpd.csv``; the measurements are the units
    of :mod:`ctlcc.claims.stpd_sim`.

    Parameters
    ----------
    results : dict, optional
        Output of :func:`run_all` (or any subset of its keys); default:
        ``run_all(quick)``.
    quick : bool
        Settings of the default run.

    Returns
    -------
    list of Claim
        One per record whose experiment is present in *results*.
    """
    from ..claims import paper_claims

    results = run_all(quick) if results is None else results
    known = {"buffer_dimension", "fixed_bottleneck", "moving_bottleneck", "telnet_delay",
             "uniform_loss", "bursty_loss", "bursty_loss_time", "geo_burst", "mixed_reno"}
    unknown = set(results) - known
    if unknown:
        raise ParameterError(f"results has unknown experiments {sorted(unknown)}; "
                             f"expected keys of {sorted(known)}")
    return paper_claims("stpd", results, section="thesis_sim")


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


def _run(scenario, duration, seed, bin_width, sample_interval, light=False):
    """Run *scenario* and keep what the thesis' figures need."""
    result = run(scenario, duration, seed=seed, trace=not light,
                 sample_interval=sample_interval)
    s = result.traces if result.traces is not None else result.samples
    bits = float(scenario.data_bits)
    edges = np.arange(0.0, duration + 1e-9, bin_width)
    if edges[-1] < duration - 1e-9:
        edges = np.append(edges, duration)
    cum = np.column_stack([np.interp(edges, s.time, s.delivered[:, f])
                           for f in range(s.delivered.shape[1])])
    throughput = np.diff(cum, axis=0) * bits / np.diff(edges)[:, None]
    drops = s.drops if s.drops.size else np.zeros((0, 4))
    flows = result.flows
    protocols = sorted({f.protocol for f in flows if f.protocol not in ("poisson", "cbr")})
    return ThesisRun(
        protocol="+".join(protocols), seed=seed, duration=duration,
        flow_names=tuple(f.name for f in flows), time=s.time, window=s.window,
        queue=s.queue, delivered=s.delivered, bin_time=edges[1:], throughput=throughput,
        rtt=s.rtt, goodput=np.array([f.delivered_unique * bits / f.active_time
                                     if f.active_time > 0 else 0.0 for f in flows]),
        delivered_total=np.array([f.delivered_unique for f in flows]),
        timeouts=np.array([f.timeouts for f in flows]),
        fast_retransmits=np.array([f.fast_retransmits for f in flows]),
        queue_drops=np.array([f.dropped_queue for f in flows]),
        link_losses=np.array([f.dropped_loss for f in flows]),
        loss_times=drops[drops[:, 3] == 2, 0] if drops.size else np.zeros(0),
        overflow_times=drops[drops[:, 3] == 0, 0] if drops.size else np.zeros(0),
        packet_bits=bits,
        base_rtt=np.array([_base_rtt(scenario, f.path) for f in scenario.flows]))


def _window_at_overflow(r, after, flow=0, gap=1.0):
    """Median window at the first queue drop of each overflow episode. [packets]"""
    t = r.overflow_times[r.overflow_times >= after]
    if t.size == 0:
        return math.nan
    firsts = t[np.concatenate([[True], np.diff(t) > gap])]
    k = np.clip(np.searchsorted(r.time, firsts, side="right") - 1, 0, r.time.size - 1)
    return float(np.median(r.window[k, flow]))


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


def _crossing(time, cumulative, level):
    """First sample time at which *cumulative* reaches *level* (inf if never). [s]"""
    hit = np.nonzero(cumulative >= level)[0]
    return float(time[hit[0]]) if hit.size else math.inf


def _hops(scenario, path):
    channels = scenario.channels()
    return [channels[h][0] for h in zip(path[:-1], path[1:])]


def _base_rtt(scenario, path):
    """Empty-network round trip of a data packet and its ACK along *path*. [s]"""
    hops = _hops(scenario, path)
    return sum(2 * l.delay + scenario.data_bits / l.rate + 8 * scenario.ack_bytes / l.rate
               for l in hops)


def _bdp(scenario, flow=0):
    """Bottleneck rate x base RTT of *flow*. [packets]"""
    path = scenario.flows[flow].path
    rate = min(l.rate for l in _hops(scenario, path)) / scenario.data_bits
    return rate * _base_rtt(scenario, path)


def _check_times(duration, warmup):
    duration = check_positive("duration", duration)
    if not (0 <= warmup < duration):
        raise ParameterError(f"warmup must be in [0, duration={duration}), got {warmup!r}")
    return duration, float(warmup)


def _check_seeds(seeds):
    seeds = tuple(seeds)
    if not seeds:
        raise ParameterError("seeds must hold at least one seed")
    return seeds


def _seconds(x):
    return f"{x:.1f}" if math.isfinite(x) else "never"


def _fmt(x):
    return "" if x is None else f"{x:g}"
