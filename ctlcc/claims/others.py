# ctlcc.claims.others - the models and standards ctlcc builds on: Hollot et al.'s example
"""Units of the works the five papers rely on (records in ``data/ledger_others.csv``).

Hollot et al. (2001)'s printed operating point is a paper record of that
paper.  The consistency checks of ctlcc's own senders against the closed
forms and standards they implement (PFTK, the deterministic sawtooth, the
fluid model, RFC 5348's equation, RFC 6675 against ns-3) are units of
:mod:`ctlcc.crosscheck.others`, beside the checks they read.

References
----------
Padhye et al. (1998); Mathis et al. (1997); Hollot et al. (2001); RFC 5348; RFC 6675.
"""

from ._common import data_rows
from .registry import Measurement, unit

__all__ = []



@unit("hollot-example-*", section="fluid",
      evidence="hollot2001_operating_point; tests/sim/test_fluid_reno.py")
def hollot_example():
    from ..sim import fluid

    lin = fluid.reno_linearisation(60, 3750.0, 0.2, 175.0)
    out = {}
    for row in data_rows("hollot2001_operating_point.csv"):
        value = abs(float(getattr(lin, row["quantity"])))
        out[f"hollot-example-{row['quantity'].replace('_', '-')}"] = Measurement(
            value=value, label=f"{row['note']} = {row['value']} {row['unit']}",
            reason=f"{row['note']} of ctlcc.sim.fluid.reno_linearisation(60, 3750, 0.2, 175)")
    return out
