# benchmarks/callgrind_scaling.py - instructions and cache misses per packet, counted, not timed
"""Instructions and simulated cache misses per delivered packet, 10 against 1000 flows.

The CPU-time curve of ``bench_scaling.py`` moves by up to 2x from minute to
minute on a shared 2-core machine.  This benchmark counts instead: it runs
each point under valgrind's callgrind with a simulated cache (L1 data and
instructions 32 kB 8-way, a last level of 512 kB 8-way: one core's L2 of
the EPYC these benchmarks ran on), with instrumentation switched on only
around the measured runs (``callgrind_control -i on``, after the engine and
the scenario's senders are loaded; the start-up under full instrumentation
took more than 10 minutes), so a point takes some 3-8 minutes.  The counts
are deterministic: the same code and scenario give the same numbers on a
loaded machine or an idle one, so two commits compare to the instruction.

Scenario: ``bench_scaling.py``'s (Reno on an n-flow dumbbell, 1 Mb/s and 13
buffer packets per flow, starts in [0, 1) s).  Each point runs the scenario
for D and for 2D simulated seconds in one process and prints per delivered
packet:

* ``whole``: the run of D, set-up and the result included (what
  ``bench_scaling.py``'s CPU figure divides);
* ``marginal``: the difference of the two runs over their difference in
  packets (the event loop's cost, without what a run pays once);

for Ir (instructions), D1mr/D1mw (first-level data misses, read/write) and
DLmr/DLmw (last-level misses, read/write); with ``--branches``, also Bcm and
Bim (mispredicted conditional and indirect branches, by valgrind's simple
predictor model: a table of 2-bit counters and a branch-target buffer, not
this processor's predictor, so a count to compare, not a cycle figure).  A
first-level miss that hits the second level costs some 12-14 cycles on this
processor and a second-level miss that hits the L3 some 40-50; an
instruction is a fraction of a cycle, a mispredicted branch some 15-20.

Requires valgrind (``apt-get install valgrind``).

Usage::

    python benchmarks/callgrind_scaling.py [--flows 10,1000] [--baseline OTHER_CHECKOUT]
        [--last-level 2097152] [--branches]
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EVENTS = ("Ir", "D1mr", "D1mw", "DLmr", "DLmw")
BRANCH_EVENTS = ("Bcm", "Bim")
# simulated seconds per flow count: D and 2D deliver some 60,000 and 120,000 packets at
# 10 flows, 220,000 and 460,000 at 1000 (whose flows start within the first second)
DURATION = {10: 50.0, 30: 20.0, 100: 6.0, 300: 3.0, 1000: 2.0}

_POINT = r"""
import os, subprocess, sys
import numpy as np
from ctlcc.sim import run, scenarios

n, duration = int(sys.argv[1]), float(sys.argv[2])
run(scenarios.dumbbell(2), 1.0, progress=False)   # load the engine
start = np.random.default_rng(0).uniform(0.0, 1.0, n)
sc = scenarios.dumbbell(n, bottleneck_rate=1e6 * n, buffer=13 * n,
                        start=[float(x) for x in start])
run(sc, duration / 10, progress=False)   # load this scenario's senders and paths


def control(*args):
    subprocess.run(["callgrind_control", *args, str(os.getpid())], check=True,
                   capture_output=True)


control("-z")
control("-i", "on")
once = run(sc, duration, progress=False)
control("-d")
twice = run(sc, 2 * duration, progress=False)
control("-d")
control("-i", "off")
print("PACKETS", once.delivered_packets, once.events, twice.delivered_packets, twice.events)
"""


def _totals(path):
    """Event name -> total of one callgrind dump."""
    names = totals = None
    for line in Path(path).read_text().splitlines():
        if line.startswith("events:"):
            names = line.split()[1:]
        elif line.startswith(("summary:", "totals:")):
            totals = [int(x) for x in line.split()[1:]]
    if names is None or totals is None:
        raise RuntimeError(f"{path}: no events or totals line")
    return dict(zip(names, totals))


def point(n, checkout, duration, ll=524288, branches=False):
    """Per-packet counts (whole, marginal) of one flow count on one checkout.

    *ll*: the simulated last level's size in bytes (16-way above 512 kB);
    *branches*: also count mispredicted branches (Bcm, Bim).
    """
    events = EVENTS + (BRANCH_EVENTS if branches else ())
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        env = dict(os.environ, PYTHONPATH=str(checkout))
        cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no", "--cache-sim=yes",
               "--I1=32768,8,64", "--D1=32768,8,64", f"--LL={ll},{8 if ll <= 524288 else 16},64",
               *(["--branch-sim=yes"] if branches else []),
               f"--callgrind-out-file={out}", sys.executable, "-c", _POINT, str(n),
               str(duration)]
        proc = subprocess.run(cmd, cwd=checkout, env=env, capture_output=True, text=True)
        lines = [x for x in proc.stdout.splitlines() if x.startswith("PACKETS")]
        if proc.returncode != 0 or not lines:
            raise RuntimeError(f"{n} flows: {proc.stderr[-2000:]}")
        p1, e1, p2, e2 = (int(x) for x in lines[0].split()[1:])
        dumps = sorted(Path(tmp).glob("callgrind.out.*"),
                       key=lambda p: int(re.search(r"\.(\d+)$", p.name).group(1)))
        if len(dumps) < 2:
            raise RuntimeError(f"{n} flows: {len(dumps)} dumps, expected 2")
        a, b = _totals(dumps[0]), _totals(dumps[1])
    whole = {k: a[k] / p1 for k in events}
    marginal = {k: (b[k] - a[k]) / (p2 - p1) for k in events}
    return {"packets": p1, "events": e1 / p1, "whole": whole, "marginal": marginal}


def _print(label, n, p, first):
    w, m = p["whole"], p["marginal"]
    events = tuple(w)
    print(f"{label:<10}{n:>6}{p['packets']:>9}{p['events']:>7.2f}  "
          + "".join(f"{w[k]:>9.1f}" for k in events) + "  |"
          + "".join(f"{m[k]:>9.1f}" for k in events), flush=True)
    if first:
        f = first[0]
        print(f"{'':<10}{'x first':>6}{'':>16}  "
              + "".join(_ratio(w[k], f["whole"][k]) for k in events) + "  |"
              + "".join(_ratio(m[k], f["marginal"][k]) for k in events), flush=True)


def _ratio(x, first):
    """x / first, or '-' where the first point counted (almost) none."""
    return f"{x / first:>9.2f}" if first >= 0.5 else f"{'-':>9}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--flows", default="10,1000")
    ap.add_argument("--baseline", type=Path, default=None,
                    help="another checkout, counted point by point beside this one")
    ap.add_argument("--last-level", type=int, default=524288, metavar="BYTES",
                    help="the simulated last level's size (default 512 kB, one core's L2; "
                         "2097152 is where memory_latency.py finds this VM's cliff)")
    ap.add_argument("--branches", action="store_true",
                    help="also count mispredicted branches (valgrind's model; slower)")
    args = ap.parse_args(argv)
    if args.last_level < 65536 or args.last_level & (args.last_level - 1):
        ap.error(f"--last-level: a power of two of at least 65536 bytes, got {args.last_level}")
    for tool in ("valgrind", "callgrind_control"):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} not found: install valgrind (apt-get install valgrind)")
    flows = [int(x) for x in args.flows.split(",")]
    for n in flows:
        if n not in DURATION:
            ap.error(f"--flows: each in {sorted(DURATION)}, got {n}")
    print("Reno, n-flow dumbbell (bench_scaling.py's); per delivered packet; "
          "whole run of D | marginal (run of 2D - run of D)")
    events = EVENTS + (BRANCH_EVENTS if args.branches else ())
    print(f"{'':<10}{'flows':>6}{'packets':>9}{'ev/pkt':>7}  "
          + "".join(f"{k:>9}" for k in events) + "  |" + "".join(f"{k:>9}" for k in events))
    firsts = {}
    for n in flows:
        for label, checkout in ([("baseline", args.baseline)] if args.baseline else []) \
                + [("this", ROOT)]:
            p = point(n, checkout, DURATION[n], args.last_level, args.branches)
            first = firsts.setdefault(label, [])
            _print(label, n, p, first)
            if not first:
                first.append(p)


if __name__ == "__main__":
    main()
