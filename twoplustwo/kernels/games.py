"""A game as the kernels play it: its table layers with a walker over them, and :func:`resolve`.

:func:`resolve` gives the :class:`Game` of a name and a table set: the
set's :class:`~twoplustwo.tables.games.GameLayers` (rules, deck, values,
categories, layers), checked once and kept with the set, and the walker
over its DAG, of the backend chosen for the set when first asked for.
:func:`walker_of` is hold'em's walker of a set, what most kernels take.

>>> g = resolve("short-deck")
>>> g.deck, g.values, g.categories[3]
(range(16, 52), 1404, ('straight', 877, 882))
>>> g.check_cards([51, 0])
Traceback (most recent call last):
...
ValueError: card 1 ('2c'): not in the short-deck deck, the 36 cards from six to ace
>>> g.walker.evaluate([51, 47, 43, 39, 35])
1404
>>> resolve("badugi").walker.evaluate([48, 1, 6, 11])  # A-2-3-4 of four suits
1092
>>> resolve("razz ")
Traceback (most recent call last):
...
ValueError: unknown game 'razz '; known games: holdem, short-deck, short-deck-classic, stud, stud-hilo, razz, \
lowball-27, lowball-a5, badugi

The C entry point of evaluate() serves the default set's hold'em walker
without a Python frame: this module keeps it in step with the default set
(``twoplustwo.tables.default.on_default``). This module imports no numpy
until an array is asked for, so that a single hand of any game stays as
cheap to evaluate as a hold'em hand.
"""

from __future__ import annotations

from functools import cached_property

from twoplustwo.kernels.choice import chosen, serve_default
from twoplustwo.tables.default import get_tables, on_default
from twoplustwo.tables.format import dag_depth, layer_role
from twoplustwo.tables.games import GameLayers, check_holds
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.rules import HOLDEM, RULES, check_game

# typing's names are for the type checker only (twoplustwo/__init__.py says why).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from twoplustwo.kernels.interface import Backend, Walker
    from twoplustwo.vocab.rules import Rules

__all__ = ["Game", "backend_of", "make_walker", "resolve", "walker_of"]


class Game(GameLayers):
    """One game as one table set holds it, with its walker: what :func:`resolve` gives.

    Besides :class:`~twoplustwo.tables.games.GameLayers`' ``name``,
    ``deck``, ``mask``, ``values``, ``categories``, ``rules``, ``tables``,
    ``layers(n)``, ``layer_views(n)`` and ``check_cards``: ``walker``.
    """

    @cached_property
    def walker(self) -> Walker:
        """The walker over the game's DAG, of the table set's backend (made once per set and game).

        A game that walks hold'em's DAGs (stud) shares hold'em's walker,
        with the tables C derives from them for speed.
        """
        holdem = RULES[HOLDEM]
        if self.name != HOLDEM and self.rules.sizes == holdem.sizes and self.rules.mask == holdem.mask:
            if all(self.rules.layout(n) == holdem.layout(n) for n in holdem.sizes):
                return walker_of(self.tables)
        return make_walker(self.tables, self.rules)


def resolve(game: str, tables: Tables | None = None) -> Game:
    """The game ``game`` as the table set ``tables`` (default: the default set) holds it.

    An unknown name is a ``ValueError`` (checked before any table is
    loaded), a name that is no str a ``TypeError``; a set without the
    game's DAG, or whose manifest describes it otherwise than its rules, a
    :class:`~twoplustwo.tables.format.TableError`.
    """
    return _game(check_game(game), get_tables(tables))


def _game(game: str, t: Tables) -> Game:
    key = "game " + game
    g: Game | None = t.cache.get(key)
    if g is None:
        rules = RULES[game]
        check_holds(t, rules)
        # Threads may read a game at once; the first one stored stays, so
        # that a set has one Game (with its fused arrays and walker) per game.
        g = t.cache.setdefault(key, Game(t, rules))
    return g


def walker_of(tables: Tables) -> Walker:
    """The walker over the hold'em DAGs of the set ``tables``, what ``resolve("holdem", tables).walker`` gives.

    Not counted as resolving a game (kernels and tests that count calls of
    :func:`resolve` see only the callers' own).
    """
    return _game(HOLDEM, get_tables(tables)).walker


def backend_of(tables: Tables) -> Backend:
    """The backend the walkers of ``tables`` run on: the one chosen when the set's first walker was made."""
    backend: Backend | None = tables.cache.get("backend")
    if backend is None:
        backend = tables.cache.setdefault("backend", chosen())
    return backend


def make_walker(tables: Tables, rules: Rules) -> Walker:
    """A new walker over the DAGs the layout of ``rules`` names in ``tables``, of the set's backend.

    A walker takes the hands of the game's sizes, 4 to 7 cards, each through
    the DAG its layout names: a DAG of its own size (hold'em's ``dag5``,
    ``dag6`` and ``dag7``, badugi's ``dag4``), or the first layers of a
    7-card DAG and its ``value5`` or ``value6`` array (short deck's and
    razz's 5- and 6-card hands). A deck of fewer than 52 cards is the
    walker's mask of cards hands may hold; a game whose values do not follow
    ranks and flushes as a high game's (``Rules.flush_ranked``) gets no
    tables derived for speed.
    """

    def little(role: str) -> Any:
        # The C walker reads little-endian bytes, as the format stores them
        # and as the mapped views hold them.
        b = tables.buffers[role]
        if isinstance(b, memoryview):
            return b
        a = tables.arrays[role]
        return a if a.dtype.str[0] in "<|" else a.astype(a.dtype.newbyteorder("<"))

    def layers(dag: str) -> list[Any]:
        return [little(layer_role(dag, k)) for k in range(1, dag_depth(dag) + 1)]

    own: dict[int, Any] = {}
    for n in rules.sizes:
        dag, value = rules.layout(n)
        if value is None:
            own[n] = layers(dag)
    values: list[Any] = [None, None]
    if 7 in own:
        dag7 = rules.layout(7)[0]
        values = [little(rules.layout(n)[1] or f"{dag7}/value{n}") for n in (5, 6)]
    kwargs: dict[str, Any] = {} if len(rules.deck) == 52 else {"deck": rules.mask}
    if 4 in own:
        kwargs["dag4"] = own[4]
    if not rules.flush_ranked:
        kwargs["small"] = False
    return backend_of(tables).Walker(own.get(5), own.get(6), own.get(7), values[0], values[1], **kwargs)


def _serve(t: Tables | None) -> None:
    # The C entry point of evaluate() serves the default set without a
    # Python frame (not on the numpy backend).
    serve_default(None if t is None else walker_of(t))


on_default(_serve)
