# ctlcc._version - the version, written once
"""The version of ctlcc, written in one place.

``pyproject.toml`` reads :data:`__version__` from here (setuptools' ``dynamic``
version), ``ctlcc.__version__`` re-exports it, the documentation and the report's
provenance print it, and ``CITATION.cff`` repeats it (a test keeps the two equal).
:func:`describe` adds the git commit when ctlcc runs from a git checkout (an
editable install), and is the plain version for an installed wheel.

Examples
--------
>>> from ctlcc._version import __version__, describe
>>> describe().startswith(__version__)
True
"""

import subprocess
from pathlib import Path

__all__ = ["__version__", "describe", "git_commit"]

#: The release, PEP 440.
__version__ = "0.1.0"


def git_commit(root=None):
    """The commit of the checkout ctlcc is imported from, or ``""``.

    Parameters
    ----------
    root : path-like, optional
        Folder to ask; default: the folder holding the ``ctlcc`` package, which is
        a git checkout only for an editable install (an installed wheel lives in
        ``site-packages``, never a repository root with ``pyproject.toml``).

    Returns
    -------
    str
        The full commit hash, followed by ``" (with uncommitted changes)"`` when
        ``ctlcc/`` or ``data/`` differ from it; ``""`` outside a checkout or when
        git is missing.
    """
    root = Path(__file__).resolve().parents[1] if root is None else Path(root)
    if not ((root / ".git").exists() and (root / "pyproject.toml").is_file()):
        return ""
    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"],
                                capture_output=True, text=True, timeout=10,
                                check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--",
                                "ctlcc", "data"], capture_output=True, text=True,
                               timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""
    return commit + (" (with uncommitted changes)" if dirty else "")


def describe():
    """``"0.1.0"`` from a wheel, ``"0.1.0 (git <commit>)"`` from a checkout.

    Returns
    -------
    str
        The version, with the commit of :func:`git_commit` (shortened to 12 hex
        digits) when there is one.
    """
    commit = git_commit()
    if not commit:
        return __version__
    short, _, rest = commit.partition(" ")
    return f"{__version__} (git {short[:12]}{', with uncommitted changes' if rest else ''})"
