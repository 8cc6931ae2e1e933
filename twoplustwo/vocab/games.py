"""Which game a call evaluates: hold'em, or short deck under Triton or classic rules.

Every function that evaluates takes a keyword-only ``game=`` naming one of
:data:`GAMES`. Hold'em walks the DAGs it always had; another game walks the
one DAG ``<game>/dag7`` of its table set (5- and 6-card hands through its
first layers and the ``value5`` / ``value6`` arrays, ``spec/README.md``
section 13). :func:`resolve` gives a :class:`Game`: the game as one table
set holds it, its deck, values and categories read from the manifest's
``games`` entry and checked where they are first used.

>>> g = resolve("short-deck")
>>> g.deck, g.values, g.categories[3]
(range(16, 52), 1404, ('straight', 877, 882))
>>> g.check_cards([51, 0])
Traceback (most recent call last):
...
ValueError: card 1 ('2c'): not in the short-deck deck, the 36 cards from six to ace
>>> resolve("razz")
Traceback (most recent call last):
...
ValueError: unknown game 'razz'; known games: holdem, short-deck, short-deck-classic

This module imports no numpy until an array is asked for, so that a single
hand of any game stays as cheap to evaluate as a hold'em hand.
"""

from __future__ import annotations

import os
import reprlib
from collections.abc import Sequence
from functools import cached_property

from twoplustwo.tables.default import get_tables
from twoplustwo.tables.format import MANIFEST, TableError, layer_role
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.classes import CATEGORY_NAMES, RANK_NAMES, class_counts

# typing's names are for the type checker only (twoplustwo/__init__.py says why).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    import numpy as np
    import numpy.typing as npt

    from twoplustwo.kernels.interface import Walker

    Array = npt.NDArray[np.unsignedinteger[Any]]

__all__ = ["GAMES", "HOLDEM", "Game", "check_game", "read_game", "resolve"]

HOLDEM = "holdem"

#: The games the runtime evaluates. A table set holds hold'em always, the
#: others when it was built with them (``make`` builds all three).
GAMES: tuple[str, ...] = (HOLDEM, "short-deck", "short-deck-classic")

# Hold'em's values per category, as spec/README.md section 7 fixes them:
# a reader of hold'em never depends on the manifest's games entry.
_HOLDEM_CATEGORIES = tuple(
    zip(
        CATEGORY_NAMES,
        (1, 1278, 4138, 4996, 5854, 5864, 7141, 7297, 7453),
        (1277, 4137, 4995, 5853, 5863, 7140, 7296, 7452, 7462),
    )
)

_show = reprlib.Repr()
_show.maxstring = 40
_show.maxlist = 6
_show.maxother = 40


def check_game(game: object) -> str:
    """The name in :data:`GAMES` that ``game`` equals, else the ``TypeError`` or ``ValueError`` that says so.

    A str subclass equal to a name (a ``StrEnum`` member, ``np.str_``) gives
    that plain name: its ``str()`` or f-string need not be the name, and
    the C entry point looks games up by plain str.
    """
    if type(game) is str and game in GAMES:  # first, as every call that evaluates comes here
        return game
    if isinstance(game, str) and game in GAMES:
        return GAMES[GAMES.index(game)]
    if not isinstance(game, str):
        raise TypeError(f"game must be a str such as {HOLDEM!r}, got {type(game).__name__}")
    raise ValueError(f"unknown game {_show.repr(game)}; known games: {', '.join(GAMES)}")


class Game:
    """One game as one table set holds it: its deck, values, categories, DAG layers and walker.

    ``deck`` is the range of card ints hands may hold, ``values`` the
    number N of values (``1..N``), ``categories`` each category's
    ``(name, first, last)`` values, weakest first. Get one from
    :func:`resolve`.
    """

    def __init__(
        self,
        tables: Tables,
        name: str,
        deck: range,
        values: int,
        categories: tuple[tuple[str, int, int], ...],
    ) -> None:
        self.tables = tables
        self.name = name
        self.deck = deck
        #: One bit per card of the deck, as a walker takes it.
        self.mask = sum(1 << c for c in deck)
        self.values = values
        self.categories = categories
        self._fused: dict[int, Array] = {}

    def __repr__(self) -> str:
        return f"Game({self.name!r}, deck={self.deck!r}, values={self.values})"

    @property
    def holdem(self) -> bool:
        return self.name == HOLDEM

    @property
    def dag(self) -> str:
        """The game's 7-card DAG, the start of its roles (hold'em's is ``dag7``)."""
        return "dag7" if self.holdem else f"{self.name}/dag7"

    def not_in_deck(self) -> str:
        """The end of the message for a card outside the deck."""
        lowest = RANK_NAMES[self.deck.start >> 2]
        return f"not in the {self.name} deck, the {len(self.deck)} cards from {lowest} to ace"

    def check_cards(self, cards: Sequence[int], what: str = "card") -> None:
        """Raise ``ValueError`` naming the first of ``cards`` (ints 0..51) outside the deck, and its place.

        ``what`` names the cards in the message, such as ``"include card"``.
        """
        low = self.deck.start
        if not low:
            return  # the whole deck: every card 0..51 is in it
        for i, c in enumerate(cards):
            if c < low:
                from twoplustwo.vocab.cards import format_card

                raise ValueError(f"{what} {i} ({format_card(c)!r}): {self.not_in_deck()}")

    def layers(self, n: int) -> list[Array]:
        """The arrays an ``n``-card walk reads, one per card; the last one holds values.

        Hold'em's are those of ``dag5``, ``dag6`` or ``dag7``. Another game
        walks the first ``n`` layers of its ``dag7`` and, for 5 and 6 cards,
        looks the node up in ``value5`` or ``value6``: that last layer and
        the lookup are fused into one array here (``value[layer]``, made
        once per table set, 2 MB), so every walk is a plain walk.
        """
        if self.holdem:
            return self.tables.layers(f"dag{n}")
        dag = self.tables.layers(self.dag)
        if n == 7:
            return dag
        return dag[: n - 1] + [self._fused_layer(n)]

    def layer_views(self, n: int) -> list[memoryview]:
        """:meth:`layers` as native memoryviews, for walks from Python."""
        if self.holdem:
            return self.tables.layer_views(f"dag{n}")
        dag = self.tables.layer_views(self.dag)
        if n == 7:
            return dag
        fused: Any = self._fused_layer(n)  # numpy's stubs do not declare the buffer protocol
        return dag[: n - 1] + [memoryview(fused)]

    def _fused_layer(self, n: int) -> Array:
        fused = self._fused.get(n)
        if fused is None:
            import numpy as np

            value = self.tables.arrays[f"{self.dag}/value{n}"]
            layer = self.tables.arrays[layer_role(self.dag, n)]
            # Native order, so that a memoryview of it reads it.
            fused = np.ascontiguousarray(value.take(layer), dtype=value.dtype.newbyteorder("="))
            fused.setflags(write=False)
            self._fused[n] = fused
        return fused

    @cached_property
    def walker(self) -> Walker:
        """The walker over the game's DAG, of the table set's backend."""
        if self.holdem:
            return self.tables.walker
        return self.tables.game_walker(self.dag, self.mask)


def resolve(game: str, tables: Tables | None = None) -> Game:
    """The game ``game`` as the table set ``tables`` (default: the default set) holds it.

    An unknown name is a ``ValueError`` (checked before any table is
    loaded), a name that is no str a ``TypeError``; a set without the
    game's DAG, or whose manifest describes it badly, a :class:`TableError`.
    """
    game = check_game(game)
    t = get_tables(tables)
    g: Game | None = t.games.get(game)
    if g is None:
        # Threads may read a game at once; the first one stored stays, so
        # that a set has one Game (with its fused arrays and walker) per game.
        g = t.games.setdefault(game, read_game(t, game))
    return g


def read_game(t: Tables, name: str) -> Game:
    """The game ``name`` of the table set ``t``, after checking its roles and its manifest entry.

    Hold'em needs nothing beyond the 20 roles every set has. Another game
    needs its 9 roles and a ``games`` entry whose deck, sizes, values and
    categories make sense; anything else is a :class:`TableError`.
    """
    name = check_game(name)
    if name == HOLDEM:
        return Game(t, name, range(52), 7462, _HOLDEM_CATEGORIES)
    dag = f"{name}/dag7"
    roles = [layer_role(dag, k) for k in range(1, 8)] + [f"{dag}/value5", f"{dag}/value6"]
    missing = [r for r in roles if r not in t.buffers]
    if missing:
        raise TableError(
            f"the tables at {t.path} hold no {name} DAG (no {missing[0]}): rebuild them with `make` "
            f"or `python -m twoplustwo_builder --out {t.path}`, which build every game"
        )
    where = f"{os.path.join(t.path, MANIFEST)}: games[{name!r}]"
    games = t.manifest.get("games")
    entry = games.get(name) if isinstance(games, dict) else None
    if not isinstance(entry, dict):
        raise TableError(
            f"{where} is missing or not an object, though the set holds the {name} DAG: rebuild the tables "
            f"with `make` or `python -m twoplustwo_builder --out {t.path}`"
        )

    def bad(key: str, want: str) -> TableError:
        return TableError(f"{where}.{key} must be {want}, got {_show.repr(entry.get(key))}")

    deck = entry.get("deck")
    if (
        not isinstance(deck, list)
        or not 24 <= len(deck) <= 52
        or len(deck) % 4
        or deck != list(range(52 - len(deck), 52))
    ):
        # Whole ranks up to the ace: the one kind of deck whose straights
        # (the ace low below the lowest rank) the runtime knows how to name.
        raise bad("deck", "every card from some rank up to the aces (six ranks or more), increasing, such as 16..51")
    if not all(type(c) is int for c in deck):
        raise bad("deck", "a list of integers")
    if entry.get("sizes") != [5, 6, 7] or not all(type(s) is int for s in entry["sizes"]):
        raise bad("sizes", "[5, 6, 7]")
    values = entry.get("values")
    if type(values) is not int or not 1 <= values <= 65535:
        raise bad("values", "an integer from 1 to 65535")
    dags = entry.get("dags")
    if not isinstance(dags, list) or dag not in dags:
        raise bad("dags", f"a list holding {dag!r}")
    cats = entry.get("categories")
    want = f"the nine categories {', '.join(CATEGORY_NAMES)}, each once, as [name, first, last] from 1 to {values}"
    if not isinstance(cats, list) or len(cats) != len(CATEGORY_NAMES):
        raise bad("categories", want)
    categories: list[tuple[str, int, int]] = []
    following = 1
    for c in cats:
        if not (isinstance(c, list) and len(c) == 3 and isinstance(c[0], str) and type(c[1]) is type(c[2]) is int):
            raise bad("categories", want)
        cname, first, last = c
        if cname not in CATEGORY_NAMES or first != following or last < first:
            raise bad("categories", want)
        categories.append((cname, first, last))
        following = last + 1
    if following != values + 1 or len({c[0] for c in categories}) != len(categories):
        raise bad("categories", want)
    ranks = len(deck) // 4
    classes = class_counts(deck[0] >> 2)
    for cname, first, last in categories:
        if last - first + 1 != classes[cname]:
            raise TableError(
                f"{where}.categories do not match a deck of {ranks} ranks: {cname} has {last - first + 1} values, "
                f"the rules give {classes[cname]}"
            )
    return Game(t, name, range(deck[0], 52), values, tuple(categories))
