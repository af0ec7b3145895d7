# ctlcc.plots.stpd - figures of ST-PD's closed loop (thesis §4.3)
"""Figures of ST-PD's z-domain closed loop (thesis 002_bd014ea59e1383a2)."""

import numpy as np

from ..analysis.stpd import stpd_loop
from . import ReportFigure, get_axes, new_figure

__all__ = ["plot_poles", "report_items"]


def plot_poles(loop, ax=None, label=None, marker="x", **kwargs):
    """Pole map of an ST-PD loop with the unit circle.

    Parameters
    ----------
    loop : StpdLoop
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = get_axes(ax)
    theta = np.linspace(0, 2 * np.pi, 400)
    if not ax.lines:
        ax.plot(np.cos(theta), np.sin(theta), color="0.6", lw=0.8, label="unit circle")
        ax.axhline(0, color="0.85", lw=0.6)
        ax.axvline(0, color="0.85", lw=0.6)
    poles = loop.poles()
    label = label or f"poles, kp={loop.kp:g}, kd={loop.kd:g}, m={loop.m}"
    ax.plot(poles.real, poles.imag, linestyle="none", marker=marker, label=label, **kwargs)
    ax.set_aspect("equal")
    ax.set_xlabel("Re z [1]")
    ax.set_ylabel("Im z [1]")
    ax.legend(loc="lower left", fontsize="small")
    return ax


def report_items():
    """Figures of the ST-PD loop for ``ctlcc report``."""
    figure, ax = new_figure(figsize=(6.0, 6.0))
    plot_poles(stpd_loop(0.033, 0.368, 3), ax=ax, label="kp=0.033, kd=0.368 (reproduces printed poles)")
    plot_poles(stpd_loop(0.368, 0.033, 3), ax=ax, marker="o", mfc="none",
               label="kp=0.368, kd=0.033 (as printed: unstable)")
    ax.set_title("ST-PD closed-loop poles, m = 3\nthesis 002 eq. (4.18), §4.3.3")
    yield ReportFigure(
        "thesis_eq4_18_pole_map",
        "Poles of ST-PD's per-slot closed loop (thesis eq. 4.18) for m = 3 with the "
        "printed averaged gains and with them swapped; only the swapped pair "
        "reproduces the printed poles.",
        figure,
    )
