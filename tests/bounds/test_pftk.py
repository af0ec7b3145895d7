"""PFTK (Padhye et al. 1998) and TFRC (RFC 5348 §3.1)."""

import numpy as np
import pytest
import sympy as sp

from ctlcc.bounds import mathis_constant, mathis_rate, pftk_rate, tfrc_rate
from ctlcc.bounds.pftk import pftk_window
from ctlcc.errors import ParameterError


def _pftk_b2_geant(p, rtt, t0, wmax):
    """Second route: PFTK eq. (31) for b = 2 as transcribed by the GEANT PERT wiki
    ("TCP throughput estimation", derived from eqn 31 of Padhye et al.), typed
    from that text: w(p) = (2/3)(1 + sqrt(3 (1-p)/p + 1))."""
    w = (2.0 / 3.0) * (1.0 + np.sqrt(3.0 * (1.0 - p) / p + 1.0))
    g = 1 + p + 2 * p**2 + 4 * p**3 + 8 * p**4 + 16 * p**5 + 32 * p**6

    def q(ww):
        return min(1.0, (1 - (1 - p) ** 3) * (1 + (1 - p) ** 3 * (1 - (1 - p) ** (ww - 3)))
                   / (1 - (1 - p) ** ww))

    if w < wmax:
        return (((1 - p) / p) + w + q(w) / (1 - p)) / (rtt * (w + 1) + q(w) * g * t0 / (1 - p))
    return (((1 - p) / p) + wmax + q(wmax) / (1 - p)) / (
        rtt * (0.25 * wmax + (1 - p) / (p * wmax) + 2) + q(wmax) * g * t0 / (1 - p))


@pytest.mark.parametrize("p", [1e-4, 1e-3, 1e-2, 0.05, 0.2, 0.5])
@pytest.mark.parametrize("wmax", [8.0, 64.0, 1e9])
def test_pftk_full_matches_second_transcription_b2(p, wmax):
    expected = _pftk_b2_geant(p, 0.1, 0.5, wmax)
    assert pftk_rate(p, 0.1, 0.5, b=2, wmax=wmax) == pytest.approx(expected, rel=1e-12)


def test_pftk_window_is_the_root_of_eq_13():
    """E[W] of PFTK eq. (13) is the positive root of the cycle balance
    (1-p)/p + W = (3b/8) W^2 + ... , i.e. 3b W^2 - 2(2+b) W - 8(1-p)/p = 0."""
    Wsym, p, b = sp.symbols("W p b", positive=True)
    roots = sp.solve(3 * b * Wsym**2 - 2 * (2 + b) * Wsym - 8 * (1 - p) / p, Wsym)
    root = [r for r in roots if r.subs({p: sp.Rational(1, 100), b: 1}) > 0][0]
    for pv, bv in [(0.01, 1), (0.001, 2), (0.3, 1)]:
        assert pftk_window(pv, bv) == pytest.approx(float(root.subs({p: pv, b: bv})), rel=1e-12)


@pytest.mark.parametrize("b", [1, 2])
def test_small_p_limit_is_the_square_root_law(b):
    """p -> 0: every model tends to sqrt(3/(2bp))/R (Mahdavi-Floyd with b)."""
    p = 1e-7
    expected = np.sqrt(3.0 / (2.0 * b * p)) / 0.1
    assert pftk_rate(p, 0.1, 0.4, b=b) == pytest.approx(expected, rel=2e-3)
    assert pftk_rate(p, 0.1, 0.4, b=b, approximate=True) == pytest.approx(expected, rel=2e-3)
    assert tfrc_rate(p, 0.1, b=b) == pytest.approx(expected, rel=2e-3)
    if b == 1:
        assert mathis_rate(p, 0.1, C="floyd") == pytest.approx(expected, rel=1e-12)
        assert mathis_constant("floyd") == pytest.approx(np.sqrt(3 / 2))


def test_mathis_and_pftk_part_beyond_1e_2():
    """The timeout term makes PFTK fall away from Mathis: within 1.5 % up to
    p = 1e-3 and more than 5 % below from p = 1e-2 on (rto = 4 rtt)."""
    p = np.array([1e-5, 1e-4, 1e-3, 1e-2, 0.05, 0.1])
    ratio = pftk_rate(p, 0.1, 0.4) / mathis_rate(p, 0.1, C="floyd")
    assert np.all(ratio[:3] > 0.985)
    assert np.all(ratio[3:] < 0.95)
    assert np.all(np.diff(ratio) < 0)


def test_wmax_caps_the_rate_at_wmax_over_rtt():
    """Small p: the window sits at Wmax; eq. (31)'s second branch -> Wmax/R."""
    assert pftk_rate(1e-9, 0.1, 0.4, wmax=20) == pytest.approx(200.0, rel=1e-3)
    assert pftk_rate(1e-9, 0.1, 0.4, wmax=20, approximate=True) == pytest.approx(200.0)


def test_timeouts_lower_the_rate():
    rto = np.array([0.1, 0.5, 1.0, 3.0])
    assert np.all(np.diff(pftk_rate(0.05, 0.1, rto)) < 0)


def test_tfrc_defaults_t_rto_to_4r_and_b_to_1():
    """RFC 5348 §3.1: "t_RTO = 4*R" and b = 1."""
    p, r = np.logspace(-4, -0.1, 20), 0.08
    np.testing.assert_allclose(tfrc_rate(p, r), tfrc_rate(p, r, b=1, rto=4 * r), rtol=1e-15)


def test_tfrc_equals_pftk_approximation_when_uncapped():
    """RFC 5348's equation is PFTK eq. (33) without the min(1, .) cap and Wmax."""
    p = np.logspace(-5, -1.5, 30)                      # 3 sqrt(3p/8) < 1 here
    np.testing.assert_allclose(tfrc_rate(p, 0.1, rto=0.4), pftk_rate(p, 0.1, 0.4, approximate=True),
                               rtol=1e-12)


def test_tfrc_scales_with_packet_size_bytes():
    assert tfrc_rate(0.01, 0.1, mss=1460) == pytest.approx(1460 * tfrc_rate(0.01, 0.1))


def test_p_equal_one_is_the_limit_of_the_full_model():
    """p -> 1: Q-hat -> 1 and both (1-p) terms cancel: B -> 1/(f(1) T0), f(1) = 64."""
    p = sp.symbols("p", positive=True)
    f = 1 + p + 2 * p**2 + 4 * p**3 + 8 * p**4 + 16 * p**5 + 32 * p**6
    assert f.subs(p, 1) == 64
    assert pftk_rate(1.0, 0.1, 0.4) == pytest.approx(1 / (64 * 0.4))
    assert pftk_rate(1 - 1e-9, 0.1, 0.4) == pytest.approx(1 / (64 * 0.4), rel=1e-6)


def test_vectorised_matches_loop():
    p = np.logspace(-5, -0.3, 50)
    rtt = np.linspace(0.01, 0.5, 50)
    out = pftk_rate(p, rtt, 4 * rtt, wmax=40)
    loop = [pftk_rate(float(a), float(r), 4 * float(r), wmax=40) for a, r in zip(p, rtt)]
    np.testing.assert_allclose(out, loop, rtol=1e-14)


@pytest.mark.parametrize(
    "func, args, kwargs, match",
    [
        (pftk_rate, (0.0, 0.1, 0.4), {}, r"p must be in \(0, 1\]"),
        (pftk_rate, (0.1, -0.1, 0.4), {}, r"rtt must be in \(0, inf\)"),
        (pftk_rate, (0.1, 0.1, 0.0), {}, r"rto must be in \(0, inf\)"),
        (pftk_rate, (0.1, 0.1, 0.4), {"b": 0}, r"b must be in \(0, inf\)"),
        (pftk_rate, (0.1, 0.1, 0.4), {"wmax": -3}, r"wmax must be in \(0, inf\)"),
        (pftk_rate, ([0.1, 2.0], 0.1, 0.4), {}, r"p must be in \(0, 1\], got 2.0"),
        (tfrc_rate, (1.1, 0.1), {}, r"p must be in \(0, 1\]"),
        (tfrc_rate, (0.1, 0.1), {"rto": 0}, r"rto must be in \(0, inf\)"),
        (pftk_rate, (0.1, 0.1), {"rto": -1}, r"rto must be in \(0, inf\)"),
        (tfrc_rate, (0.1, 0.1), {"mss": -1}, r"mss must be in \(0, inf\)"),
    ],
)
def test_bad_input(func, args, kwargs, match):
    with pytest.raises(ParameterError, match=match):
        func(*args, **kwargs)


def test_pftk_and_tfrc_share_argument_conventions():
    # Issue 15: (p, rtt, rto=None, mss=1.0, b=1) in both, rto defaulting to
    # 4 rtt (RFC 5348 §3.1); with the same arguments the closed forms agree
    # where RFC 5348 and PFTK eq. (33) coincide (3 sqrt(3bp/8) < 1, no wmax).
    p, rtt = np.array([1e-3, 1e-2, 5e-2]), 0.1
    np.testing.assert_allclose(tfrc_rate(p, rtt), pftk_rate(p, rtt, approximate=True), rtol=1e-12)
    np.testing.assert_allclose(tfrc_rate(p, rtt, 0.3, 1460, 2),
                               pftk_rate(p, rtt, 0.3, 1460, 2, approximate=True), rtol=1e-12)
    assert pftk_rate(0.01, 0.1) == pftk_rate(0.01, 0.1, 0.4)


def test_tfrc_t_rto_is_a_deprecated_alias():
    with pytest.warns(DeprecationWarning, match="use rto="):
        old = tfrc_rate(0.01, 0.1, t_rto=0.3)
    assert old == tfrc_rate(0.01, 0.1, 0.3)
    with pytest.raises(TypeError, match="both rto and its deprecated name t_rto"):
        tfrc_rate(0.01, 0.1, 0.3, t_rto=0.3)
