# benchmarks/ns3_phase.py - one matrix scenario at shifted phases, or with other engine senders
"""Diagnose a matrix scenario (docs/ns3_agreement.md, "Two disagreements diagnosed").

``--offset MS`` (repeatable) lengthens the base RTT of the scenario's last
flow by MS milliseconds (its access delay by MS/2 each way) - a fraction of
a packet time that moves the drop-tail phase; ``--sender EXPR`` replaces
the engine's senders (a ctlcc.sim.senders expression, e.g.
``'Sack(recovery="prr-ns3", limited_transmit=False)'``); ``--ns3`` runs ns-3
(the scenario's settings) instead of the engine, all seeds in one ns-3 worker;
``--ns3-option KEY=VALUE`` (repeatable) changes one of those settings
(a field of ``ctlcc.sim.ns3.Ns3Options``, e.g. ``sack=True`` or
``recovery=prr``).  Dumbbell scenarios only.

Usage (from the repository root)::

    nice -n 10 python benchmarks/ns3_phase.py prr_bdp01 --offset 0 --offset 0.05 --offset 0.2
    nice -n 10 python benchmarks/ns3_phase.py prr_bdp01 --offset 0.2 --seed 1 --seed 2 --ns3
    nice -n 10 python benchmarks/ns3_phase.py prr_bdp01 --sender 'Sack(recovery="prr-ns3", limited_transmit=False)'
    nice -n 10 python benchmarks/ns3_phase.py cubic_newreno --seed 1 --seed 2 \\
        --sender '[Cubic(recovery="newreno", limited_transmit=False, slow_start="ns3"), "newreno"]'
    nice -n 10 python benchmarks/ns3_phase.py cubic_newreno --ns3 --ns3-option sack=True
"""

import argparse
import dataclasses
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ctlcc.sim import ns3_matrix as M  # noqa: E402
from ctlcc.sim import senders  # noqa: E402
from ctlcc.sim.scenarios import dumbbell  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("case")
    parser.add_argument("--offset", action="append", type=float, help="[ms], repeatable")
    parser.add_argument("--seed", action="append", type=int, help="default: the scenario's")
    parser.add_argument("--sender", help="engine senders: one spec for all flows or a list")
    parser.add_argument("--ns3", action="store_true", help="run ns-3 instead of the engine")
    parser.add_argument("--ns3-option", action="append", default=[], metavar="KEY=VALUE",
                        help="with --ns3: change one of the scenario's ns-3 settings "
                             "(an Ns3Options field), repeatable")
    args = parser.parse_args(argv)
    case = M.matrix_case(args.case)
    if args.ns3_option:
        if not args.ns3:
            raise SystemExit("--ns3-option needs --ns3")
        case = dataclasses.replace(case, options=_ns3_options(case.options, args.ns3_option))
        print(f"ns-3 settings: {case.options}", flush=True)
    cell = dict(zip(case.build.__code__.co_freevars,
                    [c.cell_contents for c in case.build.__closure__]))
    if "delays" not in cell:
        raise SystemExit(f"{args.case} is not a dumbbell scenario")
    engine = list(cell["engine"])
    if args.sender:
        spec = eval(args.sender, {k: getattr(senders, k) for k in senders.__all__})  # noqa: S307
        engine = list(spec) if isinstance(spec, (list, tuple)) else [spec] * len(engine)
    seeds = args.seed or list(case.seeds)
    for offset in args.offset or [0.0]:
        delays = list(cell["delays"])
        delays[-1] += offset * 1e-3 / 2.0

        def build(starts, delays=delays):
            return dumbbell(len(delays), access_rate=cell["access_ratio"] * cell["rate"],
                            access_delay=delays, bottleneck_rate=cell["rate"],
                            bottleneck_delay=M._BOTTLENECK_DELAY, buffer=cell["buffer"],
                            loss=cell["loss"], protocol=engine, start=starts, name="phase",
                            tcp=M.MATRIX_TCP)

        shifted = dataclasses.replace(case, build=build, engine_protocols=tuple(engine))
        rows = _ns3(shifted, seeds) if args.ns3 else [_engine(shifted, s) for s in seeds]
        ratios = [r[0]["share_ratio"] for r in rows]
        print(f"{args.case} {'ns-3' if args.ns3 else 'engine'} offset {offset:+.2f} ms: "
              f"share ratio {np.mean(ratios):.2f} (seeds {seeds}: "
              f"{', '.join(f'{x:.2f}' for x in ratios)})", flush=True)
        for seed, (metrics, flows) in zip(seeds, rows):
            print(f"  seed {seed}: " + ", ".join(f"{k} {v:.4g}" for k, v in metrics.items()))
            for k, f in enumerate(flows):
                print(f"    flow {k}: " + ", ".join(f"{n} {v}" for n, v in f.items()))


def _engine(case, seed):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from ns3_matrix import engine_run

    metrics, result = engine_run(case, seed)
    flows = [dict(dropped=f.dropped, retransmitted=f.retransmitted, timeouts=f.timeouts,
                  fast_retransmits=f.fast_retransmits) for f in result.flows]
    return metrics, flows


def _ns3_options(options, pairs):
    """``options`` with the ``KEY=VALUE`` pairs applied (values as Python literals)."""
    import ast

    fields = {f.name for f in dataclasses.fields(options)}
    changes = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or key not in fields:
            raise SystemExit(f"--ns3-option must be KEY=VALUE with KEY one of "
                             f"{', '.join(sorted(fields))}; got {pair!r}")
        try:
            changes[key] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            changes[key] = value  # a bare word, e.g. recovery=prr
    return dataclasses.replace(options, **changes)


def _ns3(case, seeds):
    from ctlcc.sim.ns3 import run_ns3_many

    results = run_ns3_many([dict(scenario=case.scenario(seed), duration=case.duration, seed=seed,
                                 warmup=case.warmup, options=case.options,
                                 protocols=case.protocols) for seed in seeds])
    rows = []
    for r in results:
        metrics = M.metrics_of(case, [f.goodput_bps for f in r.flows], r.queues[0].mean,
                               sum(f.retransmitted for f in r.flows))
        flows = [dict(dropped=f.dropped, retransmitted=f.retransmitted, timeouts=f.timeouts,
                      fast_retransmits=f.fast_retransmits) for f in r.flows]
        rows.append((metrics, flows))
    return rows


if __name__ == "__main__":
    main()
