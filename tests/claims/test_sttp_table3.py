"""STTP Table III cell units on a hand-made Experiment 1 result.

Expected values are written by hand beside each assertion or are the paper's
printed numbers (Wade, Kara & Dew (2000), Appendix, Table III, as typed in
data/sttp_table3_experiment1.csv); nothing is taken from ctlcc's simulator.
"""

import csv
from types import SimpleNamespace

import numpy as np
from ctlcc import _data
from ctlcc.claims import registry
from ctlcc.claims import sttp_table3 as T3


def _result(counts=(10, 20)):
    # protocols x counts, every column distinct so a swapped index would show
    k = len(counts)
    base = {"bytes_tx": 1000.0, "bytes_drop": 2000.0, "mean_bytes": 3000.0,
            "high_bytes": 4000.0, "low_bytes": 5000.0}
    cols = {a: np.array([[b + 100 * i + j for j in range(k)] for i in range(3)])
            for a, b in base.items()}
    return SimpleNamespace(protocols=("Reno", "Vegas", "STTP"), counts=tuple(counts),
                           duration=900.0, **cols)


def test_every_declared_cell_has_one_unit_and_vice_versa():
    declared = {r.id for r in registry.rules().values()
                if r.id.startswith("sttp-table3-cell-")}
    ids = T3.table3_cell_ids()
    # 20 counts x 3 protocols x 5 columns = 300, less the ten-source STTP drop
    assert len(ids) == 299 == len(declared)
    assert set(ids) == declared
    assert "sttp-table3-cell-10src-sttp-bytes-drop" not in ids


def test_cells_are_read_at_their_protocol_and_count():
    m = T3.table3_cells(_result())
    # Vegas is row 1, 20 sources column 1: 4000 + 100 + 1
    assert m["sttp-table3-cell-20src-vegas-high-bytes"].value == 4101.0
    # STTP row 2, 10 sources column 0: 1000 + 200
    assert m["sttp-table3-cell-10src-sttp-bytes-tx"].value == 1200.0
    assert m["sttp-table3-cell-10src-reno-low-bytes"].value == 5000.0
    assert m["sttp-table3-cell-20src-reno-bytes-drop"].value == 2001.0
    assert m["sttp-table3-cell-20src-sttp-mean-bytes"].value == 3201.0


def test_a_reduced_grid_measures_only_its_counts():
    m = T3.table3_cells(_result(counts=(10, 20)))
    # 2 counts x 15 cells, less the ten-source STTP drop judged elsewhere
    assert len(m) == 29
    assert all(cid.startswith(("sttp-table3-cell-10src-", "sttp-table3-cell-20src-"))
               for cid in m)


def test_reason_gives_the_relative_difference_from_the_printed_cell():
    e1 = _result(counts=(10,))
    e1.bytes_tx = np.array([[226345000.0 * 1.1], [0.0], [0.0]])
    m = T3.table3_cells(e1)["sttp-table3-cell-10src-reno-bytes-tx"]
    # the paper prints 226345000 for ten Reno sources: +10 %
    assert "+10.0 % of the paper's" in m.reason


def test_declared_published_values_are_table3_as_typed():
    rules = registry.rules()
    with _data.path("sttp_table3_experiment1.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    cols = {"bytes-tx": "bytes_tx", "bytes-drop": "bytes_drop", "mean-bytes": "mean_bytes",
            "high-bytes": "high_bytes", "low-bytes": "low_bytes"}
    checked = 0
    for row in rows:
        for slug, col in cols.items():
            cid = f"sttp-table3-cell-{row['num_sources']}src-{row['protocol'].lower()}-{slug}"
            if cid in rules:
                assert float(rules[cid].published) == float(row[col]), cid
                checked += 1
    assert checked == 299


def test_hand_judged_verdicts_of_two_cells():
    rules = registry.rules()
    e1 = _result(counts=(10,))
    # Vegas loses nothing with ten sources in the paper (0 bytes): a run that drops
    # 0 is within half a byte, one that drops 1000 bytes is not
    e1.bytes_drop = np.array([[5.0], [0.0], [0.0]])
    e1.bytes_tx = np.array([[226345000.0], [1.0], [1.0]])
    claims = {c.id: c for c in registry.evaluate(
        registry.units(ids=["sttp-table3-cell-10src-vegas-bytes-drop"]),
        {"experiment1": e1})}
    assert claims["sttp-table3-cell-10src-vegas-bytes-drop"].verdict == "reproduced"
    assert claims["sttp-table3-cell-10src-reno-bytes-tx"].verdict == "reproduced"
    assert claims["sttp-table3-cell-10src-reno-bytes-drop"].verdict == "differs"
    assert float(rules["sttp-table3-cell-10src-reno-bytes-drop"].tolerance) == 0.5
