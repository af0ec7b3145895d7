"""ST-PD's closed loop derived from its law (Xu (2002), §4.3.2-4.3.3)."""

import numpy as np
import pytest
import sympy as sp

from ctlcc.analysis.stpd import stpd_loop
from ctlcc.errors import ParameterError, UnstableLoopError


@pytest.mark.parametrize("m", [1, 2, 3, 4, 7])
def test_characteristic_polynomial_matches_hand_derivation(m):
    # Independent route: multiply 1 - z^-1 + z^-m (1 - z^-1)^-1 (kp + kd (1 - z^-1)) = 0
    # (the denominator of thesis eq. 4.11) by z^(m+1) (1 - z^-1)... by hand:
    # z^(m-1) (z - 1)^2 + (kp + kd) z - kd.
    z, kp, kd = sp.symbols("z k_p k_d", nonnegative=True)
    by_hand = sp.expand(z ** (m - 1) * (z - 1) ** 2 + (kp + kd) * z - kd)
    derived = stpd_loop(0.1, 0.2, m).symbolic(numeric=False).characteristic
    derived = derived.subs({s: {"k_p": kp, "k_d": kd, "z": z}[s.name] for s in derived.free_symbols})
    assert sp.expand(derived - by_hand) == 0


def test_arrival_reference_matches_thesis_eq_4_11():
    z, kp, kd = sp.symbols("z k_p k_d", nonnegative=True)
    m = 3
    controller = kp + kd * (1 - z**-1)
    thesis = z**-m * controller / (1 - z**-1 + z**-m * (1 - z**-1) ** -1 * controller)
    derived = stpd_loop(0.1, 0.2, m).symbolic(numeric=False).arrival_reference
    derived = derived.subs({s: {"k_p": kp, "k_d": kd, "z": z}[s.name] for s in derived.free_symbols})
    assert sp.simplify(derived - thesis) == 0


def test_published_poles_come_from_swapped_gains():
    # thesis §4.3.3 prints kp = 0.368, kd = 0.033 and poles
    # -0.5023, 0.8031 +- 0.4155i, 0.8961. Those poles are the roots for
    # kp = 0.033, kd = 0.368; the printed pair is unstable.
    published = np.sort_complex(np.array([-0.5023, 0.8031 + 0.4155j, 0.8031 - 0.4155j, 0.8961]))
    np.testing.assert_allclose(stpd_loop(0.033, 0.368, 3).poles(), published, atol=6e-5)
    as_printed = stpd_loop(0.368, 0.033, 3)
    assert not as_printed.is_stable()
    assert as_printed.spectral_radius() == pytest.approx(1.2387, abs=1e-3)


def test_unstable_loop_refuses_steady_state():
    with pytest.raises(UnstableLoopError, match="unstable, spectral radius 1.23"):
        stpd_loop(0.368, 0.033, 3).require_stable("throughput")


@pytest.mark.parametrize(
    "args, match",
    [
        ((-0.1, 0.1, 3), r"kp must be in \[0, inf\)"),
        ((0.1, np.nan, 3), r"kd must be finite"),
        ((0.1, 0.1, 0), r"m must be an integer >= 1"),
        ((0.1, 0.1, 1.5), r"m must be an integer >= 1"),
    ],
)
def test_bad_input(args, match):
    with pytest.raises(ParameterError, match=match):
        stpd_loop(*args)
