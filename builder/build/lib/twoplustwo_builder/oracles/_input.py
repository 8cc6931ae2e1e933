"""Shape and range checks shared by the oracles."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["as_hands"]


def as_hands(hands: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """Return ``hands`` as an ``(N, k)`` int64 array, k in 5..7, cards in 0..51.

    Oracles trust their callers about duplicate cards (checking them would
    dominate the cost), but a wrong shape or range is always an error.

    >>> as_hands([[0, 4, 8, 12, 17]]).shape
    (1, 5)
    """
    a = np.asarray(hands)
    if a.ndim == 1:
        a = a[None, :]
    if a.ndim != 2 or not 5 <= a.shape[1] <= 7:
        raise ValueError(f"hands must have shape (N, 5..7), got {a.shape}")
    if a.size and not np.issubdtype(a.dtype, np.integer):
        raise ValueError(f"hands must be integers, got dtype {a.dtype}")
    a = a.astype(np.int64, copy=False)
    if a.size and (a.min() < 0 or a.max() > 51):
        raise ValueError("cards must be in 0..51")
    return a
