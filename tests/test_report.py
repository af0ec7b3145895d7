"""``ctlcc report``: the output folder it owns, failing sections, formats, fonts, the CLI.

Most tests run two tiny sections (tests/report_sections*.py) in this process
(``jobs=1``) with a fake ledger source, so they take a second each; one test
runs the real ``bounds`` section in worker processes.
"""

import csv
import json
import os
import re
import zlib

import pytest

from ctlcc import cli, ledger, report
from ctlcc.errors import ParameterError
from ctlcc.report import MANIFEST, ReportOutputError, build_report, check_out_dir

FAKE = ("fake", "tests.report_sections", "Fake section")
BROKEN = ("broken", "tests.report_sections_failing", "Broken section")


@pytest.fixture
def fake_sections(monkeypatch):
    """Report sections = fake (+ broken) + claims; the ledger = one fake source."""
    monkeypatch.setattr(report, "SECTIONS", (FAKE, BROKEN, ("claims", "ctlcc.ledger", "Claims")))
    monkeypatch.setattr(ledger, "SOURCES", [
        ledger.LedgerSource("fake", "tests.report_sections:claims", "fake", "test claims")])


def _build(out, sections=("fake",), **kw):
    kw.setdefault("jobs", 1)
    kw.setdefault("formats", ("png", "pdf"))
    return build_report(out, sections=list(sections), **kw)


# --- the output folder --------------------------------------------------------------------

def test_bad_out_is_one_clear_error_before_any_work(tmp_path, capsys):
    a_file = tmp_path / "notes.txt"
    a_file.write_text("mine")
    foreign = tmp_path / "data"
    foreign.mkdir()
    (foreign / "paper.csv").write_text("x\n1\n")
    cases = [
        ("", r"--out must name a folder; got ''"),
        ("   ", r"--out must name a folder"),
        (str(a_file), r"is a file, not a folder"),
        (str(a_file / "report"), r"lies under .*notes\.txt', which is a file"),
        (str(foreign), r"folder ctlcc report did not make \(1 other files: paper\.csv\).*--force"),
    ]
    for out, match in cases:
        with pytest.raises(ReportOutputError, match=match):
            check_out_dir(out)
        assert cli.main(["report", "--out", out, "--section", "bounds"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("ctlcc report: error: --out"), err
    # nothing was created or changed
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "notes.txt"]
    assert a_file.read_text() == "mine" and [p.name for p in foreign.iterdir()] == ["paper.csv"]
    assert issubclass(ReportOutputError, ValueError)


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0,
                    reason="root can write into a read-only folder; the probe cannot be tested")
def test_read_only_out_is_refused(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        with pytest.raises(ReportOutputError, match=r"cannot write in .*locked"):
            check_out_dir(locked / "report")
    finally:
        locked.chmod(0o755)


def test_force_writes_beside_foreign_files_and_never_overwrites_them(tmp_path, fake_sections):
    out = tmp_path / "shared"
    out.mkdir()
    (out / "mine.txt").write_text("mine")
    with pytest.raises(ReportOutputError, match="did not make"):
        _build(out)
    result = _build(out, force=True)
    assert result.ok and (out / "mine.txt").read_text() == "mine"
    assert (out / "test_figure.png").is_file() and (out / "index.html").is_file()
    # a foreign file with a name the report writes: refused, nothing changed
    (out / "mine.txt").unlink()
    (out / "test_table.csv").unlink()
    (out / "test_table.csv").write_text("my own table")
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    with pytest.raises(ReportOutputError, match=r"overwrite files it did not write \(test_table\.csv"):
        _build(out, force=True)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]   # no staging left


def test_rerun_replaces_the_report_and_removes_stale_files(tmp_path, fake_sections):
    out = tmp_path / "report"
    first = _build(out, formats=("png", "pdf", "svg"))
    assert (out / "test_figure.svg").is_file()
    manifest = json.loads((out / MANIFEST).read_text())
    assert set(manifest["files"]) == {p.name for p in out.iterdir()} - {MANIFEST}
    inode = (out / "index.html").stat().st_ino
    second = _build(out, formats=("png",))
    assert not (out / "test_figure.svg").exists() and not (out / "test_figure.pdf").exists()
    assert (out / "test_figure.png").is_file()
    assert (out / "index.html").stat().st_ino != inode               # a new file, swapped in
    assert {p.name for p in out.iterdir()} - {MANIFEST} == \
        set(json.loads((out / MANIFEST).read_text())["files"])
    assert first.ok and second.ok
    assert not [p for p in tmp_path.iterdir() if p.name != "report"]   # staging and old removed


def test_files_added_to_a_report_are_kept_unless_forced(tmp_path, fake_sections):
    out = tmp_path / "report"
    _build(out)
    (out / "my notes.txt").write_text("keep me")
    with pytest.raises(ReportOutputError, match="earlier report with files added"):
        _build(out)
    _build(out, force=True)
    assert (out / "my notes.txt").read_text() == "keep me"


# --- sections -----------------------------------------------------------------------------

def test_a_failing_section_is_reported_and_the_others_are_written(tmp_path, fake_sections,
                                                                   capsys):
    out = tmp_path / "report"
    lines = []
    result = _build(out, sections=("fake", "broken"), progress=lines.append)
    assert not result.ok and result.failed == ("broken",)
    broken = {s.name: s for s in result.sections}["broken"]
    assert broken.error == "RuntimeError: section broke on purpose"
    assert "report_sections_failing.py" in broken.traceback
    assert (out / "test_figure.png").is_file() and (out / "before_failure.csv").is_file()
    page = (out / "section-broken.html").read_text()
    assert "section broke on purpose" in page and "Traceback (most recent call last)" in page
    assert "section-broken.html#traceback" in (out / "index.html").read_text()
    assert any("broken" in line and "FAILED" in line for line in lines)
    assert len(lines) == 3 and all(line.startswith("[") for line in lines)   # fake, broken, claims
    # the command: non-zero exit, traceback on stderr, site still written
    code = cli.main(["report", "--out", str(out), "--section", "fake", "--section", "broken",
                     "--jobs", "1", "--format", "png"])
    captured = capsys.readouterr()
    assert code == 1
    assert "section broken FAILED: RuntimeError: section broke on purpose" in captured.err
    assert "Traceback" in captured.err and "open: " in captured.out


def test_reuse_copies_unchanged_sections(tmp_path, fake_sections):
    out = tmp_path / "report"
    _build(out)
    again = _build(out, reuse=True)
    status = {s.name: s.status for s in again.sections}
    assert status == {"fake": "reused", "claims": "reused"}
    assert (out / "test_figure.png").is_file()
    assert [c.id for c in again.ledger.claims] == ["cbraa-test-reproduced", "cbraa-test-differs",
                                                   "cbraa-test-consistency"]
    changed = _build(out, reuse=True, dpi=100)      # another option: inputs changed, rerun
    assert {s.name: s.status for s in changed.sections} == {"fake": "ok", "claims": "ok"}


def test_claims_csv_and_ledger_page_hold_every_claim(tmp_path, fake_sections):
    out = tmp_path / "report"
    result = _build(out)
    with (out / "claims.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert [r["id"] for r in rows] == ["cbraa-test-reproduced", "cbraa-test-differs",
                                       "cbraa-test-consistency"]
    assert rows[1]["verdict"] == "differs" and rows[1]["reason"] == "2 is not 1"
    assert rows[0]["source"] == "fake" and rows[2]["kind"] == "consistency"
    page = (out / "claims.html").read_text()
    assert page.count('<tr data-paper="cbraa"') == 2          # the paper's claims only
    # the verdict links to the claim's evidence card, which links the figure of the report
    assert 'href="#claim-cbraa-test-differs"' in page and 'id="claim-cbraa-test-differs"' in page
    assert 'href="section-fake.html#test_figure"' in page
    checks = (out / "consistency.html").read_text()
    assert checks.count('<tr data-paper="cbraa"') == 1 and "cbraa-test-consistency" in checks
    # headline counts: paper records only; the consistency check counted apart
    assert result.ledger.counts()["cbraa"] == {"reproduced": 1, "differs": 1,
                                                "printed-error": 0, "paper-inconsistent": 0,
                                                "not yet checked": 0}
    assert result.ledger.counts("consistency")["cbraa"]["reproduced"] == 1
    index = (out / "index.html").read_text()
    assert "2 claims of the papers" in index and "1 <a href=\"consistency.html\">" in index


def test_every_relative_link_and_image_of_the_site_exists(tmp_path, fake_sections):
    """Static check of every href/src (the browser test checks the same in Chromium)."""
    out = tmp_path / "report"
    _build(out, sections=("fake", "broken"))
    pages = sorted(out.glob("*.html"))
    assert {p.name for p in pages} >= {"index.html", "claims.html", "consistency.html",
                                       "gallery.html",
                                       "section-fake.html", "section-broken.html",
                                       "section-claims.html"}
    ids = {p.name: set(re.findall(r'\sid="([^"]+)"', p.read_text())) for p in pages}
    for page in pages:
        for link in re.findall(r'(?:href|src)="([^"]+)"', page.read_text()):
            if link.startswith(("http:", "https:", "//")):
                pytest.fail(f"{page.name} links outside the report: {link}")
            target, _, anchor = link.partition("#")
            target = target or page.name
            assert (out / target).is_file(), (page.name, link)
            if anchor and "=" not in anchor:
                from urllib.parse import unquote

                assert unquote(anchor) in ids[target], (page.name, link)


# --- figures: formats, dpi, fonts ---------------------------------------------------------

def test_pdf_fonts_are_truetype_not_type3(tmp_path, fake_sections):
    """Journals reject Type 3 fonts: every font dictionary of the PDFs is TrueType (Type 42)."""
    out = tmp_path / "report"
    for style in ("paper", "slides"):
        _build(out, style=style, formats=("pdf",))
        for pdf in (out / "test_figure.pdf", out / "claims_summary.pdf"):
            subtypes = _pdf_font_subtypes(pdf.read_bytes())
            assert subtypes, f"{pdf.name}: no font dictionary found"
            assert "Type3" not in subtypes, (style, pdf.name, subtypes)
            assert subtypes <= {"TrueType", "Type0", "CIDFontType2"}, subtypes


def test_formats_and_dpi(tmp_path, fake_sections):
    from PIL import Image

    out = tmp_path / "report"
    _build(out, formats=("png", "svg"), dpi=72)
    assert (out / "test_figure.svg").read_text().lstrip().startswith("<?xml")
    assert not (out / "test_figure.pdf").exists()
    with Image.open(out / "test_figure.png") as image:
        assert image.info["dpi"] == pytest.approx((72, 72), abs=0.01)
    with pytest.raises(ParameterError, match=r"format must be a comma-separated subset of png, "
                                             r"pdf, svg; got bmp"):
        _build(out, formats="bmp")
    with pytest.raises(ParameterError, match=r"dpi must be an integer in \[30, 1200\]; got 5"):
        _build(out, dpi=5)
    with pytest.raises(ParameterError, match=r"jobs must be an integer >= 1 and <= 1024, got 0"):
        _build(out, jobs=0)
    with pytest.raises(ParameterError, match=r"style must be one of paper, slides; got 'poster'"):
        _build(out, style="poster")
    with pytest.raises(ParameterError, match=r"sections: unknown \['nope'\]"):
        _build(out, sections=("nope",))


def test_sections_in_worker_processes(tmp_path, fake_sections):
    """Three sections in two spawned worker processes; a failure stays in its section.

    (tests/test_site_browser.py runs the real bounds section and the analytic ledger
    in workers too.)
    """
    out = tmp_path / "report"
    lines = []
    result = build_report(out, sections=["fake", "broken"], jobs=2, formats=("png",), dpi=60,
                          progress=lines.append)
    assert [s.name for s in result.sections] == ["fake", "broken", "claims"]
    assert {s.name: s.status for s in result.sections} == \
        {"fake": "ok", "broken": "failed", "claims": "ok"}
    assert [c.id for c in result.ledger.claims] == ["cbraa-test-reproduced", "cbraa-test-differs",
                                                    "cbraa-test-consistency"]
    assert (out / "test_figure.png").is_file() and (out / "before_failure.csv").is_file()
    assert len(lines) == 3 and result.provenance["jobs"] == 2


# --- command line -------------------------------------------------------------------------

def test_help_lists_every_command_and_section(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    text = capsys.readouterr().out
    assert "report" in text and "claims" in text
    with pytest.raises(SystemExit):
        cli.main(["report", "--help"])
    text = capsys.readouterr().out
    for name, _, _ in report.SECTIONS:
        assert re.search(rf"^\s+{name}\s+\S", text, flags=re.M), name
    for option in ("--jobs", "--reuse", "--force", "--style", "--format", "--dpi"):
        assert option in text


@pytest.mark.parametrize("args, message", [
    (["--format", "png,bmp"], "format must be a comma-separated subset"),
    (["--dpi", "5"], "dpi must be an integer in [30, 1200]"),
    (["--jobs", "0"], "jobs must be an integer >= 1"),
    (["--style", "poster"], "invalid choice: 'poster'"),
    (["--section", "nope"], "invalid choice: 'nope'"),
])
def test_cli_bad_options(args, message, tmp_path, capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["report", "--out", str(tmp_path / "r")] + args)
    assert info.value.code == 2 and message in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


# --- helpers ------------------------------------------------------------------------------

def _pdf_font_subtypes(data):
    """Subtypes of every /Type /Font dictionary, in plain or Flate-compressed objects."""
    chunks = [data]
    for stream in re.findall(rb"stream\r?\n(.*?)\r?\nendstream", data, flags=re.S):
        try:
            chunks.append(zlib.decompress(stream))
        except zlib.error:
            pass
    subtypes = set()
    for chunk in chunks:
        for obj in re.findall(rb"<<(?:[^<>]|<<(?:[^<>]|<<[^<>]*>>)*>>)*>>", chunk):
            if re.search(rb"/Type\s*/Font\b", obj):
                match = re.search(rb"/Subtype\s*/(\w+)", obj)
                if match:
                    subtypes.add(match.group(1).decode())
    return subtypes
