"""Scenarios: the papers' setups as printed, overrides, and bad input."""

import math

import pytest

from ctlcc.errors import ParameterError
from ctlcc.sim import scenarios as S
from ctlcc.sim.scenarios import Bernoulli, Flow, GilbertElliott, Link, Scenario, TcpOptions
from ctlcc.sim import run
from ctlcc.sim.senders import Stpd


def _link(scenario, a, b):
    return next(l for l in scenario.links if (l.a, l.b) == (a, b))


# (preset, link, rate [bit/s], delay [s], buffer [packets], source)
PRINTED = [
    ("thesis_fig3_7_sufficient", ("R", "D"), 1.5e6, 20e-3, 14, "thesis Fig. 3.7, §3.5.1.1"),
    ("thesis_fig3_7_insufficient", ("R", "D"), 1.5e6, 20e-3, 4, "thesis Fig. 3.7, §3.5.1.2"),
    ("thesis_fig3_7_sufficient", ("S", "R"), 10e6, 0.2e-3, S.ACCESS_BUFFER, "thesis Fig. 3.7"),
    ("thesis_fig3_14", ("R1", "R2"), 1.5e6, 20e-3, 20, "thesis Fig. 3.14, §3.5.2.1"),
    ("thesis_fig3_18", ("R1", "R2"), 1.5e6, 10e-3, 20, "thesis Fig. 3.18, §3.5.2.2"),
    ("thesis_fig3_18", ("R2", "R3"), 1.5e6, 8e-3, 20, "thesis Fig. 3.18, §3.5.2.2"),
    ("thesis_fig3_18", ("S3", "R2"), 384e3, 5e-3, S.ACCESS_BUFFER, "quarter T1, §3.5.2.2"),
    ("thesis_fig4_7", ("R", "D"), 1.5e6, 80e-3, 30, "thesis Fig. 4.7, §4.4.1"),
    ("thesis_fig4_7", ("S", "R"), 10e6, 0.1e-3, S.ACCESS_BUFFER, "thesis Fig. 4.7"),
    ("thesis_fig4_18", ("R1", "R2"), 1.5e6, 250e-3, 100, "thesis Fig. 4.18, §4.4.2"),
    ("sttp_fig3", ("A", "B"), 2e6, 4e-3, 128, "STTP §IV Fig. 3"),
    ("sttp_fig3", ("S0", "A"), 10e6, 1e-3, 128, "STTP §IV Fig. 3"),
    ("primo_fig1_top", ("R1", "R2"), 2e6, 10e-3, 30, "Primo §IV-A (30 packets)"),
    ("cbraa_fig2", ("A", "B"), 4e6, 40e-3, 20, "CBRAA §4: 4 Mb/s, 20000 bytes"),
]


@pytest.mark.parametrize("name, link, rate, delay, buffer, source", PRINTED)
def test_presets_carry_the_printed_setup(name, link, rate, delay, buffer, source):
    found = _link(S.preset(name), *link)
    assert (found.rate, found.delay, found.buffer) == (rate, delay, buffer), source


def test_thesis_fig3_14_start_stop_times():
    # "S1D1 starts at 0 and ends at 36 s, S2D2 12-48 s, S3D3 24-60 s" (§3.5.2.1)
    flows = S.preset("thesis_fig3_14").flows
    assert [(f.start, f.stop) for f in flows] == [(0.0, 36.0), (12.0, 48.0), (24.0, 60.0)]


def test_primo_top_no_congestion_rtt_is_24_ms():
    # §IV-B: "RTT without congestion ... fixed to 24 ms for the first source"
    sc = S.preset("primo_fig1_top")
    path = sc.flows[0].path
    one_way = sum(_link(sc, a, b).delay for a, b in zip(path[:-1], path[1:]))
    assert 2 * one_way == pytest.approx(24e-3)


def test_cbraa_end_to_end_delay_is_50_ms():
    sc = S.preset("cbraa_fig2")
    path = sc.flows[0].path
    links = {(l.a, l.b): l for l in sc.links}
    assert sum(links[h].delay for h in zip(path[:-1], path[1:])) == pytest.approx(50e-3)


def test_primo_bottom_each_router_link_carries_three_flows():
    sc = S.preset("primo_fig1_bottom")
    for a, b in sc.bottlenecks:
        users = [f.name for f in sc.flows if any(h == (a, b) for h in zip(f.path[:-1], f.path[1:]))]
        assert len(users) == 3, (a, b, users)
    crossings = {f.name: len(f.path) - 3 for f in sc.flows}
    assert crossings == {"a": 1, "b": 1, "c": 2, "d": 2, "e": 3}


def test_thesis_fig4_18_loses_packets_2000_and_2001():
    assert _link(S.preset("thesis_fig4_18"), "R1", "R2").loss.indices == (2000, 2001)


def test_overrides_protocol_loss_buffer_n():
    sc = S.preset("sttp_fig3", protocol="vegas", loss=0.01, buffer=50, n=20)
    assert len(sc.flows) == 20 and {f.protocol for f in sc.flows} == {"vegas"}
    bottleneck = _link(sc, "A", "B")
    assert bottleneck.buffer == 50 and bottleneck.loss == Bernoulli(0.01)
    ge = GilbertElliott(1.0, 0.1)
    assert _link(S.preset("thesis_fig4_7", loss=ge), "R", "D").loss is ge


def test_every_preset_builds_with_its_docstring_reference():
    for name, builder in S.PRESETS.items():
        sc = S.preset(name)
        assert sc.name == name
        assert "References" in builder.__doc__


def test_wire_sizes():
    sc = S.single_bottleneck()
    assert sc.data_bits == 8 * 1054 and sc.payload_fraction == pytest.approx(1000 / 1054)


# (call, match)
BAD = [
    (lambda: Link("a", "b", 0.0, 1e-3), r"rate must be in \(0, inf\)"),
    (lambda: Link("a", "b", -1e6, 1e-3), r"rate must be in \(0, inf\)"),
    (lambda: Link("a", "b", 1e6, 0.0), r"delay must be in \(0, inf\)"),
    (lambda: Link("a", "b", 1e6, 1e-3, buffer=0), r"buffer must be an integer >= 1"),
    (lambda: Link("a", "b", 1e6, 1e-3, buffer=2.5), r"buffer must be an integer >= 1"),
    (lambda: Link("a", "b", 1e6, 1e-3, loss=1.0), r"loss p must be in \[0, 1\)"),
    (lambda: Link("a", "b", 1e6, 1e-3, loss=-0.1), r"loss p must be in \[0, 1\)"),
    (lambda: Link("a", "b", 1e6, 1e-3, loss="high"), "loss must be a probability"),
    (lambda: GilbertElliott(0.0, 1.0), r"mean_good must be in \(0, inf\)"),
    (lambda: GilbertElliott(1.0, 1.0, loss_good=1.0), r"loss_good must be in \[0, 1\)"),
    (lambda: Flow(("a", "b"), start=5.0, stop=2.0), "flow cannot stop before it starts"),
    (lambda: Flow(("a", "b"), start=-1.0), r"start must be in \[0, inf\)"),
    (lambda: Flow(("a", "b"), protocol="bbr"), "protocol must be one of 'reno', 'newreno'"),
    (lambda: Flow(("a", "b"), protocol="cbr"), "rate .* is required"),
    (lambda: Stpd(gains=(-0.1, 0.2)), r"kp must be in \[0, inf\)"),
    (lambda: Stpd(gains="fast"), "gains must be a pair"),
    (lambda: Flow(("a",)), r"path must hold at least 2 element\(s\), got 1"),
    (lambda: Scenario("x", (Link("a", "b", 1e6, 1e-3),), (Flow(("a", "c")),)),
     "uses a->c, which no link joins"),
    (lambda: Scenario("x", (Link("a", "b", 1e6, 1e-3),), (Flow(("a", "b")),), payload_bytes=0),
     "payload_bytes must be an integer >= 1"),
    (lambda: S.preset("thesis_fig9_9"), "name must be one of 'thesis_fig3_7_sufficient'"),
    (lambda: S.preset("thesis_fig3_18", n=4), "n cannot be overridden"),
    (lambda: S.dumbbell(0), "n must be an integer >= 1"),
    (lambda: S.dumbbell(2, access_delay=[1e-3]), r"access_delay must be a scalar or have one "
                                                  r"value each \(2\), got 1"),
    (lambda: S.parking_lot(2, routes=[(1, 1)]), "routes must satisfy"),
    (lambda: TcpOptions(initial_window=0), "initial_window must be an integer >= 1"),
    (lambda: TcpOptions(min_rto=0.0), r"min_rto must be in \(0, inf\)"),
    (lambda: S.single_bottleneck(bottleneck_rate=0), r"bottleneck_rate must be in \(0, inf\)"),
    (lambda: S.single_bottleneck(stop=math.nan), r"stop must be in \(0, inf\], got nan"),
    # issue 16's simulator defects: each refused at the call, naming the argument
    (lambda: S.parking_lot(hops=1e308), r"hops must be an integer >= 1 and <= 1000, got 1"),
    (lambda: S.dumbbell(10**9), r"n must be an integer >= 1 and <= 10000, got 1000000000"),
    (lambda: TcpOptions(max_window=10**9),
     r"max_window must be an integer >= 1 and <= 1048576, got 1000000000"),
    (lambda: TcpOptions(vegas_gamma="abc"), r"vegas_gamma must be a real number, got 'abc'"),
    (lambda: TcpOptions(min_rto=2.0, max_rto=1.0), r"max_rto must be >= min_rto = 2.0"),
    (lambda: TcpOptions(limited_transmit="false"),
     r"limited_transmit must be True or False, got 'false'"),
    (lambda: TcpOptions(vegas_alpha=3.0, vegas_beta=1.0), r"vegas_beta must be >= vegas_alpha"),
    (lambda: Flow("SD"), r"path must be a sequence \(list or tuple\), got 'SD'"),
    (lambda: Flow(("S", 1)), r"path\[1\] must be a str, got int 1"),
    (lambda: Link("a", "b", 1e6, 1e-3, buffer="abc"), r"buffer must be an integer >= 1 .*got 'abc'"),
    (lambda: Link("a", "b", 1e6, 1e-3, buffer=10**9), r"buffer must be an integer >= 1 and <= "),
    (lambda: Link(1, "b", 1e6, 1e-3), r"a must be a str, got int 1"),
    (lambda: Link("a", "b", [1e6, 2e6], 1e-3), r"rate must be a single number"),
    (lambda: S.single_bottleneck(access_rate=-1.0), r"access_rate must be in \(0, inf\), got -1.0"),
    (lambda: S.single_bottleneck(access_buffer=0), r"access_buffer must be an integer >= 1"),
    (lambda: S.dumbbell(2, egress_delay=-1.0), r"egress_delay must be in \(0, inf\), got -1.0"),
    (lambda: S.parking_lot(router_rate=0.0), r"router_rate must be in \(0, inf\), got 0.0"),
    (lambda: S.parking_lot(router_rate=1j), r"router_rate must be a real number"),
    (lambda: S.preset(["thesis_fig4_7"]), r"name must be one of .*got \['thesis_fig4_7'\]"),
    (lambda: Bernoulli([0.1, 0.2]), r"loss p must be a single number"),
    (lambda: GilbertElliott([1.0], 1.0), r"mean_good must be a single number"),
    (lambda: GilbertElliott.from_burst(1e308, 0.5, 1e308), r"the bad-state sojourn is not finite"),
    (lambda: S.PacketList("abc"), r"indices must be a sequence"),
    (lambda: S.PacketList((3, [4, 5])), r"indices\[1\] must be an integer >= 1"),
    # run() checks the memory of its arrays before allocating (and before compiling)
    (lambda: run(S.thesis_fig4_7(), 1e308), r"the run would need about .* GiB of arrays .*"
                                            r"got duration=1e\+308"),
    (lambda: run(S.thesis_fig4_7(), 1.0, trace="false"), r"trace must be True or False"),
]


@pytest.mark.parametrize("call, match", BAD)
def test_bad_input(call, match):
    with pytest.raises(ParameterError, match=match):
        call()


def test_primo_options_go_in_the_sender_spec():
    # the old Flow(primo=...) field is gone: Primo's parameters ride in Primo(params)
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'primo'"):
        Flow(("S", "D"), primo="fast")
