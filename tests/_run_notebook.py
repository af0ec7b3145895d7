"""Run one notebook's code cells in this process through IPython (used by test_notebooks.py).

Usage: ``python tests/_run_notebook.py NOTEBOOK``.  Each code cell goes through
``InteractiveShell.run_cell`` (magics and ``display`` work as in Jupyter; ipywidgets'
``interact`` draws once with its defaults, as in any headless run); the first cell
that raises stops the run with exit status 1 and names the cell.
"""

import json
import sys
from pathlib import Path


def main(path):
    import matplotlib

    matplotlib.use("Agg")
    from IPython.core.interactiveshell import InteractiveShell

    notebook = json.loads(Path(path).read_text(encoding="utf-8"))
    shell = InteractiveShell.instance()
    for index, cell in enumerate(notebook["cells"]):
        if cell.get("cell_type") != "code":
            continue
        source = "".join(cell.get("source", ""))
        result = shell.run_cell(source, store_history=False)
        if not result.success:
            error = result.error_in_exec or result.error_before_exec
            print(f"{path}: code cell {index} failed: {type(error).__name__}: {error}",
                  file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
