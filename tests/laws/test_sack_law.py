"""RFC 6675 scoreboard: IsLost, SetPipe, NextSeg rules 1-5, entering and ending recovery."""

import numpy as np
import pytest

from ctlcc.errors import ParameterError
from ctlcc.laws import sack

SMSS = 10          # bytes per segment in the byte-level reference below


# --- an independent byte-level reading of RFC 6675 §4 (slow, direct from the text) ----------

def _bytes_sacked(board, una, high_data):
    """Set of SACKed byte offsets; segment s covers bytes [s*SMSS, (s+1)*SMSS)."""
    out = set()
    for s in range(una, high_data + 1):
        if board[s % board.size]:
            out.update(range(s * SMSS, (s + 1) * SMSS))
    return out


def _ref_is_lost(board, seq, una, high_data, dup_thresh=3):
    """IsLost(SeqNum) on octets: DupThresh discontiguous SACKed sequences above SeqNum,
    or more than (DupThresh - 1) * SMSS SACKed bytes above it."""
    first = seq * SMSS
    above = sorted(b for b in _bytes_sacked(board, una, high_data) if b > first)
    blocks = sum(1 for i, b in enumerate(above) if i == 0 or above[i - 1] != b - 1)
    return blocks >= dup_thresh or len(above) > (dup_thresh - 1) * SMSS


def _ref_pipe(board, una, high_data, high_rxt, dup_thresh=3):
    """SetPipe(): for each un-SACKed octet in [HighACK, HighData] (per segment here)
    (a) +1 if IsLost is false, (b) +1 if it is <= HighRxt."""
    pipe = 0
    for s in range(una, high_data + 1):
        if board[s % board.size]:
            continue
        if not _ref_is_lost(board, s, una, high_data, dup_thresh):
            pipe += 1
        if s <= high_rxt:
            pipe += 1
    return pipe


def _ref_next_seg(board, una, high_data, high_rxt, can_send_new, dup_thresh=3):
    sacked = [s for s in range(una, high_data + 1) if board[s % board.size]]
    top = max(sacked) if sacked else -1
    cand = [s for s in range(una, high_data + 1)
            if s > high_rxt and s < top and not board[s % board.size]]
    lost = [s for s in cand if _ref_is_lost(board, s, una, high_data, dup_thresh)]
    if lost:
        return lost[0], 1
    if can_send_new:
        return high_data + 1, 2
    if cand:
        return cand[0], 3
    return -1, 0


def _ref_rescue(board, una, high_data, rescue_rxt):
    """NextSeg (4): if HighACK (= una - 1) > RescueRxt or RescueRxt undefined (< 0), the
    segment holding the highest outstanding un-SACKed sequence number, else nothing."""
    unsacked = [s for s in range(una, high_data + 1) if not board[s % board.size]]
    if unsacked and (rescue_rxt < 0 or una - 1 > rescue_rxt):
        return max(unsacked), 4
    return -1, 0


def _random_board(rng, capacity=64):
    una = int(rng.integers(0, 500))
    flight = int(rng.integers(1, capacity))
    high_data = una + flight - 1
    board = np.zeros(capacity, dtype=bool)
    for s in range(una, high_data + 1):
        board[s % capacity] = rng.random() < rng.uniform(0.05, 0.7)
    high_rxt = int(rng.integers(una - 1, high_data + 1))
    return board, una, high_data, high_rxt


@pytest.mark.parametrize("dup_thresh", [1, 2, 3, 5])
def test_cores_match_the_byte_level_reading_on_random_scoreboards(dup_thresh):
    """400 random scoreboards (ring of 64 slots, wrapped sequence numbers): IsLost (of
    un-SACKed segments), SetPipe and NextSeg equal the octet-level RFC 6675 text."""
    rng = np.random.default_rng(dup_thresh)
    for _ in range(400):
        board, una, high, rxt = _random_board(rng)
        for s in range(una, high + 1):
            if board[s % board.size]:
                continue      # RFC 6675 asks IsLost of un-SACKed octets only (SetPipe, NextSeg)
            assert sack.is_lost_core(board, s, high, dup_thresh) == \
                _ref_is_lost(board, s, una, high, dup_thresh)
        assert sack.pipe_core(board, una, high, rxt, dup_thresh) == \
            _ref_pipe(board, una, high, rxt, dup_thresh)
        for new in (True, False):
            assert sack.next_seg_core(board, una, high, rxt, dup_thresh, new) == \
                _ref_next_seg(board, una, high, rxt, new, dup_thresh)
        rescue = int(rng.integers(-1, high + 1))
        expected = _ref_next_seg(board, una, high, rxt, False, dup_thresh)
        if expected[1] == 0:
            expected = _ref_rescue(board, una, high, rescue)
        assert sack.next_seg(board, una, high, rxt, False, sack.SackParams(dup_thresh),
                             rescue_rxt=rescue) == expected


def test_recovery_episode_by_hand():
    """Segments 1-10 sent, 3 and 4 lost; SACKs for 5-10 arrive.
    After SACK 5, 6: IsLost(3)? 2 SACKed above < 3 -> no; pipe = 8 un-SACKed (1-4 unacked
    but 1, 2 are ACKed: una = 3) -> segments 3, 4, 7-10 in flight = 6.
    After SACK 7: 3 SACKed above 3 and 4 -> both lost; pipe = 10 - 3 - 2 lost... = 7..10
    minus 7 = 3 (8, 9, 10).  NextSeg = 3 (rule 1).  RecoveryPoint = 10.
    Retransmit 3 (HighRxt = 3): pipe = 3 + 1 = 4; NextSeg = 4 (rule 1).
    Retransmit 4: pipe 5; NextSeg = new data 11 (rule 2), or nothing without new data
    (8-10 lie above the highest SACKed segment 7: rule 3 does not reach them; rule 4 needs
    HighACK = 2 > RescueRxt = 3, the value §5 (4.3) set on entry: no).
    Cumulative ACK to 8 (una = 8): recovery not over (una <= 10); HighACK 7 > RescueRxt 3
    -> rule 4 rescues the highest un-SACKed segment 10, RescueRxt := RecoveryPoint = 10,
    after which no second rescue (HighACK 7 <= 10).  ACK to 11: over."""
    b = sack.new_scoreboard(32)
    una, high = 3, 10
    sack.mark_sacked(b, 5, 7, una, high)
    assert not sack.is_lost(b, 3, una, high)
    assert sack.pipe(b, una, high) == 6
    sack.mark_sacked(b, 7, 8, una, high)
    assert sack.is_lost(b, 3, una, high) and sack.is_lost(b, 4, una, high)
    assert sack.pipe(b, una, high) == 3
    assert sack.next_seg(b, una, high) == (3, sack.RULE_LOST)
    recovery_point = high
    assert sack.pipe(b, una, high, high_rxt=3) == 4
    assert sack.next_seg(b, una, high, high_rxt=3) == (4, sack.RULE_LOST)
    assert sack.pipe(b, una, high, high_rxt=4) == 5
    assert sack.next_seg(b, una, high, high_rxt=4) == (11, sack.RULE_NEW_DATA)
    assert sack.next_seg(b, una, high, high_rxt=4, can_send_new=False) == (-1, sack.RULE_NONE)
    assert sack.next_seg(b, una, high, 4, False, rescue_rxt=3) == (-1, sack.RULE_NONE)
    sack.advance_core(b, una, 8)
    assert not b.any()
    assert not sack.recovery_done_core(8, recovery_point)
    assert sack.next_seg(b, 8, high, 7, False, rescue_rxt=3) == (10, sack.RULE_RESCUE)
    assert sack.next_seg(b, 8, high, 7, False, rescue_rxt=recovery_point) == (-1, sack.RULE_NONE)
    assert sack.recovery_done_core(11, recovery_point)


@pytest.mark.parametrize(
    "sacked_segments, seq, expected, derivation",
    [
        # SMSS = 1 segment, DupThresh = 3.  RFC 6675 §4: lost if >= 3 discontiguous SACKed
        # sequences above seq, or more than (3 - 1) * SMSS = 2 segments' worth SACKed above.
        ([5, 6], 4, False, "2 SMSS SACKed above, one block: not lost"),
        ([5, 6, 7], 4, True, "3 SMSS = DupThresh*SMSS SACKed above (> 2 SMSS): lost"),
        ([5, 7, 9], 4, True, "3 discontiguous blocks (and 3 SMSS) above: lost"),
        ([5, 7, 9], 6, False, "only 7 and 9 above 6: 2 SMSS, 2 blocks"),
        ([3, 5, 6, 7], 4, True, "SACKed data below seq does not count; 5-7 above does"),
        ([5, 6, 7], 7, False, "nothing SACKed above the highest SACKed segment"),
    ],
)
def test_is_lost_dupthresh_smss_by_hand(sacked_segments, seq, expected, derivation):
    """IsLost with DupThresh * SMSS octets.  RFC 3517 required at least DupThresh*SMSS
    SACKed octets above; RFC 6675 §9 relaxed it to more than (DupThresh - 1)*SMSS.  With
    whole segments the two coincide (k*SMSS > 2*SMSS iff k >= 3), which is what ctlcc's
    segment scoreboard relies on."""
    b = sack.new_scoreboard(16)
    b[sacked_segments] = True
    assert sack.is_lost(b, seq, una=2, high_data=12) is expected, derivation
    assert sack.is_lost(b, seq, una=2, high_data=12, params=sack.SackParams(dup_thresh=2)) is \
        (len([s for s in sacked_segments if s > seq]) >= 2)        # > (2 - 1) SMSS


def test_setpipe_on_a_small_scoreboard_by_hand():
    """Segments 10-17 out (HighACK = 9), SACKed 12, 14, 15; DupThresh 3.
    IsLost: 10 (3 SACKed above), 11 (3 above) lost; 13 (14, 15: 2) and 16, 17 (0) not.
    HighRxt = 9 (none):  pipe = (a) 13, 16, 17 -> 3.
    HighRxt = 11 (10, 11 resent): (b) adds 10 and 11 -> 5.
    HighRxt = 13 (13 resent before it was lost): 13 counts by (a) AND (b) -> 6, the RFC's
    "octets retransmitted without being considered lost are counted twice"."""
    b = sack.new_scoreboard(32)
    b[[12, 14, 15]] = True
    assert [sack.is_lost(b, s, 10, 17) for s in (10, 11, 13, 16, 17)] == \
        [True, True, False, False, False]
    assert sack.pipe(b, 10, 17) == 3
    assert sack.pipe(b, 10, 17, high_rxt=11) == 5
    assert sack.pipe(b, 10, 17, high_rxt=13) == 6


def test_next_seg_rules_in_order_by_hand():
    """One scoreboard walked through NextSeg's rules in the RFC's order.
    Segments 20-29 out, SACKed 22, 24, 25, 26 (highest SACKed 26), DupThresh 3.
    Lost (>= 3 SACKed above): 20, 21 (4 above), 23 (3 above); 27-29 lie above the highest
    SACK (rule 1.b and 3 exclude them).
      HighRxt 19: rule 1 -> 20.   HighRxt 20: rule 1 -> 21.   HighRxt 21: rule 1 -> 23.
      HighRxt 23 with new data: rule 2 -> HighData + 1 = 30; without: no un-SACKed
      segment in (23, 26) -> rule 3 fails too -> rule 4 if HighACK 19 > RescueRxt:
      RescueRxt 20 (set on entry, §5 4.3) -> nothing (rule 5); RescueRxt undefined -> the
      highest un-SACKed segment, 29.
    Rule 3 alone: SACK only 28 and 29 above 27 -> nothing is lost, rule 3 returns the
    lowest un-SACKed segment above HighRxt below 29."""
    b = sack.new_scoreboard(32)
    b[[22, 24, 25, 26]] = True
    walk = [(19, True, (20, sack.RULE_LOST)), (20, True, (21, sack.RULE_LOST)),
            (21, True, (23, sack.RULE_LOST)), (23, True, (30, sack.RULE_NEW_DATA)),
            (23, False, (-1, sack.RULE_NONE))]
    for high_rxt, new, expected in walk:
        assert sack.next_seg(b, 20, 29, high_rxt=high_rxt, can_send_new=new) == expected
    assert sack.next_seg(b, 20, 29, 23, False, rescue_rxt=20) == (-1, sack.RULE_NONE)
    assert sack.next_seg(b, 20, 29, 23, False, rescue_rxt=-1) == (29, sack.RULE_RESCUE)
    c = sack.new_scoreboard(32)
    c[[28, 29]] = True
    assert sack.next_seg(c, 20, 29, high_rxt=21, can_send_new=True) == (30, sack.RULE_NEW_DATA)
    assert sack.next_seg(c, 20, 29, high_rxt=21, can_send_new=False) == (22, sack.RULE_UNSACKED)


def test_entering_recovery_by_hand():
    """§5: three duplicate ACKs, or fewer when IsLost(HighACK + 1) already holds.
    una 3, sent to 10: SACKs of 5, 6 (2 dup ACKs, IsLost(3) false: 2 SACKed above) ->
    no; SACK of 8 as the 3rd dup ACK -> yes; with SACK blocks 5-7 in ONE ACK (1 dup ACK)
    IsLost(3) holds (3 SACKed above) -> yes."""
    b = sack.new_scoreboard(32)
    sack.mark_sacked(b, 5, 7, 3, 10)
    assert not sack.enter_recovery_core(2, b, 3, 10, 3)
    sack.mark_sacked(b, 8, 9, 3, 10)
    assert sack.enter_recovery_core(3, b, 3, 10, 3)
    c = sack.new_scoreboard(32)
    sack.mark_sacked(c, 5, 8, 3, 10)
    assert sack.enter_recovery_core(1, c, 3, 10, 3)
    assert not sack.enter_recovery_core(0, sack.new_scoreboard(32), 11, 10, 3)   # nothing out


def test_rule_3_retransmits_an_unsacked_hole_not_yet_lost():
    """una 0, 0-9 sent, SACKed 2 and 9 only: nothing is lost (<= 2 SACKed above any hole);
    without new data NextSeg returns the lowest un-SACKed segment below 9: 0 (rule 3)."""
    b = sack.new_scoreboard(16)
    sack.mark_sacked(b, 2, 3, 0, 9)
    sack.mark_sacked(b, 9, 10, 0, 9)
    assert sack.next_seg(b, 0, 9, can_send_new=False) == (0, sack.RULE_UNSACKED)
    assert sack.next_seg(b, 0, 9, high_rxt=7, can_send_new=False) == (8, sack.RULE_UNSACKED)


numba = pytest.importorskip("numba")


def test_numba_cores_agree_with_wrappers():
    lost = numba.njit(sack.is_lost_core)
    pipe = numba.njit(sack.pipe_core)
    nxt = numba.njit(sack.next_seg_core)
    mark = numba.njit(sack.mark_sacked_core)
    rescue = numba.njit(sack.rescue_seg_core)
    rng = np.random.default_rng(7)
    for _ in range(200):
        board, una, high, rxt = _random_board(rng)
        for r in (-1, una - 2, una - 1, high):
            assert rescue(board, una, high, r) == sack.rescue_seg_core(board, una, high, r)
        assert pipe(board, una, high, rxt, 3) == sack.pipe(board, una, high, rxt)
        for new in (True, False):
            assert nxt(board, una, high, rxt, 3, new) == sack.next_seg(board, una, high, rxt, new)
        for s in range(una, high + 1):
            assert lost(board, s, high, 3) == sack.is_lost(board, s, una, high)
    a, b = np.zeros(8, dtype=bool), np.zeros(8, dtype=bool)
    assert mark(a, 6, 11) == sack.mark_sacked_core(b, 6, 11) == 5 and (a == b).all()


@pytest.mark.parametrize(
    "func, args, kwargs, match",
    [
        (sack.mark_sacked, (sack.new_scoreboard(8), 2, 2, 0, 5), {},
         r"SACK block must satisfy una <= start < end <= high_data \+ 1 \(0 <= start < end <= 6\), got \[2, 2\)"),
        (sack.is_lost, (sack.new_scoreboard(8), 9, 0, 5), {}, r"seq must be in \[una, high_data\] = \[0, 5\], got 9"),
        (sack.pipe, (sack.new_scoreboard(8), 0, 20), {}, r"must fit the scoreboard's 8 slots"),
        (sack.pipe, (np.zeros(8), 0, 5), {}, r"sacked must be a 1-d numpy bool array, got ndarray of dtype float64"),
        (sack.pipe, (sack.new_scoreboard(8), 4, 2), {}, r"high_data must be >= una - 1 = 3, got 2"),
        (sack.next_seg, (sack.new_scoreboard(8), 0, 5), {"high_rxt": 6},
         r"high_rxt must be an integer in \[una - 1, high_data\] = \[-1, 5\], got 6"),
        (sack.next_seg, (sack.new_scoreboard(8), 0, 5), {"can_send_new": 1}, r"can_send_new must be True or False"),
        (sack.next_seg, (sack.new_scoreboard(8), 0, 5), {"rescue_rxt": 6},
         r"rescue_rxt must be -1 \(undefined\) or an integer in \[0, high_data\] = \[0, 5\], got 6"),
        (sack.next_seg, (sack.new_scoreboard(8), 0, 5), {"rescue_rxt": True}, r"rescue_rxt must be"),
        (sack.SackParams, (), {"capacity": 0}, r"capacity must be an integer >= 1, got 0"),
    ],
)
def test_bad_input(func, args, kwargs, match):
    with pytest.raises(ParameterError, match=match):
        func(*args, **kwargs)
