#!/usr/bin/env python3
"""Regenerate the README's generated blocks, the findings page and the ledger snapshot.

    python scripts/update_readme.py                      # full report into a temp folder (minutes)
    python scripts/update_readme.py --from-report DIR    # from an earlier `ctlcc report --out DIR`
    python scripts/update_readme.py --analytic           # recompute the analytic claims (seconds)
    python scripts/update_readme.py --sources thesis_sim,inventory   # recompute these sources only
    python scripts/update_readme.py --blocks-only        # README, docs/findings.md from docs/claims.csv
    python scripts/update_readme.py --check              # exit 1 if any of them is stale

The claims ledger of the report is copied to ``docs/claims.csv`` (the
snapshot the generated text comes from and ``tests/test_readme.py`` checks
against the code), a handful of its figures are resized into
``docs/gallery/``, and from the snapshot are rewritten: the README's blocks
between ``<!-- BEGIN generated: NAME ... -->`` and ``<!-- END generated:
NAME -->`` (gallery, summary), the whole of ``docs/findings.md`` (every paper
claim with its rule and reason, the consistency checks apart) and
``data/claims_not_yet_checked.csv`` (the inventory's statements no record
judges, with what checking them needs).
"""

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ctlcc.ledger import read_claims_csv  # noqa: E402
from ctlcc.ledger import markdown  # noqa: E402

README = ROOT / "README.md"
SNAPSHOT = ROOT / "docs" / "claims.csv"
FINDINGS = ROOT / "docs" / "findings.md"
NOT_YET_CHECKED = ROOT / "data" / "claims_not_yet_checked.csv"
GALLERY = ROOT / "docs" / "gallery"
#: (report figure, alt text) shown at the top of the README, in order.
FIGURES = (
    ("claims_summary", "Verdicts of the claims ledger per paper"),
    ("thesis_eq4_18_pole_map", "ST-PD thesis eq. 4.18: printed poles belong to the swapped gains"),
    ("crosscheck_stpd_decay_per_rtt_vs_per_slot",
     "ST-PD on packets decays as the per-RTT loop predicts, not the per-slot loop"),
    ("crosscheck_reno_vs_mathis_pftk", "NewReno on packets vs the square-root law and PFTK"),
    ("iftp_fig3_bandwidth_rtt_vs_n", "IFTP Figure 3: printed closed forms vs enumeration"),
    ("primo_limit_cycle_phase_portrait", "Primo's limit cycle"),
)
#: Width of the gallery's PNGs. [pixels]
WIDTH = 900


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--from-report", metavar="DIR", help="use this earlier full report")
    group.add_argument("--analytic", action="store_true",
                       help="recompute the analytic ledger sources into docs/claims.csv, keep "
                            "the simulated rows, rewrite the README blocks")
    group.add_argument("--sources", metavar="LIST",
                       help="recompute only these ledger sources (comma-separated, as `ctlcc "
                            "claims --source` names them; 'inventory' is added) into "
                            "docs/claims.csv, keep the other rows, rewrite the README blocks")
    group.add_argument("--blocks-only", action="store_true",
                       help="only rewrite the README blocks from docs/claims.csv")
    group.add_argument("--check", action="store_true", help="exit 1 if the README is stale")
    args = parser.parse_args(argv)

    if args.check:
        stale = stale_blocks()
        for name in stale:
            print(f"{name} is stale: run python scripts/update_readme.py --blocks-only",
                  file=sys.stderr)
        return 1 if stale else 0
    if args.analytic:
        refresh_analytic()
    elif args.sources:
        names = [n.strip() for n in args.sources.split(",") if n.strip()]
        from ctlcc.ledger import source_names

        unknown = sorted(set(names) - set(source_names()))
        if unknown:
            parser.error(f"--sources must name ledger sources ({', '.join(source_names())}); "
                         f"got {', '.join(unknown)}")
        refresh_analytic(tuple(dict.fromkeys(names + ["inventory"])))
    elif not args.blocks_only:
        if args.from_report:
            refresh_from_report(Path(args.from_report))
        else:
            from ctlcc.report import build_report

            with tempfile.TemporaryDirectory() as tmp:
                out = Path(tmp) / "ctlcc-report"
                result = build_report(out, formats=("png",), progress=print)
                if not result.ok:
                    print(f"report incomplete (failed: {result.failed}); README not updated",
                          file=sys.stderr)
                    return 1
                refresh_from_report(out)
    README.write_text(markdown.apply_blocks(README.read_text(), expected_blocks()))
    FINDINGS.write_text(expected_findings(), encoding="utf-8")
    NOT_YET_CHECKED.write_text(expected_not_yet_checked(), encoding="utf-8")
    print(f"updated {README.relative_to(ROOT)}, {FINDINGS.relative_to(ROOT)} and "
          f"{NOT_YET_CHECKED.relative_to(ROOT)} from {SNAPSHOT.relative_to(ROOT)}")
    return 0


def refresh_from_report(report):
    """Copy the report's ledger to docs/claims.csv and its gallery figures to docs/gallery."""
    from PIL import Image

    missing = [name for name, _ in FIGURES if not (report / f"{name}.png").is_file()]
    if missing or not (report / "claims.csv").is_file():
        raise SystemExit(f"{report} is not a full report with PNGs (missing: "
                         f"{missing or ['claims.csv']}); run `ctlcc report --out {report}`")
    SNAPSHOT.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(report / "claims.csv", SNAPSHOT)
    GALLERY.mkdir(parents=True, exist_ok=True)
    for old in GALLERY.glob("*.png"):
        old.unlink()
    for name, _ in FIGURES:
        with Image.open(report / f"{name}.png") as image:
            height = round(image.height * WIDTH / image.width)
            image.convert("RGB").resize((WIDTH, height), Image.LANCZOS).save(
                GALLERY / f"{name}.png", optimize=True)


def refresh_analytic(sources=("stpd", "bounds", "fluid", "inventory")):
    """Recompute these ledger sources into the snapshot; keep the other sources' rows.

    The default is the fast (analytic) sources; ``inventory`` belongs in any list, since
    a new declared record takes its statement off the not-yet-checked rows."""
    import csv
    import io

    from ctlcc.ledger import COLUMNS, build_ledger, write_claims_csv

    with SNAPSHOT.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    fresh = io.StringIO()
    write_claims_csv(build_ledger(sources=list(sources)), fresh)
    new = list(csv.DictReader(io.StringIO(fresh.getvalue())))
    kept = [r for r in rows if r["source"] not in sources]
    # ledger order (the sources' order), the fresh rows in place of the old ones
    from ctlcc.ledger import source_names

    rank = {name: i for i, name in enumerate(source_names())}
    ordered = sorted(new + kept, key=lambda r: rank.get(r["source"], len(rank)))
    with SNAPSHOT.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(ordered)


def expected_blocks():
    """The README's blocks as the snapshot gives them."""
    ledger = read_claims_csv(SNAPSHOT)
    return markdown.render(ledger, [(f"{name}.png", alt) for name, alt in FIGURES])


def expected_findings():
    """``docs/findings.md`` as the snapshot gives it."""
    return markdown.findings_page(read_claims_csv(SNAPSHOT))


def expected_not_yet_checked():
    """``data/claims_not_yet_checked.csv`` as the inventory and the declared records give it."""
    import csv
    import io

    from ctlcc.claims.inventory import NOT_YET_CHECKED_COLUMNS, not_yet_checked_rows

    out = io.StringIO()
    out.write("# Generated by scripts/update_readme.py: every statement of the papers' inventory\n"
              "# (data/inventory/) that no declared record (data/ledger_*.csv) judges, with what\n"
              "# checking it needs (status 'not checkable': why it cannot be checked).\n")
    writer = csv.DictWriter(out, fieldnames=NOT_YET_CHECKED_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(not_yet_checked_rows())
    return out.getvalue()


def stale_blocks():
    """What differs from its generated form: README block names, the findings page, the
    not-yet-checked list."""
    current = markdown.read_blocks(README.read_text())
    stale = [f"README block {name!r}" for name, body in expected_blocks().items()
             if current.get(name, "").strip() != body.strip()]
    if not FINDINGS.is_file() or FINDINGS.read_text(encoding="utf-8") != expected_findings():
        stale.append(str(FINDINGS.relative_to(ROOT)))
    if (not NOT_YET_CHECKED.is_file()
            or NOT_YET_CHECKED.read_text(encoding="utf-8") != expected_not_yet_checked()):
        stale.append(str(NOT_YET_CHECKED.relative_to(ROOT)))
    return stale


if __name__ == "__main__":
    sys.exit(main())
