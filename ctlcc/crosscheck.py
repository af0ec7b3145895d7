# ctlcc.crosscheck - analytic prediction vs simulated measurement, one function per claim
"""Cross-checks: each analytic claim of the package against the packet simulator.

Every public function states one claim, computes its prediction from
:mod:`ctlcc.bounds` or :mod:`ctlcc.analysis` (never from the simulator),
measures the same quantity with :func:`ctlcc.sim.run` over several seeds
and returns a :class:`CrossCheck`: predicted and measured values side by
side, the spread over seeds, the tolerance with the reason for it, and the
verdict.  A claim that fails is a finding, not a tolerance to widen: the
tolerances below are fixed from the models' known approximations before
looking at the measurements, and each says where it comes from.

Claims checked (function, source):

* :func:`reno_square_root_law` - Reno/NewReno rate vs the square-root law
  (Mathis et al. 1997; Ait-Hellal, Yamamoto & Leduc (1999), eq. (1)) under Bernoulli loss;
* :func:`reno_pftk` - the same runs vs the PFTK full model (Padhye et al.
  1998, eq. (31)), timeouts included;
* :func:`reno_sawtooth_utilisation` - a lossless single Reno flow: link
  utilisation predicted by the deterministic sawtooth (full iff the buffer
  holds the BDP), and the drop-tail queue filling exactly to its buffer;
* :func:`stpd_decay` - ST-PD's window transient against the per-RTT loop
  (``stpd_loop(..., model="per_rtt")``) and the thesis's per-slot loop,
  at the BDPs of the thesis's scenarios;
* :func:`stpd_throughput_under_loss` - thesis eq. (4.19) vs simulated
  utilisation for packet-error probabilities below 1e-2 (thesis §4.3.3);
* :func:`primo_limit_cycle` - Primo's predicted mean queue and rate on one
  bottleneck (``primo_loop(...).limit_cycle()``);
* :func:`primo_heterogeneous_fairness` - the paper's 98 % fairness vs the
  two-flow shared loop's starvation of the short-RTT flow, on packets;
* :func:`fluid_reno_rate` - the fluid Reno model (:mod:`ctlcc.sim.fluid`)
  vs packet Reno on a dumbbell under random loss;
* :func:`sack_vs_ns3` - the ``"sack"`` sender (RFC 6675) vs ns-3's SACK
  TCP on the committed ns-3 runs (``data/ns3_*.csv``): goodput and
  retransmissions.

:func:`run_all` runs every claim with its fast defaults (the ``ctlcc
report`` section ``crosscheck``).
"""

import math
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from ._validation import (check_choice, check_interval, check_nonnegative,
                          check_nonnegative_int, check_positive_int, check_sequence)
from .analysis import primo_loop, primo_shared_loop, stpd_loop
from .bounds import mathis_rate, pftk_rate
from .errors import ParameterError
from .laws.stpd_fuzzy import CALIBRATIONS
from .sim import run, scenarios

__all__ = [
    "CrossCheck",
    "reno_square_root_law",
    "reno_pftk",
    "reno_sawtooth_utilisation",
    "stpd_decay",
    "stpd_throughput_under_loss",
    "primo_limit_cycle",
    "primo_heterogeneous_fairness",
    "fluid_reno_rate",
    "sack_vs_ns3",
    "run_all",
]

#: Default seeds of the random-loss runs (three: enough for a spread).
DEFAULT_SEEDS = (0, 1, 2)

#: Longest simulated run a cross-check accepts. [s]  An hour of simulated
#: time is far beyond every claim here (the defaults run 20-60 s); the cap
#: turns a typo such as ``duration=1e308`` into an error instead of a hang.
MAX_DURATION = 3600.0

#: Most points or seeds a cross-check accepts (each is one or more runs).
MAX_POINTS = 1000


@dataclass(frozen=True)
class CrossCheck:
    """One claim: prediction, measurement over seeds, tolerance, verdict.

    Attributes
    ----------
    name : str
        Short identifier (the function that made it).
    claim : str
        The claim in one sentence.
    source : str
        Paper and equation the prediction comes from.
    quantity : str
        What is compared, with its unit.
    labels : tuple of str
        One label per compared point (e.g. ``"p=0.01"``).
    predicted : ndarray
        Analytic prediction per point. [unit of *quantity*]
    measured : ndarray
        Mean over seeds of the simulated value per point. [same]
    spread : ndarray
        Standard deviation over seeds per point (0 for deterministic runs). [same]
    tolerance : ndarray
        Largest accepted ``|measured - predicted|`` per point. [same]
    tolerance_reason : str
        Why the tolerance is that wide (which approximation it covers).
    within : ndarray of bool
        Per point: ``|measured - predicted| <= tolerance``.
    passed : bool
        Every point within its tolerance.
    parameters : dict
        Everything that made the check (scenario, duration, seeds, ...).
    note : str
        What the verdict means (where models part, findings).
    """

    name: str
    claim: str
    source: str
    quantity: str
    labels: tuple
    predicted: np.ndarray
    measured: np.ndarray
    spread: np.ndarray
    tolerance: np.ndarray
    tolerance_reason: str
    within: np.ndarray
    passed: bool
    parameters: dict = field(default_factory=dict)
    note: str = ""

    @property
    def error(self):
        """``measured - predicted`` per point. [unit of *quantity*]"""
        return self.measured - self.predicted

    @property
    def relative_error(self):
        """``(measured - predicted) / |predicted|`` per point (NaN at 0). [1]"""
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(self.predicted != 0, self.error / np.abs(self.predicted), np.nan)

    def rows(self):
        """Table rows: (claim, point, predicted, measured ± spread, tolerance, verdict)."""
        out = []
        for i, label in enumerate(self.labels):
            out.append((self.name, label, _fmt(self.predicted[i]),
                        f"{_fmt(self.measured[i])} ± {_fmt(self.spread[i])}",
                        _fmt(self.tolerance[i]), "pass" if self.within[i] else "FAIL"))
        return out


# --- claim 1: Reno under Bernoulli loss -------------------------------------------------

def reno_square_root_law(probabilities=(1e-3, 3e-3, 1e-2), protocol="newreno", duration=60.0,
                         seeds=DEFAULT_SEEDS, preset="thesis_fig4_7"):
    """Reno's send rate vs the square-root law under Bernoulli loss.

    Prediction: ``min(sqrt(3/2) / (RTT sqrt(p)), C)`` packets/s (Mathis et
    al.'s periodic-loss sawtooth, one ACK per packet as in the simulator,
    C the bottleneck in packets/s), with p the link's packet-error
    probability and RTT the run's mean RTT sample (the law's "average
    round-trip time" is an input of the law, not its output).

    Tolerance: 25 % of the prediction.  The constant alone moves by 7 %
    between periodic (1.22) and random (1.31, Mathis et al. 1997) losses;
    the law counts loss *events* (one per window) where we give the
    packet-loss probability p (more than one loss per window at p W > 1
    lowers the event rate); the law ignores fast-recovery rounds and
    timeouts (valid for small p only); and the rate over a 60 s run with
    about 100 loss events has a seed spread near 10 %.

    Parameters
    ----------
    probabilities : sequence of float
        Packet-error probabilities of the wireless link, in (0, 1). [1]
    protocol : {"reno", "newreno"}
        Simulated sender.
    duration : float
        Simulated time per run, > 0. [s]
    seeds : sequence of int
        One run per seed.
    preset : str
        Scenario (:func:`ctlcc.sim.scenarios.preset`); default the thesis's
        Fig. 4.7 path (1.5 Mb/s, 80 ms, 30-packet buffer).

    Returns
    -------
    CrossCheck
        ``quantity``: send rate [packets/s].

    References
    ----------
    M. Mathis, J. Semke, J. Mahdavi, T. Ott, "The macroscopic behavior of the
    TCP congestion avoidance algorithm", CCR 27(3), 1997; Ait-Hellal, Yamamoto & Leduc (1999)
    §2 eq. (1); Xu (2002), §4.4.1, Fig. 4.7.

    Examples
    --------
    >>> check = reno_square_root_law(probabilities=(1e-2,), duration=30.0, seeds=(0,))
    >>> check.labels, bool(check.passed)
    (('p=0.01',), True)
    """
    runs = _reno_runs(probabilities, protocol, duration, seeds, preset)
    capacity = runs["capacity"]
    predicted = np.array([min(float(mathis_rate(p, rtt, C="floyd")), capacity)
                          for p, rtt in zip(runs["p"], runs["rtt"])])
    return _verdict(
        name="reno_square_root_law",
        claim=f"{protocol} send rate follows C/(RTT sqrt(p)) with C = sqrt(3/2) (capped at "
              "the bottleneck rate)",
        source="Mathis et al. 1997; Ait-Hellal, Yamamoto & Leduc (1999), eq. (1)",
        quantity="send rate [packets/s]",
        labels=tuple(f"p={p:g}" for p in runs["p"]),
        predicted=predicted, samples=runs["rate"], tolerance=0.25 * predicted,
        tolerance_reason="25 %: C moves 7 % between periodic and random loss; loss events vs "
                         "packet losses; no timeouts in the law; ~10 % seed spread",
        parameters=runs["parameters"],
        note="measured / predicted: " + ", ".join(
            f"{m / q:.2f}" for m, q in zip(runs["rate"].mean(axis=1), predicted)))


def reno_pftk(probabilities=(1e-3, 3e-3, 1e-2, 3e-2, 1e-1), protocol="newreno", duration=60.0,
              seeds=DEFAULT_SEEDS, preset="thesis_fig4_7"):
    """Reno's send rate vs the PFTK full model (timeouts included).

    Prediction: :func:`ctlcc.bounds.pftk_rate` (PFTK'98 eq. (31)) with b = 1
    (one ACK per packet), the run's mean RTT, T0 = the scenario's minimum
    RTO (1 s: the RFC 6298 RTO srtt + 4 rttvar is below it on these
    paths) and Wmax = the largest window the path holds without overflow,
    BDP + buffer + 1; capped at the bottleneck rate.

    Tolerance: 30 % of the prediction.  PFTK's own validation (their
    Fig. 7-12 traces) shows the full model within roughly 30 % of measured
    Reno; it assumes losses correlated within a round (our Bernoulli
    losses are not), counts a loss indication per round, and its
    timeout branch uses Q-hat, an approximation of the chance that a loss
    ends in a timeout; plus about 10 % seed spread.

    Parameters
    ----------
    probabilities, protocol, duration, seeds, preset
        As :func:`reno_square_root_law`.

    Returns
    -------
    CrossCheck
        ``quantity``: send rate [packets/s].

    References
    ----------
    J. Padhye, V. Firoiu, D. Towsley, J. Kurose, "Modeling TCP throughput: a
    simple model and its empirical validation", SIGCOMM 1998, eq. (31).
    """
    runs = _reno_runs(probabilities, protocol, duration, seeds, preset)
    capacity = runs["capacity"]
    predicted = np.array([min(float(pftk_rate(p, rtt, runs["rto"], wmax=runs["wmax"])), capacity)
                          for p, rtt in zip(runs["p"], runs["rtt"])])
    return _verdict(
        name="reno_pftk",
        claim=f"{protocol} send rate follows the PFTK full model (timeouts, window limit)",
        source="Padhye et al. 1998 eq. (31)",
        quantity="send rate [packets/s]",
        labels=tuple(f"p={p:g}" for p in runs["p"]),
        predicted=predicted, samples=runs["rate"], tolerance=0.30 * predicted,
        tolerance_reason="30 %: PFTK's own validation spread; Bernoulli (not round-correlated) "
                         "losses; Q-hat timeout approximation; ~10 % seed spread",
        parameters=runs["parameters"])


# --- claim 4: lossless single flow ----------------------------------------------------------

def reno_sawtooth_utilisation(presets=("thesis_fig3_7_sufficient", "thesis_fig3_7_insufficient"),
                              protocol="reno", duration=60.0, warmup=10.0):
    """Utilisation of a lossless bottleneck by one Reno flow, and its queue bound.

    Prediction (deterministic sawtooth, derived here): with P the BDP
    [packets] and Wmax = P + B + 1 (B waiting places plus the packet in
    service), each overflow halves the window to Wmax/2.  If Wmax/2 >= P the
    link never idles (utilisation 1).  Otherwise the window climbs one
    packet per round from Wmax/2 to P with an idle link, sending
    ``sum w`` packets in ``P - Wmax/2`` rounds of RTT_min, then from P to
    Wmax with the link busy, ``sum w / P`` rounds of RTT_min::

        U = (N1 + N2) / (P (T1 + T2)),  T1 = P - W0,  N1 = (W0 + P) T1 / 2,
        T2 = (P + Wmax) (Wmax - P) / (2 P),  N2 = P T2,  W0 = Wmax / 2.

    The drop-tail queue never holds more than B waiting packets and Reno
    fills it: the measured maximum equals B exactly.

    Tolerance: 0.03 on the utilisation.  The sawtooth ignores the fast-
    recovery round (window inflation keeps a few packets flowing), the
    integer window and the overflow of more than one packet at the peak
    (a burst of two or three losses at the top of each cycle); the queue
    maximum is compared exactly (a hard bound of the FIFO).

    Parameters
    ----------
    presets : sequence of str
        Lossless single-bottleneck scenarios.
    protocol : str
        Window sender (Reno's halving is the model).
    duration, warmup : float
        Run length and the start-up excluded from the utilisation. [s]

    Returns
    -------
    CrossCheck
        ``quantity``: bottleneck utilisation after the warm-up [1]; the
        queue maxima are in ``parameters["queue_max"]`` and ``note``.
    """
    presets = check_sequence("presets", presets, _check_preset, max_length=MAX_POINTS)
    protocol = check_choice("protocol", protocol, _RENO_PROTOCOLS)
    duration = _check_duration(duration)
    warmup = _check_warmup(warmup, duration)
    predicted, measured, queue_max, buffers, labels = [], [], [], [], []
    for name in presets:
        scenario = scenarios.preset(name, protocol=protocol)
        bdp = _path_rtt(scenario) * _capacity(scenario)
        buffer = _bottleneck_link(scenario).buffer
        predicted.append(_sawtooth_utilisation(bdp, buffer + 1.0 + bdp))
        result = run(scenario, duration, trace=True, sample_interval=0.01)
        measured.append(_busy_fraction(result, scenario, warmup))
        queue_max.append(result.queues[0].max)
        buffers.append(buffer)
        labels.append(f"{name} (BDP {bdp:.1f}, B {buffer})")
    predicted, measured = np.array(predicted), np.array(measured)
    bound_ok = [q == b for q, b in zip(queue_max, buffers)]
    check = _verdict(
        name="reno_sawtooth_utilisation",
        claim="one lossless Reno flow fills the link iff the buffer holds the BDP, else the "
              "sawtooth utilisation; the drop-tail queue peaks at exactly its buffer",
        source="deterministic AIMD sawtooth (derived in the docstring); RFC 5681",
        quantity="bottleneck utilisation after warm-up [1]",
        labels=tuple(labels), predicted=predicted, samples=measured[:, None],
        tolerance=np.full(len(predicted), 0.03),
        tolerance_reason="0.03: fast-recovery round, integer window, multi-packet overflow "
                         "at the peak",
        parameters={"presets": tuple(presets), "protocol": protocol, "duration": duration,
                    "warmup": warmup, "queue_max": tuple(queue_max), "buffer": tuple(buffers)},
        note="queue max = buffer: " + ", ".join(
            f"{q}/{b}" for q, b in zip(queue_max, buffers)))
    if not all(bound_ok):
        return _replace_verdict(check, False, check.note + " (bound violated)")
    return check


# --- claim 2: ST-PD -----------------------------------------------------------------------------

def stpd_decay(presets=("thesis_fig3_7_sufficient", "thesis_fig4_7"), gains=CALIBRATIONS["poles"],
               model="per_rtt", duration=40.0, excess=10):
    """ST-PD's window transient: per-round-trip decay factor, model vs packets.

    The flow starts with ``BDP + excess`` packets on a buffer large enough
    for the first burst (100 packets), no random loss, fixed gains.  The
    window's distance to its final value decays geometrically; we fit the
    factor per round trip, counting round trips on the sender's own clock
    (each round sends one window: ``k(t) = sum(delta sent / cwnd)``), over
    the part of the transient where the window is above its final value
    (queue non-empty: the linear region of both models) and its distance
    lies between 1.5 packets and 80 % of its initial value.  The excess is
    kept small (10 packets) because the first round's burst queues most of
    the initial window at once and the estimate (3.3) then kicks the
    window down; with 20 packets on the 31-packet path it falls below the
    BDP, where the queue is empty and neither linear model applies (the
    fit then returns NaN).

    Prediction: the loop's spectral radius per round trip:
    ``stpd_loop(kp, kd, m, model="per_rtt").spectral_radius()`` or, for
    ``model="per_slot"`` (the thesis's eqs. 4.1-4.11 with m = BDP slots),
    its per-slot radius to the power m (one round trip is m slots).  A
    radius above 1 predicts growing oscillation.

    Tolerance: 0.01 on the factor per round trip (for the thesis's gains,
    r = 0.976, i.e. a time constant of 41 +- 17 round trips).  The fit
    spans about two time constants of an integer-valued queue; the
    estimate (3.3)-(3.4) averages S(n) over a round trip that is not
    exactly the model's one-round delay.

    Parameters
    ----------
    presets : sequence of str
        Scenarios whose BDPs are checked (the thesis's 9 and 31 packets).
    gains : (float, float)
        (kp, kd); the default pair reproduces the thesis's printed poles.
    model : {"per_rtt", "per_slot"}
        Which loop model supplies the prediction.
    duration : float
        Run length. [s]
    excess : int
        Initial window above the BDP. [packets]

    Returns
    -------
    CrossCheck
        ``quantity``: decay factor of the window per round trip [1];
        ``parameters["curves"]`` holds, per scenario, (round trips,
        ``|window - final|`` [packets], mask of the fitted samples, fitted
        intercept of the log-distance) for plotting.

    References
    ----------
    Xu (2002), eqs. (3.3)-(3.5), (4.1)-(4.11), §4.3.3.
    """
    presets = check_sequence("presets", presets, _check_preset, max_length=MAX_POINTS)
    kp, kd = _check_gains(gains)
    model = check_choice("model", model, ("per_rtt", "per_slot"))
    duration = _check_duration(duration)
    excess = check_nonnegative_int("excess", excess, maximum=_MAX_EXCESS)
    predicted, measured, labels, bdps, curves = [], [], [], [], []
    for name in presets:
        probe = scenarios.preset(name, protocol="stpd", buffer=100)
        bdp = _path_rtt(probe) * _capacity(probe)
        m = max(1, int(round(bdp)))
        initial = scenarios.TcpOptions(initial_window=m + int(excess),
                                       max_window=max(probe.tcp.max_window, m + int(excess)))
        scenario = scenarios.preset(name, protocol="stpd", buffer=100,
                                    tcp=initial).with_flows(sender=_stpd_fixed(kp, kd))
        result = run(scenario, duration, trace=True, sample_interval=0.01)
        measured.append(_fit_decay(result.traces, curves))
        loop = stpd_loop(kp, kd, m, model=model)
        radius = loop.spectral_radius()
        predicted.append(radius if model == "per_rtt" else radius ** m)
        labels.append(f"{name} (m={m})")
        bdps.append(m)
    predicted = np.array(predicted)
    return _verdict(
        name=f"stpd_decay_{model}",
        claim=f"ST-PD's window transient decays per round trip as the {model} loop predicts "
              f"(kp={kp}, kd={kd})",
        source="Xu (2002), eqs. (3.3)-(3.5), (4.1)-(4.11)",
        quantity="window decay factor per round trip [1]",
        labels=tuple(labels), predicted=predicted, samples=np.array(measured)[:, None],
        tolerance=np.full(len(predicted), 0.01),
        tolerance_reason="0.01 (time constant +-40 %): fit over ~2 time constants of an "
                         "integer queue; S(n) averaged over a round trip",
        parameters={"presets": tuple(presets), "gains": (kp, kd), "model": model,
                    "duration": duration, "excess": excess, "m": tuple(bdps), "buffer": 100,
                    "curves": tuple(curves)},
        note="per_slot radius^m > 1 predicts a growing oscillation; packets settle"
        if model == "per_slot" else "")


def stpd_throughput_under_loss(probabilities=(1e-4, 1e-3, 3e-3, 6e-3), gains=CALIBRATIONS["poles"],
                               m=3, duration=60.0, seeds=DEFAULT_SEEDS):
    """Thesis eq. (4.19) vs simulated normalised throughput below 1e-2.

    Prediction: ``stpd_loop(kp, kd, m).throughput_under_loss(p)`` (periodic
    reading), the per-slot loop being stable only for small m (m = 3 with
    the thesis's gains).  Measurement: the bottleneck's busy fraction
    (departures per slot, what eq. (4.19) sums) on a 1.5 Mb/s link whose
    round trip is m packet times (1000-byte packets on the wire as in the
    thesis's ns-2 runs), Bernoulli loss p after the queue, the
    first 10 s excluded (ST-PD's fixed gains open the window slowly).

    Tolerance: 0.03 (absolute, normalised throughput).  The thesis claims
    agreement for p < 1e-2 without a number; eq. (4.19) models a loss as a
    one-round-trip dip of the measured occupancy and ignores timeouts
    (a lost retransmission), which cost a 1 s minimum RTO.

    Parameters
    ----------
    probabilities : sequence of float
        Packet-error probabilities, in (0, 1). [1]
    gains : (float, float)
        (kp, kd).
    m : int
        Round trip in bottleneck slots (sets the bottleneck delay). [slots]
    duration : float
        Run length. [s]
    seeds : sequence of int

    Returns
    -------
    CrossCheck
        ``quantity``: normalised throughput [1].

    References
    ----------
    Xu (2002), eq. (4.19), §4.3.3, Fig. 4.6.
    """
    probabilities = _check_probabilities(probabilities)
    kp, kd = _check_gains(gains)
    m = check_positive_int("m", m, maximum=_MAX_SLOTS)
    duration = _check_duration(duration)
    seeds = _check_seeds(seeds)
    if duration <= 10.0:
        raise ParameterError(
            f"duration must exceed the 10 s warm-up of this check; got {duration:g}")
    loop = stpd_loop(kp, kd, m)
    packet_time = 8000.0 / 1.5e6
    # round trip = 2 (0.2 ms + delay) + data on both hops + ACK on both hops
    fixed = 2 * 0.2e-3 + 8000 / 10e6 + packet_time + 8 * 54 * (1 / 10e6 + 1 / 1.5e6)
    delay = (m * packet_time - fixed) / 2.0
    if delay <= 0:
        raise ParameterError(f"m must be >= 2 on a 1.5 Mb/s link (serialisation alone is "
                             f"{fixed / packet_time:.2f} slots); got {m}")
    predicted, samples, timeouts = [], [], []
    for p in probabilities:
        predicted.append(float(loop.throughput_under_loss(p)))
        row, row_timeouts = [], []
        for seed in seeds:
            scenario = scenarios.single_bottleneck(
                bottleneck_delay=delay, buffer=30, loss=p, protocol="stpd",
                header_bytes=0, name="stpd_m_slots").with_flows(sender=_stpd_fixed(kp, kd))
            result = run(scenario, duration, seed=seed, trace=True, sample_interval=0.01)
            row.append(_busy_fraction(result, scenario, 10.0))
            row_timeouts.append(result.flows[0].timeouts)
        samples.append(row)
        timeouts.append(float(np.mean(row_timeouts)))
    predicted = np.array(predicted)
    return _verdict(
        name="stpd_throughput_under_loss",
        claim="eq. (4.19)'s normalised throughput matches simulation for p < 1e-2",
        source="Xu (2002), eq. (4.19), §4.3.3",
        quantity="normalised throughput [1]",
        labels=tuple(f"p={p:g}" for p in probabilities),
        predicted=predicted, samples=np.array(samples),
        tolerance=np.full(len(predicted), 0.03),
        tolerance_reason="0.03: the thesis gives no number; loss modelled as a one-RTT "
                         "occupancy dip, no timeouts",
        parameters={"gains": (kp, kd), "m": m, "bottleneck_delay": delay,
                    "duration": duration, "seeds": tuple(seeds), "warmup": 10.0,
                    "timeouts": tuple(timeouts)},
        note="mean timeouts per run: " + ", ".join(f"{t:.1f}" for t in timeouts))


# --- claim 3: Primo -----------------------------------------------------------------------

def primo_limit_cycle(bottleneck_rates=(1e6, 2e6, 8e6), duration=20.0, warmup=5.0):
    """Primo on one bottleneck: predicted mean queue, rate and period vs packets.

    Scenario: Primo's Fig. 1-top dumbbell with one flow, the shared link's
    rate varied as in the paper's §V-A sweep (below the 10 Mb/s access
    links, which would otherwise become the bottleneck).  Prediction:
    ``primo_loop(capacity=C, round_trip_time=RTT_min).limit_cycle()`` with
    C and RTT_min computed from the scenario's links (propagation plus
    serialisation of a data packet and its ACK).

    Tolerances: mean rate 2 % of C (the law's fixed point drives the rate
    to C; the packet sender adds no loss here); mean queue 0.5 packet (the
    model's queue is a real number, the simulator's an integer count of
    waiting packets whose arrivals are paced one by one, which adds up to
    half a packet on average); period of the sending rate (mean time
    between upward crossings of its mean) 15 %: the period is set by the
    feedback delay, and one packet of queueing (4.2 ms at 2 Mb/s) moves the
    30 ms round trip by 14 %.  The queue's swing is lost in the packet
    queue's integer steps and is only reported in ``note``.

    Parameters
    ----------
    bottleneck_rates : sequence of float
        Shared link rates, each below the 10 Mb/s access rate. [bit/s]
    duration, warmup : float
        Run length and start-up excluded. [s]

    Returns
    -------
    CrossCheck
        Three points per rate: mean queue [packets], mean rate / C [1],
        period [s].

    References
    ----------
    Chatté, Ducourthial & Niculescu (2006), Algorithm 1, §III-E, §V-A.
    """
    bottleneck_rates = check_sequence(
        "bottleneck_rates", bottleneck_rates,
        lambda name, x: check_interval(name, x, 0.0, 10e6, scalar=True), max_length=MAX_POINTS)
    duration = _check_duration(duration)
    warmup = _check_warmup(warmup, duration)
    predicted, measured, tolerance, labels, notes = [], [], [], [], []
    for bottleneck_rate in bottleneck_rates:
        scenario = _with_bottleneck_rate(scenarios.primo_fig1_top(n=1), bottleneck_rate)
        capacity, rtt = _capacity(scenario), _path_rtt(scenario)
        cycle = primo_loop(capacity=capacity, round_trip_time=rtt).limit_cycle()
        result = run(scenario, duration, trace=True, sample_interval=1e-3)
        tr = result.traces
        late = tr.time >= warmup
        rates = tr.rate[late, 0]
        measured += [float(np.mean(tr.queue[late, 0])), float(np.nanmean(rates)) / capacity,
                     _mean_period(tr.time[late], rates)]
        predicted += [cycle.mean_queue, cycle.mean_rate / capacity, cycle.period]
        tolerance += [0.5, 0.02, 0.15 * cycle.period]
        mbps = f"{bottleneck_rate / 1e6:g} Mb/s"
        labels += [f"{mbps}: mean queue [packets]", f"{mbps}: mean rate / C",
                   f"{mbps}: rate period [s]"]
        notes.append(f"{mbps}: model queue swing {cycle.queue_swing:.2f}, packets "
                     f"{int(tr.queue[late, 0].min())}..{int(tr.queue[late, 0].max())}")
    return _verdict(
        name="primo_limit_cycle",
        claim="Primo's limit cycle sets the mean queue, a mean rate equal to the capacity and "
              "the period of the rate oscillation",
        source="Chatté, Ducourthial & Niculescu (2006), Algorithm 1; ctlcc.analysis.primo limit cycle",
        quantity="mean queue [packets]; mean rate / C [1]; period [s]",
        labels=tuple(labels), predicted=np.array(predicted),
        samples=np.array(measured)[:, None], tolerance=np.array(tolerance),
        tolerance_reason="queue 0.5 packet (integer queue of paced packets); rate 2 % of C; "
                         "period 15 % (one packet time of queueing moves the feedback delay "
                         "by 14 % of the round trip)",
        parameters={"bottleneck_rates": tuple(bottleneck_rates), "duration": duration,
                    "warmup": warmup},
        note="; ".join(notes))


def primo_heterogeneous_fairness(extra_delays=(0.0, 10e-3, 24e-3), duration=20.0, warmup=10.0):
    """Two Primo flows, one with a longer RTT: fairness, paper vs model vs packets.

    Scenario: Primo's Fig. 1-top dumbbell; flow 1's access and exit links
    get ``extra_delay`` more delay each (RTT 24 ms + 4 x extra_delay... of
    propagation, thresholds scaled by its own FTT_ref).  Fairness is the
    paper's criterion, n x the smallest share of the goodput over the last
    ``duration - warmup`` seconds (100 % = even split).

    The check is the paper's claim (98 % fairness, §V-D, tolerance the
    paper's own 2 points); ``parameters["model_fairness"]`` holds what
    :func:`ctlcc.primo_shared_loop` predicts over the same window (the
    linearised loop has the eigenvalue 1: nothing restores equal shares
    and the short-RTT flow is starved).

    Parameters
    ----------
    extra_delays : sequence of float
        Extra one-way delay on flow 1's access and exit links. [s]
    duration, warmup : float
        [s]

    Returns
    -------
    CrossCheck
        ``quantity``: fairness [%]; predicted is the paper's 98.

    References
    ----------
    Chatté, Ducourthial & Niculescu (2006), §IV-B, §V-D (fairness 98 %).
    """
    extra_delays = check_sequence(
        "extra_delays", extra_delays,
        lambda name, x: check_interval(name, x, 0.0, 10.0, closed="both", scalar=True),
        max_length=MAX_POINTS)
    duration = _check_duration(duration)
    warmup = _check_warmup(warmup, duration)
    measured, model, labels = [], [], []
    for extra in extra_delays:
        access = (1e-3, 1e-3 + extra)
        scenario = scenarios.dumbbell(2, 10e6, access, 2e6, 10e-3, 30, None, "primo",
                                      access_buffer=30, name="primo_fig1_top_hetero")
        result = run(scenario, duration, trace=True, sample_interval=0.01)
        tr = result.traces
        start = np.searchsorted(tr.time, warmup)
        got = tr.delivered[-1] - tr.delivered[start]
        measured.append(100.0 * 2 * got.min() / max(got.sum(), 1))
        rtts = [_path_rtt(scenario, i) for i in range(2)]
        shared = primo_shared_loop(capacity=_capacity(scenario), round_trip_times=rtts)
        model.append(100.0 * shared.simulate(duration).fairness(warmup / duration))
        labels.append(f"RTT {rtts[0] * 1e3:.0f}/{rtts[1] * 1e3:.0f} ms")
    predicted = np.full(len(measured), 98.0)
    return _verdict(
        name="primo_heterogeneous_fairness",
        claim="Primo keeps 98 % fairness between flows of different RTTs",
        source="Chatté, Ducourthial & Niculescu (2006), §V-D",
        quantity="fairness (n x smallest share) [%]",
        labels=tuple(labels), predicted=predicted, samples=np.array(measured)[:, None],
        tolerance=np.full(len(measured), 2.0),
        tolerance_reason="2 points: the paper's own rounding of 98 %",
        parameters={"extra_delays": tuple(extra_delays), "duration": duration,
                    "warmup": warmup, "model_fairness": tuple(model)},
        note="shared-loop model fairness [%]: " + ", ".join(f"{v:.0f}" for v in model))


# --- claim 5: fluid Reno vs packet Reno ----------------------------------------------------

def fluid_reno_rate(probabilities=(3e-3, 1e-2, 3e-2), n=4, protocol="newreno", duration=60.0,
                    warmup=10.0, seeds=DEFAULT_SEEDS):
    """Fluid Reno (Misra-Gong-Towsley form) vs packet Reno on a dumbbell.

    Scenario: n flows, 100 Mb/s 1 ms access links, a 10 Mb/s 40 ms
    bottleneck with a 200-packet drop-tail buffer, Bernoulli loss p on the
    bottleneck (the packet simulator) and the same p as a fixed marking
    probability (:class:`ctlcc.sim.fluid.FixedMarking`, the fluid model),
    C and the round-trip propagation delay computed from the links.
    Compared: the mean send rate of a flow over ``[warmup, duration]``.

    Tolerance: 15 % of the fluid rate.  The fluid model is the mean-value
    equation of AIMD: its decrease term W x p / 2 is quadratic in W, so it
    fixes E[W]^2 where packets fix E[W^2]; a window with coefficient of
    variation cv has a mean lower by 1/sqrt(1 + cv^2) (3-7 % for cv 0.25-
    0.4); fast-recovery rounds and timeouts (absent from the fluid) cost a
    few percent more at p <= 1e-2; seed spread is about 5 %.

    Parameters
    ----------
    probabilities : sequence of float
        Loss probabilities, in (0, 1). [1]
    n : int
        Number of flows. [1]
    protocol : {"reno", "newreno"}
    duration, warmup : float
        [s]
    seeds : sequence of int

    Returns
    -------
    CrossCheck
        ``quantity``: send rate per flow [packets/s].

    References
    ----------
    V. Misra, W.-B. Gong, D. Towsley, SIGCOMM 2000; C. V. Hollot et al.,
    INFOCOM 2001 (the fluid Reno of :mod:`ctlcc.sim.fluid`).
    """
    from .sim import fluid

    probabilities = _check_probabilities(probabilities)
    n = check_positive_int("n", n, maximum=_MAX_FLOWS)
    protocol = check_choice("protocol", protocol, _RENO_PROTOCOLS)
    duration = _check_duration(duration)
    warmup = _check_warmup(warmup, duration)
    seeds = _check_seeds(seeds)
    predicted, samples, queues = [], [], []
    for p in probabilities:
        scenario = scenarios.dumbbell(n, 100e6, 1e-3, 10e6, 40e-3, 200, p, protocol)
        capacity, rtt = _capacity(scenario), _path_rtt(scenario)
        net = fluid.network(capacity, 200.0, rtt, n_flows=n)
        flow_run = fluid.simulate(net, fluid.Reno(), duration, 1e-3,
                                  aqm=fluid.FixedMarking(p), record_every=10)
        late = flow_run.time >= warmup
        predicted.append(float(flow_run.rate[late, 0, 0].mean()))
        row, row_queue = [], []
        for seed in seeds:
            result = run(scenario, duration, seed=seed, trace=True, sample_interval=0.01)
            tr = result.traces
            start = np.searchsorted(tr.time, warmup)
            row.append(float(np.mean(tr.sent[-1] - tr.sent[start]) / (tr.time[-1] - tr.time[start])))
            row_queue.append(float(tr.queue[start:, 0].mean()))
        samples.append(row)
        queues.append((float(flow_run.queue[late, 0, 0].mean()), float(np.mean(row_queue))))
    predicted = np.array(predicted)
    return _verdict(
        name="fluid_reno_rate",
        claim=f"the fluid Reno model predicts the mean send rate of {n} packet {protocol} flows "
              "under random loss",
        source="Misra-Gong-Towsley 2000 / Hollot et al. 2001 fluid Reno (ctlcc.sim.fluid)",
        quantity="send rate per flow [packets/s]",
        labels=tuple(f"p={p:g}" for p in probabilities),
        predicted=predicted, samples=np.array(samples), tolerance=0.15 * predicted,
        tolerance_reason="15 %: E[W]^2 vs E[W^2] (3-7 %), fast recovery and timeouts absent "
                         "from the fluid, ~5 % seed spread",
        parameters={"n": n, "protocol": protocol, "duration": duration, "warmup": warmup,
                    "seeds": tuple(seeds), "fluid_dt": 1e-3,
                    "mean_queue_fluid_packets": tuple(queues)},
        note="mean queue fluid/packets [packets]: " + ", ".join(
            f"{f:.1f}/{q:.1f}" for f, q in queues))


# --- claim 6: SACK recovery vs ns-3's SACK TCP -------------------------------------------

#: ns-3 configuration compared with the "sack" sender, per family: SACK with
#: classic recovery (no PRR) and limited transmit where it was run, else ns-3's
#: default (SACK + PRR + limited transmit).
SACK_NS3_VARIANT = {"fig3_7": "classic", "loss": "classic", "dumbbell": "default"}
#: Goodput tolerance per family: issue 6's targets for ctlcc vs ns-3 (10 % where
#: losses are congestion-only, 20 % for the throughput-vs-loss curve). [1]
SACK_GOODPUT_TOLERANCE = {"fig3_7": 0.10, "loss": 0.20, "dumbbell": 0.10}
#: Retransmission tolerance (every family). [1]
SACK_RETX_TOLERANCE = 0.25


def sack_vs_ns3(quantity="goodput", families=("fig3_7", "loss", "dumbbell")):
    """The ``"sack"`` sender vs ns-3's SACK TCP on the committed ns-3 runs.

    Scenarios: :func:`ctlcc.sim.ns3.comparison_cases` (thesis Fig. 3.7 with
    buffers 14 and 4, 30 s; thesis Fig. 4.7 under uniform loss 1e-3 ... 1e-1,
    300 s, seeds 0-4; the STTP Fig. 3 dumbbell with 10-50 flows, 100 s,
    seeds 0-1), every flow ``Sack(limited_transmit=True)``.  Reference: the
    same scenarios and seeds in ns-3.44 (``data/ns3_fig3_7.csv``,
    ``ns3_loss.csv``, ``ns3_dumbbell.csv``, written by
    ``benchmarks/ns3_compare.py --write-data``), variant
    :data:`SACK_NS3_VARIANT`: ns-3's TcpNewReno with SACK, limited transmit
    and classic recovery (the RFC 6675 configuration; RFC 6675 leaves the
    window at ssthresh during recovery, PRR is RFC 6937) where that variant
    was run, ns-3's default (SACK + PRR) on the dumbbell.  Compared per
    scenario point: the seed-mean of the total goodput (bit/s) or of the
    retransmitted segments.

    Tolerances, fixed before the comparison: goodput 10 % (congestion-only
    losses) and 20 % (random loss), issue 6's targets for ctlcc vs ns-3
    (ns-3 samples the RTT on every ACK with timestamps and adds a 1 ms clock
    granularity to its RTO; its ACKs grow with their SACK blocks; on the
    dumbbell PRR moves goodput by a few percent; seed spread); retransmissions
    25 %: they are losses plus the retransmissions of timeouts, losses scale
    with the data sent (within the goodput tolerance) and the two senders
    resend differently after a timeout (ctlcc goes back N, skipping SACKed
    segments, each still taking its place in the window; ns-3 resends from
    its scoreboard);
    ctlcc's receiver carries one SACK block per ACK, ns-3's up to four (no
    difference without ACK loss: the reverse paths here are uncongested).

    Finding (measured 2026-11-23): goodput within 0.90-1.08 of ns-3 on every
    point; retransmissions within 0.88-1.14 on Fig. 3.7 and under random
    loss, but 0.57-0.63 of ns-3's on the 10-30-flow dumbbells although the
    drops agree (0.88-1.08): ns-3 (SACK + PRR) resends 1.5-2.2 segments
    per drop there, ctlcc 1.15-1.25, and ns-3 counts 1.9-3.4x as many timeouts
    on 20-30 flows (its counter counts episodes, ctlcc's every expiry), so
    the excess is most likely ns-3 resending segments still in flight after
    its timeouts (not traced further); the tolerance is not widened for it.

    Parameters
    ----------
    quantity : {"goodput", "retransmitted"}
    families : sequence of {"fig3_7", "loss", "dumbbell"}

    Returns
    -------
    CrossCheck
        ``quantity``: total goodput [bit/s] or retransmitted segments [segments].

    References
    ----------
    RFC 6675 (Blanton et al. 2012); ns-3.44 ``TcpSocketBase`` with SACK
    (``ctlcc.sim.ns3``); Xu (2002) Figs. 3.7 and 4.7; Wade, Kara & Dew
    (2000) Fig. 3.
    """
    from .sim.ns3 import COMPARISON_FAMILIES

    quantity = check_choice("quantity", quantity, ("goodput", "retransmitted"))
    families = check_sequence("families", families,
                              lambda name, f: check_choice(name, f, COMPARISON_FAMILIES),
                              min_length=1, max_length=3)
    labels, predicted, samples, tolerance, parameters, drops = [], [], [], [], {}, []
    column = "goodput_bps" if quantity == "goodput" else "retransmitted"
    for family in families:
        points = _sack_ns3_runs(family)
        for label, (ns3_values, ctlcc_values) in points.items():
            labels.append(f"{family} {label}")
            predicted.append(float(np.mean(ns3_values[column])))
            samples.append(ctlcc_values[column])
            drops.append(np.mean(ctlcc_values["dropped"]) / np.mean(ns3_values["dropped"]))
            tolerance.append((SACK_GOODPUT_TOLERANCE[family] if quantity == "goodput"
                              else SACK_RETX_TOLERANCE) * predicted[-1])
        parameters[family] = SACK_NS3_VARIANT[family]
    # the families hold 1, 5 and 2 seeds per point: mean and spread per point
    measured = np.array([np.mean(row) for row in samples])
    spread = np.array([np.std(row, ddof=1) if len(row) > 1 else 0.0 for row in samples])
    predicted, tolerance = np.array(predicted), np.array(tolerance)
    within = np.abs(measured - predicted) <= tolerance
    unit = "total goodput [bit/s]" if quantity == "goodput" else "retransmitted [segments]"
    reason = ("goodput 10 % (congestion losses) / 20 % (random loss): issue 6's ctlcc-vs-ns-3 "
              "targets" if quantity == "goodput" else
              "25 %: losses scale with the data sent; timeouts resend differently")
    return CrossCheck(
        name=f"sack_vs_ns3_{quantity}",
        claim=f"ctlcc's RFC 6675 SACK sender matches ns-3's SACK TCP in {quantity}",
        source="RFC 6675; ns-3.44 TcpNewReno with SACK (data/ns3_*.csv)",
        quantity=unit, labels=tuple(labels), predicted=predicted, measured=measured,
        spread=spread, tolerance=tolerance,
        tolerance_reason=reason + "; ns-3 variant: " + ", ".join(
            f"{k} {v}" for k, v in parameters.items()),
        within=within, passed=bool(np.all(within)),
        parameters={"families": tuple(families), "ns3_variant": parameters,
                    "sender": "Sack(limited_transmit=True)"},
        note="ctlcc / ns-3: " + ", ".join(
            f"{lab} {m / q:.2f}" for lab, m, q in zip(labels, measured, predicted))
        + "; packets dropped, ctlcc / ns-3: " + ", ".join(
            f"{lab} {d:.2f}" for lab, d in zip(labels, drops)))


@lru_cache(maxsize=1)
def run_all():
    """Every claim with its fast defaults, in report order.

    Memoised: the report's ``crosscheck`` section and the claims ledger
    (:mod:`ctlcc.ledger.simulated`) share one run per process.

    Two claims are also run just beyond their stated range (names ending
    in ``_beyond``) to show where prediction and packets part: the
    square-root law at p = 3e-2 and 1e-1, eq. (4.19) at p = 1e-2 and 2e-2.

    Returns
    -------
    tuple of CrossCheck
    """
    from dataclasses import replace

    def beyond(check):
        return replace(check, name=check.name + "_beyond")

    return (
        reno_square_root_law(),
        beyond(reno_square_root_law(probabilities=(3e-2, 1e-1))),
        reno_pftk(),
        reno_sawtooth_utilisation(),
        stpd_decay(model="per_rtt"),
        stpd_decay(model="per_slot"),
        stpd_throughput_under_loss(),
        beyond(stpd_throughput_under_loss(probabilities=(1e-2, 2e-2), seeds=(0, 1))),
        primo_limit_cycle(),
        primo_heterogeneous_fairness(),
        fluid_reno_rate(),
        sack_vs_ns3("goodput"),
        sack_vs_ns3("retransmitted"),
    )


# --- private helpers ----------------------------------------------------------------------
# argument checks: all made before the first simulation -------------------------------------

_RENO_PROTOCOLS = ("reno", "newreno")
_MAX_SLOTS = 10_000          # stpd_throughput_under_loss: m slots of 5.3 ms, under a minute
_MAX_EXCESS = 4096           # stpd_decay: the packet engine's largest window
_MAX_FLOWS = 1000            # fluid_reno_rate: flows on one dumbbell


def _check_duration(duration):
    return check_interval("duration", duration, 0.0, MAX_DURATION, closed="right", scalar=True)


def _check_warmup(warmup, duration):
    """A warm-up in [0, duration): a check must keep some samples after it."""
    return check_interval("warmup", warmup, 0.0, duration, closed="left", scalar=True)


def _check_probabilities(probabilities):
    return check_sequence(
        "probabilities", probabilities,
        lambda name, p: check_interval(name, p, 0.0, 1.0, scalar=True), max_length=MAX_POINTS)


def _check_seeds(seeds):
    return check_sequence("seeds", seeds, lambda name, s: check_nonnegative_int(name, s),
                          max_length=MAX_POINTS)


def _check_preset(name, value):
    return check_choice(name, value, tuple(scenarios.PRESETS))


def _check_gains(gains):
    return check_sequence("gains", gains,
                          lambda name, k: check_nonnegative(name, k, scalar=True),
                          min_length=2, max_length=2)


def _fmt(value):
    value = float(value)
    if not math.isfinite(value):
        return str(value)
    if value == 0 or 1e-3 <= abs(value) < 1e5:
        return f"{value:.4g}"
    return f"{value:.3e}"


def _verdict(name, claim, source, quantity, labels, predicted, samples, tolerance,
             tolerance_reason, parameters, note=""):
    samples = np.atleast_2d(np.asarray(samples, dtype=float))
    measured = samples.mean(axis=1)
    spread = samples.std(axis=1, ddof=1) if samples.shape[1] > 1 else np.zeros(len(measured))
    predicted = np.asarray(predicted, dtype=float)
    tolerance = np.asarray(tolerance, dtype=float)
    if predicted.size == 0 or predicted.shape != measured.shape:
        # the argument checks make this unreachable; a verdict needs evidence
        raise RuntimeError(f"{name}: no points compared, refusing to give a verdict")
    within = np.abs(measured - predicted) <= tolerance   # NaN (a failed fit) is never within
    return CrossCheck(name, claim, source, quantity, tuple(labels), predicted, measured,
                      spread, tolerance, tolerance_reason, within, bool(np.all(within)),
                      dict(parameters), note)


def _replace_verdict(check, passed, note):
    from dataclasses import replace
    return replace(check, passed=passed, note=note)


def _reno_runs(probabilities, protocol, duration, seeds, preset):
    """Checked arguments, then the (cached) runs shared by the two Reno claims."""
    return _reno_runs_cached(_check_probabilities(probabilities),
                             check_choice("protocol", protocol, _RENO_PROTOCOLS),
                             _check_duration(duration), _check_seeds(seeds),
                             _check_preset("preset", preset))


@lru_cache(maxsize=8)
def _reno_runs_cached(probabilities, protocol, duration, seeds, preset):
    rates, rtts = [], []
    for p in probabilities:
        scenario = scenarios.preset(preset, protocol=protocol, loss=p)
        row_rate, row_rtt = [], []
        for seed in seeds:
            result = run(scenario, duration, seed=seed, trace=True)
            flow = result.flows[0]
            row_rate.append(flow.sent / flow.active_time)
            row_rtt.append(float(np.mean(result.traces.rtt[:, 2])))
        rates.append(row_rate)
        rtts.append(np.mean(row_rtt))
    bdp = _path_rtt(scenario) * _capacity(scenario)
    wmax = bdp + _bottleneck_link(scenario).buffer + 1
    return {"p": probabilities, "rate": np.array(rates), "rtt": np.array(rtts),
            "capacity": _capacity(scenario), "rto": scenario.tcp.min_rto, "wmax": wmax,
            "parameters": {"preset": preset, "protocol": protocol, "duration": duration,
                           "seeds": seeds, "mean_rtt": tuple(np.round(rtts, 5)),
                           "rto": scenario.tcp.min_rto, "wmax": round(wmax, 2)}}


@lru_cache(maxsize=4)
def _sack_ns3_runs(family):
    """{label: (ns-3 columns over seeds, ctlcc columns over seeds)} of one family."""
    from .sim.ns3 import comparison_cases, read_ns3_csv
    from .sim.senders import Sack

    table = read_ns3_csv(f"ns3_{family}").where(variant=SACK_NS3_VARIANT[family])
    out = {}
    for case in comparison_cases(family, protocol=Sack(limited_transmit=True)):
        key = next(iter(case.params))
        rows = table.where(**{key: case.params[key]}, seed=case.seed)
        if len(rows) == 0:
            raise RuntimeError(f"data/ns3_{family}.csv has no row for {case.label}, "
                               f"seed {case.seed}")
        result = run(case.scenario, case.duration, seed=case.seed, progress=False)
        ns3_values, ctlcc_values = out.setdefault(
            case.label, ({"goodput_bps": [], "retransmitted": [], "dropped": []},
                         {"goodput_bps": [], "retransmitted": [], "dropped": []}))
        ns3_values["goodput_bps"].append(float(rows["goodput_bps"].sum()))
        ns3_values["retransmitted"].append(float(rows["retransmitted"].sum()))
        ns3_values["dropped"].append(float(rows["dropped"].sum()))
        ctlcc_values["dropped"].append(float(sum(f.dropped for f in result.flows)))
        ctlcc_values["goodput_bps"].append(float(sum(f.goodput_bps for f in result.flows)))
        ctlcc_values["retransmitted"].append(float(sum(f.retransmitted for f in result.flows)))
    return out


def _bottleneck_link(scenario):
    (a, b), = scenario.bottlenecks[:1]
    link, _ = scenario.channels()[(a, b)]
    return link


def _capacity(scenario):
    """Bottleneck rate in data packets per second. [packets/s]"""
    return _bottleneck_link(scenario).rate / scenario.data_bits


def _path_rtt(scenario, flow=0):
    """Round trip with empty queues: propagation + serialisation of data and ACK. [s]"""
    path = scenario.flows[flow].path
    channels = scenario.channels()
    total = 0.0
    for hop in zip(path[:-1], path[1:]):
        link, _ = channels[hop]
        total += 2 * link.delay + scenario.data_bits / link.rate + 8 * scenario.ack_bytes / link.rate
    return total


def _sawtooth_utilisation(bdp, wmax):
    w0 = wmax / 2.0
    if w0 >= bdp:
        return 1.0
    t1 = bdp - w0
    n1 = (w0 + bdp) * t1 / 2.0
    t2 = (bdp + wmax) * (wmax - bdp) / (2.0 * bdp)
    n2 = bdp * t2
    return (n1 + n2) / (bdp * (t1 + t2))


def _busy_fraction(result, scenario, warmup):
    """Share of the bottleneck's time spent sending data after *warmup*. [1]

    Packets through the bottleneck = packets sent by the sources - data
    dropped by the full queue - growth of the queue, over the window
    (packets still on the access link at either end are ignored: at most
    a packet or two).
    """
    tr = result.traces
    start = np.searchsorted(tr.time, warmup)
    span = tr.time[-1] - tr.time[start]
    if span <= 0:
        raise ParameterError(f"warmup must leave samples; got warmup={warmup}")
    sent = float(np.sum(tr.sent[-1] - tr.sent[start]))
    late = tr.drops[tr.drops[:, 0] >= tr.time[start]]
    queue_drops = int(np.sum(late[:, 3] == 0))
    queue_change = float(tr.queue[-1, 0] - tr.queue[start, 0])
    return (sent - queue_drops - queue_change) / (_capacity(scenario) * span)


def _fit_decay(traces, curve=None):
    """Decay factor per round trip of the window's distance to its final value. [1]

    If *curve* is a list, (rounds, distance, fitted mask, intercept) is
    appended to it for plotting.
    """
    window = traces.window[:, 0]
    sent = traces.sent[:, 0]
    rounds = np.concatenate([[0.0], np.cumsum(np.diff(sent) / np.maximum(window[1:], 1.0))])
    final = float(np.mean(window[int(0.8 * len(window)):]))
    distance = np.abs(window - final)
    peak = int(np.argmax(distance[:max(2, len(distance) // 10)]))
    start_level = 0.8 * distance[peak]
    after = np.arange(len(distance)) > peak
    inside = after & (distance <= start_level) & (distance >= 1.5) & (window > final)
    end = np.argmax(after & (distance < 1.5))
    inside &= np.arange(len(distance)) < (end if end > 0 else len(distance))
    if np.count_nonzero(inside) < 5:
        if curve is not None:
            curve.append((rounds, distance, inside, float("nan")))
        return float("nan")
    slope, intercept = np.polyfit(rounds[inside], np.log(distance[inside]), 1)
    if curve is not None:
        curve.append((rounds, distance, inside, float(intercept)))
    return float(np.exp(slope))


def _mean_period(time, values):
    """Mean time between upward crossings of the mean of *values*. [s]"""
    centred = values - np.nanmean(values)
    up = np.flatnonzero((centred[:-1] < 0) & (centred[1:] >= 0))
    if len(up) < 2:
        return float("nan")
    return float(np.mean(np.diff(time[up])))


def _with_bottleneck_rate(scenario, rate):
    from dataclasses import replace
    link = _bottleneck_link(scenario)
    links = tuple(replace(l, rate=rate) if l is link else l for l in scenario.links)
    return replace(scenario, links=links)


def _stpd_fixed(kp, kd):
    """ST-PD with fixed gains and the per-round-trip readings the loop models assume."""
    from dataclasses import replace

    from .sim.senders import Stpd

    return replace(Stpd.legacy(), gains=(float(kp), float(kd)))
