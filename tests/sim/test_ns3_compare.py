"""ctlcc's packet engine against ns-3 (issue 6, "Validation against ns-3").

Two layers with the same assertions:

* fast: the engine against the ns-3 numbers committed in data/ns3_*.csv
  (written by ``python benchmarks/ns3_compare.py --write-data``), so the
  check runs without ns-3 installed;
* slow (``-m slow``): ns-3 is run live on the same scenarios; its numbers
  must equal the committed ones (ns-3 is deterministic per seed) and the
  engine must meet the same targets against them.

Targets (issue 6): Reno/NewReno goodput within 10 % of ns-3 where losses
are congestion-only (Fig. 3.7, dumbbell), the throughput-vs-loss curve
within 20 %.  The reference is ns-3's default configuration (SACK + PRR),
except where the table says otherwise and why.
"""

import numpy as np
import pytest

from ctlcc.sim import run
from ctlcc.sim.ns3 import NS3_VARIANTS, comparison_cases, comparison_variants, read_ns3_csv

# (family, label, protocol, ns-3 reference variant, tolerance, source/reason)
FIG3_7_TARGETS = [
    ("fig3_7", label, protocol, "default", 0.10, "issue 6: congestion-only losses")
    for label in ("buffer=14", "buffer=4") for protocol in ("reno", "newreno")
]
LOSS_TARGETS = [
    ("loss", f"loss={p:g}", protocol, "default", 0.20, "issue 6: throughput-vs-loss curve")
    for p in (1e-3, 3e-3, 1e-2, 3e-2) for protocol in ("reno", "newreno")
] + [
    # At 10 % loss a window holds several losses; ns-3's SACK (RFC 6675) repairs
    # them in one recovery, ctlcc's Reno/NewReno (no SACK) needs one RTT each or
    # a timeout.  ns-3 with SACK off and no limited transmit is the like-for-like
    # peer; test_sack_explains_the_gap_at_high_loss shows the gap is SACK's.
    ("loss", "loss=0.1", protocol, "nosack", 0.20, "ns-3 without SACK: like-for-like")
    for protocol in ("reno", "newreno")
]
DUMBBELL_TARGETS = [
    ("dumbbell", f"n={n}", protocol, "default", 0.10, "issue 6: congestion-only losses")
    for n in (10, 20, 30, 50) for protocol in ("reno", "newreno")
]
TARGETS = FIG3_7_TARGETS + LOSS_TARGETS + DUMBBELL_TARGETS


def committed_goodput(family, label, seed, variant="default"):
    """Goodput summed over flows from data/ns3_<family>.csv. [bit/s]"""
    table = read_ns3_csv(f"ns3_{family}")
    key, value = label.split("=")
    rows = table.where(**{key: float(value)}, seed=seed, variant=variant)
    assert len(rows) > 0, (family, label, seed, variant)
    return float(rows["goodput_bps"].sum())


def ctlcc_goodput(family, label, protocol, seed):
    case = _case(family, label, protocol, seed)
    return float(run(case.scenario, case.duration, seed=case.seed,
                     progress=False).goodputs_bps.sum())


def _case(family, label, protocol, seed):
    for case in comparison_cases(family, protocol=protocol):
        if case.label == label and case.seed == seed:
            return case
    raise LookupError((family, label, seed))


def _seeds(family, label):
    return sorted({c.seed for c in comparison_cases(family) if c.label == label})


@pytest.mark.parametrize("family, label, protocol, variant, tolerance, source", TARGETS)
def test_engine_matches_committed_ns3(family, label, protocol, variant, tolerance, source):
    seeds = _seeds(family, label)
    peer = np.mean([committed_goodput(family, label, s, variant) for s in seeds])
    ours = np.mean([ctlcc_goodput(family, label, protocol, s) for s in seeds])
    assert ours / peer == pytest.approx(1.0, abs=tolerance), (ours, peer)


def test_sack_explains_the_gap_at_high_loss():
    """At 10 % loss ns-3's SACK, not PRR, makes the difference (committed data)."""
    seeds = _seeds("loss", "loss=0.1")
    mean = {v: np.mean([committed_goodput("loss", "loss=0.1", s, v) for s in seeds])
            for v in NS3_VARIANTS}
    assert mean["default"] / mean["nosack"] > 1.3  # SACK on vs off
    assert mean["classic"] / mean["default"] == pytest.approx(1.0, abs=0.05)  # PRR: no effect


# --- live ns-3 (slow) -----------------------------------------------------------------

@pytest.fixture(scope="module")
def live_ns3():
    """Every comparison case in ns-3, one worker process per family."""
    from ctlcc.sim.ns3 import run_ns3_many

    out = {}
    for family in ("fig3_7", "loss", "dumbbell"):
        variants = comparison_variants(family)
        cases = comparison_cases(family)
        runs = [dict(scenario=c.scenario, duration=c.duration, seed=c.seed, options=o)
                for c in cases for o in variants.values()]
        results = iter(run_ns3_many(runs))
        for c in cases:
            for v in variants:
                out[(family, c.label, c.seed, v)] = next(results)
    return out


@pytest.mark.slow
def test_live_ns3_reproduces_committed_data(live_ns3):
    for (family, label, seed, variant), result in live_ns3.items():
        committed = committed_goodput(family, label, seed, variant)
        assert result.goodputs_bps.sum() == pytest.approx(committed, rel=1e-5), (
            family, label, seed, variant)


@pytest.mark.slow
def test_live_ns3_conserves_packets(live_ns3):
    for key, result in live_ns3.items():
        for flow in result.flows:
            assert flow.in_flight >= 0, key
            assert flow.sent == flow.delivered + flow.dropped + flow.in_flight


@pytest.mark.slow
@pytest.mark.parametrize("family, label, protocol, variant, tolerance, source", TARGETS)
def test_engine_matches_live_ns3(live_ns3, family, label, protocol, variant, tolerance,
                                 source):
    seeds = _seeds(family, label)
    peer = np.mean([live_ns3[(family, label, s, variant)].goodputs_bps.sum() for s in seeds])
    ours = np.mean([ctlcc_goodput(family, label, protocol, s) for s in seeds])
    assert ours / peer == pytest.approx(1.0, abs=tolerance), (ours, peer)


@pytest.mark.slow
def test_ns3_runs_are_deterministic_in_one_worker():
    """Repeated runs in one process (Simulator::Destroy between) are identical."""
    from ctlcc.sim.ns3 import run_ns3_many
    from ctlcc.sim.scenarios import preset

    scenario = preset("thesis_fig4_7", loss=0.01)
    a, b, c = run_ns3_many([(scenario, 20.0, 1), (scenario, 20.0, 1), (scenario, 20.0, 2)])
    assert a.flows == b.flows and a.queues == b.queues
    assert a.flows != c.flows  # the seed reaches the error model
