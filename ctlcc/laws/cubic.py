# ctlcc.laws.cubic - CUBIC's window rules (RFC 9438)
"""CUBIC congestion control (RFC 9438) as plain-arithmetic window rules.

Windows in segments, times in seconds.  In congestion avoidance, with
``t`` the time since the current epoch began (the first ACK after a
window reduction), RFC 9438 §4.2-4.5::

    W_cubic(t) = C (t - K)^3 + W_max                       (Figure 1)
    K          = cbrt((W_max - cwnd_epoch) / C)            (Figure 2)
    target     = clamp(W_cubic(t + RTT), cwnd, 1.5 cwnd)   (§4.2)
    cwnd      += (target - cwnd) / cwnd      per ACK      (§4.4, §4.5)

and, in the Reno-friendly region (§4.3), an estimate of Reno's window
grows by ``alpha_cubic`` segments per window of ACKs::

    W_est     += alpha_cubic * segments_acked / cwnd,  W_est = cwnd_epoch at the epoch start
    alpha_cubic = 3 (1 - beta_cubic) / (1 + beta_cubic)     (1 once W_est >= cwnd_prior)
    cwnd       = W_est   when W_cubic(t) < W_est

On a congestion event (§4.6, §4.7)::

    W_max    = cwnd (1 + beta_cubic)/2  if fast convergence and cwnd < W_max  else cwnd
    ssthresh = max(cwnd * beta_cubic, 2),  cwnd = ssthresh (fast recovery) or 1 (timeout)

with C = 0.4 and beta_cubic = 0.7 (§4.1).  When an epoch starts with
``cwnd_epoch >= W_max`` (e.g. on leaving slow start with no loss yet)
ctlcc sets K = 0 and W_max = cwnd_epoch, as Linux and ns-3 do (RFC 9438
leaves that case to the implementation).

Each rule is a ``*_core`` function that floats, numpy arrays, sympy
symbols and ``numba.njit`` accept (the engine's CUBIC sender compiles
the same functions), plus a validated wrapper.

Where ns-3.44's ``TcpCubic`` departs from RFC 9438 (read from
``src/internet/model/tcp-cubic.cc``; on packets: :mod:`ctlcc.sim.senders.cubic` on the
agreement matrix's ``cubic_*`` scenarios, ``docs/ns3_agreement.md``):

* HyStart (the 2008 delay/ACK-train version, not RFC 9406 HyStart++) is on
  by default and ends slow start early;
* integer arithmetic of Linux: cwnd grows by one whole segment once
  ``cnt = cwnd / (target - cwnd)`` ACKs have arrived (truncating
  division), instead of ``(target - cwnd)/cwnd`` per ACK; when the target
  is at or below cwnd it still grows one segment per ``100 cwnd`` ACKs
  (the RFC holds it);
* the target is W_cubic at ``t + min RTT`` (RFC: t + RTT);
* the 1.5 cwnd ceiling appears as ``cnt >= 2`` (one segment per two ACKs,
  the same bound);
* Reno-friendly estimate in Linux's fixed point: one segment per
  ``cwnd * int(8 (1 + beta)/(3 (1 - beta))) / 8`` ACKs, i.e. alpha =
  8/15 = 0.533 instead of 0.529, and alpha never switches to 1
  (RFC 9438 §4.3's SHOULD);
* ssthresh from cwnd (``max(cwnd beta, 2)``) as the RFC, but in whole
  segments, truncated; cwnd after a timeout is 1 segment (the socket's rule);
* ``cnt`` clamped to 20 before the first loss (``CntClamp``).

The integer rules are cores here too (:func:`ns3_count_core`,
:func:`ns3_loss_core`, :func:`ns3_alpha_core`), compiled into the engine's
``Cubic(avoidance=...)``.

References
----------
RFC 9438 (Xu, Ha, Rhee, Goel, Eggert 2023), §4.1-4.8 and §5.
"""

from .._validation import (check_bool, check_interval, check_nonnegative, check_positive,
                           finite_result)
from ..errors import ParameterError
from ._core import law_core

__all__ = [
    "C",
    "BETA",
    "alpha_cubic_core",
    "alpha_cubic",
    "k_core",
    "epoch_start_core",
    "epoch_start",
    "window_core",
    "window",
    "target_core",
    "increase_core",
    "reno_estimate_core",
    "avoidance_step_core",
    "congestion_avoidance_core",
    "congestion_avoidance",
    "ns3_alpha_core",
    "ns3_count_core",
    "ns3_loss_core",
    "loss_core",
    "loss",
    "average_window",
]

#: CUBIC's scaling constant C (RFC 9438 §4.1). [segments/s^3]
C = 0.4
#: Multiplicative decrease factor beta_cubic (RFC 9438 §4.1). [1]
BETA = 0.7


@law_core
def alpha_cubic_core(beta):
    """Reno-friendly additive increase 3 (1 - beta)/(1 + beta) (RFC 9438 §4.3). [segments]"""
    return 3 * (1 - beta) / (1 + beta)


@finite_result
def alpha_cubic(beta=BETA):
    """alpha_cubic, the Reno-friendly region's additive increase.

    Parameters
    ----------
    beta : float
        beta_cubic, in (0, 1). [1]

    Returns
    -------
    float
        3 (1 - beta)/(1 + beta): an AIMD(alpha, beta) flow then has Reno's
        average window (RFC 9438 §4.3, §5). [segments per RTT]

    Examples
    --------
    >>> round(alpha_cubic(), 4)
    0.5294
    """
    return alpha_cubic_core(check_interval("beta", beta, 0.0, 1.0, scalar=True))


@law_core
def k_core(w_max, cwnd_epoch, c):
    """K = cbrt((W_max - cwnd_epoch)/C) (RFC 9438 Figure 2), W_max > cwnd_epoch. [s]"""
    return ((w_max - cwnd_epoch) / c) ** (1.0 / 3.0)


@law_core
def epoch_start_core(w_max, cwnd_epoch, c):
    """(K, W_max) at the start of an epoch; K = 0, W_max = cwnd_epoch when cwnd_epoch >= W_max."""
    if w_max <= cwnd_epoch:
        return 0.0, cwnd_epoch
    return k_core(w_max, cwnd_epoch, c), w_max


@finite_result
def epoch_start(w_max, cwnd_epoch, c=C):
    """K and the plateau W_max of a new congestion-avoidance epoch.

    Parameters
    ----------
    w_max : float
        Window before the last reduction (after fast convergence), >= 0. [segments]
    cwnd_epoch : float
        cwnd when the epoch starts, > 0. [segments]
    c : float
        C, > 0. [segments/s^3]

    Returns
    -------
    (float, float)
        K [s] and W_max [segments].

    References
    ----------
    RFC 9438 §4.2 (Figure 2).

    Examples
    --------
    >>> k, w = epoch_start(100.0, 70.0)
    >>> round(k, 4), w
    (4.2172, 100.0)
    >>> epoch_start(50.0, 60.0)
    (0.0, 60.0)
    """
    w_max = check_nonnegative("w_max", w_max, scalar=True)
    cwnd_epoch = check_positive("cwnd_epoch", cwnd_epoch, scalar=True)
    c = check_positive("c", c, scalar=True)
    return epoch_start_core(float(w_max), float(cwnd_epoch), float(c))


@law_core
def window_core(t, k, w_max, c):
    """W_cubic(t) = C (t - K)^3 + W_max (RFC 9438 Figure 1). [segments]"""
    return c * (t - k) ** 3 + w_max


@finite_result
def window(t, k, w_max, c=C):
    """CUBIC's window function W_cubic(t).

    Parameters
    ----------
    t : float or array_like
        Time since the epoch started, >= 0. [s]
    k : float
        K, >= 0. [s]
    w_max : float
        Plateau, > 0. [segments]
    c : float
        C, > 0. [segments/s^3]

    Returns
    -------
    float or ndarray
        [segments]

    References
    ----------
    RFC 9438 §4.2, Figure 1.

    Examples
    --------
    >>> window(0.0, 4.2172, 100.0) < 70.0 + 1e-3, window(4.2172, 4.2172, 100.0)
    (True, 100.0)
    """
    t = check_nonnegative("t", t)
    k = check_nonnegative("k", k, scalar=True)
    w_max = check_positive("w_max", w_max, scalar=True)
    c = check_positive("c", c, scalar=True)
    return window_core(t, k, w_max, c)


@law_core
def target_core(cwnd, w_cubic_next):
    """target = W_cubic(t + RTT) kept within [cwnd, 1.5 cwnd] (RFC 9438 §4.2). [segments]"""
    if w_cubic_next < cwnd:
        return cwnd
    if w_cubic_next > 1.5 * cwnd:
        return 1.5 * cwnd
    return w_cubic_next


@law_core
def increase_core(cwnd, target):
    """cwnd + (target - cwnd)/cwnd: the per-ACK step toward the target (§4.4-4.5). [segments]"""
    return cwnd + (target - cwnd) / cwnd


@law_core
def reno_estimate_core(w_est, alpha, segments_acked, cwnd):
    """W_est + alpha segments_acked / cwnd (RFC 9438 §4.3, Figure 4). [segments]"""
    return w_est + alpha * segments_acked / cwnd


@law_core
def congestion_avoidance_core(cwnd, w_est, cwnd_prior, t, rtt, k, w_max, c, beta,
                              friendly):
    """One ACK (one segment) in congestion avoidance: (cwnd, W_est).

    RFC 9438 §4.2-4.5: W_est grows by alpha/cwnd (alpha = 1 once W_est
    reaches cwnd_prior); if ``friendly`` and W_cubic(t) < W_est, cwnd =
    W_est; else cwnd moves toward the target W_cubic(t + rtt).
    """
    alpha = 1.0 if w_est >= cwnd_prior else alpha_cubic_core(beta)
    return avoidance_step_core(cwnd, w_est, alpha, t, rtt, k, w_max, c, friendly)


@law_core
def avoidance_step_core(cwnd, w_est, alpha, t, rtt, k, w_max, c, friendly):
    """:func:`congestion_avoidance_core` with the Reno-friendly alpha given: (cwnd, W_est).

    The RFC's rule chooses alpha (alpha_cubic, 1 once W_est >= cwnd_prior); the engine's
    ``Cubic(avoidance="alpha")`` passes ns-3's fixed 8/15 (:func:`ns3_alpha_core`).
    """
    w_est = reno_estimate_core(w_est, alpha, 1.0, cwnd)
    if friendly and window_core(t, k, w_max, c) < w_est:
        return w_est, w_est
    target = target_core(cwnd, window_core(t + rtt, k, w_max, c))
    return increase_core(cwnd, target), w_est


@finite_result
def congestion_avoidance(cwnd, w_est, cwnd_prior, t, rtt, k, w_max, c=C, beta=BETA,
                         friendly=True):
    """CUBIC's window after one ACK in congestion avoidance.

    Parameters
    ----------
    cwnd : float
        Congestion window, > 0. [segments]
    w_est : float
        Reno-friendly estimate W_est, > 0. [segments]
    cwnd_prior : float
        cwnd just before the last reduction, > 0. [segments]
    t : float
        Time since the epoch started, >= 0. [s]
    rtt : float
        Round-trip time used for the target, > 0. [s]
    k, w_max : float
        From :func:`epoch_start`. [s], [segments]
    c, beta : float
        C [segments/s^3] and beta_cubic [1].
    friendly : bool
        Apply the Reno-friendly region (§4.3).

    Returns
    -------
    (float, float)
        New cwnd and W_est. [segments]

    References
    ----------
    RFC 9438 §4.2-4.5.

    Examples
    --------
    Just after a loss at W_max = 100 (cwnd 70): W_cubic(0) = 70 is below
    W_est, so the Reno-friendly region rules; without it the concave step
    moves cwnd by (W_cubic(0.1) - 70)/70:

    >>> k, w = epoch_start(100.0, 70.0)
    >>> [round(x, 4) for x in congestion_avoidance(70.0, 70.0, 100.0, 0.0, 0.1, k, w)]
    [70.0076, 70.0076]
    >>> [round(x, 4) for x in congestion_avoidance(70.0, 70.0, 100.0, 0.0, 0.1, k, w,
    ...                                            friendly=False)]
    [70.0298, 70.0076]
    """
    cwnd = check_positive("cwnd", cwnd, scalar=True)
    w_est = check_positive("w_est", w_est, scalar=True)
    cwnd_prior = check_positive("cwnd_prior", cwnd_prior, scalar=True)
    t = check_nonnegative("t", t, scalar=True)
    rtt = check_positive("rtt", rtt, scalar=True)
    k = check_nonnegative("k", k, scalar=True)
    w_max = check_positive("w_max", w_max, scalar=True)
    c = check_positive("c", c, scalar=True)
    beta = check_interval("beta", beta, 0.0, 1.0, scalar=True)
    check_bool("friendly", friendly)
    return congestion_avoidance_core(float(cwnd), float(w_est), float(cwnd_prior), float(t),
                                     float(rtt), float(k), float(w_max), float(c),
                                     float(beta), friendly)


@law_core
def loss_core(cwnd, w_max, beta, fast_convergence):
    """(ssthresh, W_max) after a congestion event (RFC 9438 §4.6-4.7). [segments]"""
    if fast_convergence and cwnd < w_max:
        w_max = cwnd * (1 + beta) / 2
    else:
        w_max = cwnd
    ssthresh = cwnd * beta
    if ssthresh < 2.0:
        ssthresh = 2.0
    return ssthresh, w_max


@finite_result
def loss(cwnd, w_max, beta=BETA, fast_convergence=True):
    """CUBIC's ssthresh and new W_max on a congestion event.

    Parameters
    ----------
    cwnd : float
        Window when the loss is detected, > 0. [segments]
    w_max : float
        The previous W_max, >= 0. [segments]
    beta : float
        beta_cubic, in (0, 1). [1]
    fast_convergence : bool
        Lower W_max to cwnd (1 + beta)/2 when cwnd < W_max (§4.7).

    Returns
    -------
    (float, float)
        ssthresh = max(cwnd beta, 2) and W_max. [segments]

    References
    ----------
    RFC 9438 §4.6 (multiplicative decrease), §4.7 (fast convergence).

    Examples
    --------
    >>> loss(100.0, 0.0)
    (70.0, 100.0)
    >>> loss(80.0, 100.0)
    (56.0, 68.0)
    >>> loss(80.0, 100.0, fast_convergence=False)
    (56.0, 80.0)
    """
    cwnd = check_positive("cwnd", cwnd, scalar=True)
    w_max = check_nonnegative("w_max", w_max, scalar=True)
    beta = check_interval("beta", beta, 0.0, 1.0, scalar=True)
    check_bool("fast_convergence", fast_convergence)
    return loss_core(float(cwnd), float(w_max), float(beta), fast_convergence)


# --- ns-3.44's TcpCubic (Linux's integer arithmetic), read from src/internet/model/tcp-cubic.cc

#: ns-3's ``CntClamp``: cnt's ceiling before the first loss. [segments]
NS3_CNT_CLAMP = 20


@law_core
def ns3_alpha_core(beta):
    """ns-3's (and Linux's) Reno-friendly alpha: 8 / int(8 (1 + beta) / (3 (1 - beta))). [1]

    ``TcpCubic::Update`` counts one segment of its Reno estimate per ``(cwnd scale) >> 3``
    ACKs with ``scale = uint32(8 (1024 + 1024 beta) / 3 / (1024 - 1024 beta))``: alpha =
    8/scale, 8/15 = 0.5333 for beta = 0.7 (RFC 9438 §4.3: 3 (1 - beta)/(1 + beta) =
    0.5294), and it never switches to 1.
    """
    return 8.0 / int(8 * (1024 + beta * 1024) / 3 / (1024 - beta * 1024))


@law_core
def ns3_count_core(seg_cwnd, t, k, origin, c, ack_cnt, tcp_cwnd, beta, clamp, friendly):
    """ns-3.44's ``TcpCubic::Update`` after the epoch's start: (cnt, ack_cnt, tcp_cwnd).

    Integers as in ns-3 (``uint32_t``): *seg_cwnd* the window in whole segments,
    *origin* the epoch's W_max (``m_bicOriginPoint``), *ack_cnt* the segments acknowledged
    since the epoch started, this ACK's included (``m_ackCnt``), *tcp_cwnd* the
    Reno-friendly estimate (``m_tcpCwnd``); *t* the time since the epoch started plus
    ns-3's min RTT, *k* the epoch's K. The target W_cubic(t) is truncated to whole
    segments; cnt = seg_cwnd // (target - seg_cwnd) above cwnd, else 100 seg_cwnd;
    ``clamp``: cnt <= 20 (``CntClamp``, ns-3's ``m_lastMaxCwnd == 0``, before the first
    loss); ``friendly``: the estimate grows one segment per (seg_cwnd scale) >> 3 ACKs
    (:func:`ns3_alpha_core`) and, above cwnd, caps cnt at seg_cwnd // (tcp_cwnd -
    seg_cwnd); cnt >= 2. The caller adds one segment to cwnd once ``cnt`` segments
    have been acknowledged since its last increase (``TcpCubic::IncreaseWindow``).
    """
    if t < k:
        offs = k - t
    else:
        offs = t - k
    delta = int(c * offs ** 3)
    if t < k:
        target = origin - delta
    else:
        target = origin + delta
    if target > seg_cwnd:
        cnt = seg_cwnd // (target - seg_cwnd)
    else:
        cnt = 100 * seg_cwnd
    if clamp and cnt > NS3_CNT_CLAMP:
        cnt = NS3_CNT_CLAMP
    if friendly:
        scale = int(8 * (1024 + beta * 1024) / 3 / (1024 - beta * 1024))
        step = (seg_cwnd * scale) >> 3
        while ack_cnt > step:
            ack_cnt -= step
            tcp_cwnd += 1
        if tcp_cwnd > seg_cwnd:
            max_cnt = seg_cwnd // (tcp_cwnd - seg_cwnd)
            if cnt > max_cnt:
                cnt = max_cnt
    if cnt < 2:
        cnt = 2
    return cnt, ack_cnt, tcp_cwnd


@law_core
def ns3_loss_core(cwnd, w_max, beta, fast_convergence):
    """ns-3.44's ``TcpCubic::GetSsThresh``: (ssthresh, W_max) from the whole-segment window.

    seg = int(cwnd); W_max = int(seg (1 + beta)/2) with fast convergence and seg < W_max,
    else seg; ssthresh = max(int(seg beta), 2) (``uint32_t`` truncations; RFC 9438
    §4.6-4.7 in real numbers: :func:`loss_core`). [segments]
    """
    seg = int(cwnd)
    if fast_convergence and seg < w_max:
        w_max = float(int(seg * (1 + beta) / 2))
    else:
        w_max = float(seg)
    ssthresh = int(seg * beta)
    if ssthresh < 2:
        ssthresh = 2
    return float(ssthresh), w_max


@finite_result
def average_window(loss_probability, round_trip, c=C, beta=BETA):
    """CUBIC's average window under periodic loss (RFC 9438 §5.1's response function).

    ``AVG_W_cubic = (C (3 + beta) / (4 (1 - beta)))^(1/4) RTT^(3/4) / p^(3/4)``.

    Parameters
    ----------
    loss_probability : float
        p, in (0, 1). [1]
    round_trip : float
        RTT, > 0. [s]
    c, beta : float
        C [segments/s^3] and beta_cubic [1].

    Returns
    -------
    float
        [segments]

    References
    ----------
    RFC 9438 §5.1 (Figure 10, the deterministic loss model).

    Examples
    --------
    >>> round(average_window(1e-4, 0.1), 1)
    187.4
    """
    p = check_interval("loss_probability", loss_probability, 0.0, 1.0, scalar=True)
    rtt = check_positive("round_trip", round_trip, scalar=True)
    c = check_positive("c", c, scalar=True)
    beta = check_interval("beta", beta, 0.0, 1.0, scalar=True)
    if not 0.0 < beta < 1.0:
        raise ParameterError(f"beta must be in (0, 1), got {beta!r}")
    return (c * (3 + beta) / (4 * (1 - beta))) ** 0.25 * rtt ** 0.75 / p ** 0.75

