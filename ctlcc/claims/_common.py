# ctlcc.claims._common - helpers shared by the per-paper unit modules (private)
"""Helpers of the per-paper unit modules: data rows, slugs, printed precision."""

import re

from .. import _data

__all__ = ["data_rows", "slug", "mean", "half_unit"]


def data_rows(name):
    """Rows of a shipped CSV (``#`` lines skipped), values as strings."""
    return _data.read_csv(name)


def slug(text):
    """``'p=0.01'`` -> ``'p-0.01'``: the id part of a label (units in brackets dropped)."""
    text = re.sub(r"\[[^\]]*\]", "", str(text))
    return re.sub(r"[^a-z0-9.]+", "-", text.lower()).strip("-")


def mean(values):
    values = [float(v) for v in values]
    return sum(values) / len(values)


def half_unit(text):
    """Half a unit of the last printed digit of *text* (``"0.38"`` -> 0.005)."""
    text = str(text).strip()
    decimals = len(text.split(".")[1]) if "." in text else 0
    return 0.5 * 10 ** -decimals
