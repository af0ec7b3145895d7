# ctlcc.plots - figures, one module per topic, each feeding `ctlcc report`
"""Figures and tables for notebooks and ``ctlcc report``.

Every plot function takes ``ax=None`` and returns the axes it drew on; it
never calls ``plt.show()``.  Each topic module also offers
``report_items()``, a generator of :class:`ReportFigure` and
:class:`ReportTable` that :mod:`ctlcc.report` saves.
"""

from dataclasses import dataclass

from matplotlib.figure import Figure

from .._validation import check_instance, check_interval, check_positive_int, check_sequence
from ..errors import ParameterError

__all__ = ["ReportFigure", "ReportTable", "new_figure", "get_axes", "pyplot_axes"]


@dataclass(frozen=True)
class ReportFigure:
    """A figure for the report.

    Attributes
    ----------
    name : str
        File stem; a figure reproducing a paper is named after it
        (``thesis_fig4_5_loss_response``).
    caption : str
        One or two sentences: what is shown, the parameters, the source.
    figure : matplotlib.figure.Figure
    """

    name: str
    caption: str
    figure: Figure


@dataclass(frozen=True)
class ReportTable:
    """A cross-check or reference table for the report.

    Attributes
    ----------
    name : str
        File stem.
    caption : str
        What the table compares and where each column comes from.
    columns : tuple of str
    rows : tuple of tuple
    """

    name: str
    caption: str
    columns: tuple
    rows: tuple


#: Most axes one figure may hold (nrows x ncols): each Axes costs about a megabyte
#: of matplotlib objects, and a grid beyond this is unreadable anyway. [1]
MAX_AXES = 1000
#: Largest figure side [in]: at the report's highest dpi (1200) it is 120000 pixels,
#: beyond what Agg renders (2^16 pixels) and what memory allows for one canvas.
MAX_FIGURE_INCHES = 100.0


def _check_layout(nrows, ncols, figsize):
    """Check a figure's grid of axes and size before anything is allocated."""
    nrows = check_positive_int("nrows", nrows, maximum=MAX_AXES)
    ncols = check_positive_int("ncols", ncols, maximum=MAX_AXES)
    if nrows * ncols > MAX_AXES:
        raise ParameterError(
            f"nrows x ncols must be at most {MAX_AXES} axes (MAX_AXES: about a megabyte each, "
            f"what memory allows), got nrows={nrows}, ncols={ncols}")
    if figsize is not None:
        figsize = check_sequence("figsize", figsize, min_length=2, max_length=2)
        figsize = tuple(float(check_interval(f"figsize[{i}]", x, 0.0, MAX_FIGURE_INCHES,
                                             closed="right", scalar=True))
                        for i, x in enumerate(figsize))
    return nrows, ncols, figsize


def new_figure(nrows=1, ncols=1, figsize=(6.4, 4.8), **subplot_kw):
    """A pyplot-free figure and its axes (safe in batch jobs and threads).

    *nrows* x *ncols* is at most :data:`MAX_AXES`; each side of *figsize*
    is in (0, :data:`MAX_FIGURE_INCHES`] [in].
    """
    nrows, ncols, figsize = _check_layout(nrows, ncols, figsize)
    figure = Figure(figsize=figsize, layout="constrained")
    axes = figure.subplots(nrows, ncols, **subplot_kw)
    return figure, axes


def pyplot_axes(nrows=1, ncols=1, figsize=None, **subplot_kw):
    """New axes on a *pyplot* figure, for plot functions called with ``ax=None``.

    A figure made by :func:`new_figure` is invisible to ``plt.show()``; a
    plot function that creates its own axes uses this instead, so that
    ``plot_x(...)`` followed by ``plt.show()`` in a notebook or script shows
    the figure.

    Returns
    -------
    matplotlib.axes.Axes or numpy.ndarray of Axes
    """
    import matplotlib.pyplot as plt

    nrows, ncols, figsize = _check_layout(nrows, ncols, figsize)
    _, axes = plt.subplots(nrows, ncols, figsize=figsize, layout="constrained", **subplot_kw)
    return axes


def get_axes(ax=None, **subplot_kw):
    """Return *ax*, or new axes on a new pyplot figure if None."""
    if ax is not None:
        from matplotlib.axes import Axes
        return check_instance("ax", ax, Axes)
    import matplotlib.pyplot as plt

    return plt.figure().add_subplot(**subplot_kw)
