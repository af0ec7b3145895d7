# ctlcc.sim - fluid model and packet-level discrete-event mini-simulator
"""Simulators that act as independent witnesses of the analytic claims.

* :mod:`ctlcc.sim.scenarios` - topologies and the papers' setups
  (:func:`~ctlcc.sim.scenarios.preset`);
* :mod:`ctlcc.sim.senders` - the sender algorithms and their specs
  (``Flow(path, sender=Stpd(...))`` or ``protocol="stpd"``);
* :func:`run` - the packet-level discrete-event engine
  (:mod:`ctlcc.sim.engine`), returning a :class:`SimResult`;
* :mod:`ctlcc.sim.fluid` - the batched delay-differential fluid model.
"""

from . import engine, fluid, scenarios, senders
from .engine import FlowStats, QueueStats, SimResult, Traces, jain_index, primo_criteria, run

__all__ = ["engine", "fluid", "scenarios", "senders", "run", "SimResult", "FlowStats", "QueueStats",
           "Traces", "jain_index", "primo_criteria"]
