# ctlcc.claims.iftp - IFTP's closed forms (§5) and ctlcc's reading of Table I's gaps
"""Units of ElAarag & Bassiouni (2002) outside the §6 simulations: the closed
forms of §5 (eqs. 16-27, Figure 3) and ctlcc's reading of Table I's gaps
(records in ``data/ledger_iftp.csv``; §6 is :mod:`ctlcc.claims.iftp_sim`, the
cross-checks of eqs. (10)-(26) against ctlcc's IFTP sender are units of
:mod:`ctlcc.crosscheck.iftp`).

References
----------
ElAarag & Bassiouni (2002), §3.1, §4 Figure 1, §5 eqs. (10)-(27), Figure 3, §6.1 Table I.
"""

import numpy as np

from ._common import data_rows
from .registry import Measurement, unit

__all__ = []

_TESTS = "tests/bounds/test_iftp.py"


def _constants():
    return {r["name"]: r for r in data_rows("paper_constants.csv")}


def _cases():
    return data_rows("iftp_fig3_cases.csv")


@unit("iftp-eq19-round-trips", section="bounds",
      evidence="iftp_fig3_bandwidth_rtt_vs_n; iftp_closed_form_vs_enumeration; " + _TESTS)
def eq19():
    from ..bounds import iftp

    ws, wmax = int(_cases()[0]["Ws"]), int(_cases()[0]["Wmax"])
    n = np.array([1024, 5000])
    rel = iftp.ideal_bandwidth(n, 1, 1, ws, wmax, published=True) / \
        iftp.ideal_bandwidth(n, 1, 1, ws, wmax) - 1
    return Measurement(
        value=float(iftp.round_trips(1024, ws, wmax)),
        reason=(f"enumerating the windows 1, 2, .., {ws}, {ws + 1}, .., {wmax}, {wmax}, ..: "
                f"N = 1024 needs {iftp.round_trips(1024, ws, wmax)} round trips; eq. (16)'s N2 "
                f"counts the windows Ws+1..Wmax-1, Wmax packets short, so eq. (19) adds one "
                f"round trip for every N in case 3: Figure 3's bandwidth is "
                f"{-100 * rel[0]:.1f} % (N = 1024) to {-100 * rel[1]:.1f} % (N = 5000) low"))


@unit("iftp-eq17-round-trips", section="bounds",
      evidence="iftp_closed_form_vs_enumeration; " + _TESTS)
def eq17():
    from ..bounds import iftp

    ws, wmax = int(_cases()[0]["Ws"]), int(_cases()[0]["Wmax"])
    bad = [N for N in range(2, 33) if iftp.round_trips(N, ws, wmax, published=True)
           != iftp.round_trips(N, ws, wmax)]
    return Measurement(value=float(iftp.round_trips(5, ws, wmax)),
                       reason=f"enumeration: ceil(lg(N + 1)) round trips; eq. (17)'s ceil(lg N) "
                              f"+ 1 has one too many for every N that is not a power of two "
                              f"({len(bad)} of N = 2..32)")


@unit("iftp-fig3-case-ranges", section="bounds",
      evidence="iftp_fig3_bandwidth_rtt_vs_n; " + _TESTS)
def fig3_cases():
    from ..bounds import iftp

    wrong = []
    for row in _cases():
        for published in (False, True):
            n1, n2 = iftp.phase_sizes(int(row["Ws"]), int(row["Wmax"]), published)
            for N in (int(row["N_first"]), int(row["N_last"])):
                case = 1 if N <= n1 else 2 if N <= n1 + n2 else 3
                if case != int(row["case"]):
                    wrong.append((N, published))
    return Measurement(value=float(len(wrong)),
                       reason="range ends in another case (exact and printed phase sizes): "
                              + (", ".join(f"N = {n} ({'printed' if p else 'exact'})"
                                           for n, p in wrong) or "none"))


@unit("iftp-eq21-cycle-packets", section="bounds",
      evidence=_TESTS + "::test_eq_21_sum_and_enumeration")
def eq21():
    from ..bounds import iftp

    evens = np.arange(2, 200, 2)
    enumerated = np.array([sum(range(e // 2, e + 1)) for e in evens])
    return Measurement(value=float(np.max(np.abs(iftp.cycle_packets(evens) - enumerated))),
                       reason="(3/8) n^2 + (3/4) n against the packets of the windows n/2 .. n, "
                              "summed one by one, for every even n = 2..198")


@unit("iftp-eq25-window-bound", section="bounds",
      evidence="rate_vs_loss_mathis_pftk_tfrc_iftp; " + _TESTS)
def eq25():
    from ..bounds import iftp

    p = np.logspace(-5, np.log10(iftp.MAX_CYCLE_LOSS), 50)
    excess = iftp.steady_state_window(p) - np.sqrt(8 / (3 * p))
    return Measurement(value=float(np.max(excess)),
                       reason="largest exact root of eq. (24) minus sqrt(8/(3p)) over 50 "
                              "probabilities 1e-5..8/9 (the cycle model's range)")


@unit("iftp-eq26-constant", section="bounds",
      evidence="rate_vs_loss_mathis_pftk_tfrc_iftp; " + _TESTS + "::test_eq_26_constant")
def eq26():
    from ..bounds import iftp

    # sqrt(p) x the exact non-ideal bandwidth tends to the bound's constant as p -> 0;
    # at p = 1e-16 it is within 1e-8 (relative) of its limit.
    constant = float(iftp.nonideal_bandwidth(1e-16, 1.0, 1.0) * 1e-8)
    return Measurement(value=constant, reason="sqrt(p) x the exact non-ideal bandwidth of eqs. "
                                              "(21)-(25) at p = 1e-16 (its limit to 1e-8); "
                                              "exact: sqrt(3/2)")


@unit("iftp-eq27-worst-timeout", section="bounds",
      evidence=_TESTS + "::test_worst_case_timeout_is_64_ms_from_eq_9")
def eq27():
    from ..bounds import iftp

    return Measurement(value=float(iftp.worst_case_timeout()),
                       reason="eq. (9) with the 1-ms tick: 64 ticks")


@unit("iftp-table1-fair-share", section="bounds",
      evidence=_TESTS + "::test_table_i_gaps_correspond_to_the_fair_share")
def table1_fair_share():
    tables = data_rows("iftp_tables.csv")
    gaps = [float(r["value"]) * 1e-3 for r in tables if r["table"] == "I" and r["row"] == "G"]
    tau = 8000.0 / 1e6
    rates = [8000.0 / (g + tau) / 1e3 for g in gaps]
    return Measurement(value=float(np.mean(rates)),
                       reason="gap law n (G + tau) = R with tau = 8 ms (one 1000-byte packet at "
                              "1 Mb/s, ctlcc's reading: tau is not printed): "
                              + ", ".join(f"{r:.1f}" for r in rates) + " kb/s per source")
