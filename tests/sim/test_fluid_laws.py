"""A researcher's WindowLaw / RateLaw in the fluid model (``simulate(net, law=...)``).

Expected values are the fluid model's equilibria derived here: a window W on
one link of capacity C and propagation round trip Tp settles at rate C with
q = W - C Tp queued (x = W / (Tp + q/C) = C); ST-PD's PD law settles where
its error (3.2) vanishes, ref = (R - Tp) r = q at full use (r = C).
"""

import numpy as np
import pytest

from ctlcc.errors import ParameterError
from ctlcc.laws.user import RateLaw, WindowLaw, pd_law, select
from ctlcc.sim import fluid

C, TP, BUFFER = 100.0, 0.1, 50.0          # [packets/s], [s], [packets]


def test_a_fixed_window_queues_its_excess_over_the_bdp():
    def fixed(window, error, memory, target):
        return target + 0.0 * window, ()

    for target in (15.0, 40.0):
        run = fluid.simulate(fluid.network(C, BUFFER, TP), WindowLaw(fixed, gains=dict(
            target=target)), duration=20.0, dt=5e-3)
        late = run.time > 15.0
        assert run.window[late, 0, 0] == pytest.approx(target)
        assert run.queue[late, 0, 0].mean() == pytest.approx(target - C * TP, rel=1e-3)
        assert run.rate[late, 0, 0].mean() == pytest.approx(C, rel=1e-3)


@pytest.mark.parametrize("per", ["rtt", "ack"])
def test_the_pd_window_law_settles_at_its_reference_occupancy(per):
    law = pd_law(0.2, 0.1, per=per) if per == "rtt" else pd_law(0.02, 0.01, per=per)
    run = fluid.simulate(fluid.network(C, BUFFER, TP), law, duration=60.0, dt=5e-3)
    late = run.time > 45.0
    reference = law.mechanics["reference"]     # 1 packet (thesis eq. 3.2)
    assert run.queue[late, 0, 0].mean() == pytest.approx(reference, abs=0.05)
    assert run.mean_reception_rate[0, 0] == pytest.approx(C, rel=0.02)


def test_batched_networks_each_run_the_law():
    def fixed(window, error, memory, target):
        return target + 0.0 * window, ()

    net = fluid.network([C, 2 * C], BUFFER, TP)
    run = fluid.simulate(net, WindowLaw(fixed, gains=dict(target=30.0)), duration=20.0,
                         dt=5e-3)
    late = run.time > 15.0
    assert run.queue[late, 0, 0].mean() == pytest.approx(30.0 - C * TP, rel=1e-3)
    assert run.queue[late, 1, 0].mean() == pytest.approx(30.0 - 2 * C * TP, rel=1e-3)


def test_a_constant_rate_law_below_and_above_capacity():
    def constant(rate, excess, received, previous, memory, r0):
        return r0 + 0.0 * rate, ()

    below = fluid.simulate(fluid.network(C, BUFFER, TP),
                           RateLaw(constant, gains=dict(r0=0.6 * C)), duration=10.0, dt=1e-3)
    late = below.time > 5.0
    assert below.queue[late, 0, 0].max() == 0.0
    assert below.reception_rate[late, 0, 0].mean() == pytest.approx(0.6 * C)
    above = fluid.simulate(fluid.network(C, BUFFER, TP),
                           RateLaw(constant, gains=dict(r0=1.5 * C), per="rtt"),
                           duration=10.0, dt=1e-3)
    late = above.time > 5.0
    assert above.queue[late, 0, 0].mean() == pytest.approx(BUFFER)
    # what is not served is dropped: 0.5 C for the time the buffer is full
    assert above.dropped[0, 0] == pytest.approx(0.5 * C * (10.0 - BUFFER / (0.5 * C)), rel=0.01)


def test_a_rate_law_sees_the_queueing_delay_as_excess():
    """A law that backs off when the forward trip exceeds its reference by half: the queue
    settles where excess = q/C / (Tp/2) = 1/2, q = C Tp / 4."""
    def back_off(rate, excess, received, previous, memory, gain):
        return rate + gain * (0.5 - excess), ()

    run = fluid.simulate(fluid.network(C, BUFFER, TP), RateLaw(back_off, gains=dict(gain=0.02)),
                         duration=60.0, dt=1e-3)
    late = run.time > 40.0
    assert run.queue[late, 0, 0].mean() == pytest.approx(C * TP / 4, rel=0.05)


def test_a_law_that_leaves_the_numbers_is_refused():
    def explodes(window, error, memory, gain):
        return select(window > 100.0, np.inf, window + gain), ()

    with pytest.raises(ParameterError, match=r"WindowLaw 'explodes': the law returned a window "
                                             r"or memory that is not a finite number"):
        fluid.simulate(fluid.network(C, 1e6, TP), WindowLaw(explodes, gains=dict(gain=5.0)),
                       duration=30.0, dt=5e-3)
    with pytest.raises(ParameterError, match="law must be Reno, Stpd, Primo, a ctlcc.WindowLaw"):
        fluid.simulate(fluid.network(C, BUFFER, TP), "pd", duration=1.0, dt=1e-3)
