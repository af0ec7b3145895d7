# ctlcc.claims.others - the models and standards ctlcc builds on: Mathis, PFTK, Hollot, RFCs
"""Units of the works the five papers rely on (records in ``data/ledger_others.csv``).

Hollot et al. (2001)'s printed operating point is a paper record of that
paper; the rest are consistency checks of ctlcc's own senders against the
closed forms and standards they implement (PFTK, the deterministic sawtooth,
the fluid model, RFC 5348's equation, RFC 6675 against ns-3).

References
----------
Padhye et al. (1998); Mathis et al. (1997); Hollot et al. (2001); RFC 5348; RFC 6675.
"""

from ._common import check_points, data_rows
from .registry import Measurement, unit

__all__ = []

_CC = "crosscheck_summary; crosscheck_points; ctlcc.crosscheck."


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


@unit("pftk-reno-pftk-*", section="crosscheck", needs="reno_pftk",
      evidence="crosscheck_reno_vs_mathis_pftk; " + _CC + "reno_pftk")
def pftk(check):
    return check_points(check, "pftk-reno-pftk")


@unit("mathis-reno-sawtooth-utilisation-*", section="crosscheck",
      needs="reno_sawtooth_utilisation", evidence=_CC + "reno_sawtooth_utilisation")
def sawtooth(check):
    return check_points(check, "mathis-reno-sawtooth-utilisation")


@unit("hollot-fluid-reno-rate-*", section="crosscheck", needs="fluid_reno_rate",
      evidence=_CC + "fluid_reno_rate")
def fluid_rate(check):
    return check_points(check, "hollot-fluid-reno-rate")


@unit("rfc5348-tfrc-equation-rate-*", section="crosscheck", needs="tfrc_equation_rate",
      evidence=_CC + "tfrc_equation_rate")
def tfrc_rate(check):
    return check_points(check, "rfc5348-tfrc-equation-rate")


@unit("rfc5348-tfrc-newreno-share-*", section="crosscheck", needs="tfrc_newreno_share",
      evidence=_CC + "tfrc_newreno_share")
def tfrc_share(check):
    return check_points(check, "rfc5348-tfrc-newreno-share")


@unit("rfc6675-sack-vs-ns3-goodput-*", section="crosscheck", needs="sack_vs_ns3_goodput",
      evidence=_CC + "sack_vs_ns3")
def sack_goodput(check):
    return check_points(check, "rfc6675-sack-vs-ns3-goodput")


@unit("rfc6675-sack-vs-ns3-retransmitted-*", section="crosscheck",
      needs="sack_vs_ns3_retransmitted", evidence=_CC + "sack_vs_ns3")
def sack_retransmitted(check):
    return check_points(check, "rfc6675-sack-vs-ns3-retransmitted")
