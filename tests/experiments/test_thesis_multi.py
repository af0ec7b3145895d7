"""Thesis §3.5.2 (Figs. 3.15-3.20) and §6 (Figs. 6.2-6.6): several connections.

Where ctlcc's default ST-PD sender does not reproduce the thesis the tests pin the
finding (with the mechanism the report diagnoses), so a change of sender shows up here;
a defect of the former sender is kept on ``Stpd.legacy()``.
"""

import numpy as np
import pytest

from ctlcc.errors import ParameterError
from ctlcc.experiments import thesis
from ctlcc.experiments.thesis.multi_flow import _fair_time
from ctlcc.sim import jain_index
from ctlcc.sim.senders import Stpd


def test_reno_keeps_the_fixed_bottleneck_full_and_vegas_one_flow_within_1_3(fixed_result):
    """Fig. 3.15(a): Reno 'constantly overflows' the 20-packet buffer; Fig. 3.16(a): one
    Vegas flow holds 1-3 packets (its alpha = 1, beta = 3 thresholds, Brakmo & Peterson)."""
    reno = fixed_result.runs["reno"]
    assert reno.queue[:, 0].max() == 20
    assert reno.queue_drops.sum() > 3 * 5   # overflows in each of the 5 phases
    vegas = fixed_result.runs["vegas"]
    sel = (vegas.time >= 4.0) & (vegas.time < 12.0)
    assert 1.0 - 1.0 <= vegas.queue[sel, 0].mean() <= 3.0


def test_stpd_fixed_bottleneck_fair_shares(fixed_result):
    """Fig. 3.17(b): every ST-PD connection reaches its fair share (reproduced by the
    default sender).

    Reading: Jain's index >= 0.95 in every shared phase (the shares of two or three
    flows within about 20 % of each other), rates from the in-order deliveries after
    2 s of settling.  Independent route for phase 12-24 s: the two rates computed here
    from the deliveries, not from the result's index.
    """
    r = fixed_result.runs["stpd"]
    shared = [k for k, (_, _, a) in enumerate(fixed_result.phases) if len(a) >= 2]
    assert fixed_result.jain["stpd"][shared].min() >= 0.95
    first, second = r.rate_between(0, 14, 24), r.rate_between(1, 14, 24)
    assert jain_index([first, second]) >= 0.95
    # both together carry the link (1.5 Mb/s) within 3 %
    assert first + second >= 0.97 * 1.5e6


def test_legacy_stpd_fixed_bottleneck_late_joiner_takes_more():
    """The former sender's defect on Fig. 3.17(b), kept on ``Stpd.legacy()``.

    Finding (report): each flow's RTT_min is the smallest RTT it has seen, so a flow
    that joins while ST-PD keeps ~1 packet queued starts with RTT_min inflated by that
    queue and under-estimates the backlog; and rounds shorter than an RTT measure
    S(n) at the bottleneck rate and cut small windows.  Independent bounds: the
    phase 12-24 s shares are measured from the in-order deliveries; Jain < 0.95 means
    the shares differ by more than about 20 %.  (The default sender, with slow start
    and a round that is a true round trip, reaches the fair share: test above.)
    """
    legacy = Stpd.legacy()
    r = thesis.fixed_bottleneck(protocols=(legacy,)).runs[legacy]
    first, second = r.rate_between(0, 14, 24), r.rate_between(1, 14, 24)
    assert first < 0.5 * second
    assert jain_index([first, second]) < 0.95
    # the late joiner's smallest RTT sample is above the first flow's by >= 1 packet time
    rtt = r.rtt
    t_pkt = 8000 / 1.5e6
    assert rtt[rtt[:, 1] == 1, 2].min() >= rtt[rtt[:, 1] == 0, 2].min() + t_pkt


def test_stpd_moving_bottleneck_queues_and_s3_full_speed(moving_result):
    """Fig. 3.19: queue near the designed level wherever the bottleneck is, and S3D3 at
    the full 384 kb/s of its access link (its own bottleneck) from 45 s.

    Bounds: mean queue <= 2 packets (ref 1 plus one for a second flow); S3D3 within
    5 % of 384 kb/s after 2 s of start-up."""
    r = moving_result.runs["stpd"]
    assert r.queue[(r.time >= 2) & (r.time < 45), 0].mean() <= 2.0
    assert r.queue[(r.time >= 47) & (r.time < 60), 1].mean() <= 2.0
    assert moving_result.s3_rate["stpd"] >= 0.95 * 384e3


def test_moving_bottleneck_shares(moving_result):
    """Figs. 3.19(b)/3.20(b): thesis says ST-PD halves R1R2 and Reno S1D1 gets 'a small
    fraction'.  The default ST-PD sender reproduces the halving (the claim's tolerance:
    S1D1's share within 0.05 of 1/2).  Finding kept: Reno S1D1 gets about half (its
    10 Mb/s access vs S2's 45 Mb/s does not lock it out in ctlcc's FIFO), not < 1/3.
    Bounds: shares from the in-order deliveries, 17-30 s."""
    assert moving_result.s1_share["stpd"] == pytest.approx(0.5, abs=0.05)
    assert 0.35 <= moving_result.s1_share["reno"] <= 0.65


def test_stpd_gets_the_lower_share_beside_reno(mixed_result):
    """Fig. 6.2(a): 'the ST-PD TCP connection gets a lower share' (reproduced)."""
    assert mixed_result.stpd_share < 0.5


def test_stpd_share_beside_reno_is_the_pd_fixed_point(mixed_result):
    """Why ST-PD's share beside Reno is so low (finding, independent route).

    ST-PD's law settles where its estimate (RTT - RTT_min) S = ref = 1 packet.  With a
    Reno flow holding q packets at the bottleneck, RTT = base + q / C, and ST-PD, which
    joins at 5 s into Reno's standing queue, takes base + q0 / C for RTT_min (q0: its
    smallest RTT sample minus its empty-path RTT, in packet times).  So S = C / (q - q0):
    ST-PD gets about 1 / (q - q0) of the link.  Tolerance: a factor 2, since q swings
    with Reno's sawtooth and the fixed point is one of the mean, not of the cycle.
    (Measured with the default sender: q = 13.8, q0 = 3.1, share 0.15 = 1.6 / (q - q0).)
    """
    r = mixed_result.pair
    sel = (r.time >= 5 + mixed_result.settle) & (r.time <= mixed_result.duration)
    q = r.queue[sel, 0].mean()
    q0 = r.rtt_min_excess(until=mixed_result.duration)[1] * 1.5e6 / r.packet_bits
    assert 0 <= q0 < q
    assert 0.5 / (q - q0) <= mixed_result.stpd_share <= 2.0 / (q - q0)


def test_mixed_lossy_finding(mixed_result):
    """Figs. 6.4/6.6: thesis +10 % / +14 % for ST-PD over Reno as S2D2 with 1 % loss.

    ctlcc's ST-PD delivers less than Reno there, with the former sender and with the
    default one (finding; for the former sender the report traced it to loss
    recoveries whose RTT samples and round rates read as a large queue, so each loss
    cut the window by several packets).  Bound: ratio < 1 on every seed."""
    assert np.all(mixed_result.shared_gain < 1.0)
    assert np.all(mixed_result.own_gain < 1.0)


def test_multi_claims_are_well_formed(fixed_result, moving_result, mixed_result):
    claims = thesis.claims({"fixed_bottleneck": fixed_result, "moving_bottleneck": moving_result,
                            "mixed_reno": mixed_result})
    ids = [c.id for c in claims]
    # fixed_bottleneck 7, moving_bottleneck 6 (with Fig. 3.20(a)'s buffer holder); mixed_reno:
    # Figs. 6.2-6.6 (4) and the §6 sentences on Reno beside ST-PD, on S2D2's error rate on the
    # shared lossy link and on Reno S1D1's buffer space under loss (3)
    assert len(ids) == len(set(ids)) == 7 + 6 + 4 + 3
    by_id = {c.id.split("-", 2)[2]: c for c in claims}
    assert by_id["fig6_2a_stpd_lower_share"].verdict == "reproduced"
    # 'ST-PD TCP is the only one that makes each connection reach its fair share swiftly',
    # judged once, by the time to within 20 % of C/n: ctlcc's ST-PD never settles there in one
    # shared phase (a flow joining a standing queue takes it as empty); Jain's index of the
    # phases, the former second criterion, is other evidence of the same record
    fair = by_id["fig3_17_stpd_fair"]
    assert fair.verdict == "differs" and fair.value == np.inf
    assert "Jain's index" in fair.other_evidence and "never" in fair.reason
    assert by_id["fig3_19_stpd_share"].verdict == "reproduced"
    assert by_id["fig6_4_gain_shared_loss"].seeds == (0, 1, 2)
    # Reno S1D1 beside ST-PD against beside Reno: independent route, the rates of the two
    # runs kept in the result (delivered packets over the same span)
    t0 = 5.0 + mixed_result.settle
    ratio = (mixed_result.pair.delivered_between(0, t0, mixed_result.duration)
             / mixed_result.baseline.delivered_between(0, t0, mixed_result.duration))
    assert by_id["reno_not_deteriorated"].value == pytest.approx(ratio)
    # S2D2's error rate: each seed's link-error losses over the packets put on R1R2 lie in
    # [0, 1], and the record's value is their mean plus two standard errors
    rates = mixed_result.s2_loss_rate
    assert rates.shape == (3,) and np.all((rates >= 0) & (rates <= 1))
    assert by_id["s2d2_loss_below_1e-2"].value == pytest.approx(
        rates.mean() + 2 * rates.std(ddof=1) / np.sqrt(3))


def test_per_flow_occupancy_records(moving_result, mixed_result):
    """Fig. 3.20(a) and §6's buffer-share records, from the per-flow occupancy trace.

    Independent routes: the per-flow counts summed over flows are the engine's total
    queue trace at every sample; the holder's share is recomputed from the in-order
    delivery counters; §6's ratio from each run's per-flow samples."""
    claims = {c.id: c for c in thesis.claims({"moving_bottleneck": moving_result,
                                              "mixed_reno": mixed_result})}
    r = moving_result.runs["reno"]
    np.testing.assert_array_equal(r.queue_by_flow.sum(axis=2), r.queue)
    inside = (r.time >= 17.0) & (r.time < 30.0)
    held = r.queue_by_flow[inside, 0, :2].mean(axis=0)
    h = int(np.argmax(held))
    got = [r.delivered_between(f, 17.0, 30.0) for f in (0, 1)]
    fig = claims["stpd-fig3.20-reno-fills-buffer-gets-more"]
    assert fig.value == pytest.approx(got[h] / sum(got))
    assert fig.verdict == ("reproduced" if got[h] / sum(got) >= 0.5 else "differs")
    # S3D3 never crosses R1: none of its packets wait there
    assert not r.queue_by_flow[:, 0, 2].any()
    pair = mixed_result.pair
    np.testing.assert_array_equal(pair.queue_by_flow.sum(axis=2), pair.queue)
    sel = (pair.time >= 7.0) & (pair.time < 20.0)
    lossless = pair.queue_by_flow[sel, 0, 0].mean()
    assert mixed_result.s1_waiting_lossless == pytest.approx(lossless)
    share = claims["stpd-s6-reno-losses-shrink-its-buffer-share"]
    assert share.seeds == (0, 1, 2)
    assert share.value == pytest.approx(np.mean(mixed_result.s1_waiting_lossy) / lossless)
    # a run made without the per-flow trace, or an empty window, is refused by name
    with pytest.raises(ParameterError, match="queue_by_flow=None"):
        mixed_result.trio.mean_waiting(0, 7.0, 20.0)
    with pytest.raises(ParameterError, match="t0=30.0, t1=40.0"):
        pair.mean_waiting(0, 30.0, 40.0)


def test_fig6_1_places_the_loss_where_asked():
    shared = thesis.fig6_1(loss=0.01)
    own = thesis.fig6_1(loss=0.01, loss_link="S2R1")
    lossy = lambda s: [(l.a, l.b) for l in s.links if l.loss is not None]  # noqa: E731
    assert lossy(shared) == [("A", "B")]
    assert lossy(own) == [("S1", "A")]          # S2 of the thesis is the second source
    assert own.flows[1].path[0] == "S1" and own.flows[1].name == "S2D2"
    assert [f.start for f in own.flows] == [0.0, 5.0]


def test_fair_time_on_constructed_deliveries():
    """_fair_time on a hand-made run: flow 1 delivers at 0.5 C for 3 s then both at C/2.

    Flow 0 sends at 0.9 C then 0.5 C from 3 s, flow 1 at 0.1 C then 0.5 C.  By hand:
    a 1 s average holding x s of the old rate is 0.5 C + 0.4 C x for flow 0, within
    20 % of C/2 (0.1 C) once x <= 0.25 s: from t = 3.75 s on.
    """
    t = np.arange(0.0, 10.0 + 1e-9, 0.01)
    pkt_rate = 1.5e6 / 8000
    d0 = np.where(t < 3, 0.9 * pkt_rate * t, 0.9 * pkt_rate * 3 + 0.5 * pkt_rate * (t - 3))
    d1 = np.where(t < 3, 0.1 * pkt_rate * t, 0.1 * pkt_rate * 3 + 0.5 * pkt_rate * (t - 3))
    z = np.zeros((t.size, 2))
    run = thesis.ThesisRun("x", 0, 10.0, ("a", "b"), t, z, z[:, :1], np.column_stack([d0, d1]),
                           t, z, np.zeros((0, 3)), np.zeros(2), np.zeros(2), np.zeros(2),
                           np.zeros(2), np.zeros(2), np.zeros(2), np.zeros(0), np.zeros(0),
                           8000.0)
    got = _fair_time(run, 0.0, 10.0, (0, 1), 1.5e6, 0.2, 1.0, step=0.01)
    assert got == pytest.approx(3.75, abs=0.02)


@pytest.mark.parametrize("preset", ["thesis_fig3_14", "thesis_fig4_18"])
def test_flow_counts_are_bounded_not_hanging(preset):
    """A count of 1e308 flows used to build a list until memory ran out: bounded by
    MAX_FLOWS like every other builder's count."""
    from ctlcc.errors import ParameterError
    from ctlcc.sim import scenarios

    with pytest.raises(ParameterError, match=r"^n must be an integer >= 1 and <= 10000, got 1"):
        getattr(scenarios, preset)(n=1e308)
    with pytest.raises(ParameterError, match=r"^n must be an integer >= 1 and <= 10000, got 10001"):
        getattr(scenarios, preset)(n=scenarios.MAX_FLOWS + 1)
