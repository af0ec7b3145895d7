# ctlcc.sim._core - the numba-compiled packet engine (private)
"""Numba core of :mod:`ctlcc.sim.engine` (private).

* :mod:`.layout` - column indices, event kinds, return codes;
* :mod:`.net` - event heap, channels and loss models, packet pool, the
  transport pieces every sender shares (send, retransmission timer, RFC 6298
  estimator, window sending, cumulative-ACK receiver);
* :mod:`.dispatch` - the event loop and the *only* place that names every
  sender (one integer switch per hook);
* the senders themselves live in :mod:`ctlcc.sim.senders`.
"""
