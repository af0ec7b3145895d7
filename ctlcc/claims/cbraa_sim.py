# ctlcc.claims.cbraa_sim - CBRAA's §4 simulation claims (Figs. 3-6) as units
"""Units of Ait-Hellal, Yamamoto & Leduc (1999)'s §4, re-run by
:mod:`ctlcc.experiments.cbraa` (records in ``data/ledger_cbraa.csv``).

Each number or statement of §4 is one record.  The runs use ctlcc's
default CBRAA (beta = 0.5, which the paper does not print); the same
claims with beta = 1 are other evidence of each record, not a second verdict.

References
----------
Ait-Hellal, Yamamoto & Leduc (1999), §4, Figs. 2-6.
"""

import math

import numpy as np

from .registry import Measurement, provider, unit

__all__ = ["cbraa_results"]

_SECTION = "cbraa_sim"
_EV = "ctlcc.experiments.cbraa."


@provider(_SECTION)
def cbraa_results():
    """The paper's 500-s runs (Fig. 4: 700 s) with the default CBRAA, and with beta = 1
    under ``alternative`` (both memoised)."""
    from ..experiments import cbraa

    out = dict(cbraa.run_all(quick=False))
    out["alternative"] = cbraa.run_all(quick=False, sender=cbraa.ALTERNATIVE)
    return out


def _pub():
    from ..experiments.cbraa import published

    return published()


def _measures(res):
    """Every §4 quantity of one set of runs: ``{claim id: (value, reason)}``."""
    from ..experiments.cbraa import WARMUP

    pub = _pub()
    out = {}
    friend, cb = res["fig3"]
    end = cb.duration
    fair = pub["fair_share_2_sources"]["value"] / 8          # B/s
    mean_cb, mean_friend = cb.mean(0, WARMUP, end), friend.mean(0, WARMUP, end)
    cv_cb, cv_friend = cb.cv(0, WARMUP, end), friend.cv(0, WARMUP, end)
    losses = (f"loss ratio CBRAA {cb.loss[0]:.2%} vs its Reno {cb.loss[1]:.2%}, TCP-Friend "
              f"{friend.loss[0]:.2%} vs its Reno {friend.loss[1]:.2%}: the paced sources lose "
              f"far fewer packets than Reno in the drop-tail queue, so eq. (2) at their own "
              f"loss exceeds Reno's share")
    out["cbraa-fig3-convergence-sim"] = (
        mean_cb * 8 / 1e6, f"CBRAA's mean goodput over {WARMUP:g}-{end:g} s; " + losses)
    out["cbraa-fig3-reach-sim"] = (
        cb.reach_time(0, 0.9 * fair),
        f"first time CBRAA's 5-s mean goodput reaches 0.9 x 2 Mb/s (mean after "
        f"{WARMUP:g} s {mean_cb * 8 / 1e6:.2f} Mb/s)")
    out["cbraa-fig3-friend-below-sim"] = (
        mean_friend * 8 / 1e6, f"TCP-Friend's mean goodput over {WARMUP:g}-{end:g} s (beside "
                               f"Reno, the first 500-s half of Fig. 3)")
    out["cbraa-fig3-smoothness-sim"] = (
        cv_cb / cv_friend,
        f"coefficient of variation of the 1-s goodput after {WARMUP:g} s: CBRAA {cv_cb:.3f}, "
        f"TCP-Friend {cv_friend:.3f}; of the sending rate "
        f"{cb.cv(0, WARMUP, end, 'rate'):.3f} and {friend.cv(0, WARMUP, end, 'rate'):.3f}")
    f4 = res["fig4"]
    arrival, dep1 = pub["s4_2_tcp_arrival_time"]["value"], pub["s4_2_tcp_departure_1"]["value"]
    dep2 = pub["s4_2_tcp_departure_2"]["value"]
    after = np.array([f4.mean(i, arrival + pub["s4_2_reaction_time"]["value"], dep1)
                      for i in range(4)]) * 8 / 1e6
    k = int(np.argmax(np.abs(after - 1.0)))
    out["cbraa-fig4-arrivals-sim"] = (
        float(after[k]), "mean goodput 310-550 s [Mb/s]: " + ", ".join(
            f"{lab} {a:.2f}" for lab, a in zip(f4.labels, after))
        + f"; the source farthest from 1 Mb/s is {f4.labels[k]}")
    regain_level = pub["cbraa_after_departures"]["value"] / 8
    regain = f4.reach_time(0, 0.9 * regain_level, after=dep2) - dep2
    out["cbraa-fig4-regain-sim"] = (
        regain, f"seconds after 560 s until CBRAA's 5-s mean goodput reaches 0.9 x 1.6 Mb/s "
                f"(its mean over {dep2 + 20:g}-{f4.duration:g} s: "
                f"{f4.mean(0, dep2 + 20, f4.duration) * 8 / 1e6:.2f} Mb/s)")
    m1, m2 = f4.mean(0, 70, 300) / 1e3, f4.mean(0, 570, 700) / 1e3
    tcp = f"TCP 1 over the same windows {f4.mean(1, 70, 300) / 1e3:.0f} and " \
          f"{f4.mean(1, 570, 700) / 1e3:.0f} kbyte/s"
    out["cbraa-fig4-mean-rates-sim"] = (m1, f"CBRAA's mean over 70-300 s; {tcp}")
    out["cbraa-fig4-mean-rate-570-700-sim"] = (m2, f"CBRAA's mean over 570-700 s; {tcp}")
    f5 = res["fig5"]
    got = [f5.mean(i, WARMUP, f5.duration) / 1e3 for i in range(4)]
    tcp_sorted = sorted(got[1:])
    loss5 = (f"loss ratio CBRAA {f5.loss[0]:.2%}, TCP "
             f"{', '.join(f'{x:.2%}' for x in f5.loss[1:])}")
    tcp_text = ", ".join(f"{g:.0f}" for g in tcp_sorted)
    out["cbraa-fig5-equidistant-sim"] = (got[0], f"CBRAA's mean over {WARMUP:g}-{f5.duration:g} "
                                                 f"s beside TCP {tcp_text} kbyte/s; {loss5}")
    for j, cid in enumerate(("cbraa-fig5-tcp-low-sim", "cbraa-fig5-tcp-mid-sim",
                             "cbraa-fig5-tcp-high-sim")):
        out[cid] = (tcp_sorted[j], f"the TCP sources' means over {WARMUP:g}-{f5.duration:g} s "
                                   f"in increasing order: {', '.join(f'{g:.0f}' for g in tcp_sorted)} "
                                   f"kbyte/s (the paper's 119, 123, 124 are matched in order); "
                                   f"{loss5}")
    f6 = res["fig6"]
    got = [f6.mean(i, WARMUP, f6.duration) / 1e3 for i in range(3)]
    text6 = (f"TCP {got[0]:.0f}, CBRAA 25 ms {got[1]:.0f}, CBRAA 100 ms {got[2]:.0f} kbyte/s "
             f"over {WARMUP:g}-{f6.duration:g} s; loss ratios "
             f"{', '.join(f'{x:.2%}' for x in f6.loss)}; mean RTTs "
             f"{', '.join(f'{r * 1e3:.0f}' for r in f6.rtt)} ms (paper ~70, ~70, ~220)")
    out["cbraa-fig6-tcp-sim"] = (got[0], text6)
    out["cbraa-fig6-cbraa-short-sim"] = (got[1], text6)
    out["cbraa-fig6-rtt-sim"] = (got[2], text6)
    return out


_IDS = ("cbraa-fig3-convergence-sim", "cbraa-fig3-reach-sim", "cbraa-fig3-friend-below-sim",
        "cbraa-fig3-smoothness-sim", "cbraa-fig4-arrivals-sim", "cbraa-fig4-regain-sim",
        "cbraa-fig4-mean-rates-sim", "cbraa-fig4-mean-rate-570-700-sim",
        "cbraa-fig5-equidistant-sim", "cbraa-fig5-tcp-low-sim", "cbraa-fig5-tcp-mid-sim",
        "cbraa-fig5-tcp-high-sim", "cbraa-fig6-tcp-sim", "cbraa-fig6-cbraa-short-sim",
        "cbraa-fig6-rtt-sim")
_FIGURE = {"fig3": "cbraa_fig3_smoothness", "fig4": "cbraa_fig4_arrivals",
           "fig5": "cbraa_fig5_6_shares", "fig6": "cbraa_fig5_6_shares"}


@unit(*_IDS, section=_SECTION, needs=("fig3", "fig4", "fig5", "fig6"),
      optional={"alternative": "alternative"}, evidence=_EV + "run_all")
def section4(fig3, fig4, fig5, fig6, alternative=None):
    res = {"fig3": fig3, "fig4": fig4, "fig5": fig5, "fig6": fig6}
    mine = _measures(res)
    other = _measures(alternative) if alternative is not None else {}
    out = {}
    for cid, (value, reason) in mine.items():
        alt = ""
        if cid in other:
            v = other[cid][0]
            alt = f"with beta = 1 (the paper does not print beta): {v:.4g}" \
                if math.isfinite(v) else "with beta = 1: never"
        figure = cid.split("-")[1]
        out[cid] = Measurement(value=float(value), reason=reason, other_evidence=alt,
                               evidence=f"{_EV}{figure}; {_FIGURE[figure]}")
    return out
