"""Walk some cards once, finish many hands from there: the prefix API.

Solvers and simulators evaluate many hole pairs against one board. A
:class:`Prefix` walks the board once, down each DAG it can finish in, and
every hand completed from it costs only the lookups of its own cards:

>>> board = prefix("Ah Kh Qh 7c 2d")
>>> board.evaluate("Jh Th")  # royal flush
7462
>>> holes = np.array([parse_cards("Jh Th"), parse_cards("7d 7s")])
>>> board.evaluate_batch(holes).tolist()
[7462, 5391]
>>> board.extend("Jh").evaluate("Td") == board.evaluate("Jh Td")
True

A prefix of m cards (0 to 6) finishes hands of 5 to 7 cards in all: the
7-card DAG for 7, the dedicated 5- and 6-card DAGs for 5 and 6, exactly as
:func:`~twoplustwo.evaluate` and :func:`~twoplustwo.evaluate_batch` would.
A prefix of another game (``game=``) walks that game's DAG and keeps the
game in everything it finishes:

>>> flop = prefix("Ah Kh Qh", game="short-deck")
>>> flop.evaluate("Jh Th"), flop.extend("Jh").evaluate("Th 6c 6d")
(1404, 1404)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from twoplustwo.hands.batch import walk_batch
from twoplustwo.hands.rows import as_hands
from twoplustwo.kernels import pool
from twoplustwo.kernels.games import Game, resolve
from twoplustwo.tables.default import get_tables
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.cards import Cards, check_disjoint, format_cards, parse_cards
from twoplustwo.vocab.rules import HOLDEM, check_game

__all__ = ["MAX_PREFIX", "Prefix", "prefix"]

#: Most cards a prefix holds: a 7-card hand needs at least one more.
MAX_PREFIX = 6


@dataclass(frozen=True)
class Prefix:
    """Cards walked once, ready to finish hands; build one with :func:`prefix`."""

    cards: tuple[int, ...]
    tables: Tables = field(repr=False)
    #: The game the cards are dealt in, as ``game=`` names it.
    game: str = HOLDEM
    # The node of the n-card walk after the cards (their value when they are
    # n already), walked the first time a hand of n cards asks for it.
    _nodes: dict[int, int] = field(default_factory=dict, repr=False, compare=False)
    # The game as the tables hold it, looked up once: every hand needs it.
    _game: Game = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_game", resolve(self.game, self.tables))

    def node(self, n: int) -> int:
        """The node of the ``n``-card walk (n = 5, 6, 7, at least the prefix's size) after its cards."""
        node = self._nodes.get(n)
        if node is None:
            layers = self._game.layer_views(n)
            node = 0
            for depth, card in enumerate(self.cards):
                node = layers[depth][node * 52 + card]
            self._nodes[n] = node
        return node

    def __repr__(self) -> str:
        game = "" if self.game == HOLDEM else f", game={self.game!r}"
        return f"Prefix({format_cards(self.cards)!r}{game})"

    def evaluate(self, cards: Cards = ()) -> int:
        """Value of the prefix's cards plus ``cards``: 5 to 7 cards in all, none twice, all of the game's deck."""
        rest = parse_cards(cards)
        g = self._game
        g.check_cards(rest)
        check_disjoint([("the prefix", self.cards), ("the cards", rest)])
        n = len(self.cards) + len(rest)
        if not len(self.cards) <= n <= 7 or n < 5:
            m = len(self.cards)
            raise ValueError(f"a hand has 5, 6 or 7 cards; the prefix's {m} and {len(rest)} more make {n}")
        node = self.node(n)
        layers = g.layer_views(n)
        for depth, card in enumerate(rest, start=len(self.cards)):
            node = layers[depth][node * 52 + card]
        return node

    def evaluate_batch(
        self, hands: npt.ArrayLike, *, check: bool = True, threads: int | None = None
    ) -> npt.NDArray[np.uint16]:
        """Values of the prefix plus each row of an ``(N, k)`` integer array, as uint16.

        Rows are checked as :func:`~twoplustwo.evaluate_batch` checks them
        (in the prefix's game), and a row holding one of the prefix's cards
        is an error too.
        """
        workers = pool.resolve_threads(threads)
        m = len(self.cards)
        h = as_hands(hands, range(max(0, 5 - m), 8 - m))
        n = m + h.shape[1]
        if h.shape[1] == 0:
            return np.full(len(h), self.node(n), dtype=np.uint16)
        # Only the rows' own layers are walked, from the prefix's node.
        g = self._game
        return walk_batch(
            h,
            g.layers(n)[m:],
            g.walker,
            depth=m,
            start=self.node(n),
            held=self.cards,
            check=check,
            workers=workers,
            game=g,
        )

    def extend(self, cards: Cards) -> Prefix:
        """A deeper prefix of the same game: this one's cards and ``cards``."""
        more = parse_cards(cards)
        self._game.check_cards(more)
        check_disjoint([("the prefix", self.cards), ("the cards", more)])
        return _build(list(self.cards) + more, self.tables, self.game)


def _build(cards: list[int], t: Tables, game: str) -> Prefix:
    if len(cards) > MAX_PREFIX:
        raise ValueError(f"a prefix holds 0 to {MAX_PREFIX} cards, got {len(cards)}")
    return Prefix(tuple(cards), t, game)


def prefix(cards: Cards = (), *, game: str = HOLDEM, tables: Tables | None = None) -> Prefix:
    """Walk ``cards`` (0 to 6, distinct) once and return a :class:`Prefix` to finish hands from.

    ``game`` is as for :func:`~twoplustwo.evaluate`: every card, of the
    prefix and of the hands it finishes, must be of that game's deck.

    >>> prefix("As Ks Qs Js").evaluate("Ts")
    7462
    >>> prefix("As Ks").evaluate("As Qs Js Ts")
    Traceback (most recent call last):
    ...
    ValueError: As is in both the prefix and the cards
    >>> prefix("As 5s", game="short-deck")
    Traceback (most recent call last):
    ...
    ValueError: card 1 ('5s'): not in the short-deck deck, the 36 cards from six to ace
    """
    game = check_game(game)
    walked = _build(parse_cards(cards), get_tables(tables), game)
    walked._game.check_cards(walked.cards)
    return walked
