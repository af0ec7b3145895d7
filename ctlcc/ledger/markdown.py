# ctlcc.ledger.markdown - the README's summary and the findings page, from the claims ledger
"""Markdown renderings of the ledger: the summary table and the findings page.

``scripts/update_readme.py`` writes the README's generated blocks
(``<!-- BEGIN generated: NAME -->`` ... ``<!-- END generated: NAME -->``:
:data:`BLOCKS`, the gallery and the summary of the papers' claims) and the
whole of ``docs/findings.md`` (:func:`findings_page`: every paper claim that
differs, has a printed error or is paper-inconsistent, with its rule and
reason; the reproduced claims; the consistency checks, counted apart; what
is not yet checked) from the committed ledger snapshot ``docs/claims.csv``;
``tests/test_readme.py`` fails when either differs from what the snapshot
gives, and when the snapshot differs from what the code computes now.

Examples
--------
>>> from ctlcc.claims import Claim
>>> from ctlcc.ledger import Ledger
>>> book = Ledger((Claim(id="cbraa-x", paper="cbraa", location="eq. (4)", claim="C is 1.54.",
...                      published=1.54, value=1.5556, tolerance=0.005,
...                      tolerance_basis="half a unit", on_outside="printed-error",
...                      verdict="printed-error", evidence="paper_constants",
...                      reason="14/9 = 1.5556"),))
>>> print(findings(book).splitlines()[2])
- **eq. (4)** — “C is 1.54.” Paper: 1.54; ctlcc: 1.5556 (rule: = 1.54 ± 0.005, half a unit). 14/9 = 1.5556. (`cbraa-x`, printed-error)
"""

import re

from ..claims import VERDICTS
from ..references import REFERENCES
from . import format_value

__all__ = ["BLOCKS", "summary", "findings", "reproduced", "consistency", "not_yet_checked",
           "findings_page", "gallery", "render", "apply_blocks", "read_blocks"]

#: Names of the README's generated blocks, in README order.
BLOCKS = ("gallery", "summary")

#: Where the findings page lives (relative to the repository), linked from the README.
FINDINGS_PAGE = "docs/findings.md"

_BEGIN = "<!-- BEGIN generated: {name} (scripts/update_readme.py; do not edit by hand) -->"
_END = "<!-- END generated: {name} -->"
_SIGN = {"==": "=", "<=": "≤", ">=": "≥"}
_FINDING_VERDICTS = ("differs", "printed-error", "paper-inconsistent")


def summary(ledger):
    """Table of the verdict counts of the papers' claims, and one line on the rest."""
    counts = ledger.counts("paper")
    lines = ["| paper | " + " | ".join(VERDICTS) + " | total |",
             "|---|" + "---:|" * (len(VERDICTS) + 1)]
    totals = dict.fromkeys(VERDICTS, 0)
    for key in REFERENCES:
        if key not in counts:
            continue
        row = counts[key]
        for verdict in VERDICTS:
            totals[verdict] += row[verdict]
        lines.append(f"| {REFERENCES[key].short} | "
                     + " | ".join(str(row[v]) for v in VERDICTS) + f" | {sum(row.values())} |")
    lines.append("| **all** | " + " | ".join(f"**{totals[v]}**" for v in VERDICTS)
                 + f" | **{sum(totals.values())}** |")
    blocked = sum(1 for c in ledger.claims if c.kind == "paper" and c.verdict == "not yet checked"
                  and c.reason.startswith("not checkable"))
    checks = ledger.totals("consistency")
    n = sum(checks.values())
    lines += ["", f"Of the {totals['not yet checked']} not yet checked, {blocked} cannot be "
                  f"checked as the papers stand (definitions, values only drawn in a figure, "
                  f"numbers cited from other papers).",
              "", f"Counted apart: {n} consistency checks of ctlcc's models against its own "
                  f"simulator and ns-3 ({checks['reproduced']} reproduced, {checks['differs']} "
                  f"differ). Every record, its rule and its reason: [{FINDINGS_PAGE}]"
                  f"({FINDINGS_PAGE})."]
    return "\n".join(lines)


def findings(ledger):
    """Every paper claim that differs, has a printed error or is paper-inconsistent."""
    out = []
    for key in REFERENCES:
        claims = [c for c in ledger.claims if c.paper == key and c.kind == "paper"
                  and c.verdict in _FINDING_VERDICTS]
        if not claims:
            continue
        ref = REFERENCES[key]
        out += [f"**{ref.short}**, *{ref.title}*", ""]
        for c in claims:
            out.append(f"- **{c.location}** — “{_sentence(c.claim)}” Paper: "
                       f"{format_value(c.published, c.unit)}; ctlcc: {_value(c)} "
                       f"(rule: {_rule(c)}). {_sentence(c.reason)} (`{c.id}`, {c.verdict})")
        out.append("")
    return "\n".join(out).rstrip()


def reproduced(ledger):
    """Table of the reproduced paper claims."""
    rows = [c for c in ledger.claims if c.kind == "paper" and c.verdict == "reproduced"]
    lines = ["| paper | location | claim | published | rule | ctlcc | id |",
             "|---|---|---|---:|---|---:|---|"]
    for c in rows:
        lines.append(f"| {REFERENCES[c.paper].short} | {_cell(c.location)} | {_cell(c.claim)} | "
                     f"{_cell(format_value(c.published, c.unit))} | {_cell(_rule(c))} | "
                     f"{_cell(_value(c))} | `{c.id}` |")
    return "\n".join(lines)


def consistency(ledger):
    """Table of the consistency checks (ctlcc against itself), counted apart."""
    rows = [c for c in ledger.claims if c.kind == "consistency"]
    lines = ["| model of | check | prediction | rule | ctlcc | verdict | id |",
             "|---|---|---:|---|---:|---|---|"]
    for c in rows:
        lines.append(f"| {REFERENCES[c.paper].short} | {_cell(c.claim)} | "
                     f"{_cell(format_value(c.published, c.unit))} | {_cell(_rule(c))} | "
                     f"{_cell(_value(c))} | {c.verdict} | `{c.id}` |")
    return "\n".join(lines)


def not_yet_checked(ledger):
    """Counts of the papers' statements no record judges yet, those that cannot be
    checked apart (their reason starts with ``not checkable``)."""
    per = {}
    for c in ledger.claims:
        if c.verdict == "not yet checked":
            per.setdefault(c.paper, [0, 0])[int(c.reason.startswith("not checkable"))] += 1
    lines = ["| paper | not yet checked | of which not checkable (why in the list) |",
             "|---|---:|---:|"]
    for key in REFERENCES:
        if key in per:
            lines.append(f"| {REFERENCES[key].short} | {sum(per[key])} | {per[key][1]} |")
    lines.append(f"| **all** | **{sum(sum(v) for v in per.values())}** | "
                 f"**{sum(v[1] for v in per.values())}** |")
    return "\n".join(lines)


def findings_page(ledger):
    """The whole of ``docs/findings.md``."""
    paper = ledger.totals("paper")
    return "\n".join([
        "# Findings: the papers' claims against ctlcc",
        "",
        "<!-- Generated by scripts/update_readme.py from docs/claims.csv; do not edit by hand. -->",
        "",
        "Every record of the claims ledger (`ctlcc claims`, `claims.csv` of `ctlcc report`), "
        "from the committed snapshot `docs/claims.csv`. A record quotes the paper, states the "
        "measurable form it is judged by and a tolerance whose basis was declared before "
        "measuring (`data/ledger_<paper>.csv`); the verdict follows: *reproduced* iff ctlcc's "
        "value meets the target within the tolerance (in the sense of the comparison), "
        "*differs* otherwise (by the size given), *printed-error* when ctlcc's value is the "
        "paper's own derivation, *paper-inconsistent* when the paper's own numbers make the "
        "claim impossible. Paper claims: "
        + ", ".join(f"{paper[v]} {v}" for v in VERDICTS) + ".",
        "",
        "## Where they differ",
        "",
        findings(ledger),
        "",
        "## Reproduced",
        "",
        reproduced(ledger),
        "",
        "## Consistency checks (counted apart)",
        "",
        "ctlcc's models against ctlcc's own packet engine, ns-3 and its own invariants: they "
        "test ctlcc, not the papers.",
        "",
        consistency(ledger),
        "",
        "## Not yet checked",
        "",
        "Statements of the papers' inventory (`data/inventory/`) that no paper record judges, "
        "each with what checking it needs in `data/claims_not_yet_checked.csv`; those that "
        "cannot be checked (definitions, values only drawn in a figure, numbers cited from "
        "other papers) are records too, counted here apart, with why.",
        "",
        not_yet_checked(ledger),
        "",
    ])


def gallery(figures, folder="docs/gallery"):
    """A row of linked thumbnails.

    Parameters
    ----------
    figures : sequence of (str, str)
        (file name in *folder*, alt text).
    """
    cells = [f'<a href="{folder}/{name}"><img src="{folder}/{name}" alt="{alt}" width="32%"></a>'
             for name, alt in figures]
    return "<p>\n" + "\n".join(cells) + "\n</p>"


def render(ledger, figures=()):
    """Every README block's text, by name."""
    return {"gallery": gallery(figures), "summary": summary(ledger)}


def apply_blocks(text, blocks):
    """*text* with each generated block replaced by *blocks[name]*.

    Raises
    ------
    ValueError
        A block's markers are missing or appear more than once.
    """
    for name, body in blocks.items():
        pattern = _pattern(name)
        if len(pattern.findall(text)) != 1:
            raise ValueError(f"README: block {name!r} must appear exactly once between "
                             f"{_BEGIN.format(name=name)!r} and {_END.format(name=name)!r}")
        text = pattern.sub(lambda m: f"{m.group(1)}\n{body}\n{m.group(3)}", text)
    return text


def read_blocks(text):
    """The current body of every generated block found in *text*, by name."""
    out = {}
    for name in BLOCKS:
        match = _pattern(name).search(text)
        if match:
            out[name] = match.group(2).strip("\n")
    return out


# --- private helpers ----------------------------------------------------------------------

def _pattern(name):
    return re.compile(f"({re.escape(_BEGIN.format(name=name))})(.*?)({re.escape(_END.format(name=name))})",
                      flags=re.S)


def _number(x):
    x = float(x)
    return f"{x:.4g}" if x == 0 or 1e-3 <= abs(x) < 1e6 else f"{x:.3g}"


def _rule(c):
    if c.target is None:
        return c.tolerance_basis or "—"
    unit = f" {c.unit}" if c.unit and c.unit != "1" else ""
    tol = "" if c.tolerance is None else f" ± {_number(c.tolerance)}"
    basis = f", {c.tolerance_basis}" if c.tolerance_basis else ""
    return f"{_SIGN[c.comparison]} {_number(c.target)}{tol}{unit}{basis}"


def _value(c):
    text = format_value(c.value, c.unit, c.spread)
    if c.stderr is not None:
        text += f", s.e. {_number(c.stderr)} over {len(c.seeds)} seeds"
    return text or "—"


def _cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def _sentence(text):
    text = str(text).strip().rstrip(". ")
    return text[:1].upper() + text[1:] + "."
