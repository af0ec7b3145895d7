"""The opt-in per-flow occupancy trace of the reported queues (run(queue_by_flow=True)).

Expected values come from routes independent of the trace:
* a hand-built channel whose waiting packets are enumerated by hand;
* two CBR sources overloading a FIFO: the packets waiting at t are the last
  (r_A + r_B - mu) t arrivals, split as the arrival rates r_A : r_B;
* two Poisson sources into an M/D/1 FIFO: PASTA gives both flows the same
  mean wait W_q = rho / (2 mu (1 - rho)) (Pollaczek-Khinchine), so by
  Little's law flow f holds L_f = lambda_f W_q packets on average;
* the engine's own total queue trace (ring count) at every sample;
* each in-flight packet's own transmission start (arrival - delay - bits/rate),
  later than now for exactly the waiting ones.
"""

import numpy as np
import pytest

from ctlcc.errors import ParameterError
from ctlcc.sim import engine, run, scenarios as S
from ctlcc.sim._core import layout as K
from ctlcc.sim._core.occupancy import count_waiting_by_flow
from ctlcc.sim.scenarios import Flow, Link, Scenario
from ctlcc.sim.senders import Cbr, Poisson

RATE = 1.5e6  # [bit/s]
MU = RATE / (8 * 1054)  # service rate of 1054-byte packets [packets/s]


def _two_sources(a, b, buffer=1000):
    """Sources A and B, each on its own 100 Mb/s access, into R's FIFO towards D."""
    links = (Link("A", "R", 100e6, 1e-3, buffer), Link("B", "R", 100e6, 1e-3, buffer),
             Link("R", "D", RATE, 0.01, buffer))
    return Scenario("two_sources", links, (Flow(("A", "R", "D"), sender=a),
                                           Flow(("B", "R", "D"), sender=b)), (("R", "D"),))


def test_hand_built_channel_counts_only_the_waiting_packets():
    # Channel 0 holds six packets in flight, oldest first: flows 2 (propagating, its
    # transmission ended), 0 (in transmission), then 1, 0, 1, 1 waiting.  The ring
    # holds the five whose transmission has not ended; at now = 10.0 the one in
    # transmission started at 9.5, the others start at 10.5, 11.5, 12.5, 13.5.
    flows = [2, 0, 1, 0, 1, 1]
    order = [4, 0, 5, 2, 1, 3]   # pool slots, deliberately not in list order
    pi = np.zeros((8, K.NPI), dtype=np.int64)
    for i, p in enumerate(order):
        pi[p, K.P_FLOW] = flows[i]
        pi[p, K.P_NEXT] = order[i + 1] if i + 1 < len(order) else -1
    ci = np.zeros((1, K.NCI), dtype=np.int64)
    ci[0, K.K_CAP] = 9
    ci[0, K.K_RING_OFF] = 0
    ci[0, K.K_RING_HEAD] = 7      # the ring wraps: slots 7, 8, 9, 0, 1
    ci[0, K.K_RING_COUNT] = 5
    ci[0, K.K_FIFO_HEAD], ci[0, K.K_FIFO_TAIL] = order[0], order[-1]
    ring_s = np.zeros(10)
    for k, start in enumerate([9.5, 10.5, 11.5, 12.5, 13.5]):
        ring_s[(7 + k) % 10] = start
    out = np.zeros(3)
    assert count_waiting_by_flow(10.0, 0, ci, pi, ring_s, out) == 4
    assert out.tolist() == [1.0, 3.0, 0.0]
    # at 12.0 two of them have started: the waiting ones are the last two (flow 1, 1)
    out[:] = 0.0
    assert count_waiting_by_flow(12.0, 0, ci, pi, ring_s, out) == 2
    assert out.tolist() == [0.0, 2.0, 0.0]
    # an empty channel adds nothing
    ci[0, K.K_RING_COUNT] = 0
    ci[0, K.K_FIFO_HEAD] = -1
    out[:] = 0.0
    assert count_waiting_by_flow(10.0, 0, ci, pi, ring_s, out) == 0
    assert out.tolist() == [0.0, 0.0, 0.0]


@pytest.fixture(scope="module")
def overload():
    sc = _two_sources(Cbr(rate=0.8 * MU), Cbr(rate=0.4 * MU))
    return run(sc, 10.0, sample_interval=0.5, queue_by_flow=True, trace=True)


def test_overloaded_fifo_splits_its_backlog_as_the_arrival_rates(overload):
    s = overload.samples
    assert s.queue_by_flow.shape == (len(s.time), 1, 2)
    t = s.time[s.time >= 2.0]
    by = s.queue_by_flow[s.time >= 2.0, 0]
    # backlog (0.8 + 0.4 - 1) mu t, of which the last arrivals: 2/3 from A, 1/3 from B;
    # +-3 packets for the access links' 1-ms offset and the integer counts
    backlog = 0.2 * MU * (t - 1e-3)
    assert np.abs(by[:, 0] - backlog * 2 / 3).max() <= 3.0
    assert np.abs(by[:, 1] - backlog / 3).max() <= 3.0
    assert overload.flows[0].dropped == 0 and overload.flows[1].dropped == 0


def test_per_flow_counts_sum_to_the_total_queue_trace(overload):
    for res in (overload.samples, overload.traces):
        np.testing.assert_array_equal(res.queue_by_flow.sum(axis=2), res.queue)
    assert overload.traces.queue_by_flow is overload.samples.queue_by_flow


def test_little_law_per_flow_on_two_poisson_sources():
    # M/D/1 at rho = 0.8 split 5 : 3; each flow's time-averaged waiting packets
    # L_f = lambda_f W_q with W_q = rho / (2 mu (1 - rho)) for both (PASTA, FIFO).
    la, lb = 0.5 * MU, 0.3 * MU
    rho = (la + lb) / MU
    wq = rho / (2 * MU * (1 - rho))
    means = []
    for seed in range(2):
        r = run(_two_sources(Poisson(rate=la), Poisson(rate=lb), buffer=100_000), 1000.0,
                seed=seed, sample_interval=0.01, queue_by_flow=True)
        means.append(r.samples.queue_by_flow[:, 0].mean(axis=0))
        # the samples' total against the engine's integrated waiting time (QueueStats.mean)
        assert r.samples.queue.mean() == pytest.approx(r.queues[0].mean, rel=0.03)
    got = np.mean(means, axis=0)
    assert got[0] == pytest.approx(la * wq, rel=0.1)   # 1.0 packet
    assert got[1] == pytest.approx(lb * wq, rel=0.1)   # 0.6 packet


def test_off_by_default_and_without_reported_queues():
    sc = S.single_bottleneck(buffer=14)
    r = run(sc, 2.0)
    assert r.samples.queue_by_flow is None
    bare = Scenario("bare", sc.links, sc.flows, ())
    r = run(bare, 2.0, queue_by_flow=True)
    assert r.samples.queue_by_flow.shape == (len(r.samples.time), 0, 1)


@pytest.mark.parametrize("bad", ["yes", 1, None])
def test_bad_flag_names_the_argument(bad):
    with pytest.raises(ParameterError, match="queue_by_flow must be True or False"):
        run(S.single_bottleneck(), 1.0, queue_by_flow=bad)


@pytest.mark.parametrize("until", [17.3, 22.05, 28.7])
def test_fifo_suffix_agrees_with_each_packets_start_time(until):
    # The trace takes the waiting packets as the last w of the channel's in-flight list
    # (w from the transmission ring).  Independent route: each in-flight packet's own
    # transmission start, start = arrival - delay - bits / rate, later than now.
    sc = S.preset("thesis_fig3_18", protocol="reno")   # Reno S1D1 and S2D2 share R1
    sim = engine._Simulation(sc, until, False, 0.01, True)
    sim.drive(np.random.default_rng(0), False)
    now = sim.g[K.G_NOW]
    c = int(sim.bott[0])
    rate, delay = sim.cf[c, K.C_RATE], sim.cf[c, K.C_DELAY]
    expected = np.zeros(len(sc.flows))
    p = sim.ci[c, K.K_FIFO_HEAD]
    while p >= 0:
        bits = sim.g[K.G_DATA_BITS] if sim.pi[p, K.P_KIND] == 0 else sim.g[K.G_ACK_BITS]
        if sim.pf[p, K.Q_ARRIVAL] - delay - bits / rate > now + 1e-9:
            expected[sim.pi[p, K.P_FLOW]] += 1
        p = sim.pi[p, K.P_NEXT]
    out = np.zeros(len(sc.flows))
    count_waiting_by_flow(now, c, sim.ci, sim.pi, sim.ring_s, out)
    assert expected.sum() >= 10         # R1 holds a queue then (13, 20, 15 packets)
    np.testing.assert_array_equal(out, expected)
