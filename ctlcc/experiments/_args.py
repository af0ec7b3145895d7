# ctlcc.experiments._args - the experiments' argument checks, by argument name
"""Checks of the experiments' arguments, shared by name.

The experiments of every paper take the same kinds of argument (protocols,
a duration, seeds, a buffer, bins...).  :func:`checked` wraps an experiment
so that each argument whose name is in :data:`CHECKS` is checked before
anything is simulated: a bad value raises
:class:`~ctlcc.errors.ParameterError` naming the argument, its valid range
and the value received, instead of surfacing minutes later as numpy's or
the engine's error, or not at all (``quick='false'`` is a true string).

The checks only refuse: the function receives the arguments exactly as
they were given, so a valid call computes what it computed before.
"""

import functools
import inspect
import numbers

import numpy as np

from .._validation import (check_bool, check_choice, check_finite, check_instance,
                           check_interval, check_nonnegative, check_positive, check_positive_int,
                           check_sequence)
from ..errors import ParameterError

#: Largest packet index or packet count an experiment measures or draws: a
#: packet list of 2**32 indices is 32 GiB, beyond the machine's memory. [packets]
MAX_PACKETS = 2**32

#: Largest drop-tail buffer (the engine's bound, ``ctlcc.sim.scenarios.MAX_BUFFER``). [packets]
MAX_BUFFER = 2**24


def _short(value):
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def protocol(name, value):
    """A sender: one of the engine's protocol names, or a sender spec / user law."""
    from ..laws.user import RateLaw, WindowLaw
    from ..sim.senders import PROTOCOLS, SenderSpec

    if isinstance(value, (SenderSpec, WindowLaw, RateLaw)):
        return value
    if not isinstance(value, str):
        raise ParameterError(f"{name} must be one of {', '.join(map(repr, PROTOCOLS))} or a "
                             f"sender spec; got {type(value).__name__} {_short(value)}")
    return check_choice(name, value, PROTOCOLS)


def _distinct(name, items):
    seen = []
    for x in items:
        if any(x is y or (type(x) is type(y) and x == y) for y in seen):
            raise ParameterError(f"{name} must not repeat an item (each is one run), got "
                                 f"{_short(list(items))} (repeats {x!r})")
        seen.append(x)
    return items


def protocols(name, value):
    """A non-empty sequence of distinct senders."""
    return _distinct(name, check_sequence(name, value, protocol))


def seed(name, value):
    """A seed: an integer >= 0 (the engine's seeds)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral) \
            or value < 0:
        raise ParameterError(f"{name} must be an integer >= 0, got {_short(value)}")
    return value


def seeds(name, value):
    """A non-empty sequence of distinct seeds."""
    return _distinct(name, check_sequence(name, value, seed))


def positive(name, value):
    """A positive finite number."""
    return check_positive(name, value, scalar=True)


def nonnegative(name, value):
    """A finite number >= 0."""
    return check_nonnegative(name, value, scalar=True)


def open_unit(name, value):
    """A fraction in (0, 1)."""
    return check_interval(name, value, 0.0, 1.0, "neither", scalar=True)


def loss(name, value):
    """A loss probability in [0, 1)."""
    return check_interval(name, value, 0.0, 1.0, "left", scalar=True)


def buffer(name, value):
    """A buffer: an integer in [1, MAX_BUFFER] packets."""
    return check_positive_int(name, value, MAX_BUFFER)


def buffers(name, value):
    return check_sequence(name, value, buffer)


def _bounded_count(name, value, maximum, why):
    """An integer in [1, *maximum*]; above it, the message says *why* the bound exists."""
    if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)) \
            and value > maximum:
        raise ParameterError(f"{name} must be an integer >= 1 and <= {maximum} ({why}), "
                             f"got {value!r}")
    return check_positive_int(name, value, maximum)


def packet_index(name, value):
    """A packet count or index: an integer in [1, MAX_PACKETS]."""
    return _bounded_count(name, value, MAX_PACKETS,
                          "MAX_PACKETS: 2**32 packets are beyond what memory holds")


def optional_loss(name, value):
    """A loss probability in [0, 1), or None (no loss)."""
    return None if value is None else loss(name, value)


def losses(name, value):
    """A non-empty sequence of distinct loss probabilities in (0, 1)."""
    return _distinct(name, check_sequence(name, value, open_unit))


def protocol_list(name, value):
    """A non-empty sequence of senders, one per flow (a sender may repeat)."""
    return check_sequence(name, value, protocol)


def burst_length(name, value):
    """A mean burst length: a number in [1, MAX_PACKETS] packets (a burst is one packet or more)."""
    value = check_finite(name, value, scalar=True)
    if not 1.0 <= value <= MAX_PACKETS:
        raise ParameterError(f"{name} must be >= 1 and <= {MAX_PACKETS} packets (a burst holds "
                             f"at least one packet; MAX_PACKETS bounds what memory holds), "
                             f"got {value!r}")
    return value


def _single_sender(value):
    from ..laws.user import RateLaw, WindowLaw
    from ..sim.senders import SenderSpec

    return isinstance(value, (str, SenderSpec, WindowLaw, RateLaw))


def protocol_names(name, value):
    """One sender for every run or a non-empty sequence of distinct senders."""
    return (protocol(name, value),) if _single_sender(value) else protocols(name, value)


def protocol_per_flow(name, value):
    """One sender shared by every flow, or a non-empty sequence of them (one per flow)."""
    return (protocol(name, value),) if _single_sender(value) else protocol_list(name, value)


def count(name, value):
    """A number of flows: an integer in [1, MAX_FLOWS] (the scenario builders' bound)."""
    from ..sim.scenarios import MAX_FLOWS

    return _bounded_count(name, value, MAX_FLOWS, "MAX_FLOWS: the flows one scenario holds")


def counts(name, value):
    """A non-empty sequence of distinct flow counts."""
    return _distinct(name, check_sequence(name, value, count))


def distinct_buffers(name, value):
    return _distinct(name, buffers(name, value))


def positives(name, value):
    """A non-empty sequence of distinct positive numbers."""
    return _distinct(name, check_sequence(name, value, positive))


def optional_positives(name, value):
    return None if value is None else positives(name, value)


def choices(options):
    """Check of a non-empty sequence of distinct names from *options* (or one name)."""
    def one(name, value):
        if not any(isinstance(value, str) and value == o for o in options):
            raise ParameterError(f"{name} must hold names of {', '.join(map(repr, options))}; "
                                 f"got {_short(value)}")
        return value

    def check(name, value):
        if isinstance(value, str):
            return (one(name, value),)
        return _distinct(name, check_sequence(name, value, lambda label, x: one(name, x)))
    return check


def choice(options):
    """Check of one name from *options*."""
    return lambda name, value: check_choice(name, value, options)


def optional(check):
    """*check*, or None."""
    return lambda name, value: None if value is None else check(name, value)


def instance(cls, what):
    """Check of an instance of *cls* (described as *what*) or None."""
    def check(name, value):
        if value is not None and not isinstance(value, cls):
            raise ParameterError(f"{name} must be {what} or None, got {type(value).__name__} "
                                 f"{_short(value)}")
        return value
    return check


def time_or_times(name, value):
    """A time >= 0, or a sequence of them (one per flow). [s]"""
    if isinstance(value, (list, tuple, np.ndarray)):
        return nonnegatives(name, value)
    return nonnegative(name, value)


def out_file(name, value):
    """A file to write: a non-empty str or path-like that is not a folder, or None."""
    import os

    if value is None:
        return value
    if not isinstance(value, (str, os.PathLike)) or not str(os.fspath(value)).strip():
        raise ParameterError(f"{name} must be a file path (str or path-like), got "
                             f"{type(value).__name__} {_short(value)}")
    if os.path.isdir(value):
        raise ParameterError(f"{name} must be a file path, got a folder: {_short(value)}")
    return value


def pair(check):
    """Check of exactly two items, each checked by *check*."""
    return lambda name, value: check_sequence(name, value, check, min_length=2, max_length=2)


def distinct_of(check):
    """Check of a non-empty sequence of distinct items, each checked by *check*."""
    return lambda name, value: _distinct(name, check_sequence(name, value, check))


def series(time_name, time, value_name, value, min_samples=1):
    """A sampled series: finite 1-D *time*, non-decreasing, and one finite *value* per sample."""
    t = check_finite(time_name, time)
    x = check_finite(value_name, value)
    if t.ndim != 1 or t.size < min_samples:
        raise ParameterError(f"{time_name} must be a 1-D array of at least {min_samples} "
                             f"sample(s), got shape {t.shape}")
    if x.shape != t.shape:
        raise ParameterError(f"{value_name} must have one value per {time_name} sample "
                             f"({t.size}), got shape {x.shape}")
    if np.any(np.diff(t) < 0):
        raise ParameterError(f"{time_name} must not decrease, got a step < 0 at index "
                             f"{int(np.argmax(np.diff(t) < 0))}")
    return t, x


def nonnegative_int(name, value):
    """An integer >= 0 (no float, no bool)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral) \
            or value < 0:
        raise ParameterError(f"{name} must be an integer >= 0, got {_short(value)}")
    return value


def scenario(name, value):
    from ..sim.scenarios import Scenario

    return check_instance(name, value, Scenario)


def flag(name, value):
    return check_bool(name, value)


def results(name, value):
    """Results of a run_all: a dict, or None for the default run."""
    return check_instance(name, value, dict, allow_none=True)


def nonnegatives(name, value):
    return check_sequence(name, value, nonnegative)


def finite(name, value):
    return check_finite(name, value, scalar=True)


#: Argument name -> check ``check(name, value)``; raises ParameterError.
CHECKS = {
    "protocols": protocols, "protocol": protocol,
    "duration": positive, "seed": seed, "seeds": seeds,
    "warmup": nonnegative, "settle": nonnegative, "bin_width": positive,
    "buffer": buffer, "buffers": buffers,
    "telnet_rate": positive, "window": positive, "band": open_unit,
    "mean_burst": burst_length, "loss_ratio": open_unit,
    "trace_loss": loss, "loss": loss, "losses": losses,
    "first": packet_index, "last": packet_index, "packets": packet_index,
    "starts": nonnegatives,
    "interval": positive, "sample_interval": positive, "stagger": nonnegative,
    "counts": counts, "n": count, "intervals": positives, "values": optional_positives,
    "start": time_or_times, "value": optional(positive),
    "serial_rate": positive, "serial_delay": nonnegative, "second_start": nonnegative,
    "min_rto": positive, "transfer_bytes": packet_index,
    "quick": flag, "newreno": flag, "results": results,
}


def checked(*skip, hashable=False, **extra):
    """Decorator: check every argument named in :data:`CHECKS` before the call.

    Parameters
    ----------
    *skip : str
        Argument names that mean something else in this function.
    hashable : bool
        Pass list arguments on as tuples (for a memoised function: a list is
        not hashable, and a tuple of the same items computes the same).
    **extra : callable
        Further checks ``check(name, value)`` of this function's own arguments.
    """
    def wrap(func):
        signature = inspect.signature(func)
        checks = {**CHECKS, **extra}
        names = tuple(n for n in signature.parameters if n in checks and n not in skip)

        @functools.wraps(func)
        def call(*args, **kwargs):
            try:
                bound = signature.bind(*args, **kwargs)
            except TypeError as err:
                raise ParameterError(f"{func.__name__}: {err}") from None
            bound.apply_defaults()
            values = bound.arguments
            for name in names:
                if name in values:
                    checks[name](name, values[name])
            if "warmup" in names and "duration" in names and \
                    not values["warmup"] < values["duration"]:
                raise ParameterError(f"warmup must be in [0, duration={values['duration']!r}),"
                                     f" got {values['warmup']!r}")
            if "first" in names and "last" in names and not values["last"] > values["first"]:
                raise ParameterError(f"last must be > first, got first={values['first']!r}, "
                                     f"last={values['last']!r}")
            if "second_start" in names and "duration" in names and \
                    values["duration"] is not None and \
                    not values["second_start"] < values["duration"]:
                raise ParameterError(f"second_start must be < duration="
                                     f"{values['duration']!r}, got {values['second_start']!r}")
            if hashable:
                args = tuple(tuple(a) if isinstance(a, list) else a for a in args)
                kwargs = {k: tuple(v) if isinstance(v, list) else v for k, v in kwargs.items()}
            return func(*args, **kwargs)

        return call

    return wrap
