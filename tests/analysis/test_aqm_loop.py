"""Linear analysis of Reno behind RED / PI (ctlcc.analysis.aqm), by other routes.

* the plant against Hollot et al.'s printed example (data/) and against the
  fluid model's own closed form (ctlcc.sim.fluid.reno_linearisation);
* the Nyquist verdict against a time-domain simulation of the same linear
  delay loop (python-control state space + a delay line);
* the verdict against the nonlinear fluid model (settles / oscillates,
  thresholds declared below) and the predicted period against its limit cycle;
* Hollot et al. (2001)'s sufficient condition implies the verdict "stable".
"""

import math

import numpy as np
import pytest
import scipy.linalg

from ctlcc import _data
from ctlcc.analysis import aqm as A
from ctlcc.errors import ParameterError
from ctlcc.laws.aqm import PiParams, RedParams
from ctlcc.sim import fluid

N, C, TP = 60, 3750.0, 0.2
# RED cases: (params, expected verdict by the time-domain route below)
RED_SETTLES = RedParams(50.0, 550.0, 0.1, weight=1e-4)
RED_OSCILLATES = RedParams(50.0, 150.0, 0.5, weight=1e-4)
RED_FAST_AVERAGE = RedParams(50.0, 550.0, 0.1, weight=0.002)   # F&J's default weight
RED_MILD = RedParams(50.0, 550.0, 0.15, weight=1e-4)
RED_GENTLE_SLOPE = RedParams(10.0, 600.0, 0.02, weight=1e-4)


def test_plant_matches_the_printed_example():
    """Hollot et al. (2001)'s numbers, each within its recorded tolerance."""
    plant = A.reno_plant(N, C, TP, 175.0)
    got = {"round_trip": plant.round_trip, "window": plant.window,
           "probability": plant.probability, "window_pole": plant.window_pole,
           "queue_pole": plant.queue_pole}
    for row in _data.read_csv("hollot2001_operating_point.csv"):
        assert abs(got[row["quantity"]] - float(row["value"])) <= float(row["tolerance"]), row


@pytest.mark.parametrize("n, c, tp, q0", [(60, 3750.0, 0.2, 175.0), (10, 500.0, 0.05, 30.0),
                                          (200, 12500.0, 0.1, 400.0)])
def test_plant_matches_the_fluid_models_closed_form(n, c, tp, q0):
    """sympy linearisation of the law == fluid.reno_linearisation's typed-in formulas."""
    derived = A.reno_plant(n, c, tp, q0)
    typed = fluid.reno_linearisation(n, c, tp, q0)
    omega = np.geomspace(1e-3, 1e2, 50)
    np.testing.assert_allclose(derived.response(omega), typed.frequency_response(omega),
                               rtol=1e-12)
    assert derived.probability == pytest.approx(float(typed.probability), rel=1e-12)


def _time_domain_grows(loop, duration=200.0, dt=5e-3):
    """Simulate y = G(s) e^{-sR} u, u = -y + impulse; True if |y| grows.

    G is the rational part of L (controller x plant) as a state space
    (python-control), stepped exactly between samples (zero-order hold on
    u, which the delay line holds piecewise constant).
    """
    import control

    plant = loop.plant
    if loop.kind == "red":
        slope, pole = loop.controller
        num_c, den_c = [slope * pole], [1.0, pole]
    else:
        gain, zero = loop.controller
        num_c, den_c = [gain / zero, gain], [1.0, 0.0]
    num_p = [plant.gain]
    den_p = np.polymul([1.0, plant.window_pole], [1.0, plant.queue_pole])
    g = control.tf(np.polymul(num_c, num_p), np.polymul(den_c, den_p))
    ss = control.ss(g)
    a, b, cc = np.asarray(ss.A), np.asarray(ss.B), np.asarray(ss.C)
    n = a.shape[0]
    big = scipy.linalg.expm(np.block([[a, b], [np.zeros((1, n + 1))]]) * dt)
    ad, bd = big[:n, :n], big[:n, n:]
    delay = int(round(plant.round_trip / dt))
    steps = int(duration / dt)
    x = np.zeros((n, 1))
    y = np.zeros(steps)
    for k in range(steps):
        u = (1.0 if k == 0 else 0.0) - (y[k - delay] if k >= delay else 0.0)
        x = ad @ x + bd * u
        y[k] = (cc @ x).item()
    quarter = steps // 4
    return np.abs(y[-quarter:]).max() > np.abs(y[quarter:2 * quarter]).max()


@pytest.mark.parametrize("loop", [
    A.red_loop(N, C, TP, RED_SETTLES), A.red_loop(N, C, TP, RED_OSCILLATES),
    A.red_loop(N, C, TP, RED_FAST_AVERAGE), A.red_loop(N, C, TP, RED_MILD),
    A.red_loop(N, C, TP, RED_GENTLE_SLOPE),
    A.pi_loop(N, C, TP, PiParams.design(60, 3750.0, 0.2467, 175.0, 160.0)),
    A.pi_loop(N, C, TP, PiParams(30 * 1.822e-5, 30 * 1.816e-5, 175.0, 160.0)),
    A.pi_loop(N, C, TP, PiParams(3 * 1.822e-5, 3 * 1.816e-5, 175.0, 160.0)),
], ids=["red-settles", "red-steep", "red-fast-average", "red-mild", "red-gentle-slope",
        "pi-design", "pi-x30", "pi-x3"])
def test_nyquist_verdict_matches_time_domain(loop):
    assert loop.is_stable() == (not _time_domain_grows(loop))


def test_pi_design_phase_margin_closed_form():
    """With z on the TCP pole: PM = pi/2 - atan(w_c R0) - w_c R0 at the crossover w_c."""
    pi = PiParams.design(60, 3750.0, 0.2467, 175.0, 160.0)
    loop = A.pi_loop(N, C, TP, pi)
    r = loop.plant.round_trip
    gain, zero = loop.controller
    k = gain * (r * C) ** 3 / (2 * N) ** 2    # L = k e^{-sR}/(s (sR + 1)) when z = p_tcp
    assert zero == pytest.approx(loop.plant.window_pole, rel=2e-3)
    w = k   # solve w sqrt(1 + (wR)^2) = k by fixed point
    for _ in range(100):
        w = k / math.hypot(w * r, 1.0)
    expected = math.pi / 2 - math.atan(w * r) - w * r
    # the zero sits on the pole only to 2e-3 (a, b rounded through f_s): 0.2 degree
    assert loop.phase_margin == pytest.approx(expected, abs=math.radians(0.2))
    assert loop.crossover == pytest.approx(w, rel=5e-3)


@pytest.mark.parametrize("slope", [1e-5, 3e-5, 1e-4, 3e-4, 1e-3])
@pytest.mark.parametrize("weight", [1e-5, 1e-4, 1e-3])
def test_hollot_sufficient_condition_implies_stable(slope, weight):
    red = RedParams(50.0, 50.0 + 0.1 / slope, 0.1, weight=weight)
    try:
        loop = A.red_loop(N, C, TP, red)
    except ParameterError:
        pytest.skip("operating point off RED's ramp")
    if A.red_stability_condition(N, C, loop.plant.round_trip, red):
        assert loop.is_stable()


def _fluid_queue(red, loop, duration=120.0):
    net = fluid.network(capacity=C, buffer=800.0, propagation_delay=TP, n_flows=N)
    run = fluid.simulate(net, fluid.Reno(initial_window=0.5 * loop.plant.window), duration,
                         dt=4e-3, aqm=fluid.Red(red.min_threshold, red.max_threshold,
                                                red.max_probability,
                                                averaging=loop.controller[1]),
                         initial_queue=0.0, record_every=5)
    late = run.time > duration / 2
    return run.time[late], run.queue[late, 0, 0]


# Declared before measuring: "settles" = late queue std below 2 packets;
# "oscillates" = late std above 20 packets (the operating queues are 50-230).
@pytest.mark.parametrize("red", [RED_SETTLES, RED_OSCILLATES, RED_FAST_AVERAGE, RED_MILD,
                                 RED_GENTLE_SLOPE],
                         ids=["settles", "steep", "fast-average", "mild", "gentle-slope"])
def test_fluid_model_follows_the_prediction(red):
    loop = A.red_loop(N, C, TP, red)
    _, queue = _fluid_queue(red, loop)
    if loop.prediction == "settles":
        assert queue.std() < 2.0
        assert queue.mean() == pytest.approx(loop.plant.queue, abs=1.0)
    else:
        assert queue.std() > 20.0


@pytest.mark.parametrize("red", [RED_FAST_AVERAGE, RED_MILD], ids=["fast-average", "mild"])
def test_limit_cycle_period_near_the_linear_w180(red):
    """Mildly unstable loops cycle near 2 pi / w_180 (tolerance 10 %, declared)."""
    loop = A.red_loop(N, C, TP, red)
    time, queue = _fluid_queue(red, loop)
    centred = queue - queue.mean()
    ups = np.nonzero((centred[:-1] < 0) & (centred[1:] >= 0))[0]
    period = np.diff(time[ups]).mean()
    assert period == pytest.approx(loop.oscillation_period, rel=0.10)


def test_pi_design_holds_q_ref_in_the_fluid_model():
    pi = PiParams.design(60, 3750.0, 0.2467, 175.0, 160.0)
    net = fluid.network(capacity=C, buffer=800.0, propagation_delay=TP, n_flows=N)
    run = fluid.simulate(net, fluid.Reno(initial_window=10.0), 100.0, dt=2e-3,
                         aqm=fluid.Pi(pi), record_every=10)
    late = run.queue[run.time > 60.0, 0, 0]
    assert late.mean() == pytest.approx(175.0, abs=1.0)
    assert late.std() < 2.0


def _count_rate_enumerated(p_b):
    """1/E[X] for F&J's spacing, X's law enumerated packet by packet from p_a = p_b/(1 - n p_b)."""
    alive, mean, n = 1.0, 0.0, 0
    while alive > 0.0:
        mean += alive
        n += 1
        x = n * p_b
        alive *= 1.0 - (min(p_b / (1.0 - x), 1.0) if x < 1.0 else 1.0)
    return 1.0 / mean


def test_count_spacing_operating_point_is_where_the_spaced_rate_meets_p0():
    """q0 with spacing='count' solves rate(p_b(q0)) = 2 N^2 / ((q0/C + Tp) C)^2."""
    red = RedParams(50.0, 550.0, 0.1, weight=1e-4)
    q0 = A.red_operating_point(60, 3750.0, 0.2, red, spacing="count")
    p_b = 0.1 * (q0 - 50.0) / 500.0
    assert _count_rate_enumerated(p_b) == pytest.approx(
        2.0 * 60 ** 2 / ((q0 / 3750.0 + 0.2) * 3750.0) ** 2, rel=1e-6)
    # about twice p_b, so below the p_b reading's point (99.8 packets)
    assert q0 < A.red_operating_point(60, 3750.0, 0.2, red)


def test_count_spacing_loop_is_about_the_doubled_max_p_loop():
    """rate ~ 2 p_b (exactly where 1/p_b is whole): the loop of max_p doubled, within 2 %."""
    red = RedParams(50.0, 550.0, 0.1, weight=1e-4)
    spaced = A.red_loop(60, 3750.0, 0.2, red, spacing="count")
    doubled = A.red_loop(60, 3750.0, 0.2, RedParams(50.0, 550.0, 0.2, weight=1e-4))
    assert spaced.plant.queue == pytest.approx(doubled.plant.queue, rel=0.02)
    assert spaced.gain_margin == pytest.approx(doubled.gain_margin, rel=0.02)
    assert spaced.prediction == doubled.prediction


def test_fluid_red_marks_at_the_spaced_rate():
    """Red(spacing=...) maps p_b = 0.05 (q = 200 on (100, 300, 0.1)) to 2 p_b and 1/29.5 by hand."""
    queue = np.array([200.0])
    assert fluid.Red(100, 300, 0.1).probability(queue)[0] == pytest.approx(0.05)
    assert fluid.Red(100, 300, 0.1, spacing="count").probability(queue)[0] == pytest.approx(0.1)
    # Wait at p_b = 0.05: no drop before packet 20, then P(X > n) = 2 - (n + 1)/20, n = 20..38
    wait = fluid.Red(100, 300, 0.1, spacing="wait").probability(queue)[0]
    assert wait == pytest.approx(1.0 / (20.0 + sum(2.0 - k / 20.0 for k in range(21, 40))))


@pytest.mark.parametrize("call, match", [
    (lambda: fluid.Red(100, 300, 0.1, spacing="fj"), r"spacing must be one of"),
    (lambda: A.red_loop(N, C, TP, RED_SETTLES, spacing=2), r"spacing must be one of"),
    (lambda: A.pi_loop(N, C, TP, (1e-5, 1e-6)), r"pi must be a PiParams"),
    (lambda: A.red_loop(N, C, TP, RedParams(50.0, 60.0, 0.001)), r"must lie on RED's ramp"),
    (lambda: A.reno_plant(60, 3750.0, 0.2, -1.0), r"queue must be"),
    (lambda: A.reno_plant(600, 100.0, 0.01, 0.0), r"W0 = \(q0/C \+ Tp\) C / N >= sqrt\(2\)"),
])
def test_bad_input(call, match):
    with pytest.raises(ParameterError, match=match):
        call()
