"""IFTP §4/§6/§8 and CBRAA §4.3 sentence units on hand-made results.

Expected values are worked by hand beside each assertion, or are the papers' printed
numbers; nothing is taken from ctlcc's simulator.
"""

from types import SimpleNamespace

import numpy as np
import pytest

from ctlcc.claims import cbraa_more_findings as CM
from ctlcc.claims import iftp_more_sentences as IM


def test_tcp_below_iftp_on_a_hand_made_friendliness_run():
    fr = SimpleNamespace(names=("reno0", "reno1", "iftp0", "iftp1"), seeds=(0, 1),
                         sink=np.array([[0.30e6, 0.20e6, 0.26e6, 0.24e6],
                                        [0.25e6, 0.25e6, 0.20e6, 0.20e6]]))
    m = IM.tcp_below_iftp(fr)
    # seed 0: 0.25 - 0.25 = 0; seed 1: 0.25 - 0.20 = +0.05 Mb/s
    assert m.samples == pytest.approx((0.0, 0.05))
    assert m.value == pytest.approx(0.025)


def test_tcp_losses_ratio_by_hand():
    per = np.array([[[100, 99, 50, 50], [100, 98, 300, 200]],      # TCP 3, UDP 100
                    [[100, 100, 50, 40], [100, 95, 300, 260]]])    # TCP 5, UDP 50
    assert IM.loss_ratio(per) == pytest.approx([0.03, 0.1])
    f5 = SimpleNamespace(per_seed=per, seeds=(0, 1), udp_rates=np.array([0.05e6, 0.3e6]))
    assert IM.tcp_losses_minimum(f5).value == pytest.approx(0.065)


def test_friendly_columns_take_the_worse_direction():
    t4 = SimpleNamespace(tcp=np.array([[1.0, 1.0, 2.0], [1.0, 3.0, 1.0]]),
                         iftp=np.array([[1.5, 1.0, 1.0], [1.2, 1.0, 0.9]]),
                         bandwidths=np.array([0.5e6, 1e6, 1.5e6]), delays=np.array([1e-3, 3e-3]),
                         seeds=(0,))
    # ratios max(i/t, t/i): 1.5, 1, 2, 1.2, 3, 1.11: the worst is 3 at D=3 ms, B=1.0
    m = IM.friendly_all_columns(t4)
    assert m.value == pytest.approx(3.0)
    assert "B=1.0 Mb/s, D=3 ms" in m.reason


def test_cbraa_close_to_ideal_with_the_papers_numbers_as_implied():
    rates = {0: 200e3, 1: 230e3, 2: 60e3}              # bytes/s
    fig6 = SimpleNamespace(labels=("TCP (25 ms)", "CBRAA (25 ms)", "CBRAA (100 ms)"),
                           duration=500.0, mean=lambda i, t0, t1: rates[i])
    m = CM.close_to_ideal(fig6)
    # |60/69 - 1| = 9/69 = 0.1304 beats |200/215 - 1| = 0.0698 and |230/215 - 1| = 0.0698
    assert m.value == pytest.approx(9 / 69)
    # the paper's 178 against its ideal 215: 37/215
    assert m.implied == pytest.approx(37 / 215)


def test_cbraa_tcp_share_over_its_ideal():
    fig6 = SimpleNamespace(labels=("TCP (25 ms)",), duration=500.0,
                           mean=lambda i, t0, t1: 172e3)
    m = CM.tcp_below_fair_share(fig6)
    assert m.value == pytest.approx(172 / 215) and m.implied == pytest.approx(178 / 215)
