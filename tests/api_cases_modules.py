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
              weight=PROB, gentle="bool", wait="bool", ecn="bool", hard_drop="bool"),
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
         dict(_AQM_COMMON, red=("obj", laqm.RedParams))),
    Case("analysis.aqm.red_loop", aaqm.red_loop,
         dict(n_flows=60, capacity=3750.0, propagation_delay=0.2, red=_RED_PARAMS),
         dict(_AQM_COMMON, red=("obj", laqm.RedParams), averaging="pos"),
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
