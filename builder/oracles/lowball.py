"""The low games valued straight from the rules: the oracle of the razz, ace-to-five, deuce-to-seven tables and of
stud hi/lo's eight-or-better low.

The rules, as players state them:

* **ace-to-five** (``razz`` of 5 to 7 cards, ``lowball-a5`` of 5): the ace
  is the lowest card; straights and flushes do not count; pairs count
  against you. Of two hands the worse poker hand, ranked so, is the better
  low. A hand of 6 or 7 cards plays its best five.
* **deuce-to-seven** (``lowball-27``, 5 cards): the worse poker hand wins;
  the ace is only high, so A-2-3-4-5 is no straight; straights and flushes
  count.
* **eight-or-better**: five cards of distinct ranks, eight or lower, the ace
  low; the lower top card wins, then the next; none, 0, when no five
  qualify. Values 1 (8-7-6-5-4) .. 56 (5-4-3-2-A).

This module reads those rules on its own (it shares no code with the
runtime's rules nor with the builder's hold'em evaluators). A five-card hand
gets a *score*, the strength of the poker hand it is under the game's
ranking: its shape (or category), then the rank masks of its quads, trips,
pairs and single cards in that order, or a straight's top card, each mask
an integer over the game's order of ranks (comparing masks of equal size
compares the highest ranks first). The weaker the score, the better the
low: the distinct scores, strongest first, are the values ``1..N``.

Values depend on the ranks alone (and, in deuce-to-seven, on whether five
cards share a suit), so each oracle is a table over those classes, and an
array of hands is valued by finding each hand's class (:func:`rank_key`).

>>> card = {name: 4 * i for i, name in enumerate("23456789TJQKA")}
>>> wheel = [card["A"], card["2"], card["3"] + 1, card["4"], card["5"]]
>>> evaluate_a5([wheel]).tolist(), evaluate_27([wheel]).tolist(), evaluate_eight([wheel]).tolist()
([6175], [6678], [56])
>>> evaluate_27([[card["7"], card["5"], card["4"], card["3"], card["2"] + 1]]).tolist()
[7462]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement

import numpy as np
import numpy.typing as npt

__all__ = [
    "a5_scale",
    "a5_table",
    "deuce_to_seven_scale",
    "deuce_to_seven_table",
    "eight_table",
    "evaluate_27",
    "evaluate_a5",
    "evaluate_eight",
    "rank_key",
]

#: Each rank's digit in a class key: five to the rank (at most four cards of a rank).
POW5 = np.array([5**r for r in range(13)], dtype=np.int64)


def _masks(places: Sequence[int]) -> tuple[int, ...]:
    """The rank masks of quads, trips, pairs and singles of five cards, each rank at its place."""
    counts = Counter(places)
    return tuple(sum(1 << p for p, c in counts.items() if c == k) for k in (4, 3, 2, 1))


def _a5_score(ranks: Sequence[int]) -> tuple[int, ...]:
    """The strength of five ranks as an ace-to-five player ranks poker hands: ace lowest, no straights or flushes."""
    places = [0 if r == 12 else r + 1 for r in ranks]
    shape = sorted(Counter(places).values(), reverse=True)
    strength = {(1,) * 5: 0, (2, 1, 1, 1): 1, (2, 2, 1): 2, (3, 1, 1): 3, (3, 2): 4, (4, 1): 5}[tuple(shape)]
    return (strength, *_masks(places))


def _27_score(ranks: Sequence[int], suited: bool) -> tuple[int, ...]:
    """The strength of five cards as poker ranks them with the ace only high."""
    counts = Counter(ranks)
    shape = tuple(sorted(counts.values(), reverse=True))
    straight = len(counts) == 5 and max(ranks) - min(ranks) == 4
    if len(counts) == 5:
        strength = (8 if straight else 5) if suited else (4 if straight else 0)
    else:
        strength = {(2, 1, 1, 1): 1, (2, 2, 1): 2, (3, 1, 1): 3, (3, 2): 6, (4, 1): 7}[shape]
    return (strength, max(ranks)) if straight else (strength, *_masks(ranks))


def _multisets(k: int) -> list[tuple[int, ...]]:
    return [h for h in combinations_with_replacement(range(13), k) if max(Counter(h).values()) <= 4]


def rank_key(ranks: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """The class key of each row of ranks (0 deuce .. 12 ace): the sum of five to each rank."""
    key: npt.NDArray[np.int64] = POW5[np.asarray(ranks)].sum(axis=-1)
    return key


def _table(keys: list[int], values: list[int]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint16]]:
    k = np.array(keys, dtype=np.int64)
    order = np.argsort(k)
    return k[order], np.array(values, dtype=np.uint16)[order]


@cache
def a5_table() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint16]]:
    """The class keys of every 5-, 6- and 7-card rank multiset, sorted, and its ace-to-five value (best five)."""
    scores = {h: _a5_score(h) for h in _multisets(5)}
    ranked = {s: v for v, s in enumerate(sorted(set(scores.values()), reverse=True), start=1)}
    value = {h: ranked[s] for h, s in scores.items()}  # the strongest poker hand is the worst low: 1
    keys, values = [], []
    for k in (5, 6, 7):
        for h in _multisets(k):
            keys.append(sum(5**r for r in h))
            values.append(max(value[five] for five in combinations(h, 5)))
    return _table(keys, values)


def a5_scale() -> tuple[int, list[tuple[str, int, int]]]:
    """How many ace-to-five values there are (its five-card classes), and its categories: none."""
    return len(set(a5_table()[1].tolist())), []


#: Deuce-to-seven's categories by their strength as poker hands (ranked with the ace only high).
_27_NAMES = (
    "high card", "pair", "two pair", "three of a kind", "straight",
    "flush", "full house", "four of a kind", "straight flush",
)  # fmt: skip


@cache
def deuce_to_seven_scale() -> tuple[int, list[tuple[str, int, int]]]:
    """How many deuce-to-seven values there are, and its categories as ``(name, first, last)``, weakest first."""
    classes = [(h, False) for h in _multisets(5)] + [(h, True) for h in combinations(range(13), 5)]
    scores = sorted({_27_score(*c) for c in classes}, reverse=True)  # value 1 first
    out: list[tuple[str, int, int]] = []
    for value, score in enumerate(scores, start=1):
        name = _27_NAMES[score[0]]
        if out and out[-1][0] == name:
            out[-1] = (name, out[-1][1], value)
        else:
            out.append((name, value, value))
    return len(scores), out


@cache
def deuce_to_seven_table() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint16]]:
    """The signatures of every five-card class (rank key, doubled for five suited cards), sorted, and its value."""
    classes = [(h, False) for h in _multisets(5)] + [(h, True) for h in combinations(range(13), 5)]
    scores = {c: _27_score(*c) for c in classes}
    ranked = {s: v for v, s in enumerate(sorted(set(scores.values()), reverse=True), start=1)}
    return _table(
        [sum(5**r for r in h) * (2 if suited else 1) for h, suited in classes],
        [ranked[scores[c]] for c in classes],
    )


@cache
def eight_table() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint16]]:
    """The class keys of every 5-, 6- and 7-card rank multiset, sorted, and its eight-or-better low (0: none)."""
    lows = sorted(combinations(range(1, 9), 5), key=lambda low: sorted(low, reverse=True))  # best first
    value: dict[tuple[int, ...], int] = {low: 56 - i for i, low in enumerate(lows)}

    @cache
    def best(ranks: frozenset[int]) -> int:  # a five of distinct ranks uses each rank once: the set decides
        out = 0
        for five in combinations(sorted(ranks), 5):
            places = tuple(sorted(1 if r == 12 else r + 2 for r in five))  # ace 1, deuce 2 .. eight 8
            if places[-1] <= 8:
                out = max(out, value[places])
        return out

    keys, values = [], []
    for k in (5, 6, 7):
        for h in _multisets(k):
            keys.append(sum(5**r for r in h))
            values.append(best(frozenset(h)))
    return _table(keys, values)


Table = tuple[npt.NDArray[np.int64], npt.NDArray[np.uint16]]


def _look(table: Table, keys: npt.NDArray[np.int64]) -> npt.NDArray[np.uint16]:
    known, values = table
    at = np.minimum(np.searchsorted(known, keys), len(known) - 1)
    if not np.array_equal(known[at], keys):
        raise ValueError("a row of cards that is no hand (five cards of a rank, or a card out of range)")
    out: npt.NDArray[np.uint16] = values[at]
    return out


def _ranks(hands: npt.ArrayLike) -> npt.NDArray[np.int64]:
    h = np.asarray(hands, dtype=np.int64)
    if h.ndim != 2 or not 5 <= h.shape[1] <= 7 or (h.size and (h.min() < 0 or h.max() > 51)):
        raise ValueError("hands must be an (N, 5..7) array of cards 0..51")
    return h >> 2


def evaluate_a5(hands: npt.ArrayLike) -> npt.NDArray[np.uint16]:
    """Ace-to-five values (razz: the best five) of an ``(N, 5..7)`` array of distinct cards."""
    return _look(a5_table(), rank_key(_ranks(hands)))


def evaluate_eight(hands: npt.ArrayLike) -> npt.NDArray[np.uint16]:
    """Eight-or-better lows (0: none) of an ``(N, 5..7)`` array of distinct cards."""
    return _look(eight_table(), rank_key(_ranks(hands)))


def evaluate_27(hands: npt.ArrayLike) -> npt.NDArray[np.uint16]:
    """Deuce-to-seven values of an ``(N, 5)`` array of distinct cards."""
    h = np.asarray(hands, dtype=np.int64)
    if h.ndim != 2 or h.shape[1] != 5:
        raise ValueError("deuce-to-seven hands are five cards")
    suited = (h & 3 == (h[:, :1] & 3)).all(axis=1)
    return _look(deuce_to_seven_table(), rank_key(_ranks(h)) * np.where(suited, 2, 1))
