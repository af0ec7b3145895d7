"""The sender contract of the packet engine (issue 20).

* Every registered sender declares what it uses: its module's private column
  constants fall inside the columns its spec declares, its hooks have the
  fixed signatures, and nothing sender-specific is left in the run's arrays.
* The engine refuses what it cannot run, at construction, with a message
  that says what to use instead: a ``SenderSpec`` defined outside ctlcc, a
  subclass of a registered spec (an extra field would be ignored).
* The public harness (:mod:`ctlcc.sim.testing`) drives hooks by hand; its
  expectations are the RFCs' rules typed out here.
* The compile notice says what it compiles; warm() compiles ahead.
"""

import dataclasses
import inspect

import pytest

from ctlcc.errors import ParameterError
from ctlcc.sim import engine, run, scenarios as S
from ctlcc.sim import senders as Z
from ctlcc.sim._core import hooks as H
from ctlcc.sim._core import layout as K
from ctlcc.sim._core.net import Ctx
from ctlcc.sim.senders import SenderSpec, Stpd
from ctlcc.sim.testing import SenderHarness


# --- what each sender declares ---------------------------------------------------------

@pytest.mark.parametrize("cls", Z.ENGINE, ids=[c.name for c in Z.ENGINE])
def test_private_columns_lie_within_what_the_spec_declares(cls):
    """Every F_*/I_* constant of the sender's modules beyond the common columns is below
    NF_COMMON + float_columns (NI_COMMON + int_columns): the engine allocates only that."""
    modules = {Z.hooks_module(cls), inspect.getmodule(cls)}
    for module in modules:
        for name, value in vars(module).items():
            if not isinstance(value, int) or isinstance(value, bool):
                continue
            if name.startswith("F_") and value >= K.NF_COMMON:
                assert value < K.NF_COMMON + cls.float_columns, (module.__name__, name)
            if name.startswith("I_") and value >= K.NI_COMMON:
                assert value < K.NI_COMMON + cls.int_columns, (module.__name__, name)


@pytest.mark.parametrize("cls", Z.ENGINE, ids=[c.name for c in Z.ENGINE])
def test_hooks_have_the_fixed_signatures(cls):
    module = Z.hooks_module(cls)
    found = H.module_hooks(module)
    assert "start" in found
    for kind, function in found.items():
        H.check_hook(function, kind)     # raises TypeError otherwise


def test_a_hook_with_another_signature_is_refused():
    def on_ack(now, f, ack, sample, ctx):
        pass
    with pytest.raises(TypeError, match=r"must take \(now, f, ack, ctx, rng\), the fixed "
                                        r"signature of the 'ack' hook"):
        H.check_hook(on_ack, "ack")


def test_the_runs_arrays_name_no_sender():
    senders = {c.name for c in Z.ENGINE} | {"sack", "primo", "stpd", "board", "history"}
    assert not any(any(s in field for s in senders) for field in Ctx._fields)


def test_codes_are_places_in_the_registry():
    assert [c.code for c in Z.ENGINE] == list(range(len(Z.ENGINE)))
    assert Z.REGISTRY[-1] is Z.FixedWindow and Z.ENGINE[-2:] == (Z.WindowLawSender,
                                                                  Z.RateLawSender)


# --- refused at construction, with what to use instead -----------------------------------

@dataclasses.dataclass(frozen=True)
class Mine(SenderSpec):
    """A spec written outside ctlcc: no hooks the engine knows."""

    gain: float = 1.0
    name = "mine"


@dataclasses.dataclass(frozen=True)
class StpdWithTwist(Stpd):
    """A subclass of Stpd with an extra field (the engine would run plain ST-PD)."""

    twist: float = 0.5


def test_a_spec_defined_outside_ctlcc_is_refused():
    with pytest.raises(ParameterError) as info:
        S.Flow(("S", "D"), sender=Mine())
    message = str(info.value)
    assert "sender Mine (tests.sim.test_contract) is not one the packet engine runs" in message
    assert "ctlcc.WindowLaw(update" in message and "REGISTRY" in message


def test_a_subclass_of_a_registered_spec_is_refused():
    with pytest.raises(ParameterError,
                       match=r"sender StpdWithTwist .* subclasses Stpd: the engine runs Stpd "
                             r"itself and would ignore what the subclass adds; pass Stpd\(\.\.\.\) "
                             r"with its options \(gains, reference, update"):
        S.single_bottleneck(protocol=StpdWithTwist())


def test_run_refuses_a_spec_slipped_past_the_flow():
    scenario = S.single_bottleneck()
    flow = scenario.flows[0]
    object.__setattr__(flow, "sender", Mine())     # bypassing Flow's own check
    with pytest.raises(ParameterError, match="sender Mine .* is not one the packet engine runs"):
        run(scenario, 1.0)


def test_vegas_options_are_checked():
    """Vegas' first __post_init__ (options) was dead, overridden by a second one."""
    with pytest.raises(ParameterError, match=r"round_marker must be one of 'after_send', "
                                             r"'before_send'; got 'middle'"):
        Z.Vegas(round_marker="middle")
    with pytest.raises(ParameterError, match="slow_start must be one of 'brakmo', 'ns3'"):
        Z.Vegas(slow_start="linux")
    with pytest.raises(ParameterError, match="decrease_ssthresh must be one of True, False"):
        Z.Vegas(decrease_ssthresh="yes")
    with pytest.raises(ParameterError, match="beta must be >= alpha"):
        Z.Vegas(alpha=3.0, beta=1.0)


# --- the harness: hooks by hand --------------------------------------------------------

def test_harness_reno_fast_retransmit_and_recovery():
    """RFC 5681 §3.2 on a window of 8: three duplicate ACKs retransmit snd_una, ssthresh =
    max(FlightSize/2, 2) = 4, cwnd = ssthresh + 3 = 7; a further duplicate inflates it by one;
    the ACK of new data deflates it to ssthresh."""
    h = SenderHarness(Z.Reno(), scenario=S.single_bottleneck(
        protocol="reno", tcp=S.TcpOptions(initial_window=8, limited_transmit=False)))
    h.start(now=0.0)
    assert [s["seq"] for s in h.sent()] == list(range(8))
    for k in range(3):
        h.ack(seq=0, rtt=0.1, now=0.1 + 0.001 * k)
    sent = h.sent()
    assert [(s["seq"], s["retx"]) for s in sent] == [(0, 1)]
    state = h.state()
    assert (state["ssthresh"], state["cwnd"], state["in_recovery"]) == (4.0, 7.0, 1)
    h.ack(seq=0, rtt=0.1, now=0.104)
    assert h.state()["cwnd"] == 8.0
    h.ack(seq=8, rtt=0.1, now=0.2)
    assert (h.state()["cwnd"], h.state()["in_recovery"]) == (4.0, 0)


def test_harness_timer_goes_back_to_snd_una_with_one_segment():
    """RFC 5681 (4) and RFC 6298 §5.5: cwnd = 1, ssthresh = FlightSize/2, RTO doubled."""
    h = SenderHarness(Z.NewReno(), scenario=S.single_bottleneck(
        protocol="newreno", tcp=S.TcpOptions(initial_window=6)))
    h.start(now=0.0)
    h.sent()
    rto = h.state()["rto"]
    h.timer(now=1.0)
    state = h.state()
    assert (state["cwnd"], state["ssthresh"], state["timeouts"]) == (1.0, 3.0, 1)
    assert state["rto"] == 2 * rto
    assert [(s["seq"], s["retx"]) for s in h.sent()] == [(0, 1)]
    assert [e[1] for e in h.events(f=0) if e[1] == "timer"] == ["timer"]


def test_harness_receiver_acks_cumulatively():
    h = SenderHarness("reno")
    h.data(seq=0, now=0.01)
    h.data(seq=2, now=0.02)          # out of order: the ACK repeats 1
    h.data(seq=1, now=0.03)          # fills the hole: ACK 3
    assert [a["seq"] for a in h.acks()] == [1, 1, 3]
    assert h.state()["rcv_nxt"] == 3


def test_harness_python_step_of_callable_gains():
    """ST-PD with a Python callable for its gains: the law step hands the flow to Python,
    which writes (kp, kd) for the perceived BDP; the law then runs with them."""
    from ctlcc.sim.senders import window_law as WL

    seen = []

    def gains(bdp):
        seen.append(bdp)
        return 0.5, 0.0

    h = SenderHarness(Stpd(gains=gains, start="pd"))
    h.start(now=0.0)
    h.ff[0, K.F_CWND] = 10.0
    h.ff[0, WL.F_LAW_RTT], h.ff[0, WL.F_LAW_MIN] = 0.3, 0.25
    h.ff[0, WL.F_LAW_ACKED], h.ff[0, WL.F_LAW_DUR] = 8.0, 0.25
    h.step(WL.STEP_LAW, now=1.0)
    assert seen == [pytest.approx(8.0 / 0.25 * 0.25)]          # S(n) RTT_min = 8 packets
    err = 1.0 - (0.3 - 0.25) * 32.0                            # ref - buf_est = -0.6
    assert h.state()["cwnd"] == pytest.approx(10.0 + 0.5 * err)


def test_fixed_window_example_sender():
    """The contributor guide's worked example: the window never moves; the timer resends
    the whole flight from snd_una (go-back-N)."""
    h = SenderHarness(Z.FixedWindow(window=4))
    h.start(now=0.0)
    assert [s["seq"] for s in h.sent()] == [0, 1, 2, 3]
    h.ack(seq=2, rtt=0.1, now=0.1)
    assert [s["seq"] for s in h.sent()] == [4, 5] and h.state()["cwnd"] == 4.0
    h.ack(seq=2, rtt=0.1, now=0.11)  # a duplicate: nothing
    assert h.sent() == []
    h.timer(now=1.5)
    assert [(s["seq"], s["retx"]) for s in h.sent()] == [(2, 1), (3, 1), (4, 1), (5, 1)]
    assert h.fi[0, Z.fixed_window.I_RESENT] == 4
    result = run(S.thesis_fig4_7(protocol=Z.FixedWindow(window=20)), 30.0)
    # 20 < BDP (31) on the thesis' Fig. 4.7 path: 20 segments per round trip, no loss
    flow = result.flows[0]
    rtt = result.flows[0].srtt
    assert flow.dropped == 0 and flow.goodput_bps / 8000 == pytest.approx(20 / rtt, rel=0.02)


# --- compile ahead, and say so -----------------------------------------------------------

def test_warm_compiles_or_loads_and_says_what(capfd):
    done = engine.warm(["reno", "fixed"], progress=True)
    err = capfd.readouterr().err
    assert isinstance(done, list)
    if done:   # a fresh cache: the notice names what it compiles
        assert "ctlcc: compiling the packet engine - " in err
    assert engine.warm(["reno", "fixed"]) == []         # now ready: nothing to do, no notice
    assert capfd.readouterr().err == ""
    with pytest.raises(ParameterError, match="protocol must be one of"):
        engine.warm(["bbr"])


def test_cache_invalidation_removes_the_compiled_hooks(tmp_path):
    """numba keys a cached function on its own file; the hooks compiled from a sender's
    source (``<module>.<hook>__hook``), the services and the loop depend on other files
    too: a change of any source the registry names removes them all (cache.py), and
    nothing else.  Checked in a fresh process with its own cache folder, on entries
    planted where numba would write them (no compilation needed)."""
    import subprocess
    import sys
    import textwrap

    script = textwrap.dedent("""
        from pathlib import Path
        from ctlcc.sim._core import cache, dispatch
        from ctlcc.sim.senders import window
        planted = []
        for folder, stem in ((dispatch.run_kernel._cache._cache_path, "dispatch.run_kernel"),
                             (window.timeout._cache._cache_path, "window.on_ack__hook"),
                             (window.timeout._cache._cache_path, "window_law.pd_law")):
            Path(folder).mkdir(parents=True, exist_ok=True)
            for ext in (".nbi", ".1.nbc"):
                path = Path(folder) / f"{stem}-12.py311{ext}"
                path.write_text("stale")
                planted.append(path)
        other = Path(window.timeout._cache._cache_path) / "notes.txt"
        other.write_text("keep")
        sources = {p.name for p in cache._sources()}
        assert {"window.py", "tcp.py", "user.py", "hooks.py"} <= sources, sources
        cache.ensure_fresh()              # no stamp yet: everything of the engine goes
        assert not any(p.exists() for p in planted), [p for p in planted if p.exists()]
        assert other.exists()
        print("ok")
    """)
    env = dict(__import__("os").environ, NUMBA_CACHE_DIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-3000:]


def test_flow_tables_rows_are_whole_cache_lines_and_columns_grouped():
    """The per-flow tables start rows on 64-byte lines; the common columns are grouped.

    Expected from the layout's stated rule (layout.py), by enumeration of the
    constants: every common column index used once, none past NI_COMMON/NF_COMMON;
    what the cumulative-ACK receiver touches per data packet and what the
    sampling reads in one 8-word line each; what a Reno ACK touches in lines 0-2.
    """
    ints = {k: v for k, v in vars(K).items() if k.startswith("I_") and isinstance(v, int)}
    floats = {k: v for k, v in vars(K).items() if k.startswith("F_") and isinstance(v, int)}
    assert sorted(ints.values()) == list(range(K.NI_COMMON))
    assert len(set(floats.values())) == len(floats) and max(floats.values()) < K.NF_COMMON
    line = lambda *cols: {c // 8 for c in cols}  # noqa: E731
    assert len(line(K.I_DELIVERED, K.I_RCV_NXT, K.I_UNIQUE, K.I_ECN, K.I_ACK_SENT)) == 1
    assert len(line(K.I_SENT, K.I_UNIQUE, K.I_DELIVERED)) == 1
    reno_ack = (K.I_ACKS_RECEIVED, K.I_ACTIVE, K.I_ROUND_RTTS, K.I_SND_UNA, K.I_SND_NXT,
                K.I_SND_MAX, K.I_ROUND_ACKED, K.I_RTT_SAMPLED, K.I_IN_RECOVERY, K.I_DUPACKS,
                K.I_ECN_RECOVER, K.I_ECN, K.I_ROUND_END, K.I_RTO_PENDING, K.I_RTO_GEN, K.I_SENT)
    assert line(*reno_ack) <= {0, 1, 2}
    sim = engine._Simulation(S.dumbbell(3), 1.0, False, 0.01)   # 3 channels each way
    for name in ("ff", "fi", "hooks", "fpath", "rpath"):
        table = getattr(sim, name)
        assert table.ctypes.data % 64 == 0 and table.strides[0] % 64 == 0, name
        assert table.flags.c_contiguous and table.shape[0] == 3, name
    assert (sim.fpath[:, 3:] == -1).all() and (sim.rpath[:, 3:] == -1).all()
    assert (sim.hooks[:, :K.NH] != 0).any(axis=1).all()
