# ctlcc.laws.aqm - active queue management at the bottleneck: RED and the PI controller
"""Active queue management laws: RED and Hollot et al.'s PI controller.

RED (Floyd & Jacobson 1993), per arriving packet, as ns-3.44's
``RedQueueDisc`` does it (its ``DoEnqueue``, ``Estimator``,
``CalculatePNew``, ``ModifyP``)::

    avg   <- avg (1 - w)^(m + 1) + w q          EWMA of the queue q met by the
                                                arrival; m = packets the link
                                                could have sent while idle
    p_b   =  0                                  avg < min_th
             max_p (avg - min_th)/(max_th - min_th)     min_th <= avg < max_th
             max_p + (1 - max_p)(avg - max_th)/max_th   max_th <= avg < 2 max_th (gentle)
             1                                  above
    p_a   =  p_b / (1 - count p_b)              (F&J §7: drops uniform in [1, 1/p_b])
          or 0, p_b / (2 - count p_b), 1        for count p_b < 1, < 2, >= 2
                                                ("wait", ns-2/ns-3's default: uniform
                                                in [1/p_b, 2/p_b])

``count`` is the number of packets accepted since the last early drop (or
since avg crossed min_th).  An early drop/mark happens with probability
p_a; at or above max_th (2 max_th when gentle) every packet is dropped
("forced").  With ECN an early verdict marks instead of dropping; a forced
verdict still drops unless ``hard_drop`` is off (ns-3's ``UseHardDrop``).

The fluid model (:class:`ctlcc.sim.fluid.Red`) averages with the low-pass
``d avg/dt = K (q - avg)``; Hollot et al. (2001) relate the two by
``K = -C ln(1 - w)`` (one EWMA step per packet time at capacity C):
:func:`red_averaging_pole`.

PI AQM (Hollot, Misra, Towsley & Gong 2002).  The continuous controller
``C(s) = K_PI (s/z + 1)/s`` from queue error to drop probability, sampled
every ``T = 1/f_s`` seconds through the bilinear (Tustin) transform, is the
difference equation::

    p(k) = p(k-1) + a (q(k) - q_ref) - b (q(k-1) - q_ref),
    a = (K_PI/z)(1 + z T/2),   b = (K_PI/z)(1 - z T/2)

with p kept in [0, 1] (a probability; the clip is explicit,
:func:`pi_update_core`).  :func:`pi_design` places z on the TCP pole
2N/(R^2 C) and picks K_PI for a chosen gain crossover, as Hollot et al.
design it; :func:`pi_coefficients` gives (a, b).

Each rule has a plain-arithmetic core (floats, numpy arrays where it is
branch-free, sympy symbols, ``numba.njit``) and a validated wrapper.  The
linear analysis of the loops (Hollot's plant, RED's and PI's margins) is
:mod:`ctlcc.analysis.aqm`.

Differences between ns-3.44 and the 1993 paper that these cores follow
ns-3 on (so the packet version can be compared with ``RedQueueDisc``):
an early drop needs more than one packet queued (``nQueued > 1``, as in
ns-2; an option, :attr:`RedParams.min_queue`, None for the 1993 reading);
``count`` is reset to 1 (not 0) when avg first crosses min_th and is
*not* reset by a forced drop; the idle-time correction uses
``m = floor(C_pkts (now - idle_start))``.

References
----------
Floyd & Jacobson (1993), §4 and §7 (EWMA, drop curve, count-based
spacing); Hollot et al. (2001), §III (K = -C ln(1 - w)); Hollot et al.
(2002), §V (PI controller, its design and the discrete form).
"""

import functools
import math
import warnings
from dataclasses import dataclass

import numpy as np

from .._validation import (check_bool, check_choice, check_interval, check_nonnegative,
                           check_positive, check_result, finite_result)
from ..errors import ParameterError
from ._core import law_core

__all__ = [
    "ACCEPT",
    "EARLY",
    "FORCED",
    "MARK",
    "DROP",
    "UnstablePiWarning",
    "RedParams",
    "PiParams",
    "red_average_core",
    "red_average",
    "red_average_step_core",
    "red_ramp_core",
    "red_gentle_ramp_core",
    "red_probability_core",
    "red_probability",
    "red_count_probability_core",
    "red_count_probability",
    "RED_SPACINGS",
    "red_spacing_rate",
    "red_spacing_rate_core",
    "red_idle_packets_core",
    "RED_NS3_MIN_QUEUE",
    "RED_NO_MIN_QUEUE",
    "red_gate_core",
    "red_arrival_core",
    "red_action_core",
    "red_averaging_pole",
    "pi_increment_core",
    "pi_update_core",
    "pi_update",
    "pi_coefficients",
    "pi_design",
]

#: Verdicts of :func:`red_arrival_core`: accept, early (random) drop/mark,
#: forced drop (avg above max_th, or 2 max_th when gentle).
ACCEPT, EARLY, FORCED = 0, 1, 2
#: Actions of :func:`red_action_core` (ACCEPT = 0 as above).
MARK, DROP = 1, 2
#: :attr:`RedParams.min_queue`'s default: ns-2's and ns-3's ``queue > 1`` rule. [packets]
RED_NS3_MIN_QUEUE = 1.0
#: The core's stand-in for ``min_queue=None`` (no rule): any queue >= 0 exceeds it. [packets]
RED_NO_MIN_QUEUE = -1.0


class UnstablePiWarning(UserWarning):
    """PI gains that cannot regulate the queue (allowed, but warned)."""


@dataclass(frozen=True)
class RedParams:
    """Parameters of a RED queue (Floyd & Jacobson 1993).

    Attributes
    ----------
    min_threshold, max_threshold : float
        Thresholds on the average queue, 0 <= min < max. [packets]
    max_probability : float
        p_b at ``max_threshold`` (F&J's max_p), in (0, 1]. [1]
    weight : float
        EWMA weight w_q per arrival, in (0, 1] (F&J: 0.002). [1]
    gentle : bool
        Between max_th and 2 max_th rise linearly from max_p to 1 instead
        of jumping to 1 (Floyd 2000; ns-3's default is True).
    wait : bool
        ns-2/ns-3's "wait" spacing (drops uniform in [1/p_b, 2/p_b]
        packets, ns-3's default True) instead of F&J's p_b / (1 - count p_b).
    ecn : bool
        Mark ECN-capable packets instead of dropping them early.
    hard_drop : bool
        With ``ecn``, still drop (not mark) above the forced threshold
        (ns-3's ``UseHardDrop``, default True).
    min_queue : float or None
        No drop or mark while at most this many packets wait, however high
        the average (:func:`red_gate_core`), >= 0.  1 (the default) is
        ns-2's and ns-3's RED (``nQueued > 1``); None is no such rule, the
        reading of Floyd & Jacobson's pseudo-code and of Misra, Gong &
        Towsley's model (:class:`ctlcc.sim.fluid.Red`'s default), which
        drop at p(avg) whatever the queue. [packets]

    Examples
    --------
    >>> RedParams(5, 15, 0.1).slope
    0.01
    >>> RedParams(15, 5, 0.1)
    Traceback (most recent call last):
    ...
    ctlcc.errors.ParameterError: min_threshold must be < max_threshold = 5.0, got 15.0
    >>> RedParams(5, 15, 1.5)
    Traceback (most recent call last):
    ...
    ctlcc.errors.ParameterError: max_probability must be in (0, 1], got 1.5
    >>> RedParams(5, 15, 0.1).min_queue, RedParams(5, 15, 0.1, min_queue=None).min_queue
    (1.0, None)
    >>> RedParams(5, 15, 0.1, min_queue=-1)
    Traceback (most recent call last):
    ...
    ctlcc.errors.ParameterError: min_queue must be in [0, inf) or None (no such rule), got -1.0
    """

    min_threshold: float
    max_threshold: float
    max_probability: float
    weight: float = 0.002
    gentle: bool = False
    wait: bool = False
    ecn: bool = False
    hard_drop: bool = True
    min_queue: object = RED_NS3_MIN_QUEUE

    def __post_init__(self):
        low = check_nonnegative("min_threshold", self.min_threshold, scalar=True)
        high = check_positive("max_threshold", self.max_threshold, scalar=True)
        if not low < high:
            raise ParameterError(f"min_threshold must be < max_threshold = {float(high)!r}, "
                                 f"got {float(low)!r}")
        object.__setattr__(self, "min_threshold", float(low))
        object.__setattr__(self, "max_threshold", float(high))
        object.__setattr__(self, "max_probability", float(check_interval(
            "max_probability", self.max_probability, 0.0, 1.0, closed="right", scalar=True)))
        object.__setattr__(self, "weight", float(check_interval(
            "weight", self.weight, 0.0, 1.0, closed="right", scalar=True)))
        for name in ("gentle", "wait", "ecn", "hard_drop"):
            check_bool(name, getattr(self, name))
        object.__setattr__(self, "min_queue", _check_min_queue(self.min_queue))

    @property
    def gate_threshold(self):
        """``min_queue`` as :func:`red_arrival_core` takes it (None: :data:`RED_NO_MIN_QUEUE`).

        [packets]
        """
        return RED_NO_MIN_QUEUE if self.min_queue is None else self.min_queue

    @property
    def slope(self):
        """L_RED = max_p / (max_th - min_th), the drop curve's slope. [1/packet]"""
        return self.max_probability / (self.max_threshold - self.min_threshold)

    def probability(self, average):
        """p_b of an average queue (:func:`red_probability`). [1]"""
        return red_probability(average, self.min_threshold, self.max_threshold,
                               self.max_probability, self.gentle)


@dataclass(frozen=True)
class PiParams:
    """Parameters of the PI AQM difference equation (Hollot et al. 2002).

    Attributes
    ----------
    a, b : float
        Coefficients of ``p(k) = p(k-1) + a e(k) - b e(k-1)``,
        ``e = q - q_ref``. [1/packet]
    reference : float
        Queue reference q_ref, >= 0. [packets]
    sampling_frequency : float
        Updates per second f_s, > 0. [1/s]
    ecn : bool
        Mark instead of drop.

    Notes
    -----
    ``a > b > 0`` is the discrete form of a PI controller with a zero at
    z = 2 f_s (a - b)/(a + b) > 0 (see :func:`pi_coefficients`).  Other
    values are allowed but warned (:class:`UnstablePiWarning`): with
    ``a <= 0`` the probability falls as the queue grows (positive
    feedback), and with ``b >= a`` the controller's zero ``b/a`` is on or
    outside the unit circle, so no gain regulates the queue to q_ref
    around Hollot's plant.  Whether a given (a, b) is stable for a given
    network is :func:`ctlcc.analysis.aqm.pi_loop`'s answer.

    Examples
    --------
    >>> PiParams(1.822e-5, 1.816e-5, 200.0, 160.0).zero_z
    0.9967069154774972
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = PiParams(1e-5, 2e-5, 200.0, 160.0)
    >>> caught[0].category.__name__
    'UnstablePiWarning'
    """

    a: float
    b: float
    reference: float
    sampling_frequency: float
    ecn: bool = False

    def __post_init__(self):
        for name in ("a", "b"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float, np.floating,
                                                                 np.integer)):
                raise ParameterError(f"{name} must be a real number, got {value!r}")
            if not math.isfinite(value):
                raise ParameterError(f"{name} must be finite, got {value!r}")
            object.__setattr__(self, name, float(value))
        object.__setattr__(self, "reference", float(check_nonnegative(
            "reference", self.reference, scalar=True)))
        object.__setattr__(self, "sampling_frequency", float(check_positive(
            "sampling_frequency", self.sampling_frequency, scalar=True)))
        check_bool("ecn", self.ecn)
        if not self.a > 0:
            warnings.warn(f"PI coefficient a = {self.a!r} <= 0: the drop probability falls as "
                          f"the queue grows (positive feedback); a > b > 0 regulates",
                          UnstablePiWarning, stacklevel=2)
        elif not self.b < self.a:
            warnings.warn(f"PI coefficients b = {self.b!r} >= a = {self.a!r}: the controller's "
                          f"zero b/a is on or outside the unit circle and cannot regulate the "
                          f"queue; a > b > 0 regulates", UnstablePiWarning, stacklevel=2)

    @property
    def period(self):
        """Sampling period T = 1/f_s. [s]"""
        return 1.0 / self.sampling_frequency

    @property
    def zero_z(self):
        """The controller's zero b/a in the z-plane. [1]"""
        return self.b / self.a

    @classmethod
    def design(cls, n_flows, capacity, round_trip, reference, sampling_frequency,
               crossover=None, ecn=False):
        """PI parameters from :func:`pi_design` and :func:`pi_coefficients`.

        Examples
        --------
        >>> p = PiParams.design(60, 3750.0, 0.2467, 175.0, 160.0)
        >>> p.a > p.b > 0
        True
        """
        gain, zero = pi_design(n_flows, capacity, round_trip, crossover)
        a, b = pi_coefficients(gain, zero, sampling_frequency)
        return cls(a, b, reference, sampling_frequency, ecn)


# --------------------------------------------------------------------------- RED cores
@law_core
def red_average_core(average, queue, weight, idle_packets):
    """F&J's EWMA after an arrival: avg (1 - w)^(m + 1) + w q. [packets]"""
    return average * (1.0 - weight) ** (idle_packets + 1) + weight * queue


def red_average(average, queue, weight=0.002, idle_packets=0):
    """RED's average queue after one arrival (Floyd & Jacobson 1993, §4).

    Parameters
    ----------
    average : float or array_like
        Average before the arrival, >= 0. [packets]
    queue : float or array_like
        Packets queued when the packet arrives (not counting it), >= 0. [packets]
    weight : float
        EWMA weight w_q, in (0, 1]. [1]
    idle_packets : float
        m, packets the link could have sent while the queue was idle,
        >= 0 (0 when it was busy). [packets]

    Returns
    -------
    float or ndarray
        avg (1 - w)^(m + 1) + w q. [packets]

    References
    ----------
    Floyd & Jacobson (1993), §4 and Figure 2 ("avg <- (1 - w_q)^m avg" on an
    idle queue, then the EWMA step).

    Examples
    --------
    >>> red_average(10.0, 20.0, 0.5)
    15.0
    >>> red_average(10.0, 0.0, 0.5, idle_packets=2)
    1.25
    """
    average = check_nonnegative("average", average)
    queue = check_nonnegative("queue", queue)
    weight = check_interval("weight", weight, 0.0, 1.0, closed="right", scalar=True)
    idle_packets = check_nonnegative("idle_packets", idle_packets, scalar=True)
    return red_average_core(average, queue, weight, idle_packets)


@law_core
def red_average_step_core(average, queue, pole, dt):
    """Euler step of the fluid average d avg/dt = K (q - avg) over dt. [packets]"""
    return average + dt * pole * (queue - average)


@law_core
def red_ramp_core(average, min_th, max_th, max_p):
    """p_b between the thresholds: max_p (avg - min_th)/(max_th - min_th). [1]"""
    return max_p * ((average - min_th) / (max_th - min_th))


@law_core
def red_gentle_ramp_core(average, max_th, max_p):
    """Gentle p_b between max_th and 2 max_th: max_p + (1 - max_p)(avg - max_th)/max_th. [1]"""
    return max_p + (1 - max_p) * (average - max_th) / max_th


@law_core
def red_probability_core(average, min_th, max_th, max_p, gentle):
    """RED's drop curve p_b(avg) for one number (numba, floats). [1]"""
    if average < min_th:
        return 0.0
    if average < max_th:
        return red_ramp_core(average, min_th, max_th, max_p)
    if gentle and average < 2.0 * max_th:
        return red_gentle_ramp_core(average, max_th, max_p)
    return 1.0


def red_probability(average, min_threshold, max_threshold, max_probability, gentle=False):
    """RED's drop curve p_b of the average queue, for numbers or arrays.

    Parameters
    ----------
    average : float or array_like
        Average queue, >= 0. [packets]
    min_threshold, max_threshold : float or array_like
        Thresholds, 0 <= min < max (broadcast against ``average``). [packets]
    max_probability : float or array_like
        p_b at max_threshold, in (0, 1]. [1]
    gentle : bool
        Rise from max_p to 1 between max_th and 2 max_th (else 1 at max_th).

    Returns
    -------
    float or ndarray
        p_b in [0, 1]. [1]

    References
    ----------
    Floyd & Jacobson (1993), §4 (p_b); gentle: ns-3's ``RedQueueDisc``.

    Examples
    --------
    >>> red_probability([2.0, 10.0, 20.0, 40.0], 5.0, 15.0, 0.1).tolist()
    [0.0, 0.05, 1.0, 1.0]
    >>> red_probability([20.0, 40.0], 5.0, 15.0, 0.1, gentle=True).round(6).tolist()
    [0.4, 1.0]
    """
    average = check_nonnegative("average", average)
    low = check_nonnegative("min_threshold", min_threshold)
    high = check_positive("max_threshold", max_threshold)
    if not np.all(np.asarray(low) < np.asarray(high)):
        raise ParameterError(f"min_threshold must be < max_threshold, got {min_threshold!r} "
                             f">= {max_threshold!r}")
    pmax = check_interval("max_probability", max_probability, 0.0, 1.0, closed="right")
    check_bool("gentle", gentle)
    out = _red_probability_array(np.asarray(average, dtype=float), np.asarray(low, dtype=float),
                                 np.asarray(high, dtype=float), np.asarray(pmax, dtype=float),
                                 gentle)
    return float(out) if np.ndim(out) == 0 else out


def _red_probability_array(average, low, high, pmax, gentle):
    """:func:`red_probability_core` element by element on validated arrays (the fluid model's map).

    The core itself, compiled as a numpy ufunc (one law, no vectorised copy).
    """
    return _ufuncs()[0](average, low, high, pmax, bool(gentle))


@law_core
def red_count_probability_core(p_b, count, wait):
    """p_a from p_b and the packets since the last drop (ns-3's ModifyP). [1]"""
    x = count * p_b
    if wait:
        if x < 1.0:
            return 0.0
        if x < 2.0:
            p = p_b / (2.0 - x)
            return p if p < 1.0 else 1.0
        return 1.0
    if x < 1.0:
        p = p_b / (1.0 - x)
        return p if p < 1.0 else 1.0
    return 1.0


def red_count_probability(p_b, count, wait=False):
    """RED's per-packet drop probability p_a after ``count`` packets.

    Parameters
    ----------
    p_b : float
        Drop-curve probability, in [0, 1]. [1]
    count : float
        Packets accepted since the last early drop, >= 0. [packets]
    wait : bool
        ns-2/ns-3's variant (drops uniform in [1/p_b, 2/p_b] packets)
        instead of F&J's p_b/(1 - count p_b) (uniform in [1, 1/p_b]).

    Returns
    -------
    float
        p_a in [0, 1]. [1]

    References
    ----------
    Floyd & Jacobson (1993), §7 (p_a = p_b / (1 - count p_b)); the "wait"
    form is ns-3's ``RedQueueDisc::ModifyP``.

    Examples
    --------
    >>> red_count_probability(0.1, 5)
    0.2
    >>> red_count_probability(0.1, 5, wait=True), red_count_probability(0.1, 15, wait=True)
    (0.0, 0.2)
    """
    p_b = check_interval("p_b", p_b, 0.0, 1.0, closed="both", scalar=True)
    count = check_nonnegative("count", count, scalar=True)
    check_bool("wait", wait)
    return red_count_probability_core(float(p_b), float(count), wait)



#: Readings of RED's drop spacing for a model that sees p_b only (fluid model, linear analysis)
RED_SPACINGS = ("none", "count", "wait")


def red_spacing_rate(p_b, spacing="count"):
    """Drops per packet of a RED queue held at a constant p_b, by its spacing rule.

    RED does not drop each packet independently with p_b: after a drop it
    counts the packets since (Floyd & Jacobson 1993, §7) and drops the
    n-th with p_a(n) (:func:`red_count_probability`), so the packets
    between drops X have a known law and the long-run drop rate per packet
    is 1 / E[X] (renewal).  With ``count`` (F&J's p_b / (1 - n p_b)),
    P(X > n) = (1 - (n + 1) p_b) / (1 - p_b) while (n + 1) p_b < 1: X is
    uniform on 1..J, J = ceil(1/p_b) - 1, and

        E[X] = (J - p_b J (J + 1) / 2) / (1 - p_b)      (= 1/(2 p_b) for 1/p_b whole),

    about 2 p_b per packet.  With ``wait`` (ns-2/ns-3's default) no drop
    comes before a = ceil(1/p_b) packets, then P(X > n) = (2 - (n + 1) p_b)
    / (2 - a p_b) while (n + 1) p_b < 2, about 2 p_b / 3 per packet.
    ``none`` is the reading of Hollot et al.'s fluid model and linear
    analysis: each packet dropped with p_b itself.

    Parameters
    ----------
    p_b : float or array_like
        Drop-curve probability, in [0, 1]. [1]
    spacing : {"none", "count", "wait"}

    Returns
    -------
    float or ndarray
        1 / E[X], in [0, 1]. [1/packet]

    References
    ----------
    Floyd & Jacobson (1993), §7 (the uniform spacing of marks); ns-3.44's
    ``RedQueueDisc::ModifyP`` (the ``Wait`` form).

    Examples
    --------
    >>> float(red_spacing_rate(0.1, "count")), float(red_spacing_rate(0.1, "none"))
    (0.2, 0.1)
    >>> round(1 / float(red_spacing_rate(0.1, "wait")), 6)
    14.5
    """
    check_choice("spacing", spacing, RED_SPACINGS)
    p = np.asarray(check_interval("p_b", p_b, 0.0, 1.0, closed="both"), dtype=float)
    out = _ufuncs()[1](p, RED_SPACINGS.index(spacing))
    return float(out) if np.ndim(out) == 0 else out


@law_core
def red_spacing_rate_core(p_b, spacing):
    """1 / E[X], the drops per packet of RED at a constant p_b (numba, floats). [1/packet]

    *spacing* is the index of the rule in :data:`RED_SPACINGS`: 0 ``none``
    (p_b itself), 1 ``count``, 2 ``wait``; see :func:`red_spacing_rate` for
    the renewal argument and the two means.  p_b = 0 gives 0.
    """
    if spacing == 0:
        return p_b
    if not p_b > 0.0:
        return 0.0
    inv = 1.0 / p_b
    if spacing == 1:
        j = np.maximum(np.ceil(inv) - 1.0, 0.0)
        mean = (j - p_b * j * (j + 1.0) / 2.0) / (1.0 - p_b) if j > 0.0 else 1.0
    else:
        a = np.maximum(np.ceil(inv), 1.0)
        k = np.maximum(np.ceil(2.0 * inv) - 1.0 - a, 0.0)
        mean = a + ((2.0 * k - p_b * k * (2.0 * a + k + 1.0) / 2.0) / (2.0 - a * p_b)
                    if k > 0.0 else 0.0)
    return 1.0 / mean


@functools.lru_cache(maxsize=None)
def _ufuncs():
    """:func:`red_probability_core` and :func:`red_spacing_rate_core` as numpy ufuncs.

    Compiled by numba from the cores themselves on first use (and cached on
    disk), so that the arrays of the fluid model and of the public wrappers
    go through the same arithmetic as the compiled fluid loop and the packet
    engine's queues, element by element.
    """
    import numba

    curve = numba.vectorize(["float64(float64, float64, float64, float64, boolean)"],
                            cache=True)(red_probability_core)
    spacing = numba.vectorize(["float64(float64, int64)"], cache=True)(red_spacing_rate_core)
    return curve, spacing


@law_core
def red_idle_packets_core(idle_time, packet_rate):
    """m = floor(packet_rate x idle time): packets the idle link could have sent. [packets]"""
    m = packet_rate * idle_time
    return float(int(m)) if m > 0.0 else 0.0


@law_core
def red_gate_core(queue, min_queue):
    """RED may drop or mark at this queue: ``queue > min_queue`` (numbers or arrays).

    ns-2's and ns-3's RED drop nothing while at most one packet waits
    (``min_queue`` = 1), however high the average; Misra, Gong & Towsley's
    fluid model marks at p(avg) whatever the queue (``min_queue`` < 0, e.g.
    :data:`RED_NO_MIN_QUEUE`: every queue >= 0 passes).
    """
    return queue > min_queue


@law_core
def red_arrival_core(average, count, old, queue, idle_packets, u, min_th, max_th, max_p,
                     weight, gentle, wait, min_queue=RED_NS3_MIN_QUEUE):
    """One arrival at a RED queue, as ns-3.44's ``RedQueueDisc::DoEnqueue``.

    ``queue`` is the number of packets waiting when the packet arrives,
    ``u`` a uniform draw in [0, 1), ``old`` 1 while avg stays above min_th.
    No early or forced verdict while ``queue <= min_queue``
    (:func:`red_gate_core`): 1, the default, is ns-3's ``nQueued > 1``;
    a negative value (:data:`RED_NO_MIN_QUEUE`) is no such rule, as in
    Misra et al.'s model.  Returns ``(verdict, average, count, old)`` with
    verdict ACCEPT (0), EARLY (1) or FORCED (2).
    """
    average = red_average_core(average, queue, weight, idle_packets)
    count = count + 1
    verdict = 0
    if average >= min_th and red_gate_core(queue, min_queue):
        if (not gentle and average >= max_th) or (gentle and average >= 2.0 * max_th):
            verdict = 2
        elif old == 0:
            count = 1
            old = 1
        else:
            p_a = red_count_probability_core(
                red_probability_core(average, min_th, max_th, max_p, gentle), count, wait)
            if u <= p_a:
                count = 0
                verdict = 1
    else:
        old = 0
    return verdict, average, count, old


@law_core
def red_action_core(verdict, ecn, hard_drop):
    """ACCEPT, MARK or DROP for a verdict of :func:`red_arrival_core`."""
    if verdict == 0:
        return 0
    if ecn and (verdict == 1 or not hard_drop):
        return 1
    return 2


def red_averaging_pole(weight, capacity):
    """The fluid averaging pole K = -C ln(1 - w) of RED's per-packet EWMA.

    Parameters
    ----------
    weight : float
        EWMA weight w_q, in (0, 1). [1]
    capacity : float
        Link rate C (one EWMA step per packet time), > 0. [packets/s]

    Returns
    -------
    float
        K. [1/s]

    References
    ----------
    Hollot et al. (2001), §III (the low-pass filter of RED's average).

    Examples
    --------
    >>> round(red_averaging_pole(1.0e-4, 3750.0), 4)
    0.375
    """
    weight = check_interval("weight", weight, 0.0, 1.0, scalar=True)
    capacity = check_positive("capacity", capacity, scalar=True)
    return check_result("red_averaging_pole", -capacity * math.log1p(-weight), weight=weight,
                        capacity=capacity)


# --------------------------------------------------------------------------- PI cores
@law_core
def pi_increment_core(queue, queue_previous, reference, a, b):
    """p(k) - p(k-1) = a (q(k) - q_ref) - b (q(k-1) - q_ref), before the clip. [1]"""
    return a * (queue - reference) - b * (queue_previous - reference)


@law_core
def pi_update_core(p_previous, queue, queue_previous, reference, a, b):
    """p(k) = p(k-1) + a (q(k) - q_ref) - b (q(k-1) - q_ref), kept in [0, 1]. [1]"""
    p = p_previous + pi_increment_core(queue, queue_previous, reference, a, b)
    if p < 0.0:
        return 0.0
    if p > 1.0:
        return 1.0
    return p


def pi_update(p_previous, queue, queue_previous, params):
    """One step of the PI AQM (Hollot et al. 2002, the discrete controller).

    Parameters
    ----------
    p_previous : float
        p(k-1), in [0, 1]. [1]
    queue, queue_previous : float
        q(k) and q(k-1), >= 0. [packets]
    params : PiParams

    Returns
    -------
    float
        p(k), clipped to [0, 1]. [1]

    References
    ----------
    Hollot et al. (2002), §V (PI controller, discrete form).

    Examples
    --------
    >>> pi = PiParams(2e-4, 1e-4, 100.0, 100.0)
    >>> round(pi_update(0.01, 150.0, 140.0, pi), 6)
    0.016
    >>> pi_update(0.0, 50.0, 50.0, pi)
    0.0
    """
    if not isinstance(params, PiParams):
        raise ParameterError(f"params must be a PiParams, got {params!r}")
    p_previous = check_interval("p_previous", p_previous, 0.0, 1.0, closed="both", scalar=True)
    queue = check_nonnegative("queue", queue, scalar=True)
    queue_previous = check_nonnegative("queue_previous", queue_previous, scalar=True)
    return pi_update_core(float(p_previous), float(queue), float(queue_previous),
                          params.reference, params.a, params.b)


@finite_result
def pi_coefficients(gain, zero, sampling_frequency):
    """(a, b) of the discrete PI from K_PI (s/z + 1)/s by the Tustin transform.

    Parameters
    ----------
    gain : float
        K_PI, > 0. [1/(packet s)]
    zero : float
        z, the controller's zero, > 0. [rad/s]
    sampling_frequency : float
        f_s = 1/T, > 0. [1/s]

    Returns
    -------
    (float, float)
        a = (K/z)(1 + zT/2), b = (K/z)(1 - zT/2). [1/packet]

    References
    ----------
    Hollot et al. (2002), §V (the PI controller and its digital form).

    Notes
    -----
    Where K_PI = 9.64e-6 and z = 0.53 rad/s come from: the design example
    of Hollot, Misra, Towsley & Gong, "Analysis and design of controllers
    for AQM routers supporting TCP flows", IEEE Transactions on Automatic
    Control 47(6):945-959, 2002, §V (N = 60, C = 3750 packets/s, R+ about
    0.25 s; the journal version of their INFOCOM 2001 paper "On designing
    improved controllers for AQM routers supporting TCP flows").  The
    article's text was not available to ctlcc's authors beyond its first
    page, so the two numbers are checked by two independent routes instead:
    :func:`pi_design` gives K_PI = 9.64e-6, z = 0.526 rad/s from the
    example's N, C and R, and ns-2's ``Queue/PI`` defaults (ns-2.35
    ``tcl/lib/ns-default.tcl``: ``a_ 0.00001822``, ``b_ 0.00001816``,
    ``w_ 170``), written by the same group, are this function's output for
    (9.64e-6, 0.53) at 160 Hz (and at 170 Hz) to four digits.

    Examples
    --------
    K_PI = 9.64e-6 and z = 0.53 rad/s at 160 Hz:

    >>> a, b = pi_coefficients(9.64e-6, 0.53, 160.0)
    >>> f"{a:.4g} {b:.4g}"
    '1.822e-05 1.816e-05'
    """
    gain = check_positive("gain", gain, scalar=True)
    zero = check_positive("zero", zero, scalar=True)
    fs = check_positive("sampling_frequency", sampling_frequency, scalar=True)
    half = zero / (2.0 * fs)
    ratio = gain / zero
    return ratio * (1.0 + half), ratio * (1.0 - half)


def pi_design(n_flows, capacity, round_trip, crossover=None):
    """Hollot et al.'s PI design: zero on the TCP pole, gain for a crossover.

    The plant from drop probability to queue (Hollot et al. 2001/2002) is
    ``P(s) = (R C)^3/(2N)^2 e^{-sR} / ((s/p_tcp + 1)(s R + 1))`` with
    ``p_tcp = 2N/(R^2 C)``.  Placing the PI zero on the TCP pole,
    ``z = p_tcp``, leaves ``L(s) = K_PI (R C)^3/(2N)^2 e^{-sR}/(s (sR + 1))``;
    ``K_PI`` then puts the gain crossover at ``crossover``::

        K_PI = crossover |j crossover R + 1| (2N)^2 / (R C)^3.

    Parameters
    ----------
    n_flows : float
        Smallest number of flows the design must hold for, N^-, > 0.
    capacity : float
        Link rate C, > 0. [packets/s]
    round_trip : float
        Largest round trip R^+, > 0. [s]
    crossover : float, optional
        Gain crossover w_g, > 0; default the zero z itself. [rad/s]

    Returns
    -------
    (float, float)
        (K_PI, z). [1/(packet s)], [rad/s]

    References
    ----------
    Hollot et al. (2002), §V (PI design; example N = 60, C = 3750
    packets/s, R^+ about 0.25 s).

    Examples
    --------
    Hollot's example at its operating point (R0 = q0/C + Tp = 0.2467 s):

    >>> gain, zero = pi_design(60, 3750.0, 0.2467)
    >>> round(zero, 4), f"{gain:.3g}"
    (0.5258, '9.64e-06')
    """
    n = float(check_positive("n_flows", n_flows, scalar=True))
    c = float(check_positive("capacity", capacity, scalar=True))
    r = float(check_positive("round_trip", round_trip, scalar=True))
    inputs = dict(n_flows=n, capacity=c, round_trip=r)
    if crossover is not None:
        inputs["crossover"] = float(check_positive("crossover", crossover, scalar=True))
    with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
        n64, c64, r64 = np.float64(n), np.float64(c), np.float64(r)
        zero = 2.0 * n64 / (r64 * r64 * c64)
        w = zero if crossover is None else np.float64(inputs["crossover"])
        gain = w * np.hypot(w * r64, 1.0) * (2.0 * n64) ** 2 / (r64 * c64) ** 3
    # overflow or underflow (a zero of 1e-300 flows) is refused, naming every input
    check_result("pi_design's zero 2N/(R^2 C)", zero, positive=True, **inputs)
    check_result("pi_design's gain K_PI", gain, positive=True, **inputs)
    return float(gain), float(zero)


def _check_min_queue(min_queue):
    """RED's ``min_queue`` (RedParams, fluid.Red): None or a finite number >= 0, as a float."""
    if min_queue is None:
        return None
    try:
        return float(check_nonnegative("min_queue", min_queue, scalar=True))
    except ParameterError as err:   # one message: the argument, its range, the value
        raise ParameterError(f"min_queue must be in [0, inf) or None (no such rule), "
                             f"got {err.got}", got=err.got) from None
