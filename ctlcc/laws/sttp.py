# ctlcc.laws.sttp - STTP's history-weighted (alpha:beta) RTT scaling of its token bucket
"""STTP's congestion-avoidance law: alpha:beta scaling on RTT changes.

When a new round-trip time differs from the last one by more than 5 %,
STTP (000_0c3e0ce2556a2a71, §III-B.3) rescales each token-bucket attribute
``x`` (depth sigma, feed rate rho, tokens held) by::

    x' = alpha * x + beta * x * (last_rtt / new_rtt),   alpha + beta = 1

"STTP 9:1" is alpha = 0.9, beta = 0.1 (alpha weights the old value).  The
worked example of §III-B.3: sigma = 16, lastRTT/newRTT = 0.305 gives
14.888.  The paper rounds the ratio 0.078/0.255 = 0.30588 to 0.305; the
unrounded ratio gives 14.889 (see ``data/paper_constants.csv``).
"""

from dataclasses import dataclass

import numpy as np

from .._validation import (check_instance, check_interval, check_nonnegative, check_positive,
                          check_result, is_symbolic)
from ..errors import ParameterError

__all__ = ["RTT_THRESHOLD", "BucketState", "rtt_scaled", "rtt_changed", "scale_bucket"]

#: Relative RTT change STTP treats as significant (§III-B.3: "±5 %"). [1]
RTT_THRESHOLD = 0.05


@dataclass(frozen=True)
class BucketState:
    """STTP token bucket: depth, feed rate and tokens held.

    Attributes
    ----------
    sigma : float
        Bucket depth. [packets or B]
    rho : float
        Token feed rate. [packets/s or B/s]
    tokens : float
        Tokens currently in the bucket. [packets or B]
    """

    sigma: float
    rho: float
    tokens: float

    def __post_init__(self):
        check_positive("sigma", self.sigma, scalar=True)
        check_positive("rho", self.rho, scalar=True)
        check_nonnegative("tokens", self.tokens, scalar=True)
        if not is_symbolic(self.tokens) and not is_symbolic(self.sigma) \
                and self.tokens > self.sigma:
            raise ParameterError(
                f"tokens must be <= sigma (the bucket depth), got tokens={self.tokens!r}, "
                f"sigma={self.sigma!r}")


def rtt_scaled(x, last_rtt, new_rtt, alpha, beta):
    """History-weighted RTT scaling ``alpha x + beta x last_rtt/new_rtt``.

    Parameters
    ----------
    x : float or array_like
        Attribute to scale (sigma, rho or tokens). [any]
    last_rtt, new_rtt : float or array_like
        Previous and new round-trip times, > 0. [s]
    alpha, beta : float
        Weights of the old value and of the RTT-scaled value, each in
        [0, 1], with ``alpha + beta = 1`` (to 1e-12, elementwise). [1]

    Returns
    -------
    float or numpy.ndarray
        Scaled attribute. [same as x]

    References
    ----------
    000_0c3e0ce2556a2a71 §III-B.3 and §IV-B.1.

    Examples
    --------
    >>> round(rtt_scaled(16, 0.305, 1.0, 0.9, 0.1), 3)   # printed 14.888
    14.888
    >>> round(rtt_scaled(16, 0.078, 0.255, 0.9, 0.1), 3)  # unrounded ratio
    14.889
    """
    check_nonnegative("x", x)
    last_rtt = check_positive("last_rtt", last_rtt)
    new_rtt = check_positive("new_rtt", new_rtt)
    alpha = check_interval("alpha", alpha, 0.0, 1.0, closed="both", scalar=True)
    beta = check_interval("beta", beta, 0.0, 1.0, closed="both", scalar=True)
    if not (is_symbolic(alpha) or is_symbolic(beta)) and np.any(np.abs(np.add(alpha, beta) - 1.0) > 1e-12):
        raise ParameterError(f"alpha + beta must equal 1, got alpha={alpha!r}, beta={beta!r}")
    return check_result("rtt_scaled", alpha * x + beta * x * (last_rtt / new_rtt),
                        x=x, last_rtt=last_rtt, new_rtt=new_rtt)


def rtt_changed(last_rtt, new_rtt, threshold=RTT_THRESHOLD):
    """True where ``|new_rtt/last_rtt - 1| > threshold`` (§III-B.3).

    Parameters
    ----------
    last_rtt, new_rtt : float or array_like
        Round-trip times, > 0. [s]
    threshold : float, optional
        Relative change that counts as significant, >= 0. [1]

    Returns
    -------
    bool or numpy.ndarray of bool

    Examples
    --------
    >>> bool(rtt_changed(0.1, 0.104)), bool(rtt_changed(0.1, 0.106))
    (False, True)
    """
    last_rtt = check_positive("last_rtt", last_rtt)
    new_rtt = check_positive("new_rtt", new_rtt)
    threshold = check_nonnegative("threshold", threshold, scalar=True)
    out = np.abs(np.asarray(new_rtt) / np.asarray(last_rtt) - 1.0) > threshold
    return bool(out) if out.ndim == 0 else out


def scale_bucket(state, last_rtt, new_rtt, alpha=0.9, beta=0.1, threshold=RTT_THRESHOLD):
    """Apply STTP's rule to a whole bucket, if the RTT changed enough.

    Parameters
    ----------
    state : BucketState
    last_rtt, new_rtt : float
        Previous and new round-trip times. [s]
    alpha, beta : float, optional
        Weights (default 0.9:0.1, the §III-B.3 example). [1]
    threshold : float, optional
        Dead band on the relative RTT change (default 5 %). [1]

    Returns
    -------
    BucketState
        Every attribute scaled by :func:`rtt_scaled`, or *state* unchanged.

    Examples
    --------
    >>> s = scale_bucket(BucketState(16.0, 8.0, 16.0), 0.078, 0.255)
    >>> round(s.sigma, 3), round(s.rho, 3)
    (14.889, 7.445)
    """
    check_instance("state", state, BucketState)
    check_positive("last_rtt", last_rtt, scalar=True)
    check_positive("new_rtt", new_rtt, scalar=True)
    if not rtt_changed(last_rtt, new_rtt, threshold):
        return state
    return BucketState(*(rtt_scaled(v, last_rtt, new_rtt, alpha, beta)
                         for v in (state.sigma, state.rho, state.tokens)))
