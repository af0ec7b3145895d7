"""Bit-identity check of the fluid integrator (ctlcc.sim.fluid.simulate).

Runs a fixed set of ``simulate`` calls -- every built-in law (Reno, ST-PD with
the round trip and with a fixed feedback delay, Primo) behind every AQM
(DropTail, RED instantaneous / averaged / gentle / spaced / min_queue, PI,
FixedMarking constant / per batch member / a function of time), unbatched and
batched, one link and several (a parking lot, one class over three links, four
classes on one link), record_every 1, 7 and 100, plus a researcher's WindowLaw
and RateLaw -- and keeps every output array of every run.

    python benchmarks/fluid_identity.py save  OUT.npz   # record (e.g. before a change)
    python benchmarks/fluid_identity.py check OUT.npz   # compare with np.array_equal

``check`` compares each array with ``np.array_equal(a, b, equal_nan=True)``
(no tolerance) and lists every array that differs, with its largest
difference; it exits 1 if any does.  ``--python`` forces the integrator's
plain-Python path (``ctlcc.sim.fluid._USE_JIT = False``) where the module has
one; ``paths`` runs every case both ways in one process and compares them.
"""

import argparse
import sys

import numpy as np

from ctlcc.laws.aqm import PiParams
from ctlcc.laws.primo import PrimoParams
from ctlcc.laws.user import RateLaw, WindowLaw, pd_law
from ctlcc.sim import fluid

FIELDS = ("time", "queue", "rate", "window", "round_trip", "probability", "reception_rate",
          "mean_queue", "mean_rate", "mean_reception_rate", "dropped")


def _networks():
    """name -> (network, dt, duration)."""
    return {
        "one": (fluid.network(1000.0, 150.0, 0.1, n_flows=5), 1e-3, 3.0),
        "batch": (fluid.network([500.0, 1000.0, 3750.0], [80.0, 150.0, 800.0],
                                [0.05, 0.1, 0.2], n_flows=[3, 5, 60]), 1e-3, 3.0),
        "lot": (fluid.network([1000.0, 600.0], [120.0, 90.0], [0.1, 0.05, 0.07],
                              n_flows=[4, 2, 3], routes=[[1, 1, 0], [1, 0, 1]]), 1e-3, 2.0),
        "chain": (fluid.network([900.0, 700.0, 800.0], [60.0, 50.0, 70.0], 0.08, n_flows=6,
                                routes=[[1], [1], [1]]), 1e-3, 2.0),
        "classes": (fluid.network(2000.0, 200.0, [0.02, 0.05, 0.11, 0.2],
                                  n_flows=[3.0, 2.0, 1.5, 7.0], routes=[[1, 1, 1, 1]]),
                    1e-3, 2.0),
        "batch_lot": (fluid.network([[1000.0, 600.0], [2000.0, 900.0]], [120.0, 90.0],
                                    [[0.1, 0.05, 0.07], [0.12, 0.04, 0.09]], n_flows=[4, 2, 3],
                                    routes=[[1, 1, 0], [1, 0, 1]]), 1e-3, 2.0),
    }


def _laws():
    return {
        "reno": fluid.Reno(),
        "reno_w": fluid.Reno(initial_window=12.0, max_window=40.0),
        "stpd_rtt": fluid.Stpd(kp=0.05, kd=0.2),
        "stpd_delay": fluid.Stpd(kp=0.1, kd=0.3, delay=0.03, slot=1e-3, reference=4.0),
        "primo": fluid.Primo(),
        "primo_p": fluid.Primo(PrimoParams(W1=0.3, W2=0.8, tau=0.5), ftt_fraction=0.4,
                               initial_rate=100.0),
    }


def _aqms(batch):
    pi = PiParams.design(60, 3750.0, 0.2467, 30.0, 160.0)
    return {
        "droptail": fluid.DropTail(),
        "red": fluid.Red(10.0, 60.0, 0.1),
        "red_avg": fluid.Red(10.0, 60.0, 0.1, averaging=50.0),
        "red_gentle": fluid.Red(10.0, 40.0, 0.2, averaging=80.0, gentle=True),
        "red_count": fluid.Red(10.0, 60.0, 0.1, averaging=50.0, spacing="count"),
        "red_wait_minq": fluid.Red(10.0, 60.0, 0.1, averaging=20.0, spacing="wait",
                                   min_queue=1.0),
        "pi": fluid.Pi(pi),
        "fixed": fluid.FixedMarking(0.004),
        "fixed_batch": fluid.FixedMarking(np.linspace(0.001, 0.01, batch)),
        "fixed_step": fluid.FixedMarking(lambda t: 0.002 if t < 2.0 else 0.006),
    }


def _researcher_laws():
    def constant(rate, excess, received, previous, memory, r0):
        return r0 + 0.0 * rate, ()

    return {"window_pd_rtt": pd_law(0.2, 0.1, per="rtt"),
            "window_pd_ack": pd_law(0.02, 0.01, per="ack"),
            "rate_const": RateLaw(constant, gains=dict(r0=150.0))}


def cases():
    """Yield (name, thunk) for every case."""
    nets = _networks()
    index = 0
    for net_name, (net, dt, duration) in nets.items():
        aqms = _aqms(net.batch_size)
        for law_name, law in _laws().items():
            for aqm_name, aqm in aqms.items():
                if aqm_name == "fixed_batch" and net.n_links > 1 and net.batch_size == 1:
                    continue
                every = (1, 7, 100)[index % 3]
                index += 1
                queue = 20.0 if aqm_name.startswith("pi") else 0.0
                yield (f"{net_name}/{law_name}/{aqm_name}/every{every}",
                       lambda net=net, law=law, aqm=aqm, dt=dt, duration=duration, every=every,
                       queue=queue: fluid.simulate(net, law, duration, dt, aqm=aqm,
                                                   initial_queue=queue, record_every=every))
    net, dt, duration = nets["one"]
    for law_name, law in _researcher_laws().items():
        for aqm_name in ("droptail", "red_avg"):
            aqm = _aqms(1)[aqm_name]
            yield (f"one/{law_name}/{aqm_name}/every1",
                   lambda law=law, aqm=aqm: fluid.simulate(net, law, duration, dt, aqm=aqm))
    # the thesis's slot loop: dt = one packet time, a fixed delay of m slots
    slot = 1.0 / 1000.0
    yield ("slot/stpd_m5/droptail/every1",
           lambda: fluid.simulate(fluid.network(1000.0, 400.0, 0.04), fluid.Stpd(
               0.02, 0.5, delay=5 * slot), 2.0, slot, initial_queue=2.0))
    yield ("slot/stpd_m5_batch/droptail/every3",
           lambda: fluid.simulate(fluid.network([1000.0, 800.0], 400.0, 0.04), fluid.Stpd(
               [0.02, 0.05], [0.5, 0.2], delay=5 * slot), 2.0, slot, initial_queue=2.0,
               record_every=3))


COMPILED = []  # names of the cases the compiled loop ran (fluid._integrate_compiled)


def run_all(only=None):
    out = {}
    original = getattr(fluid, "_integrate_compiled", None)
    name = None

    def counted(*args):
        run = original(*args)
        if run is not None:
            COMPILED.append(name)
        return run

    if original is not None:
        fluid._integrate_compiled = counted
    for name, thunk in cases():
        if only and only not in name:
            continue
        run = thunk()
        for field in FIELDS:
            out[f"{name}:{field}"] = np.asarray(getattr(run, field))
    if original is not None:
        fluid._integrate_compiled = original
    return out


def compare(reference, current):
    bad = []
    for key in sorted(set(reference) | set(current)):
        if key not in reference or key not in current:
            bad.append(f"{key}: missing on one side")
            continue
        a, b = reference[key], current[key]
        if a.shape != b.shape or not np.array_equal(a, b, equal_nan=True):
            diff = (np.nanmax(np.abs(a - b)) if a.shape == b.shape else "shape")
            bad.append(f"{key}: differs (largest |difference| {diff})")
    return bad


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("save", "check", "paths"))
    parser.add_argument("path", nargs="?")
    parser.add_argument("--python", action="store_true",
                        help="force the plain-Python integrator")
    parser.add_argument("--only", help="run only the cases whose name contains this")
    parser.add_argument("--verbose", action="store_true",
                        help="list the cases the compiled loop did not run")
    args = parser.parse_args(argv)
    if args.python:
        fluid._USE_JIT = False
    if args.mode == "paths":
        fluid._USE_JIT = False
        reference = run_all(args.only)
        fluid._USE_JIT = True
        current = run_all(args.only)
    else:
        current = run_all(args.only)
        if args.mode == "save":
            np.savez_compressed(args.path, **current)
            print(f"saved {len(current)} arrays to {args.path}")
            return 0
        with np.load(args.path) as data:
            reference = {k: data[k] for k in data.files}
        if args.only:
            reference = {k: v for k, v in reference.items() if args.only in k}
    bad = compare(reference, current)
    n_cases = len({k.split(":")[0] for k in current})
    compiled = sorted(set(COMPILED))
    print(f"{n_cases} cases ({len(compiled)} through the compiled loop), {len(current)} "
          f"arrays compared with np.array_equal: {len(bad)} differ")
    if args.verbose:
        print("numpy loop only: " + ", ".join(
            sorted({k.split(":")[0] for k in current} - set(compiled))))
    for line in bad:
        print("  " + line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
