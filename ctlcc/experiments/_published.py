# ctlcc.experiments._published - the papers' published values for the experiment modules
"""Read a ``data/*_sim_published.csv`` table of published values (private)."""

from .. import _data
from ..errors import ParameterError

__all__ = ["read_published"]


def read_published(path, claim_id=None):
    """Rows of a published-values CSV, keyed by ``claim_id``.

    Parameters
    ----------
    path : str
        Name of a shipped data file (columns include ``claim_id``, ``value``,
        ``low``, ``high``; read through :mod:`ctlcc._data`).
    claim_id : str, optional
        One row's ``claim_id``; default: every row.

    Returns
    -------
    dict
        One row (numbers as float, blanks as None), or ``{claim_id: row}``.

    Raises
    ------
    ParameterError
        *claim_id* is not in the file; the message lists the valid ids.
    """
    rows = {}
    for row in _data.read_csv(path):
        for key in ("value", "low", "high"):
            row[key] = float(row[key]) if row[key] not in ("", None) else None
        rows[row["claim_id"]] = row
    if claim_id is None:
        return rows
    if not isinstance(claim_id, str) or claim_id not in rows:
        raise ParameterError(f"claim_id must be one of {sorted(rows)}, got {claim_id!r}")
    return rows[claim_id]
