# ctlcc.sim._core.dispatch - the event loop (private)
"""The numba event loop; it names no sender.

Events come off the heap in time order (ties in the order they were
pushed; a packet's arrival at the end of a channel counts as pushed when it
entered the channel, although only each channel's oldest packet is in the
heap, see :func:`.net.next_arrival`, or on the arrival wheel until it is due,
:func:`.net.wheel_settle`).  The loop moves packets through channels (:mod:`.net`) and hands
every event that concerns a sender to that flow's hook (:mod:`.hooks`),
called through the address in ``ctx.hooks[f, H_...]``: the loop is compiled
once, whatever senders run, and a sender's hooks are compiled when a run
first uses them.  A flow whose sender has no hook for an event that
happens (address 0) stops the loop with :data:`UNDISPATCHED`, naming the
sender and the hook; a hook that returns ``HOOK_PYTHON`` hands the flow to
its spec's Python step (``NEED_PYTHON``), and ``HOOK_ERROR`` stops the run
(``SENDER_ERROR``) with the reason the hook left in ``meta``/``g``.
"""

import numba
import numpy as np

from .hooks import (
    call_ack, call_data, call_pace, call_resume, call_start, call_step, call_timer, store_world,
)
from .layout import (
    DONE, EV_ARRIVE, EV_PACE, EV_RTO, EV_SAMPLE, EV_START, EV_STEP, EV_STOP, F_CWND, F_RATE,
    F_ROUND_START, F_RTO_DEADLINE, F_RTO_EVT, G_NOW, G_SAMPLE_DT, H_ACK, H_DATA, H_PACE,
    H_RESUME, H_START, H_STEP, H_TIMER, HOOK_OK, HOOK_PYTHON, HQ_T, I_ACTIVE,
    I_DELIVERED, I_DROP_L, I_PACE_GEN, I_PROTO, I_RTO_GEN, I_RTO_PENDING,
    I_SENT, I_UNIQUE, K_LOSSES, M_ERROR, M_ERROR_FLOW, M_EVENTS, M_HEAP, M_HOOK,
    M_MARGIN,
    M_NDROP, M_NFREE, M_NRTT, M_NSAMPLES, M_OFFER, M_PENDING, M_PUSH, M_PYTHON_FLOW, M_SEND,
    M_TIMERS, M_TRACE, M_UNDISPATCHED, M_WHEEL_N, M_WORLD, NEED_POOL, NHQ, NEED_PYTHON,
    NEED_TRACE, P_ECN,
    P_FLAG, P_FLOW, P_HOP, P_KIND, P_RETX, P_SEQ, Q_AUX1, Q_AUX2, Q_ECHO, SENDER_ERROR,
    UNDISPATCHED, UNLINKED,
)
from .net import (
    Ack, borrow, earliest_is_timer, forward, heap_pop_in, log_drop, log_rtt, lost,
    next_arrival, push_here, release, waiting, wheel_settle,
)
from .occupancy import sample_by_flow

__all__ = []

_inline = numba.njit(cache=True, inline="always")


@_inline
def hooked(status, f, hook, ctx):
    """Record what a hook's status asks for; True when the loop must return."""
    if status == HOOK_OK:
        return False
    if status == HOOK_PYTHON:
        ctx.meta[M_PYTHON_FLOW] = f
        ctx.meta[M_PENDING] = f + 1
        return True
    if ctx.meta[M_ERROR] == 0:
        ctx.meta[M_ERROR] = 1
    ctx.meta[M_ERROR_FLOW] = f
    return True


@_inline
def missing(f, hook, ctx):
    """The flow's sender has no hook for this event: stop, naming both."""
    ctx.meta[M_UNDISPATCHED] = ctx.fi[f, I_PROTO] + 1
    ctx.meta[M_HOOK] = hook
    return True


@_inline
def on_ack(now, p, ctx, wp):
    pi, pf = ctx.pi, ctx.pf
    f = pi[p, P_FLOW]
    echo = pf[p, Q_ECHO]
    ack = Ack(pi[p, P_SEQ], now - echo, pi[p, P_RETX], pi[p, P_FLAG], pf[p, Q_AUX1],
              pf[p, Q_AUX2], echo, pi[p, P_ECN])
    release(p, ctx.meta, ctx.free)
    log_rtt(now, f, ack.rtt, ctx)
    address = ctx.hooks[f, H_ACK]
    if address == 0:
        return missing(f, H_ACK, ctx)
    return hooked(call_ack(address, now, f, ack, wp), f, H_ACK, ctx)


@_inline
def on_data(now, p, ctx, wp):
    """Data packet p reached its receiver: the flow's receiver hook takes it."""
    f = ctx.pi[p, P_FLOW]
    ctx.fi[f, I_DELIVERED] += 1
    address = ctx.hooks[f, H_DATA]
    if address == 0:
        release(p, ctx.meta, ctx.free)
        return missing(f, H_DATA, ctx)
    return hooked(call_data(address, now, f, p, wp), f, H_DATA, ctx)


@_inline
def arrive(now, p, c, ctx, rng, wp):
    """Packet p has crossed channel c; True when the loop must return."""
    pi, fi = ctx.pi, ctx.fi
    f = pi[p, P_FLOW]
    hop = pi[p, P_HOP]
    is_ack = pi[p, P_KIND] == 1
    if (not is_ack) and lost(now, c, ctx.cf, ctx.ci, ctx.loss_list, rng):
        ctx.ci[c, K_LOSSES] += 1
        fi[f, I_DROP_L] += 1
        log_drop(now, f, c, 1, 0, ctx.meta, ctx.drop_buf)
        release(p, ctx.meta, ctx.free)
        return False
    nc = ctx.rpath[f, hop + 1] if is_ack else ctx.fpath[f, hop + 1]   # -1: path's end
    if nc >= 0:
        pi[p, P_HOP] = hop + 1
        forward(now, p, nc, ctx)
        return False
    if is_ack:
        return on_ack(now, p, ctx, wp)
    return on_data(now, p, ctx, wp)


@numba.njit(cache=True)
def run_kernel(until, ctx, rng):
    """Process events with time < until; return a code (DONE, NEED_*, UNDISPATCHED...)."""
    ctx = borrow(ctx)  # no reference counting inside the loop (see net.borrow)
    rng = borrow(rng)
    wp = store_world((ctx, rng))  # what every hook reads the run's arrays from
    g, meta, ff, fi, hooks = ctx.g, ctx.meta, ctx.ff, ctx.fi, ctx.hooks
    if meta[M_SEND] == 0 or meta[M_PUSH] == 0 or meta[M_OFFER] == 0:
        return UNLINKED  # the transport services' addresses were not set (net.services)
    meta[M_WORLD] = wp
    if meta[M_PENDING] > 0:  # the Python step of a flow is done: its hook resumes
        f = meta[M_PENDING] - 1
        meta[M_PENDING] = 0
        if hooks[f, H_RESUME] == 0:
            missing(f, H_RESUME, ctx)
        elif hooked(call_resume(hooks[f, H_RESUME], g[G_NOW], f, wp), f, H_RESUME, ctx):
            return NEED_PYTHON if meta[M_PENDING] > 0 else SENDER_ERROR
    while meta[M_HEAP] > 0 or meta[M_TIMERS] > 0 or meta[M_WHEEL_N] > 0:
        if meta[M_UNDISPATCHED] != 0:
            return UNDISPATCHED
        if meta[M_ERROR] != 0:
            return SENDER_ERROR
        if meta[M_NFREE] < meta[M_MARGIN] or meta[M_HEAP] + meta[M_MARGIN] + 64 * ff.shape[0] \
                >= ctx.hf.shape[0] // NHQ or meta[M_TIMERS] + meta[M_MARGIN] \
                >= ctx.tf.shape[0] // NHQ:
            return NEED_POOL
        if meta[M_TRACE] != 0 and (meta[M_NRTT] + 4 * meta[M_MARGIN] >= ctx.rtt_buf.shape[0]
                                   or meta[M_NDROP] + 4 * meta[M_MARGIN]
                                   >= ctx.drop_buf.shape[0]):
            return NEED_TRACE
        # the earlier of the two heaps' heads (net.schedule): the timers' or the events',
        # once the event heap's head is not later than any arrival on the wheel
        wheel_settle(ctx.hf, ctx.hi, meta, g, ctx.pi, ctx.pf, ctx.ci)
        if earliest_is_timer(ctx):
            if ctx.tf[HQ_T] >= until:
                return DONE
            now, kind, a, b = heap_pop_in(ctx.tf, ctx.ti, meta, M_TIMERS)
        else:
            if ctx.hf[HQ_T] >= until:
                return DONE
            # the event heap holds arrivals only (net.schedule): the channel's next packet
            # (if any) takes the entry's place
            kind = EV_ARRIVE
            now, a, b = next_arrival(ctx.hf, ctx.hi, meta, ctx.pi, ctx.pf, g, ctx.ci)
        g[G_NOW] = now
        meta[M_EVENTS] += 1
        stop = False
        if kind == EV_ARRIVE:
            stop = arrive(now, a, b, ctx, rng, wp)
        elif kind == EV_RTO:
            if b != fi[a, I_RTO_GEN]:
                continue
            if now < ff[a, F_RTO_DEADLINE] and ff[a, F_RTO_DEADLINE] != np.inf:
                ff[a, F_RTO_EVT] = ff[a, F_RTO_DEADLINE]
                push_here(ctx, ff[a, F_RTO_DEADLINE], EV_RTO, a, b)
                continue
            fi[a, I_RTO_PENDING] = 0
            if ff[a, F_RTO_DEADLINE] == np.inf or fi[a, I_ACTIVE] == 0:
                continue
            if hooks[a, H_TIMER] == 0:
                stop = missing(a, H_TIMER, ctx)
            else:
                stop = hooked(call_timer(hooks[a, H_TIMER], now, a, wp), a, H_TIMER, ctx)
        elif kind == EV_STEP:
            if hooks[a, H_STEP] == 0:
                stop = missing(a, H_STEP, ctx)
            else:
                stop = hooked(call_step(hooks[a, H_STEP], now, a, b, wp), a, H_STEP, ctx)
        elif kind == EV_PACE:
            if b != fi[a, I_PACE_GEN] or fi[a, I_ACTIVE] == 0:
                continue
            if hooks[a, H_PACE] == 0:
                stop = missing(a, H_PACE, ctx)
            else:
                stop = hooked(call_pace(hooks[a, H_PACE], now, a, wp), a, H_PACE, ctx)
        elif kind == EV_START:
            fi[a, I_ACTIVE] = 1
            ff[a, F_ROUND_START] = now
            if hooks[a, H_START] == 0:
                stop = missing(a, H_START, ctx)
            else:
                stop = hooked(call_start(hooks[a, H_START], now, a, wp), a, H_START, ctx)
        elif kind == EV_STOP:
            fi[a, I_ACTIVE] = 0
            ff[a, F_RTO_DEADLINE] = np.inf
            fi[a, I_PACE_GEN] += 1
        elif kind == EV_SAMPLE:
            k = meta[M_NSAMPLES]
            if k < ctx.samp_t.shape[0]:
                ctx.samp_t[k] = now
                for f in range(ff.shape[0]):
                    ctx.samp_w[k, f] = ff[f, F_CWND]
                    ctx.samp_r[k, f] = ff[f, F_RATE]
                    ctx.samp_sent[k, f] = fi[f, I_SENT]
                    ctx.samp_dlv[k, f] = fi[f, I_UNIQUE]
                    ctx.samp_rcv[k, f] = fi[f, I_DELIVERED]
                for j in range(ctx.bott.shape[0]):
                    ctx.samp_q[k, j] = waiting(now, ctx.bott[j], ctx.ci, ctx.ring_s)
                if ctx.samp_q.shape[1] > ctx.bott.shape[0]:   # run(queue_by_flow=True)
                    sample_by_flow(now, k, ctx)
                meta[M_NSAMPLES] = k + 1
                push_here(ctx, now + g[G_SAMPLE_DT], EV_SAMPLE, 0, 0)
        if stop:
            if meta[M_UNDISPATCHED] != 0:
                return UNDISPATCHED
            if meta[M_PENDING] > 0:
                return NEED_PYTHON
            return SENDER_ERROR
    if meta[M_UNDISPATCHED] != 0:
        return UNDISPATCHED
    return DONE


@numba.njit(cache=True)
def run_hook(kind, address, now, f, x, ack, ctx, rng):
    """Call one hook outside the event loop (the test harness, :mod:`ctlcc.sim.testing`).

    *kind* is the hook's column (``H_*``); *x* is the packet of a data hook
    or the step of a step hook.  Returns the hook's status.
    """
    ctx = borrow(ctx)
    rng = borrow(rng)
    wp = store_world((ctx, rng))
    ctx.meta[M_WORLD] = wp
    if kind == H_START:
        return call_start(address, now, f, wp)
    if kind == H_ACK:
        return call_ack(address, now, f, ack, wp)
    if kind == H_DATA:
        return call_data(address, now, f, x, wp)
    if kind == H_TIMER:
        return call_timer(address, now, f, wp)
    if kind == H_PACE:
        return call_pace(address, now, f, wp)
    if kind == H_STEP:
        return call_step(address, now, f, x, wp)
    return call_resume(address, now, f, wp)
