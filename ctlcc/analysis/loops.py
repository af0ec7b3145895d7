# ctlcc.analysis.loops - the z-domain closed loop of any window or rate law
"""Any law's closed loop around the bottleneck, derived by sympy.

:func:`closed_loop` calls the law's own function on sympy symbols, never a
typed-in formula: each memory entry becomes a state variable, each one-step
delay ``z**-1``, and the law (linearised at its fixed point when it is not
affine in its signals) is solved together with the plant.

Window laws (:class:`ctlcc.WindowLaw`) close around ST-PD's plant, thesis
§4.3 (Xu (2002)), in one of two forms (``model=``, as
:func:`ctlcc.stpd_loop`):

``"per_slot"`` (default)
    eq. (4.1) with the law in place of the PD: the law updates the arrival
    rate a(n) [packets/slot] every bottleneck slot from the error seen m
    slots late, ``a(n), mem(n) = update(a(n-1), e(n-m), mem(n-1))``; the
    queue integrates a(n) - d(n), eq. (4.6); ``e(n) = r(n) - b(n)``,
    eq. (4.2).  The law's window argument is then a rate per slot, as in
    (4.1); for laws whose increment depends on the window the per-RTT form
    is the one that reads the window as a window.
``"per_rtt"``
    the law runs once per round trip k on the error of the previous round,
    ``w(k), mem(k) = update(w(k-1), e(k-1), mem(k-1))``, and the queue at
    the end of a round is the window beyond the pipe, ``b(k) = w(k) - m``:
    sympy reduces the buffer estimate (3.3)-(3.4) to exactly that (see
    :mod:`ctlcc.analysis.stpd`).  This is the form packets follow.

For a law whose window increment is linear in its error history the loop is
eq. (4.1)'s with the law's controller ``C(z)`` (:meth:`ClosedLoop.controller`)
in place of the PD's ``kp + kd (1 - z**-1)``.

Rate laws (:class:`ctlcc.RateLaw`) close around Primo's plant (Chatté,
Ducourthial & Niculescu (2006), §III; :mod:`ctlcc.analysis.primo`), one
step per bottleneck slot: ``x(n), mem(n) = update(x(n-1), excess(n),
received(n), x(n-m), mem(n-1))``, the queue ``b(n) = b(n-1) + x(n-f)/C - 1``
[packets] and the excess read back ``excess(n) = b(n - 1 - (m - f) - d) /
FTT_ref`` (FTT_ref in slots); the reception rate is an input (C while the
queue is busy).

A law that is not affine in its signals, or branches on one (:func:`select`
on a signal), is linearised at its fixed point (the loop's equilibrium:
arrival 1 packet/slot, or window m + ref - e*, or rate C) and the result
says so (:attr:`ClosedLoop.linearised`, its repr).  A law with no fixed
point, several equilibria on a continuum, or one where it is not
differentiable gets a :class:`~ctlcc.errors.LinearisationError` that says
why (Primo's hold band: pass ``excess=`` to linearise inside one regime).

Sizes: the loop is derived once per law structure (the function, its memory
length, its gain names and the zero pattern of its Jacobian) with the delays
as symbols; the round trip m (up to :data:`MAX_SLOTS`) is substituted
afterwards, and numbers (gains, grids of gains) after that.

References
----------
Xu (2002), eqs. (3.2)-(3.5), (4.1)-(4.17); Chatté, Ducourthial &
Niculescu (2006), §III, Algorithm 1.

Examples
--------
>>> from ctlcc import WindowLaw, closed_loop
>>> def pi(window, error, memory, kp, ki):
...     return window + kp * (error - memory[0]) + ki * error, (error,)
>>> loop = closed_loop(WindowLaw(pi, memory=1, gains=dict(kp=0.2, ki=0.02)), m=3)
>>> loop.is_stable(), round(loop.spectral_radius(), 4)
(True, 0.8346)
>>> loop.characteristic_polynomial().round(3).tolist()
[1.0, -2.0, 1.0, 0.22, -0.2]
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from functools import lru_cache

import control
import numpy as np
import scipy.optimize
import scipy.signal
import sympy as sp

from .._results import Unpackable
from .._validation import (check_bool, check_choice, check_finite, check_nonnegative_int,
                           check_positive, check_positive_int)
from ..errors import LawError, LinearisationError, ParameterError, UnstableLoopError
from ..laws import stpd as _stpd_law
from ..laws.user import RateLaw, WindowLaw
from . import plant as _plant
from ._schur import STABILITY_TOLERANCE, _polyval_sparse, _schur_stable_rows, schur_stable

__all__ = [
    "MODELS",
    "MAX_SLOTS",
    "OUTPUTS",
    "INPUTS",
    "ClosedLoop",
    "LoopResponse",
    "Margins",
    "StabilityRegion",
    "LoopSymbolic",
    "closed_loop",
]

#: Loop forms of a window law (a rate law has "per_slot" only).
MODELS = ("per_slot", "per_rtt")
#: Largest round trip the z-domain analysis accepts. [slots]  The per-slot
#: characteristic polynomial has degree about m + 2; dense root finding
#: beyond ten thousand is slow and inexact, and a typo such as m = 1e308
#: must fail at once rather than exhaust memory.
MAX_SLOTS = 10_000
#: Outputs of :meth:`ClosedLoop.transfer_function`, by kind of law.
OUTPUTS = {"window": ("arrival", "occupancy"), "rate": ("rate", "occupancy")}
#: Inputs of :meth:`ClosedLoop.transfer_function`, by kind of law.
INPUTS = {"window": ("reference", "departure"), "rate": ("received", "service")}

#: The z of every transfer function ctlcc returns.
z = sp.Symbol("z")

# shift symbols of the generic derivation (Dummy: no clash with a gain's name)
_q, _Q, _Qm, _Qf, _Ql = (sp.Dummy(name) for name in ("q", "Q", "Qm", "Qf", "Ql"))
_V, _U = sp.Dummy("V"), sp.Dummy("U")
_CINV, _PHIINV = sp.Dummy("Cinv"), sp.Dummy("phiinv")
# signals of the two kinds of law, in the order update takes them
_SIGNALS = {"window": ("window", "error"), "rate": ("rate", "excess", "received", "previous")}
# a loss response is computed until the slowest mode has decayed by this factor ...
_SETTLE_TOLERANCE = 1e-14
# ... but never over more steps than this
MAX_RESPONSE_STEPS = 2_000_000
# points per half unit circle of the crossing scans (gain and phase margins)
_CROSSING_GRID = 4096
# gain factors above this are reported as an infinite margin
_MAX_GAIN_FACTOR = 1e6
# relative size under which a branch condition counts as "on its boundary"
_BOUNDARY_TOLERANCE = 1e-9


# =============================================================================== results


@dataclass(frozen=True)
class LoopSymbolic:
    """A loop's transfer functions as sympy expressions in z.

    Attributes
    ----------
    transfers : dict
        ``{(output, input): expression in z}`` (see :data:`OUTPUTS`,
        :data:`INPUTS`); in the law's gain symbols when the law is affine
        and ``numeric=False``, else with numbers.
    characteristic : sympy.Expr
        Monic characteristic polynomial in z (roots at z = 0 dropped).
    controller : sympy.Expr or None
        C(z) of a window law: its window increment over the error it sees.
    rate_characteristic : sympy.Expr or None
        A rate loop's polynomial without the queue (the excess an input).
    """

    transfers: dict
    characteristic: sp.Expr
    controller: object = None
    rate_characteristic: object = None

    def transfer(self, output, input):
        """The transfer function from *input* to *output*."""
        try:
            return self.transfers[(output, input)]
        except KeyError:
            outputs = sorted({o for o, _ in self.transfers})
            inputs = sorted({i for _, i in self.transfers})
            raise ParameterError(f"(output, input) must be one of outputs {outputs} and inputs "
                                 f"{inputs}; got ({output!r}, {input!r})") from None


@dataclass(frozen=True)
class LoopResponse(Unpackable):
    """A window loop's response to one loss, thesis eqs. (4.13)-(4.17).

    Unpacks like python-control's ``TimeResponseData``:
    ``time, arrival = loop.loss_response(p, n)``.

    Attributes
    ----------
    time : ndarray
        Step index n = 0 .. n-1. [slots] (per RTT: [round trips])
    arrival : ndarray
        a(n), the arrival rate [packets/slot] (per RTT: the window w(k)
        [packets]).
    occupancy : ndarray
        b(n) of the linear(ised) queue. [packets]
    reference : ndarray
        r(n): the reference step plus the loss pulse, eq. (4.15). [packets]
    departure : ndarray
        d(n): 1 packet/slot (per RTT: the pipe, m packets).
    gains : dict
        The law's gains. [1]
    m : int
        Round trip. [slots]
    p : int
        First step of the loss disturbance.
    model : str
    method : str
        ``"z_transform"`` (inverse z-transform of the derived, linearised
        loop) or ``"iteration"`` (the law's own function iterated on the
        plant, nonlinear if the law is).
    law : str
        The law's name.
    """

    time: np.ndarray
    arrival: np.ndarray
    occupancy: np.ndarray
    reference: np.ndarray
    departure: np.ndarray
    gains: dict
    m: int
    p: int
    model: str
    method: str
    law: str = ""

    _unpack = ("time", "arrival")

    @property
    def outputs(self):
        """``arrival``, the name python-control uses."""
        return self.arrival

    def plot(self, ax=None, label=None):
        """Plot the arrival (window) and the queue; returns the axes.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
            Axes to draw on (default: a new figure).
        label : str, optional
            Legend prefix (default: the law's name).
        """
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots()
        name = label or self.law or "law"
        unit = "[packets/slot]" if self.model == "per_slot" else "[packets]"
        ax.plot(self.time, self.arrival, label=f"{name}: arrival {unit}")
        ax.plot(self.time, self.occupancy, "--", label=f"{name}: queue [packets]")
        ax.axvline(self.p, color="grey", lw=0.8, ls=":")
        ax.set_xlabel("step n [slots]" if self.model == "per_slot" else "round trip k")
        ax.set_ylabel(f"arrival {unit}, queue [packets]")
        ax.set_title(f"Loss response, Xu (2002) eqs. (4.13)-(4.17), m = {self.m}")
        ax.legend()
        return ax


@dataclass(frozen=True)
class Margins:
    """Gain and phase margins of a loop (:meth:`ClosedLoop.margins`).

    Attributes
    ----------
    gain_margin : float
        Largest K such that the loop with K L(z) is stable for every K' in
        (0, K]; 0 if unstable for arbitrarily small K, inf if none up to
        1e6. [1]
    phase_margin : float
        180 + arg L at the unit-circle gain crossover ``|L| = 1`` (the smallest
        over crossovers), inf if ``|L|`` never crosses 1. [deg]
    phase_crossover : float
        Frequency of the crossing that sets the gain margin (nan if none).
        [rad/step]
    gain_crossover : float
        Frequency of the crossover that sets the phase margin (nan if
        none). [rad/step]
    """

    gain_margin: float
    phase_margin: float
    phase_crossover: float
    gain_crossover: float


@dataclass(frozen=True)
class StabilityRegion:
    """Stability of a loop over a grid of two of its law's gains.

    Attributes
    ----------
    names : tuple of str
        The two gains (rows, columns).
    values : tuple of ndarray
        Their grids. [1]
    stable : ndarray of bool
        ``stable[i, j]``: every pole of the loop with ``names[0] =
        values[0][i]``, ``names[1] = values[1][j]`` (the other gains as in
        the law) strictly inside the unit circle (Schur-Cohn).
    defined : ndarray of bool
        Where the loop exists (a linearised law may have no fixed point at
        some gains; there ``stable`` is False).
    m : int
    model : str
    law : str
    linearised : bool
    """

    names: tuple
    values: tuple
    stable: np.ndarray
    defined: np.ndarray
    m: int
    model: str
    law: str
    linearised: bool

    def plot(self, ax=None, marker=None):
        """Shade the stable region; returns the axes.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
        marker : (float, float), optional
            A gain pair to mark (e.g. the law's own).
        """
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots()
        x, y = self.values
        ax.contourf(x, y, self.stable.T.astype(float), levels=[-0.5, 0.5, 1.5],
                    colors=["#f2d0d0", "#cfe8cf"])
        ax.contour(x, y, self.stable.T.astype(float), levels=[0.5], colors="k",
                   linewidths=0.8)
        if marker is not None:
            ax.plot(*marker, "k*", ms=10, label=f"{self.names[0]}, {self.names[1]}")
            ax.legend()
        ax.set_xlabel(f"{self.names[0]} [1]")
        ax.set_ylabel(f"{self.names[1]} [1]")
        kind = "linearised " if self.linearised else ""
        ax.set_title(f"Stable gains (green) of the {kind}{self.law} loop, m = {self.m}, "
                     f"{self.model}\n(Xu (2002) §4.3 plant)")
        return ax


# =============================================================================== the loop


@dataclass(frozen=True, eq=False)
class ClosedLoop:
    """A law's closed loop (build it with :func:`closed_loop`).

    Attributes
    ----------
    law : WindowLaw or RateLaw
    m : int
        Round trip. [slots]
    model : str
        ``"per_slot"`` or ``"per_rtt"`` (window laws).
    delays : dict
        Delays in steps: ``{"error": m or 1}`` (window), ``{"previous": m,
        "forward": f, "excess": 1 + m - f + d}`` (rate). [steps]
    capacity : float
        Bottleneck rate of a rate loop (1: rates in packets/slot).
        [packets/s]
    ftt_ref : float
        FTT_ref of a rate loop. [slots]
    linearised : bool
        True when the law is not affine in its signals (or branches on one)
        and the loop is its linearisation at :attr:`operating_point`.
    operating_point : dict or None
        The signals (and memory) at which the law was linearised.
    jacobian : ndarray
        Partial derivatives of (new value, new memory) with respect to the
        law's arguments (signals then memory) at the operating point (for
        an affine law: anywhere).

    References
    ----------
    Xu (2002), eqs. (4.1)-(4.11); Chatté, Ducourthial & Niculescu (2006),
    §III.

    Examples
    --------
    >>> from ctlcc.laws.user import pd_law
    >>> loop = closed_loop(pd_law(0.033, 0.368), 3)
    >>> loop
    ClosedLoop('pd', m=3, model='per_slot', gains={'kp': 0.033, 'kd': 0.368}, stable=True)
    """

    law: object
    m: int
    model: str
    delays: dict
    capacity: float
    ftt_ref: float
    linearised: bool
    operating_point: object
    jacobian: np.ndarray = field(repr=False)
    _bias: np.ndarray = field(repr=False)
    _structure: object = field(repr=False)
    _generic: object = field(repr=False)
    _pinned: tuple = field(repr=False, default=())

    def __repr__(self):
        how = "linearised at its fixed point" if self.linearised else ""
        point = ""
        if self.linearised and self.operating_point:
            point = " (" + ", ".join(f"{k}={_round(v)}" for k, v in self.operating_point.items()
                                     if not k.startswith("new_")) + ")"
        what = f"{self.law.name!r} {how}{point}".rstrip()
        return (f"ClosedLoop({what}, m={self.m}, model={self.model!r}, "
                f"gains={self.law.gains!r}, stable={self.is_stable()})")

    @property
    def kind(self):
        """``"window"`` or ``"rate"``."""
        return self.law.kind

    @property
    def gains(self):
        """The law's gains. [1]"""
        return self.law.gains

    # -- polynomial and poles ------------------------------------------------

    def characteristic_polynomial(self, include_queue=True):
        """Monic characteristic polynomial, highest power of z first.

        Roots at z = 0 that hold for every gain (pure delays) are dropped;
        for a linearised law also trailing coefficients that cancel to
        rounding (relative 1e-12).

        Parameters
        ----------
        include_queue : bool, optional
            False (rate loops only): the rate loop alone, the excess an
            input (Primo's per-regime polynomial).

        References
        ----------
        Xu (2002), eq. (4.11) (its denominator, the law's C(z) in place of the PD's).

        Examples
        --------
        >>> from ctlcc.laws.user import pd_law
        >>> closed_loop(pd_law(0.033, 0.368), 3).characteristic_polynomial().round(3).tolist()
        [1.0, -2.0, 1.0, 0.401, -0.368]
        """
        check_bool("include_queue", include_queue)
        if not include_queue and self.kind != "rate":
            raise ParameterError("include_queue=False is for rate loops (the excess as an "
                                 "input); a window loop always closes through the queue; got "
                                 "include_queue=False")
        part = "det" if include_queue else "rate_det"
        coefficients = self._coefficients(part, self._parameters())
        if self.linearised:
            # numbers, not symbols: a trailing coefficient that cancels to rounding is a
            # root at z = 0 of the linearisation (e.g. a memory entry that only repeats
            # the error), dropped like the structural ones
            scale = np.max(np.abs(coefficients))
            while coefficients.size > 1 and abs(coefficients[-1]) <= 1e-12 * scale:
                coefficients = coefficients[:-1]
        return coefficients

    def poles(self, include_queue=True) -> np.ndarray:
        """Closed-loop poles, sorted by real then imaginary part.

        References
        ----------
        Xu (2002), §4.3.3.

        Examples
        --------
        >>> from ctlcc.laws.user import pd_law
        >>> np.round(closed_loop(pd_law(0.033, 0.368), 3).poles(), 4)
        array([-0.5023+0.j    ,  0.8031-0.4155j,  0.8031+0.4155j,  0.8961+0.j    ])
        """
        return np.sort_complex(np.roots(self.characteristic_polynomial(include_queue))
                               .astype(complex))

    def spectral_radius(self, include_queue=True) -> float:
        """Largest pole magnitude. [1]"""
        return float(np.max(np.abs(self.poles(include_queue)), initial=0.0))

    def is_stable(self, include_queue=True) -> bool:
        """True if every pole lies strictly inside the unit circle.

        The one stability test of ctlcc: the Schur-Cohn recursion of
        :func:`ctlcc.analysis.stability.schur_stable` (tolerance
        :data:`~ctlcc.analysis.stability.STABILITY_TOLERANCE`), also used by
        :func:`ctlcc.stpd_loop`, :func:`~ctlcc.analysis.stability_region`,
        :func:`~ctlcc.analysis.max_stable_delay` and the margins.  For a
        linearised law this is stability of the linearisation (local).

        References
        ----------
        E. I. Jury, *Theory and Application of the z-Transform Method*, 1964.

        Examples
        --------
        >>> from ctlcc.laws.user import pd_law
        >>> closed_loop(pd_law(1.5, 0.0), 1).is_stable()  # pole at z = -1
        False
        """
        return bool(schur_stable(self.characteristic_polynomial(include_queue)))

    def require_stable(self, quantity="this quantity"):
        """Raise :class:`UnstableLoopError` unless stable; the radius."""
        if not isinstance(quantity, str):
            raise ParameterError(f"quantity must be a str, got {quantity!r}")
        radius = self.spectral_radius()
        if not self.is_stable():
            raise UnstableLoopError(
                f"{quantity} is undefined: the loop of {self.law.name!r} ({_gain_text(self.gains)}, "
                f"m={self.m}, model={self.model!r}) is unstable, spectral radius {radius:.6g} "
                f"(a pole on or outside the unit circle up to the Schur-Cohn tolerance "
                f"{STABILITY_TOLERANCE:g})", spectral_radius=radius)
        return radius

    # -- transfer functions --------------------------------------------------

    def symbolic(self, numeric=True) -> LoopSymbolic:
        """Transfer functions and characteristic polynomial in sympy.

        Parameters
        ----------
        numeric : bool, optional
            Substitute the gains (as exact rationals of their decimal
            values).  With False an affine law's results are in its gain
            symbols (``sympy.Symbol(name, real=True)``); a linearised law's
            always carry numbers.

        References
        ----------
        Xu (2002), eqs. (4.9)-(4.11).

        Examples
        --------
        >>> from ctlcc.laws.user import pd_law
        >>> symbolic = closed_loop(pd_law(0.1, 0.2), 1, model="per_rtt").symbolic(numeric=False)
        >>> symbolic.characteristic
        -kd + z**2 + z*(kd + kp - 1)
        >>> symbolic.controller
        (kd*z - kd + kp*z)/z
        """
        check_bool("numeric", numeric)
        values = self._symbolic_values(numeric)
        transfers = {}
        for output in OUTPUTS[self.kind]:
            for source in INPUTS[self.kind]:
                transfers[(output, source)] = sp.cancel(
                    self._symbolic_expression(("transfer", output, source)).subs(values))
        characteristic = self._symbolic_characteristic(values)
        controller = rate_characteristic = None
        if self.kind == "window":
            controller = sp.cancel(self._symbolic_expression(("controller",)).subs(values))
        else:
            rate_characteristic = self._symbolic_characteristic(values, "rate_det")
        return LoopSymbolic(transfers, characteristic, controller, rate_characteristic)

    def transfer_function(self, output=None, input=None):
        """Closed-loop transfer function (python-control, dt = 1).

        Built from the exact polynomials in z of the derivation (no
        ``z**-1`` chains are handed to python-control).

        Parameters
        ----------
        output : str, optional
            ``"arrival"`` (default) or ``"occupancy"`` for window loops,
            ``"rate"`` (default) or ``"occupancy"`` for rate loops.
        input : str, optional
            ``"reference"`` (default) or ``"departure"``; ``"received"``
            (default) or ``"service"``.

        Returns
        -------
        control.TransferFunction
            Discrete time, ``dt = 1`` (one slot; per RTT one round trip).

        References
        ----------
        Xu (2002), eqs. (4.9)-(4.11).

        Examples
        --------
        >>> from ctlcc.laws.user import pd_law
        >>> tf = closed_loop(pd_law(0.033, 0.368), 3).transfer_function()
        >>> tf.dt, np.round(tf.num[0][0], 3).tolist()
        (1, [0.401, -0.769, 0.368])
        """
        output = OUTPUTS[self.kind][0] if output is None else output
        input = INPUTS[self.kind][0] if input is None else input
        check_choice("output", output, OUTPUTS[self.kind])
        check_choice("input", input, INPUTS[self.kind])
        numerator, denominator = self._ratio(("transfer", output, input))
        return control.tf(numerator, denominator, dt=1)

    def open_loop(self):
        """Loop transfer function L(z); ``1 + L = 0`` is the loop's.

        The loop is cut where the law reads its measurement: the error (a
        window law) or the excess (a rate law).  ``L = -y/v`` with v the
        law's input and y the measurement the plant returns.

        References
        ----------
        Xu (2002), eqs. (4.1), (4.6), (4.7).

        Examples
        --------
        >>> from ctlcc.laws.user import pd_law
        >>> L = closed_loop(pd_law(0.033, 0.368), 3).open_loop()
        >>> np.round(L.num[0][0], 3).tolist(), np.round(L.den[0][0], 3).tolist()
        ([0.401, -0.368], [1.0, -2.0, 1.0, 0.0, 0.0])
        """
        numerator, denominator = self._ratio(("open_loop",))
        return control.tf(numerator, denominator, dt=1)

    def controller(self):
        """C(z) of a window law: window increment over its error.

        ``(1 - z**-1) W(z) = C(z) E(z)`` for the law alone (its memory
        included); the loop is eq. (4.1)'s with this C(z) in place of the
        PD's ``kp + kd (1 - z**-1)``.

        References
        ----------
        Xu (2002), eq. (4.1).

        Examples
        --------
        >>> from ctlcc.laws.user import pd_law
        >>> C = closed_loop(pd_law(0.033, 0.368), 3).controller()
        >>> np.round(C.num[0][0], 3).tolist(), C.den[0][0].tolist()
        ([0.401, -0.368], [1.0, 0.0])
        """
        if self.kind != "window":
            raise ParameterError("controller() is defined for window laws (the increment over "
                                 f"the error); got a {self.kind} law")
        numerator, denominator = self._ratio(("controller",))
        return control.tf(numerator, denominator, dt=1)

    # -- margins -------------------------------------------------------------

    def gain_margin(self, method="crossing") -> float:
        """Largest K with the loop stable for every gain K' L, K' <= K.

        0 if the loop is unstable for arbitrarily small K, inf if no K up
        to 1e6 destabilises it.  A nominal loop (K = 1) is stable iff its
        margin exceeds 1.  For laws whose L is proportional to all gains
        (PD, PI) K scales every gain at once.

        Parameters
        ----------
        method : {"crossing", "bisection"}, optional
            Root-locus crossings of the unit circle, ``K = -P0/N`` real and
            positive on ``z = e^{jw}``, scanned on w in (0, pi] (z = 1, an
            integrator in most window loops, python-control issue #544, is
            excluded and decided by one stability test), refined with
            Brent's method; or bisection on K of the Schur-Cohn test.

        References
        ----------
        E. I. Jury, *Theory and Application of the z-Transform Method*, 1964.

        Examples
        --------
        >>> from ctlcc.laws.user import pd_law
        >>> round(closed_loop(pd_law(0.033, 0.368), 3).gain_margin(), 4)
        1.4474
        """
        check_choice("method", method, ("crossing", "bisection"))
        base, part = self._margin_polynomials()
        if method == "bisection":
            return margin_by_bisection(base, part)
        return margin_by_crossing(base, part)[0]

    def phase_margin(self) -> float:
        """Phase margin: 180 deg plus arg L where ``|L| = 1``. [deg]

        Computed on the unit circle away from z = 1 (python-control issue
        #544: an integrator there); inf when ``|L|`` never crosses 1.

        References
        ----------
        E. I. Jury, *Theory and Application of the z-Transform Method*, 1964.

        Examples
        --------
        >>> from ctlcc.laws.user import pd_law
        >>> round(closed_loop(pd_law(0.033, 0.368), 3).phase_margin(), 2)
        21.23
        """
        return self.margins().phase_margin

    def margins(self) -> Margins:
        """Gain and phase margins with their crossover frequencies.

        References
        ----------
        E. I. Jury, *Theory and Application of the z-Transform Method*, 1964.

        Examples
        --------
        >>> from ctlcc.laws.user import pd_law
        >>> margins = closed_loop(pd_law(0.033, 0.368), 3).margins()
        >>> round(margins.gain_margin, 4), round(margins.phase_margin, 2)
        (1.4474, 21.23)
        """
        base, part = self._margin_polynomials()
        gain, w_phase = margin_by_crossing(base, part)
        phase, w_gain = _phase_margin(base, part)
        return Margins(gain, phase, w_phase, w_gain)

    # -- responses -----------------------------------------------------------

    def loss_response(self, p: int, n: int, method: str = "z_transform") -> LoopResponse:
        """Response of a window loop to one loss, eqs. (4.13)-(4.17).

        The loop starts empty at n = 0, the reference steps to the law's
        ``reference`` (4.14) and the bottleneck serves one packet per slot,
        ``D(z) = 1/(1 - z**-1)``.  A loss at step p lowers the measured
        occupancy by one packet for one round trip: unit impulses on the
        reference over steps p .. p + m (4.15) (per RTT: step p only, the
        departure the pipe of m packets per round trip).  An unstable loop
        is allowed: its response grows.

        Parameters
        ----------
        p : int
            Step at which the loss disturbs the queue, >= 0.
        n : int
            Number of steps returned, >= 1.
        method : {"z_transform", "iteration"}, optional
            ``"z_transform"``: the inverse z-transform (python-control) of
            the derived loop (linearised, for a linearised law).
            ``"iteration"``: the law's own function iterated on the plant
            (the nonlinear law, for a linearised one); the two agree for an
            affine law.

        Returns
        -------
        LoopResponse

        References
        ----------
        Xu (2002), eqs. (4.13)-(4.18), Fig. 4.5.

        Examples
        --------
        >>> from ctlcc.laws.user import pd_law
        >>> t, a = closed_loop(pd_law(0.033, 0.368), 3).loss_response(p=100, n=130)
        >>> round(float(a[99]), 3), round(float(a[100:].max()), 3)
        (1.0, 1.467)
        """
        if self.kind != "window":
            raise ParameterError("loss_response is defined for window loops (a loss lowers the "
                                 "measured backlog, eq. 4.13); a rate law's signals do not "
                                 f"carry losses; got a {self.kind} law")
        p = check_nonnegative_int("p", p, maximum=MAX_RESPONSE_STEPS)
        n = check_positive_int("n", n, maximum=MAX_RESPONSE_STEPS)
        check_choice("method", method, ("z_transform", "iteration"))
        time = np.arange(n)
        reference = np.full(n, self._reference_level)
        reference[(time >= p) & (time < p + self._pulse_length)] += 1.0
        departure = np.full(n, self._departure_level)
        if method == "iteration":
            arrival, occupancy = self._iterate(reference, departure)
        else:
            arrival = self._loss_system("arrival", p, n)
            occupancy = self._loss_system("occupancy", p, n)
        return LoopResponse(time, arrival, occupancy, reference, departure, self.gains, self.m,
                            p, self.model, method, self.law.name)

    # -- stability over gains ------------------------------------------------

    def stability_region(self, **grids) -> StabilityRegion:
        """Stability over a grid of two of the law's gains.

        Parameters
        ----------
        **grids
            Exactly two gains, each a non-empty 1-D array. [1]

        Returns
        -------
        StabilityRegion

        References
        ----------
        Xu (2002), eq. (4.11) (its denominator).

        Examples
        --------
        >>> from ctlcc.laws.user import pd_law
        >>> region = closed_loop(pd_law(0.033, 0.368), 3).stability_region(
        ...     kp=[0.033, 0.368], kd=[0.033, 0.368])
        >>> region.stable.tolist()
        [[False, True], [False, False]]
        """
        names = tuple(grids)
        if len(names) != 2:
            raise ParameterError(f"stability_region takes exactly two gains of the law "
                                 f"({', '.join(self.gains)}), got {len(names)}: {names!r}")
        for name in names:
            if name not in self.gains:
                raise ParameterError(f"{name} is not a gain of {self.law.name!r}; its gains are "
                                     f"{', '.join(self.gains)} (got {name}=...)")
        first = _as_vector(names[0], grids[names[0]])
        second = _as_vector(names[1], grids[names[1]])
        values = {name: np.asarray(value, dtype=float) for name, value in self.gains.items()}
        values[names[0]] = first[:, None]
        values[names[1]] = second[None, :]
        shape = (first.size, second.size)
        coefficients, defined = self._coefficients_over_gains("det", values, shape)
        stable = _schur_stable_rows([np.broadcast_to(c, shape) for c in coefficients])
        stable = np.asarray(stable) & defined
        return StabilityRegion(names, (first, second), stable, defined, self.m, self.model,
                               self.law.name, self.linearised)

    def characteristic_coefficients(self, include_queue=True, **gains):
        """Characteristic coefficients for arrays of gains.

        Parameters
        ----------
        include_queue : bool, optional
            As in :meth:`characteristic_polynomial`.
        **gains
            Gains to vary (arrays broadcast against each other); the others
            as in the law. [1]

        Returns
        -------
        ndarray
            Shape ``broadcast shape + (degree + 1,)``, highest power of z
            first, monic; rows where a linearised law has no fixed point
            are NaN.

        References
        ----------
        Xu (2002), eq. (4.11) (its denominator).

        Examples
        --------
        >>> from ctlcc.laws.user import pd_law
        >>> closed_loop(pd_law(0.1, 0.0), 1).characteristic_coefficients(kp=[0.1, 0.2]).tolist()
        [[1.0, -1.9, 1.0], [1.0, -1.8, 1.0]]
        """
        check_bool("include_queue", include_queue)
        if not include_queue and self.kind != "rate":
            raise ParameterError("include_queue=False is for rate loops; got include_queue=False "
                                 "for a window loop")
        values = {name: np.asarray(value, dtype=float) for name, value in self.gains.items()}
        for name, value in gains.items():
            if name not in values:
                raise ParameterError(f"{name} is not a gain of {self.law.name!r}; its gains are "
                                     f"{', '.join(values)} (got {name}={value!r})")
            values[name] = np.asarray(check_finite(name, value), dtype=float)
        try:
            shape = np.broadcast_shapes(*(v.shape for v in values.values()))
        except ValueError:
            shapes = ", ".join(f"{k}: {np.shape(v)}" for k, v in gains.items())
            raise ParameterError(f"the gains must broadcast against each other; got shapes "
                                 f"{shapes}") from None
        part = "det" if include_queue else "rate_det"
        coefficients, defined = self._coefficients_over_gains(part, values, shape)
        out = np.stack([np.broadcast_to(c, shape) for c in coefficients], axis=-1).astype(float)
        out[~defined] = np.nan
        return out

    # -- private -------------------------------------------------------------

    @property
    def _reference_level(self):
        return float(self.law.mechanics["reference"])

    @property
    def _pulse_length(self):
        return self.m + 1 if self.model == "per_slot" else 1

    @property
    def _departure_level(self):
        return 1.0 if self.model == "per_slot" else float(self.m)

    def _powers(self):
        """Exponent of z**-1 of each shift symbol of the generic derivation."""
        if self.kind == "window":
            return (1, self.delays["error"])
        return (1, self.delays["previous"], self.delays["forward"], self.delays["excess"])

    def _plant_values(self):
        if self.kind == "window":
            return {}
        return {_CINV: 1.0 / self.capacity, _PHIINV: 1.0 / self.ftt_ref}

    def _parameters(self):
        """{generic symbol: number} for this loop (Jacobian, bias, plant)."""
        out = dict(self._plant_values())
        for symbol, (row, column) in self._generic.jacobian_symbols.items():
            out[symbol] = float(self.jacobian[row, column])
        for symbol, row in self._generic.bias_symbols.items():
            out[symbol] = float(self._bias[row])
        return out

    def _coefficients(self, part, parameters):
        terms = _terms_function(self._generic, part, self._powers())
        coefficients = terms(parameters)
        return np.array([float(c) for c in coefficients])

    def _coefficients_over_gains(self, part, gain_values, shape):
        """Characteristic coefficients (list of arrays) and the defined mask."""
        structure = self._structure
        plant = self._plant_values()
        if not self.linearised:
            jac, bias = structure.affine_functions()
            args = [gain_values[name] for name in structure.gain_names]
            parameters = dict(plant)
            matrix = jac(*args)
            vector = bias(*args)
            for symbol, (row, column) in self._generic.jacobian_symbols.items():
                parameters[symbol] = np.asarray(matrix[row][column], dtype=float)
            for symbol, row in self._generic.bias_symbols.items():
                parameters[symbol] = np.asarray(vector[row], dtype=float)
            terms = _terms_function(self._generic, part, self._powers())
            rows = [np.broadcast_to(np.asarray(c, dtype=float), shape) for c in terms(parameters)]
            return rows, np.ones(shape, dtype=bool)
        # a linearised law: its fixed point, hence its Jacobian, moves with the gains
        flat = {name: np.broadcast_to(value, shape).ravel() for name, value in gain_values.items()}
        fast = _vectorised_linearisation(structure, self.model, self.m, self.capacity,
                                         self._pinned, self._reference_or_none())
        if fast is not None:
            jacobian, bias, defined, generic = fast(flat)
            parameters = dict(plant)
            for symbol, (row, column) in generic.jacobian_symbols.items():
                parameters[symbol] = jacobian[:, row, column]
            for symbol, row in generic.bias_symbols.items():
                parameters[symbol] = bias[:, row]
            terms = _terms_function(generic, part, self._powers())
            with np.errstate(invalid="ignore", divide="ignore"):
                rows = [np.broadcast_to(np.asarray(c, dtype=float), defined.shape)
                        for c in terms(parameters)]
            table = np.stack(rows, axis=-1)
            table[~defined] = 0.0
            table[~defined, 0] = 1.0   # a harmless monic row, masked by `defined`
            return ([table[:, k].reshape(shape) for k in range(table.shape[1])],
                    defined.reshape(shape))
        rows, defined = [], np.ones(int(np.prod(shape, dtype=int)), dtype=bool)
        terms = _terms_function(self._generic, part, self._powers())
        for index in range(defined.size):
            gains = {name: float(value[index]) for name, value in flat.items()}
            try:
                law = self.law.with_gains(**gains)
                point = _linearise(law, structure, self.model, self.m, self.capacity,
                                   self._pinned)
            except (LinearisationError, LawError):
                defined[index] = False
                rows.append(None)
                continue
            jacobian, bias, _ = point
            generic, point_terms = self._generic, terms
            if not _same_pattern(jacobian, bias, generic):   # a zero entry turned nonzero
                generic = _generic_loop(self.kind, self.model, self.law.memory,
                                        _pattern(jacobian, bias, structure))
                point_terms = _terms_function(generic, part, self._powers())
            parameters = dict(plant)
            for symbol, (row, column) in generic.jacobian_symbols.items():
                parameters[symbol] = float(jacobian[row, column])
            for symbol, row in generic.bias_symbols.items():
                parameters[symbol] = float(bias[row])
            rows.append([float(c) for c in point_terms(parameters)])
        width = max((len(r) for r in rows if r is not None), default=1)
        table = np.zeros((defined.size, width))      # shorter rows: roots at z = 0
        for index, row in enumerate(rows):
            if row is not None:
                table[index, :len(row)] = row
        table[~defined] = 1.0          # a harmless monic row, masked by `defined`
        return ([table[:, k].reshape(shape) for k in range(width)], defined.reshape(shape))

    def _reference_or_none(self):
        return float(self.law.mechanics["reference"]) if self.kind == "window" else None

    def _margin_polynomials(self):
        """P0 (the open loop's determinant) and N (L's numerator), highest power first."""
        parameters = self._parameters()
        base = _terms_function(self._generic, "open_det", self._powers(), strip=False)(
            parameters)
        part = _terms_function(self._generic, "open_num", self._powers(), strip=False)(
            parameters)
        size = max(len(base), len(part))
        base = np.array([float(c) for c in base] + [0.0] * (size - len(base)))
        part = np.array([float(c) for c in part] + [0.0] * (size - len(part)))
        scale = base[0]
        return base / scale, part / scale

    def _symbolic_values(self, numeric):
        """Substitution from generic symbols to the law's (gain symbols or numbers)."""
        values = {symbol: sp.nsimplify(value) for symbol, value in self._plant_values().items()}
        if self.linearised or numeric:
            for symbol, (row, column) in self._generic.jacobian_symbols.items():
                values[symbol] = _exact(self.jacobian[row, column], numeric or self.linearised)
            for symbol, row in self._generic.bias_symbols.items():
                values[symbol] = _exact(self._bias[row], True)
            return values
        jac, bias = self._structure.affine_expressions()
        for symbol, (row, column) in self._generic.jacobian_symbols.items():
            values[symbol] = jac[row, column]
        for symbol, row in self._generic.bias_symbols.items():
            values[symbol] = bias[row]
        return values

    def _symbolic_expression(self, what):
        """A generic rational expression with the delays substituted (in z)."""
        expression = self._generic.expressions[what]
        shifts = dict(zip(self._generic.shifts, (z**-power for power in self._powers())))
        return expression.subs(shifts)

    def _symbolic_characteristic(self, values, part="det"):
        coefficients = _symbolic_coefficients(self._generic, part, self._powers())
        coefficients = [sp.expand(c.subs(values)) for c in coefficients]
        while len(coefficients) > 1 and coefficients[-1] == 0:
            coefficients.pop()        # roots at z = 0
        lead = coefficients[0]
        degree = len(coefficients) - 1
        return sp.collect(sp.expand(sum(sp.cancel(c / lead) * z ** (degree - k)
                                        for k, c in enumerate(coefficients))), z)

    def _ratio(self, what):
        """Numerator, denominator (highest power first, monic denominator) of a transfer."""
        plant = (1.0 / self.capacity, 1.0 / self.ftt_ref) if self.kind == "rate" else ()
        if self.linearised:
            numerator, denominator = _ratio_functions(self._generic, what, self._powers(),
                                                      plant, None)
            parameters = self._parameters()
            args = [parameters[s] for s in self._generic.parameter_symbols()]
        else:
            numerator, denominator = _ratio_functions(self._generic, what, self._powers(),
                                                      plant, self._structure)
            args = list(self.gains.values())
        num = np.atleast_1d(np.asarray(numerator(*args), dtype=float))
        den = np.atleast_1d(np.asarray(denominator(*args), dtype=float))
        return num / den[0], den / den[0]

    def _ratio_delay(self, what):
        """A transfer as (b, a) in ascending powers of z**-1."""
        num, den = self._ratio(what)
        if num.size > den.size:
            raise ArithmeticError("improper closed-loop transfer function")
        return np.concatenate([np.zeros(den.size - num.size), num]), den

    def _loss_system(self, output, p, n):
        """Inverse z-transform of the loss response of *output* (python-control)."""
        pulse = self._pulse_length
        # R(z)(1 - z**-1) = ref + z**-p - z**-(p+pulse); D(z)(1 - z**-1) = level;
        # the bias input (a linearised law's constant term) is a unit step.
        reference = np.zeros(p + pulse + 1)
        reference[0] += self._reference_level
        reference[p] += 1.0
        reference[p + pulse] -= 1.0
        sources = [(("transfer", output, "reference"), reference),
                   (("transfer", output, "departure"), np.array([self._departure_level]))]
        if np.any(self._bias != 0):
            sources.append((("bias", output), np.array([1.0])))
        pairs = [(self._ratio_delay(what), signal) for what, signal in sources]
        numerator = np.zeros(1)
        for index, ((b, _), signal) in enumerate(pairs):
            term = np.convolve(b, signal)
            for other, ((_, a), _) in enumerate(pairs):
                if other != index:
                    term = np.convolve(term, a)
            numerator = _add_ascending(numerator, term)
        denominator = pairs[0][0][1]
        for (_, a), _ in pairs[1:]:
            denominator = np.convolve(denominator, a)
        denominator = np.convolve(denominator, [1.0, -1.0])
        size = max(numerator.size, denominator.size)
        numerator = _add_ascending(numerator, np.zeros(size))
        denominator = _add_ascending(denominator, np.zeros(size))
        system = control.tf(numerator, denominator, dt=1)
        return control.impulse_response(system, timepts=np.arange(n)).outputs.astype(float)

    def _iterate(self, reference, departure):
        """Iterate the law's own function on the plant's difference equations."""
        n = reference.size
        arrival, occupancy, error = np.zeros(n), np.zeros(n), np.zeros(n)
        delay = self.delays["error"]
        measure = None if self.model == "per_slot" else _per_rtt_measurement_function()
        memory = (0.0,) * self.law.memory
        update, gains = self.law.update, self.law.gains

        def past(sequence, k):
            return sequence[k] if k >= 0 else 0.0

        for k in range(n):
            value, memory = update(past(arrival, k - 1), past(error, k - delay), memory, **gains)
            arrival[k] = value
            if measure is None:
                occupancy[k] = _plant.queue_step_linear(past(occupancy, k - 1), arrival[k],
                                                        departure[k])
            else:
                occupancy[k] = measure(arrival[k], departure[k])
            error[k] = _stpd_law.control_error(reference[k], occupancy[k])
        return arrival, occupancy

    def _loss_deviation(self, cycle):
        """h(n): deviation of a(n) caused by one loss pulse at n = 0."""
        radius = self.spectral_radius()
        settle = int(np.ceil(np.log(_SETTLE_TOLERANCE) / np.log(max(radius, 1e-300))))
        length = max(cycle, self.m + 1 + max(settle, 1))
        if length > MAX_RESPONSE_STEPS:
            raise ParameterError(
                f"the loop settles too slowly (spectral radius {radius:.9g}); the loss "
                f"response would need {length} slots > {MAX_RESPONSE_STEPS}")
        b, a = self._ratio_delay(("transfer", "arrival", "reference"))
        pulse = np.zeros(length)
        pulse[: self._pulse_length] = 1.0
        return scipy.signal.lfilter(b, a, pulse)


# =============================================================================== builder


def closed_loop(law, m, *, model="per_slot", excess=None, D=None, forward_delay=0,
                ftt_ref=None, capacity=1.0) -> ClosedLoop:
    """The closed loop of a window or rate law, from its function.

    Parameters
    ----------
    law : WindowLaw or RateLaw
        The law (:class:`ctlcc.WindowLaw`, :class:`ctlcc.RateLaw`).
    m : int
        Round trip in bottleneck slots, 1 .. :data:`MAX_SLOTS`; for a
        saturating window flow also its bandwidth-delay product. [slots]
    model : {"per_slot", "per_rtt"}, optional
        Window laws: the thesis's per-slot loop (4.1) or the per-round-trip
        loop packets follow (see the module docstring).  Rate laws:
        "per_slot" only.
    excess : float, optional
        Rate laws: linearise at this excess ΔFTT_D / FTT_ref (e.g. inside
        one of Primo's regimes) instead of at the loop's fixed point. [1]
    D : int, optional
        Rate laws: the ΔFTT lookup delay, default ``round(tau * m)`` with
        the law's ``tau``. [slots]
    forward_delay : int, optional
        Rate laws: sender -> bottleneck delay f, in [0, m]. [slots]
    ftt_ref : float, optional
        Rate laws: FTT_ref, > 0, default m / 2 (symmetric links). [slots]
    capacity : float, optional
        Rate laws: the bottleneck rate in the law's units (default 1: rates
        in packets per slot). [packets/s]

    Returns
    -------
    ClosedLoop

    Raises
    ------
    LinearisationError
        The law cannot be linearised: it does not accept sympy symbols,
        branches with a Python ``if`` on a signal, has no fixed point or a
        continuum of them, or is not differentiable at its fixed point.

    References
    ----------
    Xu (2002), eqs. (4.1)-(4.11); Chatté, Ducourthial & Niculescu (2006),
    §III.

    Examples
    --------
    >>> from ctlcc.laws.user import pd_law
    >>> loop = closed_loop(pd_law(0.033, 0.368), 3)
    >>> loop.is_stable(), round(loop.spectral_radius(), 4), loop.linearised
    (True, 0.9042, False)
    """
    if not isinstance(law, (WindowLaw, RateLaw)):
        raise ParameterError(f"law must be a WindowLaw or a RateLaw (ctlcc.WindowLaw, "
                             f"ctlcc.RateLaw), got {type(law).__name__} {law!r}")
    m = check_positive_int("m", m, maximum=MAX_SLOTS)
    if law.kind == "window":
        check_choice("model", model, MODELS)
        for name, value, default in (("excess", excess, None), ("D", D, None),
                                     ("forward_delay", forward_delay, 0),
                                     ("ftt_ref", ftt_ref, None), ("capacity", capacity, 1.0)):
            if value is not default and not (default is not None and value == default):
                raise ParameterError(f"{name} is a rate-loop argument (Primo's plant); a window "
                                     f"law's loop takes m and model; got {name}={value!r}")
        delays = {"error": m if model == "per_slot" else 1}
        capacity_value, ftt_value, pinned = 1.0, 1.0, ()
    else:
        check_choice("model", model, ("per_slot",))
        if law.per != "packet":
            raise ParameterError(
                f"closed_loop models a rate law updated before each packet (one step per "
                f"bottleneck slot, as Primo); {law.name!r} has per={law.per!r}: build the law "
                f"with per='packet' to analyse it (got per={law.per!r})")
        capacity_value = float(check_positive("capacity", capacity, scalar=True))
        f = check_nonnegative_int("forward_delay", forward_delay, maximum=m)
        tau = law.mechanics["tau"]
        d = int(round(tau * m)) if D is None else check_nonnegative_int("D", D,
                                                                         maximum=MAX_SLOTS)
        ftt_value = m / 2.0 if ftt_ref is None else float(check_positive("ftt_ref", ftt_ref,
                                                                         scalar=True))
        delays = {"previous": m, "forward": f, "excess": 1 + m - f + d}
        pinned = () if excess is None else (("excess", float(check_finite("excess", excess,
                                                                          scalar=True))),)
    structure = _structure(law.kind, law.update, law.memory, tuple(law.gains),
                           f"{type(law).__name__} {law.name!r}")
    if structure.exact and not pinned:
        jac, bias = structure.affine_functions()
        args = list(law.gains.values())
        jacobian = np.array(jac(*args), dtype=float)
        bias_vector = np.array(bias(*args), dtype=float).ravel()
        point, linearised = None, False
    else:
        jacobian, bias_vector, point = _linearise(law, structure, model, m, capacity_value,
                                                  pinned)
        linearised = True
    generic = _generic_loop(law.kind, model, law.memory, _pattern(jacobian, bias_vector,
                                                                  structure))
    return ClosedLoop(law, m, model, delays, capacity_value, ftt_value, linearised, point,
                      jacobian, bias_vector, structure, generic, pinned)


# =============================================================================== margins


def margin_by_crossing(base, part):
    """Gain margin of ``P0 + K N`` by unit-circle crossings.

    ``K = -P0(e^{jw}) / N(e^{jw})`` real and positive, found by a sign
    scan of its imaginary part on w in (0, pi] refined with Brent's method
    (z = 1 excluded: an integrator there, python-control issue #544);
    the first positive crossing is the margin if the loop is stable just
    below it.

    Parameters
    ----------
    base, part : ndarray
        P0 and N, highest power of z first, same length.

    Returns
    -------
    (float, float)
        The margin [1] and the crossing frequency [rad/step] (nan if none).

    References
    ----------
    E. I. Jury, *Theory and Application of the z-Transform Method*, 1964.

    Examples
    --------
    >>> margin_by_crossing(np.array([1.0, -1.0]), np.array([0.0, 1.0]))  # z - 1 + K: |1 - K| < 1
    (2.0, 3.141592653589793)
    """
    base = np.asarray(base, dtype=float)
    part = np.asarray(part, dtype=float)
    if not np.any(part):
        stable = bool(schur_stable(base))
        return (np.inf if stable else 0.0), np.nan

    def crossing_gain(w):
        point = np.exp(1j * np.asarray(w, dtype=float))
        return -_polyval_sparse(base, point) / _polyval_sparse(part, point)

    grid = np.linspace(0.0, np.pi, _CROSSING_GRID + 1)[1:]
    with np.errstate(divide="ignore", invalid="ignore"):
        imaginary = crossing_gain(grid).imag
        candidates = [(crossing_gain(np.pi).real, np.pi)]  # z = -1: always a real K
    signs = np.sign(imaginary)
    for i in np.flatnonzero(signs[:-1] * signs[1:] < 0):
        if not (np.isfinite(imaginary[i]) and np.isfinite(imaginary[i + 1])):
            continue
        w = scipy.optimize.brentq(lambda x: crossing_gain(x).imag, grid[i], grid[i + 1],
                                  xtol=1e-14)
        candidates.append((crossing_gain(w).real, w))
    with np.errstate(divide="ignore", invalid="ignore"):
        candidates += [(crossing_gain(w).real, w) for w in grid[imaginary == 0]]
    positive = sorted((k, w) for k, w in candidates if np.isfinite(k) and k > 0)
    first, where = positive[0] if positive else (np.inf, np.nan)
    probe = first / 2 if np.isfinite(first) else 1.0
    if not schur_stable(base + probe * part):
        return 0.0, np.nan
    if first > _MAX_GAIN_FACTOR:
        return np.inf, np.nan
    return float(first), float(where)


def margin_by_bisection(base, part, smallest=2.0**-12):
    """Gain margin of ``P0 + K N`` by bisection on K (Schur-Cohn).

    From the largest stable K in 1, 1/2, 1/4, ... down to *smallest* (a
    margin below that is reported as 0: near z = 1 a double root's
    eigenvalues are too inexact to decide).

    References
    ----------
    E. I. Jury, *Theory and Application of the z-Transform Method*, 1964.

    Examples
    --------
    >>> round(margin_by_bisection(np.array([1.0, -1.0]), np.array([0.0, 1.0])), 9)
    2.0
    """
    base = np.asarray(base, dtype=float)
    part = np.asarray(part, dtype=float)

    def stable(factor):
        return schur_stable(base + factor * part)

    low = 1.0
    while not stable(low):
        low /= 2
        if low < smallest:
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


def _phase_margin(base, part):
    """Phase margin [deg] and crossover [rad/step] of L = N / P0 on the unit circle."""
    if not np.any(part):
        return np.inf, np.nan

    def log_gain(w):
        point = np.exp(1j * np.asarray(w, dtype=float))
        return np.log(np.abs(_polyval_sparse(part, point))) - np.log(
            np.abs(_polyval_sparse(base, point)))

    grid = np.linspace(0.0, np.pi, _CROSSING_GRID + 1)[1:]
    with np.errstate(divide="ignore", invalid="ignore"):
        values = log_gain(grid)
    crossings = []
    for i in np.flatnonzero(np.sign(values[:-1]) * np.sign(values[1:]) < 0):
        if np.isfinite(values[i]) and np.isfinite(values[i + 1]):
            crossings.append(scipy.optimize.brentq(log_gain, grid[i], grid[i + 1], xtol=1e-14))
    crossings += list(grid[values == 0])
    if not crossings:
        return np.inf, np.nan
    best = (np.inf, np.nan)
    for w in crossings:
        point = np.exp(1j * w)
        loop = _polyval_sparse(part, point) / _polyval_sparse(base, point)
        margin = (math.degrees(np.angle(loop)) + 360.0) % 360.0 - 180.0
        if margin < best[0]:
            best = (float(margin), float(w))
    return best


# =============================================================================== derivation


class _Structure:
    """The law called on sympy symbols: outputs, Jacobian, affinity (cached per law)."""

    def __init__(self, kind, update, memory, gain_names, label):
        self.kind, self.update, self.memory = kind, update, memory
        self.gain_names, self.label = gain_names, label
        self.signals = tuple(sp.Symbol(name, real=True) for name in _SIGNALS[kind])
        self.memory_symbols = tuple(sp.Symbol(f"memory_{i}", real=True) for i in range(memory))
        self.variables = self.signals + self.memory_symbols
        self.gain_symbols = tuple(sp.Symbol(name, real=True) for name in gain_names)
        gains = dict(zip(gain_names, self.gain_symbols))
        try:
            result = update(*self.signals, self.memory_symbols, **gains)
        except TypeError as err:
            if "truth value" in str(err):
                raise LinearisationError(
                    f"{label}: the law branches with a Python `if` on a value closed_loop keeps "
                    f"symbolic ({err}); write the branch with ctlcc.laws.user.select(condition, "
                    "if_true, if_false), which sympy reads as a Piecewise") from err
            raise LinearisationError(
                f"{label}: the law does not accept sympy symbols ({type(err).__name__}: {err}); "
                "write it with ordinary arithmetic (+ - * / **, select; no math.* or numpy "
                "functions) so that closed_loop can derive its loop") from err
        except Exception as err:  # noqa: BLE001 - any failure of user code on symbols
            raise LinearisationError(
                f"{label}: the law failed on sympy symbols ({type(err).__name__}: {err}); write "
                "it with ordinary arithmetic so that closed_loop can derive its loop") from err
        value, new_memory = result
        self.outputs = tuple(sp.sympify(v) for v in (value, *new_memory))
        self.jacobian = sp.Matrix([[sp.diff(o, v) for v in self.variables]
                                   for o in self.outputs])
        self.nonsmooth = _nonsmooth_atoms(self.outputs, set(self.variables))
        self.exact = not self.nonsmooth and all(
            _is_zero(sp.diff(entry, v)) for entry in self.jacobian for v in self.variables)
        self._affine = None

    def affine_expressions(self):
        """J(gains) and the constant term F(0, gains) of an affine law (sympy)."""
        zero = {v: 0 for v in self.variables}
        jac = self.jacobian.subs(zero)
        bias = sp.Matrix([o.subs(zero) for o in self.outputs])
        return jac, bias

    def affine_functions(self):
        """J(gains) and F(0, gains) lambdified (numpy, vectorised over gain arrays)."""
        if self._affine is None:
            jac, bias = self.affine_expressions()
            self._affine = (sp.lambdify(self.gain_symbols, jac.tolist(), "numpy"),
                            sp.lambdify(self.gain_symbols, list(bias), "numpy"))
        return self._affine


@lru_cache(maxsize=128)
def _structure(kind, update, memory, gain_names, label):
    return _Structure(kind, update, memory, gain_names, label)


class _Generic:
    """The loop solved once with symbolic Jacobian entries and delays (cached)."""

    def __init__(self, kind, model, memory, pattern):
        self.key = (kind, model, memory, pattern)
        rows, columns = 1 + memory, len(_SIGNALS[kind]) + memory
        jac_nonzero, bias_nonzero = pattern
        self.jacobian_symbols = {}
        matrix = [[sp.Integer(0)] * columns for _ in range(rows)]
        for row, column in jac_nonzero:
            symbol = sp.Dummy(f"j{row}_{column}")
            self.jacobian_symbols[symbol] = (row, column)
            matrix[row][column] = symbol
        self.bias_symbols = {}
        bias = [sp.Integer(0)] * rows
        for row in bias_nonzero:
            symbol = sp.Dummy(f"c{row}")
            self.bias_symbols[symbol] = row
            bias[row] = symbol
        if kind == "window":
            self.shifts = (_q, _Q)
            self._derive_window(model, memory, matrix, bias)
        else:
            self.shifts = (_q, _Qm, _Qf, _Ql)
            self._derive_rate(memory, matrix, bias)
        self._parameter_symbols = tuple(self.jacobian_symbols) + tuple(self.bias_symbols)

    def parameter_symbols(self):
        return self._parameter_symbols

    def _law_rows(self, outputs, inputs, matrix, bias):
        """output_r = sum_c J[r][c] * input_c + bias_r * U, as expressions = 0."""
        return [outputs[r] - sum(matrix[r][c] * inputs[c] for c in range(len(inputs)))
                - bias[r] * _U for r in range(len(outputs))]

    def _derive_window(self, model, memory, matrix, bias):
        A, E, B, R, D = sp.symbols("A E B R D", cls=sp.Dummy)
        M = [sp.Dummy(f"M{i}") for i in range(memory)]
        q, Q = _q, _Q
        law_inputs = [q * A, Q * E] + [q * Mi for Mi in M]
        if model == "per_slot":
            plant = B - _plant.queue_step_linear(q * B, A, D)
        else:
            w, pipe, estimate = _per_rtt_measurement()
            plant = B - estimate.subs({w: A, pipe: D})
        error = E - _stpd_law.control_error_core(R, B)
        unknowns = [A, *M, E, B]
        rows = self._law_rows([A, *M], law_inputs, matrix, bias)
        closed = rows + [error, plant]
        det, solve = _linear_system(closed, unknowns)
        self.expressions = {}
        self.parts = {"det": det}
        for output, unknown in (("arrival", A), ("occupancy", B)):
            for source, symbol in (("reference", R), ("departure", D)):
                self.expressions[("transfer", output, source)] = sp.diff(solve(unknown), symbol)
            self.expressions[("bias", output)] = sp.diff(solve(unknown), _U)
        # the loop cut at the law's error input: v enters as Q*V
        V = _V
        open_inputs = [q * A, Q * V] + [q * Mi for Mi in M]
        open_rows = self._law_rows([A, *M], open_inputs, matrix, bias)
        open_det, open_solve = _linear_system(open_rows + [error, plant], unknowns)
        # L = -dE/dV with R = D = U = 0; 1 + L = closed det / open det
        loop_gain = -sp.diff(open_solve(E), V)
        self.expressions[("open_loop",)] = loop_gain
        self.parts["open_det"] = open_det
        self.parts["open_num"] = sp.expand(sp.cancel(loop_gain * open_det))
        # the law alone: (1 - q) A = C(z) V with the error input undelayed
        law_rows = self._law_rows([A, *M], [q * A, V] + [q * Mi for Mi in M], matrix, bias)
        _, law_solve = _linear_system(law_rows, [A, *M])
        self.expressions[("controller",)] = sp.cancel((1 - q) * sp.diff(law_solve(A), V))

    def _derive_rate(self, memory, matrix, bias):
        X, B, R, S = sp.symbols("X B R S", cls=sp.Dummy)
        M = [sp.Dummy(f"M{i}") for i in range(memory)]
        q, Qm, Qf, Ql = _q, _Qm, _Qf, _Ql
        excess = Ql * B * _PHIINV
        law_inputs = [q * X, excess, R, Qm * X] + [q * Mi for Mi in M]
        plant = B - _plant.queue_step_linear(q * B, Qf * X * _CINV, S)
        unknowns = [X, *M, B]
        rows = self._law_rows([X, *M], law_inputs, matrix, bias)
        det, solve = _linear_system(rows + [plant], unknowns)
        self.expressions = {}
        self.parts = {"det": det}
        for output, unknown in (("rate", X), ("occupancy", B)):
            for source, symbol in (("received", R), ("service", S)):
                self.expressions[("transfer", output, source)] = sp.diff(solve(unknown), symbol)
            self.expressions[("bias", output)] = sp.diff(solve(unknown), _U)
        # the rate loop alone, the excess an input (Primo's per-regime loop)
        rate_rows = self._law_rows([X, *M], [q * X, _V, R, Qm * X] + [q * Mi for Mi in M],
                                   matrix, bias)
        rate_det, _ = _linear_system(rate_rows, [X, *M])
        self.parts["rate_det"] = rate_det
        # cut at the excess: v enters the law, the plant returns Ql B / FTT_ref
        open_rows = self._law_rows([X, *M], [q * X, _V, R, Qm * X] + [q * Mi for Mi in M],
                                   matrix, bias)
        open_det, open_solve = _linear_system(open_rows + [plant], unknowns)
        loop_gain = -sp.diff(open_solve(B) * Ql * _PHIINV, _V)
        self.expressions[("open_loop",)] = loop_gain
        self.parts["open_det"] = open_det
        self.parts["open_num"] = sp.expand(sp.cancel(loop_gain * open_det))


@lru_cache(maxsize=64)
def _generic_loop(kind, model, memory, pattern):
    return _Generic(kind, model, memory, pattern)


# The caches below are keyed on the _Generic object itself (not its key): its
# symbols are Dummies, so a derivation rebuilt after an eviction has new ones,
# and a function cached for the old object must not be handed the new symbols.


def _linear_system(equations, unknowns):
    """Determinant (expanded) and a solver of ``equations = 0`` linear in *unknowns*."""
    matrix, rhs = sp.linear_eq_to_matrix(equations, unknowns)
    det = sp.expand(matrix.det(method="berkowitz"))
    cache = {}

    def solve(unknown):
        if unknown not in cache:
            index = unknowns.index(unknown)
            replaced = matrix.copy()
            replaced[:, index] = rhs
            cache[unknown] = sp.expand(replaced.det(method="berkowitz")) / det
        return cache[unknown]

    return det, solve


def _pattern(jacobian, bias, structure):
    """Which Jacobian entries and constant terms are not zero (the generic derivation's key)."""
    if structure.exact:
        jac, constant = structure.affine_expressions()
        jac_nonzero = tuple((r, c) for r in range(jac.rows) for c in range(jac.cols)
                            if not _is_zero(jac[r, c]))
        bias_nonzero = tuple(r for r in range(len(constant)) if not _is_zero(constant[r]))
        return jac_nonzero, bias_nonzero
    rows, columns = jacobian.shape
    return (tuple((r, c) for r in range(rows) for c in range(columns) if jacobian[r, c] != 0),
            tuple(r for r in range(rows) if bias[r] != 0))


def _same_pattern(jacobian, bias, generic):
    """True if a linearisation's nonzero entries all have a symbol in *generic*."""
    jac_nonzero, bias_nonzero = generic.key[3]
    rows, columns = jacobian.shape
    return all((r, c) in jac_nonzero for r in range(rows) for c in range(columns)
               if jacobian[r, c] != 0) and all(r in bias_nonzero for r in range(rows)
                                                if bias[r] != 0)


@lru_cache(maxsize=1024)
def _symbolic_coefficients(generic, part, powers):
    """Coefficients of a generic polynomial part in z**-1, delays substituted.

    ``c * q**a * Q1**b * ...`` contributes to the power ``a + b*p1 + ...`` of
    z**-1; the list (sympy, in the generic symbols) is in ascending powers
    of z**-1, i.e. highest power of z first once multiplied by z**N.
    """
    expression = generic.parts[part]
    poly = sp.Poly(expression, *generic.shifts)
    coefficients = {}
    for exponents, coefficient in poly.terms():
        index = sum(e * p for e, p in zip(exponents, powers))
        coefficients[index] = coefficients.get(index, 0) + coefficient
    top = max(coefficients)
    return tuple(sp.expand(coefficients.get(k, 0)) for k in range(top + 1))


@lru_cache(maxsize=1024)
def _terms_function(generic, part, powers, strip=True):
    """Numeric coefficients of a polynomial part: a function of {symbol: value}.

    Coefficients that are zero for every value at the end (roots at z = 0
    of a characteristic polynomial) are dropped when *strip*; the result is
    monic for the characteristic parts.
    """
    coefficients = list(_symbolic_coefficients(generic, part, powers))
    if strip:
        while len(coefficients) > 1 and coefficients[-1] == 0:
            coefficients.pop()
    symbols = generic.parameter_symbols() + (_CINV, _PHIINV)
    functions = []
    for coefficient in coefficients:
        if coefficient == 0:
            functions.append(None)
        elif not coefficient.free_symbols:
            functions.append(float(coefficient))
        else:
            functions.append(sp.lambdify(symbols, coefficient, "numpy"))
    monic = strip

    def evaluate(values):
        args = [values.get(s, 0.0) for s in symbols]
        out = []
        for function in functions:
            if function is None:
                out.append(0.0)
            elif isinstance(function, float):
                out.append(function)
            else:
                out.append(function(*args))
        if monic:
            lead = out[0]
            out = [c / lead for c in out]
        return out

    return evaluate


@lru_cache(maxsize=512)
def _ratio_functions(generic, what, powers, plant, structure):
    """Lambdified numerator and denominator coefficients of a transfer (in z).

    The generic rational expression with the delays as ``z**-power``, the
    plant's numbers (rate loops: 1/C and 1/FTT_ref), and the law's Jacobian
    as functions of its gain symbols (an affine law, *structure* given) or
    the generic Jacobian symbols (a linearised law) substituted, cancelled
    once by sympy, then lambdified in the gain or Jacobian symbols.
    """
    expression = generic.expressions[what]
    shifts = dict(zip(generic.shifts, (z**-power for power in powers)))
    values = dict(zip((_CINV, _PHIINV), (sp.nsimplify(v) for v in plant)))
    symbols = generic.parameter_symbols()
    if structure is not None:
        symbols = structure.gain_symbols
        jac, bias = structure.affine_expressions()
        for symbol, (row, column) in generic.jacobian_symbols.items():
            values[symbol] = jac[row, column]
        for symbol, row in generic.bias_symbols.items():
            values[symbol] = bias[row]
    numerator, denominator = sp.fraction(sp.cancel(sp.together(
        expression.subs(values).subs(shifts))))
    num = sp.Poly(numerator, z).all_coeffs()
    den = sp.Poly(denominator, z).all_coeffs()
    return (sp.lambdify(symbols, num, "numpy"), sp.lambdify(symbols, den, "numpy"))


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
    estimate = _stpd_law.buffer_estimate(rtt, rtt_min, _stpd_law.service_rate(w, rtt))
    estimate = sp.simplify(estimate.subs(rtt_min, pipe / capacity))
    if sp.simplify(estimate - queue) != 0:  # pragma: no cover - a change of the law
        raise ArithmeticError(f"buffer estimate is not the queue: {estimate}")
    return w, pipe, estimate


@lru_cache(maxsize=1)
def _per_rtt_measurement_function():
    w, pipe, estimate = _per_rtt_measurement()
    return sp.lambdify((w, pipe), estimate, "math")


# =============================================================================== linearisation


def _linearise(law, structure, model, m, capacity, pinned):
    """Jacobian, constant term and operating point of a law at its fixed point.

    Returns ``(jacobian, bias, point)`` with ``bias = F(x0) - J x0`` so that
    the affine model ``J x + bias`` matches the law to first order at x0.
    A law that is affine once the pinned signals are fixed (Primo inside a
    regime) has the same Jacobian everywhere: its fixed point is reported
    when it is unique, and not required.
    """
    label = f"{type(law).__name__} {law.name!r}"
    gains = {symbol: sp.Float(value) for symbol, value in
             zip(structure.gain_symbols, law.gains.values())}
    outputs = [sp.piecewise_fold(o.subs(gains)) for o in structure.outputs]
    variables = structure.variables
    memory = structure.memory_symbols
    known, unknowns, guess = _fixed_point_problem(law, structure, model, m, capacity, pinned)
    pinned_values = {v: known[v] for v in structure.signals
                     if v in known and not (sp.sympify(known[v]).free_symbols & set(variables))}
    free_variables = set(variables) - set(pinned_values)
    reduced = [sp.piecewise_fold(o.subs(pinned_values)) for o in outputs]
    affine_when_pinned = bool(pinned) and not _nonsmooth_atoms(reduced, free_variables) and all(
        _is_zero(sp.diff(o, v, w)) for o in reduced for v in free_variables
        for w in free_variables)
    # the fixed point: new value = the value the loop holds there, new memory = memory
    target = structure.signals[0]
    equations = [sp.expand(outputs[0].subs(known) - known.get(target, target))]
    equations += [sp.expand(outputs[1 + i].subs(known) - memory[i]) for i in range(law.memory)]
    try:
        solutions = _solve_fixed_point(label, equations, unknowns, guess, known)
        solution = min(solutions, key=lambda s: sum(
            ((s[u] - guess[u]) / (1.0 + abs(guess[u]))) ** 2 for u in unknowns))
    except LinearisationError:
        if not affine_when_pinned:
            raise
        solution = {u: guess[u] for u in unknowns}    # any point: the law is affine there
    values = {}
    for v in variables:
        value = sp.sympify(known.get(v, v)).subs(solution)
        values[v] = sp.Float(value) if value.is_number else value
    if any(not values[v].is_number for v in variables):  # pragma: no cover - defensive
        raise LinearisationError(f"{label}: the fixed point leaves {values} undetermined")
    _check_differentiable(label, outputs, values, set(variables))
    jacobian = np.empty((len(outputs), len(variables)))
    for r, o in enumerate(outputs):
        for c, v in enumerate(variables):
            jacobian[r, c] = _number(label, sp.diff(o, v).subs(values), f"d(output {r})/d{v}")
    x0 = np.array([float(values[v]) for v in variables])
    f0 = np.array([_number(label, o.subs(values), f"output {r}") for r, o in enumerate(outputs)])
    bias = f0 - jacobian @ x0
    # a constant term that cancels to rounding (a memory entry that is a linear
    # function of the signals) is zero: the derivation's zero pattern must not
    # depend on the last bit
    with np.errstate(over="ignore"):            # inf only for rates near 1e308: no rounding to clean
        scale = np.abs(f0) + np.abs(jacobian) @ np.abs(x0)
    bias[np.abs(bias) <= 1e-12 * scale] = 0.0
    described = {str(v): float(values[v]) for v in variables}
    return jacobian, bias, described


@lru_cache(maxsize=64)
def _vectorised_linearisation(structure, model, m, capacity, pinned, reference):
    """Fixed points and Jacobians over arrays of gains, solved once in the gain symbols.

    For a smooth law (no branch, no kink on a signal) whose equilibrium
    equations are polynomial of degree <= 4 in at most three unknowns (after
    clearing denominators), sympy solves them once with the gains as
    symbols; the solutions, the Jacobian and the law are then lambdified, and
    a grid of gains costs a few array operations.  At each point the real
    solution nearest the guess is taken (as :func:`_linearise` does).
    Returns None when the shortcut does not apply (the caller then
    linearises point by point).
    """
    if structure.nonsmooth:
        return None
    known, unknowns, guess = _fixed_point_problem(None, structure, model, m, capacity, pinned,
                                                  reference)
    if pinned or len(unknowns) > 3:
        return None
    memory = structure.memory_symbols
    target = structure.signals[0]
    equations = [sp.together(structure.outputs[0].subs(known) - known.get(target, target))]
    equations += [sp.together(structure.outputs[1 + i].subs(known) - memory[i])
                  for i in range(structure.memory)]
    for equation in equations:
        numerator = sp.fraction(equation)[0]
        try:
            if sp.Poly(numerator, *unknowns).total_degree() > 4:
                return None
        except sp.PolynomialError:
            return None
    try:
        solutions = sp.solve(equations, unknowns, dict=True)
    except NotImplementedError:
        return None
    if not solutions or any(set(unknowns) - set(solution) for solution in solutions):
        return None
    gains = structure.gain_symbols
    solution_functions = [sp.lambdify(gains, [solution[u] for u in unknowns], "numpy")
                          for solution in solutions]
    variables = structure.variables
    value_function = sp.lambdify(unknowns + list(gains),
                                 [sp.sympify(known.get(v, v)) for v in variables], "numpy")
    jacobian_function = sp.lambdify(list(variables) + list(gains), structure.jacobian.tolist(),
                                    "numpy")
    output_function = sp.lambdify(list(variables) + list(gains), list(structure.outputs), "numpy")
    # every entry that can be nonzero somewhere: the derivation used for the whole grid
    jac_nonzero = tuple((r, c) for r in range(structure.jacobian.rows)
                        for c in range(structure.jacobian.cols)
                        if not _is_zero(structure.jacobian[r, c]))
    constant = [sp.expand(o - sum(structure.jacobian[r, c] * v for c, v in enumerate(variables)))
                for r, o in enumerate(structure.outputs)]
    bias_nonzero = tuple(r for r, c in enumerate(constant) if not _is_zero(c))
    generic = _generic_loop(structure.kind, model, structure.memory, (jac_nonzero, bias_nonzero))
    guesses = np.array([guess[u] for u in unknowns])

    def evaluate(flat):
        args = [np.asarray(flat[name], dtype=float) for name in structure.gain_names]
        size = max(a.size for a in args)
        args = [np.broadcast_to(a, (size,)) for a in args]
        complex_args = [a.astype(complex) for a in args]
        best = np.full((size, len(unknowns)), np.nan)
        distance = np.full(size, np.inf)
        with np.errstate(all="ignore"):
            for function in solution_functions:
                values = np.array([np.broadcast_to(np.asarray(v, dtype=complex), (size,))
                                   for v in function(*complex_args)]).T
                real = np.all(np.isfinite(values) & (np.abs(values.imag)
                                                     <= 1e-9 * (1 + np.abs(values.real))), axis=1)
                d = np.sum(((values.real - guesses) / (1 + np.abs(guesses))) ** 2, axis=1)
                better = real & (d < distance)
                best[better] = values.real[better]
                distance[better] = d[better]
            defined = np.isfinite(distance)
            point = [np.broadcast_to(np.asarray(v, dtype=float), (size,))
                     for v in value_function(*best.T, *args)]
            jac = np.zeros((size, structure.jacobian.rows, structure.jacobian.cols))
            for r, row in enumerate(jacobian_function(*point, *args)):
                for c, entry in enumerate(row):
                    jac[:, r, c] = entry
            f0 = np.array([np.broadcast_to(np.asarray(v, dtype=float), (size,))
                           for v in output_function(*point, *args)]).T
            x0 = np.array(point).T
            bias = f0 - np.einsum("nrc,nc->nr", jac, x0)
            scale = np.abs(f0) + np.einsum("nrc,nc->nr", np.abs(jac), np.abs(x0))
            bias[np.abs(bias) <= 1e-12 * scale] = 0.0
            defined &= np.all(np.isfinite(jac), axis=(1, 2)) & np.all(np.isfinite(bias), axis=1)
        jac[~defined] = 0.0
        bias[~defined] = 0.0
        return jac, bias, defined, generic

    return evaluate


def _fixed_point_problem(law, structure, model, m, capacity, pinned, reference=None):
    """Known signal values, unknowns and a starting guess of the loop's equilibrium."""
    kind = structure.kind
    variables = dict(zip(_SIGNALS[kind], structure.signals))
    memory = structure.memory_symbols
    if kind == "window":
        window, error = variables["window"], variables["error"]
        reference = sp.Float(law.mechanics["reference"] if reference is None else reference)
        if model == "per_slot":
            known = {window: sp.Integer(1)}          # arrival = departure, 1 packet/slot
        else:
            known = {window: m + reference - error}  # w = pipe + queue, queue = ref - e
        unknowns = [error, *memory]
        guess = {error: 0.0, **{s: 0.0 for s in memory}}
        return known, unknowns, guess
    rate, excess = variables["rate"], variables["excess"]
    received, previous = variables["received"], variables["previous"]
    C = sp.Float(capacity)
    pinned = dict(pinned)
    if "excess" in pinned:
        # one regime: the rate's own equilibrium at that excess (the queue may drift)
        known = {excess: sp.Float(pinned["excess"]), received: C, previous: rate}
        unknowns = [rate, *memory]
        guess = {rate: float(capacity), **{s: 0.0 for s in memory}}
    else:
        known = {rate: C, received: C, previous: C}   # the queue holds: x = C
        unknowns = [excess, *memory]
        guess = {excess: 0.0, **{s: 0.0 for s in memory}}
    return known, unknowns, guess


def _solve_fixed_point(label, equations, unknowns, guess, known):
    """Real solutions (list of {symbol: float}) of the fixed-point equations."""
    pieces = []
    for equation in equations:
        equation = sp.piecewise_fold(equation)
        if isinstance(equation, sp.Piecewise):
            options, excluded = [], sp.false
            for expression, condition in equation.args:
                options.append((expression, sp.And(condition, sp.Not(excluded))))
                excluded = sp.Or(excluded, condition)
            pieces.append(options)
        else:
            pieces.append([(equation, sp.true)])
    solutions = []
    for combination in itertools.product(*pieces):
        system = [sp.expand(expression) for expression, _ in combination]
        condition = sp.And(*(c for _, c in combination))
        if condition is sp.false:
            continue
        if any(e.is_number and e != 0 for e in system):
            continue                      # a nonzero constant: no equilibrium on this branch
        free = [u for u in unknowns if any(u in e.free_symbols for e in system)]
        if len(free) < len(unknowns) or any(e == 0 for e in system):
            if _region_nonempty(condition, unknowns):
                raise LinearisationError(
                    f"{label}: no isolated fixed point: every point with {_region(condition)} "
                    "is one "
                    f"(the law holds its value there; given {_describe(known)}); pass excess= "
                    "to linearise inside one regime (rate laws), or give the law a unique "
                    "equilibrium")
            continue
        try:
            found = sp.solve(system, unknowns, dict=True)
        except NotImplementedError:
            found = _nsolve(system, unknowns, guess)
        for solution in found:
            if any(u not in solution for u in unknowns):
                if _region_nonempty(condition, unknowns):
                    raise LinearisationError(
                        f"{label}: no isolated fixed point: the equilibrium equations leave "
                        f"{', '.join(str(u) for u in unknowns if u not in solution)} free "
                        f"({_describe(known)})")
                continue
            numbers = {}
            for u in unknowns:
                value = complex(sp.N(solution[u]))
                if abs(value.imag) > 1e-9 * max(1.0, abs(value.real)):
                    break
                numbers[u] = value.real
            else:
                if condition is sp.true or bool(condition.subs(numbers)):
                    solutions.append(numbers)
    if not solutions:
        raise LinearisationError(
            f"{label}: no fixed point: no real {', '.join(map(str, unknowns))} satisfies the "
            f"equilibrium equations {' = 0, '.join(str(e) for e in equations)} = 0 "
            f"({_describe(known)}); closed_loop linearises a law at its fixed point")
    return solutions


def _nsolve(system, unknowns, guess):
    try:
        root = sp.nsolve(system, unknowns, [guess[u] for u in unknowns], dict=True)
    except (ValueError, ZeroDivisionError):
        return []
    return root


def _region_nonempty(condition, unknowns):
    if condition is sp.true:
        return True
    free = sorted(condition.free_symbols, key=str)
    if len(free) == 1:
        try:
            return condition.as_set() is not sp.S.EmptySet
        except (NotImplementedError, TypeError, ValueError):
            return True
    return True


def _region(condition):
    """A condition on one signal as ``signal in set``, else the condition itself."""
    free = sorted(condition.free_symbols, key=str)
    if len(free) == 1:
        try:
            return f"{free[0]} in {condition.as_set()}"
        except (NotImplementedError, TypeError, ValueError):
            pass
    return str(condition)


def _check_differentiable(label, outputs, values, variables):
    """Refuse a fixed point on a branch boundary (or a kink of Abs, Max, Min, sign)."""
    for atom in _nonsmooth_atoms(outputs, variables):
        if isinstance(atom, sp.Piecewise):
            for _, condition in atom.args:
                for relation in _relations(condition):
                    if not (relation.free_symbols & variables):
                        continue
                    gap = relation.lhs - relation.rhs
                    value = float(gap.subs(values))
                    scale = 1.0 + float(abs(relation.lhs.subs(values))) \
                        + float(abs(relation.rhs.subs(values)))
                    if abs(value) <= _BOUNDARY_TOLERANCE * scale:
                        raise LinearisationError(
                            f"{label}: not differentiable at its fixed point "
                            f"({_describe(values)}): the branch {relation} switches there")
        else:
            arguments = atom.args
            if isinstance(atom, (sp.Max, sp.Min)):
                numbers = [float(a.subs(values)) for a in arguments]
                tie = any(abs(a - b) <= _BOUNDARY_TOLERANCE * (1 + abs(a))
                          for a, b in itertools.combinations(numbers, 2))
            else:
                tie = abs(float(arguments[0].subs(values))) <= _BOUNDARY_TOLERANCE
            if tie:
                raise LinearisationError(
                    f"{label}: not differentiable at its fixed point ({_describe(values)}): "
                    f"{atom} has a kink there")


def _relations(condition):
    if isinstance(condition, sp.core.relational.Relational):
        return [condition]
    if isinstance(condition, (sp.And, sp.Or, sp.Not)):
        return [r for argument in condition.args for r in _relations(argument)]
    return []


def _nonsmooth_atoms(outputs, variables):
    found = []
    for output in outputs:
        for atom in output.atoms(sp.Piecewise, sp.Abs, sp.sign, sp.Heaviside, sp.Max, sp.Min):
            if isinstance(atom, sp.Piecewise):
                involved = any(c.free_symbols & variables for _, c in atom.args
                               if c not in (sp.true, sp.false))
            else:
                involved = any(a.free_symbols & variables for a in atom.args)
            if involved:
                found.append(atom)
    return tuple(found)


# =============================================================================== helpers


def _is_zero(expression):
    expression = sp.sympify(expression)
    if expression == 0:
        return True
    return sp.simplify(expression) == 0


def _number(label, expression, what):
    try:
        value = complex(sp.N(expression))
    except (TypeError, ValueError) as err:
        raise LinearisationError(f"{label}: {what} is not a number at the fixed point "
                                 f"({expression}); closed_loop cannot linearise it") from err
    if not (math.isfinite(value.real) and abs(value.imag) <= 1e-12 * (1 + abs(value.real))):
        raise LinearisationError(f"{label}: {what} is not a finite real number at the fixed "
                                 f"point (got {value}); the law is not differentiable there")
    return value.real


def _exact(value, numeric):
    return sp.nsimplify(float(value), rational=True) if numeric else sp.Float(value)


def _describe(values):
    return ", ".join(f"{k}={_round(float(v)) if not isinstance(v, sp.Expr) or v.is_number else v}"
                     for k, v in values.items())


def _round(value):
    try:
        return f"{float(value):.6g}"
    except (TypeError, ValueError):
        return str(value)


def _gain_text(gains):
    return ", ".join(f"{k}={v:g}" for k, v in gains.items())


def _as_vector(name, values):
    array = np.atleast_1d(np.asarray(check_finite(name, values), dtype=float))
    if array.ndim != 1 or array.size == 0:
        raise ParameterError(f"{name} must be a non-empty 1-D array of gains, got shape "
                             f"{array.shape}")
    return array


def _add_ascending(first, second):
    """Sum of two coefficient arrays in ascending powers (zero-padded)."""
    size = max(first.size, second.size)
    total = np.zeros(size)
    total[: first.size] += first
    total[: second.size] += second
    return total

