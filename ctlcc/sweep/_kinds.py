# ctlcc.sweep._kinds - what runs at a sweep point, and the metrics kept from it
"""Registry of point kinds (sim, fluid, analysis, bound, crosscheck, function).

A :class:`Kind` turns the parameters of one point (the spec's fixed values
merged with the point's axis values) and a seed into an *outcome*, and
names the metrics that can be read from that outcome.  Everything a kind
calls is ctlcc's public API, so a kind is a thin adapter: a new kind is a
:func:`register_kind` call with an ``evaluate`` function, a ``parameters``
function (the names a point may set, for validation before anything runs)
and a table of :class:`Metric` s.
"""

import importlib
import inspect
import math
from dataclasses import dataclass, field, fields, replace
from functools import cached_property

import numpy as np

from .._validation import _short, check_bool, check_choice, check_instance
from ..errors import ParameterError

__all__ = ["Metric", "Kind", "KINDS", "register_kind", "register_metric", "get_kind"]


@dataclass(frozen=True)
class Metric:
    """A named number read from a point's outcome.

    Attributes
    ----------
    name : str
    function : callable
        ``function(outcome, params) -> value``.
    dtype : {"float", "int", "bool", "list"}
        Column type in the results table ("list": a list of floats, e.g.
        one value per flow).
    unit : str
        Unit, in the house's bracket form ("bit/s", "packets", "1").
    doc : str
        One line: what it is.
    variants : tuple of str or None
        Values of the kind's variant parameter (e.g. ``loop`` of the
        analysis kind) for which the metric exists; None for all.
    """

    name: str
    function: object
    dtype: str = "float"
    unit: str = "1"
    doc: str = ""
    variants: tuple = None

    def __post_init__(self):
        _check_name("name", self.name)
        _check_callable("function", self.function)
        check_choice("dtype", self.dtype, ("float", "int", "bool", "list"))
        check_instance("unit", self.unit, str)
        check_instance("doc", self.doc, str)
        if self.variants is not None:
            if isinstance(self.variants, (str, bytes, dict)) or not isinstance(
                    self.variants, (tuple, list)) or not self.variants:
                raise ParameterError(f"variants must be a non-empty tuple of str or None, got "
                                     f"{_short(self.variants)}")
            for i, value in enumerate(self.variants):
                _check_name(f"variants[{i}]", value)
            if len(set(self.variants)) != len(self.variants):
                raise ParameterError(f"variants must not repeat a value, got {self.variants!r}")
            object.__setattr__(self, "variants", tuple(self.variants))


def _check_name(name, value):
    if not isinstance(value, str) or not value:
        raise ParameterError(f"{name} must be a non-empty str, got {_short(value)}")
    return value


def _check_callable(name, value):
    if not callable(value):
        raise ParameterError(f"{name} must be callable, got {type(value).__name__} "
                             f"{_short(value)}")
    return value


@dataclass(frozen=True)
class Kind:
    """What runs at a point of a sweep.

    Attributes
    ----------
    name : str
    evaluate : callable
        ``evaluate(params, seed) -> outcome``; *params* is a dict of the
        point's parameters, *seed* an int (None for deterministic kinds).
    parameters : callable
        ``parameters(params) -> (allowed, required)``: the parameter names
        valid for these params (they may depend on a choice such as the
        preset or the bound function) and those that must be present.
        Raises :class:`~ctlcc.errors.ParameterError` naming a bad choice.
    seeded : callable
        ``seeded(params) -> bool``: whether the outcome depends on the seed.
    metrics : dict
        Metric name -> :class:`Metric`.
    variant : str or None
        Parameter whose value selects which metrics apply (see
        :attr:`Metric.variants`).
    open_metrics : bool
        True when the outcome is a mapping whose keys are the metrics (the
        ``function`` kind): any metric name is accepted.
    doc : str
    """

    name: str
    evaluate: object
    parameters: object
    seeded: object
    metrics: dict = field(default_factory=dict)
    variant: str = None
    open_metrics: bool = False
    doc: str = ""

    def __post_init__(self):
        _check_name("name", self.name)
        for name in ("evaluate", "parameters", "seeded"):
            _check_callable(name, getattr(self, name))
        check_instance("metrics", self.metrics, dict)
        for key, metric in self.metrics.items():
            if not isinstance(metric, Metric) or metric.name != key:
                raise ParameterError(
                    f"metrics must map each metric's name to its Metric, got {key!r}: "
                    f"{_short(metric)}")
        if self.variant is not None:
            _check_name("variant", self.variant)
        check_bool("open_metrics", self.open_metrics)
        check_instance("doc", self.doc, str)


#: Kind name -> :class:`Kind`.
KINDS = {}


def register_kind(kind):
    """Add *kind* (a :class:`Kind`) to :data:`KINDS` and return it."""
    check_instance("kind", kind, Kind)
    KINDS[kind.name] = kind
    return kind


def register_metric(kind, metric):
    """Add *metric* (a :class:`Metric`) to the kind named *kind*."""
    check_instance("metric", metric, Metric)
    check_choice("kind", kind, tuple(KINDS))
    metrics = get_kind(kind).metrics
    if metrics.get(metric.name, metric) is not metric:
        raise ParameterError(
            f"metric: kind {kind!r} already has a metric named {metric.name!r} (a second one "
            f"would silently replace it), got {metric!r}")
    metrics[metric.name] = metric
    return metric


def get_kind(name):
    """The registered :class:`Kind` called *name* (the error lists them)."""
    if not isinstance(name, str) or name not in KINDS:
        raise ParameterError(f"name must be a registered kind, one of "
                             f"{', '.join(repr(k) for k in KINDS)}; got {name!r}")
    return KINDS[name]


# --------------------------------------------------------------------------- sim
#: Parameters of the packet-simulation kind that are not scenario fields.
_SIM_RUN = {"duration": None, "warmup": 0.0, "sample_interval": None, "bottleneck": 0}
#: Scenario fields a sim point may set besides the builder's own parameters.
_SCENARIO_FIELDS = ("payload_bytes", "header_bytes", "ack_bytes")
#: ST-PD gains of every ST-PD flow (``ctlcc.sim.senders.Stpd(gains=(kp, kd))``).
_SIM_GAINS = ("kp", "kd")


def _sim_builders():
    from ..sim import scenarios
    return {"single_bottleneck": scenarios.single_bottleneck, "dumbbell": scenarios.dumbbell,
            "parking_lot": scenarios.parking_lot}


def _tcp_parameters():
    from ..sim.scenarios import TcpOptions
    return tuple(f"tcp_{f.name}" for f in fields(TcpOptions))


def _sim_builder(params):
    from ..sim import scenarios
    if ("preset" in params) == ("scenario" in params):
        raise ParameterError("a sim point needs exactly one of 'preset' (one of "
                             f"{', '.join(repr(p) for p in scenarios.PRESETS)}) or 'scenario' "
                             f"(one of {', '.join(repr(b) for b in _sim_builders())}); got "
                             f"{'both' if 'preset' in params else 'neither'}")
    if "preset" in params:
        name = params["preset"]
        if name not in scenarios.PRESETS:
            raise ParameterError(f"preset must be one of "
                                 f"{', '.join(repr(p) for p in scenarios.PRESETS)}; got {name!r}")
        return scenarios.PRESETS[name]
    name, builders = params["scenario"], _sim_builders()
    if name not in builders:
        raise ParameterError(f"scenario must be one of {', '.join(repr(b) for b in builders)}; "
                             f"got {name!r}")
    return builders[name]


def _sim_parameters(params):
    from ..sim import scenarios
    builder = _sim_builder(params)
    names = [p.name for p in inspect.signature(builder).parameters.values()
             if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]
    protocol = params.get("protocol")
    if protocol is not None:
        for value in (protocol if isinstance(protocol, (list, tuple)) else [protocol]):
            if value not in scenarios.PROTOCOLS:
                raise ParameterError(
                    f"protocol must be one of {', '.join(repr(p) for p in scenarios.PROTOCOLS)}; "
                    f"got {value!r}")
    allowed = {"preset", "scenario", *names, *_SCENARIO_FIELDS, *_SIM_GAINS, *_SIM_RUN,
               *_tcp_parameters()} - {"name"}
    required = {"duration"} | {p.name for p in inspect.signature(builder).parameters.values()
                               if p.default is p.empty and p.kind is p.POSITIONAL_OR_KEYWORD}
    if any(name in params for name in _SIM_GAINS):
        required |= set(_SIM_GAINS)                 # the gains go in as a pair
        if protocol is None:
            protocol = inspect.signature(builder).parameters["protocol"].default
        protocols = protocol if isinstance(protocol, (list, tuple)) else [protocol]
        if "stpd" not in protocols:
            raise ParameterError(f"kp and kd are ST-PD's gains; protocol must be 'stpd' (for "
                                 f"at least one flow) when they are set, got {protocol!r}")
    return allowed, required


class _SimOutcome:
    """A SimResult and the point's warm-up, with the criteria computed once."""

    def __init__(self, result, warmup, bottleneck):
        self.result, self.warmup, self.bottleneck = result, warmup, bottleneck

    @cached_property
    def criteria(self):
        from ..sim import primo_criteria
        return primo_criteria(self.result, warmup=self.warmup, bottleneck=self.bottleneck)

    @property
    def queue(self):
        return self.result.queues[self.bottleneck]

    def total(self, attribute):
        return sum(getattr(f, attribute) for f in self.result.flows)


def _sim_evaluate(params, seed):
    from ..sim import run
    from ..sim.scenarios import TcpOptions
    params = dict(params)
    builder = _sim_builder(params)
    params.pop("preset", None)
    params.pop("scenario", None)
    run_args = {name: params.pop(name, default) for name, default in _SIM_RUN.items()}
    gains = {name: params.pop(name) for name in _SIM_GAINS if name in params}
    tcp = {name[4:]: params.pop(name) for name in list(params) if name.startswith("tcp_")}
    if tcp:
        params["tcp"] = TcpOptions(**tcp)
    scenario = builder(**params)
    if gains:
        if set(gains) != set(_SIM_GAINS):
            raise ParameterError(f"kp and kd must be given together; got only {set(gains)}")
        pair = (gains["kp"], gains["kd"])          # ctlcc.sim.senders.Stpd(gains=(kp, kd))
        scenario = replace(scenario, flows=tuple(
            replace(f, sender=replace(f.sender, gains=pair)) if f.protocol == "stpd" else f
            for f in scenario.flows))
    result = run(scenario, run_args["duration"], seed=seed,
                 sample_interval=run_args["sample_interval"], progress=False)
    bottleneck = int(run_args["bottleneck"])
    if not 0 <= bottleneck < len(result.queues):
        raise ParameterError(f"bottleneck must be in [0, {len(result.queues) - 1}], "
                             f"got {bottleneck}")
    return _SimOutcome(result, float(run_args["warmup"]), bottleneck)


def _ratio(numerator, denominator):
    return numerator / denominator if denominator else math.nan


_SIM_METRICS = [
    Metric("goodput_bps", lambda o, p: [f.goodput_bps for f in o.result.flows], "list", "bit/s",
           "goodput of each flow (payload delivered in order per active second)"),
    Metric("goodput_total_bps", lambda o, p: float(sum(o.result.goodputs_bps)), "float", "bit/s",
           "sum of the flows' goodputs"),
    Metric("throughput_bps", lambda o, p: [f.throughput_bps for f in o.result.flows], "list",
           "bit/s", "data bits put on the wire per active second, each flow"),
    Metric("jain", lambda o, p: o.result.jain, "float", "1",
           "Jain's fairness index of the goodputs"),
    Metric("queue_mean", lambda o, p: o.queue.mean, "float", "packets",
           "time-average queue of the reported bottleneck"),
    Metric("queue_max", lambda o, p: o.queue.max, "int", "packets",
           "largest queue of the reported bottleneck"),
    Metric("queue_drops", lambda o, p: o.queue.drops, "int", "packets",
           "packets refused by the full bottleneck queue (data and ACKs)"),
    Metric("utilisation", lambda o, p: o.queue.utilisation, "float", "1",
           "fraction of the run the bottleneck was transmitting"),
    Metric("drops", lambda o, p: o.total("dropped"), "int", "packets",
           "data packets lost, all flows: queue overflows plus link errors"),
    Metric("sent", lambda o, p: o.total("sent"), "int", "packets",
           "data packets sent, all flows, retransmissions included"),
    Metric("retransmitted", lambda o, p: o.total("retransmitted"), "int", "packets",
           "retransmissions, all flows"),
    Metric("timeouts", lambda o, p: o.total("timeouts"), "int", "1",
           "retransmission timeouts, all flows"),
    Metric("fast_retransmits", lambda o, p: o.total("fast_retransmits"), "int", "1",
           "fast-retransmit episodes, all flows"),
    Metric("loss_rate", lambda o, p: _ratio(o.total("dropped"), o.total("sent")), "float", "1",
           "data packets lost per packet sent, all flows"),
    Metric("loss_event_rate",
           lambda o, p: _ratio(o.total("timeouts") + o.total("fast_retransmits"),
                               o.total("sent")), "float", "1",
           "loss events (recovery episodes: fast retransmits + timeouts) per packet sent"),
    Metric("events", lambda o, p: o.result.events, "int", "1", "events the engine processed"),
    Metric("sending_stability", lambda o, p: o.criteria["sending_stability"], "float", "%",
           "Primo criterion: sending-rate stability after warmup"),
    Metric("reception_stability", lambda o, p: o.criteria["reception_stability"], "float", "%",
           "Primo criterion: reception-rate stability after warmup"),
    Metric("primo_goodput", lambda o, p: o.criteria["goodput"], "float", "%",
           "Primo criterion: 100 (1 - loss rate)"),
    Metric("occupancy", lambda o, p: o.criteria["occupancy"], "float", "%",
           "Primo criterion: bottleneck transmitting fraction"),
    Metric("fairness", lambda o, p: o.criteria["fairness"], "float", "%",
           "Primo criterion: n x smallest goodput share"),
]

register_kind(Kind(
    "sim", _sim_evaluate, _sim_parameters, lambda params: True,
    {m.name: m for m in _SIM_METRICS},
    doc="packet simulation (ctlcc.sim.run) of a preset or a scenario builder"))


# --------------------------------------------------------------------------- fluid
_FLUID_LAWS = ("reno", "stpd", "primo")
_FLUID_AQMS = ("droptail", "fixed")
_FLUID_PARAMETERS = {"capacity": None, "buffer": None, "propagation_delay": None,
                     "n_flows": 1, "law": None, "duration": None, "dt": None,
                     "aqm": "droptail", "probability": None, "initial_queue": 0.0,
                     "warmup": 0.0, "kp": None, "kd": None, "reference": None,
                     "initial_window": 1.0, "max_window": math.inf}
_FLUID_REQUIRED = {"capacity", "buffer", "propagation_delay", "law", "duration", "dt"}
#: Parameters that only one law reads.
_FLUID_LAW_PARAMETERS = {"reno": {"initial_window", "max_window"},
                         "stpd": {"kp", "kd", "reference"}}


def _fluid_parameters(params):
    from ..laws.primo import PrimoParams
    law = params.get("law")
    if law not in _FLUID_LAWS:
        raise ParameterError(f"law must be one of {', '.join(map(repr, _FLUID_LAWS))}; "
                             f"got {law!r}")
    aqm = params.get("aqm", "droptail")
    if aqm not in _FLUID_AQMS:
        raise ParameterError(f"aqm must be one of {', '.join(map(repr, _FLUID_AQMS))}; "
                             f"got {aqm!r}")
    own = {"reno": {"initial_window", "max_window"}, "stpd": {"kp", "kd", "reference"},
           "primo": {f.name for f in fields(PrimoParams)}}[law]
    allowed = (set(_FLUID_PARAMETERS) - set().union(*_FLUID_LAW_PARAMETERS.values())) | own
    if aqm != "fixed":
        allowed.discard("probability")
    required = set(_FLUID_REQUIRED) | ({"kp", "kd"} if law == "stpd" else set()) \
        | ({"probability"} if aqm == "fixed" else set())
    return allowed, required


class _FluidOutcome:
    def __init__(self, run, warmup, capacity, n_flows):
        self.run, self.capacity, self.n_flows = run, capacity, n_flows
        self.keep = run.time >= warmup
        if self.keep.sum() < 2:
            raise ParameterError(f"warmup={warmup} leaves fewer than 2 recorded samples")

    def queue(self):
        return self.run.queue[self.keep, 0, 0]


def _fluid_evaluate(params, seed):
    from ..laws.primo import PrimoParams
    from ..sim import fluid
    p = {**_FLUID_PARAMETERS, **params}
    net = fluid.network(capacity=p["capacity"], buffer=p["buffer"],
                        propagation_delay=p["propagation_delay"], n_flows=p["n_flows"])
    if p["law"] == "reno":
        law = fluid.Reno(initial_window=p["initial_window"], max_window=p["max_window"])
    elif p["law"] == "stpd":
        extra = {} if p["reference"] is None else {"reference": p["reference"]}
        law = fluid.Stpd(kp=p["kp"], kd=p["kd"], **extra)
    else:
        primo = {f.name: params[f.name] for f in fields(PrimoParams) if f.name in params}
        law = fluid.Primo(params=PrimoParams(**primo))
    aqm = fluid.DropTail() if p["aqm"] == "droptail" else fluid.FixedMarking(p["probability"])
    record = max(1, int(round(0.01 / p["dt"])))          # samples every ~10 ms
    run = fluid.simulate(net, law, p["duration"], p["dt"], aqm=aqm,
                         initial_queue=p["initial_queue"], record_every=record)
    return _FluidOutcome(run, p["warmup"], float(p["capacity"]), float(p["n_flows"]))


_FLUID_METRICS = [
    Metric("queue_mean", lambda o, p: float(o.queue().mean()), "float", "packets",
           "mean queue over the recorded samples after warmup"),
    Metric("queue_std", lambda o, p: float(o.queue().std()), "float", "packets",
           "standard deviation of the queue after warmup (oscillation size)"),
    Metric("queue_max", lambda o, p: float(o.queue().max()), "float", "packets",
           "largest recorded queue after warmup"),
    Metric("rate_mean", lambda o, p: float(o.run.rate[o.keep, 0, 0].mean()), "float",
           "packets/s", "mean sending rate of one flow after warmup"),
    Metric("utilisation",
           lambda o, p: float(o.n_flows * o.run.reception_rate[o.keep, 0, 0].mean() / o.capacity),
           "float", "1", "delivered rate of all flows / capacity, after warmup"),
    Metric("drops", lambda o, p: float(o.run.dropped[0, 0]), "float", "packets",
           "fluid dropped by buffer overflow over the whole run"),
]

register_kind(Kind(
    "fluid", _fluid_evaluate, _fluid_parameters, lambda params: False,
    {m.name: m for m in _FLUID_METRICS}, variant="law",
    doc="fluid model (ctlcc.sim.fluid) of flows through one bottleneck"))


# --------------------------------------------------------------------------- analysis
_ANALYSIS_LOOPS = ("stpd", "primo")


def _analysis_parameters(params):
    from ..laws.primo import PrimoParams
    loop = params.get("loop")
    if loop not in _ANALYSIS_LOOPS:
        raise ParameterError(f"loop must be one of {', '.join(map(repr, _ANALYSIS_LOOPS))}; "
                             f"got {loop!r}")
    if loop == "stpd":
        return {"loop", "kp", "kd", "m", "model", "m_max"}, {"loop", "kp", "kd", "m"}
    from ..analysis.primo import REGIMES
    regime = params.get("regime", "moderate")
    if regime not in REGIMES:
        raise ParameterError(f"regime must be one of {', '.join(map(repr, REGIMES))}; "
                             f"got {regime!r}")
    return ({"loop", "capacity", "round_trip_time", "D", "forward_delay", "ftt_ref", "buffer",
             "regime"} | {f.name for f in fields(PrimoParams)},
            {"loop", "capacity", "round_trip_time"})


class _AnalysisOutcome:
    def __init__(self, loop, params):
        self.loop, self.params = loop, params


def _analysis_evaluate(params, seed):
    from .. import analysis
    from ..laws.primo import PrimoParams
    if params["loop"] == "stpd":
        loop = analysis.stpd_loop(params["kp"], params["kd"], params["m"],
                                  model=params.get("model", "per_slot"))
    else:
        names = {f.name for f in fields(PrimoParams)}
        law = PrimoParams(**{k: v for k, v in params.items() if k in names})
        extra = {k: params[k] for k in ("D", "forward_delay", "ftt_ref", "buffer")
                 if k in params}
        loop = analysis.primo_loop(law, capacity=params["capacity"],
                                   round_trip_time=params["round_trip_time"], **extra)
    return _AnalysisOutcome(loop, params)


def _stpd_margin(o, p):
    from ..analysis import gain_margin
    return float(gain_margin(p["kp"], p["kd"], p["m"], model=p.get("model", "per_slot")))


def _stpd_max_delay(o, p):
    from ..analysis import max_stable_delay
    return int(max_stable_delay(p["kp"], p["kd"], model=p.get("model", "per_slot"),
                                m_max=p.get("m_max", 256)))


def _primo_radius(o, p):
    return o.loop.spectral_radius(p.get("regime", "moderate"))


def _primo_time_constant(o, p):
    return o.loop.time_constant(p.get("regime", "moderate"))


_ANALYSIS_METRICS = [
    Metric("spectral_radius", lambda o, p: o.loop.spectral_radius(), "float", "1",
           "largest closed-loop pole magnitude", ("stpd",)),
    Metric("stable", lambda o, p: bool(o.loop.is_stable()), "bool", "1",
           "every pole strictly inside the unit circle", ("stpd",)),
    Metric("gain_margin", _stpd_margin, "float", "1",
           "largest factor on (kp, kd) keeping the loop stable", ("stpd",)),
    Metric("max_stable_delay", _stpd_max_delay, "int", "slots",
           "largest round trip m (<= m_max) with a stable loop", ("stpd",)),
    Metric("primo_spectral_radius", _primo_radius, "float", "1",
           "largest pole magnitude of Primo's rate loop in 'regime' (default moderate)",
           ("primo",)),
    Metric("primo_time_constant", _primo_time_constant, "float", "s",
           "time constant of Primo's dominant rate pole in 'regime'", ("primo",)),
]

register_kind(Kind(
    "analysis", _analysis_evaluate, _analysis_parameters, lambda params: False,
    {m.name: m for m in _ANALYSIS_METRICS}, variant="loop",
    doc="z-domain closed loop: ctlcc.stpd_loop or ctlcc.primo_loop"))


# --------------------------------------------------------------------------- bound
def _bound_functions():
    from .. import bounds
    out = {}
    for module_name in ("mathis", "pftk", "iftp", "cbraa", "tokenbucket", "fairness"):
        module = getattr(bounds, module_name)
        for name in module.__all__:
            value = getattr(module, name)
            if inspect.isfunction(value):
                out[f"{module_name}.{name}"] = value
    for name in bounds.__all__:
        value = getattr(bounds, name)
        if inspect.isfunction(value):
            out[name] = value
    return out


def _signature_parameters(function, reserved=()):
    allowed, required = set(), set()
    for p in inspect.signature(function).parameters.values():
        if p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL) or p.name in reserved:
            continue
        allowed.add(p.name)
        if p.default is p.empty:
            required.add(p.name)
    return allowed, required


def _bound_function(params):
    functions = _bound_functions()
    name = params.get("function")
    if name not in functions:
        raise ParameterError(f"function must be one of {', '.join(map(repr, functions))}; "
                             f"got {name!r}")
    return functions[name]


def _bound_parameters(params):
    allowed, required = _signature_parameters(_bound_function(params))
    return allowed | {"function"}, required | {"function"}


def _bound_evaluate(params, seed):
    function = _bound_function(params)
    return function(**{k: v for k, v in params.items() if k != "function"})


def _bound_value(outcome, params):
    value = np.asarray(outcome, dtype=float)
    if value.ndim != 0:
        raise ParameterError(f"function {params['function']!r} returned shape {value.shape}; "
                             f"a bound point must give one number (use scalar arguments)")
    return float(value)


register_kind(Kind(
    "bound", _bound_evaluate, _bound_parameters, lambda params: False,
    {"value": Metric("value", _bound_value, "float", "as the function",
                     "the bound's value (units of the function's result)")},
    variant="function", doc="a closed-form bound of ctlcc.bounds"))


# --------------------------------------------------------------------------- crosscheck
def _crosscheck_functions():
    from .. import crosscheck
    return {name: getattr(crosscheck, name) for name in crosscheck.__all__
            if inspect.isfunction(getattr(crosscheck, name)) and name != "run_all"}


def _crosscheck_function(params):
    functions = _crosscheck_functions()
    name = params.get("check")
    if name not in functions:
        raise ParameterError(f"check must be one of {', '.join(map(repr, functions))}; "
                             f"got {name!r}")
    return functions[name]


def _crosscheck_parameters(params):
    allowed, required = _signature_parameters(_crosscheck_function(params), reserved=("seeds",))
    return allowed | {"check"}, required | {"check"}


def _crosscheck_seeded(params):
    return "seeds" in inspect.signature(_crosscheck_function(params)).parameters


def _crosscheck_evaluate(params, seed):
    function = _crosscheck_function(params)
    kwargs = {k: v for k, v in params.items() if k != "check"}
    if seed is not None:
        kwargs["seeds"] = (seed,)
    return function(**kwargs)


_CROSSCHECK_METRICS = [
    Metric("max_abs_error", lambda c, p: float(np.max(np.abs(c.error))), "float",
           "as the check's quantity", "largest |measured - predicted|"),
    Metric("max_relative_error", lambda c, p: float(np.nanmax(np.abs(c.relative_error))),
           "float", "1", "largest |measured - predicted| / |predicted|"),
    Metric("predicted", lambda c, p: [float(v) for v in c.predicted], "list",
           "as the check's quantity", "analytic prediction per compared point"),
    Metric("measured", lambda c, p: [float(v) for v in c.measured], "list",
           "as the check's quantity", "simulated value per compared point"),
]

register_kind(Kind(
    "crosscheck", _crosscheck_evaluate, _crosscheck_parameters, _crosscheck_seeded,
    {m.name: m for m in _CROSSCHECK_METRICS}, variant="check",
    doc="an analytic-vs-simulated claim of ctlcc.crosscheck"))


# --------------------------------------------------------------------------- function
def _user_function(params):
    path = params.get("function")
    if not isinstance(path, str) or path.count(":") != 1:
        raise ParameterError(f"function must be 'package.module:name', got {path!r}")
    module_name, name = path.split(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as err:
        raise ParameterError(f"function {path!r}: cannot import {module_name!r} ({err})") from err
    if not callable(getattr(module, name, None)):
        raise ParameterError(f"function {path!r}: {module_name!r} has no callable {name!r}")
    return getattr(module, name)


def _function_parameters(params):
    allowed, required = _signature_parameters(_user_function(params), reserved=("seed",))
    return allowed | {"function"}, required | {"function"}


def _function_seeded(params):
    return "seed" in inspect.signature(_user_function(params)).parameters


def _function_evaluate(params, seed):
    function = _user_function(params)
    kwargs = {k: v for k, v in params.items() if k != "function"}
    if seed is not None:
        kwargs["seed"] = seed
    out = function(**kwargs)
    if not hasattr(out, "keys"):
        raise TypeError(f"function {params['function']!r} must return a mapping of metric "
                        f"name -> number, got {type(out).__name__}")
    return out


def _mapping_metric(name):
    def read(outcome, params):
        if name not in outcome:
            raise KeyError(f"function {params['function']!r} returned no metric {name!r} "
                           f"(it gave {', '.join(map(repr, outcome))})")
        return float(outcome[name])
    return Metric(name, read, "float", "as the function", "returned by the function")


register_kind(Kind(
    "function", _function_evaluate, _function_parameters, _function_seeded, {},
    variant="function", open_metrics=True,
    doc="any importable function 'module:name' returning a mapping of metrics"))
