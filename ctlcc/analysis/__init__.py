# ctlcc.analysis - the bottleneck plant, z-domain closed loops, stability, transients
"""The bottleneck plant and the z-domain closed loops built around it."""

from . import plant
from .plant import SlotScale, simulate_queue
from .primo import PrimoLoop, PrimoSharedLoop, primo_loop, primo_shared_loop
from .stpd import StpdLoop, stpd_loop

__all__ = ["plant", "SlotScale", "simulate_queue", "StpdLoop", "stpd_loop",
           "PrimoLoop", "PrimoSharedLoop", "primo_loop", "primo_shared_loop"]
