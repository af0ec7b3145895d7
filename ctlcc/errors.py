# ctlcc.errors - the package's exception classes
"""Exception classes raised by ctlcc."""

__all__ = ["CtlccError", "ParameterError", "UnstableLoopError", "ConservationError"]


class CtlccError(Exception):
    """Base class of every exception ctlcc raises on purpose."""


class ParameterError(CtlccError, ValueError):
    """An argument is outside its valid range.

    The message names the argument, the valid range and the value found.
    """


class UnstableLoopError(CtlccError, ValueError):
    """A steady-state quantity was asked of an unstable closed loop.

    Attributes
    ----------
    spectral_radius : float
        Largest pole magnitude of the loop that was asked.
    """

    def __init__(self, message, spectral_radius=None):
        super().__init__(message)
        self.spectral_radius = spectral_radius


class ConservationError(CtlccError, RuntimeError):
    """A simulation ended with packets unaccounted for."""
