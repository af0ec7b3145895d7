"""The arrival wheel (``ctlcc.sim._core.net.wheel_put``, ``wheel_settle``).

A run with many channels keeps its packets' arrivals on a wheel of slots and
moves a slot into the event heap only when the heap's head is not earlier
than the slot's start.  Expected: exactly the order of the event heap alone,
i.e. the events sorted by (time, sequence number).  Checked three ways:

* a hold model driven through the wheel's own functions against the same
  draws replayed with Python's ``heapq`` (a second algorithm), with ties in
  time, arrivals outside the wheel's slots, other events in the heap, and
  enough time for the wheel's slot positions to wrap around many times;
* the stored fingerprints of ``test_golden_engine`` (made by the engine
  before the wheel existed), every case run with the wheel on (there);
* the bench's 300-flow dumbbell with the wheel on and off, event for event.
"""

import heapq

import numba
import numpy as np
import pytest

from ctlcc.sim import engine, run
from ctlcc.sim import scenarios as S
from ctlcc.sim._core import layout as K
from ctlcc.sim._core import net
from ctlcc.sim.testing import SenderHarness

from . import make_golden as G


@numba.njit
def _arrival(now, t, c, hf, hi, meta, g, pi, pf, ci):
    """Channel c's next arrival at t (packet c: its oldest), as net.offer schedules one."""
    seq = meta[K.M_HEAP_SEQ]
    meta[K.M_HEAP_SEQ] = seq + 1
    ci[c, K.K_FIFO_HEAD] = c
    pf[c, K.Q_ARRIVAL] = t
    pi[c, K.P_EVENT_SEQ] = seq
    net.arrival_insert(now, t, seq, c, c, hf, hi, meta, g, ci)


@numba.njit
def _hold(hf, hi, meta, g, pi, pf, ci, first, delays, other, pops):
    """Channel c's first arrival at first[c]; each arrival schedules its channel's next one
    delays[j] later (j: the arrival's rank); other[j] > 0 also pushes a non-arrival event
    other[j] later.  Returns the popped (time, sequence number, kind, channel) in order."""
    for c in range(first.shape[0]):
        _arrival(0.0, first[c], c, hf, hi, meta, g, pi, pf, ci)
    out_t = np.empty(pops)
    out_s = np.empty(pops, dtype=np.int64)
    out_k = np.empty(pops, dtype=np.int64)
    out_b = np.empty(pops, dtype=np.int64)
    j = 0
    for i in range(pops):
        net.wheel_settle(hf, hi, meta, g, pi, pf, ci)
        s = hi[K.HQ_S]
        t, kind, a, b = net.heap_pop(hf, hi, meta)
        out_t[i], out_s[i], out_k[i], out_b[i] = t, s >> K.KIND_BITS, kind, b
        if kind == K.EV_ARRIVE:
            _arrival(t, t + delays[j], b, hf, hi, meta, g, pi, pf, ci)
            if other[j] > 0.0:
                net.heap_push(hf, hi, meta, t + other[j], K.EV_PACE, 0, -1)
            j += 1
    return out_t, out_s, out_k, out_b


def _replay(first, delays, other, pops):
    """The same hold model with heapq: (time, sequence number) order by construction."""
    pending = []
    seq = 0
    for c, t in enumerate(first):
        heapq.heappush(pending, (float(t), seq, K.EV_ARRIVE, c))
        seq += 1
    out = []
    j = 0
    for _ in range(pops):
        t, s, kind, b = heapq.heappop(pending)
        out.append((t, s, kind, b))
        if kind == K.EV_ARRIVE:
            heapq.heappush(pending, (t + float(delays[j]), seq, K.EV_ARRIVE, b))
            seq += 1
            if other[j] > 0.0:
                heapq.heappush(pending, (t + float(other[j]), seq, K.EV_PACE, -1))
                seq += 1
            j += 1
    return out, len(pending)


def _tables(channels, ahead):
    meta = np.zeros(K.NM, dtype=np.int64)
    meta[K.M_WHEEL_HEADS:K.M_WHEEL_HEADS + K.WHEEL_SLOTS] = -1
    g = np.zeros(K.NG)
    g[K.G_WHEEL_INV] = (K.WHEEL_SLOTS - 2) / ahead
    ci, cf = engine._rows(channels, K.NCW)
    pi, pf = engine._rows(channels, K.NPW)   # packet c: channel c's oldest
    hi, hf = engine._heap_table(4 * channels + 4096)
    return hf, hi, meta, g, pi, pf, ci


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("grid", [0.0, 1e-4])   # 1e-4: times on a grid, many ties
def test_the_wheel_gives_the_heaps_order(seed, grid):
    rng = np.random.default_rng(seed)
    channels, pops, ahead = 300, 40_000, 2.2e-3
    first = rng.uniform(0.0, ahead, channels)
    # most arrivals within the wheel's span; one in 50 beyond it (to the heap)
    delays = rng.uniform(1e-6, ahead, pops)
    delays[rng.random(pops) < 0.02] *= 5.0
    if grid:
        first = np.round(first / grid) * grid
        delays = np.maximum(np.round(delays / grid), 1.0) * grid
    other = np.where(rng.random(pops) < 0.05, rng.uniform(0.0, 3 * ahead, pops), 0.0)
    tables = _tables(channels, ahead)
    t, s, k, b = _hold(*tables, first, delays, other, pops)
    expected, pending = _replay(first, delays, other, pops)
    assert list(zip(t.tolist(), s.tolist(), k.tolist(), b.tolist())) == expected
    meta = tables[2]
    assert meta[K.M_WHEEL_N] + meta[K.M_HEAP] == pending
    # the slots' positions wrapped around many times, and the wheel held most arrivals
    assert t[-1] * tables[3][K.G_WHEEL_INV] > 10 * K.WHEEL_SLOTS
    assert meta[K.M_WHEEL_N] > channels // 2


def test_a_run_with_many_channels_turns_the_wheel_on(monkeypatch):
    sc = S.dumbbell(70)   # 4 channels per flow and the bottleneck's two
    ahead = max(sc.data_bits / 10e6 + 1e-3, sc.data_bits / 2e6 + 4e-3)
    sim = engine._Simulation(sc, 1.0, False, 0.01)
    assert len(sim.channel_names) >= engine.WHEEL_MIN_CHANNELS
    assert sim.g[K.G_WHEEL_INV] == pytest.approx((K.WHEEL_SLOTS - 2) / ahead, rel=1e-12)
    monkeypatch.setattr(engine, "WHEEL_MIN_CHANNELS", 10**9)
    assert engine._Simulation(sc, 1.0, False, 0.01).g[K.G_WHEEL_INV] == 0.0


def test_many_flows_wheel_on_and_off_alike(monkeypatch):
    start = np.random.default_rng(0).uniform(0.0, 1.0, 300)
    sc = S.dumbbell(300, bottleneck_rate=300e6, buffer=13 * 300,
                    start=[float(x) for x in start])
    results = []
    for threshold in (0, 10**9):
        monkeypatch.setattr(engine, "WHEEL_MIN_CHANNELS", threshold)
        results.append(run(sc, 1.2, seed=3, trace=True, progress=False))
    on, off = (G.fingerprint(r) for r in results)
    assert results[0].events == results[1].events
    np.testing.assert_array_equal(on[0], off[0])
    np.testing.assert_array_equal(on[1], off[1])
    assert list(on[2]) == list(off[2])


def test_the_harness_lists_the_arrivals_on_the_wheel(monkeypatch):
    monkeypatch.setattr(engine, "WHEEL_MIN_CHANNELS", 0)
    scenario = S.single_bottleneck(protocol="reno", tcp=S.TcpOptions(initial_window=4))
    h = SenderHarness("reno", scenario=scenario)
    h.start(now=0.0)
    sim = h._sim
    assert sim.g[K.G_WHEEL_INV] > 0.0
    a, d_a = scenario.data_bits / 10e6, 0.0002
    arrivals = [(t, p) for t, kind, p, _ in h.events() if kind == "arrive"]
    assert [t for t, _ in arrivals] == pytest.approx([(k + 1) * a + d_a for k in range(4)])
    # the access link's oldest packet waits on the wheel, not in the heap
    n = int(sim.meta[K.M_HEAP])
    assert list(sim.hk[:n]).count(K.EV_ARRIVE) == 0
    assert int(sim.meta[K.M_WHEEL_N]) == 1
