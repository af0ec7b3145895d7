# ctlcc.laws.iftp - IFTP's emulated window, inter-packet gap laws and retransmission timer
"""IFTP's control law: Figure 1's window, gaps (2), (4), (6), G_m, RTO (7)-(9).

IFTP (ElAarag & Bassiouni (2002)) sends ``n`` packets per adjustment period
of one smoothed round trip ``R``, spaced by a gap ``G`` after each packet of
transmission time ``tau``, so that ``n (G + tau) = R``.  It emulates TCP's
window by choosing the next period's ``n``:

* slow start, eq. (1)-(2): ``n -> 2n``, ``G' = (G - tau)/2 = R/(2n) - tau``;
* congestion avoidance, eq. (3)-(4): ``n -> n + 1``,
  ``G' = (n G - tau)/(n + 1) = R/(n + 1) - tau``;
* loss, eq. (5)-(6): ``n -> n/2``, ``G' = 2G + tau = 2R/n - tau``;
* scaled mode (§3.2): ``G_m = (G - tau (S - 1))/S`` sends ``S n`` packets.

A negative gap is returned as computed: it means the requested ``n`` cannot
be sent in one period at one packet per ``tau`` (the paper assumes
``R >> n tau``).

The timer, eqs. (7)-(9): ``srtt = 7/8 srtt + 1/8 rtt``,
``rttvar = 3/4 rttvar + 1/4 |rtt - srtt|``, timeout interval
``backoff (srtt + 4 rttvar + granularity)`` with a 1 ms granularity and
Karn's backoff doubling per timeout up to 64.

One law, three back-ends
------------------------
Every ``*_core`` function is plain arithmetic on numbers (ints, floats,
tuples of them; no strings, dataclasses or exceptions), so that numpy,
sympy (where the law is arithmetic) and ``numba.njit(core, inline="always")``
all accept the *same* function object; the packet simulator's IFTP sender
compiles them into its event loop (``@law_core`` lets one core call another
inside numba code and leaves the function unchanged otherwise).  The public functions of the same name
without ``_core`` validate their arguments and call the core.  Figure 1's
per-ACK state machine is :func:`ack_step_core` (with :func:`timeout_step_core`
for the timer interrupt); it works on the integer state
``(n, ssthresh, una, ack_count, after_missing, prev_last)`` and returns an
action code (:data:`ACTION_NONE`, :data:`ACTION_LOSS_WINDOW`,
:data:`ACTION_NEXT_WINDOW`) telling the sender to start a new window with
gap :func:`period_gap_core`.
"""

from dataclasses import dataclass, replace

from .._validation import (check_nonnegative, check_nonnegative_int, check_positive,
                           check_positive_int, is_symbolic)
from ..errors import ParameterError
from ._core import law_core

__all__ = [
    "MAX_BACKOFF",
    "GRANULARITY",
    "AFTER_MISSING_THRESH",
    "EVENT_ACK",
    "EVENT_LOSS",
    "EVENT_TIMEOUT",
    "PHASE_SLOW_START",
    "PHASE_CONGESTION_AVOIDANCE",
    "PHASE_LOSS",
    "ACTION_NONE",
    "ACTION_LOSS_WINDOW",
    "ACTION_NEXT_WINDOW",
    "IftpParams",
    "WindowState",
    "AckState",
    "RttEstimator",
    "window_update_core",
    "next_window",
    "ack_step_core",
    "ack_step",
    "timeout_step_core",
    "timeout_step",
    "gap_for_window_core",
    "gap_for_window",
    "gap_slow_start",
    "gap_congestion_avoidance",
    "gap_loss",
    "next_gap_core",
    "next_gap",
    "scaled_gap_core",
    "scaled_gap",
    "period_gap_core",
    "period_gap",
    "rtt_first_sample_core",
    "rtt_update_core",
    "rtt_update",
    "timeout_interval_core",
    "timeout_interval",
    "karn_backoff_core",
    "karn_backoff",
]

#: Karn's exponential backoff cap of eq. (9). [1]
MAX_BACKOFF = 64
#: IFTP's timer granularity, "the nearest millisecond" (§4). [s]
GRANULARITY = 1e-3
#: ACKs past a missing sequence number that signal a loss (§3.1, §6.1). [ACKs]
AFTER_MISSING_THRESH = 3

#: Event codes of :func:`window_update_core`: all ACKs of the period, a loss
#: (after_missing_thresh ACKs past a gap), a timeout.
EVENT_ACK, EVENT_LOSS, EVENT_TIMEOUT = 0, 1, 2
#: Phase codes of :func:`next_gap_core`: eqs. (2), (4), (6).
PHASE_SLOW_START, PHASE_CONGESTION_AVOIDANCE, PHASE_LOSS = 0, 1, 2
#: Action codes returned by :func:`ack_step_core`: nothing to send; start the
#: halved window after a loss (Figure 1's first ``Transmit_Window()``); start
#: the next window after all ACKs of the period (its second one).
ACTION_NONE, ACTION_LOSS_WINDOW, ACTION_NEXT_WINDOW = 0, 1, 2

_EVENTS = {"ack": EVENT_ACK, "loss": EVENT_LOSS, "timeout": EVENT_TIMEOUT}
_PHASES = {"slow_start": PHASE_SLOW_START, "congestion_avoidance": PHASE_CONGESTION_AVOIDANCE,
           "loss": PHASE_LOSS}


@dataclass(frozen=True)
class IftpParams:
    """IFTP's parameters; the defaults are the paper's simulation set (§6.1).

    Attributes
    ----------
    Ws : int
        Initial ssthresh, a power of two >= 1 (§5.1 assumes it; §6.1: 32).
        [packets]
    Wmax : int
        Receiver's maximum window, >= 1 (§6.1: 50). [packets]
    S : float
        Scale factor of the extended mode, > 0 (§3.2; 1 = standard mode). [1]
    after_missing_thresh : int
        ACKs past a missing one that signal a loss, >= 1 (§6.1: 3). [ACKs]
    granularity : float
        Timer tick of eq. (9), > 0 (§4: 1 ms). [s]
    max_backoff : int
        Karn backoff cap, a power of two >= 1 (§4: 64). [1]

    References
    ----------
    ElAarag & Bassiouni (2002), §3.2, §4, §5.1, §6.1.

    Examples
    --------
    >>> IftpParams().Ws, IftpParams().Wmax, IftpParams().S
    (32, 50, 1.0)
    >>> IftpParams(Ws=24)
    Traceback (most recent call last):
    ...
    ctlcc.errors.ParameterError: Ws must be a power of two >= 1 (1, 2, 4, ...), got 24
    """

    Ws: int = 32
    Wmax: int = 50
    S: float = 1.0
    after_missing_thresh: int = AFTER_MISSING_THRESH
    granularity: float = GRANULARITY
    max_backoff: int = MAX_BACKOFF

    def __post_init__(self):
        _check_power_of_two("Ws", self.Ws)
        check_positive_int("Wmax", self.Wmax)
        check_positive("S", self.S)
        check_positive_int("after_missing_thresh", self.after_missing_thresh)
        check_positive("granularity", self.granularity)
        _check_power_of_two("max_backoff", self.max_backoff)


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
class AckState:
    """Figure 1's ACK bookkeeping, the state of :func:`ack_step`.

    Attributes
    ----------
    n : int
        Packets of the current period, >= 1. [packets]
    ssthresh : int
        Slow-start threshold, >= 1. [packets]
    una : int
        First unacknowledged sequence number (Figure 1 starts at 1). [1]
    ack_count : int
        In-order ACKs counted in the current period, >= 0. [ACKs]
    after_missing : int
        ACKs received past a missing sequence number, >= 0. [ACKs]
    prev_last : int
        Last sequence number sent before the loss phase began. [1]
    """

    n: int = 1
    ssthresh: int = 32
    una: int = 1
    ack_count: int = 0
    after_missing: int = 0
    prev_last: int = 0

    def __post_init__(self):
        check_positive_int("n", self.n)
        check_positive_int("ssthresh", self.ssthresh)
        for name in ("una", "ack_count", "after_missing", "prev_last"):
            _check_int_ge0(name, getattr(self, name))

    def as_tuple(self):
        """The six integers in :func:`ack_step_core`'s order."""
        return (self.n, self.ssthresh, self.una, self.ack_count, self.after_missing,
                self.prev_last)


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
        if self.srtt is not None:
            check_nonnegative("srtt", self.srtt)
            check_nonnegative("rttvar", self.rttvar)
        _check_backoff(self.backoff)

    def update(self, rtt):
        """Fold in a new RTT sample (eqs. (7)-(8)); Karn: backoff back to 1."""
        if self.srtt is None:
            srtt, rttvar = rtt_first_sample_core(check_positive("rtt", rtt))
            return replace(self, srtt=srtt, rttvar=rttvar, backoff=1)
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


@law_core
def window_update_core(n, ssthresh, event, Wmax):
    """Figure 1's window rule for one event code; numba-compilable.

    Parameters
    ----------
    n : int
        Packets of the period just completed, >= 1. [packets]
    ssthresh : int
        Slow-start threshold, >= 1. [packets]
    event : int
        :data:`EVENT_ACK` (every ACK of the period received),
        :data:`EVENT_LOSS` (after_missing_thresh ACKs past a gap) or
        :data:`EVENT_TIMEOUT`; any other code leaves the state unchanged.
    Wmax : int
        Receiver's maximum window, >= 1. [packets]

    Returns
    -------
    tuple of int
        ``(n', ssthresh')``: on ACK ``2n`` while ``n < ssthresh``, else
        ``n + 1`` while ``n < Wmax``, else ``n``; on loss
        ``(max(n // 2, 1), max(ssthresh // 2, 2))``; on timeout
        ``(1, max(n // 2, 2))``. [packets]

    Notes
    -----
    Figure 1 writes ``n = n/2`` and ``ssthresh = max(n/2, 2)`` in integer
    arithmetic; at ``n = 1`` the printed ``n/2`` is 0 and the next gap
    ``srtt/n - tau`` is undefined, so ctlcc keeps ``n >= 1``.

    References
    ----------
    ElAarag & Bassiouni (2002), §4, Figure 1.

    Examples
    --------
    >>> window_update_core(4, 32, EVENT_ACK, 50), window_update_core(32, 32, EVENT_ACK, 50)
    ((8, 32), (33, 32))
    >>> window_update_core(40, 32, EVENT_LOSS, 50), window_update_core(40, 32, EVENT_TIMEOUT, 50)
    ((20, 16), (1, 20))
    """
    if event == 0:
        if n < ssthresh:
            return 2 * n, ssthresh
        if n < Wmax:
            return n + 1, ssthresh
        return n, ssthresh
    if event == 1:
        return max(n // 2, 1), max(ssthresh // 2, 2)
    if event == 2:
        return 1, max(n // 2, 2)
    return n, ssthresh


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
    ElAarag & Bassiouni (2002), §4, Figure 1.

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
    Wmax = check_positive_int("Wmax", Wmax)
    if event not in _EVENTS:
        raise ParameterError(f"event must be one of 'ack', 'loss', 'timeout'; got {event!r}")
    n, ssthresh = window_update_core(state.n, state.ssthresh, _EVENTS[event], Wmax)
    return WindowState(n, ssthresh)


@law_core
def ack_step_core(ack_in, next_seq, n, ssthresh, una, ack_count, after_missing, prev_last,
                  Wmax, after_missing_thresh):
    """Figure 1's main processing phase for one ACK; numba-compilable.

    An IFTP receiver echoes the sequence number of each packet it receives
    (no cumulative ACK).  An ACK above ``una`` reveals a gap: the
    ``after_missing_thresh``-th such ACK halves ``n`` and ``ssthresh`` once
    and records ``prev_last = next_seq - 1``; further ACKs of the same loss
    phase are ignored until one reaches ``prev_last``, which sets
    ``una = ack_in + 1`` and ends the phase.  An in-order ACK
    (``ack_in <= una``) counts towards the period; the ``n``-th one applies
    the window rule (:func:`window_update_core` with :data:`EVENT_ACK`).

    Parameters
    ----------
    ack_in : int
        Sequence number carried by the ACK. [1]
    next_seq : int
        Figure 1's ``next``: sequence number of the next packet to send. [1]
    n, ssthresh, una, ack_count, after_missing, prev_last : int
        The state (see :class:`AckState`).
    Wmax : int
        Receiver's maximum window, >= 1. [packets]
    after_missing_thresh : int
        ACKs past a gap that signal a loss, >= 1 (3 in §6.1). [ACKs]

    Returns
    -------
    tuple of int
        ``(n, ssthresh, una, ack_count, after_missing, prev_last, action)``
        with ``action`` one of :data:`ACTION_NONE`,
        :data:`ACTION_LOSS_WINDOW` (send the halved window now) and
        :data:`ACTION_NEXT_WINDOW` (send the next period's window now); the
        sender then paces ``n`` packets with gap
        ``period_gap_core(srtt, n, tau, S)``.

    References
    ----------
    ElAarag & Bassiouni (2002), §4 and Figure 1 (main processing phase).

    Examples
    --------
    Packets 1-4 sent (``next = 5``), packet 1 lost; ACKs 2, 3, 4 arrive:

    >>> state = (4, 32, 1, 0, 0, 0)
    >>> for ack in (2, 3, 4):
    ...     *state, action = ack_step_core(ack, 5, *state, 50, 3)
    >>> tuple(state), action
    ((2, 16, 1, 0, 3, 4), 1)
    """
    action = 0
    if ack_in > una:
        after_missing += 1
        if after_missing == after_missing_thresh:
            ssthresh = max(ssthresh // 2, 2)
            n = max(n // 2, 1)
            prev_last = next_seq - 1
            action = 1
        if after_missing > after_missing_thresh and ack_in >= prev_last:
            una = ack_in + 1
        ack_count = 0
    else:
        after_missing = 0
        ack_count += 1
        if ack_count == n:
            ack_count = 0
            n, ssthresh = window_update_core(n, ssthresh, 0, Wmax)
            action = 2
        una = ack_in + 1
    return n, ssthresh, una, ack_count, after_missing, prev_last, action


def ack_step(state, ack_in, next_seq, params=None):
    """Validated :func:`ack_step_core` on an :class:`AckState`.

    Parameters
    ----------
    state : AckState
    ack_in : int
        Sequence number carried by the ACK, >= 0. [1]
    next_seq : int
        Sequence number of the next packet to send, > ack_in. [1]
    params : IftpParams, optional
        Default: the paper's values.

    Returns
    -------
    tuple of (AckState, int)
        New state and action code.

    References
    ----------
    ElAarag & Bassiouni (2002), Figure 1.

    Examples
    --------
    >>> s, action = ack_step(AckState(n=1, ssthresh=32), ack_in=1, next_seq=2)
    >>> (s.n, s.una, action) == (2, 2, ACTION_NEXT_WINDOW)
    True
    """
    params = IftpParams() if params is None else params
    if not isinstance(state, AckState):
        raise ParameterError(f"state must be an AckState, got {type(state).__name__}")
    ack_in = _check_int_ge0("ack_in", ack_in)
    next_seq = _check_int_ge0("next_seq", next_seq)
    if next_seq <= ack_in:
        raise ParameterError(
            f"next_seq must be > ack_in = {ack_in} (an ACK of a packet not yet sent), "
            f"got {next_seq}")
    *new, action = ack_step_core(ack_in, next_seq, *state.as_tuple(), params.Wmax,
                                 params.after_missing_thresh)
    return AckState(*new), action


@law_core
def timeout_step_core(n, ssthresh, backoff, next_seq, max_backoff):
    """Figure 1's timeout routine with eq. (9)'s backoff; numba-compilable.

    ``ssthresh = max(n // 2, 2)``, ``n = 1`` (gap ``srtt - tau``), one
    packet is sent and ``una`` becomes its sequence number (Figure 1:
    ``Transmit_Window(); una = next - 1``); Karn's factor doubles up to
    ``max_backoff``.

    Parameters
    ----------
    n, ssthresh : int
        Window and threshold when the timer expires. [packets]
    backoff : int
        Current Karn factor. [1]
    next_seq : int
        Sequence number the timeout's single packet will carry. [1]
    max_backoff : int
        Backoff cap (64). [1]

    Returns
    -------
    tuple of int
        ``(n', ssthresh', backoff', una')``.

    References
    ----------
    ElAarag & Bassiouni (2002), §4, eq. (9) and Figure 1 (Timeout).

    Examples
    --------
    >>> timeout_step_core(40, 32, 1, 101, 64)
    (1, 20, 2, 101)
    """
    return 1, max(n // 2, 2), min(2 * backoff, max_backoff), next_seq


def timeout_step(state, backoff, next_seq, params=None):
    """Validated :func:`timeout_step_core` on an :class:`AckState`.

    Parameters
    ----------
    state : AckState
    backoff : int
        Current Karn factor, a power of two <= params.max_backoff. [1]
    next_seq : int
        Sequence number of the timeout's packet, >= 1. [1]
    params : IftpParams, optional

    Returns
    -------
    tuple of (AckState, int)
        New state (``n = 1``, ``una = next_seq``) and the new backoff.

    Examples
    --------
    >>> s, b = timeout_step(AckState(n=40, ssthresh=32, una=60), 1, 101)
    >>> (s.n, s.ssthresh, s.una, b)
    (1, 20, 101, 2)
    """
    params = IftpParams() if params is None else params
    if not isinstance(state, AckState):
        raise ParameterError(f"state must be an AckState, got {type(state).__name__}")
    _check_backoff(backoff, params.max_backoff)
    next_seq = check_positive_int("next_seq", next_seq)
    n, ssthresh, backoff, una = timeout_step_core(state.n, state.ssthresh, backoff, next_seq,
                                                  params.max_backoff)
    return replace(state, n=n, ssthresh=ssthresh, una=una), backoff


@law_core
def gap_for_window_core(R, n, tau):
    """Gap spreading ``n`` packets over one period, ``R/n - tau``.

    Arithmetic core of :func:`gap_for_window` (no checks).

    Parameters
    ----------
    R : float
        Smoothed round-trip time, the adjustment period. [s]
    n : float
        Packets in the period. [packets]
    tau : float
        Transmission time of one packet. [s]

    Returns
    -------
    float
        Inter-packet gap G. [s]

    References
    ----------
    ElAarag & Bassiouni (2002), eqs. (2), (4), (6) (right-hand forms); Figure 1.

    Examples
    --------
    >>> round(gap_for_window_core(0.1, 4, 0.008), 6)
    0.017
    """
    return R / n - tau


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

    References
    ----------
    ElAarag & Bassiouni (2002), Figure 1 (``G = srtt/n - tau``).

    Examples
    --------
    >>> round(gap_for_window(0.1, 4, 0.008), 6)
    0.017
    """
    R = check_positive("R", R)
    n = check_positive("n", n)
    tau = check_nonnegative("tau", tau)
    return gap_for_window_core(R, n, tau)


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
    ElAarag & Bassiouni (2002), §3.1, eqs. (1)-(2).

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
    ElAarag & Bassiouni (2002), §3.1, eqs. (3)-(4).

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
    ElAarag & Bassiouni (2002), §3.1, eqs. (5)-(6).

    Examples
    --------
    >>> round(gap_loss(0.1, 4, 0.008), 6)
    0.042
    """
    return gap_for_window(R, check_positive("n", n) / 2, tau)


@law_core
def next_gap_core(G, n, tau, phase):
    """Recursive gap laws (2), (4), (6) for a phase code; numba-compilable.

    Parameters
    ----------
    G : float
        Current gap G_i. [s]
    n : float
        Packets of period i. [packets]
    tau : float
        Transmission time of one packet. [s]
    phase : int
        :data:`PHASE_SLOW_START`, :data:`PHASE_CONGESTION_AVOIDANCE` or
        :data:`PHASE_LOSS` (any other code: ``G`` unchanged).

    Returns
    -------
    float
        ``(G - tau)/2``, ``(n G - tau)/(n + 1)`` or ``2 G + tau``. [s]

    References
    ----------
    ElAarag & Bassiouni (2002), §3.1, eqs. (2), (4), (6).

    Examples
    --------
    >>> round(next_gap_core(0.017, 4, 0.008, PHASE_CONGESTION_AVOIDANCE), 6)
    0.012
    """
    if phase == 0:
        return (G - tau) / 2
    if phase == 1:
        return (n * G - tau) / (n + 1)
    if phase == 2:
        return 2 * G + tau
    return G


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

    References
    ----------
    ElAarag & Bassiouni (2002), §3.1, eqs. (2), (4), (6).

    Examples
    --------
    >>> round(next_gap(0.017, 4, 0.008, "congestion_avoidance"), 6)
    0.012
    """
    n = check_positive("n", n)
    tau = check_nonnegative("tau", tau)
    if phase not in _PHASES:
        raise ParameterError(
            "phase must be one of 'slow_start', 'congestion_avoidance', 'loss'; "
            f"got {phase!r}")
    return next_gap_core(G, n, tau, _PHASES[phase])


@law_core
def scaled_gap_core(G, tau, S):
    """Scaled-mode gap ``(G - tau (S - 1))/S``; core of :func:`scaled_gap`.

    Parameters
    ----------
    G : float
        Standard-mode gap. [s]
    tau : float
        Transmission time of one packet. [s]
    S : float
        Scale factor. [1]

    Returns
    -------
    float
        G_m. [s]

    References
    ----------
    ElAarag & Bassiouni (2002), §3.2.

    Examples
    --------
    >>> round(scaled_gap_core(0.017, 0.008, 2.0), 6)
    0.0045
    """
    return (G - tau * (S - 1)) / S


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
    ElAarag & Bassiouni (2002), §3.2.

    Examples
    --------
    >>> round(scaled_gap(0.017, 0.008, 2.0), 6)
    0.0045
    """
    tau = check_nonnegative("tau", tau)
    S = check_positive("S", S)
    return scaled_gap_core(G, tau, S)


@law_core
def period_gap_core(R, n, tau, S):
    """Gap the sender uses for a period of ``n`` packets in mode ``S``.

    Figure 1's ``G = srtt/n - tau`` followed by §3.2's scaling,
    ``G_m = (G - tau (S - 1))/S``, which simplifies to
    ``R/(S n) - tau``: ``S n`` packets spread over one period.

    Parameters
    ----------
    R : float
        Smoothed round-trip time srtt. [s]
    n : float
        Standard-mode packets of the period. [packets]
    tau : float
        Transmission time of one packet. [s]
    S : float
        Scale factor (1: standard mode). [1]

    Returns
    -------
    float
        Gap after each packet. [s]

    References
    ----------
    ElAarag & Bassiouni (2002), Figure 1 and §3.2.

    Examples
    --------
    >>> round(period_gap_core(0.1, 4, 0.008, 1.0), 6), round(period_gap_core(0.1, 4, 0.008, 2.0), 6)
    (0.017, 0.0045)
    """
    return scaled_gap_core(gap_for_window_core(R, n, tau), tau, S)


def period_gap(R, n, tau, S=1.0):
    """Validated :func:`period_gap_core`.

    Parameters
    ----------
    R : float or array_like
        Smoothed round-trip time, > 0. [s]
    n : float or array_like
        Standard-mode packets of the period, > 0. [packets]
    tau : float or array_like
        Transmission time of one packet, >= 0. [s]
    S : float or array_like, optional
        Scale factor, > 0. [1]

    Returns
    -------
    float or numpy.ndarray
        Gap after each packet. [s]

    Examples
    --------
    >>> round(period_gap(0.1, 4, 0.008, S=1.5), 6)
    0.008667
    """
    R = check_positive("R", R)
    n = check_positive("n", n)
    tau = check_nonnegative("tau", tau)
    S = check_positive("S", S)
    return period_gap_core(R, n, tau, S)


@law_core
def rtt_first_sample_core(rtt):
    """Timer state from the first RTT sample: ``srtt = rtt``, ``rttvar = rtt/2``.

    Parameters
    ----------
    rtt : float
        First sample (the ACK of the connection's first packet). [s]

    Returns
    -------
    tuple of float
        ``(srtt, rttvar)``. [s]

    References
    ----------
    ElAarag & Bassiouni (2002), §4 ("Half the first sample is used as the
    initial value for rttvar").

    Examples
    --------
    >>> rtt_first_sample_core(0.2)
    (0.2, 0.1)
    """
    return rtt, rtt / 2


@law_core
def rtt_update_core(srtt, rttvar, rtt):
    """Eqs. (7)-(8) without checks; core of :func:`rtt_update`.

    Parameters
    ----------
    srtt, rttvar : float
        Current estimates. [s]
    rtt : float
        New sample. [s]

    Returns
    -------
    tuple of float
        ``(srtt', rttvar')``. [s]

    References
    ----------
    ElAarag & Bassiouni (2002), §4, eqs. (7)-(8).

    Examples
    --------
    >>> [round(v, 6) for v in rtt_update_core(0.1, 0.05, 0.18)]
    [0.11, 0.055]
    """
    new_srtt = 7 / 8 * srtt + 1 / 8 * rtt
    new_rttvar = 3 / 4 * rttvar + 1 / 4 * abs(rtt - new_srtt)
    return new_srtt, new_rttvar


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
    ElAarag & Bassiouni (2002), §4, eqs. (7)-(8).

    Examples
    --------
    >>> [round(v, 6) for v in rtt_update(0.1, 0.05, 0.18)]
    [0.11, 0.055]
    """
    srtt = check_nonnegative("srtt", srtt)
    rttvar = check_nonnegative("rttvar", rttvar)
    rtt = check_positive("rtt", rtt)
    return rtt_update_core(srtt, rttvar, rtt)


@law_core
def timeout_interval_core(srtt, rttvar, backoff, granularity):
    """Eq. (9) without checks: ``backoff (srtt + 4 rttvar + granularity)``.

    Parameters
    ----------
    srtt, rttvar : float
        Timer estimates. [s]
    backoff : int
        Karn factor. [1]
    granularity : float
        Timer tick (1 ms). [s]

    Returns
    -------
    float
        Interval from now to the timeout. [s]

    References
    ----------
    ElAarag & Bassiouni (2002), §4, eq. (9).

    Examples
    --------
    >>> round(timeout_interval_core(0.0, 0.0, 64, 1e-3), 6)
    0.064
    """
    return backoff * (srtt + 4 * rttvar + granularity)


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
    ElAarag & Bassiouni (2002), §4, eq. (9); §5.3.

    Examples
    --------
    >>> round(timeout_interval(0.0, 0.0, 64), 6)
    0.064
    """
    srtt = check_nonnegative("srtt", srtt)
    rttvar = check_nonnegative("rttvar", rttvar)
    _check_backoff(backoff)
    granularity = check_positive("granularity", granularity)
    return timeout_interval_core(srtt, rttvar, backoff, granularity)


@law_core
def karn_backoff_core(backoff, max_backoff):
    """Backoff after one more timeout, ``min(2 backoff, max_backoff)``.

    Parameters
    ----------
    backoff : int
        Current Karn factor. [1]
    max_backoff : int
        Cap (64). [1]

    Returns
    -------
    int
        New factor. [1]

    References
    ----------
    ElAarag & Bassiouni (2002), §4 (after eq. (9)).

    Examples
    --------
    >>> karn_backoff_core(32, 64), karn_backoff_core(64, 64)
    (64, 64)
    """
    return min(2 * backoff, max_backoff)


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

    References
    ----------
    ElAarag & Bassiouni (2002), §4 (after eq. (9)).

    Examples
    --------
    >>> [karn_backoff(b) for b in (1, 2, 32, 64)]
    [2, 4, 64, 64]
    """
    _check_backoff(backoff, max_backoff)
    return karn_backoff_core(backoff, max_backoff)


def _check_backoff(backoff, max_backoff=MAX_BACKOFF):
    if is_symbolic(backoff):
        return backoff
    backoff = check_positive_int("backoff", backoff)
    if backoff > max_backoff or backoff & (backoff - 1):
        raise ParameterError(
            f"backoff must be a power of two in [1, {max_backoff}], got {backoff!r}")
    return backoff


def _check_power_of_two(name, value):
    value = check_positive_int(name, value)
    if value & (value - 1):
        raise ParameterError(f"{name} must be a power of two >= 1 (1, 2, 4, ...), got {value!r}")
    return value


def _check_int_ge0(name, value):
    return check_nonnegative_int(name, value)
