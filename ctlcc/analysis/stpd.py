# ctlcc.analysis.stpd - ST-PD's z-domain closed loop around the bottleneck queue
"""ST-PD TCP's closed loop in the z-domain, derived from its law.

The loop of thesis 002_bd014ea59e1383a2 §4.3.2 is three equations, each
taken from the package rather than typed in:

* the control error (4.2), :func:`ctlcc.laws.stpd.control_error`;
* the PD update (4.1) with the error seen m slots late,
  :func:`ctlcc.laws.stpd.pd_update` applied to ``z**-m * E``;
* the linearised queue (4.6), :func:`ctlcc.analysis.plant.queue_step_linear`.

Replacing each one-slot delay by ``z**-1`` and solving the three linear
equations with sympy gives the closed-loop transfer functions (4.9)-(4.11)::

    A(z)/R(z) = z**-m (kp + kd (1 - z**-1)) (1 - z**-1)
                / ((1 - z**-1)**2 + z**-m (kp + kd (1 - z**-1)))

whose characteristic polynomial is
``z**(m-1) (z - 1)**2 + (kp + kd) z - kd`` (degree m + 1).
"""

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import sympy as sp

from .._validation import check_choice, check_nonnegative, check_positive_int, check_finite
from ..errors import UnstableLoopError
from ..laws import stpd as _law
from . import plant as _plant

__all__ = ["StpdLoop", "StpdSymbolic", "stpd_loop", "MODELS"]

#: Loop models :func:`stpd_loop` can build.
MODELS = ("per_slot",)

z = sp.Symbol("z")
kp_symbol, kd_symbol = sp.symbols("k_p k_d", nonnegative=True)


@dataclass(frozen=True)
class StpdSymbolic:
    """Closed-loop transfer functions of ST-PD, as sympy expressions in z.

    Attributes
    ----------
    arrival_reference : sympy.Expr
        A(z)/R(z) with D = 0.
    arrival_departure : sympy.Expr
        A(z)/D(z) with R = 0.
    occupancy_reference : sympy.Expr
        B(z)/R(z) with D = 0.
    characteristic : sympy.Expr
        Characteristic polynomial in z (monic, degree m + 1 per slot).
    """

    arrival_reference: sp.Expr
    arrival_departure: sp.Expr
    occupancy_reference: sp.Expr
    characteristic: sp.Expr


@dataclass(frozen=True)
class StpdLoop:
    """ST-PD's closed loop for fixed gains and delay (use :func:`stpd_loop`).

    Attributes
    ----------
    kp, kd : float
        PD gains of eq. (4.1). [1]
    m : int
        Round trip, the delay of the error. [slots]
    model : str
        ``"per_slot"``: the thesis's model, a(n) updated every slot.
    """

    kp: float
    kd: float
    m: int
    model: str = "per_slot"

    def __post_init__(self):
        object.__setattr__(self, "kp", float(_check_gain("kp", self.kp)))
        object.__setattr__(self, "kd", float(_check_gain("kd", self.kd)))
        object.__setattr__(self, "m", check_positive_int("m", self.m))
        check_choice("model", self.model, MODELS)

    def symbolic(self, numeric=True):
        """Closed-loop transfer functions as sympy expressions.

        Parameters
        ----------
        numeric : bool, optional
            Substitute this loop's gains (as exact rationals of their
            decimal values) for the symbols ``k_p``, ``k_d``.

        Returns
        -------
        StpdSymbolic
        """
        generic = _derive(self.m, self.model)
        if not numeric:
            return generic
        values = {kp_symbol: sp.nsimplify(self.kp), kd_symbol: sp.nsimplify(self.kd)}
        return StpdSymbolic(*(sp.simplify(expr.subs(values)) for expr in (
            generic.arrival_reference,
            generic.arrival_departure,
            generic.occupancy_reference,
            generic.characteristic,
        )))

    def characteristic_polynomial(self):
        """Characteristic polynomial coefficients, highest power of z first.

        Examples
        --------
        >>> stpd_loop(0.033, 0.368, 3).characteristic_polynomial().round(3).tolist()
        [1.0, -2.0, 1.0, 0.401, -0.368]
        """
        return _coefficient_function(self.m, self.model)(self.kp, self.kd)

    def poles(self):
        """Closed-loop poles, sorted by real then imaginary part.

        Examples
        --------
        The poles printed in thesis §4.3.3 (see ``data/``):

        >>> np.round(stpd_loop(0.033, 0.368, 3).poles(), 4)
        array([-0.5023+0.j    ,  0.8031-0.4155j,  0.8031+0.4155j,  0.8961+0.j    ])
        """
        return np.sort_complex(np.roots(self.characteristic_polynomial()))

    def spectral_radius(self):
        """Largest pole magnitude. [1]"""
        return float(np.max(np.abs(self.poles())))

    def is_stable(self):
        """True if every pole lies strictly inside the unit circle."""
        return self.spectral_radius() < 1.0

    def require_stable(self, quantity="this quantity"):
        """Raise :class:`UnstableLoopError` unless the loop is stable."""
        radius = self.spectral_radius()
        if not radius < 1.0:
            raise UnstableLoopError(
                f"{quantity} is undefined: the ST-PD loop (kp={self.kp:g}, kd={self.kd:g}, "
                f"m={self.m}, model={self.model!r}) is unstable, spectral radius "
                f"{radius:.6g} >= 1",
                spectral_radius=radius,
            )
        return radius


def stpd_loop(kp, kd, m, model="per_slot"):
    """Build ST-PD's closed loop around the bottleneck queue.

    Parameters
    ----------
    kp, kd : float
        Proportional and derivative gains, finite and >= 0. [1]
    m : int
        Round trip in bottleneck slots, >= 1. [slots]
    model : {"per_slot"}, optional
        Loop model; see :data:`MODELS`.

    Returns
    -------
    StpdLoop

    References
    ----------
    thesis 002_bd014ea59e1383a2, eqs. (4.1)-(4.11), §4.3.3.

    Examples
    --------
    >>> loop = stpd_loop(kp=0.033, kd=0.368, m=3)
    >>> loop.is_stable(), round(loop.spectral_radius(), 4)
    (True, 0.9042)
    """
    return StpdLoop(kp, kd, m, model)


def _check_gain(name, value):
    check_finite(name, value)
    return check_nonnegative(name, value)


@lru_cache(maxsize=64)
def _derive(m, model):
    """Solve the loop equations (law + plant) for A, B in the z-domain."""
    A, B, E, R, D = sp.symbols("A B E R D")
    shift = z**-1
    equations = [
        sp.Eq(E, _law.control_error(R, B)),
        sp.Eq(A, _law.pd_update(shift * A, z**-m * E, z**-(m + 1) * E, kp_symbol, kd_symbol)),
        sp.Eq(B, _plant.queue_step_linear(shift * B, A, D)),
    ]
    solution = sp.solve(equations, [A, B, E], dict=True)[0]
    a_of_r = sp.factor(sp.cancel(sp.diff(solution[A], R)))
    a_of_d = sp.factor(sp.cancel(sp.diff(solution[A], D)))
    b_of_r = sp.factor(sp.cancel(sp.diff(solution[B], R)))
    # The poles are the zeros of the determinant of the loop equations; times
    # z**(m+1) (the longest delay) it is a polynomial of degree m + 1.
    matrix, _ = sp.linear_eq_to_matrix(equations, [A, B, E])
    polynomial = sp.Poly(sp.expand(sp.cancel(matrix.det() * z ** (m + 1))), z)
    characteristic = sp.expand(polynomial.as_expr() / polynomial.LC())
    return StpdSymbolic(a_of_r, a_of_d, b_of_r, characteristic)


@lru_cache(maxsize=64)
def _coefficient_function(m, model):
    """Numeric coefficients of the derived characteristic polynomial."""
    coefficients = sp.Poly(_derive(m, model).characteristic, z).all_coeffs()
    function = sp.lambdify((kp_symbol, kd_symbol), coefficients, "numpy")

    def evaluate(kp, kd):
        return np.array(function(kp, kd), dtype=float)

    return evaluate
