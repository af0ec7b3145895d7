# ctlcc.sim.senders.primo - Primo (Chatté, Ducourthial, Niculescu)
"""Primo: a paced, unreliable rate sender driven by forward-trip times.

Four back-to-back packets, then one packet every 1/rate with the rate from
Algorithm 1 (:func:`ctlcc.laws.primo.next_rate_core`, compiled in); the
start-up rate is three packets over the receiver's 1st-to-4th arrival gap
(:func:`~ctlcc.laws.primo.initial_rate_core`); FTT and the instantaneous
reception rate are measured by the receiver and echoed in the ACK; no
retransmissions (it carries multimedia); TO = 2 RTT_ref
(:func:`~ctlcc.laws.primo.ack_timeout_core`), halving the rate and doubling
TO when no ACK arrives (:func:`~ctlcc.laws.primo.timeout_backoff_core`).
"""

from dataclasses import dataclass, field

import numba
import numpy as np

from ...errors import ParameterError
from ...laws import primo as law
from ...laws.primo import PrimoParams
from .._core.layout import (
    EV_DEFER, EV_PACE, F_CWND, F_LAST_RTT, F_RATE, F_RTO_DEADLINE, G_INIT_RTO, I_ACTIVE,
    I_PACE_GEN, I_RCV_NXT, I_SND_UNA, I_UNIQUE, NF_COMMON, NI_COMMON, P_FLAG, Q_AUX1, Q_AUX2,
)
from .._core.net import arm, emit_ack, lookup, push, record, send_next, turn_into_ack
from ._base import SenderSpec

__all__ = ["Primo"]

CODE = 5
# private columns
(F_FTT_REF, F_RTT_REF, F_RCV_RATE, F_TO, F_TAU, F_R_T1, F_R_LAST, F_W1, F_W2, F_FSTR, F_FMOD,
 F_FREL, F_THSTR, F_THMOD, F_THREL) = range(NF_COMMON, NF_COMMON + 15)
I_PHASE, I_R_BURST, I_PH_HEAD, I_PH_COUNT, I_RH_HEAD, I_RH_COUNT = range(NI_COMMON,
                                                                       NI_COMMON + 6)
# EV_DEFER steps
STEP_SEND, STEP_ARM = 0, 1

_inline = numba.njit(cache=True, inline="always")
_jit = numba.njit(cache=True)
next_rate = numba.njit(law.next_rate_core, cache=True, inline="always")
initial_rate = numba.njit(law.initial_rate_core, cache=True, inline="always")
ack_timeout = numba.njit(law.ack_timeout_core, cache=True, inline="always")
backoff = numba.njit(law.timeout_backoff_core, cache=True, inline="always")


@dataclass(frozen=True)
class Primo(SenderSpec):
    """Primo and its parameters.

    Attributes
    ----------
    params : PrimoParams
        Algorithm 1's weights, factors, thresholds and tau (the paper's set
        by default, §III-E).
    """

    name = "primo"
    code = CODE
    window_based = False
    params: PrimoParams = field(default_factory=PrimoParams)

    def __post_init__(self):
        if not isinstance(self.params, PrimoParams):
            raise ParameterError(f"params must be a PrimoParams, got {type(self.params).__name__}")

    def init_flow(self, ff, fi, tab, j, tcp):
        p = self.params
        ff[j, F_CWND] = np.nan
        ff[j, F_RATE] = 0.0
        ff[j, F_FTT_REF] = np.inf
        ff[j, F_RTT_REF] = np.inf
        ff[j, F_R_LAST] = -1.0
        ff[j, F_TAU] = p.tau
        ff[j, F_W1], ff[j, F_W2] = p.W1, p.W2
        ff[j, F_FSTR], ff[j, F_FMOD], ff[j, F_FREL] = p.F_str, p.F_mod, p.F_rel
        ff[j, F_THSTR], ff[j, F_THMOD], ff[j, F_THREL] = p.TH_str, p.TH_mod, p.TH_rel


@_jit
def burst(now, f, ctx):
    """Start-up: four back-to-back packets (§III-B)."""
    if ctx.fi[f, I_ACTIVE] == 0:
        return
    for k in range(4):
        send_next(now, f, k + 1, ctx)


@_inline
def on_start(now, f, ctx):
    ctx.ff[f, F_TO] = ctx.g[G_INIT_RTO]
    burst(now, f, ctx)
    arm(now + ctx.ff[f, F_TO], f, ctx)


@_inline
def on_data(now, p, f, seq, ctx):
    """Receiver: count arrivals, echo FTT and the instantaneous reception rate."""
    ff, fi, pi, pf = ctx.ff, ctx.fi, ctx.pi, ctx.pf
    nxt = fi[f, I_RCV_NXT]
    fi[f, I_UNIQUE] += 1
    if seq >= nxt:
        fi[f, I_RCV_NXT] = seq + 1
    sent_time = turn_into_ack(now, p, f, ctx)
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
            rate = initial_rate(1.0, now - ff[f, F_R_T1])  # [packets/s]
            pi[p, P_FLAG] = 1
    pf[p, Q_AUX1] = ftt
    pf[p, Q_AUX2] = rate
    emit_ack(now, p, f, ctx)


@_jit
def on_ack(now, f, ack, rtt, ftt, rcv_rate, flag, ctx):
    """Source on an ACK: FTT_ref, ΔFTT history, RTT_ref, TO (§III-B)."""
    ff, fi = ctx.ff, ctx.fi
    if ack > fi[f, I_SND_UNA]:
        fi[f, I_SND_UNA] = ack
    if fi[f, I_ACTIVE] == 0:
        return
    if ftt < ff[f, F_FTT_REF]:
        ff[f, F_FTT_REF] = ftt
    if rtt < ff[f, F_RTT_REF]:
        ff[f, F_RTT_REF] = rtt
    ff[f, F_LAST_RTT] = rtt
    record(ctx.ph_t, ctx.ph_v, fi, f, I_PH_HEAD, I_PH_COUNT, now, ftt - ff[f, F_FTT_REF])
    if fi[f, I_PHASE] == 0:
        if flag == 1:
            ff[f, F_RATE] = rcv_rate
            ff[f, F_RCV_RATE] = rcv_rate
            fi[f, I_PHASE] = 1
            ff[f, F_TO] = rtt  # "the retransmission time out TO with the first RTT"
            fi[f, I_PACE_GEN] += 1
            push(ctx, now, EV_PACE, f, fi[f, I_PACE_GEN])
        else:
            return
    else:
        if rcv_rate > 0.0:
            ff[f, F_RCV_RATE] = rcv_rate
        ff[f, F_TO] = ack_timeout(ff[f, F_RTT_REF])
    arm(now + ff[f, F_TO], f, ctx)


@_inline
def on_pace(now, f, ctx):
    """Algorithm 1 before each packet; the packet leaves at the deferred event."""
    ff, fi = ctx.ff, ctx.fi
    rtt_ref = ff[f, F_RTT_REF]
    old_rate = lookup(ctx.rh_t, ctx.rh_v, fi, f, I_RH_HEAD, I_RH_COUNT, now - rtt_ref,
                      ff[f, F_RATE])
    dftt = lookup(ctx.ph_t, ctx.ph_v, fi, f, I_PH_HEAD, I_PH_COUNT, now - rtt_ref * ff[f, F_TAU],
                  0.0)
    if 0.0 > dftt:
        dftt = 0.0
    ff[f, F_RATE] = next_rate(old_rate, ff[f, F_RATE], ff[f, F_RCV_RATE], dftt, ff[f, F_FTT_REF],
                              ff[f, F_W1], ff[f, F_W2], ff[f, F_FSTR], ff[f, F_FMOD],
                              ff[f, F_FREL], ff[f, F_THSTR], ff[f, F_THMOD], ff[f, F_THREL])
    push(ctx, now, EV_DEFER, f, STEP_SEND)


@_jit
def paced_send(now, f, ctx):
    """Send one paced packet at the current rate."""
    ff, fi = ctx.ff, ctx.fi
    if fi[f, I_ACTIVE] == 0:
        return
    rate = ff[f, F_RATE]
    record(ctx.rh_t, ctx.rh_v, fi, f, I_RH_HEAD, I_RH_COUNT, now, rate)
    send_next(now, f, 0, ctx)
    gap = 1.0 / rate if rate > 0.0 else ff[f, F_TO]
    fi[f, I_PACE_GEN] += 1
    push(ctx, now + gap, EV_PACE, f, fi[f, I_PACE_GEN])
    if ff[f, F_RTO_DEADLINE] == np.inf:
        arm(now + ff[f, F_TO], f, ctx)


@_inline
def on_defer(now, f, step, ctx):
    if step == STEP_SEND:
        paced_send(now, f, ctx)
    else:
        arm(now + ctx.ff[f, F_TO], f, ctx)


@_inline
def on_rto(now, f, ctx):
    ff = ctx.ff
    if ctx.fi[f, I_PHASE] == 0:
        burst(now, f, ctx)
        arm(now + ff[f, F_TO], f, ctx)
    else:
        ff[f, F_RATE], ff[f, F_TO] = backoff(ff[f, F_RATE], ff[f, F_TO])
        push(ctx, now, EV_DEFER, f, STEP_ARM)
