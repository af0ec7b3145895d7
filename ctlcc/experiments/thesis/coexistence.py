# ctlcc.experiments.thesis.coexistence - ST-PD sharing a bottleneck queue with Reno (§6)
"""The thesis's coexistence experiment (Xu 2002, §6, Figs. 6.1-6.6).

:func:`mixed_reno` runs ST-PD beside one and two Reno connections on the
Fig. 6.1 dumbbell (:func:`fig6_1`), then with a uniform loss on the shared
link (Fig. 6.3) or on ST-PD's own access link (Fig. 6.5); the units after it
measure the records ``stpd-fig.6.2-*`` ... ``stpd-fig.6.6-*`` of
``data/ledger_stpd.csv`` and two of §6's sentences (Reno beside ST-PD against
beside Reno; S2D2's error rate on the shared lossy link).  Two runs the
thesis does not make but §6's sentences call for follow:
:func:`separate_bottlenecks` (Reno and ST-PD that share no bottleneck
queue) and :func:`mixed_reno_loss_sweep` (S2D2's gain from ST-PD against
the loss rate).

References
----------
Xu (2002), §6, Figs. 6.1-6.6.
"""

import math
from dataclasses import dataclass, field, replace

import numpy as np

from ...claims.registry import Measurement
from ...errors import ParameterError
from ...references import cite
from ...sim import scenarios
from ...sim.scenarios import Bernoulli
from ..._validation import check_positive
from .. import _args
from .._args import checked
from ._common import (FULL, NS2_PACKETS, QUICK, ThesisRun, _check_seeds, _ev, _run, experiment,
                      thesis_unit)

__all__ = ["MixedRenoResult", "SeparateBottlenecksResult", "MixedRenoSweepResult", "fig6_1",
           "mixed_reno", "separate_bottlenecks", "mixed_reno_loss_sweep"]


@dataclass(frozen=True)
class MixedRenoResult:
    """Figs. 6.2-6.6: ST-PD and Reno sharing a bottleneck queue.

    Attributes
    ----------
    duration : float
        [s]
    buffer : int
        R1's buffer (not printed in the thesis). [packets]
    seeds : tuple of int
        Seeds of the lossy runs.
    loss : float
        Packet-error probability of the lossy runs. [1]
    pair : ThesisRun
        Reno S1D1 from 0 s, ST-PD S2D2 from 5 s, no loss (Fig. 6.2(a)).
    trio : ThesisRun
        As *pair* plus Reno S3D3 from 10 s (Fig. 6.2(b)).
    stpd_share : float
        ST-PD's share of the pair's delivery over [5 + settle, duration]. [1]
    stpd_rate_before, stpd_rate_after : float
        ST-PD's delivery rate over [5 + settle, 10] and [10 + settle,
        duration] in *trio*. [bit/s]
    shared_gain : ndarray, shape (S,)
        S2D2's in-order delivery with ST-PD over that with Reno, loss on
        R1R2 (Fig. 6.4). [1]
    own_gain : ndarray, shape (S,)
        The same with the loss on S2R1 (Fig. 6.6). [1]
    lossy : dict
        ``{(placement, protocol): ThesisRun}`` of the first seed.
    settle : float
        [s]
    baseline : ThesisRun
        As *pair* with a Reno S2D2 (the Reno+Reno baseline).
    s2_loss_rate : ndarray, shape (S,)
        ST-PD S2D2's link-error losses over its packets put on R1R2 (sent
        minus dropped at R1's queue), loss on R1R2. [1]
    extra_gain : dict
        ``{(placement, protocol): ndarray (S,)}``: S2D2's in-order delivery
        as each protocol of *extra* (not the thesis's: ctlcc's addition)
        over that with Reno; empty without *extra*. [1]
    s1_waiting_lossy : ndarray, shape (S,)
        Reno S1D1's time-averaged packets waiting in R1's queue over
        [5 + settle, duration] beside ST-PD S2D2, loss on R1R2 (per-flow
        occupancy trace). [packets]
    s1_waiting_lossless : float
        The same in *pair* (no loss). [packets]
    """

    duration: float
    buffer: int
    seeds: tuple
    loss: float
    pair: ThesisRun = field(repr=False)
    trio: ThesisRun = field(repr=False)
    stpd_share: float = 0.0
    stpd_rate_before: float = 0.0
    stpd_rate_after: float = 0.0
    shared_gain: np.ndarray = None
    own_gain: np.ndarray = None
    lossy: dict = field(default=None, repr=False)
    settle: float = 2.0
    baseline: ThesisRun = field(default=None, repr=False)
    s2_loss_rate: np.ndarray = None
    extra_gain: dict = field(default_factory=dict)
    s1_waiting_lossy: np.ndarray = None
    s1_waiting_lossless: float = math.nan


@checked(protocols=_args.protocol_list, loss=_args.optional_loss)
def fig6_1(protocols=("reno", "stpd"), starts=(0.0, 5.0), buffer=20, loss=None,
           loss_link="R1R2", **options):
    """Thesis Fig. 6.1: Reno and ST-PD connections sharing R1-R2.

    Sources reach R1 over 10 Mb/s 0.2 ms, R1-R2 is 1.5 Mb/s 25 ms, R2
    reaches the destinations over 10 Mb/s 0.3 ms.  The sentence giving R1's
    buffer is cut in the OCR ("... packets of the size of 1000 bytes"); 20
    packets (the value of the thesis' other 1.5 Mb/s bottlenecks, §3.5.2)
    is our choice.

    Parameters
    ----------
    protocols : sequence of str
        Protocol of S1D1, S2D2 (and S3D3 ...).
    starts : sequence of float
        Start of each connection. [s]
    buffer : int
        R1's buffer. [packets]
    loss : float or None
        Uniform packet-error probability. [1]
    loss_link : {"R1R2", "S2R1"}
        Where the loss is (Fig. 6.3: R1R2; Fig. 6.5: S2R1).
    **options
        Scenario fields (default :data:`NS2_PACKETS`).

    Returns
    -------
    Scenario

    References
    ----------
    Xu (2002), §6, Fig. 6.1.
    """
    if loss_link not in ("R1R2", "S2R1"):
        raise ParameterError(f"loss_link must be 'R1R2' or 'S2R1', got {loss_link!r}")
    protocols, starts = tuple(protocols), tuple(starts)
    if len(protocols) != len(starts) or len(protocols) < 2:
        raise ParameterError(f"protocols and starts must have the same length >= 2, got "
                             f"{len(protocols)} and {len(starts)}")
    options = {**NS2_PACKETS, **options}
    scenario = scenarios.dumbbell(
        len(protocols), 10e6, 0.2e-3, 1.5e6, 25e-3, buffer,
        loss if loss_link == "R1R2" else None, list(protocols), start=list(starts),
        egress_delay=0.3e-3, name="thesis_fig6_1",
        description=cite("stpd", "§6, Fig. 6.1"), **options)
    if loss is not None and loss_link == "S2R1":
        links = tuple(replace(l, loss=Bernoulli(loss)) if (l.a, l.b) == ("S1", "A") else l
                      for l in scenario.links)
        scenario = replace(scenario, links=links)
    names = tuple(replace(f, name=f"S{i + 1}D{i + 1}") for i, f in enumerate(scenario.flows))
    return replace(scenario, flows=names)


def _extra_protocols(name, value):
    """Protocol names besides the thesis's ST-PD and Reno, distinct; may be empty."""
    if isinstance(value, str) or not isinstance(value, (tuple, list)):
        raise ParameterError(f"{name} must be a tuple of protocol names (e.g. ('cubic',)), "
                             f"got {value!r}")
    for p in value:
        if not isinstance(p, str):
            raise ParameterError(f"{name} must hold protocol names (str), got {p!r}")
        _args.protocol(name, p)
        if p in ("stpd", "reno"):
            raise ParameterError(f"{name} must not hold 'stpd' or 'reno' (the thesis's S2D2 "
                                 f"protocols, always run), got {p!r}")
    if len(set(value)) != len(value):
        raise ParameterError(f"{name} must not repeat a protocol, got {value!r}")
    return tuple(value)


@experiment(quick={"seeds": QUICK["mixed_seeds"]}, full={"seeds": FULL["mixed_seeds"]})
@checked(extra=_extra_protocols)
def mixed_reno(duration=20.0, buffer=20, seeds=(0, 1, 2, 3, 4), loss=1e-2, settle=2.0,
               bin_width=0.5, extra=()):
    """Figs. 6.2-6.6: ST-PD sharing a bottleneck queue with Reno.

    Runs (thesis Fig. 6.1): Reno S1D1 from 0 s and ST-PD S2D2 from 5 s
    (Fig. 6.2(a)); plus Reno S3D3 from 10 s (Fig. 6.2(b)); then, with a
    uniform loss on R1R2 (Fig. 6.3) or on S2R1 (Fig. 6.5), S2D2 as ST-PD
    and as Reno, and the ratio of S2D2's in-order deliveries (Figs. 6.4,
    6.6).

    Parameters
    ----------
    duration : float
        (thesis: "during the 20 seconds"). [s]
    buffer : int
        R1's buffer (not printed; see :func:`fig6_1`). [packets]
    seeds : sequence of int
        Seeds of the lossy runs.
    loss : float
        Packet-error probability of the lossy runs (thesis: 1e-2). [1]
    settle : float
        Seconds after each join left out of the shares. [s]
    bin_width : float
        Throughput bin. [s]
    extra : sequence of str
        Further protocols run as S2D2 in the lossy runs, beside Reno S1D1,
        on the same seeds (e.g. ``("cubic",)``; ctlcc's addition, not the
        thesis's): their ratios to Reno in ``extra_gain``.  The thesis's
        ST-PD and Reno runs are the same with or without them (each run is
        deterministic given its scenario and seed).

    Returns
    -------
    MixedRenoResult

    References
    ----------
    Xu (2002), §6, Figs. 6.1-6.6.
    """
    duration = check_positive("duration", duration)
    if duration <= 10.0 + settle:
        raise ParameterError(f"duration must be > {10.0 + settle} s, got {duration!r}")
    seeds = _check_seeds(seeds)
    extra = tuple(extra)
    pair = _run(fig6_1(("reno", "stpd"), (0.0, 5.0), buffer), duration, 0, bin_width, 0.01,
                by_flow=True)
    trio = _run(fig6_1(("reno", "stpd", "reno"), (0.0, 5.0, 10.0), buffer), duration, 0,
                bin_width, 0.01)
    a, b = pair.delivered_between(0, 5 + settle, duration), pair.delivered_between(
        1, 5 + settle, duration)
    share = b / (a + b) if a + b > 0 else 0.0
    before = trio.rate_between(1, 5 + settle, 10.0)
    after = trio.rate_between(1, 10.0 + settle, duration)
    baseline = _run(fig6_1(("reno", "reno"), (0.0, 5.0), buffer), duration, 0, bin_width, 0.01)
    gains = {}
    lossy = {}
    s2_rate = []
    s1_waiting = []
    for placement in ("R1R2", "S2R1"):
        ratio = {p: [] for p in ("stpd",) + extra}
        for k, seed in enumerate(seeds):
            got = {}
            for protocol in ("stpd", "reno") + extra:
                scenario = fig6_1(("reno", protocol), (0.0, 5.0), buffer, loss, placement)
                shared_stpd = placement == "R1R2" and protocol == "stpd"
                r = _run(scenario, duration, seed, bin_width, 0.01, light=k > 0,
                         by_flow=shared_stpd)
                got[protocol] = r.delivered_total[1]
                if shared_stpd:
                    crossed = r.sent_total[1] - r.queue_drops[1]
                    s2_rate.append(r.link_losses[1] / crossed if crossed > 0 else math.nan)
                    s1_waiting.append(r.mean_waiting(0, 5 + settle, duration))
                if k == 0:
                    lossy[(placement, protocol)] = r
            for p in ratio:
                ratio[p].append(got[p] / got["reno"] if got["reno"] > 0 else math.inf)
        gains[placement] = np.array(ratio.pop("stpd"))
        gains.update({(placement, p): np.array(v) for p, v in ratio.items()})
    return MixedRenoResult(duration, buffer, seeds, float(loss), pair, trio, share, before,
                           after, gains["R1R2"], gains["S2R1"], lossy, settle, baseline,
                           np.array(s2_rate),
                           {key: g for key, g in gains.items() if isinstance(key, tuple)},
                           np.array(s1_waiting), pair.mean_waiting(0, 5 + settle, duration))


# ledger: Figs. 6.2-6.6 (data/ledger_stpd.csv)

_MIXED = _ev("mixed_reno", "thesis_fig6_2_4_mixed")


@thesis_unit("stpd-fig.6.2-fig6_2a_stpd_lower_share", "stpd-fig.6.2-fig6_2b_stpd_not_worse",
             "stpd-fig.6.4-fig6_4_gain_shared_loss", "stpd-fig.6.6-fig6_6_gain_own_loss",
             needs="mixed_reno", evidence=_MIXED)
def _mixed(res):
    ratio = res.stpd_rate_after / res.stpd_rate_before if res.stpd_rate_before > 0 else math.inf
    out = {
        "stpd-fig.6.2-fig6_2a_stpd_lower_share": Measurement(
            value=float(res.stpd_share),
            reason=f"ST-PD's share of the two flows' in-order packets beside one Reno "
                   f"(from {5 + res.settle:g} s)"),
        "stpd-fig.6.2-fig6_2b_stpd_not_worse": Measurement(
            value=float(ratio),
            reason=f"ST-PD {res.stpd_rate_before / 1e6:.3f} Mb/s before the second Reno joins at "
                   f"10 s, {res.stpd_rate_after / 1e6:.3f} after"),
    }
    for cid, gains, where in (("stpd-fig.6.4-fig6_4_gain_shared_loss", res.shared_gain, "R1R2"),
                              ("stpd-fig.6.6-fig6_6_gain_own_loss", res.own_gain, "S2R1")):
        out[cid] = Measurement(
            value=float(np.mean(gains)), samples=tuple(float(g) for g in gains),
            seeds=res.seeds,
            reason=f"S2D2's in-order packets in {res.duration:g} s with ST-PD over with Reno, "
                   f"loss {res.loss:g} on {where}")
    return out


@thesis_unit("stpd-s6-reno-losses-shrink-its-buffer-share", needs="mixed_reno",
             evidence=_MIXED)
def _s6_reno_buffer_share(res):
    if res.s1_waiting_lossy is None or not res.s1_waiting_lossless > 0:
        return None
    ratios = res.s1_waiting_lossy / res.s1_waiting_lossless
    t0 = 5.0 + res.settle
    return Measurement(
        value=float(np.mean(ratios)), samples=tuple(float(x) for x in ratios), seeds=res.seeds,
        reason=(f"Reno S1D1 keeps {np.mean(res.s1_waiting_lossy):.2f} packets waiting in R1's "
                f"queue on average over {t0:g}-{res.duration:g} s with loss {res.loss:g} on R1R2 "
                f"(seeds {np.min(res.s1_waiting_lossy):.2f}-{np.max(res.s1_waiting_lossy):.2f}) "
                f"against {res.s1_waiting_lossless:.2f} without loss (beside ST-PD S2D2)"))


@thesis_unit("stpd-s6-reno_not_deteriorated", "stpd-s6-s2d2_loss_below_1e-2",
             needs="mixed_reno", evidence=_MIXED)
def _mixed_reno_side(res):
    out = {}
    if res.baseline is not None:
        t0 = 5.0 + res.settle
        beside_stpd = res.pair.rate_between(0, t0, res.duration)
        beside_reno = res.baseline.rate_between(0, t0, res.duration)
        out["stpd-s6-reno_not_deteriorated"] = Measurement(
            value=beside_stpd / beside_reno,
            reason=f"Reno S1D1 {beside_stpd / 1e6:.3f} Mb/s over {t0:g}-{res.duration:g} s "
                   f"beside ST-PD S2D2, {beside_reno / 1e6:.3f} Mb/s beside a Reno S2D2 (no "
                   f"loss, buffer {res.buffer})")
    if res.s2_loss_rate is not None and np.isfinite(res.s2_loss_rate).all():
        v = res.s2_loss_rate
        se = float(v.std(ddof=1) / math.sqrt(v.size)) if v.size > 1 else 0.0
        out["stpd-s6-s2d2_loss_below_1e-2"] = Measurement(
            value=float(v.mean() + 2 * se), seeds=res.seeds,
            reason=f"ST-PD S2D2's error rate on R1R2 (loss {res.loss:g}): mean "
                   f"{v.mean():.5f} over {v.size} seeds (per seed "
                   f"{', '.join(f'{x:.4f}' for x in v)}), standard error {se:.5f}; the value "
                   f"is mean + 2 standard errors. The loss is drawn per packet, so a packet's "
                   f"chance does not depend on how many flows share the link")
    return out


# --- §6: connections that do not share a bottleneck queue, and a loss sweep --------------

@dataclass(frozen=True)
class SeparateBottlenecksResult:
    """Reno and ST-PD behind their own bottlenecks, together and alone (§6).

    Attributes
    ----------
    duration, settle : float
        [s]
    access_rate : float
        Rate of each source's access link, its bottleneck. [bit/s]
    buffer : int
        Every queue's waiting room. [packets]
    together : ThesisRun
        Reno S1D1 from 0 s and ST-PD S2D2 from 5 s.
    reno_alone, stpd_alone : ThesisRun
        Each connection on its own.
    change : dict
        ``{"reno": x, "stpd": y}``: rate together over rate alone, minus 1,
        over [5 + settle, duration]. [1]
    """

    duration: float
    settle: float
    access_rate: float
    buffer: int
    together: ThesisRun = field(repr=False)
    reno_alone: ThesisRun = field(repr=False)
    stpd_alone: ThesisRun = field(repr=False)
    change: dict = None


@experiment()
@checked(access_rate=_args.positive)
def separate_bottlenecks(duration=20.0, access_rate=0.6e6, buffer=20, settle=2.0,
                         bin_width=0.5):
    """§6: Reno and ST-PD that do not share a bottleneck queue.

    The thesis states without a simulation that such connections "do not
    affect each other".  ctlcc's scenario: the Fig. 6.1 dumbbell with each
    source's access link (and its egress link) at *access_rate*, below
    half of R1R2's 1.5 Mb/s, so each connection queues only at its own
    access link; Reno S1D1 from 0 s, ST-PD S2D2 from 5 s, together and each
    alone, no loss.

    Parameters
    ----------
    duration : float
        [s]
    access_rate : float
        Each connection's bottleneck, at most 0.75 Mb/s so that R1R2 is
        never saturated. [bit/s]
    buffer : int
        Waiting room of every queue. [packets]
    settle : float
        Seconds after ST-PD's start left out of the rates. [s]
    bin_width : float
        Throughput bin. [s]

    Returns
    -------
    SeparateBottlenecksResult

    References
    ----------
    Xu (2002), §6 (the paragraph before Fig. 6.1).
    """
    duration = check_positive("duration", duration)
    if duration <= 5.0 + settle:
        raise ParameterError(f"duration must be > {5.0 + settle} s, got {duration!r}")
    if access_rate > 0.75e6:
        raise ParameterError(f"access_rate must be in (0, 0.75e6] bit/s (half of R1R2), got "
                             f"{access_rate!r}")

    def build(protocols, starts):
        return scenarios.dumbbell(len(protocols), access_rate, 0.2e-3, 1.5e6, 25e-3, buffer,
                                  None, list(protocols), start=list(starts),
                                  egress_delay=0.3e-3, access_buffer=buffer,
                                  name="thesis_s6_separate",
                                  description=cite("stpd", "§6"), **NS2_PACKETS)

    together = _run(build(("reno", "stpd"), (0.0, 5.0)), duration, 0, bin_width, 0.01)
    reno = _run(build(("reno",), (0.0,)), duration, 0, bin_width, 0.01)
    stpd = _run(build(("stpd",), (5.0,)), duration, 0, bin_width, 0.01)
    t0 = 5.0 + settle
    change = {"reno": together.rate_between(0, t0, duration) / reno.rate_between(0, t0, duration)
              - 1.0,
              "stpd": together.rate_between(1, t0, duration) / stpd.rate_between(0, t0, duration)
              - 1.0}
    return SeparateBottlenecksResult(duration, settle, float(access_rate), buffer, together,
                                     reno, stpd, change)


@thesis_unit("stpd-s6-separate_bottlenecks_no_interaction", needs="separate_bottlenecks",
             evidence="ctlcc.experiments.thesis.separate_bottlenecks")
def _separate(res):
    c = res.change
    t0 = 5.0 + res.settle
    return Measurement(
        value=max(abs(c["reno"]), abs(c["stpd"])),
        reason=f"over {t0:g}-{res.duration:g} s, each behind its own {res.access_rate / 1e6:g} "
               f"Mb/s access link: Reno {res.together.rate_between(0, t0, res.duration) / 1e6:.3f}"
               f" Mb/s beside ST-PD, {res.reno_alone.rate_between(0, t0, res.duration) / 1e6:.3f}"
               f" alone ({c['reno']:+.1%}); ST-PD "
               f"{res.together.rate_between(1, t0, res.duration) / 1e6:.3f} beside Reno, "
               f"{res.stpd_alone.rate_between(0, t0, res.duration) / 1e6:.3f} alone "
               f"({c['stpd']:+.1%})")


@dataclass(frozen=True)
class MixedRenoSweepResult:
    """S2D2's gain from ST-PD against the loss rate (§6).

    Attributes
    ----------
    losses : ndarray, shape (L,)
        Packet-error probabilities. [1]
    seeds : tuple of int
    duration : float
        [s]
    loss_link : str
        Where the loss is ("S2R1" or "R1R2").
    gain : ndarray, shape (L, S)
        S2D2's in-order packets with ST-PD over with Reno, beside Reno S1D1. [1]
    """

    losses: np.ndarray
    seeds: tuple
    duration: float
    loss_link: str
    gain: np.ndarray


@experiment(quick={"seeds": QUICK["mixed_seeds"]}, full={"seeds": FULL["mixed_seeds"]})
@checked(loss_link=_args.choice(("R1R2", "S2R1")))
def mixed_reno_loss_sweep(losses=(1e-3, 1e-2, 3e-2), seeds=(0, 1, 2, 3, 4), duration=20.0,
                          buffer=20, loss_link="S2R1"):
    """§6: how S2D2's gain from ST-PD grows with the loss rate.

    The runs of Figs. 6.5-6.6 (Reno S1D1 from 0 s, S2D2 from 5 s as ST-PD
    and as Reno, loss on *loss_link*) at several packet-error
    probabilities; the thesis runs 1e-2 only and states that "the higher
    loss rate of a wireless link, the more advantage ST-PD TCP has".

    Parameters
    ----------
    losses : sequence of float
        Packet-error probabilities, in (0, 1) (sorted). [1]
    seeds : sequence of int
    duration : float
        (thesis: 20 s). [s]
    buffer : int
        R1's buffer (see :func:`fig6_1`). [packets]
    loss_link : {"S2R1", "R1R2"}
        S2R1: S2D2 alone suffers the loss (Fig. 6.5); R1R2: both do.

    Returns
    -------
    MixedRenoSweepResult

    References
    ----------
    Xu (2002), §6, Figs. 6.3-6.6.
    """
    duration = check_positive("duration", duration)
    if duration <= 5.0:
        raise ParameterError(f"duration must be > 5 s (S2D2 starts at 5 s), got {duration!r}")
    losses = np.sort(np.array([float(p) for p in losses]))
    seeds = _check_seeds(seeds)
    gain = np.zeros((losses.size, len(seeds)))
    for j, p in enumerate(losses):
        for k, seed in enumerate(seeds):
            got = {}
            for protocol in ("stpd", "reno"):
                scenario = fig6_1(("reno", protocol), (0.0, 5.0), buffer, float(p), loss_link)
                got[protocol] = _run(scenario, duration, seed, 1.0, None,
                                     light=True).delivered_total[1]
            gain[j, k] = got["stpd"] / got["reno"] if got["reno"] > 0 else math.inf
    return MixedRenoSweepResult(losses, seeds, float(duration), loss_link, gain)


@thesis_unit("stpd-s6-advantage_grows_with_loss", needs="mixed_reno_loss_sweep",
             evidence="ctlcc.experiments.thesis.mixed_reno_loss_sweep")
def _sweep(res):
    if res.losses.size < 2:
        return None
    steps = np.diff(res.gain, axis=0)
    j = int(np.argmin(steps.mean(axis=1)))
    d = steps[j]
    means = ", ".join(f"{p:g}: {g:.3f}" for p, g in zip(res.losses, res.gain.mean(axis=1)))
    return Measurement(
        value=float(d.mean()), samples=tuple(float(x) for x in d), seeds=res.seeds,
        reason=f"S2D2's gain (ST-PD over Reno, loss on {res.loss_link}, {len(res.seeds)} seeds x "
               f"{res.duration:g} s) by loss: {means}; the smallest step is "
               f"{res.losses[j]:g} -> {res.losses[j + 1]:g}")
