"""ctlcc.sim._core.net.borrow: the event loop's arrays without reference counting.

The engine's results being unchanged is the golden tests' job
(test_golden_engine.py); here the contract of ``borrow`` itself: the
borrowed arrays are the caller's memory (writes land in the caller's
arrays), a numpy Generator keeps its stream, members that are not arrays
pass unchanged, and no reference is leaked or lost (the arrays' Python
reference counts, read with ``sys.getrefcount`` before and after many calls,
are equal - an independent check of the compiled code's bookkeeping).
"""

import sys

import numba
import numpy as np

from ctlcc.sim._core.net import borrow


@numba.njit
def _touch(t, rng):
    t = borrow(t)
    rng = borrow(rng)
    t[0][1] = t[1] + rng.random()
    nested = t[2][1]
    return nested.sum()


def test_borrowed_arrays_are_the_callers_memory_and_nothing_leaks():
    a, b = np.zeros(3), np.arange(4.0)
    t = (a, 2.5, (7, b))
    before = (sys.getrefcount(a), sys.getrefcount(b))
    for k in range(50):
        total = _touch(t, np.random.default_rng(k))
        # the same draw as numpy's own generator with the same seed
        assert a[1] == 2.5 + np.random.default_rng(k).random()
        assert total == 6.0  # 0 + 1 + 2 + 3
    assert a[0] == 0.0 and a[2] == 0.0  # only the written element changed
    assert (sys.getrefcount(a), sys.getrefcount(b)) == before
