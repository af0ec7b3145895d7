"""Pure-Python parts of ctlcc.sim.ns3: mapping, header accounting, errors, data.

Nothing here runs ns-3; tests/sim/test_ns3_compare.py does (slow) and checks
the engine against the committed ns-3 numbers (fast).
"""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ctlcc.errors import ParameterError
from ctlcc.sim import ns3
from ctlcc.sim.ns3 import (
    NS3_VARIANTS,
    Ns3Options,
    Ns3UnavailableError,
    comparison_cases,
    comparison_variants,
    ns3_header_bytes,
    ns3_job,
    read_ns3_csv,
    run_ns3,
    wire_rate_scale,
)
from ctlcc.sim.scenarios import GilbertElliott, PacketList, TcpOptions, dumbbell, preset

ROOT = Path(__file__).resolve().parents[2]

# Header sizes from the protocol specifications, independent of the code:
# IPv4 header without options 20 B (RFC 791), TCP header without options 20 B
# (RFC 793), timestamp option kind+len+2x4 = 10 B padded to a 4-byte
# boundary = 12 B (RFC 7323 §3 / appendix A layout), PPP protocol field 2 B
# (ns-3's PppHeader, RFC 1661 without address/control/FCS).
HEADER_CASES = [
    (True, 20 + 20 + 12 + 2, "RFC 791 + RFC 793 + RFC 7323 (padded) + PPP protocol field"),
    (False, 20 + 20 + 2, "RFC 791 + RFC 793 + PPP protocol field"),
]


@pytest.mark.parametrize("timestamps, expected, source", HEADER_CASES)
def test_header_bytes(timestamps, expected, source):
    assert ns3_header_bytes(timestamps) == expected


@pytest.mark.parametrize("payload, scenario_headers, timestamps, expected, source", [
    (1000, 0, True, 1054 / 1000, "ns-2 style: 1000 B on the wire vs ns-3's 1054 B"),
    (1000, 54, True, 1.0, "scenario already counts ns-3's 54 B"),
    (1000, 54, False, 1042 / 1054, "timestamps off: 42 B in ns-3"),
    (500, 40, True, 554 / 540, "other payload"),
])
def test_wire_rate_scale_equalises_packet_time(payload, scenario_headers, timestamps,
                                                expected, source):
    scale = wire_rate_scale(payload, scenario_headers, timestamps)
    assert scale == pytest.approx(expected, rel=1e-12)
    # a data packet then takes the same time on a 1.5 Mb/s link in both
    ns3_time = 8 * (payload + ns3_header_bytes(timestamps)) / (1.5e6 * scale)
    scenario_time = 8 * (payload + scenario_headers) / 1.5e6
    assert ns3_time == pytest.approx(scenario_time, rel=1e-12)


def test_job_maps_fig3_7_scenario():
    job = ns3_job(preset("thesis_fig3_7_sufficient", protocol="newreno"), 30.0, seed=3)
    topo, tcp = job["topology"], job["tcp"]
    assert topo["node_names"] == ["S", "R", "D"]
    assert [(l["a"], l["b"]) for l in topo["links"]] == [(0, 1), (1, 2)]
    access, bottleneck = topo["links"]
    assert (access["rate_bps"], access["delay_s"], access["buffer_ab"]) == (10e6, 0.2e-3, 1000)
    assert (bottleneck["rate_bps"], bottleneck["delay_s"]) == (1.5e6, 20e-3)
    assert (bottleneck["buffer_ab"], bottleneck["monitor_ab"], bottleneck["monitor_ba"]) == (
        14, True, False)
    assert not access["monitor_ab"] and bottleneck["loss_ab"] == 0.0
    assert topo["flows"] == [{"src": 0, "dst": 2, "start": 0.0, "stop": 30.0, "name": "flow0",
                              "protocol": "newreno", "socket_type": "ns3::TcpNewReno"}]
    # TCP: what the scenario says (preset defaults: IW 1, RTO min/initial 1 s) and the
    # fixed comparison settings (delayed ACKs off, DataRetries raised, ns-3 recovery)
    assert tcp["socket_type"] == "ns3::TcpNewReno"
    assert tcp["recovery_type"] == "ns3::TcpPrrRecovery"
    assert (tcp["segment_size"], tcp["initial_cwnd"], tcp["min_rto"], tcp["initial_rto"]) == (
        1000, 1, 1.0, 1.0)
    assert (tcp["del_ack_count"], tcp["data_retries"], tcp["dupack_threshold"]) == (1, 100, 3)
    assert tcp["sack"] and tcp["timestamps"]
    assert tcp["rate_scale"] == 1.0 and tcp["ns3_header_bytes"] == 54
    assert tcp["buffer_bytes"] == 4096 * 1000
    assert (job["duration"], job["seed"], job["trace"], job["warmup"]) == (30.0, 3, False, 0.0)


def test_job_maps_loss_options_and_headers():
    scenario = preset("thesis_fig4_7", loss=0.01, header_bytes=0,
                      tcp=TcpOptions(initial_window=10, min_rto=0.2, initial_rto=3.0))
    job = ns3_job(scenario, 10.0, options=Ns3Options(sack=False, recovery="classic"))
    wireless = job["topology"]["links"][1]
    assert (wireless["loss_ab"], wireless["loss_ba"], wireless["delay_s"]) == (0.01, 0.0, 80e-3)
    tcp = job["tcp"]
    assert (tcp["initial_cwnd"], tcp["min_rto"], tcp["initial_rto"]) == (10, 0.2, 3.0)
    assert tcp["rate_scale"] == pytest.approx(1.054)
    assert (tcp["sack"], tcp["recovery_type"]) == (False, "ns3::TcpClassicRecovery")
    unscaled = ns3_job(scenario, 10.0, options=Ns3Options(match_wire_time=False))
    assert unscaled["tcp"]["rate_scale"] == 1.0


@pytest.mark.parametrize("scenario_lt, option_lt, expected", [
    (False, None, False),  # follows the scenario (ctlcc's default: off)
    (True, None, True),
    (False, True, True),   # Ns3Options overrides (ns-3's own default: on)
    (True, False, False),
])
def test_job_maps_limited_transmit(scenario_lt, option_lt, expected):
    scenario = preset("thesis_fig3_7_sufficient", tcp=TcpOptions(limited_transmit=scenario_lt))
    job = ns3_job(scenario, 1.0, options=Ns3Options(limited_transmit=option_lt))
    assert job["tcp"]["limited_transmit"] is expected


def test_comparison_default_variant_is_ns3s_default():
    assert NS3_VARIANTS["default"] == Ns3Options(sack=True, recovery="prr", timestamps=True,
                                                 limited_transmit=True)


def test_job_maps_dumbbell_and_vegas():
    scenario = dumbbell(3, protocol="vegas", start=[0.0, 0.5, 1.0])
    job = ns3_job(scenario, 5.0)
    topo = job["topology"]
    assert topo["nodes"] == 2 + 3 + 3
    assert [f["start"] for f in topo["flows"]] == [0.0, 0.5, 1.0]
    names = topo["node_names"]
    assert [(names[f["src"]], names[f["dst"]]) for f in topo["flows"]] == [
        ("S0", "D0"), ("S1", "D1"), ("S2", "D2")]
    monitored = [(names[l["a"]], names[l["b"]]) for l in topo["links"] if l["monitor_ab"]]
    assert monitored == [("A", "B")]
    tcp = job["tcp"]
    assert tcp["socket_type"] == "ns3::TcpVegas"
    assert (tcp["vegas_alpha"], tcp["vegas_beta"], tcp["vegas_gamma"]) == (1, 3, 1)


def test_job_maps_mixed_protocols_and_cubic():
    """ns-3 sets the congestion control per source node: one flow each here."""
    job = ns3_job(dumbbell(3, protocol="newreno"), 5.0, protocols=["cubic", "newreno", "vegas"])
    assert [f["socket_type"] for f in job["topology"]["flows"]] == [
        "ns3::TcpCubic", "ns3::TcpNewReno", "ns3::TcpVegas"]
    mixed = ns3_job(dumbbell(2, protocol=["vegas", "newreno"]), 5.0)
    assert [f["protocol"] for f in mixed["topology"]["flows"]] == ["vegas", "newreno"]


def test_job_maps_gilbert_elliott():
    channel = GilbertElliott(mean_good=2.0, mean_bad=0.01, loss_good=0.0, loss_bad=0.5)
    job = ns3_job(preset("thesis_fig4_7", loss=channel), 5.0)
    wireless = job["topology"]["links"][1]
    assert wireless["loss_ab"] == 0.0
    assert wireless["ge_ab"] == {"mean_good": 2.0, "mean_bad": 0.01, "loss_good": 0.0,
                                 "loss_bad": 0.5}
    assert job["topology"]["links"][0]["ge_ab"] is None


@pytest.mark.parametrize("call, match", [
    (lambda: ns3_job(preset("thesis_fig3_7_sufficient", protocol="tahoe"), 1.0),
     "protocol must be one of 'reno', 'newreno', 'sack', 'vegas', 'cubic'"),
    (lambda: ns3_job(preset("thesis_fig3_7_sufficient", protocol="stpd"), 1.0),
     "has no Tahoe, ST-PD or Primo"),
    (lambda: ns3_job(preset("thesis_fig3_7_sufficient", n=2), 1.0, protocols=["reno", "vegas"]),
     "congestion control per node"),
    (lambda: ns3_job(preset("thesis_fig3_7_sufficient"), 1.0, protocols=["reno", "reno"]),
     "one protocol per flow"),
    (lambda: ns3_job(preset("thesis_fig4_7", loss=PacketList((5,))), 1.0),
     "must be Bernoulli, GilbertElliott or None"),
    (lambda: ns3_job(preset("thesis_fig3_7_sufficient"), 0.0), r"duration must be in \(0, inf\)"),
    (lambda: ns3_job(preset("thesis_fig3_7_sufficient"), 5.0, warmup=5.0),
     "warmup must be < duration"),
    (lambda: ns3_job(preset("thesis_fig3_7_sufficient"), 5.0, seed=-1),
     "seed must be an integer >= 0"),
    (lambda: ns3_job(preset("thesis_fig3_7_sufficient", start=6.0), 5.0), "after duration"),
    (lambda: Ns3Options(recovery="fast"), "recovery must be one of 'prr', 'classic'"),
    (lambda: Ns3Options(data_retries=0), "data_retries must be an integer >= 1"),
    (lambda: Ns3Options(clock_granularity=0.0), "clock_granularity must be in"),
    (lambda: comparison_cases("fig9"), "family must be one of 'fig3_7', 'loss', 'dumbbell'"),
    (lambda: read_ns3_csv("ns3_nothing"), "name must name a file"),
    (lambda: wire_rate_scale(0, 54), "payload_bytes must be an integer >= 1"),
])
def test_bad_input(call, match):
    with pytest.raises(ParameterError, match=match):
        call()


def test_missing_ns3_gives_install_hint(monkeypatch):
    monkeypatch.setattr(ns3, "ns3_available", lambda: False)
    with pytest.raises(Ns3UnavailableError, match=r"pip install ctlcc\[ns3\]") as info:
        run_ns3(preset("thesis_fig3_7_sufficient"), 1.0)
    assert isinstance(info.value, ImportError)


def test_missing_ns3_in_process(monkeypatch):
    from ctlcc.sim import _ns3_backend

    monkeypatch.setattr(ns3, "ns3_available", lambda: True)
    monkeypatch.setitem(sys.modules, "ns", None)  # makes `from ns import ns` fail
    _ns3_backend._load.cache_clear()
    try:
        with pytest.raises(Ns3UnavailableError, match=r"pip install ctlcc\[ns3\]"):
            run_ns3(preset("thesis_fig3_7_sufficient"), 1.0, isolate=False)
    finally:
        _ns3_backend._load.cache_clear()


def test_importing_ctlcc_does_not_import_ns3():
    code = ("import sys, ctlcc, ctlcc.sim.ns3, ctlcc.sim._ns3_backend; "
            "print('ns' in sys.modules, 'cppyy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout.split()
    assert out == ["False", "False"]


def test_comparison_cases_follow_the_issue():
    fig = comparison_cases("fig3_7")
    assert [(c.params["buffer"], c.scenario.links[1].buffer, c.duration) for c in fig] == [
        (14, 14, 30.0), (4, 4, 30.0)]
    loss = comparison_cases("loss")
    assert sorted({c.params["loss"] for c in loss}) == [1e-3, 3e-3, 1e-2, 3e-2, 1e-1]
    assert {c.scenario.links[1].loss.p for c in loss} == {c.params["loss"] for c in loss}
    bells = comparison_cases("dumbbell")
    assert sorted({c.params["n"] for c in bells}) == [10, 20, 30, 50]
    for case in bells:
        starts = [f.start for f in case.scenario.flows]
        assert len(starts) == case.params["n"] and all(0.0 <= s < 1.0 for s in starts)
        link = case.scenario.links[0]
        assert (link.rate, link.delay, link.buffer) == (2e6, 4e-3, 128)


# --- the committed ns-3 numbers -------------------------------------------------------

def test_committed_csvs_have_provenance():
    for name in ("ns3_fig3_7", "ns3_fig3_7_traces", "ns3_loss", "ns3_dumbbell"):
        table = read_ns3_csv(name)
        assert table.provenance["ns3_version"].startswith("3.44"), name
        for key in ("date", "seeds", "ns3_options", "ns3_config", "command", "source"):
            assert table.provenance[key], (name, key)
        assert len(table) > 0


@pytest.mark.parametrize("name, rate_bps", [
    ("ns3_fig3_7", 1.5e6), ("ns3_loss", 1.5e6), ("ns3_dumbbell", 2e6)])
def test_committed_goodput_below_the_header_bound(name, rate_bps):
    """Goodput <= rate x 1000/1054: every segment carries 54 B of headers."""
    table = read_ns3_csv(name)
    if name == "ns3_dumbbell":
        sums = [table.where(n=n, seed=s, variant=v)["goodput_bps"].sum()
                for n in np.unique(table["n"]) for s in np.unique(table["seed"])
                for v in np.unique(table["variant"])]
    else:
        sums = table["goodput_bps"]
    assert np.all(np.asarray(sums) <= rate_bps * 1000 / 1054)
    assert np.all(np.asarray(sums) > 0)


@pytest.mark.parametrize("name", ["ns3_fig3_7", "ns3_loss", "ns3_dumbbell"])
def test_committed_counters_conserve_packets(name):
    """sent = delivered + dropped + (a window's worth at most) in flight."""
    table = read_ns3_csv(name)
    in_flight = table["sent"] - table["delivered"] - table["dropped"]
    assert np.all(in_flight >= 0)
    assert np.all(in_flight <= 1000 + 128)  # at most the queues along the path


def test_committed_variants_and_traces():
    for family in ("fig3_7", "loss", "dumbbell"):
        table = read_ns3_csv(f"ns3_{family}")
        assert set(table["variant"]) == set(comparison_variants(family))
        assert np.all(table["retransmitted"] <= table["sent"])
    traces = read_ns3_csv("ns3_fig3_7_traces")
    for buffer in (14, 4):
        rows = traces.where(buffer=buffer)
        assert rows["time"][0] == 0.0 and rows["time"][-1] == pytest.approx(30.0)
        assert rows["queue"].max() <= buffer  # the device queue never exceeds its limit
        assert rows["cwnd"][rows["time"] > 0.1].min() >= 1.0
