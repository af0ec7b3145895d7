# ctlcc.analysis.plant - the bottleneck queue as a difference equation
"""The bottleneck queue as a difference equation, and unit conversions.

The thesis (Xu (2002), eqs. 3.1, 4.5, 4.6) models the queue of
the bottleneck node in discrete time.  One *slot* is the time the bottleneck
takes to send one packet, so its capacity is one packet per slot and a round
trip of ``rtt`` seconds is ``m = rtt / slot`` slots.  In slot ``n`` ``a(n)``
packets arrive and ``d(n)`` leave:

* nonlinear (4.5), with a finite buffer::

      b(n) = min(max(b(n-1) + a(n) - d(n), 0), buffer)

  and ``max(b(n-1) + a(n) - d(n) - buffer, 0)`` packets dropped;
* linearised (4.6), valid while the queue is neither empty nor full::

      b(n) = b(n-1) + a(n) - d(n)   <=>   B(z) = (A(z) - D(z)) / (1 - z**-1).

The same update functions take floats, numpy arrays and sympy symbols, so
the z-domain loops in :mod:`ctlcc.analysis` are derived from them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike
import sympy as sp

from .._results import Unpackable
from .._validation import (
    check_nonnegative,
    check_positive,
    check_finite,
    is_symbolic,
)
from ..errors import ParameterError

__all__ = [
    "queue_step",
    "queue_step_linear",
    "queue_transfer",
    "simulate_queue",
    "QueueTrace",
    "SlotScale",
]


@dataclass(frozen=True)
class QueueTrace(Unpackable):
    """Queue occupancy after each slot of :func:`simulate_queue`.

    Attributes
    ----------
    occupancy : ndarray
        ``b(n)`` after slot n. [packets]
    dropped : ndarray
        Packets dropped in slot n because the buffer was full. [packets]
    unused : ndarray
        Service capacity lost in slot n because the queue ran empty
        (the amount the ``max(., 0)`` of eq. 4.5 removed). [packets]
    buffer : float
        Buffer size the trace was computed with. [packets]
    """

    occupancy: np.ndarray
    dropped: np.ndarray
    unused: np.ndarray
    buffer: float

    _unpack = ("occupancy", "dropped")


@dataclass(frozen=True)
class SlotScale:
    """Conversion between physical units and normalised slots.

    One slot is the transmission time of one packet at the bottleneck,
    ``packet_size * 8 / capacity`` seconds; the bottleneck then serves one
    packet per slot (thesis §4.3.2-4.3.3).

    Parameters
    ----------
    capacity : float
        Bottleneck link rate. [bit/s]
    packet_size : float
        Packet size on the bottleneck. [bytes]

    Examples
    --------
    The thesis's numerical example (§4.3.3): 1.5 Mb/s, 1000-byte packets,
    16 ms round trip is m = 3 slots.

    >>> scale = SlotScale(capacity=1.5e6, packet_size=1000)
    >>> round(scale.slot * 1e3, 3)
    5.333
    >>> scale.round_trip_slots(0.016)
    3
    """

    capacity: float
    packet_size: float
    slot: float = field(init=False)

    def __post_init__(self):
        check_positive("capacity", self.capacity)
        check_positive("packet_size", self.packet_size)
        object.__setattr__(self, "slot", 8.0 * self.packet_size / self.capacity)

    @property
    def packets_per_second(self):
        """Bottleneck capacity. [packets/s]"""
        return 1.0 / self.slot

    def to_slots(self, seconds):
        """Convert a duration to slots (not rounded). [slots]"""
        return np.asarray(check_nonnegative("seconds", seconds)) / self.slot

    def to_seconds(self, slots):
        """Convert a number of slots to a duration. [s]"""
        return np.asarray(check_nonnegative("slots", slots)) * self.slot

    def rate_to_normalised(self, rate):
        """Convert a packet rate [packets/s] to packets per slot."""
        return np.asarray(check_nonnegative("rate", rate)) * self.slot

    def rate_to_physical(self, normalised_rate):
        """Convert packets per slot to a packet rate. [packets/s]"""
        return np.asarray(check_nonnegative("normalised_rate", normalised_rate)) / self.slot

    def round_trip_slots(self, round_trip_time):
        """Round trip as the integer loop delay m of eq. 4.1. [slots]

        The round trip is rounded to the nearest whole slot.

        Raises
        ------
        ParameterError
            If the round trip is shorter than half a slot (m would be 0;
            the error is always seen at least one slot late).
        """
        rtt = check_positive("round_trip_time", round_trip_time)
        m = int(np.rint(rtt / self.slot))
        if m < 1:
            raise ParameterError(
                f"round_trip_time must be at least half a slot ({self.slot / 2:g} s) "
                f"so that m >= 1, got {rtt!r}"
            )
        return m

    def bdp_packets(self, round_trip_time):
        """Bandwidth-delay product of a round trip. [packets]"""
        return np.asarray(check_positive("round_trip_time", round_trip_time)) / self.slot


def queue_step(previous, arrivals, departures, buffer=np.inf):
    """One slot of the nonlinear queue, eq. 4.5 with a finite buffer.

    Parameters
    ----------
    previous : float or ndarray
        Occupancy b(n-1). [packets]
    arrivals : float or ndarray
        Arrivals a(n) in the slot. [packets]
    departures : float or ndarray
        Service d(n) in the slot. [packets]
    buffer : float, optional
        Buffer size; ``inf`` for an infinite buffer. [packets]

    Returns
    -------
    occupancy, dropped : float or ndarray
        b(n) and the packets dropped in the slot. [packets]

    Examples
    --------
    >>> queue_step(2.0, 3.0, 1.0, buffer=3)
    (3.0, 1.0)
    >>> queue_step(0.5, 0.0, 1.0)
    (0.0, 0.0)
    """
    check_nonnegative("previous", previous)
    check_nonnegative("arrivals", arrivals)
    check_nonnegative("departures", departures)
    check_positive("buffer", buffer, allow_inf=True)
    raw = np.asarray(previous, dtype=float) + arrivals - departures
    dropped = np.maximum(raw - buffer, 0.0)
    occupancy = np.clip(raw, 0.0, buffer)
    if occupancy.ndim == 0:
        return float(occupancy), float(dropped)
    return occupancy, dropped


def queue_step_linear(previous, arrivals, departures):
    """One slot of the linearised queue, eq. 4.6: b(n-1) + a(n) - d(n).

    Accepts sympy expressions, which is how the z-domain loops are derived:
    with ``previous = z**-1 * B`` the equation ``B = queue_step_linear(...)``
    is eq. 4.7.

    Examples
    --------
    >>> import sympy as sp
    >>> z, A, B, D = sp.symbols("z A B D")
    >>> sp.solve(sp.Eq(B, queue_step_linear(B / z, A, D)), B)[0]
    z*(A - D)/(z - 1)
    """
    for name, value in (("previous", previous), ("arrivals", arrivals), ("departures", departures)):
        check_finite(name, value)
    return previous + arrivals - departures


def queue_transfer(z=None):
    """Queue transfer function B(z)/(A(z) - D(z)) = 1 / (1 - z**-1).

    Derived by solving eq. 4.7, the z-transform of
    :func:`queue_step_linear`, for B(z).

    Examples
    --------
    >>> queue_transfer()
    z/(z - 1)
    """
    z = sp.Symbol("z") if z is None else z
    A, B, D = sp.symbols("A B D")
    solution = sp.solve(sp.Eq(B, queue_step_linear(B / z, A, D)), B)[0]
    return sp.simplify(solution / (A - D))


def simulate_queue(arrivals: ArrayLike, departures: ArrayLike = 1.0, initial: float = 0.0,
                   buffer: float = np.inf) -> QueueTrace:
    """Iterate the nonlinear queue (4.5) over a sequence of slots.

    Parameters
    ----------
    arrivals : array_like
        a(n) for each slot. [packets]
    departures : float or array_like, optional
        d(n), scalar or one per slot; 1 is the normalised capacity. [packets]
    initial : float, optional
        b(-1). [packets]
    buffer : float, optional
        Buffer size. [packets]

    Returns
    -------
    QueueTrace

    Examples
    --------
    >>> trace = simulate_queue([2, 2, 0, 0], 1.0, buffer=1.5)
    >>> trace.occupancy.tolist(), trace.dropped.tolist()
    ([1.0, 1.5, 0.5, 0.0], [0.0, 0.5, 0.0, 0.0])
    """
    a = np.asarray(check_nonnegative("arrivals", np.asarray(arrivals, dtype=float)), dtype=float)
    d = np.broadcast_to(
        np.asarray(check_nonnegative("departures", departures), dtype=float), a.shape
    )
    b = check_nonnegative("initial", initial)
    check_positive("buffer", buffer, allow_inf=True)
    occupancy = np.empty_like(a)
    dropped = np.empty_like(a)
    unused = np.empty_like(a)
    for n in range(a.size):
        raw = b + a[n] - d[n]
        unused[n] = max(-raw, 0.0)
        dropped[n] = max(raw - buffer, 0.0)
        b = min(max(raw, 0.0), buffer)
        occupancy[n] = b
    return QueueTrace(occupancy, dropped, unused, float(buffer))
