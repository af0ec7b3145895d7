# ctlcc.claims - one record per paper claim that ctlcc checks
"""The claim record shared by cross-checks, published-value comparisons and experiments.

Every check of a paper's claim, analytic or simulated, produces a
:class:`Claim`.  The claims ledger (``claims.csv`` of ``ctlcc report``, the
``ctlcc claims`` command and the README's findings) is the list of these
records; nothing in it is typed by hand: the published value comes from
``data/`` with its source, ctlcc's value from the code that measured it.

Examples
--------
>>> c = Claim(id="stpd-4.3.3-poles", paper="stpd", location="§4.3.3",
...           claim="The example loop's poles are -0.5023, 0.8031±0.4155i, 0.8961.",
...           published=0.8961, value=0.89612, verdict="reproduced",
...           evidence="tests/analysis/test_stpd_core.py")
>>> c.verdict
'reproduced'
"""

import math
from dataclasses import dataclass, field

from .errors import ParameterError
from .references import reference

__all__ = ["VERDICTS", "Claim"]

#: Valid verdicts: reproduced; differs (the reason says by how much and why);
#: printed-error (the paper's own derivation gives another value);
#: not yet checked.
VERDICTS = ("reproduced", "differs", "printed-error", "not yet checked")


@dataclass(frozen=True)
class Claim:
    """One claim of a paper and what ctlcc found.

    Attributes
    ----------
    id : str
        Stable identifier, ``<paper>-<location>-<slug>``.
    paper : str
        Key of :data:`ctlcc.references.REFERENCES`.
    location : str
        Equation, figure, table or section ('eq. (4)', 'Fig. 4.8', '§V-A').
    claim : str
        The claim in one sentence.
    published : float, str or None
        The paper's value (a number, or text for a qualitative claim).
    value : float, str or None
        ctlcc's value (mean over seeds where random).
    spread : float or None
        Standard deviation over seeds, None where deterministic.
    verdict : str
        One of :data:`VERDICTS`.
    evidence : str
        Where it is shown: a function, test or figure path.
    reason : str
        One line on why it differs (required unless reproduced / not yet checked).
    unit : str
        Unit of *published* and *value*, '' for pure numbers.
    seeds : tuple of int
        Seeds of the runs behind *value* (empty for analytic claims).
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

    def __post_init__(self):
        try:
            reference(self.paper)
        except ParameterError as err:  # reference() names its argument 'key'
            raise ParameterError("paper" + str(err)[len("key"):]) from None
        for name in ("location", "claim", "evidence", "reason", "unit"):
            if not isinstance(getattr(self, name), str):
                raise ParameterError(f"{name} must be a string, got {getattr(self, name)!r:.80}")
        if self.verdict not in VERDICTS:
            raise ParameterError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")
        if not isinstance(self.id, str) or not self.id:
            raise ParameterError(f"id must be a non-empty string, got {self.id!r}")
        if self.verdict in ("differs", "printed-error") and not self.reason:
            raise ParameterError(f"reason must say why the verdict is {self.verdict!r} (claim "
                                 f"{self.id!r}), got {self.reason!r}")
        if self.spread is not None and not (isinstance(self.spread, (int, float))
                                            and not isinstance(self.spread, bool)
                                            and math.isfinite(self.spread) and self.spread >= 0):
            raise ParameterError(f"spread must be a finite number >= 0 or None, got {self.spread!r}")

    def as_row(self):
        """The record as a flat dict (the columns of ``claims.csv``)."""
        return {
            "id": self.id, "paper": self.paper, "location": self.location,
            "claim": self.claim, "published": self.published, "value": self.value,
            "spread": self.spread, "unit": self.unit, "verdict": self.verdict,
            "evidence": self.evidence, "reason": self.reason,
            "seeds": " ".join(str(s) for s in self.seeds),
        }
