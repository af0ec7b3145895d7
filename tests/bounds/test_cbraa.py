"""CBRAA's ideal cycle (eq. 3) and loss (eq. 4): exact forms derived in sympy."""

import numpy as np
import pytest
import sympy as sp

from ctlcc.bounds import cbraa
from ctlcc.errors import ParameterError

B, R, Wm, i = sp.symbols("B R W_max i", positive=True)


def _exact_forms():
    """Ait-Hellal, Yamamoto & Leduc (1999), §2-§3.1: N = sum_{i=Wmax/2}^{Wmax} i, Wmax = (9/7) B R, Cycle = N/B."""
    n = sp.summation(i, (i, Wm / 2, Wm))
    cyc = sp.expand((n / B).subs(Wm, sp.Rational(9, 7) * B * R))
    return cyc, sp.simplify(1 / (B * cyc))


def test_cycle_exact_form():
    cyc, _ = _exact_forms()
    a, b = sp.Poly(cyc, R).coeff_monomial(R**2) / B, sp.Poly(cyc, R).coeff_monomial(R)
    assert (a, b) == (sp.Rational(243, 392), sp.Rational(27, 28))
    assert tuple(sp.Rational(str(k)) for k in cbraa.CYCLE_COEFFICIENTS["exact"]) == (a, b)


def test_loss_th_exact_form():
    _, loss = _exact_forms()
    c, d = cbraa.LOSS_TH_COEFFICIENTS["exact"]
    assert sp.simplify(loss - sp.Rational(392, 243) / (B**2 * R**2 + sp.Rational(14, 9) * B * R)) == 0
    assert (sp.Rational(str(c)), sp.Rational(str(d))) == (sp.Rational(392, 243), sp.Rational(14, 9))


@pytest.mark.parametrize(
    "printed, exact, rounds, source",
    [
        (0.62, sp.Rational(243, 392), True, "Ait-Hellal, Yamamoto & Leduc (1999), eq. (3) / Figure 1"),
        (0.96, sp.Rational(27, 28), True, "Ait-Hellal, Yamamoto & Leduc (1999), eq. (3) / Figure 1"),
        (1.61, sp.Rational(392, 243), True, "Ait-Hellal, Yamamoto & Leduc (1999), eq. (4)"),
        (1.54, sp.Rational(14, 9), False, "Ait-Hellal, Yamamoto & Leduc (1999), eq. (4): 14/9 = 1.556 rounds to 1.56"),
    ],
)
def test_printed_constants_vs_exact(printed, exact, rounds, source):
    assert (round(float(exact), 2) == printed) is rounds, source


def test_printed_1_54_is_the_ratio_of_printed_constants_truncated():
    """1.54 = floor(100 * 0.96/0.62)/100 (0.96/0.62 = 1.548)."""
    assert np.floor(100 * 0.96 / 0.62) / 100 == 1.54
    assert cbraa.LOSS_TH_COEFFICIENTS["published"] == (1.61, 1.54)


def test_published_loss_th_deviation_band():
    """Printed eq. (4) / exact: 1.61/(392/243) as B R -> oo, (1.61/1.54)(27/28) as B R -> 0."""
    x = np.logspace(-4, 5, 2001)
    ratio = cbraa.loss_th(x, 1.0, published=True) / cbraa.loss_th(x, 1.0)
    lo, hi = 1.61 * 243 / 392, (1.61 / 1.54) * (27 / 28)
    assert ratio.min() == pytest.approx(lo, rel=1e-6)
    assert ratio.max() == pytest.approx(hi, rel=1e-5)
    assert (round(100 * (lo - 1), 2), round(100 * (hi - 1), 2)) == (-0.2, 0.81)  # docstring


@pytest.mark.parametrize("wmax", [2, 4, 10, 50, 128])
def test_cycle_matches_enumerated_sawtooth(wmax):
    """Brute force: windows wmax/2 .. wmax, one per round trip, at rate B = wbar/R̄."""
    windows = np.arange(wmax // 2, wmax + 1)
    n = windows.sum()
    rate, srtt = 10.0, 7 * wmax / (9 * 10.0)          # so that (9/7) B R = wmax
    assert cbraa.wmax(rate, srtt) == pytest.approx(wmax)
    assert cbraa.cycle(rate, srtt) == pytest.approx(n / rate, rel=1e-12)
    assert cbraa.loss_th(rate, srtt) == pytest.approx(1 / n, rel=1e-12)


def test_published_cycle_is_figure_1_formula():
    rate, srtt = np.array([5.0, 250.0]), np.array([0.12, 0.07])
    np.testing.assert_allclose(cbraa.cycle(rate, srtt, published=True),
                               srtt * (0.62 * rate * srtt + 0.96), rtol=1e-15)


def test_loss_th_with_eq_2_returns_the_rate_for_long_cycles():
    """Consistency of eqs. (2) and (4): B = 1.2701/(R sqrt(Loss_th(B))) as B R -> oo
    (392/243 = (1.2701)^2 exactly)."""
    assert sp.Rational(392, 243) == (sp.Rational(7, 9) * sp.sqrt(sp.Rational(8, 3)))**2
    rate = 1e6
    back = 1.2701057925542405 / (0.1 * np.sqrt(cbraa.loss_th(rate, 0.1)))
    assert back == pytest.approx(rate, rel=1e-5)


@pytest.mark.parametrize(
    "func, args, match",
    [
        (cbraa.cycle, (0.0, 0.1), r"rate must be in \(0, inf\)"),
        (cbraa.cycle, (10.0, -0.1), r"srtt must be in \(0, inf\)"),
        (cbraa.loss_th, ([1.0, -2.0], 0.1), r"rate must be in \(0, inf\), got -2.0"),
        (cbraa.loss_th, (1.0, np.inf), r"srtt must be in \(0, inf\)"),
        (cbraa.wmax, (np.nan, 0.1), r"rate must be in"),
    ],
)
def test_bad_input(func, args, match):
    with pytest.raises(ParameterError, match=match):
        func(*args)
