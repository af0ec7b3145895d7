# ctlcc.sim._core - the numba-compiled packet engine (private)
"""Numba core of :mod:`ctlcc.sim.engine` (private).

* :mod:`.layout` - column indices, event kinds, return codes, hook columns;
* :mod:`.world` - the run's arrays (:data:`~.world.Ctx`), borrowed, and
  handed to separately compiled functions by address;
* :mod:`.net` - event heap, channels and loss models, packet pool, the
  transport pieces every sender shares (send, retransmission timer, RFC 6298
  estimator, window sending, cumulative-ACK receiver), the services
  compiled once and called by address;
* :mod:`.hooks` - the sender contract's seven hooks: fixed signatures, each
  compiled on its own from the sender module's source, called by address;
* :mod:`.receiver` - the default data hook (cumulative ACKs);
* :mod:`.laws` - a researcher's WindowLaw / RateLaw compiled to the fixed
  law signatures;
* :mod:`.dispatch` - the event loop, which names no sender;
* :mod:`.cache` - keeps numba's disk cache consistent with the sources;
* the senders themselves live in :mod:`ctlcc.sim.senders`.
"""
