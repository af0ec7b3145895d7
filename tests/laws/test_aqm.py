"""RED and PI AQM laws (ctlcc.laws.aqm) against independent routes.

Expected values come from the papers' formulas evaluated by hand or by a
second algorithm: repeated EWMA steps for the idle correction, an exact
enumeration of the inter-drop distribution (Floyd & Jacobson 1993 §7:
uniform), a sympy bilinear transform for the PI coefficients, and a
Monte-Carlo count over seeded draws with its binomial standard error.
"""

import math
import warnings

import numba
import numpy as np
import pytest
import sympy as sp

from ctlcc import _data
from ctlcc.errors import ParameterError
from ctlcc.laws import aqm
from ctlcc.laws.aqm import (ACCEPT, DROP, EARLY, FORCED, MARK, PiParams, RedParams,
                            UnstablePiWarning)


# --------------------------------------------------------------------------- RED
def test_average_idle_correction_equals_repeated_steps():
    """(1-w)^(m+1) avg + w q == m empty-queue steps then one EWMA step (F&J §4)."""
    w, avg, q = 0.002, 37.0, 12.0
    for m in (0, 1, 5, 40):
        expected = avg
        for _ in range(m):
            expected = (1 - w) * expected   # the idle link "sees" an empty queue
        expected = (1 - w) * expected + w * q
        assert aqm.red_average(avg, q, w, idle_packets=m) == pytest.approx(expected, rel=1e-13)


# (average, min, max, max_p, gentle, expected, source)
PROBABILITY_CASES = [
    (4.9, 5, 15, 0.1, False, 0.0, "F&J §4: below min_th"),
    (5.0, 5, 15, 0.1, False, 0.0, "ramp starts at 0"),
    (10.0, 5, 15, 0.1, False, 0.05, "midpoint: max_p/2"),
    (14.999, 5, 15, 0.1, False, 0.1 * 9.999 / 10, "just below max_th"),
    (15.0, 5, 15, 0.1, False, 1.0, "F&J: every packet above max_th"),
    (15.0, 5, 15, 0.1, True, 0.1, "gentle: continuous at max_th"),
    (22.5, 5, 15, 0.1, True, 0.1 + 0.9 * 0.5, "gentle: halfway to 2 max_th"),
    (30.0, 5, 15, 0.1, True, 1.0, "gentle: 1 at 2 max_th"),
    (45.0, 5, 15, 0.1, True, 1.0, "gentle: 1 beyond"),
]


@pytest.mark.parametrize("avg, low, high, pmax, gentle, expected, source", PROBABILITY_CASES)
def test_drop_curve(avg, low, high, pmax, gentle, expected, source):
    assert aqm.red_probability(avg, low, high, pmax, gentle) == pytest.approx(expected, abs=1e-15)
    assert aqm.red_probability_core(avg, float(low), float(high), pmax, gentle) == \
        pytest.approx(expected, abs=1e-15)
    assert numba.njit(aqm.red_probability_core)(avg, float(low), float(high), pmax, gentle) == \
        pytest.approx(expected, abs=1e-15)


def test_drop_curve_vector_matches_scalar_core():
    avg = np.linspace(0.0, 50.0, 501)
    for gentle in (False, True):
        vector = aqm.red_probability(avg, 5.0, 15.0, 0.1, gentle)
        scalar = [aqm.red_probability_core(x, 5.0, 15.0, 0.1, gentle) for x in avg]
        np.testing.assert_allclose(vector, scalar, rtol=0, atol=1e-15)


def test_ramp_slope_is_l_red_symbolically():
    q, lo, hi, pm = sp.symbols("q min_th max_th max_p", positive=True)
    slope = sp.diff(aqm.red_ramp_core(q, lo, hi, pm), q)
    assert sp.simplify(slope - pm / (hi - lo)) == 0
    assert RedParams(5, 15, 0.1).slope == pytest.approx(0.01)


def _interdrop_distribution(p_b, wait, n_max=400):
    """P(X = n): the n-th packet after a drop is the next one dropped.

    Enumerated with the ns-3 counting red_arrival_core uses (count
    incremented before the test, reset to 0 by a drop).
    """
    alive, out = 1.0, []
    for n in range(1, n_max + 1):
        p_a = aqm.red_count_probability_core(p_b, float(n), wait)
        out.append(alive * p_a)
        alive *= 1.0 - p_a
    return np.array(out)


@pytest.mark.parametrize("p_b", [0.1, 0.05, 0.02])
def test_interdrop_spacing_is_uniform(p_b):
    """F&J §7: p_a = p_b/(1 - count p_b) spreads drops uniformly; "wait" over [1/p_b, 2/p_b)."""
    k = round(1 / p_b)
    fj = _interdrop_distribution(p_b, wait=False)
    # count starts at 1 after a drop: X uniform on {1, ..., 1/p_b - 1}
    np.testing.assert_allclose(fj[:k - 1], 1.0 / (k - 1), rtol=1e-9)
    assert fj[k - 1:].sum() == pytest.approx(0.0, abs=1e-12)
    wait = _interdrop_distribution(p_b, wait=True)
    assert wait[:k - 1].sum() == 0.0
    np.testing.assert_allclose(wait[k - 1:2 * k - 1], p_b, rtol=1e-9)
    assert wait.sum() == pytest.approx(1.0, abs=1e-12)


_HAND_SPACING = [
    # F&J: X uniform on 1..9 -> E[X] = 5
    (0.1, "count", 5.0),
    # F&J, 1/p_b not whole: p_a = 3/7, 3/4, 1 -> P(X > 0, 1, 2) = 1, 4/7, 1/7 -> 12/7
    (0.3, "count", 12.0 / 7.0),
    # ns-3 Wait: none before packet 10, then P(X > n) = 2 - (n + 1)/10, n = 10..18 -> 10 + 4.5
    (0.1, "wait", 14.5),
    # Wait, p_b = 0.6: p_a(1) = 0, p_a(2) = 0.6/0.8, p_a(3) = 1 -> 1 + 1 + 1/4
    (0.6, "wait", 2.25),
    (0.25, "none", 4.0),
    (1.0, "count", 1.0),
    (1.0, "wait", 1.0),
]


@pytest.mark.parametrize("p_b, spacing, mean_gap", _HAND_SPACING)
def test_spacing_rate_by_hand(p_b, spacing, mean_gap):
    """1 / E[packets between drops], E[X] derived by hand from the p_a rule."""
    assert aqm.red_spacing_rate(p_b, spacing) == pytest.approx(1.0 / mean_gap, rel=1e-12)


@pytest.mark.parametrize("p_b, spacing, mean_gap", _HAND_SPACING)
def test_spacing_rate_core_by_hand(p_b, spacing, mean_gap):
    """The scalar core (plain Python, as the fluid loop compiles it) against the same hand values."""
    code = aqm.RED_SPACINGS.index(spacing)
    assert aqm.red_spacing_rate_core(p_b, code) == pytest.approx(1.0 / mean_gap, rel=1e-12)


def test_red_map_is_one_law_in_every_form():
    """RED's curve and spacing give the same bits as the plain-Python cores, the public arrays,
    the fluid model's numpy map (Red.probability) and the compiled fluid loop's map
    (_fluid_jit._red_map): one arithmetic, not copies that could drift apart."""
    from ctlcc.sim import _fluid_jit, fluid

    low, high, pmax = 5.0, 15.0, 0.1
    # thresholds, both ramps' ends, a tie at 2 max_th, and points in between
    avg = np.unique(np.concatenate([[0.0, low, high, 2 * high, 1e6],
                                    np.linspace(0.0, 3 * high, 451)]))
    for gentle in (False, True):
        curve = [aqm.red_probability_core(a, low, high, pmax, gentle) for a in avg]
        np.testing.assert_array_equal(aqm.red_probability(avg, low, high, pmax, gentle), curve)
        for code, spacing in enumerate(aqm.RED_SPACINGS):
            expected = np.array([aqm.red_spacing_rate_core(p, code) for p in curve])
            red = fluid.Red(low, high, pmax, gentle=gentle, spacing=spacing)
            np.testing.assert_array_equal(red.probability(avg), expected)
            np.testing.assert_array_equal(
                [_fluid_jit._red_map(a, low, high, pmax, gentle, code) for a in avg], expected)
            np.testing.assert_array_equal(aqm.red_spacing_rate(np.array(curve), spacing),
                                          expected)


@pytest.mark.parametrize("wait", [False, True])
def test_spacing_rate_matches_the_enumerated_spacing(wait):
    """The closed form against E[X] summed over the enumerated law of X (4 digits of p_b)."""
    spacing = "wait" if wait else "count"
    for p_b in (0.0042, 0.013, 0.05, 0.07, 0.1, 0.17, 0.3, 0.45, 0.5, 0.83):
        law = _interdrop_distribution(p_b, wait, n_max=2000)
        assert law.sum() == pytest.approx(1.0, abs=1e-12)
        mean_gap = float(np.sum(np.arange(1, law.size + 1) * law))
        assert aqm.red_spacing_rate(p_b, spacing) == pytest.approx(1.0 / mean_gap, rel=1e-9)
    np.testing.assert_allclose(aqm.red_spacing_rate(np.array([0.0, 0.1]), spacing),
                               [0.0, 1.0 / (5.0 if not wait else 14.5)], rtol=1e-12)


def test_arrival_drop_rate_matches_uniform_spacing():
    """Seeded Monte Carlo: avg held in the ramp, early drops at 1/E[X] (binomial 4 SE)."""
    rng = np.random.default_rng(7)
    min_th, max_th, max_p = 5.0, 15.0, 0.1
    q = 10.0                      # avg stays 10 (weight ~ 0): p_b = 0.05, X uniform on 1..19
    avg, count, old = q, 0, 1
    n, drops = 200_000, 0
    for _ in range(n):
        verdict, avg, count, old = aqm.red_arrival_core(avg, count, old, q, 0.0, rng.random(),
                                                        min_th, max_th, max_p, 1e-12, False,
                                                        False)
        drops += verdict == EARLY
    rate = 1.0 / 10.0             # mean of uniform {1..19}
    se = math.sqrt(rate * (1 - rate) / n)
    assert abs(drops / n - rate) < 4 * se


def test_arrival_rules_of_ns3_red():
    kw = dict(min_th=5.0, max_th=15.0, max_p=0.1, weight=1.0, gentle=False, wait=False)
    args = lambda avg, count, old, q, u: (avg, count, old, q, 0.0, u, *kw.values())  # noqa: E731
    # avg crosses min_th: count := 1, old := 1, no drop even with u = 0
    assert aqm.red_arrival_core(*args(0.0, 7, 0, 8.0, 0.0)) == (ACCEPT, 8.0, 1, 1)
    # then u <= p_a drops early and resets count to 0
    verdict, avg, count, old = aqm.red_arrival_core(*args(8.0, 1, 1, 8.0, 0.0))
    assert (verdict, count, old) == (EARLY, 0, 1)
    # at most one packet queued: never an early drop (ns-2/ns-3's qlen > 1)
    assert aqm.red_arrival_core(*args(8.0, 3, 1, 1.0, 0.0))[0] == ACCEPT
    # at or above max_th: forced, count not reset
    assert aqm.red_arrival_core(*args(20.0, 3, 1, 20.0, 0.99)) == (FORCED, 20.0, 4, 1)
    # below min_th: old := 0
    assert aqm.red_arrival_core(*args(2.0, 3, 1, 2.0, 0.0))[3] == 0


# The "no drop while at most min_queue packets wait" rule (ns-2/ns-3: min_queue = 1; Floyd
# & Jacobson's pseudo-code and Misra et al.'s model: none).  Expected verdicts follow from
# the rule's definition: with the average above max_th, an arrival is a forced drop exactly
# when the rule lets RED act, i.e. when the waiting queue exceeds min_queue (or always,
# without the rule).
_ABOVE_MAX = dict(min_th=5.0, max_th=15.0, max_p=0.1, weight=1e-12, gentle=False, wait=False)


def _verdict_above_max(queue, min_queue):
    # avg 20 >= max_th = 15 stays 20 (weight ~ 0); count 3, old 1; u = 0.99
    args = (20.0, 3, 1, float(queue), 0.0, 0.99, *_ABOVE_MAX.values())
    if min_queue == "default":
        return aqm.red_arrival_core(*args)[0]
    return aqm.red_arrival_core(*args, min_queue)[0]


@pytest.mark.parametrize("queue, min_queue, expected", [
    (1, 1.0, ACCEPT),                       # ns-3: one packet waiting, no drop at any avg
    (1, "default", ACCEPT),                 # the default is ns-3's rule
    (2, 1.0, FORCED),
    (0, 1.0, ACCEPT),
    (1, aqm.RED_NO_MIN_QUEUE, FORCED),      # no rule: avg >= max_th drops at queue 1 ...
    (0, aqm.RED_NO_MIN_QUEUE, FORCED),      # ... and on an empty queue
    (1, 0.0, FORCED),                       # min_queue 0: only an empty queue is spared
    (0, 0.0, ACCEPT),
    (3, 3.0, ACCEPT),
    (4, 3.0, FORCED),
])
def test_min_queue_rule_decides_at_the_boundary(queue, min_queue, expected):
    assert _verdict_above_max(queue, min_queue) == expected


def test_min_queue_rule_in_the_ramp():
    """avg in (min_th, max_th), old = 1, u = 0: an early drop iff the rule lets RED act."""
    args = lambda q: (8.0, 1, 1, q, 0.0, 0.0, 5.0, 15.0, 0.1, 1e-12, False, False)  # noqa: E731
    assert aqm.red_arrival_core(*args(1.0), 1.0)[0] == ACCEPT
    assert aqm.red_arrival_core(*args(1.0), aqm.RED_NO_MIN_QUEUE)[0] == EARLY
    # a refusal by the rule is ns-3's "else" branch: old := 0, so the next arrival with
    # the rule satisfied only re-arms (count := 1) and cannot drop
    _, avg, count, old = aqm.red_arrival_core(*args(1.0), 1.0)
    assert old == 0
    assert aqm.red_arrival_core(avg, count, old, 8.0, 0.0, 0.0, 5.0, 15.0, 0.1, 1e-12, False,
                                False, 1.0) == (ACCEPT, pytest.approx(8.0), 1, 1)


def test_gate_core_reads_the_same_for_numbers_and_arrays():
    """The fluid model's Red (arrays) and the packet engine (numbers) share red_gate_core."""
    queue = np.array([0.0, 0.5, 1.0, 1.5, 2.0])
    assert aqm.red_gate_core(queue, 1.0).tolist() == [False, False, False, True, True]
    assert aqm.red_gate_core(queue, aqm.RED_NO_MIN_QUEUE).all()
    assert [aqm.red_gate_core(q, 1.0) for q in queue.tolist()] == [False, False, False, True,
                                                                     True]


def test_red_params_min_queue_default_and_none():
    assert RedParams(5, 15, 0.1).min_queue == 1.0 == aqm.RED_NS3_MIN_QUEUE
    assert RedParams(5, 15, 0.1).gate_threshold == 1.0
    assert RedParams(5, 15, 0.1, min_queue=None).gate_threshold == aqm.RED_NO_MIN_QUEUE < 0
    assert RedParams(5, 15, 0.1, min_queue=2).min_queue == 2.0


def test_arrival_core_compiles_identically():
    fast = numba.njit(aqm.red_arrival_core)
    rng = np.random.default_rng(3)
    state_py = state_nb = (0.0, 0, 0)
    for _ in range(2000):
        q, u = float(rng.integers(0, 40)), rng.random()
        a = aqm.red_arrival_core(*state_py, q, 0.0, u, 5.0, 15.0, 0.1, 0.01, True, True)
        b = fast(*state_nb, q, 0.0, u, 5.0, 15.0, 0.1, 0.01, True, True)
        assert a == b
        state_py, state_nb = a[1:], b[1:]


@pytest.mark.parametrize("verdict, ecn, hard, expected", [
    (ACCEPT, True, True, 0), (EARLY, False, True, DROP), (EARLY, True, True, MARK),
    (FORCED, True, True, DROP), (FORCED, True, False, MARK), (FORCED, False, False, DROP),
])
def test_ecn_actions(verdict, ecn, hard, expected):
    """ns-3 RedQueueDisc: UseEcn marks early verdicts; UseHardDrop drops forced ones."""
    assert aqm.red_action_core(verdict, ecn, hard) == expected


def test_idle_packets():
    assert aqm.red_idle_packets_core(0.0105, 1000.0) == 10.0
    assert aqm.red_idle_packets_core(0.0, 1000.0) == 0.0


def test_averaging_pole_is_the_ewma_time_constant():
    """K = -C ln(1-w): one packet-time step of the EWMA is exp(-K/C) (Hollot et al. 2001)."""
    w, c = 0.002, 3750.0
    pole = aqm.red_averaging_pole(w, c)
    assert math.exp(-pole / c) == pytest.approx(1 - w, rel=1e-14)


# --------------------------------------------------------------------------- PI
def test_pi_coefficients_are_the_tustin_transform():
    """a, b from sympy's bilinear substitution s = 2 fs (z - 1)/(z + 1) of K (s/z0 + 1)/s."""
    s, zz = sp.symbols("s zz")
    gain, zero, fs = sp.Rational(964, 10**8), sp.Rational(53, 100), sp.Integer(160)
    controller = gain * (s / zero + 1) / s
    discrete = sp.cancel(controller.subs(s, 2 * fs * (zz - 1) / (zz + 1)))
    num, den = sp.fraction(discrete)
    num, den = sp.Poly(num, zz), sp.Poly(den, zz)
    lead = den.LC()                    # den = lead (zz - 1)
    a_exact = float(num.all_coeffs()[0] / lead)
    b_exact = float(-num.all_coeffs()[1] / lead)
    assert sp.Poly(den / lead, zz).all_coeffs() == [1, -1]
    a, b = aqm.pi_coefficients(9.64e-6, 0.53, 160.0)
    assert a == pytest.approx(a_exact, rel=1e-12)
    assert b == pytest.approx(b_exact, rel=1e-12)


def test_pi_design_example():
    """Hollot et al. (2002) §V's example: z = 2N/(R^2 C), crossover at z.

    K_PI = 9.64e-6 and z = 0.53 rad/s are the design values as we recall
    them from the paper's example (its text was not at hand in this
    session); a = 1.822e-5, b = 1.816e-5 at 160 Hz follow from them by the
    Tustin transform (test above).  Tolerance: half a unit of the printed
    last digit.  The reading that reproduces K_PI is R = 0.2467 s, the
    round trip as printed to four digits (data/hollot2001_operating_point.csv);
    the unrounded R0 = q0/C + Tp = 0.24667 s gives 9.649e-6, 0.1 % higher
    (outside the half-digit tolerance): both are kept here.
    """
    table = {row["quantity"]: float(row["value"]) for row in
             _data.read_csv("hollot2001_operating_point.csv")}
    printed_round_trip = table["round_trip"]
    assert printed_round_trip == 0.2467
    gain, zero = aqm.pi_design(60, 3750.0, printed_round_trip)
    assert gain == pytest.approx(9.64e-6, abs=0.005e-6)
    assert zero == pytest.approx(0.53, abs=0.005)
    exact_gain, _ = aqm.pi_design(60, 3750.0, 175.0 / 3750.0 + 0.2)
    assert exact_gain == pytest.approx(9.649e-6, abs=0.0005e-6)
    a, b = aqm.pi_coefficients(9.64e-6, 0.53, 160.0)
    assert (round(a, 8), round(b, 8)) == (1.822e-5, 1.816e-5)


def test_pi_design_crossover_has_unit_gain():
    """|L(j w_g)| = 1 for L = K (RC)^3/(2N)^2 e^{-sR}/(s (sR + 1)) at the designed K."""
    n, c, r, wg = 60.0, 3750.0, 0.2467, 0.3
    gain, zero = aqm.pi_design(n, c, r, crossover=wg)
    s = 1j * wg
    plant = (c * c / (2 * n)) * np.exp(-s * r) / ((s + 2 * n / (r * r * c)) * (s + 1 / r))
    controller = gain * (s / zero + 1) / s
    assert abs(controller * plant) == pytest.approx(1.0, rel=1e-12)


def test_pi_update_steps_and_clips():
    pi = PiParams(2e-4, 1e-4, 100.0, 100.0)
    # by hand: 0.01 + 2e-4 * (150 - 100) - 1e-4 * (140 - 100) = 0.016
    assert aqm.pi_update(0.01, 150.0, 140.0, pi) == pytest.approx(0.016, rel=1e-12)
    assert aqm.pi_update(0.0, 50.0, 50.0, pi) == 0.0       # clipped at 0
    assert aqm.pi_update(0.9999, 1e6, 0.0, pi) == 1.0      # clipped at 1
    assert numba.njit(aqm.pi_update_core)(0.01, 150.0, 140.0, 100.0, 2e-4, 1e-4) == \
        pytest.approx(0.016, rel=1e-12)


def test_pi_holds_a_constant_queue_error_as_a_ramp():
    """An integrator: e(k) = e constant gives p(k) = p(0) + k (a - b) e."""
    pi = PiParams(3e-5, 1e-5, 100.0, 100.0)
    p = 0.0
    for _ in range(50):
        p = aqm.pi_update(p, 110.0, 110.0, pi)
    assert p == pytest.approx(50 * 2e-5 * 10.0, rel=1e-10)


def test_unstable_pi_gains_warn_but_are_allowed():
    with pytest.warns(UnstablePiWarning, match="positive feedback"):
        PiParams(-1e-5, -2e-5, 100.0, 160.0)
    with pytest.warns(UnstablePiWarning, match="outside the unit circle"):
        PiParams(1e-5, 2e-5, 100.0, 160.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        PiParams(1.822e-5, 1.816e-5, 175.0, 160.0)


BAD_INPUT = [
    (lambda: RedParams(15, 5, 0.1), ParameterError, r"min_threshold must be < max_threshold"),
    (lambda: RedParams(5, 5, 0.1), ParameterError, r"min_threshold must be < max_threshold"),
    (lambda: RedParams(5, 15, 0.0), ParameterError, r"max_probability must be in \(0, 1\]"),
    (lambda: RedParams(5, 15, 1.01), ParameterError, r"max_probability must be in \(0, 1\]"),
    (lambda: RedParams(-1, 15, 0.1), ParameterError, r"min_threshold must be"),
    (lambda: RedParams(5, 15, 0.1, weight=0.0), ParameterError, r"weight must be in \(0, 1\]"),
    (lambda: RedParams(5, 15, 0.1, gentle="yes"), ParameterError, r"gentle"),
    (lambda: RedParams(5, 15, 0.1, min_queue=-1), ParameterError,
     r"min_queue must be in \[0, inf\) or None \(no such rule\), got -1\.0"),
    (lambda: RedParams(5, 15, 0.1, min_queue=float("inf")), ParameterError,
     r"min_queue must be in \[0, inf\) or None \(no such rule\), got inf"),
    (lambda: RedParams(5, 15, 0.1, min_queue=float("nan")), ParameterError,
     r"min_queue must be in \[0, inf\) or None \(no such rule\), got nan"),
    (lambda: RedParams(5, 15, 0.1, min_queue="1"), ParameterError,
     r"min_queue must be in \[0, inf\) or None \(no such rule\), got '1'"),
    (lambda: RedParams(5, 15, 0.1, min_queue=True), ParameterError,
     r"min_queue must be in \[0, inf\) or None \(no such rule\), got a boolean True"),
    (lambda: aqm.red_probability(10.0, 15.0, 5.0, 0.1), ParameterError, r"min_threshold"),
    (lambda: aqm.red_probability(-1.0, 5.0, 15.0, 0.1), ParameterError, r"average"),
    (lambda: aqm.red_count_probability(1.5, 3), ParameterError, r"p_b must be in \[0, 1\]"),
    (lambda: aqm.red_spacing_rate(1.5), ParameterError, r"p_b must be in \[0, 1\]"),
    (lambda: aqm.red_spacing_rate(0.1, "fj"), ParameterError,
     r"spacing must be one of 'none', 'count', 'wait'; got 'fj'"),
    (lambda: aqm.red_averaging_pole(1.0, 100.0), ParameterError, r"weight must be in \(0, 1\)"),
    (lambda: PiParams("a", 1e-5, 100.0, 160.0), ParameterError, r"a must be a real number"),
    (lambda: PiParams(float("nan"), 1e-5, 100.0, 160.0), ParameterError, r"a must be finite"),
    (lambda: PiParams(2e-5, 1e-5, -1.0, 160.0), ParameterError, r"reference must be"),
    (lambda: PiParams(2e-5, 1e-5, 100.0, 0.0), ParameterError, r"sampling_frequency must be"),
    (lambda: aqm.pi_update(1.5, 10.0, 10.0, PiParams(2e-5, 1e-5, 100.0, 160.0)),
     ParameterError, r"p_previous must be in \[0, 1\]"),
    (lambda: aqm.pi_update(0.1, 10.0, 10.0, (2e-5, 1e-5)), ParameterError, r"params must be"),
    (lambda: aqm.pi_design(0, 3750.0, 0.25), ParameterError, r"n_flows must be"),
    (lambda: aqm.pi_coefficients(1e-5, -0.5, 160.0), ParameterError, r"zero must be"),
]


@pytest.mark.parametrize("call, exception, match", BAD_INPUT)
def test_bad_input(call, exception, match):
    with pytest.raises(exception, match=match):
        call()
