"""ST-PD's fuzzy supervisor (Xu (2002), §3.4.3.2, §4.3.3)."""

import csv
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ctlcc.errors import ParameterError
from ctlcc.laws import stpd
from ctlcc.laws.stpd_fuzzy import FuzzyConfig, FuzzySupervisor, default_config

DATA = Path(__file__).resolve().parents[2] / "data"
TERMS = ["ES", "S", "M", "L", "EL"]

# The ten rules as printed in thesis §3.4.3.2 (transcribed here, not taken
# from the module): the first (inverse) base drives kp, the second (direct) kd.
THESIS_RULE_TABLE = [
    ("kp", "ES", "EL"), ("kp", "S", "L"), ("kp", "M", "M"), ("kp", "L", "S"), ("kp", "EL", "ES"),
    ("kd", "ES", "ES"), ("kd", "S", "S"), ("kd", "M", "M"), ("kd", "L", "L"), ("kd", "EL", "EL"),
]

# Output maxima chosen so that no two rules can be confused (distinct, unevenly spaced).
DISTINCT = FuzzyConfig(
    bdp_universe=(1.0, 500.0),
    bdp_peaks=(2.0, 7.0, 20.0, 60.0, 250.0),
    output_universe={"kp": (0.0, 1.0), "kd": (0.0, 2.0)},
    output_maxima={"kp": (0.02, 0.05, 0.11, 0.23, 0.47), "kd": (0.03, 0.07, 0.13, 0.29, 0.61)},
)


def _read_csv(name):
    with (DATA / name).open() as handle:
        return list(csv.DictReader(handle))


def _hand_memberships(x, peaks):
    """Strong triangular partition with shoulders, written out by hand."""
    x = np.asarray(x, dtype=float)
    out = np.zeros((5,) + x.shape)
    for i, c in enumerate(peaks):
        left = peaks[i - 1] if i > 0 else None
        right = peaks[i + 1] if i < 4 else None
        rising = np.ones_like(x) if left is None else np.clip((x - left) / (c - left), 0, 1)
        falling = np.ones_like(x) if right is None else np.clip((right - x) / (right - c), 0, 1)
        out[i] = np.where(x <= c, rising, falling)
    return out


@pytest.mark.parametrize("engine", ["membership", "control"])
@pytest.mark.parametrize("gain, antecedent, consequent", THESIS_RULE_TABLE)
def test_each_rule_alone(gain, antecedent, consequent, engine):
    # At an antecedent's peak only its rule fires (membership 1, the others 0),
    # so CoM returns exactly the consequent term's maximum.
    sup = FuzzySupervisor(DISTINCT)
    bdp = DISTINCT.bdp_peaks[TERMS.index(antecedent)]
    assert sup.memberships(bdp)[TERMS.index(antecedent)] == 1.0
    kp, kd = sup.gains(bdp, engine=engine)
    value = {"kp": kp, "kd": kd}[gain]
    assert value == pytest.approx(DISTINCT.output_maxima[gain][TERMS.index(consequent)], abs=1e-15)


@pytest.mark.parametrize("gain, antecedent, consequent", THESIS_RULE_TABLE)
def test_each_rule_with_its_neighbour(gain, antecedent, consequent):
    # A quarter of the way from this peak to the next, this rule fires with
    # weight 3/4 and the next with 1/4: CoM = (3 y_this + y_next) / 4.
    i = TERMS.index(antecedent)
    j = i + 1 if i < 4 else i - 1
    peaks = DISTINCT.bdp_peaks
    bdp = peaks[i] + 0.25 * (peaks[j] - peaks[i])
    rules = dict(THESIS_RULE_TABLE_BY_GAIN[gain])
    y = DISTINCT.output_maxima[gain]
    expected = 0.75 * y[TERMS.index(consequent)] + 0.25 * y[TERMS.index(rules[TERMS[j]])]
    value = dict(zip(("kp", "kd"), FuzzySupervisor(DISTINCT).gains(bdp)))[gain]
    assert value == pytest.approx(expected, rel=1e-12)


THESIS_RULE_TABLE_BY_GAIN = {
    gain: [(a, c) for g, a, c in THESIS_RULE_TABLE if g == gain] for gain in ("kp", "kd")
}


def test_default_rule_bases_are_the_thesis_tables():
    rules = default_config().rules
    for gain, antecedent, consequent in THESIS_RULE_TABLE:
        assert rules[gain][antecedent] == consequent


def test_memberships_match_hand_partition():
    x = np.random.default_rng(1).uniform(1.0, 500.0, 2000)
    x = np.concatenate([x, DISTINCT.bdp_peaks, DISTINCT.bdp_universe])
    got = FuzzySupervisor(DISTINCT).memberships(x)
    np.testing.assert_allclose(got, _hand_memberships(x, DISTINCT.bdp_peaks), atol=1e-15)
    np.testing.assert_allclose(got.sum(axis=0), 1.0, atol=1e-15)


def test_com_is_the_weighted_mean_of_maxima():
    # CoM by definition, from hand memberships: sum_i w_i y_rule(i) / sum_i w_i.
    x = np.geomspace(1.0, 500.0, 777)
    w = _hand_memberships(x, DISTINCT.bdp_peaks)
    kp, kd = FuzzySupervisor(DISTINCT).gains(x)
    for gain, got in (("kp", kp), ("kd", kd)):
        y = np.array([DISTINCT.output_maxima[gain][TERMS.index(c)]
                      for a, c in THESIS_RULE_TABLE_BY_GAIN[gain]])
        np.testing.assert_allclose(got, (y @ w) / w.sum(axis=0), rtol=1e-13)


def test_engines_agree_on_many_bdps():
    # Faithfulness of the fast (membership) engine against skfuzzy.control.
    rng = np.random.default_rng(2024)
    sup = FuzzySupervisor()
    low, high = sup.config.bdp_universe
    x = np.concatenate([rng.uniform(low, high, 150), np.exp(rng.uniform(0, np.log(high), 250)),
                        sup.config.bdp_peaks, [low, high]])
    fast = sup.gains(x)
    reference = sup.gains(x, engine="control")
    for a, b in zip(fast, reference):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_skfuzzy_centroid_is_not_com():
    # Documented mapping: skfuzzy.control's centroid of min-clipped consequents
    # weighs a term by w(2 - w), not w. For activations 1/3 and 2/3 on unit-spaced
    # triangles with maxima 4 and 5 the centroid is 4.636 while CoM is 14/3.
    import skfuzzy as fuzz
    from skfuzzy import control as ctrl

    u = np.union1d(np.linspace(1, 1000, 50), [3, 9, 31, 94, 300])
    bdp = ctrl.Antecedent(u, "bdp")
    bdp["L"] = fuzz.trimf(u, [31, 94, 300])
    bdp["EL"] = fuzz.trapmf(u, [94, 300, 1000, 1000])
    y = np.linspace(0, 6, 61)
    out = ctrl.Consequent(y, "out", defuzzify_method="centroid")
    out["S"] = fuzz.trimf(y, [3, 4, 5])
    out["ES"] = fuzz.trimf(y, [4, 5, 6])
    sim = ctrl.ControlSystemSimulation(
        ctrl.ControlSystem([ctrl.Rule(bdp["L"], out["S"]), ctrl.Rule(bdp["EL"], out["ES"])]))
    sim.input["bdp"] = 94 + (300 - 94) * 2 / 3  # w_L = 1/3, w_EL = 2/3
    sim.compute()
    com = (4 * 1 / 3 + 5 * 2 / 3) / 1.0
    assert com == pytest.approx(14 / 3)
    assert abs(sim.output["out"] - com) > 0.02


def test_calibration_hits_the_pair_that_reproduces_the_poles():
    # Averaged over the thesis's scenarios (data/thesis_stpd_scenarios.csv), the
    # default schedule gives kp = 0.033, kd = 0.368: the §4.3.3 pair with the
    # printed values swapped, which reproduces the printed poles
    # (data/thesis_stpd_numerical_example.csv, tests/analysis/test_stpd_core.py).
    example = {row["quantity"]: float(row["value"]) for row in _read_csv("thesis_stpd_numerical_example.csv")}
    scenarios = [float(r["bdp"]) for r in _read_csv("thesis_stpd_scenarios.csv") if float(r["bdp"]) > 3]
    assert scenarios == [9.0, 31.0, 94.0]
    kp, kd = FuzzySupervisor().gains(np.array(scenarios))
    assert kp.mean() == pytest.approx(example["kd_printed"], abs=1e-12)
    assert kd.mean() == pytest.approx(example["kp_printed"], abs=1e-12)
    kp, kd = FuzzySupervisor(default_config("printed")).gains(np.array(scenarios))
    assert (kp.mean(), kd.mean()) == pytest.approx((example["kp_printed"], example["kd_printed"]), abs=1e-12)


def test_scenarios_fall_in_sensible_terms():
    # 3 (the §4.3.3 link) is ES, 9 is S, 31 is M, 94 is L, each with membership 1.
    rows = _read_csv("thesis_stpd_scenarios.csv")
    mu = FuzzySupervisor().memberships(np.array([float(r["bdp"]) for r in rows]))
    assert [TERMS[i] for i in mu.argmax(axis=0)] == ["ES", "S", "M", "L"]
    np.testing.assert_array_equal(mu.max(axis=0), 1.0)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(1.0, 1000.0), min_size=2, max_size=30))
def test_schedule_direction(values):
    # Inverse base: kp never increases with the BDP; direct base: kd never decreases.
    x = np.sort(np.array(values))
    kp, kd = FuzzySupervisor().gains(x)
    assert np.all(np.diff(kp) <= 1e-15)
    assert np.all(np.diff(kd) >= -1e-15)


def test_vectorised_shapes():
    sup = FuzzySupervisor()
    x = np.geomspace(1, 1000, 12).reshape(3, 4)
    kp, kd = sup.gains(x)
    assert kp.shape == kd.shape == (3, 4)
    flat = sup.gains(x.ravel())
    np.testing.assert_array_equal(kp.ravel(), flat[0])
    scalar = sup.gains(20.0)
    array = sup.gains(np.array([20.0]))
    assert isinstance(scalar[0], float) and isinstance(scalar[1], float)
    assert scalar == (array[0][0], array[1][0])
    assert sup.memberships(x).shape == (5, 3, 4)


def test_out_of_universe_raise_and_saturate():
    raising = FuzzySupervisor()
    with pytest.raises(ParameterError, match=r"bdp must be in the supervisor's universe \[1, 1000\] packets, got 1500"):
        raising.gains([10.0, 1500.0])
    with pytest.raises(ParameterError, match=r"got 0.5"):
        raising.gains(0.5)
    saturating = FuzzySupervisor(default_config(out_of_universe="saturate"))
    kp, kd = saturating.gains(np.array([0.2, 1.0, 1000.0, 1e6]))
    # Outside, the gains are held at the edge values, which are the ES/EL gains.
    assert kp[0] == kp[1] == saturating.config.output_maxima["kp"][4]
    assert kp[2] == kp[3] == saturating.config.output_maxima["kp"][0]
    assert kd[0] == kd[1] == saturating.config.output_maxima["kd"][0]
    assert kd[2] == kd[3] == saturating.config.output_maxima["kd"][4]


@pytest.mark.parametrize("bdp, match", [
    (0.0, r"bdp must be in \(0, inf\), got 0.0"),
    (-3.0, r"bdp must be in \(0, inf\)"),
    (np.nan, r"bdp must be finite"),
    (np.inf, r"bdp must be finite"),
    ([5.0, np.nan], r"bdp must be finite"),
])
@pytest.mark.parametrize("out_of_universe", ["raise", "saturate"])
def test_bad_bdp(bdp, match, out_of_universe):
    sup = FuzzySupervisor(default_config(out_of_universe=out_of_universe))
    with pytest.raises(ParameterError, match=match):
        sup.gains(bdp)


def _config(**changes):
    base = dict(bdp_universe=(1.0, 1000.0), bdp_peaks=(3.0, 9.0, 31.0, 94.0, 300.0),
                output_universe={"kp": (0.0, 0.1), "kd": (0.0, 1.0)},
                output_maxima={"kp": (0.01, 0.02, 0.03, 0.04, 0.05),
                               "kd": (0.1, 0.2, 0.3, 0.4, 0.5)},
                rules={"kp": {t: t for t in TERMS}, "kd": {t: t for t in TERMS}})
    base.update(changes)
    return base


@pytest.mark.parametrize("changes, match", [
    ({"bdp_peaks": (3.0, 31.0, 9.0, 94.0, 300.0)}, r"bdp_peaks must be strictly increasing"),
    ({"bdp_peaks": (3.0, 9.0, 9.0, 94.0, 300.0)}, r"bdp_peaks must be strictly increasing"),
    ({"bdp_peaks": (3.0, 9.0, 31.0, 94.0, 3000.0)}, r"bdp_peaks must lie inside the universe \[1, 1000\]"),
    ({"bdp_peaks": (0.5, 9.0, 31.0, 94.0, 300.0)}, r"bdp_peaks must lie inside the universe"),
    ({"bdp_peaks": (3.0, 9.0, 31.0, 94.0)}, r"bdp_peaks must have one value per term"),
    ({"bdp_peaks": (3.0, 9.0, np.nan, 94.0, 300.0)}, r"bdp_peaks must be finite"),
    ({"bdp_universe": (0.0, 1000.0)}, r"bdp_universe must start above 0"),
    ({"bdp_universe": (100.0, 10.0)}, r"bdp_universe must satisfy low < high"),
    ({"output_universe": {"kp": (-1.0, 0.1), "kd": (0.0, 1.0)}}, r"output_universe\['kp'\] must start at >= 0"),
    ({"output_maxima": {"kp": (0.05, 0.04, 0.03, 0.02, 0.01), "kd": (0.1, 0.2, 0.3, 0.4, 0.5)}},
     r"output_maxima\['kp'\] must be strictly increasing"),
    ({"output_maxima": {"kp": (0.01, 0.02, 0.03, 0.04, 0.5), "kd": (0.1, 0.2, 0.3, 0.4, 0.5)}},
     r"output_maxima\['kp'\] must lie inside the universe \[0, 0.1\]"),
    ({"output_maxima": {"kp": (0.01, 0.02, 0.03, 0.04, 0.05)}}, r"need an entry for each of kp, kd"),
    ({"rules": {"kp": {}, "kd": {t: t for t in TERMS}}}, r"rule base for kp is empty"),
    ({"rules": {}}, r"rule base for kp is empty"),
    ({"rules": {"kp": {t: t for t in TERMS}}}, r"rule base for kd is empty"),
    ({"rules": {"kp": {"ES": "EL"}, "kd": {t: t for t in TERMS}}},
     r"rule base for kp leaves BDP term\(s\) \['S', 'M', 'L', 'EL'\] without a rule"),
    ({"rules": {"kp": {**{t: t for t in TERMS}, "XL": "EL"}, "kd": {t: t for t in TERMS}}},
     r"rule base for kp: unknown term\(s\) in \[\('XL', 'EL'\)\]"),
    ({"rules": {"kp": {t: t for t in TERMS}, "kd": {t: t for t in TERMS}, "ki": {}}},
     r"rules: unknown gain\(s\) \['ki'\]"),
    ({"out_of_universe": "clip"}, r"out_of_universe must be one of 'raise', 'saturate'"),
])
def test_bad_config(changes, match):
    with pytest.raises(ParameterError, match=match):
        FuzzyConfig(**_config(**changes))


@pytest.mark.parametrize("args, kwargs, match", [
    ((), {"engine": "numba"}, r"engine must be one of 'membership', 'control'"),
])
def test_bad_engine(args, kwargs, match):
    with pytest.raises(ParameterError, match=match):
        FuzzySupervisor().gains(10.0, *args, **kwargs)


def test_bad_config_type_and_calibration():
    with pytest.raises(ParameterError, match=r"config must be a FuzzyConfig, a dict or None, got list"):
        FuzzySupervisor([1, 2])
    with pytest.raises(ParameterError, match=r"calibration must be one of 'poles', 'printed'"):
        default_config("average")


def test_default_file_is_the_default_config():
    from_file = FuzzySupervisor.from_file(DATA / "stpd_fuzzy_default.toml")
    assert from_file.config == default_config()
    x = np.geomspace(1, 1000, 50)
    np.testing.assert_array_equal(from_file.gains(x)[1], FuzzySupervisor().gains(x)[1])


def test_json_round_trip(tmp_path):
    path = tmp_path / "tuned.json"
    path.write_text(json.dumps(DISTINCT.to_dict()))
    assert FuzzySupervisor.from_file(path).config == DISTINCT
    assert FuzzySupervisor(DISTINCT.to_dict()).config == DISTINCT


@pytest.mark.parametrize("text, match", [
    ("calibration = \n", r"not valid TOML"),
    ("calibration = 'x'\n", r"config is missing 'bdp'"),
    ("[bdp]\nuniverse = [1.0, 10.0]\npeaks = [1, 2, 3, 4, 5]\n[kp]\nuniverse = [0, 1]\n"
     "maxima = [0.1, 0.2, 0.3, 0.4, 0.5]\n[kd]\nuniverse = [0, 1]\nmaxima = [0.1, 0.2, 0.3, 0.4, 0.5]\n",
     r"rule base for kp is empty"),
])
def test_bad_file(tmp_path, text, match):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ParameterError, match=match):
        FuzzySupervisor.from_file(path)


def test_reexport_without_circular_import():
    # In a fresh interpreter, import the fuzzy module before the law module
    # that re-exports it (every ctlcc import runs ctlcc/__init__ first).
    assert stpd.FuzzySupervisor is FuzzySupervisor
    code = ("import ctlcc.laws.stpd_fuzzy as f, ctlcc.laws.stpd as s, ctlcc.analysis.fuzzy_surface; "
            "assert s.FuzzySupervisor is f.FuzzySupervisor")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr


def test_output_memberships_peak_at_maxima():
    sup = FuzzySupervisor(DISTINCT)
    for gain in ("kp", "kd"):
        maxima = np.array(DISTINCT.output_maxima[gain])
        mu = sup.output_memberships(gain, maxima)
        np.testing.assert_array_equal(mu, np.eye(5))
    with pytest.raises(ParameterError, match=r"kp values must be in \[0, 1\]"):
        sup.output_memberships("kp", [1.5])
    with pytest.raises(ParameterError, match=r"gain must be one of 'kp', 'kd'"):
        sup.output_memberships("ki", [0.1])
