# ctlcc - control-theory analysis of end-to-end congestion control
"""Control-theory analysis of end-to-end congestion control.

Subpackages: :mod:`ctlcc.laws` (control laws), :mod:`ctlcc.analysis`
(plant, closed loops, stability), :mod:`ctlcc.bounds` (throughput
formulas), :mod:`ctlcc.sim` (fluid and packet simulators),
:mod:`ctlcc.plots` (figures) and :mod:`ctlcc.report` (``ctlcc report``).
"""

from . import analysis, bounds, errors, laws, sim
from . import crosscheck
from .analysis import (
    SlotScale,
    StpdLoop,
    primo_loop,
    primo_shared_loop,
    simulate_queue,
    stpd_loop,
)
from .bounds import jain_fairness, mathis_constant, mathis_rate, pftk_rate, tfrc_rate
from .errors import CtlccError, ParameterError, UnstableLoopError

__version__ = "0.1.0"

__all__ = [
    "analysis",
    "bounds",
    "errors",
    "laws",
    "sim",
    "crosscheck",
    "CtlccError",
    "ParameterError",
    "UnstableLoopError",
    "SlotScale",
    "StpdLoop",
    "simulate_queue",
    "stpd_loop",
    "jain_fairness",
    "mathis_constant",
    "mathis_rate",
    "pftk_rate",
    "tfrc_rate",
    "primo_loop",
    "primo_shared_loop",
]
