# ctlcc.claims._exact - exact power series in z^-1 and small enumerations for the equation units
"""Exact arithmetic for checking printed equations (private).

Signals are lists of :class:`fractions.Fraction`, index n = sample n (zero
before 0); a z-transform ``X(z) = sum_n x(n) z^-n`` is the same list read
as a power series in ``z^-1``, truncated at the list's length.  Products
and quotients of truncated series are exact up to that length, so an
identity between z-domain expressions can be checked coefficient by
coefficient against the time-domain sequences it was derived from, with
no rounding: a residual is either exactly zero or the size of an error.

Examples
--------
>>> one = series([1])
>>> divide(one, series([1, -1]), 4)          # (1 - z^-1)^-1 = 1 + z^-1 + z^-2 + ...
[Fraction(1, 1), Fraction(1, 1), Fraction(1, 1), Fraction(1, 1)]
>>> residual([1, 2, 3], [1, 2, 4])
Fraction(1, 1)
"""

import random
from fractions import Fraction

__all__ = ["series", "add", "scale", "multiply", "divide", "shift", "residual",
           "random_signal", "decimal"]


def series(coefficients, length=None):
    """Coefficients as Fractions, padded with zeros to *length*."""
    out = [Fraction(c) for c in coefficients]
    if length is not None:
        out = (out + [Fraction(0)] * length)[:length]
    return out


def add(*terms):
    """Sum of series (the longest's length; shorter ones are zero-padded)."""
    length = max(len(t) for t in terms)
    return [sum((t[i] for t in terms if i < len(t)), Fraction(0)) for i in range(length)]


def scale(x, c):
    """c x(n)."""
    c = Fraction(c)
    return [c * v for v in x]


def multiply(x, y, length):
    """Product of two series, truncated at *length*."""
    out = [Fraction(0)] * length
    for i, a in enumerate(x[:length]):
        if a:
            for j, b in enumerate(y[:length - i]):
                out[i + j] += a * b
    return out


def divide(x, y, length):
    """Quotient x / y of two series (y(0) != 0), truncated at *length*."""
    if not y or y[0] == 0:
        raise ZeroDivisionError("the divisor's constant term is zero")
    x = series(x, length)
    out = []
    for n in range(length):
        acc = x[n] - sum((out[k] * y[n - k] for k in range(max(0, n - len(y) + 1), n)),
                         Fraction(0))
        out.append(acc / y[0])
    return out


def shift(x, k, length=None):
    """z^-k X(z): the signal delayed by k >= 0 samples."""
    out = [Fraction(0)] * k + list(x)
    return out[:length if length is not None else len(x)]


def residual(x, y):
    """Largest |x(n) - y(n)| over the common length (exact)."""
    n = min(len(x), len(y))
    return max((abs(Fraction(x[i]) - Fraction(y[i])) for i in range(n)), default=Fraction(0))


def random_signal(length, seed, low=-5, high=5):
    """A seeded random integer signal (as Fractions)."""
    rng = random.Random(seed)
    return [Fraction(rng.randint(low, high)) for _ in range(length)]


def decimal(text):
    """A printed decimal as an exact Fraction (``"0.368"`` -> 46/125)."""
    return Fraction(str(text))
