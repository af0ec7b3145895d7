# ctlcc.claims.inventory - the statements of the papers no checked record judges yet
"""Every result-bearing statement of the five papers that no checked record judges.

The inventory (``data/inventory/<paper>.csv``, one row per statement: every
numbered equation, result table cell, figure finding, worked number and
result sentence of the abstract and conclusions) is read against the
declared records (``data/ledger_*.csv``, whose ``inventory_id`` column names
the statement each judges).  A statement that no paper record judges becomes a
``not yet checked`` record of kind ``paper``, with what checking it needs or,
for a statement the inventory marks ``not checkable`` (a definition, a value
only drawn in a figure), why it cannot be checked (:func:`claims`, the ledger
source ``inventory``);
:func:`not_yet_checked_rows` is the listing ``scripts/update_readme.py``
writes to ``data/claims_not_yet_checked.csv``.

Examples
--------
>>> rows = statements()
>>> sorted({r["paper"] for r in rows}) <= ["cbraa", "iftp", "primo", "stpd", "sttp"]
True
"""

from .. import _data
from ..errors import ParameterError
from ..references import PAPERS, short
from .record import Claim

__all__ = ["INVENTORY_COLUMNS", "statements", "judged", "claims", "not_yet_checked_rows",
           "NOT_YET_CHECKED_COLUMNS", "linked_rows", "main"]

#: Columns of ``data/inventory/<paper>.csv`` (agreed with the inventory).
INVENTORY_COLUMNS = ("id", "paper", "location", "category", "quote", "published", "precision",
                     "unit", "comparison", "measurable_form", "ledger_ids", "status", "needs",
                     "notes")
#: Columns of ``data/claims_not_yet_checked.csv``.
NOT_YET_CHECKED_COLUMNS = ("id", "paper", "location", "category", "claim", "published", "unit",
                           "status", "needs", "source")


def statements(papers=None):
    """The inventory's rows (all five papers unless *papers*), in paper order.

    Returns
    -------
    list of dict
        Empty when the inventory is not installed.
    """
    out = []
    for key in PAPERS if papers is None else papers:
        try:
            rows = _data.read_csv(f"inventory/{key}.csv")
        except ParameterError:
            continue
        for row in rows:
            missing = [c for c in INVENTORY_COLUMNS if c not in row]
            if missing:
                raise ParameterError(f"data/inventory/{key}.csv lacks columns {missing}")
            out.append(row)
    return out


def judged(kind="paper"):
    """``{inventory id: [claim ids]}`` of the declared records of *kind* (``None``: any)
    that judge a statement (a consistency record compares ctlcc with itself, so a
    statement only such records touch is still not checked)."""
    from .registry import rules

    out = {}
    for rule in rules().values():
        if kind is not None and rule.kind != kind:
            continue
        for inventory_id in rule.inventory_id.split():
            out.setdefault(inventory_id, []).append(rule.id)
    return out


def claims():
    """A ``not yet checked`` record for every statement no declared paper record judges.

    Statements the inventory marks ``not checkable`` (definitions, values only drawn in
    a lost figure, numbers cited from other papers) are records too, so that every
    statement has one; their reason starts with ``not checkable:`` and says why.
    """
    done = judged()
    out = []
    for row in statements():
        if row["id"] in done:
            continue
        comparison = row["comparison"] if row["comparison"] in ("==", "<=", ">=") else "=="
        status = row["status"] if row["status"] != "checked" else "not yet checked"
        reason = f"{status}: {row['needs']}" if row["needs"] else status
        out.append(Claim(
            id=row["id"], paper=row["paper"], location=row["location"], claim=row["quote"],
            published=_published(row["published"]), unit=row["unit"], kind="paper",
            comparison=comparison, measurable_form=row["measurable_form"],
            verdict="not yet checked", reason=reason, evidence="data/inventory",
            inventory_id=row["id"], tolerance_basis=row["precision"]))
    return out


def not_yet_checked_rows():
    """The rows of ``data/claims_not_yet_checked.csv``: what remains, per statement."""
    done = judged()
    rows = []
    for row in statements():
        if row["id"] in done:
            continue
        rows.append({"id": row["id"], "paper": row["paper"], "location": row["location"],
                     "category": row["category"], "claim": row["quote"],
                     "published": row["published"], "unit": row["unit"],
                     "status": "not checkable" if row["status"] == "not checkable"
                     else "not yet checked", "needs": row["needs"],
                     "source": short(row["paper"])})
    return rows


def linked_rows(paper):
    """The rows of ``data/inventory/<paper>.csv`` with ``ledger_ids`` and ``status`` taken
    from the declared records (the records' ``inventory_id`` is the one source of the link).

    A statement a paper record judges is ``checked`` with those records; one no record
    judges keeps its ``not yet checked`` or ``not checkable`` status and its ``needs``.
    """
    done = {i: sorted(ids) for i, ids in judged().items()}
    out = []
    for row in statements([paper]):
        row = dict(row)
        if row["id"] in done:
            row["ledger_ids"], row["status"] = " ".join(done[row["id"]]), "checked"
        else:
            row["ledger_ids"] = ""
            if row["status"] == "checked":
                row["status"] = "not yet checked"
                row["needs"] = row["needs"] or "no record of the restructured ledger judges it"
        out.append(row)
    return out


def main(argv=None):
    """``python -m ctlcc.claims.inventory --links FOLDER``: rewrite the inventory's
    ``ledger_ids`` and ``status`` columns in FOLDER/<paper>.csv from the declared records."""
    import argparse
    import csv
    from pathlib import Path

    parser = argparse.ArgumentParser(description=main.__doc__.splitlines()[0])
    parser.add_argument("--links", required=True, metavar="FOLDER",
                        help="folder of the inventory CSVs to rewrite (data/inventory in a checkout)")
    args = parser.parse_args(argv)
    for paper in PAPERS:
        path = Path(args.links) / f"{paper}.csv"
        if not path.is_file():
            continue
        rows = linked_rows(paper)
        with path.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=INVENTORY_COLUMNS, lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
        print(f"wrote {path}")
    return 0


def _published(text):
    try:
        return float(text)
    except ValueError:
        return text or None


if __name__ == "__main__":
    raise SystemExit(main())
