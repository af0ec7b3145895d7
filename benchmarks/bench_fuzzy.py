# benchmarks/bench_fuzzy.py - speed of the fuzzy supervisor's gain schedule
"""Time ``FuzzySupervisor.gains`` on 1e5 BDPs against skfuzzy.control.

Target (issue 5): ``gains`` on 1e5 BDP values in <= 1 s here, with the
ratio against a per-sample ``ControlSystemSimulation`` loop timed on a
sample in the same run (extrapolated per value).  Both engines give the
same gains (checked here on the sample, and in
``tests/laws/test_stpd_fuzzy.py``).

Run from the repository root::

    python benchmarks/bench_fuzzy.py [--n 100000] [--sample 300] [--repeat 5]
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ctlcc.laws.stpd import FuzzySupervisor  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000, help="BDP values for the fast engine")
    parser.add_argument("--sample", type=int, default=300, help="BDP values for the per-sample baseline")
    parser.add_argument("--repeat", type=int, default=5, help="repeats of the fast engine (best kept)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    rng = np.random.default_rng(args.seed)
    supervisor = FuzzySupervisor()
    low, high = supervisor.config.bdp_universe
    bdp = np.exp(rng.uniform(np.log(low), np.log(high), args.n))

    supervisor.gains(bdp[:100])  # warm-up
    fast = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        kp, kd = supervisor.gains(bdp)
        fast.append(time.perf_counter() - start)
    fast_total = min(fast)

    sample = bdp[: args.sample]
    start = time.perf_counter()
    ref_kp, ref_kd = supervisor.gains(sample, engine="control")
    slow_per_value = (time.perf_counter() - start) / sample.size

    error = max(np.max(np.abs(ref_kp - kp[: args.sample])), np.max(np.abs(ref_kd - kd[: args.sample])))
    per_value_fast = fast_total / args.n
    print(f"membership engine: {args.n} BDPs in {fast_total:.4f} s (best of {args.repeat}); "
          f"{per_value_fast * 1e9:.0f} ns/value; target <= 1 s: {'OK' if fast_total <= 1.0 else 'MISSED'}")
    print(f"skfuzzy.control ControlSystemSimulation, per sample: {slow_per_value * 1e3:.3f} ms/value "
          f"(timed on {sample.size}); extrapolated to {args.n}: {slow_per_value * args.n:.1f} s")
    print(f"speed-up: {slow_per_value / per_value_fast:.0f}x; max |difference| on the sample: {error:.1e}")


if __name__ == "__main__":
    main()
