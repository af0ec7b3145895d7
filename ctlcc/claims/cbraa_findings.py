# ctlcc.claims.cbraa_findings - CBRAA's §4 figure captions and findings, judged on ctlcc's runs
"""Units of Ait-Hellal, Yamamoto & Leduc (1999)'s §4 statements that no
other record judges: the average RTTs the captions of Figures 3-5 print,
the RTTs of Figure 6's three sources, and two findings of Figure 5 (CBRAA
gets a bit less than each TCP source; all four get almost the same share).
They are judged on ctlcc's runs (:func:`ctlcc.experiments.cbraa.run_all`,
the paper's 500-s runs that :mod:`ctlcc.claims.cbraa_sim` judges), and the
paper's printed rates give the implied values of the two findings.
Records in ``data/ledger_cbraa.csv``.

References
----------
Ait-Hellal, Yamamoto & Leduc (1999), §4.1-§4.3, Figures 3-6.
"""

import numpy as np

from .registry import Measurement, unit

__all__ = ["largest_deviation"]

_SECTION = "cbraa_sim"
_EV = "ctlcc.claims.cbraa_findings; ctlcc.experiments.cbraa.run_all"
#: Figure 5's printed mean rates: CBRAA, then the TCP sources. [kbyte/s]
_FIG5_PRINTED = (116.0, 119.0, 123.0, 124.0)


def largest_deviation(shares):
    """Largest absolute relative deviation of a share from the mean of the shares. [1]

    Examples
    --------
    >>> round(largest_deviation([90, 100, 110]), 12)
    0.1
    """
    x = np.asarray(shares, dtype=float)
    return float(np.max(np.abs(x / x.mean() - 1)))


def _rtts(run):
    return ", ".join(f"{label} {1e3 * r:.1f}" for label, r in zip(run.labels, run.rtt))


@unit("cbraa-fig3-rtt-120-sim", "cbraa-fig4-rtt-120-sim", "cbraa-fig5-rtt-120-sim",
      "cbraa-fig6-rtt-tcp-70-sim", "cbraa-fig6-rtt-cbraa-short-70-sim",
      "cbraa-fig6-rtt-cbraa-long-220-sim", section=_SECTION, needs=("fig3", "fig4", "fig5", "fig6"),
      evidence=_EV)
def round_trips(fig3, fig4, fig5, fig6):
    fig3_all = np.concatenate([run.rtt for run in fig3])
    out = {
        "cbraa-fig3-rtt-120-sim": Measurement(
            value=1e3 * float(fig3_all.mean()),
            reason="mean RTT samples per source [ms]: " + "; ".join(_rtts(run) for run in fig3)),
        "cbraa-fig4-rtt-120-sim": Measurement(
            value=1e3 * float(np.mean(fig4.rtt)), reason=f"per source [ms]: {_rtts(fig4)}"),
        "cbraa-fig5-rtt-120-sim": Measurement(
            value=1e3 * float(np.mean(fig5.rtt)), reason=f"per source [ms]: {_rtts(fig5)}"),
    }
    for i, cid in enumerate(("cbraa-fig6-rtt-tcp-70-sim", "cbraa-fig6-rtt-cbraa-short-70-sim",
                             "cbraa-fig6-rtt-cbraa-long-220-sim")):
        out[cid] = Measurement(value=1e3 * float(fig6.rtt[i]),
                               reason=f"Figure 6's sources [ms]: {_rtts(fig6)}")
    return out


@unit("cbraa-fig5-cbraa-below-tcp-sim", "cbraa-fig5-almost-same-share-sim", section=_SECTION,
      needs="fig5", evidence=_EV)
def figure5_shares(fig5):
    from ..experiments.cbraa import WARMUP

    rates = np.array([fig5.mean(i, WARMUP, fig5.duration) for i in range(len(fig5.labels))]) / 1e3
    tcp = [i for i, p in enumerate(fig5.protocols) if p != "cbraa"]
    cb = [i for i, p in enumerate(fig5.protocols) if p == "cbraa"][0]
    listing = ", ".join(f"{label} {r:.1f}" for label, r in zip(fig5.labels, rates))
    printed = np.array(_FIG5_PRINTED)
    return {
        "cbraa-fig5-cbraa-below-tcp-sim": Measurement(
            value=float(rates[tcp].min() - rates[cb]), implied=float(printed[1:].min() - printed[0]),
            reason=f"mean goodput over {WARMUP:g}-{fig5.duration:g} s [kbyte/s]: {listing} (the "
                   f"paper: CBRAA 116, TCP 119, 123, 124)"),
        "cbraa-fig5-almost-same-share-sim": Measurement(
            value=largest_deviation(rates), implied=largest_deviation(printed),
            reason=f"mean goodput over {WARMUP:g}-{fig5.duration:g} s [kbyte/s]: {listing}; "
                   f"largest deviation from their mean {100 * largest_deviation(rates):.1f} % "
                   f"(the paper's rates: {100 * largest_deviation(printed):.1f} %)"),
    }
