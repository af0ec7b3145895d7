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

from ctlcc.sim import engine, run

from . import make_golden as G

_STORE = np.load(G.PATH)
_CASES = G.cases()


# wheel: every case also with the arrival wheel forced on (engine.WHEEL_MIN_CHANNELS = 0;
# these small scenarios leave it off), against the same fingerprints, made before it existed
@pytest.mark.parametrize("wheel", [False, True], ids=["heap", "wheel"])
@pytest.mark.parametrize("key, args, duration, seed, trace", _CASES, ids=[c[0] for c in _CASES])
def test_engine_matches_golden(monkeypatch, key, args, duration, seed, trace, wheel):
    if wheel:
        monkeypatch.setattr(engine, "WHEEL_MIN_CHANNELS", 0)
    G.assert_matches(run(G.build(*args), duration, seed=seed, trace=trace, progress=False),
                     _STORE, key)
