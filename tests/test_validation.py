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


@pytest.mark.parametrize(
    "value, got",
    [
        (-1, "-1.0"),                     # the refused element, as a float
        (np.array([0.5, -2.0]), "-2.0"),
        (np.inf, "inf"),
        ("1", "'1'"),                     # repr of what was passed
        (True, "a boolean True"),
        ([1.0, False], "a boolean in [1.0, False]"),
        (np.array([1.0, 2.0]), "an array of shape (2,)"),   # scalar=True below
    ],
)
def test_refused_value_is_kept_apart_from_the_message(value, got):
    # a caller that words the range its own way (laws.aqm's min_queue) reads err.got
    scalar = isinstance(value, np.ndarray) and value.min() >= 0
    with pytest.raises(ParameterError) as info:
        v.check_nonnegative("x", value, scalar=scalar)
    assert info.value.got == got
    assert str(info.value).endswith(f", got {got}")
    assert ParameterError("free text").got is None


@pytest.mark.parametrize(
    "check, args, got",
    [
        (v.check_positive, ("x", 0.0), "0.0"),
        (v.check_positive, ("x", [1.0, -3.0], True), "-3.0"),   # allow_inf
        (v.check_finite, ("x", [1.0, np.nan]), "nan"),
        (v.check_interval, ("x", 1.5, 0.0, 1.0, "right"), "1.5"),
    ],
)
def test_every_numeric_range_check_keeps_the_refused_value(check, args, got):
    with pytest.raises(ParameterError) as info:
        check(*args)
    assert info.value.got == got and str(info.value).endswith(f", got {got}")


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


# --- checks added for the public-API harness (issue 16) ---------------------------------------

@pytest.mark.parametrize(
    "call, match",
    [
        # None and strings are not numbers (numpy would make them nan and 1.5)
        (lambda: v.check_positive("rtt", None), r"rtt must be a real number, got None"),
        (lambda: v.check_positive("rtt", "1.5"), r"rtt must be a real number, got '1.5'"),
        (lambda: v.check_positive("rtt", [0.1, True]), r"rtt must hold real numbers, got a boolean"),
        (lambda: v.check_positive("rate", np.array([1.0, 2.0]), scalar=True),
         r"rate must be a single number, got an array of shape \(2,\)"),
        (lambda: v.check_bool("published", "false"), r"published must be True or False, got 'false'"),
        (lambda: v.check_bool("published", 1), r"published must be True or False, got 1"),
        (lambda: v.check_positive_int("hops", 1e308, maximum=1000),
         r"hops must be an integer >= 1 and <= 1000, got"),
        (lambda: v.check_choice("model", ["a"], ("a", "b")), r"model must be one of 'a', 'b'; got \['a'\]"),
        (lambda: v.check_sequence("seeds", ()), r"seeds must hold at least 1 element\(s\), got 0"),
        (lambda: v.check_sequence("presets", "abc"), r"presets must be a sequence"),
        (lambda: v.check_sequence("gains", (1.0,), min_length=2, max_length=2),
         r"gains must hold exactly 2 element\(s\), got 1"),
        (lambda: v.check_sequence("p", (0.1, -1.0), lambda n, x: v.check_positive(n, x)),
         r"p\[1\] must be in \(0, inf\), got -1.0"),
        (lambda: v.check_int_array("m", [3, 2.5]), r"m must be an integer >= 1 \(or an array of them\), got 2.5"),
        (lambda: v.check_instance("params", "fast", dict), r"params must be a dict, got str 'fast'"),
        (lambda: v.check_result("rate", np.inf, mss=1e308), r"rate is not finite \(got inf\) for mss=1e\+308"),
    ],
)
def test_harness_checks_name_argument_and_value(call, match):
    with pytest.raises(ParameterError, match=match):
        call()


def test_check_bool_accepts_real_booleans_only():
    assert v.check_bool("flag", True) is True
    assert v.check_bool("flag", np.bool_(False)) is False


def test_finite_result_names_every_numeric_input():
    @v.finite_result
    def rate(p, mss=1.0, label="x"):
        return mss / p

    assert rate(0.5) == 2.0
    with pytest.raises(ParameterError, match=r"rate is not finite .* for p=1e-300, mss=1e\+308"):
        rate(1e-300, mss=1e308)
    # symbols pass through untouched
    p = sp.Symbol("p")
    assert sp.simplify(rate(p) - 1 / p) == 0


def test_argument_name_renames_the_inner_field():
    with pytest.raises(ParameterError, match=r"^access_rate must be in \(0, inf\), got -1.0$"):
        with v.argument_name("rate", "access_rate"):
            v.check_positive("rate", -1.0)
    # another field's message is left alone
    with pytest.raises(ParameterError, match=r"^rates must be"):
        with v.argument_name("rate", "access_rate"):
            v.check_positive("rates", -1.0)
