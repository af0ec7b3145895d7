# ctlcc.sim.senders._base - what every sender spec provides
"""Base class of the frozen sender specs (see :mod:`ctlcc.sim.senders`)."""

from dataclasses import fields

import numpy as np

from ...errors import ParameterError

__all__ = ["SenderSpec"]


class SenderSpec:
    """A sender algorithm and its parameters (frozen dataclass subclasses).

    Class attributes set by each sender: ``name`` (the ``protocol=`` string),
    ``code`` (its integer in the compiled dispatch, its index in the
    registry) and ``window_based`` (whether the window column means
    something; rate-based senders report NaN there).
    """

    name = None
    code = -1
    window_based = True

    def init_flow(self, ff, fi, tab, j, tcp):
        """Write flow j's private columns (and law table) before the run."""

    def final_state(self, ff, fi, j):
        """Sender-specific measurements of flow j at the end of a run (a dict).

        Collected in :attr:`ctlcc.sim.SimResult.sender_state`; empty unless
        the sender keeps such measurements (e.g. IFTP's gaps and delays).
        """
        return {}

    def callback(self):
        """The user-supplied Python callable this sender needs, or None."""
        return None

    def options(self):
        """Field values as a dict (for reprs and reports)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)


def check_option(name, value, choices):
    """ValueError naming the option, its choices and the value received.

    Compared by type as well as value (``ctlcc._validation.check_choice``): ``1`` is not
    ``True`` and ``["rtt"]`` is not ``"rtt"``.
    """
    from ..._validation import check_choice

    return check_choice(name, value, tuple(choices))


def table_row(x, y):
    """Pad a breakpoint table to a fixed width (last point repeated)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    return x, y
