"""STTP (Wade, Kara & Dew (2000), §III-IV): token bucket, packet pair, alpha:beta scaling, Jain, Tables I-III."""

import csv
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest
import sympy as sp
from scipy import stats

from ctlcc.bounds import jain_fairness, jain_index, tokenbucket
from ctlcc.errors import ParameterError

DATA = Path(__file__).resolve().parents[2] / "data"


def test_burst_duration_solves_m_s_equals_sigma_plus_rho_s():
    sigma, rho, M, S = sp.symbols("sigma rho M S", positive=True)
    (sol,) = sp.solve(sp.Eq(M * S, sigma + rho * S), S)
    assert sp.simplify(sol - sigma / (M - rho)) == 0
    vals = {sigma: 250e3, rho: 2e6, M: 25e6}
    assert tokenbucket.max_burst_duration(250e3, 2e6, 25e6) == pytest.approx(float(sol.subs(vals)))
    s = tokenbucket.max_burst_duration(250e3, 2e6, 25e6)
    assert tokenbucket.max_burst_size(250e3, 2e6, s) == pytest.approx(25e6 * s)   # bucket just empties


def test_packet_pair_example():
    """Wade, Kara & Dew (2000), §III-A: 64 bytes, 16 ms inter-arrival gap -> 4000 B/s = 32 kb/s."""
    assert tokenbucket.packet_pair_bandwidth(64, 0.016) == pytest.approx(4000.0)
    assert 8 * tokenbucket.packet_pair_bandwidth(64, 0.120 - 0.104) == pytest.approx(32e3)


@pytest.mark.parametrize(
    "x, last, new, alpha, beta, expected, tol, source",
    [
        (16, 0.305, 1.0, 0.9, 0.1, 14.888, 5e-4, "Wade, Kara & Dew (2000), §III-B.3 worked example (ratio 0.305)"),
        (16, 0.078, 0.255, 0.9, 0.1, 14.889, 5e-4, "same, unrounded ratio 0.078/0.255"),
        (100.0, 1.0, 1 / 1.15, 0.5, 0.5, 107.5, 1e-12, "§IV-B.1 reading: 15 % RTT change, 5:5"),
        (8.0, 0.2, 0.1, 1.0, 0.0, 8.0, 0.0, "alpha = 1 keeps the old value"),
    ],
)
def test_rtt_scaled(x, last, new, alpha, beta, expected, tol, source):
    assert tokenbucket.rtt_scaled(x, last, new, alpha, beta) == pytest.approx(expected, abs=tol), source


def test_on_off_credit_printed_and_capped():
    assert tokenbucket.on_off_credit(10.0, 1.0, 2.0, 8.0) == 38.0          # rho (on + off) + tokens
    assert tokenbucket.on_off_credit(10.0, 1.0, 2.0, 8.0, sigma=100.0) == 38.0
    assert tokenbucket.on_off_credit(10.0, 1.0, 2.0, 8.0, sigma=16.0) == 26.0


def test_table_1_poisson_counts_are_consistent_with_capacity_over_packet_size():
    """Each printed Poisson count lies in the central 99 % of Poisson(C/(8*1000) * T)."""
    rows = list(csv.DictReader(open(DATA / "sttp_table1_poisson.csv")))
    assert len(rows) == 6
    for r in rows:
        mean = tokenbucket.expected_tokens(float(r["bottleneck_bps"]), float(r["packet_size_B"]),
                                           float(r["duration_s"]))
        lo, hi = stats.poisson.ppf([0.005, 0.995], mean)
        assert lo <= int(r["poisson_tokens"]) <= hi, r
        assert int(r["sim_acks"]) <= int(r["sim_packets_tx"])


def test_poisson_token_arrivals_is_seeded_and_has_the_right_mean():
    a = tokenbucket.poisson_token_arrivals(16.0, 5000, seed=7)
    assert np.array_equal(a, tokenbucket.poisson_token_arrivals(16.0, 5000, seed=7))
    assert a.mean() == pytest.approx(16.0, abs=5 * np.sqrt(16.0 / 5000))


def _table2():
    groups = defaultdict(list)
    for r in csv.DictReader(open(DATA / "sttp_table2_fairness.csv")):
        groups[(int(r["sources"]), r["protocol"])].append(int(r["packets_tx"]))
    return groups


@pytest.mark.parametrize(
    "sources, protocol, printed, reproduces, source",
    [
        (2, "TCP Reno", 0.99, True, "Wade, Kara & Dew (2000), §IV-B.1"),
        (4, "TCP Reno", 0.99, True, "Wade, Kara & Dew (2000), §IV-B.1"),
        (2, "STTP 5:5", 0.99, True, "Wade, Kara & Dew (2000), §IV-B.1"),
        (4, "STTP 5:5", 0.99, True, "Wade, Kara & Dew (2000), §IV-B.1"),
        (2, "STTP 1:9", 0.99, True, "Wade, Kara & Dew (2000), §IV-B.1"),
        (4, "STTP 1:9", 0.98, True, "Wade, Kara & Dew (2000), §IV-B.1"),
        (2, "STTP 9:1", 0.84, True, "Wade, Kara & Dew (2000), §IV-B.1"),
        (4, "STTP 9:1", 0.75, False, "Wade, Kara & Dew (2000), §IV-B.1: Table II gives 0.8498"),
    ],
)
def test_jain_index_of_table_2(sources, protocol, printed, reproduces, source):
    """Printed values are the index truncated to 2 decimals (0.99997 -> 0.99)."""
    index = jain_index(_table2()[(sources, protocol)])
    assert bool(np.floor(100 * index) / 100 == printed) is reproduces, (source, index)


def test_jain_four_source_sttp_9_1_value():
    assert jain_index(_table2()[(4, "STTP 9:1")]) == pytest.approx(0.8498, abs=1e-4)


def test_table_2_capacity_32000_packets():
    """Wade, Kara & Dew (2000), §IV-B.1: 128 kb/s for 2000 s carries 32,000 packets of 1000 bytes."""
    assert 128e3 * 2000 / (8 * 1000) == 32000
    for (sources, _), counts in _table2().items():
        assert sum(counts) == pytest.approx(32000, rel=0.01)


def test_table_3_mean_is_total_over_sources():
    for r in csv.DictReader(open(DATA / "sttp_table3_experiment1.csv")):
        n, tx = int(r["num_sources"]), int(r["bytes_tx"])
        assert abs(tx / n - int(r["mean_bytes"])) <= 0.5
        assert int(r["low_bytes"]) <= int(r["mean_bytes"]) <= int(r["high_bytes"])


def test_jain_properties():
    assert jain_index([3, 3, 3]) == pytest.approx(1.0)
    assert jain_index([5, 0, 0, 0]) == pytest.approx(0.25)
    x = np.random.default_rng(3).uniform(0, 1, size=(100, 7))
    j = jain_index(x)
    assert j.shape == (100,) and np.all((j >= 1 / 7) & (j <= 1))
    np.testing.assert_allclose(jain_index(x.T, axis=0), j)


@pytest.mark.parametrize(
    "func, args, match",
    [
        (tokenbucket.max_burst_duration, (10.0, 5.0, 5.0), r"M must be > rho"),
        (tokenbucket.max_burst_duration, (0.0, 5.0, 10.0), r"sigma must be in \(0, inf\)"),
        (tokenbucket.max_burst_size, (1.0, -1.0, 1.0), r"rho must be in \(0, inf\)"),
        (tokenbucket.max_burst_size, (1.0, 1.0, -1.0), r"S must be in \[0, inf\)"),
        (tokenbucket.packet_pair_bandwidth, (0, 0.01), r"size must be in \(0, inf\)"),
        (tokenbucket.packet_pair_bandwidth, (64, 0.0), r"gap must be in \(0, inf\)"),
        (tokenbucket.rtt_scaled, (16, 0.1, 0.2, 0.9, 0.2), r"alpha \+ beta must equal 1"),
        (tokenbucket.rtt_scaled, (16, 0.0, 0.2, 0.9, 0.1), r"last_rtt must be in \(0, inf\)"),
        (tokenbucket.rtt_scaled, (16, 0.1, 0.2, 1.1, -0.1), r"alpha must be in \[0, 1\]"),
        (tokenbucket.poisson_token_arrivals, (1.0, 0), r"steps must be an integer >= 1"),
        (tokenbucket.on_off_credit, (1.0, -1.0, 1.0), r"on must be in \[0, inf\)"),
        (jain_index, ([1.0, -1.0],), r"x must hold finite throughputs >= 0"),
        (jain_index, ([0.0, 0.0],), r"x must not be all zero"),
        (jain_index, ([],), r"at least one flow"),
    ],
)
def test_bad_input(func, args, match):
    with pytest.raises(ParameterError, match=match):
        func(*args)


def test_jain_fairness_is_a_deprecated_alias_of_jain_index():
    # Issue 15: one name for Jain's index; the old one warns and agrees.
    x = [22899, 9108]
    with pytest.warns(DeprecationWarning, match="use ctlcc.jain_index"):
        old = jain_fairness(x)
    assert old == jain_index(x)
