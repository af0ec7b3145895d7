# ctlcc.ledger.simulated - the cross-checks (analytic prediction vs packets) as claims
"""Claims measured on the packet simulator: :mod:`ctlcc.crosscheck` as ledger records.

Every compared point of every :class:`~ctlcc.crosscheck.CrossCheck` of
:func:`ctlcc.crosscheck.run_all` becomes one :class:`~ctlcc.claims.Claim`:
*published* is the prediction of the paper's formula or loop (computed by
ctlcc), *value* the simulated mean over seeds with its spread, the verdict
``reproduced`` when the point lies within the check's tolerance and
``differs`` otherwise, the reason giving the error, the tolerance and why it
is that wide.

Two checks also run beyond the range :func:`ctlcc.crosscheck.run_all` gives
them (names ending in ``_beyond``): the square-root law at p = 3e-2 and
1e-1 is still inside the range its paper states (p < 0.16, Ait-Hellal, Yamamoto & Leduc (1999), §2), so its
points are ordinary claims; eq. (4.19) at p >= 1e-2 is outside the thesis's
range, where the thesis says instead that the analysis lies *above*
simulation, and that is the claim those points check.
"""

import re

import numpy as np

from ..claims import Claim

__all__ = ["PAPERS", "crosscheck_claims", "claims_from_check", "thesis_claims"]

#: Cross-check name -> (paper key, location of the claim in that paper).
PAPERS = {
    "reno_square_root_law": ("cbraa", "§2, eq. (1)"),
    "reno_pftk": ("pftk", "eq. (31)"),
    "reno_sawtooth_utilisation": ("mathis", "§2, periodic-loss sawtooth"),
    "stpd_decay_per_rtt": ("stpd", "eqs. (3.3)-(3.5)"),
    "stpd_decay_per_slot": ("stpd", "eqs. (4.1)-(4.11)"),
    "stpd_throughput_under_loss": ("stpd", "§4.3.3, eq. (4.19), Fig. 4.6"),
    "primo_limit_cycle": ("primo", "Algorithm 1, §III-E"),
    "primo_heterogeneous_fairness": ("primo", "§V-D"),
    "fluid_reno_rate": ("hollot", "§II, fluid model of TCP"),
    "cbraa_loss_threshold": ("cbraa", "§3.1 eq. (4), Figure 1"),
    "cbraa_mathis_rate": ("cbraa", "§2 eq. (2), Figure 1"),
    "cbraa_smoothness": ("cbraa", "Abstract, §4.1"),
    "tfrc_equation_rate": ("rfc5348", "§3.1, §4.3"),
    "tfrc_newreno_share": ("rfc5348", "§1"),
    "sttp_burst_bound": ("sttp", "§III-B, token bucket (sigma + rho S)"),
    "sttp_packet_pair": ("sttp", "§III-A, packet pair"),
    "sttp_rtt_scaling": ("sttp", "§III-B.3, alpha:beta scaling"),
    "sack_vs_ns3_goodput": ("rfc6675", "§5, SACK loss recovery (reference: ns-3.44 runs)"),
    "sack_vs_ns3_retransmitted": ("rfc6675", "§5, SACK loss recovery (reference: ns-3.44 runs)"),
}

#: Report items that show a check, beyond the two cross-check tables.
_FIGURES = {
    "reno_square_root_law": "crosscheck_reno_vs_mathis_pftk",
    "reno_pftk": "crosscheck_reno_vs_mathis_pftk",
    "stpd_decay_per_rtt": "crosscheck_stpd_decay_per_rtt_vs_per_slot",
    "stpd_decay_per_slot": "crosscheck_stpd_decay_per_rtt_vs_per_slot",
    "primo_limit_cycle": "primo_limit_cycle_crosscheck",
}


def crosscheck_claims(checks=None):
    """Claims of every cross-check.

    Parameters
    ----------
    checks : sequence of CrossCheck, optional
        Default :func:`ctlcc.crosscheck.run_all` (memoised: the report's
        ``crosscheck`` section and this source share one run).

    Returns
    -------
    list of Claim
    """
    if checks is None:
        from ..crosscheck import run_all

        checks = run_all()
    out = []
    for check in checks:
        if check.name == "stpd_throughput_under_loss_beyond":
            out += _analysis_above_simulation(check)
        elif check.name.endswith("_beyond"):
            out += claims_from_check(check, name=check.name[:-len("_beyond")])
        else:
            out += claims_from_check(check)
    return out


def thesis_claims():
    """The ST-PD thesis's simulation claims, as the report's ``thesis_sim`` section checks them.

    :func:`ctlcc.experiments.thesis.claims` over the quick experiments plus the
    bursty-loss channel counted in seconds, the runs that
    :func:`ctlcc.plots.thesis_experiments.report_items` tabulates (both memoised,
    so the section and the ledger share them).

    Returns
    -------
    list of Claim
    """
    from ..experiments import thesis as experiments

    quick = experiments.QUICK
    time_channel = experiments.bursty_loss(seeds=quick["bursty_seeds"],
                                           duration=quick["bursty_duration"], channel="time")
    return (experiments.claims(experiments.run_all(quick=True))
            + experiments.claims({"bursty_loss": time_channel}))


def claims_from_check(check, name=None):
    """One claim per compared point of *check*.

    Parameters
    ----------
    check : CrossCheck
    name : str, optional
        Name to file the claims under (default ``check.name``).

    Raises
    ------
    ValueError
        The check's paper is unknown (add it to :data:`PAPERS`).
    """
    name = name or check.name
    paper, location = _paper(name)
    seeds = tuple(int(s) for s in check.parameters.get("seeds", ()))
    unit = _unit(check.quantity)
    evidence = "; ".join(filter(None, (
        _FIGURES.get(name), "crosscheck_summary", "crosscheck_points",
        f"ctlcc.crosscheck.{_function(name)}")))
    out = []
    for i, label in enumerate(check.labels):
        predicted, measured = float(check.predicted[i]), float(check.measured[i])
        tol, error = float(check.tolerance[i]), float(check.error[i])
        spread = float(check.spread[i]) if len(seeds) > 1 else None
        if not np.isfinite(measured):
            verdict, reason = "differs", f"no measurement ({measured}); {check.note}".rstrip("; ")
        elif check.within[i]:
            verdict = "reproduced"
            reason = f"|error| {abs(error):.3g} within the tolerance {tol:.3g}: {check.tolerance_reason}"
        else:
            verdict = "differs"
            rel = f" ({100 * error / abs(predicted):+.0f} %)" if predicted else ""
            reason = (f"measured - predicted = {error:+.3g}{rel}, tolerance {tol:.3g} "
                      f"({check.tolerance_reason})" + (f"; {check.note}" if check.note else ""))
        out.append(Claim(
            id=f"{paper}-{_strip_prefix(name, paper).replace('_', '-')}-{_slug(label)}",
            paper=paper,
            location=location, claim=f"{_sentence(check.claim)} ({label}).",
            published=predicted, value=measured, spread=spread,
            unit=_unit(label) or unit, seeds=seeds, verdict=verdict,
            evidence=evidence, reason=reason))
    return out


def _analysis_above_simulation(check):
    """Thesis §4.3.3: above 1e-2 the analysis is higher than simulation."""
    paper, location = PAPERS["stpd_throughput_under_loss"]
    seeds = tuple(int(s) for s in check.parameters.get("seeds", ()))
    out = []
    for i, label in enumerate(check.labels):
        predicted, measured = float(check.predicted[i]), float(check.measured[i])
        above = predicted > measured
        out.append(Claim(
            id=f"stpd-eq4.19-above-simulation-{_slug(label)}", paper=paper,
            location="§4.3.3, after Fig. 4.6",
            claim=f"Above a packet-error probability of 1e-2 the analysis (eq. 4.19) gives a "
                  f"higher throughput than simulation ({label}).",
            published=predicted, value=measured,
            spread=float(check.spread[i]) if len(seeds) > 1 else None, unit=_unit(check.quantity),
            seeds=seeds, verdict="reproduced" if above else "differs",
            evidence="crosscheck_summary; crosscheck_points; "
                     "ctlcc.crosscheck.stpd_throughput_under_loss",
            reason=(f"analysis {predicted:.3f} > simulated {measured:.3f}; ctlcc's packets lose "
                    f"throughput to timeouts after lost retransmissions ({check.note}), the thesis "
                    f"to ST-PD's Reno fallback") if above else
                   f"analysis {predicted:.3f} <= simulated {measured:.3f}"))
    return out


# --- private helpers ----------------------------------------------------------------------

def _paper(name):
    if name in PAPERS:
        return PAPERS[name]
    prefix = name.split("_")[0]
    if prefix in ("stpd", "primo", "iftp", "cbraa", "sttp"):
        return prefix, "cross-check"
    raise ValueError(f"cross-check {name!r}: unknown paper; add it to "
                     f"ctlcc.ledger.simulated.PAPERS")


def _strip_prefix(name, paper):
    return name[len(paper) + 1:] if name.startswith(paper + "_") else name


def _function(name):
    return re.sub(r"_per_(rtt|slot)$|(?<=^sack_vs_ns3)_(goodput|retransmitted)$", "", name)


def _unit(text):
    units = re.findall(r"\[([^\]]*)\]", text)
    return units[0] if len(units) == 1 else ""


def _slug(text):
    text = re.sub(r"\[[^\]]*\]", "", text)
    return re.sub(r"[^a-z0-9.]+", "-", text.lower()).strip("-")


def _sentence(text):
    return text[:1].upper() + text[1:]
