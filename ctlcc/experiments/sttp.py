# ctlcc.experiments.sttp - STTP's simulation study (Tables I-III, Figs. 4-5) on ctlcc's engine
"""STTP's experiments (Wade, Kara & Dew (2000), §III-IV) re-run with the STTP sender.

* :func:`table2` - fairness: 1, 2 and 4 greedy sources on the Fig. 3
  topology with every link at 128 kb/s, 2000 s, TCP Reno and STTP 9:1, 5:5,
  1:9 (:func:`ctlcc.sim.scenarios.sttp_table2`);
* :func:`experiment1` - Experiment 1 (Table III, Figs. 4-5): 10-200
  sources on Fig. 3, one every 4 s, 900 s, Reno, Vegas and STTP
  (:func:`ctlcc.sim.scenarios.sttp_experiment1`);
* :func:`table1` - Table I's packet counts of one greedy STTP source on a
  three-node path;
* :func:`claims` - the paper's statements about them
  (``data/sttp_sim_published.csv``, Tables II-III in
  ``data/sttp_table2_fairness.csv`` and ``data/sttp_table3_experiment1.csv``)
  as :class:`~ctlcc.claims.Claim` records.

Readings where the paper is silent (each in the scenario builders'
docstrings): 1000-byte packets on the wire and 40-byte ACKs; Table II's
sources start 4 s apart as in Experiment 1; Table II keeps Fig. 3's
latencies; the receiver window is 20 packets (:data:`MAX_WINDOW`), the
default ``window_`` of ns-2's TCP agents, which the paper's simulator ran:
with it ten Reno sources send 226,447,000 bytes and drop 1,331,000 in 900 s
against Table III's 226,345,000 and 1,264,000 (+0.05 %, +5 %), with
ctlcc's default 4096 they drop 2,530,000 (2x).  Counts are data packets put on the wire ("transmitted",
retransmissions included) and packets dropped, as Tables II-III count them;
the paper's STTP bytes also include an 80-byte probe per flow, ours probe
with the first two data segments.

Findings (ctlcc vs the paper; measured with the defaults of this module):

* **The weights do not matter under §III-B.3's reading.**  A greedy source
  spends every token the moment its ACK returns, so the bucket holds less
  than one token and scaling "the tokens in the bucket" changes nothing the
  sender does: 9:1, 5:5 and 1:9 send identical counts (2 sources: 21364 and
  10655 packets, Jain 0.899; 4 sources: Jain 0.890), against the paper's
  9:1 unfair (0.84, 0.75) and 5:5, 1:9 fair (0.99, 0.98).  The first source
  keeps the share its one-second bucket gave it.  Scaling the tokens "in
  operation" (§IV-B.1, ``Sttp(tokens="in_operation")``) makes the weights
  matter but does not reach 0.99 either (0.87-0.93).
* **The paper's Jain 0.75 (STTP 9:1, 4 sources) is not the index of its own
  Table II counts** (0.8498).
* **STTP loses as much as Reno in Experiment 1.**  The probe sets the bucket
  to one second of the bottleneck's rate (250 packets at 2 Mb/s), twice the
  128-packet queue; the ACK clock conserves the tokens in flight and only
  a loss removes one, so the queue stays full: ten STTP sources drop
  12,315,000 bytes (paper: none), and the loss ratio to Reno is 9.3 at 10
  sources, 1.9 at 20 and 0.76-1.3 from 30 on (paper: below 0.5 everywhere,
  at most 0.126).  Probes that
  meet the full queue are lost and those sources never start (0 of 10, 7 of
  50, 20 of 100, 45 of 200), the paper's "low bytes 80" rows, which Table
  III shows from 40 sources on.
* Goodput is the link's 225 MB for every protocol (reproduced).  Reno's
  row at 10 sources matches Table III with the 20-packet window (sent
  +0.05 %, dropped +5 %); with more sources ctlcc's Reno and Vegas drop
  about 20-35 % more than the table (200 sources: Reno 49.1 MB vs 40.5,
  Vegas 59.3 MB vs 43.7).
"""

import csv
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .. import _data
from .._validation import check_interval, check_nonnegative, check_sequence
from ..errors import ParameterError
from ..sim import run
from ..sim import scenarios as S
from ..bounds.fairness import jain_index
from ..sim.senders import Reno, Sttp, Vegas
from . import _args
from ._args import checked
from ._published import read_published

__all__ = ["CONFIGS", "EXP1_PROTOCOLS", "PAPER_COUNTS", "QUICK_COUNTS", "Table2Result",
           "Experiment1Result", "Table1Result", "published", "published_table2",
           "published_table3", "sender", "table2", "experiment1", "table1", "run_all", "claims"]

PUBLISHED_FILE = "sttp_sim_published.csv"
TABLE2_FILE = "sttp_table2_fairness.csv"
TABLE3_FILE = "sttp_table3_experiment1.csv"

#: Table II's protocols, by the paper's names.
CONFIGS = ("TCP Reno", "STTP 9:1", "STTP 5:5", "STTP 1:9")
#: Experiment 1's protocols, by Table III's names.
EXP1_PROTOCOLS = ("Reno", "Vegas", "STTP")
#: Experiment 1's source counts (10, 20, ..., 200), which the report and the ledger run
#: (Table III's cells are judged per count), and the reduced grid of ``run_all(quick=True)``.
PAPER_COUNTS = tuple(range(10, 201, 10))
QUICK_COUNTS = (10, 50, 100, 200)
#: Table II run length, Experiment 1 run length. [s]
TABLE2_DURATION, EXP1_DURATION = 2000.0, 900.0
#: Receiver window of every source (ns-2's default ``window_``). [packets]
MAX_WINDOW = 20
#: Longest run these functions accept. [s]
MAX_DURATION = 20000.0
_EVIDENCE = "ctlcc.experiments.sttp"


def sender(name):
    """The sender spec of a protocol named as in Tables II-III.

    Examples
    --------
    >>> sender("STTP 5:5")
    Sttp(alpha=0.5, beta=0.5, threshold=0.05, factor='ratio', tokens='bucket', clock='ack', probe_retry=False)
    """
    if name in ("TCP Reno", "Reno"):
        return Reno()
    if name == "Vegas":
        return Vegas()
    if name == "STTP":
        return Sttp()
    if isinstance(name, str) and name.startswith("STTP ") and name[5:] in ("9:1", "5:5", "1:9"):
        a, b = (int(x) / 10 for x in name[5:].split(":"))
        return Sttp(alpha=a, beta=b)
    raise ParameterError(f"name must be one of {', '.join(map(repr, CONFIGS + EXP1_PROTOCOLS))}"
                         f"; got {name!r}")


@dataclass(frozen=True)
class Table2Result:
    """Table II re-run.

    Attributes
    ----------
    configs : tuple of str
    sources : tuple of int
    sent, dropped : dict
        ``(config, n) -> ndarray`` of packets each source sent / lost. [packets]
    duration, start_interval : float
        [s]
    """

    configs: tuple
    sources: tuple
    sent: dict
    dropped: dict
    duration: float
    start_interval: float

    def jain(self, config, n):
        """Jain's index of the packets the n sources sent. [1]"""
        return float(jain_index(self.sent[config, n]))


@dataclass(frozen=True)
class Experiment1Result:
    """Experiment 1 re-run (Table III's columns).

    Attributes
    ----------
    protocols : tuple of str
    counts : tuple of int
    bytes_tx, bytes_drop, mean_bytes, high_bytes, low_bytes : ndarray
        ``[protocol, count]``, Table III's columns. [bytes]
    timeouts : ndarray
        Timeouts of all sources. [1]
    silent : ndarray
        STTP sources whose probe never came back (sent two segments only). [1]
    duration : float
        [s]
    """

    protocols: tuple
    counts: tuple
    bytes_tx: np.ndarray
    bytes_drop: np.ndarray
    mean_bytes: np.ndarray
    high_bytes: np.ndarray
    low_bytes: np.ndarray
    timeouts: np.ndarray
    silent: np.ndarray
    duration: float

    @property
    def goodput_bytes(self):
        """Bytes sent minus bytes dropped (the paper's goodput, Fig. 4). [bytes]"""
        return self.bytes_tx - self.bytes_drop


@dataclass(frozen=True)
class Table1Result:
    """Table I's packet counts of one greedy STTP source.

    Attributes
    ----------
    rows : tuple of dict
        Per row of Table I: network, duration [s], published packets,
        ctlcc packets sent and ACKs received.
    """

    rows: tuple


def published(claim_id=None):
    """The paper's statements (``data/sttp_sim_published.csv``).

    Examples
    --------
    >>> published("table2_jain_91_2")["value"]
    0.84
    """
    return read_published(PUBLISHED_FILE, claim_id)


def published_table2():
    """Table II: ``(config, n) -> (sent, dropped)`` arrays per source. [packets]"""
    out = {}
    with _data.path(TABLE2_FILE).open(newline="") as handle:
        for row in csv.DictReader(handle):
            key = (row["protocol"], int(row["sources"]))
            sent, dropped = out.get(key, ([], []))
            sent.append(int(row["packets_tx"]))
            dropped.append(int(row["packets_dropped"]))
            out[key] = (sent, dropped)
    return {k: (np.array(v[0]), np.array(v[1])) for k, v in out.items()}


def published_table3():
    """Table III: ``protocol -> dict of column -> ndarray over the counts``. [bytes]"""
    with _data.path(TABLE3_FILE).open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    out = {}
    for p in EXP1_PROTOCOLS:
        mine = sorted((r for r in rows if r["protocol"] == p), key=lambda r: int(r["num_sources"]))
        out[p] = {c: np.array([float(r[c]) for r in mine])
                  for c in ("num_sources", "bytes_tx", "bytes_drop", "mean_bytes", "high_bytes",
                            "low_bytes")}
    return out


@checked(configs=_args.choices(CONFIGS),
         sources=_args.distinct_of(lambda name, n: _check_count(name, n, 64)))
def table2(configs=CONFIGS, sources=(1, 2, 4), duration=TABLE2_DURATION, start_interval=4.0,
           seed=0, max_window=MAX_WINDOW):
    """Table II: packets sent and dropped per source.

    Parameters
    ----------
    configs : sequence of str
        Names of :data:`CONFIGS`.
    sources : sequence of int
        Numbers of sources (the paper: 1, 2, 4).
    duration : float
        Run length (the paper: 2000 s). [s]
    start_interval : float
        Time between source starts (not given by the paper). [s]
    seed : int
    max_window : int
        Receiver window of every source. [packets]

    Returns
    -------
    Table2Result
    """
    configs = tuple(_check_names("configs", configs, CONFIGS))
    sources = tuple(check_sequence("sources", sources, lambda name, n: _check_count(name, n, 64)))
    duration = _check_duration(duration)
    start_interval = float(check_nonnegative("start_interval", start_interval, scalar=True))
    tcp = S.TcpOptions(max_window=max_window)
    return _table2(configs, sources, duration, start_interval, int(seed), tcp)


@lru_cache(maxsize=8)
def _table2(configs, sources, duration, start_interval, seed, tcp):
    sent, dropped = {}, {}
    for config in configs:
        for n in sources:
            r = run(S.sttp_table2(sender(config), n=n, start_interval=start_interval, tcp=tcp),
                    duration, seed=seed, progress=False)
            sent[config, n] = np.array([f.sent for f in r.flows])
            dropped[config, n] = np.array([f.dropped for f in r.flows])
    return Table2Result(configs, sources, sent, dropped, duration, start_interval)


@checked(protocols=_args.choices(EXP1_PROTOCOLS),
         counts=_args.distinct_of(lambda name, n: _check_count(name, n, 1000)))
def experiment1(counts=PAPER_COUNTS, protocols=EXP1_PROTOCOLS, duration=EXP1_DURATION,
                start_interval=4.0, seed=0, max_window=MAX_WINDOW):
    """Experiment 1: Table III's columns for every count and protocol.

    Parameters
    ----------
    counts : sequence of int
        Numbers of sources (the paper: 10, 20, ..., 200).
    protocols : sequence of str
        Names of :data:`EXP1_PROTOCOLS`.
    duration : float
        Run length (the paper: 900 s). [s]
    start_interval : float
        One source starts every *start_interval* seconds (the paper: 4 s). [s]
    seed : int
    max_window : int
        Receiver window of every source. [packets]

    Returns
    -------
    Experiment1Result
    """
    counts = tuple(check_sequence("counts", counts, lambda name, n: _check_count(name, n, 1000)))
    protocols = tuple(_check_names("protocols", protocols, EXP1_PROTOCOLS))
    duration = _check_duration(duration)
    start_interval = float(check_nonnegative("start_interval", start_interval, scalar=True))
    tcp = S.TcpOptions(max_window=max_window)
    return _experiment1(counts, protocols, duration, start_interval, int(seed), tcp)


@lru_cache(maxsize=8)
def _experiment1(counts, protocols, duration, start_interval, seed, tcp):
    shape = (len(protocols), len(counts))
    cols = {k: np.zeros(shape) for k in ("tx", "drop", "mean", "high", "low", "to", "silent")}
    for i, p in enumerate(protocols):
        for j, n in enumerate(counts):
            sc = S.sttp_experiment1(sender(p), n=n, start_interval=start_interval, tcp=tcp)
            r = run(sc, duration, seed=seed, progress=False)
            size = sc.data_bits / 8
            tx = np.array([f.sent for f in r.flows]) * size
            cols["tx"][i, j] = tx.sum()
            cols["drop"][i, j] = sum(f.dropped for f in r.flows) * size
            cols["mean"][i, j] = tx.mean()
            cols["high"][i, j] = tx.max()
            cols["low"][i, j] = tx.min()
            cols["to"][i, j] = sum(f.timeouts for f in r.flows)
            cols["silent"][i, j] = sum(1 for st in r.sender_state
                                       if st and not st.get("started", True))
    return Experiment1Result(protocols, counts, cols["tx"], cols["drop"], cols["mean"],
                             cols["high"], cols["low"], cols["to"], cols["silent"], duration)


def table1():
    """Table I's simulated packet counts: one greedy STTP source on a three-node path.

    The rows with equal links ("64Kb links with 1ms latency", "128Kb links
    with 0.5ms latency") run on sender - router - receiver with both links
    alike (§III-B.1's three-node topology); the two rows with mixed links
    are left out (their topology is not given).

    Returns
    -------
    Table1Result
    """
    rows = []
    with _data.path("sttp_table1_poisson.csv").open(newline="") as handle:
        for row in csv.DictReader(handle):
            name = row["network"]
            if not name.endswith("latency"):
                continue
            rate = float(row["bottleneck_bps"])
            delay = 1e-3 if "1ms" in name else 0.5e-3
            links = (S.Link("S", "R", rate, delay, 128), S.Link("R", "D", rate, delay, 128))
            sc = S.Scenario("sttp_table1", links, (S.Flow(("S", "R", "D"), sender=Sttp()),),
                            (("R", "D"),), payload_bytes=1000, header_bytes=0, ack_bytes=40)
            r = run(sc, float(row["duration_s"]), progress=False)
            rows.append(dict(network=name, duration=float(row["duration_s"]),
                             published_tx=int(row["sim_packets_tx"]),
                             published_acks=int(row["sim_acks"]),
                             poisson=int(row["poisson_tokens"]),
                             sent=r.flows[0].sent, acks=r.flows[0].delivered,
                             capacity=rate * float(row["duration_s"]) / sc.data_bits))
    return Table1Result(tuple(rows))


@checked()
def run_all(quick=True):
    """Every experiment (quick: Experiment 1 on :data:`QUICK_COUNTS` only).

    Returns
    -------
    dict
        ``table1``, ``table2``, ``experiment1``.
    """
    return dict(table1=table1(), table2=table2(),
                experiment1=experiment1(QUICK_COUNTS if quick else PAPER_COUNTS))


@checked()
def claims(results=None, quick=True):
    """The paper's claims on these experiments, judged.

    The records (the paper's words and numbers, the tolerances and their
    basis) are declared in ``data/ledger_sttp.csv``; the measurements are
    the units of :mod:`ctlcc.claims.sttp_sim`.

    Parameters
    ----------
    results : dict, optional
        Output of :func:`run_all` (run here when None), or a subset of its keys.
    quick : bool

    Returns
    -------
    list of Claim
    """
    from ..claims import paper_claims

    res = run_all(quick) if results is None else results
    return paper_claims("sttp", res, section="sttp_sim")


def _check_names(name, values, choices):
    values = check_sequence(name, values, min_length=1)
    for v in values:
        if v not in choices:
            raise ParameterError(f"{name} must hold names of {', '.join(map(repr, choices))}; "
                                 f"got {v!r}")
    return values


def _check_count(name, n, maximum):
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 1 <= n <= maximum:
        raise ParameterError(f"{name} must be an integer in 1..{maximum}, got {n!r}")
    return int(n)


def _check_duration(duration):
    return float(check_interval("duration", duration, 0.0, MAX_DURATION, closed="right",
                                scalar=True))
