"""Fingerprints of the senders added after tests/sim/data/golden_engine.npz was made.

``make_golden.py``'s cases cover the papers' first protocols (Reno, NewReno,
Tahoe, Vegas, ST-PD, Primo, CBR, Poisson); the senders written since (SACK
with RFC 6675 and PRR recovery, CUBIC over PRR and over NewReno, CBRAA,
IFTP, STTP, TCP-Friend, TFRC) had no fingerprint, so a change of the engine
or of a shared law that altered one of them in the last bit went unseen.
This stores the same fingerprint (:func:`make_golden.fingerprint`: per-flow
counters, queue statistics, digests of every sample and trace array) for
each of them, at its defaults, on five of the papers' presets, with and
without 1 % random loss; and Reno and SACK behind RED (plain, gentle with
ns-3's wait, ECN marks) and PI (drops, ECN marks) on a 4-flow dumbbell; in
tests/sim/data/golden_senders.npz.

The stored file was made with ctlcc at commit 752dd2c (before that day's
engine changes: the set-up lookups, the drop-tail ring's restart, and the
CUBIC options merged from the branch ``cubic-ns3-readings``), so the test
also checks that those changes left every sender's results as they were.
(The AQM cases came after a first version of the ring's restart, applied
to AQM queues too, changed RED's idle time on packets and passed every
other test: RED reads the entry before the head of an empty ring.)
Regenerate only when a change is *meant* to alter results, and say so in
the commit::

    PYTHONPATH=. python tests/sim/make_golden_senders.py
"""

import sys
from pathlib import Path


try:
    from . import make_golden as G
except ImportError:   # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import make_golden as G

PATH = Path(__file__).with_name("data") / "golden_senders.npz"

PRESETS = ("thesis_fig3_7_sufficient", "sttp_fig3", "primo_fig1_top", "cbraa_fig2",
           "iftp_fig4")
#: (label, sender name in ctlcc.sim.senders.SENDERS, keyword arguments)
SENDERS = (("sack", "sack", {}), ("sack-prr", "sack", {"recovery": "prr"}),
           ("cubic", "cubic", {}), ("cubic-newreno", "cubic", {"recovery": "newreno"}),
           ("cbraa", "cbraa", {}), ("iftp", "iftp", {}), ("sttp", "sttp", {}),
           ("tcpfriend", "tcpfriend", {}), ("tfrc", "tfrc", {}))
DURATION = 12.0
#: AQM on packets (RED's curves, spacing, idle time and ECN marks; PI's sampled law): a
#: 4-flow dumbbell of 2 Mb/s, 4 ms and 50 packets of buffer behind each, Reno or SACK
AQMS = ("red", "red-gentle-wait", "red-ecn", "pi", "pi-ecn")
AQM_SENDERS = ("reno", "sack")


def cases():
    """(key, (preset or "aqm-<kind>", sender label, loss), duration, seed, trace) of every case."""
    out = []
    for name in PRESETS:
        for label, _, _ in SENDERS:
            for loss in (None, 0.01):
                key = f"{name}|{label}|{loss}|0"
                out.append((key, (name, label, loss), DURATION, 0, loss is not None))
    for aqm in AQMS:
        for label in AQM_SENDERS:
            key = f"aqm-{aqm}|{label}|None|0"
            out.append((key, (f"aqm-{aqm}", label, None), 30.0, 0, True))
    return out


def _aqm_scenario(aqm, label):
    from ctlcc.laws.aqm import PiParams, RedParams
    from ctlcc.sim import scenarios as S
    from ctlcc.sim.scenarios import TcpOptions

    queue = {"red": RedParams(5.0, 15.0, 0.1),
             "red-gentle-wait": RedParams(5.0, 15.0, 0.1, gentle=True, wait=True),
             "red-ecn": RedParams(5.0, 15.0, 0.1, ecn=True),
             "pi": PiParams(1e-4, 9e-5, 20.0, 100.0),
             "pi-ecn": PiParams(1e-4, 9e-5, 20.0, 100.0, ecn=True)}[aqm]
    ecn = aqm.endswith("ecn")
    return S.dumbbell(4, buffer=50, protocol=label, start=[0.0, 0.3, 0.7, 1.1], queue=queue,
                      tcp=TcpOptions(ecn=ecn))


def build(name, label, loss):
    from ctlcc.sim import scenarios as S
    from ctlcc.sim.senders import SENDERS as REGISTRY

    if name.startswith("aqm-"):
        return _aqm_scenario(name[4:], label)
    registry, kwargs = next((r, k) for lab, r, k in SENDERS if lab == label)
    kw = {} if loss is None else {"loss": loss}
    return S.preset(name, protocol=REGISTRY[registry](**kwargs), **kw)


def main():
    G.write(cases(), build, PATH)


if __name__ == "__main__":
    main()
