"""Badugi hands valued straight from the rules: the oracle of the badugi tables.

A hand of four cards plays the largest subset of them whose cards differ
pairwise in rank and in suit. A larger subset beats a smaller one; between
subsets of one size, the lower highest card wins, then the next; the ace is
the lowest card. The values ``1..1092`` number the sets of one to four ranks
from the worst (a lone king) to the best (4-3-2-A).

This module reads the rules on its own (it shares no code with the
runtime's rules): every subset of each hand is tried, in numpy, over all
hands at once.

>>> card = {name: 4 * i for i, name in enumerate("23456789TJQKA")}
>>> evaluate([[card["A"], card["2"] + 1, card["3"] + 2, card["4"] + 3]]).tolist()  # 4-3-2-A, four suits
[1092]
>>> evaluate([[card["K"], card["K"] + 1, card["K"] + 2, card["K"] + 3]]).tolist()  # four kings: one-card king
[1]
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

import numpy as np
import numpy.typing as npt

__all__ = ["evaluate", "scale", "set_values"]


@cache
def set_values() -> npt.NDArray[np.uint16]:
    """``(8192,)``: the value of each set of ranks of one to four (bit 0 the ace, bit r + 1 the rank r), 0 else."""
    sets = [s for k in range(1, 5) for s in combinations(range(13), k)]  # places: 0 the ace .. 12 the king
    # Worst first: smaller sets, then within a size the higher highest place, then the next.
    ordered = sorted(sets, key=lambda s: (len(s), [-p for p in sorted(s, reverse=True)]))
    out = np.zeros(1 << 13, dtype=np.uint16)
    for value, s in enumerate(ordered, start=1):
        out[sum(1 << p for p in s)] = value
    out.setflags(write=False)
    return out


def scale() -> tuple[int, list[tuple[str, int, int]]]:
    """How many values there are, and the categories, by the size of the set played: ``(name, first, last)``."""
    values = set_values()
    sizes = np.bitwise_count(np.arange(1 << 13))
    out, first = [], 1
    for k, name in enumerate(("one-card", "two-card", "three-card", "badugi"), start=1):
        last = first + int(((values > 0) & (sizes == k)).sum()) - 1
        out.append((name, first, last))
        first = last + 1
    return int((values > 0).sum()), out


def evaluate(hands: npt.ArrayLike) -> npt.NDArray[np.uint16]:
    """Values of an ``(N, 4)`` array of distinct cards 0..51."""
    h = np.asarray(hands, dtype=np.int64)
    if h.ndim != 2 or h.shape[1] != 4 or (h.size and (h.min() < 0 or h.max() > 51)):
        raise ValueError("badugi hands are an (N, 4) array of cards 0..51")
    place = np.where(h >> 2 == 12, 0, (h >> 2) + 1)
    rank_bit, suit_bit = 1 << place, 1 << (h & 3)
    table = set_values()
    best = np.zeros(len(h), dtype=np.uint16)
    for k in range(1, 5):
        for part in combinations(range(4), k):
            ranks = np.bitwise_or.reduce(rank_bit[:, part], axis=1)
            suits = np.bitwise_or.reduce(suit_bit[:, part], axis=1)
            ok = (np.bitwise_count(ranks) == k) & (np.bitwise_count(suits) == k)
            best = np.maximum(best, np.where(ok, table[ranks], 0))
    return best
