"""The ns-3 agreement matrix as ledger records (ctlcc.claims.ns3, data/ledger_ns3.csv).

Reads only committed files (no ns-3, no engine run).  Expected values come
from the matrix's own files: ns-3's mean and tolerance from
data/ns3_matrix.csv (fixed from ns-3's runs before comparing), ctlcc's mean
and the verdict from data/ns3_matrix_comparison.csv, whose verdicts
tests/sim/test_ns3_matrix.py recomputes from the rule.
"""

import csv
import io

import pytest

from ctlcc import _data
from ctlcc.claims import evaluate, rules, units
from ctlcc.claims.ns3 import LEDGER_HEADER, ledger_rows, record_id
from ctlcc.claims.registry import RULE_COLUMNS
from ctlcc.sim.ns3_matrix import matrix_cases


@pytest.fixture(scope="module")
def claims():
    return {c.id: c for c in evaluate(units(paper="ns3"))}


def test_committed_ledger_is_declared_from_ns3_alone():
    """data/ledger_ns3.csv is what ledger_rows() writes from data/ns3_matrix.csv."""
    text = _data.read_text("ledger_ns3.csv")
    lines = text.splitlines()
    assert [line[2:] for line in lines[:len(LEDGER_HEADER)]] == list(LEDGER_HEADER)
    committed = list(csv.DictReader(io.StringIO("\n".join(lines[len(LEDGER_HEADER):]))))
    assert list(committed[0]) == list(RULE_COLUMNS)
    assert committed == [{k: str(v) for k, v in row.items()} for row in ledger_rows()]
    matrix = {(r["scenario"], r["metric"]): r for r in _data.read_csv("ns3_matrix.csv")}
    for row in committed:
        assert row["kind"] == "consistency" and row["paper"] == "ns3"
        assert row["target"] == "model" and row["comparison"] == "==" and row["se_factor"] == "0"
    # one record per (scenario, metric) of every case the engine runs
    expected = {record_id(s, m) for (s, m) in matrix}
    assert {row["id"] for row in committed} == expected
    assert all(record_id(s, m) in rules() for (s, m) in matrix)
    for (s, m), ref in matrix.items():
        rule = rules()[record_id(s, m)]
        assert float(rule.tolerance) == float(ref["tolerance"])
        assert ref["tolerance_basis"] in rule.tolerance_basis


def test_every_comparison_is_one_record_with_the_matrix_verdict(claims):
    rows = _data.read_csv("ns3_matrix_comparison.csv")
    assert len(rows) == len(claims) and len(rows) >= 5 * 12
    matrix = {(r["scenario"], r["metric"]): r for r in _data.read_csv("ns3_matrix.csv")}
    for row in rows:
        c = claims[record_id(row["scenario"], row["metric"])]
        assert c.kind == "consistency"
        assert c.value == float(row["ctlcc_mean"])
        assert c.target == float(row["ns3_mean"])
        assert c.tolerance == float(matrix[(row["scenario"], row["metric"])]["tolerance"])
        assert c.verdict == row["verdict"], c.id


def test_a_disagreement_stays_visible(claims):
    rows = _data.read_csv("ns3_matrix_comparison.csv")
    differs = {record_id(r["scenario"], r["metric"]) for r in rows if r["verdict"] == "differs"}
    assert differs  # the committed matrix has disagreements (docs/ns3_agreement.md)
    assert {i for i, c in claims.items() if c.verdict == "differs"} == differs


def test_cubic_and_prr_are_compared():
    names = {c.name for c in matrix_cases()}
    compared = {r["scenario"] for r in _data.read_csv("ns3_matrix_comparison.csv")}
    assert {"cubic_rtt5", "cubic_newreno", "prr_rtt5", "cubic_prr_rtt5"} <= names & compared


def test_report_ns3_section_reads_the_committed_matrix():
    from ctlcc.plots.ns3 import matrix_table

    table = matrix_table()
    rows = _data.read_csv("ns3_matrix_comparison.csv")
    assert len(table.rows) == len(rows)
    assert [r[5] for r in table.rows] == [r["verdict"] for r in rows]
    assert ("cubic_prr_rtt1", "retransmitted") in {(r[0], r[1]) for r in table.rows
                                                  if r[5] == "differs"}
