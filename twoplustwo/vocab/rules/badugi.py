"""Badugi: four cards, the largest set of them with distinct ranks and distinct suits, aces low.

A hand plays the largest subset of its cards in which no two share a rank
or a suit; a larger subset beats a smaller one (a four-card badugi beats
every three-card hand), and between subsets of one size, the lower highest
card wins, then the next. The best hand is 4-3-2-A of four suits. Values
are the 1,092 sets of 1 to 4 ranks, worst (a lone king) 1, best 1,092, in
four categories by the size of the set. A code is the set's size less one
(its category's place), then its ranks, highest first (0 deuce .. 12 ace),
then ``F`` digits where a smaller set has no card.

>>> BADUGI_RULES.values, BADUGI_RULES.categories[3]
(1092, ('badugi', 378, 1092))
>>> BADUGI_RULES.words(1092), BADUGI_RULES.words(BADUGI_RULES.value_of([20, 9, 0, 21]))  # 7c 4d 2c 7d
('badugi 4-3-2-A', 'two-card badugi 4-2')
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from twoplustwo.vocab.rules.base import Rules
from twoplustwo.vocab.rules.low import low_digits

__all__ = ["BADUGI_RULES", "BadugiRules"]

#: The ranks from lowest to highest with the ace low.
_ACE_LOW = (12, *range(12))
_SIZE_NAMES = ("one-card", "two-card", "three-card", "badugi")


class BadugiRules(Rules):
    """Badugi's rules (one game: :data:`BADUGI_RULES`)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.sizes = (4,)
        self.deck = range(52)
        self._sets: list[tuple[int, ...]] | None = None
        self._value: dict[tuple[int, ...], int] = {}

    @property
    def sets(self) -> list[tuple[int, ...]]:
        """``sets[v - 1]``: the ranks of value ``v``, highest first (ace low), worst first."""
        if self._sets is None:
            found = []
            for k in range(1, 5):
                for low in combinations(range(13), k):  # places in the ace-low order
                    # Larger sets win; then the lower highest card, then the next.
                    found.append(((k, tuple(-x for x in reversed(low))), tuple(_ACE_LOW[x] for x in reversed(low))))
            found.sort()
            self._sets = [ranks for _, ranks in found]
            self._value = {tuple(sorted(r)): v for v, r in enumerate(self._sets, start=1)}
        return self._sets

    @property
    def values(self) -> int:
        return len(self.sets)

    @property
    def categories(self) -> tuple[tuple[str, int, int], ...]:
        out = []
        first = 1
        for k, name in enumerate(_SIZE_NAMES, start=1):
            last = first + sum(1 for s in self.sets if len(s) == k) - 1
            out.append((name, first, last))
            first = last + 1
        return tuple(out)

    @property
    def codes(self) -> list[int]:
        out = []
        for ranks in self.sets:
            code = len(ranks) - 1
            for r in (*ranks, *(15,) * (5 - len(ranks))):
                code = (code << 4) | r
            out.append(code)
        return out

    def value_of(self, cards: Sequence[int]) -> int:
        self.sets  # noqa: B018 - makes the value map on first use
        best = 0
        for k in range(1, len(cards) + 1):
            for part in combinations(cards, k):
                if len({c >> 2 for c in part}) == k and len({c & 3 for c in part}) == k:
                    best = max(best, self._value[tuple(sorted(c >> 2 for c in part))])
        return best

    def played(self, cards: Sequence[int]) -> list[int] | None:
        """The largest set of the cards with distinct ranks and suits that makes the hand's value, lowest first.

        >>> from twoplustwo.vocab.cards import format_cards, parse_cards
        >>> format_cards(BADUGI_RULES.played(parse_cards("Kc 4c 2d 3h")))
        '2d 3h 4c'
        """
        value = self.value_of(cards)
        for k in range(len(cards), 0, -1):
            for part in combinations(sorted(cards), k):
                if len({c >> 2 for c in part}) == k and len({c & 3 for c in part}) == k:
                    if self.value_of(part) == value:
                        return list(part)
        raise AssertionError("a hand plays some set of its cards")

    def words(self, value: int) -> str:
        ranks = self.sets[value - 1]
        name = "badugi" if len(ranks) == 4 else f"{_SIZE_NAMES[len(ranks) - 1]} badugi"
        return f"{name} {low_digits(ranks)}"


#: Badugi.
BADUGI_RULES = BadugiRules("badugi")
