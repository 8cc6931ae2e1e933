"""Seed 001's five-card evaluator by Cactus Kev: prime products and bit masks.

Each card is packed into one 32-bit word: a bit for its rank (bits 16..28),
a bit for its suit (bits 15..12 for clubs..spades), the rank (bits 8..11) and the rank's prime
(bits 0..7). Five cards then give

* a flush test: the AND of the words keeps a suit bit only if all five share it;
* a 13-bit rank mask: the OR of the words shifted down 16;
* a key unique to the rank multiset: the product of the five primes.

Flushes and straight flushes are looked up in ``FLUSHES[mask]``; hands of five
distinct ranks (high card, straight) in ``UNIQUE5[mask]``; the other 4,888
classes, which all repeat a rank, by binary search of their prime product in
``PRODUCTS``. The tables hold the common value ``7463 - Cactus Kev rank``
and are derived from the code table :data:`twoplustwo.vocab.values.CODES`.

Six and seven cards take the best of their 6 or 21 five-card subsets.

>>> int(evaluate([[48, 44, 40, 36, 32]])[0])  # royal flush in clubs
7462
>>> int(evaluate([[0, 5, 10, 15, 21]])[0])  # seven-high: 7-5-4-3-2 offsuit
1
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import numpy.typing as npt

from twoplustwo.vocab.values import CODES, N_VALUES

from ._input import as_hands

__all__ = [
    "CARDS",
    "FLUSHES",
    "PRIMES",
    "PRODUCTS",
    "PRODUCT_VALUES",
    "UNIQUE5",
    "evaluate",
]

#: The prime standing for each rank, deuce (2) .. ace (41).
PRIMES: tuple[int, ...] = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)


def _card_words() -> npt.NDArray[np.uint32]:
    words = np.zeros(52, dtype=np.uint32)
    for card in range(52):
        rank, suit = card >> 2, card & 3
        # Suit bits run c, d, h, s from bit 15 down, as in the seed.
        words[card] = (1 << (16 + rank)) | (1 << (15 - suit)) | (rank << 8) | PRIMES[rank]
    return words


def _tables() -> tuple[
    npt.NDArray[np.uint16],
    npt.NDArray[np.uint16],
    npt.NDArray[np.uint32],
    npt.NDArray[np.uint16],
]:
    flushes = np.zeros(1 << 13, dtype=np.uint16)
    unique5 = np.zeros(1 << 13, dtype=np.uint16)
    products: list[int] = []
    values: list[int] = []
    for value in range(1, N_VALUES + 1):
        code = int(CODES[value])
        category = code >> 20
        ranks = [(code >> shift) & 0xF for shift in (16, 12, 8, 4, 0)]
        if category in (5, 8):  # flush, straight flush
            flushes[sum(1 << r for r in ranks)] = value
        elif category in (0, 4):  # high card, straight
            unique5[sum(1 << r for r in ranks)] = value
        else:
            p = 1
            for r in ranks:
                p *= PRIMES[r]
            products.append(p)
            values.append(value)
    order = np.argsort(products)
    return (
        flushes,
        unique5,
        np.array(products, dtype=np.uint32)[order],
        np.array(values, dtype=np.uint16)[order],
    )


#: The packed 32-bit word of each card ``0..51``.
CARDS: npt.NDArray[np.uint32] = _card_words()
#: Value of a flush or straight flush, by the 13-bit mask of its ranks (else 0).
FLUSHES: npt.NDArray[np.uint16]
#: Value of a high card or straight, by the 13-bit mask of its ranks (else 0).
UNIQUE5: npt.NDArray[np.uint16]
#: Sorted prime products of the 4,888 classes with a repeated rank ...
PRODUCTS: npt.NDArray[np.uint32]
#: ... and their values, index for index.
PRODUCT_VALUES: npt.NDArray[np.uint16]
FLUSHES, UNIQUE5, PRODUCTS, PRODUCT_VALUES = _tables()
for _table in (CARDS, FLUSHES, UNIQUE5, PRODUCTS, PRODUCT_VALUES):
    _table.setflags(write=False)
del _table

# Five-card subsets of 5, 6 and 7 cards, as column indices.
_SUBSETS = {k: np.array(list(combinations(range(k), 5))) for k in (5, 6, 7)}
# Five-card hands per step: keeps a step's temporaries within the CPU caches.
_BATCH = 1 << 16


def _evaluate_words(w: npt.NDArray[np.uint32]) -> npt.NDArray[np.uint16]:
    # w: (N, 5) card words.
    c0, c1, c2, c3, c4 = w[:, 0], w[:, 1], w[:, 2], w[:, 3], w[:, 4]
    mask = (c0 | c1 | c2 | c3 | c4) >> 16
    flush = (c0 & c1 & c2 & c3 & c4 & 0xF000) != 0
    out: npt.NDArray[np.uint16] = np.where(flush, FLUSHES[mask], UNIQUE5[mask])
    # Only hands with a repeated rank (0 from both mask tables) pay for the
    # product and the binary search.
    rest = np.flatnonzero(out == 0)
    if len(rest):
        p = w[rest] & 0xFF
        product = p[:, 0] * p[:, 1] * p[:, 2] * p[:, 3] * p[:, 4]
        out[rest] = PRODUCT_VALUES[np.searchsorted(PRODUCTS, product)]
    return out


def evaluate(hands: npt.ArrayLike) -> npt.NDArray[np.uint16]:
    """Hand values (1..7462) of an ``(N, k)`` array of 5-, 6- or 7-card hands.

    Cards must be distinct within a hand; that is not checked.

    >>> evaluate([[0, 5, 10, 15, 48, 29, 46]]).tolist()  # 2c 3d 4h 5s Ac 9d Kh: the wheel
    [5854]
    """
    h = as_hands(hands)
    subsets = _SUBSETS[h.shape[1]]
    rows = _BATCH // len(subsets)
    out = np.empty(len(h), dtype=np.uint16)
    for lo in range(0, len(h), rows):
        words = CARDS[h[lo : lo + rows]]
        # (rows, subsets, 5) flattened to one batch of five-card hands;
        # mapping cards to words first keeps that batch at 4 bytes a card.
        values = _evaluate_words(words[:, subsets].reshape(-1, 5))
        out[lo : lo + len(words)] = values.reshape(len(words), -1).max(axis=1)
    return out
