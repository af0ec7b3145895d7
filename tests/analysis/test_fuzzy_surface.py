"""Stability surfaces of the fuzzy-tuned ST-PD loop (Xu (2002), §3.4.3.2, §4.3)."""

import csv
from pathlib import Path

import numpy as np
import pytest

from ctlcc.analysis.fuzzy_surface import (
    RULE_ASSIGNMENTS,
    _spectral_radius,
    best_radius,
    compare_rule_assignments,
    diagonal_m,
    gain_surface,
    tune_breakpoints,
)
from ctlcc.analysis.stpd import stpd_loop
from ctlcc.errors import ParameterError
from ctlcc.laws.stpd_fuzzy import INVERSE_RULES, FuzzySupervisor

DATA = Path(__file__).resolve().parents[2] / "data"


def _scenarios():
    with (DATA / "thesis_stpd_scenarios.csv").open() as handle:
        return [float(row["bdp"]) for row in csv.DictReader(handle)]


def test_private_radius_matches_derived_loop_at_sampled_points():
    # Independent route: the sympy-derived loop's own poles (np.roots).
    rng = np.random.default_rng(5)
    m = np.concatenate([rng.integers(1, 13, 40), [17, 31]])
    kp = rng.uniform(0, 0.2, m.size)
    kd = rng.uniform(0, 1.0, m.size)
    direct = [stpd_loop(a, b, int(c)).spectral_radius() for a, b, c in zip(kp, kd, m)]
    np.testing.assert_allclose(_spectral_radius(kp, kd, m), direct, rtol=1e-9)


def test_surface_checked_against_direct_poles():
    sup = FuzzySupervisor()
    bdp = np.array([1.5, 3.0, 5.0, 9.0, 20.0, 31.0, 60.0, 94.0])
    m = np.array([1, 2, 3, 5, 9, 16])
    surface = sup.surface(bdp, m)
    assert surface.spectral_radius.shape == (m.size, bdp.size)
    kp, kd = sup.gains(bdp)
    np.testing.assert_array_equal(surface.kp, kp)
    for i, mi in enumerate(m):
        for j in range(bdp.size):
            loop = stpd_loop(kp[j], kd[j], int(mi))
            assert surface.spectral_radius[i, j] == pytest.approx(loop.spectral_radius(), rel=1e-9)
            assert surface.stable[i, j] == loop.is_stable()
    np.testing.assert_array_equal(surface.margin, 1 - surface.spectral_radius)
    np.testing.assert_array_equal(surface.diagonal_m, [2, 3, 5, 9, 20, 31, 60, 94])


def test_surface_contains_the_thesis_example():
    # BDP 31 fires only M, whose maxima are the calibration pair kp=0.033, kd=0.368;
    # at m = 3 that is §4.3.3's loop, whose printed poles have modulus <= 0.9042.
    with (DATA / "thesis_stpd_numerical_example.csv").open() as handle:
        rows = {r["quantity"]: r for r in csv.DictReader(handle)}
    poles = [complex(float(rows[f"pole_{i}"]["value"]), float(rows[f"pole_{i}"]["imag"] or 0))
             for i in range(1, 5)]
    surface = gain_surface([31.0], [int(rows["m"]["value"])])
    assert surface.spectral_radius[0, 0] == pytest.approx(max(abs(p) for p in poles), abs=1e-4)


def test_scenarios_are_unstable_on_the_diagonal():
    # Finding: with the thesis's rule bases and any gains averaging to the §4.3.3
    # values, the per-slot loop is unstable at the scenario BDPs 9, 31, 94.
    # Checked with the derived loop, one scenario at a time.
    bdp = [b for b in _scenarios() if b > 3]
    kp, kd = FuzzySupervisor().gains(np.array(bdp))
    for b, p, d in zip(bdp, kp, kd):
        assert not stpd_loop(p, d, int(b)).is_stable()
    # ... and no gains can be stable at all three if kd averages 0.368: over a
    # (kp, kd) grid, the largest stable kd at m = 9, 31, 94 sums to less than
    # 0.368, let alone 3 * 0.368.
    kp_grid, kd_grid = np.meshgrid(np.concatenate([[1e-7], np.geomspace(1e-5, 0.5, 9)]),
                                   np.linspace(0, 0.6, 61))
    largest = []
    for m in (9, 31, 94):
        stable = _spectral_radius(kp_grid, kd_grid, m) < 1
        largest.append(kd_grid[stable].max())
    assert sum(largest) < 0.368


def test_largest_stable_bdp_on_the_diagonal():
    bdp = np.geomspace(1, 12, 15)
    surface = gain_surface(bdp, [1])
    expected = [stpd_loop(*FuzzySupervisor().gains(b), max(1, round(b))).is_stable() for b in bdp]
    np.testing.assert_array_equal(surface.diagonal_stable, expected)
    first_unstable = bdp[np.argmin(expected)]
    assert surface.largest_stable_bdp() < first_unstable
    assert surface.largest_stable_bdp() == bdp[np.argmin(expected) - 1]


def test_thesis_assignment_against_swapped():
    # The thesis's assignment is stable wherever the swapped one is, and lower
    # at the §4.3.3 link and the scenarios 9 and 94 (31 fires M -> M in both).
    bdp = np.concatenate([np.geomspace(1, 40, 25), _scenarios()])
    comparison = compare_rule_assignments(bdp)
    thesis = comparison.radius["thesis (kp inverse, kd direct)"]
    swapped = comparison.radius["swapped (kp direct, kd inverse)"]
    assert np.all(thesis[swapped < 1] < 1)
    assert np.sum(thesis < 1) > np.sum(swapped < 1)
    scen = thesis[-4:], swapped[-4:]
    assert np.all(scen[0][[0, 1, 3]] < scen[1][[0, 1, 3]])
    assert scen[0][2] == pytest.approx(scen[1][2], rel=1e-12)
    kp, kd = comparison.gains["swapped (kp direct, kd inverse)"]
    assert np.all(np.diff(kp[:25]) >= -1e-15) and np.all(np.diff(kd[:25]) <= 1e-15)
    assert set(comparison.radius) == set(RULE_ASSIGNMENTS)


def test_best_radius_beats_a_brute_force_grid():
    # Deadbeat at m = 1: kp = kd = 1 makes z**2 + (kp+kd-2) z + (1-kd) = z**2.
    radius, kp, kd = best_radius([1, 3])
    assert radius[0] < 1e-3
    kp_grid, kd_grid = np.meshgrid(np.linspace(0.001, 0.08, 80), np.linspace(0.01, 0.6, 80))
    brute = np.min([stpd_loop(a, b, 3).spectral_radius() for a, b in
                    zip(kp_grid.ravel()[::7], kd_grid.ravel()[::7])])
    assert radius[1] <= brute + 1e-9
    assert radius[1] == pytest.approx(stpd_loop(kp[1], kd[1], 3).spectral_radius(), rel=1e-9)


def test_tuning_improves_and_reports_honestly():
    result = tune_breakpoints(bdp_range=(1.0, 4.0), target=0.9, n_points=5, maxiter=40)
    assert result.objective_after <= result.objective_before
    assert result.met == bool(np.all(result.contraction_after <= 0.9))
    np.testing.assert_allclose(result.contraction_after, result.radius_after ** result.m)
    assert result.after.config.rules == result.before.config.rules
    peaks = np.array(result.after.config.bdp_peaks)
    assert np.all(np.diff(peaks) > 0)
    # radius_after is what the tuned supervisor gives on the diagonal
    kp, kd = result.after.gains(result.bdp)
    direct = [stpd_loop(a, b, int(c)).spectral_radius() for a, b, c in zip(kp, kd, result.m)]
    np.testing.assert_allclose(result.radius_after, direct, rtol=1e-9)
    settle = result.settling_round_trips()
    np.testing.assert_allclose(settle[np.isfinite(settle)],
                               (np.log(0.02) / (result.m * np.log(result.radius_after)))[np.isfinite(settle)])


def test_tuning_with_inverse_kd_meets_target():
    # With the kd rule base inverted (what the per-slot analysis asks for),
    # fitting all breakpoints reaches a per-round-trip contraction of 0.9 on
    # BDP 3...12 from an unstable start; checked with the derived loop.
    start = FuzzySupervisor().with_config(rules={"kp": dict(INVERSE_RULES), "kd": dict(INVERSE_RULES)})
    result = tune_breakpoints(start, bdp_range=(3.0, 12.0), target=0.9, tune="both",
                              n_points=6, maxiter=400)
    assert np.any(result.contraction_before > 1.0)
    assert result.met
    kp, kd = result.after.gains(result.bdp)
    for a, b, m in zip(kp, kd, result.m):
        assert stpd_loop(a, b, int(m)).spectral_radius() ** m <= 0.9


def test_diagonal_m():
    np.testing.assert_array_equal(diagonal_m([0.2, 1.49, 1.51, 94.0]), [1, 1, 2, 94])


@pytest.mark.parametrize("call, match", [
    (lambda: gain_surface([10.0], [0]), r"m must be an integer >= 1, got 0"),
    (lambda: gain_surface([10.0], [2.5]), r"m must be an integer >= 1, got 2.5"),
    (lambda: gain_surface([], [3]), r"bdp must be a non-empty 1-d grid"),
    (lambda: gain_surface([[10.0]], [3]), r"bdp must be a non-empty 1-d grid"),
    (lambda: gain_surface([-1.0], [3]), r"bdp must be in \(0, inf\)"),
    (lambda: gain_surface([5000.0], [3]), r"bdp must be in the supervisor's universe"),
    (lambda: tune_breakpoints(tune="rules"), r"tune must be one of 'input', 'output', 'both'"),
    (lambda: tune_breakpoints(per="rtt"), r"per must be one of 'slot', 'round_trip'"),
    (lambda: tune_breakpoints(target=1.0), r"target must be in \(0, 1\)"),
    (lambda: tune_breakpoints(bdp_range=(0.5, 10)), r"bdp_range must satisfy 1 <= low <= high <= 1000"),
    (lambda: tune_breakpoints(bdp_range=(10, 5)), r"bdp_range must satisfy"),
    (lambda: tune_breakpoints(n_points=0), r"n_points must be an integer >= 1"),
    (lambda: tune_breakpoints(penalty=-1), r"penalty must be in \(0, inf\)"),
    (lambda: tune_breakpoints(restarts=0), r"restarts must be an integer >= 1"),
    (lambda: diagonal_m([0.0]), r"bdp must be in \(0, inf\)"),
])
def test_bad_input(call, match):
    with pytest.raises(ParameterError, match=match):
        call()


def test_control_reasoning_behind_the_rule_assignment():
    # The reasons given in ctlcc.laws.stpd_fuzzy: as the delay m grows, the
    # best-damped gains both fall (kd roughly like 1/m, kp faster), and their
    # ratio kd/kp grows. Checked on the per-slot loop's optimum per m.
    m = np.array([2, 3, 5, 9])
    radius, kp, kd = best_radius(m)
    assert np.all(np.diff(kp) < 0) and np.all(np.diff(kd) < 0)
    assert np.all(np.diff(kd / kp) > 0)
    assert np.all(np.diff(kp * m) < 0)          # kp falls faster than 1/m
    assert np.ptp(kd * m) < 0.5 * np.mean(kd * m)  # kd roughly like 1/m
    for r, a, b, mi in zip(radius, kp, kd, m):
        assert r == pytest.approx(stpd_loop(a, b, int(mi)).spectral_radius(), rel=1e-9)
