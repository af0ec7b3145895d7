# ctlcc.claims.stpd_testbed - the thesis's Chapter 5 testbed results as units
"""Units of Xu (2002)'s Chapter 5: ST-PD and Reno in Linux over an emulated
serial line, rebuilt on the packet simulator by
:mod:`ctlcc.experiments.thesis_testbed` (records in ``data/ledger_stpd.csv``).

The testbed's properties the simulator cannot represent are listed in
:data:`ctlcc.experiments.thesis_testbed.NOT_REPRESENTED` (the H2 queue size,
Linux 2.2's Reno, the emulator's byte-wise store-and-forward, host timing, a
finite file's tail, the emulator's own random numbers); each record's reason
names the ones its value depends on.

References
----------
Xu (2002), §5.3-§5.4, Figs. 5.11-5.26.
"""

from functools import lru_cache

import numpy as np

from .registry import Measurement, unit

__all__ = []

_SECTION = "thesis_sim"
_EV = "ctlcc.experiments.thesis_testbed."
#: The three lossless lines of §5.4.1: (name, rate [bit/s], one-way delay [s], the
#: thesis's ideal RTT with one packet queued [s], printed in §5.4.1).
_LINES = (("115.2k-0ms", 115.2e3, 0.0, 0.031), ("38.4k-80ms", 38.4e3, 0.08, 0.253),
          ("38.4k-250ms", 38.4e3, 0.25, 0.593))
#: §5.4.2's lossy lines: (delay [s], packet error ratio).
_LOSSY = ((0.25, 1e-1), (0.25, 1e-2), (0.08, 1e-1), (0.08, 1e-2))


@lru_cache(maxsize=1)
def _lossless():
    from ..experiments import thesis_testbed as T

    return {(p, name): T.lossless_transfer(p, rate, delay)
            for p in ("reno", "stpd") for name, rate, delay, _ in _LINES}


def _caveat(*keys):
    from ..experiments.thesis_testbed import NOT_REPRESENTED

    return "; not represented: " + "; ".join(NOT_REPRESENTED[k] for k in keys)


@unit("stpd-ch5-stpd-no-loss", "stpd-ch5-stpd-designed-level", "stpd-ch5-stpd-faster",
      "stpd-ch5-reno-losses", section=_SECTION, evidence=_EV + "lossless_transfer")
def lossless():
    from ..experiments.thesis_testbed import serial_time

    runs = _lossless()
    lost = {name: runs[("stpd", name)].losses[0] for name, *_ in _LINES}
    faster = {name: runs[("reno", name)].times[0] - runs[("stpd", name)].times[0]
              for name, *_ in _LINES}
    off = {}
    for name, rate, _, ideal in _LINES:
        packet = serial_time(152, rate)
        off[name] = (runs[("stpd", name)].median_rtt[0] - ideal) / packet
    worst = max(off, key=lambda k: abs(off[k]))
    return {
        "stpd-ch5-stpd-no-loss": Measurement(
            value=float(max(lost.values())),
            reason="ST-PD's packets lost in the 100,000-byte transfer: " + ", ".join(
                f"{k} {v}" for k, v in lost.items()) + _caveat(0)),
        "stpd-ch5-stpd-designed-level": Measurement(
            value=float(off[worst]),
            reason="ST-PD's median RTT minus the thesis's ideal RTT (one packet queued), in "
                   "packet times of the line: " + ", ".join(
                       f"{name} {runs[('stpd', name)].median_rtt[0]:.4f} s vs {ideal} s "
                       f"({off[name]:+.2f})" for name, _, _, ideal in _LINES)
                   + f"; the value is the line farthest off ({worst})" + _caveat(3)),
        "stpd-ch5-stpd-faster": Measurement(
            value=float(min(faster.values())),
            reason="Reno's minus ST-PD's transfer time: " + ", ".join(
                f"{k} {v:.2f} s" for k, v in faster.items()) + " (the smallest is the value)"
                   + _caveat(0, 1)),
        "stpd-ch5-reno-losses": Measurement(
            value=float(runs[("reno", "115.2k-0ms")].losses[0]),
            reason="Reno's packets lost on the lossless 115.2-kb/s line (" + ", ".join(
                f"{name} {runs[('reno', name)].losses[0]}" for name, *_ in _LINES)
                   + " on the three lines)" + _caveat(0, 1)),
    }


@unit("stpd-ch5-reno-first-108", "stpd-ch5-reno-second-80", "stpd-ch5-stpd-both-65",
      section=_SECTION, evidence=_EV + "two_connections")
def two_connections():
    from ..experiments import thesis_testbed as T

    reno, stpd = T.two_connections("reno"), T.two_connections("stpd")
    k = int(np.argmax(np.abs(np.array(stpd.times) - 65.0)))
    text = (f"38.4 kb/s, 180 ms line, the second connection 20 s later: Reno "
            f"{reno.times[0]:.1f} and {reno.times[1]:.1f} s, ST-PD {stpd.times[0]:.1f} and "
            f"{stpd.times[1]:.1f} s" + _caveat(0, 1))
    return {"stpd-ch5-reno-first-108": Measurement(value=float(reno.times[0]), reason=text),
            "stpd-ch5-reno-second-80": Measurement(value=float(reno.times[1]), reason=text),
            "stpd-ch5-stpd-both-65": Measurement(
                value=float(stpd.times[k]),
                reason=text + f"; the value is the connection farther from 65 s "
                              f"({'first' if k == 0 else 'second'})")}


def _lossy_id(protocol, delay, loss):
    return f"stpd-ch5-{protocol}-{int(delay * 1e3)}ms-{loss:.0e}".replace("e-0", "e-")


@unit(*[_lossy_id(p, d, l) for d, l in _LOSSY for p in ("stpd", "reno")], section=_SECTION,
      evidence=_EV + "lossy_transfer")
def lossy():
    from ..experiments import thesis_testbed as T

    out = {}
    for delay, loss in _LOSSY:
        for protocol in ("stpd", "reno"):
            res = T.lossy_transfer(protocol, delay, loss)
            seeds = tuple(r.seed for r in res["runs"])
            out[_lossy_id(protocol, delay, loss)] = Measurement(
                value=res["mean"], samples=res["times"], seeds=seeds,
                reason=f"{protocol}'s 100,000-byte transfer time over 38.4 kb/s, "
                       f"{delay * 1e3:g} ms, packet errors {loss:g}, per seed "
                       f"{np.round(res['times'], 1).tolist()} s ({res['unfinished']} runs "
                       f"unfinished, counted at the run's end)" + _caveat(0, 1, 4, 5))
    return out


@unit("stpd-ch5-lcg-mean", "stpd-ch5-lcg-variance", "stpd-ch5-lcg-period", section=_SECTION,
      evidence=_EV + "lcg_moments; " + _EV + "lcg_period")
def lcg():
    from ..experiments import thesis_testbed as T

    mean, variance = T.lcg_moments()
    text = "LCG(16807, 0, 2^31 - 1, 1), the first 20,000,000 numbers divided by m"
    return {"stpd-ch5-lcg-mean": Measurement(value=float(mean), reason=text),
            "stpd-ch5-lcg-variance": Measurement(value=float(variance), reason=text),
            "stpd-ch5-lcg-period": Measurement(
                value=float(T.lcg_period()), implied=float(T.LCG_M),
                reason="period of x -> 16807 x mod (2^31 - 1), from the multiplicative order of "
                       "16807 (a primitive root: m - 1 = 2^31 - 2)")}
