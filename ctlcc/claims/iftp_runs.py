# ctlcc.claims.iftp_runs - IFTP's §1/§3.2, §5.1, §5.3, §6.4 and §8 statements on ctlcc's runs
"""Units of ElAarag & Bassiouni (2002)'s statements that need runs of their own
(records in ``data/ledger_iftp.csv``):

* §1/§3.2: the extended mode's scale factor S = 2 in §6.1's set-up
  (:func:`ctlcc.experiments.iftp.friendliness` with ``S``; :func:`scaled_gain`);
* §5.1: eq. (13)'s steady state is reached only below the link rate (one
  IFTP source alone on the Figure 4 path);
* §5.3, eq. (27): the worst case, no ACK ever returning (every data packet
  lost), with the RTO before any sample at the 1-ms granularity;
* §6.4: the spread of the link utilisation over Table IV's cells and seeds;
* §8: "tight" upper bounds, the closest approach of ctlcc's IFTP to eq. (26)
  in the runs of :func:`ctlcc.crosscheck.iftp_nonideal_bound`.

References
----------
ElAarag & Bassiouni (2002), §1, §3.2, §5.1, §5.3, §6.4, §8.
"""

from functools import lru_cache

import numpy as np

from .registry import Measurement, unit

__all__ = ["scaled_gain"]

_SECTION = "iftp_sim"
_EV = "ctlcc.claims.iftp_runs; "
#: §6.1's seeds for the scale-factor runs (the report's five). [1]
_SEEDS = (0, 1, 2, 3, 4)
#: IFTP's packet on the wire and tau (one packet on the 10 Mb/s access link). [bit], [s]
_P, _TAU = 8000.0, 0.8e-3


def scaled_gain(sink_scaled, sink_standard):
    """Per seed, (IFTP / TCP per source with S) over (the same with S = 1).

    Parameters
    ----------
    sink_scaled, sink_standard : array_like, shape (seeds, 4)
        Sink bandwidth of two TCP then two IFTP sources per seed. [bit/s]

    Returns
    -------
    numpy.ndarray, shape (seeds,)
        [1]

    Examples
    --------
    >>> scaled_gain([[1, 1, 2, 2]], [[2, 2, 2, 2]])      # (4/2) / (4/4)
    array([2.])
    """
    def ratio(sink):
        s = np.asarray(sink, dtype=float)
        return s[:, 2:4].mean(axis=1) / s[:, 0:2].mean(axis=1)
    return ratio(sink_scaled) / ratio(sink_standard)


@unit("iftp-s1-scaled-flow-friendly-sim", section=_SECTION,
      evidence=_EV + "ctlcc.experiments.iftp.friendliness")
def scale_factor():
    from ..experiments import iftp

    two = iftp.friendliness(seeds=_SEEDS, S=2.0)
    one = iftp.friendliness(seeds=_SEEDS, S=1.0)
    g = scaled_gain(two.sink, one.sink)

    def shares(f):
        m = f.sink.mean(axis=0) / 1e3
        return f"TCP {m[0]:.0f}, {m[1]:.0f}, IFTP {m[2]:.0f}, {m[3]:.0f} kb/s"
    return Measurement(
        value=float(g.mean()), samples=tuple(float(x) for x in g), seeds=_SEEDS,
        reason=f"seed means with S = 2: {shares(two)}; with S = 1: {shares(one)}; gain per seed "
               f"{np.round(g, 3).tolist()}")


@unit("iftp-s5.1-steady-state-link-limit-sim", section=_SECTION,
      evidence=_EV + "ctlcc.sim.scenarios.iftp_fig4")
def link_limit():
    from ..sim import run, scenarios
    from ..sim.senders import Iftp

    rate, duration = 1e6, 120.0
    sc = scenarios.iftp_fig4((Iftp(pacing="continuous"),), bottleneck_rate=rate)
    res = run(sc, duration)
    got = res.flows[0].delivered * sc.data_bits / duration
    r0 = 2 * 11e-3
    eq13 = 50 * _P / r0
    return Measurement(
        value=got / min(eq13, rate),
        reason=f"delivered {got / 1e3:.0f} kb/s over {duration:g} s; Wmax P / R = "
               f"{eq13 / 1e6:.1f} Mb/s (R = 22 ms propagation), link {rate / 1e6:g} Mb/s; "
               f"{res.flows[0].dropped} packets dropped, {res.sender_state[0]['timeouts']} "
               f"timeouts")


@unit("iftp-eq27-worst-case-sim", section=_SECTION,
      evidence=_EV + "ctlcc.sim.scenarios.iftp_fig4")
def worst_case():
    from ..sim import run, scenarios
    from ..sim.scenarios import PacketList, TcpOptions
    from ..sim.senders import Iftp

    duration, t0 = 120.0, 10.0
    sc = scenarios.iftp_fig4((Iftp(),), loss=PacketList(tuple(range(1, 20001))),
                             tcp=TcpOptions(max_window=50, initial_rto=1e-3, min_rto=1e-3))
    res = run(sc, duration + 1.0, trace=True, sample_interval=1.0)    # samples up to duration
    tr = res.traces
    i1 = int(np.searchsorted(tr.time, duration - 1e-9))
    i0 = int(np.searchsorted(tr.time, t0 - 1e-9))
    sent = tr.sent[i1, 0] - tr.sent[i0, 0]
    rate = sent * sc.data_bits / (tr.time[i1] - tr.time[i0])
    return Measurement(
        value=float(rate),
        reason=f"{sent:.0f} packets sent over {tr.time[i0]:g}-{tr.time[i1]:g} s with no ACK "
               f"returning ({res.flows[0].delivered} delivered, "
               f"{res.sender_state[0]['timeouts']} timeouts); eq. (27): P / (tau + 0.064) = "
               f"{_P / (_TAU + 0.064):.0f} bit/s")


@unit("iftp-s6.4-oscillation-explains-variance-sim", section=_SECTION, needs="table4",
      evidence=_EV + "ctlcc.experiments.iftp.bandwidth_delay")
def utilisation_spread(t4):
    u = np.asarray(t4.per_seed["utilisation"], dtype=float)
    cells = ", ".join(f"B={t4.bandwidths[b] / 1e6:.1f} D={1e3 * t4.delays[d]:g}: "
                      f"{100 * u[:, d, b].min():.1f}-{100 * u[:, d, b].max():.1f} %"
                      for d in range(u.shape[1]) for b in range(u.shape[2]))
    return Measurement(
        value=float(u.max() - u.min()),
        reason=f"utilisation over {len(t4.seeds)} seeds per cell: {cells} (the paper: 60-100 %)")


@lru_cache(maxsize=1)
def _nonideal():
    from ..crosscheck.iftp import iftp_nonideal_bound

    return iftp_nonideal_bound()


@unit("iftp-s8-tight-upper-bounds-sim", section=_SECTION,
      evidence=_EV + "ctlcc.crosscheck.iftp_nonideal_bound")
def tightness():
    check = _nonideal()
    printed = [i for i, lab in enumerate(check.labels) if "pacing='figure1'" in lab]
    other = [i for i, lab in enumerate(check.labels) if "pacing='continuous'" in lab]
    means = np.asarray(check.measured) / np.asarray(check.predicted)
    k = max(printed, key=lambda i: means[i])
    return Measurement(
        value=float(means[k]), spread=float(check.spread[k] / check.predicted[k]),
        seeds=tuple(check.parameters["seeds"]),
        reason="send rate / eq. (26), Transmit_Window as printed: " + ", ".join(
            f"{check.labels[i].split(',')[0]}: {means[i]:.2f}" for i in printed)
               + f" (closest at {check.labels[k].split(',')[0]})",
        other_evidence="with pacing='continuous': " + ", ".join(
            f"{check.labels[i].split(',')[0]}: {means[i]:.2f}" for i in other))
