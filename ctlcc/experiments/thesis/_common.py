# ctlcc.experiments.thesis._common - what the thesis's experiment modules share (private)
"""What the topic modules of :mod:`ctlcc.experiments.thesis` share.

* :class:`ThesisRun` - what one run keeps for the thesis's figures, made by
  :func:`_run`; the packet sizes of the thesis's ns-2 runs
  (:data:`NS2_PACKETS`) and its published numbers (:func:`published`);
* :func:`experiment` - registers an experiment once, with the settings
  :func:`ctlcc.experiments.thesis.run_all` runs it with (:data:`EXPERIMENTS`);
  :func:`thesis_unit` registers a unit that judges it (section
  ``thesis_sim``, paper ``stpd``), written beside it in its topic module.
"""

import math
from dataclasses import dataclass, field

import numpy as np

from ...claims.registry import unit
from ..._validation import check_positive
from ...errors import ParameterError
from ...sim import run
from .._published import read_published

__all__ = ["NS2_PACKETS", "PUBLISHED_FILE", "QUICK", "FULL", "ThesisRun", "published"]

#: Packet sizes of the thesis' ns-2 runs: 1000 bytes on the wire, 40-byte
#: ACKs (Xu 2002, §3.5.3).  Passed to every scenario as Scenario fields.
NS2_PACKETS = {"header_bytes": 0, "ack_bytes": 40}

#: The thesis' published numbers and qualitative claims, with their source.
PUBLISHED_FILE = "thesis_sim_published.csv"

#: Durations used by :func:`~ctlcc.experiments.thesis.run_all`: the report's
#: (``quick``) and the long runs of the slow tests. [s]
QUICK = {"loss_duration": 100.0, "loss_seeds": (0, 1, 2), "bursty_duration": 400.0,
         "bursty_seeds": tuple(range(10)), "mixed_seeds": (0, 1, 2, 3, 4)}
FULL = {"loss_duration": 300.0, "loss_seeds": tuple(range(5)), "bursty_duration": 600.0,
        "bursty_seeds": tuple(range(30)), "mixed_seeds": tuple(range(10))}

#: Report section whose worker runs the experiments and their units.
SECTION = "thesis_sim"

#: Every experiment of :func:`ctlcc.experiments.thesis.run_all`, in the thesis's order:
#: name (the key of its result, what its units ``need``) -> :class:`Experiment`.
#: Filled by :func:`experiment` where each experiment is defined.
EXPERIMENTS = {}


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
    sent_total : ndarray, shape (flows,)
        Data packets each flow put on its first link, retransmissions
        included. [packets]
    queue_by_flow : ndarray, shape (k, queues, flows), or None
        Each flow's packets waiting in the reported queues (runs made with
        ``by_flow=True``; :func:`ctlcc.sim.run`'s ``queue_by_flow``). [packets]
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
    sent_total: np.ndarray = None
    queue_by_flow: np.ndarray = field(default=None, repr=False)

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

    def mean_waiting(self, flow, t0, t1, queue=0):
        """Time average of *flow*'s packets waiting in *queue* over [t0, t1). [packets]

        The mean of the per-flow occupancy samples in the window (the run must
        have been made with ``by_flow=True``).
        """
        if self.queue_by_flow is None:
            raise ParameterError("this run has no per-flow queue trace (run it with "
                                 "by_flow=True), got queue_by_flow=None")
        inside = (self.time >= t0) & (self.time < t1)
        if not inside.any():
            raise ParameterError(f"no sample in [t0, t1), got t0={t0!r}, t1={t1!r}")
        return float(self.queue_by_flow[inside, queue, flow].mean())

    def queue_after(self, t0, queue=0):
        """Queue samples at or after *t0*. [packets]"""
        return self.queue[self.time >= t0, queue]

    def window_after(self, t0, flow=0):
        """Window samples at or after *t0*. [packets]"""
        return self.window[self.time >= t0, flow]


@dataclass(frozen=True)
class Experiment:
    """One experiment as :func:`ctlcc.experiments.thesis.run_all` runs it.

    Attributes
    ----------
    function : callable
    quick, full : dict
        Keyword arguments of the report's run and of the long one.
    newreno : bool
        ``run_all(newreno=True)`` adds NewReno (RFC 6582, not in the
        thesis) to the function's default ``protocols``.
    report_only : bool
        A second reading of an experiment, run for the report's
        ``thesis_sim`` section (other evidence of its records), not by
        ``run_all``.
    """

    function: object
    quick: dict = field(default_factory=dict)
    full: dict = field(default_factory=dict)
    newreno: bool = False
    report_only: bool = False


def experiment(name=None, quick=None, full=None, newreno=False, report_only=False):
    """Register the decorated function as one of the thesis's experiments.

    Parameters
    ----------
    name : str, optional
        Key of its result in :func:`~ctlcc.experiments.thesis.run_all` and
        in the units' ``needs`` (default: the function's name).
    quick, full : dict, optional
        Keyword arguments of the report's run and of the long run (default:
        the function's own defaults; *full* defaults to *quick*).
    newreno : bool
        Add NewReno to the default protocols when ``run_all(newreno=True)``.
    report_only : bool
        Run for the report's section only, not by ``run_all`` (see
        :class:`Experiment`).
    """
    def register(function):
        key = name or function.__name__
        if key in EXPERIMENTS:
            raise ParameterError(f"thesis experiment {key!r} registered twice")
        EXPERIMENTS[key] = Experiment(function, dict(quick or {}),
                                      dict(full if full is not None else quick or {}),
                                      bool(newreno), bool(report_only))
        return function

    return register


def thesis_unit(*ids, **kwargs):
    """:func:`ctlcc.claims.registry.unit` for a record of the thesis's experiments."""
    return unit(*ids, section=SECTION, paper="stpd", **kwargs)


def _ev(function, figure):
    """Evidence of a record: the experiment function and its report figure."""
    return f"ctlcc.experiments.thesis.{function}; {figure}"


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


# --- private helpers ---------------------------------------------------------------------

def _run(scenario, duration, seed, bin_width, sample_interval, light=False, by_flow=False):
    """Run *scenario* and keep what the thesis' figures need (*by_flow*: per-flow queues)."""
    result = run(scenario, duration, seed=seed, trace=not light,
                 sample_interval=sample_interval, queue_by_flow=by_flow)
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
        base_rtt=np.array([_base_rtt(scenario, f.path) for f in scenario.flows]),
        sent_total=np.array([f.sent for f in flows]), queue_by_flow=s.queue_by_flow)


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


def _fraction_within(x, low, high):
    x = np.asarray(x, dtype=float)
    return float(np.mean((x >= low) & (x <= high)))


def _seconds(x):
    return f"{x:.1f}" if math.isfinite(x) else "never"
