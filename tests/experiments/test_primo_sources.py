"""§V-E of Chatté, Ducourthial & Niculescu (2006): many sources, and why Primo flows fall silent.

The paper says Primo's performance "is not significantly affected" as the number of sources
grows.  On ctlcc's engine it is; these tests pin the measured behaviour with bounds reasoned
from §III-B/§III-D and the path, not from the engine's output.
"""

import numpy as np
import pytest

from ctlcc.errors import ParameterError
from ctlcc.experiments import primo as P
from ctlcc.sim.criteria import CRITERIA

FAIR = CRITERIA.index("fairness")
CAPACITY = 2e6 / (8 * 1054)  # Fig. 1-top shared link, 1054-byte packets [packets/s]
RTT0 = 0.024 + 8 * 1054 * (2 / 10e6 + 1 / 2e6) + 8 * 54 * (2 / 10e6 + 1 / 2e6)  # empty path [s]


@pytest.fixture(scope="module")
def ten():
    return P.primo_collapse(10, 0.0, duration=8.0)


@pytest.fixture(scope="module")
def two():
    return P.primo_collapse(2, 0.0, duration=8.0)


def test_rtt_ref_is_the_empty_path(ten, two):
    # flows started together into an empty network measure RTT_ref within one packet time
    # (4.2 ms at 2 Mb/s) of the empty-path RTT
    for res in (ten, two):
        assert np.all(np.abs(res.rtt_ref - RTT0) <= 8 * 1054 / 2e6 + 1e-9)


def test_two_flows_never_time_out(two):
    # Fair share C/2 = 118.6 packets/s, 7.2 times the time-out threshold 1/(2 RTT_ref) = 16.6:
    # the gap between packets (8.4 ms) is far below TO (60 ms), so no halving and no collapse.
    assert CAPACITY / 2 * 2 * RTT0 > 7
    assert two.collapsed.size == 0 and np.all(two.halvings == 0)


def test_ten_flows_time_out_without_loss(ten):
    # Fair share C/10 = 23.7 packets/s is only 1.43 x the threshold: one late ACK (a queue of 10
    # packets delays it by 42 ms) makes a flow time out; the halved rate puts its gap above TO,
    # and since TO doubles with the gap the flow never catches up.  Evidence, per collapsed flow:
    # a pure halving of the rate between two 10-ms samples (Algorithm 1 moves the rate by at most
    # (1 - W2) W1 |old - F rcv| per packet and cannot halve it with no packet sent) repeated at
    # least 5 times (rate / 32), and at least one flow that lost nothing before collapsing.
    assert 1.0 < CAPACITY / 10 * 2 * RTT0 < 1.5
    assert ten.collapsed.size >= 1
    assert np.all(ten.halvings[ten.collapsed] >= 5)
    assert np.any(ten.drops_before[ten.collapsed] == 0)
    # five halvings: collapsed flows end below a 32nd of the threshold (one packet per 2 s)
    assert np.all(ten.rate[-1, ten.collapsed] < ten.threshold[ten.collapsed] / 32)


def test_startup_lockstep_and_timeout_readings():
    # N = 15 together: 60 burst packets into a 30-packet queue (+1 in service, +30 in each
    # access queue does not help: they all meet at R1), every flow loses a burst packet and all
    # restart after the same 1-s timer.  A flow in start-up sends <= 4 packets/s: utilisation
    # <= 15 x 4 / 237.2 = 25 %.  For N = 15 even the fair share is below the time-out
    # threshold: C/N x 2 RTT_0 = 0.96 < 1.
    d = P.startup_diagnosis((15,), jitter=0.05, duration=8.0)
    assert d.fair_share_over_threshold[0] == pytest.approx(CAPACITY / 15 * 2 * RTT0)
    assert d.fair_share_over_threshold[0] < 1.0
    together, jittered, no_backoff = d.utilisation[0]
    assert together <= 15 * 4 / CAPACITY
    # 50 ms of start jitter breaks the lockstep: some flow leaves start-up and the release
    # regime fills an idle link (a link idle > 10 % would mean none did)
    assert jittered > 0.9 and no_backoff > 0.9
    # and the paper's "not significantly affected" fails either way: flows starve
    assert d.starved[0, 1] >= 1


def test_many_sources_criteria():
    # Two Primo flows with equal RTTs split evenly (README: 99.96 %); ten started together do
    # not: the collapsed flows of test_ten_flows_time_out_without_loss make the lowest share
    # near zero.  Vegas (alpha = 1 per flow) keeps everyone above a tenth of the fair share.
    r = P.many_sources((2, 10), protocols=("vegas", "primo"), schedules=("together",),
                       duration=8.0)
    primo, vegas = r.protocols.index("primo"), r.protocols.index("vegas")
    assert r.criteria[primo, 0, 0, FAIR] > 95.0
    assert r.criteria[primo, 0, 1, FAIR] < 50.0 and r.starved[primo, 0, 1] >= 1
    assert r.starved[vegas, 0, 1] == 0


@pytest.mark.parametrize("call, match", [
    (lambda: P.many_sources(schedules=("random",)), "schedules must hold"),
    (lambda: P.many_sources(counts=(0,)), "counts"),
    (lambda: P.primo_collapse(0), "n"),
    (lambda: P.startup_diagnosis(jitter=0.0), "jitter"),
])
def test_bad_input(call, match):
    with pytest.raises(ParameterError, match=match):
        call()


@pytest.mark.slow
def test_many_sources_full():
    r = P.many_sources((2, 5, 10, 15, 20), duration=P.DURATION_FULL)
    assert r.criteria.shape == (3, 2, 5, 5)
