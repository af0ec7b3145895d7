# ctlcc.laws.sttp - STTP's packet-pair start, ACK-clocked token bucket and alpha:beta RTT scaling
"""STTP's law (Wade, Kara & Dew (2000), §II-III): probe, bucket, RTT scaling.

* Start (§III-A, after Keshav): a packet pair returns with inter-arrival gap
  ``g``; the bottleneck bandwidth is ``size/g`` (64 B over 16 ms: 4000 B/s)
  and the bucket starts with ``sigma = rho = tokens`` = that bandwidth in
  packets per second (§III-B, text under Table I: "the capacity to which
  the STTP's token bucket is initialised").
* Tokens (§III-B): "this experimental version of STTP uses the successful
  receipt of an ACK to trigger the release of further tokens": each ACK
  adds one token, up to the depth sigma; a packet is sent while a token is
  held.  (§V-B's timer-driven bucket adds ``rho dt`` instead:
  :func:`token_fill_core`.)
* Congestion avoidance (§III-B.3): when a new RTT differs from the previous
  measurement by more than 5 %, each attribute ``x`` (sigma, rho, tokens) is
  rescaled::

      x' = alpha * x + beta * x * (last_rtt / new_rtt),   alpha + beta = 1

"STTP 9:1" is alpha = 0.9, beta = 0.1 (alpha weights the old value).  The
worked example of §III-B.3: sigma = 16, lastRTT/newRTT = 0.305 gives
14.888.  The paper rounds the ratio 0.078/0.255 = 0.30588 to 0.305; the
unrounded ratio gives 14.889 (see ``data/paper_constants.csv``).

§IV-B.1 writes the same rule with the factor ``1.15`` for "a 15 % decrease
in RTT", i.e. ``1 + (last - new)/last = 2 - new/last`` rather than
``last/new = 1/0.85 = 1.176``; :data:`FACTOR_RELATIVE` selects that reading
(the two agree to first order in the change and differ by 2.6 % of the
factor at a 15 % change).  The relative reading turns the bucket negative
once ``new/last >= 2 + alpha/beta`` (an RTT more than tripled at 1:9); the
validated :func:`ack_step` refuses such a sample rather than clip it.

One law, three back-ends: the ``*_core`` functions are plain arithmetic
(:mod:`ctlcc.laws._core`); numpy, sympy (the scaling) and
``numba.njit(core, inline="always")`` accept them.  The public functions
validate and call them.
"""

from dataclasses import dataclass

import numpy as np

from .._validation import check_interval, check_nonnegative, check_positive, is_symbolic
from ..errors import ParameterError
from ._core import law_core

__all__ = [
    "RTT_THRESHOLD",
    "FACTOR_RATIO",
    "FACTOR_RELATIVE",
    "SttpParams",
    "BucketState",
    "packet_pair_bandwidth_core",
    "initial_bucket_core",
    "initial_bucket",
    "rtt_factor_core",
    "rtt_scaled_core",
    "rtt_scaled",
    "rtt_changed_core",
    "rtt_changed",
    "token_update_core",
    "token_fill_core",
    "ack_step_core",
    "ack_step",
    "scale_bucket",
]

#: Relative RTT change STTP treats as significant (§III-B.3: "±5 %"). [1]
RTT_THRESHOLD = 0.05
#: Scaling factor readings: ``last/new`` (§III-B.3, the default) and
#: ``2 - new/last`` (§IV-B.1's "1.15 for a 15 % decrease").
FACTOR_RATIO, FACTOR_RELATIVE = 0, 1


@dataclass(frozen=True)
class SttpParams:
    """STTP's parameters; the defaults are the §III-B.3 example ("9:1").

    Attributes
    ----------
    alpha : float
        Weight of the old value, in [0, 1]. [1]
    beta : float
        Weight of the RTT-scaled value, in [0, 1], ``alpha + beta = 1``
        (to 1e-12). [1]
    threshold : float
        Relative RTT change that triggers scaling, >= 0 (5 %). [1]
    factor : int
        :data:`FACTOR_RATIO` (§III-B.3) or :data:`FACTOR_RELATIVE` (§IV-B.1).
    packet_size : float
        Data packet size, > 0 (§IV: 1000 B). [B]

    Examples
    --------
    >>> SttpParams().alpha, SttpParams(alpha=0.5, beta=0.5).beta
    (0.9, 0.5)
    >>> SttpParams(alpha=0.5, beta=0.4)
    Traceback (most recent call last):
    ...
    ctlcc.errors.ParameterError: alpha + beta must equal 1, got alpha=0.5, beta=0.4
    """

    alpha: float = 0.9
    beta: float = 0.1
    threshold: float = RTT_THRESHOLD
    factor: int = FACTOR_RATIO
    packet_size: float = 1000.0

    def __post_init__(self):
        _check_weights(self.alpha, self.beta)
        check_nonnegative("threshold", self.threshold)
        if self.factor not in (FACTOR_RATIO, FACTOR_RELATIVE) or isinstance(self.factor, bool):
            raise ParameterError(
                f"factor must be one of {FACTOR_RATIO} (ratio, §III-B.3), {FACTOR_RELATIVE} "
                f"(relative change, §IV-B.1); got {self.factor!r}")
        check_positive("packet_size", self.packet_size)


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
        check_positive("sigma", self.sigma)
        check_positive("rho", self.rho)
        check_nonnegative("tokens", self.tokens)


@law_core
def packet_pair_bandwidth_core(size, gap):
    """Bottleneck bandwidth from a packet pair, ``size/gap``.

    Parameters
    ----------
    size : float
        Probe packet size. [B]
    gap : float
        Inter-arrival gap of the returned pair. [s]

    Returns
    -------
    float
        Bandwidth. [B/s]

    References
    ----------
    Wade, Kara & Dew (2000), §III-A (after S. Keshav, SIGCOMM 1991).

    Examples
    --------
    >>> packet_pair_bandwidth_core(64, 0.016)       # 32 kb/s
    4000.0
    """
    return size / gap


@law_core
def initial_bucket_core(size, gap, packet_size):
    """Bucket after the probe: ``sigma = rho = tokens = (size/gap)/packet_size``.

    Parameters
    ----------
    size : float
        Probe packet size. [B]
    gap : float
        Inter-arrival gap of the returned pair. [s]
    packet_size : float
        Data packet size. [B]

    Returns
    -------
    tuple of float
        ``(sigma, rho, tokens)``: one second of the probed bandwidth.
        [packets, packets/s, packets]

    References
    ----------
    Wade, Kara & Dew (2000), §III-A and §III-B (text under Table I).

    Examples
    --------
    >>> initial_bucket_core(1000.0, 0.125, 1000.0)    # 64 kb/s: 8 packets
    (8.0, 8.0, 8.0)
    """
    rate = packet_pair_bandwidth_core(size, gap) / packet_size
    return rate, rate, rate


def initial_bucket(size, gap, params=None):
    """Validated :func:`initial_bucket_core` as a :class:`BucketState`.

    Parameters
    ----------
    size : float
        Probe packet size, > 0. [B]
    gap : float
        Inter-arrival gap, > 0. [s]
    params : SttpParams, optional

    Returns
    -------
    BucketState
        [packets, packets/s, packets]

    Examples
    --------
    >>> initial_bucket(64.0, 0.016, SttpParams(packet_size=64.0))   # §III-A: 4000 B/s
    BucketState(sigma=62.5, rho=62.5, tokens=62.5)
    """
    params = SttpParams() if params is None else params
    size = check_positive("size", size)
    gap = check_positive("gap", gap)
    return BucketState(*initial_bucket_core(size, gap, params.packet_size))


@law_core
def rtt_factor_core(last_rtt, new_rtt, factor):
    """RTT scaling factor: ``last/new`` (code 0) or ``2 - new/last`` (code 1).

    Parameters
    ----------
    last_rtt, new_rtt : float
        Previous and new RTT measurements. [s]
    factor : int
        :data:`FACTOR_RATIO` (§III-B.3) or :data:`FACTOR_RELATIVE` (§IV-B.1).

    Returns
    -------
    float
        Factor f in ``x' = alpha x + beta f x``. [1]

    References
    ----------
    Wade, Kara & Dew (2000), §III-B.3 and §IV-B.1.

    Examples
    --------
    >>> f_ratio = rtt_factor_core(1.0, 0.85, FACTOR_RATIO)
    >>> f_relative = rtt_factor_core(1.0, 0.85, FACTOR_RELATIVE)
    >>> round(f_ratio, 4), round(f_relative, 4)
    (1.1765, 1.15)
    """
    if factor == 1:
        return 2 - new_rtt / last_rtt
    return last_rtt / new_rtt


@law_core
def rtt_scaled_core(x, last_rtt, new_rtt, alpha, beta):
    """``alpha x + beta x last_rtt/new_rtt`` without checks.

    Parameters
    ----------
    x : float
        Attribute (sigma, rho or tokens). [any]
    last_rtt, new_rtt : float
        Previous and new RTT. [s]
    alpha, beta : float
        Weights, ``alpha + beta = 1``. [1]

    Returns
    -------
    float
        Scaled attribute. [same as x]

    References
    ----------
    Wade, Kara & Dew (2000), §III-B.3.

    Examples
    --------
    >>> round(rtt_scaled_core(16, 0.305, 1.0, 0.9, 0.1), 3)
    14.888
    """
    return alpha * x + beta * x * (last_rtt / new_rtt)


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
    Wade, Kara & Dew (2000), §III-B.3 and §IV-B.1.

    Examples
    --------
    >>> round(rtt_scaled(16, 0.305, 1.0, 0.9, 0.1), 3)   # printed 14.888
    14.888
    >>> round(rtt_scaled(16, 0.078, 0.255, 0.9, 0.1), 3)  # unrounded ratio
    14.889
    """
    last_rtt = check_positive("last_rtt", last_rtt)
    new_rtt = check_positive("new_rtt", new_rtt)
    alpha, beta = _check_weights(alpha, beta)
    return rtt_scaled_core(x, last_rtt, new_rtt, alpha, beta)


@law_core
def rtt_changed_core(last_rtt, new_rtt, threshold):
    """``|new_rtt/last_rtt - 1| > threshold`` without checks.

    Parameters
    ----------
    last_rtt, new_rtt : float
        Previous and new RTT. [s]
    threshold : float
        Relative change that counts (0.05). [1]

    Returns
    -------
    bool

    References
    ----------
    Wade, Kara & Dew (2000), §III-B.3 ("±5 %").

    Examples
    --------
    >>> rtt_changed_core(0.1, 0.104, 0.05), rtt_changed_core(0.1, 0.106, 0.05)
    (False, True)
    """
    return abs(new_rtt / last_rtt - 1.0) > threshold


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

    References
    ----------
    Wade, Kara & Dew (2000), §III-B.3.

    Examples
    --------
    >>> bool(rtt_changed(0.1, 0.104)), bool(rtt_changed(0.1, 0.106))
    (False, True)
    """
    last_rtt = check_positive("last_rtt", last_rtt)
    new_rtt = check_positive("new_rtt", new_rtt)
    threshold = check_nonnegative("threshold", threshold)
    out = np.asarray(rtt_changed_core(np.asarray(last_rtt), np.asarray(new_rtt), threshold))
    return bool(out) if out.ndim == 0 else out


@law_core
def token_update_core(tokens, sigma, released):
    """Tokens after a release, ``min(tokens + released, sigma)``.

    Parameters
    ----------
    tokens : float
        Tokens held. [packets]
    sigma : float
        Bucket depth. [packets]
    released : float
        Tokens released (1 per ACK). [packets]

    Returns
    -------
    float
        Tokens held after the release. [packets]

    References
    ----------
    Wade, Kara & Dew (2000), §III-B (ACK-triggered release, depth sigma).

    Examples
    --------
    >>> token_update_core(7.5, 8.0, 1.0)
    8.0
    """
    return min(tokens + released, sigma)


@law_core
def token_fill_core(tokens, sigma, rho, dt):
    """Timer-driven bucket (§III-B, §V-B): ``min(tokens + rho dt, sigma)``.

    Parameters
    ----------
    tokens : float
        Tokens held. [packets]
    sigma : float
        Bucket depth. [packets]
    rho : float
        Feed rate. [packets/s]
    dt : float
        Time since the last fill. [s]

    Returns
    -------
    float
        Tokens held. [packets]

    References
    ----------
    Wade, Kara & Dew (2000), §III-B (sigma, rho bucket) and §V-B (timer-based tokens).

    Examples
    --------
    >>> token_fill_core(2.0, 8.0, 8.0, 0.25)
    4.0
    """
    return min(tokens + rho * dt, sigma)


@law_core
def ack_step_core(sigma, rho, tokens, last_rtt, new_rtt, alpha, beta, threshold, factor):
    """STTP's bucket after one ACK carrying the RTT sample ``new_rtt``.

    If ``|new_rtt/last_rtt - 1| > threshold`` sigma, rho and tokens are
    scaled by ``alpha + beta f`` with ``f`` from :func:`rtt_factor_core`;
    then the ACK releases one token (capped at sigma).

    Parameters
    ----------
    sigma, rho, tokens : float
        Bucket before the ACK. [packets, packets/s, packets]
    last_rtt : float
        Previous RTT measurement, > 0. [s]
    new_rtt : float
        RTT sample carried by this ACK, > 0. [s]
    alpha, beta, threshold : float
        See :class:`SttpParams`. [1]
    factor : int
        :data:`FACTOR_RATIO` or :data:`FACTOR_RELATIVE`.

    Returns
    -------
    tuple
        ``(sigma, rho, tokens, last_rtt, scaled)``: the new bucket, the RTT
        to compare the next sample with (this one) and whether it scaled.

    References
    ----------
    Wade, Kara & Dew (2000), §III-B (ACK-released tokens) and §III-B.3.

    Examples
    --------
    §III-B.3's example (sigma 16, probe RTT 0.078 s, first sample 0.255 s):

    >>> s, r, t, last, scaled = ack_step_core(16.0, 16.0, 0.0, 0.078, 0.255, 0.9, 0.1, 0.05, 0)
    >>> round(s, 3), round(t, 3), last, scaled
    (14.889, 1.0, 0.255, True)
    """
    scaled = rtt_changed_core(last_rtt, new_rtt, threshold)
    if scaled:
        k = alpha + beta * rtt_factor_core(last_rtt, new_rtt, factor)
        sigma = sigma * k
        rho = rho * k
        tokens = tokens * k
    tokens = token_update_core(tokens, sigma, 1.0)
    return sigma, rho, tokens, new_rtt, scaled


def ack_step(state, last_rtt, new_rtt, params=None):
    """Validated :func:`ack_step_core` on a :class:`BucketState`.

    Parameters
    ----------
    state : BucketState
    last_rtt, new_rtt : float
        Previous and new RTT measurements, > 0. [s]
    params : SttpParams, optional

    Returns
    -------
    tuple of (BucketState, bool)
        New bucket and whether it was rescaled.

    Examples
    --------
    >>> s, scaled = ack_step(BucketState(8.0, 8.0, 3.0), 0.100, 0.103)
    >>> s.tokens, scaled
    (4.0, False)
    """
    params = SttpParams() if params is None else params
    if not isinstance(state, BucketState):
        raise ParameterError(f"state must be a BucketState, got {type(state).__name__}")
    last_rtt = check_positive("last_rtt", last_rtt)
    new_rtt = check_positive("new_rtt", new_rtt)
    if params.factor == FACTOR_RELATIVE and params.beta > 0:
        limit = 2 + params.alpha / params.beta
        if new_rtt / last_rtt >= limit:
            raise ParameterError(
                f"new_rtt/last_rtt must be < 2 + alpha/beta = {limit:g} with "
                f"factor=FACTOR_RELATIVE (the scaled bucket would be <= 0), got "
                f"{new_rtt / last_rtt:g}")
    sigma, rho, tokens, _, scaled = ack_step_core(
        state.sigma, state.rho, state.tokens, last_rtt, new_rtt, params.alpha, params.beta,
        params.threshold, params.factor)
    return BucketState(float(sigma), float(rho), float(tokens)), bool(scaled)


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

    References
    ----------
    Wade, Kara & Dew (2000), §III-B.3.

    Examples
    --------
    >>> s = scale_bucket(BucketState(16.0, 8.0, 16.0), 0.078, 0.255)
    >>> round(s.sigma, 3), round(s.rho, 3)
    (14.889, 7.445)
    """
    if not rtt_changed(last_rtt, new_rtt, threshold):
        return state
    return BucketState(*(rtt_scaled(v, last_rtt, new_rtt, alpha, beta)
                         for v in (state.sigma, state.rho, state.tokens)))


def _check_weights(alpha, beta):
    alpha = check_interval("alpha", alpha, 0.0, 1.0, closed="both")
    beta = check_interval("beta", beta, 0.0, 1.0, closed="both")
    symbolic = is_symbolic(alpha) or is_symbolic(beta)
    if not symbolic and np.any(np.abs(np.add(alpha, beta) - 1.0) > 1e-12):
        raise ParameterError(f"alpha + beta must equal 1, got alpha={alpha!r}, beta={beta!r}")
    return alpha, beta
