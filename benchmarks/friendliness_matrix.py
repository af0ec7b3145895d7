# benchmarks/friendliness_matrix.py - TCP-friendliness of the papers' rate senders (issue 22 §1)
"""IFTP, CBRAA, TCP-Friend, TFRC and STTP against NewReno over RTT, buffer and flow count.

Each cell: ``k`` flows of the protocol and ``k`` NewReno flows on a
dumbbell (2 Mb/s bottleneck, 10 Mb/s access links, every flow the same
base RTT), flows starting uniformly in [0, 1) s, run for ``DURATION``
seconds, goodput measured after ``WARMUP``; ``SEEDS`` seeds.  The
friendliness ratio is the protocol's mean goodput over NewReno's (1 =
TCP-friendly; the papers claim "friendly" without a number, so no verdict
is attached here: these are findings, not claims).  Also recorded: each
side's timeouts, the protocol's loss reactions where it counts them
(IFTP), the bottleneck's mean queue and loss rate.

Grid (the papers' senders with their defaults, IFTP also with
``pacing="continuous"``)::

    base RTT      24, 100 ms          (2 x (1 + 10 + 1) ms; 2 x (1 + 48 + 1) ms)
    buffer        0.25, 1, 2 BDP      (of the base RTT at 2 Mb/s)
    flow count    1+1, 4+4

Usage::

    python benchmarks/friendliness_matrix.py                      # print the table
    python benchmarks/friendliness_matrix.py --write-data          # data/friendliness_matrix.csv
    python benchmarks/friendliness_matrix.py --protocol iftp --rtt 0.024
"""

import argparse
import datetime
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ctlcc.references import short  # noqa: E402
from ctlcc.sim import run  # noqa: E402
from ctlcc.sim.ns3 import write_ns3_csv  # noqa: E402
from ctlcc.sim.scenarios import dumbbell  # noqa: E402
from ctlcc.sim.senders import Cbraa, Iftp, Sttp, TcpFriend, Tfrc  # noqa: E402

RATE = 2e6
ACCESS_RATE = 10e6
PACKET_BITS = 8 * 1054
DURATION, WARMUP = 100.0, 10.0
SEEDS = (1, 2, 3)
RTTS = (0.024, 0.1)
BUFFERS_BDP = (0.25, 1.0, 2.0)
COUNTS = (1, 4)
#: The paper (bibliography key) whose law each sender runs.
PAPER = {"iftp": "iftp", "iftp_continuous": "iftp", "cbraa": "cbraa", "tcpfriend": "cbraa",
         "tfrc": "rfc5348", "sttp": "sttp"}
PROTOCOLS = {
    "iftp": Iftp(),
    "iftp_continuous": Iftp(pacing="continuous"),
    "cbraa": Cbraa(),
    "tcpfriend": TcpFriend(),
    "tfrc": Tfrc(),
    "sttp": Sttp(),
}


def scenario(spec, rtt, buffer_bdp, count, seed):
    """k flows of *spec* then k NewReno flows, base RTT *rtt*, buffer in BDPs."""
    access = rtt / 4.0 - 5e-3 / 2.0       # access = egress, bottleneck 5 ms
    buffer = max(2, int(round(buffer_bdp * RATE * rtt / PACKET_BITS)))
    starts = np.random.default_rng(seed).uniform(0.0, 1.0, 2 * count)
    return dumbbell(2 * count, access_rate=ACCESS_RATE, access_delay=access,
                    bottleneck_rate=RATE, bottleneck_delay=5e-3, buffer=buffer,
                    protocol=[spec] * count + ["newreno"] * count,
                    start=[float(s) for s in starts], name="friendliness")


def cell(name, rtt, buffer_bdp, count, seeds=SEEDS):
    """One grid cell: the mean over seeds of every recorded quantity."""
    spec = PROTOCOLS[name]
    rows = []
    for seed in seeds:
        sc = scenario(spec, rtt, buffer_bdp, count, seed)
        head = run(sc, WARMUP, seed=seed, progress=False)
        whole = run(sc, DURATION, seed=seed, progress=False)
        bits = 8 * sc.payload_bytes
        good = np.array([(w.delivered_unique - h.delivered_unique) * bits
                         for w, h in zip(whole.flows, head.flows)]) / (DURATION - WARMUP)
        proto, reno = good[:count].mean(), good[count:].mean()
        state = whole.sender_state[:count]
        rows.append(dict(
            ratio=proto / reno if reno > 0 else np.inf,
            goodput_protocol=proto, goodput_newreno=reno,
            timeouts_protocol=np.mean([f.timeouts for f in whole.flows[:count]]),
            timeouts_newreno=np.mean([f.timeouts for f in whole.flows[count:]]),
            loss_reactions_protocol=np.mean([s.get("loss_reactions", np.nan) for s in state]),
            loss_protocol=np.mean([f.loss_rate for f in whole.flows[:count]]),
            loss_newreno=np.mean([f.loss_rate for f in whole.flows[count:]]),
            queue_mean=whole.queues[0].mean,
            buffer=sc.links[0].buffer))
    out = {k: float(np.mean([r[k] for r in rows])) for k in rows[0]}
    ratios = np.array([r["ratio"] for r in rows])
    out["ratio_se"] = float(ratios.std(ddof=1) / np.sqrt(len(ratios))) if len(ratios) > 1 \
        else float("nan")
    return out


#: IFTP next to NewReno on the issue's example (2 Mb/s 10 ms, 30 packets, 200 s):
#: one factor changed at a time.
IFTP_VARIANTS = {
    "figure1 (default)": Iftp(),
    "pacing=continuous": Iftp(pacing="continuous"),
    "after_missing_thresh=2": Iftp(after_missing_thresh=2),
    "after_missing_thresh=1": Iftp(after_missing_thresh=1),
    "timer +0.05 s (granularity)": Iftp(granularity=0.05),
    "timer +0.2 s (granularity)": Iftp(granularity=0.2),
    "timer +0.5 s (granularity)": Iftp(granularity=0.5),
}


def iftp_mechanism(duration=200.0, seed=0):
    """Rows of the IFTP collapse study (see IFTP_VARIANTS)."""
    rows = []
    for label, spec in IFTP_VARIANTS.items():
        sc = dumbbell(2, bottleneck_rate=2e6, bottleneck_delay=10e-3, buffer=30,
                      protocol=[spec, "newreno"], name="iftp_issue22")
        r = run(sc, duration, seed=seed, progress=False, trace=True, sample_interval=5e-4)
        tr = r.traces
        window, time_ = tr.window[:, 0], tr.time
        acks = tr.rtt[tr.rtt[:, 1] == 0][:, 0]
        drops = tr.drops[tr.drops[:, 1] == 0][:, 0]
        # timeouts: the emulated window falls to 1 (Figure 1's Timeout routine)
        at = time_[1:][(window[1:] == 1) & (window[:-1] > 1)]
        since_ack, drop_before, silent = [], [], []
        for t in at:
            last = acks[acks < t].max() if np.any(acks < t) else np.nan
            since_ack.append(t - last)
            drop_before.append(bool(np.any((drops < t) & (drops > last - 0.5))))
            i, j = np.searchsorted(time_, [last, t])
            silent.append(int(tr.sent[j, 0] - tr.sent[i, 0]) <= 1)
        g = r.goodputs_bps
        st = r.sender_state[0]
        rows.append(dict(
            variant=label, share=g[0] / g[1], goodput_iftp=g[0], goodput_newreno=g[1],
            timeouts=r.flows[0].timeouts, loss_reactions=st["loss_reactions"],
            drops_iftp=len(drops), timeouts_seen=len(at),
            frac_timeouts_after_a_drop=float(np.mean(drop_before)) if at.size else np.nan,
            frac_timeouts_nothing_sent_since_last_ack=float(np.mean(silent)) if at.size
            else np.nan,
            median_time_since_last_ack=float(np.median(since_ack)) if at.size else np.nan,
            mean_window=float(np.nanmean(window)), queue_mean=r.queues[0].mean,
            source=f"{short('iftp')}: Figure 1 and eqs. (7)-(9); measured by ctlcc's packet "
                   f"engine"))
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--protocol", action="append", choices=list(PROTOCOLS))
    parser.add_argument("--rtt", action="append", type=float)
    parser.add_argument("--write-data", action="store_true",
                        help="rewrite data/friendliness_matrix.csv (full grid only)")
    parser.add_argument("--iftp-mechanism", action="store_true",
                        help="the IFTP collapse study (data/friendliness_iftp_mechanism.csv "
                        "with --write-data)")
    args = parser.parse_args(argv)
    if args.iftp_mechanism:
        rows = iftp_mechanism()
        for row in rows:
            print({k: (round(v, 3) if isinstance(v, float) else v) for k, v in row.items()
                   if k != "source"})
        if args.write_data:
            prov = {"source": "ctlcc packet engine, benchmarks/friendliness_matrix.py",
                    "date": datetime.datetime.now(datetime.timezone.utc).strftime(
                        "%Y-%m-%d %H:%M UTC"),
                    "setup": "1 IFTP + 1 NewReno, dumbbell 2 Mb/s 10 ms bottleneck, 30-packet "
                             "buffer, 10 Mb/s 1 ms access, 200 s, seed 0 (issue 22's example)",
                    "columns": "timeouts_seen/frac_*: timeouts found as the emulated window "
                               "falling to 1 in 0.5-ms samples; a drop of the IFTP flow between "
                               "0.5 s before the last ACK and the timeout; at most the "
                               "timeout's own packet sent since the last ACK",
                    "command": "python benchmarks/friendliness_matrix.py --iftp-mechanism "
                               "--write-data"}
            write_ns3_csv(ROOT / "data" / "friendliness_iftp_mechanism.csv", rows, prov)
            print("wrote data/friendliness_iftp_mechanism.csv")
        return
    names = args.protocol or list(PROTOCOLS)
    rtts = args.rtt or list(RTTS)
    if args.write_data and (args.protocol or args.rtt):
        parser.error("--write-data needs the full grid")
    print(f"{'protocol':>16} {'RTT':>5} {'buf':>5} {'k':>2} {'ratio':>6} {'+-':>5} "
          f"{'TO prot':>7} {'TO reno':>7} {'react':>6} {'loss p':>7} {'loss r':>7} {'queue':>6}")
    rows = []
    t0 = time.perf_counter()
    for name in names:
        for rtt in rtts:
            for bdp in BUFFERS_BDP:
                for count in COUNTS:
                    c = cell(name, rtt, bdp, count)
                    print(f"{name:>16} {rtt * 1e3:5.0f} {bdp:5.2f} {count:2d} {c['ratio']:6.2f} "
                          f"{c['ratio_se']:5.2f} {c['timeouts_protocol']:7.1f} "
                          f"{c['timeouts_newreno']:7.1f} {c['loss_reactions_protocol']:6.1f} "
                          f"{c['loss_protocol']:7.4f} {c['loss_newreno']:7.4f} "
                          f"{c['queue_mean']:6.1f}", flush=True)
                    rows.append(dict(protocol=name, rtt_s=rtt, buffer_bdp=bdp,
                                     buffer_packets=int(c.pop("buffer")), flows_each=count,
                                     **c, source=f"{short(PAPER[name])}: the sender's law; "
                                     f"measured by ctlcc's packet engine"))
    print(f"{len(rows)} cells in {time.perf_counter() - t0:.0f} s")
    if args.write_data:
        prov = {
            "source": "ctlcc packet engine (ctlcc.sim.run), benchmarks/friendliness_matrix.py",
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "seeds": " ".join(map(str, SEEDS)),
            "setup": (f"dumbbell, {RATE / 1e6:g} Mb/s 5 ms bottleneck, {ACCESS_RATE / 1e6:g} Mb/s "
                      f"access and egress, k protocol + k NewReno flows, equal base RTTs, starts "
                      f"uniform in [0, 1) s, {DURATION:g} s runs, goodput after {WARMUP:g} s"),
            "columns": ("ratio = mean goodput of the protocol's flows / NewReno's (mean over "
                        "seeds), ratio_se its standard error; timeouts and loss reactions per "
                        "flow; loss = dropped/sent"),
            "command": "python benchmarks/friendliness_matrix.py --write-data",
        }
        write_ns3_csv(ROOT / "data" / "friendliness_matrix.csv", rows, prov)
        print("wrote data/friendliness_matrix.csv")


if __name__ == "__main__":
    main()
