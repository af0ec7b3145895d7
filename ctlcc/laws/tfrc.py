# ctlcc.laws.tfrc - TFRC (RFC 5348): loss-event rate, sender rate update and nofeedback timer
"""TCP-Friendly Rate Control, RFC 5348, as numba-compilable law cores.

Receiver side (§5.4): the loss-event rate ``p = 1/I_mean`` from the
weighted average of the last ``n = 8`` loss intervals, weights
``w = (1, 1, 1, 1, 0.8, 0.6, 0.4, 0.2)``; the open interval ``I_0`` counts
only when it raises the average (``I_tot = max(I_tot0, I_tot1)``).  The
first loss interval is synthesised (§6.3.1) by inverting the throughput
equation at the target rate ``X_target = max(X_recv so far)``, never below
0.5 packets per RTT, :func:`loss_interval_for_rate_core`.  History
discounting (§5.5, OPTIONAL) is not implemented.

Sender side (§4.3, steps 2-4, for a sender that is not data-limited)::

    R = R_sample (first), else q R + (1 - q) R_sample          q = 0.9
    RTO = max(4 R, 2 s/X)                       X before the update below
    first RTT measurement (§4.2):  X = W_init/R; tld = t_now
    otherwise   recv_limit = 2 max(X_recv_set)
    if p > 0:   X = max(min(X_Bps(p, R), recv_limit), s/t_mbi)
    elif t_now - tld >= R:                                     slow start
                X = max(min(2 X, recv_limit), W_init/R); tld = t_now
    nofeedback timer = RTO

with ``X_Bps`` the throughput equation of §3.1 (b = 1, t_RTO = 4 R),
``W_init = min(4 s, max(2 s, 4380 bytes))`` (RFC 3390, §4.2), ``X = 1``
packet/s and ``tld = -1`` initially (§4.2; ctlcc uses -1, not the also
allowed 0, so that ``tld < 0`` marks "no RTT measurement yet"),
``t_mbi = 64`` s.  X_recv_set starts as ``{inf}`` and its entries age out
after two RTTs (§4.3, Update X_recv_set()); the caller keeps the set and
passes its maximum.  When the
nofeedback timer expires (§4.4) the rate is halved:
``max(X/2, s/t_mbi)`` while there is no feedback or ``p = 0``; otherwise
through ``Update_Limits(X_recv)`` if ``X_Bps > 2 X_recv`` (the receive rate
was already the limit), else ``Update_Limits(X_Bps/2)``.  The data-limited
branches of §4.3 step 4 (halving X_recv_set, Maximize X_recv_set()) and
§4.5's oscillation reduction (X_inst) are not implemented: a deliberate
simplification, the ctlcc senders are saturated (never data-limited).

Units: ``s`` in any size unit (1 for packets, bytes at the edges); rates are
then in that unit per second.  The cores are plain arithmetic
(:mod:`ctlcc.laws._core`): numpy, sympy (the equation and the averages)
and ``numba.njit(core, inline="always")`` accept the same functions.
:func:`ctlcc.bounds.tfrc_rate` evaluates :func:`tfrc_rate_core`.
"""

import math
from dataclasses import dataclass

import numpy as np

from .._validation import (check_finite, check_interval, check_nonnegative, check_positive,
                           check_positive_int)
from ..errors import ParameterError
from ._core import law_core

__all__ = [
    "N_INTERVALS",
    "T_MBI",
    "RTT_FILTER_Q",
    "INITIAL_RATE",
    "NOFEEDBACK_FIRST",
    "TfrcParams",
    "tfrc_rate_core",
    "initial_window_core",
    "interval_weight_core",
    "interval_weights",
    "average_loss_interval_core",
    "average_loss_interval",
    "loss_event_rate_core",
    "loss_event_rate",
    "push_loss_interval_core",
    "loss_interval_for_rate_core",
    "loss_interval_for_rate",
    "rtt_filter_core",
    "feedback_update_core",
    "feedback_update",
    "nofeedback_core",
    "nofeedback",
    "nofeedback_interval_core",
]

#: Loss intervals averaged, n (§5.4). [1]
N_INTERVALS = 8
#: Maximum back-off interval t_mbi: the rate never goes below s/t_mbi (§4.3). [s]
T_MBI = 64.0
#: RTT filter constant q of §4.3 step 2 ("recommended 0.9"). [1]
RTT_FILTER_Q = 0.9
#: Allowed rate before any feedback, one packet per second (§4.2). [packets/s]
INITIAL_RATE = 1.0
#: Nofeedback timer before the first feedback, 2 s (§4.2). [s]
NOFEEDBACK_FIRST = 2.0


@dataclass(frozen=True)
class TfrcParams:
    """TFRC's parameters; the defaults are RFC 5348's.

    Attributes
    ----------
    segment_size : float
        Segment size s in bytes, > 0; only the initial window
        ``min(4 s, max(2 s, 4380))`` needs it in bytes. [B]
    t_mbi : float
        Maximum back-off interval, > 0 (64 s, §4.3). [s]
    n : int
        Loss intervals averaged, an even integer >= 2 (8, §5.4). [1]
    q : float
        RTT filter constant, in [0, 1) (0.9, §4.3). [1]
    b : float
        Packets acknowledged per ACK in the equation, > 0 (1, §3.1). [1]

    Examples
    --------
    >>> p = TfrcParams()
    >>> p.initial_window, p.t_mbi, p.n
    (4.0, 64.0, 8)
    >>> TfrcParams(segment_size=1460).initial_window   # 4380/1460
    3.0
    >>> TfrcParams(n=7)
    Traceback (most recent call last):
    ...
    ctlcc.errors.ParameterError: n must be an even integer >= 2, got 7
    """

    segment_size: float = 1000.0
    t_mbi: float = T_MBI
    n: int = N_INTERVALS
    q: float = RTT_FILTER_Q
    b: float = 1.0

    def __post_init__(self):
        check_positive("segment_size", self.segment_size)
        check_positive("t_mbi", self.t_mbi)
        n = check_positive_int("n", self.n)
        if n < 2 or n % 2:
            raise ParameterError(f"n must be an even integer >= 2, got {self.n!r}")
        check_interval("q", self.q, 0.0, 1.0, closed="left")
        check_positive("b", self.b)

    @property
    def initial_window(self):
        """W_init in packets: ``min(4, max(2, 4380/s))`` (RFC 3390). [packets]"""
        return float(initial_window_core(1.0, 4380.0 / self.segment_size))


@law_core
def tfrc_rate_core(s, R, p, t_RTO, b):
    """TCP throughput equation of RFC 5348 §3.1.

    ``X_Bps = s / (R sqrt(2 b p/3) + t_RTO (3 sqrt(3 b p/8)) p (1 + 32 p^2))``

    Parameters
    ----------
    s : float
        Segment size (1: packets). [packets or B]
    R : float
        Round-trip time, > 0. [s]
    p : float
        Loss event rate, in (0, 1]. [1]
    t_RTO : float
        Retransmission timeout (RFC 5348: 4 R). [s]
    b : float
        Packets per ACK (1). [1]

    Returns
    -------
    float
        X_Bps. [packets/s or B/s]

    References
    ----------
    RFC 5348 (Floyd, Handley, Padhye, Widmer, 2008), §3.1.

    Examples
    --------
    >>> round(tfrc_rate_core(1.0, 0.1, 0.01, 0.4, 1.0), 2)
    112.33
    """
    return s / (R * (2 * b * p / 3) ** 0.5
                + t_RTO * (3 * (3 * b * p / 8) ** 0.5) * p * (1 + 32 * p * p))


@law_core
def initial_window_core(s, w_bytes_over_s):
    """Initial window ``min(4 s, max(2 s, 4380 B))`` (RFC 3390; RFC 5348 §4.2).

    Parameters
    ----------
    s : float
        Segment size in the caller's unit (1 for packets). [packets or B]
    w_bytes_over_s : float
        4380 bytes expressed in the caller's unit (4380/segment bytes when
        ``s = 1``; 4380 when ``s`` is in bytes). [packets or B]

    Returns
    -------
    float
        W_init. [packets or B]

    References
    ----------
    RFC 5348 §4.2; RFC 3390 (initial window).

    Examples
    --------
    >>> initial_window_core(1000.0, 4380.0), initial_window_core(1.0, 4380.0 / 1460)
    (4000.0, 3.0)
    """
    return min(4.0 * s, max(2.0 * s, w_bytes_over_s))


@law_core
def interval_weight_core(i, n):
    """Weight w_i of §5.4: 1 for ``i < n/2``, else ``2 (n - i)/(n + 2)``.

    Parameters
    ----------
    i : int
        Interval index, 0 = most recent. [1]
    n : int
        Number of weights (8). [1]

    Returns
    -------
    float
        w_i. [1]

    References
    ----------
    RFC 5348 §5.4.

    Examples
    --------
    >>> [round(interval_weight_core(i, 8), 2) for i in range(8)]
    [1.0, 1.0, 1.0, 1.0, 0.8, 0.6, 0.4, 0.2]
    """
    if 2 * i < n:
        return 1.0
    return 2.0 * (n - i) / (n + 2)


def interval_weights(n=N_INTERVALS):
    """The n weights of §5.4 as an array.

    Parameters
    ----------
    n : int, optional
        Number of intervals, even >= 2. [1]

    Returns
    -------
    numpy.ndarray

    References
    ----------
    RFC 5348 §5.4.

    Examples
    --------
    >>> interval_weights().tolist()
    [1.0, 1.0, 1.0, 1.0, 0.8, 0.6, 0.4, 0.2]
    """
    n = TfrcParams(n=n).n
    return np.array([interval_weight_core(i, n) for i in range(n)])


@law_core
def average_loss_interval_core(intervals, k, n):
    """Average loss interval I_mean of §5.4, with the open-interval rule.

    Parameters
    ----------
    intervals : numpy.ndarray of float
        ``intervals[0]`` is the open interval I_0, ``intervals[1..k]`` the
        closed ones, most recent first; size >= k + 1. [packets]
    k : int
        Closed intervals held, 0 <= k <= n. [1]
    n : int
        Weights (8). [1]

    Returns
    -------
    float
        ``max(I_tot0, I_tot1)/W_tot`` with ``I_tot0 = sum_{i<k} w_i I_i``,
        ``I_tot1 = sum_{1<=i<=k} w_{i-1} I_i``, ``W_tot = sum_{i<k} w_i``;
        0 when ``k = 0`` (no loss event yet). [packets]

    References
    ----------
    RFC 5348 §5.4.

    Examples
    --------
    >>> import numpy as np
    >>> float(average_loss_interval_core(np.array([50.0] + [100.0] * 8), 8, 8))
    100.0
    """
    if k <= 0:
        return 0.0
    i_tot0 = 0.0
    i_tot1 = 0.0
    w_tot = 0.0
    for i in range(k):
        w = interval_weight_core(i, n)
        i_tot0 += intervals[i] * w
        w_tot += w
        i_tot1 += intervals[i + 1] * w
    return max(i_tot0, i_tot1) / w_tot


def average_loss_interval(intervals, n=N_INTERVALS):
    """Validated :func:`average_loss_interval_core`.

    Parameters
    ----------
    intervals : array_like of float
        ``[I_0, I_1, ..., I_k]``: the open interval first, then up to ``n``
        closed ones, each >= 0 (closed ones > 0). [packets]
    n : int, optional
        Weights, even >= 2 (8). [1]

    Returns
    -------
    float
        I_mean (0 with no closed interval). [packets]

    References
    ----------
    RFC 5348 §5.4.

    Examples
    --------
    >>> average_loss_interval([10, 20, 40])      # max(10 + 20, 20 + 40)/2
    30.0
    """
    arr, k, n = _check_intervals(intervals, n)
    return float(average_loss_interval_core(arr, k, n))


@law_core
def loss_event_rate_core(intervals, k, n):
    """Loss event rate ``p = 1/I_mean`` (§5.4); 0 before the first loss event.

    Parameters
    ----------
    intervals : numpy.ndarray of float
        ``[I_0, I_1, ..., I_k, ...]`` as in :func:`average_loss_interval_core`. [packets]
    k : int
        Closed intervals held. [1]
    n : int
        Weights (8). [1]

    Returns
    -------
    float
        p. [1]

    References
    ----------
    RFC 5348 §5.4.

    Examples
    --------
    >>> import numpy as np
    >>> float(loss_event_rate_core(np.array([50.0] + [100.0] * 8), 8, 8))
    0.01
    """
    i_mean = average_loss_interval_core(intervals, k, n)
    if i_mean <= 0.0:
        return 0.0
    return 1.0 / i_mean


def loss_event_rate(intervals, n=N_INTERVALS):
    """Validated :func:`loss_event_rate_core`.

    Parameters
    ----------
    intervals : array_like of float
        ``[I_0, I_1, ..., I_k]`` as in :func:`average_loss_interval`. [packets]
    n : int, optional
        Weights (8). [1]

    Returns
    -------
    float
        p. [1]

    References
    ----------
    RFC 5348 §5.4.

    Examples
    --------
    >>> loss_event_rate([400] + [100] * 8)      # open interval raises I_mean to 150
    0.006666666666666667
    """
    arr, k, n = _check_intervals(intervals, n)
    return float(loss_event_rate_core(arr, k, n))


@law_core
def push_loss_interval_core(intervals, k, n, closed_length, open_length):
    """Start a new loss interval in place; return the new ``k``.

    The open interval I_0 closes with length ``closed_length`` (sequence
    number of the new loss event's first lost packet minus that of the
    previous event), older intervals move down one place (the oldest beyond
    ``n`` is dropped), and the new open interval starts at ``open_length``.

    Parameters
    ----------
    intervals : numpy.ndarray of float
        History, size >= n + 1, modified in place. [packets]
    k : int
        Closed intervals held before the push. [1]
    n : int
        Capacity in closed intervals (8). [1]
    closed_length, open_length : float
        Final length of the interval that closes; length of the new open
        one. [packets]

    Returns
    -------
    int
        ``min(k + 1, n)``.

    References
    ----------
    RFC 5348 §5.3-5.4.

    Examples
    --------
    >>> import numpy as np
    >>> h = np.zeros(9); h[0] = 7.0
    >>> push_loss_interval_core(h, 0, 8, 10.0, 1.0), h[:2].tolist()
    (1, [1.0, 10.0])
    """
    top = k if k < n else n - 1
    for i in range(top, 0, -1):
        intervals[i + 1] = intervals[i]
    intervals[1] = closed_length
    intervals[0] = open_length
    return top + 1


@law_core
def loss_interval_for_rate_core(x_target, s, R, b):
    """Loss interval whose equation rate is ``x_target`` (§6.3.1).

    The target is first raised to the §6.3.1 minimum of 0.5 packets per
    round trip, ``x_target = max(x_target, 0.5 s/R)`` ("The TFRC receiver
    uses 0.5/R packets per second as the minimum value for X_target"); the
    same floor is the target when the first data packet itself is lost
    (null first interval: pass ``x_target = 0``).  Then
    ``tfrc_rate_core(s, R, p, 4 R, b) = x_target`` is solved for ``p`` in
    ``(0, 1]`` by bisection on ``log p`` (the rate is strictly decreasing in
    p) and ``1/p`` returned -- exact to rounding, inside the RFC's 5 %
    tolerance; 1 if even ``p = 1`` gives a rate above the target.

    Parameters
    ----------
    x_target : float
        Target rate X_target: the largest X_recv reported before the first
        loss (§6.3.1), or 0 for a null first interval. [packets/s or B/s]
    s : float
        Segment size. [packets or B]
    R : float
        Round-trip time. [s]
    b : float
        Packets per ACK (1). [1]

    Returns
    -------
    float
        Synthetic first loss interval. [packets]

    References
    ----------
    RFC 5348 §6.3.1.

    Examples
    --------
    >>> round(loss_interval_for_rate_core(112.33, 1.0, 0.1, 1.0), 1)   # p = 0.01
    100.0
    """
    x_floor = 0.5 * s / R
    if x_target < x_floor:
        x_target = x_floor
    if tfrc_rate_core(s, R, 1.0, 4.0 * R, b) >= x_target:
        return 1.0
    lo = -60.0            # log p; rate(e^-60) ~ 1e13/R: above any target
    hi = 0.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if tfrc_rate_core(s, R, math.exp(mid), 4.0 * R, b) > x_target:
            lo = mid
        else:
            hi = mid
    return 1.0 / math.exp(0.5 * (lo + hi))


def loss_interval_for_rate(x_target, R, s=1.0, b=1.0):
    """Validated :func:`loss_interval_for_rate_core`.

    Parameters
    ----------
    x_target : float
        Target rate, >= 0 (raised to 0.5 s/R, §6.3.1; 0 for a null first
        interval). [packets/s, or B/s with s in bytes]
    R : float
        Round-trip time, > 0. [s]
    s : float, optional
        Segment size, > 0. [packets or B]
    b : float, optional
        Packets per ACK, > 0. [1]

    Returns
    -------
    float
        1/p. [packets]

    References
    ----------
    RFC 5348 §6.3.1.

    Examples
    --------
    >>> interval = loss_interval_for_rate(1000.0, 0.1)
    >>> round(tfrc_rate_core(1.0, 0.1, 1 / interval, 0.4, 1.0), 6)
    1000.0
    >>> loss_interval_for_rate(0.0, 0.1) == loss_interval_for_rate(5.0, 0.1)  # 0.5/R floor
    True
    """
    x_target = check_nonnegative("x_target", x_target)
    R = check_positive("R", R)
    s = check_positive("s", s)
    b = check_positive("b", b)
    return float(loss_interval_for_rate_core(x_target, s, R, b))


@law_core
def rtt_filter_core(R, R_sample, q, has_rtt):
    """§4.3 step 2: ``R_sample`` first, then ``q R + (1 - q) R_sample``.

    Parameters
    ----------
    R : float
        Current estimate (ignored before the first sample). [s]
    R_sample : float
        New sample. [s]
    q : float
        Filter constant (0.9). [1]
    has_rtt : bool
        A sample was taken before.

    Returns
    -------
    float
        New R. [s]

    References
    ----------
    RFC 5348 §4.3, step 2.

    Examples
    --------
    >>> rtt_filter_core(0.0, 0.2, 0.9, False), round(rtt_filter_core(0.1, 0.2, 0.9, True), 12)
    (0.2, 0.11)
    """
    if not has_rtt:
        return R_sample
    return q * R + (1.0 - q) * R_sample


@law_core
def feedback_update_core(X, p, X_recv_max, R, s, t_mbi, t_now, tld, w_init, b):
    """Allowed sending rate after a feedback packet, §4.2 and §4.3 step 4.

    With ``tld < 0`` (no RTT measurement before this feedback) §4.2
    replaces step 4: ``X = W_init/R`` and ``tld = t_now`` whatever ``p``
    and ``X_recv_set`` say.  Afterwards, step 4 for a sender that is not
    data-limited: ``recv_limit = 2 X_recv_max``; if ``p > 0``,
    ``X = max(min(X_Bps, recv_limit), s/t_mbi)``; else, once per RTT
    (``t_now - tld >= R``), ``X = max(min(2 X, recv_limit), W_init/R)``
    and ``tld = t_now``.

    Parameters
    ----------
    X : float
        Current allowed rate. [packets/s or B/s]
    p : float
        Loss event rate reported, in [0, 1]. [1]
    X_recv_max : float
        ``max(X_recv_set)`` after adding this report's X_recv: ``inf``
        while the initial ``{inf}`` entry is younger than two RTTs. [packets/s or B/s]
    R : float
        Round-trip time after this report's sample. [s]
    s : float
        Segment size. [packets or B]
    t_mbi : float
        Maximum back-off interval (64). [s]
    t_now : float
        Current time. [s]
    tld : float
        Time last doubled in slow start; -1 before the first RTT
        measurement (§4.2). [s]
    w_init : float
        Initial window W_init (:func:`initial_window_core`). [packets or B]
    b : float
        Packets per ACK (1). [1]

    Returns
    -------
    tuple of float
        ``(X', tld')``.

    References
    ----------
    RFC 5348 §4.2 (initial values, first RTT measurement), §4.3 step 4.

    Examples
    --------
    First feedback (``tld = -1``), §4.2: ``X = W_init/R`` = 4/0.1, even if it
    already reports a loss:

    >>> feedback_update_core(1.0, 0.0, float("inf"), 0.1, 1.0, 64.0, 0.1, -1.0, 4.0, 1.0)
    (40.0, 0.1)
    >>> feedback_update_core(1.0, 0.05, float("inf"), 0.1, 1.0, 64.0, 0.1, -1.0, 4.0, 1.0)
    (40.0, 0.1)
    """
    if tld < 0.0:
        return w_init / R, t_now
    recv_limit = 2.0 * X_recv_max
    if p > 0.0:
        x_bps = tfrc_rate_core(s, R, p, 4.0 * R, b)
        return max(min(x_bps, recv_limit), s / t_mbi), tld
    if t_now - tld >= R:
        return max(min(2.0 * X, recv_limit), w_init / R), t_now
    return X, tld


def feedback_update(X, p, X_recv_max, R, t_now, tld, params=None, s=1.0):
    """Validated :func:`feedback_update_core`.

    Parameters
    ----------
    X : float
        Current allowed rate, > 0. [packets/s]
    p : float
        Reported loss event rate, in [0, 1]. [1]
    X_recv_max : float
        Largest receive rate of the X_recv set, > 0 (inf allowed). [packets/s]
    R : float
        Round-trip time, > 0. [s]
    t_now : float
        Current time, >= 0. [s]
    tld : float
        Time last doubled, in [0, t_now], or -1 before the first RTT
        measurement (then §4.2: ``X = W_init/R``). [s]
    params : TfrcParams, optional
        Default: RFC 5348's values.
    s : float, optional
        Segment size in the rate unit (1: packets/s). [packets]

    Returns
    -------
    tuple of float
        ``(X', tld')``.

    References
    ----------
    RFC 5348 §4.3.

    Examples
    --------
    >>> x, tld = feedback_update(40.0, 0.0, 35.0, 0.1, 0.2, 0.1)
    >>> round(x, 9), tld                 # min(80, 2 * 35) = 70
    (70.0, 0.2)
    """
    params = TfrcParams() if params is None else params
    X = check_positive("X", X)
    p = check_interval("p", p, 0.0, 1.0, closed="both")
    X_recv_max = check_positive("X_recv_max", X_recv_max, allow_inf=True)
    R = check_positive("R", R)
    t_now = check_nonnegative("t_now", t_now)
    tld = _check_tld(tld, t_now)
    s = check_positive("s", s)
    x, t = feedback_update_core(X, p, X_recv_max, R, s, params.t_mbi, t_now, tld,
                                params.initial_window * s, params.b)
    return float(x), float(t)


@law_core
def nofeedback_core(X, p, X_recv_max, R, s, t_mbi, w_init, has_feedback, idle, b):
    """Allowed rate when the nofeedback timer expires, §4.4.

    Parameters
    ----------
    X : float
        Current allowed rate. [packets/s or B/s]
    p : float
        Last loss event rate (0: none yet). [1]
    X_recv_max : float
        ``max(X_recv_set)``. [packets/s or B/s]
    R : float
        Round-trip time (ignored without feedback). [s]
    s, t_mbi, w_init, b : float
        As in :func:`feedback_update_core`.
    has_feedback : bool
        A feedback packet (hence an RTT sample) has arrived.
    idle : bool
        The sender has been idle since the timer was set.

    Returns
    -------
    tuple of float
        ``(X', X_recv_set')``: the new rate, and the single value that
        replaces the X_recv set, or ``-1`` when the set is unchanged.

    Notes
    -----
    The branches follow §4.4's pseudocode in order, with
    ``X_recv = max(X_recv_set)`` and ``recover_rate = initial_rate = W_init/R``:
    no feedback -> ``max(X/2, s/t_mbi)``; idle since the timer was set and
    (``p > 0`` and ``X_recv < recover_rate``, or ``p = 0`` and
    ``X < 2 recover_rate``) -> unchanged; ``p = 0`` -> ``max(X/2, s/t_mbi)``;
    ``X_Bps > 2 X_recv`` -> Update_Limits(X_recv); else
    Update_Limits(X_Bps/2).  Update_Limits(L) floors L at ``s/t_mbi``,
    replaces X_recv_set by ``{L/2}`` and recomputes step 4,
    ``X = max(min(X_Bps, L), s/t_mbi)``.

    Deliberate simplification: RFC 5348's first branch requires the sender
    *not* to have been idle; an idle sender without an RTT sample falls
    through to the second test, whose ``recover_rate = W_init/R`` needs the
    R it does not have.  ctlcc halves the rate there as well (what the
    ``p = 0`` branch would do).

    References
    ----------
    RFC 5348 §4.4 (and Update_Limits).

    Examples
    --------
    ``X_Bps = 112.33 > 2 X_recv = 100``: Update_Limits(50) -> X = 50:

    >>> x, xr = nofeedback_core(100.0, 0.01, 50.0, 0.1, 1.0, 64.0, 4.0, True, False, 1.0)
    >>> round(x, 9), xr
    (50.0, 25.0)
    """
    if not has_feedback:
        return max(X / 2.0, s / t_mbi), -1.0
    recover_rate = w_init / R
    if idle and ((p > 0.0 and X_recv_max < recover_rate)
                 or (p <= 0.0 and X < 2.0 * recover_rate)):
        return X, -1.0
    if p <= 0.0:
        return max(X / 2.0, s / t_mbi), -1.0
    x_bps = tfrc_rate_core(s, R, p, 4.0 * R, b)
    if x_bps > 2.0 * X_recv_max:
        timer_limit = X_recv_max
    else:
        timer_limit = x_bps / 2.0
    if timer_limit < s / t_mbi:
        timer_limit = s / t_mbi
    return max(min(x_bps, timer_limit), s / t_mbi), timer_limit / 2.0


def nofeedback(X, p, X_recv_max, R, params=None, has_feedback=True, idle=False, s=1.0):
    """Validated :func:`nofeedback_core`.

    Parameters
    ----------
    X : float
        Current allowed rate, > 0. [packets/s]
    p : float
        Last loss event rate, in [0, 1]. [1]
    X_recv_max : float
        ``max(X_recv_set)``, > 0 (inf allowed). [packets/s]
    R : float
        Round-trip time, > 0. [s]
    params : TfrcParams, optional
    has_feedback, idle : bool, optional
    s : float, optional
        Segment size in the rate unit. [packets]

    Returns
    -------
    tuple of float
        ``(X', X_recv_set')`` (``-1``: set unchanged).

    References
    ----------
    RFC 5348 §4.4.

    Examples
    --------
    >>> nofeedback(40.0, 0.0, 30.0, 0.1)     # p = 0: halve
    (20.0, -1.0)
    """
    params = TfrcParams() if params is None else params
    X = check_positive("X", X)
    p = check_interval("p", p, 0.0, 1.0, closed="both")
    X_recv_max = check_positive("X_recv_max", X_recv_max, allow_inf=True)
    R = check_positive("R", R)
    s = check_positive("s", s)
    for name, flag in (("has_feedback", has_feedback), ("idle", idle)):
        if not isinstance(flag, (bool, np.bool_)):
            raise ParameterError(f"{name} must be True or False, got {flag!r}")
    x, xr = nofeedback_core(X, p, X_recv_max, R, s, params.t_mbi, params.initial_window * s,
                            bool(has_feedback), bool(idle), params.b)
    return float(x), float(xr)


@law_core
def nofeedback_interval_core(R, s, X, has_feedback):
    """Nofeedback timer interval: 2 s before feedback, else ``max(4 R, 2 s/X)``.

    After a feedback packet this is §4.3 step 3's RTO, computed *before*
    step 4 updates X: pass the rate held when the feedback arrived.  After
    a nofeedback expiry (§4.4 step 2) pass the new, halved X.

    Parameters
    ----------
    R : float
        Round-trip time. [s]
    s : float
        Segment size. [packets or B]
    X : float
        Allowed rate. [packets/s or B/s]
    has_feedback : bool
        A feedback packet has arrived.

    Returns
    -------
    float
        Interval. [s]

    References
    ----------
    RFC 5348 §4.2, §4.3 steps 3 and 6, §4.4 step 2.

    Examples
    --------
    >>> nofeedback_interval_core(0.1, 1.0, 40.0, True), nofeedback_interval_core(0.0, 1.0, 1.0, False)
    (0.4, 2.0)
    """
    if not has_feedback:
        return 2.0
    return max(4.0 * R, 2.0 * s / X)


def _check_intervals(intervals, n):
    n = TfrcParams(n=n).n
    arr = np.asarray(check_nonnegative("intervals", intervals), dtype=float).ravel()
    if arr.size == 0 or arr.size > n + 1:
        raise ParameterError(
            f"intervals must hold I_0 and at most n = {n} closed intervals (1 to {n + 1} "
            f"values), got {arr.size}")
    if np.any(arr[1:] <= 0):
        raise ParameterError(f"closed intervals must be > 0, got {arr[1:].tolist()}")
    return arr, arr.size - 1, n


def _check_tld(tld, t_now):
    tld = float(check_finite("tld", tld))
    if not (tld == -1.0 or 0.0 <= tld <= t_now):
        raise ParameterError(f"tld must be -1 or in [0, t_now = {t_now!r}], got {tld!r}")
    return tld
