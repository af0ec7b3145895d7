# ctlcc.sim.fluid - batched delay-differential fluid model of flows through FIFO bottlenecks
"""Fluid model of N flows through FIFO bottlenecks, batched over parameters.

The network is a set of links ``l`` (capacity ``C_l`` [packets/s], buffer
``B_l`` [packets]) crossed by flow classes ``i`` (``n_i`` identical flows
each, round-trip propagation delay ``Tp_i`` [s]), with a 0/1 routing
matrix ``routes[l, i]``.  Every quantity carries a leading *batch* axis, so
one call integrates ``B`` independent parameter sets at once::

    queueing delay     d_i(t) = sum_l routes[l, i] q_l(t) / C_l            [s]
    round trip         R_i(t) = Tp_i + d_i(t)                              [s]
    link arrivals      y_l(t) = sum_i routes[l, i] n_i x_i(t)        [packets/s]
    queue              dq_l/dt = y_l - C_l,   0 <= q_l <= B_l         [packets/s]
    path probability   p_i(t) = 1 - prod_l (1 - p_l(t))                    [1]
    reception rate     r_i(t) = x_i(t) prod_l sigma_l(t)             [packets/s]

where ``x_i`` is a flow's sending rate, ``sigma_l = C_l / y_l`` while the
queue is busy (or overflowing) and something arrives, 1 otherwise (fluid
FIFO service in proportion to the current arrivals), and ``p_l`` is the
link's drop/mark probability (:class:`DropTail`, :class:`Red`, :class:`Pi` or
:class:`FixedMarking`; RED's and PI's rules are those of :mod:`ctlcc.laws.aqm`).  As in Misra, Gong and Towsley's network model,
every link on a path sees the sender's rate (no thinning by upstream drops
or marks, no propagation between links: valid for p << 1 or ECN marking)
and all feedback reaches the sender one round trip ``R_i(t)`` late.

Entry points
------------
* :func:`network` builds a (batched) :class:`FluidNetwork`;
* a law: :class:`Reno`, :class:`Stpd`, :class:`Primo`, or a researcher's
  :class:`ctlcc.WindowLaw` / :class:`ctlcc.RateLaw`;
* an AQM: :class:`DropTail` (default), :class:`Red`, :class:`Pi`, :class:`FixedMarking`;
* :func:`simulate` integrates them and returns a :class:`FluidRun`
  (trajectories with shape (samples, batch, links or classes), time
  averages, drops);
* :func:`reno_linearisation` (operating point and Hollot's P(s), a
  :class:`RenoLinearisation`) and :func:`reno_window_derivative` (the
  right-hand side the simulator integrates, also usable with sympy).

A sender is a *law* (:class:`Reno`, :class:`Stpd`, :class:`Primo`); the
ST-PD and Primo laws call :mod:`ctlcc.laws.stpd` and
:mod:`ctlcc.laws.primo`, never a copy of them.  :func:`simulate` steps the
model on a fixed grid ``t_k = k dt``:

1. from the queue ``q_k`` and rates ``x_k`` form ``R_k``, ``p_k``,
   ``r_k`` and the law's own signals, and store them in a history ring;
2. the law computes its next state from the *delayed* signals, read from
   the ring at ``t - R_k`` (linear interpolation between grid points);
3. the queue integrates the new rates over the step, saturating at 0 and
   at the buffer (the overflow is dropped; :class:`DropTail` reports it as
   the fraction of the step's arrivals that did not fit).

This is a first-order (semi-implicit Euler) scheme: the rate computed in
step 2 is the one the queue sees in step 3, so a law with feedback delay
``D`` closes its loop after exactly ``D`` (not ``D + dt``).  With
``dt`` = one bottleneck packet time and ``D = m dt`` the ST-PD fluid model
*is* the thesis's per-slot loop (4.1), (4.6).  The ring holds only
``ceil(max delay / dt) + 3`` steps; the largest delay is bounded by
``Tp_i + sum_l B_l / C_l`` (plus a law's own look-back), so every buffer
must be finite.  The ring is shared by the batch, so its length is that of
the batch member with the longest delay; memory is ``O(history * B * N)``
plus the recorded samples (``record_every``).

The built-in laws and AQMs run this loop compiled with numba
(:mod:`ctlcc.sim._fluid_jit`, compiled once and cached on disk): the same
operations on the same doubles in the same order, so the trajectories are
bit for bit those of the numpy loop, which still runs a researcher's
:class:`~ctlcc.WindowLaw` / :class:`~ctlcc.RateLaw`, routes where a class
crosses more than two links or a link carries more than two classes, and
any run in which a value stops being a finite number (its checks name the
cause).

Reno follows Hollot, Misra, Towsley and Gong's form of the MGT model::

    dW_i/dt = 1 / R_i(t) - W_i(t) x_i(t - R_i) p_i(t - R_i) / 2,
    x_i = W_i / R_i,

with ``x_i(t - R) = W(t - R) / R(t - R)``; :func:`reno_linearisation`
gives its operating point and Hollot's transfer function from the
marking probability to the queue::

    P(s) = (C^2 / 2N) e^{-s R0} / ((s + 2N / (R0^2 C)) (s + 1/R0)),
    R0 = q0 / C + Tp,  W0 = R0 C / N,  p0 = 2 / W0^2.

Units: seconds, packets and packets per second throughout.

References
----------
V. Misra, W.-B. Gong, D. Towsley, "Fluid-based analysis of a network of
AQM routers supporting TCP flows with an application to RED", SIGCOMM 2000.

C. V. Hollot, V. Misra, D. Towsley, W.-B. Gong, "A control theoretic
analysis of RED", IEEE INFOCOM 2001; and "On designing improved
controllers for AQM routers supporting TCP flows", IEEE INFOCOM 2001
(journal version: IEEE Trans. Automatic Control 47(6):945-959, 2002).

Examples
--------
Hollot's example, N = 60 flows on a 3750 packets/s link, Tp = 0.2 s, with
the marking probability held at the operating point of q0 = 175 packets:

>>> op = reno_linearisation(60, 3750.0, 0.2, 175.0)
>>> round(op.round_trip, 4), round(op.window, 2), round(op.probability, 5)
(0.2467, 15.42, 0.00841)
>>> net = network(capacity=3750.0, buffer=800.0, propagation_delay=0.2, n_flows=60)
>>> run = simulate(net, Reno(initial_window=op.window), duration=20.0, dt=1e-3,
...                aqm=FixedMarking(op.probability), initial_queue=175.0,
...                record_every=1000)
>>> round(float(run.queue[-1, 0, 0]), 1)
175.0
"""

from dataclasses import dataclass, field

import numpy as np

from .._validation import (
    finite_result,
    check_bool,
    check_choice,
    check_finite,
    check_interval,
    check_nonnegative,
    check_positive,
    check_positive_int,
)
from ..errors import ParameterError
from ..laws import aqm as _aqm
from ..laws import primo as _primo
from ..laws import tcp as _tcp_law
from ..laws import stpd as _stpd
from ..laws.user import RateLaw, WindowLaw

__all__ = [
    "FluidNetwork",
    "DropTail",
    "Red",
    "Pi",
    "FixedMarking",
    "Reno",
    "Stpd",
    "Primo",
    "FluidRun",
    "RenoLinearisation",
    "network",
    "simulate",
    "reno_window_derivative",
    "reno_linearisation",
]

#: Most integration steps :func:`simulate` accepts (duration / dt); each
#: step costs a few array operations over the batch, and a typo such as
#: ``duration=1e308`` must fail at once.
MAX_STEPS = 10**8
#: Largest memory the arrays of one :func:`simulate` call may take (the recorded
#: trajectories and the delay line); estimated before allocating, so a run that
#: would exhaust the machine is refused with the estimate. [bytes]
MAX_RUN_BYTES = 4 * 2**30
#: Run the built-in laws and AQMs through the compiled step loop
#: (:mod:`ctlcc.sim._fluid_jit`, the same doubles as the numpy loop); False forces
#: the numpy loop (benchmarks/fluid_identity.py compares the two).
_USE_JIT = True
#: Widest batch (batch size x the larger of links and classes) the compiled loop
#: runs; wider batches run the numpy loop, which is then as fast or faster (CPU of
#: the compiled loop over the numpy loop's, Reno on one link: 0.09 at 100 members,
#: 0.5 at 1000, 0.9 at 3000, 1.4-1.8 at 10 000).
_JIT_MAX_WIDTH = 2048
#: Largest table of a FixedMarking function's values (every step, every link) the
#: compiled loop takes; a longer run calls the function from the numpy loop. [bytes]
_MARKING_SERIES_BYTES = 2**27


# --------------------------------------------------------------------------- network
@dataclass(frozen=True)
class FluidNetwork:
    """Links, flow classes and routes, batched (use :func:`network`).

    Attributes
    ----------
    capacity : ndarray, shape (B, L)
        Link rates. [packets/s]
    buffer : ndarray, shape (B, L)
        Buffer sizes, finite. [packets]
    propagation_delay : ndarray, shape (B, N)
        Round-trip propagation delay Tp of each flow class. [s]
    n_flows : ndarray, shape (B, N)
        Identical flows in each class (a real number, as in the fluid
        model). [flows]
    routes : ndarray of bool, shape (L, N)
        ``routes[l, i]`` is True if class i crosses link l.
    """

    capacity: np.ndarray
    buffer: np.ndarray
    propagation_delay: np.ndarray
    n_flows: np.ndarray
    routes: np.ndarray

    @property
    def batch_size(self):
        """Number of parameter sets B."""
        return self.capacity.shape[0]

    @property
    def n_links(self):
        """Number of links L."""
        return self.routes.shape[0]

    @property
    def n_classes(self):
        """Number of flow classes N."""
        return self.routes.shape[1]

    def max_round_trip(self):
        """Largest possible round trip, every buffer full. [s], shape (B, N)"""
        return self.propagation_delay + (self.buffer / self.capacity) @ self.routes

    def bottleneck_capacity(self):
        """Smallest capacity on each class's path. [packets/s], shape (B, N)"""
        caps = np.where(self.routes[None, :, :], self.capacity[:, :, None], np.inf)
        return caps.min(axis=1)


def network(capacity, buffer, propagation_delay, n_flows=1, routes=None):
    """Build a (batched) fluid network.

    Parameters
    ----------
    capacity : float or array_like
        Link rates, > 0. [packets/s]
    buffer : float or array_like
        Buffer sizes, finite and > 0. [packets]
    propagation_delay : float or array_like
        Round-trip propagation delay of each flow class, > 0. [s]
    n_flows : float or array_like, optional
        Identical flows per class, > 0. [flows]
    routes : array_like of bool, shape (L, N), optional
        Routing matrix.  Omitted: one link and one class, and every other
        argument is a scalar or a 1-D array over the batch, shape (B,).
        Given: link arguments have shape (), (L,) or (B, L) and class
        arguments (), (N,) or (B, N).

    Returns
    -------
    FluidNetwork

    Raises
    ------
    ParameterError
        Non-positive or non-finite values, a class crossing no link, or
        shapes that do not broadcast.

    Examples
    --------
    A batch of three capacities on one bottleneck:

    >>> net = network([100.0, 200.0, 400.0], 50.0, 0.1, n_flows=2)
    >>> net.batch_size, net.n_links, net.n_classes
    (3, 1, 1)

    A parking lot: class 0 crosses both links, classes 1 and 2 one each.

    >>> lot = network([1000.0, 500.0], 100.0, [0.1, 0.05, 0.05],
    ...               routes=[[1, 1, 0], [1, 0, 1]])
    >>> lot.max_round_trip().round(3).tolist()
    [[0.4, 0.15, 0.25]]
    """
    if routes is None:
        routes = np.ones((1, 1), dtype=bool)
        link_axis = class_axis = None
    else:
        routes = np.asarray(routes)
        if routes.ndim != 2 or routes.size == 0 or not np.isin(routes, (0, 1)).all():
            raise ParameterError(
                f"routes must be a non-empty (links, classes) matrix of 0/1, got {routes!r}")
        routes = routes.astype(bool)
        if not routes.any(axis=0).all():
            raise ParameterError(
                "routes: every flow class must cross at least one link; class(es) "
                f"{np.flatnonzero(~routes.any(axis=0)).tolist()} cross none")
        link_axis, class_axis = routes.shape
    capacity = _batched("capacity", check_positive("capacity", capacity), link_axis)
    buffer = _batched("buffer", check_positive("buffer", buffer), link_axis)
    delay = _batched("propagation_delay",
                     check_positive("propagation_delay", propagation_delay), class_axis)
    flows = _batched("n_flows", check_positive("n_flows", n_flows), class_axis)
    try:
        batch = np.broadcast_shapes(capacity.shape[:1], buffer.shape[:1], delay.shape[:1],
                                    flows.shape[:1])[0]
    except ValueError as err:
        raise ParameterError(
            "capacity, buffer, propagation_delay and n_flows must have the same batch "
            f"length (or 1); got {capacity.shape[0]}, {buffer.shape[0]}, "
            f"{delay.shape[0]}, {flows.shape[0]}") from err
    n_links, n_classes = routes.shape

    def grow(arr, width):
        return np.ascontiguousarray(np.broadcast_to(arr, (batch, width)), dtype=float)

    return FluidNetwork(grow(capacity, n_links), grow(buffer, n_links), grow(delay, n_classes),
                        grow(flows, n_classes), routes)


# --------------------------------------------------------------------------- AQM
@dataclass(frozen=True)
class DropTail:
    """Drop-tail FIFO: drop only what overflows the buffer.

    The drop probability of a link over a step is the fraction of the
    fluid that arrived during the step and did not fit::

        p_l = max(q_l + dt (y_l - C_l) - B_l, 0) / (dt y_l)

    which is ``1 - C_l / y_l`` while the queue stays full and 0 otherwise.
    """

    def _marking(self, queue, average, time):
        return None


@dataclass(frozen=True)
class Red:
    """RED marking probability p(q) of a link (Floyd and Jacobson 1993).

    ``p = 0`` below ``min_threshold``, ``max_probability (q - min) / (max -
    min)`` between the thresholds and 1 above ``max_threshold`` (or, if
    ``gentle``, rising linearly from ``max_probability`` to 1 between
    ``max_threshold`` and ``2 max_threshold``).  With ``averaging`` = K the
    map reads the low-pass average ``dx/dt = K (q - x)`` (Hollot et al.
    2001 write RED's EWMA this way, ``K = -ln(1 - alpha) C``); ``None``
    uses the instantaneous queue.  Overflow drops (as :class:`DropTail`)
    add to the marks.

    Every parameter is a scalar or broadcasts to (batch, links); with one
    link a 1-D array runs along the batch.

    Attributes
    ----------
    min_threshold, max_threshold : float or array_like
        Thresholds, 0 <= min < max. [packets]
    max_probability : float or array_like
        p at ``max_threshold``, in (0, 1]. [1]
    averaging : float or array_like, optional
        Averaging pole K, > 0. [1/s]
    gentle : bool, optional
    spacing : {"none", "count", "wait"}, optional
        How the curve's p_b becomes a drop rate: ``"none"`` (default, the
        reading of Misra, Gong & Towsley's model and Hollot et al.'s
        analysis) marks with p_b itself; ``"count"`` and ``"wait"`` mark at
        the per-packet rate of the packet RED's count-based spacing at a
        constant p_b (:func:`ctlcc.laws.aqm.red_spacing_rate`: about 2 p_b
        for Floyd & Jacobson's rule, 2 p_b / 3 for ns-3's ``Wait``).
    min_queue : float or None, optional
        No drop or mark while the instantaneous queue is at most this many
        packets (:func:`ctlcc.laws.aqm.red_gate_core`, the packet engine's
        :attr:`ctlcc.laws.aqm.RedParams.min_queue`): 1 is ns-2's and ns-3's
        RED (``nQueued > 1``), and the packet engine's default, which stop
        dropping when at most one packet waits, however high the average.
        None (default here): Misra, Gong & Towsley's model, which marks at
        p(avg) whatever the queue.  With a slow average
        (small ``weight``) the two differ once the queue empties: the model
        keeps marking until the average falls below ``min_threshold``.
        [packets]
    """

    min_threshold: object
    max_threshold: object
    max_probability: object
    averaging: object = None
    gentle: bool = False
    spacing: str = "none"
    min_queue: object = None

    def __post_init__(self):
        low = check_nonnegative("min_threshold", _nonempty("min_threshold", self.min_threshold))
        high = check_positive("max_threshold", _nonempty("max_threshold", self.max_threshold))
        if not np.all(np.asarray(low) < np.asarray(high)):
            raise ParameterError(
                f"min_threshold must be < max_threshold, got {self.min_threshold!r} "
                f">= {self.max_threshold!r}")
        check_interval("max_probability", _nonempty("max_probability", self.max_probability),
                       0.0, 1.0, closed="right")
        if self.averaging is not None:
            check_positive("averaging", _nonempty("averaging", self.averaging))
        check_bool("gentle", self.gentle)
        check_choice("spacing", self.spacing, _aqm.RED_SPACINGS)
        _aqm._check_min_queue(self.min_queue)

    def probability(self, queue):
        """RED's map p(q) for a queue (or average queue). [1]

        Examples
        --------
        >>> Red(100, 300, 0.1).probability(np.array([50.0, 200.0, 400.0])).tolist()
        [0.0, 0.05, 1.0]
        """
        queue = check_nonnegative("queue", queue)
        return self._map(queue, np.asarray(self.min_threshold), np.asarray(self.max_threshold),
                         np.asarray(self.max_probability))

    def _map(self, queue, low, high, pmax):
        # RED's drop curve and spacing are the law's cores (ctlcc.laws.aqm), as ufuncs
        p_b = _aqm._red_probability_array(queue, low, high, pmax, self.gentle)
        if self.spacing == "none":
            return p_b
        return _aqm.red_spacing_rate(p_b, self.spacing)

    def _marking(self, queue, average, time):
        shape = queue.shape
        p = self._map(queue if self.averaging is None else average,
                      _link_shaped("min_threshold", self.min_threshold, shape),
                      _link_shaped("max_threshold", self.max_threshold, shape),
                      _link_shaped("max_probability", self.max_probability, shape))
        if self.min_queue is not None:   # the packets' rule (ctlcc.laws.aqm.red_gate_core)
            p = np.where(_aqm.red_gate_core(queue, self.min_queue), p, 0.0)
        return p


@dataclass(frozen=True)
class FixedMarking:
    """An exogenous marking probability p_l(t) (open loop).

    Attributes
    ----------
    probability : float, array_like or callable
        p in [0, 1], broadcastable to (B, L) (with one link, a 1-D array
        runs along the batch); or a function of time [s] returning such a
        value (e.g. a step, for small-signal tests).
    """

    probability: object

    def __post_init__(self):
        if not callable(self.probability):
            check_interval("probability", _nonempty("probability", self.probability), 0.0, 1.0,
                           closed="both")

    def _marking(self, queue, average, time):
        value = self.probability(time) if callable(self.probability) else self.probability
        if callable(self.probability):
            check_interval("probability", value, 0.0, 1.0, closed="both")
        return _link_shaped("probability", value, queue.shape)


@dataclass(frozen=True)
class Pi:
    """Hollot et al.'s PI AQM, sampled at its own frequency (2002).

    Every ``1/sampling_frequency`` seconds each link sets
    ``p(k) = p(k-1) + a (q(k) - q_ref) - b (q(k-1) - q_ref)``, kept in
    [0, 1] (:func:`ctlcc.laws.aqm.pi_update_core`), and holds it until the
    next sample; overflow drops (as :class:`DropTail`) add to it.  p(0) = 0
    and q(-1) = q(0).

    Attributes
    ----------
    params : ctlcc.laws.aqm.PiParams
        a, b [1/packet], q_ref [packets], f_s [1/s] (the same for every
        link and batch member).

    References
    ----------
    Hollot et al. (2002), §V.

    Examples
    --------
    Hollot's design example (N = 60, C = 3750 packets/s, Tp = 0.2 s)
    holds the queue at q_ref = 175 packets:

    >>> from ctlcc.laws.aqm import PiParams
    >>> pi = Pi(PiParams.design(60, 3750.0, 0.2467, 175.0, 160.0))
    >>> net = network(capacity=3750.0, buffer=800.0, propagation_delay=0.2, n_flows=60)
    >>> run = simulate(net, Reno(initial_window=10.0), duration=60.0, dt=1e-3, aqm=pi,
    ...                record_every=1000)
    >>> round(float(run.queue[-10:, 0, 0].mean()))
    175
    """

    params: object

    def __post_init__(self):
        if not isinstance(self.params, _aqm.PiParams):
            raise ParameterError(f"params must be a ctlcc.laws.aqm.PiParams, got "
                                 f"{self.params!r}")

    def _marking(self, queue, average, time):
        return None  # the state lives in the integrator (_integrate)


# --------------------------------------------------------------------------- laws
@dataclass(frozen=True)
class Reno:
    """TCP Reno congestion avoidance in the MGT/Hollot fluid form.

    Attributes
    ----------
    initial_window : float or array_like
        W(0), also the window before t = 0, broadcastable to (B, N). [packets]
    min_window : float, optional
        Floor of W (TCP never goes below one segment); keeps the explicit
        step from overshooting below it under heavy loss. [packets]
    max_window : float, optional
        Receiver window cap W_max of the MGT model. [packets]
    """

    initial_window: object = 1.0
    min_window: float = 1.0
    max_window: float = np.inf

    def __post_init__(self):
        check_positive("initial_window", _nonempty("initial_window", self.initial_window))
        check_positive("min_window", self.min_window, scalar=True)
        check_positive("max_window", self.max_window, allow_inf=True, scalar=True)
        if not self.min_window < self.max_window:
            raise ParameterError(
                f"min_window must be < max_window, got {self.min_window!r} >= {self.max_window!r}")

    def _start(self, net, dt):
        return _RenoState(self, net, dt)


@dataclass(frozen=True)
class Stpd:
    """ST-PD TCP's PD rate law (Xu (2002), eqs. 3.3-3.5, 4.1) as a fluid.

    Each step the sender forms its occupancy estimate with
    :func:`ctlcc.laws.stpd.buffer_estimate` (round trip, propagation delay,
    its reception rate as the perceived service rate), the error with
    :func:`ctlcc.laws.stpd.control_error`, and updates its rate with
    :func:`ctlcc.laws.stpd.pd_update` on the error seen ``delay`` late::

        x(t + dt) = pd_update(x(t), e(t + dt - D) / slot, e(t - D) / slot,
                              kp dt / slot, kd)

    i.e. ``dx/dt = kp e(t - D) / slot^2 + kd de/dt(t - D) / slot``.  With
    ``dt = slot`` this is eq. (4.1) in packets/s.  The rate is floored at
    0 (a sender cannot send a negative rate).

    Attributes
    ----------
    kp, kd : float or array_like
        Per-slot PD gains of eq. (4.1), >= 0, broadcastable to (B, N). [1]
    reference : float, optional
        Target occupancy ``ref`` of eq. (3.2). [packets]
    delay : float or None, optional
        Feedback delay D: None for the round trip R(t) (physical); a number
        for a fixed delay, e.g. ``m * slot`` to match the z-domain loop. [s]
    slot : float or None, optional
        One slot; None for the packet time of the flow's slowest link. [s]
    initial_rate : float or array_like or None, optional
        x(0); None for the bottleneck capacity shared by the flows. [packets/s]
    """

    kp: object
    kd: object
    reference: float = _stpd.REFERENCE_OCCUPANCY
    delay: object = None
    slot: object = None
    initial_rate: object = None

    def __post_init__(self):
        for name in ("kp", "kd"):
            check_finite(name, _nonempty(name, getattr(self, name)))
            check_nonnegative(name, getattr(self, name))
        check_nonnegative("reference", self.reference, scalar=True)
        for name in ("delay", "slot"):
            if getattr(self, name) is not None:
                check_positive(name, _nonempty(name, getattr(self, name)))
        if self.initial_rate is not None:
            check_nonnegative("initial_rate", _nonempty("initial_rate", self.initial_rate))

    def _start(self, net, dt):
        return _StpdState(self, net, dt)


@dataclass(frozen=True)
class Primo:
    """Primo's Algorithm 1 (Chatté, Ducourthial & Niculescu (2006), §III) as a fluid.

    Primo updates its rate before every packet; ``x dt`` packets leave in a
    step, and ``k`` updates of Algorithm 1 with frozen inputs compose to one
    update with weight ``W2**k`` (``r <- W2 r + (1 - W2) new`` applied k
    times is ``W2**k r + (1 - W2**k) new``).  Each step therefore calls
    :func:`ctlcc.laws.primo.regime_factor` on ΔFTT_D and
    :func:`ctlcc.laws.primo.regime_update` with weight ``W2**(x dt)``::

        old_rate = x(t - R),  rcv_rate = r(t - R),
        ΔFTT_D   = d(t - R - D),  D = tau * Tp,  FTT_ref = ftt_fraction * Tp.

    ΔFTT is the queueing delay of the path (the forward-trip-time excess).

    Attributes
    ----------
    params : PrimoParams, optional
    ftt_fraction : float, optional
        Forward trip as a fraction of the round-trip propagation delay,
        in (0, 1]. [1]
    initial_rate : float or array_like or None, optional
        x(0); None for the bottleneck capacity shared by the flows. [packets/s]
    """

    params: _primo.PrimoParams = field(default_factory=_primo.PrimoParams)
    ftt_fraction: float = 0.5
    initial_rate: object = None

    def __post_init__(self):
        if not isinstance(self.params, _primo.PrimoParams):
            raise ParameterError(f"params must be a PrimoParams, got {self.params!r}")
        check_interval("ftt_fraction", self.ftt_fraction, 0.0, 1.0, closed="right", scalar=True)
        if self.initial_rate is not None:
            check_nonnegative("initial_rate", _nonempty("initial_rate", self.initial_rate))

    def _start(self, net, dt):
        return _PrimoState(self, net, dt)


# --------------------------------------------------------------------------- results
@dataclass(frozen=True)
class FluidRun:
    """Trajectories of :func:`simulate`, sampled every ``record_every`` steps.

    Attributes
    ----------
    time : ndarray, shape (T,)
        Sample times. [s]
    queue : ndarray, shape (T, B, L)
        Queue length q_l. [packets]
    rate : ndarray, shape (T, B, N)
        Sending rate x_i of one flow of each class. [packets/s]
    window : ndarray, shape (T, B, N)
        Window x_i R_i (Reno's W). [packets]
    round_trip : ndarray, shape (T, B, N)
        R_i. [s]
    probability : ndarray, shape (T, B, N)
        Path drop/mark probability p_i. [1]
    reception_rate : ndarray, shape (T, B, N)
        Delivered rate r_i of one flow. [packets/s]
    mean_queue : ndarray, shape (B, L)
        Time average of q over the whole run. [packets]
    mean_rate : ndarray, shape (B, N)
        Time average of x. [packets/s]
    mean_reception_rate : ndarray, shape (B, N)
        Time average of r. [packets/s]
    dropped : ndarray, shape (B, L)
        Fluid dropped by buffer overflow. [packets]
    dt : float
        Step. [s]
    network : FluidNetwork
    law : Reno, Stpd, Primo, WindowLaw or RateLaw
    aqm : DropTail, Red or FixedMarking
    """

    time: np.ndarray
    queue: np.ndarray
    rate: np.ndarray
    window: np.ndarray
    round_trip: np.ndarray
    probability: np.ndarray
    reception_rate: np.ndarray
    mean_queue: np.ndarray
    mean_rate: np.ndarray
    mean_reception_rate: np.ndarray
    dropped: np.ndarray
    dt: float
    network: FluidNetwork
    law: object
    aqm: object


@dataclass(frozen=True)
class RenoLinearisation:
    """Operating point and Hollot's linear plant of the Reno fluid model.

    Attributes
    ----------
    n_flows, capacity, propagation_delay, queue : float or ndarray
        N [flows], C [packets/s], Tp [s] and q0 [packets].
    round_trip : float or ndarray
        R0 = q0 / C + Tp. [s]
    window : float or ndarray
        W0 = R0 C / N. [packets]
    probability : float or ndarray
        p0 = 2 / W0^2. [1]
    gain : float or ndarray
        C^2 / (2N). [packets/s^2]
    window_pole, queue_pole : float or ndarray
        2N / (R0^2 C) and 1 / R0, the plant's poles at -window_pole and
        -queue_pole. [rad/s]
    """

    n_flows: object
    capacity: object
    propagation_delay: object
    queue: object
    round_trip: object
    window: object
    probability: object
    gain: object
    window_pole: object
    queue_pole: object

    @property
    def delay(self):
        """Loop delay e^{-s R0}: R0. [s]"""
        return self.round_trip

    def poles(self):
        """Plant poles, ``[-2N/(R0^2 C), -1/R0]``. [rad/s]"""
        return np.array([-self.window_pole, -self.queue_pole])

    def transfer_function(self):
        """Rational part of P(s) (without e^{-s R0}) as a control.TransferFunction."""
        import control

        a, b = float(self.window_pole), float(self.queue_pole)
        return control.tf([float(self.gain)], [1.0, a + b, a * b])

    def frequency_response(self, omega):
        """P(j omega) including the delay. [packets per unit probability]"""
        s = 1j * np.asarray(check_nonnegative("omega", omega), dtype=float)
        return (self.gain * np.exp(-s * self.round_trip)
                / ((s + self.window_pole) * (s + self.queue_pole)))

    @finite_result
    def step_response(self, time, amplitude):
        """Queue deviation after a step of the marking probability.

        ``delta_q(t) = -amplitude * L^-1{P(s)/s}(t)``, the step applied at
        t = 0 (so nothing moves before t = R0).

        Parameters
        ----------
        time : array_like
            Time since the step. [s]
        amplitude : float
            Step of p. [1]

        Returns
        -------
        ndarray
            delta_q. [packets]
        """
        check_finite("amplitude", amplitude, scalar=True)
        time = np.asarray(check_finite("time", time), dtype=float)
        if time.ndim != 1 or time.size == 0:
            raise ParameterError(f"time must be a non-empty 1-D array, got shape {time.shape}")
        t = time - self.round_trip
        a, b = self.window_pole, self.queue_pole
        shape = (1 - (b * np.exp(-a * np.clip(t, 0, None)) - a * np.exp(-b * np.clip(t, 0, None)))
                 / (b - a)) / (a * b)
        return np.where(t >= 0, -amplitude * self.gain * shape, 0.0)


# --------------------------------------------------------------------------- public functions
def reno_window_derivative(window, round_trip, delayed_rate, delayed_probability):
    """Right-hand side of the MGT/Hollot window equation.

    ``dW/dt = 1/R(t) - W(t) x(t - R) p(t - R) / 2`` with
    ``x(t - R) = W(t - R) / R(t - R)``: the packet senders' Reno rules
    (:mod:`ctlcc.laws.tcp`) averaged over a round trip,
    :func:`ctlcc.laws.tcp.fluid_window_derivative_core`.  Plain arithmetic: the simulator
    calls it on arrays, and the tests derive the equilibrium and Jacobian
    from it with sympy.  It is an unchecked arithmetic core (NaN in, NaN
    out): the checked entry points are :func:`simulate` and
    :func:`reno_linearisation`.

    Parameters
    ----------
    window : float, ndarray or sympy expression
        W(t). [packets]
    round_trip : float, ndarray or sympy expression
        R(t). [s]
    delayed_rate : float, ndarray or sympy expression
        x(t - R) = W(t - R) / R(t - R). [packets/s]
    delayed_probability : float, ndarray or sympy expression
        p(t - R). [1]

    Returns
    -------
    float, ndarray or sympy expression
        dW/dt. [packets/s]

    References
    ----------
    Hollot, Misra, Towsley, Gong, INFOCOM 2001, eq. (1).

    Examples
    --------
    At Hollot's operating point the window is at rest:

    >>> W0, R0 = 15.416666666666666, 0.24666666666666667
    >>> abs(reno_window_derivative(W0, R0, W0 / R0, 2 / W0**2)) < 1e-12
    True
    """
    return _tcp_law.fluid_window_derivative_core(window, round_trip, delayed_rate,
                                                 delayed_probability)


@finite_result
def reno_linearisation(n_flows, capacity, propagation_delay, queue):
    """Operating point and linear plant of the Reno fluid model.

    Parameters
    ----------
    n_flows : float or array_like
        Number of flows N, > 0. [flows]
    capacity : float or array_like
        Link rate C, > 0. [packets/s]
    propagation_delay : float or array_like
        Round-trip propagation delay Tp, > 0. [s]
    queue : float or array_like
        Operating queue q0, >= 0. [packets]

    Returns
    -------
    RenoLinearisation

    Raises
    ------
    ParameterError
        On bad input, or if the operating point needs p0 > 1 (W0 < sqrt 2).

    References
    ----------
    Hollot, Misra, Towsley, Gong, "A control theoretic analysis of RED",
    INFOCOM 2001, §III (operating point and eq. for P(s)); the example with
    N = 60, C = 3750 packets/s, Tp = 0.2 s, q0 = 175 packets.

    Examples
    --------
    >>> lin = reno_linearisation(60, 3750.0, 0.2, 175.0)
    >>> np.round(lin.poles(), 3).tolist()
    [-0.526, -4.054]
    """
    n = check_positive("n_flows", n_flows)
    c = check_positive("capacity", capacity)
    tp = check_positive("propagation_delay", propagation_delay)
    q0 = check_nonnegative("queue", queue)
    r0 = q0 / c + tp
    w0 = r0 * c / n
    p0 = 2 / w0**2
    if np.any(np.asarray(p0) > 1):
        raise ParameterError(
            "queue: the operating point needs W0 = (q0/C + Tp) C / N >= sqrt(2) so that "
            f"p0 = 2/W0^2 <= 1; got W0 = {w0!r} from queue={queue!r}, capacity={capacity!r}, "
            f"propagation_delay={propagation_delay!r}, n_flows={n_flows!r}")
    return RenoLinearisation(n, c, tp, q0, r0, w0, p0, c**2 / (2 * n), 2 * n / (r0**2 * c),
                             1 / r0)


def simulate(net, law, duration, dt, aqm=DropTail(), initial_queue=0.0, record_every=1):
    """Integrate the fluid model of a batch of networks.

    Parameters
    ----------
    net : FluidNetwork
        From :func:`network`; batch size B, L links, N classes.
    law : Reno, Stpd, Primo, WindowLaw or RateLaw
        The senders' law (all classes use the same law; the parameters of
        Reno, Stpd and Primo may differ per batch member and class).  A
        researcher's :class:`ctlcc.WindowLaw` or :class:`ctlcc.RateLaw`
        runs as written, on arrays, in the signals the packet engine gives
        it (see :class:`_WindowLawState`, :class:`_RateLawState`).
    duration : float
        Simulated time, > 0. [s]
    dt : float
        Step, > 0 and no longer than the smallest propagation delay (every
        feedback must come from the past). [s]
    aqm : DropTail, Red, Pi or FixedMarking, optional
        Drop/mark policy of every link.
    initial_queue : float or array_like, optional
        q(0) in [0, buffer], broadcastable to (B, L); the history before
        t = 0 is the initial state held constant. [packets]
    record_every : int, optional
        Keep the state at every multiple of this many steps, from t = 0 to
        the end (the state at ``duration`` is kept when ``duration / dt``
        is a multiple of it). [steps]

    Returns
    -------
    FluidRun

    Examples
    --------
    One Reno flow on a 100 packets/s link with a 20-packet drop-tail
    buffer (twice the 10-packet bandwidth-delay product) keeps the link
    busy from t = 1 s on (slow start is not modelled):

    >>> run = simulate(network(100.0, 20.0, 0.1), Reno(), duration=30.0, dt=2e-3)
    >>> round(float(run.mean_reception_rate[0, 0]), 1)
    98.6
    """
    if not isinstance(net, FluidNetwork):
        raise ParameterError(f"net must be a FluidNetwork (see network()), got {net!r}")
    if not isinstance(law, (Reno, Stpd, Primo, WindowLaw, RateLaw)):
        raise ParameterError(f"law must be Reno, Stpd, Primo, a ctlcc.WindowLaw or a "
                             f"ctlcc.RateLaw, got {law!r}")
    if not isinstance(aqm, (DropTail, Red, Pi, FixedMarking)):
        raise ParameterError(f"aqm must be DropTail, Red, Pi or FixedMarking, got {aqm!r}")
    duration = check_positive("duration", duration, scalar=True)
    dt = check_positive("dt", dt, scalar=True)
    if duration < dt:
        raise ParameterError(f"duration must be at least one step dt={dt!r}, got {duration!r}")
    if isinstance(aqm, Pi) and dt > aqm.params.period * (1.0 + 1e-9):
        raise ParameterError(
            f"dt must be at most the PI's sampling period 1/f_s = {aqm.params.period:g} s "
            f"(a longer step would sample it less often than f_s), got {dt!r}")
    if duration / dt > MAX_STEPS:
        raise ParameterError(
            f"duration / dt must be at most {MAX_STEPS:g} steps, got duration={duration!r}, "
            f"dt={dt!r}")
    min_delay = float(net.propagation_delay.min())
    if dt > min_delay:
        raise ParameterError(
            f"dt must be in (0, {min_delay:g}] (the smallest propagation delay), got {dt!r}")
    record_every = check_positive_int("record_every", record_every, maximum=MAX_STEPS)
    shape_links = (net.batch_size, net.n_links)
    q0 = check_nonnegative("initial_queue", initial_queue)
    try:
        queue = np.array(np.broadcast_to(q0, shape_links), dtype=float)
    except ValueError as err:
        raise ParameterError(
            f"initial_queue must broadcast to (batch, links) = {shape_links}, "
            f"got shape {np.shape(q0)}") from err
    if np.any(queue > net.buffer):
        raise ParameterError("initial_queue must be in [0, buffer], got more than the buffer")
    return _integrate(net, law, aqm, float(duration), float(dt), queue, record_every)


# --------------------------------------------------------------------------- private helpers
def _nonempty(name, value):
    """Refuse an empty array for a batched field (it would make an empty batch)."""
    if np.size(value) == 0 and not callable(value):
        raise ParameterError(f"{name} must not be empty, got {value!r}")
    return value


def _batched(name, value, width):
    """Shape a link/class parameter as (batch, width) ready to broadcast."""
    arr = np.asarray(_nonempty(name, value), dtype=float)
    if width is None:
        if arr.ndim > 1:
            raise ParameterError(
                f"{name} must be a scalar or a 1-D batch without routes, got shape {arr.shape}")
        return arr.reshape(-1, 1)
    if arr.ndim == 0:
        return arr.reshape(1, 1)
    if arr.ndim == 1 and arr.shape[0] == width:
        return arr.reshape(1, width)
    if arr.ndim == 2 and arr.shape[1] in (1, width):
        return arr
    raise ParameterError(
        f"{name} must have shape (), ({width},) or (batch, {width}), got {arr.shape}")


def _link_shaped(name, value, shape):
    """Broadcast a per-link AQM parameter to (B, L); 1-D is the batch if L = 1."""
    arr = np.asarray(value, dtype=float)
    if arr.ndim == 1 and shape[1] == 1 and arr.shape[0] == shape[0]:
        arr = arr[:, None]
    try:
        return np.broadcast_to(arr, shape)
    except ValueError as err:
        raise ParameterError(
            f"{name} must broadcast to (batch, links) = {shape}, got shape {arr.shape}") from err


def _per_class(name, value, net):
    """Broadcast a law parameter to (B, N)."""
    arr = np.asarray(value, dtype=float)
    target = (net.batch_size, net.n_classes)
    if arr.ndim == 1 and net.n_classes == 1 and arr.shape[0] == net.batch_size:
        arr = arr[:, None]
    try:
        return np.array(np.broadcast_to(arr, target), dtype=float)
    except ValueError as err:
        raise ParameterError(
            f"{name} must broadcast to (batch, classes) = {target}, got shape {arr.shape}"
        ) from err


def _fair_share(net):
    """Equal split of each link among the flows crossing it, smallest on the path.

    The default initial rate of ST-PD and Primo. [packets/s], shape (B, N)
    """
    per_link = net.capacity / (net.n_flows @ net.routes.T.astype(float))
    return np.where(net.routes[None], per_link[:, :, None], np.inf).min(axis=1)


def _check_memory(n_records, length, n_links, n_classes, n_signals, duration, dt,
                  record_every, span):
    """Refuse a run whose records and delay line would exceed MAX_RUN_BYTES."""
    terms = {"records (duration / (dt record_every) x classes)":
             8.0 * n_records * (n_links + 5 * n_classes),
             "the delay line (longest round trip / dt x classes)":
             8.0 * (length + 1) * n_classes * (n_signals + 1)}
    total = sum(terms.values())
    if total > MAX_RUN_BYTES:
        largest = max(terms, key=terms.get)
        raise ParameterError(
            f"the run would need about {total / 2**30:.3g} GiB of arrays (limit MAX_RUN_BYTES "
            f"= {MAX_RUN_BYTES / 2**30:g} GiB, what memory allows), mostly {largest}: got "
            f"duration={duration!r}, dt={dt!r}, record_every={record_every!r}, longest round "
            f"trip {span:.6g} s; shorten the run, record less often or take a longer dt")


class _History:
    """Ring buffer of (B, N) signals with interpolated delayed reads.

    Stored as (B*N, length + 1, n_signals): one flow's past is contiguous
    (a delayed read touches one or two cache lines per flow for all its
    signals), and slot ``length`` mirrors slot 0 so that the upper
    interpolation neighbour of any slot is simply the next one.
    """

    def __init__(self, length, names, initial):
        self.length = length
        self.names = tuple(names)
        first = initial[self.names[0]]
        self.shape = first.shape
        self.width = first.size
        stacked = np.stack([initial[name].reshape(-1) for name in self.names], axis=-1)
        self.ring = np.empty((self.width, length + 1, len(self.names)))
        self.ring[:] = stacked[:, None, :]
        self.flat = self.ring.reshape(-1)
        self.row_offsets = np.arange(self.width) * (length + 1)
        self.columns = np.arange(len(self.names))

    def write(self, index, signals):
        slot = index % self.length
        for j, name in enumerate(self.names):
            value = signals[name].reshape(-1)
            self.ring[:, slot, j] = value
            if slot == 0:
                self.ring[:, self.length, j] = value

    def read(self, position):
        """Every signal at fractional step *position*, a dict of (B, N) arrays."""
        if np.shape(position) != self.shape:
            position = np.broadcast_to(position, self.shape)
        position = np.reshape(position, (-1, 1))
        base = np.floor(position)
        frac = position - base
        n = len(self.names)
        # (flow, signal) indices of the lower neighbours, then the upper ones
        low_index = (self.row_offsets[:, None] + base.astype(np.int64) % self.length) * n \
            + self.columns
        low = self.flat.take(low_index)
        high = self.flat.take(low_index + n)
        values = low + frac * (high - low)
        return {name: values[:, j].reshape(self.shape) for j, name in enumerate(self.names)}


class _RenoState:
    signals = ("rate", "probability")

    def __init__(self, law, net, dt):
        self.law, self.dt = law, dt
        self.window = _per_class("initial_window", law.initial_window, net)
        self.span = float(net.max_round_trip().max())

    def rate(self, round_trip):
        return self.window / round_trip

    def current_window(self, rate, round_trip):
        return self.window

    def advance(self, k, round_trip, history, signals):
        delayed = history.read(k - round_trip / self.dt)
        delayed_rate, delayed_p = delayed["rate"], delayed["probability"]
        slope = reno_window_derivative(self.window, round_trip, delayed_rate, delayed_p)
        self.window = np.minimum(np.maximum(self.window + self.dt * slope, self.law.min_window),
                                 self.law.max_window)
        return self.window / round_trip


class _StpdState:
    signals = ("error",)

    def __init__(self, law, net, dt):
        self.law, self.dt = law, dt
        self.kp = _per_class("kp", law.kp, net)
        self.kd = _per_class("kd", law.kd, net)
        self.x = _per_class("initial_rate", _fair_share(net) if law.initial_rate is None
                            else law.initial_rate, net)
        self.slot = (1.0 / net.bottleneck_capacity() if law.slot is None
                     else _per_class("slot", law.slot, net))
        self.tp = net.propagation_delay
        self.span = (float(net.max_round_trip().max()) if law.delay is None
                     else float(np.max(law.delay))) + dt
        if law.delay is not None and np.any(np.asarray(law.delay) < dt):
            raise ParameterError(f"delay must be >= dt = {dt:g}, got {law.delay!r}")

    def rate(self, round_trip):
        return self.x

    def extra_signals(self, round_trip, reception_rate):
        estimate = _stpd.buffer_estimate(round_trip, self.tp, reception_rate)
        return {"error": _stpd.control_error(self.law.reference, estimate)}

    def advance(self, k, round_trip, history, signals):
        delay = round_trip if self.law.delay is None else self.law.delay
        position = (k + 1) - delay / self.dt
        error = history.read(position)["error"]
        previous_error = history.read(position - 1)["error"]
        updated = _stpd.pd_update(self.x, error / self.slot, previous_error / self.slot,
                                  self.kp * self.dt / self.slot, self.kd)
        self.x = np.maximum(updated, 0.0)
        return self.x


class _PrimoState:
    signals = ("rate", "reception_rate", "queueing_delay")

    def __init__(self, law, net, dt):
        self.law, self.dt = law, dt
        self.x = _per_class("initial_rate", _fair_share(net) if law.initial_rate is None
                            else law.initial_rate, net)
        self.ftt_ref = law.ftt_fraction * net.propagation_delay
        self.lookup = law.params.tau * net.propagation_delay
        self.span = float((net.max_round_trip() + self.lookup).max())

    def rate(self, round_trip):
        return self.x

    def advance(self, k, round_trip, history, signals):
        p = self.law.params
        position = (k + 1) - round_trip / self.dt
        now = history.read(position)
        old_rate, rcv_rate = now["rate"], now["reception_rate"]
        dftt_d = history.read(position - self.lookup / self.dt)["queueing_delay"]
        factor = _primo.regime_factor(np.maximum(dftt_d, 0.0), self.ftt_ref, p)
        hold = np.isnan(factor)
        weight = p.W2 ** (self.x * self.dt)
        updated = _primo.regime_update(old_rate, self.x, rcv_rate, np.where(hold, 0.0, factor),
                                       p.W1, weight)
        self.x = np.where(hold, self.x, updated)
        return self.x


class _WindowLawState:
    """A :class:`~ctlcc.laws.user.WindowLaw` as a fluid: its update, at its own pace.

    Each class holds a window W (the rate is W / R) and the law's memory.
    The error is ST-PD's (reference - (R - Tp) r, r the class's reception
    rate, eqs. 3.2-3.4 with the propagation delay Tp as RTT_min), read one
    round trip late as the packet sender sees it.  With ``per="rtt"`` the
    law runs once per round trip R of the class (each class on its own
    clock); with ``per="ack"`` once per packet received (r dt updates a step,
    the fraction carried over).  W(0) is the class's fair share of its
    bottleneck times Tp (the fluid has no slow start); W stays >= 1 packet,
    as the packet sender's.  A window or memory that is not a finite number
    raises :class:`~ctlcc.errors.ParameterError` naming the law.
    """

    signals = ("error",)

    def __init__(self, law, net, dt):
        self.law, self.dt = law, dt
        self.tp = net.propagation_delay
        self.window = np.maximum(_fair_share(net) * self.tp, 1.0)
        self.reference = float(law.mechanics["reference"])
        self.memory = tuple(np.zeros_like(self.window) for _ in range(law.memory))
        self.gains = law.gains
        self.due = np.zeros_like(self.window)        # time of each class's next update [s]
        self.count = np.zeros_like(self.window)      # per="ack": updates owed
        self.span = float(net.max_round_trip().max()) + dt

    def rate(self, round_trip):
        return self.window / round_trip

    def current_window(self, rate, round_trip):
        return self.window

    def extra_signals(self, round_trip, reception_rate):
        # the cores' values; the checked functions (the same values, or their
        # error) only where a check could fail: R not finite, r < 0 or NaN, an
        # error that is not a finite number
        error = _stpd.control_error_core(
            self.reference, _stpd.buffer_estimate_core(round_trip, self.tp, reception_rate))
        if not (np.isfinite(round_trip).all() and (reception_rate >= 0).all()
                and np.isfinite(error).all()):
            estimate = _stpd.buffer_estimate(round_trip, self.tp, reception_rate)
            error = _stpd.control_error(self.reference, estimate)
        return {"error": error}

    def advance(self, k, round_trip, history, signals):
        error = history.read((k + 1) - round_trip / self.dt)["error"]
        if self.law.per == "rtt":
            now = (k + 1) * self.dt
            updates = (now >= self.due).astype(int)
            self.due = np.where(updates > 0, now + round_trip, self.due)
        else:
            self.count = self.count + signals["reception_rate"] * self.dt
            updates = np.floor(self.count)
            self.count -= updates
        for j in range(int(updates.max(initial=0))):
            mask = updates > j
            window, memory = self.law.update(self.window, error, self.memory, **self.gains)
            window = np.broadcast_to(np.asarray(window, dtype=float), mask.shape)
            memory = tuple(np.broadcast_to(np.asarray(m, dtype=float), mask.shape)
                           for m in memory)
            if not (np.all(np.isfinite(window[mask]))
                    and all(np.all(np.isfinite(m[mask])) for m in memory)):
                raise ParameterError(
                    f"WindowLaw {self.law.name!r}: the law returned a window or memory that is "
                    f"not a finite number in the fluid model at t = {k * self.dt:.6g} s; bound "
                    f"the law (e.g. with ctlcc.laws.user.select) or check its gains")
            self.window = np.where(mask, np.maximum(window, 1.0), self.window)
            self.memory = tuple(np.where(mask, m, old) for m, old in zip(memory, self.memory))
        return self.window / round_trip


class _RateLawState:
    """A :class:`~ctlcc.laws.user.RateLaw` as a fluid, in Primo's signals.

    ``excess`` is the queueing delay of the path (the forward trip time's
    excess ΔFTT) read D = tau Tp late, over FTT_ref = Tp / 2 (the forward
    half of the propagation round trip, :class:`Primo`'s default
    ``ftt_fraction``), floored at 0; ``received`` and ``previous`` are the
    reception rate and the sending rate one round trip ago.  With
    ``per="packet"`` the law runs x dt times a step (the fraction carried
    over, its inputs frozen within the step), with ``per="rtt"`` once per
    round trip.  x(0) is the class's fair share; x stays >= 0.
    """

    signals = ("rate", "reception_rate", "queueing_delay")

    def __init__(self, law, net, dt):
        self.law, self.dt = law, dt
        self.x = _fair_share(net).astype(float)
        self.ftt_ref = 0.5 * net.propagation_delay
        self.lookup = float(law.mechanics["tau"]) * net.propagation_delay
        self.memory = tuple(np.zeros_like(self.x) for _ in range(law.memory))
        self.gains = law.gains
        self.due = np.zeros_like(self.x)
        self.count = np.zeros_like(self.x)
        self.span = float((net.max_round_trip() + self.lookup).max()) + dt

    def rate(self, round_trip):
        return self.x

    def advance(self, k, round_trip, history, signals):
        position = (k + 1) - round_trip / self.dt
        past = history.read(position)
        previous, received = past["rate"], past["reception_rate"]
        delay = history.read(position - self.lookup / self.dt)["queueing_delay"]
        excess = np.maximum(delay, 0.0) / self.ftt_ref
        if self.law.per == "rtt":
            now = (k + 1) * self.dt
            updates = (now >= self.due).astype(int)
            self.due = np.where(updates > 0, now + round_trip, self.due)
        else:
            self.count = self.count + self.x * self.dt
            updates = np.floor(self.count)
            self.count -= updates
        for j in range(int(updates.max(initial=0))):
            mask = updates > j
            rate, memory = self.law.update(self.x, excess, received, previous, self.memory,
                                           **self.gains)
            rate = np.broadcast_to(np.asarray(rate, dtype=float), mask.shape)
            memory = tuple(np.broadcast_to(np.asarray(m, dtype=float), mask.shape)
                           for m in memory)
            if not (np.all(np.isfinite(rate[mask]))
                    and all(np.all(np.isfinite(m[mask])) for m in memory)):
                raise ParameterError(
                    f"RateLaw {self.law.name!r}: the law returned a rate or memory that is not "
                    f"a finite number in the fluid model at t = {k * self.dt:.6g} s; bound the "
                    f"law (e.g. with ctlcc.laws.user.select) or check its gains")
            self.x = np.where(mask, np.maximum(rate, 0.0), self.x)
            self.memory = tuple(np.where(mask, m, old) for m, old in zip(memory, self.memory))
        return self.x


def _integrate(net, law, aqm, duration, dt, queue, record_every):
    if _USE_JIT and isinstance(law, (Reno, Stpd, Primo)):
        run = _integrate_compiled(net, law, aqm, duration, dt, queue, record_every)
        if run is not None:
            return run
    if isinstance(law, WindowLaw):
        state = _WindowLawState(law, net, dt)
    elif isinstance(law, RateLaw):
        state = _RateLawState(law, net, dt)
    else:
        state = law._start(net, dt)
    capacity, buffer, routes = net.capacity, net.buffer, net.routes
    routes_f = routes.astype(float)
    weights = net.n_flows
    inv_capacity = 1.0 / capacity
    single = net.n_links == 1 and net.n_classes == 1
    steps = int(np.ceil(duration / dt - 1e-9))
    length = int(np.ceil(state.span / dt)) + 3
    average = queue.copy()
    overflow_p = np.zeros_like(queue)
    red_gain = None
    if isinstance(aqm, Red) and aqm.averaging is not None:
        red_gain = _link_shaped("averaging", aqm.averaging, queue.shape)
    pi = aqm.params if isinstance(aqm, Pi) else None
    if pi is not None:  # PI state: p, the last sampled queue, the next sample
        pi_p, pi_q, pi_next = np.zeros_like(queue), queue.copy(), 0.0

    def path(link_values):  # (B, L) -> sum over each class's path (B, N)
        return link_values if single else link_values @ routes_f

    def path_product(link_values):
        if single:
            return link_values
        out = np.ones((net.batch_size, net.n_classes))
        for l in range(net.n_links):
            out = out * np.where(routes[l], link_values[:, l:l + 1], 1.0)
        return out

    def arrivals(rate):
        return rate * weights if single else (rate * weights) @ routes_f.T

    def link_signals(time, queue, rate):
        marking = pi_p if pi is not None else aqm._marking(queue, average, time)
        p_link = overflow_p if marking is None else 1 - (1 - marking) * (1 - overflow_p)
        y = arrivals(rate)
        busy = (queue > 0) | (y > capacity)
        # a busy queue serves the arriving flows in proportion; with nothing
        # arriving the share is moot and the flows' reception rate x * sigma is 0
        sigma = np.divide(capacity, y, out=np.ones_like(y), where=busy & (y > 0))
        if single:
            return p_link, rate * sigma
        return 1 - path_product(1 - p_link), rate * path_product(sigma)

    round_trip = net.propagation_delay + path(queue * inv_capacity)
    rate = state.rate(round_trip)
    n_records = steps // record_every + 1
    _check_memory(n_records, length, queue.size, rate.size, len(state.signals),
                  duration, dt, record_every, state.span)
    records = {name: np.empty((n_records,) + shape) for name, shape in (
        ("queue", queue.shape), ("rate", rate.shape), ("window", rate.shape),
        ("round_trip", rate.shape), ("probability", rate.shape),
        ("reception_rate", rate.shape))}
    sum_queue = np.zeros_like(queue)
    sum_rate = np.zeros_like(rate)
    sum_reception = np.zeros_like(rate)
    dropped = np.zeros_like(queue)
    history = None
    needs_delay = "queueing_delay" in state.signals
    for k in range(steps + 1):
        time = k * dt
        if pi is not None and time >= pi_next - 1e-9 * dt:
            pi_p = np.clip(pi_p + _aqm.pi_increment_core(queue, pi_q, pi.reference, pi.a, pi.b),
                           0.0, 1.0)
            pi_q = queue.copy()
            pi_next += pi.period
        round_trip = net.propagation_delay + path(queue * inv_capacity)
        probability, reception = link_signals(time, queue, rate)
        signals = {"rate": rate, "probability": probability, "reception_rate": reception}
        if needs_delay:
            signals["queueing_delay"] = round_trip - net.propagation_delay
        if hasattr(state, "extra_signals"):
            signals.update(state.extra_signals(round_trip, reception))
        if history is None:
            history = _History(length, state.signals, signals)
        history.write(k, signals)
        if k % record_every == 0:
            row = k // record_every
            records["queue"][row] = queue
            records["rate"][row] = rate
            records["window"][row] = (state.current_window(rate, round_trip)
                                      if hasattr(state, "current_window") else rate * round_trip)
            records["round_trip"][row] = round_trip
            records["probability"][row] = probability
            records["reception_rate"][row] = reception
        if k == steps:
            break
        sum_queue += queue
        sum_rate += rate
        sum_reception += reception
        rate = state.advance(k, round_trip, history, signals)
        y = arrivals(rate)
        raw = queue + dt * (y - capacity)
        excess = np.maximum(raw - buffer, 0.0)
        dropped += excess
        # excess > 0 implies y > C > 0, so the division is safe where it is done
        overflow_p = np.divide(excess, dt * y, out=np.zeros_like(excess), where=excess > 0)
        if red_gain is not None:
            average = _aqm.red_average_step_core(average, queue, red_gain, dt)
        queue = np.minimum(np.maximum(raw, 0.0), buffer)
    time = np.arange(n_records) * record_every * dt
    return FluidRun(time=time, mean_queue=sum_queue / steps, mean_rate=sum_rate / steps,
                    mean_reception_rate=sum_reception / steps,
                    dropped=dropped, dt=dt, network=net, law=law, aqm=aqm, **records)


def _integrate_compiled(net, law, aqm, duration, dt, queue, record_every):
    """:func:`_integrate` through the compiled loop of :mod:`._fluid_jit`; None if it cannot.

    A FixedMarking given as a function of time is called at every step before
    the loop, as the numpy loop calls it (times k dt, k = 0 .. steps, in
    order); it cannot when those values would take more than
    _MARKING_SERIES_BYTES.  It is not used for more than _JIT_MAX_WIDTH flow
    classes or links over the batch (there the numpy loop is as fast or
    faster: the compiled loop waits on one history read per flow at a
    time).  It cannot for routes with a class on more than two links or a
    link with more than two classes (the numpy loop's matrix products may add
    three or more terms in another order), for parameters that do not
    broadcast (the numpy loop raises the error), and when a value stops
    being a finite number (the numpy loop's checks name the cause).  Its
    results are bit for bit the numpy loop's (benchmarks/fluid_identity.py).
    """
    routes = net.routes
    if routes.sum(axis=0).max() > 2 or routes.sum(axis=1).max() > 2 \
            or net.batch_size * max(net.n_links, net.n_classes) > _JIT_MAX_WIDTH:
        return None
    steps = int(np.ceil(duration / dt - 1e-9))
    series = isinstance(aqm, FixedMarking) and callable(aqm.probability)
    if series and 8.0 * (steps + 1) * queue.size > _MARKING_SERIES_BYTES:
        return None
    from . import _fluid_jit as jit

    shape_links = queue.shape
    shape_classes = (net.batch_size, net.n_classes)
    try:
        with np.errstate(all="ignore"):
            state = law._start(net, dt)
            law_arrays = np.zeros((4,) + shape_classes)
            if isinstance(law, Reno):
                kind, start = jit.RENO, state.window
                law_scalars = np.array([law.min_window, law.max_window], dtype=float)
            elif isinstance(law, Stpd):
                kind, start = jit.STPD, state.x
                law_arrays[0] = state.kp * state.dt / state.slot
                law_arrays[1] = state.kd
                law_arrays[2] = state.slot
                if law.delay is not None:
                    law.delay / dt  # noqa: B018  (a list fails here as in the numpy loop)
                    law_arrays[3] = np.broadcast_to(np.asarray(law.delay, dtype=float),
                                                    shape_classes)
                law_scalars = np.array([law.reference, 1.0 if law.delay is None else 0.0],
                                       dtype=float)
            else:
                kind, start = jit.PRIMO, state.x
                if not np.all(state.ftt_ref > 0):
                    return None
                law_arrays[0] = state.ftt_ref
                law_arrays[1] = state.lookup
                p = law.params
                law_scalars = np.array([p.W1, p.W2, p.F_str, p.F_mod, p.F_rel, p.TH_str,
                                        p.TH_mod, p.TH_rel], dtype=float)
            link_arrays = np.zeros((4,) + shape_links)
            aqm_scalars = np.zeros(4)
            if isinstance(aqm, DropTail):
                aqm_kind = jit.DROPTAIL
            elif isinstance(aqm, Red):
                aqm_kind = jit.RED
                for j, name in enumerate(("min_threshold", "max_threshold", "max_probability")):
                    link_arrays[j] = _link_shaped(name, getattr(aqm, name), shape_links)
                if aqm.averaging is not None:
                    link_arrays[3] = _link_shaped("averaging", aqm.averaging, shape_links)
                aqm_scalars[:] = (float(aqm.gentle), jit.SPACING[aqm.spacing],
                                  float(aqm.averaging is not None),
                                  _aqm.RED_NO_MIN_QUEUE if aqm.min_queue is None
                                  else aqm.min_queue)
            elif isinstance(aqm, Pi):
                aqm_kind = jit.PI
                pi = aqm.params
                aqm_scalars[:] = (pi.a, pi.b, pi.reference, pi.period)
            elif not series:
                aqm_kind = jit.FIXED
                link_arrays[0] = _link_shaped("probability", aqm.probability, shape_links)
    except (ValueError, TypeError, ParameterError):
        return None
    length = int(np.ceil(state.span / dt)) + 3
    n_records = steps // record_every + 1
    _check_memory(n_records, length, queue.size, start.size, len(state.signals),
                  duration, dt, record_every, state.span)
    records = {name: np.empty((n_records,) + shape) for name, shape in (
        ("queue", shape_links), ("rate", shape_classes), ("window", shape_classes),
        ("round_trip", shape_classes), ("probability", shape_classes),
        ("reception_rate", shape_classes))}
    sums = [np.zeros(shape_links), np.zeros(shape_classes), np.zeros(shape_classes),
            np.zeros(shape_links)]
    marking_series = np.zeros((0, 1, 1))
    if series:  # the numpy loop's call at every step (its checks raise here)
        aqm_kind = jit.FIXED_SERIES
        marking_series = np.empty((steps + 1,) + shape_links)
        for k in range(steps + 1):
            marking_series[k] = aqm._marking(queue, None, k * dt)
    jit.ensure_fresh()
    def own(arr):  # a writable C-ordered copy: one compiled signature for every call
        return np.array(arr, dtype=float, order="C")

    status = jit.integrate(
        kind, aqm_kind, int(steps), int(record_every), float(dt), int(length),
        bool(net.n_links == 1 and net.n_classes == 1), own(routes), own(net.capacity),
        own(net.buffer), 1.0 / net.capacity, own(net.propagation_delay), own(net.n_flows),
        own(queue), own(start), law_arrays, law_scalars, link_arrays,
        aqm_scalars, marking_series, records["queue"], records["rate"], records["window"],
        records["round_trip"], records["probability"], records["reception_rate"], *sums)
    if status != 0:
        return None
    sum_queue, sum_rate, sum_reception, dropped = sums
    time = np.arange(n_records) * record_every * dt
    return FluidRun(time=time, mean_queue=sum_queue / steps, mean_rate=sum_rate / steps,
                    mean_reception_rate=sum_reception / steps,
                    dropped=dropped, dt=dt, network=net, law=law, aqm=aqm, **records)
