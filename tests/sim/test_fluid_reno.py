"""Reno fluid model (MGT/Hollot form): operating point, linearisation, small signal.

Independent routes used here:

* the numbers quoted for Hollot's example (Hollot, Misra, Towsley, Gong,
  "A control theoretic analysis of RED", IEEE INFOCOM 2001, and "On
  designing improved controllers for AQM routers supporting TCP flows",
  INFOCOM 2001 / IEEE TAC 47(6) 2002): N = 60, C = 3750 packets/s,
  Tp = 0.2 s, q0 = 175 packets give R0 = 0.246 s, W0 = 15.4, p0 = 0.008
  and plant poles 0.53 and 4.05 rad/s (quoted to the digits in issue #6);
* sympy: the equilibrium and the Jacobian of the nonlinear right-hand side
  (ctlcc.sim.fluid.reno_window_derivative, the function the simulator
  integrates) derived symbolically and compared with the closed form of
  reno_linearisation;
* a linear delay-differential equation built in this file from that
  Jacobian and integrated here, against the nonlinear simulator.
"""

import csv
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest
import sympy as sp

from ctlcc.sim import fluid

HOLLOT = dict(n_flows=60, capacity=3750.0, propagation_delay=0.2, queue=175.0)


def _quoted_values():
    """Rows of data/hollot2001_operating_point.csv as (quantity, value, tolerance, source)."""
    path = Path(__file__).resolve().parents[2] / "data" / "hollot2001_operating_point.csv"
    with path.open(newline="") as handle:
        return [(row["quantity"], float(row["value"]), float(row["tolerance"]),
                 f"{row['source']}, {row['page_or_equation']}") for row in csv.DictReader(handle)]


@pytest.mark.parametrize("quantity, expected, tolerance, source", _quoted_values())
def test_hollot_example_golden_numbers(quantity, expected, tolerance, source):
    # Tolerance: half a unit of the last digit quoted (CSV column).
    lin = fluid.reno_linearisation(**HOLLOT)
    assert getattr(lin, quantity) == pytest.approx(expected, abs=tolerance), source


def test_quoted_table_is_complete():
    assert {row[0] for row in _quoted_values()} == {
        "round_trip", "window", "probability", "window_pole", "queue_pole"}


def _symbolic_model():
    """MGT right-hand sides as sympy expressions, built from the package's RHS."""
    W, Wd, q, qd, pd, N, C, Tp = sp.symbols("W W_d q q_d p_d N C T_p", positive=True)

    def round_trip(queue):
        return queue / C + Tp

    window_rhs = fluid.reno_window_derivative(W, round_trip(q), Wd / round_trip(qd), pd)
    queue_rhs = N * W / round_trip(q) - C
    return (W, Wd, q, qd, pd, N, C, Tp), window_rhs, queue_rhs


def test_equilibrium_derived_by_sympy_matches_closed_form():
    (W, Wd, q, qd, pd, N, C, Tp), window_rhs, queue_rhs = _symbolic_model()
    q0, p0 = sp.symbols("q_0 p_0", positive=True)
    at_rest = {Wd: W, qd: q0, q: q0, pd: p0}
    solution = sp.solve([window_rhs.subs(at_rest), queue_rhs.subs(at_rest)], [W, p0], dict=True)
    assert len(solution) == 1
    r0 = q0 / C + Tp
    assert sp.simplify(solution[0][W] - r0 * C / N) == 0
    assert sp.simplify(solution[0][p0] - 2 * N**2 / (r0 * C) ** 2) == 0
    numbers = {N: 60, C: 3750, Tp: sp.Rational(1, 5), q0: 175}
    lin = fluid.reno_linearisation(**HOLLOT)
    assert float(solution[0][W].subs(numbers)) == pytest.approx(lin.window, rel=1e-14)
    assert float(solution[0][p0].subs(numbers)) == pytest.approx(lin.probability, rel=1e-14)


def _jacobian_at_equilibrium():
    """Partial derivatives of the two RHS at the operating point, as floats."""
    (W, Wd, q, qd, pd, N, C, Tp), window_rhs, queue_rhs = _symbolic_model()
    numbers = {N: 60, C: 3750, Tp: sp.Rational(1, 5)}
    q0 = sp.Integer(175)
    r0 = q0 / numbers[C] + numbers[Tp]
    w0 = r0 * numbers[C] / numbers[N]
    point = {W: w0, Wd: w0, q: q0, qd: q0, pd: 2 / w0**2, **numbers}
    window = {name: float(sp.diff(window_rhs, var).subs(point))
              for name, var in (("W", W), ("Wd", Wd), ("q", q), ("qd", qd), ("pd", pd))}
    queue = {name: float(sp.diff(queue_rhs, var).subs(point)) for name, var in (("W", W), ("q", q))}
    return window, queue, float(r0)


def test_jacobian_reduces_to_hollot_plant():
    # Hollot's P(s) keeps -(dW + dW(t-R0)) N/(R0^2 C) ~ -2N/(R0^2 C) dW and
    # drops the q terms; check that every coefficient of the full Jacobian is
    # what that reduction assumes and that it assembles to the closed form.
    window, queue, r0 = _jacobian_at_equilibrium()
    lin = fluid.reno_linearisation(**HOLLOT)
    n, c = 60, 3750.0
    assert window["W"] == pytest.approx(-n / (r0**2 * c), rel=1e-12)
    assert window["Wd"] == pytest.approx(-n / (r0**2 * c), rel=1e-12)
    # The queue enters through R(t) and R(t - R) with opposite signs (they
    # cancel at zero frequency, which is why Hollot drops them).
    assert window["q"] == pytest.approx(-1 / (r0**2 * c), rel=1e-12)
    assert window["qd"] == pytest.approx(+1 / (r0**2 * c), rel=1e-12)
    assert queue["W"] == pytest.approx(n / r0, rel=1e-12)
    assert queue["q"] == pytest.approx(-1 / r0, rel=1e-12)
    # dq = -P(s) dp with P = (-pd) * queue_W / ((s - (W + Wd)) (s - queue_q)).
    assert -window["pd"] * queue["W"] == pytest.approx(lin.gain, rel=1e-12)
    assert -(window["W"] + window["Wd"]) == pytest.approx(lin.window_pole, rel=1e-12)
    assert -queue["q"] == pytest.approx(lin.queue_pole, rel=1e-12)
    s = sp.Symbol("s")
    plant = lin.gain / ((s + lin.window_pole) * (s + lin.queue_pole))
    poles = sorted(float(sp.re(root)) for root in sp.solve(sp.denom(sp.together(plant)), s))
    np.testing.assert_allclose(poles, lin.poles()[::-1], rtol=1e-12)


@lru_cache(maxsize=4)
def _nonlinear_step(amplitude, duration=16.0, dt=1e-3, t_step=1.0):
    lin = fluid.reno_linearisation(**HOLLOT)
    p0 = lin.probability

    def probability(t):
        return p0 * (1 + amplitude) if t >= t_step else p0

    net = fluid.network(capacity=3750.0, buffer=2000.0, propagation_delay=0.2, n_flows=60)
    run = fluid.simulate(net, fluid.Reno(initial_window=lin.window), duration, dt,
                         aqm=fluid.FixedMarking(probability), initial_queue=175.0)
    return run.time - t_step, run.queue[:, 0, 0] - 175.0, p0 * amplitude


def _linear_dde_step(dp, time, dt):
    """Full linearised DDE (all Jacobian terms), integrated like the simulator."""
    window, queue, r0 = _jacobian_at_equilibrium()
    lag = r0 / dt
    dW = np.zeros(time.size)
    dq = np.zeros(time.size)
    p = np.where(time >= 0, dp, 0.0)

    def delayed(x, k):  # linear interpolation of x at step k - lag (0 before the start)
        pos = k - lag
        lo = int(np.floor(pos))
        frac = pos - lo
        get = (lambda i: x[i] if i >= 0 else x[0])
        return get(lo) + frac * (get(lo + 1) - get(lo))

    for k in range(time.size - 1):
        slope = (window["W"] * dW[k] + window["Wd"] * delayed(dW, k) + window["q"] * dq[k]
                 + window["qd"] * delayed(dq, k) + window["pd"] * delayed(p, k))
        dW[k + 1] = dW[k] + dt * slope
        dq[k + 1] = dq[k] + dt * (queue["W"] * dW[k + 1] + queue["q"] * dq[k])
    return dq


def test_small_signal_step_matches_full_linearisation():
    # The nonlinear model minus its linearisation is second order in the step,
    # so the relative error must (a) be small, |error| <= 2 * amplitude of the
    # peak (the first neglected term is O(dp^2) relative O(dp)), and (b) shrink
    # in proportion to the amplitude (ratio 2 +- 20 % between 1 % and 0.5 %).
    errors = []
    for amplitude in (0.01, 0.005):
        t, dq_nonlinear, dp = _nonlinear_step(amplitude)
        dq_linear = _linear_dde_step(dp, t, 1e-3)
        scale = np.max(np.abs(dq_linear))
        errors.append(np.max(np.abs(dq_nonlinear - dq_linear)) / scale)
        assert errors[-1] <= 2 * amplitude
    assert errors[0] / errors[1] == pytest.approx(2.0, rel=0.2)


def test_small_signal_step_matches_hollot_plant():
    # Hollot's P(s) is exact at zero frequency: the final queue shift must be
    # -dp C^3 R0^3 / (4 N^2) (the derivative of q0 = N sqrt(2/p) - C Tp) to
    # the linearisation error, <= 2 * amplitude relative.
    # In the transient P(s) replaces dW(t - R0) by dW(t) and drops the q
    # terms.  To first order each is a change of the window equation's time
    # scale: N/(R0^2 C) (dW(t-R0) - dW(t)) ~ -(1/W0) dW' and
    # (q(t-R0) - q(t))/(R0^2 C) ~ +(1/W0) dW' at low frequency (dq ~ N dW),
    # of opposite signs.  Even without that cancellation a time-scale change
    # of 1/W0 = 0.065 moves a step response by at most 0.065 max_t t s'(t)
    # <= 0.065 / e |final| = 0.024 |final| (a first-order lag; the fast pole
    # only makes it smaller).  Tolerance: 0.024 + 2 * amplitude of |final|.
    amplitude = 0.005
    t, dq_nonlinear, dp = _nonlinear_step(amplitude)
    lin = fluid.reno_linearisation(**HOLLOT)
    dq_hollot = lin.step_response(t, dp)
    final = -dp * 3750.0**3 * lin.round_trip**3 / (4 * 60**2)
    assert 1 / lin.window == pytest.approx(0.0649, abs=1e-4)
    assert dq_hollot[-1] == pytest.approx(final, rel=1e-3)   # 15 s >> 1/0.526 s: settled
    assert dq_nonlinear[-1] == pytest.approx(final, rel=2 * amplitude)
    assert np.max(np.abs(dq_nonlinear - dq_hollot)) <= (0.024 + 2 * amplitude) * abs(final)
    # Before the delay R0 has elapsed nothing may move in either model.
    early = t < lin.round_trip - 2e-3
    assert np.all(dq_hollot[early] == 0)
    assert np.max(np.abs(dq_nonlinear[early])) < 1e-9


def test_open_loop_converges_to_equilibrium_from_afar():
    # Held at p0 the open-loop model is stable (both plant poles in the left
    # half plane), so from W = 1, q = 0 it must reach (W0, q0).
    lin = fluid.reno_linearisation(**HOLLOT)
    net = fluid.network(capacity=3750.0, buffer=2000.0, propagation_delay=0.2, n_flows=60)
    run = fluid.simulate(net, fluid.Reno(), 40.0, 1e-3, aqm=fluid.FixedMarking(lin.probability),
                         record_every=1000)
    # Tolerance: after 40 s the slow mode exp(-0.526 t) has decayed well below
    # 1e-6 of the initial 175-packet error once the queue is busy.
    assert run.queue[-1, 0, 0] == pytest.approx(175.0, abs=1e-4)
    assert run.window[-1, 0, 0] == pytest.approx(lin.window, rel=1e-6)


def test_linearisation_vectorises_over_a_batch():
    lin = fluid.reno_linearisation(np.array([60, 120]), 3750.0, 0.2, np.array([175.0, 175.0]))
    # W0 = R0 C / N halves when N doubles at the same queue.
    assert lin.window.tolist() == pytest.approx([3750 * (175 / 3750 + 0.2) / 60,
                                                 3750 * (175 / 3750 + 0.2) / 120], rel=1e-14)
    assert lin.poles().shape == (2, 2)


def test_frequency_response_magnitude_at_zero_is_static_gain():
    lin = fluid.reno_linearisation(**HOLLOT)
    static = lin.gain / (lin.window_pole * lin.queue_pole)
    assert abs(lin.frequency_response(0.0)) == pytest.approx(static, rel=1e-12)
    tf = lin.transfer_function()
    assert float(np.real(tf(0))) == pytest.approx(static, rel=1e-12)
