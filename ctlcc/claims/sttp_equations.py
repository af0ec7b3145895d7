# ctlcc.claims.sttp_equations - STTP's §III token-bucket bounds and worked numbers, re-done
"""Units of Wade, Kara & Dew (2000)'s §III: the token bucket's largest burst
``sigma + rho S`` (exhaustive enumeration of every send sequence of small
integer buckets), the burst length ``S = sigma / (M - rho)`` (sympy), the
on-off budget of §III-B.2 (enumerated), and the worked numbers of §III-A,
§III-B.1 and §III-B.3 recomputed from the values printed beside them.
Records in ``data/ledger_sttp.csv``.

The bucket model of the enumeration: between steps it holds at most sigma
tokens; in each step rho tokens arrive and the sender may spend any whole
number of the tokens it holds plus those arriving (what it does not spend
is capped at sigma again).

References
----------
Wade, Kara & Dew (2000), §III-A, §III-B, §III-B.1-3.

Examples
--------
>>> largest_bursts(sigma=1, rho=1, steps=3)     # S = 1, 2, 3 steps
{1: 2, 2: 3, 3: 4}
"""

from fractions import Fraction

from .registry import Measurement, unit

__all__ = ["largest_bursts", "on_off_budget"]

_SECTION = "bounds"
_EV = "ctlcc.claims.sttp_equations; tests/claims/test_more_equations.py"


def largest_bursts(sigma, rho, steps):
    """Largest number of tokens spent in any window of S consecutive steps, over every send sequence.

    Parameters
    ----------
    sigma : int
        Bucket capacity (the bucket starts full). [tokens]
    rho : int
        Tokens arriving per step. [tokens]
    steps : int
        Length of the sequences enumerated. [steps]

    Returns
    -------
    dict
        S -> the largest burst over windows of S steps, S = 1..steps. [tokens]
    """
    best = {s: 0 for s in range(1, steps + 1)}

    def walk(held, spent):
        if len(spent) == steps:
            for s in best:
                for j in range(steps - s + 1):
                    best[s] = max(best[s], sum(spent[j:j + s]))
            return
        available = held + rho
        for k in range(available + 1):
            walk(min(sigma, available - k), spent + [k])

    walk(sigma, [])
    return best


def on_off_budget(sigma, rho, alpha, beta, tokens):
    """Tokens a greedy sender spends in an on period *alpha* after an idle off period *beta*.

    Parameters
    ----------
    sigma : int
        Bucket capacity. [tokens]
    rho : int
        Tokens arriving per step. [tokens]
    alpha, beta : int
        On and off periods. [steps]
    tokens : int
        Tokens in the bucket when the off period starts, 0..sigma. [tokens]

    Returns
    -------
    int
        Tokens spent in the on period. [tokens]
    """
    held = tokens
    for _ in range(beta):
        held = min(sigma, held + rho)
    spent = 0
    for _ in range(alpha):
        available = held + rho
        spent += available
        held = 0
    return spent


@unit("sttp-s3b-max-burst-enumerated", section=_SECTION, evidence=_EV)
def max_burst():
    worst, cases = 0, 0
    for sigma in range(0, 4):
        for rho in (1, 2):
            best = largest_bursts(sigma, rho, 7)
            for s in range(1, 5):
                cases += 1
                worst = max(worst, abs(best[s] - (sigma + rho * s)))
    return Measurement(value=float(worst),
                       reason=f"{cases} (sigma, rho, S): the largest burst over every 7-step send "
                              f"sequence is sigma + rho S, reached by a sender that starts with a "
                              f"full bucket and spends everything (largest difference {worst})")


@unit("sttp-s3b-max-burst-length-form", section=_SECTION, evidence=_EV)
def burst_length():
    import sympy

    sigma, rho, m, s = sympy.symbols("sigma rho M S", positive=True)
    solved = sympy.solve(sympy.Eq(sigma + rho * s, m * s), s)[0]
    difference = sympy.simplify(solved - sigma / (m - rho))
    return Measurement(value=float(abs(difference)) if difference.is_number else float("nan"),
                       reason=f"S solved from sigma + rho S = M S is {solved}; minus the printed "
                              f"sigma / (M - rho): {difference}")


@unit("sttp-s3b2-on-period-budget-bound", section=_SECTION, evidence=_EV)
def on_period():
    excess, reached, cases = None, 0, 0
    for sigma in range(1, 9):
        for rho in range(1, 4):
            for alpha in range(7):
                for beta in range(7):
                    for tokens in range(sigma + 1):
                        d = on_off_budget(sigma, rho, alpha, beta, tokens) \
                            - (rho * (alpha + beta) + tokens)
                        excess = d if excess is None else max(excess, d)
                        reached += d == 0
                        cases += 1
    return Measurement(value=float(excess),
                       reason=f"{cases} cases: the enumerated budget never exceeds rho (Alpha + "
                              f"Beta) + num_tokens (largest excess {excess}) and equals it in "
                              f"{reached} (where the bucket never fills during Beta); when it "
                              f"fills, the cap sigma cuts the budget below the printed one")


@unit("sttp-s3a-bottleneck-16ms", section=_SECTION, evidence=_EV)
def bottleneck_time():
    return Measurement(value=64 * 8 / 32e3 * 1e3, reason="64 bytes x 8 bit / 32 kb/s = 16 ms")


@unit("sttp-s3b1-10pct-faster-arith", section=_SECTION, evidence=_EV)
def ten_percent():
    saved = (Fraction("1.292") - Fraction("1.156")) / Fraction("1.292") * 100
    return Measurement(
        value=float(saved),
        reason=f"(1.292 - 1.156) / 1.292 = {float(saved):.2f} % of Reno's completion time",
        other_evidence=f"relative to STTP's 1.156 s: {float((Fraction('1.292') - Fraction('1.156')) / Fraction('1.156') * 100):.1f} %")


@unit("sttp-s3b3-ratio-arith", "sttp-s3b3-bucket-15-arith", section=_SECTION, evidence=_EV)
def rtt_scaling():
    ratio = Fraction("0.078") / Fraction("0.255")
    bucket = Fraction("0.9") * 16 + Fraction("0.1") * 16 * Fraction("0.305")
    return {
        "sttp-s3b3-ratio-arith": Measurement(
            value=float(ratio),
            reason=f"0.078 / 0.255 = {float(ratio):.5f}: 0.306 to three decimals (0.305 is its "
                   f"truncation)"),
        "sttp-s3b3-bucket-15-arith": Measurement(
            value=float(bucket),
            reason=f"(0.9 x 16) + (0.1 x 16 x 0.305) = {float(bucket):.3f} (the paper: 14.888); "
                   f"with the unrounded ratio {float(Fraction('0.9') * 16 + Fraction('0.1') * 16 * ratio):.3f}"),
    }
