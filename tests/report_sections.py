"""Tiny report sections and a ledger source for the report tests."""

import numpy as np

from ctlcc.plots import ReportFigure, ReportTable, new_figure


def report_items():
    """One figure with text (fonts in the PDF) and one table."""
    figure, ax = new_figure(figsize=(3.0, 2.0))
    x = np.linspace(0.0, 1.0, 11)
    ax.plot(x, x**2, label="x^2")
    ax.set_xlabel("x [1]")
    ax.set_ylabel("x² [1]")
    ax.set_title("test figure (ctlcc report tests)")
    ax.legend()
    yield ReportFigure("test_figure", "A parabola, to test the report's files.", figure)
    yield ReportTable("test_table", "Two rows.", ("a", "b"), ((1, 0.5), (2, 0.25)))


def claims():
    """Two claims for a fake ledger source (published values from this docstring's arithmetic)."""
    from ctlcc.claims import Claim

    return [
        Claim(id="cbraa-test-reproduced", paper="cbraa", location="eq. (4)",
              claim="A test claim that holds.", published=1.5, value=1.5, verdict="reproduced",
              tolerance=0.05, tolerance_basis="half a unit of the printed digit",
              evidence="test_figure"),
        Claim(id="cbraa-test-differs", paper="cbraa", location="eq. (3)",
              claim="A test claim that does not.", published=1.0, value=2.0, verdict="differs",
              tolerance=0.05, tolerance_basis="half a unit of the printed digit",
              evidence="test_table; tests/test_report.py", reason="2 is not 1"),
        Claim(id="cbraa-test-consistency", paper="cbraa", location="eq. (2)",
              claim="ctlcc's model against ctlcc's simulator.", published=3.0, value=3.1,
              verdict="reproduced", tolerance=0.2, tolerance_basis="the model's approximations",
              kind="consistency", evidence="test_figure"),
    ]
