"""The hand-value contract: 1..7462, higher is stronger, equal is a tie.

A value ``v`` is ``7463 - cactus_kev_rank``. Every value also has a
six-hex-digit *code* (seed 000): the category digit 0..8 followed by the
five significant ranks 0..c in order of significance, e.g. ``0x6999cc`` for
jacks full of aces. Codes sort exactly like hand strength, so the table of
all 7,462 codes in ascending order *is* the value scale: ``CODES[v]`` is the
code of value ``v`` (``CODES[0] == 0`` marks the invalid value 0).

>>> hex(int(CODES[7462]))  # royal flush
'0x8cba98'
>>> int(value_from_code(0x6999cc))
7260
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import numpy.typing as npt

__all__ = [
    "CATEGORIES",
    "CATEGORY_FIRST",
    "CATEGORY_LAST",
    "CODES",
    "N_VALUES",
    "value_from_code",
]

#: Number of distinct hand values (Cactus Kev's equivalence classes).
N_VALUES = 7462

#: Category names, indexed by the category digit of the code.
CATEGORIES: tuple[str, ...] = (
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
)


def _straight_highs() -> list[tuple[int, ...]]:
    # Five-high (the wheel) counts its ace as the lowest card.
    out = [(3, 2, 1, 0, 12)]
    out += [(h, h - 1, h - 2, h - 3, h - 4) for h in range(4, 13)]
    return out


def _all_codes() -> list[int]:
    ranks = range(12, -1, -1)  # descending, so combinations come out high-first
    straights = _straight_highs()
    straight_sets = {frozenset(s) for s in straights}
    shapes: list[tuple[int, tuple[int, ...]]] = []
    for five in combinations(ranks, 5):
        if frozenset(five) not in straight_sets:
            shapes.append((0, five))
            shapes.append((5, five))
    for s in straights:
        shapes.append((4, s))
        shapes.append((8, s))
    for p in ranks:
        others = [r for r in ranks if r != p]
        for k in combinations(others, 3):
            shapes.append((1, (p, p) + k))
        for k in combinations(others, 2):
            shapes.append((3, (p, p, p) + k))
        for k in others:
            shapes.append((6, (p, p, p, k, k)))
            shapes.append((7, (p, p, p, p, k)))
    for hi, lo in combinations(ranks, 2):
        for k in ranks:
            if k not in (hi, lo):
                shapes.append((2, (hi, hi, lo, lo, k)))
    codes = []
    for cat, r in shapes:
        code = cat
        for x in r:
            code = (code << 4) | x
        codes.append(code)
    return sorted(codes)


#: ``CODES[v]`` is the six-hex-digit code of hand value ``v`` (index 0 unused).
CODES: npt.NDArray[np.uint32] = np.array([0] + _all_codes(), dtype=np.uint32)
CODES.setflags(write=False)
assert len(CODES) == N_VALUES + 1

_cats = CODES >> 20
_cats[0] = 99  # value 0 belongs to no category
#: First and last value of each category, indexed like :data:`CATEGORIES`.
CATEGORY_FIRST: tuple[int, ...] = tuple(int(np.argmax(_cats == c)) for c in range(9))
CATEGORY_LAST: tuple[int, ...] = tuple(
    N_VALUES - int(np.argmax(_cats[::-1] == c)) for c in range(9)
)
del _cats


def value_from_code(code: int | npt.ArrayLike) -> npt.NDArray[np.uint16]:
    """Map six-hex-digit codes to hand values, raising on codes that are no hand.

    >>> value_from_code([0x43210c, 0x8cba98]).tolist()
    [5854, 7462]
    """
    c = np.asarray(code, dtype=np.int64)
    idx = np.searchsorted(CODES, c)
    ok = (idx <= N_VALUES) & (CODES[np.minimum(idx, N_VALUES)] == c) & (c != 0)
    if not np.all(ok):
        bad = c[~ok] if c.ndim else c
        raise ValueError(f"not a hand code: {hex(int(np.ravel(bad)[0]))}")
    return idx.astype(np.uint16)
