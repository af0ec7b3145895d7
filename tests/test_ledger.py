"""The claims ledger: merging, sources, the analytic claims' verdicts, the CSV and ``ctlcc claims``.

Expected verdicts and values come from routes independent of the ledger code:
exact fractions, arithmetic on the printed table cells, the thesis's printed
poles; the cross-check mapping is tested on a hand-made CrossCheck.
"""

import csv
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from ctlcc import cli, ledger
from ctlcc.claims import VERDICTS, Claim
from ctlcc.crosscheck import CrossCheck
from ctlcc.errors import ParameterError
from ctlcc.ledger import published, simulated
from ctlcc.references import REFERENCES

DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.fixture(scope="module")
def analytic():
    """The published and not-yet-checked sources (a few seconds)."""
    return ledger.build_ledger(sources=["published", "not-yet-checked"])


def _by_id(book):
    return {claim.id: claim for claim in book.claims}


# --- registry and merging -------------------------------------------------------------------

def test_checked_claim_replaces_not_yet_checked_and_duplicates_fail():
    open_ = Claim(id="cbraa-x", paper="cbraa", location="Fig. 3", claim="c", published=2.0)
    done = Claim(id="cbraa-x", paper="cbraa", location="Fig. 3", claim="c", published=2.0,
                 value=2.1, verdict="reproduced")
    claims, origin = ledger.merge_claims([("csv", [open_]), ("sim", [done])])
    assert claims == [done] and origin == {"cbraa-x": "sim"}
    claims, origin = ledger.merge_claims([("sim", [done]), ("csv", [open_])])
    assert claims == [done] and origin == {"cbraa-x": "sim"}
    with pytest.raises(ValueError, match=r"claim id 'cbraa-x' given twice \(sources 'a' and 'b'\)"):
        ledger.merge_claims([("a", [done]), ("b", [done])])


def test_sources_that_are_missing_raise_or_return_junk_are_failures(monkeypatch):
    monkeypatch.setattr(ledger, "SOURCES", [
        ledger.LedgerSource("later", "ctlcc.experiments.not_written_yet:claims", "x"),
        ledger.LedgerSource("broken", "tests.test_ledger:_raising_source", "x"),
        ledger.LedgerSource("junk", "tests.test_ledger:_junk_source", "x"),
        ledger.LedgerSource("good", "tests.report_sections:claims", "x"),
    ])
    book = ledger.build_ledger()
    assert [c.id for c in book.claims] == ["cbraa-test-reproduced", "cbraa-test-differs"]
    failures = {f.source: f for f in book.failures}
    assert failures["later"].message.startswith("not installed")
    assert failures["broken"].message == "ZeroDivisionError: division by zero"
    assert "_raising_source" in failures["broken"].traceback
    assert "expected Claim" in failures["junk"].message
    with pytest.raises(ParameterError, match=r"source must be one of \['later', 'broken', "):
        ledger.build_ledger(sources=["nope"])


def _raising_source():
    return [1 / 0]


def _junk_source():
    return ["not a claim"]


def test_every_registered_source_names_a_function():
    names = ledger.source_names()
    assert names[0] == "published" and "crosscheck" in names and "not-yet-checked" in names
    for source in ledger.SOURCES:
        module, _, function = source.function.partition(":")
        assert module and function, source


# --- the analytic claims ------------------------------------------------------------------

def test_every_claim_is_complete(analytic):
    # a floor against a truncated ledger: the printed values of data/ alone give 50 claims
    # (the not-yet-checked rows that used to add to them have all moved to simulated sources)
    assert len(analytic.claims) >= 50 and not analytic.failures
    for claim in analytic.claims:
        assert claim.paper in REFERENCES and claim.location and claim.claim.endswith(".")
        assert claim.verdict in VERDICTS
        if claim.verdict != "not yet checked":
            assert claim.value is not None and claim.evidence, claim.id
        if claim.verdict in ("differs", "printed-error"):
            assert claim.reason, claim.id
    assert len({c.id for c in analytic.claims}) == len(analytic.claims)


@pytest.mark.parametrize("claim_id, verdict, published_value, value, tolerance, source", [
    # 14/9 from the exact cycle (004 §3.1); printed 1.54
    ("cbraa-eq4-loss-d", "printed-error", 1.54, float(Fraction(14, 9)), 1e-12, "004 eq. (4)"),
    ("cbraa-eq3-cycle-a", "reproduced", 0.62, float(Fraction(243, 392)), 1e-12, "004 eq. (3)"),
    ("cbraa-eq2-C", "reproduced", 1.2701, 7 / 9 * math.sqrt(8 / 3), 1e-12, "004 eq. (2)"),
    # Table II, 4 STTP 9:1 sources: (sum x)^2 / (n sum x^2) by hand
    ("sttp-4b1-jain-9-1-4src", "printed-error", 0.75,
     sum([13790, 5464, 6079, 6699]) ** 2 / (4 * sum(x * x for x in [13790, 5464, 6079, 6699])),
     1e-12, "000 §IV-B.1, Table II"),
    ("sttp-3b3-scaled-sigma", "reproduced", 14.888, 0.9 * 16 + 0.1 * 16 * 0.305, 1e-12,
     "000 §III-B.3"),
    # Table IV, B = 1.5 Mb/s, D = 0.003 ms: 2 (0.207 + 0.38) / 1.5 = 78.3 %
    ("iftp-table4-utilization-B1.5-D0.003", "differs", 100.0, 78.3, 0.05, "003 Table IV"),
    ("iftp-table4-utilization-B1.0-D3", "reproduced", 73.4, 73.6, 0.05, "003 Table IV"),
    # the printed poles' largest magnitude |0.8031 + 0.4155i|; the printed pair is unstable
    ("stpd-4.3.3-poles", "printed-error", abs(complex(0.8031, 0.4155)), 1.2388, 5e-4,
     "thesis §4.3.3 (printed kp, kd give spectral radius 1.2388: tests/analysis/test_stpd_loop.py)"),
    ("iftp-eq27-worst-timeout", "reproduced", 0.064, 0.064, 1e-12, "003 eq. (27)"),
    ("hollot-example-window", "reproduced", 15.42, (175 / 3750 + 0.2) * 3750 / 60, 1e-12,
     "Hollot et al. 2001: W0 = R0 C / N"),
])
def test_verdicts_and_values(analytic, claim_id, verdict, published_value, value, tolerance,
                             source):
    claim = _by_id(analytic)[claim_id]
    assert claim.verdict == verdict, (source, claim)
    assert claim.published == pytest.approx(published_value, abs=1e-4), source
    assert claim.value == pytest.approx(value, abs=tolerance), source


def test_iftp_eq19_counts_one_round_trip_too_many(analytic):
    claim = _by_id(analytic)["iftp-eq19-round-trips"]
    # enumeration: windows 1, 2, .., 32 (6 round trips, 63 packets), 33 .. 50 (18 round
    # trips, 747 packets), then 50 per round trip: 1024 - 810 = 214 -> 5 more = 29
    windows = [1, 2, 4, 8, 16, 32] + list(range(33, 51))
    sent, trips = sum(windows), len(windows)
    trips += math.ceil((1024 - sent) / 50)
    assert (claim.verdict, claim.value, claim.published) == ("printed-error", trips, trips + 1)


def test_not_yet_checked_csv_is_complete_and_cited():
    with (DATA / "claims_not_yet_checked.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    # Every claim once listed here is now checked by its paper's experiments module
    # (ledger sources iftp, cbraa, sttp, primo); the file stays for claims found later.
    assert rows == []
    for row in rows:
        assert row["id"].startswith(row["paper"] + "-") and row["location"] and row["needs"]
        assert row["source"] == REFERENCES[row["paper"]].short, row["id"]   # as tests/test_data_sources.py
        assert row["published"], row["id"]
        for name in ("000_", "001_", "002_", "003_", "004_"):
            assert name not in "".join(row.values())
    claims = published.unchecked_claims()
    assert [c.id for c in claims] == [r["id"] for r in rows]
    assert {c.verdict for c in claims} <= {"not yet checked"}


# --- cross-checks as claims ---------------------------------------------------------------

def _check(name, predicted, samples, tolerance, labels=("p=0.01", "p=0.1")):
    samples = np.asarray(samples, dtype=float)
    measured, spread = samples.mean(axis=1), samples.std(axis=1, ddof=1)
    predicted, tolerance = np.asarray(predicted, float), np.asarray(tolerance, float)
    within = np.abs(measured - predicted) <= tolerance
    return CrossCheck(name, "the law holds", "test", "rate [packets/s]", labels, predicted,
                      measured, spread, tolerance, "because", within, bool(within.all()),
                      {"seeds": (0, 1)}, "a note")


def test_crosscheck_points_become_claims():
    check = _check("reno_square_root_law", [100.0, 10.0], [[98.0, 100.0], [20.0, 22.0]], [5.0, 5.0])
    claims = simulated.claims_from_check(check)
    assert [c.id for c in claims] == ["cbraa-reno-square-root-law-p-0.01",
                                      "cbraa-reno-square-root-law-p-0.1"]
    ok, bad = claims
    assert (ok.verdict, ok.value, ok.published, ok.unit, ok.seeds) == \
        ("reproduced", 99.0, 100.0, "packets/s", (0, 1))
    assert ok.spread == pytest.approx(math.sqrt(2.0))
    assert bad.verdict == "differs" and "+11 (+110 %)" in bad.reason and "a note" in bad.reason
    assert "crosscheck_reno_vs_mathis_pftk" in ok.evidence


def test_eq_4_19_beyond_its_range_checks_analysis_above_simulation():
    check = _check("stpd_throughput_under_loss_beyond", [0.97, 0.95], [[0.7, 0.6], [0.96, 0.97]],
                   [0.03, 0.03])
    above, below = simulated.crosscheck_claims([check])
    assert above.id == "stpd-eq4.19-above-simulation-p-0.01" and above.verdict == "reproduced"
    assert below.verdict == "differs"


def test_unknown_crosscheck_paper_is_an_error():
    with pytest.raises(ValueError, match="unknown paper; add it to ctlcc.ledger.simulated.PAPERS"):
        simulated.claims_from_check(_check("mystery_check", [1.0, 1.0], [[1, 1], [1, 1]], [1, 1]))


# --- CSV and the command ------------------------------------------------------------------

def test_csv_round_trip(analytic, tmp_path):
    path = tmp_path / "claims.csv"
    ledger.write_claims_csv(analytic, path)
    back = ledger.read_claims_csv(path)
    assert [c.id for c in back.claims] == [c.id for c in analytic.claims]
    assert back.counts() == analytic.counts()
    with pytest.raises(ParameterError, match="does not exist"):
        ledger.read_claims_csv(tmp_path / "nope.csv")


def test_ctlcc_claims_command(analytic, tmp_path, capsys):
    path = tmp_path / "claims.csv"
    ledger.write_claims_csv(analytic, path)
    assert cli.main(["claims", "--from", str(path), "--paper", "cbraa"]) == 0
    out = capsys.readouterr().out
    assert "Ait-Hellal, Yamamoto & Leduc (1999)" in out and "cbraa-eq4-loss-d" in out
    assert "Xu (2002)" not in out and "stpd-" not in out
    counts = analytic.counts()["cbraa"]
    assert f"{sum(counts.values())} claims:" in out
    assert cli.main(["claims", "--source", "published", "--verdict", "printed-error",
                     "--csv"]) == 0
    rows = list(csv.DictReader(capsys.readouterr().out.splitlines()))
    assert rows and {r["verdict"] for r in rows} == {"printed-error"}
    with pytest.raises(SystemExit):
        cli.main(["claims", "--paper", "nope"])
    assert "invalid choice: 'nope'" in capsys.readouterr().err
