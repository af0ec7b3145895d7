"""Figures of ctlcc.plots.thesis_experiments: labelled, titled with the paper, thesis overlaid."""

import pytest

from ctlcc.experiments import thesis
from ctlcc.plots import ReportTable
from ctlcc.plots import thesis_experiments as plots


def _check(fig, figures):
    text = fig._suptitle.get_text() if fig._suptitle is not None else ""
    titles = text + " ".join(ax.get_title() for ax in fig.axes)
    assert "Xu (2002)" in titles and f"Fig{'s' if '-' in figures else ''}. {figures}" in titles
    for ax in fig.axes:
        assert ax.get_ylabel() and "[" in ax.get_ylabel()
        assert ax.get_legend() is not None
    labels = [t.get_text() for ax in fig.axes for t in ax.get_legend().get_texts()]
    return labels


def test_single_connection_figures(buffer_result, telnet_result):
    labels = _check(plots.plot_buffer_dimension(buffer_result), "3.8-3.13")
    assert any(label.startswith("thesis:") for label in labels)
    labels = _check(plots.plot_telnet(telnet_result), "3.21-3.23")
    assert "thesis: maximum 894 ms (Fig. 3.23(b))" in labels


def test_sharing_figures(fixed_result, moving_result, mixed_result):
    _check(plots.plot_fixed_bottleneck(fixed_result), "3.14-3.17")
    _check(plots.plot_moving_bottleneck(moving_result), "3.18-3.20")
    fig = plots.plot_mixed(mixed_result)
    assert "thesis 1.10" in " ".join(ax.get_title() for ax in fig.axes)
    labels = _check(plots.plot_moving_bottleneck_occupancy(moving_result), "3.20(a)")
    assert "S1D1" in labels[0] and "S2D2" in labels[1]
    with pytest.raises(ValueError, match="protocol must be one of"):
        plots.plot_moving_bottleneck_occupancy(moving_result, protocol="vegas")


def test_wireless_figures(loss_result, geo_result):
    ax = plots.plot_loss_sweep(loss_result)
    assert ax.get_xscale() == "log" and "Fig. 4.8" in ax.get_title()
    # one star per stated value of the protocols run (the legend proxies hold no data)
    stars = [l for l in ax.lines if l.get_marker() == "*" and len(l.get_xdata()) == 1]
    assert len(stars) == 4               # ST-PD at 1e-2 and 0.1, Reno and Tahoe at 1e-2
    _check(plots.plot_loss_windows(loss_result), "4.9-4.12")
    _check(plots.plot_geo(geo_result), "4.19-4.22")


def test_bursty_figure_and_claims_table():
    res = thesis.bursty_loss(protocols=("reno", "stpd"), seeds=(0, 1), duration=120.0)
    fig = plots.plot_bursty(res)
    assert "Figs. 4.13-4.17" in fig._suptitle.get_text()
    table = plots.claims_table(thesis.claims({"bursty_loss": res}))
    # throughput of Reno and ST-PD, Reno's time, and the four typed numbers of the run
    # (Reno's and ST-PD's start, ST-PD's end, Reno's stalls), and the share of Reno's loss
    # episodes that end at window 1 (Fig. 4.14)
    assert isinstance(table, ReportTable) and len(table.rows) == 8
    assert {row[7] for row in table.rows} <= {"reproduced", "differs"}


def test_report_section_is_registered():
    from ctlcc.report import SECTIONS

    assert ("thesis_sim", "ctlcc.plots.thesis_experiments") in [s[:2] for s in SECTIONS]
    with pytest.raises(ValueError, match="unknown experiments"):
        thesis.claims({"bursty": None})
