# ctlcc.claims._common - helpers shared by the per-paper unit modules (private)
"""Helpers of the per-paper unit modules: data rows, cross-check points, slugs."""

import math
import re

from .. import _data
from .registry import Measurement

__all__ = ["data_rows", "slug", "check_points", "check_point", "mean", "half_unit",
           "crosscheck_results"]


def data_rows(name):
    """Rows of a shipped CSV (``#`` lines skipped), values as strings."""
    return _data.read_csv(name)


def slug(text):
    """``'p=0.01'`` -> ``'p-0.01'``: the id part of a label (units in brackets dropped)."""
    text = re.sub(r"\[[^\]]*\]", "", str(text))
    return re.sub(r"[^a-z0-9.]+", "-", text.lower()).strip("-")


def check_point(check, i, **extra):
    """Point *i* of a :class:`ctlcc.crosscheck.CrossCheck` as a Measurement (model target)."""
    seeds = tuple(int(s) for s in check.parameters.get("seeds", ()))
    spread = float(check.spread[i]) if len(seeds) > 1 else None
    if spread is not None and not math.isfinite(spread):
        spread = None
    note = extra.pop("reason", "")
    return Measurement(value=float(check.measured[i]), seeds=seeds, spread=spread,
                       target=float(check.predicted[i]), label=check.labels[i],
                       reason="; ".join(filter(None, (note, check.note))), **extra)


def check_points(check, prefix, evidence=""):
    """Every point of *check* as ``{f"{prefix}-{slug(label)}": Measurement}``."""
    return {f"{prefix}-{slug(label)}": check_point(check, i, evidence=evidence)
            for i, label in enumerate(check.labels)}


def crosscheck_results():
    """``{name: CrossCheck}`` of :func:`ctlcc.crosscheck.run_all` (memoised there)."""
    from ..crosscheck import run_all

    return {check.name: check for check in run_all()}


def mean(values):
    values = [float(v) for v in values]
    return sum(values) / len(values)


def half_unit(text):
    """Half a unit of the last printed digit of *text* (``"0.38"`` -> 0.005)."""
    text = str(text).strip()
    decimals = len(text.split(".")[1]) if "." in text else 0
    return 0.5 * 10 ** -decimals


def _crosscheck_provider():
    return crosscheck_results()


def _register_providers():
    from .registry import provider

    provider("crosscheck")(_crosscheck_provider)


_register_providers()
