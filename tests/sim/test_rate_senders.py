"""The rate senders CBRAA, TCP-Friend (Ait-Hellal, Yamamoto & Leduc 1999) and TFRC (RFC 5348).

The compiled hooks are driven with hand-made receiver reports on the arrays
of a real run (the public harness :class:`ctlcc.sim.testing.SenderHarness`),
and their new rates compared with values typed out from the papers'
formulas here (not from ctlcc.laws):

* CBRAA's Loss_th from §2's ideal cycle, ``1/N`` with ``N = (3/8) Wmax
  (Wmax + 2)`` and ``W = Rate srtt = (7/9) Wmax`` (eq. (3)-(4) before
  rounding), eq. (2) ``C/(srtt sqrt(p))`` with ``C = (7/9) sqrt(8/3)``;
* TCP-Friend's ``+ T_RTCP/(2 srtt^2)`` and eq. (2) (§3.2, last paragraph);
* TFRC's §4.2/§4.3 step 4 and the throughput equation of §3.1 typed from
  the RFC, and a receiver fed losses at known sequence numbers whose
  loss-event rate is known without the §5.4 weights (equal intervals).
"""

import math

import numpy as np
import pytest

from ctlcc.errors import ParameterError
from ctlcc.sim import run, scenarios as S
from ctlcc.sim._core import layout as K
from ctlcc.sim.senders import Cbraa, TcpFriend, Tfrc, cbraa as cb_mod, resolve, tfrc as tf_mod
from ctlcc.sim.testing import SenderHarness

C = (7 / 9) * math.sqrt(8 / 3)          # eq. (2), §2


def _sim(spec, **kw):
    """A run's arrays before its first event, the flow marked active (timers armed)."""
    h = SenderHarness(scenario=S.dumbbell(1, protocol=spec, **kw))
    h.fi[0, K.I_ACTIVE] = 1
    return h, h


def _loss_th(rate, srtt):
    """§2/§3.1: one loss per ideal Reno cycle of N = (3/8) Wmax (Wmax + 2) packets."""
    wmax = rate * srtt * 9 / 7
    return 1 / (3 / 8 * wmax * (wmax + 2))


def _eq2(srtt, p):
    return C / (srtt * math.sqrt(p))


def _rfc_equation(R, p, b=1.0):
    """RFC 5348 §3.1 with s = 1 packet and t_RTO = 4 R."""
    return 1.0 / (R * math.sqrt(2 * b * p / 3) + 4 * R * 3 * math.sqrt(3 * b * p / 8) * p
                  * (1 + 32 * p * p))


# --- specs -------------------------------------------------------------------------------

@pytest.mark.parametrize("make, message", [
    (lambda: Cbraa(t_rtcp=0.0), r"t_rtcp must be in \(0, inf\), got 0.0"),
    (lambda: Cbraa(t_rtcp=-5), r"t_rtcp must be in \(0, inf\), got -5"),
    (lambda: Cbraa(a=0.4), r"a must be > b = 0.5, got 0.4"),
    (lambda: Cbraa(alpha=1.0), r"alpha must be in \[0, 1\), got 1.0"),
    (lambda: Cbraa(initial_rate=0), r"initial_rate must be in \(0, inf\), got 0"),
    (lambda: TcpFriend(t_rtcp=float("nan")), r"t_rtcp"),
    (lambda: TcpFriend(C=0.0), r"C must be in \(0, inf\), got 0.0"),
    (lambda: Tfrc(n=7), r"n must be an even integer >= 2, got 7"),
    (lambda: Tfrc(q=1.0), r"q must be in \[0, 1\), got 1.0"),
    (lambda: Tfrc(t_mbi=0), r"t_mbi must be in \(0, inf\), got 0"),
    (lambda: Tfrc(initial_rate=-1.0), r"initial_rate must be in \(0, inf\), got -1.0"),
])
def test_specs_refuse_bad_parameters(make, message):
    with pytest.raises(ParameterError, match=message):
        make()


def test_protocol_strings_give_the_papers_defaults():
    assert resolve("cbraa") == Cbraa() and Cbraa().t_rtcp == 5.0 and Cbraa().initial_rate == 5.0
    assert resolve("tcpfriend") == TcpFriend() and TcpFriend().C == pytest.approx(1.2701, abs=1e-4)
    assert resolve("tfrc") == Tfrc() and Tfrc().n == 8 and Tfrc().initial_rate == 1.0
    assert (Cbraa.code, TcpFriend.code, Tfrc.code) == (9, 10, 11)
    scenario = S.preset("cbraa_fig2", protocol="tfrc")
    assert {f.protocol for f in scenario.flows} == {"tfrc"}


# --- CBRAA and TCP-Friend on hand-made reports ---------------------------------------------

def _report(h, now, rtt, lost_total, expected_total, friend=False):
    """A receiver report reaches the sender (its counts in the ACK's two fields)."""
    assert (h.specs[0].name == "tcpfriend") == friend
    h.ack(seq=0, rtt=rtt, now=now, aux1=float(lost_total), aux2=float(expected_total))
    return h.ff[0, K.F_RATE]


def test_cbraa_first_report_without_loss_increases_by_figure_1():
    sim, ctx = _sim(Cbraa())
    ctx.ff[0, K.F_RATE] = 100.0
    rate = _report(ctx, 5.0, 0.1, 0, 500)          # first RTT sample: srtt = 0.1
    lth = _loss_th(100.0, 0.1)                      # 0.01396
    assert lth == pytest.approx(0.013960, abs=1e-6)
    expected = 0.5 * 100.0 + 0.5 * _eq2(0.1, 0.5 * lth)     # increase, beta = 0.5
    assert rate == pytest.approx(expected, rel=1e-12)        # 126.01
    assert ctx.fi[0, cb_mod.I_REPORTS] == 1


def test_cbraa_holds_inside_the_thresholds_and_decreases_above():
    sim, ctx = _sim(Cbraa())
    ctx.ff[0, K.F_RATE] = 100.0
    ctx.ff[0, K.F_SRTT] = 0.1
    ctx.fi[0, K.I_RTT_SAMPLED] = 1
    ctx.ff[0, K.F_RTTVAR] = 0.0
    lth = _loss_th(100.0, 0.1)
    # 1000 packets, loss ratio = Loss_th (inside [0.5, 1.5] Loss_th): hold
    lost = round(1000 * lth)                        # 14 of 1000 = 0.014
    assert 0.5 * lth < lost / 1000 < 1.5 * lth
    assert _report(ctx, 5.0, 0.1, lost, 1000) == 100.0
    # next report 5 s later (the cycle, 0.716 s, holds one report): 60 lost of 1000
    rate = _report(ctx, 10.0, 0.1, lost + 60, 2000)
    p = 0.5 * lth + 0.5 * 0.06
    assert rate == pytest.approx(0.5 * 100 + 0.5 * _eq2(0.1, p), rel=1e-12)
    assert rate < 100.0


def test_cbraa_sliding_window_sums_the_reports_of_one_cycle():
    """Two reports 0.2 s apart inside one cycle: Loss_obs = (0 + 30)/(1000 + 1000)."""
    sim, ctx = _sim(Cbraa())
    ctx.ff[0, K.F_RATE] = 100.0
    ctx.ff[0, K.F_SRTT] = 0.1
    ctx.fi[0, K.I_RTT_SAMPLED] = 1
    _report(ctx, 5.0, 0.1, 0, 1000)
    rate1 = ctx.ff[0, K.F_RATE]
    cycle = 1 / (rate1 * _loss_th(rate1, 0.1))
    assert cycle > 0.2
    _report(ctx, 5.2, 0.1, 30, 2000)
    assert ctx.ff[0, cb_mod.F_LOSS_OBS] == pytest.approx(30 / 2000, rel=1e-12)


def test_lost_report_is_absorbed_by_the_cumulative_counts():
    """RTCP's counts are cumulative: a lost report's packets count in the next one."""
    sim, ctx = _sim(TcpFriend())
    ctx.ff[0, K.F_RATE] = 50.0
    _report(ctx, 5.0, 0.1, 0, 250, friend=True)     # loss 0: + 5/(2 0.01) = +250
    assert ctx.ff[0, K.F_RATE] == pytest.approx(300.0, rel=1e-12)
    # the report at 10 s is lost; at 15 s: 20 lost of 2000 since 5 s
    rate = _report(ctx, 15.0, 0.1, 20, 2250, friend=True)
    assert ctx.ff[0, cb_mod.F_LOSS_OBS] == pytest.approx(0.01)
    srtt = 0.1                                       # equal samples keep srtt
    assert rate == pytest.approx(_eq2(srtt, 0.01), rel=1e-12)     # 127.01


def test_rate_never_below_one_packet_per_srtt():
    """§4: minimum rate 1/srtt.  At W = Rate srtt = 0.25 packet, Loss_th > 1 and even
    a report with every packet lost takes the increase branch of Figure 1, whose
    smoothed rate 1.09 packets/s is below 1/srtt = 2 packets/s."""
    sim, ctx = _sim(Cbraa())
    ctx.ff[0, K.F_RATE] = 0.5
    lth = _loss_th(0.5, 0.5)
    assert lth > 1 and 1.0 < 0.5 * lth                         # increase branch
    unfloored = 0.5 * 0.5 + 0.5 * _eq2(0.5, 0.5 * lth + 0.5 * 1.0)
    assert unfloored == pytest.approx(1.09, abs=0.01)
    assert _report(ctx, 5.0, 0.5, 10, 10) == pytest.approx(2.0)
    # TCP-Friend's eq. (2) with C = 1.27 > 1 stays above 1/srtt at any loss <= 1
    assert _eq2(0.5, 1.0) > 1 / 0.5


def test_receiver_reports_every_t_rtcp_with_cumulative_counts():
    """A lossless CBR-like start: reports at 5, 10, 15 s carry lost = 0 and the packets seen."""
    scenario = S.dumbbell(1, protocol=TcpFriend(initial_rate=10.0))
    result = run(scenario, 16.0, trace=True)
    rtt = result.traces.rtt
    # first data packet arrives after one one-way delay; reports are due every 5 s after it
    assert len(rtt) == 3
    assert np.all(np.diff(rtt[:, 0]) == pytest.approx(5.0, abs=0.11))


# --- TFRC ---------------------------------------------------------------------------------

def test_tfrc_feedback_sequence_follows_section_4():
    sim, ctx = _sim(Tfrc())
    f = 0
    assert ctx.ff[f, K.F_RATE] == 1.0 and ctx.ff[f, tf_mod.F_TLD] == -1.0
    # 1st feedback at 0.5 s, R = 0.1: §4.2 X = W_init/R = 4/0.1, tld = now
    ctx.ack(seq=0, rtt=0.1, now=0.5, aux1=0.0, aux2=0.0)
    assert ctx.ff[f, K.F_RATE] == pytest.approx(40.0) and ctx.ff[f, tf_mod.F_TLD] == 0.5
    # nofeedback timer: max(4 R, 2 s/X) with X = 1 packet/s before the update = 2 s
    assert ctx.ff[f, K.F_RTO_DEADLINE] == pytest.approx(0.5 + 2.0)
    # 2nd at 0.7 s, R sample 0.1, X_recv 30, p = 0: slow start, min(2 X, 2 X_recv) = 60
    ctx.ack(seq=0, rtt=0.1, now=0.7, aux1=30.0, aux2=0.0)
    assert ctx.ff[f, K.F_RATE] == pytest.approx(60.0) and ctx.ff[f, tf_mod.F_TLD] == 0.7
    assert ctx.ff[f, K.F_RTO_DEADLINE] == pytest.approx(0.7 + 0.4)   # 4 R > 2/40
    # 3rd at 0.75 s: less than R since tld: unchanged
    ctx.ack(seq=0, rtt=0.1, now=0.75, aux1=50.0, aux2=0.0)
    assert ctx.ff[f, K.F_RATE] == pytest.approx(60.0)
    # 4th at 0.9 s, sample 0.2: R = 0.9 0.1 + 0.1 0.2 = 0.11; p = 0.01; the X_recv set
    # keeps the entries of the last 2 R = 0.22 s: {30 (0.7 s), 50, 55}
    ctx.ack(seq=0, rtt=0.2, now=0.9, aux1=55.0, aux2=0.01)
    R = 0.11
    assert ctx.ff[f, tf_mod.F_R] == pytest.approx(R)
    x_bps = _rfc_equation(R, 0.01)                   # 102.1; the set {30, 50, 55}: cap 110
    assert ctx.ff[f, K.F_RATE] == pytest.approx(min(x_bps, 2 * 55.0), rel=1e-12)


def test_tfrc_nofeedback_halves_the_rate():
    sim, ctx = _sim(Tfrc())
    ctx.timer(now=2.0)                       # no feedback yet: max(X/2, 1/64)
    assert ctx.ff[0, K.F_RATE] == 0.5
    assert ctx.ff[0, K.F_RTO_DEADLINE] == pytest.approx(4.0)     # 2 s again
    ctx.ff[0, K.F_RATE] = 0.02
    ctx.timer(now=4.0)
    assert ctx.ff[0, K.F_RATE] == pytest.approx(1 / 64)          # floor s/t_mbi


def _tfrc_with_losses(losses, duration=30.0):
    """One TFRC flow on a lossless 2 Mb/s dumbbell, data packets *losses* (1-based) lost."""
    scenario = S.dumbbell(1, buffer=400, protocol="tfrc", loss=S.PacketList(tuple(losses)))
    sim = SenderHarness(scenario=scenario, duration=duration)
    sim.run(duration)
    return sim


def test_tfrc_receiver_equal_loss_intervals_give_their_inverse():
    """Losses every 100th packet from packet 301 on, each its own loss event (100 packets
    apart is far more than one RTT at <= 250 packets/s): after 9 events the eight closed
    intervals are all 100 and p = 1/100 whatever the weights (the open interval, < 100,
    does not raise the average)."""
    losses = [301 + 100 * k for k in range(400)]           # beyond the run's packets
    sim = _tfrc_with_losses(losses, duration=30.0)
    f = 0
    k = sim.fi[f, tf_mod.I_RX_K]
    assert k == 8
    assert np.all(sim.tab[f, tf_mod.ROW_INTERVALS, 1:9] == 100.0)
    delivered = sim.fi[f, K.I_RCV_NXT]
    last_loss = max(x for x in losses if x <= delivered)
    assert sim.tab[f, tf_mod.ROW_INTERVALS, 0] == delivered - (last_loss - 1)
    assert sim.ff[f, tf_mod.F_RX_P] == pytest.approx(0.01, rel=1e-12)
    assert sim.ff[f, tf_mod.F_P] == pytest.approx(0.01, rel=1e-12)   # reported to the sender


def test_tfrc_first_interval_is_synthesised_from_the_receive_rate():
    """§6.3.1: after the first loss, I_1 is the interval whose equation rate is the
    largest X_recv reported so far (read just before the loss is detected) at the R
    the data packet carried."""
    scenario = S.dumbbell(1, buffer=400, protocol="tfrc", loss=S.PacketList((400,)))
    sim = SenderHarness(scenario=scenario, duration=10.0)
    f, t, step = 0, 0.0, 1e-3
    x_before = None
    while sim.fi[f, tf_mod.I_RX_K] == 0 and t < 10.0:
        x_before = sim.ff[f, tf_mod.F_RX_XMAX]
        if sim.ci[:, K.K_LOSSES].sum() > 0:
            step = 1e-6              # the loss happened: one data arrival per step from here
        t += step
        sim.run(t)
    assert sim.fi[f, tf_mod.I_RX_K] == 1 and sim.fi[f, tf_mod.I_RX_EVENT_SEQ] == 399
    interval = sim.tab[f, tf_mod.ROW_INTERVALS, 1]
    R = sim.ff[f, tf_mod.F_RX_R]
    assert x_before > 0.5 / R                       # above the 0.5 packet per RTT floor
    # the equation at p = 1/I_1 gives back X_target (bisection: to rounding)
    assert _rfc_equation(R, 1 / interval) == pytest.approx(x_before, rel=1e-9)


def test_tfrc_rate_follows_the_equation_under_periodic_loss():
    """Loss events every 100 packets: in steady state X = X_Bps(R, p = 0.01), or 2 X_recv."""
    sim = _tfrc_with_losses([301 + 100 * k for k in range(400)], duration=30.0)
    R = sim.ff[0, tf_mod.F_R]
    x = sim.ff[0, K.F_RATE]
    assert x == pytest.approx(_rfc_equation(R, 0.01), rel=1e-9)
