"""STTP's Table I, Table II and Experiment 1 (Wade, Kara & Dew (2000), §III-IV) on ctlcc.

Expected values are the paper's (data/sttp_sim_published.csv, Tables II-III
in data/): where ctlcc reproduces them the test asserts the published
number within the claim's tolerance; where it does not, the test pins the
documented difference (finding) so that a change of behaviour shows.
"""

import numpy as np
import pytest

from ctlcc.errors import ParameterError
from ctlcc.experiments import sttp as exp
from ctlcc.sim import run
from ctlcc.sim import scenarios as S
from ctlcc.sim.senders import Sttp


def test_published_tables_read_back():
    t2, t3 = exp.published_table2(), exp.published_table3()
    assert list(t2["STTP 9:1", 4][0]) == [13790, 5464, 6079, 6699]
    assert t3["Reno"]["bytes_drop"][0] == 1264000 and len(t3["STTP"]["num_sources"]) == 20


def test_table2_single_source_fills_the_link():
    """Table II: one source sends 31980 of 32,000 packets (tolerance 1 %, 'around 99 %')."""
    res = exp.table2(configs=("TCP Reno", "STTP 9:1"), sources=(1,))
    for config in res.configs:
        assert abs(res.sent[config, 1][0] - 31980) <= 320
        assert res.dropped[config, 1][0] == 0       # Table II: 0 dropped


def test_table2_two_sources_reno_fair_sttp_not():
    """Reno's Jain index 0.99 is reproduced (tolerance 0.02); STTP 9:1 gives 0.90, not
    0.84, and - the finding - 5:5 and 1:9 send exactly what 9:1 sends, not the paper's
    fair 0.99: a greedy source spends each token as it arrives, so the scaling only
    touches the fraction of a token held."""
    res = exp.table2(sources=(2,))
    assert abs(res.jain("TCP Reno", 2) - 0.99) <= 0.02
    assert res.jain("STTP 9:1", 2) == pytest.approx(0.8994, abs=5e-4)
    assert np.array_equal(res.sent["STTP 9:1", 2], res.sent["STTP 1:9", 2])
    assert np.array_equal(res.sent["STTP 9:1", 2], res.sent["STTP 5:5", 2])
    assert all(res.dropped[c, 2].sum() == 0 for c in res.configs)


def test_tokens_in_operation_make_the_weights_matter():
    """§IV-B.1's reading (tokens in operation scaled): 9:1 and 1:9 part."""
    counts = []
    for a in (0.9, 0.1):
        r = run(S.sttp_table2(Sttp(alpha=a, beta=round(1 - a, 1), tokens="in_operation"), n=2,
                              tcp=S.TcpOptions(max_window=20)), 400.0, progress=False)
        counts.append([f.sent for f in r.flows])
    assert counts[0] != counts[1]


def test_table1_counts_within_the_link_and_the_first_bucket():
    """Table I: a greedy source sends at most the link's packets plus its first bucket
    (8 or 16 packets) and the one segment in flight, and at least the link's packets
    less one round trip; the paper's 75 packets at 64 kb/s / 10 s is below that (the
    link carries 80)."""
    rows = exp.table1().rows
    for r in rows:
        first = r["capacity"] / r["duration"]            # one second of the probed rate
        assert r["capacity"] - 2 <= r["sent"] <= r["capacity"] + first + 2
    assert rows[0]["sent"] - rows[0]["published_tx"] == 10     # documented difference


def test_experiment1_ten_sources():
    """Table III, 10 sources, 900 s: Reno sends 226,345,000 B and drops 1,264,000 B
    (ctlcc with ns-2's 20-packet window: +0.05 % and +5.3 %; tolerance 0.5 % and 10 %,
    drop-tail phase effects); Vegas drops nothing (reproduced); STTP drops 12,315
    packets instead of none (finding: each source's one-second bucket overflows the
    128-packet queue and the ACK clock never drains it)."""
    res = exp.experiment1(counts=(10,))
    i = {p: res.protocols.index(p) for p in res.protocols}
    assert abs(res.bytes_tx[i["Reno"], 0] / 226345000 - 1) <= 0.005
    assert abs(res.bytes_drop[i["Reno"], 0] / 1264000 - 1) <= 0.10
    assert res.bytes_drop[i["Vegas"], 0] == 0
    assert res.bytes_drop[i["STTP"], 0] == 12315000
    good = res.goodput_bytes[i["STTP"], 0] / res.goodput_bytes[i["Reno"], 0]
    assert good >= 0.95                                   # 'comparable goodput'


def test_claims_carry_the_verdicts():
    claims = {c.id: c for c in exp.claims(dict(
        table1=exp.table1(), table2=exp.table2(),
        experiment1=exp.experiment1(counts=(10, 20)), ))}
    assert claims["sttp-table2-jain-reno-2"].verdict == "reproduced"
    # 0.75 is not Jain's index of the paper's own Table II counts (13790, 5464, 6079, 6699:
    # 0.8498): paper-inconsistent, whatever ctlcc measures
    jain91 = claims["sttp-table2-fairness-sim"]
    assert jain91.verdict == "paper-inconsistent"
    counts = [13790, 5464, 6079, 6699]
    assert jain91.implied == pytest.approx(sum(counts) ** 2 / (4 * sum(x * x for x in counts)))
    assert claims["sttp-table3-experiment1-sim"].verdict == "differs"
    assert claims["sttp-exp1-goodput-comparable"].verdict == "reproduced"
    # 'STTP exhibits significantly lower packet loss' than Reno: ctlcc's Reno loses nothing
    # in Table II's runs, so the contrast cannot be measured (0/0)
    drops = claims["sttp-table2-sttp-drops"]
    assert drops.verdict == "differs" and np.isnan(drops.value)
    assert all(c.paper == "sttp" and c.kind == "paper" for c in claims.values())


@pytest.mark.parametrize("call, match", [
    (lambda: exp.table2(configs=("STTP 3:7",)), "configs must hold names of"),
    (lambda: exp.table2(sources=(0,)), r"sources\[0\] must be an integer in 1..64, got 0"),
    (lambda: exp.experiment1(duration=-1.0), "duration"),
    (lambda: exp.experiment1(protocols=("cubic",)), "protocols must hold names of"),
    (lambda: exp.sender("TCP Cubic"), "name must be one of"),
])
def test_bad_arguments(call, match):
    with pytest.raises(ParameterError, match=match):
        call()


@pytest.mark.slow
def test_experiment1_full_grid():
    """The whole of Table III (10-200 sources, 900 s, three protocols): goodput
    comparable everywhere (reproduced), STTP's loss not below half of Reno's (differs)."""
    res = exp.experiment1()
    claims = {c.id: c for c in exp.claims(dict(table1=exp.table1(), table2=exp.table2(),
                                               experiment1=res))}
    assert claims["sttp-exp1-goodput-comparable"].verdict == "reproduced"
    assert claims["sttp-exp1-loss-below-half-reno"].verdict == "differs"


@pytest.mark.slow
def test_table2_full():
    res = exp.table2()
    assert abs(res.jain("TCP Reno", 4) - 0.99) <= 0.02
    assert res.jain("STTP 9:1", 4) > 0.75 + 0.02          # printed 0.75 not reproduced
