# ctlcc.ledger - the claims ledger: every paper claim ctlcc checks, gathered from the code
"""The claims ledger: one :class:`~ctlcc.claims.Claim` per paper claim.

Nothing in the ledger is typed by hand.  Published values come from
``data/`` (with their source); ctlcc's values are computed when the ledger
is built, by the *sources* registered in :data:`SOURCES`:

===================  ==============  =========================================================
source               report section  what it yields
===================  ==============  =========================================================
``published``        ``claims``      printed numbers and statements of ``data/`` against the
                                     closed forms, loops and bounds
                                     (:mod:`ctlcc.ledger.published`)
``crosscheck``       ``crosscheck``  every point of every :mod:`ctlcc.crosscheck` claim
                                     (:mod:`ctlcc.ledger.simulated`)
``thesis``           ``thesis_sim``  ``ctlcc.experiments.thesis.claims()`` (the thesis's
                                     simulation experiments; :mod:`ctlcc.ledger.simulated`)
``primo``            ``primo_sim``   ``ctlcc.experiments.primo.claims()`` (Primo's §I, §V
                                     and §VI experiments on the existing senders)
``iftp``             ``iftp_sim``    ``ctlcc.experiments.iftp.claims()`` (IFTP's §6
                                     experiments: Figures 5-6, Tables I-IV)
``cbraa``            ``cbraa_sim``   ``ctlcc.experiments.cbraa.claims()`` (CBRAA's §4,
                                     Figs. 3-6)
``sttp``             ``sttp_sim``    ``ctlcc.experiments.sttp.claims()`` (STTP's Tables I-III
                                     and Experiment 1 on the STTP sender)
``not-yet-checked``  ``claims``      ``data/claims_not_yet_checked.csv``: claims known but not
                                     checked yet, so the ledger is honest about coverage
===================  ==============  =========================================================

Adding a paper's experiment claims is one line: append
``LedgerSource("<name>", "<module>:<function>", "<report section>")`` to
:data:`SOURCES`, where the function takes no argument and returns an
iterable of :class:`~ctlcc.claims.Claim`.  ``ctlcc report`` runs each source
in the worker process of its section (a section missing from
:data:`ctlcc.report.SECTIONS` runs it in the ``claims`` section); a source
whose module is not installed yet is listed as unavailable, not an error.
When two sources give the same claim id, the checked one wins over a
``not yet checked`` record, so a claim listed in the CSV disappears from the
"not yet checked" count as soon as code checks it under the same id; two
*checked* records with one id are an error.

Examples
--------
>>> ledger = build_ledger(sources=["published"])
>>> sorted({claim.paper for claim in ledger.claims})[:3]
['cbraa', 'hollot', 'iftp']
>>> ledger.counts()["stpd"]["printed-error"] >= 1
True
"""

import csv
import importlib
import io
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..claims import VERDICTS, Claim
from ..errors import ParameterError
from ..references import REFERENCES

__all__ = ["LedgerSource", "SOURCES", "Ledger", "SourceFailure", "COLUMNS", "source_names",
           "run_source", "build_ledger", "merge_claims", "read_claims_csv",
           "write_claims_csv", "format_table", "format_value", "report_items"]

#: Columns of ``claims.csv``: the fields of :meth:`Claim.as_row` plus the source.
COLUMNS = ("id", "paper", "location", "claim", "published", "value", "spread", "unit",
           "verdict", "evidence", "reason", "seeds", "source")


@dataclass(frozen=True)
class LedgerSource:
    """A function that yields claims, and the report section that runs it.

    Attributes
    ----------
    name : str
        Short name (``ctlcc claims --source NAME``, the ``source`` column).
    function : str
        ``"module:function"``; the function takes no argument and returns
        an iterable of :class:`~ctlcc.claims.Claim`.
    section : str
        Report section whose worker runs it (``ctlcc report``).
    description : str
        One line for ``ctlcc claims --help`` and the site.
    """

    name: str
    function: str
    section: str
    description: str = ""

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


#: Every source of the ledger, in ledger order.
SOURCES = [
    LedgerSource("published", "ctlcc.ledger.published:claims", "claims",
                 "printed numbers and statements vs closed forms, loops and bounds"),
    LedgerSource("crosscheck", "ctlcc.ledger.simulated:crosscheck_claims", "crosscheck",
                 "analytic predictions vs the packet simulator (ctlcc.crosscheck)"),
    LedgerSource("thesis", "ctlcc.ledger.simulated:thesis_claims", "thesis_sim",
                 "the ST-PD thesis's simulation experiments (ctlcc.experiments.thesis)"),
    LedgerSource("stpd-readings", "ctlcc.sim.stpd_readings:claims", "thesis_sim",
                 "default ST-PD reading, Figs. 4.8 and 4.22 (data/thesis_stpd_readings.csv)"),
    LedgerSource("primo", "ctlcc.experiments.primo:claims", "primo_sim",
                 "Primo's simulation study (ctlcc.experiments.primo)"),
    LedgerSource("iftp", "ctlcc.experiments.iftp:claims", "iftp_sim",
                 "IFTP's simulation study (ctlcc.experiments.iftp)"),
    LedgerSource("cbraa", "ctlcc.experiments.cbraa:claims", "cbraa_sim",
                 "CBRAA's §4 simulations, Figs. 3-6 (ctlcc.experiments.cbraa)"),
    LedgerSource("sttp", "ctlcc.experiments.sttp:claims", "sttp_sim",
                 "STTP's Tables I-III and Experiment 1 (ctlcc.experiments.sttp)"),
    LedgerSource("not-yet-checked", "ctlcc.ledger.published:unchecked_claims", "claims",
                 "claims known but not checked yet (data/claims_not_yet_checked.csv)"),
]


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

    def counts(self):
        """``{paper: {verdict: count}}`` with every verdict present (zeros included)."""
        out = {}
        for claim in self.claims:
            out.setdefault(claim.paper, Counter({v: 0 for v in VERDICTS}))[claim.verdict] += 1
        return {paper: dict(counter) for paper, counter in sorted(out.items())}

    def rows(self):
        """One dict per claim with the columns of :data:`COLUMNS`."""
        return [dict(claim.as_row(), source=self.origin.get(claim.id, ""))
                for claim in self.claims]

    def filtered(self, papers=None, verdicts=None):
        """The ledger restricted to some papers and/or verdicts."""
        keep = tuple(c for c in self.claims
                     if (not papers or c.paper in papers) and (not verdicts or c.verdict in verdicts))
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
        claims = list(function())
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
    merged, origin = {}, {}
    for name, claims in batches:
        for claim in claims:
            old = merged.get(claim.id)
            if old is not None:
                old_open = old.verdict == "not yet checked"
                new_open = claim.verdict == "not yet checked"
                if old_open == new_open:
                    raise ValueError(f"claim id {claim.id!r} given twice (sources "
                                     f"{origin[claim.id]!r} and {name!r})")
                if new_open:
                    continue
            merged[claim.id] = claim
            origin[claim.id] = name
    return list(merged.values()), origin


def write_claims_csv(ledger, path):
    """Write the ledger as CSV (columns :data:`COLUMNS`) to a path or an open text file."""
    if hasattr(path, "write"):
        _write_rows(ledger, path)
        return
    with Path(path).open("w", newline="") as handle:
        _write_rows(ledger, handle)


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
    path = Path(path)
    if not path.is_file():
        raise ParameterError(f"claims file {str(path)!r} does not exist")
    with path.open(newline="") as handle:
        reader = csv.DictReader(handle)
        missing = [c for c in COLUMNS if c not in (reader.fieldnames or ())]
        if missing:
            raise ParameterError(f"claims file {str(path)!r} lacks columns {missing}")
        claims, origin = [], {}
        for row in reader:
            claims.append(Claim(
                id=row["id"], paper=row["paper"], location=row["location"], claim=row["claim"],
                published=_number(row["published"]), value=_number(row["value"]),
                verdict=row["verdict"], evidence=row["evidence"], reason=row["reason"],
                spread=_number(row["spread"]), unit=row["unit"],
                seeds=tuple(int(s) for s in row["seeds"].split())))
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
    columns = ("id", "location", "verdict", "published", "ctlcc", "claim")
    rows = []
    for claim in ledger.claims:
        rows.append((claim.id, claim.location, claim.verdict, format_value(claim.published, claim.unit),
                     format_value(claim.value, claim.unit, claim.spread), claim.claim))
    out = io.StringIO()
    by_paper = {}
    for claim, row in zip(ledger.claims, rows):
        by_paper.setdefault(claim.paper, []).append(row)
    widths = [max([len(columns[i])] + [len(r[i]) for r in rows]) for i in range(5)]
    widths = [min(w, cap) for w, cap in zip(widths, (44, 24, 15, 18, 22))]
    rest = max(20, width - sum(widths) - 2 * 5)
    for paper, paper_rows in by_paper.items():
        ref = REFERENCES[paper]
        out.write(f"\n{ref.short}: {ref.title}\n")
        out.write("  ".join(c.ljust(w) for c, w in zip(columns, widths + [rest])).rstrip() + "\n")
        out.write("  ".join("-" * w for w in widths + [rest]) + "\n")
        for row in paper_rows:
            cells = [_clip(v, w).ljust(w) for v, w in zip(row, widths + [rest])]
            out.write("  ".join(cells).rstrip() + "\n")
    return out.getvalue()


def format_value(value, unit="", spread=None):
    """A claim's value for display: 4 significant digits, ± spread, unit."""
    if value is None or value == "":
        return ""
    if not isinstance(value, (int, float)):
        return str(value)
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
