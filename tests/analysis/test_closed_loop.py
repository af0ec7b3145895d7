"""closed_loop(law, m): loops derived from laws written here, outside the package.

Every expected value comes from a route independent of the code under test:
characteristic polynomials and fixed points derived by hand (the derivations
are in the docstrings), numpy roots of those polynomials, Jury's conditions
worked by hand, the thesis's eq. (4.11) typed in, hand iteration of the
difference equations, and the existing ``stpd_loop`` / ``primo_loop``
(whose own tests check them against the thesis and the paper).
"""

import math

import numpy as np
import pytest
import sympy as sp

import ctlcc
from ctlcc import WindowLaw, RateLaw, closed_loop, primo_loop, stpd_loop
from ctlcc.analysis import jury_conditions, max_stable_delay, stability_region
from ctlcc.analysis.loops import ClosedLoop, _generic_loop
from ctlcc.analysis.stability import gain_margin
from ctlcc.errors import LinearisationError, ParameterError
from ctlcc.laws.primo import PrimoParams
from ctlcc.laws.user import pd_law, primo_law, select


# -- laws written by a researcher ---------------------------------------------------------


def pi(window, error, memory, kp, ki):
    """Incremental PI: w(n) = w(n-1) + kp (e(n) - e(n-1)) + ki e(n); memory (e(n),)."""
    return window + kp * (error - memory[0]) + ki * error, (error,)


def leaky(window, error, memory, kp, leak, drift, c0):
    """A leaky integral s of the error, a window-dependent gain and a constant drift.

    s(n) = (1 - leak) s(n-1) + e(n);  w(n) = w(n-1) + kp s (1 + w)/(c0 + w) - drift.
    """
    s = (1 - leak) * memory[0] + error
    return window + kp * s * (1 + window) / (c0 + window) - drift, (s,)


def towards(rate, excess, received, previous, memory, gain):
    """x(n) = x(n-1) + gain (received (1 - excess) - x(n-1))."""
    return rate + gain * (received * (1 - excess) - rate), ()


# -- the PI law: hand derivation ------------------------------------------------------------


def pi_polynomial(kp, ki, m, model="per_slot"):
    """Characteristic polynomial of the PI loop, by hand (highest power first).

    Per slot (thesis §4.3.2 with the PI in place of the PD): the law sees the
    error m slots late, a(n) = a(n-1) + kp (e(n-m) - e(n-m-1)) + ki e(n-m),
    i.e. (1 - z^-1) A = z^-m C(z) E with C(z) = kp (1 - z^-1) + ki; the queue
    (1 - z^-1) B = A - D (4.6) and E = R - B (4.2).  Eliminating E and B:
    (1 - z^-1)^2 + z^-m (kp + ki - kp z^-1) = 0, times z^(m+1):

        z^(m-1) (z - 1)^2 + (kp + ki) z - kp.

    Per round trip: (1 - z^-1) W = z^-1 C(z) E with B = W - BDP, so
    (1 - z^-1) + z^-1 (kp + ki - kp z^-1) = 0, times z^2:

        z^2 + (kp + ki - 1) z - kp.
    """
    if model == "per_rtt":
        return np.array([1.0, kp + ki - 1.0, -kp])
    base = np.concatenate([[1.0, -2.0, 1.0], np.zeros(m - 1)])
    return np.polyadd(base, [kp + ki, -kp])


def pi_law(kp=0.2, ki=0.02):
    return WindowLaw(pi, memory=1, gains=dict(kp=kp, ki=ki))


@pytest.mark.parametrize("model", ["per_slot", "per_rtt"])
@pytest.mark.parametrize("m", [1, 2, 3, 7, 31])
@pytest.mark.parametrize("kp, ki", [(0.2, 0.02), (0.05, 0.3), (0.0, 0.1)])
def test_pi_characteristic_polynomial_by_hand(kp, ki, m, model):
    loop = closed_loop(pi_law(kp, ki), m, model=model)
    expected = pi_polynomial(kp, ki, m, model)
    np.testing.assert_allclose(loop.characteristic_polynomial(), expected, atol=1e-14)
    np.testing.assert_allclose(loop.poles(), np.sort_complex(np.roots(expected)), atol=1e-9)
    assert loop.spectral_radius() == pytest.approx(np.abs(np.roots(expected)).max(), rel=1e-9)
    assert not loop.linearised and loop.operating_point is None


def test_pi_symbolic_polynomial_and_controller_by_hand():
    kp, ki, z = sp.Symbol("kp", real=True), sp.Symbol("ki", real=True), sp.Symbol("z")
    symbolic = closed_loop(pi_law(), 3).symbolic(numeric=False)
    assert sp.expand(symbolic.characteristic - (z**2 * (z - 1)**2 + (kp + ki) * z - kp)) == 0
    # C(z) = kp (1 - z^-1) + ki
    assert sp.simplify(symbolic.controller - (kp * (1 - 1 / z) + ki)) == 0
    per_rtt = closed_loop(pi_law(), 9, model="per_rtt").symbolic(numeric=False)
    assert sp.expand(per_rtt.characteristic - (z**2 + (kp + ki - 1) * z - kp)) == 0


POINTS = np.array([0.3 + 0.4j, -0.7 + 0.1j, 1.5 - 0.2j, 2j, -1.1])


@pytest.mark.parametrize("m", [1, 3, 6])
def test_pi_transfer_functions_by_hand(m):
    # A/R = z^-m C (1 - z^-1) / ((1 - z^-1)^2 + z^-m C); A/D = (A/R) / (1 - z^-1);
    # B/R = (A/R) / (1 - z^-1); B/D = (A/D - 1) / (1 - z^-1)  (as for the PD, thesis 4.9-4.11)
    kp, ki = 0.2, 0.02
    loop = closed_loop(pi_law(kp, ki), m)
    zi = 1 / POINTS
    controller = kp * (1 - zi) + ki
    ar = zi**m * controller * (1 - zi) / ((1 - zi) ** 2 + zi**m * controller)
    integrator = 1 / (1 - zi)
    ad = ar * integrator
    expected = {("arrival", "reference"): ar, ("arrival", "departure"): ad,
                ("occupancy", "reference"): ar * integrator,
                ("occupancy", "departure"): (ad - 1) * integrator}
    for (output, source), value in expected.items():
        tf = loop.transfer_function(output, source)
        assert tf.dt == 1
        np.testing.assert_allclose(tf(POINTS), value, rtol=1e-10)
    np.testing.assert_allclose(loop.controller()(POINTS), controller, rtol=1e-12)
    # the loop gain: 1 + L = 0 is the characteristic equation, L = z^-m C / (1 - z^-1)^2
    np.testing.assert_allclose(loop.open_loop()(POINTS), zi**m * controller / (1 - zi) ** 2,
                               rtol=1e-10)


def test_pi_loss_response_first_slots_by_hand():
    # m = 3, empty start, r(n) = 1, d(n) = 1: b(0) = -1, e(0) = 2; b(1) = -2, e(1) = 3;
    # a(n) = 0 until the error arrives at n = 3:
    # a(3) = kp (e(0) - 0) + ki e(0) = 2 kp + 2 ki,
    # a(4) = a(3) + kp (e(1) - e(0)) + ki e(1) = 2 kp + 2 ki + kp + 3 ki.
    kp, ki = 0.2, 0.02
    loop = closed_loop(pi_law(kp, ki), 3)
    for method in ("z_transform", "iteration"):
        t, a = loop.loss_response(p=100, n=6, method=method)
        np.testing.assert_allclose(a[:3], 0.0, atol=1e-12)
        assert a[3] == pytest.approx(2 * kp + 2 * ki, abs=1e-12)
        assert a[4] == pytest.approx(3 * kp + 5 * ki, abs=1e-12)
    response = loop.loss_response(p=100, n=400)
    iterated = loop.loss_response(p=100, n=400, method="iteration")
    np.testing.assert_allclose(response.arrival, iterated.arrival, atol=1e-9)
    np.testing.assert_allclose(response.occupancy, iterated.occupancy, atol=1e-9)
    # r(n) = u(n) + unit impulses over p .. p + m, eq. (4.15)
    np.testing.assert_array_equal(np.flatnonzero(response.reference == 2.0), [100, 101, 102, 103])
    assert response.gains == {"kp": kp, "ki": ki} and response.law == "pi"


def _pi_jury(kp, ki, m, model):
    """Jury's conditions of the hand polynomials, worked by hand.

    per RTT, z^2 + (kp+ki-1) z - kp: P(1) = ki > 0, P(-1) = 2 - 2 kp - ki > 0,
    |a0| = |kp| < 1.  Per slot, m = 1, z^2 + (kp+ki-2) z + 1 - kp: P(1) = ki > 0,
    P(-1) = 4 - 2 kp - ki > 0, |1 - kp| < 1.  Per slot, m = 2,
    z^3 - 2 z^2 + (1+kp+ki) z - kp: P(1) = ki > 0, -P(-1) = 4 + 2 kp + ki > 0,
    |kp| < 1 and |a0^2 - a3^2| > |a0 a2 - a3 a1|, i.e. 1 - kp^2 > |1 + ki - kp|,
    which for 0 <= kp < 1 is ki < kp (1 - kp).
    """
    if model == "per_rtt":
        return (ki > 0) & (2 - 2 * kp - ki > 0) & (np.abs(kp) < 1)
    if m == 1:
        return (ki > 0) & (4 - 2 * kp - ki > 0) & (np.abs(1 - kp) < 1)
    assert m == 2
    return (ki > 0) & (np.abs(kp) < 1) & (1 - kp**2 > np.abs(1 + ki - kp))


@pytest.mark.parametrize("m, model", [(1, "per_slot"), (2, "per_slot"), (5, "per_rtt")])
def test_pi_stability_region_is_the_jury_region(m, model):
    kp = np.linspace(0.0, 2.2, 89)
    ki = np.linspace(0.0, 1.3, 83)
    KP, KI = np.meshgrid(kp, ki, indexing="ij")
    expected = _pi_jury(KP, KI, m, model)
    region = closed_loop(pi_law(), m, model=model).stability_region(kp=kp, ki=ki)
    assert region.names == ("kp", "ki") and region.stable.shape == (89, 83)
    assert region.defined.all() and not region.linearised
    # away from the boundary (where either answer is rounding)
    radius = np.array([[np.abs(np.roots(pi_polynomial(a, b, m, model))).max() for b in ki]
                       for a in kp])
    clear = np.abs(radius - 1) > 1e-6
    np.testing.assert_array_equal(region.stable[clear], expected[clear])
    assert 0.02 < expected.mean() < 0.98
    # the functional form (stability.py generalised to a law) gives the same map
    np.testing.assert_array_equal(stability_region(m, law=pi_law(), kp=kp, ki=ki, model=model),
                                  region.stable)
    # gains in any order: rows follow the law's signature (kp, then ki)
    np.testing.assert_array_equal(stability_region(m, ki=ki, kp=kp, model=model, law=pi_law()),
                                  region.stable)


@pytest.mark.parametrize("m, model", [(1, "per_slot"), (2, "per_slot"), (4, "per_rtt")])
def test_pi_jury_conditions_match_the_hand_conditions(m, model):
    conditions = jury_conditions(m, model, law=pi_law())
    kp_s, ki_s = sp.Symbol("kp", real=True), sp.Symbol("ki", real=True)
    assert all(c.free_symbols <= {kp_s, ki_s} for c in conditions)
    KP, KI = np.meshgrid(np.linspace(0.0013, 2.1, 70), np.linspace(0.0011, 1.2, 60), indexing="ij")
    symbolic = np.ones(KP.shape, dtype=bool)
    for condition in conditions:
        symbolic &= np.asarray(sp.lambdify((kp_s, ki_s), condition, "numpy")(KP, KI))
    np.testing.assert_array_equal(symbolic, _pi_jury(KP, KI, m, model))


def test_pi_margins_by_closed_form_and_polynomial_route():
    # per RTT, both gains times K: K ki > 0, K (2 kp + ki) < 2, K kp < 1 (hand Jury above)
    kp, ki = 0.3, 0.2
    loop = closed_loop(pi_law(kp, ki), 12, model="per_rtt")
    expected = min(2 / (2 * kp + ki), 1 / kp)
    assert loop.gain_margin() == pytest.approx(expected, rel=1e-9)
    assert loop.gain_margin("bisection") == pytest.approx(expected, rel=1e-9)
    assert gain_margin(m=12, model="per_rtt", law=pi_law(kp, ki)) == pytest.approx(expected,
                                                                                 rel=1e-9)
    # per slot: crossing and bisection agree; just inside stable, just outside not
    for m in (2, 3, 5):
        loop = closed_loop(pi_law(0.2, 0.01), m)
        margin = loop.gain_margin()
        assert margin == pytest.approx(loop.gain_margin("bisection"), rel=1e-8)
        if 0 < margin < np.inf:
            inside = pi_polynomial(0.999 * margin * 0.2, 0.999 * margin * 0.01, m)
            outside = pi_polynomial(1.001 * margin * 0.2, 1.001 * margin * 0.01, m)
            assert np.abs(np.roots(inside)).max() < 1 < np.abs(np.roots(outside)).max()


@pytest.mark.parametrize("law, m, model", [(pi_law(0.2, 0.01), 3, "per_slot"),
                                           (pi_law(0.3, 0.2), 8, "per_rtt"),
                                           (pd_law(0.033, 0.368), 3, "per_slot")])
def test_phase_margin_is_the_phase_that_brings_a_pole_to_the_unit_circle(law, m, model):
    # polynomial route: with L e^{-j phi}, phi the phase margin, P0 + e^{-j phi} N has a
    # root on the unit circle (the gain crossover) - np.roots on complex coefficients
    loop = closed_loop(law, m, model=model)
    margins = loop.margins()
    assert 0 < margins.phase_margin < 180
    open_loop = loop.open_loop()
    num, den = open_loop.num[0][0], open_loop.den[0][0]
    num = np.concatenate([np.zeros(den.size - num.size), num])
    roots = np.roots(den + np.exp(-1j * np.radians(margins.phase_margin)) * num)
    nearest = roots[np.argmin(np.abs(np.abs(roots) - 1))]
    assert abs(nearest) == pytest.approx(1.0, abs=1e-8)
    assert abs(np.angle(nearest)) == pytest.approx(margins.gain_crossover, abs=1e-8)


# -- a nonlinear law: linearised at its fixed point, derived by hand -------------------------

LEAKY = dict(kp=0.2, leak=0.5, drift=0.01, c0=4.0)


def leaky_by_hand(m, model, kp, leak, drift, c0):
    """Fixed point and characteristic polynomial of the leaky law, by hand.

    At the fixed point the memory repeats, s = (1 - leak) s + e, so e* = leak s*,
    and the window holds, kp s* (1 + w*)/(c0 + w*) = drift.  Per slot the
    arrival holds at w* = 1 packet/slot: s* = drift (c0 + 1) / (2 kp).  Per
    round trip the queue is ref - e* = 1 - leak s*, so w* = m + 1 - leak s*
    and kp s (m + 2 - leak s) = drift (c0 + m + 1 - leak s): the quadratic
    kp leak s^2 - (kp (m + 2) + drift leak) s + drift (c0 + m + 1) = 0, whose
    root nearest 0 is taken.

    Partial derivatives there: dw'/dw = a = 1 + kp s* (c0 - 1)/(c0 + w*)^2,
    dw'/ds = g = kp (1 + w*)/(c0 + w*), ds'/de = 1, ds'/ds(n-1) = lam = 1 - leak.
    Linearised: (1 - a z^-1) W = g S, (1 - lam z^-1) S = Q E.
    Per slot, Q = z^-m, E = -B, (1 - z^-1) B = W:
        (1 - a z^-1)(1 - lam z^-1)(1 - z^-1) + g z^-m = 0.
    Per round trip, Q = z^-1, E = -(W - BDP):
        (1 - a z^-1)(1 - lam z^-1) + g z^-1 = 0  ->  z^2 + (g - a - lam) z + a lam.
    """
    lam = 1 - leak
    if model == "per_slot":
        w = 1.0
        s = drift * (c0 + 1) / (2 * kp)
    else:
        roots = np.roots([kp * leak, -(kp * (m + 2) + drift * leak), drift * (c0 + m + 1)])
        s = float(min(roots.real, key=abs))
        w = m + 1 - leak * s
    a = 1 + kp * s * (c0 - 1) / (c0 + w) ** 2
    g = kp * (1 + w) / (c0 + w)
    if model == "per_rtt":
        return w, s, leak * s, np.array([1.0, g - a - lam, a * lam])
    cubic = np.polymul(np.polymul([1.0, -a], [1.0, -lam]), [1.0, -1.0])
    poly = np.zeros(max(4, m + 1))
    poly[:4] = cubic
    poly[m] += g
    return w, s, leak * s, poly


@pytest.mark.parametrize("model, m", [("per_slot", 1), ("per_slot", 2), ("per_slot", 5),
                                      ("per_rtt", 3), ("per_rtt", 20), ("per_rtt", 94)])
def test_leaky_law_linearised_at_its_fixed_point_by_hand(model, m):
    w, s, e, expected = leaky_by_hand(m, model, **LEAKY)
    loop = closed_loop(WindowLaw(leaky, memory=1, gains=LEAKY), m, model=model)
    assert loop.linearised
    assert "linearised at its fixed point" in repr(loop)
    point = loop.operating_point
    assert point["window"] == pytest.approx(w, rel=1e-12)
    assert point["error"] == pytest.approx(e, rel=1e-10)
    assert point["memory_0"] == pytest.approx(s, rel=1e-10)
    np.testing.assert_allclose(loop.characteristic_polynomial(), expected, atol=1e-12)
    np.testing.assert_allclose(loop.poles(), np.sort_complex(np.roots(expected)), atol=1e-8)


def test_leaky_law_iterated_settles_at_the_fixed_point_at_the_linearised_rate():
    # per RTT, m = 20: the law itself (iterated from an empty start) reaches w*, and
    # its deviation decays like the spectral radius of the linearisation
    m = 20
    w, *_ = leaky_by_hand(m, "per_rtt", **LEAKY)
    loop = closed_loop(WindowLaw(leaky, memory=1, gains=LEAKY), m, model="per_rtt")
    iterated = loop.loss_response(p=300, n=400, method="iteration").arrival
    linear = loop.loss_response(p=300, n=400).arrival
    assert iterated[299] == pytest.approx(w, rel=1e-12)
    # the affine model has the same fixed point; rel 1e-9: rounding of python-control's
    # state-space realisation of the z-transform (as in test_stpd_loop)
    assert linear[299] == pytest.approx(w, rel=1e-9)
    deviation = np.abs(iterated[300:400] - w)
    # fit the decay of the envelope over rounds 320-360 (well after the loss at 300)
    rounds = np.arange(320, 360)
    peaks = np.maximum.accumulate(deviation[rounds - 300][::-1])[::-1]
    rate = np.exp(np.polyfit(rounds, np.log(peaks), 1)[0])
    radius = np.abs(np.roots(leaky_by_hand(m, "per_rtt", **LEAKY)[3])).max()
    assert rate == pytest.approx(radius, rel=0.05)


def test_leaky_law_stability_region_moves_with_its_fixed_point():
    # each grid point is linearised at its own fixed point: compare with the hand
    # polynomial at that point
    kp = np.array([0.05, 0.2, 0.6, 1.5])
    leak = np.array([0.1, 0.5, 0.9])
    loop = closed_loop(WindowLaw(leaky, memory=1, gains=LEAKY), 12, model="per_rtt")
    region = loop.stability_region(kp=kp, leak=leak)
    assert region.linearised and region.defined.all()
    for i, a in enumerate(kp):
        for j, b in enumerate(leak):
            gains = dict(LEAKY, kp=a, leak=b)
            radius = np.abs(np.roots(leaky_by_hand(12, "per_rtt", **gains)[3])).max()
            assert region.stable[i, j] == (radius < 1), (a, b)


def test_leaky_law_grid_route_equals_one_loop_per_point():
    # the grid solves the fixed point once in the gain symbols; one loop per gain pair
    # solves it with numbers: the two routes give the same polynomial
    base = closed_loop(WindowLaw(leaky, memory=1, gains=LEAKY), 7, model="per_rtt")
    kp = np.array([0.1, 0.3, 0.9])
    grid = base.characteristic_coefficients(kp=kp)
    for i, value in enumerate(kp):
        single = closed_loop(base.law.with_gains(kp=value), 7, model="per_rtt")
        np.testing.assert_allclose(grid[i, :3], single.characteristic_polynomial(), atol=1e-12)


def test_leaky_law_without_a_fixed_point_is_refused():
    # kp s (1+w)/(c0+w) = drift has no real s when drift leak s^2 ... : with kp = 0 it
    # reads 0 = drift, impossible
    law = WindowLaw(leaky, memory=1, gains=dict(LEAKY, kp=0.0))
    with pytest.raises(LinearisationError, match=r"no fixed point"):
        closed_loop(law, 3)
    # on a grid such points are reported as undefined, not stable
    region = closed_loop(WindowLaw(leaky, memory=1, gains=LEAKY), 3, model="per_rtt") \
        .stability_region(kp=[0.0, 0.2], leak=[0.5])
    assert region.defined.tolist() == [[False], [True]]
    assert region.stable[0, 0] == False  # noqa: E712


# -- a rate law with the excess fed back ----------------------------------------------------


def test_rate_law_loop_with_excess_feedback_by_hand():
    """x' = x + g (r (1 - excess) - x) around Primo's plant, by hand.

    Fixed point (C = 1): x = r = 1 gives excess* = 0.  Partials: dx'/dx = 1 - g,
    dx'/dexcess = -g r = -g, dx'/dr = g.  Loop: (1 - (1-g) z^-1) X = -g excess + g R,
    excess = z^-lag B / FTT_ref with lag = 1 + m - f + d, (1 - z^-1) B = z^-f X - S:
        (1 - (1-g) z^-1)(1 - z^-1) + (g / FTT_ref) z^-(lag + f) = 0.
    """
    g, m, f, d, ftt = 0.3, 6, 2, 3, 3.0
    loop = closed_loop(RateLaw(towards, gains={"gain": g}), m, forward_delay=f, D=d,
                       ftt_ref=ftt)
    lag = 1 + m - f + d
    expected = np.zeros(lag + f + 1)
    expected[:3] = np.polymul([1.0, -(1 - g)], [1.0, -1.0])
    expected[lag + f] += g / ftt
    np.testing.assert_allclose(loop.characteristic_polynomial(), expected, atol=1e-14)
    assert loop.operating_point["excess"] == pytest.approx(0.0, abs=1e-14)
    # without the queue (the excess an input): 1 - (1-g) z^-1
    np.testing.assert_allclose(loop.characteristic_polynomial(include_queue=False),
                               [1.0, -(1 - g)], atol=1e-15)
    assert loop.is_stable() == (np.abs(np.roots(expected)).max() < 1)


# -- ST-PD and Primo through the same public path -------------------------------------------


@pytest.mark.parametrize("model", ["per_slot", "per_rtt"])
@pytest.mark.parametrize("kp, kd, m", [(0.033, 0.368, 3), (0.368, 0.033, 3), (0.01, 0.2, 7),
                                       (0.5, 0.0, 1), (0.0, 0.3, 4), (0.05, 0.05, 31)])
def test_pd_through_closed_loop_is_stpd_loop(kp, kd, m, model):
    loop = closed_loop(pd_law(kp, kd), m, model=model)
    reference = stpd_loop(kp, kd, m, model)
    np.testing.assert_array_equal(loop.characteristic_polynomial(),
                                  reference.characteristic_polynomial())
    np.testing.assert_allclose(loop.poles(), reference.poles(), atol=1e-12)
    assert loop.is_stable() == reference.is_stable()
    for output in ("arrival", "occupancy"):
        for source in ("reference", "departure"):
            ours = loop.transfer_function(output, source)
            theirs = reference.transfer_function(output, source)
            np.testing.assert_allclose(ours(POINTS), theirs(POINTS), rtol=1e-12)
    for method in ("z_transform", "iteration"):
        ours = loop.loss_response(p=20, n=120, method=method)
        theirs = reference.loss_response(p=20, n=120, method=method)
        np.testing.assert_allclose(ours.arrival, theirs.arrival, atol=1e-12)
        np.testing.assert_allclose(ours.occupancy, theirs.occupancy, atol=1e-12)
    if kp or kd:
        assert loop.gain_margin() == pytest.approx(gain_margin(kp, kd, m, model), rel=1e-12)
    grid = np.linspace(0, 1, 11)
    np.testing.assert_array_equal(loop.stability_region(kp=grid, kd=grid).stable,
                                  stability_region(m, grid, grid, model))
    assert reference.loop.law == pd_law(kp, kd)


def test_pd_loop_against_thesis_eq_4_11():
    # thesis eq. (4.11) typed in (an independent route), through the public path
    kp, kd, m = 0.033, 0.368, 3
    zi = 1 / POINTS
    controller = kp + kd * (1 - zi)
    expected = zi**m * controller / (1 - zi + zi**m * controller / (1 - zi))
    tf = closed_loop(pd_law(kp, kd), m).transfer_function("arrival", "reference")
    np.testing.assert_allclose(tf(POINTS), expected, rtol=1e-10)


def _regime_excess(params, regime):
    return {"strong": params.TH_str + 0.1, "moderate": 0.5 * (params.TH_mod + params.TH_str),
            "hold": 0.5 * (params.TH_rel + params.TH_mod), "release": params.TH_rel / 2}[regime]


@pytest.mark.parametrize("params", [PrimoParams(), PrimoParams(W1=0.2, W2=0.3),
                                    PrimoParams(W1=0.9, W2=0.95, TH_rel=0.05)])
@pytest.mark.parametrize("regime", ["strong", "moderate", "hold", "release"])
def test_primo_through_closed_loop_is_primo_loop(params, regime):
    primo = primo_loop(params, capacity=250.0, round_trip_time=0.024, forward_delay=0.008)
    loop = closed_loop(primo_law(params), primo.m, excess=_regime_excess(params, regime),
                       D=primo.d, forward_delay=primo.f, ftt_ref=primo.ftt_ref * 250.0,
                       capacity=250.0)
    for include_queue in (False, True):
        expected = primo.characteristic_polynomial(regime, include_queue)
        ours = loop.characteristic_polynomial(include_queue)
        padded = np.concatenate([ours, np.zeros(expected.size - ours.size)])
        np.testing.assert_allclose(padded, expected, atol=1e-14)
    fixed = primo.fixed_point(regime)
    if fixed.rate is not None:
        assert loop.operating_point["rate"] == pytest.approx(fixed.rate, rel=1e-12)
    assert loop.linearised    # Algorithm 1 branches on the excess: pinned to one regime
    np.testing.assert_allclose(primo.closed_loop(regime).characteristic_polynomial(),
                               loop.characteristic_polynomial(), atol=1e-14)


def test_primo_without_an_operating_point_says_why():
    with pytest.raises(LinearisationError, match=r"no isolated fixed point: every point with "
                                                 r"excess in Interval.Ropen\(0.15.*, 0.17.*\) is "
                                                 r"one.*pass excess="):
        closed_loop(primo_law(), 6)
    with pytest.raises(LinearisationError, match=r"not differentiable at its fixed point .*"
                                                 r"the branch excess >= 0.34 switches there"):
        closed_loop(primo_law(), 6, excess=0.34)


# -- sizes: derived once per structure --------------------------------------------------------


def test_derived_once_per_law_structure_and_m_substituted():
    _generic_loop.cache_clear()
    for m in range(1, 60):
        closed_loop(pi_law(0.1 + m / 1000, 0.01), m).is_stable()
    assert _generic_loop.cache_info().misses == 1
    # the largest delay the analysis accepts
    loop = closed_loop(pi_law(1e-4, 1e-6), ctlcc.analysis.stpd.MAX_SLOTS)
    assert loop.characteristic_polynomial().size == ctlcc.analysis.stpd.MAX_SLOTS + 2
    assert isinstance(loop.is_stable(), bool)


def test_max_stable_delay_of_a_law_by_brute_force():
    law = pi_law(0.01, 0.002)
    expected = 0
    for m in range(1, 41):
        if np.abs(np.roots(pi_polynomial(0.01, 0.002, m))).max() >= 1 - 1e-12:
            break
        expected = m
    assert max_stable_delay(law=law, m_max=40) == expected
    assert max_stable_delay(law=pd_law(0.033, 0.368)) == max_stable_delay(0.033, 0.368)


def test_result_objects_plot(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    loop = closed_loop(pi_law(), 3)
    ax = loop.loss_response(20, 100).plot()
    assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title()
    ax = loop.stability_region(kp=np.linspace(0, 1, 9), ki=np.linspace(0, 0.3, 7)).plot(
        marker=(0.2, 0.02))
    assert "kp" in ax.get_xlabel() and "ki" in ax.get_ylabel()
    plt.close("all")


# -- bad input ---------------------------------------------------------------------------------


def python_if(window, error, memory, k):
    if error > 0:
        return window + k, ()
    return window - k, ()


def uses_math(window, error, memory, k):
    return window + k * math.tanh(error), ()


def kinked(window, error, memory, k):
    return window + k * abs(error), ()


def selected(window, error, memory, k):
    return window + select(error > 0, k * error, 2 * k * error), ()


WINDOW = pi_law()

BAD = [
    # (call, exception, message)
    (lambda: closed_loop("pi", 3), ParameterError, r"law must be a WindowLaw or a RateLaw"),
    (lambda: closed_loop(WINDOW, 0), ParameterError, r"m must be an integer >= 1"),
    (lambda: closed_loop(WINDOW, 10_001), ParameterError, r"m must be an integer >= 1 and <= "
                                                          r"10000"),
    (lambda: closed_loop(WINDOW, 2.5), ParameterError, r"m must be an integer"),
    (lambda: closed_loop(WINDOW, 3, model="fluid"), ParameterError,
     r"model must be one of 'per_slot', 'per_rtt'"),
    (lambda: closed_loop(WINDOW, 3, excess=0.2), ParameterError,
     r"excess is a rate-loop argument"),
    (lambda: closed_loop(WINDOW, 3, capacity=5.0), ParameterError,
     r"capacity is a rate-loop argument"),
    (lambda: closed_loop(primo_law(), 6, excess=np.nan), ParameterError, r"excess must be finite"),
    (lambda: closed_loop(primo_law(), 6, excess=0.2, ftt_ref=-1.0), ParameterError,
     r"ftt_ref must be in \(0, inf\)"),
    (lambda: closed_loop(primo_law(), 6, excess=0.2, forward_delay=7), ParameterError,
     r"forward_delay must be an integer >= 0 and <= 6"),
    (lambda: closed_loop(primo_law(), 6, excess=0.2, model="per_rtt"), ParameterError,
     r"model must be one of 'per_slot'"),
    (lambda: closed_loop(primo_law(per="rtt"), 6, excess=0.2), ParameterError,
     r"closed_loop models a rate law updated before each packet .*got per='rtt'"),
    (lambda: closed_loop(WindowLaw(python_if, gains={"k": 1.0}), 3), LinearisationError,
     r"branches with a Python `if` .*ctlcc.laws.user.select"),
    (lambda: closed_loop(WindowLaw(uses_math, gains={"k": 1.0}), 3), LinearisationError,
     r"does not accept sympy symbols .*no math.\* or numpy functions"),
    (lambda: closed_loop(WindowLaw(kinked, gains={"k": 1.0}), 3), LinearisationError,
     r"not differentiable at its fixed point \(window=1, error=0\): Abs\(error\) has a kink"),
    (lambda: closed_loop(WindowLaw(selected, gains={"k": 1.0}), 3), LinearisationError,
     r"not differentiable at its fixed point .*the branch error > 0 switches there"),
    (lambda: closed_loop(WINDOW, 3).stability_region(kp=[0.1]), ParameterError,
     r"exactly two gains"),
    (lambda: closed_loop(WINDOW, 3).stability_region(kp=[0.1], kd=[0.1]), ParameterError,
     r"kd is not a gain of 'pi'; its gains are kp, ki"),
    (lambda: closed_loop(WINDOW, 3).stability_region(kp=[[0.1, 0.2]], ki=[0.1]),
     ParameterError, r"kp must be a non-empty 1-D array"),
    (lambda: closed_loop(WINDOW, 3).stability_region(kp=[np.nan], ki=[0.1]), ParameterError,
     r"kp must be finite"),
    (lambda: closed_loop(WINDOW, 3).loss_response(-1, 10), ParameterError,
     r"p must be an integer >= 0"),
    (lambda: closed_loop(WINDOW, 3).loss_response(1, 10, method="laplace"), ParameterError,
     r"method must be one of"),
    (lambda: closed_loop(WINDOW, 3).characteristic_polynomial(include_queue=False),
     ParameterError, r"include_queue=False is for rate loops"),
    (lambda: closed_loop(WINDOW, 3).transfer_function("rate"), ParameterError,
     r"output must be one of 'arrival', 'occupancy'"),
    (lambda: closed_loop(WINDOW, 3).gain_margin("newton"), ParameterError,
     r"method must be one of 'crossing', 'bisection'"),
    (lambda: closed_loop(primo_law(), 6, excess=0.2).loss_response(1, 10), ParameterError,
     r"loss_response is defined for window loops"),
    (lambda: closed_loop(primo_law(), 6, excess=0.2).controller(), ParameterError,
     r"controller\(\) is defined for window laws"),
    (lambda: closed_loop(WINDOW, 3).characteristic_coefficients(kx=[0.1]), ParameterError,
     r"kx is not a gain of 'pi'"),
    (lambda: stability_region(3, law=WINDOW, kp=[0.1, 0.2]), ParameterError,
     r"exactly two gains"),
    (lambda: stability_region(3, [0.1], [0.1], ki=[0.1]), ParameterError,
     r"gains by name need law="),
    (lambda: stability_region(WINDOW, 3, ki=[0.1]), ParameterError,
     r"pass the law by keyword"),
    (lambda: max_stable_delay(0.1, 0.1, law=WINDOW), ParameterError,
     r"give either law= or the PD gains"),
    (lambda: max_stable_delay(law=primo_law()), ParameterError, r"law must be a WindowLaw"),
    (lambda: gain_margin(0.1, 0.1, 3, law=WINDOW), ParameterError,
     r"give either law= or the PD gains"),
    (lambda: jury_conditions(2, law=WindowLaw(leaky, memory=1, gains=LEAKY)), ParameterError,
     r"jury_conditions needs a law that is affine"),
]


@pytest.mark.parametrize("call, exception, message", BAD)
def test_bad_input(call, exception, message):
    with pytest.raises(exception, match=message):
        call()


def test_closed_loop_is_exported():
    assert ctlcc.closed_loop is closed_loop and ctlcc.ClosedLoop is ClosedLoop
    assert ctlcc.analysis.closed_loop is closed_loop
