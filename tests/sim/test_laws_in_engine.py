"""A researcher's WindowLaw / RateLaw as a packet-engine sender (issue 20).

* The acceptance test of the issue: the PD law written here, as a
  ``WindowLaw``, runs exactly as ``Stpd(gains=(kp, kd))`` (same seed, same
  counters, same traces, same event count), on several paths, losses,
  mechanics and ``per``; likewise Primo's Algorithm 1 written here as a
  ``RateLaw`` (its thresholds compared on ΔFTT_D / FTT_ref) and ``Primo``.
* A law defined here (a PI law) drives the window: its update, checked with
  the hook harness against the formula computed by hand from the round's
  measurements (eqs. 3.2-3.4 typed out here, not taken from ctlcc).
* ``protocol=law`` in every preset and scenario builder; the kernel and the
  senders' hooks are compiled once whatever the laws (a new law costs only
  its own compilation).
* What the engine cannot run is refused with a message naming it: a law
  numba cannot compile, a law whose window or memory is not finite.
"""

import math

import numba
import numpy as np
import pytest

from ctlcc.errors import LawError, ParameterError
from ctlcc.laws.primo import PrimoParams
from ctlcc.laws.user import RateLaw, WindowLaw, pd_law, primo_law, select
from ctlcc.sim import run, scenarios as S
from ctlcc.sim._core import dispatch
from ctlcc.sim.senders import Primo, RateLawSender, Stpd, WindowLawSender
from ctlcc.sim.testing import SenderHarness


def pd(w, e, mem, kp, kd):
    """The PD law (3.5) written by a user: w + kp e + kd (e - e_prev)."""
    return w + kp * e + kd * (e - mem[0]), (e,)


def pi(w, e, mem, kp, ki):
    """A PI law on the window: the proportional term on the error's change."""
    return w + kp * (e - mem[0]) + ki * e, (e,)


def algorithm1(rate, excess, received, previous, memory, W1, W2, F_str, F_mod, F_rel, TH_str,
               TH_mod, TH_rel):
    """Primo's Algorithm 1 written out by a user (Chatté et al. 2006, §III-C)."""
    factor = select(excess >= TH_str, F_str,
                    select(excess >= TH_mod, F_mod, select(excess < TH_rel, F_rel, 0.0)))
    new = W2 * rate + (1 - W2) * (previous - W1 * (previous - factor * received))
    return select(factor == 0.0, rate, new), ()


def _same(a, b):
    """Identical runs: every counter but the protocol's name, queues, traces, events."""
    assert a.events == b.events
    for fa, fb in zip(a.flows, b.flows):
        assert fa.__dict__ | {"protocol": ""} == fb.__dict__ | {"protocol": ""}
    assert a.queues == b.queues
    for name in ("time", "window", "rate", "sent", "delivered", "queue", "rtt", "drops"):
        np.testing.assert_array_equal(getattr(a.traces, name), getattr(b.traces, name))


@pytest.mark.parametrize("preset, loss, seed", [
    ("thesis_fig4_7", 0.01, 3),
    ("thesis_fig3_7_insufficient", None, 0),
    ("thesis_fig3_14", 0.02, 1),
])
@pytest.mark.parametrize("mechanics", [{}, {"per": "ack"}, {"start": "pd", "inflation": False,
                                                                "after_timeout": "pd"}])
def test_window_law_of_the_pd_update_runs_exactly_as_stpd(preset, loss, seed, mechanics):
    kp, kd = 0.2, 0.1
    options = dict(mechanics)
    per = options.pop("per", "rtt")
    law = WindowLaw(pd, memory=1, gains=dict(kp=kp, kd=kd), per=per, **options)
    kw = {} if loss is None else {"loss": loss}
    a = run(S.preset(preset, protocol=law, **kw), 20.0, seed=seed, trace=True)
    b = run(S.preset(preset, protocol=Stpd(gains=(kp, kd), update=per, **options), **kw), 20.0,
            seed=seed, trace=True)
    _same(a, b)
    assert a.flows[0].protocol == "windowlaw:pd" and b.flows[0].protocol == "stpd"
    assert a.flows[0].sent > 100


def test_ctlcc_pd_law_runs_as_stpd_too():
    a = run(S.thesis_fig4_7(loss=0.01, protocol=pd_law(0.3, 0.05)), 15.0, seed=2, trace=True)
    b = run(S.thesis_fig4_7(loss=0.01, protocol=Stpd(gains=(0.3, 0.05))), 15.0, seed=2,
            trace=True)
    _same(a, b)


@pytest.mark.parametrize("preset", ["primo_fig1_top", "primo_fig1_bottom"])
def test_rate_law_of_algorithm_1_runs_exactly_as_primo(preset):
    p = PrimoParams()
    gains = {k: getattr(p, k) for k in ("W1", "W2", "F_str", "F_mod", "F_rel", "TH_str",
                                          "TH_mod", "TH_rel")}
    mine = RateLaw(algorithm1, gains=gains, tau=p.tau)
    a = run(S.preset(preset, protocol=mine, loss=0.01), 20.0, seed=4, trace=True)
    b = run(S.preset(preset, protocol=Primo(), loss=0.01), 20.0, seed=4, trace=True)
    c = run(S.preset(preset, protocol=primo_law(), loss=0.01), 20.0, seed=4, trace=True)
    _same(a, b)
    _same(c, b)
    assert a.flows[0].protocol == "ratelaw:algorithm1"


def test_rate_law_options_are_primos():
    law = primo_law(timeout="literal", restart_jitter=0.0)
    a = run(S.primo_fig1_top(protocol=law), 15.0, seed=1, trace=True)
    b = run(S.primo_fig1_top(protocol=Primo.legacy()), 15.0, seed=1, trace=True)
    _same(a, b)


# --- a law of the user's own, checked against its formula -------------------------------

def test_pi_law_sets_the_window_from_the_rounds_measurements():
    """One round trip by hand: 8 segments acknowledged over 0.25 s, RTT 0.3125 s against
    RTT_min 0.25 s: S = 32 packets/s, buf_est = 2, err = ref - 2 = -1 (ref = 1)."""
    law = WindowLaw(pi, memory=1, gains=dict(kp=0.5, ki=0.25), start="pd")
    h = SenderHarness(law)
    h.start(now=0.0)
    from ctlcc.sim.senders import window_law as WL

    f = 0
    h.tab[f, WL.ROW_MEM, 0] = 0.5              # the previous error
    h.ff[f, 0] = 10.0                           # the window (F_CWND)
    h.ff[f, WL.F_LAW_RTT], h.ff[f, WL.F_LAW_MIN] = 0.3125, 0.25
    h.ff[f, WL.F_LAW_ACKED], h.ff[f, WL.F_LAW_DUR] = 8.0, 0.25
    assert h.step(WL.STEP_LAW, now=1.0) == 0
    err = 1.0 - (0.3125 - 0.25) * (8.0 / 0.25)
    assert err == -1.0
    assert h.state()["cwnd"] == 10.0 + 0.5 * (err - 0.5) + 0.25 * err   # 9.0
    assert h.tab[f, WL.ROW_MEM, 0] == err
    # the law's segments leave at the sender's next step, scheduled at the same instant
    assert (1.0, "step", 0, WL.STEP_SEND) in h.events(f=0)


def test_a_law_carries_its_whole_memory_from_one_update_to_the_next():
    """A PID law with two memory entries (the error's sum and the last error), two round
    trips by hand: the memory row holds what the law returned, and the next update uses it."""
    def pid(w, e, mem, kp, ki, kd):
        integral = mem[0] + e
        return w + kp * e + ki * integral + kd * (e - mem[1]), (integral, e)

    from ctlcc.sim.senders import window_law as WL

    h = SenderHarness(WindowLaw(pid, memory=2, gains=dict(kp=0.1, ki=0.01, kd=0.2),
                                start="pd"))
    h.start(now=0.0)
    w = h.state()["cwnd"]
    integral, previous = 0.0, 0.0
    for rtt, acked in ((0.3, 10.0), (0.28, 12.0)):
        h.ff[0, WL.F_LAW_RTT], h.ff[0, WL.F_LAW_MIN] = rtt, 0.25
        h.ff[0, WL.F_LAW_ACKED], h.ff[0, WL.F_LAW_DUR] = acked, 0.25
        h.step(WL.STEP_LAW, now=1.0)
        e = 1.0 - (rtt - 0.25) * (acked / 0.25)
        integral += e
        w = max(1.0, w + 0.1 * e + 0.01 * integral + 0.2 * (e - previous))
        previous = e
        assert h.state()["cwnd"] == pytest.approx(w, rel=1e-15)
        assert tuple(h.tab[0, WL.ROW_MEM, :2]) == pytest.approx((integral, e), rel=1e-15)
    result = run(S.thesis_fig4_7(protocol=h.specs[0].law.with_mechanics()), 5.0)
    assert result.flows[0].sent > 0 and result.flows[0].protocol == "windowlaw:pid"


def test_protocol_law_in_every_preset():
    law = pd_law(0.1, 0.2)
    for name in S.PRESETS:
        scenario = S.preset(name, protocol=law)
        laws = [f for f in scenario.flows if isinstance(f.sender, WindowLawSender)]
        assert laws, name
        assert all(f.protocol == "windowlaw:pd" for f in laws)
    rate = primo_law()
    for scenario in (S.single_bottleneck(protocol=rate), S.dumbbell(2, protocol=rate),
                     S.parking_lot(protocol=rate)):
        assert all(isinstance(f.sender, RateLawSender) for f in scenario.flows)
    # a mixed run of laws is the run of the specs they equal
    result = run(S.dumbbell(3, protocol=[law, "reno", rate]), 10.0, seed=5, trace=True)
    assert [f.protocol for f in result.flows] == ["windowlaw:pd", "reno", "ratelaw:primo"]
    _same(result, run(S.dumbbell(3, protocol=[Stpd(gains=(0.1, 0.2)), "reno", Primo()]), 10.0,
                      seed=5, trace=True))


def test_flow_takes_a_law_as_sender():
    law = pd_law(0.1, 0.2)
    flow = S.Flow(("S", "D"), sender=law)
    assert flow.sender == WindowLawSender(law) and flow.protocol == "windowlaw:pd"
    assert S.Flow(("S", "D"), protocol=law) == flow
    from dataclasses import replace

    assert replace(flow, start=1.0).sender == flow.sender   # protocol label accepted back


def test_a_new_law_does_not_recompile_the_event_loop_or_the_hooks():
    """Laws defined one after another (as in notebook cells): the kernel and the hooks keep
    the one compiled version; only each law's own adapter is compiled (counted with numba's
    compile events)."""
    from numba.core import event

    run(S.thesis_fig4_7(protocol=pd_law(0.1, 0.2)), 2.0)   # loop and hooks ready
    compiled = []

    class Listener(event.Listener):
        def on_start(self, e):
            compiled.append(e.data["dispatcher"].py_func.__qualname__)

        def on_end(self, e):
            pass

    kernels = len(dispatch.run_kernel.signatures)
    with event.install_listener("numba:compile", Listener()):
        for k in range(3):
            def law_k(w, e, mem, gain, k=k):
                return w + gain * e + 0.0 * k, ()
            run(S.thesis_fig4_7(protocol=WindowLaw(law_k, gains=dict(gain=0.1 + k))), 2.0)
    assert len(dispatch.run_kernel.signatures) == kernels == 1
    assert compiled and all(name == "law_adapter" or name.endswith(".law_k")
                            for name in compiled), compiled


# --- what the engine cannot run --------------------------------------------------------

def test_a_law_numba_cannot_compile_is_refused_naming_the_construct():
    table = {"gain": 0.1}

    def looks_up(w, e, mem, gain):
        return w + table["gain"] * e, ()            # a Python dict: not numba

    law = WindowLaw(looks_up, gains=dict(gain=0.1))
    with pytest.raises(ParameterError) as info:
        run(S.thesis_fig4_7(protocol=law), 1.0)
    message = str(info.value)
    assert "WindowLaw 'looks_up': numba cannot compile" in message
    assert "table" in message                       # the construct numba refused
    assert "test_laws_in_engine.py" in message and "plain arithmetic" in message


def test_a_law_that_returns_an_infinite_window_stops_the_run_naming_it():
    def explodes(w, e, mem, gain):
        # +gain per round trip, and inf once the window passes 40 packets (x / 0.0 is inf
        # in the engine, as in numpy); the sample numbers the law is checked on stay below
        return w / select(w > 40.0, 0.0, 1.0) + gain, ()

    law = WindowLaw(explodes, gains=dict(gain=1.0), start="pd")
    with pytest.raises(ParameterError,
                       match=r"WindowLaw 'explodes': the law returned a window that is not a "
                             r"finite number on flow 0 at t = .* \(window=4[0-9.]*, .*new "
                             r"window=inf\)"):
        run(S.thesis_fig4_7(protocol=law), 60.0)


def test_a_rate_law_that_returns_nan_stops_the_run_naming_it():
    def broken(rate, excess, received, previous, memory):
        # grows 1 % a packet until the queue's delay passes the forward trip time, then nan
        return select(excess > 1.0, math.nan, 1.01 * rate), ()

    with pytest.raises(ParameterError, match=r"RateLaw 'broken': the law returned a rate that "
                                             r"is not a finite number on flow 0"):
        run(S.primo_fig1_top(protocol=RateLaw(broken), n=3), 30.0)


def test_law_specs_take_only_laws():
    with pytest.raises(ParameterError, match="law must be a ctlcc.WindowLaw, got str"):
        WindowLawSender("pd")
    with pytest.raises(ParameterError, match="law must be a ctlcc.RateLaw, got WindowLaw"):
        RateLawSender(pd_law(0.1, 0.1))
    with pytest.raises(LawError):
        WindowLaw(pd, memory=2, gains=dict(kp=0.1, kd=0.1))  # the law checks itself first


def test_numba_dispatcher_as_update_is_accepted():
    law = WindowLaw(numba.njit(pd), memory=1, gains=dict(kp=0.2, kd=0.1))
    a = run(S.thesis_fig4_7(loss=0.01, protocol=law), 10.0, seed=1, trace=True)
    b = run(S.thesis_fig4_7(loss=0.01, protocol=Stpd(gains=(0.2, 0.1))), 10.0, seed=1,
            trace=True)
    _same(a, b)
