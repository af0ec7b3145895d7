# ctlcc._validation - argument checks shared by every subpackage
"""Argument checks that raise :class:`ctlcc.errors.ParameterError`.

Every check accepts Python scalars and numpy arrays (checked elementwise);
sympy expressions are passed through unchecked so that a law written with
ordinary arithmetic can also be evaluated symbolically.  Each check returns
its argument (as a float or float array when numeric) so that it can be used
inline: ``kp = check_nonnegative("kp", kp)``.
"""

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
]


def is_symbolic(value):
    """Return True if *value* is a sympy object (checked lazily)."""
    module = type(value).__module__ or ""
    return module.startswith("sympy")


def _as_float(name, value):
    if isinstance(value, bool) or (isinstance(value, np.ndarray) and value.dtype == bool):
        raise ParameterError(f"{name} must be a real number, got a boolean {value!r}")
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError) as err:
        raise ParameterError(f"{name} must be a real number or array of them, got {value!r}") from err
    return arr


def _describe(arr):
    bad = np.ravel(arr).tolist()
    return repr(bad[0]) if len(bad) == 1 else f"{bad[:5]}" + (" ..." if len(bad) > 5 else "")


def _ret(value, arr):
    return float(arr) if arr.ndim == 0 and not isinstance(value, np.ndarray) else arr


def check_finite(name, value):
    """Check that *value* is finite (not NaN or infinite)."""
    if is_symbolic(value):
        return value
    arr = _as_float(name, value)
    bad = ~np.isfinite(arr)
    if np.any(bad):
        raise ParameterError(f"{name} must be finite, got {_describe(arr[bad])}")
    return _ret(value, arr)


def check_positive(name, value, allow_inf=False):
    """Check that *value* is a finite number > 0 (or +inf if allowed)."""
    if is_symbolic(value):
        return value
    arr = _as_float(name, value)
    ok = (arr > 0) & (np.isfinite(arr) | (allow_inf & (arr == np.inf)))
    if not np.all(ok):
        raise ParameterError(f"{name} must be in (0, inf), got {_describe(arr[~ok])}")
    return _ret(value, arr)


def check_nonnegative(name, value):
    """Check that *value* is a finite number >= 0."""
    if is_symbolic(value):
        return value
    arr = _as_float(name, value)
    ok = (arr >= 0) & np.isfinite(arr)
    if not np.all(ok):
        raise ParameterError(f"{name} must be in [0, inf), got {_describe(arr[~ok])}")
    return _ret(value, arr)


def check_interval(name, value, low, high, closed="neither"):
    """Check ``low < value < high`` with the ends included as *closed* says.

    Parameters
    ----------
    closed : {"neither", "left", "right", "both"}
        Which ends belong to the interval.
    """
    if is_symbolic(value):
        return value
    arr = _as_float(name, value)
    left = arr >= low if closed in ("left", "both") else arr > low
    right = arr <= high if closed in ("right", "both") else arr < high
    ok = left & right & ~np.isnan(arr)
    if not np.all(ok):
        lb = "[" if closed in ("left", "both") else "("
        rb = "]" if closed in ("right", "both") else ")"
        raise ParameterError(
            f"{name} must be in {lb}{low:g}, {high:g}{rb}, got {_describe(arr[~ok])}"
        )
    return _ret(value, arr)


def check_positive_int(name, value):
    """Check that *value* is an integer >= 1 and return it as ``int``."""
    return _check_int(name, value, 1)


def check_nonnegative_int(name, value):
    """Check that *value* is an integer >= 0 and return it as ``int``."""
    return _check_int(name, value, 0)


def _check_int(name, value, minimum):
    if isinstance(value, (bool, np.bool_)):
        raise ParameterError(f"{name} must be an integer >= {minimum}, got {value!r}")
    if not isinstance(value, numbers.Integral):
        if isinstance(value, numbers.Real) and float(value).is_integer():
            value = int(value)
        else:
            raise ParameterError(
                f"{name} must be an integer >= {minimum}, got {value!r}"
            )
    if value < minimum:
        raise ParameterError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def check_choice(name, value, options):
    """Check that *value* is one of *options* (listed in the message)."""
    if value not in options:
        raise ParameterError(
            f"{name} must be one of {', '.join(repr(o) for o in options)}; got {value!r}"
        )
    return value
