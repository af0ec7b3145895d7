# ctlcc.sim.senders.iftp - IFTP (ElAarag & Bassiouni), a paced unreliable TCP emulation
"""IFTP: a rate sender that emulates TCP's window with an inter-packet gap.

The sender keeps Figure 1's state ``(n, ssthresh, una, ack_count,
after_missing, prev_last)`` and, per adjustment period of one smoothed
round trip ``R = srtt``, sends ``n`` packets (``S n`` in the extended mode
of §3.2) spaced by ``G + tau`` with ``G = R/(S n) - tau``
(:func:`ctlcc.laws.iftp.period_gap_core`, Figure 1's ``G = srtt/n - tau``
scaled by §3.2's ``G_m``): slow start doubles ``n`` each period (eqs.
(1)-(2)), congestion avoidance adds one (eqs. (3)-(4)) up to ``Wmax``, the
``after_missing_thresh``-th ACK past a gap halves ``n`` and ``ssthresh``
once per loss phase (eqs. (5)-(6)); all of it is
:func:`~ctlcc.laws.iftp.ack_step_core`, compiled into the event loop.  The
timer is eqs. (7)-(9) (:func:`~ctlcc.laws.iftp.rtt_update_core`,
:func:`~ctlcc.laws.iftp.timeout_interval_core`, 1 ms granularity), restarted
on every ACK; its expiry is Figure 1's Timeout routine
(:func:`~ctlcc.laws.iftp.timeout_step_core`: ``ssthresh = max(n/2, 2)``,
``n = 1``, Karn backoff doubled up to 64, one new packet).  Nothing is
retransmitted: ``next`` only advances (§4).

The receiver echoes the sequence number of each packet it receives (no
cumulative ACK, §4) and the packet's send time (the RTT sample of §4); it
also tallies the one-way delay of every packet (§6.3's delay and jitter).

Readings where the paper is silent
----------------------------------
* ``Transmit_Window`` is a thread (§4); a new window replaces the sweep in
  progress (its first packet leaves at once, the rest every ``G + tau``;
  with ``pacing="continuous"`` the first one leaves ``G + tau`` after the
  previous packet, or at once if that time has passed).
* ``tau``, "the transmission time of one packet", defaults to one packet on
  the flow's first link; ``Iftp(tau=...)`` fixes it (e.g. one packet at the
  bottleneck rate, the reading that matches Table I, see
  :mod:`ctlcc.experiments.iftp`).
* Figure 1's Timeout routine leaves ``ack_count`` and ``after_missing`` as
  they were; with ``n = 1`` an ``ack_count >= 1`` would never again equal
  ``n`` and the window would freeze, so the sender clears both (and the
  scaled-mode ACK credit) when the timer fires.
* Extended mode (§3.2, "can be added straightforwardly"): the period
  carries ``round(S n)`` packets, so an in-order ACK counts ``1/S`` towards
  Figure 1's ``ack_count == n`` (a credit counter; an ACK worth less than a
  whole count still advances ``una``); ``S = 1`` is Figure 1 exactly.
* Before the first RTT sample the period and the timer use the engine's
  initial RTO (``TcpOptions.initial_rto``), times the backoff; the gap
  statistics (``SimResult.sender_state``: mean and standard deviation of
  G per packet sent) start with the first sample.
* ``pacing``: Figure 1's Transmit_Window sends ``n`` packets and stops
  ("figure1", the default), so a period lasts ``(2n - 1) R/n``: the
  window waits for the n-th ACK, which returns R after the last packet of
  a sweep spread over R.  "continuous" keeps the sweep going at the
  current gap until the next window, a sending rate of ``n/R`` with
  windows every R, as §3.1 and eqs. (10)-(20) assume
  (:func:`ctlcc.crosscheck.iftp_ideal_bandwidth` measures both).

Private counters reused from the common columns: ``I_FAST_RETX`` counts
the loss reactions (Figure 1's halvings), ``I_TIMEOUTS`` the timer
expiries, ``F_SRTT``/``F_RTTVAR``/``F_RTO`` hold eqs. (7)-(9)'s state,
``F_CWND`` the emulated window ``n`` and ``F_RATE`` the sending rate
``1/(G + tau)`` [packets/s].

References
----------
ElAarag & Bassiouni (2002), §3.1-3.2 (eqs. (1)-(6)), §4 (eqs. (7)-(9)),
Figure 1, §6.1 (parameters).
"""

from dataclasses import dataclass

import numba
import numpy as np

from ...errors import ParameterError
from ...laws import iftp as law
from ...laws.iftp import IftpParams
from .._core.layout import (
    C_RATE, EV_PACE, F_CWND, F_LAST_RTT, F_MIN_RTT, F_RATE, F_RTO, F_RTTVAR, F_SRTT,
    G_DATA_BITS, G_INIT_RTO, I_ACTIVE, I_FAST_RETX, I_PACE_GEN, I_RCV_NXT, I_RTT_SAMPLED,
    I_SND_NXT, I_TIMEOUTS, I_UNIQUE, NF_COMMON, NI_COMMON, P_SEQ, Q_SENT_TIME,
)
from .._core.net import arm, emit_ack, push, send_next, turn_into_ack
from ._base import SenderSpec, check_option

__all__ = ["Iftp"]

# private columns
(F_TAU, F_S, F_INV_S, F_GRAN, F_WMAX, F_THRESH, F_MAXB, F_GAP, F_INTERVAL, F_CREDIT,
 F_G_SUM, F_G_SQ, F_G_COUNT, F_DELAY_SUM, F_DELAY_SQ, F_CONTINUOUS,
 F_LAST_SEND) = range(NF_COMMON, NF_COMMON + 17)
#: Values of ``Iftp(pacing=...)``.
PACINGS = ("figure1", "continuous")
(I_N, I_SSTHRESH, I_UNA, I_ACK_COUNT, I_AFTER_MISSING, I_PREV_LAST, I_BACKOFF,
 I_LEFT) = range(NI_COMMON, NI_COMMON + 8)

_inline = numba.njit(cache=True, inline="always")
_jit = numba.njit(cache=True)
ack_step = numba.njit(law.ack_step_core, cache=True, inline="always")
timeout_step = numba.njit(law.timeout_step_core, cache=True, inline="always")
period_gap = numba.njit(law.period_gap_core, cache=True, inline="always")
rtt_first = numba.njit(law.rtt_first_sample_core, cache=True, inline="always")
rtt_update = numba.njit(law.rtt_update_core, cache=True, inline="always")
timeout_interval = numba.njit(law.timeout_interval_core, cache=True, inline="always")


@dataclass(frozen=True)
class Iftp(SenderSpec):
    """IFTP and its parameters (the paper's §6.1 set by default).

    Attributes
    ----------
    Ws : int
        Initial ssthresh, a power of two >= 1 (§5.1, §6.1: 32). [packets]
    Wmax : int
        Receiver's maximum window, >= 1 (§6.1: 50). [packets]
    S : float
        Scale factor of the extended mode, > 0 (§3.2; 1 = standard). [1]
    after_missing_thresh : int
        ACKs past a missing one that signal a loss, >= 1 (§6.1: 3). [ACKs]
    granularity : float
        Timer tick of eq. (9), > 0 (§4: 1 ms). [s]
    max_backoff : int
        Karn backoff cap, a power of two (§4: 64). [1]
    tau : float or None
        Transmission time of one packet in the gap laws, > 0; None: one
        packet on the flow's first link. [s]
    pacing : {"figure1", "continuous"}
        "figure1" (default): Transmit_Window sends n packets (round(S n))
        and stops, as Figure 1 prints it; the next window waits for all n
        ACKs, so a period lasts (2n - 1) R/n.  "continuous": the sweep keeps
        sending at the current gap until Figure 1 starts the next window,
        so the rate is n/R and windows succeed each other every R, the
        reading of §3.1 ("n (G + tau) = R") and §5.1 (eqs. (10)-(20)) that
        also matches Table I.

    Examples
    --------
    >>> Iftp().S, Iftp(S=2).params.S
    (1.0, 2.0)
    >>> Iftp(Ws=24)
    Traceback (most recent call last):
    ...
    ctlcc.errors.ParameterError: Ws must be a power of two >= 1 (1, 2, 4, ...), got 24
    """

    name = "iftp"
    window_based = False
    float_columns = 17
    int_columns = 8
    Ws: int = 32
    Wmax: int = 50
    S: float = 1.0
    after_missing_thresh: int = law.AFTER_MISSING_THRESH
    granularity: float = law.GRANULARITY
    max_backoff: int = law.MAX_BACKOFF
    tau: float = None
    pacing: str = "figure1"

    def __post_init__(self):
        check_option("pacing", self.pacing, PACINGS)
        p = IftpParams(self.Ws, self.Wmax, self.S, self.after_missing_thresh, self.granularity,
                       self.max_backoff)
        object.__setattr__(self, "S", float(p.S))
        object.__setattr__(self, "granularity", float(p.granularity))
        if self.tau is not None:
            if isinstance(self.tau, bool) or not isinstance(self.tau, (int, float)) \
                    or not np.isfinite(self.tau) or self.tau <= 0:
                raise ParameterError(
                    f"tau must be None or a finite transmission time > 0 [s], got {self.tau!r}")
            object.__setattr__(self, "tau", float(self.tau))

    @property
    def params(self):
        """The law's :class:`~ctlcc.laws.iftp.IftpParams`."""
        return IftpParams(self.Ws, self.Wmax, self.S, self.after_missing_thresh,
                          self.granularity, self.max_backoff)

    def init_flow(self, ff, fi, tab, j, tcp):
        ff[j, F_CWND] = 1.0
        ff[j, F_RATE] = 0.0
        ff[j, F_TAU] = -1.0 if self.tau is None else self.tau
        ff[j, F_S] = self.S
        ff[j, F_INV_S] = 1.0 / self.S
        ff[j, F_GRAN] = self.granularity
        ff[j, F_WMAX] = self.Wmax
        ff[j, F_THRESH] = self.after_missing_thresh
        ff[j, F_MAXB] = self.max_backoff
        ff[j, F_CONTINUOUS] = 1.0 if self.pacing == "continuous" else 0.0
        ff[j, F_LAST_SEND] = -np.inf
        fi[j, I_N] = 1
        fi[j, I_SSTHRESH] = self.Ws
        fi[j, I_BACKOFF] = 1

    def final_state(self, ff, fi, j):
        """Per-flow IFTP measurements at the end of a run (see SimResult.sender_state)."""
        count = ff[j, F_G_COUNT]
        mean = ff[j, F_G_SUM] / count if count else np.nan
        var = max(ff[j, F_G_SQ] / count - mean * mean, 0.0) if count else np.nan
        got = fi[j, I_UNIQUE]
        dmean = ff[j, F_DELAY_SUM] / got if got else np.nan
        dvar = max(ff[j, F_DELAY_SQ] / got - dmean * dmean, 0.0) if got else np.nan
        return {"gap_mean": float(mean), "gap_std": float(np.sqrt(var)),
                "gaps": int(count), "tau": float(ff[j, F_TAU]),
                "delay_mean": float(dmean), "delay_std": float(np.sqrt(dvar)),
                "window": int(fi[j, I_N]), "ssthresh": int(fi[j, I_SSTHRESH]),
                "backoff": int(fi[j, I_BACKOFF]), "loss_reactions": int(fi[j, I_FAST_RETX]),
                "timeouts": int(fi[j, I_TIMEOUTS])}


@_inline
def paced_send(now, f, ctx):
    """One packet of the current window's sweep, the next one G + tau later."""
    ff, fi = ctx.ff, ctx.fi
    if fi[f, I_ACTIVE] == 0 or fi[f, I_LEFT] <= 0:
        return
    send_next(now, f, 0, ctx)
    ff[f, F_LAST_SEND] = now
    if ff[f, F_CONTINUOUS] == 0.0:
        fi[f, I_LEFT] -= 1
    if fi[f, I_RTT_SAMPLED] != 0:          # G is defined once srtt is (Figure 1 waits
        gap = ff[f, F_GAP]                 # for the first ACK before any G)
        ff[f, F_G_SUM] += gap
        ff[f, F_G_SQ] += gap * gap
        ff[f, F_G_COUNT] += 1.0
    if fi[f, I_LEFT] > 0:
        fi[f, I_PACE_GEN] += 1
        push(ctx, now + ff[f, F_INTERVAL], EV_PACE, f, fi[f, I_PACE_GEN])


@_inline
def transmit_window(now, f, ctx):
    """Figure 1's Transmit_Window: round(S n) packets, gap G = srtt/(S n) - tau."""
    ff, fi = ctx.ff, ctx.fi
    n = fi[f, I_N]
    tau = ff[f, F_TAU]
    if fi[f, I_RTT_SAMPLED] != 0:
        period = ff[f, F_SRTT]
    else:
        period = ctx.g[G_INIT_RTO] * fi[f, I_BACKOFF]
    gap = period_gap(period, n, tau, ff[f, F_S])
    ff[f, F_GAP] = gap
    ff[f, F_INTERVAL] = gap + tau          # = period/(S n) > 0
    ff[f, F_CWND] = n
    ff[f, F_RATE] = 1.0 / (gap + tau)
    left = int(ff[f, F_S] * n + 0.5)
    fi[f, I_LEFT] = left if left >= 1 else 1
    fi[f, I_PACE_GEN] += 1                 # the sweep in progress, if any, stops here
    due = ff[f, F_LAST_SEND] + gap + tau
    if ff[f, F_CONTINUOUS] != 0.0 and due > now:
        push(ctx, due, EV_PACE, f, fi[f, I_PACE_GEN])   # continuous: keep the spacing
    else:
        paced_send(now, f, ctx)


@_inline
def rearm(now, f, ctx):
    """Eq. (9): restart the timer backoff (srtt + 4 rttvar + granularity) from now."""
    ff, fi = ctx.ff, ctx.fi
    if fi[f, I_RTT_SAMPLED] != 0:
        rto = timeout_interval(ff[f, F_SRTT], ff[f, F_RTTVAR], fi[f, I_BACKOFF], ff[f, F_GRAN])
    else:
        rto = ctx.g[G_INIT_RTO] * fi[f, I_BACKOFF]
    ff[f, F_RTO] = rto
    arm(now + rto, f, ctx)


@_inline
def on_start(now, f, ctx, rng):
    """n = 1, una = next = first sequence number; one packet, timer armed."""
    ff, fi = ctx.ff, ctx.fi
    if ff[f, F_TAU] < 0.0:
        ff[f, F_TAU] = ctx.g[G_DATA_BITS] / ctx.cf[ctx.fpath[f, 0], C_RATE]
    fi[f, I_UNA] = fi[f, I_SND_NXT]
    transmit_window(now, f, ctx)
    rearm(now, f, ctx)


@_inline
def on_data(now, f, p, ctx, rng):
    """Receiver: echo the packet's own sequence number and send time; tally its delay."""
    ff, fi = ctx.ff, ctx.fi
    seq = ctx.pi[p, P_SEQ]
    fi[f, I_UNIQUE] += 1                   # nothing is retransmitted: every arrival is new
    if seq >= fi[f, I_RCV_NXT]:
        fi[f, I_RCV_NXT] = seq + 1
    delay = now - ctx.pf[p, Q_SENT_TIME]
    ff[f, F_DELAY_SUM] += delay
    ff[f, F_DELAY_SQ] += delay * delay
    turn_into_ack(now, p, f, ctx)
    ctx.pi[p, P_SEQ] = seq
    emit_ack(now, p, f, ctx)


@_inline
def figure1(f, ack, ctx):
    """Figure 1's main processing phase for one ACK, an in-order ACK counting 1/S."""
    ff, fi = ctx.ff, ctx.fi
    nxt = fi[f, I_SND_NXT]
    wmax, thresh = int(ff[f, F_WMAX]), int(ff[f, F_THRESH])
    calls = 1
    neutral = False
    if ack <= fi[f, I_UNA]:
        credit = ff[f, F_CREDIT] + ff[f, F_INV_S]
        calls = int(credit + 1e-9)
        if calls == 0:
            neutral = True                 # advances una, does not count towards n
            calls = 1
        else:
            credit -= calls
        ff[f, F_CREDIT] = credit
    action = 0
    for _ in range(calls):
        count = fi[f, I_ACK_COUNT] - 1 if neutral else fi[f, I_ACK_COUNT]
        n, ssthresh, una, ack_count, after_missing, prev_last, act = ack_step(
            ack, nxt, fi[f, I_N], fi[f, I_SSTHRESH], fi[f, I_UNA], count,
            fi[f, I_AFTER_MISSING], fi[f, I_PREV_LAST], wmax, thresh)
        fi[f, I_N], fi[f, I_SSTHRESH], fi[f, I_UNA] = n, ssthresh, una
        fi[f, I_ACK_COUNT], fi[f, I_AFTER_MISSING], fi[f, I_PREV_LAST] = (
            ack_count, after_missing, prev_last)
        if act != 0:
            action = act
    return action


@_inline
def on_ack(now, f, ack, ctx, rng):
    """Eqs. (7)-(8) on the echoed send time, Figure 1, eq. (9) restarted."""
    ff, fi = ctx.ff, ctx.fi
    rtt = ack.rtt
    if fi[f, I_ACTIVE] == 0:
        return
    if fi[f, I_RTT_SAMPLED] == 0:
        ff[f, F_SRTT], ff[f, F_RTTVAR] = rtt_first(rtt)
        fi[f, I_RTT_SAMPLED] = 1
    else:
        ff[f, F_SRTT], ff[f, F_RTTVAR] = rtt_update(ff[f, F_SRTT], ff[f, F_RTTVAR], rtt)
    fi[f, I_BACKOFF] = 1                   # an unambiguous sample (nothing is retransmitted)
    ff[f, F_LAST_RTT] = rtt
    if rtt < ff[f, F_MIN_RTT]:
        ff[f, F_MIN_RTT] = rtt
    action = figure1(f, ack.seq, ctx)
    if action == law.ACTION_LOSS_WINDOW:
        fi[f, I_FAST_RETX] += 1
    if action != law.ACTION_NONE:
        transmit_window(now, f, ctx)
    rearm(now, f, ctx)


@_inline
def on_pace(now, f, ctx, rng):
    paced_send(now, f, ctx)


@_inline
def on_timer(now, f, ctx, rng):
    """Figure 1's Timeout: ssthresh = max(n/2, 2), n = 1, backoff doubled, one packet."""
    ff, fi = ctx.ff, ctx.fi
    fi[f, I_TIMEOUTS] += 1
    n, ssthresh, backoff, una = timeout_step(fi[f, I_N], fi[f, I_SSTHRESH], fi[f, I_BACKOFF],
                                             fi[f, I_SND_NXT], int(ff[f, F_MAXB]))
    fi[f, I_N], fi[f, I_SSTHRESH], fi[f, I_BACKOFF], fi[f, I_UNA] = n, ssthresh, backoff, una
    fi[f, I_ACK_COUNT] = 0
    fi[f, I_AFTER_MISSING] = 0
    ff[f, F_CREDIT] = 0.0
    transmit_window(now, f, ctx)
    rearm(now, f, ctx)
