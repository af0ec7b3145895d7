# ctlcc.claims.primo_sentences - Primo's §V-§VII sentences judged on ctlcc's runs
"""Units of Chatté, Ducourthial & Niculescu (2006)'s sentences that compare
the five protocols qualitatively (§V-A..E, §VI, §VII-A): orderings
("Primo obtains some slightly better results than Vegas"), and words the
ledger reads as a declared threshold ("poor", "good", "generally high",
"fall down to 0"; each reading is stated in the record's
``tolerance_basis``).  Each is judged on the runs of
:func:`ctlcc.experiments.primo.run_all` (quick grids) that
:mod:`ctlcc.claims.primo_sim` already uses.  Records in
``data/ledger_primo.csv``.

The criteria are those of :data:`ctlcc.sim.criteria.CRITERIA` in [%]:
sending and reception stability, goodput, occupancy, fairness.

References
----------
Chatté, Ducourthial & Niculescu (2006), §V-A..E, §VI, §VII-A, Figs. 2-7.
"""

import numpy as np

from .registry import Measurement, unit

__all__ = ["constancy", "criterion", "five_mean"]

_SECTION = "primo_sim"
_SWEEP = "ctlcc.experiments.primo.parameter_sweep; ctlcc.claims.primo_sentences"
_MULTI = "ctlcc.experiments.primo.multi_congestion; ctlcc.claims.primo_sentences"
_IDX = {"sending": 0, "reception": 1, "goodput": 2, "occupancy": 3, "fairness": 4}
_SWEEPS = ("sweep_bandwidth", "sweep_queue", "sweep_delay", "sweep_access_delay")


def criterion(sw, protocol, name, points=None):
    """One criterion of *protocol* averaged over a sweep's points.

    Parameters
    ----------
    sw : ctlcc.experiments.primo.SweepResult
    protocol : str
    name : str
        "sending", "reception", "goodput", "occupancy" or "fairness".
    points : array_like of bool or int, optional
        The sweep points to average (default: all).

    Returns
    -------
    float
        [%]

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> sw = SimpleNamespace(protocols=("a",), criteria=np.array([[[1, 2, 3, 4, 5],
    ...                                                            [3, 4, 5, 6, 7]]]))
    >>> criterion(sw, "a", "fairness")
    6.0
    """
    c = np.asarray(sw.criteria, dtype=float)[sw.protocols.index(protocol)]
    if points is not None:
        c = c[points]
    return float(c[..., _IDX[name]].mean())


def constancy(sw, protocol, points=None):
    """Mean of the sending and reception stability over a sweep's points. [%]

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> sw = SimpleNamespace(protocols=("a",), criteria=np.array([[[80, 90, 0, 0, 0]]]))
    >>> constancy(sw, "a")
    85.0
    """
    return 0.5 * (criterion(sw, protocol, "sending", points)
                  + criterion(sw, protocol, "reception", points))


def five_mean(sw, protocol, points=None):
    """Mean of the five criteria over a sweep's points. [%]

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> sw = SimpleNamespace(protocols=("a",), criteria=np.array([[[10, 20, 30, 40, 50]]]))
    >>> five_mean(sw, "a")
    30.0
    """
    return float(np.mean([criterion(sw, protocol, k, points) for k in _IDX]))


def _has(result, *protocols):
    return all(p in result.protocols for p in protocols)


def _fmt(values):
    return ", ".join(f"{k} {v:.1f} %" for k, v in values.items())


# --- §V-A bandwidth sweep (Fig. 2) -------------------------------------------------------------

@unit("primo-v-a-sec5a_close_fair_occ_goodput", section=_SECTION, needs="sweep_bandwidth",
      evidence=_SWEEP)
def sec5a_close(sw):
    spreads, listing = {}, []
    for name in ("fairness", "occupancy", "goodput"):
        per = {p: criterion(sw, p, name) for p in sw.protocols}
        spreads[name] = max(per.values()) - min(per.values())
        listing.append(f"{name}: {_fmt(per)}")
    worst = max(spreads, key=spreads.get)
    return Measurement(value=spreads[worst],
                       reason=f"sweep means over {(sw.values / 1e6).tolist()} Mb/s; "
                              + "; ".join(listing) + f"; the widest spread is {worst}'s")


@unit("primo-v-a-sec5a_tfrc_constancy_below", section=_SECTION, needs="sweep_bandwidth",
      evidence=_SWEEP)
def sec5a_tfrc_below(sw):
    if not _has(sw, "tfrc", "vegas", "primo"):
        return None
    c = {p: constancy(sw, p) for p in ("tfrc", "vegas", "primo")}
    return Measurement(value=c["tfrc"] - min(c["vegas"], c["primo"]),
                       reason=f"sending and reception stability over the bandwidth sweep "
                              f"({sw.interval:g}-s samples): {_fmt(c)}")


@unit("primo-v-a-sec5a_primo_better_vegas", section=_SECTION, needs="sweep_bandwidth",
      evidence=_SWEEP)
def sec5a_primo_vegas(sw):
    if not _has(sw, "vegas", "primo"):
        return None
    c = {p: constancy(sw, p) for p in ("primo", "vegas")}
    return Measurement(value=c["primo"] - c["vegas"],
                       reason=f"sending and reception stability over the bandwidth sweep "
                              f"({sw.interval:g}-s samples): {_fmt(c)}")


@unit("primo-v-a-sec5a_vegas_low_ratio", section=_SECTION, needs="sweep_bandwidth",
      evidence=_SWEEP)
def sec5a_vegas_low_ratio(sw):
    rates = np.asarray(sw.values, dtype=float)
    ratio = rates / 20e6                       # the two 10-Mb/s access links feed the router
    low = (ratio >= 0.10) & (ratio <= 0.30)
    if "vegas" not in sw.protocols or not low.any() or low.all():
        return None
    inside, outside = constancy(sw, "vegas", low), constancy(sw, "vegas", ~low)
    per = [constancy(sw, "vegas", [k]) for k in range(rates.size)]
    return Measurement(value=inside - outside,
                       reason=f"Vegas's sending and reception stability "
                              + ", ".join(f"{v:.1f} % at {r / 1e6:g} Mb/s (ratio {100 * q:g} %)"
                                          for v, r, q in zip(per, rates, ratio))
                              + f": {inside:.1f} % inside 10-30 %, {outside:.1f} % outside")


# --- §V-B queue sweep (Fig. 3) ------------------------------------------------------------------

@unit("primo-v-b-sec5b_reno_sack_close", "primo-v-b-sec5b_reno_sack_poor_stability",
      section=_SECTION, needs="sweep_queue", evidence=_SWEEP)
def sec5b_reno_sack(sw):
    if not _has(sw, "reno", "sack"):
        return None
    c = np.asarray(sw.criteria, dtype=float)
    diff = np.abs(c[sw.protocols.index("reno")] - c[sw.protocols.index("sack")])
    k, j = np.unravel_index(np.argmax(diff), diff.shape)
    names = list(_IDX)
    stab = {p: criterion(sw, p, "sending") for p in ("reno", "sack")}
    return {"primo-v-b-sec5b_reno_sack_close": Measurement(
                value=float(diff.max()),
                reason=f"largest |Reno - Sack| is {names[j]} at {int(sw.values[k])} packets "
                       f"(Reno {c[sw.protocols.index('reno'), k, j]:.1f} %, Sack "
                       f"{c[sw.protocols.index('sack'), k, j]:.1f} %)"),
            "primo-v-b-sec5b_reno_sack_poor_stability": Measurement(
                value=max(stab.values()),
                reason=f"sending stability over queues {sw.values.astype(int).tolist()} "
                       f"(mean): {_fmt(stab)}")}


@unit("primo-v-b-sec5b_vegas_poor_small_queue", section=_SECTION, needs="sweep_queue",
      evidence=_SWEEP)
def sec5b_vegas_small(sw):
    if "vegas" not in sw.protocols or 5 not in list(sw.values):
        return None
    k = list(sw.values).index(5)
    row = np.asarray(sw.criteria, dtype=float)[sw.protocols.index("vegas"), k]
    return Measurement(value=float(row.mean()),
                       reason="Vegas with a 5-packet queue: " + _fmt(dict(zip(_IDX, row))))


@unit("primo-v-b-sec5b_primo_tfrc_good", section=_SECTION, needs="sweep_queue", evidence=_SWEEP)
def sec5b_primo_tfrc(sw):
    if not _has(sw, "primo", "tfrc"):
        return None
    m = {p: five_mean(sw, p) for p in ("primo", "tfrc")}
    return Measurement(value=min(m.values()),
                       reason=f"mean of the five criteria over queues "
                              f"{sw.values.astype(int).tolist()}: {_fmt(m)}")


# --- §V-D heterogeneous RTT (Fig. 5) -----------------------------------------------------------

@unit("primo-v-d-sec5d_constancy_order", section=_SECTION, needs="sweep_access_delay",
      evidence=_SWEEP)
def sec5d_order(sw):
    if not _has(sw, "vegas", "primo", "tfrc"):
        return None
    c = {p: constancy(sw, p) for p in ("vegas", "primo", "tfrc")}
    return Measurement(value=min(c["vegas"] - c["primo"], c["primo"] - c["tfrc"]),
                       reason=f"sending and reception stability over the access-delay sweep "
                              f"(second RTT {np.round(1e3 * sw.round_trip_times[:, 1]).tolist()} "
                              f"ms): {_fmt(c)}")


@unit("primo-v-d-sec5d_vegas_best_goodput", section=_SECTION, needs="sweep_access_delay",
      evidence=_SWEEP)
def sec5d_goodput(sw):
    if "vegas" not in sw.protocols or len(sw.protocols) < 2:
        return None
    g = {p: criterion(sw, p, "goodput") for p in sw.protocols}
    return Measurement(value=g["vegas"] - max(v for p, v in g.items() if p != "vegas"),
                       reason=f"goodput over the access-delay sweep: {_fmt(g)}")


# --- §V-E many sources and the four sweeps ----------------------------------------------------

_FOUR = ("reno", "sack", "vegas", "primo")


def _sweep_means(sweeps, protocol, names):
    """{sweep: mean of *names* over the sweep} for *protocol*."""
    return {k: float(np.mean([criterion(sw, protocol, n) for n in names]))
            for k, sw in sweeps.items()}


@unit("primo-v-e-sec5e_occ_goodput_high", "primo-v-e-sec5e_vegas_primo_better_occ_goodput",
      section=_SECTION, needs=_SWEEPS, evidence=_SWEEP)
def sec5e_occupancy_goodput(*sweeps):
    sweeps = dict(zip((s.replace("sweep_", "") for s in _SWEEPS), sweeps))
    if not all(_has(sw, *_FOUR) for sw in sweeps.values()):
        return None
    low = {(p, k, n): criterion(sw, p, n) for p in _FOUR for k, sw in sweeps.items()
           for n in ("occupancy", "goodput")}
    worst = min(low, key=low.get)
    both = {p: float(np.mean(list(_sweep_means(sweeps, p, ("occupancy", "goodput")).values())))
            for p in _FOUR}
    return {"primo-v-e-sec5e_occ_goodput_high": Measurement(
                value=low[worst],
                reason=f"the lowest sweep mean is {worst[0]}'s {worst[2]} over the {worst[1]} "
                       f"sweep; means of occupancy and goodput over the four sweeps: {_fmt(both)}"),
            "primo-v-e-sec5e_vegas_primo_better_occ_goodput": Measurement(
                value=min(both["vegas"], both["primo"]) - max(both["reno"], both["sack"]),
                reason=f"mean of occupancy and goodput over the four sweeps: {_fmt(both)}")}


@unit("primo-v-e-sec5e_corrective_affected", section=_SECTION, needs="many_sources",
      evidence="ctlcc.experiments.primo.many_sources; ctlcc.claims.primo_sentences")
def sec5e_corrective(ms):
    counts = list(np.asarray(ms.counts).tolist())
    if 2 not in counts or 20 not in counts or not _has(ms, "reno", "sack", "tfrc"):
        return None
    a, b = counts.index(2), counts.index(20)
    drop = {}
    for p in ("reno", "sack", "tfrc"):
        c = np.asarray(ms.criteria, dtype=float)[ms.protocols.index(p)]   # (s, c, 5)
        stab = c[:, :, :2].mean(axis=(0, 2))
        drop[p] = float(stab[b] - stab[a])
    return Measurement(value=max(drop.values()),
                       reason="sending and reception stability at 20 sources minus at 2 (mean "
                              f"of both and of the schedules {'/'.join(ms.schedules)}): "
                              + ", ".join(f"{p} {v:+.1f} points" for p, v in drop.items())
                              + "; the value is the smallest drop")


# --- §VI multi-congestion (Figs. 6-7) and §VII-A ---------------------------------------------

def _stab(mc, protocol):
    return float(np.asarray(mc.criteria, dtype=float)[mc.protocols.index(protocol), 0])


@unit("primo-vi-sec6_sack_unstable-together", "primo-vi-sec6_tfrc_smoother_than_reno",
      "primo-vi-sec6_tfrc_not_stable", "primo-vii-a_vegas_more_constant_multi",
      section=_SECTION, needs="multi_together", evidence=_MULTI)
def sec6_stability(mc):
    have = [p for p in ("reno", "sack", "vegas", "tfrc", "primo") if p in mc.protocols]
    s = {p: _stab(mc, p) for p in have}
    why = f"mean sending stability of flows a-e, all started at 0 s: {_fmt(s)}"
    out = {}
    if "sack" in s:
        out["primo-vi-sec6_sack_unstable-together"] = Measurement(value=s["sack"], reason=why)
    if "tfrc" in s:
        out["primo-vi-sec6_tfrc_not_stable"] = Measurement(value=s["tfrc"], reason=why)
        if "reno" in s:
            out["primo-vi-sec6_tfrc_smoother_than_reno"] = Measurement(
                value=s["tfrc"] - s["reno"], reason=why)
    if "vegas" in s and "primo" in s:
        out["primo-vii-a_vegas_more_constant_multi"] = Measurement(
            value=s["vegas"] - s["primo"], reason=why)
    return out


def lowest_rate(mc, protocol, after=2.0):
    """Lowest binned sending rate of any flow after its first *after* seconds.

    Parameters
    ----------
    mc : ctlcc.experiments.primo.MultiCongestionResult
    protocol : str
    after : float
        Bins ending before a flow's start plus *after* are skipped. [s]

    Returns
    -------
    tuple
        (rate over one router link's capacity [1], flow index, bin end [s]).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> mc = SimpleNamespace(protocols=("r",), starts=np.array([0.0, 1.0]), capacity=100.0,
    ...                      bin_time=np.array([1.0, 2.0, 3.0, 4.0]),
    ...                      send_rate=np.array([[[0, 0], [50, 0], [40, 60], [30, 20]]]))
    >>> lowest_rate(mc, "r")
    (0.2, 1, 4.0)
    """
    rate = np.asarray(mc.send_rate, dtype=float)[mc.protocols.index(protocol)]   # (k, 5)
    t = np.asarray(mc.bin_time, dtype=float)
    ok = t[:, None] > np.asarray(mc.starts, dtype=float)[None, :] + after
    masked = np.where(ok, rate, np.inf)
    k, f = np.unravel_index(np.argmin(masked), masked.shape)
    return float(masked[k, f] / mc.capacity), int(f), float(t[k])


@unit("primo-vi-sec6_reno_falls_to_zero", section=_SECTION, needs="multi_together",
      optional={"staggered": "multi_staggered"}, evidence=_MULTI)
def sec6_reno_zero(mc, staggered=None):
    if "reno" not in mc.protocols:
        return None
    v, f, t = lowest_rate(mc, "reno")
    other = ""
    if staggered is not None and "reno" in staggered.protocols:
        sv, sf, st = lowest_rate(staggered, "reno")
        other = (f"started a, b at 0 s, c, d at 5 s, e at 10 s: lowest {sv:.3f} of the link "
                 f"(flow {staggered.flow_names[sf]}, bin ending {st:g} s)")
    return Measurement(value=v,
                       reason=f"lowest 0.5-s sending rate of the Reno flows after their first 2 s: "
                              f"{v:.3f} of one router link's capacity (flow {mc.flow_names[f]}, "
                              f"bin ending {t:g} s)", other_evidence=other)


@unit("primo-vi-sec6_vegas_better_some_case", section=_SECTION, needs="multi_together",
      optional={"staggered": "multi_staggered"}, evidence=_MULTI)
def sec6_vegas_some_case(mc, staggered=None):
    cases = {}
    for name, r in (("together", mc), ("staggered", staggered)):
        if r is not None and _has(r, "vegas", "primo"):
            cases[name] = _stab(r, "vegas") - _stab(r, "primo")
    if not cases:
        return None
    return Measurement(value=max(cases.values()),
                       reason="Vegas minus Primo in mean sending stability of flows a-e: "
                              + ", ".join(f"{k} {v:+.1f} points" for k, v in cases.items()))


@unit("primo-vii-a_stability_improves_vegas", "primo-vii-a_better_than_reno_sack_tfrc",
      section=_SECTION, needs=_SWEEPS, evidence=_SWEEP)
def sec7a(*sweeps):
    sweeps = dict(zip((s.replace("sweep_", "") for s in _SWEEPS), sweeps))
    five = ("reno", "sack", "vegas", "tfrc", "primo")
    if not all(_has(sw, *five) for sw in sweeps.values()):
        return None
    stab = {p: float(np.mean([constancy(sw, p) for sw in sweeps.values()])) for p in five}
    allc = {p: float(np.mean([five_mean(sw, p) for sw in sweeps.values()])) for p in five}
    return {"primo-vii-a_stability_improves_vegas": Measurement(
                value=stab["primo"] - stab["vegas"],
                reason=f"sending and reception stability, mean over the four sweeps' means: "
                       f"{_fmt(stab)}"),
            "primo-vii-a_better_than_reno_sack_tfrc": Measurement(
                value=allc["primo"] - max(allc["reno"], allc["sack"], allc["tfrc"]),
                reason=f"mean of the five criteria over the four sweeps' means: {_fmt(allc)}")}


# --- §II-C window protocols and random loss (a short new run) ----------------------------------

_WINDOW, _RATE = ("reno", "sack", "vegas"), ("tfrc", "primo")
_LOSS_SEEDS = (0, 1, 2)


def vulnerability_gap(lossy, lossless, window=_WINDOW, rate=_RATE):
    """Smallest relative goodput loss of *window* minus the largest of *rate*, per seed.

    Parameters
    ----------
    lossy : dict
        protocol -> packets delivered with random loss, one per seed. [packets]
    lossless : dict
        protocol -> packets delivered without loss. [packets]
    window, rate : sequence of str

    Returns
    -------
    ndarray, shape (seeds,)
        [1]

    Examples
    --------
    >>> lossy = {"w": [50, 60], "r": [90, 95]}
    >>> vulnerability_gap(lossy, {"w": 100, "r": 100}, ["w"], ["r"]).round(3).tolist()
    [0.4, 0.35]
    """
    rel = {p: 1.0 - np.asarray(lossy[p], dtype=float) / float(lossless[p])
           for p in tuple(window) + tuple(rate)}
    return (np.min([rel[p] for p in window], axis=0)
            - np.max([rel[p] for p in rate], axis=0))


def _delivered(protocol, loss, seed, duration=20.0):
    from ..sim import run, scenarios

    sc = scenarios.primo_fig1_top(protocol=protocol, loss=loss)
    result = run(sc, duration, seed=seed, progress=False)
    return int(sum(f.delivered_unique for f in result.flows))


@unit("primo-ii-c_window_more_vulnerable", section=_SECTION,
      evidence="ctlcc.claims.primo_sentences; ctlcc.sim.scenarios.primo_fig1_top(loss=0.01)")
def sec2c_loss():
    protocols = _WINDOW + _RATE
    lossless = {p: _delivered(p, None, 0) for p in protocols}
    lossy = {p: [_delivered(p, 0.01, s) for s in _LOSS_SEEDS] for p in protocols}
    gap = vulnerability_gap(lossy, lossless)
    rel = {p: float(np.mean(1.0 - np.asarray(lossy[p]) / lossless[p])) for p in protocols}
    return Measurement(
        value=float(gap.mean()), samples=tuple(float(g) for g in gap), seeds=_LOSS_SEEDS,
        reason="relative goodput loss with 1 % random loss (mean over seeds): "
               + ", ".join(f"{p} {100 * v:.1f} %" for p, v in rel.items())
               + "; packets delivered without loss in 20 s: "
               + ", ".join(f"{p} {v}" for p, v in lossless.items()))
