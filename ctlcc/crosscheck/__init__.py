# ctlcc.crosscheck - analytic predictions against the packet simulator, one module per paper
"""Cross-checks: each analytic claim of the package against the packet simulator.

Every public function states one claim, computes its prediction from
:mod:`ctlcc.bounds` or :mod:`ctlcc.analysis` (never from the simulator),
measures the same quantity with :func:`ctlcc.sim.run` over several seeds
and returns a :class:`CrossCheck`: predicted and measured values side by
side, with the spread over seeds.  A check measures; it does not judge.
Its verdict is the ledger's: each point (or a summary of the points) is a
record of ``data/ledger_<paper>.csv`` whose tolerance and basis were
declared before measuring, judged by the one rule of :mod:`ctlcc.claims`
(:meth:`CrossCheck.records`).  In each per-paper module, a check is
followed by the unit that turns it into those records and declares the
run it needs (:data:`CHECKS`).

Checks, by the paper their records belong to:

* :mod:`ctlcc.crosscheck.stpd` (Xu 2002): :func:`stpd_decay` - ST-PD's
  window transient against the per-RTT and per-slot loops;
  :func:`stpd_throughput_under_loss` - eq. (4.19) below p = 1e-2;
* :mod:`ctlcc.crosscheck.primo` (Chatté, Ducourthial & Niculescu 2006):
  :func:`primo_limit_cycle` - the limit-cycle model's mean queue, rate and
  period; :func:`primo_heterogeneous_fairness` - the paper's 98 % fairness
  beside the two-flow shared loop, on packets;
* :mod:`ctlcc.crosscheck.iftp` (ElAarag & Bassiouni 2002):
  :func:`iftp_ideal_bandwidth` - theta(N) of eqs. (10)-(20) and Figure 1's
  timing; :func:`iftp_nonideal_bound` - eq. (26)'s bound under random loss;
  :func:`iftp_tcp_friendliness` - one IFTP beside one Reno (§6.1);
* :mod:`ctlcc.crosscheck.cbraa` (Ait-Hellal, Yamamoto & Leduc 1999):
  :func:`reno_square_root_law` - eq. (1) against packet NewReno;
  :func:`cbraa_loss_threshold` - Loss_th, eq. (4);
  :func:`cbraa_mathis_rate` - eq. (2) at the measured loss and RTT;
  :func:`cbraa_smoothness` - CBRAA smoother than TCP-Friend;
* :mod:`ctlcc.crosscheck.sttp` (Wade, Kara & Dew 2000):
  :func:`sttp_burst_bound` - the token bucket's ``sigma + rho S``;
  :func:`sttp_packet_pair` - the packet-pair estimate (§III-A);
  :func:`sttp_rtt_scaling` - the alpha:beta law replayed (§III-B.3);
* :mod:`ctlcc.crosscheck.others` (the models and standards ctlcc builds
  on): :func:`reno_pftk` - PFTK (Padhye et al. 1998, eq. (31));
  :func:`reno_sawtooth_utilisation` - the lossless AIMD sawtooth;
  :func:`fluid_reno_rate` - the fluid Reno model (Hollot et al. 2001);
  :func:`tfrc_equation_rate`, :func:`tfrc_newreno_share` - RFC 5348;
  :func:`sack_vs_ns3` - the RFC 6675 sender against ns-3's SACK TCP.

:func:`run_all` runs the checks the ledger's units need (the ``ctlcc
report`` section ``crosscheck``).
"""

from functools import lru_cache

from ..claims.registry import provider
from ._base import CHECKS, DEFAULT_SEEDS, MAX_DURATION, MAX_POINTS, CrossCheck, run_declared
from .stpd import stpd_decay, stpd_throughput_under_loss
from .primo import primo_heterogeneous_fairness, primo_limit_cycle
from .iftp import iftp_ideal_bandwidth, iftp_nonideal_bound, iftp_tcp_friendliness
from .cbraa import cbraa_loss_threshold, cbraa_mathis_rate, cbraa_smoothness, reno_square_root_law
from .sttp import sttp_burst_bound, sttp_packet_pair, sttp_rtt_scaling
from .others import (SACK_NS3_VARIANT, fluid_reno_rate, reno_pftk, reno_sawtooth_utilisation,
                     sack_vs_ns3, tfrc_equation_rate, tfrc_newreno_share)

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


@lru_cache(maxsize=1)
def run_all():
    """The checks the claims ledger's registered units need, in ledger order.

    Derived from the registry (:func:`ctlcc.claims.units`, section
    ``crosscheck``): each unit's ``needs`` (and optional inputs) are runs
    declared beside it (:data:`CHECKS`); a check no unit reads is not run.
    Memoised: the report's ``crosscheck`` section and the ledger share one
    run per process.

    Returns
    -------
    tuple of CrossCheck
        Each named by its key of :data:`CHECKS`.
    """
    from ..claims import units
    from ..errors import ParameterError

    needed = []
    for u in units(section="crosscheck"):
        for key in (*u.needs, *(key for _, key in u.optional)):
            if key not in needed:
                needed.append(key)
    unknown = [key for key in needed if key not in CHECKS]
    if unknown:
        raise ParameterError(f"claim units need cross-checks {unknown}, which no "
                             f"ctlcc.crosscheck module declares")
    return tuple(run_declared(name) for name in needed)


@provider("crosscheck")
def _results():
    """``{name: CrossCheck}`` of :func:`run_all` (the ``crosscheck`` section's results)."""
    return {check.name: check for check in run_all()}
