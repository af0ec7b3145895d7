# ctlcc.experiments.aqm - RED and PI on packets vs the fluid model and the linear analysis
"""AQM on packets: Hollot et al.'s example network behind RED and PI (issue 22 §3).

* :func:`hollot_checks` - N = 60 NewReno flows on C = 3750 packets/s with
  Tp = 0.2 s behind five AQM settings (Hollot et al.'s designed PI, the
  same PI with 30 times the gain, a RED the linear analysis calls stable,
  one it calls unstable, and the stable one with half its max_p), each on packets (:func:`ctlcc.sim.run`), in the
  fluid model (:func:`ctlcc.sim.fluid.simulate`, the same law functions)
  and in the linear analysis (:mod:`ctlcc.analysis.aqm`): mean queue,
  oscillation period and spread;
* :func:`behind_aqm` - a new experiment: ST-PD, Primo and NewReno sharing
  one bottleneck behind drop-tail, RED and PI: queue, goodput, fairness.

The network (:func:`hollot_network`): a dumbbell whose bottleneck carries
3750 data packets of 1054 bytes per second, 1 ms access and egress links
and a 98 ms bottleneck (round-trip propagation 0.2 s), an 800-packet
buffer.  Hollot et al.'s own simulations used 500-byte packets at 15 Mb/s
(the same packets per second).

The PI coefficients are ns-2's defaults (``Queue/PI`` in ns-2's
``ns-default.tcl``: a = 1.822e-5, b = 1.816e-5), which are Hollot et al.'s
K_PI = 9.64e-6, z = 0.53 rad/s by the Tustin map at 160 Hz
(:func:`ctlcc.laws.aqm.pi_coefficients`; at ns-2's default 170 Hz they round
to the same four digits).  The RED settings are ctlcc's choices around the
example network, made with :func:`ctlcc.analysis.aqm.red_loop` (not the
paper's RED parameters).

References
----------
Hollot et al. (2001), §IV; Hollot et al. (2002), §V; Floyd & Jacobson (1993).
"""

import functools
import math
from dataclasses import dataclass

import numpy as np

from ..analysis import aqm as _analysis
from ..bounds.fairness import jain_index as _fairness
from ..laws.aqm import PiParams, RedParams, red_averaging_pole
from ..sim import fluid as _fluid
from ..sim import run as _run
from ..sim.scenarios import TcpOptions, dumbbell
from .._validation import check_finite, check_positive
from ..errors import ParameterError
from . import _args
from ._args import checked

__all__ = ["N_FLOWS", "CAPACITY", "PROPAGATION", "BUFFER", "SETTINGS", "hollot_network",
           "AqmCheck", "hollot_checks", "default_checks", "dominant_period", "autocorrelation_peak",
           "spread", "BehindAqm",
           "behind_aqm"]

#: Hollot et al.'s example: flows, link rate [packets/s], round-trip propagation [s]
N_FLOWS, CAPACITY, PROPAGATION = 60, 3750.0, 0.2
#: Bottleneck buffer [packets]
BUFFER = 800
#: Data packet on the wire (ctlcc's default 1000 + 54 bytes) [bytes]
_PACKET_BYTES = 1054
#: The queue is sampled every ... [s]; statistics over [WINDOW[0], duration]
_SAMPLE = 0.02
WINDOW = 30.0

_PI = PiParams(1.822e-5, 1.816e-5, 175.0, 160.0)
#: The four settings of :func:`hollot_checks`: name -> AQM parameters
SETTINGS = {
    "pi": _PI,
    "pi_hot": PiParams(30 * _PI.a, 30 * _PI.b, 175.0, 160.0),
    "red_stable": RedParams(50.0, 550.0, 0.1, weight=1e-4),
    "red_unstable": RedParams(50.0, 150.0, 0.5, weight=1e-4),
    # half red_stable's max_p: F&J's count spacing drops about 2 p_b per packet, so on
    # packets this one acts as red_stable does in the fluid model and the linear analysis
    "red_halved": RedParams(50.0, 550.0, 0.05, weight=1e-4),
}


def _series(time, queue):
    """Check a sampled series: time strictly increasing, queue of the same length. [s, packets]"""
    t = check_finite("time", time)
    x = check_finite("queue", queue)
    if t.ndim != 1 or t.size < 2:
        raise ParameterError(f"time must be a 1-D array of at least 2 samples, got shape "
                             f"{t.shape}")
    if x.shape != t.shape:
        raise ParameterError(f"queue must have one value per time sample ({t.size}), got shape "
                             f"{x.shape}")
    if np.any(np.diff(t) <= 0):
        raise ParameterError("time must increase strictly, got a step <= 0 at index "
                             f"{int(np.argmax(np.diff(t) <= 0))}")
    return t, x


def _check_settings(name, value):
    return None if value is None else _args.choices(tuple(SETTINGS))(name, value)


def _check_warmed_up(name, value):
    value = _args.positive(name, value)
    if value <= WINDOW:
        raise ParameterError(f"{name} must be > {WINDOW:g} s (statistics start at "
                             f"{WINDOW:g} s), got {value!r}")
    return value


@checked(protocol=_args.protocol_per_flow, n_flows=_args.count)
def hollot_network(queue, n_flows=N_FLOWS, protocol="newreno", **options):
    """Hollot et al.'s example network on ctlcc's engine behind *queue*.

    Parameters
    ----------
    queue : "droptail", RedParams or PiParams
    n_flows : int
    protocol : str, sender or sequence
        Per flow or shared.
    **options
        Passed to :func:`ctlcc.sim.scenarios.dumbbell`.

    Returns
    -------
    Scenario

    Examples
    --------
    >>> s = hollot_network("droptail")
    >>> round(s.links[0].rate / (1054 * 8)), s.links[0].buffer
    (3750, 800)
    """
    access = 1e-3
    return dumbbell(n_flows, bottleneck_rate=CAPACITY * _PACKET_BYTES * 8,
                    bottleneck_delay=PROPAGATION / 2 - 2 * access, access_delay=access,
                    buffer=BUFFER, protocol=protocol, queue=queue, **options)


def dominant_period(time, queue, low=1.0, high=20.0):
    """Period of the strongest oscillation of a sampled series, in [low, high] s.

    The peak of the periodogram of the mean-removed series (zero-padded 8
    times, Hann window).

    Parameters
    ----------
    time, queue : array_like
        Evenly sampled. [s], [packets]
    low, high : float
        Periods searched. [s]

    Returns
    -------
    float
        [s]

    Examples
    --------
    >>> t = np.arange(0, 100, 0.02)
    >>> round(dominant_period(t, 5 + np.sin(2 * np.pi * t / 4.0)), 2)
    4.0
    """
    t, x = _series(time, queue)
    low = check_positive("low", low, scalar=True)
    high = check_positive("high", high, scalar=True)
    if not low < high:
        raise ParameterError(f"low must be < high={high!r}, got {low!r}")
    x = (x - x.mean()) * np.hanning(len(x))
    dt = t[1] - t[0]
    n = 8 * len(x)
    power = np.abs(np.fft.rfft(x, n)) ** 2
    freq = np.fft.rfftfreq(n, dt)
    band = (freq >= 1.0 / high) & (freq <= 1.0 / low)
    if not np.any(band):
        raise ParameterError(
            f"high must let the band [low, high] hold a period the series resolves (periods "
            f"{1 / freq[-1]:g} to {1 / freq[1]:g} s), got low={low!r}, high={high!r}")
    return float(1.0 / freq[band][np.argmax(power[band])])


def autocorrelation_peak(time, queue, low=0.5, high=20.0):
    """Lag and height of the highest autocorrelation peak of a sampled series.

    The normalised autocorrelation of the mean-removed series, searched
    from its first zero crossing (or *low*, if later) to *high*: a periodic
    limit cycle gives its period with a height near 1, an irregular series
    a low height (its lag then names no period).  A second route to the
    period beside :func:`dominant_period`, whose periodogram always has a
    highest bin.

    Parameters
    ----------
    time, queue : array_like
        Evenly sampled. [s], [packets]
    low, high : float
        Lags searched. [s]

    Returns
    -------
    (float, float)
        Lag [s] and normalised autocorrelation there [1]; (nan, nan) if
        the autocorrelation does not cross zero before *high* or the series
        is constant.

    Examples
    --------
    >>> t = np.arange(0, 100, 0.02)
    >>> lag, height = autocorrelation_peak(t, 5 + np.sin(2 * np.pi * t / 4.0))
    >>> round(lag, 2), height > 0.9
    (4.0, True)
    """
    t, x = _series(time, queue)
    low = check_positive("low", low, scalar=True)
    high = check_positive("high", high, scalar=True)
    if not low < high:
        raise ParameterError(f"low must be < high={high!r}, got {low!r}")
    x = x - x.mean()
    n = len(x)
    f = np.fft.rfft(x, 2 * n)
    ac = np.fft.irfft(f * np.conj(f))[:n]
    if ac[0] <= 0.0:
        return math.nan, math.nan
    ac = ac / ac[0]
    lags = np.arange(n) * (t[1] - t[0])
    negative = np.flatnonzero(ac < 0.0)
    if negative.size == 0 or lags[negative[0]] >= high:
        return math.nan, math.nan
    band = (lags >= max(low, lags[negative[0]])) & (lags <= high)
    if not np.any(band):
        return math.nan, math.nan
    i = int(np.flatnonzero(band)[np.argmax(ac[band])])
    return float(lags[i]), float(ac[i])


def spread(time, queue, bin_width=1.0):
    """Standard deviation of the series averaged over *bin_width* bins. [packets]

    Examples
    --------
    >>> t = np.arange(0, 10, 0.5)
    >>> spread(t, np.where(t < 5, 0.0, 2.0))
    1.0
    """
    t, x = _series(time, queue)
    bin_width = check_positive("bin_width", bin_width, scalar=True)
    step = float(np.max(np.diff(t)))
    if bin_width < step:
        raise ParameterError(f"bin_width must be >= the largest sampling step {step:g} s (no "
                             f"empty bin), got {bin_width!r}")
    bins = np.floor((t - t[0]) / bin_width).astype(int)
    means = np.bincount(bins, weights=x) / np.bincount(bins)
    return float(np.std(means))


@dataclass(frozen=True)
class AqmCheck:
    """One AQM setting on Hollot's network: packets, fluid model, linear analysis.

    Attributes
    ----------
    name : str
    params : RedParams or PiParams
    seeds : tuple of int
    time : ndarray
        Sample times of the packet queue. [s]
    queues : ndarray, shape (seeds, samples)
        Packet queue per seed. [packets]
    mean_queue, periods, spreads, raw_spreads : tuple of float
        Per seed over the window: mean [packets], dominant period [s],
        spread of 1-s means [packets], standard deviation of the 20-ms
        samples [packets].
    fluid_time, fluid_queue : ndarray
        The fluid model's queue. [s], [packets]
    fluid_mean : float
        Its mean over the window. [packets]
    loop : AqmLoop
        The linear analysis (prediction, margins, period).
    operating_queue : float
        The linear analysis' queue (q_ref, or RED's operating point). [packets]
    utilisation, drop_rate : tuple of float
        Per seed: bottleneck utilisation [1], drops per arrival [1].
    timeouts : tuple of int
        Per seed: retransmission timeouts of all flows over the whole run.
    fluid_count_time, fluid_count_queue : ndarray or None
        RED only: the fluid model read with F&J's count spacing
        (``Red(spacing="count")``). [s], [packets]
    fluid_count_mean : float
        Its mean over the window (nan for PI). [packets]
    """

    name: str
    params: object
    seeds: tuple
    time: np.ndarray
    queues: np.ndarray
    mean_queue: tuple
    periods: tuple
    spreads: tuple
    fluid_time: np.ndarray
    fluid_queue: np.ndarray
    fluid_mean: float
    loop: object
    operating_queue: float
    utilisation: tuple
    drop_rate: tuple
    raw_spreads: tuple = ()
    timeouts: tuple = ()
    fluid_count_time: object = None
    fluid_count_queue: object = None
    fluid_count_mean: float = math.nan


def _fluid_aqm(params, spacing="none"):
    if isinstance(params, PiParams):
        return _fluid.Pi(params)
    return _fluid.Red(params.min_threshold, params.max_threshold, params.max_probability,
                      averaging=red_averaging_pole(params.weight, CAPACITY), spacing=spacing)


@checked(settings=_check_settings, duration=_check_warmed_up)
def hollot_checks(seeds=(1, 2, 3), duration=100.0, settings=None):
    """Every setting of :data:`SETTINGS` on packets, in the fluid model and linearised.

    Parameters
    ----------
    seeds : sequence of int
    duration : float
        Packet and fluid run length; statistics over [30 s, duration]. [s]
    settings : sequence of str, optional
        Names of :data:`SETTINGS` (default all).

    Returns
    -------
    dict
        name -> :class:`AqmCheck`.
    """
    out = {}
    net = _fluid.network(capacity=CAPACITY, buffer=float(BUFFER),
                         propagation_delay=PROPAGATION, n_flows=N_FLOWS)
    for name in (settings or SETTINGS):
        params = SETTINGS[name]
        scenario = hollot_network(params)
        queues, means, periods, spreads, util, drops, raw = [], [], [], [], [], [], []
        timeouts = []
        time = None
        high = 40.0 if name.startswith("red") else 20.0
        for seed in seeds:
            r = _run(scenario, duration, seed=seed, sample_interval=_SAMPLE, progress=False)
            t, q = r.samples.time, r.samples.queue[:, 0].astype(float)
            keep = t >= WINDOW
            time = t
            queues.append(q)
            means.append(float(q[keep].mean()))
            periods.append(dominant_period(t[keep], q[keep], high=high))
            spreads.append(spread(t[keep], q[keep]))
            raw.append(float(np.std(q[keep])))
            util.append(r.queues[0].utilisation)
            drops.append(r.queues[0].drops / max(r.queues[0].arrivals, 1))
            timeouts.append(int(sum(f.timeouts for f in r.flows)))
        fl = _fluid.simulate(net, _fluid.Reno(initial_window=1.0), duration=duration, dt=1e-3,
                             aqm=_fluid_aqm(params), record_every=20)
        ft, fq = np.asarray(fl.time), np.asarray(fl.queue[:, 0, 0])
        count_time = count_queue = None
        count_mean = math.nan
        if isinstance(params, PiParams):
            loop = _analysis.pi_loop(N_FLOWS, CAPACITY, PROPAGATION, params)
            q0 = params.reference
        else:
            fc = _fluid.simulate(net, _fluid.Reno(initial_window=1.0), duration=duration,
                                 dt=1e-3, aqm=_fluid_aqm(params, "count"), record_every=20)
            count_time, count_queue = np.asarray(fc.time), np.asarray(fc.queue[:, 0, 0])
            count_mean = float(count_queue[count_time >= WINDOW].mean())
            loop = _analysis.red_loop(N_FLOWS, CAPACITY, PROPAGATION, params)
            q0 = _analysis.red_operating_point(N_FLOWS, CAPACITY, PROPAGATION, params)
        length = min(len(q) for q in queues)
        out[name] = AqmCheck(
            name=name, params=params, seeds=tuple(seeds), time=time[:length],
            queues=np.array([q[:length] for q in queues]), mean_queue=tuple(means),
            periods=tuple(periods), spreads=tuple(spreads), fluid_time=ft, fluid_queue=fq,
            fluid_mean=float(fq[ft >= WINDOW].mean()), loop=loop, operating_queue=float(q0),
            utilisation=tuple(util), drop_rate=tuple(drops), raw_spreads=tuple(raw),
            timeouts=tuple(timeouts), fluid_count_time=count_time,
            fluid_count_queue=count_queue, fluid_count_mean=count_mean)
    return out


@functools.lru_cache(maxsize=1)
def default_checks():
    """:func:`hollot_checks` with its defaults, computed once per process (the report's
    figures and the ledger's units share it)."""
    return hollot_checks()


@dataclass(frozen=True)
class BehindAqm:
    """ST-PD, Primo and NewReno sharing a bottleneck behind each queue.

    Attributes
    ----------
    queues : tuple of str
        Queue names (``droptail``, ``red``, ``pi``).
    protocols : tuple of str
        One per flow.
    seeds : tuple of int
    mean_queue : dict
        queue name -> per-seed mean queue. [packets]
    goodput : dict
        (queue name, protocol) -> per-seed mean goodput per flow of that protocol. [b/s]
    jain : dict
        queue name -> per-seed Jain index over all flows. [1]
    drop_rate : dict
        queue name -> per-seed drops per arrival at the bottleneck. [1]
    time, queue_trace : dict
        queue name -> sample times and queue of the first seed. [s], [packets]
    per_protocol : int
        Flows of each protocol.
    """

    queues: tuple
    protocols: tuple
    seeds: tuple
    mean_queue: dict
    goodput: dict
    jain: dict
    drop_rate: dict
    time: dict
    queue_trace: dict
    per_protocol: int = 0


@checked(per_protocol=_args.count, ecn=_args.flag, duration=_check_warmed_up)
def behind_aqm(per_protocol=4, protocols=("stpd", "primo", "newreno"), seeds=(1, 2, 3),
               duration=100.0, ecn=False):
    """A new experiment: ST-PD and Primo against NewReno behind drop-tail, RED and PI.

    Hollot's network (:func:`hollot_network`) with ``per_protocol`` flows
    of each protocol (default 12 flows), all starting at 0 s; the
    PI is re-designed for the flow count (:meth:`ctlcc.laws.aqm.PiParams.design`
    with N = 12, R = Tp + q_ref/C, 160 Hz, q_ref = 175), RED is
    (50, 550, 0.1, w_q = 1e-4) as in :func:`hollot_checks`.

    Parameters
    ----------
    per_protocol : int
    protocols : sequence of str
    seeds : sequence of int
    duration : float
        Statistics over [30 s, duration]. [s]
    ecn : bool
        ECN marking at the AQMs (``TcpOptions(ecn=True)``: NewReno reacts to
        marks; ST-PD and Primo ignore them, so their packets are dropped).

    Returns
    -------
    BehindAqm
    """
    n = per_protocol * len(protocols)
    flows = [p for p in protocols for _ in range(per_protocol)]
    reference = 175.0
    pi = PiParams.design(n, CAPACITY, PROPAGATION + reference / CAPACITY, reference, 160.0,
                         ecn=ecn)
    red = RedParams(50.0, 550.0, 0.1, weight=1e-4, ecn=ecn)
    queues = {"droptail": "droptail", "red": red, "pi": pi}
    mean_queue, goodput, jain, drops, times, traces = {}, {}, {}, {}, {}, {}
    for name, queue in queues.items():
        scenario = hollot_network(queue, n_flows=n, protocol=flows, tcp=TcpOptions(ecn=ecn))
        mean_queue[name], jain[name], drops[name] = [], [], []
        for p in protocols:
            goodput[name, p] = []
        for k, seed in enumerate(seeds):
            r = _run(scenario, duration, seed=seed, sample_interval=_SAMPLE, progress=False)
            t, q = r.samples.time, r.samples.queue[:, 0].astype(float)
            mean_queue[name].append(float(q[t >= WINDOW].mean()))
            rates = np.array([f.goodput_bps for f in r.flows])
            jain[name].append(float(_fairness(rates)))
            drops[name].append(r.queues[0].drops / max(r.queues[0].arrivals, 1))
            for p in protocols:
                goodput[name, p].append(float(np.mean(
                    [f.goodput_bps for f in r.flows if f.protocol == p])))
            if k == 0:
                times[name], traces[name] = t, q
    return BehindAqm(queues=tuple(queues), protocols=tuple(protocols), seeds=tuple(seeds),
                     mean_queue=mean_queue, goodput=goodput, jain=jain, drop_rate=drops,
                     time=times, queue_trace=traces, per_protocol=per_protocol)


def _mean(values):
    return float(np.mean(values)) if len(values) else math.nan
