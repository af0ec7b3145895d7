# ctlcc.bounds.tokenbucket - STTP's token-bucket bounds, packet-pair probe and token arrivals
"""Token-bucket and probe formulas of STTP (Wade, Kara & Dew (2000), §III).

* burst bound: a (sigma, rho) bucket drained at peak rate M sends at most
  ``sigma + rho S`` in a burst of length S, and the longest burst lasts
  ``S = sigma/(M - rho)`` (§III-B, after Tanenbaum);
* on/off credit (§III-B.2): an on period Alpha after an off period Beta
  may carry ``rho (Alpha + Beta) + num_tokens``;
* packet pair (§III-A, after Keshav): bandwidth = size / inter-arrival
  gap; 64 B over 16 ms gives 4000 B/s;
* the alpha:beta RTT scaling law, re-exported from :mod:`ctlcc.laws.sttp`;
* the Poisson token-arrival model of Table I.
"""

import numbers

import numpy as np

from .._validation import (check_interval, check_nonnegative, check_nonnegative_int,
                          check_positive, check_positive_int,
                          finite_result)
from ..errors import ParameterError
from ..laws.sttp import packet_pair_bandwidth_core as _packet_pair_core
from ..laws.sttp import rtt_scaled

__all__ = [
    "max_burst_size",
    "max_burst_duration",
    "on_off_credit",
    "packet_pair_bandwidth",
    "rtt_scaled",
    "expected_tokens",
    "poisson_token_arrivals",
]

#: Largest mean of :func:`poisson_token_arrivals` (numpy's Poisson sampler
#: refuses lam above about 1e19). [packets/step]
MAX_POISSON_RATE = 1e18
#: Most steps of :func:`poisson_token_arrivals` (one int64 each). [1]
MAX_STEPS = 10**9


@finite_result
def max_burst_size(sigma, rho, S):
    """Largest amount a (sigma, rho) bucket lets out in time S: ``sigma + rho S``.

    Parameters
    ----------
    sigma : float or array_like
        Bucket depth, > 0. [B or packets]
    rho : float or array_like
        Token rate, > 0. [B/s or packets/s]
    S : float or array_like
        Burst length, >= 0. [s]

    Returns
    -------
    float or numpy.ndarray
        [B or packets]

    References
    ----------
    Wade, Kara & Dew (2000), §III-B.

    Examples
    --------
    >>> max_burst_size(10240.0, 1000.0, 2.0)
    12240.0
    """
    return check_positive("sigma", sigma) + check_positive("rho", rho) * check_nonnegative("S", S)


@finite_result
def max_burst_duration(sigma, rho, M):
    """Longest burst at peak rate M: ``S = sigma / (M - rho)``.

    From ``M S = sigma + rho S``.

    Parameters
    ----------
    sigma : float or array_like
        Bucket depth, > 0. [B or packets]
    rho : float or array_like
        Token rate, > 0. [B/s or packets/s]
    M : float or array_like
        Peak output rate, > rho. [B/s or packets/s]

    Returns
    -------
    float or numpy.ndarray
        S. [s]

    References
    ----------
    Wade, Kara & Dew (2000), §III-B; A. Tanenbaum, Computer Networks, 3rd ed.

    Examples
    --------
    >>> max_burst_duration(250e3, 2e6, 25e6)   # Tanenbaum's 250 KB, 2 MB/s, 25 MB/s
    0.010869565217391304
    """
    sigma = check_positive("sigma", sigma)
    rho = check_positive("rho", rho)
    M = check_positive("M", M)
    excess = np.asarray(M) - np.asarray(rho)
    if np.any(excess <= 0):
        raise ParameterError(f"M must be > rho (the bucket would never empty), got M={M!r}, rho={rho!r}")
    return _out(sigma / (M - rho))


@finite_result
def on_off_credit(rho, on, off, num_tokens=0.0, sigma=None):
    """Credit of an on period after an off period (§III-B.2).

    ``rho (on + off) + num_tokens`` as printed.  The printed form ignores
    the bucket depth; with *sigma* given, tokens gathered while idle are
    capped at sigma: ``min(num_tokens + rho off, sigma) + rho on``.

    Parameters
    ----------
    rho : float or array_like
        Token rate, > 0. [packets/s]
    on, off : float or array_like
        On period (Alpha) and preceding off period (Beta), >= 0. [s]
    num_tokens : float or array_like, optional
        Tokens in the bucket when the off period starts, >= 0. [packets]
    sigma : float, optional
        Bucket depth, > 0. [packets]

    Returns
    -------
    float or numpy.ndarray
        Packets the on period may carry. [packets]

    Examples
    --------
    >>> on_off_credit(10.0, 1.0, 2.0, 8.0)
    38.0
    >>> on_off_credit(10.0, 1.0, 2.0, 8.0, sigma=16.0)
    26.0
    """
    rho = check_positive("rho", rho)
    on = check_nonnegative("on", on)
    off = check_nonnegative("off", off)
    num_tokens = check_nonnegative("num_tokens", num_tokens)
    if sigma is None:
        return rho * (on + off) + num_tokens
    sigma = check_positive("sigma", sigma, scalar=True)
    return _out(np.minimum(num_tokens + rho * off, sigma) + rho * on)


@finite_result
def packet_pair_bandwidth(size, gap):
    """Bottleneck bandwidth from a packet pair: ``size / gap``.

    Parameters
    ----------
    size : float or array_like
        Probe packet size, > 0. [B]
    gap : float or array_like
        Inter-arrival gap of the pair, > 0. [s]

    Returns
    -------
    float or numpy.ndarray
        [B/s]

    References
    ----------
    Wade, Kara & Dew (2000), §III-A (S. Keshav, SIGCOMM 1991).

    Examples
    --------
    >>> packet_pair_bandwidth(64, 0.016)          # 32 kb/s
    4000.0
    """
    return _packet_pair_core(check_positive("size", size), check_positive("gap", gap))


@finite_result
def expected_tokens(capacity, packet_size, duration):
    """Mean token count of Table I: ``capacity / (8 packet_size) * duration``.

    Parameters
    ----------
    capacity : float or array_like
        Bottleneck capacity, > 0. [bit/s]
    packet_size : float or array_like
        Packet size, > 0. [B]
    duration : float or array_like
        Simulated time, > 0. [s]

    Returns
    -------
    float or numpy.ndarray
        Expected tokens (ACKs). [packets]

    References
    ----------
    Wade, Kara & Dew (2000), §III-B, Table I.

    Examples
    --------
    >>> expected_tokens(64e3, 1000, 10)
    80.0
    """
    capacity = check_positive("capacity", capacity)
    packet_size = check_positive("packet_size", packet_size)
    duration = check_positive("duration", duration)
    return capacity / (8.0 * packet_size) * duration


def poisson_token_arrivals(rate, steps, seed=None):
    """Tokens arriving in each of *steps* unit time steps (Table I's model).

    Parameters
    ----------
    rate : float
        Mean arrivals per step (capacity / packet size), > 0. [packets/step]
    steps : int
        Number of steps (Table I: the duration in seconds), >= 1.
    seed : int or numpy.random.Generator, optional
        Randomness source: an integer >= 0 (numpy's ``SeedSequence`` entropy), a
        generator, or None for fresh entropy.

    Returns
    -------
    numpy.ndarray of int
        Arrivals per step.

    Examples
    --------
    >>> poisson_token_arrivals(8.0, 10, seed=1).sum()
    np.int64(84)
    """
    rate = check_interval("rate", rate, 0.0, MAX_POISSON_RATE, closed="right", scalar=True)
    steps = check_positive_int("steps", steps, maximum=MAX_STEPS)
    if seed is not None and not isinstance(seed, np.random.Generator):
        if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral):
            raise ParameterError(f"seed must be an integer >= 0, a numpy.random.Generator or "
                                 f"None, got {type(seed).__name__} {seed!r}")
        seed = check_nonnegative_int("seed", seed)
    rng = np.random.default_rng(seed)
    return rng.poisson(rate, size=steps)


def _out(x):
    """Python float for 0-d results, the array otherwise."""
    x = np.asarray(x)
    return float(x) if x.ndim == 0 else x
