# benchmarks/bench_sweep.py - ctlcc.sweep: core usage, Dask scaling, driver memory, driver cost
"""Throughput and memory of :func:`ctlcc.sweep.run`.

Targets (issue #14), each printed as a figure measured in this run:

1. **Cores busy.** A sweep of 200 short packet simulations with
   ``jobs`` = the number of cores keeps >= 90 % of them busy.  Busy
   fraction = (sum of the rows' evaluation times) / (jobs x the sweep's
   wall time); the CPU time the worker processes actually got, over the
   same, is printed next to it (lower when other jobs share the cores), and
   the serial baseline (the same 200 simulations in a plain loop, no sweep
   machinery, in this process) gives the speed-up.
2. **Dask scaling.** A 2-worker ``LocalCluster`` completes the same
   200-point sweep in <= 0.6 x the wall time of a 1-worker one (both
   clusters started and warmed up before the clock starts, start-up printed
   separately; the sweep runs in two halves alternating 1, 2, 1, 2 workers
   so that a change in the machine's load hits both alike).
   Because that ratio needs two free cores, the script also times 40
   points that *sleep* 0.25 s on 1 and 2 workers: that ratio (ideal 0.5)
   shows the dispatch and concurrency whatever the machine's load, and a
   control runs CPU-bound tasks on plain Dask (no ctlcc) to show what the
   machine gives two worker processes at the time.
3. **Flat driver memory.** The driver's resident memory (RSS) while a
   10^4-point analytic sweep streams to disk, sampled every 50 ms, stays
   flat: RSS at 10 %, 50 % and 100 % of the rows is printed, and the
   peak of the final consolidation into one Parquet file separately.
4. **Driver cost per row** (what a 10^6-point sweep's driver pays): time
   to generate 10^5 rows (keys and seeds), and a 10^5-row sweep of a
   closed-form bound run inside the driver (``jobs=1``): rows/s and the
   bookkeeping per row beyond the evaluation itself.

The machine this was written on has 2 cores shared with other jobs, so
the script prints ``os.getloadavg()`` next to every figure.

Run from the repository root::

    python benchmarks/bench_sweep.py [--points 200] [--duration 60] [--skip-dask]
        [--cores-only]

Issue 22 §4 (a sweep of 10^4 60-s simulations on this 2-core machine in a
stated time): section 1 prints the per-row overhead (task dispatch and
result collection: the workers' time not spent evaluating rows) against
the evaluation time, and the time of 10^4 points *extrapolated* from the
measured sub-sweep (``--points``, 200 by default).
"""

import argparse
import os
import resource
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import psutil

from ctlcc.sim import run as simulate
from ctlcc.sim import scenarios
from ctlcc.sweep import Kind, Metric, Spec, register_kind, run


#: The 20 loss probabilities of the simulation sweep. [1]
LOSSES = np.round(np.geomspace(1e-4, 1e-2, 20), 8).tolist()


def sim_spec(points, duration, losses=LOSSES):
    """points/20 seeds x *losses* on a 10-flow dumbbell (seeds independent of *losses*)."""
    seeds = max(1, points // 20)
    return Spec("sim", ["goodput_total_bps", "drops", "jain"],
                fixed={"scenario": "dumbbell", "n": 10, "bottleneck_rate": 20e6,
                       "protocol": "newreno", "duration": duration},
                grid={"loss": list(losses)}, seeds=seeds, name="bench_sim")


def serial_baseline(spec):
    """The spec's simulations in a plain loop in this process. [s]"""
    start = time.perf_counter()
    for row in spec.rows():
        p = spec.params(row)
        s = scenarios.dumbbell(p["n"], bottleneck_rate=p["bottleneck_rate"], loss=p["loss"],
                               protocol=p["protocol"])
        simulate(s, p["duration"], seed=row.seed, progress=False)
    return time.perf_counter() - start


def load():
    return "load %.2f %.2f %.2f" % os.getloadavg()


def bench_cores(spec, jobs):
    # warm the numba cache of this process (the pool forks it)
    simulate(scenarios.dumbbell(2), 1.0)
    baseline = serial_baseline(spec)
    print(f"  serial baseline: {spec.size} simulations in {baseline:.1f} s "
          f"({baseline / spec.size * 1e3:.0f} ms each)  [{load()}]")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = run(spec, jobs=jobs, progress=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    busy = np.nansum(result.column("wall_time")) / (jobs * result.seconds)
    print(f"  sweep, jobs={jobs}: {result.seconds:.1f} s, speed-up vs serial "
          f"{baseline / result.seconds:.2f} (ideal {jobs})  [{load()}]")
    print(f"  busy fraction (rows' evaluation time / (jobs x wall)): {busy:.1%} "
          f"(target >= 90 %)")
    print(f"  CPU the workers got / (jobs x wall): {cpu / (jobs * result.seconds):.1%} "
          f"(below the busy fraction when other processes share the cores)")
    evaluation = np.nansum(result.column("wall_time"))
    overhead = (jobs * result.seconds - evaluation) / spec.size
    print(f"  driver + transport overhead per row: {overhead * 1e3:.1f} ms "
          f"({overhead * spec.size / (jobs * result.seconds):.1%} of the workers' time; "
          f"evaluation {evaluation / spec.size * 1e3:.0f} ms per row)")
    # issue 22 §4: a sweep of 10^4 such points, extrapolated from this one (rows are
    # independent and alike: the time is linear in the count at the measured rate)
    print(f"  EXTRAPOLATED from these {spec.size} rows: 10^4 points in "
          f"{1e4 * result.seconds / spec.size:.0f} s ({1e4 * result.seconds / spec.size / 60:.1f}"
          f" min) on {jobs} job(s) at this load; serial loop "
          f"{1e4 * baseline / spec.size / 60:.1f} min")
    # the same from the CPU the workers consumed: what two otherwise idle cores would take
    print(f"  EXTRAPOLATED from the workers' CPU ({cpu / spec.size * 1e3:.0f} ms per row): 10^4 "
          f"points on {jobs} idle core(s) in {1e4 * cpu / spec.size / jobs / 60:.1f} min "
          f"(+ the overhead share above)")
    return result


def bench_dask(points, duration, reference):
    """Both clusters up at once; halves of the sweep alternate 1, 2, 1, 2 workers."""
    import logging

    import distributed
    logging.getLogger("distributed").setLevel(logging.ERROR)
    clusters, times, rows = {}, {1: 0.0, 2: 0.0}, {}
    for workers in (1, 2):
        start = time.perf_counter()
        cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                           processes=True, dashboard_address=":0",
                                           silence_logs=logging.CRITICAL)
        client = distributed.Client(cluster)
        warm = Spec("sim", ["drops"], fixed={"scenario": "dumbbell", "n": 2, "duration": 1.0},
                    grid={"loss": [0.01 * (i + 1) for i in range(2 * workers)]})
        run(warm, client=client, progress=False)          # import ctlcc, load numba caches
        clusters[workers] = (cluster, client)
        print(f"  LocalCluster {workers} worker(s) started and warmed up in "
              f"{time.perf_counter() - start:.1f} s")
    halves = (LOSSES[::2], LOSSES[1::2])
    for half in halves:
        for workers in (1, 2):
            result = run(sim_spec(points, duration, half), client=clusters[workers][1],
                         progress=False)
            times[workers] += result.seconds
            rows.setdefault(workers, []).extend(result.rows())
            print(f"    {result.table.num_rows} rows on {workers} worker(s): "
                  f"{result.seconds:.1f} s  [{load()}]")
    metrics = ("seed", "goodput_total_bps", "drops", "jain", "status")
    expected = {r["key"]: tuple(r[m] for m in metrics) for r in reference.rows()}
    for workers in (1, 2):
        got = {r["key"]: tuple(r[m] for m in metrics) for r in rows[workers]}
        print(f"  {workers} worker(s): {len(got)} rows in {times[workers]:.1f} s, identical to "
              f"the local processes' rows (same keys, seeds, metrics): {got == expected}")
        client, cluster = clusters[workers][1], clusters[workers][0]
        client.close()
        cluster.close()
    print(f"  2 workers / 1 worker wall time: {times[2] / times[1]:.2f} (target <= 0.60)")


def bench_dask_dispatch(rows=40, seconds=0.25):
    """The same ratio on points that sleep: dispatch and concurrency, not the CPU share."""
    import logging

    import distributed
    logging.getLogger("distributed").setLevel(logging.ERROR)
    kind = register_kind(Kind(
        "bench_sleep", lambda params, seed: time.sleep(params["seconds"]) or params["seconds"],
        lambda params: ({"seconds", "index"}, {"seconds"}), lambda params: False,
        {"slept": Metric("slept", lambda outcome, params: outcome, unit="s")}))
    spec = Spec(kind.name, ["slept"], fixed={"seconds": seconds},
                grid={"index": list(range(rows))})
    times = {}
    for workers in (1, 2):
        with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                      dashboard_address=":0",
                                      silence_logs=logging.CRITICAL) as cluster, \
                distributed.Client(cluster) as client:
            warm = Spec(kind.name, ["slept"], fixed={"seconds": 0.0},
                        grid={"index": list(range(2 * workers))})
            run(warm, client=client, progress=False)         # workers import ctlcc
            times[workers] = run(spec, client=client, progress=False).seconds
    print(f"  {rows} points sleeping {seconds} s: 1 worker {times[1]:.1f} s, 2 workers "
          f"{times[2]:.1f} s, ratio {times[2] / times[1]:.2f} (ideal 0.50)  [{load()}]")


def _busy(seconds):
    """Spin for *seconds* of CPU time (a task for plain Dask)."""
    start = time.process_time()
    while time.process_time() - start < seconds:
        pass
    return seconds


def bench_dask_raw(tasks=12, seconds=0.5):
    """Control without ctlcc: plain client.submit of CPU-bound tasks, 1 vs 2 workers."""
    import logging

    import distributed
    times = {}
    for workers in (1, 2):
        with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                      dashboard_address=":0",
                                      silence_logs=logging.CRITICAL) as cluster, \
                distributed.Client(cluster) as client:
            client.gather([client.submit(_busy, 0.01, pure=False) for _ in range(workers)])
            start = time.perf_counter()
            client.gather([client.submit(_busy, seconds, pure=False) for _ in range(tasks)])
            times[workers] = time.perf_counter() - start
    print(f"  plain Dask, {tasks} tasks of {seconds} s CPU: 1 worker {times[1]:.1f} s, "
          f"2 workers {times[2]:.1f} s, ratio {times[2] / times[1]:.2f} (ideal 0.50): what "
          f"the machine gives two processes  [{load()}]")


def bench_memory(rows, jobs, directory):
    side = int(round(rows ** 0.5))
    spec = Spec("analysis", ["spectral_radius", "stable"],
                fixed={"loop": "stpd", "model": "per_rtt", "m": 1},
                grid={"kp": np.round(np.linspace(0.01, 2.0, side), 6).tolist(),
                      "kd": np.round(np.linspace(0.0, 0.99, side), 6).tolist()},
                name="bench_memory")
    out = Path(directory) / "memory.parquet"
    journal = out.with_name(out.name + ".journal")
    process = psutil.Process()
    samples = []                                      # (rows in the journal, RSS [MB])
    done = threading.Event()

    def sample():
        while not done.is_set():
            try:
                count = journal.stat().st_size if journal.exists() else -1
            except FileNotFoundError:
                count = -1
            samples.append((count, process.memory_info().rss / 2**20))
            time.sleep(0.05)

    thread = threading.Thread(target=sample, daemon=True)
    rss_before = process.memory_info().rss / 2**20
    thread.start()
    result = run(spec, out, jobs=jobs, progress=False)
    done.set()
    thread.join()
    sizes = np.array([s[0] for s in samples])
    rss = np.array([s[1] for s in samples])
    streaming = sizes > 0
    full = sizes[streaming].max() if streaming.any() else 1
    print(f"  {spec.size} analytic rows, jobs={jobs}: {result.seconds:.1f} s "
          f"({spec.size / result.seconds:.0f} rows/s)  [{load()}]")
    marks = []
    for fraction in (0.1, 0.5, 1.0):
        index = np.flatnonzero(streaming & (sizes >= fraction * full))
        if index.size:
            marks.append(f"{fraction:.0%}: {rss[index[0]]:.1f} MB")
    print(f"  driver RSS before {rss_before:.1f} MB; while streaming at "
          + ", ".join(marks) + f"; peak incl. consolidation {rss.max():.1f} MB")
    print(f"  journal at the end {full / 2**20:.2f} MB ({full / spec.size:.0f} bytes/row), "
          f"Parquet {out.stat().st_size / 2**20:.2f} MB")
    return result


def bench_driver(rows):
    spec = Spec("bound", ["value"], fixed={"function": "mathis_rate"},
                grid={"p": list(np.round(np.linspace(1e-4, 1e-1, rows // 10), 8)),
                      "rtt": [0.01 * (i + 1) for i in range(10)]})
    start = time.perf_counter()
    count = sum(1 for _ in spec.rows())
    elapsed = time.perf_counter() - start
    print(f"  generating {count} rows (key + point): {elapsed / count * 1e6:.1f} us/row")
    with tempfile.TemporaryDirectory() as directory:
        result = run(spec, Path(directory) / "driver.parquet", jobs=1, progress=False)
    evaluation = np.nansum(result.column("wall_time"))
    print(f"  the same {count} Mathis-rate rows run in the driver (jobs=1, to Parquet): "
          f"{count / result.seconds:.0f} rows/s; driver bookkeeping "
          f"{(result.seconds - evaluation) / count * 1e6:.1f} us/row beyond evaluation")
    spec = Spec("sim", ["drops"], fixed={"preset": "thesis_fig4_7", "duration": 1.0},
                grid={"loss": list(np.round(np.linspace(1e-4, 1e-1, rows // 10), 8)),
                      "buffer": list(range(10, 20))}, seeds=1)
    start = time.perf_counter()
    count = sum(1 for _ in spec.rows())
    elapsed = time.perf_counter() - start
    print(f"  ... with a derived seed per row (SeedSequence): {elapsed / count * 1e6:.1f} us/row")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=200)
    parser.add_argument("--duration", type=float, default=60.0,
                        help="simulated seconds per point (default: %(default)s)")
    parser.add_argument("--memory-rows", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--skip-dask", action="store_true")
    parser.add_argument("--cores-only", action="store_true",
                        help="only 1. (and the 10^4-point extrapolation)")
    args = parser.parse_args()
    print(f"ctlcc.sweep benchmark: {os.cpu_count()} cores, jobs={args.jobs}  [{load()}]")
    spec = sim_spec(args.points, args.duration)
    print(f"1. cores busy: {spec.size} simulations of a 10-flow 20 Mb/s dumbbell, "
          f"{args.duration:g} s each")
    reference = bench_cores(spec, args.jobs)
    if args.cores_only:
        return
    if not args.skip_dask:
        print("2. Dask LocalCluster, 1 vs 2 workers, same sweep")
        bench_dask(args.points, args.duration, reference)
        print("2b. Dask LocalCluster, 1 vs 2 workers, points that sleep (no CPU needed)")
        bench_dask_dispatch()
        print("2c. control: plain Dask (no ctlcc), CPU-bound tasks, 1 vs 2 workers")
        bench_dask_raw()
    print("3. driver memory while streaming")
    with tempfile.TemporaryDirectory() as directory:
        bench_memory(args.memory_rows, args.jobs, directory)
    print("4. driver cost per row")
    bench_driver(100_000)


if __name__ == "__main__":
    main()
