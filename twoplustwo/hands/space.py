"""The hands of one question: which cards every hand holds, which none may hold, and the free rest.

:class:`HandSpace` is one ``(n, include, dead)`` question of a game,
checked: ordered iteration (:mod:`twoplustwo.hands.iterate`) and
value counts (:mod:`twoplustwo.hands.value_counts`) both stand on it.

>>> space = HandSpace(7, include="As Ah", dead="Kd Kc")
>>> space.k, len(space.free), space.total
(5, 48, 1712304)
>>> HandSpace(7, include="As Ah", game="short-deck").total  # C(34, 5)
278256
"""

from __future__ import annotations

from math import comb

from twoplustwo.kernels.games import Game, resolve
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.cards import Cards, format_cards, parse_cards
from twoplustwo.vocab.inputs import is_int
from twoplustwo.vocab.rules import HOLDEM

__all__ = ["HandSpace", "check_space"]


class HandSpace:
    """The hands of one ``(n, include, dead)`` question of a game, checked, and where their walks start.

    Hands are drawn from the game's deck: its cards but the include and dead ones are :attr:`free`.
    """

    def __init__(
        self, n: int, include: Cards = (), dead: Cards = (), tables: Tables | None = None, game: str = HOLDEM
    ) -> None:
        # Hold'em's cards are checked before any table is loaded; another
        # game's deck comes from its tables.
        g = resolve(game, tables) if game != HOLDEM else None
        inc, out = check_space(n, include, dead, g)
        self.n, self.include, self.dead = n, inc, out
        # Resolved once: hold'em's after its cards are checked.
        self.game = g = resolve(game, tables) if g is None else g
        self.tables = g.tables
        taken = set(inc) | set(out)
        self.free = [c for c in g.deck if c not in taken]
        self.m = len(self.free)
        self.k = n - len(inc)  # free cards per hand
        self.total = comb(self.m, self.k)
        self.layers = g.layers(n)
        node = 0
        for depth, card in enumerate(inc):
            node = int(self.layers[depth][node * 52 + card])
        self.node = node  # after the include cards; their value when k == 0


def check_space(n: int, include: Cards, dead: Cards, game: Game | None = None) -> tuple[list[int], list[int]]:
    """Sorted include and dead cards, after checking them against each other, ``n`` and ``game``'s deck.

    A dead card outside the deck is refused too: it says the caller has
    another game in mind.
    """
    if not is_int(n):
        raise TypeError(f"n must be an int (5, 6 or 7), got {type(n).__name__}")
    if n not in (5, 6, 7):
        raise ValueError(f"n must be 5, 6 or 7, got {n!r}")
    if game is not None and n not in game.rules.sizes:
        sizes = " or ".join(map(str, game.rules.sizes))
        raise ValueError(f"n must be a {game.name} hand size, {sizes}, got {n!r}")
    inc = parse_cards(include)
    out = parse_cards(dead)
    if game is not None:
        game.check_cards(inc, "include card")
        game.check_cards(out, "dead card")
    inc.sort()
    out.sort()
    both = sorted(set(inc) & set(out))
    if both:
        raise ValueError(f"card(s) {format_cards(both)} both included and dead")
    if len(inc) > n:
        raise ValueError(f"{len(inc)} include cards do not fit in a {n}-card hand")
    return inc, out
