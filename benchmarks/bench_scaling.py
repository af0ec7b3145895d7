# benchmarks/bench_scaling.py - cost per delivered packet and memory from 10 to 1000 flows
"""CPU per delivered packet and peak memory of the packet engine against the flow count.

Target (issue 22 §4): the cost per delivered packet roughly flat from 10 to
1000 flows (the largest within 2x of the smallest), memory linear in flows
and in-flight packets.

Scenario: an n-flow dumbbell whose bottleneck grows with n, so every flow
keeps the same share (1 Mb/s per flow, 10 Mb/s 1 ms access, 4 ms
bottleneck, a bottleneck buffer of 13 packets per flow - 128 for 10 flows
as in STTP's Fig. 3), flows starting at uniform random times in [0, 1) s.
The simulated time is chosen so that each point delivers about the same
number of packets (``--packets``, at least ``--min-duration`` seconds).

Each flow count runs in a fresh process (so that its peak resident memory
is its own), after a 1-s run of a 2-flow dumbbell that loads the compiled
engine.  Printed per flow count:

* CPU s per delivered packet of the whole ``ctlcc.sim.run`` call (set-up,
  event loop, result building; ``resource.getrusage``), and the *marginal*
  CPU per packet: (CPU of a run twice as long - CPU of the run) / (its
  extra packets), i.e. the event loop's cost without the per-run set-up;
  also the set-up's CPU (the rest) per flow;
* events per delivered packet (the work the protocol asks for);
* memory: the growth of the peak RSS during the run, and tracemalloc's
  peak of the Python/numpy allocations made by the run (the engine's
  arrays are numpy arrays allocated before the loop; the loop allocates
  none), each also per flow.

With ``--repeats k`` each of the two untraced runs is made k times and the
least CPU of each counts.

Ratios against the 10-flow point are the figure of merit (2 shared cores).
``--baseline PATH`` runs every point on another checkout too (e.g. a ``git
worktree`` of the commit before a change), the two alternating point by
point so that both see the same load, and prints the ratios of this
checkout's CPU per packet to the baseline's.  ``--rounds R`` repeats the
sweep R times, the flow counts interleaved in each round, and prints each
flow count's least and median CPU per packet over the rounds and the ratios
to the first flow count (the load of a shared machine drifts over minutes:
one sweep measured its 10-flow and 1000-flow points at loads that differed,
and the 10-flow point alone ranged over 0.69-1.12 us per packet).  With
``--rounds`` and flow counts from 10 (or fewer) to 1000 (or more) the last
line is the verdict on the target: the least whole-run CPU per delivered
packet over the rounds at the last flow count, over the least at the first,
is at most 2 (``TARGET``); and it is judged only if every round ran on a
quiet machine: other processes (and other guests' steal time) used at most
0.1 CPU on average in each round (``QUIET``; /proc/stat's busy time less this
script's and its children's CPU).

Why the least values (the tenth session's rule; the ninth's was the median over
the rounds of each round's ratio): interference only adds time, and on the
shared machine these benchmarks ran on it slows the 10-flow point more than the
1000-flow point, which shrinks a round's ratio.  A job on the other vCPU made
the 10-flow point's CPU per packet 1.7-1.9x (0.45 -> 0.83-0.88 us); a sweep
run beside another job's simulations read 1.77 by the median rule, "met",
where a round on the quiet machine minutes before read 2.26.  And a slowdown
this VM cannot see does the same: in a sweep whose rounds all showed 0.00 CPU
of other processes, two rounds' 10-flow points ran at 0.74 and 0.82 us, the
third's at 0.41, and the median rule read 1.38, "met", where the least values
read 2.31 (benchmarks/README.md, tenth session).  The least of several rounds
is the estimate of each point's cost without interference; the median of
ratios is printed beside it.
The whole-run figure, not the marginal one: the marginal is a difference
of two runs and scattered over 1.6-3.6x at 1000 flows in rounds whose
whole-run ratios agreed within 10% (benchmarks/README.md, ninth session).

Usage::

    nice -n 10 python benchmarks/bench_scaling.py [--flows 10,30,100,300,1000]
        [--protocol reno] [--packets 300000] [--repeats 3]
        [--baseline /path/to/old/checkout] [--rounds 3]
    nice -n 10 python benchmarks/bench_scaling.py --heap
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
#: the issue's bound on the growth of the CPU per delivered packet (largest / first flow count)
TARGET = 2.0
#: the most CPUs other processes may use on average in a round for the verdict to be given
QUIET = 0.1

_POINT = r"""
import json, resource, sys, tracemalloc
import numpy as np
from ctlcc.sim import run, scenarios

n, protocol, duration = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
repeats = int(sys.argv[4])


def rss():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: kB


def cpu():
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime


run(scenarios.dumbbell(2, protocol=protocol), 1.0, progress=False)   # load the engine
start = np.random.default_rng(0).uniform(0.0, 1.0, n)
sc = scenarios.dumbbell(n, bottleneck_rate=1e6 * n, buffer=13 * n, protocol=protocol,
                        start=[float(x) for x in start])
rss0 = rss()
tracemalloc.start()
c0 = cpu()
r = run(sc, duration, progress=False)
c1 = cpu()
peak = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
# untraced runs for the CPU figures (tracemalloc slows Python's allocations): the
# run of *duration* and one twice as long; their difference is the marginal cost
# per packet, without the set-up and result building that do not grow with time;
# each the least of *repeats* runs (the others lost the CPU or the caches to other jobs)
once, twice = [], []
for _ in range(repeats):
    c2 = cpu()
    r = run(sc, duration, progress=False)
    c3 = cpu()
    r2 = run(sc, 2 * duration, progress=False)
    c4 = cpu()
    once.append(c3 - c2)
    twice.append(c4 - c3)
print(json.dumps({"n": n, "duration": duration, "delivered": int(r.delivered_packets),
                  "events": int(r.events), "loop_wall": r.wall_time, "cpu": min(once),
                  "marginal": (min(twice) - min(once))
                  / (r2.delivered_packets - r.delivered_packets),
                  "cpu_traced": c1 - c0, "rss_growth": rss() - rss0, "traced_peak": peak,
                  "rss0": rss0}))
"""


def point(n, protocol, duration, checkout=ROOT, repeats=1):
    """One flow count in a fresh process importing ctlcc from *checkout* (its cwd)."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    out = subprocess.run([sys.executable, "-c", _POINT, str(n), protocol, str(duration),
                          str(repeats)],
                         cwd=checkout, env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{n} flows: {out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


_HEAP = r"""
import time
import numba
import numpy as np
from ctlcc.sim._core.layout import M_HEAP, NM
from ctlcc.sim._core.net import heap_pop, heap_push
from ctlcc.sim.engine import _heap_table


@numba.njit
def churn(hf, hi, meta, resident, ops, seed):
    np.random.seed(seed)
    for i in range(resident):
        heap_push(hf, hi, meta, np.random.random(), 0, i, 0)
    for i in range(ops):  # hold model: pop the earliest, push it back up to 1 s later
        t, k, a, b = heap_pop(hf, hi, meta)
        heap_push(hf, hi, meta, t + np.random.random(), k, a, b)
    return meta[M_HEAP]


def arrays(size):
    hi, hf = _heap_table(size)   # the engine's heap table
    return [hf, hi, np.zeros(NM, np.int64)]


churn(*arrays(80), 60, 10, 0)
for resident in (60, 200, 600, 2000, 6000, 20000, 60000):
    best = np.inf
    for _ in range(3):
        a = arrays(resident + 16)
        t0 = time.process_time()
        churn(*a, resident, 2_000_000, 1)
        best = min(best, time.process_time() - t0)
    print(f"  heap of {resident:6d} events: {best / 2e6 * 1e9:6.1f} ns per pop + push")
"""


def heap():
    """CPU of one pop + push of the engine's event heap against the events it holds."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    print("the engine's binary heap (net.heap_pop / net.heap_push), hold model, best of 3:",
          flush=True)
    subprocess.run([sys.executable, "-c", _HEAP], cwd=ROOT, env=env, check=True)


def _row(label, n, duration, p, first):
    cpu = p["cpu"] / p["delivered"] * 1e6
    marginal = p["marginal"] * 1e6
    setup = (p["cpu"] - p["marginal"] * p["delivered"]) / n * 1e3
    if not first:
        first.extend((cpu, marginal))
    print(f"{label:<9}{n:>6}{duration:>7.0f}{p['delivered']:>11}"
          f"{p['events'] / p['delivered']:>8.2f}{cpu:>12.3f}{cpu / first[0]:>8.2f}"
          f"{marginal:>10.3f}{marginal / first[1]:>8.2f}{setup:>12.2f}"
          f"{p['rss_growth'] / 2**20:>9.1f}{p['rss_growth'] / n / 1024:>9.1f}"
          f"{p['traced_peak'] / 2**20:>10.1f}{p['traced_peak'] / n / 1024:>9.1f}", flush=True)
    return cpu, marginal


def rounds(flows, args):
    """The sweep *args.rounds* times over, the flow counts interleaved within each round.

    On a shared machine the load drifts over minutes, and one sweep measures its
    first and last flow counts at different loads; within a round they are
    measured a minute apart.  Printed: each round's row, then per flow count the
    least and the median CPU per packet over the rounds, and the ratio to the
    first flow count: of the least values, and each round's own (median, range).
    """
    table = {n: [] for n in flows}
    others = []
    for k in range(args.rounds):
        first = []
        before = _machine_cpu()
        for n in flows:
            duration = max(args.min_duration, args.packets / (125.0 * n))
            p = point(n, args.protocol, duration, repeats=args.repeats)
            table[n].append(_row(f"round {k + 1}", n, duration, p, first))
        others.append(_others_load(before, _machine_cpu()))
        if others[-1] is not None:
            print(f"round {k + 1}: other processes used {others[-1]:.2f} CPUs on average",
                  flush=True)
    base = table[flows[0]]
    print(f"over {args.rounds} rounds: CPU per delivered packet (whole run) [us]")
    print(f"{'flows':>6}{'least':>8}{'median':>8}{'least/first':>13}"
          f"{'per-round ratio: median':>25}{'range':>15}")
    for n in flows:
        cpu = [row[0] for row in table[n]]
        ratios = [row[0] / b[0] for row, b in zip(table[n], base)]
        print(f"{n:>6}{min(cpu):>8.3f}{np.median(cpu):>8.3f}"
              f"{min(cpu) / min(b[0] for b in base):>13.2f}{np.median(ratios):>25.2f}"
              f"{min(ratios):>8.2f}-{max(ratios):.2f}", flush=True)
    if flows[0] > 10 or flows[-1] < 1000:
        print(f"target (issue 22 §4): stated from 10 to 1000 flows, not judged on "
              f"{flows[0]}-{flows[-1]}", flush=True)
        return
    if any(x is None for x in others):
        print("target (issue 22 §4): not judged, the machine's load could not be read "
              "(/proc/stat)", flush=True)
        return
    if max(others) > QUIET:
        print(f"target (issue 22 §4): not judged, the machine was not quiet (other "
              f"processes used up to {max(others):.2f} CPUs in a round; the rule asks for "
              f"at most {QUIET:g})", flush=True)
        return
    last = min(row[0] for row in table[flows[-1]]) / min(row[0] for row in base)
    print(f"target (issue 22 §4, the rule in the docstring): least whole-run CPU per "
          f"packet over {args.rounds} rounds, {flows[-1]} flows over {flows[0]}: {last:.2f} "
          f"{'<=' if last <= TARGET else '>'} {TARGET:g}: "
          f"{'met' if last <= TARGET else 'not met'}", flush=True)


def _machine_cpu():
    """(CPU seconds the whole machine has been busy, ours and our children's, wall time),
    or None where /proc/stat cannot be read."""
    try:
        with open("/proc/stat") as fh:
            fields = [int(x) for x in fh.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    # user nice system idle iowait irq softirq steal: busy = all but idle and iowait
    busy = sum(fields[:8]) - fields[3] - fields[4]
    mine = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):   # children: the points
        usage = resource.getrusage(who)
        mine += usage.ru_utime + usage.ru_stime
    return busy / os.sysconf("SC_CLK_TCK"), mine, time.monotonic()


def _others_load(before, after):
    """Average CPUs used by other processes (and other guests' steal) between two reads."""
    if before is None or after is None:
        return None
    wall = after[2] - before[2]
    other = (after[0] - before[0]) - (after[1] - before[1])
    return max(other, 0.0) / wall if wall > 0 else None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--flows", default="10,30,100,300,1000")
    ap.add_argument("--protocol", default="reno")
    ap.add_argument("--packets", type=float, default=3e5,
                    help="about how many packets each point delivers")
    ap.add_argument("--min-duration", type=float, default=10.0, help="[s] simulated")
    ap.add_argument("--repeats", type=int, default=1,
                    help="untraced runs per point; the least CPU counts")
    ap.add_argument("--rounds", type=int, default=1,
                    help="repeat the sweep, flow counts interleaved; summary over rounds")
    ap.add_argument("--baseline", type=Path, default=None,
                    help="another checkout, run point by point beside this one")
    ap.add_argument("--heap", action="store_true",
                    help="only the heap micro-benchmark (the cost of an event against the "
                         "events pending)")
    args = ap.parse_args(argv)
    if args.heap:
        heap()
        return
    flows = [int(x) for x in args.flows.split(",")]
    print(f"{args.protocol}: n-flow dumbbell, 1 Mb/s and 13 packets of buffer per flow, "
          f"about {args.packets:,.0f} delivered packets per point")
    print(f"{'':<9}{'flows':>6}{'sim s':>7}{'delivered':>11}{'ev/pkt':>8}{'CPU us/pkt':>12}"
          f"{'x first':>8}{'marginal':>10}{'x first':>8}{'setup ms/fl':>12}{'RSS +MB':>9}"
          f"{'kB/flow':>9}{'traced MB':>10}{'kB/flow':>9}", flush=True)
    first, first_old = [], []
    if args.rounds > 1:
        if args.baseline is not None:
            ap.error("--rounds and --baseline do not combine (run --rounds on each checkout)")
        rounds(flows, args)
        return
    for n in flows:
        # 125 packets/s per flow at 1 Mb/s of 1000-byte packets
        duration = max(args.min_duration, args.packets / (125.0 * n))
        if args.baseline is None:
            _row("", n, duration, point(n, args.protocol, duration, repeats=args.repeats),
                 first)
            continue
        old = _row("baseline", n, duration,
                   point(n, args.protocol, duration, args.baseline, args.repeats), first_old)
        new = _row("this", n, duration, point(n, args.protocol, duration, repeats=args.repeats),
                   first)
        print(f"{'':<9}{n:>6}  this/baseline: CPU per packet {new[0] / old[0]:.2f}, "
              f"marginal {new[1] / old[1]:.2f}", flush=True)


if __name__ == "__main__":
    main()
