# ctlcc.sim.senders.tfrc - TCP-Friendly Rate Control (RFC 5348)
"""TFRC (RFC 5348): an equation-based paced sender and its receiver.

Sender (RFC 5348 §4): packets are paced one every ``1/X``; each carries
its send time and the sender's RTT estimate R (§3.2.1, in ``Q_AUX1``).  On
a feedback packet (§4.3): ``R_sample = now - t_recvdata`` (the receiver
answers on a data arrival, so ``t_delay = 0``), ``R`` through
:func:`~ctlcc.laws.tfrc.rtt_filter_core` (q = 0.9), the nofeedback
interval ``max(4 R, 2 s/X)`` with the rate held *before* the update
(:func:`~ctlcc.laws.tfrc.nofeedback_interval_core`), X_recv added to
X_recv_set and entries older than 2 R dropped (§4.3 step 4,
Update_X_recv_set; the newest entry is always kept), then
:func:`~ctlcc.laws.tfrc.feedback_update_core`: §4.2's ``X = W_init/R``
on the first feedback (``tld = -1`` until then), slow start doubling once
per RTT up to ``2 max(X_recv_set)`` while ``p = 0``, else the throughput
equation (:func:`~ctlcc.laws.tfrc.tfrc_rate_core`, b = 1, t_RTO = 4 R)
capped at ``2 max(X_recv_set)`` and floored at ``s/t_mbi``.  Initially
X = 1 packet/s, X_recv_set = {inf} and the nofeedback timer is 2 s
(§4.2).  When the timer expires, :func:`~ctlcc.laws.tfrc.nofeedback_core`
(§4.4) halves the rate or limits it through Update_Limits, which may
replace X_recv_set by a single value; the timer is restarted after
``max(4 R, 2 s/X)`` (2 s while no feedback has arrived).

Receiver (§5-6): a packet is lost when a later sequence number arrives
(the simulator's paths are FIFO and TFRC never retransmits, so the
NDUPACK = 3 reordering wait of §5.1 would only delay detection by two
packets; ctlcc detects at once).  The send times of lost packets are
interpolated between the neighbours received (§5.2); a lost packet whose
send time is more than R after the start of the current loss event starts
a new one (§5.2), closing the open loss interval at the distance in
sequence numbers between the two events' first lost packets (§5.3).  The
first loss interval is synthesised from the largest X_recv seen so far
(§6.3.1, :func:`~ctlcc.laws.tfrc.loss_interval_for_rate_core`).  The
loss-event rate is :func:`~ctlcc.laws.tfrc.loss_event_rate_core` on the
last ``n = 8`` intervals and the open one (§5.4).  Feedback (§6.2): on the
first data packet, once per R (from the data packets) afterwards, and at
once when a new loss event raises p (§6.1 step 4); on every packet while
the packets carry no R yet (the sender has had no feedback: a lost first
feedback must not silence the receiver); it carries the echoed
send time (``Q_ECHO``), X_recv = packets received since the previous
feedback over the time since it (``Q_AUX1``; 0 in the first feedback,
which measures nothing and is not added to X_recv_set) and p
(``Q_AUX2``).  A feedback is due at the first data arrival after its
timer (no separate receiver event).

Not implemented (the simulated senders are saturated): the data-limited
branches of §4.3 step 4 and the idle case of §4.4, §4.5's oscillation
reduction, §5.5's history discounting.  Sizes in packets (s = 1);
``segment_size`` in bytes only sets W_init = min(4 s, max(2 s, 4380 B)).
"""

from dataclasses import dataclass

import numba
import numpy as np

from ..._validation import check_positive
from ...laws import tfrc as law
from ...laws.tfrc import TfrcParams
from .._core.layout import (
    EV_PACE, F_CWND, F_RATE, F_SRTT, I_ACTIVE, I_PACE_GEN, I_RCV_NXT, I_UNIQUE, NF_COMMON,
    NI_COMMON, P_SEQ, Q_AUX1, Q_AUX2, Q_SENT_TIME,
)
from .._core.net import arm, emit_ack, push, release, repace, send_next_aux, turn_into_ack
from ._base import SenderSpec

__all__ = ["Tfrc", "X_RECV_SET"]

#: Entries of the X_recv set kept (a ring; with feedback once per RTT and
#: entries expiring after two, at most three are live). [1]
X_RECV_SET = 8

# private columns: sender
(F_R, F_TLD, F_P, F_LAST_SEND, F_T_MBI, F_Q, F_B, F_W_INIT, F_X_INIT,
 # receiver
 F_RX_R, F_RX_LAST_FB, F_RX_XMAX, F_RX_EVENT_T, F_RX_LAST_SENT, F_RX_P) = range(
    NF_COMMON, NF_COMMON + 15)
(I_HAS_FB, I_SET_HEAD, I_SET_COUNT, I_N, I_RX_SINCE_FB, I_RX_K, I_RX_EVENT_SEQ,
 I_RX_STARTED) = range(NI_COMMON, NI_COMMON + 8)
# rows of the flow's table
ROW_INTERVALS, ROW_SET_T, ROW_SET_X = 0, 1, 2

_inline = numba.njit(cache=True, inline="always")
_jit = numba.njit(cache=True)
rtt_filter = numba.njit(law.rtt_filter_core, cache=True, inline="always")
feedback_update = numba.njit(law.feedback_update_core, cache=True, inline="always")
nofeedback = numba.njit(law.nofeedback_core, cache=True, inline="always")
nofeedback_interval = numba.njit(law.nofeedback_interval_core, cache=True, inline="always")
loss_event_rate = numba.njit(law.loss_event_rate_core, cache=True, inline="always")
push_interval = numba.njit(law.push_loss_interval_core, cache=True, inline="always")
first_interval = numba.njit(law.loss_interval_for_rate_core, cache=True, inline="always")


@dataclass(frozen=True)
class Tfrc(SenderSpec):
    """TFRC (RFC 5348) with its receiver; the defaults are the RFC's.

    Attributes
    ----------
    segment_size : float
        Segment size in bytes, > 0; sets W_init = min(4, max(2, 4380/s))
        packets (RFC 3390). [B]
    t_mbi : float
        Maximum back-off interval, > 0: the rate never goes below one
        packet per t_mbi (64 s, §4.3). [s]
    n : int
        Loss intervals averaged, even, 2..:data:`~ctlcc.laws.tfrc.MAX_INTERVALS`
        (8, §5.4). [1]
    q : float
        RTT filter constant, in [0, 1) (0.9, §4.3). [1]
    b : float
        Packets per ACK in the equation, > 0 (1, §3.1). [1]
    initial_rate : float
        Rate before the first feedback, > 0 (1 packet/s, §4.2). [packets/s]

    References
    ----------
    S. Floyd, M. Handley, J. Padhye, J. Widmer, "TCP Friendly Rate Control
    (TFRC): Protocol Specification", RFC 5348, 2008, §3-6.

    Examples
    --------
    >>> Tfrc().params.initial_window
    4.0
    >>> Tfrc(n=3)
    Traceback (most recent call last):
    ...
    ctlcc.errors.ParameterError: n must be an even integer >= 2, got 3
    """

    name = "tfrc"
    window_based = False
    float_columns = 15
    int_columns = 8
    segment_size: float = 1000.0
    t_mbi: float = law.T_MBI
    n: int = law.N_INTERVALS
    q: float = law.RTT_FILTER_Q
    b: float = 1.0
    initial_rate: float = law.INITIAL_RATE

    def __post_init__(self):
        self.params  # noqa: B018 (TfrcParams validates every field, naming it)
        check_positive("initial_rate", self.initial_rate, scalar=True)

    @property
    def params(self):
        """The law's :class:`~ctlcc.laws.tfrc.TfrcParams`."""
        return TfrcParams(segment_size=self.segment_size, t_mbi=self.t_mbi, n=self.n, q=self.q,
                          b=self.b)

    def table_shape(self, tcp):
        """Rows: the loss-interval history (n + 1) and the X_recv ring (times, rates)."""
        return (3, max(self.n + 1, X_RECV_SET))

    def init_flow(self, ff, fi, tab, j, tcp):
        p = self.params
        ff[j, F_CWND] = np.nan
        ff[j, F_RATE] = self.initial_rate
        ff[j, F_X_INIT] = self.initial_rate
        ff[j, F_TLD] = -1.0
        ff[j, F_T_MBI], ff[j, F_Q], ff[j, F_B] = p.t_mbi, p.q, p.b
        ff[j, F_W_INIT] = p.initial_window
        ff[j, F_LAST_SEND] = -np.inf
        fi[j, I_N] = p.n
        fi[j, I_RX_EVENT_SEQ] = -1


# --- sender -------------------------------------------------------------------------------

@_inline
def on_start(now, f, ctx, rng):
    """X_recv_set = {inf}, nofeedback timer 2 s, first packet (§4.2)."""
    set_reset(now, f, np.inf, ctx)
    arm(now + nofeedback_interval(0.0, 1.0, ctx.ff[f, F_RATE], False), f, ctx)
    paced_send(now, f, ctx)


@_inline
def paced_send(now, f, ctx):
    """One packet carrying R, the next one after ``1/X``."""
    ff, fi = ctx.ff, ctx.fi
    if fi[f, I_ACTIVE] == 0:
        return
    send_next_aux(now, f, ff[f, F_R], ctx)
    ff[f, F_LAST_SEND] = now
    fi[f, I_PACE_GEN] += 1
    push(ctx, now + 1.0 / ff[f, F_RATE], EV_PACE, f, fi[f, I_PACE_GEN])


@_inline
def on_pace(now, f, ctx, rng):
    paced_send(now, f, ctx)


@_inline
def set_reset(now, f, value, ctx):
    ctx.tab[f, ROW_SET_T, 0] = now
    ctx.tab[f, ROW_SET_X, 0] = value
    ctx.fi[f, I_SET_HEAD] = 1
    ctx.fi[f, I_SET_COUNT] = 1


@_inline
def set_update(now, f, x_recv, horizon, ctx):
    """Add x_recv (if measured), drop entries older than *horizon*; return the max."""
    fi, tab = ctx.fi, ctx.tab
    size = X_RECV_SET
    head = fi[f, I_SET_HEAD]
    count = fi[f, I_SET_COUNT]
    if x_recv > 0.0:
        tab[f, ROW_SET_T, head] = now
        tab[f, ROW_SET_X, head] = x_recv
        head = (head + 1) % size
        fi[f, I_SET_HEAD] = head
        if count < size:
            count += 1
    while count > 1 and tab[f, ROW_SET_T, (head - count) % size] < now - horizon:
        count -= 1
    fi[f, I_SET_COUNT] = count
    best = 0.0
    for k in range(count):
        x = tab[f, ROW_SET_X, (head - 1 - k) % size]
        if x > best:
            best = x
    return best


@_inline
def on_ack(now, f, ack, ctx, rng):
    """A feedback packet (aux fields: X_recv and p)."""
    on_feedback(now, f, ack.rtt, ack.aux1, ack.aux2, ctx)


@_inline
def on_feedback(now, f, r_sample, x_recv, p, ctx):
    """§4.3 steps 1-6 on a feedback packet."""
    ff, fi = ctx.ff, ctx.fi
    has_rtt = ff[f, F_TLD] >= 0.0
    R = rtt_filter(ff[f, F_R], r_sample, ff[f, F_Q], has_rtt)
    ff[f, F_R] = R
    ff[f, F_SRTT] = R
    interval = nofeedback_interval(R, 1.0, ff[f, F_RATE], True)   # X before step 4
    x_max = set_update(now, f, x_recv, 2.0 * R, ctx)
    x, tld = feedback_update(ff[f, F_RATE], p, x_max, R, 1.0, ff[f, F_T_MBI], now,
                             ff[f, F_TLD], ff[f, F_W_INIT], ff[f, F_B])
    ff[f, F_RATE] = x
    ff[f, F_TLD] = tld
    ff[f, F_P] = p
    fi[f, I_HAS_FB] = 1
    repace(now, f, ctx.ff[f, F_LAST_SEND], ctx)
    if fi[f, I_ACTIVE] != 0:
        arm(now + interval, f, ctx)


@_inline
def on_timer(now, f, ctx, rng):
    """The nofeedback timer expired (§4.4)."""
    ff, fi = ctx.ff, ctx.fi
    has_fb = fi[f, I_HAS_FB] != 0
    x_max = set_update(now, f, 0.0, np.inf, ctx)
    x, xr = nofeedback(ff[f, F_RATE], ff[f, F_P], x_max, ff[f, F_R], 1.0, ff[f, F_T_MBI],
                       ff[f, F_W_INIT], has_fb, False, ff[f, F_B])
    if xr >= 0.0:
        set_reset(now, f, xr, ctx)
    ff[f, F_RATE] = x
    repace(now, f, ctx.ff[f, F_LAST_SEND], ctx)
    arm(now + nofeedback_interval(ff[f, F_R], 1.0, x, has_fb), f, ctx)


# --- receiver -----------------------------------------------------------------------------

@_inline
def on_data(now, f, p, ctx, rng):
    """Receiver (§5-6): loss events and intervals, p, feedback once per RTT."""
    ff, fi, pf, tab = ctx.ff, ctx.fi, ctx.pf, ctx.tab
    seq = ctx.pi[p, P_SEQ]
    fi[f, I_UNIQUE] += 1
    sent_time = pf[p, Q_SENT_TIME]
    if pf[p, Q_AUX1] > 0.0:
        ff[f, F_RX_R] = pf[p, Q_AUX1]
    R = ff[f, F_RX_R]
    n = fi[f, I_N]
    nxt = fi[f, I_RCV_NXT]
    p_before = ff[f, F_RX_P]
    new_event = False
    if seq > nxt:       # nxt .. seq - 1 lost (FIFO paths, no retransmissions)
        t0 = ff[f, F_RX_LAST_SENT]
        gap = seq - (nxt - 1)
        for lost in range(nxt, seq):
            t_lost = t0 + (sent_time - t0) * (lost - (nxt - 1)) / gap    # §5.2
            if fi[f, I_RX_EVENT_SEQ] < 0:                                # first loss event
                if R > 0.0:
                    closed = first_interval(ff[f, F_RX_XMAX], 1.0, R, ff[f, F_B])  # §6.3.1
                else:
                    closed = max(float(lost), 1.0)   # no RTT yet: the true first interval
            elif t_lost > ff[f, F_RX_EVENT_T] + R:
                closed = float(lost - fi[f, I_RX_EVENT_SEQ])                    # §5.3
            else:
                continue                              # same loss event
            fi[f, I_RX_K] = push_interval(tab[f, ROW_INTERVALS], fi[f, I_RX_K], n, closed,
                                          float(seq + 1 - lost))
            fi[f, I_RX_EVENT_SEQ] = lost
            ff[f, F_RX_EVENT_T] = t_lost
            new_event = True
    if seq >= nxt:
        fi[f, I_RCV_NXT] = seq + 1
        ff[f, F_RX_LAST_SENT] = sent_time
    if fi[f, I_RX_EVENT_SEQ] >= 0:
        tab[f, ROW_INTERVALS, 0] = float(fi[f, I_RCV_NXT] - fi[f, I_RX_EVENT_SEQ])
    p_now = loss_event_rate(tab[f, ROW_INTERVALS], fi[f, I_RX_K], n)
    ff[f, F_RX_P] = p_now
    fi[f, I_RX_SINCE_FB] += 1
    first = fi[f, I_RX_STARTED] == 0
    if not (first or (new_event and p_now > p_before) or R <= 0.0
            or now - ff[f, F_RX_LAST_FB] >= R):
        release(p, ctx.meta, ctx.free)
        return
    x_recv = 0.0
    if not first and now > ff[f, F_RX_LAST_FB]:
        x_recv = fi[f, I_RX_SINCE_FB] / (now - ff[f, F_RX_LAST_FB])
        if x_recv > ff[f, F_RX_XMAX]:
            ff[f, F_RX_XMAX] = x_recv
    fi[f, I_RX_STARTED] = 1
    fi[f, I_RX_SINCE_FB] = 0
    ff[f, F_RX_LAST_FB] = now
    turn_into_ack(now, p, f, ctx)
    pf[p, Q_AUX1] = x_recv
    pf[p, Q_AUX2] = p_now
    emit_ack(now, p, f, ctx)
