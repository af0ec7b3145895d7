"""STTP's alpha:beta RTT scaling law (Wade, Kara & Dew (2000), §III-B.3)."""

import numpy as np
import pytest
import sympy as sp

from ctlcc.errors import ParameterError
from ctlcc.laws import sttp


def test_worked_example_14_888():
    """Wade, Kara & Dew (2000), §III-B.3: (0.9*16) + (0.1*(16*0.305)) = 14.888, bucket of 15."""
    value = sttp.rtt_scaled(16, 0.305, 1.0, 0.9, 0.1)
    assert round(value, 3) == 14.888
    assert round(value) == 15


def test_unrounded_ratio_gives_14_889():
    """The RTTs printed (0.078 s probe, 0.255 s) give 0.30588, hence 14.889."""
    assert round(sttp.rtt_scaled(16, 0.078, 0.255, 0.9, 0.1), 3) == 14.889


def test_rule_is_linear_and_symbolic():
    x, a, r = sp.symbols("x alpha r", positive=True)
    expr = sttp.rtt_scaled(x, r, 1, a, 1 - a)
    assert sp.simplify(expr - x * (a + (1 - a) * r)) == 0


def test_dead_band_of_five_percent():
    state = sttp.BucketState(16.0, 8.0, 10.0)
    assert sttp.scale_bucket(state, 0.100, 0.104) is state
    scaled = sttp.scale_bucket(state, 0.078, 0.255)
    assert scaled.sigma == pytest.approx(sttp.rtt_scaled(16.0, 0.078, 0.255, 0.9, 0.1))
    assert scaled.tokens == pytest.approx(sttp.rtt_scaled(10.0, 0.078, 0.255, 0.9, 0.1))


def test_rtt_drop_grows_the_bucket():
    """§III-B.3: RTT 1.630 -> 0.938 s, STTP increases its flow."""
    assert sttp.rtt_scaled(16.0, 1.630, 0.938, 0.9, 0.1) > 16.0


def test_vectorised():
    out = sttp.rtt_scaled(np.array([16.0, 8.0]), 0.1, np.array([0.2, 0.05]), 0.5, 0.5)
    np.testing.assert_allclose(out, [12.0, 12.0])


@pytest.mark.parametrize(
    "args, match",
    [
        ((16, 0.1, 0.2, 0.9, 0.2), r"alpha \+ beta must equal 1"),
        ((16, 0.1, 0.0, 0.9, 0.1), r"new_rtt must be in \(0, inf\)"),
        ((16, 0.1, 0.2, -0.1, 1.1), r"alpha must be in \[0, 1\]"),
    ],
)
def test_bad_input(args, match):
    with pytest.raises(ParameterError, match=match):
        sttp.rtt_scaled(*args)


def test_bucket_state_validates():
    with pytest.raises(ParameterError, match=r"sigma must be in \(0, inf\)"):
        sttp.BucketState(0.0, 1.0, 0.0)
