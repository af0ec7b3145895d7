# benchmarks/bench_senders_cpu.py - CPU per delivered packet and per event of every sender
"""CPU cost of every sender on the scenario of ``bench_senders_vs_ns3.py``, against Reno.

A companion of ``bench_senders_vs_ns3.py`` for telling a slow sender from a
loaded machine: the same scenario (the STTP Fig. 3 dumbbell, 10 flows,
random starts in [0, 1) s), each sender timed by the CPU clock of this
process (``time.process_time`` around ``run``, compilation excluded by a
short run first), the least of ``--repeats`` runs, printed as CPU
microseconds per delivered packet and per event and as a multiple of
Reno's.  A CPU clock does not count the time other processes take, though
they still share the caches.

Usage::

    nice -n 10 python benchmarks/bench_senders_cpu.py [--duration 600] [--repeats 5]
        [--senders reno,cubic,iftp]
    nice -n 10 python benchmarks/bench_senders_cpu.py --duration 600 \
        --senders 'sack;Sack(recovery="prr");Cubic(recovery="newreno");Cubic(recovery="rfc6675");cubic'

A ``--senders`` list that holds a ``(`` is split at ``;`` and each entry
may be a ``ctlcc.sim.senders`` expression (a spec with options).
"""

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_senders_vs_ns3 import SENDERS, scenario  # noqa: E402

from ctlcc.sim import run, senders  # noqa: E402


def cpu_of(name, flows, duration, repeats):
    """(least CPU seconds of a run, its result) over *repeats* runs of sender *name*."""
    protocol = name
    if "(" in name:
        protocol = eval(name, {k: getattr(senders, k) for k in senders.__all__})  # noqa: S307
    sc = scenario(protocol, flows)
    run(sc, 1.0, progress=False)  # compile or load the hooks (not timed)
    best, result = None, None
    for _ in range(repeats):
        t = time.process_time()
        r = run(sc, duration, progress=False)
        cpu = time.process_time() - t
        if best is None or cpu < best:
            best, result = cpu, r
    return best, result


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--duration", type=float, default=600.0, help="simulated s")
    ap.add_argument("--flows", type=int, default=10)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--senders", default=None, help="comma-separated subset (reno is added)")
    args = ap.parse_args(argv)
    if args.senders and "(" in args.senders:
        names = [n.strip() for n in args.senders.split(";") if n.strip()]
    else:
        names = args.senders.split(",") if args.senders else list(SENDERS)
    if "reno" not in names:
        names.insert(0, "reno")
    rows = {name: cpu_of(name, args.flows, args.duration, args.repeats) for name in names}
    reno_cpu, reno = rows["reno"]
    reno_pkt = reno_cpu / reno.delivered_packets
    reno_ev = reno_cpu / reno.events
    print(f"{args.flows}-flow dumbbell (sttp_fig3), {args.duration:g} s simulated, least CPU of "
          f"{args.repeats} runs")
    width = max(10, max(len(n) for n in names) + 1)
    print(f"{'sender':<{width}}{'delivered':>11}{'CPU [s]':>9}{'us/pkt':>8}{'x Reno':>8}"
          f"{'events/pkt':>11}{'ns/event':>9}{'x Reno':>8}")
    for name, (cpu, r) in rows.items():
        per_pkt = cpu / r.delivered_packets
        per_ev = cpu / r.events
        print(f"{name:<{width}}{r.delivered_packets:>11}{cpu:>9.3f}{per_pkt * 1e6:>8.3f}"
              f"{per_pkt / reno_pkt:>8.2f}{r.events / r.delivered_packets:>11.2f}"
              f"{per_ev * 1e9:>9.1f}{per_ev / reno_ev:>8.2f}")


if __name__ == "__main__":
    main()
