# ctlcc.sim.senders.window - Reno, NewReno and Tahoe, and the window machinery
"""Loss-based window TCPs: Reno, NewReno, Tahoe (RFC 5681, RFC 6582).

Window senders count in packets: slow start (+1 per new ACK), congestion
avoidance (+1/cwnd per new ACK), fast retransmit on the third duplicate
ACK, fast recovery with window inflation (Reno: RFC 5681; NewReno: RFC
6582 with partial ACKs, the ``recover`` guard and the retransmission timer
restarted only by the first partial ACK of a recovery - §3.2 step 5, the
"Impatient" variant, as in ns-3; Tahoe: back to one packet, go-back-N),
optional limited transmit (RFC 3042), RTO per RFC 6298 with Karn's rule and
exponential backoff, go-back-N after a timeout.  The window rules are the
laws of :mod:`ctlcc.laws.tcp`, compiled in.

ECN (RFC 3168 §6.1.2), when the scenario's ``TcpOptions.ecn`` is on: the
data is ECN-capable (ECT) and an ACK that advances ``snd_una`` outside loss
recovery and carries ECE halves the window as a loss would - ssthresh =
max(FlightSize/2, 2), cwnd = ssthresh - without retransmitting, once per
window of data: until an ACK passes the highest segment sent at the cut,
further ECEs are ignored and the window does not grow (ns-3's and Linux's
``CWR`` state); the next new segment carries CWR (:func:`ecn_echo`).  A
loss inside that window is repaired and cuts as usual (as in ns-3.44;
RFC 3168 asks not to reduce ssthresh twice in one round trip).

This module also holds the ACK-clocked machinery the other window senders
(:mod:`ctlcc.sim.senders.vegas`, :mod:`ctlcc.sim.senders.stpd`) reuse:
:func:`new_ack` (estimator, recovery exit, partial ACKs), :func:`dup_ack`
(fast retransmit, inflation, limited transmit), :func:`ack_tail` (timer)
and :func:`timeout`.
"""

from dataclasses import dataclass

import numba
import numpy as np

from ...laws import tcp as law
from .._core.layout import (
    ECN_CAPABLE, ECN_ECE, ECN_SEND_CWR, I_ECN, I_ECN_CUTS, I_ECN_RECOVER,
    F_CWND, F_ROUND_MIN_RTT, F_ROUND_START, F_RTO, F_RTO_DEADLINE, F_SSTHRESH, G_DUPTHRESH,
    G_LIMITED, G_TIMESTAMPS, G_MAX_RTO, G_MAX_WINDOW, I_ACTIVE, I_DUPACKS, I_FAST_RETX, I_IN_RECOVERY,
    I_PARTIAL_SEEN, I_RECOVER, I_ROUND_ACKED, I_ROUND_END, I_ROUND_RTTS, I_SND_MAX, I_SND_NXT,
    I_SND_UNA, I_TIMEOUTS, NI_COMMON,
)
from .._core.net import arm, delay_sample, rto_estimate, send, try_send
from ._base import SenderSpec

__all__ = ["Reno", "NewReno", "Tahoe"]

# recovery after the duplicate-ACK threshold
REC_RENO, REC_NEWRENO, REC_TAHOE = 0, 1, 2
# what new_ack found
ACK_OPEN, ACK_RECOVERY, ACK_PARTIAL = 0, 1, 2

_inline = numba.njit(cache=True, inline="always")
_jit = numba.njit(cache=True)
increase = numba.njit(law.window_increase_core, cache=True, inline="always")
loss_ssthresh = numba.njit(law.loss_ssthresh_core, cache=True, inline="always")
recovery_window = numba.njit(law.fast_recovery_window_core, cache=True, inline="always")
partial_window = numba.njit(law.partial_ack_window_core, cache=True, inline="always")


# private int column: how fast recovery goes (REC_RENO, REC_NEWRENO, REC_TAHOE)
I_RECOVERY = NI_COMMON


@dataclass(frozen=True)
class Reno(SenderSpec):
    """TCP Reno (RFC 5681): fast recovery ends at the first new ACK."""

    name = "reno"
    int_columns = 1
    ecn_capable = True
    recovery = REC_RENO

    def init_flow(self, ff, fi, tab, j, tcp):
        init_window_flow(ff, fi, j, tcp)
        fi[j, I_RECOVERY] = self.recovery


@dataclass(frozen=True)
class NewReno(Reno):
    """TCP NewReno (RFC 6582): partial ACKs repair one hole per round trip."""

    name = "newreno"
    recovery = REC_NEWRENO


@dataclass(frozen=True)
class Tahoe(Reno):
    """TCP Tahoe: fast retransmit, then one packet and go-back-N (no fast recovery)."""

    name = "tahoe"
    recovery = REC_TAHOE


def init_window_flow(ff, fi, j, tcp):
    """Columns every window sender starts with."""
    ff[j, F_CWND] = tcp.initial_window
    ff[j, F_SSTHRESH] = tcp.max_window


# --- shared machinery -------------------------------------------------------------

@_inline
def new_ack(now, f, ack, sample, echo_retx, recovery, cut, ctx):
    """An ACK that advances snd_una: estimator, recovery exit or partial ACK.

    ``recovery`` is REC_RENO or REC_NEWRENO (how fast recovery ends);
    ``cut`` whether the window is deflated.  Returns ACK_OPEN (the sender
    was not in recovery: its growth rule applies), ACK_RECOVERY or
    ACK_PARTIAL.
    """
    ff, fi = ctx.ff, ctx.fi
    una = fi[f, I_SND_UNA]
    newly = ack - una
    fi[f, I_SND_UNA] = ack
    if fi[f, I_SND_NXT] < ack:
        fi[f, I_SND_NXT] = ack
    fi[f, I_ROUND_ACKED] += newly
    if echo_retx == 0 or ctx.g[G_TIMESTAMPS] > 0.0:  # RFC 6298 with Karn's rule / RFC 7323
        rto_estimate(f, sample, ctx)
    if fi[f, I_IN_RECOVERY] == 1:
        if recovery == REC_RENO:
            if cut:
                ff[f, F_CWND] = ff[f, F_SSTHRESH]
            fi[f, I_IN_RECOVERY] = 0
            return ACK_RECOVERY
        if ack > fi[f, I_RECOVER]:
            if cut:
                ff[f, F_CWND] = ff[f, F_SSTHRESH]
            fi[f, I_IN_RECOVERY] = 0
            return ACK_RECOVERY
        # NewReno partial ACK (RFC 6582 §3.2 step 5): retransmit the next hole
        send(now, f, ack, 1, 0, ctx)
        fi[f, I_PARTIAL_SEEN] += 1
        if cut:
            ff[f, F_CWND] = partial_window(ff[f, F_CWND], newly)
        return ACK_PARTIAL
    fi[f, I_DUPACKS] = 0
    return ACK_OPEN


@_inline
def ecn_echo(now, f, ack, ecn, ctx):
    """RFC 3168 §6.1.2 on an ACK that advanced ``snd_una`` to *ack* outside recovery.

    With ECE (*ecn*) and no reduction pending: ssthresh = max(FlightSize/2, 2)
    (FlightSize after the ACK, as ns-3's ``EnterCwr``), cwnd = ssthresh, no
    retransmission, CWR on the next new segment; the reduction holds until
    an ACK passes ``snd_max`` of the moment (``I_ECN_RECOVER``).  Returns
    True while it holds: the caller does not grow the window.
    """
    ff, fi = ctx.ff, ctx.fi
    point = fi[f, I_ECN_RECOVER]
    if point >= 0 and ack > point:
        fi[f, I_ECN_RECOVER] = -1   # the window of the reduction is acknowledged
        point = -1
    if point < 0 and ecn & ECN_ECE and fi[f, I_ECN] & ECN_CAPABLE:
        ff[f, F_SSTHRESH] = loss_ssthresh(fi[f, I_SND_MAX] - ack)
        ff[f, F_CWND] = ff[f, F_SSTHRESH]
        fi[f, I_ECN_RECOVER] = fi[f, I_SND_MAX]
        fi[f, I_ECN] |= ECN_SEND_CWR
        fi[f, I_ECN_CUTS] += 1
        return True
    return point >= 0


@_inline
def ack_tail(now, f, state, ctx):
    """After a new ACK: duplicate count, window ceiling, RFC 6298 §5.2/5.3 timer.

    RFC 6582 §3.2 step 5 ("Impatient" variant): of the partial ACKs of one
    recovery only the first restarts the timer, so a recovery with many
    holes (one repaired per RTT) ends in a timeout instead of lasting tens
    of round trips.
    """
    ff, fi = ctx.ff, ctx.fi
    partial = state == ACK_PARTIAL
    if not partial:
        fi[f, I_DUPACKS] = 0
    if ff[f, F_CWND] > ctx.g[G_MAX_WINDOW]:
        ff[f, F_CWND] = ctx.g[G_MAX_WINDOW]
    if fi[f, I_SND_UNA] >= fi[f, I_SND_MAX]:
        ff[f, F_RTO_DEADLINE] = np.inf
    elif not partial or fi[f, I_PARTIAL_SEEN] == 1:
        arm(now + ff[f, F_RTO], f, ctx)


@_inline
def new_round(now, f, ctx):
    """Start the next round trip (after the ACK beyond the round's highest sequence)."""
    ff, fi = ctx.ff, ctx.fi
    fi[f, I_ROUND_END] = fi[f, I_SND_MAX]
    fi[f, I_ROUND_ACKED] = 0
    fi[f, I_ROUND_RTTS] = 0
    ff[f, F_ROUND_MIN_RTT] = np.inf
    ff[f, F_ROUND_START] = now


@_inline
def dup_ack(now, f, recovery, cut, inflate, ctx):
    """A duplicate ACK: fast retransmit at the threshold, inflation, limited transmit."""
    ff, fi, g = ctx.ff, ctx.fi, ctx.g
    una = fi[f, I_SND_UNA]
    dupthresh = int(g[G_DUPTHRESH])
    fi[f, I_DUPACKS] += 1
    d = fi[f, I_DUPACKS]
    if d == dupthresh:
        half = loss_ssthresh(fi[f, I_SND_MAX] - una)
        if recovery == REC_TAHOE:
            if una > fi[f, I_RECOVER]:
                fi[f, I_FAST_RETX] += 1
                ff[f, F_SSTHRESH] = half
                ff[f, F_CWND] = 1.0
                fi[f, I_RECOVER] = fi[f, I_SND_MAX] - 1
                fi[f, I_SND_NXT] = una
                fi[f, I_ROUND_END] = fi[f, I_SND_MAX]
        elif recovery == REC_RENO:
            if fi[f, I_IN_RECOVERY] == 0:
                enter_recovery(now, f, una, half, dupthresh, cut, ctx)
        else:  # RFC 6582 guard against repeated recovery
            if fi[f, I_IN_RECOVERY] == 0 and una > fi[f, I_RECOVER]:
                enter_recovery(now, f, una, half, dupthresh, cut, ctx)
    elif d > dupthresh and fi[f, I_IN_RECOVERY] == 1 and inflate:
        ff[f, F_CWND] += 1.0  # window inflation
    elif d < dupthresh and g[G_LIMITED] > 0.0 and fi[f, I_IN_RECOVERY] == 0 \
            and fi[f, I_ACTIVE] == 1:
        # RFC 3042 limited transmit: one new segment per early duplicate ACK,
        # flight up to cwnd + 2
        seq = fi[f, I_SND_NXT]
        if seq == fi[f, I_SND_MAX] and seq < una + int(ff[f, F_CWND]) + d:
            send(now, f, seq, 0, 0, ctx)
            fi[f, I_SND_NXT] = seq + 1
            fi[f, I_SND_MAX] = seq + 1


@_inline
def enter_recovery(now, f, una, half, dupthresh, cut, ctx):
    ff, fi = ctx.ff, ctx.fi
    fi[f, I_FAST_RETX] += 1
    if cut:
        ff[f, F_SSTHRESH] = half
        ff[f, F_CWND] = recovery_window(half, dupthresh)
    fi[f, I_IN_RECOVERY] = 1
    fi[f, I_PARTIAL_SEEN] = 0
    fi[f, I_RECOVER] = fi[f, I_SND_MAX] - 1
    send(now, f, una, 1, 0, ctx)


@_inline
def ack_preamble(f, ack, sample, echo_retx, ctx):
    """Common start of a window sender's ACK: False when the flow has stopped."""
    fi = ctx.fi
    if fi[f, I_ACTIVE] == 0:
        if ack > fi[f, I_SND_UNA]:
            fi[f, I_SND_UNA] = ack
        return False
    # delay measurements: every ACK whose echoed segment was not retransmitted
    if echo_retx == 0:
        delay_sample(f, sample, ctx)
    return True


@_inline
def timeout(now, f, cut, ctx):
    """RFC 6298 §5.4-5.6 expiry + RFC 5681 (4): go-back-N from snd_una, window 1."""
    if timeout_window(now, f, cut, ctx):
        try_send(now, f, ctx)
        timeout_arm(now, f, ctx)


@_inline
def timeout_window(now, f, cut, ctx):
    """The state changes of an expiry; False when nothing was outstanding."""
    ff, fi, g = ctx.ff, ctx.fi, ctx.g
    flight = fi[f, I_SND_MAX] - fi[f, I_SND_UNA]
    if flight <= 0:
        ff[f, F_RTO_DEADLINE] = np.inf
        return False
    fi[f, I_TIMEOUTS] += 1
    if cut:
        ff[f, F_SSTHRESH] = loss_ssthresh(flight)
    ff[f, F_CWND] = 1.0
    fi[f, I_DUPACKS] = 0
    fi[f, I_IN_RECOVERY] = 0
    fi[f, I_RECOVER] = fi[f, I_SND_MAX] - 1
    fi[f, I_SND_NXT] = fi[f, I_SND_UNA]
    rto = ff[f, F_RTO] * 2.0
    ff[f, F_RTO] = rto if rto < g[G_MAX_RTO] else g[G_MAX_RTO]
    fi[f, I_ROUND_END] = fi[f, I_SND_MAX]
    ff[f, F_RTO_DEADLINE] = np.inf
    fi[f, I_ECN_RECOVER] = -1   # window 1 and slow start: no ECN reduction pending
    return True


@_inline
def timeout_arm(now, f, ctx):
    arm(now + ctx.ff[f, F_RTO], f, ctx)


# --- hooks of Reno / NewReno / Tahoe (the receiver: the cumulative-ACK default) ---------

@_inline
def on_start(now, f, ctx, rng):
    try_send(now, f, ctx)


@_inline
def on_ack(now, f, ack, ctx, rng):
    ff, fi = ctx.ff, ctx.fi
    seq = ack.seq
    if not ack_preamble(f, seq, ack.rtt, ack.retx, ctx):
        return
    recovery = fi[f, I_RECOVERY]
    una = fi[f, I_SND_UNA]
    if seq > una:
        state = new_ack(now, f, seq, ack.rtt, ack.retx, recovery, True, ctx)
        if state == ACK_OPEN and not ecn_echo(now, f, seq, ack.ecn, ctx):
            ff[f, F_CWND] = increase(ff[f, F_CWND], ff[f, F_SSTHRESH])
        ack_tail(now, f, state, ctx)
        if seq >= fi[f, I_ROUND_END]:
            new_round(now, f, ctx)
    elif seq == una and una < fi[f, I_SND_MAX]:
        dup_ack(now, f, recovery, True, True, ctx)
    try_send(now, f, ctx)


@_inline
def on_timer(now, f, ctx, rng):
    timeout(now, f, True, ctx)
