# ctlcc.claims.cbraa_more_findings - CBRAA §4.3's "very close to the ideal values" on ctlcc's run
"""Units of Ait-Hellal, Yamamoto & Leduc (1999)'s §4.3 sentences that Figure 6's
rates "are very close to the ideal values" and that TCP "is likely to get less
than its fair share", judged on ctlcc's Figure 6 run
(:func:`ctlcc.experiments.cbraa.fig6`, the run :mod:`ctlcc.claims.cbraa_sim`
uses), with the paper's own printed rates as the implied values (records in
``data/ledger_cbraa.csv``).

References
----------
Ait-Hellal, Yamamoto & Leduc (1999), §4.3, Figure 6.
"""

import numpy as np

from .registry import Measurement, unit

__all__ = ["largest_off_ideal"]

_SECTION = "cbraa_sim"
#: The paper's printed rates and the ideal shares of Figure 6 (TCP 25 ms, CBRAA 25 ms,
#: CBRAA 100 ms), from data/cbraa_section4.csv. [kbyte/s]
_KEYS = (("fig6_tcp_rate", "fig6_ideal_short"), ("fig6_cbraa_short_rate", "fig6_ideal_short"),
         ("fig6_cbraa_long_rate", "fig6_ideal_long"))


def largest_off_ideal(rates, ideals):
    """Largest ``|rate / ideal - 1|`` and its index.

    Examples
    --------
    >>> off, k = largest_off_ideal([178, 233, 69], [215, 215, 69])
    >>> round(off, 6), k                       # 1 - 178/215 = 37/215
    (0.172093, 0)
    """
    off = np.abs(np.asarray(rates, dtype=float) / np.asarray(ideals, dtype=float) - 1.0)
    k = int(np.argmax(off))
    return float(off[k]), k


def _section4():
    from ._common import data_rows

    return {r["quantity"]: float(r["value"]) for r in data_rows("cbraa_section4.csv")}


@unit("cbraa-fig6-close-to-ideal-sim", section=_SECTION, needs="fig6",
      evidence="ctlcc.claims.cbraa_more_findings; ctlcc.experiments.cbraa.fig6")
def close_to_ideal(fig6):
    from ..experiments.cbraa import WARMUP

    s4 = _section4()
    printed = [s4[r] / 1e3 for r, _ in _KEYS]
    ideals = [s4[i] / 1e3 for _, i in _KEYS]
    rates = [fig6.mean(i, WARMUP, fig6.duration) / 1e3 for i in range(3)]
    value, k = largest_off_ideal(rates, ideals)
    implied, kp = largest_off_ideal(printed, ideals)
    return Measurement(
        value=value, implied=implied,
        reason=f"mean goodput over {WARMUP:g}-{fig6.duration:g} s [kbyte/s]: " + ", ".join(
            f"{lab} {r:.1f} (ideal {i:g})" for lab, r, i in zip(fig6.labels, rates, ideals))
               + f"; the farthest is {fig6.labels[k]} ({100 * value:.1f} %); the paper's printed "
                 f"rates {printed} are {100 * implied:.1f} % off at the farthest "
                 f"({fig6.labels[kp]})")


@unit("cbraa-s4.3-tcp-below-fair-share-sim", section=_SECTION, needs="fig6",
      evidence="ctlcc.claims.cbraa_more_findings; ctlcc.experiments.cbraa.fig6")
def tcp_below_fair_share(fig6):
    from ..experiments.cbraa import WARMUP

    s4 = _section4()
    ideal = s4["fig6_ideal_short"] / 1e3
    tcp = fig6.mean(0, WARMUP, fig6.duration) / 1e3
    printed = s4["fig6_tcp_rate"] / 1e3
    return Measurement(
        value=tcp / ideal, implied=printed / ideal,
        reason=f"{fig6.labels[0]}'s mean goodput over {WARMUP:g}-{fig6.duration:g} s "
               f"{tcp:.1f} kbyte/s over its ideal share {ideal:g} kbyte/s (the paper: "
               f"{printed:g} kbyte/s, ratio {printed / ideal:.3f})")
