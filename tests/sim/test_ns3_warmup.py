"""ns-3's measurement window (``warmup``): runs ns-3 (slow, skipped without it).

Expected values come from the same deterministic ns-3 run measured over two
windows: the payload a sink received by ``duration`` equals what it had
received by ``warmup`` plus what the ``[warmup, duration]`` window reports,
and likewise for the queue-length integral.  Before this test the warm-up
snapshot was overwritten at the end of the run, so every windowed goodput
and mean queue came out 0.
"""

import pytest

from ctlcc.sim.ns3 import ns3_available, run_ns3_many
from ctlcc.sim.scenarios import dumbbell

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not ns3_available(), reason="ns-3 (pip install ns3) not installed")]


def test_warmup_window_adds_up():
    scenario = dumbbell(2, bottleneck_rate=2e6, access_delay=[1e-3, 10e-3], buffer=20,
                        protocol="newreno")
    warmup, duration = 4.0, 8.0
    head, whole, tail = run_ns3_many([
        dict(scenario=scenario, duration=warmup, seed=0),
        dict(scenario=scenario, duration=duration, seed=0),
        dict(scenario=scenario, duration=duration, seed=0, warmup=warmup),
    ])
    for k in range(2):
        bits_head = head.flows[k].goodput_bps * warmup
        bits_whole = whole.flows[k].goodput_bps * duration
        bits_tail = tail.flows[k].goodput_bps * (duration - warmup)
        assert bits_tail > 0
        assert bits_head + bits_tail == pytest.approx(bits_whole, rel=1e-12)
    area_head = head.queues[0].mean * warmup
    area_whole = whole.queues[0].mean * duration
    area_tail = tail.queues[0].mean * (duration - warmup)
    assert area_tail > 0
    assert area_head + area_tail == pytest.approx(area_whole, rel=1e-9)
