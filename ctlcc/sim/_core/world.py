# ctlcc.sim._core.world - the run's arrays as one value, borrowed, and handed over by address (private)
"""The run's arrays (:data:`Ctx`), and how compiled functions share them cheaply.

* :data:`Ctx` groups the arrays of one run; :func:`borrow` strips their
  reference-count handles for the duration of a call (the caller owns them);
* the event loop stores ``(ctx, rng)`` once in a stack slot of its own
  (:func:`store_world`) and hands compiled functions that slot's address;
  :func:`load_world` reads them back, borrowed.  A call then passes a few
  numbers instead of the 31 arrays by value (hundreds of machine words), so
  functions compiled on their own - the senders' hooks (:mod:`.hooks`), the
  transport services of :mod:`.net` - are called through their address for
  a few nanoseconds, and each is compiled once, not inlined into every
  caller;
* :func:`caller` makes the intrinsic that calls a compiled function of a
  given signature by its address.
"""

from collections import namedtuple

import numba
import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic
from numba.np.arrayobj import make_array

__all__ = []

#: The arrays of one run, grouped (see engine._Simulation for their shapes).
#: Nothing in it is a sender's own: a sender keeps its state in its columns of
#: ``ff``/``fi`` and its extra arrays in its rows of ``tab`` (n, rows, width),
#: both sized from what the specs of the run declare; ``hooks`` (n, 8: NH columns and
#: one of padding, a line per flow) holds the addresses of each flow's compiled hooks
#: (:mod:`.hooks`).
Ctx = namedtuple("Ctx", [
    "g", "meta", "hf", "hi", "tf", "ti", "pi", "pf", "free",
    "cf", "ci", "ring_s", "ring_e", "loss_list", "ff", "fi", "fpath", "rpath", "rbits", "tab",
    "hooks", "bott",
    "samp_t", "samp_w", "samp_r", "samp_sent", "samp_dlv", "samp_rcv", "samp_q", "rtt_buf",
    "drop_buf"])

#: What an ACK (or any packet coming back to the sender: a report, a feedback)
#: brings to the sender's ``on_ack`` hook: ``seq`` the cumulative ACK (or the
#: echoed sequence number), ``rtt`` now minus the echoed send time [s],
#: ``retx`` whether the echoed segment was a retransmission, ``flag`` the
#: packet's flag, ``aux1``/``aux2`` the receiver's two fields (SACK block,
#: FTT and reception rate, report counts...), ``echo`` the echoed send time [s],
#: ``ecn`` the ACK's ECN bits (``ECN_ECE`` when the receiver echoes a CE mark, RFC 3168;
#: 0 by default).
Ack = namedtuple("Ack", ["seq", "rtt", "retx", "flag", "aux1", "aux2", "echo", "ecn"],
                 defaults=(0,))


def sample_ctx():
    """A Ctx of tiny arrays with the engine's dtypes and layouts (its numba type)."""
    f8, i8 = np.float64, np.int64
    shapes = dict(g=(1, f8), meta=(1, i8), hf=(1, f8), hi=(1, i8), tf=(1, f8), ti=(1, i8),
                  pi=((1, 1), i8), pf=((1, 1), f8),
                  free=(1, i8), cf=((1, 1), f8),
                  ci=((1, 1), i8), ring_s=(1, f8), ring_e=(1, f8), loss_list=(1, i8),
                  ff=((1, 1), f8), fi=((1, 1), i8), fpath=((1, 1), i8), rpath=((1, 1), i8),
                  rbits=((1, 1), np.uint8), tab=((1, 1, 1), f8), hooks=((1, 1), i8),
                  bott=(1, i8), samp_t=(1, f8), samp_w=((1, 1), f8), samp_r=((1, 1), f8),
                  samp_sent=((1, 1), i8), samp_dlv=((1, 1), i8), samp_rcv=((1, 1), i8),
                  samp_q=((1, 1), f8),
                  rtt_buf=((1, 1), f8), drop_buf=((1, 1), f8))
    ctx = {name: np.zeros(shape, dtype) for name, (shape, dtype) in shapes.items()}
    # the rings' starts and ends are the two columns of one table (engine._Simulation)
    ring = np.zeros((2, 2))   # two rows: a column of one row would count as contiguous
    ctx["ring_s"], ctx["ring_e"] = ring[:, 0], ring[:, 1]
    return Ctx(**ctx)


def _borrowable(t):
    return isinstance(t, (types.Array, types.NumPyRandomGeneratorType))


def _unowned(context, builder, t, value):
    """*value* (an array or a numpy Generator) with a null ``meminfo``."""
    if isinstance(t, types.Array):
        proxy = make_array(t)(context, builder, value=value)
    else:
        proxy = cgutils.create_struct_proxy(t)(context, builder, value=value)
    proxy.meminfo = cgutils.get_null_value(proxy.meminfo.type)
    return proxy._getvalue()


@intrinsic
def borrow(typingctx, x):
    """The same arrays (or Generator) without their reference-count handles, for one call.

    Every ``ctx.<field>`` read and every inlined hook that receives ``ctx``
    makes numba copy the tuple, i.e. increment (and later decrement) the
    reference count of each of its 31 arrays: out-of-line ``NRT_incref`` /
    ``NRT_decref`` calls with atomic updates, which LLVM's reference
    pruning cannot pair across the branches of the event loop (hundreds
    per event).  The event loop owns nothing: the arrays and the generator
    belong to the Python caller and outlive the call, and nothing created
    inside escapes it.  So the loop works on copies of their structs whose
    ``meminfo`` is null; NRT skips null handles, and since the null is a
    constant LLVM folds those calls away.  Same memory, same results.
    """
    if _borrowable(x):
        def codegen(context, builder, sig, args):
            return _unowned(context, builder, sig.args[0], args[0])
    elif isinstance(x, types.BaseTuple):
        def codegen(context, builder, sig, args):
            out = args[0]
            for i, t in enumerate(sig.args[0].types):
                item = builder.extract_value(out, i)
                if _borrowable(t):
                    out = builder.insert_value(out, _unowned(context, builder, t, item), i)
                else:  # any other member passes unchanged, as a new reference
                    context.nrt.incref(builder, t, item)
            return out
    else:
        return None
    return x(x), codegen


#: numba types of the run's arrays, its Generator, the world handed over and an Ack
CTX_TYPE = numba.typeof(sample_ctx())
RNG_TYPE = numba.typeof(np.random.default_rng(0))
WORLD_TYPE = types.Tuple((CTX_TYPE, RNG_TYPE))
ACK_TYPE = numba.typeof(Ack(0, 0.0, 0, 0, 0.0, 0.0, 0.0, 0))


# --- the world, by address ---------------------------------------------------------------

def _load(builder, llty, ptr):
    """Load a value of LLVM type *llty* at *ptr* scalar by scalar (unused ones fold away)."""
    if isinstance(llty, (ir.LiteralStructType, ir.ArrayType)):
        n = len(llty.elements) if isinstance(llty, ir.LiteralStructType) else llty.count
        value = ir.Constant(llty, ir.Undefined)
        zero = ir.Constant(ir.IntType(32), 0)
        for i in range(n):
            sub = builder.gep(ptr, [zero, ir.Constant(ir.IntType(32), i)], inbounds=True,
                              source_etype=llty)
            elt = llty.elements[i] if isinstance(llty, ir.LiteralStructType) else llty.element
            value = builder.insert_value(value, _load(builder, elt, sub), i)
        return value
    return builder.load(ptr, typ=llty)


@intrinsic
def store_world(typingctx, world):
    """Copy *world* (ctx, rng) to a stack slot of the caller; its address as an int."""
    def codegen(context, builder, sig, args):
        slot = cgutils.alloca_once(builder, context.get_value_type(sig.args[0]))
        builder.store(args[0], slot)
        return builder.ptrtoint(slot, ir.IntType(64))
    return types.int64(world), codegen


@intrinsic
def load_world(typingctx, address):
    """The (ctx, rng) stored at *address*, borrowed (null reference-count handles).

    The loop that stored them owns nothing either (see :func:`.net.borrow`);
    the constant null handles let LLVM drop every reference count in the hook.
    """
    def codegen(context, builder, sig, args):
        llty = context.get_value_type(WORLD_TYPE)
        value = _load(builder, llty, builder.inttoptr(args[0], llty.as_pointer()))
        for i, t in enumerate(WORLD_TYPE.types):
            item = builder.extract_value(value, i)
            if _borrowable(t):
                item = _unowned(context, builder, t, item)
            else:
                for j, member in enumerate(t.types):
                    if _borrowable(member):
                        item = builder.insert_value(
                            item, _unowned(context, builder, member,
                                           builder.extract_value(item, j)), j)
            value = builder.insert_value(value, item, i)
        return value
    return WORLD_TYPE(types.int64), codegen


@intrinsic
def prefetch_row(typingctx, table, row):
    """Ask the processor to bring the first cache line of ``table[row]`` in, for a later read.

    A hint (LLVM's ``llvm.prefetch``: read, high locality, data cache): no
    value changes, nothing faults (an address past the table is never formed:
    *row* is a valid row of the C-contiguous 2-D *table*).
    """
    if not (isinstance(table, types.Array) and table.ndim == 2 and table.layout == "C"
            and isinstance(row, types.Integer)):
        return None

    def codegen(context, builder, sig, args):
        arr = make_array(sig.args[0])(context, builder, value=args[0])
        ptr = cgutils.get_item_pointer2(context, builder, arr.data,
                                        cgutils.unpack_tuple(builder, arr.shape),
                                        cgutils.unpack_tuple(builder, arr.strides), "C",
                                        [args[1], ir.Constant(args[1].type, 0)])
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0i8")
        builder.call(fn, [builder.bitcast(ptr, i8p), ir.Constant(i32, 0), ir.Constant(i32, 3),
                          ir.Constant(i32, 1)])
        return context.get_dummy_value()
    return types.none(table, row), codegen


def caller(argtypes, restype):
    """An intrinsic ``call(address, *args)`` of a compiled function of that signature."""
    def typer(typingctx, address, *args):
        sig = restype(types.int64, *argtypes)

        def codegen(context, builder, sig, llargs):
            fnty = context.call_conv.get_function_type(restype, argtypes)
            fn = builder.inttoptr(llargs[0], fnty.as_pointer())
            status, result = context.call_conv.call_function(builder, fn, restype, argtypes,
                                                             llargs[1:])
            with cgutils.if_unlikely(builder, status.is_error):
                context.call_conv.return_status_propagate(builder, status)
            return result
        return sig, codegen

    # an intrinsic needs its parameters spelled out (numba packs *args into one tuple)
    names = ", ".join(f"a{i}" for i in range(len(argtypes)))
    namespace = {"typer": typer}
    exec(f"def call(typingctx, address, {names}):\n"
         f"    return typer(typingctx, address, {names})\n", namespace)
    return intrinsic(namespace["call"])
