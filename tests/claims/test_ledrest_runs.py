"""Helpers of ctlcc.claims.iftp_runs and primo_runs, against hand arithmetic."""

import pytest

from ctlcc.claims.iftp_runs import scaled_gain


def test_scaled_gain_by_hand():
    # seed 0: S run IFTP/TCP = 300/150 = 2, standard 200/200 = 1 -> 2
    # seed 1: S run 240/160 = 1.5, standard 150/200 = 0.75 -> 2
    # seed 2: S run 100/100 = 1, standard 100/100 = 1 -> 1
    scaled = [[100, 200, 300, 300], [160, 160, 200, 280], [100, 100, 100, 100]]
    standard = [[200, 200, 150, 250], [200, 200, 150, 150], [50, 150, 80, 120]]
    assert scaled_gain(scaled, standard) == pytest.approx([2.0, 2.0, 1.0])


def test_largest_gap_by_hand():
    from ctlcc.claims.primo_runs import largest_gap

    # |90-85| = 5, |80-95| = 15, |70-70| = 0, |60-62| = 2: the largest is 15 at (0, 1)
    assert largest_gap([[90, 80], [70, 60]], [[85, 95], [70, 62]]) == (15.0, (0, 1))


def test_red_for_buffer_thresholds():
    from ctlcc.errors import ParameterError
    from ctlcc.experiments.primo import red_for_buffer

    # a quarter and three quarters of 10 packets
    r = red_for_buffer(10)
    assert (r.min_threshold, r.max_threshold, r.max_probability, r.weight) == (2.5, 7.5, 0.1, 0.002)
    with pytest.raises(ParameterError, match="buffer"):
        red_for_buffer(1)


def test_ftt_only_update_by_hand():
    from ctlcc.claims.primo_runs import ftt_only_update
    from ctlcc.laws.primo import PrimoParams

    p = PrimoParams()
    g = (p.W1, p.W2, p.F_str, p.F_mod, p.F_rel, p.TH_str, p.TH_mod, p.TH_rel)
    # the paper's W1 = 0.5, W2 = 0.9, F = 0.95 / 0.99 / 1.05, thresholds 0.34 / 0.17 / 0.15
    assert g == (0.5, 0.9, 0.95, 0.99, 1.05, 0.34, 0.17, 0.15)
    # moderate (0.17 <= 0.2 < 0.34): 0.9*100 + 0.1*(120 - 0.5*(120 - 0.99*100)) = 100.95;
    # the reception rate (here 10) plays no part
    assert ftt_only_update(100.0, 0.2, 10.0, 120.0, (), *g)[0] == pytest.approx(100.95)
    # hold (0.15 <= 0.16 < 0.17): unchanged
    assert ftt_only_update(100.0, 0.16, 10.0, 120.0, (), *g)[0] == pytest.approx(100.0)
    # release (< 0.15): 0.9*100 + 0.1*(120 - 0.5*(120 - 1.05*100)) = 101.25
    assert ftt_only_update(100.0, 0.1, 10.0, 120.0, (), *g)[0] == pytest.approx(101.25)
