# ctlcc.analysis.stpd - ST-PD's z-domain closed loop around the bottleneck queue
"""ST-PD TCP's closed loop in the z-domain, derived from its law.

The loop of Xu (2002), §4.3.2 is three equations, each
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

from dataclasses import dataclass, field
from functools import lru_cache

import control
import numpy as np
from numpy.typing import ArrayLike
import scipy.signal
import sympy as sp

from .._results import Unpackable
from .._validation import (
    check_choice,
    check_finite,
    check_interval,
    check_nonnegative,
    check_nonnegative_int,
    check_positive_int,
)
from ..errors import ParameterError, UnstableLoopError
from ..laws import stpd as _law
from . import plant as _plant

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

#: Loop models :func:`stpd_loop` can build.
MODELS = ("per_slot", "per_rtt")
#: Outputs of :meth:`StpdLoop.transfer_function`.
OUTPUTS = ("arrival", "occupancy")
#: Inputs of :meth:`StpdLoop.transfer_function`.
INPUTS = ("reference", "departure")
#: Throughput readings of eq. (4.19), see :meth:`StpdLoop.throughput_under_loss`.
READINGS = ("periodic", "single_loss")

z = sp.Symbol("z")
kp_symbol, kd_symbol = sp.symbols("k_p k_d", nonnegative=True)

# A loss response is computed until the slowest mode has decayed by this factor.
_SETTLE_TOLERANCE = 1e-14
# ... but never over more slots than this (a loop this slow is useless anyway).
_MAX_RESPONSE_SLOTS = 2_000_000


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
            generic.occupancy_departure,
        )))

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
        numerator, denominator = self._ratio(output, input)
        return control.tf(numerator, denominator, dt=1)

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
            :func:`ctlcc.laws.stpd.control_error`,
            :func:`ctlcc.laws.stpd.pd_update` and
            :func:`ctlcc.analysis.plant.queue_step_linear` (per RTT: the
            derived buffer estimate).

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
        p = check_nonnegative_int("p", p)
        n = check_positive_int("n", n)
        check_choice("method", method, ("z_transform", "iteration"))
        time = np.arange(n)
        reference = (time >= 0).astype(float)
        reference[(time >= p) & (time < p + self._pulse_length)] += 1.0
        departure = np.full(n, self._departure_level)
        if method == "iteration":
            arrival, occupancy = self._iterate(reference, departure)
        else:
            arrival = self._loss_system("arrival", p, n)
            occupancy = self._loss_system("occupancy", p, n)
        return LossResponse(time, arrival, occupancy, reference, departure,
                            self.kp, self.kd, self.m, p, self.model, method)

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
        self.require_stable("throughput under loss (eq. 4.19)")
        cycle = np.maximum(np.rint(1.0 / probability), 1).astype(np.int64)
        deviation = self._loss_deviation(int(cycle.max()))
        out = np.empty(cycle.shape)
        for index, length in np.ndenumerate(cycle):  # one fold per distinct K
            out[index] = _cycle_throughput(deviation, int(length), reading)
        return float(out) if out.ndim == 0 else out

    # -- private ---------------------------------------------------------

    @property
    def _pulse_length(self):
        """Steps of the loss pulse: one round trip (m + 1 slots or 1 round)."""
        return self.m + 1 if self.model == "per_slot" else 1

    @property
    def _departure_level(self):
        """d(n): 1 packet/slot, or the pipe (m packets) per round trip."""
        return 1.0 if self.model == "per_slot" else float(self.m)

    def _ratio(self, output, input):
        """Numerator, denominator (highest power first), monic denominator."""
        numerator, denominator = _ratio_functions(self.m, self.model, output, input)
        num = np.atleast_1d(np.asarray(numerator(self.kp, self.kd), dtype=float))
        den = np.atleast_1d(np.asarray(denominator(self.kp, self.kd), dtype=float))
        return num / den[0], den / den[0]

    def _ratio_delay(self, output, input):
        """The transfer function as (b, a) in ascending powers of z**-1."""
        num, den = self._ratio(output, input)
        if num.size > den.size:
            raise ArithmeticError("improper closed-loop transfer function")
        return np.concatenate([np.zeros(den.size - num.size), num]), den

    def _loss_system(self, output, p, n):
        """Inverse z-transform of the loss response of *output*."""
        b_ref, a_ref = self._ratio_delay(output, "reference")
        b_dep, a_dep = self._ratio_delay(output, "departure")
        pulse = self._pulse_length
        # R(z) (1 - z**-1) = 1 + z**-p - z**-(p+pulse); D(z) (1 - z**-1) = level.
        reference_num = np.zeros(p + pulse + 1)
        reference_num[0] += 1.0
        reference_num[p] += 1.0
        reference_num[p + pulse] -= 1.0
        numerator = _add_ascending(
            np.convolve(np.convolve(b_ref, reference_num), a_dep),
            self._departure_level * np.convolve(b_dep, a_ref),
        )
        denominator = np.convolve(np.convolve(a_ref, a_dep), [1.0, -1.0])
        # Both in ascending powers of z**-1; padded to one length and
        # multiplied by z**(length-1) they are polynomials in z, highest first.
        size = max(numerator.size, denominator.size)
        numerator = _add_ascending(numerator, np.zeros(size))
        denominator = _add_ascending(denominator, np.zeros(size))
        system = control.tf(numerator, denominator, dt=1)
        return control.impulse_response(system, timepts=np.arange(n)).outputs.astype(float)

    def _iterate(self, reference, departure):
        """Iterate the loop's difference equations with the law functions."""
        n = reference.size
        arrival, occupancy, error = np.zeros(n), np.zeros(n), np.zeros(n)
        delay = self.m if self.model == "per_slot" else 1
        measure = None if self.model == "per_slot" else _per_rtt_measurement_function()

        def past(sequence, k):
            return sequence[k] if k >= 0 else 0.0

        for k in range(n):
            arrival[k] = _law.pd_update(past(arrival, k - 1), past(error, k - delay),
                                        past(error, k - delay - 1), self.kp, self.kd)
            if measure is None:
                occupancy[k] = _plant.queue_step_linear(past(occupancy, k - 1), arrival[k],
                                                        departure[k])
            else:
                occupancy[k] = measure(arrival[k], departure[k])
            error[k] = _law.control_error(reference[k], occupancy[k])
        return arrival, occupancy

    def _loss_deviation(self, cycle):
        """h(n): deviation of a(n) caused by one loss pulse at n = 0."""
        radius = self.spectral_radius()
        settle = int(np.ceil(np.log(_SETTLE_TOLERANCE) / np.log(max(radius, 1e-300))))
        length = max(cycle, self.m + 1 + max(settle, 1))
        if length > _MAX_RESPONSE_SLOTS:
            raise ParameterError(
                f"the loop settles too slowly (spectral radius {radius:.9g}); the loss "
                f"response would need {length} slots > {_MAX_RESPONSE_SLOTS}"
            )
        b, a = self._ratio_delay("arrival", "reference")
        pulse = np.zeros(length)
        pulse[: self._pulse_length] = 1.0
        return scipy.signal.lfilter(b, a, pulse)


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


def _check_gain(name, value):
    check_finite(name, value)
    return check_nonnegative(name, value)


def _coefficient_rows(kp, kd, m, model):
    """Validated, broadcast characteristic coefficients as a list of arrays."""
    kp = np.asarray(_check_gain("kp", kp), dtype=float)
    kd = np.asarray(_check_gain("kd", kd), dtype=float)
    m = check_positive_int("m", m)
    check_choice("model", model, MODELS)
    shape = np.broadcast_shapes(kp.shape, kd.shape)
    entries = _coefficient_function(m, model)(kp, kd)
    return [np.broadcast_to(np.asarray(c, dtype=float), shape) for c in entries]


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


def _add_ascending(first, second):
    """Sum of two coefficient arrays in ascending powers (zero-padded)."""
    size = max(first.size, second.size)
    total = np.zeros(size)
    total[: first.size] += first
    total[: second.size] += second
    return total


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


@lru_cache(maxsize=1)
def _per_rtt_measurement():
    """Buffer estimate (3.3)-(3.4) of a window beyond the pipe, by sympy.

    Returns the estimate as an expression in the window ``w`` and the pipe
    ``D`` (packets in flight at RTT_min), with RTT = RTT_min + (w - D)/C and
    the service rate S = w / RTT (w packets sent per round trip).
    """
    w, pipe, capacity, rtt_min = sp.symbols("w D C RTT_min", positive=True)
    queue = w - pipe
    rtt = rtt_min + queue / capacity
    estimate = _law.buffer_estimate(rtt, rtt_min, _law.service_rate(w, rtt))
    estimate = sp.simplify(estimate.subs(rtt_min, pipe / capacity))
    if sp.simplify(estimate - queue) != 0:  # pragma: no cover - a change of the law
        raise ArithmeticError(f"buffer estimate is not the queue: {estimate}")
    return w, pipe, estimate


@lru_cache(maxsize=1)
def _per_rtt_measurement_function():
    w, pipe, estimate = _per_rtt_measurement()
    return sp.lambdify((w, pipe), estimate, "math")


@lru_cache(maxsize=2)
def _derive_generic(model):
    """Solve the loop equations (law + plant) with the round trip as a symbol.

    One step of delay is ``z**-1``; the feedback delay of the error (m
    slots, or one round trip per RTT) is kept as the symbol ``Q`` so that
    the solve is done once; :func:`_derive` substitutes ``Q = z**-m``.

    Returns
    -------
    transfers : dict
        {(output, input): expression in z, Q, k_p, k_d}
    determinant : sympy.Expr
        Determinant of the loop equations (its zeros are the poles).
    """
    A, B, E, R, D, Q = sp.symbols("A B E R D Q")
    shift = z**-1
    if model == "per_slot":
        plant = sp.Eq(B, _plant.queue_step_linear(shift * B, A, D))
    else:
        w, pipe, estimate = _per_rtt_measurement()
        plant = sp.Eq(B, estimate.subs({w: A, pipe: D}))
    equations = [
        sp.Eq(E, _law.control_error(R, B)),
        sp.Eq(A, _law.pd_update(shift * A, Q * E, Q * shift * E, kp_symbol, kd_symbol)),
        plant,
    ]
    solution = sp.solve(equations, [A, B, E], dict=True)[0]
    transfers = {
        (output, source): sp.diff(solution[unknown], symbol)
        for output, unknown in (("arrival", A), ("occupancy", B))
        for source, symbol in (("reference", R), ("departure", D))
    }
    matrix, _ = sp.linear_eq_to_matrix(equations, [A, B, E])
    return transfers, Q, matrix.det()


def _feedback_delay(m, model):
    """Delay of the error in steps: m slots, or one round trip."""
    return m if model == "per_slot" else 1


@lru_cache(maxsize=2)
def _determinant_terms(model):
    """The loop determinant as terms ``coefficient * z**-i * Q**j``."""
    _, Q, determinant = _derive_generic(model)
    backward = sp.Symbol("w")  # w = z**-1
    expanded = sp.expand(determinant.subs(z, 1 / backward))
    return tuple(sp.Poly(expanded, backward, Q).terms())


@lru_cache(maxsize=512)
def _characteristic_coefficients(m, model):
    """Coefficients (sympy, highest power of z first) of the monic polynomial.

    ``Q = z**-delay`` turns each determinant term ``c z**-i Q**j`` into
    ``c z**-(i + j delay)``; multiplied by ``z**N`` (N the largest such
    exponent) the determinant is a polynomial in z.  Poles at z = 0 (pure
    delays) are dropped.
    """
    delay = _feedback_delay(m, model)
    terms = [(i + j * delay, coefficient) for (i, j), coefficient in _determinant_terms(model)]
    top = max(exponent for exponent, _ in terms)
    coefficients = [sp.Integer(0)] * (top + 1)  # index = power of z**-1 = N - power of z
    for exponent, coefficient in terms:
        coefficients[exponent] += coefficient
    coefficients = [sp.expand(c) for c in coefficients]
    while len(coefficients) > 1 and coefficients[-1] == 0:
        coefficients.pop()  # a root at z = 0
    lead = coefficients[0]
    return tuple(sp.expand(c / lead) for c in coefficients)


def _characteristic(m, model):
    """Monic characteristic polynomial (sympy Poly in z) for delay m."""
    coefficients = _characteristic_coefficients(m, model)
    degree = len(coefficients) - 1
    return sp.Poly(sum(c * z ** (degree - k) for k, c in enumerate(coefficients)), z)


@lru_cache(maxsize=128)
def _derive(m, model):
    """Closed-loop transfer functions and characteristic polynomial for delay m."""
    transfers, Q, _ = _derive_generic(model)
    delay = _feedback_delay(m, model)

    def transfer(output, source):
        return sp.cancel(transfers[(output, source)].subs(Q, z**-delay))

    return StpdSymbolic(
        transfer("arrival", "reference"),
        transfer("arrival", "departure"),
        transfer("occupancy", "reference"),
        sp.expand(_characteristic(m, model).as_expr()),
        transfer("occupancy", "departure"),
    )


@lru_cache(maxsize=512)
def _coefficient_function(m, model):
    """Numeric coefficients of the derived characteristic polynomial.

    Both gains enter the loop linearly, so each coefficient is
    ``c0 + c1 kp + c2 kd``; the three numbers are read off the sympy
    coefficients once (cheaper than ``lambdify`` for long delays).
    """
    table = []
    for coefficient in _characteristic_coefficients(m, model):
        slopes = [sp.diff(coefficient, symbol) for symbol in (kp_symbol, kd_symbol)]
        if any(slope.free_symbols for slope in slopes):  # pragma: no cover - nonlinear law
            raise ArithmeticError(f"coefficient {coefficient} is not affine in the gains")
        constant = coefficient.subs({kp_symbol: 0, kd_symbol: 0})
        table.append((float(constant), float(slopes[0]), float(slopes[1])))
    table = np.array(table)

    def evaluate(kp, kd):
        return [c0 + c1 * kp + c2 * kd if (c1 or c2) else c0 for c0, c1, c2 in table]

    return evaluate


@lru_cache(maxsize=256)
def _ratio_functions(m, model, output, input):
    """Lambdified numerator and denominator coefficients of a transfer."""
    check_choice("output", output, OUTPUTS)
    check_choice("input", input, INPUTS)
    numerator, denominator = sp.fraction(sp.cancel(sp.together(
        _derive(m, model).transfer(output, input))))
    num = sp.Poly(numerator, z).all_coeffs()
    den = sp.Poly(denominator, z).all_coeffs()
    return (sp.lambdify((kp_symbol, kd_symbol), num, "numpy"),
            sp.lambdify((kp_symbol, kd_symbol), den, "numpy"))
