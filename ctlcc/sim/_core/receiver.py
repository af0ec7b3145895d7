# ctlcc.sim._core.receiver - the cumulative-ACK receiver, the default data hook (private)
"""The receiver of a sender that defines no ``on_data`` hook.

In-order bookkeeping and one cumulative ACK per data packet (no delayed
ACKs), echoing the segment's send time and retransmission flag: the TCP
receiver of Reno, NewReno, Tahoe, Vegas, ST-PD (and a user's window law)
and STTP (:func:`.net.cumulative_ack_receiver`).
"""

import numba

from .layout import P_SEQ
from .net import cumulative_ack_receiver, emit_ack

__all__ = []


@numba.njit(cache=True, inline="always")
def on_data(now, f, p, ctx, rng):
    cumulative_ack_receiver(now, p, f, ctx.pi[p, P_SEQ], ctx)
    emit_ack(now, p, f, ctx)
