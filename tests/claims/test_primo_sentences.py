"""Primo §V-§VII sentence units (ctlcc.claims.primo_sentences) on hand-made results.

Each unit is fed a small result whose criteria are typed in here, so the expected value
is the arithmetic written beside it, not anything ctlcc's simulator produced.
"""

from types import SimpleNamespace

import numpy as np
import pytest

from ctlcc.claims import evaluate, units
from ctlcc.claims import primo_sentences as PS

FIVE = ("reno", "sack", "vegas", "tfrc", "primo")


def _sweep(rows, values, rtt=None):
    """rows: {protocol: [[sending, reception, goodput, occupancy, fairness] per point]}."""
    protocols = tuple(rows)
    return SimpleNamespace(protocols=protocols, values=np.asarray(values, dtype=float),
                           criteria=np.array([rows[p] for p in protocols], dtype=float),
                           interval=0.1,
                           round_trip_times=np.asarray(rtt if rtt is not None else
                                                       [[0.024, 0.024]] * len(values)))


def _flat(value):
    return [value] * 5


def test_helpers_by_hand():
    sw = _sweep({"a": [[80, 90, 10, 20, 30], [60, 70, 30, 40, 50]]}, [1, 2])
    assert PS.criterion(sw, "a", "goodput") == 20.0           # (10 + 30) / 2
    assert PS.constancy(sw, "a") == 75.0                      # (85 + 65) / 2
    assert PS.constancy(sw, "a", [1]) == 65.0
    assert PS.five_mean(sw, "a") == pytest.approx((46 + 50) / 2)   # point means 46 and 50


def test_bandwidth_sweep_sentences():
    rows = {"reno": [_flat(60)] * 3, "sack": [_flat(60)] * 3,
            "vegas": [[90, 90, 95, 90, 99], [70, 74, 95, 90, 99], [90, 90, 95, 90, 99]],
            "tfrc": [[80, 84, 90, 85, 97]] * 3,
            "primo": [[95, 97, 96, 88, 99]] * 3}
    sw = _sweep(rows, [1e6, 4e6, 16e6])
    # fairness 60..99 (39), occupancy 60..90 (30), goodput 60..96 (36): the widest is 39
    assert PS.sec5a_close(sw).value == pytest.approx(39.0)
    # constancy: vegas (90 + 72 + 90) / 3 = 84, tfrc 82, primo 96
    assert PS.sec5a_tfrc_below(sw).value == pytest.approx(82 - 84)
    assert PS.sec5a_primo_vegas(sw).value == pytest.approx(96 - 84)
    # 4 Mb/s is the only ratio (20 %) in 10-30 %: 72 - 90
    assert PS.sec5a_vegas_low_ratio(sw).value == pytest.approx(-18.0)


def test_queue_sweep_sentences():
    rows = {"reno": [[40, 45, 90, 95, 90], [30, 35, 92, 99, 96]],
            "sack": [[44, 45, 90, 95, 80], [20, 35, 92, 99, 96]],
            "vegas": [[50, 60, 20, 90, 2], [99, 99, 99, 99, 75]],
            "tfrc": [[80, 80, 90, 70, 90], [90, 90, 90, 90, 90]],
            "primo": [[90, 90, 90, 90, 75], [95, 95, 95, 95, 100]]}
    sw = _sweep(rows, [5, 30])
    out = PS.sec5b_reno_sack(sw)
    assert out["primo-v-b-sec5b_reno_sack_close"].value == 10.0        # fairness at 5: 90 - 80
    assert out["primo-v-b-sec5b_reno_sack_poor_stability"].value == 35.0  # reno (40+30)/2 vs 32
    assert PS.sec5b_vegas_small(sw).value == pytest.approx((50 + 60 + 20 + 90 + 2) / 5)
    # primo (87 + 96) / 2 = 91.5, tfrc (82 + 90) / 2 = 86: the lower is 86
    assert PS.sec5b_primo_tfrc(sw).value == pytest.approx(86.0)


def test_access_delay_sentences():
    rows = {"reno": [_flat(50)] * 2, "sack": [_flat(50)] * 2,
            "vegas": [[95, 93, 99, 90, 80]] * 2, "tfrc": [[85, 85, 90, 90, 90]] * 2,
            "primo": [[92, 92, 97, 90, 98]] * 2}
    sw = _sweep(rows, [1e-3, 40e-3], rtt=[[0.024, 0.024], [0.024, 0.102]])
    assert PS.sec5d_order(sw).value == pytest.approx(min(94 - 92, 92 - 85))
    assert PS.sec5d_goodput(sw).value == pytest.approx(99 - 97)


def test_four_sweep_sentences():
    def sw_of(primo, vegas, reno):
        rows = {"reno": [reno], "sack": [reno], "vegas": [vegas], "tfrc": [_flat(70)],
                "primo": [primo]}
        return _sweep(rows, [1.0])
    sweeps = [sw_of([90, 90, 90, 90, 90], [80, 80, 96, 94, 70], [40, 40, 85, 81, 90])] * 3 + [
        sw_of([94, 94, 90, 90, 90], [80, 80, 96, 94, 70], [40, 40, 85, 77, 90])]
    out = PS.sec5e_occupancy_goodput(*sweeps)
    assert out["primo-v-e-sec5e_occ_goodput_high"].value == 77.0      # reno occupancy, 4th
    # occupancy+goodput: primo 90, vegas 95, reno/sack (3 x 83 + 81) / 4 = 82.5
    assert out["primo-v-e-sec5e_vegas_primo_better_occ_goodput"].value == pytest.approx(7.5)
    out = PS.sec7a(*sweeps)
    # constancy: primo (3 x 90 + 94) / 4 = 91, vegas 80
    assert out["primo-vii-a_stability_improves_vegas"].value == pytest.approx(11.0)
    # five-criteria means: primo (3 x 90 + 91.6) / 4 = 90.4; reno (3 x 67.2 + 66.4) / 4 = 67.0;
    # tfrc 70: 90.4 - 70
    assert out["primo-vii-a_better_than_reno_sack_tfrc"].value == pytest.approx(20.4)


def test_many_sources_drop():
    crit = np.full((5, 2, 3, 5), 90.0)                 # (protocols, schedules, counts, 5)
    crit[0, :, 2, :2] = 70.0                           # reno: -20 at 20 sources
    crit[1, 0, 2, :2] = 80.0                           # sack: -10 in one schedule: -5 on average
    crit[3, :, 2, 0] = 84.0                            # tfrc: sending only, -6 / 2 = -3
    ms = SimpleNamespace(counts=np.array([2, 10, 20]), protocols=FIVE,
                         schedules=("together", "staggered"), criteria=crit)
    assert PS.sec5e_corrective(ms).value == pytest.approx(-3.0)


def _multi(stability, rates=None):
    k = 8
    rates = np.full((len(stability), k, 5), 100.0) if rates is None else rates
    crit = np.zeros((len(stability), 5))
    crit[:, 0] = list(stability.values())
    return SimpleNamespace(protocols=tuple(stability), criteria=crit, starts=np.zeros(5),
                           bin_time=0.5 * np.arange(1, k + 1), send_rate=rates,
                           capacity=250.0, flow_names=("a", "b", "c", "d", "e"))


def test_multi_congestion_sentences():
    rates = np.full((5, 8, 5), 100.0)
    rates[0, 1, 0] = 0.0          # bin ending at 1 s: within the first 2 s, skipped
    rates[0, 6, 3] = 5.0          # flow d at 3.5 s: 5 / 250 = 0.02
    mc = _multi(dict(zip(FIVE, (30.0, 35.0, 92.0, 60.0, 90.0))), rates)
    out = PS.sec6_stability(mc)
    assert out["primo-vi-sec6_sack_unstable-together"].value == 35.0
    assert out["primo-vi-sec6_tfrc_not_stable"].value == 60.0
    assert out["primo-vi-sec6_tfrc_smoother_than_reno"].value == 30.0
    assert out["primo-vii-a_vegas_more_constant_multi"].value == 2.0
    assert PS.sec6_reno_zero(mc).value == pytest.approx(0.02)
    assert PS.lowest_rate(mc, "reno")[1:] == (3, 3.5)
    staggered = _multi(dict(zip(FIVE, (30.0, 35.0, 85.0, 60.0, 90.0))))
    assert PS.sec6_vegas_some_case(mc, staggered).value == 2.0      # max(+2, -5)


def test_the_units_are_registered_and_judged_by_their_declarations():
    """An ordering declared '>=' 0 with tolerance 0 turns on the sign of the value."""
    ids = ["primo-v-a-sec5a_primo_better_vegas", "primo-v-a-sec5a_tfrc_constancy_below"]
    assert {i for u in units() for i in u.ids} >= set(ids)
    rows = {"vegas": [[90, 90, 0, 0, 0]], "tfrc": [[95, 95, 0, 0, 0]],
            "primo": [[80, 80, 0, 0, 0]]}
    got = {c.id: c for c in evaluate(units(ids=ids),
                                     results={"sweep_bandwidth": _sweep(rows, [1e6])})
           if c.id in ids}
    assert got["primo-v-a-sec5a_primo_better_vegas"].verdict == "differs"      # -10 < 0
    assert got["primo-v-a-sec5a_tfrc_constancy_below"].verdict == "differs"    # +15 > 0


def test_vulnerability_gap_by_hand():
    lossy = {"reno": [60, 70], "sack": [80, 80], "vegas": [50, 90],
             "tfrc": [95, 90], "primo": [99, 100]}
    lossless = dict.fromkeys(lossy, 100)
    # window losses: seed 0 (.4, .2, .5) -> min .2; seed 1 (.3, .2, .1) -> .1
    # rate losses: seed 0 (.05, .01) -> max .05; seed 1 (.1, 0) -> .1
    assert PS.vulnerability_gap(lossy, lossless) == pytest.approx([0.15, 0.0])
