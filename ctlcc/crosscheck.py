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
* :func:`iftp_ideal_bandwidth` - IFTP's ideal bandwidth theta(N) (ElAarag &
  Bassiouni (2002), eqs. (10)-(20)) vs simulated lossless transfers of N
  packets, beside the timing Figure 1's paced windows actually have;
* :func:`iftp_nonideal_bound` - eq. (26)'s bound vs a simulated IFTP flow
  under random loss;
* :func:`iftp_tcp_friendliness` - one IFTP and one Reno flow sharing a
  bottleneck (the paper's §6.1 friendliness claim);
* :func:`cbraa_loss_threshold` - CBRAA's equilibrium loss vs Loss_th,
  eq. (4) (Ait-Hellal, Yamamoto & Leduc 1999);
* :func:`cbraa_mathis_rate` - CBRAA's rate vs eq. (2) at its measured
  loss and RTT;
* :func:`cbraa_smoothness` - CBRAA's rate varies less than TCP-Friend's;
* :func:`tfrc_equation_rate` - TFRC's rate vs the RFC 5348 equation at
  its measured loss-event rate and RTT;
* :func:`tfrc_newreno_share` - TFRC beside NewReno (TCP-friendliness);
* :func:`sttp_burst_bound` - STTP's token-bucket bound ``sigma + rho S``
  (Wade, Kara & Dew (2000), §III-B) vs the largest bursts its sender lets out;
* :func:`sttp_packet_pair` - the packet-pair estimate (§III-A) vs the true
  bottleneck rate, over the paper's range of rates and positions;
* :func:`sttp_rtt_scaling` - the alpha:beta law (§III-B.3) replayed on the
  RTT sequence an STTP flow measured vs the bucket the sender ended with;
* :func:`sack_vs_ns3` - the ``"sack"`` sender (RFC 6675) vs ns-3's SACK
  TCP on the committed ns-3 runs (``data/ns3_*.csv``): goodput and
  retransmissions.

:func:`run_all` runs the checks the claims ledger's units need (:data:`CHECKS`,
the ``ctlcc report`` section ``crosscheck``).  A :class:`CrossCheck` carries
the function's own acceptance band (``tolerance``, ``within``, ``passed``)
for interactive use; the ledger's verdict on the same points is decided by
the records declared in ``data/ledger_*.csv`` (:mod:`ctlcc.claims`).
"""

import math
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from ._validation import (check_choice, check_interval, check_nonnegative,
                          check_nonnegative_int, check_positive_int, check_sequence)
from .analysis import primo_loop, primo_shared_loop, stpd_loop
from .bounds import iftp as iftp_bounds
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
    "iftp_ideal_bandwidth",
    "iftp_nonideal_bound",
    "iftp_tcp_friendliness",
    "cbraa_loss_threshold",
    "cbraa_mathis_rate",
    "cbraa_smoothness",
    "tfrc_equation_rate",
    "tfrc_newreno_share",
    "sttp_burst_bound",
    "sttp_packet_pair",
    "sttp_rtt_scaling",
    "sack_vs_ns3",
    "CHECKS",
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


# --- claim 1: Reno under Bernoulli loss -------------------------------------------------------

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


# --- claim 4: lossless single flow ------------------------------------------------------------

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


# --- claim 2: ST-PD ---------------------------------------------------------------------------

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


# --- claim 3: Primo ---------------------------------------------------------------------------

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


# --- claim 5: fluid Reno vs packet Reno -------------------------------------------------------

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


# --- IFTP: ideal and non-ideal bandwidth, friendliness ----------------------------------------

def iftp_ideal_bandwidth(N=(8, 32, 64, 512, 1024, 5000), Ws=32, Wmax=50):
    """IFTP's ideal bandwidth theta(N) vs simulated lossless transfers of N packets.

    Scenario: one IFTP flow (``Iftp(Ws=Ws, Wmax=Wmax)``) over 1 Gb/s 1 ms
    access and a 100 Mb/s 20 ms bottleneck with a 1000-packet buffer:
    Wmax packets per round trip never queue, so every packet sees the
    same round trip R (computed from the links) and nothing is lost.
    Measured: ``theta = N / T(N)`` with T(N) the arrival time of the N-th
    ACK (the transfer of the file's N packets is complete; eq. (10)
    counts ``k(N)`` whole round trips, whose ends are those ACKs in the
    paper's model).  [packets/s]

    Two predictions per N, both computed from the window sequence
    ``1, 2, ..., Ws, Ws + 1, ..., Wmax, Wmax, ...`` (never from the
    simulator):

    * the paper's, eqs. (10)-(19) (:func:`ctlcc.bounds.iftp.ideal_bandwidth`,
      exact round-trip count): one window per round trip R;
    * Figure 1's timing: a window of n paced packets (gap G + tau = R/n)
      starts when the last ACK of the previous one returns, i.e. (n - 1) R/n
      + R after that window's first packet, and packet j of window k is
      acknowledged at ``s_k + (j - 1) R/n_k + R``.

    The paper's prediction is also set against ``Iftp(pacing="continuous")``
    (the sweep goes on at the current gap until the next window).

    Tolerance: 2 % of each prediction.  The run is deterministic and every
    RTT equals R to the transmission times the prediction includes; 2 %
    covers the integer sequence numbers' rounding at small N.

    Parameters
    ----------
    N : sequence of int
        File sizes, >= 1 (default: the paper's Figure 3 cases). [packets]
    Ws, Wmax : int
        ssthresh (a power of two) and the receiver window. [packets]

    Returns
    -------
    CrossCheck
        Three points per N: theta [packets/s] of the "figure1" sender
        against eqs. (10)-(19) and against Figure 1's paced timing, and of
        the "continuous" sender against eqs. (10)-(19).

    References
    ----------
    ElAarag & Bassiouni (2002), §4 Figure 1, §5.1 eqs. (10)-(20), Figure 3.
    """
    from .sim.senders import Iftp

    N = check_sequence("N", N, lambda name, x: check_positive_int(name, x, maximum=10**6),
                       max_length=MAX_POINTS)
    ack_times = {}
    for pacing in ("figure1", "continuous"):
        spec = Iftp(Ws=Ws, Wmax=Wmax, pacing=pacing)
        scenario = scenarios.single_bottleneck(1e9, 1e-3, 100e6, 20e-3, 1000, protocol=spec)
        R = _path_rtt(scenario)
        windows = _iftp_windows(max(N), Ws, Wmax)
        paced_end = _iftp_paced_ack_times(windows, R)
        duration = float(paced_end[max(N) - 1]) * 1.05 + 1.0
        result = run(scenario, duration, trace=True, sample_interval=0.01)
        ack_times[pacing] = result.traces.rtt[result.traces.rtt[:, 1] == 0, 0]
    predicted, measured, labels = [], [], []
    for n in N:
        theta_sim = n / ack_times["figure1"][n - 1]
        theta_cont = n / ack_times["continuous"][n - 1]
        paper = iftp_bounds.ideal_bandwidth(n, 1.0, R, Ws, Wmax)
        printed = iftp_bounds.ideal_bandwidth(n, 1.0, R, Ws, Wmax, published=True)
        predicted += [paper, n / paced_end[n - 1], paper]
        measured += [theta_sim, theta_sim, theta_cont]
        labels += [f"N={n}: eqs. (10)-(19) (printed {printed:.4g}) vs pacing='figure1'",
                   f"N={n}: Figure 1 paced timing vs pacing='figure1'",
                   f"N={n}: eqs. (10)-(19) vs pacing='continuous'"]
    predicted = np.array(predicted)
    ratio = np.array(measured[::3]) / predicted[::3]
    ratio_cont = np.array(measured[2::3]) / predicted[2::3]
    return _verdict(
        name="iftp_ideal_bandwidth",
        claim="an ideal (lossless) IFTP transfer of N packets reaches theta(N) = N P / (k(N) R)",
        source="ElAarag & Bassiouni (2002), eqs. (10)-(20); Figure 1",
        quantity="theta [packets/s]",
        labels=tuple(labels), predicted=predicted, samples=np.array(measured)[:, None],
        tolerance=0.02 * predicted,
        tolerance_reason="2 %: deterministic run, every RTT equals R; integer sequence "
                         "numbers at small N",
        parameters={"N": tuple(N), "Ws": Ws, "Wmax": Wmax, "R": R, "duration": duration},
        note="simulated / eqs. (10)-(19), pacing='figure1': " + ", ".join(f"{r:.2f}" for r in ratio)
             + "; pacing='continuous': " + ", ".join(f"{r:.2f}" for r in ratio_cont)
             + ". Figure 1 starts a window only when all n ACKs of the previous one are in, "
               "and Transmit_Window paces its n packets over the whole round trip "
               "(n (G + tau) = R, §3.1), so a period lasts (2n - 1) R / n, not R: about half "
               "of eqs. (10)-(20) for long files. Pacing that continues at the gap until the "
               "next window (rate n/R) recovers eqs. (10)-(20) from congestion avoidance on; "
               "in slow start its period is 1.5 R (half the ACKs of a doubled window are "
               "clocked by the previous, halved rate)")


def iftp_nonideal_bound(probabilities=(3e-3, 1e-2, 3e-2), duration=120.0, warmup=10.0,
                        seeds=DEFAULT_SEEDS, pacings=("figure1", "continuous")):
    """Eq. (26)'s bound vs a simulated IFTP flow under random (Bernoulli) loss.

    Scenario: one IFTP flow (the paper's defaults, Ws = 32, Wmax = 50) over
    100 Mb/s 1 ms access and a 10 Mb/s 20 ms bottleneck with a 200-packet
    buffer and Bernoulli loss p: the loss window sqrt(8/(3p)) (30 packets at
    p = 3e-3) stays below the path's 55-packet BDP, so the rate is set by
    the losses.  Measured: the send rate over ``[warmup, duration]``.
    Prediction: eq. (26), ``sqrt(3/2) P / (R sqrt(p))`` with R the path's
    round trip (queues stay empty), an *upper* bound.

    Verdict: one-sided, measured <= bound x 1.05 (5 %: the seed spread of
    a rate over ~100 loss events).  The note gives the ratio to eq. (25)'s
    exact mean window too.

    Parameters
    ----------
    probabilities : sequence of float
        Packet-error probabilities, in (0, 1). [1]
    duration, warmup : float
        [s]
    seeds : sequence of int
    pacings : sequence of {"figure1", "continuous"}
        Readings of Transmit_Window (:class:`~ctlcc.sim.senders.Iftp`), one
        point per probability each.

    Returns
    -------
    CrossCheck
        ``quantity``: send rate [packets/s].

    References
    ----------
    ElAarag & Bassiouni (2002), §5.2, eqs. (21)-(26).
    """
    from .sim.senders import Iftp
    from .sim.senders.iftp import PACINGS

    from dataclasses import replace

    probabilities = _check_probabilities(probabilities)
    duration = _check_duration(duration)
    warmup = _check_warmup(warmup, duration)
    seeds = _check_seeds(seeds)
    pacings = check_sequence("pacings", pacings, lambda name, x: check_choice(name, x, PACINGS),
                             max_length=len(PACINGS))
    predicted, exact, samples, losses, timeouts, labels = [], [], [], [], [], []
    for p, pacing in ((p, pacing) for pacing in pacings for p in probabilities):
        labels.append(f"p={p:g}, pacing={pacing!r}")
        scenario = scenarios.single_bottleneck(100e6, 1e-3, 10e6, 20e-3, 200, p,
                                               Iftp(pacing=pacing))
        R = _path_rtt(scenario)
        predicted.append(float(iftp_bounds.nonideal_bandwidth(p, 1.0, R, published=True)))
        exact.append(float(iftp_bounds.nonideal_bandwidth(p, 1.0, R)))
        row, react, outs = [], [], []
        for seed in seeds:
            result = run(scenario, duration, seed=seed, trace=True, sample_interval=0.05)
            tr = result.traces
            start = np.searchsorted(tr.time, warmup)
            row.append(float((tr.sent[-1, 0] - tr.sent[start, 0]) / (tr.time[-1] - tr.time[start])))
            react.append(result.sender_state[0]["loss_reactions"])
            outs.append(result.sender_state[0]["timeouts"])
        samples.append(row)
        losses.append(float(np.mean(react)))
        timeouts.append(float(np.mean(outs)))
    predicted = np.array(predicted)
    check = _verdict(
        name="iftp_nonideal_bound",
        claim="an IFTP flow under packet loss p sends at most sqrt(3/2) P / (R sqrt(p))",
        source="ElAarag & Bassiouni (2002), eq. (26)",
        quantity="send rate [packets/s]",
        labels=tuple(labels),
        predicted=predicted, samples=np.array(samples), tolerance=0.05 * predicted,
        tolerance_reason="one-sided: measured <= bound + 5 % (seed spread over ~100 loss "
                         "events)",
        parameters={"duration": duration, "warmup": warmup, "seeds": tuple(seeds),
                    "pacings": tuple(pacings)})
    within = check.measured <= predicted + check.tolerance
    mean = check.measured
    note = ("measured / eq. (26): " + ", ".join(f"{m / q:.2f}" for m, q in zip(mean, predicted))
            + "; / eq. (25) exact mean window: "
            + ", ".join(f"{m / q:.2f}" for m, q in zip(mean, exact))
            + "; loss reactions / timeouts per run: "
            + ", ".join(f"{a:.0f}/{b:.0f}" for a, b in zip(losses, timeouts))
            + ". pacing='figure1' stays about half below the bound: its paced periods last "
              "(2n - 1) R / n (see iftp_ideal_bandwidth); timeouts restart at n = 1")
    return replace(check, within=within, passed=bool(np.all(within)), note=note)


def iftp_tcp_friendliness(duration=60.0, warmup=10.0, seeds=DEFAULT_SEEDS, bottleneck_rate=1e6,
                          pacings=("figure1", "continuous")):
    """One IFTP and one Reno flow on one bottleneck: IFTP's share of the goodput.

    Scenario: the Figure 4 network of the paper (:func:`ctlcc.sim.scenarios.iftp_fig4`:
    1000-byte packets, 40-byte ACKs, 11 ms one way, 50-packet drop-tail
    buffer) with one Reno (Wmax 50) and one IFTP flow (the paper's
    defaults); the flows start at times drawn uniformly in [0, 0.5] s from
    the seed (the run has no other randomness).  Measured: IFTP's fraction
    of the two flows' delivered packets over ``[warmup, duration]``.
    Prediction: 1/2, the paper's "fair almost equal share" (§6.1).

    Tolerance: 0.1 (share in [0.4, 0.6], a goodput ratio within 1.5): the
    paper's own Figure 6 / Table I show the two protocols a few percent
    apart, and FCFS drop-tail sharing of two flows moves by about 5 % with
    the phase of their losses.

    Parameters
    ----------
    duration, warmup : float
        [s]
    seeds : sequence of int
    bottleneck_rate : float
        [bit/s]
    pacings : sequence of {"figure1", "continuous"}
        Readings of Transmit_Window, one point each.

    Returns
    -------
    CrossCheck

    References
    ----------
    ElAarag & Bassiouni (2002), §6.1, Figure 6.
    """
    from .sim.senders import Iftp
    from .sim.senders.iftp import PACINGS

    duration = _check_duration(duration)
    warmup = _check_warmup(warmup, duration)
    seeds = _check_seeds(seeds)
    pacings = check_sequence("pacings", pacings, lambda name, x: check_choice(name, x, PACINGS),
                             max_length=len(PACINGS))
    shares = []
    for pacing in pacings:
        row = []
        for seed in seeds:
            starts = np.random.default_rng(seed).uniform(0.0, 0.5, 2)
            scenario = scenarios.iftp_fig4(("reno", Iftp(pacing=pacing)),
                                           bottleneck_rate=bottleneck_rate, start=tuple(starts))
            result = run(scenario, duration, sample_interval=0.05)
            tr = result.samples
            start = np.searchsorted(tr.time, warmup)
            got = tr.delivered[-1] - tr.delivered[start]
            row.append(float(got[1] / got.sum()))
        shares.append(row)
    return _verdict(
        name="iftp_tcp_friendliness",
        claim="IFTP and TCP Reno share one FCFS drop-tail bottleneck almost equally",
        source="ElAarag & Bassiouni (2002), §6.1, Figure 6",
        quantity="IFTP share of the delivered packets [1]",
        labels=tuple(f"B={bottleneck_rate / 1e6:g} Mb/s, pacing={p!r}" for p in pacings),
        predicted=np.full(len(pacings), 0.5),
        samples=np.array(shares), tolerance=np.full(len(pacings), 0.1),
        tolerance_reason="0.1: the paper's Figure 6 / Table I put the two a few percent apart; "
                         "two-flow drop-tail sharing moves ~5 % with the loss phase",
        parameters={"duration": duration, "warmup": warmup, "seeds": tuple(seeds),
                    "bottleneck_rate": bottleneck_rate, "pacings": tuple(pacings)},
        note="IFTP share per seed: " + "; ".join(
            f"{p}: " + ", ".join(f"{x:.2f}" for x in row) for p, row in zip(pacings, shares)))


# --- CBRAA and TCP-Friend ---------------------------------------------------------------------

def cbraa_loss_threshold(probabilities=(2e-3, 5e-3, 1e-2), duration=400.0, warmup=150.0,
                         seeds=DEFAULT_SEEDS):
    """CBRAA's Loss_th (eq. 4) at its equilibrium vs the loss it measures.

    Scenario: one CBRAA flow (the paper's defaults: reports every 5 s,
    a = 1.5, b = 0.5, alpha = 0.5) through a 100 Mb/s, 40 ms link with a
    1000-packet buffer (the link never congests) and Bernoulli loss p; 10
    Mb/s, 5 ms access links (round trip about 0.1 s).  Figure 1 holds the
    rate once the loss observed over a cycle is within ``[b, a] Loss_th``;
    so at equilibrium the loss the flow measures should be
    ``Loss_th(rate, srtt)`` (:func:`ctlcc.bounds.cbraa.loss_th`) at its
    mean rate and RTT, to within the hold band.

    Predicted: eq. (4) at the measured mean send rate after *warmup* and
    the mean RTT of its reports.  Measured: the loss ratio of its reports
    (packets lost / sent).  Tolerance: ``(a - 1) Loss_th = 0.5 Loss_th``,
    the half-width of the hold band (the band is symmetric about Loss_th
    for a = 1.5, b = 0.5).

    Parameters
    ----------
    probabilities : sequence of float
        Loss probabilities, in (0, 1). [1]
    duration, warmup : float
        [s]
    seeds : sequence of int

    Returns
    -------
    CrossCheck
        ``quantity``: loss ratio [1].

    References
    ----------
    Ait-Hellal, Yamamoto & Leduc (1999), §3.1 eq. (4), §3.2 Figure 1.
    """
    runs = _rate_runs("cbraa", _check_probabilities(probabilities), _check_duration(duration),
                      warmup, _check_seeds(seeds))
    from .bounds.cbraa import loss_th

    predicted = np.array([float(np.mean([loss_th(r, t) for r, t in zip(rates, rtts)]))
                          for rates, rtts in zip(runs["rate"], runs["rtt"])])
    return _verdict(
        name="cbraa_loss_threshold",
        claim="at its equilibrium CBRAA measures the loss of an ideal Reno at its rate, "
              "Loss_th = 1/(Rate Cycle) (eq. 4), within Figure 1's hold band [b, a] Loss_th",
        source="Ait-Hellal, Yamamoto & Leduc (1999), eq. (4) and Figure 1",
        quantity="loss ratio [1]", labels=tuple(f"p={p:g}" for p in runs["p"]),
        predicted=predicted, samples=runs["loss"], tolerance=0.5 * predicted,
        tolerance_reason="0.5 Loss_th: the hold band [0.5, 1.5] Loss_th of Figure 1 "
                         "(a = 1.5, b = 0.5), inside which the rate is not changed",
        parameters=runs["parameters"],
        note="mean rate [packets/s]: " + ", ".join(f"{np.mean(r):.1f}" for r in runs["rate"]))


def cbraa_mathis_rate(probabilities=(2e-3, 5e-3, 1e-2), duration=400.0, warmup=150.0,
                      seeds=DEFAULT_SEEDS):
    """CBRAA's mean rate vs eq. (2) (Mathis, C = 1.2701) at its measured loss and RTT.

    Same runs as :func:`cbraa_loss_threshold`.  Predicted:
    ``mathis_rate(loss, rtt, C="cbraa")`` at the loss ratio and mean RTT
    the flow measured; measured: its mean send rate after *warmup*.

    Tolerance: a third of the prediction.  Figure 1 holds any rate whose
    Loss_th is within ``[loss/a, loss/b]``; with eq. (4) ``Loss_th = C^2/(W^2 +
    1.55 W)`` (W = rate x srtt) and eq. (2) ``W = C/sqrt(loss)``, the hold
    band is the rate band ``[sqrt(b), sqrt(a)] = [0.71, 1.22]`` x eq. (2),
    shifted down by about ``0.775/W`` (under 4 % at W >= 20): the larger
    side, 0.29 + 0.04.

    Returns
    -------
    CrossCheck
        ``quantity``: send rate [packets/s].

    References
    ----------
    Ait-Hellal, Yamamoto & Leduc (1999), §2 eqs. (1)-(2), Figure 1.
    """
    runs = _rate_runs("cbraa", _check_probabilities(probabilities), _check_duration(duration),
                      warmup, _check_seeds(seeds))
    predicted = np.array([float(np.mean([mathis_rate(lo, t, C="cbraa")
                                         for lo, t in zip(loss, rtts)]))
                          for loss, rtts in zip(runs["loss"], runs["rtt"])])
    return _verdict(
        name="cbraa_mathis_rate",
        claim="CBRAA's long-run rate is the TCP-friendly rate of eq. (2) at the loss and RTT "
              "it measures",
        source="Ait-Hellal, Yamamoto & Leduc (1999), eq. (2) (Mathis et al. 1997, C = 1.2701)",
        quantity="send rate [packets/s]", labels=tuple(f"p={p:g}" for p in runs["p"]),
        predicted=predicted, samples=runs["rate"], tolerance=predicted / 3,
        tolerance_reason="1/3: Figure 1's hold band [b, a] Loss_th is the rate band "
                         "[sqrt(b), sqrt(a)] = [0.71, 1.22] x eq. (2), shifted down by "
                         "0.775/W (< 4 %); the larger side",
        parameters=runs["parameters"],
        note="measured loss ratio: " + ", ".join(f"{np.mean(x):.4g}" for x in runs["loss"]))


def cbraa_smoothness(probabilities=(2e-3, 1e-2), duration=400.0, warmup=150.0,
                     seeds=DEFAULT_SEEDS):
    """CBRAA's rate is smoother than TCP-Friend's (coefficient of variation).

    Runs of :func:`cbraa_loss_threshold` and the same with TCP-Friend; the
    coefficient of variation (std/mean) of the sending rate sampled each
    second after *warmup*, per seed; compared: CV(CBRAA)/CV(TCP-Friend).
    The paper's claim (§1, §4.1) is an inequality: the ratio is below 1.
    Encoded as predicted 0, tolerance 1: within iff the ratio is in
    [0, 1].

    Returns
    -------
    CrossCheck
        ``quantity``: CV ratio [1].

    References
    ----------
    Ait-Hellal, Yamamoto & Leduc (1999), Abstract, §4.1 (Figure 3).
    """
    probabilities = _check_probabilities(probabilities)
    duration, seeds = _check_duration(duration), _check_seeds(seeds)
    cb = _rate_runs("cbraa", probabilities, duration, warmup, seeds)
    fr = _rate_runs("tcpfriend", probabilities, duration, warmup, seeds)
    ratio = np.asarray(cb["cv"]) / np.asarray(fr["cv"])
    return _verdict(
        name="cbraa_smoothness",
        claim="CBRAA's sending rate varies less than TCP-Friend's (plain eq. (2)) under the "
              "same random loss",
        source="Ait-Hellal, Yamamoto & Leduc (1999), Abstract and §4.1",
        quantity="CV(CBRAA) / CV(TCP-Friend) [1]", labels=tuple(f"p={p:g}" for p in cb["p"]),
        predicted=np.zeros(len(probabilities)), samples=ratio,
        tolerance=np.ones(len(probabilities)),
        tolerance_reason="the claim is the inequality ratio < 1 (predicted 0, tolerance 1)",
        parameters=dict(cb["parameters"], compared="tcpfriend"),
        note="CV CBRAA / TCP-Friend: " + "; ".join(
            f"{np.mean(a):.3f} / {np.mean(b):.3f}" for a, b in zip(cb["cv"], fr["cv"])))


# --- TFRC (RFC 5348) --------------------------------------------------------------------------

def tfrc_equation_rate(probabilities=(2e-3, 5e-3, 1e-2, 3e-2), duration=200.0, warmup=50.0,
                       seeds=DEFAULT_SEEDS):
    """TFRC's rate vs the RFC 5348 equation at the loss-event rate and RTT it measured.

    Scenario of :func:`cbraa_loss_threshold` with a TFRC flow.  Predicted:
    :func:`ctlcc.bounds.tfrc_rate` (t_RTO = 4 R, b = 1) at the mean RTT of
    its feedback and the loss-event rate after *warmup*: losses (from the
    drop log) grouped into events, a loss more than one mean RTT after the
    first loss of the current event starting a new one (§5.2), divided by
    the packets sent.  Measured: the mean send rate after *warmup*.

    Tolerance: 20 %.  The sender follows the equation at its receiver's
    *estimate* of p, an average over 8 loss intervals whose spread is about
    25-35 % under random loss; X is convex in p, so the mean rate exceeds
    the rate at the mean p (Jensen), by a few to 10 % at these spreads;
    and the rate is capped at twice the receive rate.

    Returns
    -------
    CrossCheck
        ``quantity``: send rate [packets/s].

    References
    ----------
    RFC 5348 §3.1, §4.3, §5.
    """
    from .bounds import tfrc_rate

    runs = _rate_runs("tfrc", _check_probabilities(probabilities), _check_duration(duration),
                      warmup, _check_seeds(seeds))
    predicted = np.array([float(np.mean([tfrc_rate(pe, t) for pe, t in zip(pev, rtts)]))
                          for pev, rtts in zip(runs["event_rate"], runs["rtt"])])
    return _verdict(
        name="tfrc_equation_rate",
        claim="TFRC sends at the RFC 5348 throughput equation's rate for the loss-event rate "
              "and RTT it measures",
        source="RFC 5348 §3.1 (ctlcc.bounds.tfrc_rate)",
        quantity="send rate [packets/s]", labels=tuple(f"p={p:g}" for p in runs["p"]),
        predicted=predicted, samples=runs["rate"], tolerance=0.2 * predicted,
        tolerance_reason="20 %: the rate follows an 8-interval estimate of p (spread 25-35 %), "
                         "X convex in p (Jensen), rate capped at 2 X_recv",
        parameters=runs["parameters"],
        note="loss-event rate: " + ", ".join(f"{np.mean(x):.4g}" for x in runs["event_rate"]))


def tfrc_newreno_share(presets=("cbraa_fig2", "sttp_fig3"), duration=200.0, warmup=50.0):
    """One TFRC and one NewReno flow on a drop-tail bottleneck: TFRC's share.

    TCP-friendliness (RFC 5348 §1: "reasonably fair when competing for
    bandwidth with TCP flows"): TFRC's goodput over the pair's after
    *warmup*.  Predicted 1/2; tolerance 1/6, i.e. a throughput ratio
    within [1/2, 2]: ctlcc's reading of "reasonably fair" (the RFC gives
    no number; a factor of two is the spread of TCP flows among
    themselves on drop-tail links that Floyd et al. 2000 show).
    Deterministic runs (no random loss model), one seed.

    Parameters
    ----------
    presets : sequence of str
        Scenarios (:func:`ctlcc.sim.scenarios.preset`, two flows).
    duration, warmup : float
        [s]

    Returns
    -------
    CrossCheck
        ``quantity``: TFRC share [1].

    References
    ----------
    RFC 5348 §1; S. Floyd, M. Handley, J. Padhye, J. Widmer,
    "Equation-based congestion control for unicast applications",
    SIGCOMM 2000.
    """
    presets = check_sequence("presets", presets, _check_preset, max_length=MAX_POINTS)
    duration = _check_duration(duration)
    warmup = _check_warmup(warmup, duration)
    shares, notes = [], []
    for name in presets:
        scenario = scenarios.preset(name, protocol=["tfrc", "newreno"], n=2)
        result = run(scenario, duration, trace=True, sample_interval=0.5)
        tr = result.traces
        start = np.searchsorted(tr.time, warmup)
        got = (tr.delivered[-1] - tr.delivered[start]).astype(float)
        shares.append([got[0] / max(got.sum(), 1.0)])
        notes.append(f"{name}: TFRC {got[0]:.0f}, NewReno {got[1]:.0f} packets")
    return _verdict(
        name="tfrc_newreno_share",
        claim="a TFRC flow and a NewReno flow share a drop-tail bottleneck within a factor "
              "of two",
        source="RFC 5348 §1 (TCP-friendliness)",
        quantity="TFRC share of the pair's goodput [1]", labels=tuple(presets),
        predicted=np.full(len(presets), 0.5), samples=np.array(shares),
        tolerance=np.full(len(presets), 1 / 6),
        tolerance_reason="1/6: a goodput ratio within [1/2, 2] (ctlcc's reading of 'reasonably "
                         "fair'; RFC 5348 gives no number)",
        parameters={"presets": tuple(presets), "duration": duration, "warmup": warmup},
        note="; ".join(notes))


# --- STTP: token bucket, packet pair, alpha:beta scaling --------------------------------------

def sttp_burst_bound(n=4, duration=30.0, windows=(0.0, 0.05, 0.5, 2.0), sample_interval=0.01,
                     clocks=("ack", "timer")):
    """STTP's token bucket bounds its bursts: at most ``sigma + rho S`` in any time S.

    Scenario: Experiment 1's Fig. 3 dumbbell with *n* STTP sources started
    4 s apart (:func:`ctlcc.sim.scenarios.sttp_experiment1`).  Prediction
    (:func:`ctlcc.bounds.tokenbucket.max_burst_size`): ``S = 0``: the most
    segments released at one instant is at most the bucket depth sigma the
    sender held then (measured in the loop); ``S > 0``: segments sent in
    any window of length S at most ``sigma_max + rho_max S`` with the
    largest sigma and rho of the run (sigma = rho x 1 s: both start at the
    probed rate and scale alike), the sent counts read every
    *sample_interval*.  The bound is one-sided: a point passes when
    measured <= predicted (the tolerance column shows 0).

    With ``clock="ack"`` (the paper's experiments) tokens arrive with the
    ACKs, at the bottleneck's rate whatever rho says, so the envelope
    ``rho S`` need not hold once rho has been scaled below the ACK rate;
    ``clock="timer"`` (§V-B) feeds tokens at rho.

    Parameters
    ----------
    n : int
        Sources, in 1..50. [1]
    duration : float
        [s]
    windows : sequence of float
        Window lengths S, >= 0. [s]
    sample_interval : float
        Period of the sent-count samples, > 0. [s]
    clocks : sequence of {"ack", "timer"}

    Returns
    -------
    CrossCheck
        Per clock and window: predicted bound and largest count. [packets]

    References
    ----------
    Wade, Kara & Dew (2000), §III-B (after Tanenbaum), §V-B.
    """
    from .bounds.tokenbucket import max_burst_size
    from .sim.senders import Sttp

    n = check_positive_int("n", n, maximum=50)
    duration = _check_duration(duration)
    windows = check_sequence("windows", windows,
                             lambda name, w: check_nonnegative(name, w, scalar=True),
                             max_length=MAX_POINTS)
    sample_interval = check_interval("sample_interval", sample_interval, 0.0, duration,
                                     closed="right", scalar=True)
    clocks = check_sequence("clocks", clocks,
                            lambda name, c: check_choice(name, c, ("ack", "timer")))
    labels, predicted, measured, notes = [], [], [], []
    for clock in clocks:
        scenario = scenarios.sttp_experiment1(Sttp(clock=clock), n=n)
        result = run(scenario, duration, sample_interval=sample_interval, progress=False)
        sent, rates = result.samples.sent, result.samples.rate
        started = [j for j, st in enumerate(result.sender_state) if st["started"]]
        if len(started) < n:
            notes.append(f"{clock}: {n - len(started)} of {n} flows never started (probe lost)")
        for w in windows:
            if w == 0.0:
                worst = max(started, key=lambda j: result.sender_state[j]["max_burst"]
                            - result.sender_state[j]["burst_sigma"])
                st = result.sender_state[worst]
                predicted.append(float(max_burst_size(st["burst_sigma"], st["rho"], 0.0)))
                measured.append(float(st["max_burst"]))
                labels.append(f"{clock} clock, S = 0 (one instant), flow {worst}")
                continue
            m = max(1, int(round(w / sample_interval)))
            best, bound, count_at = -np.inf, np.nan, np.nan
            for j in started:
                if sent.shape[0] <= m:
                    break
                count = float(np.max(sent[m:, j] - sent[:-m, j]))
                rho = float(np.nanmax(rates[:, j]))
                pred = float(max_burst_size(rho * 1.0, rho, m * sample_interval))
                if count - pred > best:
                    best, bound, count_at = count - pred, pred, count
            predicted.append(bound)
            measured.append(count_at)
            labels.append(f"{clock} clock, S = {m * sample_interval:g} s")
    predicted, measured = np.array(predicted), np.array(measured)
    within = measured <= predicted
    zero = np.zeros(len(labels))
    return CrossCheck(
        "sttp_burst_bound",
        "An STTP sender lets out at most sigma + rho S segments in any time S",
        "Wade, Kara & Dew (2000), §III-B (token bucket, after Tanenbaum); "
        "ctlcc.bounds.tokenbucket.max_burst_size",
        "segments in a window of length S [packets]", tuple(labels), predicted, measured,
        zero, zero, "one-sided bound: passes when measured <= predicted", within,
        bool(np.all(within)),
        {"n": n, "duration": duration, "windows": tuple(windows),
         "sample_interval": sample_interval, "clocks": tuple(clocks)},
        "; ".join(notes + ["S > 0 rows: the worst started flow, with its largest sigma "
                           "and rho of the run"]))


def sttp_packet_pair(rates=(1e3, 32e3, 2e6, 155e6), positions=("first", "middle", "last")):
    """STTP's packet-pair estimate vs the true bottleneck rate (§III-A).

    Scenario: the paper's Fig. 2 path (:func:`ctlcc.sim.scenarios.sttp_fig2`,
    64-byte packets, the slow link at *rate*, the others at twice it), the
    slow link moved to each *position*, as the paper ran "bottleneck values
    from 1kb/s through to 155Mbps" with the bottleneck "shifted from the
    mid-point to start and end links".  Prediction: the slow link's rate
    in packets per second.  Measurement: the rate the sender's probe
    returned.  Tolerance: 2 %, the accuracy the paper reports ("within an
    accuracy of 2% in all tests").

    Parameters
    ----------
    rates : sequence of float
        Bottleneck rates, > 0. [bit/s]
    positions : sequence of {"first", "middle", "last"}

    Returns
    -------
    CrossCheck
        Per rate and position: probed rate. [packets/s]

    References
    ----------
    Wade, Kara & Dew (2000), §III-A; S. Keshav, SIGCOMM 1991.
    """
    rates = check_sequence("rates", rates,
                           lambda name, r: check_interval(name, r, 0.0, 1e12, scalar=True),
                           max_length=MAX_POINTS)
    positions = check_sequence("positions", positions,
                               lambda name, p: check_choice(name, p, ("first", "middle", "last")))
    labels, predicted, measured = [], [], []
    for rate in rates:
        for position in positions:
            scenario = scenarios.sttp_fig2(bottleneck_rate=rate, position=position)
            packet = scenario.data_bits / rate
            # both packets and their ACKs cross three links each way: within 8 slow packet
            # times plus twice the 20 ms of propagation
            result = run(scenario, 8 * packet + 0.05, progress=False)
            labels.append(f"{rate:g} bit/s, slow link {position}")
            predicted.append(rate / scenario.data_bits)
            measured.append(result.sender_state[0]["probe_rate"])
    predicted = np.array(predicted)
    return _verdict(
        name="sttp_packet_pair",
        claim="A packet pair's inter-arrival gap gives the bottleneck rate to within 2 %",
        source="Wade, Kara & Dew (2000), §III-A (after Keshav)",
        quantity="bottleneck rate [packets/s]", labels=tuple(labels), predicted=predicted,
        samples=np.array(measured)[:, None], tolerance=0.02 * predicted,
        tolerance_reason="2 %: the accuracy the paper reports for its ns runs",
        parameters={"rates": tuple(rates), "positions": tuple(positions)},
        note="idle path: the pair leaves the slow link one packet time apart and no other "
             "traffic separates it; cross traffic between the two packets lowers the estimate "
             "(see sttp_rtt_scaling's probe on the §III-B.3 run)")


def sttp_rtt_scaling(configs=("STTP 9:1", "STTP 5:5", "STTP 1:9"), duration=60.0):
    """STTP's alpha:beta law replayed on the RTTs the sender measured.

    Scenario: the §III-B.3 run (:func:`ctlcc.sim.scenarios.sttp_rtt_example`:
    a 100 kb/s CBR source from 0 to 2.5 s and an STTP source from 1 s, over
    128 kb/s links), one run per weighting.  Prediction: the validated law
    :func:`ctlcc.laws.sttp.ack_step` applied in Python to the RTT samples of
    the flow's ACKs (the trace, every ACK) from the probed bucket and the
    probe's RTT: the final sigma and the number of scalings.  Measurement:
    the sigma and count the compiled sender ended with.  Both share the
    law's core, so this checks the wiring: which samples are compared, the
    5 % band, the order of scaling and token release.  The run must be free
    of retransmissions (every sample valid under Karn's rule); a run with
    retransmissions gives NaN, a failed point.  Tolerance 1e-9 relative
    (the same float operations in the same order).

    Parameters
    ----------
    configs : sequence of str
        "STTP a:b" names (Table II's).
    duration : float
        [s]

    Returns
    -------
    CrossCheck
        Per weighting: final sigma [packets] and scalings [1].

    References
    ----------
    Wade, Kara & Dew (2000), §III-B.3 and §IV-B.1.
    """
    from .experiments.sttp import sender
    from .laws.sttp import BucketState, SttpParams, ack_step

    configs = check_sequence("configs", configs, lambda name, c: check_choice(
        name, c, ("STTP 9:1", "STTP 5:5", "STTP 1:9")))
    duration = _check_duration(duration)
    labels, predicted, measured, tolerance, notes = [], [], [], [], []
    for config in configs:
        spec = sender(config)
        result = run(scenarios.sttp_rtt_example(spec), duration, trace=True, progress=False)
        flow, state = result.flows[1], result.sender_state[1]
        rtt = result.traces.rtt
        samples = rtt[rtt[:, 1] == 1, 2]
        params = SttpParams(alpha=spec.alpha, beta=spec.beta, threshold=spec.threshold)
        bucket = BucketState(state["sigma0"], state["sigma0"], 0.0)
        last, scalings = state["probe_rtt"], 0
        for new in samples[2:]:
            bucket, scaled = ack_step(BucketState(bucket.sigma, bucket.rho, 0.0), last, new,
                                      params)
            scalings += scaled
            last = new
        clean = flow.retransmitted == 0
        predicted += [bucket.sigma, scalings]
        measured += [state["sigma"] if clean else np.nan, state["scalings"] if clean else np.nan]
        tolerance += [1e-9 * bucket.sigma, 0.0]
        labels += [f"{config}: final sigma [packets]", f"{config}: scalings [1]"]
        notes.append(f"{config}: probe {state['probe_rate'] * 8:g} kb/s, probe RTT "
                     f"{state['probe_rtt']:.3f} s, first data RTT {samples[2]:.3f} s, "
                     f"{len(samples) - 2} samples, {flow.retransmitted} retransmissions")
    return _verdict(
        name="sttp_rtt_scaling",
        claim="STTP rescales sigma and rho by alpha + beta lastRTT/newRTT whenever an RTT "
              "differs from the previous one by more than 5 %",
        source="Wade, Kara & Dew (2000), §III-B.3; ctlcc.laws.sttp.ack_step",
        quantity="final sigma [packets]; scalings [1]", labels=tuple(labels),
        predicted=np.array(predicted, dtype=float),
        samples=np.array(measured, dtype=float)[:, None], tolerance=np.array(tolerance),
        tolerance_reason="1e-9 relative: the same float operations in the same order; the "
                         "count exactly",
        parameters={"configs": tuple(configs), "duration": duration},
        note="; ".join(notes) + " (paper: probe 64 kb/s, probe RTT 0.078 s, first RTT 0.255 s)")


# --- SACK recovery vs ns-3's SACK TCP ---------------------------------------------------------

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


#: Every check the ledger can ask for: name -> (function, keyword arguments).  Two
#: claims also run just beyond their stated range (``_beyond``) to show where prediction
#: and packets part: the square-root law at p = 3e-2 and 1e-1, eq. (4.19) at p = 1e-2
#: and 2e-2 (five seeds: the thesis's own gap at 1e-2 judges the spread).
CHECKS = {
    "reno_square_root_law": ("reno_square_root_law", {}),
    "reno_square_root_law_beyond": ("reno_square_root_law", {"probabilities": (3e-2, 1e-1)}),
    "reno_pftk": ("reno_pftk", {}),
    "reno_sawtooth_utilisation": ("reno_sawtooth_utilisation", {}),
    "stpd_decay_per_rtt": ("stpd_decay", {"model": "per_rtt"}),
    "stpd_decay_per_slot": ("stpd_decay", {"model": "per_slot"}),
    "stpd_throughput_under_loss": ("stpd_throughput_under_loss", {}),
    "stpd_throughput_under_loss_beyond": ("stpd_throughput_under_loss",
                                          {"probabilities": (1e-2, 2e-2),
                                           "seeds": (0, 1, 2, 3, 4)}),
    "primo_limit_cycle": ("primo_limit_cycle", {}),
    "primo_heterogeneous_fairness": ("primo_heterogeneous_fairness", {}),
    "fluid_reno_rate": ("fluid_reno_rate", {}),
    "iftp_ideal_bandwidth": ("iftp_ideal_bandwidth", {}),
    "iftp_nonideal_bound": ("iftp_nonideal_bound", {}),
    "iftp_tcp_friendliness": ("iftp_tcp_friendliness", {}),
    "cbraa_loss_threshold": ("cbraa_loss_threshold", {}),
    "cbraa_mathis_rate": ("cbraa_mathis_rate", {}),
    "cbraa_smoothness": ("cbraa_smoothness", {}),
    "tfrc_equation_rate": ("tfrc_equation_rate", {}),
    "tfrc_newreno_share": ("tfrc_newreno_share", {}),
    "sttp_burst_bound": ("sttp_burst_bound", {}),
    "sttp_packet_pair": ("sttp_packet_pair", {}),
    "sttp_rtt_scaling": ("sttp_rtt_scaling", {}),
    "sack_vs_ns3_goodput": ("sack_vs_ns3", {"quantity": "goodput"}),
    "sack_vs_ns3_retransmitted": ("sack_vs_ns3", {"quantity": "retransmitted"}),
}


@lru_cache(maxsize=1)
def run_all():
    """The checks the claims ledger's registered units need, in :data:`CHECKS` order.

    Derived from the registry (:func:`ctlcc.claims.units`, section
    ``crosscheck``): a check no unit needs is not run.  Memoised: the
    report's ``crosscheck`` section and the ledger share one run per process.

    Returns
    -------
    tuple of CrossCheck
        Each named by its key of :data:`CHECKS`.
    """
    from dataclasses import replace

    from .claims import units

    needed = {key for u in units(section="crosscheck") for key in u.needs}
    unknown = needed - set(CHECKS)
    if unknown:
        raise ParameterError(f"claim units need cross-checks {sorted(unknown)}, which are not "
                             f"in ctlcc.crosscheck.CHECKS")
    out = []
    for name, (function, kwargs) in CHECKS.items():
        if name in needed:
            out.append(replace(globals()[function](**kwargs), name=name))
    return tuple(out)


# --- private helpers --------------------------------------------------------------------------
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


def _rate_runs(protocol, probabilities, duration, warmup, seeds):
    """Checked arguments, then the (cached) runs of one rate sender under random loss."""
    return _rate_runs_cached(protocol, probabilities, duration,
                             _check_warmup(warmup, duration), seeds)


@lru_cache(maxsize=8)
def _rate_runs_cached(protocol, probabilities, duration, warmup, seeds):
    """One rate sender alone on a 100 Mb/s, 40 ms link with Bernoulli loss p.

    Per point and seed: mean send rate after warmup [packets/s], loss ratio,
    mean RTT sample [s], coefficient of variation of the sampled sending
    rate, loss-event rate (losses more than one mean RTT apart, per packet
    sent after warmup).
    """
    keys = ("rate", "loss", "rtt", "cv", "event_rate")
    out = {k: [] for k in keys}
    for p in probabilities:
        scenario = scenarios.dumbbell(1, 10e6, 5e-3, 100e6, 40e-3, 1000, p, protocol,
                                      name=f"{protocol}_bernoulli")
        rows = {k: [] for k in keys}
        for seed in seeds:
            result = run(scenario, duration, seed=seed, trace=True, sample_interval=1.0)
            tr = result.traces
            start = np.searchsorted(tr.time, warmup)
            span = tr.time[-1] - tr.time[start]
            sent = float(tr.sent[-1, 0] - tr.sent[start, 0])
            rows["rate"].append(sent / span)
            rows["loss"].append(result.flows[0].loss_rate)
            late_rtt = tr.rtt[tr.rtt[:, 0] >= warmup, 2]
            rtt = float(np.mean(late_rtt if late_rtt.size else tr.rtt[:, 2]))
            rows["rtt"].append(rtt)
            x = tr.rate[start:, 0]
            rows["cv"].append(float(np.std(x) / np.mean(x)))
            drops = np.sort(tr.drops[(tr.drops[:, 0] >= tr.time[start]) & (tr.drops[:, 3] == 2), 0])
            events, begin = 0, -np.inf
            for t in drops:
                if t > begin + rtt:
                    events += 1
                    begin = t
            rows["event_rate"].append(events / sent)
        for k in keys:
            out[k].append(rows[k])
    out = {k: np.array(v) for k, v in out.items()}
    out["p"] = probabilities
    out["parameters"] = {"protocol": protocol, "duration": duration, "warmup": warmup,
                         "seeds": tuple(seeds), "link": "100 Mb/s 40 ms, 10 Mb/s 5 ms access",
                         "mean_rtt": tuple(np.round(out["rtt"].mean(axis=1), 4))}
    return out


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


def _iftp_windows(N, Ws, Wmax):
    """Window sizes of an ideal IFTP flow until they carry N packets (Figure 1)."""
    windows, n, total = [], 1, 0
    while total < N:
        windows.append(n)
        total += n
        n = min(2 * n, Wmax) if n < Ws else min(n + 1, Wmax)
    return windows


def _iftp_paced_ack_times(windows, R):
    """ACK time of every packet when window k starts at the last ACK of window k-1."""
    out, start = [], 0.0
    for n in windows:
        out += [start + j * R / n + R for j in range(n)]
        start = out[-1]
    return np.array(out)


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
