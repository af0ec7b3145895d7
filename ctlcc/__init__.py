# ctlcc - control-theory analysis of end-to-end congestion control
"""Control-theory analysis of end-to-end congestion control.

Subpackages: :mod:`ctlcc.laws` (control laws), :mod:`ctlcc.analysis`
(plant, closed loops, stability), :mod:`ctlcc.bounds` (throughput
formulas), :mod:`ctlcc.sim` (fluid and packet simulators),
:mod:`ctlcc.crosscheck` (analytic claims vs simulated measurements),
:mod:`ctlcc.plots` (figures), :mod:`ctlcc.report` (``ctlcc report``) and
:mod:`ctlcc.sweep` (parameter sweeps, ``ctlcc sweep``).
"""

from . import analysis, bounds, errors, laws, sim
from . import crosscheck
from . import sweep
from .analysis import (
    LossResponse,
    SlotScale,
    StpdLoop,
    gain_margin,
    gain_surface,
    max_stable_delay,
    primo_loop,
    primo_shared_loop,
    simulate_queue,
    stability_region,
    stpd_loop,
    tune_breakpoints,
)
from .bounds import jain_fairness, mathis_constant, mathis_rate, pftk_rate, tfrc_rate
from .errors import CtlccError, ParameterError, UnstableLoopError
from .laws.stpd import FuzzySupervisor

__version__ = "0.1.0"

__all__ = [
    "analysis",
    "bounds",
    "errors",
    "laws",
    "sim",
    "crosscheck",
    "sweep",
    "CtlccError",
    "ParameterError",
    "UnstableLoopError",
    "SlotScale",
    "simulate_queue",
    "StpdLoop",
    "LossResponse",
    "stpd_loop",
    "stability_region",
    "max_stable_delay",
    "gain_margin",
    "FuzzySupervisor",
    "gain_surface",
    "tune_breakpoints",
    "primo_loop",
    "primo_shared_loop",
    "jain_fairness",
    "mathis_constant",
    "mathis_rate",
    "pftk_rate",
    "tfrc_rate",
]
