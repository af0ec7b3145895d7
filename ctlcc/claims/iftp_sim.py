# ctlcc.claims.iftp_sim - IFTP's §6 simulation claims (Figures 5-6, Tables I-IV) as units
"""Units of ElAarag & Bassiouni (2002)'s §6, re-run by :mod:`ctlcc.experiments.iftp`
(records in ``data/ledger_iftp.csv``).

Every IFTP run is made with Transmit_Window as printed (``pacing="figure1"``,
the reading that decides) and with the sweep continuing at the gap
(``pacing="continuous"``), and §6.1 with two readings of tau: the second
readings are other evidence of the same record.  A table cell is one
record; where the paper's own cells or set-up constrain it (Table II's UDP
losses, Table IV's utilisation), that constraint is the record's implied
value.

References
----------
ElAarag & Bassiouni (2002), §6, Figures 4-6, Tables I-IV.
"""

import numpy as np

from ._common import data_rows, half_unit
from .registry import Measurement, provider, unit

__all__ = ["iftp_results"]

_SECTION = "iftp_sim"
_EV = "ctlcc.experiments.iftp."


@provider(_SECTION)
def iftp_results():
    """:func:`ctlcc.experiments.iftp.run_all` (quick: the paper's 120 s, five seeds; memoised)."""
    from ..experiments import iftp

    return iftp.run_all(quick=True)


def _tables():
    out = {}
    for r in data_rows("iftp_tables.csv"):
        out[(r["table"], r["row"], r["column"])] = r["value"]
    return out


# --- Figure 5 ----------------------------------------------------------------------------------

@unit("iftp-fig5-udp-deprives-tcp", "iftp-fig5-udp-source-sink-gap-grows",
      "iftp-fig5-tcp-source-equals-sink", "iftp-fig5-reduction-starts", section=_SECTION,
      needs="fig5", evidence=_EV + "udp_unfairness; iftp_fig5_udp_vs_tcp")
def fig5(f5):
    per = f5.per_seed                      # (seeds, rates, [tcp src, tcp sink, udp src, udp sink])
    rates = (f5.udp_rates / 1e6).tolist()
    hi = int(np.argmax(f5.udp_rates))
    share = per[:, :, 1] / (per[:, :, 1] + per[:, :, 3])
    gap = (per[:, :, 2] - per[:, :, 3]) / 1e6
    steps = np.diff(gap, axis=1)           # per seed, between neighbouring rates
    k = int(np.argmin(steps.mean(axis=0)))
    tcp_loss = (per[:, :, 0] - per[:, :, 1]) / per[:, :, 0]
    low = f5.udp_rates <= 0.3e6
    worst_low = int(np.flatnonzero(low)[np.argmax(tcp_loss[:, low].mean(axis=0))])
    deficit = (f5.bottleneck_rate - f5.udp_sink - f5.tcp_sink) / f5.bottleneck_rate
    start = f5.udp_rates[np.argmax(deficit > 0.05)] / 1e6 if np.any(deficit > 0.05) else np.inf
    return {
        "iftp-fig5-udp-deprives-tcp": Measurement(
            value=float(share[:, hi].mean()), samples=tuple(share[:, hi]), seeds=f5.seeds,
            reason=f"TCP's share of the delivered bits falls from {share[:, 0].mean():.2f} to "
                   f"{share[:, hi].mean():.2f} as UDP goes from {rates[0]:g} to {rates[hi]:g} "
                   f"Mb/s (TCP {np.round(f5.tcp_sink / 1e6, 3).tolist()} Mb/s)"),
        "iftp-fig5-udp-source-sink-gap-grows": Measurement(
            value=float(steps[:, k].mean()), samples=tuple(steps[:, k]), seeds=f5.seeds,
            reason=f"UDP source - sink {np.round(gap.mean(axis=0), 3).tolist()} Mb/s at "
                   f"{rates} Mb/s; the smallest step is from {rates[k]:g} to {rates[k + 1]:g} "
                   f"Mb/s"),
        "iftp-fig5-tcp-source-equals-sink": Measurement(
            value=float(tcp_loss[:, worst_low].mean()), samples=tuple(tcp_loss[:, worst_low]),
            seeds=f5.seeds,
            reason=f"TCP (source - sink)/source {np.round(tcp_loss.mean(axis=0), 3).tolist()} at "
                   f"{rates} Mb/s; the largest at UDP <= 0.3 Mb/s"),
        "iftp-fig5-reduction-starts": Measurement(
            value=float(start),
            reason=f"the UDP rate from which TCP + UDP leave more than 5 % of B unused "
                   f"(inf: none up to {max(rates):g} Mb/s); unused "
                   f"{np.round(100 * deficit, 1).tolist()} % of B at {rates} Mb/s; TCP alone "
                   f"{f5.tcp_alone / 1e6:.3f} Mb/s: on the stated 50-packet buffer Reno keeps the "
                   f"link full beside UDP until UDP alone fills it"),
    }


# --- §6.1 Figure 6 and Table I ------------------------------------------------------------------

@unit("iftp-fig6-fair-share", section=_SECTION, needs="sec61",
      optional={"continuous": "sec61_continuous"}, evidence=_EV + "friendliness; iftp_fig6")
def fig6(fr, continuous=None):
    ratios = fr.sink[:, 2:4].mean(axis=1) / fr.sink[:, :2].mean(axis=1)
    alt = [] if continuous is None else [
        f"pacing='continuous': IFTP/TCP {continuous.iftp_mean / continuous.tcp_mean:.2f}"]
    alt.append("two-flow runs of ctlcc.crosscheck.iftp_tcp_friendliness (one Reno, one IFTP "
               "on the same network) in the report's cross-check section")
    return Measurement(
        value=float(ratios.mean()), samples=tuple(ratios), seeds=fr.seeds,
        reason=f"per-source sink bandwidth TCP {fr.tcp_mean / 1e6:.3f}, IFTP "
               f"{fr.iftp_mean / 1e6:.3f} Mb/s (1 Mb/s link, {fr.duration:g} s), IFTP/TCP per "
               f"seed {np.round(ratios, 2).tolist()}; IFTP timeouts "
               f"{fr.timeouts.mean(axis=0).round(1).tolist()}", other_evidence="; ".join(alt))


_TABLE1 = {"iftp-table1-gaps-sim": ("gap_mean", 0), "iftp-table1-gaps-sim-iftp1": ("gap_mean", 1),
           "iftp-table1-jitter-sim": ("gap_std", 0), "iftp-table1-jitter-sim-iftp1": ("gap_std", 1)}


@unit(*_TABLE1, section=_SECTION, needs="sec61",
      optional={"tau_b": "sec61_tau_bottleneck", "cont": "sec61_continuous",
                "cont_tau_b": "sec61_tau_bottleneck_continuous"},
      evidence=_EV + "friendliness; iftp_table1_gaps")
def table1(fr, tau_b=None, cont=None, cont_tau_b=None):
    out = {}
    readings = (("tau one packet at B (8 ms)", tau_b), ("pacing='continuous'", cont),
                ("pacing='continuous', tau at B", cont_tau_b))
    for cid, (field, j) in _TABLE1.items():
        v = 1e3 * getattr(fr, field)[:, j]
        alt = "; ".join(f"{name}: {1e3 * getattr(r, field)[:, j].mean():.2f} ms"
                        for name, r in readings if r is not None)
        g = 1e3 * fr.gap_mean[:, j].mean()
        out[cid] = Measurement(
            value=float(v.mean()), samples=tuple(v), seeds=fr.seeds,
            reason=(f"IFTP{j}'s {'mean gap G' if field == 'gap_mean' else 'standard deviation of G'}"
                    f" over {fr.duration:g} s with tau = {1e3 * fr.tau:.2f} ms (one packet on its "
                    f"access link); G + tau = {g + 1e3 * fr.tau:.2f} ms per packet against "
                    f"{1e3 * 4 * 8000.0 / fr.bottleneck_rate:.0f} ms for the fair share B/4; IFTP "
                    f"timeouts {fr.timeouts[:, j].mean():.1f}"),
            other_evidence=alt)
    return out


# --- §6.2-6.3 Tables II-III ---------------------------------------------------------------------

_SOURCES = {"udp": 0, "iftp": 1, "tcp": 2}


def _table2_ids():
    ids = []
    for rate in ("1.8", "1.2", "0.9", "0.6", "0.3", "0.16"):
        for source in _SOURCES:
            ids.append(_table2_id(source, rate))
    return ids


def _table2_id(source, rate):
    if rate == "1.8" and source == "udp":
        return "iftp-table2-udp-drops-sim"
    if rate == "1.8" and source == "iftp":
        return "iftp-table2-drops-sim"
    return f"iftp-table2-lost-{source}-{rate}"


@unit(*_table2_ids(), section=_SECTION, needs="tables23",
      optional={"cont": "tables23_continuous"}, evidence=_EV + "udp_losses; iftp_table2_losses")
def table2(t, cont=None):
    from ..experiments.iftp import DURATION

    tables = _tables()
    lost = t.per_seed["lost"]                 # (seeds, rates, [udp, iftp, tcp])
    out = {}
    for i, rate in enumerate(t.udp_rates):
        column = f"{rate / 1e6:g}"
        for source, j in _SOURCES.items():
            v = lost[:, i, j]
            implied = None
            text = (f"packets lost by {'the' if source == 'udp' else 'each' if source == 'iftp' else 'the'} "
                    f"{source.upper()} source{'s (mean of two)' if source == 'iftp' else ''} with "
                    f"UDP at {column} Mb/s on 1.5 Mb/s over {t.duration:g} s")
            if source == "udp" and rate > t.bottleneck_rate:
                implied = (rate - t.bottleneck_rate) * DURATION / 8000.0
                text += (f"; the link carries at most B T / P packets, so UDP alone loses at "
                         f"least (r - B) T / P = {implied:.0f} over the paper's {DURATION:g} s")
            alt = "" if cont is None else (
                f"pacing='continuous': {cont.per_seed['lost'][:, i, j].mean():.1f}")
            out[_table2_id(source, column)] = Measurement(
                value=float(v.mean()), samples=tuple(v), seeds=t.seeds, implied=implied,
                reason=text + f" (paper {tables[('II', source.upper(), column)]})",
                other_evidence=alt)
    return out


@unit("iftp-table2-orders-of-magnitude", section=_SECTION, needs="tables23",
      evidence=_EV + "udp_losses; iftp_table2_losses")
def table2_ratio(t):
    ratio = t.lost[:, 0] / np.maximum(t.lost[:, 1], 1.0)
    big = t.udp_rates >= 0.6e6
    cols = [f"{r / 1e6:g}" for r in t.udp_rates]
    return Measurement(value=float(ratio[big].min()),
                       reason=f"UDP / IFTP losses {np.round(ratio, 1).tolist()} at {cols} Mb/s "
                              f"(seed means); the smallest at UDP >= 0.6 Mb/s")


_TABLE3 = {"iftp-table3-delay-sim": ("delay", 0, "IFTP"), "iftp-table3-delay-udp": ("delay", 1, "UDP"),
           "iftp-table3-jitter-iftp": ("jitter", 0, "IFTP"),
           "iftp-table3-jitter-udp": ("jitter", 1, "UDP")}


@unit(*_TABLE3, section=_SECTION, needs="tables23", optional={"cont": "tables23_continuous"},
      evidence=_EV + "udp_losses; iftp_table3_delay")
def table3(t, cont=None):
    out = {}
    queue_max = 1e3 * 51 * 8000.0 / t.bottleneck_rate
    for cid, (field, j, name) in _TABLE3.items():
        v = 1e3 * t.per_seed[field][:, :, j].mean(axis=1)
        alt = "" if cont is None else (
            f"pacing='continuous': {1e3 * cont.per_seed[field][:, :, j].mean():.1f} ms")
        out[cid] = Measurement(
            value=float(v.mean()), samples=tuple(v), seeds=t.seeds,
            reason=(f"{name}'s mean one-way {'delay' if field == 'delay' else 'delay jitter'} over "
                    f"the six UDP rates; the 11-ms path plus a full 50-packet queue at 1.5 Mb/s is "
                    f"at most {11 + queue_max:.0f} ms, so delays of 541 and 990 ms need queueing "
                    f"outside the stated bottleneck (e.g. at the sources)"),
            other_evidence=alt)
    return out


@unit("iftp-table3-iftp-below-udp", "iftp-table3-jitter-below-udp", section=_SECTION,
      needs="tables23", evidence=_EV + "udp_losses; iftp_table3_delay")
def table3_ratios(t):
    delay = t.per_seed["delay"].mean(axis=1)      # (seeds, [iftp, udp])
    jitter = t.per_seed["jitter"].mean(axis=1)
    d, j = delay[:, 0] / delay[:, 1], jitter[:, 0] / jitter[:, 1]
    return {
        "iftp-table3-iftp-below-udp": Measurement(
            value=float(d.mean()), samples=tuple(d), seeds=t.seeds,
            reason=f"mean delay IFTP/UDP {1e3 * delay[:, 0].mean():.1f}/"
                   f"{1e3 * delay[:, 1].mean():.1f} ms: both cross the same FIFO queue"),
        "iftp-table3-jitter-below-udp": Measurement(
            value=float(j.mean()), samples=tuple(j), seeds=t.seeds,
            reason=f"delay jitter IFTP/UDP {1e3 * jitter[:, 0].mean():.1f}/"
                   f"{1e3 * jitter[:, 1].mean():.1f} ms"),
    }


# --- §6.4 Table IV -------------------------------------------------------------------------------

_CELLS = [f"B={b:.1f} D={d:g}" for d in (0.003, 3) for b in (0.5, 1.0, 1.5)]


def _cell_id(kind, cell):
    tag = cell.replace("=", "").replace(" ", "-")
    if kind == "utilisation":
        return f"iftp-table4-utilisation-{tag}"
    if kind == "tcp" and cell == "B=1.0 D=0.003":
        return "iftp-table4-bandwidth-sim"
    return f"iftp-table4-{kind}-{tag}"


@unit(*[_cell_id(k, c) for c in _CELLS for k in ("utilisation", "tcp", "iftp")],
      section=_SECTION, needs="table4", optional={"cont": "table4_continuous"},
      evidence=_EV + "bandwidth_delay; iftp_table4")
def table4(t4, cont=None):
    tables = _tables()
    out = {}
    for d, delay in enumerate(t4.delays):
        for b, rate in enumerate(t4.bandwidths):
            cell = f"B={rate / 1e6:.1f} D={1e3 * delay:g}"
            tcp_text, iftp_text = tables[("IV", "TCP bandwidth", cell)], \
                tables[("IV", "IFTP bandwidth", cell)]
            util_text = tables[("IV", "utilization", cell)]
            implied = 100 * 2 * (float(tcp_text) + float(iftp_text)) / (rate / 1e6)
            implied_tol = (100 * 2 * (half_unit(tcp_text) + half_unit(iftp_text)) / (rate / 1e6)
                           + half_unit(util_text))
            timeouts = f"IFTP timeouts {t4.iftp_timeouts[d, b]:.1f} per source"
            for kind, key, scale in (("utilisation", "utilisation", 100.0), ("tcp", "tcp", 1e-6),
                                     ("iftp", "iftp", 1e-6)):
                v = scale * t4.per_seed[key][:, d, b]
                alt = "" if cont is None else (
                    f"pacing='continuous': {scale * cont.per_seed[key][:, d, b].mean():.3g}")
                out[_cell_id(kind, cell)] = Measurement(
                    value=float(v.mean()), samples=tuple(v), seeds=t4.seeds,
                    implied=implied if kind == "utilisation" else None,
                    implied_tolerance=implied_tol if kind == "utilisation" else None,
                    reason=(f"two TCP and two IFTP sources at {cell} (D the bottleneck's one-way "
                            f"delay in ms, as printed): TCP {1e-6 * t4.tcp[d, b]:.3f} (paper "
                            f"{tcp_text}), IFTP {1e-6 * t4.iftp[d, b]:.3f} (paper {iftp_text}) "
                            f"Mb/s per source, utilisation {100 * t4.utilisation[d, b]:.1f} % "
                            f"(paper {util_text}); {timeouts}"
                            + (f"; the table's own bandwidths give 2 (TCP + IFTP) / B = "
                               f"{implied:.1f} % (+- {implied_tol:.1f} from their printed digits)"
                               if kind == "utilisation" else "")),
                    other_evidence=alt)
    return out
