# ctlcc.sim.senders.open_loop - CBR and Poisson sources (engine validation)
"""Open-loop sources without ACKs: "cbr" (one packet every 1/rate) and
"poisson" (exponential gaps of mean 1/rate), used to check the engine
against queueing theory."""

from dataclasses import dataclass

import numba
import numpy as np

from ...errors import ParameterError
from ..._validation import check_positive
from .._core.layout import (EV_PACE, F_CWND, F_RATE, I_PACE_GEN, I_UNIQUE, NF_COMMON,
                            NI_COMMON, Q_SENT_TIME)
from .._core.net import push, release, send_next
from ._base import SenderSpec

__all__ = ["Cbr", "Poisson"]

# private columns: one-way delay tally of the received packets; the gaps' law
F_DELAY_SUM, F_DELAY_SQ = NF_COMMON, NF_COMMON + 1
I_POISSON = NI_COMMON


@dataclass(frozen=True)
class _OpenLoop(SenderSpec):
    rate: float = None
    window_based = False
    float_columns = 2
    int_columns = 1
    poisson = False

    def __post_init__(self):
        if self.rate is None:
            raise ParameterError(
                f"rate [packets/s] is required for protocol {self.name!r} "
                f"(pass sender={type(self).__name__}(rate=...)), got None")
        object.__setattr__(self, "rate", check_positive("rate", self.rate, scalar=True))

    @classmethod
    def example(cls):
        """A source of 100 packets/s (the rate has no default)."""
        return cls(rate=100.0)

    def init_flow(self, ff, fi, tab, j, tcp):
        ff[j, F_CWND] = np.nan
        ff[j, F_RATE] = self.rate
        fi[j, I_POISSON] = 1 if self.poisson else 0

    def final_state(self, ff, fi, j):
        """One-way delay of the received packets: mean and standard deviation. [s]"""
        got = fi[j, I_UNIQUE]
        mean = ff[j, F_DELAY_SUM] / got if got else np.nan
        var = max(ff[j, F_DELAY_SQ] / got - mean * mean, 0.0) if got else np.nan
        return {"delay_mean": float(mean), "delay_std": float(np.sqrt(var))}


@dataclass(frozen=True)
class Cbr(_OpenLoop):
    """Constant bit rate: one packet every 1/rate. rate: [packets/s], > 0."""

    name = "cbr"


@dataclass(frozen=True)
class Poisson(_OpenLoop):
    """Poisson source: exponential gaps of mean 1/rate. rate: [packets/s], > 0."""

    name = "poisson"
    poisson = True


@numba.njit(cache=True, inline="always")
def send_one(now, f, ctx, rng):
    """One packet, then the next one after 1/rate or an exponential gap."""
    send_next(now, f, 0, ctx)
    rate = ctx.ff[f, F_RATE]
    gap = rng.exponential(1.0 / rate) if ctx.fi[f, I_POISSON] == 1 else 1.0 / rate
    ctx.fi[f, I_PACE_GEN] += 1
    push(ctx, now + gap, EV_PACE, f, ctx.fi[f, I_PACE_GEN])


@numba.njit(cache=True, inline="always")
def on_start(now, f, ctx, rng):
    send_one(now, f, ctx, rng)


@numba.njit(cache=True, inline="always")
def on_pace(now, f, ctx, rng):
    send_one(now, f, ctx, rng)


@numba.njit(cache=True, inline="always")
def on_data(now, f, p, ctx, rng):
    """No receiver feedback: count the packet, tally its one-way delay, free it."""
    ctx.fi[f, I_UNIQUE] += 1
    delay = now - ctx.pf[p, Q_SENT_TIME]
    ctx.ff[f, F_DELAY_SUM] += delay
    ctx.ff[f, F_DELAY_SQ] += delay * delay
    release(p, ctx.meta, ctx.free)
