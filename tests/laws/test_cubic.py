"""CUBIC's window rules (ctlcc.laws.cubic) against RFC 9438, by independent routes.

Expected values: sympy solutions of the RFC's equations, a numerical
quadrature of the deterministic-loss cycle for the response function, a
per-round-trip AIMD sawtooth for the Reno-friendly alpha, and hand
arithmetic for the clamps and fast convergence.
"""

import math

import numba
import numpy as np
import pytest
import sympy as sp
from scipy.integrate import quad
from scipy.optimize import brentq

from ctlcc.errors import ParameterError
from ctlcc.laws import cubic


def test_constants_of_rfc9438():
    assert (cubic.C, cubic.BETA) == (0.4, 0.7)          # RFC 9438 §4.1
    assert cubic.alpha_cubic() == pytest.approx(0.9 / 1.7, rel=1e-15)  # 3 x 0.3 / 1.7


def test_k_solves_w_cubic_at_zero_equals_cwnd_epoch():
    """K is the root of W_cubic(0) = cwnd_epoch (RFC 9438 Figure 2), by sympy."""
    k, c, w_max, w0 = sp.symbols("K C W_max cwnd_epoch", positive=True)
    roots = sp.solve(sp.Eq(cubic.window_core(0, k, w_max, c), w0), k)
    for wm, we in ((100.0, 70.0), (1e4, 7e3), (30.0, 29.0)):
        values = [complex(r.subs({c: 0.4, w_max: wm, w0: we})) for r in roots]
        real = [v.real for v in values if abs(v.imag) < 1e-12]
        assert len(real) == 1                  # one real root: K
        expected = real[0]
        got, plateau = cubic.epoch_start(wm, we)
        assert got == pytest.approx(expected, rel=1e-13)
        assert plateau == wm
    assert cubic.epoch_start(100.0, 70.0)[0] == pytest.approx(75.0 ** (1 / 3), rel=1e-15)


def test_window_plateau_is_flat_and_convex_after():
    t, k, w, c = sp.symbols("t K W_max C", positive=True)
    f = cubic.window_core(t, k, w, c)
    assert sp.diff(f, t).subs(t, k) == 0                 # plateau at W_max
    assert sp.simplify(sp.diff(f, t, 2) - 6 * c * (t - k)) == 0   # concave before, convex after
    assert cubic.window(4.0, 4.0, 100.0) == 100.0


@pytest.mark.parametrize("cwnd, w_next, expected", [
    (50.0, 40.0, 50.0),     # W_cubic(t + RTT) < cwnd: hold
    (50.0, 60.0, 60.0),     # inside: the function
    (50.0, 90.0, 75.0),     # above 1.5 cwnd: 1.5 cwnd
])
def test_target_clamp(cwnd, w_next, expected):
    assert cubic.target_core(cwnd, w_next) == expected


@pytest.mark.parametrize("cwnd, w_max, fast, expected", [
    (100.0, 0.0, True, (70.0, 100.0)),          # first loss: W_max = cwnd
    (100.0, 120.0, True, (70.0, 85.0)),         # cwnd < W_max: W_max = cwnd (1 + 0.7)/2
    (100.0, 120.0, False, (70.0, 100.0)),
    (2.0, 10.0, True, (2.0, 1.7)),              # ssthresh floor of 2 segments
])
def test_loss_and_fast_convergence(cwnd, w_max, fast, expected):
    got = cubic.loss(cwnd, w_max, fast_convergence=fast)
    assert got == pytest.approx(expected, rel=1e-15)


def _aimd_average(alpha, beta, p, rtts=200_000):
    """Per-RTT AIMD sawtooth: +alpha per RTT, x beta when 1/p packets have gone."""
    w, sent, total_w, n = 10.0, 0.0, 0.0, 0
    budget = 1.0 / p
    for _ in range(rtts):
        total_w += w
        n += 1
        sent += w
        if sent >= budget:
            sent -= budget
            w *= beta
        else:
            w += alpha
    return total_w / n


@pytest.mark.parametrize("p", [1e-3, 1e-4])
def test_alpha_cubic_gives_renos_average_window(p):
    """RFC 9438 §4.3: AIMD(alpha_cubic, 0.7) has Reno's (AIMD(1, 0.5)) average window."""
    reno = _aimd_average(1.0, 0.5, p)
    friendly = _aimd_average(cubic.alpha_cubic(), 0.7, p)
    assert friendly == pytest.approx(reno, rel=0.02)
    assert reno == pytest.approx(math.sqrt(3 / (2 * p)), rel=0.03)   # Mathis et al.'s law


@pytest.mark.parametrize("p, rtt", [(1e-4, 0.1), (1e-5, 0.05), (1e-3, 0.3)])
def test_average_window_by_quadrature(p, rtt):
    """RFC 9438 §5.1: cycles from beta W_max back to W_max carry 1/p packets each."""
    c, beta = cubic.C, cubic.BETA

    def packets(w_max):
        k = ((w_max * (1 - beta)) / c) ** (1 / 3)
        area, _ = quad(lambda t: cubic.window_core(t, k, w_max, c), 0.0, k)
        return area / rtt - 1.0 / p

    w_max = brentq(packets, 1.0, 1e9, xtol=1e-12, rtol=1e-14)
    k = ((w_max * (1 - beta)) / c) ** (1 / 3)
    area, _ = quad(lambda t: cubic.window_core(t, k, w_max, c), 0.0, k)
    assert cubic.average_window(p, rtt) == pytest.approx(area / k, rel=1e-9)


def test_per_ack_rule_tracks_w_cubic():
    """ACK by ACK (one window of ACKs per RTT), cwnd follows W_cubic(t) within 1 segment."""
    rtt = 0.1
    k, w_max = cubic.epoch_start(100.0, 70.0)
    cwnd, w_est, t = 70.0, 70.0, 0.0
    worst = 0.0
    while t < 2 * k:
        acks = int(cwnd)
        for i in range(acks):
            cwnd, w_est = cubic.congestion_avoidance_core(
                cwnd, w_est, 100.0, t + rtt * i / acks, rtt, k, w_max, cubic.C, cubic.BETA,
                False)
        t += rtt
        worst = max(worst, abs(cwnd - cubic.window_core(t, k, w_max, cubic.C)))
    assert worst < 1.0


def test_reno_friendly_region_wins_at_small_bdp():
    """Short epochs (small K): W_est outgrows W_cubic and cwnd = W_est (RFC 9438 §4.3)."""
    k, w_max = cubic.epoch_start(10.0, 7.0)
    cwnd, w_est = 7.0, 7.0
    for _ in range(500):   # 500 ACKs in 2 s
        cwnd, w_est = cubic.congestion_avoidance(cwnd, w_est, 10.0, 0.5, 0.05, k, w_max)
    assert cwnd == w_est
    # alpha switches to 1 once W_est reaches cwnd_prior (= 10): beyond, +1 per window
    assert w_est > 10.0


def test_core_compiles_with_numba():
    fast = numba.njit(cubic.congestion_avoidance_core)
    for args in [(70.0, 70.0, 100.0, 0.5, 0.1, 4.2, 100.0, 0.4, 0.7, True),
                 (95.0, 80.0, 100.0, 3.0, 0.1, 4.2, 100.0, 0.4, 0.7, False)]:
        assert fast(*args) == cubic.congestion_avoidance_core(*args)
    assert numba.njit(cubic.loss_core)(80.0, 100.0, 0.7, True) == (56.0, 68.0)
    assert numba.njit(cubic.epoch_start_core)(100.0, 70.0, 0.4)[1] == 100.0


@pytest.mark.parametrize("call, match", [
    (lambda: cubic.alpha_cubic(1.0), r"beta must be in \(0, 1\)"),
    (lambda: cubic.epoch_start(100.0, 0.0), r"cwnd_epoch must be"),
    (lambda: cubic.window(-1.0, 1.0, 10.0), r"t must be"),
    (lambda: cubic.loss(0.0, 10.0), r"cwnd must be"),
    (lambda: cubic.loss(10.0, 10.0, fast_convergence=1), r"fast_convergence"),
    (lambda: cubic.average_window(0.0, 0.1), r"loss_probability must be in \(0, 1\)"),
    (lambda: cubic.congestion_avoidance(10.0, 10.0, 10.0, 0.0, 0.0, 0.0, 10.0),
     r"rtt must be"),
])
def test_bad_input(call, match):
    with pytest.raises(ParameterError, match=match):
        call()


# --- ns-3.44's TcpCubic (Linux's integer arithmetic), by hand from tcp-cubic.cc ------------
# TcpCubic::Update (ns-3.44), with uint32_t truncations:
#   offs = |t - K|;  delta = uint32(C offs^3);  target = origin -/+ delta (t < K / t >= K)
#   cnt = segCwnd / (target - segCwnd) if target > segCwnd else 100 segCwnd
#   cnt = min(cnt, CntClamp = 20) if m_lastMaxCwnd == 0
#   scale = uint32(8 (1024 + 1024 beta) / 3 / (1024 - 1024 beta)) = uint32(15.11) = 15
#   step = (segCwnd scale) >> 3;  while ackCnt > step: ackCnt -= step, tcpCwnd++
#   cnt = min(cnt, segCwnd / (tcpCwnd - segCwnd)) if tcpCwnd > segCwnd;  return max(cnt, 2)
@pytest.mark.parametrize("args, expected", [
    # below the plateau: W_max 100, cwnd_epoch 70, K = cbrt(30/0.4) = 4.2172 s, t = 0.1 s:
    # offs 4.1172, 0.4 x 69.79 = 27.92 -> 27, target 73, cnt = 70 // 3 = 23;
    # step = 1050 >> 3 = 131 > ack_cnt 5: the estimate stays 70
    ((70, 0.1, 4.2172, 100, 0.4, 5, 70, 0.7, False, True), (23, 5, 70)),
    # at the origin with a Reno estimate ahead: target 10 = cwnd -> cnt 100 x 10 = 1000;
    # step = 150 >> 3 = 18: ack_cnt 40 -> 22 -> 4, estimate 10 -> 12; cap 10 // 2 = 5
    ((10, 0.0, 0.0, 10, 0.4, 40, 10, 0.7, False, True), (5, 4, 12)),
    # the same without the Reno-friendly region, before the first loss: clamped to 20
    ((10, 0.0, 0.0, 10, 0.4, 40, 10, 0.7, True, False), (20, 40, 10)),
    # ... and after it (no clamp): one segment per 100 cwnd ACKs
    ((10, 0.0, 0.0, 10, 0.4, 40, 10, 0.7, False, False), (1000, 40, 10)),
    # far above cwnd: t = 5 s past K, 0.4 x 125 = 50, target 60, 10 // 50 = 0 -> cnt 2
    ((10, 5.0, 0.0, 10, 0.4, 1, 10, 0.7, False, True), (2, 1, 10)),
    # the target truncated: 0.4 x 1.2^3 = 0.6912 -> 0: target 10 = cwnd, cnt 1000
    ((10, 1.2, 0.0, 10, 0.4, 1, 10, 0.7, False, False), (1000, 1, 10)),
])
def test_ns3_count_by_hand(args, expected):
    assert cubic.ns3_count_core(*args) == expected
    assert numba.njit(cubic.ns3_count_core)(*args) == expected


@pytest.mark.parametrize("args, expected", [
    # GetSsThresh: segCwnd = 33 (33.6 truncated); 33 x 0.7 = 23.1 -> 23 (RFC: 23.52);
    # 33 < W_max 50 with fast convergence: uint32(33 x 1.7 / 2 = 28.05) = 28 (RFC: 28.56)
    ((33.6, 50.0, 0.7, True), (23.0, 28.0)),
    ((33.6, 50.0, 0.7, False), (23.0, 33.0)),
    ((100.9, 0.0, 0.7, True), (70.0, 100.0)),
    # segCwnd 2: uint32(1.4) = 1 -> max(1, 2) = 2
    ((2.9, 0.0, 0.7, True), (2.0, 2.0)),
])
def test_ns3_loss_by_hand(args, expected):
    assert cubic.ns3_loss_core(*args) == expected
    assert numba.njit(cubic.ns3_loss_core)(*args) == expected
    ssthresh, w_max = cubic.loss_core(*args)  # the RFC's real numbers: not truncated
    assert ssthresh >= expected[0] and w_max >= expected[1]


def test_ns3_alpha_is_eight_fifteenths():
    # scale = uint32(8 x 1740.8 / 3 / 307.2) = uint32(15.11) = 15: alpha = 8/15
    assert cubic.ns3_alpha_core(0.7) == 8.0 / 15.0
    assert numba.njit(cubic.ns3_alpha_core)(0.7) == 8.0 / 15.0
    assert abs(cubic.ns3_alpha_core(0.7) - cubic.alpha_cubic(0.7)) < 0.005
    # beta = 0.5: scale = uint32(8 x 1536 / 3 / 512) = 8: alpha = 1 (RFC: 1)
    assert cubic.ns3_alpha_core(0.5) == 1.0 == cubic.alpha_cubic(0.5)


def test_avoidance_step_is_the_rfc_rule_with_alpha_given():
    # congestion_avoidance_core = alpha by RFC 9438 §4.3 + avoidance_step_core, exactly
    step = numba.njit(cubic.avoidance_step_core)
    for cwnd, w_est, prior, t, friendly in [(70.0, 70.0, 100.0, 0.5, True),
                                            (95.0, 80.0, 100.0, 3.0, False),
                                            (50.0, 120.0, 100.0, 1.0, True)]:
        alpha = 1.0 if w_est >= prior else cubic.alpha_cubic(0.7)
        args = (cwnd, w_est, alpha, t, 0.1, 4.2, 100.0, 0.4, friendly)
        expected = cubic.congestion_avoidance_core(cwnd, w_est, prior, t, 0.1, 4.2, 100.0, 0.4,
                                                   0.7, friendly)
        assert cubic.avoidance_step_core(*args) == expected == step(*args)
