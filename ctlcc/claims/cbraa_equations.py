# ctlcc.claims.cbraa_equations - CBRAA's §2-§4 derivation steps and worked numbers, re-done
"""Units of Ait-Hellal, Yamamoto & Leduc (1999)'s derivation of the ideal
TCP Reno cycle (§2: the packets of a cycle, the average round trip and
window, the loss ratio), the cycle duration of §3.1, TCP-Friend's increase
of §3.2 and the initial rate of §4, each re-done exactly: the sums by
enumeration over the windows ``Wmax/2, .., Wmax`` and in closed form with
sympy, the limits with :func:`sympy.limit`.  Records in
``data/ledger_cbraa.csv``.

References
----------
Ait-Hellal, Yamamoto & Leduc (1999), §2, §3.1-§3.2, §4.

Examples
--------
>>> cycle_packets(10)     # windows 5, 6, .., 10
45
"""

from fractions import Fraction

from .registry import Measurement, unit

__all__ = ["cycle_packets"]

_SECTION = "bounds"
_EV = "ctlcc.claims.cbraa_equations; tests/claims/test_more_equations.py"


def cycle_packets(wmax):
    """Segments sent in one ideal Reno cycle: the windows from wmax/2 to wmax, summed one by one.

    Parameters
    ----------
    wmax : int
        Largest window, even. [segments]

    Returns
    -------
    int
        Segments. [segments]
    """
    return sum(range(wmax // 2, wmax + 1))


def _closed_forms():
    """(N, R-bar B) of §2 as sympy expressions of an even Wmax = 2k."""
    import sympy

    k, i = sympy.symbols("k i", positive=True, integer=True)
    w = 2 * k
    n = sympy.summation(i, (i, k, w))
    rbar_b = sympy.summation(i * i, (i, k, w)) / n           # R-bar B = sum (i/N) i
    return sympy, k, w, sympy.factor(n), sympy.simplify(rbar_b)


@unit("cbraa-s2-cycle-packets-sum", section=_SECTION, evidence=_EV)
def cycle_sum():
    bad = sum(Fraction(cycle_packets(w)) != Fraction(3, 8) * w * (w + 2) for w in range(2, 401, 2))
    sympy, k, w, n, _ = _closed_forms()
    algebra = sympy.simplify(n - sympy.Rational(3, 8) * w * (w + 2))
    return Measurement(value=float(bad),
                       reason=f"the windows Wmax/2 .. Wmax sum to (3/8) Wmax (Wmax + 2) for every "
                              f"even Wmax = 2..400 ({bad} exceptions)",
                       other_evidence=f"closed form (sympy, Wmax = 2k): N = {n}; minus the "
                                      f"printed form: {algebra}")


@unit("cbraa-s2-avg-rtt-limit", "cbraa-s2-avg-window-limit", "cbraa-s2-loss-ratio-form",
      section=_SECTION, evidence=_EV)
def averages():
    sympy, k, w, n, rbar_b = _closed_forms()
    limit = sympy.limit(rbar_b / w, k, sympy.oo)
    wmax, wbar = sympy.symbols("W_max Wbar", positive=True)
    printed_p = sympy.Rational(8, 3) * sympy.Rational(7, 9) ** 2 / wbar ** 2
    form = sympy.simplify(printed_p.subs(wbar, sympy.Rational(7, 9) * wmax)
                          - 1 / (sympy.Rational(3, 8) * wmax ** 2))
    lead = sympy.limit(n / (sympy.Rational(3, 8) * w ** 2), k, sympy.oo) - 1
    exact_20 = rbar_b.subs(k, 10) / 20
    return {
        "cbraa-s2-avg-rtt-limit": Measurement(
            value=float(limit),
            reason=f"R-bar B / Wmax = {sympy.factor(rbar_b / w)} (sympy, Wmax = 2k) tends to "
                   f"{limit} as Wmax grows; at Wmax = 20 it is {exact_20} = {float(exact_20):.4f}"),
        "cbraa-s2-avg-window-limit": Measurement(
            value=float(limit),
            reason=f"W-bar = R-bar B, so W-bar / Wmax has the same limit {limit}"),
        "cbraa-s2-loss-ratio-form": Measurement(
            value=float(abs(form) + abs(lead)),
            reason=f"(8/3)(7/9)^2 / W-bar^2 at W-bar = (7/9) Wmax minus 1/((3/8) Wmax^2): {form}; "
                   f"N / ((3/8) Wmax^2) - 1 tends to {lead}"),
    }


@unit("cbraa-s3.1-cycle-form", section=_SECTION, evidence=_EV)
def cycle_duration():
    import sympy

    wmax, b, cycle = sympy.symbols("W_max B Cycle", positive=True)
    n = sympy.Rational(3, 8) * wmax * (wmax + 2)
    solved = sympy.solve(sympy.Eq(1 / n, 1 / (b * cycle)), cycle)[0]
    difference = sympy.simplify(solved - n / b)
    return Measurement(value=float(abs(difference)) if difference.is_number else float("nan"),
                       reason=f"Cycle solved from 1/N = 1/(B Cycle) is {solved}; minus the printed "
                              f"(3/8) Wmax (Wmax + 2) / B: {difference}")


@unit("cbraa-s3.2-tcp-friend-half-reno", section=_SECTION, evidence=_EV)
def tcp_friend():
    import sympy

    t, srtt, s = sympy.symbols("T_RTCP srtt s", positive=True)
    window = 1 + s / srtt                          # Reno: one segment more per srtt
    reno = sympy.diff(window / srtt, s) * t        # its rate's increase over T_RTCP
    ratio = sympy.simplify((t / (2 * srtt ** 2)) / reno)
    return Measurement(value=float(ratio),
                       reason=f"Reno's rate W/srtt grows by d(W/srtt)/dt x T_RTCP = {reno} per "
                              f"report interval; the printed T_RTCP/(2 srtt^2) over it is {ratio}")


@unit("cbraa-s4-initial-rate", section=_SECTION, evidence=_EV)
def initial_rate():
    return Measurement(value=5 * 1000 * 8 / 1e3,
                       reason="5 packets/s x 1000 bytes x 8 bit = 40000 bit/s")
