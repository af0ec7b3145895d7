# ctlcc._data - the one reader of the data files shipped with ctlcc (private)
"""Read the papers' published values that ship inside the package.

The repository keeps them in its top-level ``data/`` folder (where a reader
looks for the papers' numbers); ``pyproject.toml`` maps that folder to the
subpackage :mod:`ctlcc.data`, so a wheel, an sdist install and an editable
install all carry it.  Every module reads them through this loader
(:mod:`importlib.resources`); none builds a path to the source tree.  The
files are read-only: what ctlcc regenerates (the ST-PD readings sweep, the
CBRAA beta readings, ns-3 comparison runs) is written where the caller
says.

Examples
--------
>>> rows = read_csv("thesis_stpd_numerical_example.csv")
>>> rows[0]["quantity"], rows[0]["value"]
('m', '3')
>>> path("no_such_file.csv")
Traceback (most recent call last):
...
ctlcc.errors.ParameterError: name must be one of the data files shipped with ctlcc (...); got 'no_such_file.csv'
"""

import csv
import io
from importlib import resources

from .errors import ParameterError

__all__ = ["PACKAGE", "directory", "names", "path", "read_text", "read_csv"]

#: The subpackage the top-level ``data/`` folder is installed as.
PACKAGE = "ctlcc.data"


def directory():
    """The installed data folder (a :class:`importlib.resources.abc.Traversable`).

    Raises
    ------
    FileNotFoundError
        ctlcc runs from a source tree that was never installed (``pip
        install .`` or ``pip install -e .`` maps ``data/`` into the package).
    """
    try:
        return resources.files(PACKAGE)
    except ModuleNotFoundError as err:
        raise FileNotFoundError(
            "ctlcc's data files (the subpackage ctlcc.data) are not installed: install ctlcc "
            "with pip (pip install ctlcc, or pip install -e . in a checkout) rather than "
            "putting the source tree on PYTHONPATH") from err


def names():
    """Names of the shipped data files, sorted (``__init__.py`` left out); a file one
    folder deep is named with its folder, ``"inventory/stpd.csv"``."""
    out = []
    for entry in directory().iterdir():
        if entry.is_file() and not entry.name.endswith((".py", ".pyc")):
            out.append(entry.name)
        elif entry.is_dir() and not entry.name.startswith(("_", ".")):
            out += [f"{entry.name}/{inner.name}" for inner in entry.iterdir() if inner.is_file()]
    return sorted(out)


def path(name):
    """The shipped file *name* (a Traversable; a :class:`pathlib.Path` once installed).

    Parameters
    ----------
    name : str
        File name, e.g. ``"thesis_sim_published.csv"``, or one folder deep,
        ``"inventory/stpd.csv"``.

    Raises
    ------
    ParameterError
        *name* is not a shipped data file; the message lists them.
    """
    parts = name.split("/") if isinstance(name, str) else []
    if (not isinstance(name, str) or not name or "\\" in name or len(parts) > 2
            or any(part in ("", ".", "..") for part in parts)):
        raise ParameterError(f"name must be the name of a data file, at most one folder deep "
                             f"('inventory/stpd.csv'), got {name!r}")
    entry = directory()
    for part in parts:
        entry = entry / part
    if not entry.is_file():
        raise ParameterError(f"name must be one of the data files shipped with ctlcc "
                             f"({', '.join(names())}); got {name!r}")
    return entry


def read_text(name):
    """The text of the shipped file *name* (UTF-8)."""
    return path(name).read_text(encoding="utf-8")


def read_csv(name):
    """Rows of the shipped CSV file *name* as dicts (values as strings).

    Lines starting with ``#`` (the provenance comments of the ns-3 files)
    are skipped.
    """
    lines = [line for line in io.StringIO(read_text(name), newline="")
             if not line.startswith("#")]
    return list(csv.DictReader(lines))
