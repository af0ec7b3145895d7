# benchmarks/ns3_compare.py - ctlcc's packet engine against ns-3 on issue 6's scenarios
"""Run the issue-6 scenarios in ctlcc's packet engine and in ns-3; compare.

Families (:func:`ctlcc.sim.ns3.comparison_cases`):

* ``fig3_7``: thesis Fig. 3.7, one flow, buffer 14 and 4 packets, 30 s;
* ``loss``: thesis Fig. 4.7 with uniform packet loss 1e-3 ... 1e-1, 300 s,
  5 seeds;
* ``dumbbell``: STTP Fig. 3 with 10-50 flows, 100 s, 2 seeds.

Besides its default (SACK + PRR), ns-3 also runs with PRR off, with SACK
off, and with SACK off but limited transmit on
(:data:`ctlcc.sim.ns3.NS3_VARIANTS`; the dumbbell: default and SACK off),
to show what SACK and PRR explain.

Targets (issue 6): Reno/NewReno goodput within 10 % of ns-3 where losses
are congestion-only (fig3_7, dumbbell); the throughput-vs-loss curve within
20 % (loss).  The script prints one table per family with the ratio
ctlcc / ns-3 and whether the target holds.

Usage (from the repository root)::

    python benchmarks/ns3_compare.py                 # all families, runs ns-3
    python benchmarks/ns3_compare.py --write-data    # ... and rewrites data/ns3_*.csv
    python benchmarks/ns3_compare.py --from-data     # ns-3 numbers from data/ (no ns-3)
    python benchmarks/ns3_compare.py --quick --family loss
"""

import argparse
import dataclasses
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ctlcc.sim import run  # noqa: E402
from ctlcc.sim.ns3 import (  # noqa: E402
    COMPARISON_FAMILIES,
    NS3_VARIANTS,
    comparison_cases,
    comparison_variants,
    provenance,
    read_ns3_csv,
    run_ns3_many,
    write_ns3_csv,
)

TARGETS = {"fig3_7": 0.10, "loss": 0.20, "dumbbell": 0.10}
TRACE_INTERVAL = 0.02  # s, grid of the committed Fig. 3.7 traces


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", choices=COMPARISON_FAMILIES, action="append")
    parser.add_argument("--quick", action="store_true", help="fewer, shorter runs")
    parser.add_argument("--write-data", action="store_true", help="rewrite data/ns3_*.csv")
    parser.add_argument("--from-data", action="store_true",
                        help="take ns-3's numbers from data/ns3_*.csv instead of running ns-3")
    args = parser.parse_args(argv)
    families = args.family or list(COMPARISON_FAMILIES)
    if args.write_data and (args.quick or args.from_data):
        parser.error("--write-data needs the full runs of ns-3 (no --quick, no --from-data)")
    command = "python benchmarks/ns3_compare.py " + " ".join(argv if argv is not None
                                                             else sys.argv[1:])
    for family in families:
        compare_family(family, args.quick, args.write_data, args.from_data, command)


def compare_family(family, quick=False, write_data=False, from_data=False, command=""):
    """Run one family in both simulators, print the table, maybe write data/."""
    cases = comparison_cases(family, quick=quick)
    print(f"\n== {family}: {len(cases)} scenario runs ==")
    if from_data:
        ns3 = _ns3_from_data(family, cases)
        version = read_ns3_csv(f"ns3_{family}").provenance.get("ns3_version", "?")
    else:
        t0 = time.perf_counter()
        runs = []
        for case in cases:
            variants = comparison_variants(family)
            for variant, options in variants.items():
                runs.append(dict(scenario=case.scenario, duration=case.duration, seed=case.seed,
                                 options=options, trace=(family == "fig3_7")))
        results = run_ns3_many(runs)
        print(f"ns-3: {len(runs)} runs in {time.perf_counter() - t0:.1f} s wall "
              f"(import and set-up included)")
        version = results[0].ns3_version
        ns3 = _ns3_rows(family, cases, results)
        if write_data:
            _write(family, cases, results, version, command)
    ctl = {}
    t0 = time.perf_counter()
    for protocol in ("newreno", "reno"):
        for case in comparison_cases(family, protocol=protocol, quick=quick):
            ctl[(protocol, case.label, case.seed)] = run(case.scenario, case.duration,
                                                         seed=case.seed, progress=False)
    print(f"ctlcc: {len(ctl)} runs in {time.perf_counter() - t0:.1f} s wall")
    _print_table(family, cases, ns3, ctl, version)


def _ns3_rows(family, cases, results):
    """{(variant, label, seed): dict of ns-3 numbers} from fresh runs."""
    out = {}
    it = iter(results)
    for case in cases:
        variants = comparison_variants(family)
        for variant in variants:
            r = next(it)
            out[(variant, case.label, case.seed)] = {
                "goodput_bps": float(r.goodputs_bps.sum()),
                "goodputs_bps": r.goodputs_bps,
                "queue_mean": r.queues[0].mean, "queue_max": r.queues[0].max,
                "queue_drops": r.queues[0].drops,
                "dropped": sum(f.dropped for f in r.flows),
                "timeouts": sum(f.timeouts for f in r.flows), "result": r}
    return out


def _ns3_from_data(family, cases):
    table = read_ns3_csv(f"ns3_{family}")
    out = {}
    for case in cases:
        key = next(iter(case.params))
        rows = table.where(**{key: case.params[key]}, seed=case.seed)
        for variant in comparison_variants(family):
            out[(variant, case.label, case.seed)] = _row_numbers(rows.where(variant=variant))
    return out


def _row_numbers(rows):
    if len(rows) == 0:
        raise SystemExit("data/ns3_*.csv does not hold this case; run without --from-data")
    return {"goodput_bps": float(rows["goodput_bps"].sum()), "goodputs_bps": rows["goodput_bps"],
            "queue_mean": float(rows["queue_mean"][0]), "queue_max": int(rows["queue_max"][0]),
            "queue_drops": int(rows["queue_drops"][0]), "dropped": int(rows["dropped"].sum()),
            "timeouts": int(rows["timeouts"].sum())}


def _print_table(family, cases, ns3, ctl, version):
    target = TARGETS[family]
    labels = list(dict.fromkeys(c.label for c in cases))
    seeds = defaultdict(list)
    for c in cases:
        seeds[c.label].append(c.seed)
    print(f"goodput [Mb/s] summed over flows, mean over seeds {sorted(set(c.seed for c in cases))};"
          f" ns-3 {version}; target |ctlcc/ns-3 - 1| <= {target:.0%}; q = mean queue [packets],"
          f" drops at the bottleneck, RTOs = timeout episodes (ns-3) / expiries (ctlcc newreno)")
    head = (f"{'case':>12} {'ns-3':>8} {'newreno':>8} {'ratio':>6} {'reno':>8} {'ratio':>6}"
            f" {'q ns-3':>7} {'q ctlcc':>7} {'drops ns-3':>10} {'drops ctlcc':>11}"
            f" {'RTOs ns-3':>9} {'RTOs ctlcc':>10}  target")
    others = [v for v in comparison_variants(family) if v != "default"]
    head += "   ns-3 " + " / ".join(others)
    print(head)
    for label in labels:
        ss = seeds[label]
        n3 = np.mean([ns3[("default", label, s)]["goodput_bps"] for s in ss]) / 1e6
        nr = np.mean([ctl[("newreno", label, s)].goodputs_bps.sum() for s in ss]) / 1e6
        rr = np.mean([ctl[("reno", label, s)].goodputs_bps.sum() for s in ss]) / 1e6
        q3 = np.mean([ns3[("default", label, s)]["queue_mean"] for s in ss])
        qc = np.mean([ctl[("newreno", label, s)].queues[0].mean for s in ss])
        d3 = np.mean([ns3[("default", label, s)]["queue_drops"] for s in ss])
        dc = np.mean([ctl[("newreno", label, s)].queues[0].drops for s in ss])
        t3 = np.mean([ns3[("default", label, s)]["timeouts"] for s in ss])
        tc = np.mean([sum(f.timeouts for f in ctl[("newreno", label, s)].flows) for s in ss])
        ok = abs(nr / n3 - 1) <= target
        line = (f"{label:>12} {n3:8.4f} {nr:8.4f} {nr / n3:6.3f} {rr:8.4f} {rr / n3:6.3f}"
                f" {q3:7.2f} {qc:7.2f} {d3:10.1f} {dc:11.1f} {t3:9.1f} {tc:10.1f}"
                f"  {'ok' if ok else 'MISSED'}")
        line += "   " + " / ".join(
            f"{np.mean([ns3[(v, label, s)]['goodput_bps'] for s in ss]) / 1e6:.4f}"
            for v in others)
        print(line)
    if family == "dumbbell":
        for label in labels:
            ss = seeds[label]
            j3 = np.mean([_jain(ns3[("default", label, s)]["goodputs_bps"]) for s in ss])
            jc = np.mean([ctl[("newreno", label, s)].jain for s in ss])
            print(f"{label:>12} Jain fairness of per-flow goodput: ns-3 {j3:.3f}, ctlcc {jc:.3f}")


def _jain(x):
    x = np.asarray(x, dtype=float)
    return float(x.sum() ** 2 / (len(x) * (x ** 2).sum()))


def _write(family, cases, results, version, command):
    data = ROOT / "data"
    seeds = sorted({c.seed for c in cases})
    prov = provenance(NS3_VARIANTS["default"], seeds=seeds, command=command, ns3_version=version)
    prov["ns3_variants"] = json.dumps({name: dataclasses.asdict(options)
                                       for name, options in comparison_variants(family).items()},
                                      sort_keys=True)
    rows, trace_rows = [], []
    it = iter(results)
    for case in cases:
        variants = comparison_variants(family)
        for variant in variants:
            r = next(it)
            q = r.queues[0]
            base = dict(case.params)
            base["variant"] = variant
            base.update(seed=case.seed, duration=case.duration)
            common = dict(queue_mean=q.mean, queue_max=q.max, queue_drops=q.drops,
                          source=f"ns-3 {version}, {case.scenario.name}")
            for k, (flow, spec) in enumerate(zip(r.flows, case.scenario.flows)):
                row = dict(base)
                if family == "dumbbell":
                    row.update(flow=k, start=spec.start)
                row.update(goodput_bps=flow.goodput_bps, sent=flow.sent,
                           delivered=flow.delivered, dropped=flow.dropped,
                           dropped_queue=flow.dropped_queue, dropped_loss=flow.dropped_loss,
                           retransmitted=flow.retransmitted, timeouts=flow.timeouts,
                           fast_retransmits=flow.fast_retransmits, **common)
                rows.append(row)
            if family == "fig3_7" and variant == "default":
                grid = np.arange(0.0, case.duration + 1e-9, TRACE_INTERVAL)
                window = _steps(*r.traces.cwnd_steps[0], grid)
                queue = _steps(*r.traces.queue_steps[0], grid)
                for t, w, qq in zip(grid, window, queue):
                    trace_rows.append({"buffer": case.params["buffer"], "time": round(t, 6),
                                       "cwnd": w, "queue": qq})
    write_ns3_csv(data / f"ns3_{family}.csv", rows, prov)
    print(f"wrote data/ns3_{family}.csv ({len(rows)} rows)")
    if trace_rows:
        prov_t = dict(prov, note=f"default variant; step traces sampled every {TRACE_INTERVAL} s;"
                      " cwnd = ns-3 CongestionWindow / 1000 bytes [packets], queue = packets"
                      " waiting at R (not the one in transmission)")
        write_ns3_csv(data / f"ns3_{family}_traces.csv", trace_rows, prov_t)
        print(f"wrote data/ns3_{family}_traces.csv ({len(trace_rows)} rows)")


def _steps(times, values, grid):
    pos = np.searchsorted(times, grid, side="right") - 1
    return np.where(pos >= 0, values[np.clip(pos, 0, None)], 0.0)


if __name__ == "__main__":
    main()
