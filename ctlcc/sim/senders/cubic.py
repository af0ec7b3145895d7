# ctlcc.sim.senders.cubic - CUBIC (RFC 9438) over SACK/PRR or NewReno loss recovery
"""TCP CUBIC (RFC 9438): the window rules of :mod:`ctlcc.laws.cubic` on packets.

Window growth and reduction are the law cores of :mod:`ctlcc.laws.cubic`
compiled in (one law, two uses), loss recovery is the engine's:

* **growth** (RFC 9438 §4.2-4.5, §4.10): slow start (+1 segment per new
  ACK) while cwnd < ssthresh; then congestion avoidance in *epochs*.  An
  epoch starts at the first ACK of congestion avoidance after a window
  reduction (``epoch_start_core``: K = cbrt((W_max - cwnd_epoch)/C), or K =
  0 and W_max = cwnd_epoch when cwnd_epoch >= W_max) with W_est =
  cwnd_epoch; every segment a new ACK acknowledges then applies
  ``congestion_avoidance_core`` once, with t the time since the epoch
  started and the RFC's RTT, the smoothed RTT (RFC 6298) of the flow: the
  Reno-friendly estimate W_est (alpha_cubic = 3 (1 - beta)/(1 + beta),
  alpha = 1 once W_est >= cwnd_prior) rules where W_cubic(t) < W_est, else
  cwnd moves toward target = W_cubic(t + RTT), kept within [cwnd, 1.5 cwnd].
  (The RFC's steps are per ACK; with one ACK per segment, as the engine's
  receivers send, per segment is the same, and it is what Linux and ns-3
  count when one ACK acknowledges several.)
* **reduction on loss** (§4.6-4.7, ``loss_core``): when fast recovery
  starts, ssthresh = max(cwnd beta, 2), cwnd_prior = cwnd, W_max = cwnd or,
  with fast convergence and cwnd < W_max, cwnd (1 + beta)/2; the epoch
  ends.  The window during recovery is the recovery's (below).
* **timeout** (§4.8, RFC 5681 (4), RFC 6298 §5): cwnd = 1 and go-back-N
  as the engine's other window senders.  On the first expiry of a
  timeout episode ssthresh = max(cwnd beta, 2) with the cwnd the timer
  found, cwnd_prior = cwnd, and W_max = 0, so that the first
  congestion-avoidance epoch after the timeout has K = 0 and W_max = the
  window it starts from (RFC 9438 §4.8; Linux resets its W_max on
  entering the loss state the same way).  A further expiry before HighACK
  passes the recovery point of that timeout (the retransmitted segment not
  yet acknowledged) only backs the timer off: ssthresh is not cut again
  (RFC 5681 (4): "the given segment has not yet been resent by way of the
  retransmission timer"; ns-3 does the same, and cutting cwnd = 1 by beta
  would set ssthresh to 2).

Loss recovery (option ``recovery``):

* ``"prr"`` (default): SACK (RFC 2018 receiver, RFC 6675 scoreboard, loss
  detection and NextSeg()) with RFC 6937 Proportional Rate Reduction
  (PRR-SSRB) sizing the window during recovery - the machinery of
  :class:`~ctlcc.sim.senders.Sack` with CUBIC's ssthresh.  ns-3.44's
  ``TcpCubic`` runs over ``TcpSocketBase``'s recovery, whose default is SACK
  with ``TcpPrrRecovery``: this is the configuration a comparison with
  ns-3's defaults needs (Linux's CUBIC, too, runs over SACK and PRR);
* ``"prr-crb"``: the same with PRR's conservative reduction bound;
* ``"prr-ns3"``: the same with ns-3.44's ``TcpPrrRecovery`` as read from its
  source (:class:`~ctlcc.sim.senders.Sack`'s ``"prr-ns3"``,
  ``ctlcc.laws.prr.sndcnt_ns3``); with ``avoidance="ns3"`` it is the engine's
  closest reading of ns-3's ``cubic_prr_*`` configuration
  (``docs/ns3_agreement.md``);
* ``"rfc6675"``: SACK with RFC 6675's window (cwnd = ssthresh through the
  recovery);
* ``"newreno"``: no SACK, RFC 6582 NewReno fast recovery (cwnd = ssthresh +
  3, inflation per duplicate ACK, partial ACKs, the "Impatient" timer) as
  the engine's ``newreno``, with CUBIC's ssthresh: ns-3 with ``Sack =
  false`` and ``TcpClassicRecovery``, the configuration of the agreement
  matrix's mixes with NewReno (ns-3 sets SACK for every socket).

Slow start (option ``hystart``): by default it ends at ssthresh or with a
loss, as the engine's other TCPs (RFC 9438 §4.10 leaves the slow-start
variant to the implementation).  ``hystart=True`` runs HyStart++ (RFC 9406,
:mod:`ctlcc.laws.hystart`) in the initial slow start: each round's smallest
RTT (the engine's round trips: a round ends with the ACK beyond the highest
segment sent when it began) is compared with the last round's, and a rise of
RttThresh with 8 samples moves the flow to Conservative Slow Start (a
quarter of slow start's growth), back to slow start if the RTT falls below
the one that started CSS, and to congestion avoidance (ssthresh = cwnd)
after 5 rounds of CSS; each ACK's increase is limited to L = 8 segments
(ctlcc's senders do not pace).  A loss or timeout ends HyStart++ for the
rest of the connection (RFC 9406 §4.3: the initial slow start only).
ns-3.44's ``TcpCubic`` has the 2008 HyStart (delay and ACK train), not
HyStart++, on by default; the agreement matrix runs ns-3 with
``TcpCubic::HyStart = false`` and ctlcc with ``hystart=False`` so that the
two start alike.

Where ns-3.44's ``TcpCubic`` departs from this sender (read from its source):
Linux's integer arithmetic (a whole segment once ``cnt = cwnd/(target -
cwnd)`` segments are acknowledged, growth of one segment per ``100 cwnd``
above the target, the target truncated to whole segments), the target at
``t + min RTT`` (min of the smoothed RTT; RFC: t + RTT), alpha = 8/15 never
switching to 1, ``cnt`` clamped to 20 before the first loss, ssthresh from
the integer window, W_max kept across a timeout (the curve after a timeout
bends toward the window before it), slow start that adds every segment an
ACK covers (byte counting without a limit); its PRR is described in
:mod:`ctlcc.laws.prr`.  Each is an option (``avoidance``'s parts,
``slow_start="ns3"``, ``recovery="prr-ns3"``; the integer rules are the
``ns3_*`` cores of :mod:`ctlcc.laws.cubic`).  Measured one at a time on the
agreement matrix's ``cubic_prr_*`` scenarios (``docs/ns3_agreement.md``,
2026-11-30): no CUBIC reading moves the loss count toward ns-3's; ns-3's PRR
does, and with ``avoidance="ns3"`` on top of it the engine's loss count,
fast retransmits and queue on ``cubic_prr_rtt1`` come within 6 % of ns-3's.
Not modelled: ns-3 grows the window only when it limits the flow
(``m_isCwndLimited``).

References
----------
RFC 9438 (Xu, Ha, Rhee, Goel, Eggert 2023) §4.1-4.10; RFC 6937 (Mathis,
Dukkipati, Cheng 2013); RFC 6675; RFC 6582; RFC 5681 §3.1-3.2; RFC 6298.
"""

from dataclasses import dataclass

import numba
import numpy as np

from ..._validation import check_bool, check_interval, check_positive
from ...errors import ParameterError
from ...laws import cubic as law
from ...laws import hystart as hs
from .._core.layout import (
    F_CWND, F_ROUND_MIN_RTT, F_ROUND_START, F_SRTT, F_SSTHRESH, G_DUPTHRESH, I_FAST_RETX,
    I_IN_RECOVERY, I_RECOVER, I_ROUND_END, I_ROUND_RTTS, I_SND_MAX, I_SND_UNA, NF_COMMON,
    NI_COMMON,
)
from .._core.net import try_send
from . import sack as SK
from . import window as W
from ._base import SenderSpec, check_option

__all__ = ["Cubic"]

#: The loss-recovery options (see the module docstring).
RECOVERIES = ("prr", "prr-crb", "prr-ns3", "rfc6675", "newreno")
REC_NEWRENO = 4.0  # beyond the SACK recoveries' codes (ctlcc.sim.senders.sack)
_RECOVERY_CODE = {"prr": SK.REC_PRR_SSRB, "prr-crb": SK.REC_PRR_CRB,
                  "prr-ns3": SK.REC_PRR_NS3, "rfc6675": SK.REC_RFC6675,
                  "newreno": REC_NEWRENO}

# private columns, after the SACK machinery's (which this sender runs on)
_F0, _I0 = NF_COMMON + SK.FLOAT_COLUMNS, NI_COMMON + SK.INT_COLUMNS
(F_CB_C, F_CB_BETA, F_CB_FRIENDLY, F_CB_FASTCONV, F_CB_MODE, F_CB_WMAX, F_CB_K,
 F_CB_EPOCH, F_CB_WEST, F_CB_PRIOR) = range(_F0, _F0 + 10)
# HyStart++ (RFC 9406): the round seen last (its start time), the last round's and this
# round's smallest RTT, cssBaselineMinRtt
(F_HS_ROUND, F_HS_LAST, F_HS_CUR, F_HS_BASE) = range(_F0 + 10, _F0 + 14)
# the slow-start reading (1: ns-3.44's TcpCubic, 0: RFC 5681)
F_CB_SLOWSTART = _F0 + 14
# ns-3's m_delayMin: the smallest smoothed RTT since the start or the last timeout (option
# avoidance's "min-rtt")
F_CB_MINRTT = _F0 + 15
(I_CB_LOSS, I_HS_STATE, I_HS_CSS_ROUNDS) = range(_I0, _I0 + 3)
# option avoidance: its parts (bits of I_CB_NS3) and ns-3's counters of the "count" reading
# (m_cWndCnt, m_ackCnt, m_tcpCwnd)
(I_CB_NS3, I_CB_CWNDCNT, I_CB_ACKCNT, I_CB_TCPCWND) = range(_I0 + 3, _I0 + 7)
#: I_HS_STATE: standard slow start (HyStart++ off or over), HyStart++'s slow start, CSS
HS_OFF, HS_SLOW_START, HS_CSS = 0, 1, 2

_inline = numba.njit(cache=True, inline="always")
_jit = numba.njit(cache=True)
# the RFC 9438 cores of ctlcc.laws.cubic, compiled in (no second copy)
epoch_start = numba.njit(law.epoch_start_core, cache=True, inline="always")
avoidance = numba.njit(law.congestion_avoidance_core, cache=True, inline="always")
loss = numba.njit(law.loss_core, cache=True, inline="always")
step = numba.njit(law.avoidance_step_core, cache=True, inline="always")
ns3_alpha = numba.njit(law.ns3_alpha_core, cache=True, inline="always")
ns3_count = numba.njit(law.ns3_count_core, cache=True, inline="always")
ns3_loss = numba.njit(law.ns3_loss_core, cache=True, inline="always")
hs_exit = numba.njit(hs.delay_increase_core, cache=True, inline="always")
hs_abort = numba.njit(hs.css_abort_core, cache=True, inline="always")
hs_increase = numba.njit(hs.increase_core, cache=True, inline="always")
# slow start: +1 segment per new ACK below ssthresh (ctlcc.laws.tcp, as every window sender)
increase = W.increase
#: Slow-start readings: RFC 5681's (cwnd += min(N, SMSS): one segment per new ACK, the
#: default, None) or ns-3.44's TcpCubic (cwnd += every segment the ACK covers, not capped at
#: ssthresh; the rest of the ACK is not passed on to congestion avoidance).
SLOW_STARTS = ("rfc5681", "ns3")
#: The parts of ns-3.44's congestion avoidance (option ``avoidance``; bits of I_CB_NS3).
AVOIDANCE_PARTS = ("count", "min-rtt", "alpha", "ssthresh", "timeout-wmax")
NS3_COUNT, NS3_MIN_RTT, NS3_ALPHA, NS3_SSTHRESH, NS3_TIMEOUT_WMAX = 1, 2, 4, 8, 16
#: Values of ``avoidance`` besides "+"-joined parts: the RFC's (None) and all of ns-3's.
AVOIDANCES = ("rfc9438", "ns3") + AVOIDANCE_PARTS
#: ns-3's ``TcpCubic::PktsAcked`` ignores RTT samples this soon after an epoch starts
#: (``CubicDelta``). [s]
NS3_CUBIC_DELTA = 0.01


def avoidance_bits(avoidance):
    """The I_CB_NS3 bits of a valid ``avoidance`` value (0: RFC 9438)."""
    if avoidance is None or avoidance == "rfc9438":
        return 0
    parts = AVOIDANCE_PARTS if avoidance == "ns3" else avoidance.split("+")
    return sum(1 << AVOIDANCE_PARTS.index(p) for p in set(parts))


def _check_avoidance(value):
    if not isinstance(value, str):
        check_option("avoidance", value, AVOIDANCES)
    parts = value.split("+")
    if len(parts) == 1:
        return check_option("avoidance", value, AVOIDANCES)
    if any(p not in AVOIDANCE_PARTS for p in parts) or len(set(parts)) < len(parts):
        raise ParameterError(
            f"avoidance must be one of {', '.join(repr(o) for o in AVOIDANCES)}, or distinct "
            f"parts among {', '.join(repr(o) for o in AVOIDANCE_PARTS)} joined by '+'; "
            f"got {value!r}")
    return value


@dataclass(frozen=True)
class Cubic(SenderSpec):
    """TCP CUBIC (RFC 9438) and the loss recovery it runs over.

    Attributes
    ----------
    c : float
        C, the cubic function's scaling constant, > 0 (RFC 9438 §4.1: 0.4).
        [segments/s^3]
    beta : float
        beta_cubic, the multiplicative decrease factor, in (0, 1) (RFC 9438
        §4.1: 0.7). [1]
    fast_convergence : bool
        Lower W_max to cwnd (1 + beta)/2 on a loss below the last W_max
        (RFC 9438 §4.7).
    friendly : bool
        The Reno-friendly region (RFC 9438 §4.3; ns-3's ``TcpFriendliness``).
    recovery : {"prr", "prr-crb", "prr-ns3", "rfc6675", "newreno"}
        Loss recovery: SACK with RFC 6937 PRR (ns-3's and Linux's default),
        SACK with PRR's conservative bound, SACK with ns-3.44's PRR as read
        from its source, SACK with RFC 6675's window, or
        NewReno's fast recovery without SACK (see the module docstring).
    dupthresh : int or None
        DupThresh of the SACK recoveries, >= 1; None takes the scenario's
        ``TcpOptions.dupack_threshold``. [segments]
    limited_transmit : bool or None
        RFC 6675 §5 step (3) (SACK recoveries) or RFC 3042 (``"newreno"``);
        None takes the scenario's ``TcpOptions.limited_transmit``.
    hystart : bool
        HyStart++ (RFC 9406) in the initial slow start (see the module
        docstring); off by default (RFC 9438 §4.10 leaves slow start to the
        implementation, and the engine's other TCPs run standard slow start).
    slow_start : {None, "rfc5681", "ns3"}
        Slow start: one segment per new ACK (RFC 5681, None) or ns-3.44's
        ``TcpCubic``, which adds every segment the ACK covers, uncapped by
        ssthresh: after a go-back-N without SACK one cumulative ACK can
        open the window by a whole flight (``docs/ns3_agreement.md``).
    avoidance : str or None
        Congestion avoidance and the cut: RFC 9438 in real numbers (None or
        ``"rfc9438"``), ns-3.44's ``TcpCubic`` (``"ns3"``: every part below), or
        some of ns-3's parts joined by ``"+"`` (e.g. ``"count+min-rtt"``):
        ``"count"``, Linux's integer growth (one whole segment once ``cnt``
        segments are acknowledged, ``ctlcc.laws.cubic.ns3_count_core``: the
        target truncated to whole segments, one segment per ``100 cwnd`` at
        or above it, cnt clamped to 20 before the first loss, the integer
        Reno estimate with alpha = 8/15 never switching to 1); ``"min-rtt"``,
        the target at t + the smallest smoothed RTT since the start or the
        last timeout (RFC: t + RTT, here the smoothed RTT); ``"alpha"``,
        alpha = 8/15 never switching to 1 in the real-number growth (implied
        by ``"count"``); ``"ssthresh"``, ssthresh and W_max from the window
        in whole segments, truncated (``ns3_loss_core``); ``"timeout-wmax"``,
        W_max kept across a timeout (RFC 9438 §4.8: forgotten).  What each
        does to the ``cubic_prr_*`` scenarios: ``docs/ns3_agreement.md``.

    Examples
    --------
    >>> Cubic().options()
    {'c': 0.4, 'beta': 0.7, 'fast_convergence': True, 'friendly': True, 'recovery': 'prr', \
'dupthresh': None, 'limited_transmit': None, 'hystart': False, \
'slow_start': None, 'avoidance': None}
    >>> Cubic(beta=1.0)
    Traceback (most recent call last):
    ...
    ctlcc.errors.ParameterError: beta must be in (0, 1), got 1.0
    >>> Cubic(recovery="reno")
    Traceback (most recent call last):
    ...
    ctlcc.errors.ParameterError: recovery must be one of 'prr', 'prr-crb', 'prr-ns3', \
'rfc6675', 'newreno'; got 'reno'
    """

    name = "cubic"
    float_columns = SK.FLOAT_COLUMNS + 16
    int_columns = SK.INT_COLUMNS + 7
    c: float = law.C
    beta: float = law.BETA
    fast_convergence: bool = True
    friendly: bool = True
    recovery: str = "prr"
    dupthresh: int = None
    limited_transmit: bool = None
    hystart: bool = False
    slow_start: str = None
    avoidance: str = None

    def __post_init__(self):
        object.__setattr__(self, "c", float(check_positive("c", self.c, scalar=True)))
        object.__setattr__(self, "beta",
                           float(check_interval("beta", self.beta, 0.0, 1.0, scalar=True)))
        check_bool("fast_convergence", self.fast_convergence)
        check_bool("friendly", self.friendly)
        check_bool("hystart", self.hystart)
        check_option("recovery", self.recovery, RECOVERIES)
        if self.slow_start is not None:
            check_option("slow_start", self.slow_start, SLOW_STARTS)
        if self.hystart and self.slow_start == "ns3":
            raise ParameterError("hystart=True runs RFC 9406's slow start and slow_start='ns3' "
                                 "ns-3.44's: choose one (slow_start must be None or 'rfc5681' "
                                 f"with hystart=True); got slow_start={self.slow_start!r}")
        if self.avoidance is not None:
            _check_avoidance(self.avoidance)
        # the SACK machinery's own checks (dupthresh, limited_transmit)
        dupthresh = SK.Sack(dupthresh=self.dupthresh,
                            limited_transmit=self.limited_transmit).dupthresh
        object.__setattr__(self, "dupthresh", dupthresh)

    def table_shape(self, tcp):
        """One row: the SACK scoreboard ring (:meth:`Sack.table_shape`)."""
        return (1, SK.board_size(tcp))

    def init_flow(self, ff, fi, tab, j, tcp):
        sack_recovery = "rfc6675" if self.recovery == "newreno" else self.recovery
        SK.init_sack_flow(ff, fi, j, tcp, self.dupthresh, self.limited_transmit, True,
                          sack_recovery)
        ff[j, F_CB_C] = self.c
        ff[j, F_CB_BETA] = self.beta
        ff[j, F_CB_FRIENDLY] = 1.0 if self.friendly else 0.0
        ff[j, F_CB_FASTCONV] = 1.0 if self.fast_convergence else 0.0
        ff[j, F_CB_MODE] = _RECOVERY_CODE[self.recovery]
        ff[j, F_CB_WMAX] = 0.0
        ff[j, F_CB_K] = 0.0
        ff[j, F_CB_EPOCH] = -1.0
        ff[j, F_CB_WEST] = 0.0
        ff[j, F_CB_PRIOR] = 0.0
        ff[j, F_CB_SLOWSTART] = 1.0 if self.slow_start == "ns3" else 0.0
        fi[j, I_CB_LOSS] = 0
        ff[j, F_CB_MINRTT] = np.inf
        fi[j, I_CB_NS3] = avoidance_bits(self.avoidance)
        fi[j, I_CB_CWNDCNT] = 0
        fi[j, I_CB_ACKCNT] = 0
        fi[j, I_CB_TCPCWND] = 0
        ff[j, F_HS_ROUND] = -1.0
        ff[j, F_HS_LAST] = np.inf
        ff[j, F_HS_CUR] = np.inf
        ff[j, F_HS_BASE] = np.inf
        fi[j, I_HS_STATE] = HS_SLOW_START if self.hystart else HS_OFF
        fi[j, I_HS_CSS_ROUNDS] = 0

    def final_state(self, ff, fi, j):
        """CUBIC's state at the end: W_max [segments], K [s], W_est [segments], and
        HyStart++'s phase (``hystart``: "off" - never on, or ended by a loss or by CSS's
        last round -, "slow start" or "css")."""
        phase = ("off", "slow start", "css")[int(fi[j, I_HS_STATE])]
        return {"w_max": float(ff[j, F_CB_WMAX]), "k": float(ff[j, F_CB_K]),
                "w_est": float(ff[j, F_CB_WEST]), "hystart": phase}


# --- CUBIC's window rules on packets -----------------------------------------------------

@_inline
def grow(now, f, acked, ctx):
    """A new ACK of *acked* segments outside recovery: slow start or RFC 9438 §4.2-4.5."""
    ff = ctx.ff
    cwnd = ff[f, F_CWND]
    if cwnd < ff[f, F_SSTHRESH]:
        if ff[f, F_CB_SLOWSTART] > 0.0:  # ns-3.44's TcpCubic::IncreaseWindow
            ff[f, F_CWND] = cwnd + acked
        elif ctx.fi[f, I_HS_STATE] != HS_OFF:
            hystart(f, acked, ctx)
        else:
            ff[f, F_CWND] = increase(cwnd, ff[f, F_SSTHRESH])
        return
    bits = ctx.fi[f, I_CB_NS3]
    if bits & NS3_COUNT:
        grow_ns3(now, f, acked, ctx)
        return
    if ff[f, F_CB_EPOCH] < 0.0:  # the first ACK of congestion avoidance: a new epoch
        k, w_max = epoch_start(ff[f, F_CB_WMAX], cwnd, ff[f, F_CB_C])
        ff[f, F_CB_EPOCH] = now
        ff[f, F_CB_K] = k
        ff[f, F_CB_WMAX] = w_max
        ff[f, F_CB_WEST] = cwnd
    t = now - ff[f, F_CB_EPOCH]
    w_est = ff[f, F_CB_WEST]
    friendly = ff[f, F_CB_FRIENDLY] > 0.0
    if bits == 0:  # RFC 9438
        for _ in range(acked):
            cwnd, w_est = avoidance(cwnd, w_est, ff[f, F_CB_PRIOR], t, ff[f, F_SRTT],
                                    ff[f, F_CB_K], ff[f, F_CB_WMAX], ff[f, F_CB_C],
                                    ff[f, F_CB_BETA], friendly)
    else:  # RFC 9438 in real numbers with ns-3's alpha and/or target time
        rtt = target_rtt(f, ctx)
        for _ in range(acked):
            if bits & NS3_ALPHA:
                alpha = ns3_alpha(ff[f, F_CB_BETA])
            elif w_est >= ff[f, F_CB_PRIOR]:
                alpha = 1.0
            else:
                alpha = law.alpha_cubic_core(ff[f, F_CB_BETA])
            cwnd, w_est = step(cwnd, w_est, alpha, t, rtt, ff[f, F_CB_K], ff[f, F_CB_WMAX],
                               ff[f, F_CB_C], friendly)
    ff[f, F_CWND] = cwnd
    ff[f, F_CB_WEST] = w_est


@_inline
def target_rtt(f, ctx):
    """The RTT added to t for the target: ns-3's min RTT ("min-rtt"; the smoothed RTT
    until there is one) or RFC 9438's RTT, the smoothed RTT."""
    ff = ctx.ff
    if ctx.fi[f, I_CB_NS3] & NS3_MIN_RTT and ff[f, F_CB_MINRTT] < np.inf:
        return ff[f, F_CB_MINRTT]
    return ff[f, F_SRTT]


@_inline
def min_rtt_sample(now, f, ctx):
    """ns-3's ``TcpCubic::PktsAcked`` on an ACK: the smallest smoothed RTT (none within
    CubicDelta of an epoch's start)."""
    ff = ctx.ff
    if ff[f, F_CB_EPOCH] >= 0.0 and now - ff[f, F_CB_EPOCH] < NS3_CUBIC_DELTA:
        return
    if ff[f, F_SRTT] > 0.0 and ff[f, F_SRTT] < ff[f, F_CB_MINRTT]:
        ff[f, F_CB_MINRTT] = ff[f, F_SRTT]


@_inline
def grow_ns3(now, f, acked, ctx):
    """ns-3.44's ``TcpCubic::IncreaseWindow`` and ``Update`` in congestion avoidance
    (option avoidance's "count"): at most one whole segment per ACK."""
    ff, fi = ctx.ff, ctx.fi
    seg = int(ff[f, F_CWND])
    fi[f, I_CB_CWNDCNT] += acked
    if ff[f, F_CB_EPOCH] < 0.0:
        k, w_max = epoch_start(ff[f, F_CB_WMAX], float(seg), ff[f, F_CB_C])
        ff[f, F_CB_EPOCH] = now
        ff[f, F_CB_K] = k
        ff[f, F_CB_WMAX] = w_max
        fi[f, I_CB_ACKCNT] = 0
        fi[f, I_CB_TCPCWND] = seg
    fi[f, I_CB_ACKCNT] += acked
    t = now + target_rtt(f, ctx) - ff[f, F_CB_EPOCH]
    cnt, ack_cnt, tcp_cwnd = ns3_count(seg, t, ff[f, F_CB_K], int(ff[f, F_CB_WMAX]),
                                       ff[f, F_CB_C], fi[f, I_CB_ACKCNT], fi[f, I_CB_TCPCWND],
                                       ff[f, F_CB_BETA], ff[f, F_CB_PRIOR] == 0.0,
                                       ff[f, F_CB_FRIENDLY] > 0.0)
    fi[f, I_CB_ACKCNT] = ack_cnt
    fi[f, I_CB_TCPCWND] = tcp_cwnd
    ff[f, F_CB_WEST] = tcp_cwnd
    if fi[f, I_CB_CWNDCNT] >= cnt:
        ff[f, F_CWND] += 1.0
        fi[f, I_CB_CWNDCNT] -= cnt


@_inline
def hystart(f, acked, ctx):
    """HyStart++ (RFC 9406 §4.2) on a new ACK of *acked* segments in the initial slow start.

    The engine keeps each round's smallest RTT and its sample count (``F_ROUND_MIN_RTT``,
    ``I_ROUND_RTTS``, reset when a round ends, after this ACK's window rules); a round
    whose start differs from the one seen last began since the last ACK: the minimum kept
    from the previous ACK is then lastRoundMinRTT.
    """
    ff, fi = ctx.ff, ctx.fi
    if ff[f, F_ROUND_START] != ff[f, F_HS_ROUND]:  # a new round
        ff[f, F_HS_ROUND] = ff[f, F_ROUND_START]
        ff[f, F_HS_LAST] = ff[f, F_HS_CUR]
        if fi[f, I_HS_STATE] == HS_CSS:
            fi[f, I_HS_CSS_ROUNDS] += 1
    current = ff[f, F_ROUND_MIN_RTT]
    samples = fi[f, I_ROUND_RTTS]
    ff[f, F_HS_CUR] = current
    if fi[f, I_HS_STATE] == HS_SLOW_START:
        ff[f, F_CWND] += hs_increase(acked, False)
        if hs_exit(current, ff[f, F_HS_LAST], samples):
            fi[f, I_HS_STATE] = HS_CSS
            fi[f, I_HS_CSS_ROUNDS] = 0
            ff[f, F_HS_BASE] = current
        return
    ff[f, F_CWND] += hs_increase(acked, True)  # CSS
    if hs_abort(current, ff[f, F_HS_BASE], samples):
        fi[f, I_HS_STATE] = HS_SLOW_START
        ff[f, F_HS_BASE] = np.inf
    elif fi[f, I_HS_CSS_ROUNDS] >= hs.CSS_ROUNDS:  # to congestion avoidance
        ff[f, F_SSTHRESH] = ff[f, F_CWND]
        fi[f, I_HS_STATE] = HS_OFF


@_inline
def cut(f, cwnd, ctx):
    """RFC 9438 §4.6-4.7 at a congestion event with window *cwnd*: returns ssthresh."""
    ff = ctx.ff
    ctx.fi[f, I_HS_STATE] = HS_OFF  # a congestion event ends HyStart++ (RFC 9406 §4.3)
    if ctx.fi[f, I_CB_NS3] & NS3_SSTHRESH:
        ssthresh, w_max = ns3_loss(cwnd, ff[f, F_CB_WMAX], ff[f, F_CB_BETA],
                                   ff[f, F_CB_FASTCONV] > 0.0)
    else:
        ssthresh, w_max = loss(cwnd, ff[f, F_CB_WMAX], ff[f, F_CB_BETA],
                               ff[f, F_CB_FASTCONV] > 0.0)
    ff[f, F_CB_WMAX] = w_max
    ff[f, F_CB_PRIOR] = cwnd
    ff[f, F_CB_EPOCH] = -1.0
    return ssthresh


@_inline
def timeout_cut(f, cwnd, repeated, ctx):
    """RFC 9438 §4.8 at an expiry (see the module docstring): returns ssthresh."""
    ff, fi = ctx.ff, ctx.fi
    fi[f, I_CB_LOSS] = 1
    fi[f, I_HS_STATE] = HS_OFF
    ff[f, F_CB_MINRTT] = np.inf  # ns-3's CubicReset (read by avoidance's "min-rtt" only)
    if repeated:
        return ff[f, F_SSTHRESH]
    ssthresh = cut(f, cwnd, ctx)
    if not fi[f, I_CB_NS3] & NS3_TIMEOUT_WMAX:
        ff[f, F_CB_WMAX] = 0.0  # the next epoch: K = 0, W_max = the window it starts from
    return ssthresh


@_inline
def repeated_timeout(f, ctx):
    """Whether an expiry repeats the last one: a timeout episode whose recovery point
    HighACK has not passed (read before the expiry moves the recovery point)."""
    fi = ctx.fi
    return fi[f, I_CB_LOSS] == 1 and fi[f, I_SND_UNA] <= fi[f, I_RECOVER]


# --- hooks (receiver: the SACK receiver of ctlcc.sim.senders.sack) ---------------------

on_data = SK.on_data


@_inline
def on_start(now, f, ctx, rng):
    if ctx.ff[f, F_CB_MODE] == REC_NEWRENO:
        try_send(now, f, ctx)
    else:
        SK.send_window(now, f, ctx)


@_jit
def on_ack(now, f, ack, ctx, rng):
    if ctx.ff[f, F_CB_MODE] == REC_NEWRENO:
        newreno_ack(now, f, ack, ctx)
    else:
        sack_ack(now, f, ack, ctx)


@_inline
def sack_ack(now, f, record, ctx):
    """:func:`ctlcc.sim.senders.sack.on_ack` with CUBIC's growth and cut."""
    ff, fi = ctx.ff, ctx.fi
    go, acked, newly, delivered = SK.update(now, f, record, ctx)
    if not go:
        return
    if fi[f, I_CB_NS3] & NS3_MIN_RTT:
        min_rtt_sample(now, f, ctx)
    if fi[f, I_IN_RECOVERY] == 1:
        if SK.recovery_done(fi[f, I_SND_UNA], fi[f, I_RECOVER]):  # (A)
            SK.exit_recovery(f, ctx)
        else:  # (B)-(C)
            SK.recovery_ack(now, f, delivered, ctx, acked, newly)
            SK.timer(now, f, acked > 0, ctx)
            return
    elif acked > 0:
        grow(now, f, acked, ctx)
    if SK.is_duplicate(f, newly, ctx):
        if SK.duplicate(now, f, ctx):
            fi[f, I_CB_LOSS] = 0
            SK.enter(now, f, cut(f, ff[f, F_CWND], ctx), delivered, ctx)
    SK.ack_end(now, f, acked, ctx)


@_inline
def newreno_ack(now, f, ack, ctx):
    """:func:`ctlcc.sim.senders.window.on_ack` (NewReno) with CUBIC's growth and cut."""
    ff, fi = ctx.ff, ctx.fi
    seq = ack.seq
    if not W.ack_preamble(f, seq, ack.rtt, ack.retx, ctx):
        return
    if fi[f, I_CB_NS3] & NS3_MIN_RTT:
        min_rtt_sample(now, f, ctx)
    una = fi[f, I_SND_UNA]
    if seq > una:
        state = W.new_ack(now, f, seq, ack.rtt, ack.retx, W.REC_NEWRENO, True, ctx)
        if state == W.ACK_OPEN:
            grow(now, f, seq - una, ctx)
        W.ack_tail(now, f, state, ctx)
        if seq >= fi[f, I_ROUND_END]:
            W.new_round(now, f, ctx)
    elif seq == una and una < fi[f, I_SND_MAX]:
        cwnd = ff[f, F_CWND]
        entries = fi[f, I_FAST_RETX]
        W.dup_ack(now, f, W.REC_NEWRENO, True, True, ctx)
        if fi[f, I_FAST_RETX] > entries:  # fast recovery started: CUBIC's ssthresh
            fi[f, I_CB_LOSS] = 0
            ssthresh = cut(f, cwnd, ctx)
            ff[f, F_SSTHRESH] = ssthresh
            ff[f, F_CWND] = W.recovery_window(ssthresh, int(ctx.g[G_DUPTHRESH]))
    try_send(now, f, ctx)


@_jit
def on_timer(now, f, ctx, rng):
    ff, fi = ctx.ff, ctx.fi
    cwnd = ff[f, F_CWND]
    una = fi[f, I_SND_UNA]
    repeated = repeated_timeout(f, ctx)
    if W.timeout_window(now, f, False, ctx):
        ff[f, F_SSTHRESH] = timeout_cut(f, cwnd, repeated, ctx)
        if ff[f, F_CB_MODE] == REC_NEWRENO:
            try_send(now, f, ctx)
            W.timeout_arm(now, f, ctx)
        else:
            SK.timeout_restart(now, f, una, ctx)
