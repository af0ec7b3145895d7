# ctlcc.plots.fluid - figures of the fluid model (Reno/Hollot, ST-PD, Primo)
"""Figures of :mod:`ctlcc.sim.fluid`: Reno against Hollot's linearisation,
ST-PD's fluid against its z-domain loop, Primo's limit cycle."""


import numpy as np

from .. import _data
from ..references import cite
from ..analysis.stpd import stpd_loop
from ..laws.primo import PrimoParams
from ..sim import fluid
from . import ReportFigure, ReportTable, get_axes, new_figure, pyplot_axes

__all__ = [
    "HOLLOT_EXAMPLE",
    "plot_reno_trajectories",
    "plot_reno_step_response",
    "plot_stpd_fluid_vs_z",
    "plot_primo_limit_cycle",
    "report_items",
]

#: Hollot et al. (INFOCOM 2001) example: flows, packets/s, s, packets.
HOLLOT_EXAMPLE = dict(n_flows=60, capacity=3750.0, propagation_delay=0.2, queue=175.0)


def plot_reno_trajectories(duration=40.0, dt=2e-3, axes=None):
    """W(t) and q(t) of Hollot's example against its equilibrium.

    Two runs from W = 1, q = 0: the marking probability held at p0
    (open loop) and a RED ramp through (q0, p0) (closed loop).

    Parameters
    ----------
    duration : float, optional
        Simulated time. [s]
    dt : float, optional
        Step. [s]
    axes : pair of matplotlib.axes.Axes, optional
        Window and queue axes.

    Returns
    -------
    pair of matplotlib.axes.Axes
    """
    if axes is None:
        axes = pyplot_axes(2, 1, figsize=(7.0, 6.5), sharex=True)
    ax_w, ax_q = axes
    lin = fluid.reno_linearisation(**HOLLOT_EXAMPLE)
    net = fluid.network(HOLLOT_EXAMPLE["capacity"], 800.0, HOLLOT_EXAMPLE["propagation_delay"],
                        n_flows=HOLLOT_EXAMPLE["n_flows"])
    runs = (
        ("p held at p0 (open loop)", fluid.FixedMarking(lin.probability)),
        ("RED ramp 0-500 pkts through (q0, p0)",
         fluid.Red(0.0, 500.0, lin.probability * 500.0 / lin.queue)),
    )
    for label, aqm in runs:
        run = fluid.simulate(net, fluid.Reno(), duration, dt, aqm=aqm, record_every=10)
        ax_w.plot(run.time, run.window[:, 0, 0], label=label)
        ax_q.plot(run.time, run.queue[:, 0, 0], label=label)
    ax_w.axhline(lin.window, color="k", ls="--", lw=0.8, label=f"W0 = {lin.window:.2f} pkts")
    ax_q.axhline(lin.queue, color="k", ls="--", lw=0.8, label=f"q0 = {lin.queue:.0f} pkts")
    ax_w.set_ylabel("window W [packets]")
    ax_q.set_ylabel("queue q [packets]")
    for ax in axes:
        ax.set_xlabel("time t [s]")
        ax.legend(fontsize="small", loc="lower right")
    return axes


def plot_reno_step_response(amplitudes=(0.005, 0.05, -0.05), duration=12.0, dt=1e-3,
                            t_step=0.5, ax=None):
    """Queue response to a step of p: nonlinear fluid vs Hollot's P(s).

    The responses are divided by the step ``delta_p`` so that the linear
    model gives one curve.

    Parameters
    ----------
    amplitudes : sequence of float, optional
        Relative steps delta_p / p0. [1]
    duration, dt, t_step : float, optional
        Simulated time, step and time of the step. [s]
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = get_axes(ax)
    lin = fluid.reno_linearisation(**HOLLOT_EXAMPLE)
    amplitudes = np.asarray(amplitudes, dtype=float)
    p0 = lin.probability
    net = fluid.network(np.full(amplitudes.size, HOLLOT_EXAMPLE["capacity"]), 2000.0,
                        HOLLOT_EXAMPLE["propagation_delay"], n_flows=HOLLOT_EXAMPLE["n_flows"])

    def probability(t):
        return (p0 * (1 + amplitudes * (t >= t_step)))[:, None]

    run = fluid.simulate(net, fluid.Reno(initial_window=lin.window), duration, dt,
                         aqm=fluid.FixedMarking(probability), initial_queue=lin.queue,
                         record_every=10)
    since = run.time - t_step
    for b, amplitude in enumerate(amplitudes):
        ax.plot(since, (run.queue[:, b, 0] - lin.queue) / (amplitude * p0),
                label=f"nonlinear fluid, δp = {amplitude:+.1%} p0")
    ax.plot(since, lin.step_response(since, 1.0), "k--",
            label="linearised: step response of Hollot's P(s), delay R0")
    ax.set_xlabel("time since the step of p [s]")
    ax.set_ylabel("δq / δp [packets per unit probability]")
    ax.legend(fontsize="small")
    return ax


def plot_stpd_fluid_vs_z(kp=0.033, kd=0.368, m=3, slots=150, ax=None):
    """ST-PD's queue deviation: fluid on two grids vs the z-domain loop.

    Fixed feedback delay of m slots, reference 1000 packets (linear range),
    start 1 packet above it.

    Parameters
    ----------
    kp, kd : float, optional
        Per-slot gains of eq. (4.1). [1]
    m : int, optional
        Round trip. [slots]
    slots : int, optional
        Horizon. [slots]
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = get_axes(ax)
    capacity, reference = 187.5, 1000.0
    slot = 1 / capacity
    net = fluid.network(capacity, 1e7, m * slot)
    law = fluid.Stpd(kp, kd, reference=reference, delay=m * slot, initial_rate=capacity)
    n = np.arange(slots + 1)
    coarse = fluid.simulate(net, law, slots * slot, slot, initial_queue=reference + 1)
    fine = fluid.simulate(net, law, slots * slot, slot / 20, initial_queue=reference + 1,
                          record_every=20)
    loop = stpd_loop(kp, kd, m)
    poles = loop.poles()
    modes = poles[None, :] ** n[:, None]
    fit = slice(m + 1, 2 * (m + 1) + 2)
    amplitudes, *_ = np.linalg.lstsq(modes[fit], (coarse.queue[fit, 0, 0] - reference)
                                     .astype(complex), rcond=None)
    ax.plot(n, (modes @ amplitudes).real, "-", color="0.3", lw=2.5, alpha=0.5,
            label="z-domain modes (poles of thesis eq. 4.18)")
    ax.plot(n, coarse.queue[:, 0, 0] - reference, "o", ms=3, label="fluid, dt = 1 slot")
    ax.plot(n, fine.queue[:, 0, 0] - reference, "-", lw=1,
            label="fluid, dt = slot/20 (continuous-time limit)")
    envelope = np.abs(amplitudes).sum() * loop.spectral_radius() ** n
    ax.plot(n, envelope, "k:", lw=1, label=f"±K ρⁿ, ρ = {loop.spectral_radius():.4f}")
    ax.plot(n, -envelope, "k:", lw=1)
    ax.set_ylim(-0.4, 1.15)
    ax.set_xlabel("time n [slots of 5.33 ms]")
    ax.set_ylabel("queue − reference [packets]")
    ax.legend(fontsize="small")
    return ax


def plot_primo_limit_cycle(duration=60.0, dt=2e-3, axes=None):
    """Primo's fluid limit cycle on one bottleneck (1000 packets/s, Tp = 0.1 s).

    Parameters
    ----------
    duration, dt : float, optional
        Simulated time and step. [s]
    axes : pair of matplotlib.axes.Axes, optional
        Rate axes and ΔFTT axes.

    Returns
    -------
    pair of matplotlib.axes.Axes
    """
    if axes is None:
        axes = pyplot_axes(2, 1, figsize=(7.0, 6.0), sharex=True)
    ax_rate, ax_ftt = axes
    params = PrimoParams()
    capacity, delay = 1000.0, 0.1
    run = fluid.simulate(fluid.network(capacity, 500.0, delay),
                         fluid.Primo(params, initial_rate=100.0), duration, dt, record_every=5)
    ax_rate.plot(run.time, run.rate[:, 0, 0] / capacity, label="sending rate x / C")
    for name, style in (("F_str", ":"), ("F_mod", "--"), ("F_rel", "-.")):
        value = getattr(params, name)
        ax_rate.axhline(value, ls=style, lw=0.8, color="k", label=f"{name} = {value:g}")
    ax_rate.set_ylabel("rate / capacity [1]")
    ftt_ref = 0.5 * delay
    ax_ftt.plot(run.time, run.queue[:, 0, 0] / capacity / ftt_ref, color="C1",
                label="ΔFTT / FTT_ref (queueing delay)")
    for name, style in (("TH_rel", ":"), ("TH_mod", "--"), ("TH_str", "-.")):
        value = getattr(params, name)
        ax_ftt.axhline(value, ls=style, lw=0.8, color="k", label=f"{name} = {value:g}")
    ax_ftt.set_ylabel("ΔFTT / FTT_ref [1]")
    ax_ftt.set_ylim(0.0, 0.75)
    ax_rate.legend(fontsize="small", loc="center right")
    ax_ftt.legend(fontsize="small", loc="upper left", ncol=2)
    for ax in axes:
        ax.set_xlabel("time t [s]")
    return axes


def report_items():
    """Figures and the Hollot table for ``ctlcc report``."""
    lin = fluid.reno_linearisation(**HOLLOT_EXAMPLE)
    quoted = _hollot_quoted()
    symbols = {"round_trip": "R0 = q0/C + Tp", "window": "W0 = R0 C / N",
               "probability": "p0 = 2 / W0^2", "window_pole": "2N / (R0^2 C)",
               "queue_pole": "1 / R0"}
    yield ReportTable(
        "hollot2001_operating_point",
        "Hollot et al. (INFOCOM 2001) example, N = 60, C = 3750 packets/s, Tp = 0.2 s, "
        "q0 = 175 packets: operating point and plant poles from "
        "ctlcc.sim.fluid.reno_linearisation vs the values of "
        "data/hollot2001_operating_point.csv (the paper's numerical example; only "
        "these numbers of it are reproduced). tests/sim/test_fluid_reno.py also derives them with "
        "sympy from the right-hand side the simulator integrates.",
        ("quantity", "unit", "ctlcc", "quoted", "source"),
        tuple((symbols[row["quantity"]], row["unit"], float(getattr(lin, row["quantity"])),
               float(row["value"]), "Hollot et al. 2001") for row in quoted),
    )

    figure, axes = new_figure(2, 1, figsize=(7.0, 6.5), sharex=True)
    plot_reno_trajectories(axes=axes)
    axes[1].set_xlabel("time t [s]")
    axes[0].set_xlabel("")
    axes[0].set_title("Reno fluid model (MGT form), Hollot et al. 2001 example\n"
                      "N = 60, C = 3750 pkts/s, Tp = 0.2 s, drop-tail buffer 800 pkts")
    yield ReportFigure(
        "hollot2001_reno_fluid_trajectories",
        "Window and queue of the Reno fluid model for Hollot's example, from W = 1 and an "
        "empty queue, with the marking probability held at p0 and with a RED ramp "
        "(0 to 500 packets) through the operating point; both settle on (W0, q0).",
        figure,
    )

    figure, ax = new_figure(figsize=(7.0, 4.8))
    plot_reno_step_response(ax=ax)
    ax.set_title("Small-signal step of p: nonlinear fluid vs linearised plant\n"
                 "Hollot et al. 2001, P(s) at N = 60, C = 3750 pkts/s, q0 = 175 pkts")
    yield ReportFigure(
        "hollot2001_linearised_vs_nonlinear_step",
        "Queue response to a step of the marking probability, divided by the step: the "
        "nonlinear Reno fluid model for +0.5 %, +5 % and -5 % of p0 against the step "
        "response of Hollot's P(s) (with its delay R0); the spread between the curves is "
        "the nonlinearity, second order in the step.",
        figure,
    )

    figure, ax = new_figure(figsize=(7.0, 4.8))
    plot_stpd_fluid_vs_z(ax=ax)
    ax.set_title("ST-PD fluid vs z-domain loop, kp = 0.033, kd = 0.368, m = 3\n" +
                 cite("stpd", "eqs. (4.1), (4.6), (4.18)"))
    yield ReportFigure(
        "thesis_eq4_18_stpd_fluid_vs_zdomain",
        "ST-PD queue deviation after a 1-packet disturbance: the fluid model stepped once "
        "per slot coincides with the z-domain loop's modes (thesis poles -0.5023, "
        "0.8031 ± 0.4155i, 0.8961) and stays inside the ρⁿ envelope; stepped 20 times per "
        "slot it approaches the continuous-delay loop, which is less damped "
        "(dominant root -0.0437 per slot vs ln ρ = -0.1007).",
        figure,
    )

    figure, axes = new_figure(2, 1, figsize=(7.0, 6.0), sharex=True)
    plot_primo_limit_cycle(axes=axes)
    axes[0].set_xlabel("")
    axes[0].set_title("Primo fluid model, Algorithm 1 with the paper's parameters\n" +
                      cite("primo", "§III") + "; one flow, C = 1000 pkts/s, Tp = 0.1 s")
    yield ReportFigure(
        "primo_fluid_limit_cycle",
        "Primo's rate and queueing delay in the fluid model: after the start-up the rate "
        "stays in [F_str C, F_rel C] and the queueing delay crosses the hold band "
        "[TH_rel, TH_mod] FTT_ref both ways every cycle, overshooting into the strong "
        "regime (the feedback is a round trip plus D late), without emptying the queue.",
        figure,
    )


def _hollot_quoted():
    """Rows of data/hollot2001_operating_point.csv (dicts)."""
    return _data.read_csv("hollot2001_operating_point.csv")
