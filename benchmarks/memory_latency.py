# benchmarks/memory_latency.py - load-to-use latency against the working set (pointer chase)
"""How long one dependent load takes, against the size of the memory it wanders over.

Why: the packet engine's cost per packet at 1000 flows is set by how many
of the rows it touches per packet come from the first-level cache, from the
second and third level, or from memory (``callgrind_scaling.py`` counts the
misses; this measures what each kind costs on the machine at hand).  The
caches a process can use on a shared virtual machine are not the data
sheet's: on the 2-core EPYC these benchmarks ran on, a chase over 2 MB
costs about 20 ns a load and one over 3 MB about 180 ns (memory), so the
last level that counts is about 2 MB, not the processor's 32 MB of L3.

Method: one pointer per 64-byte line of a table of the given size, linked in
a random cyclic order (a permutation drawn from a fixed seed), followed for
``--steps`` loads by a compiled loop; each load depends on the one before,
so the time per step is the latency (no overlap), the least of ``--repeats``
passes.  ``--huge`` also runs each size on 2 MB pages (``madvise``), which
separates the page walks (TLB misses) from the cache misses.

Usage::

    python benchmarks/memory_latency.py [--sizes 16,256,1024,2048,3072,4096,16384,65536]
        [--steps 1000000] [--repeats 5] [--huge]
"""

import argparse
import mmap
import time

import numba
import numpy as np

HUGE = 2 << 20
LINE = 64


@numba.njit(cache=True)
def chase(nxt, steps):
    """Follow the links for *steps* loads; return where it ended (so the loop is kept)."""
    i = 0
    for _ in range(steps):
        i = nxt[i]
    return i


def table(nbytes, huge=False, keep=None):
    """An int64 table of *nbytes* whose lines are linked in one random cycle."""
    nlines = nbytes // LINE
    words = nlines * LINE // 8
    if huge:
        m = mmap.mmap(-1, nlines * LINE + HUGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        m.madvise(mmap.MADV_HUGEPAGE)
        keep.append(m)   # the mapping must outlive the array that views it
        raw = np.frombuffer(m, dtype=np.uint8)
        off = (-raw.ctypes.data) % HUGE
        nxt = raw[off:off + nlines * LINE].view(np.int64)
    else:
        nxt = np.zeros(words, dtype=np.int64)
    order = np.random.default_rng(0).permutation(nlines)
    step = LINE // 8
    nxt[order * step] = np.roll(order, -1) * step
    return nxt


def latency(nbytes, steps, repeats, huge=False):
    """Least ns per dependent load over *repeats* passes of *steps* loads."""
    keep = []
    nxt = table(nbytes, huge, keep)
    chase(nxt, min(steps, 4 * nbytes // LINE))   # touch every line once (page faults)
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        chase(nxt, steps)
        best = min(best, time.perf_counter() - t0)
    return best / steps * 1e9


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="16,256,1024,2048,3072,4096,16384,65536",
                    help="working sets in kB, comma-separated")
    ap.add_argument("--steps", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--huge", action="store_true", help="also on 2 MB pages")
    args = ap.parse_args(argv)
    sizes = [int(x) for x in args.sizes.split(",")]
    if any(s < 4 for s in sizes):
        ap.error(f"--sizes: each at least 4 kB, got {args.sizes}")
    chase(table(4096), 10)   # compile
    print(f"{'kB':>8}  {'ns/load':>9}" + (f"  {'2 MB pages':>10}" if args.huge else ""))
    for kb in sizes:
        row = f"{kb:>8}  {latency(kb * 1024, args.steps, args.repeats):>9.1f}"
        if args.huge:
            row += f"  {latency(kb * 1024, args.steps, args.repeats, huge=True):>10.1f}"
        print(row, flush=True)


if __name__ == "__main__":
    main()
