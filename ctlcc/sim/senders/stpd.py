# ctlcc.sim.senders.stpd - ST-PD TCP (thesis §3.4, §4.2, Fig. 4.1)
"""ST-PD TCP: the window set once per round trip by the PD law.

Once per round trip the sender computes S(n), buf_est(n), err(n) and the PD
update (3.3)-(3.5) with :func:`ctlcc.laws.stpd.pd_window_core` compiled in,
keeps the window in [1, receiver window], and takes its gains (kp, kd)
either fixed, from the fuzzy supervisor's schedule on the perceived BDP
S(n) RTT_min (:meth:`ctlcc.laws.stpd_fuzzy.FuzzySupervisor.schedule`, a
piecewise-linear table evaluated in the loop), or from a user callable
(a Python round trip per evaluation).  Duplicate ACKs only trigger a
retransmission (no window cut); a timeout sets the window to one packet.
"""

from dataclasses import dataclass

import numba
import numpy as np

from ...errors import ParameterError
from ...laws import stpd as law
from ...laws.stpd_fuzzy import FuzzySupervisor
from ..._validation import check_nonnegative
from .._core.layout import (
    EV_DEFER, F_CWND, F_LAST_RTT, F_MIN_RTT, F_ROUND_START, G_MAX_WINDOW, I_ROUND_ACKED,
    I_ROUND_END, I_ROUND_RTTS, I_SND_MAX, I_SND_UNA, M_LAW_FLOW, NF_COMMON, NI_COMMON,
)
from .._core.net import push, try_send
from . import window as W
from ._base import SenderSpec

__all__ = ["Stpd"]

CODE = 4
# private columns
F_KP, F_KD, F_PREV_ERR, F_REF = NF_COMMON, NF_COMMON + 1, NF_COMMON + 2, NF_COMMON + 3
F_LAW_RTT, F_LAW_MIN, F_LAW_ACKED, F_LAW_DUR = (NF_COMMON + 4, NF_COMMON + 5, NF_COMMON + 6,
                                               NF_COMMON + 7)
I_GAINS = NI_COMMON
# gain modes
GAINS_FIXED, GAINS_TABLE, GAINS_CALLBACK = 0, 1, 2
# EV_DEFER steps
STEP_LAW, STEP_SEND = 0, 1

_inline = numba.njit(cache=True, inline="always")
pd_window = numba.njit(law.pd_window_core, cache=True, inline="always")
rate_core = numba.njit(law.service_rate_core, cache=True, inline="always")

#: The PD gains printed in thesis §4.3.3 (kp = 0.368, kd = 0.033).
PRINTED_GAINS = (0.368, 0.033)


@dataclass(frozen=True)
class Stpd(SenderSpec):
    """ST-PD TCP and its options.

    Attributes
    ----------
    gains : (kp, kd), FuzzySupervisor or callable
        Fixed PD gains (each >= 0); a :class:`~ctlcc.laws.stpd_fuzzy.FuzzySupervisor`
        whose schedule is evaluated on the perceived BDP S(n) RTT_min each
        round trip (compiled, as a piecewise-linear table, the BDP held at
        the universe's edge outside it); or a Python callable
        ``gains(bdp) -> (kp, kd)`` (one Python round trip per evaluation,
        counted in ``SimResult.wall_time``).
    reference : float
        Desired occupancy ``ref`` of eq. (3.2), >= 0. [packets]
    """

    name = "stpd"
    code = CODE
    gains: object = PRINTED_GAINS
    reference: float = law.REFERENCE_OCCUPANCY

    def __post_init__(self):
        g = self.gains
        if isinstance(g, FuzzySupervisor) or callable(g):
            pass
        else:
            try:
                kp, kd = g
            except (TypeError, ValueError):
                raise ParameterError(
                    f"gains must be a pair (kp, kd), a FuzzySupervisor or a callable "
                    f"bdp -> (kp, kd); got {g!r}") from None
            object.__setattr__(self, "gains", (float(check_nonnegative("kp", kp)),
                                               float(check_nonnegative("kd", kd))))
        object.__setattr__(self, "reference",
                           check_nonnegative("reference", self.reference, scalar=True))

    @classmethod
    def legacy(cls):
        """The sender ``protocol="stpd"`` meant before the sender specs existed.

        Fixed printed gains (0.368, 0.033), no slow start, NewReno-style
        repair of holes without window inflation: the engine's results with
        it are bit-for-bit those of the old engine (tests/sim/test_golden_engine.py).
        """
        return cls(gains=PRINTED_GAINS)

    def callback(self):
        g = self.gains
        return g if callable(g) and not isinstance(g, FuzzySupervisor) else None

    def init_flow(self, ff, fi, tab, j, tcp):
        W.init_window_flow(ff, fi, j, tcp)
        ff[j, F_REF] = self.reference
        g = self.gains
        if isinstance(g, FuzzySupervisor):
            x, kp, kd = g.schedule()
            if x.size > tab.shape[2]:
                raise ParameterError(f"the supervisor's schedule has {x.size} breakpoints, "
                                     f"more than the engine's {tab.shape[2]}")
            tab[j, 0, :] = x[-1]
            tab[j, 1, :] = kp[-1]
            tab[j, 2, :] = kd[-1]
            tab[j, 0, :x.size], tab[j, 1, :x.size], tab[j, 2, :x.size] = x, kp, kd
            fi[j, I_GAINS] = GAINS_TABLE
        elif self.callback() is not None:
            fi[j, I_GAINS] = GAINS_CALLBACK
        else:
            ff[j, F_KP], ff[j, F_KD] = g
            fi[j, I_GAINS] = GAINS_FIXED

    def table_size(self):
        """Breakpoints its gain table needs (0 without a supervisor)."""
        return self.gains.schedule()[0].size if isinstance(self.gains, FuzzySupervisor) else 0


def perceived_bdp(ff, f):
    """S(n) RTT_min staged for the gain schedule. [packets]"""
    return ff[f, F_LAW_ACKED] / ff[f, F_LAW_DUR] * ff[f, F_LAW_MIN]


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
        state = W.new_ack(now, f, ack, sample, echo_retx, W.REC_NEWRENO, False, ctx)
        W.ack_tail(now, f, state, ctx)
        if ack >= fi[f, I_ROUND_END]:
            round_end(now, f, ctx)
            W.new_round(now, f, ctx)
    elif ack == una and una < fi[f, I_SND_MAX]:
        W.dup_ack(now, f, W.REC_NEWRENO, False, False, ctx)
    try_send(now, f, ctx)


@_inline
def round_end(now, f, ctx):
    """Stage the round's measurements; the law runs at the deferred event."""
    ff, fi = ctx.ff, ctx.fi
    duration = now - ff[f, F_ROUND_START]
    if duration > 0.0 and fi[f, I_ROUND_RTTS] > 0:
        ff[f, F_LAW_RTT] = ff[f, F_LAST_RTT]
        ff[f, F_LAW_MIN] = ff[f, F_MIN_RTT]
        ff[f, F_LAW_ACKED] = fi[f, I_ROUND_ACKED]
        ff[f, F_LAW_DUR] = duration
        push(ctx, now, EV_DEFER, f, STEP_LAW)


@_inline
def apply_law(f, ctx):
    """PD update (3.5) with the staged measurements; window kept in [1, max]."""
    ff, fi = ctx.ff, ctx.fi
    mode = fi[f, I_GAINS]
    if mode == GAINS_TABLE:
        bdp = rate_core(ff[f, F_LAW_ACKED], ff[f, F_LAW_DUR]) * ff[f, F_LAW_MIN]
        kp = np.interp(bdp, ctx.tab[f, 0], ctx.tab[f, 1])
        kd = np.interp(bdp, ctx.tab[f, 0], ctx.tab[f, 2])
    else:
        kp = ff[f, F_KP]
        kd = ff[f, F_KD]
    cwnd, err = pd_window(ff[f, F_CWND], ff[f, F_LAW_RTT], ff[f, F_LAW_MIN], ff[f, F_LAW_ACKED],
                          ff[f, F_LAW_DUR], ff[f, F_PREV_ERR], kp, kd, ff[f, F_REF])
    if not cwnd >= 1.0:
        cwnd = 1.0
    maxw = ctx.g[G_MAX_WINDOW]
    if cwnd > maxw:
        cwnd = maxw
    ff[f, F_CWND] = cwnd
    ff[f, F_PREV_ERR] = err


@_inline
def on_defer(now, f, step, ctx):
    """Deferred steps: the law (returns True when Python must supply the gains), the send."""
    if step == STEP_LAW:
        push(ctx, now, EV_DEFER, f, STEP_SEND)
        if ctx.fi[f, I_GAINS] == GAINS_CALLBACK:
            ctx.meta[M_LAW_FLOW] = f
            return True
        apply_law(f, ctx)
        return False
    try_send(now, f, ctx)
    return False


@_inline
def on_rto(now, f, ctx):
    W.timeout(now, f, False, ctx)
