# ctlcc.sim._core.laws - a user's law compiled to the engine's fixed law signatures (private)
"""A :class:`~ctlcc.laws.user.WindowLaw` or :class:`~ctlcc.laws.user.RateLaw`, compiled.

The window-law and rate-law senders call a law through its address
(:func:`.hooks.window_law_call`, :func:`.hooks.rate_law_call`) with one
fixed signature whatever its memory and gains::

    window law:  law(window, error, memory_row, gains_row) -> new window
    rate law:    law(rate, excess, received, previous, memory_row, gains_row) -> new rate

where ``memory_row`` (read and overwritten with the new memory) and
``gains_row`` are the flow's rows of ``ctx.tab``.  :func:`compile_law`
writes that adapter around the user's ``update`` (a few lines of generated
source, ``update`` compiled with :func:`numba.njit`) and compiles it; the
event loop and the senders' hooks are compiled once and never again for a
new law, so a law defined in a notebook cell costs only its own compilation
(it is not cached on disk: a notebook cell has no source file, and a law's
helpers may live in files that :mod:`.cache` does not watch).  The laws of
ctlcc itself (the PD law of ST-PD, Primo's Algorithm 1) have hand-written
adapters in their sender modules, cached with them.
"""

import re

import numba
from numba.core.errors import NumbaError
from numba.core.registry import CPUDispatcher

from ...errors import ParameterError
from .hooks import RATE_LAW_SIGNATURE, WINDOW_LAW_SIGNATURE, address_of

__all__ = []

_SIGNALS = {"window": ("window", "error"), "rate": ("rate", "excess", "received", "previous")}
#: id(update), kind, memory, gains -> (adapter, address); one compilation per law and process
_COMPILED = {}


def adapter_source(kind, memory, n_gains):
    """Source of the adapter of a law with *memory* floats of memory and *n_gains* gains."""
    signals = _SIGNALS[kind]
    mem = "".join(f"memory[{i}], " for i in range(memory))
    gains = "".join(f", gains[{i}]" for i in range(n_gains))
    lines = [f"def law_adapter({', '.join(signals)}, memory, gains):",
             f"    new, new_memory = update({', '.join(signals)}, ({mem}){gains})"]
    lines += [f"    memory[{i}] = new_memory[{i}]" for i in range(memory)]
    lines.append("    return new")
    return "\n".join(lines) + "\n"


def law_key(law):
    """What identifies a law's compiled adapter in this process."""
    return (id(law.update), law.kind, law.memory, len(law.gains))


def compile_law(law):
    """(adapter dispatcher, address) of a WindowLaw or RateLaw, compiled once per process.

    Raises
    ------
    ParameterError
        When numba cannot compile the law: the message names the law, the
        construct numba refused and the line, and says what to write
        instead.
    """
    kind = law.kind
    key = law_key(law)
    if key in _COMPILED and _COMPILED[key][2] is law.update:
        return _COMPILED[key][:2]
    update = law.update
    if isinstance(update, CPUDispatcher):
        update = update.py_func
    # numpy's error model: x / 0.0 is inf or nan (which the sender then refuses with
    # the law's name), not a ZeroDivisionError from deep inside the event loop
    update = numba.njit(update, error_model="numpy")
    namespace = {"update": update}
    exec(compile(adapter_source(kind, law.memory, len(law.gains)),
                 f"<ctlcc law adapter of {law.name!r}>", "exec"), namespace)
    adapter = numba.njit(namespace["law_adapter"], error_model="numpy")
    signature = WINDOW_LAW_SIGNATURE if kind == "window" else RATE_LAW_SIGNATURE
    try:
        address = address_of(adapter, signature)
    except NumbaError as error:
        raise ParameterError(_explain(law, error)) from None
    _COMPILED[key] = (adapter, address, law.update)
    return adapter, address


def _explain(law, error):
    """numba's message about a law it could not compile, digested to what matters."""
    text = str(error)
    text = re.sub(r"\x1b\[[0-9;]*m", "", text)           # colours
    lines = [line.rstrip() for line in text.splitlines() if line.strip()]
    what = None
    for line in lines:
        s = line.strip()
        if s.startswith(("Failed in ", "During: ", "- Resolution failure", "Rewrite ")):
            continue
        if s.startswith(("File ", '"', ">", "^", "<source", "def ")) or s[0].isdigit():
            continue
        what = s
        break
    where = None
    for i, line in enumerate(lines):
        m = re.match(r'\s*File "([^"]+)", line (\d+)', line)
        if m and "ctlcc law adapter" not in m.group(1) and "site-packages" not in m.group(1):
            code = next((x.strip().lstrip(">").strip() for x in lines[i + 1:i + 4]
                         if x.strip().startswith(">")), "")
            where = f"{m.group(1)}, line {m.group(2)}" + (f": {code}" if code else "")
            break
    signals = ", ".join(_SIGNALS[law.kind])
    return (f"{type(law).__name__} {law.name!r}: numba cannot compile its update for the "
            f"packet engine: {what or lines[0] if lines else type(error).__name__}"
            + (f" (at {where})" if where else "")
            + f". The engine calls update({signals}, memory, *gains) with floats and a tuple "
              "of floats: write it with plain arithmetic and math functions on those numbers "
              "(branch with ctlcc.laws.user.select, no Python objects, strings, dicts or "
              "print); it runs as written in the fluid model and the analysis")
