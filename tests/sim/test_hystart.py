"""HyStart++ (RFC 9406) as ``Cubic(hystart=True)`` and its rules (ctlcc.laws.hystart).

Law: the RFC's numbers by hand (RttThresh = max(4 ms, min(lastRoundMinRTT / 8, 16 ms)),
the exit test, CSS's quarter growth and L = 8).

Engine: one CUBIC flow over S -> R (100 Mb/s, 0.1 ms) -> D (10 Mb/s, 50 ms), buffer 1000
packets, no random loss: base round trip about 101 ms, C = 10e6 / (1054 x 8) = 1186
packets/s, BDP about 119 packets.  Standard slow start doubles the window per round until
the 1000-packet queue overflows; HyStart++ can only leave slow start once a round's
smallest RTT is at least RttThresh >= 4 ms above the last round's, i.e. once a standing
queue of at least 4 ms x C = 4.7 packets exists, which needs cwnd > BDP; from there
Conservative Slow Start adds a quarter segment per ACK (windows in quarter steps, never
seen in standard slow start, which adds whole segments).
"""

import math

import numba
import numpy as np
import pytest

from ctlcc.laws import hystart
from ctlcc.sim import run, scenarios as S
from ctlcc.sim.senders import Cubic
from ctlcc.sim.senders import cubic as cubic_module

C_PACKETS = 10e6 / (1054 * 8)  # the bottleneck in packets/s (1000 B + 54 B of headers)


# --- the rules -----------------------------------------------------------------------------

@pytest.mark.parametrize("last, expected", [
    (0.100, 0.0125),   # 100 ms / 8
    (0.020, 0.004),    # 2.5 ms: raised to MIN_RTT_THRESH
    (0.032, 0.004),    # exactly 4 ms
    (0.128, 0.016),    # exactly 16 ms
    (0.500, 0.016),    # 62.5 ms: capped at MAX_RTT_THRESH
])
def test_rtt_thresh_is_the_rfcs(last, expected):
    assert hystart.rtt_thresh(last) == pytest.approx(expected, abs=1e-15)


def test_exit_test_is_the_rfcs():
    # lastRoundMinRTT 100 ms: exit at 112.5 ms with 8 samples, not below, not with 7
    assert hystart.delay_increase(0.1125, 0.1, 8) is True
    assert hystart.delay_increase(0.11249, 0.1, 8) is False
    assert hystart.delay_increase(0.3, 0.1, 7) is False
    assert hystart.delay_increase(0.3, math.inf, 8) is False    # no last round yet
    assert hystart.delay_increase(math.inf, 0.1, 8) is False
    assert hystart.css_abort_core(0.105, 0.110, 8) and not hystart.css_abort_core(0.105, 0.110, 7)
    assert not hystart.css_abort_core(0.110, 0.110, 8)


def test_increase_is_limited_to_l_and_quartered_in_css():
    assert hystart.increase_core(1, False) == 1.0
    assert hystart.increase_core(20, False) == 8.0             # L = 8 (no pacing)
    assert hystart.increase_core(1, True) == 0.25              # CSS_GROWTH_DIVISOR = 4
    assert hystart.increase_core(20, True) == 2.0
    assert numba.njit(hystart.delay_increase_core)(0.1125, 0.1, 8)


def test_one_law_two_uses():
    assert cubic_module.hs_exit.py_func is hystart.delay_increase_core
    assert cubic_module.hs_abort.py_func is hystart.css_abort_core
    assert cubic_module.hs_increase.py_func is hystart.increase_core


@pytest.mark.parametrize("call, match", [
    (lambda: hystart.rtt_thresh(0.0), "last_round_min_rtt"),
    (lambda: hystart.delay_increase(-0.1, 0.1, 8), "current_round_min_rtt"),
    (lambda: hystart.delay_increase(0.1, float("nan"), 8), "last_round_min_rtt"),
    (lambda: hystart.delay_increase(0.1, 0.1, 2.5), "samples"),
    (lambda: Cubic(hystart=1), "hystart"),
])
def test_bad_input_names_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --- on packets ----------------------------------------------------------------------------

def _run(hs):
    sc = S.single_bottleneck(100e6, 0.1e-3, 10e6, 50e-3, 1000, None, Cubic(hystart=hs))
    return run(sc, 6.0, trace=True, sample_interval=1e-3, progress=False)


@pytest.fixture(scope="module")
def runs():
    return {hs: _run(hs) for hs in (False, True)}


def _first_drop(result):
    drops = result.traces.drops
    return float(drops[:, 0].min()) if drops.size else math.inf


def test_standard_slow_start_grows_in_whole_segments_and_overflows(runs):
    r = runs[False]
    t = r.traces
    before = t.time < _first_drop(r)
    assert np.isfinite(_first_drop(r))
    assert np.all(t.window[before, 0] % 1.0 == 0.0)
    assert r.flows[0].dropped > 0


def test_hystart_leaves_slow_start_only_above_the_bdp_and_grows_by_quarters(runs):
    r = runs[True]
    t = r.traces
    w = t.window[:, 0]
    before = t.time < _first_drop(r)
    fractional = np.flatnonzero(before & (w % 1.0 != 0.0))
    assert fractional.size, "no Conservative Slow Start before the first loss"
    entry = fractional[0]
    # CSS's increments are quarter segments (one segment acknowledged per ACK)
    assert set(np.unique(w[before] % 1.0)) <= {0.0, 0.25, 0.5, 0.75}
    # the exit needs a standing queue of >= 4 ms x C, so cwnd above BDP + 4.7 packets
    base = r.traces.rtt[:, 2].min()
    assert w[entry] > C_PACKETS * base + hystart.MIN_RTT_THRESH * C_PACKETS
    # and the RTT samples just before it show that rise (the RFC's condition)
    recent = t.rtt[(t.rtt[:, 0] <= t.time[entry]) & (t.rtt[:, 0] > t.time[entry] - base), 2]
    assert recent.min() >= base + hystart.MIN_RTT_THRESH


def test_hystart_postpones_and_shrinks_the_first_overflow(runs):
    assert _first_drop(runs[True]) > _first_drop(runs[False])
    assert runs[True].flows[0].dropped < runs[False].flows[0].dropped


def test_hystart_is_off_by_default_and_over_by_the_end(runs):
    assert Cubic().hystart is False and Cubic().options()["hystart"] is False
    assert runs[False].sender_state[0]["hystart"] == "off"
    # over after CSS's last round or a loss (here CSS overshoots the 1000-packet queue)
    assert np.isfinite(_first_drop(runs[True]))
    assert runs[True].sender_state[0]["hystart"] == "off"
