# ctlcc.sweep._run - evaluate a spec's rows on local processes or a Dask cluster
"""The sweep driver: batches rows, ships them to workers, streams results.

Rows go to workers in batches whose size adapts to the measured time per
row (about ``batch_seconds`` of work each, one row at a time until the
first results come back), with at most ``2 x workers`` batches in flight,
so the driver's memory does not grow with the sweep and a crash loses at
most the batches in flight.  A row's seed depends only on the spec and the
row (see :class:`~ctlcc.sweep.Spec`), so the table is the same whatever
the backend, the number of workers or the batching.
"""

import math
import multiprocessing
import os
import queue
import signal
import sys
import time
from dataclasses import dataclass

from .._validation import (check_bool, check_choice, check_interval, check_positive,
                           check_workers)
from ..errors import CtlccError, ParameterError
from ._kinds import KINDS, Kind, _mapping_metric, get_kind
from ._spec import load_spec
from ._store import Store, axis_value, schema

__all__ = ["SweepResult", "SweepInterrupted", "SchedulerError", "run"]

#: Longest error text kept per failed row. [characters]
ERROR_CHARS = 2000


@dataclass(frozen=True)
class SweepResult:
    """What :func:`run` returns.

    Attributes
    ----------
    table : pyarrow.Table
        One row per (point, seed), sorted by point then replicate: ``key``,
        ``point``, ``replicate``, ``seed``, the axes, the metrics,
        ``status`` ("done" or "failed"), ``error`` (empty when done) and
        ``wall_time`` [s] of the row's evaluation.
    path : pathlib.Path or None
        The output file.
    spec_hash : str
    done : int
        Rows evaluated successfully by this call. [1]
    failed : int
        Rows evaluated by this call that raised. [1]
    skipped : int
        Rows already in the output, not evaluated again. [1]
    failed_total : int
        Failed rows in the table (this call's and kept earlier ones). [1]
    seconds : float
        Wall time of the call. [s]
    workers : int
        Worker processes used. [1]
    backend : str
        "inline", "processes" or "dask".
    """

    table: object
    path: object
    spec_hash: str
    done: int
    failed: int
    skipped: int
    failed_total: int
    seconds: float
    workers: int
    backend: str

    def column(self, name):
        """One column as a numpy array (lists of floats for list metrics)."""
        import numpy as np
        names = self.table.column_names
        if not isinstance(name, str) or name not in names:
            raise ParameterError(f"name must be a column of the table, one of "
                                 f"{', '.join(map(repr, names))}; got {name!r}")
        values = self.table.column(name).to_pylist()
        try:
            return np.array(values, dtype=float if values and isinstance(values[0], float)
                            else None)
        except (TypeError, ValueError):
            return np.array(values, dtype=object)

    def rows(self):
        """The table as a list of dicts."""
        return self.table.to_pylist()

    def summary(self):
        """One line: done, skipped and failed rows, time, output."""
        where = f" -> {self.path}" if self.path is not None else ""
        kept = self.failed_total - self.failed
        extra = f" ({kept} failed rows kept from an earlier run)" if kept else ""
        return (f"{self.table.num_rows} rows: {self.done} done, {self.skipped} skipped, "
                f"{self.failed} failed{extra}; {self.seconds:.1f} s on {self.workers} "
                f"{self.backend} worker(s){where}")


class SweepInterrupted(KeyboardInterrupt):
    """Ctrl-C during a sweep; the finished rows were written (``.result``)."""

    def __init__(self, result):
        super().__init__(f"sweep interrupted: {result.summary()}; rerun to resume")
        self.result = result


class SchedulerError(CtlccError, ConnectionError):
    """The Dask scheduler could not be reached."""


#: Longest work of one batch a worker receives [s]: a batch is where an interrupted
#: sweep resumes, so a day is already far beyond a useful one. [s]
MAX_BATCH_SECONDS = 86400.0


def run(spec, out=None, client=None, *, jobs=None, local_cluster=None, progress=None,
        retry_failed=False, overwrite=False, connect_timeout=10.0, batch_seconds=None):
    """Run a parameter sweep and return its table.

    Parameters
    ----------
    spec : Spec, dict or path
        The sweep (a :class:`~ctlcc.sweep.Spec`, its dict form or a TOML
        file).
    out : str or Path, optional
        ``*.parquet`` or ``*.csv``.  Rows already there (from an earlier,
        possibly killed, run of the same spec) are skipped.  None: keep the
        table in memory only.
    client : dask.distributed.Client or str, optional
        A Dask client, or a scheduler address ``"tcp://host:port"``, to run
        on a cluster.  Default: local processes.
    jobs : int, optional
        Local worker processes, >= 1 (default: the number of cores; 1 runs
        in this process).  Ignored with *client* or *local_cluster*.
    local_cluster : int, optional
        Start a ``dask.distributed.LocalCluster`` of this many one-thread
        worker processes for the sweep.
    progress : bool, optional
        Show a tqdm bar with an ETA (default: when stderr is a terminal).
    retry_failed : bool, optional
        Evaluate again the rows stored as failed.
    overwrite : bool, optional
        Discard an existing output (even of another spec) first.
    connect_timeout : float, optional
        Give up on an unreachable scheduler after this long. [s]
    batch_seconds : float, optional
        Work per batch the batching aims at (default 0.2 s locally, 1 s on
        Dask). [s]

    Returns
    -------
    SweepResult

    Raises
    ------
    ParameterError
        Bad spec or arguments (before anything runs).
    SpecMismatchError
        *out* holds results of a different spec.
    SchedulerError
        The scheduler did not answer within *connect_timeout*.
    SweepInterrupted
        Ctrl-C; the rows finished so far are in *out*.

    Examples
    --------
    >>> from ctlcc.sweep import Spec, run
    >>> spec = Spec("analysis", ["spectral_radius", "stable"],
    ...             fixed={"loop": "stpd", "m": 1, "model": "per_rtt", "kd": 0.033},
    ...             grid={"kp": [0.368, 2.5]})
    >>> result = run(spec, jobs=1, progress=False)
    >>> [(r["kp"], round(r["spectral_radius"], 4), r["stable"]) for r in result.rows()]
    [(0.368, 0.6498, True), (2.5, 1.5542, False)]

    The per-round-trip loop is ``z^2 - (1 - kp - kd) z - kd``: for
    (0.368, 0.033) its roots are ``(0.599 +- sqrt(0.599^2 + 0.132)) / 2``,
    0.6498 and -0.0508; for kp = 2.5, ``(-1.533 - sqrt(1.533^2 + 0.132)) / 2``
    = -1.5542 lies outside the unit circle.
    """
    started = time.perf_counter()
    if jobs is not None:
        jobs = _check_count("jobs", jobs)
    if local_cluster is not None:
        local_cluster = _check_count("local_cluster", local_cluster)
    connect_timeout = float(check_positive("connect_timeout", connect_timeout, scalar=True))
    if batch_seconds is not None:
        batch_seconds = float(check_interval("batch_seconds", batch_seconds, 0.0, MAX_BATCH_SECONDS,
                                             closed="right", scalar=True))
    if progress is not None:
        check_bool("progress", progress)
    check_bool("retry_failed", retry_failed)
    check_bool("overwrite", overwrite)
    spec = load_spec(spec)
    kind = get_kind(spec.kind)
    table_schema = schema(spec, kind)
    store = Store(out, table_schema)

    executor = _executor(client, local_cluster, jobs, connect_timeout)
    try:
        if overwrite:
            store.remove()
        existing = store.existing()
        if retry_failed:
            existing = {k: s for k, s in existing.items() if s != "failed"}
        todo = spec.size - len(existing)
        counts = {"done": 0, "failed": 0}
        interrupted = False
        try:
            _drive(spec, kind, store, executor, existing, todo, counts, progress,
                   batch_seconds or executor.batch_seconds)
        except KeyboardInterrupt:
            interrupted = True
    finally:
        executor.close()
    table = store.finish()
    failed_total = table.column("status").to_pylist().count("failed")
    result = SweepResult(table, store.out, spec.hash, counts["done"], counts["failed"],
                         len(existing), failed_total, time.perf_counter() - started,
                         executor.workers, executor.name)
    if interrupted:
        raise SweepInterrupted(result)
    return result


# --------------------------------------------------------------------------- worker side
def evaluate_batch(kind, metrics, items):
    """Evaluate rows on a worker: ``[(key, params, seed)] -> [(key, values, error, wall)]``."""
    if not isinstance(kind, Kind):
        check_choice("kind", kind, tuple(KINDS))
        kind = get_kind(kind)
    if isinstance(metrics, (str, bytes, dict)) or not hasattr(metrics, "__iter__"):
        raise ParameterError(f"metrics must be a list of metric names, got {metrics!r:.100}")
    metrics = list(metrics)
    if not metrics or len(set(map(repr, metrics))) != len(metrics) or any(
            not isinstance(m, str) or not (kind.open_metrics or m in kind.metrics)
            for m in metrics):
        raise ParameterError(
            f"metrics must be distinct names of kind {kind.name!r}'s metrics "
            f"({', '.join(map(repr, kind.metrics)) or 'any name'}), at least one; got "
            f"{metrics!r:.200}")
    readers = [_mapping_metric(m) if kind.open_metrics else kind.metrics[m] for m in metrics]
    if isinstance(items, (str, bytes, dict)) or not hasattr(items, "__iter__"):
        raise ParameterError(f"items must be a list of (key, params, seed), got {items!r:.100}")
    items = list(items)
    for i, item in enumerate(items):
        if not (isinstance(item, (tuple, list)) and len(item) == 3 and isinstance(item[1], dict)):
            raise ParameterError(f"items[{i}] must be a (key, params dict, seed) triple, got "
                                 f"{item!r:.100}")
    out = []
    for key, params, seed in items:
        start = time.perf_counter()
        try:
            outcome = kind.evaluate(params, seed)
            values = [_plain(m.function(outcome, params)) for m in readers]
            error = ""
        except Exception as err:                      # recorded, the sweep goes on
            values = None
            error = f"{type(err).__name__}: {err}"[:ERROR_CHARS]
        out.append((key, values, error, time.perf_counter() - start))
    return out


def _plain(value):
    """numpy scalars and arrays -> Python numbers and lists."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return [float(v) for v in value]
    return value


# --------------------------------------------------------------------------- driver
def _drive(spec, kind, store, executor, existing, todo, counts, progress, batch_seconds):
    from tqdm.auto import tqdm

    if progress is None:
        progress = sys.stderr.isatty()
    rows = (r for r in spec.rows() if r.key not in existing)
    kind_ref = kind.name if executor.by_name else kind
    in_flight = {}                              # batch id -> list of Row
    per_row = None                              # EWMA of a row's wall time [s]
    left = todo
    next_id = 0
    exhausted = False
    bar = tqdm(total=todo, disable=not progress, unit="row", desc=spec.name or spec.kind,
               dynamic_ncols=True)
    try:
        while True:
            while not exhausted and len(in_flight) < 2 * executor.workers:
                if per_row is None:
                    size = 1
                else:
                    size = max(1, min(int(batch_seconds / max(per_row, 1e-9)), 10_000,
                                      math.ceil(left / (2 * executor.workers))))
                batch = _take(rows, size)
                if not batch:
                    exhausted = True
                    break
                left -= len(batch)
                items = [(r.key, spec.params(r), r.seed) for r in batch]
                executor.submit(next_id, kind_ref, spec.metrics, items)
                in_flight[next_id] = batch
                next_id += 1
            if not in_flight:
                break
            batch_id, outcome = executor.next_result()
            batch = in_flight.pop(batch_id)
            if isinstance(outcome, BaseException):       # the batch itself died
                error = f"{type(outcome).__name__}: {outcome}"[:ERROR_CHARS]
                outcome = [(r.key, None, error, math.nan) for r in batch]
            records = []
            for row, (key, values, error, wall) in zip(batch, outcome):
                record = {"key": key, "point": row.point, "replicate": row.replicate,
                          "seed": row.seed, "status": "failed" if error else "done",
                          "error": error, "wall_time": wall}
                record.update((k, axis_value(v)) for k, v in row.axes.items())
                if values is not None:
                    record.update(zip(spec.metrics, values))
                records.append(record)
                counts["failed" if error else "done"] += 1
            store.append(records)
            walls = [r["wall_time"] for r in records if r["wall_time"] == r["wall_time"]]
            if walls:
                mean = sum(walls) / len(walls)
                per_row = mean if per_row is None else 0.7 * per_row + 0.3 * mean
            bar.update(len(records))
            if counts["failed"]:
                bar.set_postfix(failed=counts["failed"], refresh=False)
    finally:
        bar.close()


def _take(iterator, n):
    out = []
    for item in iterator:
        out.append(item)
        if len(out) == n:
            break
    return out


def _check_count(name, value):
    return check_workers(name, value)


# --------------------------------------------------------------------------- executors
def _executor(client, local_cluster, jobs, connect_timeout):
    if client is not None and local_cluster is not None:
        raise ParameterError(f"pass either client (a scheduler) or local_cluster, not both; got "
                             f"client={client!r}, local_cluster={local_cluster!r}")
    if client is not None or local_cluster is not None:
        return _DaskExecutor(client, local_cluster, connect_timeout)
    jobs = jobs or os.cpu_count() or 1
    return _InlineExecutor() if jobs == 1 else _PoolExecutor(jobs)


class _InlineExecutor:
    """Evaluate in this process (``jobs=1``): simplest to debug."""

    name, workers, by_name, batch_seconds = "inline", 1, True, 0.2

    def __init__(self):
        self._pending = []

    def submit(self, batch_id, kind, metrics, items):
        self._pending.append((batch_id, kind, metrics, items))

    def next_result(self):
        batch_id, kind, metrics, items = self._pending.pop(0)
        return batch_id, evaluate_batch(kind, metrics, items)

    def close(self):
        self._pending.clear()


def _worker_signals():
    """Ctrl-C is the driver's business; terminate() must just end the worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class _PoolExecutor:
    """A multiprocessing pool (fork where available) of *jobs* processes."""

    name, by_name, batch_seconds = "processes", True, 0.2

    def __init__(self, jobs):
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        self.workers = jobs
        self._pool = multiprocessing.get_context(method).Pool(jobs, initializer=_worker_signals)
        self._results = queue.Queue()

    def submit(self, batch_id, kind, metrics, items):
        self._pool.apply_async(
            evaluate_batch, (kind, metrics, items),
            callback=lambda rows: self._results.put((batch_id, rows)),
            error_callback=lambda err: self._results.put((batch_id, err)))

    def next_result(self):
        while True:                         # short waits keep Ctrl-C responsive
            try:
                return self._results.get(timeout=0.2)
            except queue.Empty:
                continue

    def close(self):
        self._pool.terminate()
        self._pool.join()


class _DaskExecutor:
    """A Dask distributed client: given, at an address, or a new LocalCluster."""

    name, by_name, batch_seconds = "dask", False, 1.0

    def __init__(self, client, local_cluster, connect_timeout):
        try:
            import distributed
        except ImportError as err:                  # pragma: no cover
            raise ImportError("a Dask cluster needs dask.distributed: "
                              "pip install 'ctlcc[sweep]'") from err
        self._own_client = client is None or isinstance(client, str)
        self._cluster = None
        if local_cluster is not None:
            import logging
            self._cluster = distributed.LocalCluster(
                n_workers=local_cluster, threads_per_worker=1, processes=True,
                dashboard_address=":0", silence_logs=logging.CRITICAL)
            client = distributed.Client(self._cluster)
        elif isinstance(client, str):
            client = _connect(distributed, client, connect_timeout)
        elif not isinstance(client, distributed.Client):
            raise ParameterError(f"client must be a dask.distributed.Client or a scheduler "
                                 f"address 'tcp://host:port', got {client!r}")
        self._client = client
        threads = client.nthreads()
        if not threads:
            try:
                client.wait_for_workers(1, timeout=connect_timeout)
            except TimeoutError as err:
                self.close()
                raise SchedulerError(f"scheduler {client.scheduler.address} has no workers "
                                     f"after {connect_timeout:g} s") from err
            threads = client.nthreads()
        self.workers = max(1, sum(threads.values()))
        self._results = queue.Queue()
        self._futures = {}

    def submit(self, batch_id, kind, metrics, items):
        future = self._client.submit(evaluate_batch, kind, metrics, items, pure=False)
        self._futures[batch_id] = future
        future.add_done_callback(lambda f: self._results.put(batch_id))

    def next_result(self):
        while True:
            try:
                batch_id = self._results.get(timeout=0.2)
                break
            except queue.Empty:
                continue
        future = self._futures.pop(batch_id)
        try:
            return batch_id, future.result()
        except Exception as err:                          # worker died, lost, ...
            return batch_id, err

    def close(self):
        if self._futures:
            self._client.cancel(list(self._futures.values()))
            self._futures.clear()
        if self._own_client:
            self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def _connect(distributed, address, timeout):
    if not address.startswith(("tcp://", "tls://", "inproc://", "ucx://", "ws://", "wss://")) \
            or ":" not in address.split("://", 1)[1]:
        raise ParameterError(f"client: scheduler must be an address like 'tcp://host:8786', "
                             f"got {address!r}")
    try:
        return distributed.Client(address, timeout=f"{timeout}s")
    except (OSError, TimeoutError) as err:
        raise SchedulerError(f"cannot reach the Dask scheduler at {address!r} within "
                             f"{timeout:g} s ({type(err).__name__}: {err})") from None
