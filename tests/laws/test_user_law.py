"""WindowLaw / RateLaw: the public law classes, their checks and the ready-made laws.

Expected values are worked by hand in the comments (the PD law (3.5) and
Primo's Algorithm 1 on round numbers) or come from the sender modules the
law classes must agree with (``Stpd``'s and ``Primo``'s options).
"""

import dataclasses
import math

import numba
import numpy as np
import pytest
import sympy as sp

import ctlcc
from ctlcc.errors import LawError
from ctlcc.laws import primo as primo_core
from ctlcc.laws.user import (RATE_MECHANICS, WINDOW_MECHANICS, RateLaw, WindowLaw, pd_law,
                             pd_window_update, primo_law, primo_rate_update, select)


# -- laws written here, outside the package, as a researcher would ---------------------


def pi(window, error, memory, kp, ki):
    """Incremental PI: w + kp (e(n) - e(n-1)) + ki e(n)."""
    return window + kp * (error - memory[0]) + ki * error, (error,)


def leaky(window, error, memory, kp, leak=0.5):
    """A leaky integral s of the error scales the window: w (1 + kp s)."""
    s = (1 - leak) * memory[0] + error
    return window + kp * window * s, (s,)


def stateless(window, error, memory, k):
    return window + k * error, ()


def towards(rate, excess, received, previous, memory, gain):
    return rate + gain * (received * (1 - excess) - rate), ()


# -- the public names -------------------------------------------------------------------


def test_top_level_exports():
    assert ctlcc.WindowLaw is WindowLaw
    assert ctlcc.RateLaw is RateLaw
    assert "WindowLaw" in ctlcc.__all__ and "RateLaw" in ctlcc.__all__


def test_window_law_attributes():
    law = WindowLaw(pi, memory=1, gains={"ki": 0.05, "kp": 0.2})
    assert law.update is pi
    assert law.memory == 1
    assert law.gains == {"kp": 0.2, "ki": 0.05}
    assert list(law.gains) == ["kp", "ki"]          # the function's order, not the dict's
    assert law.per == "rtt"
    assert law.name == "pi"
    assert law.kind == "window"
    assert law.mechanics == {name: option.default for name, option in WINDOW_MECHANICS.items()}


def test_defaults_become_gains_in_the_function_order():
    law = WindowLaw(leaky, memory=1, gains={"kp": 0.1})
    assert law.gains == {"kp": 0.1, "leak": 0.5}
    # a positional call with the gains in order is a valid call (what the engine does)
    assert law.update(10.0, 1.0, (0.0,), *law.gains.values()) == law.evaluate(10.0, 1.0)


def test_evaluate_by_hand():
    # pi: 10 + 0.2 (1 - 0.5) + 0.05 * 1 = 10.15, memory (1,)
    law = WindowLaw(pi, memory=1, gains=dict(kp=0.2, ki=0.05))
    window, memory = law.evaluate(10.0, 1.0, (0.5,))
    assert window == pytest.approx(10.15) and memory == (1.0,)
    # gains overridden for one call: ki = 0 -> 10.1
    assert law.evaluate(10.0, 1.0, (0.5,), ki=0.0)[0] == pytest.approx(10.1)
    # arrays: elementwise
    window, memory = law.evaluate(np.array([10.0, 20.0]), np.array([1.0, -1.0]), (0.0, ) )
    np.testing.assert_allclose(window, [10.0 + 0.2 + 0.05, 20.0 - 0.2 - 0.05])


def test_with_gains_and_mechanics_return_new_checked_laws():
    law = WindowLaw(pi, memory=1, gains=dict(kp=0.2, ki=0.05))
    other = law.with_gains(ki=0.1)
    assert other.gains == {"kp": 0.2, "ki": 0.1} and law.gains["ki"] == 0.05
    assert other != law and other == law.with_gains(ki=0.1)
    assert hash(other) == hash(law.with_gains(ki=0.1))
    started = law.with_mechanics(start="pd", reference=2)
    assert started.mechanics["start"] == "pd" and started.mechanics["reference"] == 2.0
    assert "start='pd'" in repr(started)
    with pytest.raises(LawError, match="'kx', not a gain of the law; its gains are kp, ki"):
        law.with_gains(kx=1.0)
    with pytest.raises(LawError, match="start must be one of 'pd', 'slow_start'; got 'fast'"):
        law.with_mechanics(start="fast")


def test_rate_law_attributes_and_evaluate():
    law = RateLaw(towards, gains={"gain": 0.1})
    assert law.kind == "rate" and law.per == "packet" and law.memory == 0
    assert law.mechanics == {name: option.default for name, option in RATE_MECHANICS.items()}
    # 100 + 0.1 (100 * 0.8 - 100) = 98
    rate, memory = law.evaluate(100.0, 0.2, 100.0, 100.0)
    assert rate == pytest.approx(98.0) and memory == ()
    assert RateLaw(towards, gains={"gain": 0.1}, per="rtt").per == "rtt"


# -- the mechanics options are Stpd's and Primo's ---------------------------------------


def test_window_mechanics_are_stpd_options():
    from ctlcc.sim.senders import stpd as sender

    defaults = {f.name: f.default for f in dataclasses.fields(sender.Stpd)}
    choices = {"bdp": sender.BDPS, "repair": sender.REPAIRS, "inflation": (False, True),
               "start": sender.STARTS, "round_marker": sender.ROUND_MARKERS,
               "after_timeout": sender.AFTER_TIMEOUTS, "timeout_round": sender.TIMEOUT_ROUNDS,
               "slow_start_exit": sender.SLOW_START_EXITS}
    # every option of Stpd but the gains (a law's own) and update (the law's `per`)
    assert set(WINDOW_MECHANICS) == set(defaults) - {"gains", "update"}
    for name, option in WINDOW_MECHANICS.items():
        assert option.default == defaults[name], name
        assert type(option.default) is type(defaults[name]), name
        if name in choices:
            assert tuple(option.choices) == tuple(choices[name]), name
    assert WindowLaw(pi, memory=1, gains=dict(kp=0, ki=0)).per == sender.Stpd().update
    assert set(ctlcc.laws.user.WINDOW_PER) == set(sender.UPDATES)


def test_rate_mechanics_are_primo_options():
    from ctlcc.sim.senders import primo as sender

    defaults = {f.name: (f.default if f.default is not dataclasses.MISSING else None)
                for f in dataclasses.fields(sender.Primo)}
    assert set(RATE_MECHANICS) == set(defaults) - {"params"} | {"tau"}
    for name, option in RATE_MECHANICS.items():
        expected = primo_core.PrimoParams().tau if name == "tau" else defaults[name]
        assert option.default == expected, name
    assert tuple(RATE_MECHANICS["timeout"].choices) == sender.TIMEOUTS
    assert tuple(RATE_MECHANICS["reception_rate"].choices) == sender.RECEPTION_RATES


# -- the ready-made laws use the same cores ----------------------------------------------


def test_pd_law_is_the_pd_update_of_eq_3_5():
    law = pd_law(0.5, 0.25)
    # (3.5): 10 + 0.5 (-1) + 0.25 (-1 - 0) = 9.25
    assert law.evaluate(10.0, -1.0, (0.0,)) == (9.25, (-1.0,))
    assert law.gains == {"kp": 0.5, "kd": 0.25} and law.memory == 1 and law.name == "pd"
    rng = np.random.default_rng(1)
    w, e, e1 = rng.uniform(1, 50, 20), rng.normal(size=20), rng.normal(size=20)
    np.testing.assert_allclose(law.evaluate(w, e, (e1,))[0],
                               ctlcc.laws.stpd.pd_update(w, e, e1, 0.5, 0.25))


def test_pd_law_rejects_negative_gains():
    with pytest.raises(LawError, match=r"pd_law: kd must be a finite number >= 0, got -0.1"):
        pd_law(0.1, -0.1)


def _primo_grid():
    excess = np.array([0.0, 0.1, 0.15, 0.16, 0.17, 0.2, 0.34, 0.5])
    return np.meshgrid(excess, [80.0, 100.0], [90.0, 100.0], [70.0, 120.0], indexing="ij")


def test_primo_law_is_algorithm_1():
    p = primo_core.PrimoParams()
    law = primo_law(p)
    excess, rate, received, previous = (a.ravel() for a in _primo_grid())
    ftt_ref = 0.012
    for i in range(excess.size):
        expected = primo_core.next_rate_core(previous[i], rate[i], received[i],
                                             excess[i] * ftt_ref, ftt_ref, p.W1, p.W2, p.F_str,
                                             p.F_mod, p.F_rel, p.TH_str, p.TH_mod, p.TH_rel)
        got, memory = law.evaluate(rate[i], excess[i], received[i], previous[i])
        assert memory == ()
        assert got == pytest.approx(expected, rel=1e-15), excess[i]
    # the hand value of the docstring: moderate (0.2 >= TH_mod = 0.17),
    # 0.9*110 + 0.1*(120 - 0.5*(120 - 0.99*100)) = 99 + 10.95 = 109.95
    assert law.evaluate(110.0, 0.2, 100.0, 120.0)[0] == pytest.approx(109.95)
    # vectorised: the same numbers through numpy.where
    vector, _ = law.evaluate(rate, excess, received, previous)
    scalar = [law.evaluate(*args)[0] for args in zip(rate, excess, received, previous)]
    np.testing.assert_allclose(vector, scalar, rtol=1e-15)


def test_primo_law_takes_params_and_options():
    law = primo_law(primo_core.PrimoParams(tau=2.0), timeout="literal")
    assert law.mechanics["tau"] == 2.0 and law.mechanics["timeout"] == "literal"
    with pytest.raises(LawError, match="tau comes from params"):
        primo_law(tau=2.0)
    with pytest.raises(LawError, match="params must be a PrimoParams, got dict"):
        primo_law({"W1": 0.5})


@pytest.mark.parametrize("law, args", [
    (pd_law(0.5, 0.25), (10.0, -1.0, (0.0,))),
    (WindowLaw(pi, memory=1, gains=dict(kp=0.2, ki=0.05)), (10.0, 1.0, (0.5,))),
    (primo_law(), (110.0, 0.2, 100.0, 120.0, ())),
    (primo_law(), (110.0, 0.5, 100.0, 120.0, ())),
    (primo_law(), (110.0, 0.0, 100.0, 120.0, ())),
    (primo_law(), (110.0, 0.16, 100.0, 120.0, ())),
])
def test_laws_compile_with_numba(law, args):
    compiled = numba.njit(law.update)
    value, memory = compiled(*args, *law.gains.values())
    expected, expected_memory = law.update(*args, **law.gains)
    assert value == pytest.approx(expected, rel=1e-15)
    assert tuple(memory) == pytest.approx(tuple(expected_memory))


def test_laws_accept_sympy_symbols():
    w, e, e1, kp, kd = sp.symbols("w e e1 k_p k_d")
    window, memory = pd_window_update(w, e, (e1,), kp, kd)
    assert sp.expand(window - (w + kp * e + kd * (e - e1))) == 0 and memory == (e,)
    x, o, c, r = sp.symbols("x o c r")
    p = primo_core.PrimoParams()
    gains = primo_law(p).gains
    rate, _ = primo_rate_update(x, r, c, o, (), **gains)
    assert isinstance(rate, sp.Piecewise)
    # the branch resolves once the excess is a number: 0.2 is moderate (F_mod = 0.99)
    moderate = rate.subs(r, sp.Rational(1, 5))
    expected = p.W2 * x + (1 - p.W2) * (o - p.W1 * (o - p.F_mod * c))
    assert sp.simplify(moderate - expected) == 0
    hold = rate.subs(r, sp.Rational(16, 100))
    assert hold == x


# -- select ---------------------------------------------------------------------------------


def test_select_for_each_number_type():
    assert select(True, 1.0, 2.0) == 1.0 and select(False, 1.0, 2.0) == 2.0
    assert select(np.float64(0.5) > 1, 1.0, 2.0) == 2.0
    np.testing.assert_array_equal(select(np.array([1.0, 3.0]) > 2, 10.0, np.array([0.0, 1.0])),
                                  [0.0, 10.0])
    x = sp.Symbol("x")
    assert select(x > 1, x, 2 * x) == sp.Piecewise((x, x > 1), (2 * x, True))
    assert select(sp.Integer(3) > 1, x, 2 * x) == x          # decided condition: no Piecewise
    assert select(sp.Integer(0) > 1, x, 2 * x) == 2 * x

    @numba.njit
    def clipped(v):
        return select(v > 1.0, 1.0, v)

    assert clipped(3.0) == 1.0 and clipped(0.25) == 0.25


# -- bad input: (args, kwargs, exception, message) --------------------------------------------


def two_args(window, error):
    return window, ()


def star(window, error, memory, *gains):
    return window, ()


def kwargs_law(window, error, memory, **gains):
    return window, ()


def no_gain(window, error, memory, kp):
    return window + kp * error, ()


def branches_in_python(window, error, memory, kp):
    if error > 0:
        return window + kp, ()
    return window - kp, ()


def divide_by_memory(window, error, memory, kp):
    return window + kp / memory[0], (error,)


def returns_one(window, error, memory, kp):
    return window + kp * error


def returns_string(window, error, memory, kp):
    return "w", ()


def returns_nan(window, error, memory, kp):
    return window * math.nan, ()


def returns_bool_memory(window, error, memory, kp):
    return window, (error > 0,)


def memory_not_tuple(window, error, memory, kp):
    return window, error


def positional_only(window, error, memory, kp, /):
    return window, ()


BAD = [
    # (update, kwargs, exception, message)
    ("not a function", {}, LawError, r"update must be a function \(window, error, memory"),
    (two_args, {}, LawError, r"must take window, error, memory as its first 3 parameters.*"
                             r"got two_args\(window, error\)"),
    (star, {}, LawError, r"must list its gains by name \(no \*args or \*\*kwargs"),
    (kwargs_law, {}, LawError, r"no \*args or \*\*kwargs"),
    (pi, {"memory": 1, "gains": {"kp": 0.1}}, LawError,
     r"takes 'ki', which has no default and is not in gains"),
    (pi, {"memory": 1, "gains": {"kp": 0.1, "ki": 0.1, "kd": 0.1}}, LawError,
     r"gain 'kd' \(got kd=0.1\) is not a parameter of update "
     r"pi\(window, error, memory, kp, ki\)"),
    (pi, {"memory": 2, "gains": {"kp": 0.1, "ki": 0.1}}, LawError,
     r"memory=2 but update returns a memory of length 1"),
    (pi, {"memory": 0, "gains": {"kp": 0.1, "ki": 0.1}}, LawError,
     r"update raised IndexError on sample numbers"),
    (pi, {"memory": -1, "gains": {"kp": 0.1, "ki": 0.1}}, LawError,
     r"memory must be an integer in 0..16, got -1"),
    (pi, {"memory": 1.0, "gains": {"kp": 0.1, "ki": 0.1}}, LawError,
     r"memory must be an integer in 0..16 .*got float 1.0"),
    (pi, {"memory": True, "gains": {"kp": 0.1, "ki": 0.1}}, LawError,
     r"memory must be an integer .*got bool True"),
    (no_gain, {"gains": {"kp": True}}, LawError, r"gain 'kp' must be a finite real number, "
                                                 r"got bool True"),
    (no_gain, {"gains": {"kp": "0.1"}}, LawError, r"gain 'kp' must be a finite real number, "
                                                  r"got str '0.1'"),
    (no_gain, {"gains": {"kp": math.nan}}, LawError, r"gain 'kp' must be a finite real number, "
                                                     r"got nan"),
    (no_gain, {"gains": {"kp": math.inf}}, LawError, r"got inf"),
    (no_gain, {"gains": {"kp": 1j}}, LawError, r"got complex 1j"),
    (no_gain, {"gains": [("kp", 0.1)]}, LawError, r"gains must be a dict name -> number, "
                                                  r"got list"),
    (no_gain, {"gains": {"kp": 0.1}, "per": "packet"}, LawError,
     r"per must be one of 'rtt', 'ack'; got 'packet'"),
    (no_gain, {"gains": {"kp": 0.1}, "repairs": "newreno"}, LawError,
     r"unknown option 'repairs' \(got repairs='newreno'\); the options of a WindowLaw are "
     r"reference, bdp, repair"),
    (no_gain, {"gains": {"kp": 0.1}, "inflation": 1}, LawError,
     r"inflation must be one of False, True; got 1"),
    (no_gain, {"gains": {"kp": 0.1}, "reference": -1.0}, LawError,
     r"reference must be a finite number >= 0, got -1.0"),
    (no_gain, {"gains": {"kp": 0.1}, "name": ""}, LawError, r"law name must be a non-empty str"),
    (branches_in_python, {"gains": {"kp": 0.1}}, None, None),   # numbers decide a Python if
    (divide_by_memory, {"memory": 1, "gains": {"kp": 0.1}}, LawError,
     r"update raised ZeroDivisionError on sample numbers \(window=10.0, error=0.5, "
     r"memory=\(0.0,\); gains kp=0.1\)"),
    (returns_one, {"gains": {"kp": 0.1}}, LawError,
     r"update must return a pair \(new_window, new_memory\) on sample numbers"),
    (returns_string, {"gains": {"kp": 0.1}}, LawError, r"new_window must be a real number "
                                                       r"on sample numbers.*got str 'w'"),
    (returns_nan, {"gains": {"kp": 0.1}}, LawError, r"new_window is not finite on sample "
                                                    r"numbers .*: got nan"),
    (returns_bool_memory, {"memory": 1, "gains": {"kp": 0.1}}, LawError,
     r"new_memory\[0\] must be a real number .*got bool True"),
    (memory_not_tuple, {"gains": {"kp": 0.1}}, LawError,
     r"new_memory must be a tuple of 0 floats .*got float 0.5"),
    (positional_only, {"gains": {"kp": 0.1}}, LawError, r"gain 'kp' .* is positional-only"),
]


@pytest.mark.parametrize("update, kwargs, exception, message", BAD)
def test_bad_window_laws(update, kwargs, exception, message):
    if exception is None:
        WindowLaw(update, **kwargs)
        return
    with pytest.raises(exception, match=message) as info:
        WindowLaw(update, **kwargs)
    # both a ValueError and a TypeError; the message names the law
    assert isinstance(info.value, ValueError) and isinstance(info.value, TypeError)
    if "name" not in kwargs and callable(update):
        assert f"WindowLaw {update.__name__!r}" in str(info.value)


def test_bad_rate_laws():
    with pytest.raises(LawError, match=r"must take rate, excess, received, previous, memory "
                                       r"as its first 5 parameters"):
        RateLaw(two_args)
    # a window law's five parameters read as a rate law's signals: no gain left
    with pytest.raises(LawError, match=r"gain 'kp' \(got kp=0.1\) is not a parameter of update "
                                       r"pi\(window, error, memory, kp, ki\); its gains "
                                       r"\(parameters after memory\) are none"):
        RateLaw(pi, memory=1, gains=dict(kp=0.1, ki=0.1))
    with pytest.raises(LawError, match=r"restart_jitter must be a number in \[0, 1\), got 1.0"):
        RateLaw(towards, gains={"gain": 0.1}, restart_jitter=1.0)
    with pytest.raises(LawError, match=r"per must be one of 'packet', 'rtt'; got 'ack'"):
        RateLaw(towards, gains={"gain": 0.1}, per="ack")
    with pytest.raises(LawError, match=r"unknown option 'reference'"):
        RateLaw(towards, gains={"gain": 0.1}, reference=1.0)


def test_evaluate_checks_its_arguments():
    law = WindowLaw(pi, memory=1, gains=dict(kp=0.2, ki=0.05))
    with pytest.raises(LawError, match=r"memory must be a tuple of 1 value\(s\), got \(\)"):
        law.evaluate(10.0, 1.0, ())
    with pytest.raises(LawError, match=r"'kd', not a gain of the law"):
        law.evaluate(10.0, 1.0, (0.0,), kd=1.0)
    with pytest.raises(LawError, match=r"gain 'ki' must be a finite real number, got bool"):
        law.evaluate(10.0, 1.0, (0.0,), ki=False)
    with pytest.raises(ctlcc.ParameterError, match=r"not finite"):
        law.evaluate(1e308, 1.0, (0.0,), kp=1e308, ki=1e308)
