"""The TCP-friendliness findings (issue 22 §1) stay what data/ records.

benchmarks/friendliness_matrix.py wrote data/friendliness_matrix.csv and
data/friendliness_iftp_mechanism.csv with the engine; the engine is
deterministic per seed, so re-running a cell must give the committed
numbers (to printing precision, 6 significant digits).  A change of the
engine that moves a finding fails here and the data must be regenerated
(and the write-up in docs/friendliness.md re-read).
"""

import importlib.util
from pathlib import Path

import pytest

from ctlcc import _data

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location(
        "friendliness_matrix", ROOT / "benchmarks" / "friendliness_matrix.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _row(name, **match):
    for row in _data.read_csv(name):
        if all(str(row[k]) == str(v) for k, v in match.items()):
            return row
    raise AssertionError(f"{name} has no row {match}")


@pytest.mark.parametrize("protocol, rtt, bdp, count", [
    ("iftp", 0.024, 1.0, 1), ("tfrc", 0.1, 1.0, 4), ("cbraa", 0.1, 1.0, 1)])
def test_a_cell_reproduces(bench, protocol, rtt, bdp, count):
    row = _row("friendliness_matrix.csv", protocol=protocol, rtt_s=f"{rtt:g}",
               buffer_bdp=f"{bdp:g}", flows_each=count)
    cell = bench.cell(protocol, rtt, bdp, count)
    for key in ("ratio", "goodput_protocol", "goodput_newreno", "timeouts_protocol",
                "loss_protocol", "queue_mean"):
        assert cell[key] == pytest.approx(float(row[key]), rel=1e-5, abs=1e-9), key


def test_iftp_collapse_mechanism_reproduces(bench):
    rows = {r["variant"]: r for r in bench.iftp_mechanism()}
    for committed in _data.read_csv("friendliness_iftp_mechanism.csv"):
        got = rows[committed["variant"]]
        for key in ("share", "timeouts", "loss_reactions", "timeouts_seen"):
            assert float(got[key]) == pytest.approx(float(committed[key]), rel=1e-5), key


def test_iftp_findings_as_stated():
    """The statements of docs/friendliness.md, read off the committed data."""
    rows = {r["variant"]: r for r in _data.read_csv("friendliness_iftp_mechanism.csv")}
    fig1 = rows["figure1 (default)"]
    assert float(fig1["share"]) < 0.15 and int(fig1["loss_reactions"]) == 0
    assert float(fig1["frac_timeouts_after_a_drop"]) == 1.0
    assert float(fig1["frac_timeouts_nothing_sent_since_last_ack"]) == 1.0
    assert int(rows["pacing=continuous"]["timeouts"]) == 0
    # a longer timer keeps the timeouts (it does not fire early on queueing delay)
    for label in ("timer +0.2 s (granularity)", "timer +0.5 s (granularity)"):
        assert int(rows[label]["timeouts"]) > 100
        assert float(rows[label]["share"]) < float(fig1["share"])
    # even detecting on the first ACK past a gap leaves most timeouts
    assert int(rows["after_missing_thresh=1"]["timeouts"]) > 100


def test_equation_based_senders_see_more_loss():
    """docs/friendliness.md: of the 9 TFRC cells where TFRC gets less than NewReno, TFRC
    sees the higher per-packet loss rate in 8 (a fact of the committed data)."""
    rows = [r for r in _data.read_csv("friendliness_matrix.csv") if r["protocol"] == "tfrc"
            and float(r["ratio"]) < 1.0]
    higher = [float(r["loss_protocol"]) > float(r["loss_newreno"]) for r in rows]
    assert (len(rows), sum(higher)) == (9, 8)
