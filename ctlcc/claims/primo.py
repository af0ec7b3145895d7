# ctlcc.claims.primo - Primo's limit-cycle model against the packet engine (consistency)
"""Units of Chatté, Ducourthial & Niculescu (2006) outside the simulation study.

The paper's §V numbers (the queue "about 10 %" full, the "98 %" fairness)
are judged once, on the simulation study (:mod:`ctlcc.claims.primo_sim`),
with ctlcc's loop models as other evidence; what remains here is the
consistency of ctlcc's own limit-cycle model with ctlcc's packet engine.
Records in ``data/ledger_primo.csv``.

References
----------
Chatté, Ducourthial & Niculescu (2006), Algorithm 1, §III-E.
"""

from ._common import check_points
from .registry import unit

__all__ = []


@unit("primo-limit-cycle-*", section="crosscheck", needs="primo_limit_cycle",
      evidence="primo_limit_cycle_crosscheck; crosscheck_summary; crosscheck_points; "
               "ctlcc.crosscheck.primo_limit_cycle")
def limit_cycle(check):
    return check_points(check, "primo-limit-cycle")
