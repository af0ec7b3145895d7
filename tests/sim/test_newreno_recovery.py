"""NewReno's recovery timer (RFC 6582 §3.2 step 5) and what it bounds.

RFC 6582 §3.2 step 5: on a partial ACK retransmit the first unacknowledged
segment, deflate cwnd by the data acknowledged and add back one segment, and
"for the first partial ACK that arrives during fast recovery, also reset the
retransmit timer" (the "Impatient" variant; ns-3's TcpSocketBase does the
same).  The engine used to restart the timer at every partial ACK
("Slow-but-Steady"): after a slow-start overshoot with tens of holes in one
window, NewReno then repaired one hole per round trip for tens of round trips,
its inflated window reaching ~1600 packets, and the post-timeout ssthresh (half
of that outstanding data) overflowed the bottleneck again.  Each test below
states the measurement before the fix.

Bounds used: a window above the path's capacity (BDP + buffer) can only be
slow start's last round plus the fast-recovery inflation that follows.  With
the Impatient timer that lasts at most: the overflowing round and the round
whose duplicate ACKs trigger fast retransmit (2 RTT), one RTT to the first
partial ACK, one RTO after it, and one RTT of slack - RTO + 4 RTT, with RTT
at a full queue and RTO = max(min_rto = 1 s, 3 RTT) (RFC 6298 (2.2) right
after the first sample: SRTT + 4 RTTVAR = 3 R).
"""

import numpy as np
import pytest

from ctlcc.sim import run, scenarios as S
from ctlcc.sim.ns3 import comparison_cases, read_ns3_csv

WIRE_BITS = 8 * 1054  # data packet on the wire [bit]


def _full_queue_rtt(delays, bottleneck_rate, buffer):
    """Propagation both ways + a full bottleneck queue (+ the packet in service). [s]"""
    return 2 * sum(delays) + (buffer + 1) * WIRE_BITS / bottleneck_rate


def _recovery_bound(rtt):
    """RTO + 4 RTT (module docstring). [s]"""
    return max(1.0, 3 * rtt) + 4 * rtt


def _longest_run(mask, dt):
    """Longest stretch of consecutive True samples. [s]"""
    best = cur = 0
    for m in mask:
        cur = cur + 1 if m else 0
        best = max(best, cur)
    return best * dt


def test_only_the_first_partial_ack_restarts_the_timer():
    # Window capped at 40 (buffer 100: no queue drops) on the thesis Fig. 4.7
    # path (RTT >= 160 ms); 20 packets of one window lost, every other one.
    # Repairing one hole per RTT would take >= 20 x 0.16 = 3.2 s without a
    # timeout (the old engine: 0 timeouts).  With the timer restarted only at
    # the first partial ACK (one RTT after fast retransmit), it expires one
    # RTO (1 s: SRTT + 4 RTTVAR < 1 s here) later.
    holes = tuple(range(301, 341, 2))
    scenario = S.single_bottleneck(bottleneck_delay=80e-3, buffer=100, protocol="newreno",
                                   loss=S.PacketList(holes), tcp=S.TcpOptions(max_window=40))
    dt = 1e-3
    result = run(scenario, 8.0, trace=True, sample_interval=dt)
    flow = result.flows[0]
    assert flow.dropped_queue == 0 and flow.dropped_loss == len(holes)
    assert flow.timeouts == 1
    t, w = result.traces.time, result.traces.window[:, 0]
    t_fr = t[np.argmax(w < 40.0)]  # cwnd leaves the cap: ssthresh + 3 = 23
    t_to = t[(t > t_fr) & (w <= 1.0)][0]  # the timeout sets cwnd = 1
    rtt_max = _full_queue_rtt([0.2e-3, 80e-3], 1.5e6, 40)  # <= 40 packets queued
    assert t_to - t_fr <= 1.0 + 2 * rtt_max  # one RTT to the first partial ACK + RTO + slack
    assert t_to - t_fr < len(holes) * 2 * 80e-3  # well before one-hole-per-RTT would end


@pytest.mark.parametrize("loss", [1e-3, 3e-3])
def test_fig4_7_window_excursion_is_one_recovery(loss):
    # Reproduction (a): thesis Fig. 4.7 (10 Mb/s 0.1 ms + 1.5 Mb/s 80 ms, buffer
    # 30, BDP ~31: capacity 61 packets), NewReno, 60 s, seeds 0-2.  Before the
    # fix the window stayed above 61 for 12-39 s at a stretch and peaked at
    # 1600-3750 packets, with 450-940 drops at R.
    rtt = _full_queue_rtt([0.1e-3, 80e-3], 1.5e6, 30)
    for seed in range(3):
        result = run(S.preset("thesis_fig4_7", protocol="newreno", loss=loss), 60.0,
                     seed=seed, trace=True, sample_interval=0.01)
        w = result.traces.window[:, 0]
        assert _longest_run(w > 61, 0.01) <= _recovery_bound(rtt), seed


def test_dumbbell_flow_window_excursion_is_one_recovery():
    # Reproduction (b): 4 flows, 100 Mb/s 1 ms access, 10 Mb/s 40 ms bottleneck,
    # buffer 200, 1 % loss.  Before the fix flow 2's window reached 1561 packets
    # and stayed above 60 for 23 s in all (8 s at a stretch) while it sent
    # ~132 packets/s: the inflation of one recovery that lasted tens of RTTs.
    scenario = S.dumbbell(4, 100e6, 1e-3, 10e6, 40e-3, 200, 1e-2, "newreno")
    result = run(scenario, 60.0, seed=0, trace=True, sample_interval=0.01)
    rtt = _full_queue_rtt([1e-3, 40e-3, 1e-3], 10e6, 200)
    for k in range(4):
        w = result.traces.window[:, k]
        assert _longest_run(w > 60, 0.01) <= _recovery_bound(rtt), k


@pytest.mark.parametrize("loss", [1e-3, 3e-3])
def test_fig4_7_drops_at_r_like_ns3_without_sack(loss):
    # The like-for-like peer is ns-3 without SACK (NewReno partial ACKs,
    # Impatient timer): its drops at R over the 300 s runs of seeds 0-4 are in
    # data/ns3_loss.csv.  Before the fix ctlcc's NewReno dropped 5.4x (1e-3) and
    # 14x (3e-3) as many; drop counts carry no goodput-style target (ns-3's own
    # vary 2.5x between its recovery variants), so the bound is a factor 2.
    table = read_ns3_csv("ns3_loss")
    cases = [c for c in comparison_cases("loss", protocol="newreno")
             if c.params["loss"] == loss]
    ours = np.mean([run(c.scenario, c.duration, seed=c.seed, progress=False).queues[0].drops
                    for c in cases])
    peer = np.mean([float(table.where(loss=loss, seed=c.seed, variant="nosack")
                          ["queue_drops"].sum()) for c in cases])
    assert ours <= 2.0 * peer, (ours, peer)
