"""Primo's per-regime z-domain loops (Chatté, Ducourthial & Niculescu (2006), §III, Algorithm 1)."""

import numpy as np
import pytest
import sympy as sp

from ctlcc import primo_loop
from ctlcc.analysis.primo import REGIMES, spectral_radius_map
from ctlcc.errors import ParameterError
from ctlcc.laws.primo import PrimoParams, next_rate

F_REGIMES = ("strong", "moderate", "release")


def _hand_polynomial(m, W1, W2):
    """z**m - W2 z**(m-1) - (1-W2)(1-W1), by hand from Algorithm 1.

    new = old - W1 (old - F r) = (1 - W1) x(n-m) + W1 F r,
    x(n) = W2 x(n-1) + (1 - W2) new   ->  times z**m / X(z).
    """
    coefficients = np.zeros(m + 1)
    coefficients[0] = 1.0
    coefficients[1] -= W2
    coefficients[m] -= (1 - W2) * (1 - W1)
    return coefficients


@pytest.mark.parametrize("m", [1, 2, 3, 6, 24])
@pytest.mark.parametrize("W1, W2", [(0.5, 0.9), (0.2, 0.3), (0.9, 0.95)])
@pytest.mark.parametrize("regime", F_REGIMES)
def test_characteristic_polynomial_matches_hand_derivation(m, W1, W2, regime):
    loop = primo_loop(PrimoParams(W1=W1, W2=W2), capacity=m / 0.024, round_trip_time=0.024)
    assert loop.m == m
    np.testing.assert_allclose(loop.characteristic_polynomial(regime), _hand_polynomial(m, W1, W2),
                               atol=1e-14)


def test_symbolic_transfer_has_final_value_F():
    loop = primo_loop(capacity=250.0, round_trip_time=0.024)
    z = sp.Symbol("z")
    for regime in F_REGIMES:
        transfer = loop.symbolic(regime, numeric=True).rate_transfer
        assert sp.nsimplify(transfer.subs(z, 1)) == sp.nsimplify(loop.params.factor(regime))
    assert loop.symbolic("hold").rate_transfer == 0


def test_hold_poles_are_one_and_zeros():
    loop = primo_loop(capacity=250.0, round_trip_time=0.024)   # m = 6
    poles = loop.poles("hold")
    np.testing.assert_allclose(poles, [1, 0, 0, 0, 0, 0], atol=1e-12)
    with_queue = loop.poles("moderate", include_queue=True)
    assert np.isclose(with_queue, 1.0).sum() == 1 and len(with_queue) == loop.m + 1


@pytest.mark.parametrize("regime", F_REGIMES)
def test_dominant_pole_is_the_decay_rate_of_the_law(regime):
    """Iterate next_rate in a fixed regime: the error decays like |p_max|**n."""
    capacity, ftt_ref = 250.0, 0.012
    loop = primo_loop(capacity=capacity, round_trip_time=0.024)
    dftt = {"strong": 0.5, "moderate": 0.2, "release": 0.0}[regime] * ftt_ref
    m, n = loop.m, 3000
    x = np.full(n, capacity)
    x[:m] = np.linspace(0.5, 1.5, m) * capacity           # perturbed history
    for k in range(m, n):
        x[k] = next_rate(x[k - m], x[k - 1], capacity, dftt, ftt_ref)
    target = loop.fixed_point(regime).rate
    error = np.abs(x - target)
    assert error[-1] < 1e-9 * capacity
    window = slice(400, 800)
    decay = np.exp(np.polyfit(np.arange(n)[window], np.log(error[window]), 1)[0])
    assert decay == pytest.approx(loop.spectral_radius(regime), abs=2e-4)


@pytest.mark.parametrize("regime, F", [("strong", 0.95), ("moderate", 0.99), ("release", 1.05)])
def test_fixed_point_is_F_times_capacity(regime, F):
    loop = primo_loop(capacity=800.0, round_trip_time=0.03)
    fixed = loop.fixed_point(regime)
    assert fixed.rate == pytest.approx(F * 800.0, rel=1e-12)           # paper §III-D: F * rcv_rate
    assert fixed.queue_drift == pytest.approx((F - 1) * 800.0, rel=1e-12)


def test_poles_do_not_depend_on_F():
    loop = primo_loop(capacity=1000.0, round_trip_time=0.05)
    reference = loop.poles("strong")
    for regime in ("moderate", "release"):
        np.testing.assert_allclose(loop.poles(regime), reference)


def test_every_W1_W2_in_the_unit_square_is_stable():
    """Rouché: |W2 z**(m-1) + c| <= (W2 + c)|z|**(m-1) < |z|**m for |z| >= 1."""
    grid = np.linspace(0.02, 0.98, 9)
    for m in (1, 5, 40):
        radius = spectral_radius_map(grid, grid, m=m)
        bound = np.max(grid[None, :] + (1 - grid[None, :]) * (1 - grid[:, None]))
        assert np.all(radius < 1.0) and bound < 1.0
        # the map's Cauchy positive root against a general root finder
        reference = [[np.max(np.abs(np.roots(_hand_polynomial(m, a, b)))) for b in grid]
                     for a in grid]
        np.testing.assert_allclose(radius, reference, rtol=1e-9)
    by_delay = spectral_radius_map(grid, m=[1, 10, 100, 1000])
    assert np.all(by_delay < 1.0)
    assert np.all(np.diff(by_delay, axis=1) > 0)      # slower with longer delay


def test_slot_conversion_and_thresholds():
    loop = primo_loop(capacity=1000.0, round_trip_time=0.024, D=0.010, forward_delay=0.002)
    assert (loop.m, loop.d, loop.f, loop.feedback_delay) == (24, 10, 2, 35)
    np.testing.assert_allclose(loop.queue_thresholds(), [0.34 * 12, 0.17 * 12, 0.15 * 12])


@pytest.mark.parametrize(
    "kwargs, exception, match",
    [
        ({"capacity": 0.0}, ParameterError, r"capacity must be in \(0, inf\)"),
        ({"capacity": -5.0}, ParameterError, "capacity"),
        ({"round_trip_time": 0.0}, ParameterError, "round_trip_time must be in"),
        ({"round_trip_time": 1e-5}, ParameterError, "round_trip_time must be at least half a slot"),
        ({"D": 0.0}, ParameterError, r"D must be in \(0, inf\)"),
        ({"D": -0.1}, ParameterError, "D must be"),
        ({"forward_delay": 0.5}, ParameterError, "forward_delay must be in"),
        ({"buffer": 0.0}, ParameterError, "buffer must be"),
        ({"params": "paper"}, ParameterError, "params must be a PrimoParams"),
    ],
)
def test_bad_loop_arguments(kwargs, exception, match):
    arguments = {"capacity": 1000.0, "round_trip_time": 0.024} | kwargs
    with pytest.raises(exception, match=match):
        primo_loop(**arguments)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"W1": 1.2}, r"W1 must be in \(0, 1\)"),
        ({"W2": 0.0}, r"W2 must be in \(0, 1\)"),
        ({"F_str": 0.995}, "F_str must satisfy 0 < F_str < F_mod < 1 < F_rel"),
        ({"F_mod": 1.01}, "F_mod must satisfy"),
        ({"F_rel": 0.99}, "F_rel must satisfy"),
        ({"TH_rel": 0.2}, "thresholds must satisfy 0 <= TH_rel <= TH_mod <= TH_str"),
        ({"TH_mod": 0.4}, "thresholds must satisfy"),
    ],
)
def test_bad_law_parameters(kwargs, match):
    with pytest.raises(ParameterError, match=match):
        primo_loop(PrimoParams(**kwargs), capacity=1000.0, round_trip_time=0.024)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda loop: loop.poles("congested"), "regime must be one of"),
        (lambda loop: loop.simulate(1.0, model="fluid"), "model must be one of"),
        (lambda loop: loop.simulate(0.0), "duration must be"),
        (lambda loop: loop.limit_cycle(method="describing"), "method must be one of"),
        (lambda loop: loop.limit_cycle(cycles=0), "cycles must be an integer >= 1"),
        (lambda loop: spectral_radius_map([0.5], [1.5], m=3), r"W2 must be in \(0, 1\)"),
        (lambda loop: spectral_radius_map([0.5]), "give W2"),
    ],
)
def test_bad_method_arguments(call, match):
    loop = primo_loop(capacity=250.0, round_trip_time=0.024)
    with pytest.raises(ParameterError, match=match):
        call(loop)


def test_regimes_listed():
    assert set(REGIMES) == {"strong", "moderate", "hold", "release"}


def test_occupancy_transfer_is_the_rate_through_the_queue():
    # plant (thesis eq. 4.6) by hand: B = z**-1 B + z**-f X  ->  B/X = z**-f / (1 - z**-1)
    z = sp.Symbol("z")
    loop = primo_loop(capacity=250.0, round_trip_time=0.024, forward_delay=0.008)   # f = 2
    symbolic = loop.symbolic("release")
    expected = symbolic.rate_transfer * z**-loop.f / (1 - z**-1)
    assert sp.simplify(symbolic.occupancy_transfer - expected) == 0
    with_queue = loop.poles("release", include_queue=True)
    np.testing.assert_allclose(np.sort_complex(with_queue),
                               np.sort_complex(np.append(loop.poles("release"), 1.0)), atol=1e-9)
