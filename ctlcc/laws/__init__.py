# ctlcc.laws - each protocol's control law, once, as pure update functions
"""Control laws of the protocols ctlcc studies, as pure functions.

One module per protocol (``stpd``, ``primo``, ``iftp``, ``cbraa``,
``sttp``, ``tfrc``, the ``sack``
scoreboard, baselines).  Each law is written with ordinary arithmetic so that
the same function feeds the z-domain analysis (sympy symbols) and the
simulators (floats and arrays); see ARCHITECTURE.md, "One law, two uses".
"""

from . import cbraa, iftp, primo, sack, stpd, sttp, tfrc

__all__ = ["cbraa", "iftp", "primo", "sack", "stpd", "sttp", "tfrc"]
