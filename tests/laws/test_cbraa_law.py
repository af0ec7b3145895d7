"""CBRAA's Figure 1 rate update and the TCP-Friend rule (Ait-Hellal, Yamamoto & Leduc 1998, §3.2, §4)."""

import csv
from pathlib import Path

import numpy as np
import pytest
import sympy as sp

from ctlcc.bounds import cbraa as cb
from ctlcc.errors import ParameterError
from ctlcc.laws import cbraa

C = (7 / 9) * np.sqrt(8 / 3)


def test_thresholds_select_the_branch():
    lth = 0.02
    assert [cbraa.regime(x, lth) for x in (0.031, 0.03, 0.02, 0.01, 0.0099)] == [-1, 0, 0, 0, 1]


FIG1 = cbraa.CbraaParams(published=True)


@pytest.mark.parametrize("params, published", [(cbraa.CbraaParams(), False), (FIG1, True)])
def test_hold_keeps_the_rate(params, published):
    rate, srtt = 100.0, 0.1
    lth = 1 / (rate * cb.cycle(rate, srtt, published=published))
    assert cbraa.rate_update(rate, srtt, lth, params) == rate


def test_update_follows_figure_1_by_hand():
    """Figure 1 typed out: Cycle, Loss_th, branch, eq. (2) at the blended p, smoothing."""
    rate, srtt, loss_obs = 100.0, 0.1, 0.05
    cycle = srtt * (0.62 * rate * srtt + 0.96)
    loss_th = 1.0 / (rate * cycle)
    assert loss_obs > 1.5 * loss_th                                      # decrease branch
    p = 0.5 * loss_th + 0.5 * loss_obs
    rate_th = 1.2701 / (srtt * np.sqrt(p))
    expected = 0.5 * rate + 0.5 * rate_th
    assert cbraa.rate_update(rate, srtt, loss_obs, FIG1) == pytest.approx(expected, rel=1e-4)
    assert expected < rate


def test_no_loss_increases_and_high_loss_decreases():
    rates = np.array([20.0, 100.0, 400.0])
    assert np.all(cbraa.rate_update(rates, 0.1, 0.0) > rates)
    assert np.all(cbraa.rate_update(rates[1:], 0.1, 0.5) < rates[1:])


def test_decrease_branch_raises_the_rate_for_small_windows():
    """Finding: in the decrease branch (Loss_obs > a Loss_th) eq. (2) at
    p = beta Loss_th + (1 - beta) Loss_obs >= (beta + (1 - beta) a) Loss_th exceeds
    the current rate while x = B srtt < x* = 0.96 C^2 / (1.25 - 0.62 C^2) ≈ 6.2
    packets (Figure 1's Cycle, a = 1.5, beta = 0.5): just above the threshold
    "decrease(Rate)" increases the rate."""
    x_star = 0.96 * C**2 / (1.25 - 0.62 * C**2)
    assert 6.1 < x_star < 6.3
    srtt = 0.1
    for x, grows in [(2.0, True), (x_star - 0.2, True), (x_star + 0.2, False), (20.0, False)]:
        rate = x / srtt
        lth = 1 / (rate * cb.cycle(rate, srtt, published=True))
        loss = 1.5 * lth * (1 + 1e-9)
        assert cbraa.regime(loss, lth) == -1
        assert bool(cbraa.rate_update(rate, srtt, loss, FIG1) > rate) is grows, x


def test_equilibrium_at_the_ideal_loss():
    """If the observed loss stays at Loss_th(B), eq. (2) returns ~B (392/243 = C^2):
    the update is a fixed point up to the 1/(B R) term of eq. (4)."""
    params = cbraa.CbraaParams(published=False, a=1.0 + 1e-9, b=1.0 - 1e-9)
    rate, srtt = 2000.0, 0.12
    lth = cb.loss_th(rate, srtt)
    target = cbraa.target_rate(lth, lth, srtt, params)
    assert target == pytest.approx(rate * np.sqrt(1 + (14 / 9) / (rate * srtt)), rel=1e-12)


def test_minimum_rate_one_packet_per_srtt():
    assert cbraa.rate_update(1.0, 0.5, 1.0) == pytest.approx(2.0)         # floor 1/srtt
    assert cbraa.tcp_friend_update(0.1, 0.5, 0.0, 0.01) == pytest.approx(2.0)  # 0.12 -> floor


def test_iterated_update_converges_to_the_rate_whose_loss_is_observed():
    """Feed back the loss an ideal Reno would see at 200 packets/s: CBRAA settles
    inside its [b, a] Loss_th band around 200 packets/s."""
    srtt, true_rate = 0.12, 200.0
    loss = cb.loss_th(true_rate, srtt, published=False)
    rate = 5.0                                                          # §4's initial rate
    for _ in range(200):
        rate = cbraa.rate_update(rate, srtt, loss, FIG1)
    lth = 1 / (rate * cb.cycle(rate, srtt, published=True))
    assert 0.5 * lth <= loss <= 1.5 * lth
    assert 0.5 * true_rate < rate < 2 * true_rate


def test_tcp_friend_rule():
    """§3.2: zero loss -> + T_RTCP/(2 srtt^2); else eq. (2) at the loss."""
    assert cbraa.tcp_friend_update(50.0, 0.1, 0.0, 5.0) == pytest.approx(50.0 + 5.0 / (2 * 0.01))
    assert cbraa.tcp_friend_update(50.0, 0.1, 0.04, 5.0) == pytest.approx(C / (0.1 * 0.2))
    out = cbraa.tcp_friend_update(np.array([50.0, 50.0]), 0.1, np.array([0.0, 0.04]), 5.0)
    np.testing.assert_allclose(out, [300.0, C / 0.02])


def _section4():
    path = Path(__file__).resolve().parents[2] / "data" / "cbraa_section4.csv"
    return {r["quantity"]: float(r["value"]) for r in csv.DictReader(open(path))}


def test_section_4_ideal_shares_proportional_to_one_over_rtt():
    """§4.3 (Figure 6): the 4 Mb/s link shared by RTTs 70, 70, 220 ms at equal
    loss, rate ∝ 1/RTT (eq. (1)) -> about 215 and 69 kB/s as printed."""
    s4 = _section4()
    total = s4["bottleneck_capacity"] / 8                                 # [B/s]
    rtts = np.array([s4["fig6_rtt_short"], s4["fig6_rtt_short"], s4["fig6_rtt_long"]])
    share = total * (1 / rtts) / np.sum(1 / rtts)
    assert abs(share[0] - s4["fig6_ideal_short"]) < 1e3                    # 215.7 vs 215 kB/s
    assert abs(share[2] - s4["fig6_ideal_long"]) < 1e3                     # 68.6 vs 69 kB/s


def test_section_4_initial_rate_and_fair_share():
    s4 = _section4()
    assert s4["initial_rate"] * s4["packet_size"] * 8 == s4["initial_rate_bps"]      # 5 pkt/s = 40 kb/s
    assert s4["bottleneck_capacity"] / 2 == s4["fair_share_2_sources"]
    assert s4["bottleneck_capacity"] / 4 == s4["fair_share_4_sources"]


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"a": 0.4}, r"a must be > b = 0.5"),
        ({"b": 1.0}, r"b must be in \(0, 1\)"),
        ({"alpha": 1.0}, r"alpha must be in \[0, 1\)"),
        ({"beta": 0.0}, r"beta must be in \(0, 1\]"),
        ({"C": 0.0}, r"C must be in \(0, inf\)"),
    ],
)
def test_bad_params(kwargs, match):
    with pytest.raises(ParameterError, match=match):
        cbraa.CbraaParams(**kwargs)


@pytest.mark.parametrize(
    "func, args, match",
    [
        (cbraa.rate_update, (0.0, 0.1, 0.01), r"rate must be in \(0, inf\)"),
        (cbraa.rate_update, (10.0, 0.0, 0.01), r"srtt must be in \(0, inf\)"),
        (cbraa.rate_update, (10.0, 0.1, 1.5), r"loss_obs must be in \[0, 1\]"),
        (cbraa.tcp_friend_update, (10.0, 0.1, 0.01, 0.0), r"t_rtcp must be in \(0, inf\)"),
        (cbraa.tcp_friend_update, (10.0, 0.1, -0.01, 1.0), r"loss must be in \[0, 1\]"),
    ],
)
def test_bad_input(func, args, match):
    with pytest.raises(ParameterError, match=match):
        func(*args)


# --- report sequences, by hand (Figure 1 with its printed 0.62 and 0.96, alpha = 0.5) ---------

@pytest.mark.parametrize(
    "losses, expected, source",
    [
        # rate 200 packets/s, srtt 0.12 s.  Report 1, Loss_obs = 0.02:
        #   Cycle = 0.12 (0.62 200 0.12 + 0.96) = 1.9008 s, Loss_th = 1/(200 1.9008)
        #   = 0.0026305; 0.02 > 1.5 Loss_th -> decrease: p = (0.0026305 + 0.02)/2
        #   = 0.0113152, Rate_th = 1.2701/(0.12 sqrt(p)) = 99.501, Rate = (200 + 99.501)/2
        #   = 149.750.  Report 2, 0.005: Cycle = 1.45217, Loss_th = 0.0045985, ratio 1.087
        #   in [0.5, 1.5] -> hold.  Report 3, 0.003: ratio 0.652 -> hold.  Report 4, 0:
        #   increase, p = Loss_th/2, Rate_th = 220.733, Rate = 185.242.
        ([0.02, 0.005, 0.003, 0.0], [149.75043160, 149.75043160, 149.75043160, 185.24157131],
         "Figure 1 by hand (sympy-exact route in the comments)"),
    ],
)
def test_report_sequence_by_hand(losses, expected, source):
    rate, seen = 200.0, []
    for loss in losses:
        rate = cbraa.rate_update(rate, 0.12, loss, FIG1)
        seen.append(rate)
    np.testing.assert_allclose(seen, expected, rtol=1e-9, err_msg=source)   # 9 digits typed


def test_report_sequence_from_the_initial_rate_hits_the_floor():
    """§4: start at 5 packets/s, srtt 0.1 s, no loss.  Cycle = 0.1 (0.62 5 0.1 + 0.96)
    = 0.127, Loss_th = 1/(5 0.127) = 1.5748 (> 1: an ideal Reno at half a packet per
    round trip), increase: Rate_th = 1.2701/(0.1 sqrt(0.7874)) = 14.313, smoothed 9.657,
    below the floor 1/srtt = 10 -> 10.  Next report: Cycle 0.158, Loss_th 0.63291,
    Rate_th = 22.578 -> 16.289."""
    r1 = cbraa.rate_update(5.0, 0.1, 0.0, FIG1)
    r2 = cbraa.rate_update(r1, 0.1, 0.0, FIG1)
    assert r1 == 10.0
    assert r2 == pytest.approx(16.28894721, rel=1e-9)


def test_tcp_friend_report_sequence_by_hand():
    """T_RTCP 5 s, srtt 0.1 s, start 5 packets/s: loss 0 -> 5 + 5/(2 0.01) = 255;
    0 -> 505; 0.01 -> 1.2701/(0.1 0.1) = 127.01; 0 -> 377.01; 0.25 -> 1.2701/(0.1 0.5)
    = 25.40."""
    rate, seen = 5.0, []
    for loss in (0.0, 0.0, 0.01, 0.0, 0.25):
        rate = cbraa.tcp_friend_update(rate, 0.1, loss, 5.0)
        seen.append(rate)
    np.testing.assert_allclose(seen, [255.0, 505.0, 10 * C / 0.1, 10 * C / 0.1 + 250.0,
                                      2 * C / 0.1], rtol=1e-12)


def test_cycle_loss_sliding_window_by_hand():
    """Reports at 5, 10, 15, 20 s with (lost, sent) = (0, 100), (2, 100), (0, 100),
    (1, 100).  Cycle 12 s at t = 20: reports after 8 s -> 3/300 = 0.01; cycle 3 s: only
    the newest -> 1/100; cycle 100 s: all -> 3/400."""
    t, lost, sent = [5.0, 10.0, 15.0, 20.0], [0, 2, 0, 1], [100, 100, 100, 100]
    assert cbraa.cycle_loss(t, lost, sent, 20.0, 12.0) == pytest.approx(3 / 300)
    assert cbraa.cycle_loss(t, lost, sent, 20.0, 3.0) == pytest.approx(1 / 100)
    assert cbraa.cycle_loss(t, lost, sent, 20.0, 100.0) == pytest.approx(3 / 400)
    assert cbraa.cycle_loss([1.0], [0], [0], 1.0, 1.0) == 0.0                  # nothing sent


def test_cores_are_symbolic_and_match_equations_3_4():
    """Exact constants: Cycle = (243/392) R^2 B + (27/28) R and 1/(B Cycle) =
    (392/243)/(B^2 R^2 + (14/9) B R) (eq. (4) exact); eq. (2) C = (7/9) sqrt(8/3)."""
    B, R, p, beta = sp.symbols("B R p beta", positive=True)
    c1, c2 = sp.Rational(243, 392), sp.Rational(27, 28)
    assert sp.expand(cbraa.cycle_core(B, R, c1, c2) - (c1 * R**2 * B + c2 * R)) == 0
    assert sp.simplify(cbraa.loss_th_core(B, R, c1, c2)
                       - sp.Rational(392, 243) / (B**2 * R**2 + sp.Rational(14, 9) * B * R)) == 0
    target = cbraa.target_rate_core(p, p, R, beta, 1)
    assert sp.simplify(target - 1 / (R * sp.sqrt(p))) == 0
    assert cbraa.C_CBRAA == pytest.approx(float(sp.Rational(7, 9) * sp.sqrt(sp.Rational(8, 3))),
                                          rel=1e-15)
    from ctlcc.bounds.mathis import mathis_constant
    assert cbraa.C_CBRAA == mathis_constant("cbraa")


numba = pytest.importorskip("numba")


def test_numba_cores_agree_with_wrappers_on_a_grid():
    upd = numba.njit(cbraa.rate_update_core)
    friend = numba.njit(cbraa.tcp_friend_update_core)
    for params in (cbraa.CbraaParams(), FIG1, cbraa.CbraaParams(alpha=0.0, beta=1.0)):
        for rate in np.geomspace(1.0, 5000.0, 12):
            for srtt in (0.01, 0.07, 0.12, 0.22, 1.0):
                for loss in (0.0, 1e-4, 3e-3, 0.02, 0.3, 1.0):
                    assert upd(rate, srtt, loss, *params.core_args()) == pytest.approx(
                        cbraa.rate_update(rate, srtt, loss, params), rel=1e-14)
                    assert friend(rate, srtt, loss, 5.0, params.C) == pytest.approx(
                        cbraa.tcp_friend_update(rate, srtt, loss, 5.0, params.C), rel=1e-14)
    win = numba.njit(cbraa.cycle_loss_core)
    rng = np.random.default_rng(4)
    times = np.sort(rng.uniform(0, 50, 16))
    sent = rng.integers(1, 200, 16).astype(float)
    lost = np.floor(sent * rng.uniform(0, 0.1, 16))
    for cycle in (0.5, 3.0, 10.0, 60.0):
        assert win(times, lost, sent, 16, times[-1], cycle) == pytest.approx(
            cbraa.cycle_loss(times, lost, sent, times[-1], cycle), rel=1e-15)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"t_rtcp": 0.0}, r"t_rtcp must be in \(0, inf\), got 0.0"),
        ({"initial_rate": -5.0}, r"initial_rate must be in \(0, inf\), got -5.0"),
        ({"published": "yes"}, r"published must be True or False, got 'yes'"),
    ],
)
def test_bad_new_params(kwargs, match):
    with pytest.raises(ParameterError, match=match):
        cbraa.CbraaParams(**kwargs)


def test_params_defaults_section_4():
    """§4: initial rate 5 packets/s; §4.2: two RTCP reports in about 10 s -> 5 s."""
    p = cbraa.CbraaParams()
    assert (p.initial_rate, p.t_rtcp, p.alpha) == (5.0, 5.0, 0.5)
    assert cbraa.TcpFriendParams().initial_rate == 5.0
    with pytest.raises(ParameterError, match=r"C must be in \(0, inf\), got -1.0"):
        cbraa.TcpFriendParams(C=-1.0)


@pytest.mark.parametrize(
    "args, match",
    [
        (([1.0, 2.0], [0], [1]), r"times, lost and sent must be 1-d arrays of one equal length"),
        (([1.0], [2], [1]), r"lost must be <= sent in every report"),
        (([3.0], [0], [1]), r"times must be <= now = 2.0, got 3.0"),
        (([1.0], [-1], [1]), r"lost must be in \[0, inf\), got -1.0"),
    ],
)
def test_cycle_loss_bad_input(args, match):
    with pytest.raises(ParameterError, match=match):
        cbraa.cycle_loss(*args, now=2.0, cycle=1.0)
