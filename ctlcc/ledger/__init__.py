# ctlcc.ledger - the claims ledger: every record the registered claim units make, merged
"""The claims ledger: one :class:`~ctlcc.claims.Claim` per record.

Nothing in the ledger is typed by hand.  Each record is declared in
``data/ledger_<paper>.csv`` (the paper's words and value, the measurable
form, the tolerance and its basis, written before measuring) and measured by
a unit registered in :mod:`ctlcc.claims`; the verdict is
:func:`ctlcc.claims.judge` of the record.  The *sources* of the ledger
derive from that registry (:func:`sources`): one per report section that
has units (``stpd``, ``bounds``, ``primo``, ``fluid``, ``crosscheck``,
``thesis_sim``, ``primo_sim``, ``iftp_sim``, ``cbraa_sim``, ``sttp_sim``),
each run in the worker process of its section by ``ctlcc report``, plus
``inventory``: every statement of the papers' inventory
(``data/inventory/``) that no record judges yet, as a ``not yet checked``
record.

Records are of two kinds (``Claim.kind``): ``paper`` (a sentence or number
a paper states) and ``consistency`` (ctlcc's model against ctlcc's
simulator, a wiring check, an invariant).  :meth:`Ledger.counts` counts
``paper`` records unless asked otherwise: the headline counts contain only
what the papers claim.

When two sources give the same claim id, the checked one wins over a ``not
yet checked`` record; two *checked* records with one id are an error.

Examples
--------
>>> ledger = build_ledger(sources=["bounds"])
>>> sorted({claim.paper for claim in ledger.claims})
['cbraa', 'iftp', 'sttp']
>>> ledger.counts()["cbraa"]["printed-error"]
1
"""

import csv
import importlib
import io
import math
import os
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..claims import KINDS, VERDICTS, Claim
from .._validation import check_instance, check_nonnegative, check_positive_int
from ..errors import ParameterError
from ..references import REFERENCES

__all__ = ["LedgerSource", "SOURCES", "sources", "Ledger", "SourceFailure", "COLUMNS",
           "source_names", "run_source", "build_ledger", "merge_claims", "read_claims_csv",
           "write_claims_csv", "format_table", "format_value", "report_items"]

#: Columns of ``claims.csv``: the fields of :meth:`Claim.as_row` plus the source.
COLUMNS = ("id", "kind", "paper", "location", "inventory_id", "claim", "published", "unit",
           "measurable_form", "target", "comparison", "tolerance", "tolerance_basis", "value",
           "spread", "stderr", "seeds", "difference", "on_outside", "implied",
           "implied_comparison", "implied_tolerance", "implied_basis", "verdict", "reason",
           "other_evidence", "evidence", "source")


@dataclass(frozen=True)
class LedgerSource:
    """A function that yields claims, and the report section that runs it.

    Attributes
    ----------
    name : str
        Short name (``ctlcc claims --source NAME``, the ``source`` column).
    function : str
        ``"module:function"``; called with *args*, it returns an iterable
        of :class:`~ctlcc.claims.Claim`.
    section : str
        Report section whose worker runs it (``ctlcc report``).
    description : str
        One line for ``ctlcc claims --help`` and the site.
    args : tuple
        Positional arguments of the function.
    """

    name: str
    function: str
    section: str
    description: str = ""
    args: tuple = ()

    def load(self):
        """Import and return the function; None if its module is not installed.

        Raises
        ------
        ImportError
            The module exists but one of *its* imports fails.
        """
        module_name, _, attribute = self.function.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as err:
            if err.name and module_name.startswith(err.name):
                return None   # the module itself (or its package) is not there yet
            raise
        return getattr(module, attribute)


#: What each section's records are, for ``ctlcc claims --help`` and the site (in the
#: order of the report's sections, which is the ledger's order).
_DESCRIPTIONS = {
    "stpd": "Xu (2002) §4.3.3: the loop's printed poles, Figs. 4.5-4.6, the scenario BDPs",
    "bounds": "printed constants and closed forms of IFTP, CBRAA, STTP",
    "primo": "Primo's loop models (none of its own: judged with the simulations)",
    "fluid": "Hollot et al. (2001)'s numerical example",
    "crosscheck": "closed forms and loops against ctlcc's packet engine (ctlcc.crosscheck)",
    "thesis_sim": "the ST-PD thesis's simulation experiments (ctlcc.experiments.thesis)",
    "primo_sim": "Primo's simulation study (ctlcc.experiments.primo)",
    "iftp_sim": "IFTP's §6 simulations (ctlcc.experiments.iftp)",
    "cbraa_sim": "CBRAA's §4 simulations, Figs. 3-6 (ctlcc.experiments.cbraa)",
    "sttp_sim": "STTP's Tables I-III and Experiment 1 (ctlcc.experiments.sttp)",
}


def sources():
    """Every source of the ledger, in ledger order: one per report section with units
    (:func:`ctlcc.claims.sections`), then ``inventory``."""
    from ..claims import sections

    order = list(_DESCRIPTIONS)
    names = sorted(sections(), key=lambda n: order.index(n) if n in order else len(order))
    out = [LedgerSource(name, "ctlcc.claims:section_claims", name,
                        _DESCRIPTIONS.get(name, f"the units of report section {name}"), (name,))
           for name in names]
    out.append(LedgerSource("inventory", "ctlcc.claims.inventory:claims", "claims",
                            "statements of the papers' inventory no record judges yet "
                            "(not yet checked)"))
    return out


#: Every source of the ledger, derived from the registry (tests may replace the list).
SOURCES = sources()


@dataclass(frozen=True)
class SourceFailure:
    """A source that could not run.

    Attributes
    ----------
    source : str
    message : str
        'not installed' or the exception's last line.
    traceback : str
        Full traceback ('' when not installed).
    """

    source: str
    message: str
    traceback: str = ""


@dataclass(frozen=True)
class Ledger:
    """The merged claims and what could not be gathered.

    Attributes
    ----------
    claims : tuple of Claim
    origin : dict
        Claim id -> name of the source that gave it.
    failures : tuple of SourceFailure
    """

    claims: tuple
    origin: dict = field(default_factory=dict)
    failures: tuple = ()

    def counts(self, kind="paper"):
        """``{paper: {verdict: count}}`` of the records of one kind (zeros included).

        Parameters
        ----------
        kind : {"paper", "consistency"} or None
            ``paper`` (default): what the papers claim, the headline counts;
            ``consistency``: ctlcc against itself; None: every record.
        """
        if kind is not None and kind not in KINDS:
            raise ParameterError(f"kind must be one of {KINDS} or None, got {kind!r}")
        out = {}
        for claim in self.claims:
            if kind is None or claim.kind == kind:
                out.setdefault(claim.paper, Counter({v: 0 for v in VERDICTS}))[claim.verdict] += 1
        return {paper: dict(counter) for paper, counter in sorted(out.items())}

    def totals(self, kind="paper"):
        """``{verdict: count}`` over every paper, of the records of one kind."""
        out = dict.fromkeys(VERDICTS, 0)
        for per_paper in self.counts(kind).values():
            for verdict, n in per_paper.items():
                out[verdict] += n
        return out

    def rows(self):
        """One dict per claim with the columns of :data:`COLUMNS`."""
        return [dict(claim.as_row(), source=self.origin.get(claim.id, ""))
                for claim in self.claims]

    def filtered(self, papers=None, verdicts=None, kinds=None):
        papers = _check_names("papers", papers, tuple(REFERENCES))
        verdicts = _check_names("verdicts", verdicts, VERDICTS)
        kinds = _check_names("kinds", kinds, KINDS)
        """The ledger restricted to some papers, verdicts and/or kinds."""
        keep = tuple(c for c in self.claims
                     if (not papers or c.paper in papers) and (not verdicts or c.verdict in verdicts)
                     and (not kinds or c.kind in kinds))
        return Ledger(keep, {c.id: self.origin.get(c.id, "") for c in keep}, self.failures)


def source_names():
    """Names of the registered sources, in ledger order."""
    return [source.name for source in SOURCES]


def run_source(source):
    """Run one source.

    Parameters
    ----------
    source : LedgerSource or str
        The source or its name.

    Returns
    -------
    (list of Claim, SourceFailure or None)
        Claims, and the failure if the source is not installed or raised.
    """
    source = _source(source)
    try:
        function = source.load()
        if function is None:
            return [], SourceFailure(source.name, f"not installed ({source.function})")
        claims = list(function(*source.args))
    except Exception as err:  # a failing source must not take the ledger down
        return [], SourceFailure(source.name, f"{type(err).__name__}: {err}",
                                 traceback.format_exc())
    bad = [c for c in claims if not isinstance(c, Claim)]
    if bad:
        return [], SourceFailure(source.name, f"TypeError: {source.function} returned "
                                              f"{type(bad[0]).__name__}, expected Claim")
    return claims, None


def build_ledger(sources=None, log=None):
    """Run the sources and merge their claims.

    Parameters
    ----------
    sources : sequence of str, optional
        Source names (default: every source of :data:`SOURCES`).
    log : callable, optional
        Called with one line per source (e.g. ``print``).

    Returns
    -------
    Ledger

    Raises
    ------
    ParameterError
        An unknown source name.
    """
    if sources is not None:
        sources = _check_names("sources", sources, tuple(source_names()))
    if log is not None and not callable(log):
        raise ParameterError(f"log must be callable (e.g. print) or None, got "
                             f"{type(log).__name__} {log!r:.80}")
    chosen = [_source(name) for name in (source_names() if sources is None else sources)]
    log = log or (lambda line: None)
    batches, failures = [], []
    for source in chosen:
        claims, failure = run_source(source)
        log(f"{source.name}: {len(claims)} claims" + (f" ({failure.message})" if failure else ""))
        batches.append((source.name, claims))
        if failure:
            failures.append(failure)
    claims, origin = merge_claims(batches)
    return Ledger(tuple(claims), origin, tuple(failures))


def merge_claims(batches):
    """Merge ``(source name, claims)`` batches; checked claims replace 'not yet checked'.

    Returns
    -------
    (list of Claim, dict)
        Claims in source order, and claim id -> source name.

    Raises
    ------
    ValueError
        Two checked claims (or two unchecked ones) share an id.
    """
    if isinstance(batches, (str, bytes, dict)) or not hasattr(batches, "__iter__"):
        raise ParameterError(f"batches must be a list of (source name, claims) pairs, got "
                             f"{batches!r:.100}")
    batches = list(batches)
    for i, batch in enumerate(batches):
        if not (isinstance(batch, (tuple, list)) and len(batch) == 2
                and isinstance(batch[0], str) and hasattr(batch[1], "__iter__")
                and all(isinstance(c, Claim) for c in batch[1])):
            raise ParameterError(f"batches[{i}] must be a (source name, list of Claim) pair, "
                                 f"got {batch!r:.100}")
    merged, origin = {}, {}
    for name, claims in batches:
        for claim in claims:
            old = merged.get(claim.id)
            if old is not None:
                old_open = old.verdict == "not yet checked"
                new_open = claim.verdict == "not yet checked"
                if old_open == new_open:
                    raise ParameterError(f"claim id {claim.id!r} given twice (sources "
                                         f"{origin[claim.id]!r} and {name!r}): batches must "
                                         f"give each id once, got it twice")
                if new_open:
                    continue
            merged[claim.id] = claim
            origin[claim.id] = name
    return list(merged.values()), origin


def write_claims_csv(ledger, path):
    """Write the ledger as CSV (columns :data:`COLUMNS`) to a path or an open text file."""
    check_instance("ledger", ledger, Ledger)
    if hasattr(path, "write"):
        _write_rows(ledger, path)
        return
    if not isinstance(path, (str, os.PathLike)) or not str(path):
        raise ParameterError(f"path must be a file name (str or Path) or an open text file, got "
                             f"{type(path).__name__} {path!r:.100}")
    try:
        with Path(path).open("w", newline="", encoding="utf-8") as handle:
            _write_rows(ledger, handle)
    except OSError as err:
        raise ParameterError(f"path cannot be written ({err.strerror or err}); got "
                             f"{str(path)!r}") from None


def _write_rows(ledger, handle):
    writer = csv.DictWriter(handle, fieldnames=COLUMNS)
    writer.writeheader()
    for row in ledger.rows():
        writer.writerow({k: "" if v is None else v for k, v in row.items()})


def read_claims_csv(path):
    """Read a ``claims.csv`` back into a :class:`Ledger`.

    Numbers come back as floats where the cell parses as one.

    Raises
    ------
    ParameterError
        *path* does not exist or lacks the ledger's columns.
    """
    if not isinstance(path, (str, os.PathLike)) or not str(path):
        raise ParameterError(f"path must be the name of a claims.csv file (str or Path), got "
                             f"{type(path).__name__} {path!r}")
    path = Path(path)
    if path.is_dir():
        raise ParameterError(f"path: claims file {str(path)!r} is a folder, not a CSV file; "
                             f"got path={str(path)!r}")
    if not path.is_file():
        raise ParameterError(f"path: claims file {str(path)!r} does not exist; got "
                             f"path={str(path)!r}")
    try:
        with path.open(newline="", encoding="utf-8") as handle:
            return _read_claims(handle, path)
    except UnicodeDecodeError as err:
        raise ParameterError(f"path: claims file {str(path)!r} is not UTF-8 text ({err.reason} "
                             f"at byte {err.start}); got path={str(path)!r}") from None
    except OSError as err:
        raise ParameterError(f"path: claims file {str(path)!r} cannot be read "
                             f"({err.strerror or err}); got path={str(path)!r}") from None


def _read_claims(handle, path):
    reader = csv.DictReader(handle)
    missing = [c for c in COLUMNS if c not in (reader.fieldnames or ())]
    if missing:
        raise ParameterError(f"path: claims file {str(path)!r} lacks columns {missing}; got "
                             f"columns {list(reader.fieldnames or ())}")
    claims, origin = [], {}
    for line, row in enumerate(reader, start=2):
        try:
            claims.append(Claim(
                id=row["id"], paper=row["paper"], location=row["location"], claim=row["claim"],
                published=_number(row["published"]), value=_number(row["value"]),
                verdict=row["verdict"], evidence=row["evidence"], reason=row["reason"],
                spread=_number(row["spread"]), unit=row["unit"],
                seeds=tuple(int(s) for s in row["seeds"].split()), kind=row["kind"],
                target=_number(row["target"]), comparison=row["comparison"],
                tolerance=_number(row["tolerance"]), tolerance_basis=row["tolerance_basis"],
                measurable_form=row["measurable_form"], on_outside=row["on_outside"],
                implied=_number(row["implied"]),
                implied_comparison=row["implied_comparison"] or "==",
                implied_tolerance=_number(row["implied_tolerance"]),
                implied_basis=row["implied_basis"], inventory_id=row["inventory_id"],
                other_evidence=row["other_evidence"]))
        except (ValueError, TypeError, AttributeError) as err:
            raise ParameterError(f"path: claims file {str(path)!r}, line {line}, is not a "
                                 f"claim record ({err}); got {dict(row)!r:.300}") from None
        origin[row["id"]] = row["source"]
    return Ledger(tuple(claims), origin)


def format_table(ledger, width=120):
    """The ledger as a plain-text table for the terminal.

    Parameters
    ----------
    ledger : Ledger
    width : int
        Terminal width; the claim column takes what is left. [characters]

    Returns
    -------
    str
    """
    check_instance("ledger", ledger, Ledger)
    width = check_positive_int("width", width, maximum=MAX_WIDTH)
    columns = ("id", "location", "verdict", "published", "ctlcc", "claim")
    rows = []
    for claim in ledger.claims:
        verdict = claim.verdict if claim.kind == "paper" else f"{claim.verdict} (c)"
        rows.append((claim.id, claim.location, verdict, format_value(claim.published, claim.unit),
                     format_value(claim.value, claim.unit, claim.spread), claim.claim))
    out = io.StringIO()
    by_paper = {}
    for claim, row in zip(ledger.claims, rows):
        by_paper.setdefault(claim.paper, []).append(row)
    widths = [max([len(columns[i])] + [len(r[i]) for r in rows]) for i in range(5)]
    widths = [min(w, cap) for w, cap in zip(widths, (44, 24, 22, 18, 22))]
    rest = max(20, width - sum(widths) - 2 * 5)
    for paper, paper_rows in by_paper.items():
        ref = REFERENCES[paper]
        out.write(f"\n{ref.short}: {ref.title}\n")
        out.write("  ".join(c.ljust(w) for c, w in zip(columns, widths + [rest])).rstrip() + "\n")
        out.write("  ".join("-" * w for w in widths + [rest]) + "\n")
        for row in paper_rows:
            cells = [_clip(v, w).ljust(w) for v, w in zip(row, widths + [rest])]
            out.write("  ".join(cells).rstrip() + "\n")
    if any(c.kind == "consistency" for c in ledger.claims):
        out.write("\n(c): a consistency check of ctlcc against itself, counted apart\n")
    return out.getvalue()


def format_value(value, unit="", spread=None):
    """A claim's value for display: 5 significant digits, ± spread, unit (never "nan").

    Examples
    --------
    >>> format_value(0.5, "Mb/s", 0.01), format_value(float("nan")), format_value(None)
    ('0.5 ± 0.01 Mb/s', 'no value', '')
    """
    check_instance("unit", unit, str)
    if spread is not None and not (isinstance(spread, str) and spread == ""):
        spread = check_nonnegative("spread", spread, scalar=True)
    if value is None or value == "":
        return ""
    if not isinstance(value, (int, float)):
        return str(value)
    if math.isnan(value):
        return "no value"
    text = f"{value:.5g}"
    if spread not in (None, "", 0, 0.0):
        text += f" ± {float(spread):.2g}"
    return f"{text} {unit}" if unit and unit != "1" else text


def report_items():
    """Nothing to draw: the ``claims`` report section only runs its ledger sources.

    ``ctlcc report`` writes the ledger itself (``claims.csv``, the site's
    ledger page and its summary figure) once every section has run.
    """
    return iter(())


# --- private helpers ----------------------------------------------------------------------

#: Widest table :func:`format_table` lays out [characters]: each line is built in
#: memory, and no terminal is wider. [characters]
MAX_WIDTH = 10_000


def _check_names(name, values, options):
    """None, or a non-empty list of distinct names among *options*; return a tuple."""
    if values is None:
        return None
    if isinstance(values, (str, bytes, dict)) or not hasattr(values, "__iter__"):
        raise ParameterError(f"{name} must be a list of names among {', '.join(map(repr, options))}"
                             f" or None, got {values!r:.100}")
    values = tuple(values)
    if not values:
        raise ParameterError(f"{name} must name at least one of {', '.join(map(repr, options))} "
                             f"(None: no selection), got {list(values)!r}")
    for i, value in enumerate(values):
        if not isinstance(value, str) or value not in options:
            raise ParameterError(f"{name[:-1]} must be one of {list(options)}; got "
                                 f"{value!r:.100} ({name}[{i}])")
    if len(set(values)) != len(values):
        raise ParameterError(f"{name} must not repeat a name, got {list(values)!r}")
    return values


def _source(source):
    if isinstance(source, LedgerSource):
        return source
    for known in SOURCES:
        if known.name == source:
            return known
    raise ParameterError(f"source must be one of {source_names()}; got {source!r}")


def _number(text):
    if text is None or text == "":
        return None
    try:
        return float(text)
    except ValueError:
        return text


def _clip(text, width):
    return text if len(text) <= width else text[:width - 1] + "…"
