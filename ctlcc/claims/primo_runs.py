# ctlcc.claims.primo_runs - Primo's Abstract, §II-B, §V-B and §VII-A on ctlcc's runs
"""Units of Chatté, Ducourthial & Niculescu (2006)'s statements that need runs
of their own (records in ``data/ledger_primo.csv``):

* §II-B: "when using the FTT ... difficulties to stabilize": Algorithm 1
  against an FTT-only variant (:func:`ftt_only_update`) as rate laws;
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

from ..laws.user import select
from .registry import Measurement, unit

__all__ = ["largest_gap", "ftt_only_update"]

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
               f"{occ.mean():.1f}), goodput {np.round(good, 1).tolist()} % "
               f"(mean {good.mean():.1f})")


def ftt_only_update(rate, excess, received, previous, memory, W1, W2, F_str, F_mod, F_rel,
                    TH_str, TH_mod, TH_rel):
    """Algorithm 1 driven by the FTT alone (§II-B's variant; ctlcc's reading).

    The regime is still chosen by ``excess`` = ΔFTT_D / FTT_ref, but each
    regime's update uses the source's own sending *rate* where Algorithm 1
    uses the reception rate (``received`` is ignored); arguments as
    :func:`ctlcc.laws.user.primo_rate_update`.

    Examples
    --------
    >>> from ctlcc.laws.primo import PrimoParams
    >>> p = PrimoParams()
    >>> g = (p.W1, p.W2, p.F_str, p.F_mod, p.F_rel, p.TH_str, p.TH_mod, p.TH_rel)
    >>> # strong regime (excess 0.4 >= 0.34): 0.9*100 + 0.1*(100 - 0.5*(100 - 0.95*100))
    >>> round(ftt_only_update(100.0, 0.4, 50.0, 100.0, (), *g)[0], 6)
    99.75
    """
    # Algorithm 1's regime update W2 r + (1 - W2)(r_old - W1 (r_old - F x)) with x = r
    strong = W2 * rate + (1.0 - W2) * (previous - W1 * (previous - F_str * rate))
    moderate = W2 * rate + (1.0 - W2) * (previous - W1 * (previous - F_mod * rate))
    release = W2 * rate + (1.0 - W2) * (previous - W1 * (previous - F_rel * rate))
    new = select(excess >= TH_str, strong,
                 select(excess >= TH_mod, moderate,
                        select(excess < TH_rel, release, rate)))
    return new, ()


@unit("primo-s2b-ftt-alone-unstable-sim", section=_SECTION, evidence=_EV + "fig1_top")
def ftt_alone():
    from ..experiments import primo
    from ..experiments.primo import _five
    from ..laws.user import RateLaw, primo_law
    from ..sim import run
    from ..sim.criteria import CRITERIA

    full = primo_law()
    variant = RateLaw(ftt_only_update, gains=dict(full.gains), name="primo_ftt_only",
                      tau=full.mechanics["tau"])
    crit = {}
    for label, law in (("Algorithm 1", full), ("FTT only", variant)):
        res = run(primo.fig1_top(law), primo.DURATION_FULL, progress=False,
                  sample_interval=primo.INTERVAL)
        crit[label] = dict(zip(CRITERIA, _five(res, primo.WARMUP, primo.INTERVAL)))
    a, v = crit["Algorithm 1"], crit["FTT only"]
    prevent = v["goodput"] - 90.0
    unstable = a["sending_stability"] - v["sending_stability"]
    return Measurement(
        value=float(min(prevent, unstable)),
        reason=f"the variant's goodput criterion {v['goodput']:.1f} % (- 90 = {prevent:.1f}); "
               f"sending stability {a['sending_stability']:.1f} % (Algorithm 1) vs "
               f"{v['sending_stability']:.1f} % (FTT only), difference {unstable:.1f}; all "
               f"criteria: " + "; ".join(f"{k}: " + ", ".join(f"{c} {x:.1f}" for c, x in d.items())
                                          for k, d in crit.items()))
