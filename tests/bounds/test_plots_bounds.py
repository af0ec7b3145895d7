"""The bounds section of ``ctlcc report`` renders its figures and tables."""

import matplotlib

from ctlcc.plots import ReportFigure, ReportTable, bounds
from ctlcc.report import SECTIONS


def test_section_registered():
    assert ("bounds", "ctlcc.plots.bounds") in [(name, mod) for name, mod, _ in SECTIONS]


def test_report_items_render():
    items = list(bounds.report_items())
    figures = [i for i in items if isinstance(i, ReportFigure)]
    tables = [i for i in items if isinstance(i, ReportTable)]
    assert [f.name for f in figures] == ["iftp_fig3_bandwidth_rtt_vs_n",
                                         "rate_vs_loss_mathis_pftk_tfrc_iftp",
                                         "cbraa_eq4_loss_th_vs_rate_and_rtt"]
    for f in figures:
        xlabels = [ax.get_xlabel() for ax in f.figure.axes if ax.get_xlabel()]
        assert xlabels and all("[" in x for x in xlabels)            # units; shared x axes label once
        assert all("[" in ax.get_ylabel() for ax in f.figure.axes)
        assert any(ax.get_legend() is not None for ax in f.figure.axes)   # panels share colours
        assert isinstance(f.figure, matplotlib.figure.Figure)
    assert {t.name for t in tables} == {"iftp_closed_form_vs_enumeration", "paper_constants"}
    assert all(len(row) == len(t.columns) for t in tables for row in t.rows)
