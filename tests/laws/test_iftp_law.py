"""IFTP (ElAarag & Bassiouni 2002): gap laws (2), (4), (6), G_m, timer (7)-(9), Figure 1 state machine."""

import numpy as np
import pytest
import sympy as sp

from ctlcc.errors import ParameterError
from ctlcc.laws import iftp

n, R, tau, G, Gn, S = sp.symbols("n R tau G G_next S", positive=True)


@pytest.mark.parametrize(
    "law, phase, factor, source",
    [
        (iftp.gap_slow_start, "slow_start", 2 * n, "ElAarag & Bassiouni (2002), eqs. (1)-(2)"),
        (iftp.gap_congestion_avoidance, "congestion_avoidance", n + 1, "ElAarag & Bassiouni (2002), eqs. (3)-(4)"),
        (iftp.gap_loss, "loss", n / 2, "ElAarag & Bassiouni (2002), eqs. (5)-(6)"),
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
    """ElAarag & Bassiouni (2002) §5.3: backoff 64, srtt = rttvar = 0 -> 64 ms."""
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
    Ws+1, ..., Wmax, Wmax, ... -- the sequence ElAarag & Bassiouni §5.1 (and ctlcc.bounds.iftp) counts."""
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


# --- Figure 1 as a per-ACK state machine (the core the packet sender compiles) ---------------

def _run_acks(state, acks, next_seq, Wmax=50, thresh=3):
    """Feed ACKs to ack_step_core; return the states and actions seen."""
    out = []
    for ack in acks:
        *state, action = iftp.ack_step_core(ack, next_seq, *state, Wmax, thresh)
        out.append((tuple(state), action))
    return out


def test_ack_step_slow_start_to_wmax_by_hand():
    """n = 1, ssthresh = 4, Wmax = 6; every window fully ACKed in order.

    Figure 1: the n-th in-order ACK of a period doubles n while n < ssthresh,
    adds one while n < Wmax: windows 1, 2, 4, 5, 6, 6 (ACKs 1 | 2-3 | 4-7 |
    8-12 | 13-18 | 19-24); una = last ACK + 1."""
    state, seq, ack, windows = (1, 4, 1, 0, 0, 0), 1, 0, []
    for _ in range(6):
        windows.append(state[0])
        for _ in range(state[0]):
            ack += 1
            *state, action = iftp.ack_step_core(ack, seq + 100, *state, 6, 3)
        assert action == iftp.ACTION_NEXT_WINDOW and state[3] == 0
    assert windows == [1, 2, 4, 5, 6, 6]
    assert state[2] == ack + 1 == 25


def test_ack_step_single_loss_by_hand():
    """Window of 8 (packets 1-8, next = 9), packet 3 lost, ssthresh 32.

    ACK 1, 2: in order (ack_count 1, 2; una 2, 3).  ACK 4, 5, 6: past the
    gap, after_missing 1, 2, 3; at 3 (= after_missing_thresh) n 8 -> 4,
    ssthresh 32 -> 16, prev_last = next - 1 = 8, action: send the halved
    window (packets 9-12, next = 13).  ACK 7: after_missing 4 but 7 < 8, still
    in the loss phase.  ACK 8 >= prev_last: una = 9, phase over.  ACKs 9-12
    are in order; the 4th completes the period: n 4 -> 8 (4 < ssthresh 16)."""
    seen = _run_acks((8, 32, 1, 0, 0, 0), [1, 2, 4, 5, 6], next_seq=9)
    assert seen == [((8, 32, 2, 1, 0, 0), 0), ((8, 32, 3, 2, 0, 0), 0),
                    ((8, 32, 3, 0, 1, 0), 0), ((8, 32, 3, 0, 2, 0), 0),
                    ((4, 16, 3, 0, 3, 8), iftp.ACTION_LOSS_WINDOW)]
    seen = _run_acks(seen[-1][0], [7, 8, 9, 10, 11, 12], next_seq=13)
    assert [s for s, _ in seen] == [(4, 16, 3, 0, 4, 8), (4, 16, 9, 0, 5, 8),
                                    (4, 16, 10, 1, 0, 8), (4, 16, 11, 2, 0, 8),
                                    (4, 16, 12, 3, 0, 8), (8, 16, 13, 0, 0, 8)]
    assert [a for _, a in seen] == [0, 0, 0, 0, 0, iftp.ACTION_NEXT_WINDOW]


def test_ack_step_reacts_once_per_loss_phase():
    """Two holes in one window (3 and 6 lost, packets 1-10): one halving only (§4:
    'IFTP reacts only once upon loss detection')."""
    seen = _run_acks((10, 32, 1, 0, 0, 0), [1, 2, 4, 5, 7, 8, 9, 10], next_seq=11)
    actions = [a for _, a in seen]
    assert actions.count(iftp.ACTION_LOSS_WINDOW) == 1
    assert seen[-1][0][:2] == (5, 16)


def test_ack_step_threshold_is_a_parameter():
    """after_missing_thresh = 1: the first ACK past the gap halves."""
    (state, action), = _run_acks((8, 32, 1, 0, 0, 0), [2], next_seq=9, thresh=1)
    assert action == iftp.ACTION_LOSS_WINDOW and state[:2] == (4, 16)


def test_timeout_step_figure_1():
    """Timeout: ssthresh = max(n/2, 2), n = 1, una = next - 1 after sending one
    packet, Karn's backoff doubles (eq. (9)), capped at 64."""
    assert iftp.timeout_step_core(40, 32, 1, 101, 64) == (1, 20, 2, 101)
    assert iftp.timeout_step_core(3, 32, 64, 7, 64) == (1, 2, 64, 7)
    s, b = iftp.timeout_step(iftp.AckState(n=40, ssthresh=32, una=60), 1, 101)
    assert (s.n, s.ssthresh, s.una, b) == (1, 20, 101, 2)


def test_ack_step_wrapper_matches_core_and_validates():
    s, action = iftp.ack_step(iftp.AckState(n=8, ssthresh=32, una=3), 6, 9,
                              iftp.IftpParams(after_missing_thresh=1))
    assert (s.n, s.ssthresh, s.prev_last, action) == (4, 16, 8, iftp.ACTION_LOSS_WINDOW)
    with pytest.raises(ParameterError, match=r"next_seq must be > ack_in = 9"):
        iftp.ack_step(iftp.AckState(), 9, 9)
    with pytest.raises(ParameterError, match=r"state must be an AckState"):
        iftp.ack_step((1, 32, 1, 0, 0, 0), 1, 2)


def test_period_gap_is_scaled_figure_1_gap():
    """§3.2 applied to Figure 1's G = srtt/n - tau: G_m = R/(S n) - tau, so the
    period carries S n packets: S n (G_m + tau) = R (sympy)."""
    g = iftp.period_gap_core(R, n, tau, S)
    assert sp.simplify(g - (R / (S * n) - tau)) == 0
    assert sp.simplify(S * n * (g + tau) - R) == 0
    assert iftp.period_gap(0.1, 4, 0.008, 1.0) == pytest.approx(0.1 / 4 - 0.008)


def test_rtt_and_timer_cores_are_symbolic():
    """Eqs. (7)-(9) evaluated on sympy symbols give the printed expressions."""
    s, v, r, b, g = sp.symbols("srtt rttvar rtt backoff g", positive=True)
    new_s, new_v = iftp.rtt_update_core(s, v, r)
    assert sp.simplify(new_s - (7 * s / 8 + r / 8)) == 0
    assert sp.simplify(new_v - (3 * v / 4 + sp.Abs(r - new_s) / 4)) == 0
    assert sp.expand(iftp.timeout_interval_core(s, v, b, g) - b * (s + 4 * v + g)) == 0


# --- compiled cores agree with the public wrappers ---------------------------------------------

numba = pytest.importorskip("numba")


def test_numba_window_and_ack_cores_agree_with_python():
    """The exact Figure 1 code path, compiled, on every small state and a random ACK stream."""
    window = numba.njit(iftp.window_update_core)
    for n_ in range(1, 70):
        for ss in (1, 2, 3, 16, 32, 64):
            for ev in (0, 1, 2, 7):
                assert window(n_, ss, ev, 50) == iftp.window_update_core(n_, ss, ev, 50)
    ack = numba.njit(iftp.ack_step_core, inline="always")

    @numba.njit
    def drive(acks, next_seq, Wmax, thresh):
        n_, ss, una, cnt, am, pl = 1, 32, 1, 0, 0, 0
        out = np.empty((acks.size, 7), dtype=np.int64)
        for i in range(acks.size):
            n_, ss, una, cnt, am, pl, act = ack(acks[i], next_seq[i], n_, ss, una, cnt, am, pl,
                                                Wmax, thresh)
            out[i] = (n_, ss, una, cnt, am, pl, act)
        return out

    rng = np.random.default_rng(11)
    acks = np.cumsum(rng.integers(1, 4, size=400))            # in-order with holes
    next_seq = acks + rng.integers(1, 30, size=400)
    compiled = drive(acks, next_seq, 50, 3)
    state = (1, 32, 1, 0, 0, 0)
    for i in range(acks.size):
        *state, act = iftp.ack_step_core(int(acks[i]), int(next_seq[i]), *state, 50, 3)
        assert tuple(compiled[i]) == (*state, act)


def test_numba_float_cores_agree_with_wrappers_on_a_grid():
    grid_R = np.array([0.01, 0.05, 0.1, 0.3])
    grid_n = np.array([1.0, 2.0, 7.0, 50.0])
    grid_tau = np.array([0.0, 0.0008, 0.008])
    grid_S = np.array([0.5, 1.0, 1.5, 2.0])
    gap = numba.njit(iftp.period_gap_core)
    nxt = numba.njit(iftp.next_gap_core)
    rtt = numba.njit(iftp.rtt_update_core)
    rto = numba.njit(iftp.timeout_interval_core)
    karn = numba.njit(iftp.karn_backoff_core)
    for r_ in grid_R:
        for n_ in grid_n:
            for t_ in grid_tau:
                for s_ in grid_S:
                    assert gap(r_, n_, t_, s_) == pytest.approx(iftp.period_gap(r_, n_, t_, s_),
                                                                rel=1e-15, abs=1e-18)
                for ph, name in enumerate(("slow_start", "congestion_avoidance", "loss")):
                    assert nxt(r_, n_, t_, ph) == iftp.next_gap(r_, n_, t_, name)
                assert rtt(r_, t_, n_ / 100) == pytest.approx(iftp.rtt_update(r_, t_, n_ / 100),
                                                              rel=1e-15)
                assert rto(r_, t_, 4, 1e-3) == pytest.approx(iftp.timeout_interval(r_, t_, 4),
                                                             rel=1e-15)
    assert [karn(b, 64) for b in (1, 2, 32, 64)] == [iftp.karn_backoff(b) for b in (1, 2, 32, 64)]


# --- parameters -------------------------------------------------------------------------------

def test_params_defaults_are_section_6_1():
    """§6.1: ssthresh 32, W_max 50, aftermissing_thresh 3; §4: 1 ms tick, backoff cap 64."""
    p = iftp.IftpParams()
    assert (p.Ws, p.Wmax, p.after_missing_thresh, p.granularity, p.max_backoff, p.S) == \
        (32, 50, 3, 1e-3, 64, 1.0)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"Ws": 24}, r"Ws must be a power of two >= 1 \(1, 2, 4, ...\), got 24"),
        ({"Ws": 0}, r"Ws must be an integer >= 1, got 0"),
        ({"Wmax": 0}, r"Wmax must be an integer >= 1, got 0"),
        ({"Wmax": 2.5}, r"Wmax must be an integer >= 1, got 2.5"),
        ({"S": 0.0}, r"S must be in \(0, inf\), got 0.0"),
        ({"S": float("nan")}, r"S must be in \(0, inf\), got nan"),
        ({"after_missing_thresh": 0}, r"after_missing_thresh must be an integer >= 1, got 0"),
        ({"granularity": -1e-3}, r"granularity must be in \(0, inf\), got -0.001"),
        ({"max_backoff": 48}, r"max_backoff must be a power of two >= 1 \(1, 2, 4, ...\), got 48"),
    ],
)
def test_bad_params(kwargs, match):
    with pytest.raises(ParameterError, match=match):
        iftp.IftpParams(**kwargs)


@pytest.mark.parametrize(
    "func, args, match",
    [
        (iftp.period_gap, (0.1, 4, 0.001, 0.0), r"S must be in \(0, inf\), got 0.0"),
        (iftp.period_gap, (0.1, -4, 0.001), r"n must be in \(0, inf\), got -4.0"),
        (iftp.timeout_step, (iftp.AckState(), 3, 5), r"backoff must be a power of two in \[1, 64\], got 3"),
        (iftp.timeout_step, (iftp.AckState(), 1, 0), r"next_seq must be an integer >= 1, got 0"),
        (iftp.AckState, (1, 32, -1), r"una must be an integer >= 0, got -1"),
    ],
)
def test_bad_input_step_functions(func, args, match):
    with pytest.raises(ParameterError, match=match):
        func(*args)
