# ctlcc.laws.iftp - IFTP's inter-packet gap laws and its retransmission timer
"""IFTP's control law: inter-packet gaps (2), (4), (6), G_m and RTO (7)-(9).

IFTP (003_eb55b02b4a453ab2) sends ``n`` packets per adjustment period of one
smoothed round trip ``R``, spaced by a gap ``G`` after each packet of
transmission time ``tau``, so that ``n (G + tau) = R``.  It emulates TCP's
window by choosing the next period's ``n``:

* slow start, eq. (1)-(2): ``n -> 2n``, ``G' = (G - tau)/2 = R/(2n) - tau``;
* congestion avoidance, eq. (3)-(4): ``n -> n + 1``,
  ``G' = (n G - tau)/(n + 1) = R/(n + 1) - tau``;
* loss, eq. (5)-(6): ``n -> n/2``, ``G' = 2G + tau = 2R/n - tau``;
* scaled mode (§3.2): ``G_m = (G - tau (S - 1))/S`` sends ``S n`` packets.

A negative gap would mean that the requested ``n`` cannot be sent in one
period at one packet per ``tau`` (the paper assumes ``R >> n tau``): the
numeric functions refuse it with a ParameterError naming their inputs
rather than return a gap without meaning.  Every function is ordinary
arithmetic and accepts sympy symbols (unchecked) as well as floats and
arrays.

The timer, eqs. (7)-(9): ``srtt = 7/8 srtt + 1/8 rtt``,
``rttvar = 3/4 rttvar + 1/4 |rtt - srtt|``, timeout interval
``backoff (srtt + 4 rttvar + granularity)`` with a 1 ms granularity and
Karn's backoff doubling per timeout up to 64.
"""

from dataclasses import dataclass, replace

import numpy as np

from .._validation import (check_choice, check_instance, check_nonnegative, check_positive,
                           check_positive_int, check_result, is_symbolic)
from ..errors import ParameterError

__all__ = [
    "MAX_BACKOFF",
    "GRANULARITY",
    "WindowState",
    "next_window",
    "gap_for_window",
    "gap_slow_start",
    "gap_congestion_avoidance",
    "gap_loss",
    "next_gap",
    "scaled_gap",
    "RttEstimator",
    "rtt_update",
    "timeout_interval",
    "karn_backoff",
]

#: Karn's exponential backoff cap of eq. (9). [1]
MAX_BACKOFF = 64
#: IFTP's timer granularity, "the nearest millisecond" (§4). [s]
GRANULARITY = 1e-3


def next_window(state, event, Wmax):
    """IFTP's window rule of Figure 1, one event at a time.

    ``"ack"`` (all ACKs of the period received): ``n -> 2n`` while
    ``n < ssthresh``, else ``n -> n + 1`` while ``n < Wmax``, else unchanged.
    ``"loss"`` (after_missing_thresh ACKs past a gap): ``ssthresh ->
    max(ssthresh // 2, 2)``, ``n -> max(n // 2, 1)``.  ``"timeout"``:
    ``ssthresh -> max(n // 2, 2)``, ``n -> 1``.  The gap of the next period is
    then :func:`gap_for_window` (Figure 1 sets ``G = srtt/n - tau``).

    Parameters
    ----------
    state : WindowState
    event : {"ack", "loss", "timeout"}
    Wmax : int
        Receiver's maximum window, >= 1. [packets]

    Returns
    -------
    WindowState

    References
    ----------
    003_eb55b02b4a453ab2 §4, Figure 1.

    Examples
    --------
    >>> s = WindowState(1, 4)
    >>> seq = []
    >>> for _ in range(6):
    ...     seq.append(s.n)
    ...     s = next_window(s, "ack", Wmax=6)
    >>> seq
    [1, 2, 4, 5, 6, 6]
    >>> next_window(WindowState(6, 4), "loss", 6), next_window(WindowState(6, 4), "timeout", 6)
    (WindowState(n=3, ssthresh=2), WindowState(n=1, ssthresh=3))
    """
    check_instance("state", state, WindowState)
    check_choice("event", event, ("ack", "loss", "timeout"))
    Wmax = check_positive_int("Wmax", Wmax)
    n, ssthresh = state.n, state.ssthresh
    if n > Wmax:
        raise ParameterError(f"Wmax must be >= the current window state.n = {n}, got {Wmax}")
    if event == "ack":
        if n < ssthresh:
            return replace(state, n=min(2 * n, Wmax))
        return replace(state, n=n + 1) if n < Wmax else state
    if event == "loss":
        return WindowState(max(n // 2, 1), max(ssthresh // 2, 2))
    if event == "timeout":
        return WindowState(1, max(n // 2, 2))
    raise ParameterError(f"event must be one of 'ack', 'loss', 'timeout'; got {event!r}")


def gap_for_window(R, n, tau):
    """Gap that spreads ``n`` packets over one period: ``R/n - tau``.

    Parameters
    ----------
    R : float or array_like
        Smoothed round-trip time, the adjustment period. [s]
    n : float or array_like
        Packets to send in the period, > 0. [packets]
    tau : float or array_like
        Transmission time of one packet, >= 0. [s]

    Returns
    -------
    float or numpy.ndarray
        Inter-packet gap G. [s]

    Examples
    --------
    >>> round(gap_for_window(0.1, 4, 0.008), 6)
    0.017
    """
    R = check_positive("R", R)
    n = check_positive("n", n)
    tau = check_nonnegative("tau", tau)
    return _gap(R / n - tau, R=R, n=n, tau=tau)


def gap_slow_start(R, n, tau):
    """Slow-start gap, eq. (2): ``G_{i+1} = R/(2n) - tau``.

    Parameters
    ----------
    R : float or array_like
        Smoothed round-trip time. [s]
    n : float or array_like
        Packets sent successfully in period i. [packets]
    tau : float or array_like
        Transmission time of one packet. [s]

    Returns
    -------
    float or numpy.ndarray
        Gap of period i+1. [s]

    References
    ----------
    003_eb55b02b4a453ab2 §3.1, eqs. (1)-(2).

    Examples
    --------
    >>> round(gap_slow_start(0.1, 4, 0.008), 6)
    0.0045
    """
    return gap_for_window(R, 2 * check_positive("n", n), tau)


def gap_congestion_avoidance(R, n, tau):
    """Congestion-avoidance gap, eq. (4): ``G_{i+1} = R/(n+1) - tau``.

    Parameters
    ----------
    R : float or array_like
        Smoothed round-trip time. [s]
    n : float or array_like
        Packets sent successfully in period i. [packets]
    tau : float or array_like
        Transmission time of one packet. [s]

    Returns
    -------
    float or numpy.ndarray
        Gap of period i+1. [s]

    References
    ----------
    003_eb55b02b4a453ab2 §3.1, eqs. (3)-(4).

    Examples
    --------
    >>> round(gap_congestion_avoidance(0.1, 4, 0.008), 6)
    0.012
    """
    return gap_for_window(R, check_positive("n", n) + 1, tau)


def gap_loss(R, n, tau):
    """Gap after a loss, eq. (6): ``G_{i+1} = 2R/n - tau``.

    Parameters
    ----------
    R : float or array_like
        Smoothed round-trip time. [s]
    n : float or array_like
        Packets of period i. [packets]
    tau : float or array_like
        Transmission time of one packet. [s]

    Returns
    -------
    float or numpy.ndarray
        Gap of period i+1 (n/2 packets). [s]

    References
    ----------
    003_eb55b02b4a453ab2 §3.1, eqs. (5)-(6).

    Examples
    --------
    >>> round(gap_loss(0.1, 4, 0.008), 6)
    0.042
    """
    return gap_for_window(R, check_positive("n", n) / 2, tau)


def next_gap(G, n, tau, phase):
    """Next gap from the current one (recursive forms of (2), (4), (6)).

    Parameters
    ----------
    G : float or array_like
        Current gap G_i. [s]
    n : float or array_like
        Packets of period i. [packets]
    tau : float or array_like
        Transmission time of one packet. [s]
    phase : {"slow_start", "congestion_avoidance", "loss"}
        Which law.

    Returns
    -------
    float or numpy.ndarray
        G_{i+1}: ``(G - tau)/2``, ``(n G - tau)/(n + 1)`` or ``2 G + tau``. [s]

    Examples
    --------
    >>> round(next_gap(0.017, 4, 0.008, "congestion_avoidance"), 6)
    0.012
    """
    check_choice("phase", phase, ("slow_start", "congestion_avoidance", "loss"))
    G = check_nonnegative("G", G)
    n = check_positive("n", n)
    tau = check_nonnegative("tau", tau)
    if phase == "slow_start":
        return _gap((G - tau) / 2, G=G, n=n, tau=tau)
    if phase == "congestion_avoidance":
        return _gap((n * G - tau) / (n + 1), G=G, n=n, tau=tau)
    return _gap(2 * G + tau, G=G, n=n, tau=tau)


def scaled_gap(G, tau, S):
    """Scaled-mode gap G_m = (G - tau (S - 1)) / S (§3.2).

    From ``n (G + tau) = S n (G_m + tau)``: the period then carries ``S n``
    packets.

    Parameters
    ----------
    G : float or array_like
        Standard-mode gap. [s]
    tau : float or array_like
        Transmission time of one packet, >= 0. [s]
    S : float or array_like
        Scale factor, > 0 (S > 1 claims more than TCP). [1]

    Returns
    -------
    float or numpy.ndarray
        G_m. [s]

    References
    ----------
    003_eb55b02b4a453ab2 §3.2.

    Examples
    --------
    >>> round(scaled_gap(0.017, 0.008, 2.0), 6)
    0.0045
    """
    G = check_nonnegative("G", G)
    tau = check_nonnegative("tau", tau)
    S = check_positive("S", S)
    return _gap((G - tau * (S - 1)) / S, G=G, tau=tau, S=S)


@dataclass(frozen=True)
class WindowState:
    """Packets per period and ssthresh of an IFTP sender (Figure 1).

    Attributes
    ----------
    n : int
        Packets to send in the next adjustment period. [packets]
    ssthresh : int
        Slow-start threshold. [packets]
    """

    n: int
    ssthresh: int

    def __post_init__(self):
        check_positive_int("n", self.n)
        check_positive_int("ssthresh", self.ssthresh)


@dataclass(frozen=True)
class RttEstimator:
    """State of IFTP's round-trip timer (§4).

    Attributes
    ----------
    srtt : float or None
        Smoothed round-trip time; None before the first sample. [s]
    rttvar : float or None
        Round-trip variation. [s]
    backoff : int
        Karn backoff factor, 1..64. [1]

    Examples
    --------
    >>> est = RttEstimator().update(0.1)
    >>> est.srtt, est.rttvar
    (0.1, 0.05)
    >>> round(est.timeout(), 6)
    0.301
    >>> est.on_timeout().on_timeout().backoff
    4
    """

    srtt: float = None
    rttvar: float = None
    backoff: int = 1

    def __post_init__(self):
        if self.srtt is not None or self.rttvar is not None:
            check_nonnegative("srtt", self.srtt, scalar=True)
            check_nonnegative("rttvar", self.rttvar, scalar=True)
        _check_backoff(self.backoff)

    def update(self, rtt):
        """Fold in a new RTT sample (eqs. (7)-(8)); Karn: backoff back to 1."""
        rtt = check_positive("rtt", rtt, scalar=True)
        if self.srtt is None:
            return replace(self, srtt=rtt, rttvar=rtt / 2, backoff=1)
        srtt, rttvar = rtt_update(self.srtt, self.rttvar, rtt)
        return replace(self, srtt=srtt, rttvar=rttvar, backoff=1)

    def on_timeout(self):
        """Double the backoff, capped at 64 (Karn)."""
        return replace(self, backoff=karn_backoff(self.backoff))

    def timeout(self, granularity=GRANULARITY):
        """Timeout interval of eq. (9). [s]"""
        if self.srtt is None:
            raise ParameterError("srtt: no RTT sample yet; call update(rtt) first")
        return timeout_interval(self.srtt, self.rttvar, self.backoff, granularity)


def rtt_update(srtt, rttvar, rtt):
    """One step of eqs. (7)-(8).

    ``srtt' = 7/8 srtt + 1/8 rtt`` then ``rttvar' = 3/4 rttvar +
    1/4 |rtt - srtt'|``, in the order the paper prints them (the OCR drops the
    absolute value bars; Jacobson's estimator, ref. [19], has them).  RFC 6298
    updates rttvar first with the old srtt; the two differ by
    ``|rtt - srtt|/32`` at most per step.

    Parameters
    ----------
    srtt, rttvar : float or array_like
        Current estimates, >= 0. [s]
    rtt : float or array_like
        New sample, > 0. [s]

    Returns
    -------
    tuple of (float or numpy.ndarray)
        ``(srtt', rttvar')``. [s]

    References
    ----------
    003_eb55b02b4a453ab2 §4, eqs. (7)-(8).

    Examples
    --------
    >>> [round(v, 6) for v in rtt_update(0.1, 0.05, 0.18)]
    [0.11, 0.055]
    """
    srtt = check_nonnegative("srtt", srtt)
    rttvar = check_nonnegative("rttvar", rttvar)
    rtt = check_positive("rtt", rtt)
    new_srtt = 7 / 8 * srtt + 1 / 8 * rtt
    new_rttvar = 3 / 4 * rttvar + 1 / 4 * abs(rtt - new_srtt)
    return new_srtt, new_rttvar


def timeout_interval(srtt, rttvar, backoff=1, granularity=GRANULARITY):
    """Timeout interval of eq. (9): ``backoff (srtt + 4 rttvar + granularity)``.

    The "+ 1" of eq. (9) is one tick of the 1 ms timer (§4); with
    ``srtt = rttvar = 0`` and ``backoff = 64`` it gives the 64 ms of the
    worst case (§5.3).

    Parameters
    ----------
    srtt, rttvar : float or array_like
        Timer estimates, >= 0. [s]
    backoff : int, optional
        Karn factor, 1..64. [1]
    granularity : float, optional
        Timer tick, > 0. [s]

    Returns
    -------
    float or numpy.ndarray
        Interval from now to the timeout. [s]

    References
    ----------
    003_eb55b02b4a453ab2 §4, eq. (9); §5.3.

    Examples
    --------
    >>> round(timeout_interval(0.0, 0.0, 64), 6)
    0.064
    """
    srtt = check_nonnegative("srtt", srtt)
    rttvar = check_nonnegative("rttvar", rttvar)
    _check_backoff(backoff)
    granularity = check_positive("granularity", granularity, scalar=True)
    return check_result("timeout_interval", backoff * (srtt + 4 * rttvar + granularity),
                        srtt=srtt, rttvar=rttvar, granularity=granularity)


def karn_backoff(backoff, max_backoff=MAX_BACKOFF):
    """Backoff after one more timeout: ``min(2 backoff, 64)``.

    Parameters
    ----------
    backoff : int
        Current factor, a power of two in 1..max_backoff. [1]
    max_backoff : int, optional
        Cap (64 in IFTP, "Karn's exponential timer backoff"). [1]

    Returns
    -------
    int

    Examples
    --------
    >>> [karn_backoff(b) for b in (1, 2, 32, 64)]
    [2, 4, 64, 64]
    """
    max_backoff = check_positive_int("max_backoff", max_backoff, maximum=2**62)
    if max_backoff & (max_backoff - 1):
        raise ParameterError(f"max_backoff must be a power of two, got {max_backoff}")
    backoff = _check_backoff(backoff, max_backoff)
    return min(2 * backoff, max_backoff)


def _gap(gap, **inputs):
    """A computed gap, refused if NaN/inf or negative (the packets do not fit)."""
    if is_symbolic(gap) or any(is_symbolic(v) for v in inputs.values()):
        return gap
    gap = check_result("the gap", gap, **inputs)
    if np.any(np.asarray(gap) < 0):
        given = ", ".join(f"{k}={v!r}" for k, v in inputs.items())
        raise ParameterError(
            f"the gap would be negative (got {np.min(gap):.6g} s) for {given}: the period "
            "cannot carry these packets at one per tau (IFTP assumes R >> n tau)")
    return gap


def _check_backoff(backoff, max_backoff=MAX_BACKOFF):
    if is_symbolic(backoff):
        return backoff
    backoff = check_positive_int("backoff", backoff)
    if backoff > max_backoff or backoff & (backoff - 1):
        raise ParameterError(
            f"backoff must be a power of two in [1, {max_backoff}], got {backoff!r}")
    return backoff
