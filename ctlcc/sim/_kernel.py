# ctlcc.sim._kernel - the numba-compiled event loop of the packet engine
"""Numba event loop of :mod:`ctlcc.sim.engine` (private).

All state lives in numpy arrays owned by the Python driver; the loop runs
until the horizon or until it needs Python (a law from :mod:`ctlcc.laws`
to evaluate, a full packet pool, a full trace buffer), returns a code, and
is called again to resume.  Column indices below are compile-time
constants.

Timing model of a directed channel (FIFO, drop-tail): a packet arriving at
``t`` starts its transmission at ``max(t, end of the previous packet)``
and reaches the far node ``size/rate + delay`` later.  The ring of
``(start, end)`` of the packets still in the channel gives the occupancy
at any instant, so one event per packet per hop suffices.

Helpers on the per-event path are inlined at the numba IR level
(``inline="always"``): calls that pass thirty arrays otherwise cost
reference-count updates for each array and halved the event rate.
Helpers called from several places stay separate to bound compile time.
"""

import numba
import numpy as np

__all__ = []

# protocols
RENO, NEWRENO, TAHOE, VEGAS, STPD, PRIMO, CBR, POISSON = 0, 1, 2, 3, 4, 5, 6, 7
# event kinds
EV_ARRIVE, EV_RTO, EV_PACE, EV_START, EV_STOP, EV_SAMPLE, EV_LAW = 0, 1, 2, 3, 4, 5, 6
# return codes
DONE, NEED_LAW, NEED_POOL, NEED_TRACE = 0, 1, 2, 3
# law kinds
LAW_STPD, LAW_PRIMO_RATE, LAW_PRIMO_TIMEOUT = 1, 2, 3
# loss kinds
LOSS_NONE, LOSS_BERNOULLI, LOSS_GE, LOSS_LIST = 0, 1, 2, 3

# --- per-flow float columns (ff) ---
F_CWND, F_SSTHRESH, F_SRTT, F_RTTVAR, F_RTO, F_RTO_DEADLINE = 0, 1, 2, 3, 4, 5
F_MIN_RTT, F_LAST_RTT, F_ROUND_START, F_ROUND_MIN_RTT = 6, 7, 8, 9
F_START, F_STOP = 10, 11
F_RATE, F_FTT_REF, F_RTT_REF, F_RCV_RATE, F_PRIMO_TO, F_TAU = 12, 13, 14, 15, 16, 17
F_R_T1, F_R_LAST = 18, 19
F_LAW_A, F_LAW_B, F_LAW_C, F_LAW_D, F_LAW_E = 20, 21, 22, 23, 24
F_PREV_ERR, F_FIRST_RTT, F_RTO_EVT = 25, 26, 27
NF = 28
# --- per-flow int columns (fi) ---
I_PROTO, I_SND_UNA, I_SND_NXT, I_SND_MAX, I_DUPACKS, I_IN_RECOVERY, I_RECOVER = 0, 1, 2, 3, 4, 5, 6
I_RTO_GEN, I_RTO_PENDING, I_ACTIVE, I_ROUND_END, I_ROUND_ACKED, I_ROUND_RTTS = 7, 8, 9, 10, 11, 12
I_VEGAS_GROW, I_LAW_STATE, I_LAW_KIND, I_PACE_GEN = 13, 14, 15, 16
I_PHASE, I_RCV_NXT, I_R_BURST, I_RTT_SAMPLED = 17, 18, 19, 20
I_FWD_LEN, I_REV_LEN = 21, 22
I_SENT, I_RETX, I_DELIVERED, I_DROP_Q, I_DROP_L, I_ACK_SENT, I_ACK_DROP = 23, 24, 25, 26, 27, 28, 29
I_TIMEOUTS, I_FAST_RETX, I_ACKS_RECEIVED, I_UNIQUE = 30, 31, 32, 33
I_PH_HEAD, I_PH_COUNT, I_RH_HEAD, I_RH_COUNT = 34, 35, 36, 37
I_PARTIAL_SEEN = 38  # partial ACKs received in the current NewReno recovery
NI = 40
# --- per-channel float columns (cf) ---
C_RATE, C_DELAY, C_LAST_END, C_P, C_MEAN_GOOD, C_MEAN_BAD = 0, 1, 2, 3, 4, 5
C_LOSS_GOOD, C_LOSS_BAD, C_NEXT_SWITCH, C_WAIT_SUM, C_BUSY_SUM = 6, 7, 8, 9, 10
NCF = 12
# --- per-channel int columns (ci) ---
K_CAP, K_RING_OFF, K_RING_HEAD, K_RING_COUNT, K_LOSS_KIND, K_GE_BAD = 0, 1, 2, 3, 4, 5
K_ARRIVALS, K_DROPS, K_LOSSES, K_MAXQ, K_LIST_OFF, K_LIST_LEN, K_LIST_POS, K_SEEN = (
    6, 7, 8, 9, 10, 11, 12, 13)
NCI = 16
# --- packet columns ---
P_FLOW, P_SEQ, P_KIND, P_HOP, P_RETX, P_FLAG = 0, 1, 2, 3, 4, 5
NPI = 6
Q_SENT_TIME, Q_ECHO, Q_AUX1, Q_AUX2 = 0, 1, 2, 3
NPF = 4
# --- global meta (int) ---
M_HEAP, M_HEAP_SEQ, M_NFREE, M_EVENTS, M_NSAMPLES, M_TRACE, M_NRTT, M_NDROP = 0, 1, 2, 3, 4, 5, 6, 7
M_LAW_FLOW, M_MARGIN = 8, 9
NM = 12
# --- global params (float) ---
G_DATA_BITS, G_ACK_BITS, G_MIN_RTO, G_MAX_RTO, G_INIT_RTO = 0, 1, 2, 3, 4
G_ALPHA, G_BETA, G_GAMMA, G_MAX_WINDOW, G_DUPTHRESH, G_INIT_WINDOW, G_SAMPLE_DT, G_NOW = (
    5, 6, 7, 8, 9, 10, 11, 12)
G_RTT_EVERY, G_LIMITED = 13, 14
NG = 16

H_PRIMO = 4096  # history ring length for Primo's ΔFTT and rate lookups


@numba.njit(cache=True, inline="always")
def _heap_push(ht, hs, hk, ha, hb, meta, t, kind, a, b):
    n = meta[M_HEAP]
    seq = meta[M_HEAP_SEQ]
    meta[M_HEAP_SEQ] = seq + 1
    i = n
    meta[M_HEAP] = n + 1
    while i > 0:
        parent = (i - 1) >> 1
        if ht[parent] < t or (ht[parent] == t and hs[parent] < seq):
            break
        ht[i] = ht[parent]
        hs[i] = hs[parent]
        hk[i] = hk[parent]
        ha[i] = ha[parent]
        hb[i] = hb[parent]
        i = parent
    ht[i] = t
    hs[i] = seq
    hk[i] = kind
    ha[i] = a
    hb[i] = b


@numba.njit(cache=True, inline="always")
def _heap_pop(ht, hs, hk, ha, hb, meta):
    t0 = ht[0]
    k0 = hk[0]
    a0 = ha[0]
    b0 = hb[0]
    n = meta[M_HEAP] - 1
    meta[M_HEAP] = n
    if n > 0:
        t = ht[n]
        s = hs[n]
        k = hk[n]
        a = ha[n]
        b = hb[n]
        i = 0
        while True:
            c = 2 * i + 1
            if c >= n:
                break
            if c + 1 < n and (ht[c + 1] < ht[c] or (ht[c + 1] == ht[c] and hs[c + 1] < hs[c])):
                c += 1
            if ht[c] > t or (ht[c] == t and hs[c] > s):
                break
            ht[i] = ht[c]
            hs[i] = hs[c]
            hk[i] = hk[c]
            ha[i] = ha[c]
            hb[i] = hb[c]
            i = c
        ht[i] = t
        hs[i] = s
        hk[i] = k
        ha[i] = a
        hb[i] = b
    return t0, k0, a0, b0


@numba.njit(cache=True)
def run_kernel(until, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci, ring_s, ring_e,
               loss_list, ff, fi, fpath, rpath, rbits, ph_t, ph_v, rh_t, rh_v,
               bott, samp_t, samp_w, samp_r, samp_sent, samp_dlv, samp_q,
               rtt_buf, drop_buf, rng):
    """Process events with time < until; return (code, flow)."""
    while meta[M_HEAP] > 0:
        if meta[M_NFREE] < meta[M_MARGIN] or meta[M_HEAP] + meta[M_MARGIN] + 64 * ff.shape[0] \
                >= ht.shape[0]:
            return NEED_POOL
        if meta[M_TRACE] != 0 and (meta[M_NRTT] + 4 * meta[M_MARGIN] >= rtt_buf.shape[0]
                                   or meta[M_NDROP] + 4 * meta[M_MARGIN] >= drop_buf.shape[0]):
            return NEED_TRACE
        if ht[0] >= until:
            return DONE
        now, kind, a, b = _heap_pop(ht, hs, hk, ha, hb, meta)
        g[G_NOW] = now
        meta[M_EVENTS] += 1
        if kind == EV_ARRIVE:
            _arrive(now, a, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci, ring_s, ring_e,
                    loss_list, ff, fi, fpath, rpath, rbits, ph_t, ph_v, rtt_buf, drop_buf, rng)
        elif kind == EV_RTO:
            if b != fi[a, I_RTO_GEN]:
                continue
            if now < ff[a, F_RTO_DEADLINE] and ff[a, F_RTO_DEADLINE] != np.inf:
                ff[a, F_RTO_EVT] = ff[a, F_RTO_DEADLINE]
                _heap_push(ht, hs, hk, ha, hb, meta, ff[a, F_RTO_DEADLINE], EV_RTO, a, b)
                continue
            fi[a, I_RTO_PENDING] = 0
            if ff[a, F_RTO_DEADLINE] == np.inf or fi[a, I_ACTIVE] == 0:
                continue
            if fi[a, I_PROTO] == PRIMO:
                if fi[a, I_PHASE] == 0:
                    _primo_burst(now, a, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci,
                                 ring_s, ring_e, ff, fi, fpath, drop_buf)
                    _arm(now + ff[a, F_PRIMO_TO], a, ff, fi, meta, ht, hs, hk, ha, hb)
                else:
                    fi[a, I_LAW_STATE] = 1
                    fi[a, I_LAW_KIND] = LAW_PRIMO_TIMEOUT
                    meta[M_LAW_FLOW] = a
                    _heap_push(ht, hs, hk, ha, hb, meta, now, EV_LAW, a, 0)
                    return NEED_LAW
            else:
                _timeout(now, a, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci, ring_s,
                         ring_e, ff, fi, fpath, drop_buf)
        elif kind == EV_LAW:
            state = fi[a, I_LAW_STATE]
            if state == 1:
                # Python has not answered yet: ask again
                meta[M_LAW_FLOW] = a
                _heap_push(ht, hs, hk, ha, hb, meta, now, EV_LAW, a, 0)
                return NEED_LAW
            fi[a, I_LAW_STATE] = 0
            lk = fi[a, I_LAW_KIND]
            if lk == LAW_STPD:
                _try_send(now, a, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci, ring_s,
                          ring_e, ff, fi, fpath, drop_buf)
            elif lk == LAW_PRIMO_RATE:
                _primo_send(now, a, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci, ring_s,
                            ring_e, ff, fi, fpath, rh_t, rh_v, drop_buf)
            elif lk == LAW_PRIMO_TIMEOUT:
                _arm(now + ff[a, F_PRIMO_TO], a, ff, fi, meta, ht, hs, hk, ha, hb)
        elif kind == EV_PACE:
            if b != fi[a, I_PACE_GEN] or fi[a, I_ACTIVE] == 0:
                continue
            if fi[a, I_PROTO] >= CBR:
                _open_loop_send(now, a, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci,
                                ring_s, ring_e, ff, fi, fpath, drop_buf, rng)
                continue
            # stage Algorithm 1's inputs, ask Python for next_rate
            rtt_ref = ff[a, F_RTT_REF]
            ff[a, F_LAW_A] = _lookup(rh_t, rh_v, fi, a, I_RH_HEAD, I_RH_COUNT, now - rtt_ref,
                                     ff[a, F_RATE])
            ff[a, F_LAW_B] = ff[a, F_RATE]
            ff[a, F_LAW_C] = ff[a, F_RCV_RATE]
            ff[a, F_LAW_D] = _lookup(ph_t, ph_v, fi, a, I_PH_HEAD, I_PH_COUNT,
                                     now - rtt_ref * ff[a, F_TAU], 0.0)
            ff[a, F_LAW_E] = ff[a, F_FTT_REF]
            fi[a, I_LAW_STATE] = 1
            fi[a, I_LAW_KIND] = LAW_PRIMO_RATE
            meta[M_LAW_FLOW] = a
            _heap_push(ht, hs, hk, ha, hb, meta, now, EV_LAW, a, 0)
            return NEED_LAW
        elif kind == EV_START:
            fi[a, I_ACTIVE] = 1
            ff[a, F_ROUND_START] = now
            if fi[a, I_PROTO] >= CBR:
                _open_loop_send(now, a, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci,
                                ring_s, ring_e, ff, fi, fpath, drop_buf, rng)
            elif fi[a, I_PROTO] == PRIMO:
                ff[a, F_PRIMO_TO] = g[G_INIT_RTO]
                _primo_burst(now, a, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci,
                             ring_s, ring_e, ff, fi, fpath, drop_buf)
                _arm(now + ff[a, F_PRIMO_TO], a, ff, fi, meta, ht, hs, hk, ha, hb)
            else:
                _try_send(now, a, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci, ring_s,
                          ring_e, ff, fi, fpath, drop_buf)
        elif kind == EV_STOP:
            fi[a, I_ACTIVE] = 0
            ff[a, F_RTO_DEADLINE] = np.inf
            fi[a, I_PACE_GEN] += 1
        elif kind == EV_SAMPLE:
            k = meta[M_NSAMPLES]
            if k < samp_t.shape[0]:
                samp_t[k] = now
                for f in range(ff.shape[0]):
                    samp_w[k, f] = ff[f, F_CWND]
                    samp_r[k, f] = ff[f, F_RATE]
                    samp_sent[k, f] = fi[f, I_SENT]
                    samp_dlv[k, f] = fi[f, I_UNIQUE]
                for j in range(bott.shape[0]):
                    samp_q[k, j] = _waiting(now, bott[j], ci, ring_s)
                meta[M_NSAMPLES] = k + 1
                _heap_push(ht, hs, hk, ha, hb, meta, now + g[G_SAMPLE_DT], EV_SAMPLE, 0, 0)
    return DONE


@numba.njit(cache=True, inline="always")
def _lookup(ht_, hv, fi, f, head_col, count_col, target, default):
    """Newest history value recorded at or before *target* (oldest if none)."""
    count = fi[f, count_col]
    if count == 0:
        return default
    head = fi[f, head_col]
    size = ht_.shape[1]
    idx = (head - 1) % size
    for _ in range(count):
        if ht_[f, idx] <= target:
            return hv[f, idx]
        idx = (idx - 1) % size
    return hv[f, (head - count) % size]


@numba.njit(cache=True, inline="always")
def _record(ht_, hv, fi, f, head_col, count_col, t, v):
    size = ht_.shape[1]
    head = fi[f, head_col]
    ht_[f, head] = t
    hv[f, head] = v
    fi[f, head_col] = (head + 1) % size
    if fi[f, count_col] < size:
        fi[f, count_col] += 1


@numba.njit(cache=True)
def _waiting(now, c, ci, ring_s):
    """Packets waiting (not in transmission) in channel c at time now."""
    off = ci[c, K_RING_OFF]
    size = ci[c, K_CAP] + 1
    head = ci[c, K_RING_HEAD]
    count = ci[c, K_RING_COUNT]
    w = 0
    for k in range(count):
        if ring_s[off + (head + k) % size] > now:
            w += 1
    return w


@numba.njit(cache=True, inline="always")
def _alloc(meta, free):
    meta[M_NFREE] -= 1
    return free[meta[M_NFREE]]


@numba.njit(cache=True, inline="always")
def _release(p, meta, free):
    free[meta[M_NFREE]] = p
    meta[M_NFREE] += 1


@numba.njit(cache=True, inline="always")
def _enqueue(now, p, c, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci, ring_s, ring_e,
             fi, drop_buf):
    """Offer packet p to channel c at time now (drop-tail)."""
    off = ci[c, K_RING_OFF]
    size = ci[c, K_CAP] + 1
    head = ci[c, K_RING_HEAD]
    count = ci[c, K_RING_COUNT]
    while count > 0 and ring_e[off + head] <= now:
        head = (head + 1) % size
        count -= 1
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
        _log_drop(now, f, c, 0, pi[p, P_KIND], meta, drop_buf)
        _release(p, meta, free)
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
    _heap_push(ht, hs, hk, ha, hb, meta, end + cf[c, C_DELAY], EV_ARRIVE, p, c)


@numba.njit(cache=True, inline="always")
def _log_drop(now, f, c, how, pkind, meta, drop_buf):
    if meta[M_TRACE] != 0:
        k = meta[M_NDROP]
        drop_buf[k, 0] = now
        drop_buf[k, 1] = f
        drop_buf[k, 2] = c
        drop_buf[k, 3] = how * 2 + pkind  # 0 queue/data, 1 queue/ack, 2 loss/data
        meta[M_NDROP] = k + 1


@numba.njit(cache=True, inline="always")
def _lost(now, c, cf, ci, loss_list, rng):
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


@numba.njit(cache=True, inline="always")
def _arrive(now, p, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci, ring_s, ring_e,
            loss_list, ff, fi, fpath, rpath, rbits, ph_t, ph_v, rtt_buf, drop_buf, rng):
    """Packet p has crossed its current channel."""
    f = pi[p, P_FLOW]
    hop = pi[p, P_HOP]
    is_ack = pi[p, P_KIND] == 1
    c = rpath[f, hop] if is_ack else fpath[f, hop]
    if (not is_ack) and _lost(now, c, cf, ci, loss_list, rng):
        ci[c, K_LOSSES] += 1
        fi[f, I_DROP_L] += 1
        _log_drop(now, f, c, 1, 0, meta, drop_buf)
        _release(p, meta, free)
        return
    last = fi[f, I_REV_LEN] if is_ack else fi[f, I_FWD_LEN]
    if hop + 1 < last:
        pi[p, P_HOP] = hop + 1
        nc = rpath[f, hop + 1] if is_ack else fpath[f, hop + 1]
        _enqueue(now, p, nc, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci, ring_s, ring_e,
                 fi, drop_buf)
        return
    if is_ack:
        _on_ack(now, p, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci, ring_s, ring_e,
                ff, fi, fpath, ph_t, ph_v, rtt_buf, drop_buf)
    else:
        _on_data(now, p, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci, ring_s, ring_e,
                 ff, fi, rpath, rbits, drop_buf)


@numba.njit(cache=True, inline="always")
def _on_data(now, p, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci, ring_s, ring_e,
             ff, fi, rpath, rbits, drop_buf):
    """Receiver: cumulative ACK for every data packet (no delayed ACKs)."""
    f = pi[p, P_FLOW]
    seq = pi[p, P_SEQ]
    fi[f, I_DELIVERED] += 1
    nxt = fi[f, I_RCV_NXT]
    if fi[f, I_PROTO] >= CBR:  # open-loop source: no ACK
        fi[f, I_UNIQUE] += 1
        _release(p, meta, free)
        return
    if fi[f, I_PROTO] == PRIMO:  # unreliable, paced: count arrivals
        fi[f, I_UNIQUE] += 1
        if seq >= nxt:
            fi[f, I_RCV_NXT] = seq + 1
    else:
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
    # turn the data packet into its ACK (same pool slot)
    sent_time = pf[p, Q_SENT_TIME]
    pi[p, P_KIND] = 1
    pi[p, P_HOP] = 0
    pi[p, P_SEQ] = fi[f, I_RCV_NXT]
    pf[p, Q_ECHO] = sent_time
    if fi[f, I_PROTO] == PRIMO:
        ftt = now - sent_time
        last = ff[f, F_R_LAST]
        rate = (1.0 / (now - last)) if (last >= 0.0 and now > last) else 0.0
        ff[f, F_R_LAST] = now
        flag = pi[p, P_FLAG]
        pi[p, P_FLAG] = 0
        if flag > 0:  # packet of a start-up burst: flag = 1 + index in burst
            idx = flag - 1
            if idx == 0:
                ff[f, F_R_T1] = now
                fi[f, I_R_BURST] = seq
            elif idx == 3 and fi[f, I_R_BURST] == seq - 3 and now > ff[f, F_R_T1]:
                rate = 3.0 / (now - ff[f, F_R_T1])  # laws.primo.initial_rate in packets
                pi[p, P_FLAG] = 1
        pf[p, Q_AUX1] = ftt
        pf[p, Q_AUX2] = rate
    fi[f, I_ACK_SENT] += 1
    _enqueue(now, p, rpath[f, 0], g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci, ring_s,
             ring_e, fi, drop_buf)


@numba.njit(cache=True, inline="always")
def _arm(t, f, ff, fi, meta, ht, hs, hk, ha, hb):
    """(Re)start flow f's retransmission timer to fire at t.

    Lazy: a pending event earlier than t is kept and re-pushed when it
    fires early; a deadline earlier than the pending event gets a fresh
    event (the old one is made stale by the generation counter).
    """
    ff[f, F_RTO_DEADLINE] = t
    if fi[f, I_RTO_PENDING] == 0 or t < ff[f, F_RTO_EVT]:
        fi[f, I_RTO_GEN] += 1
        fi[f, I_RTO_PENDING] = 1
        ff[f, F_RTO_EVT] = t
        _heap_push(ht, hs, hk, ha, hb, meta, t, EV_RTO, f, fi[f, I_RTO_GEN])


@numba.njit(cache=True, inline="always")
def _send(now, f, seq, retx, flag, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci, ring_s,
          ring_e, fi, fpath, drop_buf):
    p = _alloc(meta, free)
    pi[p, P_FLOW] = f
    pi[p, P_SEQ] = seq
    pi[p, P_KIND] = 0
    pi[p, P_HOP] = 0
    pi[p, P_RETX] = retx
    pi[p, P_FLAG] = flag
    pf[p, Q_SENT_TIME] = now
    pf[p, Q_ECHO] = 0.0
    fi[f, I_SENT] += 1
    if retx:
        fi[f, I_RETX] += 1
    _enqueue(now, p, fpath[f, 0], g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci, ring_s,
             ring_e, fi, drop_buf)


@numba.njit(cache=True)
def _try_send(now, f, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci, ring_s, ring_e,
              ff, fi, fpath, drop_buf):
    """Window sender: send while the window allows."""
    if fi[f, I_ACTIVE] == 0:
        return
    window = int(ff[f, F_CWND])
    if window < 1:
        window = 1
    maxw = int(g[G_MAX_WINDOW])
    if window > maxw:
        window = maxw
    sent_any = False
    while fi[f, I_SND_NXT] < fi[f, I_SND_UNA] + window:
        seq = fi[f, I_SND_NXT]
        retx = 1 if seq < fi[f, I_SND_MAX] else 0
        _send(now, f, seq, retx, 0, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci, ring_s,
              ring_e, fi, fpath, drop_buf)
        fi[f, I_SND_NXT] = seq + 1
        if seq + 1 > fi[f, I_SND_MAX]:
            fi[f, I_SND_MAX] = seq + 1
        sent_any = True
    if sent_any and ff[f, F_RTO_DEADLINE] == np.inf:
        _arm(now + ff[f, F_RTO], f, ff, fi, meta, ht, hs, hk, ha, hb)


@numba.njit(cache=True)
def _timeout(now, f, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci, ring_s, ring_e,
             ff, fi, fpath, drop_buf):
    """RFC 6298 §5.4-5.6 expiry + RFC 5681 (4): go-back-N from snd_una."""
    proto = fi[f, I_PROTO]
    flight = fi[f, I_SND_MAX] - fi[f, I_SND_UNA]
    if flight <= 0:
        ff[f, F_RTO_DEADLINE] = np.inf
        return
    fi[f, I_TIMEOUTS] += 1
    if proto != STPD:
        half = flight / 2.0
        ff[f, F_SSTHRESH] = half if half > 2.0 else 2.0
    ff[f, F_CWND] = 1.0
    fi[f, I_DUPACKS] = 0
    fi[f, I_IN_RECOVERY] = 0
    fi[f, I_RECOVER] = fi[f, I_SND_MAX] - 1
    fi[f, I_SND_NXT] = fi[f, I_SND_UNA]
    rto = ff[f, F_RTO] * 2.0
    ff[f, F_RTO] = rto if rto < g[G_MAX_RTO] else g[G_MAX_RTO]
    fi[f, I_ROUND_END] = fi[f, I_SND_MAX]
    ff[f, F_RTO_DEADLINE] = np.inf
    _try_send(now, f, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci, ring_s, ring_e,
              ff, fi, fpath, drop_buf)
    _arm(now + ff[f, F_RTO], f, ff, fi, meta, ht, hs, hk, ha, hb)


@numba.njit(cache=True, inline="always")
def _on_ack(now, p, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci, ring_s, ring_e,
            ff, fi, fpath, ph_t, ph_v, rtt_buf, drop_buf):
    f = pi[p, P_FLOW]
    ack = pi[p, P_SEQ]
    echo = pf[p, Q_ECHO]
    echo_retx = pi[p, P_RETX]
    aux1 = pf[p, Q_AUX1]
    aux2 = pf[p, Q_AUX2]
    flag = pi[p, P_FLAG]
    _release(p, meta, free)
    fi[f, I_ACKS_RECEIVED] += 1
    proto = fi[f, I_PROTO]
    sample = now - echo
    if meta[M_TRACE] != 0 and fi[f, I_ACKS_RECEIVED] % int(g[G_RTT_EVERY]) == 0:
        k = meta[M_NRTT]
        rtt_buf[k, 0] = now
        rtt_buf[k, 1] = f
        rtt_buf[k, 2] = sample
        meta[M_NRTT] = k + 1
    if proto == PRIMO:
        _primo_ack(now, f, ack, sample, aux1, aux2, flag, g, meta, ht, hs, hk, ha, hb, ff, fi,
                   ph_t, ph_v)
        return
    if fi[f, I_ACTIVE] == 0:
        if ack > fi[f, I_SND_UNA]:
            fi[f, I_SND_UNA] = ack
        return
    # delay measurements: every ACK whose echoed segment was not retransmitted
    if echo_retx == 0:
        ff[f, F_LAST_RTT] = sample
        if sample < ff[f, F_MIN_RTT]:
            ff[f, F_MIN_RTT] = sample
        if sample < ff[f, F_ROUND_MIN_RTT]:
            ff[f, F_ROUND_MIN_RTT] = sample
        fi[f, I_ROUND_RTTS] += 1
    una = fi[f, I_SND_UNA]
    dupthresh = int(g[G_DUPTHRESH])
    if ack > una:
        newly = ack - una
        fi[f, I_SND_UNA] = ack
        if fi[f, I_SND_NXT] < ack:
            fi[f, I_SND_NXT] = ack
        fi[f, I_ROUND_ACKED] += newly
        # RFC 6298 estimator with Karn's rule
        if echo_retx == 0:
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
        partial = False
        if fi[f, I_IN_RECOVERY] == 1:
            if proto == RENO:
                ff[f, F_CWND] = ff[f, F_SSTHRESH]
                fi[f, I_IN_RECOVERY] = 0
            elif ack > fi[f, I_RECOVER]:
                if proto != STPD:
                    ff[f, F_CWND] = ff[f, F_SSTHRESH]
                fi[f, I_IN_RECOVERY] = 0
            else:
                # NewReno partial ACK (RFC 6582 §3.2 step 5): retransmit the next hole
                partial = True
                _send(now, f, ack, 1, 0, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci,
                      ring_s, ring_e, fi, fpath, drop_buf)
                fi[f, I_PARTIAL_SEEN] += 1
                if proto != STPD:
                    cw = ff[f, F_CWND] - newly + 1.0
                    ff[f, F_CWND] = cw if cw > 1.0 else 1.0
        else:
            fi[f, I_DUPACKS] = 0
            if proto == RENO or proto == NEWRENO or proto == TAHOE:
                if ff[f, F_CWND] < ff[f, F_SSTHRESH]:
                    ff[f, F_CWND] += 1.0
                else:
                    ff[f, F_CWND] += 1.0 / ff[f, F_CWND]
            elif proto == VEGAS:
                if ff[f, F_CWND] < ff[f, F_SSTHRESH] and fi[f, I_VEGAS_GROW] == 1:
                    ff[f, F_CWND] += 1.0
        if not partial:
            fi[f, I_DUPACKS] = 0
        if ff[f, F_CWND] > g[G_MAX_WINDOW]:
            ff[f, F_CWND] = g[G_MAX_WINDOW]
        # RFC 6298 §5.2/5.3; RFC 6582 §3.2 step 5 ("Impatient" variant): of the
        # partial ACKs of one recovery only the first restarts the timer, so a
        # recovery with many holes (one repaired per RTT) ends in a timeout
        # instead of lasting tens of round trips
        if fi[f, I_SND_UNA] >= fi[f, I_SND_MAX]:
            ff[f, F_RTO_DEADLINE] = np.inf
        elif not partial or fi[f, I_PARTIAL_SEEN] == 1:
            _arm(now + ff[f, F_RTO], f, ff, fi, meta, ht, hs, hk, ha, hb)
        # end of a round trip: per-RTT laws
        if ack >= fi[f, I_ROUND_END]:
            _round_end(now, f, g, meta, ht, hs, hk, ha, hb, ff, fi)
    elif ack == una and una < fi[f, I_SND_MAX]:
        fi[f, I_DUPACKS] += 1
        d = fi[f, I_DUPACKS]
        if d == dupthresh:
            flight = fi[f, I_SND_MAX] - una
            half = flight / 2.0
            if half < 2.0:
                half = 2.0
            if proto == TAHOE:
                if una > fi[f, I_RECOVER]:
                    fi[f, I_FAST_RETX] += 1
                    ff[f, F_SSTHRESH] = half
                    ff[f, F_CWND] = 1.0
                    fi[f, I_RECOVER] = fi[f, I_SND_MAX] - 1
                    fi[f, I_SND_NXT] = una
                    fi[f, I_ROUND_END] = fi[f, I_SND_MAX]
            elif proto == RENO:
                if fi[f, I_IN_RECOVERY] == 0:
                    fi[f, I_FAST_RETX] += 1
                    ff[f, F_SSTHRESH] = half
                    ff[f, F_CWND] = half + dupthresh
                    fi[f, I_IN_RECOVERY] = 1
                    fi[f, I_PARTIAL_SEEN] = 0
                    fi[f, I_RECOVER] = fi[f, I_SND_MAX] - 1
                    _send(now, f, una, 1, 0, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf,
                          ci, ring_s, ring_e, fi, fpath, drop_buf)
            else:  # NEWRENO, VEGAS, STPD: RFC 6582 guard against repeated recovery
                if fi[f, I_IN_RECOVERY] == 0 and una > fi[f, I_RECOVER]:
                    fi[f, I_FAST_RETX] += 1
                    if proto != STPD:
                        ff[f, F_SSTHRESH] = half
                        ff[f, F_CWND] = half + dupthresh
                    fi[f, I_IN_RECOVERY] = 1
                    fi[f, I_PARTIAL_SEEN] = 0
                    fi[f, I_RECOVER] = fi[f, I_SND_MAX] - 1
                    _send(now, f, una, 1, 0, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf,
                          ci, ring_s, ring_e, fi, fpath, drop_buf)
        elif d > dupthresh and fi[f, I_IN_RECOVERY] == 1 and proto != STPD:
            ff[f, F_CWND] += 1.0  # window inflation
        elif d < dupthresh and g[G_LIMITED] > 0.0 and fi[f, I_IN_RECOVERY] == 0 \
                and fi[f, I_ACTIVE] == 1:
            # RFC 3042 limited transmit: one new segment per early duplicate ACK,
            # flight up to cwnd + 2
            seq = fi[f, I_SND_NXT]
            if seq == fi[f, I_SND_MAX] and seq < una + int(ff[f, F_CWND]) + d:
                _send(now, f, seq, 0, 0, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci,
                      ring_s, ring_e, fi, fpath, drop_buf)
                fi[f, I_SND_NXT] = seq + 1
                fi[f, I_SND_MAX] = seq + 1
    _try_send(now, f, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci, ring_s, ring_e,
              ff, fi, fpath, drop_buf)


@numba.njit(cache=True, inline="always")
def _round_end(now, f, g, meta, ht, hs, hk, ha, hb, ff, fi):
    """Once per round trip (ACK beyond the round's highest sequence)."""
    proto = fi[f, I_PROTO]
    duration = now - ff[f, F_ROUND_START]
    if proto == VEGAS and fi[f, I_IN_RECOVERY] == 0 and fi[f, I_ROUND_RTTS] > 0:
        rtt = ff[f, F_ROUND_MIN_RTT]
        base = ff[f, F_MIN_RTT]
        cwnd = ff[f, F_CWND]
        diff = cwnd * (rtt - base) / rtt
        if cwnd < ff[f, F_SSTHRESH]:
            if diff > g[G_GAMMA]:
                target = cwnd * base / rtt + 1.0
                if target < cwnd:
                    ff[f, F_CWND] = target
                ss = ff[f, F_CWND] - 1.0
                ff[f, F_SSTHRESH] = ss if ss > 2.0 else 2.0
            fi[f, I_VEGAS_GROW] = 1 - fi[f, I_VEGAS_GROW]
        else:
            if diff > g[G_BETA]:
                ff[f, F_CWND] = cwnd - 1.0
            elif diff < g[G_ALPHA]:
                ff[f, F_CWND] = cwnd + 1.0
        if ff[f, F_CWND] < 2.0:
            ff[f, F_CWND] = 2.0
    elif proto == STPD and duration > 0.0 and fi[f, I_ROUND_RTTS] > 0:
        ff[f, F_LAW_A] = ff[f, F_LAST_RTT]
        ff[f, F_LAW_B] = ff[f, F_MIN_RTT]
        ff[f, F_LAW_C] = fi[f, I_ROUND_ACKED]
        ff[f, F_LAW_D] = duration
        fi[f, I_LAW_STATE] = 1
        fi[f, I_LAW_KIND] = LAW_STPD
        _heap_push(ht, hs, hk, ha, hb, meta, now, EV_LAW, f, 0)
    fi[f, I_ROUND_END] = fi[f, I_SND_MAX]
    fi[f, I_ROUND_ACKED] = 0
    fi[f, I_ROUND_RTTS] = 0
    ff[f, F_ROUND_MIN_RTT] = np.inf
    ff[f, F_ROUND_START] = now


@numba.njit(cache=True)
def _primo_burst(now, f, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci, ring_s, ring_e,
                 ff, fi, fpath, drop_buf):
    """Primo start-up: four back-to-back packets (§III-B)."""
    if fi[f, I_ACTIVE] == 0:
        return
    for k in range(4):
        seq = fi[f, I_SND_NXT]
        _send(now, f, seq, 0, k + 1, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci, ring_s,
              ring_e, fi, fpath, drop_buf)
        fi[f, I_SND_NXT] = seq + 1
        fi[f, I_SND_MAX] = seq + 1


@numba.njit(cache=True)
def _primo_ack(now, f, ack, rtt, ftt, rcv_rate, flag, g, meta, ht, hs, hk, ha, hb, ff, fi,
               ph_t, ph_v):
    """Primo source on an ACK: FTT_ref, ΔFTT history, RTT_ref, TO (§III-B)."""
    if ack > fi[f, I_SND_UNA]:
        fi[f, I_SND_UNA] = ack
    if fi[f, I_ACTIVE] == 0:
        return
    if ftt < ff[f, F_FTT_REF]:
        ff[f, F_FTT_REF] = ftt
    if rtt < ff[f, F_RTT_REF]:
        ff[f, F_RTT_REF] = rtt
    ff[f, F_LAST_RTT] = rtt
    _record(ph_t, ph_v, fi, f, I_PH_HEAD, I_PH_COUNT, now, ftt - ff[f, F_FTT_REF])
    if fi[f, I_PHASE] == 0:
        if flag == 1:
            ff[f, F_RATE] = rcv_rate
            ff[f, F_RCV_RATE] = rcv_rate
            fi[f, I_PHASE] = 1
            ff[f, F_PRIMO_TO] = rtt  # "the retransmission time out TO with the first RTT"
            fi[f, I_PACE_GEN] += 1
            _heap_push(ht, hs, hk, ha, hb, meta, now, EV_PACE, f, fi[f, I_PACE_GEN])
        else:
            return
    else:
        if rcv_rate > 0.0:
            ff[f, F_RCV_RATE] = rcv_rate
        ff[f, F_PRIMO_TO] = 2.0 * ff[f, F_RTT_REF]
    _arm(now + ff[f, F_PRIMO_TO], f, ff, fi, meta, ht, hs, hk, ha, hb)


@numba.njit(cache=True)
def _primo_send(now, f, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci, ring_s, ring_e,
                ff, fi, fpath, rh_t, rh_v, drop_buf):
    """Send one paced packet at the rate Python's next_rate just set."""
    if fi[f, I_ACTIVE] == 0:
        return
    rate = ff[f, F_RATE]
    _record(rh_t, rh_v, fi, f, I_RH_HEAD, I_RH_COUNT, now, rate)
    seq = fi[f, I_SND_NXT]
    _send(now, f, seq, 0, 0, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci, ring_s, ring_e,
          fi, fpath, drop_buf)
    fi[f, I_SND_NXT] = seq + 1
    fi[f, I_SND_MAX] = seq + 1
    gap = 1.0 / rate if rate > 0.0 else ff[f, F_PRIMO_TO]
    fi[f, I_PACE_GEN] += 1
    _heap_push(ht, hs, hk, ha, hb, meta, now + gap, EV_PACE, f, fi[f, I_PACE_GEN])
    if ff[f, F_RTO_DEADLINE] == np.inf:
        _arm(now + ff[f, F_PRIMO_TO], f, ff, fi, meta, ht, hs, hk, ha, hb)


@numba.njit(cache=True)
def _open_loop_send(now, f, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci, ring_s, ring_e,
                    ff, fi, fpath, drop_buf, rng):
    """CBR (gap 1/rate) or Poisson (exponential gaps) source: one packet."""
    seq = fi[f, I_SND_NXT]
    _send(now, f, seq, 0, 0, g, meta, ht, hs, hk, ha, hb, pi, pf, free, cf, ci, ring_s, ring_e,
          fi, fpath, drop_buf)
    fi[f, I_SND_NXT] = seq + 1
    fi[f, I_SND_MAX] = seq + 1
    rate = ff[f, F_RATE]
    gap = rng.exponential(1.0 / rate) if fi[f, I_PROTO] == POISSON else 1.0 / rate
    fi[f, I_PACE_GEN] += 1
    _heap_push(ht, hs, hk, ha, hb, meta, now + gap, EV_PACE, f, fi[f, I_PACE_GEN])
