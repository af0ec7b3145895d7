# ctlcc.ledger.markdown - the README's generated parts, from the claims ledger
"""Markdown renderings of the ledger: summary counts, findings, reproduced claims.

``scripts/update_readme.py`` writes these between marker comments of the
README (``<!-- BEGIN generated: NAME -->`` ... ``<!-- END generated: NAME -->``)
from the committed ledger snapshot ``docs/claims.csv``; ``tests/test_readme.py``
fails when the README differs from what the snapshot gives, and when the
snapshot differs from what the code computes now.

Examples
--------
>>> from ctlcc.claims import Claim
>>> from ctlcc.ledger import Ledger
>>> book = Ledger((Claim(id="cbraa-x", paper="cbraa", location="eq. (4)", claim="C is 1.54.",
...                      published=1.54, value=1.5556, verdict="printed-error",
...                      evidence="paper_constants", reason="14/9 = 1.5556"),))
>>> print(findings(book).splitlines()[2])
- **eq. (4)** — C is 1.54. Paper: 1.54; ctlcc: 1.5556. 14/9 = 1.5556. (`cbraa-x`, printed-error)
"""

import re

from ..claims import VERDICTS
from ..references import REFERENCES
from . import format_value

__all__ = ["BLOCKS", "summary", "findings", "reproduced", "gallery", "render", "apply_blocks",
           "read_blocks"]

#: Names of the generated README blocks, in README order.
BLOCKS = ("gallery", "summary", "findings", "reproduced")

_BEGIN = "<!-- BEGIN generated: {name} (scripts/update_readme.py; do not edit by hand) -->"
_END = "<!-- END generated: {name} -->"


def summary(ledger):
    """Table of the verdict counts per paper."""
    counts = ledger.counts()
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
    return "\n".join(lines)


def findings(ledger):
    """Every claim that differs or has a printed error, per paper, with its reason."""
    out = []
    for key in REFERENCES:
        claims = [c for c in ledger.claims if c.paper == key
                  and c.verdict in ("differs", "printed-error")]
        if not claims:
            continue
        ref = REFERENCES[key]
        out += [f"**{ref.short}**, *{ref.title}*", ""]
        for c in claims:
            published = format_value(c.published, c.unit)
            value = format_value(c.value, c.unit, c.spread)
            claim = c.claim if c.claim.endswith((".", "?", "!")) else c.claim + "."
            out.append(f"- **{c.location}** — {claim} Paper: {published}; ctlcc: {value}. "
                       f"{_sentence(c.reason)} (`{c.id}`, {c.verdict})")
        out.append("")
    return "\n".join(out).rstrip()


def reproduced(ledger):
    """Table of the reproduced claims (collapsed), and the ids not yet checked."""
    rows = [c for c in ledger.claims if c.verdict == "reproduced"]
    lines = [f"<details><summary>{len(rows)} reproduced claims (paper, location, claim, "
             "published, ctlcc)</summary>", "",
             "| paper | location | claim | published | ctlcc |", "|---|---|---|---:|---:|"]
    for c in rows:
        lines.append(f"| {REFERENCES[c.paper].short} | {_cell(c.location)} | {_cell(c.claim)} | "
                     f"{_cell(format_value(c.published, c.unit))} | "
                     f"{_cell(format_value(c.value, c.unit, c.spread))} |")
    lines += ["", "</details>", ""]
    unchecked = [c for c in ledger.claims if c.verdict == "not yet checked"]
    if unchecked:
        lines.append(f"Not yet checked ({len(unchecked)}): "
                     + ", ".join(f"`{c.id}`" for c in unchecked) + ".")
    return "\n".join(lines).rstrip()


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
    """Every block's text, by name."""
    return {"gallery": gallery(figures), "summary": summary(ledger),
            "findings": findings(ledger), "reproduced": reproduced(ledger)}


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


def _cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def _sentence(text):
    text = text.rstrip(". ")
    return text[:1].upper() + text[1:] + "."
