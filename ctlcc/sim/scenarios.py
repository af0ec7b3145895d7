# ctlcc.sim.scenarios - topologies and the papers' simulation setups
"""Scenarios for the packet engine: links, flows and the papers' presets.

A :class:`Scenario` is a frozen description of a network - nodes joined by
duplex point-to-point :class:`Link` s with a FIFO of a given packet
capacity in each direction (drop-tail, or on the data direction an active
queue management, RED or PI: ``Link(..., queue=RedParams(...))``) - and
the :class:`Flow` s that cross it.
Everything the engine does is determined by these fields, so the ns-3
comparison (:mod:`ctlcc.sim.ns3`) configures ns-3 from the same objects.

Conventions every field follows (SI inside, bytes only at the edges):

* rates in bit/s, delays in s, buffers in packets, times in s;
* a link's ``buffer`` is the waiting room of each direction's queue and
  does **not** count the packet being serialised (ns-3's
  ``DropTailQueue<Packet>`` on a ``PointToPointNetDevice`` behaves the same:
  at most ``buffer + 1`` packets are in a direction at once);
* a link's ``loss`` model acts on the ``a -> b`` direction only (data
  direction); packets are lost at the far end, after using the link
  (ns-3's receive error model on the far device);
* a link's ``queue`` (drop-tail by default, or RED / PI of
  :mod:`ctlcc.laws.aqm`) manages the ``a -> b`` queue; the ``b -> a``
  queue (ACKs) stays drop-tail.  The AQM decides on each arrival before
  the FIFO takes it, from the packets *waiting* (not the one in
  transmission); ECN marking needs both the queue's ``ecn`` and the
  scenario's ``TcpOptions(ecn=True)``;
* a data packet is ``payload_bytes + header_bytes`` on the wire, an ACK
  ``ack_bytes``; the defaults (1000 + 54, 54) are ns-3.44's sizes with
  timestamps and PPP framing.  The thesis' ns-2 runs put 1000 bytes on
  the wire: pass ``header_bytes=0`` to reproduce that.

Builders: :func:`single_bottleneck`, :func:`dumbbell`, :func:`parking_lot`;
named setups of the papers: :func:`preset` (see :data:`PRESETS`).
"""

import math
import numbers
from dataclasses import dataclass, field, replace

from .._validation import (
    argument_name,
    check_bool,
    check_instance,
    check_interval,
    check_nonnegative,
    check_nonnegative_int,
    check_positive,
    check_positive_int,
    check_result,
    check_sequence,
)
from ..errors import ParameterError
from ..laws.aqm import PiParams, RedParams
from ..laws.user import _Law
from .senders import PROTOCOLS, Cbr, SenderSpec, resolve

__all__ = [
    "PROTOCOLS",
    "Bernoulli",
    "GilbertElliott",
    "PacketList",
    "Link",
    "Flow",
    "TcpOptions",
    "Scenario",
    "single_bottleneck",
    "dumbbell",
    "parking_lot",
    "preset",
    "PRESETS",
    "thesis_fig3_7_sufficient",
    "thesis_fig3_7_insufficient",
    "thesis_fig3_14",
    "thesis_fig3_18",
    "thesis_fig4_7",
    "thesis_fig4_18",
    "sttp_fig3",
    "sttp_experiment1",
    "sttp_table2",
    "sttp_fig2",
    "sttp_rtt_example",
    "primo_fig1_top",
    "primo_fig1_bottom",
    "cbraa_fig2",
]

# PROTOCOLS (re-exported from ctlcc.sim.senders, whose registry is the one list):
# the sender algorithms the engine runs ("cbr" and "poisson" are open-loop
# sources without ACKs, used to check the engine against queueing theory).

#: Default buffer of access and egress links: large, so that only the
#: bottleneck queues drop. [packets]
ACCESS_BUFFER = 1000
#: The queue kinds of :class:`Link`: drop-tail (this string, the default) and the AQM
#: parameter classes of :mod:`ctlcc.laws.aqm`.
DROPTAIL = "droptail"
QUEUE_KINDS = (DROPTAIL, RedParams, PiParams)

# Bounds on the counts that size the engine's arrays and loops: a typo such
# as ``hops=1e308`` is refused at once instead of hanging or exhausting
# memory.  ``run`` also checks the memory a whole run needs before it
# allocates (``ctlcc.sim.engine.MAX_RUN_BYTES``).
#: Largest receiver window: RFC 7323's window scaling caps a window at
#: 2**30 bytes, about 2**20 segments of 1000 bytes. [packets]
MAX_WINDOW = 2**20
#: Largest drop-tail buffer of one link direction. [packets]
MAX_BUFFER = 2**24
#: Largest number of flows a builder makes. [1]
MAX_FLOWS = 10_000
#: Largest number of router-to-router links of :func:`parking_lot`. [1]
MAX_HOPS = 1_000
#: Largest size of a packet on the wire, payload plus headers: an IP packet's total
#: length is a 16-bit field (no jumbograms). [bytes]
MAX_PACKET_BYTES = 65_535


@dataclass(frozen=True)
class Bernoulli:
    """Independent per-packet loss with probability ``p``.

    Attributes
    ----------
    p : float
        Packet-error probability, in [0, 1). [1]

    Examples
    --------
    >>> Bernoulli(0.01).mean_loss
    0.01
    """

    p: float

    def __post_init__(self):
        object.__setattr__(self, "p", check_interval("loss p", self.p, 0.0, 1.0, closed="left",
                                                     scalar=True))

    @property
    def mean_loss(self):
        """Long-run fraction of packets lost. [1]"""
        return self.p


@dataclass(frozen=True)
class GilbertElliott:
    """Two-state bursty loss with exponential sojourns (thesis §4.4.1.2).

    The link alternates between a good state and a bad state; the time
    spent in each is exponentially distributed with the given mean, and a
    packet crossing the link is lost with the probability of the state the
    link is in when the packet reaches its far end.

    Attributes
    ----------
    mean_good : float
        Mean sojourn in the good (error-free) state S0. [s]
    mean_bad : float
        Mean sojourn in the bad (error) state S1. [s]
    loss_good : float
        Loss probability in the good state, in [0, 1). [1]
    loss_bad : float
        Loss probability in the bad state, in [0, 1]. [1]

    References
    ----------
    Xu (2002), §4.4.1.2 (two states, exponential
    durations; Fig. 4.13: mean burst 8 packets, overall error ratio 1e-2).

    Examples
    --------
    Fig. 4.13's channel on a 1.5 Mb/s link (1000-byte packets, 1/187.5 s
    each): bursts of 8 packets, 1 % of packets lost overall:

    >>> ge = GilbertElliott.from_burst(8, 0.01, packet_time=1 / 187.5)
    >>> round(ge.mean_loss, 6)
    0.01
    """

    mean_good: float
    mean_bad: float
    loss_good: float = 0.0
    loss_bad: float = 1.0

    def __post_init__(self):
        for name in ("mean_good", "mean_bad"):
            object.__setattr__(self, name, check_positive(name, getattr(self, name), scalar=True))
        object.__setattr__(self, "loss_good", check_interval(
            "loss_good", self.loss_good, 0.0, 1.0, closed="left", scalar=True))
        object.__setattr__(self, "loss_bad", check_interval(
            "loss_bad", self.loss_bad, 0.0, 1.0, closed="both", scalar=True))

    @property
    def pi_bad(self):
        """Stationary probability of the bad state. [1]"""
        return self.mean_bad / (self.mean_good + self.mean_bad)

    @property
    def mean_loss(self):
        """Long-run loss probability pi_good*loss_good + pi_bad*loss_bad. [1]"""
        return (1 - self.pi_bad) * self.loss_good + self.pi_bad * self.loss_bad

    @classmethod
    def from_burst(cls, mean_burst_packets, loss_ratio, packet_time):
        """Channel with a mean burst length and an overall loss ratio.

        Parameters
        ----------
        mean_burst_packets : float
            Mean number of consecutive packets lost in a burst (link kept
            busy). [packets]
        loss_ratio : float
            Overall packet error ratio, in (0, 1). [1]
        packet_time : float
            Serialisation time of one packet on the link. [s]
        """
        mean_burst_packets = check_positive("mean_burst_packets", mean_burst_packets, scalar=True)
        loss_ratio = check_interval("loss_ratio", loss_ratio, 0.0, 1.0, scalar=True)
        packet_time = check_positive("packet_time", packet_time, scalar=True)
        inputs = dict(mean_burst_packets=mean_burst_packets, loss_ratio=loss_ratio,
                      packet_time=packet_time)
        mean_bad = mean_burst_packets * packet_time
        mean_good = mean_bad * (1 - loss_ratio) / loss_ratio
        for what, value in (("the bad-state sojourn", mean_bad),
                            ("the good-state sojourn", mean_good)):
            check_result(what, value, **inputs)
            if value <= 0:
                raise ParameterError(f"{what} underflows to 0 for "
                                     + ", ".join(f"{k}={v!r}" for k, v in inputs.items())
                                     + ": got a product below double precision's range")
        return cls(mean_good=mean_good, mean_bad=mean_bad)


@dataclass(frozen=True)
class PacketList:
    """Lose the listed packets, counted in the order they cross the link.

    Attributes
    ----------
    indices : tuple of int
        1-based indices of the data packets to lose (the thesis' Fig. 4.18
        run loses "the 2000th and the 2001st packet"); empty for a lossless
        link with the same loss model in place. [packets]
    """

    indices: tuple

    def __post_init__(self):
        values = check_sequence("indices", self.indices, min_length=0,
                                item=lambda label, i: check_positive_int(label, i, maximum=2**62))
        # one pass over the sorted indices (a count per item was quadratic: 30 000 indices of a
        # 3-Mpacket burst channel took half a minute)
        ordered = sorted(values)
        repeated = sorted({a for a, b in zip(ordered, ordered[1:]) if a == b})
        if repeated:
            raise ParameterError(f"indices must be distinct packet indices (each packet is lost "
                                 f"once); got {repeated} more than once in {values!r}")
        object.__setattr__(self, "indices", tuple(ordered))


@dataclass(frozen=True)
class Link:
    """A duplex point-to-point link between nodes ``a`` and ``b``.

    Attributes
    ----------
    a, b : str
        Node names; ``a -> b`` is the data direction.
    rate : float
        Transmission rate of each direction. [bit/s]
    delay : float
        One-way propagation delay. [s]
    buffer : int
        Waiting room of each direction's drop-tail FIFO, not counting the
        packet being transmitted, in 1..:data:`MAX_BUFFER`. [packets]
    loss : Bernoulli, GilbertElliott, PacketList or None
        Loss on the ``a -> b`` direction (None: lossless).
    queue : "droptail", RedParams or PiParams
        Management of the ``a -> b`` queue: drop-tail (default), RED
        (:class:`ctlcc.laws.aqm.RedParams`, per arriving packet as ns-3's
        ``RedQueueDisc``) or Hollot et al.'s PI controller
        (:class:`ctlcc.laws.aqm.PiParams`).  RED's ``min_threshold`` and
        PI's ``reference`` must lie below ``buffer`` (else the AQM never
        acts: the queue overflows first).  The ``b -> a`` queue is
        drop-tail.

    Examples
    --------
    >>> from ctlcc.laws.aqm import RedParams
    >>> Link("R", "D", 10e6, 0.01, 100, queue=RedParams(20, 60, 0.1)).queue.max_threshold
    60.0
    >>> Link("R", "D", 10e6, 0.01, 100, queue="codel")
    Traceback (most recent call last):
    ...
    ctlcc.errors.ParameterError: queue must be 'droptail', a ctlcc.laws.aqm.RedParams or a ctlcc.laws.aqm.PiParams; got 'codel'
    """

    a: str
    b: str
    rate: float
    delay: float
    buffer: int = ACCESS_BUFFER
    loss: object = None
    queue: object = DROPTAIL

    def __post_init__(self):
        check_instance("a", self.a, str)
        check_instance("b", self.b, str)
        object.__setattr__(self, "rate", check_positive("rate", self.rate, scalar=True))
        object.__setattr__(self, "delay", check_positive("delay", self.delay, scalar=True))
        object.__setattr__(self, "buffer", _check_buffer(self.buffer))
        object.__setattr__(self, "loss", _as_loss(self.loss))
        _check_queue(self.queue, self.buffer)
        if self.a == self.b:
            raise ParameterError(f"link endpoints must differ, got {self.a!r} twice")

    @property
    def aqm(self):
        """Whether the ``a -> b`` queue runs an AQM (RED or PI)."""
        return not isinstance(self.queue, str)


@dataclass(frozen=True)
class Flow:
    """A long-lived (greedy) transfer along a path of nodes.

    Attributes
    ----------
    path : tuple of str
        Nodes from source to destination; ACKs return along the reverse.
    protocol : str, SenderSpec, WindowLaw or RateLaw, optional
        One of :data:`PROTOCOLS` (the sender with the paper's defaults), a
        sender spec, or a researcher's law (:class:`ctlcc.WindowLaw`,
        :class:`ctlcc.RateLaw`); after construction always the sender's
        name (``"windowlaw:<law name>"`` for a law).  Default: the name of
        ``sender``, or "reno".
    start : float
        Time the sender starts, >= 0. [s]
    stop : float
        Time the sender stops transmitting (new data and retransmissions),
        > start; ``inf`` for the whole run. [s]
    name : str, optional
        Label used in results (default "flow<i>").
    sender : SenderSpec, WindowLaw or RateLaw, optional
        The sender and its parameters, e.g. ``Stpd(gains=(0.033, 0.368))``,
        ``Primo(PrimoParams(tau=2))``, ``Cbr(rate=100)`` (see
        :mod:`ctlcc.sim.senders`), or a law (run by
        :class:`~ctlcc.sim.senders.WindowLawSender` or
        :class:`~ctlcc.sim.senders.RateLawSender`); after construction
        always a spec.

    Examples
    --------
    >>> from ctlcc.sim.senders import Stpd
    >>> f = Flow(("S", "D"), sender=Stpd(gains=(0.1, 0.2)))
    >>> f.protocol, f.sender.gains
    ('stpd', (0.1, 0.2))
    >>> Flow(("S", "D"), "stpd").sender == Stpd()
    True
    """

    path: tuple
    protocol: object = None
    start: float = 0.0
    stop: float = math.inf
    name: str = None
    sender: SenderSpec = None

    def __post_init__(self):
        # a str is a sequence of characters: Flow(path="SD") would run S -> D by accident
        path = check_sequence("path", self.path, min_length=2,
                              item=lambda label, node: check_instance(label, node, str))
        repeated = sorted({node for node in path if path.count(node) > 1})
        if repeated:
            raise ParameterError(f"path must visit distinct nodes (a self-loop or a cycle "
                                 f"carries no packet anywhere); got {path!r}, which visits "
                                 f"{', '.join(map(repr, repeated))} more than once")
        object.__setattr__(self, "path", path)
        spec = resolve(self.protocol, self.sender)
        object.__setattr__(self, "sender", spec)
        object.__setattr__(self, "protocol", spec.protocol)
        object.__setattr__(self, "start", check_nonnegative("start", self.start, scalar=True))
        object.__setattr__(self, "stop", check_positive("stop", self.stop, allow_inf=True,
                                                        scalar=True))
        check_instance("name", self.name, str, allow_none=True)
        if not (self.stop > self.start):
            raise ParameterError(
                f"stop must be > start (a flow cannot stop before it starts); "
                f"got start={self.start!r}, stop={self.stop!r}")


@dataclass(frozen=True)
class TcpOptions:
    """Sender options shared by every window-based flow of a scenario.

    Attributes
    ----------
    initial_window : int
        Initial congestion window, >= 1 (ns-2 and RFC 2581: 1; ns-3.44: 10).
        [packets]
    min_rto : float
        Lower bound of the retransmission timeout (RFC 6298 (2.4): 1 s;
        ns-3.44 default 1 s). [s]
    initial_rto : float
        RTO before the first RTT sample (RFC 6298 (2.1): 1 s). [s]
    max_rto : float
        Upper bound of the backed-off RTO, >= min_rto (RFC 6298 (2.5):
        >= 60 s). [s]
    max_window : int
        Receiver window: ceiling of every congestion window and initial
        slow-start threshold, in 1..:data:`MAX_WINDOW`. [packets]
    dupack_threshold : int
        Duplicate ACKs that trigger fast retransmit (RFC 5681: 3). [packets]
    vegas_alpha, vegas_beta, vegas_gamma : float
        TCP Vegas thresholds on the queued-packet estimate diff (Brakmo &
        Peterson; alpha=1, beta=3, gamma=1). [packets]
    limited_transmit : bool
        RFC 3042: send one new segment on each of the first two duplicate
        ACKs (off, as in ns-2's Reno; ns-3.44 turns it on by default).
    timestamps : bool
        RFC 7323 round-trip time measurement: every ACK of new data gives
        an RTT sample to the RFC 6298 estimator, also when it acknowledges
        a retransmitted segment, so a backed-off RTO is recomputed at the
        first new ACK after a timeout (ns-3.44's and Linux's default).
        Off (default): Karn's rule, the backed-off RTO is kept until a
        segment sent once is acknowledged (RFC 6298 §5, ns-2).  Sizes on
        the wire are set by ``Scenario.header_bytes`` either way.
    ecn : bool
        RFC 3168 Explicit Congestion Notification: the data of every sender
        that reacts to ECN (``SenderSpec.ecn_capable``: Reno, NewReno,
        Tahoe, SACK) is sent ECN-capable, so an AQM queue with ``ecn`` on
        marks it instead of dropping it; the receiver echoes a mark (ECE)
        until the sender's CWR, and the sender halves its window once per
        window of data without retransmitting.  Senders that ignore marks
        (Vegas, ST-PD, Primo, the rate senders, a user's law) send non-ECT
        data, which the AQM drops.  Off by default.
    """

    initial_window: int = 1
    min_rto: float = 1.0
    initial_rto: float = 1.0
    max_rto: float = 60.0
    max_window: int = 4096
    dupack_threshold: int = 3
    vegas_alpha: float = 1.0
    vegas_beta: float = 3.0
    vegas_gamma: float = 1.0
    limited_transmit: bool = False
    timestamps: bool = False
    ecn: bool = False

    def __post_init__(self):
        check_positive_int("initial_window", self.initial_window, maximum=MAX_WINDOW)
        for name in ("min_rto", "initial_rto", "max_rto"):
            object.__setattr__(self, name, check_positive(name, getattr(self, name), scalar=True))
        check_positive_int("max_window", self.max_window, maximum=MAX_WINDOW)
        check_positive_int("dupack_threshold", self.dupack_threshold, maximum=MAX_WINDOW)
        for name in ("vegas_alpha", "vegas_beta", "vegas_gamma"):
            object.__setattr__(self, name, check_nonnegative(name, getattr(self, name),
                                                             scalar=True))
        check_bool("limited_transmit", self.limited_transmit)
        check_bool("timestamps", self.timestamps)
        check_bool("ecn", self.ecn)
        if self.max_rto < self.min_rto:
            raise ParameterError(
                f"max_rto must be >= min_rto = {self.min_rto!r} (RFC 6298 (2.4)-(2.5)), "
                f"got {self.max_rto!r}")
        if self.initial_rto > self.max_rto:
            raise ParameterError(
                f"initial_rto must be <= max_rto = {self.max_rto!r} (the RTO is never above "
                f"its upper bound, RFC 6298 (2.5)), got {self.initial_rto!r}")
        if self.initial_window > self.max_window:
            raise ParameterError(
                f"initial_window must be <= max_window={self.max_window}, got {self.initial_window}")
        if not self.vegas_alpha <= self.vegas_beta:
            raise ParameterError(
                f"vegas_beta must be >= vegas_alpha = {self.vegas_alpha!r} (Vegas needs "
                f"0 <= alpha <= beta), got {self.vegas_beta!r}")


@dataclass(frozen=True)
class Scenario:
    """A network, its flows and the queues to report.

    Attributes
    ----------
    name : str
    links : tuple of Link
    flows : tuple of Flow
    bottlenecks : tuple of (str, str)
        Directed queues (``(a, b)`` = the queue feeding a -> b) reported in
        ``SimResult.queues`` and the traces.
    payload_bytes : int
        Payload of a data packet (application bytes). [bytes]
    header_bytes : int
        Headers added on the wire to each data packet. [bytes]
    ack_bytes : int
        Size of an ACK on the wire. [bytes]
    tcp : TcpOptions
    description : str
        What the scenario reproduces, with its source.
    """

    name: str
    links: tuple
    flows: tuple
    bottlenecks: tuple = ()
    payload_bytes: int = 1000
    header_bytes: int = 54
    ack_bytes: int = 54
    tcp: TcpOptions = field(default_factory=TcpOptions)
    description: str = ""

    def __post_init__(self):
        check_instance("name", self.name, str)
        check_instance("description", self.description, str)
        check_instance("tcp", self.tcp, TcpOptions)
        for name, cls in (("links", Link), ("flows", Flow)):
            object.__setattr__(self, name, check_sequence(
                name, getattr(self, name), min_length=1,
                item=lambda label, item, cls=cls: check_instance(label, item, cls)))
        for name, check in (("payload_bytes", check_positive_int),
                            ("header_bytes", check_nonnegative_int),
                            ("ack_bytes", check_positive_int)):
            object.__setattr__(self, name, check(name, getattr(self, name),
                                                 maximum=MAX_PACKET_BYTES))
        if self.payload_bytes + self.header_bytes > MAX_PACKET_BYTES:
            raise ParameterError(
                f"payload_bytes + header_bytes must be <= {MAX_PACKET_BYTES} (an IP packet's "
                f"largest size), got {self.payload_bytes} + {self.header_bytes}")
        bottlenecks = check_sequence(
            "bottlenecks", self.bottlenecks, min_length=0,
            item=lambda label, b: check_sequence(
                label, b, min_length=2, max_length=2,
                item=lambda inner, node: check_instance(inner, node, str)))
        repeated = sorted({b for b in bottlenecks if bottlenecks.count(b) > 1})
        if repeated:
            raise ParameterError(f"bottlenecks must name each queue once, got {repeated} "
                                 f"more than once")
        object.__setattr__(self, "bottlenecks", bottlenecks)
        directed = self.channels()
        for flow in self.flows:
            for hop in zip(flow.path[:-1], flow.path[1:]):
                if hop not in directed:
                    raise ParameterError(
                        f"flows: flow path {flow.path!r} uses {hop[0]}->{hop[1]}, which no "
                        f"link joins; got links {sorted(directed)}")
        for queue in self.bottlenecks:
            if queue not in directed:
                raise ParameterError(f"bottlenecks: each must be a link direction (a, b) of "
                                     f"{sorted(directed)}; got {queue!r}")

    def channels(self):
        """Directed channels ``{(a, b): (link, forward)}`` of the network."""
        out = {}
        for link in self.links:
            for key, forward in (((link.a, link.b), True), ((link.b, link.a), False)):
                if key in out:
                    raise ParameterError(f"links must join each pair of nodes once; got two "
                                         f"links joining {key[0]} and {key[1]}")
                out[key] = (link, forward)
        return out

    @property
    def data_bits(self):
        """Size of a data packet on the wire. [bit]"""
        return 8 * (self.payload_bytes + self.header_bytes)

    @property
    def payload_fraction(self):
        """Payload share of a data packet on the wire. [1]"""
        return self.payload_bytes / (self.payload_bytes + self.header_bytes)

    def with_flows(self, **changes):
        """Copy with every flow changed by ``dataclasses.replace(**changes)``.

        ``protocol="name"`` alone gives every flow that protocol's default
        sender; ``sender=spec`` alone (or ``protocol=spec``) gives them that
        spec.
        """
        if "protocol" in changes and "sender" not in changes:
            changes["sender"] = None
        if "sender" in changes and "protocol" not in changes:
            changes["protocol"] = None
        return replace(self, flows=tuple(replace(f, **changes) for f in self.flows))

    def with_queue(self, queue, at=None):
        """Copy with the queue of one link direction managed by *queue*.

        Parameters
        ----------
        queue : "droptail", RedParams or PiParams
            See :class:`Link`.
        at : (str, str), optional
            The queue ``(a, b)``: a link's data direction ``a -> b`` (an AQM
            manages only that direction).  Default: the first of
            ``bottlenecks``.

        Returns
        -------
        Scenario

        Examples
        --------
        >>> from ctlcc.laws.aqm import PiParams
        >>> s = single_bottleneck(buffer=100).with_queue(PiParams(1e-4, 9e-5, 50.0, 160.0))
        >>> s.links[1].queue.reference
        50.0
        >>> s.with_queue(PiParams(1e-4, 9e-5, 50.0, 160.0), at=("D", "R"))
        Traceback (most recent call last):
        ...
        ctlcc.errors.ParameterError: at must be the data direction (a, b) of a link, whose queue an AQM manages; got ('D', 'R'), the reverse (ACK) direction of link R-D; data directions: [('R', 'D'), ('S', 'R')]
        """
        if at is None:
            if not self.bottlenecks:
                raise ParameterError("at: the scenario names no bottleneck queue; give the link "
                                     "direction (a, b) whose queue the AQM manages")
            at = self.bottlenecks[0]
        at = tuple(check_sequence("at", at, min_length=2, max_length=2,
                                  item=lambda label, node: check_instance(label, node, str)))
        forward = sorted((link.a, link.b) for link in self.links)
        index = [i for i, link in enumerate(self.links) if (link.a, link.b) == at]
        if not index:
            reverse = [link for link in self.links if (link.b, link.a) == at]
            what = (f"the reverse (ACK) direction of link {reverse[0].a}-{reverse[0].b}"
                    if reverse else "which no link joins")
            raise ParameterError(f"at must be the data direction (a, b) of a link, whose queue "
                                 f"an AQM manages; got {at!r}, {what}; data directions: "
                                 f"{forward}")
        links = list(self.links)
        links[index[0]] = replace(links[index[0]], queue=queue)
        return replace(self, links=tuple(links))

    def __repr__(self):
        senders = {}
        for f in self.flows:
            senders[repr(f.sender)] = senders.get(repr(f.sender), 0) + 1
        flows = ", ".join(f"{n} x {s}" for s, n in senders.items())
        return (f"Scenario({self.name!r}: {len(self.links)} links, {len(self.flows)} flows "
                f"[{flows}], bottlenecks={list(self.bottlenecks)}, "
                f"{self.payload_bytes}+{self.header_bytes} B packets)")


def single_bottleneck(access_rate=10e6, access_delay=0.2e-3, bottleneck_rate=1.5e6,
                      bottleneck_delay=20e-3, buffer=14, loss=None, protocol="reno", n=1,
                      start=0.0, stop=math.inf, access_buffer=ACCESS_BUFFER, name=None,
                      queue=DROPTAIL, **scenario_options):
    """Sources S -> router R -> destination D (thesis Fig. 3.7 layout).

    Parameters
    ----------
    access_rate, bottleneck_rate : float
        Rates of S-R and R-D. [bit/s]
    access_delay, bottleneck_delay : float
        Propagation delays of S-R and R-D. [s]
    buffer : int
        Waiting room of R's queue towards D. [packets]
    loss : float, loss model or None
        Loss on R -> D (a float is a Bernoulli probability).
    protocol : str
        One of :data:`PROTOCOLS`, for every flow.
    n : int
        Number of flows sharing the path. [1]
    start, stop : float or sequence
        Start and stop times, one per flow or shared. [s]
    access_buffer : int
        Waiting room of the S -> R queue. [packets]
    queue : "droptail", RedParams or PiParams
        Management of R's queue towards D (see :class:`Link`).
    **scenario_options
        Passed to :class:`Scenario` (payload_bytes, header_bytes, tcp, ...).

    Returns
    -------
    Scenario

    Examples
    --------
    >>> s = single_bottleneck(buffer=4)
    >>> [(l.a, l.b, l.rate, l.buffer) for l in s.links]
    [('S', 'R', 10000000.0, 1000), ('R', 'D', 1500000.0, 4)]
    """
    n = check_positive_int("n", n, maximum=MAX_FLOWS)
    links = (_link("S", "R", access_rate, access_delay, access_buffer, None, "access"),
             _link("R", "D", bottleneck_rate, bottleneck_delay, buffer, loss, "bottleneck",
                   queue=queue))
    starts, stops = _per_flow("start", start, n), _per_flow("stop", stop, n)
    flows = tuple(Flow(("S", "R", "D"), protocol, starts[i], stops[i], name=f"flow{i}")
                  for i in range(n))
    return Scenario(name or "single_bottleneck", links, flows, (("R", "D"),), **scenario_options)


def dumbbell(n, access_rate=10e6, access_delay=1e-3, bottleneck_rate=2e6,
             bottleneck_delay=4e-3, buffer=128, loss=None, protocol="reno", start=0.0,
             stop=math.inf, egress_delay=None, access_buffer=ACCESS_BUFFER, name=None,
             queue=DROPTAIL, **scenario_options):
    """n sources S<i> -> router A -> router B -> destinations D<i>.

    Defaults are STTP's Fig. 3 (10 Mb/s 1 ms access and egress, 2 Mb/s 4 ms
    backbone, 128-packet queues), the issue's 10-50 flow benchmark.

    Parameters
    ----------
    n : int
        Number of source/destination pairs. [1]
    access_rate : float
        Rate of every S<i>-A and B-D<i> link. [bit/s]
    access_delay : float or sequence
        Delay of S<i>-A, one per flow or shared (heterogeneous RTTs). [s]
    bottleneck_rate, bottleneck_delay : float
        The A-B link. [bit/s], [s]
    buffer : int
        Waiting room of A's queue towards B. [packets]
    loss : float, loss model or None
        Loss on A -> B.
    protocol : str or sequence of str
        Per flow or shared.
    start, stop : float or sequence
        Per flow or shared. [s]
    egress_delay : float or sequence, optional
        Delay of B-D<i> (default: access_delay). [s]
    access_buffer : int
        Waiting room of every other queue. [packets]
    queue : "droptail", RedParams or PiParams
        Management of A's queue towards B (see :class:`Link`).

    Returns
    -------
    Scenario

    Examples
    --------
    >>> s = dumbbell(3)
    >>> len(s.flows), s.bottlenecks
    (3, (('A', 'B'),))
    """
    n = check_positive_int("n", n, maximum=MAX_FLOWS)
    access = _per_flow("access_delay", access_delay, n)
    egress = access if egress_delay is None else _per_flow("egress_delay", egress_delay, n)
    protocols = _per_flow("protocol", protocol, n)
    starts, stops = _per_flow("start", start, n), _per_flow("stop", stop, n)
    links = [_link("A", "B", bottleneck_rate, bottleneck_delay, buffer, loss, "bottleneck",
                   queue=queue)]
    flows = []
    for i in range(n):
        links.append(_link(f"S{i}", "A", access_rate, access[i], access_buffer, None, "access"))
        links.append(_link("B", f"D{i}", access_rate, egress[i], access_buffer, None, "access",
                           delay_name="egress_delay" if egress_delay is not None else None))
        flows.append(Flow((f"S{i}", "A", "B", f"D{i}"), protocols[i], starts[i], stops[i],
                          name=f"flow{i}"))
    return Scenario(name or f"dumbbell{n}", tuple(links), tuple(flows), (("A", "B"),),
                    **scenario_options)


def parking_lot(hops=3, routes=None, router_rate=2e6, router_delay=10e-3, buffer=30,
                access_rate=10e6, access_delay=1e-3, protocol="reno", start=0.0,
                stop=math.inf, loss=None, access_buffer=ACCESS_BUFFER, name=None,
                queue=DROPTAIL, **scenario_options):
    """Routers R0 - R1 - ... - R<hops> in a chain, flows over sub-chains.

    Parameters
    ----------
    hops : int
        Number of router-to-router links (each a potential bottleneck). [1]
    routes : sequence of (first, last), optional
        For each flow, the routers where it enters and leaves the chain
        (``0 <= first < last <= hops``).  Default: one long flow over the
        whole chain plus one cross flow per hop.
    router_rate, router_delay : float or sequence
        Router-to-router links, per hop or shared. [bit/s], [s]
    buffer : int or sequence
        Waiting room of each router's queue along the chain. [packets]
    access_rate, access_delay : float
        Every source and destination link. [bit/s], [s]
    protocol, start, stop : per flow or shared
    loss : float, loss model or None
        Loss on the last router link.
    queue : "droptail", RedParams, PiParams or sequence
        Management of each router's queue along the chain, per hop or
        shared (see :class:`Link`).

    Returns
    -------
    Scenario

    Examples
    --------
    >>> s = parking_lot(2)
    >>> [f.path for f in s.flows]
    [('S0', 'R0', 'R1', 'R2', 'D0'), ('S1', 'R0', 'R1', 'D1'), ('S2', 'R1', 'R2', 'D2')]
    """
    hops = check_positive_int("hops", hops, maximum=MAX_HOPS)
    if routes is None:
        routes = [(0, hops)] + [(i, i + 1) for i in range(hops)]
    routes = check_sequence("routes", routes, max_length=MAX_FLOWS,
                            item=lambda label, r: check_sequence(label, r, min_length=2,
                                                                 max_length=2))
    for first, last in routes:
        if not all(isinstance(x, numbers.Integral) and not isinstance(x, bool)
                   for x in (first, last)) \
                or not (0 <= first < last <= hops):
            raise ParameterError(f"routes must satisfy 0 <= first < last <= hops={hops}, "
                                 f"got {(first, last)!r}")
    n = len(routes)
    rates, delays = _per_flow("router_rate", router_rate, hops), _per_flow(
        "router_delay", router_delay, hops)
    buffers = _per_flow("buffer", buffer, hops)
    queues = _per_flow("queue", queue, hops)
    protocols = _per_flow("protocol", protocol, n)
    starts, stops = _per_flow("start", start, n), _per_flow("stop", stop, n)
    links = [_link(f"R{i}", f"R{i + 1}", rates[i], delays[i], buffers[i],
                   loss if i == hops - 1 else None, "router", buffer_name="buffer",
                   queue=queues[i])
             for i in range(hops)]
    flows = []
    for i, (first, last) in enumerate(routes):
        links.append(_link(f"S{i}", f"R{first}", access_rate, access_delay, access_buffer, None,
                           "access"))
        links.append(_link(f"R{last}", f"D{i}", access_rate, access_delay, access_buffer, None,
                           "access"))
        path = (f"S{i}",) + tuple(f"R{k}" for k in range(first, last + 1)) + (f"D{i}",)
        flows.append(Flow(path, protocols[i], starts[i], stops[i], name=f"flow{i}"))
    bottlenecks = tuple((f"R{i}", f"R{i + 1}") for i in range(hops))
    return Scenario(name or f"parking_lot{hops}", tuple(links), tuple(flows), bottlenecks,
                    **scenario_options)


# --- the papers' setups ---------------------------------------------------------------

def thesis_fig3_7_sufficient(protocol="reno", loss=None, buffer=14, n=1, **options):
    """Thesis Fig. 3.7, sufficient buffer: S-R 10 Mb/s 0.2 ms, R-D 1.5 Mb/s 20 ms.

    One greedy 1000-byte flow for 30 s; R buffers 14 packets, more than the
    path's bandwidth-RTT_min product of about 9 packets (§3.5.1,
    §3.5.1.1: "node R can buffer 14 packets").

    References
    ----------
    Xu (2002), §3.5.1, Fig. 3.7, Figs. 3.8-3.10.
    """
    return single_bottleneck(10e6, 0.2e-3, 1.5e6, 20e-3, buffer, loss, protocol, n,
                             name="thesis_fig3_7_sufficient",
                             description="Xu (2002) §3.5.1.1 Fig. 3.7, sufficient buffer",
                             **options)


def thesis_fig3_7_insufficient(protocol="reno", loss=None, buffer=4, n=1, **options):
    """Thesis Fig. 3.7, insufficient buffer: R buffers 4 packets (< BDP of ~9).

    References
    ----------
    Xu (2002), §3.5.1.2, Fig. 3.7, Figs. 3.11-3.13.
    """
    return single_bottleneck(10e6, 0.2e-3, 1.5e6, 20e-3, buffer, loss, protocol, n,
                             name="thesis_fig3_7_insufficient",
                             description="Xu (2002) §3.5.1.2 Fig. 3.7, insufficient buffer",
                             **options)


def thesis_fig3_14(protocol="reno", loss=None, buffer=20, n=3, **options):
    """Thesis Fig. 3.14: three flows over a fixed 1.5 Mb/s 20 ms bottleneck.

    Sources reach R1 over 10 Mb/s 3 ms links, R1-R2 is 1.5 Mb/s 20 ms with a
    20-packet buffer, R2 reaches the destinations over 10 Mb/s 2 ms.  Flow
    i starts at 12 i s and stops at 12 i + 36 s (0-36, 12-48, 24-60 s).
    The OCR'd figure gives only the three link labels; which access link
    has 3 ms and which 2 ms is our reading (sources 3 ms, sinks 2 ms).

    References
    ----------
    Xu (2002), §3.5.2.1, Fig. 3.14, Figs. 3.15-3.17.
    """
    n = check_positive_int("n", n, maximum=MAX_FLOWS)
    scenario = dumbbell(n, 10e6, 3e-3, 1.5e6, 20e-3, buffer, loss, protocol,
                        start=[12.0 * i for i in range(n)],
                        stop=[12.0 * i + 36.0 for i in range(n)], egress_delay=2e-3,
                        name="thesis_fig3_14",
                        description="Xu (2002) §3.5.2.1 Fig. 3.14", **options)
    return _rename_routers(scenario, {"A": "R1", "B": "R2"})


def thesis_fig3_18(protocol="reno", loss=None, buffer=20, **options):
    """Thesis Fig. 3.18: a moving bottleneck over R1-R2-R3.

    S1 -> R1 (10 Mb/s 0.2 ms) -> R2 (1.5 Mb/s 10 ms) -> R3 (1.5 Mb/s 8 ms)
    -> D1 (10 Mb/s 0.3 ms), 0-60 s.  S2 enters R1 over 45 Mb/s 0.6 ms ("a
    much higher capacity than that of S1D1") and leaves R2 over 10 Mb/s
    0.3 ms, 15-30 s.  S3 enters R2 over 384 kb/s 5 ms ("a quarter of a T1
    circuit") and leaves R3 over 10 Mb/s 0.3 ms, 45-60 s, so S1's
    bottleneck moves from R1 to R2.  R1 and R2 buffer 20 packets.  The OCR
    keeps the labels, not the drawing; this placement follows §3.5.2.2's
    text (which 0.3 ms 10 Mb/s label is which exit is immaterial).

    References
    ----------
    Xu (2002), §3.5.2.2, Fig. 3.18, Figs. 3.19-3.20.
    """
    links = (
        Link("S1", "R1", 10e6, 0.2e-3), Link("R1", "R2", 1.5e6, 10e-3, buffer),
        Link("R2", "R3", 1.5e6, 8e-3, buffer, loss), Link("R3", "D1", 10e6, 0.3e-3),
        Link("S2", "R1", 45e6, 0.6e-3), Link("R2", "D2", 10e6, 0.3e-3),
        Link("S3", "R2", 384e3, 5e-3), Link("R3", "D3", 10e6, 0.3e-3),
    )
    flows = (Flow(("S1", "R1", "R2", "R3", "D1"), protocol, 0.0, 60.0, name="S1D1"),
             Flow(("S2", "R1", "R2", "D2"), protocol, 15.0, 30.0, name="S2D2"),
             Flow(("S3", "R2", "R3", "D3"), protocol, 45.0, 60.0, name="S3D3"))
    return Scenario("thesis_fig3_18", links, flows, (("R1", "R2"), ("R2", "R3")),
                    description="Xu (2002) §3.5.2.2 Fig. 3.18", **options)


def thesis_fig4_7(protocol="reno", loss=None, buffer=30, n=1, **options):
    """Thesis Fig. 4.7: wired 10 Mb/s 0.1 ms then wireless 1.5 Mb/s 80 ms.

    R buffers 30 packets; ``loss`` is the wireless link's packet
    transmission error (uniform, §4.4.1.1, 1e-4 ... 1e-1 in Fig. 4.8; or a
    :class:`GilbertElliott` channel, §4.4.1.2).  BDP about 31 packets.

    References
    ----------
    Xu (2002), §4.4.1, Fig. 4.7, Figs. 4.8-4.17.
    """
    return single_bottleneck(10e6, 0.1e-3, 1.5e6, 80e-3, buffer, loss, protocol, n,
                             name="thesis_fig4_7", description="Xu (2002) §4.4.1 Fig. 4.7",
                             **options)


def thesis_fig4_18(protocol="reno", loss=None, buffer=100, n=1, **options):
    """Thesis Fig. 4.18: LAN - GEO satellite T1 (1.5 Mb/s 250 ms) - LAN.

    10 Mb/s 0.2 ms, 1.5 Mb/s 250 ms, 10 Mb/s 0.2 ms; 60 s transfers; one
    error burst corrupts the 2000th and 2001st packets on the satellite
    link (default ``loss``).  Neither the buffer nor the window limit is
    printed.  Reno's window is "cut by half twice to around 33" (§4.4.2),
    so it stood near 4 x 33 = 132 packets: we cap the window there
    (``TcpOptions(max_window=132)`` unless ``tcp=`` is given) and buffer
    100 packets, so that only the burst loses packets (window - BDP of ~94
    = 38 packets queued at most).  With RFC 5681's FlightSize halving our
    Reno then times out on the second loss instead of halving twice (ns-2
    halves cwnd itself); see the report.

    References
    ----------
    Xu (2002), §4.4.2, Fig. 4.18, Figs. 4.19-4.21.
    """
    n = check_positive_int("n", n, maximum=MAX_FLOWS)
    loss = PacketList((2000, 2001)) if loss is None else loss
    options.setdefault("tcp", TcpOptions(max_window=132))
    links = (Link("S", "R1", 10e6, 0.2e-3), Link("R1", "R2", 1.5e6, 250e-3, buffer, loss),
             Link("R2", "D", 10e6, 0.2e-3))
    flows = tuple(Flow(("S", "R1", "R2", "D"), protocol, 0.0, 60.0, name=f"flow{i}")
                  for i in range(n))
    return Scenario("thesis_fig4_18", links, flows, (("R1", "R2"),),
                    description="Xu (2002) §4.4.2 Fig. 4.18", **options)


def sttp_fig3(protocol="reno", loss=None, buffer=128, n=10, **options):
    """STTP Fig. 3: n sources, 10 Mb/s 1 ms access, 2 Mb/s 4 ms backbone.

    Every queue holds 128 packets of 1000 bytes; destinations hang off
    router b over 10 Mb/s 1 ms.  The paper varies n; we default to 10.

    References
    ----------
    Wade, Kara & Dew (2000), §IV, Fig. 3.
    """
    return dumbbell(n, 10e6, 1e-3, 2e6, 4e-3, buffer, loss, protocol, access_buffer=128,
                    name="sttp_fig3",
                    description="Wade, Kara & Dew (2000) §IV Fig. 3", **options)


#: STTP's packets (§IV: "packets are 1000bytes"): 1000 bytes on the wire, ns-2's
#: 40-byte ACKs (the paper gives no ACK size).
_STTP_SIZES = dict(payload_bytes=1000, header_bytes=0, ack_bytes=40)


def sttp_experiment1(protocol="sttp", n=10, start_interval=4.0, loss=None, buffer=128,
                     **options):
    """STTP Experiment 1 (Table III, Figs. 4-5): Fig. 3 with one source every 4 s.

    The Fig. 3 dumbbell of :func:`sttp_fig3` (10 Mb/s 1 ms access and
    egress, 2 Mb/s 4 ms backbone, 128-packet queues at every router),
    sources ``i = 0..n-1`` starting at ``i * start_interval`` ("starting at 4
    second intervals"), 1000-byte packets on the wire and 40-byte ACKs.

    Parameters
    ----------
    protocol : str or SenderSpec
        Every source's sender.
    n : int
        Sources (the paper: 10, 20, ..., 200). [1]
    start_interval : float
        Time between two source starts, >= 0. [s]
    loss, buffer, **options
        As :func:`dumbbell`; ``**options`` may override the packet sizes.

    Returns
    -------
    Scenario

    References
    ----------
    Wade, Kara & Dew (2000), §IV-A, Fig. 3, Table III.

    Examples
    --------
    >>> sc = sttp_experiment1(n=3)
    >>> [f.start for f in sc.flows], sc.data_bits
    ([0.0, 4.0, 8.0], 8000)
    """
    n = check_positive_int("n", n, maximum=MAX_FLOWS)
    start_interval = _check_start_interval(start_interval, n)
    options = {**_STTP_SIZES, **options}
    return dumbbell(n, 10e6, 1e-3, 2e6, 4e-3, buffer, loss, protocol,
                    start=[i * start_interval for i in range(n)], access_buffer=128,
                    name="sttp_experiment1",
                    description="Wade, Kara & Dew (2000) §IV-A Experiment 1, Fig. 3", **options)


def sttp_table2(protocol="sttp", n=2, start_interval=4.0, loss=None, buffer=128, **options):
    """STTP Table II (fairness): the Fig. 3 topology with every link at 128 kb/s.

    "Simulations were run for 2000 seconds and all links were 128kb/s" on
    "a similar topology to that used in previous experiments": Fig. 3's
    latencies (1 ms access and egress, 4 ms backbone) and 128-packet queues
    are kept, and the sources start ``start_interval`` apart as in
    Experiment 1 (the paper does not say; Table II's unequal 9:1 shares
    suggest staggered starts).  1000-byte packets, 40-byte ACKs; 32,000
    packets fill 2000 s of 128 kb/s.

    Parameters
    ----------
    protocol : str or SenderSpec
        Every source's sender.
    n : int
        Sources (the paper: 1, 2, 4). [1]
    start_interval : float
        Time between two source starts, >= 0. [s]
    loss, buffer, **options
        As :func:`dumbbell`.

    Returns
    -------
    Scenario

    References
    ----------
    Wade, Kara & Dew (2000), §IV-B.1, Table II.
    """
    n = check_positive_int("n", n, maximum=MAX_FLOWS)
    start_interval = _check_start_interval(start_interval, n)
    options = {**_STTP_SIZES, **options}
    return dumbbell(n, 128e3, 1e-3, 128e3, 4e-3, buffer, loss, protocol,
                    start=[i * start_interval for i in range(n)], access_buffer=128,
                    name="sttp_table2",
                    description="Wade, Kara & Dew (2000) §IV-B.1 Table II", **options)


def sttp_fig2(protocol="sttp", bottleneck_rate=32e3, position="middle", buffer=128,
              loss=None, **options):
    """STTP Fig. 2: the packet-pair network A - B - C - D.

    64 kb/s 5 ms links A-B and C-D, the 32 kb/s 10 ms link B-C, 64-byte
    packets returned at the same size ("a simple Ping agent"), so the pair
    sent back to back from A returns at 104 ms and 120 ms (§III-A).
    *bottleneck_rate* and *position* move the slow link (the paper ran
    "bottleneck values from 1kb/s through to 155Mbps" and "shifted [it] from
    the mid-point to start and end links"); the other links run at twice its
    rate.

    Parameters
    ----------
    protocol : str or SenderSpec
    bottleneck_rate : float
        Rate of the slow link, > 0. [bit/s]
    position : {"first", "middle", "last"}
        Which link is slow (A-B, B-C or C-D).
    buffer : int
        Every queue. [packets]
    loss : loss model or None
        On the slow link's data direction.

    Returns
    -------
    Scenario

    References
    ----------
    Wade, Kara & Dew (2000), §III-A, Fig. 2.

    Examples
    --------
    >>> [l.rate for l in sttp_fig2().links]
    [64000.0, 32000.0, 64000.0]
    """
    # the other two links run at twice the rate, which must stay finite
    rate = check_interval("bottleneck_rate", bottleneck_rate, 0.0, _FLOAT_MAX / 2, scalar=True)
    slow = ("first", "middle", "last")
    if position not in slow:
        raise ParameterError(f"position must be one of {', '.join(map(repr, slow))}; "
                             f"got {position!r}")
    k = slow.index(position)
    hops = (("A", "B", 5e-3), ("B", "C", 10e-3), ("C", "D", 5e-3))
    links = tuple(_link(a, b, rate if i == k else 2 * rate, d, buffer, loss if i == k else None,
                        "bottleneck" if i == k else "access", buffer_name="buffer")
                  for i, (a, b, d) in enumerate(hops))
    flow = Flow(("A", "B", "C", "D"), protocol, name="probe")
    options = {**dict(payload_bytes=64, header_bytes=0, ack_bytes=64), **options}
    return Scenario("sttp_fig2", links, (flow,), (hops[k][:2],),
                    description="Wade, Kara & Dew (2000) §III-A Fig. 2", **options)


def sttp_rtt_example(protocol="sttp", cbr_rate=12.5, cbr_stop=2.5, start=1.0, buffer=128,
                     **options):
    """STTP §III-B.3: a CBR source and an STTP source over a 128 kb/s backbone.

    "The two sources were connected via 128kb/s (10ms latency) links to a
    128kb/s (10ms latency) backbone.  Each source had its own dedicated
    target node, connected to the backbone via a 128kb/s, 10ms link."  The
    CBR source sends a 1000-byte packet every 0.08 s from t = 0 to 2.5 s;
    STTP starts at t = 1.0 s.  Queues: 128 packets (not given).

    Parameters
    ----------
    protocol : str or SenderSpec
        The second source's sender.
    cbr_rate : float
        CBR packets per second (12.5: one per 0.08 s). [packets/s]
    cbr_stop, start : float
        CBR stop and STTP start. [s]
    buffer : int
        Every queue. [packets]

    Returns
    -------
    Scenario

    References
    ----------
    Wade, Kara & Dew (2000), §III-B.3.
    """
    from .senders import Cbr

    cbr_rate = check_positive("cbr_rate", cbr_rate, scalar=True)
    cbr_stop = check_positive("cbr_stop", cbr_stop, allow_inf=True, scalar=True)
    links = (_link("C", "R1", 128e3, 10e-3, buffer, None, "access", "buffer"),
             _link("S", "R1", 128e3, 10e-3, buffer, None, "access", "buffer"),
             _link("R1", "R2", 128e3, 10e-3, buffer, None, "bottleneck"),
             _link("R2", "DC", 128e3, 10e-3, buffer, None, "access", "buffer"),
             _link("R2", "DS", 128e3, 10e-3, buffer, None, "access", "buffer"))
    flows = (Flow(("C", "R1", "R2", "DC"), sender=Cbr(rate=cbr_rate), start=0.0,
                  stop=cbr_stop, name="cbr"),
             Flow(("S", "R1", "R2", "DS"), protocol, start=start, name="sttp"))
    options = {**_STTP_SIZES, **options}
    return Scenario("sttp_rtt_example", links, flows, (("R1", "R2"),),
                    description="Wade, Kara & Dew (2000) §III-B.3", **options)


def primo_fig1_top(protocol="primo", loss=None, buffer=30, n=2, **options):
    """Primo Fig. 1-top: two sources share R1-R2 (queues of 30 packets).

    Access and exit links 10 Mb/s 1 ms, shared link 2 Mb/s 10 ms: the
    no-congestion RTT is 24 ms as §IV-B states for source 1 (2 x (1 + 10 +
    1) ms).  The default shared bandwidth is not printed (it is varied from
    1 to 16 Mb/s); 2 Mb/s (a 10 % input/output ratio) is our choice.

    References
    ----------
    Chatté, Ducourthial & Niculescu (2006), §IV-A/B, Fig. 1.
    """
    scenario = dumbbell(n, 10e6, 1e-3, 2e6, 10e-3, buffer, loss, protocol, access_buffer=30,
                        name="primo_fig1_top",
                        description="Chatté, Ducourthial & Niculescu (2006) §IV-A Fig. 1-top",
                        **options)
    return _rename_routers(scenario, {"A": "R1", "B": "R2"})


def primo_fig1_bottom(protocol="primo", loss=None, buffer=30, **options):
    """Primo Fig. 1-bottom: five flows over three congested router links.

    Routers R0-R1-R2-R3; flow e crosses all three links, c crosses R0-R2,
    d R1-R3, a R0-R1 and b R2-R3, so each router link carries three flows
    (§VI).  Link rates and delays are not printed; we reuse Fig. 1-top's
    defaults (2 Mb/s 10 ms router links, 10 Mb/s 1 ms access, 30 packets).

    References
    ----------
    Chatté, Ducourthial & Niculescu (2006), §IV-A, §VI,
    Fig. 1-bottom, Figs. 6-7.
    """
    routes = [(0, 1), (2, 3), (0, 2), (1, 3), (0, 3)]
    scenario = parking_lot(3, routes, 2e6, 10e-3, buffer, 10e6, 1e-3, protocol, loss=loss,
                           access_buffer=30, name="primo_fig1_bottom",
                           description="Chatté, Ducourthial & Niculescu (2006) §VI "
                                       "Fig. 1-bottom", **options)
    names = ("a", "b", "c", "d", "e")
    return replace(scenario, flows=tuple(replace(f, name=nm)
                                         for f, nm in zip(scenario.flows, names)))


def cbraa_fig2(protocol="reno", loss=None, buffer=20, n=2, **options):
    """CBRAA Fig. 2: n sources share a 4 Mb/s link, 50 ms one way.

    All other links 10 Mb/s; 20000-byte drop-tail buffer = 20 packets of
    1000 bytes.  The 50 ms end-to-end delay is split as 5 ms access, 40 ms
    bottleneck, 5 ms exit (the split is not printed).

    References
    ----------
    Ait-Hellal, Yamamoto & Leduc (1999), §4, Fig. 2.
    """
    scenario = dumbbell(n, 10e6, 5e-3, 4e6, 40e-3, buffer, loss, protocol,
                        name="cbraa_fig2",
                        description="Ait-Hellal, Yamamoto & Leduc (1999) §4 Fig. 2", **options)
    return scenario


def iftp_fig4(protocol=None, loss=None, buffer=50, n=None, bottleneck_rate=1e6,
              udp_rate=None, bottleneck_delay=9e-3, access_rate=10e6, access_delay=1e-3,
              start=0.0, stop=math.inf, **options):
    """IFTP Fig. 4: TCP, IFTP and UDP sources over one 50-packet FCFS bottleneck.

    Sources S<i> -> router A -> router B -> sinks D<i>; every packet is
    1000 bytes on the wire (960 payload + 40 header), ACKs 40 bytes, the
    bottleneck buffer 50 packets, drop-tail (§6).  The total one-way path
    delay is 11 ms (§6, §6.1); its split is not printed (the figure is lost
    in the text we have): 1 ms access, ``bottleneck_delay`` = 9 ms, 1 ms
    egress; the access links (10 Mb/s) are ours too.  TCP is Reno with
    ``Wmax`` = 50 (``TcpOptions.max_window``, which is also its initial
    ssthresh; §6.1's 32 applies to IFTP).

    Parameters
    ----------
    protocol : str, SenderSpec, sequence or None
        None: §6.1's mix, two Reno then two IFTP sources; a name or spec:
        ``n`` flows of it; a sequence: one per flow.
    loss : float, loss model or None
        Loss on A -> B.
    buffer : int
        Bottleneck buffer (§6: 50). [packets]
    n : int, optional
        Number of flows when ``protocol`` is one protocol (default 4).
    bottleneck_rate : float
        B of §6.1-6.4 (1, 1.5, 0.5 Mb/s). [bit/s]
    udp_rate : float, optional
        Adds a constant-rate UDP source ("udp", :class:`~.senders.Cbr`) at
        this wire rate (§6, §6.2). [bit/s]
    bottleneck_delay, access_delay : float
        One-way delays of A-B and of every access/egress link. [s]
    access_rate : float
        Rate of the access and egress links. [bit/s]
    start, stop : float or sequence
        Start and stop times of the TCP/IFTP flows (the UDP source runs
        throughout). [s]

    Returns
    -------
    Scenario

    References
    ----------
    ElAarag & Bassiouni (2002), §6, Fig. 4, §6.1-6.4.

    Examples
    --------
    >>> sc = iftp_fig4(udp_rate=0.3e6)
    >>> [f.name for f in sc.flows], sc.data_bits
    (['reno0', 'reno1', 'iftp0', 'iftp1', 'udp'], 8000)
    """

    if protocol is None:
        if n is not None:
            raise ParameterError("n needs a protocol: iftp_fig4's default is §6.1's fixed mix "
                                 f"of 2 Reno + 2 IFTP sources, got n={n!r}")
        protocols = ["reno", "reno", "iftp", "iftp"]
    elif isinstance(protocol, (str, SenderSpec, _Law)):
        protocols = [protocol] * check_positive_int("n", 4 if n is None else n, maximum=MAX_FLOWS)
    else:
        try:
            protocols = list(protocol)
        except TypeError:
            raise ParameterError(
                "protocol must be None, a protocol name, a sender spec or a sequence of them "
                f"(one per flow), got {protocol!r}") from None
        if not protocols:
            raise ParameterError("protocol must name at least one flow, got an empty sequence")
        if n is not None and n != len(protocols):
            raise ParameterError(f"n must match the {len(protocols)} protocols given, got {n!r}")
    m = len(protocols)
    starts, stops = _per_flow("start", start, m), _per_flow("stop", stop, m)
    if udp_rate is not None:
        udp_rate = check_positive("udp_rate", udp_rate, scalar=True)
        protocols.append(Cbr(rate=udp_rate / 8000.0))
        starts.append(0.0)
        stops.append(math.inf)
    options.setdefault("payload_bytes", 960)
    options.setdefault("header_bytes", 40)
    options.setdefault("ack_bytes", 40)
    options.setdefault("tcp", TcpOptions(max_window=50))
    scenario = dumbbell(len(protocols), access_rate, access_delay, bottleneck_rate,
                        bottleneck_delay, buffer, loss, protocols, starts, stops,
                        name="iftp_fig4",
                        description="ElAarag & Bassiouni (2002) §6 Fig. 4", **options)
    counts, flows = {}, []
    for flow in scenario.flows:
        base = "udp" if isinstance(flow.sender, Cbr) else flow.protocol
        k = counts.get(base, 0)
        counts[base] = k + 1
        flows.append(replace(flow, name=base if base == "udp" else f"{base}{k}"))
    return replace(scenario, flows=tuple(flows))


#: Preset name -> builder.
PRESETS = {
    "thesis_fig3_7_sufficient": thesis_fig3_7_sufficient,
    "thesis_fig3_7_insufficient": thesis_fig3_7_insufficient,
    "thesis_fig3_14": thesis_fig3_14,
    "thesis_fig3_18": thesis_fig3_18,
    "thesis_fig4_7": thesis_fig4_7,
    "thesis_fig4_18": thesis_fig4_18,
    "sttp_fig3": sttp_fig3,
    "sttp_experiment1": sttp_experiment1,
    "sttp_table2": sttp_table2,
    "sttp_fig2": sttp_fig2,
    "sttp_rtt_example": sttp_rtt_example,
    "primo_fig1_top": primo_fig1_top,
    "primo_fig1_bottom": primo_fig1_bottom,
    "cbraa_fig2": cbraa_fig2,
    "iftp_fig4": iftp_fig4,
}


def preset(name, **overrides):
    """A paper's setup by name, with overrides.

    Parameters
    ----------
    name : str
        One of :data:`PRESETS`.
    **overrides
        ``protocol=``, ``loss=`` (float = Bernoulli probability, or a loss
        model, on the bottleneck's data direction), ``buffer=`` [packets],
        ``n=`` (number of flows, where the topology allows it), and any
        :class:`Scenario` field (``tcp=``, ``header_bytes=`` ...).

    Returns
    -------
    Scenario

    Examples
    --------
    >>> preset("thesis_fig3_7_insufficient", protocol="vegas").flows[0].protocol
    'vegas'
    >>> preset("nope")
    Traceback (most recent call last):
    ...
    ctlcc.errors.ParameterError: name must be one of 'thesis_fig3_7_sufficient', ...
    """
    if not isinstance(name, str) or name not in PRESETS:
        raise ParameterError(f"name must be one of {', '.join(repr(p) for p in PRESETS)}; "
                             f"got {name!r}")
    builder = PRESETS[name]
    if "n" in overrides and name in ("thesis_fig3_18", "primo_fig1_bottom", "sttp_fig2",
                                     "sttp_rtt_example"):
        raise ParameterError(f"n cannot be overridden for {name!r}: its flows are fixed")
    return builder(**overrides)


#: Largest finite float. [1]
_FLOAT_MAX = 1.7976931348623157e308


def _check_start_interval(start_interval, n):
    """Seconds between the starts of *n* flows: the last start must be finite."""
    start_interval = check_nonnegative("start_interval", start_interval, scalar=True)
    if not math.isfinite(start_interval * max(n - 1, 0)):
        raise ParameterError(f"start_interval must keep the last of the n = {n} starts "
                             f"finite ((n - 1) * start_interval < {_FLOAT_MAX:g} s), got "
                             f"{start_interval!r}")
    return start_interval


def _check_buffer(buffer):
    return check_positive_int("buffer", buffer, maximum=MAX_BUFFER)


def _link(a, b, rate, delay, buffer, loss, prefix, buffer_name=None, delay_name=None,
          queue=DROPTAIL):
    """A :class:`Link` built by a builder, its errors naming the builder's arguments.

    ``prefix`` "access" reports ``rate`` as ``access_rate``, ``delay`` as
    ``access_delay`` and ``buffer`` as ``access_buffer``; "bottleneck" and
    "router" likewise (the bottleneck's buffer is the builders' ``buffer``).
    """
    buffer_name = buffer_name or ("access_buffer" if prefix == "access" else "buffer")
    with argument_name("rate", f"{prefix}_rate"), \
            argument_name("delay", delay_name or f"{prefix}_delay"), \
            argument_name("buffer", buffer_name):
        return Link(a, b, rate, delay, buffer, loss, queue)


def _check_queue(queue, buffer):
    """Refuse an unknown queue kind, or an AQM that could never act before the buffer fills."""
    if isinstance(queue, str) and queue == DROPTAIL:
        return queue
    if isinstance(queue, RedParams):
        if queue.min_threshold >= buffer:
            raise ParameterError(
                f"queue: RED's min_threshold must be < the link's buffer = {buffer} packets "
                f"(the queue overflows before RED's average reaches the threshold: the AQM "
                f"would have no queue to manage), got min_threshold={queue.min_threshold!r}")
        return queue
    if isinstance(queue, PiParams):
        if queue.reference >= buffer:
            raise ParameterError(
                f"queue: PI's reference must be < the link's buffer = {buffer} packets (the "
                f"queue overflows before it reaches the reference: the AQM would have no "
                f"queue to manage), got reference={queue.reference!r}")
        return queue
    raise ParameterError(f"queue must be {DROPTAIL!r}, a ctlcc.laws.aqm.RedParams or a "
                         f"ctlcc.laws.aqm.PiParams; got {queue!r}")


def _as_loss(loss):
    if loss is None or isinstance(loss, (Bernoulli, GilbertElliott, PacketList)):
        return loss
    if isinstance(loss, (int, float)) and not isinstance(loss, bool):
        return None if loss == 0 else Bernoulli(loss)
    raise ParameterError(
        f"loss must be a probability in [0, 1), Bernoulli, GilbertElliott, PacketList or None; "
        f"got {loss!r}")


def _per_flow(name, value, n):
    """*value* repeated n times, or its n elements (one per flow or hop)."""
    if isinstance(value, (str, bytes, numbers.Number, SenderSpec, _Law, RedParams, PiParams)) \
            or value is None:
        return [value] * n   # a wrong scalar is refused by the Link/Flow it builds
    try:
        values = list(value)
    except TypeError:
        raise ParameterError(f"{name} must be a scalar or a sequence with one value each "
                             f"({n}), got {value!r:.80}") from None
    if len(values) != n:
        raise ParameterError(f"{name} must be a scalar or have one value each ({n}), "
                             f"got {len(values)}: {value!r:.80}")
    return values


def _rename_routers(scenario, mapping):
    def ren(node):
        return mapping.get(node, node)

    links = tuple(replace(l, a=ren(l.a), b=ren(l.b)) for l in scenario.links)
    flows = tuple(replace(f, path=tuple(ren(x) for x in f.path)) for f in scenario.flows)
    bottlenecks = tuple((ren(a), ren(b)) for a, b in scenario.bottlenecks)
    return replace(scenario, links=links, flows=flows, bottlenecks=bottlenecks)
