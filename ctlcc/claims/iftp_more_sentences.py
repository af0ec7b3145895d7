# ctlcc.claims.iftp_more_sentences - IFTP's §4, §6 and §8 sentences on ctlcc's runs
"""Units of ElAarag & Bassiouni (2002)'s sentences about the orderings its
§6 runs show: §4's expectation that TCP gets less bandwidth than IFTP, §6's
"TCP maintains the number of packets lost to a minimum" beside UDP, and §8's
TCP-friendliness "for various link bandwidths and delays".  Judged on the
runs :mod:`ctlcc.claims.iftp_sim` uses (records in ``data/ledger_iftp.csv``).

References
----------
ElAarag & Bassiouni (2002), §1, §4, §6, §6.1, §6.4, §8, Figures 5-6, Table IV.
"""

import numpy as np

from .iftp_sentences import tcp_minus_iftp
from .registry import Measurement, unit

__all__ = ["loss_ratio", "worst_ratio"]

_SECTION = "iftp_sim"
_EV = "ctlcc.claims.iftp_more_sentences; ctlcc.experiments.iftp."


def loss_ratio(per_seed):
    """TCP's lost bits over UDP's, summed over the UDP rates, per seed.

    Parameters
    ----------
    per_seed : array_like, shape (seeds, rates, 4)
        TCP source, TCP sink, UDP source, UDP sink. [bit/s]

    Returns
    -------
    ndarray, shape (seeds,)
        [1]

    Examples
    --------
    >>> loss_ratio([[[10, 9, 5, 5], [10, 9, 20, 2]]])      # (1 + 1) / (0 + 18)
    array([0.11111111])
    """
    per = np.asarray(per_seed, dtype=float)
    tcp = (per[:, :, 0] - per[:, :, 1]).sum(axis=1)
    udp = (per[:, :, 2] - per[:, :, 3]).sum(axis=1)
    return tcp / udp


def worst_ratio(tcp, iftp):
    """The largest of IFTP/TCP and TCP/IFTP over the cells, and the cell's index.

    Examples
    --------
    >>> worst_ratio([[1.0, 2.0]], [[1.5, 0.5]])
    (4.0, (0, 1))
    """
    tcp, iftp = np.asarray(tcp, dtype=float), np.asarray(iftp, dtype=float)
    r = np.maximum(iftp / tcp, tcp / iftp)
    k = np.unravel_index(int(np.argmax(r)), r.shape)
    return float(r[k]), tuple(int(i) for i in k)


@unit("iftp-s4-tcp-below-iftp", section=_SECTION, needs="sec61", evidence=_EV + "friendliness")
def tcp_below_iftp(fr):
    return tcp_minus_iftp(fr, " (the paper's own Figure 6, §6.1, shows TCP above IFTP)")


@unit("iftp-s6-tcp-losses-minimum", section=_SECTION, needs="fig5",
      evidence=_EV + "udp_unfairness")
def tcp_losses_minimum(f5):
    per = np.asarray(f5.per_seed, dtype=float)
    r = loss_ratio(per)
    tcp = (per[:, :, 0] - per[:, :, 1]).mean(axis=0) / 1e3
    udp = (per[:, :, 2] - per[:, :, 3]).mean(axis=0) / 1e3
    return Measurement(
        value=float(r.mean()), samples=tuple(float(v) for v in r), seeds=f5.seeds,
        reason="lost bandwidth (source - sink, seed means) at UDP "
               + ", ".join(f"{u / 1e6:g}" for u in f5.udp_rates)
               + f" Mb/s: TCP {np.round(tcp, 1).tolist()} kb/s, UDP {np.round(udp, 1).tolist()} "
                 f"kb/s; TCP/UDP per seed {np.round(r, 3).tolist()}")


@unit("iftp-s8-friendly-all-columns", section=_SECTION, needs="table4",
      evidence=_EV + "bandwidth_delay")
def friendly_all_columns(t4):
    value, (d, b) = worst_ratio(t4.tcp, t4.iftp)
    cells = ", ".join(f"B={t4.bandwidths[j] / 1e6:.1f} D={1e3 * t4.delays[i]:g}: "
                      f"{t4.iftp[i, j] / t4.tcp[i, j]:.2f}"
                      for i in range(len(t4.delays)) for j in range(len(t4.bandwidths)))
    return Measurement(
        value=value,
        reason=f"IFTP/TCP per-source sink bandwidth (seed means over {len(t4.seeds)} seeds) per "
               f"column: {cells}; the farthest from 1 is B={t4.bandwidths[b] / 1e6:.1f} Mb/s, "
               f"D={1e3 * t4.delays[d]:g} ms")
