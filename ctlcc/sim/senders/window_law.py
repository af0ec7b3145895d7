# ctlcc.sim.senders.window_law - ST-PD's window mechanics around any window law
"""The window-law sender: ST-PD TCP's mechanics, the law left open.

A window law ``update(window, error, memory, **gains) -> (new_window,
new_memory)`` (:class:`ctlcc.laws.user.WindowLaw`) runs inside the mechanics
of ST-PD TCP (thesis §3.4, §4.2, Fig. 4.1): once per round trip (or on every
ACK) the sender measures S(n), the backlog estimate (3.3) and the control
error (3.2), calls the law compiled (its address in the flow's ``I_LAW``
column, :func:`ctlcc.sim._core.hooks.window_law_call`), and keeps the
window in [1, receiver window]; duplicate ACKs only retransmit (no cut); the
timer sets the window to one segment; slow start at the start and after a
timeout; NewReno-style repair and window inflation (the options of
:class:`~ctlcc.sim.senders.stpd.Stpd`, see there for what each does and the
evidence behind each default).

Two specs run these hooks: :class:`~ctlcc.sim.senders.stpd.Stpd` (the PD
law (3.5), :func:`ctlcc.laws.user.pd_window_update`, with fixed gains, the
fuzzy supervisor's schedule or a Python callable) and :class:`WindowLawSender`
(a user's :class:`~ctlcc.laws.user.WindowLaw` with its fixed gains), so that
``WindowLaw(pd, memory=1, gains=dict(kp=a, kd=b))`` with the PD update runs
exactly as ``Stpd(gains=(a, b))``.

The flow's table (``ctx.tab[f]``) holds the law's memory (row
:data:`ROW_MEM`), its current gains (:data:`ROW_GAINS`) and, for a
schedule, the breakpoints (:data:`ROW_X`) and one row of values per gain
(:data:`ROW_SCHEDULE` on).  A law that returns a window or memory that is
not a finite number stops the run with a :class:`~ctlcc.errors.ParameterError`
naming the law, the flow, the time and the inputs.
"""

import functools
from dataclasses import dataclass

import numba
import numpy as np

from ..._validation import check_nonnegative
from ...errors import ParameterError
from ...laws import stpd as law
from ...laws.user import WindowLaw, pd_window_update
from .._core.hooks import WINDOW_LAW_SIGNATURE, address_of, is_compiled, window_law_call
from .._core.layout import (
    EV_STEP, F_CWND, F_LAST_RTT, F_MIN_RTT, F_ROUND_MIN_RTT, F_ROUND_START, G_ERR0, G_ERR1,
    G_ERR2, G_ERR3, G_MAX_WINDOW, G_NOW, HOOK_ERROR, HOOK_OK, HOOK_PYTHON, I_FAST_RETX,
    I_IN_RECOVERY, I_DUPACKS, I_ROUND_ACKED, I_ROUND_END, I_ROUND_RTTS, I_SND_MAX, I_SND_NXT,
    I_SND_UNA, M_ERROR, NF_COMMON, NI_COMMON,
)
from .._core.net import push, try_send_window
from . import window as W
from ._base import Compilation, SenderSpec, check_option

__all__ = ["WindowLawSender"]

# private columns
(F_REF, F_LAW_RTT, F_LAW_MIN, F_LAW_ACKED, F_LAW_DUR, F_INFL, F_LAST_S, F_LAST_PKTS,
 F_AFTER_TO, F_TO_ROUND, F_SS_TARGET, F_SS_EXIT) = range(NF_COMMON, NF_COMMON + 12)
# the after-timeout reading's codes travel as floats, compared with == (they did when
# the int columns were all taken; kept so the compiled code is the one of before)
(I_GAINS, I_PER_ACK, I_BDP_ROUND, I_REPAIR, I_INFLATE, I_SLOW_START, I_IN_SS, I_MARK_AFTER,
 I_LAW, I_NMEM, I_NGAINS) = range(NI_COMMON, NI_COMMON + 11)
FLOAT_COLUMNS, INT_COLUMNS = 12, 11
# rows of the flow's table
ROW_MEM, ROW_GAINS, ROW_X, ROW_SCHEDULE = 0, 1, 2, 3
# readings (options of the specs) and their codes
ROUND_MARKERS = ("after_send", "before_send")
UPDATES = ("rtt", "ack")
BDPS = ("rtt_min", "round")
REPAIRS = ("newreno", "dupack")
STARTS = ("pd", "slow_start")
AFTER_TIMEOUTS = ("pd", "slow_start", "handover_target", "round_target")
TIMEOUT_ROUNDS = ("continue", "restart")
SLOW_START_EXITS = ("backlog_or_loss", "backlog")
AT_PD, AT_SLOW_START, AT_HANDOVER, AT_ROUND = 0.0, 1.0, 2.0, 3.0
TR_CONTINUE, TR_RESTART = 0.0, 1.0
EXIT_LOSS, EXIT_BACKLOG = 0.0, 1.0
# where the gains come from
GAINS_FIXED, GAINS_TABLE, GAINS_CALLBACK = 0, 1, 2
# the sender's own steps (EV_STEP): the per-round law, then the send it allows
STEP_LAW, STEP_SEND = 0, 1
# meta[M_ERROR] of a law whose result is not a finite number
ERR_WINDOW, ERR_MEMORY = 1, 2

_inline = numba.njit(cache=True, inline="always")
_jit = numba.njit(cache=True)
rate_core = numba.njit(law.service_rate_core, cache=True, inline="always")
pd_update = numba.njit(pd_window_update, cache=True, inline="always")


@numba.njit(cache=True)
def pd_law(window, error, memory, gains):
    """ST-PD's PD law (3.5) behind the window-law signature (see :mod:`.._core.laws`)."""
    new, new_memory = pd_update(window, error, (memory[0],), gains[0], gains[1])
    memory[0] = new_memory[0]
    return new


@functools.lru_cache(maxsize=None)
def pd_law_address():
    """Address of :func:`pd_law` (compiled, or loaded from numba's cache, once)."""
    return address_of(pd_law, WINDOW_LAW_SIGNATURE)


#: ST-PD's PD law, compiled with the sender's module and cached on disk with it
PD_LAW = Compilation("ST-PD's PD law", 1, "pd_law", lambda: is_compiled(pd_law),
                     pd_law_address)


def law_compilation(law):
    """The :data:`Compilation` of a researcher's law (once per process, not cached)."""
    from .._core import laws

    return Compilation(f"law {law.name!r}", 1, laws.law_key(law),
                       lambda: laws.law_key(law) in laws._COMPILED, lambda: laws.compile_law(law))


# --- the two specs' shared set-up -----------------------------------------------------------

def init_law_flow(spec, ff, fi, tab, j, tcp, address, memory, gains, schedule=None):
    """Columns of a window-law flow: the mechanics *spec*, the law and its gains.

    *spec*: the mechanics options by name (a dict: ``update``, ``reference``,
    ``bdp``, ``repair``, ``inflation``, ``start``, ``round_marker``,
    ``after_timeout``, ``timeout_round``, ``slow_start_exit``).

    *gains*: the fixed gains (a sequence of floats), or None with *schedule*
    ``(x, rows)`` (breakpoints and one row of values per gain, evaluated
    each round trip on the perceived BDP) or with a Python callable
    (``schedule="callback"``).
    """
    W.init_window_flow(ff, fi, j, tcp)
    ff[j, F_REF] = spec["reference"]
    fi[j, I_PER_ACK] = UPDATES.index(spec["update"])
    fi[j, I_BDP_ROUND] = BDPS.index(spec["bdp"])
    fi[j, I_REPAIR] = REPAIRS.index(spec["repair"])
    fi[j, I_INFLATE] = 1 if spec["inflation"] else 0
    fi[j, I_SLOW_START] = fi[j, I_IN_SS] = STARTS.index(spec["start"])
    fi[j, I_MARK_AFTER] = 1 if spec["round_marker"] == "after_send" else 0
    ff[j, F_AFTER_TO] = AFTER_TIMEOUTS.index(spec["after_timeout"])
    ff[j, F_TO_ROUND] = TIMEOUT_ROUNDS.index(spec["timeout_round"])
    ff[j, F_SS_TARGET] = np.inf
    ff[j, F_SS_EXIT] = SLOW_START_EXITS.index(spec["slow_start_exit"])
    fi[j, I_LAW] = address
    fi[j, I_NMEM] = memory
    if schedule is None:
        fi[j, I_NGAINS] = len(gains)
        tab[j, ROW_GAINS, :len(gains)] = gains
        fi[j, I_GAINS] = GAINS_FIXED
    elif isinstance(schedule, str):
        fi[j, I_GAINS] = GAINS_CALLBACK
    else:
        x, rows = schedule
        fi[j, I_NGAINS] = len(rows)
        # each row padded to the table's width with its last point, as np.interp needs
        tab[j, ROW_X, :] = x[-1]
        tab[j, ROW_X, :x.size] = x
        for i, values in enumerate(rows):
            tab[j, ROW_SCHEDULE + i, :] = values[-1]
            tab[j, ROW_SCHEDULE + i, :x.size] = values
        fi[j, I_GAINS] = GAINS_TABLE


def law_error_message(name, arrays, f):
    """A window law returned something the sender cannot run: say what and when."""
    what = "window" if int(arrays.meta[M_ERROR]) == ERR_WINDOW else "memory"
    g = arrays.g
    return (f"{name}: the law returned a {what} that is not a finite number on flow {f} at "
            f"t = {g[G_NOW]:.6g} s (window={float(g[G_ERR0])!r}, error={float(g[G_ERR1])!r} -> "
            f"new {what}={float(g[G_ERR2])!r}); the packet engine runs only finite windows: bound "
            f"the law (e.g. with ctlcc.laws.user.select) or check its gains")


@dataclass(frozen=True)
class WindowLawSender(SenderSpec):
    """A :class:`~ctlcc.laws.user.WindowLaw` as an engine sender.

    ``Flow(path, sender=law)`` and ``protocol=law`` wrap the law in this
    spec; the law's ``per`` is ST-PD's ``update`` option and its mechanics
    are ST-PD's other options.

    Attributes
    ----------
    law : WindowLaw

    Examples
    --------
    >>> from ctlcc.laws.user import pd_law
    >>> WindowLawSender(pd_law(0.2, 0.1)).protocol
    'windowlaw:pd'
    """

    law: WindowLaw

    name = "windowlaw"
    float_columns = FLOAT_COLUMNS
    int_columns = INT_COLUMNS

    def __post_init__(self):
        if not isinstance(self.law, WindowLaw):
            raise ParameterError(f"law must be a ctlcc.WindowLaw, got {type(self.law).__name__} "
                                 f"{self.law!r}")

    @property
    def protocol(self):
        return f"windowlaw:{self.law.name}"

    def table_shape(self, tcp):
        return (2, max(1, self.law.memory, len(self.law.gains)))

    def address(self):
        """Address of the compiled law (compiled on first use in the process)."""
        if self.law.update is pd_window_update:
            return pd_law_address()
        from .._core.laws import compile_law

        return compile_law(self.law)[1]

    def compilations(self):
        return [PD_LAW if self.law.update is pd_window_update else law_compilation(self.law)]

    def init_flow(self, ff, fi, tab, j, tcp):
        init_law_flow(self.mechanics(), ff, fi, tab, j, tcp, self.address(), self.law.memory,
                      [float(v) for v in self.law.gains.values()])

    def mechanics(self):
        """The window mechanics by name (Stpd's options; ``update`` is the law's ``per``)."""
        return {**self.law.mechanics, "update": self.law.per}

    def error_message(self, arrays, f):
        return law_error_message(f"WindowLaw {self.law.name!r}", arrays, f)


# --- hooks ---------------------------------------------------------------------------------

def perceived_bdp(ff, f):
    """The supervisor's input staged for a Python callable (update="rtt"). [packets]"""
    return ff[f, F_LAW_ACKED] / ff[f, F_LAW_DUR] * ff[f, F_LAW_MIN]


@_inline
def send_more(now, f, ctx):
    """Send within the law's window plus any inflation of the current repair."""
    try_send_window(now, f, ctx.ff[f, F_CWND] + ctx.ff[f, F_INFL], ctx)


@_inline
def on_start(now, f, ctx, rng):
    send_more(now, f, ctx)


@_inline
def leave_slow_start(f, ctx):
    """End slow start; the window starts the law at the perceived BDP + ref.

    Slow start overshoots by up to a window; the PD law, whose error is
    bounded by the buffer, would take tens of round trips to remove the
    excess (kp ~ 0.04 packet per round trip per packet of error), losing
    packets every round on a small buffer.  So the window is brought down
    to the law's own target S(n) RTT_min + ref, from the last round.
    """
    ff, fi = ctx.ff, ctx.fi
    if fi[f, I_IN_SS] == 0:
        return
    fi[f, I_IN_SS] = 0
    s = ff[f, F_LAST_S]
    if s > 0.0 and ff[f, F_MIN_RTT] < np.inf:
        target = s * ff[f, F_MIN_RTT] + ff[f, F_REF]
        if target < 1.0:
            target = 1.0
        if target < ff[f, F_CWND]:
            ff[f, F_CWND] = target
        if ff[f, F_AFTER_TO] >= AT_HANDOVER:
            ff[f, F_SS_TARGET] = target


@_inline
def on_ack(now, f, ack, ctx, rng):
    ff, fi = ctx.ff, ctx.fi
    seq, sample = ack.seq, ack.rtt
    if not W.ack_preamble(f, seq, sample, ack.retx, ctx):
        return HOOK_OK
    una = fi[f, I_SND_UNA]
    recovery = W.REC_NEWRENO if fi[f, I_REPAIR] == 0 else W.REC_RENO
    fresh = seq > una
    duplicate = (not fresh) and seq == una and una < fi[f, I_SND_MAX]
    if fresh:
        newly = seq - una
        state = W.new_ack(now, f, seq, sample, ack.retx, recovery, False, ctx)
        if state == W.ACK_PARTIAL:
            infl = ff[f, F_INFL] - newly + 1.0
            ff[f, F_INFL] = infl if infl > 0.0 else 0.0
        else:
            ff[f, F_INFL] = 0.0
            if state == W.ACK_OPEN and fi[f, I_IN_SS] == 1:
                ff[f, F_CWND] += 1.0  # slow start
                if ff[f, F_CWND] >= ff[f, F_SS_TARGET]:  # after_timeout="..._target"
                    ff[f, F_CWND] = ff[f, F_SS_TARGET]
                    fi[f, I_IN_SS] = 0
        W.ack_tail(now, f, state, ctx)
    elif duplicate:
        before = fi[f, I_FAST_RETX]
        W.dup_ack(now, f, recovery, False, False, ctx)
        if fi[f, I_FAST_RETX] != before:
            if ff[f, F_SS_EXIT] == EXIT_LOSS:
                leave_slow_start(f, ctx)  # a loss ends slow start
            if fi[f, I_INFLATE] == 1:
                ff[f, F_INFL] = float(fi[f, I_DUPACKS])
        elif fi[f, I_INFLATE] == 1 and fi[f, I_IN_RECOVERY] == 1:
            ff[f, F_INFL] += 1.0  # window inflation
    status = HOOK_OK
    if fi[f, I_PER_ACK] == 1 and (fresh or duplicate):
        status = per_ack_law(f, sample, ctx)
    round_done = fresh and seq >= fi[f, I_ROUND_END]
    if round_done:
        round_end(now, f, ctx)
        W.new_round(now, f, ctx)
        if ff[f, F_TO_ROUND] == TR_RESTART:
            fi[f, I_ROUND_END] = fi[f, I_SND_NXT]
    send_more(now, f, ctx)
    if round_done:
        mark_round(f, ctx)
    return status


@_inline
def mark_round(f, ctx):
    """round_marker="after_send": the round ends with the highest segment sent.

    With ``timeout_round="restart"`` that is the retransmission front
    snd_nxt (below snd_max only while go-back-N resends the flight of a
    timeout), so that a round after a timeout is one round trip.
    """
    fi = ctx.fi
    if fi[f, I_MARK_AFTER] == 1:
        if ctx.ff[f, F_TO_ROUND] == TR_RESTART:
            fi[f, I_ROUND_END] = fi[f, I_SND_NXT]
        else:
            fi[f, I_ROUND_END] = fi[f, I_SND_MAX]


@_jit
def schedule(f, bdp, fi, tab):
    """Gains of the round: each gain's piecewise-linear schedule at the perceived BDP."""
    for i in range(fi[f, I_NGAINS]):
        tab[f, ROW_GAINS, i] = np.interp(bdp, tab[f, ROW_X], tab[f, ROW_SCHEDULE + i])


@_inline
def control_error(rtt, rtt_min, acked, duration, reference):
    """err(n) = ref - (RTT(n) - RTT_min) S(n), S(n) = acked / duration (3.2)-(3.4).

    The arithmetic of :func:`ctlcc.laws.stpd.pd_window_core`, in its order.
    """
    rate = acked / duration
    return reference - (rtt - rtt_min) * rate


@_jit
def law_step(f, err, ff, fi, tab, g, meta):
    """Call the flow's law on (window, err); keep the window in [1, receiver window].

    Compiled on its own (on the arrays it uses): the per-ACK and the
    per-round paths call it.
    """
    window = ff[f, F_CWND]
    cwnd = window_law_call(fi[f, I_LAW], window, err, tab[f, ROW_MEM], tab[f, ROW_GAINS])
    problem = 0
    if not np.isfinite(cwnd):
        problem = ERR_WINDOW
    else:
        for i in range(fi[f, I_NMEM]):
            if not np.isfinite(tab[f, ROW_MEM, i]):
                problem = ERR_MEMORY
                cwnd = tab[f, ROW_MEM, i]
    if problem != 0:
        meta[M_ERROR] = problem
        g[G_ERR0], g[G_ERR1], g[G_ERR2], g[G_ERR3] = window, err, cwnd, f
        return HOOK_ERROR
    if not cwnd >= 1.0:
        cwnd = 1.0
    maxw = g[G_MAX_WINDOW]
    if cwnd > maxw:
        cwnd = maxw
    ff[f, F_CWND] = cwnd
    return HOOK_OK


@_inline
def per_ack_law(f, sample, ctx):
    """update="ack": (3.2)-(3.4) with this ACK's RTT and the last round's S(n), then the law."""
    ff, fi = ctx.ff, ctx.fi
    if fi[f, I_IN_SS] == 1 or ff[f, F_LAST_S] <= 0.0 or sample <= 0.0:
        return HOOK_OK
    s = ff[f, F_LAST_S]
    if fi[f, I_GAINS] == GAINS_TABLE:
        schedule(f, ff[f, F_LAST_PKTS] if fi[f, I_BDP_ROUND] == 1 else s * ff[f, F_MIN_RTT],
                 fi, ctx.tab)
    # S(n) = acked / duration with acked = S, duration = 1 s
    err = control_error(sample, ff[f, F_MIN_RTT], s, 1.0, ff[f, F_REF])
    return law_step(f, err, ff, fi, ctx.tab, ctx.g, ctx.meta)


@_inline
def round_end(now, f, ctx):
    """Once per round trip: S(n); slow-start exit; stage the per-round law."""
    ff, fi = ctx.ff, ctx.fi
    duration = now - ff[f, F_ROUND_START]
    if duration > 0.0 and fi[f, I_ROUND_RTTS] > 0:
        ff[f, F_LAST_S] = rate_core(float(fi[f, I_ROUND_ACKED]), duration)
        ff[f, F_LAST_PKTS] = fi[f, I_ROUND_ACKED]
        if fi[f, I_IN_SS] == 1:
            # slow start ends once the backlog estimate (3.3) exceeds ref, with
            # the round's smallest RTT (as Vegas does): the last sample of a
            # slow-start round carries the queue of its own two-packet burst
            if (ff[f, F_ROUND_MIN_RTT] - ff[f, F_MIN_RTT]) * ff[f, F_LAST_S] > ff[f, F_REF]:
                leave_slow_start(f, ctx)
            return
        if ff[f, F_AFTER_TO] == AT_ROUND and fi[f, I_IN_RECOVERY] == 0:
            # the law's target S(n) RTT_min + ref of the last round outside a repair
            target = ff[f, F_LAST_S] * ff[f, F_MIN_RTT] + ff[f, F_REF]
            ff[f, F_SS_TARGET] = target if target > 1.0 else 1.0
        if fi[f, I_PER_ACK] == 1:
            return
        ff[f, F_LAW_RTT] = ff[f, F_LAST_RTT]
        ff[f, F_LAW_MIN] = ff[f, F_MIN_RTT]
        ff[f, F_LAW_ACKED] = fi[f, I_ROUND_ACKED]
        ff[f, F_LAW_DUR] = duration
        # the law runs at a step of its own at this instant, after the events already
        # due now (other flows' ACKs of the same instant), and its segments leave at a
        # second step: the order (and event count) of the engine's goldens
        push(ctx, now, EV_STEP, f, STEP_LAW)


@_inline
def apply_law(f, ctx):
    """update="rtt": the law on the staged measurements of the round."""
    ff, fi = ctx.ff, ctx.fi
    if fi[f, I_GAINS] == GAINS_TABLE:
        bdp = ff[f, F_LAW_ACKED] if fi[f, I_BDP_ROUND] == 1 else \
            rate_core(ff[f, F_LAW_ACKED], ff[f, F_LAW_DUR]) * ff[f, F_LAW_MIN]
        schedule(f, bdp, fi, ctx.tab)
    err = control_error(ff[f, F_LAW_RTT], ff[f, F_LAW_MIN], ff[f, F_LAW_ACKED],
                        ff[f, F_LAW_DUR], ff[f, F_REF])
    return law_step(f, err, ff, fi, ctx.tab, ctx.g, ctx.meta)


@_inline
def on_step(now, f, step, ctx, rng):
    """The per-round law (or the hand-over to Python for callable gains), then the send."""
    if step == STEP_LAW:
        push(ctx, now, EV_STEP, f, STEP_SEND)
        if ctx.fi[f, I_GAINS] == GAINS_CALLBACK:
            return HOOK_PYTHON
        return apply_law(f, ctx)
    send_more(now, f, ctx)
    mark_round(f, ctx)  # the law's own segments belong to the new round
    return HOOK_OK


@_inline
def on_resume(now, f, ctx, rng):
    """The Python callable has written the round's gains: the law runs."""
    return apply_law(f, ctx)


@_inline
def on_timer(now, f, ctx, rng):
    """The safety net: window to one segment, then ``after_timeout`` regrows it."""
    ff, fi = ctx.ff, ctx.fi
    if W.timeout_window(now, f, False, ctx):
        ff[f, F_INFL] = 0.0
        if ff[f, F_AFTER_TO] != AT_PD:
            fi[f, I_IN_SS] = 1  # TCP's slow start again after a timeout
        if ff[f, F_TO_ROUND] == TR_RESTART:
            # a new round trip starts at the expiry and ends with the ACK of the
            # first retransmission: S(n) then measures the restarted window, not
            # the idle timer period
            W.new_round(now, f, ctx)
            fi[f, I_ROUND_END] = fi[f, I_SND_UNA] + 1
        send_more(now, f, ctx)
        W.timeout_arm(now, f, ctx)


def check_mechanics(spec):
    """Validate the mechanics options (a dict, Stpd's names); return the reference."""
    check_option("update", spec["update"], UPDATES)
    check_option("bdp", spec["bdp"], BDPS)
    check_option("repair", spec["repair"], REPAIRS)
    check_option("inflation", spec["inflation"], (False, True))
    check_option("start", spec["start"], STARTS)
    check_option("round_marker", spec["round_marker"], ROUND_MARKERS)
    check_option("after_timeout", spec["after_timeout"], AFTER_TIMEOUTS)
    check_option("timeout_round", spec["timeout_round"], TIMEOUT_ROUNDS)
    check_option("slow_start_exit", spec["slow_start_exit"], SLOW_START_EXITS)
    return check_nonnegative("reference", spec["reference"], scalar=True)
