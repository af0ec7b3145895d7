"""`import ctlcc` stays light; the re-exported names still resolve.

The time itself is measured by ``benchmarks/bench_import.py`` (no timed
assertions in tests); here we check the cause of a slow import: which heavy
libraries a fresh interpreter has loaded after ``import ctlcc``.
"""

import subprocess
import sys
from pathlib import Path

import pytest

import ctlcc

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("sympy", "control", "skfuzzy", "numba", "matplotlib", "scipy")


def _loaded_after(statement):
    code = f"import sys\n{statement}\nprint(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    return set(out.stdout.split())


def test_import_ctlcc_loads_no_heavy_library():
    assert _loaded_after("import ctlcc") == set()


def test_bounds_do_not_need_the_fuzzy_or_symbolic_stack():
    # The bounds evaluate the laws' arithmetic cores, which register themselves
    # with numba (ctlcc.laws._core.law_core), so numba (and the scipy it loads)
    # may come in; the fuzzy, symbolic, control and plotting stacks may not.
    assert _loaded_after("import ctlcc.bounds") - {"numba", "scipy"} == set()


@pytest.mark.parametrize("name", ctlcc.__all__)
def test_every_public_name_resolves(name):
    assert getattr(ctlcc, name) is not None
    assert name in dir(ctlcc)


def test_unknown_attribute_raises_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'stpd_looop'"):
        ctlcc.stpd_looop  # noqa: B018
