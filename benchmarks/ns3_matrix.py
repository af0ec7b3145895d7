# benchmarks/ns3_matrix.py - the ns-3 agreement matrix of issue 22 (ctlcc.sim.ns3_matrix)
"""Run the agreement matrix in ns-3 and/or the engine; compare with fixed tolerances.

Scenarios, metrics, ns-3 settings and the tolerances are defined (and
documented) in :mod:`ctlcc.sim.ns3_matrix`.  Two steps:

1. ``--run-ns3`` runs ns-3 on every scenario and seed (nice -n 10 advised)
   and, with ``--write-data``, writes ``data/ns3_matrix_runs.csv`` (one row
   per run and flow) and ``data/ns3_matrix.csv`` (per scenario and metric:
   ns-3's mean and standard error over the seeds, the tolerance and its
   basis, computed from ns-3's runs alone, before any comparison);
2. without ``--run-ns3`` the committed ns-3 numbers are read and the engine
   runs the same scenarios and seeds; each comparison is ``reproduced`` iff
   ``|ctlcc - ns-3| <= tolerance``, else ``differs``; ``--out FILE`` writes
   the comparison as CSV.

Usage (from the repository root)::

    nice -n 10 python benchmarks/ns3_matrix.py --run-ns3 --write-data
    nice -n 10 python benchmarks/ns3_matrix.py --run-ns3 --write-data --case prr_rtt5  # add one
    python benchmarks/ns3_matrix.py --out /tmp/ns3_matrix_comparison.csv
    python benchmarks/ns3_matrix.py --case rtt5_bdp1 --case n10
"""

import argparse
import json
import math
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ctlcc.sim import run  # noqa: E402
from ctlcc.sim.ns3 import provenance, read_ns3_csv, run_ns3_many, write_ns3_csv  # noqa: E402
from ctlcc.sim.ns3_matrix import (METRICS, matrix_case, matrix_cases, metrics_of,  # noqa: E402
                                  tolerance)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", help="scenario name (repeatable)")
    parser.add_argument("--run-ns3", action="store_true", help="run ns-3 (slow)")
    parser.add_argument("--write-data", action="store_true",
                        help="with --run-ns3: rewrite data/ns3_matrix*.csv")
    parser.add_argument("--out", help="write the comparison to this CSV file")
    parser.add_argument("--work", help="with --run-ns3: keep each scenario's ns-3 results in "
                        "this directory and reuse them (an interrupted run resumes)")
    parser.add_argument("--write-ledger", action="store_true",
                        help="rewrite data/ledger_ns3.csv from data/ns3_matrix.csv alone "
                             "(the records' targets and tolerances, before comparing)")
    args = parser.parse_args(argv)
    if args.write_ledger:
        from ctlcc.claims.ns3 import write_ledger

        n = write_ledger(ROOT / "data" / "ledger_ns3.csv")
        print(f"wrote data/ledger_ns3.csv ({n} records)")
        return
    cases = [matrix_case(n) for n in args.case] if args.case else list(matrix_cases())
    command = "python benchmarks/ns3_matrix.py " + " ".join(
        argv if argv is not None else sys.argv[1:])
    if args.run_ns3:
        runs = run_ns3_side(cases, args.work)
        if args.write_data:
            write_data(cases, runs, command, merge=bool(args.case))
        return
    compare(cases, args.out, merge=bool(args.case))


# --------------------------------------------------------------------------- ns-3
def run_ns3_side(cases, work=None):
    """{(case, seed): plain dict of an ns-3 run} for every scenario and seed."""
    out = {}
    work = Path(work) if work else None
    if work:
        work.mkdir(parents=True, exist_ok=True)
    for case in cases:
        saved = work / f"{case.name}.json" if work else None
        if saved and saved.is_file():
            runs = json.loads(saved.read_text())
        else:
            t0 = time.perf_counter()
            items = [dict(scenario=case.scenario(seed), duration=case.duration, seed=seed,
                          warmup=case.warmup, options=case.options, protocols=case.protocols)
                     for seed in case.seeds]
            runs = [_plain(r) for r in run_ns3_many(items)]
            print(f"ns-3 {case.name}: {len(items)} runs in {time.perf_counter() - t0:.0f} s "
                  f"wall, {sum(r['wall_time'] for r in runs):.0f} s in Simulator::Run",
                  flush=True)
            if saved:
                saved.write_text(json.dumps(runs))
        for seed, r in zip(case.seeds, runs):
            out[(case.name, seed)] = r
    return out


def _plain(result):
    return {"ns3_version": result.ns3_version, "wall_time": result.wall_time,
            "events": result.events, "queue_mean": result.queues[0].mean,
            "flows": [{k: getattr(f, k) for k in ("goodput_bps", "sent", "delivered", "dropped",
                                                  "dropped_loss", "retransmitted", "timeouts",
                                                  "fast_retransmits")} for f in result.flows]}


def _merge(path, rows, names, note):
    """The committed rows of *path* for scenarios not in *names*, then *rows*; the
    committed provenance plus a line saying which scenarios *note* added."""
    import csv

    prov, kept = {}, []
    with open(path, newline="") as handle:
        lines = handle.read().splitlines()
    body = []
    for line in lines:
        if line.startswith("# ") and not body:
            key, _, value = line[2:].partition(": ")
            prov[key if key not in prov else f"{key} ({len(prov)})"] = value
        else:
            body.append(line)
    for row in csv.DictReader(body):
        if row["scenario"] not in names:
            kept.append(row)
    prov[f"added {len([k for k in prov if k.startswith('added')]) + 1}"] = note
    return kept + list(rows), prov


def write_data(cases, runs, command, merge=False):
    """Write data/ns3_matrix_runs.csv and data/ns3_matrix.csv; with *merge* (a subset of
    the scenarios) replace only those scenarios' rows and keep the others."""
    version = next(iter(runs.values()))["ns3_version"]
    seeds = sorted({s for c in cases for s in c.seeds})
    prov = provenance(None, seeds=seeds, command=command, ns3_version=version)
    prov["ns3_options"] = ("per scenario: column ns3_options (ctlcc.sim.ns3_matrix.NS3_MATCH); "
                           "TcpCubic HyStart off")
    prov["measurement"] = ("goodput over [warmup, duration]; queue_mean the exact time-average "
                           "of packets waiting at the first bottleneck over the same window; "
                           "retransmitted over the whole run")
    rows, summary = [], []
    for case in cases:
        per_seed = defaultdict(list)
        for seed in case.seeds:
            r = runs[(case.name, seed)]
            for k, flow in enumerate(r["flows"]):
                rows.append(dict(scenario=case.name, seed=seed, flow=k,
                                 protocol=case.protocols[k], **flow,
                                 queue_mean=r["queue_mean"], duration=case.duration,
                                 warmup=case.warmup, wall_s=r["wall_time"]))
            values = metrics_of(case, [f["goodput_bps"] for f in r["flows"]], r["queue_mean"],
                                sum(f["retransmitted"] for f in r["flows"]))
            for metric in METRICS:
                per_seed[metric].append(values[metric])
        for metric in METRICS:
            mean, se = _mean_se(per_seed[metric])
            rel, absolute, basis = case.allowance(metric)
            summary.append(dict(
                scenario=case.name, metric=metric, ns3_mean=mean, ns3_se=se,
                n_seeds=len(case.seeds), tolerance=tolerance(case, metric, mean, se),
                tolerance_basis=(f"{rel:g} x ns-3 + {absolute:g} ({basis}) + 3 sqrt(2) SE of "
                                 f"ns-3's mean over {len(case.seeds)} seeds"),
                ns3_options=_options_text(case.options), description=case.description,
                source=f"ns-3 {version} (PyPI ns3), ctlcc.sim.ns3_matrix"))
    data = ROOT / "data"
    if merge:
        names = {c.name for c in cases}
        note = f"{', '.join(sorted(names))} by {command} (ns-3 {version}, {prov['date']})"
        rows, prov_runs = _merge(data / "ns3_matrix_runs.csv", rows, names, note)
        summary, prov = _merge(data / "ns3_matrix.csv", summary, names, note)
        write_ns3_csv(data / "ns3_matrix_runs.csv", rows, prov_runs)
    else:
        write_ns3_csv(data / "ns3_matrix_runs.csv", rows, prov)
    write_ns3_csv(data / "ns3_matrix.csv", summary, prov)
    print(f"wrote data/ns3_matrix_runs.csv ({len(rows)} rows), data/ns3_matrix.csv "
          f"({len(summary)} rows)")


# --------------------------------------------------------------------------- engine
def engine_metrics(case, seed):
    """The matrix metrics of the engine on (case, seed), over [warmup, duration].

    The engine is deterministic, so a run to ``warmup`` is the first part of
    the full run: the window's goodput and exact mean queue are the
    differences of the two runs' totals.
    """
    return engine_run(case, seed)[0]


def engine_run(case, seed):
    """(:func:`engine_metrics`, the full run's result): for scripts that also report the
    run's per-flow counters (``ns3_phase.py``, ``cubic_ns3_readings.py``)."""
    scenario = case.scenario(seed)
    head = run(scenario, case.warmup, seed=seed, progress=False)
    whole = run(scenario, case.duration, seed=seed, progress=False)
    window = case.duration - case.warmup
    bits = 8 * scenario.payload_bytes
    goodputs = [(w.delivered_unique - h.delivered_unique) * bits / window
                for w, h in zip(whole.flows, head.flows)]
    queue = (whole.queues[0].mean * case.duration - head.queues[0].mean * case.warmup) / window
    return metrics_of(case, goodputs, queue, sum(f.retransmitted for f in whole.flows)), whole


def compare(cases, out=None, merge=False):
    table = read_ns3_csv("ns3_matrix")
    version = table.provenance.get("ns3_version", "?")
    print(f"ns-3 {version} (committed) vs the engine; reproduced iff |ctlcc - ns-3| <= tolerance")
    print(f"{'scenario':>14} {'metric':>14} {'ns-3':>12} {'ctlcc':>12} {'|diff|':>10} "
          f"{'tolerance':>10}  verdict")
    rows = []
    counts = defaultdict(int)
    for case in cases:
        if case.engine_protocols is None:
            print(f"{case.name:>14}  (ns-3 only: the engine has no "
                  f"{'/'.join(sorted(set(case.protocols)))} sender yet)")
            continue
        t0 = time.perf_counter()
        per_seed = defaultdict(list)
        for seed in case.seeds:
            for metric, value in engine_metrics(case, seed).items():
                per_seed[metric].append(value)
        wall = time.perf_counter() - t0
        for metric in METRICS:
            ref = table.where(scenario=case.name, metric=metric)
            if len(ref) != 1:
                raise SystemExit(f"data/ns3_matrix.csv lacks {case.name}/{metric}")
            ns3_mean, tol = float(ref["ns3_mean"][0]), float(ref["tolerance"][0])
            mean, se = _mean_se(per_seed[metric])
            diff = abs(mean - ns3_mean)
            verdict = "reproduced" if diff <= tol else "differs"
            counts[verdict] += 1
            print(f"{case.name:>14} {metric:>14} {ns3_mean:12.5g} {mean:12.5g} {diff:10.3g} "
                  f"{tol:10.3g}  {verdict}")
            rows.append(dict(scenario=case.name, metric=metric, ns3_mean=ns3_mean,
                             ctlcc_mean=mean, ctlcc_se=se, difference=mean - ns3_mean,
                             tolerance=tol, verdict=verdict,
                             tolerance_basis=str(ref["tolerance_basis"][0])))
        print(f"{'':>14} (engine: {len(case.seeds)} seeds in {wall:.1f} s)", flush=True)
    print(f"\n{counts['reproduced']} reproduced, {counts['differs']} differ")
    if out:
        import datetime

        prov = {"source": "ctlcc packet engine (benchmarks/ns3_matrix.py) against the committed "
                          "data/ns3_matrix.csv",
                "ns3_version": version,
                "date": datetime.datetime.now(datetime.timezone.utc).strftime(
                    "%Y-%m-%d %H:%M UTC"),
                "rule": "reproduced iff |ctlcc_mean - ns3_mean| <= tolerance (tolerance and "
                        "basis from data/ns3_matrix.csv, fixed before this comparison)",
                "command": "python benchmarks/ns3_matrix.py --out " + str(out)}
        if merge and Path(out).is_file():  # a subset: replace only these scenarios' rows
            names = {c.name for c in cases}
            rows, prov = _merge(out, rows, names, f"{', '.join(sorted(names))} by "
                                f"{prov['command']} ({prov['date']})")
        write_ns3_csv(out, rows, prov)
        print(f"wrote {out}")


def _mean_se(values):
    x = np.asarray(values, dtype=float)
    if len(x) < 2:
        return float(x.mean()), math.nan
    return float(x.mean()), float(x.std(ddof=1) / math.sqrt(len(x)))


def _options_text(options):
    return (f"sack={options.sack} recovery={options.recovery} "
            f"limited_transmit={options.limited_transmit} timestamps={options.timestamps} "
            f"del_ack_count={options.del_ack_count}")


if __name__ == "__main__":
    main()
