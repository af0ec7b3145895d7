"""Plots of packet-simulator runs: what a user asked of them in issue 15."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

from ctlcc import FuzzySupervisor
from ctlcc.plots.fuzzy import plot_gain_schedules
from ctlcc.plots.sim import plot_queue, plot_window
from ctlcc.sim import run, scenarios


@pytest.fixture(scope="module")
def mixed_run():
    # One Reno and one Primo flow through one 2 Mb/s bottleneck, traced.
    sc = scenarios.dumbbell(2, protocol=("reno", "primo"))
    return run(sc, 3.0, seed=0, trace=True)


def test_plot_window_draws_the_rate_of_a_rate_based_flow(mixed_run):
    primo = [f.protocol for f in mixed_run.flows].index("primo")
    ax = plot_window(mixed_run, flow=primo)
    y = ax.lines[-1].get_ydata()
    expected = mixed_run.traces.rate[:, primo]
    assert np.isfinite(y).any(), "the axis must not be empty"
    np.testing.assert_array_equal(y, expected)
    assert ax.get_ylabel() == "sending rate [packets/s]"


def test_plot_window_draws_the_window_of_a_window_flow(mixed_run):
    reno = [f.protocol for f in mixed_run.flows].index("reno")
    ax = plot_window(mixed_run, flow=reno)
    np.testing.assert_array_equal(ax.lines[-1].get_ydata(), mixed_run.traces.window[:, reno])
    assert ax.get_ylabel() == "congestion window [packets]"


def test_plot_queue_labels_a_shared_queue_by_its_link_not_one_flow(mixed_run):
    ax = plot_queue(mixed_run)
    label = ax.lines[-1].get_label()
    a, b = mixed_run.queues[0].link
    assert label == f"queue {a}->{b}"
    assert "reno" not in label and "primo" not in label


def test_plot_queue_keeps_the_protocol_when_all_flows_share_it():
    result = run(scenarios.single_bottleneck(protocol="reno"), 1.0, seed=0, trace=True)
    assert plot_queue(result).lines[-1].get_label() == "reno"


@pytest.mark.parametrize("plot", [plot_window, plot_queue])
def test_a_run_without_traces_says_trace_true_is_needed(plot):
    result = run(scenarios.single_bottleneck(), 1.0, seed=0)
    with pytest.raises(ValueError, match=r"needs the run's traces.*trace=True"):
        plot(result)


@pytest.mark.parametrize("call, match", [
    (lambda r: plot_window(r, flow=5), r"flow must be an integer in \[0, 1\], got 5"),
    (lambda r: plot_queue(r, queue=-1), r"queue must be an integer in \[0, 0\], got -1"),
])
def test_bad_indices_name_the_argument(mixed_run, call, match):
    with pytest.raises(ValueError, match=match):
        call(mixed_run)


def test_ax_none_draws_on_a_figure_plt_show_displays(mixed_run):
    # plt.show() shows the figures pyplot manages; a plot made with ax=None
    # must be among them (a bare matplotlib Figure would show nothing).
    plt.close("all")
    ax = plot_window(mixed_run, ax=None)
    assert ax.figure in [plt.figure(n) for n in plt.get_fignums()]
    plt.close("all")
    axes = plot_gain_schedules({"default": FuzzySupervisor()})
    assert axes[0].figure.number in plt.get_fignums()
    plt.close("all")
