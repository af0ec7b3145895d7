"""The bottleneck queue (Xu (2002), eqs. 4.5-4.7) and slot conversions."""

import numpy as np
import pytest
import sympy as sp

from ctlcc.analysis import plant
from ctlcc.errors import ParameterError


def _queue_by_counting(arrivals, departures, buffer):
    """Independent route: a FIFO of individual packets, one slot at a time."""
    queue, occupancy, dropped = 0, [], []
    for a, d in zip(arrivals, departures):
        drops = 0
        for _ in range(a):
            if queue < buffer:
                queue += 1
            else:
                drops += 1
        queue -= min(queue, d)
        occupancy.append(queue)
        dropped.append(drops)
    return occupancy, dropped


def test_nonlinear_queue_matches_packet_counting_when_service_follows_arrival():
    # With integer arrivals that never overflow before service, the fluid
    # update b = clip(b + a - d) equals packet counting.
    rng = np.random.default_rng(1)
    arrivals = rng.integers(0, 3, size=200)
    trace = plant.simulate_queue(arrivals, 1.0, buffer=np.inf)
    occupancy, dropped = _queue_by_counting(arrivals, [1] * 200, buffer=10**9)
    np.testing.assert_array_equal(trace.occupancy, occupancy)
    assert trace.dropped.sum() == 0


def test_conservation_arrivals_equal_served_plus_dropped_plus_left():
    rng = np.random.default_rng(2)
    arrivals = rng.uniform(0, 2.5, size=500)
    trace = plant.simulate_queue(arrivals, 1.0, initial=0.0, buffer=7.0)
    served = 500 * 1.0 - trace.unused.sum()
    np.testing.assert_allclose(arrivals.sum(), served + trace.dropped.sum() + trace.occupancy[-1])
    assert trace.occupancy.max() <= 7.0
    assert trace.occupancy.min() >= 0.0


def test_linear_queue_agrees_with_nonlinear_when_busy_and_not_full():
    arrivals = 1.0 + 0.3 * np.sin(np.arange(100) / 5.0)
    trace = plant.simulate_queue(arrivals, 1.0, initial=5.0, buffer=np.inf)
    linear = 5.0 + np.cumsum(arrivals - 1.0)
    assert linear.min() > 0
    np.testing.assert_allclose(trace.occupancy, linear)


def test_z_domain_form_is_accumulator():
    # eq. 4.7: B(z) = z**-1 B(z) + A(z) - D(z)  =>  B/(A - D) = 1/(1 - z**-1)
    z = sp.Symbol("z")
    assert sp.simplify(plant.queue_transfer(z) - 1 / (1 - z**-1)) == 0


def test_thesis_example_slot_and_delay():
    # §4.3.3: 1.5 Mb/s, 1000-byte packets -> 5.3 ms per packet; 16 ms RTT -> m = 3.
    scale = plant.SlotScale(capacity=1.5e6, packet_size=1000)
    assert scale.slot == pytest.approx(8000 / 1.5e6)
    assert scale.round_trip_slots(0.016) == 3
    assert scale.rate_to_normalised(scale.packets_per_second) == pytest.approx(1.0)
    assert scale.to_seconds(scale.to_slots(0.25)) == pytest.approx(0.25)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: plant.SlotScale(0, 1000), "capacity"),
        (lambda: plant.SlotScale(1e6, -1), "packet_size"),
        (lambda: plant.SlotScale(1.5e6, 1000).round_trip_slots(0.001), "round_trip_time"),
        (lambda: plant.queue_step(1.0, -1.0, 1.0), "arrivals"),
        (lambda: plant.queue_step(1.0, 1.0, 1.0, buffer=0), "buffer"),
        (lambda: plant.simulate_queue([1, np.nan]), "arrivals"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ParameterError, match=match):
        call()
