# benchmarks/scaling_factors.py - which part of a 1000-flow dumbbell makes a packet cost more
"""CPU per delivered packet of five networks that separate what grows with the flow count.

``bench_scaling.py`` finds the cost per packet of an n-flow dumbbell growing
with n (issue 22 §4: target within 2x from 10 to 1000 flows).  Three things
grow with n there: the flows (their rows and retransmission timers), the
channels (four access channels per flow, each a heap entry while it carries
a packet) and the packets in flight (the pool's working set).  Each network
below keeps two of them and changes the third:

* ``dumbbell-10``: 10 flows, 10 Mb/s bottleneck, 130-packet buffer
  (``bench_scaling``'s 10-flow point);
* ``dumbbell-1000``: 1000 flows, 1 Gb/s bottleneck, 13,000-packet buffer
  (``bench_scaling``'s 1000-flow point);
* ``big-pool-10``: 10 flows with the 1000-flow point's bottleneck, a 30,000-packet
  buffer and 1 Gb/s access links (windows up to 4096 packets): about as many
  packets in flight as ``dumbbell-1000``, 10 flows' rows and 42 channels;
* ``shared-access-1000``: the 1000 flows of ``dumbbell-1000`` (their rows and
  timers, the same packets in flight) through one shared 100 Gb/s access
  link and one egress link: 6 channels instead of 4,002;
* ``fast-access-1000``: ``dumbbell-1000`` with 100 Gb/s, 1 us access links
  (bottleneck 6 ms, the same base RTT): 4,002 channels whose packets leave
  them at once, so few are busy at a time (few heap entries) while every
  channel's row is still read on each hop.

Each network runs in a fresh process (after a 1-s run that loads the
compiled engine), ``--repeats`` times, the least CPU counting
(``time.process_time`` around ``ctlcc.sim.run``: set-up, loop and results);
``--rounds`` repeats the set, the networks interleaved (the load of a
shared machine drifts).  Printed per network: delivered packets, events per
packet, packets in flight and heap entries at the end of the run (from a
second, inspected run), and the least CPU per packet over rounds with its
ratio to ``dumbbell-10``.

Usage::

    nice -n 5 python benchmarks/scaling_factors.py [--rounds 3] [--repeats 3]
"""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NETWORKS = ("dumbbell-10", "dumbbell-1000", "big-pool-10", "shared-access-1000",
            "fast-access-1000")

_POINT = r"""
import json, sys, time
import numpy as np
from ctlcc.sim import run, scenarios
from ctlcc.sim._core import layout as K
from ctlcc.sim.engine import _Simulation
from ctlcc.sim.scenarios import Flow, Link, Scenario

name, repeats = sys.argv[1], int(sys.argv[2])
run(scenarios.dumbbell(2), 1.0, progress=False)   # load the engine


def starts(n):
    return [float(x) for x in np.random.default_rng(0).uniform(0.0, 1.0, n)]


if name == "dumbbell-10":
    sc, duration = scenarios.dumbbell(10, bottleneck_rate=10e6, buffer=130, start=starts(10)), 480.0
elif name == "dumbbell-1000":
    sc, duration = scenarios.dumbbell(1000, bottleneck_rate=1e9, buffer=13000,
                                      start=starts(1000)), 5.0
elif name == "big-pool-10":
    sc, duration = scenarios.dumbbell(10, bottleneck_rate=1e9, buffer=30000, access_rate=1e9,
                                      start=starts(10), tcp=scenarios.TcpOptions(
                                          max_window=4096)), 5.0
elif name == "shared-access-1000":
    links = (Link("A", "B", 1e9, 4e-3, 13000), Link("S", "A", 100e9, 1e-3, 100000),
             Link("B", "D", 100e9, 1e-3, 100000))
    flows = tuple(Flow(("S", "A", "B", "D"), "reno", t, name=f"flow{i}")
                  for i, t in enumerate(starts(1000)))
    sc, duration = Scenario("shared_access_1000", links, flows, (("A", "B"),)), 5.0
elif name == "fast-access-1000":
    sc, duration = scenarios.dumbbell(1000, bottleneck_rate=1e9, buffer=13000, access_rate=100e9,
                                      access_delay=1e-6, bottleneck_delay=6e-3,
                                      start=starts(1000)), 5.0
else:
    raise SystemExit(f"unknown network {name!r}")
best = float("inf")
for _ in range(repeats):
    c0 = time.process_time()
    r = run(sc, duration, progress=False)
    best = min(best, time.process_time() - c0)
sim = _Simulation(sc, duration, False, 0.1)
sim.drive(np.random.default_rng(0), False)
timers = int(sim.meta[K.M_TIMERS])   # the timers' own heap (net.schedule)
heap = int(sim.meta[K.M_HEAP]) + timers
print(json.dumps({"name": name, "flows": len(sc.flows), "channels": int(sim.ci.shape[0]),
                  "delivered": int(r.delivered_packets), "events": int(r.events),
                  "cpu": best, "in_flight": int(sim.pi.shape[0] - sim.meta[K.M_NFREE]),
                  "heap": heap, "timers": timers}))
"""


def point(name, repeats):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", _POINT, name, str(repeats)], cwd=ROOT, env=env,
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{name}: {out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--networks", default=",".join(NETWORKS))
    args = ap.parse_args(argv)
    names = args.networks.split(",")
    least, info = {}, {}
    for k in range(args.rounds):
        for name in names:
            p = point(name, args.repeats)
            us = p["cpu"] / p["delivered"] * 1e6
            least[name] = min(least.get(name, float("inf")), us)
            info[name] = p
            print(f"round {k + 1} {name:<20}{us:8.3f} us/packet", flush=True)
    first = least[names[0]]
    print(f"\n{'network':<20}{'flows':>6}{'channels':>9}{'in flight':>10}{'heap':>6}"
          f"{'timers':>7}{'delivered':>10}{'ev/pkt':>7}{'least us/pkt':>13}{'x first':>8}")
    for name in names:
        p = info[name]
        print(f"{name:<20}{p['flows']:>6}{p['channels']:>9}{p['in_flight']:>10}{p['heap']:>6}"
              f"{p['timers']:>7}{p['delivered']:>10}{p['events'] / p['delivered']:>7.2f}"
              f"{least[name]:>13.3f}{least[name] / first:>8.2f}")


if __name__ == "__main__":
    main()
