"""Stability maps, delay limits, Jury conditions and gain margins of ST-PD.

Expected values come from independent routes: np.roots of the hand-derived
characteristic polynomial, Jury's second-order conditions worked by hand,
the per-RTT closed form, and the small-gain expansion of the per-slot root
locus worked out below.
"""

import numpy as np
import pytest
import sympy as sp

from ctlcc.analysis import gain_margin, jury_conditions, max_stable_delay, stability_region
from ctlcc.analysis.stability import schur_stable
from ctlcc.analysis.stpd import kd_symbol, kp_symbol, spectral_radius
from ctlcc.errors import ParameterError


def _hand_polynomial(kp, kd, m, model="per_slot"):
    if model == "per_rtt":
        return np.array([1.0, kp + kd - 1.0, -kd])
    # z^(m-1) (z - 1)^2 + (kp + kd) z - kd   (thesis eq. 4.11 denominator)
    base = np.concatenate([[1.0, -2.0, 1.0], np.zeros(m - 1)])
    return np.polyadd(base, [kp + kd, -kd])


def _hand_radius(kp, kd, m, model="per_slot"):
    return np.abs(np.roots(_hand_polynomial(kp, kd, m, model))).max()


@pytest.mark.parametrize("model", ["per_slot", "per_rtt"])
@pytest.mark.parametrize("m", [1, 2, 3, 5, 8])
def test_region_matches_per_point_roots(m, model):
    kp = np.linspace(0, 1.2, 61)
    kd = np.linspace(0, 1.2, 57)
    region = stability_region(m, kp, kd, model=model)
    assert region.shape == (61, 57) and region.dtype == bool
    rng = np.random.default_rng(m)
    checked = 0
    for i, j in zip(rng.integers(0, 61, 400), rng.integers(0, 57, 400)):
        radius = _hand_radius(kp[i], kd[j], m, model)
        if abs(radius - 1) < 1e-6:  # on the boundary: either answer is rounding
            continue
        assert region[i, j] == (radius < 1), (kp[i], kd[j])
        checked += 1
    assert checked > 300


@pytest.mark.parametrize("m", [1, 3, 8])
def test_region_agrees_with_batched_eigenvalues(m):
    kp = np.linspace(0, 1, 201)
    kd = np.linspace(0, 1, 203)
    radius = spectral_radius(kp[:, None], kd[None, :], m)
    region = stability_region(m, kp, kd)
    clear = np.abs(radius - 1) > 1e-7
    np.testing.assert_array_equal(region[clear], radius[clear] < 1)


def test_per_rtt_region_is_the_closed_form_triangle():
    # z^2 + (kp + kd - 1) z - kd, Jury by hand: |kd| < 1, P(1) = kp > 0,
    # P(-1) = 2 - kp - 2 kd > 0; independent of the BDP m.
    kp = np.linspace(0, 2.5, 101)
    kd = np.linspace(0, 1.5, 97)
    KP, KD = np.meshgrid(kp, kd, indexing="ij")
    expected = (KP > 0) & (KD < 1) & (KP + 2 * KD < 2)
    away = (np.abs(KP) > 1e-9) & (np.abs(KD - 1) > 1e-9) & (np.abs(KP + 2 * KD - 2) > 1e-9)
    for m in (9, 31, 94):
        region = stability_region(m, kp, kd, model="per_rtt")
        np.testing.assert_array_equal(region[away], expected[away])


JURY_BY_HAND = [
    # (m, conditions in kp, kd worked by hand, source)
    (1, lambda kp, kd: (kp > 0) & (kd < 2) & (kp + 2 * kd < 4),
     "z^2 + (kp+kd-2) z + 1-kd: P(1)>0, P(-1)>0, |a0|<1"),
]


@pytest.mark.parametrize("m, by_hand, source", JURY_BY_HAND)
def test_jury_conditions_by_hand(m, by_hand, source):
    KP, KD = np.meshgrid(np.linspace(0.001, 3.5, 90), np.linspace(0.001, 2.5, 80), indexing="ij")
    symbolic = _evaluate_conditions(jury_conditions(m), KP, KD)
    np.testing.assert_array_equal(symbolic, by_hand(KP, KD))


@pytest.mark.parametrize("m", [1, 2, 3])
def test_jury_conditions_match_numeric_map(m):
    kp = np.linspace(0.0005, 1.5, 150)
    kd = np.linspace(0.0005, 1.5, 140)
    KP, KD = np.meshgrid(kp, kd, indexing="ij")
    symbolic = _evaluate_conditions(jury_conditions(m), KP, KD)
    radius = spectral_radius(KP, KD, m)
    clear = np.abs(radius - 1) > 1e-6
    np.testing.assert_array_equal(symbolic[clear], radius[clear] < 1)
    np.testing.assert_array_equal(symbolic[clear], stability_region(m, kp, kd)[clear])
    assert 0.01 < symbolic.mean() < 0.99  # the map has both regions


def test_jury_conditions_are_sympy_relationals_in_the_gains():
    for condition in jury_conditions(3):
        assert isinstance(condition, sp.core.relational.Relational)
        assert condition.free_symbols <= {kp_symbol, kd_symbol}


def _evaluate_conditions(conditions, KP, KD):
    result = np.ones(KP.shape, dtype=bool)
    for condition in conditions:
        result &= np.asarray(sp.lambdify((kp_symbol, kd_symbol), condition, "numpy")(KP, KD))
    return result


@pytest.mark.parametrize("kp, kd", [(0.033, 0.368), (0.368, 0.033), (0.01, 0.05), (0.002, 0.1),
                                    (0.0, 0.3), (0.5, 0.5)])
@pytest.mark.parametrize("model", ["per_slot", "per_rtt"])
def test_max_stable_delay_by_brute_force(kp, kd, model):
    cap = 40
    got = max_stable_delay(kp, kd, model=model, m_max=cap)
    expected = 0
    for m in range(1, cap + 1):
        # kp = 0 leaves a root exactly at z = 1 (P(1) = kp), which np.roots
        # returns only to rounding: count |z| > 1 - 1e-9 as unstable there.
        if _hand_radius(kp, kd, m, model) >= 1 - 1e-9:
            break
        expected = m
    assert got == expected


def test_max_stable_delay_vectorised_and_capped():
    kp = np.array([0.033, 0.368, 0.0, 1e-4])
    kd = np.array([0.368, 0.033, 0.3, 1e-2])
    got = max_stable_delay(kp, kd, m_max=30)
    expected = [max_stable_delay(a, b, m_max=30) for a, b in zip(kp, kd)]
    np.testing.assert_array_equal(got, expected)
    assert got[2] == 0        # kp = 0: a pole stays at z = 1
    assert got[3] == 30       # stable up to the cap: reported as the cap
    assert max_stable_delay(0.3, 0.2, model="per_rtt", m_max=77) == 77


GAIN_CASES = [(0.033, 0.368, m) for m in range(1, 9)] + [
    (0.01, 0.2, 12), (0.3, 0.1, 1), (0.05, 0.05, 2), (0.001, 0.05, 30)]


@pytest.mark.parametrize("kp, kd, m", GAIN_CASES)
def test_gain_margin_crossing_equals_bisection(kp, kd, m):
    crossing = gain_margin(kp, kd, m)
    bisection = gain_margin(kp, kd, m, method="bisection")
    assert crossing == pytest.approx(bisection, rel=1e-8, abs=1e-12)
    if 0 < crossing < np.inf:
        # just inside the margin stable, just outside unstable (np.roots, hand polynomial)
        assert _hand_radius(0.999 * crossing * kp, 0.999 * crossing * kd, m) < 1
        assert _hand_radius(1.001 * crossing * kp, 1.001 * crossing * kd, m) > 1


@pytest.mark.parametrize("kp, kd", [(0.033, 0.368), (0.3, 0.1), (0.8, 0.7), (0.05, 0.0)])
def test_gain_margin_per_rtt_closed_form(kp, kd):
    # Scaled triangle of test_per_rtt_region_is_the_closed_form_triangle:
    # K kd < 1 and K (kp + 2 kd) < 2.
    expected = min(1 / kd if kd else np.inf, 2 / (kp + 2 * kd))
    for method in ("crossing", "bisection"):
        assert gain_margin(kp, kd, 94, model="per_rtt", method=method) == pytest.approx(expected, rel=1e-8)


@pytest.mark.parametrize("m", [3, 5, 12])
def test_small_gain_branches_leave_z1_inwards_iff_kd_exceeds_m_minus_1_kp(m):
    # Root locus near z = 1 (double pole of z^(m-1)(z-1)^2): with z = 1 + d,
    # d^2 (1 + (m-1) d) = -K (kp + (kp+kd) d) gives |z|^2 = 1 + K((m-1)kp - kd) + O(K^2):
    # the loop is stable for small K iff kd > (m - 1) kp, else the margin is 0.
    kd = 0.2
    for ratio, stable in ((0.5, True), (2.0, False)):
        kp = ratio * kd / (m - 1)
        margin = gain_margin(kp, kd, m)
        assert (margin > 0) == stable
        assert (gain_margin(kp, kd, m, method="bisection") > 0) == stable


def test_schur_stable_on_known_polynomials():
    # roots given, polynomial built with np.poly (independent of the recursion)
    inside = np.poly([0.9, -0.5, 0.3 + 0.8j, 0.3 - 0.8j]).real
    outside = np.poly([0.9, -0.5, 0.6 + 0.8j * 1.01, 0.6 - 0.8j * 1.01]).real
    on_circle = np.poly([1.0, 0.5]).real
    assert schur_stable(inside) and not schur_stable(outside) and not schur_stable(on_circle)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: stability_region(0, [0.1], [0.1]), r"m must be an integer >= 1"),
        (lambda: stability_region(3, [[0.1, 0.2]], [0.1]), r"kp must be a non-empty 1-D array"),
        (lambda: stability_region(3, [0.1], [-0.1]), r"kd must be in \[0, inf\)"),
        (lambda: stability_region(3, [0.1], [0.1], model="x"), r"model must be one of"),
        (lambda: max_stable_delay(0.1, 0.1, m_max=0), r"m_max must be an integer >= 1"),
        (lambda: max_stable_delay(np.nan, 0.1), r"kp must be finite"),
        (lambda: gain_margin(0.0, 0.0, 3), r"kp and kd must not both be 0"),
        (lambda: gain_margin(0.1, 0.1, 3, method="nyquist"), r"method must be one of"),
        (lambda: gain_margin(0.1, 0.1, -2), r"m must be an integer >= 1"),
        (lambda: jury_conditions(1.5), r"m must be an integer >= 1"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ParameterError, match=match):
        call()


@pytest.mark.parametrize("m", [2, 3, 5])
def test_gain_margin_matches_python_control_where_it_is_reliable(m):
    # Third route: control.margin on the open loop L(z) = N(z) / P0(z) with
    # P0 = z^(m-1)(z-1)^2, N = (kp+kd) z - kd. Its double pole at z = 1 is the
    # case of python-control issue #544: for m = 1 it returns a crossing next
    # to z = 1 (K ~ 2e-10) and for m = 8 (nominal loop unstable) a later
    # crossing (K ~ 2.57), not the first one; hence only m = 2, 3, 5 here.
    import warnings

    import control

    kp, kd = 0.033, 0.368
    base = np.concatenate([[1.0, -2.0, 1.0], np.zeros(m - 1)])
    open_loop = control.tf([kp + kd, -kd], base, dt=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gm = control.margin(open_loop)[0]
    assert gain_margin(kp, kd, m) == pytest.approx(gm, rel=1e-8)


@pytest.mark.parametrize("m", [13, 20, 40])
def test_no_scaling_of_the_swapped_gains_is_stable_beyond_m_12(m):
    # README finding: kd < (m - 1) kp for m >= 13, so small K is unstable
    # (test_small_gain_branches...), and no larger K on 1e-3..10 helps either.
    factors = np.logspace(-3, 1, 400)
    radius = np.array([_hand_radius(k * 0.033, k * 0.368, m) for k in factors])
    assert np.all(radius > 1)
    assert gain_margin(0.033, 0.368, m) == 0.0
