# ctlcc.sim._core.dispatch - the event loop and the one switch per sender hook (private)
"""The numba event loop; the only module that names every sender.

Numba needs static dispatch, so each hook is an integer switch on the
flow's protocol code (each sender module fixes its own literal code;
:data:`ctlcc.sim.senders.BY_CODE` maps them back).  A code that no branch
of a switch handles sets ``meta[M_UNDISPATCHED]`` and stops the loop with
:data:`UNDISPATCHED`, so a sender registered but not
dispatched fails loudly (tests/sim/test_registry.py runs every sender).

The switches call each sender's hooks through :func:`_own`: a copy of the
hook compiled on its own that works on borrowed arrays.  Adding a sender is
one ``_own`` line per hook it has and one branch per switch.
"""

import ast
import inspect
import sys
import textwrap

import numba
import numpy as np

from ..senders import cbraa, iftp, open_loop, primo, sack, stpd, sttp, tfrc, vegas, window
from .layout import (
    DONE, EV_ARRIVE, EV_DEFER, EV_PACE, EV_RTO, EV_SAMPLE, EV_START, EV_STOP, F_CWND, F_RATE,
    F_ROUND_START, F_RTO_DEADLINE, F_RTO_EVT, G_NOW, G_SAMPLE_DT, I_ACTIVE, I_DELIVERED,
    I_DROP_L, I_FWD_LEN, I_PACE_GEN, I_PROTO, I_REV_LEN, I_RTO_GEN, I_RTO_PENDING, I_SENT,
    I_UNIQUE, K_LOSSES, M_EVENTS, M_HEAP, M_MARGIN, M_NDROP, M_NFREE, M_NRTT, M_NSAMPLES,
    M_PENDING, M_TRACE, M_UNDISPATCHED, NEED_LAW, NEED_POOL, NEED_TRACE, P_FLAG, P_FLOW, P_HOP,
    P_KIND, P_RETX, P_SEQ, Q_AUX1, Q_AUX2, Q_ECHO, UNDISPATCHED,
)
from .net import (
    borrow, cumulative_ack_receiver, emit_ack, enqueue, heap_pop, log_drop, log_rtt, lost, push,
    release, waiting,
)

__all__ = []

RENO, NEWRENO, TAHOE = window.RENO, window.NEWRENO, window.TAHOE
VEGAS, STPD, PRIMO = vegas.CODE, stpd.CODE, primo.CODE
CBR, POISSON = open_loop.CBR, open_loop.POISSON
IFTP = iftp.CODE
CBRAA, TCPFRIEND, TFRC = cbraa.CBRAA, cbraa.TCPFRIEND, tfrc.CODE
STTP = sttp.CODE
SACK = sack.CODE

_inline = numba.njit(cache=True, inline="always")


def _own(hook):
    """*hook* compiled as a function of its own that works on borrowed arrays.

    The sender module's source stays as its author wrote it.  The copy is
    compiled from the same source with one statement put first,
    ``ctx = borrow(ctx)`` (and ``rng = borrow(rng)`` for a hook that takes
    the generator), so that numba's reference counting of the 34 arrays of
    ``ctx`` folds away inside the hook as it does in the event loop (see
    :func:`.net.borrow`).  Each hook is compiled, optimised and cached on its
    own (the copy keeps the sender's file, so its cache entry sits with the
    sender's and :mod:`.cache` invalidates it with the sender), instead of
    being inlined into one ever larger event loop.
    """
    py = hook.py_func
    module = sys.modules[py.__module__]
    lines, first = inspect.getsourcelines(py)
    tree = ast.parse(textwrap.dedent("".join(lines)))
    fdef = tree.body[0]
    fdef.decorator_list = []
    fdef.name = py.__name__ + "__own"
    names = [a.arg for a in fdef.args.args]
    prologue = [ast.parse(f"{n} = __borrow({n})").body[0] for n in ("ctx", "rng") if n in names]
    fdef.body[:0] = prologue
    ast.increment_lineno(tree, first - 1)
    for node in prologue:
        ast.copy_location(node, fdef)
        for sub in ast.walk(node):
            ast.copy_location(sub, fdef)
    namespace = dict(vars(module), __borrow=borrow)
    exec(compile(tree, inspect.getsourcefile(py), "exec"), namespace)
    return numba.njit(namespace[fdef.name], cache=True)


window_on_ack = _own(window.on_ack)
window_on_rto = _own(window.on_rto)
window_on_start = _own(window.on_start)
vegas_on_ack = _own(vegas.on_ack)
vegas_on_rto = _own(vegas.on_rto)
vegas_on_start = _own(vegas.on_start)
stpd_apply_law = _own(stpd.apply_law)
stpd_on_ack = _own(stpd.on_ack)
stpd_on_defer = _own(stpd.on_defer)
stpd_on_rto = _own(stpd.on_rto)
stpd_on_start = _own(stpd.on_start)
primo_draw = _own(primo.draw)
primo_on_ack = _own(primo.on_ack)
primo_on_data = _own(primo.on_data)
primo_on_defer = _own(primo.on_defer)
primo_on_pace = _own(primo.on_pace)
primo_on_rto = _own(primo.on_rto)
primo_on_start = _own(primo.on_start)
open_loop_on_data = _own(open_loop.on_data)
open_loop_send_one = _own(open_loop.send_one)
iftp_on_ack = _own(iftp.on_ack)
iftp_on_data = _own(iftp.on_data)
iftp_on_pace = _own(iftp.on_pace)
iftp_on_rto = _own(iftp.on_rto)
iftp_on_start = _own(iftp.on_start)
cbraa_on_data = _own(cbraa.on_data)
cbraa_on_pace = _own(cbraa.on_pace)
cbraa_on_report = _own(cbraa.on_report)
cbraa_on_start = _own(cbraa.on_start)
tfrc_on_data = _own(tfrc.on_data)
tfrc_on_feedback = _own(tfrc.on_feedback)
tfrc_on_pace = _own(tfrc.on_pace)
tfrc_on_rto = _own(tfrc.on_rto)
tfrc_on_start = _own(tfrc.on_start)
sttp_on_ack = _own(sttp.on_ack)
sttp_on_pace = _own(sttp.on_pace)
sttp_on_rto = _own(sttp.on_rto)
sttp_on_start = _own(sttp.on_start)
sack_on_ack = _own(sack.on_ack)
sack_on_data = _own(sack.on_data)
sack_on_rto = _own(sack.on_rto)
sack_on_start = _own(sack.on_start)


@_inline
def undispatched(f, ctx):
    ctx.meta[M_UNDISPATCHED] = ctx.fi[f, I_PROTO] + 1


@_inline
def on_start(now, f, ctx, rng):
    proto = ctx.fi[f, I_PROTO]
    if proto == RENO or proto == NEWRENO or proto == TAHOE:
        window_on_start(now, f, ctx)
    elif proto == VEGAS:
        vegas_on_start(now, f, ctx)
    elif proto == STPD:
        stpd_on_start(now, f, ctx)
    elif proto == PRIMO:
        primo_draw(f, ctx, rng)
        primo_on_start(now, f, ctx)
    elif proto == SACK:
        sack_on_start(now, f, ctx)
    elif proto == CBR or proto == POISSON:
        open_loop_send_one(now, f, proto == POISSON, ctx, rng)
    elif proto == IFTP:
        iftp_on_start(now, f, ctx)
    elif proto == CBRAA or proto == TCPFRIEND:
        cbraa_on_start(now, f, ctx)
    elif proto == TFRC:
        tfrc_on_start(now, f, ctx)
    elif proto == STTP:
        sttp_on_start(now, f, ctx)
    else:
        undispatched(f, ctx)


@_inline
def on_data(now, p, ctx):
    """Receiver side of a data packet that reached its destination."""
    f = ctx.pi[p, P_FLOW]
    seq = ctx.pi[p, P_SEQ]
    ctx.fi[f, I_DELIVERED] += 1
    proto = ctx.fi[f, I_PROTO]
    if proto == CBR or proto == POISSON:
        open_loop_on_data(now, p, f, seq, ctx)
    elif proto == PRIMO:
        primo_on_data(now, p, f, seq, ctx)
    elif proto == IFTP:
        iftp_on_data(now, p, f, seq, ctx)
    elif proto == CBRAA or proto == TCPFRIEND:
        cbraa_on_data(now, p, f, seq, ctx)
    elif proto == TFRC:
        tfrc_on_data(now, p, f, seq, ctx)
    elif proto == SACK:
        sack_on_data(now, p, f, seq, ctx)
    elif proto == RENO or proto == NEWRENO or proto == TAHOE or proto == VEGAS \
            or proto == STPD or proto == STTP:
        cumulative_ack_receiver(now, p, f, seq, ctx)
        emit_ack(now, p, f, ctx)
    else:
        undispatched(f, ctx)
        release(p, ctx.meta, ctx.free)


@_inline
def on_ack(now, p, ctx):
    pi, pf = ctx.pi, ctx.pf
    f = pi[p, P_FLOW]
    ack = pi[p, P_SEQ]
    echo = pf[p, Q_ECHO]
    echo_retx = pi[p, P_RETX]
    aux1 = pf[p, Q_AUX1]
    aux2 = pf[p, Q_AUX2]
    flag = pi[p, P_FLAG]
    release(p, ctx.meta, ctx.free)
    sample = now - echo
    log_rtt(now, f, sample, ctx)
    proto = ctx.fi[f, I_PROTO]
    if proto == RENO or proto == NEWRENO or proto == TAHOE:
        window_on_ack(now, f, ack, sample, echo_retx, proto, ctx)
    elif proto == VEGAS:
        vegas_on_ack(now, f, ack, sample, echo_retx, ctx)
    elif proto == STPD:
        stpd_on_ack(now, f, ack, sample, echo_retx, ctx)
    elif proto == PRIMO:
        primo_on_ack(now, f, ack, sample, aux1, aux2, flag, ctx)
    elif proto == IFTP:
        iftp_on_ack(now, f, ack, sample, ctx)
    elif proto == CBRAA or proto == TCPFRIEND:
        cbraa_on_report(now, f, sample, aux1, aux2, proto == TCPFRIEND, ctx)
    elif proto == TFRC:
        tfrc_on_feedback(now, f, sample, aux1, aux2, ctx)
    elif proto == STTP:
        sttp_on_ack(now, f, ack, sample, echo_retx, flag, ctx)
    elif proto == SACK:
        sack_on_ack(now, f, ack, sample, echo_retx, aux1, aux2, ctx)
    else:
        undispatched(f, ctx)


@_inline
def on_rto(now, f, ctx, rng):
    proto = ctx.fi[f, I_PROTO]
    if proto == RENO or proto == NEWRENO or proto == TAHOE:
        window_on_rto(now, f, ctx)
    elif proto == VEGAS:
        vegas_on_rto(now, f, ctx)
    elif proto == STPD:
        stpd_on_rto(now, f, ctx)
    elif proto == PRIMO:
        primo_draw(f, ctx, rng)
        primo_on_rto(now, f, ctx)
    elif proto == IFTP:
        iftp_on_rto(now, f, ctx)
    elif proto == TFRC:
        tfrc_on_rto(now, f, ctx)
    elif proto == STTP:
        sttp_on_rto(now, f, ctx)
    elif proto == SACK:
        sack_on_rto(now, f, ctx)
    else:
        undispatched(f, ctx)


@_inline
def on_pace(now, f, ctx, rng):
    proto = ctx.fi[f, I_PROTO]
    if proto == CBR or proto == POISSON:
        open_loop_send_one(now, f, proto == POISSON, ctx, rng)
    elif proto == PRIMO:
        primo_on_pace(now, f, ctx)
    elif proto == IFTP:
        iftp_on_pace(now, f, ctx)
    elif proto == CBRAA or proto == TCPFRIEND:
        cbraa_on_pace(now, f, ctx)
    elif proto == TFRC:
        tfrc_on_pace(now, f, ctx)
    elif proto == STTP:
        sttp_on_pace(now, f, ctx)
    else:
        undispatched(f, ctx)


@_inline
def on_defer(now, f, step, ctx):
    """A sender's deferred step; True when Python must evaluate a user callable."""
    proto = ctx.fi[f, I_PROTO]
    if proto == STPD:
        return stpd_on_defer(now, f, step, ctx)
    if proto == PRIMO:
        primo_on_defer(now, f, step, ctx)
        return False
    undispatched(f, ctx)
    return False


@_inline
def on_resume(f, ctx):
    """Finish the step a Python callable answered (its result is in the flow's columns)."""
    proto = ctx.fi[f, I_PROTO]
    if proto == STPD:
        stpd_apply_law(f, ctx)
    else:
        undispatched(f, ctx)


@_inline
def arrive(now, p, c, ctx, rng):
    """Packet p has crossed channel c."""
    pi, fi = ctx.pi, ctx.fi
    f = pi[p, P_FLOW]
    hop = pi[p, P_HOP]
    is_ack = pi[p, P_KIND] == 1
    if (not is_ack) and lost(now, c, ctx.cf, ctx.ci, ctx.loss_list, rng):
        ctx.ci[c, K_LOSSES] += 1
        fi[f, I_DROP_L] += 1
        log_drop(now, f, c, 1, 0, ctx.meta, ctx.drop_buf)
        release(p, ctx.meta, ctx.free)
        return
    last = fi[f, I_REV_LEN] if is_ack else fi[f, I_FWD_LEN]
    if hop + 1 < last:
        pi[p, P_HOP] = hop + 1
        nc = ctx.rpath[f, hop + 1] if is_ack else ctx.fpath[f, hop + 1]
        enqueue(now, p, nc, ctx)
        return
    if is_ack:
        on_ack(now, p, ctx)
    else:
        on_data(now, p, ctx)


@numba.njit(cache=True)
def run_kernel(until, ctx, rng):
    """Process events with time < until; return a code (DONE, NEED_*, UNDISPATCHED)."""
    ctx = borrow(ctx)  # no reference counting inside the loop (see net.borrow)
    rng = borrow(rng)
    g, meta, ht, ff, fi = ctx.g, ctx.meta, ctx.ht, ctx.ff, ctx.fi
    if meta[M_PENDING] > 0:
        on_resume(meta[M_PENDING] - 1, ctx)
        meta[M_PENDING] = 0
    while meta[M_HEAP] > 0:
        if meta[M_UNDISPATCHED] != 0:
            return UNDISPATCHED
        if meta[M_NFREE] < meta[M_MARGIN] or meta[M_HEAP] + meta[M_MARGIN] + 64 * ff.shape[0] \
                >= ht.shape[0]:
            return NEED_POOL
        if meta[M_TRACE] != 0 and (meta[M_NRTT] + 4 * meta[M_MARGIN] >= ctx.rtt_buf.shape[0]
                                   or meta[M_NDROP] + 4 * meta[M_MARGIN]
                                   >= ctx.drop_buf.shape[0]):
            return NEED_TRACE
        if ht[0] >= until:
            return DONE
        now, kind, a, b = heap_pop(ht, ctx.hs, ctx.hk, ctx.ha, ctx.hb, meta)
        g[G_NOW] = now
        meta[M_EVENTS] += 1
        if kind == EV_ARRIVE:
            arrive(now, a, b, ctx, rng)
        elif kind == EV_RTO:
            if b != fi[a, I_RTO_GEN]:
                continue
            if now < ff[a, F_RTO_DEADLINE] and ff[a, F_RTO_DEADLINE] != np.inf:
                ff[a, F_RTO_EVT] = ff[a, F_RTO_DEADLINE]
                push(ctx, ff[a, F_RTO_DEADLINE], EV_RTO, a, b)
                continue
            fi[a, I_RTO_PENDING] = 0
            if ff[a, F_RTO_DEADLINE] == np.inf or fi[a, I_ACTIVE] == 0:
                continue
            on_rto(now, a, ctx, rng)
        elif kind == EV_DEFER:
            if on_defer(now, a, b, ctx):
                meta[M_PENDING] = a + 1
                return NEED_LAW
        elif kind == EV_PACE:
            if b != fi[a, I_PACE_GEN] or fi[a, I_ACTIVE] == 0:
                continue
            on_pace(now, a, ctx, rng)
        elif kind == EV_START:
            fi[a, I_ACTIVE] = 1
            ff[a, F_ROUND_START] = now
            on_start(now, a, ctx, rng)
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
                for j in range(ctx.bott.shape[0]):
                    ctx.samp_q[k, j] = waiting(now, ctx.bott[j], ctx.ci, ctx.ring_s)
                meta[M_NSAMPLES] = k + 1
                push(ctx, now + g[G_SAMPLE_DT], EV_SAMPLE, 0, 0)
    if meta[M_UNDISPATCHED] != 0:
        return UNDISPATCHED
    return DONE
