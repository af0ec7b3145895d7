# benchmarks/red_period.py - why the unstable RED cycles every 2.65 s on packets, 4.7 s in the fluid model
"""Diagnose the unstable RED example's period (docs/aqm.md, "What explains each difference").

Hollot et al.'s network (60 NewReno flows, 3750 packets/s, Tp = 0.2 s) behind
RED (50, 150, 0.5), w = 1e-4.  Two modes:

``--fluid``
    the fluid model (100 s, dt = 1 ms) with each variant: the queueing
    delay in the round trip or propagation only (``prop``); Misra et al.'s
    marking at p(avg) whatever the queue or ns-3's rule, no drop while at
    most one packet waits (``fluid.Red(min_queue=1)``); each loss halving
    the window or at most one halving per round trip (``cap``, NewReno's
    one reduction per window of losses: the loss rate x p in dW/dt capped
    at 1/R).  Prints the period (periodogram and autocorrelation), the
    queue's range and the window's range.
``--packets``
    the packet engine (100 s per seed, queue and windows every 20 ms):
    period, empty fraction, timeouts, and per cycle (troughs of the
    flows' mean window) the drops, the flows that took a drop and the drop
    burst's width.  ``--no-gate`` lets RED drop at any waiting queue (no
    ``queue > 1`` rule: ``RedParams(..., min_queue=None)``, Floyd &
    Jacobson's and Misra et al.'s reading; the default ``min_queue=1`` is
    ns-3's).

Usage (from the repository root)::

    nice -n 10 python benchmarks/red_period.py --fluid
    nice -n 10 python benchmarks/red_period.py --fluid --setting red_stable
    nice -n 10 python benchmarks/red_period.py --packets --seed 1 --seed 2 --seed 3
    nice -n 10 python benchmarks/red_period.py --packets --no-gate --seed 1 --seed 2 --seed 3
"""

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _periods(t, q):
    from ctlcc.experiments import aqm as A

    k = t >= A.WINDOW
    lag, height = A.autocorrelation_peak(t[k], q[k], high=40.0)
    return A.dominant_period(t[k], q[k], high=40.0), lag, height, k


def fluid_table(setting="red_unstable"):
    import numpy as np

    from ctlcc.experiments import aqm as A
    from ctlcc.laws.aqm import red_averaging_pole
    from ctlcc.sim import fluid as F

    params = A.SETTINGS[setting]
    net = F.network(capacity=A.CAPACITY, buffer=float(A.BUFFER),
                    propagation_delay=A.PROPAGATION, n_flows=A.N_FLOWS)

    def law(delay, cap):
        class State(F._RenoState):
            def rate(self, round_trip):
                return self.window / (A.PROPAGATION if delay == "prop" else round_trip)

            def advance(self, k, round_trip, history, signals):
                r = np.full_like(round_trip, A.PROPAGATION) if delay == "prop" else round_trip
                d = history.read(k - r / self.dt)
                losses = d["rate"] * d["probability"]
                if cap:
                    losses = np.minimum(losses, 1.0 / r)
                slope = 1.0 / r - self.window * losses / 2.0
                self.window = np.clip(self.window + self.dt * slope, self.law.min_window,
                                      self.law.max_window)
                return self.window / r

        class Law(F.Reno):
            def _start(self, net, dt):
                return State(self, net, dt)

        return Law(initial_window=1.0)

    print(f"{setting} {params}")
    print("spacing  RED rule       delay   losses         period  autocorr.    queue [packets]"
          "  mean   empty  window [packets]")
    for spacing in ("none", "count"):
        for gate in (None, 1.0):
            for delay, cap in (("R(t)", False), ("prop", False), ("R(t)", True)):
                red = F.Red(params.min_threshold, params.max_threshold, params.max_probability,
                            averaging=red_averaging_pole(params.weight, A.CAPACITY),
                            spacing=spacing, min_queue=gate)
                r = F.simulate(net, law(delay, cap), duration=100.0, dt=1e-3, aqm=red,
                               record_every=20)
                t, q, w = np.asarray(r.time), r.queue[:, 0, 0], r.window[:, 0, 0]
                per, lag, h, k = _periods(t, q)
                print(f"{spacing:7s}  {'queue > 1' if gate else 'any queue':13s}  {delay:6s}  "
                      f"{'1 cut / RTT' if cap else 'each halves':12s}  {per:5.2f} s  "
                      f"{lag:5.2f} s ({h:.2f})  {q[k].min():5.1f}-{q[k].max():5.1f}  {q[k].mean():5.1f}  "
                      f"{np.mean(q[k] < 0.5):5.2f}  {w[k].min():5.2f}-{w[k].max():5.2f}",
                      flush=True)


def packets(seeds, gate=True):
    import dataclasses

    import numpy as np
    from scipy.signal import find_peaks

    from ctlcc.experiments import aqm as A
    from ctlcc.sim import run

    red = A.SETTINGS["red_unstable"]
    if not gate:   # no "queue > 1" rule: RED drops at any waiting queue
        red = dataclasses.replace(red, min_queue=None)
    scenario = A.hollot_network(red)
    for seed in seeds:
        r = run(scenario, 100.0, seed=seed, trace=True, sample_interval=0.02, progress=False,
                rtt_every=50)
        tr = r.traces
        t, q, w = tr.time, tr.queue[:, 0].astype(float), tr.window
        per, lag, h, k = _periods(t, q)
        mean_w = w.mean(axis=1)
        troughs, _ = find_peaks(-mean_w, distance=int(1.5 / 0.02))
        troughs = troughs[t[troughs] >= A.WINDOW]
        drops = tr.drops[np.isin(tr.drops[:, 3], (0, 4))]
        rows = []
        for a, b in zip(troughs[:-1], troughs[1:]):
            x = drops[(drops[:, 0] >= t[a]) & (drops[:, 0] < t[b])]
            width = np.percentile(x[:, 0], 90) - np.percentile(x[:, 0], 10) if len(x) > 5 \
                else np.nan
            rows.append((len(x), np.unique(x[:, 1]).size, width))
        rows = np.array(rows)
        print(f"seed {seed}: period {per:.2f} s, autocorrelation {lag:.2f} s ({h:.2f}); queue "
              f"mean {q[k].mean():.1f}, empty {np.mean(q[k] == 0):.2f}; utilisation "
              f"{r.queues[0].utilisation:.3f}; timeouts {sum(f.timeouts for f in r.flows)}; "
              f"flows' mean window {mean_w[k].min():.1f}-{mean_w[k].max():.1f}; per cycle: "
              f"{rows[:, 0].mean():.0f} drops, {rows[:, 1].mean():.1f} of {len(r.flows)} flows "
              f"hit, drops within {np.nanmean(rows[:, 2]):.2f} s (10-90 %)", flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--fluid", action="store_true", help="the fluid model's variants")
    mode.add_argument("--packets", action="store_true", help="the packet engine")
    parser.add_argument("--no-gate", action="store_true",
                        help="packets: RED drops at any waiting queue (min_queue=None)")
    parser.add_argument("--seed", type=int, action="append", help="packets: seeds (default 1)")
    parser.add_argument("--setting", default="red_unstable",
                        help="fluid: a RED setting of ctlcc.experiments.aqm.SETTINGS "
                             "(default red_unstable)")
    args = parser.parse_args(argv)
    if args.fluid:
        fluid_table(args.setting)
        return
    packets(args.seed or [1], gate=not args.no_gate)


if __name__ == "__main__":
    main()
