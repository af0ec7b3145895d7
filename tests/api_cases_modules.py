"""Argument tables of the harness for the modules the first tables left out (issue 23).

One section per module, in the order of the package: the AQM, CUBIC and PRR
laws, the AQM loop analysis, the fluid model's PI queue and user laws, the
sweep, the claims registry and inventory, the ledger, the report and site,
the plots, the experiments, ns-3 and its agreement matrix, the sender test
harness, the ST-PD readings and the criteria.  ``MODULE_CASES`` feed
``test_public_call_refuses_bad_input``; ``MODULE_EXEMPT`` names what cannot
be probed and why.

Expensive callables (experiments, report sections, ns-3 runs) are probed with
``run_base=False``: only the refusals run, under the harness's per-call alarm,
so a check that comes after the first simulation shows as a hang.
"""

import numpy as np

import ctlcc
from ctlcc.analysis import aqm as aaqm
from ctlcc.laws import aqm as laqm, cubic, prr
from ctlcc.laws import user as luser
from ctlcc.sim import fluid

from .api_harness import FINITE, RAISE, Case

UNIT = ("interval", 0.0, 1.0, "both")
OPEN_UNIT = ("interval", 0.0, 1.0, "neither")
PROB = ("interval", 0.0, 1.0, "right")


def _method(obj, name):
    def call(**kwargs):
        return getattr(obj, name)(**kwargs)
    call.__name__ = name
    return call


MODULE_CASES = []
MODULE_EXEMPT = []

# --------------------------------------------------------------------------- laws.aqm
_RED_PARAMS = laqm.RedParams(50.0, 550.0, 0.1, weight=1e-4)
_PI_PARAMS = laqm.PiParams.design(60, 3750.0, 0.2467, 175.0, 160.0)
MODULE_CASES += [
    Case("laws.aqm.RedParams", laqm.RedParams,
         dict(min_threshold=5.0, max_threshold=15.0, max_probability=0.1),
         dict(min_threshold="nonneg", max_threshold="pos", max_probability=PROB,
              weight=PROB, gentle="bool", wait="bool", ecn="bool", hard_drop="bool",
              min_queue="nonneg"), none_ok=("min_queue",),
         extra=(("min above max", dict(min_threshold=20.0), RAISE, "min_threshold"),)),
    Case("laws.aqm.RedParams.probability", _method(_RED_PARAMS, "probability"),
         dict(average=100.0), dict(average="nonneg"), vector=("average",),
         covers=(laqm.RedParams.probability,)),
    Case("laws.aqm.PiParams", laqm.PiParams,
         dict(a=1.822e-5, b=1.816e-5, reference=175.0, sampling_frequency=160.0),
         dict(a="real", b="real", reference="nonneg", sampling_frequency="pos", ecn="bool")),
    Case("laws.aqm.PiParams.design", laqm.PiParams.design,
         dict(n_flows=60, capacity=3750.0, round_trip=0.2467, reference=175.0,
              sampling_frequency=160.0),
         dict(n_flows="pos", capacity="pos", round_trip="pos", reference="nonneg",
              sampling_frequency="pos", crossover="pos", ecn="bool"), none_ok=("crossover",),
         covers=(laqm.PiParams.design.__func__,)),
    Case("laws.aqm.red_average", laqm.red_average, dict(average=10.0, queue=20.0),
         dict(average="nonneg", queue="nonneg", weight=PROB, idle_packets="nonneg"),
         vector=("average", "queue")),
    Case("laws.aqm.red_probability", laqm.red_probability,
         dict(average=10.0, min_threshold=5.0, max_threshold=15.0, max_probability=0.1),
         dict(average="nonneg", min_threshold="nonneg", max_threshold="pos",
              max_probability=PROB, gentle="bool"),
         vector=("average", "min_threshold", "max_threshold", "max_probability"),
         extra=(("min above max", dict(min_threshold=20.0), RAISE, "min_threshold"),)),
    Case("laws.aqm.red_count_probability", laqm.red_count_probability,
         dict(p_b=0.05, count=3.0), dict(p_b=UNIT, count="nonneg", wait="bool")),
    Case("laws.aqm.red_spacing_rate", laqm.red_spacing_rate, dict(p_b=0.1),
         dict(p_b=UNIT, spacing=("choice", laqm.RED_SPACINGS)), vector=("p_b",)),
    Case("laws.aqm.red_averaging_pole", laqm.red_averaging_pole,
         dict(weight=0.002, capacity=3750.0),
         dict(weight=OPEN_UNIT, capacity="pos")),
    Case("laws.aqm.pi_update", laqm.pi_update,
         dict(p_previous=0.01, queue=180.0, queue_previous=175.0, params=_PI_PARAMS),
         dict(p_previous=UNIT, queue="nonneg", queue_previous="nonneg",
              params=("obj", laqm.PiParams))),
    Case("laws.aqm.pi_coefficients", laqm.pi_coefficients,
         dict(gain=9.64e-6, zero=0.53, sampling_frequency=160.0),
         dict(gain="pos", zero="pos", sampling_frequency="pos")),
    Case("laws.aqm.pi_design", laqm.pi_design,
         dict(n_flows=60, capacity=3750.0, round_trip=0.2467),
         dict(n_flows="pos", capacity="pos", round_trip="pos", crossover="pos"),
         none_ok=("crossover",)),
]
MODULE_EXEMPT += [(laqm.UnstablePiWarning, "warning class: nothing to validate")]

# --------------------------------------------------------------------------- laws.cubic
MODULE_CASES += [
    Case("laws.cubic.alpha_cubic", cubic.alpha_cubic, {}, dict(beta=OPEN_UNIT)),
    Case("laws.cubic.epoch_start", cubic.epoch_start, dict(w_max=100.0, cwnd_epoch=70.0),
         dict(w_max="nonneg", cwnd_epoch="pos", c="pos")),
    Case("laws.cubic.window", cubic.window, dict(t=1.0, k=4.2, w_max=100.0),
         dict(t="nonneg", k="nonneg", w_max="pos", c="pos"), vector=("t",)),
    Case("laws.cubic.congestion_avoidance", cubic.congestion_avoidance,
         dict(cwnd=70.0, w_est=70.0, cwnd_prior=100.0, t=1.0, rtt=0.1, k=4.2, w_max=100.0),
         dict(cwnd="pos", w_est="pos", cwnd_prior="pos", t="nonneg", rtt="pos", k="nonneg",
              w_max="pos", c="pos", beta=OPEN_UNIT, friendly="bool")),
    Case("laws.cubic.loss", cubic.loss, dict(cwnd=100.0, w_max=120.0),
         dict(cwnd="pos", w_max="nonneg", beta=OPEN_UNIT, fast_convergence="bool")),
    Case("laws.cubic.average_window", cubic.average_window,
         dict(loss_probability=0.001, round_trip=0.1),
         dict(loss_probability=OPEN_UNIT, round_trip="pos", c="pos", beta=OPEN_UNIT)),
]

# --------------------------------------------------------------------------- laws.prr
MODULE_CASES += [
    Case("laws.prr.sndcnt", prr.sndcnt,
         dict(prr_delivered=3.0, prr_out=1.0, delivered_data=1.0, pipe=8.0, ssthresh=7.0,
              recover_fs=10.0),
         dict(prr_delivered="nonneg", prr_out="nonneg", delivered_data="nonneg",
              pipe="nonneg", ssthresh="pos", recover_fs="pos", conservative="bool")),
    Case("laws.prr.sndcnt_ns3", prr.sndcnt_ns3,
         dict(prr_delivered=3.0, prr_out=1.0, delivered_data=1.0, pipe=8.0, ssthresh=7.0,
              recover_fs=10.0),
         dict(prr_delivered="nonneg", prr_out="nonneg", delivered_data="nonneg",
              pipe="nonneg", ssthresh="pos", recover_fs="pos", safe_ack="bool")),
    Case("laws.prr.recovery_sends", prr.recovery_sends,
         dict(delivered=(1.0, 1.0, 2.0), lost_in_flight=1.0, ssthresh=7.0, recover_fs=10.0),
         dict(delivered=("seq0", "nonneg"), lost_in_flight="nonneg", ssthresh="pos",
              recover_fs="pos", conservative="bool"),
         extra=(("lost above recover_fs", dict(lost_in_flight=20.0), RAISE,
                 "lost_in_flight"),)),
]

# --------------------------------------------------------------------------- analysis.aqm
_PLANT = aaqm.reno_plant(60, 3750.0, 0.2, 175.0)
_PI_LOOP = aaqm.pi_loop(60, 3750.0, 0.2, _PI_PARAMS)
_AQM_COMMON = dict(n_flows="pos", capacity="pos", propagation_delay="pos")
MODULE_CASES += [
    Case("analysis.aqm.reno_plant", aaqm.reno_plant,
         dict(n_flows=60, capacity=3750.0, propagation_delay=0.2, queue=175.0),
         dict(_AQM_COMMON, queue="nonneg")),
    Case("analysis.aqm.RenoPlant.response", _method(_PLANT, "response"),
         dict(omega=np.array([0.1, 1.0])), dict(omega="nonneg"), vector=("omega",),
         covers=(aaqm.RenoPlant.response,)),
    Case("analysis.aqm.red_operating_point", aaqm.red_operating_point,
         dict(n_flows=60, capacity=3750.0, propagation_delay=0.2, red=_RED_PARAMS),
         dict(_AQM_COMMON, red=("obj", laqm.RedParams),
              spacing=("choice", laqm.RED_SPACINGS))),
    Case("analysis.aqm.red_loop", aaqm.red_loop,
         dict(n_flows=60, capacity=3750.0, propagation_delay=0.2, red=_RED_PARAMS),
         dict(_AQM_COMMON, red=("obj", laqm.RedParams), averaging="pos",
              spacing=("choice", laqm.RED_SPACINGS)),
         none_ok=("averaging",), allow_inf=True,
         nan_ok=("crossover", "phase_margin")),   # documented: nan when |L| < 1 everywhere
    Case("analysis.aqm.pi_loop", aaqm.pi_loop,
         dict(n_flows=60, capacity=3750.0, propagation_delay=0.2, pi=_PI_PARAMS),
         dict(_AQM_COMMON, pi=("obj", laqm.PiParams)), allow_inf=True,
         nan_ok=("crossover", "phase_margin")),
    Case("analysis.aqm.red_stability_condition", aaqm.red_stability_condition,
         dict(n_flows=60, capacity=3750.0, round_trip=0.2467, red=_RED_PARAMS),
         dict(n_flows="pos", capacity="pos", round_trip="pos", red=("obj", laqm.RedParams),
              averaging="pos"), none_ok=("averaging",)),
    Case("analysis.aqm.AqmLoop.response", _method(_PI_LOOP, "response"),
         dict(omega=np.array([0.1, 1.0])), dict(omega="nonneg"), vector=("omega",),
         covers=(aaqm.AqmLoop.response,)),
    Case("analysis.aqm.AqmLoop.controller_response", _method(_PI_LOOP, "controller_response"),
         dict(omega=np.array([0.1, 1.0])), dict(omega="pos"), vector=("omega",),
         covers=(aaqm.AqmLoop.controller_response,)),
]
_RESULT = ("result record: built by ctlcc from checked inputs and returned to the user; "
           "its constructor stores what it is given")
MODULE_EXEMPT += [(aaqm.RenoPlant, _RESULT + " (reno_plant builds it)"),
                  (aaqm.AqmLoop, _RESULT + " (red_loop/pi_loop build it)")]

# --------------------------------------------------------------------------- sim.fluid (Pi, law=)
# "sim.fluid.simulate" (api_cases.py) probes every argument with Reno behind a drop-tail
# queue; these probe the paths the PI queue, RED and the user laws take ("skip": probed there)
_NET = fluid.network(3750.0, 800.0, 0.2, n_flows=60)
_SMALL_NET = fluid.network(1000.0, 100.0, 0.1, n_flows=2)
_SIM_SKIP = dict(net="skip", law="skip", aqm="skip", initial_queue="skip", record_every="skip")
MODULE_CASES += [
    Case("sim.fluid.simulate (Pi queue)", fluid.simulate,
         dict(net=_NET, law=fluid.Reno(initial_window=10.0), duration=1.0, dt=1e-3,
              aqm=fluid.Pi(_PI_PARAMS), record_every=100),
         dict(_SIM_SKIP, duration="pos", dt="pos", initial_queue="nonneg", record_every="int1"),
         covers=(fluid.simulate,), allow_inf=True,
         extra=(("dt above the PI's sampling period", dict(dt=0.05), FINITE, "dt"),)),
    Case("sim.fluid.simulate (Red queue)", fluid.simulate,
         dict(net=_SMALL_NET, law=fluid.Reno(), duration=1.0, dt=0.01,
              aqm=fluid.Red(10.0, 30.0, 0.1)),
         dict(_SIM_SKIP, duration="pos", dt="pos", aqm=("obj", fluid.Red)),
         covers=(fluid.simulate,), allow_inf=True),
    Case("sim.fluid.simulate (window law)", fluid.simulate,
         dict(net=_SMALL_NET, law=luser.pd_law(0.033, 0.368), duration=1.0, dt=0.01),
         dict(_SIM_SKIP, law=("obj", luser.WindowLaw), duration="pos", dt="pos"),
         covers=(fluid.simulate,)),
    Case("sim.fluid.simulate (rate law)", fluid.simulate,
         dict(net=_SMALL_NET, law=luser.primo_law(), duration=1.0, dt=0.01),
         dict(_SIM_SKIP, law=("obj", luser.RateLaw), duration="pos", dt="pos"),
         covers=(fluid.simulate,)),
]

# --------------------------------------------------------------------------- sweep
from ctlcc import sweep  # noqa: E402

from .api_cases import _TMP  # noqa: E402  (one temporary folder, removed at exit)

_SPEC_DICT = dict(kind="analysis", metrics=["spectral_radius"],
                  fixed={"loop": "stpd", "m": 3, "kd": 0.368}, grid={"kp": [0.033, 0.1]})
_SPEC = sweep.Spec(**_SPEC_DICT)
_SPEC_TOML = _TMP / "spec.toml"
_SPEC_TOML.write_text('kind = "analysis"\nmetrics = ["spectral_radius"]\n'
                      '[fixed]\nloop = "stpd"\nm = 3\nkd = 0.368\n[grid]\nkp = [0.033, 0.1]\n')
_BAD_SPEC_TOML = _TMP / "bad_spec.toml"
_BAD_SPEC_TOML.write_text('kind = "analysis"\nmetrics = [\n')
_NOT_PARQUET = _TMP / "not.parquet"
_NOT_PARQUET.write_text("not a parquet file")
_SWEEP_RESULT = sweep.run(_SPEC, jobs=1, progress=False)
_SWEEP_PARQUET = _TMP / "sweep.parquet"
sweep.run(_SPEC, out=_SWEEP_PARQUET, jobs=1, progress=False)


def _sweep_run(**kwargs):
    return sweep.run(**kwargs)


def _registered(register, remove):
    """register_kind/register_metric on a throw-away name, removed after the call."""
    def call(**kwargs):
        try:
            return register(**kwargs)
        finally:
            remove(kwargs)
    call.__name__ = register.__name__
    return call


def _drop_kind(kwargs):
    kind = kwargs.get("kind")
    if isinstance(kind, sweep.Kind) and sweep.KINDS.get(kind.name) is kind:
        del sweep.KINDS[kind.name]


def _drop_metric(kwargs):
    metric = kwargs.get("metric")
    if isinstance(metric, sweep.Metric) and isinstance(kwargs.get("kind"), str) \
            and kwargs["kind"] in sweep.KINDS:
        metrics = sweep.KINDS[kwargs["kind"]].metrics
        if metrics.get(metric.name) is metric:
            del metrics[metric.name]


def _evaluate(params, seed):
    return {"x": 1.0}


def _parameters(params):
    return (("a",), ())


def _seeded(params):
    return False


def _metric_value(outcome, params):
    return 1.0


_KIND = sweep.Kind("harness-kind", _evaluate, _parameters, _seeded)
_METRIC = sweep.Metric("harness-metric", _metric_value)
_SPEC_KINDS = tuple(sweep.KINDS)
MODULE_CASES += [
    Case("sweep.Spec", sweep.Spec, _SPEC_DICT,
         dict(kind=("choice", _SPEC_KINDS), metrics=("set", ("obj", str)), fixed=("obj", dict),
              grid=("obj", dict), points="skip", seeds="skip", seed="int0", name=("obj", str),
              description=("obj", str)),
         extra=(("seeds 0", dict(seeds=0), RAISE, "seeds"),
                ("seeds -1", dict(seeds=-1), RAISE, "seeds"),
                ("seeds True", dict(seeds=True), RAISE, "seeds"),
                ("seeds 2.5", dict(seeds=2.5), RAISE, "seeds"),
                ("seeds 1e308", dict(seeds=1e308), RAISE, "seeds"),
                ("seeds a str", dict(seeds="abc"), RAISE, "seeds"),
                ("seeds repeated", dict(seeds=[1, 1]), RAISE, "seeds"),
                ("seeds None", dict(seeds=None), RAISE, "seeds"),
                ("seeds of a deterministic kind", dict(seeds=2), RAISE, "seeds"),
                ("a point count beyond memory", dict(grid={f"kp": list(np.linspace(0.01, 0.5,
                                                                                  10))},
                                                     seeds=10**18), RAISE, "seeds"),
                ("unknown metric", dict(metrics=["colour"]), RAISE, "colour"),
                ("unknown axis", dict(grid={"gain": [0.1]}), RAISE, "gain"),
                ("empty axis", dict(grid={"kp": []}), RAISE, "kp"),
                ("axis a str", dict(grid={"kp": "0.1"}), RAISE, "kp"),
                ("axis repeats", dict(grid={"kp": [0.1, 0.1]}), RAISE, "kp"),
                ("axis nan", dict(grid={"kp": [0.1, float("nan")]}), RAISE, "kp"),
                ("axis and fixed", dict(fixed={"loop": "stpd", "m": 3, "kd": 0.368, "kp": 0.1}),
                 RAISE, "kp"),
                ("grid and points", dict(points=[{"kp": 0.1}]), RAISE, "points"),
                ("points empty", dict(grid=None, points=[]), RAISE, "points"),
                ("points of a float", dict(grid=None, points=[1.5]), RAISE, "points[0]"),
                ("points a str", dict(grid=None, points="kp"), RAISE, "points"),
                ("points nan", dict(grid=None, points=[{"kp": float("nan")}]), RAISE, "kp"),
                ("points given", dict(grid=None, points=[{"kp": 0.1}, {"kp": 0.2}]), FINITE,
                 "points"),
                ("a fixed value an object", dict(fixed={"loop": object()}), RAISE, "fixed"),
                # NaN equals nothing (no key or row can hold it); inf is kept, as
                # max_window = inf is a valid fluid parameter, and judged when the point runs
                ("a fixed value nan", dict(fixed={"loop": "stpd", "m": 3, "kd": float("nan")}),
                 RAISE, "fixed['kd']"))),
    Case("sweep.Spec.from_dict", sweep.Spec.from_dict, dict(data=_SPEC_DICT),
         dict(data=("obj", dict)),
         extra=(("unknown key", dict(data={**_SPEC_DICT, "colour": 1}), RAISE, "colour"),
                ("no kind", dict(data={"metrics": ["x"], "grid": {"kp": [1]}}), RAISE, "kind"),
                ("no metrics", dict(data={"kind": "analysis", "grid": {"kp": [1]}}), RAISE,
                 "metrics")),
         covers=(sweep.Spec.from_dict.__func__,)),
    Case("sweep.Spec.from_toml", sweep.Spec.from_toml, dict(path=str(_SPEC_TOML)),
         dict(path=("obj", str)),
         extra=(("missing file", dict(path=str(_TMP / "missing.toml")), RAISE, "path"),
                ("malformed toml", dict(path=str(_BAD_SPEC_TOML)), RAISE, "path"),
                ("a folder", dict(path=str(_TMP)), RAISE, "path"),
                ("a Path", dict(path=_SPEC_TOML), FINITE, "path")),
         covers=(sweep.Spec.from_toml.__func__,)),
    Case("sweep.Spec.params", _method(_SPEC, "params"), dict(row=next(_SPEC.rows())),
         dict(row=("obj", sweep.Row)), covers=(sweep.Spec.params,)),
    Case("sweep.load_spec", sweep.load_spec, dict(spec=_SPEC_DICT), dict(spec="skip"),
         extra=(("a float", dict(spec=1.5), RAISE, "spec"),
                ("None", dict(spec=None), RAISE, "spec"),
                ("a list", dict(spec=[_SPEC_DICT]), RAISE, "spec"),
                ("a missing file", dict(spec=str(_TMP / "missing.toml")), RAISE, "spec"),
                ("a file", dict(spec=str(_SPEC_TOML)), FINITE, "spec"),
                ("a Spec", dict(spec=_SPEC), FINITE, "spec"))),
    Case("sweep.run", _sweep_run, dict(spec=_SPEC, jobs=1, progress=False),
         dict(spec="skip", out="skip", client="skip", jobs="count", local_cluster="count",
              progress="bool", retry_failed="bool", overwrite="bool", connect_timeout="pos",
              batch_seconds="pos"),
         none_ok=("jobs", "local_cluster", "progress", "batch_seconds"),
         covers=(sweep.run,),
         extra=(("spec a float", dict(spec=1.5), RAISE, "spec"),
                ("spec a missing file", dict(spec=str(_TMP / "missing.toml")), RAISE, "spec"),
                ("out without a known suffix", dict(out=str(_TMP / "out.txt")), RAISE, "out"),
                ("out a float", dict(out=1.5), RAISE, "out"),
                ("out in a missing folder", dict(out=str(_TMP / "no" / "such" / "r.parquet")),
                 RAISE, "out"),
                ("out a folder", dict(out=str(_TMP)), RAISE, "out"),
                ("out not a parquet file", dict(out=str(_NOT_PARQUET)), RAISE, "out"),
                ("out unwritable", dict(out="/proc/ctlcc-harness.parquet"), RAISE, "out"),
                ("client a float", dict(client=1.5), RAISE, "client"),
                ("client not an address", dict(client="localhost"), RAISE, "client"),
                ("client and local_cluster", dict(client="tcp://localhost:1", local_cluster=1),
                 RAISE, "local_cluster"))),
    Case("sweep.SweepResult.column", _method(_SWEEP_RESULT, "column"), dict(name="kp"),
         dict(name=("choice", ("kp", "spectral_radius", "status"))),
         covers=(sweep.SweepResult.column,)),
    Case("sweep.read_results", sweep.read_results, dict(path=str(_SWEEP_PARQUET)),
         dict(path=("obj", str)),
         extra=(("missing file", dict(path=str(_TMP / "missing.parquet")), RAISE, "path"),
                ("not parquet", dict(path=str(_NOT_PARQUET)), RAISE, "path"),
                ("a folder", dict(path=str(_TMP)), RAISE, "path"))),
    Case("sweep.Kind", sweep.Kind,
         dict(name="k", evaluate=_evaluate, parameters=_parameters, seeded=_seeded),
         dict(name=("obj", str), evaluate="skip", parameters="skip", seeded="skip",
              metrics=("obj", dict), variant=("obj", str), open_metrics="bool",
              doc=("obj", str)),
         none_ok=("variant",),
         extra=(("evaluate not callable", dict(evaluate=1.5), RAISE, "evaluate"),
                ("parameters not callable", dict(parameters="abc"), RAISE, "parameters"),
                ("seeded not callable", dict(seeded=None), RAISE, "seeded"),
                ("name empty", dict(name=""), RAISE, "name"),
                ("a metric not a Metric", dict(metrics={"x": 1.5}), RAISE, "metrics"),
                ("a metric under another name", dict(metrics={"y": _METRIC}), RAISE,
                 "metrics"))),
    Case("sweep.Metric", sweep.Metric, dict(name="m", function=_metric_value),
         dict(name=("obj", str), function="skip", dtype=("choice", ("float", "int", "bool",
                                                                    "list")),
              unit=("obj", str), doc=("obj", str), variants=("set", ("obj", str))),
         none_ok=("variants",),
         extra=(("function not callable", dict(function=1.5), RAISE, "function"),
                ("name empty", dict(name=""), RAISE, "name"))),
    Case("sweep.get_kind", sweep.get_kind, dict(name="analysis"),
         dict(name=("choice", _SPEC_KINDS))),
    Case("sweep.register_kind", _registered(sweep.register_kind, _drop_kind),
         dict(kind=_KIND), dict(kind=("obj", sweep.Kind)), covers=(sweep.register_kind,)),
    Case("sweep.register_metric", _registered(sweep.register_metric, _drop_metric),
         dict(kind="analysis", metric=_METRIC),
         dict(kind=("choice", _SPEC_KINDS), metric=("obj", sweep.Metric)),
         covers=(sweep.register_metric,),
         extra=(("a metric the kind has", dict(metric=sweep.Metric("spectral_radius",
                                                                   _metric_value)),
                 RAISE, "metric"),)),
    Case("sweep.evaluate_batch", sweep.evaluate_batch,
         dict(kind="analysis", metrics=["spectral_radius"],
              items=[("k0", {"loop": "stpd", "m": 3, "kp": 0.033, "kd": 0.368}, None)]),
         dict(kind=("choice", _SPEC_KINDS), metrics=("set", ("obj", str)), items="skip"),
         extra=(("items a str", dict(items="abc"), RAISE, "items"),
                ("items None", dict(items=None), RAISE, "items"),
                ("an item not a triple", dict(items=[("k0", {})]), RAISE, "items[0]"),
                ("an item's params not a dict", dict(items=[("k0", 1.5, None)]), RAISE,
                 "items[0]"),
                ("no items", dict(items=[]), FINITE, "items"))),
]
MODULE_EXEMPT += [
    (sweep.Row, "record of one (point, seed) that Spec.rows builds from a checked spec"),
    (sweep.SweepResult, _RESULT + " (sweep.run builds it)"),
    (sweep.SweepInterrupted, "exception class: carries the partial SweepResult of an "
                             "interrupted run"),
    (sweep.SchedulerError, "exception class: nothing to validate"),
    (sweep.SpecMismatchError, "exception class: nothing to validate"),
]

# --------------------------------------------------------------------------- cores
# Arithmetic cores are exempt by design (see api_cases.py's _CORE_REASON): plain arithmetic
# compiled by numba into the packet engine, each with a validated wrapper that has a case.
from .api_cases import _CORE_REASON  # noqa: E402

for _module in (laqm, cubic, prr):
    MODULE_EXEMPT += [(getattr(_module, _name), _CORE_REASON) for _name in _module.__all__
                      if _name.endswith("_core")]

# --------------------------------------------------------------------------- sim.ns3_matrix
from ctlcc.sim import ns3_matrix  # noqa: E402

_MATRIX_NAMES = tuple(c.name for c in ns3_matrix.matrix_cases())
_MATRIX_CASE = ns3_matrix.matrix_case(_MATRIX_NAMES[0])
_MATRIX_METRICS = ("goodput_total", "share_ratio", "jain", "queue_mean", "retransmitted")
_N_FLOWS = 1 + max(max(group) for group in _MATRIX_CASE.groups)
MODULE_CASES += [
    Case("sim.ns3_matrix.matrix_case", ns3_matrix.matrix_case, dict(name=_MATRIX_NAMES[0]),
         dict(name=("choice", _MATRIX_NAMES))),
    Case("sim.ns3_matrix.tolerance", ns3_matrix.tolerance,
         dict(case=_MATRIX_CASE, metric="goodput_total", ns3_mean=9.0e6, ns3_se=1e4),
         dict(case=("obj", ns3_matrix.MatrixCase), metric=("choice", _MATRIX_METRICS),
              ns3_mean="real", ns3_se="nonneg")),
    Case("sim.ns3_matrix.metrics_of", ns3_matrix.metrics_of,
         dict(case=_MATRIX_CASE, goodputs=np.full(_N_FLOWS, 1e6), queue_mean=10.0,
              retransmitted=3.0),
         dict(case=("obj", ns3_matrix.MatrixCase), goodputs="skip", queue_mean="nonneg",
              retransmitted="nonneg"),
         allow_inf=True,   # share_ratio is +inf when the second group has no goodput (documented)
         extra=(("goodputs too short", dict(goodputs=[1e6]), RAISE, "goodputs"),
                ("goodputs negative", dict(goodputs=np.full(_N_FLOWS, -1.0)), RAISE,
                 "goodputs"),
                ("goodputs nan", dict(goodputs=np.full(_N_FLOWS, np.nan)), RAISE, "goodputs"),
                ("goodputs a str", dict(goodputs="abc"), RAISE, "goodputs"),
                ("goodputs None", dict(goodputs=None), RAISE, "goodputs"),
                ("goodputs 2-D", dict(goodputs=np.ones((2, _N_FLOWS))), RAISE, "goodputs"))),
]
MODULE_CASES += [
    Case("sim.ns3_matrix.MatrixCase.allowance", _method(_MATRIX_CASE, "allowance"),
         dict(metric="jain"), dict(metric=("choice", _MATRIX_METRICS)),
         covers=(ns3_matrix.MatrixCase.allowance,)),
    Case("sim.ns3_matrix.MatrixCase.scenario", _method(_MATRIX_CASE, "scenario"), dict(seed=0),
         dict(seed="int0"), covers=(ns3_matrix.MatrixCase.scenario,),
         allow_inf=True),   # a flow's stop = inf: it never stops (documented Flow default)
]
MODULE_EXEMPT += [(ns3_matrix.MatrixCase, "scenario record of the fixed matrix: built by ctlcc "
                                          "(matrix_cases/matrix_case), never from user input"),
                  (ns3_matrix.matrix_cases, "no arguments: the fixed scenario matrix")]

# --------------------------------------------------------------------------- plots
from matplotlib.axes import Axes  # noqa: E402

from ctlcc import plots  # noqa: E402


def _closing(func):
    """Call *func* and close any pyplot figure it opened (the harness makes hundreds)."""
    def call(**kwargs):
        import matplotlib.pyplot as plt
        try:
            return func(**kwargs)
        finally:
            plt.close("all")
    call.__name__ = func.__name__
    return call


_FIGSIZE_BAD = (("figsize a str", dict(figsize="abc"), RAISE, "figsize"),
                ("figsize one number", dict(figsize=(6.0,)), RAISE, "figsize"),
                ("figsize negative", dict(figsize=(-1.0, 4.0)), RAISE, "figsize"),
                ("figsize nan", dict(figsize=(np.nan, 4.0)), RAISE, "figsize"),
                ("figsize 1e308", dict(figsize=(1e308, 4.0)), RAISE, "figsize"),
                ("grid of axes beyond memory", dict(nrows=100, ncols=100), RAISE, "nrows"))
MODULE_CASES += [
    Case("plots.new_figure", plots.new_figure, dict(nrows=1, ncols=2),
         dict(nrows="count", ncols="count", figsize="skip"), extra=_FIGSIZE_BAD),
    Case("plots.pyplot_axes", _closing(plots.pyplot_axes), dict(nrows=1, ncols=2),
         dict(nrows="count", ncols="count", figsize="skip"), covers=(plots.pyplot_axes,),
         extra=_FIGSIZE_BAD + (("figsize None", dict(figsize=None), FINITE, "figsize"),)),
    Case("plots.get_axes", _closing(plots.get_axes), dict(ax=None),
         dict(ax=("obj", Axes)), none_ok=("ax",), covers=(plots.get_axes,)),
]
MODULE_EXEMPT += [(plots.ReportFigure, "report record: a section's finished figure, built by "
                                       "the section code, not from user input"),
                  (plots.ReportTable, "report record: a section's finished table, built by "
                                      "the section code, not from user input")]

# --------------------------------------------------------------------------- ledger
from ctlcc import claims as _claims, ledger  # noqa: E402

def _harness_claims():
    """Two claims of a real source (the analytic ST-PD ones, fast)."""
    claims, failure = ledger.run_source("stpd")
    assert failure is None, failure
    return claims[:2]


_SOME_CLAIMS = _harness_claims()
_LEDGER = ledger.Ledger(tuple(_SOME_CLAIMS), {c.id: "stpd" for c in _SOME_CLAIMS})
_LEDGER_CSV = _TMP / "claims.csv"
ledger.write_claims_csv(_LEDGER, _LEDGER_CSV)
_NOT_A_LEDGER = _TMP / "not_a_ledger.csv"
_NOT_A_LEDGER.write_text("a,b\n1,2\n")
_BINARY = _TMP / "binary.csv"
_BINARY.write_bytes(b"\xff\xfe\x00garbage")
_PAPERS = tuple(sorted({c.paper for c in _SOME_CLAIMS}))
MODULE_CASES += [
    Case("ledger.read_claims_csv", ledger.read_claims_csv, dict(path=str(_LEDGER_CSV)),
         dict(path=("obj", str)),
         extra=(("missing file", dict(path=str(_TMP / "missing.csv")), RAISE, "path"),
                ("a folder", dict(path=str(_TMP)), RAISE, "path"),
                ("not a ledger", dict(path=str(_NOT_A_LEDGER)), RAISE, "path"),
                ("not text", dict(path=str(_BINARY)), RAISE, "path"),
                ("a Path", dict(path=_LEDGER_CSV), FINITE, "path"))),
    Case("ledger.write_claims_csv", ledger.write_claims_csv,
         dict(ledger=_LEDGER, path=str(_TMP / "out.csv")),
         dict(ledger=("obj", ledger.Ledger), path=("obj", str)),
         extra=(("path unwritable", dict(path="/proc/ctlcc-claims.csv"), RAISE, "path"),
                ("path in a missing folder", dict(path=str(_TMP / "no" / "c.csv")), RAISE,
                 "path"),
                ("path a folder", dict(path=str(_TMP)), RAISE, "path"))),
    Case("ledger.format_table", ledger.format_table, dict(ledger=_LEDGER, width=120),
         # a narrow terminal is valid: the claim column keeps 20 characters, lines wrap
         dict(ledger=("obj", ledger.Ledger), width="count")),
    Case("ledger.format_value", ledger.format_value, dict(value=0.5, unit="Mb/s", spread=0.01),
         dict(value="skip", unit=("obj", str), spread="nonneg"), none_ok=("spread",),
         extra=(("value nan", dict(value=float("nan")), FINITE, "value"),   # "no value"
                ("value a str", dict(value="text"), FINITE, "value"))),
    Case("ledger.run_source", ledger.run_source, dict(source="stpd"),
         dict(source=("choice", tuple(ledger.source_names()))), run_base=False),
    Case("ledger.build_ledger", ledger.build_ledger, dict(sources=["stpd"]),
         dict(sources=("set", ("choice", tuple(ledger.source_names()))), log="skip"),
         none_ok=("sources",), run_base=False,
         extra=(("log not callable", dict(log=1.5), RAISE, "log"),)),
    Case("ledger.merge_claims", ledger.merge_claims, dict(batches=[("stpd", _SOME_CLAIMS)]),
         dict(batches="skip"),
         extra=(("a str", dict(batches="abc"), RAISE, "batches"),
                ("None", dict(batches=None), RAISE, "batches"),
                ("a batch not a pair", dict(batches=[("stpd",)]), RAISE, "batches[0]"),
                ("claims not Claims", dict(batches=[("stpd", [1.5])]), RAISE, "batches[0]"),
                ("one id twice", dict(batches=[("a", _SOME_CLAIMS[:1]), ("b", _SOME_CLAIMS[:1])]),
                 RAISE, "batches"))),
    Case("ledger.Ledger.counts", _method(_LEDGER, "counts"), dict(kind="paper"),
         dict(kind=("choice", ("paper", "consistency"))), none_ok=("kind",),
         covers=(ledger.Ledger.counts,)),
    Case("ledger.Ledger.totals", _method(_LEDGER, "totals"), dict(kind="paper"),
         dict(kind=("choice", ("paper", "consistency"))), none_ok=("kind",),
         covers=(ledger.Ledger.totals,)),
    Case("ledger.Ledger.filtered", _method(_LEDGER, "filtered"), dict(papers=list(_PAPERS)),
         dict(papers=("set", ("choice", tuple(ctlcc.references.REFERENCES))),
              verdicts=("set", ("choice", _claims.VERDICTS)),
              kinds=("set", ("choice", ("paper", "consistency")))),
         none_ok=("papers", "verdicts", "kinds"), covers=(ledger.Ledger.filtered,)),
]
MODULE_EXEMPT += [
    (ledger.Ledger, _RESULT + " (build_ledger/read_claims_csv build it)"),
    (ledger.LedgerSource, "registry record of the ledger's fixed sources (ledger.SOURCES)"),
    (ledger.SourceFailure, _RESULT + " (run_source builds it)"),
    (ledger.sources, "no arguments: the registered sources"),
    (ledger.source_names, "no arguments: the registered sources' names"),
    (ledger.report_items, "no arguments: the claims report section draws nothing"),
]

# --------------------------------------------------------------------------- report
# build_report runs every section (minutes): the case probes only its validation, with the
# sections replaced by a sentinel, so an argument that passes the checks shows as "ran".
from ctlcc import report  # noqa: E402


class _Ran(Exception):
    pass


def _build_report(**kwargs):
    def no_work(*args, **kw):
        raise _Ran()
    real = report._run_sections
    report._run_sections = no_work
    try:
        return report.build_report(**kwargs)
    except _Ran:
        return "ran: the arguments passed validation"
    finally:
        report._run_sections = real


_SECTIONS = tuple(report.section_names())
_A_FILE = _TMP / "a_file.txt"
_A_FILE.write_text("x")
MODULE_CASES += [
    Case("report.build_report", _build_report,
         dict(out_dir=str(_TMP / "report"), sections=["bounds"], jobs=1),
         dict(out_dir="skip", sections=("set", ("choice", _SECTIONS)), dpi="count", log="skip",
              jobs="count", formats=("set", ("choice", report.FORMATS)),
              style=("choice", report.STYLES), reuse="bool", force="bool", progress="skip"),
         none_ok=("sections", "jobs"), covers=(report.build_report,), run_base=False,
         extra=(("dpi below 30", dict(dpi=5), RAISE, "dpi"),
                ("dpi above 1200", dict(dpi=5000), RAISE, "dpi"),
                ("log not callable", dict(log=1.5), RAISE, "log"),
                ("progress not callable", dict(progress="abc"), RAISE, "progress"),
                ("out_dir a file", dict(out_dir=str(_A_FILE)), RAISE, "out_dir"),
                ("out_dir unwritable", dict(out_dir="/proc/ctlcc-report"), RAISE, "out_dir"),
                ("out_dir empty", dict(out_dir=""), RAISE, "out_dir"),
                ("out_dir a float", dict(out_dir=1.5), RAISE, "out_dir"))),
    Case("report.check_out_dir", report.check_out_dir, dict(out_dir=str(_TMP / "report2")),
         dict(out_dir="skip", force="bool"),
         extra=(("a file", dict(out_dir=str(_A_FILE)), RAISE, "out_dir"),
                ("under a file", dict(out_dir=str(_A_FILE / "r")), RAISE, "out_dir"),
                ("unwritable", dict(out_dir="/proc/ctlcc-report"), RAISE, "out_dir"),
                ("empty", dict(out_dir=""), RAISE, "out_dir"),
                ("None", dict(out_dir=None), RAISE, "out_dir"),
                ("a float", dict(out_dir=1.5), RAISE, "out_dir"),
                ("a folder of other files", dict(out_dir=str(_TMP)), RAISE, "out_dir"))),
]
MODULE_EXEMPT += [
    (report.ReportOutputError, "exception class (a ParameterError about --out)"),
    (report.SectionResult, _RESULT + " (a section's worker builds it)"),
    (report.ReportIndex, _RESULT + " (build_report builds it)"),
    (report.section_names, "no arguments: the report's sections"),
]

# --------------------------------------------------------------------------- sim.testing
from ctlcc.sim import testing as simtesting  # noqa: E402
from ctlcc.sim.senders import FixedWindow  # noqa: E402

_SENDER_CHOICES = ("reno", "newreno", "tahoe", "vegas", "stpd", "primo")


def _harness_method(name, **defaults):
    """Call SenderHarness.<name> on a fresh harness (a hook changes the flow's state)."""
    def call(**kwargs):
        h = simtesting.SenderHarness(FixedWindow(window=3), duration=10.0)
        h.start(now=0.0)
        return getattr(h, name)(**kwargs)
    call.__name__ = name
    return call


# compile the FixedWindow and Primo hooks once, outside the harness's per-call alarm
simtesting.SenderHarness(FixedWindow(window=3), duration=10.0).start(now=0.0)
simtesting.SenderHarness("primo", duration=10.0).start(now=0.0)
_F = dict(f="int0")
_F_BAD = (("f beyond the flows", dict(f=1), RAISE, "f"),)
MODULE_CASES += [
    Case("sim.testing.SenderHarness", simtesting.SenderHarness,
         dict(sender="reno", duration=10.0, seed=0),
         dict(sender=("choice", _SENDER_CHOICES), scenario=("obj", ctlcc.sim.scenarios.Scenario),
              duration="pos", seed="int0"),
         none_ok=("scenario",), run_base=True,
         extra=(("duration 1e308 (a duration the arrays cannot hold)", dict(duration=1e308),
                 RAISE, "duration"),)),
    Case("sim.testing.SenderHarness.state", _harness_method("state"), {}, _F, extra=_F_BAD,
         covers=(simtesting.SenderHarness.state,),
         # min_rtt is +inf until the first RTT sample; rate is NaN for a window-based sender
         allow_inf=True, nan_ok=("rate",)),
    Case("sim.testing.SenderHarness.start", _harness_method("start"), dict(now=0.0),
         dict(now="nonneg", **_F), extra=_F_BAD, covers=(simtesting.SenderHarness.start,)),
    Case("sim.testing.SenderHarness.ack", _harness_method("ack"), dict(seq=1, rtt=0.1, now=0.2),
         dict(seq="int0", rtt="pos", now="nonneg", retx="int0", flag="int0", aux1="real",
              aux2="real", ecn="int0", **_F),
         extra=_F_BAD + (("ecn beyond its four flag bits", dict(ecn=16), RAISE, "ecn"),),
         covers=(simtesting.SenderHarness.ack,)),
    Case("sim.testing.SenderHarness.timer", _harness_method("timer"), dict(now=1.0),
         dict(now="nonneg", **_F), extra=_F_BAD, covers=(simtesting.SenderHarness.timer,)),
    Case("sim.testing.SenderHarness.data", _harness_method("data"), dict(seq=0, now=0.1),
         dict(seq="int0", now="nonneg", sent_time="nonneg", retx="int0", flag="int0",
              aux1="real", aux2="real", ecn="int0", **_F), none_ok=("sent_time",),
         extra=_F_BAD + (("ecn beyond its four flag bits", dict(ecn=16), RAISE, "ecn"),),
         covers=(simtesting.SenderHarness.data,)),
    Case("sim.testing.SenderHarness.sent", _harness_method("sent"), {}, _F, extra=_F_BAD,
         covers=(simtesting.SenderHarness.sent,)),
    Case("sim.testing.SenderHarness.acks", _harness_method("acks"), {}, _F, extra=_F_BAD,
         covers=(simtesting.SenderHarness.acks,)),
    Case("sim.testing.SenderHarness.events", _harness_method("events"), {}, _F, none_ok=("f",),
         extra=_F_BAD, covers=(simtesting.SenderHarness.events,)),
    Case("sim.testing.SenderHarness.run", _harness_method("run"), dict(until=1.0),
         dict(until="nonneg"),
         extra=(("until beyond the duration", dict(until=11.0), RAISE, "until"),),
         covers=(simtesting.SenderHarness.run,)),
]


def _primo_method(name):
    """pace and step need a sender with those hooks (FixedWindow has neither): Primo has both."""
    def call(**kwargs):
        h = simtesting.SenderHarness("primo", duration=10.0)
        h.start(now=0.0)
        return getattr(h, name)(**kwargs)
    call.__name__ = name
    return call


MODULE_CASES += [
    Case("sim.testing.SenderHarness.pace", _primo_method("pace"), dict(now=0.5),
         dict(now="nonneg", **_F), extra=_F_BAD, covers=(simtesting.SenderHarness.pace,)),
    Case("sim.testing.SenderHarness.step", _primo_method("step"), dict(step=0, now=0.5),
         dict(step="int0", now="nonneg", **_F), extra=_F_BAD,
         covers=(simtesting.SenderHarness.step,)),
]

# --------------------------------------------------------------------------- sim.ns3
# ns-3 itself is an optional extra (not installed in CI's default job): run_ns3 and
# run_ns3_many are probed for their validation only (it comes before the check for ns-3).
from ctlcc.sim import ns3  # noqa: E402

_NS3_SCENARIO = ctlcc.sim.scenarios.single_bottleneck(protocol="newreno")
_NS3_PROTOCOLS = ("reno", "newreno", "cubic")
_FAMILIES = tuple(ns3.COMPARISON_FAMILIES)
MODULE_CASES += [
    Case("sim.ns3.Ns3Options", ns3.Ns3Options, {},
         dict(sack="bool", recovery=("choice", ("prr", "classic")), timestamps="bool",
              limited_transmit="bool", data_retries="count", del_ack_count="count",
              clock_granularity="pos", match_wire_time="bool"),
         none_ok=("limited_transmit",)),
    Case("sim.ns3.ns3_header_bytes", ns3.ns3_header_bytes, {}, dict(timestamps="bool")),
    Case("sim.ns3.wire_rate_scale", ns3.wire_rate_scale, dict(payload_bytes=1000, header_bytes=54),
         dict(payload_bytes="count", header_bytes="int0", timestamps="bool")),
    Case("sim.ns3.ns3_job", ns3.ns3_job, dict(scenario=_NS3_SCENARIO, duration=10.0),
         dict(scenario=("obj", ctlcc.sim.scenarios.Scenario), duration="pos", seed="int0",
              options=("obj", ns3.Ns3Options), trace="bool", warmup="nonneg",
              protocols="skip", queue_sample_interval="pos"),
         none_ok=("options",),
         extra=(("warmup beyond duration", dict(warmup=20.0), RAISE, "warmup"),
                ("protocols one too few", dict(protocols=[]), RAISE, "protocols"),
                ("protocols unknown", dict(protocols=["nope"]), RAISE, "protocols"))),
    Case("sim.ns3.run_ns3", ns3.run_ns3, dict(scenario=_NS3_SCENARIO, duration=10.0),
         dict(scenario=("obj", ctlcc.sim.scenarios.Scenario), duration="pos", seed="int0",
              options=("obj", ns3.Ns3Options), trace="bool", warmup="nonneg", isolate="bool",
              timeout="pos", queue_sample_interval="pos"),
         none_ok=("options", "timeout"), run_base=False),
    Case("sim.ns3.run_ns3_many", ns3.run_ns3_many, dict(runs=[(_NS3_SCENARIO, 10.0)]),
         dict(runs="skip", isolate="bool", timeout="pos"), none_ok=("timeout",), run_base=False,
         extra=(("runs a str", dict(runs="abc"), RAISE, "runs"),
                ("runs None", dict(runs=None), RAISE, "runs"),
                ("a run of one item", dict(runs=[(_NS3_SCENARIO,)]), RAISE, "runs[0]"),
                ("a run's duration nan", dict(runs=[(_NS3_SCENARIO, float("nan"))]), RAISE,
                 "duration"))),
    Case("sim.ns3.read_ns3_csv", ns3.read_ns3_csv, dict(name="ns3_fig3_7"),
         dict(name=("obj", str), data_dir="skip"),
         extra=(("unknown name", dict(name="nope"), RAISE, "name"),
                ("missing data_dir file", dict(data_dir=str(_TMP)), RAISE, "name"))),
    Case("sim.ns3.write_ns3_csv", ns3.write_ns3_csv,
         dict(path=str(_TMP / "ns3.csv"), rows=[{"a": 1.0}], provenance={"k": "v"}),
         dict(path=("obj", str), rows="skip", provenance="skip"),
         extra=(("provenance a list", dict(provenance=[1]), RAISE, "provenance"),
                ("provenance None", dict(provenance=None), RAISE, "provenance"),
                ("rows empty", dict(rows=[]), RAISE, "rows"),
                ("rows of floats", dict(rows=[1.5]), RAISE, "rows[0]"),
                ("rows with other keys", dict(rows=[{"a": 1}, {"b": 2}]), RAISE, "rows[1]"),
                ("path unwritable", dict(path="/proc/ctlcc-ns3.csv"), RAISE, "path"))),
    Case("sim.ns3.fig3_7_overlay", ns3.fig3_7_overlay, {},
         dict(buffer_case=("choice", ("sufficient", "insufficient")))),
    Case("sim.ns3.provenance", ns3.provenance, dict(ns3_version="3.44"),
         dict(options=("obj", ns3.Ns3Options), seeds=("seq0", "int0"), command=("obj", str),
              ns3_version=("obj", str)),
         none_ok=("options", "seeds", "command", "ns3_version")),
    Case("sim.ns3.comparison_cases", ns3.comparison_cases, dict(family="fig3_7"),
         dict(family=("choice", _FAMILIES), protocol=("choice", _NS3_PROTOCOLS), quick="bool"),
         allow_inf=True),   # flows' stop = inf: they never stop (documented Flow default)
    Case("sim.ns3.comparison_variants", ns3.comparison_variants, dict(family="loss"),
         dict(family=("choice", _FAMILIES))),
]
MODULE_EXEMPT += [
    (ns3.Ns3UnavailableError, "exception class: ns-3 is not installed"),
    (ns3.Ns3FlowStats, _RESULT + " (run_ns3 builds it)"),
    (ns3.Ns3QueueStats, _RESULT + " (run_ns3 builds it)"),
    (ns3.Ns3Traces, _RESULT + " (run_ns3 builds it)"),
    (ns3.Ns3Result, _RESULT + " (run_ns3 builds it)"),
    (ns3.Ns3Table, _RESULT + " (read_ns3_csv builds it)"),
    (ns3.ComparisonCase, _RESULT + " (comparison_cases builds it)"),
    (ns3.ns3_available, "no arguments: whether ns-3's bindings import"),
    (ns3.Ns3Table.where, "selection helper of a result table read from a shipped CSV: its "
                         "keyword filters are column names and values of that table"),
]

# --------------------------------------------------------------------------- cli
from ctlcc import cli  # noqa: E402

MODULE_EXEMPT += [
    (cli.main, "takes an argv list: every subcommand's bad arguments are probed by "
               "tests/test_cli_errors.py (exit status 2, one error line, no traceback)"),
    (cli.build_parser, "no arguments: the argparse parser that main uses"),
]

# --------------------------------------------------------------------------- experiments (shared)
# An experiment simulates for seconds to minutes: its cases probe only the validation, with the
# packet engine and the fluid integrator replaced by a sentinel, so an argument that passes the
# checks shows as "ran" (accepted silently when it should have been refused).
from ctlcc.sim import engine as _engine, fluid as _fluid  # noqa: E402
from ctlcc.sim.senders import PROTOCOLS as _SIM_PROTOCOLS  # noqa: E402


def _no_simulation(func):
    def call(**kwargs):
        def ran(*args, **kw):
            raise _Ran()
        real = _engine._Simulation, _fluid._integrate
        _engine._Simulation = _fluid._integrate = ran
        try:
            return func(**kwargs)
        except _Ran:
            return "ran: the arguments passed validation"
        finally:
            _engine._Simulation, _fluid._integrate = real
    call.__name__ = func.__name__
    return call


def _experiment(name, func, base=None, **kw):
    """A case of an experiment: validation only (run_base=False), the engine a sentinel."""
    return Case(name, _no_simulation(func), dict(base or {}), covers=(func,), run_base=False,
                **kw)


_PROTOCOL_SET = ("set", ("choice", _SIM_PROTOCOLS))
_SEEDS = ("set", "int0")
_LOSS = ("interval", 0.0, 1.0, "left")   # a loss probability in [0, 1)
_TIMES = dict(duration="pos", seed="int0", bin_width="pos")

# --------------------------------------------------------------------------- experiments.thesis
from ctlcc.experiments import thesis as xthesis  # noqa: E402

_WARMUP_BAD = (("warmup at duration", dict(duration=5.0, warmup=5.0), RAISE, "warmup"),)
MODULE_CASES += [
    _experiment("experiments.thesis.buffer_dimension", xthesis.buffer_dimension,
                kinds=dict(protocols=_PROTOCOL_SET, buffers=("seq", "count"), warmup="nonneg",
                           **_TIMES), extra=_WARMUP_BAD),
    _experiment("experiments.thesis.fixed_bottleneck", xthesis.fixed_bottleneck,
                kinds=dict(protocols=_PROTOCOL_SET, buffer="count", settle="nonneg",
                           band=OPEN_UNIT, window="pos", episode_gap="pos",
                           sweep_protocols=_PROTOCOL_SET, sweep_buffers=("seq", "count"),
                           **_TIMES)),
    _experiment("experiments.thesis.moving_bottleneck", xthesis.moving_bottleneck,
                kinds=dict(protocols=_PROTOCOL_SET, settle="nonneg", **_TIMES)),
    _experiment("experiments.thesis.fig3_21", xthesis.fig3_21,
                kinds=dict(protocol=("choice", _SIM_PROTOCOLS), buffer="count",
                           telnet_rate="pos")),
    _experiment("experiments.thesis.telnet_delay", xthesis.telnet_delay,
                kinds=dict(protocols=_PROTOCOL_SET, buffer="count", telnet_rate="pos",
                           warmup="nonneg", duration="pos", seed="int0"),
                extra=_WARMUP_BAD),
    _experiment("experiments.thesis.uniform_loss", xthesis.uniform_loss,
                kinds=dict(protocols=_PROTOCOL_SET, losses=("set", OPEN_UNIT), seeds=_SEEDS,
                           duration="pos", trace_loss=_LOSS, buffer="count")),
    Case("experiments.thesis.packet_burst_channel", xthesis.packet_burst_channel,
         dict(mean_burst=8.0, loss_ratio=0.01, packets=1000),
         dict(mean_burst="pos", loss_ratio=OPEN_UNIT, packets="count", seed="int0"),
         extra=(("mean_burst below one packet", dict(mean_burst=0.5), RAISE, "mean_burst"),
                ("good run below one packet", dict(mean_burst=1.0, loss_ratio=0.9), RAISE,
                 "loss_ratio"))),
    _experiment("experiments.thesis.bursty_loss", xthesis.bursty_loss,
                kinds=dict(protocols=_PROTOCOL_SET, seeds=_SEEDS, duration="pos",
                           mean_burst="pos", loss_ratio=OPEN_UNIT, buffer="count",
                           first="count", last="count",
                           channel=("choice", ("packets", "time"))),
                extra=(("last before first", dict(first=20, last=10), RAISE, "last"),)),
    _experiment("experiments.thesis.geo_burst", xthesis.geo_burst,
                kinds=dict(protocols=_PROTOCOL_SET, **_TIMES)),
    _experiment("experiments.thesis.fig6_1", xthesis.fig6_1,
                kinds=dict(protocols=("seq", ("choice", _SIM_PROTOCOLS)), starts=("seq", "nonneg"),
                           buffer="count", loss=_LOSS, loss_link=("choice", ("R1R2", "S2R1"))),
                none_ok=("loss",),
                extra=(("starts not one per protocol", dict(starts=(0.0,)), RAISE, "starts"),)),
    _experiment("experiments.thesis.mixed_reno", xthesis.mixed_reno,
                kinds=dict(duration="pos", buffer="count", seeds=_SEEDS, loss=_LOSS,
                           settle="nonneg", bin_width="pos", extra="skip"),
                extra=(("extra a str", dict(extra="cubic"), RAISE, "extra"),
                       ("extra holds the thesis's ST-PD", dict(extra=("stpd",)), RAISE, "extra"),
                       ("extra repeats", dict(extra=("cubic", "cubic")), RAISE, "extra"),
                       ("extra an unknown protocol", dict(extra=("nope",)), RAISE, "extra"))),
    _experiment("experiments.thesis.separate_bottlenecks", xthesis.separate_bottlenecks,
                kinds=dict(duration="pos", access_rate="pos", buffer="count", settle="nonneg",
                           bin_width="pos"),
                extra=(("access rate above half of R1R2", dict(access_rate=1e6), RAISE,
                        "access_rate"),
                       ("duration within the settling", dict(duration=6.0), RAISE, "duration"))),
    _experiment("experiments.thesis.mixed_reno_loss_sweep", xthesis.mixed_reno_loss_sweep,
                kinds=dict(losses=("set", OPEN_UNIT), seeds=_SEEDS, duration="pos",
                           buffer="count", loss_link=("choice", ("R1R2", "S2R1"))),
                extra=(("duration before S2D2 starts", dict(duration=4.0), RAISE, "duration"),)),
    _experiment("experiments.thesis.run_all", xthesis.run_all,
                kinds=dict(quick="bool", newreno="bool")),
    _experiment("experiments.thesis.claims", xthesis.claims,
                kinds=dict(results=("obj", dict), quick="bool"), none_ok=("results",),
                extra=(("unknown experiment", dict(results={"nope": 1}), RAISE, "results"),)),
    Case("experiments.thesis.published", xthesis.published, dict(claim_id=None),
         dict(claim_id=("choice", tuple(xthesis.published()))), none_ok=("claim_id",)),
]
MODULE_EXEMPT += [(getattr(xthesis, n), _RESULT) for n in (
    "ThesisRun", "BufferDimensionResult", "FixedBottleneckResult", "MovingBottleneckResult",
    "TelnetResult", "LossSweepResult", "BurstyLossResult", "GeoBurstResult", "MixedRenoResult",
    "SeparateBottlenecksResult", "MixedRenoSweepResult")]
_NEEDS_A_RUN = ("method of a result record: its instance holds the traces of a packet run "
                "(seconds of simulation to build); NOT probed by the harness")
MODULE_EXEMPT += [(xthesis.ThesisRun.delivered_between, _NEEDS_A_RUN),
                  (xthesis.ThesisRun.rate_between, _NEEDS_A_RUN),
                  (xthesis.ThesisRun.rtt_min_excess, _NEEDS_A_RUN),
                  (xthesis.ThesisRun.queue_after, _NEEDS_A_RUN),
                  (xthesis.ThesisRun.mean_waiting, _NEEDS_A_RUN),
                  (xthesis.ThesisRun.window_after, _NEEDS_A_RUN),
                  (xthesis.LossSweepResult.at, _NEEDS_A_RUN)]

# --------------------------------------------------------------------------- experiments.primo
from ctlcc.experiments import primo as xprimo  # noqa: E402
from ctlcc.sim.senders import Primo as _PrimoSpec  # noqa: E402

_PRIMO_PROTOCOLS = ("set", ("choice", _SIM_PROTOCOLS))
_PRIMO_OBJ = ("obj", _PrimoSpec)
_SCHEDULES = ("set", ("choice", ("together", "staggered")))
_PRIMO_TIMES = dict(duration="pos", warmup="nonneg", interval="pos", seed="int0")
MODULE_CASES += [
    Case("experiments.primo.published", xprimo.published, dict(claim_id=None),
         dict(claim_id=("choice", tuple(xprimo.published()))), none_ok=("claim_id",)),
    Case("experiments.primo.fig1_top", xprimo.fig1_top,
         dict(protocol="primo", parameter="delay", value=0.05, n=2, start=(0.0, 1.0)),
         dict(protocol=("choice", _SIM_PROTOCOLS), parameter=("choice", tuple(xprimo.PAPER_GRIDS)),
              value="pos", n="skip", start=("seq", "nonneg")), none_ok=("parameter", "value"),
         extra=(("n above the flows' bound", dict(n=10**6, start=0.0), RAISE, "n"),
                ("n a fraction", dict(n=2.5, start=0.0), RAISE, "n"),
                ("n zero", dict(n=0, start=0.0), RAISE, "n"),
                ("n a str", dict(n="2", start=0.0), RAISE, "n"),
                ("queue a fraction", dict(parameter="queue", value=2.5), RAISE, "value"),
                ("access_delay with one source",
                 dict(parameter="access_delay", n=1, start=0.0), RAISE, "n"),
                ("value without a parameter", dict(parameter=None), RAISE, "value")),
         allow_inf=True),   # a flow's stop time is inf: it never stops
    _experiment("experiments.primo.parameter_sweep", xprimo.parameter_sweep,
                dict(parameter="delay"),
                kinds=dict(parameter=("choice", tuple(xprimo.PAPER_GRIDS)), values=("set", "pos"),
                           protocols=_PRIMO_PROTOCOLS, primo=_PRIMO_OBJ,
                           aqm=("choice", ("red",)), **_PRIMO_TIMES),
                none_ok=("values", "primo", "aqm"), extra=_WARMUP_BAD),
    _experiment("experiments.primo.many_sources", xprimo.many_sources,
                kinds=dict(counts=("set", "count"), protocols=_PRIMO_PROTOCOLS,
                           schedules=_SCHEDULES, stagger="pos", primo=_PRIMO_OBJ,
                           **_PRIMO_TIMES),
                none_ok=("primo",), extra=_WARMUP_BAD + (
                    ("counts above the flows' bound", dict(counts=(10**6,)), RAISE, "counts"),)),
    _experiment("experiments.primo.primo_collapse", xprimo.primo_collapse,
                kinds=dict(n="count", stagger="nonneg", duration="pos", sample_interval="pos",
                           seed="int0", sender=_PRIMO_OBJ), none_ok=("sender",)),
    _experiment("experiments.primo.startup_diagnosis", xprimo.startup_diagnosis,
                kinds=dict(counts=("set", "count"),
                           readings=("set", ("choice", tuple(xprimo.READINGS))),
                           schedules=_SCHEDULES, stagger="pos", **_PRIMO_TIMES),
                none_ok=("readings",), extra=_WARMUP_BAD),
    _experiment("experiments.primo.interval_sensitivity", xprimo.interval_sensitivity,
                kinds=dict(parameter=("choice", tuple(xprimo.PAPER_GRIDS)), value="pos",
                           protocols=_PRIMO_PROTOCOLS, intervals=("set", "pos"),
                           duration="pos", warmup="nonneg", seed="int0"),
                extra=_WARMUP_BAD),
    _experiment("experiments.primo.primo_against_reno", xprimo.primo_against_reno,
                kinds=dict(buffers=("set", "count"),
                           orders=("set", ("choice", ("together", "primo_first", "reno_first"))),
                           duration="pos", seed="int0", interval="pos", primo=_PRIMO_OBJ,
                           against=("choice", _SIM_PROTOCOLS)), none_ok=("primo",)),
    _experiment("experiments.primo.multi_congestion", xprimo.multi_congestion,
                kinds=dict(protocols=_PRIMO_PROTOCOLS,
                           schedule=("choice", ("together", "staggered")), stagger="nonneg",
                           duration="pos", bin_width="pos", seed="int0", interval="pos",
                           primo=_PRIMO_OBJ), none_ok=("primo",)),
    Case("experiments.primo.interleaved_share", xprimo.interleaved_share, dict(factor=0.5),
         dict(factor=OPEN_UNIT)),
    Case("experiments.primo.red_for_buffer", xprimo.red_for_buffer, dict(buffer=20),
         dict(buffer="count"), extra=(("buffer of one packet", dict(buffer=1), RAISE, "buffer"),)),
    _experiment("experiments.primo.run_all", xprimo.run_all, kinds=dict(quick="bool")),
    _experiment("experiments.primo.claims", xprimo.claims,
                kinds=dict(results=("obj", dict), quick="bool"), none_ok=("results",)),
]
MODULE_EXEMPT += [(getattr(xprimo, n), _RESULT) for n in (
    "SweepResult", "ManySourcesResult", "CollapseResult", "StartupDiagnosis",
    "IntervalSensitivity", "MixedResult", "MultiCongestionResult")]
MODULE_EXEMPT += [(xprimo.SweepResult.mean, _NEEDS_A_RUN),
                  (xprimo.StartupDiagnosis.value, _NEEDS_A_RUN)]

# --------------------------------------------------------------------------- experiments.sttp
from ctlcc.experiments import sttp as xsttp  # noqa: E402

MODULE_CASES += [
    Case("experiments.sttp.sender", xsttp.sender, dict(name="STTP 9:1"),
         dict(name=("choice", xsttp.CONFIGS + xsttp.EXP1_PROTOCOLS))),
    Case("experiments.sttp.published", xsttp.published, dict(claim_id=None),
         dict(claim_id=("choice", tuple(xsttp.published()))), none_ok=("claim_id",)),
    _experiment("experiments.sttp.table2", xsttp.table2,
                kinds=dict(configs=("set", ("choice", xsttp.CONFIGS)), sources=("set", "count"),
                           duration="pos", start_interval="nonneg", seed="int0",
                           max_window="count"),
                extra=(("a source count above 64", dict(sources=(65,)), RAISE, "sources"),
                       ("max_window above the bound", dict(max_window=2**30), RAISE,
                        "max_window"))),
    _experiment("experiments.sttp.experiment1", xsttp.experiment1,
                kinds=dict(counts=("set", "count"),
                           protocols=("set", ("choice", xsttp.EXP1_PROTOCOLS)),
                           duration="pos", start_interval="nonneg", seed="int0",
                           max_window="count")),
    _experiment("experiments.sttp.run_all", xsttp.run_all, kinds=dict(quick="bool")),
    _experiment("experiments.sttp.claims", xsttp.claims,
                kinds=dict(results=("obj", dict), quick="bool"), none_ok=("results",)),
]
MODULE_CASES += [
    Case("experiments.sttp.table1_links", xsttp.table1_links,
         dict(network="2Mb 1ms, 1Mb 2ms, 2Mb 1ms"), dict(network=("obj", str)),
         extra=(("no unit", dict(network="2 1ms"), RAISE, "network"),
                ("unknown unit", dict(network="2Gb 1ms"), RAISE, "network"))),
    Case("experiments.sttp.serialisation_time", xsttp.serialisation_time,
         dict(size_bytes=64, rate_bps=64e3),
         dict(size_bytes=("interval", 0.0, 1e12, "both"),
              rate_bps=("interval", 0.0, 1e15, "right"))),
    _experiment("experiments.sttp.burst_timeline", xsttp.burst_timeline,
                kinds=dict(protocols=("set", ("choice", ("STTP", "Reno"))), packets="count",
                           resolution=("interval", 0.0, 0.01, "right")),
                extra=(("packets above 64", dict(packets=65), RAISE, "packets"),)),
    _experiment("experiments.sttp.bursty_source", xsttp.bursty_source,
                kinds=dict(duration=("interval", 2.0, 20000.0, "right"),
                           restart=("interval", 1.0, 20000.0, "both"), burst="count"),
                extra=(("duration before restart", dict(duration=1.5), RAISE, "duration"),)),
    _experiment("experiments.sttp.rtt_example", xsttp.rtt_example,
                kinds=dict(duration=("interval", 3.0, 200.0, "both"),
                           threshold=("interval", 0.0, 1.0, "neither"),
                           resolution=("interval", 0.0, 0.1, "right"))),
    _experiment("experiments.sttp.variants", xsttp.variants,
                kinds=dict(counts=("set", "count"),
                           duration=("interval", 0.0, xsttp.MAX_DURATION, "right"))),
    _experiment("experiments.sttp.join", xsttp.join,
                kinds=dict(configs=("set", ("choice", xsttp.CONFIGS)),
                           window=("interval", 0.0, 1e4, "right"),
                           start_interval=("interval", 0.0, 1e3, "both"))),
]
MODULE_EXEMPT += [(getattr(xsttp, n), _RESULT) for n in (
    "Table2Result", "Experiment1Result", "Table1Result", "PingResult", "BurstTimeline",
    "BurstySourceResult", "RttExampleResult", "VariantsResult", "JoinResult")]
MODULE_EXEMPT += [(xsttp.BurstTimeline.largest_burst, _NEEDS_A_RUN),
                  (xsttp.VariantsResult.goodput, _NEEDS_A_RUN),
                  (xsttp.ping_pair, "no arguments: §III-A's packet pair from the paper's set-up")]
MODULE_EXEMPT += [(xsttp.Table2Result.jain, _NEEDS_A_RUN),
                  (xsttp.published_table2, "no arguments: the paper's Table II"),
                  (xsttp.published_table3, "no arguments: the paper's Table III"),
                  (xsttp.table1, "no arguments: Table I from the paper's parameters")]

# --------------------------------------------------------------------------- experiments.cbraa
from ctlcc.experiments import cbraa as xcbraa  # noqa: E402
from ctlcc.sim.senders import Cbraa as _CbraaSpec  # noqa: E402

_CBRAA_OBJ = ("obj", _CbraaSpec)
MODULE_CASES += [
    Case("experiments.cbraa.published", xcbraa.published, dict(quantity=None),
         dict(quantity=("choice", tuple(xcbraa.published()))), none_ok=("quantity",)),
    _experiment("experiments.cbraa.fig3", xcbraa.fig3,
                kinds=dict(duration="pos", sender=_CBRAA_OBJ), none_ok=("sender",)),
    _experiment("experiments.cbraa.fig4", xcbraa.fig4,
                kinds=dict(duration="pos", arrival="nonneg", departures=("seq", "pos"),
                           sender=_CBRAA_OBJ), none_ok=("sender",),
                extra=(("one departure", dict(departures=(550.0,)), RAISE, "departures"),
                       ("departure before arrival", dict(departures=(100.0, 560.0)), RAISE,
                        "departures"))),
    _experiment("experiments.cbraa.fig5", xcbraa.fig5,
                kinds=dict(duration="pos", sender=_CBRAA_OBJ), none_ok=("sender",)),
    _experiment("experiments.cbraa.fig6", xcbraa.fig6,
                kinds=dict(duration="pos", bottleneck_delay="pos", sender=_CBRAA_OBJ,
                           tcp=("choice", ("reno", "newreno", "sack")), queue="skip",
                           seed="int0"),
                none_ok=("sender",),
                extra=(("queue a number", dict(queue=3), RAISE, "queue"),
                       ("queue an unknown name", dict(queue="pie"), RAISE, "queue"))),
    _experiment("experiments.cbraa.fig2", xcbraa.fig2,
                kinds=dict(protocols=("seq", ("choice", _SIM_PROTOCOLS)), duration="pos",
                           delay="pos", buffer="count"),
                extra=(("delay within the access links", dict(delay=0.01), RAISE, "delay"),)),
    _experiment("experiments.cbraa.run_all", xcbraa.run_all,
                kinds=dict(quick="bool", sender=_CBRAA_OBJ), none_ok=("sender",)),
    _experiment("experiments.cbraa.claims", xcbraa.claims,
                kinds=dict(results=("obj", dict), quick="bool", alternative=("obj", dict)),
                none_ok=("results", "alternative")),
    _experiment("experiments.cbraa.readings", xcbraa.readings,
                kinds=dict(betas=("set", PROB), quick="bool")),
    _experiment("experiments.cbraa.main", xcbraa.main, dict(path=str(_TMP / "cbraa.csv")),
                kinds=dict(path="skip", betas=("set", PROB)),
                extra=(("path a float", dict(path=1.5), RAISE, "path"),
                       ("path a folder", dict(path=str(_TMP)), RAISE, "path"),
                       ("path empty", dict(path=""), RAISE, "path"))),
]
MODULE_EXEMPT += [(xcbraa.RateRun, _RESULT), (xcbraa.RateRun.mean, _NEEDS_A_RUN),
                  (xcbraa.RateRun.cv, _NEEDS_A_RUN), (xcbraa.RateRun.reach_time, _NEEDS_A_RUN)]

# --------------------------------------------------------------------------- experiments.iftp
from ctlcc.experiments import iftp as xiftp  # noqa: E402

_PACING = ("choice", ("figure1", "continuous"))
MODULE_CASES += [
    Case("experiments.iftp.published", xiftp.published, dict(claim_id=None),
         dict(claim_id=("choice", tuple(xiftp.published()))), none_ok=("claim_id",)),
    _experiment("experiments.iftp.udp_unfairness", xiftp.udp_unfairness,
                kinds=dict(udp_rates=("set", "pos"), bottleneck_rate="pos", duration="pos",
                           seeds=_SEEDS)),
    _experiment("experiments.iftp.friendliness", xiftp.friendliness,
                kinds=dict(duration="pos", seeds=_SEEDS, tau="skip", bottleneck_rate="pos",
                           pacing=_PACING, S="pos"),
                extra=(("tau unknown name", dict(tau="abc"), RAISE, "tau"),
                       ("tau zero", dict(tau=0.0), RAISE, "tau"),
                       ("tau nan", dict(tau=float("nan")), RAISE, "tau"),
                       ("tau a list", dict(tau=[0.1]), RAISE, "tau"),
                       ("tau a bool", dict(tau=True), RAISE, "tau"))),
    _experiment("experiments.iftp.udp_losses", xiftp.udp_losses,
                kinds=dict(udp_rates=("set", "pos"), duration="pos", seeds=_SEEDS,
                           bottleneck_rate="pos", pacing=_PACING)),
    _experiment("experiments.iftp.bandwidth_delay", xiftp.bandwidth_delay,
                kinds=dict(bandwidths=("set", "pos"), delays=("set", "pos"), duration="pos",
                           seeds=_SEEDS, pacing=_PACING)),
    _experiment("experiments.iftp.run_all", xiftp.run_all, kinds=dict(quick="bool")),
    _experiment("experiments.iftp.claims", xiftp.claims,
                kinds=dict(results=("obj", dict), quick="bool"), none_ok=("results",)),
]
MODULE_EXEMPT += [(getattr(xiftp, n), _RESULT) for n in (
    "UdpUnfairness", "Friendliness", "UdpLosses", "BandwidthDelay")]
MODULE_EXEMPT += [(xiftp.published_tables, "no arguments: the paper's Tables II-IV")]

# --------------------------------------------------------------------------- experiments.aqm
from ctlcc.experiments import aqm as xaqm  # noqa: E402

_AQM_T = np.arange(0.0, 100.0, 0.02)
_AQM_Q = 5.0 + np.sin(2 * np.pi * _AQM_T / 4.0)
_SERIES_BAD = (("time and queue of different lengths", dict(queue=_AQM_Q[:-1]), RAISE, "queue"),
               ("time not increasing", dict(time=_AQM_T[::-1]), RAISE, "time"),
               ("one sample", dict(time=_AQM_T[:1], queue=_AQM_Q[:1]), RAISE, "time"),
               ("queue with nan", dict(queue=np.where(_AQM_T < 1, np.nan, _AQM_Q)), RAISE,
                "queue"),
               ("time a str", dict(time="abc"), RAISE, "time"),
               ("queue None", dict(queue=None), RAISE, "queue"))
MODULE_CASES += [
    Case("experiments.aqm.hollot_network", xaqm.hollot_network, dict(queue="droptail"),
         dict(queue="skip", n_flows="count", protocol=("choice", _SIM_PROTOCOLS)),
         allow_inf=True,   # a flow's stop time is inf: it never stops
         extra=(("queue unknown", dict(queue="fifo"), RAISE, "queue"),
                ("queue a float", dict(queue=1.5), RAISE, "queue"),
                ("queue None", dict(queue=None), RAISE, "queue"),
                ("n_flows above the bound", dict(n_flows=10**6), RAISE, "n_flows"))),
    Case("experiments.aqm.dominant_period", xaqm.dominant_period,
         dict(time=_AQM_T, queue=_AQM_Q),
         dict(time="skip", queue="skip", low="pos", high="pos"),
         extra=_SERIES_BAD + (("low above high", dict(low=30.0, high=20.0), RAISE, "low"),
                              ("band beyond the series", dict(low=1e3, high=2e3), RAISE,
                               "high"))),
    Case("experiments.aqm.autocorrelation_peak", xaqm.autocorrelation_peak,
         dict(time=_AQM_T, queue=_AQM_Q),
         dict(time="skip", queue="skip", low="pos", high="pos"),
         extra=_SERIES_BAD + (("low above high", dict(low=30.0, high=20.0), RAISE, "low"),)),
    Case("experiments.aqm.spread", xaqm.spread, dict(time=_AQM_T, queue=_AQM_Q),
         dict(time="skip", queue="skip", bin_width="pos"), extra=_SERIES_BAD),
    _experiment("experiments.aqm.hollot_checks", xaqm.hollot_checks,
                kinds=dict(seeds=_SEEDS, duration="pos",
                           settings=("set", ("choice", tuple(xaqm.SETTINGS)))),
                none_ok=("settings",),
                extra=(("duration within the 30-s warm-up", dict(duration=20.0), RAISE,
                        "duration"),)),
    _experiment("experiments.aqm.behind_aqm", xaqm.behind_aqm,
                kinds=dict(per_protocol="count", protocols=_PROTOCOL_SET, seeds=_SEEDS,
                           duration="pos", ecn="bool")),
]
MODULE_EXEMPT += [(xaqm.AqmCheck, _RESULT), (xaqm.BehindAqm, _RESULT),
                  (xaqm.default_checks, "no arguments: hollot_checks with its defaults")]

# --------------------------------------------------------------------------- experiments.baselines
from ctlcc.experiments import baselines as xbase  # noqa: E402

MODULE_CASES += [
    _experiment("experiments.baselines.thesis_comparisons", xbase.thesis_comparisons,
                kinds=dict(quick="bool")),
    _experiment("experiments.baselines.primo_criteria", xbase.primo_criteria,
                kinds=dict(quick="bool")),
    _experiment("experiments.baselines.lossy_sharing", xbase.lossy_sharing,
                kinds=dict(quick="bool")),
    _experiment("experiments.baselines.primo_many_sources", xbase.primo_many_sources,
                kinds=dict(quick="bool")),
    _experiment("experiments.baselines.primo_multi_congestion", xbase.primo_multi_congestion,
                kinds=dict(quick="bool")),
    _experiment("experiments.baselines.sharing", xbase.sharing,
                kinds=dict(pairs="skip", duration="pos", buffer="count", settle="nonneg"),
                extra=(("duration within the settle window", dict(duration=6.0), RAISE,
                        "duration"),
                       ("pairs a str", dict(pairs="reno"), RAISE, "pairs"),
                       ("a pair of one", dict(pairs=[("reno",)]), RAISE, "pairs[0]"),
                       ("an unknown protocol", dict(pairs=[("reno", "nope")]), RAISE,
                        "pairs[0][1]"),
                       ("a repeated pair", dict(pairs=[("reno", "stpd")] * 2), RAISE, "pairs"),
                       ("no pairs", dict(pairs=[]), RAISE, "pairs"))),
]
MODULE_EXEMPT += [(xbase.SharingResult, _RESULT)]

# ----------------------------------------------------------------- experiments.thesis_typed_claims
from ctlcc.experiments import thesis_typed_claims as xtyped  # noqa: E402

_TT = np.arange(0.0, 10.0, 0.5)
_SERIES_BAD_W = (("time and window of different lengths", dict(window=_TT[:-1] + 1), RAISE,
                  "window"),
                 ("time decreasing", dict(time=_TT[::-1]), RAISE, "time"),
                 ("window with nan", dict(window=np.where(_TT < 1, np.nan, _TT)), RAISE,
                  "window"),
                 ("time a str", dict(time="abc"), RAISE, "time"),
                 ("window None", dict(window=None), RAISE, "window"))
MODULE_CASES += [
    Case("experiments.thesis_typed_claims.overflow_windows", xtyped.overflow_windows,
         dict(time=_TT, window=_TT + 1, overflow_times=np.array([2.0, 2.1, 6.0])),
         dict(time="skip", window="skip", overflow_times="skip", after="nonneg", gap="pos"),
         extra=_SERIES_BAD_W + (
             ("overflow_times with nan", dict(overflow_times=np.array([np.nan])), RAISE,
              "overflow_times"),
             ("overflow_times a str", dict(overflow_times="abc"), RAISE, "overflow_times"),
             ("overflow_times 2-D", dict(overflow_times=np.ones((2, 2))), RAISE,
              "overflow_times"))),
    Case("experiments.thesis_typed_claims.stalls", xtyped.stalls,
         dict(time=_TT, delivered=np.minimum(_TT, 3.0), t0=0.0, t1=9.5),
         dict(time="skip", delivered="skip", t0="real", t1="real", gap="pos"),
         extra=(("t1 before t0", dict(t0=5.0, t1=1.0), RAISE, "t1"),
                ("time and delivered of different lengths", dict(delivered=_TT[:-1]), RAISE,
                 "delivered"),
                ("delivered with nan", dict(delivered=np.where(_TT < 1, np.nan, _TT)), RAISE,
                 "delivered"),
                ("time decreasing", dict(time=_TT[::-1]), RAISE, "time"))),
    _experiment("experiments.thesis_typed_claims.insufficient_buffer_overflow_window",
                xtyped.insufficient_buffer_overflow_window,
                kinds=dict(duration="pos", after="nonneg"),
                extra=(("after at the end", dict(duration=5.0, after=5.0), RAISE, "after"),)),
    _experiment("experiments.thesis_typed_claims.bursty_single_run_values",
                xtyped.bursty_single_run_values,
                kinds=dict(seeds=_SEEDS, duration="pos", mean_burst="pos",
                           loss_ratio=OPEN_UNIT, first="count", last="count"),
                extra=(("one seed", dict(seeds=(0,)), RAISE, "seeds"),
                       ("last before first", dict(first=20, last=10), RAISE, "last"))),
]

# ----------------------------------------------------------------- experiments.thesis_testbed
from ctlcc.experiments import thesis_testbed as xbed  # noqa: E402

_BED = xbed.build_testbed()
MODULE_CASES += [
    Case("experiments.thesis_testbed.serial_time", xbed.serial_time,
         dict(size_bytes=152, serial_rate=115.2e3), dict(size_bytes="count", serial_rate="pos"),
         extra=(("size_bytes above a packet", dict(size_bytes=10**18), RAISE, "size_bytes"),)),
    Case("experiments.thesis_testbed.ideal_rtt", xbed.ideal_rtt,
         dict(serial_rate=38.4e3, serial_delay=0.08),
         dict(serial_rate="pos", serial_delay="nonneg", queued="int0")),
    Case("experiments.thesis_testbed.build_testbed", xbed.build_testbed, {},
         dict(serial_rate="pos", serial_delay="nonneg", loss=_LOSS,
              protocol=("choice", _SIM_PROTOCOLS), flows="skip",
              second_start="nonneg", buffer="count", min_rto="pos"), allow_inf=True,
         extra=(("flows three", dict(flows=3), RAISE, "flows"),
                ("flows a str", dict(flows="2"), RAISE, "flows"),
                ("flows a float", dict(flows=1.5), RAISE, "flows"),
                ("flows a bool", dict(flows=True), RAISE, "flows"),
                ("flows None", dict(flows=None), RAISE, "flows"))),
    _experiment("experiments.thesis_testbed.transfer_times", xbed.transfer_times,
                dict(scenario=_BED, duration=10.0),
                kinds=dict(scenario=("obj", type(_BED)), duration="pos", seed="int0",
                           transfer_bytes="count", sample_interval="pos")),
    _experiment("experiments.thesis_testbed.lossless_transfer", xbed.lossless_transfer,
                dict(protocol="reno", serial_rate=38.4e3, serial_delay=0.08),
                kinds=dict(protocol=("choice", _SIM_PROTOCOLS), serial_rate="pos",
                           serial_delay="nonneg", buffer="count", duration="pos"),
                none_ok=("duration",)),
    _experiment("experiments.thesis_testbed.two_connections", xbed.two_connections,
                dict(protocol="reno"),
                kinds=dict(protocol=("choice", _SIM_PROTOCOLS), serial_rate="pos",
                           serial_delay="nonneg", second_start="nonneg", buffer="count",
                           duration="pos"),
                extra=(("second_start after the run", dict(second_start=500.0), RAISE,
                        "second_start"),)),
    _experiment("experiments.thesis_testbed.lossy_transfer", xbed.lossy_transfer,
                dict(protocol="reno", serial_delay=0.08, loss=0.01),
                kinds=dict(protocol=("choice", _SIM_PROTOCOLS), serial_delay="nonneg",
                           loss=_LOSS, seeds=_SEEDS, serial_rate="pos", buffer="count",
                           duration="pos"),
                extra=(("one seed", dict(seeds=(0,)), RAISE, "seeds"),)),
    Case("experiments.thesis_testbed.lcg_sequence", xbed.lcg_sequence, dict(n=1000),
         dict(n="count", a="int0", c="int0", m="skip", x0="int0", block="count"),
         extra=(("m below 2", dict(m=1), RAISE, "m"),
                ("m above 2**31 - 1", dict(m=2**40), RAISE, "m"),
                ("m a str", dict(m="abc"), RAISE, "m"), ("m nan", dict(m=float("nan")), RAISE, "m"),
                ("a >= m", dict(a=2**31), RAISE, "a"))),
    Case("experiments.thesis_testbed.lcg_moments", xbed.lcg_moments, dict(n=1000),
         dict(n="count", a="int0", c="int0", m="skip", x0="int0"),
         extra=(("m below 2", dict(m=1), RAISE, "m"), ("m a str", dict(m="abc"), RAISE, "m"))),
    Case("experiments.thesis_testbed.lcg_period", xbed.lcg_period, dict(a=3, m=7),
         dict(a="count", m="skip"),
         extra=(("m not prime", dict(m=8), RAISE, "m"), ("m a str", dict(m="abc"), RAISE, "m"),
                ("m None", dict(m=None), RAISE, "m"), ("m above 2**31 - 1", dict(m=2**61 - 1),
                                                        RAISE, "m"))),
]
MODULE_EXEMPT += [(xbed.TransferRun, _RESULT)]

# --------------------------------------------------------------------------- sim.criteria
from ctlcc.sim import criteria as scriteria  # noqa: E402

_CT = np.arange(11.0)
_CUM = np.outer(_CT, [10.0, 30.0])
MODULE_CASES += [
    Case("sim.criteria.five_criteria", scriteria.five_criteria,
         dict(time=_CT, sent=_CUM, delivered=_CUM, sent_total=[100.0, 300.0],
              lost_total=[0.0, 0.0], capacity=50.0),
         dict(time="skip", sent="skip", delivered="skip", sent_total="skip", lost_total="skip",
              capacity="pos", warmup="nonneg", interval="pos", starts="skip", stops="skip",
              crossing="skip", received="skip"),
         none_ok=("interval",),
         extra=(("time with nan", dict(time=np.where(_CT < 1, np.nan, _CT)), RAISE, "time"),
                ("time a str", dict(time="abc"), RAISE, "time"),
                ("sent with nan", dict(sent=np.where(_CUM > 50, np.nan, _CUM)), RAISE, "sent"),
                ("sent None", dict(sent=None), RAISE, "sent"),
                ("delivered with inf", dict(delivered=np.where(_CUM > 50, np.inf, _CUM)), RAISE,
                 "delivered"),
                ("delivered a str", dict(delivered="abc"), RAISE, "delivered"),
                ("sent_total one flow short", dict(sent_total=[100.0]), RAISE, "sent_total"),
                ("sent_total nan", dict(sent_total=[np.nan, 300.0]), RAISE, "sent_total"),
                ("lost_total negative", dict(lost_total=[-1.0, 0.0]), RAISE, "lost_total"),
                ("lost_total a str", dict(lost_total="abc"), RAISE, "lost_total"),
                ("warmup past the end", dict(warmup=20.0), RAISE, "warmup"),
                ("starts one flow short", dict(starts=[0.0]), RAISE, "starts"),
                ("starts nan", dict(starts=[np.nan, 0.0]), RAISE, "starts"),
                ("starts a str", dict(starts="abc"), RAISE, "starts"),
                ("stops before starts", dict(starts=[5.0, 5.0], stops=[1.0, 1.0]), RAISE,
                 "stops"),
                ("stops nan", dict(stops=[np.nan, 10.0]), RAISE, "stops"),
                ("crossing a str", dict(crossing="abc"), RAISE, "crossing"),
                ("crossing one flow short", dict(crossing=[True]), RAISE, "crossing"),
                ("crossing floats", dict(crossing=[0.5, 1.0]), RAISE, "crossing"),
                ("received one row", dict(received=_CUM[:1]), RAISE, "received"),
                ("received with nan", dict(received=np.where(_CUM > 50, np.nan, _CUM)), RAISE,
                 "received"),
                ("received a str", dict(received="abc"), RAISE, "received"),
                ("received decreasing", dict(received=_CUM[::-1]), RAISE, "received"))),
]
MODULE_EXEMPT += [
    (scriteria.PrimoCriteria, _RESULT + " (five_criteria builds it)"),
    (scriteria.UnknownCriterionError, "exception class (a KeyError naming the criteria)"),
    (scriteria.primo_criteria, "takes a packet run's result (seconds of simulation to build): "
                               "its arguments pass to five_criteria, probed above; NOT probed "
                               "itself"),
]

# --------------------------------------------------------------------------- sim.stpd_readings
from ctlcc.sim import stpd_readings as sreadings  # noqa: E402

_A_READING = {k: v[0] for k, v in sreadings.READINGS.items()}
MODULE_CASES += [
    Case("sim.stpd_readings.reading_spec", sreadings.reading_spec, dict(gains="fuzzy"),
         dict(gains=("choice", tuple(sreadings.GAIN_CHOICES)))),
    _experiment("sim.stpd_readings.fig4_8", sreadings.fig4_8,
                dict(sender="stpd", loss=0.01, seeds=(0, 1), duration=10.0),
                kinds=dict(sender=("obj", str), loss=_LOSS, seeds=_SEEDS, duration="pos"),
                none_ok=("loss",)),
    _experiment("sim.stpd_readings.geo", sreadings.geo, dict(sender="stpd"),
                kinds=dict(sender=("obj", str))),
    _experiment("sim.stpd_readings.evaluate", sreadings.evaluate,
                dict(readings=[_A_READING]),
                kinds=dict(seeds=_SEEDS, duration="pos", readings=("seq", ("obj", dict))),
                none_ok=("readings",),
                extra=(("one seed", dict(seeds=(0,)), RAISE, "seeds"),
                       ("a reading with an unknown value",
                        dict(readings=[{**_A_READING, "update": "never"}]), RAISE, "readings"),
                       ("a reading missing a key",
                        dict(readings=[{"gains": "fuzzy"}]), RAISE, "readings"))),
]
MODULE_EXEMPT += [(sreadings.main, "command-line entry (argparse: a bad flag exits 2 with its "
                                   "usage); its values go to evaluate, probed above")]

# --------------------------------------------------------------------------- site
from ctlcc import site as csite  # noqa: E402

_SITE_DIR = _TMP / "site"
_SITE_DIR.mkdir(exist_ok=True)
_OPTIONS = {"formats": ["png"], "dpi": 60, "style": "paper"}
_PROVENANCE = dict.fromkeys(csite._PROVENANCE, "x")
_OPTIONS_BAD = (("options a list", dict(options=[1]), RAISE, "options"),
                ("options unknown key", dict(options={"colour": 1}), RAISE, "options"),
                ("formats unknown", dict(options={"formats": ["gif"]}), RAISE, "formats"),
                ("formats a str", dict(options={"formats": "png"}), RAISE, "formats"),
                ("dpi 5", dict(options={"dpi": 5}), RAISE, "dpi"),
                ("dpi a str", dict(options={"dpi": "150"}), RAISE, "dpi"),
                ("style unknown", dict(options={"style": "poster"}), RAISE, "style"),
                ("out a float", dict(out=1.5), RAISE, "out"),
                ("out missing", dict(out=str(_TMP / "no-such-folder")), RAISE, "out"),
                ("out a file", dict(out=str(_A_FILE)), RAISE, "out"),
                ("ledger a dict", dict(ledger={}), RAISE, "ledger"),
                ("ledger None", dict(ledger=None), RAISE, "ledger"))
MODULE_CASES += [
    Case("site.write_site", csite.write_site,
         dict(out=str(_SITE_DIR), sections=(), ledger=_LEDGER, provenance=_PROVENANCE,
              options=_OPTIONS),
         dict(out="skip", sections="skip", ledger="skip", provenance=("obj", dict),
              options="skip"),
         run_base=False,   # renders every page (seconds): the refusals only
         extra=_OPTIONS_BAD + (("sections a str", dict(sections="abc"), RAISE, "sections"),
                               ("sections of floats", dict(sections=[1.5]), RAISE, "sections"),
                               ("sections None", dict(sections=None), RAISE, "sections"))),
    Case("site.evidence_links", csite.evidence_links,
         dict(evidence="fig_a; ctlcc.bounds.pftk_rate", items={}),
         dict(evidence=("obj", str), items=("obj", dict))),
    Case("site.summary_figure", csite.summary_figure,
         dict(out=str(_SITE_DIR), ledger=_LEDGER, options=_OPTIONS),
         dict(out="skip", ledger="skip", options="skip"), extra=_OPTIONS_BAD),
]
