# ctlcc.laws.user - a researcher's own window or rate law, written as one function
"""Your own control law: :class:`WindowLaw`, :class:`RateLaw`.

A law is one function of numbers, written with ordinary arithmetic, so that
the same function feeds the z-domain analysis (:func:`ctlcc.closed_loop`
calls it on sympy symbols) and the packet engine (which compiles it with
numba into its event loop); see ARCHITECTURE.md, "One law, two uses".

A window law, in the signals of ST-PD TCP (Xu (2002), §3.4.3.1)::

    update(window, error, memory, **gains) -> (new_window, new_memory)

``window`` is the congestion window [packets]; ``error`` is ST-PD's control
error, the reference minus the backlog estimate of eqs. (3.2)-(3.4)
[packets], the estimate the ``Stpd`` sender measures; ``memory`` is a tuple
of ``memory`` floats the law carries from one update to the next (zeros at
the start); the gains are keyword floats.  A rate law, in Primo's signals
(Chatté, Ducourthial & Niculescu (2006), §III)::

    update(rate, excess, received, previous, memory, **gains) -> (new_rate, new_memory)

``rate`` is the current sending rate [packets/s], ``excess`` the forward
trip time's excess over its reference, ΔFTT_D / FTT_ref [1], ``received``
the receiver's reception rate [packets/s] and ``previous`` the sending rate
one round trip ago [packets/s].

A law branches with :func:`select`, never with a Python ``if`` on a signal:
``select`` is a plain ``if`` for floats and numba, ``numpy.where`` for
arrays and ``sympy.Piecewise`` for symbols, so a piecewise law such as
Primo's Algorithm 1 stays one function (:func:`primo_rate_update`).

The law is checked once, on sample numbers, when it is built: its
signature, its gains, its options (the window mechanics of ``Stpd``, the
options of ``Primo``), the length of the memory it returns and that its
results are finite numbers.  Anything wrong raises
:class:`ctlcc.errors.LawError` (a ``ValueError`` and a ``TypeError``)
naming the law and the argument.

References
----------
Xu (2002), eqs. (3.2)-(3.5); Chatté, Ducourthial & Niculescu (2006), §III,
Algorithm 1.

Examples
--------
A PI window law with one memory entry, the last error:

>>> def pi(window, error, memory, kp, ki):
...     return window + kp * (error - memory[0]) + ki * error, (error,)
>>> law = WindowLaw(pi, memory=1, gains={"kp": 0.2, "ki": 0.05})
>>> law
WindowLaw('pi', memory=1, gains={'kp': 0.2, 'ki': 0.05}, per='rtt')
>>> law.evaluate(10.0, 1.0, (0.0,))
(10.25, (1.0,))
"""

import inspect
import math
import numbers
from types import MappingProxyType

import numpy as np
from numba.extending import overload

from .._validation import check_finite, check_result, is_symbolic
from ..errors import LawError
from . import primo as _primo
from . import stpd as _stpd

__all__ = [
    "WindowLaw",
    "RateLaw",
    "select",
    "pd_law",
    "primo_law",
    "pd_window_update",
    "primo_rate_update",
    "WINDOW_PER",
    "RATE_PER",
    "WINDOW_MECHANICS",
    "RATE_MECHANICS",
    "MAX_MEMORY",
]

#: When a window law runs: once per round trip, or on every ACK.
WINDOW_PER = ("rtt", "ack")
#: When a rate law runs: before each packet (as Primo), or once per round trip.
RATE_PER = ("packet", "rtt")
#: Largest memory a law may carry. [floats]  The memory is a tuple the packet
#: engine compiles into its event loop; longer ones are better written as a
#: few filtered quantities.
MAX_MEMORY = 16


class _Option:
    """One mechanics option: default, and the choices or a check of its value."""

    __slots__ = ("default", "choices", "check", "meaning")

    def __init__(self, default, choices=None, check=None, meaning=""):
        self.default, self.choices, self.check, self.meaning = default, choices, check, meaning

    def validate(self, law, name, value):
        if self.choices is not None:
            if not any(_same_choice(value, c) for c in self.choices):
                raise LawError(f"{law}: {name} must be one of "
                               f"{', '.join(map(repr, self.choices))}; got {value!r}")
            return value
        return self.check(law, name, value)

    def __repr__(self):
        if self.choices is not None:
            return f"{self.default!r} (one of {', '.join(map(repr, self.choices))})"
        return f"{self.default!r} ({self.meaning})"


def _same_choice(value, choice):
    if isinstance(choice, bool) or isinstance(value, (bool, np.bool_)):
        return isinstance(value, (bool, np.bool_)) and bool(value) is choice
    return isinstance(value, str) and value == choice


def _number_in(low, high, closed_low, meaning):
    def check(law, name, value):
        number = _real(law, name, value)
        lower_ok = number >= low if closed_low else number > low
        if not (lower_ok and number < high):
            raise LawError(f"{law}: {name} must be {meaning}, got {value!r}")
        return number
    return check


#: Window mechanics of a :class:`WindowLaw`: name -> default and choices.
#: Exactly the options (other than ``update``, which is ``per``) and defaults
#: of :class:`ctlcc.sim.senders.stpd.Stpd`, whose docstring says what each
#: does and the evidence for each default (tests/laws/test_user_law.py
#: checks that the two agree).
WINDOW_MECHANICS = MappingProxyType({
    "reference": _Option(_stpd.REFERENCE_OCCUPANCY,
                         check=_number_in(0.0, math.inf, True, "a finite number >= 0"),
                         meaning="desired occupancy ref of eq. (3.2), >= 0 [packets]"),
    "bdp": _Option("round", ("rtt_min", "round")),
    "repair": _Option("newreno", ("newreno", "dupack")),
    "inflation": _Option(True, (False, True)),
    "start": _Option("slow_start", ("pd", "slow_start")),
    "round_marker": _Option("after_send", ("after_send", "before_send")),
    "after_timeout": _Option("round_target",
                             ("pd", "slow_start", "handover_target", "round_target")),
    "timeout_round": _Option("continue", ("continue", "restart")),
    "slow_start_exit": _Option("backlog_or_loss", ("backlog_or_loss", "backlog")),
})

#: Options of a :class:`RateLaw`: those of :class:`ctlcc.sim.senders.primo.Primo`
#: with its defaults, and ``tau`` (the ΔFTT lookup delay D = tau RTT_ref, in
#: round trips, :attr:`ctlcc.laws.primo.PrimoParams.tau`).
RATE_MECHANICS = MappingProxyType({
    "timeout": _Option("outstanding", ("outstanding", "literal")),
    "restart_jitter": _Option(0.5, check=_number_in(0.0, 1.0, True, "a number in [0, 1)"),
                              meaning="spread of the start-up restart timer, in [0, 1)"),
    "reception_rate": _Option("instantaneous", ("instantaneous", "mean_gap")),
    "timeout_backoff": _Option(True, (False, True)),
    "tau": _Option(_primo.PrimoParams().tau,
                   check=_number_in(0.0, math.inf, False, "a finite number > 0"),
                   meaning="ΔFTT lookup delay D = tau RTT_ref, > 0 [round trips]"),
})


def select(condition, if_true, if_false):
    """*if_true* where *condition* holds, else *if_false*.

    The one branch a law may take on its signals.  For Python and numpy
    scalars (and inside numba-compiled code) it is a plain ``if``; when any
    argument is a numpy array it is :func:`numpy.where`; when any is a sympy
    object it is :class:`sympy.Piecewise` (or the branch itself, when the
    condition is decided).  Both branches are evaluated.

    Parameters
    ----------
    condition : bool, ndarray of bool or sympy relational
        The test, e.g. ``excess >= threshold``.
    if_true, if_false : float, ndarray or sympy expression
        The two values.

    Returns
    -------
    float, ndarray or sympy expression

    References
    ----------
    Chatté, Ducourthial & Niculescu (2006), Algorithm 1 (a law with
    branches, written with ``select`` in :func:`primo_rate_update`).

    Examples
    --------
    >>> select(0.4 >= 0.34, 0.95, 1.0)
    0.95
    >>> select(np.array([0.1, 0.5]) >= 0.34, 0.95, 1.0).tolist()
    [1.0, 0.95]
    >>> import sympy as sp
    >>> x = sp.Symbol("x")
    >>> select(x >= 1, 2 * x, x)
    Piecewise((2*x, x >= 1), (x, True))
    """
    if is_symbolic(condition) or is_symbolic(if_true) or is_symbolic(if_false):
        import sympy as sp

        decided = sp.sympify(condition)
        if decided is sp.true:
            return if_true
        if decided is sp.false:
            return if_false
        return sp.Piecewise((if_true, decided), (if_false, True))
    if any(isinstance(v, np.ndarray) for v in (condition, if_true, if_false)):
        return np.where(condition, if_true, if_false)
    return if_true if condition else if_false


@overload(select)
def _select_numba(condition, if_true, if_false):
    """numba's ``select``: a plain branch (scalars)."""
    def implementation(condition, if_true, if_false):
        if condition:
            return if_true
        return if_false
    return implementation


class _Law:
    """What :class:`WindowLaw` and :class:`RateLaw` share (private)."""

    #: "window" or "rate"
    kind = ""
    #: names of the signals before ``memory``
    signals = ()
    _pers = ()
    _default_per = ""
    _options = MappingProxyType({})
    #: two chained sample points: the signals, numbers a sender would see
    _samples = ()

    def __init__(self, update, *, memory=0, gains=None, per=None, name=None, **mechanics):
        self._name = _law_name(update, name)
        label = f"{type(self).__name__} {self._name!r}"
        if not callable(update):
            raise LawError(f"{label}: update must be a function "
                           f"{self._shape()}, got {type(update).__name__} {update!r}")
        self._update = update
        self._memory = _memory_length(label, memory)
        per = self._default_per if per is None else per
        if not (isinstance(per, str) and per in self._pers):
            raise LawError(f"{label}: per must be one of {', '.join(map(repr, self._pers))}; "
                           f"got {per!r}")
        self._per = per
        self._gains = MappingProxyType(self._check_gains(label, gains))
        self._mechanics = MappingProxyType(self._check_mechanics(label, mechanics))
        self._check_on_samples(label)

    # -- public ---------------------------------------------------------

    @property
    def update(self):
        """The law's function (plain arithmetic)."""
        return self._update

    @property
    def memory(self):
        """Number of floats the law carries from one update to the next."""
        return self._memory

    @property
    def gains(self):
        """Gains, name -> float, in the order of the function's parameters.

        Parameters the function gives a default and the caller did not set
        are included with that default, so ``update(*signals, memory,
        *law.gains.values())`` is a valid positional call.
        """
        return dict(self._gains)

    @property
    def per(self):
        """When the law runs (see :data:`WINDOW_PER`, :data:`RATE_PER`)."""
        return self._per

    @property
    def mechanics(self):
        """The sender's options, name -> value (defaults included)."""
        return dict(self._mechanics)

    @property
    def name(self):
        """The law's name (the function's, unless given)."""
        return self._name

    def with_gains(self, **gains):
        """The same law with some gains changed (checked again).

        References
        ----------
        Xu (2002), eq. (3.5); Chatté, Ducourthial & Niculescu (2006), Algorithm 1.

        Examples
        --------
        >>> pd_law(0.033, 0.368).with_gains(kp=0.1).gains
        {'kp': 0.1, 'kd': 0.368}
        """
        unknown = sorted(set(gains) - set(self._gains))
        if unknown:
            raise LawError(f"{self._label()}: with_gains got {', '.join(map(repr, unknown))}, "
                           f"not a gain of the law; its gains are "
                           f"{', '.join(self._gains) or 'none'}")
        return self._replace(gains={**self._gains, **gains})

    def with_mechanics(self, **options):
        """The same law with some options changed (checked again).

        References
        ----------
        Xu (2002), eq. (3.5); Chatté, Ducourthial & Niculescu (2006), Algorithm 1.

        Examples
        --------
        >>> pd_law(0.033, 0.368).with_mechanics(start="pd").mechanics["start"]
        'pd'
        """
        return self._replace(**{**self._mechanics, **options})

    def __repr__(self):
        changed = {k: v for k, v in self._mechanics.items() if v != self._options[k].default
                   or type(v) is not type(self._options[k].default)}
        tail = "".join(f", {k}={v!r}" for k, v in changed.items())
        return (f"{type(self).__name__}({self._name!r}, memory={self._memory}, "
                f"gains={dict(self._gains)!r}, per={self._per!r}{tail})")

    def _key(self):
        return (type(self), self._update, self._memory, tuple(self._gains.items()), self._per,
                tuple(self._mechanics.items()), self._name)

    def __eq__(self, other):
        return isinstance(other, _Law) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    # -- private --------------------------------------------------------

    def _label(self):
        return f"{type(self).__name__} {self._name!r}"

    def _shape(self):
        return f"({', '.join(self.signals)}, memory, **gains) -> (new_{self.signals[0]}, new_memory)"

    def _replace(self, gains=None, **mechanics):
        return type(self)(self._update, memory=self._memory,
                          gains=dict(self._gains) if gains is None else gains, per=self._per,
                          name=self._name, **(mechanics or dict(self._mechanics)))

    def _check_gains(self, label, gains):
        if gains is None:
            gains = {}
        if not hasattr(gains, "items") or not hasattr(gains, "keys"):
            raise LawError(f"{label}: gains must be a dict name -> number, got "
                           f"{type(gains).__name__} {gains!r}")
        for key in gains:
            if not isinstance(key, str):
                raise LawError(f"{label}: gain names must be strings, got {key!r}")
        values = {key: _real(label, f"gain {key!r}", value) for key, value in gains.items()}
        try:
            signature = inspect.signature(self._update)
        except (TypeError, ValueError) as err:
            raise LawError(f"{label}: cannot read the signature of update {self._update!r} "
                           f"(write it as a Python function {self._shape()})") from err
        parameters = list(signature.parameters.values())
        inputs = len(self.signals) + 1
        text = f"{self._name}{signature}"
        for parameter in parameters:
            if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
                raise LawError(f"{label}: update {text} must list its gains by name (no "
                               f"*args or **kwargs: numba compiles named parameters)")
        positional = [p for p in parameters[:inputs]
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        if len(positional) < inputs:
            raise LawError(f"{label}: update must take {', '.join(self.signals)}, memory as "
                           f"its first {inputs} parameters (then the gains by name), i.e. "
                           f"{self._shape()}; got {text}")
        extra = parameters[inputs:]
        names = [p.name for p in extra]
        unknown = [key for key in values if key not in names]
        if unknown:
            raise LawError(f"{label}: gain {unknown[0]!r} (got {unknown[0]}="
                           f"{values[unknown[0]]!r}) is not a parameter of update {text}; "
                           f"its gains (parameters after memory) are "
                           f"{', '.join(map(repr, names)) or 'none'}")
        ordered = {}
        for parameter in extra:
            if parameter.kind == parameter.POSITIONAL_ONLY:
                raise LawError(f"{label}: gain {parameter.name!r} of update {text} is "
                               f"positional-only; gains are passed by name")
            if parameter.name in values:
                ordered[parameter.name] = values[parameter.name]
            elif parameter.default is parameter.empty:
                raise LawError(f"{label}: update {text} takes {parameter.name!r}, which has no "
                               f"default and is not in gains (got gains={values!r}); pass gains={{"
                               f"{parameter.name!r}: ...}} or give it a default")
            else:
                ordered[parameter.name] = _real(
                    label, f"the default of {parameter.name!r}", parameter.default)
        return ordered

    def _check_mechanics(self, label, mechanics):
        unknown = [k for k in mechanics if k not in self._options]
        if unknown:
            raise LawError(f"{label}: unknown option {unknown[0]!r} (got {unknown[0]}="
                           f"{mechanics[unknown[0]]!r}); the options of a "
                           f"{type(self).__name__} are {', '.join(self._options)}")
        out = {}
        for key, option in self._options.items():
            value = mechanics.get(key, option.default)
            value = option.validate(label, key, value)
            out[key] = bool(value) if isinstance(value, (bool, np.bool_)) else value
        return out

    def _call(self, signals, memory, gains):
        return self._update(*signals, memory, **gains)

    def _check_on_samples(self, label):
        """Run two updates on sample numbers, the memory carried from one to the next."""
        memory = (0.0,) * self._memory
        for signals in self._samples:
            described = ", ".join(f"{n}={v!r}" for n, v in zip(self.signals, signals))
            gains = ", ".join(f"{k}={v!r}" for k, v in self._gains.items())
            where = (f"on sample numbers ({described}, memory={memory!r}"
                     + (f"; gains {gains})" if gains else ")"))
            try:
                result = self._call(signals, memory, self._gains)
            except Exception as err:
                raise LawError(f"{label}: update raised {type(err).__name__} {where}: {err} "
                               f"(a law is plain arithmetic on floats; branch with "
                               f"ctlcc.laws.user.select)") from err
            _, memory = self._check_result(label, result, where)

    def _check_result(self, label, result, where):
        first = f"new_{self.signals[0]}"
        if not (isinstance(result, (tuple, list)) and len(result) == 2):
            raise LawError(f"{label}: update must return a pair ({first}, new_memory) "
                           f"{where}; got {result!r}")
        value, memory = result
        if not _is_real_number(value):
            raise LawError(f"{label}: {first} must be a real number {where}; got "
                           f"{type(value).__name__} {value!r}")
        if not math.isfinite(float(value)):
            raise LawError(f"{label}: {first} is not finite {where}: got {float(value)!r}")
        if not isinstance(memory, (tuple, list)):
            raise LawError(f"{label}: new_memory must be a tuple of {self._memory} floats "
                           f"{where}; got {type(memory).__name__} {memory!r}")
        if len(memory) != self._memory:
            raise LawError(f"{label}: memory={self._memory} but update returns a memory of "
                           f"length {len(memory)} {where}: got {tuple(memory)!r}; pass "
                           f"memory={len(memory)} or return {self._memory} value(s)")
        for index, entry in enumerate(memory):
            if not _is_real_number(entry):
                raise LawError(f"{label}: new_memory[{index}] must be a real number {where}; "
                               f"got {type(entry).__name__} {entry!r}")
            if not math.isfinite(float(entry)):
                raise LawError(f"{label}: new_memory[{index}] is not finite {where}: "
                               f"got {float(entry)!r}")
        return float(value), tuple(float(m) for m in memory)

    def _evaluate(self, signals, memory, gains):
        unknown = sorted(set(gains) - set(self._gains))
        if unknown:
            raise LawError(f"{self._label()}: evaluate got {', '.join(map(repr, unknown))}, "
                           f"not a gain of the law; its gains are "
                           f"{', '.join(self._gains) or 'none'}")
        if memory is None:
            memory = (0.0,) * self._memory
        if not isinstance(memory, (tuple, list)) or len(memory) != self._memory:
            raise LawError(f"{self._label()}: memory must be a tuple of {self._memory} "
                           f"value(s), got {memory!r}")
        signals = tuple(check_finite(name, value) for name, value in zip(self.signals, signals))
        memory = tuple(check_finite(f"memory[{i}]", value) for i, value in enumerate(memory))
        merged = {**self._gains, **{k: _real(self._label(), f"gain {k!r}", v)
                                    for k, v in gains.items()}}
        value, new_memory = self._call(tuple(signals), tuple(memory), merged)
        inputs = dict(zip(self.signals, signals))
        value = check_result(f"{self._name} ({self.signals[0]})", value, **inputs)
        return value, tuple(new_memory)


class WindowLaw(_Law):
    """A window law in ST-PD's signals, with ST-PD's mechanics.

    Parameters
    ----------
    update : callable
        ``update(window, error, memory, **gains) -> (new_window,
        new_memory)``, plain arithmetic (floats, numpy arrays, sympy
        symbols, numba).  ``window``: the congestion window [packets];
        ``error``: reference minus the backlog estimate of eqs. (3.2)-(3.4)
        [packets]; ``memory``: a tuple of *memory* floats (zeros at the
        start).  Branch with :func:`select`.
    memory : int, optional
        Length of the memory tuple, 0 .. :data:`MAX_MEMORY`.
    gains : dict, optional
        Keyword floats passed to *update*; every parameter of *update* after
        ``memory`` needs a gain or a default.
    per : {"rtt", "ack"}, optional
        The law runs once per round trip (as ST-PD) or on every ACK.
    name : str, optional
        Name used in messages and results (default: the function's).
    **mechanics
        The window mechanics of :class:`ctlcc.sim.senders.stpd.Stpd`, with
        its defaults: ``reference`` (ref of eq. 3.2 [packets]), ``bdp``,
        ``repair``, ``inflation``, ``start``, ``round_marker``,
        ``after_timeout``, ``timeout_round``, ``slow_start_exit``
        (:data:`WINDOW_MECHANICS`).  With the defaults the law runs exactly
        as ``Stpd`` with fixed gains: duplicate ACKs retransmit without a
        cut, the timer sets the window to one segment, slow start at the
        start and after a timeout.

    Raises
    ------
    ctlcc.errors.LawError
        Wrong signature, a gain the function does not take, a parameter
        with no gain and no default, gains that are not finite real numbers
        (bool is not a number), unknown options or values, a memory length
        that differs from what *update* returns, or a result that is not a
        finite number (checked on two sample updates).

    References
    ----------
    Xu (2002), eqs. (3.2)-(3.5), §4.2.

    Examples
    --------
    >>> def pi(window, error, memory, kp, ki):
    ...     return window + kp * (error - memory[0]) + ki * error, (error,)
    >>> law = WindowLaw(pi, memory=1, gains=dict(kp=0.2, ki=0.05))
    >>> law.gains, law.per, law.mechanics["reference"]
    ({'kp': 0.2, 'ki': 0.05}, 'rtt', 1.0)
    >>> WindowLaw(pi, memory=2, gains=dict(kp=0.2, ki=0.05))
    Traceback (most recent call last):
    ...
    ctlcc.errors.LawError: WindowLaw 'pi': memory=2 but update returns a memory of length 1 on sample numbers (window=10.0, error=0.5, memory=(0.0, 0.0); gains kp=0.2, ki=0.05): got (0.5,); pass memory=1 or return 2 value(s)
    """

    kind = "window"
    signals = ("window", "error")
    _pers = WINDOW_PER
    _default_per = "rtt"
    _options = WINDOW_MECHANICS
    _samples = ((10.0, 0.5), (30.0, -1.5))

    def evaluate(self, window, error, memory=None, **gains):
        """One update with numbers: ``(new_window, new_memory)``.

        Parameters
        ----------
        window : float or ndarray
            Congestion window. [packets]
        error : float or ndarray
            Control error, reference minus backlog estimate. [packets]
        memory : tuple, optional
            The law's memory (default zeros).
        **gains
            Gains to use instead of the law's.

        References
        ----------
        Xu (2002), eqs. (3.2)-(3.5).

        Examples
        --------
        >>> pd_law(0.5, 0.25).evaluate(10.0, -1.0, (0.0,))
        (9.25, (-1.0,))
        >>> pd_law(0.5, 0.25).evaluate(10.0, -1.0, (0.0,), kd=0.0)
        (9.5, (-1.0,))
        """
        return self._evaluate((window, error), memory, gains)


class RateLaw(_Law):
    """A rate law in Primo's signals, with Primo's mechanics.

    Parameters
    ----------
    update : callable
        ``update(rate, excess, received, previous, memory, **gains) ->
        (new_rate, new_memory)``, plain arithmetic.  ``rate``: current
        sending rate [packets/s]; ``excess``: ΔFTT_D / FTT_ref, the
        forward-trip-time excess read D = tau RTT_ref ago over its
        reference [1]; ``received``: the receiver's reception rate
        [packets/s]; ``previous``: the sending rate one round trip ago
        (Primo's old_rate) [packets/s]; ``memory``: a tuple of *memory*
        floats (zeros at the start).  Branch with :func:`select`.
    memory : int, optional
        Length of the memory tuple, 0 .. :data:`MAX_MEMORY`.
    gains : dict, optional
        Keyword floats passed to *update*.
    per : {"packet", "rtt"}, optional
        Before each packet (as Primo) or once per round trip.
    name : str, optional
    **mechanics
        The options of :class:`ctlcc.sim.senders.primo.Primo` with its
        defaults (``timeout``, ``restart_jitter``, ``reception_rate``,
        ``timeout_backoff``) and ``tau`` (:data:`RATE_MECHANICS`).

    Raises
    ------
    ctlcc.errors.LawError
        As :class:`WindowLaw`.

    References
    ----------
    Chatté, Ducourthial & Niculescu (2006), §III, Algorithm 1.

    Examples
    --------
    >>> def towards(rate, excess, received, previous, memory, gain):
    ...     return rate + gain * (received * (1 - excess) - rate), ()
    >>> law = RateLaw(towards, gains={"gain": 0.1})
    >>> law.per, law.evaluate(100.0, 0.2, 100.0, 100.0)
    ('packet', (98.0, ()))
    """

    kind = "rate"
    signals = ("rate", "excess", "received", "previous")
    _pers = RATE_PER
    _default_per = "packet"
    _options = RATE_MECHANICS
    _samples = ((100.0, 0.2, 100.0, 90.0), (95.0, 0.0, 95.0, 100.0))

    def evaluate(self, rate, excess, received, previous, memory=None, **gains):
        """One update with numbers: ``(new_rate, new_memory)``.

        Parameters
        ----------
        rate : float or ndarray
            Current sending rate. [packets/s]
        excess : float or ndarray
            ΔFTT_D / FTT_ref. [1]
        received : float or ndarray
            Reception rate. [packets/s]
        previous : float or ndarray
            Sending rate one round trip ago. [packets/s]
        memory : tuple, optional
            The law's memory (default zeros).
        **gains
            Gains to use instead of the law's.

        References
        ----------
        Chatté, Ducourthial & Niculescu (2006), §III, Algorithm 1.

        Examples
        --------
        >>> primo_law().evaluate(110.0, 0.2, 100.0, 120.0)
        (109.95, ())
        """
        return self._evaluate((rate, excess, received, previous), memory, gains)


# -- the papers' laws, written with the same cores ------------------------------------


def pd_window_update(window, error, memory, kp, kd):
    """ST-PD's PD law (3.5) as a window-law update.

    ``window + kp*error + kd*(error - memory[0])`` through
    :func:`ctlcc.laws.stpd.pd_update_core`, the core the ``Stpd`` sender
    and :func:`ctlcc.stpd_loop` use.

    Parameters
    ----------
    window : float, ndarray or sympy expression
        cwnd(n-1). [packets]
    error : float, ndarray or sympy expression
        err(n). [packets]
    memory : tuple
        ``(err(n-1),)``. [packets]
    kp, kd : float
        Gains. [1]

    Returns
    -------
    tuple
        ``(cwnd(n), (err(n),))``.

    References
    ----------
    Xu (2002), eq. (3.5).

    Examples
    --------
    >>> pd_window_update(10.0, -1.0, (0.0,), kp=0.5, kd=0.25)
    (9.25, (-1.0,))
    """
    return _stpd.pd_update_core(window, error, memory[0], kp, kd), (error,)


def primo_rate_update(rate, excess, received, previous, memory, W1, W2, F_str, F_mod, F_rel,
                      TH_str, TH_mod, TH_rel):
    """Primo's Algorithm 1 as a rate-law update (no memory).

    The regime is picked by ``excess`` = ΔFTT_D / FTT_ref against the
    thresholds with :func:`select`, and the update inside a regime is
    :func:`ctlcc.laws.primo.regime_update`, the core the ``Primo`` sender
    and :func:`ctlcc.primo_loop` use; "hold" keeps the rate.

    Parameters
    ----------
    rate, received, previous : float, ndarray or sympy expression
        Current rate, reception rate, rate one round trip ago. [packets/s]
    excess : float, ndarray or sympy expression
        ΔFTT_D / FTT_ref. [1]
    memory : tuple
        Empty.
    W1, W2, F_str, F_mod, F_rel, TH_str, TH_mod, TH_rel : float
        :class:`ctlcc.laws.primo.PrimoParams`. [1]

    Returns
    -------
    tuple
        ``(new_rate, ())``.

    References
    ----------
    Chatté, Ducourthial & Niculescu (2006), Algorithm 1.

    Examples
    --------
    >>> p = _primo.PrimoParams()
    >>> primo_rate_update(110.0, 0.2, 100.0, 120.0, (), p.W1, p.W2, p.F_str, p.F_mod,
    ...                   p.F_rel, p.TH_str, p.TH_mod, p.TH_rel)
    (109.95, ())
    """
    strong = _primo.regime_update(previous, rate, received, F_str, W1, W2)
    moderate = _primo.regime_update(previous, rate, received, F_mod, W1, W2)
    release = _primo.regime_update(previous, rate, received, F_rel, W1, W2)
    new = select(excess >= TH_str, strong,
                 select(excess >= TH_mod, moderate,
                        select(excess < TH_rel, release, rate)))
    return new, ()


def pd_law(kp, kd, **mechanics):
    """ST-PD's PD law (3.5) with fixed gains, as a :class:`WindowLaw`.

    Runs as ``Stpd(gains=(kp, kd))`` (the window mechanics' defaults are
    ST-PD's) and ``closed_loop(pd_law(kp, kd), m)`` is
    ``stpd_loop(kp, kd, m)``.

    Parameters
    ----------
    kp, kd : float
        Proportional and derivative gains, finite and >= 0. [1]
    **mechanics
        Options of :data:`WINDOW_MECHANICS` (and ``per``).

    Returns
    -------
    WindowLaw

    References
    ----------
    Xu (2002), eqs. (3.5), (4.1).

    Examples
    --------
    >>> pd_law(0.033, 0.368)
    WindowLaw('pd', memory=1, gains={'kp': 0.033, 'kd': 0.368}, per='rtt')
    """
    for label, value in (("kp", kp), ("kd", kd)):
        number = _real("pd_law", label, value)
        if number < 0:
            raise LawError(f"pd_law: {label} must be a finite number >= 0, got {value!r}")
    return WindowLaw(pd_window_update, memory=1, gains={"kp": kp, "kd": kd}, name="pd",
                     **mechanics)


def primo_law(params=None, **mechanics):
    """Primo's Algorithm 1 with its parameters, as a :class:`RateLaw`.

    Parameters
    ----------
    params : ctlcc.laws.primo.PrimoParams, optional
        Weights, factors and thresholds (the paper's set by default);
        ``params.tau`` becomes the ``tau`` option.
    **mechanics
        Options of :data:`RATE_MECHANICS` other than ``tau`` (and ``per``).

    Returns
    -------
    RateLaw

    References
    ----------
    Chatté, Ducourthial & Niculescu (2006), §III-E, Algorithm 1.

    Examples
    --------
    >>> law = primo_law()
    >>> law.gains["TH_str"], law.mechanics["tau"], law.per
    (0.34, 1.0, 'packet')
    """
    if params is None:
        params = _primo.PrimoParams()
    if not isinstance(params, _primo.PrimoParams):
        raise LawError(f"primo_law: params must be a PrimoParams, got "
                       f"{type(params).__name__} {params!r}")
    if "tau" in mechanics:
        raise LawError("primo_law: tau comes from params (PrimoParams.tau); got tau="
                       f"{mechanics['tau']!r} as an option")
    gains = {name: getattr(params, name) for name in
             ("W1", "W2", "F_str", "F_mod", "F_rel", "TH_str", "TH_mod", "TH_rel")}
    return RateLaw(primo_rate_update, gains=gains, name="primo", tau=params.tau, **mechanics)


# -- private helpers ---------------------------------------------------------------------


def _law_name(update, name):
    if name is None:
        name = getattr(update, "__name__", None) or type(update).__name__
        return "lambda" if name == "<lambda>" else name
    if not isinstance(name, str) or not name:
        raise LawError(f"law name must be a non-empty str, got {name!r}")
    return name


def _memory_length(label, memory):
    if isinstance(memory, (bool, np.bool_)) or not isinstance(memory, numbers.Integral):
        raise LawError(f"{label}: memory must be an integer in 0..{MAX_MEMORY} (the length "
                       f"of the memory tuple), got {type(memory).__name__} {memory!r}")
    if not 0 <= memory <= MAX_MEMORY:
        raise LawError(f"{label}: memory must be an integer in 0..{MAX_MEMORY}, got {memory!r}")
    return int(memory)


def _is_real_number(value):
    if isinstance(value, (bool, np.bool_)):
        return False
    if isinstance(value, np.ndarray):
        return value.ndim == 0 and value.dtype.kind in "iuf"
    return isinstance(value, numbers.Real)


def _real(label, name, value):
    """A finite real number (bool is not one) as a float, else LawError."""
    if not _is_real_number(value):
        raise LawError(f"{label}: {name} must be a finite real number, got "
                       f"{type(value).__name__} {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise LawError(f"{label}: {name} must be a finite real number, got {value!r}")
    return number
