"""Stud hi/lo's low: the eight-or-better low of 5 to 7 cards, which needs no tables.

The high half of ``game="stud-hilo"`` is :func:`~twoplustwo.evaluate`'s (the
hold'em scale, as ``"stud"``). The low is the best five cards of distinct
ranks, eight or lower, the ace low (straights and flushes do not count), on
the scale :func:`~twoplustwo.describe_low` names: 1 (8-7-6-5-4) .. 56
(5-4-3-2-A), 0 when no five qualify. Five distinct low ranks among the
cards make the best low of their five lowest, so a hand's low is a lookup
of the mask of its low ranks (``twoplustwo.vocab.lows.LOWEST_FIVE``).

>>> evaluate_low("As 2d 3c 4h 5s Kd Kh"), evaluate_low("As 2d 3c 4h 9s Kd Kh")
(56, 0)
>>> from twoplustwo import describe_low
>>> describe_low(evaluate_low("8s 6d 2c Ah 3s 7d 8h"))
'7-6-3-2-A'
>>> evaluate_low_batch([[48, 0, 4, 8, 12], [48, 0, 4, 8, 44]]).tolist()
[56, 0]
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from twoplustwo.hands.rows import as_hands, first_bad_row
from twoplustwo.vocab.cards import Cards, format_card, parse_cards
from twoplustwo.vocab.lows import LOW_BIT, LOWEST_FIVE

__all__ = ["evaluate_low", "evaluate_low_batch"]

#: How many cards a stud hi/lo hand values.
SIZES = range(5, 8)


def evaluate_low(cards: Cards) -> int:
    """The eight-or-better low of one stud hi/lo hand of 5 to 7 cards: 1..56, higher is better, 0 for none.

    Takes cards as :func:`~twoplustwo.evaluate` does, with the same errors.

    >>> evaluate_low("As 2d 3c 4h")
    Traceback (most recent call last):
    ...
    ValueError: a stud-hilo hand has 5, 6 or 7 cards, got 4
    """
    hand = parse_cards(cards)
    if len(hand) not in SIZES:
        raise ValueError(f"a stud-hilo hand has 5, 6 or 7 cards, got {len(hand)}")
    mask = 0
    for c in hand:
        mask |= int(LOW_BIT[c])
    return int(LOWEST_FIVE[mask])


def evaluate_low_batch(hands: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """The eight-or-better lows of an ``(N, k)`` integer array of stud hi/lo hands, k in 5..7, as uint8.

    A row with a card outside 0..51 or a card twice is a ``ValueError`` naming it.
    """
    h = np.array(as_hands(hands, SIZES))  # a private copy: the rows checked are the rows valued
    bad = first_bad_row(h)
    if bad >= 0:
        row = h[bad].tolist()
        shown = ", ".join(format_card(c) if 0 <= c <= 51 else str(c) for c in row)
        raise ValueError(f"hand {bad}: {row} ({shown}) holds a card twice or a card outside 0..51")
    masks = np.bitwise_or.reduce(LOW_BIT[h], axis=1) if h.size else np.zeros(len(h), dtype=np.uint8)
    out: npt.NDArray[np.uint8] = LOWEST_FIVE[masks]
    return out
