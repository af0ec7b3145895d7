"""The packets in flight on a channel: one heap entry per channel, every arrival listed.

The event heap holds only the arrival of each channel's oldest packet; the
packets behind it wait in the channel's list (``ctlcc.sim._core.net.offer``).
(A run with many channels keeps those arrivals on the arrival wheel until
they are due: ``test_arrival_wheel``; the harness's runs here have few.)
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


# --- memory layout: a packet's and a channel's int and float columns share one row ---

def _columns(prefixes):
    return {name: getattr(K, name) for name in dir(K)
            if name.startswith(prefixes) and isinstance(getattr(K, name), int)}


def test_packet_columns_are_distinct_words_of_one_row():
    cols = _columns(("P_", "Q_"))
    assert len(set(cols.values())) == len(cols)          # no int and float column alias
    assert all(0 <= v < K.NPW for v in cols.values())
    hot = ("P_FLOW", "P_KIND", "P_HOP", "P_NEXT", "P_EVENT_SEQ", "Q_ARRIVAL", "P_NEXT_SEQ",
           "Q_NEXT_ARRIVAL")                            # what a hop reads: the first 64 bytes
    assert all(cols[name] < 8 for name in hot)


def test_channel_columns_are_distinct_words_of_one_row():
    cols = _columns(("K_", "C_"))
    # RED's and PI's state share words (a channel has one AQM); nothing else does
    aqm = {v for name, v in cols.items() if name.startswith(("C_RED_", "C_PI_"))}
    rest = {name: v for name, v in cols.items() if not name.startswith(("C_RED_", "C_PI_"))}
    assert len(set(rest.values())) == len(rest)
    assert not aqm & set(rest.values())
    assert all(0 <= v < K.NCW for v in cols.values())
    hop = ("K_CAP", "K_RING_OFF", "K_RING_HEAD", "K_RING_COUNT", "K_FIFO_HEAD", "K_FIFO_TAIL",
           "K_AQM", "K_LOSS_KIND", "K_ARRIVALS", "K_MAXQ", "C_RATE", "C_DELAY", "C_LAST_END",
           "C_WAIT_SUM", "C_BUSY_SUM")                   # every offer: the first 128 bytes
    assert all(cols[name] < 16 for name in hop)


def test_rows_are_aligned_views_of_the_same_memory():
    import numpy as np

    from ctlcc.sim.engine import _rows

    for n, width in ((1, K.NPW), (1000, K.NPW), (37, K.NCW)):
        ints, floats = _rows(n, width)
        assert ints.shape == floats.shape == (n, width)
        assert ints.flags.c_contiguous and floats.flags.c_contiguous
        assert ints.ctypes.data % 64 == 0 and floats.ctypes.data == ints.ctypes.data
        floats[n - 1, width - 1] = 1.5
        assert ints[n - 1, width - 1] == np.float64(1.5).view(np.int64)
        assert not ints[:, :width - 1].any()


def test_a_run_keeps_each_packets_successor_key_in_its_row():
    """P_NEXT_SEQ / Q_NEXT_ARRIVAL of a packet equal its successor's own key."""
    h, _ = _harness()
    sim = h._sim
    checked = 0
    for c in range(sim.ci.shape[0]):
        p = int(sim.ci[c, K.K_FIFO_HEAD])
        while p >= 0:
            q = int(sim.pi[p, K.P_NEXT])
            if q >= 0:
                assert sim.pi[p, K.P_NEXT_SEQ] == sim.pi[q, K.P_EVENT_SEQ]
                assert sim.pf[p, K.Q_NEXT_ARRIVAL] == sim.pf[q, K.Q_ARRIVAL]
                checked += 1
            p = q
    assert checked == 3                                  # 4 packets on the access link
