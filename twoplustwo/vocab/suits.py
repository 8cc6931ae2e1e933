"""Suit isomorphism: hands that differ only by a renaming of the suits play alike. Its one home.

The 24 renamings of the four suits act on cards (:data:`SUIT_PERMS`,
:data:`PERM_CARDS`). Under them:

- :func:`canonical_boards`: one board of each class of five-card boards,
  with the number of boards it stands for (preflop tables, strength), and
  :func:`canonical_flops`: the same for the 1,755 classes of flops (board
  reports);
- :func:`renamings_keeping`: the renamings that keep a board and dead
  cards, and :func:`suit_classes`: deals of hole cards up to those (exact
  equity counts one deal of each class);
- :func:`pair_keys`: deals of two combos up to every renaming (preflop
  matchups);
- hands dealt in rounds get dense indices of their classes in
  :mod:`twoplustwo.vocab.indexing` (the layout) and
  :class:`twoplustwo.hands.indexer.HandIndexer`.

>>> SUIT_PERMS.shape, PERM_CARDS.shape
((24, 4), (24, 52))
>>> [int(c) for c in PERM_CARDS[23, [0, 1, 2, 3]]]  # the last renaming reverses the suits
[3, 2, 1, 0]
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt

from twoplustwo.vocab.combos import COMBO_ROW, COMBOS
from twoplustwo.vocab.draws import draw_index

__all__ = [
    "CARDS",
    "N_CANONICAL_BOARDS",
    "N_CANONICAL_FLOPS",
    "PERM_CARDS",
    "SUIT_PERMS",
    "canonical_boards",
    "canonical_flops",
    "combo_renamings",
    "deal_classes",
    "pair_keys",
    "renamings_keeping",
    "suit_classes",
]

#: Five-card boards up to a permutation of the suits.
N_CANONICAL_BOARDS = 134_459
#: Flops up to a permutation of the suits.
N_CANONICAL_FLOPS = 1_755

#: The 24 permutations of the suits (``SUIT_PERMS[p, s]`` is where suit ``s`` goes).
SUIT_PERMS = np.array(
    [[a, b, c, d] for a in range(4) for b in range(4) for c in range(4) for d in range(4) if len({a, b, c, d}) == 4],
    dtype=np.uint8,
)
#: Every card int, 0..51.
CARDS = np.arange(52, dtype=np.uint8)
#: The 24 permutations as card-to-card maps (``PERM_CARDS[p, c]`` is where card ``c`` goes).
PERM_CARDS = (CARDS & 0xFC) | SUIT_PERMS[:, CARDS & 3]
for _shared in (SUIT_PERMS, CARDS, PERM_CARDS):
    _shared.setflags(write=False)  # every caller shares these: none may change them
del _shared

# A set of cards as its four suits' 13-bit rank masks (suit s at bits 13s..13s+12): renaming the suits permutes
# the masks, so the masks sorted name the set's class.
_SUIT_RANK_BIT = np.left_shift(np.uint64(1), (13 * (CARDS.astype(np.uint64) & np.uint64(3)) + (CARDS >> 2)))
_SUIT_SHIFTS = np.array([0, 13, 26, 39], dtype=np.uint64)


def _class_keys(masks: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """Each mask's four suit masks, sorted, as one key: equal keys, and only they, for sets equal up to suits."""
    suits = np.sort((masks[:, None] >> _SUIT_SHIFTS) & np.uint64(0x1FFF), axis=1)
    keys: npt.NDArray[np.uint64] = (suits << _SUIT_SHIFTS).sum(axis=1)
    return keys


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
    bit = _SUIT_RANK_BIT
    keys: list[npt.NDArray[np.uint64]] = []
    counts: list[npt.NDArray[np.int64]] = []
    for first in range(48):
        rest = draw_index(51 - first, 4) + np.uint8(first + 1)
        mask = bit[first] | np.bitwise_or.reduce(bit[rest], axis=1)
        key, count = np.unique(_class_keys(mask), return_counts=True)
        keys.append(key)
        counts.append(count.astype(np.int64))
    key, where = np.unique(np.concatenate(keys), return_inverse=True)
    weights = np.bincount(where, weights=np.concatenate(counts)).astype(np.int64)
    held = (key[:, None] & bit) != 0
    boards = np.nonzero(held)[1].astype(np.uint8).reshape(-1, 5)
    if len(boards) != N_CANONICAL_BOARDS or int(weights.sum()) != comb(52, 5):
        raise AssertionError("the canonical boards do not cover every board once")
    boards.setflags(write=False)
    weights.setflags(write=False)
    return boards, weights


@functools.lru_cache(maxsize=1)
def canonical_flops() -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    """The 1,755 flops up to a permutation of the suits, and how many of the 22,100 flops each stands for.

    Returns ``(flops, weights)``: ``(1755, 3)`` sorted card ints, each the
    least flop of its class in lexicographic order, in that order, and the
    class sizes (4 to 24), which add up to C(52, 3). Both are read-only.

    >>> flops, weights = canonical_flops()
    >>> len(flops), int(weights.sum()), flops[0].tolist(), int(weights[0])
    (1755, 22100, [0, 1, 2], 4)
    """
    every = draw_index(52, 3)
    mask = np.bitwise_or.reduce(_SUIT_RANK_BIT[every], axis=1)
    _, first, weights = np.unique(_class_keys(mask), return_index=True, return_counts=True)
    order = np.argsort(first)
    flops = np.ascontiguousarray(every[first[order]])
    counts = weights[order].astype(np.int64)
    if len(flops) != N_CANONICAL_FLOPS or int(counts.sum()) != comb(52, 3):
        raise AssertionError("the canonical flops do not cover every flop once")
    flops.setflags(write=False)
    counts.setflags(write=False)
    return flops, counts


def suit_classes(
    holes: npt.NDArray[np.uint8], known: Sequence[int], dead: Sequence[int]
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.intp]]:
    """The deals up to the renamings of suits that keep the board and the dead cards, and where each deal went.

    ``holes`` is ``(deals, players, 2)``. Returns ``(classes, inverse)``: one
    ``(classes, players, 2)`` deal per class (the least, as combo rows) and
    each deal's class. Deals of one class have equal counts, player by
    player, since renaming the suits maps their boards onto each other.

    >>> aa = np.array([[[51, 50]], [[49, 48]], [[51, 48]]], dtype=np.uint8)  # AsAh, AdAc, AsAc
    >>> classes, inverse = suit_classes(aa, [], [])
    >>> len(classes), inverse.tolist()
    (1, [0, 0, 0])
    >>> len(suit_classes(aa, [50], [])[0])  # with Ah on the board: AsAh and AdAc differ
    2
    """
    classes, inverse = deal_classes(holes, known, dead)
    return classes, np.arange(len(holes)) if inverse is None else inverse


@functools.lru_cache(maxsize=256)
def renamings_keeping(known: tuple[int, ...], dead: tuple[int, ...]) -> npt.NDArray[np.integer[Any]]:
    """The renamings of suits (rows of ``PERM_CARDS``, the identity first) that keep the sorted board and dead cards.

    >>> len(renamings_keeping((), ())), len(renamings_keeping((51,), ())), len(renamings_keeping((51,), (46,)))
    (24, 6, 2)
    """
    keeps = np.ones(len(PERM_CARDS), dtype=bool)
    for group in (np.array(known, dtype=np.uint8), np.array(dead, dtype=np.uint8)):
        keeps &= (np.sort(PERM_CARDS[:, group], axis=1) == group).all(axis=1)
    kept = PERM_CARDS[keeps]
    kept.setflags(write=False)  # shared by every call with these cards
    return kept


def deal_classes(
    holes: npt.NDArray[np.uint8], known: Sequence[int], dead: Sequence[int]
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.intp] | None]:
    """:func:`suit_classes`, with None for ``inverse`` when every deal is its own class, in order: ``holes``."""
    cards = tuple(sorted(int(c) for c in known)), tuple(sorted(int(c) for c in dead))
    renamings = renamings_keeping(*cards)
    if len(renamings) == 1:  # the identity alone
        return holes, None
    if holes.shape[1] <= 5:
        return _classes_by_key(combo_renamings(*cards), holes)
    least = None
    for p in renamings:
        mapped = p[holes]
        rows = COMBO_ROW[mapped[..., 0], mapped[..., 1]]
        if least is None:
            least = rows
            continue
        # Keep each deal's lexicographically least image.
        differ = rows != least
        first = differ.argmax(axis=1)
        at = np.arange(len(rows))
        less = differ.any(axis=1) & (rows[at, first] < least[at, first])
        least[less] = rows[less]
    assert least is not None  # the identity keeps everything
    classes, inverse = np.unique(least, axis=0, return_inverse=True)
    return COMBOS[classes], inverse.reshape(-1)


@functools.lru_cache(maxsize=256)
def combo_renamings(known: tuple[int, ...], dead: tuple[int, ...]) -> npt.NDArray[np.int64]:
    """:func:`renamings_keeping` as maps of combo rows, ``(renamings, 1326)``.

    >>> int(combo_renamings((), ())[23, 1325])  # the last renaming takes AsAh (row 1325) to AdAc
    1320
    """
    renamings = renamings_keeping(known, dead)
    rows: npt.NDArray[np.int64] = COMBO_ROW[renamings[:, COMBOS[:, 0]], renamings[:, COMBOS[:, 1]]]
    rows.setflags(write=False)  # shared by every call with these cards
    return rows


def _classes_by_key(
    renamings: npt.NDArray[np.int64], holes: npt.NDArray[np.uint8]
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.intp]]:
    """:func:`deal_classes` of at most five players, a deal's combo rows (11 bits each) read as one integer.

    ``renamings`` map combo rows (:func:`combo_renamings`). The first
    player's row goes in the highest bits, so that the least integer is the
    lexicographically least image; every renaming of a slice of deals at
    once (this is time a second thread cannot share).
    """
    players = holes.shape[1]
    shifts = 11 * np.arange(players - 1, -1, -1, dtype=np.int64)
    rows = COMBO_ROW[holes[..., 0], holes[..., 1]]
    least = np.empty(len(holes), dtype=np.int64)
    step = max(1, (1 << 20) // (len(renamings) * players))
    for a in range(0, len(holes), step):
        least[a : a + step] = (renamings[:, rows[a : a + step]] << shifts).sum(axis=2).min(axis=0)
    keys, inverse = np.unique(least, return_inverse=True)
    return COMBOS[(keys[:, None] >> shifts) & 2047], inverse.reshape(-1)


def pair_keys(
    a: npt.NDArray[np.uint8], b: npt.NDArray[np.uint8]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """Canonical keys of the unordered deals of combo a[i] against b[i] under the 24 suit permutations.

    A key packs two combos of sorted cards, six bits a card; ``swapped`` says
    that b[i] plays the key's first combo.

    >>> aces, kings = np.array([[51, 50], [45, 44]], np.uint8), np.array([[47, 46], [49, 48]], np.uint8)
    >>> keys, swapped = pair_keys(aces, kings)  # AsAh vs KsKh, and AdAc vs KdKc: one deal, renamed
    >>> bool(keys[0] == keys[1]), swapped.tolist()  # the key lists the kings first, as AdAc vs KdKc played them
    (True, [True, False])
    >>> bool(pair_keys(kings, aces)[0][0] == keys[0]), pair_keys(kings, aces)[1].tolist()
    (True, [False, True])
    """
    best_ab = np.full(len(a), np.iinfo(np.int64).max)
    best_ba = best_ab.copy()
    # Column by column: reductions along an axis of length 2 cost far more.
    a0, a1, b0, b1 = a[:, 0], a[:, 1], b[:, 0], b[:, 1]
    for perm in PERM_CARDS.astype(np.int64):
        pa0, pa1, pb0, pb1 = perm[a0], perm[a1], perm[b0], perm[b1]
        x = (np.minimum(pa0, pa1) << 6) | np.maximum(pa0, pa1)
        y = (np.minimum(pb0, pb1) << 6) | np.maximum(pb0, pb1)
        np.minimum(best_ab, (x << 12) | y, out=best_ab)
        np.minimum(best_ba, (y << 12) | x, out=best_ba)
    swapped = best_ba < best_ab
    return np.where(swapped, best_ba, best_ab), swapped
