"""Short-deck hold'em hands valued straight from the rules: the oracle of the short-deck tables.

Short deck plays with the 36 cards from six to ace, card ints ``16..51``
(rank * 4 + suit, as everywhere). Hands rank as in hold'em, except that

* the ace plays low only in A-6-7-8-9, the lowest straight (nine high) and,
  suited, the lowest straight flush;
* a flush beats a full house;
* under Triton rules (game ``"short-deck"``) three of a kind beats a
  straight, under classic rules (``"short-deck-classic"``) a straight beats
  three of a kind.

This module reads those rules on its own: it shares no code with the
hold'em evaluators nor with :mod:`twoplustwo_builder.dag.games`, from which the
tables are built, so a table that agrees with it agrees with a second,
independent reading of the rules.

A five-card hand gets a *score*: its category's strength in the variant's
order, then a tiebreak, the rank masks of its quads, trips, pairs and single
cards in that order (comparing masks of equal size as integers compares
their highest ranks first), or for a straight its top card. The distinct
scores of all C(36, 5) hands, sorted, are the values ``1..1404``. Six and
seven cards take the best of their five-card subsets.

>>> deck = {name: 16 + 4 * i for i, name in enumerate("6789TJQKA")}
>>> wheel = [deck["A"], deck["6"] + 1, deck["7"], deck["8"], deck["9"]]  # A-6-7-8-9, six of diamonds
>>> trips = [deck["Q"], deck["Q"] + 1, deck["Q"] + 2, deck["6"], deck["8"]]
>>> evaluate([wheel, trips], "short-deck").tolist()  # trips beat a straight
[877, 1052]
>>> evaluate([wheel, trips], "short-deck-classic").tolist()  # the other way round
[1129, 1046]
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations
from math import comb

import numpy as np
import numpy.typing as npt

__all__ = ["CATEGORIES", "DECK", "VARIANTS", "categories", "evaluate", "evaluate_variants", "n_values"]

#: The 36 cards of the short deck, six of clubs to ace of spades.
DECK: npt.NDArray[np.int64] = np.arange(16, 52)

#: Category names, in no particular order: :data:`VARIANTS` orders them.
CATEGORIES: tuple[str, ...] = (
    "high card", "pair", "two pair", "three of a kind", "straight",
    "flush", "full house", "four of a kind", "straight flush",
)  # fmt: skip

#: Each variant's categories, weakest first.
VARIANTS: dict[str, tuple[str, ...]] = {
    "short-deck": (
        "high card", "pair", "two pair", "straight", "three of a kind",
        "full house", "flush", "four of a kind", "straight flush",
    ),
    "short-deck-classic": (
        "high card", "pair", "two pair", "three of a kind", "straight",
        "full house", "flush", "four of a kind", "straight flush",
    ),
}  # fmt: skip

_RANK_BITS = 13
_TIEBREAK_BITS = 4 * _RANK_BITS  # four rank masks side by side


def _straight_tops() -> npt.NDArray[np.int64]:
    """``tops[mask]``: the top card of the straight whose five ranks are ``mask``, else -1."""
    tops = np.full(1 << _RANK_BITS, -1, dtype=np.int64)
    for top in range(8, 13):  # ten-high (6-7-8-9-T) to ace-high
        tops[0b11111 << (top - 4)] = top
    tops[(1 << 12) | (0b1111 << 4)] = 7  # A-6-7-8-9 is nine high
    return tops


_TOPS = _straight_tops()


def _categories5(hands: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Index into :data:`CATEGORIES` and tiebreak of each five-card hand."""
    ranks, suits = hands >> 2, hands & 3
    counts = (ranks[:, :, None] == np.arange(_RANK_BITS)).sum(axis=1)
    bits = 1 << np.arange(_RANK_BITS)
    held = [((counts == m) * bits).sum(axis=1) for m in (1, 2, 3, 4)]  # ranks held once, twice, ...
    distinct = (counts > 0).sum(axis=1)
    most = counts.max(axis=1)
    flush = (suits == suits[:, :1]).all(axis=1)
    top = _TOPS[held[0]]
    straight = top >= 0
    name = np.select(
        [
            straight & flush,
            most == 4,
            (most == 3) & (distinct == 2),
            flush,
            straight,
            most == 3,
            (most == 2) & (distinct == 3),
            most == 2,
        ],
        [
            CATEGORIES.index(c)
            for c in (
                "straight flush", "four of a kind", "full house", "flush", "straight",
                "three of a kind", "two pair", "pair",
            )
        ],  # fmt: skip
        default=CATEGORIES.index("high card"),
    )
    masks = (held[3] << 3 * _RANK_BITS) | (held[2] << 2 * _RANK_BITS) | (held[1] << _RANK_BITS) | held[0]
    return name, np.where(straight, top, masks)


def _strength(variant: str) -> npt.NDArray[np.int64]:
    """``strength[c]``: the place of category ``c`` in the variant's order."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown short-deck variant {variant!r}; known: {', '.join(VARIANTS)}")
    return np.array([VARIANTS[variant].index(c) for c in CATEGORIES], dtype=np.int64)


# Colex index of a sorted five-card hand of deck positions p0 < ... < p4:
# the sum of comb(p_j, j + 1), a number in 0 .. C(36, 5) - 1.
_BINOM = np.array([[comb(p, j + 1) for p in range(len(DECK))] for j in range(5)], dtype=np.int32)


def _colex(positions: npt.NDArray[np.int64]) -> npt.NDArray[np.int32]:
    index: npt.NDArray[np.int32] = _BINOM[0][positions[:, 0]]
    for j in range(1, 5):
        index = index + _BINOM[j][positions[:, j]]
    return index


@cache
def _five_card_hands() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int32]]:
    """Category, tiebreak and colex index of every five-card hand; the same in every variant."""
    fives = combinations(range(len(DECK)), 5)
    positions: npt.NDArray[np.int64] = np.fromiter(fives, dtype=np.dtype((np.int64, 5)), count=comb(len(DECK), 5))
    name, tiebreak = _categories5(DECK[positions])
    return name, tiebreak, _colex(positions)


@cache
def _five_card_table(variant: str) -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.int64]]:
    """The value of every five-card hand by its colex index, and the category of each value."""
    name, tiebreak, index = _five_card_hands()
    score = (_strength(variant)[name] << _TIEBREAK_BITS) | tiebreak
    distinct, value = np.unique(score, return_inverse=True)
    value = value.ravel() + 1
    table = np.zeros(len(index), dtype=np.uint16)
    table[index] = value
    category = np.full(len(distinct) + 1, -1, dtype=np.int64)
    category[value] = name
    table.setflags(write=False)
    category.setflags(write=False)
    return table, category


def n_values(variant: str) -> int:
    """How many distinct values the variant's hands take (1,404 in both).

    >>> n_values("short-deck"), n_values("short-deck-classic")
    (1404, 1404)
    """
    return len(_five_card_table(variant)[1]) - 1


def categories(variant: str) -> npt.NDArray[np.int64]:
    """``categories(variant)[v]``: the index into :data:`CATEGORIES` of value ``v`` (-1 for 0).

    >>> CATEGORIES[categories("short-deck")[1404]], CATEGORIES[categories("short-deck")[1]]
    ('straight flush', 'high card')
    """
    return _five_card_table(variant)[1]


# Hands per step: a step's int32 temporaries stay within the CPU caches.
_STEP = 1 << 16


def evaluate(hands: npt.ArrayLike, variant: str) -> npt.NDArray[np.uint16]:
    """Values (1..1404) of an ``(N, k)`` array of 5- to 7-card short-deck hands under ``variant``.

    Cards must be distinct within a hand; that is not checked. A card
    outside the short deck is an error.
    """
    return evaluate_variants(hands, [variant])[variant]


def evaluate_variants(hands: npt.ArrayLike, variants: Sequence[str]) -> dict[str, npt.NDArray[np.uint16]]:
    """:func:`evaluate` under several variants at once, which share the work of finding the subsets."""
    h = np.asarray(hands)
    if h.ndim != 2 or not 5 <= h.shape[1] <= 7:
        raise ValueError(f"hands must have shape (N, 5..7), got {h.shape}")
    if h.size and not np.issubdtype(h.dtype, np.integer):
        raise ValueError(f"hands must be integers, got dtype {h.dtype}")
    if h.size and (h.min() < DECK[0] or h.max() > DECK[-1]):
        raise ValueError(f"short-deck cards are {DECK[0]}..{DECK[-1]} (six to ace)")
    tables = {v: _five_card_table(v)[0] for v in variants}
    k = h.shape[1]
    out = {v: np.empty(len(h), dtype=np.uint16) for v in variants}
    for lo in range(0, len(h), _STEP):
        positions = np.sort((h[lo : lo + _STEP] - DECK[0]).astype(np.uint8), axis=1)
        # comb(p, j + 1) for the card at hand position i and subset place j,
        # and the sums of the first two and last two places, made once per
        # step: a subset's index then costs two additions.
        term = {(i, j): _BINOM[j][positions[:, i]] for j in range(5) for i in range(j, j + k - 4)}
        head = {(a, b): term[a, 0] + term[b, 1] for a, b in combinations(range(k - 3), 2)}
        tail = {(d, e): term[d, 3] + term[e, 4] for d, e in combinations(range(3, k), 2)}
        best = {v: np.zeros(len(positions), dtype=np.uint16) for v in variants}
        for a, b, c, d, e in combinations(range(k), 5):
            index = head[a, b] + term[c, 2]
            index += tail[d, e]
            for v in variants:
                np.maximum(best[v], tables[v][index], out=best[v])
        for v in variants:
            out[v][lo : lo + _STEP] = best[v]
    return out
