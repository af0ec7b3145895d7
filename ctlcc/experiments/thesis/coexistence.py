# ctlcc.experiments.thesis.coexistence - ST-PD sharing a bottleneck queue with Reno (§6)
"""The thesis's coexistence experiment (Xu 2002, §6, Figs. 6.1-6.6).

:func:`mixed_reno` runs ST-PD beside one and two Reno connections on the
Fig. 6.1 dumbbell (:func:`fig6_1`), then with a uniform loss on the shared
link (Fig. 6.3) or on ST-PD's own access link (Fig. 6.5); the units after it
measure the records ``stpd-fig.6.2-*`` ... ``stpd-fig.6.6-*`` of
``data/ledger_stpd.csv``.

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

__all__ = ["MixedRenoResult", "fig6_1", "mixed_reno"]


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
    extra_gain : dict
        ``{(placement, protocol): ndarray (S,)}``: S2D2's in-order delivery
        as each protocol of *extra* (not the thesis's: ctlcc's addition)
        over that with Reno; empty without *extra*. [1]
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
    extra_gain: dict = field(default_factory=dict)


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
    pair = _run(fig6_1(("reno", "stpd"), (0.0, 5.0), buffer), duration, 0, bin_width, 0.01)
    trio = _run(fig6_1(("reno", "stpd", "reno"), (0.0, 5.0, 10.0), buffer), duration, 0,
                bin_width, 0.01)
    a, b = pair.delivered_between(0, 5 + settle, duration), pair.delivered_between(
        1, 5 + settle, duration)
    share = b / (a + b) if a + b > 0 else 0.0
    before = trio.rate_between(1, 5 + settle, 10.0)
    after = trio.rate_between(1, 10.0 + settle, duration)
    gains = {}
    lossy = {}
    for placement in ("R1R2", "S2R1"):
        ratio = {p: [] for p in ("stpd",) + extra}
        for k, seed in enumerate(seeds):
            got = {}
            for protocol in ("stpd", "reno") + extra:
                scenario = fig6_1(("reno", protocol), (0.0, 5.0), buffer, loss, placement)
                r = _run(scenario, duration, seed, bin_width, 0.01, light=k > 0)
                got[protocol] = r.delivered_total[1]
                if k == 0:
                    lossy[(placement, protocol)] = r
            for p in ratio:
                ratio[p].append(got[p] / got["reno"] if got["reno"] > 0 else math.inf)
        gains[placement] = np.array(ratio.pop("stpd"))
        gains.update({(placement, p): np.array(v) for p, v in ratio.items()})
    return MixedRenoResult(duration, buffer, seeds, float(loss), pair, trio, share, before,
                           after, gains["R1R2"], gains["S2R1"], lossy, settle,
                           {key: g for key, g in gains.items() if isinstance(key, tuple)})


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
