# ctlcc.sim._core.layout - array layout of the packet engine (private)
"""Column indices, event kinds and return codes shared by the numba core.

All are plain module-level ints, which numba freezes into constants.  The
per-flow tables ``ff`` (float) and ``fi`` (int) start with the columns every
sender has (below); each sender module of :mod:`ctlcc.sim.senders` appends
its own private columns from :data:`NF_COMMON` / :data:`NI_COMMON` on, as
many as its spec declares (``SenderSpec.float_columns``/``int_columns``;
several senders reuse the same private indices: a flow runs one sender).
"""

__all__ = []

# event kinds (EV_STEP: a sender's own step, handed to its ``on_step`` hook)
EV_ARRIVE, EV_RTO, EV_PACE, EV_START, EV_STOP, EV_SAMPLE, EV_STEP = 0, 1, 2, 3, 4, 5, 6
# return codes of the kernel (NEED_PYTHON: a hook asked for its spec's Python step)
DONE, NEED_PYTHON, NEED_POOL, NEED_TRACE, UNDISPATCHED, SENDER_ERROR, UNLINKED = (
    0, 1, 2, 3, 4, 5, 6)
# what a hook returns: carry on, hand the flow to Python (then ``on_resume``), or stop
# the run with the error the hook wrote in meta[M_ERROR] (the spec explains it)
HOOK_OK, HOOK_PYTHON, HOOK_ERROR = 0, 1, 2
# the hooks, in the columns of the per-flow hook table (ctx.hooks)
H_START, H_ACK, H_DATA, H_TIMER, H_PACE, H_STEP, H_RESUME = 0, 1, 2, 3, 4, 5, 6
NH = 7
# loss kinds
LOSS_NONE, LOSS_BERNOULLI, LOSS_GE, LOSS_LIST = 0, 1, 2, 3

# --- per-flow float columns every sender has (ff) ---
# (what the sampling reads of each flow at every sample - F_CWND, F_RATE; I_SENT, I_UNIQUE,
# I_DELIVERED - is adjacent in each table, so mostly one cache line of each: at 1000 flows
# the 2,000 samples of a run read about 2 lines per flow and sample instead of 4)
F_CWND, F_RATE, F_SRTT, F_RTTVAR, F_RTO, F_RTO_DEADLINE = 0, 1, 2, 3, 4, 5
F_MIN_RTT, F_LAST_RTT, F_ROUND_START, F_ROUND_MIN_RTT = 6, 7, 8, 9
F_START, F_STOP, F_SSTHRESH, F_RTO_EVT = 10, 11, 12, 13
NF_COMMON = 16
# --- per-flow int columns every sender has (fi) ---
# Rows start on a 64-byte boundary (engine._flow_rows), and the columns are grouped by who
# reads them per packet, so that a packet touches few lines of its flow's row: words 0-7 and
# 8-15 what the sender reads or writes on every ACK (sequence numbers, recovery, round,
# timer, pacing generation); words 16-23 what the receiver reads or writes on every data
# packet and the sender on every send, with the three columns the sampling reads (I_SENT,
# I_UNIQUE, I_DELIVERED) adjacent; words 24-31 the counters of rarer events (drops,
# timeouts, recoveries, ECN) and the sender's code.  A sender's own columns start at
# NI_COMMON, on a line of their own.  (At 1000 flows each flow's row is touched about every
# thousand packets, by which time a row spread over six lines was mostly out of the caches.)
I_SND_UNA, I_SND_NXT, I_SND_MAX, I_DUPACKS, I_IN_RECOVERY, I_RECOVER, I_ACTIVE = 0, 1, 2, 3, 4, 5, 6
I_ACKS_RECEIVED = 7
I_ROUND_END, I_ROUND_ACKED, I_ROUND_RTTS, I_RTT_SAMPLED, I_RTO_GEN, I_RTO_PENDING = (
    8, 9, 10, 11, 12, 13)
I_ECN_RECOVER, I_PACE_GEN = 14, 15
I_SENT, I_UNIQUE, I_DELIVERED, I_RCV_NXT, I_ECN, I_ACK_SENT, I_RETX, I_PARTIAL_SEEN = (
    16, 17, 18, 19, 20, 21, 22, 23)
I_PROTO, I_DROP_Q, I_DROP_L, I_ACK_DROP, I_TIMEOUTS, I_FAST_RETX, I_MARKED, I_ECN_CUTS = (
    24, 25, 26, 27, 28, 29, 30, 31)
# ECN (RFC 3168): I_ECN holds the flow's ECN bits (ECN_CAPABLE: the sender sends ECT data
# and reacts to ECE; ECN_ECHOING: its receiver sets ECE on every ACK until a CWR segment
# arrives; ECN_SEND_CWR: the next new segment carries CWR); I_ECN_RECOVER the highest
# segment sent when the sender last reduced for ECE (-1: none; no second reduction and
# no growth until an ACK passes it); I_MARKED the CE-marked segments the receiver got,
# I_ECN_CUTS the sender's reductions for ECE
NI_COMMON = 32
# --- per-channel columns: one row of NCW 8-byte words per channel, seen as int64 (ci) and
# as float64 (cf) - two views of the same memory (engine._Simulation._rows), so an int column
# and a float column never share an index.  Every hop of a packet reads or writes the
# columns of its channel's first two cache lines (words 0-15: ring, FIFO list, AQM and loss
# kind, counters, rate, delay, end of the last transmission, waiting and busy sums, the
# arrival wheel's link); the rest (loss models' parameters, AQM state) only on lossy or
# AQM links.  Rows start on a 64-byte boundary.
K_CAP, K_RING_OFF, K_RING_HEAD, K_RING_COUNT, K_FIFO_HEAD, K_FIFO_TAIL, K_AQM, K_LOSS_KIND = (
    0, 1, 2, 3, 4, 5, 6, 7)
K_ARRIVALS, K_MAXQ = 8, 9
C_RATE, C_DELAY, C_LAST_END, C_WAIT_SUM, C_BUSY_SUM = 10, 11, 12, 13, 14
# while the arrival of the channel's oldest packet (K_FIFO_HEAD) waits on the arrival wheel
# (net.wheel_put), the next channel of the same slot (-1: none); the arrival's time and
# sequence number are in that packet's row (Q_ARRIVAL, P_EVENT_SEQ)
K_W_NEXT = 15
# drops and losses, Gilbert-Elliott's state and a loss list's position (K_GE_BAD, K_LIST_*,
# K_SEEN), then the loss models' parameters
K_DROPS, K_LOSSES, K_GE_BAD, K_LIST_OFF, K_LIST_LEN, K_LIST_POS, K_SEEN = (
    16, 17, 18, 19, 20, 21, 22)
C_MEAN_GOOD, C_MEAN_BAD, C_LOSS_GOOD, C_LOSS_BAD, C_NEXT_SWITCH = 23, 24, 25, 26, 27
# AQM of the channel (K_AQM, ctlcc.laws.aqm): RED's thresholds, max_p, weight, average and
# the time its waiting queue last emptied; PI's a, b, q_ref, period, p, last sampled queue
# and next sampling instant; the link's packet rate C / data bits (RED's idle correction)
C_RED_MIN, C_RED_MAX, C_RED_PMAX, C_RED_WEIGHT, C_RED_AVG, C_RED_IDLE = 28, 29, 30, 31, 32, 33
C_PI_A, C_PI_B, C_PI_REF, C_PI_PERIOD, C_PI_P, C_PI_QPREV, C_PI_NEXT = (
    28, 29, 30, 31, 32, 33, 34)
C_PKT_RATE = 35
# the channel's packets in flight (queued, in transmission or propagating), oldest first: a
# list linked through the packets' P_NEXT, from K_FIFO_HEAD (-1: empty) to K_FIFO_TAIL; only
# the head's arrival is an event of the heap (see net.offer)
# AQM: its option bits, RED's count and "old" flag, the state of the channel's own
# uniform stream (SplitMix64), and its counters (drops it decided, ECN marks)
K_AQM_FLAGS, K_RED_COUNT, K_RED_OLD, K_AQM_RNG, K_AQM_DROPS, K_MARKS = 36, 37, 38, 39, 40, 41
# RED's min_queue (RedParams.gate_threshold: no early or forced drop while at most this many
# packets wait; negative: no such rule)
C_RED_MIN_QUEUE = 42
# Bernoulli loss's probability (read at the channel's end, on a lossy channel only)
C_P = 43
NCW = 48
NCF = NCI = NCW
# AQM kinds (K_AQM) and option bits (K_AQM_FLAGS)
AQM_DROPTAIL, AQM_RED, AQM_PI = 0, 1, 2
AQM_GENTLE, AQM_WAIT, AQM_ECN, AQM_HARD_DROP = 1, 2, 4, 8
# --- packet columns: one row of NPW 8-byte words per packet of the pool, seen as int64
# (pi) and as float64 (pf), two views of the same memory (an int column and a float column
# never share an index).  Words 0-7, one cache line (rows start on a 64-byte boundary),
# hold what every hop reads or writes: flow, kind, hop; the sequence number and time
# (Q_ARRIVAL) of the packet's arrival event at the end of its channel, drawn from
# meta[M_HEAP_SEQ] (read when that arrival moves from the arrival wheel into the heap,
# net.wheel_settle); and the packet behind it in that channel (P_NEXT, -1: none) with that
# packet's arrival key (P_NEXT_SEQ, Q_NEXT_ARRIVAL), so that when this packet arrives the
# next one takes its place in the heap without its own row being read (net.next_arrival);
# words 8-13 what an AQM or the end hosts read.
P_FLOW, P_KIND, P_HOP, P_NEXT, P_EVENT_SEQ, Q_ARRIVAL, P_NEXT_SEQ, Q_NEXT_ARRIVAL = (
    0, 1, 2, 3, 4, 5, 6, 7)
P_ECN, P_SEQ, P_RETX, P_FLAG, Q_SENT_TIME, Q_ECHO, Q_AUX1, Q_AUX2 = (
    8, 9, 10, 11, 12, 13, 14, 15)
NPW = 16
NPI = NPF = NPW
# ECN bits of a packet (P_ECN, RFC 3168): ECT (data of an ECN-capable flow), CE (set by
# an AQM instead of a drop), CWR (data: the sender has reduced), ECE (ACK: echo of a CE)
# and of a flow (I_ECN)
ECN_ECT, ECN_CE, ECN_CWR, ECN_ECE = 1, 2, 4, 8
ECN_CAPABLE, ECN_ECHOING, ECN_SEND_CWR = 1, 2, 4
# --- heap columns: each heap (the event heap ``ctx.hf``/``ctx.hi``, the timer heap
# ``ctx.tf``/``ctx.ti``) is one flat table of NHQ 8-byte words per entry (32 bytes), seen as
# float64 and as int64 (engine._heap_table): the entry's time, its key (the sequence number
# shifted left by KIND_BITS, the event's kind in the low bits: keys order as the sequence
# numbers do, which are unique) and two operands (a, b).  The table starts 32 bytes past a
# 64-byte boundary, so the two children of entry i (2i+1 and 2i+2) share one cache line: a
# step of a sift reads one line, and a heap of 500 entries fills 16 kB of the first level
HQ_T, HQ_S, HQ_A, HQ_B = 0, 1, 2, 3
NHQ = 4
KIND_BITS = 4
KIND_MASK = (1 << KIND_BITS) - 1
assert EV_STEP <= KIND_MASK, "every event kind fits in a heap key's low bits"
# --- global meta (int) ---
M_HEAP, M_HEAP_SEQ, M_NFREE, M_EVENTS, M_NSAMPLES, M_TRACE, M_NRTT, M_NDROP = 0, 1, 2, 3, 4, 5, 6, 7
M_PYTHON_FLOW, M_MARGIN, M_PENDING, M_UNDISPATCHED, M_HOOK, M_ERROR, M_ERROR_FLOW = (
    8, 9, 10, 11, 12, 13, 14)
#: the address of the world (run's arrays) the running event loop stored, and those of
#: the transport services compiled once (net.send/push/enqueue call them by address)
M_WORLD, M_SEND, M_PUSH, M_OFFER = 16, 17, 18, 19
#: entries of the timer heap (``ctx.tf``/``ctx.ti``: the retransmission timers, EV_RTO, and
#: every other event but the packets' arrivals, which are in the event heap, ``ctx.hf``/
#: ``ctx.hi``, M_HEAP entries, or on the arrival wheel: net.schedule, net.wheel_put)
M_TIMERS = 15
#: the arrival wheel (net.wheel_put; a run with few channels leaves it off, G_WHEEL_INV = 0):
#: the entries it holds, the first slot it can hold (a slot number: floor(t * G_WHEEL_INV)),
#: then in words M_WHEEL_BITS... a bit per slot (WHEEL_SLOTS / 64 words) and a word with a
#: bit per non-zero one, and from M_WHEEL_HEADS each slot's first channel (-1: empty)
M_WHEEL_N, M_WHEEL_V = 20, 21
WHEEL_SLOTS = 1024
WHEEL_MASK = WHEEL_SLOTS - 1
M_WHEEL_BITS = 64
M_WHEEL_SUMMARY = M_WHEEL_BITS + WHEEL_SLOTS // 64
M_WHEEL_HEADS = 128
NM = M_WHEEL_HEADS + WHEEL_SLOTS
assert WHEEL_SLOTS & WHEEL_MASK == 0 and WHEEL_SLOTS <= 64 * 64, \
    "a power of two; one summary word: a bit per word of the slots' bits"
assert M_WHEEL_SUMMARY < M_WHEEL_HEADS
# --- global params (float) ---
G_DATA_BITS, G_ACK_BITS, G_MIN_RTO, G_MAX_RTO, G_INIT_RTO = 0, 1, 2, 3, 4
#: slots of the arrival wheel per second (0: no wheel, every arrival in the event heap)
G_WHEEL_INV = 5
G_MAX_WINDOW, G_DUPTHRESH, G_INIT_WINDOW, G_SAMPLE_DT, G_NOW = 8, 9, 10, 11, 12
G_RTT_EVERY, G_LIMITED, G_TIMESTAMPS = 13, 14, 15
#: four numbers a hook that stops the run leaves for its spec's message
G_ERR0, G_ERR1, G_ERR2, G_ERR3 = 16, 17, 18, 19
NG = 20
