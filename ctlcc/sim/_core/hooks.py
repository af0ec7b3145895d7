# ctlcc.sim._core.hooks - the sender contract's hooks, compiled one by one, called by address (private)
"""How the event loop reaches a sender: seven hooks with fixed signatures.

A sender module defines (some of) these functions, each compiled by numba
and each taking the run's arrays ``ctx`` (:data:`.net.Ctx`) and the run's
random Generator ``rng`` last:

==========  =============================================  ===========================
hook        function in the sender module                  when
==========  =============================================  ===========================
start       ``on_start(now, f, ctx, rng)``                 the flow starts
ack         ``on_ack(now, f, ack, ctx, rng)``              a packet comes back to the
                                                           sender (``ack``: an
                                                           :data:`.net.Ack` record)
data        ``on_data(now, f, p, ctx, rng)``               data packet ``p`` reaches
                                                           the receiver (default: the
                                                           cumulative-ACK receiver)
timer       ``on_timer(now, f, ctx, rng)``                 the retransmission timer
                                                           (``net.arm``) expires
pace        ``on_pace(now, f, ctx, rng)``                  the flow's pacing event
step        ``on_step(now, f, step, ctx, rng)``            an ``EV_STEP`` the sender
                                                           pushed for itself
resume      ``on_resume(now, f, ctx, rng)``                after its spec's Python step
==========  =============================================  ===========================

A hook returns nothing, or :data:`.layout.HOOK_PYTHON` (the loop returns to
Python, which calls ``spec.python_step``, then ``on_resume``) or
:data:`.layout.HOOK_ERROR` (the run stops; ``spec.error_message`` says why).

Each hook is compiled on its own, into a function of a fixed signature that
takes the run's arrays *by address* (:func:`load_world` reads them back,
borrowed: no reference counting), and the event loop calls it through the
address kept in the flow's row of ``ctx.hooks``.  Hence:

* the event loop (:mod:`.dispatch`) names no sender and is compiled once,
  whatever senders a run uses; a sender is compiled the first time a run
  uses it (and cached on disk next to its module, see :mod:`.cache`);
* a call costs a few nanoseconds: the 31 arrays stay where the loop keeps
  them instead of being passed by value (hundreds of words) at every call.

The compiled copy of a hook (:func:`compile_hook`) is made from the hook's
own source with a three-line prologue, under the name ``<hook>__hook`` and
the line number of the hook's definition in the sender's file, so numba
caches it beside the sender module's other functions and never confuses two
hooks.  A user's law reaches a sender the same way: :func:`window_law_call`
and :func:`rate_law_call` call a compiled law by address (:mod:`.laws`).
"""

import ast
import inspect
import sys
import textwrap
from pathlib import Path

import numba
from numba import types
from numba.extending import overload

from .layout import NH
from .world import (  # noqa: F401  (CTX_TYPE, RNG_TYPE: the engine's types, read from here)
    ACK_TYPE, CTX_TYPE, RNG_TYPE, WORLD_TYPE, caller, load_world, store_world,
)

__all__ = []

#: hook kind -> (function name in a sender module, parameters before ctx, rng)
HOOKS = {
    "start": ("on_start", ("now", "f")),
    "ack": ("on_ack", ("now", "f", "ack")),
    "data": ("on_data", ("now", "f", "p")),
    "timer": ("on_timer", ("now", "f")),
    "pace": ("on_pace", ("now", "f")),
    "step": ("on_step", ("now", "f", "step")),
    "resume": ("on_resume", ("now", "f")),
}
KINDS = tuple(HOOKS)
assert len(KINDS) == NH

_ARG = {"now": types.float64, "f": types.int64, "ack": ACK_TYPE, "p": types.int64,
        "step": types.int64}
#: hook kind -> the compiled signature (its parameters, then the world's address)
SIGNATURES = {kind: types.int64(*[_ARG[a] for a in params], types.int64)
              for kind, (_, params) in HOOKS.items()}
ROW = types.Array(types.float64, 1, "C")
#: compiled signatures of a window law and a rate law (see .laws)
WINDOW_LAW_SIGNATURE = types.float64(types.float64, types.float64, ROW, ROW)
RATE_LAW_SIGNATURE = types.float64(types.float64, types.float64, types.float64, types.float64,
                                   ROW, ROW)


call_start = caller(SIGNATURES["start"].args, types.int64)
call_ack = caller(SIGNATURES["ack"].args, types.int64)
call_data = caller(SIGNATURES["data"].args, types.int64)
call_timer = caller(SIGNATURES["timer"].args, types.int64)
call_pace = caller(SIGNATURES["pace"].args, types.int64)
call_step = caller(SIGNATURES["step"].args, types.int64)
call_resume = caller(SIGNATURES["resume"].args, types.int64)
#: ``window_law_call(address, window, error, memory_row, gains_row) -> new window``
window_law_call = caller(WINDOW_LAW_SIGNATURE.args, types.float64)
#: ``rate_law_call(address, rate, excess, received, previous, memory_row, gains_row)``
rate_law_call = caller(RATE_LAW_SIGNATURE.args, types.float64)


def status(value):
    """A hook's return value as its status (nothing returned: HOOK_OK)."""
    return 0 if value is None else int(value)


@overload(status)
def _status(value):
    if isinstance(value, (types.NoneType, types.Omitted)) or value is None:
        return lambda value: 0
    if isinstance(value, (types.Integer, types.Boolean)):
        return lambda value: int(value)
    return None


# --- compiling a hook ----------------------------------------------------------------

def check_hook(function, kind):
    """TypeError unless *function* has the fixed parameters of hook *kind*."""
    py = getattr(function, "py_func", function)
    expected = HOOKS[kind][1] + ("ctx", "rng")
    try:
        params = tuple(inspect.signature(py).parameters)
    except (TypeError, ValueError):
        params = None
    if params is None or len(params) != len(expected) or params[-2:] != ("ctx", "rng"):
        raise TypeError(f"hook {py.__module__}.{py.__name__} must take "
                        f"({', '.join(expected)}), the fixed signature of the {kind!r} hook; "
                        f"got ({', '.join(params or ())})")
    return py


def compile_hook(function, kind, cache=True):
    """The hook compiled on its own with the fixed signature ``SIGNATURES[kind]``.

    *function* is the sender's hook (a plain function or a numba dispatcher,
    any ``inline`` option).  Returns the numba dispatcher of
    ``<name>__hook(<parameters>, world_address)``, which loads the run's
    arrays from the address and runs the hook's body, inlined.
    """
    py = check_hook(function, kind)
    params = HOOKS[kind][1]
    module = sys.modules[py.__module__]
    lines, first = inspect.getsourcelines(py)
    name = f"{py.__name__}__hook"
    source = textwrap.dedent(f"""\
        def {name}({', '.join(params)}, __world):
            ctx, rng = __load_world(__world)
            return __status(__hook_body({', '.join(params)}, ctx, rng))
        """)
    tree = ast.parse(source)
    ast.increment_lineno(tree, first - 1)
    namespace = dict(vars(module), __load_world=load_world, __status=status,
                     __hook_body=numba.njit(py, inline="always"))
    exec(compile(tree, inspect.getsourcefile(py), "exec"), namespace)
    return numba.njit(namespace[name], cache=cache)


def address_of(dispatcher, signature):
    """Entry address of *dispatcher* compiled (or loaded from the cache) for *signature*."""
    result = dispatcher.get_compile_result(signature)
    return result.library.get_pointer_to_function(result.fndesc.llvm_func_name)


#: (module name, kind) -> (dispatcher, address or None); one compiled copy per process
_COMPILED = {}


def module_hooks(module):
    """kind -> the hook function *module* defines (its sender's hooks)."""
    found = {}
    for kind, (name, _) in HOOKS.items():
        function = getattr(module, name, None)
        if function is not None:
            found[kind] = function
    return found


def dispatcher(module, kind):
    """The compiled-hook dispatcher of *module*'s hook *kind* (not compiled yet)."""
    key = (module.__name__, kind)
    if key not in _COMPILED:
        function = module_hooks(module)[kind]
        _COMPILED[key] = [compile_hook(function, kind), None]
    return _COMPILED[key][0]


def address(module, kind):
    """Address of *module*'s hook *kind*, compiling or loading it on first use."""
    disp = dispatcher(module, kind)
    entry = _COMPILED[(module.__name__, kind)]
    if entry[1] is None:
        entry[1] = address_of(disp, SIGNATURES[kind])
    return entry[1]


def is_ready(module, kind):
    """True when the hook is loaded in this process or compiled in numba's disk cache."""
    key = (module.__name__, kind)
    if key in _COMPILED and _COMPILED[key][1] is not None:
        return True
    return is_compiled(dispatcher(module, kind))


def is_compiled(disp):
    """True when numba dispatcher *disp* is compiled in this process or in its disk cache."""
    if disp.signatures:
        return True
    cache = getattr(disp, "_cache", None)
    try:
        return (Path(cache._cache_path) / cache._cache_file._index_name).exists()
    except AttributeError:   # no disk cache (read-only install): compiled in memory
        return False
