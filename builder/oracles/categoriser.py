"""Seed 002's plain categoriser: sort by rank frequency, then by rank.

The simplest evaluator that is obviously right, so it is the reference the
others are built and checked against. Five-card hands are categorised
directly; six and seven cards take the best of their five-card subsets.

>>> int(evaluate([[48, 45, 40, 36, 32]])[0])  # ace-high straight, mixed suits
5863
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import numpy.typing as npt

from twoplustwo.vocab.values import value_from_code

from ._input import as_hands

__all__ = ["evaluate", "evaluate_codes"]

_WHEEL = np.array([12, 3, 2, 1, 0])


def _codes5(hands: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    ranks = hands >> 2
    suits = hands & 3
    freq = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2)
    # Most frequent first, ties broken by the higher rank.
    order = np.argsort(-(freq * 16 + ranks), axis=1, kind="stable")
    r = np.take_along_axis(ranks, order, axis=1)
    f = np.take_along_axis(freq, order, axis=1)
    flush = (suits == suits[:, :1]).all(axis=1)
    distinct = f[:, 0] == 1
    wheel = (r == _WHEEL).all(axis=1)
    straight = distinct & ((r[:, 0] - r[:, 4] == 4) | wheel)
    # The wheel's ace plays low.
    r = np.where(wheel[:, None], np.roll(r, -1, axis=1), r)

    cat = np.zeros(len(hands), dtype=np.int64)
    cat[f[:, 0] == 2] = 1
    cat[(f[:, 0] == 2) & (f[:, 2] == 2)] = 2
    cat[f[:, 0] == 3] = 3
    cat[straight] = 4
    cat[flush] = 5
    cat[(f[:, 0] == 3) & (f[:, 3] == 2)] = 6
    cat[f[:, 0] == 4] = 7
    cat[straight & flush] = 8
    code = cat
    for i in range(5):
        code = (code << 4) | r[:, i]
    return code


def evaluate_codes(hands: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """Six-hex-digit codes of the best five cards of each hand.

    >>> hex(int(evaluate_codes([[36, 37, 38, 48, 49]])[0]))  # jacks full of aces
    '0x6999cc'
    """
    h = as_hands(hands)
    k = h.shape[1]
    best = np.zeros(len(h), dtype=np.int64)
    for subset in combinations(range(k), 5):
        np.maximum(best, _codes5(h[:, subset]), out=best)
    return best


def evaluate(hands: npt.ArrayLike) -> npt.NDArray[np.uint16]:
    """Hand values (1..7462) of an ``(N, k)`` array of 5-, 6- or 7-card hands."""
    return value_from_code(evaluate_codes(hands))
