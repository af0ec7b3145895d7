# ctlcc.claims.cbraa - CBRAA's printed constants (§2-§3) and Figure 6's ideal shares
"""Units of Ait-Hellal, Yamamoto & Leduc (1999) outside the §4 simulations: the
constants of eqs. (1)-(4) and Figure 6's ideal shares (records in
``data/ledger_cbraa.csv``; §4 is :mod:`ctlcc.claims.cbraa_sim`, the
cross-checks of eqs. (1)-(4) against ctlcc's senders are units of
:mod:`ctlcc.crosscheck.cbraa`).

References
----------
Ait-Hellal, Yamamoto & Leduc (1999), §2 eqs. (1)-(2), §3.1 eqs. (3)-(4), §4.3, Figure 1.
"""

import numpy as np

from ._common import data_rows
from .registry import Measurement, unit

__all__ = []

_EV = "paper_constants; cbraa_eq4_loss_th_vs_rate_and_rtt; tests/bounds/test_cbraa.py"


def _constants():
    return {r["name"]: r for r in data_rows("paper_constants.csv")}


def _derived(name, value):
    row = _constants()[name]
    note = row.get("note", "").replace("DISCREPANCY: ", "")
    how = f"the derivation gives {value:.6g}" + (f" ({row['exact_expression']})"
                                                 if row["exact_expression"] else "")
    return Measurement(value=float(value), reason=how + (f"; {note}" if note else ""))


@unit("cbraa-eq1-C-floyd", "cbraa-eq2-C", "cbraa-eq3-cycle-a", "cbraa-eq3-cycle-b",
      "cbraa-eq4-loss-c", "cbraa-eq4-loss-d", section="bounds", evidence=_EV)
def constants():
    from ..bounds import cbraa, mathis_constant

    a, b = cbraa.CYCLE_COEFFICIENTS["exact"]
    c, d = cbraa.LOSS_TH_COEFFICIENTS["exact"]
    out = {
        "cbraa-eq1-C-floyd": _derived("C_floyd", mathis_constant("floyd")),
        "cbraa-eq2-C": _derived("C_cbraa", mathis_constant("cbraa")),
        "cbraa-eq3-cycle-a": _derived("cycle_a", float(a)),
        "cbraa-eq3-cycle-b": _derived("cycle_b", float(b)),
        "cbraa-eq4-loss-c": _derived("loss_th_c", float(c)),
        "cbraa-eq4-loss-d": _derived("loss_th_d", float(d)),
    }
    for key in ("cbraa-eq1-C-floyd", "cbraa-eq2-C"):
        out[key] = Measurement(value=out[key].value, reason=out[key].reason,
                               evidence="paper_constants; tests/bounds/test_mathis.py")
    return out


@unit("cbraa-fig6-ideal-short", "cbraa-fig6-ideal-long", section="bounds",
      evidence="tests/laws/test_cbraa_law.py")
def fig6_ideal():
    sec4 = {r["quantity"]: float(r["value"]) for r in data_rows("cbraa_section4.csv")}
    rtts = np.array([sec4["fig6_rtt_short"], sec4["fig6_rtt_short"], sec4["fig6_rtt_long"]])
    link = sec4["bottleneck_capacity"] / 8.0
    shares = link * (1 / rtts) / np.sum(1 / rtts) / 1e3
    text = (f"500 kbyte/s split in proportion to 1/RTT over RTTs {1e3 * rtts[0]:g}, "
            f"{1e3 * rtts[1]:g}, {1e3 * rtts[2]:g} ms")
    return {"cbraa-fig6-ideal-short": Measurement(value=float(shares[0]), reason=text),
            "cbraa-fig6-ideal-long": Measurement(value=float(shares[2]), reason=text)}
