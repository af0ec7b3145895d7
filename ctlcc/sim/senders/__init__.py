# ctlcc.sim.senders - the sender algorithms of the packet engine, one module per family
"""Sender algorithms of the packet engine and their frozen specs.

One module per family owns its state columns, its compiled hooks (start,
ACK or feedback, timer, per-round-trip, deferred steps) and its spec:

=========  ==================================  ===================================
protocol   spec                                hooks (module)
=========  ==================================  ===================================
reno       :class:`Reno`                       :mod:`.window`
newreno    :class:`NewReno`                    :mod:`.window`
tahoe      :class:`Tahoe`                      :mod:`.window`
vegas      :class:`Vegas`                      :mod:`.vegas`
stpd       :class:`Stpd`                       :mod:`.window_law`
primo      :class:`Primo`                      :mod:`.rate_law`
cbr        :class:`Cbr` (rate required)        :mod:`.open_loop`
poisson    :class:`Poisson` (rate required)    :mod:`.open_loop`
iftp       :class:`Iftp`                       :mod:`.iftp`
cbraa      :class:`Cbraa`                      :mod:`.cbraa`
tcpfriend  :class:`TcpFriend`                  :mod:`.cbraa`
tfrc       :class:`Tfrc`                       :mod:`.tfrc`
sttp       :class:`Sttp`                       :mod:`.sttp`
sack       :class:`Sack`                       :mod:`.sack`
cubic      :class:`Cubic`                      :mod:`.cubic`
fixed      :class:`FixedWindow`                :mod:`.fixed_window`
=========  ==================================  ===================================

and a researcher's own law, which needs no module: a
:class:`ctlcc.WindowLaw` runs as :class:`WindowLawSender` (ST-PD's
mechanics, :mod:`.window_law`) and a :class:`ctlcc.RateLaw` as
:class:`RateLawSender` (Primo's, :mod:`.rate_law`): ``Flow(path,
sender=law)`` or ``protocol=law``.

:data:`REGISTRY` is the single list of protocols: :data:`PROTOCOLS`, the
validation messages and the codes the engine stores per flow derive from
it.  A sender is one module (its spec, its hooks, see :mod:`._base` and
:mod:`ctlcc.sim._core.hooks`) plus one line here; the engine compiles a
sender's hooks the first time a run uses it.

``Flow(path, protocol="stpd")`` means ``Flow(path, sender=Stpd())`` (the
paper's defaults); ``Flow(path, sender=Stpd(gains=(0.1, 0.2)))`` carries
its own parameters.  A spec the engine does not run (a subclass of one of
these, or a ``SenderSpec`` defined elsewhere) is refused with a message
that says what to use instead.
"""

import importlib
import sys
from dataclasses import fields

from ...errors import ParameterError
from ...laws.user import RateLaw, WindowLaw
from ._base import SenderSpec
from .cbraa import Cbraa, TcpFriend
from .cubic import Cubic
from .fixed_window import FixedWindow
from .iftp import Iftp
from .open_loop import Cbr, Poisson
from .primo import Primo
from .rate_law import RateLawSender
from .sack import Sack
from .stpd import Stpd
from .sttp import Sttp
from .tfrc import Tfrc
from .vegas import Vegas
from .window import NewReno, Reno, Tahoe
from .window_law import WindowLawSender

__all__ = ["SenderSpec", "Reno", "NewReno", "Tahoe", "Vegas", "Stpd", "Primo", "Cbr",
           "Poisson", "Iftp", "Cbraa", "TcpFriend", "Tfrc", "Sttp", "Sack", "Cubic", "FixedWindow",
           "WindowLawSender", "RateLawSender", "REGISTRY", "ENGINE", "SENDERS", "PROTOCOLS",
           "BY_CODE", "resolve"]

#: Every protocol the engine runs by name, one line per sender.
REGISTRY = (
    Reno, NewReno, Tahoe, Vegas, Stpd, Primo, Cbr, Poisson, Iftp, Cbraa, TcpFriend, Tfrc,
    Sttp, Sack, Cubic,
    FixedWindow,
)
#: Every spec class the engine runs: the protocols and the two law senders
#: (``Flow(path, sender=law)`` wraps a WindowLaw or RateLaw in them).
ENGINE = REGISTRY + (WindowLawSender, RateLawSender)
for _code, _cls in enumerate(ENGINE):
    _cls.code = _code  # its integer in the flow's I_PROTO column: its place here
#: protocol name -> spec class.
SENDERS = {cls.name: cls for cls in REGISTRY}
#: The protocol names ("cbr" and "poisson" are open-loop sources without ACKs).
PROTOCOLS = tuple(SENDERS)
#: code -> spec class.
BY_CODE = {cls.code: cls for cls in ENGINE}
if len({cls.name for cls in ENGINE}) != len(ENGINE):
    raise RuntimeError("two registered senders share a name: "
                       f"{sorted(cls.name for cls in ENGINE)}")


def hooks_module(spec):
    """The module whose ``on_*`` functions are the hooks of *spec* (a spec or its class)."""
    cls = spec if isinstance(spec, type) else type(spec)
    name = cls.hooks_module or cls.__module__
    return sys.modules.get(name) or importlib.import_module(name)


def runnable(spec):
    """*spec* if the engine runs it, else a ParameterError saying what to use instead.

    The engine runs the specs of :data:`ENGINE` themselves: a subclass (an
    extra field, an overridden method) would run as its base and silently
    ignore what it adds, and a ``SenderSpec`` defined outside this package
    has no hooks the engine knows.
    """
    cls = type(spec)
    if cls in ENGINE:
        return spec
    names = ", ".join(PROTOCOLS)
    own = ("to run a law of your own without editing ctlcc, write it as "
           "ctlcc.WindowLaw(update, memory=..., gains=...) (ST-PD's window mechanics) or "
           "ctlcc.RateLaw(update, ...) (Primo's pacing) and pass it as sender= or protocol=; "
           "a new engine sender is a module of ctlcc.sim.senders plus one line in its "
           "REGISTRY (docs: 'Add a sender to the engine')")
    base = next((c for c in ENGINE if isinstance(spec, c)), None)
    if base is not None:
        raise ParameterError(
            f"sender {cls.__name__} ({cls.__module__}) subclasses {base.__name__}: the engine "
            f"runs {base.__name__} itself and would ignore what the subclass adds; pass "
            f"{base.__name__}(...) with its options "
            f"({', '.join(f.name for f in fields(base)) or 'none'}), or {own}")
    raise ParameterError(
        f"sender {cls.__name__} ({cls.__module__}) is not one the packet engine runs (it "
        f"runs {names} and ctlcc.WindowLaw / ctlcc.RateLaw); {own}")


def resolve(protocol=None, sender=None):
    """The sender spec a flow runs.

    Parameters
    ----------
    protocol : str, SenderSpec, WindowLaw, RateLaw or None
        A name of :data:`PROTOCOLS` (the spec with the paper's defaults), a
        spec, or a law (run by :class:`WindowLawSender` or
        :class:`RateLawSender`).
    sender : SenderSpec, WindowLaw, RateLaw or None
        A spec or a law; when both are given they must name the same sender.

    Returns
    -------
    SenderSpec

    Raises
    ------
    ParameterError
        An unknown name, or a spec the engine does not run (:func:`runnable`).

    Examples
    --------
    >>> resolve("vegas").slow_start
    'brakmo'
    >>> resolve("bbr")
    Traceback (most recent call last):
    ...
    ctlcc.errors.ParameterError: protocol must be one of 'reno', 'newreno', 'tahoe', 'vegas', 'stpd', 'primo', 'cbr', 'poisson', 'iftp', 'cbraa', 'tcpfriend', 'tfrc', 'sttp', 'sack', 'cubic', 'fixed', a sender spec or a ctlcc.WindowLaw / RateLaw; got 'bbr'
    >>> from ctlcc.laws.user import pd_law
    >>> resolve(pd_law(0.2, 0.1)).protocol
    'windowlaw:pd'
    """
    protocol, sender = _as_spec(protocol), _as_spec(sender)
    if isinstance(protocol, SenderSpec):
        if sender is not None and sender != protocol:
            raise ParameterError(f"protocol and sender name two senders: {protocol!r} and "
                                 f"{sender!r}")
        return runnable(protocol)
    if sender is not None and not isinstance(sender, SenderSpec):
        raise ParameterError(
            f"sender must be a sender spec ({', '.join(c.__name__ for c in REGISTRY)}) or a "
            f"ctlcc.WindowLaw / RateLaw, got {sender!r}")
    if protocol is None:
        return runnable(sender) if sender is not None else Reno()
    if not isinstance(protocol, str) or (protocol not in SENDERS and (
            sender is None or protocol != sender.protocol)):
        raise ParameterError(f"protocol must be one of {', '.join(map(repr, PROTOCOLS))}, a "
                             f"sender spec or a ctlcc.WindowLaw / RateLaw; got {protocol!r}")
    if sender is not None:
        if protocol not in (sender.name, sender.protocol):
            raise ParameterError(f"sender must run protocol={protocol!r}, got {sender!r} "
                                 f"(protocol {sender.protocol!r})")
        return runnable(sender)
    return SENDERS[protocol]()


def _as_spec(value):
    """A WindowLaw or RateLaw as the spec that runs it; anything else unchanged."""
    if isinstance(value, WindowLaw):
        return WindowLawSender(value)
    if isinstance(value, RateLaw):
        return RateLawSender(value)
    return value
