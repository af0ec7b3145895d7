"""The rate-law sender's history lookup (binary search) against a scan back from the newest.

The reference is the straightforward algorithm the sender used before (walk
back from the newest entry to the first one recorded at or before the
target; the oldest one if none is), a second route to the same answer.
Rings are random: any head, any fill, repeated times (ACKs at one instant).
"""

import numpy as np

from ctlcc.sim.senders import rate_law as RL

H = RL.HISTORY


def scan_back(times, values, head, count, target, default):
    if count == 0:
        return default
    idx = (head - 1) % H
    for _ in range(count):
        if times[idx] <= target:
            return values[idx]
        idx = (idx - 1) % H
    return values[(head - count) % H]


def test_lookup_matches_a_scan_back_from_the_newest_entry():
    rng = np.random.default_rng(1)
    checked = 0
    for trial in range(400):
        count = int(rng.integers(0, 8)) if trial % 3 == 0 else int(rng.integers(0, H + 1))
        head = int(rng.integers(0, H))
        t = np.cumsum(rng.choice([0.0, 0.1, 0.5], size=count))  # ties included
        times = np.full(H, -7.0)                                  # unused slots
        values = rng.random(H)
        for k in range(count):
            times[(head - count + k) % H] = t[k]
        last = t[-1] if count else 1.0
        targets = [-1.0, 0.0, last, last + 1.0] + list(rng.uniform(-0.5, last + 0.5, 4)) \
            + list(t[:2])
        for target in targets:
            expected = scan_back(times, values, head, count, target, 42.0)
            assert RL.lookup(times, values, head, count, target, 42.0) == expected
            checked += 1
    assert checked > 3000
