# docs/conf.py - Sphinx configuration of the ctlcc documentation
"""Sphinx configuration.

Build locally (from the repository root, after ``pip install -e ".[docs]"``)::

    python -m sphinx -W --keep-going -b html docs docs/_build/html

Notebooks in ``notebooks/`` are copied into ``docs/tutorials/`` and rendered
by myst-nb; they are executed at build time (``nb_execution_mode = "cache"``,
so an unchanged notebook is not run twice).  Set ``CTLCC_DOCS_EXECUTE=off``
to render them without running them (the test build does this: the test
suite already executes every notebook through a kernel, scripts/run_notebooks.py,
whose nbclient fix for ``interact`` cells this build applies too).  The bibliography,
findings, changelog and gallery pages are generated here from
``ctlcc.references``, ``README.md``, ``CHANGELOG.md`` and ``docs/gallery/``.
"""

import json
import os
import shutil
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))
# The notebook kernels myst-nb starts must import this checkout's ctlcc too,
# not another installed copy.
os.environ["PYTHONPATH"] = os.pathsep.join(
    p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)

import ctlcc  # noqa: E402
from ctlcc.references import PAPERS, REFERENCES  # noqa: E402


def _patch_nbclient():
    """nbclient's Output-widget mimic must not starve the shell poll (see the runner)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("run_notebooks",
                                                  ROOT / "scripts" / "run_notebooks.py")
    runner = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(runner)
    runner.patch_nbclient()


_patch_nbclient()

project = "ctlcc"
author = "The ctlcc developers"
copyright = "The ctlcc developers"  # noqa: A001 (Sphinx's name)
release = ctlcc.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_nb",
]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "**.ipynb_checkpoints", "jupyter_execute",
                    "findings.md"]  # shown as _generated/findings (see _findings)
templates_path = ["_templates"]

# -- API reference -------------------------------------------------------------
autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_typehints = "none"            # the numpydoc sections carry the types
autodoc_mock_imports = ["ns3"]        # optional extra; the API page documents it anyway
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

# -- notebooks (myst-nb) ----------------------------------------------------------
nb_execution_mode = os.environ.get("CTLCC_DOCS_EXECUTE", "cache")
nb_execution_timeout = int(os.environ.get("CTLCC_DOCS_TIMEOUT", "600"))
nb_execution_raise_on_error = True
# A failing notebook prints its traceback in the build's output, not only in a log
# file under a temporary folder.
nb_execution_show_tb = True
nb_execution_cache_path = str(DOCS / "_build" / ".jupyter_cache")
#: Notebooks not executed by the docs build (they are executed by the tests).
nb_execution_excludepatterns = []
myst_enable_extensions = ["dollarmath", "colon_fence"]
myst_heading_anchors = 3
suppress_warnings = ["mystnb.unknown_mime_type"]

# -- HTML -------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"ctlcc {release}"
html_theme_options = {"navigation_with_keys": False, "show_toc_level": 2}
html_static_path = []


# -- generated pages --------------------------------------------------------------
GENERATED = DOCS / "_generated"


def _write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def _bibliography():
    lines = ["# Bibliography", "",
             "Every citation in ctlcc (docstrings, figure titles, warnings, the `source`",
             "column of `data/*.csv`) is built from {mod}`ctlcc.references`:",
             "`cite(\"stpd\", \"eq. (4.17)\")` gives `Xu (2002), eq. (4.17)`. Equation, figure",
             "and section numbers are the papers' own.", "",
             "## The papers ctlcc reproduces", ""]
    others = [k for k in REFERENCES if k not in PAPERS]
    for title, keys in ((None, PAPERS), ("## Models and standards ctlcc builds on", others)):
        if title:
            lines += [title, ""]
        for key in keys:
            ref = REFERENCES[key]
            entry = f"- **{ref.short}** — {', '.join(ref.authors)}. *{ref.title}*. {ref.venue}, {ref.year}."
            if ref.doi:
                entry += f" [doi:{ref.doi}](https://doi.org/{ref.doi})"
            elif ref.url:
                entry += f" <{ref.url}>"
            entry += f" Key: `{key}`."
            lines.append(entry)
            if ref.note:
                lines.append(f"  *Note:* {ref.note}")
        lines.append("")
    lines += ["## BibTeX", "", "```bibtex"]
    from ctlcc.references import bibtex
    lines += [bibtex(k) + "\n" for k in REFERENCES]
    lines += ["```", ""]
    return "\n".join(lines)


def _findings():
    # docs/findings.md is generated from the ledger snapshot by scripts/update_readme.py
    # (and tested for staleness); this page shows it
    page = DOCS / "findings.md"
    if not page.is_file():
        return "# Findings\n\n(Not generated yet: run `python scripts/update_readme.py`.)\n"
    return page.read_text(encoding="utf-8")


def _gallery():
    lines = ["# Gallery", "",
             "Figures of `ctlcc report`, each reproducing or checking a figure or equation",
             "of one of the papers. Regenerate them with `python docs/make_report_gallery.py`;",
             "`ctlcc report` writes all of them (PNG and PDF).", ""]
    folder = DOCS / "gallery"
    captions = {}
    for manifest in sorted(folder.rglob("captions.json")):
        for name, caption in json.loads(manifest.read_text(encoding="utf-8")).items():
            captions[(manifest.parent / f"{name}.png").resolve()] = caption
    images = sorted(folder.rglob("*.png"))
    if not images:
        lines.append("(No figures yet: run `python docs/make_report_gallery.py`.)")
    for image in images:
        rel = image.relative_to(DOCS).as_posix()
        caption = captions.get(image.resolve(), "")
        lines += [f"## {image.stem.replace('_', ' ')}", "",
                  f"```{{figure}} /{rel}", f":alt: {image.stem}", ":width: 100%", "",
                  caption, "```", ""]
    return "\n".join(lines)


def _copy_notebooks():
    target = DOCS / "tutorials"
    target.mkdir(exist_ok=True)
    names = []
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        dest = target / nb.name
        if not dest.exists() or dest.read_bytes() != nb.read_bytes():
            shutil.copyfile(nb, dest)
        names.append(nb.stem)
    for stale in target.glob("*.ipynb"):
        if stale.stem not in names:
            stale.unlink()
    return names


def _generate():
    _write(GENERATED / "bibliography.md", _bibliography())
    _write(GENERATED / "findings.md", _findings())
    _write(GENERATED / "gallery.md", _gallery())
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    _write(GENERATED / "changelog.md", changelog)
    license_text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    _write(GENERATED / "license.md", "# License\n\n```text\n" + license_text + "```\n")
    names = _copy_notebooks()
    toc = ["# Tutorials", "",
           "The notebooks of `notebooks/`, executed when the documentation is built.",
           "To run them yourself: `pip install -e \".[notebooks]\"`, then `jupyter lab notebooks/`.",
           "", "```{toctree}", ":maxdepth: 1", ""] + names + ["```", ""]
    _write(DOCS / "tutorials" / "index.md", "\n".join(toc))


_generate()
