"""The ns-3 agreement matrix (issue 22 §1): scenarios, metrics and the committed ns-3 side.

Expected values: the issue's required axes (listed below), Jain's index and
share ratios computed by hand, and the summary of data/ns3_matrix.csv
recomputed independently from the per-run rows of data/ns3_matrix_runs.csv
(so the tolerances are shown to come from ns-3's runs alone).
"""

import math

import numpy as np
import pytest

from ctlcc import _data
from ctlcc.errors import ParameterError
from ctlcc.sim.ns3 import NS3_PROTOCOLS, ns3_job, read_ns3_csv
from ctlcc.sim.ns3_matrix import (ALLOWANCES, METRICS, NS3_MATCH, matrix_case, matrix_cases,
                                  metrics_of, tolerance)

_BITS = 8 * 1054


def _bottleneck(scenario):
    return next(l for l in scenario.links if (l.a, l.b) == scenario.bottlenecks[0])


def test_the_matrix_spans_the_issues_axes():
    cases = matrix_cases()
    assert len(cases) >= 12
    rtt_ratios, buffers, counts, protocols = set(), set(), set(), set()
    lossy, bursty, multi = False, False, False
    for case in cases:
        sc = case.scenario(1)
        counts.add(len(sc.flows))
        protocols.update(case.protocols)
        link = _bottleneck(sc)
        lossy |= type(link.loss).__name__ == "Bernoulli"
        bursty |= type(link.loss).__name__ == "GilbertElliott"
        multi |= len(sc.bottlenecks) > 1
        if case.name.startswith(("rtt", "sack_rtt")) and len(sc.flows) == 2:
            delays = [sum(sc.channels()[hop][0].delay for hop in zip(f.path, f.path[1:]))
                      for f in sc.flows]
            rtt_ratios.add(round(max(delays) / min(delays)))
            bdp = link.rate * 2 * float(np.mean(delays)) / _BITS
            buffers.add(round(link.buffer / bdp, 1))
    assert {1, 2, 5, 10} <= rtt_ratios
    assert min(buffers) <= 0.1 and max(buffers) >= 2.0
    assert min(counts) == 2 and max(counts) >= 500
    assert lossy and bursty and multi
    assert {"newreno", "sack", "vegas", "cubic"} <= protocols


def test_every_case_maps_to_ns3():
    for case in matrix_cases():
        job = ns3_job(case.scenario(case.seeds[0]), case.duration, case.seeds[0], case.options,
                      warmup=case.warmup, protocols=case.protocols)
        assert [f["socket_type"] for f in job["topology"]["flows"]] == [
            NS3_PROTOCOLS[p] for p in case.protocols]
        assert job["tcp"]["rate_scale"] == 1.0          # same packet time on every link
        assert job["tcp"]["initial_cwnd"] == 1 and job["tcp"]["del_ack_count"] == 1
        # ns-3 recovery matches the engine's: SACK for the engine's SACK recoveries, PRR
        # where the engine recovers with PRR, classic (RFC 5681/6582) elsewhere
        flows = case.scenario(1).flows
        # the SACK-machinery senders (Sack, Cubic) name their recovery with a string
        recovery = [f.sender.recovery if f.protocol in ("sack", "cubic") else None
                    for f in flows]
        sack = {r not in (None, "newreno") for r in recovery}
        prr = {r is not None and r.startswith("prr") for r in recovery}
        assert case.options.sack == (True in sack)
        assert case.options.recovery == ("prr" if prr == {True} else "classic")
        assert prr != {True, False}                     # ns-3 sets one recovery for all
        assert case.options.limited_transmit is False
        assert all(getattr(f.sender, "limited_transmit", False) in (None, False) for f in flows)
        if case.engine_protocols is not None:
            assert [f.protocol for f in flows] == [
                p if isinstance(p, str) else p.name for p in case.engine_protocols]
            assert case.scenario(1).tcp.timestamps          # the engine's RFC 7323 reading


def test_seeds_change_only_the_start_times():
    case = matrix_case("rtt5_bdp1")
    a, b = case.scenario(1), case.scenario(2)
    assert [f.start for f in a.flows] != [f.start for f in b.flows]
    assert all(0.0 <= f.start < 1.0 for f in a.flows)
    assert a.links == b.links


def test_metrics_by_hand():
    case = matrix_case("n10")
    g = np.arange(1.0, 11.0)
    m = metrics_of(case, g, 3.5, 7)
    assert m["goodput_total"] == 55.0
    assert m["share_ratio"] == pytest.approx(3.0 / 8.0)      # mean(1..5) / mean(6..10)
    assert m["jain"] == pytest.approx(55.0 ** 2 / (10 * 385.0))
    assert (m["queue_mean"], m["retransmitted"]) == (3.5, 7.0)


def test_tolerance_rule():
    case, lossy = matrix_case("rtt5_bdp1"), matrix_case("loss1pct")
    assert tolerance(case, "goodput_total", 9e6, 0.0) == pytest.approx(0.9e6)
    assert tolerance(lossy, "goodput_total", 9e6, 0.0) == pytest.approx(1.8e6)
    assert tolerance(case, "queue_mean", 50.0, 1.0) == pytest.approx(
        0.2 * 50 + 2 + 3 * math.sqrt(2))
    assert tolerance(case, "jain", 0.9, 0.0) == pytest.approx(0.05)
    assert set(ALLOWANCES) == set(METRICS)


def test_ns3_match_follows_the_engines_recovery():
    assert NS3_MATCH["newreno"].sack is False and NS3_MATCH["sack"].sack is True
    assert NS3_MATCH["sack_prr"].recovery == NS3_MATCH["cubic_prr"].recovery == "prr"
    assert NS3_MATCH["cubic_prr"].sack is True and NS3_MATCH["cubic"].sack is False
    # the engine's CUBIC scenarios: recovery as ns-3's (NewReno without SACK, or PRR)
    assert matrix_case("cubic_rtt5").engine_protocols[0].recovery == "newreno"
    assert matrix_case("cubic_prr_rtt5").engine_protocols[0].recovery == "prr"
    assert matrix_case("prr_rtt5").engine_protocols[0].recovery == "prr"


def test_unknown_case():
    with pytest.raises(ParameterError, match="name must be one of"):
        matrix_case("rtt99")


# --------------------------------------------------------------------------- committed data
def test_committed_summary_has_every_case_and_metric():
    table = read_ns3_csv("ns3_matrix")
    assert table.provenance["ns3_version"].startswith("3.44")
    for case in matrix_cases():
        for metric in METRICS:
            rows = table.where(scenario=case.name, metric=metric)
            assert len(rows) == 1, (case.name, metric)
            assert rows["n_seeds"][0] == len(case.seeds)
            assert "SE of ns-3's mean" in rows["tolerance_basis"][0]


def test_committed_tolerances_come_from_ns3_alone():
    """Recompute mean, SE and tolerance of every summary row from the per-run rows."""
    runs = _data.read_csv("ns3_matrix_runs.csv")
    table = read_ns3_csv("ns3_matrix")
    for case in matrix_cases():
        per_seed = {m: [] for m in METRICS}
        for seed in case.seeds:
            rows = sorted((r for r in runs if r["scenario"] == case.name
                           and int(r["seed"]) == seed), key=lambda r: int(r["flow"]))
            assert len(rows) == len(case.protocols)
            values = metrics_of(case, [float(r["goodput_bps"]) for r in rows],
                                float(rows[0]["queue_mean"]),
                                sum(float(r["retransmitted"]) for r in rows))
            for m in METRICS:
                per_seed[m].append(values[m])
        for m in METRICS:
            x = np.array(per_seed[m])
            mean, se = x.mean(), x.std(ddof=1) / math.sqrt(len(x))
            row = table.where(scenario=case.name, metric=m)
            # the runs file prints 6 significant digits: the SE of nearly equal
            # values inherits up to 1e-5 of the mean from that rounding
            slack = 1e-5 * abs(mean) + 1e-9
            assert row["ns3_mean"][0] == pytest.approx(mean, rel=1e-5, abs=1e-9)
            assert row["ns3_se"][0] == pytest.approx(se, rel=1e-4, abs=slack)
            assert row["tolerance"][0] == pytest.approx(tolerance(case, m, mean, se),
                                                        rel=1e-4, abs=5 * slack)


def test_committed_runs_are_plausible():
    """No link carried more data segments over the run than its rate allows.

    (The windowed goodput may exceed a link's rate slightly: data held out of
    order by a receiver at the warm-up is delivered in the window.)
    """
    runs = _data.read_csv("ns3_matrix_runs.csv")
    for case in matrix_cases():
        sc = case.scenario(1)
        for seed in case.seeds:
            rows = sorted((r for r in runs if r["scenario"] == case.name
                           and int(r["seed"]) == seed), key=lambda r: int(r["flow"]))
            delivered = [int(r["delivered"]) for r in rows]
            assert sum(float(r["goodput_bps"]) for r in rows) > 0
            for link in sc.links:
                carried = sum(d for d, f in zip(delivered, sc.flows)
                              if (link.a, link.b) in zip(f.path, f.path[1:]))
                assert carried <= link.rate * case.duration / _BITS + 1, (case.name, seed)
            for r in rows:
                assert 0 <= int(r["retransmitted"]) <= int(r["sent"])


def test_committed_verdicts_follow_the_rule():
    rows = _data.read_csv("ns3_matrix_comparison.csv")
    assert len(rows) == 5 * sum(c.engine_protocols is not None for c in matrix_cases())
    for r in rows:
        diff = abs(float(r["ctlcc_mean"]) - float(r["ns3_mean"]))
        expected = "reproduced" if diff <= float(r["tolerance"]) else "differs"
        assert r["verdict"] == expected, r


@pytest.mark.parametrize("name", ["sack_rtt5", "rtt5_bdp01", "prr_rtt5", "cubic_prr_rtt5",
                                  "cubic_newreno"])
def test_engine_side_reproduces(name):
    import importlib.util
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("ns3_matrix_bench",
                                                  root / "benchmarks" / "ns3_matrix.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    case = matrix_case(name)
    per_seed = [bench.engine_metrics(case, s) for s in case.seeds]
    for r in _data.read_csv("ns3_matrix_comparison.csv"):
        if r["scenario"] == name:
            mean = np.mean([m[r["metric"]] for m in per_seed])
            assert mean == pytest.approx(float(r["ctlcc_mean"]), rel=1e-5), r["metric"]
