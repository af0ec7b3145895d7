# ctlcc.errors - the package's exception classes
"""Exception classes raised by ctlcc."""

__all__ = ["CtlccError", "ParameterError", "UnstableLoopError", "ConservationError", "LawError",
           "LinearisationError"]


class CtlccError(Exception):
    """Base class of every exception ctlcc raises on purpose."""


class ParameterError(CtlccError, ValueError):
    """An argument is outside its valid range.

    The message names the argument, the valid range and the value found.

    Attributes
    ----------
    got : str or None
        The value found, as the message shows it after "got" (``-1.0``,
        ``'1'``, ``a boolean True``), where the check that raised the error
        says it separately; None otherwise.  A caller that words the range
        its own way keeps the value's wording without parsing the message.
    """

    def __init__(self, *args, got=None):
        super().__init__(*args)
        self.got = got


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


class LawError(ParameterError, TypeError):
    """A user's control law cannot be used as given.

    Raised when a :class:`ctlcc.WindowLaw` or :class:`ctlcc.RateLaw` is
    built: wrong signature, gains or options, a memory length that does not
    match what the function returns, or a result that is not finite numbers.
    The message names the law and the argument.  Both a ``ValueError`` and a
    ``TypeError`` (as numpy's ``AxisError`` is both a ``ValueError`` and an
    ``IndexError``), so either ``except`` clause catches it.
    """


class LinearisationError(CtlccError, ValueError):
    """:func:`ctlcc.closed_loop` cannot linearise a law; the message says why.

    No fixed point, a law not differentiable at its fixed point, or a branch
    on a value the derivation keeps symbolic.
    """
