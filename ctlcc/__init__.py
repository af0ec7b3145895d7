# ctlcc - control-theory analysis of end-to-end congestion control
"""Control-theory analysis of end-to-end congestion control.

Subpackages: :mod:`ctlcc.laws` (control laws), :mod:`ctlcc.analysis`
(plant, closed loops, stability), :mod:`ctlcc.bounds` (throughput
formulas), :mod:`ctlcc.sim` (fluid and packet simulators),
:mod:`ctlcc.plots` (figures) and :mod:`ctlcc.report` (``ctlcc report``).
"""

from . import analysis, bounds, errors, laws, sim
from .analysis import (
    LossResponse,
    SlotScale,
    StpdLoop,
    gain_margin,
    max_stable_delay,
    simulate_queue,
    stability_region,
    stpd_loop,
)
from .errors import CtlccError, ParameterError, UnstableLoopError

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
    "LossResponse",
    "simulate_queue",
    "stpd_loop",
    "stability_region",
    "max_stable_delay",
    "gain_margin",
]
