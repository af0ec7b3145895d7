"""The version is written once (ctlcc/_version.py) and ``ctlcc --version`` names the commit.

A wheel installed outside a checkout prints the plain version: ``.ci/run`` checks that
on the built wheel, in a virtualenv of its own.
"""

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import ctlcc
from ctlcc import _version

ROOT = Path(__file__).resolve().parents[1]


def test_pyproject_reads_the_version_from_the_one_module():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"]
    assert project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "ctlcc._version.__version__"}
    assert ctlcc.__version__ is _version.__version__


def test_citation_file_repeats_the_same_version():
    text = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert re.search(r"^version: (\S+)$", text, flags=re.M).group(1) == ctlcc.__version__


def test_version_is_pep440():
    assert re.fullmatch(r"\d+\.\d+\.\d+((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?",
                        ctlcc.__version__)


def test_no_commit_outside_a_checkout(tmp_path):
    assert _version.git_commit(tmp_path) == ""
    # A .git folder alone (no pyproject.toml) is not this project's checkout.
    (tmp_path / ".git").mkdir()
    assert _version.git_commit(tmp_path) == ""


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                    reason="needs git and a git checkout")
def test_cli_version_names_the_checkout_commit(tmp_path):
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True,
                          text=True, check=True).stdout.strip()
    done = subprocess.run([sys.executable, "-m", "ctlcc", "--version"], cwd=tmp_path,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"ctlcc {ctlcc.__version__} (git {head[:12]}")
