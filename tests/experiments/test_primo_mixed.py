"""§I-B/§VII-B (Primo beside Reno) and §VI (Fig. 1-bottom) of Chatté, Ducourthial & Niculescu
(2006), the figures and the claims ledger."""

import matplotlib
import numpy as np
import pytest

from ctlcc.claims import Claim
from ctlcc.errors import ParameterError
from ctlcc.experiments import primo as P
from ctlcc.plots import primo_experiments as PE

matplotlib.use("Agg")


@pytest.fixture(scope="module")
def mixed():
    return P.primo_against_reno((10, 30), ("together", "reno_first"), duration=8.0)


@pytest.fixture(scope="module")
def multi():
    return P.multi_congestion(duration=12.0)


@pytest.fixture(scope="module")
def multi_staggered():
    return P.multi_congestion(protocols=("primo",), schedule="staggered", stagger=3.0,
                              duration=12.0)


def test_interleaved_share_fixed_point():
    # 1 - s = -F ln s, checked by substitution, and the limits: F -> 1 gives s -> 1,
    # F = 1/2 gives s = 0.2032 (solved by hand by bisection: 1 - 0.2032 = 0.7968,
    # -0.5 ln 0.2032 = 0.7967).
    for factor in (0.5, 0.95, 0.99):
        s = P.interleaved_share(factor)
        assert 1 - s == pytest.approx(-factor * np.log(s), abs=1e-9)
    assert P.interleaved_share(0.5) == pytest.approx(0.2032, abs=1e-4)
    assert P.interleaved_share(0.999) > 0.99
    with pytest.raises(ParameterError, match="factor must be in"):
        P.interleaved_share(1.0)


def test_primo_keeps_most_of_the_link_beside_reno(mixed):
    # Finding (differs from §I-B "the corrective protocol will obtain all the bandwidth"):
    # Primo reads its reception rate per packet, 1/gap, which over-reads its share when its
    # packets interleave with Reno's (Jensen).  Its equilibrium share then solves
    # 1 - s = -F ln s: 0.90 in the strong regime (F_str), 0.98 in the moderate one (F_mod); it
    # does not react to losses.  So Primo keeps more than half and less than the F_mod root.
    upper = P.interleaved_share(0.99)
    assert np.all(mixed.primo_share > 0.5)
    assert np.all(mixed.primo_share < upper)
    assert np.all(mixed.primo_rate < 1.0)
    # its RTT_ref is not inflated when it starts with (or before) Reno: within one packet time
    assert abs(mixed.primo_rtt_excess[0, 0]) <= 8 * 1054 / 2e6


def test_fig1_bottom_three_hop_flow_starves(multi):
    # Finding (differs from §VI "about one third per flow"): the one-hop flows a and b take what
    # the interleaving fixed point gives them on their link (between 0.75 and the F_mod root
    # 0.98 of the link; 0.90 in the strong regime), leaving at most a quarter of R0-R1 and R2-R3
    # to c, d and e together; the three-hop flow e gets less than a tenth of a link.
    p = multi.protocols.index("primo")
    share = dict(zip(multi.flow_names, multi.link_share[p]))
    for name in ("a", "b"):
        assert 0.75 <= share[name] <= P.interleaved_share(0.99)
    assert share["e"] < 0.1
    assert abs(share["e"] - 1 / 3) > 0.2
    assert list(multi.hops) == [1, 1, 2, 2, 3]


def test_fig1_bottom_rates_are_rates(multi, multi_staggered):
    # no flow can send faster than its 10 Mb/s access link (1186 packets/s) in a 0.5-s bin
    assert np.all(multi.send_rate >= 0) and np.all(multi.send_rate <= 10e6 / (8 * 1054) + 1)
    assert multi_staggered.starts.tolist() == [0.0, 0.0, 3.0, 3.0, 6.0]
    e = multi_staggered.send_rate[0, :, 4]
    assert np.all(e[multi_staggered.bin_time <= 6.0] == 0)  # e is silent before it starts


def test_claims_are_claims(mixed, multi):
    claims = P.claims({"mixed": mixed, "multi_together": multi})
    assert all(isinstance(c, Claim) and c.paper == "primo" for c in claims)
    by_id = {c.id: c for c in claims}
    assert by_id["primo-i-sec1_preventive_loses"].verdict == "differs"
    assert by_id["primo-vi-sec6_primo_third"].verdict == "differs"
    assert "1 - s = -F_str ln s" in by_id["primo-i-sec1_preventive_loses"].reason


def test_figures(mixed, multi, multi_staggered):
    ax = PE.plot_mixed(mixed)
    assert "[packets]" in ax.get_xlabel() and "[1]" in ax.get_ylabel()
    assert "Chatté" in ax.get_title()
    fig = PE.plot_multi_congestion(multi, P.multi_congestion(duration=6.0))
    assert "Chatté" in fig._suptitle.get_text()
    assert all("[packets/s]" in a.get_ylabel() for a in fig.axes)
    sweep = P.parameter_sweep("queue", (30,), protocols=("vegas",), duration=6.0)
    fig = PE.plot_pentagons([sweep])
    assert "Figs. 2-5" in fig._suptitle.get_text()
    assert len(fig.axes[0].get_legend().get_texts()) == 1


@pytest.mark.parametrize("call, match", [
    (lambda: P.primo_against_reno(orders=("first",)), "orders must hold"),
    (lambda: P.multi_congestion(schedule="later"), "schedule must be"),
    (lambda: P.fig1_top("primo", "width", 1.0), "parameter must be one of"),
])
def test_bad_input(call, match):
    with pytest.raises(ParameterError, match=match):
        call()


def test_report_section_is_registered():
    from ctlcc.report import SECTIONS
    assert ("primo_sim", "ctlcc.plots.primo_experiments") in [s[:2] for s in SECTIONS]
