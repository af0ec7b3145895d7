# ctlcc.crosscheck._base - the cross-check result, its declared runs, shared runs and helpers
"""What the per-paper cross-check modules share (private).

* :class:`CrossCheck` - a check's prediction and measurement, point by point
  (no verdict: the ledger's records judge it, :meth:`CrossCheck.records`);
* :func:`declare_check` - a run the ledger needs, declared once, beside the
  unit that reads it (``needs=declare_check("stpd_decay_per_rtt", stpd_decay,
  model="per_rtt")``); :data:`CHECKS` collects them;
* :func:`check_point`, :func:`check_points` - a check's points as the
  :class:`~ctlcc.claims.registry.Measurement` of the units;
* the runs two papers' checks share (:func:`_reno_runs`, :func:`_rate_runs`),
  argument checks made before the first simulation, and path arithmetic.
"""

import math
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from .._validation import (check_choice, check_interval, check_nonnegative,
                           check_nonnegative_int, check_sequence)
from ..claims._common import slug
from ..claims.registry import Measurement
from ..errors import ParameterError
from ..sim import run, scenarios

__all__ = ["DEFAULT_SEEDS", "MAX_DURATION", "MAX_POINTS", "CHECKS", "CrossCheck",
           "declare_check", "check_point", "check_points", "_crosscheck", "_reno_runs", "_rate_runs"]

#: Default seeds of the random-loss runs (three: enough for a spread).
DEFAULT_SEEDS = (0, 1, 2)

#: Longest simulated run a cross-check accepts. [s]  An hour of simulated
#: time is far beyond every claim here (the defaults run 20-60 s); the cap
#: turns a typo such as ``duration=1e308`` into an error instead of a hang.
MAX_DURATION = 3600.0

#: Most points or seeds a cross-check accepts (each is one or more runs).
MAX_POINTS = 1000

#: Every run the ledger's units read: name -> (function name, keyword arguments),
#: in declaration order.  Filled by :func:`declare_check` where each unit is
#: registered; a run is declared once and nowhere else.
CHECKS = {}

#: name -> the function itself (CHECKS keeps its name, as it always has).
_FUNCTIONS = {}


@dataclass(frozen=True)
class CrossCheck:
    """One check: prediction and measurement over seeds, point by point.

    A check measures; it does not judge.  Its verdicts are the ledger's:
    the records its registered units make of it, each judged by the rule
    declared in ``data/ledger_*.csv`` (:meth:`records`).

    Attributes
    ----------
    name : str
        Short identifier (the function that made it, or its key of
        :data:`CHECKS`).
    claim : str
        The claim in one sentence.
    source : str
        Paper and equation the prediction comes from.
    quantity : str
        What is compared, with its unit.
    labels : tuple of str
        One label per compared point (e.g. ``"p=0.01"``).
    predicted : ndarray
        Analytic prediction per point. [unit of *quantity*]
    measured : ndarray
        Mean over seeds of the simulated value per point. [same]
    spread : ndarray
        Standard deviation over seeds per point (0 for deterministic runs). [same]
    parameters : dict
        Everything that made the check (scenario, duration, seeds, ...).
    note : str
        What the numbers show (where models part, findings).
    """

    name: str
    claim: str
    source: str
    quantity: str
    labels: tuple
    predicted: np.ndarray
    measured: np.ndarray
    spread: np.ndarray
    parameters: dict = field(default_factory=dict)
    note: str = ""

    @property
    def error(self):
        """``measured - predicted`` per point. [unit of *quantity*]"""
        return self.measured - self.predicted

    @property
    def relative_error(self):
        """``(measured - predicted) / |predicted|`` per point (NaN at 0). [1]"""
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(self.predicted != 0, self.error / np.abs(self.predicted), np.nan)

    def rows(self):
        """Table rows: (check, point, predicted, measured ± spread)."""
        return [(self.name, label, _fmt(self.predicted[i]),
                 f"{_fmt(self.measured[i])} ± {_fmt(self.spread[i])}")
                for i, label in enumerate(self.labels)]

    def records(self):
        """The ledger's records of this check, each judged by its declared rule.

        The registered units (section ``crosscheck``) that read a check of
        this :attr:`name` turn its points into measurements, and
        :func:`ctlcc.claims.evaluate` joins each with the record declared in
        ``data/ledger_*.csv`` (tolerance and its basis written before
        measuring): the one verdict a check has.  Empty when no unit reads a
        check of this name.

        Returns
        -------
        list of ctlcc.claims.Claim
        """
        from ..claims import evaluate, units

        return evaluate(units(section="crosscheck"), results={self.name: self})


def declare_check(name, function, **kwargs):
    """Declare a run the ledger needs and return its *name* (a unit's ``needs``).

    Parameters
    ----------
    name : str
        Key of the run (:data:`CHECKS`, :func:`ctlcc.crosscheck.run_all`).
    function : callable
        The check function.
    **kwargs
        Its keyword arguments.

    Returns
    -------
    str
        *name*.

    Raises
    ------
    ParameterError
        *name* declared twice with another function or other arguments.
    """
    entry = (function.__name__, dict(kwargs))
    if name in CHECKS and CHECKS[name] != entry:
        raise ParameterError(f"cross-check run {name!r} declared twice: {CHECKS[name]} and "
                             f"{entry}")
    CHECKS[name] = entry
    _FUNCTIONS[name] = function
    return name


def run_declared(name):
    """Run the check declared under *name*, named *name*."""
    from dataclasses import replace

    function_name, kwargs = CHECKS[name]
    return replace(_FUNCTIONS[name](**kwargs), name=name)


def check_point(check, i, **extra):
    """Point *i* of a :class:`CrossCheck` as a Measurement (model target)."""
    seeds = tuple(int(s) for s in check.parameters.get("seeds", ()))
    spread = float(check.spread[i]) if len(seeds) > 1 else None
    if spread is not None and not math.isfinite(spread):
        spread = None
    note = extra.pop("reason", "")
    return Measurement(value=float(check.measured[i]), seeds=seeds, spread=spread,
                       target=float(check.predicted[i]), label=check.labels[i],
                       reason="; ".join(filter(None, (note, check.note))), **extra)


def check_points(check, prefix, evidence=""):
    """Every point of *check* as ``{f"{prefix}-{slug(label)}": Measurement}``."""
    return {f"{prefix}-{slug(label)}": check_point(check, i, evidence=evidence)
            for i, label in enumerate(check.labels)}


def _crosscheck(name, claim, source, quantity, labels, predicted, samples, parameters, note=""):
    """A :class:`CrossCheck` from per-point samples (rows: points, columns: seeds)."""
    samples = np.atleast_2d(np.asarray(samples, dtype=float))
    mean = samples.mean(axis=1)
    spread = samples.std(axis=1, ddof=1) if samples.shape[1] > 1 else np.zeros(len(mean))
    predicted = np.asarray(predicted, dtype=float)
    if predicted.size == 0 or predicted.shape != mean.shape:
        # the argument checks make this unreachable; a check needs points
        raise RuntimeError(f"{name}: no points compared")
    return CrossCheck(name, claim, source, quantity, tuple(labels), predicted, mean, spread,
                      dict(parameters), note)


# --- runs shared by two papers' checks --------------------------------------------------------

def _reno_runs(probabilities, protocol, duration, seeds, preset):
    """Checked arguments, then the (cached) runs shared by the square-root law and PFTK."""
    return _reno_runs_cached(_check_probabilities(probabilities),
                             check_choice("protocol", protocol, _RENO_PROTOCOLS),
                             _check_duration(duration), _check_seeds(seeds),
                             _check_preset("preset", preset))


@lru_cache(maxsize=8)
def _reno_runs_cached(probabilities, protocol, duration, seeds, preset):
    rates, rtts = [], []
    for p in probabilities:
        scenario = scenarios.preset(preset, protocol=protocol, loss=p)
        row_rate, row_rtt = [], []
        for seed in seeds:
            result = run(scenario, duration, seed=seed, trace=True)
            flow = result.flows[0]
            row_rate.append(flow.sent / flow.active_time)
            row_rtt.append(float(np.mean(result.traces.rtt[:, 2])))
        rates.append(row_rate)
        rtts.append(np.mean(row_rtt))
    bdp = _path_rtt(scenario) * _capacity(scenario)
    wmax = bdp + _bottleneck_link(scenario).buffer + 1
    return {"p": probabilities, "rate": np.array(rates), "rtt": np.array(rtts),
            "capacity": _capacity(scenario), "rto": scenario.tcp.min_rto, "wmax": wmax,
            "parameters": {"preset": preset, "protocol": protocol, "duration": duration,
                           "seeds": seeds, "mean_rtt": tuple(np.round(rtts, 5)),
                           "rto": scenario.tcp.min_rto, "wmax": round(wmax, 2)}}


def _rate_runs(protocol, probabilities, duration, warmup, seeds):
    """Checked arguments, then the (cached) runs of one rate sender under random loss."""
    return _rate_runs_cached(protocol, probabilities, duration,
                             _check_warmup(warmup, duration), seeds)


@lru_cache(maxsize=8)
def _rate_runs_cached(protocol, probabilities, duration, warmup, seeds):
    """One rate sender alone on a 100 Mb/s, 40 ms link with Bernoulli loss p.

    Per point and seed: mean send rate after warmup [packets/s], loss ratio,
    mean RTT sample [s], coefficient of variation of the sampled sending
    rate, loss-event rate (losses more than one mean RTT apart, per packet
    sent after warmup).
    """
    keys = ("rate", "loss", "rtt", "cv", "event_rate")
    out = {k: [] for k in keys}
    for p in probabilities:
        scenario = scenarios.dumbbell(1, 10e6, 5e-3, 100e6, 40e-3, 1000, p, protocol,
                                      name=f"{protocol}_bernoulli")
        rows = {k: [] for k in keys}
        for seed in seeds:
            result = run(scenario, duration, seed=seed, trace=True, sample_interval=1.0)
            tr = result.traces
            start = np.searchsorted(tr.time, warmup)
            span = tr.time[-1] - tr.time[start]
            sent = float(tr.sent[-1, 0] - tr.sent[start, 0])
            rows["rate"].append(sent / span)
            rows["loss"].append(result.flows[0].loss_rate)
            late_rtt = tr.rtt[tr.rtt[:, 0] >= warmup, 2]
            rtt = float(np.mean(late_rtt if late_rtt.size else tr.rtt[:, 2]))
            rows["rtt"].append(rtt)
            x = tr.rate[start:, 0]
            rows["cv"].append(float(np.std(x) / np.mean(x)))
            drops = np.sort(tr.drops[(tr.drops[:, 0] >= tr.time[start]) & (tr.drops[:, 3] == 2), 0])
            events, begin = 0, -np.inf
            for t in drops:
                if t > begin + rtt:
                    events += 1
                    begin = t
            rows["event_rate"].append(events / sent)
        for k in keys:
            out[k].append(rows[k])
    out = {k: np.array(v) for k, v in out.items()}
    out["p"] = probabilities
    out["parameters"] = {"protocol": protocol, "duration": duration, "warmup": warmup,
                         "seeds": tuple(seeds), "link": "100 Mb/s 40 ms, 10 Mb/s 5 ms access",
                         "mean_rtt": tuple(np.round(out["rtt"].mean(axis=1), 4))}
    return out


# --- argument checks: all made before the first simulation ------------------------------------

_RENO_PROTOCOLS = ("reno", "newreno")


def _check_duration(duration):
    return check_interval("duration", duration, 0.0, MAX_DURATION, closed="right", scalar=True)


def _check_warmup(warmup, duration):
    """A warm-up in [0, duration): a check must keep some samples after it."""
    return check_interval("warmup", warmup, 0.0, duration, closed="left", scalar=True)


def _check_probabilities(probabilities):
    return check_sequence(
        "probabilities", probabilities,
        lambda name, p: check_interval(name, p, 0.0, 1.0, scalar=True), max_length=MAX_POINTS)


def _check_seeds(seeds):
    return check_sequence("seeds", seeds, lambda name, s: check_nonnegative_int(name, s),
                          max_length=MAX_POINTS)


def _check_preset(name, value):
    return check_choice(name, value, tuple(scenarios.PRESETS))


def _check_gains(gains):
    return check_sequence("gains", gains,
                          lambda name, k: check_nonnegative(name, k, scalar=True),
                          min_length=2, max_length=2)


# --- path arithmetic --------------------------------------------------------------------------

def _bottleneck_link(scenario):
    (a, b), = scenario.bottlenecks[:1]
    link, _ = scenario.channels()[(a, b)]
    return link


def _capacity(scenario):
    """Bottleneck rate in data packets per second. [packets/s]"""
    return _bottleneck_link(scenario).rate / scenario.data_bits


def _path_rtt(scenario, flow=0):
    """Round trip with empty queues: propagation + serialisation of data and ACK. [s]"""
    path = scenario.flows[flow].path
    channels = scenario.channels()
    total = 0.0
    for hop in zip(path[:-1], path[1:]):
        link, _ = channels[hop]
        total += 2 * link.delay + scenario.data_bits / link.rate + 8 * scenario.ack_bytes / link.rate
    return total


def _busy_fraction(result, scenario, warmup):
    """Share of the bottleneck's time spent sending data after *warmup*. [1]

    Packets through the bottleneck = packets sent by the sources - data
    dropped by the full queue - growth of the queue, over the window
    (packets still on the access link at either end are ignored: at most
    a packet or two).
    """
    tr = result.traces
    start = np.searchsorted(tr.time, warmup)
    span = tr.time[-1] - tr.time[start]
    if span <= 0:
        raise ParameterError(f"warmup must leave samples; got warmup={warmup}")
    sent = float(np.sum(tr.sent[-1] - tr.sent[start]))
    late = tr.drops[tr.drops[:, 0] >= tr.time[start]]
    queue_drops = int(np.sum(late[:, 3] == 0))
    queue_change = float(tr.queue[-1, 0] - tr.queue[start, 0])
    return (sent - queue_drops - queue_change) / (_capacity(scenario) * span)


def _fmt(value):
    value = float(value)
    if not math.isfinite(value):
        return str(value)
    if value == 0 or 1e-3 <= abs(value) < 1e5:
        return f"{value:.4g}"
    return f"{value:.3e}"
