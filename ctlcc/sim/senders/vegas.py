# ctlcc.sim.senders.vegas - TCP Vegas (Brakmo & Peterson)
"""TCP Vegas: per-round-trip window rule on the backlog estimate diff.

Once per round trip, diff = cwnd (1 - BaseRTT/RTT) (:mod:`ctlcc.laws.vegas`)
against alpha/beta moves the window by one packet; slow start grows every
other round trip (Brakmo & Peterson) and ends when diff > gamma; losses are
handled as NewReno (fast retransmit, window halved, partial ACKs).
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
from ._base import SenderSpec

__all__ = ["Vegas"]

CODE = 3
# private columns
F_ALPHA, F_BETA, F_GAMMA = NF_COMMON, NF_COMMON + 1, NF_COMMON + 2
I_GROW = NI_COMMON

_inline = numba.njit(cache=True, inline="always")
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
    """

    name = "vegas"
    code = CODE
    alpha: float = None
    beta: float = None
    gamma: float = None

    def __post_init__(self):
        for name in ("alpha", "beta", "gamma"):
            if getattr(self, name) is not None:
                object.__setattr__(self, name, check_nonnegative(name, getattr(self, name),
                                                                 scalar=True))
        if self.alpha is not None and self.beta is not None and self.beta < self.alpha:
            raise ParameterError(f"beta must be >= alpha = {self.alpha!r} (Vegas needs "
                                 f"0 <= alpha <= beta), got {self.beta!r}")

    def init_flow(self, ff, fi, tab, j, tcp):
        W.init_window_flow(ff, fi, j, tcp)
        alpha = tcp.vegas_alpha if self.alpha is None else self.alpha
        beta = tcp.vegas_beta if self.beta is None else self.beta
        gamma = tcp.vegas_gamma if self.gamma is None else self.gamma
        if not 0 <= alpha <= beta:
            from ...errors import ParameterError
            raise ParameterError(f"Vegas thresholds must satisfy 0 <= alpha <= beta; got "
                                 f"alpha={alpha}, beta={beta}")
        ff[j, F_ALPHA], ff[j, F_BETA], ff[j, F_GAMMA] = alpha, beta, gamma
        fi[j, I_GROW] = 1


@_inline
def on_start(now, f, ctx):
    try_send(now, f, ctx)


@_inline
def on_ack(now, f, ack, sample, echo_retx, ctx):
    ff, fi = ctx.ff, ctx.fi
    if not W.ack_preamble(f, ack, sample, echo_retx, ctx):
        return
    una = fi[f, I_SND_UNA]
    if ack > una:
        state = W.new_ack(now, f, ack, sample, echo_retx, W.REC_NEWRENO, True, ctx)
        if state == W.ACK_OPEN:
            if ff[f, F_CWND] < ff[f, F_SSTHRESH] and fi[f, I_GROW] == 1:
                ff[f, F_CWND] += 1.0
        W.ack_tail(now, f, state, ctx)
        if ack >= fi[f, I_ROUND_END]:
            round_end(now, f, ctx)
            W.new_round(now, f, ctx)
    elif ack == una and una < fi[f, I_SND_MAX]:
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
            fi[f, I_GROW] = 1 - fi[f, I_GROW]
        else:
            ff[f, F_CWND] = avoidance(cwnd, diff, ff[f, F_ALPHA], ff[f, F_BETA])
        if ff[f, F_CWND] < 2.0:
            ff[f, F_CWND] = 2.0


@_inline
def on_rto(now, f, ctx):
    W.timeout(now, f, True, ctx)
