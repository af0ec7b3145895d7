# ctlcc.analysis.stability - stability maps, delay limits, Jury conditions and gain margins
"""Stability of ST-PD's closed loop over gains and delays.

Everything here works on the characteristic polynomial that
:mod:`ctlcc.analysis.stpd` derives from the law, so both loop models
(``"per_slot"``, ``"per_rtt"``) are covered:

* :func:`stability_region` - the (kp, kd) stability map, by a vectorised
  Schur-Cohn (Jury) recursion on the coefficients;
* :func:`max_stable_delay` - the largest m stable for every delay 1..m;
* :func:`jury_conditions` - the Jury conditions as sympy inequalities;
* :func:`gain_margin` - the largest factor K by which both gains can be
  scaled, by the unit-circle crossing of the root locus or by bisection.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
import scipy.optimize
import sympy as sp

from .._validation import check_choice, check_positive, check_positive_int
from ..errors import ParameterError
from . import stpd as _stpd

__all__ = [
    "schur_stable",
    "stability_region",
    "max_stable_delay",
    "jury_conditions",
    "gain_margin",
    "GAIN_MARGIN_METHODS",
]

#: Methods of :func:`gain_margin`.
GAIN_MARGIN_METHODS = ("crossing", "bisection")

# Schur-Cohn margin: a reflection coefficient within this of 1 (a root on the
# unit circle up to rounding, e.g. kp = 0 leaves one at z = 1) counts as unstable.
_ROUNDING = 1e-12
# Points per half unit circle of the phase-crossover scan in gain_margin.
_CROSSING_GRID = 4096
# Bisection starts from the largest stable K in 1, 1/2, 1/4, ... down to this;
# below it the eigenvalues of the near-double root at z = 1 are too inexact.
_SMALLEST_BISECTION_FACTOR = 2.0**-12
# Gain factors above this are reported as an infinite margin.
_MAX_GAIN_FACTOR = 1e6


def schur_stable(coefficients):
    """True where every root lies strictly inside the unit circle.

    The Schur-Cohn recursion (equivalent to Jury's table): a polynomial
    p of degree n with leading coefficient a_n and constant a_0 has all
    its roots in the open unit disc iff ``|a_0| < |a_n|`` and the degree
    n - 1 polynomial ``(a_n p(z) - a_0 z**n p(1/z)) / z`` has too.
    Vectorised over all but the last axis.  A reduction step with
    ``|a_0| >= (1 - 1e-12) |a_n|`` counts as unstable, so a root on the
    unit circle (up to rounding) is never reported stable.

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
    array = np.asarray(coefficients, dtype=float)
    return _schur_stable_rows(list(np.moveaxis(array, -1, 0)))


def stability_region(m: int, kp: ArrayLike, kd: ArrayLike, model: str = "per_slot") -> np.ndarray:
    """Boolean stability map of the loop over a grid of gains.

    Parameters
    ----------
    m : int
        Round trip. [slots]
    kp, kd : array_like
        1-D arrays of gains, >= 0. [1]
    model : {"per_slot", "per_rtt"}, optional

    Returns
    -------
    ndarray of bool
        Shape ``(len(kp), len(kd))``; entry [i, j] is True when every pole
        of the loop with (kp[i], kd[j]) lies strictly inside the unit circle.

    References
    ----------
    Xu (2002), eq. (4.11) (its denominator).

    Examples
    --------
    >>> stability_region(3, [0.033, 0.368], [0.033, 0.368]).tolist()
    [[False, True], [False, False]]
    """
    kp = _as_vector("kp", kp)
    kd = _as_vector("kd", kd)
    rows = _stpd._coefficient_rows(kp[:, None], kd[None, :], m, model)
    return _schur_stable_rows(rows)


def max_stable_delay(kp: ArrayLike, kd: ArrayLike, model: str = "per_slot",
                     m_max: int = 256) -> int | np.ndarray:
    """Largest m such that the loop is stable for every delay 1..m.

    Parameters
    ----------
    kp, kd : float or array_like
        Gains, broadcast against each other, >= 0. [1]
    model : {"per_slot", "per_rtt"}, optional
    m_max : int, optional
        Search cap. [slots] The delays 1..m_max are tested one by one
        (vectorised over the gains, stopping once every gain pair has
        failed); a result equal to *m_max* means "stable for at least every
        delay up to m_max".  The per-RTT loop does not depend on m, so there
        the answer is 0 or m_max.

    Returns
    -------
    int or ndarray of int
        0 if the loop is already unstable for m = 1.

    Examples
    --------
    >>> int(max_stable_delay(0.033, 0.368)), int(max_stable_delay(0.368, 0.033))
    (3, 1)
    """
    m_max = check_positive_int("m_max", m_max)
    kp = np.asarray(_stpd._check_gain("kp", kp), dtype=float)
    kd = np.asarray(_stpd._check_gain("kd", kd), dtype=float)
    check_choice("model", model, _stpd.MODELS)
    shape = np.broadcast_shapes(kp.shape, kd.shape)
    kp, kd = np.broadcast_to(kp, shape), np.broadcast_to(kd, shape)
    result = np.zeros(shape, dtype=int)
    alive = np.ones(shape, dtype=bool)
    for m in range(1, m_max + 1):
        if not alive.any():
            break
        stable = schur_stable(_stpd.characteristic_coefficients(kp[alive], kd[alive], m, model))
        index = np.flatnonzero(alive.ravel())
        alive.ravel()[index[~stable]] = False
        result.ravel()[index[stable]] = m
        if model == "per_rtt":
            result[alive] = m_max
            break
    return int(result) if result.ndim == 0 else result


def jury_conditions(m, model="per_slot"):
    """Jury's stability conditions as sympy inequalities in kp, kd.

    For the characteristic polynomial P(z) = a_n z**n + ... + a_0 derived
    by :mod:`ctlcc.analysis.stpd` (a_n = 1): ``P(1) > 0``,
    ``(-1)**n P(-1) > 0``, ``|a_0| < a_n`` and, for each reduced row of
    Jury's table, ``|first| > |last|``.  All hold iff every pole lies
    strictly inside the unit circle.

    Parameters
    ----------
    m : int
        Round trip. [slots] Symbolic rows grow fast; meant for m <= 4.
    model : {"per_slot", "per_rtt"}, optional

    Returns
    -------
    list of sympy.core.relational.Relational
        In the symbols ``k_p``, ``k_d`` of :mod:`ctlcc.analysis.stpd`.

    References
    ----------
    E. I. Jury, *Theory and Application of the z-Transform Method*, 1964,
    §3.6 (the stability table).

    Examples
    --------
    >>> for condition in jury_conditions(1):
    ...     print(condition)
    k_p > 0
    -2*k_d - k_p + 4 > 0
    Abs(k_d - 1) < 1
    """
    m = check_positive_int("m", m)
    check_choice("model", model, _stpd.MODELS)
    z = _stpd.z
    poly = sp.Poly(_stpd._derive(m, model).characteristic, z)
    degree = poly.degree()
    coefficients = poly.all_coeffs()  # highest first
    conditions = [
        sp.factor(poly.eval(1)) > 0,
        sp.factor((-1) ** degree * poly.eval(-1)) > 0,
        sp.Abs(sp.factor(coefficients[-1])) < sp.Abs(coefficients[0]),
    ]
    row = coefficients[::-1]  # ascending: a_0 .. a_n
    while len(row) > 3:
        first, last = row[0], row[-1]
        # b_k = a_0 a_k - a_n a_{n-k}, k = 0 .. n-1 (Jury's table)
        row = [sp.expand(first * row[k] - last * row[len(row) - 1 - k])
               for k in range(len(row) - 1)]
        conditions.append(sp.Abs(sp.factor(row[0])) > sp.Abs(sp.factor(row[-1])))
    return [condition for condition in conditions if condition is not sp.true]


def gain_margin(kp: float, kd: float, m: int, model: str = "per_slot",
                method: str = "crossing") -> float:
    """Largest factor K by which both gains can be scaled and stay stable.

    The loop with gains (K kp, K kd) has the characteristic polynomial
    ``P0(z) + K N(z)`` (both gains enter linearly; P0 is the loop with no
    control, a double pole at z = 1 per slot).  The margin is
    ``sup{K > 0 : stable for every K' in (0, K]}``, 0 if the loop is
    unstable for arbitrarily small K, ``inf`` if no K up to 1e6 destabilises
    it.  A nominal loop (K = 1) is stable iff its margin exceeds 1.

    Parameters
    ----------
    kp, kd : float
        Gains, >= 0, not both 0. [1]
    m : int
        Round trip. [slots]
    model : {"per_slot", "per_rtt"}, optional
    method : {"crossing", "bisection"}, optional
        ``"crossing"``: root-locus crossings of the unit circle,
        ``K = -P0(e^{jw}) / N(e^{jw})`` real and positive, found by a sign
        scan of its imaginary part on w in (0, pi] refined with Brent's
        method (z = 1, the integrator, is excluded from the scan and
        handled by one stability test inside the first interval).
        ``"bisection"``: bisection on K of ``spectral_radius < 1``
        (batched eigenvalues), from the largest stable K in 1, 1/2, 1/4,
        ... down to 2**-12 (a margin below that is reported as 0: near
        z = 1 the double root's eigenvalues are too inexact to decide).

    Returns
    -------
    float
        The margin K*. [1]

    Examples
    --------
    >>> round(gain_margin(0.033, 0.368, 3), 4), round(gain_margin(0.033, 0.368, 3, method="bisection"), 4)
    (1.4474, 1.4474)
    """
    kp = float(_stpd._check_gain("kp", kp))
    kd = float(_stpd._check_gain("kd", kd))
    if kp == 0 and kd == 0:
        raise ParameterError("kp and kd must not both be 0 (nothing to scale)")
    m = check_positive_int("m", m)
    check_choice("model", model, _stpd.MODELS)
    check_choice("method", method, GAIN_MARGIN_METHODS)
    if method == "bisection":
        return _margin_by_bisection(kp, kd, m, model)
    return _margin_by_crossing(kp, kd, m, model)


# -- private helpers ------------------------------------------------------


def _as_vector(name, values):
    array = np.atleast_1d(np.asarray(_stpd._check_gain(name, values), dtype=float))
    if array.ndim != 1:
        raise ParameterError(f"{name} must be a 1-D array of gains, got shape {array.shape}")
    return array


def _schur_stable_rows(poly):
    """Schur-Cohn recursion on a list of coefficient arrays (highest first).

    Each coefficient is its own contiguous array, so every step is a few
    whole-array operations however many polynomials are tested at once.
    """
    stable = np.ones(np.shape(poly[0]), dtype=bool)
    while len(poly) > 1:
        lead, const = poly[0], poly[-1]
        stable &= np.abs(const) < (1.0 - _ROUNDING) * np.abs(lead)
        degree = len(poly) - 1
        # (lead p(z) - const z**n p(1/z)) / z: its z**n term vanishes
        reduced = [lead * poly[k] - const * poly[degree - k] for k in range(degree)]
        scale = np.abs(reduced[0])
        scale = np.where(scale > 0, scale, 1.0)  # keep the numbers O(1)
        poly = [row / scale for row in reduced]
    return bool(stable) if stable.ndim == 0 else stable


def _stable_at(kp, kd, m, model, factor):
    return schur_stable(_stpd.characteristic_coefficients(factor * kp, factor * kd, m, model))


def _open_loop_polynomials(kp, kd, m, model):
    """P0 (no control) and N (the part proportional to the gains), highest first."""
    base = _stpd.characteristic_coefficients(0.0, 0.0, m, model)
    full = _stpd.characteristic_coefficients(kp, kd, m, model)
    return base, full - base


def _margin_by_crossing(kp, kd, m, model):
    base, gain_part = _open_loop_polynomials(kp, kd, m, model)

    def crossing_gain(w):
        point = np.exp(1j * np.asarray(w, dtype=float))
        return -_polyval_sparse(base, point) / _polyval_sparse(gain_part, point)

    grid = np.linspace(0.0, np.pi, _CROSSING_GRID + 1)[1:]
    with np.errstate(divide="ignore", invalid="ignore"):
        imaginary = crossing_gain(grid).imag
    candidates = [crossing_gain(np.pi).real]  # z = -1: always a real K
    signs = np.sign(imaginary)
    for i in np.flatnonzero(signs[:-1] * signs[1:] < 0):
        if not (np.isfinite(imaginary[i]) and np.isfinite(imaginary[i + 1])):
            continue
        w = scipy.optimize.brentq(lambda x: crossing_gain(x).imag, grid[i], grid[i + 1],
                                  xtol=1e-14)
        candidates.append(crossing_gain(w).real)
    candidates += [crossing_gain(w).real for w in grid[imaginary == 0]]
    positive = sorted(k for k in candidates if np.isfinite(k) and k > 0)
    first = positive[0] if positive else np.inf
    # No crossing in (0, first): the loop is stable there or nowhere.
    probe = first / 2 if np.isfinite(first) else 1.0
    if not _stable_at(kp, kd, m, model, probe):
        return 0.0
    return float(first) if first <= _MAX_GAIN_FACTOR else np.inf


def _margin_by_bisection(kp, kd, m, model):
    def stable(factor):
        return _stpd.spectral_radius(factor * kp, factor * kd, m, model) < 1.0

    low = 1.0
    while not stable(low):
        low /= 2
        if low < _SMALLEST_BISECTION_FACTOR:
            return 0.0
    high = 2 * low
    while stable(high):
        low, high = high, 2 * high
        if high > _MAX_GAIN_FACTOR:
            return np.inf
    while high - low > 1e-12 * high:
        middle = 0.5 * (low + high)
        if stable(middle):
            low = middle
        else:
            high = middle
    return 0.5 * (low + high)


def _polyval_sparse(coefficients, points):
    """Evaluate a polynomial (highest first) using only its nonzero terms."""
    coefficients = np.asarray(coefficients, dtype=float)
    degree = coefficients.size - 1
    index = np.flatnonzero(coefficients)
    powers = degree - index
    points = np.asarray(points)
    return (coefficients[index] * points[..., None] ** powers).sum(axis=-1)
