"""AQM (RED, PI) and ECN at the packet engine's bottleneck queue (issue 22 §3).

Expected values come from the definitions, not from the engine: RED with
weight 1 and no randomness forces every arrival that finds ``max_th``
packets waiting; RFC 3168's receiver echoes CE until CWR and its sender
halves once per window without retransmitting; a PI controller's integral
action drives the sampled queue's mean error to zero.
"""

import warnings

import numpy as np
import pytest

from ctlcc.errors import ParameterError
from ctlcc.laws.aqm import PiParams, RedParams, UnstablePiWarning
from ctlcc.sim import run
from ctlcc.sim._core import layout as K
from ctlcc.sim.scenarios import Link, TcpOptions, dumbbell, single_bottleneck
from ctlcc.sim.senders import Cbr
from ctlcc.sim.testing import SenderHarness


# --- bad input -----------------------------------------------------------------------

def test_unknown_queue_kind_names_argument_and_choices():
    with pytest.raises(ParameterError, match=r"queue must be 'droptail'.*got 'codel'"):
        Link("R", "D", 1e6, 0.01, 50, queue="codel")
    with pytest.raises(ParameterError, match="queue must be"):
        Link("R", "D", 1e6, 0.01, 50, queue=0.1)


@pytest.mark.parametrize("low, high", [(20, 20), (30, 10)])
def test_red_min_threshold_must_be_below_max(low, high):
    with pytest.raises(ParameterError, match=r"min_threshold must be < max_threshold"):
        RedParams(low, high, 0.1)


@pytest.mark.parametrize("pmax", [0.0, -0.1, 1.5])
def test_red_max_probability_outside_unit_interval(pmax):
    with pytest.raises(ParameterError, match=r"max_probability must be in \(0, 1\]"):
        RedParams(5, 15, pmax)


def test_aqm_that_cannot_act_before_the_buffer_fills():
    with pytest.raises(ParameterError, match=r"min_threshold must be < the link's buffer = 20"):
        Link("R", "D", 1e6, 0.01, 20, queue=RedParams(20, 40, 0.1))
    with pytest.raises(ParameterError, match=r"reference must be < the link's buffer = 20"):
        Link("R", "D", 1e6, 0.01, 20, queue=PiParams(1e-4, 9e-5, 30.0, 100.0))


def test_aqm_on_a_direction_with_no_managed_queue():
    s = single_bottleneck(buffer=50)
    with pytest.raises(ParameterError, match=r"at must be the data direction.*reverse \(ACK\)"):
        s.with_queue(RedParams(5, 15, 0.1), at=("D", "R"))
    with pytest.raises(ParameterError, match=r"which no link joins"):
        s.with_queue(RedParams(5, 15, 0.1), at=("S", "D"))


@pytest.mark.parametrize("a, b", [(-1e-5, -2e-5), (1e-5, 2e-5), (1e-5, 1e-5)])
def test_pi_gains_that_cannot_regulate_are_warned_not_refused(a, b):
    with pytest.warns(UnstablePiWarning, match=r"a > b > 0 regulates"):
        params = PiParams(a, b, 50.0, 100.0)
    link = Link("R", "D", 1e6, 0.01, 100, queue=params)   # allowed
    assert link.queue is params


def test_pi_design_gains_do_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        PiParams(1.822e-5, 1.816e-5, 175.0, 160.0)


def test_tcp_ecn_option_is_a_bool():
    with pytest.raises(ParameterError, match="ecn"):
        TcpOptions(ecn="yes")


@pytest.mark.parametrize("value, shown", [(-1, "-1.0"), (float("inf"), "inf"),
                                           (float("nan"), "nan"), ("one", "'one'")])
def test_red_min_queue_must_be_a_nonnegative_number_or_none(value, shown):
    with pytest.raises(ParameterError, match=r"min_queue must be in \[0, inf\) or None "
                                             r"\(no such rule\), got " + shown):
        RedParams(5, 15, 0.1, min_queue=value)


# --- drop-tail default ---------------------------------------------------------------

def test_droptail_is_the_default_and_explicit_droptail_is_the_same_run():
    s = dumbbell(3, buffer=20, stop=10.0)
    assert all(link.queue == "droptail" and not link.aqm for link in s.links)
    a = run(s, 10.0, seed=3)
    b = run(s.with_queue("droptail"), 10.0, seed=3)
    assert a.flows == b.flows and a.queues == b.queues
    assert a.queues[0].aqm_drops == 0 and a.queues[0].marks == 0


# --- RED on packets ------------------------------------------------------------------

def test_red_weight_one_forces_drops_at_max_threshold():
    """w_q = 1: avg = the waiting queue on arrival; avg >= max_th is a forced drop,
    so a CBR overload never sees more than max_th packets waiting, and every
    drop is the AQM's (the buffer of 100 is never reached)."""
    red = RedParams(4.0, 10.0, 1e-9, weight=1.0)
    s = single_bottleneck(bottleneck_rate=1e6, buffer=100, queue=red,
                          protocol=Cbr(rate=2 * 1e6 / ((1000 + 54) * 8)))
    r = run(s, 5.0, seed=0)
    q = r.queues[0]
    assert q.max <= 10
    assert q.drops == q.aqm_drops > 0
    # twice the capacity offered, about half of the arrivals are refused
    assert 0.4 < q.drops / q.arrivals < 0.6


@pytest.mark.parametrize("min_queue, most_waiting", [
    ("default", 2), (1.0, 2), (None, 1), (0.0, 1), (3.0, 4)])
def test_red_min_queue_bounds_the_waiting_queue(min_queue, most_waiting):
    """min_th = 0, max_th = 0.5, w_q = 1: avg = the waiting queue on arrival, so every
    arrival finding q >= 1 waiting is above max_th and forced out - unless the
    "no drop while at most min_queue wait" rule spares it (ns-3: min_queue = 1).  An
    arrival is then admitted iff q = 0 or q <= min_queue, and after admission at most
    (largest admitted q) + 1 wait: 2 with ns-3's rule, 1 without it (or with 0), 4
    with 3.  A CBR flow at twice the capacity keeps the queue full enough to reach it."""
    options = {} if min_queue == "default" else dict(min_queue=min_queue)
    red = RedParams(0.0, 0.5, 1e-9, weight=1.0, **options)
    s = single_bottleneck(bottleneck_rate=1e6, buffer=100, queue=red,
                          protocol=Cbr(rate=2 * 1e6 / ((1000 + 54) * 8)))
    q = run(s, 5.0, seed=0).queues[0]
    assert q.max == most_waiting
    assert q.drops == q.aqm_drops > 0     # the buffer of 100 is never reached


def test_red_drops_and_counts_are_consistent_with_the_trace():
    s = dumbbell(4, bottleneck_rate=2e6, buffer=100, protocol="newreno",
                 queue=RedParams(10, 40, 0.1))
    r = run(s, 20.0, seed=2, trace=True)
    q = r.queues[0]
    kinds = r.traces.drops[:, 3]
    assert q.aqm_drops == np.count_nonzero(kinds == 4) + np.count_nonzero(kinds == 5)
    assert q.aqm_drops > 0 and q.marks == 0
    channel = r.traces.drops[kinds == 4][0, 2]
    at_bottleneck = r.traces.drops[:, 2] == channel
    assert q.drops == np.count_nonzero(at_bottleneck & np.isin(kinds, (0, 1, 4, 5)))
    # RED holds the mean queue between its thresholds' neighbourhood, far below the buffer
    assert q.mean < 40


def test_red_run_is_reproducible_and_seeded():
    s = dumbbell(4, bottleneck_rate=2e6, buffer=100, queue=RedParams(10, 40, 0.1))
    a, b, c = run(s, 10.0, seed=5), run(s, 10.0, seed=5), run(s, 10.0, seed=6)
    assert a.flows == b.flows
    assert a.flows != c.flows


# --- ECN -----------------------------------------------------------------------------

def test_receiver_echoes_ce_until_cwr():
    """RFC 3168 §6.1.3: ECE on every ACK from a CE segment until a CWR segment."""
    h = SenderHarness("newreno", scenario=single_bottleneck(tcp=TcpOptions(ecn=True)))
    h.data(seq=0, now=0.01, ecn=K.ECN_ECT)
    h.data(seq=1, now=0.02, ecn=K.ECN_ECT | K.ECN_CE)
    h.data(seq=2, now=0.03, ecn=K.ECN_ECT)
    h.data(seq=3, now=0.04, ecn=K.ECN_ECT | K.ECN_CWR)
    h.data(seq=4, now=0.05, ecn=K.ECN_ECT)
    assert [a["ecn"] for a in h.acks()] == [0, K.ECN_ECE, K.ECN_ECE, 0, 0]


def _window_sender_with_ecn(name):
    h = SenderHarness(name, scenario=single_bottleneck(
        protocol=name, tcp=TcpOptions(ecn=True, initial_window=20)))
    h.start(now=0.0)
    segments = h.sent()
    assert all(s["ecn"] == K.ECN_ECT for s in segments)   # ECT data
    return h


@pytest.mark.parametrize("name", ["reno", "newreno", "tahoe", "sack"])
def test_window_sender_halves_once_per_window_without_retransmitting(name):
    h = _window_sender_with_ecn(name)
    h.ff[0, K.F_SSTHRESH] = 10.0          # congestion avoidance
    h.ack(seq=1, rtt=0.1, now=0.1)
    h.sent()
    flight_after = h.state()["snd_max"] - 2
    h.ack(seq=2, rtt=0.1, now=0.11, ecn=K.ECN_ECE)
    state = h.state()
    expected = max(flight_after / 2.0, 2.0)
    assert state["ssthresh"] == pytest.approx(expected)
    assert state["cwnd"] == pytest.approx(expected)
    assert state["retransmitted"] == 0 and state["in_recovery"] == 0
    cut_at = state["snd_max"]
    # more echoes inside the same window: no second cut, no growth
    for k, seq in enumerate(range(3, 8)):
        h.ack(seq=seq, rtt=0.1, now=0.12 + 0.001 * k, ecn=K.ECN_ECE)
    assert h.state()["cwnd"] == pytest.approx(expected)
    assert h.fi[0, K.I_ECN_CUTS] == 1
    # an ACK past the cut's snd_max ends the reduction; the first new segment sent
    # after the cut carries CWR, once
    sent = h.sent()
    for k, seq in enumerate(range(8, cut_at + 2)):
        h.ack(seq=seq, rtt=0.1, now=0.2 + 0.001 * k)
        sent += h.sent()
    assert sent and all(s["retx"] == 0 for s in sent)
    assert [s["ecn"] for s in sent][:2] == [K.ECN_ECT | K.ECN_CWR, K.ECN_ECT]
    assert h.state()["cwnd"] > expected                  # growing again
    h.ack(seq=cut_at + 2, rtt=0.1, now=0.5, ecn=K.ECN_ECE)
    assert h.fi[0, K.I_ECN_CUTS] == 2


@pytest.mark.parametrize("name", ["vegas", "stpd", "primo"])
def test_senders_that_ignore_marks_send_non_ect(name):
    h = SenderHarness(name, scenario=single_bottleneck(protocol=name,
                                                        tcp=TcpOptions(ecn=True)))
    h.start(now=0.0)
    assert all(s["ecn"] == 0 for s in h.sent())


def test_ecn_marks_instead_of_dropping_ect_flows_and_drops_the_others():
    red = RedParams(5, 30, 0.1, ecn=True)
    s = dumbbell(4, bottleneck_rate=2e6, buffer=100, queue=red,
                 protocol=["newreno", "newreno", "vegas", "vegas"], tcp=TcpOptions(ecn=True),
                 bottleneck_delay=0.02)
    r = run(s, 30.0, seed=1, trace=True)
    q = r.queues[0]
    reno, vegas = r.flows[:2], r.flows[2:]
    assert q.marks > 0 and q.marks == sum(f.marked for f in r.flows)
    assert all(f.marked > 0 and f.ecn_reductions > 0 for f in reno)
    assert all(f.marked == 0 and f.ecn_reductions == 0 for f in vegas)
    assert np.count_nonzero(r.traces.drops[:, 3] == 6) == q.marks
    # early verdicts on ECT data after slow start are marks: the NewReno flows' later
    # drops are only forced ones (avg above max_th), far fewer than their marks
    assert sum(f.dropped_queue for f in reno) < sum(f.marked for f in reno)


def test_ecn_off_on_the_queue_drops_ect_packets():
    s = dumbbell(4, bottleneck_rate=2e6, buffer=100, queue=RedParams(10, 40, 0.1),
                 protocol="newreno", tcp=TcpOptions(ecn=True))
    r = run(s, 20.0, seed=1)
    assert r.queues[0].marks == 0 and r.queues[0].aqm_drops > 0


# --- PI on packets -------------------------------------------------------------------

def test_pi_holds_the_mean_queue_at_its_reference():
    """Integral action: while 0 < p < 1 the sampled error q - q_ref averages to 0.

    Hollot et al.'s design example (N = 60, C = 3750 packets/s, Tp = 0.2 s),
    reference 175 packets, ns-2's a, b; the mean over 20-60 s (transient left
    out) within 10 % of the reference.
    """
    pi = PiParams(1.822e-5, 1.816e-5, 175.0, 160.0)
    s = dumbbell(60, bottleneck_rate=3750 * 1054 * 8, bottleneck_delay=0.096,
                 access_delay=1e-3, buffer=800, protocol="newreno", queue=pi)
    r = run(s, 60.0, seed=1, sample_interval=0.1)
    t, q = r.samples.time, r.samples.queue[:, 0]
    late = q[t >= 20.0]
    assert abs(late.mean() - 175.0) < 17.5
    assert r.queues[0].aqm_drops > 0 and r.queues[0].utilisation > 0.9
