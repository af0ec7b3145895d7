# benchmarks/bench_fluid.py - batched fluid model vs a per-parameter-set Python loop
"""Speed of :func:`ctlcc.sim.fluid.simulate` on a batch of parameter sets.

Target (issue #6): a batch of 10^4 parameter sets x 10^4 steps in <= 10 s.
The workload is the Reno fluid model on one drop-tail bottleneck with
random capacity, buffer, propagation delay and number of flows per set.
The baseline integrates the *same* scheme one parameter set at a time in
plain Python (scalar floats, a list as the history ring), timed on a
sample of the batch in the same run and extrapolated; the script also
checks that baseline and vectorised runs agree on that sample.

Run from the repository root::

    python benchmarks/bench_fluid.py [--batch 10000] [--steps 10000] [--sample 3]
"""

import argparse
import math
import resource
import time

import numpy as np

from ctlcc.sim import fluid


def baseline_reno(capacity, buffer, delay, n_flows, steps, dt):
    """One parameter set, scalar Python, the scheme of ctlcc.sim.fluid.

    Returns the queue after the last step. [packets]
    """
    length = math.ceil((delay + buffer / capacity) / dt) + 3
    queue, window, overflow_p = 0.0, 1.0, 0.0
    rate = window / delay
    ring_rate = [rate] * length
    ring_p = [0.0] * length
    for k in range(steps):
        round_trip = delay + queue / capacity
        ring_rate[k % length] = rate
        ring_p[k % length] = overflow_p
        position = k - round_trip / dt
        base = math.floor(position)
        frac = position - base
        lo, hi = base % length, (base + 1) % length
        delayed_rate = ring_rate[lo] + frac * (ring_rate[hi] - ring_rate[lo])
        delayed_p = ring_p[lo] + frac * (ring_p[hi] - ring_p[lo])
        slope = 1 / round_trip - window * delayed_rate * delayed_p / 2
        window = max(window + dt * slope, 1.0)
        rate = window / round_trip
        arrivals = n_flows * rate
        raw = queue + dt * (arrivals - capacity)
        excess = max(raw - buffer, 0.0)
        overflow_p = excess / (dt * arrivals) if excess > 0 else 0.0
        queue = min(max(raw, 0.0), buffer)
    return queue


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=10_000)
    parser.add_argument("--steps", type=int, default=10_000)
    parser.add_argument("--sample", type=int, default=3, help="baseline parameter sets timed")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    dt = 1e-3
    capacity = rng.uniform(500.0, 5000.0, args.batch)        # packets/s
    buffer = rng.uniform(20.0, 200.0, args.batch)             # packets
    delay = rng.uniform(0.02, 0.3, args.batch)                # s
    n_flows = rng.integers(1, 50, args.batch).astype(float)   # flows
    net = fluid.network(capacity, buffer, delay, n_flows=n_flows)

    start, cpu_start = time.perf_counter(), time.process_time()
    run = fluid.simulate(net, fluid.Reno(), duration=args.steps * dt, dt=dt,
                         record_every=args.steps // 10)
    vectorised = time.perf_counter() - start
    vectorised_cpu = time.process_time() - cpu_start

    start = time.perf_counter()
    sample = [baseline_reno(capacity[b], buffer[b], delay[b], n_flows[b], args.steps, dt)
              for b in range(args.sample)]
    per_set = (time.perf_counter() - start) / args.sample

    # The last record is the state after the last step.
    agreement = np.max(np.abs(run.queue[-1, :args.sample, 0] - np.array(sample)))

    ring_mb = (math.ceil(float(net.max_round_trip().max()) / dt) + 3) * args.batch * 2 * 8 / 1e6
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    baseline_total = per_set * args.batch
    print(f"batch {args.batch} x {args.steps} steps (dt = {dt} s, Reno, drop-tail)")
    print(f"  vectorised ctlcc.sim.fluid : {vectorised:8.2f} s wall, {vectorised_cpu:.2f} s CPU"
          "  (target <= 10 s)")
    print(f"  Python loop, per set       : {per_set:8.3f} s  (timed on {args.sample} sets)")
    print(f"  Python loop, whole batch   : {baseline_total:8.1f} s  (extrapolated)")
    print(f"  speed-up                   : {baseline_total / vectorised:8.1f} x")
    print(f"  max |queue difference| on the sample: {agreement:.2e} packets")
    print(f"  history ring {ring_mb:.0f} MB; peak RSS {peak_mb:.0f} MB; mean link use "
          f"{float(np.mean(run.mean_reception_rate[:, 0] * n_flows / capacity)):.3f}")


if __name__ == "__main__":
    main()
