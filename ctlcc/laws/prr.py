# ctlcc.laws.prr - Proportional Rate Reduction (RFC 6937)
"""Proportional Rate Reduction for TCP (RFC 6937), in segments.

At the start of recovery (RFC 6937 §3)::

    ssthresh = CongCtrlAlg()       (NewReno: FlightSize/2; CUBIC: 0.7 cwnd)
    prr_delivered = 0, prr_out = 0
    RecoverFS = snd.nxt - snd.una  (the flight when recovery starts)

on every ACK during recovery::

    DeliveredData = change in snd.una + change in SACKed
    prr_delivered += DeliveredData
    pipe = RFC 6675's SetPipe()
    if pipe > ssthresh:                              # proportional part
        sndcnt = CEIL(prr_delivered ssthresh / RecoverFS) - prr_out
    else:                                            # the reduction bound
        limit = prr_delivered - prr_out                          (PRR-CRB)
              | MAX(prr_delivered - prr_out, DeliveredData) + 1  (PRR-SSRB)
        sndcnt = MIN(ssthresh - pipe, limit)

and ``prr_out`` grows by every segment sent.  The sender may send
``max(sndcnt, 0)`` segments now: its window is ``cwnd = pipe + sndcnt``.
At the end of recovery cwnd = ssthresh.  One segment = 1 (RFC 6937's MSS).

While pipe > ssthresh PRR sends ssthresh/RecoverFS segments per segment
delivered, so by the end of a recovery that delivered RecoverFS it has
sent ssthresh (the window it reduces to), spread over the round trip
instead of in a burst; below ssthresh CRB is strict packet conservation,
SSRB lets the window grow like slow start (one extra segment per ACK).

Where ns-3.44's ``TcpPrrRecovery`` departs from RFC 6937 (read from
``src/internet/model/tcp-prr-recovery.cc``; on packets: the agreement matrix's ``prr_*``
scenarios, ``docs/ns3_agreement.md``):

* the reduction bound is the later PRR revision's (RFC 6937bis), not
  either of RFC 6937's: ``limit = MAX(prr_delivered - prr_out,
  DeliveredData)``, plus one segment only when the ACK cumulatively
  acknowledges retransmitted data ("safe ACK", approximated by ns-3's
  ``m_isRetransDataAcked``);
* ``sndcnt`` is forced to at least one segment while nothing has been
  sent in the recovery (Linux's "force fast retransmit");
* on a duplicate ACK it adds one segment to DeliveredData while
  prr_delivered < RecoverFS, on top of the SACKed bytes it was passed
  (the rate sample's delivered count): with SACK a duplicate ACK that
  SACKs one segment appears to count two (as read from the source; not
  confirmed by a run);
* RecoverFS is ``BytesInFlight`` (RFC 6675 pipe) at entry, not
  snd.nxt - snd.una.

References
----------
RFC 6937 (Mathis, Dukkipati, Cheng 2013), §3 (algorithm) and §5 (properties).
"""

import math

from .._validation import (check_bool, check_nonnegative, check_positive, check_sequence,
                           finite_result)
from ..errors import ParameterError
from ._core import law_core

__all__ = ["sndcnt_core", "sndcnt", "sndcnt_ns3_core", "sndcnt_ns3", "cwnd_core", "recovery_sends"]


@law_core
def sndcnt_core(prr_delivered, prr_out, delivered_data, pipe, ssthresh, recover_fs,
                conservative):
    """RFC 6937 §3's sndcnt (may be negative: nothing to send). [segments]"""
    if pipe > ssthresh:
        return math.ceil(prr_delivered * ssthresh / recover_fs) - prr_out
    if conservative:
        limit = prr_delivered - prr_out
    else:
        limit = prr_delivered - prr_out
        if delivered_data > limit:
            limit = delivered_data
        limit = limit + 1
    room = ssthresh - pipe
    return room if room < limit else limit


@law_core
def sndcnt_ns3_core(prr_delivered, prr_out, delivered_data, pipe, ssthresh, recover_fs,
                    safe_ack):
    """ns-3.44's ``TcpPrrRecovery::DoRecovery`` sendCount, in segments (see the module
    docstring); *delivered_data* already holds its +1 per duplicate ACK."""
    if pipe > ssthresh:
        count = math.ceil(prr_delivered * ssthresh / recover_fs) - prr_out
    else:
        limit = prr_delivered - prr_out
        if delivered_data > limit:
            limit = delivered_data
        if safe_ack:
            limit = limit + 1
        room = ssthresh - pipe
        count = room if room < limit else limit
    if prr_out <= 0 and count < 1:  # "force a fast retransmit upon entering fast recovery"
        count = 1
    return count


@law_core
def cwnd_core(pipe, sndcnt):
    """cwnd = pipe + sndcnt during recovery (RFC 6937 §3). [segments]"""
    return pipe + sndcnt


def _counts(prr_delivered, prr_out, delivered_data, pipe, ssthresh, recover_fs):
    """The six counts of a PRR send decision, checked, as floats in that order."""
    out = [float(check_nonnegative(name, value, scalar=True))
           for name, value in (("prr_delivered", prr_delivered), ("prr_out", prr_out),
                               ("delivered_data", delivered_data), ("pipe", pipe))]
    out.append(float(check_positive("ssthresh", ssthresh, scalar=True)))
    out.append(float(check_positive("recover_fs", recover_fs, scalar=True)))
    return out


@finite_result
def sndcnt(prr_delivered, prr_out, delivered_data, pipe, ssthresh, recover_fs,
           conservative=False):
    """Segments PRR lets the sender send on this ACK (RFC 6937 §3).

    Parameters
    ----------
    prr_delivered : float
        Segments delivered since recovery began, this ACK included, >= 0. [segments]
    prr_out : float
        Segments sent since recovery began, >= 0. [segments]
    delivered_data : float
        Segments this ACK reports delivered (cumulative + newly SACKed), >= 0. [segments]
    pipe : float
        RFC 6675's estimate of segments in the network, >= 0. [segments]
    ssthresh : float
        Target window of the recovery, > 0. [segments]
    recover_fs : float
        Flight size when recovery began, > 0. [segments]
    conservative : bool
        PRR-CRB (strict packet conservation) instead of PRR-SSRB.

    Returns
    -------
    float
        sndcnt; ``max(sndcnt, 0)`` segments may go out. [segments]

    References
    ----------
    RFC 6937 §3.

    Examples
    --------
    One loss in a 20-segment window, ssthresh 10: every other ACK sends one.

    >>> [sndcnt(k, (k + 1) // 2 - (k % 2 == 1), 1, 18, 10, 20) for k in (1, 2, 3, 4)]
    [1, 0, 1, 0]

    Heavy loss (pipe below ssthresh): CRB conserves packets, SSRB adds one.

    >>> sndcnt(6, 4, 2, 3, 10, 20, conservative=True), sndcnt(6, 4, 2, 3, 10, 20)
    (2, 3)
    """
    args = _counts(prr_delivered, prr_out, delivered_data, pipe, ssthresh, recover_fs)
    check_bool("conservative", conservative)
    out = sndcnt_core(*args, conservative)
    return int(out) if float(out).is_integer() else out


@finite_result
def sndcnt_ns3(prr_delivered, prr_out, delivered_data, pipe, ssthresh, recover_fs,
               safe_ack=False):
    """sendCount of ns-3.44's ``TcpPrrRecovery::DoRecovery`` (its source, in segments).

    The same arguments as :func:`sndcnt`, except that *delivered_data*
    includes ns-3's extra segment per duplicate ACK (while prr_delivered <
    RecoverFS), *recover_fs* is ns-3's (the pipe at entry) and *safe_ack*
    (ns-3's ``m_isRetransDataAcked``: the ACK cumulatively acknowledges
    retransmitted data) adds the one segment of the reduction bound.

    Examples
    --------
    ns-3.44's source, by hand: entering with pipe 1 (window 4: head lost, two
    segments SACKed), ssthresh 2, RecoverFS 1, one SACKed segment + the
    duplicate ACK's extra one delivered: CRB's limit max(2 - 0, 2) = 2, room
    2 - 1 = 1.  Nothing sent yet and a proportional count of 0: forced to 1.

    >>> sndcnt_ns3(2, 0, 2, 1, 2, 1), sndcnt_ns3(1, 0, 1, 9, 5, 10)
    (1, 1)
    """
    args = _counts(prr_delivered, prr_out, delivered_data, pipe, ssthresh, recover_fs)
    check_bool("safe_ack", safe_ack)
    out = sndcnt_ns3_core(*args, safe_ack)
    return int(out) if float(out).is_integer() else out


@finite_result
def recovery_sends(delivered, lost_in_flight, ssthresh, recover_fs, conservative=False):
    """Segments PRR sends on each ACK of a recovery, ACK by ACK.

    A worked trace for RFC 6937 §5's examples: ``delivered[i]`` segments
    reach the receiver with ACK i; pipe starts at ``recover_fs -
    lost_in_flight`` (RFC 6675 counts the lost segments out), falls by
    each ACK's delivery and rises by each segment sent.

    Parameters
    ----------
    delivered : sequence of float
        DeliveredData of each ACK, >= 0. [segments]
    lost_in_flight : float
        Segments of RecoverFS the scoreboard marks lost at the start, >= 0. [segments]
    ssthresh, recover_fs : float
        As :func:`sndcnt`. [segments]
    conservative : bool
        PRR-CRB instead of PRR-SSRB.

    Returns
    -------
    list of int
        Segments sent on each ACK. [segments]

    Examples
    --------
    One loss in 20 segments, ssthresh 10: one segment per two ACKs until
    pipe reaches ssthresh, ten in all (the retransmission first):

    >>> sends = recovery_sends([1] * 19, 1, 10, 20)
    >>> sends, sum(sends)
    ([1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1], 10)
    """
    ssthresh = float(check_positive("ssthresh", ssthresh, scalar=True))
    recover_fs = float(check_positive("recover_fs", recover_fs, scalar=True))
    lost = float(check_nonnegative("lost_in_flight", lost_in_flight, scalar=True))
    if lost > recover_fs:
        raise ParameterError(f"lost_in_flight must be <= recover_fs = {recover_fs!r}, "
                             f"got {lost_in_flight!r}")
    check_bool("conservative", conservative)
    delivered = check_sequence("delivered", delivered, min_length=0)
    pipe = recover_fs - lost
    prr_delivered = prr_out = 0.0
    out = []
    for i, d in enumerate(delivered):
        d = float(check_nonnegative(f"delivered[{i}]", d, scalar=True))
        prr_delivered += d
        pipe -= d
        count = sndcnt_core(prr_delivered, prr_out, d, pipe, ssthresh, recover_fs, conservative)
        sent = int(count) if count > 0 else 0
        prr_out += sent
        pipe += sent
        out.append(sent)
    return out
