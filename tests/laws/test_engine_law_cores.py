"""Law cores: one source for the analysis (sympy, numpy) and the packet engine (numba).

Each compiled core must equal its public, validated wrapper (or the
composition of the wrappers it writes out) on a grid; equality is exact
(the same IEEE operations in the same order) unless a tolerance is stated.
"""

import itertools

import numba
import numpy as np
import pytest
import sympy as sp

from ctlcc.laws import primo, stpd, tcp, vegas
from ctlcc.laws.primo import PrimoParams
from ctlcc.laws.stpd_fuzzy import FuzzySupervisor, default_config


def _jit(core):
    return numba.njit(core)


def test_pd_window_core_is_the_composition_of_the_stpd_laws():
    core = _jit(stpd.pd_window_core)
    rng = np.random.default_rng(1)
    for _ in range(300):
        cwnd, rtt_min = rng.uniform(1, 100), rng.uniform(0.01, 0.5)
        rtt = rtt_min * rng.uniform(1, 3)
        acked, duration = float(rng.integers(0, 200)), rng.uniform(0.01, 1)
        prev, kp, kd, ref = rng.normal(), rng.uniform(0, 1), rng.uniform(0, 1), 1.0
        rate = stpd.service_rate(acked, duration)
        err = stpd.control_error(ref, stpd.buffer_estimate(rtt, rtt_min, rate))
        expected = (stpd.pd_update(cwnd, err, prev, kp, kd), err)
        args = (cwnd, rtt, rtt_min, acked, duration, prev, kp, kd, ref)
        assert core(*args) == expected
        assert stpd.pd_window_core(*args) == expected


def test_pd_window_core_accepts_sympy():
    c, r, r0, a, d, e1, kp, kd, ref = sp.symbols("c r r0 a d e1 k_p k_d ref")
    w, e = stpd.pd_window_core(c, r, r0, a, d, e1, kp, kd, ref)
    assert sp.simplify(e - (ref - (r - r0) * a / d)) == 0
    assert sp.simplify(w - (c + kp * e + kd * (e - e1))) == 0


@pytest.mark.parametrize("params", [PrimoParams(), PrimoParams(TH_rel=0.0, W1=0.3, tau=2.0)])
def test_next_rate_core_matches_algorithm_1(params):
    core = _jit(primo.next_rate_core)
    p = params
    ftt_ref = 0.01
    for old, rate, rcv, x in itertools.product((50.0, 120.0), (80.0, 110.0), (0.0, 100.0),
                                               np.linspace(0.0, 0.5, 41)):
        dftt = x * ftt_ref
        expected = primo.next_rate(old, rate, rcv, dftt, ftt_ref, p)
        got = core(old, rate, rcv, dftt, ftt_ref, p.W1, p.W2, p.F_str, p.F_mod, p.F_rel,
                   p.TH_str, p.TH_mod, p.TH_rel)
        assert got == expected


def test_primo_regime_code_matches_regime_names():
    core = _jit(primo.regime_code_core)
    p = PrimoParams()
    for x in np.linspace(0.0, 0.5, 101):
        assert primo.REGIMES[core(x * 0.01, 0.01, p.TH_str, p.TH_mod, p.TH_rel)] == \
            primo.regime(x * 0.01, 0.01, p)


def test_primo_start_up_and_timeouts():
    assert _jit(primo.initial_rate_core)(1000.0, 0.016) == primo.initial_rate(1000, 0.016)
    assert _jit(primo.timeout_backoff_core)(100.0, 0.2) == primo.timeout_backoff(100.0, 0.2)
    assert _jit(primo.ack_timeout_core)(0.024) == primo.ack_timeout(0.024) == 0.048


def test_tcp_window_rules():
    inc = _jit(tcp.window_increase_core)
    half = _jit(tcp.loss_ssthresh_core)
    part = _jit(tcp.partial_ack_window_core)
    for cwnd, ss in itertools.product((1.0, 3.0, 7.5, 40.0), (2.0, 8.0, 4096.0)):
        # RFC 5681 §3.1: +1 in slow start, +1/cwnd in congestion avoidance
        assert inc(cwnd, ss) == tcp.window_increase(cwnd, ss) == \
            (cwnd + 1.0 if cwnd < ss else cwnd + 1.0 / cwnd)
    for flight in range(0, 50):
        assert half(flight) == tcp.loss_ssthresh(flight) == max(flight / 2, 2.0)
    assert part(12.0, 3) == tcp.partial_ack_window(12.0, 3) == 10.0
    assert tcp.fast_recovery_window_core(10.0, 3) == 13.0


def test_vegas_rules():
    diff = _jit(vegas.backlog_core)
    ca = _jit(vegas.avoidance_window_core)
    # diff = cwnd (RTT - base)/RTT: 20 packets, 25 % queueing delay -> 4 packets queued
    assert diff(20.0, 0.125, 0.1) == vegas.backlog(20.0, 0.125, 0.1) == pytest.approx(4.0)
    for d, expected in ((0.5, 11.0), (1.0, 10.0), (3.0, 10.0), (3.5, 9.0)):
        assert ca(10.0, d, 1.0, 3.0) == vegas.avoidance_window(10.0, d) == expected
    c, r, b = sp.symbols("c r b", positive=True)
    assert sp.simplify(vegas.backlog_core(c, r, b) - (c - c * b / r)) == 0


@pytest.mark.parametrize("calibration", ["poles", "printed"])
def test_fuzzy_schedule_table_equals_the_supervisor(calibration):
    # CoM over a Ruspini partition is linear between peaks: the 7-point
    # table must reproduce gains() to rounding (1e-15 relative).
    sup = FuzzySupervisor(default_config(calibration))
    x, kp, kd = sup.schedule()
    assert x.size == 7
    grid = np.geomspace(1.0, 1000.0, 2001)
    ekp, ekd = sup.gains(grid)
    np.testing.assert_allclose(np.interp(grid, x, kp), ekp, rtol=1e-13, atol=1e-16)
    np.testing.assert_allclose(np.interp(grid, x, kd), ekd, rtol=1e-13, atol=1e-16)


def test_fuzzy_schedule_saturates_outside_the_universe():
    # the sender holds the ES / EL gains below 1 and above 1000 packets
    sup = FuzzySupervisor()
    x, kp, kd = sup.schedule()
    edge = FuzzySupervisor(default_config(out_of_universe="saturate")).gains([1.0, 1000.0])
    assert np.interp(0.98, x, kp) == edge[0][0] and np.interp(5000.0, x, kd) == edge[1][1]


def test_primo_restart_timeout_and_gap_cores():
    # restart wait (1 - j + 2 j u) TO_0: u = 0 and u -> 1 give the ends of [0.5, 1.5] TO_0
    # (j = 0.5, the sender's default); j = 0 is the literal fixed timer
    restart = _jit(primo.restart_delay_core)
    for u, j in itertools.product((0.0, 0.25, 0.5, 0.999), (0.0, 0.5, 0.9)):
        assert restart(1.0, u, j) == primo.restart_delay(1.0, u, j)
    assert primo.restart_delay(1.0, 0.0) == 0.5 and primo.restart_delay(2.0, 0.5) == 2.0
    assert primo.restart_delay(1.0, 0.7, jitter=0.0) == 1.0
    deadline = _jit(primo.timeout_deadline_core)
    assert deadline(10.0, 0.06) == primo.timeout_deadline(10.0, 0.06) == 10.0 + 0.06
    gap = _jit(primo.mean_gap_core)
    # EWMA with gain 1/8: from 0.01, a gap of 0.02 moves it by 0.01 / 8
    assert gap(0.01, 0.02, 0.125) == primo.mean_gap(0.01, 0.02) == 0.01 + 0.01 / 8
    assert gap(0.0, 0.02, 0.125) == 0.02  # the first gap is taken as is


@pytest.mark.parametrize("call, match", [
    (lambda: primo.restart_delay(1.0, 1.0), "u must be in"),
    (lambda: primo.restart_delay(0.0, 0.5), "initial_timeout"),
    (lambda: primo.restart_delay(1.0, 0.5, jitter=1.0), r"jitter must be in \[0, 1\).*got 1.0"),
    (lambda: primo.timeout_deadline(1.0, 0.0), "timeout"),
    (lambda: primo.mean_gap(0.01, 0.0), "gap"),
    (lambda: primo.mean_gap(0.01, 0.01, gain=0.0), "gain must be in"),
])
def test_primo_restart_timeout_and_gap_bad_input(call, match):
    from ctlcc.errors import ParameterError

    with pytest.raises(ParameterError, match=match):
        call()
