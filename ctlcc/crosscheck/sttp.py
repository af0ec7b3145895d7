# ctlcc.crosscheck.sttp - STTP's token bucket, packet pair and alpha:beta law against the packet engine
"""STTP (Wade, Kara & Dew 2000) against the packet engine.

* :func:`sttp_burst_bound` - the token bucket's bound ``sigma + rho S`` on
  the bursts the sender lets out (records ``sttp-burst-bound-*``);
* :func:`sttp_packet_pair` - the packet-pair estimate against the true
  bottleneck rate (record ``sttp-3a-packet-pair-accuracy``);
* :func:`sttp_rtt_scaling` - the alpha:beta law replayed on the RTTs the
  sender measured, against the bucket it ended with (records
  ``sttp-rtt-scaling-*``, a wiring check).

Records in ``data/ledger_sttp.csv``.

References
----------
Wade, Kara & Dew (2000), §III-A, §III-B, §III-B.3, §IV-B.1, §V-B.
"""

import numpy as np

from .._validation import (check_choice, check_interval, check_nonnegative, check_positive_int,
                           check_sequence)
from ..claims.registry import Measurement, unit
from ..sim import run, scenarios
from ._base import (MAX_POINTS, CrossCheck, _check_duration, _crosscheck, check_points,
                    declare_check)

__all__ = ["sttp_burst_bound", "sttp_packet_pair", "sttp_rtt_scaling"]

_CC = "crosscheck_summary; crosscheck_points; ctlcc.crosscheck."


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
    *sample_interval*.  The bound is one-sided: judged by the records
    ``sttp-burst-bound-*`` of ``data/ledger_sttp.csv``, each point
    reproduced iff measured <= predicted (an exact threshold).

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
    from ..bounds.tokenbucket import max_burst_size
    from ..sim.senders import Sttp

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
    return CrossCheck(
        "sttp_burst_bound",
        "An STTP sender lets out at most sigma + rho S segments in any time S",
        "Wade, Kara & Dew (2000), §III-B (token bucket, after Tanenbaum); "
        "ctlcc.bounds.tokenbucket.max_burst_size",
        "segments in a window of length S [packets]", tuple(labels), predicted, measured,
        np.zeros(len(labels)),
        {"n": n, "duration": duration, "windows": tuple(windows),
         "sample_interval": sample_interval, "clocks": tuple(clocks)},
        "; ".join(notes + ["S > 0 rows: the worst started flow, with its largest sigma "
                           "and rho of the run"]))


@unit("sttp-burst-bound-*", section="crosscheck",
      needs=declare_check("sttp_burst_bound", sttp_burst_bound),
      evidence=_CC + "sttp_burst_bound")
def _burst_bound(check):
    return check_points(check, "sttp-burst-bound")


def sttp_packet_pair(rates=(1e3, 32e3, 2e6, 155e6), positions=("first", "middle", "last")):
    """STTP's packet-pair estimate vs the true bottleneck rate (§III-A).

    Scenario: the paper's Fig. 2 path (:func:`ctlcc.sim.scenarios.sttp_fig2`,
    64-byte packets, the slow link at *rate*, the others at twice it), the
    slow link moved to each *position*, as the paper ran "bottleneck values
    from 1kb/s through to 155Mbps" with the bottleneck "shifted from the
    mid-point to start and end links".  Prediction: the slow link's rate
    in packets per second.  Measurement: the rate the sender's probe
    returned.  Judged by the record ``sttp-3a-packet-pair-accuracy`` of
    ``data/ledger_sttp.csv``: the largest relative error within 2 %, the
    accuracy the paper reports ("within an accuracy of 2% in all tests").

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
    return _crosscheck(
        name="sttp_packet_pair",
        claim="A packet pair's inter-arrival gap gives the bottleneck rate to within 2 %",
        source="Wade, Kara & Dew (2000), §III-A (after Keshav)",
        quantity="bottleneck rate [packets/s]", labels=tuple(labels), predicted=predicted,
        samples=np.array(measured)[:, None],
        parameters={"rates": tuple(rates), "positions": tuple(positions)},
        note="idle path: the pair leaves the slow link one packet time apart and no other "
             "traffic separates it; cross traffic between the two packets lowers the estimate "
             "(see sttp_rtt_scaling's probe on the §III-B.3 run)")


@unit("sttp-3a-packet-pair-accuracy", section="crosscheck",
      needs=declare_check("sttp_packet_pair", sttp_packet_pair),
      evidence=_CC + "sttp_packet_pair")
def _packet_pair_accuracy(check):
    rel = np.abs(check.measured / check.predicted - 1)
    k = int(np.argmax(rel))
    return Measurement(value=float(rel[k]),
                       reason=f"largest |probed / true - 1| over {len(rel)} cases (rates "
                              f"1 kb/s .. 155 Mb/s, slow link first, middle, last): "
                              f"{rel[k]:.2e} at {check.labels[k]}; {check.note}")


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
    retransmissions gives NaN, a failed point.  Judged by the records
    ``sttp-rtt-scaling-*`` of ``data/ledger_sttp.csv``: the sigma to 1e-9
    relative (the same float operations in the same order), the count
    exactly.

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
    from ..experiments.sttp import sender
    from ..laws.sttp import BucketState, SttpParams, ack_step

    configs = check_sequence("configs", configs, lambda name, c: check_choice(
        name, c, ("STTP 9:1", "STTP 5:5", "STTP 1:9")))
    duration = _check_duration(duration)
    labels, predicted, measured, notes = [], [], [], []
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
        labels += [f"{config}: final sigma [packets]", f"{config}: scalings [1]"]
        notes.append(f"{config}: probe {state['probe_rate'] * 8:g} kb/s, probe RTT "
                     f"{state['probe_rtt']:.3f} s, first data RTT {samples[2]:.3f} s, "
                     f"{len(samples) - 2} samples, {flow.retransmitted} retransmissions")
    return _crosscheck(
        name="sttp_rtt_scaling",
        claim="STTP rescales sigma and rho by alpha + beta lastRTT/newRTT whenever an RTT "
              "differs from the previous one by more than 5 %",
        source="Wade, Kara & Dew (2000), §III-B.3; ctlcc.laws.sttp.ack_step",
        quantity="final sigma [packets]; scalings [1]", labels=tuple(labels),
        predicted=np.array(predicted, dtype=float),
        samples=np.array(measured, dtype=float)[:, None],
        parameters={"configs": tuple(configs), "duration": duration},
        note="; ".join(notes) + " (paper: probe 64 kb/s, probe RTT 0.078 s, first RTT 0.255 s)")


@unit("sttp-rtt-scaling-*", section="crosscheck",
      needs=declare_check("sttp_rtt_scaling", sttp_rtt_scaling),
      evidence=_CC + "sttp_rtt_scaling")
def _rtt_scaling(check):
    return check_points(check, "sttp-rtt-scaling")
