# ctlcc.crosscheck.stpd - ST-PD's loop models against ctlcc's packet engine
"""ST-PD (Xu 2002): the loop models of §4.3 against the packet engine.

* :func:`stpd_decay` - the window transient's decay per round trip against
  the per-RTT loop and the thesis's per-slot loop (records
  ``stpd-decay-per-rtt-*``, ``stpd-decay-per-slot-*``);
* :func:`stpd_throughput_under_loss` - eq. (4.19) against simulated
  utilisation (records ``stpd-eq4.19-agrees-below-p-0.01`` and
  ``stpd-eq4.19-above-simulation-p-0.01``).

Each check is followed by the unit(s) that turn its points into the
measurements of those records (``data/ledger_stpd.csv``, where their
tolerances and verdict rules are declared).

References
----------
Xu (2002), eqs. (3.3)-(3.5), (4.1)-(4.11), (4.19), §4.3.3.
"""

import numpy as np

from .._validation import check_choice, check_nonnegative_int, check_positive_int, check_sequence
from ..analysis import stpd_loop
from ..claims.registry import Measurement, unit
from ..errors import ParameterError
from ..laws.stpd_fuzzy import CALIBRATIONS
from ..sim import run, scenarios
from ._base import (_busy_fraction, _capacity, _check_duration, _check_gains, check_point,
                    check_points, _check_preset, _check_probabilities, _check_seeds, _crosscheck,
                    declare_check, DEFAULT_SEEDS, MAX_POINTS, _path_rtt)

__all__ = ["stpd_decay", "stpd_throughput_under_loss"]

_MAX_SLOTS = 10_000          # stpd_throughput_under_loss: m slots of 5.3 ms, under a minute
_MAX_EXCESS = 4096           # stpd_decay: the packet engine's largest window


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

    Judged by the records ``stpd-decay-per-rtt-*`` and
    ``stpd-decay-per-slot-*`` of ``data/ledger_stpd.csv`` (0.01 on the
    factor per round trip: for the thesis's gains r = 0.976, a time
    constant of 41 +- 17 round trips).  Where the fit and the model part:
    the fit spans about two time constants of an integer-valued queue; the
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
    return _crosscheck(
        name=f"stpd_decay_{model}",
        claim=f"ST-PD's window transient decays per round trip as the {model} loop predicts "
              f"(kp={kp}, kd={kd})",
        source="Xu (2002), eqs. (3.3)-(3.5), (4.1)-(4.11)",
        quantity="window decay factor per round trip [1]",
        labels=tuple(labels), predicted=predicted, samples=np.array(measured)[:, None],
        parameters={"presets": tuple(presets), "gains": (kp, kd), "model": model,
                    "duration": duration, "excess": excess, "m": tuple(bdps), "buffer": 100,
                    "curves": tuple(curves)},
        note="per_slot radius^m > 1 predicts a growing oscillation; packets settle"
        if model == "per_slot" else "")


# ledger: each point is a record of ``data/ledger_stpd.csv`` (model target)

_DECAY_EVIDENCE = ("crosscheck_stpd_decay_per_rtt_vs_per_slot; crosscheck_summary; "
                   "crosscheck_points; ctlcc.crosscheck.stpd_decay")


@unit("stpd-decay-per-rtt-*", section="crosscheck",
      needs=declare_check("stpd_decay_per_rtt", stpd_decay, model="per_rtt"),
      evidence=_DECAY_EVIDENCE)
def _decay_per_rtt(check):
    return check_points(check, "stpd-decay-per-rtt")


@unit("stpd-decay-per-slot-*", section="crosscheck",
      needs=declare_check("stpd_decay_per_slot", stpd_decay, model="per_slot"),
      evidence=_DECAY_EVIDENCE)
def _decay_per_slot(check):
    return check_points(check, "stpd-decay-per-slot")


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

    Judged by the records ``stpd-eq4.19-agrees-below-p-0.01`` (the
    simulated deficit 1 - throughput against the predicted one) and
    ``stpd-eq4.19-above-simulation-p-0.01`` (the run at p = 1e-2 and
    2e-2) of ``data/ledger_stpd.csv``.  The thesis claims agreement for
    p < 1e-2 without a number; eq. (4.19) models a loss as a
    one-round-trip dip of the measured occupancy and ignores timeouts (a
    lost retransmission), which cost a 1 s minimum RTO.

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
    return _crosscheck(
        name="stpd_throughput_under_loss",
        claim="eq. (4.19)'s normalised throughput matches simulation for p < 1e-2",
        source="Xu (2002), eq. (4.19), §4.3.3",
        quantity="normalised throughput [1]",
        labels=tuple(f"p={p:g}" for p in probabilities),
        predicted=predicted, samples=np.array(samples),
        parameters={"gains": (kp, kd), "m": m, "bottleneck_delay": delay,
                    "duration": duration, "seeds": tuple(seeds), "warmup": 10.0,
                    "timeouts": tuple(timeouts)},
        note="mean timeouts per run: " + ", ".join(f"{t:.1f}" for t in timeouts))


# ledger: eq. (4.19) below p = 1e-2 and, with five seeds, just beyond it (the thesis's own
# gap at 1e-2 judges the spread)

_EQ419_EVIDENCE = ("crosscheck_summary; crosscheck_points; "
                   "ctlcc.crosscheck.stpd_throughput_under_loss")


@unit("stpd-eq4.19-agrees-below-p-0.01", section="crosscheck",
      needs=declare_check("stpd_throughput_under_loss", stpd_throughput_under_loss),
      evidence=_EQ419_EVIDENCE)
def _eq4_19_agrees(check):
    """The worst point's simulated/predicted throughput deficit (1 - throughput)."""
    deficits = 1.0 - check.predicted
    n = len(check.parameters["seeds"])
    ratios = (1.0 - check.measured) / deficits
    stderr = check.spread / deficits / np.sqrt(n)
    # the point farthest outside: |r - 1| beyond twice its standard error
    i = int(np.argmax(np.abs(ratios - 1.0) - 2.0 * stderr))
    per_point = ", ".join(f"{lab}: {r:.2f} +- {s:.2f}"
                          for lab, r, s in zip(check.labels, ratios, stderr))
    base = check_point(check, i)
    return Measurement(
        value=float(ratios[i]), seeds=base.seeds,
        spread=float(check.spread[i] / deficits[i]),
        reason=(f"worst point {check.labels[i]}: simulated throughput "
                f"{check.measured[i]:.4f} against eq. (4.19)'s {check.predicted[i]:.4f}; "
                f"deficit ratio (1 - simulated)/(1 - predicted) per point: {per_point} "
                f"(+- its standard error); {check.note}"))


@unit("stpd-eq4.19-above-simulation-p-0.01", section="crosscheck",
      needs=declare_check("stpd_throughput_under_loss_beyond", stpd_throughput_under_loss,
                          probabilities=(1e-2, 2e-2), seeds=(0, 1, 2, 3, 4)),
      evidence=_EQ419_EVIDENCE)
def _eq4_19_above_simulation(check):
    """Gap eq. (4.19) - simulated throughput at p = 1e-2 (the thesis's own gap: 0.9654 - 0.94)."""
    i = [k for k, label in enumerate(check.labels) if label == "p=0.01"][0]
    point = check_point(check, i)
    gaps = check.predicted - check.measured
    return Measurement(
        value=float(gaps[i]), seeds=point.seeds, spread=point.spread,
        reason=(f"eq. (4.19) {check.predicted[i]:.4f} - simulated {check.measured[i]:.4f} at "
                f"p = 1e-2: ctlcc's packets lose throughput to timeouts after lost "
                f"retransmissions ({check.note})"),
        other_evidence=("gap at " + ", ".join(f"{lab}: {g:.3f}"
                                              for lab, g in zip(check.labels, gaps))
                        + " (the thesis: the gap grows with p)"))


# --- private helpers ----------------------------------------------------------------------

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


def _stpd_fixed(kp, kd):
    """ST-PD with fixed gains and the per-round-trip readings the loop models assume."""
    from dataclasses import replace

    from ..sim.senders import Stpd

    return replace(Stpd.legacy(), gains=(float(kp), float(kd)))
