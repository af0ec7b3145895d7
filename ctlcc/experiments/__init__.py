# ctlcc.experiments - the papers' simulation experiments, re-run on ctlcc's engine
"""The papers' simulation experiments, one function each.

* :mod:`ctlcc.experiments.thesis` - the ST-PD thesis' ns-2 experiments
  (Xu 2002, §3.5, §4.4, §6), re-run on :func:`ctlcc.sim.run`, each with
  its claims checked against the numbers the thesis prints.
"""

from . import thesis

__all__ = ["thesis"]
