# benchmarks/cubic_ns3_readings.py - which of ns-3's CUBIC readings moves the engine toward ns-3
"""The ``cubic_prr_*`` matrix scenarios with each of ns-3.44's CUBIC readings in the engine.

For each scenario, each engine sender (``--sender EXPR``, repeatable; by default the
RFC 9438 sender, each ``Cubic(avoidance=...)`` part alone, all of them, and with
``slow_start="ns3"``, over the matrix's PRR and over ns-3's, ``recovery="prr-ns3"``) and the scenario's seeds, runs the engine to the warm-up and to the
end (the matrix's metrics over [warmup, duration], as ``benchmarks/ns3_matrix.py``) and
prints the means over the seeds of retransmissions, drops, fast retransmits, timeouts,
mean queue, share ratio, Jain's index and goodput; the first row is ns-3's, from the committed
``data/ns3_matrix_runs.csv`` (same seeds; ns-3 is not run).  Engine only, one run at a
time (``docs/ns3_agreement.md``, "Which of ns-3's CUBIC readings moves the loss count").

Usage (from the repository root)::

    nice -n 10 python benchmarks/cubic_ns3_readings.py cubic_prr_rtt1 cubic_prr_n10
    nice -n 10 python benchmarks/cubic_ns3_readings.py cubic_prr_rtt1 --seed 1 \\
        --sender 'Cubic(limited_transmit=False, avoidance="count")'
"""

import argparse
import csv
import dataclasses
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ctlcc.sim import ns3_matrix as M  # noqa: E402
from ctlcc.sim import senders  # noqa: E402
from ctlcc.sim.scenarios import dumbbell  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from ns3_matrix import engine_run  # noqa: E402

_READINGS = ("", ', avoidance="count"', ', avoidance="min-rtt"', ', avoidance="alpha"',
             ', avoidance="ssthresh"', ', avoidance="timeout-wmax"', ', avoidance="ns3"',
             ', slow_start="ns3"', ', avoidance="ns3", slow_start="ns3"')
#: the default senders: the matrix's (RFC 6937 PRR) and ns-3's PRR ("prr-ns3"), each with
#: RFC 9438's growth, each ns-3 part alone, all of them, and with ns-3's slow start
SENDERS = [f'Cubic(limited_transmit=False{rec}{x})'
           for rec in ("", ', recovery="prr-ns3"') for x in _READINGS]
COLUMNS = ("retransmitted", "dropped", "fast_retransmits", "timeouts", "queue_mean",
           "share_ratio", "jain", "goodput_total")


def with_senders(case, spec):
    """*case* with every flow's engine sender replaced by *spec* (dumbbell scenarios)."""
    cell = dict(zip(case.build.__code__.co_freevars,
                    [c.cell_contents for c in case.build.__closure__]))
    engine = [spec] * len(cell["engine"])

    def build(starts):
        return dumbbell(len(cell["delays"]), access_rate=cell["access_ratio"] * cell["rate"],
                        access_delay=list(cell["delays"]), bottleneck_rate=cell["rate"],
                        bottleneck_delay=M._BOTTLENECK_DELAY, buffer=cell["buffer"],
                        loss=cell["loss"], protocol=engine, start=starts, name=case.name,
                        tcp=M.MATRIX_TCP)

    return dataclasses.replace(case, build=build, engine_protocols=tuple(engine))


def engine_row(case, seed):
    """The matrix metrics of one engine run, with drops and timeouts of all flows."""
    row, whole = engine_run(case, seed)
    row["dropped"] = float(sum(f.dropped for f in whole.flows))
    row["timeouts"] = float(sum(f.timeouts for f in whole.flows))
    row["fast_retransmits"] = float(sum(f.fast_retransmits for f in whole.flows))
    return row


def ns3_rows(case, seeds):
    """ns-3's runs of *case* from data/ns3_matrix_runs.csv, one row per seed."""
    runs = {}
    with open(ROOT / "data" / "ns3_matrix_runs.csv") as fh:
        for rec in csv.DictReader(line for line in fh if not line.startswith("#")):
            if rec["scenario"] == case.name and int(rec["seed"]) in seeds:
                runs.setdefault(int(rec["seed"]), []).append(rec)
    rows = []
    for seed in seeds:
        flows = sorted(runs[seed], key=lambda r: int(r["flow"]))
        row = M.metrics_of(case, [float(r["goodput_bps"]) for r in flows],
                           float(flows[0]["queue_mean"]),
                           sum(float(r["retransmitted"]) for r in flows))
        row["dropped"] = sum(float(r["dropped"]) for r in flows)
        row["timeouts"] = sum(float(r["timeouts"]) for r in flows)
        row["fast_retransmits"] = sum(float(r["fast_retransmits"]) for r in flows)
        rows.append(row)
    return rows


def line(label, rows):
    means = [np.mean([r[c] for r in rows]) for c in COLUMNS]
    return (f"| {label} | {means[0]:.0f} | {means[1]:.0f} | {means[2]:.1f} | {means[3]:.1f} | "
            f"{means[4]:.1f} | {means[5]:.2f} | {means[6]:.3f} | {means[7] / 1e6:.3f} |")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("case", nargs="+")
    parser.add_argument("--seed", action="append", type=int, help="default: the scenario's")
    parser.add_argument("--sender", action="append", help="a ctlcc.sim.senders expression")
    args = parser.parse_args(argv)
    names = {k: getattr(senders, k) for k in senders.__all__}
    for name in args.case:
        case = M.matrix_case(name)
        seeds = args.seed or list(case.seeds)
        print(f"\n{name}, seeds {seeds} (means over the seeds; retransmission, drop and "
              "recovery counts over the whole run, the rest over [warmup, duration])", flush=True)
        print("| sender | retransmitted | dropped | fast retransmits | timeouts | queue [pkts] | "
              "share ratio | Jain | goodput [Mb/s] |")
        print("|---|---|---|---|---|---|---|---|---|")
        print(line("ns-3.44 (committed runs)", ns3_rows(case, seeds)), flush=True)
        for expr in args.sender or SENDERS:
            spec = eval(expr, names)  # noqa: S307
            shifted = with_senders(case, spec)
            start = time.perf_counter()
            rows = [engine_row(shifted, seed) for seed in seeds]
            per_seed = ", ".join(f"{r['retransmitted']:.0f}" for r in rows)
            print(line(f"`{expr}`", rows) + f" <!-- retransmitted per seed {per_seed}; "
                  f"{time.perf_counter() - start:.0f} s -->", flush=True)


if __name__ == "__main__":
    main()
