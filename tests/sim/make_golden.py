"""Fingerprints of the packet engine's results, for the "reshaping changes no
result" test (tests/sim/test_golden_engine.py).

Runs every preset x every protocol (short runs, two seeds, with and without
random loss, traces for some) and stores, per case, the per-flow counters,
the queue statistics and SHA-256 digests of every sample/trace array in
tests/sim/data/golden_engine.npz.  Regenerate only when a change is *meant*
to alter results, and say so in the commit::

    PYTHONPATH=. python tests/sim/make_golden.py
"""

import hashlib
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

PATH = Path(__file__).with_name("data") / "golden_engine.npz"

PRESETS = ("thesis_fig3_7_sufficient", "thesis_fig3_7_insufficient", "thesis_fig3_14",
           "thesis_fig3_18", "thesis_fig4_7", "thesis_fig4_18", "sttp_fig3",
           "primo_fig1_top", "primo_fig1_bottom", "cbraa_fig2")
CLOSED = ("reno", "newreno", "tahoe", "vegas", "stpd", "primo")
OPEN = ("cbr", "poisson")
DURATION = {"thesis_fig3_14": 30.0, "thesis_fig3_18": 35.0, "thesis_fig4_18": 30.0}
FLOW_FIELDS = ("sent", "retransmitted", "delivered", "delivered_unique", "dropped",
               "dropped_queue", "dropped_loss", "in_flight", "acks_dropped", "timeouts",
               "fast_retransmits", "active_time", "throughput_bps", "goodput_bps",
               "loss_rate", "srtt", "rto")
QUEUE_FIELDS = ("mean", "max", "drops", "losses", "arrivals", "utilisation")


def stpd_spec_old():
    """The ST-PD sender the golden data were made with (fixed printed gains).

    Before the sender specs existed, ``protocol="stpd"`` meant fixed gains
    (0.368, 0.033), no slow start, no window inflation, NewReno partial-ACK
    repair; this returns whatever spelling of that sender the engine
    currently accepts (a string before the reshaping, a spec after).
    """
    try:
        from ctlcc.sim.senders import Stpd
    except ImportError:
        return "stpd"
    return Stpd.legacy()


def cases():
    """(key, scenario builder, duration, seed, trace) of every golden case."""
    from ctlcc.sim import scenarios as S

    out = []
    for name in PRESETS:
        for proto in CLOSED + OPEN:
            for loss in (None, 0.01):
                if name == "thesis_fig4_18" and loss is not None:
                    continue  # its default loss is the packet list
                seeds = (0, 1) if loss else (0,)
                for seed in seeds:
                    key = f"{name}|{proto}|{loss}|{seed}"
                    trace = seed == 0 and proto in ("reno", "stpd", "primo", "vegas") \
                        and loss is not None
                    out.append((key, (name, proto, loss), DURATION.get(name, 12.0), seed,
                                trace))
    return out


def build(name, proto, loss):
    from ctlcc.sim import scenarios as S

    kw = {} if loss is None else {"loss": loss}
    if proto in OPEN:
        sc = S.preset(name, **kw)
        try:
            from ctlcc.sim.senders import SENDERS
        except ImportError:  # the engine before sender specs
            return sc.with_flows(protocol=proto, rate=60.0)
        return sc.with_flows(sender=SENDERS[proto](rate=60.0))
    if proto == "stpd":
        spec = stpd_spec_old()
        if isinstance(spec, str):
            return S.preset(name, protocol="stpd", **kw)
        return S.preset(name, protocol=spec, **kw)
    if proto == "primo":
        try:
            from ctlcc.sim.senders import Primo
        except ImportError:
            return S.preset(name, protocol=proto, **kw)
        # the literal time-out and fixed restart timer (Primo's default before issue 12)
        return S.preset(name, protocol=Primo.legacy(), **kw)
    if proto == "vegas":
        try:
            from ctlcc.sim.senders import Vegas
        except ImportError:
            return S.preset(name, protocol=proto, **kw)
        return S.preset(name, protocol=Vegas.legacy(), **kw)
    return S.preset(name, protocol=proto, **kw)


def _digest(a):
    a = np.ascontiguousarray(a)
    return hashlib.sha256(a.dtype.str.encode() + str(a.shape).encode() + a.tobytes()).hexdigest()


def fingerprint(result):
    flows = np.array([[float(getattr(f, k)) for k in FLOW_FIELDS] for f in result.flows])
    queues = np.array([[float(getattr(q, k)) for k in QUEUE_FIELDS] for q in result.queues]
                      or np.zeros((0, len(QUEUE_FIELDS))))
    s = result.samples
    digests = [_digest(x) for x in (s.time, s.window, s.rate, s.sent, s.delivered, s.queue)]
    if result.traces is not None:
        digests += [_digest(result.traces.rtt), _digest(result.traces.drops)]
    return flows, queues, np.array(digests + [str(result.events)])


def assert_matches(result, store, key):
    """*result*'s fingerprint equals the one stored under *key*, bit for bit."""
    flows, queues, digests = fingerprint(result)
    np.testing.assert_array_equal(flows, store[key + "|flows"])
    np.testing.assert_array_equal(queues, store[key + "|queues"])
    assert list(digests) == list(store[key + "|digests"])


def write(all_cases, builder, path):
    """Run every case of *all_cases* (built by *builder*) and store its fingerprint."""
    from ctlcc.sim import run

    store = {}
    for key, args, duration, seed, trace in all_cases:
        r = run(builder(*args), duration, seed=seed, trace=trace, progress=False)
        flows, queues, digests = fingerprint(r)
        store[key + "|flows"] = flows
        store[key + "|queues"] = queues
        store[key + "|digests"] = digests
        print(key, r.events, flush=True)
    np.savez_compressed(path, **store)
    print("wrote", path, len(store) // 3, "cases")


def main():
    write(cases(), build, PATH)


if __name__ == "__main__":
    main()
