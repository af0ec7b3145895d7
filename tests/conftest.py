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
