# ctlcc.data - the papers' published values, installed with the package
"""The papers' published values (CSV, TOML), installed as ``ctlcc.data``.

This folder is the repository's top-level ``data/``; ``pyproject.toml`` maps
it into the package.  Read the files through :mod:`ctlcc._data`, which finds
them wherever ctlcc is installed.
"""
