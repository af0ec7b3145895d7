# ctlcc._validation - argument checks shared by every subpackage
"""Argument checks that raise :class:`ctlcc.errors.ParameterError`.

Every check accepts Python scalars and numpy arrays (checked elementwise);
sympy expressions are passed through unchecked so that a law written with
ordinary arithmetic can also be evaluated symbolically.  Each check returns
its argument (as a float or float array when numeric) so that it can be used
inline: ``kp = check_nonnegative("kp", kp)``.
"""

import contextlib
import functools
import inspect
import numbers

import numpy as np

from .errors import ParameterError

__all__ = [
    "is_symbolic",
    "check_finite",
    "check_positive",
    "check_nonnegative",
    "check_interval",
    "check_positive_int",
    "check_nonnegative_int",
    "check_choice",
    "check_bool",
    "check_instance",
    "check_sequence",
    "check_int_array",
    "check_result",
    "finite_result",
    "argument_name",
]


def is_symbolic(value):
    """Return True if *value* is a sympy object (checked lazily)."""
    module = type(value).__module__ or ""
    return module.startswith("sympy")


def _refused(requirement, got):
    """The ParameterError "<requirement>, got <got>", with *got* kept apart (``err.got``)."""
    return ParameterError(f"{requirement}, got {got}", got=got)


def _short(value):
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _as_float(name, value, scalar=False):
    if isinstance(value, (bool, np.bool_)) or (
            isinstance(value, np.ndarray) and value.dtype == bool):
        raise _refused(f"{name} must be a real number", f"a boolean {_short(value)}")
    if value is None or isinstance(value, (str, bytes)):
        # np.asarray(None, float) is nan and np.asarray("1.5", float) is 1.5: refuse both
        raise _refused(f"{name} must be a real number", _short(value))
    if isinstance(value, numbers.Real) and not isinstance(value, np.generic):
        value = float(value)   # Fraction, Decimal-free reals: numpy would make an object array
    if isinstance(value, (list, tuple)) and _holds_bool(value):
        raise _refused(f"{name} must hold real numbers", f"a boolean in {_short(value)}")
    try:
        raw = np.asarray(value)
    except (TypeError, ValueError) as err:  # ragged nested lists
        raise _refused(f"{name} must be a real number or array of them",
                       _short(value)) from err
    if raw.dtype.kind not in "iuf":
        raise _refused(f"{name} must be a real number or array of them", _short(value))
    if scalar and raw.ndim != 0:
        raise _refused(f"{name} must be a single number", f"an array of shape {raw.shape}")
    return raw.astype(float)


def _holds_bool(seq, depth=0):
    """True if a (nested) list/tuple holds a bool, which numpy would turn into 0/1."""
    for item in seq:
        if isinstance(item, (bool, np.bool_)):
            return True
        if isinstance(item, (list, tuple)) and depth < 3 and _holds_bool(item, depth + 1):
            return True
    return False


def _describe(arr):
    bad = np.ravel(arr).tolist()
    return repr(bad[0]) if len(bad) == 1 else f"{bad[:5]}" + (" ..." if len(bad) > 5 else "")


def _ret(value, arr):
    return float(arr) if arr.ndim == 0 and not isinstance(value, np.ndarray) else arr


def check_finite(name, value, scalar=False):
    """Check that *value* is finite (not NaN or infinite).

    With ``scalar=True`` an array (even of one element) is refused: use it
    for scalar fields, which would otherwise fail much later.
    """
    if is_symbolic(value):
        return value
    arr = _as_float(name, value, scalar)
    bad = ~np.isfinite(arr)
    if np.any(bad):
        raise _refused(f"{name} must be finite", _describe(arr[bad]))
    return _ret(value, arr)


def check_positive(name, value, allow_inf=False, scalar=False):
    """Check that *value* is a finite number > 0 (or +inf if allowed)."""
    if is_symbolic(value):
        return value
    arr = _as_float(name, value, scalar)
    ok = (arr > 0) & (np.isfinite(arr) | (allow_inf & (arr == np.inf)))
    if not np.all(ok):
        rng = "(0, inf]" if allow_inf else "(0, inf)"
        raise _refused(f"{name} must be in {rng}", _describe(arr[~ok]))
    return _ret(value, arr)


def check_nonnegative(name, value, scalar=False):
    """Check that *value* is a finite number >= 0."""
    if is_symbolic(value):
        return value
    arr = _as_float(name, value, scalar)
    ok = (arr >= 0) & np.isfinite(arr)
    if not np.all(ok):
        raise _refused(f"{name} must be in [0, inf)", _describe(arr[~ok]))
    return _ret(value, arr)


def check_interval(name, value, low, high, closed="neither", scalar=False):
    """Check ``low < value < high`` with the ends included as *closed* says.

    Parameters
    ----------
    closed : {"neither", "left", "right", "both"}
        Which ends belong to the interval.
    """
    if is_symbolic(value):
        return value
    arr = _as_float(name, value, scalar)
    left = arr >= low if closed in ("left", "both") else arr > low
    right = arr <= high if closed in ("right", "both") else arr < high
    ok = left & right & ~np.isnan(arr)
    if not np.all(ok):
        lb = "[" if closed in ("left", "both") else "("
        rb = "]" if closed in ("right", "both") else ")"
        raise _refused(f"{name} must be in {lb}{low:g}, {high:g}{rb}", _describe(arr[~ok]))
    return _ret(value, arr)


def check_positive_int(name, value, maximum=None):
    """Check that *value* is an integer >= 1 (and <= *maximum*); return an ``int``.

    A count that sizes memory or a loop should pass a *maximum*, so that a
    typo such as ``1e308`` is refused instead of hanging.
    """
    return _check_int(name, value, 1, maximum)


#: Largest number of worker processes a call may start: each holds its own
#: interpreter, numpy and compiled engine (some 200 MB), so a thousand of them
#: is already beyond a large machine's memory; a typo such as ``jobs=10**9``
#: is refused instead of forking until the machine stalls. [1]
MAX_WORKERS = 1024


def check_workers(name, value):
    """Check a worker-process count: an integer in [1, :data:`MAX_WORKERS`]."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)) \
            and value > MAX_WORKERS:
        raise ParameterError(
            f"{name} must be an integer >= 1 and <= {MAX_WORKERS} (MAX_WORKERS: worker "
            f"processes of some 200 MB each, what memory allows), got {value!r}")
    return _check_int(name, value, 1, MAX_WORKERS)


def check_nonnegative_int(name, value, maximum=None):
    """Check that *value* is an integer >= 0 (and <= *maximum*); return an ``int``."""
    return _check_int(name, value, 0, maximum)


def _int_range(minimum, maximum):
    return f">= {minimum}" if maximum is None else f">= {minimum} and <= {maximum}"


def _check_int(name, value, minimum, maximum=None):
    expected = f"{name} must be an integer {_int_range(minimum, maximum)}"
    if isinstance(value, (bool, np.bool_)):
        raise ParameterError(f"{expected}, got {value!r}")
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if not isinstance(value, numbers.Integral):
        if isinstance(value, numbers.Real) and float(value).is_integer():
            value = int(value)
        else:
            raise ParameterError(f"{expected}, got {_short(value)}")
    if value < minimum or (maximum is not None and value > maximum):
        raise ParameterError(f"{expected}, got {value!r}")
    return int(value)


def check_int_array(name, value, minimum=1, maximum=None):
    """Check an integer or array of integers, each in ``minimum..maximum``.

    Returns an int64 array (0-d for a scalar).  Floats with integral values
    are accepted; booleans, strings, NaN and fractions are refused.
    """
    expected = f"{name} must be an integer {_int_range(minimum, maximum)} (or an array of them)"
    arr = _as_float(name, value)
    bad = ~np.isfinite(arr) | (arr != np.round(arr)) | (arr < minimum)
    if maximum is not None:
        bad |= arr > maximum
    if np.any(bad):
        shown = arr[bad]
        if np.all(np.isfinite(shown) & (shown == np.round(shown)) & (np.abs(shown) < 2**53)):
            shown = shown.astype(np.int64)
        raise ParameterError(f"{expected}, got {_describe(shown)}")
    return arr.astype(np.int64)


def _same(value, option):
    if value is option:
        return True
    if isinstance(option, str) or isinstance(value, str):
        return isinstance(value, str) and isinstance(option, str) and value == option
    if isinstance(value, (bool, np.bool_)) != isinstance(option, (bool, np.bool_)):
        return False
    if isinstance(value, np.ndarray):
        return False
    try:
        return bool(value == option)
    except (TypeError, ValueError):  # objects with odd __eq__
        return False


def check_choice(name, value, options):
    """Check that *value* is one of *options* (listed in the message)."""
    if not any(_same(value, o) for o in options):
        raise ParameterError(
            f"{name} must be one of {', '.join(repr(o) for o in options)}; got {_short(value)}"
        )
    return value


def check_bool(name, value):
    """Check that *value* is a real boolean (``True``/``False``) and return it.

    Strings, integers and None are refused: ``bool("false")`` is True, so a
    string flag would silently mean the opposite of what was written.
    """
    if not isinstance(value, (bool, np.bool_)):
        raise ParameterError(f"{name} must be True or False, got {_short(value)}")
    return bool(value)


def check_instance(name, value, cls, allow_none=False):
    """Check that *value* is an instance of *cls* (a class or tuple of them)."""
    if allow_none and value is None:
        return value
    if not isinstance(value, cls):
        names = (cls,) if isinstance(cls, type) else cls
        expected = " or ".join(c.__name__ for c in names) + (" or None" if allow_none else "")
        raise ParameterError(
            f"{name} must be a {expected}, got {type(value).__name__} {_short(value)}")
    return value


def check_sequence(name, value, item=None, min_length=1, max_length=None):
    """Check a non-empty 1-D sequence and each of its items; return a tuple.

    Parameters
    ----------
    item : callable, optional
        ``item(label, x)`` checks and returns one element; *label* is
        ``f"{name}[{i}]"`` so the message points at the element.
    min_length, max_length : int, optional
        Allowed number of elements (a check with no points has no evidence).
    """
    if isinstance(value, (str, bytes, dict)) or value is None or not hasattr(value, "__len__"):
        raise ParameterError(f"{name} must be a sequence (list or tuple), got {_short(value)}")
    if isinstance(value, np.ndarray) and value.ndim != 1:
        raise ParameterError(f"{name} must be a 1-D sequence, got an array of shape {value.shape}")
    items = tuple(value)
    n = len(items)
    if n < min_length or (max_length is not None and n > max_length):
        want = (f"at least {min_length}" if max_length is None
                else f"exactly {min_length}" if min_length == max_length
                else f"{min_length}..{max_length}")
        raise ParameterError(f"{name} must hold {want} element(s), got {n}: {_short(value)}")
    if item is not None:
        items = tuple(item(f"{name}[{i}]", x) for i, x in enumerate(items))
    return items


def check_result(what, value, positive=False, **inputs):
    """Refuse a NaN or infinite *value* computed from finite *inputs*.

    Float overflow (``1e308 / 0.2``) or 0/0 would otherwise hand back inf or
    NaN silently; the message names every input (as the caller wrote them)
    with its value, so the user sees which one is out of range.  With
    ``positive=True`` a value that underflowed to 0 (or below) is refused
    too (a pole or gain of ``1e-300 ** 2``).  Sympy values pass unchecked.
    """
    if is_symbolic(value):
        return value
    arr = np.asarray(value)
    if arr.dtype.kind not in "fc" and not (positive and arr.dtype.kind in "iu"):
        return value
    bad = ~np.isfinite(arr)
    if positive and arr.dtype.kind != "c":
        bad |= ~(arr > 0)
    if not np.any(bad):
        return value
    given = ", ".join(f"{k}={_describe(np.asarray(v, dtype=float)) if not is_symbolic(v) else v}"
                      for k, v in inputs.items())
    state = "positive and finite" if positive else "finite"
    raise ParameterError(
        f"{what} is not {state} (got {_describe(arr[bad])}) for {given}: "
        "the inputs are beyond double precision's range")


def finite_result(func):
    """Decorator: refuse a NaN/inf result of *func* with :func:`check_result`.

    For closed-form bounds whose arguments are each checked but whose
    arithmetic can still overflow (``mss=1e308``): the message names every
    numeric argument of the call as the user wrote it.  Tuples of results
    are checked element by element; sympy results pass unchecked.
    """
    signature = inspect.signature(func)

    def inputs(args, kwargs):
        bound = signature.bind(*args, **kwargs)
        return {k: v for k, v in bound.arguments.items() if _is_numeric_input(v)}

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
                out = func(*args, **kwargs)
        except (OverflowError, ZeroDivisionError) as err:  # Python-float arithmetic
            check_result(func.__name__, np.inf, **inputs(args, kwargs))
            raise AssertionError("unreachable") from err
        parts = out if isinstance(out, tuple) else (out,)
        for part in parts:
            if _non_finite(part):
                check_result(func.__name__, part, **inputs(args, kwargs))
        return out

    return wrapper


def _non_finite(value):
    if is_symbolic(value):
        return False
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError):
        return False
    return arr.dtype.kind in "fc" and not np.all(np.isfinite(arr))


def _is_numeric_input(value):
    if isinstance(value, (bool, np.bool_, str)) or value is None or is_symbolic(value):
        return False
    try:
        return np.asarray(value).dtype.kind in "iuf"
    except (TypeError, ValueError):
        return False


@contextlib.contextmanager
def argument_name(inner, outer):
    """Re-raise a ParameterError about field *inner* under the user's name *outer*.

    For builders that pass their arguments on to inner objects:
    ``with argument_name("rate", "access_rate"): Link(..., rate=access_rate)``
    turns "rate must be in (0, inf), got -1" into "access_rate must be ...".
    Only a message that starts with *inner* is renamed.
    """
    try:
        yield
    except ParameterError as err:
        message = str(err)
        if message.startswith(inner) and not message[len(inner):len(inner) + 1].isidentifier():
            raise type(err)(outer + message[len(inner):]) from err
        raise
