# ctlcc.claims.iftp_equations - IFTP's gap laws and bandwidth analysis, re-derived and enumerated
"""Units of ElAarag & Bassiouni (2002)'s equations not judged elsewhere:
the gap laws (1)-(6) of §3.1 and the scaled gap of §3.2 (solved with sympy,
and the period balance checked by enumerating a paced sender's send
instants), the round-trip counts (12)-(15), (18) and the limit (20) of §5.1
(enumeration of the window sequence), and the steady-state cycle (22)-(24)
of §5.2 (exact sums).  Everything is exact (fractions or sympy), so a
residual is either 0 or the size of a printed error.  Records in
``data/ledger_iftp.csv``.

References
----------
ElAarag & Bassiouni (2002), §3.1-§3.2 eqs. (1)-(6), §5.1 eqs. (12)-(20), §5.2 eqs. (21)-(24).
"""

import math
from fractions import Fraction

from .registry import Measurement, unit

__all__ = []

_SECTION = "bounds"
_EV = "ctlcc.claims.iftp_equations; tests/claims/test_equations.py"
#: Packets per period n, packet times tau [s] and gaps G_i [s] of the law checks.
PACKETS = tuple(range(1, 65))
TAUS = tuple(Fraction(k, 1000) for k in (1, 2, 5, 8))
GAPS = tuple(Fraction(k, 1000) for k in (0, 1, 7, 20, 50))
#: Figure 3's slow-start threshold and largest window. [packets]
WS, WMAX = 32, 50

#: (equation, packets of period i+1 in units of n, the printed gap forms).
_LAWS = {
    1: ("slow start", Fraction(2),
        lambda n, g, tau, R: ((g - tau) / 2, R / (2 * n) - tau)),                     # (2)
    3: ("congestion avoidance", None,
        lambda n, g, tau, R: ((n * g - tau) / (n + 1), R / (n + 1) - tau)),            # (4)
    5: ("packet loss", Fraction(1, 2),
        lambda n, g, tau, R: (2 * g + tau, 2 * R / n - tau)),                          # (6)
}


def _next_packets(k, n):
    factor = _LAWS[k][1]
    return n + 1 if factor is None else factor * n


def _grid(k):
    for n in PACKETS:
        if k == 5 and n % 2:
            continue                     # halving n packets needs an even n
        for tau in TAUS:
            for g in GAPS:
                yield n, g, tau, n * (g + tau)


def _fits(count, gap, tau, period):
    """Packets a sender pacing at *gap* starts within one *period* (gap + tau each)."""
    slot = gap + tau
    if slot <= 0:
        return math.inf
    k = 0
    while k * slot < period:             # send instants 0, slot, 2 slot, ...
        k += 1
    return k if k * slot == period else Fraction(period, slot)


@unit("iftp-eq1-period-balance", "iftp-eq3-period-balance", "iftp-eq5-period-balance",
      section=_SECTION, evidence=_EV)
def period_balance():
    out = {}
    for k, (name, _, printed) in _LAWS.items():
        bad, checked = 0, 0
        for n, g, tau, R in _grid(k):
            gap = printed(n, g, tau, R)[0]
            expected = _next_packets(k, n)
            checked += 1
            bad += _fits(expected, gap, tau, R) != expected
        out[f"iftp-eq{k}-period-balance"] = Measurement(
            value=float(bad),
            reason=f"{checked} grid points: paced at eq. ({k + 1})'s gap, the sender starts "
                   f"exactly {'2n' if k == 1 else 'n + 1' if k == 3 else 'n/2'} packets in the "
                   f"period R = n (G_i + tau) its n packets filled ({name}) at "
                   f"{checked - bad} of them")
    return out


@unit("iftp-eq2-gap", "iftp-eq4-gap", "iftp-eq6-gap", section=_SECTION, evidence=_EV)
def gaps():
    import sympy

    n, g, tau, R, G1 = sympy.symbols("n G_i tau R G1", positive=True)
    out = {}
    for k, (name, factor, printed) in _LAWS.items():
        count = n + 1 if factor is None else sympy.nsimplify(factor) * n
        balance = n * (g + tau)
        solved = sympy.solve(sympy.Eq(count * (G1 + tau), balance), G1)[0]
        first, second = printed(n, g, tau, balance)
        size = max(_size(sympy.simplify(solved - first)),
                   _size(sympy.simplify(solved - second)))
        out[f"iftp-eq{k + 1}-gap"] = Measurement(
            value=size,
            reason=f"G_(i+1) solved from eq. ({k}) is {sympy.simplify(solved)}; both printed "
                   f"forms of eq. ({k + 1}) differ from it by {size:g} (with R = n (G_i + tau))")
    return out


@unit("iftp-s3.1-gap-more-than-doubled", section=_SECTION, evidence=_EV)
def more_than_doubled():
    law = _LAWS[5][2]
    excess = min((law(n, g, tau, R)[0] - 2 * g) / tau for n, g, tau, R in _grid(5))
    return Measurement(value=float(excess),
                       reason=f"G_(i+1) - 2 G_i = tau: the smallest excess over the grid is "
                              f"{excess} packet time(s)")


@unit("iftp-s3.2-scaled-gap", section=_SECTION, evidence=_EV)
def scaled_gap():
    import sympy

    n, g, tau, S, Gm = sympy.symbols("n G tau S G_m", positive=True)
    solved = sympy.solve(sympy.Eq(n * (g + tau), S * n * (Gm + tau)), Gm)[0]
    difference = sympy.simplify(solved - (g - tau * (S - 1)) / S)
    return Measurement(value=_size(difference),
                       reason=f"G_m solved from n (G + tau) = S n (G_m + tau) is "
                              f"{sympy.simplify(solved)}; minus the printed form: {difference}")


# --- §5.1: the ideal transfer, enumerated ---------------------------------------------------

def windows(ws, wmax):
    """The ideal window sequence: 1, 2, 4, .., ws, ws + 1, .., wmax, wmax, ... (a generator)."""
    w = 1
    while w < ws:
        yield w
        w *= 2
    yield ws
    w = ws + 1
    while w < wmax:
        yield w
        w += 1
    while True:
        yield wmax


def round_trips(N, ws, wmax):
    """Round trips the ideal sender needs for N packets (enumerated)."""
    sent = 0
    for k, w in enumerate(windows(ws, wmax), start=1):
        sent += w
        if sent >= N:
            return k
    raise AssertionError("unreachable")  # pragma: no cover


def _powers(limit=1024):
    w = 1
    while w <= limit:
        yield w
        w *= 2


@unit("iftp-eq12-slow-start-rtts", "iftp-eq15-slow-start-packets", section=_SECTION,
      evidence=_EV)
def slow_start():
    bad12 = bad15 = 0
    for ws in _powers():
        ss = []
        for w in windows(ws, ws + 1):
            ss.append(w)
            if w == ws:
                break
        lg = int(math.log2(ws))
        bad12 += len(ss) != lg + 1
        bad15 += not (sum(ss) == 2 ** (lg + 1) - 1 == 2 * ws - 1)
    return {"iftp-eq12-slow-start-rtts": Measurement(
                value=float(bad12),
                reason="the windows 1, 2, .., Ws take lg Ws + 1 round trips for every Ws = "
                       "1..1024 (a power of two, as the doubling reaches Ws only then)"),
            "iftp-eq15-slow-start-packets": Measurement(
                value=float(bad15),
                reason="1 + 2 + .. + Ws = 2^(lg Ws + 1) - 1 = 2 Ws - 1 for every Ws = 1..1024")}


@unit("iftp-eq13-avoidance-rtts", section=_SECTION, evidence=_EV)
def avoidance():
    bad = checked = 0
    for ws in _powers(64):
        for wmax in range(ws + 1, 201):
            ca = []                                  # the windows after Ws up to Wmax
            for w in windows(ws, wmax):
                if w > ws:
                    ca.append(w)
                if w == wmax:
                    break
            checked += 1
            bad += len(ca) != wmax - ws
    return Measurement(value=float(bad),
                       reason=f"windows Ws + 1, .., Wmax are Wmax - Ws round trips for all "
                              f"{checked} pairs; eq. (16)'s N2 = (Wmax - Ws - 1)(Wmax + Ws)/2 "
                              f"sums only Ws + 1 .. Wmax - 1, one window fewer than eq. (13) "
                              f"times (see iftp-eq19-round-trips)")


def _phase_sizes(ws, wmax):
    n1 = 2 * ws - 1
    n2 = sum(range(ws + 1, wmax + 1))        # the windows eq. (13) counts
    return n1, n2


@unit("iftp-eq14-steady-rtts", section=_SECTION, evidence=_EV)
def steady():
    n1, n2 = _phase_sizes(WS, WMAX)
    t12 = round_trips(n1 + n2, WS, WMAX)
    bad, fractional = 0, 0
    for N in range(n1 + n2 + 1, 5001):
        t3 = Fraction(N - n1 - n2, WMAX)                                            # (14)
        enumerated = round_trips(N, WS, WMAX) - t12
        bad += math.ceil(t3) != enumerated
        fractional += t3.denominator != 1
    return Measurement(value=float(bad),
                       reason=f"N = {n1 + n2 + 1}..5000 (Ws = {WS}, Wmax = {WMAX}): ceil of "
                              f"(N - N1 - N2)/Wmax is the enumerated count of Wmax windows; "
                              f"without the ceiling eq. (14) is a fraction of a round trip for "
                              f"{fractional} of these N (eq. (19) adds the ceiling)")


def _eq18_round_trips(N, ws):
    """Eq. (18)'s denominator in round trips, as printed (the square root read as covering
    (2 Ws + 1)^2 + 8 (N - 2 Ws + 1), the quadratic's discriminant), without floating point."""
    c = 2 * ws + 1
    discriminant = c * c + 8 * (N - 2 * ws + 1)
    r = math.isqrt(discriminant)
    if r * r == discriminant:
        ca = -(-(r - c) // 2)                        # ceil((sqrt(D) - c) / 2), sqrt(D) = r
    else:
        ca = (r - c) // 2 + 1                        # sqrt(D) strictly between r and r + 1
    return int(math.log2(ws)) + 1 + ca


@unit("iftp-eq18-avoidance-closed-form", section=_SECTION, evidence=_EV)
def eq18():
    bad = checked = 0
    for ws in _powers(64):
        if ws < 2:
            continue
        for wmax in range(ws + 2, ws + 41):
            n1, n2 = _phase_sizes(ws, wmax)
            for N in range(n1 + 1, n1 + n2 + 1):
                checked += 1
                bad += _eq18_round_trips(N, ws) != round_trips(N, ws, wmax)
    return Measurement(value=float(bad),
                       reason=f"eq. (18)'s round trips equal the enumeration for {checked - bad} "
                              f"of {checked} (Ws, Wmax, N) of case 2 (the square root read as "
                              f"covering the discriminant (2 Ws + 1)^2 + 8 (N - 2 Ws + 1): the "
                              f"source text's extent of the root is ambiguous)")


@unit("iftp-eq20-limit", section=_SECTION, evidence=_EV)
def eq20():
    import sympy

    N, ws, wmax = sympy.symbols("N W_s W_max", positive=True)
    head = sympy.log(ws, 2) + 1 + (wmax - ws)
    tail = (N - 2 ** (sympy.log(ws, 2) + 1) + 1 - (wmax - ws - 1) * (wmax + ws) / 2) / wmax
    bounds = [sympy.limit(N * wmax ** -1 / (head + tail + extra), N, sympy.oo)
              for extra in (0, 1)]          # ceil(x) lies in [x, x + 1)
    size = max(abs(float(sympy.simplify(b - 1))) for b in bounds)
    return Measurement(value=size,
                       reason=f"theta R / (Wmax P) of eq. (19) tends to {bounds[0]} with the "
                              f"ceiling's argument and to {bounds[1]} with the argument + 1: "
                              f"the limit is Wmax P / R (a plain limit, no L'Hopital needed)")


# --- §5.2: the steady-state cycle --------------------------------------------------------

def _cycle(n):
    """Packets of the windows n/2, n/2 + 1, .., n (one drop per cycle)."""
    return [Fraction(w) for w in range(n // 2, n + 1)]


@unit("iftp-eq22-mean-window", "iftp-eq23-cycle-bound", "iftp-eq24-drop-rate",
      section=_SECTION, evidence=_EV)
def cycle():
    evens = range(2, 401, 2)
    mean_gap = max(abs(sum(_cycle(n)) / len(_cycle(n)) - Fraction(3, 4) * n) for n in evens)
    ratio = max(sum(_cycle(n)) / len(_cycle(n)) / (Fraction(3, 4) * n) for n in evens)
    drop = max(abs(1 / sum(_cycle(n)) - 1 / (Fraction(3, 8) * n * n + Fraction(3, 4) * n))
               for n in evens)
    return {
        "iftp-eq22-mean-window": Measurement(
            value=float(mean_gap), reason="the mean of the windows n/2 .. n is 3n/4 for every "
                                          "even n = 2..400"),
        "iftp-eq23-cycle-bound": Measurement(
            value=float(ratio),
            reason="the cycle's packets (3/8 n^2 + 3/4 n) over its n/2 + 1 round trips are "
                   "3n/4 per round trip: the bound of eq. (23) is met with equality in the "
                   "loss-free cycle"),
        "iftp-eq24-drop-rate": Measurement(
            value=float(drop), reason="one drop per (3/8) n^2 + (3/4) n packets, every even n"),
    }


def _size(expression):
    """0 for an expression sympy reduces to 0, else its modulus at a sample point."""
    import sympy

    if expression == 0:
        return 0.0
    values = {s: sympy.Rational(k + 2, 7) for k, s in enumerate(sorted(expression.free_symbols,
                                                                      key=str))}
    return float(abs(expression.subs(values)))


# --- §6.1: a sentence about Table IV, judged on the paper's own numbers ---------------------

@unit("iftp-s6.1-iftp-above-tcp-in-table4", section=_SECTION, evidence=_EV)
def iftp_above_tcp():
    from ._common import data_rows

    cells = {}
    for r in data_rows("iftp_tables.csv"):
        if r["table"] == "IV" and r["row"] in ("TCP bandwidth", "IFTP bandwidth"):
            cells.setdefault(r["column"], {})[r["row"]] = Fraction(r["value"])
    ratios = {c: v["IFTP bandwidth"] / v["TCP bandwidth"] for c, v in cells.items()}
    best = max(ratios, key=ratios.get)
    return Measurement(
        value=float(ratios[best]),
        reason=f"IFTP / TCP bandwidth in Table IV's columns: "
               + ", ".join(f"{c}: {float(r):.2f}" for c, r in ratios.items())
               + f"; IFTP is higher only at {best}")
