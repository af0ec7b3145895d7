"""TFRC (RFC 5348): loss-event rate §5.4, sender update §4.3, nofeedback timer §4.4."""

import math

import numpy as np
import pytest
import sympy as sp

from ctlcc.errors import ParameterError
from ctlcc.laws import tfrc


def test_weights_are_the_rfc_list():
    """RFC 5348 §5.4 prints the n = 8 weights: 1, 1, 1, 1, 0.8, 0.6, 0.4, 0.2.
    By the rule "w_i = 1 for i < n/2, else 2 (n - i)/(n + 2)": i = 4..7 give
    2*4/10 = 0.8, 2*3/10 = 0.6, 2*2/10 = 0.4, 2*1/10 = 0.2."""
    np.testing.assert_allclose(tfrc.interval_weights(8), [1, 1, 1, 1, 0.8, 0.6, 0.4, 0.2],
                               rtol=0, atol=1e-15)
    # the formula for other n: w_i = 1 for i < n/2, 2 (n - i)/(n + 2) after
    np.testing.assert_allclose(tfrc.interval_weights(4), [1, 1, 2 * 2 / 6, 2 * 1 / 6])


@pytest.mark.parametrize(
    "intervals, expected, derivation",
    [
        # I_0 = 50 open, eight closed of 100: I_tot0 = 50 + 100 (1+1+1+0.8+0.6+0.4+0.2) = 550,
        # I_tot1 = 100 * 6 = 600, W_tot = 6 -> 100 (the short open interval is ignored)
        ([50] + [100] * 8, 100.0, "open interval shorter than the average"),
        # I_0 = 400: I_tot0 = 400 + 500 = 900 -> 150 (the open interval counts)
        ([400] + [100] * 8, 150.0, "open interval longer: it raises I_mean"),
        # k = 2 < n: I_tot0 = 10 + 20, I_tot1 = 20 + 40, W_tot = 2 -> 30
        ([10, 20, 40], 30.0, "fewer than n closed intervals"),
        # same history, long open interval: I_tot0 = 70 + 20 = 90 > I_tot1 = 60 -> 45
        ([70, 20, 40], 45.0, "fewer than n, open interval counts"),
        # n = 8 closed of 100 and a *closed-length* open interval I_0 = 100: I_tot0 = I_tot1
        # = 600 -> 100 (the rule is continuous where the open interval equals the average)
        ([100] + [100] * 8, 100.0, "open interval equal to the closed ones"),
        # k = 1: max(I_0, I_1)
        ([7, 5], 7.0, "one closed interval"),
        # no closed interval: no loss event yet -> 0 (p = 0)
        ([123], 0.0, "no loss event"),
        # eight closed intervals 10, 20, ..., 80 (most recent first), I_0 = 0:
        # I_tot1 = 10+20+30+40 + 0.8*50 + 0.6*60 + 0.4*70 + 0.2*80 = 100 + 120 = 220
        # I_tot0 = 0 + 10+20+30 + 0.8*40 + 0.6*50 + 0.4*60 + 0.2*70 = 60 + 100 = 160 -> 220/6
        ([0, 10, 20, 30, 40, 50, 60, 70, 80], 220 / 6, "weights applied in order"),
    ],
)
def test_average_loss_interval_by_hand(intervals, expected, derivation):
    assert tfrc.average_loss_interval(intervals) == pytest.approx(expected, rel=1e-14), derivation
    p = tfrc.loss_event_rate(intervals)
    assert p == (0.0 if expected == 0 else pytest.approx(1 / expected, rel=1e-14))


def test_history_push_sequence_by_hand():
    """Loss events at packets 100, 150, 400 (first lost packet of each), last packet
    received 420.  History after each push: [I_0 | I_1, I_2, ...]:
      after 150: I_1 = 150 - 100 = 50; after 400: I_1 = 250, I_2 = 50; I_0 = 420 - 400 + 1
      = 21.  I_mean = max(21 + 250, 250 + 50)/2 = 150."""
    h = np.zeros(9)
    k = 0
    k = tfrc.push_loss_interval_core(h, k, 8, 0.0, 1.0)            # first event: no closed yet
    k = 0                                                           # §6.3.1 synthesises I_1
    h[0] = 51.0                                                     # packets 100..150
    k = tfrc.push_loss_interval_core(h, k, 8, 150.0 - 100.0, 1.0)
    k = tfrc.push_loss_interval_core(h, k, 8, 400.0 - 150.0, 1.0)
    h[0] = 420 - 400 + 1
    assert k == 2 and h[:3].tolist() == [21.0, 250.0, 50.0]
    assert tfrc.average_loss_interval_core(h, k, 8) == 150.0


def test_history_keeps_the_last_n():
    """Ten pushes of lengths 1..10 into n = 8: the closed intervals are 10, 9, ..., 3."""
    h = np.zeros(9)
    k = 0
    for length in range(1, 11):
        k = tfrc.push_loss_interval_core(h, k, 8, float(length), 0.0)
    assert k == 8 and h[1:].tolist() == [10, 9, 8, 7, 6, 5, 4, 3]


def test_equation_core_is_the_printed_equation_and_has_the_mathis_limit():
    """§3.1 in sympy; and for p -> 0 the timeout term vanishes: X -> s/(R sqrt(2bp/3)),
    Mathis with C = sqrt(3/2) (independent route: the deterministic sawtooth)."""
    s, R, p, t, b = sp.symbols("s R p t_RTO b", positive=True)
    printed = s / (R * sp.sqrt(2 * b * p / 3) + t * (3 * sp.sqrt(3 * b * p / 8)) * p * (1 + 32 * p**2))
    expr = tfrc.tfrc_rate_core(s, R, p, t, b)          # sympy accepts the core (x**0.5 -> Float power)
    rng = np.random.default_rng(3)
    for vals in rng.uniform(0.01, 1.0, size=(20, 5)):
        point = dict(zip((s, R, p, t, b), vals))
        assert float(expr.evalf(subs=point)) == pytest.approx(float(printed.evalf(subs=point)),
                                                             rel=1e-13)
    ratio = tfrc.tfrc_rate_core(1.0, 0.1, 1e-8, 0.4, 1.0) / (math.sqrt(1.5) / (0.1 * 1e-4))
    assert ratio == pytest.approx(1.0, rel=1e-5)     # the timeout term is ~1e-11 relative here


def test_initial_window_rfc3390():
    """W_init = min(4 s, max(2 s, 4380 B)): 1000 B -> 4 packets, 1460 B -> 3, 3000 B -> 2."""
    assert [tfrc.TfrcParams(segment_size=sz).initial_window for sz in (1000, 1460, 3000)] == \
        [4.0, 3.0, 2.0]


X_BPS_001 = 1 / (0.1 * math.sqrt(0.02 / 3) + 0.4 * 3 * math.sqrt(0.03 / 8) * 0.01 * 1.0032)


def test_sender_feedback_sequence_by_hand():
    """s = 1 packet, W_init = 4, t_mbi = 64 s, R = 0.1 s, X = 1 packet/s, tld = -1 (§4.2).
    t = 0.10, first RTT measurement (§4.2): X = W_init/R = 4/0.1 = 40, tld = 0.10.
    t = 0.15, p = 0: 0.05 < R since tld -> unchanged.
    t = 0.20, p = 0, max X_recv = 35: X = max(min(80, 70), 40) = 70, tld = 0.20.
    t = 0.30, p = 0.01, max X_recv = 60: X_Bps = 1/(0.1 sqrt(0.02/3) + 0.4*3*sqrt(0.03/8)
      *0.01*1.0032) = 112.33 -> X = max(min(112.33, 120), 1/64) = 112.33.
    t = 0.40, p = 0.01, max X_recv = 50: X = min(112.33, 100) = 100."""
    x_bps = X_BPS_001
    steps = [(0.10, 0.0, math.inf, 40.0, 0.10), (0.15, 0.0, 30.0, 40.0, 0.10),
             (0.20, 0.0, 35.0, 70.0, 0.20), (0.30, 0.01, 60.0, x_bps, 0.20),
             (0.40, 0.01, 50.0, 100.0, 0.20)]
    X, tld = 1.0, -1.0
    for t_now, p, xr, x_exp, tld_exp in steps:
        X, tld = tfrc.feedback_update(X, p, xr, 0.1, t_now, tld)
        assert X == pytest.approx(x_exp, rel=1e-12) and tld == tld_exp, t_now
    assert x_bps == pytest.approx(112.33, abs=5e-3)           # bounds.tfrc_rate doctest


@pytest.mark.parametrize(
    "X, p, xr, t_now, tld, expected, derivation",
    [
        # §4.2 replaces step 4 on the first RTT measurement: X = W_init/R = 4/0.1 = 40,
        # tld = t_now, whatever p says (here a loss already reported, X_Bps would be 112.33)
        (1.0, 0.01, math.inf, 0.1, -1.0, (40.0, 0.1), "§4.2 first feedback with p > 0"),
        # §4.2, R large (R = 2.5 s): W_init/R = 1.6 < 2 X = 2; the RFC still sets 1.6
        (1.0, 0.0, math.inf, 2.5, -1.0, (4.0 / 2.5, 2.5), "§4.2 first feedback, long RTT"),
        # §4.3 slow start, X_recv set {inf} still young: X = max(min(2*40, inf), 40) = 80
        (40.0, 0.0, math.inf, 0.5, 0.3, (80.0, 0.5), "doubling, no receive limit"),
        # bounded by 2 X_recv: max(min(80, 2*30), 40) = 60
        (40.0, 0.0, 30.0, 0.5, 0.3, (60.0, 0.5), "doubling bounded by 2 X_recv"),
        # 2 X_recv below initial_rate: max(min(80, 2*5), 40) = 40 (initial_rate floor)
        (40.0, 0.0, 5.0, 0.5, 0.3, (40.0, 0.5), "initial_rate floor in slow start"),
        # t_now - tld = 0.05 < R = 0.1: no doubling, tld unchanged
        (40.0, 0.0, 30.0, 0.35, 0.3, (40.0, 0.3), "at most one doubling per RTT"),
        # p > 0: X = max(min(X_Bps, 2 X_recv), s/t_mbi); X_Bps = 112.33 < 2*60 -> 112.33
        (40.0, 0.01, 60.0, 0.5, 0.3, (X_BPS_001, 0.3), "equation rate binds"),
        # 2 X_recv = 100 < 112.33 -> 100; tld untouched in congestion avoidance
        (200.0, 0.01, 50.0, 0.5, 0.3, (100.0, 0.3), "receive rate binds"),
    ],
)
def test_feedback_update_branches_by_hand(X, p, xr, t_now, tld, expected, derivation):
    """RFC 5348 §4.2 and §4.3 step 4, s = 1 packet, R = 0.1 s unless said, W_init = 4."""
    R = 2.5 if t_now == 2.5 else 0.1
    assert tfrc.feedback_update(X, p, xr, R, t_now, tld) == pytest.approx(expected, rel=1e-12), \
        derivation


def test_rate_floor_is_one_packet_per_t_mbi():
    """p = 1, R = 10 s: X_Bps = 1/(10 (sqrt(2/3) + 4*3*sqrt(3/8)*33)) = 4.1e-4 < 1/64."""
    X, _ = tfrc.feedback_update(1.0, 1.0, 1e-6, 10.0, 100.0, 50.0)
    assert X == 1 / 64


@pytest.mark.parametrize(
    "args, expected, derivation",
    [
        # no feedback yet: halve, floor s/t_mbi
        ((1.0, 0.0, math.inf, 0.1, False, False), (0.5, -1.0), "no feedback: X/2"),
        ((0.02, 0.0, math.inf, 0.1, False, False), (1 / 64, -1.0), "floor 1/64"),
        # p = 0, not idle: halve
        ((40.0, 0.0, 30.0, 0.1, True, False), (20.0, -1.0), "p = 0: X/2"),
        # idle and p = 0 and X < 2 recover_rate = 2 * 4/0.1 = 80: do nothing
        ((40.0, 0.0, 30.0, 0.1, True, True), (40.0, -1.0), "idle: keep"),
        # p = 0.01: X_Bps = 112.33 > 2 * 50 -> Update_Limits(50): set {25}, X = min(112.33, 50)
        ((100.0, 0.01, 50.0, 0.1, True, False), (50.0, 25.0), "X_recv limited"),
        # p = 0.01, X_recv 80: X_Bps < 160 -> Update_Limits(112.33/2): X = 56.17, set {28.08}
        ((112.33, 0.01, 80.0, 0.1, True, False), (None, None), "X_Bps limited"),
        # idle and p = 0 but X = 100 >= 2 recover_rate = 80: halve to 50
        ((100.0, 0.0, 30.0, 0.1, True, True), (50.0, -1.0), "idle, fast: halve"),
        # idle, p > 0 and X_recv = 30 < recover_rate = 40: do nothing
        ((100.0, 0.01, 30.0, 0.1, True, True), (100.0, -1.0), "idle, X_recv < recover_rate"),
        # idle, p > 0, X_recv = 50 >= 40: as if not idle -> Update_Limits(50): X = 50, set {25}
        ((100.0, 0.01, 50.0, 0.1, True, True), (50.0, 25.0), "idle, X_recv >= recover_rate"),
        # Update_Limits floor: p = 1, R = 10 s -> X_Bps = 4.1e-4 (see the floor test below);
        # X_recv = 1e-4, X_Bps > 2 X_recv -> timer_limit = 1e-4 < 1/64 -> 1/64, set {1/128},
        # X = max(min(4.1e-4, 1/64), 1/64) = 1/64
        ((0.01, 1.0, 1e-4, 10.0, True, False), (1 / 64, 1 / 128), "Update_Limits floor"),
        # X_recv set still {inf}, p > 0: X_Bps > inf is false -> Update_Limits(X_Bps/2)
        ((112.33, 0.01, math.inf, 0.1, True, False), (None, None), "X_recv_set {inf}"),
    ],
)
def test_nofeedback_branches_by_hand(args, expected, derivation):
    X, p, xr, R, fb, idle = args
    out = tfrc.nofeedback(X, p, xr, R, has_feedback=fb, idle=idle)
    if expected[0] is None:                  # Update_Limits(X_Bps/2), X_Bps typed out by hand
        expected = (X_BPS_001 / 2, X_BPS_001 / 4)
    assert out == pytest.approx(expected, rel=1e-12), derivation


def test_nofeedback_interval():
    """max(4 R, 2 s/X): R = 0.1, X = 40 -> 0.4; X = 2 -> 1.0; before feedback 2 s (§4.2)."""
    assert tfrc.nofeedback_interval_core(0.1, 1.0, 40.0, True) == 0.4
    assert tfrc.nofeedback_interval_core(0.1, 1.0, 2.0, True) == 1.0
    assert tfrc.nofeedback_interval_core(0.1, 1.0, 2.0, False) == 2.0


@pytest.mark.parametrize("x_target", [5.0, 7.5, 112.33, 1000.0, 1e5])
def test_first_interval_inverts_the_equation(x_target):
    """§6.3.1: the synthetic interval 1/p reproduces the target through §3.1 (targets at or
    above the 0.5/R = 5 packets/s floor for R = 0.1 s).  The RFC asks for 5 %; bisection
    to rounding gives 1e-12 (the rate is evaluated independently of the search here)."""
    interval = tfrc.loss_interval_for_rate(x_target, 0.1)
    assert tfrc.tfrc_rate_core(1.0, 0.1, 1 / interval, 0.4, 1.0) == pytest.approx(x_target,
                                                                                  rel=1e-12)


@pytest.mark.parametrize("x_target", [0.0, 0.01, 3.0, 4.999])
def test_first_interval_target_floor_is_half_a_packet_per_rtt(x_target):
    """§6.3.1: "The TFRC receiver uses 0.5/R packets per second as the minimum value for
    X_target" -- also the target for a null first interval (first packet lost, x_target
    = 0).  R = 0.1 s: every target below 5 packets/s gives the interval of exactly 5, whose
    equation rate is 5; for bytes (s = 1000 B) the floor is 0.5*1000/0.1 = 5000 B/s, the
    same interval."""
    interval = tfrc.loss_interval_for_rate(x_target, 0.1)
    assert interval == tfrc.loss_interval_for_rate(5.0, 0.1)
    assert tfrc.tfrc_rate_core(1.0, 0.1, 1 / interval, 0.4, 1.0) == pytest.approx(5.0, rel=1e-12)
    assert tfrc.loss_interval_for_rate(x_target, 0.1, s=1000.0) == pytest.approx(interval,
                                                                                  rel=1e-12)


def test_first_interval_below_the_p_1_rate_is_one_packet():
    """With b = 1e-6 the p = 1 rate is 1/(0.1 (sqrt(2e-6/3) + 4*3*sqrt(3e-6/8)*33))
    = 1/(0.1 (8.2e-4 + 0.2425)) = 41.1 packets/s: the target 10 (above the 5 floor) cannot
    be reached with p <= 1 -> interval 1."""
    assert tfrc.tfrc_rate_core(1.0, 0.1, 1.0, 0.4, 1e-6) == pytest.approx(41.1, rel=1e-3)
    assert tfrc.loss_interval_for_rate(10.0, 0.1, b=1e-6) == 1.0


def test_rtt_filter():
    """§4.3 step 2: first sample as is, then 0.9 R + 0.1 sample."""
    assert tfrc.rtt_filter_core(0.0, 0.2, 0.9, False) == 0.2
    assert tfrc.rtt_filter_core(0.1, 0.2, 0.9, True) == pytest.approx(0.11, rel=1e-15)


numba = pytest.importorskip("numba")


def test_numba_cores_agree_with_wrappers_on_a_grid():
    fb = numba.njit(tfrc.feedback_update_core)
    nf = numba.njit(tfrc.nofeedback_core)
    avg = numba.njit(tfrc.loss_event_rate_core)
    inv = numba.njit(tfrc.loss_interval_for_rate_core)
    push = numba.njit(tfrc.push_loss_interval_core)
    for X in (0.5, 40.0, 300.0):
        for p in (0.0, 1e-4, 0.01, 0.3, 1.0):
            for xr in (1.0, 50.0, math.inf):
                for R in (0.01, 0.1, 1.0):
                    for t_now, tld in ((1.0, -1.0), (1.0, 0.995), (2.0, 1.0)):
                        assert fb(X, p, xr, R, 1.0, 64.0, t_now, tld, 4.0, 1.0) == pytest.approx(
                            tfrc.feedback_update(X, p, xr, R, t_now, tld), rel=1e-14)
                    for has_fb in (True, False):
                        for idle in (True, False):
                            assert nf(X, p, xr, R, 1.0, 64.0, 4.0, has_fb, idle, 1.0) == \
                                pytest.approx(tfrc.nofeedback(X, p, xr, R, has_feedback=has_fb,
                                                              idle=idle), rel=1e-14)
    rng = np.random.default_rng(5)
    for k in range(0, 9):
        h = rng.uniform(1, 500, 9)
        assert avg(h, k, 8) == pytest.approx(tfrc.loss_event_rate(h[:k + 1]), rel=1e-15)
    for x in (0.5, 112.33, 1e5):
        assert inv(x, 1.0, 0.1, 1.0) == pytest.approx(tfrc.loss_interval_for_rate(x, 0.1),
                                                      rel=1e-14)
    a, b = np.zeros(9), np.zeros(9)
    ka = kb = 0
    for length in range(1, 12):
        ka = push(a, ka, 8, float(length), 1.0)
        kb = tfrc.push_loss_interval_core(b, kb, 8, float(length), 1.0)
    assert ka == kb and a.tolist() == b.tolist()


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"segment_size": 0.0}, r"segment_size must be in \(0, inf\), got 0.0"),
        ({"t_mbi": -64.0}, r"t_mbi must be in \(0, inf\), got -64.0"),
        ({"n": 7}, r"n must be an even integer >= 2, got 7"),
        ({"n": 0}, r"n must be an integer >= 1, got 0"),
        ({"q": 1.0}, r"q must be in \[0, 1\), got 1.0"),
        ({"b": 0.0}, r"b must be in \(0, inf\), got 0.0"),
    ],
)
def test_bad_params(kwargs, match):
    with pytest.raises(ParameterError, match=match):
        tfrc.TfrcParams(**kwargs)


@pytest.mark.parametrize(
    "func, args, match",
    [
        (tfrc.loss_event_rate, ([10, 0, 5],), r"closed intervals must be > 0, got \[0.0, 5.0\]"),
        (tfrc.loss_event_rate, ([1] * 10,), r"intervals must hold I_0 and at most n = 8 closed"),
        (tfrc.loss_event_rate, ([-1, 5],), r"intervals must be in \[0, inf\), got -1.0"),
        (tfrc.feedback_update, (0.0, 0.0, 1.0, 0.1, 1.0, -1.0), r"X must be in \(0, inf\), got 0.0"),
        (tfrc.feedback_update, (1.0, 1.5, 1.0, 0.1, 1.0, -1.0), r"p must be in \[0, 1\], got 1.5"),
        (tfrc.feedback_update, (1.0, 0.0, 1.0, 0.1, 1.0, 2.0),
         r"tld must be -1 or in \[0, t_now = 1.0\], got 2.0"),
        (tfrc.feedback_update, (1.0, 0.0, 1.0, 0.0, 1.0, -1.0), r"R must be in \(0, inf\), got 0.0"),
        (tfrc.nofeedback, (1.0, 0.0, 1.0, 0.1, None, "yes"), r"has_feedback must be True or False"),
        (tfrc.loss_interval_for_rate, (-1.0, 0.1), r"x_target must be in \[0, inf\), got -1.0"),
    ],
)
def test_bad_input(func, args, match):
    with pytest.raises(ParameterError, match=match):
        func(*args)
