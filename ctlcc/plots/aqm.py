# ctlcc.plots.aqm - RED and PI on packets vs the fluid model and the linear analysis
"""Figures of :mod:`ctlcc.experiments.aqm`.

* :func:`plot_hollot_checks` - the bottleneck queue behind the four AQM
  settings of Hollot et al.'s example network: packets (one seed), the
  fluid model, the linear analysis' operating queue and its verdict;
* :func:`plot_behind_aqm` - ST-PD, Primo and NewReno behind drop-tail, RED
  and PI: goodput per protocol, mean queue, Jain's index.
"""

import numpy as np

from ..experiments import aqm as exp
from ..references import short
from . import ReportFigure, ReportTable, new_figure

__all__ = ["plot_hollot_checks", "plot_behind_aqm", "report_items"]

_TITLES = {
    "pi": "PI as designed (a = 1.822e-5, b = 1.816e-5, 160 Hz)",
    "pi_hot": "PI with 30 x a and b",
    "red_stable": "RED (50, 550, 0.1), w = 1e-4",
    "red_unstable": "RED (50, 150, 0.5), w = 1e-4",
    "red_halved": "RED (50, 550, 0.05), w = 1e-4",
}


def plot_hollot_checks(checks, figure=None):
    """Queue against time behind each AQM setting (one panel each, 3 x 2).

    Parameters
    ----------
    checks : dict
        :func:`ctlcc.experiments.aqm.hollot_checks`'s result.
    figure : matplotlib.figure.Figure, optional

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig = figure or new_figure(figsize=(11, 10))[0]
    fig.clf()
    axes = fig.subplots(3, 2, sharex=True)
    axes.ravel()[-1].set_visible(len(exp.SETTINGS) >= 6)
    for ax, name in zip(axes.ravel(), exp.SETTINGS):
        if name not in checks:
            ax.set_visible(False)
            continue
        c = checks[name]
        ax.plot(c.time, c.queues[0], lw=0.5, color="C0",
                label=f"packets (seed {c.seeds[0]}; mean over seeds {np.mean(c.mean_queue):.0f})")
        ax.plot(c.fluid_time, c.fluid_queue, lw=1.2, color="C3",
                label=f"fluid model (mean {c.fluid_mean:.0f})")
        ax.axhline(c.operating_queue, color="k", ls="--", lw=1,
                   label=f"linear analysis q0 = {c.operating_queue:.0f}: {c.loop.prediction}"
                         + (f", period {c.loop.oscillation_period:.1f} s"
                            if c.loop.prediction == "oscillates" else ""))
        ax.axvline(exp.WINDOW, color="0.6", ls=":", lw=1)
        ax.set_title(_TITLES[name], fontsize=9)
        ax.set_ylabel("queue [packets]")
        ax.set_ylim(0, min(exp.BUFFER, 1.3 * max(float(np.max(c.queues[0])), 1.0)))
        ax.legend(fontsize=7, loc="upper right")
    for ax in axes[-1]:
        ax.set_xlabel("time [s]")
    axes[1, 1].xaxis.set_tick_params(labelbottom=True)
    axes[1, 1].set_xlabel("time [s]")
    fig.suptitle(f"AQM on packets vs fluid vs linear analysis: {short('hollot')} / "
                 f"{short('hollot_pi')} example network (N = 60, C = 3750 packets/s, "
                 f"Tp = 0.2 s)", fontsize=10)
    fig.tight_layout()
    return fig


def plot_behind_aqm(result, figure=None):
    """Goodput per protocol, mean queue and Jain's index behind each queue.

    Parameters
    ----------
    result : BehindAqm
    figure : matplotlib.figure.Figure, optional

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig = figure or new_figure(figsize=(12, 4))[0]
    fig.clf()
    ax_g, ax_q, ax_j = fig.subplots(1, 3)
    n = len(result.protocols)
    width = 0.8 / n
    x = np.arange(len(result.queues))
    for k, p in enumerate(result.protocols):
        values = [np.array(result.goodput[q, p]) / 1e6 for q in result.queues]
        ax_g.bar(x + (k - (len(result.protocols) - 1) / 2) * width,
                 [v.mean() for v in values], width,
                 yerr=[v.std(ddof=1) if len(v) > 1 else 0.0 for v in values],
                 label={"stpd": "ST-PD", "primo": "Primo", "newreno": "NewReno"}.get(p, p))
    fair = exp.CAPACITY * 1000 * 8 / (n * result.per_protocol) / 1e6
    ax_g.axhline(fair, color="k", ls="--", lw=1, label=f"equal share of goodput ({fair:.2f})")
    ax_g.set_xticks(x, result.queues)
    ax_g.set_ylabel("goodput per flow [Mb/s]")
    ax_g.set_title("goodput per flow (mean over seeds)", fontsize=9)
    top = max(np.mean(v) for v in result.goodput.values()) / 1e6
    ax_g.set_ylim(0, 1.5 * top)
    ax_g.legend(fontsize=8, ncol=2, loc="upper left")
    ax_q.bar(x, [np.mean(result.mean_queue[q]) for q in result.queues], 0.6, color="C7",
             label="mean queue, 30-100 s")
    ax_q.set_xticks(x, result.queues)
    ax_q.set_ylabel("mean queue [packets]")
    ax_q.set_title("bottleneck queue", fontsize=9)
    ax_q.legend(fontsize=8)
    ax_j.bar(x, [np.mean(result.jain[q]) for q in result.queues], 0.6, color="C4",
             label="Jain's index, all flows")
    ax_j.set_xticks(x, result.queues)
    ax_j.set_ylim(0, 1.05)
    ax_j.set_ylabel("Jain's index [1]")
    ax_j.set_title("fairness", fontsize=9)
    ax_j.legend(fontsize=8)
    fig.suptitle(f"ST-PD ({short('stpd')}) and Primo ({short('primo')}) vs NewReno behind "
                 f"drop-tail, RED and PI ({short('hollot_pi')})\n{n} x {result.per_protocol} "
                 f"flows on Hollot's example link (3750 packets/s, Tp = 0.2 s)", fontsize=10)
    fig.tight_layout()
    return fig


def report_items(checks=None, behind=None):
    """Figures and tables for ``ctlcc report``."""
    checks = exp.default_checks() if checks is None else checks
    yield ReportFigure(
        "aqm_hollot_packets_fluid_linear",
        "Bottleneck queue of Hollot et al.'s example network (60 NewReno flows, 3750 "
        "packets/s, Tp = 0.2 s, 800-packet buffer) behind four AQM settings: ctlcc's packet "
        "engine (one seed), the fluid model with the same law functions, and the linear "
        "analysis' operating queue and verdict (RED's with p_b as the drop probability; "
        "on packets Floyd & Jacobson's count spacing drops about 2 p_b, so RED (50, 550, "
        "0.05) on packets acts as RED (50, 550, 0.1) in the models). Statistics are taken right of the dotted "
        "line (30 s).", plot_hollot_checks(checks))
    rows = tuple(
        (name, c.loop.prediction, f"{c.loop.gain_margin:.3g}",
         f"{c.loop.oscillation_period:.2f}", f"{c.operating_queue:.1f}", f"{c.fluid_mean:.1f}",
         f"{np.mean(c.mean_queue):.1f}", f"{np.mean(c.periods):.2f}",
         f"{np.mean(c.spreads):.1f}", f"{np.mean(c.drop_rate):.4f}",
         f"{np.mean(c.utilisation):.3f}")
        for name, c in checks.items())
    yield ReportTable(
        "aqm_hollot_summary",
        "Per AQM setting: the linear analysis (verdict, gain margin, period 2 pi / w_180, "
        "operating queue), the fluid model's mean queue, and on packets (mean over 3 seeds, "
        "30-100 s) the mean queue, the dominant period, the spread of 1-s means, drops per "
        "arrival and utilisation.",
        ("setting", "analysis", "gain margin", "period [s]", "q0 [packets]",
         "fluid mean [packets]", "packets mean [packets]", "packets period [s]",
         "packets spread [packets]", "drop rate [1]", "utilisation [1]"), rows)
    behind = exp.behind_aqm() if behind is None else behind
    yield ReportFigure(
        "aqm_stpd_primo_behind_pi",
        "A new experiment (not a paper claim): ST-PD, Primo and NewReno flows sharing Hollot's "
        "bottleneck behind drop-tail (800 packets), RED (50, 550, 0.1, w = 1e-4) and a PI "
        "designed for the flow count (q_ref = 175 packets); mean over seeds, error bars one "
        "standard deviation (drop-tail runs have no random element: the seeds coincide).",
        plot_behind_aqm(behind))
