# ctlcc.sim._fluid_jit - the fluid model's step loop, compiled with numba (private)
"""The step loop of :func:`ctlcc.sim.fluid.simulate` for the built-in laws and AQMs.

:func:`integrate` is the loop of ``ctlcc.sim.fluid._integrate`` written for
numba, one batch member, class and link at a time: the same operations on
the same doubles in the same order, so its trajectories are bit for bit
those of the numpy loop (``benchmarks/fluid_identity.py`` checks every law
behind every AQM with ``np.array_equal``).  The law and AQM arithmetic is
that of the law cores (:mod:`ctlcc.laws.tcp`, :mod:`ctlcc.laws.stpd`,
:mod:`ctlcc.laws.primo`, :mod:`ctlcc.laws.aqm`), compiled in.

The numpy loop sums a path's links and a link's classes with a matrix
product; the compiled loop adds them one by one.  Both give the same
double when every sum has at most two terms (addition is commutative and
adding an exact zero changes nothing), so ``fluid._integrate`` calls this
loop only for routes where no class crosses more than two links and no link
carries more than two classes.  The loop gives up (returns 1) at the first
value that is not a finite number, and ``fluid._integrate`` runs the numpy
loop instead, whose checks name the input that went wrong.

numba's on-disk cache keys a compiled function on its own file only;
:func:`ensure_fresh` drops this module's cached code when the source of a
law module it compiles in changes.
"""

import ast
import hashlib
import math
import sys
from pathlib import Path

import numba
import numpy as np

from ..laws import aqm as _aqm
from ..laws import primo as _primo
from ..laws import stpd as _stpd
from ..laws import tcp as _tcp

__all__ = []

RENO, STPD, PRIMO = 0, 1, 2
DROPTAIL, RED, PI, FIXED, FIXED_SERIES = 0, 1, 2, 3, 4
SPACING = {name: i for i, name in enumerate(_aqm.RED_SPACINGS)}   # red_spacing_rate_core's codes


def _inline(func):
    return numba.njit(func, cache=True, inline="always")


_reno_slope = _inline(_tcp.fluid_window_derivative_core)
_buffer_estimate = _inline(_stpd.buffer_estimate_core)
_control_error = _inline(_stpd.control_error_core)
_pd_update = _inline(_stpd.pd_update_core)
_regime_update = _inline(_primo.regime_update)
_red_average_step = _inline(_aqm.red_average_step_core)
_red_probability = _inline(_aqm.red_probability_core)
_red_spacing = _inline(_aqm.red_spacing_rate_core)
_pi_increment = _inline(_aqm.pi_increment_core)
_red_gate = _inline(_aqm.red_gate_core)


@_inline
def _max(a, b):
    """np.maximum of two doubles (NaN propagates; a on a tie)."""
    return a if (a >= b or a != a) else b


@_inline
def _min(a, b):
    """np.minimum of two doubles (NaN propagates; a on a tie)."""
    return a if (a <= b or a != a) else b


@_inline
def _read(ring, b, i, j, position, length):
    """_History.read of signal j of class (b, i) at fractional step *position*."""
    base = np.floor(position)
    frac = position - base
    slot = int(base) % length
    low = ring[b, i, slot, j]
    high = ring[b, i, slot + 1, j]
    return low + frac * (high - low)


@_inline
def _red_map(a, low, high, pmax, gentle, spacing):
    """fluid.Red._map of one number: RED's curve, then its spacing rule (the laws' cores)."""
    return _red_spacing(_red_probability(a, low, high, pmax, gentle), spacing)


@numba.njit(cache=True)
def integrate(law, aqm, steps, record_every, dt, length, single, routes,
              capacity, buffer, inv_capacity, tp, weights, queue,
              state, law_arrays, law_scalars, link_arrays, aqm_scalars, marking_series,
              rec_queue, rec_rate, rec_window, rec_round_trip, rec_probability,
              rec_reception, sum_queue, sum_rate, sum_reception, dropped):
    """Run the step loop; fill the records, sums and drops; 0 on success, 1 on a non-finite value.

    law_arrays (B, N): Reno -; Stpd kp dt / slot, kd, slot, fixed delay;
    Primo ftt_ref, tau Tp.  law_scalars: Reno min, max window; Stpd
    reference, use the round trip (1) or the fixed delay (0); Primo W1, W2,
    F_str, F_mod, F_rel, TH_str, TH_mod, TH_rel.  link_arrays (B, L): RED
    min, max threshold, max p, averaging pole; FixedMarking p.  aqm_scalars:
    RED gentle, spacing, averaging (1/0), min_queue (RED_NO_MIN_QUEUE: none); PI a, b,
    q_ref, period.  marking_series (steps + 1, B, L): a FixedMarking
    function of time, evaluated at every step.  ``state`` (B, N) is Reno's window or the rate, updated.
    """
    n_batch, n_links = queue.shape
    n_classes = tp.shape[1]
    n_signals = 2 if law == RENO else (1 if law == STPD else 3)
    ring = np.empty((n_batch, n_classes, length + 1, n_signals))
    average = queue.copy()
    overflow_p = np.zeros_like(queue)
    pi_p = np.zeros_like(queue)
    pi_q = queue.copy()
    pi_next = 0.0
    rate = np.empty_like(tp)
    round_trip = np.empty_like(tp)
    probability = np.empty_like(tp)
    reception = np.empty_like(tp)
    p_link = np.empty_like(queue)
    sigma = np.empty_like(queue)
    y = np.empty_like(queue)
    signal = np.empty(n_signals)
    for b in range(n_batch):
        for i in range(n_classes):
            r = tp[b, i] + _path_sum(queue, inv_capacity, routes, single, b, i)
            rate[b, i] = state[b, i] / r if law == RENO else state[b, i]
    for k in range(steps + 1):
        time = k * dt
        if aqm == PI and time >= pi_next - 1e-9 * dt:
            for b in range(n_batch):
                for l in range(n_links):
                    p = pi_p[b, l] + _pi_increment(queue[b, l], pi_q[b, l], aqm_scalars[2],
                                                   aqm_scalars[0], aqm_scalars[1])
                    pi_p[b, l] = _min(_max(p, 0.0), 1.0)
                    pi_q[b, l] = queue[b, l]
            pi_next += aqm_scalars[3]
        # link signals: marking, arrivals, service share
        for b in range(n_batch):
            for l in range(n_links):
                q = queue[b, l]
                if aqm == DROPTAIL:
                    p_link[b, l] = overflow_p[b, l]
                else:
                    if aqm == PI:
                        m = pi_p[b, l]
                    elif aqm == FIXED:
                        m = link_arrays[0, b, l]
                    elif aqm == FIXED_SERIES:
                        m = marking_series[k, b, l]
                    else:
                        m = _red_map(average[b, l] if aqm_scalars[2] != 0.0 else q,
                                     link_arrays[0, b, l], link_arrays[1, b, l],
                                     link_arrays[2, b, l], aqm_scalars[0] != 0.0,
                                     int(aqm_scalars[1]))
                        if not _red_gate(q, aqm_scalars[3]):
                            m = 0.0
                    p_link[b, l] = 1 - (1 - m) * (1 - overflow_p[b, l])
                arrivals = _arrivals(rate, weights, routes, single, b, l)
                y[b, l] = arrivals
                c = capacity[b, l]
                sigma[b, l] = c / arrivals if ((q > 0 or arrivals > c) and arrivals > 0) else 1.0
        for b in range(n_batch):
            for i in range(n_classes):
                r = tp[b, i] + _path_sum(queue, inv_capacity, routes, single, b, i)
                round_trip[b, i] = r
                if single:
                    probability[b, i] = p_link[b, 0]
                    reception[b, i] = rate[b, i] * sigma[b, 0]
                else:
                    kept = 1.0
                    share = 1.0
                    for l in range(n_links):
                        if routes[l, i]:
                            kept = kept * (1 - p_link[b, l])
                            share = share * sigma[b, l]
                    probability[b, i] = 1 - kept
                    reception[b, i] = rate[b, i] * share
                if not (math.isfinite(r) and math.isfinite(probability[b, i])
                        and math.isfinite(reception[b, i]) and math.isfinite(rate[b, i])):
                    return 1
                # the history ring (slot ``length`` mirrors slot 0)
                if law == RENO:
                    signal[0] = rate[b, i]
                    signal[1] = probability[b, i]
                elif law == STPD:
                    estimate = _buffer_estimate(r, tp[b, i], reception[b, i])
                    signal[0] = _control_error(law_scalars[0], estimate)
                    if not math.isfinite(signal[0]):
                        return 1
                else:
                    signal[0] = rate[b, i]
                    signal[1] = reception[b, i]
                    signal[2] = r - tp[b, i]
                slot = k % length
                if k == 0:
                    for s in range(length + 1):
                        for j in range(n_signals):
                            ring[b, i, s, j] = signal[j]
                for j in range(n_signals):
                    ring[b, i, slot, j] = signal[j]
                    if slot == 0:
                        ring[b, i, length, j] = signal[j]
        if k % record_every == 0:
            row = k // record_every
            for b in range(n_batch):
                for l in range(n_links):
                    rec_queue[row, b, l] = queue[b, l]
                for i in range(n_classes):
                    rec_rate[row, b, i] = rate[b, i]
                    rec_window[row, b, i] = (state[b, i] if law == RENO
                                             else rate[b, i] * round_trip[b, i])
                    rec_round_trip[row, b, i] = round_trip[b, i]
                    rec_probability[row, b, i] = probability[b, i]
                    rec_reception[row, b, i] = reception[b, i]
        if k == steps:
            break
        for b in range(n_batch):
            for l in range(n_links):
                sum_queue[b, l] += queue[b, l]
            for i in range(n_classes):
                sum_rate[b, i] += rate[b, i]
                sum_reception[b, i] += reception[b, i]
        # the law: next rate from the delayed signals
        for b in range(n_batch):
            for i in range(n_classes):
                r = round_trip[b, i]
                if law == RENO:
                    position = k - r / dt
                    delayed_rate = _read(ring, b, i, 0, position, length)
                    delayed_p = _read(ring, b, i, 1, position, length)
                    slope = _reno_slope(state[b, i], r, delayed_rate, delayed_p)
                    state[b, i] = _min(_max(state[b, i] + dt * slope, law_scalars[0]),
                                       law_scalars[1])
                    rate[b, i] = state[b, i] / r
                elif law == STPD:
                    delay = r if law_scalars[1] != 0.0 else law_arrays[3, b, i]
                    position = (k + 1) - delay / dt
                    slot_time = law_arrays[2, b, i]
                    error = _read(ring, b, i, 0, position, length)
                    previous = _read(ring, b, i, 0, position - 1, length)
                    updated = _pd_update(state[b, i], error / slot_time, previous / slot_time,
                                         law_arrays[0, b, i], law_arrays[1, b, i])
                    if not math.isfinite(updated):
                        return 1
                    state[b, i] = _max(updated, 0.0)
                    rate[b, i] = state[b, i]
                else:
                    position = (k + 1) - r / dt
                    old_rate = _read(ring, b, i, 0, position, length)
                    rcv_rate = _read(ring, b, i, 1, position, length)
                    dftt = _read(ring, b, i, 2, position - law_arrays[1, b, i] / dt, length)
                    excess = _max(dftt, 0.0)
                    if not math.isfinite(excess):
                        return 1
                    ref = law_arrays[0, b, i]
                    x = state[b, i]
                    if excess >= law_scalars[5] * ref:
                        factor = law_scalars[2]
                    elif excess >= law_scalars[6] * ref:
                        factor = law_scalars[3]
                    elif excess < law_scalars[7] * ref:
                        factor = law_scalars[4]
                    else:
                        factor = math.nan
                    if factor == factor:
                        weight = law_scalars[1] ** (x * dt)
                        state[b, i] = _regime_update(old_rate, x, rcv_rate, factor,
                                                     law_scalars[0], weight)
                    rate[b, i] = state[b, i]
        # the queue integrates the new rates over the step
        for b in range(n_batch):
            for l in range(n_links):
                arrivals = _arrivals(rate, weights, routes, single, b, l)
                q = queue[b, l]
                raw = q + dt * (arrivals - capacity[b, l])
                excess = _max(raw - buffer[b, l], 0.0)
                dropped[b, l] += excess
                overflow_p[b, l] = excess / (dt * arrivals) if excess > 0 else 0.0
                if aqm == RED and aqm_scalars[2] != 0.0:
                    average[b, l] = _red_average_step(average[b, l], q, link_arrays[3, b, l],
                                                      dt)
                queue[b, l] = _min(_max(raw, 0.0), buffer[b, l])
    return 0


@_inline
def _path_sum(queue, inv_capacity, routes, single, b, i):
    """(queue / C) summed over class i's path (the numpy loop's ``@ routes``)."""
    if single:
        return queue[b, 0] * inv_capacity[b, 0]
    total = 0.0
    for l in range(queue.shape[1]):
        total += queue[b, l] * inv_capacity[b, l] * routes[l, i]
    return total


@_inline
def _arrivals(rate, weights, routes, single, b, l):
    """Arrival rate at link l (the numpy loop's ``(x n) @ routes.T``)."""
    if single:
        return rate[b, 0] * weights[b, 0]
    total = 0.0
    for i in range(rate.shape[1]):
        total += rate[b, i] * weights[b, i] * routes[l, i]
    return total


# --------------------------------------------------------------------------- cache freshness
_SOURCES = (Path(_tcp.__file__), Path(_stpd.__file__), Path(_primo.__file__),
            Path(_aqm.__file__), Path(__file__))
_STAMP = "ctlcc_fluid.stamp"
_CHECKED = []


def _code_only(source):
    """The module's syntax tree without docstrings (comments never reach it)."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree)


def ensure_fresh():
    """Drop this module's cached code if a source it compiles in changed (once per process)."""
    if _CHECKED:
        return
    _CHECKED.append(True)
    try:
        h = hashlib.sha256()
        for path in _SOURCES:
            h.update(path.name.encode())
            h.update(_code_only(path.resolve().read_text()).encode())
        h.update(sys.version.encode())
        digest = h.hexdigest()
        directory = Path(integrate._cache._cache_path)
        stamp = directory / _STAMP
        if stamp.exists() and stamp.read_text() == digest:
            return
        if directory.is_dir():
            prefix = Path(__file__).stem + "."
            for entry in directory.iterdir():
                if entry.suffix in (".nbi", ".nbc") and entry.name.startswith(prefix):
                    entry.unlink(missing_ok=True)
        directory.mkdir(parents=True, exist_ok=True)
        stamp.write_text(digest)
    except OSError:  # read-only install: numba compiles in memory
        pass

