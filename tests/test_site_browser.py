"""The report's site in a real browser: headless Chromium over the DevTools pipe.

Builds a small report (the ``stpd`` and ``bounds`` sections and their ledger records), opens
``index.html`` from the file system and checks that every image loads, that
every link of the ledger resolves (file and anchor), that the ledger has one
row per paper record of ``claims.csv`` and that its filters and sorting work; takes a
screenshot of the landing page and of the ledger.  Set ``CTLCC_SCREENSHOTS``
to a folder to keep the screenshots.  Skipped, with the reason, where Chromium
is not installed (``.ci/run`` installs Debian's ``chromium``).
"""

import csv
import os
import shutil
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from ctlcc.report import build_report

from .cdp import Browser, BrowserUnavailable, find_chromium


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    try:
        find_chromium()
    except BrowserUnavailable as err:
        pytest.skip(str(err))
    out = tmp_path_factory.mktemp("site") / "ctlcc-report"
    result = build_report(out, sections=["stpd", "bounds"], jobs=2, formats=("png", "pdf"), dpi=80)
    assert result.ok, [(s.name, s.error, s.traceback) for s in result.sections]
    ids = {c.id for c in result.ledger.claims}
    assert {"cbraa-eq4-loss-d", "stpd-4.3.3-poles", "iftp-eq19-round-trips"} <= ids
    return out


@pytest.fixture(scope="module")
def browser(site):
    try:
        with Browser(width=1366, height=900) as chromium:
            yield chromium
    except BrowserUnavailable as err:
        pytest.skip(f"Chromium is installed but cannot run here: {err}")


def _keep(path):
    folder = os.environ.get("CTLCC_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(folder) / path.name)


def _broken_images(browser):
    return browser.evaluate(
        "Array.from(document.images).filter(i => !(i.complete && i.naturalWidth > 0))"
        ".map(i => i.getAttribute('src'))")


def test_every_page_loads_every_image(site, browser, tmp_path):
    pages = sorted(p.name for p in site.glob("*.html"))
    assert len(pages) >= 5
    total = 0
    for page in pages:
        browser.open(site.joinpath(page).as_uri())
        assert _broken_images(browser) == [], page
        total += browser.evaluate("document.images.length")
    assert total >= 2 * 3          # the bounds figures appear in their section and the gallery
    browser.open((site / "index.html").as_uri())
    assert browser.evaluate("document.title") == "Summary · ctlcc report"
    shot = tmp_path / "site_landing.png"
    browser.screenshot(shot)
    assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 10_000
    _keep(shot)
    print(f"landing page screenshot: {shot}")


def test_ledger_rows_links_filters_and_sorting(site, browser, tmp_path):
    with (site / "claims.csv").open(newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if r["kind"] == "paper"]
    assert len(rows) > 40          # claims.html lists the paper records; consistency.html the rest
    browser.open((site / "claims.html").as_uri())
    assert browser.evaluate("document.querySelectorAll('#ledger tbody tr').length") == len(rows)
    ids = browser.evaluate("Array.from(document.querySelectorAll('#ledger tbody tr'))"
                           ".map(r => r.id.slice(4))")
    assert ids == [r["id"] for r in rows]

    # every link of the ledger page resolves: the file exists, the anchor is on that page
    links = browser.evaluate("Array.from(document.querySelectorAll('main a[href]'))"
                             ".map(a => a.href)")
    anchors = {}
    for link in set(links):
        parts = urlsplit(link)
        assert parts.scheme == "file", link
        path = Path(unquote(parts.path))
        assert path.is_file(), link
        if parts.fragment and "=" not in parts.fragment and path.suffix == ".html":
            if path not in anchors:
                browser.open(path.as_uri())
                anchors[path] = set(browser.evaluate(
                    "Array.from(document.querySelectorAll('[id]')).map(e => e.id)"))
            assert unquote(parts.fragment) in anchors[path], link
    verdict_links = [link for link in links if "#claim-" in link]
    assert len(verdict_links) >= len(rows)           # each verdict opens its evidence card

    browser.open((site / "claims.html").as_uri())
    shot = tmp_path / "site_ledger.png"
    browser.screenshot(shot)
    assert shot.stat().st_size > 10_000
    _keep(shot)
    print(f"ledger screenshot: {shot}")

    # filters: the visible rows are the CSV's rows with that verdict / paper
    expected = sum(r["verdict"] == "printed-error" for r in rows)
    shown = browser.evaluate(
        "(() => { const s = document.getElementById('filter-verdict'); s.value = 'printed-error';"
        " s.dispatchEvent(new Event('change'));"
        " return document.querySelectorAll('#ledger tbody tr:not([hidden])').length; })()")
    assert shown == expected > 0
    browser.open("about:blank")        # as from index.html's per-paper links: a fresh load
    browser.open((site / "claims.html").as_uri() + "#paper=iftp")
    shown = browser.evaluate("document.querySelectorAll('#ledger tbody tr:not([hidden])').length")
    assert shown == sum(r["paper"] == "iftp" for r in rows) > 0
    assert browser.evaluate("document.getElementById('ledger-count').textContent") == \
        f"{shown} of {len(rows)} records"

    # sorting by the verdict column groups the verdicts alphabetically
    browser.open((site / "claims.html").as_uri())
    order = browser.evaluate(
        "(() => { const th = Array.from(document.querySelectorAll('#ledger th'))"
        ".find(h => h.textContent.trim() === 'verdict'); th.click();"
        " return Array.from(document.querySelectorAll('#ledger tbody tr'))"
        ".map(r => r.dataset.verdict); })()")
    assert order == sorted(r["verdict"] for r in rows)
