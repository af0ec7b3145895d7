"""Primo's Algorithm 1 (Chatté, Ducourthial & Niculescu (2006), §III)."""

import numpy as np
import pytest
import sympy as sp

from ctlcc.errors import ParameterError
from ctlcc.laws import primo


def _algorithm_1_by_hand(old_rate, rate, rcv_rate, dftt_d, ftt_ref, p):
    """Line-by-line transcription of Algorithm 1 (independent of the package)."""
    new_rate = rate
    if dftt_d >= p.TH_str * ftt_ref:
        new_rate = old_rate - p.W1 * (old_rate - p.F_str * rcv_rate)
    elif dftt_d >= p.TH_mod * ftt_ref:
        new_rate = old_rate - p.W1 * (old_rate - p.F_mod * rcv_rate)
    elif dftt_d < p.TH_rel * ftt_ref:
        new_rate = old_rate - p.W1 * (old_rate - p.F_rel * rcv_rate)
    return p.W2 * rate + (1 - p.W2) * new_rate


def test_next_rate_matches_transcription_on_random_inputs():
    rng = np.random.default_rng(7)
    params = primo.PrimoParams()
    n = 2000
    old, rate, rcv = rng.uniform(10, 200, (3, n))
    ftt_ref = rng.uniform(0.001, 0.1, n)
    dftt = ftt_ref * rng.uniform(0, 0.5, n)
    expected = [_algorithm_1_by_hand(*args, params) for args in zip(old, rate, rcv, dftt, ftt_ref)]
    np.testing.assert_allclose(primo.next_rate(old, rate, rcv, dftt, ftt_ref, params), expected)
    assert set(primo.regime(dftt, ftt_ref)) == set(primo.REGIMES)


def test_thresholds_are_inclusive_as_printed():
    # ">= TH_str", ">= TH_mod", "< TH_rel": the boundaries belong to the upper regimes.
    p = primo.PrimoParams(TH_str=0.5, TH_mod=0.25, TH_rel=0.125)  # exact binary fractions
    assert primo.regime(0.5, 1.0, p) == "strong"
    assert primo.regime(0.25, 1.0, p) == "moderate"
    assert primo.regime(0.125, 1.0, p) == "hold"


def test_fixed_point_of_each_regime_is_F_times_reception():
    # With old_rate = rate = x and rcv_rate = c constant, x* solves x = update(x, x, c).
    x, c, F, W1, W2 = sp.symbols("x c F W1 W2", positive=True)
    fixed = sp.solve(sp.Eq(x, primo.regime_update(x, x, c, F, W1, W2)), x)
    assert fixed == [F * c]


def test_hold_leaves_rate_unchanged():
    assert primo.next_rate(50.0, 80.0, 10.0, 0.16, 1.0) == 80.0


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"W1": 0.0}, r"W1 must be in \(0, 1\)"),
        ({"W2": 1.0}, r"W2 must be in \(0, 1\)"),
        ({"F_str": 0.995}, "F_str must satisfy 0 < F_str < F_mod < 1 < F_rel"),
        ({"F_rel": 1.0}, "F_rel must satisfy"),
        ({"F_str": -0.1}, r"F_str must be in \(0, inf\)"),
        ({"TH_rel": 0.2}, "0 <= TH_rel <= TH_mod <= TH_str"),
        ({"TH_mod": -0.1}, r"TH_mod must be in \[0, inf\)"),
        ({"tau": 0.0}, r"tau must be in \(0, inf\)"),
    ],
)
def test_bad_parameters(kwargs, match):
    with pytest.raises(ParameterError, match=match):
        primo.PrimoParams(**kwargs)


@pytest.mark.parametrize(
    "args, match",
    [
        ((-1.0, 1.0, 1.0, 0.0, 1.0), "old_rate"),
        ((1.0, 1.0, 1.0, -0.1, 1.0), "dftt_d"),
        ((1.0, 1.0, 1.0, 0.0, 0.0), "ftt_ref"),
    ],
)
def test_bad_inputs(args, match):
    with pytest.raises(ParameterError, match=match):
        primo.next_rate(*args)
