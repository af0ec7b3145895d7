"""The packets in flight on a channel: one heap entry per channel, every arrival listed.

The event heap holds only the arrival of each channel's oldest packet; the
packets behind it wait in the channel's list (``ctlcc.sim._core.net.offer``).
Expected times from the timing model by hand: a window of 4 segments of
``data_bits`` sent at t = 0 on the 10 Mb/s, 0.2 ms access link reach the
router at ``(k + 1) a + d_a`` (a = data_bits / 10 Mb/s), and the 1.5 Mb/s,
20 ms bottleneck, slower, delivers them back to back: ``t_0 + (k + 1) b + d_b``.
"""

import pytest

from ctlcc.sim import scenarios as S
from ctlcc.sim._core import layout as K
from ctlcc.sim.testing import SenderHarness


def _harness():
    scenario = S.single_bottleneck(protocol="reno", tcp=S.TcpOptions(initial_window=4))
    h = SenderHarness("reno", scenario=scenario)
    h.start(now=0.0)
    return h, scenario.data_bits


def _arrivals(h):
    return [(t, p) for t, kind, p, _ in h.events() if kind == "arrive"]


def test_every_packet_in_flight_is_listed_in_fifo_order():
    h, bits = _harness()
    a, d_a = bits / 10e6, 0.0002
    arrivals = _arrivals(h)
    assert [t for t, _ in arrivals] == pytest.approx([(k + 1) * a + d_a for k in range(4)])
    assert len({p for _, p in arrivals}) == 4


def test_the_heap_holds_one_arrival_per_busy_channel():
    h, _ = _harness()
    sim = h._sim
    n = int(sim.meta[K.M_HEAP])
    assert list(sim.hk[:n]).count(K.EV_ARRIVE) == 1      # 4 packets, one channel


def test_arrivals_after_the_first_hop_follow_the_bottleneck():
    h, bits = _harness()
    a, d_a, b, d_b = bits / 10e6, 0.0002, bits / 1.5e6, 0.02
    h.run(until=3 * a + d_a + 1e-9)     # packets 0-2 have reached the router
    t0 = a + d_a
    expected = sorted([t0 + (k + 1) * b + d_b for k in range(3)] + [4 * a + d_a])
    assert [t for t, _ in _arrivals(h)] == pytest.approx(expected)
    sim = h._sim
    n = int(sim.meta[K.M_HEAP])
    assert list(sim.hk[:n]).count(K.EV_ARRIVE) == 2      # the access link and the bottleneck
