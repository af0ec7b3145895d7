"""STTP's §III small set-ups on ctlcc's engine (Wade, Kara & Dew (2000), §III-A, §III-B.1-3).

Expected values come from hand derivations on the paper's links (store and
forward: a packet takes size/rate on each link plus the link's latency, the
next packet of a back-to-back pair waits behind it), not from the code.
"""

import numpy as np
import pytest

from ctlcc.errors import ParameterError
from ctlcc.experiments import sttp as exp


def test_serialisation_time_by_hand():
    # 64 bytes = 512 bits at 64 000 bit/s = 8 ms; 1000 bytes at 64 kb/s = 125 ms
    assert exp.serialisation_time(64, 64e3) == pytest.approx(0.008, abs=1e-15)
    assert exp.serialisation_time(1000, 64e3) == pytest.approx(0.125, abs=1e-15)
    assert exp.serialisation_time(0, 1e6) == 0.0


@pytest.mark.parametrize("size, rate", [(-1, 64e3), (64, 0.0), (64, float("nan")), ("64", 64e3)])
def test_serialisation_time_refuses(size, rate):
    with pytest.raises(ParameterError):
        exp.serialisation_time(size, rate)


def test_table1_links_read_as_printed():
    assert exp.table1_links("2Mb 1ms, 1Mb 2ms, 2Mb 1ms") == ((2e6, 1e-3), (1e6, 2e-3),
                                                              (2e6, 1e-3))
    with pytest.raises(ParameterError, match="network"):
        exp.table1_links("2Mb, 1Mb 2ms")


def test_ping_pair_returns_at_104_and_120_ms():
    """Out: 8 + 5 (A-B) + 16 + 10 (B-C) + 8 + 5 (C-D) = 52 ms, back the same: 104 ms.
    Packet 2 leaves A 8 ms later but waits at B until packet 1 has crossed B-C
    (29 ms), reaches D at 68 ms, and on the way back waits at C until packet 1
    has crossed C-B (81 ms): back at 81 + 16 + 10 + 8 + 5 = 120 ms."""
    p = exp.ping_pair()
    assert p.returns == pytest.approx((0.104, 0.120), abs=1e-9)
    assert p.gap == pytest.approx(0.016, abs=1e-9)
    assert p.probe_rate == pytest.approx(32e3, rel=1e-9)     # 64 bytes / 16 ms


def test_reno_slow_start_on_the_three_node_chain():
    """1000-byte data (125 ms + 1 ms per link), 40-byte ACKs (5 ms + 1 ms per link):
    an RTT is 0.264 s on the idle path.  Slow start from one segment: segment 1 at 0;
    2-3 at 0.264; 4-5 at 0.528 (ACK 2); 6-7 at 0.653 (ACK 3); 8 at 0.792 (ACK 4),
    queued behind 6-7 on the first link until 1.028, on the second until 1.154:
    at the sink 1.280, its ACK back at 1.292 (the paper's printed 0.264 and 1.292)."""
    b = exp.burst_timeline(protocols=("Reno",), packets=8)["Reno"]
    assert b.ack_times == pytest.approx([0.264, 0.528, 0.653, 0.792, 0.917, 1.042, 1.167,
                                         1.292], abs=1e-9)
    assert b.ack_return == pytest.approx(0.012, abs=1e-12)   # 2 x (5 ms + 1 ms)
    assert b.sink_times[-1] == pytest.approx(1.280, abs=1e-9)
    # send times from the sent-count trace: within one sample after the event
    sent = np.array([0.0, 0.264, 0.264, 0.528, 0.528, 0.653, 0.653, 0.792])
    assert np.all(b.send_times >= sent - 1e-9) and np.all(b.send_times <= sent + b.resolution)


def test_sttp_probe_pair_then_the_bucket():
    """ctlcc's STTP probes with its first two 1000-byte segments: their ACKs are back at
    0.264 s and 0.264 + 0.125 = 0.389 s (one packet time behind); the probe gives
    8 packets/s, so sigma = 8 and segments 3-10 leave at 0.389 s: six of the first eight."""
    b = exp.burst_timeline(protocols="STTP", packets=8)["STTP"]
    assert b.ack_times[:2] == pytest.approx([0.264, 0.389], abs=1e-9)
    assert b.sigma0 == pytest.approx(8.0, abs=1e-9)
    count, when = b.largest_burst(8)
    assert count == 6 and 0.389 - 1e-9 <= when <= 0.389 + b.resolution


def test_largest_burst_counts_equal_send_times():
    b = exp.BurstTimeline("x", np.array([0.0, 0.0, 0.5, 0.5, 0.5, 0.7]), np.zeros(6), 0.0,
                          1e-4, np.nan)
    assert b.largest_burst(6) == (3, 0.5)
    assert b.largest_burst(2) == (2, 0.0)


def test_rtt_example_probes_half_the_backbone():
    """§III-B.3: a CBR packet (1000 B every 0.08 s) crosses the 128 kb/s backbone
    between the two probe segments, so the pair returns two 62.5-ms packet times
    apart: 1000 x 8 / 0.125 s = 64 kb/s, the paper's printed probe."""
    e = exp.rtt_example()
    assert e.probe_rate == pytest.approx(64e3, rel=1e-9)
    assert e.drop_time > 2.5 and e.drop_rtt < 0.95 * e.drop_last_rtt


def test_bursty_source_bucket_and_counts():
    b = exp.bursty_source()
    # 64 kb/s / (1000 x 8 bit) = 8 packets/s: sigma = 8 tokens
    assert b.sigma0 == pytest.approx(8.0, abs=1e-9)
    # the link carries 8 packets/s: at most 400 delivered in 50 s
    assert all(0 < d <= 400 for d in b.delivered.values())
