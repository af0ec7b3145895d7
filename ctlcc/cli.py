# ctlcc.cli - the `ctlcc` command
"""The ``ctlcc`` command line: ``ctlcc report``, ``ctlcc claims``.

Each command is one ``_add_<command>(commands)`` function that declares
its sub-parser and sets ``run`` to the function executing it; add a new
command by writing one such pair and calling it in :func:`build_parser`.
"""

import argparse
import shutil
import sys

from ._version import describe

__all__ = ["main", "build_parser"]


def main(argv=None):
    """Entry point of the ``ctlcc`` console script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    return args.run(args, parser)


def build_parser():
    """The argument parser of ``ctlcc`` with every command."""
    parser = argparse.ArgumentParser(
        prog="ctlcc", description="Control-theory analysis of end-to-end congestion control.")
    parser.add_argument("--version", action=_Version, nargs=0,
                        help="print the version (and the git commit of a checkout) and exit")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                     title="commands")
    _add_report(commands)
    _add_claims(commands)
    _add_sweep_parser(commands)
    return parser


class _Version(argparse.Action):
    """``--version``: asks git for the commit only when the option is given."""

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"ctlcc {describe()}")
        parser.exit()


# --- ctlcc report -------------------------------------------------------------------------

def _add_report(commands):
    from .report import FORMATS, SECTIONS, STYLES

    listing = "\n".join(f"  {name:<11} {heading}" for name, _, heading in SECTIONS)
    report = commands.add_parser(
        "report", help="every figure, table and the claims ledger, as a static site",
        description="Run the report's sections (in parallel worker processes) and write every "
                    "figure, table, the claims ledger (claims.csv) and a static site "
                    "(index.html) into --out.",
        epilog=f"sections:\n{listing}\n\nThe claims section (the analytic part of the ledger) "
               "always runs. The output folder must be new, empty or an earlier report; an "
               "earlier report is replaced as a whole.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    report.add_argument("--out", default="ctlcc-report", metavar="DIR",
                        help="output folder (default: %(default)s)")
    report.add_argument("--section", action="append", dest="sections", metavar="NAME",
                        choices=[name for name, _, _ in SECTIONS],
                        help="only this section (repeatable; names below)")
    report.add_argument("--jobs", type=int, default=None, metavar="N",
                        help="worker processes (default: the number of CPU cores)")
    report.add_argument("--reuse", action="store_true",
                        help="copy sections whose code, data and options did not change from "
                             "the earlier report in --out instead of rerunning them")
    report.add_argument("--force", action="store_true",
                        help="write into a non-empty folder that is not an earlier report "
                             "(its files are never overwritten)")
    report.add_argument("--style", choices=STYLES, default="paper",
                        help="figure style (default: %(default)s)")
    report.add_argument("--format", default="png,pdf", metavar="LIST",
                        help=f"figure formats, comma-separated among {','.join(FORMATS)} "
                             "(default: %(default)s)")
    report.add_argument("--dpi", type=int, default=150, help="PNG resolution (default: %(default)s)")
    report.add_argument("--quiet", action="store_true", help="print only the summary")
    report.set_defaults(run=_run_report)


def _run_report(args, parser):
    from .errors import ParameterError
    from .report import ReportOutputError, build_report, check_out_dir

    import time

    start = time.perf_counter()
    try:
        check_out_dir(args.out, force=args.force)      # one clear line before any work
        index = build_report(
            args.out, sections=args.sections, dpi=args.dpi, jobs=args.jobs,
            formats=args.format, style=args.style, reuse=args.reuse, force=args.force,
            progress=None if args.quiet else print)
    except ReportOutputError as err:
        print(f"ctlcc report: error: {err}", file=sys.stderr)
        return 2
    except ParameterError as err:
        parser.error(str(err))
    timing = ", ".join(f"{name} {sec:.1f} s" for name, sec in index.seconds.items())
    print(f"ctlcc report: {len(index.files)} files in {index.out_dir} "
          f"({time.perf_counter() - start:.1f} s; {timing})")
    total = index.ledger.totals("paper")
    checks = index.ledger.totals("consistency")
    print("the papers' claims: " + ", ".join(f"{n} {v}" for v, n in total.items())
          + f"; consistency checks, counted apart: {checks['reproduced']} reproduced, "
            f"{checks['differs']} differ ({len(index.ledger.claims)} records in "
            f"{index.out_dir / 'claims.csv'})")
    for section in index.sections:
        if section.status == "failed":
            print(f"\nsection {section.name} FAILED: {section.error}\n{section.traceback}",
                  file=sys.stderr)
        for failure in section.source_failures:
            print(f"\nledger source {failure['source']} FAILED: {failure['message']}\n"
                  f"{failure['traceback']}", file=sys.stderr)
    print(f"open: {index.out_dir / 'index.html'}")
    if not index.ok:
        print(f"ctlcc report: incomplete: failed sections {', '.join(index.failed) or 'none'}; "
              "see above and the site", file=sys.stderr)
        return 1
    return 0


# --- ctlcc claims -------------------------------------------------------------------------

def _add_claims(commands):
    from .claims import KINDS, VERDICTS
    from .ledger import SOURCES
    from .references import REFERENCES

    sources = "\n".join(f"  {s.name:<16} {s.description}" for s in SOURCES)
    claims = commands.add_parser(
        "claims", help="print the claims ledger: each paper claim and ctlcc's verdict",
        description="Build the claims ledger (the analytic sources take seconds, the "
                    "simulated ones minutes) or read one from a report's claims.csv, and print "
                    "it as a table. Each record is judged by the rule declared in "
                    "data/ledger_<paper>.csv; consistency checks are marked (c) and counted "
                    "apart.",
        epilog=f"sources:\n{sources}",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    claims.add_argument("--paper", action="append", choices=list(REFERENCES), metavar="KEY",
                        help=f"only this paper (repeatable): {', '.join(REFERENCES)}")
    claims.add_argument("--verdict", action="append", choices=VERDICTS, metavar="VERDICT",
                        help=f"only this verdict (repeatable): {', '.join(VERDICTS)}")
    claims.add_argument("--kind", action="append", choices=KINDS, metavar="KIND",
                        help="only this kind (repeatable): paper (the papers' claims) or "
                             "consistency (ctlcc against itself)")
    claims.add_argument("--source", action="append", dest="sources", metavar="NAME",
                        choices=[s.name for s in SOURCES],
                        help="only this ledger source (repeatable; default all)")
    claims.add_argument("--from", dest="from_csv", metavar="CSV",
                        help="read the ledger from a claims.csv (e.g. ctlcc-report/claims.csv) "
                             "instead of computing it")
    claims.add_argument("--csv", action="store_true", help="print CSV instead of a table")
    claims.set_defaults(run=_run_claims)


def _run_claims(args, parser):
    from .errors import ParameterError
    from .ledger import build_ledger, format_table, read_claims_csv, write_claims_csv

    try:
        if args.from_csv:
            ledger = read_claims_csv(args.from_csv)
        else:
            ledger = build_ledger(sources=args.sources,
                                  log=lambda line: print(line, file=sys.stderr))
    except ParameterError as err:
        parser.error(str(err))
    ledger = ledger.filtered(papers=args.paper, verdicts=args.verdict, kinds=args.kind)
    if args.csv:
        write_claims_csv(ledger, sys.stdout)
    else:
        print(format_table(ledger, width=shutil.get_terminal_size((140, 40)).columns), end="")
        for kind in ("paper", "consistency"):
            summary = {}
            for claim in ledger.claims:
                if claim.kind == kind:
                    summary[claim.verdict] = summary.get(claim.verdict, 0) + 1
            if summary:
                what = "claims of the papers" if kind == "paper" else "consistency checks"
                print(f"\n{sum(summary.values())} {what}: "
                      + ", ".join(f"{n} {v}" for v, n in summary.items()))
    for failure in ledger.failures:
        print(f"source {failure.source}: {failure.message}", file=sys.stderr)
    return 1 if any(not f.message.startswith("not installed") for f in ledger.failures) else 0


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
    sweep.set_defaults(run=_run_sweep)
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
