# ctlcc.sim.senders.cbraa - CBRAA and TCP-Friend (Ait-Hellal, Yamamoto & Leduc 1999)
"""CBRAA and TCP-Friend: paced rate senders driven by RTCP-like receiver reports.

Both senders of Ait-Hellal, Yamamoto & Leduc (1999) pace one packet every
``1/Rate`` (no window, no retransmission: they carry real-time media) and
change ``Rate`` only when a receiver report arrives:

* the receiver (:func:`on_data`) counts the packets it receives and the
  highest sequence number seen, and every ``t_rtcp`` seconds (§4.2: "two
  RTCP RRs" in about 10 s, so 5 s) turns the data packet that arrives into
  a report carrying RTCP's *cumulative* counts (RFC 1889 §6.3.1: packets
  lost, extended highest sequence number received) in ``Q_AUX1`` and
  ``Q_AUX2`` and the data packet's send time in ``Q_ECHO``; the sender
  takes the per-interval lost/sent counts as differences to the previous
  report it received (a lost report is absorbed by the next one) and one
  RTT sample per report, smoothed into ``srtt`` (RFC 6298 gains 1/8, 1/4;
  the paper does not say how srtt is computed from RTCP's LSR/DLSR);
* **CBRAA** (Figure 1, §3): ``Loss_obs`` over the reports of the last
  ``Cycle`` seconds (§3.1's sliding window,
  :func:`~ctlcc.laws.cbraa.cycle_loss_core`), ``Cycle`` from eq. (3) at the
  current rate and srtt (:func:`~ctlcc.laws.cbraa.cycle_core`), then
  :func:`~ctlcc.laws.cbraa.rate_update_core` (thresholds a, b on eq. (4)'s
  ``Loss_th``, targets from eq. (2) at ``beta Loss_th + (1 - beta)
  Loss_obs``, smoothing alpha, floor ``1/srtt``);
* **TCP-Friend** (§3.2, last paragraph): eq. (2) on the loss of the report,
  or ``+ t_rtcp/(2 srtt^2)`` on a loss-free report,
  :func:`~ctlcc.laws.cbraa.tcp_friend_update_core`.

The laws are the cores of :mod:`ctlcc.laws.cbraa`, compiled into the event
loop.  Initial rate 5 packets/s (§4); before the first report (hence before
any srtt) there is no minimum rate.  The paper gives no rule for a source
whose reports stop arriving: the rate is then kept (no timer).

Reports are sent deterministically every ``t_rtcp`` (RTCP randomises its
interval over [0.5, 1.5] times the mean, RFC 1889 §6.3.1; the paper speaks
of "the average time between two consecutive RTCP receiver reports"); a
report waits for the next data packet after its due time.  The sliding
window keeps at most :data:`REPORTS` reports (at the paper's 5 s period a
cycle would have to exceed 5 minutes to need more).
"""

from dataclasses import dataclass

import numba
import numpy as np

from ...laws import cbraa as law
from ...laws.cbraa import C_CBRAA, CbraaParams, TcpFriendParams
from .._core.layout import (
    EV_PACE, F_CWND, F_RATE, F_SRTT, I_ACTIVE, I_PACE_GEN, I_RCV_NXT, I_UNIQUE,
    NF_COMMON, NI_COMMON, P_SEQ, Q_AUX1, Q_AUX2,
)
from .._core.net import emit_ack, push, release, repace, rto_estimate, send_next, turn_into_ack
from ._base import SenderSpec

__all__ = ["Cbraa", "TcpFriend", "REPORTS"]

#: Reports the sliding window of §3.1 holds (a ring in the flow's table). [1]
REPORTS = 64

# private columns (sender and receiver of the flow)
(F_A, F_B, F_ALPHA, F_BETA, F_C, F_C1, F_C2, F_T_RTCP, F_LAST_SEND, F_LAST_LOST,
 F_LAST_EXPECTED, F_NEXT_REPORT, F_LOSS_OBS, F_CYCLE) = range(NF_COMMON, NF_COMMON + 14)
I_RING_HEAD, I_RING_COUNT, I_REPORTS, I_FRIEND = range(NI_COMMON, NI_COMMON + 4)

_inline = numba.njit(cache=True, inline="always")
_jit = numba.njit(cache=True)
rate_update = numba.njit(law.rate_update_core, cache=True, inline="always")
cycle = numba.njit(law.cycle_core, cache=True, inline="always")
cycle_loss = numba.njit(law.cycle_loss_core, cache=True, inline="always")
tcp_friend_update = numba.njit(law.tcp_friend_update_core, cache=True, inline="always")


@dataclass(frozen=True)
class Cbraa(SenderSpec):
    """CBRAA, the cycle-based rate adaptation of Figure 1.

    Attributes
    ----------
    a : float
        Decrease threshold on ``Loss_obs/Loss_th``, > b (1.5, §3.2). [1]
    b : float
        Increase threshold, in (0, 1) (0.5, §3.2). [1]
    alpha : float
        Weight of the old rate, in [0, 1) (0.5, §4). [1]
    beta : float
        Weight of Loss_th in the p of eq. (2), in (0, 1] (not in the paper;
        0.5). [1]
    published : bool
        True: Figure 1's printed cycle constants 0.62 and 0.96; False
        (default): the exact 243/392 and 27/28 they round.
    t_rtcp : float
        Time between receiver reports, > 0 (5 s, §4.2). [s]
    initial_rate : float
        Rate before the first report, > 0 (5 packets/s, §4). [packets/s]

    References
    ----------
    Ait-Hellal, Yamamoto & Leduc (1999), §3.1-3.2, Figure 1, §4.

    Examples
    --------
    >>> Cbraa().t_rtcp, Cbraa(t_rtcp=2.0).params.t_rtcp
    (5.0, 2.0)
    >>> Cbraa(t_rtcp=0.0)
    Traceback (most recent call last):
    ...
    ctlcc.errors.ParameterError: t_rtcp must be in (0, inf), got 0.0
    """

    name = "cbraa"
    window_based = False
    float_columns = 14
    int_columns = 4
    a: float = 1.5
    b: float = 0.5
    alpha: float = 0.5
    beta: float = 0.5
    published: bool = False
    t_rtcp: float = law.T_RTCP
    initial_rate: float = law.INITIAL_RATE

    def __post_init__(self):
        self.params  # noqa: B018 (CbraaParams validates every field, naming it)

    @property
    def params(self):
        """The law's :class:`~ctlcc.laws.cbraa.CbraaParams`."""
        return CbraaParams(a=self.a, b=self.b, alpha=self.alpha, beta=self.beta,
                           published=self.published, t_rtcp=self.t_rtcp,
                           initial_rate=self.initial_rate)

    def table_shape(self, tcp):
        """Rows (report times, lost, sent) of the sliding window's ring. [reports]"""
        return (3, REPORTS)

    def init_flow(self, ff, fi, tab, j, tcp):
        a, b, alpha, beta, C, c1, c2 = self.params.core_args()
        _init_common(ff, fi, j, self.initial_rate, self.t_rtcp)
        ff[j, F_A], ff[j, F_B], ff[j, F_ALPHA], ff[j, F_BETA] = a, b, alpha, beta
        ff[j, F_C], ff[j, F_C1], ff[j, F_C2] = C, c1, c2


@dataclass(frozen=True)
class TcpFriend(SenderSpec):
    """TCP-Friend, the plain eq. (2) rate CBRAA is compared with (§3.2).

    Attributes
    ----------
    C : float
        Constant of eq. (2), > 0 (1.2701, §2). [1]
    t_rtcp : float
        Time between receiver reports, > 0 (5 s). [s]
    initial_rate : float
        Rate before the first report, > 0 (5 packets/s). [packets/s]

    References
    ----------
    Ait-Hellal, Yamamoto & Leduc (1999), §2 eqs. (1)-(2), §3.2 (last
    paragraph), §4.

    Examples
    --------
    >>> TcpFriend(initial_rate=-1.0)
    Traceback (most recent call last):
    ...
    ctlcc.errors.ParameterError: initial_rate must be in (0, inf), got -1.0
    """

    name = "tcpfriend"
    window_based = False
    float_columns = 14
    int_columns = 4
    C: float = C_CBRAA
    t_rtcp: float = law.T_RTCP
    initial_rate: float = law.INITIAL_RATE

    def __post_init__(self):
        self.params  # noqa: B018 (TcpFriendParams validates every field)

    @property
    def params(self):
        """The law's :class:`~ctlcc.laws.cbraa.TcpFriendParams`."""
        return TcpFriendParams(C=self.C, t_rtcp=self.t_rtcp, initial_rate=self.initial_rate)

    def init_flow(self, ff, fi, tab, j, tcp):
        _init_common(ff, fi, j, self.initial_rate, self.t_rtcp)
        ff[j, F_C] = self.C
        fi[j, I_FRIEND] = 1


def _init_common(ff, fi, j, initial_rate, t_rtcp):
    ff[j, F_CWND] = np.nan
    ff[j, F_RATE] = initial_rate
    ff[j, F_T_RTCP] = t_rtcp
    ff[j, F_NEXT_REPORT] = -1.0
    ff[j, F_LAST_SEND] = -np.inf


# --- sender -------------------------------------------------------------------------------

@_inline
def on_start(now, f, ctx, rng):
    paced_send(now, f, ctx)


@_inline
def paced_send(now, f, ctx):
    """One packet now, the next one after ``1/Rate``."""
    ff, fi = ctx.ff, ctx.fi
    if fi[f, I_ACTIVE] == 0:
        return
    send_next(now, f, 0, ctx)
    ff[f, F_LAST_SEND] = now
    fi[f, I_PACE_GEN] += 1
    push(ctx, now + 1.0 / ff[f, F_RATE], EV_PACE, f, fi[f, I_PACE_GEN])


@_inline
def on_pace(now, f, ctx, rng):
    paced_send(now, f, ctx)


@_inline
def on_ack(now, f, ack, ctx, rng):
    """A receiver report (the ACK's aux fields: cumulative lost, expected)."""
    on_report(now, f, ack.rtt, ack.aux1, ack.aux2, ctx.fi[f, I_FRIEND] == 1, ctx)


@_inline
def on_report(now, f, rtt, lost_total, expected_total, friend, ctx):
    """A receiver report: srtt, per-interval counts, then Figure 1 or TCP-Friend."""
    ff, fi = ctx.ff, ctx.fi
    rto_estimate(f, rtt, ctx)
    srtt = ff[f, F_SRTT]
    lost = lost_total - ff[f, F_LAST_LOST]
    sent = expected_total - ff[f, F_LAST_EXPECTED]
    if sent < 1.0:      # nothing new since the report before (cannot happen: a report
        return          # rides on a newly arrived packet); keep the state
    ff[f, F_LAST_LOST] = lost_total
    ff[f, F_LAST_EXPECTED] = expected_total
    fi[f, I_REPORTS] += 1
    rate = ff[f, F_RATE]
    if friend:
        ff[f, F_LOSS_OBS] = lost / sent
        ff[f, F_RATE] = tcp_friend_update(rate, srtt, lost / sent, ff[f, F_T_RTCP], ff[f, F_C])
    else:
        tab = ctx.tab
        width = REPORTS
        head = fi[f, I_RING_HEAD]
        tab[f, 0, head] = now
        tab[f, 1, head] = lost
        tab[f, 2, head] = sent
        fi[f, I_RING_HEAD] = (head + 1) % width
        if fi[f, I_RING_COUNT] < width:
            fi[f, I_RING_COUNT] += 1
        c1, c2 = ff[f, F_C1], ff[f, F_C2]
        cyc = cycle(rate, srtt, c1, c2)
        loss_obs = cycle_loss(tab[f, 0], tab[f, 1], tab[f, 2], fi[f, I_RING_COUNT], now, cyc)
        ff[f, F_CYCLE] = cyc
        ff[f, F_LOSS_OBS] = loss_obs
        ff[f, F_RATE] = rate_update(rate, srtt, loss_obs, ff[f, F_A], ff[f, F_B],
                                    ff[f, F_ALPHA], ff[f, F_BETA], ff[f, F_C], c1, c2)
    repace(now, f, ctx.ff[f, F_LAST_SEND], ctx)


# --- receiver -----------------------------------------------------------------------------

@_inline
def on_data(now, f, p, ctx, rng):
    """Receiver: count, and every t_rtcp turn the packet into a report."""
    ff, fi, pf = ctx.ff, ctx.fi, ctx.pf
    seq = ctx.pi[p, P_SEQ]
    fi[f, I_UNIQUE] += 1
    if seq >= fi[f, I_RCV_NXT]:
        fi[f, I_RCV_NXT] = seq + 1
    due = ff[f, F_NEXT_REPORT]
    if due < 0.0:
        ff[f, F_NEXT_REPORT] = now + ff[f, F_T_RTCP]
    elif now >= due:
        while ff[f, F_NEXT_REPORT] <= now:
            ff[f, F_NEXT_REPORT] += ff[f, F_T_RTCP]
        expected = fi[f, I_RCV_NXT]
        turn_into_ack(now, p, f, ctx)
        pf[p, Q_AUX1] = expected - fi[f, I_UNIQUE]   # cumulative packets lost
        pf[p, Q_AUX2] = expected                     # extended highest seq + 1
        emit_ack(now, p, f, ctx)
        return
    release(p, ctx.meta, ctx.free)
