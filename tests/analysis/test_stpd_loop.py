"""ST-PD loop: transfer functions, loss response, eq. 4.19, per-RTT model.

Every expected value comes from a route independent of the code under test:
the thesis's own formulas typed in, hand iteration, the difference
equations re-typed here with numpy, or a closed-form derivation written in
the test.
"""

import numpy as np
import pytest
import sympy as sp

from ctlcc.analysis.stpd import LossResponse, spectral_radius, stpd_loop
from ctlcc.errors import ParameterError, UnstableLoopError

SWAPPED = (0.033, 0.368)   # reproduces the poles printed in thesis §4.3.3
PRINTED = (0.368, 0.033)   # the gains as printed (unstable for m = 3)


def _thesis_arrival_reference(zval, kp, kd, m):
    """Thesis eq. (4.11), typed in from the derivation (independent route)."""
    zi = 1 / zval
    controller = kp + kd * (1 - zi)
    return zi**m * controller / (1 - zi + zi**m * controller / (1 - zi))


POINTS = np.array([0.3 + 0.4j, -0.7 + 0.1j, 1.5 - 0.2j, 2j, -1.1])


@pytest.mark.parametrize("kp, kd, m", [(*SWAPPED, 3), (*PRINTED, 3), (0.01, 0.2, 7), (0.5, 0.0, 1)])
def test_transfer_function_matches_thesis_eq_4_11(kp, kd, m):
    tf = stpd_loop(kp, kd, m).transfer_function("arrival", "reference")
    assert tf.dt == 1
    expected = _thesis_arrival_reference(POINTS, kp, kd, m)
    np.testing.assert_allclose(tf(POINTS), expected, rtol=1e-10)


@pytest.mark.parametrize("kp, kd, m", [(*SWAPPED, 3), (0.01, 0.2, 7)])
def test_other_transfer_functions_follow_from_the_plant(kp, kd, m):
    # By hand from e = r - b, b = (a - d)/(1 - z^-1):
    # A/D = (A/R)/(1 - z^-1), B/R = (A/R)/(1 - z^-1), B/D = (A/D - 1)/(1 - z^-1).
    loop = stpd_loop(kp, kd, m)
    ar = _thesis_arrival_reference(POINTS, kp, kd, m)
    integrator = 1 / (1 - 1 / POINTS)
    ad = ar * integrator
    np.testing.assert_allclose(loop.transfer_function("arrival", "departure")(POINTS), ad, rtol=1e-10)
    np.testing.assert_allclose(loop.transfer_function("occupancy", "reference")(POINTS),
                               ar * integrator, rtol=1e-10)
    np.testing.assert_allclose(loop.transfer_function("occupancy", "departure")(POINTS),
                               (ad - 1) * integrator, rtol=1e-10)


def test_transfer_function_poles_are_the_characteristic_roots():
    loop = stpd_loop(*SWAPPED, 3)
    poles = np.sort_complex(loop.transfer_function().poles())
    # A/R keeps the pure delay z^-1 of eq. 4.11 as a pole at z = 0.
    expected = np.sort_complex(np.append(np.roots([1, -2, 1, 0.401, -0.368]), 0))
    np.testing.assert_allclose(poles, expected, atol=1e-9)


@pytest.mark.parametrize("gains", [SWAPPED, PRINTED, (0.01, 0.2)])
@pytest.mark.parametrize("m, p", [(3, 100), (5, 20), (1, 0)])
def test_loss_response_routes_agree(gains, m, p):
    loop = stpd_loop(*gains, m)
    n = 160
    by_z = loop.loss_response(p, n)
    by_iteration = loop.loss_response(p, n, method="iteration")
    scale = max(1.0, np.abs(by_iteration.arrival).max())
    np.testing.assert_allclose(by_z.arrival, by_iteration.arrival, atol=1e-9 * scale)
    np.testing.assert_allclose(by_z.occupancy, by_iteration.occupancy,
                               atol=1e-9 * max(1.0, np.abs(by_iteration.occupancy).max()))


def test_loss_response_first_slots_by_hand():
    # m = 3, zero initial state, r(n) = 1, d(n) = 1:
    # b(0) = a(0) - 1 = -1, e(0) = 2; a(n) = 0 until the error arrives at n = 3:
    # a(3) = kp e(0) + kd e(0) = 2 (kp + kd); b(1) = -2, e(1) = 3, so
    # a(4) = a(3) + kp e(1) + kd (e(1) - e(0)) = 2(kp + kd) + 3 kp + kd.
    kp, kd = SWAPPED
    t, a = stpd_loop(kp, kd, 3).loss_response(p=100, n=6)
    np.testing.assert_allclose(a[:3], 0.0, atol=1e-12)
    assert a[3] == pytest.approx(2 * (kp + kd), abs=1e-12)
    assert a[4] == pytest.approx(2 * (kp + kd) + 3 * kp + kd, abs=1e-12)
    np.testing.assert_array_equal(t, np.arange(6))


def test_loss_response_is_a_frozen_result_that_unpacks():
    result = stpd_loop(*SWAPPED, 3).loss_response(p=10, n=40)
    assert isinstance(result, LossResponse)
    t, a = result
    assert t is result.time and a is result.arrival is result.outputs
    assert (result.kp, result.kd, result.m, result.p) == (*SWAPPED, 3, 10)
    # r(n) = u(n) + unit impulses over p .. p + m, eq. (4.15)
    np.testing.assert_array_equal(np.flatnonzero(result.reference == 2.0), [10, 11, 12, 13])
    with pytest.raises(AttributeError):
        result.p = 3


def test_loss_deviation_sums_to_zero_and_settles_to_capacity():
    # A/R(z) has a zero at z = 1 (eq. 4.11), so a loss moves no net arrivals,
    # and the final-value theorem gives a -> 1 packet/slot, b -> ref = 1.
    loop = stpd_loop(*SWAPPED, 3)
    n = 500
    with_loss = loop.loss_response(p=100, n=n).arrival
    without = loop.loss_response(p=n, n=n, method="iteration").arrival  # pulse after the horizon
    assert np.sum(with_loss - without) == pytest.approx(0.0, abs=1e-8)
    # (1e-9: rounding of the order-105 state-space realisation, not the model)
    assert with_loss[-1] == pytest.approx(1.0, abs=1e-9)
    assert loop.loss_response(p=100, n=n).occupancy[-1] == pytest.approx(1.0, abs=1e-9)


@pytest.mark.parametrize("gains, radius", [(SWAPPED, 0.9042), (PRINTED, 1.2388)])
def test_iterated_response_grows_or_decays_as_the_poles_say(gains, radius):
    # thesis §4.3.3: the swapped gains decay, the printed gains diverge, at the
    # rate of the spectral radius, measured from the iterated difference
    # equations alone (envelope ratio over 60 slots).
    loop = stpd_loop(*gains, 3)
    a = loop.loss_response(p=100, n=400, method="iteration").arrival
    deviation = np.abs(a - 1.0)
    early, late = deviation[200:260].max(), deviation[260:320].max()
    assert (late / early) ** (1 / 60) == pytest.approx(radius, rel=5e-3)
    assert loop.is_stable() == (radius < 1)


def _brute_force_periodic_throughput(kp, kd, m, cycle, cycles=60):
    """Iterate the per-slot loop (typed in here) with a loss every *cycle* slots."""
    n = cycle * cycles
    reference = np.ones(n)
    for start in range(0, n, cycle):
        reference[start:start + m + 1] += 1.0
    a = np.zeros(n)
    b = np.zeros(n)
    e = np.zeros(n)
    for k in range(n):
        e_m = e[k - m] if k >= m else 0.0
        e_m1 = e[k - m - 1] if k >= m + 1 else 0.0
        a[k] = (a[k - 1] if k else 0.0) + kp * e_m + kd * (e_m - e_m1)
        b[k] = (b[k - 1] if k else 0.0) + a[k] - 1.0
        e[k] = reference[k] - b[k]
    return np.minimum(a[-cycle:], 1.0).mean()


@pytest.mark.parametrize("cycle", [10, 37, 200])
def test_periodic_throughput_matches_brute_force_iteration(cycle):
    kp, kd = SWAPPED
    expected = _brute_force_periodic_throughput(kp, kd, 3, cycle, cycles=max(60, 4000 // cycle))
    got = stpd_loop(kp, kd, 3).throughput_under_loss(1.0 / cycle)
    assert got == pytest.approx(expected, abs=1e-9)


def test_throughput_readings_and_shape():
    loop = stpd_loop(*SWAPPED, 3)
    prob = np.logspace(-4, -1, 13)
    periodic = loop.throughput_under_loss(prob)
    single = loop.throughput_under_loss(prob, reading="single_loss")
    assert periodic.shape == prob.shape
    assert np.all((periodic > 0) & (periodic <= 1))
    # Thesis Fig. 4.6 (analysis curve): throughput falls as the error rate rises.
    assert np.all(np.diff(periodic) < 0)
    # Once a cycle outlasts the settling (K >= 1000 slots) the readings agree.
    np.testing.assert_allclose(periodic[prob <= 1e-3], single[prob <= 1e-3], rtol=1e-9)
    assert isinstance(loop.throughput_under_loss(1e-3), float)
    # Each loss costs the clipped overshoot, sum(max(h, 0)), once per K slots.
    t, a = loop.loss_response(p=0, n=600, method="iteration")
    baseline = loop.loss_response(p=600, n=600, method="iteration").arrival
    overshoot = np.maximum(a - baseline, 0).sum()
    assert loop.throughput_under_loss(1e-4) == pytest.approx(1 - overshoot / 1e4, abs=1e-9)


def test_unstable_loop_has_no_throughput():
    with pytest.raises(UnstableLoopError, match=r"unstable, spectral radius 1\.238") as info:
        stpd_loop(*PRINTED, 3).throughput_under_loss([1e-3, 1e-2])
    assert info.value.spectral_radius == pytest.approx(1.2388, abs=1e-4)


# -- per-RTT model -------------------------------------------------------------


@pytest.mark.parametrize("m", [1, 9, 31, 94])
def test_per_rtt_characteristic_by_hand(m):
    # w(k) = w(k-1) + kp e(k-1) + kd (e(k-1) - e(k-2)), e = 1 - (w - BDP):
    # (1 - z^-1) + z^-1 (kp + kd (1 - z^-1)) = 0  <=>  z^2 + (kp + kd - 1) z - kd.
    z, kp, kd = sp.symbols("z k_p k_d", nonnegative=True)
    derived = stpd_loop(0.1, 0.2, m, model="per_rtt").symbolic(numeric=False).characteristic
    derived = derived.subs({s: {"k_p": kp, "k_d": kd, "z": z}[s.name] for s in derived.free_symbols})
    assert sp.expand(derived - (z**2 + (kp + kd - 1) * z - kd)) == 0


def test_per_rtt_buffer_estimate_is_the_queue():
    # (3.3)-(3.4) with RTT = RTT_min + (w - BDP)/C and S = w/RTT: by hand,
    # (RTT - RTT_min) S = (w - BDP)/C * w / (BDP/C + (w - BDP)/C) = w - BDP.
    from ctlcc.laws.stpd import buffer_estimate, service_rate

    capacity, rtt_min = 250.0, 0.04  # BDP = 10 packets
    for window in (10.0, 12.5, 40.0):
        rtt = rtt_min + (window - capacity * rtt_min) / capacity
        estimate = buffer_estimate(rtt, rtt_min, service_rate(window, rtt))
        assert estimate == pytest.approx(window - 10.0, abs=1e-12)


def test_per_rtt_window_settles_at_pipe_plus_reference():
    loop = stpd_loop(0.3, 0.2, 31, model="per_rtt")
    for method in ("z_transform", "iteration"):
        response = loop.loss_response(p=40, n=200, method=method)
        assert response.arrival[-1] == pytest.approx(31 + 1, abs=1e-9)   # BDP + ref
        assert response.occupancy[-1] == pytest.approx(1.0, abs=1e-9)
    np.testing.assert_allclose(loop.loss_response(40, 200).arrival,
                               loop.loss_response(40, 200, method="iteration").arrival, atol=1e-9)


def test_per_rtt_has_no_eq_4_19():
    with pytest.raises(ParameterError, match="per_slot"):
        stpd_loop(0.3, 0.2, 31, model="per_rtt").throughput_under_loss(0.01)


# -- vectorised spectral radius --------------------------------------------------


@pytest.mark.parametrize("model", ["per_slot", "per_rtt"])
@pytest.mark.parametrize("m", [1, 3, 8])
def test_spectral_radius_broadcasts_like_per_point_roots(model, m):
    rng = np.random.default_rng(7)
    kp = rng.uniform(0, 1, size=(5, 1))
    kd = rng.uniform(0, 1, size=(1, 4))
    radius = spectral_radius(kp, kd, m, model)
    assert radius.shape == (5, 4)
    for i in range(5):
        for j in range(4):
            if model == "per_slot":  # hand polynomial z^(m-1)(z-1)^2 + (kp+kd) z - kd
                poly = np.polyadd(np.polymul([1, -2, 1], np.eye(1, m, 0)[0]),
                                  [kp[i, 0] + kd[0, j], -kd[0, j]])
            else:
                poly = [1, kp[i, 0] + kd[0, j] - 1, -kd[0, j]]
            assert radius[i, j] == pytest.approx(np.abs(np.roots(poly)).max(), rel=1e-7)
    assert isinstance(spectral_radius(0.1, 0.2, m, model), float)


# -- bad input -------------------------------------------------------------------

LOOP = stpd_loop(*SWAPPED, 3)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: LOOP.loss_response(-1, 10), r"p must be an integer >= 0"),
        (lambda: LOOP.loss_response(10, -5), r"n must be an integer >= 1"),
        (lambda: LOOP.loss_response(10, 0), r"n must be an integer >= 1"),
        (lambda: LOOP.loss_response(2.5, 10), r"p must be an integer >= 0"),
        (lambda: LOOP.loss_response(1, 10, method="laplace"), r"method must be one of"),
        (lambda: LOOP.throughput_under_loss(0.0), r"prob must be in \(0, 1\)"),
        (lambda: LOOP.throughput_under_loss([0.1, 1.0]), r"prob must be in \(0, 1\)"),
        (lambda: LOOP.throughput_under_loss(-0.2), r"prob must be in \(0, 1\)"),
        (lambda: LOOP.throughput_under_loss(np.nan), r"prob must be in \(0, 1\)"),
        (lambda: LOOP.throughput_under_loss(0.1, reading="mean"), r"reading must be one of"),
        (lambda: LOOP.transfer_function("queue"), r"output must be one of 'arrival', 'occupancy'"),
        (lambda: LOOP.transfer_function(input="loss"), r"input must be one of 'reference'"),
        (lambda: stpd_loop(0.1, 0.1, 3, model="fluid"), r"model must be one of 'per_slot', 'per_rtt'"),
        (lambda: spectral_radius([0.1, -0.1], 0.2, 3), r"kp must be in \[0, inf\)"),
        (lambda: spectral_radius(0.1, np.inf, 3), r"kd must be finite"),
        (lambda: spectral_radius(0.1, 0.2, 0), r"m must be an integer >= 1"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ParameterError, match=match):
        call()
