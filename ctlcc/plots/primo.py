# ctlcc.plots.primo - figures of Primo's loop (Chatté, Ducourthial & Niculescu (2006))
"""Figures and tables of Primo's z-domain loop, limit cycle and sharing."""

import csv
from pathlib import Path

import numpy as np

from .. import _data
from ..references import cite
from ..analysis.primo import PAPER_SCENARIO, REGIMES, primo_loop, primo_shared_loop, \
    spectral_radius_map
from ..laws.primo import PrimoParams
from . import ReportFigure, ReportTable, get_axes, new_figure

__all__ = [
    "plot_regime_poles",
    "plot_phase_portrait",
    "plot_trace",
    "plot_shares",
    "occupancy_prediction_table",
    "fairness_prediction_table",
    "paper_number",
    "write_prediction_csvs",
    "report_items",
]

PAPER = f"Primo ({cite('primo')})"
_REGIME_STYLE = {"strong": ("x", "C3"), "moderate": ("+", "C1"), "hold": ("s", "0.4"),
                 "release": ("o", "C2")}


def paper_number(quantity):
    """A number printed in the paper, from ``data/primo_paper_numbers.csv``."""
    for row in _data.read_csv("primo_paper_numbers.csv"):
        if row["quantity"] == quantity:
            return float(row["value"])
    raise KeyError(quantity)


def plot_regime_poles(loop, ax=None):
    """Poles of the rate loop of every regime, with the unit circle.

    Parameters
    ----------
    loop : PrimoLoop
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = get_axes(ax)
    theta = np.linspace(0, 2 * np.pi, 400)
    ax.plot(np.cos(theta), np.sin(theta), color="0.6", lw=0.8, label="unit circle")
    for regime in REGIMES:
        poles = loop.poles(regime)
        marker, color = _REGIME_STYLE[regime]
        size = 9 if regime == "hold" else 6
        label = regime if regime == "hold" else f"{regime} (F={loop.params.factor(regime):g})"
        ax.plot(poles.real, poles.imag, linestyle="none", marker=marker, color=color,
                mfc="none", ms=size, label=label)
    ax.set_aspect("equal")
    ax.set_xlabel("Re z [1]")
    ax.set_ylabel("Im z [1]")
    ax.legend(loc="lower left", fontsize="small")
    return ax


def plot_trace(trace, ax=None, what="queue", **kwargs):
    """Queue [packets] or rate [packets/s] of a :class:`PrimoTrace` against time."""
    ax = get_axes(ax)
    values = trace.queue if what == "queue" else trace.rate
    ax.plot(trace.time, values, **kwargs)
    ax.set_xlabel("time [s]")
    ax.set_ylabel("queue [packets]" if what == "queue" else "sending rate [packets/s]")
    return ax


def plot_phase_portrait(loop, ax=None, trace=None, cycles=None):
    """Queue vs rate: the law on the nonlinear queue and both predictions.

    Parameters
    ----------
    loop : PrimoLoop
    ax : matplotlib.axes.Axes, optional
    trace : PrimoTrace, optional
        A law trajectory to draw (default: simulated here).
    cycles : tuple of PrimoLimitCycle, optional
        Predicted cycles to overlay (default: "iterate" and "analytic").

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = get_axes(ax)
    if cycles is None:
        cycles = (loop.limit_cycle(), loop.limit_cycle(method="analytic"))
    if trace is None:
        trace = loop.simulate(6.0 + 2 * cycles[0].period, model="law")
    ax.plot(trace.queue, trace.rate, color="0.75", lw=0.8, label="law on nonlinear queue (from start)")
    styles = {"iterate": dict(color="C0", lw=2.0), "analytic": dict(color="C3", lw=1.4, ls="--")}
    names = {"iterate": "piecewise-linear map (exact iteration)",
             "analytic": "first-order reduction (closed form)"}
    for cycle in cycles:
        ax.plot(cycle.orbit_queue, cycle.orbit_rate, label=f"{names[cycle.method]}: "
                f"mean queue {cycle.mean_queue:.2f} pkt", **styles[cycle.method])
    for level, name in zip(loop.queue_thresholds(), ("TH_str", "TH_mod", "TH_rel")):
        ax.axvline(level, color="0.5", lw=0.6, ls=":")
        ax.annotate(name, (level, 1.0), xycoords=("data", "axes fraction"), rotation=90,
                    va="top", ha="right", fontsize="x-small", color="0.4")
    ax.axhline(loop.capacity, color="0.5", lw=0.6, ls="-.", label="capacity C")
    ax.set_xlabel("queue [packets]")
    ax.set_ylabel("sending rate [packets/s]")
    ax.legend(loc="lower right", fontsize="x-small")
    return ax


def plot_shares(trace, ax=None, labels=None):
    """Share of each flow's sending rate against time."""
    ax = get_axes(ax)
    total = trace.rates.sum(axis=1, keepdims=True)
    shares = np.divide(trace.rates, total, out=np.zeros_like(trace.rates), where=total > 0)
    for i in range(shares.shape[1]):
        ax.plot(trace.time, shares[:, i], label=None if labels is None else labels[i])
    ax.set_xlabel("time [s]")
    ax.set_ylabel("share of the sending rate [1]")
    ax.set_ylim(-0.02, 1.02)
    return ax


def occupancy_prediction_table(rates_bps=(1e6, 2e6, 4e6, 8e6, 16e6)):
    """Predicted mean queue over the paper's bandwidth sweep (§V-A).

    One flow stands for the two equal-RTT flows of the sweep: with equal
    delays their summed rates obey the one-flow loop exactly.

    Returns
    -------
    ReportTable
    """
    buffer = paper_number("buffer")
    claim = paper_number("queue_occupancy_fraction")
    rows = []
    for rate in rates_bps:
        capacity = rate / (8 * PAPER_SCENARIO["packet_size"])
        loop = primo_loop(capacity=capacity, round_trip_time=paper_number("round_trip_time_first_flow"),
                          buffer=buffer)
        cycle = loop.limit_cycle()
        rows.append((float(rate), float(capacity), cycle.mean_queue, cycle.mean_queue / buffer,
                     cycle.queue_min, cycle.queue_max, cycle.period, claim,
                     cite("primo", "§V-A"),
                     "model: primo_loop(...).limit_cycle(), 1000-byte packets, RTT 24 ms"))
    return ReportTable(
        "primo_paper_sec5a_queue_occupancy",
        "Mean bottleneck queue of Primo's limit cycle (piecewise-linear map) over the paper's "
        "1-16 Mb/s sweep, 30-packet buffer, RTT 24 ms, 1000-byte packets (our choice); the paper "
        "reports the queue 'about 10% full' (§V-A).",
        ("shared_link_rate_bps", "capacity_pkts", "mean_queue_pkts", "mean_queue_fraction",
         "queue_min_pkts", "queue_max_pkts", "period_s", "paper_fraction", "source", "note"),
        tuple(rows),
    )


def fairness_prediction_table(second_rtts=(0.024, 0.044, 0.074, 0.122), capacity=250.0,
                              duration=20.0):
    """Two-flow fairness vs the second flow's RTT (§V-D), law on the shared queue.

    Flow 1: RTT 24 ms, access delay 1 ms; flow 2: access delay
    ``(RTT_2 - 0.022) / 2``.  Both start at once at the capacity (what the
    4-packet burst measures).  Fairness is the paper's criterion over the
    last half of the run, with each flow's own FTT_ref (as printed) and with
    one common FTT_ref (thresholds in seconds).

    Returns
    -------
    ReportTable
    """
    claim = paper_number("fairness_heterogeneous_rtt")
    rows = []
    for rtt in second_rtts:
        forward = (0.001, (rtt - 0.022) / 2)
        own = primo_shared_loop(capacity=capacity, round_trip_times=(0.024, rtt),
                                forward_delays=forward)
        common = primo_shared_loop(capacity=capacity, round_trip_times=(0.024, rtt),
                                   forward_delays=forward, ftt_refs=(0.012, 0.012))
        own_trace, common_trace = own.simulate(duration), common.simulate(duration)
        rows.append((float(rtt), own_trace.shares()[0], own_trace.fairness(),
                     common_trace.shares()[0], common_trace.fairness(), claim,
                     cite("primo", "§V-D"),
                     f"C={capacity:g} pkt/s, {duration:g} s, last half averaged"))
    return ReportTable(
        "primo_paper_sec5d_fairness",
        "Two Primo flows (RTT 24 ms and 24-122 ms) on one bottleneck, the law iterated on the "
        "shared nonlinear queue: share of flow 1 and the paper's fairness criterion with per-flow "
        "FTT_ref thresholds (as printed) and with a common FTT_ref; the paper reports 98% (§V-D).",
        ("rtt_2_s", "share_1_own_ftt_ref", "fairness_own_ftt_ref", "share_1_common_ftt_ref",
         "fairness_common_ftt_ref", "paper_fairness", "source", "note"),
        tuple(rows),
    )


def write_prediction_csvs(out_dir):
    """Write the two prediction tables into the folder *out_dir* (run by hand).

    The repository keeps them in ``data/``: ``python -m ctlcc.plots.primo data``
    from a checkout regenerates them there.
    """
    paths = []
    for table in (occupancy_prediction_table(), fairness_prediction_table()):
        path = Path(out_dir) / f"{table.name}.csv"
        with path.open("w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(table.columns)
            writer.writerows(table.rows)
        paths.append(path)
    return paths


def report_items():
    """Figures and tables of Primo's loop for ``ctlcc report``."""
    params = PrimoParams()
    loop = primo_loop(capacity=1000.0, round_trip_time=0.024)

    figure, ax = new_figure(figsize=(6.0, 6.0))
    plot_regime_poles(loop, ax=ax)
    ax.set_title(f"{PAPER}: rate-loop poles per regime\nAlgorithm 1, m = {loop.m} slots "
                 f"(C = 1000 pkt/s, RTT 24 ms)")
    yield ReportFigure(
        "primo_algorithm1_regime_poles",
        "Poles of Primo's rate loop in each regime, derived by sympy from Algorithm 1 "
        "(paper parameters, m = 24): strong, moderate and release share the roots of "
        "z^m - W2 z^(m-1) - (1-W2)(1-W1) (F only moves the fixed point F*C); hold has z = 1 "
        "and z = 0 (m - 1 times).",
        figure,
    )

    figure, axes = new_figure(1, 2, figsize=(11.0, 4.4))
    w = np.linspace(0.02, 0.98, 49)
    radius = spectral_radius_map(w, w, m=loop.m)
    delays = np.unique(np.geomspace(1, 2000, 40).astype(int))
    by_delay = spectral_radius_map(w, m=delays)
    levels = np.linspace(np.floor(min(radius.min(), by_delay.min()) * 50) / 50, 1.0, 13)
    image = axes[0].contourf(w, w, radius.T, levels=levels, cmap="viridis")
    axes[0].plot(params.W1, params.W2, "r*", ms=10, label="paper (0.5, 0.9)")
    axes[0].set_xlabel("W1 [1]")
    axes[0].set_ylabel("W2 [1]")
    axes[0].set_title(f"spectral radius, m = {loop.m} slots")
    axes[0].legend(loc="lower left", fontsize="small")
    image = axes[1].contourf(w, delays, by_delay.T, levels=levels, cmap="viridis")
    axes[1].set_yscale("log")
    axes[1].set_xlabel("W1 [1]")
    axes[1].set_ylabel("delay m (update steps) [slots]")
    axes[1].set_title("spectral radius, W2 = 0.9")
    figure.colorbar(image, ax=axes, label="largest pole modulus [1] (all < 1: stable)")
    figure.suptitle(f"{PAPER}: stability maps of the strong/moderate/release loops")
    yield ReportFigure(
        "primo_stability_maps",
        "Largest pole modulus of the per-regime rate loop over (W1, W2) at m = 24 and over "
        "(W1, m) at W2 = 0.9: every point is stable (Rouché: W2 + (1-W2)(1-W1) < 1); the "
        "modulus tends to 1 (slow convergence) as W1 -> 0, W2 -> 1 or m grows.",
        figure,
    )

    iterate = loop.limit_cycle()
    analytic = loop.limit_cycle(method="analytic")
    trace = loop.simulate(8.0, model="law")
    figure, ax = new_figure(figsize=(7.0, 5.2))
    plot_phase_portrait(loop, ax=ax, trace=trace, cycles=(iterate, analytic))
    ax.set_title(f"{PAPER}: limit cycle, queue vs rate\nC = 1000 pkt/s, RTT 24 ms, D = RTT, "
                 "paper parameters")
    yield ReportFigure(
        "primo_limit_cycle_phase_portrait",
        "Phase portrait of Primo's regime-switching limit cycle: the law (next_rate) iterated on "
        "the nonlinear queue from an empty queue (grey), the exact iteration of the "
        "piecewise-linear map (blue) and the first-order closed-form reduction (red dashed).",
        figure,
    )

    rows = []
    window = trace.time > 4.0
    for name, cycle in (("iterate", iterate), ("analytic", analytic)):
        rows.append((name, cycle.period, cycle.queue_swing, cycle.rate_swing, cycle.mean_queue))
    rows.append(("law trace (4-8 s)", _trace_period(trace.time[window], trace.queue[window]),
                 float(np.ptp(trace.queue[window])), float(np.ptp(trace.rate[window])),
                 float(np.mean(trace.queue[window]))))
    yield ReportTable(
        "primo_limit_cycle_crosscheck",
        "Limit cycle at C = 1000 pkt/s, RTT 24 ms: period [s], queue swing [packets], rate swing "
        "[packets/s], mean queue [packets] from the two predictions and from the law trace "
        "(period: mean time between upward crossings of the trace's mean queue; mean over a "
        "non-whole number of cycles).",
        ("method", "period_s", "queue_swing_pkts", "rate_swing_pkts_per_s", "mean_queue_pkts"),
        tuple(rows),
    )

    figure, axes = new_figure(1, 3, figsize=(13.0, 4.0))
    th_rel = np.linspace(0.01, 0.17, 9)
    results = [primo_loop(PrimoParams(TH_rel=float(v)), capacity=1000.0,
                          round_trip_time=0.024).limit_cycle() for v in th_rel]
    axes[0].plot(th_rel, [c.mean_queue for c in results], "o-", label="mean queue")
    axes[0].plot(th_rel, [c.queue_swing for c in results], "s--", label="queue swing")
    axes[0].set_xlabel("TH_rel [FTT_ref] (TH_mod = 0.17, TH_str = 0.34)")
    th_mod = np.linspace(0.15, 0.34, 8)
    results = [primo_loop(PrimoParams(TH_mod=float(v)), capacity=1000.0,
                          round_trip_time=0.024).limit_cycle() for v in th_mod]
    axes[1].plot(th_mod, [c.mean_queue for c in results], "o-", label="mean queue")
    axes[1].plot(th_mod, [c.queue_swing for c in results], "s--", label="queue swing")
    axes[1].set_xlabel("TH_mod [FTT_ref] (TH_rel = 0.15, TH_str = 0.34)")
    for a in axes[:2]:
        a.set_ylabel("queue [packets]")
        a.legend(fontsize="small")
    taus = np.array([0.25, 0.5, 1.0, 1.5, 2.0])
    rtts = np.array([0.012, 0.024, 0.048, 0.096])
    for rtt in rtts:
        cycles = [primo_loop(capacity=1000.0, round_trip_time=float(rtt), D=float(t * rtt))
                  .limit_cycle() for t in taus]
        axes[2].plot(taus, [c.mean_queue / (rtt / 2 * 1000.0) for c in cycles], "o-",
                     label=f"RTT {rtt * 1e3:g} ms")
    axes[2].set_xlabel("D / RTT (tau) [1]")
    axes[2].set_ylabel("mean queue / (FTT_ref C) [1]")
    axes[2].set_ylim(0.0, 0.3)
    axes[2].legend(fontsize="small")
    figure.suptitle(f"{PAPER}: mean queue and swing vs thresholds, D and RTT "
                    "(C = 1000 pkt/s, piecewise-linear map)")
    yield ReportFigure(
        "primo_mean_queue_vs_thresholds",
        "Mean queue and peak-to-peak swing of the limit cycle as TH_rel and TH_mod move "
        "(paper values elsewhere, RTT 24 ms), and the mean queue in units of FTT_ref*C against "
        "tau = D/RTT for four round trips.",
        figure,
    )

    occupancy = occupancy_prediction_table()
    yield occupancy
    figure, ax = new_figure(figsize=(6.4, 4.4))
    rates = np.array([row[0] for row in occupancy.rows]) / 1e6
    ax.plot(rates, [row[3] * 100 for row in occupancy.rows], "o-", label="model: mean queue")
    ax.fill_between(rates, [row[4] / paper_number("buffer") * 100 for row in occupancy.rows],
                    [row[5] / paper_number("buffer") * 100 for row in occupancy.rows],
                    alpha=0.2, label="model: queue min-max")
    ax.axhline(paper_number("queue_occupancy_fraction") * 100, color="k", ls="--",
               label="paper: 'about 10% full' (§V-A)")
    ax.set_xscale("log")
    ax.set_xticks(rates, [f"{r:g}" for r in rates])
    ax.minorticks_off()
    ax.set_xlabel("shared link rate [Mb/s]")
    ax.set_ylabel("queue occupancy [% of 30-packet buffer]")
    ax.set_title(f"{PAPER} §V-A:\nqueue occupancy over the bandwidth sweep (RTT 24 ms)")
    ax.legend(fontsize="small")
    yield ReportFigure(
        "primo_paper_sec5a_queue_occupancy",
        "Predicted queue occupancy of the limit cycle against the paper's reported ~10% "
        "(RTT 24 ms, 1000-byte packets, 30-packet buffer); the model's occupancy grows in "
        "proportion to FTT_ref*C.",
        figure,
    )

    figure, axes = new_figure(1, 3, figsize=(13.0, 4.0), sharey=True)
    cases = [
        ("equal RTT 24 ms, start 300/200 pkt/s", dict(round_trip_times=(0.024, 0.024)),
         dict(initial_rates=(300.0, 200.0))),
        ("RTT 24 / 122 ms, own FTT_ref (as printed)",
         dict(round_trip_times=(0.024, 0.122), forward_delays=(0.001, 0.05)), {}),
        ("RTT 24 / 122 ms, common FTT_ref 12 ms",
         dict(round_trip_times=(0.024, 0.122), forward_delays=(0.001, 0.05),
              ftt_refs=(0.012, 0.012)), {}),
    ]
    for ax, (title, build, run) in zip(axes, cases):
        shared = primo_shared_loop(capacity=250.0, **build)
        plot_shares(shared.simulate(20.0, **run), ax=ax, labels=("flow 1 (24 ms)", "flow 2"))
        ax.set_title(title, fontsize="small")
        ax.legend(fontsize="small")
    figure.suptitle(f"{PAPER} §V-D: share convergence of two flows (C = 250 pkt/s, law iterated)")
    yield ReportFigure(
        "primo_nflow_share_convergence",
        "Two Primo flows on one bottleneck: with equal round trips the split is neutral (kept "
        "from the start, eigenvalue 1 of the linearised loop); with RTT 24 vs 122 ms and the "
        "thresholds scaled by each flow's own FTT_ref the short-RTT flow is starved; with a "
        "common FTT_ref the split stays near its start.",
        figure,
    )
    yield fairness_prediction_table()


def _trace_period(time, queue):
    """Mean time between upward crossings of *queue*'s mean, or a note if under two."""
    above = queue >= np.mean(queue)
    ups = time[1:][above[1:] & ~above[:-1]]
    return float(np.mean(np.diff(ups))) if len(ups) >= 2 else "fewer than two cycles"


if __name__ == "__main__":  # pragma: no cover - regenerates data/primo_paper_sec5*.csv
    import sys

    for written in write_prediction_csvs(sys.argv[1] if len(sys.argv) > 1 else "."):
        print(f"wrote {written}")

