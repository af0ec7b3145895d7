# ctlcc.experiments.thesis - the ST-PD thesis' ns-2 experiments on ctlcc's packet engine
"""The ST-PD thesis' simulation experiments, re-run and checked.

Xu (2002) evaluates ST-PD TCP with ns-2 in eight experiments (§3.5, §4.4,
§6).  Each is one function of a topic module, defined once and followed by
the units that judge it against the records declared in
``data/ledger_stpd.csv`` (the numbers the thesis prints, as in
``data/thesis_sim_published.csv``):

* :mod:`~ctlcc.experiments.thesis.single_flow` - one connection, sufficient
  and short buffer (:func:`buffer_dimension`, §3.5.1);
* :mod:`~ctlcc.experiments.thesis.multi_flow` - shared and moving
  bottlenecks, FTP beside Telnet (:func:`fixed_bottleneck`,
  :func:`moving_bottleneck`, :func:`telnet_delay`, §3.5.2-§3.5.3);
* :mod:`~ctlcc.experiments.thesis.wireless` - uniform, bursty and GEO-burst
  link errors (:func:`uniform_loss`, :func:`bursty_loss`,
  :func:`geo_burst`, §4.4);
* :mod:`~ctlcc.experiments.thesis.coexistence` - ST-PD sharing a queue with
  Reno (:func:`mixed_reno`, §6), behind a bottleneck of its own
  (:func:`separate_bottlenecks`) and across loss rates
  (:func:`mixed_reno_loss_sweep`), two runs §6's sentences call for.

Each experiment rebuilds its run on :func:`ctlcc.sim.run`, through the
public scenario API only (protocol strings, presets, ``Link`` / ``Flow`` /
``Scenario``), so whatever ST-PD sender the engine registers under
``"stpd"`` is the one measured, and returns a frozen result with the arrays
behind the thesis' figures and the parameters that made them.
:func:`run_all` runs every registered experiment; :func:`claims` hands the
results to the claims ledger.

Common choices (the thesis is silent or ns-2 defaults apply):

* packets are 1000 bytes **on the wire** and ACKs 40 bytes, as in ns-2
  (:data:`NS2_PACKETS`; §3.5.3 states both sizes); throughput counts the
  whole packet ("payload and protocol overhead are taken into account",
  §3.5.1.2 footnote) and is normalised by the bottleneck rate;
* no delayed ACKs, initial window 1, RTO floor 1 s (ctlcc's defaults, those
  of ns-2's one-way TCP agents of the time);
* the receiver window is ctlcc's default (4096 packets) except on the GEO
  path, where the preset caps it at 132 packets (see
  :func:`ctlcc.sim.scenarios.thesis_fig4_18`).

Figures the OCR lost are compared through the numbers the text states; a
qualitative statement is checked through a stated reading (e.g. "reaches
its fair share swiftly" as Jain's index of the per-phase throughputs).

References
----------
Xu (2002), §3.5 (Figs. 3.7-3.24), §4.4 (Figs. 4.7-4.22), §6 (Figs. 6.1-6.6).
"""

import inspect
from functools import lru_cache

from ...claims.registry import provider
from ...errors import ParameterError
from .._args import checked
from ._common import (EXPERIMENTS, FULL, NS2_PACKETS, PUBLISHED_FILE, QUICK, SECTION, ThesisRun,
                      published)
from .single_flow import BufferDimensionResult, buffer_dimension
from .multi_flow import (FixedBottleneckResult, MovingBottleneckResult, TelnetResult, fig3_21,
                         fixed_bottleneck, moving_bottleneck, telnet_delay)
from .wireless import (LOSS_GRID, BurstyLossResult, GeoBurstResult, LossSweepResult, bursty_loss,
                       geo_burst, packet_burst_channel, uniform_loss)
from .coexistence import (MixedRenoResult, MixedRenoSweepResult, SeparateBottlenecksResult,
                          fig6_1, mixed_reno, mixed_reno_loss_sweep, separate_bottlenecks)

__all__ = [
    "NS2_PACKETS",
    "PUBLISHED_FILE",
    "ThesisRun",
    "BufferDimensionResult",
    "FixedBottleneckResult",
    "MovingBottleneckResult",
    "TelnetResult",
    "LossSweepResult",
    "BurstyLossResult",
    "GeoBurstResult",
    "MixedRenoResult",
    "SeparateBottlenecksResult",
    "MixedRenoSweepResult",
    "published",
    "packet_burst_channel",
    "fig3_21",
    "fig6_1",
    "buffer_dimension",
    "fixed_bottleneck",
    "moving_bottleneck",
    "telnet_delay",
    "uniform_loss",
    "bursty_loss",
    "geo_burst",
    "mixed_reno",
    "separate_bottlenecks",
    "mixed_reno_loss_sweep",
    "run_all",
    "claims",
]


@checked()
@lru_cache(maxsize=2)
def run_all(quick=True, newreno=True):
    """Every experiment with the report's (quick) or the long settings.

    The experiments are those registered where they are defined (each with
    its settings), in the thesis's order.  Memoised: the report's
    ``thesis_sim`` section and the claims ledger share one run per process.

    Parameters
    ----------
    quick : bool
        :data:`QUICK` durations and seeds (the report's) or :data:`FULL`.
    newreno : bool
        Add NewReno (RFC 6582, not in the thesis) to the loss sweep and the
        GEO run: the recovery ctlcc's and ns-3's TCPs use, for comparison.

    Returns
    -------
    dict
        Experiment name -> result.
    """
    return {name: _run_experiment(e, quick, newreno)
            for name, e in EXPERIMENTS.items() if not e.report_only}


@checked()
def claims(results=None, quick=True):
    """The thesis' simulation claims, judged on ctlcc's engine.

    The records (the thesis's words and numbers, tolerances and their basis)
    are declared in ``data/ledger_stpd.csv``; the measurements are the units
    written beside each experiment in the topic modules.

    Parameters
    ----------
    results : dict, optional
        Output of :func:`run_all` (or any subset of its keys, or the second
        reading ``bursty_loss_time``); default: ``run_all(quick)``.
    quick : bool
        Settings of the default run.

    Returns
    -------
    list of Claim
        One per record whose experiment is present in *results*.
    """
    from ...claims import paper_claims

    results = run_all(quick) if results is None else results
    unknown = set(results) - set(EXPERIMENTS)
    if unknown:
        raise ParameterError(f"results must have keys of {sorted(EXPERIMENTS)}; got unknown "
                             f"experiments {sorted(unknown)}")
    return paper_claims("stpd", results, section=SECTION)


@provider(SECTION)
def _report_results():
    """The report's thesis runs: :func:`run_all` (quick) and the second readings (memoised)."""
    out = dict(run_all(quick=True))
    for name, e in EXPERIMENTS.items():
        if e.report_only:
            out[name] = _run_experiment(e, True, True)
    return out


def _run_experiment(e, quick, newreno):
    kwargs = dict(e.quick if quick else e.full)
    if newreno and e.newreno:
        default = inspect.signature(e.function).parameters["protocols"].default
        kwargs = {"protocols": tuple(default) + ("newreno",), **kwargs}
    return e.function(**kwargs)
