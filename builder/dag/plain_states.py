"""Enumerate the partial hands of a game's DAG whose nodes are rank multisets or card sets.

The high games' nodes forget suits by the flush rules
(:mod:`twoplustwo_builder.dag.states`). Other games say what a node keeps
(:attr:`GameBuild.symbols <twoplustwo_builder.dag.games.GameBuild.symbols>`):

* ``"ranks"``: suits never matter (ace-to-five, razz), so a node is the
  multiset of the ranks held, and a card leads where its rank leads; a
  fifth card of a rank, or a card outside the deck, is dead;
* ``"cards"``: suits matter otherwise than by flushes (badugi), so a node is
  the set of cards held; a card already held, or outside the deck, is dead.

A node is stored as a sorted row of symbols (ranks, or cards), so that it
does not depend on card order; packing the row into one integer gives the
key that identifies equal nodes
(:func:`~twoplustwo_builder.dag.states.row_keys`, as for the high games).
Leaf values come from the game's oracle
(``GameBuild.leaf``), which values rows of symbols; the bottom-up join
(:mod:`twoplustwo_builder.dag.join`) then merges what the rows cannot tell
apart.

>>> from twoplustwo_builder.dag.games import BADUGI, RAZZ
>>> [len(layer.states) for layer in enumerate_plain(7, RAZZ)]
[1, 13, 91, 455, 1820, 6175, 18395]
>>> [len(layer.states) for layer in enumerate_plain(4, BADUGI)]
[1, 52, 1326, 22100]
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from .games import GameBuild
from .states import DEAD, Layer, row_keys

__all__ = ["enumerate_plain", "node_values"]

def _symbols(game: GameBuild) -> npt.NDArray[np.uint8]:
    """``(52,)``: the symbol each card adds to a node."""
    cards = np.arange(52, dtype=np.uint8)
    if game.symbols == "ranks":
        ranks: npt.NDArray[np.uint8] = (cards >> 2).astype(np.uint8)
        return ranks
    if game.symbols == "cards":
        return cards
    raise ValueError(f"{game.name}: nodes by {game.symbols!r} are states.py's, not these")


def _valid(states: npt.NDArray[np.uint8], game: GameBuild) -> npt.NDArray[np.bool_]:
    """``(N, 52)``: which cards can follow each node in a valid hand."""
    sym = _symbols(game)
    same = (states[:, :, None] == sym[None, None, :]).sum(axis=1)  # (N, 52): the node's symbols like the card's
    limit = 4 if game.symbols == "ranks" else 1
    valid: npt.NDArray[np.bool_] = (same < limit) & game.in_deck()
    return valid


def node_values(game: GameBuild, states: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint16]:
    """The game's values of complete rows of symbols (each a hand of a size the game values)."""
    assert game.leaf is not None, f"{game.name} has no leaf oracle"
    return game.leaf(states.astype(np.int64))


def enumerate_plain(n: int, game: GameBuild, progress: Callable[[int], None] | None = None) -> list[Layer]:
    """All nodes of ``game``'s ``n``-card DAG, depth 0 to ``n - 1``, as
    :func:`~twoplustwo_builder.dag.states.enumerate_states` gives a high game's.

    ``progress`` is called with each depth as it completes.
    """
    if n not in (4, 5, 6, 7):
        raise ValueError(f"a DAG is for 4 to 7 cards, not {n}")
    sym = _symbols(game)
    states = np.zeros((1, 0), dtype=np.uint8)
    layers: list[Layer] = []
    for depth in range(n):
        valid = _valid(states, game)
        children = np.concatenate([np.repeat(states, 52, axis=0), np.tile(sym, len(states))[:, None]], axis=1)
        children.sort(axis=1)
        flat = valid.ravel()
        if depth + 1 == n:
            values = np.zeros(flat.shape, dtype=np.int64)
            values[flat] = node_values(game, children[flat])
            layers.append(Layer(depth, states, values.reshape(-1, 52)))
            break
        _, first, inverse = np.unique(row_keys(children[flat]), return_index=True, return_inverse=True)
        nxt = np.full(flat.shape, DEAD, dtype=np.int64)
        nxt[flat] = inverse.ravel()
        layers.append(Layer(depth, states, nxt.reshape(-1, 52)))
        states = children[flat][first]
        if progress:
            progress(depth)
    if progress:
        progress(n - 1)
    return layers
