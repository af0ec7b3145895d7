# ctlcc.report - every analytical figure, the experiments and the claims ledger (`ctlcc report`)
"""``ctlcc report``: every figure and table, the claims ledger and a static site.

Each section is a module with a ``report_items()`` generator of
:class:`~ctlcc.plots.ReportFigure` and :class:`~ctlcc.plots.ReportTable`
(listed in :data:`SECTIONS`).  :func:`build_report` runs the sections in
parallel worker processes (``jobs``), each saving its figures (PNG, PDF,
SVG in the house style of :mod:`ctlcc.plots.styles`) and tables (CSV,
Markdown) and running the claims-ledger sources of its section
(:data:`ctlcc.ledger.SOURCES`); a section that raises is recorded with its
traceback and the others still run.  The main process then writes
``claims.csv``, the ledger summary figure and the site (``index.html``,
a page per section, the ledger, the gallery; :mod:`ctlcc.site`).

The output folder belongs to the report.  A manifest
(``.ctlcc-report.json``) lists every file a run wrote; a folder that holds
other files is refused unless ``force``, and even then no file the report
did not write is overwritten.  A run is built in a staging folder beside
the output and swapped in at the end, so an earlier report is replaced as a
whole and stale files disappear.  With ``reuse``, a section whose inputs
(its code, ``data/``, the options) did not change since the earlier report
is copied instead of rerun.

Examples
--------
``ctlcc report --section bounds --jobs 1`` is
``build_report("ctlcc-report", sections=["bounds"], jobs=1)``.  The output
folder is checked before any work:

>>> import tempfile, pathlib
>>> notes = pathlib.Path(tempfile.mkdtemp()) / "notes.txt"
>>> _ = notes.write_text("mine")
>>> check_out_dir(notes)
Traceback (most recent call last):
...
ctlcc.report.ReportOutputError: --out '...notes.txt' is a file, not a folder; got out_dir='...notes.txt'
"""

import csv
import hashlib
import importlib
import json
import os
import shutil
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from .claims import Claim
from . import _data
from ._validation import check_bool, check_workers
from .errors import ParameterError
from .plots import ReportFigure, ReportTable
from .references import short

__all__ = ["SECTIONS", "FORMATS", "STYLES", "MANIFEST", "ReportOutputError", "SectionResult",
           "ReportIndex", "build_report", "check_out_dir", "section_names"]

#: (section name, module, heading) in report order.  Each section also runs the
#: ledger sources of its claim units (:data:`ctlcc.ledger.SOURCES`); the ``claims``
#: section, which always runs, adds the inventory's not-yet-checked statements.
SECTIONS = (
    ("stpd", "ctlcc.plots.stpd", f"ST-PD TCP: z-domain closed loop ({short('stpd')}, §4.3)"),
    ("bounds", "ctlcc.plots.bounds",
     f"Closed-form throughput bounds: Mathis, PFTK/TFRC, IFTP ({short('iftp')}), "
     f"CBRAA ({short('cbraa')})"),
    ("primo", "ctlcc.plots.primo",
     f"Primo: regime loops, limit cycle and sharing ({short('primo')}, §III)"),
    ("fuzzy", "ctlcc.plots.fuzzy",
     f"ST-PD TCP: fuzzy gain supervisor and where the self-tuned loop is stable "
     f"({short('stpd')}, §3.4.3.2)"),
    ("fluid", "ctlcc.plots.fluid", f"Fluid model: Reno ({short('hollot')}), ST-PD and Primo"),
    ("sim", "ctlcc.plots.sim", "Packet-level simulator: Reno/Vegas traces and presets"),
    ("ns3", "ctlcc.plots.ns3", "Packet engine vs ns-3: goodput, traces, loss curve"),
    ("crosscheck", "ctlcc.plots.crosscheck",
     "Cross-checks: analytic predictions vs the packet simulator"),
    ("thesis_sim", "ctlcc.plots.thesis_experiments",
     f"ST-PD thesis simulation experiments re-run ({short('stpd')}, §3.5, §4.4, §6)"),
    ("primo_sim", "ctlcc.plots.primo_experiments",
     f"Primo's simulation study re-run: five criteria, many sources, Reno, multi-congestion "
     f"({short('primo')}, §I, §V, §VI)"),
    ("iftp_sim", "ctlcc.plots.iftp_experiments",
     f"IFTP's simulation study re-run: UDP vs TCP, TCP friendliness, losses, delay, "
     f"bandwidth and delay ({short('iftp')}, §6)"),
    ("cbraa_sim", "ctlcc.plots.cbraa_experiments",
     f"CBRAA's simulations re-run: smoothness, arrivals and departures, RTT shares "
     f"({short('cbraa')}, §4, Figs. 3-6)"),
    ("sttp_sim", "ctlcc.plots.sttp_experiments",
     f"STTP's simulations re-run: §III's examples, Tables I-II, Experiment 1 (Figs. 4-5) "
     f"({short('sttp')}, §III-V)"),
    ("aqm", "ctlcc.plots.aqm",
     f"AQM on packets: RED ({short('hollot')}) and PI ({short('hollot_pi')}) vs the fluid "
     f"model and the linear analysis; ST-PD and Primo behind PI"),
    ("baselines", "ctlcc.plots.baselines",
     f"Today's TCP as a baseline: CUBIC beside ST-PD ({short('stpd')}, Figs. 4.8-4.22, §6) "
     f"and Primo ({short('primo')}, Figs. 2-5) - new results, not paper claims"),
    ("claims", "ctlcc.ledger",
     "Claims ledger: the papers' statements no record judges yet (the inventory)"),
)

#: File formats a figure can be saved in.
FORMATS = ("png", "pdf", "svg")
#: House styles (``ctlcc/plots/styles/<name>.mplstyle``).
STYLES = ("paper", "slides")
#: Name of the manifest that marks a folder as a ctlcc report.
MANIFEST = ".ctlcc-report.json"
#: Section that always runs (the analytic part of the ledger).
_ALWAYS = "claims"


class ReportOutputError(ParameterError):
    """The output folder cannot be used (a file, unwritable, or not the report's)."""


@dataclass(frozen=True)
class SectionResult:
    """What one section wrote.

    Attributes
    ----------
    name : str
    heading : str
    status : str
        'ok', 'failed' or 'reused'.
    seconds : float
        Wall-clock time of the run (of the earlier run when reused). [s]
    items : tuple of dict
        Per figure/table: kind, name, caption, files (and columns, rows for tables).
    claims : tuple of Claim
    source_failures : tuple of dict
        Ledger sources of this section that could not run (source, message, traceback).
    sources : tuple of str
        Ledger sources that ran in this section.
    error : str
        Last line of the exception ('' when ok).
    traceback : str
    inputs : str
        Hash of the section's inputs (for ``reuse``).
    """

    name: str
    heading: str
    status: str
    seconds: float
    items: tuple = ()
    claims: tuple = ()
    source_failures: tuple = ()
    sources: tuple = ()
    error: str = ""
    traceback: str = ""
    inputs: str = ""

    @property
    def files(self):
        """Every file of the section (relative names)."""
        return tuple(f for item in self.items for f in item["files"])


@dataclass(frozen=True)
class ReportIndex:
    """What a report run wrote.

    Attributes
    ----------
    out_dir : pathlib.Path
    files : tuple of pathlib.Path
        Every file written (site and manifest included).
    seconds : dict
        Wall-clock time per section. [s]
    sections : tuple of SectionResult
    ledger : ctlcc.ledger.Ledger
    provenance : dict
    """

    out_dir: Path
    files: tuple
    seconds: dict
    sections: tuple = ()
    ledger: object = None
    provenance: dict = field(default_factory=dict)

    @property
    def ok(self):
        """No section and no ledger source failed."""
        return all(s.status != "failed" and not s.source_failures for s in self.sections)

    @property
    def failed(self):
        """Names of the sections that failed."""
        return tuple(s.name for s in self.sections if s.status == "failed")


def section_names():
    """Section names in report order."""
    return [name for name, _, _ in SECTIONS]


def build_report(out_dir="ctlcc-report", sections=None, dpi=150, log=None, *, jobs=None,
                 formats=("png", "pdf"), style="paper", reuse=False, force=False,
                 progress=None):
    """Run the chosen sections and write figures, tables, ``claims.csv`` and the site.

    Parameters
    ----------
    out_dir : str or pathlib.Path
        Output folder: new, empty, or an earlier report (see the module
        docstring); created if needed.
    sections : sequence of str, optional
        Section names (default: all of :data:`SECTIONS`); ``claims`` is
        always added.
    dpi : int, optional
        PNG resolution, 30-1200. [dots/inch]
    log : callable, optional
        Called with one line per file written (e.g. ``print``).
    jobs : int, optional
        Worker processes, >= 1 (default: the number of CPU cores); 1 runs
        the sections in this process, one after another.
    formats : sequence of str
        Figure formats among :data:`FORMATS`.
    style : str
        House style, one of :data:`STYLES`.
    reuse : bool
        Copy a section from the earlier report in *out_dir* when its inputs
        did not change.
    force : bool
        Accept a non-empty folder that is not an earlier report (its files
        are left alone; the run stops if it would overwrite one).
    progress : callable, optional
        Called with one line per finished section (a progress bar).

    Returns
    -------
    ReportIndex

    Raises
    ------
    ParameterError
        Unknown section, format, style, or a bad dpi/jobs.
    ReportOutputError
        *out_dir* is unusable; raised before any section runs.
    """
    chosen = _check_sections(sections)
    formats = _check_formats(formats)
    if not isinstance(style, str) or style not in STYLES:
        raise ParameterError(f"style must be one of {', '.join(STYLES)}; got {style!r}")
    if isinstance(dpi, bool) or not isinstance(dpi, int) or not 30 <= dpi <= 1200:
        raise ParameterError(f"dpi must be an integer in [30, 1200]; got {dpi!r}")
    if jobs is None:
        jobs = os.cpu_count() or 1
    jobs = check_workers("jobs", jobs)
    check_bool("reuse", reuse)
    check_bool("force", force)
    for name, value in (("log", log), ("progress", progress)):
        if value is not None and not callable(value):
            raise ParameterError(f"{name} must be callable (e.g. print) or None, got "
                                 f"{type(value).__name__} {value!r:.80}")
    out = check_out_dir(out_dir, force=force)
    log = log or (lambda line: None)
    progress = progress or (lambda line: None)

    started = time.time()
    old = _read_manifest(out)
    options = {"formats": list(formats), "dpi": dpi, "style": style}
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.staging-", dir=out.parent))
    try:
        results = _run_sections(chosen, staging, options, jobs, reuse, old, out, progress)
        from . import ledger as ledger_module, site

        batches = []
        for result in results:
            by_source = {}
            for claim, source in result.claims:
                by_source.setdefault(source, []).append(claim)
            batches += list(by_source.items())
        claims, origin = ledger_module.merge_claims(_ledger_order(batches))
        ledger = ledger_module.Ledger(tuple(claims), origin, tuple(
            ledger_module.SourceFailure(**f) for r in results for f in r.source_failures))
        results = [_public(r) for r in results]
        ledger_module.write_claims_csv(ledger, staging / "claims.csv")
        provenance = _provenance(started, results, ledger, options, jobs)
        site_files = site.write_site(staging, results, ledger, provenance, options)
        _write_index_md(staging, results)
        files = sorted({f for r in results for f in r.files}
                       | {"claims.csv", "index.md"} | set(site_files))
        _write_manifest(staging, files, results, ledger, provenance, options)
        _install(staging, out, files, old)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    for name in files:
        log(f"wrote {out / name}")
    return ReportIndex(out, tuple(out / f for f in files) + (out / MANIFEST,),
                       {r.name: r.seconds for r in results}, tuple(results), ledger, provenance)


def check_out_dir(out_dir, force=False):
    """Check that *out_dir* can receive a report; return it resolved.

    Parameters
    ----------
    out_dir : str or pathlib.Path
    force : bool
        Accept a non-empty folder that is not an earlier report.

    Returns
    -------
    pathlib.Path

    Raises
    ------
    ReportOutputError
        One line naming the argument and what is wrong: empty, a file, a
        path under a file, not writable, or a folder holding files the
        report did not write (not in its manifest, or changed since).
    """
    if out_dir is not None and not isinstance(out_dir, (str, os.PathLike)):
        raise ReportOutputError(f"--out must name a folder (out_dir: a str or Path), got "
                                f"{type(out_dir).__name__} {out_dir!r:.100}")
    check_bool("force", force)
    if out_dir is None or not str(out_dir).strip():
        raise ReportOutputError(f"--out must name a folder; got {str(out_dir or '')!r} (out_dir)")
    shown = str(out_dir)
    path = Path(out_dir).expanduser().absolute()
    if path.exists() and not path.is_dir():
        raise ReportOutputError(f"--out {shown!r} is a file, not a folder; got out_dir={shown!r}")
    ancestor = path
    while not ancestor.exists():
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise ReportOutputError(f"--out {shown!r} lies under {str(ancestor)!r}, which is a file; "
                                f"got out_dir={shown!r}")
    if not _writable(ancestor if ancestor != path else path.parent):
        where = ancestor if ancestor != path else path.parent
        raise ReportOutputError(f"--out {shown!r}: cannot write in {str(where)!r} (read-only or "
                                f"no permission); got out_dir={shown!r}")
    if path.is_dir():
        if not _writable(path):
            raise ReportOutputError(f"--out {shown!r}: the folder is not writable; got "
                                    f"out_dir={shown!r}")
        foreign = _foreign_files(path, _read_manifest(path))
        if foreign and not force:
            listed = ", ".join(sorted(foreign)[:3]) + (", ..." if len(foreign) > 3 else "")
            kind = "an earlier report with files added or changed" if (path / MANIFEST).exists() \
                else "a folder ctlcc report did not make"
            raise ReportOutputError(
                f"--out {shown!r} is {kind} ({len(foreign)} other files: {listed}); choose a new "
                f"or empty folder, or pass --force to write beside them (they are never "
                f"overwritten); got out_dir={shown!r}")
    return path.resolve() if path.exists() else path


# --- sections -----------------------------------------------------------------------------

def _run_sections(chosen, staging, options, jobs, reuse, old, out, progress):
    from . import ledger as ledger_module

    known = section_names()
    plan = []
    for name, module_name, heading in SECTIONS:
        if name not in chosen:
            continue
        sources = [s for s in ledger_module.SOURCES
                   if s.section == name or (name == _ALWAYS and s.section not in known)]
        inputs = _inputs_hash(name, options)
        plan.append((name, module_name, heading, tuple(sources), inputs))
    results, todo = {}, []
    for name, module_name, heading, sources, inputs in plan:
        earlier = (old or {}).get("sections", {}).get(name)
        digests = (old or {}).get("digests", {})
        if reuse and earlier and earlier.get("inputs") == inputs and earlier["status"] != "failed" \
                and all((out / f).is_file() and digests.get(f) == _digest(out / f)
                        for item in earlier["items"] for f in item["files"]):
            for item in earlier["items"]:
                for f in item["files"]:
                    _link_or_copy(out / f, staging / f)
            results[name] = _from_manifest(earlier, heading)
        else:
            todo.append((name, module_name, heading, sources, inputs))
    total, done = len(plan), [0]

    def report(result):
        done[0] += 1
        results[result.name] = result
        bar = "#" * round(20 * done[0] / total)
        status = {"ok": "ok", "reused": "reused", "failed": "FAILED"}[result.status]
        detail = f"  {result.error}" if result.error else ""
        if result.source_failures:
            detail += "  ledger: " + "; ".join(f"{f['source']}: {f['message']}"
                                               for f in result.source_failures)
        progress(f"[{bar:<20}] {done[0]:>2}/{total} {result.name:<11} {status:<6} "
                 f"{len(result.files):>3} files {result.seconds:6.1f} s{detail}")

    for result in list(results.values()):
        report(result)
    if jobs == 1 or len(todo) <= 1:
        for task in todo:
            report(_run_section(*task, str(staging), options))
    else:
        _run_parallel(todo, staging, options, jobs, report)
    return [results[name] for name, *_ in plan]


def _run_parallel(todo, staging, options, jobs, report):
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from concurrent.futures.process import BrokenProcessPool

    context = multiprocessing.get_context("spawn")
    from .sim import engine   # compile the packet engine once, here, before the workers load it

    engine.warm(progress=True)
    # longest first: the packet-simulator sections dominate the wall-clock time
    order = {name: i for i, name in enumerate(("crosscheck", "thesis_sim", "primo", "fuzzy", "stpd",
                                                    "fluid"))}
    todo = sorted(todo, key=lambda task: order.get(task[0], len(order)))
    with ProcessPoolExecutor(max_workers=min(jobs, len(todo)), mp_context=context) as pool:
        futures = {pool.submit(_run_section, *task, str(staging), options): task for task in todo}
        for future in as_completed(futures):
            name, _, heading, sources, inputs = futures[future]
            try:
                result = future.result()
            except BrokenProcessPool as err:
                result = SectionResult(name, heading, "failed", 0.0,
                                       sources=tuple(s.name for s in sources),
                                       error=f"worker process died: {err}",
                                       traceback=traceback.format_exc(), inputs=inputs)
            report(result)


def _run_section(name, module_name, heading, sources, inputs, staging, options):
    """Run one section in this process; never raises (failures are recorded)."""
    import matplotlib

    matplotlib.use("Agg")
    from . import ledger as ledger_module
    from .plots import styles

    start = time.perf_counter()
    items, claims, failures = [], [], []
    staging = Path(staging)
    status, error, trace = "ok", "", ""
    try:
        with styles.context(options["style"]):
            for item in importlib.import_module(module_name).report_items():
                items.append(_save(item, staging, options))
    except Exception as err:
        status, error, trace = "failed", f"{type(err).__name__}: {err}", traceback.format_exc()
    for source in sources:
        found, failure = ledger_module.run_source(source)
        claims += [(claim, source.name) for claim in found]
        if failure is not None and not failure.message.startswith("not installed"):
            failures.append({"source": failure.source, "message": failure.message,
                             "traceback": failure.traceback})
    return SectionResult(name, heading, status, time.perf_counter() - start, tuple(items),
                         tuple(claims), tuple(failures), tuple(s.name for s in sources), error,
                         trace, inputs)


def _save(item, out, options):
    if isinstance(item, ReportFigure):
        files = []
        for fmt in options["formats"]:
            path = out / f"{item.name}.{fmt}"
            item.figure.savefig(path, dpi=options["dpi"] if fmt == "png" else None,
                                metadata=_figure_metadata(fmt))
            files.append(path.name)
        return {"kind": "figure", "name": item.name, "caption": item.caption, "files": files}
    if isinstance(item, ReportTable):
        path_csv, path_md = out / f"{item.name}.csv", out / f"{item.name}.md"
        with path_csv.open("w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(item.columns)
            writer.writerows(item.rows)
        path_md.write_text(_markdown_table(item) + "\n")
        return {"kind": "table", "name": item.name, "caption": item.caption,
                "files": [path_csv.name, path_md.name], "columns": list(item.columns),
                "rows": [[_cell(v) for v in row] for row in item.rows]}
    raise TypeError(f"report item must be ReportFigure or ReportTable, got {type(item).__name__}")


def _figure_metadata(fmt):
    """Reproducible files: no creation date in PDF/SVG metadata."""
    if fmt == "pdf":
        return {"CreationDate": None, "Creator": "ctlcc report"}
    if fmt == "svg":
        return {"Date": None, "Creator": "ctlcc report"}
    return {"Software": "ctlcc report"}


def _public(result):
    """Drop the source names the workers attach to claims."""
    return SectionResult(result.name, result.heading, result.status, result.seconds,
                         result.items, tuple(claim for claim, _ in result.claims),
                         result.source_failures, result.sources, result.error,
                         result.traceback, result.inputs)


def _ledger_order(batches):
    """Order (source, claims) batches as :data:`ctlcc.ledger.SOURCES` lists them."""
    from .ledger import source_names

    rank = {name: i for i, name in enumerate(source_names())}
    return sorted(batches, key=lambda batch: rank.get(batch[0], len(rank)))


def _from_manifest(record, heading):
    claims = tuple((Claim(**{k: (tuple(v) if k == "seeds" else v) for k, v in c.items()
                             if k != "source"}), c["source"]) for c in record["claims"])
    return SectionResult(record["name"], heading, "reused", record["seconds"],
                         tuple(record["items"]), claims, tuple(record["source_failures"]),
                         tuple(record["sources"]), "", "", record["inputs"])


def _inputs_hash(name, options):
    """Hash of what a section's output depends on: code, data, styles, options."""
    from . import __version__

    package = Path(__file__).resolve().parent
    others = {module.rsplit(".", 1)[-1] + ".py" for n, module, _ in SECTIONS
              if n != name and module.startswith("ctlcc.plots.")}
    digest = hashlib.sha256(json.dumps([name, options, __version__], sort_keys=True).encode())
    paths = [p for p in sorted(package.rglob("*")) if p.is_file() and p.suffix in
             (".py", ".mplstyle", ".toml", ".csv")
             and not (p.parent.name == "plots" and p.name in others)
             and p.relative_to(package).parts[0] != "data"]  # hashed below, by name
    for path in paths:
        digest.update(str(path.relative_to(package.parent)).encode())
        digest.update(path.read_bytes())
    for name in _data.names():  # the shipped data files, wherever they are installed
        digest.update(f"data/{name}".encode())
        digest.update(_data.path(name).read_bytes())
    return digest.hexdigest()[:16]


# --- output folder ------------------------------------------------------------------------

def _install(staging, out, files, old):
    """Move the staged report into *out*: swap the folder when it is ours alone."""
    if not out.exists():
        os.replace(staging, out)
        return
    foreign = _foreign_files(out, old)
    if not foreign and old is not None:
        trash = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
        os.replace(out, trash / out.name)
        os.replace(staging, out)
        shutil.rmtree(trash, ignore_errors=True)
        return
    clash = sorted(f for f in files + [MANIFEST] if f in foreign)
    if clash:
        raise ReportOutputError(f"--out {str(out)!r}: the report would overwrite files it did not "
                                f"write ({', '.join(clash[:5])}); nothing was changed")
    stale = set((old or {}).get("files", [])) - set(files)
    for name in files:
        os.replace(staging / name, out / name)
    for name in stale:
        (out / name).unlink(missing_ok=True)
    os.replace(staging / MANIFEST, out / MANIFEST)


def _foreign_files(path, manifest):
    """Files in *path* the report did not write: not in its manifest, or changed since."""
    if not path.is_dir():
        return set()
    digests = (manifest or {}).get("digests", {})
    foreign = set()
    for p in path.rglob("*"):
        if p.is_dir() and not p.is_symlink():
            continue
        name = str(p.relative_to(path))
        if name == MANIFEST:
            continue
        if p.is_symlink() or name not in digests or _digest(p) != digests[name]:
            foreign.add(name)
    return foreign


def _digest(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _read_manifest(path):
    try:
        data = json.loads((Path(path) / MANIFEST).read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("ctlcc_report") == 1 else None


def _write_manifest(staging, files, results, ledger, provenance, options):
    origin = ledger.origin
    sections = {}
    for r in results:
        sections[r.name] = {
            "name": r.name, "status": r.status, "seconds": r.seconds, "inputs": r.inputs,
            "items": list(r.items), "sources": list(r.sources),
            "source_failures": list(r.source_failures), "error": r.error,
            "claims": [dict(_claim_fields(c), source=origin.get(c.id, "")) for c in r.claims],
        }
    (staging / MANIFEST).write_text(json.dumps(
        {"ctlcc_report": 1, "files": files,
         "digests": {name: _digest(staging / name) for name in files},
         "options": options, "provenance": provenance, "sections": sections},
        indent=1, default=str))


def _claim_fields(claim):
    from dataclasses import asdict

    fields = asdict(claim)
    fields["seeds"] = list(fields["seeds"])
    return fields


def _writable(path):
    """Whether a file can be created in *path* (a real probe: read-only mounts, root)."""
    try:
        handle, name = tempfile.mkstemp(prefix=".ctlcc-probe-", dir=path)
    except OSError:
        return False
    os.close(handle)
    os.unlink(name)
    return True


def _link_or_copy(source, target):
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


# --- provenance and the Markdown index -----------------------------------------------------

def _provenance(started, results, ledger, options, jobs):
    import platform

    import matplotlib
    import numpy

    from . import __version__

    seeds = sorted({s for claim in ledger.claims for s in claim.seeds})
    return {
        "ctlcc_version": __version__,
        "git_commit": _git_commit(),
        "date": datetime.fromtimestamp(started, timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
        "seconds": round(time.time() - started, 1),
        "section_seconds": {r.name: round(r.seconds, 1) for r in results},
        "seeds": seeds,
        "python": platform.python_version(),
        "platform": platform.platform(terse=True),
        "numpy": numpy.__version__,
        "matplotlib": matplotlib.__version__,
        "jobs": jobs,
        "command": " ".join(["ctlcc"] + sys.argv[1:]) if Path(sys.argv[0]).name in
        ("ctlcc", "__main__.py") else "",
        **{k: v for k, v in options.items()},
    }


def _git_commit():
    """Commit of the source tree ctlcc runs from, '' when not a git checkout."""
    import subprocess

    root = Path(__file__).resolve().parents[1]
    if not (root / ".git").exists():
        return ""
    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True,
                                text=True, timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--", "ctlcc",
                                "data"], capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""
    return commit + (" (with uncommitted changes)" if dirty else "")


def _write_index_md(out, results):
    lines = ["# ctlcc report", "", "Open `index.html` for the site; this file lists the same "
             "figures and tables.", ""]
    for result in results:
        lines += [f"## {result.heading}", ""]
        if result.status == "failed":
            lines += [f"**Section failed:** {result.error}", "", "```", result.traceback, "```", ""]
        for item in result.items:
            lines += [f"### {item['name']}", "", item["caption"], ""]
            if item["kind"] == "figure":
                image = next((f for f in item["files"] if not f.endswith(".pdf")), None)
                links = ", ".join(f"[{f.rsplit('.', 1)[1].upper()}]({f})" for f in item["files"])
                lines += ([f"![{item['name']}]({image})"] if image else []) + [f"({links})", ""]
            else:
                lines += [_markdown_rows(item["columns"], item["rows"]), "",
                          f"([CSV]({item['name']}.csv))", ""]
    (out / "index.md").write_text("\n".join(lines) + "\n")


def _check_sections(sections):
    known = section_names()
    if sections is None:
        return known
    if isinstance(sections, str):
        sections = [sections]
    if isinstance(sections, (bytes, dict)) or not hasattr(sections, "__iter__"):
        raise ParameterError(f"sections must be a list of section names or None, got "
                             f"{sections!r:.100}")
    sections = list(sections)
    unknown = [name for name in sections if not isinstance(name, str) or name not in known]
    if unknown or not sections:
        raise ParameterError(f"sections: unknown {unknown}; available: {', '.join(known)}; "
                             f"got {sections!r:.200}")
    if len(set(sections)) != len(sections):
        raise ParameterError(f"sections must not repeat a name, got {sections!r:.200}")
    return list(dict.fromkeys(list(sections) + [_ALWAYS]))


def _check_formats(formats):
    if isinstance(formats, str):
        formats = [f.strip() for f in formats.split(",") if f.strip()]
    if isinstance(formats, (bytes, dict)) or not hasattr(formats, "__iter__"):
        raise ParameterError(f"formats must be a subset of {', '.join(FORMATS)}, got "
                             f"{formats!r:.100}")
    given = list(formats)
    bad = [f for f in given if not isinstance(f, str) or f not in FORMATS]
    if bad or not given:
        raise ParameterError(f"format must be a comma-separated subset of {', '.join(FORMATS)}; "
                             f"got {','.join(map(str, given)) or repr('')} (formats)")
    formats = list(dict.fromkeys(given))
    if len(formats) != len(given):
        raise ParameterError(f"formats must not repeat a format, got {given!r}")
    return tuple(formats)


def _cell(value):
    return f"{value:.6g}" if isinstance(value, float) else str(value)


def _markdown_table(table):
    return _markdown_rows(table.columns, [[_cell(v) for v in row] for row in table.rows])


def _markdown_rows(columns, rows):
    out = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    out += ["| " + " | ".join(str(v).replace("|", "\\|") for v in row) + " |" for row in rows]
    return "\n".join(out)
