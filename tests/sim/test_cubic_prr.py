"""The "cubic" sender (RFC 9438) and the SACK sender's PRR (RFC 6937), on one hand-made loss.

Set-up (as ``tests/sim/test_sack.py``): one flow over S -> R (10 Mb/s,
0.2 ms) -> D (1.5 Mb/s, 80 ms), buffer 100, base round trip R = 167.196 ms
(BDP about 30 segments), but an initial window of 20 and a receiver window
of 4096, so slow start is still running when segment 30 is lost (the 31st
data packet crossing R -> D, by a ``PacketList``).  Hand count:

* the ACKs of 0-19 each send two segments (slow start): 20-59; the ACKs of
  20-29 two more each: 60-79.  cwnd = 20 + 30 = 50, snd.nxt = 80;
* 31, 32, 33 arrive above the hole: three duplicate ACKs, each SACKing one
  segment; recovery starts at the third with FlightSize = 80 - 30 = 50;
* at entry pipe (RFC 6675 SetPipe) = 1 (30, lost and retransmitted) + 46
  (34-79, un-SACKed, not lost) = 47; each later duplicate ACK m = 1..46
  (the ACK of 33 + m) SACKs one more segment: pipe = 47 - m + what was sent.

RFC 6675's window (``Sack()``): ssthresh = cwnd = 25 through the recovery.

PRR-SSRB (``Sack(recovery="prr")``, RFC 6937 §3): RecoverFS = 50, ssthresh
= 25, prr_out = 1 (the retransmission) and prr_delivered = 1 after the
entering ACK.  While pipe > ssthresh, sndcnt = ceil(prr_delivered 25 / 50)
- prr_out, so after ACK m prr_out = ceil((1 + m)/2) and cwnd = pipe +
sndcnt = 47 - m + ceil((1 + m)/2) - 1: 47 at entry, then 46, 46, 45, 45,
... down to 26 at m = 40 (pipe 26 > 25).  From m = 41 pipe <= ssthresh and
SSRB's bound min(ssthresh - pipe, ...) keeps cwnd at 25 or 24 (pipe +
sndcnt with pipe 24 or 25 and sndcnt = 25 - pipe).  Recovery ends with cwnd
= ssthresh = 25.

CUBIC (``Cubic(recovery="rfc6675")``, RFC 9438 §4.6-4.7 and §4.2): at
entry ssthresh = 0.7 x 50 = 35, W_max = 50 (no earlier W_max: no fast
convergence); cwnd = 35 through the recovery; the first epoch starts at
the first ACK of congestion avoidance after it, with K = cbrt((50 - 35)/0.4)
= 3.347 s, and cwnd follows W_cubic(t) = 0.4 (t - K)^3 + 50 (the target
is W_cubic(t + RTT), reached by (target - cwnd)/cwnd per ACK: about one
round trip behind the target, so close to W_cubic(t)).  The Reno-friendly
estimate W_est = 35 + 0.529 t / RTT (RTT about 0.2 s with the queue) stays
below W_cubic over [0, 2K] (43.9 at K against 50; 52.7 at 2K against
65.0), so the cubic curve rules.  The window reaches BDP + buffer (130)
at t = K + cbrt(80/0.4) = 9.2 s after the epoch starts: a 9-s run has one
loss.
"""

import math

import numpy as np
import pytest

from ctlcc.sim import run, scenarios as S
from ctlcc.sim.senders import Cubic, Sack
from ctlcc.sim.senders import cubic as cubic_module
from ctlcc.laws import cubic as cubic_law, prr as prr_law

DT = 1e-3


def _run(sender, duration):
    scenario = S.single_bottleneck(10e6, 0.2e-3, 1.5e6, 80e-3, 100, S.PacketList((31,)),
                                   sender, tcp=S.TcpOptions(initial_window=20))
    return run(scenario, duration, trace=True, sample_interval=DT, progress=False)


def _recovery_windows(result, start_value):
    """The distinct successive cwnd samples from the fast retransmit (the first sample
    below the slow-start peak) until the window first stops changing for 1 s."""
    w = result.traces.window[:, 0]
    peak = int(np.argmax(w >= start_value))
    entry = peak + int(np.argmax(w[peak:] < start_value))
    values = [w[entry]]
    for x in w[entry + 1:]:
        if x != values[-1]:
            values.append(x)
    return entry, values


def _prr_prediction(ssthresh, conservative=False):
    """cwnd after the entering ACK and each of the 46 duplicate ACKs, by RFC 6937 §3's steps
    on the docstring's hand count (pipe 47 at entry, one segment delivered per ACK),
    consecutive repeats dropped."""
    pipe, prr_out, prr_delivered = 47, 1, 1  # after entry: 30 resent, 33 SACKed
    windows = []
    for m in range(0, 47):
        if m > 0:
            prr_delivered += 1
            pipe -= 1
        if pipe > ssthresh:
            sndcnt = math.ceil(prr_delivered * ssthresh / 50) - prr_out
        else:
            limit = prr_delivered - prr_out
            if not conservative:
                limit = max(limit, 1) + 1
            sndcnt = min(ssthresh - pipe, limit)
        sndcnt = max(sndcnt, 0)
        windows.append(float(pipe + sndcnt))
        pipe += sndcnt
        prr_out += sndcnt
    out = [windows[0]]
    for w in windows[1:]:
        if w != out[-1]:
            out.append(w)
    return out


def test_rfc6675_window_holds_ssthresh_through_the_recovery():
    result = _run(Sack(), 3.0)
    flow = result.flows[0]
    assert flow.fast_retransmits == 1 and flow.timeouts == 0 and flow.retransmitted == 1
    entry, values = _recovery_windows(result, 50.0)
    assert values[0] == 25.0  # cwnd = ssthresh = FlightSize / 2 from the entering ACK on
    assert 25.0 < values[1] < 26.0  # then congestion avoidance from 25


@pytest.mark.parametrize("sender, ssthresh, conservative", [
    (Sack(recovery="prr"), 25, False),
    (Sack(recovery="prr-crb"), 25, True),
    (Cubic(), 35, False),                    # CUBIC's ssthresh = 0.7 x 50
    (Cubic(recovery="prr-crb"), 35, True),
])
def test_prr_reduces_the_window_in_proportion_to_the_delivered_data(sender, ssthresh,
                                                                    conservative):
    result = _run(sender, 3.0)
    flow = result.flows[0]
    assert flow.fast_retransmits == 1 and flow.timeouts == 0 and flow.retransmitted == 1
    entry, values = _recovery_windows(result, 50.0)
    predicted = _prr_prediction(ssthresh, conservative)
    assert predicted[0] == 47.0 and predicted[-1] <= ssthresh
    # every ACK of the recovery (one bottleneck slot = 5.6 ms apart, sampled every 1 ms)
    assert values[:len(predicted)] == predicted
    # recovery ends at cwnd = ssthresh, then grows
    rest = values[len(predicted):]
    assert rest[0] == ssthresh or (predicted[-1] == ssthresh and rest[0] > ssthresh), rest[:3]


def test_cubic_follows_the_cubic_curve_after_the_loss():
    result = _run(Cubic(recovery="rfc6675"), 9.0)
    flow = result.flows[0]
    assert flow.fast_retransmits == 1 and flow.timeouts == 0
    t, w = result.traces.time, result.traces.window[:, 0]
    entry, values = _recovery_windows(result, 50.0)
    assert values[0] == pytest.approx(35.0)  # ssthresh = beta cwnd = 0.7 x 50
    after = entry + int(np.argmax(w[entry:] > 35.0 + 1e-9))  # the first epoch's start
    k = (15.0 / 0.4) ** (1.0 / 3.0)
    assert k == pytest.approx(cubic_law.epoch_start(50.0, 35.0)[0])
    at_k = w[int(np.argmin(np.abs(t - (t[after] + k))))]
    at_2k = w[int(np.argmin(np.abs(t - (t[after] + 2 * k))))]
    # tolerances fixed from the docstring's reading: at K the curve is flat (W_cubic moves
    # 0.003 segment in one RTT): 1 segment of per-ACK discreteness; at 2K the slope is
    # 3 C K^2 = 13.4 segments/s: one 0.2-s round trip of lag = 2.7, + 1
    assert abs(at_k - 50.0) <= 1.0, at_k
    assert abs(at_2k - (0.4 * k ** 3 + 50.0)) <= 3.7, at_2k


def test_one_law_two_uses():
    # the sender compiles the law's cores: no second copy of the formulas
    assert cubic_module.epoch_start.py_func is cubic_law.epoch_start_core
    assert cubic_module.avoidance.py_func is cubic_law.congestion_avoidance_core
    assert cubic_module.loss.py_func is cubic_law.loss_core
    assert cubic_module.step.py_func is cubic_law.avoidance_step_core
    assert cubic_module.ns3_alpha.py_func is cubic_law.ns3_alpha_core
    assert cubic_module.ns3_count.py_func is cubic_law.ns3_count_core
    assert cubic_module.ns3_loss.py_func is cubic_law.ns3_loss_core
    from ctlcc.sim.senders import sack

    assert sack.prr_sndcnt.py_func is prr_law.sndcnt_core


@pytest.mark.parametrize("kwargs, message", [
    (dict(beta=1.0), r"beta must be in \(0, 1\), got 1.0"),
    (dict(beta=0.0), r"beta must be in \(0, 1\), got 0.0"),
    (dict(c=0.0), r"c must be in \(0, inf\), got 0.0"),
    (dict(c=-0.4), r"c must be in \(0, inf\), got -0.4"),
    (dict(recovery="sack"), "recovery must be one of 'prr', 'prr-crb', 'prr-ns3', 'rfc6675', "
                            "'newreno'; "
                            "got 'sack'"),
    (dict(fast_convergence=1), "fast_convergence"),
    (dict(dupthresh=0), "dupthresh"),
])
def test_bad_cubic_options_name_the_argument(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Cubic(**kwargs)


def test_bad_sack_recovery_names_the_choices():
    with pytest.raises(ValueError, match="recovery must be one of 'rfc6675', 'prr', 'prr-crb', 'prr-ns3'; "
                                         "got 'PRR'"):
        Sack(recovery="PRR")


def _prr_ns3_prediction(ssthresh):
    """cwnd after the entering ACK and each of the 46 duplicate ACKs by ns-3.44's
    TcpPrrRecovery and EnterRecovery as read from its source (not from ctlcc): the head
    marked lost, RecoverFS = pipe = 80 - 30 - 3 SACKed - 1 lost = 46, every duplicate ACK
    delivers its SACKed segment + 1 while prr_delivered < RecoverFS, sendCount forced to
    >= 1 while nothing was sent, the reduction bound max(prr_delivered - prr_out,
    DeliveredData) (no safe ACK: no partial ACK in this recovery); consecutive repeats
    dropped."""
    recover_fs, pipe, prr_out, prr_delivered = 46, 46, 0, 0
    windows = []
    for m in range(0, 47):
        if m > 0:
            pipe -= 1  # the ACK SACKs one segment
        delivered = 1 + (1 if prr_delivered < recover_fs else 0)
        prr_delivered += delivered
        if pipe > ssthresh:
            count = math.ceil(prr_delivered * ssthresh / recover_fs) - prr_out
        else:
            count = min(max(prr_delivered - prr_out, delivered), ssthresh - pipe)
        if prr_out == 0:
            count = max(count, 1)
        count = max(count, 0)
        windows.append(float(pipe + count))
        pipe += count
        prr_out += count
    out = [windows[0]]
    for w in windows[1:]:
        if w != out[-1]:
            out.append(w)
    return out


@pytest.mark.parametrize("sender, ssthresh", [
    # Sack's reading of ns-3's PRR, ssthresh 50 / 2 = 25; entry: prr_delivered 2,
    # ceil(2 x 25 / 46) = 2 -> cwnd 46 + 2 (RFC 6937's PRR: 47)
    (Sack(recovery="prr-ns3"), 25.0),
    # Cubic(recovery="prr-ns3") runs the same machinery with CUBIC's ssthresh 0.7 x 50 =
    # 35; entry: ceil(2 x 35 / 46) = 2 -> 46 + 2
    (Cubic(recovery="prr-ns3"), 35.0),
], ids=["sack", "cubic"])
def test_prr_ns3_reading_follows_ns3s_sendcount_by_hand(sender, ssthresh):
    result = _run(sender, 3.0)
    flow = result.flows[0]
    assert flow.fast_retransmits == 1 and flow.timeouts == 0 and flow.retransmitted == 1
    entry, values = _recovery_windows(result, 50.0)
    predicted = _prr_ns3_prediction(int(ssthresh))
    assert predicted[0] == 48.0
    assert values[:len(predicted)] == predicted
    assert values[len(predicted)] == ssthresh  # recovery ends at cwnd = ssthresh


@pytest.mark.parametrize("slow_start, expected", [
    (None, [2.0, 3.0]),    # RFC 5681 3.1: cwnd += min(N, SMSS), one segment per new ACK
    ("ns3", [2.0, 4.0]),   # ns-3.44 TcpCubic::IncreaseWindow: cwnd += segmentsAcked
])
def test_cubic_slow_start_adds_per_ack_or_per_segment(slow_start, expected):
    from ctlcc.sim.testing import SenderHarness

    h = SenderHarness(Cubic(recovery="newreno", slow_start=slow_start))
    h.start(now=0.0)
    windows = []
    # segment 0 out; its ACK opens cwnd to 2: 1 and 2 out; one ACK covers both (a
    # cumulative ACK after a hole, or a lost ACK)
    for ack, now in ((1, 0.05), (3, 0.10)):
        h.ack(seq=ack, rtt=0.05, now=now)
        windows.append(h.state()["cwnd"])
    assert windows == expected


def test_bad_cubic_slow_start_names_the_choices():
    with pytest.raises(ValueError, match="slow_start must be one of 'rfc5681', 'ns3'; got 'abc'"):
        Cubic(slow_start="abc")


# --- option avoidance: ns-3.44's TcpCubic in congestion avoidance ----------------------------

def _avoidance_harness(sender, prior):
    """A flow put in congestion avoidance at cwnd 1 (ssthresh 1, cwnd_prior *prior*: 0 = no
    loss yet), then 25 ACKs of one segment each, 50 ms apart, RTT 50 ms: the windows."""
    from ctlcc.sim._core.layout import F_SSTHRESH
    from ctlcc.sim.testing import SenderHarness

    h = SenderHarness(sender)
    h.start(now=0.0)
    h.ff[0, F_SSTHRESH] = 1.0
    h.ff[0, cubic_module.F_CB_PRIOR] = prior
    windows = []
    for i in range(1, 26):
        h.ack(seq=i, rtt=0.05, now=0.05 * i)
        windows.append(h.state()["cwnd"])
    return windows


@pytest.mark.parametrize("prior, expected", [
    # ns-3.44 TcpCubic::Update by hand, friendliness off: the epoch starts at the first ACK
    # (K = 0, origin = 1 segment, W_max = 0 <= cwnd); t = time since it + min RTT (50 ms)
    # = 0.05 i <= 1.25 s, so delta = uint32(0.4 t^3) = 0 (0.4 x 1.25^3 = 0.78): target =
    # origin <= cwnd, cnt = 100 cwnd; before the first loss clamped to 20 (CntClamp): the
    # 20th ACK adds one segment, then 2 x 100 -> 20 more; after a loss, 100 ACKs
    (0.0, [1.0] * 19 + [2.0] * 6),
    (10.0, [1.0] * 25),
])
def test_ns3_count_grows_whole_segments_by_hand(prior, expected):
    sender = Cubic(recovery="newreno", friendly=False, avoidance="count")
    assert _avoidance_harness(sender, prior) == expected


def test_rfc_avoidance_grows_by_fractions_on_the_same_acks():
    # the RFC's reading on the same ACKs: (W_cubic(t + RTT) - cwnd)/cwnd per ACK, W_cubic(t)
    # = 1 + 0.4 t^3 (K = 0, W_max = 1): 1 + 0.4 x 0.05^3 / 1 = 1.00005 after the first ACK
    windows = _avoidance_harness(Cubic(recovery="newreno", friendly=False), 0.0)
    assert windows[0] == pytest.approx(1.00005, abs=1e-12)
    assert all(b > a for a, b in zip(windows, windows[1:]))


@pytest.mark.parametrize("avoidance, ssthresh, w_max", [
    (None, 0.7 * 10.6, 0.0),             # RFC 9438 §4.8: W_max forgotten after a timeout
    ("timeout-wmax", 0.7 * 10.6, 10.6),  # ns-3: m_lastMaxCwnd kept (set by GetSsThresh)
    ("ssthresh", 7.0, 0.0),              # ns-3: uint32(10 x 0.7) = 7 from segCwnd = 10
    ("ns3", 7.0, 10.0),                  # both: W_max = segCwnd = 10 (no earlier W_max)
])
def test_timeout_cut_by_reading(avoidance, ssthresh, w_max):
    from ctlcc.sim._core.layout import F_CWND, F_SSTHRESH
    from ctlcc.sim.testing import SenderHarness

    h = SenderHarness(Cubic(recovery="newreno", avoidance=avoidance))
    h.start(now=0.0)
    h.ff[0, F_CWND] = 10.6
    h.timer(now=1.5)  # the initial RTO (1 s) has expired with segment 0 unacknowledged
    assert h.state()["timeouts"] == 1 and h.state()["cwnd"] == 1.0
    assert h.ff[0, F_SSTHRESH] == pytest.approx(ssthresh, abs=1e-12)
    assert h.ff[0, cubic_module.F_CB_WMAX] == w_max


def test_ns3_avoidance_runs_in_whole_segments_after_the_loss():
    # the docstring's loss: cwnd 50, ssthresh = uint32(50 x 0.7) = 35 (the RFC's too); after
    # the recovery every change of cwnd is ns-3's one whole segment
    result = _run(Cubic(recovery="rfc6675", avoidance="ns3"), 9.0)
    flow = result.flows[0]
    assert flow.fast_retransmits == 1 and flow.timeouts == 0
    entry, values = _recovery_windows(result, 50.0)
    assert values[0] == 35.0
    grown = values[1:]
    assert len(grown) > 10 and all(b - a == 1.0 for a, b in zip(values, grown))


@pytest.mark.parametrize("avoidance", ["rfc9438", "ns3", "count", "min-rtt", "alpha",
                                       "ssthresh", "timeout-wmax", "count+min-rtt",
                                       "alpha+ssthresh+timeout-wmax"])
def test_avoidance_values_run(avoidance):
    result = _run(Cubic(avoidance=avoidance, limited_transmit=False), 3.0)
    assert result.flows[0].fast_retransmits == 1 and result.flows[0].delivered_unique > 100


def test_default_avoidance_is_the_rfcs():
    # None and "rfc9438" are the same sender: identical runs
    a = _run(Cubic(), 9.0).traces.window[:, 0]
    b = _run(Cubic(avoidance="rfc9438"), 9.0).traces.window[:, 0]
    assert np.array_equal(a, b)
    assert not np.array_equal(a, _run(Cubic(avoidance="ns3"), 9.0).traces.window[:, 0])


@pytest.mark.parametrize("value, message", [
    ("linux", "avoidance must be one of 'rfc9438', 'ns3', 'count', 'min-rtt', 'alpha', "
              "'ssthresh', 'timeout-wmax'; got 'linux'"),
    ("count+linux", r"avoidance must be one of .*, or distinct parts among 'count', 'min-rtt', "
                    r"'alpha', 'ssthresh', 'timeout-wmax' joined by '\+'; got 'count\+linux'"),
    ("count+count", r"got 'count\+count'"),
    ("ns3+count", r"got 'ns3\+count'"),
    (1, "avoidance must be one of 'rfc9438', .*; got 1"),
])
def test_bad_cubic_avoidance_names_the_choices(value, message):
    with pytest.raises(ValueError, match=message):
        Cubic(avoidance=value)


def test_avoidance_columns_are_counted():
    # the private columns this option added (F_CB_MINRTT; I_CB_NS3 and ns-3's three counters)
    from ctlcc.sim.senders import sack

    own_float = Cubic.float_columns - sack.FLOAT_COLUMNS
    own_int = Cubic.int_columns - sack.INT_COLUMNS
    assert (own_float, own_int) == (16, 7)
    assert cubic_module.F_CB_MINRTT == cubic_module._F0 + own_float - 1  # the last float one
    assert cubic_module.I_CB_TCPCWND == cubic_module._I0 + own_int - 1   # the last int one
