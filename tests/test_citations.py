"""Papers are cited by authors and year, never by the file names of ctlcc's working copies.

Outside users have neither the working copies of the papers nor the directory
that held them, so no tracked file may name them; every ``source`` column of
``data/*.csv`` must start with a citation that :func:`ctlcc.references.cite`
produces.
"""

import csv
import io
import re
import subprocess
from pathlib import Path

import pytest

from ctlcc.references import PAPERS, REFERENCES, bibtex, cite, full, reference

ROOT = Path(__file__).resolve().parents[1]

#: A working-copy file id (three digits, underscore, 16 hex digits) or the
#: directory that held them.
FORBIDDEN = [
    (re.compile(r"\b\d{3}_[0-9a-f]{16}\b"), "a paper's working-copy file id"),
    (re.compile(r"\.\./shared"), "the '../shared' directory"),
    (re.compile(r"\b(?:thesis|paper) 00[0-4]\b"), "a paper cited by its working-copy number"),
    (re.compile(r"(?<![\w.\-/])00[0-4] (?:eqs?\.|§|Fig|Alg|Table)"), "a paper cited by its working-copy number"),
]

#: Files still holding such citations until the simulator rewrite is merged
#: (the coordinator removes this list after the merge).
ALLOWED_UNTIL_SIM_MERGE = {
    "ctlcc/sim/_kernel.py",
    "ctlcc/sim/engine.py",
    "ctlcc/sim/scenarios.py",
}


def _tracked_files():
    try:
        out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
        return [ROOT / name for name in out]
    except (OSError, subprocess.CalledProcessError):   # an sdist without .git
        return [p for p in ROOT.rglob("*") if p.is_file() and ".git" not in p.parts]


def _text_files():
    for path in _tracked_files():
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("tests/") or not path.is_file():
            continue
        try:
            yield rel, path.read_text(encoding="utf-8")
        except UnicodeDecodeError:      # images, PDFs
            continue


def test_no_tracked_file_names_the_working_copies():
    offenders = []
    for rel, text in _text_files():
        if rel in ALLOWED_UNTIL_SIM_MERGE:
            continue
        for lineno, line in enumerate(text.splitlines(), 1):
            for pattern, what in FORBIDDEN:
                if pattern.search(line):
                    offenders.append(f"{rel}:{lineno}: {what}: {line.strip()[:100]}")
    assert not offenders, "cite papers with ctlcc.references.cite:\n" + "\n".join(offenders)


def test_the_pattern_catches_what_it_is_meant_to():
    # The check above is only as good as its patterns: they must fire on the
    # forms that were in use and stay silent on ordinary numbers.
    hits = ["thesis 002_bd014ea59e1383a2, eq. (4.17)", "see ../shared/seeds/README.md",
            "004 eq. (1)", "paper 001 §III", "(thesis 002 §4.3)"]
    misses = ["seeds 0-2", "Xu (2002), eq. (4.17)", "0.004 eq. (1)", "RFC 5348 §3.1", "x_001 §2"]
    assert all(any(p.search(s) for p, _ in FORBIDDEN) for s in hits)
    assert not any(p.search(s) for s in misses for p, _ in FORBIDDEN)


def _csv_rows(path):
    body = "".join(line for line in path.read_text(encoding="utf-8").splitlines(True)
                   if not line.startswith("#"))
    return list(csv.DictReader(io.StringIO(body)))


PAPER_CSVS = sorted(p for p in (ROOT / "data").glob("*.csv") if not p.name.startswith("ns3_"))


@pytest.mark.parametrize("path", PAPER_CSVS, ids=lambda p: p.name)
def test_data_source_columns_cite_a_bibliography_entry(path):
    shorts = [reference(key).short for key in REFERENCES]
    rows = _csv_rows(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    header = next(line for line in lines if line and not line.startswith("#"))
    assert "source" in next(csv.reader([header])), f"{path.name} has no source column"
    # only the list of claims not yet checked may be empty (every known claim is checked now)
    assert rows or path.name == "claims_not_yet_checked.csv", f"{path.name} has no rows"
    for row in rows:
        assert any(row["source"].startswith(s) for s in shorts), (
            f"{path.name}: source {row['source']!r} does not start with one of {shorts}")


@pytest.mark.parametrize("key", sorted(REFERENCES))
def test_every_entry_can_be_found(key):
    ref = reference(key)
    assert ref.authors and ref.title and ref.venue and 1900 < ref.year < 2100
    # A reader must be able to locate the work: a DOI, an address, or a note
    # saying why neither could be established.
    assert ref.doi or ref.url or ref.note, f"{key}: no DOI, URL or note"
    assert ref.short in full(key) or ref.label or str(ref.year) in full(key)
    assert bibtex(key).startswith(f"@{ref.kind}{{{key},")


def test_the_five_papers_are_entries_and_cite_keeps_the_location():
    assert set(PAPERS) <= set(REFERENCES)
    assert cite("stpd", "eq. (4.17)") == "Xu (2002), eq. (4.17)"
    with pytest.raises(ValueError, match=r"key must be one of .*'stpd'.* got 'thesis'"):
        cite("thesis")
