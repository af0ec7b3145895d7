# ctlcc.laws.vegas - TCP Vegas' per-round-trip window rule (Brakmo & Peterson)
"""TCP Vegas' window rule, once per round trip (Brakmo & Peterson 1995).

With BaseRTT the smallest RTT seen and RTT the smallest of the last round
trip, Vegas estimates the packets it keeps queued::

    diff = cwnd (RTT - BaseRTT) / RTT          (= cwnd - cwnd BaseRTT / RTT)

and, in congestion avoidance, moves the window by one packet per round trip
to keep ``alpha <= diff <= beta``; in slow start it leaves when
``diff > gamma``, with the window cut to the rate it measured plus one
packet (``cwnd BaseRTT / RTT + 1``), as ns-3's and Linux's TcpVegas do.
Plain-arithmetic cores, compiled into the packet engine's Vegas sender
(:mod:`ctlcc.sim.senders.vegas`) and accepted by sympy and numpy.
"""

from .._validation import check_nonnegative, check_positive

__all__ = ["backlog_core", "backlog", "avoidance_window_core", "avoidance_window",
           "slow_start_exit_window_core"]


def backlog_core(cwnd, rtt, base_rtt):
    """Vegas' diff, the packets this flow keeps queued. [packets]"""
    return cwnd * (rtt - base_rtt) / rtt


def backlog(cwnd, rtt, base_rtt):
    """Vegas' backlog estimate diff = cwnd (RTT - BaseRTT) / RTT.

    Parameters
    ----------
    cwnd : float
        Congestion window, > 0. [packets]
    rtt : float
        Round-trip time of the last round (its smallest sample), > 0. [s]
    base_rtt : float
        Smallest RTT seen, > 0. [s]

    Returns
    -------
    float
        diff. [packets]

    Examples
    --------
    >>> round(backlog(20.0, 0.125, 0.1), 12)
    4.0
    """
    check_positive("cwnd", cwnd)
    check_positive("rtt", rtt)
    check_positive("base_rtt", base_rtt)
    return backlog_core(float(cwnd), float(rtt), float(base_rtt))


def avoidance_window_core(cwnd, diff, alpha, beta):
    """Congestion avoidance: -1 above beta, +1 below alpha, else hold. [packets]"""
    if diff > beta:
        return cwnd - 1.0
    if diff < alpha:
        return cwnd + 1.0
    return cwnd


def avoidance_window(cwnd, diff, alpha=1.0, beta=3.0):
    """Vegas' congestion-avoidance window for the next round trip.

    Examples
    --------
    >>> avoidance_window(10.0, 4.0), avoidance_window(10.0, 0.5), avoidance_window(10.0, 2.0)
    (9.0, 11.0, 10.0)
    """
    check_positive("cwnd", cwnd)
    check_nonnegative("alpha", alpha)
    check_nonnegative("beta", beta)
    return avoidance_window_core(float(cwnd), float(diff), float(alpha), float(beta))


def slow_start_exit_window_core(cwnd, rtt, base_rtt):
    """Window on leaving slow start: the measured rate times BaseRTT, plus one. [packets]"""
    return cwnd * base_rtt / rtt + 1.0
