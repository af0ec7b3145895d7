"""Every law core: documented to the house standard and accepted by numba as is.

A core is compiled with ``numba.njit`` (the packet senders use
``numba.njit(core, inline="always")``) and must return what the plain Python
function returns on the same numbers; per-law grids against the validated
wrappers live in test_<protocol>_law.py.
"""

import importlib
import inspect

import numpy as np
import pytest

from ctlcc.references import short

MODULES = {"iftp": "iftp", "cbraa": "cbraa", "sttp": "sttp", "tfrc": None, "sack": None}


def _cores():
    for name, paper in MODULES.items():
        mod = importlib.import_module(f"ctlcc.laws.{name}")
        for attr in mod.__all__:
            if attr.endswith("_core"):
                yield name, paper, attr, getattr(mod, attr)


CORES = list(_cores())


@pytest.mark.parametrize("module, paper, name, func", CORES, ids=[c[2] for c in CORES])
def test_core_docstring_standard(module, paper, name, func):
    """numpydoc sections, units in brackets, a References section naming the paper (by
    its ctlcc.references citation) or the RFC, and a doctest."""
    doc = inspect.getdoc(func)
    for section in ("Parameters", "Returns", "References", "Examples"):
        assert f"{section}\n{'-' * len(section)}" in doc, f"{name}: no {section}"
    refs = doc.split("References\n----------", 1)[1].split("Examples", 1)[0]
    assert (paper and short(paper) in refs) or "RFC" in refs, f"{name}: {refs!r}"
    assert "[" in doc and ">>> " in doc


_BOARD = np.zeros(32, dtype=np.bool_)
_BOARD[[5, 6, 8, 11, 12]] = True
_HIST = np.array([30.0, 80.0, 120.0, 60.0, 90.0, 100.0, 70.0, 50.0, 40.0])
_TIMES = np.array([5.0, 10.0, 15.0, 20.0])

#: name -> sample arguments (numbers chosen to reach a non-trivial branch)
SAMPLES = {
    "window_update_core": (40, 32, 1, 50),
    "ack_step_core": (6, 9, 8, 32, 3, 0, 2, 0, 50, 3),
    "timeout_step_core": (40, 32, 4, 101, 64),
    "gap_for_window_core": (0.1, 4.0, 0.008),
    "next_gap_core": (0.017, 4.0, 0.008, 1),
    "scaled_gap_core": (0.017, 0.008, 1.5),
    "period_gap_core": (0.1, 4.0, 0.008, 1.5),
    "rtt_first_sample_core": (0.2,),
    "rtt_update_core": (0.1, 0.05, 0.18),
    "timeout_interval_core": (0.1, 0.02, 4, 1e-3),
    "karn_backoff_core": (32, 64),
    "cycle_core": (70.0, 0.1, 0.62, 0.96),
    "loss_th_core": (70.0, 0.1, 0.62, 0.96),
    "eq2_rate_core": (1.2701, 0.1, 0.01),
    "regime_core": (0.05, 0.02, 1.5, 0.5),
    "target_rate_core": (0.03, 0.02, 0.1, 0.5, 1.2701),
    "rate_update_core": (200.0, 0.12, 0.02, 1.5, 0.5, 0.5, 0.5, 1.2701, 0.62, 0.96),
    "tcp_friend_update_core": (50.0, 0.1, 0.01, 5.0, 1.2701),
    "cycle_loss_core": (_TIMES, np.array([0.0, 2.0, 0.0, 1.0]), np.full(4, 100.0), 4, 20.0,
                        12.0),
    "packet_pair_bandwidth_core": (64.0, 0.016),
    "initial_bucket_core": (1000.0, 0.125, 1000.0),
    "rtt_factor_core": (1.0, 0.85, 1),
    "rtt_scaled_core": (16.0, 0.078, 0.255, 0.9, 0.1),
    "rtt_changed_core": (0.1, 0.106, 0.05),
    "token_update_core": (7.5, 8.0, 1.0),
    "token_fill_core": (2.0, 8.0, 8.0, 0.25),
    "tfrc_rate_core": (1.0, 0.1, 0.01, 0.4, 1.0),
    "initial_window_core": (1.0, 4.38),
    "interval_weight_core": (5, 8),
    "average_loss_interval_core": (_HIST, 8, 8),
    "loss_event_rate_core": (_HIST, 5, 8),
    "push_loss_interval_core": (None, 8, 8, 25.0, 3.0),           # needs a fresh array
    "loss_interval_for_rate_core": (500.0, 1.0, 0.1, 1.0),
    "rtt_filter_core": (0.1, 0.2, 0.9, True),
    "feedback_update_core": (40.0, 0.01, 50.0, 0.1, 1.0, 64.0, 1.0, 0.5, 4.0, 1.0),
    "nofeedback_core": (112.0, 0.01, 80.0, 0.1, 1.0, 64.0, 4.0, True, False, 1.0),
    "nofeedback_interval_core": (0.1, 1.0, 2.0, True),
    "mark_sacked_core": (None, 30, 35),                              # needs a fresh array
    "advance_core": (None, 3, 9),
    "highest_sacked_core": (_BOARD, 2, 20),
    "is_lost_core": (_BOARD, 4, 20, 3),
    "pipe_core": (_BOARD, 2, 20, 4, 3),
    "next_seg_core": (_BOARD, 2, 20, 3, 3, False),
    "rescue_seg_core": (_BOARD, 14, 20, 3),
    "recovery_done_core": (21, 20),
    "enter_recovery_core": (1, _BOARD, 3, 20, 3),
    "sttp.ack_step_core": (16.0, 16.0, 0.0, 0.078, 0.255, 0.9, 0.1, 0.05, 0),
}


def _sample(module, name):
    return SAMPLES.get(f"{module}.{name}", SAMPLES.get(name))


def test_every_core_has_a_sample():
    assert all(_sample(c[0], c[2]) is not None for c in CORES)
    assert len(CORES) == len(SAMPLES)


numba = pytest.importorskip("numba")


@pytest.mark.parametrize("module, paper, name, func", CORES, ids=[c[2] for c in CORES])
def test_core_compiles_and_agrees(module, paper, name, func):
    args = _sample(module, name)
    if args[0] is None:                                   # in-place cores: one copy each
        base = _HIST.copy() if module == "tfrc" else _BOARD.copy()
        a, b = base.copy(), base.copy()
        out_py, out_nb = func(a, *args[1:]), numba.njit(func)(b, *args[1:])
        np.testing.assert_array_equal(a, b)
    else:
        out_py, out_nb = func(*args), numba.njit(func)(*args)
    assert np.all(np.asarray(out_nb) == np.asarray(out_py)) or \
        np.allclose(np.asarray(out_nb, dtype=float), np.asarray(out_py, dtype=float),
                    rtol=1e-14, atol=0), (name, out_py, out_nb)
