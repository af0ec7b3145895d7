# ctlcc.claims.stpd - the ST-PD thesis's analytic claims and the cross-checks of its loop
"""Units of Xu (2002): §4.3.3's numerical example, Figs. 4.5-4.6, the scenario BDPs,
and the cross-checks of its loop against the packet engine.

Records declared in ``data/ledger_stpd.csv``; the simulation experiments of
§3.5, §4.4 and §6 are in :mod:`ctlcc.claims.stpd_sim`.

References
----------
Xu (2002), §3.5, §4.3.2-§4.3.3, eqs. (4.1)-(4.19), Figs. 4.5-4.6.
"""

import numpy as np

from ._common import check_point, data_rows
from .registry import Measurement, unit

__all__ = []

#: Packet-error probabilities of Fig. 4.6's axis: one loss every K packets,
#: K = 10 ... 10000 (eq. 4.19's periodic reading is defined on whole K).
_FIG4_6_K = (10, 10000)


def _example():
    return {r["quantity"]: r for r in data_rows("thesis_stpd_numerical_example.csv")}


def _gains():
    """(printed kp, kd), and the swapped pair whose poles the thesis prints."""
    example = _example()
    kp, kd = float(example["kp_printed"]["value"]), float(example["kd_printed"]["value"])
    return (kp, kd), (kd, kp), int(float(example["m"]["value"]))


def _printed_poles():
    example = _example()
    return np.array([complex(float(example[f"pole_{i}"]["value"]),
                             float(example[f"pole_{i}"]["imag"] or 0)) for i in range(1, 5)])


def _complex(z):
    z = complex(z)
    if abs(z.imag) < 5e-5:
        return f"{z.real:.4f}"
    return f"{z.real:.4f}{'+' if z.imag > 0 else '-'}{abs(z.imag):.4f}i"


def _pole_distance(printed, computed):
    return float(max(np.min(np.abs(computed - p)) for p in printed))


# --- §4.3.3 numerical example -----------------------------------------------------------------

@unit("stpd-4.3.3-poles", section="stpd",
      evidence="thesis_eq4_18_pole_map; tests/analysis/test_stpd_core.py")
def poles():
    from ..analysis import stpd_loop

    printed_gains, swapped, m = _gains()
    printed = _printed_poles()
    loop, other = stpd_loop(*printed_gains, m), stpd_loop(*swapped, m)
    return Measurement(
        value=loop.spectral_radius(),
        reason=(f"the printed kp = {printed_gains[0]:g}, kd = {printed_gains[1]:g} give the "
                f"poles " + ", ".join(_complex(p) for p in loop.poles())
                + f" (spectral radius {loop.spectral_radius():.4f}: unstable)"),
        other_evidence=(f"the swapped pair kp = {swapped[0]:g}, kd = {swapped[1]:g} gives every "
                        f"printed pole within {_pole_distance(printed, other.poles()):.1e} "
                        f"(spectral radius {other.spectral_radius():.4f})"))


@unit("stpd-fig4.5-bounded", section="stpd",
      evidence="thesis_fig4_5_loss_response; "
               "tests/analysis/test_stpd_loop.py::test_iterated_response_grows_or_decays_as_the_poles_say")
def fig4_5_bounded():
    from ..analysis import stpd_loop

    printed_gains, swapped, m = _gains()
    loop = stpd_loop(*swapped, m)
    return Measurement(
        value=loop.spectral_radius(),
        reason=f"spectral radius of the m = {m} loop with the gains of the printed poles "
               f"(kp = {swapped[0]:g}, kd = {swapped[1]:g})",
        other_evidence=f"with the printed pair (kp = {printed_gains[0]:g}, kd = "
                       f"{printed_gains[1]:g}) the radius is "
                       f"{stpd_loop(*printed_gains, m).spectral_radius():.4f}: a(n) diverges")


@unit("stpd-fig4.5-settles", section="stpd",
      evidence="thesis_fig4_5_loss_response; "
               "tests/analysis/test_stpd_loop.py::test_loss_deviation_sums_to_zero_and_settles_to_capacity")
def fig4_5_settles():
    from ..analysis import stpd_loop

    _, swapped, m = _gains()
    response = stpd_loop(*swapped, m).loss_response(p=100, n=600)
    return Measurement(value=float(response.arrival[-1]),
                       reason="a(600) after the loss at slot 100, gains of the printed poles")


@unit("stpd-fig4.6-decreasing", section="stpd",
      evidence="thesis_fig4_6_throughput_vs_loss; "
               "tests/analysis/test_stpd_loop.py::test_throughput_readings_and_shape")
def fig4_6_decreasing():
    from ..analysis import stpd_loop

    _, swapped, m = _gains()
    k = np.arange(_FIG4_6_K[0], _FIG4_6_K[1] + 1)
    throughput = stpd_loop(*swapped, m).throughput_under_loss(1.0 / k)
    rise = throughput[:-1] - throughput[1:]        # T(1/K) - T(1/(K+1)): p grows
    i = int(np.argmax(rise))
    return Measurement(
        value=float(rise[i]),
        reason=(f"eq. (4.19), periodic reading, at p = 1/K for every K = {_FIG4_6_K[0]}.."
                f"{_FIG4_6_K[1]}: the largest rise is {rise[i]:.4f}, from p = 1/{k[i + 1]} "
                f"({throughput[i + 1]:.4f}) to p = 1/{k[i]} ({throughput[i]:.4f}); "
                f"{int(np.sum(rise > 0))} of {rise.size} steps rise: K = round(1/p) beats with "
                f"the loop's ringing above p ~ 3e-2"),
        other_evidence=f"on a 13-point log grid 1e-4..1e-1 the curve falls "
                       f"({throughput[-1]:.4f} at 1e-4, {throughput[0]:.4f} at 1e-1)")


# --- scenario BDPs ----------------------------------------------------------------------------

_BDP_PRESETS = {"stpd-3.5.1-bdp-9": "thesis_fig3_7_sufficient", "stpd-4.4-bdp-31": "thesis_fig4_7",
                "stpd-4.4-bdp-94": "thesis_fig4_18"}


@unit(*_BDP_PRESETS, section="stpd", evidence="ctlcc.sim.scenarios; fuzzy_scenario_gains")
def bdps():
    return {cid: Measurement(value=_thesis_bdp(preset),
                             reason=f"bottleneck rate x (propagation + one 1000-byte "
                                    f"serialisation per hop) of the preset {preset!r}",
                             evidence=f"ctlcc.sim.scenarios.{preset}; fuzzy_scenario_gains")
            for cid, preset in _BDP_PRESETS.items()}


@unit("stpd-4.3-stable-at-scenario-bdps", section="stpd",
      evidence="stpd_per_slot_vs_per_rtt; stpd_stability_region_m1_8; "
               "tests/analysis/test_stpd_stability.py")
def stable_at_scenario_bdps():
    from ..analysis import stpd_loop

    _, (kp, kd), _ = _gains()
    bdps = [9, 31, 94]
    radii = [stpd_loop(kp, kd, m).spectral_radius() for m in bdps]
    per_rtt = stpd_loop(kp, kd, bdps[0], model="per_rtt").spectral_radius()
    return Measurement(
        value=max(radii),
        reason="per-slot spectral radius " + ", ".join(f"{r:.3f}" for r in radii)
               + " at m = " + ", ".join(map(str, bdps))
               + f" (kp = {kp:g}, kd = {kd:g}); updated once per round trip the loop is "
                 f"stable (radius {per_rtt:.3f})")


def _thesis_bdp(preset):
    """Bottleneck rate x (propagation + one 1000-byte serialisation per hop). [packets]"""
    from ..sim import scenarios

    scenario = scenarios.preset(preset)
    channels = scenario.channels()
    path = scenario.flows[0].path
    rtt = sum(2 * channels[hop][0].delay + 8000.0 / channels[hop][0].rate
              for hop in zip(path[:-1], path[1:]))
    (a, b), = scenario.bottlenecks[:1]
    return rtt * channels[(a, b)][0].rate / 8000.0


# --- cross-checks of the loop against packets --------------------------------------------------

_DECAY_EVIDENCE = ("crosscheck_stpd_decay_per_rtt_vs_per_slot; crosscheck_summary; "
                   "crosscheck_points; ctlcc.crosscheck.stpd_decay")


@unit("stpd-decay-per-rtt-*", section="crosscheck", needs="stpd_decay_per_rtt",
      evidence=_DECAY_EVIDENCE)
def decay_per_rtt(check):
    from ._common import check_points

    return check_points(check, "stpd-decay-per-rtt")


@unit("stpd-decay-per-slot-*", section="crosscheck", needs="stpd_decay_per_slot",
      evidence=_DECAY_EVIDENCE)
def decay_per_slot(check):
    from ._common import check_points

    return check_points(check, "stpd-decay-per-slot")


_EQ419_EVIDENCE = ("crosscheck_summary; crosscheck_points; "
                   "ctlcc.crosscheck.stpd_throughput_under_loss")


@unit("stpd-eq4.19-agrees-below-p-0.01", section="crosscheck",
      needs="stpd_throughput_under_loss", evidence=_EQ419_EVIDENCE)
def eq4_19_agrees(check):
    """The worst point's simulated/predicted throughput deficit (1 - throughput)."""
    deficits = 1.0 - check.predicted
    n = len(check.parameters["seeds"])
    ratios = (1.0 - check.measured) / deficits
    stderr = check.spread / deficits / np.sqrt(n)
    # the point farthest outside: |r - 1| beyond twice its standard error
    i = int(np.argmax(np.abs(ratios - 1.0) - 2.0 * stderr))
    per_point = ", ".join(f"{lab}: {r:.2f} +- {s:.2f}"
                          for lab, r, s in zip(check.labels, ratios, stderr))
    base = check_point(check, i)
    return Measurement(
        value=float(ratios[i]), seeds=base.seeds,
        spread=float(check.spread[i] / deficits[i]),
        reason=(f"worst point {check.labels[i]}: simulated throughput "
                f"{check.measured[i]:.4f} against eq. (4.19)'s {check.predicted[i]:.4f}; "
                f"deficit ratio (1 - simulated)/(1 - predicted) per point: {per_point} "
                f"(+- its standard error); {check.note}"))


@unit("stpd-eq4.19-above-simulation-p-0.01", section="crosscheck",
      needs="stpd_throughput_under_loss_beyond", evidence=_EQ419_EVIDENCE)
def eq4_19_above_simulation(check):
    """Gap eq. (4.19) - simulated throughput at p = 1e-2 (the thesis's own gap: 0.9654 - 0.94)."""
    i = [k for k, label in enumerate(check.labels) if label == "p=0.01"][0]
    point = check_point(check, i)
    gaps = check.predicted - check.measured
    return Measurement(
        value=float(gaps[i]), seeds=point.seeds, spread=point.spread,
        reason=(f"eq. (4.19) {check.predicted[i]:.4f} - simulated {check.measured[i]:.4f} at "
                f"p = 1e-2: ctlcc's packets lose throughput to timeouts after lost "
                f"retransmissions ({check.note})"),
        other_evidence=("gap at " + ", ".join(f"{lab}: {g:.3f}"
                                              for lab, g in zip(check.labels, gaps))
                        + " (the thesis: the gap grows with p)"))
