# ctlcc.claims.stpd - the ST-PD thesis's analytic claims: the printed poles, Figs. 4.5-4.6, BDPs
"""Units of Xu (2002): §4.3.3's numerical example, Figs. 4.5-4.6, the scenario BDPs.

Records declared in ``data/ledger_stpd.csv``.  The cross-checks of the loop
against the packet engine are units of :mod:`ctlcc.crosscheck.stpd`, the
simulation experiments of §3.5, §4.4 and §6 units of the topic modules of
:mod:`ctlcc.experiments.thesis`, each beside what it measures.

References
----------
Xu (2002), §3.5, §4.3.2-§4.3.3, eqs. (4.1)-(4.19), Figs. 4.5-4.6.
"""

import numpy as np

from ._common import data_rows
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
