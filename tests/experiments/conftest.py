"""Experiments shared by the thesis tests (each run once per session)."""

import pytest

from ctlcc.experiments import thesis


@pytest.fixture(scope="session")
def buffer_result():
    return thesis.buffer_dimension()


@pytest.fixture(scope="session")
def fixed_result():
    return thesis.fixed_bottleneck()


@pytest.fixture(scope="session")
def moving_result():
    return thesis.moving_bottleneck()


@pytest.fixture(scope="session")
def telnet_result():
    return thesis.telnet_delay()


@pytest.fixture(scope="session")
def loss_result():
    # short form of Fig. 4.8: the two losses the thesis quotes, 2 seeds x 60 s
    return thesis.uniform_loss(losses=(1e-2, 1e-1), seeds=(0, 1), duration=60.0)


@pytest.fixture(scope="session")
def geo_result():
    return thesis.geo_burst()


@pytest.fixture(scope="session")
def mixed_result():
    return thesis.mixed_reno(seeds=(0, 1, 2))
