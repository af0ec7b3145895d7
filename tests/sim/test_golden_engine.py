"""The packet engine against its stored fingerprints (tests/sim/make_golden.py).

Every preset x every protocol, short runs, two seeds, with and without
random loss: per-flow counters, queue statistics and the digests of every
sample and trace array must match the stored ones *exactly* (bit for bit).
Reference: the engine as it was before senders became modules (commit that
added tests/sim/data/golden_engine.npz).  A change meant to alter results
regenerates the file and says so in its commit.
"""

import numpy as np
import pytest

from ctlcc.sim import run

from . import make_golden as G

_STORE = np.load(G.PATH)
_CASES = G.cases()


@pytest.mark.parametrize("key, args, duration, seed, trace", _CASES, ids=[c[0] for c in _CASES])
def test_engine_matches_golden(key, args, duration, seed, trace):
    result = run(G.build(*args), duration, seed=seed, trace=trace, progress=False)
    flows, queues, digests = G.fingerprint(result)
    np.testing.assert_array_equal(flows, _STORE[key + "|flows"])
    np.testing.assert_array_equal(queues, _STORE[key + "|queues"])
    assert list(digests) == list(_STORE[key + "|digests"])
