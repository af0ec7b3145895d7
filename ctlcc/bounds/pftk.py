# ctlcc.bounds.pftk - the PFTK model with timeouts and the TFRC throughput equation
"""PFTK (Padhye-Firoiu-Towsley-Kurose 1998) and TFRC (RFC 5348 §3.1) rates.

Both extend the square-root law with the time spent in retransmission
timeouts, which dominates once the loss rate exceeds about 1e-2; that is
where they part from :func:`ctlcc.bounds.mathis_rate`.

The two functions take the same arguments in the same order,
``(p, rtt, rto=None, mss=1.0, b=1)``, and both default the retransmission
timeout to ``4 * rtt``, the value RFC 5348 §3.1 recommends.
"""

from __future__ import annotations

import warnings

import numpy as np
from numpy.typing import ArrayLike

from .._validation import check_interval, check_positive
from ..laws.tfrc import tfrc_rate_core as _tfrc_rate_core

__all__ = ["pftk_rate", "pftk_window", "tfrc_rate"]


def pftk_rate(p: ArrayLike, rtt: ArrayLike, rto: ArrayLike | None = None, mss: ArrayLike = 1.0,
              b: float = 1, wmax: ArrayLike | None = None,
              approximate: bool = False) -> float | np.ndarray:
    """PFTK send rate of a bulk TCP Reno flow, with timeouts.

    The "full model" (eq. (31) of PFTK'98)::

        E[W] = (2+b)/(3b) + sqrt(8(1-p)/(3bp) + ((2+b)/(3b))^2)
        Q(w) = min(1, (1-(1-p)^3)(1+(1-p)^3(1-(1-p)^(w-3))) / (1-(1-p)^w))
        f(p) = 1 + p + 2p^2 + 4p^3 + 8p^4 + 16p^5 + 32p^6

        E[W] < Wmax:  B = ((1-p)/p + E[W] + Q(E[W])/(1-p))
                          / (rtt (b E[W]/2 + 1) + Q(E[W]) f(p) rto/(1-p))
        otherwise:    B = ((1-p)/p + Wmax + Q(Wmax)/(1-p))
                          / (rtt (b Wmax/8 + (1-p)/(p Wmax) + 2) + Q(Wmax) f(p) rto/(1-p))

    and with ``approximate=True`` its closed approximation (eq. (33))::

        B = min(Wmax/rtt, 1/(rtt sqrt(2bp/3) + rto min(1, 3 sqrt(3bp/8)) p (1+32p^2)))

    Parameters
    ----------
    p : float or array_like
        Loss indication rate, in (0, 1]. At p = 1 the full model is 0/0
        and its limit ``1/(f(1) rto) = 1/(64 rto)`` (one packet per
        maximally backed-off timeout) is returned. [1]
    rtt : float or array_like
        Round-trip time, > 0. [s]
    rto : float or array_like, optional
        Base retransmission timeout T0, > 0; default ``4 * rtt`` (as
        :func:`tfrc_rate`). [s]
    mss : float or array_like, optional
        Segment size (1: packets/s). [packets or B]
    b : int or float, optional
        Packets acknowledged per ACK (1, or 2 with delayed ACKs), > 0. [1]
    wmax : float or array_like, optional
        Receiver window limit, > 0 (default: unlimited). [packets]
    approximate : bool, optional
        Use eq. (33) instead of the full eq. (31).

    Returns
    -------
    float or numpy.ndarray
        Send rate. [packets/s or B/s]

    References
    ----------
    J. Padhye, V. Firoiu, D. Towsley, J. Kurose, "Modeling TCP throughput: a
    simple model and its empirical validation", ACM SIGCOMM 1998, eqs. (31),
    (33); Q-hat from eq. (27)-(28), E[W] from eq. (13).

    Examples
    --------
    >>> round(pftk_rate(0.01, 0.1, 0.4), 2)
    110.96
    >>> round(pftk_rate(0.01, 0.1, 0.4, approximate=True), 2)
    112.33
    >>> pftk_rate(0.01, 0.1) == pftk_rate(0.01, 0.1, rto=0.4)      # rto = 4 rtt
    True
    """
    p = np.asarray(check_interval("p", p, 0.0, 1.0, closed="right"), dtype=float)
    rtt = np.asarray(check_positive("rtt", rtt), dtype=float)
    rto = 4.0 * rtt if rto is None else np.asarray(check_positive("rto", rto), dtype=float)
    mss = np.asarray(check_positive("mss", mss), dtype=float)
    b = check_positive("b", b)
    if wmax is None:
        wmax_arr = np.inf
    else:
        wmax_arr = np.asarray(check_positive("wmax", wmax), dtype=float)
    if approximate:
        q = np.minimum(1.0, 3.0 * np.sqrt(3.0 * b * p / 8.0))
        rate = 1.0 / (rtt * np.sqrt(2.0 * b * p / 3.0) + rto * q * p * (1.0 + 32.0 * p**2))
        return _scalar(mss * np.minimum(rate, wmax_arr / rtt))
    with np.errstate(divide="ignore", invalid="ignore"):
        q_ = 1.0 - p
        ew = pftk_window(p, b)
        f = 1.0 + p + 2 * p**2 + 4 * p**3 + 8 * p**4 + 16 * p**5 + 32 * p**6
        limited = ew >= wmax_arr
        w = np.where(limited, wmax_arr, ew)
        qhat = _q_hat(p, w)
        num = q_ / p + w + qhat / q_
        den_open = rtt * (b * w / 2.0 + 1.0)
        den_lim = rtt * (b * w / 8.0 + q_ / (p * w) + 2.0)
        den = np.where(limited, den_lim, den_open) + qhat * f * rto / q_
        rate = num / den
    rate = np.where(p == 1.0, 1.0 / (64.0 * rto), rate)          # limit p -> 1
    return _scalar(mss * rate)


def pftk_window(p: ArrayLike, b: float = 1) -> float | np.ndarray:
    """Unconstrained mean window E[W] of PFTK eq. (13).

    Parameters
    ----------
    p : float or array_like
        Loss indication rate, in (0, 1]. [1]
    b : float, optional
        Packets acknowledged per ACK. [1]

    Returns
    -------
    float or numpy.ndarray
        E[W]. [packets]

    Examples
    --------
    >>> round(pftk_window(0.01), 3)
    17.279
    """
    p = np.asarray(check_interval("p", p, 0.0, 1.0, closed="right"), dtype=float)
    b = check_positive("b", b)
    c = (2.0 + b) / (3.0 * b)
    return _scalar(c + np.sqrt(8.0 * (1.0 - p) / (3.0 * b * p) + c**2))


def tfrc_rate(p: ArrayLike, rtt: ArrayLike, rto: ArrayLike | None = None, mss: ArrayLike = 1.0,
              b: float = 1, *, t_rto: ArrayLike | None = None) -> float | np.ndarray:
    """TFRC throughput equation of RFC 5348 §3.1.

    ``X = s / (R sqrt(2bp/3) + t_RTO (3 sqrt(3bp/8)) p (1 + 32 p^2))``
    with ``t_RTO = rto``, ``4 R`` unless given (RFC 5348's recommended default).
    Unlike PFTK eq. (33), RFC 5348 does not cap ``3 sqrt(3bp/8)`` at 1.
    The arithmetic is :func:`ctlcc.laws.tfrc.tfrc_rate_core`, the same
    function the TFRC sender compiles.

    Parameters
    ----------
    p : float or array_like
        Loss event rate, in (0, 1]. [1]
    rtt : float or array_like
        Round-trip time R, > 0. [s]
    rto : float or array_like, optional
        TCP retransmission timeout t_RTO, > 0; default ``4 * rtt``. [s]
    mss : float or array_like, optional
        Segment size s (1: packets/s). [packets or B]
    b : float, optional
        Packets acknowledged per ACK; RFC 5348 sets b = 1. [1]
    t_rto : float or array_like, optional
        Deprecated name of *rto* (keyword only).

    Returns
    -------
    float or numpy.ndarray
        Allowed transmit rate X. [packets/s or B/s]

    References
    ----------
    RFC 5348 (Floyd, Handley, Padhye, Widmer, 2008), §3.1.

    Examples
    --------
    >>> round(tfrc_rate(0.01, 0.1), 2)
    112.33
    """
    p = np.asarray(check_interval("p", p, 0.0, 1.0, closed="right"), dtype=float)
    rtt = np.asarray(check_positive("rtt", rtt), dtype=float)
    rto_name = "rto"
    if t_rto is not None:
        rto_name = "t_rto"
        if rto is not None:
            raise TypeError("tfrc_rate got both rto and its deprecated name t_rto; pass rto only")
        warnings.warn("tfrc_rate(t_rto=...) is deprecated; use rto=... (as pftk_rate)",
                      DeprecationWarning, stacklevel=2)
        rto = t_rto
    mss = np.asarray(check_positive("mss", mss), dtype=float)
    b = check_positive("b", b)
    t_rto = 4.0 * rtt if rto is None else np.asarray(check_positive(rto_name, rto), dtype=float)
    return _scalar(_tfrc_rate_core(mss, rtt, p, t_rto, b))


def _q_hat(p, w):
    """PFTK's probability that a loss is a timeout, Q-hat(w) (eq. (28))."""
    q = 1.0 - p
    num = (1.0 - q**3) * (1.0 + q**3 * (1.0 - q ** (w - 3.0)))
    den = 1.0 - q**w
    return np.minimum(1.0, num / den)


def _scalar(x):
    x = np.asarray(x)
    return float(x) if x.ndim == 0 else x
