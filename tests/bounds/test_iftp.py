"""IFTP bandwidth (ElAarag & Bassiouni (2002), §5): every closed form against brute-force enumeration."""

import csv
from pathlib import Path

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from ctlcc.bounds import iftp
from ctlcc.errors import ParameterError

DATA = Path(__file__).resolve().parents[2] / "data"


def enumerate_round_trips(N, Ws, Wmax):
    """Brute force: send windows 1, 2, 4, ..., Ws, Ws+1, ..., Wmax, Wmax, ...
    one per round trip until N packets are out; count the round trips."""
    window, sent, rounds = 1, 0, 0
    while sent < N:
        sent += window
        rounds += 1
        window = 2 * window if window < Ws else min(window + 1, Wmax)
    return rounds


def enumerate_all(n_max, Ws, Wmax):
    """Round trips for N = 1..n_max in one pass (same sequence, cumulated)."""
    out, window, sent, rounds = np.empty(n_max, dtype=int), 1, 0, 0
    n = 1
    while n <= n_max:
        sent += window
        rounds += 1
        while n <= min(sent, n_max):
            out[n - 1] = rounds
            n += 1
        window = 2 * window if window < Ws else min(window + 1, Wmax)
    return out


GRID = [(1, 1), (1, 5), (2, 2), (2, 9), (4, 4), (4, 5), (8, 20), (16, 17), (32, 50), (64, 64), (64, 200)]


@pytest.mark.parametrize("Ws, Wmax", GRID)
def test_exact_round_trips_equal_enumeration(Ws, Wmax):
    n_max = 4000
    assert enumerate_all(50, Ws, Wmax).tolist() == [enumerate_round_trips(n, Ws, Wmax) for n in range(1, 51)]
    np.testing.assert_array_equal(iftp.round_trips(np.arange(1, n_max + 1), Ws, Wmax),
                                  enumerate_all(n_max, Ws, Wmax))


@pytest.mark.parametrize("Ws, Wmax", GRID)
def test_where_the_published_forms_differ(Ws, Wmax):
    """Documented in the module docstring and data/iftp_closed_form_vs_enumeration.csv:
    published - exact = 1 round trip exactly for (case 1, N not a power of two),
    for N1 + N2_printed < N <= N1 + N2 and for every N in case 3; 0 elsewhere."""
    n = np.arange(1, 4001)
    diff = iftp.round_trips(n, Ws, Wmax, published=True) - enumerate_all(4000, Ws, Wmax)
    n1, n2 = iftp.phase_sizes(Ws, Wmax)
    _, n2p = iftp.phase_sizes(Ws, Wmax, published=True)
    assert n2 - n2p == Wmax                                         # eq. (16) is Wmax short
    power_of_two = (n & (n - 1)) == 0
    expected = np.where(n <= n1, ~power_of_two, n > n1 + n2p).astype(int)
    np.testing.assert_array_equal(diff, expected)


def test_eq_18_agrees_with_enumeration_in_its_own_range():
    """Eq. (18)'s round-trip count, typed from the paper, on N1 < N <= N1 + N2_printed."""
    Ws, Wmax = 32, 50
    for N in range(64, 761):
        k = (np.log2(Ws) + 1) + np.ceil(
            (np.sqrt((2 * Ws + 1) ** 2 + 8 * (N - 2 * Ws + 1)) - (2 * Ws + 1)) / 2)
        assert k == enumerate_round_trips(N, Ws, Wmax)


def test_phase_sizes_eqs_15_16_against_sums():
    for Ws, Wmax in GRID:
        n1, n2 = iftp.phase_sizes(Ws, Wmax)
        ss = [2**j for j in range(Ws.bit_length())]
        assert n1 == sum(ss) == 2 * Ws - 1                          # eq. (15)
        assert n2 == sum(range(Ws + 1, Wmax + 1))                   # enumerated N2
        printed = iftp.phase_sizes(Ws, Wmax, published=True)[1]
        if Wmax > Ws:
            assert printed == sum(range(Ws + 1, Wmax))              # windows Ws+1 .. Wmax-1
        else:
            assert printed == -Ws                                   # eq. (16) taken literally


def test_ideal_bandwidth_uses_eq_10():
    N = np.array([8, 100, 5000])
    k = np.array([enumerate_round_trips(n, 32, 50) for n in N])
    np.testing.assert_allclose(iftp.ideal_bandwidth(N, 8000.0, 0.05, 32, 50), N * 8000.0 / (k * 0.05))


def test_limit_eq_20():
    """N -> oo: theta -> Wmax P / R (eq. (20))."""
    big = 10**9
    assert iftp.ideal_bandwidth(big, 1.0, 0.1, 32, 50) == pytest.approx(iftp.ideal_limit(1.0, 0.1, 50), rel=1e-6)
    assert iftp.ideal_limit(1.0, 0.1, 50) == 500.0


def test_figure_3_cases_csv():
    """The N ranges printed for Figure 3 lie in the cases the caption names,
    for both the printed and the enumerated boundaries."""
    rows = list(csv.DictReader(open(DATA / "iftp_fig3_cases.csv")))
    assert [int(r["case"]) for r in rows] == [1, 2, 3]
    for r in rows:
        Ws, Wmax = int(r["Ws"]), int(r["Wmax"])
        for published in (False, True):
            n1, n2 = iftp.phase_sizes(Ws, Wmax, published)
            for N in (int(r["N_first"]), int(r["N_last"])):
                case = 1 if N <= n1 else 2 if N <= n1 + n2 else 3
                assert case == int(r["case"]), (N, published)


def test_discrepancy_csv_is_reproduced_by_enumeration():
    rows = list(csv.DictReader(open(DATA / "iftp_closed_form_vs_enumeration.csv")))
    assert len(rows) > 10
    for r in rows:
        N, Ws, Wmax = int(r["N"]), int(r["Ws"]), int(r["Wmax"])
        ke = enumerate_round_trips(N, Ws, Wmax)
        kp = iftp.round_trips(N, Ws, Wmax, published=True)
        assert int(r["round_trips_enumerated"]) == ke
        assert int(r["round_trips_published"]) == kp
        assert float(r["theta_published_rel_error"]) == pytest.approx(ke / kp - 1, abs=1e-5)


def test_figure_3_relative_error_quoted_in_docstring():
    """Module doc: at N = 1024 .. 5000 the printed bandwidth is 3.3 % .. 0.9 % low."""
    N = np.array([1024, 5000])
    rel = iftp.ideal_bandwidth(N, 1, 1, 32, 50, published=True) / iftp.ideal_bandwidth(N, 1, 1, 32, 50) - 1
    np.testing.assert_allclose(100 * rel, [-3.33, -0.92], atol=0.01)


# ---- non-ideal case, eqs. (21)-(26) -------------------------------------------------

n, p = sp.symbols("n p", positive=True)


def test_eq_21_sum_and_enumeration():
    j = sp.symbols("j", integer=True)
    total = sp.summation(j, (j, n / 2, n))
    assert sp.expand(total - (sp.Rational(3, 8) * n**2 + sp.Rational(3, 4) * n)) == 0
    for even in range(2, 200, 2):
        assert iftp.cycle_packets(even) == sum(range(even // 2, even + 1))


def test_eq_22_mean_window_is_three_quarters_n():
    for even in range(2, 200, 2):
        windows = np.arange(even // 2, even + 1)
        assert windows.mean() == 0.75 * even


def test_eq_25_exact_root_and_the_sqrt_8_over_3p_bound():
    roots = sp.solve(sp.Eq(p, 1 / (sp.Rational(3, 8) * n**2 + sp.Rational(3, 4) * n)), n)
    assert len(roots) == 1
    assert sp.simplify(roots[0] - (sp.sqrt(1 + 8 / (3 * p)) - 1)) == 0
    assert sp.limit(roots[0] / sp.sqrt(8 / (3 * p)), p, 0) == 1         # large-n form
    for pv in [1e-4, 1e-2, 0.3, 1.0]:
        assert iftp.steady_state_window(pv) == pytest.approx(float(roots[0].subs(p, pv)), rel=1e-13)
        assert iftp.steady_state_window(pv) <= np.sqrt(8 / (3 * pv))     # the "n <=" of (25)


def test_eq_26_constant():
    c = sp.Rational(3, 4) * sp.sqrt(sp.Rational(8, 3))
    assert sp.simplify(c - sp.Rational(3, 2) * sp.sqrt(sp.Rational(2, 3))) == 0
    assert sp.simplify(c - sp.sqrt(sp.Rational(3, 2))) == 0
    assert iftp.nonideal_bandwidth(0.01, 1.0, 0.1, published=True) == pytest.approx(float(c) * 100)


@pytest.mark.parametrize("even", [2, 8, 40, 100])
def test_nonideal_bandwidth_matches_an_enumerated_cycle(even):
    """Floyd-Fall cycle with loss window `even`: p = 1/packets, theta = packets/(rounds R)."""
    windows = np.arange(even // 2, even + 1)
    pv = 1 / windows.sum()
    theta = windows.sum() / (len(windows) * 0.1)
    assert iftp.nonideal_bandwidth(pv, 1.0, 0.1) == pytest.approx(theta, rel=1e-12)
    assert iftp.nonideal_bandwidth(pv, 1.0, 0.1, published=True) > theta


# ---- worst case, eq. (27) -----------------------------------------------------------

def test_worst_case_timeout_is_64_ms_from_eq_9():
    assert iftp.worst_case_timeout() == pytest.approx(0.064)               # ElAarag & Bassiouni (2002), §5.3
    assert iftp.worst_case_bandwidth(8000.0, 0.008) == pytest.approx(8000.0 / 0.072)


def test_worst_case_below_ideal_for_paper_parameters():
    """Worst case is a lower bound: 1000-byte packets on the 1 Mb/s link of §6.1."""
    P, tau, R = 8000.0, 0.008, 0.022
    N = np.array([8, 64, 1024])
    assert np.all(iftp.worst_case_bandwidth(P, tau) < iftp.ideal_bandwidth(N, P, R, 32, 50))


def test_gap_laws_are_reexported():
    assert iftp.gap_slow_start(0.1, 4, 0.0) == pytest.approx(0.0125)


# ---- tables --------------------------------------------------------------------------

def test_table_iv_utilization_two_of_each():
    """Table IV: utilization ≈ 2 (TCP + IFTP) / B (two sources of each, §6.1 set-up)
    within 4 points in five cells; B = 1.5, D = 0.003 is inconsistent (78 % vs 100 %)."""
    rows = list(csv.DictReader(open(DATA / "iftp_tables.csv")))
    cells = {}
    for r in rows:
        if r["table"] == "IV":
            cells.setdefault(r["column"], {})[r["row"]] = float(r["value"])
    assert len(cells) == 6
    off = []
    for column, c in cells.items():
        b = float(column.split()[0].split("=")[1])
        util = 100 * 2 * (c["TCP bandwidth"] + c["IFTP bandwidth"]) / b
        if abs(util - c["utilization"]) > 4.5:
            off.append((column, round(util, 1)))
    assert off == [("B=1.5 D=0.003", 78.3)]


def test_table_i_gaps_correspond_to_the_fair_share():
    """Table I (§6.1): 2 IFTP + 2 TCP on 1 Mb/s. By the gap law n (G + tau) = R the
    rate of a source is P/(G + tau); with tau = one 1000-byte packet at the 1 Mb/s
    bottleneck (our reading: the access links are not given) the mean gaps give
    258 and 251 kb/s, within 4 % of the 250 kb/s fair share."""
    rows = [r for r in csv.DictReader(open(DATA / "iftp_tables.csv")) if r["table"] == "I"]
    gaps = [float(r["value"]) * 1e-3 for r in rows if r["row"] == "G"]
    tau = 8000.0 / 1e6
    rates = [8000.0 / (g + tau) for g in gaps]
    np.testing.assert_allclose(rates, 250e3, rtol=0.04)
    np.testing.assert_allclose(iftp.gap_for_window(1.0, np.array(rates) / 8000.0, tau), gaps, rtol=1e-12)


# ---- bad input -----------------------------------------------------------------------

@pytest.mark.parametrize(
    "func, args, match",
    [
        (iftp.ideal_bandwidth, (0, 1.0, 0.1, 32, 50), r"N must be an integer >= 1"),
        (iftp.ideal_bandwidth, ([5, 2.5], 1.0, 0.1, 32, 50), r"N must be an integer >= 1 .*2.5"),
        (iftp.ideal_bandwidth, (10, 1.0, 0.1, 0, 50), r"Ws must be an integer >= 1"),
        (iftp.ideal_bandwidth, (10, 1.0, 0.1, 3, 50), r"Ws must be a power of two"),
        (iftp.ideal_bandwidth, (10, 1.0, 0.1, 32, 50.5), r"Wmax must be an integer >= 1"),
        (iftp.ideal_bandwidth, (10, 1.0, 0.1, 32, 16), r"Wmax must be an integer >= Ws = 32"),
        (iftp.ideal_bandwidth, (10, 0.0, 0.1, 32, 50), r"P must be in \(0, inf\)"),
        (iftp.ideal_bandwidth, (10, 1.0, -0.1, 32, 50), r"R must be in \(0, inf\)"),
        (iftp.steady_state_window, (0.0,), r"p must be in \(0, 1\]"),
        (iftp.nonideal_bandwidth, (1.2, 1.0, 0.1), r"p must be in \(0, 1\]"),
        (iftp.nonideal_bandwidth, (0.1, 1.0, 0.0), r"R must be in \(0, inf\)"),
        (iftp.worst_case_bandwidth, (-1.0, 0.01), r"P must be in \(0, inf\)"),
        (iftp.worst_case_bandwidth, (1.0, -0.01), r"tau must be in \[0, inf\)"),
        (iftp.cycle_packets, (0,), r"n must be in \(0, inf\)"),
    ],
)
def test_bad_input(func, args, match):
    with pytest.raises(ParameterError, match=match):
        func(*args)


@pytest.mark.parametrize("Ws, Wmax", GRID)
def test_phase_durations_eqs_12_13(Ws, Wmax):
    """T1 = (lg Ws + 1) R, T2 = (Wmax - Ws) R: in the enumerated sequence the first
    lg Ws + 1 windows are 1 .. Ws, the next Wmax - Ws are Ws+1 .. Wmax, then Wmax."""
    windows, w = [], 1
    for _ in range(300):
        windows.append(w)
        w = 2 * w if w < Ws else min(w + 1, Wmax)
    k1, k2 = int(np.log2(Ws)) + 1, Wmax - Ws
    assert windows[:k1] == [2**j for j in range(k1)]
    assert windows[k1:k1 + k2] == list(range(Ws + 1, Wmax + 1))
    assert set(windows[k1 + k2:]) == {Wmax}


@settings(max_examples=200, deadline=None)
@given(lg_ws=st.integers(0, 8), extra=st.integers(0, 300), N=st.integers(1, 10**6))
def test_round_trips_property(lg_ws, extra, N):
    """Random (Ws, Wmax, N), including very long files: exact form == enumeration."""
    Ws = 2**lg_ws
    Wmax = Ws + extra
    assert iftp.round_trips(N, Ws, Wmax) == enumerate_round_trips(N, Ws, Wmax)
