# ctlcc.sim._core.layout - array layout of the packet engine (private)
"""Column indices, event kinds and return codes shared by the numba core.

All are plain module-level ints, which numba freezes into constants.  The
per-flow tables ``ff`` (float) and ``fi`` (int) start with the columns every
sender has (below); each sender module of :mod:`ctlcc.sim.senders` appends
its own private columns from :data:`NF_COMMON` / :data:`NI_COMMON` on
(several senders may reuse the same private indices: a flow runs one sender).
"""

__all__ = []

# event kinds
EV_ARRIVE, EV_RTO, EV_PACE, EV_START, EV_STOP, EV_SAMPLE, EV_DEFER = 0, 1, 2, 3, 4, 5, 6
# return codes of the kernel
DONE, NEED_LAW, NEED_POOL, NEED_TRACE, UNDISPATCHED = 0, 1, 2, 3, 4
# loss kinds
LOSS_NONE, LOSS_BERNOULLI, LOSS_GE, LOSS_LIST = 0, 1, 2, 3

# --- per-flow float columns every sender has (ff) ---
F_CWND, F_SSTHRESH, F_SRTT, F_RTTVAR, F_RTO, F_RTO_DEADLINE = 0, 1, 2, 3, 4, 5
F_MIN_RTT, F_LAST_RTT, F_ROUND_START, F_ROUND_MIN_RTT = 6, 7, 8, 9
F_START, F_STOP, F_RATE, F_RTO_EVT = 10, 11, 12, 13
NF_COMMON = 16
# --- per-flow int columns every sender has (fi) ---
I_PROTO, I_SND_UNA, I_SND_NXT, I_SND_MAX, I_DUPACKS, I_IN_RECOVERY, I_RECOVER = 0, 1, 2, 3, 4, 5, 6
I_RTO_GEN, I_RTO_PENDING, I_ACTIVE, I_ROUND_END, I_ROUND_ACKED, I_ROUND_RTTS = 7, 8, 9, 10, 11, 12
I_PACE_GEN, I_RCV_NXT, I_RTT_SAMPLED, I_FWD_LEN, I_REV_LEN = 13, 14, 15, 16, 17
I_SENT, I_RETX, I_DELIVERED, I_DROP_Q, I_DROP_L, I_ACK_SENT, I_ACK_DROP = 18, 19, 20, 21, 22, 23, 24
I_TIMEOUTS, I_FAST_RETX, I_ACKS_RECEIVED, I_UNIQUE, I_PARTIAL_SEEN = 25, 26, 27, 28, 29
NI_COMMON = 32
# --- per-channel float columns (cf) ---
C_RATE, C_DELAY, C_LAST_END, C_P, C_MEAN_GOOD, C_MEAN_BAD = 0, 1, 2, 3, 4, 5
C_LOSS_GOOD, C_LOSS_BAD, C_NEXT_SWITCH, C_WAIT_SUM, C_BUSY_SUM = 6, 7, 8, 9, 10
NCF = 12
# --- per-channel int columns (ci) ---
K_CAP, K_RING_OFF, K_RING_HEAD, K_RING_COUNT, K_LOSS_KIND, K_GE_BAD = 0, 1, 2, 3, 4, 5
K_ARRIVALS, K_DROPS, K_LOSSES, K_MAXQ, K_LIST_OFF, K_LIST_LEN, K_LIST_POS, K_SEEN = (
    6, 7, 8, 9, 10, 11, 12, 13)
NCI = 16
# --- packet columns ---
P_FLOW, P_SEQ, P_KIND, P_HOP, P_RETX, P_FLAG = 0, 1, 2, 3, 4, 5
NPI = 6
Q_SENT_TIME, Q_ECHO, Q_AUX1, Q_AUX2 = 0, 1, 2, 3
NPF = 4
# --- global meta (int) ---
M_HEAP, M_HEAP_SEQ, M_NFREE, M_EVENTS, M_NSAMPLES, M_TRACE, M_NRTT, M_NDROP = 0, 1, 2, 3, 4, 5, 6, 7
M_LAW_FLOW, M_MARGIN, M_PENDING, M_UNDISPATCHED = 8, 9, 10, 11
NM = 12
# --- global params (float) ---
G_DATA_BITS, G_ACK_BITS, G_MIN_RTO, G_MAX_RTO, G_INIT_RTO = 0, 1, 2, 3, 4
G_MAX_WINDOW, G_DUPTHRESH, G_INIT_WINDOW, G_SAMPLE_DT, G_NOW = 8, 9, 10, 11, 12
G_RTT_EVERY, G_LIMITED, G_TIMESTAMPS = 13, 14, 15
NG = 16

#: history ring length for Primo's ΔFTT and rate lookups
H_PRIMO = 4096
