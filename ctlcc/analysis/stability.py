# ctlcc.analysis.stability - stability maps, delay limits, Jury conditions and gain margins
"""Stability of a law's closed loop over gains and delays.

Everything here works on the characteristic polynomial that
:func:`ctlcc.closed_loop` derives from the law, so both loop models
(``"per_slot"``, ``"per_rtt"``) and every law are covered.  Without
``law=`` the functions take ST-PD's PD gains ``(kp, kd)`` (their original
calls); with ``law=`` (a :class:`ctlcc.WindowLaw` or
:class:`ctlcc.RateLaw`) any law:

* :func:`stability_region` - the stability map over two gains, by a
  vectorised Schur-Cohn (Jury) recursion on the coefficients;
* :func:`max_stable_delay` - the largest m stable for every delay 1..m;
* :func:`jury_conditions` - the Jury conditions as sympy inequalities;
* :func:`gain_margin` - the largest factor K by which the loop gain can be
  scaled (both PD gains), by the unit-circle crossing of the root locus or
  by bisection.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
import sympy as sp

from .._validation import check_choice, check_positive_int
from ..errors import ParameterError
from ..laws.user import RateLaw, WindowLaw, pd_law
from . import loops as _loops
from . import stpd as _stpd
from ._schur import STABILITY_TOLERANCE, _schur_stable_rows, schur_stable

__all__ = [
    "schur_stable",
    "stability_region",
    "max_stable_delay",
    "jury_conditions",
    "gain_margin",
    "GAIN_MARGIN_METHODS",
    "STABILITY_TOLERANCE",
]

#: Methods of :func:`gain_margin`.
GAIN_MARGIN_METHODS = ("crossing", "bisection")

# Largest m of the symbolic Jury table (its rows grow combinatorially).
_MAX_JURY_M = 8
# Points per half unit circle of the phase-crossover scan in gain_margin.
_CROSSING_GRID = 4096
# Bisection starts from the largest stable K in 1, 1/2, 1/4, ... down to this;
# below it the eigenvalues of the near-double root at z = 1 are too inexact.
_SMALLEST_BISECTION_FACTOR = 2.0**-12
# Gain factors above this are reported as an infinite margin.
_MAX_GAIN_FACTOR = 1e6


def stability_region(m: int, kp: ArrayLike = None, kd: ArrayLike = None,
                     model: str = "per_slot", *, law=None, **gains) -> np.ndarray:
    """Boolean stability map of the loop over a grid of two gains.

    Parameters
    ----------
    m : int
        Round trip. [slots]
    kp, kd : array_like
        1-D arrays of ST-PD's PD gains, >= 0 (without *law*). [1]
    model : {"per_slot", "per_rtt"}, optional
    law : WindowLaw or RateLaw, optional
        Any law; then give exactly two of its gains as 1-D arrays
        (``kp=..., ki=...``), the others stay as in the law; rows follow
        the gain that comes first in the law's signature.
    **gains
        With *law*: the second (and first) gain grid, by name. [1]

    Returns
    -------
    ndarray of bool
        Shape ``(len(first), len(second))``; entry [i, j] is True when every
        pole of the loop lies strictly inside the unit circle (for a law
        :meth:`ctlcc.analysis.loops.ClosedLoop.stability_region`, whose
        result object also says where a linearised law has no fixed point).

    References
    ----------
    Xu (2002), eq. (4.11) (its denominator).

    Examples
    --------
    >>> stability_region(3, [0.033, 0.368], [0.033, 0.368]).tolist()
    [[False, True], [False, False]]
    >>> from ctlcc import WindowLaw
    >>> def pi(window, error, memory, kp, ki):
    ...     return window + kp * (error - memory[0]) + ki * error, (error,)
    >>> law = WindowLaw(pi, memory=1, gains=dict(kp=0.1, ki=0.01))
    >>> stability_region(3, law=law, kp=[0.1, 0.5], ki=[0.01, 0.2]).tolist()
    [[True, False], [True, False]]
    """
    if isinstance(m, (WindowLaw, RateLaw)):
        raise ParameterError(f"pass the law by keyword, stability_region(m, law=..., "
                             f"gain=grid, ...); got a {type(m).__name__} as m")
    if law is not None:
        law = _check_law(law)
        grids = dict(gains)
        for name, value in (("kp", kp), ("kd", kd)):
            if value is not None:
                grids[name] = value
        order = list(law.gains)
        grids = dict(sorted(grids.items(), key=lambda item: (
            order.index(item[0]) if item[0] in order else len(order), item[0])))
        return _loops.closed_loop(law, m, model=model).stability_region(**grids).stable
    if gains:
        raise ParameterError(f"gains by name need law=...; ST-PD's map takes kp, kd (got "
                             f"{', '.join(gains)})")
    kp = _as_vector("kp", kp)
    kd = _as_vector("kd", kd)
    rows = _stpd._coefficient_rows(kp[:, None], kd[None, :], m, model)
    return _schur_stable_rows(rows)


def max_stable_delay(kp: ArrayLike = None, kd: ArrayLike = None, model: str = "per_slot",
                     m_max: int = 256, *, law=None) -> int | np.ndarray:
    """Largest m such that the loop is stable for every delay 1..m.

    Parameters
    ----------
    kp, kd : float or array_like
        ST-PD's gains, broadcast against each other, >= 0 (without *law*). [1]
    model : {"per_slot", "per_rtt"}, optional
    m_max : int, optional
        Search cap. [slots] The delays 1..m_max are tested one by one
        (vectorised over the gains, stopping once every gain pair has
        failed); a result equal to *m_max* means "stable for at least every
        delay up to m_max".  The per-RTT loop does not depend on m, so there
        the answer is 0 or m_max.
    law : WindowLaw, optional
        Any window law instead of the PD gains (its own gains).

    Returns
    -------
    int or ndarray of int
        0 if the loop is already unstable for m = 1.

    References
    ----------
    Xu (2002), eq. (4.11); E. I. Jury, *Theory and Application of the
    z-Transform Method*, 1964.

    Examples
    --------
    >>> int(max_stable_delay(0.033, 0.368)), int(max_stable_delay(0.368, 0.033))
    (3, 1)
    >>> from ctlcc.laws.user import pd_law
    >>> max_stable_delay(law=pd_law(0.033, 0.368))
    3
    """
    m_max = check_positive_int("m_max", m_max, maximum=_stpd.MAX_SLOTS)
    check_choice("model", model, _stpd.MODELS)
    if law is not None:
        law = _check_law(law, window_only=True)
        if kp is not None or kd is not None:
            raise ParameterError(f"give either law= or the PD gains kp, kd, not both (got "
                                 f"kp={kp!r}, kd={kd!r} with law={law!r})")
        stable_up_to = 0
        for m in range(1, m_max + 1):
            loop = _loops.closed_loop(law, m, model=model)
            if not loop.is_stable():
                break
            stable_up_to = m
            if model == "per_rtt" and not loop.linearised:
                return m_max   # an affine law's per-RTT loop does not depend on m
        return stable_up_to
    if kp is None or kd is None:
        raise ParameterError(f"max_stable_delay needs kp and kd (or law=); got kp={kp!r}, "
                             f"kd={kd!r}")
    kp = np.asarray(_stpd._check_gain("kp", kp), dtype=float)
    kd = np.asarray(_stpd._check_gain("kd", kd), dtype=float)
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


def jury_conditions(m, model="per_slot", *, law=None):
    """Jury's stability conditions as sympy inequalities in the gains.

    For the characteristic polynomial P(z) = a_n z**n + ... + a_0 derived
    by :func:`ctlcc.closed_loop` (a_n = 1): ``P(1) > 0``,
    ``(-1)**n P(-1) > 0``, ``|a_0| < a_n`` and, for each reduced row of
    Jury's table, ``|first| > |last|``.  All hold iff every pole lies
    strictly inside the unit circle.

    Parameters
    ----------
    m : int
        Round trip. [slots] Symbolic rows grow fast; meant for m <= 4.
    model : {"per_slot", "per_rtt"}, optional
    law : WindowLaw or RateLaw, optional
        An affine law (its loop is exact in its gains); default ST-PD's PD.

    Returns
    -------
    list of sympy.core.relational.Relational
        In the symbols ``k_p``, ``k_d`` of :mod:`ctlcc.analysis.stpd` (PD),
        or the law's gain symbols ``sympy.Symbol(name, real=True)``.

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
    m = check_positive_int("m", m, maximum=_MAX_JURY_M)
    check_choice("model", model, _stpd.MODELS)
    z = _stpd.z
    if law is None:
        characteristic = _stpd._derive(m, model).characteristic
    else:
        loop = _loops.closed_loop(_check_law(law), m, model=model)
        if loop.linearised:
            raise ParameterError(f"jury_conditions needs a law that is affine in its signals "
                                 f"(its loop exact in the gains); {law.name!r} is linearised "
                                 f"at a fixed point that moves with the gains (got law={law!r})")
        characteristic = loop.symbolic(numeric=False).characteristic
    poly = sp.Poly(characteristic, z)
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


def gain_margin(kp: float = None, kd: float = None, m: int = None, model: str = "per_slot",
                method: str = "crossing", *, law=None) -> float:
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
        Gains, >= 0, not both 0 (without *law*). [1]
    m : int
        Round trip. [slots]
    model : {"per_slot", "per_rtt"}, optional
    law : WindowLaw or RateLaw, optional
        Any law: the margin of its loop gain L(z)
        (:meth:`ctlcc.analysis.loops.ClosedLoop.gain_margin`).
    method : {"crossing", "bisection"}, optional
        ``"crossing"``: root-locus crossings of the unit circle,
        ``K = -P0(e^{jw}) / N(e^{jw})`` real and positive, found by a sign
        scan of its imaginary part on w in (0, pi] refined with Brent's
        method (z = 1, the integrator, is excluded from the scan and
        handled by one stability test inside the first interval).
        ``"bisection"``: bisection on K of :func:`schur_stable`, from the
        largest stable K in 1, 1/2, 1/4, ... down to 2**-12 (a margin below
        that is reported as 0: near z = 1 the double root is too inexact to
        decide).  Both are :func:`ctlcc.analysis.loops.margin_by_crossing`
        and :func:`~ctlcc.analysis.loops.margin_by_bisection` on the loop
        :func:`ctlcc.closed_loop` derives.

    Returns
    -------
    float
        The margin K*. [1]

    References
    ----------
    E. I. Jury, *Theory and Application of the z-Transform Method*, 1964.

    Examples
    --------
    >>> round(gain_margin(0.033, 0.368, 3), 4), round(gain_margin(0.033, 0.368, 3, method="bisection"), 4)
    (1.4474, 1.4474)
    >>> from ctlcc.laws.user import pd_law
    >>> round(gain_margin(m=3, law=pd_law(0.033, 0.368)), 4)
    1.4474
    """
    check_choice("method", method, GAIN_MARGIN_METHODS)
    if law is not None:
        if kp is not None or kd is not None:
            raise ParameterError(f"give either law= or the PD gains kp, kd, not both (got "
                                 f"kp={kp!r}, kd={kd!r})")
        m = check_positive_int("m", m, maximum=_stpd.MAX_SLOTS)
        return _loops.closed_loop(_check_law(law), m, model=model).gain_margin(method)
    kp = float(_stpd._check_gain("kp", kp, scalar=True))
    kd = float(_stpd._check_gain("kd", kd, scalar=True))
    if kp == 0 and kd == 0:
        raise ParameterError(f"kp and kd must not both be 0 (nothing to scale); got kp={kp}, kd={kd}")
    m = check_positive_int("m", m, maximum=_stpd.MAX_SLOTS)
    check_choice("model", model, _stpd.MODELS)
    # the PD loop through the public path: L(z) is proportional to (kp, kd)
    return _loops.closed_loop(pd_law(kp, kd), m, model=model).gain_margin(method)


# -- private helpers ------------------------------------------------------


def _check_law(law, window_only=False):
    allowed = (WindowLaw,) if window_only else (WindowLaw, RateLaw)
    if not isinstance(law, allowed):
        names = " or ".join(c.__name__ for c in allowed)
        raise ParameterError(f"law must be a {names}, got {type(law).__name__} {law!r}")
    return law


def _as_vector(name, values):
    array = np.atleast_1d(np.asarray(_stpd._check_gain(name, values), dtype=float))
    if array.ndim != 1 or array.size == 0:
        raise ParameterError(
            f"{name} must be a non-empty 1-D array of gains, got shape {array.shape}")
    return array

