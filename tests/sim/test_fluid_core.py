"""Fluid engine: inputs, batching, saturation and drop accounting, networks, accuracy."""

import numpy as np
import pytest

from ctlcc.errors import ParameterError
from ctlcc.laws.aqm import PiParams
from ctlcc.laws.primo import PrimoParams
from ctlcc.sim import fluid

NET = fluid.network(1000.0, 100.0, 0.1)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: fluid.network(0.0, 10.0, 0.1), r"capacity must be in \(0, inf\)"),
        (lambda: fluid.network(10.0, np.inf, 0.1), r"buffer must be in \(0, inf\)"),
        (lambda: fluid.network(10.0, 10.0, -0.1), r"propagation_delay must be in \(0, inf\)"),
        (lambda: fluid.network(10.0, 10.0, 0.1, n_flows=0), r"n_flows must be in \(0, inf\)"),
        (lambda: fluid.network([1.0, 2.0], 10.0, [0.1, 0.2, 0.3]), r"same batch length"),
        (lambda: fluid.network(10.0, 10.0, 0.1, routes=[[1, 2]]), r"routes must be .* 0/1"),
        (lambda: fluid.network(10.0, 10.0, [0.1, 0.1], routes=[[1, 0]]),
         r"every flow class must cross at least one link"),
        (lambda: fluid.network(10.0, 10.0, [0.1, 0.1, 0.1], routes=[[1, 1]]),
         r"propagation_delay must have shape \(\), \(2,\) or \(batch, 2\)"),
        (lambda: fluid.simulate(NET, fluid.Reno(), 1.0, 0.2), r"dt must be in \(0, 0.1\]"),
        (lambda: fluid.simulate(NET, fluid.Reno(), 1.0, 0.0), r"dt must be in \(0, inf\)"),
        (lambda: fluid.simulate(NET, fluid.Reno(), 0.0, 0.01), r"duration must be in \(0, inf\)"),
        (lambda: fluid.simulate(NET, fluid.Reno(), 1.0, 0.01, record_every=0),
         r"record_every must be an integer >= 1"),
        (lambda: fluid.simulate(NET, fluid.Reno(), 1.0, 0.01, initial_queue=101.0),
         r"initial_queue must be in \[0, buffer\]"),
        (lambda: fluid.simulate(NET, fluid.Reno(), 1.0, 0.01, initial_queue=-1.0),
         r"initial_queue must be in \[0, inf\)"),
        (lambda: fluid.simulate("net", fluid.Reno(), 1.0, 0.01), r"net must be a FluidNetwork"),
        (lambda: fluid.simulate(NET, "reno", 1.0, 0.01), r"law must be Reno, Stpd, Primo, a ctlcc.WindowLaw or a ctlcc.RateLaw"),
        (lambda: fluid.simulate(NET, fluid.Reno(), 1.0, 0.01, aqm="red"),
         r"aqm must be DropTail, Red, Pi or FixedMarking"),
        (lambda: fluid.simulate(NET, fluid.Stpd(0.1, 0.1, delay=0.001), 1.0, 0.01),
         r"delay must be >= dt"),
        (lambda: fluid.simulate(NET, fluid.Reno(), 1.0, 0.01,
                                aqm=fluid.FixedMarking(lambda t: 2.0)),
         r"probability must be in \[0, 1\]"),
        (lambda: fluid.Red(100, 50, 0.1), r"min_threshold must be < max_threshold"),
        (lambda: fluid.Red(10, 50, 0.0), r"max_probability must be in \(0, 1\]"),
        (lambda: fluid.Red(10, 50, 0.1, averaging=-1.0), r"averaging must be in \(0, inf\)"),
        (lambda: fluid.Red(10, 50, 0.1, min_queue=-1.0), r"min_queue must be in \[0, inf\)"),
        (lambda: fluid.FixedMarking(1.5), r"probability must be in \[0, 1\]"),
        (lambda: fluid.Reno(initial_window=0.0), r"initial_window must be in \(0, inf\)"),
        (lambda: fluid.Reno(min_window=5.0, max_window=4.0), r"min_window must be < max_window"),
        (lambda: fluid.Stpd(-0.1, 0.1), r"kp must be in \[0, inf\)"),
        (lambda: fluid.Stpd(0.1, np.nan), r"kd must be finite"),
        (lambda: fluid.Primo(params="default"), r"params must be a PrimoParams"),
        (lambda: fluid.Primo(ftt_fraction=0.0), r"ftt_fraction must be in \(0, 1\]"),
        (lambda: fluid.reno_linearisation(1000, 3750.0, 0.2, 175.0),
         r"queue: the operating point needs W0 .* >= sqrt\(2\)"),
        (lambda: fluid.reno_linearisation(60, 3750.0, 0.2, -1.0), r"queue must be in \[0, inf\)"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ParameterError, match=match):
        call()


def test_batch_equals_separate_runs():
    # Vectorisation must not couple batch members: bit-for-bit equal to
    # separate runs up to rounding of the shared array arithmetic (1e-12).
    capacity = np.array([500.0, 1000.0, 2000.0])
    delay = np.array([0.05, 0.1, 0.2])
    batch = fluid.simulate(fluid.network(capacity, 50.0, delay, n_flows=3), fluid.Reno(), 5.0,
                           1e-3, record_every=50)
    for b in range(3):
        alone = fluid.simulate(fluid.network(capacity[b], 50.0, delay[b], n_flows=3),
                               fluid.Reno(), 5.0, 1e-3, record_every=50)
        np.testing.assert_allclose(batch.queue[:, b], alone.queue[:, 0], rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(batch.window[:, b], alone.window[:, 0], rtol=1e-12)


def test_queue_saturation_and_drop_accounting():
    # Rebuild the queue from the recorded rates with the queue equation of
    # the module docstring, q(k+1) = clip(q(k) + dt (n x(k+1) - C), 0, B):
    # it must be the recorded queue, and the clipped-off excess above B the
    # reported drops (rounding, 1e-9).
    n, capacity, buffer, dt = 4, 1000.0, 30.0, 1e-3
    run = fluid.simulate(fluid.network(capacity, buffer, 0.05, n_flows=n), fluid.Reno(), 10.0, dt)
    q = run.queue[:, 0, 0]
    x = run.rate[:, 0, 0]
    raw = q[:-1] + dt * (n * x[1:] - capacity)
    np.testing.assert_allclose(q[1:], np.clip(raw, 0, buffer), atol=1e-9)
    overflow = np.maximum(raw - buffer, 0).sum()
    assert overflow > 0 and np.any(q == 0)         # both saturations were exercised
    assert run.dropped[0, 0] == pytest.approx(overflow, rel=1e-12)


def test_droptail_probability_is_the_overflow_fraction():
    # While the queue is pinned at the buffer, p = 1 - C / y exactly (module
    # docstring); y is the arrival rate the queue saw in that step.
    n, capacity, buffer, dt = 4, 1000.0, 30.0, 1e-3
    run = fluid.simulate(fluid.network(capacity, buffer, 0.05, n_flows=n), fluid.Reno(), 10.0, dt)
    q = run.queue[:, 0, 0]
    # Row j holds p computed from the step j-1 -> j, which used the rate of row j.
    pinned = np.flatnonzero((q[:-1] == buffer) & (q[1:] == buffer)) + 1
    assert pinned.size > 10
    y = n * run.rate[pinned, 0, 0]
    np.testing.assert_allclose(run.probability[pinned, 0, 0], 1 - capacity / y, rtol=1e-9)


def test_parking_lot_fixed_marking_equilibrium():
    # Two links, three classes (0 crosses both).  With fixed link marking
    # p_l and under-loaded links (queues empty, R = Tp) the window equation
    # rests at W_i = sqrt(2 / p_i), p_i = 1 - prod over the path (1 - p_l):
    # a closed form independent of the integrator.  Tolerance: the slow mode
    # exp(-W p t / R) after 40 s, below 1e-6 relative.
    p_link = np.array([[0.02, 0.05]])
    net = fluid.network([1e4, 1e4], 500.0, [0.1, 0.05, 0.05], routes=[[1, 1, 0], [1, 0, 1]])
    run = fluid.simulate(net, fluid.Reno(), 40.0, 5e-3, aqm=fluid.FixedMarking(p_link),
                         record_every=200)
    p_path = np.array([1 - 0.98 * 0.95, 0.02, 0.05])
    np.testing.assert_allclose(run.probability[-1, 0], p_path, rtol=1e-12)
    np.testing.assert_allclose(run.window[-1, 0], np.sqrt(2 / p_path), rtol=1e-6)
    assert np.all(run.queue[-1] == 0)


@pytest.mark.parametrize("averaging", [None, 5.0])
def test_red_map_sets_the_equilibrium_queue(averaging):
    # RED ramp from 0 to 500 packets through Hollot's operating point
    # (p(175) = p0): the loop can only rest at q = 175 (averaging does not
    # move the rest point).  Whether it gets there is decided by Hollot's
    # linear loop L(s) = (p0 / 175) K/(s + K) P(s), evaluated here on a
    # frequency grid: unit-gain crossover near 1.22 rad/s with ~79 degrees of
    # phase margin without averaging, ~65 with K = 5 rad/s, so the rest
    # point is locally stable.  Tolerance 1e-3 packet: the slowest
    # closed-loop mode decays well below that within the 60 s run.
    lin = fluid.reno_linearisation(60, 3750.0, 0.2, 175.0)
    omega = np.linspace(0.01, 20.0, 20001)
    loop = lin.probability / 175.0 * lin.frequency_response(omega)
    if averaging is not None:
        loop = loop * averaging / (1j * omega + averaging)
    crossing = np.argmin(np.abs(np.abs(loop) - 1))
    margin = 180 + np.degrees(np.unwrap(np.angle(loop)))[crossing]
    assert margin > 45
    red = fluid.Red(0.0, 500.0, lin.probability * 500.0 / 175.0, averaging=averaging)
    net = fluid.network(3750.0, 800.0, 0.2, n_flows=60)
    run = fluid.simulate(net, fluid.Reno(), 60.0, 4e-3, aqm=red, record_every=250)
    assert run.queue[-1, 0, 0] == pytest.approx(175.0, abs=1e-3)


def test_euler_scheme_is_first_order():
    # Smooth run (no saturation): Hollot's example at rest, p stepped by
    # 20 % at t = 0.5 s, queue at t = 4 s.  For a first-order scheme the
    # successive differences q(dt) - q(dt/2) halve with dt: ratio 2 +- 5 %
    # on dt = 2, 1, 0.5 ms (coarser steps are not yet asymptotic).
    lin = fluid.reno_linearisation(60, 3750.0, 0.2, 175.0)
    net = fluid.network(3750.0, 800.0, 0.2, n_flows=60)
    marking = fluid.FixedMarking(lambda t: lin.probability * (1.2 if t >= 0.5 else 1.0))

    def queue_at_4s(dt):
        run = fluid.simulate(net, fluid.Reno(initial_window=lin.window), 4.0, dt, aqm=marking,
                             initial_queue=175.0, record_every=int(round(1e-2 / dt)))
        return run.queue[-1, 0, 0]

    values = [queue_at_4s(dt) for dt in (2e-3, 1e-3, 5e-4)]
    differences = np.diff(values)
    assert differences[0] / differences[1] == pytest.approx(2.0, rel=0.05)


def test_history_is_as_long_as_the_largest_delay():
    # The ring holds ceil(max delay / dt) + 3 steps, not the run length.
    net = fluid.network(1000.0, 100.0, 0.1)       # max round trip 0.2 s
    state = fluid.Reno()._start(net, 1e-3)
    assert state.span == pytest.approx(0.2)
    primo = fluid.Primo(PrimoParams(tau=2.0))._start(net, 1e-3)
    assert primo.span == pytest.approx(0.2 + 2.0 * 0.1)


def test_draining_queue_with_silent_senders_is_finite():
    # Regression: a busy queue while every sender is at rate 0 made the FIFO
    # share C / y divide by zero (NaN reception rate, then NaN everywhere).
    # ST-PD from rate 0 with 50 packets queued: at t = 0 nothing arrives, so
    # the reception rate is 0 (and ST-PD, perceiving no service, estimates
    # an empty queue and starts sending).
    net = fluid.network(1000.0, 100.0, 0.02)
    run = fluid.simulate(net, fluid.Stpd(0.01, 0.1, initial_rate=0.0), 0.1, 1e-3,
                         initial_queue=50.0)
    assert run.reception_rate[0, 0, 0] == 0.0
    for name in ("queue", "rate", "reception_rate", "round_trip"):
        assert np.all(np.isfinite(getattr(run, name))), name


def test_batched_aqm_parameters_follow_the_batch():
    # A 1-D array of AQM parameters on a single link runs along the batch:
    # each member must equal its own separate run (rounding, 1e-12).
    pmax = np.array([0.05, 0.1])
    marking = np.array([0.01, 0.02])
    net = fluid.network(np.array([1000.0, 1000.0]), 200.0, 0.1, n_flows=5)
    for make in (lambda v: fluid.Red(20.0, 150.0, v), fluid.FixedMarking):
        values = pmax if make is not fluid.FixedMarking else marking
        batch = fluid.simulate(net, fluid.Reno(), 5.0, 1e-3, aqm=make(values), record_every=100)
        for b in range(2):
            alone = fluid.simulate(fluid.network(1000.0, 200.0, 0.1, n_flows=5), fluid.Reno(),
                                   5.0, 1e-3, aqm=make(float(values[b])), record_every=100)
            np.testing.assert_allclose(batch.queue[:, b], alone.queue[:, 0], rtol=1e-12,
                                       atol=1e-12)


def test_aqm_parameter_of_the_wrong_shape_is_refused():
    net = fluid.network(np.array([1000.0, 1000.0]), 200.0, 0.1)
    with pytest.raises(ParameterError, match=r"probability must broadcast to \(batch, links\)"):
        fluid.simulate(net, fluid.Reno(), 1.0, 1e-2, aqm=fluid.FixedMarking([0.1, 0.2, 0.3]))


@pytest.mark.parametrize(
    "law, module, names",
    [
        (fluid.Stpd(0.033, 0.368), "ctlcc.laws.stpd", ("pd_update", "buffer_estimate",
                                                      "control_error")),
        (fluid.Primo(), "ctlcc.laws.primo", ("regime_factor", "regime_update")),
    ],
)
def test_fluid_laws_call_ctlcc_laws(monkeypatch, law, module, names):
    # One law, two uses (see ctlcc.laws): the fluid senders must go through
    # the functions of ctlcc.laws, once per step each.  This is the numpy loop;
    # the compiled loop compiles in their cores (test_compiled_loop_uses_the_law_cores).
    import importlib

    monkeypatch.setattr(fluid, "_USE_JIT", False)
    target = importlib.import_module(module)
    calls = dict.fromkeys(names, 0)
    for name in names:
        original = getattr(target, name)

        def counted(*args, _name=name, _original=original, **kwargs):
            calls[_name] += 1
            return _original(*args, **kwargs)

        monkeypatch.setattr(target, name, counted)
    steps = 50
    fluid.simulate(fluid.network(1000.0, 100.0, 0.02), law, steps * 1e-3, 1e-3)
    assert all(count >= steps for count in calls.values()), calls


def test_compiled_loop_uses_the_law_cores():
    # The compiled step loop calls the arithmetic cores of ctlcc.laws (the
    # functions the checked entry points of test_fluid_laws_call_ctlcc_laws
    # wrap), not copies of them.
    from ctlcc.laws import aqm, primo, stpd, tcp
    from ctlcc.sim import _fluid_jit as jit

    for compiled, core in ((jit._reno_slope, tcp.fluid_window_derivative_core),
                           (jit._buffer_estimate, stpd.buffer_estimate_core),
                           (jit._control_error, stpd.control_error_core),
                           (jit._pd_update, stpd.pd_update_core),
                           (jit._regime_update, primo.regime_update),
                           (jit._red_average_step, aqm.red_average_step_core),
                           (jit._red_probability, aqm.red_probability_core),
                           (jit._red_spacing, aqm.red_spacing_rate_core),
                           (jit._pi_increment, aqm.pi_increment_core),
                           (jit._red_gate, aqm.red_gate_core)):
        assert compiled.py_func is core


def _numpy_power_is_libm(base):
    """numpy's power of an array equals the C library's pow here (numba calls the latter).

    On a CPU with AVX-512 numpy may take SVML's vectorised pow, which can differ in
    the last bit; Primo's W2 ** (x dt) is the one power of the loops.
    """
    import math

    exponents = np.linspace(-3.0, 3.0, 4001)
    return all(float(v) == math.pow(base, e)
               for v, e in zip(np.power(base, exponents), exponents))


_PARKING_LOT = fluid.network([1000.0, 600.0], [120.0, 90.0], [0.1, 0.05, 0.07],
                             n_flows=[4, 2, 3], routes=[[1, 1, 0], [1, 0, 1]])


@pytest.mark.parametrize("law", [fluid.Reno(), fluid.Stpd(0.05, 0.2),
                                 fluid.Stpd(0.1, 0.3, delay=0.03, slot=1e-3), fluid.Primo()],
                         ids=["reno", "stpd", "stpd-fixed-delay", "primo"])
@pytest.mark.parametrize("aqm", [
    fluid.DropTail(), fluid.Red(10.0, 60.0, 0.1, averaging=50.0, gentle=True),
    fluid.Red(10.0, 60.0, 0.1, spacing="wait", min_queue=1.0),
    fluid.Pi(PiParams(1e-4, 0.9e-4, 20.0, 160.0)),
    fluid.FixedMarking(0.004)], ids=["droptail", "red-gentle", "red-wait", "pi", "fixed"])
@pytest.mark.parametrize("net", [fluid.network([500.0, 1000.0], [80.0, 150.0], [0.05, 0.1],
                                               n_flows=[3, 5]), _PARKING_LOT],
                         ids=["batch", "parking-lot"])
def test_compiled_loop_equals_the_numpy_loop_bit_for_bit(monkeypatch, law, aqm, net):
    # The compiled loop (ctlcc.sim._fluid_jit) performs the numpy loop's
    # operations in the same order: every output equal, not close.
    if isinstance(law, fluid.Primo) and not _numpy_power_is_libm(law.params.W2):
        pytest.skip("numpy's vectorised power differs from the C library's pow on this CPU "
                    "(AVX-512 SVML); the compiled loop uses the C library's")
    monkeypatch.setattr(fluid, "_USE_JIT", False)
    runs = [fluid.simulate(net, law, 0.4, 1e-3, aqm=aqm, initial_queue=20.0, record_every=3),
            fluid._integrate_compiled(net, law, aqm, 0.4, 1e-3,
                                      np.full((net.batch_size, net.n_links), 20.0), 3)]
    assert runs[1] is not None, "the compiled loop declined the run"
    for name in ("queue", "rate", "window", "round_trip", "probability", "reception_rate",
                 "mean_queue", "mean_rate", "mean_reception_rate", "dropped"):
        assert np.array_equal(getattr(runs[0], name), getattr(runs[1], name)), name


def test_red_min_queue_stops_marking_on_an_empty_queue():
    # ns-2/ns-3's RED drops only while more than one packet waits.  A queue of 50 packets
    # drains (one flow held at a window of 2 on a 1000 packets/s link) while RED's slow
    # average (K = 0.1/s, from 50) stays far above min_threshold = 10: Misra et al.'s model
    # (min_queue=None) keeps marking at p(avg) on the empty queue, the gated one marks 0
    # there and the same p(avg) while the queue is above 1 packet.
    net = fluid.network(capacity=1000.0, buffer=100.0, propagation_delay=0.1)
    law = fluid.Reno(initial_window=2.0, max_window=2.0)
    runs = {gate: fluid.simulate(net, law, 1.0, 1e-3, initial_queue=50.0,
                                 aqm=fluid.Red(10.0, 100.0, 0.1, averaging=0.1, min_queue=gate))
            for gate in (None, 1.0)}
    q = runs[None].queue[:, 0, 0]
    p_free, p_gated = runs[None].probability[:, 0, 0], runs[1.0].probability[:, 0, 0]
    # the queue empties in about 0.05 s, before a mark's round trip: both runs' queues agree
    np.testing.assert_array_equal(runs[1.0].queue[:, 0, 0], q)
    empty, busy = q <= 1.0, q > 1.0
    assert empty[-1] and busy[0]
    assert np.all(p_gated[empty] == 0.0)
    np.testing.assert_allclose(p_gated[busy], p_free[busy])
    # the average after 1 s is at least 50 exp(-0.1) > 45: p >= 0.1 (45 - 10) / 90 on the empty queue
    assert np.all(p_free[empty] >= 0.1 * 35.0 / 90.0)
