"""Primo's regime-switching limit cycle against the law on the nonlinear queue."""

import csv
from pathlib import Path

import numpy as np
import pytest

from ctlcc import primo_loop
from ctlcc.errors import ParameterError
from ctlcc.laws.primo import PrimoParams

DATA = Path(__file__).resolve().parents[2] / "data"


def _measure(trace, start_time):
    """Period, swings and mean of a law trace, measured here independently.

    Cycles are delimited by upward crossings of the midpoint of the queue's
    range; averages run over whole cycles.
    """
    keep = trace.time >= start_time
    queue, rate = trace.queue[keep], trace.rate[keep]
    level = 0.5 * (queue.max() + queue.min())
    ups = [k for k in range(1, queue.size) if queue[k - 1] < level <= queue[k]]
    span = slice(ups[0], ups[-1])
    slot = trace.time[1] - trace.time[0]
    return {
        "period": (ups[-1] - ups[0]) / (len(ups) - 1) * slot,
        "queue_swing": queue[span].max() - queue[span].min(),
        "rate_swing": rate[span].max() - rate[span].min(),
        "mean_queue": queue[span].mean(),
    }


def test_piecewise_linear_map_is_the_law_while_the_queue_is_busy():
    # C = 500 pkt/s, RTT 24 ms: the queue stays above 0.18 packets after the start,
    # so the saturations never act and the reception rate is C: both models coincide.
    loop = primo_loop(capacity=500.0, round_trip_time=0.024)
    law = loop.simulate(8.0, model="law")
    linear = loop.simulate(8.0, model="piecewise_linear")
    assert law.dropped.sum() == 0 and law.queue[law.time > 1.0].min() > 0.1
    np.testing.assert_allclose(linear.rate, law.rate, rtol=0, atol=1e-9 * 500)
    np.testing.assert_allclose(linear.queue, law.queue, rtol=0, atol=1e-9)
    np.testing.assert_array_equal(linear.regime, law.regime)


@pytest.mark.parametrize(
    "capacity, tolerances, why",
    [
        # queue stays busy: identical trajectories, so only the measurement grid differs
        (250.0, {"period": 0.01, "queue_swing": 1e-3, "rate_swing": 1e-3, "mean_queue": 2e-3},
         "exact while busy; period measured on whole slots over ~10 cycles"),
        (1000.0, {"period": 0.01, "queue_swing": 1e-3, "rate_swing": 1e-3, "mean_queue": 2e-3},
         "exact while busy"),
        # 1 Mb/s: the linear queue dips to -0.03 packets where the real one stops at 0
        (125.0, {"period": 0.03, "queue_swing": 0.08, "rate_swing": 0.03, "mean_queue": 0.01},
         "linear queue goes 0.03 packets below empty"),
    ],
)
def test_iterated_cycle_matches_the_law(capacity, tolerances, why):
    loop = primo_loop(capacity=capacity, round_trip_time=0.024)
    predicted = loop.limit_cycle()
    warm = 8.0
    law = _measure(loop.simulate(warm + 10 * predicted.period, model="law"), warm)
    for name, tolerance in tolerances.items():
        assert getattr(predicted, name) == pytest.approx(law[name], rel=tolerance), (name, why)
    assert predicted.mean_rate == pytest.approx(capacity, rel=1e-3)   # zero net queue drift
    assert predicted.regime_sequence[:4] == ("release", "hold", "moderate", "strong")


@pytest.mark.parametrize("capacity", [250.0, 1000.0])
def test_first_order_reduction_against_the_law(capacity):
    """The closed-form reduction keeps only the dominant rate pole.

    These bounds record the accuracy of that approximation (the second pole
    pair has 94 % of the dominant modulus at m = 24, so the fast modes are not
    negligible over a 50-slot dwell); the exact prediction is "iterate".  The
    mean queue is set by the thresholds and is the best-predicted quantity.
    """
    loop = primo_loop(capacity=capacity, round_trip_time=0.024)
    analytic = loop.limit_cycle(method="analytic")
    law = _measure(loop.simulate(8.0 + 10 * analytic.period, model="law"), 8.0)
    assert analytic.mean_queue == pytest.approx(law["mean_queue"], rel=0.01)
    assert analytic.rate_swing == pytest.approx(law["rate_swing"], rel=0.08)
    assert analytic.period == pytest.approx(law["period"], rel=0.15)
    assert analytic.queue_swing == pytest.approx(law["queue_swing"], rel=0.25)
    assert analytic.regime_sequence[:4] == ("release", "hold", "moderate", "strong")


def test_queue_occupancy_against_the_paper():
    """Paper §V-A: the queue is 'about 10% full' with Primo (30-packet buffer).

    The model (RTT 24 ms, 1000-byte packets) predicts a mean queue
    proportional to FTT_ref * C: 1.2 % of the buffer at 1 Mb/s, 18.6 % at
    16 Mb/s; 10 % lies inside the sweep (near 8.6 Mb/s) but is not constant.
    """
    with (DATA / "primo_paper_numbers.csv").open() as handle:
        paper = {row["quantity"]: float(row["value"]) for row in csv.DictReader(handle)}
    with (DATA / "primo_paper_sec5a_queue_occupancy.csv").open() as handle:
        stored = list(csv.DictReader(handle))
    fractions = []
    for row in stored:
        capacity = float(row["shared_link_rate_bps"]) / 8000.0
        assert float(row["capacity_pkts"]) == pytest.approx(capacity)
        loop = primo_loop(capacity=capacity, round_trip_time=paper["round_trip_time_first_flow"],
                          buffer=paper["buffer"])
        cycle = loop.limit_cycle()
        assert float(row["mean_queue_pkts"]) == pytest.approx(cycle.mean_queue, rel=1e-9)
        fractions.append(cycle.mean_queue / paper["buffer"])
        # proportional to the reference forward BDP (thresholds are TH * FTT_ref * C)
        if capacity >= 250.0:
            assert cycle.mean_queue / (loop.ftt_ref * capacity) == pytest.approx(0.232, abs=0.004)
    assert fractions[0] < paper["queue_occupancy_fraction"] < fractions[-1]
    assert fractions == sorted(fractions)


def test_thresholds_set_mean_queue_and_swing():
    base = primo_loop(capacity=1000.0, round_trip_time=0.024).limit_cycle()
    low_release = primo_loop(PrimoParams(TH_rel=0.05), capacity=1000.0,
                             round_trip_time=0.024).limit_cycle()
    wide_band = primo_loop(PrimoParams(TH_mod=0.30), capacity=1000.0,
                           round_trip_time=0.024).limit_cycle()
    assert low_release.mean_queue < base.mean_queue < low_release.mean_queue + 1.0
    assert low_release.queue_swing > base.queue_swing         # wider hold band
    assert wide_band.queue_swing > base.queue_swing


def test_longer_lookup_delay_widens_the_swing_and_rtt_slows_the_cycle():
    # More delay in the loop -> more overshoot past the thresholds.  (The period is not
    # monotone in D: below D = RTT/2 the cycle's regime pattern changes.)
    swings = [primo_loop(capacity=1000.0, round_trip_time=0.024, D=D).limit_cycle().queue_swing
              for D in (0.006, 0.012, 0.024, 0.048, 0.096)]
    assert swings == sorted(swings)
    by_rtt = [primo_loop(capacity=1000.0, round_trip_time=rtt).limit_cycle()
              for rtt in (0.024, 0.048)]
    assert by_rtt[1].period > by_rtt[0].period
    assert by_rtt[1].mean_queue > by_rtt[0].mean_queue          # thresholds scale with FTT_ref


def test_hold_band_equilibrium_is_reported_not_looped():
    # TH_rel = 0: an empty queue at rate C is in the hold band, an equilibrium.
    loop = primo_loop(PrimoParams(TH_rel=0.0), capacity=250.0, round_trip_time=0.024)
    with pytest.raises(ParameterError, match="no limit cycle"):
        loop.limit_cycle()
