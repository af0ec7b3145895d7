"""The STTP sender (Wade, Kara & Dew (2000), §II-III) on hand-made feedback.

Expected values come from routes independent of the sender:

* the packet pair of §III-A on the paper's Fig. 2 network (64/32/64 kb/s,
  5/10/5 ms, 64-byte packets returned at the same size): the paper prints
  the returns at 104 ms and 120 ms and the bandwidth 4000 B/s;
* the RTTs of the first burst, derived by hand from the FIFO timing
  (every packet of the burst leaves the 32 kb/s link 16 ms after the one
  before, so ``RTT_k = 0.104 + 0.016 k`` s), and the scaling replayed with
  the printed formula ``x = 0.9 x + 0.1 x lastRTT/newRTT`` written out here;
* counts of a single-loss run (one fast retransmission, no timeout).
"""

import numpy as np
import pytest

from ctlcc.errors import ParameterError
from ctlcc.sim import run
from ctlcc.sim.scenarios import Flow, Link, PacketList, Scenario
from ctlcc.sim.senders import Sttp, resolve


def fig2(sender=None, loss=None, buffer=100):
    """§III-A, Fig. 2: A -64k 5ms- B -32k 10ms- C -64k 5ms- D, 64-byte packets both ways."""
    links = (Link("A", "B", 64e3, 5e-3, buffer), Link("B", "C", 32e3, 10e-3, buffer, loss),
             Link("C", "D", 64e3, 5e-3, buffer))
    flow = Flow(("A", "B", "C", "D"), sender=sender or Sttp())
    return Scenario("sttp_fig2", links, (flow,), (("B", "C"),), payload_bytes=64,
                    header_bytes=0, ack_bytes=64)


def test_packet_pair_of_fig2_returns_at_104_and_120_ms():
    """§III-A: 'They returned at 104ms and 120ms ... 4000bytes/second, or 32kb/s'."""
    result = run(fig2(), 0.121, trace=True)
    state = result.sender_state[0]
    t = result.traces.rtt[:, 0]
    # exact arithmetic of the timing model; 1e-12 s covers float sums
    np.testing.assert_allclose(t[:2], [0.104, 0.120], atol=1e-12)
    assert state["probe_rtt"] == pytest.approx(0.104, abs=1e-12)
    assert state["probe_rate"] * 64 == pytest.approx(4000.0, rel=1e-9)    # [B/s]
    # bucket of one second of the probed rate: 62.5 packets; 62 leave at once
    assert state["sigma0"] == pytest.approx(62.5, rel=1e-9)
    assert state["max_burst"] == 62 and state["burst_time"] == pytest.approx(0.120, abs=1e-12)
    assert state["started"]


def _replay(n_acks):
    """Hand replay of the first n_acks ACKs of the burst: (sigma, tokens, scalings, rtts)."""
    sigma, tokens, last = 62.5, 0.5, 0.104          # after the 62-packet burst at 0.120 s
    rtts = [0.104 + 0.016 * k for k in range(n_acks)]
    scalings = 0
    for new in rtts:
        if abs(new / last - 1.0) > 0.05:
            k = 0.9 + 0.1 * (last / new)            # §III-B.3 as printed
            sigma, tokens = sigma * k, tokens * k
            scalings += 1
        tokens += 1.0                                # the ACK's token ...
        tokens -= 1.0                                # ... spent on one new segment at once
        last = new
    return sigma, tokens, scalings, rtts


def test_first_burst_rtts_and_scaling_match_the_hand_replay():
    # last burst ACK: 0.120 + 0.104 + 0.016 * 61 = 1.200 s; the first segment sent
    # after the burst is ACKed 16 ms later (1.216 s): stop between the two
    result = run(fig2(), 1.208, trace=True)
    state, flow = result.sender_state[0], result.flows[0]
    sigma, tokens, scalings, rtts = _replay(62)
    measured = result.traces.rtt[2:, 2]               # after the two probe ACKs
    np.testing.assert_allclose(measured, rtts, atol=1e-12)
    assert scalings == 14                             # RTT_k/RTT_{k-1} > 1.05 for k <= 14
    assert state["scalings"] == scalings
    assert state["sigma"] == pytest.approx(sigma, rel=1e-12)
    assert state["rho"] == pytest.approx(sigma, rel=1e-12)   # sigma and rho start equal
    assert state["tokens"] == pytest.approx(tokens, rel=1e-12)
    assert flow.sent == 2 + 62 + 62 and flow.dropped == 0


def test_ratio_weights_matter_only_through_the_scaling():
    """5:5 scales harder than 9:1 on the same RTT sequence (same sends, other sigma)."""
    a = run(fig2(Sttp(alpha=0.5, beta=0.5)), 1.208).sender_state[0]
    b = run(fig2(Sttp()), 1.208).sender_state[0]
    expected = 62.5
    last = 0.104
    for k in range(62):
        new = 0.104 + 0.016 * k
        if abs(new / last - 1.0) > 0.05:
            expected *= 0.5 + 0.5 * last / new
        last = new
    assert a["sigma"] == pytest.approx(expected, rel=1e-12)
    assert a["sigma"] < b["sigma"]


def test_lost_probe_never_starts_unless_retried():
    """Table III's 80-byte STTP flows: the probe pair lost, nothing else sent."""
    lost = fig2(loss=PacketList((1,)))
    quiet = run(lost, 10.0)
    assert not quiet.sender_state[0]["started"]
    assert quiet.flows[0].sent == 2 and quiet.flows[0].timeouts == 0
    retried = run(fig2(Sttp(probe_retry=True), loss=PacketList((1,))), 10.0)
    assert retried.sender_state[0]["started"]
    assert retried.flows[0].timeouts >= 1 and retried.flows[0].delivered_unique > 100


def test_single_loss_is_repaired_by_one_fast_retransmission():
    """Reno's retransmission (§II): the 10th data packet across B-C is lost, the
    following ones raise duplicate ACKs, the third triggers a retransmission."""
    result = run(fig2(loss=PacketList((10,))), 3.0)
    flow = result.flows[0]
    assert flow.dropped == 1 and flow.fast_retransmits == 1 and flow.timeouts == 0
    assert flow.retransmitted == 1
    # no duplicate reached the receiver, and every segment but the lost one and those
    # still in flight arrived, in order
    assert flow.delivered_unique == flow.delivered == flow.sent - 1 - flow.in_flight


def test_timer_clock_paces_at_rho():
    """§V-B: one token every 1/rho; on the lossless Fig. 2 path the flow sends
    about rho packets per second once the probe is back."""
    result = run(fig2(Sttp(clock="timer")), 20.0)
    state, flow = result.sender_state[0], result.flows[0]
    assert state["started"] and flow.dropped == 0
    # the first bucket (62.5) plus the tokens of ~19.9 s at a rate that stays within
    # [min rho, 62.5]: the sent count is bounded on both sides by those two rates
    assert flow.sent <= 2 + 62.5 + 62.5 * 19.9
    assert flow.sent >= 2 + 62 + state["rho"] * 19.0 * 0.9


@pytest.mark.parametrize("kwargs, match", [
    (dict(alpha=0.5, beta=0.4), "alpha \\+ beta must equal 1, got alpha=0.5, beta=0.4"),
    (dict(alpha=1.5, beta=-0.5), "alpha"),
    (dict(threshold=-0.1), "threshold"),
    (dict(factor="log"), "factor must be one of 'ratio', 'relative'; got 'log'"),
    (dict(tokens="flight"), "tokens must be one of 'bucket', 'in_operation'; got 'flight'"),
    (dict(clock="wall"), "clock must be one of 'ack', 'timer'; got 'wall'"),
    (dict(probe_retry=1), "probe_retry must be True or False, got 1"),
])
def test_bad_parameters_name_the_argument(kwargs, match):
    with pytest.raises(ParameterError, match=match):
        Sttp(**kwargs)


def test_protocol_string_means_the_paper_defaults():
    spec = resolve("sttp")
    assert spec == Sttp() and (spec.alpha, spec.beta, spec.threshold) == (0.9, 0.1, 0.05)
    assert spec.label == "STTP 9:1" and Sttp(alpha=0.1, beta=0.9).label == "STTP 1:9"
