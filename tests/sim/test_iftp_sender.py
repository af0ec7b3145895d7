"""The IFTP sender (ctlcc.sim.senders.iftp) on hand-made loss patterns.

Every expected value below is worked out by hand from the paper's
Figure 1 and eqs. (7)-(9) (ElAarag & Bassiouni (2002)) on a path whose
round trip R is the same for every packet (paced packets never queue):

    R = data: 8000/1e8 + 1 ms + 8000/1e7 + 20 ms;  ACK: 320/1e7 + 20 ms + 320/1e8 + 1 ms
      = 42.9152 ms

so srtt = R from the first sample on, G = R/(S n) - tau with tau = one
packet on the 100 Mb/s first link (80 us), and a window of n packets
occupies [t0, t0 + (n-1) R/n]; its n-th ACK, R later, starts the next one.
"""

import numpy as np
import pytest

from ctlcc.errors import ParameterError
from ctlcc.laws.iftp import timeout_interval
from ctlcc.sim import run, scenarios as S
from ctlcc.sim.senders import Iftp, resolve

R = 8000 / 1e8 + 1e-3 + 8000 / 1e7 + 20e-3 + 320 / 1e7 + 20e-3 + 320 / 1e8 + 1e-3
TAU = 8000 / 1e8
DT = 1e-4   # sampling period of the window trace [s]


def _path(sender, loss=None):
    links = (S.Link("S", "R", 100e6, 1e-3, 1000), S.Link("R", "D", 10e6, 20e-3, 1000, loss))
    return S.Scenario("iftp_test", links, (S.Flow(("S", "R", "D"), sender=sender),),
                      (("R", "D"),), payload_bytes=1000, header_bytes=0, ack_bytes=40)


def _windows(result):
    """The successive values of the emulated window n (trace of F_CWND)."""
    w = result.traces.window[:, 0]
    keep = np.r_[True, w[1:] != w[:-1]]
    return w[keep].astype(int).tolist(), result.traces.time[keep]


def _late_rate(result, after=5.0):
    """Sending rate after *after* seconds: slope of the packets sent. [packets/s]"""
    t, sent = result.traces.time, result.traces.sent[:, 0]
    late = t >= after
    return np.polyfit(t[late], sent[late], 1)[0]


def test_lossless_window_sequence_and_period():
    """Slow start 1, 2, 4 to Ws = 4, then +1 per period to Wmax = 6 (Figure 1)."""
    res = run(_path(Iftp(Ws=4, Wmax=6)), 1.0, trace=True, sample_interval=DT)
    windows, times = _windows(res)
    assert windows == [1, 2, 4, 5, 6]
    # window k+1 starts when the last ACK of window k (sent (n-1) R/n after its first
    # packet) returns: period R (2n - 1)/n; the first window starts at 0
    starts = [0.0]
    for n in (1, 2, 4, 5):
        starts.append(starts[-1] + R * (2 * n - 1) / n)
    np.testing.assert_allclose(times[1:], starts[1:], atol=DT + 1e-9)  # trace resolution
    st = res.sender_state[0]
    # G is tallied from the first RTT sample on (window 1's lone packet has none)
    assert st["gaps"] == res.flows[0].sent - 1
    assert st["gap_mean"] == pytest.approx(
        np.average([R / n - TAU for n in (2, 4, 5, 6)],
                   weights=[2, 4, 5, st["gaps"] - 11]), rel=1e-9)
    assert res.flows[0].retransmitted == 0 and res.flows[0].dropped == 0
    assert res.flows[0].srtt == pytest.approx(R, rel=1e-12)


def test_steady_rate_at_wmax_is_n_per_2R_minus_R_over_n():
    """At Wmax, Figure 1 sends n packets every R (2n - 1)/n, not every R (finding)."""
    res = run(_path(Iftp(Ws=4, Wmax=6)), 30.0, trace=True, sample_interval=0.01)
    assert _late_rate(res) == pytest.approx(6 / (R * 11 / 6), rel=0.01)  # 1 %: granularity


def test_one_loss_halves_n_and_ssthresh_once_and_nothing_is_retransmitted():
    """Windows 1, 2, 4, 5, 6 (seq 12-17), seq 13 lost.

    ACK 12 counts; ACKs 14, 15, 16 are past the gap, the third halves n to 3 and
    ssthresh to max(4 // 2, 2) = 2 and sends 3 packets (prev_last = 17); ACK 17 ends the
    loss phase; 3 in-order ACKs then close that window: n = 4 (congestion avoidance).
    """
    res = run(_path(Iftp(Ws=4, Wmax=10), S.PacketList((14,))), 2.0, trace=True,
              sample_interval=DT)
    windows, _ = _windows(res)
    assert windows[:8] == [1, 2, 4, 5, 6, 3, 4, 5]
    f, st = res.flows[0], res.sender_state[0]
    assert st["loss_reactions"] == 1 and st["timeouts"] == 0
    assert f.retransmitted == 0 and f.dropped == 1
    assert f.delivered == f.delivered_unique == f.sent - 1 - f.in_flight


def test_lost_window_times_out_after_eq9_and_restarts_at_one():
    """Window 3 (seq 3-6) lost whole: no ACK after seq 2's at 2.5 R.

    Samples of seq 0, 1, 2 all equal R: rttvar = R/2, 3R/8, 9R/32, so eq. (9) fires at
    2.5 R + (R + 4 * 9R/32 + 1 ms); then n = 1, ssthresh = max(4 // 2, 2) = 2, one new
    packet (seq 7), backoff 2 until the next sample.
    """
    res = run(_path(Iftp(Ws=8, Wmax=10), S.PacketList((4, 5, 6, 7))), 1.0, trace=True,
              sample_interval=DT)
    windows, times = _windows(res)
    assert windows[:4] == [1, 2, 4, 1]
    expected = 2.5 * R + R + 4 * (9 * R / 32) + 1e-3
    assert expected == pytest.approx(2.5 * R + timeout_interval(R, 9 * R / 32, 1))
    assert times[3] == pytest.approx(expected, abs=DT + 1e-9)
    assert windows[4] == 2   # seq 7's ACK: 1 < ssthresh 2, slow start doubles
    assert res.sender_state[0]["timeouts"] == 1


def test_scaled_mode_sends_S_times_the_packets_per_sweep():
    """§3.2: G_m = (G - tau (S - 1))/S, S n packets per sweep; an in-order ACK counts 1/S,
    so with S = 2 a window closes on the ACK of the last of its 2n packets: a period of
    R (2 - 1/(2n)) instead of R (2 - 1/n).  At n = 6: 12/(23R/12) vs 6/(11R/6), ratio
    144 * 11 / (23 * 36) = 1.913."""
    a = run(_path(Iftp(Ws=4, Wmax=6)), 30.0, trace=True, sample_interval=0.01)
    b = run(_path(Iftp(Ws=4, Wmax=6, S=2.0)), 30.0, trace=True, sample_interval=0.01)
    assert _late_rate(b) / _late_rate(a) == pytest.approx(144 * 11 / (23 * 36), rel=0.01)
    assert b.sender_state[0]["window"] == a.sender_state[0]["window"] == 6


def test_continuous_pacing_sends_n_per_R():
    """pacing="continuous": the sweep goes on at G + tau = R/n, so at Wmax the rate is
    Wmax/R exactly (the rate eqs. (10)-(20) assume)."""
    res = run(_path(Iftp(Ws=4, Wmax=6, pacing="continuous")), 30.0, trace=True,
              sample_interval=0.01)
    assert _late_rate(res) == pytest.approx(6 / R, rel=0.01)  # 1 %: packet granularity
    assert res.sender_state[0]["gap_mean"] == pytest.approx(R / 6 - TAU, rel=0.01)


def test_tau_reading_moves_the_gap_not_the_rate():
    """G = R/n - tau: a larger tau lowers G by the same amount, the period is R/n."""
    a = run(_path(Iftp(Ws=4, Wmax=6)), 10.0)
    b = run(_path(Iftp(Ws=4, Wmax=6, tau=0.008)), 10.0)
    assert a.flows[0].sent == b.flows[0].sent
    assert a.sender_state[0]["gap_mean"] - b.sender_state[0]["gap_mean"] == pytest.approx(
        0.008 - TAU, rel=1e-9)


def test_protocol_string_means_the_papers_defaults():
    spec = resolve("iftp")
    assert (spec.Ws, spec.Wmax, spec.S, spec.after_missing_thresh) == (32, 50, 1.0, 3)
    assert spec.granularity == 1e-3 and spec.max_backoff == 64 and spec.tau is None


BAD = [
    (dict(Ws=24), "Ws must be a power of two"),
    (dict(Ws=0), "Ws must be"),
    (dict(S=0.0), r"S must be in \(0, inf\)"),
    (dict(S=-1.0), r"S must be in \(0, inf\)"),
    (dict(Wmax=0), "Wmax must be"),
    (dict(after_missing_thresh=0), "after_missing_thresh must be"),
    (dict(max_backoff=48), "max_backoff must be a power of two"),
    (dict(granularity=0.0), "granularity must be"),
    (dict(tau=0.0), "tau must be None or a finite transmission time > 0"),
    (dict(tau=float("nan")), "tau must be None"),
    (dict(tau="8ms"), "tau must be None"),
    (dict(pacing="rate"), "pacing must be one of 'figure1', 'continuous'"),
]


@pytest.mark.parametrize("kwargs, match", BAD)
def test_bad_parameters_name_the_argument(kwargs, match):
    with pytest.raises(ParameterError, match=match):
        Iftp(**kwargs)


def test_iftp_runs_in_every_preset():
    for name in S.PRESETS:
        sc = S.preset(name, protocol="iftp")
        res = run(sc, 5.0)
        # every flow runs IFTP but open-loop cross traffic (sttp_rtt_example's CBR source)
        assert all(f.protocol in ("iftp", "cbr", "poisson") for f in res.flows), name
        assert any(f.protocol == "iftp" for f in res.flows), name
        assert sum(f.delivered_unique for f in res.flows) > 50, name
