"""Every notebook under notebooks/ runs top to bottom without an error.

Each notebook runs in a fresh interpreter (tests/_run_notebook.py: its code cells
through IPython's InteractiveShell, Agg backend), not through a Jupyter kernel: on
these machines nbmake's kernel start intermittently hung with kernel and client both
idle (seen with ipykernel 7 and again with 6.31), which no per-cell timeout cures.
The notebooks' own assertions are the checks; a time limit turns a hang into a failure.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
#: Wall-clock limit per notebook. [s]  The slowest (sweep, primo_tuning) take about a
#: minute on a loaded 2-core machine; a hang would otherwise stop the suite.
TIME_LIMIT = 900


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 6


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(notebook, tmp_path):
    env = dict(os.environ, MPLBACKEND="Agg",
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "_run_notebook.py"), str(notebook)],
                          cwd=notebook.parent, env=env, capture_output=True, text=True,
                          timeout=TIME_LIMIT)
    assert done.returncode == 0, f"{notebook.name}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
