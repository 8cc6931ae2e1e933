"""The five-card classes of a deck of ranks: the rules every game's values come from, written once.

A class is a category and the ranks that decide it, in the order they
decide: ``(1, (11, 11, 12, 9, 3))`` is a pair of kings with an ace, a jack
and a five. A deck holds the ranks ``low..12`` (0 is the deuce, 12 the ace:
``low`` is 0 in hold'em and 4, the six, in short deck), and the ace also
plays low in the lowest straight, below the deck's lowest four ranks.
Category numbers are hold'em's (:class:`twoplustwo.vocab.values.Category`:
0 high card .. 8 straight flush).

This module imports nothing heavy: the games' table checks use it on the
way to a first evaluation.

>>> len(five_card_classes())  # hold'em: 7462 values
7462
>>> class_counts(4)["straight"], class_counts(4)["flush"]  # short deck: 9 ranks
(6, 120)
>>> RANK_NAMES[12], plural(RANK_NAMES[4])
('ace', 'sixes')
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

__all__ = [
    "CATEGORY_NAMES",
    "RANK_NAMES",
    "class_codes",
    "class_counts",
    "five_card_classes",
    "plural",
    "straight_highs",
]

#: The name of each rank, deuce first (a rank is ``card >> 2``).
RANK_NAMES: tuple[str, ...] = (
    "two", "three", "four", "five", "six", "seven", "eight",
    "nine", "ten", "jack", "queen", "king", "ace",
)  # fmt: skip

#: The nine categories as the manifest names them, in hold'em's order.
CATEGORY_NAMES: tuple[str, ...] = (
    "high card", "pair", "two pair", "three of a kind", "straight",
    "flush", "full house", "four of a kind", "straight flush",
)  # fmt: skip


def plural(name: str) -> str:
    """The plural of a rank's name: "sixes", "aces"."""
    return name + ("es" if name == "six" else "s")


def straight_highs(low: int = 0) -> list[tuple[int, ...]]:
    """The ranks of every straight of the ranks ``low..12``, the one with the ace low first."""
    # The lowest straight counts its ace below the deck's lowest rank: five
    # high (the wheel) in hold'em, nine high (A-6-7-8-9) in short deck.
    out: list[tuple[int, ...]] = [(low + 3, low + 2, low + 1, low, 12)]
    out += [(h, h - 1, h - 2, h - 3, h - 4) for h in range(low + 4, 13)]
    return out


def five_card_classes(low: int = 0) -> list[tuple[int, tuple[int, ...]]]:
    """Every five-card class ``(category, ranks)`` of the ranks ``low..12``, in no particular order."""
    ranks = range(12, low - 1, -1)  # descending, so combinations come out high-first
    straights = straight_highs(low)
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
        for kickers in combinations(others, 3):
            shapes.append((1, (p, p) + kickers))
        for two in combinations(others, 2):
            shapes.append((3, (p, p, p) + two))
        for k in others:
            shapes.append((6, (p, p, p, k, k)))
            shapes.append((7, (p, p, p, p, k)))
    for hi, lo in combinations(ranks, 2):
        for k in ranks:
            if k not in (hi, lo):
                shapes.append((2, (hi, hi, lo, lo, k)))
    return shapes


def class_counts(low: int = 0) -> dict[str, int]:
    """How many five-card classes each category has (by its manifest name) for the ranks ``low..12``."""
    counts = dict.fromkeys(CATEGORY_NAMES, 0)
    for category, _ in five_card_classes(low):
        counts[CATEGORY_NAMES[category]] += 1
    return counts


def class_codes(low: int = 0, place: Sequence[int] = range(9)) -> list[int]:
    """The six-hex-digit code of every class of the ranks ``low..12``, sorted: the game's values in order.

    A code's first digit is ``place[c]`` for a class of category ``c``: its
    place in the game's order of categories (hold'em's own by default), then
    one hex digit per rank in the order the ranks decide.
    """
    out = []
    for category, r in five_card_classes(low):
        code = place[category]
        for x in r:
            code = (code << 4) | x
        out.append(code)
    return sorted(out)
