# ctlcc.sweep._store - results on disk: an append-only journal, then one Parquet or CSV file
"""Where a sweep's rows go as they finish, and how a rerun finds them.

While a sweep runs, every finished row is appended to a journal next to
the output (``OUT.journal``, JSON lines, flushed after every batch), so a
crash or a SIGKILL loses only the rows in flight; a torn last line is
ignored.  When the sweep ends (or is interrupted with Ctrl-C) the journal
and the rows already in ``OUT`` are merged - one row per key, the newest
wins - sorted by (point, replicate) and written atomically (temporary file,
then rename) to ``OUT``: Parquet with the spec's hash and canonical form in
the schema metadata, or CSV with a ``OUT.meta.json`` sidecar holding them.
A rerun reads the keys of both and skips those rows; a different spec hash
is an error, never a silent mix.
"""

import json
import os
import tempfile
from pathlib import Path

from ..errors import ParameterError

__all__ = ["Store", "SpecMismatchError", "read_results"]

_FORMATS = {".parquet": "parquet", ".csv": "csv"}
_META_HASH = b"ctlcc.sweep.spec_hash"
_META_SPEC = b"ctlcc.sweep.spec"
#: Journal rows turned into one Arrow table at a time when consolidating. [rows]
_CHUNK_ROWS = 50_000


class SpecMismatchError(ParameterError):
    """The output holds rows of a different spec (its hash differs)."""


def _pa():
    try:
        import pyarrow
    except ImportError as err:                     # pragma: no cover
        raise ImportError("ctlcc.sweep needs pyarrow (a dependency of ctlcc that is "
                          "missing here): pip install 'pyarrow>=14'") from err
    return pyarrow


def schema(spec, kind):
    """The results table's pyarrow schema for *spec* (axes, metrics, bookkeeping)."""
    pa = _pa()
    columns = [("key", pa.string()), ("point", pa.int64()), ("replicate", pa.int64()),
               ("seed", pa.int64())]
    for name in spec.axes:
        columns.append((name, _axis_type(pa, spec, name)))
    for name in spec.metrics:
        dtype = "float" if kind.open_metrics else kind.metrics[name].dtype
        columns.append((name, {"float": pa.float64(), "int": pa.int64(), "bool": pa.bool_(),
                               "list": pa.list_(pa.float64())}[dtype]))
    columns += [("status", pa.string()), ("error", pa.string()), ("wall_time", pa.float64())]
    names = [c[0] for c in columns]
    clash = sorted({n for n in names if names.count(n) > 1})
    if clash:
        raise ParameterError(f"axis or metric name(s) {clash} clash with another column; "
                             f"reserved: key, point, replicate, seed, status, error, wall_time")
    return pa.schema(columns, metadata={_META_HASH: spec.hash.encode(),
                                        _META_SPEC: json.dumps(spec.canonical()).encode()})


def axis_value(value):
    """An axis value as stored: lists become JSON text."""
    return json.dumps(value) if isinstance(value, (list, tuple)) else value


def _check_writable(out):
    """Refuse an output file that cannot be written, before anything runs."""
    shown = str(out)
    if out.is_dir():
        raise ParameterError(f"out must be a file, not a folder; got {shown!r}")
    folder = out.parent
    if not folder.is_dir():
        raise ParameterError(f"out must be in an existing folder ({str(folder)!r} is not one); "
                             f"got {shown!r}")
    try:   # os.access says yes to root on read-only or virtual file systems: try it
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as err:
        raise ParameterError(f"out must be in a folder where files can be written "
                             f"({err.strerror or err}); got {shown!r}") from None
    if out.exists() and not os.access(out, os.W_OK):
        raise ParameterError(f"out exists and cannot be written; got {shown!r}")


class Store:
    """The output file of a sweep and its journal (see the module docstring).

    Parameters
    ----------
    out : str or Path or None
        ``*.parquet`` or ``*.csv``; None keeps the rows in memory only.
    schema : pyarrow.Schema
        From :func:`schema` (carries the spec hash).
    """

    def __init__(self, out, schema):
        self.schema = schema
        self.spec_hash = schema.metadata[_META_HASH].decode()
        if out is not None and (not isinstance(out, (str, os.PathLike)) or not str(out)):
            raise ParameterError(f"out must be a file name (str or Path) ending in "
                                 f"{' or '.join(_FORMATS)}, or None; got {type(out).__name__} "
                                 f"{out!r}")
        self.out = None if out is None else Path(out)
        self.memory = []
        self._handle = None
        if self.out is not None:
            self.format = _FORMATS.get(self.out.suffix.lower())
            if self.format is None:
                raise ParameterError(f"out must end in {' or '.join(_FORMATS)}, "
                                     f"got {str(self.out)!r}")
            _check_writable(self.out)
            self.journal = self.out.with_name(self.out.name + ".journal")
            self.meta = self.out.with_name(self.out.name + ".meta.json")

    # ------------------------------------------------------------------ reading
    def existing(self):
        """Key -> status of the rows already stored (output and journal)."""
        status = {}
        if self.out is None:
            return status
        table = self._read_out()
        if table is not None:
            status.update(zip(table.column("key").to_pylist(),
                              table.column("status").to_pylist()))
        for row in self._read_journal():
            status[row["key"]] = row["status"]
        return status

    def remove(self):
        """Delete the output, its journal and sidecar (``overwrite=True``)."""
        if self.out is None:
            return
        for path in (self.out, self.journal, self.meta):
            if path.exists():
                path.unlink()

    # ------------------------------------------------------------------ writing
    def append(self, rows):
        """Append finished rows to the journal and flush it."""
        if self.out is None:
            self.memory.extend(rows)
            return
        if self._handle is None:
            fresh = not self._journal_has_header()
            self._handle = open(self.journal, "w" if fresh else "a", encoding="utf-8")
            if fresh:
                self._handle.write(json.dumps({"ctlcc_sweep_journal": 1,
                                               "spec_hash": self.spec_hash}) + "\n")
            else:
                self._handle.write("\n")          # end a line torn by an earlier kill
        self._handle.write("".join(json.dumps(r, allow_nan=True) + "\n" for r in rows))
        self._handle.flush()

    def finish(self):
        """Merge journal and output into the output; return the full table."""
        pa = _pa()
        if self._handle is not None:
            self._handle.close()
            self._handle = None
        if self.out is None:
            return _sorted(self._table(self.memory))
        parts = []
        table = self._read_out()
        if table is not None:
            parts.append(table)
        chunk = []
        for row in self._read_journal():        # in chunks: Python dicts cost ~1 kB a row
            chunk.append(row)
            if len(chunk) == _CHUNK_ROWS:
                parts.append(self._table(chunk))
                chunk = []
        if chunk:
            parts.append(self._table(chunk))
        table = _sorted(_deduplicate(pa.concat_tables(parts))) if parts else \
            self._table([])
        self._write(table)
        if self.journal.exists():
            self.journal.unlink()
        return table

    # ------------------------------------------------------------------ private
    def _table(self, rows):
        pa = _pa()
        schema = self.schema
        columns = {name: [r.get(name) for r in rows] for name in schema.names}
        return pa.Table.from_pydict(columns, schema=schema)

    def _read_out(self):
        if not self.out.exists():
            return None
        pa = _pa()
        if self.format == "parquet":
            import pyarrow.parquet as pq
            try:
                table = pq.read_table(self.out)
            except pa.ArrowInvalid as err:
                raise ParameterError(f"out {str(self.out)!r} exists but is not a Parquet "
                                     f"file ({err}); pass a new path or overwrite=True; "
                                     f"got {str(self.out)!r}") from err
            stored = (table.schema.metadata or {}).get(_META_HASH, b"").decode()
        else:
            stored = ""
            if self.meta.exists():
                stored = json.loads(self.meta.read_text()).get("spec_hash", "")
        if stored != self.spec_hash:
            raise SpecMismatchError(
                f"out {str(self.out)!r} holds results of a different spec (hash "
                f"{stored[:12] or 'missing'} != {self.spec_hash[:12]}); write to a new path or "
                f"pass overwrite=True (--overwrite) to replace it")
        if self.format == "csv":
            table = self._read_csv()
        return table.select(self.schema.names).cast(self.schema)

    def _read_csv(self):
        pa = _pa()
        import pyarrow.csv as pacsv
        types = {f.name: (pa.string() if pa.types.is_list(f.type) else f.type)
                 for f in self.schema}
        table = pacsv.read_csv(self.out, convert_options=pacsv.ConvertOptions(
            column_types=types, strings_can_be_null=False,
            null_values=[""], quoted_strings_can_be_null=False))
        for i, f in enumerate(self.schema):
            column = table.column(f.name)
            if pa.types.is_list(f.type):
                values = [None if v is None else json.loads(v) for v in column.to_pylist()]
                table = table.set_column(table.schema.get_field_index(f.name), f.name,
                                         pa.array(values, type=f.type))
            elif pa.types.is_string(f.type):
                values = ["" if v is None else v for v in column.to_pylist()] \
                    if f.name == "error" else column.to_pylist()
                table = table.set_column(table.schema.get_field_index(f.name), f.name,
                                         pa.array(values, type=f.type))
        return table

    def _journal_has_header(self):
        if not self.journal.exists():
            return False
        with open(self.journal, encoding="utf-8") as handle:
            first = handle.readline()
        try:
            return json.loads(first).get("spec_hash") == self.spec_hash
        except (json.JSONDecodeError, AttributeError):
            return False

    def _read_journal(self):
        if self.out is None or not self.journal.exists():
            return
        with open(self.journal, encoding="utf-8") as handle:
            lines = handle.read().split("\n")
        if not lines or not lines[0].strip():
            return
        try:
            header = json.loads(lines[0])
        except json.JSONDecodeError:
            if not any(line.strip() for line in lines[1:]):
                return                              # killed while writing the header
            header = {}
        if header.get("spec_hash") != self.spec_hash:
            raise SpecMismatchError(
                f"journal {str(self.journal)!r} holds rows of a different spec (hash "
                f"{str(header.get('spec_hash'))[:12]} != {self.spec_hash[:12]}); pass "
                f"overwrite=True (--overwrite) to discard it")
        for line in lines[1:]:
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                # only a kill mid-write leaves a line that does not parse (the writer
                # emits whole lines); its row is simply run again
                continue
            yield row

    def _write(self, table):
        pa = _pa()
        tmp = self.out.with_name(self.out.name + ".tmp")
        if self.format == "parquet":
            import pyarrow.parquet as pq
            pq.write_table(table, tmp)
        else:
            import pyarrow.csv as pacsv
            for i, f in enumerate(table.schema):
                if pa.types.is_list(f.type):
                    text = [None if v is None else json.dumps(v)
                            for v in table.column(i).to_pylist()]
                    table = table.set_column(i, f.name, pa.array(text, type=pa.string()))
            pacsv.write_csv(table, tmp)
            self.meta.write_text(json.dumps({"spec_hash": self.spec_hash,
                                             "spec": json.loads(
                                                 self.schema.metadata[_META_SPEC])}, indent=1))
        os.replace(tmp, self.out)


def read_results(path):
    """Read a sweep's Parquet output with its spec (``(table, spec dict)``)."""
    import pyarrow
    import pyarrow.parquet as pq
    if not isinstance(path, (str, os.PathLike)) or not str(path):
        raise ParameterError(f"path must name a Parquet file (str or Path), got "
                             f"{type(path).__name__} {path!r:.100}")
    shown = str(path)
    if not Path(path).is_file():
        raise ParameterError(f"path must be an existing Parquet file"
                             f"{' (it is a folder)' if Path(path).is_dir() else ''}; got {shown!r}")
    try:
        table = pq.read_table(path)
    except (pyarrow.ArrowException, OSError) as err:
        raise ParameterError(f"path must be a Parquet file written by ctlcc.sweep ({err}); "
                             f"got {shown!r}") from None
    metadata = table.schema.metadata or {}
    if _META_SPEC not in metadata:
        raise ParameterError(f"path must be the output of ctlcc.sweep (no spec in its "
                             f"metadata); got {str(path)!r}")
    return table, json.loads(metadata[_META_SPEC])


def _deduplicate(table):
    keys = table.column("key").to_pylist()
    last = {key: i for i, key in enumerate(keys)}
    if len(last) == len(keys):
        return table
    return table.take(sorted(last.values()))


def _sorted(table):
    return table.sort_by([("point", "ascending"), ("replicate", "ascending")])


def _axis_type(pa, spec, name):
    values = spec.grid[name] if spec.grid is not None else [p[name] for p in spec.points]
    if all(isinstance(v, bool) for v in values):
        return pa.bool_()
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return pa.int64()
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return pa.float64()
    return pa.string()                     # text, or lists stored as JSON text
