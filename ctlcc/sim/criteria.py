# ctlcc.sim.criteria - Primo's five efficiency criteria (Chatté et al. 2006, §IV-C)
"""Primo's five efficiency criteria of a run, in percent (higher is better).

Chatté, Ducourthial & Niculescu compare protocols on five criteria
(§IV-C), drawn as pentagons in their Figs. 2-5:

sending rate stability
    "the standard variation of the rate ... normalized by division by the
    mean rate": ``100 (1 - std/mean)`` of a flow's sending rate per
    sampling interval, averaged over the flows;
reception rate stability
    the same on the in-order delivery rate;
goodput
    "one minus the packets loss rate, multiplied by 1000": ``100 (1 -
    lost/sent)``; 1000 is read as a misprint for 100, since every criterion
    is "expressed in percentages";
occupancy
    "the utilization of the network capacities": data packets of the flows
    crossing the shared link that reached their receivers in the window
    (duplicates included: a retransmission uses the link too), per second,
    over the link's capacity in packets per second;
fairness
    "the lower mean fraction of allocated bandwidth" compared with the
    ideal fraction ("50 %" for two flows): ``100 n min_i share_i``.

Choices the paper leaves open (each is an argument):

* **sampling interval** of the rates: not printed.  The default here is
  the run's own sampling period; the experiments of
  :mod:`ctlcc.experiments.primo` use 0.1 s, about four no-congestion RTTs
  of Fig. 1-top (24 ms): short enough to see a window TCP's send-and-wait
  cycles and a sawtooth, long enough to hold 12 or more packets even at
  1 Mb/s (the counting noise of a constant rate is then below 1/12);
* **warm-up**: not printed.  Each flow's stability is measured from its
  own ``start + warmup`` to its stop (or the end of the run); fairness and
  occupancy over the window where every flow is past its warm-up; goodput
  over the whole run (the engine's exact loss counters);
* a coefficient of variation above 1 (a rate that is mostly zero with
  bursts) gives 0 %, not a negative percentage: the clipping is explicit
  and the raw coefficients are kept in :class:`PrimoCriteria`;
* a flow that sends (or receives) nothing in its window has 0 % sending
  (reception) stability: no rate is not a stable rate;
* occupancy counts the packets that *arrive* in the window, not those
  *delivered in order* in it (``occupancy="in_order"``, the reading before
  this correction, is kept for comparison).  An in-order count moves a
  packet from the instant it crossed the link to the instant its hole is
  repaired: a receiver that holds an out-of-order backlog when the window
  opens releases it inside the window, and the criterion reads above
  100 %.  With retransmission timeouts the repair takes seconds and the
  backlog can be a window's worth of packets: two CUBIC flows on Fig.
  1-top (seed 0, 12 s, warm-up 3 s) read 108.7 % in order, because one
  flow's receiver holds 187 packets at 3 s that it releases at 4.2 s;
  their arrivals give 99.97 % and the link's busy time 100.0 %.  The
  arrival count is bounded by the capacity plus the packets propagating
  beyond the link at the window's ends; nothing is clipped.
* the packet engine samples both counts (``Traces.delivered``, in order, and
  ``Traces.received``, arrivals); :func:`five_criteria` takes the arrivals
  as an array when they are known.

References
----------
Chatté, Ducourthial & Niculescu (2006), §IV-C, Figs. 2-5.
"""

from dataclasses import dataclass

import numpy as np

from .._validation import _as_float, check_finite, check_nonnegative, check_positive
from ..errors import ParameterError

__all__ = ["CRITERIA", "OCCUPANCY_READINGS", "UnknownCriterionError", "PrimoCriteria",
           "five_criteria", "primo_criteria"]

#: The five criteria, in the order of the paper's pentagons (§IV-C).
CRITERIA = ("sending_stability", "reception_stability", "goodput", "occupancy", "fairness")

#: What the occupancy counts: packets that reach the receivers in the window (the default),
#: or packets delivered in order in it (the reading before the correction; reads above 100 %
#: when a receiver releases an out-of-order backlog inside the window).
OCCUPANCY_READINGS = ("arrivals", "in_order")

#: Relative slack when checking that an interval is a multiple of the samples' period.
_GRID_TOLERANCE = 1e-6


class UnknownCriterionError(ParameterError, KeyError):
    """A criterion name that is not one of :data:`CRITERIA`.

    A :class:`ValueError` (as every bad argument in ctlcc) and a
    :class:`KeyError` (as a dict lookup), so either ``except`` catches it.
    """

    def __str__(self):
        return str(self.args[0]) if self.args else ""


@dataclass(frozen=True)
class PrimoCriteria:
    """The five criteria of one run and what they were computed from.

    Reads like a dict of the five percentages (``c["fairness"]``,
    ``c.keys()``, ``dict(c.items())``).

    Attributes
    ----------
    sending_stability, reception_stability, goodput, occupancy, fairness : float
        The criteria of §IV-C. [%]
    sending_cv, reception_cv : ndarray, shape (n,)
        Each flow's std/mean of its rate per interval (inf where the mean
        is 0). [1]
    shares : ndarray, shape (n,)
        Each flow's fraction of the delivered packets in the common
        window. [1]
    loss_rate : float
        Lost / sent packets, all flows, whole run. [1]
    warmup : float
        Warm-up after each flow's start. [s]
    interval : float
        Sampling interval of the rates. [s]
    window : (float, float)
        Common window of fairness and occupancy. [s]
    occupancy_reading : str
        What ``occupancy`` counts, one of :data:`OCCUPANCY_READINGS`.
    occupancy_in_order : float
        The occupancy from in-order deliveries (equal to ``occupancy``
        when that is the reading). [%]
    """

    sending_stability: float
    reception_stability: float
    goodput: float
    occupancy: float
    fairness: float
    sending_cv: np.ndarray
    reception_cv: np.ndarray
    shares: np.ndarray
    loss_rate: float
    warmup: float
    interval: float
    window: tuple
    occupancy_reading: str = "in_order"
    occupancy_in_order: float = np.nan

    def __getitem__(self, name):
        if name not in CRITERIA:
            raise UnknownCriterionError(f"criterion must be one of {', '.join(map(repr, CRITERIA))}; "
                           f"got {name!r}")
        return getattr(self, name)

    def keys(self):
        """The five criterion names, in the paper's order."""
        return CRITERIA

    def items(self):
        """(name, value [%]) pairs of the five criteria."""
        return tuple((name, getattr(self, name)) for name in CRITERIA)

    def as_dict(self):
        """The five criteria as a plain dict. [%]"""
        return dict(self.items())


def five_criteria(time, sent, delivered, sent_total, lost_total, capacity, warmup=0.0,
                  interval=None, starts=None, stops=None, crossing=None, received=None):
    """The five criteria of §IV-C from sampled cumulative counts.

    A pure function of arrays (no simulator involved), so that each
    criterion can be checked on hand-made traces.

    Parameters
    ----------
    time : array_like, shape (k,)
        Sampling instants, equally spaced, increasing. [s]
    sent, delivered : array_like, shape (k, n)
        Cumulative packets sent / delivered in order by each flow at each
        instant. [packets]
    sent_total, lost_total : array_like, shape (n,)
        Packets sent and lost by each flow over the whole run. [packets]
    capacity : float
        Capacity of the shared link in packets per second. [packets/s]
    warmup : float, optional
        Time after each flow's start left out. [s]
    interval : float, optional
        Sampling interval of the rates, a multiple of the samples' period
        (default: that period). [s]
    starts, stops : array_like, shape (n,), optional
        Each flow's start and stop (default 0 and the end of the trace). [s]
    crossing : array_like of bool, shape (n,), optional
        Flows that cross the shared link (default all): only they count
        in the occupancy.
    received : array_like, shape (k, n), optional
        Cumulative data packets that reached each flow's receiver,
        duplicates included: the occupancy counts them (reading
        ``"arrivals"``).  Default: the occupancy counts ``delivered``
        (reading ``"in_order"``).  Only the rows at the common window's two
        ends are read. [packets]

    Returns
    -------
    PrimoCriteria

    Raises
    ------
    ParameterError
        Bad shapes or values; a warm-up that leaves fewer than two
        intervals of some flow (or of the common window); a flow that
        never sent; nothing delivered in the common window.

    References
    ----------
    Chatté, Ducourthial & Niculescu (2006), §IV-C.

    Examples
    --------
    Two constant flows of 10 and 30 packets/s on a 50 packets/s link, no
    loss: stable rates, occupancy 80 %, the smaller share 0.25 of an ideal
    0.5, so fairness 50 %.

    >>> import numpy as np
    >>> t = np.arange(11.0)
    >>> cum = np.outer(t, [10.0, 30.0])
    >>> c = five_criteria(t, cum, cum, [100, 300], [0, 0], capacity=50.0)
    >>> [round(c[k], 6) for k in c.keys()]
    [100.0, 100.0, 100.0, 80.0, 50.0]
    """
    time = check_finite("time", time)
    sent = check_finite("sent", sent)
    delivered = check_finite("delivered", delivered)
    if time.ndim != 1 or time.size < 3:
        raise ParameterError(f"time must be a 1-d array of at least 3 instants, got shape "
                             f"{time.shape}")
    if sent.ndim != 2 or sent.shape[0] != time.size or delivered.shape != sent.shape:
        raise ParameterError(f"sent and delivered must have shape (len(time), flows) = "
                             f"({time.size}, n); got {sent.shape} and {delivered.shape}")
    n = sent.shape[1]
    if n < 1:
        raise ParameterError("sent must hold at least one flow (shape (k, n) with n >= 1)")
    step = np.diff(time)
    period = float(step[0])
    if period <= 0 or not np.allclose(step, period, rtol=1e-6, atol=1e-12):
        raise ParameterError(f"time must be equally spaced and increasing, got steps from "
                             f"{step.min():g} to {step.max():g} s")
    sent_total = _per_flow("sent_total", sent_total, n)
    lost_total = _per_flow("lost_total", lost_total, n)
    check_nonnegative("sent_total", sent_total)
    check_nonnegative("lost_total", lost_total)
    never = np.flatnonzero(sent_total == 0)
    if never.size:
        raise ParameterError(
            f"flow(s) {never.tolist()} never sent a packet: their criteria are undefined")
    if np.any(lost_total > sent_total):
        raise ParameterError("lost_total must not exceed sent_total for any flow")
    capacity = check_positive("capacity", capacity, scalar=True)
    warmup = check_nonnegative("warmup", warmup, scalar=True)
    if interval is None:
        interval = period
    interval = check_positive("interval", interval, scalar=True)
    end = float(time[-1])
    if interval > end:
        raise ParameterError(f"interval must be at most the run's length {end:g} s (a rate "
                             f"needs one whole interval), got {interval!r}")
    ratio = interval / period
    stride = int(round(ratio))
    if stride < 1 or abs(ratio - stride) > _GRID_TOLERANCE * max(1.0, ratio):
        raise ParameterError(f"interval must be a multiple of the samples' period "
                             f"{period:g} s, got {interval!r}")
    if warmup >= end:
        raise ParameterError(f"warmup must leave at least two {interval:g}-s intervals (trace "
                             f"ends at {end:g} s): shorten the warm-up or run longer; got "
                             f"warmup={warmup:g} s")
    starts = np.zeros(n) if starts is None else _per_flow("starts", starts, n)
    stops = np.full(n, end) if stops is None else \
        np.minimum(_per_flow("stops", stops, n, allow_inf=True), end)
    if np.any(stops <= starts):
        raise ParameterError(f"stops must be after starts for every flow, got starts="
                             f"{starts.tolist()} and stops={stops.tolist()}")
    if crossing is not None and np.asarray(crossing).dtype != bool:
        raise ParameterError(f"crossing must be {n} booleans with at least one True, "
                             f"got {crossing!r}")
    crossing = np.ones(n, dtype=bool) if crossing is None else np.asarray(crossing, dtype=bool)
    if crossing.shape != (n,) or not crossing.any():
        raise ParameterError(f"crossing must be {n} booleans with at least one True, "
                             f"got {crossing!r}")

    def bins(a, b, what):
        """Indices of the sample instants on the interval grid in [a, b]."""
        first = int(np.ceil((a - time[0]) / period - 1e-9))
        last = int(np.floor((b - time[0]) / period + 1e-9))
        idx = np.arange(max(first, 0), min(last, time.size - 1) + 1, stride)
        if idx.size < 3:
            raise ParameterError(
                f"warmup must leave at least two {interval:g}-s intervals of {what} "
                f"(window {a:g} - {b:g} s, trace ends at {end:g} s): shorten the warm-up or "
                f"run longer; got warmup={warmup:g} s")
        return idx

    send_cv, recv_cv = np.empty(n), np.empty(n)
    for j in range(n):
        idx = bins(starts[j] + warmup, stops[j], f"flow {j}")
        send_cv[j] = _cv(np.diff(sent[idx, j]))
        recv_cv[j] = _cv(np.diff(delivered[idx, j]))
    common = bins(float(np.max(starts)) + warmup, float(np.min(stops)), "the common window")
    t0, t1 = float(time[common[0]]), float(time[common[-1]])
    got = delivered[common[-1]] - delivered[common[0]]
    total = float(got.sum())
    if total <= 0:
        raise ParameterError(f"no flow delivered a packet between {t0:g} and {t1:g} s: "
                             f"fairness and occupancy are undefined")
    shares = got / total
    loss_rate = float(lost_total.sum() / sent_total.sum())
    in_order = float(100.0 * got[crossing].sum() / (capacity * (t1 - t0)))
    occupancy, reading = in_order, "in_order"
    if received is not None:
        received = check_finite("received", received)
        if received.shape != sent.shape:
            raise ParameterError(f"received must have shape (len(time), flows) = {sent.shape}, "
                                 f"got {received.shape}")
        arrived = received[common[-1]] - received[common[0]]
        if np.any(arrived < 0):
            raise ParameterError("received must be cumulative (non-decreasing) over the common "
                                 f"window {t0:g} - {t1:g} s, got a decrease for flow(s) "
                                 f"{np.flatnonzero(arrived < 0).tolist()}")
        occupancy, reading = float(100.0 * arrived[crossing].sum() / (capacity * (t1 - t0))), \
            "arrivals"
    return PrimoCriteria(
        sending_stability=_stability(send_cv), reception_stability=_stability(recv_cv),
        goodput=100.0 * (1.0 - loss_rate), occupancy=occupancy,
        fairness=float(100.0 * n * shares.min()), sending_cv=send_cv, reception_cv=recv_cv,
        shares=shares, loss_rate=loss_rate, warmup=warmup, interval=float(stride * period),
        window=(t0, t1), occupancy_reading=reading, occupancy_in_order=in_order)


def primo_criteria(result, warmup=0.0, bottleneck=0, interval=None, occupancy="arrivals"):
    """Primo's five efficiency criteria of a simulated run (§IV-C).

    Reads the run's periodic samples (cumulative sent and in-order
    delivered packets), its loss counters and the scenario (flow starts
    and stops, the reported link's rate and which flows cross it), and
    calls :func:`five_criteria`.  With ``occupancy="arrivals"`` the
    occupancy counts the packets that reached the receivers in the common
    window (the run's ``samples.received``).

    Parameters
    ----------
    result : SimResult
        A run of :func:`ctlcc.sim.run`.
    warmup : float, optional
        Time after each flow's start left out of the rates. [s]
    bottleneck : int, optional
        Index in ``result.queues`` of the shared link whose occupancy is
        reported. [1]
    interval : float, optional
        Sampling interval of the rates, a multiple of the run's
        ``sample_interval`` (default: that interval). [s]
    occupancy : {"arrivals", "in_order"}
        What the occupancy counts (:data:`OCCUPANCY_READINGS`): packets
        that reached the receivers in the window (default), or packets
        delivered in order in it (reads above 100 % when a receiver releases
        an out-of-order backlog inside the window).

    Returns
    -------
    PrimoCriteria
        Indexable like a dict: "sending_stability", "reception_stability",
        "goodput", "occupancy", "fairness". [%]

    Raises
    ------
    ParameterError
        Bad arguments; ``occupancy="arrivals"`` for a result without
        arrival samples (``samples.received`` None).

    References
    ----------
    Chatté, Ducourthial & Niculescu (2006), §IV-C.
    """
    samples = getattr(result, "samples", None)
    if samples is None:
        raise ParameterError("result must be a SimResult with samples (from ctlcc.sim.run)")
    queues = result.queues
    if isinstance(bottleneck, bool) or not isinstance(bottleneck, (int, np.integer)) \
            or not 0 <= bottleneck < len(queues):
        raise ParameterError(f"bottleneck must be an index in 0..{len(queues) - 1} of the "
                             f"run's reported links, got {bottleneck!r}")
    warmup = check_nonnegative("warmup", warmup, scalar=True)
    if samples.time.size and warmup >= samples.time[-1]:
        raise ParameterError(f"warmup must be below the end of the run's trace "
                             f"({samples.time[-1]:g} s), got {warmup!r}")
    if occupancy not in OCCUPANCY_READINGS:
        raise ParameterError(f"occupancy must be one of {', '.join(map(repr, OCCUPANCY_READINGS))}"
                             f", got {occupancy!r}")
    if occupancy == "arrivals" and getattr(samples, "received", None) is None:
        raise ParameterError("occupancy='arrivals' needs the run's samples of the packets that "
                             "reached the receivers (Traces.received, kept by the packet "
                             "engine); this result has none: pass occupancy='in_order'")
    scenario = result.scenario
    a, b = queues[bottleneck].link
    link = next(lk for lk in scenario.links if (lk.a, lk.b) in ((a, b), (b, a)))
    crossing = [any(hop == (a, b) for hop in zip(f.path[:-1], f.path[1:]))
                for f in scenario.flows]
    args = (samples.time, samples.sent, samples.delivered,
            [f.sent for f in result.flows], [f.dropped for f in result.flows])
    options = dict(capacity=link.rate / scenario.data_bits, warmup=warmup, interval=interval,
                   starts=[f.start for f in scenario.flows],
                   stops=[f.stop for f in scenario.flows], crossing=crossing)
    received = samples.received if occupancy == "arrivals" else None
    return five_criteria(*args, **options, received=received)


def _cv(counts):
    """std/mean of per-interval counts (population std); inf for a zero mean."""
    mean = counts.mean()
    return float(counts.std() / mean) if mean > 0 else np.inf


def _stability(cv):
    """Mean over flows of 100 (1 - cv), each clipped at 0 (cv > 1 or inf give 0)."""
    return float(np.mean(100.0 * np.clip(1.0 - cv, 0.0, None)))


def _per_flow(name, value, n, allow_inf=False):
    if allow_inf:   # stops: +inf is a flow that never stops; NaN and -inf are refused
        arr = _as_float(name, value)
        if np.any(np.isnan(arr) | (arr == -np.inf)):
            raise ParameterError(f"{name} must hold real numbers or +inf (never stops), got "
                                 f"{arr.tolist()}")
    else:
        arr = check_finite(name, value)
    if arr.shape != (n,):
        raise ParameterError(f"{name} must hold one value per flow ({n}), got shape {arr.shape}")
    return arr
