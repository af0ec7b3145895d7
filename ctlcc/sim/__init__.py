# ctlcc.sim - fluid model and packet-level discrete-event mini-simulator
"""Simulators that act as independent witnesses of the analytic claims.

* :mod:`ctlcc.sim.scenarios` - topologies and the papers' setups
  (:func:`~ctlcc.sim.scenarios.preset`);
* :mod:`ctlcc.sim.senders` - the sender algorithms and their specs
  (``Flow(path, sender=Stpd(...))`` or ``protocol="stpd"``);
* :func:`run` - the packet-level discrete-event engine
  (:mod:`ctlcc.sim.engine`), returning a :class:`SimResult`; it compiles
  what a run uses the first time (:func:`warm` does it ahead of time);
  a researcher's :class:`ctlcc.WindowLaw` / :class:`ctlcc.RateLaw` is a
  sender too (``protocol=law``);
* :mod:`ctlcc.sim.testing` - a harness that drives a sender's hooks by hand;
* :mod:`ctlcc.sim.fluid` - the batched delay-differential fluid model.
"""

from . import engine, fluid, scenarios, senders
from .engine import (FlowStats, QueueStats, SimResult, Traces, jain_index, primo_criteria, run,
                     warm)

__all__ = ["engine", "fluid", "scenarios", "senders", "run", "warm", "SimResult", "FlowStats",
           "QueueStats", "Traces", "jain_index", "primo_criteria"]
