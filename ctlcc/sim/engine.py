# ctlcc.sim.engine - packet-level discrete-event simulator
"""Packet-level discrete-event simulation of a :class:`~.scenarios.Scenario`.

:func:`run` builds the network's arrays, drives the numba event loop of
:mod:`ctlcc.sim._core` and returns a frozen :class:`SimResult`.  Each
sender lives in its own module of :mod:`ctlcc.sim.senders` with its state
columns, its hooks and its frozen spec (the contract:
:mod:`ctlcc.sim.senders._base`, :mod:`ctlcc.sim._core.hooks`); their
control laws run compiled inside the loop from the same source as
:mod:`ctlcc.laws` (ST-PD's PD update and the fuzzy supervisor's
piecewise-linear schedule, Primo's Algorithm 1, the TCP rules of
:mod:`ctlcc.laws.tcp` and :mod:`ctlcc.laws.vegas`), and so does a
researcher's :class:`ctlcc.WindowLaw` / :class:`ctlcc.RateLaw`: no law is
copied and none costs a Python round trip.  Only a user-supplied Python
callable (e.g. ``Stpd(gains=callable)``) hands control back to Python; that
time is counted in ``SimResult.wall_time``.

A run compiles only what it uses: the event loop once, each sender's hooks
the first time a run uses the sender, each law once per process
(:func:`prepare`; :func:`warm` does it ahead of time), all but the laws
cached on disk.

Model, in brief
---------------
* Links are duplex; each direction is a FIFO holding at most ``buffer``
  waiting packets plus the one in transmission, drop-tail or, on a link's
  data direction, RED or PI (``Link(queue=...)``, the laws of
  :mod:`ctlcc.laws.aqm` compiled into the channel: :mod:`._core.aqm`),
  marking ECN-capable packets with ``ecn`` (RFC 3168).
* Data packets are ``payload + header`` bytes, ACKs ``ack_bytes``;
  cumulative ACKs, one per data packet (no delayed ACKs).
* Senders: see :mod:`ctlcc.sim.senders` (the registry and its table).
"""

import math
import sys
import time
from dataclasses import dataclass, field

import numpy as np

from .._validation import check_bool, check_nonnegative, check_positive, check_positive_int
from ..bounds import fairness as _fairness
from ..errors import ConservationError, ParameterError
from ..laws.aqm import PiParams, RedParams
from . import senders as senders_mod
from ._core import cache as _cache
from ._core import dispatch
from ._core import hooks as _hooks
from ._core import layout as K
from ._core import net
from ._core import occupancy as _occupancy
from . import criteria as _criteria
from .scenarios import Bernoulli, GilbertElliott, PacketList, Scenario

__all__ = ["FlowStats", "QueueStats", "Traces", "SimResult", "run", "jain_index",
           "primo_criteria", "warm"]

#: Rough cold-compile times (CPU s on the 2-core machine of issue 20, measured
#: by ``ctlcc.sim.warm()`` on a fresh numba cache), for the notice: the event
#: loop, each sender module's hooks, and any other sender module. [s]
_COMPILE_SECONDS = {"loop": 8, "sender": 10, "window": 8, "vegas": 8, "window_law": 14,
                    "rate_law": 8, "open_loop": 1, "iftp": 6, "cbraa": 4, "tfrc": 7, "sttp": 8,
                    "sack": 17, "fixed_window": 5}
#: Largest memory the arrays of one run may take; :func:`run` estimates it
#: from the scenario, the duration and the sampling period before allocating
#: and refuses larger runs (a typo such as ``duration=1e308`` would otherwise
#: fail deep inside numpy or exhaust the machine). [bytes]
MAX_RUN_BYTES = 4 * 2**30
#: a run with at least this many channels puts its packets' arrivals on the arrival wheel
#: (net.wheel_put), fewer in the event heap alone; the order of events is the same.  Counted
#: (benchmarks/README.md, "eighth session"): on the 10-flow dumbbell (42 channels) the wheel
#: costs 3.7% more instructions per packet, on the 100-flow one (402) it saves 12%
WHEEL_MIN_CHANNELS = 256


@dataclass(frozen=True)
class FlowStats:
    """Counters and rates of one flow at the end of a run.

    Attributes
    ----------
    name, protocol : str
    sent : int
        Data packets put on the first link, retransmissions included. [packets]
    retransmitted : int
        Of which retransmissions. [packets]
    delivered : int
        Data packets that reached the receiver, duplicates included. [packets]
    delivered_unique : int
        Distinct data packets delivered in order (goodput). [packets]
    dropped : int
        Data packets lost: queue overflows plus link errors. [packets]
    dropped_queue, dropped_loss : int
        The two parts of ``dropped``. [packets]
    in_flight : int
        Data packets still in the network at the end. [packets]
    acks_dropped : int
        ACKs lost on the reverse path. [packets]
    timeouts, fast_retransmits : int
        Recovery episodes. [1]
    active_time : float
        Time the flow was active within the run. [s]
    throughput_bps : float
        Data bits put on the wire per active second. [bit/s]
    goodput_bps : float
        Payload bits delivered in order per active second. [bit/s]
    loss_rate : float
        dropped / sent. [1]
    srtt : float
        Smoothed RTT at the end (RFC 6298; 0 before the first valid
        sample; window flows only). [s]
    rto : float
        Retransmission timeout at the end, backoff included. [s]
    marked : int
        Data packets an AQM marked CE (ECN) instead of dropping. [packets]
    ecn_reductions : int
        Window reductions the sender made for ECN echoes (RFC 3168). [1]
    """

    name: str
    protocol: str
    sent: int
    retransmitted: int
    delivered: int
    delivered_unique: int
    dropped: int
    dropped_queue: int
    dropped_loss: int
    in_flight: int
    acks_dropped: int
    timeouts: int
    fast_retransmits: int
    active_time: float
    throughput_bps: float
    goodput_bps: float
    loss_rate: float
    srtt: float = 0.0
    rto: float = 0.0
    marked: int = 0
    ecn_reductions: int = 0


@dataclass(frozen=True)
class QueueStats:
    """One reported directed queue.

    Attributes
    ----------
    link : (str, str)
    mean : float
        Time-average of the packets waiting (not in transmission) over the
        run, exact (sum of waiting times / duration). [packets]
    max : int
        Largest number of packets waiting. [packets]
    drops : int
        Packets the queue discarded (data and ACKs): refused by the full
        buffer, or dropped by its AQM. [packets]
    losses : int
        Packets destroyed by the link's loss model. [packets]
    arrivals : int
        Packets offered to the queue. [packets]
    utilisation : float
        Fraction of the run the link was transmitting. [1]
    aqm_drops : int
        Of ``drops``, those the AQM decided (RED's early and forced drops,
        PI's drops); 0 for drop-tail. [packets]
    marks : int
        Packets the AQM marked CE instead of dropping them (ECN). [packets]
    """

    link: tuple
    mean: float
    max: int
    drops: int
    losses: int
    arrivals: int
    utilisation: float
    aqm_drops: int = 0
    marks: int = 0


@dataclass(frozen=True)
class Traces:
    """Sampled time series and event logs of a run (``trace=True``).

    Attributes
    ----------
    time : ndarray, shape (k,)
        Sampling instants. [s]
    window : ndarray, shape (k, flows)
        Congestion window (NaN for rate-based flows). [packets]
    rate : ndarray, shape (k, flows)
        Sending rate of rate-based flows (NaN for window flows). [packets/s]
    sent, delivered : ndarray, shape (k, flows)
        Cumulative data packets sent / delivered in order. [packets]
    queue : ndarray, shape (k, bottlenecks)
        Packets waiting in each reported queue. [packets]
    rtt : ndarray, shape (m, 3)
        (time [s], flow, RTT sample [s]) of every ACK, or of every
        ``rtt_every``-th ACK of each flow.
    drops : ndarray, shape (d, 4)
        Every drop: (time [s], flow, channel, kind) with kind 0 = queue
        drop of data, 1 = queue drop of an ACK, 2 = link error, 4 = AQM
        drop of data, 5 = AQM drop of an ACK; and every ECN mark, kind 6
        (not a drop: the packet goes on).
    queue_by_flow : ndarray, shape (k, bottlenecks, flows), or None
        Packets of each flow waiting in each reported queue (not the one in
        transmission); summed over flows, ``queue``.  Kept only by
        ``run(..., queue_by_flow=True)``, else None. [packets]
    received : ndarray, shape (k, flows), or None
        Cumulative data packets that reached each flow's receiver,
        duplicates and out-of-order packets included (``delivered`` counts
        them when their hole is filled); the packet engine always keeps it.
        [packets]
    """

    time: np.ndarray
    window: np.ndarray
    rate: np.ndarray
    sent: np.ndarray
    delivered: np.ndarray
    queue: np.ndarray
    rtt: np.ndarray
    drops: np.ndarray
    queue_by_flow: np.ndarray = None
    received: np.ndarray = None


@dataclass(frozen=True)
class SimResult:
    """What :func:`run` returns.

    Attributes
    ----------
    scenario : Scenario
    duration : float
        Simulated time. [s]
    seed : int
    flows : tuple of FlowStats
    queues : tuple of QueueStats
        One per ``scenario.bottlenecks`` entry.
    traces : Traces or None
    events : int
        Events processed. [1]
    wall_time : float
        Wall-clock time of the event loop, including the Python callables
        it calls (e.g. ``Stpd(gains=callable)``); a cold numba compilation
        in the first run of a process is included too, later runs load the
        compiled loop from disk. [s]
    samples : Traces
        The coarse samples always kept (same layout as ``traces``, without
        RTT and drop logs); used by the efficiency metrics.
    sender_state : tuple of dict
        One dict per flow: the sender's own end-of-run measurements
        (:meth:`SenderSpec.final_state`; e.g. IFTP's mean gap and delays,
        a constant-rate source's delays), empty for the others.
    """

    scenario: Scenario
    duration: float
    seed: int
    flows: tuple
    queues: tuple
    traces: object
    events: int
    wall_time: float
    samples: object = field(repr=False, default=None)
    sender_state: tuple = field(repr=False, default=())

    @property
    def goodputs_bps(self):
        """Goodput of every flow. [bit/s]"""
        return np.array([f.goodput_bps for f in self.flows])

    @property
    def jain(self):
        """Jain's fairness index of the flows' goodputs. [1]"""
        return jain_index(self.goodputs_bps)

    @property
    def delivered_packets(self):
        """Data packets delivered, all flows. [packets]"""
        return sum(f.delivered for f in self.flows)

    def efficiency(self, warmup=0.0, bottleneck=0):
        """Primo's five efficiency criteria of the run, see :func:`primo_criteria`."""
        return primo_criteria(self, warmup=warmup, bottleneck=bottleneck)


def run(scenario, duration, seed=0, trace=False, sample_interval=None, progress=None,
        rtt_every=1, queue_by_flow=False):
    """Simulate *scenario* for *duration* seconds.

    Parameters
    ----------
    scenario : Scenario
    duration : float
        Simulated time, > 0. [s]
    seed : int or numpy.random.Generator
        Seed of the loss models' random stream; the same seed gives the
        same run.
    trace : bool
        Keep the sampled traces, every RTT sample and every drop.
    sample_interval : float, optional
        Sampling period of windows, rates and queues (default
        ``duration/2000`` capped to [1 ms, 1 s]). [s]
    progress : bool, optional
        Show a tqdm bar (default: when the run is long, duration > 60 s
        with several flows).
    rtt_every : int
        With ``trace=True``, keep the RTT sample of every ``rtt_every``-th
        ACK of each flow (drops are always all logged). [ACKs]
    queue_by_flow : bool
        Also count, at each sampling instant, each flow's packets waiting in
        each reported queue (``samples.queue_by_flow`` and, with
        ``trace=True``, ``traces.queue_by_flow``; shape (k, bottlenecks,
        flows)). Off by default: it walks each reported queue's packets in
        flight at every sample.

    Returns
    -------
    SimResult

    Raises
    ------
    ParameterError
        A bad argument, or a run whose arrays would need more than
        :data:`MAX_RUN_BYTES` (the message gives the estimate and its
        largest term: flows x samples, windows or buffers).
    ConservationError
        When a flow's sent != delivered + dropped + in flight at the end.

    Examples
    --------
    A window capped at 20 packets (above the path's BDP, below BDP + buffer)
    keeps the 1.5 Mb/s link busy without loss: goodput = rate x 1000/1054.

    >>> from ctlcc.sim import scenarios
    >>> s = scenarios.single_bottleneck(buffer=14, tcp=scenarios.TcpOptions(max_window=20))
    >>> r = run(s, 20.0)
    >>> round(r.flows[0].goodput_bps / 1.5e6, 2), r.flows[0].dropped
    (0.94, 0)
    """
    if not isinstance(scenario, Scenario):
        raise ParameterError(f"scenario must be a Scenario, got {type(scenario).__name__}")
    duration = check_positive("duration", duration, scalar=True)
    if sample_interval is None:
        sample_interval = min(max(duration / 2000.0, 1e-3), 1.0)
    sample_interval = check_positive("sample_interval", sample_interval, scalar=True)
    trace = check_bool("trace", trace)
    if progress is not None:
        progress = check_bool("progress", progress)
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(
        _check_seed(seed))
    rtt_every = check_positive_int("rtt_every", rtt_every, maximum=2**62)
    queue_by_flow = check_bool("queue_by_flow", queue_by_flow)
    _check_memory(scenario, duration, sample_interval, queue_by_flow)
    sim = _Simulation(scenario, duration, trace, sample_interval, queue_by_flow)
    sim.g[K.G_RTT_EVERY] = rtt_every
    if progress is None:
        progress = duration > 60.0 and len(scenario.flows) > 4
    wall = sim.drive(rng, progress)
    return sim.result(seed, wall)


def jain_index(values):
    """Jain's fairness index (sum x)^2 / (n sum x^2). [1]

    Examples
    --------
    >>> jain_index([1.0, 1.0, 1.0])
    1.0
    >>> jain_index([1.0, 0.0])
    0.5
    """
    x = np.asarray(check_nonnegative("values", values), dtype=float)
    if x.ndim != 1 or x.size == 0:
        raise ParameterError(f"values must be a 1-D array with at least one number, got shape "
                             f"{x.shape}")
    if not np.any(x > 0):
        return 1.0   # every flow got nothing: equal shares
    # the scale-free form of ctlcc.bounds.jain_index: no overflow at 1e308
    return _fairness.jain_index(x)


def primo_criteria(result, warmup=0.0, bottleneck=0, interval=None, occupancy="arrivals"):
    """Primo's five efficiency criteria (§IV-C): see :func:`.criteria.primo_criteria`."""
    return _criteria.primo_criteria(result, warmup, bottleneck, interval, occupancy)


def _rows(n, width, offset=0):
    """An (n, width) table of 8-byte words as two C-contiguous views: int64 and float64.

    The packet pool (``pi``/``pf``) and the channels (``ci``/``cf``) keep a row's
    int and float columns in the same memory (:mod:`._core.layout` gives them
    disjoint indices), each row starting on a 64-byte boundary, so that what
    a hop touches shares one or two cache lines instead of spreading over
    two arrays: at 1000 flows the packets in flight no longer fit the
    processor's caches, and each extra line an event touches is a miss.
    The table starts *offset* bytes (a multiple of 16) past a 64-byte boundary.
    """
    words = n * width
    buf = np.zeros(words + 8, dtype=np.int64)
    skip = ((offset - buf.ctypes.data) % 64) // 8   # numpy aligns to 16 bytes, not 64
    ints = buf[skip:skip + words].reshape(n, width)
    return ints, ints.view(np.float64)


def _flow_rows(n, width, fill=0):
    """An (n, w) table of 8-byte words, *width* rounded up to whole 64-byte lines: int64, float64.

    For the per-flow tables (``ff``, ``fi``, the hook addresses, the paths): each
    row starts on a cache line and covers whole lines, so that the columns
    :mod:`._core.layout` groups by who reads them per packet share lines.  At
    1000 flows a flow's row is touched about once every thousand packets, by
    which time most of it has left the caches: each line a packet touches is a
    miss.  The padding columns are never read.
    """
    ints, floats = _rows(n, -(-width // 8) * 8)
    if fill:
        ints[:] = fill
    return ints, floats


def _heap_table(size):
    """A heap of *size* entries: a flat table of ``NHQ`` words per entry, int64 and float64.

    The table starts 32 bytes past a 64-byte boundary: entry i is at words
    ``i * NHQ`` (32 bytes), so the two children of entry i, 2i+1 and 2i+2,
    share one cache line (:mod:`._core.layout`).
    """
    ints, floats = _rows(size, K.NHQ, offset=32)
    return ints.reshape(-1), floats.reshape(-1)


def _heap_resized(old, size, pending):
    """A heap table of *size* entries holding the first *pending* entries of *old* (if any)."""
    hi, hf = _heap_table(size)
    if old is not None:
        words = pending * K.NHQ
        hi[:words] = old[:words]   # whole rows: the time's bits included
    return hi, hf


def _heap_fields(hf, hi):
    """A heap table's columns (time, sequence number, kind, a, b), for Python.

    Each heap is one flat table of ``NHQ`` words per entry (:func:`_heap_table`;
    the kernel indexes it as ``i * NHQ + column``, a shift), the sequence
    number and the kind packed in one key (:func:`.net.key`), so that a step
    of a sift reads both children from one cache line.  At 1000 flows the
    event heap (some 500 entries) competes for the first-level cache with
    the packets and flows; callgrind put over a third of the run's
    first-level read misses in the sift-down, first with one array per
    field, then still a quarter with 64-byte entries.  The times and
    operands are views; the sequence numbers and kinds are decoded copies.
    """
    return tuple(field(hf, hi) for field in _HEAP_FIELDS)


#: How each field of :func:`_heap_fields` is read from a heap table (hf, hi).
_HEAP_FIELDS = (
    lambda hf, hi: hf[K.HQ_T::K.NHQ],
    lambda hf, hi: hi[K.HQ_S::K.NHQ] >> K.KIND_BITS,
    lambda hf, hi: hi[K.HQ_S::K.NHQ] & K.KIND_MASK,
    lambda hf, hi: hi[K.HQ_A::K.NHQ],
    lambda hf, hi: hi[K.HQ_B::K.NHQ],
)


def _heap_field(table, column):
    """A read-only property: field *column* of :func:`_heap_fields` of heap *table* (h, t).

    Reads that field only (a view, or for the sequence numbers and kinds a
    decoded copy), not all five.
    """
    field = _HEAP_FIELDS[column]
    return property(lambda self: field(getattr(self, table + "f"), getattr(self, table + "i")),
                    doc=f"{'time sequence kind a b'.split()[column]} of the "
                        f"{'event' if table == 'h' else 'timer'} heap's entries (Python's view)")


class _Simulation:
    """Arrays of one run and the Python side of the event loop."""

    def __init__(self, scenario, duration, trace, sample_interval, queue_by_flow=False):
        self.scenario = scenario
        self.duration = duration
        self.trace = trace
        sc = scenario
        tcp = sc.tcp
        flows = sc.flows
        n = len(flows)
        channels = sc.channels()
        names = list(channels)
        index = {key: i for i, key in enumerate(names)}
        self.channel_names = names
        nch = len(names)
        # channels
        ci, cf = _rows(nch, K.NCW)   # one row per channel, seen as ints and as floats
        ring_total = 0
        lists = []
        for i, key in enumerate(names):
            link, forward = channels[key]
            cf[i, K.C_RATE] = link.rate
            cf[i, K.C_DELAY] = link.delay
            ci[i, K.K_CAP] = link.buffer
            ci[i, K.K_RING_OFF] = ring_total
            ci[i, K.K_FIFO_HEAD] = ci[i, K.K_FIFO_TAIL] = -1   # no packet in flight
            ring_total += link.buffer + 1
            loss = link.loss if forward else None
            queue = link.queue if forward else None
            cf[i, K.C_PKT_RATE] = link.rate / sc.data_bits
            if isinstance(queue, RedParams):
                ci[i, K.K_AQM] = K.AQM_RED
                cf[i, K.C_RED_MIN], cf[i, K.C_RED_MAX] = queue.min_threshold, queue.max_threshold
                cf[i, K.C_RED_PMAX], cf[i, K.C_RED_WEIGHT] = queue.max_probability, queue.weight
                cf[i, K.C_RED_MIN_QUEUE] = queue.gate_threshold
                ci[i, K.K_AQM_FLAGS] = ((K.AQM_GENTLE if queue.gentle else 0)
                                        | (K.AQM_WAIT if queue.wait else 0)
                                        | (K.AQM_ECN if queue.ecn else 0)
                                        | (K.AQM_HARD_DROP if queue.hard_drop else 0))
            elif isinstance(queue, PiParams):
                ci[i, K.K_AQM] = K.AQM_PI
                cf[i, K.C_PI_A], cf[i, K.C_PI_B] = queue.a, queue.b
                cf[i, K.C_PI_REF], cf[i, K.C_PI_PERIOD] = queue.reference, queue.period
                cf[i, K.C_PI_NEXT] = 0.0   # p(0) from q(0) = q(-1) = 0, as the fluid model
                ci[i, K.K_AQM_FLAGS] = K.AQM_ECN if queue.ecn else 0
            if isinstance(loss, Bernoulli):
                ci[i, K.K_LOSS_KIND] = K.LOSS_BERNOULLI
                cf[i, K.C_P] = loss.p
            elif isinstance(loss, GilbertElliott):
                ci[i, K.K_LOSS_KIND] = K.LOSS_GE
                cf[i, K.C_MEAN_GOOD], cf[i, K.C_MEAN_BAD] = loss.mean_good, loss.mean_bad
                cf[i, K.C_LOSS_GOOD], cf[i, K.C_LOSS_BAD] = loss.loss_good, loss.loss_bad
                ci[i, K.K_GE_BAD] = -1  # drawn from the stationary law at the start
            elif isinstance(loss, PacketList):
                ci[i, K.K_LOSS_KIND] = K.LOSS_LIST
                ci[i, K.K_LIST_OFF] = sum(len(x) for x in lists)
                ci[i, K.K_LIST_LEN] = len(loss.indices)
                lists.append(loss.indices)
        self.cf, self.ci = cf, ci
        # each transmission's (start, end) side by side, so that a hop reads one cache line
        ring = np.zeros((max(ring_total, 2), 2))   # >= 2 rows: its columns stay strided
        self.ring_s, self.ring_e = ring[:, 0], ring[:, 1]
        self.loss_list = np.array([i for x in lists for i in x] or [0], dtype=np.int64)
        # flows
        hops = max(len(f.path) for f in flows) - 1
        # each flow's channels, then -1 (the end of the path: the packet has arrived)
        self.fpath = _flow_rows(n, hops + 1, fill=-1)[0]
        self.rpath = _flow_rows(n, hops + 1, fill=-1)[0]
        specs = [senders_mod.runnable(flow.sender) for flow in flows]
        self.specs = specs
        prepare(specs)
        nf = K.NF_COMMON + max(spec.float_columns for spec in specs)
        ni = K.NI_COMMON + max(spec.int_columns for spec in specs)
        ff = _flow_rows(n, nf)[1]
        fi = _flow_rows(n, ni)[0]
        shapes = [spec.table_shape(tcp) for spec in specs]
        tab = np.zeros((n, max([1] + [r for r, _ in shapes]), max([1] + [w for _, w in shapes])))
        for j, (flow, spec) in enumerate(zip(flows, specs)):
            fwd = [index[h] for h in zip(flow.path[:-1], flow.path[1:])]
            rev = [index[(b, a)] for a, b in reversed(list(zip(flow.path[:-1], flow.path[1:])))]
            self.fpath[j, :len(fwd)] = fwd
            self.rpath[j, :len(rev)] = rev
            fi[j, K.I_PROTO] = spec.code
            ff[j, K.F_START], ff[j, K.F_STOP] = flow.start, flow.stop
            ff[j, K.F_RTO] = tcp.initial_rto
            ff[j, K.F_RTO_DEADLINE] = np.inf
            ff[j, K.F_RTO_EVT] = np.inf
            ff[j, K.F_MIN_RTT] = np.inf
            ff[j, K.F_ROUND_MIN_RTT] = np.inf
            ff[j, K.F_RATE] = np.nan
            fi[j, K.I_ROUND_END] = 1
            fi[j, K.I_RECOVER] = -1
            fi[j, K.I_ECN_RECOVER] = -1
            fi[j, K.I_ECN] = K.ECN_CAPABLE if tcp.ecn and spec.ecn_capable else 0
            spec.init_flow(ff, fi, tab, j, tcp)
        self.tab = tab
        self.hooks = _flow_rows(n, K.NH)[0]   # one line per flow
        # the addresses depend on the sender's module only: looked up once per module
        modules = [senders_mod.hooks_module(spec) for spec in specs]
        by_module = {}
        for module in modules:
            if module not in by_module:
                by_module[module] = _module_hook_table(module)
        self.hooks[:, :K.NH] = [by_module[module] for module in modules]
        self.ff, self.fi = ff, fi
        ring = 1 << int(math.ceil(math.log2(2 * tcp.max_window + 2)))
        self.rbits = np.zeros((n, ring), dtype=np.uint8)
        # global parameters
        g = np.zeros(K.NG)
        g[K.G_DATA_BITS] = sc.data_bits
        g[K.G_ACK_BITS] = 8 * sc.ack_bytes
        g[K.G_MIN_RTO], g[K.G_MAX_RTO], g[K.G_INIT_RTO] = tcp.min_rto, tcp.max_rto, tcp.initial_rto
        g[K.G_MAX_WINDOW] = tcp.max_window
        g[K.G_DUPTHRESH] = tcp.dupack_threshold
        g[K.G_INIT_WINDOW] = tcp.initial_window
        g[K.G_SAMPLE_DT] = sample_interval
        g[K.G_RTT_EVERY] = 1
        g[K.G_LIMITED] = 1.0 if tcp.limited_transmit else 0.0
        g[K.G_TIMESTAMPS] = 1.0 if tcp.timestamps else 0.0
        self.g = g
        self.meta = np.zeros(K.NM, dtype=np.int64)
        self.meta[K.M_WHEEL_HEADS:K.M_WHEEL_HEADS + K.WHEEL_SLOTS] = -1   # empty slots
        # the wheel's slots span the longest a packet's arrival can lie ahead of the moment
        # it is scheduled (a data packet's transmission and the channel's delay: net.wheel_put)
        ahead = max((max(sc.data_bits, 8 * sc.ack_bytes) / link.rate + link.delay
                     for link, _ in channels.values()), default=0.0)
        if nch >= WHEEL_MIN_CHANNELS and 0.0 < ahead < math.inf:
            g[K.G_WHEEL_INV] = (K.WHEEL_SLOTS - 2) / ahead
        for slot, address in net.services().items():
            self.meta[slot] = address
        self.meta[K.M_MARGIN] = tcp.max_window + 16
        self.meta[K.M_TRACE] = 1 if trace else 0
        pool = 4 * (tcp.max_window + 16) + 1024
        self._alloc_pool(pool)
        self._alloc_heap(pool + 64 * n + 256)
        # a flow's timer, start, stop, pacing or step events, and the samples (net.schedule)
        self._alloc_timers(4 * n + self.meta[K.M_MARGIN] + 256)
        # samples
        ns = int(duration / sample_interval) + 2
        nb = len(sc.bottlenecks)
        self.bott = np.array([index[b] for b in sc.bottlenecks] or [0], dtype=np.int64)[:nb] \
            if nb else np.zeros(0, dtype=np.int64)
        # every sample writes its whole row of these (dispatch, EV_SAMPLE) and only the rows
        # written are read (result): no zeroing (5 x 2,000 x 8 bytes per flow)
        self.samp_t = np.empty(ns)
        self.samp_w = np.empty((ns, n))
        self.samp_r = np.empty((ns, n))
        self.samp_sent = np.empty((ns, n), dtype=np.int64)
        self.samp_dlv = np.empty((ns, n), dtype=np.int64)
        self.samp_rcv = np.empty((ns, n), dtype=np.int64)
        # queue_by_flow: nb * flows more columns after the totals (_core.occupancy)
        self.queue_by_flow = queue_by_flow
        self.samp_q = np.zeros((ns, nb * (1 + n) if queue_by_flow and nb else nb))
        size = 4096 if trace else 1
        self.rtt_buf = np.zeros((size, 3))
        self.drop_buf = np.zeros((size, 4))
        # initial events
        for j, flow in enumerate(flows):
            self._push(flow.start, K.EV_START, j)
            if flow.stop < duration:
                self._push(flow.stop, K.EV_STOP, j)
        self._push(0.0, K.EV_SAMPLE, 0)
        self._ge_init = [i for i in range(nch) if ci[i, K.K_LOSS_KIND] == K.LOSS_GE]
        self._aqm_init = [i for i in range(nch) if ci[i, K.K_AQM] != K.AQM_DROPTAIL]

    # --- arrays -------------------------------------------------------------------
    def _alloc_pool(self, size, old=None):
        pi, pf = _rows(size, K.NPW)   # one row per packet, seen as ints and as floats
        free = np.zeros(size, dtype=np.int64)
        if old is None:
            free[:] = np.arange(size - 1, -1, -1)
            self.meta[K.M_NFREE] = size
        else:
            opi, opf, ofree = old
            used = opi.shape[0]
            pi[:used] = opi   # the whole rows, float columns' bits included
            nfree = self.meta[K.M_NFREE]
            extra = np.arange(size - 1, used - 1, -1)
            free[:extra.size] = extra
            free[extra.size:extra.size + nfree] = ofree[:nfree]
            self.meta[K.M_NFREE] = nfree + extra.size
        self.pi, self.pf, self.free = pi, pf, free

    def _alloc_heap(self, size):
        """The event heap (net.schedule), *size* entries, keeping those pending."""
        self.hi, self.hf = _heap_resized(getattr(self, "hi", None), size, self.meta[K.M_HEAP])

    def _alloc_timers(self, size):
        """The timer heap (net.schedule), *size* entries, keeping those pending."""
        self.ti, self.tf = _heap_resized(getattr(self, "ti", None), size,
                                         self.meta[K.M_TIMERS])

    # the heaps' fields as columns, for Python (the test harness, events())
    ht, hs, hk, ha, hb = (_heap_field("h", j) for j in range(5))
    tt, ts, tk, ta, tb = (_heap_field("t", j) for j in range(5))

    def _push(self, t, kind, a, b=0):
        # as net.schedule: a packet's arrival to the event heap, any other event to the other
        if kind == K.EV_ARRIVE:
            if self.meta[K.M_HEAP] >= self.ht.shape[0]:
                self._alloc_heap(2 * self.ht.shape[0])
            net.heap_push(self.hf, self.hi, self.meta, float(t), kind, a, b)
        else:
            if self.meta[K.M_TIMERS] >= self.tt.shape[0]:
                self._alloc_timers(2 * self.tt.shape[0])
            net.heap_push_in(self.tf, self.ti, self.meta, K.M_TIMERS, float(t), kind, a, b)

    # --- the loop -----------------------------------------------------------------
    def drive(self, rng, progress):
        if getattr(self, "_driven", False):   # a harness continuing a run: no second start
            self._ge_init = []
            self._aqm_init = []
        self._driven = True
        for i in self._ge_init:  # stationary start of each Gilbert-Elliott channel
            cf, ci = self.cf, self.ci
            pi_bad = cf[i, K.C_MEAN_BAD] / (cf[i, K.C_MEAN_GOOD] + cf[i, K.C_MEAN_BAD])
            bad = rng.random() < pi_bad
            ci[i, K.K_GE_BAD] = 1 if bad else 0
            cf[i, K.C_NEXT_SWITCH] = rng.exponential(
                cf[i, K.C_MEAN_BAD] if bad else cf[i, K.C_MEAN_GOOD])
        for i in self._aqm_init:  # each AQM draws from its own stream, seeded from the run's
            self.ci[i, K.K_AQM_RNG] = int(rng.integers(0, 2**63 - 1))
        bar = None
        if progress:
            from tqdm.auto import tqdm

            bar = tqdm(total=self.duration, unit="sim s", desc=self.scenario.name, leave=False)
        chunk = self.duration / 100 if bar is not None else self.duration
        horizon = 0.0
        wall = 0.0
        shown = 0.0
        ctx = self.ctx()
        while horizon < self.duration:
            horizon = min(self.duration, horizon + chunk)
            while True:
                start = time.perf_counter()
                code = dispatch.run_kernel(horizon, ctx, rng)
                if code == K.NEED_PYTHON:
                    f = int(self.meta[K.M_PYTHON_FLOW])
                    self.specs[f].python_step(self, f)
                wall += time.perf_counter() - start
                if code == K.DONE:
                    break
                if code == K.NEED_POOL:
                    margin = int(self.meta[K.M_MARGIN])
                    if self.meta[K.M_TIMERS] + margin >= self.tt.shape[0]:
                        self._alloc_timers(2 * self.tt.shape[0])
                    if self.meta[K.M_NFREE] < margin or self.meta[K.M_HEAP] + margin \
                            + 64 * len(self.scenario.flows) >= self.ht.shape[0]:
                        size = 2 * self.pi.shape[0]
                        self._alloc_pool(size, (self.pi, self.pf, self.free))
                        self._alloc_heap(size + 64 * len(self.scenario.flows) + 256)
                    ctx = self.ctx()
                elif code == K.NEED_TRACE:
                    self.rtt_buf = _grow(self.rtt_buf, int(self.meta[K.M_NRTT]))
                    self.drop_buf = _grow(self.drop_buf, int(self.meta[K.M_NDROP]))
                    ctx = self.ctx()
                elif code == K.UNLINKED:
                    raise RuntimeError("the event loop was called without the addresses of "
                                       "its transport services (ctlcc.sim._core.net.services)")
                elif code == K.SENDER_ERROR:
                    f = int(self.meta[K.M_ERROR_FLOW])
                    raise ParameterError(self.specs[f].error_message(self, f))
                elif code == K.UNDISPATCHED:
                    spec = senders_mod.BY_CODE[int(self.meta[K.M_UNDISPATCHED]) - 1]
                    kind = _hooks.KINDS[int(self.meta[K.M_HOOK])]
                    raise RuntimeError(
                        f"sender {spec.name!r} has no {kind!r} hook ("
                        f"{_hooks.HOOKS[kind][0]} in {senders_mod.hooks_module(spec).__name__}) "
                        f"but one of its flows needs it")
            if bar is not None:
                bar.update(horizon - shown)
                shown = horizon
        if bar is not None:
            bar.close()
        self.g[K.G_NOW] = self.duration
        return wall

    def ctx(self):
        """The run's arrays as the kernel's namedtuple."""
        ctx = net.Ctx(self.g, self.meta, self.hf, self.hi, self.tf, self.ti, self.pi, self.pf,
                      self.free, self.cf, self.ci, self.ring_s, self.ring_e, self.loss_list,
                      self.ff, self.fi, self.fpath, self.rpath, self.rbits,
                      self.tab, self.hooks, self.bott, self.samp_t, self.samp_w, self.samp_r,
                      self.samp_sent, self.samp_dlv, self.samp_rcv, self.samp_q, self.rtt_buf,
                      self.drop_buf)
        if not getattr(self, "_typed", False):
            # the hooks read these arrays at the types they were compiled for
            import numba

            if numba.typeof(ctx) != _hooks.CTX_TYPE:
                raise TypeError(f"the run's arrays have the numba type {numba.typeof(ctx)}, "
                                f"not the {_hooks.CTX_TYPE} the hooks are compiled for")
            self._typed = True
        return ctx

    # --- results ------------------------------------------------------------------
    def result(self, seed, wall):
        sc, T = self.scenario, self.duration
        fi, ff = self.fi, self.ff
        alive = np.ones(self.pi.shape[0], dtype=bool)
        alive[self.free[:self.meta[K.M_NFREE]]] = False
        data_alive = alive & (self.pi[:, K.P_KIND] == 0)
        in_flight = np.bincount(self.pi[data_alive, K.P_FLOW], minlength=len(sc.flows))
        flows = []
        for j, flow in enumerate(sc.flows):
            sent, delivered = int(fi[j, K.I_SENT]), int(fi[j, K.I_DELIVERED])
            dq, dl = int(fi[j, K.I_DROP_Q]), int(fi[j, K.I_DROP_L])
            if sent != delivered + dq + dl + int(in_flight[j]):
                raise ConservationError(
                    f"flow {j} ({flow.name}): sent={sent} != delivered={delivered} + "
                    f"dropped={dq + dl} + in flight={int(in_flight[j])}")
            active = max(0.0, min(flow.stop, T) - flow.start)
            unique = int(fi[j, K.I_UNIQUE])
            per = 1.0 / active if active > 0 else 0.0
            flows.append(FlowStats(
                name=flow.name or f"flow{j}", protocol=flow.protocol, sent=sent,
                retransmitted=int(fi[j, K.I_RETX]), delivered=delivered,
                delivered_unique=unique, dropped=dq + dl, dropped_queue=dq, dropped_loss=dl,
                in_flight=int(in_flight[j]), acks_dropped=int(fi[j, K.I_ACK_DROP]),
                timeouts=int(fi[j, K.I_TIMEOUTS]), fast_retransmits=int(fi[j, K.I_FAST_RETX]),
                active_time=active, throughput_bps=sent * sc.data_bits * per,
                goodput_bps=unique * 8 * sc.payload_bytes * per,
                loss_rate=(dq + dl) / sent if sent else 0.0,
                srtt=float(ff[j, K.F_SRTT]), rto=float(ff[j, K.F_RTO]),
                marked=int(fi[j, K.I_MARKED]), ecn_reductions=int(fi[j, K.I_ECN_CUTS])))
        queues = []
        for j, key in enumerate(sc.bottlenecks):
            c = int(self.bott[j])
            wait, busy = _occupancy.clip_tail(c, T, self.ci, self.cf, self.ring_s,
                                              self.ring_e)
            queues.append(QueueStats(
                link=key, mean=float(wait / T), max=int(self.ci[c, K.K_MAXQ]),
                drops=int(self.ci[c, K.K_DROPS]), losses=int(self.ci[c, K.K_LOSSES]),
                arrivals=int(self.ci[c, K.K_ARRIVALS]), utilisation=float(busy / T),
                aqm_drops=int(self.ci[c, K.K_AQM_DROPS]), marks=int(self.ci[c, K.K_MARKS])))
        k = int(self.meta[K.M_NSAMPLES])
        nb, n = len(sc.bottlenecks), len(sc.flows)
        by_flow = None
        if self.queue_by_flow:
            by_flow = self.samp_q[:k, nb:].reshape(k, nb, n).copy()
        # the rows written so far, not copies: the event loop writes only rows k and later,
        # and a copy was, at 1000 flows, 80 MB of memory to fault in and fill per run
        samples = Traces(self.samp_t[:k], self.samp_w[:k], self.samp_r[:k],
                         self.samp_sent[:k], self.samp_dlv[:k],
                         self.samp_q[:k, :nb].copy(), np.zeros((0, 3)), np.zeros((0, 4)),
                         by_flow, self.samp_rcv[:k])
        traces = None
        if self.trace:
            traces = Traces(samples.time, samples.window, samples.rate, samples.sent,
                            samples.delivered, samples.queue,
                            self.rtt_buf[:self.meta[K.M_NRTT]].copy(),
                            self.drop_buf[:self.meta[K.M_NDROP]].copy(), by_flow,
                            samples.received)
        return SimResult(sc, T, seed if not isinstance(seed, np.random.Generator) else None,
                         tuple(flows), tuple(queues), traces, int(self.meta[K.M_EVENTS]), wall,
                         samples, tuple(flow.sender.final_state(ff, fi, j)
                                        for j, flow in enumerate(sc.flows)))

def _module_hook_table(module):
    """The addresses of the hooks a sender module defines, one per kind (0: none),
    compiling them if needed."""
    defined = _hooks.module_hooks(module)
    row = []
    for kind in _hooks.KINDS:
        if kind in defined:
            row.append(_hooks.address(module, kind))
        elif kind == "data":
            from ._core import receiver

            row.append(_hooks.address(receiver, "data"))
        else:
            row.append(0)
    return row


def _pending(specs):
    """What a run of *specs* still has to compile: [(label, estimated seconds, compile)].

    The event loop and the transport services; the hooks of each sender module
    the specs use; what each spec adds (:meth:`SenderSpec.compilations`: a law).
    """
    todo = []
    if _cache.will_compile():
        todo.append(("the event loop", _COMPILE_SECONDS["loop"], _compile_loop))
    modules = {}
    for spec in specs:
        modules.setdefault(senders_mod.hooks_module(spec), []).append(spec)
    from ._core import receiver

    for module, group in modules.items():
        kinds = list(_hooks.module_hooks(module))
        parts = [(module, kind) for kind in kinds]
        if "data" not in kinds:
            parts.append((receiver, "data"))
        if not all(_hooks.is_ready(m, k) for m, k in parts):
            names = sorted({spec.name for spec in group})
            seconds = _COMPILE_SECONDS.get(module.__name__.rsplit(".", 1)[-1],
                                           _COMPILE_SECONDS["sender"])
            todo.append((f"sender {'/'.join(names)}", seconds,
                         lambda parts=parts: [_hooks.address(m, k) for m, k in parts]))
    seen = set()
    for spec in specs:
        for item in spec.compilations():
            if item.key not in seen and not item.ready():
                seen.add(item.key)
                todo.append((item.label, item.seconds, item.compile))
    return todo


def _compile_loop():
    dispatch.run_kernel.compile((_hooks.types.float64, _hooks.CTX_TYPE, _hooks.RNG_TYPE))
    net.services()


def prepare(specs, progress=False):
    """Compile (or load from numba's disk cache) what a run of *specs* needs.

    Prints one line on stderr first when anything must be compiled (what,
    and about how long), and with *progress* one line per piece as it is
    done.  Returns the pieces compiled, ``[(label, CPU seconds)]``.
    """
    _cache.ensure_fresh()
    todo = _pending(specs)
    if not todo:
        return []
    cached = [(label, t) for label, t, _ in todo if not label.startswith("law ")]
    laws = [(label, t) for label, t, _ in todo if label.startswith("law ")]  # per process
    parts = []
    if cached:
        parts.append(f"{'; '.join(label for label, _ in cached)}: about "
                     f"{sum(t for _, t in cached):.0f} s, once (cached on disk afterwards)")
    if laws:
        parts.append(f"{'; '.join(label for label, _ in laws)}: about "
                     f"{sum(t for _, t in laws):.0f} s, once per process")
    print(f"ctlcc: compiling the packet engine - {'; and '.join(parts)}", file=sys.stderr,
          flush=True)
    done = []
    for label, _, compile_ in todo:
        start = time.process_time()
        compile_()
        seconds = time.process_time() - start
        done.append((label, seconds))
        if progress:
            print(f"ctlcc:   {label}: {seconds:.0f} s", file=sys.stderr, flush=True)
    return done


def warm(protocols=None, progress=True):
    """Compile the packet engine for *protocols* now (before forking workers, say).

    Parameters
    ----------
    protocols : str, SenderSpec, WindowLaw, RateLaw or a sequence of them, optional
        What the coming runs use (default: every protocol of
        :data:`ctlcc.sim.senders.PROTOCOLS`).
    progress : bool
        Print one line per piece compiled on stderr.

    Returns
    -------
    list of (str, float)
        The pieces compiled and their CPU seconds (empty when everything was
        already compiled or cached on disk).

    Examples
    --------
    >>> warm(["reno"], progress=False) is not None
    True
    """
    from ..laws.user import _Law

    progress = check_bool("progress", progress)
    if protocols is None:
        protocols = senders_mod.PROTOCOLS
    elif isinstance(protocols, (str, senders_mod.SenderSpec, _Law)):
        protocols = [protocols]
    try:
        protocols = list(protocols)
    except TypeError:
        raise ParameterError(f"protocols must be a protocol name, a sender spec, a law or a "
                             f"sequence of them, got {protocols!r}") from None
    specs = []
    for protocol in protocols:
        if isinstance(protocol, str) and protocol in senders_mod.SENDERS:
            protocol = senders_mod.SENDERS[protocol].example()   # Cbr needs a rate, say
        try:
            specs.append(senders_mod.resolve(protocol))
        except ParameterError as err:
            raise ParameterError(f"protocols: {err} (in {protocols!r})") from None
    return prepare(specs, progress=progress)


def _check_memory(scenario, duration, sample_interval, queue_by_flow=False):
    """Refuse a run whose arrays would need more than MAX_RUN_BYTES, before allocating."""
    n = len(scenario.flows)
    ns = duration / sample_interval + 2.0          # float: no overflow for duration=1e308
    nb = len(scenario.bottlenecks)
    window = scenario.tcp.max_window
    shapes = [flow.sender.table_shape(scenario.tcp) for flow in scenario.flows]
    ring = 2.0 ** math.ceil(math.log2(2 * window + 2))
    pool = 4.0 * (window + 16) + 1024
    terms = {
        "samples (duration/sample_interval x flows)": 8.0 * ns * (
            5 * n + nb + 1 + (nb * n if queue_by_flow else 0)),
        "window pools (tcp.max_window x flows)": n * ring + 8.0 * pool * (K.NPW + 1)
        + 8.0 * 5 * (pool + 64 * n + 256),
        "link buffers": 16.0 * sum(link.buffer + 1 for link in scenario.links) * 2,
        "flow paths": 16.0 * n * max(len(f.path) for f in scenario.flows),
        "sender tables (flows x rows x width)": 8.0 * n * max(
            [1] + [r for r, _ in shapes]) * max([1] + [w for _, w in shapes]),
    }
    total = sum(terms.values())
    if total > MAX_RUN_BYTES:
        largest = max(terms, key=terms.get)
        raise ParameterError(
            f"the run would need about {total / 2**30:.3g} GiB of arrays (limit "
            f"MAX_RUN_BYTES = {MAX_RUN_BYTES / 2**30:g} GiB), mostly {largest}: "
            f"got duration={duration!r}, sample_interval={sample_interval!r}, flows={n}, "
            f"max_window={window}; shorten the run, sample less often or split it")


def _grow(buf, used):
    new = np.zeros((2 * buf.shape[0], buf.shape[1]))
    new[:used] = buf[:used]
    return new


def _check_seed(seed):
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ParameterError(f"seed must be an integer >= 0 or a numpy Generator, got {seed!r}")
    return int(seed)
