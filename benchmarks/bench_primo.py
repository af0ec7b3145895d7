# benchmarks/bench_primo.py - cost of Primo's limit-cycle prediction vs simulating the law
"""Time Primo's limit-cycle predictions against iterating the law.

Baseline: ``PrimoLoop.simulate(model="law")`` (``next_rate`` every slot on the
nonlinear queue) over the same warm-up + cycles that
``limit_cycle(method="iterate")`` covers.  Targets: the piecewise-linear
iteration at least 10x faster than the law baseline; the closed-form reduction
faster still for long round trips; the Cauchy spectral-radius map at least
20x faster than ``numpy.roots`` on the same grid.

Run from the repository root: ``python benchmarks/bench_primo.py``.
"""

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ctlcc import primo_loop  # noqa: E402
from ctlcc.analysis.primo import _coefficient_function, spectral_radius_map  # noqa: E402


def _best(function, repeat=3):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    for capacity in (250.0, 1000.0, 4000.0):
        loop = primo_loop(capacity=capacity, round_trip_time=0.024)
        cycle = loop.limit_cycle()
        horizon = 400 * loop.round_trip_time + 20 * cycle.period
        t_law = _best(lambda: loop.simulate(horizon, model="law"), repeat=1)
        t_iterate = _best(lambda: loop.limit_cycle())
        t_analytic = _best(lambda: loop.limit_cycle(method="analytic"))
        print(f"C={capacity:6.0f} pkt/s m={loop.m:3d}: law {t_law:7.3f} s | iterate {t_iterate:6.3f} s "
              f"(x{t_law / t_iterate:5.1f}) | analytic {t_analytic:6.3f} s (x{t_law / t_analytic:5.1f})")
    grid = np.linspace(0.05, 0.95, 15)
    m = 200
    t_map = _best(lambda: spectral_radius_map(grid, grid, m=m))
    evaluate = _coefficient_function(m, False)
    t_roots = _best(lambda: [[np.max(np.abs(np.roots(evaluate(a, b)))) for b in grid] for a in grid],
                    repeat=1)
    print(f"spectral radius map 15x15, m={m}: Cauchy {t_map:.3f} s vs numpy.roots {t_roots:.3f} s "
          f"(x{t_roots / t_map:.1f})")


if __name__ == "__main__":
    main()
