"""STTP: packet pair, ACK-clocked bucket, alpha:beta RTT scaling (Wade, Kara & Dew 2000, §III)."""

import numpy as np
import pytest
import sympy as sp

from ctlcc.errors import ParameterError
from ctlcc.laws import sttp


def test_worked_example_14_888():
    """§III-B.3: (0.9*16) + (0.1*(16*0.305)) = 14.888, bucket of 15."""
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


def test_packet_pair_worked_numbers():
    """§III-A: 64-byte probes return at 104 and 120 ms: 64/0.016 = 4000 B/s (32 kb/s)."""
    assert sttp.packet_pair_bandwidth_core(64, 0.120 - 0.104) == pytest.approx(4000.0, rel=1e-12)


def test_initial_bucket_of_section_III_B_2():
    """§III-B.2: on 64 kb/s links the probe initialised the bucket to 8 packets:
    1000-byte pair spaced by 1000*8/64000 = 0.125 s -> 8000 B/s / 1000 B = 8."""
    b = sttp.initial_bucket(1000.0, 8 * 1000 / 64000)
    assert (b.sigma, b.rho, b.tokens) == (8.0, 8.0, 8.0)


def test_ack_sequence_by_hand():
    """9:1, 5 % band, ratio factor.  Bucket (16, 16, 0), last RTT 0.078 s (the probe).
    ACK 1, RTT 0.255: +227 % -> k = 0.9 + 0.1 * 0.078/0.255 = 0.930588; sigma = rho =
      14.8894, tokens 0 -> 0 + 1 = 1.
    ACK 2, RTT 0.260: +1.96 % < 5 % -> no scaling, tokens 2.
    ACK 3, RTT 0.200: -23 % -> k = 0.9 + 0.1 * 0.26/0.2 = 1.03; sigma = 15.3361, tokens
      2 * 1.03 + 1 = 3.06."""
    state, last = sttp.BucketState(16.0, 16.0, 0.0), 0.078
    seen = []
    for rtt in (0.255, 0.260, 0.200):
        state, scaled = sttp.ack_step(state, last, rtt)
        last = rtt
        seen.append((state.sigma, state.tokens, scaled))
    k1 = 0.9 + 0.1 * 0.078 / 0.255
    expected = [(16 * k1, 1.0, True), (16 * k1, 2.0, False), (16 * k1 * 1.03, 3.06, True)]
    for got, exp in zip(seen, expected):
        assert got[0] == pytest.approx(exp[0], rel=1e-12)
        assert got[1] == pytest.approx(exp[1], rel=1e-12)
        assert got[2] is exp[2]
    assert round(seen[0][0], 4) == 14.8894


def test_tokens_capped_at_the_depth():
    state, _ = sttp.ack_step(sttp.BucketState(8.0, 8.0, 7.5), 0.1, 0.1)
    assert state.tokens == 8.0
    assert sttp.token_fill_core(2.0, 8.0, 8.0, 2.0) == 8.0


def test_relative_factor_of_section_IV_B_1():
    """§IV-B.1: a 15 % RTT decrease scales by 1.15: 5:5 -> 0.5 + 0.5 * 1.15 = 1.075;
    the ratio reading gives 0.5 + 0.5/0.85 = 1.0882."""
    rel = sttp.SttpParams(alpha=0.5, beta=0.5, factor=sttp.FACTOR_RELATIVE)
    rat = sttp.SttpParams(alpha=0.5, beta=0.5)
    s_rel, _ = sttp.ack_step(sttp.BucketState(100.0, 100.0, 0.0), 1.0, 0.85, rel)
    s_rat, _ = sttp.ack_step(sttp.BucketState(100.0, 100.0, 0.0), 1.0, 0.85, rat)
    assert s_rel.sigma == pytest.approx(107.5, rel=1e-12)
    assert s_rat.sigma == pytest.approx(50 + 50 / 0.85, rel=1e-12)


def test_factor_readings_agree_to_first_order():
    """last/new and 2 - new/last have the same value and slope at new = last (sympy)."""
    last, d = sp.symbols("last d", positive=True)
    ratio = sttp.rtt_factor_core(last, last * (1 + d), sttp.FACTOR_RATIO)
    relative = sttp.rtt_factor_core(last, last * (1 + d), sttp.FACTOR_RELATIVE)
    diff = sp.series(sp.simplify(ratio - relative), d, 0, 2).removeO()
    assert sp.simplify(diff) == 0


numba = pytest.importorskip("numba")


def test_numba_cores_agree_with_wrappers_on_a_grid():
    step = numba.njit(sttp.ack_step_core)
    scaled = numba.njit(sttp.rtt_scaled_core)
    for a, b in ((0.9, 0.1), (0.5, 0.5), (0.1, 0.9)):
        for factor in (sttp.FACTOR_RATIO, sttp.FACTOR_RELATIVE):
            params = sttp.SttpParams(alpha=a, beta=b, factor=factor)
            for last in (0.05, 0.1, 0.3):
                for new in (0.04, 0.0951, 0.1, 0.1049, 0.2, 1.6):
                    if factor == sttp.FACTOR_RELATIVE and new / last >= 2 + a / b:
                        continue                  # refused by the wrapper (next test)
                    state = sttp.BucketState(16.0, 8.0, 3.0)
                    s, r, t, nl, sc = step(16.0, 8.0, 3.0, last, new, a, b, 0.05, factor)
                    w, wsc = sttp.ack_step(state, last, new, params)
                    assert (s, r, t, sc) == pytest.approx((w.sigma, w.rho, w.tokens, wsc),
                                                          rel=1e-15)
                    assert nl == new
                    assert scaled(16.0, last, new, a, b) == pytest.approx(
                        sttp.rtt_scaled(16.0, last, new, a, b), rel=1e-15)


def test_relative_factor_refuses_a_bucket_turned_negative():
    """2 - new/last with 1:9: k = 0.1 + 0.9 (2 - r) <= 0 for r >= 2 + 1/9."""
    params = sttp.SttpParams(alpha=0.1, beta=0.9, factor=sttp.FACTOR_RELATIVE)
    k = 0.1 + 0.9 * (2 - 2.2)
    assert k < 0
    with pytest.raises(ParameterError, match=r"new_rtt/last_rtt must be < 2 \+ alpha/beta = 2.11111"):
        sttp.ack_step(sttp.BucketState(1.0, 1.0, 0.0), 0.1, 0.22, params)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"alpha": 0.5, "beta": 0.4}, r"alpha \+ beta must equal 1, got alpha=0.5, beta=0.4"),
        ({"alpha": 1.1, "beta": -0.1}, r"alpha must be in \[0, 1\], got 1.1"),
        ({"threshold": -0.05}, r"threshold must be in \[0, inf\), got -0.05"),
        ({"factor": 2}, r"factor must be one of 0 \(ratio, §III-B.3\), 1"),
        ({"packet_size": 0}, r"packet_size must be in \(0, inf\), got 0.0"),
    ],
)
def test_bad_params(kwargs, match):
    with pytest.raises(ParameterError, match=match):
        sttp.SttpParams(**kwargs)


@pytest.mark.parametrize(
    "func, args, match",
    [
        (sttp.ack_step, (sttp.BucketState(1.0, 1.0, 0.0), 0.0, 0.1), r"last_rtt must be in \(0, inf\)"),
        (sttp.ack_step, ((1.0, 1.0, 0.0), 0.1, 0.1), r"state must be a BucketState, got tuple"),
        (sttp.initial_bucket, (64.0, 0.0), r"gap must be in \(0, inf\), got 0.0"),
    ],
)
def test_bad_input_new(func, args, match):
    with pytest.raises(ParameterError, match=match):
        func(*args)
