# ctlcc.experiments.thesis_testbed - the thesis's Chapter 5 testbed on the packet simulator
"""Chapter 5 of the ST-PD thesis on ctlcc's packet simulator, and §5.3.3's LCG.

The thesis ran ST-PD TCP in the Linux-2.2.17 kernel over a three-node testbed
(Xu (2002), §5.3, Fig. 5.3): H1 reaches H2 over 100 Mb/s Ethernet, H2 reaches
H3 over a serial point-to-point link (PPP) whose delay and packet errors are
set by a microcontroller link emulator (§5.3.3).  Data packets are 152 bytes
on the serial line (100 bytes of payload, 52 of TCP/IP headers), ACKs 52
bytes, and every byte costs 10 bits on the line (start bit, 8 data bits, stop
bit, §5.4.1), so a 38.4-kb/s line carries 30.72 kb/s of packet bytes.  This
module rebuilds that path as a :class:`~ctlcc.sim.scenarios.Scenario` and
measures what §5.4 reports: the time to transfer 100,000 bytes, the packets
lost, the round-trip times, over lossless and lossy lines and with two
competing connections.

What the simulator cannot represent (see :data:`NOT_REPRESENTED`): the
queue size of H2's PPP interface (not printed; :data:`H2_BUFFER` is a
reading), Linux 2.2's own Reno (delayed ACKs, its RTO clock of 10-ms
jiffies, header prediction), the emulator's byte-wise store-and-forward and
its finite delay memory, host and tcpdump timing, and a finite file's tail:
the transfer time is read as the time a greedy flow has 1000 packets
delivered in order, so a loss among the last packets is repaired by the
duplicate ACKs that later data raises, where a real 100,000-byte transfer
has no later data and waits for its timer.

Every function returns plain values (with standard errors over seeds where
the run is random); the published values, comparisons and tolerances they
are judged against are in ``data/inventory_stage3_published.csv``.

Examples
--------
>>> round(ideal_rtt(115.2e3, 0.0), 4)      # thesis §5.4.1: 0.031 s
0.0309
>>> round(serial_time(152, 38.4e3), 5)     # one 152-byte packet at 38.4 kb/s
0.03958
"""

import math
import sys
from dataclasses import dataclass

import numpy as np

from .._validation import check_interval, check_nonnegative, check_positive, check_positive_int
from ..errors import ParameterError
from .._validation import finite_result
from . import _args
from ._args import checked
from ..references import cite
from ..sim import run
from ..sim.scenarios import Bernoulli, Flow, Link, Scenario, TcpOptions

__all__ = [
    "PAYLOAD_BYTES",
    "HEADER_BYTES",
    "ACK_BYTES",
    "SERIAL_BITS_PER_BYTE",
    "H2_BUFFER",
    "TRANSFER_BYTES",
    "NOT_REPRESENTED",
    "TransferRun",
    "serial_time",
    "ideal_rtt",
    "build_testbed",
    "transfer_times",
    "lossless_transfer",
    "two_connections",
    "lossy_transfer",
    "lcg_sequence",
    "lcg_moments",
    "lcg_period",
]

#: Payload of a testbed data packet (§5.4.1: "the payload size is 100 bytes"). [bytes]
PAYLOAD_BYTES = 100
#: TCP/IP headers of a data packet (152 - 100, §5.4.1). [bytes]
HEADER_BYTES = 52
#: Size of an ACK (§5.4.1). [bytes]
ACK_BYTES = 52
#: Line bits per byte on the serial link (1 start, 8 data, 1 stop bit; §5.4.1). [bit]
SERIAL_BITS_PER_BYTE = 10
#: Ethernet H1-H2 (§5.3.1: RealTek 8139 fast Ethernet cards). [bit/s]
ETHERNET_RATE = 100e6
#: Propagation delay of the Ethernet cable (not printed; a few metres). [s]
ETHERNET_DELAY = 1e-6
#: Delay used for the "0ms-delayed" line: the engine needs a positive delay. [s]
ZERO_DELAY = 1e-6
#: H2's queue toward the serial line (not printed; a reading: the thesis's
#: Fig. 5.12(a) shows at least 21 packets queued). [packets]
H2_BUFFER = 32
#: The transfers of §5.4 ("100,000 bytes of data"). [bytes]
TRANSFER_BYTES = 100_000
#: Linux 2.2's lower bound of the retransmission timeout (HZ/5). [s]
LINUX_MIN_RTO = 0.2

#: Testbed properties the packet simulator does not represent.
NOT_REPRESENTED = (
    "the queue size of H2's PPP interface and tty buffers (not printed; H2_BUFFER is a reading)",
    "Linux 2.2's Reno: delayed ACKs at the receiver (the thesis disables them for ST-PD only), "
    "10-ms jiffy clock of its RTO, initial window and header prediction",
    "the link emulator's byte-wise store-and-forward through the microcontroller's UARTs and "
    "its finite delay memory (about 5 kbyte per direction)",
    "host processing, interrupt and tcpdump timing (RTTs are read from tcpdump traces at H1)",
    "a finite file's tail: a loss among the last packets of a 100,000-byte transfer has no "
    "later data to raise duplicate ACKs; here the flow is greedy",
    "the emulator's random number generator LCG(16807, 0, 2^31 - 1, 1): losses here come from "
    "the simulator's seeded generator",
)

#: The LCG of the link emulator (§5.3.3): LCG(a, c, m, x0).
LCG_A, LCG_C, LCG_M, LCG_X0 = 16807, 0, 2**31 - 1, 1
#: Largest block of lcg_sequence: two int64 arrays of 2**26 entries are 1 GiB. [1]
MAX_BLOCK = 2**26
#: Largest transfer: 2**40 bytes (a terabyte) is beyond what a run's traces hold. [bytes]
MAX_TRANSFER_BYTES = 2**40
#: Largest size of one packet on the serial line (an IP packet). [bytes]
MAX_PACKET_BYTES = 65_535


def _check_size(name, value):
    return check_positive_int(name, value, maximum=MAX_PACKET_BYTES)


def _check_transfer(name, value):
    return check_positive_int(name, value, maximum=MAX_TRANSFER_BYTES)


@dataclass(frozen=True)
class TransferRun:
    """One 100,000-byte transfer (or several, one per flow) on the testbed.

    Attributes
    ----------
    protocol : str
    serial_rate, serial_delay : float
        Line rate [bit/s] and one-way delay [s] of the serial link.
    loss : float
        Packet error ratio of the serial link (data direction). [1]
    seed : int
    times : tuple of float
        Per flow: seconds from the flow's start until its 1000th packet is
        delivered in order (inf if never within the run). [s]
    losses : tuple of int
        Per flow: data packets lost (queue drops plus line errors) before
        that time. [packets]
    median_rtt : tuple of float
        Per flow: median RTT sample after the flow's first 20 ACKs and
        before its transfer ends. [s]
    timeouts : tuple of int
        Per flow: retransmission timeouts over the whole run. [1]
    """

    protocol: str
    serial_rate: float
    serial_delay: float
    loss: float
    seed: int
    times: tuple
    losses: tuple
    median_rtt: tuple
    timeouts: tuple


@checked(size_bytes=_check_size)
def serial_time(size_bytes, serial_rate):
    """Time to send *size_bytes* over the serial line (10 line bits per byte).

    Parameters
    ----------
    size_bytes : int
        Packet size. [bytes]
    serial_rate : float
        Line rate. [bit/s]

    Returns
    -------
    float
        [s]

    References
    ----------
    Xu (2002), §5.4.1 (13.194 ms for 152 bytes at 115.2 kb/s).

    Examples
    --------
    >>> round(serial_time(152, 115.2e3) * 1e3, 3)
    13.194
    """
    check_positive_int("size_bytes", size_bytes)
    check_positive("serial_rate", serial_rate)
    return size_bytes * SERIAL_BITS_PER_BYTE / serial_rate


@checked(queued=_args.nonnegative_int)
@finite_result
def ideal_rtt(serial_rate, serial_delay, queued=1):
    """The thesis's 'ideal' RTT: one data packet waiting plus its own and the ACK's.

    Ethernet times are left out, as in the thesis.

    Parameters
    ----------
    serial_rate : float
        [bit/s]
    serial_delay : float
        One-way delay of the line. [s]
    queued : int
        Packets waiting ahead of the measured one (ST-PD's reference: 1). [packets]

    Returns
    -------
    float
        [s]

    References
    ----------
    Xu (2002), §5.4.1 (0.031 s, 0.253 s and 0.593 s).

    Examples
    --------
    >>> [round(ideal_rtt(38.4e3, d), 3) for d in (0.08, 0.25)]
    [0.253, 0.593]
    """
    check_nonnegative("serial_delay", serial_delay)
    if isinstance(queued, bool) or not isinstance(queued, (int, np.integer)) or queued < 0:
        raise ParameterError(f"queued must be an integer >= 0 [packets], got {queued!r}")
    data = serial_time(PAYLOAD_BYTES + HEADER_BYTES, serial_rate)
    return 2.0 * serial_delay + (1 + queued) * data + serial_time(ACK_BYTES, serial_rate)


@checked(flows=_args.choice((1, 2)))
def build_testbed(serial_rate=38.4e3, serial_delay=0.08, loss=0.0, protocol="reno", flows=1,
            second_start=20.0, buffer=H2_BUFFER, min_rto=LINUX_MIN_RTO):
    """The Fig. 5.3 testbed: H1 -(Ethernet)- H2 -(serial line)- H3.

    Parameters
    ----------
    serial_rate : float
        Line rate of H2-H3 (38.4 kb/s through the emulator, 115.2 kb/s
        direct). [bit/s]
    serial_delay : float
        Emulated one-way delay (0 for the direct line). [s]
    loss : float
        Packet error ratio on H2 -> H3, in [0, 1). [1]
    protocol : str
        Sender of every flow ("reno", "stpd", ...).
    flows : {1, 2}
        1: H1 -> H3.  2: also H2 -> H3, starting *second_start* later
        (§5.4.1's second set of experiments).
    second_start : float
        [s]
    buffer : int
        H2's queue toward the line. [packets]
    min_rto : float
        Lower bound of the retransmission timeout (Linux: 0.2 s). [s]

    Returns
    -------
    Scenario

    References
    ----------
    Xu (2002), §5.3.1, Fig. 5.3; §5.4.

    Examples
    --------
    >>> s = build_testbed(115.2e3, 0.0)
    >>> s.links[1].rate, s.payload_bytes + s.header_bytes
    (92160.0, 152)
    """
    if not math.isfinite(_args.positive("serial_rate", serial_rate) * 8.0):
        raise ParameterError(f"serial_rate must be < {sys.float_info.max / 8:.3g} bit/s (the "
                             f"line's rate in bits overflows), got {serial_rate!r}")
    check_nonnegative("serial_delay", serial_delay)
    loss = check_interval("loss", loss, 0.0, 1.0, closed="left", scalar=True)
    if flows not in (1, 2):
        raise ParameterError(f"flows must be 1 or 2, got {flows!r}")
    check_nonnegative("second_start", second_start)
    line = Link("H2", "H3", serial_rate * 8.0 / SERIAL_BITS_PER_BYTE,
                max(serial_delay, ZERO_DELAY), buffer, Bernoulli(loss) if loss > 0 else None)
    links = (Link("H1", "H2", ETHERNET_RATE, ETHERNET_DELAY), line)
    members = [Flow(("H1", "H2", "H3"), protocol, name="H1-H3")]
    if flows == 2:
        members.append(Flow(("H2", "H3"), protocol, start=second_start, name="H2-H3"))
    return Scenario(
        "thesis_testbed", links, tuple(members), (("H2", "H3"),), payload_bytes=PAYLOAD_BYTES,
        header_bytes=HEADER_BYTES, ack_bytes=ACK_BYTES, tcp=TcpOptions(min_rto=min_rto),
        description=(f"{cite('stpd', '§5.3, Fig. 5.3')}: {serial_rate / 1e3:g} kb/s line, "
                     f"{serial_delay * 1e3:g} ms, packet error ratio {loss:g}"))


@checked(scenario=_args.scenario, transfer_bytes=_check_transfer)
def transfer_times(scenario, duration, seed=0, transfer_bytes=TRANSFER_BYTES,
                   sample_interval=0.005):
    """Run *scenario* and read each flow's transfer of *transfer_bytes*.

    Parameters
    ----------
    scenario : Scenario
    duration : float
        Simulated time; long enough for every transfer. [s]
    seed : int
    transfer_bytes : int
        [bytes]
    sample_interval : float
        Sampling of the in-order delivery counter; bounds the time
        resolution. [s]

    Returns
    -------
    TransferRun
    """
    check_positive_int("transfer_bytes", transfer_bytes)
    packets = math.ceil(transfer_bytes / scenario.payload_bytes)
    result = run(scenario, duration, seed=seed, trace=True, sample_interval=sample_interval,
                 progress=False)
    tr = result.traces
    times, losses, rtts = [], [], []
    for i, flow in enumerate(scenario.flows):
        hit = np.nonzero(tr.delivered[:, i] >= packets)[0]
        done = float(tr.time[hit[0]]) if hit.size else math.inf
        times.append(done - flow.start if hit.size else math.inf)
        drops = tr.drops
        mine = drops[(drops[:, 1] == i) & (drops[:, 3] != 1) & (drops[:, 0] <= done)] \
            if drops.size else drops
        losses.append(int(mine.shape[0]))
        samples = tr.rtt[tr.rtt[:, 1] == i]
        samples = samples[20:]
        samples = samples[samples[:, 0] <= done]
        rtts.append(float(np.median(samples[:, 2])) if samples.size else math.nan)
    loss = scenario.links[1].loss.p if scenario.links[1].loss is not None else 0.0
    return TransferRun(scenario.flows[0].protocol, scenario.links[1].rate
                       * SERIAL_BITS_PER_BYTE / 8.0, scenario.links[1].delay, loss, seed,
                       tuple(times), tuple(losses), tuple(rtts),
                       tuple(f.timeouts for f in result.flows))


@checked(duration=_args.optional(_args.positive))
def lossless_transfer(protocol, serial_rate, serial_delay, buffer=H2_BUFFER, duration=None):
    """§5.4.1's first set: one 100,000-byte transfer over a lossless line.

    Parameters
    ----------
    protocol : str
    serial_rate, serial_delay : float
        [bit/s], [s]
    buffer : int
        [packets]
    duration : float, optional
        Default: four times the line's transfer time plus 30 s. [s]

    Returns
    -------
    TransferRun
        Deterministic (no random element): one run.

    References
    ----------
    Xu (2002), §5.4.1, Figs. 5.11-5.19.
    """
    scenario = build_testbed(serial_rate, serial_delay, 0.0, protocol, buffer=buffer)
    if duration is None:
        duration = 4 * TRANSFER_BYTES / PAYLOAD_BYTES * serial_time(152, serial_rate) + 30.0
    return transfer_times(scenario, duration)


@checked()
def two_connections(protocol, serial_rate=38.4e3, serial_delay=0.18, second_start=20.0,
                    buffer=H2_BUFFER, duration=400.0):
    """§5.4.1's second set: H1-H3 from 0 s, H2-H3 from *second_start*.

    Returns
    -------
    TransferRun
        ``times`` holds (first, second) transfer durations. [s]

    References
    ----------
    Xu (2002), §5.4.1, Figs. 5.20-5.22.
    """
    scenario = build_testbed(serial_rate, serial_delay, 0.0, protocol, flows=2,
                       second_start=second_start, buffer=buffer)
    return transfer_times(scenario, duration)


@checked()
def lossy_transfer(protocol, serial_delay, loss, seeds=(0, 1, 2, 3, 4), serial_rate=38.4e3,
                   buffer=H2_BUFFER, duration=900.0):
    """§5.4.2: 100,000 bytes over a line with random packet errors, several seeds.

    Parameters
    ----------
    protocol : str
    serial_delay : float
        [s]
    loss : float
        Packet error ratio (data direction), in [0, 1). [1]
    seeds : sequence of int
    serial_rate : float
        [bit/s]
    buffer : int
        [packets]
    duration : float
        [s]

    Returns
    -------
    dict
        ``mean`` and ``sem`` (standard error) of the transfer time [s],
        ``times`` per seed [s], ``unfinished`` (runs that did not finish,
        counted at *duration*) and ``runs`` (the TransferRun of each seed).

    References
    ----------
    Xu (2002), §5.4.2, Figs. 5.23-5.26.
    """
    seeds = tuple(seeds)
    if len(seeds) < 2:
        raise ParameterError(f"seeds must hold at least 2 seeds for a standard error, got {seeds!r}")
    runs = [transfer_times(build_testbed(serial_rate, serial_delay, loss, protocol, buffer=buffer),
                           duration, seed=s) for s in seeds]
    times = np.array([min(r.times[0], duration) for r in runs])
    return dict(mean=float(times.mean()), sem=float(times.std(ddof=1) / math.sqrt(times.size)),
                times=tuple(float(t) for t in times),
                unfinished=sum(not math.isfinite(r.times[0]) for r in runs), runs=tuple(runs))


def lcg_sequence(n, a=LCG_A, c=LCG_C, m=LCG_M, x0=LCG_X0, block=1 << 16):
    """The first *n* numbers x1..xn of LCG(a, c, m, x0), x_{k+1} = (a x_k + c) mod m.

    Computed in blocks with exact int64 arithmetic (m < 2**31, so every
    product is below 2**62).

    Parameters
    ----------
    n : int
        Count. [1]
    a, c, m, x0 : int
        Multiplier, increment, modulus (< 2**31) and seed.
    block : int
        Numbers produced per vectorised step. [1]

    Returns
    -------
    ndarray of int64, shape (n,)

    References
    ----------
    Xu (2002), §5.3.3, eq. (5.2).

    Examples
    --------
    >>> lcg_sequence(3).tolist()   # 16807, 16807^2 mod m, 16807^3 mod m
    [16807, 282475249, 1622650073]
    """
    n = check_positive_int("n", n, maximum=2**40)
    for name, v in (("a", a), ("c", c), ("m", m), ("x0", x0)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise ParameterError(f"{name} must be an integer, got {v!r}")
    if not 1 < m < 2**31:
        raise ParameterError(f"m must be in 2..2**31 - 1 (exact int64 products), got {m!r}")
    if not (0 <= a < m and 0 <= c < m and 0 <= x0 < m):
        raise ParameterError(f"a, c, x0 must be in [0, m), got a={a}, c={c}, x0={x0}")
    block = check_positive_int("block", block, maximum=MAX_BLOCK)
    # x_{k+j} = A_j x_k + C_j (mod m) with A_j = a^j, C_j = c (a^j - 1)/(a - 1)
    A = np.empty(block, dtype=np.int64)
    C = np.empty(block, dtype=np.int64)
    aj, cj = 1, 0
    for j in range(block):
        aj, cj = (aj * a) % m, (cj * a + c) % m
        A[j], C[j] = aj, cj
    out = np.empty(n, dtype=np.int64)
    x, k = x0, 0
    while k < n:
        take = min(block, n - k)
        out[k:k + take] = (A[:take] * x + C[:take]) % m
        x = int(out[k + take - 1])
        k += take
    return out


def lcg_moments(n=20_000_000, a=LCG_A, c=LCG_C, m=LCG_M, x0=LCG_X0):
    """Mean and variance of the first *n* LCG numbers divided by *m*.

    Parameters
    ----------
    n : int
        (§5.3.3: 20,000,000)
    a, c, m, x0 : int

    Returns
    -------
    tuple of float
        (mean, population variance) of x_k / m, k = 1..n. [1]

    References
    ----------
    Xu (2002), §5.3.3 (printed: 0.4991 and 0.0831).

    Examples
    --------
    >>> mean, var = lcg_moments(1000)
    >>> 0.4 < mean < 0.6 and 0.07 < var < 0.1
    True
    """
    u = lcg_sequence(n, a, c, m, x0) / float(m)
    return float(u.mean()), float(u.var())


def lcg_period(a=LCG_A, m=LCG_M):
    """Period of the multiplicative LCG x_{k+1} = a x_k mod m (prime m, x0 != 0).

    The multiplicative order of *a* modulo the prime *m*: the smallest
    divisor d of m - 1 with a^d = 1 (mod m).

    Parameters
    ----------
    a, m : int
        Multiplier and prime modulus.

    Returns
    -------
    int

    References
    ----------
    Xu (2002), §5.3.3 (printed: 2,147,487,647).

    Examples
    --------
    >>> lcg_period(3, 7), lcg_period(2, 7)
    (6, 3)
    """
    for name, v in (("a", a), ("m", m)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 2:
            raise ParameterError(f"{name} must be an integer >= 2, got {v!r}")
    if m >= 2**31:
        raise ParameterError(f"m must be <= 2**31 - 1 (trial division of m - 1 stays short), "
                             f"got {m!r}")
    if a >= m:
        raise ParameterError(f"a must be in [2, m={m}), got {a!r}")
    if pow(a, m - 1, m) != 1:
        raise ParameterError(f"m must be a prime not dividing a (a^(m-1) = 1 mod m), got m={m}")
    order = m - 1
    for q in _prime_factors(m - 1):
        while order % q == 0 and pow(a, order // q, m) == 1:
            order //= q
    return order


def _prime_factors(n):
    """Distinct prime factors of *n* by trial division."""
    out, d = [], 2
    while d * d <= n:
        if n % d == 0:
            out.append(d)
            while n % d == 0:
                n //= d
        d += 1 if d == 2 else 2
    if n > 1:
        out.append(n)
    return out
