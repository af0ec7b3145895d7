# ctlcc.plots.styles - the house styles shipped with the package
"""Matplotlib style files of ctlcc: ``paper`` (default) and ``slides``.

Both embed TrueType (Type 42) fonts in PDF and PostScript, as journals ask,
and keep SVG text as text.  Use them with :func:`context` or
``matplotlib.style.use(ctlcc.plots.styles.path("paper"))``.

Examples
--------
>>> import matplotlib
>>> with context("slides"):
...     matplotlib.rcParams["pdf.fonttype"]
42
"""

import contextlib
from pathlib import Path

from ...errors import ParameterError

__all__ = ["STYLES", "path", "context"]

#: Names of the shipped styles.
STYLES = ("paper", "slides")

_HERE = Path(__file__).resolve().parent


def path(name="paper"):
    """Path of the style file *name* (one of :data:`STYLES`)."""
    if name not in STYLES:
        raise ParameterError(f"style must be one of {', '.join(STYLES)}; got {name!r}")
    return _HERE / f"{name}.mplstyle"


@contextlib.contextmanager
def context(name="paper"):
    """Apply the style *name* within a ``with`` block (rcParams restored after)."""
    import matplotlib.style

    with matplotlib.style.context(str(path(name))):
        yield
