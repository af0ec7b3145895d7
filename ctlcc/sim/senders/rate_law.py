# ctlcc.sim.senders.rate_law - Primo's machinery around any rate law
"""The rate-law sender: Primo's pacing, signals and time-outs, the law left open.

A rate law ``update(rate, excess, received, previous, memory, **gains) ->
(new_rate, new_memory)`` (:class:`ctlcc.laws.user.RateLaw`) runs inside the
machinery of Primo (Chatté, Ducourthial & Niculescu (2006), §III): four
back-to-back packets at the start, then one packet every 1/rate; the
receiver measures the forward trip time and the reception rate and echoes
them in the ACK; before each packet (``per="packet"``, as Primo) or once per
round trip (``per="rtt"``) the sender calls the law, compiled (its address
in the flow's ``I_LAW`` column, :func:`ctlcc.sim._core.hooks.rate_law_call`),
with

* ``rate``: the current sending rate [packets/s];
* ``excess``: ΔFTT_D / FTT_ref, the forward trip time's excess over the
  smallest one seen, read D = tau RTT_ref ago, floored at 0 [1];
* ``received``: the last reception rate the receiver echoed [packets/s];
* ``previous``: the sending rate one RTT_ref ago (Primo's old_rate)
  [packets/s].

Time-outs, the start-up estimate and its restart are Primo's
(:class:`~ctlcc.sim.senders.primo.Primo`'s options, whose docstring says
what each does).  Two specs run these hooks: ``Primo`` (Algorithm 1,
:func:`ctlcc.laws.user.primo_rate_update`, with the paper's parameters as
its gains) and :class:`RateLawSender` (a user's
:class:`~ctlcc.laws.user.RateLaw`).

Primo's Algorithm 1 compares ΔFTT_D with ``TH x FTT_ref``; the law sees
``excess = ΔFTT_D / FTT_ref`` and compares it with ``TH``.  The two tests
are the same in exact arithmetic and can differ only when ΔFTT_D lies within
one rounding step of a threshold; the engine's fingerprints of Primo
(tests/sim/test_golden_engine.py, every preset) are unchanged by it.
"""

from dataclasses import dataclass

import numba
import numpy as np

from ...errors import ParameterError
from ...laws import primo as law
from ...laws.user import RateLaw
from .._core.hooks import rate_law_call
from .._core.layout import (
    EV_PACE, EV_STEP, F_CWND, F_LAST_RTT, F_RATE, F_RTO_DEADLINE, G_ERR0, G_ERR1, G_ERR2,
    G_ERR3, G_INIT_RTO, HOOK_ERROR, HOOK_OK, I_ACTIVE, I_PACE_GEN, I_RCV_NXT, I_SND_NXT,
    I_SND_UNA, I_TIMEOUTS, I_UNIQUE, M_ERROR, NF_COMMON, NI_COMMON, P_FLAG, P_SEQ, Q_AUX1,
    Q_AUX2,
)
from .._core.net import arm, emit_ack, push, send_next, turn_into_ack
from ._base import SenderSpec, check_option

__all__ = ["RateLawSender"]

# private columns
(F_FTT_REF, F_RTT_REF, F_RCV_RATE, F_TO, F_TAU, F_R_T1, F_R_LAST, F_BACKOFF, F_OUTSTANDING,
 F_JITTER, F_U, F_GAP_GAIN, F_GAP_AVG, F_LAST_LAW) = range(NF_COMMON, NF_COMMON + 14)
(I_PHASE, I_R_BURST, I_PH_HEAD, I_PH_COUNT, I_RH_HEAD, I_RH_COUNT, I_RH_SEQ, I_TO_FLOOR,
 I_LAW, I_NMEM, I_PER_RTT) = range(NI_COMMON, NI_COMMON + 11)
FLOAT_COLUMNS, INT_COLUMNS = 14, 11
#: history rings of ΔFTT and of the sending rate (rows of the flow's table). [entries]
HISTORY = 4096
ROW_PH_T, ROW_PH_V, ROW_RH_T, ROW_RH_V, ROW_MEM, ROW_GAINS = 0, 1, 2, 3, 4, 5
#: time-out readings of §III-D (see :class:`~ctlcc.sim.senders.primo.Primo`)
TIMEOUTS = ("outstanding", "literal")
#: reception-rate estimates (see :class:`~ctlcc.sim.senders.primo.Primo`)
RECEPTION_RATES = ("instantaneous", "mean_gap")
#: gain of the "mean_gap" estimate (TCP's RTT smoothing gain, RFC 6298) [1]
MEAN_GAP_GAIN = 0.125
# the sender's own steps (EV_STEP)
STEP_SEND, STEP_ARM = 0, 1
# meta[M_ERROR] of a law whose result is not a finite number
ERR_RATE, ERR_MEMORY = 1, 2

_inline = numba.njit(cache=True, inline="always")
_jit = numba.njit(cache=True)
initial_rate = numba.njit(law.initial_rate_core, cache=True, inline="always")
ack_timeout = numba.njit(law.ack_timeout_core, cache=True, inline="always")
backoff = numba.njit(law.timeout_backoff_core, cache=True, inline="always")
restart_delay = numba.njit(law.restart_delay_core, cache=True, inline="always")
timeout_deadline = numba.njit(law.timeout_deadline_core, cache=True, inline="always")
mean_gap = numba.njit(law.mean_gap_core, cache=True, inline="always")


def init_law_flow(options, ff, fi, tab, j, address, memory, gains, per):
    """Columns of a rate-law flow: Primo's options (a dict), the law and its gains."""
    ff[j, F_CWND] = np.nan
    ff[j, F_RATE] = 0.0
    ff[j, F_FTT_REF] = np.inf
    ff[j, F_RTT_REF] = np.inf
    ff[j, F_R_LAST] = -1.0
    ff[j, F_TAU] = options["tau"]
    ff[j, F_BACKOFF] = 1.0 if options["timeout_backoff"] else 0.0
    ff[j, F_OUTSTANDING] = 1.0 if options["timeout"] == "outstanding" else 0.0
    ff[j, F_JITTER] = options["restart_jitter"]
    ff[j, F_U] = 0.5
    ff[j, F_GAP_GAIN] = MEAN_GAP_GAIN if options["reception_rate"] == "mean_gap" else 0.0
    ff[j, F_GAP_AVG] = 0.0
    ff[j, F_LAST_LAW] = -np.inf
    fi[j, I_RH_SEQ] = -1
    # no burst seen yet: the 4th packet of the first burst (seq 3) must not match
    # "first packet's seq + 3" when the first packet (seq 0) was lost
    fi[j, I_R_BURST] = -4
    fi[j, I_LAW] = address
    fi[j, I_NMEM] = memory
    fi[j, I_PER_RTT] = 1 if per == "rtt" else 0
    tab[j, ROW_GAINS, :len(gains)] = gains


def law_error_message(name, arrays, f):
    """A rate law returned something the sender cannot run: say what and when."""
    what = "rate" if int(arrays.meta[M_ERROR]) == ERR_RATE else "memory"
    g = arrays.g
    from .._core.layout import G_NOW

    return (f"{name}: the law returned a {what} that is not a finite number on flow {f} at "
            f"t = {g[G_NOW]:.6g} s (rate={float(g[G_ERR0])!r}, excess={float(g[G_ERR1])!r} -> new "
            f"{what}={float(g[G_ERR2])!r}); the packet engine runs only finite rates: bound the law "
            f"(e.g. with ctlcc.laws.user.select) or check its gains")


@dataclass(frozen=True)
class RateLawSender(SenderSpec):
    """A :class:`~ctlcc.laws.user.RateLaw` as an engine sender (Primo's machinery).

    ``Flow(path, sender=law)`` and ``protocol=law`` wrap the law in this
    spec; the law's mechanics are Primo's options and ``tau``.

    Attributes
    ----------
    law : RateLaw

    Examples
    --------
    >>> from ctlcc.laws.user import primo_law
    >>> RateLawSender(primo_law()).protocol
    'ratelaw:primo'
    """

    law: RateLaw

    name = "ratelaw"
    window_based = False
    float_columns = FLOAT_COLUMNS
    int_columns = INT_COLUMNS

    def __post_init__(self):
        if not isinstance(self.law, RateLaw):
            raise ParameterError(f"law must be a ctlcc.RateLaw, got {type(self.law).__name__} "
                                 f"{self.law!r}")

    @property
    def protocol(self):
        return f"ratelaw:{self.law.name}"

    def table_shape(self, tcp):
        return (ROW_GAINS + 1, max(HISTORY, self.law.memory, len(self.law.gains)))

    def address(self):
        """Address of the compiled law (compiled on first use in the process)."""
        from ...laws.user import primo_rate_update

        if self.law.update is primo_rate_update:
            from .primo import primo_law_address

            return primo_law_address()
        from .._core.laws import compile_law

        return compile_law(self.law)[1]

    def compilations(self):
        from ...laws.user import primo_rate_update
        from .primo import PRIMO_LAW
        from .window_law import law_compilation

        return [PRIMO_LAW if self.law.update is primo_rate_update else
                law_compilation(self.law)]

    def init_flow(self, ff, fi, tab, j, tcp):
        init_law_flow(self.law.mechanics, ff, fi, tab, j, self.address(), self.law.memory,
                      [float(v) for v in self.law.gains.values()], self.law.per)

    def error_message(self, arrays, f):
        return law_error_message(f"RateLaw {self.law.name!r}", arrays, f)


# --- history rings (rows of the flow's table) ----------------------------------------------

@_inline
def lookup(times, values, head, count, target, default):
    """Newest history value recorded at or before *target* (oldest if none).

    The ring's times never decrease from its oldest entry to its newest (each
    is the ``now`` of an ACK or a send), so a binary search finds the entry a
    scan back from the newest would: O(log HISTORY) instead of one step per
    entry newer than *target* (a round trip's worth of ACKs or sends).
    """
    if count == 0:
        return default
    first = head - count                   # chronological positions first .. head - 1
    lo, hi = 0, count                      # invariant: entries before lo are <= target,
    while lo < hi:                         # entries from hi on are > target
        mid = (lo + hi) >> 1
        if times[(first + mid) % HISTORY] <= target:
            lo = mid + 1
        else:
            hi = mid
    if lo == 0:
        return values[first % HISTORY]
    return values[(first + lo - 1) % HISTORY]


@_inline
def record(times, values, fi, f, head_col, count_col, t, v):
    head = fi[f, head_col]
    times[head] = t
    values[head] = v
    fi[f, head_col] = (head + 1) % HISTORY
    if fi[f, count_col] < HISTORY:
        fi[f, count_col] += 1


# --- hooks ---------------------------------------------------------------------------------

@_inline
def draw(f, ctx, rng):
    """Uniform draw for the next start-up timer (only when restarts are spread).

    Called before the start-up burst is (re)sent; a flow with
    ``restart_jitter = 0`` draws nothing, so the run's random stream (loss
    models) is that of the literal sender.
    """
    if ctx.ff[f, F_JITTER] > 0.0 and ctx.fi[f, I_PHASE] == 0:
        ctx.ff[f, F_U] = rng.random()


@_inline
def startup_timer(now, f, ctx):
    """Arm the wait for a start-up burst's first ACK."""
    ff = ctx.ff
    if ff[f, F_JITTER] > 0.0:
        arm(now + restart_delay(ctx.g[G_INIT_RTO], ff[f, F_U], ff[f, F_JITTER]), f, ctx)
    else:
        arm(now + ff[f, F_TO], f, ctx)


@_inline
def sent_time(f, seq, ctx):
    """Send time of paced packet *seq* from the rate history (-1: not recorded)."""
    fi = ctx.fi
    k = fi[f, I_RH_SEQ] - seq
    if k < 0 or k >= fi[f, I_RH_COUNT]:
        return -1.0
    return ctx.tab[f, ROW_RH_T, (fi[f, I_RH_HEAD] - 1 - k) % HISTORY]


@_inline
def rearm_outstanding(now, f, ctx):
    """Timer on the oldest unacknowledged packet, stopped when none is."""
    ff, fi = ctx.ff, ctx.fi
    oldest = fi[f, I_SND_UNA]
    if fi[f, I_TO_FLOOR] > oldest:
        oldest = fi[f, I_TO_FLOOR]
    if oldest >= fi[f, I_SND_NXT]:
        ff[f, F_RTO_DEADLINE] = np.inf
        return
    t = sent_time(f, oldest, ctx)
    if t < 0.0:
        t = now
    deadline = timeout_deadline(t, ff[f, F_TO])
    arm(deadline if deadline > now else now, f, ctx)


@_inline
def burst(now, f, ctx):
    """Start-up: four back-to-back packets (§III-B)."""
    if ctx.fi[f, I_ACTIVE] == 0:
        return
    for k in range(4):
        send_next(now, f, k + 1, ctx)


@_inline
def on_start(now, f, ctx, rng):
    draw(f, ctx, rng)
    ctx.ff[f, F_TO] = ctx.g[G_INIT_RTO]
    burst(now, f, ctx)
    startup_timer(now, f, ctx)


@_inline
def on_data(now, f, p, ctx, rng):
    """Receiver: count arrivals, echo FTT and the instantaneous reception rate."""
    ff, fi, pi, pf = ctx.ff, ctx.fi, ctx.pi, ctx.pf
    seq = pi[p, P_SEQ]
    nxt = fi[f, I_RCV_NXT]
    fi[f, I_UNIQUE] += 1
    if seq >= nxt:
        fi[f, I_RCV_NXT] = seq + 1
    sent = turn_into_ack(now, p, f, ctx)
    ftt = now - sent
    last = ff[f, F_R_LAST]
    rate = (1.0 / (now - last)) if (last >= 0.0 and now > last) else 0.0
    if ff[f, F_GAP_GAIN] > 0.0 and last >= 0.0 and now > last:
        ff[f, F_GAP_AVG] = mean_gap(ff[f, F_GAP_AVG], now - last, ff[f, F_GAP_GAIN])
        rate = 1.0 / ff[f, F_GAP_AVG]
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


@_inline
def on_ack(now, f, ack, ctx, rng):
    """Source on an ACK: FTT_ref, ΔFTT history, RTT_ref, TO (§III-B)."""
    ff, fi = ctx.ff, ctx.fi
    rtt, ftt, rcv_rate = ack.rtt, ack.aux1, ack.aux2
    if ack.seq > fi[f, I_SND_UNA]:
        fi[f, I_SND_UNA] = ack.seq
    if fi[f, I_ACTIVE] == 0:
        return
    if ftt < ff[f, F_FTT_REF]:
        ff[f, F_FTT_REF] = ftt
    if rtt < ff[f, F_RTT_REF]:
        ff[f, F_RTT_REF] = rtt
    ff[f, F_LAST_RTT] = rtt
    record(ctx.tab[f, ROW_PH_T], ctx.tab[f, ROW_PH_V], fi, f, I_PH_HEAD, I_PH_COUNT, now,
           ftt - ff[f, F_FTT_REF])
    if fi[f, I_PHASE] == 0:
        if ack.flag == 1:
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
    if ff[f, F_OUTSTANDING] != 0.0:
        rearm_outstanding(now, f, ctx)
    else:
        arm(now + ff[f, F_TO], f, ctx)


@_inline
def on_pace(now, f, ctx, rng):
    """The law before each packet (or once per RTT_ref); the packet leaves at a step."""
    ff, fi, tab = ctx.ff, ctx.fi, ctx.tab
    rtt_ref = ff[f, F_RTT_REF]
    if fi[f, I_PER_RTT] == 0 or now - ff[f, F_LAST_LAW] >= rtt_ref:
        old_rate = lookup(tab[f, ROW_RH_T], tab[f, ROW_RH_V], fi[f, I_RH_HEAD],
                          fi[f, I_RH_COUNT], now - rtt_ref, ff[f, F_RATE])
        dftt = lookup(tab[f, ROW_PH_T], tab[f, ROW_PH_V], fi[f, I_PH_HEAD], fi[f, I_PH_COUNT],
                      now - rtt_ref * ff[f, F_TAU], 0.0)
        if 0.0 > dftt:
            dftt = 0.0
        rate = ff[f, F_RATE]
        excess = dftt / ff[f, F_FTT_REF]
        new = rate_law_call(fi[f, I_LAW], rate, excess, ff[f, F_RCV_RATE], old_rate,
                            tab[f, ROW_MEM], tab[f, ROW_GAINS])
        problem = 0
        if not np.isfinite(new):
            problem = ERR_RATE
        else:
            for i in range(fi[f, I_NMEM]):
                if not np.isfinite(tab[f, ROW_MEM, i]):
                    problem = ERR_MEMORY
                    new = tab[f, ROW_MEM, i]
        if problem != 0:
            ctx.meta[M_ERROR] = problem
            ctx.g[G_ERR0], ctx.g[G_ERR1], ctx.g[G_ERR2], ctx.g[G_ERR3] = rate, excess, new, f
            return HOOK_ERROR
        ff[f, F_RATE] = new
        ff[f, F_LAST_LAW] = now
    # the packet leaves at a step of the sender at this instant (after the events
    # already due now): the order and event count of the engine's goldens
    push(ctx, now, EV_STEP, f, STEP_SEND)
    return HOOK_OK


@_inline
def paced_send(now, f, ctx):
    """Send one paced packet at the current rate."""
    ff, fi = ctx.ff, ctx.fi
    if fi[f, I_ACTIVE] == 0:
        return
    rate = ff[f, F_RATE]
    record(ctx.tab[f, ROW_RH_T], ctx.tab[f, ROW_RH_V], fi, f, I_RH_HEAD, I_RH_COUNT, now, rate)
    fi[f, I_RH_SEQ] = fi[f, I_SND_NXT]
    send_next(now, f, 0, ctx)
    gap = 1.0 / rate if rate > 0.0 else ff[f, F_TO]
    fi[f, I_PACE_GEN] += 1
    push(ctx, now + gap, EV_PACE, f, fi[f, I_PACE_GEN])
    if ff[f, F_RTO_DEADLINE] == np.inf:
        arm(now + ff[f, F_TO], f, ctx)


@_inline
def on_step(now, f, step, ctx, rng):
    if step == STEP_SEND:
        paced_send(now, f, ctx)
    else:
        arm(now + ctx.ff[f, F_TO], f, ctx)


@_inline
def on_timer(now, f, ctx, rng):
    """Time-out: restart the start-up, or halve the rate and double TO (§III-B, D)."""
    ff, fi = ctx.ff, ctx.fi
    draw(f, ctx, rng)
    fi[f, I_TIMEOUTS] += 1
    if fi[f, I_PHASE] == 0:
        burst(now, f, ctx)
        startup_timer(now, f, ctx)
        return
    if ff[f, F_BACKOFF] != 0.0:
        ff[f, F_RATE], ff[f, F_TO] = backoff(ff[f, F_RATE], ff[f, F_TO])
    if ff[f, F_OUTSTANDING] == 0.0:
        push(ctx, now, EV_STEP, f, STEP_ARM)
        return
    # the outstanding packets are given up (no retransmission); the timer
    # restarts with the next send, which is re-paced at the new rate
    fi[f, I_TO_FLOOR] = fi[f, I_SND_NXT]
    ff[f, F_RTO_DEADLINE] = np.inf
    rate = ff[f, F_RATE]
    if rate > 0.0 and fi[f, I_RH_COUNT] > 0:
        last = ctx.tab[f, ROW_RH_T, (fi[f, I_RH_HEAD] - 1) % HISTORY]
        t = last + 1.0 / rate
        fi[f, I_PACE_GEN] += 1
        push(ctx, t if t > now else now, EV_PACE, f, fi[f, I_PACE_GEN])


def check_options(options):
    """Validate Primo's options (a dict with timeout, restart_jitter, reception_rate,
    timeout_backoff); return restart_jitter as a float."""
    if not isinstance(options["timeout_backoff"], bool):
        raise ParameterError("timeout_backoff must be True or False, got "
                             f"{options['timeout_backoff']!r}")
    check_option("timeout", options["timeout"], TIMEOUTS)
    jitter = options["restart_jitter"]
    if isinstance(jitter, bool) or not isinstance(jitter, (int, float, np.integer, np.floating)) \
            or not 0.0 <= jitter < 1.0:
        raise ParameterError(f"restart_jitter must be a number in [0, 1), got {jitter!r}")
    check_option("reception_rate", options["reception_rate"], RECEPTION_RATES)
    return float(jitter)
