# benchmarks/bench_sim_vs_ns3.py - packet engine speed against ns-3 in the same run
"""Packets delivered per wall-clock second: ctlcc's engine vs ns-3.

Scenario: STTP Fig. 3 dumbbell with 20 flows (10 Mb/s 1 ms access, 2 Mb/s
4 ms bottleneck, 128-packet queues), Reno senders (ns-3: NewReno with its
default SACK/PRR recovery), flows starting at uniform random times in
[0, 1) s, 600 simulated seconds.  Both simulators run the same
:class:`~ctlcc.sim.scenarios.Scenario` in this one invocation.

What is timed, on each side, is the simulation itself:

* ctlcc: ``SimResult.wall_time``, the event loop (numba compilation is
  excluded: a short run compiles it first), and, for reference, the whole
  ``ctlcc.sim.run`` call (scenario set-up and result building included);
* ns-3: ``Simulator::Run`` (``Ns3Result.wall_time``), measured inside the
  worker process; importing ns-3 (about 10 s), building the topology and
  reading the results are not timed.

Targets (issue 6): ctlcc at least ns-3's rate, aiming for 10x.  Also
printed: events per second (not comparable across the two: an ns-3
packet hop is several events - enqueue, transmit-complete, receive - where
ctlcc's engine uses one event per packet per hop) and peak RSS (the ns-3
worker's includes the ns-3/cling libraries, about 700 MB before the run
starts; the growth during the run is printed separately).

Usage: ``python benchmarks/bench_sim_vs_ns3.py [--duration 600] [--flows 20]``.
"""

import argparse
import resource
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ctlcc.sim import run  # noqa: E402
from ctlcc.sim.ns3 import run_ns3  # noqa: E402
from ctlcc.sim.scenarios import preset  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=600.0, help="simulated seconds")
    parser.add_argument("--flows", type=int, default=20)
    parser.add_argument("--protocol", default="reno")
    args = parser.parse_args(argv)

    start = np.random.default_rng(0).uniform(0.0, 1.0, args.flows)
    scenario = preset("sttp_fig3", n=args.flows, protocol=args.protocol,
                      start=[float(x) for x in start])

    run(scenario, 1.0, progress=False)  # compile the numba event loop (not timed)
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.perf_counter()
    ours = run(scenario, args.duration, progress=False)
    call = time.perf_counter() - t0
    rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    peer = run_ns3(scenario, args.duration)

    rows = [
        ("ctlcc", ours.delivered_packets, ours.wall_time, ours.events,
         rss1 * 1024, (rss1 - rss0) * 1024, ours.goodputs_bps.sum()),
        ("ns-3 " + peer.ns3_version, peer.delivered_packets, peer.wall_time, peer.events,
         peer.peak_rss_bytes, peer.rss_growth_bytes, peer.goodputs_bps.sum()),
    ]
    print(f"{args.flows}-flow dumbbell (sttp_fig3), {args.protocol}, {args.duration:g} s simulated")
    print(f"{'simulator':>16} {'delivered':>10} {'wall [s]':>9} {'pkts/s':>10} {'events':>10}"
          f" {'events/s':>10} {'peak RSS':>9} {'RSS growth':>10} {'goodput':>9}")
    for name, delivered, wall, events, rss, growth, goodput in rows:
        print(f"{name:>16} {delivered:10d} {wall:9.3f} {delivered / wall:10.0f} {events:10d}"
              f" {events / wall:10.0f} {rss / 2**20:7.0f}MB {growth / 2**20:8.1f}MB"
              f" {goodput / 1e6:7.3f}Mb/s")
    ratio = (ours.delivered_packets / ours.wall_time) / (peer.delivered_packets / peer.wall_time)
    print(f"ctlcc / ns-3 packets delivered per wall-clock second: {ratio:.1f}x "
          f"(target >= 1x, aim 10x); whole ctlcc.sim.run call {call:.3f} s "
          f"-> {ours.delivered_packets / call / (peer.delivered_packets / peer.wall_time):.1f}x")


if __name__ == "__main__":
    main()
