"""Figures of STTP's Table II and Experiment 1 (Wade, Kara & Dew (2000)): labelled, paper overlaid."""

import matplotlib

matplotlib.use("Agg")

from ctlcc.experiments import sttp as exp  # noqa: E402
from ctlcc.plots import ReportFigure, ReportTable, new_figure  # noqa: E402
from ctlcc.plots import sttp_experiments as P  # noqa: E402


def test_table2_figure_has_ours_and_the_paper():
    res = exp.table2(configs=("TCP Reno", "STTP 9:1"), sources=(1, 2), duration=200.0)
    fig = P.plot_table2(res)
    (ax,) = fig.axes
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "paper, Table II" in labels and any("ctlcc" in x for x in labels)
    assert "[packets]" in ax.get_ylabel() and "Table II" in fig._suptitle.get_text()


def test_experiment1_figures_label_units_and_cite():
    res = exp.experiment1(counts=(10,), protocols=("Reno", "STTP"), duration=60.0)
    for column, figure in (("goodput", "Fig. 4"), ("drop", "Fig. 5")):
        fig, ax = new_figure()
        P.plot_experiment1(res, column, ax)
        assert "[MB]" in ax.get_ylabel() and "[1]" in ax.get_xlabel()
        assert figure in ax.get_title() and "Wade, Kara & Dew" in ax.get_title()
        assert len(ax.get_legend().get_texts()) == 4          # ours and paper per protocol


def test_report_items_kinds():
    res = dict(table1=exp.table1(),
               table2=exp.table2(sources=(1, 2), duration=200.0),
               experiment1=exp.experiment1(counts=(10, 20), duration=60.0))
    items = list(P.report_items(res))
    assert [type(i) for i in items] == [ReportFigure] * 3 + [ReportTable] * 2
    assert all(len(r) == len(items[-1].columns) for r in items[-1].rows)


def test_s3b1_timeline_marks_the_printed_times():
    fig = P.plot_s3b1_timeline(exp.burst_timeline())
    top, bottom = fig.axes
    assert "§III-B.1" in fig._suptitle.get_text() and "Wade, Kara & Dew" in fig._suptitle.get_text()
    assert bottom.get_xlabel() == "time [s]" and "[1]" in top.get_ylabel()
    # the paper's printed times are dashed lines: STTP's four, Reno's three
    dashed = [[line.get_xdata()[0] for line in ax.get_lines() if line.get_linestyle() == "--"]
              for ax in (top, bottom)]
    assert dashed == [[0.029, 0.668, 0.281, 1.156], [0.0, 0.264, 1.292]]
    assert any("paper" in t.get_text() for t in top.get_legend().get_texts())
