# ctlcc.sim.senders.vegas - TCP Vegas (Brakmo & Peterson)
"""TCP Vegas: per-round-trip window rule on the backlog estimate diff.

Once per round trip, diff = cwnd (1 - BaseRTT/RTT) (:mod:`ctlcc.laws.vegas`)
against alpha/beta moves the window by one packet; slow start ends when
diff > gamma; losses are handled as NewReno (fast retransmit, window
halved, partial ACKs).

Two points checked against the specifications while the sender moved
(issue 10):

* **ssthresh on a decrease.**  When diff > beta in congestion avoidance
  the window falls by one packet *and* ssthresh falls to
  max(min(ssthresh, cwnd - 1), 2), as Linux's ``tcp_vegas`` and ns-3's
  ``TcpVegas::IncreaseWindow`` do.  Without it (the engine before, kept as
  ``decrease_ssthresh=False``) the decrease drops the window below ssthresh,
  the next round is a slow-start round whose per-ACK growth brings it
  straight back to ssthresh, and the window stays pinned at ssthresh with
  diff far above beta (five flows on one bottleneck: tests/sim/test_vegas.py).
* **Slow start.**  ``slow_start="brakmo"`` grows by one packet per ACK
  every *other* round trip (Brakmo & Peterson, §3.3: "exponential growth
  only every other RTT"), which is what the thesis' Vegas did ("TCP Vegas
  doubles its congestion window size every two RTTs during the slow start
  phase", thesis §4.4.2); ``slow_start="ns3"`` grows on every ACK of every
  round trip, as ns-3's ``TcpVegas`` (which calls NewReno's slow start).
"""

from dataclasses import dataclass

import numba

from ..._validation import check_nonnegative
from ...errors import ParameterError
from ...laws import vegas as law
from .._core.layout import (
    F_CWND, F_MIN_RTT, F_ROUND_MIN_RTT, F_SSTHRESH, I_IN_RECOVERY, I_ROUND_END, I_ROUND_RTTS,
    I_SND_MAX, I_SND_UNA, NF_COMMON, NI_COMMON,
)
from .._core.net import try_send
from . import window as W
from ._base import SenderSpec, check_option

__all__ = ["Vegas"]

# private columns
F_ALPHA, F_BETA, F_GAMMA = NF_COMMON, NF_COMMON + 1, NF_COMMON + 2
I_GROW, I_EVERY_RTT, I_DECREASE_SS, I_MARK_AFTER = range(NI_COMMON, NI_COMMON + 4)
SLOW_STARTS = ("brakmo", "ns3")
#: Where a round trip's end is marked: snd_max after the segments the ending
#: ACK releases (one true round trip), or before them (the former engine).
ROUND_MARKERS = ("after_send", "before_send")

_inline = numba.njit(cache=True, inline="always")
_jit = numba.njit(cache=True)
backlog = numba.njit(law.backlog_core, cache=True, inline="always")
avoidance = numba.njit(law.avoidance_window_core, cache=True, inline="always")
exit_window = numba.njit(law.slow_start_exit_window_core, cache=True, inline="always")


@dataclass(frozen=True)
class Vegas(SenderSpec):
    """TCP Vegas and its thresholds.

    Attributes
    ----------
    alpha, beta, gamma : float or None
        Thresholds on diff (Brakmo & Peterson: 1, 3, 1); None takes the
        scenario's ``TcpOptions.vegas_alpha`` etc. [packets]
    slow_start : {"brakmo", "ns3"}
        Growth every other round trip (Brakmo & Peterson; the thesis'
        ns-2 Vegas) or every round trip (ns-3).
    decrease_ssthresh : bool
        Lower ssthresh with the window when diff > beta (Linux, ns-3).
        False is the engine's former rule, which pins the window at
        ssthresh (see the module docstring).
    round_marker : {"after_send", "before_send"}
        The next round trip ends with the ACK of the highest segment sent
        *after* the ACK that ended this one (a true round trip), or of the
        highest sent before it (the former engine: while the window is
        small the "rounds" last half a round trip, so Brakmo's every-other-
        round growth became +1 per two ACK rounds: 1, 2, 3, 5, 7, 9 instead
        of 1, 2, 2, 4, 4, 8 on the GEO path).
    """

    name = "vegas"
    float_columns = 3
    int_columns = 4
    alpha: float = None
    beta: float = None
    gamma: float = None
    slow_start: str = "brakmo"
    decrease_ssthresh: bool = True
    round_marker: str = "after_send"

    def __post_init__(self):
        check_option("round_marker", self.round_marker, ROUND_MARKERS)
        check_option("slow_start", self.slow_start, SLOW_STARTS)
        check_option("decrease_ssthresh", self.decrease_ssthresh, (True, False))
        for name in ("alpha", "beta", "gamma"):
            if getattr(self, name) is not None:
                object.__setattr__(self, name, check_nonnegative(name, getattr(self, name),
                                                                 scalar=True))
        if self.alpha is not None and self.beta is not None and self.beta < self.alpha:
            raise ParameterError(f"beta must be >= alpha = {self.alpha!r} (Vegas needs "
                                 f"0 <= alpha <= beta), got {self.beta!r}")

    @classmethod
    def legacy(cls):
        """The Vegas of the engine before issue 10 (window pinned at ssthresh)."""
        return cls(decrease_ssthresh=False, round_marker="before_send")

    def init_flow(self, ff, fi, tab, j, tcp):
        W.init_window_flow(ff, fi, j, tcp)
        alpha = tcp.vegas_alpha if self.alpha is None else self.alpha
        beta = tcp.vegas_beta if self.beta is None else self.beta
        gamma = tcp.vegas_gamma if self.gamma is None else self.gamma
        if not 0 <= alpha <= beta:
            raise ParameterError(f"Vegas thresholds must satisfy 0 <= alpha <= beta; got "
                                 f"alpha={alpha}, beta={beta}")
        ff[j, F_ALPHA], ff[j, F_BETA], ff[j, F_GAMMA] = alpha, beta, gamma
        fi[j, I_GROW] = 1
        fi[j, I_EVERY_RTT] = 1 if self.slow_start == "ns3" else 0
        fi[j, I_DECREASE_SS] = 1 if self.decrease_ssthresh else 0
        fi[j, I_MARK_AFTER] = 1 if self.round_marker == "after_send" else 0


@_inline
def on_start(now, f, ctx, rng):
    try_send(now, f, ctx)


@_inline
def on_ack(now, f, ack, ctx, rng):
    ff, fi = ctx.ff, ctx.fi
    seq = ack.seq
    if not W.ack_preamble(f, seq, ack.rtt, ack.retx, ctx):
        return
    una = fi[f, I_SND_UNA]
    if seq > una:
        state = W.new_ack(now, f, seq, ack.rtt, ack.retx, W.REC_NEWRENO, True, ctx)
        if state == W.ACK_OPEN:
            if ff[f, F_CWND] < ff[f, F_SSTHRESH] and fi[f, I_GROW] == 1:
                ff[f, F_CWND] += 1.0
        W.ack_tail(now, f, state, ctx)
        if seq >= fi[f, I_ROUND_END]:
            round_end(now, f, ctx)
            W.new_round(now, f, ctx)
            try_send(now, f, ctx)
            if fi[f, I_MARK_AFTER] == 1:
                fi[f, I_ROUND_END] = fi[f, I_SND_MAX]
            return
    elif seq == una and una < fi[f, I_SND_MAX]:
        W.dup_ack(now, f, W.REC_NEWRENO, True, True, ctx)
    try_send(now, f, ctx)


@_inline
def round_end(now, f, ctx):
    """Vegas' per-round-trip rule."""
    ff, fi = ctx.ff, ctx.fi
    if fi[f, I_IN_RECOVERY] == 0 and fi[f, I_ROUND_RTTS] > 0:
        rtt = ff[f, F_ROUND_MIN_RTT]
        base = ff[f, F_MIN_RTT]
        cwnd = ff[f, F_CWND]
        diff = backlog(cwnd, rtt, base)
        if cwnd < ff[f, F_SSTHRESH]:
            if diff > ff[f, F_GAMMA]:
                target = exit_window(cwnd, rtt, base)
                if target < cwnd:
                    ff[f, F_CWND] = target
                ss = ff[f, F_CWND] - 1.0
                ff[f, F_SSTHRESH] = ss if ss > 2.0 else 2.0
            if fi[f, I_EVERY_RTT] == 0:
                fi[f, I_GROW] = 1 - fi[f, I_GROW]
        else:
            ff[f, F_CWND] = avoidance(cwnd, diff, ff[f, F_ALPHA], ff[f, F_BETA])
            if fi[f, I_DECREASE_SS] == 1 and ff[f, F_CWND] < cwnd:
                ss = ff[f, F_CWND] - 1.0
                if ss > ff[f, F_SSTHRESH]:
                    ss = ff[f, F_SSTHRESH]
                ff[f, F_SSTHRESH] = ss if ss > 2.0 else 2.0
        if ff[f, F_CWND] < 2.0:
            ff[f, F_CWND] = 2.0


@_inline
def on_timer(now, f, ctx, rng):
    W.timeout(now, f, True, ctx)
