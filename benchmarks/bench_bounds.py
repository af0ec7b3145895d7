# benchmarks/bench_bounds.py - 1e6 evaluations of each closed-form bound
"""Time 1e6 vectorised evaluations of every bound in ctlcc.bounds.

Target (issue 3): each formula well under one second for 1e6 inputs.
Baseline: the same formula as a pure-Python loop over ``math`` (timed on
1e5 inputs in the same run and scaled to 1e6), checked to agree with the
vectorised result on those inputs.  Run from the repository root (with
ctlcc installed, ``pip install -e .``, or ``PYTHONPATH=.``)::

    PYTHONPATH=. python benchmarks/bench_bounds.py
"""

import math
import time

import numpy as np

from ctlcc.bounds import cbraa, iftp, jain_index, mathis_rate, pftk_rate, tfrc_rate, tokenbucket

N = 1_000_000
N_LOOP = 100_000


def _time(func, repeat=3):
    best = math.inf
    for _ in range(repeat):
        start = time.perf_counter()
        out = func()
        best = min(best, time.perf_counter() - start)
    return best, out


def _q(p, w):
    q = 1 - p
    return min(1.0, (1 - q**3) * (1 + q**3 * (1 - q ** (w - 3))) / (1 - q**w))


def _pftk_py(p, r, t0):
    c = 1.0
    ew = c + math.sqrt(8 * (1 - p) / (3 * p) + c * c)
    f = 1 + p + 2 * p**2 + 4 * p**3 + 8 * p**4 + 16 * p**5 + 32 * p**6
    qh = _q(p, ew)
    return ((1 - p) / p + ew + qh / (1 - p)) / (r * (ew / 2 + 1) + qh * f * t0 / (1 - p))


def _rounds_py(n, ws, wmax):
    w, sent, k = 1, 0, 0
    while sent < n:
        sent += w
        k += 1
        w = 2 * w if w < ws else min(w + 1, wmax)
    return k


def main():
    rng = np.random.default_rng(0)
    p = rng.uniform(1e-5, 0.15, N)
    rtt = rng.uniform(0.01, 0.5, N)
    rate = rng.uniform(1.0, 1e4, N)
    n_files = rng.integers(1, 5000, N)
    flows = rng.uniform(0.0, 1.0, (N // 10, 10))
    pl, rl, bl, nl = p[:N_LOOP].tolist(), rtt[:N_LOOP].tolist(), rate[:N_LOOP].tolist(), n_files[:N_LOOP].tolist()
    c = 1.2701057925542405
    cases = [
        ("mathis_rate", lambda: mathis_rate(p, rtt, C="cbraa"),
         lambda: [c / (r * math.sqrt(x)) for x, r in zip(pl, rl)]),
        ("pftk_rate (full)", lambda: pftk_rate(p, rtt, 4 * rtt),
         lambda: [_pftk_py(x, r, 4 * r) for x, r in zip(pl, rl)]),
        ("tfrc_rate", lambda: tfrc_rate(p, rtt),
         lambda: [1 / (r * math.sqrt(2 * x / 3) + 4 * r * 3 * math.sqrt(3 * x / 8) * x * (1 + 32 * x * x))
                  for x, r in zip(pl, rl)]),
        ("cbraa.loss_th", lambda: cbraa.loss_th(rate, rtt),
         lambda: [1 / (b * r * (243 / 392 * b * r + 27 / 28)) for b, r in zip(bl, rl)]),
        ("iftp.ideal_bandwidth", lambda: iftp.ideal_bandwidth(n_files, 1.0, rtt, 32, 50),
         lambda: [n / (_rounds_py(n, 32, 50) * r) for n, r in zip(nl, rl)]),
        ("iftp.nonideal_bandwidth", lambda: iftp.nonideal_bandwidth(p, 1.0, rtt),
         lambda: [0.75 * (math.sqrt(1 + 8 / (3 * x)) - 1) / r for x, r in zip(pl, rl)]),
        ("tokenbucket.rtt_scaled", lambda: tokenbucket.rtt_scaled(rate, rtt, rtt[::-1], 0.9, 0.1),
         lambda: [0.9 * b + 0.1 * b * r / r2 for b, r, r2 in zip(bl, rl, rtt[::-1][:N_LOOP].tolist())]),
        ("jain_index (1e5 x 10 flows)", lambda: jain_index(flows),
         lambda: [sum(row) ** 2 / (10 * sum(v * v for v in row)) for row in flows[: N_LOOP // 10].tolist()]),
    ]
    print(f"{'formula':34s} {'vectorised 1e6 [s]':>19s} {'loop 1e6 [s] (scaled)':>22s} {'speed-up':>9s}")
    for name, vec, loop in cases:
        t_vec, out = _time(vec)
        t_loop, ref = _time(loop, repeat=1)
        scale = N / N_LOOP
        ref = np.asarray(ref)
        np.testing.assert_allclose(np.ravel(out)[: ref.size], ref, rtol=1e-9)
        print(f"{name:34s} {t_vec:19.4f} {t_loop * scale:22.3f} {t_loop * scale / t_vec:8.0f}x")


if __name__ == "__main__":
    main()
