# benchmarks/bench_import.py - cost of `import ctlcc` against `import numpy`
"""Time ``import ctlcc`` in fresh interpreters against ``import numpy``.

Target (issue 15): ``import ctlcc`` well under a second, loading none of
sympy, python-control, scikit-fuzzy, numba or matplotlib; those load when a
function that needs them is first used (``from ctlcc import stpd_loop``
pays for sympy and python-control).  Every statement runs in a new
interpreter (``python -c``), ``--repeat`` times, and the median is printed
with its ratio to ``import numpy`` timed in the same run.

Run from the repository root::

    python benchmarks/bench_import.py [--repeat 7]
"""

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numpy", "scipy", "sympy", "control", "skfuzzy", "numba", "matplotlib")

PROBE = """
import sys, time, json
t = time.perf_counter()
{statement}
dt = time.perf_counter() - t
print(json.dumps({{"seconds": dt, "loaded": [m for m in {heavy!r} if m in sys.modules]}}))
"""

STATEMENTS = (
    "import numpy",
    "import ctlcc",
    "import ctlcc.bounds",
    "from ctlcc import stpd_loop",
    "from ctlcc import FuzzySupervisor",
)


def _time(statement, repeat):
    runs = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", PROBE.format(statement=statement, heavy=HEAVY)],
                             cwd=ROOT, capture_output=True, text=True, check=True)
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    return statistics.median(r["seconds"] for r in runs), runs[-1]["loaded"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="fresh interpreters per statement")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error(f"--repeat must be >= 1, got {args.repeat}")
    results = {s: _time(s, args.repeat) for s in STATEMENTS}
    base = results["import numpy"][0]
    print(f"median of {args.repeat} fresh interpreters; ratio against `import numpy` ({base:.3f} s)")
    print(f"{'statement':36s} {'time [s]':>9s} {'x numpy':>8s}  heavy modules loaded")
    for statement, (seconds, loaded) in results.items():
        print(f"{statement:36s} {seconds:9.3f} {seconds / base:8.2f}  {', '.join(loaded) or '-'}")
    verdict = "meets" if results["import ctlcc"][0] < 1.0 else "MISSES"
    print(f"`import ctlcc` {verdict} the < 1 s target")


if __name__ == "__main__":
    main()
