"""Helpers behind the thesis's Ch. 3 findings (Figs. 3.11-3.24, eq. 3.3), on hand-made
inputs whose answers are counted by hand (no simulation)."""

import math
from types import SimpleNamespace

import numpy as np
import pytest

from ctlcc.experiments.thesis.multi_flow import (_episode_count, _longest_stall, _means,
                                                 _subsided_after)
from ctlcc.experiments.thesis.single_flow import (_episode_starts, _idle_per_cycle,
                                                  _longest_zero_run, _queue_estimate_error)


def test_episode_starts_groups_drops_closer_than_the_gap():
    # drops at 1.00, 1.05, 1.10 | 2.00 | 3.00, 3.20 with a 0.25-s gap: three episodes
    t = [3.2, 1.0, 1.05, 2.0, 1.1, 3.0]
    assert np.allclose(_episode_starts(t, 0.0, 0.25), [1.0, 2.0, 3.0])
    assert np.allclose(_episode_starts(t, 1.5, 0.25), [2.0, 3.0])      # after 1.5 s only
    assert np.allclose(_episode_starts(t, 0.0, 0.2), [1.0, 2.0, 3.0, 3.2])  # 0.2 apart: new
    assert _episode_starts([], 0.0, 1.0).size == 0


def test_episode_count_per_phase():
    t = [1.0, 1.05, 2.0, 3.0, 3.2, 9.0]
    assert _episode_count(t, 0.0, 10.0, 0.25) == 4     # 1.0, 2.0, 3.0, 9.0
    assert _episode_count(t, 1.5, 3.1, 0.25) == 2      # 2.0, 3.0 start inside
    assert _episode_count(t, 1.02, 1.9, 0.25) == 0     # 1.05 belongs to the 1.0 episode
    assert _episode_count([], 0.0, 1.0, 0.25) == 0


def test_idle_per_cycle_from_in_order_deliveries():
    # 100 packets/s link (10 ms each); cycles 0-1 s and 1-3 s; 80 packets delivered in the
    # first (0.2 s idle), 200 in the second (never idle)
    time = np.array([0.0, 1.0, 3.0])
    delivered = np.array([0.0, 80.0, 280.0])
    idle = _idle_per_cycle(time, delivered, [0.0, 1.0, 3.0], 0.01)
    assert np.allclose(idle, [0.2, 0.0])
    assert _idle_per_cycle(time, delivered, [1.0], 0.01).size == 0


def test_longest_zero_run_counts_sampling_intervals():
    time = np.arange(0.0, 1.0, 0.002)
    q = np.ones(time.size)
    q[100:110] = 0          # 10 samples: 20 ms
    q[200:204] = 0          # 4 samples
    assert _longest_zero_run(time, q, 0.0, 1.0) == pytest.approx(0.020)
    assert _longest_zero_run(time, q, 0.41, 1.0) == 0.0     # both spells before 0.41 s
    assert _longest_zero_run(time, q, 0.39, 0.5) == pytest.approx(0.008)


def test_queue_estimate_error_of_eq_3_3_on_a_constructed_trace():
    # one flow, bottleneck 100 packets/s; the first packet sees an empty queue (RTT 50 ms
    # = RTT_min), the later ones 3 and 5 waiting packets plus 0.4 of a packet in service:
    # (RTT - RTT_min) x 100 = 3.4 and 5.4 against 3 and 5 waiting -> errors 0, 0.4, 0.4
    time = np.arange(0.0, 2.0, 0.002)
    queue = np.zeros((time.size, 1))
    queue[(time >= 0.5) & (time < 1.0), 0] = 3
    queue[time >= 1.0, 0] = 5
    hop = 0.001
    sends = np.array([0.1, 0.7, 1.5])
    rtts = np.array([0.050, 0.084, 0.104])
    rtt = np.column_stack([sends + rtts - hop + hop, np.zeros(3), rtts])
    r = SimpleNamespace(time=time, queue=queue, rtt=rtt)
    err = _queue_estimate_error(r, 100.0, hop, 0.0)
    assert np.allclose(err, [0.0, 0.4, 0.4])
    assert np.allclose(_queue_estimate_error(r, 100.0, hop, 0.5), [0.4, 0.4])


def test_bin_means_and_subsiding_time():
    time = np.arange(0.0, 4.0, 0.01)
    x = np.where(time < 1.2, 6.0, 2.0)          # an overshoot of 4 packets that ends at 1.2 s
    ends, m = _means(time, x, 0.0, 4.0, 0.5)
    assert np.allclose(ends, [0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0])
    assert np.allclose(m[:2], 6.0) and m[2] == pytest.approx((20 * 6 + 30 * 2) / 50)
    assert np.allclose(m[3:], 2.0)
    # bin 1.0-1.5 (mean 3.6) is within 1 of neither... 3.6 - 2 = 1.6 > 1: subsided at 1.5 s
    assert _subsided_after(ends, m, 2.0, 1.0) == pytest.approx(1.5)
    assert _subsided_after(ends, m, 2.0, 5.0) == 0.0
    assert math.isinf(_subsided_after(ends, np.r_[m[:-1], 9.0], 2.0, 1.0))


def test_longest_stall_of_in_order_delivery():
    time = np.arange(0.0, 10.0, 1.0)
    delivered = np.array([0, 1, 2, 2, 2, 2, 3, 4, 4, 5], dtype=float)   # flat 2 -> 5 s
    assert _longest_stall(time, delivered, 0.0) == pytest.approx(4.0)
    # after 6 s: growths at 7 and 9 s, nothing in between: a 2-s stall
    assert _longest_stall(time, delivered, 6.0) == pytest.approx(2.0)
