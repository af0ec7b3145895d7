# ctlcc.analysis.stpd - ST-PD's z-domain closed loop around the bottleneck queue
"""ST-PD TCP's closed loop in the z-domain, derived from its law.

The loop of Xu (2002), §4.3.2 is three equations, each
taken from the package rather than typed in (this module is a thin caller of
:func:`ctlcc.analysis.loops.closed_loop` with the PD law
:func:`ctlcc.laws.user.pd_law`, the path every user law takes):

* the control error (4.2), :func:`ctlcc.laws.stpd.control_error`;
* the PD update (4.1) with the error seen m slots late,
  :func:`ctlcc.laws.stpd.pd_update_core` applied to ``z**-m * E`` (the
  previous error is the law's one memory entry);
* the linearised queue (4.6), :func:`ctlcc.analysis.plant.queue_step_linear`.

Replacing each one-slot delay by ``z**-1`` and solving the three linear
equations with sympy gives the closed-loop transfer functions (4.9)-(4.11)::

    A(z)/R(z) = z**-m (kp + kd (1 - z**-1)) (1 - z**-1)
                / ((1 - z**-1)**2 + z**-m (kp + kd (1 - z**-1)))

whose characteristic polynomial is
``z**(m-1) (z - 1)**2 + (kp + kd) z - kd`` (degree m + 1).

Two loop models are built from the same law (``model=``):

``"per_slot"`` (default)
    The thesis's model (4.1)-(4.11): the arrival rate a(n) [packets/slot]
    is updated every slot from the error seen m slots late, and the queue
    integrates a(n) - d(n) (4.6).
``"per_rtt"``
    The algorithm as §3.4.3 runs it: the window w(k) [packets] is updated
    once per round trip k by (3.5) from the buffer estimate (3.3)-(3.4) of
    the previous round (one round trip of delay).  For a saturating flow
    the window bounds the packets in flight, so at the end of a round the
    queue is the window beyond the pipe, ``b(k) = w(k) - BDP`` (valid while
    ``BDP <= w(k) <= BDP + buffer``); with RTT = RTT_min + b/C and
    S = w/RTT, sympy reduces the estimate (3.3) to exactly that queue.
    The step is one round trip, "arrival" is w(k) (packets sent in round
    k), "departure" is the pipe, ``d(k) = BDP = m`` packets (one packet
    per slot over an m-slot round trip), and the characteristic polynomial
    is ``z**2 + (kp + kd - 1) z - kd``, independent of m.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np
from numpy.typing import ArrayLike
import sympy as sp

from .._results import Unpackable
from .._validation import (
    check_bool,
    check_choice,
    check_finite,
    check_interval,
    check_nonnegative,
    check_positive_int,
)
from ..errors import ParameterError, UnstableLoopError
from ..laws.user import pd_law
from . import loops as _closed
from ._schur import STABILITY_TOLERANCE

__all__ = [
    "MODELS",
    "OUTPUTS",
    "INPUTS",
    "StpdSymbolic",
    "StpdLoop",
    "LossResponse",
    "stpd_loop",
    "spectral_radius",
    "characteristic_coefficients",
]

#: Loop models :func:`stpd_loop` can build (those of :func:`ctlcc.closed_loop`).
MODELS = _closed.MODELS

#: Largest round trip the z-domain analysis accepts (that of
#: :func:`ctlcc.closed_loop`). [slots]
MAX_SLOTS = _closed.MAX_SLOTS
#: Outputs of :meth:`StpdLoop.transfer_function`.
OUTPUTS = ("arrival", "occupancy")
#: Inputs of :meth:`StpdLoop.transfer_function`.
INPUTS = ("reference", "departure")
#: Throughput readings of eq. (4.19), see :meth:`StpdLoop.throughput_under_loss`.
READINGS = ("periodic", "single_loss")

z = _closed.z
kp_symbol, kd_symbol = sp.symbols("k_p k_d", nonnegative=True)

# Responses are never computed over more slots than this (a loop this slow is useless anyway).
_MAX_RESPONSE_SLOTS = _closed.MAX_RESPONSE_STEPS


@dataclass(frozen=True)
class StpdSymbolic:
    """Closed-loop transfer functions of ST-PD, as sympy expressions in z.

    In the per-RTT model "arrival" is the window w(k) and "departure" the
    pipe (BDP); see the module docstring.

    Attributes
    ----------
    arrival_reference : sympy.Expr
        A(z)/R(z) with D = 0.
    arrival_departure : sympy.Expr
        A(z)/D(z) with R = 0.
    occupancy_reference : sympy.Expr
        B(z)/R(z) with D = 0.
    characteristic : sympy.Expr
        Characteristic polynomial in z (monic; degree m + 1 per slot, 2 per
        round trip).
    occupancy_departure : sympy.Expr
        B(z)/D(z) with R = 0.
    """

    arrival_reference: sp.Expr
    arrival_departure: sp.Expr
    occupancy_reference: sp.Expr
    characteristic: sp.Expr
    occupancy_departure: sp.Expr

    def transfer(self, output="arrival", input="reference"):
        """The transfer function from *input* to *output*."""
        check_choice("output", output, OUTPUTS)
        check_choice("input", input, INPUTS)
        return getattr(self, f"{output}_{input}")


@dataclass(frozen=True)
class LossResponse(Unpackable):
    """The loop's response to one loss, eqs. (4.13)-(4.17).

    Unpacks like python-control's ``TimeResponseData``:
    ``time, arrival = loop.loss_response(p, n)``.

    Attributes
    ----------
    time : ndarray
        Step index n = 0 .. n-1. [slots] (per RTT: [round trips])
    arrival : ndarray
        a(n), the normalised arrival rate [packets/slot] (per RTT: the
        window w(k) [packets]).
    occupancy : ndarray
        b(n) of the linearised queue. [packets]
    reference : ndarray
        r(n) = u(n) + the loss pulse, eq. (4.15). [packets]
    departure : ndarray
        d(n): 1 packet/slot (per RTT: the pipe, m packets).
    kp, kd : float
        Gains. [1]
    m : int
        Round trip. [slots]
    p : int
        First step of the loss disturbance.
    model : str
    method : str
        ``"z_transform"`` (python-control impulse response of the derived
        rational A(z), B(z)) or ``"iteration"`` (the law functions iterated).
    """

    time: np.ndarray
    arrival: np.ndarray
    occupancy: np.ndarray
    reference: np.ndarray
    departure: np.ndarray
    kp: float
    kd: float
    m: int
    p: int
    model: str
    method: str

    _unpack = ("time", "arrival")

    @property
    def outputs(self):
        """``arrival``, the name python-control uses."""
        return self.arrival


@dataclass(frozen=True)
class StpdLoop:
    """ST-PD's closed loop for fixed gains and delay (use :func:`stpd_loop`).

    Attributes
    ----------
    kp, kd : float
        PD gains of eq. (4.1). [1]
    m : int
        Round trip, the delay of the error. [slots]; for a saturating flow
        also its bandwidth-delay product. [packets]
    model : str
        ``"per_slot"`` (thesis, a(n) updated every slot) or ``"per_rtt"``
        (the window updated once per round trip); see the module docstring.
    """

    kp: float
    kd: float
    m: int
    model: str = "per_slot"

    def __post_init__(self):
        object.__setattr__(self, "kp", float(_check_gain("kp", self.kp, scalar=True)))
        object.__setattr__(self, "kd", float(_check_gain("kd", self.kd, scalar=True)))
        object.__setattr__(self, "m", check_positive_int("m", self.m, maximum=MAX_SLOTS))
        check_choice("model", self.model, MODELS)

    @cached_property
    def loop(self):
        """The same loop through the public path: ``closed_loop(pd_law(kp, kd), m, model)``.

        Examples
        --------
        >>> stpd_loop(0.033, 0.368, 3).loop.law
        WindowLaw('pd', memory=1, gains={'kp': 0.033, 'kd': 0.368}, per='rtt')
        """
        return _closed.closed_loop(pd_law(self.kp, self.kd), self.m, model=self.model)

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
        check_bool("numeric", numeric)
        if not numeric:
            return _derive(self.m, self.model)
        return _stpd_symbolic(self.loop.symbolic(numeric=True))

    def transfer_function(self, output="arrival", input="reference"):
        """Closed-loop transfer function as a python-control system, dt = 1.

        Built from the exact polynomials in z of :meth:`symbolic` (no
        ``z**-1`` chains are handed to python-control).

        Parameters
        ----------
        output : {"arrival", "occupancy"}
            a(n) (per RTT: w(k)) or b(n).
        input : {"reference", "departure"}
            r(n) or d(n).

        Returns
        -------
        control.TransferFunction
            Discrete time, ``dt = 1`` (one slot; per RTT one round trip).

        Examples
        --------
        >>> tf = stpd_loop(0.033, 0.368, 3).transfer_function()
        >>> tf.dt, np.round(tf.den[0][0], 3).tolist()
        (1, [1.0, -2.0, 1.0, 0.401, -0.368, 0.0])
        >>> np.round(tf.num[0][0], 3).tolist()
        [0.401, -0.769, 0.368]
        """
        check_choice("output", output, ("arrival", "occupancy"))
        check_choice("input", input, ("reference", "departure"))
        return self.loop.transfer_function(output, input)

    def characteristic_polynomial(self):
        """Characteristic polynomial coefficients, highest power of z first.

        Examples
        --------
        >>> stpd_loop(0.033, 0.368, 3).characteristic_polynomial().round(3).tolist()
        [1.0, -2.0, 1.0, 0.401, -0.368]
        >>> stpd_loop(0.033, 0.368, 3, model="per_rtt").characteristic_polynomial().round(3).tolist()
        [1.0, -0.599, -0.368]
        """
        return characteristic_coefficients(self.kp, self.kd, self.m, self.model)

    def poles(self) -> np.ndarray:
        """Closed-loop poles, sorted by real then imaginary part.

        Examples
        --------
        The poles printed in thesis §4.3.3 (see ``data/``):

        >>> np.round(stpd_loop(0.033, 0.368, 3).poles(), 4)
        array([-0.5023+0.j    ,  0.8031-0.4155j,  0.8031+0.4155j,  0.8961+0.j    ])
        """
        return np.sort_complex(np.roots(self.characteristic_polynomial()))

    def spectral_radius(self) -> float:
        """Largest pole magnitude. [1]"""
        return float(np.max(np.abs(self.poles())))

    def is_stable(self) -> bool:
        """True if every pole lies strictly inside the unit circle.

        :meth:`ctlcc.analysis.loops.ClosedLoop.is_stable` on this
        loop: the Schur-Cohn test of
        :func:`ctlcc.analysis.stability.schur_stable` (tolerance
        :data:`~ctlcc.analysis.stability.STABILITY_TOLERANCE`), the same test
        as :func:`~ctlcc.analysis.stability_region`,
        :func:`~ctlcc.analysis.max_stable_delay` and
        :func:`~ctlcc.analysis.gain_margin`: a pole on the unit circle up
        to rounding is unstable.

        Examples
        --------
        >>> stpd_loop(1.5, 0.0, 1).is_stable()  # pole at z = -1
        False
        """
        return self.loop.is_stable()

    def require_stable(self, quantity="this quantity"):
        """Raise :class:`UnstableLoopError` unless :meth:`is_stable`."""
        if not isinstance(quantity, str):
            raise ParameterError(f"quantity must be a str, got {quantity!r}")
        radius = self.spectral_radius()
        if not self.is_stable():
            raise UnstableLoopError(
                f"{quantity} is undefined: the ST-PD loop (kp={self.kp:g}, kd={self.kd:g}, "
                f"m={self.m}, model={self.model!r}) is unstable, spectral radius "
                f"{radius:.6g} (a pole on or outside the unit circle up to the "
                f"Schur-Cohn tolerance {STABILITY_TOLERANCE:g})",
                spectral_radius=radius,
            )
        return radius

    def loss_response(self, p: int, n: int, method: str = "z_transform") -> LossResponse:
        """Response of the loop to one loss, thesis eqs. (4.13)-(4.17).

        The loop starts empty at n = 0 (a, b, e zero before), the reference
        steps to one packet (4.14) and the bottleneck serves one packet per
        slot, ``D(z) = 1/(1 - z**-1)``.  A loss at step p lowers the measured
        occupancy by one packet for one round trip, which (4.13) writes as
        unit impulses on the reference over slots p .. p + m (4.15)::

            R(z) = 1/(1 - z**-1) + sum_{i=p}^{p+m} z**-i              (4.16)
            A(z) = A/R(z) R(z) + A/D(z) D(z)                           (4.17)

        Per round trip the pulse is one step (k = p) and the departure is
        the pipe, m packets per round trip.  An unstable loop is allowed
        here: its response simply grows.

        Parameters
        ----------
        p : int
            Step at which the loss disturbs the queue, >= 0. [slots]
        n : int
            Number of steps returned, >= 1. [slots]
        method : {"z_transform", "iteration"}, optional
            ``"z_transform"``: the impulse response (python-control) of the
            rational A(z) and B(z) assembled from the derived transfer
            functions and R(z), D(z), i.e. their inverse z-transform.
            ``"iteration"``: the difference equations iterated with
            :func:`ctlcc.laws.stpd.control_error`, the PD law
            (:func:`ctlcc.laws.user.pd_window_update`) and
            :func:`ctlcc.analysis.plant.queue_step_linear` (per RTT: the
            derived buffer estimate); both through
            :meth:`ctlcc.analysis.loops.ClosedLoop.loss_response`.

        Returns
        -------
        LossResponse

        References
        ----------
        Xu (2002), eqs. (4.13)-(4.18), Fig. 4.5.

        Examples
        --------
        >>> loop = stpd_loop(0.033, 0.368, 3)
        >>> t, a = loop.loss_response(p=100, n=130)
        >>> round(float(a[99]), 3), round(float(a[100:].max()), 3)
        (1.0, 1.467)
        """
        response = self.loop.loss_response(p, n, method)
        return LossResponse(response.time, response.arrival, response.occupancy,
                            response.reference, response.departure, self.kp, self.kd, self.m,
                            response.p, self.model, method)

    def throughput_under_loss(self, prob: ArrayLike,
                              reading: str = "periodic") -> float | np.ndarray:
        """Normalised throughput with one loss every K = 1/prob packets, eq. (4.19).

        ``Q = (1/K) sum_{i=0}^{K-1} min(a(i), 1)``: arrivals beyond the
        capacity (1 packet/slot) only build queue.  Near full throughput the
        source sends about one packet per slot, so K packets take K slots;
        K is ``round(1/prob)`` slots.  What a(i) is over the cycle is left
        implicit in the thesis; with h(n) the deviation of a(n) caused by
        one loss pulse starting at n = 0 (from the derived A/R(z)):

        ``"periodic"`` (default)
            the periodic steady state of the linear loop under a loss every
            K slots: by superposition ``a(i) = 1 + sum_{j>=0} h(i + jK)``,
            i = 0 .. K-1 (the tails of all earlier losses included);
        ``"single_loss"``
            one isolated loss: ``a(i) = 1 + h(i)``, i = 0 .. K-1 (the sum
            runs over the K slots from the loss on; earlier losses ignored).

        Both agree once K exceeds the settling time.  Because A/R(z) has a
        zero at z = 1, sum h = 0: a loss only costs throughput through the
        clipping ``min(., 1)`` of its overshoot.

        Parameters
        ----------
        prob : float or array_like
            Packet-error probability, in (0, 1). [1]
        reading : {"periodic", "single_loss"}, optional

        Returns
        -------
        float or ndarray
            Normalised throughput, same shape as *prob*. [1]

        Raises
        ------
        UnstableLoopError
            If the loop is unstable (no steady state exists).
        ParameterError
            For the per-RTT model (eq. 4.19 is defined per slot).

        References
        ----------
        Xu (2002), eq. (4.19), Fig. 4.6.

        Examples
        --------
        >>> loop = stpd_loop(0.033, 0.368, 3)
        >>> np.round(loop.throughput_under_loss([1e-4, 1e-2]), 4).tolist()
        [0.9997, 0.9654]
        """
        check_choice("reading", reading, READINGS)
        if self.model != "per_slot":
            raise ParameterError(
                "throughput_under_loss (eq. 4.19) needs model 'per_slot'; got "
                f"model={self.model!r}"
            )
        probability = np.asarray(check_interval("prob", prob, 0.0, 1.0), dtype=float)
        if probability.size == 0:
            raise ParameterError(f"prob must hold at least one probability, got {prob!r}")
        if np.any(probability < 1.0 / _MAX_RESPONSE_SLOTS):
            raise ParameterError(
                f"prob must be >= 1/{_MAX_RESPONSE_SLOTS} (one loss per at most "
                f"{_MAX_RESPONSE_SLOTS} slots, the longest response computed), got "
                f"{probability[probability < 1.0 / _MAX_RESPONSE_SLOTS].ravel()[:3].tolist()}")
        self.require_stable("throughput under loss (eq. 4.19)")
        cycle = np.maximum(np.rint(1.0 / probability), 1).astype(np.int64)
        deviation = self.loop._loss_deviation(int(cycle.max()))
        out = np.empty(cycle.shape)
        for index, length in np.ndenumerate(cycle):  # one fold per distinct K
            out[index] = _cycle_throughput(deviation, int(length), reading)
        return float(out) if out.ndim == 0 else out


def stpd_loop(kp: float, kd: float, m: int, model: str = "per_slot") -> StpdLoop:
    """Build ST-PD's closed loop around the bottleneck queue.

    Parameters
    ----------
    kp, kd : float
        Proportional and derivative gains, finite and >= 0. [1]
    m : int
        Round trip in bottleneck slots, >= 1 (the error is seen at least
        one slot late). [slots]
    model : {"per_slot", "per_rtt"}, optional
        Loop model; see the module docstring.

    Returns
    -------
    StpdLoop

    References
    ----------
    Xu (2002), eqs. (3.3)-(3.5), (4.1)-(4.11), §4.3.3.

    Examples
    --------
    >>> loop = stpd_loop(kp=0.033, kd=0.368, m=3)
    >>> loop.is_stable(), round(loop.spectral_radius(), 4)
    (True, 0.9042)
    """
    return StpdLoop(kp, kd, m, model)


def characteristic_coefficients(kp, kd, m, model="per_slot"):
    """Characteristic polynomial coefficients for arrays of gains.

    Parameters
    ----------
    kp, kd : float or array_like
        Gains, broadcast against each other, finite and >= 0. [1]
    m : int
        Round trip. [slots]
    model : {"per_slot", "per_rtt"}, optional

    Returns
    -------
    ndarray
        Shape ``broadcast(kp, kd).shape + (degree + 1,)``, highest power of
        z first, monic.

    Examples
    --------
    >>> characteristic_coefficients([0.1, 0.2], 0.0, 1).tolist()
    [[1.0, -1.9, 1.0], [1.0, -1.8, 1.0]]
    """
    return np.stack(_coefficient_rows(kp, kd, m, model), axis=-1)


def spectral_radius(kp, kd, m, model="per_slot"):
    """Spectral radius of the closed loop, vectorised over the gains.

    Batched eigenvalues of the companion matrices of the derived
    characteristic polynomial (no Python loop over gain pairs).

    Parameters
    ----------
    kp, kd : float or array_like
        Gains, broadcast against each other, finite and >= 0. [1]
    m : int
        Round trip. [slots]
    model : {"per_slot", "per_rtt"}, optional

    Returns
    -------
    float or ndarray
        Largest pole magnitude, shape ``broadcast(kp, kd).shape``. [1]

    Examples
    --------
    >>> np.round(spectral_radius([0.033, 0.368], [0.368, 0.033], 3), 4).tolist()
    [0.9042, 1.2388]
    """
    coefficients = characteristic_coefficients(kp, kd, m, model)
    radius = np.max(np.abs(_companion_eigenvalues(coefficients)), axis=-1)
    return float(radius) if radius.ndim == 0 else radius


# -- private helpers ------------------------------------------------------


def _check_gain(name, value, scalar=False):
    check_finite(name, value, scalar=scalar)
    return check_nonnegative(name, value, scalar=scalar)


def _coefficient_rows(kp, kd, m, model):
    """Validated, broadcast characteristic coefficients as a list of arrays."""
    kp = np.asarray(_check_gain("kp", kp), dtype=float)
    kd = np.asarray(_check_gain("kd", kd), dtype=float)
    m = check_positive_int("m", m, maximum=MAX_SLOTS)
    check_choice("model", model, MODELS)
    np.broadcast_shapes(kp.shape, kd.shape)     # a ParameterError-free shape check first
    coefficients = _template(m, model).characteristic_coefficients(kp=kp, kd=kd)
    return [coefficients[..., k] for k in range(coefficients.shape[-1])]


def _companion_eigenvalues(coefficients):
    """Roots of monic polynomials (rows of *coefficients*), batched."""
    degree = coefficients.shape[-1] - 1
    shape = coefficients.shape[:-1]
    companion = np.zeros(shape + (degree, degree))
    companion[..., 0, :] = -coefficients[..., 1:] / coefficients[..., :1]
    if degree > 1:
        index = np.arange(degree - 1)
        companion[..., index + 1, index] = 1.0
    return np.linalg.eigvals(companion)


def _cycle_throughput(deviation, cycle, reading):
    """Eq. (4.19) for one cycle of *cycle* slots."""
    if reading == "single_loss":
        window = deviation[:cycle]
        clipped = np.minimum(1.0 + window, 1.0).sum() + max(cycle - window.size, 0)
        return clipped / cycle
    folds = -(-deviation.size // cycle)
    padded = np.zeros(folds * cycle)
    padded[: deviation.size] = deviation
    periodic = 1.0 + padded.reshape(folds, cycle).sum(axis=0)
    return float(np.minimum(periodic, 1.0).mean())


@lru_cache(maxsize=512)
def _template(m, model):
    """The PD loop for delay m, whose coefficients are evaluated on gain arrays."""
    return _closed.closed_loop(pd_law(0.0, 0.0), m, model=model)


def _stpd_symbolic(symbolic):
    """A :class:`~ctlcc.analysis.loops.LoopSymbolic` as :class:`StpdSymbolic`."""
    names = {}
    for expression in (*symbolic.transfers.values(), symbolic.characteristic):
        for symbol in expression.free_symbols:
            if symbol.name in ("kp", "kd"):
                names[symbol] = kp_symbol if symbol.name == "kp" else kd_symbol

    def rename(expression):
        return expression.xreplace(names)

    return StpdSymbolic(
        rename(symbolic.transfer("arrival", "reference")),
        rename(symbolic.transfer("arrival", "departure")),
        rename(symbolic.transfer("occupancy", "reference")),
        sp.expand(rename(symbolic.characteristic)),
        rename(symbolic.transfer("occupancy", "departure")),
    )


@lru_cache(maxsize=128)
def _derive(m, model):
    """Closed-loop transfer functions and characteristic polynomial in k_p, k_d."""
    return _stpd_symbolic(_template(m, model).symbolic(numeric=False))
