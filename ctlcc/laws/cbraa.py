# ctlcc.laws.cbraa - CBRAA's cycle-based rate update (Figure 1) and the plain TCP-Friend rule
"""CBRAA's rate law (Ait-Hellal, Yamamoto & Leduc (1999), Figure 1, §3.2) and TCP-Friend.

For every RTCP receiver report CBRAA computes the ideal Reno cycle and loss
(eqs. (3)-(4)), compares the loss observed over the last cycle with it and
moves towards a target rate::

    Cycle   = srtt (0.62 Rate srtt + 0.96)
    Loss_th = 1 / (Rate Cycle)
    if   Loss_obs > a Loss_th:  Rate_th = decrease(Rate)
    elif Loss_obs < b Loss_th:  Rate_th = increase(Rate)
    else:                       Rate_th = Rate           (hold)
    Rate = alpha Rate + (1 - alpha) Rate_th

with a = 1.5, b = 0.5 and alpha = 0.5 in §4.  §3.2 says increase() and
decrease() both compute the rate of eq. (2), ``C/(srtt sqrt(p))`` with
C = 1.2701, at ``p = beta Loss_th + (1 - beta) Loss_obs``.  The paper does
not give beta; ctlcc's default is 0.5 (a documented choice).  The rate never
goes below one packet per srtt (§4: "the minimum rate ... is set to
1.0/srtt"); that floor is part of the law, not a silent clip.

``CbraaParams(published=True)`` uses Figure 1's printed 0.62 and 0.96; the
default uses the exact constants they round (243/392 and 27/28).

Property found by ctlcc (not stated in the paper): in the decrease branch the
target ``C/(srtt sqrt(p))`` is *above* the current rate while the window
``Rate srtt`` is below about 6.2 packets and Loss_obs is just above
``a Loss_th`` (with Figure 1's constants, a = 1.5, beta = 0.5), so
"decrease(Rate)" then raises the rate; see
``tests/laws/test_cbraa_law.py``.  §3.2 itself notes the functions
"have limitations in some cases".

*TCP-Friend* (§3.2, last paragraph): no loss smoothing; a report with zero
loss adds ``T_RTCP/(2 srtt^2)`` (half of Reno's increase over T_RTCP), a
report with loss sets the rate to eq. (2) at the reported loss.

Loss over the observed cycle (§3.1: "a sliding window is used in case many
RTCP reports are received during a cycle"): :func:`cycle_loss_core` sums the
lost and sent counts of the reports received within the last ``Cycle``
seconds, always including the newest report.

One law, three back-ends: the ``*_core`` functions are plain arithmetic on
numbers (:mod:`ctlcc.laws._core`); the cycle, ideal-loss, target and
smoothing cores also accept sympy symbols; the packet sender compiles them
with ``numba.njit(core, inline="always")``.  The public functions validate and
call them.  The cycle formula lives here and :mod:`ctlcc.bounds.cbraa` uses
it (imports point downwards).
"""

import math
from dataclasses import dataclass

import numpy as np

from .._validation import check_interval, check_nonnegative, check_positive
from ..errors import ParameterError
from ._core import law_core

__all__ = [
    "C_CBRAA",
    "CYCLE_EXACT",
    "CYCLE_PUBLISHED",
    "T_RTCP",
    "INITIAL_RATE",
    "CbraaParams",
    "TcpFriendParams",
    "cycle_core",
    "loss_th_core",
    "eq2_rate_core",
    "regime_core",
    "regime",
    "target_rate_core",
    "target_rate",
    "rate_update_core",
    "rate_update",
    "tcp_friend_update_core",
    "tcp_friend_update",
    "cycle_loss_core",
    "cycle_loss",
]

#: Constant of eq. (2), (7/9) sqrt(8/3) = 1.2701 (§2). [1]
C_CBRAA = (7.0 / 9.0) * math.sqrt(8.0 / 3.0)
#: (c1, c2) of ``Cycle = srtt (c1 Rate srtt + c2)``, eq. (3): exact 243/392, 27/28.
CYCLE_EXACT = (243.0 / 392.0, 27.0 / 28.0)
#: The same as printed in eq. (3) and Figure 1.
CYCLE_PUBLISHED = (0.62, 0.96)
#: Time between RTCP receiver reports: §4.2 "approximately 10 seconds (two RTCP RRs)". [s]
T_RTCP = 5.0
#: Initial rate of a TCP-Friend or CBRAA source, §4 ("5 pkts/s", 40 kb/s). [packets/s]
INITIAL_RATE = 5.0


@dataclass(frozen=True)
class CbraaParams:
    """CBRAA's parameters; the defaults are §3.2/§4's values.

    Attributes
    ----------
    a : float
        Decrease threshold on Loss_obs/Loss_th, > b. [1]
    b : float
        Increase threshold on Loss_obs/Loss_th, in (0, 1). [1]
    alpha : float
        Rate smoothing weight of the old rate, in [0, 1). [1]
    beta : float
        Weight of Loss_th in the p of eq. (2), in (0, 1]. Not given in the
        paper; 0.5 is ctlcc's choice. [1]
    C : float
        Constant of eq. (2), (7/9) sqrt(8/3) = 1.2701. [1]
    published : bool
        False (default): Cycle with the exact 243/392 and 27/28; True:
        Figure 1's printed 0.62 and 0.96 (Loss_th differs by < 0.5 %).
    t_rtcp : float
        Mean time between receiver reports, > 0 (§4.2: two reports in about
        10 s). [s]
    initial_rate : float
        Rate before the first report, > 0 (§4: 5 packets/s). [packets/s]

    Examples
    --------
    >>> CbraaParams().a, CbraaParams().b, CbraaParams().t_rtcp
    (1.5, 0.5, 5.0)
    >>> CbraaParams(a=0.4)
    Traceback (most recent call last):
    ...
    ctlcc.errors.ParameterError: a must be > b = 0.5, got 0.4
    """

    a: float = 1.5
    b: float = 0.5
    alpha: float = 0.5
    beta: float = 0.5
    C: float = C_CBRAA
    published: bool = False
    t_rtcp: float = T_RTCP
    initial_rate: float = INITIAL_RATE

    def __post_init__(self):
        check_interval("b", self.b, 0.0, 1.0)
        check_positive("a", self.a)
        if not self.a > self.b:
            raise ParameterError(f"a must be > b = {self.b!r}, got {self.a!r}")
        check_interval("alpha", self.alpha, 0.0, 1.0, closed="left")
        check_interval("beta", self.beta, 0.0, 1.0, closed="right")
        check_positive("C", self.C)
        if not isinstance(self.published, (bool, np.bool_)):
            raise ParameterError(f"published must be True or False, got {self.published!r}")
        check_positive("t_rtcp", self.t_rtcp)
        check_positive("initial_rate", self.initial_rate)

    @property
    def cycle_coefficients(self):
        """(c1, c2) of eq. (3): :data:`CYCLE_PUBLISHED` or :data:`CYCLE_EXACT`."""
        return CYCLE_PUBLISHED if self.published else CYCLE_EXACT

    def core_args(self):
        """``(a, b, alpha, beta, C, c1, c2)``, the tail of :func:`rate_update_core`."""
        return (self.a, self.b, self.alpha, self.beta, self.C) + tuple(self.cycle_coefficients)


@dataclass(frozen=True)
class TcpFriendParams:
    """Parameters of the TCP-Friend rule (§3.2, last paragraph; §4).

    Attributes
    ----------
    C : float
        Constant of eq. (2), > 0 (1.2701). [1]
    t_rtcp : float
        Mean time between receiver reports, > 0. [s]
    initial_rate : float
        Rate before the first report, > 0 (§4: 5 packets/s). [packets/s]

    Examples
    --------
    >>> TcpFriendParams(t_rtcp=0.0)
    Traceback (most recent call last):
    ...
    ctlcc.errors.ParameterError: t_rtcp must be in (0, inf), got 0.0
    """

    C: float = C_CBRAA
    t_rtcp: float = T_RTCP
    initial_rate: float = INITIAL_RATE

    def __post_init__(self):
        check_positive("C", self.C)
        check_positive("t_rtcp", self.t_rtcp)
        check_positive("initial_rate", self.initial_rate)


@law_core
def cycle_core(rate, srtt, c1, c2):
    """Ideal Reno cycle of eq. (3), ``srtt (c1 rate srtt + c2)``.

    Parameters
    ----------
    rate : float
        Sending rate B. [packets/s]
    srtt : float
        Average round-trip time. [s]
    c1, c2 : float
        :data:`CYCLE_EXACT` or :data:`CYCLE_PUBLISHED`. [1]

    Returns
    -------
    float
        Cycle. [s]

    References
    ----------
    Ait-Hellal, Yamamoto & Leduc (1999), §3.1, eq. (3); Figure 1.

    Examples
    --------
    >>> round(cycle_core(70.0, 0.1, 0.62, 0.96), 6)
    0.53
    """
    return srtt * (c1 * rate * srtt + c2)


@law_core
def loss_th_core(rate, srtt, c1, c2):
    """Ideal loss ratio of Figure 1, ``1/(Rate Cycle)`` (eq. (4)).

    Parameters
    ----------
    rate : float
        Sending rate. [packets/s]
    srtt : float
        Smoothed round-trip time. [s]
    c1, c2 : float
        Cycle coefficients. [1]

    Returns
    -------
    float
        Loss_th. [1]

    References
    ----------
    Ait-Hellal, Yamamoto & Leduc (1999), §3.1, eq. (4); Figure 1.

    Examples
    --------
    >>> round(loss_th_core(70.0, 0.1, 243 / 392, 27 / 28), 6)  # 1/N, N = (3/8) 9 (9 + 2)
    0.026936
    """
    return 1.0 / (rate * cycle_core(rate, srtt, c1, c2))


@law_core
def eq2_rate_core(C, srtt, p):
    """Rate of eq. (2), ``C/(srtt sqrt(p))``.

    Parameters
    ----------
    C : float
        Constant (1.2701). [1]
    srtt : float
        Smoothed round-trip time. [s]
    p : float
        Loss ratio, > 0. [1]

    Returns
    -------
    float
        Rate. [packets/s]

    References
    ----------
    Ait-Hellal, Yamamoto & Leduc (1999), §2, eqs. (1)-(2).

    Examples
    --------
    >>> round(eq2_rate_core(1.2701, 0.1, 0.01), 6)
    127.01
    """
    return C / (srtt * p ** 0.5)


@law_core
def regime_core(loss_obs, loss_th, a, b):
    """Branch of Figure 1: -1 decrease, 0 hold, +1 increase.

    Parameters
    ----------
    loss_obs : float
        Loss ratio over the last cycle. [1]
    loss_th : float
        Ideal loss ratio. [1]
    a, b : float
        Decrease and increase thresholds on ``loss_obs/loss_th``. [1]

    Returns
    -------
    int
        -1 if ``loss_obs > a loss_th``, +1 if ``loss_obs < b loss_th``, else 0.

    References
    ----------
    Ait-Hellal, Yamamoto & Leduc (1999), Figure 1.

    Examples
    --------
    >>> regime_core(0.05, 0.02, 1.5, 0.5), regime_core(0.0, 0.02, 1.5, 0.5)
    (-1, 1)
    """
    if loss_obs > a * loss_th:
        return -1
    if loss_obs < b * loss_th:
        return 1
    return 0


def regime(loss_obs, loss_th, params=None):
    """Which branch of Figure 1 applies: -1 decrease, 0 hold, +1 increase.

    Parameters
    ----------
    loss_obs : float or array_like
        Loss ratio observed over the last cycle, in [0, 1]. [1]
    loss_th : float or array_like
        Ideal loss ratio, > 0. [1]
    params : CbraaParams, optional
        Default: the paper's values.

    Returns
    -------
    int or numpy.ndarray of int

    References
    ----------
    Ait-Hellal, Yamamoto & Leduc (1999), Figure 1.

    Examples
    --------
    >>> int(regime(0.05, 0.02)), int(regime(0.02, 0.02)), int(regime(0.0, 0.02))
    (-1, 0, 1)
    """
    params = CbraaParams() if params is None else params
    loss_obs = check_interval("loss_obs", loss_obs, 0.0, 1.0, closed="both")
    loss_th = check_positive("loss_th", loss_th)
    out = np.vectorize(regime_core, otypes=[int])(loss_obs, loss_th, params.a, params.b)
    return int(out) if out.ndim == 0 else out


@law_core
def target_rate_core(loss_obs, loss_th, srtt, beta, C):
    """§3.2's increase/decrease target, eq. (2) at a blended loss.

    ``C/(srtt sqrt(beta Loss_th + (1 - beta) Loss_obs))``.

    Parameters
    ----------
    loss_obs, loss_th : float
        Observed and ideal loss ratios. [1]
    srtt : float
        Smoothed round-trip time. [s]
    beta : float
        Weight of Loss_th. [1]
    C : float
        Constant of eq. (2). [1]

    Returns
    -------
    float
        Rate_th. [packets/s]

    References
    ----------
    Ait-Hellal, Yamamoto & Leduc (1999), §3.2 and eq. (2).

    Examples
    --------
    >>> round(target_rate_core(0.02, 0.02, 0.1, 0.5, 1.2701), 3)
    89.81
    """
    return eq2_rate_core(C, srtt, beta * loss_th + (1 - beta) * loss_obs)


def target_rate(loss_obs, loss_th, srtt, params=None):
    """Rate of eq. (2) at ``p = beta Loss_th + (1 - beta) Loss_obs``.

    Parameters
    ----------
    loss_obs : float or array_like
        Observed loss ratio, in [0, 1]. [1]
    loss_th : float or array_like
        Ideal loss ratio, > 0. [1]
    srtt : float or array_like
        Smoothed round-trip time, > 0. [s]
    params : CbraaParams, optional
        Default: the paper's values.

    Returns
    -------
    float or numpy.ndarray
        ``C / (srtt sqrt(p))``. [packets/s]

    References
    ----------
    Ait-Hellal, Yamamoto & Leduc (1999), §3.2.

    Examples
    --------
    >>> round(target_rate(0.02, 0.02, 0.1), 3)
    89.81
    """
    params = CbraaParams() if params is None else params
    loss_obs = check_interval("loss_obs", loss_obs, 0.0, 1.0, closed="both")
    loss_th = check_positive("loss_th", loss_th)
    srtt = check_positive("srtt", srtt)
    out = target_rate_core(np.asarray(loss_obs), np.asarray(loss_th), np.asarray(srtt),
                           params.beta, params.C)
    return float(out) if np.ndim(out) == 0 else np.asarray(out)


@law_core
def rate_update_core(rate, srtt, loss_obs, a, b, alpha, beta, C, c1, c2):
    """CBRAA's rate after one receiver report (Figure 1), scalars only.

    Parameters
    ----------
    rate : float
        Current rate, > 0. [packets/s]
    srtt : float
        Smoothed round-trip time, > 0. [s]
    loss_obs : float
        Loss ratio over the last observed cycle, in [0, 1]. [1]
    a, b, alpha, beta, C, c1, c2 : float
        :meth:`CbraaParams.core_args`. [1]

    Returns
    -------
    float
        ``max(alpha Rate + (1 - alpha) Rate_th, 1/srtt)``. [packets/s]

    References
    ----------
    Ait-Hellal, Yamamoto & Leduc (1999), §3.2, Figure 1; §4 (minimum rate).

    Examples
    --------
    >>> round(rate_update_core(100.0, 0.1, 0.0, 1.5, 0.5, 0.5, 0.5, C_CBRAA, *CYCLE_EXACT), 3)
    126.012
    """
    lth = loss_th_core(rate, srtt, c1, c2)
    branch = regime_core(loss_obs, lth, a, b)
    rate_th = rate if branch == 0 else target_rate_core(loss_obs, lth, srtt, beta, C)
    return max(alpha * rate + (1 - alpha) * rate_th, 1.0 / srtt)


def rate_update(rate, srtt, loss_obs, params=None):
    """CBRAA's rate after one receiver report (Figure 1).

    Parameters
    ----------
    rate : float or array_like
        Current sending rate, > 0. [packets/s]
    srtt : float or array_like
        Smoothed round-trip time, > 0. [s]
    loss_obs : float or array_like
        Loss ratio over the last observed cycle, in [0, 1]. [1]
    params : CbraaParams, optional
        Default: the paper's values.

    Returns
    -------
    float or numpy.ndarray
        New rate, at least ``1/srtt``. [packets/s]

    References
    ----------
    Ait-Hellal, Yamamoto & Leduc (1999), §3.2, Figure 1; §4 (a, b, alpha,
    minimum rate).

    Examples
    --------
    >>> round(rate_update(100.0, 0.1, 0.0), 3)     # no loss: increase
    126.012
    >>> rate_update(100.0, 0.1, 0.02)              # within [b, a] Loss_th: hold
    100.0
    """
    params = CbraaParams() if params is None else params
    rate = check_positive("rate", rate)
    srtt = check_positive("srtt", srtt)
    loss_obs = check_interval("loss_obs", loss_obs, 0.0, 1.0, closed="both")
    return _elementwise(rate_update_core, rate, srtt, loss_obs, *params.core_args())


@law_core
def tcp_friend_update_core(rate, srtt, loss, t_rtcp, C):
    """TCP-Friend's rate after one report, scalars only.

    Parameters
    ----------
    rate : float
        Current rate. [packets/s]
    srtt : float
        Smoothed round-trip time. [s]
    loss : float
        Loss ratio in the report. [1]
    t_rtcp : float
        Mean time between reports. [s]
    C : float
        Constant of eq. (2). [1]

    Returns
    -------
    float
        ``rate + t_rtcp/(2 srtt^2)`` if ``loss == 0``, else eq. (2)
        ``C/(srtt sqrt(loss))``; at least ``1/srtt``. [packets/s]

    References
    ----------
    Ait-Hellal, Yamamoto & Leduc (1999), §3.2 (last paragraph), §4.

    Examples
    --------
    >>> round(tcp_friend_update_core(50.0, 0.1, 0.0, 5.0, 1.2701), 9)
    300.0
    """
    if loss == 0:
        new = rate + t_rtcp / (2 * srtt * srtt)
    else:
        new = eq2_rate_core(C, srtt, loss)
    return max(new, 1.0 / srtt)


def tcp_friend_update(rate, srtt, loss, t_rtcp, C=None):
    """The "TCP-Friend" rule CBRAA is compared with (§3.2).

    Parameters
    ----------
    rate : float or array_like
        Current rate, > 0. [packets/s]
    srtt : float or array_like
        Smoothed round-trip time, > 0. [s]
    loss : float or array_like
        Loss ratio in the receiver report, in [0, 1]. [1]
    t_rtcp : float or array_like
        Mean time between receiver reports, > 0. [s]
    C : float, optional
        Constant of eq. (2) (default 1.2701). [1]

    Returns
    -------
    float or numpy.ndarray
        ``rate + t_rtcp/(2 srtt^2)`` if loss == 0, else
        ``C/(srtt sqrt(loss))``; at least ``1/srtt``. [packets/s]

    References
    ----------
    Ait-Hellal, Yamamoto & Leduc (1999), §3.2 (last paragraph) and §4.

    Examples
    --------
    >>> round(tcp_friend_update(50.0, 0.1, 0.0, 5.0), 9)   # + 5/(2 0.01)
    300.0
    >>> round(tcp_friend_update(50.0, 0.1, 0.01, 5.0), 3)
    127.011
    """
    rate = check_positive("rate", rate)
    srtt = check_positive("srtt", srtt)
    loss = check_interval("loss", loss, 0.0, 1.0, closed="both")
    t_rtcp = check_positive("t_rtcp", t_rtcp)
    C = C_CBRAA if C is None else check_positive("C", C)
    return _elementwise(tcp_friend_update_core, rate, srtt, loss, t_rtcp, C)


@law_core
def cycle_loss_core(times, lost, sent, count, now, cycle):
    """Loss ratio over the reports of the last cycle (§3.1's sliding window).

    Parameters
    ----------
    times : numpy.ndarray of float
        Arrival times of the stored reports; only the first ``count``
        entries are read (oldest first, or a ring buffer: order does not
        matter). [s]
    lost, sent : numpy.ndarray of float
        Packets lost and sent in the interval each report covers. [packets]
    count : int
        Valid entries, >= 1. [1]
    now : float
        Arrival time of the newest report. [s]
    cycle : float
        Cycle duration (:func:`cycle_core`). [s]

    Returns
    -------
    float
        ``sum(lost)/sum(sent)`` over the reports with ``time > now - cycle``
        and always the newest one; 0 if nothing was sent. [1]

    References
    ----------
    Ait-Hellal, Yamamoto & Leduc (1999), §3.1 (last paragraph), Figure 1
    (``Loss_obs = nlost_obs_cycle / total_sent_obs_cycle``).

    Examples
    --------
    >>> import numpy as np
    >>> t = np.array([5.0, 10.0, 15.0, 20.0])
    >>> float(cycle_loss_core(t, np.array([0.0, 2, 0, 1]), np.full(4, 100.0), 4, 20.0, 12.0))
    0.01
    """
    total_lost = 0.0
    total_sent = 0.0
    for i in range(count):
        if times[i] > now - cycle or times[i] >= now:
            total_lost += lost[i]
            total_sent += sent[i]
    if total_sent <= 0.0:
        return 0.0
    return total_lost / total_sent


def cycle_loss(times, lost, sent, now, cycle):
    """Validated :func:`cycle_loss_core` on whole arrays.

    Parameters
    ----------
    times : array_like of float
        Arrival times of the reports, <= now. [s]
    lost, sent : array_like of float
        Per-report lost and sent counts, 0 <= lost <= sent. [packets]
    now : float
        Time of the newest report. [s]
    cycle : float
        Cycle duration, > 0. [s]

    Returns
    -------
    float
        Loss_obs. [1]

    Examples
    --------
    >>> cycle_loss([5.0, 10.0, 15.0, 20.0], [0, 2, 0, 1], [100] * 4, 20.0, 3.0)
    0.01
    """
    times = np.atleast_1d(np.asarray(check_nonnegative("times", times), dtype=float))
    lost = np.atleast_1d(np.asarray(check_nonnegative("lost", lost), dtype=float))
    sent = np.atleast_1d(np.asarray(check_nonnegative("sent", sent), dtype=float))
    if not (times.shape == lost.shape == sent.shape) or times.ndim != 1 or times.size == 0:
        raise ParameterError(
            "times, lost and sent must be 1-d arrays of one equal length >= 1, got shapes "
            f"{times.shape}, {lost.shape}, {sent.shape}")
    if np.any(lost > sent):
        raise ParameterError(f"lost must be <= sent in every report, got lost={lost.tolist()}, "
                             f"sent={sent.tolist()}")
    now = check_nonnegative("now", now)
    if np.any(times > now):
        raise ParameterError(f"times must be <= now = {now!r}, got {float(times.max())!r}")
    cycle = check_positive("cycle", cycle)
    return float(cycle_loss_core(times, lost, sent, times.size, now, cycle))


def _elementwise(core, *args):
    """Apply a scalar core elementwise; a Python float for scalar input."""
    if all(np.ndim(x) == 0 for x in args):
        return float(core(*(x.item() if isinstance(x, np.ndarray) else x for x in args)))
    return np.vectorize(core, otypes=[float])(*args)
