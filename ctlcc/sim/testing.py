# ctlcc.sim.testing - drive one sender's compiled hooks by hand, for unit tests
"""A test harness for the packet engine's senders.

:class:`SenderHarness` builds the arrays of a real run (the scenario's
channels, flows, the sender's columns and table, exactly as
:func:`ctlcc.sim.run` does) and calls the sender's compiled hooks one at a
time, with the arguments a test chooses: start the flow, hand it an ACK
(:meth:`~SenderHarness.ack`), fire its timer, its pacing event or one of its
own steps, deliver a data packet to its receiver.  Between calls a test
reads what the hooks did: the segments the sender put on its first link
(:meth:`~SenderHarness.sent`), the ACKs its receiver sent back
(:meth:`~SenderHarness.acks`), the events it scheduled
(:meth:`~SenderHarness.events`), its named state (:meth:`~SenderHarness.state`)
and its private columns (``ff``, ``fi``, ``tab`` with the constants of its
module).  No event is processed unless the test asks for it
(:meth:`~SenderHarness.run`).

This is how a new sender is unit-tested (docs: "Add a sender to the engine").

Examples
--------
Reno's first ACK of a fresh connection: slow start grows the window from
one to two segments and two new segments leave.

>>> from ctlcc.sim.senders import Reno
>>> h = SenderHarness(Reno())
>>> h.start(now=0.0)
0
>>> [s["seq"] for s in h.sent()]
[0]
>>> h.ack(seq=1, rtt=0.05, now=0.05)
0
>>> h.state()["cwnd"], [s["seq"] for s in h.sent()]
(2.0, [1, 2])
"""

import numpy as np

from .._validation import (check_finite, check_interval, check_nonnegative, check_nonnegative_int,
                           check_positive)
from ..errors import ParameterError
from . import engine as _engine
from . import scenarios as _scenarios
from ._core import layout as K
from ._core.dispatch import run_hook
from ._core.hooks import KINDS
from ._core.net import Ack

__all__ = ["SenderHarness", "EVENT_KINDS", "STATE_COLUMNS"]

#: event kind -> name, as :meth:`SenderHarness.events` reports them
EVENT_KINDS = {K.EV_ARRIVE: "arrive", K.EV_RTO: "timer", K.EV_PACE: "pace",
               K.EV_START: "start", K.EV_STOP: "stop", K.EV_SAMPLE: "sample",
               K.EV_STEP: "step"}
#: :meth:`SenderHarness.state` names -> (array, column) of the columns every sender has
STATE_COLUMNS = {
    "cwnd": ("ff", K.F_CWND), "ssthresh": ("ff", K.F_SSTHRESH), "srtt": ("ff", K.F_SRTT),
    "rttvar": ("ff", K.F_RTTVAR), "rto": ("ff", K.F_RTO),
    "rto_deadline": ("ff", K.F_RTO_DEADLINE), "min_rtt": ("ff", K.F_MIN_RTT),
    "last_rtt": ("ff", K.F_LAST_RTT), "rate": ("ff", K.F_RATE),
    "snd_una": ("fi", K.I_SND_UNA), "snd_nxt": ("fi", K.I_SND_NXT),
    "snd_max": ("fi", K.I_SND_MAX), "dupacks": ("fi", K.I_DUPACKS),
    "in_recovery": ("fi", K.I_IN_RECOVERY), "recover": ("fi", K.I_RECOVER),
    "rcv_nxt": ("fi", K.I_RCV_NXT), "sent": ("fi", K.I_SENT),
    "retransmitted": ("fi", K.I_RETX), "delivered": ("fi", K.I_DELIVERED),
    "delivered_unique": ("fi", K.I_UNIQUE), "timeouts": ("fi", K.I_TIMEOUTS),
    "fast_retransmits": ("fi", K.I_FAST_RETX), "active": ("fi", K.I_ACTIVE),
}


def _int64(name, value):
    """A packet field: an integer in [0, 2^62] (the engine's arrays hold int64)."""
    return check_nonnegative_int(name, value, maximum=2**62)


class SenderHarness:
    """One scenario's arrays and the compiled hooks of its senders, driven by hand.

    Parameters
    ----------
    sender : str, SenderSpec, WindowLaw or RateLaw, optional
        What every flow of the default scenario runs (default "reno").
        Ignored when *scenario* is given.
    scenario : Scenario, optional
        Default: :func:`ctlcc.sim.scenarios.single_bottleneck` with *sender*.
    duration : float, optional
        The run length the arrays are sized for (samples). [s]
    seed : int, optional
        Seed of the run's Generator (loss models, random start-up timers).

    Attributes
    ----------
    ff, fi : ndarray
        Per-flow float and int columns (the common ones of
        :mod:`ctlcc.sim._core.layout`, then the sender's own).
    tab : ndarray
        Per-flow extra tables ``(flows, rows, width)``.
    g, meta : ndarray
        The run's global parameters and counters.
    pi, pf, cf, ci, ... : ndarray
        Every other array of the run (:data:`ctlcc.sim._core.net.Ctx`).
    specs : list of SenderSpec
        The sender of each flow.

    Examples
    --------
    >>> from ctlcc.sim.senders import FixedWindow
    >>> h = SenderHarness(FixedWindow(window=3))
    >>> h.start(now=0.0), len(h.sent())
    (0, 3)
    >>> h.timer(now=1.0), h.state()["timeouts"], [s["seq"] for s in h.sent()]
    (0, 1, [0, 1, 2])
    """

    def __init__(self, sender="reno", scenario=None, duration=100.0, seed=0):
        if scenario is None:
            if sender is None:
                raise ParameterError("sender must be a sender name, a SenderSpec, a WindowLaw "
                                     "or a RateLaw when no scenario is given, got None")
            scenario = _scenarios.single_bottleneck(protocol=sender)
        if not isinstance(scenario, _scenarios.Scenario):
            raise ParameterError(f"scenario must be a Scenario, got {type(scenario).__name__}")
        duration = float(check_positive("duration", duration, scalar=True))
        seed = check_nonnegative_int("seed", seed)
        _engine._check_memory(scenario, duration, 1.0)   # what memory allows, before allocating
        self._sim = _engine._Simulation(scenario, duration, True, 1.0)
        self._duration = duration
        self._rng = np.random.default_rng(seed)
        self._seen = set()
        self.scenario = scenario

    # --- arrays ------------------------------------------------------------------------------
    def __getattr__(self, name):
        sim = self.__dict__.get("_sim")
        if sim is not None and (name == "specs" or isinstance(getattr(sim, name, None),
                                                              np.ndarray)):
            return getattr(sim, name)
        raise AttributeError(name)

    def state(self, f=0):
        """The columns every sender has, by name (see :data:`STATE_COLUMNS`).

        ``min_rtt`` is +inf until the first RTT sample; ``rate`` is NaN for a
        window-based sender (it has no rate).
        """
        sim = self._sim
        f = self._flow(f)
        return {name: (float(sim.ff[f, col]) if arr == "ff" else int(sim.fi[f, col]))
                for name, (arr, col) in STATE_COLUMNS.items()}

    # --- hooks -------------------------------------------------------------------------------
    def _flow(self, f):
        """Check a flow index: an integer in [0, number of flows)."""
        n = len(self._sim.specs)
        if isinstance(f, (int, np.integer)) and not isinstance(f, (bool, np.bool_)) and f >= n:
            raise ParameterError(f"f must be a flow index in [0, {n}), got {f!r}")
        return check_nonnegative_int("f", f, maximum=n - 1)

    def _time(self, name, value):
        """Check a time [s]: finite and >= 0."""
        return float(check_nonnegative(name, value, scalar=True))

    def _call(self, kind, now, f, x=0, ack=None):
        sim = self._sim
        f = self._flow(f)
        now = self._time("now", now)
        address = int(sim.hooks[f, KINDS.index(kind)])
        if address == 0:
            raise ParameterError(f"sender {sim.specs[f].name!r} has no {kind!r} hook")
        sim.g[K.G_NOW] = now
        if ack is None:
            ack = Ack(0, 0.0, 0, 0, 0.0, 0.0, 0.0)
        status = run_hook(KINDS.index(kind), address, float(now), int(f), int(x), ack,
                          sim.ctx(), self._rng)
        return self._after(status, now, f)

    def _after(self, status, now, f):
        sim = self._sim
        if status == K.HOOK_PYTHON:
            sim.specs[f].python_step(sim, f)
            address = int(sim.hooks[f, KINDS.index("resume")])
            status = run_hook(KINDS.index("resume"), address, float(now), int(f), 0,
                              Ack(0, 0.0, 0, 0, 0.0, 0.0, 0.0), sim.ctx(), self._rng)
            sim.meta[K.M_PENDING] = 0
        if status == K.HOOK_ERROR:
            raise ParameterError(sim.specs[f].error_message(sim, f))
        return int(status)

    def start(self, now=0.0, f=0):
        """The flow starts (marked active, as the event loop does); returns the hook's status."""
        f, now = self._flow(f), self._time("now", now)
        self._sim.fi[f, K.I_ACTIVE] = 1
        self._sim.ff[f, K.F_ROUND_START] = now
        return self._call("start", now, f)

    def ack(self, seq, rtt, now, f=0, retx=0, flag=0, aux1=0.0, aux2=0.0, ecn=0):
        """An ACK reaches the sender: cumulative ``seq``, ``rtt`` = now - echoed send time.

        ``retx``: the echoed segment was a retransmission; ``flag``,
        ``aux1``, ``aux2``: the receiver's fields (a SACK block, Primo's FTT
        and reception rate, a report's counts...); ``ecn``: the ACK's ECN
        bits (``layout.ECN_ECE``: the receiver echoes a CE mark).
        """
        seq, retx = _int64("seq", seq), _int64("retx", retx)
        flag = _int64("flag", flag)
        rtt, now = float(check_positive("rtt", rtt, scalar=True)), self._time("now", now)
        aux1 = float(check_finite("aux1", aux1, scalar=True))
        aux2 = float(check_finite("aux2", aux2, scalar=True))
        ecn = _ecn_bits(ecn)
        record = Ack(int(seq), float(rtt), int(retx), int(flag), float(aux1), float(aux2),
                     float(now) - float(rtt), int(ecn))
        return self._call("ack", now, f, ack=record)

    def timer(self, now, f=0):
        """The retransmission timer fires (whatever its deadline)."""
        return self._call("timer", now, f)

    def pace(self, now, f=0):
        """The flow's pacing event."""
        return self._call("pace", now, f)

    def step(self, step, now, f=0):
        """One of the sender's own steps (an ``EV_STEP`` with this ``step``)."""
        # the hook takes the step as a 64-bit integer
        return self._call("step", now, f, x=check_nonnegative_int("step", step, maximum=2**62))

    def data(self, seq, now, f=0, sent_time=None, retx=0, flag=0, aux1=0.0, aux2=0.0, ecn=0):
        """Data segment ``seq`` reaches the flow's receiver; returns the hook's status.

        The packet is made in the run's pool as if it had crossed the path
        (``sent_time`` defaults to ``now``; ``ecn`` its ECN bits, e.g.
        ``layout.ECN_ECT | layout.ECN_CE`` for a marked segment); what the
        receiver sends back is in :meth:`acks`.
        """
        sim = self._sim
        f, now = self._flow(f), self._time("now", now)
        seq, retx = _int64("seq", seq), _int64("retx", retx)
        flag = _int64("flag", flag)
        if sent_time is not None:
            sent_time = self._time("sent_time", sent_time)
        ecn = _ecn_bits(ecn)
        aux1 = float(check_finite("aux1", aux1, scalar=True))
        aux2 = float(check_finite("aux2", aux2, scalar=True))
        meta, free = sim.meta, sim.free
        if meta[K.M_NFREE] <= 0:
            raise ParameterError(f"seq: the run's packet pool ({sim.pi.shape[0]} packets, sized "
                                 f"for the scenario) is full; got seq={seq!r}")
        meta[K.M_NFREE] -= 1
        p = int(free[meta[K.M_NFREE]])
        sim.pi[p, K.P_FLOW], sim.pi[p, K.P_SEQ], sim.pi[p, K.P_KIND] = f, seq, 0
        sim.pi[p, K.P_HOP], sim.pi[p, K.P_RETX], sim.pi[p, K.P_FLAG] = 0, retx, flag
        sim.pi[p, K.P_ECN] = ecn
        sim.pf[p, K.Q_SENT_TIME] = now if sent_time is None else sent_time
        sim.pf[p, K.Q_ECHO], sim.pf[p, K.Q_AUX1], sim.pf[p, K.Q_AUX2] = 0.0, aux1, aux2
        sim.fi[f, K.I_DELIVERED] += 1
        self._seen.add((p, float(sim.pf[p, K.Q_SENT_TIME]), 0))   # not a segment sent
        return self._call("data", now, f, x=p)

    # --- what the hooks did ---------------------------------------------------------------
    def _packets(self, kind, f):
        sim = self._sim
        f = self._flow(f)
        alive = np.ones(sim.pi.shape[0], dtype=bool)
        alive[sim.free[:sim.meta[K.M_NFREE]]] = False
        out = []
        for p in np.flatnonzero(alive & (sim.pi[:, K.P_KIND] == kind) & (sim.pi[:, K.P_FLOW] == f)
                                & (sim.pi[:, K.P_HOP] == 0)):
            key = (int(p), float(sim.pf[p, K.Q_SENT_TIME] if kind == 0 else sim.pf[p, K.Q_ECHO]),
                   kind)
            if key in self._seen:
                continue
            self._seen.add(key)
            out.append({"seq": int(sim.pi[p, K.P_SEQ]), "retx": int(sim.pi[p, K.P_RETX]),
                        "flag": int(sim.pi[p, K.P_FLAG]), "ecn": int(sim.pi[p, K.P_ECN]),
                        "time": float(sim.pf[p, K.Q_SENT_TIME]),
                        "echo": float(sim.pf[p, K.Q_ECHO]),
                        "aux1": float(sim.pf[p, K.Q_AUX1]), "aux2": float(sim.pf[p, K.Q_AUX2]),
                        "packet": int(p)})
        return sorted(out, key=lambda d: (d["time"], d["packet"]))

    def sent(self, f=0):
        """Data segments flow f put on its first link since the last call (oldest first).

        Each is a dict: ``seq``, ``retx``, ``flag``, ``time`` (send time),
        ``aux1``/``aux2`` (fields the sender set), ``packet`` (pool index).
        A segment the first queue dropped is not listed (see ``state()``'s
        ``sent``).
        """
        return self._packets(0, f)

    def acks(self, f=0):
        """ACKs (reports, feedback) flow f's receiver sent back since the last call.

        Each is a dict: ``seq`` (the cumulative ACK or echoed number),
        ``echo`` (echoed send time), ``flag``, ``aux1``, ``aux2``, ``packet``.
        """
        return self._packets(1, f)

    def events(self, f=None):
        """Pending events ``(time, kind name, a, b)`` in time order, of flow f (default all).

        For timer, pace, step, start and stop events ``a`` is the flow;
        packet arrivals (``a`` = packet) are listed for every flow.
        """
        sim = self._sim
        if f is not None:
            f = self._flow(f)
        n = int(sim.meta[K.M_HEAP])
        rows = list(zip(sim.ht[:n], sim.hs[:n], sim.hk[:n], sim.ha[:n], sim.hb[:n]))
        m = int(sim.meta[K.M_TIMERS])   # the timers' heap, with every other event (net.schedule)
        rows += list(zip(sim.tt[:m], sim.ts[:m], sim.tk[:m], sim.ta[:m], sim.tb[:m]))
        # a run with many channels keeps their oldest packets' arrivals on the wheel
        # (net.wheel_put) until they are due, the heap the others'
        for s in range(K.WHEEL_SLOTS):
            c = int(sim.meta[K.M_WHEEL_HEADS + s])
            while c >= 0:
                p = int(sim.ci[c, K.K_FIFO_HEAD])
                rows.append((sim.pf[p, K.Q_ARRIVAL], sim.pi[p, K.P_EVENT_SEQ], K.EV_ARRIVE, p, c))
                c = int(sim.ci[c, K.K_W_NEXT])
        # the heap or the wheel holds each channel's oldest packet; the others wait behind it
        for c in range(sim.ci.shape[0]):
            p = int(sim.ci[c, K.K_FIFO_HEAD])
            p = int(sim.pi[p, K.P_NEXT]) if p >= 0 else -1
            while p >= 0:
                rows.append((sim.pf[p, K.Q_ARRIVAL], sim.pi[p, K.P_EVENT_SEQ], K.EV_ARRIVE, p, c))
                p = int(sim.pi[p, K.P_NEXT])
        rows.sort()
        out = []
        for t, _, kind, a, b in rows:
            if f is not None and kind not in (K.EV_ARRIVE, K.EV_SAMPLE) and a != f:
                continue
            out.append((float(t), EVENT_KINDS[int(kind)], int(a), int(b)))
        return out

    def run(self, until):
        """Process the events before *until* (at most the duration) with the event loop. [s]

        Returns the number of events processed so far.
        """
        sim = self._sim
        until = float(check_interval("until", until, 0.0, self._duration, closed="both",
                                     scalar=True))
        sim.duration = until
        sim.drive(self._rng, False)
        return int(sim.meta[K.M_EVENTS])


def _ecn_bits(ecn):
    """An ECN field: the OR of ``layout.ECN_ECT``, ``ECN_CE``, ``ECN_CWR``, ``ECN_ECE`` (0-15)."""
    return check_nonnegative_int("ecn", ecn, maximum=K.ECN_ECT | K.ECN_CE | K.ECN_CWR | K.ECN_ECE)
