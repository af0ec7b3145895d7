"""The "Write your own law" page (docs/write_your_own_law.md) runs as shown.

Its examples are doctests (``>>>`` blocks); here they run in one namespace, in
page order, so a change of the law classes or of closed_loop that alters a
printed value fails this test rather than leaving the page wrong.
"""

import doctest
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[2] / "docs" / "write_your_own_law.md"


def test_page_is_in_the_docs_toctree():
    index = (PAGE.parent / "index.md").read_text(encoding="utf-8")
    assert "write_your_own_law" in index


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_write_your_own_law_page_runs_as_shown():
    text = PAGE.read_text(encoding="utf-8")
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {}, PAGE.name, str(PAGE), 0)
    assert len(test.examples) > 20
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples differ (see output)"
