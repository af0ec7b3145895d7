# ctlcc.sim.ns3 - run a ctlcc scenario in ns-3, the external peer simulator
"""Run a :class:`~ctlcc.sim.scenarios.Scenario` in ns-3 (optional extra).

ns-3 (the ``ns3`` package on PyPI, cppyy bindings, 3.44) is the independent
peer against which :mod:`ctlcc.sim`'s packet engine is validated.  This
module maps a scenario onto an ns-3 configuration, runs it (by default in a
separate worker process, so ns-3's global state never leaks between runs
or into the caller) and returns a frozen result with the same field names
as :func:`ctlcc.sim.run`'s: ``.flows`` (``goodput_bps``, ``sent``,
``delivered``, ``dropped``) and ``.queues`` (``mean``, ``max``, ``drops``).

Importing this module does not import ns-3; only :func:`run_ns3` needs it
and raises :class:`Ns3UnavailableError` (``pip install ctlcc[ns3]``) when
it is missing.  The pure-Python parts (the mapping :func:`ns3_job`, the
header accounting :func:`ns3_header_bytes` / :func:`wire_rate_scale`, the
reader of the committed comparison data :func:`read_ns3_csv`) work without
ns-3.

How ns-3 is configured (every choice is a field of :class:`Ns3Options` or
comes from the scenario; the defaults below are what the comparisons use):

* one ``PointToPointNetDevice`` pair per :class:`~ctlcc.sim.scenarios.Link`,
  ``DataRate = rate * wire_rate_scale`` and ``Delay = delay``;
* a plain drop-tail FIFO in each direction: ``DropTailQueue<Packet>`` with
  ``MaxSize = buffer`` packets, and the traffic-control layer's default
  FqCoDel removed with ``TrafficControlHelper.Uninstall`` after address
  assignment.  The device queue does not hold the packet being serialised,
  as in the scenario's convention.  When the queue is full the device's
  transmit queue is stopped and the traffic-control layer drops the
  packet (``TcDrop`` trace) - that is where congestion drops are counted;
* a link whose ``queue`` is a :class:`~ctlcc.laws.aqm.RedParams` gets ns-3's
  ``RedQueueDisc`` on its ``a -> b`` device instead (every attribute set
  from the RedParams, see :func:`_red_job`), and that device's own
  ``DropTailQueue`` shrinks to one packet so that the queue builds in the
  queue disc; the reported queue is then sampled every
  ``queue_sample_interval`` (queue disc + device queue) and carries RED's
  drop and mark counts (:class:`Ns3QueueStats`).  ns-3 has no PI queue
  disc: a ``PiParams`` link is refused;
* Bernoulli loss of the scenario's ``a -> b`` direction as a
  ``RateErrorModel`` (``ERROR_UNIT_PACKET``) on ``b``'s device (a packet is
  lost after crossing the link, as in the scenario's convention); a
  Gilbert-Elliott channel as a small ``ErrorModel`` of the C++ glue with
  the engine's rules (stationary initial state, exponential sojourns, loss
  by the state at the packet's arrival);
* TCP: ``SegmentSize = payload_bytes``, delayed ACKs off
  (``DelAckCount = 1``), ``InitialCwnd = tcp.initial_window``,
  ``MinRto = tcp.min_rto``, ``RttEstimator::InitialEstimation =
  tcp.initial_rto``, ``ReTxThreshold = tcp.dupack_threshold``, send and
  receive buffers of ``tcp.max_window`` segments (the receiver window),
  ``DataRetries = 100`` (ns-3 aborts a connection after ``DataRetries``
  consecutive timeouts; 6 by default, which many-flow dumbbells reach);
  the congestion control is ``TcpNewReno`` for ``"reno"``, ``"newreno"``
  and ``"sack"``, ``TcpVegas`` (alpha, beta, gamma from ``tcp``) for
  ``"vegas"`` and ``TcpCubic`` (HyStart off: the engine's default) for
  ``"cubic"``, set per source node (``TcpL4Protocol::SocketType``), so
  flows of different protocols need different sources; ``ns3_job(...,
  protocols=[...])`` names ns-3 protocols the engine lacks (CUBIC).  ns-3's loss recovery is always NewReno-style with SACK and
  Proportional Rate Reduction by default (:class:`Ns3Options` turns them
  off); it has no Tahoe, and no plain Reno recovery;
* one ``BulkSendApplication`` per flow (source node of its path) and one
  ``PacketSink`` per flow (destination), flow k on port 5000 + k.

Header accounting: with timestamps a 1000-byte segment is
20 (IPv4) + 20 (TCP) + 12 (timestamp option) + 2 (PPP) = 54 bytes longer on
the wire.  The scenario states its own ``header_bytes``; ns-3's link rates
are scaled by ``(payload + ns-3 headers) / (payload + scenario headers)`` so
that a segment takes the same time on every link in both simulators (scale
1 for the default scenarios, whose ``header_bytes`` is already 54; 1.054
for ns-2-style ``header_bytes=0``).  Goodput is payload bits either way.

Differences that remain between the two simulators (measured by
``benchmarks/ns3_compare.py``; the numbers are in ``data/ns3_*.csv`` and
the report's ``ns3`` section):

* loss recovery: ns-3 repairs with SACK (RFC 6675) and sizes the window
  with PRR (RFC 6937); ctlcc's Reno/NewReno have neither, its ``"sack"``
  sender has SACK (RFC 6675) but not PRR.  PRR changes goodput by a few
  percent (the ``"classic"`` variant); SACK matters when a window holds
  several losses: at 10 % random loss ns-3's default delivers about 1.5x
  what ns-3 without SACK delivers, ctlcc's NewReno matches the latter and
  ctlcc's ``"sack"`` the former (:func:`ctlcc.crosscheck.sack_vs_ns3`).
  Drop and retransmission counts depend on the recovery too (ns-3 itself
  drops 2.5x more without SACK on the 10-flow dumbbell), so only goodput
  carries a target;
* ns-3's ``CongestionWindow`` never includes fast-recovery inflation,
  ctlcc's window does (spikes of ssthresh + 3 + duplicate ACKs);
* ns-3 without SACK but with limited transmit (``"nosack_lt"``)
  misbehaves: after timeouts it loses far more packets, and under random
  loss it beats ns-3's own SACK recovery - it is recorded, not used as a
  reference;
* ns-3 measures RTT on every ACK through timestamps (no Karn's rule
  needed) and adds the 1 ms clock granularity to the RTO; ctlcc applies
  Karn's rule.  With a 1 s minimum RTO on both sides this rarely matters;
* ns-3's ACKs grow by the SACK blocks they carry (ctlcc: fixed
  ``ack_bytes``); the reverse path is uncongested in every scenario here;
* ns-3 counts a timeout episode once (entry into ``CA_LOSS``), ctlcc
  counts every expiry (``timeouts``);
* flows that stop before the end: ns-3's ``BulkSendApplication`` closes
  its socket, which still sends what is already in the send buffer;
  ctlcc stops at once.  None of the comparison scenarios stops a flow.
"""

import csv
import dataclasses
import datetime
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .. import _data
from .._validation import (check_bool, check_choice, check_instance, check_nonnegative,
                           check_nonnegative_int, check_positive, check_positive_int,
                           check_sequence)
from ..errors import CtlccError, ParameterError

__all__ = [
    "NS3_PROTOCOLS",
    "NS3_RECOVERY",
    "INSTALL_HINT",
    "Ns3UnavailableError",
    "Ns3Options",
    "Ns3FlowStats",
    "Ns3QueueStats",
    "Ns3Traces",
    "Ns3Result",
    "Ns3Table",
    "ns3_available",
    "ns3_header_bytes",
    "wire_rate_scale",
    "ns3_job",
    "run_ns3",
    "run_ns3_many",
    "read_ns3_csv",
    "write_ns3_csv",
    "fig3_7_overlay",
    "provenance",
    "ComparisonCase",
    "COMPARISON_FAMILIES",
    "NS3_VARIANTS",
    "LOSS_LEVELS",
    "comparison_cases",
    "comparison_variants",
]

#: ctlcc protocol -> ns-3 congestion-control TypeId.  ns-3.44 has no Tahoe
#: and no plain-Reno recovery: its loss recovery is NewReno-style (RFC 6582
#: partial ACKs) with SACK, so "reno" and "newreno" both map to TcpNewReno.
NS3_PROTOCOLS = {"reno": "ns3::TcpNewReno", "newreno": "ns3::TcpNewReno",
                 "sack": "ns3::TcpNewReno", "vegas": "ns3::TcpVegas", "cubic": "ns3::TcpCubic"}

#: Recovery algorithm name -> ns-3 TypeId (RFC 6937 PRR is ns-3's default).
NS3_RECOVERY = {"prr": "ns3::TcpPrrRecovery", "classic": "ns3::TcpClassicRecovery"}

#: What to tell a user who asked for ns-3 without it.
INSTALL_HINT = "pip install ctlcc[ns3]"

#: Bytes ns-3.44 adds to each TCP segment on a point-to-point link:
#: IPv4 20, TCP 20, PPP 2, and the timestamp option 10 padded to 12.
_IPV4, _TCP, _PPP, _TIMESTAMP = 20, 20, 2, 12

_SINK_PORT0 = 5000


class Ns3UnavailableError(CtlccError, ImportError):
    """ns-3's Python bindings are not installed (``pip install ctlcc[ns3]``)."""


@dataclass(frozen=True)
class Ns3Options:
    """ns-3 settings that the scenario does not determine.

    Attributes
    ----------
    sack : bool
        Selective acknowledgements (ns-3 default True).
    recovery : {"prr", "classic"}
        Fast-recovery window algorithm: RFC 6937 Proportional Rate
        Reduction (ns-3 default) or classic RFC 5681/6582 recovery.
    timestamps : bool
        RFC 7323 timestamps (ns-3 default True): 12 bytes per segment, an
        RTT sample from every ACK.
    limited_transmit : bool or None
        RFC 3042 limited transmit; None (default) follows the scenario's
        ``tcp.limited_transmit`` (ctlcc's default: off), True is ns-3's
        default.
    data_retries : int
        Consecutive timeouts before ns-3 aborts a connection (ns-3
        default 6, which 50-flow dumbbells reach; raised to 100).
    del_ack_count : int
        Segments per ACK; 1 = delayed ACKs off. [segments]
    clock_granularity : float
        ``G`` of RFC 6298's ``RTO = SRTT + max(G, 4 RTTVAR)`` (ns-3 default
        1 ms). [s]
    match_wire_time : bool
        Scale ns-3's link rates so that a data packet takes the same time
        on every link as in the scenario (see :func:`wire_rate_scale`).

    Examples
    --------
    >>> Ns3Options().recovery
    'prr'
    >>> Ns3Options(recovery="fast")
    Traceback (most recent call last):
    ...
    ctlcc.errors.ParameterError: recovery must be one of 'prr', 'classic'; got 'fast'
    """

    sack: bool = True
    recovery: str = "prr"
    timestamps: bool = True
    limited_transmit: bool = None
    data_retries: int = 100
    del_ack_count: int = 1
    clock_granularity: float = 1e-3
    match_wire_time: bool = True

    def __post_init__(self):
        for name in ("sack", "timestamps", "match_wire_time"):
            check_bool(name, getattr(self, name))
        if self.limited_transmit is not None:
            check_bool("limited_transmit", self.limited_transmit)
        check_choice("recovery", self.recovery, tuple(NS3_RECOVERY))
        # ns-3's DataRetries and DelAckCount attributes are 32-bit unsigned integers
        check_positive_int("data_retries", self.data_retries, maximum=2**32 - 1)
        check_positive_int("del_ack_count", self.del_ack_count, maximum=2**32 - 1)
        check_positive("clock_granularity", self.clock_granularity, scalar=True)


@dataclass(frozen=True)
class Ns3FlowStats:
    """Counters and rates of one flow at the end of an ns-3 run.

    The fields are those of :class:`ctlcc.sim.FlowStats` that ns-3 can
    measure, with the same meaning.

    Attributes
    ----------
    name, protocol : str
    sent : int
        Data segments put on the sender's first link, retransmissions
        included (device ``MacTx``). [packets]
    delivered : int
        Data segments reaching the receiver's host, duplicates included
        (device ``MacRx``). [packets]
    dropped : int
        Data segments lost: queue overflows plus link errors. [packets]
    dropped_queue, dropped_loss : int
        The two parts of ``dropped`` (``TcDrop``/queue ``Drop``;
        ``PhyRxDrop`` of the error model). [packets]
    in_flight : int
        ``sent - delivered - dropped`` at the end: segments still in
        queues or on links. [packets]
    retransmitted : int
        Of ``sent``, retransmissions (socket ``Retransmission`` trace).
        [packets]
    timeouts : int
        Retransmission-timeout episodes: entries into ns-3's ``CA_LOSS``
        state (back-to-back timeouts of one episode count once, unlike
        :class:`ctlcc.sim.FlowStats`, which counts every expiry). [1]
    fast_retransmits : int
        Entries into ns-3's ``CA_RECOVERY`` state. [1]
    active_time : float
        Measurement window ``min(stop, duration) - max(start, warmup)``. [s]
    throughput_bps : float
        Data bits (payload + ns-3 headers) put on the wire per active
        second. [bit/s]
    goodput_bps : float
        Payload bits the ``PacketSink`` received (in order, once) per active
        second. [bit/s]
    loss_rate : float
        dropped / sent. [1]
    """

    name: str
    protocol: str
    sent: int
    delivered: int
    dropped: int
    dropped_queue: int
    dropped_loss: int
    in_flight: int
    retransmitted: int
    timeouts: int
    fast_retransmits: int
    active_time: float
    throughput_bps: float
    goodput_bps: float
    loss_rate: float


@dataclass(frozen=True)
class Ns3QueueStats:
    """One reported directed queue of an ns-3 run.

    Attributes
    ----------
    link : (str, str)
        As in ``Scenario.bottlenecks``.
    mean : float
        Time-average of the packets waiting (``PacketsInQueue`` of the
        device queue: the packet being serialised is not counted) over the
        measurement window. [packets]
    max : int
        Largest number of packets waiting. [packets]
    drops : int
        Packets refused because the queue was full (data and ACKs; the
        node's ``TcDrop`` plus the queue's own ``Drop``). [packets]
    losses : int
        Packets destroyed by the error model of this link direction.
        [packets]
    arrivals : int
        Packets offered to the queue over the measurement window (RED
        queues only: the queue disc's received packets; 0 otherwise).
        [packets]
    aqm_drops : int
        Of ``drops``, RED's own (early and forced) drops. [packets]
    forced_drops : int
        Of ``aqm_drops``, the forced ones (avg above max_th, or 2 max_th
        when gentle). [packets]
    marks : int
        Packets RED marked CE instead of dropping them. [packets]
    sampled : bool
        True when ``mean`` and ``max`` come from samples every
        ``queue_sample_interval`` seconds (RED queues: the queue disc's
        packets plus the one the device queue may hold), False when exact.

    For a RED queue ``drops``, ``arrivals``, ``aqm_drops`` and ``marks``
    count over the measurement window [warmup, duration].
    """

    link: tuple
    mean: float
    max: int
    drops: int
    losses: int
    arrivals: int = 0
    aqm_drops: int = 0
    forced_drops: int = 0
    marks: int = 0
    sampled: bool = False


@dataclass(frozen=True)
class Ns3Traces:
    """Traces of an ns-3 run: exact step traces and grid samples.

    The sampled part has the layout of :class:`ctlcc.sim.Traces`
    (``time``, ``window``, ``queue``) so that the two overlay directly.

    Attributes
    ----------
    time : ndarray, shape (k,)
        Sampling instants. [s]
    window : ndarray, shape (k, flows)
        Congestion window at each instant (ns-3's ``CongestionWindow``,
        bytes / payload size). [packets]
    queue : ndarray, shape (k, bottlenecks)
        Packets waiting in each reported queue. [packets]
    cwnd_steps : tuple of (ndarray, ndarray)
        Per flow, every ``CongestionWindow`` change: times [s], windows
        [packets].
    queue_steps : tuple of (ndarray, ndarray)
        Per reported queue, every change: times [s], packets waiting
        [packets].
    """

    time: np.ndarray
    window: np.ndarray
    queue: np.ndarray
    cwnd_steps: tuple
    queue_steps: tuple


@dataclass(frozen=True)
class Ns3Result:
    """Outcome of :func:`run_ns3`; field names as :class:`ctlcc.sim.SimResult`.

    Attributes
    ----------
    scenario : Scenario
    duration : float
        Simulated time. [s]
    seed : int
    flows : tuple of Ns3FlowStats
    queues : tuple of Ns3QueueStats
        One per ``scenario.bottlenecks`` entry.
    traces : Ns3Traces or None
        Present when asked for with ``trace=True``.
    events : int
        Events ns-3 executed (``Simulator::GetEventCount``). [1]
    wall_time : float
        Wall-clock time of ``Simulator::Run`` alone (no import, no
        set-up). [s]
    options : Ns3Options
    warmup : float
        Start of the measurement window. [s]
    peak_rss_bytes : int
        Peak resident memory of the process that ran ns-3, after the run
        (includes the ns-3 and cling libraries, several hundred MB). [bytes]
    rss_growth_bytes : int
        Growth of that peak during ``Simulator::Run``. [bytes]
    ns3_version : str
    job : dict
        The plain-data configuration ns-3 was given (:func:`ns3_job`).
    """

    scenario: object
    duration: float
    seed: int
    flows: tuple
    queues: tuple
    traces: object
    events: int
    wall_time: float
    options: Ns3Options
    warmup: float
    peak_rss_bytes: int
    rss_growth_bytes: int
    ns3_version: str
    job: dict = field(repr=False)

    @property
    def goodputs_bps(self):
        """Goodput of every flow. [bit/s]"""
        return np.array([f.goodput_bps for f in self.flows])

    @property
    def delivered_packets(self):
        """Data packets delivered, all flows. [packets]"""
        return sum(f.delivered for f in self.flows)

    @property
    def delivered_per_second(self):
        """Data packets delivered per wall-clock second of the run. [1/s]"""
        return self.delivered_packets / self.wall_time

    @property
    def events_per_second(self):
        """ns-3 events per wall-clock second of the run. [1/s]"""
        return self.events / self.wall_time


@dataclass(frozen=True)
class Ns3Table:
    """A committed ``data/ns3_*.csv`` file: columns and provenance.

    Attributes
    ----------
    columns : dict of str -> ndarray
        Numeric columns as float arrays, text columns as str arrays.
    provenance : dict of str -> str
        The ``# key: value`` header lines (ns-3 version, configuration,
        date, seeds, command).
    path : pathlib.Path
    """

    columns: dict
    provenance: dict
    path: Path

    def __getitem__(self, name):
        return self.columns[name]

    def __len__(self):
        return len(next(iter(self.columns.values()))) if self.columns else 0

    def where(self, **equal):
        """Rows whose columns equal the given values, as a new table."""
        mask = np.ones(len(self), dtype=bool)
        for name, value in equal.items():
            mask &= self.columns[name] == value
        return Ns3Table({k: v[mask] for k, v in self.columns.items()}, self.provenance, self.path)


@dataclass(frozen=True)
class ComparisonCase:
    """One run of the ctlcc-vs-ns-3 comparison (issue 6).

    Attributes
    ----------
    family : {"fig3_7", "loss", "dumbbell"}
    label : str
    params : dict
        The varied parameters, as written to ``data/ns3_<family>.csv``
        (``buffer``, ``loss`` or ``n``).
    scenario : Scenario
    duration : float
        Simulated time. [s]
    seed : int
    """

    family: str
    label: str
    params: dict
    scenario: object
    duration: float
    seed: int


#: Families of :func:`comparison_cases`.
COMPARISON_FAMILIES = ("fig3_7", "loss", "dumbbell")

#: ns-3 loss-recovery variants (all four run on the Fig. 3.7 and loss families,
#: "default" and "nosack" on the dumbbell: :func:`comparison_variants`), to show
#: what SACK, PRR and limited transmit change (``"default"`` is ns-3's own
#: configuration and the reference of the targets).  ``"nosack"`` (no SACK,
#: classic recovery, no limited transmit) is ns-3's closest analogue of a
#: textbook RFC 6582 NewReno sender; ``"nosack_lt"`` keeps limited transmit
#: on, a combination whose goodput is implausibly high under random loss
#: (kept to document it, not used as a reference).
NS3_VARIANTS = {
    "default": Ns3Options(limited_transmit=True),
    "classic": Ns3Options(recovery="classic", limited_transmit=True),
    "nosack": Ns3Options(sack=False, recovery="classic", limited_transmit=False),
    "nosack_lt": Ns3Options(sack=False, recovery="classic", limited_transmit=True),
}


#: Packet-error probabilities of the ``"loss"`` family (thesis Fig. 4.8's
#: range above 1e-4). [1]
LOSS_LEVELS = (1e-3, 3e-3, 1e-2, 3e-2, 1e-1)


#: The most queue samples one ns-3 run may take (``duration / queue_sample_interval``).
MAX_QUEUE_SAMPLES = 10**7


def ns3_available():
    """True if the ``ns3`` package (ns-3's Python bindings) is installed.

    Does not import ns-3 (which takes about 10 s).

    Examples
    --------
    >>> isinstance(ns3_available(), bool)
    True
    """
    try:
        return importlib.util.find_spec("ns") is not None and importlib.util.find_spec("ns3") is not None
    except (ImportError, ValueError):
        return False


def ns3_header_bytes(timestamps=True):
    """Bytes ns-3.44 adds to a TCP data segment on a point-to-point link.

    Parameters
    ----------
    timestamps : bool
        Whether the RFC 7323 timestamp option is on (ns-3 default).

    Returns
    -------
    int
        IPv4 (20) + TCP (20) + PPP (2) [+ timestamp option, 10 padded to
        12]. [bytes]

    Examples
    --------
    A 1000-byte segment is 1054 bytes on the wire, so goodput cannot exceed
    1000/1054 = 94.9 % of the link rate:

    >>> ns3_header_bytes()
    54
    >>> round(1000 / (1000 + ns3_header_bytes()), 4)
    0.9488
    >>> ns3_header_bytes(timestamps=False)
    42
    """
    check_bool("timestamps", timestamps)
    return _IPV4 + _TCP + _PPP + (_TIMESTAMP if timestamps else 0)


def wire_rate_scale(payload_bytes, header_bytes, timestamps=True):
    """Factor on ns-3's link rates that equalises serialisation times.

    A data packet is ``payload_bytes + header_bytes`` on the wire in the
    scenario and ``payload_bytes + ns3_header_bytes(timestamps)`` in ns-3;
    multiplying ns-3's rates by the ratio gives both the same packet time
    on every link.

    Parameters
    ----------
    payload_bytes : int
        Segment payload. [bytes]
    header_bytes : int
        Headers the scenario counts on the wire. [bytes]
    timestamps : bool
        ns-3's timestamp option.

    Returns
    -------
    float
        [1]

    Examples
    --------
    The thesis' ns-2 runs put 1000 bytes on the wire (header_bytes=0):

    >>> wire_rate_scale(1000, 0)
    1.054
    >>> wire_rate_scale(1000, 54)
    1.0
    """
    # an IPv4 datagram holds at most 65535 bytes, headers included
    payload_bytes = check_positive_int("payload_bytes", payload_bytes, maximum=65535)
    header_bytes = check_nonnegative_int("header_bytes", header_bytes, maximum=65535)
    check_bool("timestamps", timestamps)
    return (payload_bytes + ns3_header_bytes(timestamps)) / (payload_bytes + header_bytes)


def ns3_job(scenario, duration, seed=0, options=None, trace=False, warmup=0.0, protocols=None,
            queue_sample_interval=0.02):
    """Plain-data ns-3 configuration of *scenario* (no ns-3 needed).

    Parameters
    ----------
    scenario : Scenario
        From :mod:`ctlcc.sim.scenarios`.  Every flow's protocol must be one
        of :data:`NS3_PROTOCOLS` (flows of different protocols need
        different source nodes: ns-3 picks the congestion control per
        node); losses must be Bernoulli or Gilbert-Elliott.
    duration : float
        Simulated time. [s]
    seed : int
        Seed of ns-3's random streams (the error models). [1]
    options : Ns3Options, optional
    trace : bool
        Record cwnd and queue traces.
    warmup : float
        Start of the measurement window of goodput and mean queue. [s]
    protocols : sequence of str, optional
        ns-3 protocol of each flow (keys of :data:`NS3_PROTOCOLS`) instead
        of the flows' own: for protocols ns-3 has and the engine does not
        (yet), e.g. ``"cubic"``.
    queue_sample_interval : float
        Sampling period of the queues behind a RED link (their mean and
        maximum are sampled: ns-3 splits them between the queue disc and
        the device queue). [s]

    Returns
    -------
    dict
        JSON-serialisable: ``topology`` (``nodes``, ``node_names``,
        ``links``, ``flows``), ``tcp`` (the TCP attributes), ``duration``,
        ``seed``, ``trace``, ``warmup``.

    Examples
    --------
    >>> from ctlcc.sim.scenarios import preset
    >>> job = ns3_job(preset("thesis_fig3_7_sufficient"), 30.0)
    >>> job["tcp"]["socket_type"], job["tcp"]["del_ack_count"], job["tcp"]["rate_scale"]
    ('ns3::TcpNewReno', 1, 1.0)
    >>> [(l["a"], l["b"], l["buffer_ab"], l["monitor_ab"]) for l in job["topology"]["links"]]
    [(0, 1, 1000, False), (1, 2, 14, True)]
    """
    from .scenarios import Scenario
    check_instance("scenario", scenario, Scenario)
    check_instance("options", options, Ns3Options, allow_none=True)
    check_bool("trace", trace)
    options = Ns3Options() if options is None else options
    duration = check_positive("duration", duration, scalar=True)
    warmup = check_nonnegative("warmup", warmup, scalar=True)
    if warmup >= duration:
        raise ParameterError(f"warmup must be < duration={duration}, got {warmup}")
    seed = _check_seed(seed)
    queue_sample_interval = check_positive("queue_sample_interval", queue_sample_interval,
                                           scalar=True)
    if duration / queue_sample_interval > MAX_QUEUE_SAMPLES:
        raise ParameterError(
            f"queue_sample_interval must be >= duration / {MAX_QUEUE_SAMPLES:.0e} = "
            f"{duration / MAX_QUEUE_SAMPLES:.3g} s (at most {MAX_QUEUE_SAMPLES:.0e} queue samples "
            f"per run), got {queue_sample_interval!r}")

    given_protocols = protocols is not None
    if protocols is None:
        protocols = [f.protocol for f in scenario.flows]
    else:
        if isinstance(protocols, (str, bytes, dict)) or not hasattr(protocols, "__iter__"):
            raise ParameterError(f"protocols must be a list of protocol names, one per flow, "
                                 f"got {protocols!r:.100}")
        protocols = list(protocols)
        if len(protocols) != len(scenario.flows):
            raise ParameterError(f"protocols must name one protocol per flow "
                                 f"({len(scenario.flows)}), got {len(protocols)}")
    for i, protocol in enumerate(protocols):
        if not isinstance(protocol, str) or protocol not in NS3_PROTOCOLS:
            where = f" (protocols[{i}])" if given_protocols else ""
            raise ParameterError(
                f"protocol must be one of {', '.join(repr(p) for p in NS3_PROTOCOLS)} for ns-3 "
                f"(ns-3.44 has no Tahoe, ST-PD or Primo); got {protocol!r}{where}")
    protocol = max(set(protocols), key=protocols.count)

    nodes = []
    for link in scenario.links:
        for name in (link.a, link.b):
            if name not in nodes:
                nodes.append(name)
    index = {name: i for i, name in enumerate(nodes)}
    bottlenecks = set(scenario.bottlenecks)
    payload = int(scenario.payload_bytes)
    rate_scale = (wire_rate_scale(payload, scenario.header_bytes, options.timestamps)
                  if options.match_wire_time else 1.0)
    links = []
    for link in scenario.links:
        links.append({
            "a": index[link.a], "b": index[link.b],
            "rate_bps": float(link.rate), "delay_s": float(link.delay),
            "buffer_ab": int(link.buffer), "buffer_ba": int(link.buffer),
            "loss_ab": _bernoulli_p(link), "loss_ba": 0.0, "ge_ab": _gilbert_elliott(link),
            "monitor_ab": (link.a, link.b) in bottlenecks,
            "monitor_ba": (link.b, link.a) in bottlenecks,
            "red_ab": _red_job(link, payload + ns3_header_bytes(options.timestamps)),
        })
    flows = [{"src": index[f.path[0]], "dst": index[f.path[-1]], "start": float(f.start),
              "stop": float(min(f.stop, duration)), "name": f.name or f"flow{k}",
              "protocol": protocols[k], "socket_type": NS3_PROTOCOLS[protocols[k]]}
             for k, f in enumerate(scenario.flows)]
    node_type = {}
    for k, f in enumerate(flows):
        if f["start"] >= duration:
            raise ParameterError(f"flow {k} starts at {f['start']} s, after duration={duration}")
        other = node_type.setdefault(f["src"], f["socket_type"])
        if other != f["socket_type"]:
            raise ParameterError(
                f"flows from node {nodes[f['src']]!r} run {other} and {f['socket_type']}: ns-3 "
                f"sets the congestion control per node; give them separate sources")

    tcp = scenario.tcp
    job_tcp = {
        "protocol": protocol,
        "socket_type": NS3_PROTOCOLS[protocol],
        "recovery_type": NS3_RECOVERY[options.recovery],
        "segment_size": payload,
        "initial_cwnd": int(tcp.initial_window),
        "min_rto": float(tcp.min_rto),
        "initial_rto": float(tcp.initial_rto),
        "dupack_threshold": int(tcp.dupack_threshold),
        "buffer_bytes": int(tcp.max_window) * payload,
        "vegas_alpha": int(round(tcp.vegas_alpha)),
        "vegas_beta": int(round(tcp.vegas_beta)),
        "vegas_gamma": int(round(tcp.vegas_gamma)),
        "del_ack_count": int(options.del_ack_count),
        "data_retries": int(options.data_retries),
        "sack": bool(options.sack),
        "timestamps": bool(options.timestamps),
        "limited_transmit": bool(getattr(tcp, "limited_transmit", True)
                                 if options.limited_transmit is None
                                 else options.limited_transmit),
        "clock_granularity": float(options.clock_granularity),
        "rate_scale": float(rate_scale),
        "ns3_header_bytes": ns3_header_bytes(options.timestamps),
        "ecn": bool(getattr(tcp, "ecn", False)),
    }
    return {
        "scenario": scenario.name,
        "topology": {"nodes": len(nodes), "node_names": nodes, "links": links, "flows": flows,
                     "sink_port0": _SINK_PORT0},
        "tcp": job_tcp,
        "duration": float(duration),
        "seed": seed,
        "trace": bool(trace),
        "warmup": float(warmup),
        "queue_sample_interval": float(queue_sample_interval),
    }


def _red_job(link, wire_bytes):
    """ns-3 ``RedQueueDisc`` attributes matching the link's RedParams, or None.

    * ``MinTh``, ``MaxTh``: the thresholds, in packets (``MaxSize`` in
      packets makes ns-3 count packets, not bytes);
    * ``LInterm = 1 / max_probability`` (ns-3's max_p is ``1/LInterm``);
    * ``QW = weight``, ``Gentle = gentle``, ``Wait = wait`` (ns-3's
      defaults are 0.002, True, True; ctlcc's RedParams defaults gentle
      and wait off, so they are always set explicitly);
    * ``UseEcn = ecn``, ``UseHardDrop = hard_drop``;
    * ``min_queue`` must be 1: ns-3's ``nQueued > 1`` is not an attribute;
    * ``MaxSize = buffer`` packets (the link's waiting room);
    * ``MeanPktSize`` = the data packet on ns-3's wire (payload + ns-3's
      headers) and ``LinkBandwidth`` = ns-3's link rate, so that the idle
      correction's packets per second, ``LinkBandwidth / (8 MeanPktSize)``,
      is the engine's ``rate / (8 (payload + header_bytes))``;
    * adaptive variants off (``ARED``, ``AdaptMaxP``, ``FengAdaptive``,
      ``NLRED``, ``Ns1Compat``: ns-3's defaults), ``IdlePktSize`` 0.
    """
    queue = link.queue
    if isinstance(queue, str):
        return None
    if type(queue).__name__ != "RedParams":
        raise ParameterError(
            f"queue of {link.a}->{link.b} must be 'droptail' or a RedParams for ns-3 (ns-3.44 "
            f"has no PI AQM queue disc), got {type(queue).__name__}")
    if queue.min_queue != 1.0:
        raise ParameterError(
            f"queue of {link.a}->{link.b}: RED's min_queue must be 1 for ns-3 (ns-3.44's "
            f"RedQueueDisc drops only while more than one packet waits), got "
            f"min_queue={queue.min_queue!r}")
    return {"min_th": queue.min_threshold, "max_th": queue.max_threshold,
            "l_interm": 1.0 / queue.max_probability, "qw": queue.weight,
            "gentle": bool(queue.gentle), "wait": bool(queue.wait), "ecn": bool(queue.ecn),
            "hard_drop": bool(queue.hard_drop), "max_size": int(link.buffer),
            "mean_pkt_size": int(wire_bytes)}


def run_ns3(scenario, duration, seed=0, *, options=None, trace=False, warmup=0.0,
            isolate=True, timeout=None, queue_sample_interval=0.02):
    """Run *scenario* in ns-3 and measure it like :func:`ctlcc.sim.run`.

    Parameters
    ----------
    scenario : Scenario
        From :mod:`ctlcc.sim.scenarios` (see :func:`ns3_job` for what ns-3
        supports).
    duration : float
        Simulated time. [s]
    seed : int
        Seed of ns-3's random streams (``RngSeedManager::SetSeed(seed + 1)``,
        error-model streams assigned explicitly). [1]
    options : Ns3Options, optional
    trace : bool
        Record cwnd and queue step traces.
    warmup : float
        Start of the goodput and mean-queue window. [s]
    isolate : bool
        Run in a fresh worker process (default).  ``False`` runs in this
        process (imports ns-3 here; about 10 s the first time).
    timeout : float, optional
        Seconds to wait for the worker. [s]
    queue_sample_interval : float
        Sampling period of RED queues (:func:`ns3_job`). [s]

    Returns
    -------
    Ns3Result

    Raises
    ------
    Ns3UnavailableError
        ns-3 is not installed (``pip install ctlcc[ns3]``).
    """
    job = ns3_job(scenario, duration, seed, options, trace, warmup,
                  queue_sample_interval=queue_sample_interval)
    return run_ns3_many([(scenario, job, options)], isolate=isolate, timeout=timeout)[0]


def run_ns3_many(runs, isolate=True, timeout=None):
    """Run several scenarios in ns-3, importing ns-3 once.

    Parameters
    ----------
    runs : sequence
        Items ``(scenario, duration)``, ``(scenario, duration, seed)`` or
        dicts with the keyword arguments of :func:`run_ns3` (``scenario``,
        ``duration``, ``seed``, ``options``, ``trace``, ``warmup``).
    isolate : bool
        One fresh worker process for the whole batch (default), or this
        process.  Inside the worker each run starts from
        ``Simulator::Destroy`` and re-sets every ns-3 default it uses.
    timeout : float, optional
        Seconds to wait for the worker. [s]

    Returns
    -------
    list of Ns3Result
    """
    if isinstance(runs, (str, bytes, dict)) or not hasattr(runs, "__iter__"):
        raise ParameterError(f"runs must be a list of (scenario, duration[, seed]) or dicts of "
                             f"run_ns3's arguments, got {runs!r:.100}")
    check_bool("isolate", isolate)
    if timeout is not None:
        check_positive("timeout", timeout, scalar=True)
    runs = list(runs)
    for i, item in enumerate(runs):
        if not (isinstance(item, dict) and "scenario" in item and "duration" in item) and not (
                isinstance(item, (tuple, list)) and len(item) in (2, 3)):
            raise ParameterError(f"runs[{i}] must be (scenario, duration[, seed]) or a dict with "
                                 f"scenario and duration, got {item!r:.100}")
    prepared = []
    for item in runs:
        if isinstance(item, tuple) and len(item) == 3 and isinstance(item[1], dict):
            prepared.append(item)  # already (scenario, job, options) from run_ns3
            continue
        kwargs = dict(item) if isinstance(item, dict) else dict(
            zip(("scenario", "duration", "seed"), item))
        scenario = kwargs.pop("scenario")
        options = kwargs.get("options")
        prepared.append((scenario, ns3_job(scenario, **kwargs), options))
    if not ns3_available():
        raise Ns3UnavailableError(
            f"ns-3's Python bindings (package 'ns3') are not installed; {INSTALL_HINT}")
    jobs = [job for _, job, _ in prepared]
    raw = _run_isolated(jobs, timeout) if isolate else _run_here(jobs)
    return [_to_result(scenario, job, options, r)
            for (scenario, job, options), r in zip(prepared, raw)]


def read_ns3_csv(name, data_dir=None):
    """Read a committed ``data/ns3_*.csv`` comparison file.

    Parameters
    ----------
    name : str
        File name with or without ``.csv`` (e.g. ``"ns3_fig3_7"``).
    data_dir : path-like, optional
        Directory holding it (default: the data files shipped with ctlcc).

    Returns
    -------
    Ns3Table

    Examples
    --------
    >>> table = read_ns3_csv("ns3_fig3_7")
    >>> table.provenance["ns3_version"].startswith("3.44")
    True
    """
    if not isinstance(name, str) or not name:
        raise ParameterError(f"name must be a file name (str), e.g. 'ns3_fig3_7', got "
                             f"{type(name).__name__} {name!r:.100}")
    file_name = name if name.endswith(".csv") else name + ".csv"
    if data_dir is None:
        shipped = [n for n in _data.names() if n.startswith("ns3_") and n.endswith(".csv")]
        if file_name not in shipped:
            raise ParameterError(f"name must name a file of ns-3 runs shipped with ctlcc "
                                 f"({', '.join(shipped)}), got {name!r}")
        path = _data.path(file_name)
    else:
        path = Path(data_dir) / file_name
        if not path.is_file():
            raise ParameterError(f"name must name a file in {path.parent}, got {name!r}")
    provenance = {}
    rows = []
    with path.open(newline="") as handle:
        lines = []
        for line in handle:
            if line.startswith("#"):
                key, _, value = line[1:].partition(":")
                provenance[key.strip()] = value.strip()
            elif line.strip():
                lines.append(line)
        rows = list(csv.DictReader(lines))
    columns = {}
    for key in (rows[0].keys() if rows else ()):
        values = [row[key] for row in rows]
        try:
            columns[key] = np.array([float(v) for v in values])
        except ValueError:
            columns[key] = np.array(values, dtype=str)
    return Ns3Table(columns, provenance, path)


def fig3_7_overlay(buffer_case="sufficient"):
    """Committed ns-3 traces of thesis Fig. 3.7, ready to overlay.

    Parameters
    ----------
    buffer_case : {"sufficient", "insufficient"}
        R's buffer of 14 or 4 packets.

    Returns
    -------
    tuple
        ``(label, time [s], window [packets], queue [packets])``, the
        format of the ``overlays`` argument of
        :func:`ctlcc.plots.sim.thesis_fig3_7_figure`.

    Examples
    --------
    >>> label, time, window, queue = fig3_7_overlay("insufficient")
    >>> label.startswith("ns-3"), float(queue.max())
    (True, 4.0)
    """
    check_choice("buffer_case", buffer_case, ("sufficient", "insufficient"))
    table = read_ns3_csv("ns3_fig3_7_traces")
    rows = table.where(buffer=14 if buffer_case == "sufficient" else 4)
    label = f"ns-3 {table.provenance.get('ns3_version', '')} NewReno (SACK+PRR)"
    return label, rows["time"], rows["cwnd"], rows["queue"]


def write_ns3_csv(path, rows, provenance):
    """Write rows (dicts with the same keys) under ``# key: value`` lines.

    Parameters
    ----------
    path : path-like
    rows : sequence of dict
    provenance : dict
        Written first, one ``# key: value`` line each (newlines removed).
    """
    if not isinstance(path, (str, os.PathLike)) or not str(path):
        raise ParameterError(f"path must be a file name (str or Path), got {path!r:.100}")
    rows = check_sequence("rows", rows)
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or list(row) != list(rows[0]):
            raise ParameterError(f"rows[{i}] must be a dict with the keys of rows[0], got "
                                 f"{row!r:.100}")
    check_instance("provenance", provenance, dict)
    try:
        handle = open(path, "w", newline="")
    except OSError as err:
        raise ParameterError(f"path cannot be written ({err.strerror or err}); got "
                             f"{str(path)!r}") from None
    with handle:
        for key, value in provenance.items():
            handle.write(f"# {key}: {' '.join(str(value).split())}\n")
        writer = csv.DictWriter(handle, fieldnames=list(rows[0].keys()), lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: (f"{v:.6g}" if isinstance(v, float) else v) for k, v in row.items()})


def provenance(options=None, seeds=None, command=None, ns3_version=None):
    """Provenance lines for a ``data/ns3_*.csv`` file.

    Parameters
    ----------
    options : Ns3Options, optional
    seeds : sequence of int, optional
    command : str, optional
        The command that produced the file.
    ns3_version : str, optional
        Reported by the worker (default: the installed package's).

    Returns
    -------
    dict
    """
    check_instance("options", options, Ns3Options, allow_none=True)
    if seeds is not None:
        check_sequence("seeds", seeds, item=check_nonnegative_int, min_length=0)
    check_instance("command", command, str, allow_none=True)
    check_instance("ns3_version", ns3_version, str, allow_none=True)
    options = Ns3Options() if options is None else options
    if ns3_version is None:
        try:
            from importlib.metadata import version

            ns3_version = version("ns3")
        except Exception:  # noqa: BLE001 - not installed
            ns3_version = "unknown"
    return {
        "source": "ns-3 (PyPI package ns3) run by ctlcc.sim.ns3.run_ns3",
        "ns3_version": ns3_version,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "seeds": " ".join(str(s) for s in (seeds or [])),
        "ns3_options": json.dumps(dataclasses.asdict(options), sort_keys=True),
        "ns3_config": ("DropTailQueue<Packet> per device, TrafficControlHelper.Uninstall, "
                       "RateErrorModel ERROR_UNIT_PACKET on the far device, DelAckCount=1, "
                       "SegmentSize=payload, InitialCwnd/MinRto/InitialEstimation from "
                       "Scenario.tcp, BulkSend + PacketSink"),
        "command": command or "",
    }


def comparison_variants(family):
    """The ns-3 configurations (:data:`NS3_VARIANTS`) run for *family*.

    All four on ``"fig3_7"`` and ``"loss"``; ``"default"`` and ``"nosack"``
    on the (longer) ``"dumbbell"`` runs.

    Examples
    --------
    >>> list(comparison_variants("dumbbell"))
    ['default', 'nosack']
    """
    check_choice("family", family, COMPARISON_FAMILIES)
    names = ("default", "nosack") if family == "dumbbell" else tuple(NS3_VARIANTS)
    return {name: NS3_VARIANTS[name] for name in names}


def comparison_cases(family, protocol="newreno", quick=False):
    """The scenarios the ctlcc engine and ns-3 are compared on.

    * ``"fig3_7"``: one flow over 10 Mb/s 0.2 ms + 1.5 Mb/s 20 ms, buffer
      14 (sufficient) and 4 (insufficient) packets, 30 s (thesis §3.5.1);
    * ``"loss"``: thesis Fig. 4.7 (10 Mb/s 0.1 ms + 1.5 Mb/s 80 ms,
      buffer 30) with uniform packet loss 1e-3 ... 1e-1 on the 80 ms link,
      300 s, seeds 0-4 (quick: 100 s, seeds 0-1);
    * ``"dumbbell"``: STTP Fig. 3 (10 Mb/s 1 ms access, 2 Mb/s 4 ms
      bottleneck, 128-packet queues) with n = 10, 20, 30, 50 flows starting
      at uniform random times in [0, 1) s drawn from the seed, 100 s,
      seeds 0-1 (quick: n = 10, 20, seed 0).

    Every scenario keeps the presets' defaults: initial window 1 packet,
    minimum and initial RTO 1 s, 54 header bytes per data packet.

    Parameters
    ----------
    family : {"fig3_7", "loss", "dumbbell"}
    protocol : str, SenderSpec, WindowLaw or RateLaw
        ctlcc protocol of every flow ("reno" and "newreno" both run ns-3's
        NewReno).
    quick : bool
        Fewer and shorter runs.

    Returns
    -------
    tuple of ComparisonCase

    Examples
    --------
    >>> [c.label for c in comparison_cases("fig3_7")]
    ['buffer=14', 'buffer=4']
    >>> len(comparison_cases("loss")), len(comparison_cases("loss", quick=True))
    (25, 10)
    """
    from .scenarios import preset

    check_choice("family", family, COMPARISON_FAMILIES)
    from ..laws.user import RateLaw, WindowLaw
    from .senders import SenderSpec
    check_instance("protocol", protocol, (str, SenderSpec, WindowLaw, RateLaw))
    check_bool("quick", quick)
    cases = []
    if family == "fig3_7":
        for name, buffer in (("thesis_fig3_7_sufficient", 14), ("thesis_fig3_7_insufficient", 4)):
            cases.append(ComparisonCase(family, f"buffer={buffer}", {"buffer": buffer},
                                        preset(name, protocol=protocol), 30.0, 0))
    elif family == "loss":
        seeds = range(2) if quick else range(5)
        duration = 100.0 if quick else 300.0
        for loss in LOSS_LEVELS:
            for seed in seeds:
                cases.append(ComparisonCase(
                    family, f"loss={loss:g}", {"loss": loss},
                    preset("thesis_fig4_7", protocol=protocol, loss=loss), duration, seed))
    else:
        for n in ((10, 20) if quick else (10, 20, 30, 50)):
            for seed in ((0,) if quick else (0, 1)):
                start = np.random.default_rng(seed).uniform(0.0, 1.0, n)
                cases.append(ComparisonCase(
                    family, f"n={n}", {"n": n},
                    preset("sttp_fig3", protocol=protocol, n=n, start=[float(x) for x in start]),
                    100.0, seed))
    return tuple(cases)


def _check_seed(seed):
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ParameterError(f"seed must be an integer >= 0, got {seed!r}")
    return int(seed)


def _bernoulli_p(link):
    loss = link.loss
    if loss is None or type(loss).__name__ == "GilbertElliott":
        return 0.0
    p = getattr(loss, "p", None)
    if type(loss).__name__ != "Bernoulli" or p is None:
        raise ParameterError(
            f"loss on {link.a}->{link.b} must be Bernoulli, GilbertElliott or None for ns-3, got "
            f"{type(loss).__name__}: ns-3 counts listed packets differently (SYNs cross the "
            f"same error model)")
    return float(p)


def _gilbert_elliott(link):
    """The exponential-sojourn channel as plain data, or None.

    ns-3 gets it as a small ErrorModel of the C++ glue
    (:mod:`ctlcc.sim._ns3_backend`) with the engine's rules: the state at
    t = 0 drawn from the stationary law, sojourns exponential with the
    state's mean, a packet reaching the far end lost with the probability
    of the state the channel is in at that instant.
    """
    loss = link.loss
    if type(loss).__name__ != "GilbertElliott":
        return None
    return {"mean_good": float(loss.mean_good), "mean_bad": float(loss.mean_bad),
            "loss_good": float(loss.loss_good), "loss_bad": float(loss.loss_bad)}


def _run_here(jobs):
    from . import _ns3_backend

    try:
        _ns3_backend._load()
    except ImportError as err:
        raise Ns3UnavailableError(f"ns-3 could not be imported ({err}); {INSTALL_HINT}") from err
    return [_ns3_backend.run_job(job) for job in jobs]


def _run_isolated(jobs, timeout):
    root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ)
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    with tempfile.TemporaryDirectory(prefix="ctlcc-ns3-") as tmp:
        job_path, out_path = Path(tmp) / "jobs.json", Path(tmp) / "results.json"
        job_path.write_text(json.dumps(jobs))
        proc = subprocess.run(
            [sys.executable, "-m", "ctlcc.sim._ns3_worker", str(job_path), str(out_path)],
            env=env, capture_output=True, text=True, timeout=timeout)
        if proc.returncode != 0 or not out_path.is_file():
            tail = "\n".join(line for line in proc.stderr.splitlines()
                             if "materialize symbols" not in line)[-3000:]
            if "No module named 'ns'" in proc.stderr:
                raise Ns3UnavailableError(f"ns-3 is not importable in the worker; {INSTALL_HINT}")
            raise CtlccError(f"ns-3 worker failed (exit {proc.returncode}):\n{tail}")
        return json.loads(out_path.read_text())


def _to_result(scenario, job, options, raw, sample_interval=None):
    options = Ns3Options() if options is None else options
    duration, warmup = job["duration"], job["warmup"]
    payload = job["tcp"]["segment_size"]
    wire_bits = 8 * (payload + job["tcp"]["ns3_header_bytes"])
    fr = raw["flows"]
    flows = []
    for k, flow in enumerate(job["topology"]["flows"]):
        active = max(0.0, min(flow["stop"], duration) - max(flow["start"], warmup))
        per = 1.0 / active if active > 0 else 0.0
        received = fr["rx_bytes"][k] - (fr["rx_bytes_at_warmup"][k] if warmup > 0 else 0)
        sent, delivered = int(fr["sent"][k]), int(fr["delivered"][k])
        dq, dl = int(fr["dropped_queue"][k]), int(fr["dropped_loss"][k])
        flows.append(Ns3FlowStats(
            name=flow["name"], protocol=job["tcp"]["protocol"], sent=sent, delivered=delivered,
            dropped=dq + dl, dropped_queue=dq, dropped_loss=dl,
            in_flight=sent - delivered - dq - dl, retransmitted=int(fr["retransmitted"][k]),
            timeouts=int(fr["timeout_episodes"][k]), fast_retransmits=int(fr["fast_retransmits"][k]),
            active_time=active,
            throughput_bps=sent * wire_bits * per, goodput_bps=8.0 * received * per,
            loss_rate=(dq + dl) / sent if sent else 0.0))
    q = raw["queues"]
    links = job["topology"]["links"]
    names = job["topology"]["node_names"]
    keys = [(names[links[i]["a"]], names[links[i]["b"]]) if d == "ab"
            else (names[links[i]["b"]], names[links[i]["a"]])
            for i, d in zip(q["link"], q["direction"])]
    wanted = [tuple(b) for b in scenario.bottlenecks] if scenario is not None else keys
    order = [keys.index(key) for key in wanted]
    window = duration - warmup
    red = raw.get("red", {"monitor": []})
    red_of = {m: j for j, m in enumerate(red["monitor"]) if m >= 0}

    def queue_stats(i):
        if i not in red_of:
            return Ns3QueueStats(
                link=keys[i],
                mean=(q["area"][i] - (q["area_at_warmup"][i] if warmup > 0 else 0.0)) / window,
                max=int(q["max"][i]), drops=int(q["drops"][i]), losses=int(q["losses"][i]))
        j = red_of[i]
        st = np.array(red["stats"][j]) - np.array(red["stats_at_warmup"][j])
        return Ns3QueueStats(
            link=keys[i], mean=red["sampled_sum"][j] / max(red["samples"][j], 1),
            max=int(red["sampled_max"][j]), drops=int(st[1]), losses=int(q["losses"][i]),
            arrivals=int(st[0]), aqm_drops=int(st[2] + st[3]), forced_drops=int(st[3]),
            marks=int(st[5] + st[6]), sampled=True)

    queues = tuple(queue_stats(i) for i in order)
    traces = None
    if "traces" in raw:
        tr = raw["traces"]
        cwnd_steps = tuple((np.array(t), np.array(v) / payload)
                           for t, v in zip(tr["cwnd_time"], tr["cwnd_bytes"]))
        queue_steps = tuple(
            (np.array(red["time"][red_of[i]]), np.array(red["queue"][red_of[i]])) if i in red_of
            else (np.array(tr["queue_time"][i]), np.array(tr["queue_packets"][i]))
            for i in order)
        if sample_interval is None:
            sample_interval = min(max(duration / 2000.0, 1e-3), 1.0)
        time = np.arange(0.0, duration + 0.5 * sample_interval, sample_interval)
        window_samples = np.column_stack([_step_at(t, v, time) for t, v in cwnd_steps]) \
            if cwnd_steps else np.zeros((len(time), 0))
        queue_samples = np.column_stack([_step_at(t, v, time) for t, v in queue_steps]) \
            if queue_steps else np.zeros((len(time), 0))
        traces = Ns3Traces(time, window_samples, queue_samples, cwnd_steps, queue_steps)
    return Ns3Result(
        scenario=scenario, duration=duration, seed=job["seed"], flows=tuple(flows),
        queues=queues, traces=traces, events=int(raw["events"]), wall_time=float(raw["wall_s"]),
        options=options, warmup=warmup, peak_rss_bytes=1024 * int(raw["peak_rss_kib_after_run"]),
        rss_growth_bytes=1024 * (int(raw["peak_rss_kib_after_run"])
                                 - int(raw["peak_rss_kib_before_run"])),
        ns3_version=raw["ns3_version"], job=job)


def _step_at(times, values, at):
    """Value at *at* of the step function that takes values[i] at times[i].

    Before the first change the value is 0 (ns-3 reports the initial
    window as a change at the flow's start).
    """
    times, values = np.asarray(times, dtype=float), np.asarray(values, dtype=float)
    pos = np.searchsorted(times, np.asarray(at, dtype=float), side="right") - 1
    if len(values) == 0:
        return np.zeros(np.shape(at))
    return np.where(pos >= 0, values[np.clip(pos, 0, None)], 0.0)
