# ctlcc.analysis.aqm - linear analysis of TCP Reno behind RED or a PI AQM (Hollot et al.)
"""The TCP/AQM loop of Hollot et al. linearised: RED and PI, margins, stability.

N Reno flows (the MGT fluid model, :func:`ctlcc.laws.tcp.fluid_window_derivative_core`)
share a link of C packets/s with round-trip propagation delay Tp.  At
the operating point (queue q0, ``R0 = q0/C + Tp``, ``W0 = R0 C/N``,
``p0 = 2/W0^2``) the small-signal plant from the drop probability to the
queue is (Hollot et al. 2001, 2002)::

    P(s) = (C^2 / 2N) e^{-s R0} / ((s + 2N/(R0^2 C)) (s + 1/R0)),

which :func:`reno_plant` derives again with sympy from the law's own
function (the window equation and ``dq/dt = N W/R - C``), so the formula
above is a check, not an input.  Around it:

* RED (:class:`ctlcc.laws.aqm.RedParams`): ``C(s) = L_RED K/(s + K)``,
  ``L_RED = max_p/(max_th - min_th)``, K the averaging pole
  (:func:`ctlcc.laws.aqm.red_averaging_pole`); the operating queue is
  where RED's curve meets ``p0(q0)`` (:func:`red_operating_point`);
* PI (:class:`ctlcc.laws.aqm.PiParams`): ``C(s) = K_PI (s/z + 1)/s`` with
  K_PI and z read back from the discrete (a, b) (the inverse of
  :func:`ctlcc.laws.aqm.pi_coefficients`); the operating queue is q_ref.

:class:`AqmLoop` gives L(jw) with the exact delay, the gain and phase
margins, and stability by Nyquist's criterion (the open loop has no
right-half-plane pole, so the loop is stable iff L(jw) does not encircle
-1; encirclements are counted from the crossings of the negative real
axis left of -1).  Its ``prediction`` says what the fluid model and the
packets should show: "settles" (stable) or "oscillates" (unstable, with
the period 2 pi / w_180 the linear loop first goes unstable at).

The PI controller is analysed in continuous time (its sampling at f_s
adds about T/2 of delay, 3 ms at 160 Hz against R0 near 0.25 s: left out
and said so).

References
----------
Hollot et al. (2001), §III-IV (plant, RED loop, the stability condition
of Proposition 1); Hollot et al. (2002), §V (PI); Misra, Gong & Towsley
(2000) (the fluid model).
"""

import math
from dataclasses import dataclass

import numpy as np
import sympy as sp

from .._validation import check_choice, check_nonnegative, check_positive, check_result
from ..errors import ParameterError
from ..laws import aqm as _aqm
from ..laws import tcp as _tcp

__all__ = ["RenoPlant", "AqmLoop", "reno_plant", "red_operating_point", "red_loop", "pi_loop",
           "red_stability_condition"]


@dataclass(frozen=True)
class RenoPlant:
    """Operating point and small-signal plant of N Reno flows on one link.

    Attributes
    ----------
    n_flows : float
    capacity : float
        C. [packets/s]
    propagation_delay : float
        Tp. [s]
    queue : float
        q0. [packets]
    round_trip, window, probability : float
        R0 [s], W0 [packets], p0 [1].
    gain : float
        C^2/(2N). [packets/s^2]
    window_pole, queue_pole : float
        2N/(R0^2 C) and 1/R0. [rad/s]
    """

    n_flows: float
    capacity: float
    propagation_delay: float
    queue: float
    round_trip: float
    window: float
    probability: float
    gain: float
    window_pole: float
    queue_pole: float

    def response(self, omega):
        """P(j omega) with the delay e^{-j omega R0}; omega >= 0 [rad/s]. [packets]"""
        s = 1j * check_nonnegative("omega", omega)
        return (self.gain * np.exp(-s * self.round_trip)
                / ((s + self.window_pole) * (s + self.queue_pole)))


@dataclass(frozen=True)
class AqmLoop:
    """Open loop L(s) = C(s) P(s) of Reno behind an AQM, and its verdict.

    Attributes
    ----------
    plant : RenoPlant
    kind : {"red", "pi"}
    controller : tuple
        RED: (L_RED [1/packet], K [rad/s]); PI: (K_PI [1/(packet s)], z [rad/s]).
    crossover : float
        Highest gain crossover, ``|L| = 1`` (nan if ``|L| < 1`` everywhere). [rad/s]
    phase_margin : float
        pi + arg L at the crossover (wrapped to (-pi, pi]). [rad]
    phase_crossover : float
        Lowest frequency where arg L = -pi. [rad/s]
    gain_margin : float
        ``1 / |L|`` at the phase crossover. [1]
    encirclements : int
        Net clockwise encirclements of -1 by L(j omega), omega in (-inf, inf).
    """

    plant: RenoPlant
    kind: str
    controller: tuple
    crossover: float
    phase_margin: float
    phase_crossover: float
    gain_margin: float
    encirclements: int

    def controller_response(self, omega):
        """C(j omega); omega >= 0, > 0 for PI (its integrator) [rad/s]. [1/packet]"""
        s = 1j * (check_positive("omega", omega) if self.kind == "pi"
                  else check_nonnegative("omega", omega))
        if self.kind == "red":
            slope, pole = self.controller
            return slope * pole / (s + pole)
        gain, zero = self.controller
        return gain * (s / zero + 1.0) / s

    def response(self, omega):
        """L(j omega) = C(j omega) P(j omega). [1]"""
        return self.controller_response(omega) * self.plant.response(omega)

    def is_stable(self):
        """Nyquist: no encirclement of -1 (the open loop has no unstable pole)."""
        return self.encirclements == 0

    @property
    def prediction(self):
        """"settles" (stable loop) or "oscillates" (unstable)."""
        return "settles" if self.is_stable() else "oscillates"

    @property
    def oscillation_period(self):
        """2 pi / w_180, the period an unstable loop oscillates near. [s]"""
        return 2.0 * math.pi / self.phase_crossover


#: Largest number of linearly spaced frequencies of one loop's Nyquist grid (8 bytes
#: each, several arrays of them): a pole of 1e300 rad/s is refused, not allocated. [1]
MAX_GRID = 10**7


# --------------------------------------------------------------------------- plant
def reno_plant(n_flows, capacity, propagation_delay, queue):
    """Operating point and P(s), derived with sympy from Reno's fluid law.

    The window equation is :func:`ctlcc.laws.tcp.fluid_window_derivative_core`
    (``dW/dt = 1/R - W x(t-R) p(t-R)/2``, ``x = W/R``) and the queue
    ``dq/dt = N W/R - C`` with ``R = q/C + Tp``.  Linearised at the
    equilibrium with the delayed terms as e^{-sR0}, and the dependence of
    R on q dropped in the delayed product (Hollot's simplification), the
    transfer function from delta p to -delta q is P(s).

    Parameters
    ----------
    n_flows : float
        N, > 0.
    capacity : float
        C, > 0. [packets/s]
    propagation_delay : float
        Tp, > 0. [s]
    queue : float
        q0, >= 0. [packets]

    Returns
    -------
    RenoPlant

    Raises
    ------
    ParameterError
        If the operating point needs p0 > 1 (W0 < sqrt 2).

    References
    ----------
    Hollot et al. (2001), §III; the example N = 60, C = 3750 packets/s,
    Tp = 0.2 s, q0 = 175 packets.

    Examples
    --------
    >>> plant = reno_plant(60, 3750.0, 0.2, 175.0)
    >>> round(plant.round_trip, 4), round(plant.window, 2), round(plant.probability, 5)
    (0.2467, 15.42, 0.00841)
    >>> round(plant.window_pole, 3), round(plant.queue_pole, 2)
    (0.526, 4.05)
    """
    n = float(check_positive("n_flows", n_flows, scalar=True))
    c = float(check_positive("capacity", capacity, scalar=True))
    tp = float(check_positive("propagation_delay", propagation_delay, scalar=True))
    q0 = float(check_nonnegative("queue", queue, scalar=True))
    inputs = dict(n_flows=n, capacity=c, propagation_delay=tp, queue=q0)
    with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
        w0 = (np.float64(q0) / c + tp) * c / n
    check_result("reno_plant's operating window W0 = (q0/C + Tp) C / N", w0, positive=True,
                 **inputs)
    gain, a, b, r0, w0, p0 = _derived_plant(n, c, tp, q0)
    for what, value in (("the gain C^2/(2N)", gain), ("the window pole 2N/(R0^2 C)", a),
                        ("the queue pole 1/R0", b)):
        check_result(f"reno_plant's {what}", value, positive=True, **inputs)
    if p0 > 1.0:
        raise ParameterError(
            "queue: the operating point needs W0 = (q0/C + Tp) C / N >= sqrt(2) so that "
            f"p0 = 2/W0^2 <= 1; got W0 = {w0!r} from queue={queue!r}, capacity={capacity!r}, "
            f"propagation_delay={propagation_delay!r}, n_flows={n_flows!r}")
    return RenoPlant(n, c, tp, q0, r0, w0, p0, gain, a, b)


def _derived_plant(n, c, tp, q0):
    """(gain, window pole, queue pole, R0, W0, p0) by sympy from the law's function."""
    W, q, p, dW, dq, dp = sp.symbols("W q p dW dq dp")
    R = q / c + tp
    # operating point: dW/dt = 0 with x(t-R) = W/R, and R0 from q0
    r0 = q0 / c + tp
    w0 = r0 * c / n
    window_rhs = _tcp.fluid_window_derivative_core(W, R, W / R, p)
    p0 = float(sp.solve(window_rhs.subs({W: w0, q: q0}), p)[0])
    # Hollot's linearisation: partial derivatives at the operating point; the
    # delayed W and p carry e^{-sR0}, the undelayed R dependence on q is kept
    point = {W: w0, q: q0, p: p0}
    d_w = float(sp.diff(window_rhs, W).subs(point))   # both W and the delayed W
    d_q = float(sp.diff(window_rhs, q).subs(point))
    d_p = float(sp.diff(window_rhs, p).subs(point))
    queue_rhs = n * W / R - c
    e_w = float(sp.diff(queue_rhs, W).subs(point))
    e_q = float(sp.diff(queue_rhs, q).subs(point))
    # d_w = -W0 p0 / R0 = -2N/(R0^2 C): the derivative counts both the W and the
    # delayed W of W x(t-R) p/2, i.e. Hollot's dW(t-R) ~ dW; d_q, the
    # dependence of R on q, is neglected as Hollot does (small for large N)
    del d_q
    window_pole = -d_w
    queue_pole = -e_q
    # P(s) = -dq/dp = -(e_w * d_p) e^{-sR0} / ((s - d_w)(s - e_q))
    gain = -e_w * d_p
    return gain, window_pole, queue_pole, r0, w0, p0


# --------------------------------------------------------------------------- loops
def red_operating_point(n_flows, capacity, propagation_delay, red, spacing="none"):
    """The queue where RED's curve meets Reno's p0(q) = 2 N^2/((q/C + Tp) C)^2.

    Parameters
    ----------
    n_flows, capacity, propagation_delay : float
        N, C [packets/s], Tp [s].
    red : RedParams
        RED's averaged queue equals the queue at equilibrium.
    spacing : {"none", "count", "wait"}
        RED's drop rate as a function of its curve's p_b
        (:func:`ctlcc.laws.aqm.red_spacing_rate`); ``"none"`` (Hollot et
        al.'s reading) drops with p_b itself.

    Returns
    -------
    float
        q0. [packets]

    Raises
    ------
    ParameterError
        If the curves meet outside RED's linear ramp (p0 would have to
        exceed max_p, or the queue stays below min_th): the linear analysis
        needs the ramp.

    Examples
    --------
    >>> red = _aqm.RedParams(50.0, 550.0, 0.1)
    >>> round(red_operating_point(60, 3750.0, 0.2, red), 1)
    99.8
    """
    n = float(check_positive("n_flows", n_flows, scalar=True))
    c = float(check_positive("capacity", capacity, scalar=True))
    tp = float(check_positive("propagation_delay", propagation_delay, scalar=True))
    if not isinstance(red, _aqm.RedParams):
        raise ParameterError(f"red must be a RedParams, got {red!r}")

    check_choice("spacing", spacing, _aqm.RED_SPACINGS)

    def excess(q):  # RED's drop rate minus Reno's p0(q): increasing in q
        p_b = _aqm.red_ramp_core(q, red.min_threshold, red.max_threshold, red.max_probability)
        rate = p_b if spacing == "none" else _aqm.red_spacing_rate(min(max(p_b, 0.0), 1.0),
                                                                    spacing)
        return rate - 2.0 * n * n / ((q / c + tp) * c) ** 2

    low, high = red.min_threshold, red.max_threshold
    try:
        outside = excess(low) >= 0.0 or excess(high) <= 0.0
    except (OverflowError, ZeroDivisionError):   # (q/C + Tp) C squared beyond double range
        check_result("red_operating_point's Reno probability 2N^2/((q/C + Tp) C)^2", math.inf,
                     n_flows=n, capacity=c, propagation_delay=tp)
    if outside:
        raise ParameterError(
            f"red: the operating point must lie on RED's ramp ({low:g} < q0 < {high:g} "
            f"packets) for the linear analysis; got n_flows={n_flows!r}, capacity="
            f"{capacity!r}, propagation_delay={propagation_delay!r}, where it does not")
    for _ in range(200):
        mid = 0.5 * (low + high)
        if excess(mid) > 0.0:
            high = mid
        else:
            low = mid
    return 0.5 * (low + high)


def red_loop(n_flows, capacity, propagation_delay, red, averaging=None, spacing="none"):
    """Hollot et al.'s RED loop at RED's own operating point.

    Parameters
    ----------
    n_flows, capacity, propagation_delay : float
        N, C [packets/s], Tp [s].
    red : RedParams
    averaging : float, optional
        The averaging pole K [rad/s]; default ``-C ln(1 - w)``
        (:func:`ctlcc.laws.aqm.red_averaging_pole`).
    spacing : {"none", "count", "wait"}
        RED's drop rate from p_b (:func:`ctlcc.laws.aqm.red_spacing_rate`):
        the operating point moves where that rate meets p0(q), and the
        loop's gain L_RED becomes the slope of the rate in the averaged
        queue there (about 2 L_RED for ``"count"``).  ``"none"`` is Hollot
        et al.'s loop.

    Returns
    -------
    AqmLoop

    References
    ----------
    Hollot et al. (2001), §IV (the RED loop, its stability).

    Examples
    --------
    >>> red = _aqm.RedParams(50.0, 550.0, 0.1, weight=1e-4)
    >>> red_loop(60, 3750.0, 0.2, red).prediction
    'settles'
    >>> red_loop(60, 3750.0, 0.2, _aqm.RedParams(50.0, 150.0, 0.5, weight=1e-4)).prediction
    'oscillates'
    """
    q0 = red_operating_point(n_flows, capacity, propagation_delay, red, spacing=spacing)
    plant = reno_plant(n_flows, capacity, propagation_delay, q0)
    pole = (_aqm.red_averaging_pole(red.weight, plant.capacity) if averaging is None
            else float(check_positive("averaging", averaging, scalar=True)))
    slope = red.slope
    if spacing != "none":   # the rate's slope in p_b at the operating point (central difference)
        p_b = _aqm.red_ramp_core(q0, red.min_threshold, red.max_threshold, red.max_probability)
        h = 1e-4 * p_b
        slope *= (_aqm.red_spacing_rate(min(p_b + h, 1.0), spacing)
                  - _aqm.red_spacing_rate(p_b - h, spacing)) / (min(p_b + h, 1.0) - (p_b - h))
    return _loop(plant, "red", (slope, pole),
                 dict(n_flows=plant.n_flows, capacity=plant.capacity,
                      propagation_delay=plant.propagation_delay, averaging=pole))


def pi_loop(n_flows, capacity, propagation_delay, pi):
    """Hollot et al.'s PI loop, operating at q0 = q_ref.

    Parameters
    ----------
    n_flows, capacity, propagation_delay : float
        N, C [packets/s], Tp [s].
    pi : PiParams
        Its (a, b) at f_s are read back as K_PI = z (a + b)/2 and
        z = 2 f_s (a - b)/(a + b) (the inverse Tustin map).

    Returns
    -------
    AqmLoop

    References
    ----------
    Hollot et al. (2002), §V.

    Examples
    --------
    Hollot's design example holds (N = 60, C = 3750 packets/s, Tp = 0.2 s,
    q_ref = 175), and the same controller with 30 times the gain does not:

    >>> pi = _aqm.PiParams.design(60, 3750.0, 0.2467, 175.0, 160.0)
    >>> loop = pi_loop(60, 3750.0, 0.2, pi)
    >>> loop.prediction, round(float(np.degrees(loop.phase_margin)))
    ('settles', 75)
    >>> hot = _aqm.PiParams(30 * pi.a, 30 * pi.b, 175.0, 160.0)
    >>> pi_loop(60, 3750.0, 0.2, hot).prediction
    'oscillates'
    """
    if not isinstance(pi, _aqm.PiParams):
        raise ParameterError(f"pi must be a PiParams, got {pi!r}")
    if not pi.a > pi.b > -pi.a or pi.a <= 0:
        raise ParameterError(
            f"pi must have a > |b| (a PI controller with a zero in the left half plane) for "
            f"the continuous loop, got a={pi.a!r}, b={pi.b!r}")
    zero = 2.0 * pi.sampling_frequency * (pi.a - pi.b) / (pi.a + pi.b)
    gain = zero * (pi.a + pi.b) / 2.0
    plant = reno_plant(n_flows, capacity, propagation_delay, pi.reference)
    return _loop(plant, "pi", (gain, zero),
                 dict(n_flows=plant.n_flows, capacity=plant.capacity,
                      propagation_delay=plant.propagation_delay, pi_zero=zero))


def red_stability_condition(n_flows, capacity, round_trip, red, averaging=None):
    """Hollot et al. (2001)'s sufficient condition for the RED loop.

    For all N >= N^- and R0 <= R^+ the loop is stable if::

        L_RED (R^+ C)^3 / (2 N^-)^2 <= sqrt(w_g^2 / K^2 + 1),
        w_g = 0.1 min(2 N^- / ((R^+)^2 C), 1 / R^+).

    Parameters
    ----------
    n_flows : float
        N^-, > 0.
    capacity : float
        C, > 0. [packets/s]
    round_trip : float
        R^+, > 0. [s]
    red : RedParams
    averaging : float, optional
        K [rad/s]; default ``-C ln(1 - w)``.

    Returns
    -------
    bool

    References
    ----------
    Hollot et al. (2001), §IV, Proposition 1.

    Examples
    --------
    >>> red = _aqm.RedParams(50.0, 550.0, 0.1, weight=1e-4)
    >>> red_stability_condition(60, 3750.0, 0.2467, red)
    False
    """
    n = float(check_positive("n_flows", n_flows, scalar=True))
    c = float(check_positive("capacity", capacity, scalar=True))
    r = float(check_positive("round_trip", round_trip, scalar=True))
    if not isinstance(red, _aqm.RedParams):
        raise ParameterError(f"red must be a RedParams, got {red!r}")
    pole = (_aqm.red_averaging_pole(red.weight, c) if averaging is None
            else float(check_positive("averaging", averaging, scalar=True)))
    inputs = dict(n_flows=n, capacity=c, round_trip=r, averaging=pole)
    with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
        n64, c64, r64 = np.float64(n), np.float64(c), np.float64(r)
        w_g = 0.1 * min(2.0 * n64 / (r64 * r64 * c64), 1.0 / r64)
        left = red.slope * (r64 * c64) ** 3 / (2.0 * n64) ** 2
        right = np.hypot(w_g / pole, 1.0)
    for what, value in (("the crossover w_g", w_g), ("L_RED (R C)^3/(2N)^2", left),
                        ("sqrt(w_g^2/K^2 + 1)", right)):
        check_result(f"red_stability_condition's {what}", value, positive=True, **inputs)
    return bool(left <= right)


def _loop(plant, kind, controller, inputs):
    probe = AqmLoop(plant, kind, controller, math.nan, math.nan, math.nan, math.nan, 0)
    omega = _grid(plant, kind, controller, inputs)
    values = probe.response(omega)
    magnitude = np.abs(values)
    phase = np.unwrap(np.angle(values))
    above = magnitude >= 1.0
    if np.any(above):
        i = int(np.nonzero(above)[0][-1])
        i = min(i, len(omega) - 2)
        crossover = _interpolate_log(omega[i], omega[i + 1], magnitude[i] - 1.0,
                                     magnitude[i + 1] - 1.0)
        phase_c = np.interp(crossover, omega[i:i + 2], phase[i:i + 2])
        phase_margin = float(np.angle(np.exp(1j * (math.pi + phase_c))))
    else:
        crossover, phase_margin = math.nan, math.nan
    below = np.nonzero(phase <= -math.pi)[0]
    if below.size:
        j = int(below[0])
        phase_crossover = float(np.interp(-math.pi, [phase[j], phase[j - 1]],
                                          [omega[j], omega[j - 1]]))
        gain_margin = 1.0 / float(np.abs(probe.response(phase_crossover)))
    else:
        phase_crossover, gain_margin = math.nan, math.inf
    # Nyquist: crossings of the negative real axis left of -1 (omega > 0), twice
    im, re = values.imag, values.real
    net = 0
    for k in range(len(omega) - 1):
        if (im[k] < 0.0) != (im[k + 1] < 0.0):
            t = im[k] / (im[k] - im[k + 1])
            x = re[k] + t * (re[k + 1] - re[k])
            if x < -1.0:
                net += 1 if im[k] < 0.0 else -1
    return AqmLoop(plant, kind, controller, float(crossover), phase_margin, phase_crossover,
                   gain_margin, 2 * net)


def _grid(plant, kind, controller, inputs):
    """Frequencies from far below the slowest pole to where |L| has long fallen below 1/10."""
    poles = [plant.window_pole, plant.queue_pole, controller[1]]
    low = min(poles) * 1e-4
    high = max(poles) * 1e3
    probe = AqmLoop(plant, kind, controller, 0, 0, 0, 0, 0)
    check_result("the loop's frequency range", np.array([low, high]), positive=True, **inputs)
    while abs(probe.response(high)) > 0.1 and high < 1e300:
        high *= 10.0
    step = math.pi / (40.0 * plant.round_trip)   # resolves the delay's phase
    points = (high - 10 * step) / step
    if points > MAX_GRID:
        raise ParameterError(
            f"the loop's frequency grid would need {points:.3g} points (more than {MAX_GRID}, "
            f"what memory allows for one loop: up to {high:.3g} rad/s in steps of pi/(40 R0) = "
            f"{step:.3g} rad/s), got " + ", ".join(f"{k}={v!r}" for k, v in inputs.items()))
    logs = np.geomspace(low, min(high, 10 * step), 2000)
    linear = np.arange(10 * step, high, step) if high > 10 * step else np.zeros(0)
    return np.unique(np.concatenate([logs, linear]))


def _interpolate_log(w0, w1, f0, f1):
    if f0 == f1:
        return float(w0)
    t = f0 / (f0 - f1)
    return float(math.exp(math.log(w0) + t * (math.log(w1) - math.log(w0))))
