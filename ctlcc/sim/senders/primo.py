# ctlcc.sim.senders.primo - Primo (Chatté, Ducourthial, Niculescu)
"""Primo: a paced, unreliable rate sender driven by forward-trip times.

Four back-to-back packets, then one packet every 1/rate with the rate from
Algorithm 1 (:func:`ctlcc.laws.primo.next_rate_core`, compiled in); the
start-up rate is three packets over the receiver's 1st-to-4th arrival gap
(:func:`~ctlcc.laws.primo.initial_rate_core`); FTT and the instantaneous
reception rate are measured by the receiver and echoed in the ACK; no
retransmissions (it carries multimedia); TO = 2 RTT_ref
(:func:`~ctlcc.laws.primo.ack_timeout_core`), halving the rate and doubling
TO on a time-out (:func:`~ctlcc.laws.primo.timeout_backoff_core`).

Two points §III leaves open are spec options (:class:`Primo`):

* the time-out (§III-D, "if no acknowledgment is received during a period
  of TO seconds").  Default ``timeout="outstanding"``: as in TCP (RFC 6298
  §5) the timer runs only while a packet is outstanding and from the send
  time of the oldest unacknowledged one
  (:func:`~ctlcc.laws.primo.timeout_deadline_core`); a time-out gives the
  outstanding packets up (Primo does not retransmit), halves the rate and
  re-paces the next packet at the halved rate.  ``"literal"``: re-armed at
  now + TO on every ACK and every send into an idle timer, so a source
  whose packet gap exceeds TO times out with nothing lost;
* the start-up restart (§III-B, "the whole initialization phase is
  restarted").  Default ``restart_jitter=0.5``: each start-up burst waits
  ``U[0.5, 1.5] x`` the initial time-out for its first ACK
  (:func:`~ctlcc.laws.primo.restart_delay_core`, drawn from the run's
  Generator); 0 is the fixed 1-s timer, which keeps flows that collided in
  lockstep forever.

:meth:`Primo.legacy` is the literal reading (the sender before issue 12);
the golden fingerprints use it.
"""

from dataclasses import dataclass, field

import numba
import numpy as np

from ...errors import ParameterError
from ...laws import primo as law
from ...laws.primo import PrimoParams
from .._core.layout import (
    EV_DEFER, EV_PACE, F_CWND, F_LAST_RTT, F_RATE, F_RTO_DEADLINE, G_INIT_RTO, I_ACTIVE,
    I_PACE_GEN, I_RCV_NXT, I_SND_NXT, I_SND_UNA, I_TIMEOUTS, I_UNIQUE, NF_COMMON, NI_COMMON,
    P_FLAG, Q_AUX1, Q_AUX2,
)
from .._core.net import arm, emit_ack, lookup, push, record, send_next, turn_into_ack
from ._base import SenderSpec

__all__ = ["Primo"]

CODE = 5
# private columns
(F_FTT_REF, F_RTT_REF, F_RCV_RATE, F_TO, F_TAU, F_R_T1, F_R_LAST, F_W1, F_W2, F_FSTR, F_FMOD,
 F_FREL, F_THSTR, F_THMOD, F_THREL, F_BACKOFF, F_OUTSTANDING, F_JITTER,
 F_U, F_GAP_GAIN, F_GAP_AVG) = range(NF_COMMON, NF_COMMON + 21)
(I_PHASE, I_R_BURST, I_PH_HEAD, I_PH_COUNT, I_RH_HEAD, I_RH_COUNT, I_RH_SEQ,
 I_TO_FLOOR) = range(NI_COMMON, NI_COMMON + 8)
#: time-out readings of §III-D (see :class:`Primo`)
TIMEOUTS = ("outstanding", "literal")
#: reception-rate estimates (see :class:`Primo`)
RECEPTION_RATES = ("instantaneous", "mean_gap")
#: gain of the "mean_gap" estimate (TCP's RTT smoothing gain, RFC 6298) [1]
MEAN_GAP_GAIN = 0.125
# EV_DEFER steps
STEP_SEND, STEP_ARM = 0, 1

_inline = numba.njit(cache=True, inline="always")
_jit = numba.njit(cache=True)
next_rate = numba.njit(law.next_rate_core, cache=True, inline="always")
initial_rate = numba.njit(law.initial_rate_core, cache=True, inline="always")
ack_timeout = numba.njit(law.ack_timeout_core, cache=True, inline="always")
backoff = numba.njit(law.timeout_backoff_core, cache=True, inline="always")
restart_delay = numba.njit(law.restart_delay_core, cache=True, inline="always")
timeout_deadline = numba.njit(law.timeout_deadline_core, cache=True, inline="always")
mean_gap = numba.njit(law.mean_gap_core, cache=True, inline="always")


@dataclass(frozen=True)
class Primo(SenderSpec):
    """Primo and its parameters.

    Attributes
    ----------
    params : PrimoParams
        Algorithm 1's weights, factors, thresholds and tau (the paper's set
        by default, §III-E).
    timeout : {"outstanding", "literal"}
        Reading of §III-D's time-out.  "outstanding" (default): the timer
        runs only while a packet is unacknowledged, from the send time of
        the oldest one (:func:`~ctlcc.laws.primo.timeout_deadline`).
        "literal": TO is re-armed from now on every ACK, so a source whose
        gap 1/rate exceeds TO = 2 RTT_ref times out with nothing lost.
        Under "outstanding" a packet still times out without loss when it
        waits in queues longer than RTT_ref (TO = 2 RTT_ref, measured from
        its send): the time-out then reads a queueing delay above RTT_ref
        as §III-D's "network saturation" - which is what hands a shared
        drop-tail queue to Reno (:func:`ctlcc.experiments.primo.primo_against_reno`).
    restart_jitter : float
        A start-up burst waits ``U[1 - j, 1 + j] x`` the initial time-out
        for its first ACK before it is sent again
        (:func:`~ctlcc.laws.primo.restart_delay`), in [0, 1); 0.5 by
        default, 0 the fixed timer of the literal reading.
    reception_rate : {"instantaneous", "mean_gap"}
        "instantaneous" (default, the paper §III-A): the receiver echoes
        1 / (time since the previous arrival).  "mean_gap": 1 / the gap
        smoothed with gain :data:`MEAN_GAP_GAIN`
        (:func:`~ctlcc.laws.primo.mean_gap`), an unbiased estimate of the
        flow's share when its packets are interleaved with others'; not the
        paper's protocol, a counterfactual that isolates the per-packet
        estimate's bias.
    timeout_backoff : bool
        True (the paper, §III-D): a time-out halves the rate and doubles TO
        (:func:`~ctlcc.laws.primo.timeout_backoff_core`).  False: the rate
        and TO are left as they are (a bound used by
        :func:`ctlcc.experiments.primo.startup_diagnosis`).

    Examples
    --------
    >>> Primo.legacy()
    Primo(params=PrimoParams(W1=0.5, W2=0.9, F_str=0.95, F_mod=0.99, F_rel=1.05, TH_str=0.34, TH_mod=0.17, TH_rel=0.15, tau=1.0), timeout='literal', restart_jitter=0.0, reception_rate='instantaneous', timeout_backoff=True)
    >>> Primo(timeout="lazy")
    Traceback (most recent call last):
    ...
    ctlcc.errors.ParameterError: timeout must be one of 'outstanding', 'literal'; got 'lazy'
    """

    name = "primo"
    code = CODE
    window_based = False
    params: PrimoParams = field(default_factory=PrimoParams)
    timeout: str = "outstanding"
    restart_jitter: float = 0.5
    reception_rate: str = "instantaneous"
    timeout_backoff: bool = True

    @classmethod
    def legacy(cls, **changes):
        """§III read literally: TO re-armed on every ACK, fixed restart timer.

        The sender before issue 12 (the golden fingerprints' Primo); keyword
        arguments override single fields.
        """
        return cls(**{"timeout": "literal", "restart_jitter": 0.0, **changes})

    def __post_init__(self):
        if not isinstance(self.params, PrimoParams):
            raise ParameterError(f"params must be a PrimoParams, got {type(self.params).__name__}")
        if not isinstance(self.timeout_backoff, bool):
            raise ParameterError("timeout_backoff must be True or False, got "
                                 f"{self.timeout_backoff!r}")
        if not (isinstance(self.timeout, str) and self.timeout in TIMEOUTS):
            raise ParameterError(f"timeout must be one of {', '.join(map(repr, TIMEOUTS))}; "
                                 f"got {self.timeout!r}")
        if isinstance(self.restart_jitter, bool) or not isinstance(
                self.restart_jitter, (int, float, np.integer, np.floating)) \
                or not 0.0 <= self.restart_jitter < 1.0:
            raise ParameterError(f"restart_jitter must be a number in [0, 1), got "
                                 f"{self.restart_jitter!r}")
        object.__setattr__(self, "restart_jitter", float(self.restart_jitter))
        if not (isinstance(self.reception_rate, str) and self.reception_rate in RECEPTION_RATES):
            raise ParameterError(f"reception_rate must be one of "
                                 f"{', '.join(map(repr, RECEPTION_RATES))}; got "
                                 f"{self.reception_rate!r}")

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
        ff[j, F_BACKOFF] = 1.0 if self.timeout_backoff else 0.0
        ff[j, F_OUTSTANDING] = 1.0 if self.timeout == "outstanding" else 0.0
        ff[j, F_JITTER] = self.restart_jitter
        ff[j, F_U] = 0.5
        ff[j, F_GAP_GAIN] = MEAN_GAP_GAIN if self.reception_rate == "mean_gap" else 0.0
        ff[j, F_GAP_AVG] = 0.0
        fi[j, I_RH_SEQ] = -1
        # no burst seen yet: the 4th packet of the first burst (seq 3) must not match
        # "first packet's seq + 3" when the first packet (seq 0) was lost
        fi[j, I_R_BURST] = -4


@_inline
def draw(f, ctx, rng):
    """Uniform draw for the next start-up timer (only when restarts are spread).

    Called by the dispatch before :func:`on_start` and :func:`on_rto`; a
    spec with ``restart_jitter = 0`` draws nothing, so the run's random
    stream (loss models) is that of the literal sender.
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
    return ctx.rh_t[f, (fi[f, I_RH_HEAD] - 1 - k) % ctx.rh_t.shape[1]]


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
    startup_timer(now, f, ctx)


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
    if ff[f, F_OUTSTANDING] != 0.0:
        rearm_outstanding(now, f, ctx)
    else:
        arm(now + ff[f, F_TO], f, ctx)


@_jit
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
    fi[f, I_RH_SEQ] = fi[f, I_SND_NXT]
    send_next(now, f, 0, ctx)
    gap = 1.0 / rate if rate > 0.0 else ff[f, F_TO]
    fi[f, I_PACE_GEN] += 1
    push(ctx, now + gap, EV_PACE, f, fi[f, I_PACE_GEN])
    if ff[f, F_RTO_DEADLINE] == np.inf:
        arm(now + ff[f, F_TO], f, ctx)


@_jit
def on_defer(now, f, step, ctx):
    if step == STEP_SEND:
        paced_send(now, f, ctx)
    else:
        arm(now + ctx.ff[f, F_TO], f, ctx)


@_jit
def on_rto(now, f, ctx):
    """Time-out: restart the start-up, or halve the rate and double TO (§III-B, D)."""
    ff, fi = ctx.ff, ctx.fi
    fi[f, I_TIMEOUTS] += 1
    if fi[f, I_PHASE] == 0:
        burst(now, f, ctx)
        startup_timer(now, f, ctx)
        return
    if ff[f, F_BACKOFF] != 0.0:
        ff[f, F_RATE], ff[f, F_TO] = backoff(ff[f, F_RATE], ff[f, F_TO])
    if ff[f, F_OUTSTANDING] == 0.0:
        push(ctx, now, EV_DEFER, f, STEP_ARM)
        return
    # the outstanding packets are given up (no retransmission); the timer
    # restarts with the next send, which is re-paced at the new rate
    fi[f, I_TO_FLOOR] = fi[f, I_SND_NXT]
    ff[f, F_RTO_DEADLINE] = np.inf
    rate = ff[f, F_RATE]
    if rate > 0.0 and fi[f, I_RH_COUNT] > 0:
        last = ctx.rh_t[f, (fi[f, I_RH_HEAD] - 1) % ctx.rh_t.shape[1]]
        t = last + 1.0 / rate
        fi[f, I_PACE_GEN] += 1
        push(ctx, t if t > now else now, EV_PACE, f, fi[f, I_PACE_GEN])
