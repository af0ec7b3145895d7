# ctlcc.analysis.primo - Primo's z-domain loops, limit cycle and N-flow sharing
"""Primo's closed loop around the bottleneck queue, derived from its law.

Primo (Chatté, Ducourthial & Niculescu (2006), §III, Algorithm 1) updates its sending rate
before every packet.  This module models that loop in discrete time.

Time step
    One step is one *bottleneck slot*, ``1 / capacity`` seconds: the time the
    bottleneck needs to send one packet.  Near equilibrium the sender emits
    about one packet per slot (its rate is ``F * capacity`` with
    ``0.95 <= F <= 1.05``), so "one update per slot" is "one update per
    packet" to within 5 %.  Delays are rounded to whole slots:
    ``m = round(RTT * C)``, ``d = round(D * C)``, ``f = round(forward_delay * C)``.

Loop equations (normalised: capacity 1 packet/slot)
    * law, :func:`ctlcc.laws.primo.regime_update`, with ``rate = x(n-1)``
      and ``old_rate = x(n-m)`` (the rate one round trip before)::

          x(n) = W2 x(n-1) + (1 - W2) [(1 - W1) x(n-m) + W1 F r(n)]

    * reception rate ``r(n) = C`` while the queue is busy (one flow);
    * plant, :func:`ctlcc.analysis.plant.queue_step_linear`:
      ``b(n) = b(n-1) + x(n-f) - C``;
    * regime: chosen from ``ΔFTT_D = b(n - 1 - (m - f) - d) / C``: the ACK read
      in slot n reports the queue its packet met ``m - f`` slots earlier
      (bottleneck -> receiver -> sender), and Primo reads the array entry
      stored ``D`` before.  The thresholds ``TH * FTT_ref`` are queue levels
      ``TH * FTT_ref * C`` packets.

Inside one regime the rate loop is linear and does *not* feed back the queue:
:func:`ctlcc.closed_loop` solves it (this module is a thin caller: the law of
one regime is the :class:`ctlcc.RateLaw` of :func:`ctlcc.laws.primo.regime_update`
with that regime's F, and ``closed_loop(primo_law(params), m, excess=x)``
gives the same loop for any excess x inside the regime) (``z**-1`` shift) to ``X/R = (1-W2) W1 F / (1 - W2 z**-1 -
(1-W2)(1-W1) z**-m)``, whose poles do not depend on F (strong, moderate and
release share them) and lie inside the unit circle for every W1, W2 in (0, 1)
(Rouché: ``W2 + (1-W2)(1-W1) < 1``).  The queue adds a pole at z = 1: in a
regime it integrates ``(F - 1) C`` without bound, so only the switching between
regimes holds it, in a limit cycle (:meth:`PrimoLoop.limit_cycle`).

With N flows (:func:`primo_shared_loop`) ``r_i = C x_i / sum(x)`` couples the
flows; every split with ``sum(x) = F C`` is a fixed point, so the linearised
N-flow loop has the eigenvalue 1 with multiplicity N - 1 in every regime: the
shares are neutral, not pulled to equality.

Modelling choices
    Fluid rates (fractions of a packet per slot); the loop delays are the
    propagation delays (queueing delay, at most a few slots here, is left
    out of m, d and f); the reception rate is what the bottleneck served,
    reported instantly; the hold band holds every queue level with
    ``rate = C`` as an equilibrium, which a trajectory reaches only if it
    enters the band with exactly that rate (e.g. an empty start with
    ``TH_rel = 0``).

References
----------
Chatté, Ducourthial & Niculescu (2006), "A study of a simple preventive
transport protocol", Annals of Telecommunications 61(1):72-91, §III-C to §III-E,
Algorithm 1; scenario §IV; reported behaviour §V-A, §V-D.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
from numpy.typing import ArrayLike
import sympy as sp

from .._results import Unpackable
from .._validation import (check_bool, check_choice, check_finite, check_instance, check_int_array,
                           check_interval, check_nonnegative, check_positive, check_positive_int)
from ..errors import ParameterError
from ..laws import primo as _law
from ..laws.user import RateLaw
from . import loops as _loops
from . import plant as _plant

__all__ = [
    "REGIMES",
    "PrimoSymbolic",
    "PrimoFixedPoint",
    "PrimoTrace",
    "PrimoLimitCycle",
    "PrimoLoop",
    "PrimoSharedTrace",
    "PrimoSharedLoop",
    "primo_loop",
    "primo_shared_loop",
    "spectral_radius_map",
    "PAPER_SCENARIO",
]

#: Regimes in the order of :data:`ctlcc.laws.primo.REGIMES`; codes in traces are indices.
REGIMES = _law.REGIMES

#: The dumbbell of the paper (§IV-A, Fig. 1-top): 30-packet drop-tail buffer,
#: 10 Mb/s access links, 24 ms round trip without queueing for the first
#: source, 1-50 ms second access link (24-122 ms round trip).  The packet size
#: and the default shared-link rate are not printed; 1000-byte packets are our
#: choice and the shared link is swept over the printed 1-16 Mb/s.
PAPER_SCENARIO = {
    "buffer": 30.0,
    "packet_size": 1000.0,
    "round_trip_time": 0.024,
    "round_trip_time_range": (0.024, 0.122),
    "shared_link_rates": (1e6, 16e6),
    "source": "Chatté, Ducourthial & Niculescu (2006), §IV-A, §IV-B",
}

z = sp.Symbol("z")
W1_symbol, W2_symbol, F_symbol = sp.symbols("W_1 W_2 F", positive=True)


@dataclass(frozen=True)
class PrimoSymbolic:
    """Primo's rate loop in one regime, as sympy expressions in z.

    Attributes
    ----------
    regime : str
    rate_transfer : sympy.Expr
        X(z)/R(z), sending rate over reception rate (0 in "hold").
    characteristic : sympy.Expr
        Monic characteristic polynomial of the rate loop (degree m).
    difference_equation : sympy.Eq
        The law in the time domain that was transformed, for reading.
    occupancy_transfer : sympy.Expr
        B(z)/R(z), queue over reception rate through the plant
        (:func:`ctlcc.analysis.plant.queue_step_linear`, f-slot forward delay).
    characteristic_with_queue : sympy.Expr
        Characteristic polynomial of rate loop and queue together (degree
        m + 1): the rate loop's times ``(z - 1)``.
    """

    regime: str
    rate_transfer: sp.Expr
    characteristic: sp.Expr
    difference_equation: sp.Eq
    occupancy_transfer: sp.Expr = None
    characteristic_with_queue: sp.Expr = None


@dataclass(frozen=True)
class PrimoFixedPoint:
    """Fixed point of one regime (queue busy, one flow).

    Attributes
    ----------
    regime : str
    rate : float or None
        Equilibrium sending rate, ``F * capacity``; None in "hold", where
        every rate is a fixed point. [packets/s]
    queue_drift : float or None
        Growth of the queue at that rate, ``rate - capacity``; never 0 for
        strong, moderate or release, so no regime holds the queue alone.
        [packets/s]
    """

    regime: str
    rate: object
    queue_drift: object


@dataclass(frozen=True)
class PrimoTrace(Unpackable):
    """A simulated trajectory of one Primo flow.

    Attributes
    ----------
    time : ndarray
        Start of each slot. [s]
    rate : ndarray
        Sending rate x(n). [packets/s]
    queue : ndarray
        Bottleneck occupancy b(n) at the end of slot n. [packets]
    regime : ndarray of int
        Index into :data:`REGIMES` of the regime that set x(n).
    dropped : ndarray
        Packets dropped in slot n (0 in the piecewise-linear model). [packets]
    model : str
        ``"piecewise_linear"`` or ``"law"``.
    """

    time: np.ndarray
    rate: np.ndarray
    queue: np.ndarray
    regime: np.ndarray
    dropped: np.ndarray
    model: str

    _unpack = ("time", "rate", "queue")


@dataclass(frozen=True)
class PrimoLimitCycle:
    """The self-sustained oscillation the regime switching produces.

    Attributes
    ----------
    period : float
        Mean time between successive upward crossings of the mean queue. [s]
    queue_swing : float
        Peak-to-peak queue. [packets]
    rate_swing : float
        Peak-to-peak sending rate. [packets/s]
    mean_queue : float
        Time-averaged queue over whole cycles. [packets]
    mean_rate : float
        Time-averaged sending rate over whole cycles. [packets/s]
    queue_min, queue_max : float
        Extremes of the queue. [packets]
    cycles : int
        Number of cycles averaged.
    method : str
        ``"iterate"`` (exact iteration of the piecewise-linear map) or
        ``"analytic"`` (first-order reduction, closed-form segments).
    orbit_queue, orbit_rate : ndarray
        One cycle, for phase portraits. [packets], [packets/s]
    regime_sequence : tuple of str
        Regimes visited in one cycle, in order.
    """

    period: float
    queue_swing: float
    rate_swing: float
    mean_queue: float
    mean_rate: float
    queue_min: float
    queue_max: float
    cycles: int
    method: str
    orbit_queue: np.ndarray = field(repr=False)
    orbit_rate: np.ndarray = field(repr=False)
    regime_sequence: tuple = ()


@dataclass(frozen=True)
class PrimoLoop:
    """Primo's loop around one bottleneck (build it with :func:`primo_loop`).

    Attributes
    ----------
    params : PrimoParams
    capacity : float
        Bottleneck rate. [packets/s]
    round_trip_time : float
        Round-trip propagation time RTT_ref, without queueing. [s]
    D : float
        Delay of the ΔFTT lookup, ``tau * RTT_ref`` by default. [s]
    forward_delay : float
        Sender -> bottleneck propagation delay. [s]
    ftt_ref : float
        Reference forward trip time the thresholds multiply. [s]
    buffer : float
        Bottleneck buffer for the nonlinear model. [packets]
    m, d, f : int
        RTT, D and forward delay in slots. [slots]
    """

    params: _law.PrimoParams
    capacity: float
    round_trip_time: float
    D: float
    forward_delay: float
    ftt_ref: float
    buffer: float
    m: int = field(init=False)
    d: int = field(init=False)
    f: int = field(init=False)

    def __post_init__(self):
        if not isinstance(self.params, _law.PrimoParams):
            raise ParameterError(f"params must be a PrimoParams, got {type(self.params).__name__}")
        capacity = check_positive("capacity", self.capacity, scalar=True)
        rtt = check_positive("round_trip_time", self.round_trip_time, scalar=True)
        check_positive("D", self.D, scalar=True)
        check_positive("ftt_ref", self.ftt_ref, scalar=True)
        check_positive("buffer", self.buffer, allow_inf=True, scalar=True)
        check_nonnegative("forward_delay", self.forward_delay, scalar=True)
        _check_slots("round_trip_time", rtt, capacity)
        _check_slots("D", self.D, capacity)
        if self.forward_delay > rtt:
            raise ParameterError(
                f"forward_delay must be in [0, round_trip_time={rtt:g}], got {self.forward_delay!r}")
        m = int(round(rtt * capacity))
        if m < 1:
            raise ParameterError(
                f"round_trip_time must be at least half a slot (0.5 / capacity = "
                f"{0.5 / capacity:g} s) so that m >= 1, got {rtt!r}")
        object.__setattr__(self, "m", m)
        object.__setattr__(self, "d", int(round(self.D * capacity)))
        object.__setattr__(self, "f", min(int(round(self.forward_delay * capacity)), m))

    # ----------------------------------------------------------------- per regime
    @property
    def slot(self):
        """Duration of one step, ``1 / capacity``. [s]"""
        return 1.0 / self.capacity

    @property
    def feedback_delay(self):
        """Slots between a rate change and the regime it causes: m + d + 1. [slots]"""
        return self.m + self.d + 1

    def queue_thresholds(self):
        """Queue levels of TH_str, TH_mod, TH_rel: ``TH * FTT_ref * C``. [packets]

        Examples
        --------
        >>> loop = primo_loop(capacity=1000.0, round_trip_time=0.024)
        >>> [round(q, 3) for q in loop.queue_thresholds()]
        [4.08, 2.04, 1.8]
        """
        scale = self.ftt_ref * self.capacity
        p = self.params
        return (p.TH_str * scale, p.TH_mod * scale, p.TH_rel * scale)

    def symbolic(self, regime, numeric=False):
        """The rate loop of *regime* derived by sympy from the law.

        Parameters
        ----------
        regime : {"strong", "moderate", "hold", "release"}
        numeric : bool, optional
            Substitute this loop's W1, W2 and F (as exact rationals).

        Returns
        -------
        PrimoSymbolic
        """
        _law._check_regime(regime)
        check_bool("numeric", numeric)
        hold = regime == "hold"
        loop = self._regime_loop(hold)
        symbolic = loop.symbolic(numeric=False)
        rename = {symbol: {"W1": W1_symbol, "W2": W2_symbol, "F": F_symbol}[symbol.name]
                  for expression in (*symbolic.transfers.values(), symbolic.rate_characteristic)
                  for symbol in expression.free_symbols if symbol.name in ("W1", "W2", "F")}
        # the rate loop's polynomial times z**(m - degree): degree m, as z**m times the
        # determinant (the hold regime keeps its roots at z = 0)
        rate_poly = sp.Poly(symbolic.rate_characteristic.xreplace(rename), _loops.z)
        characteristic = sp.expand(rate_poly.as_expr() * _loops.z ** (self.m - rate_poly.degree()))
        n = sp.Symbol("n", integer=True)
        x, r = sp.Function("x"), sp.Function("r")
        law_time = sp.Eq(x(n), _law.regime_update(x(n - self.m), x(n - 1), r(n),
                                                  None if hold else F_symbol, W1_symbol,
                                                  W2_symbol))
        parts = (sp.cancel(symbolic.transfer("rate", "received").xreplace(rename)),
                 characteristic, law_time,
                 sp.cancel(symbolic.transfer("occupancy", "received").xreplace(rename)),
                 sp.expand(characteristic * (_loops.z - 1)))
        if not numeric:
            return PrimoSymbolic(regime, *parts)
        values = {W1_symbol: sp.nsimplify(self.params.W1), W2_symbol: sp.nsimplify(self.params.W2)}
        factor = self.params.factor(regime)
        if factor is not None:
            values[F_symbol] = sp.nsimplify(factor)
        return PrimoSymbolic(regime, *(expression.subs(values) for expression in parts))

    def characteristic_polynomial(self, regime, include_queue=False):
        """Characteristic polynomial coefficients, highest power first.

        Parameters
        ----------
        regime : str
        include_queue : bool, optional
            The determinant of rate loop *and* queue (degree m + 1); it is the
            rate loop's times ``(z - 1)``: inside a regime the queue is an
            integrator the rate does not feed back.

        Examples
        --------
        >>> loop = primo_loop(capacity=125.0, round_trip_time=0.024)   # m = 3
        >>> loop.characteristic_polynomial("moderate").round(3).tolist()
        [1.0, -0.9, 0.0, -0.05]
        """
        _law._check_regime(regime)
        check_bool("include_queue", include_queue)
        function = _coefficient_function(self.m, regime == "hold", include_queue)
        return function(self.params.W1, self.params.W2)

    def closed_loop(self, regime):
        """The loop of *regime* through the public path, :func:`ctlcc.closed_loop`.

        ``closed_loop(primo_law(params), m, excess=x, ...)`` with x inside
        the regime's band of ΔFTT_D / FTT_ref (the regime's own law when
        the band is empty, e.g. TH_mod = TH_str).

        References
        ----------
        Chatté, Ducourthial & Niculescu (2006), §III-C, Algorithm 1.

        Examples
        --------
        >>> loop = primo_loop(capacity=125.0, round_trip_time=0.024)   # m = 3
        >>> loop.closed_loop("moderate").characteristic_polynomial(include_queue=False).round(3).tolist()
        [1.0, -0.9, 0.0, -0.05]
        """
        _law._check_regime(regime)
        from ..laws.user import primo_law

        p = self.params
        bands = {"strong": (p.TH_str, p.TH_str + 1.0), "moderate": (p.TH_mod, p.TH_str),
                 "hold": (p.TH_rel, p.TH_mod), "release": (p.TH_rel - 1.0, p.TH_rel)}
        low, high = bands[regime]
        common = dict(D=self.d, forward_delay=self.f, ftt_ref=self.ftt_ref * self.capacity,
                      capacity=self.capacity)
        if high > low:
            return _loops.closed_loop(primo_law(p), self.m, excess=0.5 * (low + high), **common)
        return _loops.closed_loop(_regime_law(p, regime), self.m, **common)

    def _regime_loop(self, hold):
        """The regime's loop in normalised units (rates in packets/slot, C = 1)."""
        return _loops.closed_loop(_regime_law(self.params, "hold" if hold else "strong"), self.m,
                                  D=self.d, forward_delay=self.f,
                                  ftt_ref=self.ftt_ref * self.capacity)

    def poles(self, regime: str, include_queue: bool = False) -> np.ndarray:
        """Poles of the rate loop in *regime*, sorted by decreasing magnitude.

        Examples
        --------
        >>> loop = primo_loop(capacity=1000.0, round_trip_time=0.024)
        >>> round(float(abs(loop.poles("release")[0])), 4), complex(loop.poles("hold")[0])
        (0.9799, (1+0j))
        """
        roots = np.roots(self.characteristic_polynomial(regime, include_queue)).astype(complex)
        return roots[np.lexsort((-roots.imag, -np.round(np.abs(roots), 12)))]

    def spectral_radius(self, regime: str) -> float:
        """Largest pole magnitude of the rate loop in *regime*. [1]"""
        return float(np.max(np.abs(self.poles(regime))))

    def time_constant(self, regime):
        """Time constant of the dominant rate pole, ``-slot / ln|p|``. [s]

        Infinite in "hold" (pole at 1).
        """
        radius = self.spectral_radius(regime)
        return math.inf if radius >= 1.0 else -self.slot / math.log(radius)

    def fixed_point(self, regime):
        """Equilibrium of the rate loop in *regime* (queue busy).

        Solved by sympy from ``x = regime_update(x, x, C, F, W1, W2)``.

        Examples
        --------
        >>> loop = primo_loop(capacity=1000.0, round_trip_time=0.024)
        >>> fp = loop.fixed_point("strong")
        >>> round(fp.rate, 6), round(fp.queue_drift, 6)
        (950.0, -50.0)
        >>> loop.fixed_point("hold").rate is None
        True
        """
        _law._check_regime(regime)
        x = sp.Symbol("x", positive=True)
        factor = self.params.factor(regime)
        update = _law.regime_update(x, x, sp.nsimplify(self.capacity),
                                    None if factor is None else sp.nsimplify(factor),
                                    sp.nsimplify(self.params.W1), sp.nsimplify(self.params.W2))
        equation = sp.Eq(x, update)
        if equation is sp.true:
            return PrimoFixedPoint(regime, None, None)
        (rate,) = sp.solve(equation, x)
        return PrimoFixedPoint(regime, float(rate), float(rate) - self.capacity)

    # ---------------------------------------------------------------- dynamics
    def simulate(self, duration: float, model: str = "law", initial_rate: float | None = None,
                 initial_queue: float = 0.0) -> PrimoTrace:
        """Trajectory of the loop from a constant-rate history.

        Parameters
        ----------
        duration : float
            Simulated time. [s]
        model : {"law", "piecewise_linear"}, optional
            ``"law"`` calls :func:`ctlcc.laws.primo.next_rate` every slot on
            the nonlinear queue (:func:`ctlcc.analysis.plant.queue_step`,
            saturating at 0 and at the buffer) with the reception rate equal
            to what the bottleneck served; ``"piecewise_linear"`` iterates
            the regime loops derived by :meth:`symbolic` on the linear queue
            with the reception rate equal to the capacity.
        initial_rate : float, optional
            Rate before time 0 (default: the capacity, which the 4-packet
            start-up burst measures on an idle path). [packets/s]
        initial_queue : float, optional
            Queue before time 0. [packets]

        Returns
        -------
        PrimoTrace
        """
        check_choice("model", model, ("law", "piecewise_linear"))
        steps = _steps("duration", duration, self.capacity)
        x0 = (self.capacity if initial_rate is None
              else check_interval("initial_rate", initial_rate, 0.0, _MAX_RATE_FACTOR
                                  * self.capacity, closed="right", scalar=True))
        b0 = check_interval("initial_queue", initial_queue, 0.0, self.buffer, closed="both",
                            scalar=True)
        if model == "law":
            return self._simulate_law(steps, x0, b0)
        if model == "piecewise_linear":
            return self._simulate_piecewise(steps, x0, b0)
        raise ParameterError(f"model must be one of 'law', 'piecewise_linear'; got {model!r}")

    def limit_cycle(self, method: str = "iterate", cycles: int = 20,
                    warmup: float | None = None) -> PrimoLimitCycle:
        """Period, swings and mean of the queue/rate oscillation.

        Parameters
        ----------
        method : {"iterate", "analytic"}, optional
            ``"iterate"``: exact iteration of the piecewise-linear map (the
            regime loops of :meth:`symbolic`, linear queue), after a warm-up,
            averaged over *cycles* cycles.  ``"analytic"``: each regime
            reduced to its fixed point ``F C`` approached with the time
            constant of its dominant pole (hold freezes the rate), the queue
            integrated in closed form and every threshold crossing switching
            the regime ``feedback_delay`` slots later; the segments are
            chained until the cycle repeats.
        cycles : int, optional
            Cycles averaged. [1]
        warmup : float, optional
            Time discarded first (default 400 round trips). [s]

        Returns
        -------
        PrimoLimitCycle

        Examples
        --------
        >>> loop = primo_loop(capacity=1000.0, round_trip_time=0.024)
        >>> cycle = loop.limit_cycle()
        >>> round(cycle.mean_queue, 1), round(cycle.period, 2)
        (2.8, 0.33)
        """
        cycles = check_positive_int("cycles", cycles, maximum=_MAX_CYCLES)
        if warmup is not None:
            _steps("warmup", warmup, self.capacity, allow_zero=True)
        if method == "iterate":
            return self._cycle_iterate(cycles, warmup)
        if method == "analytic":
            return self._cycle_analytic(cycles)
        raise ParameterError(f"method must be one of 'iterate', 'analytic'; got {method!r}")

    # ---------------------------------------------------------------- internals
    def _regime_index(self, queue):
        q_str, q_mod, q_rel = self.queue_thresholds()
        if queue >= q_str:
            return 0
        if queue >= q_mod:
            return 1
        if queue < q_rel:
            return 3
        return 2

    def _simulate_piecewise(self, steps, x0, b0):
        m, f, lag = self.m, self.f, self.m - self.f + self.d + 1
        coefficients = [self._difference_coefficients(r) for r in REGIMES]
        pad = m + lag + 1
        x = np.full(pad + steps, 1.0 * x0 / self.capacity)
        b = np.full(pad + steps, float(b0))
        codes = np.full(pad + steps, 2, dtype=int)
        for n in range(pad, pad + steps):
            code = self._regime_index(b[n - lag])
            a1, am, gain = coefficients[code]
            x[n] = a1 * x[n - 1] + am * x[n - m] + gain
            b[n] = b[n - 1] + x[n - f] - 1.0
            codes[n] = code
        window = slice(pad, pad + steps)
        return PrimoTrace(np.arange(steps) * self.slot, x[window] * self.capacity, b[window],
                          codes[window], np.zeros(steps), "piecewise_linear")

    def _simulate_law(self, steps, x0, b0):
        m, f, d = self.m, self.f, self.d
        back = m - f
        dt, capacity = self.slot, self.capacity
        pad = m + back + d + 2
        x = np.full(pad + steps, float(x0))
        b = np.full(pad + steps, float(b0))
        served = np.full(pad + steps, min(x0 * dt, 1.0))   # what a steady x0 got through
        dropped = np.zeros(pad + steps)
        codes = np.full(pad + steps, 2, dtype=int)
        for n in range(pad, pad + steps):
            dftt_d = b[n - 1 - back - d] / capacity          # queueing delay [s]
            rcv = served[n - back] / dt                       # reception rate [packets/s]
            x[n] = _law.next_rate(x[n - m], x[n - 1], rcv, dftt_d, self.ftt_ref, self.params)
            codes[n] = self._regime_index(b[n - 1 - back - d])
            arrivals = x[n - f] * dt
            b[n], dropped[n] = _plant.queue_step(b[n - 1], arrivals, 1.0, self.buffer)
            served[n] = b[n - 1] + arrivals - dropped[n] - b[n]
        window = slice(pad, pad + steps)
        return PrimoTrace(np.arange(steps) * dt, x[window], b[window], codes[window],
                          dropped[window], "law")

    def _difference_coefficients(self, regime):
        """(a1, am, gain) of x(n) = a1 x(n-1) + am x(n-m) + gain, from the derivation."""
        polynomial = self.characteristic_polynomial(regime)
        if regime == "hold":
            return 1.0, 0.0, 0.0
        a1 = -polynomial[1] if self.m > 1 else 0.0
        am = -polynomial[-1]
        if self.m == 1:
            a1, am = 0.0, -polynomial[1]
        # the gain of r(n) in x(n), (1 - W2) W1 F: the derived Jacobian's "received" entry
        law = _regime_law(self.params, regime)
        transfer = _loops.closed_loop(law, self.m).jacobian[0, 2]
        return float(a1), float(am), float(transfer)

    def _cycle_iterate(self, cycles, warmup):
        warm = 400 * self.round_trip_time if warmup is None else check_nonnegative("warmup", warmup)
        warm_steps = int(round(warm * self.capacity))
        # Long enough for `cycles` cycles: bounded by the slowest plausible period.
        chunk = max(20 * (self.feedback_delay + 60 * self.m), 2000)
        trace = self._simulate_piecewise(warm_steps + chunk, self.capacity, 0.0)
        queue = trace.queue[warm_steps:]
        rate = trace.rate[warm_steps:]
        regimes = trace.regime[warm_steps:]
        starts = _upward_crossings(queue) if np.ptp(queue) > 1e-9 else []
        if len(starts) < cycles + 1:
            chunk *= 8
            trace = self._simulate_piecewise(warm_steps + chunk, self.capacity, 0.0)
            queue, rate = trace.queue[warm_steps:], trace.rate[warm_steps:]
            regimes = trace.regime[warm_steps:]
            starts = _upward_crossings(queue) if np.ptp(queue) > 1e-9 else []
        if len(starts) < cycles + 1:
            raise ParameterError(
                f"no limit cycle within {(warm_steps + chunk) * self.slot:g} s: the queue settles "
                f"at {queue[-1]:.6g} packets with the rate {rate[-1]:.6g} packets/s (the hold band "
                "[TH_rel, TH_mod) holds every queue level with rate = C as an equilibrium; "
                "TH_rel = 0 makes an empty start one)")
        starts = starts[-(cycles + 1):]
        span = slice(starts[0], starts[-1])
        period_steps = (starts[-1] - starts[0]) / cycles
        last = slice(starts[-2], starts[-1] + 1)
        return PrimoLimitCycle(
            period=float(period_steps * self.slot),
            queue_swing=float(np.ptp(queue[span])),
            rate_swing=float(np.ptp(rate[span])),
            mean_queue=float(np.mean(queue[span])),
            mean_rate=float(np.mean(rate[span])),
            queue_min=float(np.min(queue[span])),
            queue_max=float(np.max(queue[span])),
            cycles=cycles,
            method="iterate",
            orbit_queue=queue[last].copy(),
            orbit_rate=rate[last].copy(),
            regime_sequence=_sequence(regimes[last]),
        )

    def _cycle_analytic(self, cycles):
        """First-order reduction, solved segment by segment in closed form."""
        capacity = self.capacity
        T = -1.0 / math.log(self.spectral_radius("release"))   # [slots], same in all F regimes
        levels = self.queue_thresholds()
        factors = [self.params.F_str, self.params.F_mod, None, self.params.F_rel]
        lag = float(self.feedback_delay)
        t, x, q = 0.0, 1.0, 0.0
        code = self._regime_index(q)
        pending = []                          # (time, regime code) switches in the future
        segments = []                         # (t0, t1, x0, q0, code)
        horizon_cycles = cycles + 40
        ups = []
        while len(ups) < horizon_cycles:
            # A crossing at t + s switches the regime at t + s + lag >= t + lag, so
            # a segment no longer than lag never misses a switch it causes itself.
            t_next = min(pending[0][0], t + lag) if pending else t + lag
            F = factors[code]
            crossings = _segment_crossings(x, q, F, T, t_next - t, levels)
            for s, level_index, direction in crossings:
                new_code = _code_after_crossing(level_index, direction)
                pending.append((t + s + lag, new_code))
                if level_index == 1 and direction > 0:
                    ups.append(t + s)
            pending.sort()
            x1, q1 = _segment_state(x, q, F, T, t_next - t)
            segments.append((t, t_next, x, q, code))
            t, x, q = t_next, x1, q1
            while pending and pending[0][0] <= t + 1e-12:
                code = pending.pop(0)[1]
            if len(segments) > 200_000:
                raise ParameterError("no limit cycle found by the analytic reduction")
        start, stop = ups[-(cycles + 1)], ups[-1]
        grid = np.linspace(start, stop, 200 * cycles + 1)
        qs, xs = _evaluate_segments(segments, grid, factors, T)
        one = grid <= ups[-2] + 0.0
        one &= grid >= ups[-2] - (stop - start) / cycles
        codes = [seg[4] for seg in segments if seg[1] > ups[-2] and seg[0] < stop]
        return PrimoLimitCycle(
            period=float((stop - start) / cycles * self.slot),
            queue_swing=float(np.ptp(qs)),
            rate_swing=float(np.ptp(xs)) * capacity,
            mean_queue=float(np.trapezoid(qs, grid) / (stop - start)),
            mean_rate=float(np.trapezoid(xs, grid) / (stop - start)) * capacity,
            queue_min=float(np.min(qs)),
            queue_max=float(np.max(qs)),
            cycles=cycles,
            method="analytic",
            orbit_queue=qs[one],
            orbit_rate=xs[one] * capacity,
            regime_sequence=_sequence(np.array(codes)),
        )


@dataclass(frozen=True)
class PrimoSharedTrace:
    """N Primo flows sharing one bottleneck.

    Attributes
    ----------
    time : ndarray
        Start of each slot. [s]
    rates : ndarray, shape (steps, N)
        Sending rates. [packets/s]
    queue : ndarray
        Shared queue. [packets]
    dropped : ndarray
        Packets dropped per slot. [packets]
    """

    time: np.ndarray
    rates: np.ndarray
    queue: np.ndarray
    dropped: np.ndarray

    def shares(self, start: float = 0.5) -> np.ndarray:
        """Mean share of each flow over the last ``1 - start`` of the run. [1]"""
        start = check_interval("start", start, 0.0, 1.0, closed="left", scalar=True)
        tail = self.rates[int(start * len(self.time)):]
        mean = tail.mean(axis=0)
        return mean / mean.sum()

    def fairness(self, start: float = 0.5) -> float:
        """The paper's criterion: smallest share over the ideal 1/N (§IV-C). [1]"""
        shares = self.shares(start)
        return float(shares.min() * len(shares))


@dataclass(frozen=True)
class PrimoSharedLoop:
    """N Primo flows on one bottleneck (build it with :func:`primo_shared_loop`).

    Flow i has round trip ``round_trip_times[i]`` (m_i slots), forward delay
    to the bottleneck f_i and ΔFTT lookup delay D_i = tau * RTT_i.  While the
    queue is busy flow i receives ``C x_i / sum(x)`` (the mix of arrivals at
    the bottleneck, queueing delay neglected), seen by the sender m_i - f_i
    slots later.

    Attributes
    ----------
    params : PrimoParams
    capacity : float
        Bottleneck rate. [packets/s]
    round_trip_times, forward_delays, ftt_refs : tuple of float
        Per flow. [s]
    buffer : float
        [packets]
    """

    params: _law.PrimoParams
    capacity: float
    round_trip_times: tuple
    forward_delays: tuple
    ftt_refs: tuple
    buffer: float

    def __post_init__(self):
        check_instance("params", self.params, _law.PrimoParams)
        check_positive("capacity", self.capacity, scalar=True)
        rtts = _check_vector("round_trip_times", self.round_trip_times, check_positive)
        fwd = _check_vector("forward_delays", self.forward_delays, check_nonnegative)
        ftt = _check_vector("ftt_refs", self.ftt_refs, check_positive)
        check_positive("buffer", self.buffer, allow_inf=True, scalar=True)
        for rtt in rtts:
            _check_slots("round_trip_times", rtt, self.capacity)
        if not (rtts.shape == fwd.shape == ftt.shape) or rtts.ndim != 1:
            raise ParameterError("round_trip_times, forward_delays and ftt_refs must be 1-d and "
                                 f"of equal length; got {rtts.shape}, {fwd.shape}, {ftt.shape}")
        if np.any(fwd > rtts):
            raise ParameterError(
                f"forward_delays must be in [0, round_trip_times], got {fwd.tolist()} "
                f"with round_trip_times {rtts.tolist()}")
        if np.any(np.rint(rtts * self.capacity) < 1):
            raise ParameterError(
                "round_trip_times must be at least half a slot (0.5 / capacity) each, got "
                f"round_trip_times={rtts.tolist()} with capacity={self.capacity!r}")
        for name, value in (("round_trip_times", rtts), ("forward_delays", fwd), ("ftt_refs", ftt)):
            object.__setattr__(self, name, tuple(float(v) for v in value))

    @property
    def n_flows(self):
        """Number of flows N."""
        return len(self.round_trip_times)

    def _slots(self):
        c = self.capacity
        m = np.rint(np.array(self.round_trip_times) * c).astype(int)
        f = np.minimum(np.rint(np.array(self.forward_delays) * c).astype(int), m)
        d = np.rint(self.params.tau * np.array(self.round_trip_times) * c).astype(int)
        return m, f, d

    def jacobian(self, regime, shares=None):
        """Linearised one-slot map of the N-flow loop in *regime*.

        The state stacks ``x_i(n-1), ..., x_i(n-K)`` of every flow (K the
        longest history needed).  The partial derivatives of
        ``x_i(n) = regime_update(x_i(n-m_i), x_i(n-1), C x_i'/sum_j x_j', F)``
        are taken by sympy at the fixed point ``x_i = shares_i F C``, where
        ``x'`` are the arrivals the receiver of flow i reports.

        Parameters
        ----------
        regime : str
        shares : array_like, optional
            Equilibrium split (default equal). [1]

        Returns
        -------
        ndarray, shape (N K, N K)
        """
        _law._check_regime(regime)
        n = self.n_flows
        shares = (np.full(n, 1.0 / n) if shares is None
                  else _check_vector("shares", shares, check_positive))
        if shares.shape != (n,) or np.any(shares <= 0) or not np.isclose(shares.sum(), 1.0):
            raise ParameterError(f"shares must be {n} positive numbers summing to 1, got {shares}")
        m, f, _ = self._slots()
        back = m - f
        # arrival of flow j at the bottleneck when flow i's reception is measured:
        # x_j(n - back_i - f_j); own term x_i(n - m_i).
        lags = back[:, None] + f[None, :]
        K = int(max(m.max(), lags.max(), 1))
        size = n * K
        J = np.zeros((size, size))
        for i in range(n):
            for k in range(1, K):                           # shift register of flow i
                J[i * K + k, i * K + k - 1] = 1.0
        factor = self.params.factor(regime)
        W1, W2 = self.params.W1, self.params.W2
        if factor is None:
            for i in range(n):
                J[i * K, i * K] = 1.0
            return J
        d_old, d_rate, d_rcv = _update_partials()
        values = {W1_symbol: W1, W2_symbol: W2, F_symbol: factor}
        g_old, g_rate, g_rcv = (float(e.subs(values)) for e in (d_old, d_rate, d_rcv))
        total = factor  # sum of the equilibrium rates, in units of C
        for i in range(n):
            row = i * K
            J[row, i * K + 0] += g_rate
            J[row, i * K + m[i] - 1] += g_old
            # r_i = C x_i / sum x  ->  dr_i/dx_j = C (delta_ij - s_i) / (F C) (normalised)
            for j in range(n):
                derivative = ((1.0 if i == j else 0.0) - shares[i]) / total
                J[row, j * K + lags[i, j] - 1] += g_rcv * derivative
        return J

    def eigenvalues(self, regime, shares=None):
        """Eigenvalues of :meth:`jacobian`, by decreasing magnitude."""
        values = np.linalg.eigvals(self.jacobian(regime, shares))
        return values[np.argsort(-np.abs(values), kind="stable")]

    def simulate(self, duration, initial_rates=None, start_times=None):
        """Iterate the law for every flow on the shared nonlinear queue.

        Parameters
        ----------
        duration : float
            [s]
        initial_rates : array_like, optional
            Rate of each flow before it starts (default: the capacity, the
            4-packet burst's estimate on an idle path). [packets/s]
        start_times : array_like, optional
            When each flow starts sending (default all at 0). [s]

        Returns
        -------
        PrimoSharedTrace
        """
        steps = _steps("duration", duration, self.capacity)
        n = self.n_flows
        c, dt = self.capacity, 1.0 / self.capacity
        x0 = (np.full(n, c) if initial_rates is None
              else _check_vector("initial_rates", initial_rates, check_positive))
        starts = (np.zeros(n, dtype=int) if start_times is None else np.rint(
            _check_vector("start_times", start_times, check_nonnegative) * c).astype(int))
        for name, value in (("initial_rates", x0), ("start_times", starts)):
            if value.shape != (n,):
                raise ParameterError(f"{name} must hold one value per flow ({n}), got {value.size}")
        m, f, d = self._slots()
        back = m - f
        pad = int((m + back + d).max()) + 2
        total = pad + steps
        x = np.zeros((total, n))
        b = np.zeros(total)
        dropped = np.zeros(total)
        mix = np.zeros((total, n))           # received rate of each flow at the bottleneck
        ftt = np.array(self.ftt_refs)
        flows = np.arange(n)
        for n_ in range(pad, total):
            k = n_ - pad
            seen = n_ - back
            x[n_] = np.where(k == starts, x0, 0.0)
            active = k > starts
            if np.any(active):
                old = np.where(k - m >= starts, x[n_ - m, flows], x0)
                dftt_d = b[np.maximum(seen - 1 - d, 0)] / c
                updated = _law.next_rate(old[active], x[n_ - 1, active], mix[seen, flows][active],
                                         dftt_d[active], ftt[active], self.params)
                x[n_, active] = updated
            arrivals = x[n_ - f, flows] * dt
            total_arrivals = arrivals.sum()
            b[n_], dropped[n_] = _plant.queue_step(b[n_ - 1], total_arrivals, 1.0, self.buffer)
            served = b[n_ - 1] + total_arrivals - dropped[n_] - b[n_]
            if total_arrivals > 0:
                mix[n_] = served * arrivals / total_arrivals / dt
        window = slice(pad, total)
        return PrimoSharedTrace(np.arange(steps) * dt, x[window], b[window], dropped[window])


def primo_loop(params: PrimoParams | None = None, *, capacity: float, round_trip_time: float,
               D: float | None = None, forward_delay: float = 0.0, ftt_ref: float | None = None,
               buffer: float = 30.0) -> PrimoLoop:
    """Build Primo's loop around one bottleneck.

    Parameters
    ----------
    params : PrimoParams, optional
        Law parameters (default: the paper's set).
    capacity : float
        Bottleneck rate C; one model step is ``1 / C``. [packets/s]
    round_trip_time : float
        Propagation round trip RTT_ref (no queueing). [s]
    D : float, optional
        Delay of the ΔFTT lookup (default ``params.tau * round_trip_time``). [s]
    forward_delay : float, optional
        Sender -> bottleneck delay, in [0, round_trip_time]. [s]
    ftt_ref : float, optional
        Reference forward trip time (default ``round_trip_time / 2``,
        symmetric links). [s]
    buffer : float, optional
        Buffer of the nonlinear queue (paper: 30). [packets]

    Returns
    -------
    PrimoLoop

    References
    ----------
    Chatté, Ducourthial & Niculescu (2006), §III-C to §III-E and Algorithm 1.

    Examples
    --------
    >>> loop = primo_loop(capacity=1000.0, round_trip_time=0.024)
    >>> loop.m, loop.d, loop.feedback_delay
    (24, 24, 49)
    >>> loop.fixed_point("release").rate
    1050.0
    """
    params = _check_params(params)
    check_positive("capacity", capacity, scalar=True)
    check_positive("round_trip_time", round_trip_time, scalar=True)
    check_nonnegative("forward_delay", forward_delay, scalar=True)
    check_positive("buffer", buffer, allow_inf=True, scalar=True)
    if ftt_ref is not None:
        check_positive("ftt_ref", ftt_ref, scalar=True)
    D = params.tau * round_trip_time if D is None else check_positive("D", D, scalar=True)
    ftt_ref = round_trip_time / 2.0 if ftt_ref is None else ftt_ref
    return PrimoLoop(params, float(capacity), float(round_trip_time), float(D),
                     float(forward_delay), float(ftt_ref), float(buffer))


def primo_shared_loop(params: PrimoParams | None = None, *, capacity: float,
                      round_trip_times: ArrayLike, forward_delays: ArrayLike | None = None,
                      ftt_refs: ArrayLike | None = None, buffer: float = 30.0) -> PrimoSharedLoop:
    """Build the loop of N Primo flows sharing one bottleneck.

    Parameters
    ----------
    params : PrimoParams, optional
    capacity : float
        Bottleneck rate. [packets/s]
    round_trip_times : array_like
        Propagation round trip of each flow. [s]
    forward_delays : array_like, optional
        Sender -> bottleneck delay of each flow (default 0). [s]
    ftt_refs : array_like, optional
        Reference forward trip times (default half the round trips). [s]
    buffer : float, optional
        [packets]

    Returns
    -------
    PrimoSharedLoop

    References
    ----------
    Chatté, Ducourthial & Niculescu (2006), Algorithm 1 for every flow; dumbbell of §IV-A and
    heterogeneous round trips of §IV-B/§V-D.

    Examples
    --------
    Two flows, equal round trips: one eigenvalue 1 (the split is neutral).

    >>> shared = primo_shared_loop(capacity=500.0, round_trip_times=[0.024, 0.024])
    >>> np.round(np.abs(shared.eigenvalues("moderate")[:2]), 4)
    array([1.    , 0.9699])
    """
    params = _check_params(params)
    rtts = _check_vector("round_trip_times", round_trip_times, check_positive)
    forward = np.zeros_like(rtts) if forward_delays is None else forward_delays
    ftt = rtts / 2.0 if ftt_refs is None else ftt_refs
    return PrimoSharedLoop(params, capacity, tuple(rtts), tuple(np.atleast_1d(forward)),
                           tuple(np.atleast_1d(ftt)), buffer)


def spectral_radius_map(W1, W2=None, m=None, params=None):
    """Spectral radius of the rate loop (strong/moderate/release) on a grid.

    Give either a W2 grid (map over W1 x W2 at delay *m*) or an *m* grid
    (map over W1 x m at ``params.W2``).  The loop is stable where the
    radius is below 1.

    Parameters
    ----------
    W1 : array_like
        Values of W1, each in (0, 1). [1]
    W2 : array_like, optional
        Values of W2, each in (0, 1). [1]
    m : int or array_like of int
        Round trip in update steps (slots), >= 1. [slots]
    params : PrimoParams, optional
        Supplies W2 when *W2* is not a grid.

    Returns
    -------
    ndarray
        ``radius[i, j]`` for ``W1[i]`` and ``W2[j]`` (or ``m[j]``). [1]

    References
    ----------
    Chatté, Ducourthial & Niculescu (2006), Algorithm 1 (the loop of :meth:`PrimoLoop.symbolic`).

    Examples
    --------
    >>> spectral_radius_map([0.5], [0.9], m=24).round(4)
    array([[0.9799]])
    """
    params = _check_params(params)
    w1 = _check_vector("W1", check_interval("W1", W1, 0.0, 1.0), check_finite)
    if W2 is not None:
        w2 = _check_vector("W2", check_interval("W2", W2, 0.0, 1.0), check_finite)
        delay = check_positive_int("m", m, maximum=_MAX_MAP_DELAY)
        out = np.empty((w1.size, w2.size))
        for i, a in enumerate(w1):
            for j, b in enumerate(w2):
                out[i, j] = _positive_root_radius(_coefficient_function(delay, False)(a, b))
        return out
    if m is None:
        raise ParameterError("give W2 (a grid) or m (a grid of delays)")
    delays = [int(v) for v in np.atleast_1d(check_int_array("m", m, 1, _MAX_MAP_DELAY)).ravel()]
    out = np.empty((w1.size, len(delays)))
    for i, a in enumerate(w1):
        for j, delay in enumerate(delays):
            out[i, j] = _positive_root_radius(
                _coefficient_function(delay, False)(a, params.W2))
    return out


# ---------------------------------------------------------------------- helpers
_REGIME_CODE = {name: index for index, name in enumerate(REGIMES)}


#: Most slots one simulation or delay may span (one float per slot and flow).
_MAX_STEPS = 10**7
#: Most limit-cycle periods :meth:`PrimoLoop.limit_cycle` averages.
_MAX_CYCLES = 10_000
#: Largest initial rate of :meth:`PrimoLoop.simulate`, in capacities: above it
#: the first regime update overflows the law's rate arithmetic.
_MAX_RATE_FACTOR = 1e6
#: Largest delay of :func:`spectral_radius_map`. [slots]
_MAX_MAP_DELAY = 10_000


def _check_slots(name, seconds, capacity):
    """A delay of at most _MAX_STEPS slots (it sizes polynomials and buffers)."""
    if seconds * capacity > _MAX_STEPS:
        raise ParameterError(
            f"{name} must span at most {_MAX_STEPS:g} slots of 1 / capacity, got {seconds!r} s "
            f"at capacity {capacity!r}")


def _check_vector(name, value, check):
    """A non-empty 1-D array of numbers, each passing *check*."""
    arr = np.atleast_1d(np.asarray(check(name, value), dtype=float))
    if arr.ndim != 1 or arr.size == 0:
        raise ParameterError(f"{name} must be a non-empty 1-D sequence, got {value!r:.80}")
    return arr


def _check_params(params):
    if params is None:
        return _law.PrimoParams()
    if not isinstance(params, _law.PrimoParams):
        raise ParameterError(f"params must be a PrimoParams, got {type(params).__name__}")
    return params


def _steps(name, duration, capacity, allow_zero=False):
    check = check_nonnegative if allow_zero else check_positive
    seconds = check(name, duration, scalar=True)
    if seconds * capacity > _MAX_STEPS:
        raise ParameterError(
            f"{name} must be at most {_MAX_STEPS:g} slots ({_MAX_STEPS / capacity:g} s at this "
            f"capacity), got {duration!r}")
    steps = int(round(seconds * capacity))
    if allow_zero:
        return steps
    if steps < 1:
        raise ParameterError(f"{name} must last at least one slot (1 / capacity), got {duration!r}")
    return steps


def _regime_rate_update(rate, excess, received, previous, memory, W1, W2, F):
    """Algorithm 1 inside one regime of factor F, as a rate-law update."""
    return _law.regime_update(previous, rate, received, F, W1, W2), ()


def _hold_rate_update(rate, excess, received, previous, memory, W1, W2):
    """Algorithm 1 in the hold regime: the rate is kept."""
    return _law.regime_update(previous, rate, received, None, W1, W2), ()


def _regime_law(params, regime):
    """The law of one regime (:func:`ctlcc.laws.primo.regime_update`) as a RateLaw."""
    factor = params.factor(regime)
    if factor is None:
        return RateLaw(_hold_rate_update, gains={"W1": params.W1, "W2": params.W2},
                       name="primo_hold", tau=params.tau)
    return RateLaw(_regime_rate_update, gains={"W1": params.W1, "W2": params.W2, "F": factor},
                   name=f"primo_{regime}", tau=params.tau)


@lru_cache(maxsize=256)
def _coefficient_function(m, hold, include_queue=False):
    """Coefficients of z**degree * determinant, highest power first.

    The regime's loop from :func:`ctlcc.closed_loop` (vectorised over W1,
    W2); degree m (the rate loop) or m + 1 (with the queue): the hold
    regime keeps its roots at z = 0.
    """
    template = _loops.closed_loop(_regime_law(_law.PrimoParams(), "hold" if hold else "strong"), m)
    degree = m + (1 if include_queue else 0)

    def evaluate(W1, W2):
        coefficients = template.characteristic_coefficients(
            W1=W1, W2=W2, include_queue=include_queue)
        out = np.zeros(degree + 1)
        out[:coefficients.size] = coefficients
        return out

    return evaluate


@lru_cache(maxsize=1)
def _update_partials():
    o, r, c = sp.symbols("o r c")
    update = _law.regime_update(o, r, c, F_symbol, W1_symbol, W2_symbol)
    return sp.diff(update, o), sp.diff(update, r), sp.diff(update, c)


def _positive_root_radius(coefficients):
    """Spectral radius of z**m + c1 z**(m-1) + ... with every c_k <= 0 (Cauchy)."""
    from scipy.optimize import brentq

    tail = -np.asarray(coefficients[1:], dtype=float)
    if np.any(tail < 0) or not tail.any():
        return float(np.max(np.abs(np.roots(coefficients))))
    powers = np.flatnonzero(tail) + 1.0
    tail = tail[tail > 0]

    def excess(r):                                        # 1 - sum c_k r**-k, increasing in r
        return 1.0 - np.sum(tail * r ** (-powers))

    low = float(np.max(tail ** (1.0 / powers)))          # that term alone reaches 1: excess <= 0
    high = 1.0 + float(tail.sum())                       # excess > 0
    if excess(low) >= 0.0:                               # low is the root (up to rounding)
        return low
    return brentq(excess, low, high, xtol=1e-15, rtol=4 * np.finfo(float).eps)


def _upward_crossings(queue):
    level = 0.5 * (queue.max() + queue.min())
    above = queue >= level
    return np.flatnonzero(~above[:-1] & above[1:]) + 1


def _sequence(codes):
    if len(codes) == 0:
        return ()
    keep = np.concatenate(([True], np.diff(codes) != 0))
    return tuple(REGIMES[c] for c in np.asarray(codes)[keep])


def _code_after_crossing(level_index, direction):
    # levels: 0 = str, 1 = mod, 2 = rel; queue just above/below the level.
    if direction > 0:
        return (0, 1, 2)[level_index]
    return (1, 2, 3)[level_index]


def _segment_state(x, q, F, T, s):
    """Rate and queue after s slots in one regime (normalised, closed form)."""
    if F is None:
        return x, q + (x - 1.0) * s
    decay = math.exp(-s / T)
    return F + (x - F) * decay, q + (F - 1.0) * s + (x - F) * T * (1.0 - decay)


def _segment_crossings(x, q, F, T, length, levels):
    """Times s in (0, length] where q(s) crosses each level, with direction."""
    from scipy.optimize import brentq

    def queue_at(s):
        return _segment_state(x, q, F, T, s)[1]

    # q'(s) = x(s) - 1 is monotone in s, so q has at most one extremum.
    cuts = [0.0]
    if F is not None and (x - 1.0) * (F - 1.0) < 0:
        s_star = T * math.log((x - F) / (1.0 - F))
        if 0.0 < s_star < length:
            cuts.append(s_star)
    cuts.append(length)
    found = []
    for index, level in enumerate(levels):
        for a, b in zip(cuts[:-1], cuts[1:]):
            ga, gb = queue_at(a) - level, queue_at(b) - level
            if a == 0.0 and ga == 0.0:
                continue
            if ga * gb < 0 or (gb == 0.0 and ga != 0.0):
                s = brentq(lambda s: queue_at(s) - level, a, b, xtol=1e-12) if gb != 0 else b
                found.append((s, index, 1 if gb > ga else -1))
    found.sort()
    return found


def _evaluate_segments(segments, grid, factors, T):
    qs, xs = np.empty_like(grid), np.empty_like(grid)
    starts = np.array([seg[0] for seg in segments])
    index = np.searchsorted(starts, grid, side="right") - 1
    for k, (t, i) in enumerate(zip(grid, index)):
        t0, _, x0, q0, code = segments[i]
        xs[k], qs[k] = _segment_state(x0, q0, factors[code], T, t - t0)
    return qs, xs
