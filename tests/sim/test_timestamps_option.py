"""TcpOptions(timestamps=...): Karn's rule (default) or RFC 7323 RTT measurement.

A whole window is lost, so the flow times out (RTO 1 s, then doubled to 2 s,
RFC 6298 (5.5)).  The go-back-N retransmission is acknowledged one round
trip later.  With Karn's rule (RFC 6298 §5, ns-2) that ACK gives no RTT
sample, so the backed-off 2 s stays; with timestamps (RFC 7323 §4, ns-3's
and Linux's default) it gives one and RFC 6298 (2.3)-(2.4) recompute the
RTO: max(min_rto = 1 s, SRTT + 4 RTTVAR) = 1 s on this 41-ms path.
Expected values from the RFCs' rules, not from the engine.
"""

import numpy as np
import pytest

from ctlcc.sim import engine
from ctlcc.sim._core import layout as K
from ctlcc.sim.scenarios import PacketList, TcpOptions, single_bottleneck


def _rto_after_first_new_ack(timestamps):
    tcp = TcpOptions(max_window=8, timestamps=timestamps)
    scenario = single_bottleneck(buffer=50, loss=PacketList(tuple(range(20, 28))),
                                 protocol="newreno", tcp=tcp)
    sim = engine._Simulation(scenario, 30.0, False, 0.01)
    rng = np.random.default_rng(0)
    t = 0.0
    while sim.fi[0, K.I_TIMEOUTS] == 0:
        t += 0.005
        sim.duration = t
        sim.drive(rng, False)
    una = sim.fi[0, K.I_SND_UNA]
    assert sim.ff[0, K.F_RTO] == pytest.approx(2.0)          # backed off once
    while sim.fi[0, K.I_SND_UNA] == una:                       # until the first new ACK
        t += 0.001
        sim.duration = t
        sim.drive(rng, False)
    return float(sim.ff[0, K.F_RTO]), int(sim.fi[0, K.I_TIMEOUTS])


def test_karn_keeps_the_backed_off_rto():
    rto, timeouts = _rto_after_first_new_ack(timestamps=False)
    assert timeouts == 1
    assert rto == pytest.approx(2.0)


def test_timestamps_recompute_the_rto():
    rto, timeouts = _rto_after_first_new_ack(timestamps=True)
    assert timeouts == 1
    assert rto == pytest.approx(1.0)


def test_bad_timestamps_value():
    with pytest.raises(ValueError, match="timestamps"):
        TcpOptions(timestamps="yes")
