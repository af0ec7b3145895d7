# benchmarks/bench_stability_region.py - speed of the vectorised ST-PD stability map
"""Time ``stability_region`` on a 1000 x 1000 (kp, kd) grid at m = 3.

Targets (issue 2): <= 0.5 s for the whole grid, and >= 300x faster per
point than a per-point python-control loop (``control.TransferFunction``
of the closed loop, then ``.poles()``), timed on a random sample of the same
grid in the same run.  The two maps are also compared on the sample.

Run from the repository root: ``python benchmarks/bench_stability_region.py``.
"""

import time

import control
import numpy as np

from ctlcc.analysis import stability_region
from ctlcc.analysis.stpd import spectral_radius

M = 3
GRID = 1000
SAMPLE = 2000
REPEATS = 5


def per_point_python_control(kp, kd, m):
    """Baseline: one python-control transfer function per gain pair."""
    # A/R(z) denominator of thesis eq. (4.11): z^(m-1)(z-1)^2 + (kp+kd) z - kd
    den = np.polyadd(np.concatenate([[1.0, -2.0, 1.0], np.zeros(m - 1)]), [kp + kd, -kd])
    system = control.TransferFunction([kp + kd, -kd], den, dt=1)
    return bool(np.all(np.abs(system.poles()) < 1))


def main():
    kp = np.linspace(0.0, 1.0, GRID)
    kd = np.linspace(0.0, 1.0, GRID)
    stability_region(M, kp[:10], kd[:10])  # warm the derivation cache

    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        region = stability_region(M, kp, kd)
        times.append(time.perf_counter() - start)
    vectorised = min(times)

    rng = np.random.default_rng(2026)
    rows = rng.integers(0, GRID, SAMPLE)
    cols = rng.integers(0, GRID, SAMPLE)
    start = time.perf_counter()
    baseline = [per_point_python_control(kp[i], kd[j], M) for i, j in zip(rows, cols)]
    per_point = (time.perf_counter() - start) / SAMPLE

    radius = spectral_radius(kp[rows], kd[cols], M)
    clear = np.abs(radius - 1) > 1e-9
    agree = np.mean(np.asarray(baseline)[clear] == region[rows, cols][clear])

    start = time.perf_counter()
    spectral_radius(kp[:, None], kd[None, :], M)
    eig_time = time.perf_counter() - start

    extrapolated = per_point * GRID * GRID
    print(f"stability_region {GRID}x{GRID}, m={M}: best of {REPEATS}: {vectorised:.3f} s "
          f"(target <= 0.5 s) -> {'OK' if vectorised <= 0.5 else 'MISSED'}")
    print(f"python-control per point (TransferFunction + poles), {SAMPLE} samples: "
          f"{per_point * 1e6:.1f} us/point -> {extrapolated:.1f} s for the grid")
    print(f"speed-up: {extrapolated / vectorised:.0f}x (target >= 300x) -> "
          f"{'OK' if extrapolated / vectorised >= 300 else 'MISSED'}")
    print(f"maps agree on {agree * 100:.2f} % of the {clear.sum()} sampled points off the boundary")
    print(f"(batched-eigenvalue spectral_radius on the same grid: {eig_time:.3f} s)")


if __name__ == "__main__":
    main()
