# benchmarks/ns3_red.py - RED on packets vs ns-3's RedQueueDisc (ctlcc.sim.ns3_red)
"""Run the RED settings of :mod:`ctlcc.sim.ns3_red` in ns-3 and/or the engine.

1. ``--run-ns3`` runs ns-3 (``RedQueueDisc`` on the bottleneck, configured
   from the link's RedParams by :func:`ctlcc.sim.ns3.ns3_job`) on every
   setting and seed; with ``--write-data`` it writes ``data/ns3_red.csv``
   (one row per setting and seed: the three measures and ns-3's raw
   counters), the file the ledger's units read;
2. without ``--run-ns3`` the committed ns-3 numbers are read, the engine
   runs the same settings and seeds, and both are printed side by side
   (the verdicts are the ledger's: ``ctlcc.claims.aqm``).

Usage (from the repository root)::

    nice -n 10 python benchmarks/ns3_red.py --run-ns3 --write-data
    python benchmarks/ns3_red.py --case dumbbell_gentle_wait
"""

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ctlcc.sim.ns3 import provenance, read_ns3_csv, run_ns3_many, write_ns3_csv  # noqa: E402
from ctlcc.sim.ns3_red import (NS3_RED_OPTIONS, RED_CASES, RED_MEASURES,  # noqa: E402
                               SAMPLE_INTERVAL, ctlcc_red_run, red_case, red_measures)


def ns3_rows(case, work=None):
    """ns-3's rows of *case* (one per seed), reusing *work*/<case>.json."""
    cached = Path(work) / f"{case.name}.json" if work else None
    if cached is not None and cached.is_file():
        return json.loads(cached.read_text())
    scenario = case.scenario()
    t0 = time.perf_counter()
    results = run_ns3_many([dict(scenario=scenario, duration=case.duration, seed=seed,
                                 options=case.ns3_options, warmup=case.warmup,
                                 queue_sample_interval=SAMPLE_INTERVAL)
                            for seed in case.seeds])
    rows = []
    for seed, r in zip(case.seeds, results):
        q = r.queues[0]
        bits = sum(f.goodput_bps for f in r.flows) * (case.duration - case.warmup)
        m = red_measures([0.0], [q.mean], q.drops, q.arrivals, bits, (0.0, case.duration
                                                                        - case.warmup))
        rows.append({"case": case.name, "seed": seed, "ns3_sack": int(case.ns3_options.sack),
                     "queue_mean": float(q.mean),
                     "drop_rate": m["drop_rate"], "goodput_total": m["goodput_total"],
                     "queue_max": q.max, "arrivals": q.arrivals, "drops": q.drops,
                     "early_drops": q.aqm_drops - q.forced_drops, "forced_drops": q.forced_drops,
                     "overflow_drops": q.drops - q.aqm_drops, "marks": q.marks,
                     "timeouts": sum(f.timeouts for f in r.flows),
                     "retransmitted": sum(f.retransmitted for f in r.flows),
                     "wall_s": float(r.wall_time)})
    print(f"{case.name}: ns-3 {time.perf_counter() - t0:.0f} s", flush=True)
    if cached is not None:
        cached.write_text(json.dumps(rows))
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", help="setting name (repeatable)")
    parser.add_argument("--run-ns3", action="store_true", help="run ns-3 (slow)")
    parser.add_argument("--write-data", action="store_true",
                        help="with --run-ns3: rewrite data/ns3_red.csv")
    parser.add_argument("--work", help="with --run-ns3: keep per-setting results here")
    args = parser.parse_args(argv)
    cases = [red_case(n) for n in args.case] if args.case else list(RED_CASES)
    command = "python benchmarks/ns3_red.py " + " ".join(
        argv if argv is not None else sys.argv[1:])
    if args.run_ns3:
        rows = [row for case in cases for row in ns3_rows(case, args.work)]
        if args.write_data:
            if args.case:
                parser.error("--write-data needs every setting (no --case)")
            prov = provenance(NS3_RED_OPTIONS, sorted({s for c in cases for s in c.seeds}),
                              command)
            prov["ns3_config"] = (
                "RedQueueDisc on the bottleneck's a->b device (TrafficControlHelper after "
                "Uninstall of the default FqCoDel): MinTh/MaxTh = thresholds [packets], "
                "LInterm = 1/max_p, QW = weight, Gentle, Wait, UseEcn, UseHardDrop from "
                "RedParams, MaxSize = buffer packets, MeanPktSize = payload + ns-3 headers, "
                "LinkBandwidth = link rate, ARED/AdaptMaxP/FengAdaptive/NLRED/Ns1Compat off; "
                "that device's DropTailQueue holds 1 packet; other devices DropTailQueue as in "
                "ctlcc.sim.ns3; DelAckCount=1, SegmentSize=payload, BulkSend + PacketSink")
            prov["measures"] = (
                f"over [warmup, duration]: queue_mean = mean of (queue disc + device queue) "
                f"packets sampled every {SAMPLE_INTERVAL} s; drop_rate = queue disc drops / "
                f"packets received; goodput_total = PacketSink bytes x 8 / window")
            prov["settings"] = "; ".join(
                f"{c.name}: {c.description}, {c.duration:g} s, warmup {c.warmup:g} s, ns-3 SACK "
                f"{c.ns3_options.sack}"
                for c in cases)
            write_ns3_csv(ROOT / "data" / "ns3_red.csv", rows, prov)
        for row in rows:
            print(row)
        return 0
    table = read_ns3_csv("ns3_red")
    for case in cases:
        rows = table.where(case=case.name)
        for seed in case.seeds:
            ns3 = rows.where(seed=float(seed))
            mine = ctlcc_red_run(case, seed)
            print(case.name, seed, "  ".join(
                f"{k}: ctlcc {mine[k]:.4g} ns-3 {float(ns3[k][0]):.4g}" for k in RED_MEASURES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
