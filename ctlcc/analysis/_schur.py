# ctlcc.analysis._schur - the one stability test shared by every ST-PD loop function
"""Schur-Cohn stability test with its stated tolerance (private).

Kept apart from :mod:`ctlcc.analysis.stability` so that
:mod:`ctlcc.analysis.stpd` (which that module imports) can use it too.
"""

import numpy as np

from .._validation import check_finite
from ..errors import ParameterError

#: Margin of the Schur-Cohn test: a reduction step whose reflection
#: coefficient ``|a_0 / a_n|`` is within this of 1 counts as unstable, so a
#: root on the unit circle up to rounding (kp = 0 leaves one at z = 1;
#: ``stpd_loop(1.5, 0, 1)`` has z = -1) is never called stable. [1]
STABILITY_TOLERANCE = 1e-12


def schur_stable(coefficients):
    """True where every root lies strictly inside the unit circle.

    The Schur-Cohn recursion (equivalent to Jury's table): a polynomial
    p of degree n with leading coefficient a_n and constant a_0 has all
    its roots in the open unit disc iff ``|a_0| < |a_n|`` and the degree
    n - 1 polynomial ``(a_n p(z) - a_0 z**n p(1/z)) / z`` has too.
    Vectorised over all but the last axis.  A reduction step with
    ``|a_0| >= (1 - STABILITY_TOLERANCE) |a_n|`` (tolerance 1e-12) counts as
    unstable, so a root on the unit circle (up to rounding) is never
    reported stable.  This is the one stability test of ctlcc:
    ``StpdLoop.is_stable``, :func:`stability_region`,
    :func:`max_stable_delay` and :func:`gain_margin` all call it.

    Parameters
    ----------
    coefficients : array_like
        Polynomial coefficients, highest power first, on the last axis.

    Returns
    -------
    bool or ndarray of bool

    References
    ----------
    E. I. Jury, *Theory and Application of the z-Transform Method*, 1964;
    A. Cohn, Math. Z. 14 (1922).

    Examples
    --------
    >>> schur_stable([[1, -0.5], [1, -1.0]]).tolist()
    [True, False]
    >>> schur_stable([1, 0.0, 0.25])  # z**2 + 1/4: roots +-0.5j
    True
    """
    array = check_finite("coefficients", coefficients)
    array = np.asarray(array, dtype=float)
    if array.ndim == 0 or array.shape[-1] == 0:
        raise ParameterError(
            f"coefficients must be a non-empty array (highest power first), got {coefficients!r}")
    if np.any(array[..., 0] == 0):
        raise ParameterError("coefficients must have a non-zero leading coefficient, got "
                             f"{array[..., 0][array[..., 0] == 0][:3].tolist()} first")
    return _schur_stable_rows(list(np.moveaxis(array, -1, 0)))


def _schur_stable_rows(poly):
    """Schur-Cohn recursion on a list of coefficient arrays (highest first).

    The coefficients are stacked on a leading axis, so every step is a few
    whole-array operations however many polynomials are tested at once and
    however high their degree (no Python loop over the coefficients: a
    degree-10000 polynomial takes 10000 vector steps).
    """
    poly = np.stack(np.broadcast_arrays(*[np.asarray(c, dtype=float) for c in poly]))
    stable = np.ones(poly.shape[1:], dtype=bool)
    while poly.shape[0] > 1:
        lead, const = poly[0], poly[-1]
        stable &= np.abs(const) < (1.0 - STABILITY_TOLERANCE) * np.abs(lead)
        # (lead p(z) - const z**n p(1/z)) / z: its z**n term vanishes
        reduced = lead * poly[:-1] - const * poly[:0:-1]
        scale = np.abs(reduced[0])
        scale = np.where(scale > 0, scale, 1.0)  # keep the numbers O(1)
        poly = reduced / scale
    return bool(stable) if stable.ndim == 0 else stable


def _polyval_sparse(coefficients, points):
    """Evaluate a polynomial (highest first) using only its nonzero terms."""
    coefficients = np.asarray(coefficients, dtype=float)
    degree = coefficients.size - 1
    index = np.flatnonzero(coefficients)
    powers = degree - index
    points = np.asarray(points)
    return (coefficients[index] * points[..., None] ** powers).sum(axis=-1)
