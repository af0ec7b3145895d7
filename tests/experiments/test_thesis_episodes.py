"""The window statistics behind the thesis's Chapter 4 and 6 sentence records.

Every expected value is worked out by hand from a trace built for the test (the
samples, loss times and in-order deliveries are written out below), not taken from
the functions under test.
"""

import math

import numpy as np
import pytest

from ctlcc.experiments.thesis import coexistence, wireless


def _trace():
    """A 10-s trace sampled every 0.5 s: window 20 up to 2 s, 10 from 2.5 s, 5 from 6.5 s
    and a dip to 1 at 8 s; deliveries 10 per sample, held from 2 s to 3 s (a hole)."""
    time = np.arange(0.0, 10.0, 0.5)
    window = np.where(time < 2.5, 20.0, np.where(time < 6.5, 10.0, 5.0))
    window[time == 8.0] = 1.0
    delivered = 10.0 * np.arange(time.size)
    delivered[(time > 2.0) & (time <= 3.0)] = delivered[time == 2.0][0]
    delivered[time > 3.0] -= 20.0
    return time, window, delivered


def test_loss_episodes_group_one_window_of_losses():
    time, window, delivered = _trace()
    # 2.1 s and 2.2 s: no in-order delivery between them (the hole), one episode;
    # 6.1 s: 60 packets delivered since 2.2 s, more than the 20 the window held
    first, before, after = wireless._loss_episodes(time, window, delivered, [6.1, 2.2, 2.1])
    assert first.tolist() == [2.1, 6.1]
    # before: the samples at 2.0 s (20) and 6.0 s (10); after: the smallest sample in
    # [2.1, 6.1) is 10, in [6.1, 10) it is the dip to 1 at 8 s
    assert before.tolist() == [20.0, 10.0]
    assert after.tolist() == [10.0, 1.0]


def test_loss_episodes_horizon_and_empty():
    time, window, delivered = _trace()
    # with a 1-s horizon the second episode only sees 6.5 s and 7.0 s (window 5)
    _, _, after = wireless._loss_episodes(time, window, delivered, [2.1, 6.1], horizon=1.0)
    assert after.tolist() == [10.0, 5.0]
    first, before, after = wireless._loss_episodes(time, window, delivered, [])
    assert first.size == before.size == after.size == 0


def test_slow_start_exit_by_enumeration():
    # doubling every two RTTs (rtt = 1 s) to 16 packets at 8 s, then one packet per RTT
    time = np.arange(0.0, 20.0, 0.25)
    window = np.where(time <= 8.0, 2.0 ** (time / 2.0), 16.0 + (time - 8.0))
    # by hand: for t <= 6 the window doubles over two RTTs; for 6 < t < 8,
    # w(t + 2) = 10 + t against 1.5 x 2**(t/2): 17 >= 16.97 at t = 7, 17.25 < 18.51
    # at t = 7.25, the first sample that grows by less than half
    k = wireless._slow_start_exit(time, window, 1.0)
    assert time[k] == 7.25
    # a window that never stops doubling has no exit
    assert wireless._slow_start_exit(time[:20], 2.0 ** (time[:20] / 2.0), 1.0) == -1


def test_rise_then_cut():
    time = np.arange(0.0, 5.0, 0.5)
    #            0    0.5  1    1.5  2    2.5  3    3.5  4    4.5
    window = [40., 40., 42., 44., 22., 23., 24., 25., 26., 27.]
    # loss at 0.7 s: window 40 (the 0.5-s sample), largest 44 before the first sample
    # below 3/4 x 44 = 33, which is 22 at 2 s
    assert wireless._rise_then_cut(time, np.array(window), 0.7) == (40.0, 44.0, 22.0)
    # no cut: the largest and the smallest sample of the horizon
    flat = np.array([40., 40., 42., 41., 39., 40., 40., 40., 40., 40.])
    assert wireless._rise_then_cut(time, flat, 0.7, horizon=2.0) == (40.0, 42.0, 39.0)
    assert all(math.isnan(x) for x in wireless._rise_then_cut(time, flat, -1.0))


def test_difference_of_independent_means():
    a, b = [1.0, 2.0, 3.0, 4.0], [0.0, 2.0]
    diff, spread = wireless._difference(a, b)
    assert diff == pytest.approx(2.5 - 1.0)
    # se^2 = var(a)/4 + var(b)/2 = (5/3)/4 + 2/2 = 17/12; spread = se x sqrt(4)
    assert spread / math.sqrt(4) == pytest.approx(math.sqrt(17 / 12))


class _Run:
    """What _episode_stats reads of a ThesisRun."""

    def __init__(self, time, window, delivered, link, overflow):
        self.time, self.window = time, window[:, None]
        self.delivered = delivered[:, None]
        self.loss_times, self.overflow_times = np.array(link), np.array(overflow)


def test_episode_stats():
    time, window, delivered = _trace()
    # link errors only at 6.1 s: one episode, window 10 -> 1 (the dip): reset share 1;
    # with the overflow at 2.1 s: cuts 1 - 10/20 = 0.5 and 1 - 1/10 = 0.9, mean 0.7
    reset, cut = wireless._episode_stats(_Run(time, window, delivered, [6.1], [2.1]))
    assert reset == 1.0
    assert cut == pytest.approx(0.7)
    reset, cut = wireless._episode_stats(_Run(time, window, delivered, [], []))
    assert math.isnan(reset) and math.isnan(cut)


def test_separate_bottlenecks_refuses_a_saturated_shared_link():
    with pytest.raises(ValueError, match="access_rate"):
        coexistence.separate_bottlenecks(access_rate=0.8e6)
