"""The README's commands are the ones CI runs."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _bash_blocks(text):
    return re.findall(r"```bash\n(.*?)```", text, flags=re.S)


def test_readme_starts_with_report_then_test_command():
    blocks = _bash_blocks((ROOT / "README.md").read_text())
    assert "ctlcc report" in blocks[0]
    assert "pytest" in blocks[1]


def test_ci_runs_the_readme_test_command_verbatim():
    test_command = _bash_blocks((ROOT / "README.md").read_text())[1].strip()
    ci_lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert test_command in ci_lines


# --- generated parts: README <- docs/claims.csv <- code ----------------------------------

def _update_readme():
    import importlib.util

    spec = importlib.util.spec_from_file_location("update_readme", ROOT / "scripts" / "update_readme.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_readme_generated_blocks_match_the_ledger_snapshot():
    """Run `python scripts/update_readme.py --blocks-only` when this fails."""
    script = _update_readme()
    assert script.stale_blocks() == []
    for name, _ in script.FIGURES:
        assert (ROOT / "docs" / "gallery" / f"{name}.png").is_file(), name


def _compare_with_snapshot(sources, book=None):
    import csv
    import io
    import math

    from ctlcc import ledger

    fresh = io.StringIO()
    ledger.write_claims_csv(ledger.build_ledger(sources=sources) if book is None else book, fresh)
    now = {r["id"]: r for r in csv.DictReader(io.StringIO(fresh.getvalue()))}
    with (ROOT / "docs" / "claims.csv").open(newline="") as handle:
        stored = {r["id"]: r for r in csv.DictReader(handle) if r["source"] in sources}
    assert sorted(now) == sorted(stored), "run python scripts/update_readme.py"
    for key, row in now.items():
        for column, value in row.items():
            old = stored[key][column]
            try:
                a, b = float(value), float(old)
            except ValueError:
                assert value == old, (key, column)
            else:
                if math.isnan(a) and math.isnan(b):
                    continue
                # floats written by repr round-trip exactly; 1e-9 allows another libm
                assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12), (key, column, a, b)


def test_ledger_snapshot_matches_the_analytic_claims_of_the_code(analytic_ledger):
    """docs/claims.csv (the README's source) holds what the code computes now."""
    from ctlcc import ledger

    # build_ledger(["stpd", "bounds", "fluid", "inventory"]) is the merge of the four sources'
    # batches in that order; the first three are the session's build (tests/conftest.py, the
    # stpd source's exact series take ~10 s), each source's claims read back by its origin
    analytic = ["stpd", "bounds", "fluid"]
    assert not analytic_ledger.failures
    batches = [(name, [c for c in analytic_ledger.claims if analytic_ledger.origin[c.id] == name])
               for name in analytic]
    assert sum(len(claims) for _, claims in batches) == len(analytic_ledger.claims)
    inventory, failure = ledger.run_source("inventory")
    assert failure is None, failure
    claims, origin = ledger.merge_claims(batches + [("inventory", inventory)])
    _compare_with_snapshot(analytic + ["inventory"], ledger.Ledger(tuple(claims), origin))


@pytest.mark.slow
@pytest.mark.parametrize("source", ["crosscheck", "thesis_sim", "primo_sim", "iftp_sim",
                                    "cbraa_sim", "sttp_sim"])
def test_ledger_snapshot_matches_the_simulated_claims_of_the_code(source):
    """The same for the simulated claims (minutes each; the default suite checks the
    cross-check verdicts in tests/test_crosscheck.py and the thesis experiments' in
    tests/experiments/)."""
    _compare_with_snapshot([source])
