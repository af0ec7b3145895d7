"""The equation and worked-number units: their checks find errors, their values are right.

Each check of a printed equation is exercised twice: on the equation as
printed (the unit's residual is exactly 0) and on a planted error (a flipped
sign, a wrong power, a dropped term), where the same check must report a
residual of the planted size, so a check that cannot fail is caught.
Expected values come from hand computation (written out in the test) or a
second route (closed-form sums, the printed numbers).
"""

from fractions import Fraction

import pytest

from ctlcc.claims import evaluate, units
from ctlcc.claims import _exact as X
from ctlcc.claims import stpd_equations as SE


def _claims(*ids):
    return {c.id: c for c in evaluate(units(ids=list(ids))) if c.id in ids}


# --- the exact series toolkit -----------------------------------------------------------

def test_series_division_gives_the_ramp_of_a_double_integrator():
    ramp = X.divide([1], X.multiply([1, -1], [1, -1], 3), 6)    # (1 - z^-1)^-2
    assert ramp == [Fraction(n + 1) for n in range(6)]


def test_series_product_and_shift():
    assert X.multiply([1, 2], [3, 4], 3) == [3, 10, 8]
    assert X.shift([1, 2, 3], 2) == [0, 0, 1]
    assert X.residual([Fraction(1, 3)], [Fraction(1, 4)]) == Fraction(1, 12)


# --- the thesis's loop, by hand ------------------------------------------------------------

def test_loop_sequences_by_hand():
    """kp = 1/2, kd = 0, m = 1, unit-step reference, one departure per slot:
    a(0) = 0, b(0) = -1, e(0) = 2; a(1) = 1, b(1) = -1, e(1) = 2; a(2) = 2, b(2) = 0,
    e(2) = 1; a(3) = 5/2."""
    one = [Fraction(1)] * 4
    a, b, e = SE.loop_sequences(Fraction(1, 2), Fraction(0), 1, one, one)
    assert a == [0, 1, 2, Fraction(5, 2)]
    assert b == [-1, -1, 0, Fraction(3, 2)]
    assert e == [2, 2, 1, Fraction(-1, 2)]


def test_the_z_domain_checks_hold_as_printed(analytic_ledger):
    # the units' claims as the ledger's stpd source evaluates them (tests/conftest.py: one
    # build shared with tests/test_ledger.py, whose exact series take ~10 s)
    ids = ["stpd-eq4.3-substitution", "stpd-eq4.4-z-transform", "stpd-eq4.7-z-transform",
           "stpd-eq4.8-unit-departures", "stpd-eq4.9-buffer", "stpd-eq4.10-substituted",
           "stpd-eq4.11-closed-loop", "stpd-eq4.13-loss-as-reference",
           "stpd-eq4.15-disturbed-reference", "stpd-eq4.16-z-transform",
           "stpd-eq4.17-loss-response", "stpd-eq3.1-queue-reading", "stpd-s3.5.1-buffer-rule"]
    got = {c.id: c for c in analytic_ledger.claims if c.id in ids}
    assert set(got) == set(ids)
    for cid in ids:
        assert got[cid].value == 0 and got[cid].verdict == "reproduced", cid


def test_a_wrong_power_in_eq_4_11_is_caught(monkeypatch):
    """(1 - z^-1)^-1 where eq. (4.11) has (1 - z^-1)^-2: the series check sees it."""
    def wrong(kp, kd, m, R, length):
        K = SE._pd(kp, kd)
        s1 = SE._s1(length)
        numerator = X.shift(X.multiply(K, X.add(R, s1), length), m, length)
        denominator = X.add(X.series([1, -1], length), X.shift(X.multiply(s1, K, length), m, length))
        return X.divide(numerator, denominator, length)

    monkeypatch.setattr(SE, "_printed_4_11", wrong)
    claim = SE.eq4_11()
    assert claim.value > 0.01


def test_a_flipped_loss_sign_in_eq_4_16_is_caught(monkeypatch):
    def wrong(m, p, length):
        pulses = [Fraction(-1) if p <= n <= p + m else Fraction(0) for n in range(length)]
        return X.add(SE._s1(length), pulses)

    monkeypatch.setattr(SE, "_printed_4_16", wrong)
    assert SE.eq4_16().value == 2.0          # +1 where the pulse is, read as -1
    assert SE.eq4_17().value > 0.01


# --- worked numbers, by hand -------------------------------------------------------------

@pytest.mark.parametrize("cid, expected", [
    ("stpd-s4.3.3-packet-time", 16 / 3),                 # 8000 / 1500 ms
    ("stpd-s5.4.1-packet-13.194ms", 1520 / 115.2),
    ("stpd-s5.4.1-ack-4.512ms", 520 / 115.2),
    ("stpd-s5.4.1-ideal-rtt-0.031", (2 * 1520 + 520) / 115200),
    ("stpd-s5.4.1-ideal-rtt-0.593", (2 * 1520 + 520) / 38400 + 0.5),
    ("stpd-s5.2.2-wrap-period", 4294967295 / 100000 / 3600),
])
def test_worked_numbers(cid, expected):
    assert _claims(cid)[cid].value == pytest.approx(expected, rel=1e-12)


def test_the_printed_errors_of_chapter_5():
    got = _claims("stpd-s5.4.1-ack-4.512ms", "stpd-s5.2.2-wrap-period")
    assert got["stpd-s5.4.1-ack-4.512ms"].verdict == "printed-error"     # 4.514, not 4.512
    assert got["stpd-s5.2.2-wrap-period"].verdict == "printed-error"     # 11.9 h, not 18.2 h
