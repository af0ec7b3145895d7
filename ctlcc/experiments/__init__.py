# ctlcc.experiments - the papers' simulation experiments, re-run on ctlcc's engine
"""The papers' simulation experiments, one function each.

* :mod:`ctlcc.experiments.thesis` - the ST-PD thesis' ns-2 experiments
  (Xu 2002, §3.5, §4.4, §6), re-run on :func:`ctlcc.sim.run`;
  :mod:`~ctlcc.experiments.thesis_testbed` its Chapter 5 testbed and
  :mod:`~ctlcc.experiments.thesis_typed_claims` a few of its other numbers.
* :mod:`ctlcc.experiments.primo` - Primo's evaluation (§V-§VI).
* :mod:`ctlcc.experiments.iftp` - IFTP's §6 (Figures 5-7, Tables II-IV).
* :mod:`ctlcc.experiments.cbraa` - CBRAA's §4 (Figs. 3-6): CBRAA and
  TCP-Friend beside TCP Reno on the Figure 2 dumbbell.
* :mod:`ctlcc.experiments.sttp` - STTP's §IV (Tables I-III).

Each module's ``claims`` hands its results to :mod:`ctlcc.claims`, which
judges every claim against the record declared for it in
``data/ledger_*.csv`` (one rule: :func:`ctlcc.claims.judge`).
"""

from . import thesis

__all__ = ["thesis"]
