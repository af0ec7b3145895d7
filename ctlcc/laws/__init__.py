# ctlcc.laws - each protocol's control law, once, as pure update functions
"""Control laws of the protocols ctlcc studies, as pure functions.

One module per protocol (``stpd``, ``primo``, ``iftp``, ``cbraa``,
``sttp``, ``tfrc``, the ``sack``
scoreboard, baselines).  Each law is written with ordinary arithmetic so that
the same function feeds the z-domain analysis (sympy symbols) and the
simulators (floats and arrays); see ARCHITECTURE.md, "One law, two uses".
"""

import importlib

__all__ = ["aqm", "cbraa", "cubic", "iftp", "primo", "prr", "sack", "stpd", "sttp", "tfrc"]


def __getattr__(name):
    # Submodules load on first use: ``stpd`` pulls in scikit-fuzzy, which
    # the other laws (and ``import ctlcc.bounds``) do not need.
    if name in __all__ or name == "stpd_fuzzy":
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'ctlcc.laws' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
