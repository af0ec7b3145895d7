# ctlcc.experiments.baselines - today's TCP (CUBIC) beside ST-PD and Primo: new results
"""CUBIC (RFC 9438) in the comparisons of the ST-PD thesis and of Primo.

The papers compare ST-PD and Primo with Reno, Tahoe, Vegas, SACK and TFRC;
a referee in 2026 asks how they fare against CUBIC, the default TCP of
Linux, Windows and macOS (issue 22 §2).  This module re-runs the papers'
comparisons with the engine's :class:`~ctlcc.sim.senders.Cubic` added
(default options: RFC 9438's C = 0.4, beta = 0.7, fast convergence, the
Reno-friendly region, SACK + PRR recovery, no HyStart) - the papers'
own experiment functions, with "cubic" in their protocol list:

* :func:`thesis_comparisons` - the thesis's Figs. 4.8-4.12 (uniform
  wireless loss), 4.13-4.17 (bursty loss) and 4.19-4.22 (the GEO burst),
  :mod:`ctlcc.experiments.thesis`'s functions with CUBIC beside Tahoe,
  Reno, NewReno, Vegas and ST-PD;
* :func:`sharing` - §6's sharing (Fig. 6.1's dumbbell, the second
  connection joining at 5 s): ST-PD's share of the bottleneck beside Reno
  (the thesis's case) and beside CUBIC, and CUBIC's beside Reno;
* :func:`lossy_sharing` - §6's lossy sharing (Figs. 6.3-6.6): S2D2 as
  ST-PD, as Reno and as CUBIC beside Reno S1D1, with a uniform loss on the
  shared link or on S2's access
  (:func:`ctlcc.experiments.thesis.mixed_reno` with ``extra=("cubic",)``);
* :func:`primo_criteria` - Primo's five criteria (§IV-C) along the
  reduced §IV-B sweeps (Figs. 2-5) with CUBIC beside Reno, Sack, Vegas,
  TFRC and Primo;
* :func:`primo_many_sources` and :func:`primo_multi_congestion` - the five
  criteria as the number of sources grows on Fig. 1-top (§V-E) and the
  five flows of Fig. 1-bottom (§VI, Figs. 6-7), CUBIC beside the same five.

The papers' protocols' runs are the ones of the papers' own sections
(each run is deterministic given its scenario and seed; adding CUBIC adds
runs and changes none).

These are new results, not paper claims: no paper states anything about
CUBIC, so no ledger record judges them (the report shows them as figures).

References
----------
Xu (2002), §4.4 and §6; Chatté, Ducourthial & Niculescu (2006), §IV;
RFC 9438 (Xu, Ha, Rhee, Goel, Eggert 2023).
"""

from dataclasses import dataclass

from ..errors import ParameterError
from ..sim import run
from . import _args
from . import primo as primo_exp
from . import thesis
from ._args import checked

__all__ = ["THESIS_PROTOCOLS", "PRIMO_PROTOCOLS", "SharingResult", "thesis_comparisons",
           "sharing", "lossy_sharing", "primo_criteria", "primo_many_sources",
           "primo_multi_congestion"]

#: The thesis's protocols (and NewReno, the recovery ctlcc's and ns-3's TCPs use) + CUBIC.
THESIS_PROTOCOLS = ("tahoe", "reno", "newreno", "vegas", "stpd", "cubic")
#: Primo's paper protocols + CUBIC.
PRIMO_PROTOCOLS = primo_exp.PAPER_PROTOCOLS + ("cubic",)


@checked()
def thesis_comparisons(quick=True):
    """The thesis's loss experiments with CUBIC added.

    Parameters
    ----------
    quick : bool
        The report's settings (:data:`ctlcc.experiments.thesis.QUICK`) or
        :data:`~ctlcc.experiments.thesis.FULL`.

    Returns
    -------
    dict
        ``uniform_loss`` (LossSweepResult, Figs. 4.8-4.12), ``bursty_loss``
        (BurstyLossResult, Figs. 4.13-4.17), ``geo_burst`` (GeoBurstResult,
        Figs. 4.19-4.22).
    """
    s = thesis.QUICK if quick else thesis.FULL
    return {
        "uniform_loss": thesis.uniform_loss(THESIS_PROTOCOLS, seeds=s["loss_seeds"],
                                            duration=s["loss_duration"]),
        "bursty_loss": thesis.bursty_loss(("tahoe", "reno", "vegas", "stpd", "cubic"),
                                          seeds=s["bursty_seeds"],
                                          duration=s["bursty_duration"]),
        "geo_burst": thesis.geo_burst(("reno", "newreno", "vegas", "stpd", "cubic")),
    }


@dataclass(frozen=True)
class SharingResult:
    """Shares of Fig. 6.1's bottleneck, the second connection joining at 5 s.

    Attributes
    ----------
    pairs : tuple of (str, str)
        (first, second) protocol of each run.
    shares : tuple of float
        The second connection's share of the pair's in-order deliveries over
        [5 + settle, duration]. [1]
    delivered : tuple of (float, float)
        Each connection's in-order deliveries over that window. [packets]
    duration, settle : float
        [s]
    buffer : int
        [packets]
    """

    pairs: tuple
    shares: tuple
    delivered: tuple
    duration: float
    settle: float
    buffer: int


@checked(pairs=_args.distinct_of(_args.pair(_args.protocol)))
def sharing(pairs=(("reno", "stpd"), ("cubic", "stpd"), ("reno", "cubic"), ("cubic", "cubic")),
            duration=20.0, buffer=20, settle=2.0):
    """§6's sharing (Fig. 6.1, no loss) with CUBIC as either connection.

    Parameters
    ----------
    pairs : sequence of (str, str)
        (first, joining) protocols; the thesis's case is ("reno", "stpd").
    duration : float
        > 5 + settle (thesis: 20 s, as :func:`ctlcc.experiments.thesis.mixed_reno`). [s]
    buffer : int
        R1's buffer (:func:`~ctlcc.experiments.thesis.fig6_1`). [packets]
    settle : float
        Seconds after the join left out. [s]

    Returns
    -------
    SharingResult

    References
    ----------
    Xu (2002), §6, Figs. 6.1-6.2.
    """
    start = 5.0 + settle
    if not duration > start:
        raise ParameterError(f"duration must be > 5 + settle = {start!r} s (the window starts "
                             f"settle seconds after the join at 5 s), got {duration!r}")
    shares, delivered = [], []
    for pair in pairs:
        scenario = thesis.fig6_1(tuple(pair), (0.0, 5.0), buffer)
        # the engine is deterministic: the window's deliveries are the difference of a run
        # to the window's start and the full run
        head = run(scenario, start, seed=0, progress=False)
        whole = run(scenario, duration, seed=0, progress=False)
        got = tuple(float(w.delivered_unique - h.delivered_unique)
                    for w, h in zip(whole.flows, head.flows))
        delivered.append(got)
        shares.append(got[1] / sum(got) if sum(got) > 0 else 0.0)
    return SharingResult(tuple(tuple(p) for p in pairs), tuple(shares), tuple(delivered),
                         float(duration), float(settle), int(buffer))


@checked()
def primo_criteria(quick=True):
    """Primo's five criteria along the §IV-B sweeps with CUBIC added.

    Parameters
    ----------
    quick : bool
        :data:`ctlcc.experiments.primo.QUICK_GRIDS` and the short runs (the
        report's) or the paper's grids.

    Returns
    -------
    list of SweepResult
        One per sweep (bandwidth, queue, delay, access delay).
    """
    grids = primo_exp.QUICK_GRIDS if quick else primo_exp.PAPER_GRIDS
    duration = primo_exp.DURATION if quick else primo_exp.DURATION_FULL
    return [primo_exp.parameter_sweep(p, grids[p], protocols=PRIMO_PROTOCOLS, duration=duration)
            for p in grids]


@checked()
def lossy_sharing(quick=True):
    """§6's lossy sharing (Figs. 6.3-6.6) with CUBIC as a third S2D2.

    Parameters
    ----------
    quick : bool
        The seeds of the report's run (:data:`ctlcc.experiments.thesis.QUICK`)
        or of :data:`~ctlcc.experiments.thesis.FULL`.

    Returns
    -------
    ctlcc.experiments.thesis.MixedRenoResult
        With ``extra_gain[(placement, "cubic")]``: S2D2's in-order
        deliveries as CUBIC over as Reno, per seed.

    References
    ----------
    Xu (2002), §6, Figs. 6.3-6.6.
    """
    s = thesis.QUICK if quick else thesis.FULL
    return thesis.mixed_reno(seeds=s["mixed_seeds"], extra=("cubic",))


@checked()
def primo_many_sources(quick=True):
    """§V-E's many sources on Fig. 1-top with CUBIC beside Primo's five protocols.

    Parameters
    ----------
    quick : bool
        The counts and run length of :func:`ctlcc.experiments.primo.run_all`
        (quick: 2, 10, 20 sources, :data:`~ctlcc.experiments.primo.DURATION`)
        or its full ones.

    Returns
    -------
    ctlcc.experiments.primo.ManySourcesResult

    References
    ----------
    Chatté, Ducourthial & Niculescu (2006), §V-E.
    """
    counts = (2, 10, 20) if quick else (2, 5, 10, 15, 20)
    duration = primo_exp.DURATION if quick else primo_exp.DURATION_FULL
    return primo_exp.many_sources(counts, protocols=PRIMO_PROTOCOLS, duration=duration)


@checked()
def primo_multi_congestion(quick=True):
    """Fig. 1-bottom's five flows (§VI, Figs. 6-7) with CUBIC beside Primo's five protocols.

    Parameters
    ----------
    quick : bool
        The run length of :func:`ctlcc.experiments.primo.run_all` (20 s
        quick, 60 s full).

    Returns
    -------
    dict
        ``together`` (Fig. 6) and ``staggered`` (Fig. 7):
        :class:`ctlcc.experiments.primo.MultiCongestionResult`.

    References
    ----------
    Chatté, Ducourthial & Niculescu (2006), §VI, Figs. 6-7.
    """
    duration = 20.0 if quick else 60.0
    return {schedule: primo_exp.multi_congestion(PRIMO_PROTOCOLS, schedule, duration=duration)
            for schedule in ("together", "staggered")}
