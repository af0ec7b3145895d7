"""A report section that fails after writing one table (for the report tests)."""

from ctlcc.plots import ReportTable


def report_items():
    """Yields one table, then raises."""
    yield ReportTable("before_failure", "Written before the failure.", ("a",), ((1,),))
    raise RuntimeError("section broke on purpose")
