# ctlcc.sim.senders.sttp - STTP (Wade, Kara & Dew): packet pair, ACK-clocked token bucket
"""STTP: a reliable sender driven by a (sigma, rho) token bucket.

The paper (Wade, Kara & Dew (2000), §II-III) as the sender runs it, every
law called compiled from :mod:`ctlcc.laws.sttp` (no second copy):

* **Packet-pair start (§II, §III-A).**  The first two segments leave back
  to back, flagged as a probe; the inter-arrival gap ``g`` of their two ACKs
  gives the bottleneck bandwidth ``size/g`` and the bucket starts with
  ``sigma = rho = tokens`` = that bandwidth in packets per second
  (:func:`~ctlcc.laws.sttp.initial_bucket_core`, "the capacity to which
  the STTP's token bucket is initialised", text under Table I).  The RTT of
  the first probe packet is the reference the first data RTT is compared
  with (§III-B.3: "compared with 0.078 seconds during the packet-pair
  probe").  The paper's probes are separate 40-byte Ping packets (Table
  III's "low bytes" of 80 is a flow that sent nothing but its pair); here
  they are the first two data segments, of the scenario's data size.
* **ACK-clocked tokens (§III-B).**  Every returning ACK (new or duplicate:
  "each packet transmitted contains a sequentially numbered token which is
  returned by the receiver") releases one token, up to the depth sigma
  (:func:`~ctlcc.laws.sttp.token_update_core`); a segment leaves while a
  whole token is held, all at once ("an application is able to transmit up
  to sigma packets at any one time").  ``clock="timer"`` is the §V-B
  variant: tokens arrive every ``1/rho`` (EV_PACE events,
  :func:`~ctlcc.laws.sttp.token_fill_core`) and ACKs only carry RTTs.
* **RTT band and alpha:beta scaling (§III-B.3, §IV-B.1).**  When an RTT
  sample differs from the previous one by more than ``threshold`` (5 %),
  sigma, rho and the tokens are scaled by ``alpha + beta f`` with
  ``f = lastRTT/newRTT`` (§III-B.3) or ``2 - new/last`` (§IV-B.1's
  "1.15 for a 15 % decrease"), :func:`~ctlcc.laws.sttp.ack_step_core`.
  Which tokens: ``tokens="bucket"`` scales those in the bucket (§III-B.3:
  "the current number of tokens in the bucket"), ``tokens="in_operation"``
  those in the bucket plus those travelling with unacknowledged segments
  (§IV-B.1: "the bucket size and number of tokens in operation"), which
  makes the scaling act on the flight like a window.  A greedy source
  spends its tokens as they come, so under the first reading the scaling
  moves little but sigma and rho; the flight shrinks by one token per lost
  segment (its token never returns) and grows only with the fraction
  scaled onto a held token.
* **Retransmission (§II: "standard TCP Reno timeout values and packet
  retransmission algorithms").**  RFC 6298 timer with Karn's rule and
  backoff; fast retransmit of ``snd_una`` on the third duplicate ACK (Reno
  leaves recovery at the next new ACK); after a timeout, go-back-N from
  ``snd_una`` at the pace of the tokens.  A retransmission takes a token
  like any segment; a fast retransmission leaves without waiting for one
  (the bucket goes into debt), so a segment lost in a window costs the flow
  one token; the one segment a timeout resends goes without a token (Reno's
  window of one), so a flow whose every token was lost restarts with one.  Only ACKs of segments never
  retransmitted give RTT samples.
* **A lost probe (Table III, §V-B).**  ``probe_retry=False`` (the paper):
  a flow whose probe pair does not come back never starts ("prevent
  startup STTP streams from failing due to initial loss of probe data").
  True: the timer resends the pair.

Segments in flight are also bounded by the receiver window
(``TcpOptions.max_window``), as a TCP-compatible sink advertises one.
The flow's rate column reports rho [packets/s]; it has no window;
``SimResult.sender_state`` holds the probe and the bucket at the end
(:meth:`Sttp.final_state`).

What this reading does on the paper's experiments
(:mod:`ctlcc.experiments.sttp`): the packet pair is exact on an idle path
(:func:`ctlcc.crosscheck.sttp_packet_pair`) and probes 64 kb/s on §III-B.3's
128 kb/s path with CBR cross traffic, as the paper reports; the weights
alpha:beta change sigma and rho but not what a greedy source sends (it
holds less than one token), so Table II's 9:1 / 5:5 / 1:9 differences are
not reproduced; the one-second bucket (250 packets on Fig. 3's 2 Mb/s)
keeps the 128-packet queue full, so STTP loses about as much as Reno in
Experiment 1, and later probes are lost (flows that never start).
"""

from dataclasses import dataclass

import numba
import numpy as np

from ..._validation import check_nonnegative
from ...errors import ParameterError
from ...laws import sttp as law
from ...laws.sttp import FACTOR_RATIO, FACTOR_RELATIVE, RTT_THRESHOLD
from .._core.layout import (
    EV_PACE, F_CWND, F_LAST_RTT, F_MIN_RTT, F_RATE, F_RTO, F_RTO_DEADLINE, G_DATA_BITS,
    G_DUPTHRESH, G_MAX_RTO, G_MAX_WINDOW, I_ACTIVE, I_DUPACKS, I_FAST_RETX, I_IN_RECOVERY,
    I_PACE_GEN, I_RECOVER, I_SND_MAX, I_SND_NXT, I_SND_UNA, I_TIMEOUTS, NF_COMMON, NI_COMMON,
)
from .._core.net import arm, push, rto_estimate, send
from ._base import SenderSpec, check_option

__all__ = ["Sttp"]

# private columns
(F_SIGMA, F_RHO, F_TOKENS, F_LAST, F_ALPHA, F_BETA, F_THRESH, F_PROBE_T1, F_PROBE_RATE,
 F_PROBE_RTT, F_MAX_BURST, F_BURST_SIGMA, F_BURST_T, F_SIGMA0) = range(NF_COMMON, NF_COMMON + 14)
I_PHASE, I_FACTOR, I_READING, I_CLOCK, I_OUT, I_SCALINGS, I_RETRY = range(NI_COMMON,
                                                                          NI_COMMON + 7)
# phases
PH_PROBE, PH_RUN = 0, 1
#: Token readings and clocks (spec options) in the order of their codes.
TOKENS = ("bucket", "in_operation")
CLOCKS = ("ack", "timer")
#: P_FLAG of the two probe segments.
PROBE_1, PROBE_2 = 1, 2

_inline = numba.njit(cache=True, inline="always")
_jit = numba.njit(cache=True)
ack_step = numba.njit(law.ack_step_core, cache=True, inline="always")
initial_bucket = numba.njit(law.initial_bucket_core, cache=True, inline="always")
token_update = numba.njit(law.token_update_core, cache=True, inline="always")
token_fill = numba.njit(law.token_fill_core, cache=True, inline="always")


@dataclass(frozen=True)
class Sttp(SenderSpec):
    """STTP and its parameters (defaults: the paper's, §III-B.3 "9:1").

    Attributes
    ----------
    alpha : float
        Weight of the old value in the scaling, in [0, 1]. [1]
    beta : float
        Weight of the RTT-scaled value, in [0, 1]; ``alpha + beta = 1``
        (to 1e-12).  Table II's "STTP 5:5" is ``alpha=0.5, beta=0.5``. [1]
    threshold : float
        Relative RTT change that triggers a scaling, >= 0 (§III-B.3: 5 %). [1]
    factor : {"ratio", "relative"}
        ``lastRTT/newRTT`` (§III-B.3) or ``2 - newRTT/lastRTT`` (§IV-B.1).
    tokens : {"bucket", "in_operation"}
        Tokens scaled: those in the bucket (§III-B.3) or those in the bucket
        plus those riding on unacknowledged segments (§IV-B.1).
    clock : {"ack", "timer"}
        Tokens released by ACKs (the paper's experiments, §III-B) or every
        ``1/rho`` (§V-B, future work).
    probe_retry : bool
        Resend a lost probe pair at the retransmission timeout (True) or
        never start (False, the paper: Table III's 80-byte flows).

    Examples
    --------
    >>> Sttp().alpha, Sttp(alpha=0.1, beta=0.9).beta
    (0.9, 0.9)
    >>> Sttp(alpha=0.5, beta=0.4)
    Traceback (most recent call last):
    ...
    ctlcc.errors.ParameterError: alpha + beta must equal 1, got alpha=0.5, beta=0.4
    """

    name = "sttp"
    window_based = False
    float_columns = 14
    int_columns = 7
    alpha: float = 0.9
    beta: float = 0.1
    threshold: float = RTT_THRESHOLD
    factor: str = "ratio"
    tokens: str = "bucket"
    clock: str = "ack"
    probe_retry: bool = False

    def __post_init__(self):
        alpha, beta = law._check_weights(self.alpha, self.beta)
        object.__setattr__(self, "alpha", float(alpha))
        object.__setattr__(self, "beta", float(beta))
        object.__setattr__(self, "threshold",
                           float(check_nonnegative("threshold", self.threshold, scalar=True)))
        check_option("factor", self.factor, ("ratio", "relative"))
        check_option("tokens", self.tokens, TOKENS)
        check_option("clock", self.clock, CLOCKS)
        if not isinstance(self.probe_retry, bool):
            raise ParameterError(f"probe_retry must be True or False, got {self.probe_retry!r}")
        if self.factor == "relative" and self.beta > 0 and self.alpha / self.beta > 1e12:
            raise ParameterError("beta must be 0 or alpha/beta <= 1e12 with factor='relative', "
                                 f"got alpha={self.alpha!r}, beta={self.beta!r}")

    @property
    def label(self):
        """Table II's name: ``"STTP 9:1"`` for alpha = 0.9, beta = 0.1."""
        return f"STTP {round(10 * self.alpha):g}:{round(10 * self.beta):g}"

    def init_flow(self, ff, fi, tab, j, tcp):
        ff[j, F_CWND] = np.nan
        ff[j, F_RATE] = 0.0
        ff[j, F_ALPHA], ff[j, F_BETA], ff[j, F_THRESH] = self.alpha, self.beta, self.threshold
        ff[j, F_PROBE_T1] = -1.0
        ff[j, F_PROBE_RATE] = np.nan
        ff[j, F_PROBE_RTT] = np.nan
        ff[j, F_SIGMA0] = np.nan
        ff[j, F_BURST_T] = np.nan
        fi[j, I_FACTOR] = FACTOR_RATIO if self.factor == "ratio" else FACTOR_RELATIVE
        fi[j, I_READING] = TOKENS.index(self.tokens)
        fi[j, I_CLOCK] = CLOCKS.index(self.clock)
        fi[j, I_RETRY] = int(self.probe_retry)

    def final_state(self, ff, fi, j):
        """The flow's bucket and probe at the end of a run (``SimResult.sender_state``).

        Returns
        -------
        dict
            ``probe_rate`` [packets/s] (NaN if the probe never returned),
            ``probe_rtt`` [s], ``sigma0`` [packets], ``sigma`` [packets],
            ``rho`` [packets/s], ``tokens`` [packets], ``last_rtt`` [s],
            ``scalings`` [1], ``max_burst`` (most segments released at one
            instant) [packets], ``burst_sigma`` (sigma then) [packets],
            ``burst_time`` [s], ``started`` (the probe came back) [bool].
        """
        ff, fi = ff[j], fi[j]
        return dict(probe_rate=float(ff[F_PROBE_RATE]), probe_rtt=float(ff[F_PROBE_RTT]),
                    sigma0=float(ff[F_SIGMA0]), sigma=float(ff[F_SIGMA]),
                    rho=float(ff[F_RHO]), tokens=float(ff[F_TOKENS]),
                    last_rtt=float(ff[F_LAST]), scalings=int(fi[I_SCALINGS]),
                    max_burst=int(ff[F_MAX_BURST]), burst_sigma=float(ff[F_BURST_SIGMA]),
                    burst_time=float(ff[F_BURST_T]), started=bool(fi[I_PHASE] == PH_RUN))


# --- hooks -----------------------------------------------------------------------------

@_inline
def probe(now, f, ctx):
    """Send the packet pair: segments snd_una and snd_una + 1, back to back."""
    fi = ctx.fi
    una = fi[f, I_SND_UNA]
    for k in range(2):
        send(now, f, una + k, 1 if una + k < fi[f, I_SND_MAX] else 0, PROBE_1 + k, ctx)
    fi[f, I_SND_NXT] = una + 2
    if una + 2 > fi[f, I_SND_MAX]:
        fi[f, I_SND_MAX] = una + 2
    ctx.ff[f, F_PROBE_T1] = -1.0


@_inline
def on_start(now, f, ctx, rng):
    probe(now, f, ctx)
    if ctx.fi[f, I_RETRY] != 0:
        arm(now + ctx.ff[f, F_RTO], f, ctx)


@_inline
def spend(now, f, ctx):
    """Send while a whole token is held (and the receiver window allows)."""
    ff, fi = ctx.ff, ctx.fi
    if fi[f, I_ACTIVE] == 0 or fi[f, I_PHASE] != PH_RUN:
        return
    maxw = int(ctx.g[G_MAX_WINDOW])
    n = 0
    while ff[f, F_TOKENS] >= 1.0 and fi[f, I_SND_NXT] < fi[f, I_SND_UNA] + maxw:
        seq = fi[f, I_SND_NXT]
        send(now, f, seq, 1 if seq < fi[f, I_SND_MAX] else 0, 0, ctx)
        fi[f, I_SND_NXT] = seq + 1
        if seq + 1 > fi[f, I_SND_MAX]:
            fi[f, I_SND_MAX] = seq + 1
        ff[f, F_TOKENS] -= 1.0
        fi[f, I_OUT] += 1
        n += 1
    if n > ff[f, F_MAX_BURST]:
        ff[f, F_MAX_BURST] = n
        ff[f, F_BURST_SIGMA] = ff[f, F_SIGMA]
        ff[f, F_BURST_T] = now
    if n > 0 and ff[f, F_RTO_DEADLINE] == np.inf:
        arm(now + ff[f, F_RTO], f, ctx)


@_inline
def start_bucket(now, f, sample, ctx):
    """Second probe ACK: the bucket from the pair's gap (§III-A, Table I)."""
    ff, fi = ctx.ff, ctx.fi
    gap = now - ff[f, F_PROBE_T1]
    if ff[f, F_PROBE_T1] < 0.0 or gap <= 0.0:
        return
    size = ctx.g[G_DATA_BITS] / 8.0
    sigma, rho, tokens = initial_bucket(size, gap, size)
    ff[f, F_PROBE_RATE] = rho
    ff[f, F_SIGMA0] = sigma
    ff[f, F_SIGMA], ff[f, F_RHO], ff[f, F_TOKENS] = sigma, rho, tokens
    ff[f, F_RATE] = rho
    ff[f, F_LAST] = ff[f, F_PROBE_RTT]
    fi[f, I_PHASE] = PH_RUN
    fi[f, I_OUT] = 0
    if fi[f, I_CLOCK] == 1:
        fi[f, I_PACE_GEN] += 1
        push(ctx, now + 1.0 / rho, EV_PACE, f, fi[f, I_PACE_GEN])
    spend(now, f, ctx)


@_inline
def bucket_step(f, sample, valid, ctx):
    """One ACK: the alpha:beta scaling on a valid sample, then the token it returns."""
    ff, fi = ctx.ff, ctx.fi
    if fi[f, I_OUT] > 0:
        fi[f, I_OUT] -= 1
    released = 1.0 if fi[f, I_CLOCK] == 0 else 0.0
    if not valid:
        ff[f, F_TOKENS] = token_update(ff[f, F_TOKENS], ff[f, F_SIGMA], released)
        return
    held = ff[f, F_TOKENS]
    out = float(fi[f, I_OUT]) if fi[f, I_READING] == 1 else 0.0
    sigma, rho, tokens, last, scaled = ack_step(
        ff[f, F_SIGMA], ff[f, F_RHO], held + out, ff[f, F_LAST], sample, ff[f, F_ALPHA],
        ff[f, F_BETA], ff[f, F_THRESH], fi[f, I_FACTOR])
    if released == 0.0:  # timer clock: the ACK carries no token (undo the core's release)
        tokens = held + out if not scaled else (held + out) * (sigma / ff[f, F_SIGMA])
        if tokens > sigma:
            tokens = sigma
    ff[f, F_SIGMA], ff[f, F_RHO], ff[f, F_TOKENS] = sigma, rho, tokens - out
    ff[f, F_LAST] = last
    ff[f, F_RATE] = rho
    if scaled:
        fi[f, I_SCALINGS] += 1


@_inline
def on_ack(now, f, record, ctx, rng):
    ff, fi = ctx.ff, ctx.fi
    ack, sample, echo_retx, flag = record.seq, record.rtt, record.retx, record.flag
    una = fi[f, I_SND_UNA]
    if fi[f, I_ACTIVE] == 0:
        if ack > una:
            fi[f, I_SND_UNA] = ack
        return
    valid = echo_retx == 0
    if valid:
        ff[f, F_LAST_RTT] = sample
        if sample < ff[f, F_MIN_RTT]:
            ff[f, F_MIN_RTT] = sample
    if ack > una:  # a new ACK: RFC 6298 estimator (Karn), Reno leaves recovery
        fi[f, I_SND_UNA] = ack
        if fi[f, I_SND_NXT] < ack:
            fi[f, I_SND_NXT] = ack
        if valid:
            rto_estimate(f, sample, ctx)
        fi[f, I_DUPACKS] = 0
        fi[f, I_IN_RECOVERY] = 0
        if ack >= fi[f, I_SND_MAX]:
            ff[f, F_RTO_DEADLINE] = np.inf
        else:
            arm(now + ff[f, F_RTO], f, ctx)
    if fi[f, I_PHASE] == PH_PROBE:
        if flag == PROBE_1:  # the ACK echoes this copy's send time: no ambiguity
            ff[f, F_PROBE_T1] = now
            ff[f, F_PROBE_RTT] = sample
        elif flag == PROBE_2:
            start_bucket(now, f, sample, ctx)
        return
    bucket_step(f, sample, valid, ctx)
    if ack == una and una < fi[f, I_SND_MAX]:
        fi[f, I_DUPACKS] += 1
        if fi[f, I_DUPACKS] == int(ctx.g[G_DUPTHRESH]) and fi[f, I_IN_RECOVERY] == 0:
            # Reno fast retransmit; the lost segment's token is gone
            fi[f, I_FAST_RETX] += 1
            fi[f, I_IN_RECOVERY] = 1
            fi[f, I_RECOVER] = fi[f, I_SND_MAX] - 1
            send(now, f, una, 1, 0, ctx)
            ff[f, F_TOKENS] -= 1.0
            arm(now + ff[f, F_RTO], f, ctx)
    spend(now, f, ctx)


@_inline
def on_pace(now, f, ctx, rng):
    """Timer clock (§V-B): one token every 1/rho, capped at sigma."""
    ff, fi = ctx.ff, ctx.fi
    rho = ff[f, F_RHO]
    ff[f, F_TOKENS] = token_fill(ff[f, F_TOKENS], ff[f, F_SIGMA], rho, 1.0 / rho)
    spend(now, f, ctx)
    fi[f, I_PACE_GEN] += 1
    push(ctx, now + 1.0 / rho, EV_PACE, f, fi[f, I_PACE_GEN])


@_inline
def on_timer(now, f, ctx, rng):
    """Reno's timeout: back off, go back to snd_una, resend it at once."""
    ff, fi, g = ctx.ff, ctx.fi, ctx.g
    una = fi[f, I_SND_UNA]
    if fi[f, I_PHASE] == PH_PROBE:
        if fi[f, I_RETRY] != 0:
            fi[f, I_TIMEOUTS] += 1
            rto = ff[f, F_RTO] * 2.0
            ff[f, F_RTO] = rto if rto < g[G_MAX_RTO] else g[G_MAX_RTO]
            probe(now, f, ctx)
            arm(now + ff[f, F_RTO], f, ctx)
        return
    if fi[f, I_SND_MAX] - una <= 0:
        ff[f, F_RTO_DEADLINE] = np.inf
        return
    fi[f, I_TIMEOUTS] += 1
    rto = ff[f, F_RTO] * 2.0
    ff[f, F_RTO] = rto if rto < g[G_MAX_RTO] else g[G_MAX_RTO]
    fi[f, I_DUPACKS] = 0
    fi[f, I_IN_RECOVERY] = 0
    fi[f, I_RECOVER] = fi[f, I_SND_MAX] - 1
    fi[f, I_OUT] = 0
    send(now, f, una, 1, 0, ctx)  # Reno's one segment after a timeout, without a token
    fi[f, I_SND_NXT] = una + 1
    ff[f, F_RTO_DEADLINE] = np.inf
    arm(now + ff[f, F_RTO], f, ctx)
