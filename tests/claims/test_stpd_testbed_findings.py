"""The Chapter 5 finding helpers of ctlcc.claims.stpd_testbed_findings on hand-made inputs.

Expected values are worked by hand beside each assertion (or come from a second route:
scipy's own Spearman correlation, numpy's correlation of shifted copies); the units' use of
ctlcc's simulator is exercised by the ledger snapshot, not here.
"""

import math

import numpy as np
import pytest

from ctlcc.claims import stpd_testbed_findings as F
from ctlcc.claims import units


def test_loss_episodes_split_on_gaps():
    assert F.loss_episodes([]) == []
    assert F.loss_episodes([11.0, 0.1, 0.5, 6.4, 6.9]) == [(0.1, 0.5), (6.4, 6.9), (11.0, 11.0)]
    # a gap of exactly 1 s does not split; 1.01 s does
    assert F.loss_episodes([0.0, 1.0, 2.01]) == [(0.0, 1.0), (2.01, 2.01)]


def test_spearman_against_scipy_and_by_hand():
    from scipy.stats import spearmanr

    x, y = [1, 2, 3, 4, 5], [2, 1, 4, 3, 5]
    # ranks differ by d = (1, 1, 1, 1, 0): 1 - 6 * 4 / (5 * 24) = 0.8
    assert F.spearman(x, y) == pytest.approx(0.8)
    assert F.spearman(x, y) == pytest.approx(spearmanr(x, y)[0])
    assert F.spearman([0, 1, 2], [3, 2, 1]) == pytest.approx(-1.0)


def test_cv_of_rate_on_a_piecewise_counter():
    t = np.arange(0.0, 6.001, 0.25)
    d = np.interp(t, [0, 2, 4, 6], [0, 20, 60, 80])        # 10/s, 20/s, 10/s
    # bins [1,2], [2,3], [3,4], [4,5]: 10, 20, 20, 10 -> mean 15, std 5
    assert F.cv_of_rate(t, d, 1.0, 5.0) == pytest.approx(5 / 15)
    assert math.isnan(F.cv_of_rate(t, d, 1.0, 1.5))        # fewer than two whole bins


def test_share_ratio_and_reaction_time():
    t = np.array([0.0, 10.0, 20.0, 30.0])
    assert F.share_ratio(t, [0, 30, 60, 90], [0, 0, 20, 40], 10.0, 30.0) == pytest.approx(40 / 60)
    t = np.arange(0.0, 30.001, 0.5)
    d = np.where(t <= 20, 8 * t, 160 + 2 * (t - 20))      # 8/s, then 2/s from 20 s
    # 2-s rate at 20 + x (x <= 2): (16 - 6x)/2 = 8 - 3x <= 5 first at x = 1.0
    assert F.reaction_time(t, d, 20.0, 30.0, 5.0) == pytest.approx(1.0)
    # never below 1/s: the search's length, a lower bound
    assert F.reaction_time(t, d, 20.0, 30.0, 1.0) == pytest.approx(10.0)


def test_acf_against_numpy_and_by_hand():
    assert F.acf([1.0, 2.0, 3.0], [1]) == pytest.approx([0.0])   # (-1*0 + 0*1) / 2
    x = np.random.default_rng(3).random(500)
    c = x - x.mean()
    want = np.correlate(c, c, "full")[c.size - 1:] / np.dot(c, c)
    assert F.acf(x, [1, 2, 5]) == pytest.approx(want[[1, 2, 5]].tolist())


def test_every_declared_chapter5_record_has_this_module_as_unit():
    ids = {i for u in units() if u.module == F.__name__ for i in u.ids}
    # the 13 Chapter 5 findings, and the Abstract's / Chapter 7's two meta-claims judged over
    # the same testbed runs
    chapter7 = {"stpd-s7-less-time-wired", "stpd-s7-testbed-consistent"}
    assert chapter7 <= ids
    rest = ids - chapter7
    assert len(rest) == 13 and all(i.startswith("stpd-ch5-") for i in rest)


def test_agreement_counts_differences_on_the_reference_side():
    from ctlcc.claims.stpd_testbed_findings import _agreement

    # 3 of 5 positive (a zero is no ordering): 0.6; against a negative reference 1 of 5
    assert _agreement([1.0, 2.0, 0.0, -3.0, 0.5]) == pytest.approx(0.6)
    assert _agreement([1.0, 2.0, 0.0, -3.0, 0.5], reference=-1.0) == pytest.approx(0.2)
    with pytest.raises(ValueError, match="signs"):
        _agreement([])
