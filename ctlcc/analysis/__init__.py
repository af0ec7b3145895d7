# ctlcc.analysis - the bottleneck plant, z-domain closed loops, stability, transients
"""The bottleneck plant and the z-domain closed loops built around it.

:func:`closed_loop` derives the loop of any law (:class:`ctlcc.WindowLaw`,
:class:`ctlcc.RateLaw`); :func:`stpd_loop` and :func:`primo_loop` are thin
callers of it with the papers' laws.
"""

import importlib
from typing import TYPE_CHECKING

#: Re-exported name -> submodule; loaded on first use so that, e.g.,
#: ``stpd_loop`` does not pay for scikit-fuzzy (``gain_surface``).
_LAZY = {
    "SlotScale": "plant", "simulate_queue": "plant",
    "StpdLoop": "stpd", "LossResponse": "stpd", "stpd_loop": "stpd",
    "stability_region": "stability", "max_stable_delay": "stability",
    "jury_conditions": "stability", "gain_margin": "stability",
    "PrimoLoop": "primo", "PrimoSharedLoop": "primo", "primo_loop": "primo",
    "primo_shared_loop": "primo",
    "gain_surface": "fuzzy_surface", "tune_breakpoints": "fuzzy_surface",
    "closed_loop": "loops", "ClosedLoop": "loops", "LoopResponse": "loops",
    "StabilityRegion": "loops", "Margins": "loops",
}
_SUBMODULES = ("plant", "stability", "stpd", "primo", "fuzzy_surface", "loops")

if TYPE_CHECKING:
    from . import plant, stability  # noqa: F401
    from . import loops  # noqa: F401
    from .loops import (ClosedLoop, LoopResponse, Margins, StabilityRegion,  # noqa: F401
                              closed_loop)
    from .fuzzy_surface import gain_surface, tune_breakpoints  # noqa: F401
    from .plant import SlotScale, simulate_queue  # noqa: F401
    from .primo import PrimoLoop, PrimoSharedLoop, primo_loop, primo_shared_loop  # noqa: F401
    from .stability import (gain_margin, jury_conditions, max_stable_delay,  # noqa: F401
                            stability_region)
    from .stpd import LossResponse, StpdLoop, stpd_loop  # noqa: F401

__all__ = [
    "plant",
    "stability",
    "loops",
    "closed_loop",
    "ClosedLoop",
    "LoopResponse",
    "Margins",
    "StabilityRegion",
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


def __getattr__(name):
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    if name in _LAZY:
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'ctlcc.analysis' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_SUBMODULES) | set(_LAZY))
