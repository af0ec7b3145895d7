"""``net.waiting``: the packets of a channel not yet in transmission, by bisection.

Expected value by enumeration: the count of ring slots whose start is later
than *now*, on rings that wrap around their end, with starts that grow along
the FIFO (each transmission starts at or after the previous one's end).
"""

import numpy as np
import pytest

from ctlcc.sim._core import layout as K
from ctlcc.sim._core.net import waiting


@pytest.mark.parametrize("seed", range(20))
def test_bisection_counts_what_enumeration_counts(seed):
    rng = np.random.default_rng(seed)
    cap = int(rng.integers(1, 40))
    size = cap + 1
    off = int(rng.integers(0, 5))
    ring_s = np.full(off + size + 3, np.nan)
    ci = np.zeros((2, K.NCW), dtype=np.int64)
    c = 1
    head, count = int(rng.integers(0, size)), int(rng.integers(0, size + 1))
    ci[c, K.K_RING_OFF], ci[c, K.K_CAP] = off, cap
    ci[c, K.K_RING_HEAD], ci[c, K.K_RING_COUNT] = head, count
    starts = np.cumsum(rng.choice([0.5, 1.0, 1.5], count)) if count else np.zeros(0)
    for k in range(count):
        ring_s[off + (head + k) % size] = starts[k]
    for now in np.concatenate([[-1.0, 0.0], starts, starts + 0.25, [1e9]]):
        expected = sum(1 for k in range(count) if ring_s[off + (head + k) % size] > now)
        assert waiting(float(now), c, ci, ring_s) == expected
