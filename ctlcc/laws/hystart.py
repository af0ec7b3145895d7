# ctlcc.laws.hystart - HyStart++ (RFC 9406): leave slow start on a delay increase
"""HyStart++ (RFC 9406) as plain-arithmetic rules.

Slow start overshoots: it doubles the window each round until a loss.
HyStart++ watches the smallest RTT of each round (RFC 9406 §4.2) and,
once a round has ``N_RTT_SAMPLE`` samples, leaves slow start when that
minimum has grown by the threshold::

    RttThresh = max(MIN_RTT_THRESH, min(lastRoundMinRTT / MIN_RTT_DIVISOR, MAX_RTT_THRESH))
    exit slow start  if  currentRoundMinRTT >= lastRoundMinRTT + RttThresh

into Conservative Slow Start (CSS): the window grows by a quarter of slow
start's increase (``CSS_GROWTH_DIVISOR``), each ACK's increase limited to
``L`` segments in both; if a round's minimum falls back below the RTT that
started CSS (``cssBaselineMinRtt``) slow start resumes, and after
``CSS_ROUNDS`` rounds in CSS the flow enters congestion avoidance with
ssthresh = cwnd.  A loss ends slow start or CSS as usual.  RFC 9406 §4.3
recommends HyStart++ for the initial slow start only (ssthresh still at
its arbitrarily high initial value).

Constants (RFC 9406 §4.3): MIN_RTT_THRESH = 4 ms, MAX_RTT_THRESH = 16 ms,
MIN_RTT_DIVISOR = 8, N_RTT_SAMPLE = 8, CSS_GROWTH_DIVISOR = 4,
CSS_ROUNDS = 5, L = 8 for a sender that does not pace (ctlcc's window
senders do not).

Each rule is a ``*_core`` function of floats that ``numba.njit`` accepts
(:class:`ctlcc.sim.senders.Cubic` compiles them with ``hystart=True``),
plus a validated wrapper.

References
----------
RFC 9406 (Balasubramanian, Huang, Olson 2023), §4.2-4.3.
"""

import math

from .._validation import check_nonnegative, check_positive
from ..errors import ParameterError
from ._core import law_core

__all__ = ["MIN_RTT_THRESH", "MAX_RTT_THRESH", "MIN_RTT_DIVISOR", "N_RTT_SAMPLE",
           "CSS_GROWTH_DIVISOR", "CSS_ROUNDS", "L_NON_PACED", "rtt_thresh_core", "rtt_thresh",
           "delay_increase_core", "delay_increase", "css_abort_core", "increase_core"]

#: RFC 9406 §4.3. [s]
MIN_RTT_THRESH = 0.004
#: RFC 9406 §4.3. [s]
MAX_RTT_THRESH = 0.016
#: RFC 9406 §4.3. [1]
MIN_RTT_DIVISOR = 8.0
#: RTT samples a round needs before the exit test (RFC 9406 §4.3). [1]
N_RTT_SAMPLE = 8
#: CSS grows by slow start's increase over this (RFC 9406 §4.3). [1]
CSS_GROWTH_DIVISOR = 4.0
#: Rounds in CSS before congestion avoidance (RFC 9406 §4.3). [1]
CSS_ROUNDS = 5
#: L, the largest increase per ACK of a sender that does not pace (RFC 9406 §4.3). [segments]
L_NON_PACED = 8.0


@law_core
def rtt_thresh_core(last_round_min_rtt):
    """RttThresh of RFC 9406 §4.2 for the previous round's smallest RTT. [s]"""
    return max(MIN_RTT_THRESH, min(last_round_min_rtt / MIN_RTT_DIVISOR, MAX_RTT_THRESH))


@law_core
def delay_increase_core(current_round_min_rtt, last_round_min_rtt, samples):
    """Whether slow start ends on this ACK (RFC 9406 §4.2): enough samples this round,
    both minima valid (finite) and the current one at least RttThresh above the last."""
    if samples < N_RTT_SAMPLE:
        return False
    if math.isinf(current_round_min_rtt) or math.isinf(last_round_min_rtt):
        return False
    return current_round_min_rtt >= last_round_min_rtt + rtt_thresh_core(last_round_min_rtt)


@law_core
def css_abort_core(current_round_min_rtt, css_baseline_min_rtt, samples):
    """Whether CSS returns to slow start (RFC 9406 §4.2): the round's minimum, with
    enough samples, fell below the RTT that started CSS (a spurious exit)."""
    return samples >= N_RTT_SAMPLE and current_round_min_rtt < css_baseline_min_rtt


@law_core
def increase_core(acked, css):
    """Window increase of one ACK of *acked* new segments in slow start or CSS. [segments]"""
    step = min(float(acked), L_NON_PACED)
    return step / CSS_GROWTH_DIVISOR if css else step


def rtt_thresh(last_round_min_rtt):
    """RttThresh (RFC 9406 §4.2), validated.

    Parameters
    ----------
    last_round_min_rtt : float
        The previous round's smallest RTT, > 0. [s]

    Returns
    -------
    float
        [s]

    Examples
    --------
    >>> rtt_thresh(0.1)       # 100 ms / 8 = 12.5 ms, within [4, 16] ms
    0.0125
    >>> rtt_thresh(0.02), rtt_thresh(0.5)
    (0.004, 0.016)
    """
    return float(rtt_thresh_core(check_positive("last_round_min_rtt", last_round_min_rtt,
                                                scalar=True)))


def delay_increase(current_round_min_rtt, last_round_min_rtt, samples):
    """Whether HyStart++ leaves slow start (RFC 9406 §4.2), validated.

    Parameters
    ----------
    current_round_min_rtt, last_round_min_rtt : float
        Smallest RTT of this round and of the last, > 0 (inf: no sample). [s]
    samples : int
        RTT samples of this round, >= 0. [1]

    Returns
    -------
    bool

    Examples
    --------
    >>> delay_increase(0.1125, 0.1, 8), delay_increase(0.1124, 0.1, 8)
    (True, False)
    >>> delay_increase(0.2, 0.1, 7)    # too few samples this round
    False
    """
    for name, value in (("current_round_min_rtt", current_round_min_rtt),
                        ("last_round_min_rtt", last_round_min_rtt)):
        if not (isinstance(value, (int, float)) and not isinstance(value, bool)) or \
                math.isnan(value) or value <= 0:
            raise ParameterError(f"{name} must be a number > 0 (inf: no sample yet), got "
                                 f"{value!r}")
    if isinstance(samples, bool) or not isinstance(samples, int):
        raise ParameterError(f"samples must be an int >= 0, got {samples!r}")
    check_nonnegative("samples", samples, scalar=True)
    return bool(delay_increase_core(float(current_round_min_rtt), float(last_round_min_rtt),
                                    samples))
