# ctlcc.laws.primo - Primo's proportional-integral-modified rate law
"""Primo's rate law, Algorithm 1 (Chatté, Ducourthial & Niculescu (2006), §III).

Before each packet the source reads ``dftt_d``, the forward-trip-time
excess ΔFTT stored ``D = RTT_ref * tau`` ago, and picks a regime::

    strong    dftt_d >= TH_str * FTT_ref      F = F_str
    moderate  dftt_d >= TH_mod * FTT_ref      F = F_mod
    release   dftt_d <  TH_rel * FTT_ref      F = F_rel
    hold      otherwise                       rate unchanged

then::

    new  = old_rate - W1 * (old_rate - F * rcv_rate)
    rate = W2 * rate + (1 - W2) * new

with ``old_rate`` the sending rate one RTT ago and ``rcv_rate`` the
receiver's measured reception rate.  The printed algorithm tests
``ΔFTT >= TH_str`` (no subscript D) in its first branch; the text of §III-C
says every threshold is compared with ΔFTT_D, so we read it as ΔFTT_D.

The regime update :func:`regime_update` is plain arithmetic and accepts
sympy symbols, from which :mod:`ctlcc.analysis` derives Primo's loops.
"""

from dataclasses import dataclass

import numpy as np

from .._validation import (check_instance, check_interval, check_nonnegative, check_positive,
                          check_result, is_symbolic)
from ..errors import ParameterError
from ._core import law_core

__all__ = [
    "REGIMES",
    "PrimoParams",
    "regime",
    "regime_factor",
    "regime_update",
    "next_rate",
    "initial_rate",
    "timeout_backoff",
    "ack_timeout",
    "restart_delay",
    "timeout_deadline",
    "mean_gap",
    "regime_code_core",
    "next_rate_core",
    "initial_rate_core",
    "ack_timeout_core",
    "timeout_backoff_core",
    "restart_delay_core",
    "timeout_deadline_core",
    "mean_gap_core",
]

#: Regime names, from most to least congested.
REGIMES = ("strong", "moderate", "hold", "release")


@dataclass(frozen=True)
class PrimoParams:
    """Primo's parameters; the defaults are the paper's set (§III-E).

    Attributes
    ----------
    W1 : float
        Reactivity weight of the correction, in (0, 1). [1]
    W2 : float
        Smoothing weight of the current rate, in (0, 1). [1]
    F_str, F_mod, F_rel : float
        Factors on the reception rate, 0 < F_str < F_mod < 1 < F_rel. [1]
    TH_str, TH_mod, TH_rel : float
        Thresholds on ΔFTT_D as fractions of FTT_ref,
        0 <= TH_rel <= TH_mod <= TH_str. [1]
    tau : float
        Delay D of the ΔFTT lookup in round trips, D = RTT_ref * tau, > 0. [1]

    Examples
    --------
    >>> PrimoParams().TH_str
    0.34
    >>> PrimoParams(F_mod=1.01)
    Traceback (most recent call last):
    ...
    ctlcc.errors.ParameterError: F_mod must satisfy 0 < F_str < F_mod < 1 < F_rel; got F_str=0.95, F_mod=1.01, F_rel=1.05
    """

    W1: float = 0.5
    W2: float = 0.9
    F_str: float = 0.95
    F_mod: float = 0.99
    F_rel: float = 1.05
    TH_str: float = 0.34
    TH_mod: float = 0.17
    TH_rel: float = 0.15
    tau: float = 1.0

    def __post_init__(self):
        for name in ("W1", "W2"):
            object.__setattr__(self, name, check_interval(name, getattr(self, name), 0.0, 1.0,
                                                          scalar=True))
        for name in ("F_str", "F_mod", "F_rel"):
            object.__setattr__(self, name, check_positive(name, getattr(self, name), scalar=True))
        for name in ("TH_str", "TH_mod", "TH_rel"):
            object.__setattr__(self, name, check_nonnegative(name, getattr(self, name),
                                                             scalar=True))
        object.__setattr__(self, "tau", check_positive("tau", self.tau, scalar=True))
        order = f"F_str={self.F_str:g}, F_mod={self.F_mod:g}, F_rel={self.F_rel:g}"
        for name, ok in (("F_str", self.F_str < self.F_mod), ("F_mod", self.F_mod < 1.0),
                         ("F_rel", self.F_rel > 1.0)):
            if not ok:
                raise ParameterError(
                    f"{name} must satisfy 0 < F_str < F_mod < 1 < F_rel; got {order}")
        if not self.TH_rel <= self.TH_mod <= self.TH_str:
            raise ParameterError(
                "thresholds must satisfy 0 <= TH_rel <= TH_mod <= TH_str; got "
                f"TH_rel={self.TH_rel:g}, TH_mod={self.TH_mod:g}, TH_str={self.TH_str:g}")

    def factor(self, regime_name):
        """The factor F of a regime (None for "hold")."""
        _check_regime(regime_name, "regime_name")
        return {"strong": self.F_str, "moderate": self.F_mod, "release": self.F_rel,
                "hold": None}[regime_name]


def regime(dftt_d, ftt_ref, params=PrimoParams()):
    """Congestion regime selected by ΔFTT_D (§III-C).

    Parameters
    ----------
    dftt_d : float or ndarray
        Forward-trip-time excess observed D ago, ΔFTT_D = FTT - FTT_ref. [s]
    ftt_ref : float or ndarray
        Reference (smallest) forward trip time. [s]
    params : PrimoParams, optional

    Returns
    -------
    str or ndarray of str
        One of :data:`REGIMES`.

    Examples
    --------
    >>> [regime(x * 0.01, 0.01) for x in (0.4, 0.2, 0.16, 0.1)]
    ['strong', 'moderate', 'hold', 'release']
    """
    check_instance("params", params, PrimoParams)
    excess = np.asarray(check_nonnegative("dftt_d", dftt_d), dtype=float)
    ref = np.asarray(check_positive("ftt_ref", ftt_ref), dtype=float)
    chosen = np.select(
        [excess >= params.TH_str * ref, excess >= params.TH_mod * ref, excess < params.TH_rel * ref],
        ["strong", "moderate", "release"],
        default="hold",
    )
    return str(chosen) if chosen.ndim == 0 else chosen


def regime_factor(dftt_d, ftt_ref, params=PrimoParams()):
    """F for each ΔFTT_D, NaN where the regime is "hold". [1]

    Examples
    --------
    >>> regime_factor(0.004, 0.01).item()
    0.95
    """
    chosen = np.asarray(regime(dftt_d, ftt_ref, params))
    return np.select(
        [chosen == "strong", chosen == "moderate", chosen == "release"],
        [params.F_str, params.F_mod, params.F_rel],
        default=np.nan,
    )


@law_core  # numba code may call it: ctlcc.laws.user.primo_rate_update does
def regime_update(old_rate, rate, rcv_rate, factor, W1, W2):
    """Algorithm 1's update inside one regime (plain arithmetic).

    ``W2*rate + (1 - W2)*(old_rate - W1*(old_rate - factor*rcv_rate))``.
    Accepts floats, arrays and sympy symbols; ``factor=None`` is the hold
    regime and returns *rate* unchanged.  An unchecked arithmetic core (NaN
    in, NaN out) so that the analysis can call it on symbols: the checked
    entry point is :func:`next_rate`.

    Parameters
    ----------
    old_rate : float, ndarray or sympy expression
        Sending rate one RTT ago. [packets/s]
    rate : float, ndarray or sympy expression
        Current sending rate. [packets/s]
    rcv_rate : float, ndarray or sympy expression
        Reception rate measured by the receiver. [packets/s]
    factor : float, sympy expression or None
        F of the regime. [1]
    W1, W2 : float or sympy expression
        Weights of Algorithm 1. [1]

    Examples
    --------
    >>> regime_update(100.0, 100.0, 100.0, 0.95, 0.5, 0.9)
    99.75
    >>> import sympy as sp
    >>> o, r, c, F, W1, W2 = sp.symbols("o r c F W1 W2")
    >>> sp.expand(regime_update(o, r, c, F, W1, W2) - W2 * r)
    -F*W1*W2*c + F*W1*c + W1*W2*o - W1*o - W2*o + o
    """
    if factor is None:
        return rate
    new = old_rate - W1 * (old_rate - factor * rcv_rate)
    return W2 * rate + (1 - W2) * new


def next_rate(old_rate, rate, rcv_rate, dftt_d, ftt_ref, params=PrimoParams()):
    """Algorithm 1 for one packet: the new sending rate.

    Parameters
    ----------
    old_rate : float or ndarray
        Sending rate one RTT ago. [packets/s]
    rate : float or ndarray
        Current sending rate. [packets/s]
    rcv_rate : float or ndarray
        Receiver's measured reception rate. [packets/s]
    dftt_d : float or ndarray
        ΔFTT_D, the forward-trip-time excess stored D ago. [s]
    ftt_ref : float or ndarray
        Reference (smallest) forward trip time. [s]
    params : PrimoParams, optional

    Returns
    -------
    float or ndarray
        New sending rate. [packets/s]

    References
    ----------
    Chatté, Ducourthial & Niculescu (2006), §III-D and Algorithm 1.

    Examples
    --------
    Moderate congestion (ΔFTT_D = 0.2 FTT_ref) pulls the rate towards
    F_mod times the reception rate:

    >>> next_rate(120.0, 110.0, 100.0, dftt_d=0.002, ftt_ref=0.01)
    109.95
    """
    if any(is_symbolic(v) for v in (old_rate, rate, rcv_rate)):
        raise ParameterError(
            "next_rate needs numeric rates to pick a regime; use regime_update for symbols")
    for name, value in (("old_rate", old_rate), ("rate", rate), ("rcv_rate", rcv_rate)):
        check_nonnegative(name, value)
    factor = regime_factor(dftt_d, ftt_ref, params)
    updated = regime_update(old_rate, rate, rcv_rate, np.nan_to_num(factor, nan=0.0),
                            params.W1, params.W2)
    result = check_result("next_rate", np.where(np.isnan(factor), rate, updated),
                          old_rate=old_rate, rate=rate, rcv_rate=rcv_rate)
    return float(result) if result.ndim == 0 else result


def initial_rate(packet_size, first_to_fourth_gap):
    """Start-up estimate: three packets over the 1st-to-4th arrival gap (§III-B).

    Parameters
    ----------
    packet_size : float
        Size of one packet of the 4-packet burst. [bytes or packets]
    first_to_fourth_gap : float
        Time between the first and fourth arrivals. [s]

    Returns
    -------
    float
        Available bandwidth estimate. [bytes/s or packets/s]

    Examples
    --------
    >>> initial_rate(1000, 0.016)
    187500.0
    """
    check_positive("packet_size", packet_size)
    check_positive("first_to_fourth_gap", first_to_fourth_gap)
    # the core divides Python floats; the check divides in numpy (inf, not an OverflowError)
    check_result("initial_rate", 3 * np.divide(packet_size, first_to_fourth_gap),
                 packet_size=packet_size, first_to_fourth_gap=first_to_fourth_gap)
    return initial_rate_core(packet_size, first_to_fourth_gap)


def timeout_backoff(rate, timeout):
    """After TO seconds without an ACK: rate halves, TO doubles (§III-D).

    Examples
    --------
    >>> timeout_backoff(100.0, 0.2)
    (50.0, 0.4)
    """
    check_nonnegative("rate", rate)
    check_positive("timeout", timeout)
    halved, doubled = timeout_backoff_core(rate, timeout)
    return halved, check_result("timeout_backoff", doubled, timeout=timeout)


def ack_timeout(rtt_ref):
    """TO after an ACK in the paced phase: 2 RTT_ref (§III-B).

    Examples
    --------
    >>> ack_timeout(0.024)
    0.048
    """
    check_positive("rtt_ref", rtt_ref)
    return check_result("ack_timeout", ack_timeout_core(rtt_ref), rtt_ref=rtt_ref)


def restart_delay(initial_timeout, u, jitter=0.5):
    """Wait before a failed start-up burst is sent again (§III-B).

    §III-B says only that "the whole initialization phase is restarted";
    restarting every failed flow after the same fixed timer makes flows
    that collided once collide again forever (they started together, their
    bursts overflowed the queue together).  ctlcc's default draws the wait
    uniformly in ``[1 - jitter, 1 + jitter] * initial_timeout``;
    ``jitter = 0`` is the fixed timer (the literal reading).

    Parameters
    ----------
    initial_timeout : float
        Time-out of the start-up phase (no RTT is known yet). [s]
    u : float or ndarray
        A uniform draw in [0, 1) from the run's Generator. [1]
    jitter : float, optional
        Half-width of the spread, in [0, 1). [1]

    Returns
    -------
    float or ndarray
        Wait before the next burst. [s]

    Examples
    --------
    >>> restart_delay(1.0, 0.0), restart_delay(1.0, 0.5), restart_delay(1.0, 0.25, jitter=0.0)
    (0.5, 1.0, 1.0)
    """
    check_positive("initial_timeout", initial_timeout)
    check_interval("u", u, 0.0, 1.0, closed="left")
    jitter = check_nonnegative("jitter", jitter, scalar=True)
    if not jitter < 1.0:
        raise ParameterError(f"jitter must be in [0, 1) (a wait of at least (1 - jitter) x "
                             f"the initial time-out), got {jitter!r}")
    return restart_delay_core(initial_timeout, u, jitter)


def timeout_deadline(oldest_send_time, timeout):
    """When the time-out fires: TO after the oldest unacknowledged send (§III-D).

    §III-D: "the rate is halved and the TO period is doubled if no
    acknowledgment is received during a period of TO seconds".  Read
    literally with the timer re-armed at every ACK, a source whose packet
    gap 1/rate exceeds TO times out between two packets with nothing lost,
    halves its rate (the gap doubles with TO, so the ratio stays) and
    backs off until silent.  ctlcc's default reads §III-D "as in TCP"
    (RFC 6298 §5): the timer runs only while a packet is outstanding, and
    runs from the send time of the oldest one, so a time-out means "a
    packet sent TO ago is still unacknowledged".

    Parameters
    ----------
    oldest_send_time : float or ndarray
        Send time of the oldest unacknowledged packet. [s]
    timeout : float or ndarray
        TO (2 RTT_ref after the first ACK). [s]

    Returns
    -------
    float or ndarray
        Instant the time-out fires if that packet is still unacknowledged. [s]

    Examples
    --------
    >>> timeout_deadline(10.0, 0.06)
    10.06
    """
    check_positive("timeout", timeout)
    check_nonnegative("oldest_send_time", oldest_send_time)
    return timeout_deadline_core(oldest_send_time, timeout)


def mean_gap(previous, gap, gain=0.125):
    """Smoothed inter-arrival gap, a counterfactual reception-rate estimate.

    §III-A measures the reception rate per packet, ``1 / gap``.  When a
    flow's packets are interleaved with a competitor's in one FIFO, its
    gaps k (in service slots) vary and the mean of ``1/k`` exceeds
    ``1/mean(k)`` (Jensen): a flow with share s reads
    ``C (-s ln s) / (1 - s)``, not ``s C``
    (:func:`ctlcc.experiments.primo.interleaved_share`).  ``1 / mean_gap``
    with the gaps smoothed as TCP smooths the RTT (gain 1/8, RFC 6298) is
    unbiased for the share.  Not the paper's protocol: a spec option
    (``Primo(reception_rate="mean_gap")``) used to test that explanation.

    Parameters
    ----------
    previous : float or ndarray
        Smoothed gap so far (0: none yet, the first gap is taken as is). [s]
    gap : float or ndarray
        Latest inter-arrival time. [s]
    gain : float, optional
        Weight of the latest gap, in (0, 1]. [1]

    Returns
    -------
    float or ndarray
        New smoothed gap. [s]

    Examples
    --------
    >>> mean_gap(0.0, 0.01), mean_gap(0.01, 0.02)
    (0.01, 0.01125)
    """
    previous = np.asarray(check_nonnegative("previous", previous), dtype=float)
    gap = np.asarray(check_positive("gap", gap), dtype=float)
    gain = check_interval("gain", gain, 0.0, 1.0, closed="right", scalar=True)
    # mean_gap_core element by element (its branch on previous <= 0 is scalar code)
    out = np.where(previous <= 0.0, gap, previous + gain * (gap - previous))
    return float(out) if out.ndim == 0 else out


# --- plain-arithmetic cores: no checks; numpy, numba.njit (and sympy, where
# --- no branch is taken on a symbol) accept them; the packet engine compiles them

def regime_code_core(dftt_d, ftt_ref, TH_str, TH_mod, TH_rel):
    """Index in :data:`REGIMES` of the regime ΔFTT_D selects (see :func:`regime`)."""
    if dftt_d >= TH_str * ftt_ref:
        return 0
    if dftt_d >= TH_mod * ftt_ref:
        return 1
    if dftt_d < TH_rel * ftt_ref:
        return 3
    return 2


def next_rate_core(old_rate, rate, rcv_rate, dftt_d, ftt_ref, W1, W2, F_str, F_mod, F_rel,
                   TH_str, TH_mod, TH_rel):
    """Algorithm 1 for one packet, unchecked (see :func:`next_rate`). [packets/s]"""
    # regime_code_core and regime_update written out (numba compiles this one
    # function); tests/laws/test_law_cores.py checks it against next_rate
    if dftt_d >= TH_str * ftt_ref:
        factor = F_str
    elif dftt_d >= TH_mod * ftt_ref:
        factor = F_mod
    elif dftt_d < TH_rel * ftt_ref:
        factor = F_rel
    else:
        return rate
    return W2 * rate + (1 - W2) * (old_rate - W1 * (old_rate - factor * rcv_rate))


def initial_rate_core(packet_size, first_to_fourth_gap):
    """Start-up estimate 3 packets / gap, unchecked (see :func:`initial_rate`)."""
    return 3 * packet_size / first_to_fourth_gap


def ack_timeout_core(rtt_ref):
    """TO = 2 RTT_ref, unchecked (see :func:`ack_timeout`). [s]"""
    return 2.0 * rtt_ref


def timeout_backoff_core(rate, timeout):
    """(rate / 2, 2 TO), unchecked (see :func:`timeout_backoff`)."""
    return rate / 2, 2 * timeout


def restart_delay_core(initial_timeout, u, jitter):
    """Start-up restart wait (1 - jitter + 2 jitter u) TO_0, unchecked. [s]"""
    return initial_timeout * (1.0 - jitter + 2.0 * jitter * u)


def timeout_deadline_core(oldest_send_time, timeout):
    """oldest_send_time + TO, unchecked (see :func:`timeout_deadline`). [s]"""
    return oldest_send_time + timeout


def mean_gap_core(previous, gap, gain):
    """EWMA of the inter-arrival gap, unchecked (see :func:`mean_gap`). [s]"""
    if previous <= 0.0:
        return gap
    return previous + gain * (gap - previous)


def _check_regime(name, argument="regime"):
    if not (isinstance(name, str) and name in REGIMES):
        raise ParameterError(
            f"{argument} must be one of {', '.join(map(repr, REGIMES))}; got {name!r}")
