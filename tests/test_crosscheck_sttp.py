"""STTP's cross-checks (Wade, Kara & Dew (2000), §III): bucket bound, packet pair, scaling.

Predictions come from ctlcc.bounds.tokenbucket (sigma + rho S), the link
rates of the scenario (packet pair) and the validated law
ctlcc.laws.sttp.ack_step replayed in Python (scaling); the tolerances are
the paper's (2 % for the probe) or exact arithmetic (1e-9 for the replay).
"""

import numpy as np
import pytest

from ctlcc import crosscheck as cc
from ctlcc.claims import evaluate, units
from ctlcc.errors import ParameterError


def verdicts(check):
    """``{record id: verdict}``: the ledger's records of *check* (rules of data/ledger_sttp.csv)."""
    return {c.id: c.verdict for c in evaluate(units(section="crosscheck"),
                                              results={check.name: check})}


def test_packet_pair_within_two_percent_anywhere_on_the_path():
    check = cc.sttp_packet_pair(rates=(32e3, 155e6), positions=("first", "middle", "last"))
    assert verdicts(check) == {"sttp-3a-packet-pair-accuracy": "reproduced"}
    # 32 kb/s of 64-byte packets: the paper's 4000 B/s = 62.5 packets/s
    assert check.predicted[0] == pytest.approx(62.5)
    np.testing.assert_allclose(check.measured, check.predicted, rtol=1e-9)


def test_rtt_scaling_replay_matches_the_sender():
    check = cc.sttp_rtt_scaling(configs=("STTP 9:1", "STTP 1:9"), duration=20.0)
    got = verdicts(check)
    assert len(got) == 4 and set(got.values()) == {"reproduced"}, got
    assert np.all(check.measured[1::2] > 0)
    # the paper's §III-B.3 run also probed 64 kb/s on its 128 kb/s path (CBR in the pair)
    assert "probe 64 kb/s" in check.note


def test_burst_bound_holds_for_both_clocks():
    check = cc.sttp_burst_bound(n=2, duration=12.0, windows=(0.0, 0.5))
    got = verdicts(check)
    assert len(got) == 4 and set(got.values()) == {"reproduced"}, got
    # S = 0: the first burst is the whole probed bucket of the 2 Mb/s link, 250 packets
    assert check.measured[0] == 250 and check.predicted[0] == pytest.approx(250.0)


def test_packet_pair_check_is_one_paper_record():
    """'within an accuracy of 2% in all tests': one record, the largest error of the cases."""
    from ctlcc.claims import evaluate, units

    check = cc.sttp_packet_pair(rates=(32e3,), positions=("middle", "last"))
    (claim,) = evaluate(units(ids=["sttp-3a-packet-pair-accuracy"]),
                        results={"sttp_packet_pair": check})
    assert (claim.paper, claim.kind, claim.verdict) == ("sttp", "paper", "reproduced")
    assert claim.value == pytest.approx(max(abs(check.measured / check.predicted - 1)))
    assert claim.tolerance == 0.02


@pytest.mark.parametrize("call, match", [
    (lambda: cc.sttp_packet_pair(positions=("end",)), "positions"),
    (lambda: cc.sttp_packet_pair(rates=(-1.0,)), "rates"),
    (lambda: cc.sttp_burst_bound(clocks=("wall",)), "clocks"),
    (lambda: cc.sttp_burst_bound(n=0), "n"),
    (lambda: cc.sttp_rtt_scaling(configs=("STTP 3:7",)), "configs"),
])
def test_bad_input(call, match):
    with pytest.raises(ParameterError, match=match):
        call()
