# ctlcc.laws.cbraa - CBRAA's cycle-based rate update (Figure 1) and the plain TCP-Friend rule
"""CBRAA's rate law (004_13a89f4b9cbddf14, Figure 1 and §3.2) and TCP-Friend.

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
default uses the exact constants they round.

Property found by ctlcc (not stated in 004): in the decrease branch the
target ``C/(srtt sqrt(p))`` is *above* the current rate while the window
``Rate srtt`` is below about 6.2 packets and Loss_obs is just above
``a Loss_th`` (with Figure 1's constants, a = 1.5, beta = 0.5), so
"decrease(Rate)" then raises the rate; see
``tests/laws/test_cbraa_law.py``.  004 §3.2 itself notes the functions
"have limitations in some cases".

*TCP-Friend* (§3.2, last paragraph): no loss smoothing; a report with zero
loss adds ``T_RTCP/(2 srtt^2)`` (half of Reno's increase over T_RTCP), a
report with loss sets the rate to eq. (2) at the reported loss.
"""

from dataclasses import dataclass

import numpy as np

from .._validation import (check_bool, check_instance, check_interval, check_positive,
                          check_result)
from ..bounds.cbraa import cycle as _cycle
from ..bounds.mathis import mathis_constant
from ..errors import ParameterError

__all__ = ["CbraaParams", "regime", "target_rate", "rate_update", "tcp_friend_update"]


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

    Examples
    --------
    >>> CbraaParams().a, CbraaParams().b
    (1.5, 0.5)
    >>> CbraaParams(a=0.4)
    Traceback (most recent call last):
    ...
    ctlcc.errors.ParameterError: a must be > b = 0.5, got 0.4
    """

    a: float = 1.5
    b: float = 0.5
    alpha: float = 0.5
    beta: float = 0.5
    C: float = mathis_constant("cbraa")
    published: bool = False

    def __post_init__(self):
        check_interval("b", self.b, 0.0, 1.0, scalar=True)
        check_positive("a", self.a, scalar=True)
        if not self.a > self.b:
            raise ParameterError(f"a must be > b = {self.b!r}, got {self.a!r}")
        check_interval("alpha", self.alpha, 0.0, 1.0, closed="left", scalar=True)
        check_interval("beta", self.beta, 0.0, 1.0, closed="right", scalar=True)
        check_positive("C", self.C, scalar=True)
        check_bool("published", self.published)


def regime(loss_obs, loss_th, params=CbraaParams()):
    """Which branch of Figure 1 applies: -1 decrease, 0 hold, +1 increase.

    Parameters
    ----------
    loss_obs : float or array_like
        Loss ratio observed over the last cycle, in [0, 1]. [1]
    loss_th : float or array_like
        Ideal loss ratio, > 0. [1]
    params : CbraaParams, optional

    Returns
    -------
    int or numpy.ndarray of int

    Examples
    --------
    >>> int(regime(0.05, 0.02)), int(regime(0.02, 0.02)), int(regime(0.0, 0.02))
    (-1, 0, 1)
    """
    check_instance("params", params, CbraaParams)
    loss_obs = check_interval("loss_obs", loss_obs, 0.0, 1.0, closed="both")
    loss_th = check_positive("loss_th", loss_th)
    out = np.where(np.asarray(loss_obs) > params.a * np.asarray(loss_th), -1,
                   np.where(np.asarray(loss_obs) < params.b * np.asarray(loss_th), 1, 0))
    return int(out) if out.ndim == 0 else out


def target_rate(loss_obs, loss_th, srtt, params=CbraaParams()):
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

    Returns
    -------
    float or numpy.ndarray
        ``C / (srtt sqrt(p))``. [packets/s]

    Examples
    --------
    >>> round(target_rate(0.02, 0.02, 0.1), 3)
    89.81
    """
    loss_obs = check_interval("loss_obs", loss_obs, 0.0, 1.0, closed="both")
    loss_th = check_positive("loss_th", loss_th)
    srtt = check_positive("srtt", srtt)
    check_instance("params", params, CbraaParams)
    p = params.beta * loss_th + (1 - params.beta) * loss_obs
    out = check_result("target_rate", params.C / (srtt * np.sqrt(p)),
                       loss_obs=loss_obs, loss_th=loss_th, srtt=srtt)
    return float(out) if np.ndim(out) == 0 else np.asarray(out)


def rate_update(rate, srtt, loss_obs, params=CbraaParams()):
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

    Returns
    -------
    float or numpy.ndarray
        New rate, at least ``1/srtt``. [packets/s]

    References
    ----------
    004_13a89f4b9cbddf14 §3.2, Figure 1; §4 (a, b, alpha, minimum rate).

    Examples
    --------
    >>> round(rate_update(100.0, 0.1, 0.0), 3)     # no loss: increase
    126.012
    >>> rate_update(100.0, 0.1, 0.02)              # within [b, a] Loss_th: hold
    100.0
    """
    rate = check_positive("rate", rate)
    srtt = check_positive("srtt", srtt)
    loss_obs = check_interval("loss_obs", loss_obs, 0.0, 1.0, closed="both")
    check_instance("params", params, CbraaParams)
    cyc = _cycle(rate, srtt, published=params.published)
    lth = 1.0 / (rate * cyc)
    if np.any(np.asarray(lth) <= 0) or not np.all(np.isfinite(lth)):
        raise ParameterError(
            "rate and srtt must keep the ideal loss ratio 1/(rate Cycle) a positive finite "
            f"number, got rate={rate!r}, srtt={srtt!r}")
    branch = np.asarray(regime(loss_obs, lth, params))
    rate_th = np.where(branch == 0, rate, target_rate(loss_obs, lth, srtt, params))
    new = params.alpha * rate + (1 - params.alpha) * rate_th
    new = np.maximum(new, 1.0 / np.asarray(srtt))
    check_result("rate_update", new, rate=rate, srtt=srtt, loss_obs=loss_obs)
    return float(new) if new.ndim == 0 else new


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
    004_13a89f4b9cbddf14 §3.2 (last paragraph) and §4.

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
    C = mathis_constant("cbraa") if C is None else check_positive("C", C, scalar=True)
    loss_a = np.asarray(loss, dtype=float)
    with np.errstate(divide="ignore"):
        eq2 = C / (np.asarray(srtt) * np.sqrt(loss_a))
    new = np.where(loss_a == 0, rate + t_rtcp / (2 * np.asarray(srtt) ** 2), eq2)
    new = np.maximum(new, 1.0 / np.asarray(srtt))
    check_result("tcp_friend_update", new, rate=rate, srtt=srtt, loss=loss, t_rtcp=t_rtcp, C=C)
    return float(new) if new.ndim == 0 else new
