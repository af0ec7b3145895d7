"""Bad arguments to the ``ctlcc`` command end with one error line and exit status 2 (issue 23).

Every subcommand is called in this process through :func:`ctlcc.cli.main`
with one bad argument; the command must refuse it before doing any work:
exit status 2, an ``error:`` line naming the problem on stderr, never a
traceback (an exception escaping ``main`` fails the test with it).  The
report's sections and the sweep's evaluation are replaced by a function that
fails the test, so a bad argument that slips through shows as "ran" instead
of running the whole report.
"""

import subprocess
import sys

import pytest

from ctlcc import cli, report
from ctlcc.sweep import _run as sweep_run

_SPEC = ('kind = "bound"\nmetrics = ["value"]\n[fixed]\nfunction = "mathis_rate"\n'
         'rtt = 0.1\n[grid]\np = [0.01, 0.02]\n')


@pytest.fixture
def files(tmp_path, monkeypatch):
    """Spec files (good, malformed, unknown key) and a CSV that is not a ledger."""
    def no_work(*args, **kwargs):
        raise AssertionError("ran: the bad argument was not refused before the work")

    monkeypatch.setattr(report, "_run_sections", no_work)
    monkeypatch.setattr(sweep_run, "_drive", no_work)
    (tmp_path / "spec.toml").write_text(_SPEC)
    (tmp_path / "malformed.toml").write_text('kind = "bound"\nmetrics = [\n')
    (tmp_path / "unknown_key.toml").write_text(_SPEC.replace("[fixed]", 'colour = "red"\n[fixed]'))
    (tmp_path / "bad_kind.toml").write_text(_SPEC.replace('"bound"', '"nope"', 1))
    (tmp_path / "not_a_ledger.csv").write_text("a,b\n1,2\n")
    (tmp_path / "binary.csv").write_bytes(b"\xff\xfe\x00garbage\x00")
    (tmp_path / "a_file").write_text("x")
    return tmp_path


def _expand(args, tmp):
    return [a.replace("{tmp}", str(tmp)) for a in args]


BAD = [
    # (label, argv, what the error line must contain)
    ("no command", [], "required"),
    ("unknown command", ["nope"], "invalid choice"),
    ("unknown option", ["report", "--colour", "red"], "unrecognized arguments"),
    # report
    ("report unknown section", ["report", "--out", "{tmp}/r", "--section", "nope"],
     "invalid choice: 'nope'"),
    ("report jobs 0", ["report", "--out", "{tmp}/r", "--jobs", "0"], "jobs must be an integer"),
    ("report jobs -1", ["report", "--out", "{tmp}/r", "--jobs", "-1"], "jobs must be an integer"),
    ("report jobs a word", ["report", "--out", "{tmp}/r", "--jobs", "many"],
     "invalid int value: 'many'"),
    ("report jobs beyond memory", ["report", "--out", "{tmp}/r", "--jobs", "1000000000"],
     "what memory allows"),
    ("report dpi", ["report", "--out", "{tmp}/r", "--dpi", "5"], "dpi must be an integer"),
    ("report format", ["report", "--out", "{tmp}/r", "--format", "bmp"], "format"),
    ("report style", ["report", "--out", "{tmp}/r", "--style", "poster"], "invalid choice"),
    ("report out unwritable", ["report", "--out", "/proc/ctlcc-report"], "/proc/ctlcc-report"),
    ("report out a file", ["report", "--out", "{tmp}/a_file"], "a_file"),
    ("report out empty", ["report", "--out", ""], "--out"),
    # claims
    ("claims unknown paper", ["claims", "--paper", "nope"], "invalid choice: 'nope'"),
    ("claims unknown verdict", ["claims", "--verdict", "nope"], "invalid choice: 'nope'"),
    ("claims unknown kind", ["claims", "--kind", "nope"], "invalid choice: 'nope'"),
    ("claims unknown source", ["claims", "--source", "nope"], "nope"),
    ("claims missing csv", ["claims", "--from", "{tmp}/missing.csv"], "missing.csv"),
    ("claims csv a folder", ["claims", "--from", "{tmp}"], "is a folder"),
    ("claims csv not a ledger", ["claims", "--from", "{tmp}/not_a_ledger.csv"],
     "not_a_ledger.csv"),
    ("claims csv binary", ["claims", "--from", "{tmp}/binary.csv"], "binary.csv"),
    # sweep
    ("sweep no out", ["sweep", "{tmp}/spec.toml"], "--out"),
    ("sweep missing spec", ["sweep", "{tmp}/missing.toml", "--out", "{tmp}/r.parquet"],
     "missing.toml"),
    ("sweep spec a folder", ["sweep", "{tmp}", "--out", "{tmp}/r.parquet"], "spec"),
    ("sweep malformed spec", ["sweep", "{tmp}/malformed.toml", "--out", "{tmp}/r.parquet"],
     "malformed.toml"),
    ("sweep unknown key", ["sweep", "{tmp}/unknown_key.toml", "--out", "{tmp}/r.parquet"],
     "colour"),
    ("sweep unknown kind", ["sweep", "{tmp}/bad_kind.toml", "--out", "{tmp}/r.parquet"],
     "nope"),
    ("sweep jobs 0", ["sweep", "{tmp}/spec.toml", "--out", "{tmp}/r.parquet", "--jobs", "0"],
     "jobs must be an integer"),
    ("sweep jobs a word", ["sweep", "{tmp}/spec.toml", "--out", "{tmp}/r.parquet", "--jobs",
                           "x"], "invalid int value"),
    ("sweep jobs beyond memory", ["sweep", "{tmp}/spec.toml", "--out", "{tmp}/r.parquet",
                                  "--jobs", "1000000000"], "what memory allows"),
    ("sweep local cluster 0", ["sweep", "{tmp}/spec.toml", "--out", "{tmp}/r.parquet",
                               "--local-cluster", "0"], "local_cluster must be an integer"),
    ("sweep jobs and scheduler", ["sweep", "{tmp}/spec.toml", "--out", "{tmp}/r.parquet",
                                  "--jobs", "1", "--scheduler", "tcp://localhost:1"],
     "not allowed with argument"),
    ("sweep scheduler not an address", ["sweep", "{tmp}/spec.toml", "--out",
                                        "{tmp}/r.parquet", "--scheduler", "localhost"],
     "localhost"),
    ("sweep timeout negative", ["sweep", "{tmp}/spec.toml", "--out", "{tmp}/r.parquet",
                                "--timeout", "-1"], "connect_timeout"),
    ("sweep timeout nan", ["sweep", "{tmp}/spec.toml", "--out", "{tmp}/r.parquet",
                           "--timeout", "nan"], "connect_timeout"),
    ("sweep out unwritable", ["sweep", "{tmp}/spec.toml", "--out",
                              "/proc/ctlcc-sweep.parquet"], "/proc/ctlcc-sweep.parquet"),
    ("sweep out in a missing folder", ["sweep", "{tmp}/spec.toml", "--out",
                                       "{tmp}/no/such/r.parquet"], "r.parquet"),
    ("sweep out unknown suffix", ["sweep", "{tmp}/spec.toml", "--out", "{tmp}/r.txt"],
     "r.txt"),
    ("sweep out a folder", ["sweep", "{tmp}/spec.toml", "--out", "{tmp}"], "out"),
    ("sweep out not parquet", ["sweep", "{tmp}/spec.toml", "--out", "{tmp}/a_file"], "out"),
]


@pytest.mark.parametrize("label, argv, message", BAD, ids=[b[0] for b in BAD])
def test_bad_argument_exits_2_with_one_error_line(label, argv, message, files, capsys):
    with pytest.raises(SystemExit) as info:
        code = cli.main(_expand(argv, files))
        raise SystemExit(code)          # main may return the status instead of exiting
    err = capsys.readouterr().err
    assert info.value.code == 2, f"exit status {info.value.code}; stderr:\n{err}"
    assert "Traceback" not in err, err
    errors = [line for line in err.splitlines() if "error:" in line]
    assert len(errors) == 1, f"want one error line, got:\n{err}"
    assert message in errors[0], f"{message!r} not in {errors[0]!r}"


def test_console_script_shows_no_traceback(tmp_path):
    """The real entry point (``python -m ctlcc``) on a missing spec: status 2, one line."""
    done = subprocess.run([sys.executable, "-m", "ctlcc", "sweep", str(tmp_path / "none.toml"),
                           "--out", str(tmp_path / "r.parquet")],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert [line for line in done.stderr.splitlines() if "error:" in line] == [
        done.stderr.splitlines()[-1]]
    assert "none.toml" in done.stderr.splitlines()[-1]
