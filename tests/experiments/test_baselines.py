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
