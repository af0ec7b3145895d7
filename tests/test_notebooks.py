"""Every notebook under notebooks/ runs top to bottom through a Jupyter kernel.

Each notebook runs as users run it: in a fresh ipykernel of this interpreter, driven
by nbclient (``scripts/run_notebooks.py``), with the default inline backend and its
ipywidgets. The notebooks' own assertions are the checks. ``interact`` cells used
to stall headless for a whole cell timeout now and then; the cause (nbclient's
``Output``-widget mimic sending on a blocking shadow of the shell socket, which loses
the ZeroMQ wake-up of the cell's reply) and the fix are in that script's docstring.
The kernel's temporary folder is the test's, so nothing is left in the system's.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
RUNNER = ROOT / "scripts" / "run_notebooks.py"
#: Whole-notebook limit. [s]  The slowest (sweep, primo_tuning) take about a minute on
#: a loaded 2-core machine, plus the packet engine's first compile in a fresh clone.
TIME_LIMIT = 1800

pytest.importorskip("nbclient", reason="needs nbclient (the notebooks or test extra)")
pytest.importorskip("ipykernel", reason="needs ipykernel (the notebooks or test extra)")


def _run(notebook, tmp_path, *extra):
    env = dict(os.environ, TMPDIR=str(tmp_path),
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    env.pop("MPLBACKEND", None)
    return subprocess.run([sys.executable, str(RUNNER), *extra, str(notebook)], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=TIME_LIMIT)


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 6


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(notebook, tmp_path):
    done = _run(notebook, tmp_path)
    assert done.returncode == 0, f"{notebook.name}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    assert f"{notebook.name}: " in done.stdout and " ok" in done.stdout


def test_a_failing_cell_fails_the_run_and_is_named(tmp_path):
    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook

    bad = tmp_path / "bad.ipynb"
    nbformat.write(new_notebook(cells=[new_code_cell("x = 1"), new_code_cell("1 / 0")],
                                metadata={"kernelspec": {"name": "python3", "language": "python",
                                                         "display_name": "Python 3"}}), bad)
    done = _run(bad, tmp_path, "--timeout", "120")
    assert done.returncode == 1
    assert "bad.ipynb" in done.stdout and "code cell 1" in done.stdout
    assert "ZeroDivisionError" in done.stdout


def test_the_patch_replaces_the_shadow_send():
    """The mimic's messages go through the asyncio socket (see the runner's docstring)."""
    import importlib.util

    from nbclient.output_widget import OutputWidget

    spec = importlib.util.spec_from_file_location("run_notebooks", RUNNER)
    runner = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(runner)
    original = OutputWidget._publish_msg
    try:
        assert runner.patch_nbclient() is True
        assert OutputWidget._publish_msg is runner._publish_msg
        sent = []

        class Socket:  # stands in for zmq.asyncio.Socket
            def send_multipart(self, frames):
                sent.append(frames)

        class Session:
            def msg(self, msg_type, content, parent, metadata):
                return {"msg_type": msg_type, "content": content}

            def serialize(self, msg):
                return [b"frame", repr(msg).encode()]

        class Channel:
            socket = Socket()

            def send(self, msg):  # the blocking shadow path: must not be taken
                raise AssertionError("sent through Session.send")

        class Client:
            session = Session()
            shell_channel = Channel()

        import zmq.asyncio

        widget = OutputWidget.__new__(OutputWidget)
        widget.comm_id, widget.kernel_client, widget.parent_header = "c1", Client(), {}
        zmq_socket_class = zmq.asyncio.Socket
        try:
            zmq.asyncio.Socket = Socket  # isinstance() check of the patch
            widget.send({"method": "update", "state": {"outputs": []}})
        finally:
            zmq.asyncio.Socket = zmq_socket_class
        assert len(sent) == 1 and b"comm_msg" in sent[0][1] and b"c1" in sent[0][1]
    finally:
        OutputWidget._publish_msg = original
