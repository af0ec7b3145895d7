# ctlcc.claims.registry - claims as registered units: a measurement bound to its declared record
"""Claims as registered units.

A *unit* is one measurement bound to the record(s) it is judged against:

* the record (paper, location, the paper's words and value, kind, the
  measurable form, target, comparison, tolerance and its basis) is a row of
  ``data/ledger_<paper>.csv``, declared before anything is measured
  (:func:`rules`);
* the measurement is a function registered with :func:`unit` in a
  per-paper module (:data:`MODULES`), beside what it measures: an analytic
  record in :mod:`ctlcc.claims.stpd`, :mod:`ctlcc.claims.iftp`, ...; a
  cross-check's after the check in :mod:`ctlcc.crosscheck.stpd`, ...; a
  thesis experiment's after the experiment in the topic modules of
  :mod:`ctlcc.experiments.thesis`.  It returns a :class:`Measurement`:
  ctlcc's value (and its samples over seeds), never a verdict.

:func:`evaluate` joins the two and applies :func:`ctlcc.claims.judge`; the
ledger's sources, the report's sections and the README tables all derive
from this registry (:func:`units`, :func:`sections`).

A unit declares the report section that runs it and, optionally, the
experiment it needs (a key of the dict the section's provider returns):
``@unit("stpd-fig.4.8-fig4_8_stpd_1e-2", section="thesis_sim",
needs="uniform_loss")`` receives ``results["uniform_loss"]``.  The same
units evaluate results handed in by a caller
(``ctlcc.experiments.thesis.claims(results)``).

Examples
--------
>>> rule = rules()["cbraa-eq4-loss-d"]
>>> rule.kind, rule.comparison, rule.on_outside
('paper', '==', 'printed-error')
>>> [c.verdict for c in evaluate(units(ids=["cbraa-eq4-loss-d"])) if c.id == "cbraa-eq4-loss-d"]
['printed-error']
"""

import fnmatch
import importlib
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

from .. import _data
from .._validation import check_choice, check_sequence
from ..errors import ParameterError
from ..references import cite
from .record import COMPARISONS, KINDS, OUTSIDE_VERDICTS, Claim, judge, within

__all__ = ["MODULES", "Rule", "Measurement", "Unit", "unit", "units", "rules", "renamed",
           "sections", "evaluate", "section_claims", "paper_claims", "RULE_COLUMNS"]

#: Per-paper modules that register units, in ledger order (:func:`units` sorts by it).
#: A unit lives beside what it measures: the analytic records in ``ctlcc.claims``,
#: the cross-checks' in ``ctlcc.crosscheck``, the thesis's experiments' in the topic
#: modules of ``ctlcc.experiments.thesis``.
MODULES = ("ctlcc.claims.stpd", "ctlcc.crosscheck.stpd",
           "ctlcc.experiments.thesis.single_flow", "ctlcc.experiments.thesis.multi_flow",
           "ctlcc.experiments.thesis.wireless", "ctlcc.experiments.thesis.coexistence",
           "ctlcc.claims.stpd_testbed",
           "ctlcc.crosscheck.primo",
           "ctlcc.claims.primo_sim", "ctlcc.claims.iftp", "ctlcc.crosscheck.iftp",
           "ctlcc.claims.iftp_sim",
           "ctlcc.claims.cbraa", "ctlcc.crosscheck.cbraa", "ctlcc.claims.cbraa_sim",
           "ctlcc.claims.sttp", "ctlcc.crosscheck.sttp",
           "ctlcc.claims.sttp_sim", "ctlcc.claims.others", "ctlcc.crosscheck.others",
           "ctlcc.claims.aqm", "ctlcc.claims.ns3",
           "ctlcc.claims.stpd_equations",
           "ctlcc.claims.iftp_equations",
           "ctlcc.claims.cbraa_equations",
           "ctlcc.claims.primo_equations",
           "ctlcc.claims.sttp_equations",
           "ctlcc.claims.sttp_sentences",
           "ctlcc.claims.iftp_sentences",
           "ctlcc.claims.sttp_cells",
           "ctlcc.claims.sttp_table3",
           "ctlcc.claims.sttp_sections",
           "ctlcc.claims.cbraa_findings",
           "ctlcc.claims.primo_sentences",
           "ctlcc.claims.stpd_testbed_findings",
           "ctlcc.claims.iftp_more_sentences",
           "ctlcc.claims.cbraa_more_findings",
           "ctlcc.claims.cbraa_sweeps",
           "ctlcc.claims.iftp_runs",
           "ctlcc.claims.primo_runs",
           )

#: Columns of ``data/ledger_<paper>.csv``.
RULE_COLUMNS = ("id", "kind", "paper", "location", "source", "inventory_id", "quote", "published",
                "unit", "measurable_form", "target", "comparison", "tolerance", "tolerance_basis",
                "se_factor", "on_outside", "implied_comparison", "implied_tolerance",
                "implied_basis")

_UNITS = []
_PROVIDERS = {}


@dataclass(frozen=True)
class Rule:
    """A record as declared in ``data/ledger_<paper>.csv`` (before measuring).

    Attributes
    ----------
    id : str
        Claim id; with a ``*`` (shell-style pattern) the rule applies to
        every unit id it matches (a family of consistency points; the
        longest matching pattern wins).
    kind, paper, location, inventory_id, quote, published, unit, measurable_form : str
        As in :class:`~ctlcc.claims.Claim` (*quote* becomes its ``claim``;
        ``{label}`` in it is replaced by the measurement's label).
    target : str
        '' (the published number), a number, or ``model`` (supplied by the
        measurement: a model's prediction known before the simulation).
    comparison : str
    tolerance : str
        Absolute number in *unit*, or ``"<x> %"`` of the target's magnitude.
    tolerance_basis : str
    se_factor : float
        Multiple of the standard error of ctlcc's mean over seeds added to
        the tolerance (0 for deterministic values).
    on_outside : str
    implied_comparison, implied_tolerance, implied_basis : str
        How the published value must relate to what the paper's own numbers
        imply (supplied by the measurement); '' when not checked.
    """

    id: str
    kind: str
    paper: str
    location: str
    inventory_id: str
    quote: str
    published: str
    unit: str
    measurable_form: str
    target: str
    comparison: str
    tolerance: str
    tolerance_basis: str
    se_factor: float
    on_outside: str
    implied_comparison: str
    implied_tolerance: str
    implied_basis: str
    file: str = ""

    def matches(self, claim_id):
        """Whether this rule declares *claim_id*."""
        return _matches(claim_id, self.id)

    def published_value(self):
        """The published value: a float when it parses as one, else the text."""
        return _number(self.published)

    def absolute_tolerance(self, target):
        """The declared tolerance in the record's unit (before the seed part)."""
        text = self.tolerance.strip()
        if text.endswith("%"):
            return float(text[:-1]) / 100.0 * abs(float(target))
        return float(text)


@dataclass(frozen=True)
class Measurement:
    """What a unit measured for one record: ctlcc's value, never a verdict.

    Attributes
    ----------
    value : float
        ctlcc's value in the record's unit (the mean of *samples* when given).
    samples : tuple of float
        One value per seed (random runs); their mean is *value*.
    seeds : tuple of int
    spread : float or None
        Standard deviation over seeds when *samples* are not at hand.
    target : float or None
        For rules whose target is ``model``: the prediction.
    published : object
        For ``model`` rules: what to show as published (default *target*).
    implied : float or None
        What the paper's own numbers imply for the published value.
    implied_tolerance : float or None
        Its tolerance when it varies per record (default: the rule's).
    label : str
        Replaces ``{label}`` in the rule's quote (a point of a family).
    reason : str
        What was measured, in words and numbers.
    other_evidence : str
        Evidence on the same sentence that does not decide the verdict.
    evidence : str
        Functions, tests, report items (``;``-separated); default the unit's.
    """

    value: float
    samples: tuple = ()
    seeds: tuple = ()
    spread: object = None
    target: object = None
    published: object = None
    implied: object = None
    implied_tolerance: object = None
    label: str = ""
    reason: str = ""
    other_evidence: str = ""
    evidence: str = ""


@dataclass(frozen=True)
class Unit:
    """A registered measurement.

    Attributes
    ----------
    ids : tuple of str
        Claim ids it yields (each declared by a rule).
    measure : callable
        Returns a :class:`Measurement` (one id), a dict id -> Measurement
        (several), or None when its results are not at hand.
    section : str
        Report section that runs it (:data:`ctlcc.report.SECTIONS`).
    needs : tuple of str
        Keys of the section's results it takes, in order (empty: none).
    evidence : str
        Default evidence of its records.
    module : str
    optional : tuple of (str, str)
        (keyword argument, results key) passed when present.
    paper : str
        Paper the unit's records belong to; '' for the paper its module is
        named after.
    """

    ids: tuple
    measure: object
    section: str
    needs: tuple = ()
    evidence: str = ""
    module: str = ""
    optional: tuple = ()
    paper: str = ""

    @property
    def paper_module(self):
        """Paper of the unit (``ctlcc.claims.primo_sim`` -> ``"primo"``; else its *paper*)."""
        return self.paper or self.module.rsplit(".", 1)[-1].split("_")[0]


def unit(*ids, section, needs=(), evidence="", optional=None, paper=""):
    """Register the decorated function as the measurement of the claims *ids*.

    Parameters
    ----------
    *ids : str
        Claim ids, each declared in ``data/ledger_<paper>.csv``.
    section : str
        Report section whose worker runs it.
    needs : str or tuple of str
        Results the function takes (keys of the section's results).
    evidence : str
        Default evidence (functions, report items).
    optional : dict, optional
        Keyword argument -> results key, passed when the results hold it.
    paper : str, optional
        Paper of the records when the module is not named after it
        (``ctlcc.experiments.thesis.wireless``: ``"stpd"``).
    """
    if not ids:
        raise ParameterError("unit needs at least one claim id")
    needs = (needs,) if isinstance(needs, str) else tuple(needs)

    def register(function):
        _UNITS.append(Unit(tuple(ids), function, section, needs, evidence, function.__module__,
                           tuple((optional or {}).items()), paper))
        return function

    return register


def provider(section):
    """Register the decorated function as the source of *section*'s results (a dict)."""
    def register(function):
        _PROVIDERS[section] = function
        return function

    return register


def units(section=None, paper=None, ids=None):
    """Registered units, in ledger order.

    Parameters
    ----------
    section : str, optional
    paper : str, optional
        Per-paper module name (``"stpd"``, ``"primo"``, ... ``"others"``).
    ids : sequence of str, optional
        Only units yielding one of these ids.

    Returns
    -------
    list of Unit

    Raises
    ------
    ParameterError
        An unknown *section* or *paper*, *ids* that is not a sequence of str.

    Examples
    --------
    >>> [u.section for u in units(ids=["stpd-4.3.3-poles"])]
    ['stpd']
    """
    _load()
    out = _ordered()
    if section is not None:
        check_choice("section", section, _sections(out))
    if paper is not None:
        check_choice("paper", paper, tuple(dict.fromkeys(u.paper_module for u in out)))
    if ids is not None:
        ids = check_sequence("ids", ids, item=_check_str)
    if section is not None:
        out = [u for u in out if u.section == section]
    if paper is not None:
        out = [u for u in out if u.paper_module == paper]
    if ids is not None:
        wanted = set(ids)
        out = [u for u in out if wanted & set(u.ids)]
    return out


def sections():
    """Report sections that have units, in ledger order."""
    _load()
    return list(_sections(_ordered()))


def _sections(selected):
    return tuple(dict.fromkeys(u.section for u in selected))


def _check_str(name, value):
    if not isinstance(value, str):
        raise ParameterError(f"{name} must be a str, got {value!r}")
    return value


def rules():
    """Every declared record, ``{id: Rule}`` (glob rules under their ``...*`` id).

    Raises
    ------
    ParameterError
        A malformed row (unknown kind, comparison, tolerance that is not a
        number, a duplicated id).
    """
    if _RULES:
        return dict(_RULES)
    out = {}
    for name in _data.names():
        if not (name.startswith("ledger_") and name.endswith(".csv")) or name == "ledger_renamed.csv":
            continue
        for row in _data.read_csv(name):
            rule = _rule(row, name)
            if rule.id in out:
                raise ParameterError(f"data/{name}: claim id {rule.id!r} declared twice")
            out[rule.id] = rule
    _RULES.update(out)
    return dict(out)


def renamed():
    """Old claim id -> (new id or '' when removed, why), from ``data/ledger_renamed.csv``."""
    return {row["old_id"]: (row["new_id"], row["why"])
            for row in _data.read_csv("ledger_renamed.csv")}


def evaluate(selected=None, results=None):
    """The records of *selected* units, judged.

    Parameters
    ----------
    selected : sequence of Unit, optional
        Default: every unit.
    results : dict, optional
        ``{key: result}`` handed to units that need them; default: each
        section's provider.  Given, only the units that need some of them
        run, and units whose needs are missing are skipped.

    Returns
    -------
    list of Claim

    Raises
    ------
    ParameterError
        *selected* that is not a sequence of :class:`Unit`, *results* that
        is not a dict.
    """
    if selected is None:
        selected = units()
    else:
        selected = check_sequence("selected", selected, item=_check_unit, min_length=0)
    if results is not None and not isinstance(results, Mapping):
        raise ParameterError(f"results must be a dict {{key: result}} or None, got "
                             f"{type(results).__name__} {results!r:.80}")
    table = rules()
    cache = {}
    out = []
    for u in selected:
        if u.needs:
            if results is not None:
                source = results
            else:
                if u.section not in cache:
                    cache[u.section] = _provide(u.section)
                source = cache[u.section]
            if any(key not in source for key in u.needs):
                continue
            extra = {name: source[key] for name, key in u.optional if key in source}
            measured = u.measure(*(source[key] for key in u.needs), **extra)
        elif results is not None:
            continue            # a self-contained unit measures nothing from *results*
        else:
            measured = u.measure()
        if measured is None:
            continue
        if isinstance(measured, Measurement):
            if len(u.ids) != 1:
                raise TypeError(f"unit {u.measure.__qualname__} yields {u.ids}: return a dict "
                                f"id -> Measurement")
            measured = {u.ids[0]: measured}
        for claim_id, m in measured.items():
            if m is None:
                continue
            if not any(_matches(claim_id, pattern) for pattern in u.ids):
                raise ValueError(f"unit {u.measure.__qualname__} returned {claim_id!r}, not one of "
                                 f"its declared ids {u.ids}")
            out.append(record(claim_id, m, _find_rule(table, claim_id), u.evidence))
    return out


def section_claims(section):
    """Every record of the units of one report section (a ledger source).

    Parameters
    ----------
    section : str
        One of :func:`sections`.

    Returns
    -------
    list of Claim
    """
    check_choice("section", section, tuple(sections()))
    return evaluate(units(section=section))


def paper_claims(paper, results, section=None):
    """The records a paper's units make from *results* (``experiments.<paper>.claims``).

    Parameters
    ----------
    paper : str
        Per-paper module name (``"stpd"``, ``"primo"``, ...).
    results : dict
        ``{key: result}`` of the paper's experiments.
    section : str, optional
        Only the units of this report section.

    Returns
    -------
    list of Claim
    """
    if not isinstance(results, Mapping):
        raise ParameterError(f"results must be a dict {{key: result}}, got "
                             f"{type(results).__name__} {results!r:.80}")
    if paper is None:
        raise ParameterError("paper must be one of the per-paper modules ('stpd', 'primo', "
                             "...), got None")
    selected = units(section=section, paper=paper)
    wanted = {key for u in selected for key in u.needs} | {
        key for u in selected for _, key in u.optional}
    if results and not wanted & set(results):
        raise ParameterError(f"results must hold some of the keys {sorted(wanted)} that the "
                             f"units of paper={paper!r}, section={section!r} read, got the "
                             f"keys {sorted(results)!r:.200}")
    return evaluate(selected, results=results)


def _check_unit(name, value):
    if not isinstance(value, Unit):
        raise ParameterError(f"{name} must be a Unit (see units()), got {value!r:.80}")
    return value


def record(claim_id, m, rule, default_evidence=""):
    """Join a measurement with its declared rule and judge it.

    Parameters
    ----------
    claim_id : str
    m : Measurement
    rule : Rule
    default_evidence : str

    Returns
    -------
    Claim
    """
    samples = tuple(float(x) for x in m.samples)
    value = float(m.value)
    spread = m.spread
    if samples:
        mean = sum(samples) / len(samples)
        if not (math.isclose(mean, value, rel_tol=1e-9, abs_tol=1e-12)
                or (math.isnan(mean) and math.isnan(value))):
            raise ValueError(f"{claim_id}: value {value!r} is not the mean of its samples "
                             f"({mean!r})")
        if len(samples) > 1:
            spread = math.sqrt(sum((x - mean) ** 2 for x in samples) / (len(samples) - 1))
    n = len(m.seeds) if m.seeds else len(samples)
    stderr = float(spread) / math.sqrt(n) if spread is not None and n > 1 else None
    if spread is not None and not math.isfinite(spread):
        spread, stderr = None, None
    if rule.target.strip() == "model":
        if m.target is None:
            raise ValueError(f"{claim_id}: its rule takes the target from the measurement "
                             f"(target 'model'), which gave none")
        target = float(m.target)
        published = m.published if m.published is not None else target
    else:
        published = rule.published_value()
        target = float(rule.target) if rule.target.strip() else published
        if not isinstance(target, float):
            raise ParameterError(f"data/{rule.file}: {claim_id} needs a numeric target (its "
                                 f"published value {published!r} is not a number)")
    base = rule.absolute_tolerance(target)
    seed_part = rule.se_factor * stderr if (rule.se_factor and stderr is not None) else 0.0
    tolerance = base + seed_part
    basis = rule.tolerance_basis
    if rule.tolerance.strip().endswith("%"):
        basis += f" ({rule.tolerance.strip()} of {_fmt(abs(target))} = {_fmt(base)})"
    if rule.se_factor:
        if stderr is not None:
            basis += (f"; + {rule.se_factor:g} x the standard error of ctlcc's mean over "
                      f"{n} seeds ({_fmt(stderr)}) = {_fmt(tolerance)}")
        else:
            basis += "; one deterministic run: no seed part"
    implied = None if m.implied is None else float(m.implied)
    implied_tolerance = None
    if implied is not None:
        if not rule.implied_comparison:
            raise ParameterError(f"data/{rule.file}: {claim_id} has an implied value but no "
                                 f"implied_comparison")
        implied_tolerance = (float(m.implied_tolerance) if m.implied_tolerance is not None
                             else _implied_tolerance(rule, implied))
    verdict = judge(value, target, rule.comparison, tolerance, rule.on_outside, implied,
                    rule.implied_comparison or "==", implied_tolerance or 0.0)
    reason = _reason(verdict, value, target, rule, tolerance, implied, implied_tolerance,
                     m.reason)
    quote = rule.quote.replace("{label}", m.label) if "{label}" in rule.quote else rule.quote
    return Claim(
        id=claim_id, paper=rule.paper, location=rule.location, claim=quote,
        published=published, value=value, verdict=verdict,
        evidence=m.evidence or default_evidence, reason=reason, spread=spread,
        unit=rule.unit, seeds=tuple(int(s) for s in m.seeds), kind=rule.kind, target=target,
        comparison=rule.comparison, tolerance=tolerance, tolerance_basis=basis,
        measurable_form=rule.measurable_form.replace("{label}", m.label),
        on_outside=rule.on_outside, implied=implied,
        implied_comparison=rule.implied_comparison or "==",
        implied_tolerance=implied_tolerance, implied_basis=rule.implied_basis,
        inventory_id=rule.inventory_id, other_evidence=m.other_evidence)


# --- private helpers ----------------------------------------------------------------------

_RULES = {}
_LOADED = []


def _load():
    if not _LOADED:
        for name in MODULES:
            importlib.import_module(name)
        _LOADED.append(True)


def _ordered():
    """Every unit in ledger order: by its module's place in MODULES, then as registered."""
    rank = {name: i for i, name in enumerate(MODULES)}
    return sorted(_UNITS, key=lambda u: rank.get(u.module, len(rank)))


def _provide(section):
    _load()
    if section not in _PROVIDERS:
        raise ParameterError(f"section {section!r} has units that need results but no provider")
    return _PROVIDERS[section]()


def _matches(claim_id, pattern):
    return fnmatch.fnmatchcase(claim_id, pattern) if "*" in pattern else claim_id == pattern


def _find_rule(table, claim_id):
    if claim_id in table:
        return table[claim_id]
    globs = [r for key, r in table.items() if "*" in key and r.matches(claim_id)]
    if not globs:
        raise ParameterError(f"claim {claim_id!r} has no declared record in data/ledger_*.csv")
    return max(globs, key=lambda r: len(r.id))


def _rule(row, name):
    missing = [c for c in RULE_COLUMNS if c not in row]
    if missing:
        raise ParameterError(f"data/{name} lacks columns {missing}")
    where = f"data/{name}, {row['id']!r}"
    if row["source"] != cite(row["paper"], row["location"]):
        raise ParameterError(f"{where}: source must cite the paper and location, "
                             f"{cite(row['paper'], row['location'])!r}, got {row['source']!r}")
    if row["kind"] not in KINDS:
        raise ParameterError(f"{where}: kind must be one of {KINDS}, got {row['kind']!r}")
    if row["comparison"] not in COMPARISONS:
        raise ParameterError(f"{where}: comparison must be one of {COMPARISONS}, got "
                             f"{row['comparison']!r}")
    on_outside = row["on_outside"] or "differs"
    if on_outside not in OUTSIDE_VERDICTS:
        raise ParameterError(f"{where}: on_outside must be one of {OUTSIDE_VERDICTS}, got "
                             f"{on_outside!r}")
    if row["implied_comparison"] and row["implied_comparison"] not in COMPARISONS:
        raise ParameterError(f"{where}: implied_comparison must be one of {COMPARISONS}")
    tol = row["tolerance"].strip()
    try:
        float(tol[:-1] if tol.endswith("%") else tol)
    except ValueError:
        raise ParameterError(f"{where}: tolerance must be a number or '<x> %', got "
                             f"{row['tolerance']!r}") from None
    if not row["tolerance_basis"].strip():
        raise ParameterError(f"{where}: tolerance_basis is empty")
    return Rule(id=row["id"], kind=row["kind"], paper=row["paper"], location=row["location"],
                inventory_id=row["inventory_id"], quote=row["quote"], published=row["published"],
                unit=row["unit"], measurable_form=row["measurable_form"],
                target=row["target"], comparison=row["comparison"], tolerance=tol,
                tolerance_basis=row["tolerance_basis"].strip(),
                se_factor=float(row["se_factor"] or 0.0), on_outside=on_outside,
                implied_comparison=row["implied_comparison"],
                implied_tolerance=row["implied_tolerance"], implied_basis=row["implied_basis"],
                file=name)


def _implied_tolerance(rule, implied):
    text = (rule.implied_tolerance or "0").strip()
    if text.endswith("%"):
        return float(text[:-1]) / 100.0 * abs(implied)
    return float(text)


def _reason(verdict, value, target, rule, tolerance, implied, implied_tolerance, measured):
    """The measurement's own words, prefixed with the size of the difference."""
    unit = f" {rule.unit}" if rule.unit and rule.unit != "1" else ""
    parts = []
    if verdict == "paper-inconsistent":
        parts.append(f"the paper's own numbers imply {_fmt(implied)}{unit} for the published "
                     f"{_fmt(target)}{unit} (published {rule.implied_comparison} implied, within "
                     f"{_fmt(implied_tolerance)}): {rule.implied_basis}")
    if math.isnan(value):
        parts.append("no measurement (NaN)")
    elif not within(value, target, rule.comparison, tolerance):
        diff = value - target
        rel = f", {100 * diff / abs(target):+.0f} %" if target and math.isfinite(diff) else ""
        if rule.comparison == "==":
            beyond = abs(diff) - tolerance
        elif rule.comparison == "<=":
            beyond = diff - tolerance
        else:
            beyond = -diff - tolerance
        parts.append(f"ctlcc {_fmt(value)}{unit} vs {rule.comparison.replace('==', '')}"
                     f"{_fmt(target)}{unit}: difference {diff:+.4g}{unit}{rel}, "
                     f"{_fmt(beyond)}{unit} beyond the tolerance {_fmt(tolerance)}")
    if measured:
        parts.append(measured)
    return "; ".join(parts)


def _fmt(x):
    x = float(x)
    if not math.isfinite(x):
        return str(x)
    if x == 0 or 1e-3 <= abs(x) < 1e6:
        return f"{x:.4g}"
    return f"{x:.3e}"


def _number(text):
    if text is None:
        return None
    text = str(text).strip()
    if not text:
        return None
    if re.fullmatch(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?|[-+]?inf", text):
        return float(text)
    return text
