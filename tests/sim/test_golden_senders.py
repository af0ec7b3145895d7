"""The later senders against their stored fingerprints (tests/sim/make_golden_senders.py).

SACK (RFC 6675 and PRR), CUBIC (over PRR and over NewReno), CBRAA, IFTP, STTP,
TCP-Friend and TFRC at their defaults on five presets, with and without 1 %
loss: per-flow counters, queue statistics and the digests of every sample and
trace array must match the stored ones bit for bit, with the event heap and
with the arrival wheel forced on.  Reference: ctlcc at commit 752dd2c (see the
generator's docstring).  A change meant to alter results regenerates the file
and says so in its commit.
"""

import numpy as np
import pytest

from ctlcc.sim import engine, run

from . import make_golden as G
from . import make_golden_senders as GS

_STORE = np.load(GS.PATH)
_CASES = GS.cases()


def test_every_case_is_stored():
    assert sorted(k.rsplit("|", 1)[0] for k in _STORE.files if k.endswith("|flows")) \
        == sorted(c[0] for c in _CASES)


@pytest.mark.parametrize("wheel", [False, True], ids=["heap", "wheel"])
@pytest.mark.parametrize("key, args, duration, seed, trace", _CASES, ids=[c[0] for c in _CASES])
def test_sender_matches_golden(monkeypatch, key, args, duration, seed, trace, wheel):
    if wheel:
        monkeypatch.setattr(engine, "WHEEL_MIN_CHANNELS", 0)
    G.assert_matches(run(GS.build(*args), duration, seed=seed, trace=trace, progress=False),
                     _STORE, key)
