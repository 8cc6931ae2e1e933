"""Two-card combos and the 169 starting-hand classes: the vocabulary that ranges, equity and the preflop tables share.

:data:`COMBOS` lists the 1,326 combos of one deck in the order that
:func:`combo_index` numbers them; :data:`HAND_CLASSES` names the 169
classes of the 13 x 13 grid, and :data:`CLASS_OF` gives each combo's class:

>>> int(COMBOS[1325][0]), int(COMBOS[1325][1]), HAND_CLASSES[int(CLASS_OF[1325])]
(50, 51, 'AA')
>>> [len(CLASS_ROWS[HAND_CLASSES.index(c)]) for c in ("AA", "AKs", "AKo")]
[6, 4, 12]
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from twoplustwo.vocab.cards import RANKS, SUITS, CardLike, parse_card
from twoplustwo.vocab.inputs import int_array

__all__ = [
    "ALL_ROWS",
    "CLASS_OF",
    "CLASS_ROWS",
    "CLASS_SIZE",
    "COMBOS",
    "COMBO_ROW",
    "HAND_CLASSES",
    "N_COMBOS",
    "card_name",
    "combo_index",
    "combo_indices",
    "offsuit_class",
    "pair_class",
    "suited_class",
]

#: Number of two-card combos from one deck.
N_COMBOS = 1326


def _all_combos() -> npt.NDArray[np.uint8]:
    rows = [(low, high) for low in range(52) for high in range(low + 1, 52)]
    return np.array(rows, dtype=np.uint8)


#: Every combo as a row ``(c1, c2)`` with ``c1 < c2``, sorted by ``c1`` then
#: ``c2``: row 0 is ``(0, 1)`` (2c 2d), row 1325 is ``(50, 51)`` (Ah As).
COMBOS: npt.NDArray[np.uint8] = _all_combos()
COMBOS.setflags(write=False)
assert len(COMBOS) == N_COMBOS

#: ``COMBO_ROW[a, b]`` is the row of ``{a, b}`` in :data:`COMBOS`, either order; -1 for ``a == b``.
COMBO_ROW = np.full((52, 52), -1, dtype=np.intp)
COMBO_ROW[COMBOS[:, 0], COMBOS[:, 1]] = np.arange(N_COMBOS)
COMBO_ROW[COMBOS[:, 1], COMBOS[:, 0]] = np.arange(N_COMBOS)


def combo_index(c1: CardLike, c2: CardLike) -> int:
    """Return the row of :data:`COMBOS` that holds the two cards, in either order.

    >>> combo_index(0, 1), combo_index("As", "Ah"), combo_index(51, 50)
    (0, 1325, 1325)
    >>> combo_index("As", 51)
    Traceback (most recent call last):
    ...
    ValueError: the same card twice: As
    """
    a, b = parse_card(c1), parse_card(c2)
    if a == b:
        raise ValueError(f"the same card twice: {card_name(a)}")
    return int(COMBO_ROW[a, b])


def combo_indices(c1: npt.ArrayLike, c2: npt.ArrayLike) -> npt.NDArray[np.intp]:
    """Vectorised :func:`combo_index`: card ints ``0..51`` in two arrays that broadcast.

    >>> combo_indices([0, 51, 7], [1, 50, 6]).tolist()
    [0, 1325, 291]
    """
    a, b = int_array(c1, "cards"), int_array(c2, "cards")  # private copies: checked and looked up the same
    for arr in (a, b):
        if arr.size and (arr.min() < 0 or arr.max() > 51):
            raise ValueError("card out of range 0..51")
    out: npt.NDArray[np.intp] = COMBO_ROW[a, b]
    if out.size and out.min() < 0:
        raise ValueError("the same card twice in one combo")
    return out


# The 13 x 13 grid of classes has row and column i for rank 12 - i (aces
# first); pairs sit on the diagonal, suited classes above it, offsuit below.
def pair_class(rank: int) -> int:
    """The class (index into :data:`HAND_CLASSES`) of the pair of ``rank`` (0 deuces .. 12 aces)."""
    return (12 - rank) * 14


def suited_class(top: int, kicker: int) -> int:
    """The class of the suited hands of ranks ``top > kicker``."""
    return (12 - top) * 13 + (12 - kicker)


def offsuit_class(top: int, kicker: int) -> int:
    """The class of the offsuit hands of ranks ``top > kicker``."""
    return (12 - kicker) * 13 + (12 - top)


def _class_name(row: int, col: int) -> str:
    high, low = RANKS[12 - min(row, col)], RANKS[12 - max(row, col)]
    if row == col:
        return high + low
    return high + low + ("s" if row < col else "o")


#: The 169 starting-hand classes, the 13 x 13 grid read row by row: row ``i``
#: and column ``i`` stand for the ``i``-th highest rank, pairs are on the
#: diagonal, suited classes above it and offsuit ones below. So the order is
#: ``AA, AKs, AQs, .., A2s, AKo, KK, KQs, .., K2s, AQo, KQo, QQ, .., 32o, 22``
#: and ``HAND_CLASSES[13 * i + j]`` is the class at row ``i``, column ``j``.
HAND_CLASSES: tuple[str, ...] = tuple(_class_name(i, j) for i in range(13) for j in range(13))


def _class_of_combo(low: int, high: int) -> int:
    if low >> 2 == high >> 2:
        return pair_class(high >> 2)
    if low & 3 == high & 3:
        return suited_class(high >> 2, low >> 2)
    return offsuit_class(high >> 2, low >> 2)


#: The class of each row of :data:`COMBOS`, an index into :data:`HAND_CLASSES`.
CLASS_OF = np.array([_class_of_combo(int(a), int(b)) for a, b in COMBOS], dtype=np.intp)
#: The rows of :data:`COMBOS` of each class, in :data:`COMBOS` order.
CLASS_ROWS: tuple[npt.NDArray[np.intp], ...] = tuple(np.flatnonzero(CLASS_OF == c) for c in range(169))
#: Each class's number of combos: 6 for a pair, 4 suited, 12 offsuit.
CLASS_SIZE = np.bincount(CLASS_OF, minlength=169)
#: Every row of :data:`COMBOS`, 0..1325.
ALL_ROWS = np.arange(N_COMBOS, dtype=np.intp)
for _shared in (COMBO_ROW, CLASS_OF, CLASS_SIZE, ALL_ROWS, *CLASS_ROWS):
    _shared.setflags(write=False)  # every caller shares these: none may change them
del _shared


def card_name(card: int) -> str:
    """The two-character name of a card int, as ranges write it.

    >>> card_name(0), card_name(51)
    ('2c', 'As')
    """
    return RANKS[card >> 2] + SUITS[card & 3]
