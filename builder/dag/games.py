"""The builder's view of each game: its rules (the runtime's), the DAGs it gets, and its own brute-force oracle.

Every game goes through the same stages (suit merging, don't-care joins,
busiest-first numbering, typed layers, self-check) into the same table
directory; only this description differs. A game's rules are the
runtime's (:mod:`twoplustwo.vocab.rules`): its name, deck, hand sizes,
category order and which DAG serves which hand size. Cards are ints
``0..51`` (``rank * 4 + suit``, rank 0 = deuce .. 12 = ace) in every game:
a game's deck is every card of rank :attr:`GameBuild.low_rank` and up, so
the 36-card short deck is the ints ``16..51`` and table rows stay 52 wide.

The values the tables hold come from this module's own brute force over
the rules' category order and lowest rank (:func:`rules_table`), not from
the runtime's code for them: the runtime checks each table set's
description of a game against its rules, so the two meet only there.

A game ranks five-card hands by its order of the nine categories, then
within a category as usual: by the ranks that make the category, then the
kickers; straights by their top card. The ace plays high, and low only in
the lowest straight, the ace followed by the deck's four lowest ranks
(A-2-3-4-5 in hold'em, A-6-7-8-9 in short deck). Values are dense: the
game's distinct five-card classes, weakest first, numbered ``1..N``.

The other families' games (the lows, badugi) take their values, and
their scale and categories, from their own oracles in
:mod:`twoplustwo_builder.oracles` (``lowball``, ``badugi``), and say how
their nodes are enumerated (:attr:`GameBuild.symbols`): deuce-to-seven by
the high games' suit rules, the ace-to-five games by ranks alone (their
suits never matter), badugi by whole card sets.

>>> HOLDEM.values, SHORT_DECK.values, SHORT_DECK_CLASSIC.values, RAZZ.values, BADUGI.values
(7462, 1404, 1404, 6175, 1092)
>>> SHORT_DECK.deck[0], SHORT_DECK.dag(7), SHORT_DECK.dags, BADUGI.dags, STUD.dag(7)
(16, 'short-deck/dag7', (7,), (4,), 'dag7')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement

import numpy as np
import numpy.typing as npt

from twoplustwo.vocab.rules.badugi import BADUGI_RULES
from twoplustwo.vocab.rules.base import Rules
from twoplustwo.vocab.rules.high import (
    HOLDEM_RULES,
    SHORT_DECK_CLASSIC_RULES,
    SHORT_DECK_RULES,
    STUD_HILO_RULES,
    STUD_RULES,
    HighRules,
)
from twoplustwo.vocab.rules.low import LOWBALL_27_RULES, LOWBALL_A5_RULES, RAZZ_RULES

from ..oracles import badugi, lowball, signature

__all__ = [
    "BADUGI",
    "BUILDS",
    "HOLDEM",
    "LOWBALL_27",
    "LOWBALL_A5",
    "RAZZ",
    "SHORT_DECK",
    "SHORT_DECK_CLASSIC",
    "STUD",
    "STUD_HILO",
    "GameBuild",
    "rules_table",
]

_RANKS = "23456789TJQKA"

SignatureTable = tuple[npt.NDArray[np.int64], npt.NDArray[np.uint16]]


@dataclass(frozen=True)
class GameBuild:
    """One game as the builder builds it: the runtime's rules, its leaf oracle and the figures to check.

    ``rules`` give the name, deck, hand sizes, category order and the DAG
    each hand size walks (:meth:`~twoplustwo.vocab.rules.base.Rules.layout`):
    the sizes whose layout names no value array get a DAG of their own
    (:attr:`dags`); the 7-card DAG also gives 5- and 6-card values through
    its ``value5`` and ``value6`` arrays. ``leaf_table`` gives the sorted
    signatures (:mod:`twoplustwo_builder.oracles.signature`) of every 5- to
    7-card hand with their values; without it they follow from the rules'
    order by :func:`rules_table`. ``known_counts`` are seven-card category
    counts known from elsewhere, which the self-check compares the tables with.

    A game of another family gives ``scale`` (its value count and
    categories, by its oracle), ``words`` (its ranking in words) and
    ``symbols``, how its nodes are enumerated: ``"suits"`` by the high
    games' suit rules (:mod:`~twoplustwo_builder.dag.states`, leaf values
    from ``leaf_table``'s signatures), ``"ranks"`` as rank multisets (a game
    whose suits never matter) or ``"cards"`` as whole card sets
    (:mod:`~twoplustwo_builder.dag.plain_states`), leaf values from ``leaf``,
    which values rows of ranks or of cards. ``oracle`` values an ``(N, k)``
    array of hands, which the self-check compares the tables with.
    """

    rules: Rules
    leaf_table: Callable[[], SignatureTable] | None = None
    known_counts: tuple[tuple[str, int], ...] = ()
    symbols: str = "suits"
    leaf: Callable[[npt.NDArray[np.int64]], npt.NDArray[np.uint16]] | None = None
    scale: Callable[[], tuple[int, list[tuple[str, int, int]]]] | None = None
    words: str = ""
    oracle: Callable[[npt.NDArray[np.int64]], npt.NDArray[np.uint16]] | None = None

    @property
    def name(self) -> str:
        return self.rules.name

    @property
    def high(self) -> HighRules:
        """The rules of a best-five-high game (the others have no lowest rank or category order)."""
        assert isinstance(self.rules, HighRules), f"{self.name} is no best-five-high game"
        return self.rules

    @property
    def low_rank(self) -> int:
        return self.high.low_rank

    @property
    def order(self) -> tuple[str, ...]:
        return self.high.order

    @property
    def sizes(self) -> tuple[int, ...]:
        """Hand sizes the game evaluates."""
        return self.rules.sizes

    @property
    def dags(self) -> tuple[int, ...]:
        """The hand sizes with a DAG of their own, largest first (the build order)."""
        return tuple(n for n in sorted(self.sizes, reverse=True) if self.rules.layout(n)[1] is None)

    @property
    def deck(self) -> tuple[int, ...]:
        return tuple(self.rules.deck)

    def in_deck(self) -> npt.NDArray[np.bool_]:
        """``(52,)``: which card ints belong to the deck."""
        return np.isin(np.arange(52), self.deck)

    @property
    def holdem_dags(self) -> bool:
        """Whether the game's hands walk hold'em's DAGs (stud): nothing of its own to build or check."""
        return all(self.dag(n) == f"dag{n}" for n in self.sizes)

    def dag(self, n: int) -> str:
        """Name of the DAG an ``n``-card hand of the game walks, the start of its roles."""
        return self.rules.layout(n)[0]

    def roles(self) -> list[str]:
        """Every role of the game's DAGs, layers first, then the 7-card DAG's value arrays."""
        roles = [f"{self.dag(n)}/layer{k}" for n in sorted(self.dags) for k in range(1, n + 1)]
        if 7 in self.dags:
            roles += [f"{self.dag(7)}/value5", f"{self.dag(7)}/value6"]
        return roles

    @property
    def values(self) -> int:
        """How many distinct values hands of this game take, by the builder's own count."""
        if self.scale is not None:
            return self.scale()[0]
        return len(_classes(self.low_rank, self.order)[2])

    def categories(self) -> list[tuple[str, int, int]]:
        """``(category, first value, last value)`` per category, weakest first, by the builder's own count."""
        if self.scale is not None:
            return self.scale()[1]
        ranges: dict[str, list[int]] = {}
        for v, name in enumerate(_classes(self.low_rank, self.order)[2], start=1):
            ranges.setdefault(name, [v, v])[1] = v
        return [(name, ranges[name][0], ranges[name][1]) for name in self.order]

    @property
    def ranking(self) -> str:
        """The category order and the lowest straight, in words (another family's: its own words)."""
        if self.words:
            return self.words
        low = "-".join(_RANKS[r] for r in (12, *range(self.low_rank, self.low_rank + 4)))
        return " < ".join(self.order) + f"; {low} is the lowest straight"

    def table(self) -> SignatureTable:
        """Sorted signatures of every 5- to 7-card hand of the game, and their values."""
        if self.leaf_table is not None:
            return self.leaf_table()
        return rules_table(self.low_rank, self.order)

    def lookup(self, sigs: npt.NDArray[np.int64]) -> npt.NDArray[np.uint16]:
        """Values of signatures; a signature that no hand of this game has is an error."""
        keys, vals = self.table()
        idx = np.minimum(np.searchsorted(keys, sigs), len(keys) - 1)
        if not np.array_equal(keys[idx], sigs):
            raise ValueError(f"signature of no 5- to 7-card {self.name} hand")
        return vals[idx]


def _category(counts: Counter[int], straights: dict[frozenset[int], int], suited: bool) -> tuple[str, tuple[int, ...]]:
    """Category of five cards with these rank counts, and what breaks ties inside it."""
    if len(counts) == 5:
        top = straights.get(frozenset(counts))
        if top is not None:
            return ("straight flush" if suited else "straight"), (top,)
        return ("flush" if suited else "high card"), tuple(sorted(counts, reverse=True))
    shape = tuple(sorted(counts.values(), reverse=True))
    name = {
        (4, 1): "four of a kind",
        (3, 2): "full house",
        (3, 1, 1): "three of a kind",
        (2, 2, 1): "two pair",
        (2, 1, 1, 1): "pair",
    }[shape]
    # Bigger groups first, higher ranks first within a group size.
    return name, tuple(sorted(counts, key=lambda r: (counts[r], r), reverse=True))


@cache
def _classes(
    low_rank: int, order: tuple[str, ...]
) -> tuple[dict[tuple[int, ...], int], dict[tuple[int, ...], int], tuple[str, ...]]:
    """Values of the five-card classes: ``(plain, suited, category of each value)``.

    ``plain`` maps the sorted ranks of five cards that are not all of one
    suit to their value, ``suited`` the sorted ranks of five suited cards.
    """
    ranks = range(low_rank, 13)
    straights = {frozenset(range(top - 4, top + 1)): top for top in range(low_rank + 4, 13)}
    straights[frozenset((12, *range(low_rank, low_rank + 4)))] = low_rank + 3  # the ace plays low
    found: list[tuple[tuple[int, tuple[int, ...]], bool, tuple[int, ...], str]] = []
    hand: tuple[int, ...]
    for hand in combinations_with_replacement(ranks, 5):
        counts = Counter(hand)
        if max(counts.values()) <= 4:
            name, ties = _category(counts, straights, suited=False)
            found.append(((order.index(name), ties), False, hand, name))
    for hand in combinations(ranks, 5):
        name, ties = _category(Counter(hand), straights, suited=True)
        found.append(((order.index(name), ties), True, hand, name))
    found.sort()
    plain: dict[tuple[int, ...], int] = {}
    suited: dict[tuple[int, ...], int] = {}
    names: list[str] = []
    for (key, is_suited, hand, name), previous in zip(found, [None, *found]):
        if previous is not None and previous[0] == key:
            raise AssertionError(f"two five-card classes rank alike: {hand} and {previous[2]}")
        (suited if is_suited else plain)[hand] = len(names) + 1
        names.append(name)
    return plain, suited, tuple(names)


@cache
def rules_table(low_rank: int, order: tuple[str, ...]) -> SignatureTable:
    """Sorted signatures of every 5- to 7-card hand of a game, and their values.

    A hand's value is the best of its five-card subsets. When five or more
    cards share a suit only those count (the signature keeps only them):
    nothing beats a flush but quads, a straight flush or, where it ranks
    above the flush, a full house, and quads or a full house beside a flush
    would take eight cards, while a straight flush lies inside the suit.
    """
    plain, suited, _ = _classes(low_rank, order)
    ranks = range(low_rank, 13)
    keys: list[int] = []
    vals: list[int] = []
    for k in (5, 6, 7):
        for hand in combinations_with_replacement(ranks, k):
            if max(Counter(hand).values()) <= 4:
                keys.append(int(signature.POW5[list(hand)].sum()))
                vals.append(max(plain[five] for five in combinations(hand, 5)))
        for hand in combinations(ranks, k):
            keys.append(2 * int(signature.POW5[list(hand)].sum()))
            vals.append(max(suited[five] for five in combinations(hand, 5)))
    key_arr = np.array(keys, dtype=np.int64)
    order_ = np.argsort(key_arr)
    key_arr, val_arr = key_arr[order_], np.array(vals, dtype=np.uint16)[order_]
    if not np.all(np.diff(key_arr) > 0):
        raise AssertionError("signatures must be unique")
    key_arr.setflags(write=False)
    val_arr.setflags(write=False)
    return key_arr, val_arr


#: Texas hold'em: 52 cards; its DAGs and leaf oracle are the original build's.
HOLDEM = GameBuild(HOLDEM_RULES, leaf_table=signature.table)

# Issue 16's figures over all C(36, 7) hands; the same in both variants,
# since a flush and a full house never meet in seven cards.
_SHORT_DECK_COUNTS = (("flush", 175_560), ("full house", 633_024))

#: Short deck, Triton rules: a flush beats a full house, three of a kind a straight.
SHORT_DECK = GameBuild(SHORT_DECK_RULES, known_counts=_SHORT_DECK_COUNTS)

#: Short deck, classic rules: a flush beats a full house, a straight three of a kind.
SHORT_DECK_CLASSIC = GameBuild(SHORT_DECK_CLASSIC_RULES, known_counts=_SHORT_DECK_COUNTS)

#: Seven-card stud and stud hi/lo: hold'em's DAGs (the high; the low needs no tables).
STUD = GameBuild(STUD_RULES, leaf_table=signature.table)
STUD_HILO = GameBuild(STUD_HILO_RULES, leaf_table=signature.table)


def _a5_leaf(ranks: npt.NDArray[np.int64]) -> npt.NDArray[np.uint16]:
    return lowball.evaluate_a5(ranks * 4)  # rows of ranks, as cards of one suit: suits never matter


_A5_WORDS = "ace-to-five: the ace low, straights and flushes ignored, the worst poker hand of five wins"

#: Razz: ace-to-five of 5 to 7 cards, nodes by ranks.
RAZZ = GameBuild(
    RAZZ_RULES, symbols="ranks", leaf=_a5_leaf, scale=lowball.a5_scale, words=_A5_WORDS, oracle=lowball.evaluate_a5
)

#: Ace-to-five lowball: five cards, nodes by ranks.
LOWBALL_A5 = GameBuild(
    LOWBALL_A5_RULES,
    symbols="ranks",
    leaf=_a5_leaf,
    scale=lowball.a5_scale,
    words=_A5_WORDS,
    oracle=lowball.evaluate_a5,
)

#: Deuce-to-seven lowball: five cards, nodes by the high games' suit rules, leaves by signature.
LOWBALL_27 = GameBuild(
    LOWBALL_27_RULES,
    leaf_table=lowball.deuce_to_seven_table,
    scale=lowball.deuce_to_seven_scale,
    words="deuce-to-seven: the ace only high, straights and flushes count, the worst poker hand of five wins",
    oracle=lowball.evaluate_27,
)

#: Badugi: four cards, nodes by card sets.
BADUGI = GameBuild(
    BADUGI_RULES,
    symbols="cards",
    leaf=badugi.evaluate,
    scale=badugi.scale,
    words="badugi: the most cards of distinct ranks and suits, then the lowest, the ace low",
    oracle=badugi.evaluate,
)

#: Every game the builder builds, in build order.
BUILDS: tuple[GameBuild, ...] = (
    HOLDEM,
    SHORT_DECK,
    SHORT_DECK_CLASSIC,
    STUD,
    STUD_HILO,
    RAZZ,
    LOWBALL_27,
    LOWBALL_A5,
    BADUGI,
)
