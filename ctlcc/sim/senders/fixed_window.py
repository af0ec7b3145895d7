# ctlcc.sim.senders.fixed_window - a constant window: the worked example of the sender contract
"""A fixed window: ``window`` segments in flight, go-back-N after a timeout.

No congestion control at all: the window never changes, whatever the
losses.  It is the open-loop baseline of a window law (the throughput a
path gives a sender that neither probes nor backs off) and the smallest
sender that uses the whole contract of :mod:`ctlcc.sim.senders` (one
parameter, one private state column, three hooks, the default receiver),
which is why the contributor guide ("Add a sender to the engine") shows it
line by line.

Mechanics: a new ACK advances ``snd_una`` and feeds the RFC 6298 estimator
(Karn's rule); duplicate ACKs are ignored; the retransmission timer (RFC
6298, exponential backoff) resends from ``snd_una`` (go-back-N).

Examples
--------
A window of 12 segments, above the path's bandwidth-delay product, keeps the
1.5 Mb/s bottleneck busy without a loss: goodput = rate x 1000/1054 (payload
over packet bytes).  A window of 20 leaves at 10 Mb/s in a burst that
overflows the 14-packet buffer, and again after every timeout (no
congestion control to back off):

>>> from ctlcc.sim import run, scenarios
>>> r = run(scenarios.single_bottleneck(buffer=14, protocol=FixedWindow(window=12)), 20.0)
>>> r.flows[0].protocol, r.flows[0].dropped, round(r.flows[0].goodput_bps / 1.5e6, 2)
('fixed', 0, 0.95)
>>> r = run(scenarios.single_bottleneck(buffer=14, protocol=FixedWindow(window=20)), 20.0)
>>> r.flows[0].dropped > 0, r.sender_state[0]["resent"] > 0
(True, True)
"""

from dataclasses import dataclass

import numba
import numpy as np

from ..._validation import check_positive
from .._core.layout import (
    F_CWND, F_RTO, F_RTO_DEADLINE, G_MAX_RTO, I_SND_MAX, I_SND_NXT, I_SND_UNA, I_TIMEOUTS,
    NF_COMMON, NI_COMMON,
)
from .._core.net import arm, rto_estimate, try_send
from ._base import SenderSpec

__all__ = ["FixedWindow"]

# private columns: the window asked for, the segments resent by go-back-N
F_WINDOW = NF_COMMON
I_RESENT = NI_COMMON


@dataclass(frozen=True)
class FixedWindow(SenderSpec):
    """A constant congestion window (no congestion control).

    Attributes
    ----------
    window : float
        Segments in flight, > 0 (``int(window)`` are sent, at least one;
        the scenario's ``TcpOptions.max_window`` caps it). [packets]
    """

    window: float = 10.0

    name = "fixed"
    float_columns = 1
    int_columns = 1

    def __post_init__(self):
        object.__setattr__(self, "window", float(check_positive("window", self.window,
                                                                scalar=True)))

    def init_flow(self, ff, fi, tab, j, tcp):
        ff[j, F_WINDOW] = self.window
        ff[j, F_CWND] = min(self.window, tcp.max_window)

    def final_state(self, ff, fi, j):
        """The window and the segments resent after timeouts. [packets]"""
        return {"window": float(ff[j, F_WINDOW]), "resent": int(fi[j, I_RESENT])}


# --- hooks (the receiver is the default cumulative-ACK one) ------------------------------

@numba.njit(cache=True, inline="always")
def on_start(now, f, ctx, rng):
    try_send(now, f, ctx)


@numba.njit(cache=True, inline="always")
def on_ack(now, f, ack, ctx, rng):
    ff, fi = ctx.ff, ctx.fi
    if ack.seq > fi[f, I_SND_UNA]:
        fi[f, I_SND_UNA] = ack.seq
        if fi[f, I_SND_NXT] < ack.seq:
            fi[f, I_SND_NXT] = ack.seq
        if ack.retx == 0:  # Karn's rule: no sample from a retransmission
            rto_estimate(f, ack.rtt, ctx)
        if fi[f, I_SND_UNA] >= fi[f, I_SND_MAX]:
            ff[f, F_RTO_DEADLINE] = np.inf  # nothing outstanding: timer off
        else:
            arm(now + ff[f, F_RTO], f, ctx)
    try_send(now, f, ctx)


@numba.njit(cache=True, inline="always")
def on_timer(now, f, ctx, rng):
    ff, fi = ctx.ff, ctx.fi
    ff[f, F_RTO_DEADLINE] = np.inf
    if fi[f, I_SND_MAX] <= fi[f, I_SND_UNA]:
        return
    fi[f, I_TIMEOUTS] += 1
    fi[f, I_RESENT] += fi[f, I_SND_NXT] - fi[f, I_SND_UNA]
    fi[f, I_SND_NXT] = fi[f, I_SND_UNA]  # go-back-N
    ff[f, F_RTO] = min(2.0 * ff[f, F_RTO], ctx.g[G_MAX_RTO])
    try_send(now, f, ctx)
