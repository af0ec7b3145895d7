# ctlcc.claims.record - one record of the claims ledger and the one verdict rule
"""The ledger's record (:class:`Claim`) and its verdict rule (:func:`judge`).

A record holds the paper's words and value, the measurable form the claim
is judged by, a tolerance with its basis (declared in ``data/ledger_*.csv``
before anything is measured), ctlcc's value with its spread over seeds, and
the verdict.  The verdict is never chosen by the code that measures: it is
:func:`judge` of the record's own fields, and :class:`Claim` refuses a
record whose verdict does not follow from them.

The rule, for a value ``x``, the target ``t`` (the published number, or the
threshold of a qualitative claim's measurable form), the tolerance ``tol``
and the comparison:

==========  ====================================================
comparison  reproduced iff
==========  ====================================================
``==``      ``|x - t| <= tol``
``<=``      ``x <= t + tol``   (the paper: "at most", "below")
``>=``      ``x >= t - tol``   (the paper: "at least", "above")
==========  ====================================================

each to the float rounding of the decimal inputs (:data:`ROUNDING`, 1e-9
relative);
otherwise the record *differs* (or, when ctlcc's value is the paper's own
derivation of a printed constant or formula, it is a *printed-error*).  A
record may also carry what the paper's own numbers imply for the published
value (``implied``); when the published value breaks that, the claim is
*paper-inconsistent* whatever ctlcc measures.  NaN (no measurement) is
never within.

Examples
--------
>>> judge(0.95, 0.94, "==", 0.01)
'reproduced'
>>> judge(0.664, 0.94, "==", 0.19)
'differs'
>>> judge(1.5556, 1.54, "==", 0.005, on_outside="printed-error")
'printed-error'
>>> judge(4645.0, 3760.0, "==", 940.0, implied=4500.0, implied_comparison=">=")
'paper-inconsistent'
>>> c = Claim(id="cbraa-eq4-loss-d", paper="cbraa", location="§3.1, eq. (4)",
...           claim="Loss_th = 1.61 / (R^2 B^2 + 1.54 R B)", published=1.54,
...           value=1.5556, tolerance=0.005, tolerance_basis="half a unit of the last "
...           "printed digit", on_outside="printed-error", verdict="printed-error",
...           reason="the derivation gives 14/9 = 1.5556")
>>> c.difference
0.0156...
"""

import math
from dataclasses import dataclass, field

from .._validation import _as_float, check_choice, check_finite, check_nonnegative
from ..errors import ParameterError
from ..references import reference

__all__ = ["VERDICTS", "KINDS", "COMPARISONS", "OUTSIDE_VERDICTS", "ROUNDING", "Claim", "judge",
           "within"]

#: Valid verdicts: reproduced; differs (the reason says by how much and why);
#: printed-error (the paper's own derivation gives another value);
#: paper-inconsistent (the paper's own set-up or numbers make the claim
#: impossible); not yet checked.
VERDICTS = ("reproduced", "differs", "printed-error", "paper-inconsistent", "not yet checked")

#: Kinds of record: a sentence or number a paper states (``paper``), or
#: ctlcc's model against ctlcc's simulator, a wiring check, an invariant
#: (``consistency``), counted apart.
KINDS = ("paper", "consistency")

#: How a value is compared with its target.
COMPARISONS = ("==", "<=", ">=")

#: What a value outside its tolerance means.
OUTSIDE_VERDICTS = ("differs", "printed-error")

#: Relative slack of every comparison: the float rounding of decimal inputs
#: (0.33 - 0.30 exceeds 0.03 in binary), far below any printed precision.
ROUNDING = 1e-9


def within(value, target, comparison="==", tolerance=0.0):
    """Whether *value* meets *target* in the sense of *comparison*.

    Parameters
    ----------
    value : float
        ctlcc's value; NaN (nothing measured) is never within, +-inf (e.g.
        "never reaches it") only in the sense of a one-sided *comparison*.
    target : float
        Finite.
    comparison : {"==", "<=", ">="}
    tolerance : float
        Finite, >= 0, in the unit of *value*.

    Returns
    -------
    bool

    Raises
    ------
    ParameterError
        A *target* or *tolerance* that is not a finite number (>= 0), a
        *value* that is not a number, an unknown *comparison*.

    Examples
    --------
    >>> within(1.3, 1.4, "<=", 0.05), within(1.46, 1.4, "<=", 0.05)
    (True, False)
    """
    check_choice("comparison", comparison, COMPARISONS)
    value = float(_as_float("value", value, scalar=True))
    target = float(check_finite("target", target, scalar=True))
    tolerance = float(check_nonnegative("tolerance", tolerance, scalar=True))
    if math.isnan(value):
        return False
    if math.isinf(value):
        return {"==": False, "<=": value < 0, ">=": value > 0}[comparison]
    # the decimal inputs' float rounding (0.33 - 0.30 > 0.03 in binary) is not a difference
    slack = ROUNDING * max(1.0, abs(value), abs(target))
    if comparison == "==":
        return abs(value - target) <= tolerance + slack
    if comparison == "<=":
        return value <= target + tolerance + slack
    return value >= target - tolerance - slack


def judge(value, target, comparison="==", tolerance=0.0, on_outside="differs", implied=None,
          implied_comparison="==", implied_tolerance=0.0):
    """The verdict of a record from its fields.

    Parameters
    ----------
    value : float or None
        ctlcc's value; None: not yet checked.
    target : float
        The published number, or the threshold of the measurable form.
    comparison : {"==", "<=", ">="}
    tolerance : float
        Absolute, in the record's unit.
    on_outside : {"differs", "printed-error"}
        The verdict when *value* is outside.
    implied : float, optional
        What the paper's own numbers or set-up imply for *target*.
    implied_comparison : {"==", "<=", ">="}
        How *target* must relate to *implied*.
    implied_tolerance : float
        Finite, >= 0.

    Returns
    -------
    str
        One of :data:`VERDICTS`.

    Raises
    ------
    ParameterError
        As :func:`within`, for either comparison; an unknown *on_outside*.
    """
    check_choice("on_outside", on_outside, OUTSIDE_VERDICTS)
    check_choice("comparison", comparison, COMPARISONS)
    check_choice("implied_comparison", implied_comparison, COMPARISONS)
    target = float(check_finite("target", target, scalar=True))
    tolerance = float(check_nonnegative("tolerance", tolerance, scalar=True))
    implied_tolerance = float(check_nonnegative("implied_tolerance", implied_tolerance,
                                                scalar=True))
    if value is not None:
        value = float(_as_float("value", value, scalar=True))
    if implied is not None:
        implied = float(check_finite("implied", implied, scalar=True))
        if not within(target, implied, implied_comparison, implied_tolerance):
            return "paper-inconsistent"
    if value is None:
        return "not yet checked"
    return "reproduced" if within(value, target, comparison, tolerance) else on_outside


@dataclass(frozen=True)
class Claim:
    """One claim of a paper (or one consistency check) and what ctlcc found.

    Attributes
    ----------
    id : str
        Stable identifier, ``<paper>-<location>-<slug>``.
    paper : str
        Key of :data:`ctlcc.references.REFERENCES`.
    location : str
        Equation, figure, table or section ('eq. (4)', 'Fig. 4.8', '§V-A').
    claim : str
        For a paper claim, the paper's own words; for a consistency check,
        what ctlcc checks.
    published : float, str or None
        The paper's value as printed (a number, or the statement of a
        qualitative claim); for a consistency check, the model's prediction.
    value : float or None
        ctlcc's value (mean over seeds where random); None if not yet checked.
    verdict : str
        One of :data:`VERDICTS`; must be :func:`judge` of the fields below.
    evidence : str
        Where it is shown: ``;``-separated functions, tests, report figures.
    reason : str
        What was measured and, unless reproduced, by how much and why it
        differs.
    spread : float or None
        Standard deviation over seeds, None where deterministic.
    unit : str
        Unit of *target*, *value* and *tolerance*, '' for pure numbers.
    seeds : tuple of int
        Seeds of the runs behind *value* (empty for analytic claims).
    kind : str
        One of :data:`KINDS`.
    target : float or None
        The number *value* is compared with (default: *published* when it
        is a number).
    comparison : str
        One of :data:`COMPARISONS`.
    tolerance : float or None
        Absolute, in *unit*; required unless not yet checked.
    tolerance_basis : str
        Why the tolerance is that wide: each part (printed precision, a
        figure's read-off, the paper's "about", 2 x the standard error of
        ctlcc's mean over seeds).
    measurable_form : str
        The quantity *value* is (what a qualitative claim is judged by).
    on_outside : str
        One of :data:`OUTSIDE_VERDICTS`.
    implied : float or None
        What the paper's own numbers or set-up imply for *target*.
    implied_comparison : str
    implied_tolerance : float or None
    implied_basis : str
        How *implied* follows from the paper.
    inventory_id : str
        The statement of ``data/inventory/<paper>.csv`` this record judges.
    other_evidence : str
        Further evidence on the same sentence that does not decide the
        verdict (another reading, the analytic model beside the simulation).
    """

    id: str
    paper: str
    location: str
    claim: str
    published: object = None
    value: object = None
    verdict: str = "not yet checked"
    evidence: str = ""
    reason: str = ""
    spread: object = None
    unit: str = ""
    seeds: tuple = field(default_factory=tuple)
    kind: str = "paper"
    target: object = None
    comparison: str = "=="
    tolerance: object = None
    tolerance_basis: str = ""
    measurable_form: str = ""
    on_outside: str = "differs"
    implied: object = None
    implied_comparison: str = "=="
    implied_tolerance: object = None
    implied_basis: str = ""
    inventory_id: str = ""
    other_evidence: str = ""

    def __post_init__(self):
        try:
            reference(self.paper)
        except ParameterError as err:  # reference() names its argument 'key'
            raise ParameterError("paper" + str(err)[len("key"):]) from None
        for name in ("location", "claim", "evidence", "reason", "unit", "tolerance_basis",
                     "measurable_form", "implied_basis", "inventory_id", "other_evidence"):
            if not isinstance(getattr(self, name), str):
                raise ParameterError(f"{name} must be a string, got {getattr(self, name)!r:.80}")
        if not isinstance(self.id, str) or not self.id:
            raise ParameterError(f"id must be a non-empty string, got {self.id!r}")
        if self.verdict not in VERDICTS:
            raise ParameterError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")
        if self.kind not in KINDS:
            raise ParameterError(f"kind must be one of {KINDS}, got {self.kind!r} (claim "
                                 f"{self.id!r})")
        for name, options in (("comparison", COMPARISONS), ("implied_comparison", COMPARISONS),
                              ("on_outside", OUTSIDE_VERDICTS)):
            if getattr(self, name) not in options:
                raise ParameterError(f"{name} must be one of {options}, got "
                                     f"{getattr(self, name)!r} (claim {self.id!r})")
        if self.spread is not None and not (_is_number(self.spread) and math.isfinite(self.spread)
                                            and self.spread >= 0):
            raise ParameterError(f"spread must be a finite number >= 0 or None, got {self.spread!r}")
        for name in ("tolerance", "implied_tolerance"):
            value = getattr(self, name)
            if value is not None and not (_is_number(value) and math.isfinite(value)
                                          and value >= 0):
                raise ParameterError(f"{name} must be a finite number >= 0 or None, got "
                                     f"{value!r} (claim {self.id!r})")
        if self.target is None and _is_number(self.published):
            object.__setattr__(self, "target", float(self.published))
        if self.verdict == "not yet checked":
            if self.implied is not None and self.target is not None:
                self._check_verdict()
            return
        if self.verdict != "reproduced" and not self.reason:
            raise ParameterError(f"reason must say why the verdict is {self.verdict!r} (claim "
                                 f"{self.id!r}), got {self.reason!r}")
        for name in ("target", "tolerance", "value"):
            if not _is_number(getattr(self, name)):
                raise ParameterError(f"{name} must be a number for a checked claim (verdict "
                                     f"{self.verdict!r}), got {getattr(self, name)!r} (claim "
                                     f"{self.id!r})")
        if not (math.isfinite(self.tolerance) and self.tolerance >= 0):
            raise ParameterError(f"tolerance must be a finite number >= 0, got "
                                 f"{self.tolerance!r} (claim {self.id!r})")
        if not self.tolerance_basis:
            raise ParameterError(f"tolerance_basis must say why the tolerance is "
                                 f"{self.tolerance!r} (claim {self.id!r})")
        self._check_verdict()

    def _check_verdict(self):
        expected = judge(self.value if self.verdict != "not yet checked" else None, self.target,
                         self.comparison, self.tolerance or 0.0, self.on_outside, self.implied,
                         self.implied_comparison, self.implied_tolerance or 0.0)
        if expected != self.verdict:
            raise ParameterError(
                f"verdict must follow from the record: claim {self.id!r} has value "
                f"{self.value!r}, target {self.target!r} {self.comparison} tolerance "
                f"{self.tolerance!r}" + (f", implied {self.implied!r}" if self.implied is not None
                                         else "") + f": {expected!r}, not {self.verdict!r}")

    # --- derived ----------------------------------------------------------------------

    @property
    def stderr(self):
        """Standard error of ctlcc's mean over the seeds (None if deterministic)."""
        if self.spread is None or len(self.seeds) < 2:
            return None
        return float(self.spread) / math.sqrt(len(self.seeds))

    @property
    def difference(self):
        """``value - target`` (None unless both are numbers)."""
        if _is_number(self.value) and _is_number(self.target):
            return float(self.value) - float(self.target)
        return None

    @property
    def excess(self):
        """How far *value* lies outside its tolerance, in its unit (0 when within)."""
        if self.difference is None or self.tolerance is None:
            return None
        d = self.difference
        if math.isnan(d):
            return math.nan
        if self.comparison == "<=":
            return max(0.0, d - self.tolerance)
        if self.comparison == ">=":
            return max(0.0, -d - self.tolerance)
        return max(0.0, abs(d) - self.tolerance)

    def as_row(self):
        """The record as a flat dict (the columns of ``claims.csv`` but the source)."""
        return {
            "id": self.id, "kind": self.kind, "paper": self.paper, "location": self.location,
            "inventory_id": self.inventory_id, "claim": self.claim,
            "published": self.published, "unit": self.unit,
            "measurable_form": self.measurable_form, "target": self.target,
            "comparison": self.comparison, "tolerance": self.tolerance,
            "tolerance_basis": self.tolerance_basis, "value": self.value,
            "spread": self.spread, "stderr": self.stderr,
            "seeds": " ".join(str(s) for s in self.seeds), "difference": self.difference,
            "on_outside": self.on_outside, "implied": self.implied,
            "implied_comparison": self.implied_comparison if self.implied is not None else "",
            "implied_tolerance": self.implied_tolerance if self.implied is not None else None,
            "implied_basis": self.implied_basis, "verdict": self.verdict,
            "reason": self.reason, "other_evidence": self.other_evidence,
            "evidence": self.evidence,
        }


def _is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)
