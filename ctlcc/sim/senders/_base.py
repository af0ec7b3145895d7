# ctlcc.sim.senders._base - the sender contract: what every sender spec provides
"""Base class of the frozen sender specs (see :mod:`ctlcc.sim.senders`).

A sender is one module of :mod:`ctlcc.sim.senders` holding a frozen
dataclass spec (a :class:`SenderSpec`: its parameters, validated when it
is built) and the numba hooks the event loop calls (:mod:`ctlcc.sim._core.hooks`:
``on_start``, ``on_ack``, ``on_data``, ``on_timer``, ``on_pace``,
``on_step``, ``on_resume``, each with a fixed signature), plus one line in
:data:`ctlcc.sim.senders.REGISTRY`.  The engine allocates what the spec
declares (its private state columns, the rows of its extra table), lets the
spec write its parameters into them (:meth:`SenderSpec.init_flow`), and
compiles the module's hooks the first time a run uses the sender.
"""

from collections import namedtuple
from dataclasses import fields

import numpy as np

from ...errors import ParameterError

__all__ = ["SenderSpec", "Compilation"]

#: Something a sender needs compiled beyond its module's hooks (its law, say):
#: ``label`` for the compile notice (a label starting with "law " is compiled once
#: per process, never cached on disk), ``seconds`` an estimate [CPU s], ``key``
#: what makes two equal, ``ready()`` whether it is compiled or cached,
#: ``compile()`` what compiles it.
Compilation = namedtuple("Compilation", ["label", "seconds", "key", "ready", "compile"])


class SenderSpec:
    """A sender algorithm and its parameters (frozen dataclass subclasses).

    Class attributes a sender sets:

    * ``name``: the ``protocol=`` string and registry key;
    * ``window_based``: whether the window column means something (rate
      senders report NaN there);
    * ``float_columns``, ``int_columns``: how many private state columns
      the sender uses in ``ff``/``fi`` from ``NF_COMMON``/``NI_COMMON`` on
      (the engine allocates the largest any flow of a run declares);
    * ``ecn_capable``: whether the sender reacts to ECN echoes (RFC 3168);
      with ``TcpOptions(ecn=True)`` its data is sent ECT, an AQM marks it
      instead of dropping it, and its ``on_ack`` must act on ``ack.ecn``
      (the window senders: :func:`ctlcc.sim.senders.window.ecn_echo`).  A
      sender that ignores marks must leave it False: its packets are then
      dropped, not marked, as RFC 3168 §5 requires for non-ECT packets;
    * ``hooks_module``: the dotted name of the module whose ``on_*``
      functions are the sender's hooks, when not the spec's own module;
    * ``code``: set by the registry (the spec's index in it), stored in the
      flow's ``I_PROTO`` column; never written by hand.

    Methods a sender may override: :meth:`table_shape` (its extra arrays),
    :meth:`init_flow` (its parameters into its columns), :meth:`final_state`,
    :meth:`compilations` (what it needs compiled besides its hooks),
    :meth:`python_step` and :meth:`error_message`.
    """

    name = None
    code = -1
    window_based = True
    ecn_capable = False
    float_columns = 0
    int_columns = 0
    hooks_module = None

    @property
    def protocol(self):
        """What ``Flow.protocol`` and ``FlowStats.protocol`` say for this sender."""
        return self.name

    @classmethod
    def example(cls):
        """A spec of this sender with its defaults (what ``protocol=name`` runs, or the
        defaults plus the parameters the spec requires)."""
        return cls()

    def table_shape(self, tcp):
        """(rows, width) of the flow's extra float table ``ctx.tab[f]`` (default none).

        The engine allocates ``tab`` of shape ``(flows, rows, width)`` with the
        largest rows and width any flow of the run asks for; a sender reads
        its rows ``ctx.tab[f, r]``, never assuming the table is no wider than
        it asked (another flow may have asked for more).
        """
        return (0, 0)

    def init_flow(self, ff, fi, tab, j, tcp):
        """Write flow j's private columns (and table) before the run."""

    def compilations(self):
        """What the sender needs compiled besides its hooks: a list of :data:`Compilation`.

        The engine compiles these before the run (after its notice); e.g. the
        law a window-law sender calls by address.  Default: nothing.
        """
        return []

    def final_state(self, ff, fi, j):
        """Sender-specific measurements of flow j at the end of a run (a dict).

        Collected in :attr:`ctlcc.sim.SimResult.sender_state`; empty unless
        the sender keeps such measurements (e.g. IFTP's gaps and delays).
        """
        return {}

    def python_step(self, arrays, f):
        """What Python does when a hook of flow f returns ``HOOK_PYTHON``.

        *arrays* has the run's ``ff``, ``fi``, ``tab``, ``g`` and ``meta``;
        the step writes its answer there and the flow's ``on_resume`` hook
        runs next.  Only senders with a Python callback need it.
        """
        raise RuntimeError(f"sender {self.name!r} asked for a Python step it does not define")

    def error_message(self, arrays, f):
        """Why a hook of flow f stopped the run (it returned ``HOOK_ERROR``)."""
        from .._core.layout import M_ERROR

        return f"sender {self.name!r} stopped the run (flow {f}, error {int(arrays.meta[M_ERROR])})"

    def options(self):
        """Field values as a dict (for reprs and reports)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


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
