# ctlcc.sim - fluid model and packet-level discrete-event mini-simulator
"""Simulators that act as independent witnesses of the analytic claims."""

from . import fluid

__all__ = ["fluid"]
