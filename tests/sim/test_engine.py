"""Packet engine against queueing theory, loss-model laws and conservation.

Every expected value is derived here, independently of the engine:
M/D/1 waiting-room occupancy (Pollaczek-Khinchine), the Gilbert-Elliott
stationary loss, a saturated link's goodput from its serialisation time.
"""

import math

import numpy as np
import pytest

from ctlcc.errors import ConservationError, ParameterError
from ctlcc.sim import engine, run, scenarios as S
from ctlcc.sim.senders import SENDERS
from ctlcc.sim.scenarios import Bernoulli, Flow, GilbertElliott, Link, PacketList, Scenario

RATE = 1.5e6  # [bit/s]
WIRE_BITS = 8 * 1054  # 1000-byte payload + 54 bytes of headers [bit]
MU = RATE / WIRE_BITS  # service rate [packets/s]


def _one_link(protocol, rate, loss=None, buffer=100_000):
    sender = SENDERS[protocol](rate=rate)
    return Scenario("one_link", (Link("S", "D", RATE, 0.01, buffer, loss),),
                    (Flow(("S", "D"), sender=sender),), (("S", "D"),))


# --- queueing theory ------------------------------------------------------------------

@pytest.mark.parametrize("rho, tolerance, source", [
    (0.5, 0.06, "M/D/1 P-K: Lq = rho^2 / (2 (1 - rho))"),
    (0.8, 0.08, "M/D/1 P-K: Lq = rho^2 / (2 (1 - rho))"),
])
def test_poisson_source_waiting_room_matches_md1(rho, tolerance, source):
    # Poisson arrivals at rate rho*mu into a FIFO with deterministic service 1/mu:
    # mean number waiting (not in service) Lq = rho^2 / (2 (1 - rho)).
    expected = rho ** 2 / (2 * (1 - rho))
    means, utils = [], []
    for seed in range(3):
        result = run(_one_link("poisson", rho * MU), 2000.0, seed=seed)
        means.append(result.queues[0].mean)
        utils.append(result.queues[0].utilisation)
    assert np.mean(means) == pytest.approx(expected, rel=tolerance), source
    # the server is busy a fraction rho of the time (Little's law on the server)
    assert np.mean(utils) == pytest.approx(rho, rel=0.02)


def test_cbr_below_capacity_never_waits():
    # D/D/1 with rho < 1: each packet leaves before the next arrives.
    result = run(_one_link("cbr", 0.9 * MU), 100.0)
    assert result.queues[0].max == 0 and result.queues[0].mean == 0.0
    assert result.queues[0].utilisation == pytest.approx(0.9, rel=1e-3)


# --- loss models ----------------------------------------------------------------------

@pytest.mark.parametrize("model, tolerance, source", [
    (Bernoulli(0.02), 0.05, "binomial: p"),
    (GilbertElliott(0.5, 0.05, 0.0, 1.0), 0.05, "thesis §4.4.1.2: pi_bad * loss_bad"),
    (GilbertElliott(0.2, 0.1, 0.01, 0.5), 0.05, "pi_good*loss_good + pi_bad*loss_bad"),
])
def test_loss_models_mean_loss(model, tolerance, source):
    # A CBR source's arrivals do not depend on the channel, so the long-run lost
    # fraction is the channel's time-average loss probability.
    pi_bad = getattr(model, "mean_bad", 0.0) / (getattr(model, "mean_good", 1.0)
                                              + getattr(model, "mean_bad", 0.0))
    expected = (model.p if isinstance(model, Bernoulli)
                else (1 - pi_bad) * model.loss_good + pi_bad * model.loss_bad)
    fractions = []
    for seed in range(3):
        q = run(_one_link("cbr", 100.0, model), 1000.0, seed=seed).queues[0]
        fractions.append(q.losses / q.arrivals)
    assert np.mean(fractions) == pytest.approx(expected, rel=tolerance), source


def test_gilbert_elliott_losses_come_in_bursts():
    # Mean bad sojourn 0.05 s at 100 packets/s: a burst holds about
    # 0.05 * 100 = 5 consecutive packets (plus the one straddling the switch),
    # against 1/(1 - p) ~ 1.1 for Bernoulli loss of the same mean.
    model = GilbertElliott(0.5, 0.05)
    result = run(_one_link("cbr", 100.0, model), 500.0, trace=True)
    lost_times = np.sort(result.traces.drops[:, 0])
    runs = np.split(lost_times, np.nonzero(np.diff(lost_times) > 1.5 / 100.0)[0] + 1)
    mean_run = np.mean([len(r) for r in runs])
    assert 4.0 < mean_run < 7.0


def test_packet_list_loses_exactly_the_listed_packets():
    model = PacketList((5, 6, 100))
    result = run(_one_link("cbr", 100.0, model), 5.0, trace=True)
    assert result.queues[0].losses == 3
    # CBR at 100 packets/s: packet k leaves at (k-1)/100 s and arrives 1/MU + 10 ms later
    expected = [(k - 1) / 100.0 + 1 / MU + 0.01 for k in (5, 6, 100)]
    assert result.traces.drops[:, 0] == pytest.approx(expected, abs=1e-9)


# --- a saturated link -----------------------------------------------------------------

@pytest.mark.parametrize("protocol", ["reno", "newreno", "tahoe", "vegas"])
def test_lossless_window_above_bdp_saturates_bottleneck(protocol):
    # Fig. 3.7 path, window capped at 20 packets: above the BDP (~8.4) and below
    # BDP + buffer + 1 (~23.4), so the bottleneck never drops and, after the
    # start-up, is never idle.  Goodput -> rate * payload fraction.
    tcp = S.TcpOptions(max_window=20)
    scenario = S.thesis_fig3_7_sufficient(protocol=protocol, tcp=tcp)
    duration = 60.0
    result = run(scenario, duration)
    flow = result.flows[0]
    assert flow.dropped == 0 and flow.retransmitted == 0
    ceiling = RATE * 1000 / 1054
    # start-up (slow start to 20 packets) costs well under 1 s of link time
    assert ceiling * (1 - 1.0 / duration) < flow.goodput_bps <= ceiling


def test_bottleneck_queue_never_exceeds_buffer():
    for name in ("thesis_fig3_7_insufficient", "sttp_fig3"):
        result = run(S.preset(name), 30.0)
        link = result.queues[0].link
        buffer = next(l.buffer for l in result.scenario.links if (l.a, l.b) == link)
        assert result.queues[0].max == buffer  # filled, never beyond
        assert result.queues[0].drops > 0


# --- conservation and determinism -----------------------------------------------------

@pytest.mark.parametrize("name", sorted(S.PRESETS))
def test_conservation_in_every_preset(name):
    result = run(S.preset(name), 20.0)
    for f in result.flows:
        assert f.sent == f.delivered + f.dropped + f.in_flight
        assert f.delivered_unique <= f.delivered


def test_conservation_violation_raises(monkeypatch):
    sim = engine._Simulation(S.single_bottleneck(), 2.0, False, 0.01)
    sim.drive(np.random.default_rng(0), False)
    sim.fi[0, engine.K.I_SENT] += 1  # one packet vanishes from the books
    with pytest.raises(ConservationError, match="sent=.* != delivered"):
        sim.result(0, 0.0)


def test_same_seed_same_run_other_seed_other_run():
    scenario = S.thesis_fig4_7(loss=0.01)
    a, b = run(scenario, 30.0, seed=7, trace=True), run(scenario, 30.0, seed=7, trace=True)
    c = run(scenario, 30.0, seed=8)
    assert a.flows == b.flows and a.queues == b.queues
    np.testing.assert_array_equal(a.traces.window, b.traces.window)
    np.testing.assert_array_equal(a.traces.rtt, b.traces.rtt)
    assert a.flows != c.flows


def test_flows_send_only_while_active():
    scenario = S.dumbbell(2, start=[0.0, 5.0], stop=[math.inf, 10.0])
    result = run(scenario, 15.0, trace=True, sample_interval=0.05)
    t, sent = result.traces.time, result.traces.sent[:, 1]
    assert np.all(sent[t < 5.0] == 0)
    after = t > 10.0 + 1e-9
    assert np.all(sent[after] == sent[after][0])
    assert result.flows[1].active_time == 5.0


def test_traces_are_opt_in_and_sampled():
    result = run(S.thesis_fig3_7_sufficient(), 10.0)
    assert result.traces is None
    traced = run(S.thesis_fig3_7_sufficient(), 10.0, trace=True, sample_interval=0.1)
    assert traced.traces.time.shape == (101,)
    assert traced.traces.window.shape == (101, 1)
    assert traced.traces.queue.shape == (101, 1)
    # the first packet meets empty queues: its RTT is the sum of the propagation
    # delays and of the data and ACK serialisation times on both links
    base = (2 * (0.2e-3 + 20e-3) + WIRE_BITS / 10e6 + WIRE_BITS / RATE
            + 8 * 54 / RATE + 8 * 54 / 10e6)
    rtt = traced.traces.rtt[:, 2]
    assert rtt.min() == pytest.approx(base, rel=1e-12)
    # and none waits longer than a full 14-packet queue at R (+ one in service)
    assert rtt.max() <= base + 15 * WIRE_BITS / RATE + 1e-12
    every10 = run(S.thesis_fig3_7_sufficient(), 10.0, trace=True, rtt_every=10).traces.rtt
    assert len(every10) == len(traced.traces.rtt) // 10
    np.testing.assert_array_equal(every10, traced.traces.rtt[9::10])


def test_jain_index_table():
    # (values, expected, source)
    for values, expected in (([1, 1, 1, 1], 1.0), ([1, 0, 0, 0], 0.25), ([3, 1], 0.8)):
        assert engine.jain_index(values) == pytest.approx(expected)  # (sum)^2/(n sum sq)


# --- bad input ------------------------------------------------------------------------

@pytest.mark.parametrize("call, match", [
    (lambda: run(S.single_bottleneck(), 0.0), r"duration must be in \(0, inf\)"),
    (lambda: run(S.single_bottleneck(), 1.0, seed=-1), "seed must be an integer"),
    (lambda: run("thesis_fig3_7_sufficient", 1.0), "scenario must be a Scenario"),
    (lambda: run(S.single_bottleneck(), 1.0, sample_interval=0), "sample_interval"),
    (lambda: run(S.single_bottleneck(), 1.0, rtt_every=0), "rtt_every must be an integer >= 1"),
])
def test_run_bad_input(call, match):
    with pytest.raises(ParameterError, match=match):
        call()


# --- metrics --------------------------------------------------------------------------

def test_primo_criteria_of_open_loop_sources():
    # Two identical CBR sources at 40 % of the link each: constant sending and
    # reception rates (stability 100 %), no loss (goodput 100 %), equal shares
    # (fairness 100 %), link busy 80 % of the time (occupancy 80 %).
    rate = 0.4 * MU
    scenario = Scenario("two_cbr", (Link("S", "R", 10 * RATE, 1e-3), Link("R", "D", RATE, 0.01)),
                        (Flow(("S", "R", "D"), sender=SENDERS["cbr"](rate=rate)),
                         Flow(("S", "R", "D"), sender=SENDERS["cbr"](rate=rate))), (("R", "D"),))
    result = run(scenario, 100.0, sample_interval=1.0)
    crit = result.efficiency(warmup=1.0)
    assert crit["goodput"] == 100.0
    assert crit["fairness"] == pytest.approx(100.0, abs=0.5)
    assert crit["occupancy"] == pytest.approx(80.0, abs=0.5)
    # per 1-s interval a CBR source sends floor or ceil of its rate: std/mean < 1 %
    assert crit["sending_stability"] > 99.0 and crit["reception_stability"] > 99.0


def test_progress_bar_runs(capsys):
    result = run(S.dumbbell(5), 61.0, progress=True)
    assert result.duration == 61.0
    assert "sim s" in capsys.readouterr().err


def test_thesis_fig4_18_loses_only_the_burst():
    # Window capped at 132 packets.  In steady state at most 132 - BDP (~94) = 38
    # packets queue at R1; in slow start's last round (cwnd 66 -> 132) each of
    # the 66 ACKs releases two packets into a link that serves one, so the queue
    # peaks at 66 < buffer 100: the only losses are packets 2000 and 2001.
    result = run(S.preset("thesis_fig4_18"), 60.0)
    assert result.queues[0].drops == 0 and result.queues[0].losses == 2
    assert result.queues[0].max <= 66
