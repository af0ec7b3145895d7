# ctlcc.bounds - closed-form throughput formulas and their symbolic derivations
"""Closed-form throughput bounds (Mathis, PFTK/TFRC, IFTP, CBRAA, STTP)."""

__all__ = []
