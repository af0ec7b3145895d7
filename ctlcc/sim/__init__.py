# ctlcc.sim - fluid model and packet-level discrete-event mini-simulator
"""Simulators that act as independent witnesses of the analytic claims."""

__all__ = []
