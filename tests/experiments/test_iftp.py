"""IFTP's §6 experiments (ctlcc.experiments.iftp): the runs and their claims.

The default suite runs each experiment over the paper's 120 s with five seeds
(start times drawn from them); ``-m slow`` re-runs them with ten.  The
verdicts asserted here are the findings recorded in the report: a test
that silently flipped would hide a change in the sender or the engine.
Reference values: ElAarag & Bassiouni (2002), Tables I-IV (data/iftp_tables.csv).
"""

import numpy as np
import pytest

from ctlcc.experiments import iftp as exp
from ctlcc.errors import ParameterError
from ctlcc.plots import ReportFigure, ReportTable
from ctlcc.plots import iftp_experiments as plots
from ctlcc.sim import scenarios as S


@pytest.fixture(scope="module")
def quick():
    return exp.run_all(quick=True)


@pytest.fixture(scope="module")
def quick_claims(quick):
    return {c.id: c for c in exp.claims(quick)}


def test_figure4_network_as_stated():
    sc = S.iftp_fig4(udp_rate=0.3e6)
    assert sc.data_bits == 8000 and sc.ack_bytes == 40          # §6: 1000 and 40 bytes
    bottleneck = next(l for l in sc.links if (l.a, l.b) == ("A", "B"))
    assert bottleneck.buffer == 50 and bottleneck.rate == 1e6     # §6, §6.1
    one_way = sum(l.delay for l in sc.links if (l.a, l.b) in
                  (("S0", "A"), ("A", "B"), ("B", "D0")))
    assert one_way == pytest.approx(11e-3)                        # §6: 11 ms path
    assert [f.protocol for f in sc.flows] == ["reno", "reno", "iftp", "iftp", "cbr"]
    assert sc.flows[-1].sender.rate == pytest.approx(0.3e6 / 8000)


def test_fig5_udp_takes_the_link(quick):
    f5 = quick["fig5"]
    # a constant-rate source above B must lose at least r - B of its rate (conservation)
    above = f5.udp_rates > f5.bottleneck_rate
    assert np.all(f5.udp_source[above] - f5.udp_sink[above]
                  >= f5.udp_rates[above] - f5.bottleneck_rate - 0.01e6)
    assert f5.tcp_sink[-1] < 0.2 * f5.tcp_sink[0]


def test_fig5_claims(quick_claims):
    assert quick_claims["iftp-fig5-udp-deprives-tcp"].verdict == "reproduced"
    assert quick_claims["iftp-fig5-tcp-source-equals-sink"].verdict == "reproduced"
    # the UDP source-sink gap dips by a few kb/s between 0.16 and 0.3 Mb/s, where it is
    # near zero: 'increases' read strictly (a sign) is not reproduced
    gap = quick_claims["iftp-fig5-udp-source-sink-gap-grows"]
    assert gap.verdict == "differs" and -0.02 < gap.value < 0
    # TCP never leaves 5 % of the link unused beside UDP: no reduction at 0.3 Mb/s
    assert quick_claims["iftp-fig5-reduction-starts"].value == np.inf


def test_table1_gap_is_period_over_n_minus_tau(quick):
    """G + tau = R/n is the sending interval: the two tau readings give the same sends,
    G shifted by the tau difference (8 ms - 0.8 ms)."""
    a, b = quick["sec61"], quick["sec61_tau_bottleneck"]
    assert a.tau == pytest.approx(8000 / 10e6) and b.tau == pytest.approx(8000 / 1e6)
    assert np.all(a.gap_mean > 0) and np.all(b.gap_mean > 0)


def test_table1_claims_and_readings(quick_claims):
    """Table I's cells are judged with tau one packet on the access link; tau at the
    bottleneck (8 ms) and the continuous pacing are other evidence of the same cell."""
    c = quick_claims["iftp-table1-gaps-sim"]
    assert c.published == 22.98 and c.unit == "ms" and np.isfinite(c.value)
    assert "tau one packet at B" in c.other_evidence and "continuous" in c.other_evidence
    assert len(c.seeds) == 5 and c.stderr is not None
    assert "iftp-table1-gaps-sim-tau-bottleneck" not in quick_claims


def test_tables2_3_conservation_bound_on_udp_losses(quick, quick_claims):
    t = quick["tables23"]
    hi = int(np.argmax(t.udp_rates))
    forced = (t.udp_rates[hi] - t.bottleneck_rate) * t.duration / 8000
    assert t.lost[hi, 0] >= forced - 2   # a queue's worth of packets may still be in flight
    # the paper's 3760 over 120 s is below the 4500 the rates force: paper-inconsistent
    assert 3760 < (1.8e6 - 1.5e6) * 120 / 8000
    c = quick_claims["iftp-table2-udp-drops-sim"]
    assert (c.verdict, c.implied, c.target) == ("paper-inconsistent", 4500.0, 3760.0)


def test_table3_delay_is_bounded_by_the_stated_buffer(quick):
    t = quick["tables23"]
    assert np.all(t.delay <= 11e-3 + 51 * 8000 / 1.5e6 + 2 * 8000 / 10e6 + 1e-9)


def test_table4_runs_every_cell(quick):
    t4 = quick["table4"]
    assert t4.tcp.shape == (2, 3) and np.all(t4.utilisation > 0) and np.all(t4.utilisation <= 1)


def test_every_claim_has_a_verdict_and_evidence(quick_claims):
    ids = set(quick_claims)
    assert {"iftp-table1-gaps-sim", "iftp-table2-drops-sim", "iftp-table3-delay-sim",
            "iftp-table4-bandwidth-sim"} <= ids
    # every cell of Tables II and IV is a record
    assert sum(i.startswith(("iftp-table2-lost-", "iftp-table2-drops-sim",
                             "iftp-table2-udp-drops-sim")) for i in ids) == 18
    assert sum(i.startswith(("iftp-table4-utilisation", "iftp-table4-tcp", "iftp-table4-iftp",
                             "iftp-table4-bandwidth-sim")) for i in ids) == 18
    for c in quick_claims.values():
        assert c.verdict in ("reproduced", "differs", "paper-inconsistent")
        assert c.evidence.startswith("ctlcc.") and c.paper == "iftp" and c.reason
        assert c.kind == "paper" and c.tolerance_basis


def test_table4_cells_inconsistent_with_their_own_bandwidths(quick_claims):
    """Table IV's utilisation against 2 (TCP + IFTP) / B of the same cell: B = 1.5 Mb/s,
    D = 0.003 ms gives 2 (0.207 + 0.38) / 1.5 = 78 %, printed 100 %; D = 3 ms gives 64 %,
    printed 60 % (the printed digits allow 0.7 + 0.5 and 1.3 + 0.5 points)."""
    assert quick_claims["iftp-table4-utilisation-B1.5-D0.003"].verdict == "paper-inconsistent"
    assert quick_claims["iftp-table4-utilisation-B1.5-D0.003"].implied == \
        pytest.approx(100 * 2 * (0.207 + 0.38) / 1.5)
    assert quick_claims["iftp-table4-utilisation-B1.5-D3"].verdict == "paper-inconsistent"
    assert quick_claims["iftp-table4-utilisation-B1.0-D3"].verdict == "differs"


def test_report_items(quick):
    items = list(plots.report_items(quick))
    assert sum(isinstance(i, ReportFigure) for i in items) == 6
    assert isinstance(items[-1], ReportTable) and items[-1].rows


@pytest.mark.parametrize("call, match", [
    (lambda: exp.udp_unfairness(udp_rates=(0.0,)), "udp_rates"),
    (lambda: exp.friendliness(tau="access"), "tau must be None, 'bottleneck'"),
    (lambda: exp.bandwidth_delay(delays=(-1.0,)), "delays"),
    (lambda: exp.udp_losses(duration=0.0), "duration"),
    (lambda: S.iftp_fig4(n=3), "n needs a protocol"),
    (lambda: S.iftp_fig4(udp_rate=-1.0), "udp_rate"),
])
def test_bad_arguments(call, match):
    with pytest.raises(ParameterError, match=match):
        call()


@pytest.mark.slow
def test_five_seeds_give_the_same_verdicts_as_one(quick_claims):
    full = {c.id: c for c in exp.claims(exp.run_all(quick=False))}
    for cid in ("iftp-fig5-udp-deprives-tcp", "iftp-fig5-udp-source-sink-gap-grows",
                "iftp-table2-udp-drops-sim", "iftp-table3-delay-sim"):
        assert full[cid].verdict == quick_claims[cid].verdict, cid
