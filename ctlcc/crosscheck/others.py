# ctlcc.crosscheck.others - the models and standards ctlcc builds on, against its packet engine
"""The models and standards ctlcc builds on, against its packet engine.

* :func:`reno_pftk` - Reno's rate against the PFTK full model (Padhye et al.
  1998; records ``pftk-reno-pftk-*``);
* :func:`reno_sawtooth_utilisation` - a lossless Reno flow against the
  deterministic AIMD sawtooth (records ``mathis-reno-sawtooth-utilisation-*``);
* :func:`fluid_reno_rate` - the fluid Reno model against packet Reno
  (Hollot et al. 2001; records ``hollot-fluid-reno-rate-*``);
* :func:`tfrc_equation_rate`, :func:`tfrc_newreno_share` - TFRC against the
  RFC 5348 equation and beside NewReno (records ``rfc5348-*``);
* :func:`sack_vs_ns3` - the RFC 6675 SACK sender against ns-3's SACK TCP on
  the committed ns-3 runs (records ``rfc6675-sack-vs-ns3-*``).

Records in ``data/ledger_others.csv`` (consistency checks: ctlcc's senders
against the closed forms and standards they implement).

References
----------
Padhye et al. (1998); Mathis et al. (1997); Hollot et al. (2001); RFC 5348; RFC 6675.
"""

from functools import lru_cache

import numpy as np

from .._validation import check_choice, check_positive_int, check_sequence
from ..bounds import pftk_rate
from ..claims.registry import unit
from ..sim import run, scenarios
from ._base import (MAX_POINTS, _RENO_PROTOCOLS, DEFAULT_SEEDS, CrossCheck, _bottleneck_link,
                    _busy_fraction, _capacity, _check_duration, _check_preset,
                    _check_probabilities, _check_seeds, _check_warmup, _crosscheck, _path_rtt,
                    _rate_runs, _reno_runs, check_points, declare_check)

__all__ = ["reno_pftk", "reno_sawtooth_utilisation", "fluid_reno_rate", "tfrc_equation_rate",
           "tfrc_newreno_share", "sack_vs_ns3", "SACK_NS3_VARIANT"]

_CC = "crosscheck_summary; crosscheck_points; ctlcc.crosscheck."

_MAX_FLOWS = 1000            # fluid_reno_rate: flows on one dumbbell


def reno_pftk(probabilities=(1e-3, 3e-3, 1e-2, 3e-2, 1e-1), protocol="newreno", duration=60.0,
              seeds=DEFAULT_SEEDS, preset="thesis_fig4_7"):
    """Reno's send rate vs the PFTK full model (timeouts included).

    Prediction: :func:`ctlcc.bounds.pftk_rate` (PFTK'98 eq. (31)) with b = 1
    (one ACK per packet), the run's mean RTT, T0 = the scenario's minimum
    RTO (1 s: the RFC 6298 RTO srtt + 4 rttvar is below it on these
    paths) and Wmax = the largest window the path holds without overflow,
    BDP + buffer + 1; capped at the bottleneck rate.

    Judged by the records ``pftk-reno-pftk-*`` of ``data/ledger_others.csv``
    (20 % of the prediction for the model, plus twice the standard error
    of the mean over the seeds).  PFTK's own validation (their Fig. 7-12
    traces) shows the full model within roughly 30 % of measured Reno; it
    assumes losses correlated within a round (our Bernoulli losses are
    not), counts a loss indication per round, and its timeout branch uses
    Q-hat, an approximation of the chance that a loss ends in a timeout.

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
    return _crosscheck(
        name="reno_pftk",
        claim=f"{protocol} send rate follows the PFTK full model (timeouts, window limit)",
        source="Padhye et al. 1998 eq. (31)",
        quantity="send rate [packets/s]",
        labels=tuple(f"p={p:g}" for p in runs["p"]),
        predicted=predicted, samples=runs["rate"],
        parameters=runs["parameters"])


@unit("pftk-reno-pftk-*", section="crosscheck", needs=declare_check("reno_pftk", reno_pftk),
      evidence="crosscheck_reno_vs_mathis_pftk; " + _CC + "reno_pftk")
def _pftk(check):
    return check_points(check, "pftk-reno-pftk")


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

    Judged by the records ``mathis-reno-sawtooth-utilisation-*`` of
    ``data/ledger_others.csv``: 0.03 on the utilisation.  The sawtooth
    ignores the fast-recovery round (window inflation keeps a few packets
    flowing), the integer window and the overflow of more than one packet
    at the peak (a burst of two or three losses at the top of each cycle).
    The queue maximum (a hard bound of the FIFO) is reported beside it in
    ``parameters`` and ``note``.

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
    bound_ok = all(q == b for q, b in zip(queue_max, buffers))
    return _crosscheck(
        name="reno_sawtooth_utilisation",
        claim="one lossless Reno flow fills the link iff the buffer holds the BDP, else the "
              "sawtooth utilisation; the drop-tail queue peaks at exactly its buffer",
        source="deterministic AIMD sawtooth (derived in the docstring); RFC 5681",
        quantity="bottleneck utilisation after warm-up [1]",
        labels=tuple(labels), predicted=predicted, samples=measured[:, None],
        parameters={"presets": tuple(presets), "protocol": protocol, "duration": duration,
                    "warmup": warmup, "queue_max": tuple(queue_max), "buffer": tuple(buffers)},
        note="queue max = buffer: " + ", ".join(
            f"{q}/{b}" for q, b in zip(queue_max, buffers))
        + ("" if bound_ok else " (a queue maximum is not its buffer)"))


@unit("mathis-reno-sawtooth-utilisation-*", section="crosscheck",
      needs=declare_check("reno_sawtooth_utilisation", reno_sawtooth_utilisation),
      evidence=_CC + "reno_sawtooth_utilisation")
def _sawtooth(check):
    return check_points(check, "mathis-reno-sawtooth-utilisation")


def fluid_reno_rate(probabilities=(3e-3, 1e-2, 3e-2), n=4, protocol="newreno", duration=60.0,
                    warmup=10.0, seeds=DEFAULT_SEEDS):
    """Fluid Reno (Misra-Gong-Towsley form) vs packet Reno on a dumbbell.

    Scenario: n flows, 100 Mb/s 1 ms access links, a 10 Mb/s 40 ms
    bottleneck with a 200-packet drop-tail buffer, Bernoulli loss p on the
    bottleneck (the packet simulator) and the same p as a fixed marking
    probability (:class:`ctlcc.sim.fluid.FixedMarking`, the fluid model),
    C and the round-trip propagation delay computed from the links.
    Compared: the mean send rate of a flow over ``[warmup, duration]``.

    Judged by the records ``hollot-fluid-reno-rate-*`` of
    ``data/ledger_others.csv`` (10 % of the fluid rate, plus twice the
    standard error of the mean over the seeds).  The fluid model is the
    mean-value equation of AIMD: its decrease term W x p / 2 is quadratic
    in W, so it fixes E[W]^2 where packets fix E[W^2]; a window with
    coefficient of variation cv has a mean lower by 1/sqrt(1 + cv^2) (3-7 %
    for cv 0.25-0.4); fast-recovery rounds and timeouts (absent from the
    fluid) cost a few percent more at p <= 1e-2.

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
    from ..sim import fluid

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
    return _crosscheck(
        name="fluid_reno_rate",
        claim=f"the fluid Reno model predicts the mean send rate of {n} packet {protocol} flows "
              "under random loss",
        source="Misra-Gong-Towsley 2000 / Hollot et al. 2001 fluid Reno (ctlcc.sim.fluid)",
        quantity="send rate per flow [packets/s]",
        labels=tuple(f"p={p:g}" for p in probabilities),
        predicted=predicted, samples=np.array(samples),
        parameters={"n": n, "protocol": protocol, "duration": duration, "warmup": warmup,
                    "seeds": tuple(seeds), "fluid_dt": 1e-3,
                    "mean_queue_fluid_packets": tuple(queues)},
        note="mean queue fluid/packets [packets]: " + ", ".join(
            f"{f:.1f}/{q:.1f}" for f, q in queues))


@unit("hollot-fluid-reno-rate-*", section="crosscheck",
      needs=declare_check("fluid_reno_rate", fluid_reno_rate), evidence=_CC + "fluid_reno_rate")
def _fluid_rate(check):
    return check_points(check, "hollot-fluid-reno-rate")


def tfrc_equation_rate(probabilities=(2e-3, 5e-3, 1e-2, 3e-2), duration=200.0, warmup=50.0,
                       seeds=DEFAULT_SEEDS):
    """TFRC's rate vs the RFC 5348 equation at the loss-event rate and RTT it measured.

    Scenario of :func:`cbraa_loss_threshold` with a TFRC flow.  Predicted:
    :func:`ctlcc.bounds.tfrc_rate` (t_RTO = 4 R, b = 1) at the mean RTT of
    its feedback and the loss-event rate after *warmup*: losses (from the
    drop log) grouped into events, a loss more than one mean RTT after the
    first loss of the current event starting a new one (§5.2), divided by
    the packets sent.  Measured: the mean send rate after *warmup*.

    Judged by the records ``rfc5348-tfrc-equation-rate-*`` of
    ``data/ledger_others.csv`` (20 %, plus twice the standard error of the
    mean over the seeds).  The sender follows the equation at its receiver's
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
    from ..bounds import tfrc_rate

    runs = _rate_runs("tfrc", _check_probabilities(probabilities), _check_duration(duration),
                      warmup, _check_seeds(seeds))
    predicted = np.array([float(np.mean([tfrc_rate(pe, t) for pe, t in zip(pev, rtts)]))
                          for pev, rtts in zip(runs["event_rate"], runs["rtt"])])
    return _crosscheck(
        name="tfrc_equation_rate",
        claim="TFRC sends at the RFC 5348 throughput equation's rate for the loss-event rate "
              "and RTT it measures",
        source="RFC 5348 §3.1 (ctlcc.bounds.tfrc_rate)",
        quantity="send rate [packets/s]", labels=tuple(f"p={p:g}" for p in runs["p"]),
        predicted=predicted, samples=runs["rate"],
        parameters=runs["parameters"],
        note="loss-event rate: " + ", ".join(f"{np.mean(x):.4g}" for x in runs["event_rate"]))


@unit("rfc5348-tfrc-equation-rate-*", section="crosscheck",
      needs=declare_check("tfrc_equation_rate", tfrc_equation_rate),
      evidence=_CC + "tfrc_equation_rate")
def _tfrc_rate(check):
    return check_points(check, "rfc5348-tfrc-equation-rate")


def tfrc_newreno_share(presets=("cbraa_fig2", "sttp_fig3"), duration=200.0, warmup=50.0):
    """One TFRC and one NewReno flow on a drop-tail bottleneck: TFRC's share.

    TCP-friendliness (RFC 5348 §1: "reasonably fair when competing for
    bandwidth with TCP flows"): TFRC's goodput over the pair's after
    *warmup*.  Predicted 1/2; judged by the records
    ``rfc5348-tfrc-newreno-share-*`` of ``data/ledger_others.csv``: within
    1/6, i.e. a throughput ratio within [1/2, 2], ctlcc's reading of
    "reasonably fair" (the RFC gives no number; a factor of two is the
    spread of TCP flows among themselves on drop-tail links that Floyd et
    al. 2000 show).
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
    return _crosscheck(
        name="tfrc_newreno_share",
        claim="a TFRC flow and a NewReno flow share a drop-tail bottleneck within a factor "
              "of two",
        source="RFC 5348 §1 (TCP-friendliness)",
        quantity="TFRC share of the pair's goodput [1]", labels=tuple(presets),
        predicted=np.full(len(presets), 0.5), samples=np.array(shares),
        parameters={"presets": tuple(presets), "duration": duration, "warmup": warmup},
        note="; ".join(notes))


@unit("rfc5348-tfrc-newreno-share-*", section="crosscheck",
      needs=declare_check("tfrc_newreno_share", tfrc_newreno_share),
      evidence=_CC + "tfrc_newreno_share")
def _tfrc_share(check):
    return check_points(check, "rfc5348-tfrc-newreno-share")


#: ns-3 configuration compared with the "sack" sender, per family: SACK with
#: classic recovery (no PRR) and limited transmit where it was run, else ns-3's
#: default (SACK + PRR + limited transmit).
SACK_NS3_VARIANT = {"fig3_7": "classic", "loss": "classic", "dumbbell": "default"}


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

    Judged by the records ``rfc6675-sack-vs-ns3-goodput-*`` and
    ``rfc6675-sack-vs-ns3-retransmitted-*`` of ``data/ledger_others.csv``,
    whose tolerances were fixed before the comparison: goodput 10 %
    (congestion-only losses) and 20 % (random loss), issue 6's targets for
    ctlcc vs ns-3
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
    its timeouts (not traced further); the declared tolerance is not
    widened for it.

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
    from ..sim.ns3 import COMPARISON_FAMILIES

    quantity = check_choice("quantity", quantity, ("goodput", "retransmitted"))
    families = check_sequence("families", families,
                              lambda name, f: check_choice(name, f, COMPARISON_FAMILIES),
                              min_length=1, max_length=3)
    labels, predicted, samples, parameters, drops = [], [], [], {}, []
    column = "goodput_bps" if quantity == "goodput" else "retransmitted"
    for family in families:
        points = _sack_ns3_runs(family)
        for label, (ns3_values, ctlcc_values) in points.items():
            labels.append(f"{family} {label}")
            predicted.append(float(np.mean(ns3_values[column])))
            samples.append(ctlcc_values[column])
            drops.append(np.mean(ctlcc_values["dropped"]) / np.mean(ns3_values["dropped"]))
        parameters[family] = SACK_NS3_VARIANT[family]
    # the families hold 1, 5 and 2 seeds per point: mean and spread per point
    measured = np.array([np.mean(row) for row in samples])
    spread = np.array([np.std(row, ddof=1) if len(row) > 1 else 0.0 for row in samples])
    predicted = np.array(predicted)
    what = "total goodput [bit/s]" if quantity == "goodput" else "retransmitted [segments]"
    return CrossCheck(
        name=f"sack_vs_ns3_{quantity}",
        claim=f"ctlcc's RFC 6675 SACK sender matches ns-3's SACK TCP in {quantity}",
        source="RFC 6675; ns-3.44 TcpNewReno with SACK (data/ns3_*.csv)",
        quantity=what, labels=tuple(labels), predicted=predicted, measured=measured,
        spread=spread,
        parameters={"families": tuple(families), "ns3_variant": parameters,
                    "sender": "Sack(limited_transmit=True)"},
        note="ctlcc / ns-3: " + ", ".join(
            f"{lab} {m / q:.2f}" for lab, m, q in zip(labels, measured, predicted))
        + "; packets dropped, ctlcc / ns-3: " + ", ".join(
            f"{lab} {d:.2f}" for lab, d in zip(labels, drops)))


@unit("rfc6675-sack-vs-ns3-goodput-*", section="crosscheck",
      needs=declare_check("sack_vs_ns3_goodput", sack_vs_ns3, quantity="goodput"),
      evidence=_CC + "sack_vs_ns3")
def _sack_goodput(check):
    return check_points(check, "rfc6675-sack-vs-ns3-goodput")


@unit("rfc6675-sack-vs-ns3-retransmitted-*", section="crosscheck",
      needs=declare_check("sack_vs_ns3_retransmitted", sack_vs_ns3, quantity="retransmitted"),
      evidence=_CC + "sack_vs_ns3")
def _sack_retransmitted(check):
    return check_points(check, "rfc6675-sack-vs-ns3-retransmitted")


# --- private helpers ----------------------------------------------------------------------

@lru_cache(maxsize=4)
def _sack_ns3_runs(family):
    """{label: (ns-3 columns over seeds, ctlcc columns over seeds)} of one family."""
    from ..sim.ns3 import comparison_cases, read_ns3_csv
    from ..sim.senders import Sack

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


def _sawtooth_utilisation(bdp, wmax):
    w0 = wmax / 2.0
    if w0 >= bdp:
        return 1.0
    t1 = bdp - w0
    n1 = (w0 + bdp) * t1 / 2.0
    t2 = (bdp + wmax) * (wmax - bdp) / (2.0 * bdp)
    n2 = bdp * t2
    return (n1 + n2) / (bdp * (t1 + t2))
