"""Figures of the fuzzy supervisor (ctlcc.plots.fuzzy): axes, labels with units."""

import numpy as np

from ctlcc.analysis.fuzzy_surface import gain_surface
from ctlcc.laws.stpd_fuzzy import FuzzySupervisor, default_config
from ctlcc.plots import new_figure
from ctlcc.plots.fuzzy import (plot_diagonal, plot_gain_schedules, plot_input_memberships,
                               plot_output_memberships, plot_radius_surface)


def test_membership_plots_label_units():
    figure, axes = new_figure(1, 2)
    ax = plot_input_memberships(ax=axes[0])
    assert ax.get_xlabel() == "perceived BDP [packets]" and "[1]" in ax.get_ylabel()
    assert len([line for line in ax.lines if line.get_label() in ("ES", "S", "M", "L", "EL")]) == 5
    ax = plot_output_memberships(gain="kd", ax=axes[1])
    assert ax.get_xlabel() == "kd [1]"


def test_schedule_plot_draws_each_supervisor():
    ax_kp, ax_kd = plot_gain_schedules({"a": FuzzySupervisor(),
                                        "b": FuzzySupervisor(default_config("printed"))})
    labels = [line.get_label() for line in ax_kp.lines]
    assert "a" in labels and "b" in labels
    assert "inverse" in ax_kp.get_title() and "direct" in ax_kd.get_title()


def test_surface_plot_marks_boundary_and_diagonal():
    surface = gain_surface(np.geomspace(1, 40, 12), [1, 2, 3, 5, 8, 13, 21, 34])
    figure, ax = new_figure()
    plot_radius_surface(surface, ax=ax)
    labels = [line.get_label() for line in ax.lines]
    assert "stability boundary ρ = 1" in labels and "physical diagonal m = BDP" in labels
    assert ax.get_ylabel() == "round trip m [slots]"
    figure, ax = new_figure()
    plot_diagonal(surface.bdp, {"default": surface.diagonal_radius}, ax=ax, target=0.9)
    assert "target 0.9" in [line.get_label() for line in ax.lines]
