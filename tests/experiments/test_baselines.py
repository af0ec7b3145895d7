"""CUBIC beside ST-PD and Primo (ctlcc.experiments.baselines, ctlcc.plots.baselines).

New results, not paper claims: the tests check the wiring (CUBIC is in each
comparison, the window's deliveries) against a second route, not values.
"""

import pytest

from ctlcc.errors import ParameterError
from ctlcc.experiments import baselines, thesis
from ctlcc.experiments.thesis._common import _run
from ctlcc.plots.baselines import plot_sharing


def test_cubic_joins_every_comparison():
    assert baselines.THESIS_PROTOCOLS[-1] == "cubic"
    assert set(baselines.THESIS_PROTOCOLS) >= {"tahoe", "reno", "vegas", "stpd"}
    assert baselines.PRIMO_PROTOCOLS == ("reno", "sack", "vegas", "tfrc", "primo", "cubic")


def test_sharing_window_matches_the_traced_deliveries():
    """The two-run difference equals the in-order delivery trace over the same window
    (the thesis experiments' _run trace: a second route)."""
    result = baselines.sharing(pairs=(("cubic", "stpd"),), duration=12.0, settle=2.0)
    traced = _run(thesis.fig6_1(("cubic", "stpd"), (0.0, 5.0), 20), 12.0, 0, 0.5, 0.01)
    got = [traced.delivered_between(k, 7.0, 12.0) for k in (0, 1)]
    assert result.delivered[0] == pytest.approx(got, abs=1.0)  # 10-ms trace samples
    assert result.shares[0] == pytest.approx(result.delivered[0][1] / sum(result.delivered[0]))
    ax = plot_sharing(result)
    assert "Xu (2002)" in ax.get_title() and "CUBIC" in ax.get_title()
    assert ax.get_ylabel().endswith("[1]") and ax.get_legend() is not None


def test_sharing_bad_input():
    with pytest.raises(ParameterError, match="duration"):
        baselines.sharing(duration=-1.0)


# --- CUBIC in §6's lossy sharing (Figs. 6.3-6.6) and in Primo's §V-E and §VI -------------

import numpy as np  # noqa: E402

from ctlcc.experiments import primo  # noqa: E402
from ctlcc.plots import baselines as base_plots  # noqa: E402
from ctlcc.plots import primo_experiments as primo_plots  # noqa: E402
from ctlcc.plots import thesis_experiments as thesis_plots  # noqa: E402


@pytest.fixture(scope="module")
def lossy_pair():
    """mixed_reno with and without CUBIC, short (15 s, two seeds)."""
    kw = dict(duration=15.0, seeds=(0, 1))
    return thesis.mixed_reno(**kw), thesis.mixed_reno(extra=("cubic",), **kw)


def test_adding_cubic_leaves_the_thesis_runs_unchanged(lossy_pair):
    plain, with_cubic = lossy_pair
    assert plain.extra_gain == {}
    np.testing.assert_array_equal(with_cubic.shared_gain, plain.shared_gain)
    np.testing.assert_array_equal(with_cubic.own_gain, plain.own_gain)
    assert with_cubic.stpd_share == plain.stpd_share
    for key, run in plain.lossy.items():
        np.testing.assert_array_equal(with_cubic.lossy[key].delivered, run.delivered)


def test_cubic_gain_is_its_own_run_over_renos(lossy_pair):
    """The ratio from a second route: the two S2D2 runs built and run here directly."""
    _, res = lossy_pair
    assert set(res.extra_gain) == {("R1R2", "cubic"), ("S2R1", "cubic")}
    for placement in ("R1R2", "S2R1"):
        got = []
        for seed in res.seeds:
            s2d2 = {p: _run(thesis.fig6_1(("reno", p), (0.0, 5.0), 20, res.loss, placement),
                            15.0, seed, 0.5, 0.01).delivered_total[1] for p in ("cubic", "reno")}
            got.append(s2d2["cubic"] / s2d2["reno"])
        np.testing.assert_allclose(res.extra_gain[(placement, "cubic")], got, rtol=0, atol=0)


def test_lossy_sharing_figure_and_table_show_cubic_as_an_addition(lossy_pair):
    _, res = lossy_pair
    fig = thesis_plots.plot_mixed(res)
    labels = [t.get_text() for ax in fig.axes for t in ax.get_legend().get_texts()]
    assert sum(label.startswith("S2D2 = CUBIC (ctlcc's addition") for label in labels) == 2
    titles = " ".join(ax.get_title() for ax in fig.axes)
    assert titles.count("CUBIC/Reno") == 2 and "thesis 1.10" in titles
    table = base_plots.lossy_sharing_table(res)
    # ST-PD and CUBIC on each placement; ST-PD's row carries the thesis's value, CUBIC's none
    assert [(r[0], r[1]) for r in table.rows] == [("R1R2", "ST-PD"), ("R1R2", "CUBIC"),
                                                  ("S2R1", "ST-PD"), ("S2R1", "CUBIC")]
    assert table.rows[0][5] == "1.10" and table.rows[1][5] == "(not in the thesis)"
    assert float(table.rows[1][2]) == pytest.approx(np.mean(res.extra_gain[("R1R2", "cubic")]),
                                                    abs=5e-4)


def test_bursty_figure_draws_cubics_window():
    res = thesis.bursty_loss(protocols=("reno", "stpd", "cubic"), seeds=(0,), duration=40.0,
                             first=10, last=1000)
    fig = thesis_plots.plot_bursty(res)
    window_panels = fig.axes[:2]
    for ax in window_panels:
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        assert "CUBIC (ctlcc's addition, seed 0)" in labels
        assert "Reno (ctlcc, seed 0)" in labels


def test_primo_tables_hold_cubic_beside_the_papers_protocols():
    many = primo.many_sources((2,), protocols=("reno", "cubic"), schedules=("together",),
                              duration=6.0)
    table = base_plots.many_sources_table(many)
    assert [r[0] for r in table.rows] == ["Reno", "CUBIC"]
    assert len(table.columns) == len(table.rows[0]) == 3 + 5 + 1
    assert table.rows[1][3:8] == tuple(round(float(v), 1) for v in many.criteria[1, 0, 0])
    fig = primo_plots.plot_many_sources(many)
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert "CUBIC (ctlcc's addition), together" in labels and "Reno, together" in labels
    multi = {s: primo.multi_congestion(("primo", "cubic"), s, duration=16.0)
             for s in ("together", "staggered")}
    fig = primo_plots.plot_multi_congestion(multi["together"], multi["staggered"])
    assert fig.axes[2].get_title().startswith("CUBIC (ctlcc's addition), Fig. 6")
    table = base_plots.multi_congestion_table(multi)
    assert [(r[0], r[1]) for r in table.rows] == [("Primo", "together"), ("CUBIC", "together"),
                                                  ("Primo", "staggered"),
                                                  ("CUBIC", "staggered")]
    assert len(table.columns) == len(table.rows[0]) == 2 + 5 + 5 + 1
    # the link shares of a row are the result's, flow by flow
    assert table.rows[3][2:7] == tuple(round(float(v), 3)
                                       for v in multi["staggered"].link_share[1])
