"""Helpers of ctlcc.claims.cbraa_sweeps, against hand-computed values."""

import math
from types import SimpleNamespace

import numpy as np
import pytest

from ctlcc.claims.cbraa_sweeps import report_loss_ratios, share_gap, volume_time
from ctlcc.errors import ParameterError


def test_volume_time_interpolates_the_first_crossing():
    # 0, 3, 9, 12 bytes at 0-3 s: 6 bytes is reached one half of the way from 1 s to 2 s
    assert volume_time([0, 1, 2, 3], [0, 3, 9, 12], 6) == pytest.approx(1.5)
    # a count already at the volume in the first sample: that sample's time
    assert volume_time([5, 6], [7, 8], 7) == 5.0
    assert math.isinf(volume_time([0, 1], [0, 1], 2))


def test_volume_time_rejects_bad_input():
    with pytest.raises(ParameterError, match="volume"):
        volume_time([0, 1], [0, 1], 0)
    with pytest.raises(ParameterError, match="equal length"):
        volume_time([0, 1, 2], [0, 1], 1)


def test_report_loss_ratios_by_enumeration():
    # 10 packets sent per second; losses at 2.5 s and 7.5 s: cumulative counts at 0..10 s
    t = np.arange(11.0)
    sent = 10 * t
    lost = np.array([0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2])
    # 5-s reports from 0 s: (0, 5] has 1 loss in 50, (5, 10] has 1 in 50
    assert report_loss_ratios(t, sent, lost, 5, 0, 10) == pytest.approx([0.02, 0.02])
    # 2-s reports from 2 s: (2,4] 1/20, (4,6] 0, (6,8] 1/20, (8,10] 0
    assert report_loss_ratios(t, sent, lost, 2, 2, 10) == pytest.approx([0.05, 0, 0.05, 0])


def test_report_loss_ratios_needs_the_boundaries_sampled():
    with pytest.raises(ParameterError, match="report boundary"):
        report_loss_ratios([0, 1, 2], [0, 1, 2], [0, 0, 0], 5, 0, 10)
    with pytest.raises(ParameterError, match="period"):
        report_loss_ratios([0, 1, 2], [0, 1, 2], [0, 0, 0], 5, 0, 2)


def test_share_gap_against_hand_arithmetic():
    # goodputs 150 (source 0) and 100, 100, 80: |150 / (280/3) - 1| = 170/280
    time = np.arange(1.0, 11.0)
    goodput = np.tile([150.0, 100.0, 100.0, 80.0], (10, 1))
    run = SimpleNamespace(labels=("a", "b", "c", "d"), duration=10.0,
                          mean=lambda i, t0, t1: float(goodput[(time > t0) & (time <= t1), i]
                                                       .mean()))
    assert share_gap(run, 2.0) == pytest.approx(170 / 280)
