"""Best-five-high games: hold'em, and short deck under Triton or classic rules.

A hand is worth its best five cards. Five cards fall in one of nine
categories, which a game puts in its own order (``HighRules.order``),
weakest first; inside a category, the ranks that make the category decide,
then the kickers, and straights go by their top card. The ace plays high,
and low only in the lowest straight: the ace below the deck's four lowest
ranks (A-2-3-4-5 in hold'em, A-6-7-8-9 in short deck). Values are dense:
the game's distinct five-card classes, weakest first, numbered ``1..N``.
The classes themselves are those of ``twoplustwo.vocab.five_cards``.

>>> HOLDEM_RULES.values, SHORT_DECK_RULES.values, SHORT_DECK_RULES.deck
(7462, 1404, range(16, 52))
>>> SHORT_DECK_RULES.categories[3]
('straight', 877, 882)
>>> SHORT_DECK_RULES.value_of([51, 16, 20, 24, 28]), SHORT_DECK_RULES.words(877)  # A-6-7-8-9
(877, 'Straight, nine high (ace low)')
>>> HOLDEM_RULES.layout(5), SHORT_DECK_RULES.layout(5)
(('dag5', None), ('short-deck/dag7', 'short-deck/dag7/value5'))
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from itertools import combinations

from twoplustwo.vocab.five_cards import CATEGORY_NAMES, RANK_NAMES, class_codes, class_counts, plural
from twoplustwo.vocab.rules.base import Rules

__all__ = [
    "HOLDEM_RULES",
    "SHORT_DECK_CLASSIC_RULES",
    "SHORT_DECK_RULES",
    "STUD_HILO_RULES",
    "STUD_RULES",
    "HighRules",
    "hand_words",
]


class HighRules(Rules):
    """A best-five-high game: its deck is every card of rank ``low_rank`` and up, its categories in ``order``.

    ``ace_low`` is what the words of the straight whose ace plays low add
    to its high card (short deck says " (ace low)"; hold'em's wheel needs
    no word). ``own_dags`` says the table set holds one DAG per hand size
    (``dag5``, ``dag6``, ``dag7``: hold'em's) rather than one 7-card DAG.
    """

    sizes = (5, 6, 7)
    flush_ranked = True

    def __init__(self, name: str, low_rank: int, order: Sequence[str], *, ace_low: str = "", own_dags: bool = False):
        if sorted(order) != sorted(CATEGORY_NAMES):
            raise ValueError(f"order must hold the nine categories {', '.join(CATEGORY_NAMES)} once each")
        self.name = name
        self.low_rank = low_rank
        self.deck = range(4 * low_rank, 52)
        self.order: tuple[str, ...] = tuple(order)
        self.ace_low = ace_low
        self.own_dags = own_dags
        self._codes: list[int] | None = None

    @property
    def codes(self) -> list[int]:
        """``codes[v - 1]`` is the code of value ``v``: its category's place in :attr:`order`, then its ranks in hex.

        A code's first hex digit is the place (0 = the weakest category),
        then one digit per rank in the order the ranks decide, so codes sort
        as hands rank. Made on first use (some milliseconds).
        """
        if self._codes is None:
            place = [self.order.index(name) for name in CATEGORY_NAMES]
            self._codes = class_codes(self.low_rank, place)
        return self._codes

    @property
    def values(self) -> int:
        return len(self.codes)

    @property
    def categories(self) -> tuple[tuple[str, int, int], ...]:
        out = []
        for place, name in enumerate(self.order):
            first = bisect_left(self.codes, place << 20) + 1
            last = bisect_left(self.codes, (place + 1) << 20)
            out.append((name, first, last))
        return tuple(out)

    def kind(self, value: int) -> int:
        """The category of ``value`` as hold'em numbers categories (0 high card .. 8 straight flush)."""
        return CATEGORY_NAMES.index(self.order[self.codes[value - 1] >> 20])

    def words(self, value: int) -> str:
        return hand_words(self.kind(value), self.ranks(value), self.ace_low)

    def five_code(self, cards: Sequence[int]) -> int:
        """The code (as :attr:`codes` holds them) of five distinct cards of the deck."""
        ranks = sorted((c >> 2 for c in cards), reverse=True)
        suited = len({c & 3 for c in cards}) == 1
        counts = {r: ranks.count(r) for r in ranks}
        low = self.low_rank
        if len(counts) == 5:
            if ranks[0] - ranks[4] == 4:
                name, order = "straight", ranks
            elif ranks == [12, low + 3, low + 2, low + 1, low]:
                name, order = "straight", ranks[1:] + ranks[:1]  # the ace plays low, last
            else:
                name, order = "high card", ranks
            if suited:
                name = "flush" if name == "high card" else "straight flush"
        else:
            shape = sorted(counts.values(), reverse=True)
            name = {4: "four of a kind", 3: "full house" if shape[1] == 2 else "three of a kind"}.get(
                shape[0], "two pair" if shape[1] == 2 else "pair"
            )
            # Bigger groups first, higher ranks first within a group size.
            order = sorted(ranks, key=lambda r: (counts[r], r), reverse=True)
        code = self.order.index(name)
        for r in order:
            code = (code << 4) | r
        return code

    def value_of(self, cards: Sequence[int]) -> int:
        """The value of the best five of ``cards``: the place of its code among :attr:`codes`, plus one."""
        best = max(self.five_code(five) for five in combinations(cards, 5))
        return bisect_left(self.codes, best) + 1

    @property
    def deck_rule(self) -> str:
        return "every card from some rank up to the aces (six ranks or more), increasing, such as 16..51"

    def deck_fits(self, deck: list[object]) -> bool:
        """Whether a table set's ``deck`` is one of :attr:`deck_rule`: whole ranks up to the ace, whose straights
        (the ace low below the lowest rank) these rules know how to name."""
        n = len(deck)
        return 24 <= n <= 52 and n % 4 == 0 and deck == list(range(52 - n, 52))

    def categories_differ(self, deck: list[int], categories: Sequence[tuple[str, int, int]]) -> str | None:
        """How a table set's ``categories`` (well formed, of this family) differ from what ``deck`` gives, or None."""
        counts = class_counts(deck[0] >> 2)
        for name, first, last in categories:
            if last - first + 1 != counts[name]:
                return (
                    f"do not match a deck of {len(deck) // 4} ranks: {name} has {last - first + 1} values, "
                    f"the rules give {counts[name]}"
                )
        return None

    def layout(self, n: int) -> tuple[str, str | None]:
        if self.own_dags:
            return f"dag{n}", None
        return super().layout(n)


def _and_list(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def hand_words(category: int, r: tuple[int, ...], ace_low: str = "") -> str:
    """The words for a five-card class of category ``category`` (hold'em's numbers) and ranks ``r``.

    ``ace_low`` is appended to the high card of the straight whose ace
    plays low (where that straight needs a word of explanation).

    >>> hand_words(6, (9, 9, 9, 12, 12))
    'Full house, jacks full of aces'
    """
    one, many = RANK_NAMES, [plural(name) for name in RANK_NAMES]
    low = ace_low if r[4] == 12 else ""  # of the straights, only the ace-low one puts its ace last
    if category == 8:
        return "Royal flush" if r[0] == 12 else f"Straight flush, {one[r[0]]} high{low}"
    if category == 7:
        return f"Four of a kind, {many[r[0]]}, {one[r[4]]} kicker"
    if category == 6:
        return f"Full house, {many[r[0]]} full of {many[r[3]]}"
    if category == 5:
        return "Flush, " + ", ".join(one[x] for x in r)
    if category == 4:
        return f"Straight, {one[r[0]]} high{low}"
    if category == 3:
        return f"Three of a kind, {many[r[0]]}, {_and_list([one[x] for x in r[3:]])} kickers"
    if category == 2:
        return f"Two pair, {many[r[0]]} and {many[r[2]]}, {one[r[4]]} kicker"
    if category == 1:
        return f"Pair of {many[r[0]]}, {_and_list([one[x] for x in r[2:]])} kickers"
    return "High card, " + ", ".join(one[x] for x in r)


#: Texas hold'em: 52 cards, the usual order; one DAG per hand size.
HOLDEM_RULES = HighRules("holdem", 0, CATEGORY_NAMES, own_dags=True)

#: Short deck, Triton rules: a flush beats a full house, three of a kind a straight.
SHORT_DECK_RULES = HighRules(
    "short-deck",
    4,
    (
        "high card", "pair", "two pair", "straight", "three of a kind",
        "full house", "flush", "four of a kind", "straight flush",
    ),
    ace_low=" (ace low)",
)  # fmt: skip

#: Short deck, classic rules: a flush beats a full house, a straight three of a kind.
SHORT_DECK_CLASSIC_RULES = HighRules(
    "short-deck-classic",
    4,
    (
        "high card", "pair", "two pair", "three of a kind", "straight",
        "full house", "flush", "four of a kind", "straight flush",
    ),
    ace_low=" (ace low)",
)  # fmt: skip

#: Seven-card stud: the best five high of 5 to 7 cards, on hold'em's DAGs and scale.
STUD_RULES = HighRules("stud", 0, CATEGORY_NAMES, own_dags=True)

#: Seven-card stud hi/lo: the high as stud; the low (eight or better) is
#: twoplustwo.vocab.rules.low.eight_or_better, which needs no tables.
STUD_HILO_RULES = HighRules("stud-hilo", 0, CATEGORY_NAMES, own_dags=True)
STUD_HILO_RULES.split_low = True
