# ctlcc.claims.sttp_cells - STTP's Table I and Table II cells, one record each, on ctlcc's runs
"""Units of single cells of Wade, Kara & Dew (2000)'s Tables I and II:
the packets sent and ACKs received in the six Table I rows ctlcc runs
(:func:`ctlcc.experiments.sttp.table1`; rows 5-6, multi-link chains, on
Fig. 2's four nodes), and each source's packets sent (and TCP Reno's drops with one and
two sources) in ctlcc's Table II runs (:func:`ctlcc.experiments.sttp.table2`,
sources numbered in start order).  The runs are those of
:mod:`ctlcc.claims.sttp_sim`.  Records in ``data/ledger_sttp.csv``.

References
----------
Wade, Kara & Dew (2000), §III-B (Table I), §IV-B.1 (Table II).
"""

from .registry import Measurement, unit

__all__ = ["table2_cell_ids"]

_SECTION = "sttp_sim"
_EV = "ctlcc.claims.sttp_cells; ctlcc.experiments.sttp"
_CONFIGS = {"reno": "TCP Reno", "9-1": "STTP 9:1", "5-5": "STTP 5:5", "1-9": "STTP 1:9"}


def table2_cell_ids():
    """The Table II cells with a record here: ``{id: (config, sources, source, 'tx'|'dropped')}``.

    Examples
    --------
    >>> table2_cell_ids()["sttp-table2-cell-4src-9-1-s3-tx"]
    ('STTP 9:1', 4, 3, 'tx')
    """
    out = {"sttp-table2-cell-1src-reno-s1-dropped": ("TCP Reno", 1, 1, "dropped")}
    for s in (1, 2):
        out[f"sttp-table2-cell-2src-reno-s{s}-dropped"] = ("TCP Reno", 2, s, "dropped")
    for n in (2, 4):
        for tag, config in _CONFIGS.items():
            for s in range(1, n + 1):
                out[f"sttp-table2-cell-{n}src-{tag}-s{s}-tx"] = (config, n, s, "tx")
    return out


_TABLE1 = [f"sttp-table1-row{k}-{what}-sim" for k in (1, 2, 3, 4, 5, 6) for what in ("packets-tx", "acks")
           if (k, what) != (1, "packets-tx")]          # row 1's packets: sttp-table1-sim-packets


@unit(*_TABLE1, section=_SECTION, needs="table1", evidence=_EV + ".table1")
def table1_cells(t1):
    out = {}
    for k, row in enumerate(t1.rows, start=1):
        for what, key, printed in (("packets-tx", "sent", "published_tx"),
                                   ("acks", "acks", "published_acks")):
            cid = f"sttp-table1-row{k}-{what}-sim"
            if cid in _TABLE1 and key in row:           # a result without ACK counts: no ACK cells
                out[cid] = Measurement(
                    value=float(row[key]),
                    reason=f"{row['network']}, {row['duration']:g} s: ctlcc's source sends "
                           f"{row['sent']} packets and receives {row.get('acks', '?')} ACKs "
                           f"(paper {row['published_tx']} and {row.get('published_acks', '?')}; "
                           f"the link carries {row['capacity']:g} packets in that time)")
    return out


@unit(*table2_cell_ids(), section=_SECTION, needs="table2", evidence=_EV + ".table2")
def table2_cells(t2):
    out = {}
    for cid, (config, n, s, what) in table2_cell_ids().items():
        if (config, n) not in t2.sent:        # a reduced run: that cell is not measured
            continue
        counts = (t2.sent if what == "tx" else t2.dropped)[config, n]
        out[cid] = Measurement(
            value=float(counts[s - 1]),
            reason=f"{config}, {n} source(s): ctlcc's sources send "
                   f"{', '.join(map(str, t2.sent[config, n]))} and lose "
                   f"{', '.join(map(str, t2.dropped[config, n]))} packets in {t2.duration:g} s")
    return out
