# benchmarks/ns3_rtt_unfairness.py - issue 22's RTT-unfairness example, one factor at a time
"""Two flows, base RTTs 20 and 100 ms, 10 Mb/s bottleneck: ctlcc against ns-3.

The scenario is ``rtt5_bdp1`` of :mod:`ctlcc.sim.ns3_matrix` (1-BDP buffer
of 71 packets, access links at 100 Mb/s, flows starting uniformly in
[0, 1) s, 60-s runs, goodput after 10 s, seeds 1-4) and ``rtt5_phase``
(the same with access links at the bottleneck's 10 Mb/s: the drop-tail
phase regime).  Factors switched one at a time:

* ns-3: SACK (on/off), recovery (PRR / classic), limited transmit,
  timestamps (:data:`NS3_SIDE`);
* ctlcc: sender (``newreno`` / ``sack``), ``TcpOptions.timestamps``
  (RFC 7323 RTT measurement vs Karn), ``limited_transmit``, initial
  window (:data:`CTLCC_SIDE`).

Usage::

    nice -n 10 python benchmarks/ns3_rtt_unfairness.py --work /tmp/rtt --write-data
    python benchmarks/ns3_rtt_unfairness.py --ctlcc-only

``--write-data`` writes ``data/ns3_rtt_unfairness.csv`` (one row per
simulator, variant and seed).
"""

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ctlcc.sim.ns3 import NS3_VARIANTS, Ns3Options, provenance, run_ns3_many  # noqa: E402
from ctlcc.sim.ns3 import write_ns3_csv  # noqa: E402
from ctlcc.sim.ns3_matrix import matrix_case  # noqa: E402
from ctlcc.sim.scenarios import TcpOptions  # noqa: E402

#: ns-3 variants: name -> (scenario, options).
NS3_SIDE = {
    "default (SACK, PRR, LT)": ("rtt5_bdp1", NS3_VARIANTS["default"]),
    "SACK, PRR, no LT": ("rtt5_bdp1", Ns3Options(sack=True, recovery="prr",
                                                 limited_transmit=False)),
    "SACK, classic, LT": ("rtt5_bdp1", NS3_VARIANTS["classic"]),
    "SACK, classic, no LT": ("rtt5_bdp1", Ns3Options(sack=True, recovery="classic",
                                                     limited_transmit=False)),
    "no SACK, classic, no LT": ("rtt5_bdp1", Ns3Options(sack=False, recovery="classic",
                                                        limited_transmit=False)),
    "no SACK, classic, no LT, no timestamps": ("rtt5_bdp1", Ns3Options(
        sack=False, recovery="classic", limited_transmit=False, timestamps=False)),
    "phase: default (SACK, PRR, LT)": ("rtt5_phase", NS3_VARIANTS["default"]),
    "phase: SACK, classic, no LT": ("rtt5_phase", Ns3Options(sack=True, recovery="classic",
                                                             limited_transmit=False)),
    "phase: no SACK, classic, no LT": ("rtt5_phase", Ns3Options(
        sack=False, recovery="classic", limited_transmit=False)),
}

#: ctlcc variants: name -> (scenario, protocol, TcpOptions).
CTLCC_SIDE = {
    "newreno, Karn": ("rtt5_bdp1", "newreno", TcpOptions()),
    "newreno, timestamps": ("rtt5_bdp1", "newreno", TcpOptions(timestamps=True)),
    "newreno, timestamps, LT": ("rtt5_bdp1", "newreno",
                                TcpOptions(timestamps=True, limited_transmit=True)),
    "newreno, timestamps, IW 10": ("rtt5_bdp1", "newreno",
                                   TcpOptions(timestamps=True, initial_window=10)),
    "sack, Karn": ("rtt5_bdp1", "sack", TcpOptions()),
    "sack, timestamps": ("rtt5_bdp1", "sack", TcpOptions(timestamps=True)),
    "sack, timestamps, LT": ("rtt5_bdp1", "sack", TcpOptions(timestamps=True,
                                                             limited_transmit=True)),
    "phase: newreno, timestamps": ("rtt5_phase", "newreno", TcpOptions(timestamps=True)),
    "phase: sack, timestamps": ("rtt5_phase", "sack", TcpOptions(timestamps=True)),
    "phase: newreno, Karn": ("rtt5_phase", "newreno", TcpOptions()),
}


def ns3_rows(work=None):
    rows = []
    work = Path(work) if work else None
    if work:
        work.mkdir(parents=True, exist_ok=True)
    for label, (name, options) in NS3_SIDE.items():
        case = matrix_case(name)
        saved = work / (label.replace(" ", "_").replace(",", "").replace(":", "")
                        .replace("(", "").replace(")", "") + ".json") if work else None
        if saved and saved.is_file():
            runs = json.loads(saved.read_text())
        else:
            t0 = time.perf_counter()
            results = run_ns3_many([dict(scenario=case.scenario(s), duration=case.duration,
                                         seed=s, warmup=case.warmup, options=options)
                                    for s in case.seeds])
            runs = [dict(g=[f.goodput_bps for f in r.flows], q=r.queues[0].mean,
                         retx=sum(f.retransmitted for f in r.flows),
                         to=sum(f.timeouts for f in r.flows), version=r.ns3_version)
                    for r in results]
            print(f"ns-3 {label}: {time.perf_counter() - t0:.0f} s", flush=True)
            if saved:
                saved.write_text(json.dumps(runs))
        for seed, r in zip(case.seeds, runs):
            rows.append(dict(simulator=f"ns-3 {r.get('version', '')}".strip(), scenario=name,
                             variant=label, seed=seed, goodput_short=r["g"][0],
                             goodput_long=r["g"][1], share_ratio=r["g"][0] / r["g"][1],
                             queue_mean=r["q"], retransmitted=r["retx"], timeouts=r["to"]))
    return rows


def ctlcc_rows():
    from ctlcc.sim import run

    rows = []
    for label, (name, protocol, tcp) in CTLCC_SIDE.items():
        case = matrix_case(name)
        for seed in case.seeds:
            sc = dataclasses.replace(case.scenario(seed).with_flows(protocol=protocol), tcp=tcp)
            head = run(sc, case.warmup, seed=seed, progress=False)
            whole = run(sc, case.duration, seed=seed, progress=False)
            window = case.duration - case.warmup
            g = [(w.delivered_unique - h.delivered_unique) * 8 * sc.payload_bytes / window
                 for w, h in zip(whole.flows, head.flows)]
            queue = (whole.queues[0].mean * case.duration
                     - head.queues[0].mean * case.warmup) / window
            rows.append(dict(simulator="ctlcc", scenario=name, variant=label, seed=seed,
                             goodput_short=g[0], goodput_long=g[1],
                             share_ratio=g[0] / g[1] if g[1] > 0 else float("inf"),
                             queue_mean=queue,
                             retransmitted=sum(f.retransmitted for f in whole.flows),
                             timeouts=sum(f.timeouts for f in whole.flows)))
    return rows


def summary(rows):
    groups = {}
    for r in rows:
        groups.setdefault((r["simulator"], r["variant"]), []).append(r)
    print(f"{'simulator':>10} {'variant':>40} {'short/long':>14} {'median':>7} {'total Mb/s':>10} "
          f"{'queue':>6} {'retx':>6} {'TOs':>5}")
    for (sim, variant), rs in groups.items():
        ratio = np.array([r["share_ratio"] for r in rs])
        se = ratio.std(ddof=1) / np.sqrt(len(ratio))
        total = np.mean([r["goodput_short"] + r["goodput_long"] for r in rs]) / 1e6
        print(f"{sim[:10]:>10} {variant:>40} {ratio.mean():7.2f} +-{se:5.2f} "
              f"{np.median(ratio):7.2f} {total:10.2f} "
              f"{np.mean([r['queue_mean'] for r in rs]):6.1f} "
              f"{np.mean([r['retransmitted'] for r in rs]):6.0f} "
              f"{np.mean([r['timeouts'] for r in rs]):5.1f}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", help="keep/reuse ns-3 results in this directory")
    parser.add_argument("--ctlcc-only", action="store_true")
    parser.add_argument("--write-data", action="store_true")
    args = parser.parse_args(argv)
    rows = [] if args.ctlcc_only else ns3_rows(args.work)
    rows += ctlcc_rows()
    summary(rows)
    if args.write_data:
        if args.ctlcc_only:
            parser.error("--write-data needs the ns-3 side")
        prov = provenance(None, seeds=[1, 2, 3, 4],
                          command="python benchmarks/ns3_rtt_unfairness.py --write-data",
                          ns3_version=rows[0]["simulator"].split()[-1])
        prov["ns3_options"] = "per row: the variant column (benchmarks/ns3_rtt_unfairness.py)"
        prov["scenarios"] = ("rtt5_bdp1 and rtt5_phase of ctlcc.sim.ns3_matrix (20/100 ms, "
                             "10 Mb/s, 71-packet buffer; access 100 vs 10 Mb/s)")
        for r in rows:
            r["source"] = ("Riley & Henderson (2010): ns-3" if r["simulator"].startswith("ns-3")
                           else "ctlcc packet engine")
        write_ns3_csv(ROOT / "data" / "ns3_rtt_unfairness.csv", rows, prov)
        print("wrote data/ns3_rtt_unfairness.csv")


if __name__ == "__main__":
    main()
