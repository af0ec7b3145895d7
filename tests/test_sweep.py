"""ctlcc.sweep: specs, kinds, storage, resumption after a kill, local vs Dask."""

import hashlib
import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pyarrow")

from ctlcc.cli import main  # noqa: E402
from ctlcc.errors import ParameterError  # noqa: E402
from ctlcc.sweep import (  # noqa: E402
    KINDS,
    Kind,
    Metric,
    SchedulerError,
    Spec,
    SpecMismatchError,
    load_spec,
    register_kind,
    run,
)

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples" / "sweeps").glob("*.toml"))


# --- helpers importable by worker processes ("function" kind) -------------------------------

def slow_point(x, delay=0.0, seed=None):
    """A point that takes *delay* seconds: 2x and one uniform draw from *seed*."""
    time.sleep(delay)
    return {"double": 2.0 * x, "draw": float(np.random.default_rng(seed).random())}


def failing_point(x):
    """Raises for negative x (a point-level failure)."""
    if x < 0:
        raise ValueError(f"x must be >= 0, got {x}")
    return {"root": math.sqrt(x)}


def _function_spec(n=6, delay=0.0, seeds=2, **extra):
    return Spec("function", ["double", "draw"],
                fixed={"function": "tests.test_sweep:slow_point", "delay": delay},
                grid={"x": [float(i) for i in range(n)]}, seeds=seeds, **extra)


def _stpd_spec():
    return Spec("analysis", ["spectral_radius", "stable"],
                fixed={"loop": "stpd", "model": "per_rtt", "m": 1},
                grid={"kp": [0.05, 0.368, 1.0, 2.5], "kd": [0.0, 0.033, 0.3]})


def _without_wall(table):
    return table.drop(["wall_time"])


# --- spec: order, keys, seeds, hash --------------------------------------------------------

def test_grid_rows_follow_product_order_first_axis_slowest():
    spec = Spec("analysis", ["spectral_radius"], fixed={"loop": "stpd", "m": 3},
                grid={"kp": [0.1, 0.2], "kd": [0.0, 0.05, 0.1]})
    rows = list(spec.rows())
    assert spec.size == 6 == len(rows)
    assert [(r.axes["kp"], r.axes["kd"]) for r in rows] == [
        (0.1, 0.0), (0.1, 0.05), (0.1, 0.1), (0.2, 0.0), (0.2, 0.05), (0.2, 0.1)]
    assert [r.point for r in rows] == list(range(6))
    assert all(r.seed is None for r in rows)         # a deterministic kind gets no seed


def test_keys_and_derived_seeds_are_recomputable_from_the_documented_recipe():
    # recipe (Spec docstring / _spec module): key = sha256("<axes json>|<replicate>")[:16];
    # seed = SeedSequence([seed, replicate, 4 uint32 words of sha256(axes json)]) >> 1
    spec = _function_spec(n=2, seeds=3, seed=7)
    for row in spec.rows():
        text = json.dumps(row.axes, sort_keys=True, separators=(",", ":"))
        assert row.key == hashlib.sha256(f"{text}|{row.replicate}".encode()).hexdigest()[:16]
        words = np.frombuffer(hashlib.sha256(text.encode()).digest()[:16], np.uint32).tolist()
        state = np.random.SeedSequence([7, row.replicate, *words]).generate_state(1, np.uint64)
        assert row.seed == int(state[0] >> np.uint64(1))
    assert len({r.seed for r in spec.rows()}) == spec.size        # independent streams


def test_explicit_seed_list_is_shared_by_every_point():
    spec = _function_spec(n=3, seeds=[11, 12])
    assert [r.seed for r in spec.rows()] == [11, 12] * 3


def test_hash_tracks_what_results_depend_on_not_labels():
    base = _function_spec()
    assert base.hash == _function_spec(name="renamed", description="x").hash
    assert base.hash != _function_spec(n=7).hash
    assert base.hash != _function_spec(seeds=3).hash
    assert base.hash != _function_spec(seed=1).hash


def test_points_list_and_toml_file(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('kind = "bound"\nmetrics = ["value"]\n[fixed]\nfunction = "mathis_rate"\n'
                    'rtt = 0.1\n[[points]]\np = 0.01\n[[points]]\np = 1e-3\n')
    spec = load_spec(path)
    assert spec.name == "s" and spec.size == 2
    assert [r.axes for r in spec.rows()] == [{"p": 0.01}, {"p": 1e-3}]


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_specs_load_and_are_in_the_user_guide(path):
    spec = load_spec(path)
    assert spec.size > 0
    assert f"examples/sweeps/{path.name}" in (ROOT / "docs" / "guide.md").read_text()


# --- bad input, before anything runs ---------------------------------------------------------

_STPD = {"kind": "analysis", "metrics": ["spectral_radius"], "fixed": {"loop": "stpd", "m": 3}}
_SIM = {"kind": "sim", "metrics": ["jain"], "fixed": {"preset": "thesis_fig4_7", "duration": 1.0}}
BAD_SPECS = [
    ({**_STPD, "grid": {"gain": [0.1]}}, "axis 'gain' is not a parameter of kind 'analysis'"
     r" \(loop='stpd'\); valid: 'kd', 'kp', 'loop', 'm', 'm_max', 'model'"),
    ({**_STPD, "grid": {"kp": [0.1]}}, r"needs parameter\(s\) 'kd'"),
    ({**_STPD, "metrics": ["radius"], "grid": {"kp": [0.1], "kd": [0.1]}},
     "metric 'radius' is not one of kind 'analysis': 'spectral_radius', 'stable'"),
    ({**_STPD, "metrics": ["primo_spectral_radius"], "grid": {"kp": [0.1], "kd": [0.1]}},
     "metric 'primo_spectral_radius' does not exist for loop='stpd'; valid: 'spectral_radius'"),
    ({**_STPD, "grid": {"kp": [], "kd": [0.1]}}, "grid axis 'kp' is empty"),
    ({**_STPD, "points": []}, "points is empty"),
    ({**_STPD}, "needs exactly one of grid .* and points"),
    ({**_STPD, "grid": {"kp": [0.1, 0.1], "kd": [0.1]}}, "grid axis 'kp' repeats a value"),
    ({**_STPD, "grid": {"kp": [0.1], "kd": [0.1]}, "seeds": 3}, "seeds must be 1 for kind"),
    ({**_SIM, "grid": {"loss": [0.01]}, "seeds": -2}, "seeds must be an integer >= 1"),
    ({**_SIM, "grid": {"loss": [0.01]}, "seeds": 0}, "seeds must be an integer >= 1"),
    ({**_SIM, "grid": {"protocol": ["reno", "bbr"]}},
     "protocol must be one of 'reno', 'newreno', 'tahoe', 'vegas', 'stpd', 'primo'.*'bbr'"),
    ({**_SIM, "fixed": {"preset": "fig9", "duration": 1.0}, "grid": {"loss": [0.01]}},
     "preset must be one of 'thesis_fig3_7_sufficient'.*got 'fig9'"),
    ({**_SIM, "grid": {"bottleneck_rate": [1e6]}},
     "axis 'bottleneck_rate' is not a parameter of kind 'sim'; valid: .*'buffer'"),
    ({**_SIM, "metrics": ["goodput"], "grid": {"loss": [0.01]}},
     "metric 'goodput' is not one of kind 'sim': 'goodput_bps'"),
    ({**_SIM, "kind": "ns2", "grid": {"loss": [0.01]}},
     "kind must be one of 'sim', 'fluid', 'analysis', 'bound', 'crosscheck', 'function'"),
    ({**_SIM, "grid": {"loss": [0.01]}, "axes": {}}, "unknown spec key\\(s\\) 'axes'"),
    ({**_SIM, "grid": {"kp": [0.1], "kd": [0.1]}},
     "kp and kd are ST-PD's gains; protocol must be 'stpd'"),
    ({**_SIM, "fixed": {**_SIM["fixed"], "protocol": "stpd"}, "grid": {"kp": [0.1]}},
     r"needs parameter\(s\) 'kd'"),
    ({"kind": "fluid", "metrics": ["queue_mean"],
      "fixed": {"law": "reno", "capacity": 100.0, "buffer": 10.0, "propagation_delay": 0.1,
                "duration": 1.0, "dt": 0.01}, "grid": {"kp": [0.1]}},
     "axis 'kp' is not a parameter of kind 'fluid' \\(law='reno'\\); valid: 'aqm'"),
    ({"kind": "analysis", "metrics": ["primo_spectral_radius"],
      "fixed": {"loop": "primo", "capacity": 100.0, "round_trip_time": 0.1},
      "grid": {"regime": ["moderate", "fast"]}},
     "regime must be one of 'strong', 'moderate', 'hold', 'release'; got 'fast'"),
    ({"kind": "bound", "metrics": ["value"], "fixed": {"function": "mathis"},
      "grid": {"p": [0.1]}}, "function must be one of 'mathis.mathis_constant'"),
]


@pytest.mark.parametrize("data, message", BAD_SPECS)
def test_bad_specs_fail_before_running_with_the_valid_choices(data, message):
    with pytest.raises(ParameterError, match=message):
        load_spec(data)


def test_bad_run_arguments(tmp_path):
    spec = _stpd_spec()
    with pytest.raises(ParameterError, match="out must end in .parquet or .csv"):
        run(spec, tmp_path / "r.txt", jobs=1, progress=False)
    with pytest.raises(ParameterError, match=r"jobs must be an integer >= 1 and <= 1024, got 0"):
        run(spec, jobs=0, progress=False)
    with pytest.raises(ParameterError, match="scheduler must be an address like"):
        run(spec, client="localhost", progress=False)
    assert list(tmp_path.iterdir()) == []


def test_unreachable_scheduler_is_named_and_nothing_is_written(tmp_path):
    import socket
    with socket.socket() as s:                      # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    with pytest.raises(SchedulerError, match=f"cannot reach the Dask scheduler at '{address}' "
                                             "within 2 s"):
        run(_stpd_spec(), tmp_path / "r.parquet", client=address, connect_timeout=2.0,
            progress=False)
    assert list(tmp_path.iterdir()) == []
    spec = tmp_path / "spec.toml"
    spec.write_text('kind = "bound"\nmetrics = ["value"]\n[fixed]\nfunction = "mathis_rate"\n'
                    'rtt = 0.1\n[grid]\np = [0.01]\n')
    out = tmp_path / "r.parquet"
    assert main(["sweep", str(spec), "--out", str(out), "--scheduler", address,
                 "--timeout", "2", "--quiet"]) == 3
    assert not out.exists() and not out.with_name("r.parquet.journal").exists()


# --- what the kinds compute -----------------------------------------------------------------

def test_analysis_rows_match_the_roots_of_the_per_rtt_polynomial():
    # thesis ST-PD window loop per round trip: z^2 - (1 - kp - kd) z - kd (Flow.stpd_gains
    # docstring); np.roots is the independent route, exact to rounding
    result = run(_stpd_spec(), jobs=1, progress=False)
    assert result.done == 12 and result.failed == 0
    for row in result.rows():
        kp, kd = row["kp"], row["kd"]
        radius = max(abs(np.roots([1.0, -(1.0 - kp - kd), -kd])))
        assert row["spectral_radius"] == pytest.approx(radius, rel=1e-9)
        assert row["stable"] == (radius < 1.0)


def test_bound_kind_and_a_failing_point_recorded_not_fatal(tmp_path):
    # Mathis et al.: rate = C / (RTT sqrt(p)) packets/s with mss = 1
    spec = Spec("bound", ["value"], fixed={"function": "mathis_rate", "rtt": 0.2, "C": 1.5},
                grid={"p": [0.01, 1e-4, -1.0]})
    result = run(spec, tmp_path / "b.parquet", jobs=1, progress=False)
    rows = result.rows()
    assert [r["status"] for r in rows] == ["done", "done", "failed"]
    assert rows[0]["value"] == pytest.approx(1.5 / (0.2 * 0.1), rel=1e-12)
    assert rows[1]["value"] == pytest.approx(1.5 / (0.2 * 0.01), rel=1e-12)
    assert rows[2]["value"] is None and rows[2]["error"].startswith("ParameterError: p must")
    assert (result.done, result.failed, result.failed_total) == (2, 1, 1)


def test_sim_kind_keeps_per_flow_lists_and_the_criteria():
    spec = Spec("sim", ["goodput_bps", "goodput_total_bps", "jain", "drops", "occupancy"],
                fixed={"scenario": "dumbbell", "n": 2, "duration": 3.0, "warmup": 1.0},
                points=[{"protocol": "reno"}])
    row = run(spec, jobs=1, progress=False).rows()[0]
    assert row["status"] == "done", row["error"]
    assert len(row["goodput_bps"]) == 2
    assert row["goodput_total_bps"] == pytest.approx(sum(row["goodput_bps"]), rel=1e-12)
    g = np.array(row["goodput_bps"])                   # Jain's index from its definition
    assert row["jain"] == pytest.approx(g.sum() ** 2 / (2 * (g ** 2).sum()), rel=1e-12)


def test_sim_gains_axis_is_the_stpd_sender_with_those_gains():
    # independent route: the same preset built with an explicit Stpd(gains=...) sender
    from ctlcc.sim import run as simulate
    from ctlcc.sim.scenarios import preset
    from ctlcc.sim.senders import Stpd
    spec = Spec("sim", ["goodput_total_bps", "drops"],
                fixed={"preset": "thesis_fig4_7", "protocol": "stpd", "loss": 1e-3,
                       "duration": 10.0},
                grid={"kp": [0.033, 0.368], "kd": [0.033]})
    rows = run(spec, jobs=1, progress=False).rows()
    for row in rows:
        scenario = preset("thesis_fig4_7", protocol=Stpd(gains=(row["kp"], row["kd"])),
                          loss=1e-3)
        direct = simulate(scenario, 10.0, seed=row["seed"], progress=False)
        assert row["goodput_total_bps"] == float(direct.goodputs_bps.sum())
        assert row["drops"] == sum(f.dropped for f in direct.flows)
    assert rows[0]["goodput_total_bps"] != rows[1]["goodput_total_bps"]


def test_fluid_kind_reaches_the_mgt_equilibrium_window():
    # Reno fluid (Misra-Gong-Towsley / Hollot) with a fixed marking probability p and an
    # unsaturated link: dW/dt = 1/R - W^2 p / (2R) = 0 gives W = sqrt(2/p), rate W / Tp
    # (empty queue, R = Tp).  p = 0.02 -> 10 packets per 0.1 s; p = 0.005 -> 20.
    spec = Spec("fluid", ["rate_mean", "queue_mean", "utilisation"],
                fixed={"law": "reno", "capacity": 1000.0, "buffer": 100.0,
                       "propagation_delay": 0.1, "aqm": "fixed", "duration": 30.0, "dt": 0.01,
                       "warmup": 20.0},
                grid={"probability": [0.02, 0.005]})
    rows = run(spec, jobs=1, progress=False).rows()
    for row in rows:
        rate = math.sqrt(2.0 / row["probability"]) / 0.1
        # converged by t = 20 s (the window's time constant is a few round trips)
        assert row["rate_mean"] == pytest.approx(rate, rel=1e-3)
        assert row["utilisation"] == pytest.approx(rate / 1000.0, rel=1e-3)
        assert row["queue_mean"] == 0.0


def test_crosscheck_row_is_the_check_run_with_the_rows_seed():
    from ctlcc import crosscheck
    spec = Spec("crosscheck", ["max_abs_error", "predicted", "measured"],
                fixed={"check": "reno_pftk", "probabilities": [0.01], "duration": 10.0},
                points=[{}])
    row = run(spec, jobs=1, progress=False).rows()[0]
    direct = crosscheck.reno_pftk(probabilities=[0.01], duration=10.0, seeds=(row["seed"],))
    assert row["max_abs_error"] == float(np.max(np.abs(direct.measured - direct.predicted)))
    assert row["predicted"] == direct.predicted.tolist()
    assert row["measured"] == direct.measured.tolist()


def test_user_guide_lists_every_metric_of_the_builtin_kinds():
    readme = (ROOT / "docs" / "guide.md").read_text()
    for name in ("sim", "fluid", "analysis", "bound", "crosscheck"):
        for metric in KINDS[name].metrics:
            assert f"`{metric}`" in readme, (name, metric)


def test_a_new_kind_is_one_registration():
    kind = register_kind(Kind("square", lambda params, seed: params["x"] ** 2,
                              lambda params: ({"x"}, {"x"}), lambda params: False,
                              {"value": Metric("value", lambda o, p: float(o))}))
    try:
        result = run(Spec("square", ["value"], grid={"x": [1, 2, 3]}), jobs=1, progress=False)
        assert [r["value"] for r in result.rows()] == [1.0, 4.0, 9.0]
    finally:
        KINDS.pop(kind.name)


# --- storage and resumption ------------------------------------------------------------------

@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_rerun_skips_everything_and_returns_the_same_table(tmp_path, suffix):
    spec = _function_spec(n=4)
    out = tmp_path / f"r{suffix}"
    first = run(spec, out, jobs=1, progress=False)
    again = run(spec, out, jobs=1, progress=False)
    assert (first.done, again.done, again.skipped) == (8, 0, 8)
    assert again.table.equals(first.table)            # wall times too: nothing re-ran
    assert not out.with_name(out.name + ".journal").exists()


def test_list_columns_survive_csv(tmp_path):
    spec = Spec("sim", ["goodput_bps"], fixed={"scenario": "dumbbell", "n": 2, "duration": 1.0},
                points=[{"protocol": "reno"}])
    first = run(spec, tmp_path / "r.csv", jobs=1, progress=False)
    again = run(spec, tmp_path / "r.csv", jobs=1, progress=False)
    assert again.table.equals(first.table) and len(first.rows()[0]["goodput_bps"]) == 2


def test_changed_spec_is_detected_not_mixed(tmp_path):
    out = tmp_path / "r.parquet"
    run(_function_spec(n=3), out, jobs=1, progress=False)
    with pytest.raises(SpecMismatchError, match="holds results of a different spec"):
        run(_function_spec(n=4), out, jobs=1, progress=False)
    assert run(_function_spec(n=4), out, jobs=1, progress=False, overwrite=True).done == 8


def test_retry_failed_reruns_only_failed_rows(tmp_path):
    spec = Spec("function", ["root"], fixed={"function": "tests.test_sweep:failing_point"},
                grid={"x": [4.0, -1.0]})
    out = tmp_path / "r.parquet"
    first = run(spec, out, jobs=1, progress=False)
    assert (first.done, first.failed) == (1, 1)
    assert "ValueError: x must be >= 0" in first.rows()[1]["error"]
    again = run(spec, out, jobs=1, progress=False, retry_failed=True)
    assert (again.done, again.failed, again.skipped, again.table.num_rows) == (0, 1, 1, 2)


def test_torn_journal_line_is_run_again(tmp_path):
    spec = _function_spec(n=3, seeds=1)
    out = tmp_path / "r.parquet"
    reference = run(spec, jobs=1, progress=False).table
    journal = out.with_name(out.name + ".journal")
    rows = reference.to_pylist()
    journal.write_text(json.dumps({"ctlcc_sweep_journal": 1, "spec_hash": spec.hash}) + "\n"
                       + json.dumps(rows[0]) + "\n" + json.dumps(rows[1])[:25])
    result = run(spec, out, jobs=1, progress=False)
    assert (result.skipped, result.done) == (1, 2)
    assert _without_wall(result.table).equals(_without_wall(reference))


def _default_sigint():
    """Ctrl-C as a terminal delivers it: a shell that starts pytest in the background (no job
    control) ignores SIGINT, and an ignored signal stays ignored across exec."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _cli(*args, **kwargs):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "ctlcc", "sweep", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_default_sigint, **kwargs)


def _journal_rows(journal):
    if not journal.exists():
        return 0
    return max(0, journal.read_text().count("\n") - 1)


def _kill_when_rows(proc, journal, rows, sig, limit=120.0):
    start = time.monotonic()
    while _journal_rows(journal) < rows:
        if proc.poll() is not None or time.monotonic() - start > limit:
            out, err = proc.communicate()
            pytest.fail(f"sweep ended or stalled before {rows} rows: rc={proc.returncode} {err}")
        time.sleep(0.05)
    proc.send_signal(sig)
    return proc.communicate(timeout=60)


@pytest.mark.parametrize("jobs", [pytest.param("1", marks=pytest.mark.slow), "2"])
def test_sigkill_mid_run_then_rerun_loses_and_duplicates_nothing(tmp_path, jobs):
    spec = _function_spec(n=20, delay=0.05, seeds=2)          # 40 rows of >= 50 ms
    path = tmp_path / "spec.toml"
    path.write_text('kind = "function"\nmetrics = ["double", "draw"]\nseeds = 2\n[fixed]\n'
                    'function = "tests.test_sweep:slow_point"\ndelay = 0.05\n[grid]\n'
                    f'x = {[float(i) for i in range(20)]}\n')
    assert load_spec(path).hash == spec.hash
    out = tmp_path / "r.parquet"
    journal = out.with_name(out.name + ".journal")
    proc = _cli(str(path), "--out", str(out), "--jobs", jobs, "--quiet")
    _kill_when_rows(proc, journal, 6, signal.SIGKILL)
    assert proc.returncode == -signal.SIGKILL
    assert not out.exists()                               # killed: no consolidation ran
    kept = _journal_rows(journal)
    assert 6 <= kept < 40
    rerun = _cli(str(path), "--out", str(out), "--jobs", jobs, "--quiet")
    stdout, stderr = rerun.communicate(timeout=300)
    assert rerun.returncode == 0, stderr
    result = run(spec, out, jobs=1, progress=False)            # everything already there
    assert (result.done, result.skipped) == (0, 40)
    keys = result.table.column("key").to_pylist()
    assert len(keys) == len(set(keys)) == 40
    assert set(result.table.column("status").to_pylist()) == {"done"}
    reference = run(spec, jobs=1, progress=False).table
    assert _without_wall(result.table).equals(_without_wall(reference))
    assert f"{40 - kept} done, {kept} skipped, 0 failed" in stdout


def test_sigint_writes_the_finished_rows_and_exits_130(tmp_path):
    path = tmp_path / "spec.toml"
    path.write_text('kind = "function"\nmetrics = ["double"]\n[fixed]\n'
                    'function = "tests.test_sweep:slow_point"\ndelay = 0.05\n[grid]\n'
                    f'x = {[float(i) for i in range(40)]}\n')
    out = tmp_path / "r.csv"
    proc = _cli(str(path), "--out", str(out), "--jobs", "2", "--quiet")
    _, stderr = _kill_when_rows(proc, out.with_name(out.name + ".journal"), 4, signal.SIGINT)
    assert proc.returncode == 130, stderr
    assert "interrupted" in stderr and "rerun the same command to resume" in stderr
    assert "Traceback" not in stderr
    partial = run(load_spec(path), out, jobs=1, progress=False)
    assert partial.skipped >= 4 and partial.done + partial.skipped == 40


# --- the command line -------------------------------------------------------------------------

def test_cli_exit_status_and_summary(tmp_path, capsys):
    path = tmp_path / "spec.toml"
    path.write_text('kind = "bound"\nmetrics = ["value"]\n[fixed]\nfunction = "mathis_rate"\n'
                    'rtt = 0.1\n[grid]\np = [0.01, -1.0]\n')
    assert main(["sweep", str(path), "--out", str(tmp_path / "r.parquet"), "--jobs", "1",
                 "--quiet"]) == 1
    captured = capsys.readouterr()
    assert "2 rows: 1 done, 0 skipped, 1 failed" in captured.out
    assert "failed at point(s) 1: ParameterError: p must be in (0, 1]" in captured.err
    path.write_text('kind = "bound"\nmetrics = ["value"]\n[fixed]\nfunction = "mathis_rate"\n'
                    'rtt = 0.1\n[grid]\nq = [0.01]\n')
    with pytest.raises(SystemExit) as exit_info:
        main(["sweep", str(path), "--out", str(tmp_path / "s.parquet"), "--quiet"])
    assert exit_info.value.code == 2
    assert "axis 'q' is not a parameter of kind 'bound' (function='mathis_rate')" \
        in capsys.readouterr().err


# --- same table whichever way it ran -------------------------------------------------------------

def test_local_processes_and_local_cluster_give_identical_tables(tmp_path):
    pytest.importorskip("distributed")
    spec = Spec("sim", ["goodput_bps", "drops", "loss_event_rate", "queue_mean"],
                fixed={"preset": "thesis_fig3_7_sufficient", "duration": 3.0},
                grid={"protocol": ["reno", "stpd"], "loss": [0.005, 0.02]}, seeds=2)
    inline = run(spec, jobs=1, progress=False)
    processes = run(spec, tmp_path / "p.parquet", jobs=2, progress=False)
    cluster = run(spec, tmp_path / "c.parquet", local_cluster=2, progress=False)
    assert cluster.backend == "dask" and cluster.workers == 2
    assert inline.failed_total == 0
    reference = _without_wall(inline.table)
    assert _without_wall(processes.table).equals(reference)
    assert _without_wall(cluster.table).equals(reference)
    # the seeds matter: the two seeds of a lossy point differ
    drops = inline.column("drops").reshape(4, 2)
    assert np.any(drops[:, 0] != drops[:, 1])
