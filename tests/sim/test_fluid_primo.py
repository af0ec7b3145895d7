"""Primo fluid model (Chatté, Ducourthial & Niculescu (2006), §III, Algorithm 1) against its algebra.

Independent routes: Algorithm 1 applied packet by packet with
ctlcc.laws.primo.next_rate in a plain loop (for the fluid's per-step
composition), and fixed points / invariant intervals worked out by hand
from Algorithm 1 (derivations in each test).
"""

import numpy as np
import pytest

from ctlcc.laws.primo import PrimoParams, next_rate
from ctlcc.sim import fluid

C = 1000.0     # packets/s
TP = 0.1       # s, round-trip propagation delay; FTT_ref = TP / 2


@pytest.mark.parametrize(
    "queue, regime",
    [(20.0, "strong"), (10.0, "moderate"), (8.0, "hold"), (2.0, "release")],
)
def test_one_step_is_packetwise_algorithm_1(queue, regime):
    # dt = 5 ms at 1200 packets/s is 6 packets: the fluid step must equal six
    # calls of next_rate with the inputs frozen (old rate and reception rate
    # from the constant history, ΔFTT = q/C).  FTT_ref = 50 ms, so q = 20, 10,
    # 8, 2 packets give ΔFTT/FTT_ref = 0.4, 0.2, 0.16, 0.04: one per regime.
    params = PrimoParams()
    x0, dt = 1200.0, 0.005
    net = fluid.network(C, 100.0, TP)
    run = fluid.simulate(net, fluid.Primo(params, initial_rate=x0), duration=2 * dt, dt=dt,
                         initial_queue=queue)
    expected = x0
    for _ in range(6):
        expected = next_rate(x0, expected, C, queue / C, TP / 2, params)
    assert run.rate[1, 0, 0] == pytest.approx(expected, rel=1e-12), regime
    assert (expected == x0) is (regime == "hold")


@pytest.mark.parametrize(
    "thresholds, initial_rate, expected_factor, source",
    [
        (dict(TH_rel=0.0, TH_mod=0.0, TH_str=0.0), 1200.0, 0.95, "always strong: F_str C"),
        (dict(TH_rel=0.0, TH_mod=0.0, TH_str=1e6), 1200.0, 0.99, "always moderate: F_mod C"),
        (dict(TH_rel=1e6, TH_mod=1e6, TH_str=1e6), 800.0, 1.05, "always release: F_rel C"),
        (dict(TH_rel=0.0, TH_mod=1e6, TH_str=1e6), 1234.0, None, "always hold: rate frozen"),
    ],
)
def test_each_regime_pulls_the_rate_to_F_times_capacity(thresholds, initial_rate,
                                                       expected_factor, source):
    # Inside one regime Algorithm 1's fixed point solves r = (1 - W1) r +
    # W1 F rcv, i.e. r = F rcv, and rcv = C while the queue is busy (it starts
    # at 1500 packets and moves at most 5 % of C = 50 packets/s for 25 s).
    # Rate error e = r - F C obeys, per packet, e <- W2 e + (1 - W2)(1 - W1)
    # e_old with e_old the error one round trip ago, so the largest |e| over a
    # round trip shrinks at least by (1 - W1) each round trip: after T,
    # |e| <= |e0| (1 - W1)^(floor(T / R_max) - 1), R_max the longest round
    # trip of the run.  That bound is the tolerance.
    params = PrimoParams(**thresholds)
    net = fluid.network(C, 5000.0, TP)
    run = fluid.simulate(net, fluid.Primo(params, initial_rate=initial_rate), 25.0, 5e-3,
                         initial_queue=1500.0, record_every=20)
    assert np.all(run.queue[:, 0, 0] > 0)
    final = run.rate[-1, 0, 0]
    if expected_factor is None:
        assert final == initial_rate, source
        return
    target = expected_factor * C
    round_trips = int(np.floor(run.time[-1] / run.round_trip.max())) - 1
    bound = abs(initial_rate - target) * (1 - params.W1) ** round_trips
    assert round_trips >= 8
    assert abs(final - target) <= bound, source


def test_limit_cycle_stays_in_the_invariant_band_and_fills_the_link():
    # With the paper's thresholds no regime can hold: the queue delay
    # oscillates around [TH_rel, TH_mod] FTT_ref.  Once the queue is busy
    # (rcv = C) and the rate, its value one RTT ago are in
    # [F_str C, F_rel C], Algorithm 1's new rate is a convex combination of
    # them and of F C with F in that range, so the band is invariant: exact
    # (to rounding, 1e-12).  A busy queue also means the link is fully used:
    # mean reception rate = C to rounding.
    params = PrimoParams()
    net = fluid.network(C, 500.0, TP)
    run = fluid.simulate(net, fluid.Primo(params, initial_rate=100.0), 60.0, 5e-3,
                         record_every=2)
    settled = run.time >= 20.0
    rate = run.rate[settled, 0, 0]
    queue = run.queue[settled, 0, 0]
    assert np.all(queue > 0)
    assert np.all(rate >= params.F_str * C * (1 - 1e-12))
    assert np.all(rate <= params.F_rel * C * (1 + 1e-12))
    np.testing.assert_allclose(run.reception_rate[settled, 0, 0], C, rtol=1e-12)
    # The queueing delay crosses the hold band both ways, again and again.
    delay = queue / C / (TP / 2)
    below = delay < params.TH_rel
    above = delay >= params.TH_mod
    assert np.count_nonzero(np.diff(below.astype(int)) == 1) >= 5
    assert np.count_nonzero(np.diff(above.astype(int)) == 1) >= 5
    assert not np.any(delay >= params.TH_str * 2)


def test_fluid_primo_has_no_restoring_force_towards_equal_shares():
    # Two classes with the same delay: each flow's reception rate is its FIFO
    # share C x_i / (x_1 + x_2), so inside a regime every split with
    # x_1 + x_2 = F C is a fixed point of Algorithm 1 (r_i = F rcv_i), and
    # with an empty queue (rcv_i = x_i) every regime scales both rates by the
    # same factor.  The fluid law therefore keeps the initial 1:7 imbalance
    # (up to the drift of the delayed old_rate during transients); fairness
    # in the paper's packet simulations must come from elsewhere (packet
    # interleaving, measurement noise).  Checked: the ratio stays above 5
    # while the total settles in [F_str C, F_rel C] and the link is full.
    params = PrimoParams()
    net = fluid.network(C, 500.0, [TP, TP], routes=[[1, 1]])
    run = fluid.simulate(net, fluid.Primo(params, initial_rate=np.array([100.0, 700.0])),
                         40.0, 5e-3, record_every=200)
    first, second = run.rate[-1, 0]
    assert second / first > 5
    total = run.rate[-1, 0].sum()
    assert params.F_str * C <= total <= params.F_rel * C
    assert run.reception_rate[-1, 0].sum() == pytest.approx(C, rel=1e-12)
