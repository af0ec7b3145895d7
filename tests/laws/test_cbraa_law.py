"""CBRAA's Figure 1 rate update and the TCP-Friend rule (Ait-Hellal, Yamamoto & Leduc (1999), §3.2, §4)."""

import csv
from pathlib import Path

import numpy as np
import pytest

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
    """Ait-Hellal, Yamamoto & Leduc (1999), §3.2: zero loss -> + T_RTCP/(2 srtt^2); else eq. (2) at the loss."""
    assert cbraa.tcp_friend_update(50.0, 0.1, 0.0, 5.0) == pytest.approx(50.0 + 5.0 / (2 * 0.01))
    assert cbraa.tcp_friend_update(50.0, 0.1, 0.04, 5.0) == pytest.approx(C / (0.1 * 0.2))
    out = cbraa.tcp_friend_update(np.array([50.0, 50.0]), 0.1, np.array([0.0, 0.04]), 5.0)
    np.testing.assert_allclose(out, [300.0, C / 0.02])


def _section4():
    path = Path(__file__).resolve().parents[2] / "data" / "cbraa_section4.csv"
    return {r["quantity"]: float(r["value"]) for r in csv.DictReader(open(path))}


def test_section_4_ideal_shares_proportional_to_one_over_rtt():
    """Ait-Hellal, Yamamoto & Leduc (1999), §4.3 (Figure 6): the 4 Mb/s link shared by RTTs 70, 70, 220 ms at equal
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
