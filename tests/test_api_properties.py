"""Property checks on valid random inputs (issue 16), and the one stability test.

The harness (test_api_harness.py) feeds invalid values; here hypothesis draws
valid ones and checks that each answer stays inside its meaning: finite, a
rate >= 0, a fraction in [0, 1], a window of at least one packet.  The
expected bounds come from the formulas' definitions, not from the code.
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import ctlcc
from ctlcc import crosscheck
from ctlcc.analysis import gain_margin, max_stable_delay, stability_region
from ctlcc.bounds import iftp, jain_index, mathis_rate, pftk_rate, tfrc_rate
from ctlcc.errors import ParameterError, UnstableLoopError
from ctlcc.laws import iftp as iftp_law

SETTINGS = settings(max_examples=60, deadline=None)

# a probability anywhere in (0, 1], down to the smallest normal double
probability = st.floats(min_value=np.finfo(float).tiny, max_value=1.0)
rtt = st.floats(min_value=1e-4, max_value=10.0)


@SETTINGS
@given(p=probability, r=rtt, rto=st.floats(min_value=1e-3, max_value=60.0),
       approximate=st.booleans())
def test_pftk_rate_is_finite_and_positive(p, r, rto, approximate):
    rate = pftk_rate(p, r, rto, approximate=approximate)
    assert math.isfinite(rate) and rate > 0


@SETTINGS
@given(p=st.floats(min_value=1e-300, max_value=1e-17), r=rtt, rto=st.floats(1e-3, 60.0))
def test_pftk_small_p_tends_to_the_square_root_law(p, r, rto):
    # p -> 0: E[W] ~ sqrt(8/(3p)), Q-hat ~ 3/E[W] -> 0, so eq. (31) tends to
    # sqrt(3/(2p)) / RTT (Padhye et al. 1998, eq. (20)); the timeout term is
    # O(sqrt(p)) smaller, under 1e-7 relative here.  Before the Q-hat fix the
    # printed 0/0 gave NaN below p ~ 1e-17.
    assert pftk_rate(p, r, rto) == pytest.approx(math.sqrt(1.5 / p) / r, rel=1e-6)


@SETTINGS
@given(p=probability, r=rtt)
def test_tfrc_and_mathis_rates_are_finite_and_positive(p, r):
    assert 0 < tfrc_rate(p, r) < math.inf
    assert 0 < mathis_rate(p, r) < math.inf


@SETTINGS
@given(p=st.floats(min_value=1e-300, max_value=iftp.MAX_CYCLE_LOSS))
def test_iftp_window_is_at_least_one_packet(p):
    # eq. (25) solved for n; p <= 8/9 is exactly the range where n >= 1
    n = iftp.steady_state_window(p)
    assert n >= 1 - 1e-12 and math.isfinite(n)
    assert iftp.cycle_packets(n) == pytest.approx(1 / p, rel=1e-9)


@SETTINGS
@given(x=st.lists(st.floats(min_value=0.0, max_value=1e12), min_size=1, max_size=20)
       .filter(lambda v: sum(v) > 0))
def test_jain_index_lies_between_one_over_n_and_one(x):
    value = jain_index(x)
    assert 1 / len(x) - 1e-12 <= value <= 1 + 1e-12


@SETTINGS
@given(R=st.floats(1e-3, 10.0), n=st.floats(1.0, 1e4), frac=st.floats(0.0, 1.0))
def test_iftp_gap_is_nonnegative_when_the_packets_fit(R, n, frac):
    tau = frac * R / n          # R >= n tau: the period carries the packets
    assert iftp_law.gap_for_window(R, n, tau) >= -1e-15 * R


@settings(max_examples=15, deadline=None)
@given(kp=st.floats(1e-6, 3.999), m=st.just(1))
def test_marginal_loops_are_unstable_everywhere(kp, m):
    # With kd = 0 and m = 1 the per-slot loop (thesis eq. 4.1 with the queue
    # 4.6) has characteristic polynomial (z - 1)**2 + kp z = z**2 - (2 - kp) z + 1:
    # for 0 < kp < 4 its roots are a complex pair whose product is 1, i.e. both
    # on the unit circle.  Every stability answer must call it unstable.
    loop = ctlcc.stpd_loop(kp, 0.0, m)
    np.testing.assert_allclose(loop.characteristic_polynomial(), [1.0, kp - 2.0, 1.0],
                               atol=1e-12)
    assert not loop.is_stable()
    assert not stability_region(m, [kp], [0.0])[0, 0]
    assert max_stable_delay(kp, 0.0, m_max=4) == 0
    for method in ("crossing", "bisection"):
        assert gain_margin(kp, 0.0, m, method=method) <= 1.0
    with pytest.raises(UnstableLoopError, match="unstable"):
        loop.throughput_under_loss(0.01)


def test_issue_example_pole_on_the_unit_circle():
    # stpd_loop(1.5, 0, 1): z**2 - 0.5 z + 1, |z| = 1 (the audit's example)
    loop = ctlcc.stpd_loop(1.5, 0.0, 1)
    assert np.allclose(np.abs(np.roots([1.0, -0.5, 1.0])), 1.0)
    assert loop.is_stable() is False
    assert gain_margin(1.5, 0.0, 1) == 0.0


@SETTINGS
@given(kp=st.floats(0.0, 1.0), kd=st.floats(0.0, 1.0), m=st.integers(1, 12),
       model=st.sampled_from(("per_slot", "per_rtt")))
def test_one_stability_predicate(kp, kd, m, model):
    loop = ctlcc.stpd_loop(kp, kd, m, model=model)
    stable = loop.is_stable()
    assert stable == bool(stability_region(m, [kp], [kd], model=model)[0, 0])
    radius = loop.spectral_radius()
    if stable:
        assert radius < 1.0
    elif radius < 1 - 1e-6:
        pytest.fail(f"is_stable is False with spectral radius {radius}")


@pytest.mark.parametrize("call, argument", [
    (lambda: crosscheck.reno_square_root_law(probabilities=()), "probabilities"),
    (lambda: crosscheck.reno_pftk(seeds=[]), "seeds"),
    (lambda: crosscheck.reno_sawtooth_utilisation(presets=()), "presets"),
    (lambda: crosscheck.stpd_decay(presets=[]), "presets"),
    (lambda: crosscheck.stpd_throughput_under_loss(probabilities=[]), "probabilities"),
    (lambda: crosscheck.primo_limit_cycle(bottleneck_rates=()), "bottleneck_rates"),
    (lambda: crosscheck.primo_heterogeneous_fairness(extra_delays=()), "extra_delays"),
    (lambda: crosscheck.fluid_reno_rate(seeds=()), "seeds"),
    (lambda: crosscheck.reno_sawtooth_utilisation(warmup=-1.0), "warmup"),
    (lambda: crosscheck.primo_limit_cycle(duration=5.0, warmup=10.0), "warmup"),
    (lambda: crosscheck.reno_sawtooth_utilisation(protocol="primo"), "protocol"),
    (lambda: crosscheck.stpd_throughput_under_loss(duration=5.0), "duration"),
])
def test_cross_checks_refuse_to_run_without_evidence(call, argument):
    # refused before the first simulation (the harness's alarm also bounds it)
    with pytest.raises(ParameterError, match=argument):
        call()
