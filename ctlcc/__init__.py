# ctlcc - control-theory analysis of end-to-end congestion control
"""Control-theory analysis of end-to-end congestion control.

Subpackages: :mod:`ctlcc.laws` (control laws), :mod:`ctlcc.analysis`
(plant, closed loops, stability), :mod:`ctlcc.bounds` (throughput
formulas), :mod:`ctlcc.sim` (fluid and packet simulators),
:mod:`ctlcc.plots` (figures) and :mod:`ctlcc.report` (``ctlcc report``).
"""

from . import analysis, bounds, errors, laws, sim
from .analysis import SlotScale, StpdLoop, simulate_queue, stpd_loop
from .errors import CtlccError, ParameterError, UnstableLoopError
from .laws.stpd import FuzzySupervisor

__version__ = "0.1.0"

__all__ = [
    "analysis",
    "bounds",
    "errors",
    "laws",
    "sim",
    "CtlccError",
    "ParameterError",
    "UnstableLoopError",
    "SlotScale",
    "StpdLoop",
    "simulate_queue",
    "stpd_loop",
    "FuzzySupervisor",
]
