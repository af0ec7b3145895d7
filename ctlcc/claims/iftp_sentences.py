# ctlcc.claims.iftp_sentences - IFTP's §6.4 summary sentence, judged on ctlcc's Table IV runs
"""Units of ElAarag & Bassiouni (2002)'s §6.4 sentence "The utilization of
the link ranged from 60 to 100%", judged on ctlcc's runs of Table IV's six
columns (the runs :mod:`ctlcc.claims.iftp_sim` uses); the ends of the range
Table IV itself prints are the implied values.  Records in
``data/ledger_iftp.csv``.

References
----------
ElAarag & Bassiouni (2002), §6.4, Table IV.
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
