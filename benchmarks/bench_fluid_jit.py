# benchmarks/bench_fluid_jit.py - the fluid model's compiled step loop against its numpy loop
"""CPU time of :func:`ctlcc.sim.fluid.simulate`, compiled loop against numpy loop.

Both loops run in one process on the same calls (``fluid._USE_JIT`` False,
then True, after one call that compiles or loads the compiled loop); each
call is timed ``--repeat`` times and the smallest CPU time kept.  The
script checks that both loops return the same arrays (``np.array_equal``)
and prints the CPU times and the ratio new / old of each workload.  The
workloads are the shapes the tests and the experiments run: one flow class
on one link for 20 000 steps with each law and AQM, a parking lot, and
batches of 100 and 2000 parameter sets; a batch of 10 000 is wider than
``fluid._JIT_MAX_WIDTH`` and runs the numpy loop both ways.

Run from the repository root::

    python benchmarks/bench_fluid_jit.py [--repeat 3] [--quick]
"""

import argparse
import time

import numpy as np

from ctlcc.laws.aqm import PiParams
from ctlcc.sim import fluid

FIELDS = ("queue", "rate", "window", "round_trip", "probability", "reception_rate",
          "mean_queue", "mean_rate", "mean_reception_rate", "dropped")


def workloads(quick):
    one = fluid.network(3750.0, 800.0, 0.2, n_flows=60)
    pi = fluid.Pi(PiParams.design(60, 3750.0, 0.2467, 175.0, 160.0))
    red = fluid.Red(50.0, 300.0, 0.1, averaging=20.0)
    steps = 2_000 if quick else 20_000
    rng = np.random.default_rng(0)
    big = 1_000 if quick else 2_000
    batch = fluid.network(rng.uniform(500.0, 5000.0, big), rng.uniform(20.0, 200.0, big),
                          rng.uniform(0.02, 0.3, big),
                          n_flows=rng.integers(1, 50, big).astype(float))
    wide = fluid.network(rng.uniform(500.0, 5000.0, 5 * big),
                         rng.uniform(20.0, 200.0, 5 * big), rng.uniform(0.02, 0.3, 5 * big),
                         n_flows=rng.integers(1, 50, 5 * big).astype(float))
    hundred = fluid.network(np.linspace(500.0, 5000.0, 100), 200.0, 0.1, n_flows=10)
    lot = fluid.network([1000.0, 600.0], [120.0, 90.0], [0.1, 0.05, 0.07], n_flows=[4, 2, 3],
                        routes=[[1, 1, 0], [1, 0, 1]])
    dt = 1e-3
    return {
        f"Reno, DropTail, 1 link, {steps} steps":
            lambda: fluid.simulate(one, fluid.Reno(), steps * dt, dt),
        f"Reno, PI, 1 link, {steps} steps":
            lambda: fluid.simulate(one, fluid.Reno(initial_window=10.0), steps * dt, dt, aqm=pi),
        f"Reno, RED averaged, 1 link, {steps} steps":
            lambda: fluid.simulate(one, fluid.Reno(), steps * dt, dt, aqm=red),
        f"ST-PD, DropTail, 1 link, {steps} steps":
            lambda: fluid.simulate(one, fluid.Stpd(0.05, 0.2), steps * dt, dt),
        f"Primo, DropTail, 1 link, {steps} steps":
            lambda: fluid.simulate(one, fluid.Primo(), steps * dt, dt),
        f"Reno, DropTail, parking lot, {steps} steps":
            lambda: fluid.simulate(lot, fluid.Reno(), steps * dt, dt),
        f"Reno, DropTail, batch 100, {steps // 10} steps":
            lambda: fluid.simulate(hundred, fluid.Reno(), steps // 10 * dt, dt,
                                   record_every=10),
        f"Reno, DropTail, batch {big}, 1000 steps":
            lambda: fluid.simulate(batch, fluid.Reno(), 1.0, dt, record_every=100),
        f"Reno, DropTail, batch {5 * big} (numpy loop), 1000 steps":
            lambda: fluid.simulate(wide, fluid.Reno(), 1.0, dt, record_every=100),
    }


def _timed(thunk, repeat):
    best, run = np.inf, None
    for _ in range(repeat):
        start = time.process_time()
        run = thunk()
        best = min(best, time.process_time() - start)
    return best, run


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="short runs (a smoke test)")
    args = parser.parse_args()
    jobs = workloads(args.quick)
    fluid._USE_JIT = True
    start = time.process_time()
    next(iter(jobs.values()))()
    print(f"first compiled call (compiles or loads the loop): "
          f"{time.process_time() - start:.2f} s CPU")
    print(f"{'workload':58s} {'numpy [s]':>10s} {'compiled [s]':>12s} {'new/old':>8s}")
    total_old = total_new = 0.0
    for name, thunk in jobs.items():
        fluid._USE_JIT = False
        old, run_old = _timed(thunk, args.repeat)
        fluid._USE_JIT = True
        new, run_new = _timed(thunk, args.repeat)
        same = all(np.array_equal(getattr(run_old, f), getattr(run_new, f), equal_nan=True)
                   for f in FIELDS)
        total_old, total_new = total_old + old, total_new + new
        print(f"{name:58s} {old:10.3f} {new:12.4f} {new / old:8.4f}"
              + ("" if same else "  RESULTS DIFFER"))
    print(f"{'all':58s} {total_old:10.3f} {total_new:12.4f} {total_new / total_old:8.4f}")


if __name__ == "__main__":
    main()
