"""What every game's rules state, whatever family it is of: the base of the rules modules.

A :class:`Rules` object is one game as the rules of poker define it: its
name (the ``game=`` string), its deck, the hand sizes it values, how a hand
of cards gets its value, its value scale and categories, how a value is
said in words, and which DAG of a table set serves each hand size. It
holds no tables: the tables floor checks a table set against it, the
builder builds the game's tables from it, and the runtime evaluates,
describes and plays equity through it.

A family of games (best five high, a low, badugi, ...) is one subclass in
one module of this package; each game is an instance. The base class
states the interface and what follows from it for every family.

This module imports nothing heavy: a fresh process's first evaluate() of
any game passes through it.
"""

from __future__ import annotations

from collections.abc import Sequence

from twoplustwo.vocab.five_cards import RANK_NAMES

__all__ = ["Rules"]


class Rules:
    """One game's rules. Subclasses (one per family) give :meth:`value_of`, :attr:`codes` and :meth:`words`.

    Every family states:

    - ``name``: the exact ``game=`` string;
    - ``deck``: the range of card ints hands hold (``rank * 4 + suit``);
    - ``sizes``: the numbers of cards a hand may hold, such as ``(5, 6, 7)``;
    - ``values`` and ``categories``: the value scale ``1..values`` (higher
      is stronger, equal ties) and each category's ``(name, first, last)``
      values, weakest first (a family without categories gives ``()``);
    - :meth:`value_of`: a hand's value, computed from the rules alone
      (slow, plain Python: the statement of the rules, not the hot path);
    - :meth:`words`: a value in words, as players say it;
    - :meth:`layout`: which DAG of a table set walks an ``n``-card hand.
    """

    #: The exact ``game=`` string.
    name: str
    #: The card ints hands of the game hold.
    deck: range
    #: The numbers of cards a hand may hold.
    sizes: tuple[int, ...]
    #: Whether a hand's value follows from its rank multiset, or from its flush's suited ranks when
    #: five or more of its cards share a suit, as in best-five-high games (what the kernels' tables
    #: derived for speed assume).
    flush_ranked: bool = False
    #: Whether the pot splits with the best eight-or-better low (stud hi/lo), which
    #: twoplustwo.vocab.rules.low.eight_or_better states and evaluate_low() gives.
    split_low: bool = False

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    @property
    def values(self) -> int:
        """How many values hands take: the scale is ``1..values``."""
        raise NotImplementedError

    @property
    def categories(self) -> tuple[tuple[str, int, int], ...]:
        """Each category's ``(name, first value, last value)``, weakest first; ``()`` for a family without them."""
        raise NotImplementedError

    @property
    def codes(self) -> list[int]:
        """``codes[v - 1]``, the code of value ``v``: its category's place (0 weakest) in the first hex digit,
        then the five ranks (0 deuce .. 12 ace) that decide, one hex digit each, so that a high game's codes
        sort as values (a low's do not: its family says how its codes read)."""
        raise NotImplementedError

    def ranks(self, value: int) -> tuple[int, int, int, int, int]:
        """The five rank digits of the code of ``value``, in the order they decide."""
        code = self.codes[value - 1]
        d = [(code >> shift) & 0xF for shift in (16, 12, 8, 4, 0)]
        return d[0], d[1], d[2], d[3], d[4]

    def value_of(self, cards: Sequence[int]) -> int:
        """The value of a hand of distinct card ints of the deck, one of ``sizes`` cards, from the rules alone."""
        raise NotImplementedError

    def words(self, value: int) -> str:
        """The value ``value`` (``1..values``) in words, such as ``"Full house, jacks full of aces"``."""
        raise NotImplementedError

    def played(self, cards: Sequence[int]) -> list[int] | None:
        """The cards of a hand that make its value, for a family whose hands play fewer than five; None for
        the families that play a best five (found by walking the fives)."""
        return None

    @property
    def mask(self) -> int:
        """One bit per card of the deck, as a walker takes it."""
        return sum(1 << c for c in self.deck)

    def layout(self, n: int) -> tuple[str, str | None]:
        """The DAG that walks an ``n``-card hand, and the array its node is then looked up in (None: none).

        By default a game has one DAG, ``<name>/dag<largest size>``: the
        largest hands walk all of it, and a smaller hand of ``n`` cards
        walks its first ``n`` layers and looks its node up in
        ``<dag>/value<n>`` (``spec/README.md`` section 13). A game whose
        hands of some size need no table of their own (a game that plays
        another's hands) names that other game's DAG here.
        """
        top = max(self.sizes)
        dag = f"{self.name}/dag{top}"
        return (dag, None) if n == top else (dag, f"{dag}/value{n}")

    # How a table set may describe a game of the family (its manifest's
    # ``games`` entry, checked by twoplustwo.tables.format.check_game_entry):
    # by default, exactly as the rules do.

    @property
    def deck_rule(self) -> str:
        """What a table set's deck of the game must be, in words."""
        return f"the cards {self.deck.start}..{self.deck.stop - 1}"

    def deck_fits(self, deck: list[object]) -> bool:
        """Whether a table set's ``deck`` (a list) is one of :attr:`deck_rule`."""
        return deck == list(self.deck)

    def categories_differ(self, deck: list[int], categories: Sequence[tuple[str, int, int]]) -> str | None:
        """How a table set's well-formed ``categories`` differ from what ``deck`` gives under the rules, or None."""
        return None if tuple(categories) == self.categories else f"are not the {self.name} rules' {self.categories}"

    def not_in_deck(self) -> str:
        """The end of the message for a card outside the deck."""
        lowest = RANK_NAMES[self.deck.start >> 2]
        return f"not in the {self.name} deck, the {len(self.deck)} cards from {lowest} to ace"

    def check_cards(self, cards: Sequence[int], what: str = "card") -> None:
        """Raise ``ValueError`` naming the first of ``cards`` (ints 0..51) outside the deck, and its place.

        ``what`` names the cards in the message, such as ``"include card"``.
        """
        if len(self.deck) == 52:
            return  # the whole deck: every card 0..51 is in it
        for i, c in enumerate(cards):
            if c not in self.deck:
                from twoplustwo.vocab.cards import format_card

                raise ValueError(f"{what} {i} ({format_card(c)!r}): {self.not_in_deck()}")
