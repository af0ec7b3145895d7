# ctlcc.laws.sack - the RFC 6675 SACK scoreboard: IsLost, SetPipe, NextSeg, RecoveryPoint
"""SACK-based loss recovery of RFC 6675 on a fixed-size scoreboard.

The scoreboard is a ring of ``capacity`` flags, ``sacked[seq % capacity]``,
one per segment (ctlcc counts sequence space in whole segments, so SMSS = 1):
a flag is set when a SACK block covers the segment and cleared when the
cumulative ACK passes it.  ``una`` is the first unacknowledged segment
(RFC 6675's HighACK + 1), ``high_data`` the highest segment sent,
``high_rxt`` the highest segment retransmitted in this recovery.

* ``IsLost(S)`` (§4): DupThresh discontiguous SACKed sequences above S, or
  more than (DupThresh - 1) SMSS bytes SACKed above S.  In whole segments
  both reduce, for an un-SACKed S (the only kind RFC 6675 asks about), to
  "at least DupThresh SACKed segments above S" (DupThresh discontiguous
  SACKed sequences hold at least DupThresh segments).  RFC 3517's older
  rule, at least DupThresh SMSS bytes SACKed above S, is the same test in
  whole segments; RFC 6675 §9 changed it only for segments shorter than
  SMSS, which ctlcc does not model.
* ``SetPipe()`` (§4): over the un-SACKed segments S of [una, high_data],
  add 1 if not IsLost(S) and 1 more if S <= high_rxt.
* ``NextSeg()`` (§4): rule 1, the lowest S > high_rxt below the highest
  SACKed segment that is un-SACKed and lost; rule 2, new data; rule 3, the
  lowest S > high_rxt below the highest SACKed segment that is un-SACKed
  (:func:`next_seg_core`); rule 4 (a SHOULD), one rescue retransmission
  per recovery of the highest un-SACKed segment once HighACK > RescueRxt
  (:func:`rescue_seg_core`; :func:`next_seg` applies it when given
  ``rescue_rxt``); rule 5, nothing.
* Entering recovery (§5): an ACK is a duplicate ACK when it SACKs octets
  not SACKed before, whether or not it also advances the cumulative ACK
  (§2); a cumulative ACK resets DupAcks to 0 before that count.  Recovery
  starts when DupAcks >= DupThresh or IsLost(HighACK + 1), steps (1)-(2)
  (:func:`enter_recovery_core`).  Step (4): RecoveryPoint = HighData,
  ``cwnd = ssthresh = FlightSize/2``, retransmit ``una`` and set HighRxt =
  RescueRxt = ``una``.  Recovery ends, step (A), with a cumulative ACK
  beyond RecoveryPoint, ``una > recovery_point``
  (:func:`recovery_done_core`); after an RTO (§5.1) RecoveryPoint is reset
  to HighData and no new recovery starts before the same test holds.

The cores are numba-compilable functions of numbers and numpy arrays
(:mod:`ctlcc.laws._core`), O(window) each; the public wrappers validate.
"""

from dataclasses import dataclass

import numpy as np

from .._validation import check_nonnegative_int, check_positive_int
from ..errors import ParameterError
from ._core import law_core

__all__ = [
    "DUP_THRESH",
    "RULE_NONE",
    "RULE_LOST",
    "RULE_NEW_DATA",
    "RULE_UNSACKED",
    "RULE_RESCUE",
    "SackParams",
    "new_scoreboard",
    "mark_sacked_core",
    "mark_sacked",
    "advance_core",
    "highest_sacked_core",
    "is_lost_core",
    "is_lost",
    "pipe_core",
    "pipe",
    "next_seg_core",
    "next_seg",
    "rescue_seg_core",
    "enter_recovery_core",
    "recovery_done_core",
]

#: DupThresh of RFC 6675 §2 (and RFC 5681). [segments]
DUP_THRESH = 3
#: Which NextSeg() rule chose the segment (0: nothing to send, rule 5).
RULE_NONE, RULE_LOST, RULE_NEW_DATA, RULE_UNSACKED, RULE_RESCUE = 0, 1, 2, 3, 4


@dataclass(frozen=True)
class SackParams:
    """Parameters of RFC 6675 recovery.

    Attributes
    ----------
    dup_thresh : int
        DupThresh, >= 1 (3). [segments]
    capacity : int
        Scoreboard slots, >= 1; must exceed the largest flight. [segments]

    Examples
    --------
    >>> SackParams().dup_thresh
    3
    >>> SackParams(dup_thresh=0)
    Traceback (most recent call last):
    ...
    ctlcc.errors.ParameterError: dup_thresh must be an integer >= 1, got 0
    """

    dup_thresh: int = DUP_THRESH
    capacity: int = 4096

    def __post_init__(self):
        check_positive_int("dup_thresh", self.dup_thresh)
        check_positive_int("capacity", self.capacity)


def new_scoreboard(capacity=4096):
    """An empty scoreboard: ``numpy.zeros(capacity, dtype=bool)``.

    Examples
    --------
    >>> new_scoreboard(8).tolist()
    [False, False, False, False, False, False, False, False]
    """
    return np.zeros(check_positive_int("capacity", capacity), dtype=np.bool_)


@law_core
def mark_sacked_core(sacked, start, end):
    """Mark segments ``start`` to ``end - 1`` SACKed; return how many were new.

    Parameters
    ----------
    sacked : numpy.ndarray of bool
        Scoreboard ring, modified in place.
    start, end : int
        SACK block. [segments]

    Returns
    -------
    int
        Segments newly SACKed. [segments]

    References
    ----------
    RFC 6675 §4 (the scoreboard); RFC 2018 (SACK blocks).

    Examples
    --------
    >>> import numpy as np
    >>> sb = np.zeros(8, dtype=np.bool_)
    >>> mark_sacked_core(sb, 3, 5), mark_sacked_core(sb, 4, 6)
    (2, 1)
    """
    capacity = sacked.size
    new = 0
    for s in range(start, end):
        i = s % capacity
        if not sacked[i]:
            sacked[i] = True
            new += 1
    return new


def mark_sacked(sacked, start, end, una, high_data):
    """Validated :func:`mark_sacked_core`: a SACK block ``[start, end)``.

    Parameters
    ----------
    sacked : numpy.ndarray of bool
        Scoreboard, modified in place.
    start, end : int
        Block, ``una <= start < end <= high_data + 1``. [segments]
    una, high_data : int
        First unacknowledged and highest sent segment. [segments]

    Returns
    -------
    int
        Segments newly SACKed.

    Examples
    --------
    >>> sb = new_scoreboard(16)
    >>> mark_sacked(sb, 5, 8, una=2, high_data=9)
    3
    """
    una, high_data = _check_board(sacked, una, high_data)
    start = check_nonnegative_int("start", start)
    end = check_nonnegative_int("end", end)
    if not una <= start < end <= high_data + 1:
        raise ParameterError(
            f"SACK block must satisfy una <= start < end <= high_data + 1 "
            f"({una} <= start < end <= {high_data + 1}), got [{start}, {end})")
    return int(mark_sacked_core(sacked, start, end))


@law_core
def advance_core(sacked, una, new_una):
    """Clear the flags of segments ``una`` to ``new_una - 1`` (cumulatively ACKed).

    Parameters
    ----------
    sacked : numpy.ndarray of bool
        Scoreboard ring, modified in place.
    una, new_una : int
        Old and new first unacknowledged segment. [segments]

    Returns
    -------
    None

    References
    ----------
    RFC 6675 §4 (HighACK advances with the cumulative ACK).

    Examples
    --------
    >>> import numpy as np
    >>> sb = np.ones(4, dtype=np.bool_)
    >>> advance_core(sb, 1, 3); sb.tolist()
    [True, False, False, True]
    """
    capacity = sacked.size
    for s in range(una, new_una):
        sacked[s % capacity] = False


@law_core
def highest_sacked_core(sacked, una, high_data):
    """Highest SACKed segment in ``[una, high_data]``, or ``una - 1`` if none.

    Parameters
    ----------
    sacked : numpy.ndarray of bool
        Scoreboard ring.
    una, high_data : int
        First unacknowledged and highest sent segment. [segments]

    Returns
    -------
    int
        [segments]

    References
    ----------
    RFC 6675 §4 (NextSeg's "highest octet covered by any received SACK").

    Examples
    --------
    >>> import numpy as np
    >>> sb = np.zeros(16, dtype=np.bool_); sb[[5, 9]] = True
    >>> highest_sacked_core(sb, 2, 12), highest_sacked_core(np.zeros(16, dtype=np.bool_), 2, 12)
    (9, 1)
    """
    capacity = sacked.size
    for s in range(high_data, una - 1, -1):
        if sacked[s % capacity]:
            return s
    return una - 1


@law_core
def is_lost_core(sacked, seq, high_data, dup_thresh):
    """RFC 6675 IsLost(seq): at least dup_thresh SACKed segments above seq.

    Parameters
    ----------
    sacked : numpy.ndarray of bool
        Scoreboard.
    seq : int
        Segment asked about. [segments]
    high_data : int
        Highest segment sent. [segments]
    dup_thresh : int
        DupThresh (3). [segments]

    Returns
    -------
    bool

    References
    ----------
    RFC 6675 (Blanton, Allman, Wang, Jarvinen, Kojo, Nishida, 2012), §4, IsLost.

    Examples
    --------
    >>> import numpy as np
    >>> sb = np.zeros(16, dtype=np.bool_); sb[[5, 7, 9]] = True
    >>> is_lost_core(sb, 4, 10, 3), is_lost_core(sb, 6, 10, 3)
    (True, False)
    """
    capacity = sacked.size
    count = 0
    for s in range(seq + 1, high_data + 1):
        if sacked[s % capacity]:
            count += 1
            if count >= dup_thresh:
                return True
    return False


def is_lost(sacked, seq, una, high_data, params=None):
    """Validated :func:`is_lost_core`.

    Parameters
    ----------
    sacked : numpy.ndarray of bool
        Scoreboard.
    seq : int
        Segment, ``una <= seq <= high_data``. [segments]
    una, high_data : int
        First unacknowledged and highest sent segment. [segments]
    params : SackParams, optional

    Returns
    -------
    bool

    References
    ----------
    RFC 6675 §4.

    Examples
    --------
    >>> sb = new_scoreboard(16); _ = mark_sacked(sb, 6, 9, una=4, high_data=10)
    >>> is_lost(sb, 4, una=4, high_data=10), is_lost(sb, 6, una=4, high_data=10)
    (True, False)
    """
    params = SackParams() if params is None else params
    una, high_data = _check_board(sacked, una, high_data)
    seq = check_nonnegative_int("seq", seq)
    if not una <= seq <= high_data:
        raise ParameterError(f"seq must be in [una, high_data] = [{una}, {high_data}], got {seq}")
    return bool(is_lost_core(sacked, seq, high_data, params.dup_thresh))


@law_core
def pipe_core(sacked, una, high_data, high_rxt, dup_thresh):
    """RFC 6675 SetPipe(): segments believed in flight.

    One backward pass: the SACKed count above each segment decides IsLost.

    Parameters
    ----------
    sacked : numpy.ndarray of bool
        Scoreboard.
    una, high_data : int
        First unacknowledged and highest sent segment. [segments]
    high_rxt : int
        Highest segment retransmitted in this recovery (``una - 1`` if
        none). [segments]
    dup_thresh : int
        DupThresh. [segments]

    Returns
    -------
    int
        pipe. [segments]

    References
    ----------
    RFC 6675 §4, SetPipe.

    Examples
    --------
    Segments 4-10 sent, 6-8 SACKed, 4 retransmitted: 4 and 5 lost (4 counts
    once as retransmitted), 9 and 10 in flight -> 3:

    >>> import numpy as np
    >>> sb = np.zeros(16, dtype=np.bool_); sb[6:9] = True
    >>> pipe_core(sb, 4, 10, 4, 3)
    3
    """
    capacity = sacked.size
    above = 0
    total = 0
    for s in range(high_data, una - 1, -1):
        if sacked[s % capacity]:
            above += 1
            continue
        if above < dup_thresh:
            total += 1
        if s <= high_rxt:
            total += 1
    return total


def pipe(sacked, una, high_data, high_rxt=None, params=None):
    """Validated :func:`pipe_core`.

    Parameters
    ----------
    sacked : numpy.ndarray of bool
        Scoreboard.
    una, high_data : int
        First unacknowledged and highest sent segment. [segments]
    high_rxt : int, optional
        Highest retransmitted segment, in [una - 1, high_data] (default
        ``una - 1``: nothing retransmitted). [segments]
    params : SackParams, optional

    Returns
    -------
    int
        [segments]

    References
    ----------
    RFC 6675 §4.

    Examples
    --------
    >>> sb = new_scoreboard(16); _ = mark_sacked(sb, 6, 9, una=4, high_data=10)
    >>> pipe(sb, 4, 10), pipe(sb, 4, 10, high_rxt=5)
    (2, 4)
    """
    params = SackParams() if params is None else params
    una, high_data, high_rxt = _check_rxt(sacked, una, high_data, high_rxt)
    return int(pipe_core(sacked, una, high_data, high_rxt, params.dup_thresh))


@law_core
def next_seg_core(sacked, una, high_data, high_rxt, dup_thresh, can_send_new):
    """RFC 6675 NextSeg(), rules 1-3 (rule 4: :func:`rescue_seg_core`).

    Parameters
    ----------
    sacked : numpy.ndarray of bool
        Scoreboard.
    una, high_data, high_rxt : int
        As in :func:`pipe_core`. [segments]
    dup_thresh : int
        DupThresh. [segments]
    can_send_new : bool
        New data is available and the receiver window allows it (rule 2).

    Returns
    -------
    tuple of int
        ``(seq, rule)``: the segment to send and :data:`RULE_LOST`,
        :data:`RULE_NEW_DATA` (``seq = high_data + 1``) or
        :data:`RULE_UNSACKED`; ``(-1, RULE_NONE)`` if no rule applies.

    References
    ----------
    RFC 6675 §4, NextSeg (1)-(3).

    Examples
    --------
    >>> import numpy as np
    >>> sb = np.zeros(16, dtype=np.bool_); sb[6:9] = True
    >>> next_seg_core(sb, 4, 10, 3, 3, True), next_seg_core(sb, 4, 10, 5, 3, True)
    ((4, 1), (11, 2))
    >>> next_seg_core(sb, 4, 10, 5, 3, False)        # nothing lost, no new data
    (-1, 0)
    """
    capacity = sacked.size
    high_sacked = highest_sacked_core(sacked, una, high_data)
    start = high_rxt + 1
    if start < una:
        start = una
    above = 0
    for s in range(start, high_data + 1):
        if sacked[s % capacity]:
            above += 1
    first_unsacked = -1
    for s in range(start, high_sacked):
        if sacked[s % capacity]:
            above -= 1
            continue
        if above >= dup_thresh:
            return s, 1
        if first_unsacked < 0:
            first_unsacked = s
    if can_send_new:
        return high_data + 1, 2
    if first_unsacked >= 0:
        return first_unsacked, 3
    return -1, 0


def next_seg(sacked, una, high_data, high_rxt=None, can_send_new=True, params=None,
             rescue_rxt=None):
    """Validated :func:`next_seg_core`, then rule 4 if ``rescue_rxt`` is given.

    Parameters
    ----------
    sacked : numpy.ndarray of bool
        Scoreboard.
    una, high_data : int
        First unacknowledged and highest sent segment. [segments]
    high_rxt : int, optional
        Highest retransmitted segment (default ``una - 1``). [segments]
    can_send_new : bool, optional
        Whether rule 2 may send new data.
    params : SackParams, optional
    rescue_rxt : int, optional
        RescueRxt, -1 when undefined, else in [0, high_data] (set to ``una``
        when recovery starts, §5 step 4.3).  When given and rules 1-3 fail,
        rule 4 (:func:`rescue_seg_core`) is tried; the caller then sets
        RescueRxt = RecoveryPoint and leaves HighRxt alone.  ``None``
        (default): rules 1-3 only. [segments]

    Returns
    -------
    tuple of int
        ``(seq, rule)``.

    References
    ----------
    RFC 6675 §4.

    Examples
    --------
    >>> sb = new_scoreboard(16); _ = mark_sacked(sb, 6, 9, una=4, high_data=10)
    >>> next_seg(sb, 4, 10)
    (4, 1)
    >>> next_seg(sb, 4, 10, high_rxt=5, can_send_new=False, rescue_rxt=2)   # rule 4
    (10, 4)
    """
    params = SackParams() if params is None else params
    una, high_data, high_rxt = _check_rxt(sacked, una, high_data, high_rxt)
    if not isinstance(can_send_new, (bool, np.bool_)):
        raise ParameterError(f"can_send_new must be True or False, got {can_send_new!r}")
    if rescue_rxt is not None:
        ok = (isinstance(rescue_rxt, (int, float, np.integer, np.floating))
              and not isinstance(rescue_rxt, (bool, np.bool_))
              and np.isfinite(rescue_rxt) and float(rescue_rxt).is_integer()
              and -1 <= int(rescue_rxt) <= high_data)
        if not ok:
            raise ParameterError(
                f"rescue_rxt must be -1 (undefined) or an integer in [0, high_data] = "
                f"[0, {high_data}], got {rescue_rxt!r}")
    seq, rule = next_seg_core(sacked, una, high_data, high_rxt, params.dup_thresh,
                              bool(can_send_new))
    if rule == RULE_NONE and rescue_rxt is not None:
        seq = rescue_seg_core(sacked, una, high_data, int(rescue_rxt))
        rule = RULE_RESCUE if seq >= 0 else RULE_NONE
    return int(seq), int(rule)


@law_core
def rescue_seg_core(sacked, una, high_data, rescue_rxt):
    """RFC 6675 NextSeg() rule 4: the rescue retransmission.

    Applies only when rules 1-3 failed (:func:`next_seg_core` returned
    :data:`RULE_NONE`).  If HighACK (``una - 1``) is greater than RescueRxt,
    or RescueRxt is undefined (``rescue_rxt < 0``), the segment holding the
    highest outstanding un-SACKed sequence number is returned; the caller
    then sets RescueRxt = RecoveryPoint and does *not* update HighRxt.  At
    most one rescue per recovery follows, since RescueRxt = RecoveryPoint
    until recovery ends.

    Parameters
    ----------
    sacked : numpy.ndarray of bool
        Scoreboard ring.
    una, high_data : int
        First unacknowledged and highest sent segment. [segments]
    rescue_rxt : int
        RescueRxt; negative when undefined. [segments]

    Returns
    -------
    int
        Segment to retransmit, or -1 (rule 5: nothing). [segments]

    References
    ----------
    RFC 6675 §4, NextSeg (4); §5 step (4.3) sets RescueRxt on entry.

    Examples
    --------
    Segments 3-10 out, 5-7 SACKed, 8-10 above the highest SACK.  RescueRxt
    = 3 (set on entry): HighACK = 2 is not above it; after a cumulative ACK
    to 8 (HighACK = 7) the rescue sends 10:

    >>> import numpy as np
    >>> sb = np.zeros(16, dtype=np.bool_); sb[5:8] = True
    >>> rescue_seg_core(sb, 3, 10, 3), rescue_seg_core(sb, 8, 10, 3)
    (-1, 10)
    """
    if rescue_rxt >= 0 and una - 1 <= rescue_rxt:
        return -1
    capacity = sacked.size
    for s in range(high_data, una - 1, -1):
        if not sacked[s % capacity]:
            return s
    return -1


@law_core
def enter_recovery_core(dup_acks, sacked, una, high_data, dup_thresh):
    """Whether a duplicate ACK starts loss recovery (§5).

    Parameters
    ----------
    dup_acks : int
        DupAcks: duplicate ACKs counted since the last cumulative ACK,
        this one included.  RFC 6675 §2 counts an ACK as duplicate when it
        SACKs octets in (HighACK, HighData] not SACKed before, even if it
        also advances the cumulative ACK (which first resets DupAcks to 0,
        §5). [ACKs]
    sacked : numpy.ndarray of bool
        Scoreboard ring.
    una, high_data : int
        First unacknowledged (HighACK + 1) and highest sent segment. [segments]
    dup_thresh : int
        DupThresh (3). [segments]

    Returns
    -------
    bool
        ``dup_acks >= dup_thresh`` or ``IsLost(una)``.

    References
    ----------
    RFC 6675 §2 (duplicate ACK) and §5, steps (1)-(2) of the duplicate-ACK
    processing (taken only when not already in loss recovery).

    Examples
    --------
    >>> import numpy as np
    >>> sb = np.zeros(16, dtype=np.bool_); sb[[5, 7, 9]] = True
    >>> enter_recovery_core(1, sb, 4, 10, 3), enter_recovery_core(2, sb, 6, 10, 3)
    (True, False)
    """
    if dup_acks >= dup_thresh:
        return True
    if una > high_data:
        return False
    return is_lost_core(sacked, una, high_data, dup_thresh)


@law_core
def recovery_done_core(una, recovery_point):
    """Recovery ends once the cumulative ACK covers RecoveryPoint (§5).

    RecoveryPoint is ``high_data`` when recovery starts (§5 step 4.1);
    step (A) ends recovery with a cumulative ACK for a sequence number
    greater than RecoveryPoint (the ACK field, HighACK + 1), i.e. HighACK
    >= RecoveryPoint, ``una > recovery_point``.  The same test gates a new
    recovery after an RTO (§5.1).

    Parameters
    ----------
    una : int
        First unacknowledged segment. [segments]
    recovery_point : int
        RecoveryPoint. [segments]

    Returns
    -------
    bool

    References
    ----------
    RFC 6675 §5 steps (4.1) and (A); §5.1.

    Examples
    --------
    >>> recovery_done_core(11, 10), recovery_done_core(10, 10)
    (True, False)
    """
    return una > recovery_point


def _check_board(sacked, una, high_data):
    if not (isinstance(sacked, np.ndarray) and sacked.dtype == np.bool_ and sacked.ndim == 1):
        raise ParameterError(f"sacked must be a 1-d numpy bool array, got {type(sacked).__name__}"
                             + (f" of dtype {sacked.dtype}" if isinstance(sacked, np.ndarray) else ""))
    una = check_nonnegative_int("una", una)
    high_data = check_nonnegative_int("high_data", high_data)
    if high_data < una - 1:
        raise ParameterError(f"high_data must be >= una - 1 = {una - 1}, got {high_data}")
    if high_data - una + 1 > sacked.size:
        raise ParameterError(
            f"the flight [una, high_data] = [{una}, {high_data}] must fit the scoreboard's "
            f"{sacked.size} slots")
    return una, high_data


def _check_rxt(sacked, una, high_data, high_rxt):
    una, high_data = _check_board(sacked, una, high_data)
    if high_rxt is None:
        return una, high_data, una - 1
    is_int = (isinstance(high_rxt, (int, float, np.integer, np.floating))
              and not isinstance(high_rxt, (bool, np.bool_))
              and np.isfinite(high_rxt) and float(high_rxt).is_integer())
    if not is_int or not una - 1 <= int(high_rxt) <= high_data:
        raise ParameterError(
            f"high_rxt must be an integer in [una - 1, high_data] = [{una - 1}, {high_data}], "
            f"got {high_rxt!r}")
    return una, high_data, int(high_rxt)
