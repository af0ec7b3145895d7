"""scaled_gain of ctlcc.claims.iftp_runs, against hand arithmetic."""

import pytest

from ctlcc.claims.iftp_runs import scaled_gain


def test_scaled_gain_by_hand():
    # seed 0: S run IFTP/TCP = 300/150 = 2, standard 200/200 = 1 -> 2
    # seed 1: S run 240/160 = 1.5, standard 150/200 = 0.75 -> 2
    # seed 2: S run 100/100 = 1, standard 100/100 = 1 -> 1
    scaled = [[100, 200, 300, 300], [160, 160, 200, 280], [100, 100, 100, 100]]
    standard = [[200, 200, 150, 250], [200, 200, 150, 150], [50, 150, 80, 120]]
    assert scaled_gain(scaled, standard) == pytest.approx([2.0, 2.0, 1.0])
