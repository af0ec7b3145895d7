"""Argument checks shared by the package (ctlcc._validation)."""

import numpy as np
import pytest
import sympy as sp

from ctlcc import _validation as v
from ctlcc.errors import ParameterError


@pytest.mark.parametrize(
    "check, args, match",
    [
        (v.check_positive, ("rtt", 0.0), r"rtt must be in \(0, inf\), got 0.0"),
        (v.check_positive, ("rtt", np.nan), r"rtt must be in \(0, inf\)"),
        (v.check_positive, ("rtt", np.inf), r"rtt must be in \(0, inf\)"),
        (v.check_nonnegative, ("kp", -0.1), r"kp must be in \[0, inf\), got -0.1"),
        (v.check_nonnegative, ("kp", np.array([0.1, -2.0])), r"kp must be in \[0, inf\), got -2.0"),
        (v.check_finite, ("x", np.array([1.0, np.inf])), r"x must be finite"),
        (v.check_interval, ("p", 0.0, 0.0, 1.0, "right"), r"p must be in \(0, 1\], got 0.0"),
        (v.check_interval, ("p", 1.5, 0.0, 1.0, "right"), r"p must be in \(0, 1\], got 1.5"),
        (v.check_positive_int, ("m", 0), r"m must be an integer >= 1, got 0"),
        (v.check_positive_int, ("m", 2.5), r"m must be an integer >= 1, got 2.5"),
        (v.check_positive_int, ("m", True), r"m must be an integer >= 1, got True"),
        (v.check_nonnegative_int, ("p", -1), r"p must be an integer >= 0, got -1"),
        (v.check_choice, ("model", "x", ("a", "b")), r"model must be one of 'a', 'b'; got 'x'"),
        (v.check_positive, ("rtt", "fast"), r"rtt must be a real number"),
    ],
)
def test_bad_input_names_argument_and_range(check, args, match):
    with pytest.raises(ParameterError, match=match):
        check(*args)


def test_parameter_error_is_a_value_error():
    assert issubclass(ParameterError, ValueError)


def test_checks_pass_values_through():
    assert v.check_positive("x", 2) == 2.0
    assert isinstance(v.check_positive("x", 2), float)
    np.testing.assert_array_equal(v.check_nonnegative("x", np.array([0, 1])), [0.0, 1.0])
    assert v.check_interval("p", 1.0, 0.0, 1.0, "right") == 1.0
    assert v.check_positive_int("m", np.int64(3)) == 3
    assert v.check_positive_int("m", 3.0) == 3


def test_sympy_symbols_pass_unchecked():
    k = sp.Symbol("k")
    assert v.check_positive("k", k) is k
    assert v.check_interval("k", k, 0, 1) is k
