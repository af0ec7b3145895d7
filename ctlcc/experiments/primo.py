# ctlcc.experiments.primo - Primo's evaluation (§V-§VI) re-run on ctlcc's packet engine
"""Primo's simulation study, re-run and checked.

Chatté, Ducourthial & Niculescu (2006) compare Primo with TCP Reno, Sack,
Vegas and TFRC on the dumbbell of their Fig. 1-top while one network
parameter varies (§V-A..D, pentagons of Figs. 2-5), as the number of
sources grows (§V-E), and on the multi-congestion network of Fig. 1-bottom
(§VI, Figs. 6-7); §I and §VII-B add that a preventive protocol loses its
bandwidth to a corrective one in a shared drop-tail queue.  Each function
below rebuilds one of these on :func:`ctlcc.sim.run` through the public
scenario API only (protocol strings, presets, ``dumbbell``), measures the
five criteria of :func:`ctlcc.sim.criteria.primo_criteria` and returns a
frozen result; :func:`claims` compares them with the paper's numbers
(``data/primo_sim_published.csv``).

The paper's protocol list is :data:`PAPER_PROTOCOLS` (Reno, Sack, Vegas,
TFRC, Primo: :class:`ctlcc.sim.senders.Sack` and
:class:`ctlcc.sim.senders.Tfrc`); the default runs use all five
(:data:`PROTOCOLS`).

Common choices (the paper does not print them):

* shared link 2 Mb/s 10 ms, access and exit links 10 Mb/s 1 ms, all
  router queues 30 packets (the ``primo_fig1_top`` preset), 1000-byte
  payloads plus ctlcc's default 54-byte headers;
* rates sampled every :data:`INTERVAL` = 0.1 s, a warm-up of
  :data:`WARMUP` after each flow's start (see
  :mod:`ctlcc.sim.criteria`); one seed (the runs are loss-model free and
  deterministic: the seed changes nothing);
* runs of :data:`DURATION` (quick) or :data:`DURATION_FULL` (full grids).

Findings on the many-sources puzzle (§III-B, §III-D, §V-E)
------------------------------------------------------------
§III leaves two points open, now options of :class:`~ctlcc.sim.senders.Primo`
(:data:`READINGS`).  Read literally (``Primo.legacy()``: 4-packet burst
restarted after the fixed 1-s initial time-out; TO = 2 RTT_ref re-armed at
every ACK, rate halved and TO doubled when it expires), three mechanisms
make Primo collapse as N grows on Fig. 1-top (C = 237.2 packets/s,
RTT_0 = 30.2 ms):

1. *start-up lockstep*: N flows started together burst 4N packets into a
   30-packet queue; the flows that lose one restart after the same 1-s
   timer and collide again, forever (N = 15, 20 together: occupancy 13 %,
   ``startup_diagnosis``, 12-s runs);
2. *time-outs without loss*: with the timer re-armed at each ACK a flow
   whose gap 1/rate exceeds TO times out between two packets, halves its
   rate and doubles TO, so the gap/TO ratio stays and the flow falls silent
   (:func:`primo_collapse`); for N > 2 C RTT_0 = 14.3 even the fair share
   is below the threshold;
3. *per-packet reception rate* (the protocol as printed, §III-A): a flow
   whose packets leave the queue back to back reads the link rate, and one
   interleaved with others over-reads its share (E[1/gap] > 1/E[gap]); in
   the strong regime its share s solves 1 - s = -F_str ln s, s = 0.902
   (:func:`interleaved_share`), leaving the others about a tenth.

The default ``Primo()`` fixes (1) and (2) - a failed start-up waits U[0.5,
1.5] x the initial time-out (the run's Generator), and the time-out runs
only while a packet is outstanding, from the oldest unacknowledged send
(RFC 6298 §5) - and restores the link's use: N = 15 and 20 together go
from 13 % to 95 % and 94 % occupancy; staggered runs lose nothing (drops
3161 -> 0 at N = 15).  It does not restore fairness: from N = 10 the
lowest share x N stays at 2-4 % together and staggered, and two flows
started 1 s apart end at 20.5 % - the fixed point (3): the incumbent keeps
0.90 of the link, fairness 2 x 0.098 = 19.6 %.  The counterfactual
``Primo(reception_rate="mean_gap")`` (1 / smoothed gap, unbiased; not the
paper's estimate) lifts the two staggered flows to 60.5 % and brings
Fig. 7's five flows to 0.29-0.42 of a link (the paper's "one third"), but
leaves N >= 10 unfair (2-7 %): a late flow's FTT_ref holds the queue it
found, as Vegas' baseRTT does.  So §V-E's "not significantly affected" is
not reproduced by the protocol as printed under any reading of §III-B/D.

Primo beside Reno (§I-B, §VII-B) depends on the time-out reading: with
``Primo()`` Primo's packets wait behind Reno's standing queue longer than
TO = 2 RTT_ref, every time-out halves its rate, and Reno takes 99.7-99.9 %
of the link, as the paper says - except when Reno starts first into a
deep buffer (60 packets), where Primo's RTT_ref and FTT_ref hold the
113-ms standing queue and Primo keeps 85 %.  Read literally, ACKs every
few ms re-arm the timer, it never fires, and the fixed point (3) keeps
Primo at 85-90 %.

References
----------
Chatté, Ducourthial & Niculescu (2006), §I-B, §IV-§VII, Figs. 1-7.
"""

from dataclasses import dataclass, replace

import numpy as np

from .._validation import check_positive, check_positive_int
from . import _args
from ._args import checked
from ._published import read_published
from ..errors import ParameterError
from ..sim import criteria as _criteria
from ..sim import run, scenarios
from ..sim.senders import Primo

__all__ = [
    "red_for_buffer",
    "PAPER_PROTOCOLS",
    "PROTOCOLS",
    "PUBLISHED_FILE",
    "PAPER_GRIDS",
    "READINGS",
    "QUICK_GRIDS",
    "SweepResult",
    "ManySourcesResult",
    "CollapseResult",
    "StartupDiagnosis",
    "IntervalSensitivity",
    "MixedResult",
    "MultiCongestionResult",
    "published",
    "fig1_top",
    "parameter_sweep",
    "many_sources",
    "primo_collapse",
    "startup_diagnosis",
    "primo_against_reno",
    "interval_sensitivity",
    "multi_congestion",
    "interleaved_share",
    "run_all",
    "claims",
]

#: The five protocols of Figs. 2-5.
PAPER_PROTOCOLS = ("reno", "sack", "vegas", "tfrc", "primo")
#: The protocols the experiments run by default (all five of the paper).
PROTOCOLS = PAPER_PROTOCOLS
PUBLISHED_FILE = "primo_sim_published.csv"

#: Readings of Primo's start-up restart and time-out (§III-B, §III-D): name -> spec factory.
READINGS = {
    "literal": Primo.legacy,
    "spread_restart": lambda: Primo.legacy(restart_jitter=0.5),
    "outstanding_timeout": lambda: Primo(restart_jitter=0.0),
    "supported": Primo,
}

#: Rate sampling interval of the stability criteria. [s]
INTERVAL = 0.1
#: Warm-up after each flow's start. [s]
WARMUP = 3.0
#: Run length of the quick (report) and full settings. [s]
DURATION = 12.0
DURATION_FULL = 60.0

#: §IV-B's sweeps: shared link rate [bit/s], router queue [packets], shared link delay [s],
#: second source's access delay [s] (RTT 24 -> 122 ms).
PAPER_GRIDS = {
    "bandwidth": (1e6, 2e6, 4e6, 8e6, 16e6),
    "queue": (5, 10, 20, 30, 50),
    "delay": (5e-3, 10e-3, 25e-3, 50e-3, 100e-3, 200e-3),
    "access_delay": (1e-3, 5e-3, 10e-3, 20e-3, 30e-3, 40e-3, 50e-3),
}
#: Reduced grids of the report (each keeps the sweep's two ends or its telling points).
QUICK_GRIDS = {
    "bandwidth": (1e6, 4e6, 16e6),
    "queue": (5, 30),
    "delay": (5e-3, 50e-3, 200e-3),
    "access_delay": (1e-3, 40e-3),
}
_PRIMO_SPEC = _args.instance(Primo, "a Primo sender spec (e.g. Primo.legacy())")
_SCHEDULES = _args.choices(("together", "staggered"))
_FIGURE = {"bandwidth": "Fig. 2", "queue": "Fig. 3", "delay": "Fig. 4", "access_delay": "Fig. 5"}

# Fig. 1-top defaults (see ctlcc.sim.scenarios.primo_fig1_top)
_RATE, _DELAY, _ACCESS_RATE, _ACCESS_DELAY, _BUFFER = 2e6, 10e-3, 10e6, 1e-3, 30


@dataclass(frozen=True)
class SweepResult:
    """The five criteria of each protocol along one §IV-B sweep (Figs. 2-5).

    Attributes
    ----------
    parameter : str
        "bandwidth", "queue", "delay" or "access_delay".
    values : ndarray, shape (v,)
        The swept values. [bit/s], [packets] or [s]
    protocols : tuple of str
    criteria : ndarray, shape (p, v, 5)
        The five criteria in :data:`ctlcc.sim.criteria.CRITERIA` order. [%]
    queue_fraction : ndarray, shape (p, v)
        Time-mean queue of the shared link over its buffer. [1]
    round_trip_times : ndarray, shape (v, 2)
        Each flow's no-congestion RTT. [s]
    duration, warmup, interval : float
        Run length, warm-up, rate sampling interval. [s]
    seed : int
    """

    parameter: str
    values: np.ndarray
    protocols: tuple
    criteria: np.ndarray
    queue_fraction: np.ndarray
    round_trip_times: np.ndarray
    duration: float
    warmup: float
    interval: float
    seed: int

    def mean(self, protocol):
        """Each criterion averaged over the sweep (the pentagon's corners). [%]"""
        return self.criteria[self.protocols.index(protocol)].mean(axis=0)


@dataclass(frozen=True)
class ManySourcesResult:
    """The criteria as the number of sources grows (§V-E).

    Attributes
    ----------
    counts : ndarray, shape (c,)
        Numbers of sources. [1]
    protocols : tuple of str
    schedules : tuple of str
        "together" (all start at 0) and/or "staggered" (source i at i*stagger).
    stagger : float
        Gap between staggered starts. [s]
    criteria : ndarray, shape (p, s, c, 5)
        [%]
    starved : ndarray, shape (p, s, c)
        Flows delivering less than a tenth of the fair share. [1]
    duration, warmup, interval : float
        [s]
    """

    counts: np.ndarray
    protocols: tuple
    schedules: tuple
    stagger: float
    criteria: np.ndarray
    starved: np.ndarray
    duration: float
    warmup: float
    interval: float


def red_for_buffer(buffer):
    """RED for §V-B's "RED queue on router R1" (parameters not printed): ctlcc's reading.

    min_th = B/4 and max_th = 3B/4 of the buffer B (Floyd & Jacobson's
    max_th = 3 min_th, both inside the buffer), max_p 0.1, w_q 0.002, gentle.

    Parameters
    ----------
    buffer : int
        The queue's buffer B, >= 2. [packets]

    Returns
    -------
    ctlcc.laws.aqm.RedParams

    Examples
    --------
    >>> r = red_for_buffer(20)
    >>> r.min_threshold, r.max_threshold, r.max_probability
    (5.0, 15.0, 0.1)
    """
    from ..laws.aqm import RedParams

    buffer = _args.buffer("buffer", buffer)
    if buffer < 2:
        raise ParameterError(f"buffer must be >= 2 packets (RED needs min_th < max_th inside "
                             f"it), got {buffer!r}")
    return RedParams(buffer / 4, 3 * buffer / 4, 0.1, weight=0.002, gentle=True)


@dataclass(frozen=True)
class CollapseResult:
    """How Primo flows fall silent on Fig. 1-top (the many-sources puzzle).

    Attributes
    ----------
    n : int
        Number of Primo flows. [1]
    starts : ndarray, shape (n,)
        Start times. [s]
    time : ndarray, shape (k,)
        Sampling instants. [s]
    rate : ndarray, shape (k, n)
        Primo sending rates (Algorithm 1's state). [packets/s]
    rtt_ref : ndarray, shape (n,)
        Smallest RTT each flow measured (RTT_ref). [s]
    threshold : ndarray, shape (n,)
        1 / (2 RTT_ref): below this rate the gap between packets exceeds
        TO = 2 RTT_ref. [packets/s]
    collapse_time : ndarray, shape (n,)
        First instant after which the rate stays below the threshold to
        the end (NaN: never; a flow that never leaves start-up counts from
        its start + 0.5 s). [s]
    halvings : ndarray, shape (n,)
        Samples where the rate is exactly half the previous one (a
        time-out, ``timeout_backoff``, with no packet sent between). [1]
    drops_before : ndarray, shape (n,)
        Packets of the flow lost before its collapse (all, if none). [packets]
    delivered : ndarray, shape (n,)
        Packets delivered by the end. [packets]
    fair_share : float
        Link capacity / n. [packets/s]
    link_utilisation : float
        Busy fraction of the shared link. [1]
    duration : float
        [s]
    """

    n: int
    starts: np.ndarray
    time: np.ndarray
    rate: np.ndarray
    rtt_ref: np.ndarray
    threshold: np.ndarray
    collapse_time: np.ndarray
    halvings: np.ndarray
    drops_before: np.ndarray
    delivered: np.ndarray
    fair_share: float
    link_utilisation: float
    duration: float

    @property
    def collapsed(self):
        """Indices of the flows that fell silent for good."""
        return np.flatnonzero(np.isfinite(self.collapse_time))


@dataclass(frozen=True)
class StartupDiagnosis:
    """N Primo flows on Fig. 1-top under the readings of §III-B/§III-D.

    Readings (:data:`READINGS`): "literal" (:meth:`Primo.legacy`: TO
    re-armed on every ACK, failed start-ups restarted after the same 1-s
    timer), "spread_restart" (literal time-out, randomised restart),
    "outstanding_timeout" (time-out only while a packet is outstanding,
    fixed restart timer) and "supported" (both: ``Primo()``, the default).

    Attributes
    ----------
    counts : ndarray, shape (c,)
        Numbers of flows. [1]
    readings : tuple of str
    schedules : tuple of str
        "together" (all at 0 s) and/or "staggered" (flow i at i * stagger).
    stagger : float
        Gap between staggered starts. [s]
    criteria : ndarray, shape (r, s, c, 5)
        The five criteria over the window after the last start + warm-up. [%]
    utilisation : ndarray, shape (r, s, c)
        Shared link busy fraction over the whole run. [1]
    starved : ndarray, shape (r, s, c)
        Flows whose share of the common window is below a tenth of 1/N. [1]
    timeouts : ndarray, shape (r, s, c)
        Time-outs of all flows (start-up restarts included). [1]
    drops : ndarray, shape (r, s, c)
        Packets lost, all flows. [packets]
    fair_share_over_threshold : ndarray, shape (c,)
        C/N over 1/(2 RTT_0) (RTT_0 the empty-path RTT): below 1 a flow at
        its fair share sends slower than one packet per TO and, under the
        literal reading, times out without loss. [1]
    duration : float
        Run length after the last start. [s]
    warmup, interval : float
        [s]
    seed : int
        Seed of the runs (the randomised restart draws from it).
    """

    counts: np.ndarray
    readings: tuple
    schedules: tuple
    stagger: float
    criteria: np.ndarray
    utilisation: np.ndarray
    starved: np.ndarray
    timeouts: np.ndarray
    drops: np.ndarray
    fair_share_over_threshold: np.ndarray
    duration: float
    warmup: float
    interval: float
    seed: int

    def value(self, reading, schedule, criterion):
        """One criterion against N for a reading and a schedule. [%]"""
        return self.criteria[self.readings.index(reading), self.schedules.index(schedule), :,
                             _criteria.CRITERIA.index(criterion)]


@dataclass(frozen=True)
class IntervalSensitivity:
    """Rate stability against the (unprinted) sampling interval.

    Attributes
    ----------
    parameter : str or None
        The §IV-B parameter set (None: defaults).
    value : float or None
        Its value.
    protocols : tuple of str
    intervals : ndarray, shape (i,)
        Sampling intervals. [s]
    sending, reception : ndarray, shape (p, i)
        Sending / reception rate stability. [%]
    duration, warmup : float
        [s]
    """

    parameter: object
    value: object
    protocols: tuple
    intervals: np.ndarray
    sending: np.ndarray
    reception: np.ndarray
    duration: float
    warmup: float


@dataclass(frozen=True)
class MixedResult:
    """Primo beside Reno in one drop-tail queue (§I-B, §VII-B).

    Attributes
    ----------
    buffers : ndarray, shape (b,)
        Shared queue sizes. [packets]
    orders : tuple of str
        "together", "primo_first", "reno_first" (the second flow starts
        :data:`WARMUP` later).
    primo_share : ndarray, shape (b, o)
        Primo's fraction of the delivered packets once both run. [1]
    utilisation : ndarray, shape (b, o)
        Shared link busy fraction. [1]
    queue_min : ndarray, shape (b, o)
        Smallest sampled queue once both run. [packets]
    queue_mean : ndarray, shape (b, o)
        Mean sampled queue once both run. [packets]
    primo_rtt_excess : ndarray, shape (b, o)
        Primo's RTT_ref minus the empty-path RTT: the queueing delay built
        into its reference. [s]
    base_rtt : float
        Empty-path RTT of both flows. [s]
    primo_rate : ndarray, shape (b, o)
        Primo's mean sending rate once both run, over the link capacity:
        near F x 1 when its reception rate reads the link rate. [1]
    reno_losses : ndarray, shape (b, o)
        Reno's lost packets. [packets]
    primo_losses : ndarray, shape (b, o)
        Primo's lost packets. [packets]
    primo_timeouts : ndarray, shape (b, o)
        Primo's time-outs (each halves its rate). [1]
    rtt_over_timeout : ndarray, shape (b, o)
        Primo's median RTT once both run over its TO = 2 RTT_ref: above 1,
        a packet queued behind the corrective flow is still unacknowledged
        when TO expires. [1]
    against : str
        The corrective protocol.
    duration : float
        [s]
    """

    buffers: np.ndarray
    orders: tuple
    primo_share: np.ndarray
    utilisation: np.ndarray
    queue_min: np.ndarray
    queue_mean: np.ndarray
    primo_rtt_excess: np.ndarray
    base_rtt: float
    primo_rate: np.ndarray
    reno_losses: np.ndarray
    primo_losses: np.ndarray
    primo_timeouts: np.ndarray
    rtt_over_timeout: np.ndarray
    against: str
    duration: float


@dataclass(frozen=True)
class MultiCongestionResult:
    """Sending rates on Fig. 1-bottom (§VI, Figs. 6-7).

    Attributes
    ----------
    protocols : tuple of str
    schedule : str
        "together" (Fig. 6) or "staggered" (Fig. 7: a, b at 0; c, d at
        ``stagger``; e at 2 ``stagger``).
    starts : ndarray, shape (5,)
        [s]
    flow_names : tuple of str
        ("a", "b", "c", "d", "e").
    hops : ndarray, shape (5,)
        Router links each flow crosses. [1]
    bin_time : ndarray, shape (k,)
        Ends of the rate bins. [s]
    send_rate : ndarray, shape (p, k, 5)
        Packets sent per second in each bin. [packets/s]
    link_share : ndarray, shape (p, 5)
        Each flow's delivery rate over the last half of the run divided by
        one router link's capacity (1/3 = the paper's share). [1]
    queue_mean : ndarray, shape (p, 3)
        Mean queue of the three router links. [packets]
    criteria : ndarray, shape (p, 5)
        The five criteria (occupancy of link R0-R1). [%]
    timeouts : ndarray, shape (p, 5)
        Each flow's time-outs. [1]
    capacity : float
        Capacity of one router link. [packets/s]
    duration : float
        [s]
    """

    protocols: tuple
    schedule: str
    starts: np.ndarray
    flow_names: tuple
    hops: np.ndarray
    bin_time: np.ndarray
    send_rate: np.ndarray
    link_share: np.ndarray
    queue_mean: np.ndarray
    criteria: np.ndarray
    timeouts: np.ndarray
    capacity: float
    duration: float


def published(claim_id=None):
    """The paper's numbers (``data/primo_sim_published.csv``).

    Parameters
    ----------
    claim_id : str, optional
        One row's ``claim_id``; default: every row.

    Returns
    -------
    dict
        One row (numbers as float, blanks as None), or ``{claim_id: row}``.

    Examples
    --------
    >>> published("sec5d_primo_fairness")["value"]
    98.0
    """
    return read_published(PUBLISHED_FILE, claim_id)


@checked(protocol=_args.protocol_per_flow,
         parameter=_args.optional(_args.choice(tuple(PAPER_GRIDS))))
def fig1_top(protocol="primo", parameter=None, value=None, n=2, start=0.0):
    """Fig. 1-top with one §IV-B parameter changed.

    Parameters
    ----------
    protocol : str or sequence of str
        One of :data:`ctlcc.sim.scenarios.PROTOCOLS`, shared or per flow.
    parameter : str, optional
        "bandwidth" (shared link [bit/s]), "queue" (every router queue
        [packets]), "delay" (shared link [s]) or "access_delay" (second
        source's access link [s]); None for the defaults.
    value : float, optional
        The parameter's value.
    n : int
        Number of sources. [1]
    start : float or sequence
        Start times. [s]

    Returns
    -------
    Scenario

    Examples
    --------
    >>> s = fig1_top("reno", "access_delay", 0.05)
    >>> [round(l.delay, 3) for l in s.links if l.a == "S1"]
    [0.05]
    """
    if parameter is None and value is not None:
        raise ParameterError(f"value needs a parameter (one of {', '.join(map(repr, PAPER_GRIDS))})"
                             f", got value={value!r} with parameter=None")
    rate, delay, buffer, access = _RATE, _DELAY, _BUFFER, _ACCESS_DELAY
    if parameter == "bandwidth":
        rate = check_positive("value", value)
    elif parameter == "queue":
        buffer = _args.buffer("value", value)
    elif parameter == "delay":
        delay = check_positive("value", value)
    elif parameter == "access_delay":
        if n < 2:
            raise ParameterError(f"n must be >= 2 with parameter='access_delay' (the second "
                                 f"source's access link), got {n!r}")
        access = [_ACCESS_DELAY] * n
        access[1] = check_positive("value", value)
    return scenarios.dumbbell(
        n, _ACCESS_RATE, access, rate, delay, buffer, None, protocol, start=start,
        egress_delay=_ACCESS_DELAY, access_buffer=buffer, name="primo_fig1_top",
        description=f"Primo Fig. 1-top, {parameter or 'defaults'}"
                    f"{'' if value is None else f' = {value:g}'}")


@checked(protocols=_args.protocol_names, parameter=_args.choice(tuple(PAPER_GRIDS)),
         primo=_PRIMO_SPEC, aqm=_args.optional(_args.choice(("red",))))
def parameter_sweep(parameter, values=None, protocols=PROTOCOLS, duration=DURATION,
                    warmup=WARMUP, interval=INTERVAL, seed=0, primo=None, aqm=None):
    """The five criteria along one of §IV-B's sweeps (Figs. 2-5).

    Parameters
    ----------
    parameter : str
        "bandwidth", "queue", "delay" or "access_delay".
    values : sequence, optional
        Default :data:`QUICK_GRIDS` ``[parameter]`` (full: :data:`PAPER_GRIDS`).
    protocols : sequence of str
        Protocol strings of :func:`ctlcc.sim.run` (the paper's:
        :data:`PAPER_PROTOCOLS`).
    duration, warmup, interval : float
        Run length, warm-up, rate sampling interval. [s]
    seed : int
    primo : Primo, optional
        The Primo sender spec wherever "primo" runs (default ``Primo()``;
        ``Primo.legacy()`` for the literal §III-B/D reading).
    aqm : {None, "red"}
        R1's queue to the shared link: None, drop-tail (the paper's); "red",
        §V-B's RED with :func:`red_for_buffer`'s parameters (not printed).

    Returns
    -------
    SweepResult
    """
    _check_parameter(parameter, required=True)
    values = QUICK_GRIDS[parameter] if values is None else tuple(values)
    protocols = _check_protocols(protocols)
    out = np.zeros((len(protocols), len(values), 5))
    queue = np.zeros((len(protocols), len(values)))
    rtts = np.zeros((len(values), 2))
    for i, protocol in enumerate(protocols):
        for k, value in enumerate(values):
            sc = fig1_top(_sender(protocol, primo), parameter, value)
            buffer = sc.links[[(lk.a, lk.b) for lk in sc.links].index(sc.bottlenecks[0])].buffer
            if aqm == "red":
                sc = sc.with_queue(red_for_buffer(buffer))
            result = run(sc, duration, seed=seed, progress=False, sample_interval=interval)
            out[i, k] = _five(result, warmup, interval)
            queue[i, k] = result.queues[0].mean / buffer
            rtts[k] = [_base_rtt(sc, f.path) for f in sc.flows]
    return SweepResult(parameter, np.asarray(values, dtype=float), protocols, out, queue, rtts,
                       duration, warmup, interval, seed)


@checked(protocols=_args.protocol_names, schedules=_SCHEDULES, primo=_PRIMO_SPEC)
def many_sources(counts=(2, 5, 10), protocols=PROTOCOLS, schedules=("together", "staggered"),
                 stagger=1.0, duration=DURATION, warmup=WARMUP, interval=INTERVAL, seed=0,
                 primo=None):
    """The criteria against the number of sources on Fig. 1-top (§V-E).

    Parameters
    ----------
    counts : sequence of int
        Numbers of sources (the paper: 2 to 20).
    protocols : sequence of str
    schedules : sequence of str
        "together" and/or "staggered".
    stagger : float
        Gap between staggered starts. [s]
    duration : float
        Run length after the last start. [s]
    warmup, interval : float
        [s]
    seed : int
    primo : Primo, optional
        The Primo sender spec wherever "primo" runs (default ``Primo()``;
        ``Primo.legacy()`` for the literal §III-B/D reading).

    Returns
    -------
    ManySourcesResult
    """
    protocols = _check_protocols(protocols)
    schedules = tuple(schedules)
    for s in schedules:
        if s not in ("together", "staggered"):
            raise ParameterError(f"schedules must hold 'together' and/or 'staggered', got {s!r}")
    counts = tuple(check_positive_int("counts", c) for c in counts)
    stagger = check_positive("stagger", stagger)
    out = np.zeros((len(protocols), len(schedules), len(counts), 5))
    starved = np.zeros((len(protocols), len(schedules), len(counts)), dtype=int)
    for i, protocol in enumerate(protocols):
        for s, schedule in enumerate(schedules):
            for c, n in enumerate(counts):
                starts = [stagger * j if schedule == "staggered" else 0.0 for j in range(n)]
                sc = fig1_top(_sender(protocol, primo), n=n, start=starts)
                result = run(sc, max(starts) + duration, seed=seed, progress=False,
                             sample_interval=interval)
                crit = _criteria.primo_criteria(result, warmup, 0, interval)
                out[i, s, c] = [crit[k] for k in _criteria.CRITERIA]
                starved[i, s, c] = int(np.sum(crit.shares < 0.1 / n))
    return ManySourcesResult(np.asarray(counts), protocols, schedules, stagger, out, starved,
                             duration, warmup, interval)


@checked(sender=_PRIMO_SPEC)
def primo_collapse(n=10, stagger=0.0, duration=20.0, sample_interval=0.01, seed=0,
                   sender=None):
    """Trace n Primo flows on Fig. 1-top and find the ones that fall silent.

    The literal reading (:meth:`Primo.legacy`) follows §III-D: "the rate is halved and the TO
    period is doubled if no acknowledgment is received during a period of
    TO seconds", with TO = 2 RTT_ref re-armed at every ACK.  A flow whose
    gap between packets 1/rate exceeds TO therefore times out before its
    next ACK can come, even with nothing lost: the rate halves and TO
    doubles, so the ratio gap/TO stays above 1 and the flow backs off until
    it is silent.  This function measures, per flow, RTT_ref, the rate
    1/(2 RTT_ref) below which that happens, when the flow crossed it for
    good, how many pure halvings its rate trace shows and how many of its
    packets were lost before.

    Parameters
    ----------
    n : int
        Number of Primo sources. [1]
    stagger : float
        Gap between starts (0: all together). [s]
    duration : float
        [s]
    sample_interval : float
        Rate sampling period (short, to see single halvings). [s]
    seed : int
    sender : Primo, optional
        The Primo spec (default :meth:`Primo.legacy`, the literal reading
        whose collapse this traces; ``Primo()`` shows the fix).

    Returns
    -------
    CollapseResult
    """
    n = check_positive_int("n", n, maximum=200)
    sender = Primo.legacy() if sender is None else sender
    if not isinstance(sender, Primo):
        raise ParameterError(f"sender must be a Primo spec, got {sender!r}")
    starts = [stagger * j for j in range(n)]
    sc = fig1_top(sender, n=n, start=starts)
    result = run(sc, duration, seed=seed, progress=False, trace=True,
                 sample_interval=sample_interval)
    tr = result.traces
    rate = tr.rate
    rtt_ref = np.array([tr.rtt[tr.rtt[:, 1] == j, 2].min() if np.any(tr.rtt[:, 1] == j)
                        else np.nan for j in range(n)])
    threshold = 1.0 / (2.0 * rtt_ref)
    collapse = np.full(n, np.nan)
    drops_before = np.zeros(n, dtype=int)
    halvings = np.zeros(n, dtype=int)
    for j in range(n):
        above = np.flatnonzero((rate[:, j] >= threshold[j]) | (tr.time < starts[j] + 0.5))
        last = above[-1] if above.size else -1
        if last < rate.shape[0] - 1 and rate[-1, j] < threshold[j]:
            collapse[j] = tr.time[last + 1]
        until = collapse[j] if np.isfinite(collapse[j]) else np.inf
        drops_before[j] = int(np.sum((tr.drops[:, 1] == j) & (tr.drops[:, 0] <= until)))
        prev, cur = rate[:-1, j], rate[1:, j]
        halvings[j] = int(np.sum((prev > 0) & np.isclose(cur, prev / 2, rtol=1e-9, atol=0)))
    capacity = _RATE / sc.data_bits
    return CollapseResult(n, np.asarray(starts), tr.time, rate, rtt_ref, threshold, collapse,
                          halvings, drops_before,
                          np.array([f.delivered_unique for f in result.flows]), capacity / n,
                          result.queues[0].utilisation, duration)


@checked(readings=_args.optional(_args.choices(tuple(READINGS))), schedules=_SCHEDULES)
def startup_diagnosis(counts=(2, 5, 10, 15, 20), readings=None,
                      schedules=("together", "staggered"), stagger=1.0, duration=DURATION,
                      warmup=WARMUP, interval=INTERVAL, seed=0):
    """Primo's many-sources behaviour before and after the time-out fix (§III-B, §V-E).

    Runs N Primo flows on Fig. 1-top under each reading of
    :class:`StartupDiagnosis`, started together and staggered, and
    measures the five criteria, starved flows, time-outs and losses.

    Parameters
    ----------
    counts : sequence of int
        Numbers of flows (the paper: 2 to 20). [1]
    readings : sequence of str, optional
        Keys of :data:`READINGS` (default all, literal first).
    schedules : sequence of str
        "together" and/or "staggered".
    stagger : float
        Gap between staggered starts. [s]
    duration : float
        Run length after the last start. [s]
    warmup, interval : float
        Warm-up after the last start, rate sampling interval. [s]
    seed : int
        Seed of every run.

    Returns
    -------
    StartupDiagnosis
    """
    counts = tuple(check_positive_int("counts", c, maximum=200) for c in counts)
    readings = tuple(READINGS) if readings is None else tuple(readings)
    for r in readings:
        if r not in READINGS:
            raise ParameterError(f"readings must hold names of {', '.join(map(repr, READINGS))}; "
                                 f"got {r!r}")
    schedules = _check_schedules(schedules)
    stagger = check_positive("stagger", stagger)
    shape = (len(readings), len(schedules), len(counts))
    crit = np.zeros(shape + (5,))
    util = np.zeros(shape)
    starved, timeouts, drops = (np.zeros(shape, dtype=int) for _ in range(3))
    ratio = np.zeros(len(counts))
    for r, reading in enumerate(readings):
        for s, schedule in enumerate(schedules):
            for c, n in enumerate(counts):
                starts = [stagger * j if schedule == "staggered" else 0.0 for j in range(n)]
                sc = fig1_top(READINGS[reading](), n=n, start=starts)
                result = run(sc, max(starts) + duration, seed=seed, progress=False,
                             sample_interval=interval)
                cr = _criteria.primo_criteria(result, warmup, 0, interval)
                crit[r, s, c] = [cr[k] for k in _criteria.CRITERIA]
                util[r, s, c] = result.queues[0].utilisation
                starved[r, s, c] = int(np.sum(cr.shares < 0.1 / n))
                timeouts[r, s, c] = sum(f.timeouts for f in result.flows)
                drops[r, s, c] = sum(f.dropped for f in result.flows)
                ratio[c] = _RATE / sc.data_bits / n * 2.0 * _base_rtt(sc, sc.flows[0].path)
    return StartupDiagnosis(np.asarray(counts), readings, schedules, stagger, crit, util,
                            starved, timeouts, drops, ratio, duration, warmup, interval, seed)


@checked(protocols=_args.protocol_names, parameter=_args.choice(tuple(PAPER_GRIDS)),
         value=_args.positive)
def interval_sensitivity(parameter="delay", value=0.05, protocols=PROTOCOLS,
                         intervals=(0.01, 0.02, 0.05, 0.1, 0.5, 1.0), duration=DURATION,
                         warmup=WARMUP, seed=0):
    """Sending and reception rate stability for several sampling intervals.

    §IV-C defines stability as 1 - std/mean of the rate without saying
    over which interval the rate is measured; the answer decides whether
    a window TCP looks stable (long intervals average its bursts away).

    Parameters
    ----------
    parameter : str or None
        §IV-B parameter (see :func:`fig1_top`).
    value : float or None
        Its value (default: shared link delay 50 ms, RTT 110 ms).
    protocols : sequence of str
    intervals : sequence of float
        Multiples of the smallest one. [s]
    duration, warmup : float
        [s]
    seed : int

    Returns
    -------
    IntervalSensitivity
    """
    protocols = _check_protocols(protocols)
    intervals = tuple(check_positive("intervals", i) for i in intervals)
    base = min(intervals)
    sending = np.zeros((len(protocols), len(intervals)))
    reception = np.zeros_like(sending)
    for i, protocol in enumerate(protocols):
        result = run(fig1_top(protocol, parameter, value), duration, seed=seed, progress=False,
                     sample_interval=base)
        for k, interval in enumerate(intervals):
            crit = _criteria.primo_criteria(result, warmup, 0, interval)
            sending[i, k], reception[i, k] = crit.sending_stability, crit.reception_stability
    return IntervalSensitivity(parameter, value, protocols, np.asarray(intervals), sending,
                               reception, duration, warmup)


@checked(buffers=_args.distinct_buffers, primo=_PRIMO_SPEC, against=_args.protocol,
         orders=_args.choices(("together", "primo_first", "reno_first")))
def primo_against_reno(buffers=(10, 30, 60), orders=("together", "primo_first", "reno_first"),
                       duration=DURATION, seed=0, interval=INTERVAL, primo=None, against="reno"):
    """One Primo and one Reno flow through one drop-tail queue (§I-B, §VII-B).

    Parameters
    ----------
    buffers : sequence of int
        Router queue sizes. [packets]
    orders : sequence of str
        "together", "primo_first" or "reno_first"; the second flow starts
        :data:`WARMUP` s after the first.
    duration : float
        Run length after the second start. [s]
    seed : int
    primo : Primo, optional
        The Primo sender spec wherever "primo" runs (default ``Primo()``;
        ``Primo.legacy()`` for the literal §III-B/D reading).
    against : str
        The corrective protocol sharing the queue ("reno"; "sack" once the
        engine registers it).
    interval : float
        Sampling period. [s]

    Returns
    -------
    MixedResult
    """
    valid = ("together", "primo_first", "reno_first")
    _check_protocols(against)
    for order in orders:
        if order not in valid:
            raise ParameterError(f"orders must hold values of {valid}, got {order!r}")
    orders = tuple(orders)
    shape = (len(buffers), len(orders))
    share, util, qmin, qmean, excess, prate = (np.zeros(shape) for _ in range(6))
    reno_loss, primo_loss, primo_to = (np.zeros(shape, dtype=int) for _ in range(3))
    rtt_ratio = np.zeros(shape)
    base = None
    for b, buffer in enumerate(buffers):
        for o, order in enumerate(orders):
            starts = {"together": (0.0, 0.0), "primo_first": (0.0, WARMUP),
                      "reno_first": (WARMUP, 0.0)}[order]
            sc = fig1_top((_sender("primo", primo), against), "queue", buffer,
                          start=list(starts))
            result = run(sc, max(starts) + duration, seed=seed, progress=False, trace=True,
                         sample_interval=interval)
            tr = result.traces
            base = _base_rtt(sc, sc.flows[0].path)
            both = tr.time >= max(starts) + WARMUP
            got = tr.delivered[both][-1] - tr.delivered[both][0]
            share[b, o] = got[0] / got.sum()
            util[b, o] = result.queues[0].utilisation
            qmin[b, o] = tr.queue[both, 0].min()
            qmean[b, o] = tr.queue[both, 0].mean()
            mine = tr.rtt[:, 1] == 0
            rtt_ref = tr.rtt[mine, 2].min()
            excess[b, o] = rtt_ref - base
            late = mine & (tr.rtt[:, 0] >= max(starts) + WARMUP)
            rtt_ratio[b, o] = (float(np.median(tr.rtt[late, 2])) / (2.0 * rtt_ref)
                               if late.any() else np.nan)
            primo_to[b, o] = result.flows[0].timeouts
            prate[b, o] = np.mean(tr.rate[both, 0]) / (_RATE / sc.data_bits)
            primo_loss[b, o], reno_loss[b, o] = (result.flows[0].dropped,
                                                 result.flows[1].dropped)
    return MixedResult(np.asarray(buffers), orders, share, util, qmin, qmean, excess, base,
                       prate, reno_loss, primo_loss, primo_to, rtt_ratio, against, duration)


@checked(protocols=_args.protocol_names, primo=_PRIMO_SPEC,
         schedule=_args.choice(("together", "staggered")))
def multi_congestion(protocols=PROTOCOLS, schedule="together", stagger=5.0, duration=30.0,
                     bin_width=0.5, seed=0, interval=INTERVAL, primo=None):
    """Sending rates of the five flows of Fig. 1-bottom (§VI, Figs. 6-7).

    Parameters
    ----------
    protocols : sequence of str
    schedule : str
        "together" (Fig. 6) or "staggered" (Fig. 7).
    stagger : float
        Gap between the three groups' starts. [s]
    duration : float
        [s]
    bin_width : float
        Width of the sending-rate bins. [s]
    seed : int
    primo : Primo, optional
        The Primo sender spec wherever "primo" runs (default ``Primo()``;
        ``Primo.legacy()`` for the literal §III-B/D reading).
    interval : float
        Sampling period. [s]

    Returns
    -------
    MultiCongestionResult
    """
    if schedule not in ("together", "staggered"):
        raise ParameterError(f"schedule must be 'together' or 'staggered', got {schedule!r}")
    protocols = _check_protocols(protocols)
    starts = np.zeros(5) if schedule == "together" else np.array(
        [0.0, 0.0, stagger, stagger, 2 * stagger])
    stride = int(round(bin_width / interval))
    rates, shares, queues, crit, timeouts = [], [], [], [], []
    hops = None
    for protocol in protocols:
        sc = scenarios.preset("primo_fig1_bottom", protocol=_sender(protocol, primo))
        sc = replace(sc, flows=tuple(replace(f, start=float(s))
                                     for f, s in zip(sc.flows, starts)))
        result = run(sc, duration, seed=seed, progress=False, sample_interval=interval)
        s = result.samples
        idx = np.arange(0, s.time.size, stride)
        rates.append(np.diff(s.sent[idx], axis=0) / np.diff(s.time[idx])[:, None])
        half = s.time >= duration / 2
        got = (s.delivered[half][-1] - s.delivered[half][0]) / (s.time[half][-1] - s.time[half][0])
        capacity = sc.links[0].rate / sc.data_bits
        shares.append(got / capacity)
        queues.append([q.mean for q in result.queues])
        c = _criteria.primo_criteria(result, WARMUP, 0, interval)
        crit.append([c[k] for k in _criteria.CRITERIA])
        timeouts.append([f.timeouts for f in result.flows])
        hops = np.array([len(f.path) - 3 for f in sc.flows])
        bin_time = s.time[idx][1:]
    return MultiCongestionResult(protocols, schedule, starts, ("a", "b", "c", "d", "e"), hops,
                                 bin_time, np.array(rates), np.array(shares), np.array(queues),
                                 np.array(crit), np.array(timeouts), capacity, duration)


@checked(factor=_args.open_unit)
def interleaved_share(factor):
    """Share of a rate-matching flow whose reception rate is read per packet.

    A flow that sets its rate to ``factor`` times its receiver's
    instantaneous rate 1/gap, its packets interleaved at random with a
    greedy competitor's in one FIFO (a packet of it in each service slot
    with probability s), sees gaps of k slots with k geometric, so the
    mean reception rate it reads is C E[1/k] = C (-s ln s)/(1 - s), above
    its share s C (Jensen).  Its rate is at equilibrium where
    s = factor E[1/k] (s), i.e. 1 - s = -factor ln s, with a root in
    (0, 1) for factor < 1.

    Parameters
    ----------
    factor : float
        F of the regime (Primo's strong regime: F_str = 0.95), in (0, 1). [1]

    Returns
    -------
    float
        The equilibrium share s. [1]

    Examples
    --------
    >>> round(interleaved_share(0.95), 3)
    0.902
    """
    from scipy.optimize import brentq

    if not 0.0 < factor < 1.0:
        raise ParameterError(f"factor must be in (0, 1), got {factor!r}")
    # the other root, s = 1, is excluded: 1 - s + factor ln s > 0 just below 1 for factor < 1
    return float(brentq(lambda s: 1.0 - s + factor * np.log1p(s - 1.0), 1e-12, 1.0 - 1e-9))


@checked()
def run_all(quick=True):
    """Every experiment of this module (quick: reduced grids and short runs).

    Returns
    -------
    dict
        name -> result.
    """
    duration = DURATION if quick else DURATION_FULL
    grids = QUICK_GRIDS if quick else PAPER_GRIDS
    out = {f"sweep_{p}": parameter_sweep(p, grids[p], duration=duration) for p in grids}
    out["many_sources"] = many_sources((2, 10, 20) if quick else (2, 5, 10, 15, 20),
                                       duration=duration)
    out["collapse_together"] = primo_collapse(10, 0.0, 10.0 if quick else 40.0)
    out["collapse_two"] = primo_collapse(2, 0.0, 10.0 if quick else 40.0)
    out["intervals"] = interval_sensitivity(duration=duration)
    out["startup"] = startup_diagnosis((2, 5, 10, 15, 20) if quick else tuple(range(2, 21, 2)),
                                       duration=duration)
    buffers = (10, 30, 60) if quick else (10, 30, 60, 100)
    out["mixed"] = primo_against_reno(buffers, duration=duration)
    out["mixed_literal"] = primo_against_reno(buffers, duration=duration,
                                              primo=Primo.legacy())
    out["multi_together"] = multi_congestion(duration=20.0 if quick else 60.0)
    out["multi_staggered"] = multi_congestion(schedule="staggered",
                                              duration=20.0 if quick else 60.0)
    for schedule in ("together", "staggered"):
        out[f"multi_{schedule}_mean_gap"] = multi_congestion(
            ("primo",), schedule, duration=20.0 if quick else 60.0,
            primo=Primo(reception_rate="mean_gap"))
    return out


@checked()
def claims(results=None, quick=True):
    """The paper's claims of §I, §V and §VI, judged on the runs.

    The records are declared in ``data/ledger_primo.csv``; the measurements
    are the units of :mod:`ctlcc.claims.primo_sim`.

    Parameters
    ----------
    results : dict, optional
        Output of :func:`run_all` (run here when None), or a subset of its keys.
    quick : bool
        Settings of :func:`run_all` when it is called here.

    Returns
    -------
    list of Claim
    """
    from ..claims import paper_claims

    res = run_all(quick) if results is None else results
    return paper_claims("primo", res, section="primo_sim")


# --- private helpers ---------------------------------------------------------------------

def _startup_note(diag):
    """'; the literal reading: ...' from the start-up diagnosis, if any."""
    if diag is None or "literal" not in diag.readings:
        return ""
    parts = []
    for reading in diag.readings:
        for schedule in diag.schedules:
            occ = diag.value(reading, schedule, "occupancy")
            fair = diag.value(reading, schedule, "fairness")
            parts.append(f"{reading}/{schedule}: occupancy {np.round(occ, 0).tolist()} %, "
                         f"fairness {np.round(fair, 0).tolist()} %")
    return (f". Readings of §III-B/D for N = {diag.counts.tolist()} (startup_diagnosis): "
            + "; ".join(parts))


def _timeout_flows():
    """Flows N above which Fig. 1-top's fair share C/N is below 1/(2 RTT_0). [1]"""
    sc = fig1_top("primo")
    return _RATE / sc.data_bits * 2.0 * _base_rtt(sc, sc.flows[0].path)


def _five(result, warmup, interval):
    crit = _criteria.primo_criteria(result, warmup, 0, interval)
    return [crit[k] for k in _criteria.CRITERIA]


def _base_rtt(scenario, path):
    """Round trip of one data packet and its ACK through empty queues. [s]"""
    links = {(lk.a, lk.b): lk for lk in scenario.links}
    links.update({(lk.b, lk.a): lk for lk in scenario.links})
    total = 0.0
    for a, b in zip(path[:-1], path[1:]):
        lk = links[(a, b)]
        total += 2 * lk.delay + scenario.data_bits / lk.rate + 8 * scenario.ack_bytes / lk.rate
    return total


def _check_parameter(parameter, required=False):
    if parameter is None and not required:
        return
    if parameter not in PAPER_GRIDS:
        raise ParameterError(f"parameter must be one of {', '.join(map(repr, PAPER_GRIDS))}; "
                             f"got {parameter!r}")


def _sender(protocol, primo):
    """The sender of a protocol name: *primo* (a Primo spec) stands for "primo"."""
    if primo is None or protocol != "primo":
        return protocol
    if not isinstance(primo, Primo):
        raise ParameterError(f"primo must be a Primo sender spec (e.g. Primo.legacy()), "
                             f"got {primo!r}")
    return primo


def _check_schedules(schedules):
    schedules = (schedules,) if isinstance(schedules, str) else tuple(schedules)
    for s in schedules:
        if s not in ("together", "staggered"):
            raise ParameterError(f"schedules must hold 'together' and/or 'staggered', got {s!r}")
    return schedules


def _check_protocols(protocols):
    protocols = (protocols,) if isinstance(protocols, str) else tuple(protocols)
    for p in protocols:
        if p not in scenarios.PROTOCOLS:
            raise ParameterError(
                f"protocols must hold names of {', '.join(map(repr, scenarios.PROTOCOLS))}; "
                f"got {p!r}")
    return protocols
