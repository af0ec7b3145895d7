# ctlcc.experiments - the papers' simulation experiments, re-run on ctlcc's engine
"""The papers' simulation experiments, one function each.

* :mod:`ctlcc.experiments.thesis` - the ST-PD thesis' ns-2 experiments
  (Xu 2002, §3.5, §4.4, §6), re-run on :func:`ctlcc.sim.run`, each with
  its claims checked against the numbers the thesis prints.
* :mod:`ctlcc.experiments.primo` - Primo's evaluation (§V-§VI).
* :mod:`ctlcc.experiments.cbraa` - CBRAA's §4 (Figs. 3-6): CBRAA and
  TCP-Friend beside TCP Reno on the Figure 2 dumbbell.
"""

from . import thesis

__all__ = ["thesis"]
