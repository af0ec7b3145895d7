# ctlcc.claims.sttp_sentences - STTP's §IV sentences about Tables II-III, judged on ctlcc's runs
"""Units of the sentences of Wade, Kara & Dew (2000)'s §IV that summarise
Tables II and III (loss growth, who transmits more, who has the highest
goodput, totals above the link's 32,000 packets, which flows are more
balanced).  Each is judged on ctlcc's re-runs of the tables
(:mod:`ctlcc.experiments.sttp`, the runs :mod:`ctlcc.claims.sttp_sim`
uses), and the same measurable form computed from the paper's own printed
table is the record's implied value: a sentence its own table contradicts
is ``paper-inconsistent`` whatever ctlcc measures.  Records in
``data/ledger_sttp.csv``.

References
----------
Wade, Kara & Dew (2000), §IV-B, §IV-B.1, Tables II-III, Figure 4.
"""

import numpy as np

from .registry import Measurement, unit

__all__ = ["loss_growth", "transmit_ratio", "goodput_share"]

_SECTION = "sttp_sim"
_EV = "ctlcc.claims.sttp_sentences; ctlcc.experiments.sttp"
_STTP = ("STTP 9:1", "STTP 5:5", "STTP 1:9")


def loss_growth(counts, drops):
    """Mean increase of *drops* per 10 sources over 100..200 over that over 10..100. [1]

    Parameters
    ----------
    counts : sequence of int
        Source counts, containing 10, 100 and 200.
    drops : sequence of float
        Dropped bytes at each count. [bytes]

    Returns
    -------
    float
        The ratio; inf if the first increase is 0 and the second is not, nan if both are 0.

    Examples
    --------
    >>> loss_growth([10, 100, 200], [0, 9, 29])       # 1 per 10 sources, then 2
    2.0
    """
    d = dict(zip(counts, np.asarray(drops, dtype=float)))
    first = (d[100] - d[10]) / 9
    second = (d[200] - d[100]) / 10
    if first == 0:
        return float("nan") if second == 0 else float("inf")
    return float(second / first)


def transmit_ratio(reno_tx, vegas_tx, sttp_tx):
    """Median over the counts of min(Reno, Vegas) bytes sent over STTP's. [1]

    Examples
    --------
    >>> transmit_ratio([4, 6], [3, 9], [2, 3])
    1.75
    """
    return float(np.median(np.minimum(reno_tx, vegas_tx) / np.asarray(sttp_tx, dtype=float)))


def goodput_share(goodputs, sttp_index):
    """Share of the counts at which the protocol *sttp_index* has the largest goodput. [1]

    Parameters
    ----------
    goodputs : array_like
        ``[protocol, count]`` goodput. [bytes]
    sttp_index : int

    Examples
    --------
    >>> goodput_share([[1, 5], [2, 1]], 1)
    0.5
    """
    g = np.asarray(goodputs, dtype=float)
    return float(np.mean(np.argmax(g, axis=0) == sttp_index))


def _paper_exp1():
    from ..experiments.sttp import published_table3

    t = published_table3()
    counts = [int(c) for c in t["Reno"]["num_sources"]]
    return counts, t


@unit("sttp-s4b-reno-loss-growth", "sttp-s4b-reno-vegas-tx-far-greater",
      "sttp-fig4-sttp-highest-goodput", section=_SECTION, needs="experiment1", evidence=_EV)
def experiment1_sentences(e1):
    counts, paper = _paper_exp1()
    ir, iv, isx = (e1.protocols.index(p) for p in ("Reno", "Vegas", "STTP"))
    grid = ", ".join(map(str, e1.counts))
    growth_paper = loss_growth(counts, paper["Reno"]["bytes_drop"])
    tx = transmit_ratio(e1.bytes_tx[ir], e1.bytes_tx[iv], e1.bytes_tx[isx])
    tx_paper = transmit_ratio(paper["Reno"]["bytes_tx"], paper["Vegas"]["bytes_tx"],
                              paper["STTP"]["bytes_tx"])
    share = goodput_share(e1.goodput_bytes[[ir, iv, isx]], 2)
    paper_good = np.array([paper[p]["bytes_tx"] - paper[p]["bytes_drop"]
                           for p in ("Reno", "Vegas", "STTP")])
    share_paper = goodput_share(paper_good, 2)
    out = {}
    if {10, 100, 200} <= set(e1.counts):      # the measurable form needs these three counts
        growth = loss_growth(e1.counts, e1.bytes_drop[ir])
        out["sttp-s4b-reno-loss-growth"] = Measurement(
            value=growth, implied=growth_paper,
            reason=f"Reno's dropped bytes in ctlcc at {grid} sources: "
                   + ", ".join(f"{d:.0f}" for d in e1.bytes_drop[ir])
                   + f"; increase per 10 sources over 100..200 / over 10..100 = {growth:.3g} "
                     f"(Table III's own Reno column gives {growth_paper:.3g})")
    out.update({
        "sttp-s4b-reno-vegas-tx-far-greater": Measurement(
            value=tx, implied=tx_paper,
            reason=f"min(Reno, Vegas) / STTP bytes sent at {grid} sources: "
                   + ", ".join(f"{r:.3g}" for r in np.minimum(e1.bytes_tx[ir], e1.bytes_tx[iv])
                               / e1.bytes_tx[isx])
                   + f" (median {tx:.3g}; Table III's own columns give {tx_paper:.3g})"),
        "sttp-fig4-sttp-highest-goodput": Measurement(
            value=share, implied=share_paper,
            reason=f"STTP has the largest goodput at {share * len(e1.counts):.0f} of ctlcc's "
                   f"{len(e1.counts)} counts ({grid}); in Table III's own columns at "
                   f"{share_paper * len(counts):.0f} of {len(counts)}"),
    })
    return out


def _jain(x):
    x = np.asarray(x, dtype=float)
    return float(x.sum() ** 2 / (len(x) * (x * x).sum()))


@unit("sttp-s4b1-totals-above-32000", "sttp-s4b1-reno-more-balanced-jain",
      "sttp-s4b1-5-5-1-9-fairer-jain", "sttp-s4b1-9-1-fair", section=_SECTION, needs="table2",
      evidence=_EV)
def table2_sentences(t2):
    from .sttp import table2_counts

    paper = table2_counts()
    totals = {(c, n): int(np.sum(t2.sent[c, n])) for c in t2.configs for n in t2.sources}
    key = max(totals, key=totals.get)
    paper_totals = {k: sum(v) for k, v in paper.items()}
    paper_key = max(paper_totals, key=paper_totals.get)
    ours = {(c, n): _jain(t2.sent[c, n]) for c in t2.configs for n in t2.sources if n > 1}
    printed = {(c, n): _jain(paper[(n, c)]) for c in t2.configs for n in t2.sources if n > 1}
    quoted = {("STTP 5:5", 2): 0.99, ("STTP 5:5", 4): 0.99, ("STTP 1:9", 2): 0.99,
              ("STTP 1:9", 4): 0.98, ("STTP 9:1", 2): 0.84, ("STTP 9:1", 4): 0.75}

    def balanced(j):
        return j["TCP Reno", 4] - max(j[c, 4] for c in _STTP)

    def fairer(j):
        return min(min(j["STTP 5:5", n], j["STTP 1:9", n]) - j["STTP 9:1", n] for n in (2, 4))

    def fmt(j):
        return ", ".join(f"{c} {n}: {v:.3f}" for (c, n), v in sorted(j.items()))

    full = all((c, n) in ours for c in ("TCP Reno",) + _STTP for n in (2, 4))
    out = {
        "sttp-s4b1-totals-above-32000": Measurement(
            value=float(totals[key]), implied=float(paper_totals[paper_key]),
            reason=f"largest total in ctlcc's runs: {totals[key]} packets ({key[0]}, {key[1]} "
                   f"sources; totals " + ", ".join(f"{c} {n}: {v}" for (c, n), v in
                                                   sorted(totals.items()))
                   + f"); Table II's largest printed total is {paper_totals[paper_key]} "
                     f"({paper_key[1]}, {paper_key[0]} sources)")}
    if not full:                  # a reduced run (fewer weightings or sources): the rest need all
        return out
    drops = {c: int(np.sum(t2.dropped[c, 4])) for c in ("TCP Reno", "STTP 9:1")}
    out.update({
        "sttp-s4b1-reno-more-balanced-jain": Measurement(
            value=balanced(ours), implied=balanced(printed),
            reason=f"Jain indices of ctlcc's runs: {fmt(ours)}; Reno minus the best STTP at 4 "
                   f"sources {balanced(ours):+.4f} (Table II's own counts: {fmt(printed)}, "
                   f"{balanced(printed):+.4f})"),
        "sttp-s4b1-5-5-1-9-fairer-jain": Measurement(
            value=fairer(ours), implied=fairer(quoted),
            reason=f"min(5:5, 1:9) - 9:1 at 2 and 4 sources in ctlcc: {fairer(ours):+.4f} "
                   f"(indices {fmt(ours)}); from the indices the paper quotes "
                   f"{fairer(quoted):+.2f}",
            other_evidence=f"from Table II's own counts: {fairer(printed):+.4f}"),
        "sttp-s4b1-9-1-fair": Measurement(
            value=ours["STTP 9:1", 4], implied=quoted["STTP 9:1", 4],
            reason=f"Jain index of ctlcc's four STTP 9:1 sources {ours['STTP 9:1', 4]:.4f} "
                   f"(packets {', '.join(map(str, t2.sent['STTP 9:1', 4]))}); the paper quotes "
                   f"0.75 for the same run, below the 0.95 the sentence's 'fairly' is read as",
            other_evidence=f"dropped packets of the four sources in ctlcc: STTP 9:1 "
                           f"{drops['STTP 9:1']}, Reno {drops['TCP Reno']} (the paper: 0 and "
                           f"287)"),
    })
    return out
