# ctlcc.site - the static HTML site of `ctlcc report`
"""The report as a static site: plain HTML, CSS and a little JavaScript.

:func:`write_site` renders the Jinja2 templates of ``ctlcc/site/templates``
into the report folder: ``index.html`` (the papers' claims per paper, the
consistency checks apart, sections, provenance), ``claims.html`` (the
ledger of the papers' claims: a sortable, filterable table, each verdict
linked to its record: the paper's words and value, the measurable form,
the tolerance and its basis, ctlcc's value and the evidence),
``consistency.html`` (ctlcc's checks of itself, counted apart),
``gallery.html`` (every figure with its caption and files) and one
``section-<name>.html`` per report section (its figures, tables, records
and, if it failed, its traceback).  Every link is relative and nothing is
fetched from a server or a CDN, so the site opens from the file system.
"""

import re
import shutil
from pathlib import Path
from urllib.parse import quote

from .._validation import check_instance, check_sequence
from ..claims import VERDICTS
from ..errors import ParameterError
from ..references import REFERENCES

__all__ = ["write_site", "evidence_links", "summary_figure"]

_HERE = Path(__file__).resolve().parent
#: What the index page shows of a run (ctlcc.report builds it).
_PROVENANCE = ("command", "ctlcc_version", "date", "git_commit", "jobs", "matplotlib", "numpy",
               "platform", "python", "seconds", "seeds")

#: Pages and assets every site has besides the section pages.
_STATIC = ("site.css", "site.js")


def write_site(out, sections, ledger, provenance, options):
    """Render the site into *out*.

    Parameters
    ----------
    out : pathlib.Path
        Report folder (the figures are already there).
    sections : sequence of ctlcc.report.SectionResult
    ledger : ctlcc.ledger.Ledger
    provenance : dict
    options : dict
        ``formats``, ``dpi``, ``style`` of the run.

    Returns
    -------
    list of str
        File names written (relative to *out*).
    """
    import jinja2
    from ..report import SectionResult

    _check_common(out, ledger, options)
    check_sequence("sections", sections,
                   lambda name, x: check_instance(name, x, SectionResult), min_length=0)
    check_instance("provenance", provenance, dict)
    missing = sorted(set(_PROVENANCE) - set(provenance))
    if missing:
        raise ParameterError(f"provenance must have the keys {', '.join(_PROVENANCE)}; got "
                             f"{sorted(provenance)} (missing {missing})")
    out = Path(out)
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(_HERE / "templates")),
                             autoescape=True, trim_blocks=True, lstrip_blocks=True,
                             undefined=jinja2.StrictUndefined)
    env.filters["quote"] = lambda text: quote(str(text), safe="")
    env.filters["value"] = _value
    written = []
    items = {item["name"]: (section.name, item) for section in sections for item in section.items}
    env.filters["wbr"] = _break_points
    summary = summary_figure(ledger, out, options)
    written += summary
    claims = [_claim_view(claim, ledger.origin.get(claim.id, ""), items) for claim in ledger.claims]
    papers, totals = _count_rows(ledger, "paper")
    checks, check_totals = _count_rows(ledger, "consistency")
    section_views = [_section_view(section, claims) for section in sections]
    figures = [dict(item, section=section.name, image=_image(item))
               for section in sections for item in section.items if item["kind"] == "figure"]
    paper_claims = [c for c in claims if c["kind"] == "paper"]
    consistency = [c for c in claims if c["kind"] == "consistency"]
    common = {"sections": section_views, "provenance": provenance, "options": options,
              "verdicts": VERDICTS, "papers": papers, "totals": totals,
              "checks": checks, "check_totals": check_totals,
              "n_claims": len(paper_claims), "n_checks": len(consistency),
              "summary_image": summary[0] if summary else None, "failures": ledger.failures}
    pages = [("index.html", "index.html", {"title": "Summary"}),
             ("claims.html", "claims.html",
              {"title": "Claims ledger", "claims": paper_claims, "kind": "paper"}),
             ("consistency.html", "claims.html",
              {"title": "Consistency checks", "claims": consistency, "kind": "consistency"}),
             ("gallery.html", "gallery.html", {"title": "Figures", "figures": figures})]
    for view in section_views:
        pages.append((f"section-{view['name']}.html", "section.html",
                      {"title": view["heading"], "section": view}))
    for filename, template, context in pages:
        html = env.get_template(template).render(page=filename, **common, **context)
        (out / filename).write_text(html, encoding="utf-8")
        written.append(filename)
    for name in _STATIC:
        shutil.copyfile(_HERE / "static" / name, out / name)
        written.append(name)
    return written


def _count_rows(ledger, kind):
    counts = ledger.counts(kind)
    rows = [{"key": key, "short": REFERENCES[key].short, "title": REFERENCES[key].title,
             "counts": counts[key], "total": sum(counts[key].values())}
            for key in REFERENCES if key in counts]
    return rows, {v: sum(p["counts"][v] for p in rows) for v in VERDICTS}


def evidence_links(evidence, items):
    """Split a claim's evidence into display parts with links where the report has them.

    Parameters
    ----------
    evidence : str
        ``;``-separated references: report item names (figures, tables),
        functions, tests.
    items : dict
        Report item name -> (section name, item dict).

    Returns
    -------
    list of dict
        ``text``, ``href`` (None for code references), ``image`` (a figure's
        picture, or None).
    """
    check_instance("evidence", evidence, str)
    check_instance("items", items, dict)
    for key, value in items.items():
        if not (isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], dict)):
            raise ParameterError(f"items must map a report item's name to (section name, item "
                                 f"dict), got {key!r}: {value!r}")
    parts = []
    for token in filter(None, (t.strip() for t in evidence.split(";"))):
        stem = token.rsplit(".", 1)[0] if token.endswith((".png", ".pdf", ".svg")) else token
        if stem in items:
            section, item = items[stem]
            parts.append({"text": stem, "href": f"section-{section}.html#{quote(stem)}",
                          "image": _image(item) if item["kind"] == "figure" else None,
                          "kind": item["kind"]})
        else:
            parts.append({"text": token, "href": None, "image": None, "kind": "code"})
    return parts


def summary_figure(ledger, out, options):
    """Bar chart of the verdicts per paper, saved as ``claims_summary.*``.

    Returns
    -------
    list of str
        File names written (the PNG first when PNG is among the formats).
    """
    from ..plots import new_figure
    from ..plots.styles import context

    _check_common(out, ledger, options)
    counts = ledger.counts("paper")
    if not counts:
        return []
    colours = {"reproduced": "#009E73", "differs": "#E69F00", "printed-error": "#D55E00",
               "paper-inconsistent": "#CC79A7", "not yet checked": "#BBBBBB"}
    with context(options.get("style", "paper")):
        figure, ax = new_figure(figsize=(9.0, 0.55 * len(counts) + 1.6))
        papers = [key for key in REFERENCES if key in counts][::-1]
        left = [0] * len(papers)
        segments = []
        for verdict in VERDICTS:
            widths = [counts[p][verdict] for p in papers]
            bars = ax.barh([REFERENCES[p].short for p in papers], widths, left=left,
                           color=colours[verdict], label=verdict, edgecolor="white")
            segments.append((bars, widths))
            left = [a + b for a, b in zip(left, widths)]
        for y, total in enumerate(left):
            ax.annotate(f"{total}", (total, y), xytext=(3, 0), textcoords="offset points",
                        va="center", fontsize="small")
        ax.tick_params(axis="y", length=0)
        ax.set_xlabel("the paper's claims [count] (right of each bar: its total; a segment "
                      "too narrow for its count is left blank)")
        ax.set_title("ctlcc claims ledger: verdict per paper (paper claims only; "
                     "consistency checks apart)")
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        figure.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncols=3,
                      frameon=False)
        ax.grid(True, axis="x", alpha=0.3)
        ax.grid(False, axis="y")
        # a count is written inside its segment when the segment can hold its digits
        # (the index page's table has every count)
        figure.canvas.draw()
        x0, x1 = ax.get_xlim()
        points = ax.bbox.width * 72.0 / figure.dpi / (x1 - x0)
        for bars, widths in segments:
            ax.bar_label(bars, labels=[str(w) if w and w * points >= 5.0 * len(str(w)) + 3.0
                                       else "" for w in widths],
                         label_type="center", fontsize="small")
        written = []
        for fmt in options.get("formats", ("png",)):
            figure.savefig(Path(out) / f"claims_summary.{fmt}",
                           dpi=options.get("dpi", 150) if fmt == "png" else None)
            written.append(f"claims_summary.{fmt}")
    return sorted(written, key=lambda name: not name.endswith(".png"))


# --- private helpers ----------------------------------------------------------------------

def _check_common(out, ledger, options):
    """The report folder, the ledger and the run's options (formats, dpi, style)."""
    import os

    from ..ledger import Ledger
    from ..report import FORMATS, STYLES

    if not isinstance(out, (str, os.PathLike)) or not str(os.fspath(out)).strip():
        raise ParameterError(f"out must be the report folder (str or path-like), got "
                             f"{type(out).__name__} {out!r}")
    if not Path(out).is_dir():
        raise ParameterError(f"out must be an existing folder, got {str(out)!r}")
    check_instance("ledger", ledger, Ledger)
    check_instance("options", options, dict)
    unknown = sorted(set(options) - {"formats", "dpi", "style"})
    if unknown:
        raise ParameterError(f"options must have keys of 'formats', 'dpi', 'style'; got "
                             f"unknown {unknown}")
    formats = options.get("formats", ("png",))
    if isinstance(formats, str) or not isinstance(formats, (list, tuple)) or not formats or \
            any(f not in FORMATS for f in formats if isinstance(f, str)) or \
            not all(isinstance(f, str) for f in formats):
        raise ParameterError(f"options['formats'] must list formats of {', '.join(FORMATS)}, "
                             f"got {formats!r}")
    dpi = options.get("dpi", 150)
    if isinstance(dpi, bool) or not isinstance(dpi, int) or not 30 <= dpi <= 1200:
        raise ParameterError(f"options['dpi'] must be an integer in [30, 1200]; got {dpi!r}")
    style = options.get("style", "paper")
    if not isinstance(style, str) or style not in STYLES:
        raise ParameterError(f"options['style'] must be one of {', '.join(STYLES)}; "
                             f"got {style!r}")


def _claim_view(claim, source, items):
    row = claim.as_row()
    unit = f" {claim.unit}" if claim.unit and claim.unit != "1" else ""
    rule = ""
    sign = {"==": "=", "<=": "≤", ">=": "≥"}[claim.comparison]
    if claim.target is not None and claim.tolerance is not None:
        rule = f"{sign} {_number(claim.target)} ± {_number(claim.tolerance)}{unit}"
    elif claim.target is not None:
        rule = f"{sign} {_number(claim.target)}{unit}"
    stderr = claim.stderr
    value_text = _value(claim.value, claim.unit, claim.spread)
    if stderr is not None:
        value_text += f" (s.e. {_number(stderr)}, {len(claim.seeds)} seeds)"
    return dict(row, source=source, anchor=f"claim-{claim.id}",
                page="claims.html" if claim.kind == "paper" else "consistency.html",
                published_text=_value(claim.published, claim.unit), value_text=value_text,
                rule_text=rule, reference=REFERENCES[claim.paper].short,
                difference_text="" if claim.difference is None else
                f"{claim.difference:+.4g}{unit}",
                evidence_parts=evidence_links(claim.evidence, items),
                sort_published=_sort_key(claim.published), sort_value=_sort_key(claim.value),
                sort_group=claim.unit or "-")


def _section_view(section, claims):
    return {"name": section.name, "heading": section.heading, "status": section.status,
            "seconds": section.seconds, "error": section.error, "traceback": section.traceback,
            "items": [dict(item, image=_image(item)) if item["kind"] == "figure" else item
                      for item in section.items],
            "n_files": len(section.files), "sources": section.sources,
            "source_failures": section.source_failures,
            "claims": [c for c in claims if c["source"] in section.sources]}


def _image(item):
    for suffix in (".png", ".svg"):
        for name in item["files"]:
            if name.endswith(suffix):
                return name
    return None


def _value(value, unit="", spread=None):
    from ..ledger import format_value

    return format_value(value, unit, spread)


def _sort_key(value):
    if isinstance(value, (int, float)):
        return repr(float(value))
    return re.sub(r"\s+", " ", str(value or ""))


def _number(x):
    x = float(x)
    return f"{x:.4g}" if x == 0 or 1e-3 <= abs(x) < 1e6 else f"{x:.3g}"


def _break_points(text):
    """*text* (escaped) with ``<wbr>`` after ``/``, ``.``, ``::`` and ``_``: long paths wrap
    at their separators, never inside a word."""
    from markupsafe import Markup, escape

    escaped = str(escape(text))
    return Markup(re.sub(r"(::|/|\.|_)(?=\w)", r"\1<wbr>", escaped))
