"""IFTP gap laws (2), (4), (6), G_m and the timer (7)-(9), derived with sympy."""

import numpy as np
import pytest
import sympy as sp

from ctlcc.errors import ParameterError
from ctlcc.laws import iftp

n, R, tau, G, Gn, S = sp.symbols("n R tau G G_next S", positive=True)


@pytest.mark.parametrize(
    "law, phase, factor, source",
    [
        (iftp.gap_slow_start, "slow_start", 2 * n, "003 eqs. (1)-(2)"),
        (iftp.gap_congestion_avoidance, "congestion_avoidance", n + 1, "003 eqs. (3)-(4)"),
        (iftp.gap_loss, "loss", n / 2, "003 eqs. (5)-(6)"),
    ],
)
def test_gap_laws_solve_the_period_balance(law, phase, factor, source):
    """n (G + tau) = R = n' (G' + tau), solved for G' both ways."""
    (direct,) = sp.solve(sp.Eq(factor * (Gn + tau), R), Gn)
    (recursive,) = sp.solve(sp.Eq(n * (G + tau), factor * (Gn + tau)), Gn)
    assert sp.simplify(law(R, n, tau) - direct) == 0, source
    assert sp.simplify(iftp.next_gap(G, n, tau, phase) - recursive) == 0, source
    # the printed right-hand sides
    printed = {"slow_start": (G - tau) / 2, "congestion_avoidance": (n * G - tau) / (n + 1),
               "loss": 2 * G + tau}[phase]
    assert sp.simplify(recursive - printed) == 0, source


def test_scaled_gap_solves_its_balance():
    (sol,) = sp.solve(sp.Eq(n * (G + tau), S * n * (Gn + tau)), Gn)
    assert sp.simplify(iftp.scaled_gap(G, tau, S) - sol) == 0
    assert sp.simplify(sol - (G - tau * (S - 1)) / S) == 0                  # §3.2 as printed


def test_numeric_recursion_matches_direct_form():
    r, t = 0.1, 0.002
    g = iftp.gap_for_window(r, 4, t)
    for phase, law, nxt in [("slow_start", iftp.gap_slow_start, 8),
                            ("congestion_avoidance", iftp.gap_congestion_avoidance, 5),
                            ("loss", iftp.gap_loss, 2)]:
        assert iftp.next_gap(g, 4, t, phase) == pytest.approx(law(r, 4, t))
        assert nxt * (law(r, 4, t) + t) == pytest.approx(r)


def test_gap_laws_vectorised():
    n_arr = np.arange(1, 11)
    np.testing.assert_allclose(iftp.gap_congestion_avoidance(0.2, n_arr, 0.001), 0.2 / (n_arr + 1) - 0.001)


def test_rtt_estimator_first_sample_and_updates():
    """§4: first sample -> srtt = rtt, rttvar = rtt/2; then eqs. (7)-(8)."""
    est = iftp.RttEstimator().update(0.2)
    assert (est.srtt, est.rttvar) == (0.2, 0.1)
    est2 = est.update(0.36)
    assert est2.srtt == pytest.approx(7 / 8 * 0.2 + 0.36 / 8)
    assert est2.rttvar == pytest.approx(3 / 4 * 0.1 + abs(0.36 - est2.srtt) / 4)
    assert est2.timeout() == pytest.approx(est2.srtt + 4 * est2.rttvar + 0.001)


def test_karn_backoff_caps_at_64_and_resets_on_sample():
    est = iftp.RttEstimator().update(0.05)
    seen = []
    for _ in range(9):
        est = est.on_timeout()
        seen.append(est.backoff)
    assert seen == [2, 4, 8, 16, 32, 64, 64, 64, 64]
    assert est.timeout() == pytest.approx(64 * (0.05 + 4 * 0.025 + 0.001))
    assert est.update(0.05).backoff == 1


def test_worst_case_timeout_64_ms():
    """003 §5.3: backoff 64, srtt = rttvar = 0 -> 64 ms."""
    assert iftp.timeout_interval(0.0, 0.0, 64) == pytest.approx(0.064)


@pytest.mark.parametrize(
    "func, args, match",
    [
        (iftp.gap_slow_start, (0.0, 4, 0.001), r"R must be in \(0, inf\)"),
        (iftp.gap_congestion_avoidance, (0.1, 0, 0.001), r"n must be in \(0, inf\)"),
        (iftp.gap_loss, (0.1, 4, -0.001), r"tau must be in \[0, inf\)"),
        (iftp.scaled_gap, (0.01, 0.001, 0.0), r"S must be in \(0, inf\)"),
        (iftp.scaled_gap, (0.01, 0.001, [2.0, -1.0]), r"S must be in \(0, inf\)"),
        (iftp.next_gap, (0.01, 4, 0.001, "fast"), r"phase must be one of"),
        (iftp.timeout_interval, (0.1, 0.01, 3), r"backoff must be a power of two"),
        (iftp.timeout_interval, (0.1, 0.01, 128), r"backoff must be a power of two in \[1, 64\]"),
        (iftp.timeout_interval, (-0.1, 0.01, 1), r"srtt must be in \[0, inf\)"),
        (iftp.rtt_update, (0.1, 0.01, 0.0), r"rtt must be in \(0, inf\)"),
        (iftp.karn_backoff, (0,), r"backoff must be an integer >= 1"),
    ],
)
def test_bad_input(func, args, match):
    with pytest.raises(ParameterError, match=match):
        func(*args)


def test_timeout_before_any_sample_is_an_error():
    with pytest.raises(ParameterError, match="no RTT sample yet"):
        iftp.RttEstimator().timeout()


@pytest.mark.parametrize("Ws, Wmax", [(1, 1), (2, 9), (8, 20), (32, 50), (64, 64)])
def test_window_law_generates_the_sequence_of_the_bounds(Ws, Wmax):
    """Figure 1's rule, driven by loss-free periods, produces 1, 2, 4, ..., Ws,
    Ws+1, ..., Wmax, Wmax, ... -- the sequence 003 §5.1 (and ctlcc.bounds.iftp) counts."""
    from ctlcc.bounds.iftp import round_trips

    state, seq = iftp.WindowState(1, Ws), []
    for _ in range(200):
        seq.append(state.n)
        state = iftp.next_window(state, "ack", Wmax)
    expected = [2**j for j in range(Ws.bit_length())] + list(range(Ws + 1, Wmax + 1))
    assert seq[:len(expected)] == expected
    assert set(seq[len(expected):]) == {Wmax}
    sent = np.cumsum(seq)
    for N in (1, 7, 100, int(sent[-1])):
        assert round_trips(N, Ws, Wmax) == int(np.searchsorted(sent, N) + 1)


def test_window_law_loss_and_timeout():
    s = iftp.WindowState(40, 32)
    assert iftp.next_window(s, "loss", 50) == iftp.WindowState(20, 16)
    assert iftp.next_window(iftp.WindowState(1, 2), "loss", 50) == iftp.WindowState(1, 2)
    assert iftp.next_window(s, "timeout", 50) == iftp.WindowState(1, 20)
    with pytest.raises(ParameterError, match="event must be one of"):
        iftp.next_window(s, "dupack", 50)
    with pytest.raises(ParameterError, match="n must be an integer >= 1"):
        iftp.WindowState(0, 2)


def test_slow_start_doubling_stops_at_the_receiver_window():
    # Wmax is the receiver's maximum window (003 Fig. 1): slow start doubles n
    # but never past it, even when ssthresh lies above Wmax (was 8 here).
    assert iftp.next_window(iftp.WindowState(4, 64), "ack", Wmax=6) == iftp.WindowState(6, 64)
    with pytest.raises(ParameterError, match=r"Wmax must be >= the current window state.n = 8"):
        iftp.next_window(iftp.WindowState(8, 64), "ack", Wmax=6)
