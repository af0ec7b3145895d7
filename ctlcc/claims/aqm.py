# ctlcc.claims.aqm - AQM on packets vs the fluid model and the linear analysis, as units
"""Units of the AQM consistency checks (records in ``data/ledger_aqm.csv``).

ctlcc's packet engine behind RED and PI on Hollot et al.'s example network
(:func:`ctlcc.experiments.aqm.hollot_checks`) against ctlcc's fluid model
with the same law functions and ctlcc's linear analysis
(:mod:`ctlcc.analysis.aqm`).  All records are of kind ``consistency``:
ctlcc checked against itself, not a paper's number.

References
----------
Hollot et al. (2001), §IV; Hollot et al. (2002), §V.
"""

import numpy as np

from .registry import Measurement, provider, unit

__all__ = ["aqm_results", "red_ns3_results", "red_ns3_checks"]

_SECTION = "aqm"
_EV = "ctlcc.experiments.aqm.hollot_checks"


@provider(_SECTION)
def aqm_results():
    """:func:`ctlcc.experiments.aqm.hollot_checks` (3 seeds x 100 s per setting)."""
    from ..experiments import aqm

    return {"checks": aqm.default_checks(), "red_ns3": red_ns3_results()}


def red_ns3_results(table=None):
    """ctlcc's and ns-3's RED measures per setting (:mod:`ctlcc.sim.ns3_red`).

    ns-3's side is read from the committed ``data/ns3_red.csv`` (no ns-3
    needed); the engine runs the same settings and seeds.

    Parameters
    ----------
    table : Ns3Table, optional
        ns-3's runs (default: the committed file).

    Returns
    -------
    dict
        setting name -> ``{"seeds", "ctlcc": {measure: per-seed list},
        "ns3": {measure: per-seed list}, "ns3_counts": {column: per-seed list}}``.
    """
    from ..sim.ns3 import read_ns3_csv
    from ..sim.ns3_red import RED_CASES, RED_MEASURES, ctlcc_red_run

    table = read_ns3_csv("ns3_red") if table is None else table
    out = {}
    engine = {}  # the *_sack settings share the engine's runs with their no-SACK twins
    for case in RED_CASES:
        rows = table.where(case=case.name)
        seeds = [int(s) for s in rows["seed"]]
        for seed in seeds:
            key = (case.red, case.duration, case.warmup, case.name.startswith("hollot"), seed)
            if key not in engine:
                engine[key] = ctlcc_red_run(case, seed)
        mine = [engine[case.red, case.duration, case.warmup, case.name.startswith("hollot"),
                       seed] for seed in seeds]
        out[case.name] = {
            "seeds": tuple(seeds),
            "ctlcc": {k: [m[k] for m in mine] for k in RED_MEASURES},
            "ns3": {k: [float(v) for v in rows[k]] for k in RED_MEASURES},
            "ns3_counts": {k: [float(v) for v in rows[k]] for k in
                           ("early_drops", "forced_drops", "overflow_drops", "marks",
                            "timeouts", "retransmitted")},
        }
    return out


_RED_NS3_CASES = {"hollot-stable": "hollot_stable", "hollot-unstable": "hollot_unstable",
                  "dumbbell-gentle-wait": "dumbbell_gentle_wait", "dumbbell-ecn": "dumbbell_ecn",
                  "hollot-stable-sack": "hollot_stable_sack",
                  "hollot-unstable-sack": "hollot_unstable_sack"}
_RED_NS3_MEASURES = {"queue": "queue_mean", "drop-rate": "drop_rate", "goodput": "goodput_total"}
_RED_NS3_IDS = tuple(f"hollot-aqm-red-ns3-{c}-{m}" for c in _RED_NS3_CASES
                     for m in _RED_NS3_MEASURES)


@unit(*_RED_NS3_IDS, section=_SECTION, needs="red_ns3",
      evidence="ctlcc.sim.ns3_red; benchmarks/ns3_red.py; data/ns3_red.csv")
def red_ns3_checks(red_ns3):
    """ctlcc's packet RED against ns-3's RedQueueDisc: one Measurement per record.

    The value is ctlcc's mean over the seeds, the target ns-3's mean over
    the same seeds (read from the committed runs).

    Examples
    --------
    >>> one = {"seeds": (1, 2), "ns3_counts": {"early_drops": [10, 12]},
    ...        "ctlcc": {"queue_mean": [9.0, 11.0], "drop_rate": [0.01, 0.03],
    ...                  "goodput_total": [1e6, 1e6]},
    ...        "ns3": {"queue_mean": [12.0, 12.0], "drop_rate": [0.02, 0.02],
    ...                "goodput_total": [2e6, 2e6]}}
    >>> out = red_ns3_checks({name: one for name in _RED_NS3_CASES.values()})
    >>> m = out["hollot-aqm-red-ns3-hollot-stable-queue"]
    >>> m.value, m.target, m.samples
    (10.0, 12.0, (9.0, 11.0))
    """
    out = {}
    for key, name in _RED_NS3_CASES.items():
        case = red_ns3[name]
        counts = "; ".join(f"{k} {_list(v)}" for k, v in case["ns3_counts"].items())
        for mkey, measure in _RED_NS3_MEASURES.items():
            mine, theirs = case["ctlcc"][measure], case["ns3"][measure]
            m = _mean(mine)
            cause = ""
            if name in ("hollot_stable", "hollot_unstable") and "retransmitted" in \
                    case["ns3_counts"]:
                retx = np.sum(case["ns3_counts"]["retransmitted"])
                drops = np.sum([np.sum(case["ns3_counts"].get(k, 0.0)) for k in
                                ("early_drops", "forced_drops", "overflow_drops")])
                cause = (f". Cause: not RED (ns-3's RedQueueDisc::DoEnqueue, Estimator and "
                         f"ModifyP are the rule ctlcc runs, read line by line) but ns-3's "
                         f"TCP without SACK, which retransmits {retx / drops:.1f} segments "
                         f"per drop here; with SACK in ns-3 and nothing else changed the "
                         f"same setting agrees on every measure (record "
                         f"hollot-aqm-red-ns3-{key}-sack-{mkey})")
            out[f"hollot-aqm-red-ns3-{key}-{mkey}"] = Measurement(
                value=m.value, samples=m.samples, seeds=tuple(case["seeds"]),
                target=float(np.mean(theirs)),
                reason=f"ctlcc per seed {_list(mine)}, ns-3 per seed {_list(theirs)} "
                       f"(setting {name}); ns-3's counts per seed: {counts}{cause}")
    return out


def _mean(values):
    values = tuple(float(v) for v in values)
    return Measurement(value=float(np.mean(values)), samples=values)


def _with(m, c, **fields):
    return Measurement(value=m.value, samples=m.samples, seeds=c.seeds, **fields)


@unit("hollot_pi-aqm-packets-queue-at-reference", "hollot_pi-aqm-packets-vs-fluid-queue",
      "hollot_pi-aqm-hot-period", "hollot_pi-aqm-hot-vs-design-amplitude", section=_SECTION, needs="checks",
      evidence=_EV)
def pi_checks(checks):
    pi, hot = checks["pi"], checks["pi_hot"]
    queue = _mean(pi.mean_queue)
    period = _mean(hot.periods)
    ratio = float(np.mean(hot.spreads) / np.mean(pi.spreads))
    return {
        "hollot_pi-aqm-packets-queue-at-reference": _with(
            queue, pi, reason=f"packet mean queue per seed {_list(pi.mean_queue)} packets "
                              f"(q_ref {pi.params.reference:g}); utilisation "
                              f"{np.mean(pi.utilisation):.3f}"),
        "hollot_pi-aqm-packets-vs-fluid-queue": _with(
            queue, pi, target=pi.fluid_mean,
            reason=f"fluid model's mean queue {pi.fluid_mean:.1f} packets over the same window"),
        "hollot_pi-aqm-hot-period": _with(
            period, hot, target=hot.loop.oscillation_period,
            reason=f"linear analysis: {hot.loop.prediction}, gain margin "
                   f"{hot.loop.gain_margin:.2f}, w_180 = {hot.loop.phase_crossover:.2f} rad/s; "
                   f"packet periodogram peaks per seed {_list(hot.periods)} s (mean queue "
                   f"{np.mean(hot.mean_queue):.0f} packets, far below q_ref); the fluid "
                   f"model's period {_period(hot):.2f} s. Cause: on packets the hot PI's queue "
                   f"has no period to measure - its autocorrelation peaks at only "
                   f"{_list(_acf_heights(hot))} (lags {_list(_acf_lags(hot))} s) where the "
                   f"fluid model's limit cycle gives {_acf(hot.fluid_time, hot.fluid_queue)[1]:.2f}"
                   f", so the periodogram's highest bin wanders from seed to seed; its power "
                   f"sits at 1-2 Hz ({_band_ratio(hot, pi, 1.0, 2.0):.1f} x the designed PI's), "
                   f"a broad band around the fluid cycle's {1 / _period(hot):.2f} Hz, not a "
                   f"line. A plausible mechanism for the low mean, not measured here: the "
                   f"sampled queue's packet-scale noise through the 30-fold proportional gain "
                   f"drives p against its clip at 0, which biases p upward, and the integral "
                   f"action then holds the queue below q_ref"),
        "hollot_pi-aqm-hot-vs-design-amplitude": Measurement(
            value=ratio, seeds=hot.seeds,
            reason=f"spread of 1-s means: hot {_list(hot.spreads)}, designed "
                   f"{_list(pi.spreads)} packets; the fluid model's spreads "
                   f"{_spread(hot):.1f} and {_spread(pi):.1f}. The measure, declared before "
                   f"looking, averages over 1-s bins and so hides an oscillation of 1-2 s "
                   f"(the fluid model's hot limit cycle has {_period(hot):.2f} s). Cause: "
                   f"the designed PI's packet queue is not steady either (standard deviation "
                   f"of the 20-ms samples {_list(pi.raw_spreads)} packets, a slow wander of "
                   f"about {_welch_period(pi):.1f} s that its integral action, crossover "
                   f"{pi.loop.crossover:.2f} rad/s, is too slow to remove; the fluid model has "
                   f"none), and the hot gain rejects that wander: below 0.4 Hz the hot queue "
                   f"has {_band_ratio(hot, pi, 0.05, 0.4):.2f} x the designed queue's power, at "
                   f"1-2 Hz {_band_ratio(hot, pi, 1.0, 2.0):.1f} x. The ratio measures "
                   f"disturbance rejection at low frequency, not the stability margin"),
    }


@unit("hollot-aqm-red-stable-packets-queue", "hollot-aqm-red-stable-packets-vs-fluid-queue",
      "hollot-aqm-red-stable-packets-queue-count-spacing", "hollot-aqm-red-unstable-period",
      "hollot-aqm-red-unstable-vs-stable-amplitude",
      "hollot-aqm-red-halved-packets-queue-count-spacing",
      "hollot-aqm-red-unstable-vs-halved-raw-spread", section=_SECTION, needs="checks",
      evidence=_EV)
def red_checks(checks):
    from dataclasses import replace

    from ..analysis.aqm import red_operating_point
    from ..experiments.aqm import CAPACITY, N_FLOWS, PROPAGATION

    stable, unstable, halved = checks["red_stable"], checks["red_unstable"], checks["red_halved"]
    halved_queue = _mean(halved.mean_queue)
    halved_doubled = replace(halved.params, max_probability=2 * halved.params.max_probability)
    q_halved = red_operating_point(N_FLOWS, CAPACITY, PROPAGATION, halved_doubled)
    q_halved_own = red_operating_point(N_FLOWS, CAPACITY, PROPAGATION, halved.params)
    raw_ratio = float(np.mean(unstable.raw_spreads) / np.mean(halved.raw_spreads))
    queue = _mean(stable.mean_queue)
    doubled = replace(stable.params, max_probability=2 * stable.params.max_probability)
    q_doubled = red_operating_point(N_FLOWS, CAPACITY, PROPAGATION, doubled)
    period = _mean(unstable.periods)
    ratio = float(np.mean(unstable.spreads) / np.mean(stable.spreads))
    drops = f"drops per arrival {np.mean(stable.drop_rate):.4f}"
    return {
        "hollot-aqm-red-stable-packets-queue": _with(
            queue, stable, target=stable.operating_queue,
            reason=f"packet mean queue per seed {_list(stable.mean_queue)}; RED's curve meets "
                   f"p0(q) at {stable.operating_queue:.1f} packets with p_b as the drop "
                   f"probability; {drops}. Cause: the packet RED spaces its drops by F&J's "
                   f"count rule, about 2 p_b per packet (ctlcc.laws.aqm.red_spacing_rate); read "
                   f"so, the operating point is {_red_point(stable.params, 'count'):.1f} packets "
                   f"and the fluid model {stable.fluid_count_mean:.1f}"),
        "hollot-aqm-red-stable-packets-vs-fluid-queue": _with(
            queue, stable, target=stable.fluid_mean,
            reason=f"fluid model's mean queue {stable.fluid_mean:.1f} packets (the fluid RED "
                   f"drops with p_b itself). Cause: the packet RED's count spacing drops about "
                   f"2 p_b per packet; the fluid model with Red(spacing='count') holds "
                   f"{stable.fluid_count_mean:.1f} packets (record "
                   f"hollot-aqm-red-stable-packets-vs-fluid-count-queue)"),
        "hollot-aqm-red-stable-packets-queue-count-spacing": _with(
            queue, stable, target=q_doubled,
            reason=f"operating point with max_p = {doubled.max_probability:g}: "
                   f"{q_doubled:.1f} packets; {drops}"),
        "hollot-aqm-red-unstable-period": _with(
            period, unstable, target=unstable.loop.oscillation_period,
            reason=f"linear analysis: {unstable.loop.prediction}, gain margin "
                   f"{unstable.loop.gain_margin:.2f}; packet periodogram peaks per seed "
                   f"{_list(unstable.periods)} s (autocorrelation peaks "
                   f"{_list(_acf_heights(unstable))} at {_list(_acf_lags(unstable))} s: a "
                   f"regular cycle, so the measure is sound); the fluid model's period "
                   f"{_period(unstable):.2f} s, with count spacing "
                   f"{_period_of(unstable.fluid_count_time, unstable.fluid_count_queue):.2f} s. "
                   f"The packet cycle is not the fluid one: the queue is empty "
                   f"{_list(_empty(unstable))} of the time, the flows time out "
                   f"{_list(unstable.timeouts)} times per 100-s run (RED (50, 550, 0.1): "
                   f"{_list(stable.timeouts)}). Timeouts are not what sets the period: in a "
                   f"diagnostic run (seed 1) min_rto = 0.5 s and 2 s gave 575 and 165 timeouts "
                   f"and periods 2.75 and 2.57 s. Nor do two fluid-model variants run as "
                   f"diagnostics: dropped packets leaving the queue's input (dq/dt = "
                   f"(1 - p) N W/R - C) gives 4.2 s, RED's average advancing per arrival "
                   f"(pole K max(y/C, 1)) 4.7 s. The cause of the shorter packet cycle is not "
                   f"established"),
        "hollot-aqm-red-unstable-vs-stable-amplitude": Measurement(
            value=ratio, seeds=unstable.seeds,
            reason=f"spread of 1-s means: unstable {_list(unstable.spreads)}, stable "
                   f"{_list(stable.spreads)} packets; the fluid model's spreads "
                   f"{_spread(unstable):.1f} and {_spread(stable):.1f}. On packets the "
                   f"'stable' RED oscillates too (period {np.mean(stable.periods):.1f} s): "
                   f"F&J's count spacing drops about 2 p_b per packet, and with max_p read as "
                   f"{doubled.max_probability:g} the linear analysis calls it "
                   f"{_red_loop(doubled).prediction} (gain margin "
                   f"{_red_loop(doubled).gain_margin:.2f})"),
        "hollot-aqm-red-halved-packets-queue-count-spacing": _with(
            halved_queue, halved, target=q_halved,
            reason=f"packet mean queue per seed {_list(halved.mean_queue)}; operating point "
                   f"with max_p = {halved_doubled.max_probability:g}: {q_halved:.1f} packets, "
                   f"with its own max_p = {halved.params.max_probability:g}: "
                   f"{q_halved_own:.1f}; the fluid model (p_b itself) "
                   f"{halved.fluid_mean:.1f}; drops per arrival "
                   f"{np.mean(halved.drop_rate):.4f}"),
        "hollot-aqm-red-unstable-vs-halved-raw-spread": Measurement(
            value=raw_ratio, seeds=unstable.seeds,
            reason=f"standard deviation of the 20-ms samples: unstable "
                   f"{_list(unstable.raw_spreads)}, RED (50, 550, 0.05) "
                   f"{_list(halved.raw_spreads)} packets (RED (50, 550, 0.1): "
                   f"{_list(stable.raw_spreads)}); the effective loop of RED (50, 550, 0.05) is "
                   f"{_red_loop(halved_doubled).prediction} (gain margin "
                   f"{_red_loop(halved_doubled).gain_margin:.2f}), and the fluid model with "
                   f"count spacing settles (standard deviation "
                   f"{_late_std(halved):.1f} packets), but on packets RED (50, 550, 0.05) "
                   f"still cycles (spectral peak {_welch_period(halved):.1f} s). Cause: a "
                   f"stable loop with this margin is lightly damped - its sensitivity "
                   f"|1/(1 + L(j w))| (count spacing) peaks at {_s_peak(halved.params)[0]:.1f} "
                   f"at a {_s_peak(halved.params)[1]:.1f}-s period, so the packets' own "
                   f"fluctuations (60 flows, random drop instants; the deterministic fluid "
                   f"model has none) are amplified there into a sustained noisy cycle. "
                   f"'Settles' is a verdict on the deterministic loop; the declared 2x ratio "
                   f"needs a margin wide enough to damp that noise"),
    }


@unit("hollot-aqm-red-stable-packets-vs-fluid-count-queue",
      "hollot-aqm-red-halved-packets-vs-fluid-count-queue",
      "hollot-aqm-red-unstable-period-vs-fluid-count", section=_SECTION, needs="checks",
      evidence=_EV)
def red_count_checks(checks):
    """The packet RED against the fluid model read with F&J's count spacing.

    The fluid RED marks at :func:`ctlcc.laws.aqm.red_spacing_rate` of its
    p_b (``Red(spacing="count")``), the rate the packet RED's count-based
    spacing gives at a constant p_b.
    """
    from ..experiments.aqm import autocorrelation_peak, dominant_period

    stable, unstable, halved = checks["red_stable"], checks["red_unstable"], checks["red_halved"]
    out = {}
    for key, c in (("stable", stable), ("halved", halved)):
        queue = _mean(c.mean_queue)
        out[f"hollot-aqm-red-{key}-packets-vs-fluid-count-queue"] = _with(
            queue, c, target=c.fluid_count_mean,
            reason=f"packet mean queue per seed {_list(c.mean_queue)}; the fluid model with "
                   f"count spacing {c.fluid_count_mean:.1f} packets, with p_b itself "
                   f"{c.fluid_mean:.1f}; the count-spacing operating point "
                   f"{_red_point(c.params, 'count'):.1f}; timeouts per seed (all flows, "
                   f"whole run) {_list(c.timeouts)}")
    keep = unstable.fluid_count_time >= 30.0
    ft, fq = unstable.fluid_count_time[keep], unstable.fluid_count_queue[keep]
    fluid_period = dominant_period(ft, fq, high=40.0)
    lag, height = autocorrelation_peak(ft, fq, high=40.0)
    out["hollot-aqm-red-unstable-period-vs-fluid-count"] = _with(
        _mean(unstable.periods), unstable, target=fluid_period,
        reason=f"packet periodogram peaks per seed {_list(unstable.periods)} s; the fluid "
               f"model with count spacing {fluid_period:.2f} s (autocorrelation peak "
               f"{height:.2f} at {lag:.2f} s; queue {fq.min():.0f}-{fq.max():.0f} packets), "
               f"with p_b itself {_period(unstable):.2f} s, the linear analysis "
               f"{unstable.loop.oscillation_period:.2f} s (count spacing: "
               f"{_red_loop(unstable.params, 'count').oscillation_period:.2f} s): count "
               f"spacing does not move the cycle (the fluid queue already swings between "
               f"empty and {fq.max():.0f} packets, past max_th). See "
               f"hollot-aqm-red-unstable-period for what was ruled out (timeouts, drops "
               f"leaving the input, per-arrival averaging)")
    return out


def _s_peak(params):
    """Peak of the sensitivity |1/(1 + L(j w))| of the RED loop read with count spacing,
    and the period where it peaks. [1], [s]"""
    loop = _red_loop(params, "count")
    w = np.linspace(0.05, 10.0, 20000)
    s = np.abs(1.0 / (1.0 + loop.response(w)))
    i = int(np.argmax(s))
    return float(s[i]), float(2.0 * np.pi / w[i])


def _late_std(c):
    keep = c.fluid_count_time >= 30.0
    return float(np.std(c.fluid_count_queue[keep]))


def _period_of(time, queue):
    from ..experiments.aqm import WINDOW, dominant_period

    keep = np.asarray(time) >= WINDOW
    return dominant_period(np.asarray(time)[keep], np.asarray(queue)[keep], high=40.0)


def _empty(c):
    keep = c.time >= 30.0
    return [float(np.mean(q[keep] == 0)) for q in c.queues]


def _acf(time, queue):
    from ..experiments.aqm import WINDOW, autocorrelation_peak

    keep = np.asarray(time) >= WINDOW
    return autocorrelation_peak(np.asarray(time)[keep], np.asarray(queue)[keep], high=20.0)


def _acf_heights(c):
    return [_acf(c.time, q)[1] for q in c.queues]


def _acf_lags(c):
    return [_acf(c.time, q)[0] for q in c.queues]


def _spectrum(c):
    """Periodogram of the packet queue over the window, averaged over the seeds and over
    blocks of 1024 samples (Welch, Hann window). [Hz], [packets^2/Hz]"""
    from ..experiments.aqm import WINDOW

    keep = c.time >= WINDOW
    dt = float(c.time[1] - c.time[0])
    size = 1024
    window = np.hanning(size)
    powers = []
    for q in c.queues:
        x = q[keep] - q[keep].mean()
        for start in range(0, x.size - size + 1, size // 2):
            powers.append(np.abs(np.fft.rfft(x[start:start + size] * window)) ** 2)
    return np.fft.rfftfreq(size, dt), np.mean(powers, axis=0)


def _band_ratio(c, d, low, high):
    f, p = _spectrum(c)
    _, q = _spectrum(d)
    band = (f >= low) & (f < high)
    return float(p[band].mean() / q[band].mean())


def _welch_period(c):
    f, p = _spectrum(c)
    band = (f > 0.05) & (f < 2.0)
    return float(1.0 / f[band][np.argmax(p[band])])


def _red_point(params, spacing="none"):
    from ..analysis.aqm import red_operating_point
    from ..experiments.aqm import CAPACITY, N_FLOWS, PROPAGATION

    return red_operating_point(N_FLOWS, CAPACITY, PROPAGATION, params, spacing=spacing)


def _red_loop(params, spacing="none"):
    from ..analysis.aqm import red_loop
    from ..experiments.aqm import CAPACITY, N_FLOWS, PROPAGATION

    return red_loop(N_FLOWS, CAPACITY, PROPAGATION, params, spacing=spacing)


def _list(values):
    return ", ".join(f"{v:.3g}" for v in values)


def _late(c):
    from ..experiments.aqm import WINDOW

    keep = c.fluid_time >= WINDOW
    return c.fluid_time[keep], c.fluid_queue[keep]


def _period(c):
    from ..experiments.aqm import dominant_period

    return dominant_period(*_late(c), high=40.0 if c.name.startswith("red") else 20.0)


def _spread(c):
    from ..experiments.aqm import spread

    return spread(*_late(c))
