# ctlcc.bounds.mathis - the square-root law B = C / (R sqrt(p)) and its constants
"""The Mathis "square-root" throughput law and its three constants.

``B = C * mss / (R * sqrt(p))`` (Ait-Hellal, Yamamoto & Leduc (1999), eq. (1)) with the
constant *C* taken from one of three cycle models:

``"floyd"``
    ``sqrt(3/2) ≈ 1.2247`` (printed 1.22): the deterministic sawtooth of
    Mahdavi and Floyd (1997), every packet ACKed, the window growing from
    ``W/2`` to ``W`` by one packet per round trip and one loss per cycle.
``"mathis"``
    ``1.30``: only *quoted* -- Ait-Hellal, Yamamoto & Leduc (1999), §2 attributes it to Mathis, Semke,
    Mahdavi and Ott (1997) [its ref. 10]; it is not derived from a cycle
    model here (nor by Ait-Hellal et al.), so ctlcc reproduces it as a published number.
``"cbraa"``
    ``(7/9) * sqrt(8/3) ≈ 1.2701`` (Ait-Hellal, Yamamoto & Leduc (1999), eq. (2)): the same sawtooth, but the
    rate is referred to the *packet-weighted* average round-trip time over
    a cycle, ``R̄ ≈ (7/9) W / B``, instead of the window-weighted one.

The derivations are redone in sympy in ``tests/bounds/test_mathis.py``.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from numpy.typing import ArrayLike

from .._validation import check_choice, check_interval, check_positive

__all__ = ["MATHIS_CONSTANTS", "VALIDITY_LIMIT", "MathisValidityWarning",
           "mathis_constant", "mathis_rate"]

#: Exact value of each model's constant (``"mathis"`` is the quoted 1.30).
MATHIS_CONSTANTS = {
    "floyd": math.sqrt(3.0 / 2.0),
    "mathis": 1.30,
    "cbraa": (7.0 / 9.0) * math.sqrt(8.0 / 3.0),
}

#: Largest loss rate for which Ait-Hellal, Yamamoto & Leduc (1999), §2 (after Mahdavi-Floyd) says eq. (1) applies.
VALIDITY_LIMIT = 0.16


class MathisValidityWarning(UserWarning):
    """Loss rate beyond the square-root law's stated range (p > 0.16)."""


def mathis_constant(model: str = "floyd") -> float:
    """Constant C of the square-root law for one cycle model.

    Parameters
    ----------
    model : {"floyd", "mathis", "cbraa"}, optional
        ``"floyd"`` (default): sqrt(3/2), the textbook constant of the
        deterministic sawtooth (Mahdavi-Floyd); ``"mathis"``: the
        quoted 1.30; ``"cbraa"``: (7/9) sqrt(8/3) (Ait-Hellal, Yamamoto & Leduc (1999), eq. (2)).

    Returns
    -------
    float
        C. [1]

    References
    ----------
    Ait-Hellal, Yamamoto & Leduc (1999), §2, eqs. (1)-(2); J. Mahdavi, S. Floyd, "TCP-friendly
    unicast rate-based flow control", 1997; M. Mathis et al., "The
    macroscopic behavior of the TCP congestion avoidance algorithm",
    CCR 27(3), 1997.

    Examples
    --------
    >>> round(mathis_constant("floyd"), 4), mathis_constant("mathis")
    (1.2247, 1.3)
    >>> round(mathis_constant("cbraa"), 4)
    1.2701
    """
    check_choice("model", model, tuple(MATHIS_CONSTANTS))
    return MATHIS_CONSTANTS[model]


def mathis_rate(p: ArrayLike, rtt: ArrayLike, mss: ArrayLike = 1.0,
                C: float | str | None = None) -> float | np.ndarray:
    """Square-root-law rate ``C * mss / (rtt * sqrt(p))``.

    Parameters
    ----------
    p : float or array_like
        Loss event rate, in (0, 1]. [1]
    rtt : float or array_like
        Average round-trip time, > 0. [s]
    mss : float or array_like, optional
        Segment size: 1 gives packets/s, bytes give bytes/s. [packets or B]
    C : float or {"floyd", "mathis", "cbraa"}, optional
        The constant, or a model name for :func:`mathis_constant`
        (default ``"floyd"``: the textbook sqrt(3/2); CBRAA's own constant
        is ``C="cbraa"``).

    Returns
    -------
    float or numpy.ndarray
        Rate, broadcast over the inputs. [packets/s or B/s]

    Warns
    -----
    MathisValidityWarning
        If any ``p > 0.16``: Ait-Hellal, Yamamoto & Leduc (1999), §2 (after Mahdavi-Floyd) states the law does
        not apply there.  The value is still returned.

    References
    ----------
    Ait-Hellal, Yamamoto & Leduc (1999), §2, eq. (1) and eq. (2).

    Examples
    --------
    >>> round(mathis_rate(0.01, 0.1), 3)               # C = sqrt(3/2)
    122.474
    >>> mathis_rate([0.01, 0.04], 0.1, C=1.0)
    array([100.,  50.])
    """
    p = check_interval("p", p, 0.0, 1.0, closed="right")
    rtt = check_positive("rtt", rtt)
    mss = check_positive("mss", mss)
    if C is None or isinstance(C, str):
        C = mathis_constant("floyd" if C is None else C)
    else:
        C = check_positive("C", C)
    if np.any(np.asarray(p) > VALIDITY_LIMIT):
        warnings.warn(
            f"p > {VALIDITY_LIMIT}: the square-root law (Ait-Hellal, Yamamoto & Leduc (1999), eq. (1)) is stated "
            "valid only for p <= 0.16; use pftk_rate or tfrc_rate there",
            MathisValidityWarning, stacklevel=2)
    return _out(C * mss / (rtt * np.sqrt(p)))


def _out(x):
    """Python float for 0-d results, the array otherwise."""
    x = np.asarray(x)
    return float(x) if x.ndim == 0 else x
