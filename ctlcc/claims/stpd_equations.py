# ctlcc.claims.stpd_equations - the ST-PD thesis's derivation steps and worked numbers, re-done
"""Units of Xu (2002)'s equations and worked arithmetic, each re-done exactly.

The z-domain chain of §4.3.2 (eqs. (4.3)-(4.17)) is checked two ways:
each z-domain equation as an identity of power series in ``z^-1`` on the
time-domain sequences it is the transform of (exact fractions, zero initial
conditions, random integer signals), and the algebraic steps with sympy.
The closed forms (4.11) and (4.17) are expanded as power series and
compared with the arrival rate a(n) of the time-domain loop they are
derived from (eqs. (4.1), (4.2), (4.6), one packet departing per slot), so a
wrong sign, a missing factor or a wrong power of ``(1 - z^-1)`` leaves a
non-zero residual of its own size.  The OCR garbles every glyph of these
equations; they are rebuilt from the derivation (the inventory's quotes),
and where a glyph was ambiguous the record says which reading is checked
(eq. (3.1)'s second argument of max, eq. (4.13)'s sign and range).

The worked numbers of §4.3.3, §4.4, §5.2.2, §5.4 and §6 are re-computed
from the quantities the thesis prints beside them.  Records in
``data/ledger_stpd.csv``.

References
----------
Xu (2002), eqs. (3.1), (4.1)-(4.17), (5.1); §3.5.1, §4.3.3, §4.4, §5.2.2, §5.4, §6.
"""

from fractions import Fraction
from functools import lru_cache

from ._exact import add, decimal, divide, multiply, random_signal, residual, scale, series, shift
from .registry import Measurement, unit

__all__ = []

_SECTION = "stpd"
_EV = "ctlcc.claims.stpd_equations; tests/claims/test_equations.py"
#: Gain pairs (kp, kd) of the checks: §4.3.3's printed averages and the swapped pair.
GAINS = (("0.368", "0.033"), ("0.033", "0.368"))
#: Round trips m [slots] and loss instants p [slots] of the checks.
ROUND_TRIPS = (1, 2, 3, 5, 8)
LOSS_SLOTS = (0, 7, 40)
#: Samples of each signal (and terms of each power series).
LENGTH = 120


# --- the time-domain model of §4.3.2 -------------------------------------------------------

def loop_sequences(kp, kd, m, r, d):
    """a(n), b(n), e(n) of eqs. (4.1), (4.2), (4.6) from zero initial conditions.

    Parameters
    ----------
    kp, kd : Fraction
        PD gains. [1]
    m : int
        Round trip. [slots]
    r, d : list of Fraction
        Reference and departures per slot. [packets]

    Returns
    -------
    tuple of list
        a, b, e. [packets/slot], [packets], [packets]
    """
    n_max = len(r)
    a, b, e = [], [], []
    zero = Fraction(0)
    for n in range(n_max):
        e_m = e[n - m] if n - m >= 0 else zero          # e(n - m) is known: m >= 1
        e_m1 = e[n - m - 1] if n - m - 1 >= 0 else zero
        a.append((a[n - 1] if n else zero) + kp * e_m + kd * (e_m - e_m1))           # (4.1)
        b.append((b[n - 1] if n else zero) + a[n] - d[n])                           # (4.6)
        e.append(r[n] - b[n])                                                      # (4.2)
    return a, b, e


def _pd(kp, kd):
    """kp + kd (1 - z^-1) as a series."""
    return [kp + kd, -kd]


def _s1(length):
    """(1 - z^-1)^-1."""
    return divide([1], [1, -1], length)


def _printed_4_11(kp, kd, m, R, length):
    """Eq. (4.11): A = z^-m K (R + (1 - z^-1)^-2) / (1 - z^-1 + z^-m (1 - z^-1)^-1 K)."""
    K = _pd(kp, kd)
    s1 = _s1(length)
    s2 = multiply(s1, s1, length)
    numerator = shift(multiply(K, add(R, s2), length), m, length)
    denominator = add(series([1, -1], length), shift(multiply(s1, K, length), m, length))
    return divide(numerator, denominator, length)


def _printed_4_16(m, p, length):
    """Eq. (4.16): R(z) = (1 - z^-1)^-1 + sum_{i=p}^{p+m} z^-i."""
    pulses = [Fraction(1) if p <= n <= p + m else Fraction(0) for n in range(length)]
    return add(_s1(length), pulses)


def _printed_4_17(kp, kd, m, p, length):
    """Eq. (4.17): eq. (4.11) with the R(z) of eq. (4.16) written in."""
    return _printed_4_11(kp, kd, m, _printed_4_16(m, p, length), length)


def _reference_4_15(m, p, length):
    """Eq. (4.15): r(n) = u(n) + sum_{i=p}^{p+m} delta(n - i)."""
    return [Fraction(1) + (1 if p <= n <= p + m else 0) for n in range(length)]


def _cases():
    for kp, kd in GAINS:
        for m in ROUND_TRIPS:
            yield decimal(kp), decimal(kd), m


def _fmt(x):
    return "0" if x == 0 else f"{float(x):.3g}"


# --- time domain -> z domain ---------------------------------------------------------------

@unit("stpd-eq4.3-substitution", section=_SECTION, evidence=_EV)
def eq4_3():
    worst = Fraction(0)
    for seed, (kp, kd, m) in enumerate(_cases()):
        r, b = random_signal(LENGTH, seed), random_signal(LENGTH, 100 + seed)
        e = [ri - bi for ri, bi in zip(r, b)]                                        # (4.2)
        a41, a43 = [], []
        for n in range(LENGTH):
            def at(x, k):
                return x[k] if k >= 0 else Fraction(0)
            a41.append((a41[n - 1] if n else 0) + kp * at(e, n - m)
                       + kd * (at(e, n - m) - at(e, n - m - 1)))                     # (4.1)
            a43.append((a43[n - 1] if n else 0) + kp * (at(r, n - m) - at(b, n - m))
                       + kd * (at(r, n - m) - at(b, n - m)
                               - (at(r, n - m - 1) - at(b, n - m - 1))))             # (4.3)
        worst = max(worst, residual(a41, a43))
    return Measurement(value=float(worst),
                       reason=f"eq. (4.3) and eq. (4.1) with e = r - b give the same a(n) on "
                              f"{len(GAINS) * len(ROUND_TRIPS)} random (r, b) pairs: largest "
                              f"difference {_fmt(worst)}")


@unit("stpd-eq4.4-z-transform", section=_SECTION, evidence=_EV)
def eq4_4():
    worst = Fraction(0)
    for seed, (kp, kd, m) in enumerate(_cases()):
        r, b = random_signal(LENGTH, seed), random_signal(LENGTH, 100 + seed)
        e = [ri - bi for ri, bi in zip(r, b)]
        a = []
        for n in range(LENGTH):
            e_m = e[n - m] if n >= m else Fraction(0)
            e_m1 = e[n - m - 1] if n >= m + 1 else Fraction(0)
            a.append((a[n - 1] if n else 0) + kp * e_m + kd * (e_m - e_m1))
        rhs = add(shift(a, 1), shift(multiply(_pd(kp, kd), add(r, scale(b, -1)), LENGTH), m))
        worst = max(worst, residual(a, rhs))
    return Measurement(value=float(worst),
                       reason=f"A(z) - [z^-1 A(z) + z^-m (kp + kd (1 - z^-1))(R(z) - B(z))] "
                              f"over {LENGTH} series terms: largest coefficient {_fmt(worst)}")


@unit("stpd-eq4.7-z-transform", section=_SECTION, evidence=_EV)
def eq4_7():
    worst = Fraction(0)
    for seed in range(10):
        a, d = random_signal(LENGTH, seed), random_signal(LENGTH, 50 + seed, 0, 3)
        b = []
        for n in range(LENGTH):
            b.append((b[n - 1] if n else 0) + a[n] - d[n])                          # (4.6)
        worst = max(worst, residual(b, add(shift(b, 1), a, scale(d, -1))))
    return Measurement(value=float(worst),
                       reason=f"B(z) - [z^-1 B(z) + A(z) - D(z)] on 10 random (a, d): largest "
                              f"coefficient {_fmt(worst)}")


@unit("stpd-eq4.8-unit-departures", section=_SECTION, evidence=_EV)
def eq4_8():
    worst = residual(_s1(LENGTH), [Fraction(1)] * LENGTH)
    return Measurement(value=float(worst),
                       reason="the power series of (1 - z^-1)^-1 is 1 + z^-1 + z^-2 + ..., the "
                              "z-transform of one departure per slot")


@unit("stpd-eq4.16-z-transform", section=_SECTION, evidence=_EV)
def eq4_16():
    worst = max(residual(_printed_4_16(m, p, LENGTH), _reference_4_15(m, p, LENGTH))
                for m in ROUND_TRIPS for p in LOSS_SLOTS)
    return Measurement(value=float(worst),
                       reason=f"eq. (4.16)'s series against eq. (4.15)'s r(n) for m in "
                              f"{ROUND_TRIPS}, p in {LOSS_SLOTS}: largest difference "
                              f"{_fmt(worst)}")


# --- the loss as a reference disturbance (4.13), (4.15) --------------------------------------

@unit("stpd-eq4.13-loss-as-reference", section=_SECTION, evidence=_EV)
def eq4_13():
    worst = Fraction(0)
    for seed, (m, p) in enumerate((m, p) for m in ROUND_TRIPS for p in LOSS_SLOTS):
        r, b = random_signal(LENGTH, seed), random_signal(LENGTH, 100 + seed)
        pulses = [Fraction(1) if p <= n <= p + m else Fraction(0) for n in range(LENGTH)]
        observed = [bi - di for bi, di in zip(b, pulses)]     # the queue seen, one packet low
        error = [ri - oi for ri, oi in zip(r, observed)]
        first = [ri - (bi - di) for ri, bi, di in zip(r, b, pulses)]
        second = [ri + di - bi for ri, bi, di in zip(r, b, pulses)]
        worst = max(worst, residual(error, first), residual(error, second))
    return Measurement(value=float(worst),
                       reason="both printed forms of e(n) equal r(n) - b_obs(n) with the buffer "
                              "seen one packet low over slots p..p+m")


@unit("stpd-eq4.15-disturbed-reference", section=_SECTION, evidence=_EV)
def eq4_15():
    worst = Fraction(0)
    for seed, (m, p) in enumerate((m, p) for m in ROUND_TRIPS for p in LOSS_SLOTS):
        b = random_signal(LENGTH, 200 + seed)
        pulses = [Fraction(1) if p <= n <= p + m else Fraction(0) for n in range(LENGTH)]
        e_413 = [1 + di - bi for bi, di in zip(b, pulses)]                   # (4.13), r = u
        e_415 = [ri - bi for ri, bi in zip(_reference_4_15(m, p, LENGTH), b)]
        worst = max(worst, residual(e_413, e_415))
    return Measurement(value=float(worst),
                       reason="the error with eq. (4.15)'s reference equals eq. (4.13)'s error "
                              "with the unit-step reference of eq. (4.14)")


# --- algebra in the z domain (sympy) --------------------------------------------------------

def _symbols():
    import sympy

    z, kp, kd, A, R = sympy.symbols("z k_p k_d A R")
    return sympy, z, kp, kd, A, R


def _solve_4_9():
    sympy, z, kp, kd, A, R = _symbols()
    B = sympy.Symbol("B")
    D = 1 / (1 - 1 / z)                                                           # (4.8)
    solved = sympy.solve(sympy.Eq(B, B / z + A - D), B)[0]                         # (4.7)
    return solved, A / (1 - 1 / z) - 1 / (1 - 1 / z) ** 2                          # (4.9)


@unit("stpd-eq4.9-buffer", section=_SECTION, evidence=_EV)
def eq4_9():
    import sympy

    solved, printed = _solve_4_9()
    difference = sympy.simplify(solved - printed)
    return Measurement(value=_size(difference),
                       reason=f"B(z) solved from eqs. (4.7)-(4.8) minus eq. (4.9): {difference}")


def _rhs_4_10(m):
    sympy, z, kp, kd, A, R = _symbols()
    s1 = 1 / (1 - 1 / z)
    return A / z + z ** -m * (kp + kd * (1 - 1 / z)) * (R - s1 * A + s1 ** 2)       # (4.10)


@unit("stpd-eq4.10-substituted", section=_SECTION, evidence=_EV)
def eq4_10():
    import sympy

    _, z, kp, kd, A, R = _symbols()
    _, B = _solve_4_9()
    worst = 0.0
    for m in ROUND_TRIPS:
        substituted = A / z + z ** -m * (kp + kd * (1 - 1 / z)) * (R - B)            # (4.4)
        worst = max(worst, _size(sympy.simplify(substituted - _rhs_4_10(m))))
    return Measurement(value=worst,
                       reason=f"eq. (4.4) with eq. (4.9)'s B(z) minus eq. (4.10)'s right-hand "
                              f"side, m in {ROUND_TRIPS}: simplifies to {worst:g}")


def _closed_4_11(m, R=None):
    sympy, z, kp, kd, A, Rs = _symbols()
    R = Rs if R is None else R
    s1 = 1 / (1 - 1 / z)
    K = kp + kd * (1 - 1 / z)
    return z ** -m * K * (R + s1 ** 2) / (1 - 1 / z + z ** -m * s1 * K)              # (4.11)


@unit("stpd-eq4.11-closed-loop", section=_SECTION, evidence=_EV)
def eq4_11():
    import sympy

    worst = Fraction(0)
    for seed, (kp, kd, m) in enumerate(_cases()):
        for r in ([Fraction(1)] * LENGTH, random_signal(LENGTH, 300 + seed)):
            a, _, _ = loop_sequences(kp, kd, m, r, [Fraction(1)] * LENGTH)
            worst = max(worst, residual(a, _printed_4_11(kp, kd, m, r, LENGTH)))
    _, z, kp_s, kd_s, A, R = _symbols()
    algebra = 0.0
    for m in ROUND_TRIPS:
        solved = sympy.solve(sympy.Eq(A, _rhs_4_10(m)), A)[0]
        algebra = max(algebra, _size(sympy.simplify(solved - _closed_4_11(m))))
    return Measurement(
        value=float(worst),
        reason=f"the series of eq. (4.11) against a(n) of the time-domain loop (eqs. (4.1), "
               f"(4.2), (4.6), d = 1; step and random references; {LENGTH} terms): largest "
               f"difference {_fmt(worst)}",
        other_evidence=f"A(z) solved from eq. (4.10) with sympy minus eq. (4.11): {algebra:g}")


@unit("stpd-eq4.17-loss-response", section=_SECTION, evidence=_EV)
def eq4_17():
    import sympy

    worst = Fraction(0)
    for kp, kd, m in _cases():
        for p in LOSS_SLOTS:
            a, _, _ = loop_sequences(kp, kd, m, _reference_4_15(m, p, LENGTH),
                                     [Fraction(1)] * LENGTH)
            worst = max(worst, residual(a, _printed_4_17(kp, kd, m, p, LENGTH)))
    sym, z, *_ = _symbols()
    algebra = 0.0
    for m in ROUND_TRIPS:
        for p in LOSS_SLOTS:
            R = 1 / (1 - 1 / z) + sum(z ** -i for i in range(p, p + m + 1))          # (4.16)
            s1 = 1 / (1 - 1 / z)
            _, _, kp_s, kd_s, _, _ = _symbols()
            K = kp_s + kd_s * (1 - 1 / z)
            printed = z ** -m * K * (s1 + sum(z ** -i for i in range(p, p + m + 1)) + s1 ** 2) \
                / (1 - 1 / z + z ** -m * s1 * K)                                      # (4.17)
            algebra = max(algebra, _size(sym.simplify(_closed_4_11(m, R) - printed)))
    return Measurement(
        value=float(worst),
        reason=f"the series of eq. (4.17) against a(n) of the time-domain loop driven by eq. "
               f"(4.15)'s reference (m in {ROUND_TRIPS}, p in {LOSS_SLOTS}, both gain pairs, "
               f"{LENGTH} terms): largest difference {_fmt(worst)}",
        other_evidence=f"eq. (4.16) substituted into eq. (4.11) with sympy minus eq. (4.17): "
                       f"{algebra:g}")


def _size(expression):
    """0 for an expression sympy reduces to 0; else its largest modulus at a few points."""
    import sympy

    if expression == 0:
        return 0.0
    _, z, kp, kd, A, R = _symbols()
    points = [{z: zz, kp: sympy.Rational(368, 1000), kd: sympy.Rational(33, 1000), A: 1, R: 1}
              for zz in (2, 3, sympy.Rational(1, 2))]
    return float(max(abs(complex(expression.subs(pt).evalf())) for pt in points))


# --- §3.4.3 and §3.5.1 ---------------------------------------------------------------------

@unit("stpd-eq3.1-queue-reading", section=_SECTION, evidence=_EV)
def eq3_1():
    mismatches = 0
    for previous in range(31):
        for arrivals in range(31):
            for service in range(11):
                read_3_1 = previous + max(arrivals - service, -previous)
                eq_4_5 = previous + arrivals - service if previous + arrivals > service else 0
                mismatches += read_3_1 != eq_4_5
    return Measurement(value=float(mismatches),
                       reason="with the second argument of max read as -buf(n - 1), eq. (3.1) is "
                              "the queue recursion of eq. (4.5) on every state of the grid "
                              "(31 x 31 x 11)")


@unit("stpd-s3.5.1-buffer-rule", section=_SECTION, evidence=_EV)
def buffer_rule():
    bad = sum((Fraction(n + b, 2) >= n) != (b >= n) for n in range(1, 301) for b in range(1, 301))
    return Measurement(value=float(bad),
                       reason="(N + B)/2 >= N and B >= N agree on all 300 x 300 integer pairs")


# --- worked numbers --------------------------------------------------------------------------

def _serial(size_bytes, rate, bits_per_byte=10):
    """Serial-line time of *size_bytes* with start and stop bits. [s]"""
    return size_bytes * bits_per_byte / rate


@unit("stpd-s4.3.3-packet-time", "stpd-s4.3.3-m-3", section=_SECTION, evidence=_EV)
def packet_time():
    tau = 8000 / 1.5e6
    return {"stpd-s4.3.3-packet-time": Measurement(
                value=tau * 1e3, reason=f"8000 bit / 1.5 Mb/s = {tau * 1e3:.4f} ms"),
            "stpd-s4.3.3-m-3": Measurement(
                value=0.016 / tau, reason=f"16 ms / {tau * 1e3:.4f} ms = {0.016 / tau:.3f} "
                                          f"packet times")}


@unit("stpd-s4.4.1-max-window-61", section=_SECTION, evidence=_EV)
def max_window():
    return Measurement(value=31 + 30, reason="BDP 31 packets + buffer 30 packets (§4.4, §4.4.1.1)")


@unit("stpd-s4.4.2-64kb-window", section=_SECTION, evidence=_EV)
def window_limit():
    rate = 65535 * 8 / 0.5
    return Measurement(value=rate / 1e6,
                       reason=f"65535 B x 8 / 0.5 s = {rate / 1e6:.4f} Mb/s (a 64-KB window with "
                              f"65536 bytes: {65536 * 8 / 0.5 / 1e6:.4f} Mb/s)")


@unit("stpd-fig4.19a-segment-per-rtt", section=_SECTION, evidence=_EV)
def geo_round_trip():
    links = ((10e6, 0.2e-3), (1.5e6, 0.25), (10e6, 0.2e-3))
    rtt = sum(2 * delay + 8000 / rate + 320 / rate for rate, delay in links)
    return Measurement(value=rtt,
                       reason=f"one segment per round trip of {rtt:.4f} s: 2 x 250.4 ms of "
                              f"propagation, 1000-byte packet and 40-byte ACK serialised on the "
                              f"10, 1.5, 10 Mb/s links of Fig. 4.18")


@unit("stpd-s5.2.2-wrap-period", "stpd-eq5.1-resolution", "stpd-s5.2.2-resolution-1000x",
      section=_SECTION, evidence=_EV)
def timestamp():
    ticks = 100000                                           # ts_now units per second, eq. (5.1)
    first_wrap = (2 ** 32 - 1) / ticks                       # the 32-bit value overflows [s]
    largest = 0xFFFF * ticks + 999999 // 10
    return {
        "stpd-s5.2.2-wrap-period": Measurement(
            value=first_wrap / 3600,
            reason=f"eq. (5.1) reaches 2^32 when (tv_sec & 0xFFFF) x 100000 does, after "
                   f"{first_wrap:.0f} s = {first_wrap / 3600:.2f} h: its largest value "
                   f"{largest:,} does not fit the 32-bit unsigned integer the thesis stores it "
                   f"in (4,294,967,295), so it wraps after 42950 s and again when tv_sec & "
                   f"0xFFFF returns to 0",
            other_evidence="65535 s = 18.20 h holds as a conversion; it is the period of "
                           "tv_sec & 0xFFFF, not of the 32-bit timestamp"),
        "stpd-eq5.1-resolution": Measurement(
            value=1e6 / ticks, reason="one unit of t.tv_usec / 10 is 10 microseconds"),
        "stpd-s5.2.2-resolution-1000x": Measurement(
            value=float(10_000 // 10),
            reason="the 10-ms (10,000-us) jiffy over the 10-us step of eq. (5.1)"),
    }


_PACKET, _ACK = 152, 52            # §5.4.1: packet and acknowledgment sizes [bytes]


@unit("stpd-s5.4.1-packet-13.194ms", "stpd-s5.4.1-ack-4.512ms", "stpd-s5.4.1-queue-delay-0.282s",
      "stpd-s5.4.1-queue-21-packets", "stpd-s5.4.1-reno-window-22",
      "stpd-s5.4.1-ideal-rtt-0.031", "stpd-s5.4.1-ideal-rtt-0.253",
      "stpd-s5.4.1-ideal-rtt-0.593", "stpd-s5.4.1-reno-8s-earlier", "stpd-s5.4.2-window-15",
      "stpd-s5.4.2-8-rtts", "stpd-s5.4.2-window-6", section=_SECTION, evidence=_EV)
def testbed_arithmetic():
    fast, slow = 115.2e3, 38.4e3
    packet, ack = _serial(_PACKET, fast), _serial(_ACK, fast)
    queue = 0.3 - packet - ack

    def ideal(rate, delay):
        return 2 * _serial(_PACKET, rate) + _serial(_ACK, rate) + 2 * delay

    rtt80, rtt250 = ideal(slow, 0.08), ideal(slow, 0.25)
    slot = _serial(_PACKET, slow)
    queued = round(queue / packet)
    return {
        "stpd-s5.4.1-packet-13.194ms": Measurement(
            value=packet * 1e3, reason=f"152 x 10 bit / 115.2 kb/s = {packet * 1e3:.4f} ms"),
        "stpd-s5.4.1-ack-4.512ms": Measurement(
            value=ack * 1e3,
            reason=f"52 x 10 bit / 115.2 kb/s = {ack * 1e3:.4f} ms: the thesis's next paragraph "
                   f"prints 4.514 ms for the same time; 4.512 ms would need 51.98 bytes"),
        "stpd-s5.4.1-queue-delay-0.282s": Measurement(
            value=queue, reason=f"0.3 s - {packet * 1e3:.3f} ms - {ack * 1e3:.3f} ms = "
                                f"{queue:.4f} s"),
        "stpd-s5.4.1-queue-21-packets": Measurement(
            value=queue / packet, reason=f"{queue:.4f} s / {packet * 1e3:.3f} ms = "
                                         f"{queue / packet:.2f} packets"),
        "stpd-s5.4.1-reno-window-22": Measurement(
            value=queued + 1, reason=f"{queued} packets queued + 1 in transit"),
        "stpd-s5.4.1-ideal-rtt-0.031": Measurement(
            value=ideal(fast, 0.0), reason=f"2 x {packet * 1e3:.3f} + {ack * 1e3:.3f} ms = "
                                           f"{ideal(fast, 0.0) * 1e3:.2f} ms"),
        "stpd-s5.4.1-ideal-rtt-0.253": Measurement(
            value=rtt80, reason=f"2 x {slot * 1e3:.2f} + {_serial(_ACK, slow) * 1e3:.2f} + "
                                f"2 x 80 ms = {rtt80 * 1e3:.1f} ms"),
        "stpd-s5.4.1-ideal-rtt-0.593": Measurement(
            value=rtt250, reason=f"2 x {slot * 1e3:.2f} + {_serial(_ACK, slow) * 1e3:.2f} + "
                                 f"2 x 250 ms = {rtt250 * 1e3:.1f} ms"),
        "stpd-s5.4.1-reno-8s-earlier": Measurement(
            value=108 - (20 + 80), reason="108 s - (20 s + 80 s) (§5.4.1's printed times)"),
        "stpd-s5.4.2-window-15": Measurement(
            value=rtt250 / slot, reason=f"{rtt250:.4f} s / {slot * 1e3:.2f} ms = "
                                        f"{rtt250 / slot:.2f} packets"),
        "stpd-s5.4.2-8-rtts": Measurement(
            value=15 - 7, reason="one segment per round trip from 7 to 15"),
        "stpd-s5.4.2-window-6": Measurement(
            value=rtt80 / slot, reason=f"{rtt80:.4f} s / {slot * 1e3:.2f} ms = "
                                       f"{rtt80 / slot:.2f} packets"),
    }


@unit("stpd-s6-ber-1e-6", section=_SECTION, evidence=_EV)
def bit_error_ratio():
    import math

    ber = 1 - (1 - 1e-2) ** (1 / 8000)
    return Measurement(value=math.log10(ber),
                       reason=f"1 - (1 - 1e-2)^(1/8000) = {ber:.3g}; at a BER of 1e-6 a 1000-byte "
                              f"packet is lost with probability {1 - (1 - 1e-6) ** 8000:.4f}")
