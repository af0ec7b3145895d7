# ctlcc.claims - the papers' claims as registered units, the record and the verdict rule
"""The claims ctlcc checks, one registered unit each, and the record they make.

* :mod:`ctlcc.claims.record` - :class:`Claim` (one record of the ledger)
  and :func:`judge` (the one verdict rule);
* :mod:`ctlcc.claims.registry` - :func:`unit` binds a measurement to its
  record declared in ``data/ledger_<paper>.csv``; :func:`evaluate` judges;
* per paper, the units, each beside what it measures (the modules of
  :data:`~ctlcc.claims.registry.MODULES`): the analytic records in
  :mod:`ctlcc.claims.stpd` (Xu 2002), :mod:`ctlcc.claims.iftp`,
  :mod:`ctlcc.claims.cbraa`, :mod:`ctlcc.claims.sttp` and
  :mod:`ctlcc.claims.others` (the models and standards ctlcc builds on);
  the simulation studies' in ``ctlcc.claims.<paper>_sim``; the cross-checks'
  after each check in :mod:`ctlcc.crosscheck`; the ST-PD thesis's
  experiments' after each experiment in :mod:`ctlcc.experiments.thesis`;
* :mod:`ctlcc.claims.inventory` - every statement of the papers' inventory
  that no checked record judges, as a ``not yet checked`` record.

A record's *kind* is ``paper`` (a sentence or number a paper states, in its
own words and precision) or ``consistency`` (ctlcc's model against ctlcc's
simulator, a wiring check, an invariant); the ledger counts them apart.

Examples
--------
>>> from ctlcc.claims import Claim, judge
>>> judge(0.31, 0.30, "==", 0.03)
'reproduced'
>>> Claim(id="stpd-x", paper="stpd", location="§4.3.3", claim="c", published=0.5,
...       value=0.9, tolerance=0.1, tolerance_basis="b", verdict="reproduced")
Traceback (most recent call last):
...
ctlcc.errors.ParameterError: verdict must follow from the record: ...
"""

from .record import (COMPARISONS, KINDS, OUTSIDE_VERDICTS, VERDICTS, Claim, judge,
                     within)
from .registry import (Measurement, Rule, Unit, evaluate, paper_claims, renamed, rules,
                       section_claims, sections, unit, units)

# the registry's building blocks (Measurement, Rule, Unit, unit) are importable from here
# for the units' modules; they are the contributor's API, documented in ctlcc.claims.registry
__all__ = ["VERDICTS", "KINDS", "COMPARISONS", "OUTSIDE_VERDICTS", "Claim", "judge", "within",
           "units", "rules", "renamed", "sections", "evaluate", "section_claims",
           "paper_claims"]
