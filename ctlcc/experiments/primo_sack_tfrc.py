# ctlcc.experiments.primo_sack_tfrc - Primo's §V numbers for TCP Sack and TFRC
"""The criteria Chatté, Ducourthial & Niculescu (2006) print for Sack and TFRC.

Primo's §V gives, besides its own and Reno's and Vegas's criteria, numbers
for TCP Sack (fairness around 90 % with a 5-packet queue; sending stability
under 20 % above 100 ms of RTT and 2 % at 200 ms; fairness between 42 % and
0 % and stability under 55 % with heterogeneous RTTs) and TFRC (stability
around 86 % over the delay sweep; fairness about 89 % with heterogeneous
RTTs).  This module measures them on the Fig. 1-top topology of
:func:`ctlcc.experiments.primo.fig1_top`, with the five criteria of
:func:`ctlcc.sim.criteria.primo_criteria`, over several seeds.

The stability criteria depend on the interval over which rates are sampled,
which the paper does not print; :data:`ctlcc.experiments.primo.INTERVAL`
(0.1 s) is used, as in ctlcc's other Primo measurements.  The published
values, comparisons and tolerances are in
``data/inventory_stage3_published.csv``.
"""

import math

import numpy as np

from ..errors import ParameterError
from . import primo as _primo

__all__ = ["RTT_200", "criteria_over_seeds", "delay_for_rtt", "sack_tfrc_criteria"]

#: The §V-C RTT at which Sack's stability "reaches only 2%". [s]
RTT_200 = 0.2


def delay_for_rtt(round_trip_time):
    """Shared-link delay of Fig. 1-top that gives the no-congestion RTT *round_trip_time*.

    The RTT is linear in the shared link's one-way delay (slope 2).

    Parameters
    ----------
    round_trip_time : float
        [s]

    Returns
    -------
    float
        [s]

    Examples
    --------
    >>> d = delay_for_rtt(0.2)
    >>> s = _primo.fig1_top("reno", "delay", d)
    >>> round(_primo._base_rtt(s, s.flows[0].path), 6)
    0.2
    """
    probe = 0.01
    s = _primo.fig1_top("reno", "delay", probe)
    base = _primo._base_rtt(s, s.flows[0].path)
    delay = probe + (round_trip_time - base) / 2.0
    if not delay > 0:
        raise ParameterError(f"round_trip_time must exceed {base - 2 * probe:.4f} s (the RTT "
                             f"with a zero-delay shared link), got {round_trip_time!r}")
    return delay


def criteria_over_seeds(protocol, parameter, values, seeds=(0, 1, 2),
                        duration=_primo.DURATION_FULL):
    """The five criteria of *protocol* along one sweep, for each seed.

    Parameters
    ----------
    protocol : str
    parameter : str
        "bandwidth", "queue", "delay" or "access_delay".
    values : sequence of float
    seeds : sequence of int
    duration : float
        [s]

    Returns
    -------
    tuple
        (criteria of shape (seeds, values, 5) [%], no-congestion RTTs of
        shape (values, 2) [s])
    """
    seeds = tuple(seeds)
    if len(seeds) < 2:
        raise ParameterError(f"seeds must hold at least 2 seeds for a standard error, got {seeds!r}")
    out, rtts = [], None
    for seed in seeds:
        sweep = _primo.parameter_sweep(parameter, values, (protocol,), duration=duration,
                                       seed=seed)
        out.append(sweep.criteria[0])
        rtts = sweep.round_trip_times
    return np.array(out), rtts


def sack_tfrc_criteria(seeds=(0, 1, 2), duration=_primo.DURATION_FULL):
    """Every Sack and TFRC number of Primo's §V, mean and standard error over seeds.

    Parameters
    ----------
    seeds : sequence of int
    duration : float
        Run length of each point. [s]

    Returns
    -------
    dict
        claim id -> dict(value=..., sem=..., per_seed=...) in percent, for
        the claim ids of ``data/inventory_stage3_published.csv``
        (``sack_fairness_q5``, ``sack_stability_long``,
        ``sack_stability_rtt200``, ``tfrc_stability_delay``,
        ``sack_fairness_hetero``, ``sack_stability_hetero``,
        ``tfrc_fairness_hetero``).

    References
    ----------
    Chatté, Ducourthial & Niculescu (2006), §V-B, §V-C, §V-D.
    """
    send, recv, fair = 0, 1, 4
    grid = _primo.PAPER_GRIDS
    out = {}

    def pack(key, per_seed):
        per_seed = np.asarray(per_seed, dtype=float)
        out[key] = dict(value=float(per_seed.mean()),
                        sem=float(per_seed.std(ddof=1) / math.sqrt(per_seed.size)),
                        per_seed=tuple(float(v) for v in per_seed))

    c, _ = criteria_over_seeds("sack", "queue", (5,), seeds, duration)
    pack("sack_fairness_q5", c[:, 0, fair])
    c, rtts = criteria_over_seeds("sack", "delay", grid["delay"], seeds, duration)
    long = rtts[:, 0] > 0.1
    pack("sack_stability_long", c[:, long, send].max(axis=1))
    c, _ = criteria_over_seeds("sack", "delay", (delay_for_rtt(RTT_200),), seeds, duration)
    pack("sack_stability_rtt200", c[:, 0, send])
    c, _ = criteria_over_seeds("tfrc", "delay", grid["delay"], seeds, duration)
    pack("tfrc_stability_delay", c[:, :, [send, recv]].mean(axis=(1, 2)))
    c, rtts = criteria_over_seeds("sack", "access_delay", grid["access_delay"], seeds, duration)
    apart = (rtts[:, 1] - rtts[:, 0]) > 0.06
    pack("sack_fairness_hetero", c[:, apart, fair].max(axis=1))
    pack("sack_stability_hetero", c[:, :, [send, recv]].max(axis=(1, 2)))
    c, _ = criteria_over_seeds("tfrc", "access_delay", grid["access_delay"], seeds, duration)
    pack("tfrc_fairness_hetero", c[:, :, fair].mean(axis=1))
    return out
