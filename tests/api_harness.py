"""Machinery of the public-API harness (tests/test_api_harness.py).

A :class:`Case` describes one public callable: a table of valid baseline
arguments and, for each argument, its *kind* (``"pos"``, ``"prob"``,
``("choice", options)``, ...).  :func:`variants` turns a kind into invalid
or extreme values, and :func:`outcome` calls the function with one argument
replaced and judges what happened against the standard of issue 16:

* an invalid value must raise ``ValueError``/``TypeError`` (or a ctlcc
  subclass) at the call, whose message names the argument as the user
  wrote it and shows the value received (``got ...``);
* an extreme but valid value (``1e308``, an empty array) may return, but
  then without NaN or infinity, or raise as above;
* never a raw error (IndexError, ZeroDivisionError, UnboundLocalError, a
  numba typing error, numpy's own ValueError without the argument's name),
  and never a hang: each call runs under a wall-clock alarm.
"""

import dataclasses
import math
import re
import signal
import time

import numpy as np

NAN, INF = float("nan"), float("inf")

RAISE = "raise"        # the call must refuse the value
FINITE = "finite"      # the call may return, but nothing NaN/inf; or refuse clearly

#: Wall-clock limit of one call [s]: a hang detector, not a speed check.  The
#: slowest baseline takes well under a second once compiled on an idle machine,
#: but CI runs the suite beside the wheel job on two shared cores, where 5 s
#: fired on a valid call (``analysis.fuzzy_surface.best_radius``); a hang never
#: answers, so a generous limit catches it just as well.
CALL_TIMEOUT = 60.0


class HarnessTimeout(BaseException):
    """Raised by the alarm; a BaseException so that ``except Exception`` cannot eat it."""


@dataclasses.dataclass
class Case:
    """One public callable and its argument table.

    Attributes
    ----------
    name : str
        Dotted name (module.function or module.Class.method).
    func : callable
        Called as ``func(**kwargs)``.
    base : dict
        Valid arguments; the call with them must succeed (unless
        ``run_base`` is False: cross-checks would simulate).
    kinds : dict
        Argument -> kind (see :func:`variants`); arguments not listed get
        no generated variants.
    vector : tuple of str
        Arguments that accept arrays elementwise.
    none_ok : tuple of str
        Arguments for which None is valid (a default).
    extra : tuple of (label, overrides, mode, arg)
        Hand-written variants (findings of the audit, edge cases); *arg*
        is the argument the error message must name.
    check : callable, optional
        ``check(result, kwargs)`` raising AssertionError when a returned
        value is outside its meaning (a gap below tau, a fraction above 1).
    covers : tuple
        Public objects this case covers (default: ``func``).
    run_base : bool
        Run the baseline and FINITE variants (False for cross-checks, whose
        valid calls simulate for seconds).
    allow_inf : bool
        The result may legitimately hold +inf (an infinite buffer...).
    nan_ok : tuple of str
        Names of result fields where NaN is documented as "not applicable"
        (``Traces.rate`` of a window-based flow); NaN anywhere else fails.
    """

    name: str
    func: object
    base: dict
    kinds: dict
    vector: tuple = ()
    none_ok: tuple = ()
    extra: tuple = ()
    check: object = None
    covers: tuple = ()
    run_base: bool = True
    allow_inf: bool = False
    nan_ok: tuple = ()


# --------------------------------------------------------------------------- variants
_BAD_TYPES = (("str", "abc"), ("numeric str", "1.5"), ("None", None), ("bool", True),
              ("complex", 1 + 2j), ("dict", {}))


def _good(value):
    if isinstance(value, np.ndarray):
        return value.ravel()[0].item()
    if isinstance(value, (list, tuple)):
        return value[0]
    return value


def _numeric_bad(kind):
    """(label, value, mode) range violations of a numeric kind."""
    if kind == "real":
        return [("1e308", 1e308, FINITE), ("-1e308", -1e308, FINITE)]
    if kind in ("pos", "pos_inf"):
        return [("zero", 0.0, RAISE), ("negative", -1.0, RAISE), ("1e308", 1e308, FINITE),
                ("tiny", 1e-300, FINITE)]
    if kind == "nonneg":
        return [("negative", -1.0, RAISE), ("1e308", 1e308, FINITE)]
    if isinstance(kind, tuple) and kind[0] == "interval":
        _, low, high, closed = kind
        span = high - low
        out = [("below", low - 0.1 * span, RAISE), ("above", high + 0.1 * span, RAISE),
               ("1e308", 1e308, RAISE)]
        if closed in ("neither", "right"):
            out.append(("low end", low, RAISE))
        if closed in ("neither", "left"):
            out.append(("high end", high, RAISE))
        return out
    if kind in ("int0", "int1"):
        low = 0 if kind == "int0" else 1
        return [("fraction", 2.5, RAISE), ("below", low - 1, RAISE),
                ("huge float", 1e308, FINITE), ("huge int", 10 ** 18, FINITE)]
    if kind == "count":
        # a count of things ctlcc allocates or loops over: bounded by what memory allows
        return [("fraction", 2.5, RAISE), ("zero", 0, RAISE), ("negative", -1, RAISE),
                ("huge float", 1e308, RAISE), ("huge int", 10 ** 18, RAISE)]
    raise KeyError(kind)


def _is_numeric(kind):
    return kind in ("real", "pos", "pos_inf", "nonneg", "int0", "int1", "count") or (
        isinstance(kind, tuple) and kind[0] == "interval")


def variants(arg, kind, base, vector=False, none_ok=False):
    """Invalid or extreme values for one argument: list of (label, value, mode)."""
    out = []
    if kind == "skip":
        return out
    if _is_numeric(kind):
        good = _good(base)
        out += [(lbl, v, RAISE) for lbl, v in _BAD_TYPES if not (v is None and none_ok)]
        out += [("nan", NAN, RAISE), ("-inf", -INF, RAISE)]
        if kind != "pos_inf":
            out.append(("+inf", INF, RAISE))
        out += _numeric_bad(kind)
        if vector:
            out += [("array with nan", np.array([good, NAN]), RAISE),
                    ("empty array", np.array([]), FINITE),
                    ("2-D array", np.full((2, 2), good), FINITE)]
        else:
            out += [("array", np.array([good, good]), RAISE), ("empty list", [], RAISE)]
        return out
    if kind == "bool":
        out = [("'false'", "false", RAISE), ("'true'", "true", RAISE), ("1", 1, RAISE),
               ("0", 0, RAISE), ("array", np.array([True]), RAISE)]
        if not none_ok:
            out.append(("None", None, RAISE))
        return out
    if isinstance(kind, tuple) and kind[0] == "choice":
        out = [("unknown", "no-such-choice", RAISE), ("int", 1, RAISE),
               ("list", [kind[1][0]], RAISE), ("upper", str(kind[1][0]).upper() + "X", RAISE)]
        if not none_ok:
            out.append(("None", None, RAISE))
        return out
    if isinstance(kind, tuple) and kind[0] == "obj":
        out = [("float", 1.5, RAISE), ("dict", {"x": 1}, RAISE)]
        if kind[1] is not str:
            out.append(("str", "abc", RAISE))
        else:
            out.append(("bytes", b"abc", RAISE))
        if not none_ok:
            out.append(("None", None, RAISE))
        return out
    if kind == "loss":
        # a link's loss: a probability in [0, 1), a loss model or None
        out = [("str", "0.1", RAISE), ("nan", NAN, RAISE), ("negative", -0.1, RAISE),
               ("one", 1.0, RAISE), ("above one", 1.5, RAISE), ("bool", True, RAISE),
               ("dict", {"p": 0.1}, RAISE), ("list", [0.1], RAISE), ("probability", 0.01, FINITE)]
        if not none_ok:
            out.append(("None", None, RAISE))
        return out
    if isinstance(kind, tuple) and kind[0] == "path":
        # a route of node names: at least two nodes, no node twice (no self-loop, no cycle)
        out = [("empty", (), RAISE), ("one node", ("S",), RAISE), ("self-loop", ("S", "S"), RAISE),
               ("revisits a node", ("S", "R", "S"), RAISE), ("str", "SD", RAISE),
               ("int nodes", (1, 2), RAISE), ("None node", ("S", None), RAISE)]
        if not none_ok:
            out.append(("None", None, RAISE))
        return out
    if isinstance(kind, tuple) and kind[0] in ("seq", "seq0", "set", "set0"):
        # "seq0"/"set0": may be empty (e.g. a PacketList with no losses); "set"/"set0":
        # the items are distinct (a duplicate is refused, not silently merged)
        item = kind[1]
        good = _good(base)
        empty_ok = kind[0] in ("seq0", "set0")
        out = [("empty", (), FINITE if empty_ok else RAISE), ("str", "abc", RAISE),
               ("2-D", [[good, good]], RAISE),
               ("scalar", good, FINITE)]   # a grid function may take one point
        if kind[0] in ("set", "set0"):
            out.append(("duplicate item", [good, good], RAISE))
        if not none_ok:
            out.append(("None", None, RAISE))
        for lbl, v, mode in variants(arg, item, good):
            if mode == RAISE and not isinstance(v, (np.ndarray, list)):
                out.append((f"item {lbl}", [good, v], RAISE))
        return out
    raise KeyError(f"unknown kind {kind!r} for {arg}")


def unlisted_parameters(case):
    """Parameters of the case's callable that have no kind: the harness would not probe them.

    Every parameter needs a kind, or ``"skip"`` (no generated values; hand-written
    ``extra`` variants may still probe it). ``self``/``cls`` and ``*args``/``**kwargs``
    are left out.
    """
    import inspect

    target = case.covers[0] if case.covers else case.func
    target = getattr(target, "__func__", target)
    try:
        params = inspect.signature(target).parameters
    except (TypeError, ValueError):
        return []
    return [name for name, p in params.items()
            if name not in ("self", "cls") and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
            and name not in case.kinds]


def case_variants(case):
    """Every (arg, label, kwargs, mode) of a case: generated and extra."""
    out = []
    for arg, kind in case.kinds.items():
        for label, value, mode in variants(arg, kind, case.base.get(arg),
                                           vector=arg in case.vector,
                                           none_ok=arg in case.none_ok):
            out.append((arg, label, {**case.base, arg: value}, mode))
    for label, overrides, mode, arg in case.extra:
        out.append((arg, label, {**case.base, **overrides}, mode))
    return out


# --------------------------------------------------------------------------- judging
def _handler(signum, frame):
    raise HarnessTimeout()


def call_with_timeout(func, kwargs, timeout=CALL_TIMEOUT):
    """``func(**kwargs)`` under a wall-clock alarm; returns (result, error, seconds)."""
    old = signal.signal(signal.SIGALRM, _handler)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    start = time.perf_counter()
    try:
        return func(**kwargs), None, time.perf_counter() - start
    except HarnessTimeout as err:
        return None, err, time.perf_counter() - start
    except Exception as err:  # judged by the caller
        return None, err, time.perf_counter() - start
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def non_finite(value, allow_inf=False, _depth=0, nan_ok=()):
    """Path of the first NaN (or inf) inside a result, else None.

    Dataclass fields and dict keys named in *nan_ok* are skipped (documented NaN).
    """
    if _depth > 6:
        return None
    if isinstance(value, (bool, np.bool_, str, bytes)) or value is None:
        return None
    if isinstance(value, (int, np.integer)):
        return None
    if isinstance(value, (float, np.floating)):
        bad = math.isnan(value) or (math.isinf(value) and not allow_inf)
        return repr(float(value)) if bad else None
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "fc":
            bad = np.isnan(value) | (np.isinf(value) & (not allow_inf))
            return f"array holding {value[bad][:3]}" if np.any(bad) else None
        if value.dtype == object:
            for x in value.ravel()[:50]:
                found = non_finite(x, allow_inf, _depth + 1, nan_ok)
                if found:
                    return found
        return None
    if isinstance(value, (list, tuple)):
        for i, x in enumerate(value[:200]):
            found = non_finite(x, allow_inf, _depth + 1, nan_ok)
            if found:
                return f"[{i}] {found}"
        return None
    if isinstance(value, dict):
        for k, x in list(value.items())[:200]:
            if k in nan_ok:
                continue
            found = non_finite(x, allow_inf, _depth + 1, nan_ok)
            if found:
                return f"[{k!r}] {found}"
        return None
    if dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            if f.name in nan_ok:
                continue
            found = non_finite(getattr(value, f.name), allow_inf, _depth + 1, nan_ok)
            if found:
                return f".{f.name} {found}"
        return None
    return None


_RAW_MODULES = ("numba",)


def judge_error(err, arg):
    """None if *err* is a clear refusal naming *arg*, else what is wrong with it."""
    if isinstance(err, HarnessTimeout):
        return f"no answer within {CALL_TIMEOUT:g} s (hang)"
    kind = type(err)
    if kind.__module__.split(".")[0] in _RAW_MODULES:
        return f"raw {kind.__module__}.{kind.__name__}: {str(err)[:120]}"
    if not isinstance(err, (ValueError, TypeError)):
        return f"raw {kind.__name__}: {str(err)[:160]}"
    msg = str(err)
    if not re.search(r"(?<![\w.])" + re.escape(arg) + r"(?![\w(])", msg):
        return f"{kind.__name__} does not name {arg!r}: {msg[:200]}"
    if "got" not in msg.lower():
        return f"{kind.__name__} does not show the value received: {msg[:200]}"
    return None


def outcome(case, arg, kwargs, mode):
    """None if the call behaves, else a one-line description of the defect."""
    result, err, _ = call_with_timeout(case.func, kwargs)
    if err is not None:
        return judge_error(err, arg)
    if mode == RAISE:
        return f"accepted silently, returned {_short(result)}"
    found = non_finite(result, case.allow_inf, nan_ok=case.nan_ok)
    if found:
        return f"returned a non-finite value: {found}"
    if case.check is not None:
        try:
            case.check(result, kwargs)
        except AssertionError as failure:
            return f"returned a value outside its meaning: {failure}"
    return None


def _short(value):
    text = repr(value)
    return text if len(text) < 120 else text[:117] + "..."


def run_case(case):
    """All defects of one case, as ``["arg / label: defect", ...]``."""
    defects = []
    if case.run_base:
        result, err, _ = call_with_timeout(case.func, case.base)
        if err is not None:
            return [f"baseline call fails: {type(err).__name__}: {err}"]
        found = non_finite(result, case.allow_inf, nan_ok=case.nan_ok)
        if found:
            defects.append(f"baseline returns a non-finite value: {found}")
        if case.check is not None:
            try:
                case.check(result, case.base)
            except AssertionError as failure:
                defects.append(f"baseline outside its meaning: {failure}")
    for arg, label, kwargs, mode in case_variants(case):
        if mode == FINITE and not case.run_base:
            continue
        problem = outcome(case, arg, kwargs, mode)
        if problem:
            defects.append(f"{arg} = {label}: {problem}")
    return defects
