# ctlcc.laws.tcp - the window rules of the TCP baselines (Reno, NewReno, Tahoe)
"""Window rules of the loss-based TCP baselines, as laws.

Packet-counting rules of RFC 5681 and RFC 6582, in packets::

    slow start               cwnd <- cwnd + 1            per new ACK, cwnd < ssthresh
    congestion avoidance     cwnd <- cwnd + 1/cwnd       per new ACK, cwnd >= ssthresh
    loss (3 dup ACKs, RTO)   ssthresh <- max(FlightSize/2, 2)                (4)
    fast recovery (Reno)     cwnd <- ssthresh + 3 (the duplicate ACK threshold)
    partial ACK (NewReno)    cwnd <- max(cwnd - newly acked + 1, 1)   RFC 6582 §3.2 (5)

Each rule is a plain-arithmetic ``*_core`` function that floats, numpy
arrays, sympy symbols and ``numba.njit`` all accept (the packet engine
compiles the very same functions into its event loop,
:mod:`ctlcc.sim.senders.window`), and a public wrapper that validates its
arguments.  The fluid model's Reno (:func:`ctlcc.sim.fluid.reno_window_derivative`)
is the same additive-increase, multiplicative-decrease pair averaged over a
round trip: W/R ACKs per second of :func:`congestion_avoidance_core`'s
1/W, and the :data:`DECREASE_FACTOR` cut.
"""

from .._validation import check_nonnegative, check_positive

__all__ = [
    "DECREASE_FACTOR",
    "MIN_SSTHRESH",
    "slow_start_core",
    "congestion_avoidance_core",
    "window_increase_core",
    "window_increase",
    "loss_ssthresh_core",
    "loss_ssthresh",
    "fast_recovery_window_core",
    "partial_ack_window_core",
    "partial_ack_window",
]

#: Multiplicative decrease of the window on a loss (RFC 5681 (4)). [1]
DECREASE_FACTOR = 0.5
#: Floor of ssthresh after a loss (RFC 5681 (4): 2 SMSS). [packets]
MIN_SSTHRESH = 2.0


def slow_start_core(cwnd):
    """Slow start: one packet more per new ACK. [packets]"""
    return cwnd + 1.0


def congestion_avoidance_core(cwnd):
    """Congestion avoidance: 1/cwnd more per new ACK (one per round trip). [packets]"""
    return cwnd + 1.0 / cwnd


def window_increase_core(cwnd, ssthresh):
    """Reno/NewReno/Tahoe window after one new ACK outside recovery. [packets]"""
    if cwnd < ssthresh:
        return cwnd + 1.0  # slow_start_core, written out for numba
    return cwnd + 1.0 / cwnd  # congestion_avoidance_core


def window_increase(cwnd, ssthresh):
    """Window after one new ACK outside recovery (RFC 5681 §3.1).

    Parameters
    ----------
    cwnd : float
        Congestion window before the ACK, > 0. [packets]
    ssthresh : float
        Slow-start threshold, > 0. [packets]

    Returns
    -------
    float
        cwnd + 1 in slow start, cwnd + 1/cwnd in congestion avoidance. [packets]

    Examples
    --------
    >>> window_increase(4.0, 8.0), window_increase(8.0, 8.0)
    (5.0, 8.125)
    """
    check_positive("cwnd", cwnd)
    check_positive("ssthresh", ssthresh)
    return window_increase_core(float(cwnd), float(ssthresh))


def loss_ssthresh_core(flight):
    """ssthresh after a loss: max(FlightSize * DECREASE_FACTOR, 2). [packets]"""
    half = flight * DECREASE_FACTOR
    return half if half > MIN_SSTHRESH else MIN_SSTHRESH


def loss_ssthresh(flight):
    """Slow-start threshold after a loss, RFC 5681 eq. (4).

    Parameters
    ----------
    flight : float
        Packets in flight (snd_max - snd_una) when the loss is detected, >= 0. [packets]

    Returns
    -------
    float
        max(flight / 2, 2). [packets]

    Examples
    --------
    >>> loss_ssthresh(20), loss_ssthresh(3)
    (10.0, 2.0)
    """
    check_nonnegative("flight", flight)
    return loss_ssthresh_core(float(flight))


def fast_recovery_window_core(ssthresh, dupthresh):
    """Window on entering fast recovery: ssthresh + dupthresh (RFC 5681 §3.2 (3)). [packets]"""
    return ssthresh + dupthresh


def partial_ack_window_core(cwnd, newly_acked):
    """NewReno deflation on a partial ACK (RFC 6582 §3.2 (5)), at least one packet."""
    cw = cwnd - newly_acked + 1.0
    return cw if cw > 1.0 else 1.0


def partial_ack_window(cwnd, newly_acked):
    """Window after a NewReno partial ACK, RFC 6582 §3.2 step 5.

    Parameters
    ----------
    cwnd : float
        Window before the ACK, > 0. [packets]
    newly_acked : float
        Packets the partial ACK acknowledges, >= 0. [packets]

    Returns
    -------
    float
        max(cwnd - newly_acked + 1, 1). [packets]

    Examples
    --------
    >>> partial_ack_window(12.0, 3)
    10.0
    """
    check_positive("cwnd", cwnd)
    check_nonnegative("newly_acked", newly_acked)
    return partial_ack_window_core(float(cwnd), float(newly_acked))
