# ctlcc - control-theory analysis of end-to-end congestion control
"""Control-theory analysis of end-to-end congestion control.

Subpackages: :mod:`ctlcc.laws` (control laws), :mod:`ctlcc.analysis`
(plant, closed loops, stability), :mod:`ctlcc.bounds` (throughput
formulas), :mod:`ctlcc.sim` (fluid and packet simulators),
:mod:`ctlcc.crosscheck` (analytic claims vs simulated measurements),
:mod:`ctlcc.plots` (figures), :mod:`ctlcc.report` (``ctlcc report``),
:mod:`ctlcc.sweep` (parameter sweeps, ``ctlcc sweep``) and
:mod:`ctlcc.references` (the bibliography every citation uses).

``import ctlcc`` is cheap: the subpackages and the names re-exported here
are imported on first use (PEP 562 module ``__getattr__``), so sympy,
python-control, scikit-fuzzy, numba and matplotlib load only when a function
that needs them is called or imported, e.g. ``from ctlcc import stpd_loop``.
"""

import importlib
from typing import TYPE_CHECKING

from .errors import CtlccError, ParameterError, UnstableLoopError

from ._version import __version__

#: Subpackages and modules reachable as attributes of ``ctlcc``.
_SUBMODULES = ("analysis", "bounds", "claims", "crosscheck", "errors", "laws", "plots",
               "references", "report", "sim", "sweep")

#: Re-exported name -> module (relative to ctlcc) that defines it.
_LAZY = {
    "SlotScale": "analysis",
    "simulate_queue": "analysis",
    "StpdLoop": "analysis",
    "LossResponse": "analysis",
    "stpd_loop": "analysis",
    "stability_region": "analysis",
    "max_stable_delay": "analysis",
    "gain_margin": "analysis",
    "gain_surface": "analysis",
    "tune_breakpoints": "analysis",
    "primo_loop": "analysis",
    "primo_shared_loop": "analysis",
    "closed_loop": "analysis",
    "ClosedLoop": "analysis",
    "FuzzySupervisor": "laws.stpd",
    "WindowLaw": "laws.user",
    "RateLaw": "laws.user",
    "jain_index": "bounds",
    "jain_fairness": "bounds",
    "mathis_constant": "bounds",
    "mathis_rate": "bounds",
    "pftk_rate": "bounds",
    "tfrc_rate": "bounds",
    "cite": "references",
}

__all__ = [
    "analysis",
    "bounds",
    "errors",
    "laws",
    "sim",
    "crosscheck",
    "references",
    "sweep",
    "CtlccError",
    "ParameterError",
    "UnstableLoopError",
    "WindowLaw",
    "RateLaw",
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
    "closed_loop",
    "ClosedLoop",
    "jain_index",
    "mathis_constant",
    "mathis_rate",
    "pftk_rate",
    "tfrc_rate",
    "cite",
]

if TYPE_CHECKING:  # editors and type checkers see the eager imports
    from . import analysis, bounds, crosscheck, laws, references, sim, sweep  # noqa: F401
    from .analysis import (  # noqa: F401
        ClosedLoop,
        LossResponse,
        SlotScale,
        StpdLoop,
        gain_margin,
        gain_surface,
        closed_loop,
        max_stable_delay,
        primo_loop,
        primo_shared_loop,
        simulate_queue,
        stability_region,
        stpd_loop,
        tune_breakpoints,
    )
    from .bounds import (  # noqa: F401
        jain_fairness,
        jain_index,
        mathis_constant,
        mathis_rate,
        pftk_rate,
        tfrc_rate,
    )
    from .laws.stpd import FuzzySupervisor  # noqa: F401
    from .laws.user import RateLaw, WindowLaw  # noqa: F401
    from .references import cite  # noqa: F401


def __getattr__(name):
    """Import a subpackage or a re-exported name on first access."""
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    if name in _LAZY:
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value          # later look-ups skip this function
        return value
    raise AttributeError(f"module 'ctlcc' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_SUBMODULES) | set(_LAZY))
