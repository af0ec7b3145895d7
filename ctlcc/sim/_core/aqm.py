# ctlcc.sim._core.aqm - RED and PI at a channel's queue, compiled from ctlcc.laws.aqm (private)
"""Active queue management of a channel: the laws of :mod:`ctlcc.laws.aqm`, compiled.

A channel whose ``K_AQM`` is not ``AQM_DROPTAIL`` passes every arriving
packet to :func:`admit` before the FIFO takes it (:func:`.net.offer`); a
drop-tail channel never calls it, so its path costs one comparison.

* RED (``AQM_RED``) runs :func:`ctlcc.laws.aqm.red_arrival_core` - the
  per-arrival EWMA, drop curve and count-based spacing of ns-3.44's
  ``RedQueueDisc::DoEnqueue`` - on the packets *waiting* when the packet
  arrives (the one in transmission is not waiting, as ns-3's queue disc
  does not hold the packet its device is sending), with the idle correction
  ``m = floor(C (now - t0))``, t0 the instant the waiting queue last
  emptied (when the last packet began its transmission), C the link's
  packet rate at the data size; no drop while at most ``C_RED_MIN_QUEUE``
  packets wait (:attr:`ctlcc.laws.aqm.RedParams.min_queue`: 1, ns-3's
  ``nQueued > 1``, or none);
* PI (``AQM_PI``) updates ``p`` with :func:`ctlcc.laws.aqm.pi_update_core`
  every ``1/f_s`` seconds from the instantaneous waiting queue, and drops
  (or marks) each arrival with probability ``p``.  The updates are made
  lazily: an arrival first runs every sampling instant ``t_k <= now`` not
  yet run, reading ``q(t_k)`` from the channel's ring of start times (the
  ring is unchanged since the previous arrival, so this is exactly what a
  timer event at each ``t_k`` would read), so the AQM adds no event to the
  heap;
* ECN (RFC 3168): an early verdict of RED, or a PI drop, *marks* CE on a
  packet whose sender set ECT and drops any other packet (ACKs,
  retransmissions, flows that are not ECN-capable); RED's forced verdict
  drops unless ``hard_drop`` is off (ns-3's ``UseHardDrop``).

Each channel draws its uniforms from its own SplitMix64 stream (state in
``ci[c, K_AQM_RNG]``, seeded from the run's generator), so an AQM never
shifts the random stream of the loss models.

References
----------
Floyd & Jacobson (1993); Hollot et al. (2002), §V; RFC 3168 §5, §6.1.
"""

import numba
import numpy as np

from ...laws import aqm as law
from .layout import (
    AQM_ECN, AQM_GENTLE, AQM_HARD_DROP, AQM_PI, AQM_WAIT, C_PI_A, C_PI_B, C_PI_NEXT, C_PI_P,
    C_PI_PERIOD, C_PI_QPREV, C_PI_REF, C_PKT_RATE, C_RED_AVG, C_RED_MAX, C_RED_MIN,
    C_RED_MIN_QUEUE, C_RED_PMAX, C_RED_WEIGHT, ECN_CE, ECN_ECT, I_MARKED, K_AQM, K_AQM_DROPS,
    K_AQM_FLAGS, K_AQM_RNG, K_CAP, K_MARKS, K_RED_COUNT, K_RED_OLD, K_RING_COUNT, K_RING_HEAD,
    K_RING_OFF, P_ECN, P_FLOW,
)

__all__ = []

#: what :func:`admit` decided
ADMIT, MARKED, DROPPED = 0, 1, 2

_inline = numba.njit(cache=True, inline="always")
# the laws of ctlcc.laws.aqm, the same function objects the fluid model and the tests use
red_arrival = numba.njit(law.red_arrival_core, cache=True, inline="always")
red_action = numba.njit(law.red_action_core, cache=True, inline="always")
red_idle_packets = numba.njit(law.red_idle_packets_core, cache=True, inline="always")
pi_update = numba.njit(law.pi_update_core, cache=True, inline="always")


@_inline
def uniform(c, ci):
    """Next uniform in [0, 1) of channel c's SplitMix64 stream (Steele, Lea & Flood 2014)."""
    state = np.uint64(ci[c, K_AQM_RNG]) + np.uint64(0x9E3779B97F4A7C15)
    ci[c, K_AQM_RNG] = np.int64(state)
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return float(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@_inline
def waiting_at(t, off, size, head, count, ring_s):
    """Packets of the ring (oldest at *head*) not yet in transmission at time t.

    Start times grow along the FIFO, so a bisection finds the first start > t.
    """
    low, high = 0, count
    while low < high:
        mid = (low + high) >> 1
        if ring_s[off + (head + mid) % size] > t:
            high = mid
        else:
            low = mid + 1
    return count - low


@numba.njit(cache=True, _nrt=False)
def admit(now, p, c, pi, cf, ci, ring_s, ring_e, fi):
    """The AQM's verdict on packet p arriving at channel c: ADMIT, MARKED or DROPPED.

    Runs the PI controller's pending samples, leaves the channel's ring
    without the packets gone by *now* (as :func:`.net.offer` would), and
    applies RED or PI.  A MARKED packet carries CE and joins the queue; a
    DROPPED one is the caller's to count and release.
    """
    off = ci[c, K_RING_OFF]
    size = ci[c, K_CAP] + 1
    head = ci[c, K_RING_HEAD]
    count = ci[c, K_RING_COUNT]
    kind = ci[c, K_AQM]
    flags = ci[c, K_AQM_FLAGS]
    if kind == AQM_PI:
        # the sampling instants up to now, on the ring as it was since the last arrival
        while cf[c, C_PI_NEXT] <= now:
            t = cf[c, C_PI_NEXT]
            q = float(waiting_at(t, off, size, head, count, ring_s))
            cf[c, C_PI_P] = pi_update(cf[c, C_PI_P], q, cf[c, C_PI_QPREV], cf[c, C_PI_REF],
                                      cf[c, C_PI_A], cf[c, C_PI_B])
            cf[c, C_PI_QPREV] = q
            cf[c, C_PI_NEXT] = t + cf[c, C_PI_PERIOD]
    while count > 0 and ring_e[off + head] <= now:
        head = (head + 1) % size
        count -= 1
    ci[c, K_RING_HEAD] = head
    ci[c, K_RING_COUNT] = count
    queue = count - 1 if count > 0 else 0   # waiting: the head is in transmission
    action = 0
    if kind == AQM_PI:
        prob = cf[c, C_PI_P]
        if prob > 0.0 and uniform(c, ci) < prob:
            action = 1 if flags & AQM_ECN else 2
    else:
        idle = 0.0
        if queue == 0:   # idle since the last packet began its transmission
            idle = red_idle_packets(now - ring_s[off + (head + count - 1) % size],
                                    cf[c, C_PKT_RATE])
        verdict, average, red_count, old = red_arrival(
            cf[c, C_RED_AVG], float(ci[c, K_RED_COUNT]), ci[c, K_RED_OLD], float(queue), idle,
            uniform(c, ci), cf[c, C_RED_MIN], cf[c, C_RED_MAX], cf[c, C_RED_PMAX],
            cf[c, C_RED_WEIGHT], (flags & AQM_GENTLE) != 0, (flags & AQM_WAIT) != 0,
            cf[c, C_RED_MIN_QUEUE])
        cf[c, C_RED_AVG] = average
        ci[c, K_RED_COUNT] = int(red_count)
        ci[c, K_RED_OLD] = old
        action = red_action(verdict, (flags & AQM_ECN) != 0, (flags & AQM_HARD_DROP) != 0)
    if action == 0:
        return ADMIT
    if action == 1 and pi[p, P_ECN] & ECN_ECT:
        pi[p, P_ECN] |= ECN_CE
        ci[c, K_MARKS] += 1
        fi[pi[p, P_FLOW], I_MARKED] += 1
        return MARKED
    ci[c, K_AQM_DROPS] += 1
    return DROPPED
