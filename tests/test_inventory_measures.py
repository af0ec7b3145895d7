"""Measurements for the inventory's unchecked claims: invariants and small exact cases.

These test the functions of ctlcc.experiments.thesis_testbed
and thesis_typed_claims, not the verdicts (the published
values they will be judged against are in data/inventory_stage3_published.csv).
Expected values come from independent routes: Park & Miller's published check
value of the minimal-standard generator, brute-force enumeration, the thesis's
own worked arithmetic, and the line's capacity.
"""

import csv
import math
from pathlib import Path

import numpy as np
import pytest

from ctlcc.errors import ParameterError
from ctlcc.experiments import thesis_testbed as tb
from ctlcc.experiments import thesis_typed_claims as tc

ROOT = Path(__file__).resolve().parents[1]


# --- the link emulator's LCG (thesis §5.3.3)

def test_lcg_matches_park_miller_check_value():
    """Park & Miller (1988): seed 1, the 10,000th number of x <- 16807 x mod (2^31 - 1)."""
    assert int(tb.lcg_sequence(10_000)[-1]) == 1_043_618_065


@pytest.mark.parametrize("a, c, m, x0, block", [(16807, 0, 2**31 - 1, 1, 7), (5, 3, 97, 11, 4),
                                                (69069, 1, 2**31 - 1, 12345, 1000)])
def test_lcg_blocks_equal_the_plain_recursion(a, c, m, x0, block):
    x, expected = x0, []
    for _ in range(2500):
        x = (a * x + c) % m
        expected.append(x)
    assert tb.lcg_sequence(2500, a, c, m, x0, block=block).tolist() == expected


def test_lcg_moments_are_those_of_the_sequence():
    u = np.array([float(v) for v in tb.lcg_sequence(5000)]) / (2**31 - 1)
    mean, var = tb.lcg_moments(5000)
    assert mean == pytest.approx(u.mean(), rel=1e-12)
    assert var == pytest.approx(u.var(), rel=1e-12)


@pytest.mark.parametrize("m", [7, 11, 101, 257])
def test_lcg_period_equals_enumeration(m):
    for a in range(2, m):
        x, k = a % m, 1
        while x != 1:
            x, k = (x * a) % m, k + 1
        assert tb.lcg_period(a, m) == k, (a, m)


def test_minimal_standard_multiplier_is_a_primitive_root():
    """16807 = 7^5 generates the full group mod 2^31 - 1 (Park & Miller 1988): period m - 1."""
    assert tb.lcg_period() == 2**31 - 2


@pytest.mark.parametrize("kwargs", [dict(n=0), dict(n=10, m=2**31), dict(n=10, a=2**31),
                                    dict(n=10, x0=-1), dict(n=10, a=1.5)])
def test_lcg_bad_input(kwargs):
    with pytest.raises(ParameterError):
        tb.lcg_sequence(**kwargs)


def test_lcg_period_refuses_a_composite_modulus():
    with pytest.raises(ParameterError, match="prime"):
        tb.lcg_period(2, 15)


# --- the testbed's arithmetic: the thesis's worked numbers (§5.4.1, §5.4.2)

@pytest.mark.parametrize("size, rate, expected, digits", [(152, 115.2e3, 13.194e-3, 6),
                                                          (52, 115.2e3, 4.514e-3, 6)])
def test_serial_times_match_the_thesis(size, rate, expected, digits):
    assert round(tb.serial_time(size, rate), digits) == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize("rate, delay, printed", [(115.2e3, 0.0, 0.031), (38.4e3, 0.08, 0.253),
                                                  (38.4e3, 0.25, 0.593)])
def test_ideal_rtts_match_the_thesis(rate, delay, printed):
    assert round(tb.ideal_rtt(rate, delay), 3) == printed


def test_window_needed_on_the_250ms_line_is_15_packets():
    """§5.4.2: windows 'above 15 packets' (250 ms) and 'above 6 packets' (80 ms): ideal RTT / packet time."""
    packet = tb.serial_time(152, 38.4e3)
    assert round(tb.ideal_rtt(38.4e3, 0.25) / packet) == 15
    assert math.floor(tb.ideal_rtt(38.4e3, 0.08) / packet) == 6


def test_testbed_layout():
    s = tb.build_testbed(38.4e3, 0.18, 0.01, "stpd", flows=2, second_start=20.0)
    line = s.links[1]
    assert (line.a, line.b, line.rate, line.delay) == ("H2", "H3", 30720.0, 0.18)
    assert line.loss.p == 0.01
    assert [f.path for f in s.flows] == [("H1", "H2", "H3"), ("H2", "H3")]
    assert s.flows[1].start == 20.0
    assert (s.payload_bytes, s.header_bytes, s.ack_bytes) == (100, 52, 52)


@pytest.mark.parametrize("kwargs", [dict(flows=3), dict(loss=1.0), dict(serial_delay=-1.0),
                                    dict(serial_rate=0.0), dict(second_start=-1.0)])
def test_testbed_bad_input(kwargs):
    with pytest.raises(ParameterError):
        tb.build_testbed(**kwargs)


def test_ideal_rtt_bad_queued():
    with pytest.raises(ParameterError, match="queued"):
        tb.ideal_rtt(38.4e3, 0.08, queued=-1)


def test_not_represented_is_stated():
    assert len(tb.NOT_REPRESENTED) >= 5 and all(isinstance(s, str) for s in tb.NOT_REPRESENTED)


def test_transfer_respects_the_line_capacity_and_loses_nothing_with_room():
    """A lossless line with a queue larger than any window: no loss, and no faster than the line."""
    s = tb.build_testbed(115.2e3, 0.0, 0.0, "reno", buffer=2000)
    r = tb.transfer_times(s, 40.0)
    floor = tb.TRANSFER_BYTES / tb.PAYLOAD_BYTES * tb.serial_time(152, 115.2e3)
    assert r.losses == (0,)
    assert floor <= r.times[0] <= floor + 5.0
    assert r.median_rtt[0] >= tb.ideal_rtt(115.2e3, 0.0, queued=0)


# --- helpers of thesis_typed_claims

def test_overflow_windows_one_per_episode():
    t = np.arange(0.0, 20.0, 0.01)
    w = 5 + (t % 5)
    drops = np.array([4.99, 5.0, 9.99, 14.98, 14.99])
    assert overflow_windows_ok(tc.overflow_windows(t, w, drops, after=1.0), 3)
    assert tc.overflow_windows(t, w, drops, after=15.0).size == 0


def overflow_windows_ok(w, n):
    return w.size == n and np.all(w > 9.9)


@pytest.mark.parametrize("pauses, expected", [((), 0), (((2.0, 3.5),), 1), (((2.0, 2.5),), 0),
                                              (((1.0, 2.2), (4.0, 6.0)), 2)])
def test_stalls_counts_pauses_of_a_second_or_more(pauses, expected):
    t = np.arange(0.0, 10.0, 0.01)
    rate = np.ones_like(t)
    for a, b in pauses:
        rate[(t >= a) & (t < b)] = 0.0
    d = np.cumsum(rate)
    assert tc.stalls(t, d, 0.0, 9.99) == expected


# --- the declared published values

def test_stage3_published_rows_point_at_inventory_rows():
    with open(ROOT / "data" / "inventory_stage3_published.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    inventory = set()
    for key in ("stpd", "primo"):
        with open(ROOT / "data" / "inventory" / f"{key}.csv", newline="", encoding="utf-8") as fh:
            inventory |= {r["id"] for r in csv.DictReader(fh)}
    ids = [r["claim_id"] for r in rows]
    assert len(ids) == len(set(ids))
    for r in rows:
        assert r["inventory_id"] in inventory, r["claim_id"]
        assert r["comparison"] in ("==", "<=", ">="), r["claim_id"]
        assert r["tolerance_basis"].strip(), r["claim_id"]
        float(r["published"])
        if r["tolerance"]:
            assert float(r["tolerance"]) >= 0, r["claim_id"]
        else:
            assert "standard deviation" in r["tolerance_basis"], r["claim_id"]
