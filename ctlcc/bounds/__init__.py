# ctlcc.bounds - closed-form throughput formulas and their symbolic derivations
"""Closed-form throughput bounds (Mathis, PFTK/TFRC, IFTP, CBRAA, STTP).

Rates are in packets per second when the size argument (``mss``, ``P``) is
1, in bytes per second when it is in bytes; times are in seconds.  Every
function is numpy-vectorised and checks its arguments elementwise.

Submodules: :mod:`~ctlcc.bounds.mathis` (square-root law and its three
constants), :mod:`~ctlcc.bounds.pftk` (PFTK and TFRC),
:mod:`~ctlcc.bounds.cbraa` (ideal Reno cycle and loss),
:mod:`~ctlcc.bounds.iftp` (IFTP ideal / non-ideal / worst case and gap
laws), :mod:`~ctlcc.bounds.tokenbucket` (STTP) and
:mod:`~ctlcc.bounds.fairness` (Jain's index, :func:`~ctlcc.bounds.jain_index`).
"""

from . import cbraa, fairness, iftp, mathis, pftk, tokenbucket
from .fairness import jain_fairness, jain_index
from .mathis import MathisValidityWarning, mathis_constant, mathis_rate
from .pftk import pftk_rate, tfrc_rate

__all__ = [
    "cbraa",
    "fairness",
    "iftp",
    "mathis",
    "pftk",
    "tokenbucket",
    "MathisValidityWarning",
    "jain_fairness",
    "jain_index",
    "mathis_constant",
    "mathis_rate",
    "pftk_rate",
    "tfrc_rate",
]
