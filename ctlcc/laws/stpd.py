# ctlcc.laws.stpd - ST-PD TCP's PD congestion-window law
"""ST-PD TCP's PD window law (Xu (2002), §3.4.3.1).

The sender estimates the bottleneck occupancy from its own measurements,
eqs. (3.3)-(3.4)::

    S(n)       = packets sent during RTT(n) / RTT(n)                  (3.4)
    buf_est(n) = (RTT(n) - RTT_min) * S(n)                            (3.3)

forms the error against the reference ``ref`` (one packet, eq. 3.2) and
updates the window with a PD law (3.5), which §4.3.2 writes per slot for
the arrival rate with the error seen m slots late (4.1)::

    cwnd(n) = cwnd(n-1) + kp*err(n) + kd*(err(n) - err(n-1))          (3.5)
    a(n)    = a(n-1) + kp*e(n-m) + kd*(e(n-m) - e(n-m-1))             (4.1)

Every function is ordinary arithmetic, so it takes floats, numpy arrays and
sympy symbols alike; :mod:`ctlcc.analysis.stpd` derives the closed loop by
calling :func:`pd_update` on z-domain symbols.
"""

import numpy as np

from .._validation import (check_finite, check_nonnegative, check_positive, check_result,
                          is_symbolic)
from ..errors import ParameterError
from ._core import law_core

__all__ = [
    "REFERENCE_OCCUPANCY",
    "service_rate_core",
    "buffer_estimate_core",
    "control_error_core",
    "pd_update_core",
    "pd_window_core",
    "service_rate",
    "buffer_estimate",
    "control_error",
    "pd_update",
]

#: Desired bottleneck occupancy ``ref`` of eq. (3.2): one packet. [packets]
REFERENCE_OCCUPANCY = 1.0


def service_rate(packets_in_rtt, round_trip_time):
    """Perceived bottleneck service rate S(n), eq. (3.4).

    Parameters
    ----------
    packets_in_rtt : float or ndarray
        Packets acknowledged during the last round trip. [packets]
    round_trip_time : float or ndarray
        The round trip RTT(n) they were counted over. [s]

    Returns
    -------
    float or ndarray
        S(n). [packets/s]

    References
    ----------
    Xu (2002), eq. (3.4).

    Examples
    --------
    >>> service_rate(30, 0.2)
    150.0
    """
    check_nonnegative("packets_in_rtt", packets_in_rtt)
    check_positive("round_trip_time", round_trip_time)
    return check_result("service_rate", service_rate_core(packets_in_rtt, round_trip_time),
                        packets_in_rtt=packets_in_rtt, round_trip_time=round_trip_time)


def buffer_estimate(round_trip_time, min_round_trip_time, service_rate):
    """Sender's estimate of the bottleneck occupancy, eq. (3.3).

    Parameters
    ----------
    round_trip_time : float or ndarray
        Current round trip RTT(n). [s]
    min_round_trip_time : float or ndarray
        Smallest round trip seen so far, RTT_min. [s]
    service_rate : float or ndarray
        Perceived service rate S(n) of eq. (3.4). [packets/s]

    Returns
    -------
    float or ndarray
        buf_est(n) = (RTT(n) - RTT_min) * S(n). [packets]

    References
    ----------
    Xu (2002), eq. (3.3).

    Examples
    --------
    >>> buffer_estimate(0.3125, 0.25, 32.0)
    2.0
    """
    rtt = check_positive("round_trip_time", round_trip_time)
    rtt_min = check_positive("min_round_trip_time", min_round_trip_time)
    check_nonnegative("service_rate", service_rate)
    if not (is_symbolic(rtt) or is_symbolic(rtt_min)) and np.any(np.less(rtt, rtt_min)):
        raise ParameterError(
            f"round_trip_time must be >= min_round_trip_time (the smallest RTT seen), got "
            f"round_trip_time={round_trip_time!r}, min_round_trip_time={min_round_trip_time!r}")
    return check_result("buffer_estimate",
                        buffer_estimate_core(round_trip_time, min_round_trip_time, service_rate),
                        round_trip_time=round_trip_time,
                        min_round_trip_time=min_round_trip_time, service_rate=service_rate)


def control_error(reference, occupancy):
    """Control error err(n) = ref - buf(n), eq. (3.2) / (4.2). [packets]

    Examples
    --------
    >>> control_error(1.0, 2.5)
    -1.5
    """
    check_finite("reference", reference)
    check_finite("occupancy", occupancy)
    return check_result("control_error", control_error_core(reference, occupancy),
                        reference=reference, occupancy=occupancy)


def pd_update(previous, error, previous_error, kp, kd):
    """PD update of the window (3.5) or the arrival rate (4.1).

    ``previous + kp*error + kd*(error - previous_error)``.  In (3.5) the
    arguments are cwnd(n-1), err(n), err(n-1); in the per-slot model (4.1)
    they are a(n-1), e(n-m), e(n-m-1).

    Parameters
    ----------
    previous : float, ndarray or sympy expression
        cwnd(n-1) [packets] or a(n-1) [packets/slot].
    error, previous_error : float, ndarray or sympy expression
        The two most recent control errors the sender has seen. [packets]
    kp, kd : float, ndarray or sympy expression
        Proportional and derivative gains, >= 0. [1] (per slot in 4.1)

    Returns
    -------
    float, ndarray or sympy expression

    References
    ----------
    Xu (2002), eqs. (3.5) and (4.1).

    Examples
    --------
    >>> pd_update(10.0, -1.0, 0.0, kp=0.5, kd=0.25)
    9.25
    >>> import sympy as sp
    >>> a1, e0, e1, kp, kd = sp.symbols("a1 e0 e1 k_p k_d")
    >>> sp.expand(pd_update(a1, e0, e1, kp, kd))
    a1 + e0*k_d + e0*k_p - e1*k_d
    """
    check_finite("previous", previous)
    check_finite("error", error)
    check_finite("previous_error", previous_error)
    check_nonnegative("kp", kp)
    check_nonnegative("kd", kd)
    return check_result("pd_update", pd_update_core(previous, error, previous_error, kp, kd),
                        previous=previous, error=error, previous_error=previous_error,
                        kp=kp, kd=kd)


# --- plain-arithmetic cores: no checks; floats, numpy, sympy and numba.njit accept them ---

def service_rate_core(packets_in_rtt, round_trip_time):
    """S(n) of eq. (3.4), unchecked (see :func:`service_rate`). [packets/s]"""
    return packets_in_rtt / round_trip_time


def buffer_estimate_core(round_trip_time, min_round_trip_time, service_rate):
    """buf_est(n) of eq. (3.3), unchecked (see :func:`buffer_estimate`). [packets]"""
    return (round_trip_time - min_round_trip_time) * service_rate


def control_error_core(reference, occupancy):
    """err(n) of eq. (3.2), unchecked (see :func:`control_error`). [packets]"""
    return reference - occupancy


@law_core  # numba code may call it: ctlcc.laws.user.pd_window_update does
def pd_update_core(previous, error, previous_error, kp, kd):
    """The PD update (3.5)/(4.1), unchecked (see :func:`pd_update`)."""
    return previous + kp * error + kd * (error - previous_error)


def pd_window_core(cwnd, rtt, rtt_min, acked, duration, previous_error, kp, kd, reference):
    """One round trip of the sender: (3.4), (3.3), (3.2) then (3.5).

    Returns ``(cwnd(n), err(n))`` with the window not yet bounded (the
    sender keeps it in [1, receiver window]).  The packet engine compiles
    this function into its event loop.

    Examples
    --------
    >>> pd_window_core(10.0, 0.3125, 0.25, 8.0, 0.25, 0.0, 0.5, 0.25, 1.0)
    (9.25, -1.0)
    """
    # the bodies of service_rate_core, buffer_estimate_core, control_error_core
    # and pd_update_core, written out so that numba compiles this one function
    # (a compiled function cannot call the plain Python ones);
    # tests/laws/test_law_cores.py checks the composition against them
    rate = acked / duration
    error = reference - (rtt - rtt_min) * rate
    return cwnd + kp * error + kd * (error - previous_error), error
from .stpd_fuzzy import FuzzySupervisor  # noqa: E402  (re-export; stpd_fuzzy does not import this module)
