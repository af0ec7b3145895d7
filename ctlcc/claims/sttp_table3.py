# ctlcc.claims.sttp_table3 - STTP's Table III cells, one record each, on ctlcc's Experiment 1
"""Units of single cells of Wade, Kara & Dew (2000)'s Table III.

Table III is Experiment 1's raw data: for 10, 20, ..., 200 sources of Reno,
Vegas and STTP started 4 s apart on Fig. 3's dumbbell (900 s), the bytes all
sources send and drop, and the mean, highest and lowest bytes one source
sends.  Each printed cell is one record of ``data/ledger_sttp.csv``
(``sttp-table3-cell-<n>src-<protocol>-<column>``), judged against the same
column of ctlcc's run (:func:`ctlcc.experiments.sttp.experiment1`, the
ledger's run on the paper's 20 counts, provided by
:mod:`ctlcc.claims.sttp_sim`).  The ten-source STTP drop is judged by
``sttp-table3-experiment1-sim`` (:mod:`ctlcc.claims.sttp_sim`) and has no
second record here.

References
----------
Wade, Kara & Dew (2000), §IV-A-B, Appendix, Table III.
"""

from .registry import Measurement, unit

__all__ = ["COLUMNS", "PROTOCOLS", "table3_cell_ids", "cell_value"]

_SECTION = "sttp_sim"
_EV = "ctlcc.claims.sttp_table3; ctlcc.experiments.sttp.experiment1"
#: Table III's columns: id slug -> attribute of ``Experiment1Result``.
COLUMNS = {"bytes-tx": "bytes_tx", "bytes-drop": "bytes_drop", "mean-bytes": "mean_bytes",
           "high-bytes": "high_bytes", "low-bytes": "low_bytes"}
#: Table III's protocols: id slug -> name in ``Experiment1Result.protocols``.
PROTOCOLS = {"reno": "Reno", "vegas": "Vegas", "sttp": "STTP"}
#: Table III's source counts (10, 20, ..., 200).
_COUNTS = tuple(range(10, 201, 10))
#: Judged by another record (``sttp-table3-experiment1-sim``).
_ELSEWHERE = ("sttp-table3-cell-10src-sttp-bytes-drop",)


def table3_cell_ids():
    """Table III's cells with a record here: ``{id: (protocol, sources, attribute)}``.

    Returns
    -------
    dict
        299 entries: 20 counts x 3 protocols x 5 columns, less the ten-source
        STTP drop.

    Examples
    --------
    >>> ids = table3_cell_ids()
    >>> len(ids), ids["sttp-table3-cell-30src-vegas-high-bytes"]
    (299, ('Vegas', 30, 'high_bytes'))
    """
    out = {}
    for n in _COUNTS:
        for slug, protocol in PROTOCOLS.items():
            for col, attr in COLUMNS.items():
                cid = f"sttp-table3-cell-{n}src-{slug}-{col}"
                if cid not in _ELSEWHERE:
                    out[cid] = (protocol, n, attr)
    return out


def cell_value(e1, protocol, n, attr):
    """One cell of an Experiment 1 result, or None where the run lacks it. [bytes]

    Parameters
    ----------
    e1 : Experiment1Result
        Or any object with ``protocols``, ``counts`` and the column arrays
        ``[protocol, count]``.
    protocol : str
        A name in ``e1.protocols`` (``"Reno"``, ``"Vegas"``, ``"STTP"``).
    n : int
        Number of sources. [1]
    attr : str
        A value of :data:`COLUMNS`.

    Returns
    -------
    float or None

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> import numpy as np
    >>> e1 = SimpleNamespace(protocols=("Reno",), counts=(10, 20),
    ...                      bytes_tx=np.array([[5.0, 7.0]]))
    >>> cell_value(e1, "Reno", 20, "bytes_tx"), cell_value(e1, "Reno", 30, "bytes_tx")
    (7.0, None)
    """
    if protocol not in e1.protocols or n not in e1.counts:
        return None
    return float(getattr(e1, attr)[e1.protocols.index(protocol), e1.counts.index(n)])


def _published():
    from ..experiments.sttp import published_table3

    pub = published_table3()
    return {(p, int(n), attr): float(pub[p][col][k])
            for p in pub
            for k, n in enumerate(pub[p]["num_sources"])
            for attr, col in (("bytes_tx", "bytes_tx"), ("bytes_drop", "bytes_drop"),
                              ("mean_bytes", "mean_bytes"), ("high_bytes", "high_bytes"),
                              ("low_bytes", "low_bytes"))}


@unit(*table3_cell_ids(), section=_SECTION, needs="experiment1", evidence=_EV)
def table3_cells(e1):
    pub = _published()
    out = {}
    for cid, (protocol, n, attr) in table3_cell_ids().items():
        value = cell_value(e1, protocol, n, attr)
        if value is None:                       # a reduced run: that cell is not measured
            continue
        paper = pub.get((protocol, n, attr))
        rel = ("" if paper is None or paper == 0
               else f" ({100 * (value - paper) / paper:+.1f} % of the paper's)")
        j, i = e1.counts.index(n), e1.protocols.index(protocol)
        out[cid] = Measurement(
            value=value,
            reason=f"{n} {protocol} sources in ctlcc's {e1.duration:g}-s run: "
                   f"{attr.replace('_', ' ')} {value:.0f} B{rel}; the run's row: sent "
                   f"{e1.bytes_tx[i, j]:.0f} B, dropped {e1.bytes_drop[i, j]:.0f} B, per "
                   f"source mean {e1.mean_bytes[i, j]:.0f}, high {e1.high_bytes[i, j]:.0f}, "
                   f"low {e1.low_bytes[i, j]:.0f} B")
    return out
