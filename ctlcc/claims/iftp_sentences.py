# ctlcc.claims.iftp_sentences - IFTP's §6 sentences about its tables and figures, on ctlcc's runs
"""Units of ElAarag & Bassiouni (2002)'s §6 sentences that summarise its
tables and figures: §6.4's "The utilization of the link ranged from 60 to
100%", the close columns and IFTP's 4-5 timeouts of Table IV, §6.2's
sentences on Table II's losses, and the orderings stated for Figures 5 and
6.  Each is judged on ctlcc's runs (the ones :mod:`ctlcc.claims.iftp_sim`
uses, Transmit_Window as printed); where the paper's own table gives the
same measurable form, that is the record's implied value.  Records in
``data/ledger_iftp.csv``.

References
----------
ElAarag & Bassiouni (2002), §6, §6.2, §6.4, Figures 5-6, Tables II and IV.
"""

import numpy as np

from ._common import data_rows
from .registry import Measurement, unit

__all__ = []

_SECTION = "iftp_sim"
_EV = "ctlcc.claims.iftp_sentences; ctlcc.experiments.iftp.bandwidth_delay"


@unit("iftp-s6.4-utilisation-range-low", "iftp-s6.4-utilisation-range-high", section=_SECTION,
      needs="table4", evidence=_EV)
def utilisation_range(t4):
    per = 100.0 * np.asarray(t4.per_seed["utilisation"], dtype=float)   # (seeds, delays, rates)
    means = per.mean(axis=0)
    printed = [float(r["value"]) for r in data_rows("iftp_tables.csv")
               if r["table"] == "IV" and r["row"] == "utilization"]

    def cell(d, b):
        return f"B={t4.bandwidths[b] / 1e6:.1f} Mb/s, D={1e3 * t4.delays[d]:g} ms"

    listing = "; ".join(f"{cell(d, b)}: {means[d, b]:.1f} %" for d in range(means.shape[0])
                        for b in range(means.shape[1]))
    out = {}
    for cid, pick, end in (("iftp-s6.4-utilisation-range-low", np.argmin, min),
                           ("iftp-s6.4-utilisation-range-high", np.argmax, max)):
        d, b = np.unravel_index(pick(means), means.shape)
        v = per[:, d, b]
        out[cid] = Measurement(
            value=float(v.mean()), samples=tuple(float(x) for x in v), seeds=tuple(t4.seeds),
            implied=end(printed),
            reason=f"ctlcc's utilisation per column (mean over {len(v)} seeds): {listing}; the "
                   f"{'lowest' if end is min else 'highest'} is {cell(d, b)}; Table IV prints "
                   f"{', '.join(f'{p:g}' for p in printed)} %")
    return out


# --- §6.2: Table II's sentences ----------------------------------------------------------------

def _table(name, row):
    """``{column: float}`` of one row of the paper's table *name* (``data/iftp_tables.csv``)."""
    return {r["column"]: float(r["value"]) for r in data_rows("iftp_tables.csv")
            if r["table"] == name and r["row"] == row}


def smallest_increase(rates, losses):
    """Smallest (higher-rate minus lower-rate) loss difference between neighbouring rates.

    Parameters
    ----------
    rates : sequence of float
        Rates in any order. [bit/s]
    losses : array_like
        Losses at each rate, or ``(seeds, rates)``. [packets]

    Returns
    -------
    tuple
        (index of the lower rate of the pair, in increasing-rate order; the
        differences at that pair, one per row of *losses*).

    Examples
    --------
    >>> smallest_increase([0.3, 0.1, 0.2], [5, 1, 7])     # 1 -> 7 -> 5
    (1, array([-2.]))
    """
    order = np.argsort(np.asarray(rates, dtype=float))
    x = np.atleast_2d(np.asarray(losses, dtype=float))[:, order]
    steps = np.diff(x, axis=1)
    k = int(np.argmin(steps.mean(axis=0)))
    return k, steps[:, k]


def _decades(a, b):
    return abs(float(np.log10(max(a, 0.5) / max(b, 0.5))))


@unit("iftp-s6.2-udp-loss-grows-with-rate", "iftp-s6.2-iftp-same-range-as-tcp",
      "iftp-s6.2-loss-at-0.16", section=_SECTION, needs="tables23", evidence=_EV)
def table2_sentences(t):
    lost = np.asarray(t.per_seed["lost"], dtype=float)      # (seeds, rates, [udp, iftp, tcp])
    rates = np.asarray(t.udp_rates, dtype=float)
    cols = [f"{r / 1e6:g}" for r in rates]
    k, steps = smallest_increase(rates, lost[:, :, 0])
    ordered = [cols[i] for i in np.argsort(rates)]
    udp_paper, iftp_paper, tcp_paper = (_table("II", s) for s in ("UDP", "IFTP", "TCP"))
    pk, psteps = smallest_increase([float(c) for c in udp_paper], list(udp_paper.values()))
    means = lost.mean(axis=0)
    spread = [_decades(means[i, 1], means[i, 2]) for i in range(len(rates))]
    spread_paper = [_decades(iftp_paper[c], tcp_paper[c]) for c in udp_paper]
    j = cols.index("0.16")
    total = lost[:, j, 0] + 2 * lost[:, j, 1] + lost[:, j, 2]
    paper_total = udp_paper["0.16"] + 2 * iftp_paper["0.16"] + tcp_paper["0.16"]
    return {
        "iftp-s6.2-udp-loss-grows-with-rate": Measurement(
            value=float(steps.mean()), samples=tuple(float(s) for s in steps), seeds=t.seeds,
            implied=float(psteps[0]),
            reason=f"UDP packets lost (seed means) at {', '.join(cols)} Mb/s: "
                   f"{', '.join(f'{v:.0f}' for v in means[:, 0])}; the smallest step up in rate "
                   f"is {ordered[k]} -> {ordered[k + 1]} Mb/s ({steps.mean():+.1f} packets); "
                   f"Table II's own UDP row grows at every step (smallest {psteps[0]:+.0f})"),
        "iftp-s6.2-iftp-same-range-as-tcp": Measurement(
            value=max(spread), implied=max(spread_paper),
            reason="IFTP (per source) / TCP packets lost (seed means) at "
                   + ", ".join(f"{c}: {means[i, 1]:.1f}/{means[i, 2]:.1f}"
                               for i, c in enumerate(cols))
                   + f" Mb/s; largest |log10| {max(spread):.2f} (Table II's own rows: "
                     f"{max(spread_paper):.2f})"),
        "iftp-s6.2-loss-at-0.16": Measurement(
            value=float(total.mean()), samples=tuple(float(v) for v in total), seeds=t.seeds,
            implied=paper_total,
            reason=f"at 0.16 Mb/s ctlcc's four sources lose UDP {means[j, 0]:.1f}, IFTP "
                   f"{means[j, 1]:.1f} each, TCP {means[j, 2]:.1f} packets (seed means; total "
                   f"{total.mean():.1f}); Table II prints {udp_paper['0.16']:g}, "
                   f"{iftp_paper['0.16']:g}, {tcp_paper['0.16']:g}"),
    }


# --- §6.4: Table IV's sentences ----------------------------------------------------------------

#: The two columns §6.4 names as close (B [Mb/s], D [ms]).
_CLOSE = (("1.5", "0.003"), ("1.0", "3"))


def _closest_two(ratios):
    """The two keys of *ratios* (TCP/IFTP) with the smallest |log ratio|."""
    return sorted(ratios, key=lambda c: abs(np.log(ratios[c])))[:2]


@unit("iftp-s6.4-close-bandwidths", "iftp-s6.4-iftp-timeouts-4-5", section=_SECTION,
      needs="table4", evidence=_EV)
def table4_sentences(t4):
    ours, timeouts = {}, {}
    for d, delay in enumerate(t4.delays):
        for b, rate in enumerate(t4.bandwidths):
            key = (f"{rate / 1e6:.1f}", f"{1e3 * delay:g}")
            ours[key] = float(t4.tcp[d, b] / t4.iftp[d, b]) if t4.iftp[d, b] > 0 else np.inf
            timeouts[key] = float(t4.iftp_timeouts[d, b])
    tcp_paper, iftp_paper = _table("IV", "TCP bandwidth"), _table("IV", "IFTP bandwidth")
    paper = {}
    for column, v in tcp_paper.items():
        b, d = (part.split("=")[1] for part in column.split())
        paper[(b, d)] = v / iftp_paper[column]
    closest, closest_paper = _closest_two(ours), _closest_two(paper)
    others = [k for k in ours if k not in _CLOSE]

    def fmt(r):
        return ", ".join(f"B={b} D={d}: {v:.2f}" for (b, d), v in r.items())

    return {
        "iftp-s6.4-close-bandwidths": Measurement(
            value=float(sum(k in _CLOSE for k in closest)),
            implied=float(sum(k in _CLOSE for k in closest_paper)),
            reason=f"TCP/IFTP bandwidth per column in ctlcc (seed means): {fmt(ours)}; the two "
                   f"closest to 1: {closest}; in Table IV: {fmt(paper)}, closest "
                   f"{closest_paper}"),
        "iftp-s6.4-iftp-timeouts-4-5": Measurement(
            value=float(np.mean([timeouts[k] for k in others])),
            reason="IFTP timer expiries per source (seed means) in the four columns: "
                   + ", ".join(f"B={b} D={d}: {timeouts[(b, d)]:.1f}" for b, d in others)
                   + "; in the two close columns: "
                   + ", ".join(f"B={b} D={d}: {timeouts[(b, d)]:.1f}" for b, d in _CLOSE)),
    }


# --- §6, Figures 5 and 6 -----------------------------------------------------------------------

def tcp_minus_iftp(fr, note=""):
    """TCP's minus IFTP's per-source sink bandwidth over the seeds of a §6.1 run. [Mb/s]"""
    sink = np.asarray(fr.sink, dtype=float)                  # (seeds, flows)
    tcp = [i for i, n in enumerate(fr.names) if not n.startswith("iftp")]
    ift = [i for i, n in enumerate(fr.names) if n.startswith("iftp")]
    diff = (sink[:, tcp].mean(axis=1) - sink[:, ift].mean(axis=1)) / 1e6
    return Measurement(
        value=float(diff.mean()), samples=tuple(float(v) for v in diff), seeds=fr.seeds,
        reason=f"per-source sink bandwidth, seed means: TCP {sink[:, tcp].mean() / 1e6:.3f}, "
               f"IFTP {sink[:, ift].mean() / 1e6:.3f} Mb/s; TCP - IFTP per seed "
               + ", ".join(f"{v:+.3f}" for v in diff) + note)


@unit("iftp-fig6-tcp-above-iftp", section=_SECTION, needs="sec61", evidence=_EV)
def figure6_order(fr):
    return tcp_minus_iftp(fr)


@unit("iftp-s6-tcp-above-udp-small-rate", section=_SECTION, needs="fig5", evidence=_EV)
def figure5_small_rate(f5):
    per = np.asarray(f5.per_seed, dtype=float)               # (seeds, rates, 4)
    i = int(np.argmin(f5.udp_rates))
    diff = (per[:, i, 1] - per[:, i, 3]) / 1e6
    return Measurement(
        value=float(diff.mean()), samples=tuple(float(v) for v in diff), seeds=f5.seeds,
        reason=f"at UDP {f5.udp_rates[i] / 1e6:g} Mb/s: TCP sink {per[:, i, 1].mean() / 1e6:.3f}, "
               f"UDP sink {per[:, i, 3].mean() / 1e6:.3f} Mb/s (seed means)")
