# ctlcc.sim.senders - the sender algorithms of the packet engine, one module per family
"""Sender algorithms of the packet engine and their frozen specs.

One module per family owns its state columns, its compiled hooks (start,
ACK or feedback, timer, per-round-trip, deferred steps) and its spec:

=========  ==================================  ======================================
protocol   spec                                module
=========  ==================================  ======================================
reno       :class:`Reno`                       :mod:`.window`
newreno    :class:`NewReno`                    :mod:`.window`
tahoe      :class:`Tahoe`                      :mod:`.window`
vegas      :class:`Vegas`                      :mod:`.vegas`
stpd       :class:`Stpd`                       :mod:`.stpd`
primo      :class:`Primo`                      :mod:`.primo`
cbr        :class:`Cbr` (rate required)        :mod:`.open_loop`
poisson    :class:`Poisson` (rate required)    :mod:`.open_loop`
iftp       :class:`Iftp`                       :mod:`.iftp`
cbraa      :class:`Cbraa`                      :mod:`.cbraa`
tcpfriend  :class:`TcpFriend`                  :mod:`.cbraa`
tfrc       :class:`Tfrc`                       :mod:`.tfrc`
sttp       :class:`Sttp`                       :mod:`.sttp`
sack       :class:`Sack`                       :mod:`.sack`
=========  ==================================  ======================================

:data:`REGISTRY` is the single list of protocols: :data:`PROTOCOLS`, the
validation messages and the codes of the compiled dispatch
(:mod:`ctlcc.sim._core.dispatch`) derive from it; a sender registered here
but missing from a switch of the dispatch makes the engine raise.

``Flow(path, protocol="stpd")`` means ``Flow(path, sender=Stpd())`` (the
paper's defaults); ``Flow(path, sender=Stpd(gains=(0.1, 0.2)))`` carries
its own parameters.
"""

from ...errors import ParameterError
from ._base import SenderSpec
from .cbraa import Cbraa, TcpFriend
from .iftp import Iftp
from .open_loop import Cbr, Poisson
from .primo import Primo
from .sack import Sack
from .stpd import Stpd
from .sttp import Sttp
from .tfrc import Tfrc
from .vegas import Vegas
from .window import NewReno, Reno, Tahoe

__all__ = ["SenderSpec", "Reno", "NewReno", "Tahoe", "Vegas", "Stpd", "Primo", "Cbr",
           "Poisson", "Iftp", "Cbraa", "TcpFriend", "Tfrc", "Sttp", "Sack", "REGISTRY",
           "SENDERS", "PROTOCOLS", "BY_CODE", "resolve"]

#: Every sender the engine runs, in increasing order of their dispatch codes
#: (each module fixes its code as a literal so numba can freeze it; codes are
#: unique but need not be contiguous).
REGISTRY = (Reno, NewReno, Tahoe, Vegas, Stpd, Primo, Cbr, Poisson, Iftp, Cbraa, TcpFriend, Tfrc,
            Sttp, Sack)
#: protocol name -> spec class.
SENDERS = {cls.name: cls for cls in REGISTRY}
#: The protocol names ("cbr" and "poisson" are open-loop sources without ACKs).
PROTOCOLS = tuple(SENDERS)

#: dispatch code -> spec class.
BY_CODE = {cls.code: cls for cls in REGISTRY}

for _prev, _cls in zip(REGISTRY, REGISTRY[1:]):
    if _cls.code <= _prev.code:
        raise RuntimeError(f"sender {_cls.name!r} has dispatch code {_cls.code}, not above "
                           f"{_prev.name!r}'s {_prev.code}: codes must be unique and increasing")


def resolve(protocol=None, sender=None):
    """The sender spec a flow runs.

    Parameters
    ----------
    protocol : str, SenderSpec or None
        A name of :data:`PROTOCOLS` (the spec with the paper's defaults) or
        a spec.
    sender : SenderSpec or None
        A spec; when both are given they must name the same protocol.

    Returns
    -------
    SenderSpec

    Examples
    --------
    >>> resolve("vegas").slow_start
    'brakmo'
    >>> resolve("cubic")
    Traceback (most recent call last):
    ...
    ctlcc.errors.ParameterError: protocol must be one of 'reno', 'newreno', 'tahoe', 'vegas', 'stpd', 'primo', 'cbr', 'poisson', 'iftp', 'cbraa', 'tcpfriend', 'tfrc', 'sttp', 'sack'; got 'cubic'
    """
    if isinstance(protocol, SenderSpec):
        if sender is not None and sender != protocol:
            raise ParameterError(f"protocol and sender name two senders: {protocol!r} and "
                                 f"{sender!r}")
        return protocol
    if sender is not None and not isinstance(sender, SenderSpec):
        raise ParameterError(
            f"sender must be a sender spec ({', '.join(c.__name__ for c in REGISTRY)}), "
            f"got {sender!r}")
    if protocol is None:
        return sender if sender is not None else Reno()
    if not isinstance(protocol, str) or protocol not in SENDERS:
        raise ParameterError(f"protocol must be one of {', '.join(map(repr, PROTOCOLS))}; "
                             f"got {protocol!r}")
    if sender is not None:
        if sender.name != protocol:
            raise ParameterError(f"sender must run protocol={protocol!r}, got {sender!r} "
                                 f"(protocol {sender.name!r})")
        return sender
    return SENDERS[protocol]()
