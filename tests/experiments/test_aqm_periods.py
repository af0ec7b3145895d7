# tests of the period measures of ctlcc.experiments.aqm (issue 22 §3)
"""The two period measures on series whose period is known by construction."""

import numpy as np
import pytest

from ctlcc.errors import ParameterError
from ctlcc.experiments.aqm import autocorrelation_peak, dominant_period

T = np.arange(0.0, 70.0, 0.02)


def test_a_periodic_series_has_its_period_by_both_measures():
    x = 100.0 + 50.0 * np.sin(2.0 * np.pi * T / 3.0)
    lag, height = autocorrelation_peak(T, x)
    assert lag == pytest.approx(3.0, abs=0.02)
    assert height > 0.9                     # (70 - 3)/70 for a pure sine, tapered by the lag
    assert dominant_period(T, x) == pytest.approx(3.0, rel=0.02)


def test_white_noise_has_no_autocorrelation_peak():
    """Independent samples: every lag's autocorrelation is ~ N(0, 1/n), far below 0.2."""
    x = np.random.default_rng(3).normal(size=T.size)
    _, height = autocorrelation_peak(T, x)
    assert abs(height) < 0.2


def test_a_series_that_never_decorrelates_gives_nan():
    lag, height = autocorrelation_peak(T, T.copy(), high=5.0)   # a ramp: positive up to 5 s
    assert np.isnan(lag) and np.isnan(height)


def test_bad_input():
    with pytest.raises(ParameterError, match=r"low must be < high=1.0, got 2.0"):
        autocorrelation_peak(T, np.sin(T), low=2.0, high=1.0)
    with pytest.raises(ParameterError, match=r"queue must have one value per time sample"):
        autocorrelation_peak(T, np.sin(T[:-1]))
