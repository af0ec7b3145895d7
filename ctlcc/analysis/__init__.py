# ctlcc.analysis - the bottleneck plant, z-domain closed loops, stability, transients
"""The bottleneck plant and the z-domain closed loops built around it."""

from . import plant, stability
from .fuzzy_surface import gain_surface, tune_breakpoints
from .plant import SlotScale, simulate_queue
from .primo import PrimoLoop, PrimoSharedLoop, primo_loop, primo_shared_loop
from .stability import gain_margin, jury_conditions, max_stable_delay, stability_region
from .stpd import LossResponse, StpdLoop, stpd_loop

__all__ = [
    "plant",
    "stability",
    "SlotScale",
    "simulate_queue",
    "StpdLoop",
    "LossResponse",
    "stpd_loop",
    "stability_region",
    "max_stable_delay",
    "jury_conditions",
    "gain_margin",
    "PrimoLoop",
    "PrimoSharedLoop",
    "primo_loop",
    "primo_shared_loop",
    "gain_surface",
    "tune_breakpoints",
]
