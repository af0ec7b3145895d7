# ctlcc.laws - each protocol's control law, once, as pure update functions
"""Control laws of the protocols ctlcc studies, as pure functions.

One module per protocol (``stpd``, ``primo``, ``iftp``, ``cbraa``,
``sttp``, ``tfrc``, the ``sack``
scoreboard, baselines), and ``user``: a researcher's own law
(:class:`~ctlcc.laws.user.WindowLaw`, :class:`~ctlcc.laws.user.RateLaw`).  Each law is written with ordinary arithmetic so that
the same function feeds the z-domain analysis (sympy symbols) and the
simulators (floats and arrays): one law, two uses. The packet engine compiles
the ``*_core`` functions (plain arithmetic, marked by :func:`ctlcc.laws._core.law_core`)
with numba; the checked wrappers of the same name without ``_core`` are the public API.
"""

import importlib

__all__ = ["aqm", "cbraa", "cubic", "iftp", "primo", "prr", "sack", "stpd", "sttp", "tfrc",
           "user"]


def __getattr__(name):
    # Submodules load on first use: ``stpd`` pulls in scikit-fuzzy, which
    # the other laws (and ``import ctlcc.bounds``) do not need.
    if name in __all__ or name == "stpd_fuzzy":
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'ctlcc.laws' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
