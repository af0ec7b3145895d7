# ctlcc.claims.primo_runs - Primo's Abstract, §V-B (RED) and §VII-A (initialisation) on ctlcc's runs
"""Units of Chatté, Ducourthial & Niculescu (2006)'s statements that need runs
of their own (records in ``data/ledger_primo.csv``):

* §V-B: "similar results ... with a RED queue on router R1": the queue
  sweep with RED (:func:`ctlcc.experiments.primo.parameter_sweep`,
  ``aqm="red"``; RED's parameters :func:`ctlcc.experiments.primo.red_for_buffer`)
  against drop-tail, 3 RED seeds;
* §VII-A: the initialisation phase lasts "about one RTT": the first
  acknowledgment of a Primo source, in no-congestion RTTs;
* the Abstract's "maximize network resources usage and minimize packets
  loss": Primo's occupancy and goodput criteria over the §V-A sweep.

References
----------
Chatté, Ducourthial & Niculescu (2006), Abstract, §III-B, §V-A, §V-B, §VII-A.
"""

import numpy as np

from .registry import Measurement, unit

__all__ = ["largest_gap"]

_SECTION = "primo_sim"
_EV = "ctlcc.claims.primo_runs; ctlcc.experiments.primo."
#: §V-B's queues "at least 10 packets" of the paper's grid. [packets]
_QUEUES = (10, 20, 30, 50)
_RED_SEEDS = (1, 2, 3)


def largest_gap(a, b):
    """Largest ``|a - b|`` and its index (arrays of equal shape).

    Examples
    --------
    >>> largest_gap([[90, 80], [70, 60]], [[85, 95], [70, 62]])
    (15.0, (0, 1))
    """
    d = np.abs(np.asarray(a, dtype=float) - np.asarray(b, dtype=float))
    k = np.unravel_index(int(np.argmax(d)), d.shape)
    return float(d[k]), tuple(int(i) for i in k)


@unit("primo-s5b-red-similar-sim", section=_SECTION, evidence=_EV + "parameter_sweep")
def red_similar():
    from ..experiments import primo
    from ..sim.criteria import CRITERIA

    kw = dict(values=_QUEUES, protocols=primo.PAPER_PROTOCOLS, duration=primo.DURATION_FULL)
    drop = primo.parameter_sweep("queue", **kw)
    gaps, where, own = [], [], []
    primo_row = drop.protocols.index("primo")
    for s in _RED_SEEDS:
        red = primo.parameter_sweep("queue", seed=s, aqm="red", **kw)
        g, k = largest_gap(red.criteria, drop.criteria)
        gaps.append(g)
        own.append(largest_gap(red.criteria[primo_row], drop.criteria[primo_row])[0])
        where.append(f"seed {s}: {g:.1f} points ({drop.protocols[k[0]]}, queue "
                     f"{_QUEUES[k[1]]}, {CRITERIA[k[2]]}: RED {red.criteria[k]:.1f}, drop-tail "
                     f"{drop.criteria[k]:.1f})")
    return Measurement(
        value=float(np.mean(gaps)), samples=tuple(gaps), seeds=_RED_SEEDS,
        other_evidence="Primo alone: the largest |RED - drop-tail| over queues and criteria "
                       + ", ".join(f"{g:.1f}" for g in own) + " points (seeds 1-3)",
        reason="largest |RED - drop-tail| over protocols, queues 10-50 and criteria: "
               + "; ".join(where) + "; Primo's drop-tail criteria averaged over the queues: "
               + ", ".join(f"{c} {v:.1f}" for c, v in
                           zip(CRITERIA, drop.criteria[primo_row].mean(axis=0))))


@unit("primo-s7a-initialisation-one-rtt-sim", section=_SECTION, evidence=_EV + "fig1_top")
def initialisation():
    from ..experiments import primo
    from ..experiments.primo import _base_rtt
    from ..sim import run

    sc = primo.fig1_top("primo")
    res = run(sc, 1.0, trace=True, sample_interval=1e-3)
    tr = res.traces
    rtt = np.asarray(tr.rtt)
    acks = rtt[rtt[:, 1] == 0, 0]
    set_at = tr.time[np.nonzero(tr.rate[:, 0] > 0)[0][0]]
    # the acknowledgment that set the rate: the last one of flow 0 up to that sample
    t_init = float(acks[acks <= set_at + 1e-12][-1])
    base = _base_rtt(sc, sc.flows[0].path)
    start = float(sc.flows[0].start)
    n_before = int(np.sum(acks <= t_init))
    return Measurement(
        value=(t_init - start) / base,
        reason=f"the rate is set by the acknowledgment of the burst's 4th packet, "
               f"{1e3 * (t_init - start):.1f} ms after the start (ctlcc's receiver acknowledges "
               f"every packet: it is the {n_before}th; the first arrives after "
               f"{1e3 * (acks[0] - start):.1f} ms); no-congestion RTT {1e3 * base:.1f} ms; both "
               f"sources of Fig. 1-top start at 0, so their bursts interleave at the bottleneck")


@unit("primo-abstract-maximize-usage-minimize-loss-sim", section=_SECTION,
      evidence=_EV + "parameter_sweep")
def usage_and_loss():
    from ..experiments import primo
    from ..sim.criteria import CRITERIA

    sw = primo.parameter_sweep("bandwidth", values=primo.PAPER_GRIDS["bandwidth"],
                               protocols=("primo",), duration=primo.DURATION_FULL)
    c = sw.criteria[0]
    occ, good = c[:, CRITERIA.index("occupancy")], c[:, CRITERIA.index("goodput")]
    return Measurement(
        value=float(min(occ.mean(), good.mean())),
        reason=f"Primo over 1-16 Mb/s: occupancy {np.round(occ, 1).tolist()} % (mean "
               f"{occ.mean():.1f}), goodput {np.round(good, 1).tolist()} % (mean {good.mean():.1f})")
