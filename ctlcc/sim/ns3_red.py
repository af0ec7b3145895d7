# ctlcc.sim.ns3_red - RED on packets against ns-3's RedQueueDisc: cases and measures
"""RED on the engine's bottleneck against ns-3's ``RedQueueDisc`` (issue 22 §3).

Four settings (:data:`RED_CASES`), each run in ns-3 (:func:`ctlcc.sim.ns3.run_ns3`,
RED installed by :func:`ctlcc.sim.ns3.ns3_job`'s mapping of the link's
:class:`~ctlcc.laws.aqm.RedParams`) and in the engine (:func:`ctlcc.sim.run`)
on the same scenario and seeds, and measured the same way
(:func:`red_measures`) over the window [warmup, duration]:

* ``queue_mean``: mean of the bottleneck queue sampled every 20 ms (packets
  waiting, the one in transmission not counted) [packets];
* ``drop_rate``: packets the bottleneck queue dropped (RED's early and forced
  drops plus overflow) per packet offered to it [1];
* ``goodput_total``: payload bits delivered in order per second, all flows
  [bit/s].

The settings: Hollot et al.'s example network (:func:`ctlcc.experiments.aqm.hollot_network`:
N = 60 NewReno flows, 3750 packets/s, Tp = 0.2 s, 800-packet buffer) behind
RED (50, 550, 0.1) and RED (50, 150, 0.5), w_q = 1e-4, the ``red_stable``
and ``red_unstable`` settings of :func:`ctlcc.experiments.aqm.hollot_checks`
(60 s, statistics over 20-60 s, not 100 s and 30-100 s: ns-3 must run in
minutes); and a small dumbbell (4 NewReno flows, 2 Mb/s, 4 ms, 50-packet
buffer) behind RED (5, 15, 0.1, w_q = 0.002) with ns-3's defaults
``Gentle`` and ``Wait`` on, dropping and (``_ecn``) marking.

ns-3's TCP is set as the agreement matrix sets it for the engine's NewReno
(:data:`ctlcc.sim.ns3_matrix.NS3_MATCH`: no SACK, classic recovery, no
limited transmit).  The tolerances are records of ``data/ledger_aqm.csv``
(``hollot-aqm-red-ns3-*``), measured by :mod:`ctlcc.claims.aqm` from the
committed ``data/ns3_red.csv`` (no ns-3 at test time).
"""

from dataclasses import dataclass

import numpy as np

from .._validation import check_choice
from ..laws.aqm import RedParams
from .ns3 import Ns3Options
from .ns3_matrix import NS3_MATCH
from .scenarios import TcpOptions, dumbbell

__all__ = ["RedCase", "RED_CASES", "RED_MEASURES", "red_case", "red_measures",
           "ctlcc_red_run", "NS3_RED_OPTIONS", "NS3_SACK_OPTIONS", "SAMPLE_INTERVAL"]

#: Measures compared on every setting.
RED_MEASURES = ("queue_mean", "drop_rate", "goodput_total")

#: Queue sampling period on both sides. [s]
SAMPLE_INTERVAL = 0.02

#: ns-3's TCP settings (those the matrix uses against the engine's NewReno).
NS3_RED_OPTIONS = NS3_MATCH["newreno"]
#: ns-3 with SACK and classic recovery (the diagnosis cases ``*_sack``).
NS3_SACK_OPTIONS = Ns3Options(sack=True, recovery="classic", limited_transmit=False)


@dataclass(frozen=True)
class RedCase:
    """One RED setting of the ns-3 comparison.

    Attributes
    ----------
    name, description : str
    red : RedParams
    duration, warmup : float
        Run length and start of the measurement window. [s]
    seeds : tuple of int
    ns3_options : Ns3Options
        ns-3's TCP settings (default :data:`NS3_RED_OPTIONS`).
    """

    name: str
    description: str
    red: RedParams
    duration: float
    warmup: float
    seeds: tuple
    ns3_options: Ns3Options = NS3_RED_OPTIONS

    def scenario(self):
        """The scenario (the same for both simulators)."""
        if self.name.startswith("hollot"):
            from ..experiments.aqm import hollot_network

            return hollot_network(self.red)
        return dumbbell(4, buffer=50, queue=self.red, tcp=TcpOptions(ecn=self.red.ecn))


_DUMBBELL_RED = dict(weight=0.002, gentle=True, wait=True)

#: The settings, in the order of ``data/ns3_red.csv``.
RED_CASES = (
    RedCase("hollot_stable", "Hollot's network, RED (50, 550, 0.1), w_q = 1e-4",
            RedParams(50.0, 550.0, 0.1, weight=1e-4), 60.0, 20.0, (1, 2)),
    RedCase("hollot_unstable", "Hollot's network, RED (50, 150, 0.5), w_q = 1e-4",
            RedParams(50.0, 150.0, 0.5, weight=1e-4), 60.0, 20.0, (1, 2)),
    RedCase("dumbbell_gentle_wait", "4 flows, 2 Mb/s, RED (5, 15, 0.1), w_q = 0.002, "
            "gentle, wait", RedParams(5.0, 15.0, 0.1, **_DUMBBELL_RED), 60.0, 10.0, (1, 2)),
    RedCase("dumbbell_ecn", "as dumbbell_gentle_wait with ECN marking (NewReno reacts)",
            RedParams(5.0, 15.0, 0.1, ecn=True, **_DUMBBELL_RED), 60.0, 10.0, (1, 2)),
    # ns-3 with SACK (classic recovery): added after the two Hollot settings differed, to
    # test the diagnosis that ns-3's recovery without SACK is the cause (docs/aqm.md)
    RedCase("hollot_stable_sack", "as hollot_stable, ns-3 with SACK (classic recovery)",
            RedParams(50.0, 550.0, 0.1, weight=1e-4), 60.0, 20.0, (1, 2), NS3_SACK_OPTIONS),
    RedCase("hollot_unstable_sack", "as hollot_unstable, ns-3 with SACK (classic recovery)",
            RedParams(50.0, 150.0, 0.5, weight=1e-4), 60.0, 20.0, (1, 2), NS3_SACK_OPTIONS),
)


def red_case(name):
    """The :class:`RedCase` called *name*.

    Examples
    --------
    >>> red_case("hollot_stable").red.max_threshold
    550.0
    """
    check_choice("name", name, tuple(c.name for c in RED_CASES))
    return next(c for c in RED_CASES if c.name == name)


def red_measures(time, queue, dropped, offered, delivered_bits, window):
    """The three measures of one run from its raw counts.

    Parameters
    ----------
    time, queue : array_like
        Sample times [s] and packets waiting at the bottleneck [packets].
    dropped, offered : int
        Packets dropped by / offered to the bottleneck queue in the window.
        [packets]
    delivered_bits : float
        Payload bits delivered in order in the window, all flows. [bit]
    window : (float, float)
        Measurement window [warmup, duration]. [s]

    Returns
    -------
    dict
        ``queue_mean`` [packets], ``drop_rate`` [1], ``goodput_total`` [bit/s].

    Examples
    --------
    >>> m = red_measures([0, 1, 2, 3], [9, 2, 4, 6], 5, 100, 8e6, (1.0, 3.0))
    >>> m["queue_mean"], m["drop_rate"], m["goodput_total"]
    (4.0, 0.05, 4000000.0)
    """
    t = np.asarray(time, dtype=float)
    q = np.asarray(queue, dtype=float)
    start, stop = window
    keep = (t >= start - 1e-9) & (t <= stop + 1e-9)
    return {"queue_mean": float(q[keep].mean()),
            "drop_rate": float(dropped) / float(offered) if offered else float("nan"),
            "goodput_total": float(delivered_bits) / (stop - start)}


def ctlcc_red_run(case, seed):
    """The engine's three measures of *case* at *seed*.

    Counts in the window come from two runs with the same seed, to
    ``warmup`` and to ``duration`` (the engine is deterministic per seed,
    so the first is the second's prefix): queue drops and arrivals are
    differences of :class:`ctlcc.sim.QueueStats`.

    Returns
    -------
    dict
        :func:`red_measures` of the run.
    """
    from .engine import run

    scenario = case.scenario()
    full = run(scenario, case.duration, seed=seed, sample_interval=SAMPLE_INTERVAL,
               progress=False)
    head = run(scenario, case.warmup, seed=seed, sample_interval=SAMPLE_INTERVAL,
               progress=False)
    t = full.samples.time
    delivered = full.samples.delivered
    i0 = int(np.argmin(np.abs(t - case.warmup)))
    bits = float((delivered[-1] - delivered[i0]).sum()) * 8 * scenario.payload_bytes
    return red_measures(t, full.samples.queue[:, 0], full.queues[0].drops - head.queues[0].drops,
                        full.queues[0].arrivals - head.queues[0].arrivals, bits,
                        (case.warmup, float(t[-1])))
