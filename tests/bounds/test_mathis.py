"""Square-root law: each constant derived in sympy from its cycle model."""

import warnings

import numpy as np
import pytest
import sympy as sp

from ctlcc.bounds import MathisValidityWarning, mathis_constant, mathis_rate
from ctlcc.errors import ParameterError

W, i, B = sp.symbols("W i B", positive=True)


def _sawtooth():
    """Deterministic Reno sawtooth W/2, W/2 + 1, ..., W (W even), one loss."""
    packets = sp.summation(i, (i, W / 2, W))          # packets per cycle
    rounds = W / 2 + 1                                  # round trips per cycle
    return sp.simplify(packets), rounds


def test_cycle_packets_is_three_eighths_w_w_plus_2():
    """Ait-Hellal, Yamamoto & Leduc (1999), §2: N = (3/8) Wmax (Wmax + 2) -- symbolic sum over the sawtooth."""
    packets, _ = _sawtooth()
    assert sp.simplify(packets - sp.Rational(3, 8) * W * (W + 2)) == 0


def test_floyd_constant_is_sqrt_3_over_2_from_the_sawtooth():
    """Mahdavi-Floyd: every packet ACKed, throughput = packets/(rounds R), p = 1/packets.

    C = lim_{W->oo} (B R) sqrt(p) with B R = packets/rounds.
    """
    packets, rounds = _sawtooth()
    c_expr = (packets / rounds) * sp.sqrt(1 / packets)
    C = sp.limit(c_expr, W, sp.oo)
    assert sp.simplify(C - sp.sqrt(sp.Rational(3, 2))) == 0
    assert mathis_constant("floyd") == pytest.approx(float(C), rel=1e-15)
    assert round(float(C), 2) == 1.22                              # printed in Ait-Hellal, Yamamoto & Leduc (1999), §2 for [8]


def test_cbraa_constant_from_average_rtt_over_a_cycle():
    """Ait-Hellal, Yamamoto & Leduc (1999), §2: R̄ = sum_{i=W/2}^{W} (i/N)(i/B) ~ (7/9) W/B, W̄ = R̄ B, p = 1/N.

    The rate is B = W̄/R̄ and C = B R̄ sqrt(p) = W̄ sqrt(p), to leading order.
    """
    packets, _ = _sawtooth()
    rbar = sp.summation((i / packets) * (i / B), (i, W / 2, W))
    ratio = sp.limit(rbar * B / W, W, sp.oo)
    assert ratio == sp.Rational(7, 9)                               # R̄ ≈ (7/9) W / B
    wbar = ratio * W
    C = sp.limit(wbar * sp.sqrt(1 / packets), W, sp.oo)
    assert sp.simplify(C - sp.Rational(7, 9) * sp.sqrt(sp.Rational(8, 3))) == 0
    assert mathis_constant("cbraa") == pytest.approx(float(C), rel=1e-15)
    assert round(float(C), 4) == 1.2701                            # Ait-Hellal, Yamamoto & Leduc (1999), eq. (2)
    assert round(float(C), 2) == 1.27                              # Ait-Hellal, Yamamoto & Leduc (1999), §2 text


def test_mathis_constant_is_only_quoted():
    """1.30 is quoted by Ait-Hellal, Yamamoto & Leduc (1999), §2 from Mathis et al. 1997 ([10]); not derived."""
    assert mathis_constant("mathis") == 1.30


@pytest.mark.parametrize(
    "p, rtt, mss, C, expected, tol, source",
    [
        (0.01, 0.1, 1.0, "floyd", 10 * np.sqrt(1.5) / 0.1, 1e-12, "eq. (1), C = sqrt(3/2)"),
        (0.01, 0.1, 1000.0, "mathis", 1000 * 1.3 / (0.1 * 0.1), 1e-12, "eq. (1), C = 1.30, bytes"),
        (0.04, 0.2, 1.0, "cbraa", 1.2701 / (0.2 * 0.2), 1e-4, "eq. (2), C printed to 4 digits"),
        (0.16, 1.0, 1.0, 2.0, 5.0, 1e-12, "explicit C at the validity edge"),
    ],
)
def test_mathis_rate_values(p, rtt, mss, C, expected, tol, source):
    assert mathis_rate(p, rtt, mss, C) == pytest.approx(expected, rel=tol), source


def test_mathis_rate_is_vectorised_and_broadcasts():
    p = np.array([[1e-4], [1e-2]])
    rtt = np.array([0.05, 0.1, 0.2])
    out = mathis_rate(p, rtt, C="floyd")
    assert out.shape == (2, 3)
    loop = [[mathis_rate(float(pp), float(r), C="floyd") for r in rtt] for pp in p[:, 0]]
    np.testing.assert_allclose(out, loop, rtol=1e-15)


def test_validity_warning_beyond_p_016():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mathis_rate(0.16, 0.1)                                    # at the limit: silent
    with pytest.warns(MathisValidityWarning, match="p <= 0.16"):
        out = mathis_rate([0.1, 0.2], 0.1)
    assert np.all(np.isfinite(out))


@pytest.mark.parametrize(
    "args, kwargs, exc, match",
    [
        ((0.0, 0.1), {}, ParameterError, r"p must be in \(0, 1\]"),
        ((1.5, 0.1), {}, ParameterError, r"p must be in \(0, 1\]"),
        (([0.1, -0.1], 0.1), {}, ParameterError, r"p must be in \(0, 1\], got -0.1"),
        ((np.nan, 0.1), {}, ParameterError, r"p must be in"),
        ((0.01, 0.0), {}, ParameterError, r"rtt must be in \(0, inf\)"),
        ((0.01, [0.1, -1.0]), {}, ParameterError, r"rtt must be in \(0, inf\)"),
        ((0.01, 0.1), {"mss": 0}, ParameterError, r"mss must be in \(0, inf\)"),
        ((0.01, 0.1), {"C": -1.0}, ParameterError, r"C must be in \(0, inf\)"),
        ((0.01, 0.1), {"C": "reno"}, ParameterError, r"model must be one of 'floyd', 'mathis', 'cbraa'"),
    ],
)
def test_bad_input(args, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        mathis_rate(*args, **kwargs)


def test_bad_model_is_a_value_error():
    with pytest.raises(ValueError, match="model must be one of"):
        mathis_constant("vegas")


def test_default_constant_is_the_textbook_square_root_of_three_halves():
    # Issue 15: the default is the textbook sqrt(3/2) (Mathis et al. 1997's
    # deterministic sawtooth), the others are asked for by name.
    assert mathis_constant() == mathis_constant("floyd") == pytest.approx(np.sqrt(1.5), rel=1e-15)
    assert mathis_rate(0.01, 0.1) == mathis_rate(0.01, 0.1, C="floyd")
