"""CBRAA, Primo and STTP equation units and the STTP/IFTP sentence units.

Expected values are computed by hand in the test (or come from the paper's
printed numbers); the sentence units are fed small hand-made results whose
answer is known, so each unit is checked apart from ctlcc's simulator.
"""

from types import SimpleNamespace

import numpy as np
import pytest

from ctlcc.claims import evaluate, units
from ctlcc.claims import cbraa_equations as CE
from ctlcc.claims import iftp_sentences as IS
from ctlcc.claims import sttp_equations as SQ
from ctlcc.claims import sttp_sentences as SS
from ctlcc.experiments.sttp import Table2Result


def _claims(*ids):
    return {c.id: c for c in evaluate(units(ids=list(ids))) if c.id in ids}


def test_cbraa_cycle_by_hand():
    assert CE.cycle_packets(10) == 5 + 6 + 7 + 8 + 9 + 10 == 45
    assert CE.cycle_packets(4) == 2 + 3 + 4 == 3 * 4 * 6 / 8


def test_cbraa_averages_and_forms():
    ids = ["cbraa-s2-cycle-packets-sum", "cbraa-s2-avg-rtt-limit", "cbraa-s2-avg-window-limit",
           "cbraa-s2-loss-ratio-form", "cbraa-s3.1-cycle-form", "cbraa-s3.2-tcp-friend-half-reno",
           "cbraa-s4-initial-rate"]
    got = _claims(*ids)
    assert got["cbraa-s2-avg-rtt-limit"].value == pytest.approx(7 / 9, abs=1e-15)
    # Wmax = 20: sum_{i=10}^{20} i^2 = 2485, N = 165, 2485 / 165 / 20 = 47/60
    assert "47/60" in got["cbraa-s2-avg-rtt-limit"].reason
    assert got["cbraa-s3.2-tcp-friend-half-reno"].value == 0.5
    assert got["cbraa-s4-initial-rate"].value == 40.0
    assert all(got[i].verdict == "reproduced" for i in ids)


def test_primo_arithmetic():
    got = _claims("primo-s3e-thresholds-2x", "primo-s4b-ratio-low", "primo-s4b-ratio-high",
                  "primo-s4b-rtt-spread")
    assert [got[i].value for i in ("primo-s3e-thresholds-2x", "primo-s4b-ratio-low",
                                   "primo-s4b-ratio-high", "primo-s4b-rtt-spread")] == \
        [0.34, 5.0, 80.0, 98.0]


def test_token_bucket_bursts_by_hand():
    # sigma = 2, rho = 1: full bucket + one arrival in the first step = 3; then one per step
    assert SQ.largest_bursts(2, 1, 4) == {1: 3, 2: 4, 3: 5, 4: 6}
    # an empty-capacity bucket spends only what arrives
    assert SQ.largest_bursts(0, 2, 3) == {1: 2, 2: 4, 3: 6}


def test_the_burst_check_would_see_sigma_plus_rho_s_minus_one(monkeypatch):
    """A bucket that caps before spending reaches sigma + rho (S - 1): the unit reports rho."""
    def capped(sigma, rho, steps):
        return {s: sigma + rho * (s - 1) for s in range(1, steps + 1)}

    monkeypatch.setattr(SQ, "largest_bursts", capped)
    assert SQ.max_burst().value == 2.0                  # rho = 2 is the largest gap


def test_on_off_budget_by_hand():
    # idle 5 steps with 1 token/step from 0, capped at 3: 3 held; on for 2 steps: 3 + 1 + 1
    assert SQ.on_off_budget(3, 1, 2, 5, 0) == 5          # printed budget 1 x 7 + 0 = 7
    assert SQ.on_off_budget(10, 2, 3, 2, 1) == 2 * 5 + 1  # never capped: the printed budget


def test_sttp_worked_numbers_and_their_printed_errors():
    got = _claims("sttp-s3a-bottleneck-16ms", "sttp-s3b1-10pct-faster-arith",
                  "sttp-s3b3-ratio-arith", "sttp-s3b3-bucket-15-arith")
    assert got["sttp-s3a-bottleneck-16ms"].value == pytest.approx(512 / 32)
    assert got["sttp-s3b1-10pct-faster-arith"].value == pytest.approx(13.6 / 1.292)
    assert got["sttp-s3b1-10pct-faster-arith"].verdict == "printed-error"    # 10.53 %, not 10
    assert got["sttp-s3b3-ratio-arith"].value == pytest.approx(78 / 255)
    assert got["sttp-s3b3-ratio-arith"].verdict == "printed-error"           # 0.3059: 0.306
    assert got["sttp-s3b3-bucket-15-arith"].value == pytest.approx(14.888)


# --- sentence units on hand-made results ----------------------------------------------------

def _table2(sent):
    configs = ("TCP Reno", "STTP 9:1", "STTP 5:5", "STTP 1:9")
    return Table2Result(configs=configs, sources=(1, 2, 4),
                        sent={k: np.array(v) for k, v in sent.items()},
                        dropped={k: np.zeros(len(v), int) for k, v in sent.items()},
                        duration=2000.0, start_interval=4.0)


def test_table2_sentences_on_a_hand_made_table():
    sent = {}
    for c in ("TCP Reno", "STTP 9:1", "STTP 5:5", "STTP 1:9"):
        sent[c, 1] = [32000]
        sent[c, 2] = [16000, 16000]
        sent[c, 4] = [8000] * 4
    sent["STTP 9:1", 2] = [24000, 8000]          # Jain 32000^2 / (2 (24000^2 + 8000^2)) = 0.8
    sent["STTP 9:1", 4] = [20000, 4000, 4000, 4000]   # 32000^2 / (4 x 4.48e8) = 0.5714...
    sent["TCP Reno", 4] = [8000, 8000, 8000, 8100]    # total 32100
    out = SS.table2_sentences(_table2(sent))
    assert out["sttp-s4b1-totals-above-32000"].value == 32100
    assert out["sttp-s4b1-5-5-1-9-fairer-jain"].value == pytest.approx(0.2)   # 1 - 0.8 at n = 2
    assert out["sttp-s4b1-9-1-fair"].value == pytest.approx(32000 ** 2 / (4 * 4.48e8))
    reno4 = 32100 ** 2 / (4 * (3 * 8000 ** 2 + 8100 ** 2))
    assert out["sttp-s4b1-reno-more-balanced-jain"].value == pytest.approx(reno4 - 1.0)
    # implied values from the paper: 9:1's quoted index, the quoted margin 0.99 - 0.84
    assert out["sttp-s4b1-9-1-fair"].implied == 0.75
    assert out["sttp-s4b1-5-5-1-9-fairer-jain"].implied == pytest.approx(0.15)


def test_experiment1_helpers_by_hand():
    assert SS.loss_growth([10, 100, 200], [0, 90, 390]) == pytest.approx(30 / 10)
    assert np.isnan(SS.loss_growth([10, 100, 200], [5, 5, 5]))
    assert SS.transmit_ratio([3, 10], [6, 2], [2, 1]) == pytest.approx(1.75)   # median(1.5, 2)
    assert SS.goodput_share([[5, 1, 1], [1, 5, 1], [1, 1, 5]], 2) == pytest.approx(1 / 3)


def test_utilisation_range_picks_the_extreme_columns():
    per = np.full((2, 2, 3), 0.9)
    per[:, 1, 2] = (0.6, 0.62)                 # lowest column: mean 61 %
    per[:, 0, 1] = (0.99, 1.0)                 # highest: 99.5 %
    t4 = SimpleNamespace(per_seed={"utilisation": per}, seeds=(0, 1),
                         bandwidths=(0.5e6, 1e6, 1.5e6), delays=(3e-6, 3e-3))
    out = IS.utilisation_range(t4)
    low, high = out["iftp-s6.4-utilisation-range-low"], out["iftp-s6.4-utilisation-range-high"]
    assert low.value == pytest.approx(61.0) and low.samples == pytest.approx((60.0, 62.0))
    assert high.value == pytest.approx(99.5)
    assert (low.implied, high.implied) == (60.0, 100.0)     # Table IV's printed ends


# --- IFTP §6 sentences and STTP table cells on hand-made results ----------------------------

def test_smallest_increase_by_hand():
    k, steps = IS.smallest_increase([1.8, 0.3, 0.9], [[50, 10, 12], [60, 10, 8]])
    # increasing rates 0.3, 0.9, 1.8: steps (12-10, 50-12) and (8-10, 60-8): the first pair
    assert k == 0 and steps.tolist() == [2.0, -2.0]


def test_iftp_table2_sentences_on_a_hand_made_run():
    rates = np.array([1.8, 1.2, 0.9, 0.6, 0.3, 0.16]) * 1e6
    lost = np.zeros((2, 6, 3))
    lost[:, :, 0] = [100, 80, 60, 40, 20, 10]         # UDP: grows with the rate
    lost[:, :, 1] = 10.0                               # IFTP per source
    lost[:, :, 2] = 10.0
    lost[1, 5, 2] = 30.0                               # TCP at 0.16, seed 1: mean 20 -> 0.301 decades
    t = SimpleNamespace(per_seed={"lost": lost}, udp_rates=rates, seeds=(0, 1))
    out = IS.table2_sentences(t)
    assert out["iftp-s6.2-udp-loss-grows-with-rate"].value == 10.0     # 0.16 -> 0.3: +10
    assert out["iftp-s6.2-iftp-same-range-as-tcp"].value == pytest.approx(np.log10(2))
    assert out["iftp-s6.2-loss-at-0.16"].value == pytest.approx(10 + 20 + 20)
    # implied from Table II as printed: 3573 -> 3760 is the smallest UDP step (+187);
    # IFTP/TCP 30/16 at 1.2 Mb/s is the widest; the total at 0.16 is 238 + 2 x 11 + 12
    assert out["iftp-s6.2-udp-loss-grows-with-rate"].implied == 187.0
    assert out["iftp-s6.2-iftp-same-range-as-tcp"].implied == pytest.approx(np.log10(30 / 16))
    assert out["iftp-s6.2-loss-at-0.16"].implied == 272.0


def test_iftp_table4_sentences_on_a_hand_made_run():
    bw, delays = np.array([0.5e6, 1.0e6, 1.5e6]), np.array([3e-6, 3e-3])
    tcp = np.array([[4.0, 4.0, 1.1], [4.0, 0.9, 4.0]])    # close exactly where the paper says
    t4 = SimpleNamespace(bandwidths=bw, delays=delays, tcp=tcp, iftp=np.ones((2, 3)),
                         iftp_timeouts=np.array([[4.0, 5.0, 0.0], [4.0, 0.0, 5.0]]))
    out = IS.table4_sentences(t4)
    assert out["iftp-s6.4-close-bandwidths"].value == 2.0
    assert out["iftp-s6.4-close-bandwidths"].implied == 2.0         # Table IV's 0.207/0.38, 0.212/0.156
    assert out["iftp-s6.4-iftp-timeouts-4-5"].value == 4.5


def test_iftp_figure_orderings_on_hand_made_runs():
    fr = SimpleNamespace(names=("reno0", "reno1", "iftp0", "iftp1"), seeds=(0, 1),
                         sink=np.array([[3e5, 3e5, 2e5, 2e5], [2e5, 2e5, 3e5, 3e5]]))
    assert IS.figure6_order(fr).samples == pytest.approx((0.1, -0.1))
    per = np.zeros((1, 2, 4))
    per[0, 0] = (1.4e6, 1.3e6, 1.6e5, 1.5e5)          # rate 0.16 Mb/s
    per[0, 1] = (1e6, 0.5e6, 1.8e6, 1.0e6)
    f5 = SimpleNamespace(per_seed=per, udp_rates=np.array([0.16e6, 1.8e6]), seeds=(0,))
    assert IS.figure5_small_rate(f5).value == pytest.approx(1.15)


def test_sttp_cells_pick_the_right_source():
    from ctlcc.claims import sttp_cells as SC

    sent = {(c, n): list(range(100 * n, 100 * n + n)) for c in
            ("TCP Reno", "STTP 9:1", "STTP 5:5", "STTP 1:9") for n in (1, 2, 4)}
    t2 = _table2(sent)
    out = SC.table2_cells(t2)
    assert out["sttp-table2-cell-4src-5-5-s3-tx"].value == 402.0      # third source of four
    assert out["sttp-table2-cell-2src-reno-s2-dropped"].value == 0.0
    assert len(out) == 27
    rows = ({"network": "x", "duration": 10.0, "sent": 85, "acks": 77, "published_tx": 75,
             "published_acks": 68, "capacity": 80.0},)
    got = SC.table1_cells(SimpleNamespace(rows=rows))
    assert set(got) == {"sttp-table1-row1-acks-sim"} and got["sttp-table1-row1-acks-sim"].value == 77


def test_cbraa_findings_on_a_hand_made_run():
    from ctlcc.claims import cbraa_findings as CF

    t = np.arange(1.0, 501.0)
    goodput = np.tile([100e3, 110e3, 120e3, 130e3], (500, 1))      # CBRAA lowest by 10 kbyte/s
    run = SimpleNamespace(labels=("CBRAA", "TCP 1", "TCP 2", "TCP 3"),
                          protocols=("cbraa", "reno", "reno", "reno"), duration=500.0,
                          mean=lambda i, a, b: float(goodput[(t > a) & (t <= b), i].mean()))
    out = CF.figure5_shares(run)
    assert out["cbraa-fig5-cbraa-below-tcp-sim"].value == pytest.approx(10.0)
    assert out["cbraa-fig5-almost-same-share-sim"].value == pytest.approx(15 / 115)
    # the paper's 116 vs 119, 123, 124: 3 kbyte/s below; largest deviation 4.5/120.5
    assert out["cbraa-fig5-cbraa-below-tcp-sim"].implied == 3.0
    assert out["cbraa-fig5-almost-same-share-sim"].implied == pytest.approx(4.5 / 120.5)
    rtt = SimpleNamespace(labels=("a", "b"), rtt=np.array([0.1, 0.14]))
    fig6 = SimpleNamespace(labels=("t", "c", "l"), rtt=np.array([0.07, 0.071, 0.22]))
    got = CF.round_trips((rtt, rtt), rtt, rtt, fig6)
    assert got["cbraa-fig3-rtt-120-sim"].value == pytest.approx(120.0)
    assert got["cbraa-fig6-rtt-cbraa-long-220-sim"].value == pytest.approx(220.0)
