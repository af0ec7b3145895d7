"""The retransmission timers' own heap (``ctlcc.sim._core.net.schedule``).

Every event draws its sequence number from one counter; the timers
(``EV_RTO``), with every other event but the packets' arrivals, wait in a
heap of their own and the loop takes the earlier of the two heads.  Expected: the order one heap would give, i.e. the events
sorted by (time, sequence number) - checked against ``sorted`` on random
events, and on whole runs against the same run with the timer heap made
too small to start with (its growth path), event for event.
"""

import numba
import numpy as np
import pytest

from ctlcc.sim import run
from ctlcc.sim import scenarios as S
from ctlcc.sim._core import layout as K
from ctlcc.sim._core import net
from ctlcc.sim._core.world import sample_ctx
from ctlcc.sim.engine import _heap_fields, _heap_table, _Simulation


@numba.njit
def _drain(ctx, times, kinds):
    """Schedule (times[i], kinds[i], a=i) in order, then pop the earlier head until empty."""
    for i in range(times.shape[0]):
        net.schedule(ctx, times[i], kinds[i], i, 0)
    out = np.empty(times.shape[0], dtype=np.int64)
    j = 0
    while ctx.meta[K.M_HEAP] > 0 or ctx.meta[K.M_TIMERS] > 0:
        if net.earliest_is_timer(ctx):
            t, k, a, b = net.heap_pop_in(ctx.tf, ctx.ti, ctx.meta, K.M_TIMERS)
        else:
            t, k, a, b = net.heap_pop(ctx.hf, ctx.hi, ctx.meta)
        out[j] = a
        j += 1
    return out


def _ctx(size):
    ctx = sample_ctx()._asdict()
    ctx["hi"], ctx["hf"] = _heap_table(size)
    ctx["ti"], ctx["tf"] = _heap_table(size)
    ctx["meta"] = np.zeros(K.NM, dtype=np.int64)
    return type(sample_ctx())(**ctx)


@pytest.mark.parametrize("seed", range(5))
def test_two_heaps_give_the_order_of_time_then_push(seed):
    rng = np.random.default_rng(seed)
    n = 2000
    # coarse times, so that many events tie on time and the push order decides
    times = rng.integers(0, 50, n).astype(float)
    kinds = rng.choice([K.EV_ARRIVE, K.EV_RTO, K.EV_PACE, K.EV_SAMPLE], n)
    ctx = _ctx(n + 1)
    got = _drain(ctx, times, kinds)
    expected = sorted(range(n), key=lambda i: (times[i], i))   # (t, seq): seq is push order
    assert list(got) == expected
    # and every arrival went to the event heap, every other event to the timer heap
    ctx = _ctx(n + 1)
    for i in range(n):
        net.schedule(ctx, times[i], kinds[i], i, 0)
    assert int(ctx.meta[K.M_HEAP]) == int(np.sum(kinds == K.EV_ARRIVE))
    assert int(ctx.meta[K.M_TIMERS]) == n - int(np.sum(kinds == K.EV_ARRIVE))
    assert set(_heap_fields(ctx.hf, ctx.hi)[2][:ctx.meta[K.M_HEAP]]) <= {K.EV_ARRIVE}
    assert K.EV_ARRIVE not in set(_heap_fields(ctx.tf, ctx.ti)[2][:ctx.meta[K.M_TIMERS]])


def _scenario():
    start = [0.01 * k for k in range(12)]
    return S.dumbbell(12, protocol="newreno", bottleneck_rate=6e6, buffer=20, start=start)


def test_a_run_keeps_one_pending_timer_heap_apart_from_the_events():
    sim = _Simulation(_scenario(), 3.0, False, 0.1)
    sim.drive(np.random.default_rng(0), False)
    m, n = int(sim.meta[K.M_TIMERS]), int(sim.meta[K.M_HEAP])
    assert m > 0 and n > 0
    assert K.EV_RTO in set(sim.tk[:m]) and K.EV_ARRIVE not in set(sim.tk[:m])
    assert set(sim.hk[:n]) == {K.EV_ARRIVE}


def test_a_timer_heap_too_small_grows_and_changes_nothing():
    sc, duration = _scenario(), 8.0
    ref = run(sc, duration, seed=3)
    sim = _Simulation(sc, duration, False, duration / 2000.0)
    # room for a single timer beyond the margin: the loop asks for more at once
    sim._alloc_timers(int(sim.meta[K.M_MARGIN]) + 1)
    size = sim.tt.shape[0]
    wall = sim.drive(np.random.default_rng(3), False)
    assert sim.tt.shape[0] > size
    got = sim.result(3, wall)
    assert got.events == ref.events
    assert [f.sent for f in got.flows] == [f.sent for f in ref.flows]
    assert [f.delivered for f in got.flows] == [f.delivered for f in ref.flows]
    assert [f.timeouts for f in got.flows] == [f.timeouts for f in ref.flows]
    assert np.array_equal(got.samples.window, ref.samples.window)
    assert np.array_equal(got.samples.queue, ref.samples.queue)


def test_a_heap_entrys_children_share_a_cache_line_and_python_reads_the_entries():
    """The flat heap table: 32-byte entries, children 2i+1 and 2i+2 in one 64-byte line,
    and the kernel's packed key (sequence number, kind) decodes to what was pushed."""
    hi, hf = _heap_table(37)
    assert K.NHQ * hi.itemsize == 32 and hi.ctypes.data % 64 == 32
    assert np.shares_memory(hi, hf)
    line = lambda i: (hi.ctypes.data + i * K.NHQ * hi.itemsize) // 64   # noqa: E731
    assert all(line(2 * i + 1) == line(2 * i + 2) for i in range(18))
    meta = np.zeros(K.NM, dtype=np.int64)
    meta[K.M_HEAP_SEQ] = 2**40   # sequence numbers far beyond a kind's bits
    rng = np.random.default_rng(0)
    times = rng.uniform(0.0, 1.0, 30)
    kinds = [K.EV_PACE, K.EV_STEP, K.EV_ARRIVE]
    for i, t in enumerate(times):
        net.heap_push(hf, hi, meta, t, kinds[i % 3], 100 + i, 1000 + i)
    ht, hs, hk, ha, hb = _heap_fields(hf, hi)
    n = int(meta[K.M_HEAP])
    assert n == 30 and len(ht) == 37
    # every entry, read through the strided views, is one that was pushed, whole
    got = sorted(zip(ht[:n], hs[:n], hk[:n], ha[:n], hb[:n]))
    assert got == sorted((t, 2**40 + i, kinds[i % 3], 100 + i, 1000 + i)
                         for i, t in enumerate(times))
    assert ht[0] == times.min()   # the root is the earliest
