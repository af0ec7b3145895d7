"""Figs. 2-5 of Chatté, Ducourthial & Niculescu (2006): the five criteria along §IV-B's sweeps.

Reproduced claims are asserted with the paper's bound and the reason for any slack; the
findings (where ctlcc differs) are pinned by bounds reasoned independently of the engine.
"""

import csv
from pathlib import Path

import numpy as np
import pytest

from ctlcc.errors import ParameterError
from ctlcc.experiments import primo as P
from ctlcc.sim.criteria import CRITERIA

FAIR = CRITERIA.index("fairness")
DATA = Path(__file__).resolve().parents[2] / "data"


@pytest.fixture(scope="module")
def bandwidth():
    return P.parameter_sweep("bandwidth", (1e6, 4e6), protocols=("vegas", "primo"))


@pytest.fixture(scope="module")
def heterogeneous():
    return P.parameter_sweep("access_delay", (40e-3,), protocols=("reno", "primo"))


def test_fig1_top_round_trip_times(heterogeneous):
    # 2 x (1 + 10 + 1) ms of propagation (§IV-B's 24 ms) plus one 1054-byte packet and one
    # 54-byte ACK serialised on each link: 2 x 10 Mb/s + 2 Mb/s -> 6.2 ms; S2 with a 40-ms
    # access link: 2 x (40 + 10 + 1) ms + 6.2 ms.
    ser = 8 * 1054 * (2 / 10e6 + 1 / 2e6) + 8 * 54 * (2 / 10e6 + 1 / 2e6)
    assert heterogeneous.round_trip_times[0] == pytest.approx([0.024 + ser, 0.102 + ser])


def test_vegas_queue_about_15_percent(bandwidth):
    # §V-A: "15 % with Vegas".  Independent bound: each of the two Vegas flows keeps between
    # alpha = 1 and beta = 3 packets queued, so the queue holds 2-6 packets = 6.7-20 % of 30;
    # the paper's 15 % is inside.  Both sweep points must fall in that band.
    q = bandwidth.queue_fraction[bandwidth.protocols.index("vegas")]
    assert np.all((q >= 2 / 30 - 0.01) & (q <= 6 / 30 + 0.01))  # 0.01: partial samples
    row = P.published("sec5a_vegas_queue")
    assert abs(q.mean() - row["value"]) <= 0.05  # the paper's "about": 5 points


def test_primo_queue_below_the_papers_10_percent_and_growing(bandwidth):
    # Finding (differs): the limit-cycle model of Primo's loop (data/
    # primo_paper_sec5a_queue_occupancy.csv, ctlcc.analysis) puts the mean queue at
    # 0.23 FTT_ref C: 1.1 % of the buffer at 1 Mb/s, 4.6 % at 4 Mb/s, growing with C because
    # the thresholds are fractions of FTT_ref.  Packets stay within a factor 2 of the model
    # (quantisation: the model's mean queue at 1 Mb/s is a third of a packet).
    with (DATA / "primo_paper_sec5a_queue_occupancy.csv").open() as handle:
        model = {float(r["shared_link_rate_bps"]): float(r["mean_queue_fraction"])
                 for r in csv.DictReader(handle)}
    q = bandwidth.queue_fraction[bandwidth.protocols.index("primo")]
    for rate, measured in zip(bandwidth.values, q):
        assert model[rate] / 2 <= measured <= 2 * model[rate]
    assert q[0] < q[1] < 0.10


def test_reno_fairness_below_27_percent_with_rtts_60_ms_apart(heterogeneous):
    # §V-D: RTT 108 vs 30 ms (> 60 ms apart): "TCP Reno fairness is lower than 27 %".
    fair = heterogeneous.criteria[heterogeneous.protocols.index("reno"), 0, FAIR]
    assert fair < P.published("sec5d_reno_fairness")["high"]


def test_primo_heterogeneous_fairness_is_not_98_percent(heterogeneous):
    # Finding (differs, README): the linearised two-flow loop with per-flow FTT_ref starves the
    # short-RTT flow (ctlcc.analysis primo_shared_loop: fairness 1-12 % for RTT 44-122 ms);
    # the paper reports 98 %.  Packets agree that the split is far from even: below 75 %.
    fair = heterogeneous.criteria[heterogeneous.protocols.index("primo"), 0, FAIR]
    assert fair < 75.0
    assert fair < P.published("sec5d_primo_fairness")["value"] - 20


def test_pentagon_corners_are_the_sweep_means(bandwidth):
    p = bandwidth.protocols.index("primo")
    assert bandwidth.mean("primo") == pytest.approx(bandwidth.criteria[p].mean(axis=0))
    assert np.all((bandwidth.criteria >= 0) & (bandwidth.criteria <= 102))


def test_literal_primo_with_a_five_packet_queue_never_leaves_start_up():
    # Finding: two Primo.legacy() flows started together send 2 x 4 burst packets into a
    # 5-packet queue (6 with the one in service): at least 2 are lost, each flow misses its
    # fourth packet and restarts after the same 1-s timer, in lockstep.  A flow stuck in
    # start-up sends at most 4 packets per second, so the 2 Mb/s link (237.2 packets/s of 1054
    # bytes) carries at most 8/237.2 = 3.4 %.  Starts 10 ms apart break the lockstep, and so
    # does the default Primo()'s restart after U[0.5, 1.5] s (the two bursts then meet with
    # probability 0 in continuous time): more than 90 % (an idle tenth would mean a flow
    # never left start-up in 8 s).
    from ctlcc.sim import run
    from ctlcc.sim.senders import Primo
    stuck = run(P.fig1_top(Primo.legacy(), "queue", 5), 8.0, sample_interval=0.1)
    assert stuck.queues[0].utilisation <= 8 / (2e6 / (8 * 1054)) + 1e-9
    apart = run(P.fig1_top(Primo.legacy(), "queue", 5, start=[0.0, 0.01]), 8.0,
                sample_interval=0.1)
    assert apart.queues[0].utilisation > 0.9
    spread = run(P.fig1_top(Primo(), "queue", 5), 8.0, sample_interval=0.1)
    assert spread.queues[0].utilisation > 0.9


@pytest.mark.parametrize("call, match", [
    (lambda: P.parameter_sweep("rate"), "parameter must be one of 'bandwidth'"),
    (lambda: P.parameter_sweep("queue", (10,), protocols=("tcp",)), "got 'tcp'"),
    (lambda: P.published("nope"), "claim_id must be one of"),
])
def test_bad_input(call, match):
    with pytest.raises(ParameterError, match=match):
        call()


@pytest.mark.slow
def test_full_sweeps_run():
    # The full §IV-B grids (Figs. 2-5), 60-s runs: every criterion a percentage.
    for parameter, values in P.PAPER_GRIDS.items():
        sw = P.parameter_sweep(parameter, values, duration=P.DURATION_FULL)
        assert np.all((sw.criteria >= 0) & (sw.criteria <= 102))


def test_stability_depends_on_the_unprinted_sampling_interval():
    # §IV-C leaves the interval open.  Averaging over longer intervals can only smooth a rate
    # (the interval counts are sums of the shorter ones), so a window TCP's stability rises
    # with the interval.  At RTT 110 ms, 10-ms samples see the send/idle alternation within a
    # round trip that §V-A describes, and both TCPs read low (the paper: under 20 %; we allow
    # 30 %: one seed and a 5-s window hold only a few sawtooth cycles); 1-s samples average
    # whole cycles and read high.  The claims ledger compares with the paper's 20 % itself.
    iv = P.interval_sensitivity(protocols=("reno", "vegas"), intervals=(0.01, 1.0), duration=8.0)
    assert np.all(iv.sending[:, 0] < iv.sending[:, 1])
    assert np.all(iv.sending[:, 0] <= 30.0)
    assert np.all(iv.sending[:, 1] > 40.0)
