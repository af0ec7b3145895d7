"""Thesis §4.4 (Figs. 4.8-4.22): wireless and satellite losses on the packet engine."""

import math

import numpy as np
import pytest

from ctlcc.experiments import thesis
from ctlcc.sim import scenarios

PUB = thesis.published()
#: Fig. 4.7 path: base RTT of a 1000-byte packet and a 40-byte ACK. [s]
RTT_MIN = 2 * (0.1e-3 + 80e-3) + 8000 / 10e6 + 8000 / 1.5e6 + 320 / 10e6 + 320 / 1.5e6


def _check_fig4_8(res, tol):
    # Reno and Tahoe 'around 30 percent' at 1e-2: tolerance = read-off 0.05 + seed spread
    for p in ("reno", "tahoe"):
        assert res.at(p, 1e-2).mean() == pytest.approx(0.30, abs=tol)
    # Vegas 'below 50 percent' at 1e-2; Tahoe, Reno, Vegas 'well below 10 percent' at 0.1
    assert res.at("vegas", 1e-2).mean() < 0.5
    for p in ("tahoe", "reno", "vegas"):
        assert res.at(p, 1e-1).mean() < 0.1
    # independent route: Mathis et al.'s 1.22/sqrt(p) x MSS/RTT bounds Reno from above
    mathis = 1.22 / math.sqrt(1e-2) * 8000 / RTT_MIN / 1.5e6
    assert res.at("reno", 1e-2).mean() <= mathis
    # finding: ctlcc's default ST-PD stays below the thesis' 0.94 by more than this
    # test's tolerance (0.66 +- 0.19 over 3 seeds x 100 s in
    # data/thesis_stpd_readings.csv, 0.53 before after_timeout="round_target"; the
    # seed spread is whether slow start ends on an early random loss, after which the
    # PD law grows by ~kp per round trip; no reading exceeds 0.90, see the Stpd
    # docstring) ...
    assert res.at("stpd", 1e-2).mean() < 0.94 - tol
    # ... but above Reno and Tahoe ('much higher than ... existing TCP', §4.4.1.1)
    assert res.at("stpd", 1e-2).mean() > max(res.at(p, 1e-2).mean() for p in ("reno", "tahoe"))


def test_fig4_8_short(loss_result):
    """Fig. 4.8 at the two losses the thesis quotes, 2 seeds x 60 s.  Tolerance 0.08:
    0.05 read-off of a lost figure + 0.03 for the seed spread of 60 s runs (sd 0.01-0.02
    measured over 3 seeds x 100 s)."""
    _check_fig4_8(loss_result, 0.08)


@pytest.mark.slow
def test_fig4_8_full():
    """The same on 5 seeds x 300 s (tolerance 0.06: read-off 0.05 + spread)."""
    res = thesis.uniform_loss(losses=(1e-2, 1e-1), seeds=tuple(range(5)), duration=300.0)
    _check_fig4_8(res, 0.06)


def test_fig4_9_tahoe_window(loss_result):
    """Fig. 4.9: Tahoe's window 'well below 20 packets most of the time', peak 37.
    Reading: median < 20; the peak of one run within 8 packets of 37 (run length and
    seed unknown; ctlcc's 60 s run here)."""
    win = loss_result.traces["tahoe"].window[:, 0]
    assert np.median(win) < 20
    assert abs(win.max() - 37) <= 12   # shorter run than the report's: wider by 4


def test_packet_burst_channel_statistics():
    """Independent route: enumerate the runs of consecutive lost indices."""
    ch = thesis.packet_burst_channel(8, 0.01, 3_000_000, seed=3)
    lost = np.array(ch.indices)
    assert len(lost) / 3_000_000 == pytest.approx(0.01, rel=0.05)
    breaks = np.nonzero(np.diff(lost) > 1)[0]
    runs = np.diff(np.concatenate([[-1], breaks, [lost.size - 1]]))
    # geometric bursts of mean 8 that happen to touch merge rarely (gaps ~ 792 packets)
    assert runs.mean() == pytest.approx(8, rel=0.05)
    assert thesis.packet_burst_channel(8, 0.01, 10_000, seed=3).indices == \
        thesis.packet_burst_channel(8, 0.01, 10_000, seed=3).indices


def test_bursty_reno_published_run_is_a_plausible_draw():
    """Fig. 4.16: Reno 0.14 between packets 2001 and 10000, states counted in packets.

    One run in the thesis of a heavy-tailed process (timeouts backed off into long
    bursts): the published value lies within the 10-90 % range of 10 seeds.  In the
    time-counted reading Reno never comes near it (every run above 0.4)."""
    res = thesis.bursty_loss(protocols=("reno",), seeds=tuple(range(10)), duration=400.0)
    low, high = np.percentile(res.throughput[0], [10, 90])
    assert low <= PUB["fig4_16_reno_throughput"]["value"] <= high
    timed = thesis.bursty_loss(protocols=("reno",), seeds=(0, 1, 2), duration=150.0,
                               channel="time")
    assert np.all(timed.throughput[0] > 0.4)


def test_geo_findings(geo_result):
    """Figs. 4.19-4.22 on the preset's reading (window limit 132, buffer 100).

    Capacity bound: at most 1.5 Mb/s x 60 s / 8000 bit = 11250 packets in 60 s.
    Findings (report): ctlcc's Reno times out on the second loss (RFC 5681 halves
    FlightSize, ns-2 halved cwnd twice to ~33) and delivers 9396 packets.  The default
    ST-PD sender reproduces Fig. 4.21 (window held at BDP + 1, within 5 packets, with
    no timeout: the thesis' retransmission without a window cut) and the sign of Fig.
    4.22, but not its size: the thesis' +1861 exceeds what the link leaves above
    ctlcc's Reno (11250 - 9396 = 1854), and a sender that, like Reno, starts from one
    packet and at most doubles per round trip misses a further sum_{k=0}^{6} (BDP - 2^k)
    = 7 BDP - 127 packets before its window reaches the 95-packet BDP.
    """
    g = geo_result
    cap = 1.5e6 * 60 / 8000
    for p in g.protocols:
        assert g.delivered[p] <= cap
    assert g.bdp == pytest.approx(1.5e6 * (2 * 250.4e-3 + 8000 / 10e6 * 2 + 8000 / 1.5e6
                                           + 320 / 10e6 * 2 + 320 / 1.5e6) / 8000, rel=1e-9)
    assert g.runs["reno"].timeouts[0] == 1 and g.window_after_loss["reno"] == 1.0
    # Fig. 4.21 (reproduced): median window after 10 s within 5 packets of BDP + 1
    assert np.median(g.runs["stpd"].window_after(10.0)) == pytest.approx(g.bdp + 1, abs=5)
    assert g.runs["stpd"].timeouts[0] == 0
    # Fig. 4.22: the sign is reproduced, the size is bounded by capacity and start-up
    assert scenarios.preset("thesis_fig4_18").tcp.initial_window == 1
    start_up = sum(g.bdp - 2 ** k for k in range(7))
    assert 2 ** 6 < g.bdp <= 2 ** 7
    diff = g.delivered["stpd"] - g.delivered["reno"]
    assert 0 < diff <= cap - start_up - g.delivered["reno"]
    assert cap - g.delivered["reno"] < PUB["fig4_22_stpd_minus_reno"]["value"]


def test_wireless_claims_are_well_formed(loss_result, geo_result):
    claims = thesis.claims({"uniform_loss": loss_result, "geo_burst": geo_result})
    ids = [c.id for c in claims]
    assert len(ids) == len(set(ids))
    fig48 = [c for c in claims if "fig4_8_" in c.id]
    assert len(fig48) == 8 and all(c.seeds == (0, 1) and c.spread is not None for c in fig48)
    stpd = next(c for c in fig48 if c.id.endswith("fig4_8_stpd_1e-2"))
    assert stpd.verdict == "differs" and stpd.published == 0.94


@pytest.mark.slow
def test_bursty_reno_full():
    """The plausible-draw check of Fig. 4.16 on the long settings (30 seeds x 600 s)."""
    s = thesis.FULL
    res = thesis.bursty_loss(protocols=("reno",), seeds=s["bursty_seeds"],
                             duration=s["bursty_duration"])
    low, high = np.percentile(res.throughput[0], [10, 90])
    assert low <= PUB["fig4_16_reno_throughput"]["value"] <= high
