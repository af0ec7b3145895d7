# ctlcc.bounds.fairness - Jain's fairness index
"""Jain's fairness index, as STTP (Wade, Kara & Dew (2000), §IV-B.1) uses it."""

from __future__ import annotations

import warnings

import numpy as np
from numpy.typing import ArrayLike

from ..errors import ParameterError

__all__ = ["jain_index", "jain_fairness"]


def jain_index(x: ArrayLike, axis: int = -1) -> float | np.ndarray:
    """Jain's fairness index ``(sum x)^2 / (n sum x^2)``.

    1 when every share is equal, 1/n when one flow takes everything.  The
    STTP paper's OCR prints ``(sum x)^2 / sum x^2`` without the ``n``; its
    quoted values (0.99, 0.84, 0.75, 0.98 for Table II) need the ``n``.

    Parameters
    ----------
    x : array_like
        Throughputs, >= 0, not all zero along *axis*. [any rate]
    axis : int, optional
        Axis holding the flows.

    Returns
    -------
    float or numpy.ndarray
        Index in [1/n, 1]. [1]

    References
    ----------
    Jain, Chiu & Hawe (1984), DEC-TR-301; Wade, Kara & Dew (2000), §IV-B.1.

    Examples
    --------
    >>> round(jain_index([22899, 9108]), 2)      # STTP 9:1, Table II
    0.84
    >>> jain_index([[1, 1], [1, 0]])
    array([1. , 0.5])
    """
    arr = np.asarray(x, dtype=float)
    if arr.ndim == 0 or arr.shape[axis] == 0:
        raise ParameterError(f"x must be an array with at least one flow, got {x!r}")
    if np.any(~np.isfinite(arr)) or np.any(arr < 0):
        raise ParameterError("x must hold finite throughputs >= 0")
    total = arr.sum(axis=axis)
    squares = (arr * arr).sum(axis=axis)
    if np.any(squares == 0):
        raise ParameterError("x must not be all zero along axis (the index is undefined)")
    out = total * total / (arr.shape[axis] * squares)
    return float(out) if np.ndim(out) == 0 else out


def jain_fairness(x: ArrayLike, axis: int = -1) -> float | np.ndarray:
    """Deprecated name of :func:`jain_index`.

    .. deprecated:: 0.2
       Jain's index has one name in ctlcc, ``jain_index`` (as in
       :mod:`ctlcc.sim`); this alias will be removed.
    """
    warnings.warn("jain_fairness is deprecated; use ctlcc.jain_index (same arguments)",
                  DeprecationWarning, stacklevel=2)
    return jain_index(x, axis=axis)
