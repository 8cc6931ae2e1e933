"""A game as one table set holds it: its rules, checked against the set, and the DAG layers its hands walk.

:func:`read_game` checks that a set holds a game's DAG and that the
manifest's ``games`` entry agrees with the game's rules
(:mod:`twoplustwo.vocab.rules`), and gives a :class:`GameLayers`: the
arrays an ``n``-card walk reads, as the rules' :meth:`~twoplustwo.vocab.rules.base.Rules.layout`
says. The walker over them is the kernels' (:mod:`twoplustwo.kernels.games`).

>>> from twoplustwo.tables.default import get_tables
>>> g = read_game(get_tables(), "short-deck")
>>> g.deck, g.values, g.categories[3], len(g.layers(5))
(range(16, 52), 1404, ('straight', 877, 882), 5)
"""

from __future__ import annotations

import os

from twoplustwo.tables.format import MANIFEST, TableError, check_game_entry, dag_depth, layer_role
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.rules import HOLDEM, Rules, rules_of

# typing's names are for the type checker only (twoplustwo/__init__.py says why).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    import numpy as np
    import numpy.typing as npt

    Array = npt.NDArray[np.unsignedinteger[Any]]

__all__ = ["GameLayers", "check_holds", "game_roles", "read_game"]


def game_roles(rules: Rules) -> list[str]:
    """Every role a table set needs to walk the game of ``rules``: each DAG's layers, then the value arrays."""
    layers: list[str] = []
    values: list[str] = []
    for n in rules.sizes:
        dag, value = rules.layout(n)
        depth = dag_depth(dag)  # one layer per card
        layers += [r for r in (layer_role(dag, k) for k in range(1, depth + 1)) if r not in layers]
        if value is not None:
            values.append(value)
    return layers + values


class GameLayers:
    """One game as one table set holds it: its rules, deck, values and categories, and the layers its hands walk.

    ``deck`` is the range of card ints hands may hold, ``values`` the
    number N of values (``1..N``), ``categories`` each category's
    ``(name, first, last)`` values, weakest first: the rules', which the
    set's manifest was checked against. Get one from :func:`read_game`.
    """

    def __init__(self, tables: Tables, rules: Rules) -> None:
        self.tables = tables
        self.rules = rules
        self.name = rules.name
        self.deck = rules.deck
        #: One bit per card of the deck, as a walker takes it.
        self.mask = rules.mask
        self._fused: dict[int, Array] = {}

    # The rules make their values on first use (hold'em's take milliseconds): a
    # fresh process's first evaluate() resolves hold'em and never asks for them.
    @property
    def values(self) -> int:
        return self.rules.values

    @property
    def categories(self) -> tuple[tuple[str, int, int], ...]:
        return self.rules.categories

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, deck={self.deck!r}, values={self.values})"

    @property
    def holdem(self) -> bool:
        return self.name == HOLDEM

    def not_in_deck(self) -> str:
        """The end of the message for a card outside the deck."""
        return self.rules.not_in_deck()

    def check_cards(self, cards: Sequence[int], what: str = "card") -> None:
        """Raise ``ValueError`` naming the first of ``cards`` (ints 0..51) outside the deck, and its place."""
        self.rules.check_cards(cards, what)

    def layers(self, n: int) -> list[Array]:
        """The arrays an ``n``-card walk reads, one per card; the last one holds values.

        A hand walks the DAG the rules' layout names for its size. When the
        layout also names a value array (another game's 5- and 6-card hands
        walk the first layers of its ``dag7`` and look the node up in
        ``value5`` or ``value6``), that last layer and the lookup are fused
        into one array here (``value[layer]``, made once per table set,
        2 MB), so every walk is a plain walk.
        """
        dag, value = self.rules.layout(n)
        layers = self.tables.layers(dag)
        if value is None:
            return layers
        return layers[: n - 1] + [self._fused_layer(n, dag, value)]

    def layer_views(self, n: int) -> list[memoryview]:
        """:meth:`layers` as native memoryviews, for walks from Python."""
        dag, value = self.rules.layout(n)
        views = self.tables.layer_views(dag)
        if value is None:
            return views
        fused: Any = self._fused_layer(n, dag, value)  # numpy's stubs do not declare the buffer protocol
        return views[: n - 1] + [memoryview(fused)]

    def _fused_layer(self, n: int, dag: str, value_role: str) -> Array:
        fused = self._fused.get(n)
        if fused is None:
            import numpy as np

            value = self.tables.arrays[value_role]
            layer = self.tables.arrays[layer_role(dag, n)]
            # Native order, so that a memoryview of it reads it.
            fused = np.ascontiguousarray(value.take(layer), dtype=value.dtype.newbyteorder("="))
            fused.setflags(write=False)
            self._fused[n] = fused
        return fused


def read_game(t: Tables, name: str) -> GameLayers:
    """The game ``name`` of the table set ``t``, after ``check_holds``; an unknown name is a ``ValueError``."""
    rules = rules_of(name)
    check_holds(t, rules)
    return GameLayers(t, rules)


def check_holds(t: Tables, rules: Rules) -> None:
    """Check that the table set ``t`` holds the game of ``rules``, as its rules have it; else a :class:`TableError`.

    Hold'em needs nothing beyond the 20 roles every set has. Another game
    needs the roles of its layout and a ``games`` entry that agrees with its
    rules (:func:`~twoplustwo.tables.format.check_game_entry`).
    """
    if rules.name == HOLDEM:
        return  # spec/README.md section 7 fixes hold'em's values: its reader never depends on the entry
    missing = [r for r in game_roles(rules) if r not in t.buffers]
    if missing:
        raise TableError(
            f"the tables at {t.path} hold no {rules.name} DAG (no {missing[0]}): rebuild them with `make` "
            f"or `python -m twoplustwo_builder --out {t.path}`, which build every game"
        )
    check_game_entry(t.manifest, rules, os.path.join(t.path, MANIFEST))
