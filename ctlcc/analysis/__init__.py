# ctlcc.analysis - the bottleneck plant, z-domain closed loops, stability, transients
"""The bottleneck plant and the z-domain closed loops built around it."""

from . import plant
from .plant import SlotScale, simulate_queue
from .stpd import StpdLoop, stpd_loop
from .fuzzy_surface import gain_surface, tune_breakpoints

__all__ = ["plant", "SlotScale", "simulate_queue", "StpdLoop", "stpd_loop",
           "gain_surface", "tune_breakpoints"]
