# ctlcc.crosscheck.iftp - IFTP's bandwidth formulas and its friendliness against the packet engine
"""IFTP (ElAarag & Bassiouni 2002) against the packet engine.

* :func:`iftp_ideal_bandwidth` - theta(N) of eqs. (10)-(20) against lossless
  transfers, beside the timing Figure 1's paced windows have (records
  ``iftp-eq20-ideal-bandwidth`` and
  ``iftp-ideal-bandwidth-*-figure-1-paced-timing-*``);
* :func:`iftp_nonideal_bound` - eq. (26)'s bound under random loss (record
  ``iftp-eq26-bound-sim``);
* :func:`iftp_tcp_friendliness` - one IFTP and one Reno flow sharing a
  bottleneck (the paper's §6.1 records are judged on the simulation study,
  :mod:`ctlcc.claims.iftp_sim`; this function has no record of its own).

Records in ``data/ledger_iftp.csv``.

References
----------
ElAarag & Bassiouni (2002), §4 Figure 1, §5.1 eqs. (10)-(20), §5.2 eqs. (21)-(26), §6.1.
"""

import numpy as np

from .._validation import check_choice, check_positive_int, check_sequence
from ..bounds import iftp as iftp_bounds
from ..claims._common import slug
from ..claims.registry import Measurement, unit
from ..sim import run, scenarios
from ._base import (_check_duration, check_point, _check_probabilities, _check_seeds,
                    _check_warmup, _crosscheck, declare_check, DEFAULT_SEEDS, MAX_POINTS,
                    _path_rtt)

__all__ = ["iftp_ideal_bandwidth", "iftp_nonideal_bound", "iftp_tcp_friendliness"]


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

    Judged by the records ``iftp-eq20-ideal-bandwidth`` (the paper's
    prediction against the printed pseudocode's sender, worst N) and
    ``iftp-ideal-bandwidth-*-figure-1-paced-timing-*`` (one per N) of
    ``data/ledger_iftp.csv``: 2 % of the prediction.  The run is
    deterministic and every RTT equals R to the transmission times the
    prediction includes; 2 % covers the integer sequence numbers' rounding
    at small N.

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
    from ..sim.senders import Iftp

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
    return _crosscheck(
        name="iftp_ideal_bandwidth",
        claim="an ideal (lossless) IFTP transfer of N packets reaches theta(N) = N P / (k(N) R)",
        source="ElAarag & Bassiouni (2002), eqs. (10)-(20); Figure 1",
        quantity="theta [packets/s]",
        labels=tuple(labels), predicted=predicted, samples=np.array(measured)[:, None],
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


# ledger: eqs. (10)-(20) against the printed sender (a paper record, worst N), and ctlcc's
# model of Figure 1's timing against the same runs (consistency, one record per N)

_IDEAL = "iftp_fig3_bandwidth_rtt_vs_n; crosscheck_summary; crosscheck_points; " \
         "ctlcc.crosscheck.iftp_ideal_bandwidth"


@unit("iftp-eq20-ideal-bandwidth", "iftp-ideal-bandwidth-*-figure-1-paced-timing-*",
      section="crosscheck", needs=declare_check("iftp_ideal_bandwidth", iftp_ideal_bandwidth),
      evidence=_IDEAL)
def _ideal_bandwidth(check):
    paper = [i for i, lab in enumerate(check.labels) if "vs pacing='figure1'" in lab
             and lab.split(": ")[1].startswith("eqs.")]
    continuous = [i for i, lab in enumerate(check.labels) if "pacing='continuous'" in lab]
    timing = [i for i, lab in enumerate(check.labels) if "Figure 1 paced timing" in lab]
    rel = check.measured[paper] / check.predicted[paper] - 1
    k = int(np.argmax(np.abs(rel)))
    rel_cont = check.measured[continuous] / check.predicted[continuous] - 1
    n_values = [lab.split(":")[0] for lab in np.array(check.labels)[paper]]
    out = {"iftp-eq20-ideal-bandwidth": Measurement(
        value=float(rel[k]),
        reason=("simulated theta / eqs. (10)-(19) - 1 with Transmit_Window as printed "
                "(pacing='figure1'): " + ", ".join(f"{n} {r:+.1%}" for n, r in zip(n_values, rel))
                + f" (worst {n_values[k]}); {check.note}"),
        other_evidence="with the sweep continuing at the gap until the next window "
                       "(pacing='continuous'): " + ", ".join(
                           f"{n} {r:+.1%}" for n, r in zip(n_values, rel_cont)))}
    for i in timing:
        out[f"iftp-ideal-bandwidth-{slug(check.labels[i])}"] = check_point(check, i)
    return out


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

    Judged by the record ``iftp-eq26-bound-sim`` of
    ``data/ledger_iftp.csv``: one-sided, the largest measured / bound of
    the printed sender (``pacing="figure1"``) at most 1, plus twice the
    standard error of its mean over the seeds.  The note gives the ratio
    to eq. (25)'s exact mean window too.

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
    from ..sim.senders import Iftp
    from ..sim.senders.iftp import PACINGS

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
    mean = np.array(samples).mean(axis=1)
    note = ("measured / eq. (26): " + ", ".join(f"{m / q:.2f}" for m, q in zip(mean, predicted))
            + "; / eq. (25) exact mean window: "
            + ", ".join(f"{m / q:.2f}" for m, q in zip(mean, exact))
            + "; loss reactions / timeouts per run: "
            + ", ".join(f"{a:.0f}/{b:.0f}" for a, b in zip(losses, timeouts))
            + ". pacing='figure1' stays about half below the bound: its paced periods last "
              "(2n - 1) R / n (see iftp_ideal_bandwidth); timeouts restart at n = 1")
    return _crosscheck(
        name="iftp_nonideal_bound",
        claim="an IFTP flow under packet loss p sends at most sqrt(3/2) P / (R sqrt(p))",
        source="ElAarag & Bassiouni (2002), eq. (26)",
        quantity="send rate [packets/s]",
        labels=tuple(labels),
        predicted=predicted, samples=np.array(samples),
        parameters={"duration": duration, "warmup": warmup, "seeds": tuple(seeds),
                    "pacings": tuple(pacings)},
        note=note)


# ledger: eq. (26) as a bound on the printed sender (a paper record)

@unit("iftp-eq26-bound-sim", section="crosscheck",
      needs=declare_check("iftp_nonideal_bound", iftp_nonideal_bound),
      evidence="crosscheck_summary; crosscheck_points; ctlcc.crosscheck.iftp_nonideal_bound")
def _nonideal_bound(check):
    """Eq. (26) as a bound on ctlcc's IFTP under random loss: the largest measured/bound."""
    printed = [i for i, lab in enumerate(check.labels) if "pacing='figure1'" in lab]
    other = [i for i, lab in enumerate(check.labels) if "pacing='continuous'" in lab]
    ratios = check.measured / check.predicted
    k = max(printed, key=lambda i: ratios[i])
    point = check_point(check, k)
    return Measurement(
        value=float(ratios[k]), seeds=point.seeds,
        spread=None if point.spread is None else float(point.spread / check.predicted[k]),
        reason=("send rate / eq. (26) with Transmit_Window as printed: " + ", ".join(
            f"{check.labels[i].split(',')[0]}: {ratios[i]:.2f}" for i in printed)
            + f" (the largest at {check.labels[k].split(',')[0]}); {check.note}"),
        other_evidence="with pacing='continuous': " + ", ".join(
            f"{check.labels[i].split(',')[0]}: {ratios[i]:.2f}" for i in other))


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

    The paper's §6.1 claim is judged once, on the simulation study (record
    ``iftp-fig6-fair-share`` of ``data/ledger_iftp.csv``, whose other
    evidence cites these two-flow runs).  FCFS drop-tail sharing of two
    flows moves by about 5 % with the phase of their losses.

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
    from ..sim.senders import Iftp
    from ..sim.senders.iftp import PACINGS

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
    return _crosscheck(
        name="iftp_tcp_friendliness",
        claim="IFTP and TCP Reno share one FCFS drop-tail bottleneck almost equally",
        source="ElAarag & Bassiouni (2002), §6.1, Figure 6",
        quantity="IFTP share of the delivered packets [1]",
        labels=tuple(f"B={bottleneck_rate / 1e6:g} Mb/s, pacing={p!r}" for p in pacings),
        predicted=np.full(len(pacings), 0.5),
        samples=np.array(shares),
        parameters={"duration": duration, "warmup": warmup, "seeds": tuple(seeds),
                    "bottleneck_rate": bottleneck_rate, "pacings": tuple(pacings)},
        note="IFTP share per seed: " + "; ".join(
            f"{p}: " + ", ".join(f"{x:.2f}" for x in row) for p, row in zip(pacings, shares)))


# --- private helpers ----------------------------------------------------------------------

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
