# ctlcc.bounds.iftp - IFTP's bandwidth in the ideal (10)-(20), non-ideal (21)-(26) and worst (27) cases
"""IFTP bandwidth bounds (ElAarag & Bassiouni (2002), §5) and its gap laws.

Ideal case (no loss): the window (packets per round trip R) runs through
``1, 2, 4, ..., Ws`` (slow start, Ws a power of two), then
``Ws + 1, ..., Wmax`` (congestion avoidance), then ``Wmax, Wmax, ...``.  A
file of N packets takes ``k(N)`` round trips, the last one possibly
partial, and ``theta(N) = N P / (k(N) R)`` (eq. (10)).  The exact ``k(N)``
implemented here is checked against brute-force enumeration of that
sequence in ``tests/bounds/test_iftp.py``::

    N <= N1 = 2 Ws - 1:           k = ceil(lg(N + 1))
    N1 < N <= N1 + N2:            k = lg Ws + 1 + ceil((sqrt((2Ws+1)^2 + 8(N - N1)) - (2Ws+1))/2)
    N > N1 + N2:                  k = lg Ws + 1 + (Wmax - Ws) + ceil((N - N1 - N2)/Wmax)
    with N2 = sum(Ws+1 .. Wmax) = (Wmax - Ws)(Wmax + Ws + 1)/2.

The printed closed forms (``published=True``) differ from the enumeration:

* eq. (17) counts ``ceil(lg N) + 1`` round trips: one round trip too many
  for every N in case 1 that is not a power of two (N = 3, 5, 6, 7, 9, ...);
* eq. (16) prints ``N2 = (Wmax - Ws - 1)(Wmax + Ws)/2``, the packets of the
  windows ``Ws + 1 .. Wmax - 1``, i.e. Wmax packets fewer than the
  ``Wmax - Ws`` round trips that eq. (13) counts for that phase carry.  So
  eq. (19) counts one round trip too many for *every* N in case 3, and the
  files with ``N1 + N2_printed < N <= N1 + N2`` (Wmax of them) are put in
  case 3 while they still finish in congestion avoidance;
* eq. (18) itself agrees with the enumeration wherever it is used.

With the paper's Figure 3 parameters (Ws = 32, Wmax = 50, cases N = 8-32,
64-512 and 1024-5000) the printed eq. (19) counts one round trip too many
at N = 1024-5000 (exact k = 29..108), so its bandwidth is 3.3 % (N = 1024)
down to 0.9 % (N = 5000) low; at N = 8-512 (powers of two) it agrees.
``data/iftp_closed_form_vs_enumeration.csv`` lists the differences.

Non-ideal case (Floyd-Fall periodic loss, §5.2): a cycle ``n/2, ..., n``
carries ``(3/8) n^2 + (3/4) n`` packets with one loss, so
``n = sqrt(1 + 8/(3p)) - 1`` exactly (eq. (25)), and the mean window is
``(3/4) n`` (eq. (22)); the paper then bounds ``n <= sqrt(8/(3p))`` to get
eq. (26), ``theta <= 1.5 sqrt(2/3) P/(R sqrt(p)) = sqrt(3/2) P/(R sqrt(p))``
(the OCR prints "sqrt(P)" for sqrt(p)).

Worst case (all ACKs lost, §5.3): one packet per maximal timeout,
``theta = P/(tau + 0.064)`` (eq. (27)), the 64 ms being eq. (9) with
backoff 64, srtt = rttvar = 0 and the 1 ms tick.
"""

import numpy as np

from .._validation import check_interval, check_nonnegative, check_positive, check_positive_int
from ..errors import ParameterError
from ..laws.iftp import (MAX_BACKOFF, gap_congestion_avoidance, gap_for_window, gap_loss,
                         gap_slow_start, karn_backoff, next_gap, rtt_update, scaled_gap,
                         timeout_interval)

__all__ = [
    "phase_sizes",
    "round_trips",
    "ideal_bandwidth",
    "ideal_limit",
    "cycle_packets",
    "steady_state_window",
    "nonideal_bandwidth",
    "worst_case_timeout",
    "worst_case_bandwidth",
    # gap laws and timer, re-exported from ctlcc.laws.iftp
    "gap_for_window",
    "gap_slow_start",
    "gap_congestion_avoidance",
    "gap_loss",
    "next_gap",
    "scaled_gap",
    "rtt_update",
    "timeout_interval",
    "karn_backoff",
]


def phase_sizes(Ws, Wmax, published=False):
    """Packets carried by slow start (N1) and congestion avoidance (N2).

    Parameters
    ----------
    Ws : int
        Slow-start threshold, a power of two >= 1. [packets]
    Wmax : int
        Maximum window, >= Ws. [packets]
    published : bool, optional
        True: eq. (16)'s ``(Wmax - Ws - 1)(Wmax + Ws)/2``; False: the
        enumerated ``(Wmax - Ws)(Wmax + Ws + 1)/2`` (Wmax more).  Taken
        literally, eq. (16) is ``-Ws`` when ``Wmax = Ws``.

    Returns
    -------
    tuple of int
        ``(N1, N2)`` with ``N1 = 2 Ws - 1`` (eq. (15)). [packets]

    References
    ----------
    ElAarag & Bassiouni (2002), §5.1, eqs. (15)-(16).

    Examples
    --------
    >>> phase_sizes(32, 50), phase_sizes(32, 50, published=True)
    ((63, 747), (63, 697))
    """
    Ws, Wmax = _check_windows(Ws, Wmax)
    n1 = 2 * Ws - 1
    if published:
        n2 = (Wmax - Ws - 1) * (Wmax + Ws) // 2
    else:
        n2 = (Wmax - Ws) * (Wmax + Ws + 1) // 2
    return n1, n2


def round_trips(N, Ws, Wmax, published=False):
    """Round trips k(N) an ideal IFTP needs to send N packets.

    Parameters
    ----------
    N : int or array_like of int
        File size, >= 1. [packets]
    Ws : int
        Slow-start threshold, a power of two. [packets]
    Wmax : int
        Maximum window, >= Ws. [packets]
    published : bool, optional
        True: the denominators of eqs. (17)-(19) as printed (with eq. (16)'s
        N2 for the case boundaries); False: the exact count (module doc).

    Returns
    -------
    int or numpy.ndarray of int
        k(N). [round trips]

    References
    ----------
    ElAarag & Bassiouni (2002), §5.1, eqs. (12)-(19).

    Examples
    --------
    >>> round_trips([7, 63, 64, 810, 811], 32, 50)
    array([ 3,  6,  7, 24, 25])
    >>> round_trips([7, 63, 64, 810, 811], 32, 50, published=True)
    array([ 4,  7,  7, 25, 26])
    """
    Ws, Wmax = _check_windows(Ws, Wmax)
    n_arr = _check_counts("N", N)
    n1, n2 = phase_sizes(Ws, Wmax, published)
    lg_ws = Ws.bit_length() - 1
    n = n_arr.astype(np.int64)
    # case 1
    if published:
        k1 = np.ceil(np.log2(n)).astype(np.int64) + 1
    else:
        k1 = _ceil_log2(n + 1)
    # case 2: smallest j with j Ws + j (j + 1)/2 >= N - N1
    m = np.maximum(n - n1, 0)
    c = 2 * Ws + 1
    j = np.ceil((np.sqrt(float(c) ** 2 + 8.0 * m) - c) / 2.0).astype(np.int64)
    j = np.where(j * Ws + j * (j + 1) // 2 < m, j + 1, j)             # float guard
    j = np.where((j > 0) & ((j - 1) * Ws + (j - 1) * j // 2 >= m), j - 1, j)
    k2 = lg_ws + 1 + j
    # case 3
    rest = n - n1 - n2
    k3 = lg_ws + 1 + (Wmax - Ws) + (-(-rest // Wmax))
    k = np.where(n <= n1, k1, np.where(n <= n1 + n2, k2, k3))
    return int(k) if k.ndim == 0 else k


def ideal_bandwidth(N, P, R, Ws, Wmax, published=False):
    """Bandwidth of an ideal (loss-free) IFTP file transfer, eqs. (10)-(19).

    Parameters
    ----------
    N : int or array_like of int
        File size, >= 1. [packets]
    P : float or array_like
        Packet size (1 gives packets/s; the paper uses bits). [packets, B or bit]
    R : float or array_like
        Round-trip time, the adjustment period, > 0. [s]
    Ws : int
        ssthresh, a power of two. [packets]
    Wmax : int
        Maximum window, >= Ws. [packets]
    published : bool, optional
        True reproduces the printed eqs. (17)-(19); False (default) is the
        exact count of round trips (see the module docstring for where they
        differ).

    Returns
    -------
    float or numpy.ndarray
        ``theta(N) = N P / (k(N) R)``. [P/s]

    References
    ----------
    ElAarag & Bassiouni (2002), §5.1, eqs. (10)-(19); Figure 3.

    Examples
    --------
    >>> ideal_bandwidth(5000, 1.0, 1.0, 32, 50)         # 5000 packets in 108 RTTs
    46.2962962962963
    >>> ideal_bandwidth(5000, 1.0, 1.0, 32, 50, published=True)   # in 109
    45.87155963302752
    """
    k = round_trips(N, Ws, Wmax, published)
    P = check_positive("P", P)
    R = check_positive("R", R)
    out = np.asarray(N, dtype=float) * P / (k * np.asarray(R, dtype=float))
    return float(out) if np.ndim(out) == 0 else out


def ideal_limit(P, R, Wmax):
    """Long-file limit of the ideal bandwidth, eq. (20): ``Wmax P / R``.

    Parameters
    ----------
    P : float or array_like
        Packet size. [packets, B or bit]
    R : float or array_like
        Round-trip time, > 0. [s]
    Wmax : int or array_like
        Maximum window, > 0. [packets]

    Returns
    -------
    float or numpy.ndarray
        [P/s]

    Examples
    --------
    >>> ideal_limit(1.0, 0.1, 50)
    500.0
    """
    return _out(check_positive("Wmax", Wmax) * check_positive("P", P) / check_positive("R", R))


def cycle_packets(n):
    """Packets of a Floyd-Fall cycle ``n/2, ..., n``: eq. (21), ``3/8 n^2 + 3/4 n``.

    Exact for even n (the enumeration in the tests); a continuous extension
    otherwise.

    Parameters
    ----------
    n : float or array_like
        Window at which the loss occurs, > 0. [packets]

    Returns
    -------
    float or numpy.ndarray
        [packets]

    Examples
    --------
    >>> cycle_packets(8)        # 4 + 5 + 6 + 7 + 8
    30.0
    """
    n = check_positive("n", n)
    return 0.375 * n * n + 0.75 * n


def steady_state_window(p):
    """Loss window n of the Floyd-Fall cycle, eq. (25): ``sqrt(1 + 8/(3p)) - 1``.

    The exact root of eq. (24), ``p = 1/((3/8) n^2 + (3/4) n)``; the paper's
    bound ``n <= sqrt(8/(3p))`` is its large-n form.

    Parameters
    ----------
    p : float or array_like
        Packet drop rate, in (0, 1]. [1]

    Returns
    -------
    float or numpy.ndarray
        n. [packets]

    References
    ----------
    ElAarag & Bassiouni (2002), §5.2, eqs. (24)-(25).

    Examples
    --------
    >>> steady_state_window(1 / 30)    # the n = 8 cycle carries 30 packets
    8.0
    """
    p = check_interval("p", p, 0.0, 1.0, closed="right")
    return _out(np.sqrt(1.0 + 8.0 / (3.0 * p)) - 1.0)


def nonideal_bandwidth(p, P, R, published=False):
    """Steady-state IFTP bandwidth under periodic loss, eqs. (23)-(26).

    Parameters
    ----------
    p : float or array_like
        Packet drop rate, in (0, 1]. [1]
    P : float or array_like
        Packet size. [packets, B or bit]
    R : float or array_like
        Round-trip time, > 0. [s]
    published : bool, optional
        False: ``(3/4) n P / R`` with the exact n of eq. (25);
        True: eq. (26), ``1.5 sqrt(2/3) P/(R sqrt(p))``, the upper bound
        from ``n <= sqrt(8/(3p))`` (larger by ``(3/4)(sqrt(8/(3p)) -
        sqrt(1 + 8/(3p)) + 1) P/R``, i.e. by less than ``0.75 P/R``).

    Returns
    -------
    float or numpy.ndarray
        theta_ss. [P/s]

    References
    ----------
    ElAarag & Bassiouni (2002), §5.2, eqs. (21)-(26).

    Examples
    --------
    >>> nonideal_bandwidth(1 / 30, 1.0, 1.0)      # (3/4) 8
    6.0
    >>> round(nonideal_bandwidth(1 / 30, 1.0, 1.0, published=True), 4)
    6.7082
    """
    p = check_interval("p", p, 0.0, 1.0, closed="right")
    P = check_positive("P", P)
    R = check_positive("R", R)
    if published:
        return _out(1.5 * np.sqrt(2.0 / 3.0) * P / (R * np.sqrt(p)))
    return _out(0.75 * steady_state_window(p) * P / R)


def worst_case_timeout(granularity=1e-3):
    """Largest timeout interval of eq. (9): backoff 64, srtt = rttvar = 0.

    Parameters
    ----------
    granularity : float, optional
        Timer tick. [s]

    Returns
    -------
    float
        ``64 * granularity`` = 0.064 s for IFTP's 1 ms tick. [s]

    Examples
    --------
    >>> round(worst_case_timeout(), 6)
    0.064
    """
    return timeout_interval(0.0, 0.0, MAX_BACKOFF, granularity)


def worst_case_bandwidth(P, tau, timeout=None):
    """Bandwidth when every ACK is lost, eq. (27): ``P / (tau + 0.064)``.

    Parameters
    ----------
    P : float or array_like
        Packet size. [packets, B or bit]
    tau : float or array_like
        Transmission time of one packet, >= 0. [s]
    timeout : float, optional
        Timer interval between packets (default :func:`worst_case_timeout`,
        0.064 s). [s]

    Returns
    -------
    float or numpy.ndarray
        [P/s]

    References
    ----------
    ElAarag & Bassiouni (2002), §5.3, eq. (27).

    Examples
    --------
    >>> round(worst_case_bandwidth(8000.0, 0.008), 1)   # 1000 B at 1 Mb/s
    111111.1
    """
    P = check_positive("P", P)
    tau = check_nonnegative("tau", tau)
    timeout = worst_case_timeout() if timeout is None else check_positive("timeout", timeout)
    return _out(P / (tau + timeout))


def _check_windows(Ws, Wmax):
    Ws = check_positive_int("Ws", Ws)
    Wmax = check_positive_int("Wmax", Wmax)
    if Ws & (Ws - 1):
        raise ParameterError(f"Ws must be a power of two (ElAarag & Bassiouni (2002), §5.1 assumes it), got {Ws}")
    if Wmax < Ws:
        raise ParameterError(f"Wmax must be an integer >= Ws = {Ws}, got {Wmax}")
    return Ws, Wmax


def _check_counts(name, N):
    arr = np.asarray(N)
    if arr.dtype == bool or not (np.issubdtype(arr.dtype, np.integer)
                                 or np.issubdtype(arr.dtype, np.floating)):
        raise ParameterError(f"{name} must be an integer >= 1 or an array of them, got {N!r}")
    arr_f = arr.astype(float)
    bad = ~np.isfinite(arr_f) | (arr_f < 1) | (arr_f != np.floor(arr_f))
    if np.any(bad):
        raise ParameterError(
            f"{name} must be an integer >= 1 or an array of them, got {np.ravel(arr[bad])[:5].tolist()}")
    return arr.astype(np.int64)


def _ceil_log2(x):
    """Exact ceil(log2(x)) for positive int64 arrays."""
    k = np.ceil(np.log2(x.astype(float))).astype(np.int64)
    k = np.where((1 << np.maximum(k - 1, 0)) >= x, k - 1, k)    # float guard
    k = np.where((1 << k) < x, k + 1, k)
    return np.where(x <= 1, 0, k)


def _out(x):
    """Python float for 0-d results, the array otherwise."""
    x = np.asarray(x)
    return float(x) if x.ndim == 0 else x
