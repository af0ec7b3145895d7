# ctlcc.sweep - parameter sweeps: local processes by default, a Dask cluster when given
"""Parameter sweeps over simulations, fluid runs, analyses, bounds and cross-checks.

A sweep is a :class:`Spec` - the *kind* of thing run at each point (see
:data:`KINDS`), fixed parameters, a grid (product of named axes) or an
explicit list of points, seeds, and the metrics to keep - written in a
small TOML file (``examples/sweeps/``) or built in Python.  :func:`run`
evaluates it on local processes, on a ``dask.distributed`` cluster or on a
``LocalCluster``, streams each finished row to disk, skips rows already
there when rerun, and returns a tidy table: one row per point and seed
with the axes, the seed, the metrics, the wall time and the status.

Command line: ``ctlcc sweep SPEC.toml --out results.parquet``.

Kinds and their metrics are registries: :func:`register_kind` and
:func:`register_metric` add new ones (a kind used on a Dask cluster must
be importable by the workers, e.g. registered in a module they import).
"""

from ._kinds import KINDS, Kind, Metric, get_kind, register_kind, register_metric
from ._run import SchedulerError, SweepInterrupted, SweepResult, evaluate_batch, run
from ._spec import Row, Spec, load_spec
from ._store import SpecMismatchError, read_results

__all__ = [
    "Spec",
    "Row",
    "load_spec",
    "run",
    "SweepResult",
    "SweepInterrupted",
    "SchedulerError",
    "SpecMismatchError",
    "read_results",
    "KINDS",
    "Kind",
    "Metric",
    "get_kind",
    "register_kind",
    "register_metric",
    "evaluate_batch",
]
