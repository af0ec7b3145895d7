"""ST-PD figures: labelled axes, both routes drawn, data/ values used."""

import csv
from pathlib import Path

import numpy as np
import pytest

from ctlcc.analysis.stpd import stpd_loop
from ctlcc.plots import new_figure
from ctlcc.plots import stpd as plots

DATA = Path(__file__).resolve().parents[2] / "data"


def _rows(name):
    with (DATA / name).open(newline="") as handle:
        return list(csv.DictReader(handle))


def test_scenario_bdps_are_the_published_ones():
    published = {row["claim_id"]: float(row["value"]) for row in _rows("thesis_stpd_figure_claims.csv")
                 if row["claim_id"].startswith("bdp_")}
    assert tuple(sorted(published.values())) == plots.THESIS_BDPS


def test_thesis_gains_are_the_published_ones():
    values = {row["quantity"]: float(row["value"]) for row in _rows("thesis_stpd_numerical_example.csv")}
    assert plots.PRINTED_GAINS == (values["kp_printed"], values["kd_printed"])
    assert plots.SWAPPED_GAINS == (values["kd_printed"], values["kp_printed"])


@pytest.mark.parametrize(
    "draw",
    [
        lambda ax: plots.plot_poles(stpd_loop(0.033, 0.368, 3), ax=ax),
        lambda ax: plots.plot_root_locus(0.033, 0.368, 3, factors=np.linspace(0, 2, 50), ax=ax),
        lambda ax: plots.plot_loss_response(stpd_loop(0.033, 0.368, 3).loss_response(20, 60), ax=ax),
        lambda ax: plots.plot_throughput_under_loss(stpd_loop(0.033, 0.368, 3),
                                                    prob=np.logspace(-3, -1, 5), ax=ax),
        lambda ax: plots.plot_stability_region([1, 3], np.linspace(0, 1, 30), np.linspace(0, 1, 30),
                                               ax=ax, points={"x": (0.1, 0.2)}),
        lambda ax: plots.plot_gain_margin(0.033, 0.368, [1, 2, 3], ax=ax),
    ],
)
def test_plots_draw_on_the_given_axes_with_units(draw):
    figure, ax = new_figure()
    assert draw(ax) is ax
    assert "[" in ax.get_xlabel() and "[" in ax.get_ylabel()


def test_loss_response_plot_overlays_both_routes():
    figure, ax = new_figure()
    plots.plot_loss_response(stpd_loop(0.033, 0.368, 3).loss_response(20, 60), ax=ax)
    labels = [line.get_label() for line in ax.lines]
    assert any("inverse z-transform" in label for label in labels)
    assert any("iterated" in label for label in labels)


def test_model_comparison_rows_say_where_models_differ():
    rows = plots.model_comparison_rows()
    assert len(rows) == 6
    for label, kp, kd, bdp, rho_slot, stable_slot, rho_rtt, stable_rtt, delay in rows:
        assert not stable_slot and stable_rtt  # both §4.3.3 pairs at BDP 9, 31, 94
        assert delay < bdp
