"""Every public callable refuses bad input clearly (issue 16).

For each public callable (``tests/api_cases.py``) the harness calls it with
its valid baseline arguments, then with one argument replaced by NaN, +-inf,
1e308, a wrong type, a string boolean, an empty or 2-D array, an
out-of-range value or an unknown name, and requires a ``ValueError`` /
``TypeError`` (or a ctlcc subclass) naming the argument and the value
received, or - for extreme but valid values - a finite answer.  Every call
runs under a wall-clock alarm, so a hang fails instead of stalling CI.
"""

import faulthandler
import importlib
import inspect

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import ctlcc

from .api_cases import CASES as _FIRST_CASES, EXEMPT as _FIRST_EXEMPT
from .api_cases import SIM_CASES, SIM_KNOWN_FAILURES, SIM_MISSING, sim_result
from .api_cases_modules import MODULE_CASES, MODULE_EXEMPT
from .api_harness import run_case, unlisted_parameters

#: Modules whose ``__all__`` is the public API the harness must cover.
PUBLIC_MODULES = (
    "ctlcc", "ctlcc.errors", "ctlcc.references", "ctlcc.claims", "ctlcc.laws.cbraa",
    "ctlcc.laws.iftp", "ctlcc.laws.primo", "ctlcc.laws.stpd", "ctlcc.laws.sttp",
    "ctlcc.laws.stpd_fuzzy", "ctlcc.laws.tfrc", "ctlcc.laws.sack", "ctlcc.laws.tcp",
    "ctlcc.laws.vegas", "ctlcc.laws.user", "ctlcc.bounds",
    "ctlcc.bounds.cbraa", "ctlcc.bounds.fairness", "ctlcc.bounds.iftp", "ctlcc.bounds.mathis",
    "ctlcc.bounds.pftk", "ctlcc.bounds.tokenbucket", "ctlcc.analysis", "ctlcc.analysis.plant",
    "ctlcc.analysis.stability", "ctlcc.analysis.primo", "ctlcc.analysis.stpd",
    "ctlcc.analysis.fuzzy_surface", "ctlcc.crosscheck", "ctlcc.sim", "ctlcc.sim.fluid",
    "ctlcc.sim.engine", "ctlcc.sim.scenarios", "ctlcc.sim.senders",
    # issue 23: the modules the first tables left out (tests/api_cases_modules.py)
    "ctlcc.laws.aqm", "ctlcc.laws.cubic", "ctlcc.laws.prr", "ctlcc.analysis.aqm", "ctlcc.sweep",
    "ctlcc.sim.ns3_matrix", "ctlcc.plots", "ctlcc.ledger", "ctlcc.report", "ctlcc.sim.testing",
    "ctlcc.sim.ns3", "ctlcc.cli",
    # the experiments (validation only: the engine is a sentinel), the site, the criteria
    "ctlcc.experiments.thesis", "ctlcc.experiments.primo", "ctlcc.experiments.sttp",
    "ctlcc.experiments.cbraa", "ctlcc.experiments.iftp", "ctlcc.experiments.aqm",
    "ctlcc.experiments.baselines",
    "ctlcc.experiments.thesis_typed_claims", "ctlcc.experiments.thesis_testbed",
    "ctlcc.sim.criteria", "ctlcc.sim.stpd_readings", "ctlcc.site",
)


CASES = _FIRST_CASES + MODULE_CASES
EXEMPT = _FIRST_EXEMPT + MODULE_EXEMPT


def public_callables():
    """{object: 'module.name'} of every public function, class and public method."""
    found = {}
    for module_name in PUBLIC_MODULES:
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if inspect.ismodule(obj) or not callable(obj):
                continue
            found.setdefault(obj, f"{module_name}.{name}")
            if inspect.isclass(obj) and not issubclass(obj, BaseException):
                for attr, member in vars(obj).items():
                    if attr.startswith("_"):
                        continue
                    func = member.__func__ if isinstance(member, (classmethod, staticmethod)) \
                        else member
                    if inspect.isfunction(func) and len(inspect.signature(func).parameters) > (
                            0 if isinstance(member, staticmethod) else 1):
                        found.setdefault(func, f"{module_name}.{name}.{attr}")
    return found


def _covered():
    out = set()
    for case in CASES + SIM_CASES:
        out.update(getattr(obj, "__func__", obj) for obj in (case.covers or (case.func,)))
    return out


@pytest.fixture(autouse=True, scope="module")
def _hard_timeout():
    # backstop for a hang inside C code that the per-call alarm cannot interrupt
    faulthandler.dump_traceback_later(900, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()


def test_harness_covers_every_public_callable():
    covered = _covered()
    exempt = {obj for obj, _ in EXEMPT}
    missing = sorted(name for obj, name in public_callables().items()
                     if obj not in covered and obj not in exempt)
    assert not missing, "public callables without harness cases or exemption: " + ", ".join(missing)


def test_every_parameter_has_a_kind():
    """A parameter without a kind is never probed (how Scenario(tcp='abc') went unseen)."""
    unlisted = [f"{case.name}: {', '.join(names)}" for case in CASES + SIM_CASES
                if (names := unlisted_parameters(case))]
    assert not unlisted, "parameters the harness does not probe:\n  " + "\n  ".join(unlisted)


def test_sim_cases_match_the_scenario_api():
    assert not SIM_MISSING, "SIM_CASES refer to names the scenario API lost: " + "; ".join(
        SIM_MISSING)


def test_exemptions_say_why():
    for obj, reason in EXEMPT:
        assert len(reason) > 20, f"exemption of {obj!r} needs a reason"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_public_call_refuses_bad_input(case):
    defects = run_case(case)
    assert not defects, f"{case.name}:\n  " + "\n  ".join(defects)


def _sim_params():
    for case in SIM_CASES:
        marks = ()
        if case.name in SIM_KNOWN_FAILURES:
            marks = pytest.mark.xfail(strict=True, reason=SIM_KNOWN_FAILURES[case.name])
        yield pytest.param(case, id=case.name, marks=marks)


@pytest.fixture(scope="module")
def compiled_engine():
    """One short run outside the per-call alarm: the first one compiles the engine."""
    return sim_result()


@pytest.mark.parametrize("case", list(_sim_params()))
def test_sim_call_refuses_bad_input(case, compiled_engine):
    defects = run_case(case)
    assert not defects, f"{case.name}:\n  " + "\n  ".join(defects)
