# ctlcc.laws._core - the marker that lets law cores call each other inside numba code
"""Marker for a law's arithmetic core.

A core is a plain Python function of numbers (one law, two uses: the same
function serves sympy, numpy and the numba-compiled packet engine).  :func:`law_core` returns the function object unchanged -- numpy
and sympy call it as before -- and registers it with numba
(``numba.extending.register_jitable``) so that a core calling another core
still compiles: ``numba.njit(core, inline="always")`` in a sender, or
``numba.njit(core)`` in a test.
"""

from numba.extending import register_jitable

__all__ = ["law_core"]


def law_core(func):
    """Register *func* as callable from numba code; return it unchanged.

    Parameters
    ----------
    func : callable
        A function of numbers only (ints, floats, tuples; no strings,
        dataclasses, dicts or exceptions).

    Returns
    -------
    callable
        *func* itself.

    Examples
    --------
    >>> @law_core
    ... def double(x):
    ...     return 2 * x
    >>> double(3)
    6
    """
    return register_jitable(func)
