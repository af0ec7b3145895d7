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


def _pyproject():
    import tomllib

    with open(ROOT / "pyproject.toml", "rb") as handle:
        return tomllib.load(handle)


def test_pyproject_lists_every_subpackage_and_maps_data():
    """The explicit package list (discovery cannot map data/) misses no folder of ctlcc/."""
    setuptools = _pyproject()["tool"]["setuptools"]
    on_disk = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "ctlcc").rglob("__init__.py")}
    assert set(setuptools["packages"]) == on_disk | {"ctlcc.data"}
    assert setuptools["package-dir"] == {"ctlcc.data": "data"}


def test_every_data_file_is_shipped_and_read_through_the_loader():
    from ctlcc import _data

    shipped = set(_data.names())
    patterns = _pyproject()["tool"]["setuptools"]["package-data"]["ctlcc.data"]
    in_repo = {p.relative_to(ROOT / "data").as_posix() for pattern in patterns
               for p in (ROOT / "data").glob(pattern)}
    assert in_repo and in_repo <= shipped


def test_no_module_builds_a_path_to_the_source_tree():
    """Data is read through ctlcc._data (importlib.resources), never ``parents[2] / "data"``."""
    offenders = [str(p.relative_to(ROOT)) for p in (ROOT / "ctlcc").rglob("*.py")
                 if '/ "data"' in p.read_text()]
    assert offenders == []
