"""Suit isomorphism: hands that differ only by a renaming of the suits play alike.

The 24 renamings of the four suits act on cards; :func:`canonical_boards`
gives one board of each class of five-card boards under them, with the
number of boards it stands for:

>>> SUIT_PERMS.shape, PERM_CARDS.shape
((24, 4), (24, 52))
>>> [int(c) for c in PERM_CARDS[23, [0, 1, 2, 3]]]  # the last renaming reverses the suits
[3, 2, 1, 0]
"""

from __future__ import annotations

import functools
from math import comb

import numpy as np
import numpy.typing as npt

from twoplustwo.vocab.draws import draw_index

__all__ = ["CARDS", "N_CANONICAL_BOARDS", "PERM_CARDS", "SUIT_PERMS", "canonical_boards"]

#: Five-card boards up to a permutation of the suits.
N_CANONICAL_BOARDS = 134_459

#: The 24 permutations of the suits (``SUIT_PERMS[p, s]`` is where suit ``s`` goes),
#: and the same as card-to-card maps (``PERM_CARDS[p, c]``).
SUIT_PERMS = np.array(
    [[a, b, c, d] for a in range(4) for b in range(4) for c in range(4) for d in range(4) if len({a, b, c, d}) == 4],
    dtype=np.uint8,
)
#: Every card int, 0..51.
CARDS = np.arange(52, dtype=np.uint8)
PERM_CARDS = (CARDS & 0xFC) | SUIT_PERMS[:, CARDS & 3]
for _shared in (SUIT_PERMS, CARDS, PERM_CARDS):
    _shared.setflags(write=False)  # every caller shares these: none may change them
del _shared


@functools.lru_cache(maxsize=1)
def canonical_boards() -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    """The 134,459 five-card boards up to a permutation of the suits, and how many boards each stands for.

    Returns ``(boards, weights)``: ``(134459, 5)`` sorted card ints and the
    orbit sizes (1 to 24), which add up to C(52, 5). Both are read-only and
    made once per process.

    >>> boards, weights = canonical_boards()
    >>> len(boards), int(weights.sum()), int(weights.max())
    (134459, 2598960, 24)
    """
    # A board is its four suits' 13-bit rank masks; renaming the suits
    # permutes the masks, so the masks sorted name the board's class.
    bit = np.left_shift(np.uint64(1), (13 * (CARDS.astype(np.uint64) & np.uint64(3)) + (CARDS >> 2)))
    keys: list[npt.NDArray[np.uint64]] = []
    counts: list[npt.NDArray[np.int64]] = []
    shifts = np.array([0, 13, 26, 39], dtype=np.uint64)
    for first in range(48):
        rest = draw_index(51 - first, 4) + np.uint8(first + 1)
        mask = bit[first] | np.bitwise_or.reduce(bit[rest], axis=1)
        suits = (mask[:, None] >> shifts) & np.uint64(0x1FFF)
        suits.sort(axis=1)
        key, count = np.unique((suits << shifts).sum(axis=1), return_counts=True)
        keys.append(key)
        counts.append(count.astype(np.int64))
    key, where = np.unique(np.concatenate(keys), return_inverse=True)
    weights = np.bincount(where, weights=np.concatenate(counts)).astype(np.int64)
    held = ((key[:, None] >> (13 * (CARDS.astype(np.uint64) & np.uint64(3)) + (CARDS >> 2))) & np.uint64(1)) != 0
    boards = np.nonzero(held)[1].astype(np.uint8).reshape(-1, 5)
    if len(boards) != N_CANONICAL_BOARDS or int(weights.sum()) != comb(52, 5):
        raise AssertionError("the canonical boards do not cover every board once")
    boards.setflags(write=False)
    weights.setflags(write=False)
    return boards, weights
