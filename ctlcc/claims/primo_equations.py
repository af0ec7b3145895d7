# ctlcc.claims.primo_equations - Primo's printed parameter and scenario arithmetic, re-done
"""Units of Chatté, Ducourthial & Niculescu (2006)'s parameter set (§III-E)
and the scenario ranges of §IV-B, recomputed from the numbers printed beside
them.  Records in ``data/ledger_primo.csv``.

References
----------
Chatté, Ducourthial & Niculescu (2006), §III-E, §IV-B.
"""

from fractions import Fraction

from .registry import Measurement, unit

__all__ = []

_SECTION = "primo"
_EV = "ctlcc.claims.primo_equations; tests/claims/test_more_equations.py"
#: §IV-B: the two access links feeding the first router, the shared link's range. [Mb/s]
_ACCESS = (10, 10)
_SHARED = (1, 16)
#: §IV-B: the second source's access-link propagation delay range. [ms]
_DELAY = (1, 50)


@unit("primo-s3e-thresholds-2x", section=_SECTION, evidence=_EV)
def thresholds():
    value = 2 * Fraction("0.17")
    return Measurement(value=float(value), reason=f"2 x 0.17 FTT_ref = {value} = {float(value)}")


@unit("primo-s4b-ratio-low", "primo-s4b-ratio-high", "primo-s4b-rtt-spread", section=_SECTION,
      evidence=_EV)
def scenario_ranges():
    into = sum(_ACCESS)
    low, high = (Fraction(100 * s, into) for s in _SHARED)
    spread = 2 * (_DELAY[1] - _DELAY[0])
    return {
        "primo-s4b-ratio-low": Measurement(
            value=float(low), reason=f"{_SHARED[0]} Mb/s out over {into} Mb/s in: {low} %"),
        "primo-s4b-ratio-high": Measurement(
            value=float(high), reason=f"{_SHARED[1]} Mb/s out over {into} Mb/s in: {high} %"),
        "primo-s4b-rtt-spread": Measurement(
            value=float(spread),
            reason=f"the access delay enters the round trip twice: 2 x ({_DELAY[1]} - "
                   f"{_DELAY[0]}) ms = {spread} ms; the printed RTTs span 122 - 24 = 98 ms"),
    }
