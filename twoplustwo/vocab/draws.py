"""Draws of cards: every t-card draw from m cards in order, and the mark of a hole card dealt at random.

The combinatorics the kernels (both backends' enumeration), the hands
(suit isomorphism) and the odds (Omaha) all draw from: one home, below
them all.

>>> draw_index(4, 2).tolist()
[[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

__all__ = ["RANDOM", "draw_index"]

#: The byte of both cards of a player dealt a uniformly random hand, in the
#: rows of hole cards a sampling kernel takes (``Walker.sample_games``).
RANDOM = 255


@lru_cache(maxsize=8)
def draw_index(m: int, t: int) -> npt.NDArray[np.uint8]:
    """Every t-subset of ``range(m)`` (m <= 52) in lexicographic order, one per row, read-only.

    >>> draw_index(5, 3)[[0, 1, -1]].tolist()
    [[0, 1, 2], [0, 1, 3], [2, 3, 4]]
    >>> draw_index(3, 0).shape  # the one empty draw
    (1, 0)
    """
    rows = np.arange(m, dtype=np.uint8)[:, None]
    for _ in range(1, t):
        # Each row's children append each card above its last, in order.
        last = rows[:, -1].astype(np.intp)
        cnt = m - 1 - last
        starts = np.cumsum(cnt) - cnt
        added = np.repeat(last + 1 - starts, cnt) + np.arange(int(cnt.sum()))
        rows = np.column_stack([np.repeat(rows, cnt, axis=0), added.astype(np.uint8)])
    rows = rows if t else np.zeros((1, 0), dtype=np.uint8)
    rows.setflags(write=False)
    return rows
