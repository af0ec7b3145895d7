# ctlcc.sim._core.occupancy - per-flow occupancy of the reported queues (private)
"""Whose packets wait in each reported queue: the opt-in ``queue_by_flow`` trace.

A channel's packets in flight (waiting, in transmission or propagating) are
a list linked through the packet pool, oldest first, from ``K_FIFO_HEAD``
along ``P_NEXT`` (:func:`.net.enqueue` appends at the tail).  The channel's
transmission ring holds the start and end times of the same packets in the
same order (those whose transmission has not ended), so the packets
*waiting* at time ``now`` (transmission start later than ``now``, as
:func:`.net.waiting` counts them from the ring) are the last ``w`` packets
of the in-flight list: a packet that has not started has not arrived, and a
FIFO link starts its packets in the order they were queued.

The counts go into the sample array ``samp_q`` itself, widened by the
engine to ``nb * (1 + flows)`` columns when the trace is asked for: column
``j`` is queue j's total (as without the option), column
``nb + j * flows + f`` the packets of flow f waiting in queue j.  The run's
arrays keep their numba types, so nothing compiled against them changes.
"""

import numba

from .layout import (C_BUSY_SUM, C_WAIT_SUM, K_CAP, K_FIFO_HEAD, K_RING_COUNT, K_RING_HEAD,
                     K_RING_OFF, P_FLOW, P_NEXT)
from .net import waiting

__all__ = []


@numba.njit(cache=True)
def count_waiting_by_flow(now, c, ci, pi, ring_s, out):
    """Add to ``out[f]`` the packets of flow f waiting in channel c at time *now*.

    Returns the number of waiting packets (the ring's count, :func:`.net.waiting`).
    """
    w = waiting(now, c, ci, ring_s)
    if w == 0:
        return 0
    total = 0
    p = ci[c, K_FIFO_HEAD]
    while p >= 0:
        total += 1
        p = pi[p, P_NEXT]
    skip = total - w   # in transmission or propagating: the oldest of the list
    i = 0
    p = ci[c, K_FIFO_HEAD]
    while p >= 0:
        if i >= skip:
            out[pi[p, P_FLOW]] += 1.0
        i += 1
        p = pi[p, P_NEXT]
    return w


@numba.njit(cache=True)
def sample_by_flow(now, k, ctx):
    """Fill sample row k's per-flow columns (``samp_q`` widened by the engine)."""
    nb = ctx.bott.shape[0]
    n = ctx.ff.shape[0]
    row = ctx.samp_q[k]
    for j in range(nb):
        count_waiting_by_flow(now, ctx.bott[j], ctx.ci, ctx.pi, ctx.ring_s,
                              row[nb + j * n:nb + (j + 1) * n])


@numba.njit(cache=True)
def clip_tail(c, T, ci, cf, ring_s, ring_e):
    """Waiting and busy time of channel c restricted to [0, T]: its sums, less what the
    transmissions still in its ring spend past T (in the ring's order, oldest first)."""
    wait, busy = cf[c, C_WAIT_SUM], cf[c, C_BUSY_SUM]
    off, size = ci[c, K_RING_OFF], ci[c, K_CAP] + 1
    head, count = ci[c, K_RING_HEAD], ci[c, K_RING_COUNT]
    for k in range(count):
        s, e = ring_s[off + (head + k) % size], ring_e[off + (head + k) % size]
        if e > T:
            busy -= e - max(s, T)
        if s > T:
            # arrived before T (events past T are not processed), waits beyond T
            wait -= s - T
    return wait, busy
