# ctlcc.sim._core.cache - keep numba's on-disk cache of the engine consistent (private)
"""Invalidate the engine's numba cache when any of its sources changes.

numba's ``cache=True`` keys a compiled function on its *own* file only, but
the engine's functions compile in functions of a dozen files (``_core``,
the sender modules, the law cores of :mod:`ctlcc.laws`) and read the run's
arrays at the layout of :data:`.world.Ctx`.  Editing a sender or the layout
would leave stale code on disk.  :func:`ensure_fresh` hashes all those
sources and, when the hash differs from the stamp left by the last
compilation, removes every cached entry of the ``_core`` and ``senders``
modules - the event loop, the transport services, and the hooks compiled
from each sender module (:func:`.hooks.compile_hook` names them
``<module>.<hook>__hook``, so they sit with their module's entries) - so
that the next runs recompile them.  Docstrings and comments are left out of
the hash (an edit of the documentation does not cost a recompilation).  A
researcher's law is never cached on disk (:mod:`.laws`).
:func:`will_compile` tells the engine whether the event loop must be
compiled (the senders' hooks: :func:`.hooks.is_ready`).
"""

import ast
import hashlib
import sys
from pathlib import Path

__all__ = []

_ROOT = Path(__file__).resolve().parents[2]  # the ctlcc package
#: The engine's own files; the law modules the senders compile in are added from
#: the registry (:func:`_sources`), so a new sender's law module is watched too.
_SOURCES = ("sim/_core/*.py", "sim/senders/*.py", "laws/_core.py", "laws/aqm.py")
_STAMP = "ctlcc_engine.stamp"


def _sources():
    """Every source file the compiled engine depends on, derived from the registry.

    The ``_core`` and ``senders`` modules, and every module of :mod:`ctlcc.laws`
    that a registered sender's spec module or hooks module uses (a law module
    it imports, or one whose functions it compiles in).
    """
    import inspect

    from .. import senders

    paths = {path for pattern in _SOURCES for path in _ROOT.glob(pattern)}
    modules = set()
    for cls in senders.ENGINE:
        modules.add(sys.modules[cls.__module__])
        modules.add(senders.hooks_module(cls))
    for module in modules:
        for value in vars(module).values():
            target = value if inspect.ismodule(value) else sys.modules.get(
                getattr(getattr(value, "py_func", value), "__module__", None) or "")
            name = getattr(target, "__name__", "")
            if name.startswith("ctlcc.laws") and getattr(target, "__file__", None):
                paths.add(Path(target.__file__).resolve())
    return sorted(paths)


def _code_only(source):
    """The module's syntax tree without docstrings (comments never reach it)."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree)


def _digest():
    """Hash of the code (not the docstrings or comments) the event loop is compiled from."""
    h = hashlib.sha256()
    for path in _sources():
        h.update(path.name.encode())
        h.update(_code_only(path.read_text()).encode())
    h.update(sys.version.encode())
    return h.hexdigest()


def _cache_dirs():
    from . import dispatch

    dirs = {Path(dispatch.run_kernel._cache._cache_path)}
    from ..senders import window

    dirs.add(Path(window.timeout._cache._cache_path))
    return dirs


def _stamp_path():
    from . import dispatch

    return Path(dispatch.run_kernel._cache._cache_path) / _STAMP


_CHECKED = []


def ensure_fresh():
    """Drop the cached engine if its sources changed since it was compiled (once per process)."""
    if _CHECKED:
        return
    _CHECKED.append(True)
    try:
        stamp = _stamp_path()
        digest = _digest()
        if stamp.exists() and stamp.read_text() == digest:
            return
        modules = {p.stem for pattern in _SOURCES[:2] for p in _ROOT.glob(pattern)}
        for directory in _cache_dirs():
            if not directory.is_dir():
                continue
            for entry in directory.iterdir():
                if entry.suffix in (".nbi", ".nbc") and entry.name.split(".")[0] in modules:
                    entry.unlink(missing_ok=True)
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(digest)
    except OSError:  # read-only install: numba falls back to compiling in memory
        pass


def will_compile():
    """True when the event loop is neither loaded nor cached on disk."""
    from . import dispatch

    if dispatch.run_kernel.signatures:
        return False
    cache = dispatch.run_kernel._cache
    return not (Path(cache._cache_path) / cache._cache_file._index_name).exists()
