"""Thesis §3.5.1 (Figs. 3.8-3.13) and §3.5.3 (Figs. 3.22-3.23) on the packet engine."""

import numpy as np
import pytest

from ctlcc.experiments import thesis
from ctlcc.experiments.thesis.single_flow import _window_at_overflow

PUB = thesis.published()


def test_stpd_window_hovers_between_10_and_12_once_recovered_from_start_up(buffer_result):
    """Fig. 3.8(b): 'hover between the range of 10-12 packets' (BDP ~9 + 1 queued).

    Tolerance: one packet each side of the printed range (ns-2 keeps cwnd as a
    double and sends whole packets).  The default sender's PD fixed point is the
    window S RTT_min + ref = BDP + 1 = 9.77 packets on ctlcc's path (BDP 8.77).

    Finding (default sender): the claim holds from 10 s on but not over the thesis'
    5-30 s window.  Slow start from one packet overflows the 14-packet buffer in its
    first round trips (it doubles past BDP + B + 1 = 23.8 packets), loses a burst,
    times out once, and the PD law regrows the window to the BDP only by ~6 s: the
    5 % quantile after 5 s falls just under 9 packets.  after_timeout="round_target"
    does not change this run: the timeout comes before any round trip outside a
    repair has set a target, so slow start after it ends as the first one did.  With a 4-packet buffer the
    start-up losses are repaired without a timeout (Fig. 3.13's test).
    """
    r = buffer_result.runs[(14, "stpd")]
    row = PUB["fig3_8_stpd_window"]
    p5, p95 = np.percentile(r.window_after(10.0), [5, 95])
    assert row["low"] - 1 <= p5 and p95 <= row["high"] + 1
    # the PD fixed point BDP + ref, within the same one-packet tolerance
    assert np.median(r.window_after(10.0)) == pytest.approx(buffer_result.bdp + 1, abs=1.0)
    # the start-up finding: all buffer drops in the first round trips, one timeout
    assert r.overflow_times.max() < 1.0 and r.timeouts[0] == 1
    # ... after which the window is still below the BDP past the thesis' 5 s warm-up
    assert r.time[r.window[:, 0] < buffer_result.bdp].max() > buffer_result.warmup


@pytest.mark.parametrize("buffer", [14, 4])
def test_stpd_queue_around_one_whatever_the_buffer(buffer_result, buffer):
    """Figs. 3.9(b), 3.12(b): queue 'around one packet level', not affected by the buffer.

    Reading: mean in [0.5, 1.5] packets and 95 % of the 2 ms samples <= 3 packets.
    """
    q = buffer_result.runs[(buffer, "stpd")].queue_after(buffer_result.warmup)
    assert 0.5 <= q.mean() <= 1.5
    assert np.percentile(q, 95) <= 3


def test_reno_fills_the_buffer_and_overflows_at_n_plus_b(buffer_result):
    """Figs. 3.8(a), 3.9(a): Reno's queue swings from ~2 to the full 14 packets, and
    its window overflows R at N + B = 9 + 14 = 23 (§3.5.1.1).

    Independent value: ctlcc's path holds BDP = 1.5 Mb/s x 46.9 ms / 8000 bit = 8.8
    packets, +14 waiting +1 in service = 23.8; 2 packets of tolerance for the
    round trip between the overflow and its detection.
    """
    r = buffer_result.runs[(14, "reno")]
    q = r.queue_after(buffer_result.warmup)
    assert q.max() == 14
    assert q.min() <= 3
    rtt = 2 * (0.2e-3 + 20e-3) + 8000 / 10e6 + 8000 / 1.5e6 + 320 / 10e6 + 320 / 1.5e6
    bdp = 1.5e6 * rtt / 8000
    assert buffer_result.bdp == pytest.approx(bdp, rel=1e-9)
    assert _window_at_overflow(r, buffer_result.warmup) == pytest.approx(bdp + 15, abs=2)


def test_throughput_full_with_sufficient_and_reno_below_1_4_with_insufficient(buffer_result):
    """Figs. 3.10 and 3.13: both reach 1.5 Mb/s with 14 packets; Reno < 1.4 Mb/s with 4,
    ST-PD unchanged ('little difference').  1.5 Mb/s is the link rate: 3 % tolerance
    for the 0.5 s bins around the warm-up edge; 'little difference' read as < 1 %.

    Finding (default sender): 'little difference' holds after the 5 s warm-up, not over
    the whole 30 s run: with 14 packets slow start overshoots into a timeout (previous
    test) that the 4-packet run does not take, and the idle RTO and the PD law's slow
    regrowth cost the 14-packet run more than 1 % of the link over 30 s.
    """
    res = buffer_result
    for p in ("reno", "stpd"):
        assert res.runs[(14, p)].rate_between(0, res.warmup, res.duration) >= 0.97 * 1.5e6
    assert res.runs[(4, "reno")].rate_between(0, 0.0, res.duration) < 1.4e6
    big, small = res.runs[(14, "stpd")], res.runs[(4, "stpd")]
    a = big.rate_between(0, res.warmup, res.duration)
    b = small.rate_between(0, res.warmup, res.duration)
    assert abs(a - b) <= 0.01 * 1.5e6
    # whole run: the finding, and its cause (the one extra timeout)
    whole = big.rate_between(0, 0.0, res.duration) - small.rate_between(0, 0.0, res.duration)
    assert whole < -0.01 * 1.5e6
    assert big.timeouts[0] == small.timeouts[0] + 1


def test_telnet_base_rtt_matches_the_link_budget(telnet_result):
    """Fig. 3.22: 63 ms without queueing.  Our link budget, written out by hand:
    2 x (0.3 + 20 + 0.2) ms propagation, 1000 bytes on 10 Mb/s, 384 kb/s, 10 Mb/s and
    a 40-byte ACK back over the same links = 64.33 ms; the thesis' 63 ms leaves out
    about 1.3 ms of it (within 2 ms)."""
    budget = (2 * 20.5e-3 + 2 * 8000 / 10e6 + 8000 / 384e3 + 2 * 320 / 10e6 + 320 / 384e3)
    assert telnet_result.base_rtt == pytest.approx(budget, rel=1e-12)
    assert abs(budget * 1e3 - PUB["fig3_22_rtt_low"]["value"]) <= 2.0


def test_telnet_rtt_bounded_under_stpd_and_near_0_9_s_under_reno(telnet_result):
    """Figs. 3.22(b), 3.23(b): 63-127 ms under ST-PD; just under 0.9 s under Reno.

    Independent values: 3 packets queued = base + 3 x 20.83 ms = 126.8 ms; a full
    40-packet buffer = base + 40 x 20.83 ms = 897.7 ms (thesis: 894 ms).  ST-PD: 99 %
    of the Telnet samples within the bound (+2 ms); Reno: largest sample within one
    packet time (21 ms) of the full-buffer value."""
    t = telnet_result
    rtt = t.rtt["stpd"][:, 1]
    assert np.percentile(rtt, 99) <= t.base_rtt + 3 * t.packet_time + 2e-3
    full = t.base_rtt + 40 * t.packet_time
    assert full * 1e3 == pytest.approx(PUB["fig3_23_rtt_max"]["value"], abs=5)
    assert full - t.packet_time - 1e-9 <= t.rtt["reno"][:, 1].max() <= full + 1e-9


def test_claims_of_the_single_connection_experiments(buffer_result, telnet_result):
    claims = thesis.claims({"buffer_dimension": buffer_result, "telnet_delay": telnet_result})
    assert len(claims) == 19
    assert len({c.id for c in claims}) == len(claims)
    # Figs. 3.10 and 3.13 are judged over the same 5-30 s window: ST-PD's 'little difference'
    # between the buffers holds once the start-up (its one timeout) is left out, and Reno's
    # throughput stays below 1.4 Mb/s there
    by_id = {c.id.split("-", 2)[2]: c for c in claims}
    assert by_id["fig3_13_stpd_throughput"].verdict == "reproduced"
    assert "over 5-30 s" in by_id["fig3_13_reno_throughput"].reason
    # the only miss: ctlcc's empty-queue round trip of S2D2 is 64.3 ms against the printed
    # 63 ms (half a millisecond allowed): the ACK and transmission accounting of the path
    differ = {key for key, c in by_id.items() if c.verdict != "reproduced"}
    assert differ == {"fig3_22_rtt_low"}, differ
    low = by_id["fig3_22_rtt_low"]
    assert low.value == pytest.approx(64.3, abs=0.1) and low.tolerance == 0.5
    assert all(c.paper == "stpd" and c.location.startswith(("§3.5", "§3.4.3.1")) for c in claims)


def test_published_numbers_are_consistent():
    """The published rows that derive from each other agree (independent arithmetic)."""
    pub = thesis.published()
    # Fig. 4.16: 8000 packets of 8000 bit in (322.0880 - 18.1097) s = 0.2105 Mb/s -> 0.14
    span = pub["fig4_16_reno_end"]["value"] - pub["fig4_16_reno_start"]["value"]
    assert 8000 * 8000 / span / 1.5e6 == pytest.approx(pub["fig4_16_reno_throughput"]["value"],
                                                       abs=0.005)
    # Fig. 4.17 with the corrected start 12.7079 s: 1.45 Mb/s -> 0.96-0.97
    span = pub["fig4_17_stpd_end"]["value"] - pub["fig4_17_stpd_start"]["value"]
    assert 8000 * 8000 / span / 1e6 == pytest.approx(1.45, abs=0.005)
    # N + B rules of §3.5.1 and §4.4.1
    assert pub["fig3_8_reno_peak"]["value"] == 9 + 14
    assert pub["fig3_11_reno_overflow"]["value"] == 9 + 4
    assert all(r["source"].startswith("Xu (2002), §") for r in pub.values())
    # §4.4.2: a Reno window halved twice to 33 climbs back to the 94-packet BDP at one packet
    # per RTT (~0.5 s): (94 - 33) x 0.5 s > 30 s, and the packets it misses meanwhile,
    # sum_{w=33}^{93} (94 - w) = 61 x 62 / 2 = 1891, are the thesis' 1861 within 2 %
    cut = pub["fig4_19_reno_cut"]["value"]
    assert (94 - cut) * 0.5 > pub["fig4_19_reno_recovery"]["value"]
    assert sum(94 - w for w in range(int(cut), 94)) == 1891
    assert 1891 == pytest.approx(pub["fig4_22_stpd_minus_reno"]["value"], rel=0.02)


@pytest.mark.parametrize("call, match", [
    (lambda: thesis.published("nope"), "claim_id must be one of"),
    (lambda: thesis.buffer_dimension(duration=-1), "duration"),
    (lambda: thesis.buffer_dimension(warmup=40.0), "warmup must be in"),
    (lambda: thesis.uniform_loss(losses=(0.0,)), "losses"),
    (lambda: thesis.uniform_loss(losses=(1e-2,), trace_loss=0.1), "trace_loss must be one of"),
    (lambda: thesis.bursty_loss(channel="bits"), "channel must be"),
    (lambda: thesis.bursty_loss(first=10, last=5), "last must be > first"),
    (lambda: thesis.packet_burst_channel(0.5, 0.01, 100), "mean_burst must be >= 1"),
    (lambda: thesis.fig6_1(loss_link="R2D2"), "loss_link must be"),
    (lambda: thesis.mixed_reno(duration=10.0), "duration must be >"),
    (lambda: thesis.moving_bottleneck(duration=30.0), "duration must be >= 60"),
    (lambda: thesis.claims({"nope": None}), "unknown experiments"),
])
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()
