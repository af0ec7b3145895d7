# ctlcc.claims.sttp - STTP's worked numbers (§III), Table I's counts, the Jain formula
"""Units of Wade, Kara & Dew (2000) outside the simulated experiments: the
worked examples of §III, Table I's Poisson counts, the Jain-index formula and
Table II's capacity (records in ``data/ledger_sttp.csv``; Tables II-III and
Experiment 1 are :mod:`ctlcc.claims.sttp_sim`, the cross-checks of ctlcc's
STTP sender units of :mod:`ctlcc.crosscheck.sttp`).

References
----------
Wade, Kara & Dew (2000), §III-A, §III-B, §IV-B.1, Tables I-II.
"""

from collections import defaultdict

import numpy as np

from ._common import data_rows
from .registry import Measurement, unit

__all__ = []

_TB = "tests/bounds/test_tokenbucket.py"


def _constants():
    return {r["name"]: r for r in data_rows("paper_constants.csv")}


def table2_counts():
    """``{(sources, protocol): [packets transmitted per source]}`` of the paper's Table II."""
    groups = defaultdict(list)
    for r in data_rows("sttp_table2_fairness.csv"):
        groups[(int(r["sources"]), r["protocol"])].append(int(r["packets_tx"]))
    return groups


@unit("sttp-3b3-scaled-sigma", section="bounds", evidence=_TB + "::test_rtt_scaled")
def scaled_sigma():
    from ..laws import sttp

    return Measurement(value=float(sttp.rtt_scaled(16, 0.305, 1.0, 0.9, 0.1)),
                       reason="alpha sigma + beta sigma x lastRTT/newRTT with sigma = 16, the "
                              "ratio 0.305 as printed, alpha:beta = 0.9:0.1 (with the unrounded "
                              "0.078/0.255 it is 14.889)")


@unit("sttp-3a-packet-pair", section="bounds", evidence=_TB + "::test_packet_pair_example")
def packet_pair_example():
    from ..bounds import tokenbucket

    return Measurement(value=float(tokenbucket.packet_pair_bandwidth(64, 0.016)),
                       reason="64 bytes / 16 ms (32 kb/s)")


@unit("sttp-4b1-table2-capacity", section="bounds",
      evidence=_TB + "::test_table_2_capacity_32000_packets")
def table2_capacity():
    totals = {k: sum(v) for k, v in table2_counts().items()}
    worst = max(abs(t / 32000.0 - 1) for t in totals.values())
    return Measurement(value=128e3 * 2000 / 8000.0,
                       reason=f"128 kb/s x 2000 s / 8000 bit; Table II's runs send totals within "
                              f"{100 * worst:.2f} % of it (some above: 'queuing which has taken "
                              f"place prior to sources being stopped')")


@unit("sttp-3b-table1-poisson", section="bounds",
      evidence=_TB + "::test_table_1_poisson_counts_are_consistent_with_capacity_over_packet_size")
def table1_poisson():
    from scipy import stats

    from ..bounds import tokenbucket

    rows = data_rows("sttp_table1_poisson.csv")
    outside = []
    for r in rows:
        mean = tokenbucket.expected_tokens(float(r["bottleneck_bps"]), float(r["packet_size_B"]),
                                           float(r["duration_s"]))
        lo, hi = stats.poisson.ppf([0.005, 0.995], mean)
        if not lo <= int(r["poisson_tokens"]) <= hi:
            outside.append(r["network"])
    return Measurement(value=float(len(outside)),
                       reason=f"Table I's {len(rows)} Poisson counts against the central 99 % "
                              f"of Poisson(C T / (8 x 1000)) (link rate and packet size as ctlcc "
                              f"reads the rows); outside: {', '.join(outside) or 'none'}")


@unit("sttp-4b1-jain-formula", section="bounds", evidence=_TB + "::test_jain_properties")
def jain_formula():
    counts = table2_counts()[(4, "STTP 1:9")]
    without_n = float(np.sum(counts) ** 2 / np.sum(np.square(counts)))
    return Measurement(value=without_n,
                       reason="the printed formula (sum x)^2 / sum x^2, without the n, on Table "
                              "II's four STTP 1:9 counts: not in [0, 1]; with the n (Jain's "
                              "index) it gives the quoted 0.98")
