# ctlcc.sim._core.net - heap, channels, packet pool and shared transport (private)
"""Pieces of the numba core that know no sender.

Timing model of a directed channel (FIFO; drop-tail, or an AQM that first
decides on each arrival, :mod:`.aqm`): a packet arriving at
``t`` starts its transmission at ``max(t, end of the previous packet)``
and reaches the far node ``size/rate + delay`` later.  The ring of
``(start, end)`` of the packets still in the channel gives the occupancy
at any instant, so one event per packet per hop suffices; and since the
packets leave a channel in the order they entered it, the heap holds only
the arrival of each channel's oldest packet, the others wait in the
channel's list (:func:`offer`, :func:`next_arrival`): the event heap's
size is the number of busy channels, not the packets in flight.  In a run
with many channels those heads' arrivals wait on the arrival wheel instead,
and enter the heap a slot at a time, just before they are due
(:func:`wheel_put`, :func:`wheel_settle`).  The retransmission timers, one
per flow, and the other events wait in a heap of their own (:func:`schedule`).

Every function takes the run's arrays grouped in one namedtuple ``ctx``
(:data:`Ctx`).  The event loop and each sender hook work on a *borrowed*
``ctx`` (:func:`borrow`: the same arrays with null reference-count
handles), so that numba's reference counting of the tuple's 31 arrays,
which it repeats at every copy of ``ctx``, folds away.  The small per-event
helpers are inlined at the numba IR level (``inline="always"``); the
channel (:func:`offer`, behind :func:`enqueue`), which every hop of every
packet crosses from a dozen places, is compiled once, on its own.
"""

import numba
import numpy as np
from numba import types
from numba.cpython.unsafe.numbers import trailing_zeros

from .layout import (
    AQM_DROPTAIL, C_BUSY_SUM, C_DELAY, C_LAST_END, C_LOSS_BAD, C_LOSS_GOOD, C_MEAN_BAD, C_MEAN_GOOD,
    C_NEXT_SWITCH, C_P, C_RATE, C_WAIT_SUM, EV_ARRIVE, EV_PACE, EV_RTO, F_CWND, F_LAST_RTT,
    HQ_A, HQ_B, HQ_S, HQ_T, KIND_BITS, KIND_MASK, NHQ,
    F_MIN_RTT, F_RATE, F_ROUND_MIN_RTT, F_RTO, F_RTO_DEADLINE, F_RTO_EVT, F_RTTVAR, F_SRTT,
    ECN_CAPABLE, ECN_CE, ECN_CWR, ECN_ECE, ECN_ECHOING, ECN_ECT, ECN_SEND_CWR, G_ACK_BITS,
    G_DATA_BITS, G_MAX_RTO, G_MAX_WINDOW, G_MIN_RTO, G_RTT_EVERY, G_WHEEL_INV, I_ACK_DROP,
    I_ACK_SENT, I_ACKS_RECEIVED, I_ACTIVE, I_DROP_Q, I_ECN, I_RCV_NXT, I_RETX,
    I_ROUND_RTTS, I_PACE_GEN, I_RTO_GEN, I_RTO_PENDING, I_RTT_SAMPLED, I_SENT, I_SND_MAX,
    I_SND_NXT, I_SND_UNA, I_UNIQUE, K_AQM, K_ARRIVALS, K_CAP, K_DROPS, K_GE_BAD, K_LIST_LEN,
    K_FIFO_HEAD, K_FIFO_TAIL, K_LIST_OFF, K_LIST_POS, K_LOSS_KIND, K_MAXQ, K_RING_COUNT,
    K_RING_HEAD, K_RING_OFF, K_SEEN, K_W_NEXT,
    LOSS_BERNOULLI, LOSS_GE, LOSS_NONE, M_HEAP, M_HEAP_SEQ, M_NDROP, M_NFREE, M_NRTT, M_OFFER,
    M_PUSH, M_SEND, M_TIMERS, M_TRACE, M_WHEEL_BITS, M_WHEEL_HEADS, M_WHEEL_N,
    M_WHEEL_SUMMARY, M_WHEEL_V, M_WORLD, P_ECN, P_EVENT_SEQ, P_FLAG, P_FLOW, P_HOP,
    P_KIND, P_NEXT,
    P_NEXT_SEQ, P_RETX, P_SEQ, Q_ARRIVAL, Q_AUX1, Q_AUX2, Q_ECHO, Q_NEXT_ARRIVAL, Q_SENT_TIME,
    WHEEL_MASK, WHEEL_SLOTS,
)
from .aqm import DROPPED, MARKED, admit, waiting_at
from .world import (  # noqa: F401  (Ack, Ctx, borrow, sample_ctx: re-exported)
    Ack, Ctx, borrow, caller, load_world, prefetch_row, sample_ctx,
)

__all__ = []

_jit = numba.njit(cache=True)
_inline = numba.njit(cache=True, inline="always")
_U = np.uint64   # a heap index that cannot be negative (see sift_down)


@_inline
def _hq(i, col):
    """Where field *col* of heap entry i is in the heap's flat table (NHQ words a row)."""
    return _U(i * NHQ + col)


@_inline
def heap_push(hf, hi, meta, t, kind, a, b):
    """Schedule event (t, kind, a, b) under the next sequence number (ties: push order)."""
    seq = meta[M_HEAP_SEQ]
    meta[M_HEAP_SEQ] = seq + 1
    heap_insert(hf, hi, meta, t, seq, kind, a, b)


@_inline
def heap_push_in(hf, hi, meta, slot, t, kind, a, b):
    """:func:`heap_push` into the heap whose entry count is ``meta[slot]``."""
    seq = meta[M_HEAP_SEQ]
    meta[M_HEAP_SEQ] = seq + 1
    heap_insert_in(hf, hi, meta, slot, t, seq, kind, a, b)


@_inline
def heap_insert(hf, hi, meta, t, seq, kind, a, b):
    """Put event (t, kind, a, b) in the heap under sequence number *seq* (drawn earlier)."""
    heap_insert_in(hf, hi, meta, M_HEAP, t, seq, kind, a, b)


@_inline
def heap_insert_in(hf, hi, meta, slot, t, seq, kind, a, b):
    """:func:`heap_insert` into the heap whose entry count is ``meta[slot]``.

    The heap's indices are never negative; as ``np.uint64`` they spare each
    access numba's wrap-around of a negative index (a compare and an add):
    see :func:`sift_down`.
    """
    n = meta[slot]
    i = n
    meta[slot] = n + 1
    s = key(seq, kind)
    while i > 0:
        parent = (i - 1) >> 1
        tp = hf[_hq(parent, HQ_T)]
        if tp < t or (tp == t and hi[_hq(parent, HQ_S)] < s):
            break
        heap_move(hf, hi, i, parent)
        i = parent
    heap_put(hf, hi, i, t, s, a, b)


@_inline
def key(seq, kind):
    """A heap entry's key: sequence number *seq* with the event's *kind* in its low bits.

    Keys order as the sequence numbers do (those are unique); ``key & KIND_MASK``
    is the kind.  A run would need 2**59 events to overflow it.
    """
    return (seq << KIND_BITS) | kind


@_inline
def heap_move(hf, hi, i, j):
    """Copy entry j of the heap to slot i (a step of a sift, up or down)."""
    hf[_hq(i, HQ_T)] = hf[_hq(j, HQ_T)]
    hi[_hq(i, HQ_S)] = hi[_hq(j, HQ_S)]
    hi[_hq(i, HQ_A)] = hi[_hq(j, HQ_A)]
    hi[_hq(i, HQ_B)] = hi[_hq(j, HQ_B)]


@_inline
def heap_put(hf, hi, i, t, s, a, b):
    """Write entry (t, key s, a, b) to slot i of the heap (where a sift ends)."""
    hf[_hq(i, HQ_T)] = t
    hi[_hq(i, HQ_S)] = s
    hi[_hq(i, HQ_A)] = a
    hi[_hq(i, HQ_B)] = b


@_inline
def schedule(ctx, t, kind, a, b):
    """Schedule event (t, kind, a, b) under the next sequence number (ties: push order).

    Every event scheduled here goes to the timer heap (``ctx.tf``/``ctx.ti``):
    the retransmission timers (``EV_RTO``), the flows' other events (pacing,
    steps, starts and stops) and the samples.  The event heap
    (``ctx.hf``/``ctx.hi``) holds the packets' arrivals (:func:`offer`).  The
    loop takes the earlier of the two heads (:func:`earliest_is_timer`).
    Every event still draws its sequence number from the one counter, so the
    two heaps give the events in the order one heap would: keys ``(t, seq)``
    are unique and totally ordered.

    Why two: at 1000 flows three in four pending events are timers (one per
    flow, an RTO ahead), at the bottom of one heap of some 2,000 entries,
    which every packet's arrival sifted through; apart, the arrivals' heap
    holds the busy channels' heads (a few hundred), and a timer is touched
    once per flow and RTO.  Why the other events too: with the arrival wheel
    on (:func:`wheel_put`) the arrivals' heap holds little more than the next
    slot's arrivals, which enter it at its top; the flows' pending starts
    there (the bench's 1000 flows start within its first second) made each
    of them sift up past those and back down: +600 instructions a packet in
    that second, counted.
    """
    meta = ctx.meta
    seq = meta[M_HEAP_SEQ]
    meta[M_HEAP_SEQ] = seq + 1
    if kind == EV_ARRIVE:
        heap_insert_in(ctx.hf, ctx.hi, meta, M_HEAP, t, seq, kind, a, b)
    else:
        heap_insert_in(ctx.tf, ctx.ti, meta, M_TIMERS, t, seq, kind, a, b)


@_inline
def earliest_is_timer(ctx):
    """Is the earliest pending event the timer heap's head (else the event heap's)?"""
    meta = ctx.meta
    if meta[M_TIMERS] == 0:
        return False
    if meta[M_HEAP] == 0:
        return True
    t, s = ctx.tf[_hq(0, HQ_T)], ctx.hf[_hq(0, HQ_T)]
    return t < s or (t == s and ctx.ti[_hq(0, HQ_S)] < ctx.hi[_hq(0, HQ_S)])


@_jit
def push_service(t, kind, a, b, world):
    """:func:`push` compiled once, on the world stored at address *world*."""
    ctx, rng = load_world(world)
    schedule(ctx, t, kind, a, b)
    return 0


_call_push = caller((types.float64, types.int64, types.int64, types.int64, types.int64),
                    types.int64)


@_inline
def push(ctx, t, kind, a, b):
    """Schedule event (t, kind, a, b): the heap service, called by address."""
    _call_push(ctx.meta[M_PUSH], t, kind, a, b, ctx.meta[M_WORLD])


@_inline
def push_here(ctx, t, kind, a, b):
    """:func:`push` inlined (the event loop's own pushes)."""
    schedule(ctx, t, kind, a, b)


@_inline
def heap_pop(hf, hi, meta):
    """Remove the earliest event (time, then sequence number); its (t, kind, a, b)."""
    return heap_pop_in(hf, hi, meta, M_HEAP)


@_inline
def heap_pop_in(hf, hi, meta, slot):
    """:func:`heap_pop` from the heap whose entry count is ``meta[slot]``."""
    t0 = hf[_hq(0, HQ_T)]
    k0 = hi[_hq(0, HQ_S)] & KIND_MASK
    a0 = hi[_hq(0, HQ_A)]
    b0 = hi[_hq(0, HQ_B)]
    n = meta[slot] - 1
    meta[slot] = n
    if n > 0:
        sift_down(hf, hi, n, hf[_hq(n, HQ_T)], hi[_hq(n, HQ_S)], hi[_hq(n, HQ_A)],
                  hi[_hq(n, HQ_B)])
    return t0, k0, a0, b0


@_inline
def heap_replace_top(hf, hi, meta, t, seq, kind, a, b):
    """Pop the earliest event and insert (t, seq, kind, a, b), in one pass down the heap.

    The same heap as :func:`heap_pop` then :func:`heap_insert` would leave up to
    the placement of equal keys, which cannot occur (sequence numbers are unique),
    so the events come off in the same order.
    """
    sift_down(hf, hi, meta[M_HEAP], t, key(seq, kind), a, b)


@_inline
def sift_down(hf, hi, n, t, s, a, b):
    """Fill the root of the n-entry heap with (t, key s, a, b), moving it down to its place.

    Indices are cast to ``np.uint64`` where they index: numba wraps a negative
    signed index around (a compare and an add per access, some fourteen per
    level), which an unsigned one cannot need.  In the heap micro-benchmark a
    replace-top with a near key cost 0.76x at 500 and 2000 entries (the
    event heap's size at 1000 flows), unchanged at 8; the same accesses,
    the same order.
    """
    i = 0
    while True:
        c = 2 * i + 1
        if c >= n:
            break
        if c + 1 < n:
            # the earlier child, without a branch: which one it is is a coin toss the
            # processor cannot predict (the comparison's outcome selects, as an integer)
            tr, tl = hf[_hq(c + 1, HQ_T)], hf[_hq(c, HQ_T)]
            sr, sl = hi[_hq(c + 1, HQ_S)], hi[_hq(c, HQ_S)]
            c += np.int64((tr < tl) | ((tr == tl) & (sr < sl)))
        tc = hf[_hq(c, HQ_T)]
        if tc > t or (tc == t and hi[_hq(c, HQ_S)] > s):
            break
        heap_move(hf, hi, i, c)
        i = c
    heap_put(hf, hi, i, t, s, a, b)


# --- the arrival wheel -------------------------------------------------------------------
# At 1000 flows the event heap holds the arrivals of some 500 busy channels' oldest packets,
# and each of a packet's six hops sifted one through its nine levels: a sift costs the
# logarithm of the heap, the one term of the cost per packet that grew with the flows.  So
# a run with many channels (engine.WHEEL_MIN_CHANNELS) puts those arrivals on a wheel of
# WHEEL_SLOTS slots instead, slot v holding the arrivals with floor(t * G_WHEEL_INV) = v
# (unsorted), and moves a slot into the heap only when the heap's head is not earlier than
# the slot's start (wheel_settle): the heap holds the arrivals of the next slot or so (the
# other events wait in the timer heap: schedule), and the wheel's cost per arrival does not
# depend on how many wait.
#
# The order of events is the heap's: (time, sequence number).  The wheel holds slots
# M_WHEEL_V ... M_WHEEL_V + WHEEL_SLOTS - 1 only (slot v in position v & WHEEL_MASK, so a
# position holds one slot); an arrival outside them goes to the heap.  The heap's head is
# taken only when t_head * G_WHEEL_INV < M_WHEEL_V, i.e. (floor being monotone) when it is
# earlier than every arrival on the wheel; otherwise the wheel's first non-empty slot moves
# into the heap first.  A slot's time span is G_WHEEL_INV's inverse; no arrival is more than
# a data packet's transmission and the channel's delay ahead of its scheduling (the head of
# an empty channel starts at once, the next one leaves behind it), which the engine makes
# WHEEL_SLOTS - 2 slots, so every arrival fits when the wheel's first slot is now's.

_FLOAT_INT_EXACT = 2.0 ** 52   # slot numbers stay below it: as floats they are exact


@_inline
def wheel_put(now, t, c, meta, g, ci):
    """Put the arrival at time t of channel c's oldest packet on the wheel; False if it does
    not fit there (no wheel, or t outside the wheel's slots: the caller heaps it).

    Only the channel is linked into its slot: the packet is the channel's ``K_FIFO_HEAD``,
    and its arrival's time and sequence number are in its row (``Q_ARRIVAL``,
    ``P_EVENT_SEQ``, :func:`offer`), read when the slot moves into the heap, just before
    the packet arrives (its row's first line is then read anyway).  So a wheel entry costs
    no line beyond the channel's first two, which the hop touches already.
    """
    inv = g[G_WHEEL_INV]
    if inv == 0.0:
        return False
    x = t * inv
    if not x < _FLOAT_INT_EXACT:
        return False
    v = np.int64(x)
    n = meta[M_WHEEL_N]
    if n == 0:   # empty: its first slot is now's (no arrival is earlier)
        meta[M_WHEEL_V] = np.int64(now * inv)
    d = v - meta[M_WHEEL_V]
    if d < 0 or d >= WHEEL_SLOTS:
        return False
    s = v & WHEEL_MASK
    ci[c, K_W_NEXT] = meta[M_WHEEL_HEADS + s]
    meta[M_WHEEL_HEADS + s] = c
    meta[M_WHEEL_BITS + (s >> 6)] |= np.int64(1) << (s & 63)
    meta[M_WHEEL_SUMMARY] |= np.int64(1) << (s >> 6)
    meta[M_WHEEL_N] = n + 1
    return True


@_inline
def arrival_insert(now, t, seq, p, c, hf, hi, meta, g, ci):
    """Schedule the arrival (t, seq) of packet p, channel c's oldest: wheel, else heap."""
    if not wheel_put(now, t, c, meta, g, ci):
        heap_insert(hf, hi, meta, t, seq, EV_ARRIVE, p, c)


@_inline
def wheel_first(meta):
    """The wheel's first non-empty slot (its number), from M_WHEEL_V on; the wheel is not empty."""
    base = meta[M_WHEEL_V]
    s0 = base & WHEEL_MASK
    w0 = s0 >> 6
    m = meta[M_WHEEL_BITS + w0] & (np.int64(-1) << (s0 & 63))
    if m != 0:
        s = (w0 << 6) + trailing_zeros(m)
    else:
        summary = meta[M_WHEEL_SUMMARY]
        later = summary & (np.int64(-2) << w0)   # the words after w0 (none when w0 = 63)
        w = trailing_zeros(later) if later != 0 else trailing_zeros(summary)   # or wrapped
        s = (w << 6) + trailing_zeros(meta[M_WHEEL_BITS + w])
    return base + ((s - s0) & WHEEL_MASK)


@_inline
def wheel_settle(hf, hi, meta, g, pi, pf, ci):
    """Move the wheel's first slots into the heap until the heap's head is the earliest
    pending arrival or event (see above); nothing when the wheel is empty."""
    while meta[M_WHEEL_N] > 0 and (meta[M_HEAP] == 0 or hf[_hq(0, HQ_T)] * g[G_WHEEL_INV]
                                   >= np.float64(meta[M_WHEEL_V])):
        v = wheel_first(meta)
        s = v & WHEEL_MASK
        c = meta[M_WHEEL_HEADS + s]
        meta[M_WHEEL_HEADS + s] = -1
        k = 0
        while c >= 0:
            p = ci[c, K_FIFO_HEAD]
            heap_insert(hf, hi, meta, pf[p, Q_ARRIVAL], pi[p, P_EVENT_SEQ], EV_ARRIVE, p, c)
            c = ci[c, K_W_NEXT]
            k += 1
        word = meta[M_WHEEL_BITS + (s >> 6)] & ~(np.int64(1) << (s & 63))
        meta[M_WHEEL_BITS + (s >> 6)] = word
        if word == 0:
            meta[M_WHEEL_SUMMARY] &= ~(np.int64(1) << (s >> 6))
        meta[M_WHEEL_N] -= k
        meta[M_WHEEL_V] = v + 1


@_jit
def waiting(now, c, ci, ring_s):
    """Packets waiting (not in transmission) in channel c at time now.

    A bisection of the ring (:func:`.aqm.waiting_at`: start times grow along
    the FIFO), not a count of it: the queue is sampled 2,000 times a run,
    and at 1000 flows a full ring of 13,000 packets made that count a fifth
    of the run's instructions.
    """
    return waiting_at(now, ci[c, K_RING_OFF], ci[c, K_CAP] + 1, ci[c, K_RING_HEAD],
                      ci[c, K_RING_COUNT], ring_s)


@_inline
def alloc(meta, free):
    meta[M_NFREE] -= 1
    return free[meta[M_NFREE]]


@_inline
def release(p, meta, free):
    free[meta[M_NFREE]] = p
    meta[M_NFREE] += 1


@_inline
def log_drop(now, f, c, how, pkind, meta, drop_buf):
    if meta[M_TRACE] != 0:
        k = meta[M_NDROP]
        drop_buf[k, 0] = now
        drop_buf[k, 1] = f
        drop_buf[k, 2] = c
        # 0 queue/data, 1 queue/ack, 2 loss/data, 4 AQM/data, 5 AQM/ack, 6 ECN mark/data
        drop_buf[k, 3] = how * 2 + pkind
        meta[M_NDROP] = k + 1


@_inline
def enqueue(now, p, c, ctx):
    """Offer packet p to channel c at time now (drop-tail): the channel service, by address."""
    _call_offer(ctx.meta[M_OFFER], now, p, c, ctx.meta[M_WORLD])


@_inline
def forward(now, p, c, ctx):
    """:func:`enqueue` calling :func:`offer` directly (the event loop's own hops)."""
    offer(now, p, c, ctx.g, ctx.meta, ctx.hf, ctx.hi, ctx.pi, ctx.pf,
          ctx.free, ctx.cf, ctx.ci, ctx.ring_s, ctx.ring_e, ctx.fi, ctx.drop_buf)


@_jit
def offer_service(now, p, c, world):
    """:func:`offer` on the world stored at address *world* (senders reach it by address)."""
    ctx, rng = load_world(world)
    forward(now, p, c, ctx)
    return 0


_call_offer = caller((types.float64, types.int64, types.int64, types.int64), types.int64)


@numba.njit(cache=True, _nrt=False)
def offer(now, p, c, g, meta, hf, hi, pi, pf, free, cf, ci, ring_s, ring_e, fi,
          drop_buf):
    """:func:`enqueue` on the arrays it uses, compiled once.

    Every hop of every packet passes here, from a dozen places (the event
    loop, every sender's sends); inlined, each of them would carry its own
    copy of the queue and the heap, which is what made the engine slow to
    compile.  Compiled on its own, it takes the 13 arrays it uses rather
    than the whole ``ctx`` (fewer arguments to pass), without reference
    counting (it creates no array; the caller owns them all).

    The packet's arrival at the far end draws its event's sequence number
    here, as if it were pushed on the heap, but joins the tail of the
    channel's list of packets in flight; only the head of that list is in
    the heap (:func:`next_arrival`).
    """
    droptail = ci[c, K_AQM] == AQM_DROPTAIL
    if not droptail:
        verdict = admit(now, p, c, pi, cf, ci, ring_s, ring_e, fi)
        if verdict == DROPPED:
            ci[c, K_ARRIVALS] += 1
            ci[c, K_DROPS] += 1
            f = pi[p, P_FLOW]
            if pi[p, P_KIND] == 0:
                fi[f, I_DROP_Q] += 1
            else:
                fi[f, I_ACK_DROP] += 1
            log_drop(now, f, c, 2, pi[p, P_KIND], meta, drop_buf)
            release(p, meta, free)
            return
        if verdict == MARKED:
            log_drop(now, pi[p, P_FLOW], c, 3, 0, meta, drop_buf)
    off = ci[c, K_RING_OFF]
    size = ci[c, K_CAP] + 1
    head = ci[c, K_RING_HEAD]
    count = ci[c, K_RING_COUNT]
    while count > 0 and ring_e[off + head] <= now:
        head = (head + 1) % size
        count -= 1
    if count == 0 and droptail:
        # an empty drop-tail ring starts again at its first slot: a channel that empties
        # between its packets (an access link) then writes the same line of its ring every
        # time, instead of walking through all of it (16 kB for 1000 packets of buffer, a
        # cold line per hop).  Its positions are read relative to its head (the bisection
        # of `waiting`, the end-of-run clipping, the per-flow occupancy); an AQM's ring
        # keeps walking: RED reads the entry before the head of an empty ring (the last
        # transmission's start, for its idle time: aqm.admit)
        head = 0
    ci[c, K_RING_HEAD] = head
    ci[c, K_RING_COUNT] = count
    ci[c, K_ARRIVALS] += 1
    f = pi[p, P_FLOW]
    if count >= size:
        ci[c, K_DROPS] += 1
        if pi[p, P_KIND] == 0:
            fi[f, I_DROP_Q] += 1
        else:
            fi[f, I_ACK_DROP] += 1
        log_drop(now, f, c, 0, pi[p, P_KIND], meta, drop_buf)
        release(p, meta, free)
        return
    waiting_after = count  # the packet in transmission is not waiting
    if waiting_after > ci[c, K_MAXQ]:
        ci[c, K_MAXQ] = waiting_after
    bits = g[G_DATA_BITS] if pi[p, P_KIND] == 0 else g[G_ACK_BITS]
    start = cf[c, C_LAST_END]
    if start < now:
        start = now
    end = start + bits / cf[c, C_RATE]
    cf[c, C_LAST_END] = end
    cf[c, C_WAIT_SUM] += start - now
    cf[c, C_BUSY_SUM] += end - start
    slot = off + (head + count) % size
    ring_s[slot] = start
    ring_e[slot] = end
    ci[c, K_RING_COUNT] = count + 1
    t = end + cf[c, C_DELAY]
    seq = meta[M_HEAP_SEQ]
    meta[M_HEAP_SEQ] = seq + 1
    pi[p, P_NEXT] = -1
    pi[p, P_EVENT_SEQ] = seq
    pf[p, Q_ARRIVAL] = t
    if ci[c, K_FIFO_HEAD] < 0:
        ci[c, K_FIFO_HEAD] = p
        arrival_insert(now, t, seq, p, c, hf, hi, meta, g, ci)
    else:  # behind the tail, whose row also keeps this packet's key (see next_arrival)
        tail = ci[c, K_FIFO_TAIL]
        pi[tail, P_NEXT] = p
        pi[tail, P_NEXT_SEQ] = seq
        pf[tail, Q_NEXT_ARRIVAL] = t
    ci[c, K_FIFO_TAIL] = p


@_inline
def next_arrival(hf, hi, meta, pi, pf, g, ci):
    """Take the heap's earliest event, an arrival; its channel's next packet takes its place.

    Call when the earliest event is an ``EV_ARRIVE``; returns (t, p, c), the
    time, packet and channel of that arrival.  One heap entry per channel
    gives the events in the same order as one per packet: a channel's packets
    arrive in the order they entered it (FIFO at one rate and one delay:
    ``t = end + delay``, ``end`` never decreasing, and floating-point addition
    is monotone) and their sequence numbers grow in that order too, so the
    head's (time, sequence number) is the least of its channel's, and the
    heap's least entry the least of all pending events.  Keys are unique, so
    the order does not depend on the heap's layout.

    Memory: the next packet's key is read from the arriving packet's row
    (``P_NEXT_SEQ``, ``Q_NEXT_ARRIVAL``, written when it joined the channel
    behind it), not from its own; its own row is only prefetched, to be in
    the cache when it arrives (at 1000 flows the pool of packets in flight
    no longer fits the caches, and this read was a miss on every hop).
    """
    t = hf[_hq(0, HQ_T)]
    p = hi[_hq(0, HQ_A)]
    c = hi[_hq(0, HQ_B)]
    q = pi[p, P_NEXT]
    if q < 0:
        ci[c, K_FIFO_HEAD] = -1
        heap_pop(hf, hi, meta)
    else:
        prefetch_row(pi, q)
        ci[c, K_FIFO_HEAD] = q
        tq, sq = pf[p, Q_NEXT_ARRIVAL], pi[p, P_NEXT_SEQ]
        if wheel_put(t, tq, c, meta, g, ci):
            heap_pop(hf, hi, meta)
        else:
            heap_replace_top(hf, hi, meta, tq, sq, EV_ARRIVE, q, c)
    return t, p, c


@_inline
def lost(now, c, cf, ci, loss_list, rng):
    """Does the loss model of channel c destroy the packet reaching its end?"""
    kind = ci[c, K_LOSS_KIND]
    if kind == LOSS_NONE:
        return False
    if kind == LOSS_BERNOULLI:
        return rng.random() < cf[c, C_P]
    if kind == LOSS_GE:
        while cf[c, C_NEXT_SWITCH] <= now:
            if ci[c, K_GE_BAD] == 1:
                ci[c, K_GE_BAD] = 0
                cf[c, C_NEXT_SWITCH] += rng.exponential(cf[c, C_MEAN_GOOD])
            else:
                ci[c, K_GE_BAD] = 1
                cf[c, C_NEXT_SWITCH] += rng.exponential(cf[c, C_MEAN_BAD])
        p = cf[c, C_LOSS_BAD] if ci[c, K_GE_BAD] == 1 else cf[c, C_LOSS_GOOD]
        if p <= 0.0:
            return False
        return rng.random() < p
    # packet list: count data packets crossing the channel
    ci[c, K_SEEN] += 1
    pos = ci[c, K_LIST_POS]
    if pos < ci[c, K_LIST_LEN] and loss_list[ci[c, K_LIST_OFF] + pos] == ci[c, K_SEEN]:
        ci[c, K_LIST_POS] = pos + 1
        return True
    return False


@_inline
def arm(t, f, ctx):
    """(Re)start flow f's retransmission timer to fire at t.

    Lazy: a pending event earlier than t is kept and re-pushed when it
    fires early; a deadline earlier than the pending event gets a fresh
    event (the old one is made stale by the generation counter).
    """
    ff, fi = ctx.ff, ctx.fi
    ff[f, F_RTO_DEADLINE] = t
    if fi[f, I_RTO_PENDING] == 0 or t < ff[f, F_RTO_EVT]:
        fi[f, I_RTO_GEN] += 1
        fi[f, I_RTO_PENDING] = 1
        ff[f, F_RTO_EVT] = t
        push(ctx, t, EV_RTO, f, fi[f, I_RTO_GEN])


@_jit
def send_service(now, f, seq, retx, flag, world):
    """:func:`send` compiled once, on the world stored at address *world*."""
    ctx, rng = load_world(world)
    pi, pf, fi = ctx.pi, ctx.pf, ctx.fi
    p = alloc(ctx.meta, ctx.free)
    pi[p, P_FLOW] = f
    pi[p, P_SEQ] = seq
    pi[p, P_KIND] = 0
    pi[p, P_HOP] = 0
    pi[p, P_RETX] = retx
    pi[p, P_FLAG] = flag
    pi[p, P_ECN] = 0
    ecn = fi[f, I_ECN]
    if ecn & ECN_CAPABLE and retx == 0:   # RFC 3168 §6.1.5: no ECT on retransmissions
        pi[p, P_ECN] = ECN_ECT
        if ecn & ECN_SEND_CWR:             # §6.1.2: CWR on the first new segment after a cut
            pi[p, P_ECN] = ECN_ECT | ECN_CWR
            fi[f, I_ECN] = ecn & ~ECN_SEND_CWR
    pf[p, Q_SENT_TIME] = now
    pf[p, Q_ECHO] = 0.0
    fi[f, I_SENT] += 1
    if retx:
        fi[f, I_RETX] += 1
    forward(now, p, ctx.fpath[f, 0], ctx)
    return 0


_call_send = caller((types.float64, types.int64, types.int64, types.int64, types.int64,
                     types.int64), types.int64)


@_inline
def send(now, f, seq, retx, flag, ctx):
    """Put data segment *seq* of flow f on its first link (the send service, by address)."""
    _call_send(ctx.meta[M_SEND], now, f, seq, retx, flag, ctx.meta[M_WORLD])


@_inline
def send_next(now, f, flag, ctx):
    """Send the next new segment of a flow that does not retransmit."""
    fi = ctx.fi
    seq = fi[f, I_SND_NXT]
    send(now, f, seq, 0, flag, ctx)
    fi[f, I_SND_NXT] = seq + 1
    fi[f, I_SND_MAX] = seq + 1


@_inline
def try_send(now, f, ctx):
    """Window sender: send while the congestion window allows; start the timer."""
    try_send_window(now, f, ctx.ff[f, F_CWND], ctx)


@_inline
def try_send_window(now, f, cwnd, ctx):
    """Send while snd_nxt < snd_una + int(cwnd) (cwnd kept in [1, max window])."""
    ff, fi = ctx.ff, ctx.fi
    if fi[f, I_ACTIVE] == 0:
        return
    window = int(cwnd)
    if window < 1:
        window = 1
    maxw = int(ctx.g[G_MAX_WINDOW])
    if window > maxw:
        window = maxw
    sent_any = False
    while fi[f, I_SND_NXT] < fi[f, I_SND_UNA] + window:
        seq = fi[f, I_SND_NXT]
        retx = 1 if seq < fi[f, I_SND_MAX] else 0
        send(now, f, seq, retx, 0, ctx)
        fi[f, I_SND_NXT] = seq + 1
        if seq + 1 > fi[f, I_SND_MAX]:
            fi[f, I_SND_MAX] = seq + 1
        sent_any = True
    if sent_any and ff[f, F_RTO_DEADLINE] == np.inf:
        arm(now + ff[f, F_RTO], f, ctx)


@_inline
def log_rtt(now, f, sample, ctx):
    meta, fi = ctx.meta, ctx.fi
    fi[f, I_ACKS_RECEIVED] += 1
    if meta[M_TRACE] != 0 and fi[f, I_ACKS_RECEIVED] % int(ctx.g[G_RTT_EVERY]) == 0:
        k = meta[M_NRTT]
        ctx.rtt_buf[k, 0] = now
        ctx.rtt_buf[k, 1] = f
        ctx.rtt_buf[k, 2] = sample
        meta[M_NRTT] = k + 1


@_inline
def delay_sample(f, sample, ctx):
    """Delay measurements of an ACK whose echoed segment was not retransmitted."""
    ff = ctx.ff
    ff[f, F_LAST_RTT] = sample
    if sample < ff[f, F_MIN_RTT]:
        ff[f, F_MIN_RTT] = sample
    if sample < ff[f, F_ROUND_MIN_RTT]:
        ff[f, F_ROUND_MIN_RTT] = sample
    ctx.fi[f, I_ROUND_RTTS] += 1


@_inline
def rto_estimate(f, sample, ctx):
    """RFC 6298 (2.2)-(2.4) estimator (callers apply Karn's rule)."""
    ff, fi, g = ctx.ff, ctx.fi, ctx.g
    if fi[f, I_RTT_SAMPLED] == 0:
        ff[f, F_SRTT] = sample
        ff[f, F_RTTVAR] = sample / 2.0
        fi[f, I_RTT_SAMPLED] = 1
    else:
        ff[f, F_RTTVAR] = 0.75 * ff[f, F_RTTVAR] + 0.25 * abs(ff[f, F_SRTT] - sample)
        ff[f, F_SRTT] = 0.875 * ff[f, F_SRTT] + 0.125 * sample
    rto = ff[f, F_SRTT] + 4.0 * ff[f, F_RTTVAR]
    if rto < g[G_MIN_RTO]:
        rto = g[G_MIN_RTO]
    if rto > g[G_MAX_RTO]:
        rto = g[G_MAX_RTO]
    ff[f, F_RTO] = rto


@_inline
def cumulative_ack_receiver(now, p, f, seq, ctx):
    """Receiver: in-order bookkeeping and a cumulative ACK for every data packet."""
    fi, rbits = ctx.fi, ctx.rbits
    nxt = fi[f, I_RCV_NXT]
    ring = rbits.shape[1]
    if seq == nxt:
        nxt += 1
        while rbits[f, nxt % ring] != 0:
            rbits[f, nxt % ring] = 0
            nxt += 1
        fi[f, I_RCV_NXT] = nxt
    elif seq > nxt and seq < nxt + ring:
        rbits[f, seq % ring] = 1
    fi[f, I_UNIQUE] = fi[f, I_RCV_NXT]
    turn_into_ack(now, p, f, ctx)


@_inline
def turn_into_ack(now, p, f, ctx):
    """Turn data packet p into its ACK (same pool slot); returns its send time.

    ECN (RFC 3168 §6.1.3): a CE mark starts the receiver's echo, a CWR segment
    ends it, and while it lasts every ACK carries ECE.
    """
    pi, pf, fi = ctx.pi, ctx.pf, ctx.fi
    ecn = pi[p, P_ECN]
    state = fi[f, I_ECN]
    if (ecn | state) != 0:
        if ecn & ECN_CWR:
            state &= ~ECN_ECHOING
        if ecn & ECN_CE:
            state |= ECN_ECHOING
        fi[f, I_ECN] = state
        pi[p, P_ECN] = ECN_ECE if state & ECN_ECHOING else 0
    sent_time = pf[p, Q_SENT_TIME]
    pi[p, P_KIND] = 1
    pi[p, P_HOP] = 0
    pi[p, P_SEQ] = fi[f, I_RCV_NXT]
    pf[p, Q_ECHO] = sent_time
    return sent_time


@_inline
def emit_ack(now, p, f, ctx):
    ctx.fi[f, I_ACK_SENT] += 1
    enqueue(now, p, ctx.rpath[f, 0], ctx)


@_inline
def send_next_aux(now, f, aux1, ctx):
    """Send the next new segment carrying one sender value in ``Q_AUX1``.

    For rate senders whose data packets carry a field to the receiver
    (TFRC's RTT estimate, RFC 5348 §3.2.1); otherwise :func:`send_next`.
    """
    pi, pf, fi = ctx.pi, ctx.pf, ctx.fi
    seq = fi[f, I_SND_NXT]
    p = alloc(ctx.meta, ctx.free)
    pi[p, P_FLOW] = f
    pi[p, P_SEQ] = seq
    pi[p, P_KIND] = 0
    pi[p, P_HOP] = 0
    pi[p, P_RETX] = 0
    pi[p, P_FLAG] = 0
    pi[p, P_ECN] = 0
    pf[p, Q_SENT_TIME] = now
    pf[p, Q_ECHO] = 0.0
    pf[p, Q_AUX1] = aux1
    pf[p, Q_AUX2] = 0.0
    fi[f, I_SENT] += 1
    fi[f, I_SND_NXT] = seq + 1
    fi[f, I_SND_MAX] = seq + 1
    enqueue(now, p, ctx.fpath[f, 0], ctx)


@_inline
def repace(now, f, last_send, ctx):
    """Move a paced sender's pending send to ``last_send + 1/rate`` (not before now).

    For the rate senders (CBRAA, TCP-Friend, TFRC) when a report or feedback
    changes ``ff[f, F_RATE]``; *last_send* is the time of their last send [s].
    """
    ff, fi = ctx.ff, ctx.fi
    if fi[f, I_ACTIVE] == 0:
        return
    t = last_send + 1.0 / ff[f, F_RATE]
    if t < now:
        t = now
    fi[f, I_PACE_GEN] += 1
    push(ctx, t, EV_PACE, f, fi[f, I_PACE_GEN])


def services():
    """meta slot -> address of each transport service (compiled or loaded once)."""
    from .hooks import address_of

    sig = lambda *args: types.int64(*args)  # noqa: E731
    i8, f8 = types.int64, types.float64
    return {M_SEND: address_of(send_service, sig(f8, i8, i8, i8, i8, i8)),
            M_PUSH: address_of(push_service, sig(f8, i8, i8, i8, i8)),
            M_OFFER: address_of(offer_service, sig(f8, i8, i8, i8))}
