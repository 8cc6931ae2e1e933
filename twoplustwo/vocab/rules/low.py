"""Low games: ace-to-five (razz, ace-to-five lowball), deuce-to-seven lowball, and the eight-or-better low.

**Ace-to-five** (``razz``, 5 to 7 cards, and ``lowball-a5``, 5 cards): the
ace plays low, straights and flushes do not count, pairs count against
you. A hand is worth its best five cards; of two fives, the one that is
the weaker high hand without straights and flushes, the ace ranked below
the deuce, is the better low: no pair beats a pair, a pair two pair, and
so on up to quads; inside a shape, the lower top card wins, then the next
(a pair by its pair first). The best hand is 5-4-3-2-A. Values are the
6,175 rank multisets of five cards, worst (quad kings, queen kicker) 1,
best 6,175. Suits never matter.

**Deuce-to-seven** (``lowball-27``, 5 cards): the worst high hand wins.
Aces are only high (A-2-3-4-5 is ace high, no straight), and straights and
flushes count against you. Values are the 7,462 five-card classes of
hold'em with that one change, worst (the royal flush) 1, best (7-5-4-3-2 of
mixed suits) 7,462; its categories run from the straight flush (weakest)
to high card.

**Eight-or-better** (the low half of ``stud-hilo``): five distinct ranks
of eight or lower, ace low, from 5 to 7 cards, on the 1..56 scale of
``twoplustwo.vocab.lows`` (0: no low).

A low's code is its ranks in the order they decide, one hex digit each
(0 deuce .. 12 ace), after its category's place where the family has
categories: for a low, the smaller code among hands of one shape is the
better hand, so codes do not sort as values.

>>> RAZZ_RULES.values, LOWBALL_A5_RULES.values, LOWBALL_27_RULES.values
(6175, 6175, 7462)
>>> RAZZ_RULES.words(6175), RAZZ_RULES.words(RAZZ_RULES.value_of([24, 16, 8, 4, 48, 51, 50]))
('5-4-3-2-A', '8-6 low: 8-6-4-3-A')
>>> LOWBALL_27_RULES.words(7462), LOWBALL_27_RULES.value_of([48, 0, 4, 8, 13])  # A-2-3-4-5: ace high
('7-5-4-3-2', 6678)
>>> LOWBALL_27_RULES.words(6678)
'A-5-4-3-2'
>>> eight_or_better([48, 0, 4, 8, 12, 51, 47])  # A-2-3-4-5
56
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement

from twoplustwo.vocab.five_cards import CATEGORY_NAMES
from twoplustwo.vocab.rules.base import Rules
from twoplustwo.vocab.rules.high import hand_words

__all__ = [
    "LOWBALL_27_RULES",
    "LOWBALL_A5_RULES",
    "RAZZ_RULES",
    "AceToFiveRules",
    "DeuceToSevenRules",
    "eight_or_better",
    "low_digits",
]

#: A rank as players write it in a low: 0 (deuce) .. 12 (ace).
_SHORT = "23456789TJQKA"


def low_digits(ranks: Sequence[int]) -> str:
    """Ranks (0 deuce .. 12 ace) as players write a low, in the order given: ``"8-6-3-2-A"``."""
    return "-".join(_SHORT[r] for r in ranks)


def _shape_key(ranks: Sequence[int], order: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """The high-hand strength of five ranks without straights or flushes, each rank at its place in ``order``.

    The shape's place (0 no pair .. 5 quads, as hold'em ranks them), then
    the ranks, bigger groups first, higher first within a group size.
    """
    counts = Counter(ranks)
    shape = tuple(sorted(counts.values(), reverse=True))
    place = [(1, 1, 1, 1, 1), (2, 1, 1, 1), (2, 2, 1), (3, 1, 1), (3, 2), (4, 1)].index(shape)
    tie = sorted(ranks, key=lambda r: (counts[r], order.index(r)), reverse=True)
    return place, tuple(order.index(r) for r in tie)


#: The ranks from lowest to highest with the ace low.
_ACE_LOW = (12, *range(12))
_SHAPE_NAMES = ("high card", "pair", "two pair", "three of a kind", "full house", "four of a kind")


class AceToFiveRules(Rules):
    """An ace-to-five low of ``sizes`` cards: the best five, ace low, straights and flushes ignored.

    No categories: a low is said by its ranks ("8-6 low: 8-6-4-3-A",
    "Pair of aces, ..." for a paired hand).
    """

    # A function of the rank multiset alone, but of all the cards: a flush's suited ranks do not decide it.
    flush_ranked = False

    def __init__(self, name: str, sizes: tuple[int, ...]) -> None:
        self.name = name
        self.sizes = sizes
        self.deck = range(52)
        self._fives: list[tuple[int, ...]] | None = None
        self._value: dict[tuple[int, ...], int] = {}

    @property
    def fives(self) -> list[tuple[int, ...]]:
        """``fives[v - 1]``: the ranks of value ``v`` in the order they decide (highest first, ace low)."""
        if self._fives is None:
            found = []
            for hand in combinations_with_replacement(range(13), 5):
                if max(Counter(hand).values()) <= 4:
                    place, tie = _shape_key(hand, _ACE_LOW)
                    found.append(((place, tie), tuple(_ACE_LOW[i] for i in tie)))
            found.sort(reverse=True)  # the strongest high hand is the worst low: value 1
            self._fives = [ranks for _, ranks in found]
            self._value = {tuple(sorted(r)): v for v, r in enumerate(self._fives, start=1)}
        return self._fives

    @property
    def values(self) -> int:
        return len(self.fives)

    @property
    def categories(self) -> tuple[tuple[str, int, int], ...]:
        return ()

    @property
    def codes(self) -> list[int]:
        out = []
        for ranks in self.fives:
            code = 0
            for r in ranks:
                code = (code << 4) | r
            out.append(code)
        return out

    def ranks(self, value: int) -> tuple[int, int, int, int, int]:
        r = self.fives[value - 1]
        return r[0], r[1], r[2], r[3], r[4]

    def value_of(self, cards: Sequence[int]) -> int:
        self.fives  # noqa: B018 - makes the value map on first use
        return max(self._value[tuple(sorted(c >> 2 for c in five))] for five in combinations(cards, 5))

    def words(self, value: int) -> str:
        r = self.fives[value - 1]
        if len(set(r)) == 5:
            return low_digits(r) if value == self.values else f"{_SHORT[r[0]]}-{_SHORT[r[1]]} low: {low_digits(r)}"
        place = _shape_key(r, _ACE_LOW)[0]
        return hand_words(CATEGORY_NAMES.index(_SHAPE_NAMES[place]), r)


class DeuceToSevenRules(Rules):
    """Deuce-to-seven lowball: the worst five-card high hand wins, the ace only high, straights and flushes counted.

    Its categories are hold'em's in reverse, the straight flush weakest.
    """

    flush_ranked = True  # five cards: their rank multiset, and whether they are suited

    def __init__(self, name: str) -> None:
        self.name = name
        self.sizes = (5,)
        self.deck = range(52)
        self._classes: list[tuple[int, tuple[int, ...]]] | None = None
        self._value: dict[tuple[bool, tuple[int, ...]], int] = {}

    @property
    def classes(self) -> list[tuple[int, tuple[int, ...]]]:
        """``classes[v - 1]``: the category (hold'em's numbers) and deciding ranks of value ``v``, worst first."""
        if self._classes is None:
            straights = {tuple(range(h, h - 5, -1)) for h in range(4, 13)}  # six high .. ace high; no wheel
            found = []
            for hand in combinations_with_replacement(range(12, -1, -1), 5):
                counts = Counter(hand)
                if max(counts.values()) > 4:
                    continue
                for suited in (False, True) if len(counts) == 5 else (False,):
                    ranks = tuple(sorted(hand, key=lambda r: (counts[r], r), reverse=True))
                    straight = ranks in straights
                    if len(counts) == 5:
                        category = (8 if straight else 5) if suited else (4 if straight else 0)
                    else:
                        shape = tuple(sorted(counts.values(), reverse=True))
                        category = {(2, 1, 1, 1): 1, (2, 2, 1): 2, (3, 1, 1): 3, (3, 2): 6, (4, 1): 7}[shape]
                    found.append(((category, ranks), suited))
            found.sort(reverse=True)  # the strongest high hand is the worst: value 1
            self._classes = [key for key, _ in found]
            self._value = {(s, tuple(sorted(key[1]))): v for v, (key, s) in enumerate(found, start=1)}
        return self._classes

    @property
    def values(self) -> int:
        return len(self.classes)

    @property
    def categories(self) -> tuple[tuple[str, int, int], ...]:
        out: dict[int, list[int]] = {}
        for v, (category, _) in enumerate(self.classes, start=1):
            out.setdefault(category, [v, v])[1] = v
        return tuple((CATEGORY_NAMES[c], first, last) for c, (first, last) in out.items())

    @property
    def codes(self) -> list[int]:
        out = []
        for category, ranks in self.classes:
            code = 8 - category  # the category's place in this game's order, the straight flush 0
            for r in ranks:
                code = (code << 4) | r
            out.append(code)
        return out

    def value_of(self, cards: Sequence[int]) -> int:
        self.classes  # noqa: B018 - makes the value map on first use
        return self._value[len({c & 3 for c in cards}) == 1, tuple(sorted(c >> 2 for c in cards))]

    def words(self, value: int) -> str:
        category, ranks = self.classes[value - 1]
        if category != 0:
            return hand_words(category, ranks)
        if value == self.values or ranks[0] == 12:  # the best hand, and the ace-high hands, by their ranks alone
            return low_digits(ranks)
        return f"{_SHORT[ranks[0]]}-{_SHORT[ranks[1]]} low: {low_digits(ranks)}"


def eight_or_better(cards: Sequence[int]) -> int:
    """The eight-or-better low of 5 to 7 cards on the 1..56 scale (``twoplustwo.vocab.lows``), 0 for none.

    The five lowest distinct ranks of eight or lower, the ace low, if there
    are five: of two such lows, the lower top card wins, then the next.
    """
    from twoplustwo.vocab.lows import LOW_MASKS, N_LOWS

    bits = 0
    for c in cards:
        r = c >> 2
        if r == 12:
            bits |= 1
        elif r <= 6:
            bits |= 1 << (r + 1)
    low = [b for b in range(8) if bits >> b & 1][:5]
    if len(low) < 5:
        return 0
    return N_LOWS - LOW_MASKS.index(sum(1 << b for b in low))


#: Razz: the best five-card ace-to-five low of 5 to 7 cards.
RAZZ_RULES = AceToFiveRules("razz", (5, 6, 7))

#: Ace-to-five lowball: five cards, ace-to-five.
LOWBALL_A5_RULES = AceToFiveRules("lowball-a5", (5,))

#: Deuce-to-seven lowball: five cards.
LOWBALL_27_RULES = DeuceToSevenRules("lowball-27")
