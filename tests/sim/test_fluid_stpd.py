"""ST-PD fluid model against the z-domain loop (Xu (2002), §4.3.2-4.3.3).

Independent routes: a line-by-line transcription of the per-slot equations
(4.1), (4.2), (4.6) written here; the characteristic polynomial derived by
ctlcc.analysis.stpd (sympy, from the law) used as a recurrence the fluid
trajectory must satisfy; and the roots of the continuous-time
characteristic equation s^2 + e^{-sD} (kp + kd s) = 0 (per slot), found
with mpmath, as the limit dt -> 0.

The z-domain loop is linear; a reference of 1000 packets keeps every
trajectory away from the empty-queue saturation (the loop is invariant to
a shift of the reference, so this changes nothing else).
"""

import mpmath
import numpy as np
import pytest

from ctlcc.analysis import stpd_loop
from ctlcc.sim import fluid

CAPACITY = 187.5          # packets/s: 1.5 Mb/s with 1000-byte packets (thesis §4.3.3)
SLOT = 1 / CAPACITY       # s
REFERENCE = 1000.0        # packets, see module docstring
THESIS_GAINS = (0.033, 0.368)  # kp, kd that reproduce the printed poles (tests/analysis)


def _fluid_deviation(kp, kd, m, slots, substeps=1, start=1.0):
    """Queue minus reference, one sample per slot, fixed delay m slots."""
    net = fluid.network(CAPACITY, 1e7, m * SLOT)
    law = fluid.Stpd(kp, kd, reference=REFERENCE, delay=m * SLOT, initial_rate=CAPACITY)
    run = fluid.simulate(net, law, duration=slots * SLOT, dt=SLOT / substeps,
                         initial_queue=REFERENCE + start, record_every=substeps)
    return run.queue[:slots, 0, 0] - REFERENCE


def _per_slot_transcription(kp, kd, m, slots, start=1.0):
    """Eqs. (4.1), (4.2), (4.6) slot by slot; constant past (b = ref + start, a = 1)."""
    b = {n: REFERENCE + start for n in range(-m - 2, 1)}
    a = {n: 1.0 for n in range(-m - 2, 1)}

    def e(n):
        return REFERENCE - b[n]                                   # (4.2)

    for n in range(1, slots):
        a[n] = a[n - 1] + kp * e(n - m) + kd * (e(n - m) - e(n - m - 1))   # (4.1)
        b[n] = b[n - 1] + a[n] - 1.0                             # (4.6), d(n) = 1
    return np.array([b[n] for n in range(slots)]) - REFERENCE


@pytest.mark.parametrize(
    "gains, m, slots",
    [
        (THESIS_GAINS, 1, 300), (THESIS_GAINS, 2, 300), (THESIS_GAINS, 3, 300),
        ((0.1, 0.2), 1, 300), ((0.1, 0.2), 2, 300),
        # unstable loops, kept short enough that the rate stays positive
        # (the fluid floors it at 0, the linear transcription does not)
        ((0.1, 0.2), 3, 35), (THESIS_GAINS, 5, 60),
    ],
)
def test_fluid_on_the_slot_grid_is_the_per_slot_loop(gains, m, slots):
    # Same equations, same order of operations: equal to rounding
    # (1e-9 packets over <= 300 slots of a 1000-packet queue).
    fluid_run = _fluid_deviation(*gains, m, slots)
    np.testing.assert_allclose(fluid_run, _per_slot_transcription(*gains, m, slots), atol=1e-9)


@pytest.mark.parametrize("substeps", [1, 4, 10])
def test_fluid_obeys_the_derived_characteristic_recurrence(substeps):
    # On a grid of dt = slot/n the fluid is the per-slot loop with gains
    # kp/n^2, kd/n and delay m n steps (dx/dt = kp e/slot^2 + kd e'/slot);
    # its queue must satisfy sum_j c_j (q(k-j) - ref) = 0 with c_j the
    # characteristic polynomial derived by ctlcc.analysis.stpd.  Tolerance:
    # rounding, 1e-10 of the deviation's scale (1 packet).
    kp, kd, m = *THESIS_GAINS, 3
    net = fluid.network(CAPACITY, 1e7, m * SLOT)
    law = fluid.Stpd(kp, kd, reference=REFERENCE, delay=m * SLOT, initial_rate=CAPACITY)
    run = fluid.simulate(net, law, duration=200 * SLOT, dt=SLOT / substeps,
                         initial_queue=REFERENCE + 1.0)
    deviation = run.queue[:, 0, 0] - REFERENCE
    coefficients = stpd_loop(kp / substeps**2, kd / substeps, m * substeps).characteristic_polynomial()
    order = len(coefficients)
    residual = [coefficients @ deviation[k - np.arange(order)] for k in range(order, deviation.size)]
    assert np.max(np.abs(residual)) < 1e-10


def _envelope_rate(deviation, first, last):
    """Least-squares slope of log|local maxima of |deviation||. [1/slot]"""
    y = np.abs(deviation)
    peaks = [k for k in range(max(first, 1), min(last, y.size - 1))
             if y[k] >= y[k - 1] and y[k] >= y[k + 1]]
    return np.polyfit(peaks, np.log(y[peaks]), 1)[0]


@pytest.mark.parametrize(
    "gains, m, start, window, source",
    [
        ((0.368, 0.033), 3, 1e-4, (10, 40), "gains as printed in §4.3.3 (growing, radius 1.2387)"),
    ],
)
def test_decay_rate_is_the_spectral_radius(gains, m, start, window, source):
    # The envelope of the dominant complex pair falls (grows) as rho^n.  The
    # peaks of the sampled oscillation sit up to half a slot off the true
    # maxima; over the >= 2 periods fitted that biases the slope by well
    # under 1 %.  Tolerance: 2 % of ln(rho).  The window starts once the
    # faster modes have died out and ends before rounding noise (decaying
    # case) or the rate floor at 0 (growing case, hence the small start).
    deviation = _fluid_deviation(*gains, m, window[1] + 1, start=start)
    expected = np.log(stpd_loop(*gains, m).spectral_radius())
    assert _envelope_rate(deviation, *window) == pytest.approx(expected, rel=0.02), source
    np.testing.assert_allclose(deviation, _per_slot_transcription(*gains, m, window[1] + 1, start),
                               atol=1e-9)   # stayed linear


def test_fluid_is_a_sum_of_the_z_domain_modes():
    # thesis §4.3.3 gains: poles -0.5023, 0.8031 +- 0.4155i, 0.8961.  For
    # n >= m + 1 the free response is sum_i c_i z_i^n; fit the c_i on slots
    # 4..60 and the fit must predict slots 61..150 to rounding (1e-9 of the
    # 1-packet start).  The two slowest modes have nearly equal radii
    # (0.9042, 0.8961), so a single decay rate cannot be read off an
    # envelope; the modal fit checks every pole at once.
    kp, kd, m = *THESIS_GAINS, 3
    deviation = _fluid_deviation(kp, kd, m, 151)
    poles = stpd_loop(kp, kd, m).poles()
    n = np.arange(151)
    modes = poles[None, :] ** n[:, None]
    fit = slice(m + 1, 61)
    amplitudes, *_ = np.linalg.lstsq(modes[fit], deviation[fit].astype(complex), rcond=None)
    predicted = (modes[61:] @ amplitudes).real
    np.testing.assert_allclose(predicted, deviation[61:], atol=1e-9)
    # and the spectral radius bounds the decay: |dq(n)| <= K rho^n with K
    # the sum of |c_i|.
    radius = stpd_loop(kp, kd, m).spectral_radius()
    assert np.all(np.abs(deviation[m + 1:]) <= np.abs(amplitudes).sum() * radius ** n[m + 1:] + 1e-12)


def test_fine_grid_converges_to_the_continuous_delay_loop():
    # Continuous time: q' = x - C, x' = kp e(t-D)/slot^2 + kd e'(t-D)/slot,
    # e = ref - q, so with s in 1/slot: s^2 + e^{-3 s} (kp + kd s) = 0.  Its
    # dominant root (found with mpmath from the z-domain pole's logarithm)
    # is the dt -> 0 limit of ln(rho(dt))/dt; the semi-implicit Euler step is
    # first order, so the error must halve when dt halves (ratio 2 +- 15 %).
    kp, kd, m = *THESIS_GAINS, 3
    guess = complex(np.log(stpd_loop(kp, kd, m).poles()[-2]))
    root = mpmath.findroot(lambda s: s**2 + mpmath.e ** (-m * s) * (kp + kd * s), guess)
    assert float(mpmath.re(root)) == pytest.approx(-0.0437, abs=1e-4)
    errors = []
    for substeps in (10, 20):
        radius = stpd_loop(kp / substeps**2, kd / substeps, m * substeps).spectral_radius()
        errors.append(np.log(radius) * substeps - float(mpmath.re(root)))
    assert errors[0] / errors[1] == pytest.approx(2.0, rel=0.15)
    # and the fluid run on the fine grid decays at that rate (2 %, as above)
    deviation = _fluid_deviation(kp, kd, m, 300, substeps=20)
    assert _envelope_rate(deviation, 60, 300) == pytest.approx(
        np.log(stpd_loop(kp / 400, kd / 20, 60).spectral_radius()) * 20, rel=0.02)


@pytest.mark.parametrize(
    "propagation_slots, settles, reason",
    [
        (2, True, "R = 2 slots + 1 queued packet = 3 slots: radius 0.904 < 1"),
        (3, False, "R = 3 slots + 1 queued packet = 4 slots: radius 1.004 > 1"),
    ],
)
def test_round_trip_includes_the_queue(propagation_slots, settles, reason):
    # With the physical feedback delay R(t) = Tp + q/C and the thesis's
    # reference of one packet, the loop's delay is Tp + 1 slot at rest; the
    # z-domain verdict for that m must hold in the fluid.  Settling is
    # |q - 1| < 1e-3 packet over the last 100 slots of 1500.
    assert stpd_loop(*THESIS_GAINS, propagation_slots + 1).is_stable() is settles
    net = fluid.network(CAPACITY, 100.0, propagation_slots * SLOT)
    law = fluid.Stpd(*THESIS_GAINS)   # reference 1 packet, delay = R(t)
    run = fluid.simulate(net, law, duration=1500 * SLOT, dt=SLOT)
    tail = run.queue[-100:, 0, 0]
    assert bool(np.max(np.abs(tail - 1.0)) < 1e-3) is settles, reason
