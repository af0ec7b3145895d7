# ctlcc.cli - the `ctlcc` command
"""The ``ctlcc`` command line."""

import argparse
import sys

from . import __version__

__all__ = ["main"]


def main(argv=None):
    """Entry point of the ``ctlcc`` console script."""
    parser = argparse.ArgumentParser(
        prog="ctlcc", description="Control-theory analysis of end-to-end congestion control."
    )
    parser.add_argument("--version", action="version", version=f"ctlcc {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    report = commands.add_parser(
        "report", help="regenerate every analytical figure and the cross-check tables"
    )
    report.add_argument("--out", default="ctlcc-report", help="output folder (default: %(default)s)")
    report.add_argument("--section", action="append", dest="sections", metavar="NAME",
                        help="only this section (repeatable)")
    report.add_argument("--quiet", action="store_true", help="print only the summary")
    _add_sweep_parser(commands)
    args = parser.parse_args(argv)

    if args.command == "sweep":
        return _run_sweep(args, parser)

    if args.command == "report":
        from .report import build_report

        try:
            index = build_report(args.out, sections=args.sections,
                                 log=None if args.quiet else print)
        except ValueError as err:
            parser.error(str(err))
        timing = ", ".join(f"{name} {sec:.1f} s" for name, sec in index.seconds.items())
        print(f"ctlcc report: {len(index.files)} files in {index.out_dir} ({timing})")
        print(f"index: {index.out_dir / 'index.md'}")
    return 0


# --- ctlcc sweep --------------------------------------------------------------------------

def _add_sweep_parser(commands):
    """The ``sweep`` subcommand: a parameter sweep from a TOML spec."""
    sweep = commands.add_parser(
        "sweep", help="run a parameter sweep (TOML spec) locally or on a Dask cluster",
        description="Run a parameter sweep described in a TOML file (see examples/sweeps/). "
                    "Rows are written as they finish; rerunning the same command skips the "
                    "rows already in --out. Exit status: 0 all rows done, 1 some rows failed, "
                    "2 bad input, 3 scheduler unreachable, 130 interrupted.")
    sweep.add_argument("spec", help="the sweep's TOML file")
    sweep.add_argument("--out", required=True,
                       help="results file, *.parquet or *.csv (resumed if it exists)")
    where = sweep.add_mutually_exclusive_group()
    where.add_argument("--jobs", type=int, default=None,
                       help="local worker processes (default: number of cores)")
    where.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                       help="run on an existing Dask distributed scheduler")
    where.add_argument("--local-cluster", type=int, metavar="N",
                       help="start a dask.distributed LocalCluster of N workers")
    sweep.add_argument("--retry-failed", action="store_true",
                       help="evaluate again the rows stored as failed")
    sweep.add_argument("--overwrite", action="store_true",
                       help="discard an existing --out (even of another spec)")
    sweep.add_argument("--timeout", type=float, default=10.0,
                       help="seconds to wait for --scheduler (default: %(default)s)")
    sweep.add_argument("--quiet", action="store_true", help="no progress bar")
    return sweep


def _run_sweep(args, parser):
    """Run ``ctlcc sweep``; return the exit status."""
    import signal

    from .errors import CtlccError
    from .sweep import SchedulerError, SweepInterrupted, load_spec, run

    def _terminate(signum, frame):                 # SIGTERM ends the sweep like Ctrl-C
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, _terminate)
    try:
        spec = load_spec(args.spec)
        result = run(spec, args.out, client=args.scheduler, jobs=args.jobs,
                     local_cluster=args.local_cluster, progress=not args.quiet,
                     retry_failed=args.retry_failed, overwrite=args.overwrite,
                     connect_timeout=args.timeout)
    except SchedulerError as err:
        print(f"ctlcc sweep: error: {err}", file=sys.stderr)
        return 3
    except SweepInterrupted as err:
        print(f"ctlcc sweep {spec.name or args.spec}: interrupted; {err.result.summary()}; "
              f"rerun the same command to resume", file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        print("ctlcc sweep: interrupted before the sweep started", file=sys.stderr)
        return 130
    except (ValueError, TypeError, CtlccError) as err:
        parser.error(str(err))
    print(f"ctlcc sweep {spec.name or args.spec}: {result.summary()}")
    if result.failed_total:
        errors = {}
        for row in result.rows():
            if row["status"] == "failed":
                errors.setdefault(row["error"], []).append(row["point"])
        for error, points in list(errors.items())[:5]:
            shown = ", ".join(map(str, points[:8])) + (" ..." if len(points) > 8 else "")
            print(f"  failed at point(s) {shown}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
