"""The documentation builds with warnings as errors (issue 15).

Builds ``docs/`` with Sphinx ``-W --keep-going`` into a temporary folder, so a
broken cross-reference or a malformed numpydoc section fails CI.  The
notebooks are rendered without being executed here (``CTLCC_DOCS_EXECUTE=off``):
the test suite already executes every notebook (tests/test_notebooks.py), and executing
them twice would double the cost.  A local ``sphinx`` build executes them.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytest.importorskip("sphinx", reason="the docs extra is not installed (pip install -e '.[docs]')")
pytest.importorskip("numpydoc")
pytest.importorskip("myst_nb")


@pytest.fixture(scope="module")
def built_docs(tmp_path_factory):
    out = tmp_path_factory.mktemp("html")
    doctrees = tmp_path_factory.mktemp("doctrees")
    env = dict(os.environ, CTLCC_DOCS_EXECUTE="off", MPLBACKEND="Agg")
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         "-d", str(doctrees), str(ROOT / "docs"), str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    return proc, out


@pytest.mark.docs
def test_docs_build_without_warnings(built_docs):
    proc, _ = built_docs
    assert proc.returncode == 0, f"sphinx -W failed:\n{proc.stderr[-6000:]}"


@pytest.mark.docs
def test_docs_hold_every_promised_page(built_docs):
    proc, out = built_docs
    if proc.returncode != 0:
        pytest.fail("docs did not build; see test_docs_build_without_warnings")
    pages = {
        "api.html": "ctlcc.analysis",
        "_autosummary/ctlcc.bounds.pftk.html": "pftk_rate",
        "_generated/bibliography.html": "doi.org/10.1007/BF03219969",
        "_generated/findings.html": "Findings",
        "_generated/changelog.html": "Changelog",
        "_generated/license.html": "BSD 3-Clause",
        "_generated/gallery.html": "Gallery",
        "tutorials/stpd_gain_tuning.html": "ST-PD",
        "guide.html": "Parameter sweeps",
        "contributing.html": "slow ns-3 tests",
        "papers/index.html": "Reproducing a paper",
        **{f"papers/{key}.html": title for key, title in (
            ("stpd", "ST-PD TCP"), ("primo", "Primo"), ("sttp", "STTP"), ("iftp", "IFTP"),
            ("cbraa", "CBRAA"))},
        "_autosummary/ctlcc.ledger.html": "ledger",
        "_autosummary/ctlcc.experiments.html": "experiments",
        "_autosummary/ctlcc.site.html": "site",
    }
    for page, text in pages.items():
        path = out / page
        assert path.exists(), f"{page} missing"
        assert text in path.read_text(encoding="utf-8"), f"{page} lacks {text!r}"
