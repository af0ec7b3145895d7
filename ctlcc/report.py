# ctlcc.report - every analytical figure and the cross-check tables
"""``ctlcc report``: regenerate every analytical figure and table.

Each section is a module of :mod:`ctlcc.plots` with a ``report_items()``
generator.  Figures are saved as PNG and PDF, tables as CSV and Markdown,
and ``index.md`` lists everything with its caption.
"""

import csv
import importlib
import time
from dataclasses import dataclass
from pathlib import Path

from .plots import ReportFigure, ReportTable

__all__ = ["SECTIONS", "build_report", "ReportIndex"]

#: (section name, module, heading) in report order.
SECTIONS = (
    ("stpd", "ctlcc.plots.stpd", "ST-PD TCP: z-domain closed loop (Xu (2002), §4.3)"),
    ("bounds", "ctlcc.plots.bounds", "Closed-form throughput bounds: Mathis, PFTK/TFRC, IFTP, CBRAA (ElAarag & Bassiouni 2002; Ait-Hellal, Yamamoto & Leduc 1999)"),
    ("primo", "ctlcc.plots.primo", "Primo: regime loops, limit cycle and sharing (Chatté, Ducourthial & Niculescu (2006), §III)"),
    ("fuzzy", "ctlcc.plots.fuzzy", "ST-PD TCP: fuzzy gain supervisor and where the self-tuned loop is stable (Xu (2002), §3.4.3.2)"),
    ("fluid", "ctlcc.plots.fluid", "Fluid model: Reno (Hollot et al.), ST-PD and Primo"),
    ("sim", "ctlcc.plots.sim", "Packet-level simulator: Reno/Vegas traces and presets"),
    ("ns3", "ctlcc.plots.ns3", "Packet engine vs ns-3: goodput, traces, loss curve (issue 6)"),
    ("crosscheck", "ctlcc.plots.crosscheck", "Cross-checks: analytic predictions vs the packet simulator"),
    ("thesis_sim", "ctlcc.plots.thesis_experiments", "ST-PD thesis simulation experiments re-run (Xu 2002, §3.5, §4.4, §6)"),
    ("primo_sim", "ctlcc.plots.primo_experiments", "Primo's simulation study re-run: five criteria, many sources, Reno, multi-congestion (Chatté et al. 2006, §I, §V, §VI)"),
)


@dataclass(frozen=True)
class ReportIndex:
    """What a report run wrote.

    Attributes
    ----------
    out_dir : pathlib.Path
    files : tuple of pathlib.Path
        Every file written, index included.
    seconds : dict
        Wall-clock time per section. [s]
    """

    out_dir: Path
    files: tuple
    seconds: dict


def build_report(out_dir="ctlcc-report", sections=None, dpi=150, log=None):
    """Write every figure and table of the chosen sections to *out_dir*.

    Parameters
    ----------
    out_dir : str or pathlib.Path
        Output folder, created if needed.
    sections : sequence of str, optional
        Section names (default: all of :data:`SECTIONS`).
    dpi : int, optional
        PNG resolution. [dots/inch]
    log : callable, optional
        Called with one progress line per file (e.g. ``print``).

    Returns
    -------
    ReportIndex
    """
    known = [name for name, _, _ in SECTIONS]
    chosen = known if sections is None else list(sections)
    unknown = [name for name in chosen if name not in known]
    if unknown:
        raise ValueError(f"sections: unknown {unknown}; available: {', '.join(known)}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    log = log or (lambda line: None)
    files, seconds = [], {}
    lines = ["# ctlcc report", ""]
    for name, module_name, heading in SECTIONS:
        if name not in chosen:
            continue
        start = time.perf_counter()
        lines += [f"## {heading}", ""]
        for item in importlib.import_module(module_name).report_items():
            written = _save(item, out, dpi)
            files += written
            for path in written:
                log(f"wrote {path}")
            lines += _index_lines(item)
        seconds[name] = time.perf_counter() - start
    index = out / "index.md"
    index.write_text("\n".join(lines) + "\n")
    files.append(index)
    return ReportIndex(out, tuple(files), seconds)


def _save(item, out, dpi):
    if isinstance(item, ReportFigure):
        png, pdf = out / f"{item.name}.png", out / f"{item.name}.pdf"
        item.figure.savefig(png, dpi=dpi)
        item.figure.savefig(pdf)
        return [png, pdf]
    if isinstance(item, ReportTable):
        path_csv, path_md = out / f"{item.name}.csv", out / f"{item.name}.md"
        with path_csv.open("w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(item.columns)
            writer.writerows(item.rows)
        path_md.write_text(_markdown_table(item) + "\n")
        return [path_csv, path_md]
    raise TypeError(f"report item must be ReportFigure or ReportTable, got {type(item).__name__}")


def _index_lines(item):
    if isinstance(item, ReportFigure):
        return [f"### {item.name}", "", item.caption, "",
                f"![{item.name}]({item.name}.png) ([PDF]({item.name}.pdf))", ""]
    return [f"### {item.name}", "", item.caption, "", _markdown_table(item),
            "", f"([CSV]({item.name}.csv))", ""]


def _markdown_table(table):
    def cell(value):
        return f"{value:.6g}" if isinstance(value, float) else str(value)

    rows = ["| " + " | ".join(table.columns) + " |",
            "|" + "---|" * len(table.columns)]
    rows += ["| " + " | ".join(cell(v) for v in row) + " |" for row in table.rows]
    return "\n".join(rows)
