"""Shared pytest fixtures."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def mplcleanup():
    """Close every pyplot figure a test opened."""
    yield
    plt.close("all")


@pytest.fixture(scope="session")
def analytic_ledger():
    """The fast ledger sources (stpd, bounds, fluid), built once per session.

    tests/test_ledger.py checks its records and tests/claims/test_equations.py its z-domain
    units; the stpd source's exact series take ~10 s, so both read this one build (the
    records are deterministic: the same units give the same claims in either file).
    """
    from ctlcc import ledger

    return ledger.build_ledger(sources=["stpd", "bounds", "fluid"])
