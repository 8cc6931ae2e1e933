"""Seed 000's rank-count signature evaluator.

A hand's *signature* is its count of cards per rank written in base 5 (the
count never exceeds 4). When five or more cards share a suit, only those
cards matter, and the signature is their ranks' digits doubled, so no flush
signature can equal a plain one (their digit sums differ: at most 7 against
at least 10). One table maps every signature of 5, 6 or 7 cards to its
value; its entries are computed by the plain categoriser on one
representative hand per signature.

>>> int(evaluate([[48, 49, 50, 51, 44, 45, 0]])[0])  # four aces, king kicker
7452
>>> len(table()[0])  # 5-, 6- and 7-card signatures together
78494
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, combinations_with_replacement

import numpy as np
import numpy.typing as npt

from . import categoriser
from ._input import as_hands

__all__ = ["POW5", "evaluate", "signatures", "table", "lookup"]

#: ``POW5[r]`` is rank ``r``'s digit weight 5**r.
POW5 = 5 ** np.arange(13, dtype=np.int64)


def _plain_representatives(k: int) -> tuple[list[int], list[list[int]]]:
    sigs, hands = [], []
    for ranks in combinations_with_replacement(range(13), k):
        if max(ranks.count(r) for r in set(ranks)) > 4:
            continue
        # Cycling the suits keeps equal ranks distinct and no suit above 2 of 7.
        hands.append([4 * r + i % 4 for i, r in enumerate(ranks)])
        sigs.append(int(POW5[list(ranks)].sum()))
    return sigs, hands


def _flush_representatives(m: int) -> tuple[list[int], list[list[int]]]:
    sigs, hands = [], []
    for ranks in combinations(range(13), m):
        hands.append([4 * r for r in ranks])
        sigs.append(2 * int(POW5[list(ranks)].sum()))
    return sigs, hands


@cache
def table() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint16]]:
    """Sorted signatures of every 5-, 6- and 7-card hand, and their values."""
    keys: list[int] = []
    vals: list[npt.NDArray[np.uint16]] = []
    for make in (_plain_representatives, _flush_representatives):
        for k in (5, 6, 7):
            s, h = make(k)
            keys += s
            vals.append(categoriser.evaluate(np.array(h)))
    key_arr = np.array(keys, dtype=np.int64)
    val_arr = np.concatenate(vals)
    order = np.argsort(key_arr)
    key_arr, val_arr = key_arr[order], val_arr[order]
    assert np.all(np.diff(key_arr) > 0), "signatures must be unique"
    key_arr.setflags(write=False)
    val_arr.setflags(write=False)
    return key_arr, val_arr


def signatures(hands: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """The signature of each hand in an ``(N, k)`` array."""
    h = as_hands(hands)
    ranks, suits = h >> 2, h & 3
    digits = POW5[ranks]
    suit_counts = np.stack([(suits == s).sum(axis=1) for s in range(4)], axis=1)
    flush_suit = np.argmax(suit_counts, axis=1)
    has_flush = suit_counts.max(axis=1) >= 5
    flush_sig = 2 * (digits * (suits == flush_suit[:, None])).sum(axis=1)
    sig: npt.NDArray[np.int64] = np.where(has_flush, flush_sig, digits.sum(axis=1))
    return sig


def lookup(sigs: npt.ArrayLike) -> npt.NDArray[np.uint16]:
    """Values of signatures; a signature that no hand has is an error."""
    keys, vals = table()
    s = np.asarray(sigs, dtype=np.int64)
    idx = np.minimum(np.searchsorted(keys, s), len(keys) - 1)
    if not np.array_equal(keys[idx], s):
        raise ValueError("signature of no 5- to 7-card hand (duplicate cards?)")
    return vals[idx]


def evaluate(hands: npt.ArrayLike) -> npt.NDArray[np.uint16]:
    """Hand values (1..7462) of an ``(N, k)`` array of 5-, 6- or 7-card hands."""
    return lookup(signatures(hands))
