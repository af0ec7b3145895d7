# ctlcc.bounds.cbraa - CBRAA's ideal TCP Reno cycle (eq. 3) and ideal loss ratio (eq. 4)
"""The ideal TCP Reno cycle and loss ratio of CBRAA (Ait-Hellal, Yamamoto & Leduc (1999), §3.1).

A Reno cycle runs the window from ``Wmax/2`` to ``Wmax`` and carries
``N = (3/8) Wmax (Wmax + 2)`` packets with one loss.  The equivalent rate
``B`` and the packet-weighted average RTT satisfy ``B R̄ = (7/9) Wmax``
(§2), so ``Wmax = (9/7) B R̄`` and, exactly::

    Cycle   = N / B = (243/392) R̄^2 B + (27/28) R̄                    (3)
    Loss_th = 1/(B Cycle) = (392/243) / (B^2 R̄^2 + (14/9) B R̄)       (4)

The paper prints the rounded forms ``0.62 R̄^2 B + 0.96 R̄`` and
``1.61/(B^2 R̄^2 + 1.54 B R̄)``.  0.62, 0.96 and 1.61 are the exact
constants rounded to two decimals (243/392 = 0.6199, 27/28 = 0.9643,
392/243 = 1.6132), but 1.54 is not: the exact constant is 14/9 = 1.5556,
and 1.54 is 0.96/0.62 = 1.548 *truncated*.  ``published=True`` reproduces the
printed forms; the printed eq. (4) then differs from the exact one by
between -0.20 % (``B R̄ -> inf``, from 1.61 vs 392/243) and +0.81 %
(``B R̄ -> 0``, from 1.61/1.54 vs 28/27); see ``tests/bounds/test_cbraa.py``.
"""

from fractions import Fraction

import numpy as np

from .._validation import check_positive
from ..laws.cbraa import cycle_core as _cycle_core

__all__ = ["CYCLE_COEFFICIENTS", "LOSS_TH_COEFFICIENTS", "wmax", "cycle", "loss_th"]

#: (a, b) of ``Cycle = a R̄^2 B + b R̄``: exact fractions and as printed in eq. (3).
CYCLE_COEFFICIENTS = {
    "exact": (Fraction(243, 392), Fraction(27, 28)),
    "published": (0.62, 0.96),
}
#: (c, d) of ``Loss_th = c/(B^2 R̄^2 + d B R̄)``: exact and as printed in eq. (4).
LOSS_TH_COEFFICIENTS = {
    "exact": (Fraction(392, 243), Fraction(14, 9)),
    "published": (1.61, 1.54),
}


def wmax(rate, srtt):
    """Maximum window of the equivalent Reno cycle, ``(9/7) B R̄``.

    Parameters
    ----------
    rate : float or array_like
        Sending rate B, > 0. [packets/s]
    srtt : float or array_like
        Average (smoothed) round-trip time R̄, > 0. [s]

    Returns
    -------
    float or numpy.ndarray
        Wmax. [packets]

    References
    ----------
    Ait-Hellal, Yamamoto & Leduc (1999), §2 (W̄ = R̄ B ≈ (7/9) Wmax).

    Examples
    --------
    >>> wmax(70.0, 0.1)
    9.0
    """
    rate = check_positive("rate", rate)
    srtt = check_positive("srtt", srtt)
    return 9.0 / 7.0 * rate * srtt


def cycle(rate, srtt, published=False):
    """Duration of an ideal TCP Reno cycle, eq. (3).

    Parameters
    ----------
    rate : float or array_like
        Sending rate B, > 0. [packets/s]
    srtt : float or array_like
        Average round-trip time R̄, > 0. [s]
    published : bool, optional
        False: exact ``(243/392) R̄^2 B + (27/28) R̄``; True: the printed
        ``0.62 R̄^2 B + 0.96 R̄`` (also Figure 1's pseudo-code).

    Returns
    -------
    float or numpy.ndarray
        Cycle. [s]

    References
    ----------
    Ait-Hellal, Yamamoto & Leduc (1999), §3.1, eq. (3); Figure 1.

    Examples
    --------
    >>> round(cycle(70.0, 0.1), 6)    # Wmax = 9: (3/8) 9 (9 + 2) / 70
    0.530357
    >>> round(cycle(70.0, 0.1, published=True), 6)
    0.53
    """
    rate = check_positive("rate", rate)
    srtt = check_positive("srtt", srtt)
    a, b = (float(c) for c in CYCLE_COEFFICIENTS["published" if published else "exact"])
    return _cycle_core(rate, srtt, a, b)


def loss_th(rate, srtt, published=False):
    """Loss ratio of an ideal TCP Reno at rate B, eq. (4).

    Parameters
    ----------
    rate : float or array_like
        Sending rate B, > 0. [packets/s]
    srtt : float or array_like
        Average round-trip time R̄, > 0. [s]
    published : bool, optional
        False: exact ``1/(B Cycle)``; True: the printed
        ``1.61/(B^2 R̄^2 + 1.54 B R̄)``.  (Figure 1's pseudo-code instead
        computes ``1/(Rate Cycle)`` with the printed Cycle: use
        ``1 / (rate * cycle(rate, srtt, published=True))`` for that.)

    Returns
    -------
    float or numpy.ndarray
        Loss_th. [1]

    References
    ----------
    Ait-Hellal, Yamamoto & Leduc (1999), §3.1, eq. (4).

    Examples
    --------
    >>> round(loss_th(70.0, 0.1), 6)   # 1/N with N = (3/8) 9 (9 + 2)
    0.026936
    >>> round(loss_th(70.0, 0.1, published=True), 6)
    0.026932
    """
    rate = check_positive("rate", rate)
    srtt = check_positive("srtt", srtt)
    c, d = (float(k) for k in LOSS_TH_COEFFICIENTS["published" if published else "exact"])
    x = np.multiply(rate, srtt)
    out = c / (x * x + d * x)
    return float(out) if np.ndim(out) == 0 else out
