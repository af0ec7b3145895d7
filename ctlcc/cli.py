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
    args = parser.parse_args(argv)

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


if __name__ == "__main__":
    sys.exit(main())
