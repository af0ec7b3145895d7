# scripts/run_notebooks.py - execute notebooks through a Jupyter kernel, headless
"""Execute notebooks top to bottom through a Jupyter kernel (nbclient), as users run them.

Usage::

    python scripts/run_notebooks.py [--timeout S] [--repeat N] [--stock] NOTEBOOK [...]

Each notebook runs in a fresh ``python3`` kernel of the interpreter running this
script (ipykernel), with the notebook's folder as working directory; the first cell
that raises stops that notebook and is named. One line per run: name, wall time,
``ok`` or the error, and the cells after which the client waited more than
:data:`STALL` seconds for a reply the kernel had already sent. The exit status is
1 if any run failed. ``tests/test_notebooks.py`` and ``.ci/run`` use it; so does the
documentation build (``docs/conf.py`` calls :func:`patch_nbclient`).

Why ``interact`` cells stalled headless
--------------------------------------
Executed headless (``jupyter nbconvert --execute``, nbclient, nbmake, myst-nb),
a cell that writes into an ipywidgets ``Output`` widget, as every ``interact`` does
(ipywidgets runs the function inside ``with self.out:``), sometimes left the kernel
idle and the client waiting until the cell's timeout, then went on as if nothing
had happened. The chain, read in the installed sources:

1. nbclient mimics a front end's ``Output`` widget
   (``nbclient.output_widget.OutputWidget``): for each output the kernel routes into
   the widget it sends the widget's new state back to the kernel as a ``comm_msg``,
   ``kernel_client.shell_channel.send(msg)``, from the task that reads IOPub, while
   another task awaits the cell's ``execute_reply`` with ``socket.poll(timeout)`` on
   the same shell socket.
2. ``jupyter_client.Session.send`` sends on a *blocking shadow* of the asyncio
   socket (``zmq.Socket.shadow(stream.underlying)``), past pyzmq's asyncio
   bookkeeping.
3. A ZeroMQ socket signals readiness through an edge-triggered file descriptor,
   and ``zmq_send`` itself processes the socket's pending commands: when the
   ``execute_reply`` arrives around that send, the send consumes the edge, and
   only a fresh read of ``ZMQ_EVENTS`` would reveal the reply. pyzmq's asyncio
   socket does that re-check after its *own* sends (``_add_send_event`` ->
   ``_schedule_remaining_events``), never after the shadow's, so the awaiting
   ``poll`` sleeps until its timer fires; then pyzmq polls once more, finds the
   reply, and execution goes on (no error: the lost time is the only trace). With
   no timeout the client waits for ever.

Measured on this repository's machine (40 cells that each print into an
``Output`` widget, 5-s cell timeout, 60 runs): stock nbclient 0.11 / jupyter_client
8.10 / pyzmq 27.3 waited the full timeout after about one cell in 40; with the
widget's messages sent through the asyncio socket (:func:`patch_nbclient`), after
none of 2400. The upstream reports are jupyter/nbclient#312 and
jupyter/jupyter_client#1059 (open when this was written).

:func:`patch_nbclient` replaces that one method, ``OutputWidget._publish_msg``, by
one that serialises the message with the session and sends it with the asyncio
socket's own ``send_multipart``, so pyzmq re-checks the socket's events after the
send and the reply's wake-up is not lost.
"""

import argparse
import datetime
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

#: A kernel's reply that reached the client this long after the kernel sent it is
#: reported as a stall (the client should need milliseconds). [s]
STALL = 5.0

#: Default per-cell timeout: the packet engine's first numba compile in a fresh
#: environment takes about two CPU-minutes, more on a loaded machine. [s]
TIMEOUT = 900


def _publish_msg(self, msg_type, data=None, metadata=None, buffers=None, **keys):
    """``nbclient.output_widget.OutputWidget._publish_msg`` sending through asyncio."""
    import zmq.asyncio
    from nbclient.jsonutil import json_clean

    data = {} if data is None else data
    metadata = {} if metadata is None else metadata
    content = json_clean(dict(data=data, comm_id=self.comm_id, **keys))
    client = self.kernel_client
    msg = client.session.msg(msg_type, content=content, parent=self.parent_header,
                             metadata=metadata)
    socket = client.shell_channel.socket
    if isinstance(socket, zmq.asyncio.Socket):
        # Sent at once when the socket can take it, else when it becomes writable;
        # either way pyzmq re-reads ZMQ_EVENTS afterwards and wakes a waiting poll.
        socket.send_multipart(client.session.serialize(msg))
    else:  # a blocking client: no asyncio poll to starve
        client.shell_channel.send(msg)


def patch_nbclient():
    """Make nbclient's ``Output``-widget mimic send without starving the shell poll.

    Idempotent; affects every ``nbclient.NotebookClient`` of this process (nbconvert's
    ``ExecutePreprocessor`` and myst-nb's executors included). See the module
    docstring for the cause.

    Returns
    -------
    bool
        True if nbclient is importable and now patched.
    """
    try:
        from nbclient.output_widget import OutputWidget
    except ImportError:
        return False
    OutputWidget._publish_msg = _publish_msg
    return True


@dataclass
class Run:
    """One execution of one notebook."""

    notebook: Path
    seconds: float
    error: str = ""
    #: (index of the cell, seconds between its reply and the next cell's request)
    stalls: list = field(default_factory=list)

    def line(self):
        status = "ok" if not self.error else f"FAILED: {self.error}"
        stalls = (" stalls: " + ", ".join(f"after cell {i} {s:.1f} s" for i, s in self.stalls)
                  if self.stalls else "")
        return f"{self.notebook.name}: {self.seconds:.1f} s {status}{stalls}"


def _stamp(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def _stalls(nb):
    cells = [(i, c.metadata.execution) for i, c in enumerate(nb.cells)
             if c.cell_type == "code" and c.metadata.get("execution")]
    gaps = []
    for (i, a), (_, b) in zip(cells, cells[1:]):
        if "shell.execute_reply" in a and "iopub.execute_input" in b:
            gap = _stamp(b["iopub.execute_input"]) - _stamp(a["shell.execute_reply"])
            if gap > STALL:
                gaps.append((i, gap))
    return gaps


def run_notebook(path, timeout=TIMEOUT, kernel_name="python3", patch=True):
    """Execute one notebook in a fresh kernel; never raises for the notebook's errors.

    Parameters
    ----------
    path : path-like
        The ``.ipynb`` file; its folder is the kernel's working directory.
    timeout : float
        Per-cell limit. [s]
    kernel_name : str
        Jupyter kernel; ``python3`` is this interpreter's ipykernel.
    patch : bool
        Apply :func:`patch_nbclient` first (False only to measure the stock client).

    Returns
    -------
    Run
        Wall time, the error (``""`` if none) and the stalls.
    """
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    if patch:
        patch_nbclient()
    path = Path(path).resolve()
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=timeout, kernel_name=kernel_name,
                            resources={"metadata": {"path": str(path.parent)}})
    started = time.monotonic()
    error = ""
    try:
        client.execute()
    except CellExecutionError as err:
        lines = str(err).strip().splitlines()
        error = lines[-1] if lines else type(err).__name__
        failed = next((i for i, c in enumerate(nb.cells) if c.cell_type == "code" and any(
            o.get("output_type") == "error" for o in c.get("outputs", []))), None)
        if failed is not None:
            error = f"code cell {failed}: {error}"
    except Exception as err:  # timeouts, a dead kernel: reported, not raised
        error = f"{type(err).__name__}: {err}".splitlines()[0]
        started_cells = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"
                         and "iopub.execute_input" in c.metadata.get("execution", {})
                         and "shell.execute_reply" not in c.metadata.get("execution", {})]
        if started_cells:
            error = f"code cell {started_cells[-1]}: {error}"
    return Run(path, time.monotonic() - started, error, _stalls(nb))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="+", type=Path, metavar="NOTEBOOK")
    parser.add_argument("--timeout", type=float, default=TIMEOUT,
                        help="per-cell limit in seconds (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="run each notebook this many times (default: 1)")
    parser.add_argument("--stock", action="store_true",
                        help="leave nbclient unpatched (to measure the stall it fixes)")
    args = parser.parse_args(argv)
    missing = [str(p) for p in args.notebooks if not p.is_file()]
    if missing:
        parser.error(f"no such notebook: {', '.join(missing)}")
    if args.repeat < 1:
        parser.error(f"--repeat must be >= 1, got {args.repeat}")
    failed = stalled = runs = 0
    for path in args.notebooks:
        for _ in range(args.repeat):
            run = run_notebook(path, timeout=args.timeout, patch=not args.stock)
            runs += 1
            failed += bool(run.error)
            stalled += bool(run.stalls)
            print(run.line(), flush=True)
    print(f"{runs} notebook runs, {failed} failing, {stalled} with a stall")
    return 1 if failed else 0


if __name__ == "__main__":
    # The kernels must not inherit a non-interactive backend from the caller: in
    # Jupyter the default (inline) backend is what users get.
    os.environ.pop("MPLBACKEND", None)
    sys.exit(main())
