# ctlcc.sweep._spec - a sweep's description: kind, fixed parameters, grid, seeds, metrics
"""The :class:`Spec` of a sweep, read from TOML or built in Python.

A spec is validated against its kind before anything runs: every axis and
fixed parameter must be a parameter of the kind (the error lists the valid
ones), every metric one of the kind's, no axis empty, seeds a count >= 1 or
a list of integers >= 0.  Its rows - one per (point, seed) - are produced
lazily in a fixed order (first axis slowest, then the seed), each with a
stable key and a seed derived from the spec, so any execution order or
batching gives the same table.
"""

import hashlib
import itertools
import json
import math
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .._validation import check_choice
from ..errors import ParameterError
from ._kinds import KINDS, get_kind

if sys.version_info >= (3, 11):
    import tomllib
else:                                               # pragma: no cover
    import tomli as tomllib

__all__ = ["Spec", "Row", "load_spec"]

#: Version of the key/seed/hash derivation; part of every spec hash.
FORMAT = 1
_TOP_LEVEL = ("name", "description", "kind", "fixed", "grid", "points", "seeds", "seed",
              "metrics")


@dataclass(frozen=True)
class Row:
    """One (point, seed) of a sweep: what a worker evaluates.

    Attributes
    ----------
    key : str
        Stable identifier (16 hex digits of a SHA-256 of the point's axis
        values and the replicate index).
    point : int
        Index of the point in the grid's order.
    replicate : int
        Index of the seed, 0 ... seeds - 1.
    seed : int or None
        Seed passed to the kind (None for deterministic kinds).
    axes : dict
        The point's axis values.
    """

    key: str
    point: int
    replicate: int
    seed: object
    axes: dict


@dataclass(frozen=True, eq=False)
class Spec:
    """What a sweep runs, where, how often and what it keeps.

    Parameters
    ----------
    kind : str
        One of :data:`ctlcc.sweep.KINDS` ("sim", "fluid", "analysis",
        "bound", "crosscheck", "function").
    metrics : sequence of str
        Metric names of the kind, one column each.
    fixed : dict, optional
        Parameters shared by every point (e.g. ``preset``, ``duration``).
    grid : dict, optional
        Axis name -> list of values; the points are their Cartesian product
        (first axis slowest).  Exactly one of *grid* and *points*.
    points : list of dict, optional
        Explicit points, each a dict of axis values.
    seeds : int or sequence of int, optional
        A count n >= 1: n seeds per point derived from *seed* and the
        point (independent streams); or a list of seeds >= 0 used as given
        for every point (common random numbers across points).
    seed : int, optional
        Entropy of the derived seeds, >= 0.
    name, description : str, optional
        Labels (not part of the spec hash).

    Examples
    --------
    >>> spec = Spec("analysis", ["spectral_radius"], fixed={"loop": "stpd", "m": 3},
    ...             grid={"kp": [0.1, 0.2], "kd": [0.0, 0.05]})
    >>> spec.size, [r.axes for r in spec.rows()][:2]
    (4, [{'kp': 0.1, 'kd': 0.0}, {'kp': 0.1, 'kd': 0.05}])
    >>> Spec("analysis", ["spectral_radius"], fixed={"loop": "stpd", "m": 3},
    ...      grid={"gain": [0.1]})
    Traceback (most recent call last):
    ...
    ctlcc.errors.ParameterError: axis 'gain' is not a parameter of kind 'analysis' (loop='stpd'); valid: 'kd', 'kp', 'loop', 'm', 'm_max', 'model'; got gain=0.1
    """

    kind: str
    metrics: tuple
    fixed: dict = field(default_factory=dict)
    grid: dict = None
    points: tuple = None
    seeds: object = 1
    seed: int = 0
    name: str = ""
    description: str = ""

    def __post_init__(self):
        check_choice("kind", self.kind, tuple(KINDS))
        kind = get_kind(self.kind)
        for label in ("name", "description"):
            if not isinstance(getattr(self, label), str):
                raise ParameterError(f"{label} must be a str (a label), got "
                                     f"{type(getattr(self, label)).__name__} "
                                     f"{getattr(self, label)!r}")
        if isinstance(self.metrics, (str, bytes, dict)) or not hasattr(self.metrics, "__iter__") \
                or not all(isinstance(m, str) for m in self.metrics):
            raise ParameterError(f"metrics must be a list of metric names, got {self.metrics!r}")
        object.__setattr__(self, "metrics", tuple(self.metrics))
        if not self.metrics:
            raise ParameterError(f"metrics must name at least one metric; kind {self.kind!r} "
                                 f"offers {_names(kind.metrics) or 'any name'}; got "
                                 f"{list(self.metrics)!r}")
        if len(set(self.metrics)) != len(self.metrics):
            raise ParameterError(f"metrics lists a name twice; got {list(self.metrics)}")
        if not isinstance(self.fixed, dict):
            raise ParameterError(f"fixed must be a table of parameters, got {self.fixed!r}")
        object.__setattr__(self, "fixed", {k: _freeze(v, f"fixed[{k!r}]")
                                           for k, v in self.fixed.items()})
        if (self.grid is None) == (self.points is None):
            raise ParameterError("a spec needs exactly one of grid (axes whose product is the "
                                 "points) and points (an explicit list); got "
                                 f"{'both' if self.grid is not None else 'neither'}")
        if self.grid is not None:
            object.__setattr__(self, "grid", _check_grid(self.grid))
            axes = list(self.grid)
        else:
            object.__setattr__(self, "points", _check_points(self.points))
            axes = sorted({name for point in self.points for name in point})
        for name in axes:
            if name in self.fixed:
                raise ParameterError(f"{name!r} is both an axis and a fixed parameter; got "
                                     f"fixed {name}={self.fixed[name]!r}")
        object.__setattr__(self, "seeds", _check_seeds(self.seeds))
        if isinstance(self.seed, bool) or not isinstance(self.seed, (int, np.integer)) \
                or self.seed < 0:
            raise ParameterError(f"seed must be an integer >= 0, got {self.seed!r}")
        object.__setattr__(self, "seed", int(self.seed))
        self._check_against_kind(kind)

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_dict(cls, data):
        """Build a spec from a mapping with the TOML file's keys."""
        if not isinstance(data, dict):
            raise ParameterError(f"data (a spec) must be a table (dict), got "
                                 f"{type(data).__name__} {data!r:.100}")
        unknown = sorted(set(data) - set(_TOP_LEVEL))
        if unknown:
            raise ParameterError(f"unknown spec key(s) {', '.join(map(repr, unknown))} in data; "
                                 f"valid: {', '.join(map(repr, _TOP_LEVEL))}; got keys "
                                 f"{list(data)!r}")
        for required in ("kind", "metrics"):
            if required not in data:
                raise ParameterError(f"spec data needs {required}; got keys {list(data)!r}")
        return cls(**data)

    @classmethod
    def from_toml(cls, path):
        """Read a spec from a TOML file (see ``examples/sweeps/``)."""
        if not isinstance(path, (str, os.PathLike)) or not str(path):
            raise ParameterError(f"path must name a spec TOML file (str or Path), got "
                                 f"{type(path).__name__} {path!r}")
        path = Path(path)
        shown = str(path)
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ParameterError(f"spec file does not exist: got path={shown!r}") from None
        except IsADirectoryError:
            raise ParameterError(f"spec file must be a TOML file, not a folder: got "
                                 f"path={shown!r}") from None
        except UnicodeDecodeError as err:
            raise ParameterError(f"spec file is not UTF-8 text ({err.reason}): got "
                                 f"path={shown!r}") from None
        except OSError as err:
            raise ParameterError(f"spec file cannot be read ({err.strerror or err}): got "
                                 f"path={shown!r}") from None
        except tomllib.TOMLDecodeError as err:
            raise ParameterError(f"spec file is not valid TOML ({err}): got "
                                 f"path={shown!r}") from None
        data.setdefault("name", path.stem)
        return cls.from_dict(data)

    # ------------------------------------------------------------------ derived
    @property
    def axes(self):
        """Axis names, in column order."""
        if self.grid is not None:
            return tuple(self.grid)
        seen = {}
        for point in self.points:
            for name in point:
                seen.setdefault(name, None)
        return tuple(seen)

    @property
    def n_points(self):
        """Number of points. [1]"""
        if self.grid is not None:
            return math.prod(len(v) for v in self.grid.values())
        return len(self.points)

    @property
    def n_seeds(self):
        """Seeds per point. [1]"""
        return self.seeds if isinstance(self.seeds, int) else len(self.seeds)

    @property
    def size(self):
        """Rows of the results table: points x seeds. [1]"""
        return self.n_points * self.n_seeds

    @property
    def seeded(self):
        """Whether the kind's outcome depends on the seed."""
        kind = get_kind(self.kind)
        return any(kind.seeded({**self.fixed, **p}) for p in self._representatives())

    def canonical(self):
        """The spec as a JSON-ready dict (everything the results depend on)."""
        return {"format": FORMAT, "kind": self.kind, "metrics": list(self.metrics),
                "fixed": self.fixed,
                "grid": None if self.grid is None else [[k, list(v)] for k, v in self.grid.items()],
                "points": None if self.points is None else [dict(p) for p in self.points],
                "seeds": self.seeds if isinstance(self.seeds, int) else list(self.seeds),
                "seed": self.seed}

    @property
    def hash(self):
        """SHA-256 of :meth:`canonical` (hex), stored with the results."""
        return hashlib.sha256(_dumps(self.canonical()).encode()).hexdigest()

    def point_axes(self):
        """Iterate over the points' axis dicts in order (lazily)."""
        if self.grid is None:
            yield from (dict(p) for p in self.points)
            return
        names = list(self.grid)
        for values in itertools.product(*self.grid.values()):
            yield dict(zip(names, values))

    def rows(self):
        """Iterate over the :class:`Row` s, point by point, seed by seed (lazily)."""
        seeded = self.seeded
        for index, axes in enumerate(self.point_axes()):
            point_text = _dumps(axes)
            digest = hashlib.sha256(point_text.encode()).digest()
            for replicate in range(self.n_seeds):
                key = hashlib.sha256(f"{point_text}|{replicate}".encode()).hexdigest()[:16]
                yield Row(key, index, replicate,
                          self._seed(digest, replicate) if seeded else None, axes)

    def params(self, row):
        """The parameters a kind receives for *row*: fixed values, then axes."""
        if not isinstance(row, Row):
            raise ParameterError(f"row must be a Row (from Spec.rows()), got "
                                 f"{type(row).__name__} {row!r:.100}")
        return {**{k: _thaw(v) for k, v in self.fixed.items()},
                **{k: _thaw(v) for k, v in row.axes.items()}}

    # ------------------------------------------------------------------ private
    def _seed(self, digest, replicate):
        if not isinstance(self.seeds, int):
            return self.seeds[replicate]
        words = np.frombuffer(digest[:16], dtype=np.uint32).tolist()
        sequence = np.random.SeedSequence([self.seed, replicate, *words])
        return int(sequence.generate_state(1, np.uint64)[0] >> np.uint64(1))

    def _representatives(self):
        """Points covering every combination of the categorical (string) axes."""
        if self.points is not None:
            return [dict(p) for p in self.points]
        choices = [[v for v in values if isinstance(v, str)] or [values[0]]
                   for values in self.grid.values()]
        names = list(self.grid)
        return [dict(zip(names, combo)) for combo in itertools.product(*choices)]

    def _check_against_kind(self, kind):
        variants = set()
        for point in self._representatives():
            params = {**self.fixed, **point}
            try:
                allowed, required = kind.parameters(params)
            except ParameterError as err:
                raise ParameterError(f"{err} (from fixed={self.fixed!r} and the point "
                                     f"{point!r})") from None
            where = f"kind {self.kind!r}" + (f" ({kind.variant}={params.get(kind.variant)!r})"
                                            if kind.variant else "")
            for name in params:
                if name not in allowed:
                    role = "axis" if name in point else "fixed parameter"
                    raise ParameterError(f"{role} {name!r} is not a parameter of {where}; "
                                         f"valid: {', '.join(map(repr, sorted(allowed)))}; "
                                         f"got {name}={params[name]!r}")
            missing = sorted(set(required) - set(params))
            if missing:
                raise ParameterError(f"{where} needs parameter(s) {', '.join(map(repr, missing))}"
                                     f" (as an axis or in fixed)")
            if kind.variant:
                variants.add(params.get(kind.variant))
            if self.n_seeds > 1 and not kind.seeded(params):
                raise ParameterError(f"seeds must be 1 for {where}: its result does not depend "
                                     f"on a seed; got {self.seeds!r}")
        if kind.open_metrics:
            return
        for name in self.metrics:
            metric = kind.metrics.get(name)
            if metric is None:
                raise ParameterError(f"metric {name!r} is not one of kind {self.kind!r}: "
                                     f"{_names(kind.metrics)}; got metrics="
                                     f"{list(self.metrics)!r}")
            for variant in variants:
                if metric.variants is not None and variant not in metric.variants:
                    valid = [m for m, v in kind.metrics.items()
                             if v.variants is None or variant in v.variants]
                    raise ParameterError(
                        f"metric {name!r} does not exist for {kind.variant}={variant!r}; "
                        f"valid: {', '.join(map(repr, valid))}")


def load_spec(spec):
    """A :class:`Spec` from a Spec, a mapping or the path of a TOML file."""
    if isinstance(spec, Spec):
        return spec
    if isinstance(spec, dict):
        return Spec.from_dict(spec)
    if isinstance(spec, (str, os.PathLike)):
        return Spec.from_toml(spec)
    raise ParameterError(f"spec must be a Spec, a dict or a TOML path, got "
                         f"{type(spec).__name__} {spec!r:.100}")


def _names(metrics):
    return ", ".join(repr(m) for m in metrics)


def _freeze(value, name="a spec value"):
    """Normalise a TOML/Python value: tuples -> lists, numpy scalars -> Python.

    NaN is refused (it equals nothing: no point, key or row could hold it);
    infinity is kept (``max_window = inf`` is a valid fluid parameter) and
    judged by the kind when the point runs.
    """
    if isinstance(value, (list, tuple)):
        return [_freeze(v, name) for v in value]
    if isinstance(value, dict):
        return {k: _freeze(v, name) for k, v in value.items()}
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        raise ParameterError(f"{name} must not be NaN (a number or a string), got {value!r}")
    if isinstance(value, (str, bool, int, float)) or value is None:
        return value
    raise ParameterError(f"{name} must be a number, string, boolean or a list of them; "
                         f"got {value!r} ({type(value).__name__})")


def _thaw(value):
    return tuple(_thaw(v) for v in value) if isinstance(value, list) else value


def _unify(name, values):
    """Mixed ints and floats on one axis become floats (one column type)."""
    numbers = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if numbers and len(numbers) == len(values) and any(isinstance(v, float) for v in numbers):
        return [float(v) for v in values]
    types = {type(v).__name__ for v in values}
    if len(types) > 1 and not (len(numbers) == len(values)):
        raise ParameterError(f"axis {name!r} mixes value types {sorted(types)}; "
                             f"one axis is one column of one type")
    return values


def _check_grid(grid):
    if not isinstance(grid, dict) or not grid:
        raise ParameterError(f"grid must be a non-empty table of axis -> list of values, "
                             f"got {grid!r}")
    out = {}
    for name, values in grid.items():
        if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
            raise ParameterError(f"grid axis {name!r} must be a list of values, got {values!r}")
        values = [_freeze(v, name) for v in values]
        if not values:
            raise ParameterError(f"grid axis {name!r} is empty: the grid would have no points; "
                                 f"got {name}=[]")
        texts = [_dumps(v) for v in values]
        if len(set(texts)) != len(texts):
            raise ParameterError(f"grid axis {name!r} repeats a value; got {name}={values!r}")
        out[name] = _unify(name, values)
    return out


def _check_points(points):
    if isinstance(points, dict) or not hasattr(points, "__iter__"):
        raise ParameterError(f"points must be a list of tables, got {points!r}")
    points = [dict(p) if isinstance(p, dict) else p for p in points]
    if not points:
        raise ParameterError("points is empty: the sweep would have no points; got []")
    seen = {}
    for i, point in enumerate(points):
        if not isinstance(point, dict):
            raise ParameterError(f"points[{i}] must be a table of axis values, got {point!r}")
        text = _dumps({k: _freeze(v, k) for k, v in point.items()})
        if text in seen:
            raise ParameterError(f"points[{seen[text]}] and points[{i}] are the same point")
        seen[text] = i
    names = list(dict.fromkeys(name for p in points for name in p))
    for name in names:
        present = [p for p in points if name in p]
        if len(present) != len(points):
            raise ParameterError(f"axis {name!r} is set in {len(present)} of {len(points)} "
                                 f"points; give it in every point or move it to fixed")
        values = _unify(name, [_freeze(p[name], name) for p in points])
        for p, v in zip(points, values):
            p[name] = v
    return tuple({k: _freeze(v, k) for k, v in p.items()} for p in points)


def _check_seeds(seeds):
    if isinstance(seeds, bool):
        raise ParameterError(f"seeds must be an integer >= 1 or a list of integers >= 0, "
                             f"got {seeds!r}")
    if isinstance(seeds, (int, np.integer)):
        if seeds < 1:
            raise ParameterError(f"seeds must be an integer >= 1 (seeds per point) or a list "
                                 f"of integers >= 0, got {seeds!r}")
        return int(seeds)
    try:
        values = list(seeds)
    except TypeError:
        raise ParameterError(f"seeds must be an integer >= 1 or a list of integers >= 0, "
                             f"got {seeds!r}") from None
    if not values or any(isinstance(s, bool) or not isinstance(s, (int, np.integer)) or s < 0
                         for s in values):
        raise ParameterError(f"seeds must be an integer >= 1 or a non-empty list of integers "
                             f">= 0, got {seeds!r}")
    if len(set(values)) != len(values):
        raise ParameterError(f"seeds repeats a value; got {values!r}")
    return tuple(int(s) for s in values)


def _dumps(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=True)
