"""The README's short examples run as they stand, so they cannot drift from the code.

Each ``python`` block of the README's "Six uses" section runs in a fresh interpreter
in a temporary folder (the sweep example writes its results there).
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SECTION = "## Six uses, ten lines each"


def _examples():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    return re.findall(r"```python\n(.*?)```", text[start:end], flags=re.S)


EXAMPLES = _examples()
NAMES = ("gain tuning", "a loop", "a bound", "a packet run", "your own law", "a sweep")


def test_one_example_per_use_each_about_ten_lines():
    assert len(EXAMPLES) == len(NAMES)
    for code in EXAMPLES:
        assert len(code.strip().splitlines()) <= 10, code


@pytest.mark.parametrize("code", EXAMPLES, ids=NAMES[:len(EXAMPLES)])
def test_example_runs(code, tmp_path):
    env = dict(os.environ, MPLBACKEND="Agg", TMPDIR=str(tmp_path),
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"{code}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    assert done.stdout.strip(), "the example prints its result"
