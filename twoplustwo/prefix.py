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
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from . import pool
from .cards import check_disjoint, format_cards, parse_cards
from .draws import Cards
from .evaluate import as_hands, walk_batch
from .tables import Tables, get_tables

__all__ = ["MAX_PREFIX", "Prefix", "prefix"]

#: Most cards a prefix holds: a 7-card hand needs at least one more.
MAX_PREFIX = 6


@dataclass(frozen=True)
class Prefix:
    """Cards walked once, ready to finish hands; build one with :func:`prefix`."""

    cards: tuple[int, ...]
    tables: Tables = field(repr=False)
    # The node of the n-card DAG after the cards (their value when they are
    # n already), walked the first time a hand of n cards asks for it.
    _nodes: dict[int, int] = field(default_factory=dict, repr=False, compare=False)

    def node(self, n: int) -> int:
        """The node of the ``n``-card DAG (n = 5, 6, 7, at least the prefix's size) after its cards."""
        node = self._nodes.get(n)
        if node is None:
            layers = self.tables.layer_views(f"dag{n}")
            node = 0
            for depth, card in enumerate(self.cards):
                node = layers[depth][node * 52 + card]
            self._nodes[n] = node
        return node

    def __repr__(self) -> str:
        return f"Prefix({format_cards(self.cards)!r})"

    def evaluate(self, cards: Cards = ()) -> int:
        """Value of the prefix's cards plus ``cards``: 5 to 7 cards in all, none twice."""
        rest = parse_cards(cards)
        check_disjoint([("the prefix", self.cards), ("the cards", rest)])
        n = len(self.cards) + len(rest)
        if not len(self.cards) <= n <= 7 or n < 5:
            m = len(self.cards)
            raise ValueError(f"a hand has 5, 6 or 7 cards; the prefix's {m} and {len(rest)} more make {n}")
        node = self.node(n)
        layers = self.tables.layer_views(f"dag{n}")
        for depth, card in enumerate(rest, start=len(self.cards)):
            node = layers[depth][node * 52 + card]
        return node

    def evaluate_batch(
        self, hands: npt.ArrayLike, *, check: bool = True, threads: int | None = None
    ) -> npt.NDArray[np.uint16]:
        """Values of the prefix plus each row of an ``(N, k)`` integer array, as uint16.

        Rows are checked as :func:`~twoplustwo.evaluate_batch` checks them,
        and a row holding one of the prefix's cards is an error too.
        """
        workers = pool.resolve_threads(threads)
        m = len(self.cards)
        h = as_hands(hands, range(max(0, 5 - m), 8 - m))
        n = m + h.shape[1]
        if h.shape[1] == 0:
            return np.full(len(h), self.node(n), dtype=np.uint16)
        # Only the rows' own layers are walked, from the prefix's node.
        layers = self.tables.layers(f"dag{n}")[m:]
        return walk_batch(
            h,
            layers,
            depth=m,
            start=self.node(n),
            held=self.cards,
            check=check,
            workers=workers,
            walker=self.tables.walker,
        )

    def extend(self, cards: Cards) -> Prefix:
        """A deeper prefix: this one's cards and ``cards``."""
        more = parse_cards(cards)
        check_disjoint([("the prefix", self.cards), ("the cards", more)])
        return _build(list(self.cards) + more, self.tables)


def _build(cards: list[int], t: Tables) -> Prefix:
    if len(cards) > MAX_PREFIX:
        raise ValueError(f"a prefix holds 0 to {MAX_PREFIX} cards, got {len(cards)}")
    return Prefix(tuple(cards), t)


def prefix(cards: Cards = (), *, tables: Tables | None = None) -> Prefix:
    """Walk ``cards`` (0 to 6, distinct) once and return a :class:`Prefix` to finish hands from.

    >>> prefix("As Ks Qs Js").evaluate("Ts")
    7462
    >>> prefix("As Ks").evaluate("As Qs Js Ts")
    Traceback (most recent call last):
    ...
    ValueError: As is in both the prefix and the cards
    """
    return _build(parse_cards(cards), get_tables(tables))
