# ctlcc.sim - fluid model and packet-level discrete-event mini-simulator
"""Simulators that act as independent witnesses of the analytic claims.

* :mod:`ctlcc.sim.scenarios` - topologies and the papers' setups
  (:func:`~ctlcc.sim.scenarios.preset`);
* :func:`run` - the packet-level discrete-event engine
  (:mod:`ctlcc.sim.engine`), returning a :class:`SimResult`.
"""

from . import engine, scenarios
from .engine import FlowStats, QueueStats, SimResult, Traces, jain_index, primo_criteria, run

__all__ = ["engine", "scenarios", "run", "SimResult", "FlowStats", "QueueStats", "Traces",
           "jain_index", "primo_criteria"]
