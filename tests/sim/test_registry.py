"""The sender registry: every registered sender is dispatched and runs.

A registered sender whose module lacks a hook an event needs makes the
engine raise (a RuntimeError naming the sender and the hook); running a
tiny scenario per registered sender therefore fails CI.  Each run must
conserve packets (checked by the engine), send, and deliver.
"""

import pytest

from ctlcc.errors import ParameterError
from ctlcc.sim import run, scenarios as S
from ctlcc.sim.senders import (BY_CODE, PROTOCOLS, REGISTRY, SENDERS, Cbr, Cbraa, FixedWindow,
                                Poisson, Stpd, TcpFriend, resolve)


def _spec(cls):
    if cls in (Cbr, Poisson):
        return cls(rate=100.0)
    if cls in (Cbraa, TcpFriend):   # reports every 0.5 s: several within the 6-s run
        return cls(t_rtcp=0.5, initial_rate=20.0)
    if cls is FixedWindow:          # below the path's BDP + buffer (7 + 4 packets)
        return cls(window=8)
    return cls()


@pytest.mark.parametrize("cls", REGISTRY, ids=[c.name for c in REGISTRY])
def test_every_registered_sender_is_dispatched_and_delivers(cls):
    scenario = S.preset("thesis_fig3_7_insufficient", loss=0.02,
                        protocol=_spec(cls))
    result = run(scenario, 6.0, seed=3)
    flow = result.flows[0]
    assert flow.protocol == cls.name
    assert flow.sent > 50 and flow.delivered_unique > 50
    if cls not in (Cbr, Poisson):
        assert flow.dropped_loss > 0  # the loss path was exercised too


def test_protocols_codes_and_names_come_from_the_registry():
    assert PROTOCOLS == tuple(c.name for c in REGISTRY) == tuple(SENDERS)
    assert S.PROTOCOLS is PROTOCOLS
    codes = [c.code for c in REGISTRY]
    assert codes == sorted(set(codes)) and codes[0] == 0  # unique, increasing, from 0
    assert all(BY_CODE[c.code] is c for c in REGISTRY)


def test_unknown_protocol_lists_the_valid_ones():
    with pytest.raises(ParameterError, match="protocol must be one of 'reno', 'newreno'.*'cubic'"):
        resolve("bbr")
    with pytest.raises(ParameterError, match="protocol must be one of"):
        S.preset("thesis_fig4_7", protocol="bbr")


def test_protocol_string_and_spec_agree():
    by_name = S.preset("thesis_fig4_7", protocol="stpd")
    by_spec = S.preset("thesis_fig4_7", protocol=Stpd())
    assert by_name == by_spec
    with pytest.raises(ParameterError, match=r"sender must run protocol='reno', got Stpd"):
        S.Flow(("S", "D"), "reno", sender=Stpd())
