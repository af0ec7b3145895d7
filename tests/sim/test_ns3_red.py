"""RED against ns-3 (ctlcc.sim.ns3_red, the RED mapping of ctlcc.sim.ns3, the ledger unit).

Nothing here runs ns-3: the mapping and the result reader are checked on
hand-made inputs, the committed data/ns3_red.csv for its shape.
"""

import math

import numpy as np
import pytest

from ctlcc.claims import aqm as claims_aqm
from ctlcc.claims import registry
from ctlcc.errors import ParameterError
from ctlcc.laws.aqm import PiParams, RedParams
from ctlcc.sim import ns3
from ctlcc.sim.ns3 import Ns3Options, ns3_job
from ctlcc.sim.ns3_red import RED_CASES, RED_MEASURES, red_case, red_measures
from ctlcc.sim.scenarios import dumbbell


def test_red_job_maps_every_attribute():
    red = RedParams(5, 15, 0.08, weight=0.004, gentle=True, wait=False, ecn=True,
                    hard_drop=False)
    s = dumbbell(2, buffer=40, queue=red)
    links = ns3_job(s, 10.0)["topology"]["links"]
    with_red = [link for link in links if link["red_ab"] is not None]
    assert len(with_red) == 1 and with_red[0]["buffer_ab"] == 40
    job = with_red[0]["red_ab"]
    # ns-3's max_p is 1/LInterm; 1/0.08 = 12.5 by hand
    assert job["l_interm"] == pytest.approx(12.5)
    assert (job["min_th"], job["max_th"], job["qw"], job["max_size"]) == (5.0, 15.0, 0.004, 40)
    assert (job["gentle"], job["wait"], job["ecn"], job["hard_drop"]) == (True, False, True, False)
    # a 1000-byte payload + IPv4 20 + TCP 20 + timestamps 12 + PPP 2 (RFC 791/793/7323)
    assert job["mean_pkt_size"] == 1054
    assert ns3_job(s, 10.0, options=Ns3Options(timestamps=False))["topology"]["links"][0][
        "red_ab"]["mean_pkt_size"] == 1042


def test_red_job_rejects_pi_and_bad_sample_interval():
    pi = dumbbell(2, buffer=400, queue=PiParams(1.822e-5, 1.816e-5, 175.0, 160.0))
    with pytest.raises(ParameterError, match="RedParams"):
        ns3_job(pi, 10.0)
    red = dumbbell(2, buffer=40, queue=RedParams(5, 15, 0.1))
    with pytest.raises(ParameterError, match="queue_sample_interval"):
        ns3_job(red, 10.0, queue_sample_interval=0.0)


@pytest.mark.parametrize("min_queue", [None, 0.0, 2.0])
def test_red_job_refuses_a_min_queue_ns3_cannot_express(min_queue):
    """ns-3.44's RedQueueDisc hard-codes nQueued > 1: only min_queue = 1 maps."""
    s = dumbbell(2, buffer=40, queue=RedParams(5, 15, 0.1, min_queue=min_queue))
    with pytest.raises(ParameterError, match=r"min_queue must be 1 for ns-3.*got min_queue="):
        ns3_job(s, 10.0)
    assert ns3_job(dumbbell(2, buffer=40, queue=RedParams(5, 15, 0.1, min_queue=1)),
                   10.0)["topology"]["links"][0]["red_ab"]["min_th"] == 5.0


def test_droptail_links_have_no_red():
    job = ns3_job(dumbbell(2, buffer=40), 10.0)
    assert all(link["red_ab"] is None for link in job["topology"]["links"])


def _raw(job, red):
    flows = len(job["topology"]["flows"])
    zeros = [0] * flows
    return {"flows": {"rx_bytes": [1000] * flows, "rx_bytes_at_warmup": zeros, "sent": zeros,
                      "delivered": zeros, "dropped_queue": zeros, "dropped_loss": zeros,
                      "retransmitted": zeros, "timeout_episodes": zeros,
                      "fast_retransmits": zeros},
            "queues": {"link": [0], "direction": ["ab"], "area": [7.0], "area_at_warmup": [2.0],
                       "max": [1], "drops": [0], "losses": [3]},
            "events": 1, "wall_s": 1.0, "peak_rss_kib_before_run": 1,
            "peak_rss_kib_after_run": 2, "ns3_version": "3.44", "red": red}


def test_result_reads_red_counters_over_the_window():
    s = dumbbell(2, buffer=40, queue=RedParams(5, 15, 0.1))
    job = ns3_job(s, 10.0, warmup=5.0)
    # stats: received, dropped, early drops, forced, overflow, early marks, forced marks, sent
    red = {"monitor": [0], "sampled_sum": [30.0], "samples": [4], "sampled_max": [12],
           "stats": [[1000, 60, 40, 15, 5, 3, 1, 940]],
           "stats_at_warmup": [[400, 20, 10, 8, 2, 1, 0, 380]]}
    r = ns3._to_result(s, job, None, _raw(job, red))
    q = r.queues[0]
    assert q.sampled and q.mean == 7.5 and q.max == 12
    assert (q.arrivals, q.drops, q.aqm_drops, q.forced_drops, q.marks) == (600, 40, 37, 7, 3)
    assert q.losses == 3


def test_result_without_red_keeps_the_exact_mean():
    s = dumbbell(2, buffer=40)
    job = ns3_job(s, 10.0, warmup=5.0)
    r = ns3._to_result(s, job, None, _raw(job, {"monitor": []}))
    q = r.queues[0]
    assert not q.sampled and q.mean == pytest.approx((7.0 - 2.0) / 5.0) and q.arrivals == 0


def test_red_measures_by_hand():
    t = np.arange(0.0, 1.01, 0.25)          # 0, 0.25, 0.5, 0.75, 1.0
    q = np.array([100.0, 1.0, 2.0, 3.0, 6.0])
    m = red_measures(t, q, dropped=3, offered=60, delivered_bits=2e6, window=(0.25, 1.0))
    assert m["queue_mean"] == 3.0           # (1 + 2 + 3 + 6) / 4: the 0-s sample is outside
    assert m["drop_rate"] == 0.05
    assert m["goodput_total"] == pytest.approx(2e6 / 0.75)
    assert math.isnan(red_measures(t, q, 0, 0, 0.0, (0.0, 1.0))["drop_rate"])


def test_cases_are_well_formed():
    names = [c.name for c in RED_CASES]
    assert len(set(names)) == len(names) == 6
    for case in RED_CASES:
        assert 0 < case.warmup < case.duration and case.seeds
        assert case.scenario().links[0].queue == case.red
    assert red_case("dumbbell_ecn").scenario().tcp.ecn
    with pytest.raises(ParameterError):
        red_case("nope")


def _case_input(q_ctlcc, q_ns3):
    return {"seeds": (1, 2), "ns3_counts": {"early_drops": [5.0, 7.0]},
            "ctlcc": {"queue_mean": q_ctlcc, "drop_rate": [0.01, 0.02],
                      "goodput_total": [1.0e6, 1.2e6]},
            "ns3": {"queue_mean": q_ns3, "drop_rate": [0.02, 0.02],
                    "goodput_total": [1.1e6, 1.1e6]}}


def test_unit_declares_each_record_and_compares_means():
    data = {c.name: _case_input([9.0, 11.0], [12.0, 14.0]) for c in RED_CASES}
    out = claims_aqm.red_ns3_checks(data)
    rules = registry.rules()
    assert len(out) == 18 and all(i in rules for i in out)
    m = out["hollot-aqm-red-ns3-dumbbell-ecn-queue"]
    assert (m.value, m.target, m.samples, m.seeds) == (10.0, 13.0, (9.0, 11.0), (1, 2))
    g = out["hollot-aqm-red-ns3-hollot-unstable-goodput"]
    assert g.value == pytest.approx(1.1e6) and g.target == pytest.approx(1.1e6)


def test_verdicts_follow_the_declared_tolerance():
    # queue: 20 % of ns-3's 13 = 2.6, plus 2 x the standard error of ctlcc's mean (std of
    # (9, 11) with ddof 1 is sqrt(2), / sqrt(2) = 1) = 4.6: 10 vs 13 is within
    rules = registry.rules()
    rule = rules["hollot-aqm-red-ns3-hollot-stable-queue"]
    assert (rule.tolerance, rule.se_factor, rule.kind) == ("20 %", 2.0, "consistency")
    near = claims_aqm.red_ns3_checks({c.name: _case_input([9.0, 11.0], [12.0, 14.0])
                                      for c in RED_CASES})
    far = claims_aqm.red_ns3_checks({c.name: _case_input([5.0, 7.0], [12.0, 14.0])
                                     for c in RED_CASES})
    cid = "hollot-aqm-red-ns3-hollot-stable-queue"
    assert registry.record(cid, near[cid], rules[cid]).verdict == "reproduced"
    assert registry.record(cid, far[cid], rules[cid]).verdict == "differs"


def test_committed_ns3_file_covers_every_case_and_seed():
    table = ns3.read_ns3_csv("ns3_red")
    assert table.provenance["ns3_version"].startswith("3.44")
    for case in RED_CASES:
        rows = table.where(case=case.name)
        assert sorted(int(s) for s in rows["seed"]) == sorted(case.seeds)
        for measure in RED_MEASURES:
            assert np.all(np.isfinite(rows[measure])) and np.all(rows[measure] >= 0)
        assert np.all(rows["drops"] == rows["early_drops"] + rows["forced_drops"]
                      + rows["overflow_drops"])


# --- live ns-3 (slow, skipped without ns-3) ------------------------------------------------


@pytest.mark.slow
@pytest.mark.skipif(not ns3.ns3_available(), reason="ns-3 (pip install ns3) not installed")
def test_live_red_reproduces_committed_rows_in_any_order():
    """The committed dumbbell rows come back, whichever run goes first in the worker
    (RED's draws are on a fixed stream); ECN marks and does not drop."""
    from ctlcc.sim.ns3_red import SAMPLE_INTERVAL

    table = ns3.read_ns3_csv("ns3_red")
    cases = [red_case("dumbbell_ecn"), red_case("dumbbell_gentle_wait")]
    runs = [dict(scenario=c.scenario(), duration=c.duration, seed=1, options=c.ns3_options,
                 warmup=c.warmup, queue_sample_interval=SAMPLE_INTERVAL) for c in cases]
    results = ns3.run_ns3_many(runs)     # committed: each setting's seed 1 ran first
    for case, result in zip(cases, results):
        row = table.where(case=case.name, seed=1.0)
        q = result.queues[0]
        assert q.mean == pytest.approx(float(row["queue_mean"][0]), rel=1e-5), case.name
        assert (q.drops, q.marks, q.arrivals) == (int(row["drops"][0]), int(row["marks"][0]),
                                                  int(row["arrivals"][0])), case.name
    ecn = results[0].queues[0]
    assert ecn.marks > 0 and ecn.aqm_drops == 0
