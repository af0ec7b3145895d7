"""data/inventory/: the claim inventory of the five papers and the map of the current ledger.

Format checks only (the rows themselves are read against the papers by a referee):
columns, ids, keys and value sets, every ledger id present in docs/claims.csv, the
two directions of the paper-record <-> inventory-row mapping, and the per-paper
count table of data/inventory/README.md.  Run this file as a script to print the
table the README must carry::

    python tests/test_inventory.py
"""

import csv
import re
from collections import Counter
from pathlib import Path

import pytest

from ctlcc.references import PAPERS

ROOT = Path(__file__).resolve().parents[1]
INVENTORY = ROOT / "data" / "inventory"
CLAIMS = ROOT / "docs" / "claims.csv"

COLUMNS = ["id", "paper", "location", "category", "quote", "published", "precision", "unit",
           "comparison", "measurable_form", "ledger_ids", "status", "needs", "notes"]
MAP_COLUMNS = ["ledger_id", "kind", "inventory_ids", "verdict_now", "audit_note"]
CATEGORIES = {"equation", "table-cell", "figure-finding", "worked-number", "text", "abstract", "conclusion"}
COMPARISONS = {"==", "<=", ">=", "qualitative"}
STATUSES = ("checked", "not yet checked", "not checkable")
KINDS = {"paper", "consistency"}
#: Ledger keys of papers that are not among the five (classified, but no inventory file).
OTHER_KEYS = {"mathis", "pftk", "rfc5348", "rfc6675", "hollot"}
README_BEGIN = "<!-- counts:begin -->"
README_END = "<!-- counts:end -->"


def _read(path):
    with open(path, newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        return reader.fieldnames, list(reader)


def _inventory():
    return {key: _read(INVENTORY / f"{key}.csv") for key in PAPERS}


def _claims():
    return {row["id"]: row for row in _read(CLAIMS)[1]}


def count_table():
    """The per-paper count table (Markdown) that data/inventory/README.md carries."""
    lines = ["| paper | statements | checked | not yet checked | not checkable |",
             "|---|---:|---:|---:|---:|"]
    totals = Counter()
    for key in PAPERS:
        rows = _read(INVENTORY / f"{key}.csv")[1]
        c = Counter(row["status"] for row in rows)
        c["statements"] = len(rows)
        totals.update(c)
        lines.append(f"| {key} | {len(rows)} | " + " | ".join(str(c[s]) for s in STATUSES) + " |")
    lines.append(f"| **all** | {totals['statements']} | " + " | ".join(str(totals[s]) for s in STATUSES) + " |")
    return "\n".join(lines)


@pytest.mark.parametrize("key", PAPERS)
def test_inventory_columns_and_value_sets(key):
    fields, rows = _read(INVENTORY / f"{key}.csv")
    assert fields == COLUMNS
    assert rows, f"{key}.csv is empty"
    for row in rows:
        rid = row["id"]
        assert re.fullmatch(rf"{re.escape(key)}-[a-z0-9][a-z0-9.\-]*", rid), rid
        assert row["paper"] == key, rid
        assert row["location"].strip() and row["quote"].strip() and row["published"].strip(), rid
        assert row["precision"].strip(), rid
        assert len(row["quote"]) <= 300, (rid, len(row["quote"]))
        assert row["category"] in CATEGORIES, (rid, row["category"])
        assert row["comparison"] in COMPARISONS, (rid, row["comparison"])
        assert row["status"] in STATUSES, (rid, row["status"])
        if row["comparison"] == "qualitative":
            assert row["measurable_form"].strip(), f"{rid}: a qualitative claim needs its measurable form"
        if row["status"] == "checked":
            assert row["ledger_ids"].strip(), f"{rid}: 'checked' needs the ledger records that judge it"
        else:
            assert not row["ledger_ids"].strip(), f"{rid}: ledger records listed but status {row['status']!r}"
            assert row["needs"].strip(), f"{rid}: say what checking it would need, or why it cannot be checked"


def test_inventory_ids_unique_across_papers():
    ids = [row["id"] for _, rows in _inventory().values() for row in rows]
    dup = sorted(i for i, n in Counter(ids).items() if n > 1)
    assert dup == []


def test_every_inventory_ledger_id_is_a_current_record():
    claims = _claims()
    missing = sorted({(row["id"], lid) for _, rows in _inventory().values() for row in rows
                      for lid in row["ledger_ids"].split() if lid not in claims})
    assert missing == []


def _renamed():
    """Old ledger id -> the record that judges its sentence now (data/ledger_renamed.csv)."""
    with open(ROOT / "data" / "ledger_renamed.csv", newline="", encoding="utf-8") as fh:
        return {row["old_id"]: row["new_id"]
                for row in csv.DictReader(line for line in fh if not line.startswith("#"))}


def test_ledger_map_covers_every_record_of_the_old_ledger_once():
    """ledger_map.csv is the audit of the 322 records the ledger had before its
    restructuring (issue 21): each is a record still, or mapped to the record that now
    judges its sentence (data/ledger_renamed.csv)."""
    fields, rows = _read(INVENTORY / "ledger_map.csv")
    assert fields == MAP_COLUMNS
    claims, renamed = _claims(), _renamed()
    ids = [row["ledger_id"] for row in rows]
    assert len(ids) == len(set(ids)) == 322
    for row in rows:
        lid = row["ledger_id"]
        assert lid in claims or renamed.get(lid) in claims, lid
        assert row["kind"] in KINDS, lid
        assert row["audit_note"].strip(), f"{lid}: say what is wrong with the verdict, or that nothing is"


def test_ledger_map_names_inventory_rows():
    """A paper record of the old ledger lists inventory rows that exist; a consistency record none."""
    inv_rows = {row["id"]: row for _, rows in _inventory().values() for row in rows}
    for row in _read(INVENTORY / "ledger_map.csv")[1]:
        lid, listed = row["ledger_id"], set(row["inventory_ids"].split())
        assert listed <= set(inv_rows), (lid, sorted(listed - set(inv_rows)))
        if row["kind"] == "consistency":
            assert not listed, f"{lid}: a consistency check judges no paper statement"
        else:
            key = lid.split("-", 1)[0]
            if key not in OTHER_KEYS:
                assert key in PAPERS, lid
                assert listed, f"{lid}: a paper record of {key} must judge an inventory row"
                assert all(i.startswith(key + "-") for i in listed), lid


def test_inventory_links_are_the_ledgers():
    """An inventory row's ledger_ids are the current paper records whose declared
    inventory_id names it (regenerate: python -m ctlcc.claims.inventory --links data/inventory)."""
    claims = _claims()
    judged = {}
    for lid, row in claims.items():
        if row["kind"] == "paper" and row["verdict"] != "not yet checked":
            for iid in row["inventory_id"].split():
                judged.setdefault(iid, set()).add(lid)
    for _, rows in _inventory().values():
        for row in rows:
            assert set(row["ledger_ids"].split()) == judged.get(row["id"], set()), row["id"]


def test_readme_count_table_is_current():
    text = (INVENTORY / "README.md").read_text(encoding="utf-8")
    assert README_BEGIN in text and README_END in text
    table = text.split(README_BEGIN, 1)[1].split(README_END, 1)[0].strip()
    assert table == count_table(), "regenerate with: python tests/test_inventory.py"


if __name__ == "__main__":
    print(count_table())
