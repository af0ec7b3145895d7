# ctlcc.sim.senders.primo - Primo (Chatté, Ducourthial, Niculescu)
"""Primo: a paced, unreliable rate sender driven by forward-trip times.

Four back-to-back packets, then one packet every 1/rate with the rate from
Algorithm 1 (:func:`ctlcc.laws.user.primo_rate_update`, compiled in); the
start-up rate is three packets over the receiver's 1st-to-4th arrival gap
(:func:`~ctlcc.laws.primo.initial_rate_core`); FTT and the instantaneous
reception rate are measured by the receiver and echoed in the ACK; no
retransmissions (it carries multimedia); TO = 2 RTT_ref
(:func:`~ctlcc.laws.primo.ack_timeout_core`), halving the rate and doubling
TO on a time-out (:func:`~ctlcc.laws.primo.timeout_backoff_core`).

Two points §III leaves open are spec options (:class:`Primo`):

* the time-out (§III-D, "if no acknowledgment is received during a period
  of TO seconds").  Default ``timeout="outstanding"``: as in TCP (RFC 6298
  §5) the timer runs only while a packet is outstanding and from the send
  time of the oldest unacknowledged one
  (:func:`~ctlcc.laws.primo.timeout_deadline_core`); a time-out gives the
  outstanding packets up (Primo does not retransmit), halves the rate and
  re-paces the next packet at the halved rate.  ``"literal"``: re-armed at
  now + TO on every ACK and every send into an idle timer, so a source
  whose packet gap exceeds TO times out with nothing lost;
* the start-up restart (§III-B, "the whole initialization phase is
  restarted").  Default ``restart_jitter=0.5``: each start-up burst waits
  ``U[0.5, 1.5] x`` the initial time-out for its first ACK
  (:func:`~ctlcc.laws.primo.restart_delay_core`, drawn from the run's
  Generator); 0 is the fixed 1-s timer, which keeps flows that collided in
  lockstep forever.

:meth:`Primo.legacy` is the literal reading (the sender before issue 12);
the golden fingerprints use it.
"""

import functools
from dataclasses import dataclass, field

import numba

from ...errors import ParameterError
from ...laws.primo import PrimoParams
from ...laws.user import primo_rate_update
from .._core.hooks import RATE_LAW_SIGNATURE, address_of, is_compiled
from . import rate_law as RL
from ._base import Compilation, SenderSpec
from .rate_law import MEAN_GAP_GAIN, RECEPTION_RATES, TIMEOUTS  # noqa: F401  (its options)

__all__ = ["Primo"]

#: Algorithm 1's parameters, in the order primo_rate_update takes them as gains
GAINS = ("W1", "W2", "F_str", "F_mod", "F_rel", "TH_str", "TH_mod", "TH_rel")

primo_update = numba.njit(primo_rate_update, cache=True, inline="always")


@numba.njit(cache=True)
def primo_law(rate, excess, received, previous, memory, gains):
    """Algorithm 1 behind the rate-law signature (see :mod:`ctlcc.sim._core.laws`)."""
    new, _ = primo_update(rate, excess, received, previous, (), gains[0], gains[1], gains[2],
                          gains[3], gains[4], gains[5], gains[6], gains[7])
    return new


@functools.lru_cache(maxsize=None)
def primo_law_address():
    """Address of :func:`primo_law` (compiled, or loaded from numba's cache, once)."""
    return address_of(primo_law, RATE_LAW_SIGNATURE)


#: Algorithm 1, compiled with Primo's module and cached on disk with it
PRIMO_LAW = Compilation("Primo's Algorithm 1", 1, "primo_law", lambda: is_compiled(primo_law),
                        primo_law_address)


@dataclass(frozen=True)
class Primo(SenderSpec):
    """Primo and its parameters.

    Attributes
    ----------
    params : PrimoParams
        Algorithm 1's weights, factors, thresholds and tau (the paper's set
        by default, §III-E).
    timeout : {"outstanding", "literal"}
        Reading of §III-D's time-out.  "outstanding" (default): the timer
        runs only while a packet is unacknowledged, from the send time of
        the oldest one (:func:`~ctlcc.laws.primo.timeout_deadline`).
        "literal": TO is re-armed from now on every ACK, so a source whose
        gap 1/rate exceeds TO = 2 RTT_ref times out with nothing lost.
        Under "outstanding" a packet still times out without loss when it
        waits in queues longer than RTT_ref (TO = 2 RTT_ref, measured from
        its send): the time-out then reads a queueing delay above RTT_ref
        as §III-D's "network saturation" - which is what hands a shared
        drop-tail queue to Reno (:func:`ctlcc.experiments.primo.primo_against_reno`).
    restart_jitter : float
        A start-up burst waits ``U[1 - j, 1 + j] x`` the initial time-out
        for its first ACK before it is sent again
        (:func:`~ctlcc.laws.primo.restart_delay`), in [0, 1); 0.5 by
        default, 0 the fixed timer of the literal reading.
    reception_rate : {"instantaneous", "mean_gap"}
        "instantaneous" (default, the paper §III-A): the receiver echoes
        1 / (time since the previous arrival).  "mean_gap": 1 / the gap
        smoothed with gain :data:`MEAN_GAP_GAIN`
        (:func:`~ctlcc.laws.primo.mean_gap`), an unbiased estimate of the
        flow's share when its packets are interleaved with others'; not the
        paper's protocol, a counterfactual that isolates the per-packet
        estimate's bias.
    timeout_backoff : bool
        True (the paper, §III-D): a time-out halves the rate and doubles TO
        (:func:`~ctlcc.laws.primo.timeout_backoff_core`).  False: the rate
        and TO are left as they are (a bound used by
        :func:`ctlcc.experiments.primo.startup_diagnosis`).

    Examples
    --------
    >>> Primo.legacy()
    Primo(params=PrimoParams(W1=0.5, W2=0.9, F_str=0.95, F_mod=0.99, F_rel=1.05, TH_str=0.34, TH_mod=0.17, TH_rel=0.15, tau=1.0), timeout='literal', restart_jitter=0.0, reception_rate='instantaneous', timeout_backoff=True)
    >>> Primo(timeout="lazy")
    Traceback (most recent call last):
    ...
    ctlcc.errors.ParameterError: timeout must be one of 'outstanding', 'literal'; got 'lazy'
    """

    name = "primo"
    window_based = False
    float_columns = RL.FLOAT_COLUMNS
    int_columns = RL.INT_COLUMNS
    hooks_module = "ctlcc.sim.senders.rate_law"
    params: PrimoParams = field(default_factory=PrimoParams)
    timeout: str = "outstanding"
    restart_jitter: float = 0.5
    reception_rate: str = "instantaneous"
    timeout_backoff: bool = True

    @classmethod
    def legacy(cls, **changes):
        """§III read literally: TO re-armed on every ACK, fixed restart timer.

        The sender before issue 12 (the golden fingerprints' Primo); keyword
        arguments override single fields.
        """
        return cls(**{"timeout": "literal", "restart_jitter": 0.0, **changes})

    def __post_init__(self):
        if not isinstance(self.params, PrimoParams):
            raise ParameterError(f"params must be a PrimoParams, got {type(self.params).__name__}")
        object.__setattr__(self, "restart_jitter", RL.check_options(self.options()))

    def address(self):
        """Address of the compiled Algorithm 1 (:func:`primo_law`)."""
        return primo_law_address()

    def compilations(self):
        return [PRIMO_LAW]

    def table_shape(self, tcp):
        """Rows: the ΔFTT and rate histories, the law's memory and gains."""
        return (RL.ROW_GAINS + 1, RL.HISTORY)

    def init_flow(self, ff, fi, tab, j, tcp):
        options = dict(self.options(), tau=self.params.tau)
        RL.init_law_flow(options, ff, fi, tab, j, self.address(), 0,
                         [getattr(self.params, name) for name in GAINS], "packet")

    def error_message(self, arrays, f):
        return RL.law_error_message("Primo's Algorithm 1", arrays, f)
