"""PRR (ctlcc.laws.prr) against RFC 6937's stated properties, by enumeration.

RFC 6937 §3 and §5 state what PRR does, independently of its pseudo-code:
by the end of a recovery that delivers RecoverFS it has sent ssthresh
(the window it reduces to); while pipe > ssthresh it never sends more than
the proportional share (no burst); PRR-CRB never sends more than was
delivered (packet conservation); PRR-SSRB at most one segment more per
ACK than delivered (slow start); and at the end pipe is at ssthresh.
The ACK sequences are enumerated with an explicit pipe count.
"""

import math

import numba
import pytest

from ctlcc.errors import ParameterError
from ctlcc.laws import prr


@pytest.mark.parametrize("recover_fs, ssthresh", [(20, 10), (20, 14), (100, 50), (33, 23)])
def test_single_loss_sends_ssthresh_spread_over_the_acks(recover_fs, ssthresh):
    sends = prr.recovery_sends([1] * (recover_fs - 1), 1, ssthresh, recover_fs)
    assert sum(sends) == ssthresh
    assert max(sends) <= 1                                   # no burst
    # proportional share: never ahead of ceil(delivered x ssthresh / RecoverFS)
    total = 0
    for k, s in enumerate(sends, start=1):
        total += s
        assert total <= math.ceil(k * ssthresh / recover_fs)


@pytest.mark.parametrize("lost", [2, 5, 10, 15])
@pytest.mark.parametrize("conservative", [True, False])
def test_pipe_ends_at_ssthresh_when_enough_is_delivered(lost, conservative):
    recover_fs, ssthresh = 40, 20
    delivered = [1] * (recover_fs - lost)
    sends = prr.recovery_sends(delivered, lost, ssthresh, recover_fs, conservative)
    pipe = recover_fs - lost - sum(delivered) + sum(sends)
    if conservative and lost > recover_fs - ssthresh:
        assert pipe <= ssthresh        # CRB cannot rebuild a flight it never got back
    else:
        assert pipe == ssthresh


def test_crb_conserves_packets_and_ssrb_slow_starts():
    recover_fs, ssthresh, lost = 40, 20, 30        # heavy loss: pipe 10 < ssthresh
    delivered = [1] * 10
    crb = prr.recovery_sends(delivered, lost, ssthresh, recover_fs, conservative=True)
    ssrb = prr.recovery_sends(delivered, lost, ssthresh, recover_fs, conservative=False)
    assert crb == [1] * 10                         # one out per one delivered
    assert ssrb[:5] == [2] * 5                     # delivered + 1 while below ssthresh
    assert sum(ssrb) == ssthresh - (recover_fs - lost - sum(delivered))   # fills to ssthresh


@pytest.mark.parametrize("args, expected", [
    ((10, 4, 1, 15, 10, 20, False), math.ceil(10 * 10 / 20) - 4),   # proportional branch
    ((10, 4, 1, 8, 10, 20, True), min(10 - 8, 10 - 4)),             # CRB
    ((10, 4, 1, 8, 10, 20, False), min(10 - 8, max(10 - 4, 1) + 1)),  # SSRB
    ((10, 9, 3, 5, 10, 20, False), min(10 - 5, max(1, 3) + 1)),     # SSRB, DeliveredData bound
    ((3, 5, 1, 12, 10, 20, False), math.ceil(3 * 10 / 20) - 5),     # negative: send nothing
])
def test_sndcnt_formula(args, expected):
    assert prr.sndcnt(*args) == expected
    assert numba.njit(prr.sndcnt_core)(*[float(a) if not isinstance(a, bool) else a
                                         for a in args]) == expected


def test_cwnd_is_pipe_plus_sndcnt():
    assert prr.cwnd_core(12.0, 3.0) == 15.0


@pytest.mark.parametrize("call, match", [
    (lambda: prr.sndcnt(-1, 0, 1, 10, 10, 20), r"prr_delivered must be"),
    (lambda: prr.sndcnt(1, 0, 1, 10, 0, 20), r"ssthresh must be"),
    (lambda: prr.sndcnt(1, 0, 1, 10, 10, 0), r"recover_fs must be"),
    (lambda: prr.sndcnt(1, 0, 1, 10, 10, 20, conservative="no"), r"conservative"),
    (lambda: prr.recovery_sends([1], 30, 10, 20), r"lost_in_flight must be <= recover_fs"),
    (lambda: prr.recovery_sends([1, -1], 1, 10, 20), r"delivered\[1\] must be"),
])
def test_bad_input(call, match):
    with pytest.raises(ParameterError, match=match):
        call()


@pytest.mark.parametrize("args, expected", [
    # ns-3.44 TcpPrrRecovery::DoRecovery by hand (the +1 of a duplicate ACK is in
    # delivered_data already): pipe 3 <= ssthresh 10, limit max(6 - 4, 1) = 2 (+ 1 on a
    # safe ACK), room 10 - 3 = 7
    ((6, 4, 1, 3, 10, 20, False), 2),
    ((6, 4, 1, 3, 10, 20, True), 3),
    # pipe 18 > ssthresh 10: ceil(4 x 10 / 20) - 1 = 1, as RFC 6937's
    ((4, 1, 2, 18, 10, 20, False), 1),
    # pipe 46 > ssthresh 10 and nothing delivered: ceil(0) - 0 = 0, forced to 1 because
    # nothing was sent yet (RFC 6937's sndcnt: 0)
    ((0, 0, 0, 46, 10, 46, False), 1),
])
def test_ns3_sendcount_by_hand(args, expected):
    assert prr.sndcnt_ns3(*args) == expected


def test_ns3_sendcount_bad_input_names_the_argument():
    with pytest.raises(ParameterError, match="safe_ack"):
        prr.sndcnt_ns3(1, 0, 1, 10, 10, 20, safe_ack="yes")
    with pytest.raises(ParameterError, match="recover_fs must be"):
        prr.sndcnt_ns3(1, 0, 1, 10, 10, 0)
