# ctlcc.sim.senders.sack - NewReno window rules with SACK loss recovery (RFC 6675)
"""TCP with SACK-based loss recovery (RFC 6675) on NewReno's window rules.

The TCP the Primo paper (Chatté, Ducourthial & Niculescu 2006) calls
"Sack" and ns-3's default: growth and cuts of :mod:`ctlcc.laws.tcp`
(slow start, congestion avoidance, ssthresh = max(FlightSize/2, 2)), and
recovery driven by the RFC 6675 scoreboard of :mod:`ctlcc.laws.sack`,
whose cores (``IsLost``, ``SetPipe``, ``NextSeg`` rules 1-4,
``RecoveryPoint``) are compiled into the event loop - the same function
objects the law's tests check against the RFC text.

Receiver (RFC 2018).  Each ACK carries one SACK block ``[start, end)`` in
the packet columns ``Q_AUX1``/``Q_AUX2`` (segments; ``end <= start``: no
block).  RFC 2018 §4: the first block holds the segment that triggered the
ACK, unless that segment advanced the cumulative ACK; then ctlcc reports
the lowest block above the new cumulative ACK (the receiver keeps no list
of recent blocks).  The sender learns only what ACKs carry.

Cost of one block.  Without ACK loss one block per ACK rebuilds the
receiver's out-of-order map exactly (every out-of-order arrival is
reported, with its whole run, in the ACK it triggers).  A lost ACK loses
its information only when no later ACK re-reports the run: the next
arrival in the same run re-reports it whole, and a cumulative advance
re-reports the lowest run; a run that ends just before a lost ACK and lies
above another run stays unknown until the cumulative ACK reaches it.  A
real receiver sends 3-4 blocks (RFC 2018 §3) and loses less: under ACK
loss this sender may see fewer SACKed segments (later IsLost, a pipe
too large, a NextSeg rule 3 retransmission of data the receiver holds).

Sender (RFC 6675 §5), one scoreboard ring per flow (a row of the flow's table):

* every ACK updates the scoreboard (Update()); a cumulative ACK resets
  DupAcks; an ACK with newly SACKed segments is a duplicate ACK (§2),
  cumulative or not;
* outside recovery, a duplicate ACK increments DupAcks; recovery starts
  when DupAcks >= DupThresh or IsLost(HighACK + 1) (steps 1-2, and not
  before HighACK >= RecoveryPoint after a timeout, §5.1); else, with
  ``limited_transmit``, step (3): HighRxt = HighACK and new segments while
  cwnd - pipe >= 1 (RFC 3042 through the scoreboard);
* entry, step (4): RecoveryPoint = HighData, ssthresh = cwnd =
  max(FlightSize/2, 2) with FlightSize excluding the limited-transmit
  segments (RFC 5681 §3.2), retransmit HighACK + 1, HighRxt = RescueRxt =
  HighACK + 1, then step (C);
* in recovery, steps (B)-(C): SetPipe(), then while cwnd - pipe >= 1 the
  segment NextSeg() picks (rules 1-3; rule 4, the rescue retransmission,
  when ``rescue`` is True), pipe + 1 per segment; the window neither
  grows nor shrinks until recovery ends (A) with a cumulative ACK above
  RecoveryPoint, where NewReno's cwnd = ssthresh holds;
* with ``recovery="prr"`` (or ``"prr-crb"``) the window during recovery is
  RFC 6937's Proportional Rate Reduction instead (``sndcnt_core`` of
  :mod:`ctlcc.laws.prr` compiled in): at entry prr_delivered = 0,
  RecoverFS = snd.nxt - snd.una, the fast retransmission counts in prr_out;
  on every ACK of the recovery (the entering one included) prr_delivered +=
  DeliveredData (segments newly acknowledged cumulatively, not counting
  those SACKed before, + segments newly SACKed), pipe = SetPipe(), cwnd =
  pipe + max(sndcnt, 0), then step (C) and prr_out += what it sent; at the
  end cwnd = ssthresh.  ``recovery="prr-ns3"`` is ns-3.44's reading
  (``TcpPrrRecovery`` + ``TcpSocketBase``, from its source; the departures
  are listed in :mod:`ctlcc.laws.prr`): RecoverFS = the pipe at entry with
  the head counted lost, one segment added to DeliveredData per duplicate
  ACK while prr_delivered < RecoverFS, the bound max(prr_delivered -
  prr_out, DeliveredData) plus one on a "safe" ACK (one covering
  retransmitted data), sndcnt >= 1 before anything was sent, and on a
  partial ACK a retransmission outside PRR's count (DoRetransmit; ssthresh
  stays FlightSize/2, ns-3's pipe-based stale pipe is not modelled).  It
  moved the matrix's ``prr_bdp01`` by 2 % (docs/ns3_agreement.md).  The default stays RFC 6675's window: the Primo
  paper's SACK, ns-2's, and every ledger record and golden fingerprint made
  with this sender; ns-3.44's default is SACK + its PRR (the agreement
  matrix's ``prr_*`` scenarios compare the two, ``docs/ns3_agreement.md``);
* timeout (RFC 6298, RFC 5681 (4), RFC 6675 §5.1): as the window senders
  (cwnd = 1, go-back-N from HighACK + 1, RecoveryPoint = HighData) but
  ssthresh = max(pipe/2, 2), pipe from SetPipe() with nothing counted as
  resent: the data still in the network, without what the receiver holds
  (SACKed) or what IsLost() declares lost.  RFC 5681's FlightSize (all
  data not cumulatively acknowledged) counts SACKed data too: while a lost
  retransmission holds the cumulative ACK (RFC 6675 cannot detect it
  before the timer), NextSeg() rule 2 keeps sending new data and FlightSize
  grows far beyond the window - on thesis Fig. 3.7 with a 4-packet buffer
  it reached 136 segments, ssthresh 68, and the slow start that followed
  overflowed the buffer again: 20 timeouts and 294 drops in 30 s, against
  ns-3's 1 timeout and 60 drops; with this rule 1 timeout and 66 drops.
  (ns-3's TcpSocketBase sizes ssthresh on its BytesInFlight, which with
  SACK follows the scoreboard - not checked line by line.)  The scoreboard
  is kept, and segments it marks
  SACKed are skipped by the go-back-N (§5.1: "use this SACK information")
  though each still takes its place in the window (conservative; ns-3's
  post-timeout rules were not checked against its source).

Retransmission timer: RFC 6298 (5.3), restarted by every ACK of new data,
partial ACKs of a recovery included (RFC 6675 has no "Impatient" rule).

References
----------
RFC 6675 (Blanton, Allman, Wang, Jarvinen, Kojo, Nishida, 2012) §2, §4,
§5, §5.1; RFC 2018 (Mathis, Mahdavi, Floyd, Romanow, 1996) §3-4; RFC 5681
§3.1-3.2; RFC 3042; RFC 6298; RFC 6937 (Mathis, Dukkipati, Cheng, 2013) §3.
"""

import math
from dataclasses import dataclass

import numba
import numpy as np

from ..._validation import check_positive_int
from ...errors import ParameterError
from ...laws import prr as prr_law
from ...laws import sack as law
from ...laws.sack import RULE_NEW_DATA, RULE_NONE
from .._core.layout import (
    F_CWND, F_RTO, F_RTO_DEADLINE, F_SSTHRESH, G_MAX_WINDOW, G_TIMESTAMPS, I_ACTIVE, I_DUPACKS,
    I_FAST_RETX, I_IN_RECOVERY, I_RCV_NXT, I_RECOVER, I_ROUND_ACKED, I_ROUND_END, I_SND_MAX,
    I_SND_NXT, I_SND_UNA, NF_COMMON, NI_COMMON, P_SEQ, Q_AUX1, Q_AUX2,
)
from .._core.net import arm, cumulative_ack_receiver, emit_ack, rto_estimate, send
from . import window as W
from ._base import SenderSpec, check_option

__all__ = ["Sack"]

# private columns: options and PRR's state (float), recovery and receiver state (int)
F_SK_DUPTHRESH, F_SK_LIMITED, F_SK_RESCUE = NF_COMMON, NF_COMMON + 1, NF_COMMON + 2
F_SK_RECOVERY, F_PRR_DELIVERED, F_PRR_OUT, F_PRR_RECOVER_FS = range(NF_COMMON + 3,
                                                                   NF_COMMON + 7)
(I_HIGH_RXT, I_RESCUE_RXT, I_HIGH_SACK, I_LT_SENT, I_BLK_S, I_BLK_E,
 I_RCV_HIGH, I_BOARD) = range(NI_COMMON, NI_COMMON + 8)
#: Columns the SACK machinery uses (a sender built on it declares at least these).
FLOAT_COLUMNS, INT_COLUMNS = 7, 8

#: The recovery options: RFC 6675's window (cwnd = ssthresh from the start of recovery),
#: RFC 6937's PRR with the slow-start reduction bound, PRR with the conservative bound.
#: "prr-ns3": ns-3.44's TcpPrrRecovery and TcpSocketBase recovery as read from its source
#: (the module docstring; for the ns-3 agreement matrix, not an RFC).
RECOVERIES = ("rfc6675", "prr", "prr-crb", "prr-ns3")
REC_RFC6675, REC_PRR_SSRB, REC_PRR_CRB, REC_PRR_NS3 = 0.0, 1.0, 2.0, 3.0
_RECOVERY_CODE = {"rfc6675": REC_RFC6675, "prr": REC_PRR_SSRB, "prr-crb": REC_PRR_CRB,
                  "prr-ns3": REC_PRR_NS3}

_inline = numba.njit(cache=True, inline="always")
_jit = numba.njit(cache=True)
# the RFC 6675 cores of ctlcc.laws.sack, compiled in (no second copy)
mark_sacked = numba.njit(law.mark_sacked_core, cache=True, inline="always")
advance = numba.njit(law.advance_core, cache=True, inline="always")
pipe_of = numba.njit(law.pipe_core, cache=True)
next_seg = numba.njit(law.next_seg_core, cache=True)
rescue_seg = numba.njit(law.rescue_seg_core, cache=True)
enter_recovery = numba.njit(law.enter_recovery_core, cache=True)
recovery_done = numba.njit(law.recovery_done_core, cache=True, inline="always")
# RFC 6937's sndcnt of ctlcc.laws.prr, compiled in
prr_sndcnt = numba.njit(prr_law.sndcnt_core, cache=True, inline="always")
prr_sndcnt_ns3 = numba.njit(prr_law.sndcnt_ns3_core, cache=True, inline="always")
# NewReno's window rules of ctlcc.laws.tcp (the same objects window.py compiles)
increase, loss_ssthresh = W.increase, W.loss_ssthresh


@dataclass(frozen=True)
class Sack(SenderSpec):
    """NewReno window rules with RFC 6675 SACK loss recovery.

    Attributes
    ----------
    dupthresh : int or None
        DupThresh, >= 1; None takes the scenario's
        ``TcpOptions.dupack_threshold`` (3). [segments]
    limited_transmit : bool or None
        RFC 6675 §5 step (3) (limited transmit through the scoreboard);
        None takes the scenario's ``TcpOptions.limited_transmit``.
    rescue : bool
        NextSeg() rule 4, one rescue retransmission per recovery (a SHOULD
        of RFC 6675 §4).
    recovery : {"rfc6675", "prr", "prr-crb", "prr-ns3"}
        The window during loss recovery: RFC 6675's (cwnd = ssthresh from
        the start of recovery, the default: the Primo paper's and ns-2's
        SACK, and every ledger record made with this sender), RFC 6937's
        Proportional Rate Reduction with the slow-start reduction bound
        (PRR-SSRB, the RFC's recommendation; ns-3.44's default recovery is
        a PRR), or PRR with the conservative bound (PRR-CRB), or ns-3.44's
        PRR as read from its source (``"prr-ns3"``, for the agreement
        matrix).  See the module docstring.

    Examples
    --------
    >>> Sack().options()
    {'dupthresh': None, 'limited_transmit': None, 'rescue': True, 'recovery': 'rfc6675'}
    >>> Sack(dupthresh=0)
    Traceback (most recent call last):
    ...
    ctlcc.errors.ParameterError: dupthresh must be an integer >= 1 and <= 4096, got 0
    >>> Sack(limited_transmit="yes")
    Traceback (most recent call last):
    ...
    ctlcc.errors.ParameterError: limited_transmit must be one of None, True, False; got 'yes'
    >>> Sack(recovery="fack")
    Traceback (most recent call last):
    ...
    ctlcc.errors.ParameterError: recovery must be one of 'rfc6675', 'prr', 'prr-crb', 'prr-ns3'; got 'fack'
    """

    name = "sack"
    ecn_capable = True
    float_columns = FLOAT_COLUMNS
    int_columns = INT_COLUMNS
    dupthresh: int = None
    limited_transmit: bool = None
    rescue: bool = True
    recovery: str = "rfc6675"

    def __post_init__(self):
        if self.dupthresh is not None:
            object.__setattr__(self, "dupthresh",
                               check_positive_int("dupthresh", self.dupthresh, maximum=4096))
        if not (self.limited_transmit is None or isinstance(self.limited_transmit, bool)):
            raise ParameterError(f"limited_transmit must be one of None, True, False; "
                                 f"got {self.limited_transmit!r}")
        if not isinstance(self.rescue, bool):
            raise ParameterError(f"rescue must be one of True, False; got {self.rescue!r}")
        check_option("recovery", self.recovery, RECOVERIES)

    def table_shape(self, tcp):
        """One row: the RFC 6675 scoreboard ring (1.0 = SACKed), as long as the receiver's."""
        return (1, board_size(tcp))

    def init_flow(self, ff, fi, tab, j, tcp):
        init_sack_flow(ff, fi, j, tcp, self.dupthresh, self.limited_transmit, self.rescue,
                       self.recovery)


def init_sack_flow(ff, fi, j, tcp, dupthresh, limited_transmit, rescue, recovery):
    """The columns of the SACK machinery (a sender built on it calls this from init_flow)."""
    W.init_window_flow(ff, fi, j, tcp)
    fi[j, I_BOARD] = board_size(tcp)
    ff[j, F_SK_DUPTHRESH] = tcp.dupack_threshold if dupthresh is None else dupthresh
    lt = tcp.limited_transmit if limited_transmit is None else limited_transmit
    ff[j, F_SK_LIMITED] = 1.0 if lt else 0.0
    ff[j, F_SK_RESCUE] = 1.0 if rescue else 0.0
    ff[j, F_SK_RECOVERY] = _RECOVERY_CODE[recovery]
    fi[j, I_HIGH_RXT] = -1
    fi[j, I_RESCUE_RXT] = -1
    fi[j, I_HIGH_SACK] = -1
    fi[j, I_RCV_HIGH] = -1


def board_size(tcp):
    """Slots of the scoreboard ring: the receiver's ring (2 max_window + 2, rounded up to
    a power of two), so a flight of a whole window fits. [segments]"""
    return 1 << int(math.ceil(math.log2(2 * tcp.max_window + 2)))


@_inline
def scoreboard(f, ctx):
    """The flow's scoreboard ring (a row of its table, the ring's own length)."""
    return ctx.tab[f, 0, :ctx.fi[f, I_BOARD]]


# --- receiver (RFC 2018) -------------------------------------------------------------------

@_inline
def on_data(now, f, p, ctx, rng):
    """Cumulative ACK plus one SACK block (RFC 2018 §4) in Q_AUX1/Q_AUX2."""
    fi, rbits, pf = ctx.fi, ctx.rbits, ctx.pf
    seq = ctx.pi[p, P_SEQ]
    ring = rbits.shape[1]
    if seq > fi[f, I_RCV_HIGH] and seq < fi[f, I_RCV_NXT] + ring:
        fi[f, I_RCV_HIGH] = seq
    cumulative_ack_receiver(now, p, f, seq, ctx)
    nxt = fi[f, I_RCV_NXT]
    high = fi[f, I_RCV_HIGH]
    start, end = 0, 0
    if seq > nxt and seq < nxt + ring and rbits[f, seq % ring] != 0:
        # out of order: the run that holds seq
        if seq == fi[f, I_BLK_E] and fi[f, I_BLK_S] > nxt:
            start = fi[f, I_BLK_S]  # the run reported last grows at its end
        else:
            start = seq
            while start - 1 > nxt and rbits[f, (start - 1) % ring] != 0:
                start -= 1
        end = seq + 1
    else:
        # seq advanced the cumulative ACK (or was a duplicate): the lowest run above it
        s = nxt + 1
        while s <= high and rbits[f, s % ring] == 0:
            s += 1
        if s <= high:
            start = s
            end = s + 1
    if end > start:
        while end <= high and rbits[f, end % ring] != 0:
            end += 1
        fi[f, I_BLK_S] = start
        fi[f, I_BLK_E] = end
    pf[p, Q_AUX1] = start
    pf[p, Q_AUX2] = end
    emit_ack(now, p, f, ctx)


# --- sender -----------------------------------------------------------------------------
#
# The steps of the ACK path below are shared with the senders built on this machinery
# (CUBIC: ctlcc.sim.senders.cubic), which bring their own window growth and cut.

@_inline
def on_start(now, f, ctx, rng):
    send_window(now, f, ctx)


@_inline
def send_window(now, f, ctx):
    """Send while snd_nxt < snd_una + cwnd, skipping segments the scoreboard holds."""
    ff, fi = ctx.ff, ctx.fi
    if fi[f, I_ACTIVE] == 0:
        return
    board = scoreboard(f, ctx)
    cap = board.shape[0]
    window = int(ff[f, F_CWND])
    if window < 1:
        window = 1
    maxw = int(ctx.g[G_MAX_WINDOW])
    if window > maxw:
        window = maxw
    sent_any = False
    high_sack = fi[f, I_HIGH_SACK]
    while fi[f, I_SND_NXT] < fi[f, I_SND_UNA] + window:
        seq = fi[f, I_SND_NXT]
        fi[f, I_SND_NXT] = seq + 1
        if seq < fi[f, I_SND_MAX]:
            if seq <= high_sack and board[seq % cap]:
                continue  # SACKed: the receiver holds it (RFC 6675 §5.1)
            send(now, f, seq, 1, 0, ctx)
        else:
            send(now, f, seq, 0, 0, ctx)
            fi[f, I_SND_MAX] = seq + 1
        sent_any = True
    if sent_any and ff[f, F_RTO_DEADLINE] == np.inf:
        arm(now + ff[f, F_RTO], f, ctx)


@_inline
def can_send_new(f, ctx):
    """NextSeg() rule 2's condition: the flow runs and the receiver window allows."""
    fi = ctx.fi
    flight = fi[f, I_SND_MAX] - fi[f, I_SND_UNA]
    limit = int(ctx.g[G_MAX_WINDOW])
    cap = fi[f, I_BOARD]
    if limit > cap - 1:
        limit = cap - 1
    return fi[f, I_ACTIVE] == 1 and flight < limit


@_jit
def recovery_send(now, f, pipe, ctx):
    """RFC 6675 §5 step (C): NextSeg() while cwnd - pipe >= 1 segment; returns how many
    segments went out."""
    ff, fi = ctx.ff, ctx.fi
    board = scoreboard(f, ctx)
    dupthresh = int(ff[f, F_SK_DUPTHRESH])
    sent = 0
    while ff[f, F_CWND] - pipe >= 1.0:
        una = fi[f, I_SND_UNA]
        high_data = fi[f, I_SND_MAX] - 1
        seq, rule = next_seg(board, una, high_data, fi[f, I_HIGH_RXT], dupthresh,
                             can_send_new(f, ctx))
        if rule == RULE_NONE:
            if ff[f, F_SK_RESCUE] == 0.0:
                break
            seq = rescue_seg(board, una, high_data, fi[f, I_RESCUE_RXT])
            if seq < 0:
                break
            fi[f, I_RESCUE_RXT] = fi[f, I_RECOVER]  # rule 4: RescueRxt = RecoveryPoint
            send(now, f, seq, 1, 0, ctx)
        elif rule == RULE_NEW_DATA:
            send(now, f, seq, 0, 0, ctx)
            fi[f, I_SND_NXT] = seq + 1
            fi[f, I_SND_MAX] = seq + 1
        else:  # rules 1 and 3 (C.2)
            fi[f, I_HIGH_RXT] = seq
            send(now, f, seq, 1, 0, ctx)
        pipe += 1  # (C.4)
        sent += 1
    if sent > 0 and ff[f, F_RTO_DEADLINE] == np.inf:
        arm(now + ff[f, F_RTO], f, ctx)
    return sent


@_jit
def duplicate(now, f, ctx):
    """RFC 6675 §5 steps (1)-(3) for a duplicate ACK outside recovery.

    Returns True when loss recovery must start (steps (1)-(2)); the caller
    then calls :func:`enter` with its congestion control's ssthresh.  Else
    step (3), limited transmit through the scoreboard, when enabled.
    """
    ff, fi = ctx.ff, ctx.fi
    board = scoreboard(f, ctx)
    una = fi[f, I_SND_UNA]
    high_data = fi[f, I_SND_MAX] - 1
    dupthresh = int(ff[f, F_SK_DUPTHRESH])
    fi[f, I_DUPACKS] += 1
    if enter_recovery(fi[f, I_DUPACKS], board, una, high_data, dupthresh):
        return True
    if ff[f, F_SK_LIMITED] > 0.0:
        # (3): HighRxt = HighACK, new data while cwnd - pipe >= 1
        fi[f, I_HIGH_RXT] = una - 1
        pipe = pipe_of(board, una, high_data, una - 1, dupthresh)
        while ff[f, F_CWND] - pipe >= 1.0 and can_send_new(f, ctx):
            seq = fi[f, I_SND_MAX]
            send(now, f, seq, 0, 0, ctx)
            fi[f, I_SND_NXT] = seq + 1
            fi[f, I_SND_MAX] = seq + 1
            fi[f, I_LT_SENT] += 1
            pipe += 1
        if ff[f, F_RTO_DEADLINE] == np.inf:
            arm(now + ff[f, F_RTO], f, ctx)
    return False


@_inline
def flight_size(f, ctx):
    """RFC 5681's FlightSize at the start of recovery, without the limited-transmit
    segments (RFC 5681 §3.2). [segments]"""
    fi = ctx.fi
    return fi[f, I_SND_MAX] - fi[f, I_SND_UNA] - fi[f, I_LT_SENT]


@_jit
def enter(now, f, ssthresh, delivered, ctx):
    """RFC 6675 §5 step (4) with the congestion control's *ssthresh* [segments].

    (4.1) RecoveryPoint = HighData; (4.2) ssthresh; (4.3) retransmit
    HighACK + 1; (4.4)-(4.5) SetPipe() and step (C).  With RFC 6675's
    window cwnd = ssthresh; with PRR (RFC 6937 §3) prr_delivered = prr_out
    = 0, RecoverFS = snd.nxt - snd.una, the retransmission counts in
    prr_out, and the entering ACK is PRR's first (*delivered*: its
    DeliveredData [segments]).
    """
    ff, fi = ctx.ff, ctx.fi
    board = scoreboard(f, ctx)
    una = fi[f, I_SND_UNA]
    high_data = fi[f, I_SND_MAX] - 1
    fi[f, I_FAST_RETX] += 1
    fi[f, I_RECOVER] = high_data
    ff[f, F_SSTHRESH] = ssthresh
    fi[f, I_IN_RECOVERY] = 1
    fi[f, I_HIGH_RXT] = una
    fi[f, I_RESCUE_RXT] = una
    if ff[f, F_SK_RECOVERY] == REC_RFC6675:
        ff[f, F_CWND] = ssthresh
        send(now, f, una, 1, 0, ctx)
        recovery_send(now, f, pipe_of(board, una, high_data, una, int(ff[f, F_SK_DUPTHRESH])),
                      ctx)
        return
    ff[f, F_PRR_DELIVERED] = 0.0
    if ff[f, F_SK_RECOVERY] == REC_PRR_NS3:
        enter_ns3(now, f, delivered, ctx)
        return
    ff[f, F_PRR_RECOVER_FS] = float(fi[f, I_SND_MAX] - una)
    send(now, f, una, 1, 0, ctx)  # the fast retransmission, whatever sndcnt says
    ff[f, F_PRR_OUT] = 1.0
    prr_ack(now, f, delivered, ctx)


@_jit
def prr_ack(now, f, delivered, ctx):
    """RFC 6937 §3 on one ACK of a recovery: prr_delivered, pipe, sndcnt, cwnd = pipe +
    sndcnt, then step (C) (NextSeg() while cwnd - pipe >= 1), prr_out += what it sent."""
    ff, fi = ctx.ff, ctx.fi
    board = scoreboard(f, ctx)
    una = fi[f, I_SND_UNA]
    pipe = pipe_of(board, una, fi[f, I_SND_MAX] - 1, fi[f, I_HIGH_RXT],
                   int(ff[f, F_SK_DUPTHRESH]))
    ff[f, F_PRR_DELIVERED] += delivered
    count = prr_sndcnt(ff[f, F_PRR_DELIVERED], ff[f, F_PRR_OUT], delivered, float(pipe),
                       ff[f, F_SSTHRESH], ff[f, F_PRR_RECOVER_FS],
                       ff[f, F_SK_RECOVERY] == REC_PRR_CRB)
    if count < 0.0:
        count = 0.0
    ff[f, F_CWND] = pipe + count
    ff[f, F_PRR_OUT] += recovery_send(now, f, pipe, ctx)


@_jit
def prr_ns3_step(f, delivered, pipe, safe, ctx):
    """ns-3.44's DoRecovery: prr_delivered += delivered, cwnd = pipe + sendCount."""
    ff = ctx.ff
    if delivered <= 0.0:
        return
    ff[f, F_PRR_DELIVERED] += delivered
    count = prr_sndcnt_ns3(ff[f, F_PRR_DELIVERED], ff[f, F_PRR_OUT], delivered, float(pipe),
                           ff[f, F_SSTHRESH], ff[f, F_PRR_RECOVER_FS], safe)
    if count < 0.0:
        count = 0.0
    ff[f, F_CWND] = pipe + count


@_jit
def enter_ns3(now, f, delivered, ctx):
    """ns-3.44's EnterRecovery with TcpPrrRecovery: the head marked lost, RecoverFS = the
    pipe then (BytesInFlight), DoRecovery(isDupAck) with one segment added to
    DeliveredData, the head retransmitted, then step (C)."""
    ff, fi = ctx.ff, ctx.fi
    board = scoreboard(f, ctx)
    una = fi[f, I_SND_UNA]
    dupthresh = int(ff[f, F_SK_DUPTHRESH])
    pipe = pipe_of(board, una + 1, fi[f, I_SND_MAX] - 1, una, dupthresh)  # head lost
    ff[f, F_PRR_RECOVER_FS] = float(pipe) if pipe > 0 else 1.0
    ff[f, F_PRR_OUT] = 0.0
    prr_ns3_step(f, delivered + 1.0, pipe, False, ctx)
    send(now, f, una, 1, 0, ctx)
    ff[f, F_PRR_OUT] = 1.0
    ff[f, F_PRR_OUT] += recovery_send(now, f, pipe + 1, ctx)


@_jit
def prr_ns3_ack(now, f, acked, newly, delivered, ctx):
    """An ACK of a recovery in ns-3.44 (TcpSocketBase::ProcessAck, TcpPrrRecovery): a
    duplicate ACK (new SACK information) runs DoRecovery with one segment added to
    DeliveredData while prr_delivered < RecoverFS; a partial ACK runs it again without
    (safeACK when it covers retransmitted data) and retransmits the first lost segment
    not yet retransmitted, else the head, unless the head was retransmitted (DoRetransmit,
    outside PRR's count); then step (C)."""
    ff, fi = ctx.ff, ctx.fi
    board = scoreboard(f, ctx)
    una = fi[f, I_SND_UNA]
    high_data = fi[f, I_SND_MAX] - 1
    dupthresh = int(ff[f, F_SK_DUPTHRESH])
    pipe = pipe_of(board, una, high_data, fi[f, I_HIGH_RXT], dupthresh)
    if newly > 0:
        extra = 1.0 if ff[f, F_PRR_DELIVERED] < ff[f, F_PRR_RECOVER_FS] else 0.0
        prr_ns3_step(f, delivered + extra, pipe, False, ctx)
    if acked > 0:
        high_rxt = fi[f, I_HIGH_RXT]
        safe = high_rxt >= una - acked and high_rxt < una
        prr_ns3_step(f, delivered, pipe, safe, ctx)
        if una <= high_data and not (high_rxt >= una):
            seq, rule = next_seg(board, una, high_data, high_rxt, dupthresh, False)
            if rule != 1:
                seq = una
            if seq > fi[f, I_HIGH_RXT]:
                fi[f, I_HIGH_RXT] = seq
            send(now, f, seq, 1, 0, ctx)
            ff[f, F_PRR_OUT] += 1.0
            pipe += 1
    ff[f, F_PRR_OUT] += recovery_send(now, f, pipe, ctx)


@_inline
def recovery_ack(now, f, delivered, ctx, acked=0, newly=0):
    """RFC 6675 §5 steps (B)-(C) on an ACK that does not end recovery (PRR's window when
    the flow recovers with PRR)."""
    ff, fi = ctx.ff, ctx.fi
    if ff[f, F_SK_RECOVERY] == REC_PRR_NS3:
        prr_ns3_ack(now, f, acked, newly, delivered, ctx)
    elif ff[f, F_SK_RECOVERY] == REC_RFC6675:
        recovery_send(now, f, pipe_of(scoreboard(f, ctx), fi[f, I_SND_UNA],
                                      fi[f, I_SND_MAX] - 1, fi[f, I_HIGH_RXT],
                                      int(ff[f, F_SK_DUPTHRESH])), ctx)
    else:
        prr_ack(now, f, delivered, ctx)


@_inline
def sacked_below(board, una, top):
    """Segments in [una, top) the scoreboard marks SACKed. [segments]"""
    cap = board.shape[0]
    n = 0
    for seq in range(una, top):
        if board[seq % cap]:
            n += 1
    return n


@_inline
def update(now, f, record, ctx):
    """The start of every ACK: delay sample, Update() of the scoreboard, RFC 6298 estimator.

    Returns ``(go, acked, newly, delivered)``: False when the flow has
    stopped; the segments the cumulative ACK advanced; the segments this
    ACK newly SACKs; RFC 6937's DeliveredData (the change in snd.una plus
    the change in SACKed segments) [segments].
    """
    ff, fi = ctx.ff, ctx.fi
    ack, sample, echo_retx, aux1, aux2 = (record.seq, record.rtt, record.retx, record.aux1,
                                          record.aux2)
    if not W.ack_preamble(f, ack, sample, echo_retx, ctx):
        return False, 0, 0, 0.0
    board = scoreboard(f, ctx)
    una = fi[f, I_SND_UNA]
    acked = 0
    passed = 0
    if ack > una:
        acked = ack - una
        # Update(): the cumulative ACK clears the flags it passes
        if fi[f, I_HIGH_SACK] >= una:
            top = fi[f, I_HIGH_SACK] + 1
            if ack < top:
                top = ack
            passed = sacked_below(board, una, top)
            advance(board, una, top)
        fi[f, I_SND_UNA] = ack
        if fi[f, I_SND_NXT] < ack:
            fi[f, I_SND_NXT] = ack
        fi[f, I_ROUND_ACKED] += acked
        if echo_retx == 0 or ctx.g[G_TIMESTAMPS] > 0.0:  # RFC 6298 with Karn's rule / RFC 7323
            rto_estimate(f, sample, ctx)
        fi[f, I_DUPACKS] = 0
        fi[f, I_LT_SENT] = 0
        una = ack
    # Update(): the SACK block, within [una, HighData]
    newly = 0
    start = int(aux1)
    end = int(aux2)
    if start < una:
        start = una
    if end > fi[f, I_SND_MAX]:
        end = fi[f, I_SND_MAX]
    if end > start:
        newly = mark_sacked(board, start, end)
        if end - 1 > fi[f, I_HIGH_SACK]:
            fi[f, I_HIGH_SACK] = end - 1
    return True, acked, newly, float(acked - passed + newly)


@_inline
def exit_recovery(f, ctx):
    """RFC 6675 §5 (A): recovery ends; cwnd = ssthresh (NewReno's and RFC 6937's rule)."""
    ctx.fi[f, I_IN_RECOVERY] = 0
    ctx.ff[f, F_CWND] = ctx.ff[f, F_SSTHRESH]


@_inline
def is_duplicate(f, newly, ctx):
    """An ACK with new SACK information outside recovery (RFC 6675 §2), cumulative or not,
    once HighACK has passed the RecoveryPoint of the last recovery or timeout (§5.1)."""
    fi = ctx.fi
    una = fi[f, I_SND_UNA]
    return (newly > 0 and una < fi[f, I_SND_MAX] and una > fi[f, I_RECOVER]
            and fi[f, I_IN_RECOVERY] == 0)


@_inline
def ack_end(now, f, acked, ctx):
    """After the window rules: send (outside recovery), the timer, the round-trip mark."""
    ff, fi = ctx.ff, ctx.fi
    if fi[f, I_IN_RECOVERY] == 0:
        if ff[f, F_CWND] > ctx.g[G_MAX_WINDOW]:
            ff[f, F_CWND] = ctx.g[G_MAX_WINDOW]
        send_window(now, f, ctx)
    timer(now, f, acked > 0, ctx)
    if acked > 0 and fi[f, I_SND_UNA] >= fi[f, I_ROUND_END]:
        W.new_round(now, f, ctx)


@_inline
def on_ack(now, f, record, ctx, rng):
    ff, fi = ctx.ff, ctx.fi
    go, acked, newly, delivered = update(now, f, record, ctx)
    if not go:
        return
    if fi[f, I_IN_RECOVERY] == 1:
        if recovery_done(fi[f, I_SND_UNA], fi[f, I_RECOVER]):  # (A)
            exit_recovery(f, ctx)
        else:  # (B)-(C)
            recovery_ack(now, f, delivered, ctx, acked, newly)
            timer(now, f, acked > 0, ctx)
            return
    elif acked > 0 and not W.ecn_echo(now, f, record.seq, record.ecn, ctx):  # RFC 3168 §6.1.2
        ff[f, F_CWND] = increase(ff[f, F_CWND], ff[f, F_SSTHRESH])
    if is_duplicate(f, newly, ctx):  # (§2: new SACK information, cumulative or not)
        if duplicate(now, f, ctx):
            # (4.2) ssthresh = cwnd = max(FlightSize / 2, 2)
            enter(now, f, loss_ssthresh(flight_size(f, ctx)), delivered, ctx)
    ack_end(now, f, acked, ctx)


@_inline
def timer(now, f, cumulative, ctx):
    """RFC 6298 (5.2)-(5.3): stop when all is acknowledged, restart on new data."""
    ff, fi = ctx.ff, ctx.fi
    if fi[f, I_SND_UNA] >= fi[f, I_SND_MAX]:
        ff[f, F_RTO_DEADLINE] = np.inf
    elif cumulative:
        arm(now + ff[f, F_RTO], f, ctx)


@_inline
def in_network(f, ctx):
    """SetPipe() with nothing counted as resent: the data still in the network, without
    what the receiver holds (SACKed) or what IsLost() declares lost. [segments]"""
    ff, fi = ctx.ff, ctx.fi
    una = fi[f, I_SND_UNA]
    return pipe_of(scoreboard(f, ctx), una, fi[f, I_SND_MAX] - 1, una - 1,
                   int(ff[f, F_SK_DUPTHRESH]))


@_inline
def timeout_restart(now, f, una, ctx):
    """After an expiry's state changes: go-back-N from HighACK + 1 past SACKed data."""
    fi = ctx.fi
    fi[f, I_HIGH_RXT] = una - 1
    fi[f, I_LT_SENT] = 0
    send_window(now, f, ctx)
    W.timeout_arm(now, f, ctx)


@_jit
def on_timer(now, f, ctx, rng):
    """RFC 6298 §5.4-5.6 + RFC 5681 (4) + RFC 6675 §5.1: go-back-N past SACKed data."""
    ff, fi = ctx.ff, ctx.fi
    una = fi[f, I_SND_UNA]
    network = in_network(f, ctx)
    if W.timeout_window(now, f, True, ctx):
        ff[f, F_SSTHRESH] = loss_ssthresh(network)
        timeout_restart(now, f, una, ctx)
