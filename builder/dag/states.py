"""Enumerate the partial hands of a DAG layer by layer, merging suit-isomorphic ones.

A node at depth ``k`` is the set of ``k`` cards held so far, in a canonical
form that forgets what can no longer matter for an ``n``-card hand:

* a suit with fewer than ``k + 5 - n`` cards can never reach five by the
  ``n``-th card, so its cards keep only their rank (a *suitless* symbol);
* once five cards share a suit, the others can no longer matter (no full
  house or quads fit beside a flush in seven cards), so they are dropped.

Both rules hold in every game of :mod:`twoplustwo_builder.dag.games`. The first
is about flushes alone, and a short-deck suit has nine cards, enough for any
flush. The second needs that no hand beside a flush beats it: only a
straight flush, quads and a full house can, the straight flush lies within
the suit, and quads or a full house would share at most one card with the
flush each (a rank holds one card of a suit), so quads and a flush take
5 + 4 - 1 = 8 cards, a full house and a flush 5 + 5 - 2 = 8. Short deck
ranks the flush above the full house, which only makes the rule safer.
Nothing else in a node depends on the ranking, which reaches the DAG only
through its leaf values (:meth:`GameBuild.lookup <twoplustwo_builder.dag.games.GameBuild.lookup>`).

A node is stored as a sorted row of symbols: ``0..51`` a card with its suit,
``52 + rank`` a card reduced to its rank, ``PAD`` a dropped card. Sorting
makes the row independent of card order, and packing it into one integer
gives the key that identifies equal nodes.

Transitions that no valid hand takes (a card the node holds with its suit,
a fifth card of a rank, a card outside the game's deck) are marked *dead*: the table may send them anywhere,
which :mod:`twoplustwo_builder.dag.join` uses to merge more nodes. Duplicate cards are the
runtime's to reject; the DAG cannot see a duplicate of a card whose suit it
has dropped.

>>> layers = enumerate_states(5)
>>> [len(layer.states) for layer in layers]
[1, 52, 403, 1599, 4680]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..oracles import signature
from .games import HOLDEM, GameBuild

__all__ = ["DEAD", "PAD", "SUITLESS", "Layer", "enumerate_states", "hand_values", "row_keys"]

SUITLESS = 52  # symbol 52 + rank: a card whose suit no longer matters
PAD = 65  # a dropped card; sorts after every real symbol
DEAD = -1  # transition that no valid hand takes
_BASE = 66


@dataclass
class Layer:
    """The nodes at one depth and where each card leads from them.

    ``states`` is ``(N, depth)`` uint8 symbol rows. ``next`` is ``(N, 52)``
    int64: the child node index at ``depth + 1``, or :data:`DEAD`; for the
    last node depth it holds hand values (0 for dead) instead.
    """

    depth: int
    states: npt.NDArray[np.uint8]
    next: npt.NDArray[np.int64]


# Per-symbol lookups: rank (PAD has rank 13, which no card has), and a
# nibble-per-suit counter (seed 000's suit-counter trick) that suitless and
# dropped symbols leave alone.
_RANK = np.array([c >> 2 for c in range(52)] + list(range(13)) + [13], dtype=np.int64)
_SUIT_NIBBLE = np.array([1 << (4 * (c & 3)) for c in range(52)] + [0] * 14, dtype=np.int64)
_POW5 = np.append(signature.POW5, 0)


def _ranks(sym: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.int64]:
    ranks: npt.NDArray[np.int64] = _RANK[sym]
    return ranks


def _valid(states: npt.NDArray[np.uint8], game: GameBuild) -> npt.NDArray[np.bool_]:
    """``(N, 52)``: which cards can follow each node in a valid hand."""
    cards = np.arange(52, dtype=np.uint8)
    dup = (states[:, :, None] == cards).any(axis=1)
    rank_counts = np.stack([(_RANK[states] == r).sum(axis=1) for r in range(13)], axis=1)
    valid: npt.NDArray[np.bool_] = ~dup & (rank_counts[:, cards >> 2] < 4) & game.in_deck()
    return valid


def _children(states: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """Every node's row with each of the 52 cards appended."""
    held = np.repeat(states, 52, axis=0)
    card = np.tile(np.arange(52, dtype=np.uint8), len(states))
    return np.concatenate([held, card[:, None]], axis=1)


def _suit_counts(rows: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    packed = _SUIT_NIBBLE[rows].sum(axis=1)
    return np.stack([(packed >> (4 * s)) & 15 for s in range(4)], axis=1)


def _rewrite_table() -> npt.NDArray[np.uint8]:
    """``table[case, symbol]``: what a symbol becomes in each case of a row.

    Cases 0..15 are the set of suits a row keeps (bit s for suit s) when it
    has no flush; case 16 + f is a row with five or more cards of suit f,
    which keeps only that suit's cards.
    """
    table = np.empty((20, 66), dtype=np.uint8)
    for case in range(20):
        for sym in range(66):
            if sym >= SUITLESS:
                new = PAD if case >= 16 else sym
            elif case >= 16:
                new = sym if sym & 3 == case - 16 else PAD
            else:
                new = sym if case >> (sym & 3) & 1 else SUITLESS + (sym >> 2)
            table[case, sym] = new
    return table


_REWRITE = _rewrite_table().ravel()


def _canonical(rows: npt.NDArray[np.uint8], n: int) -> npt.NDArray[np.uint8]:
    """Reduce raw symbol rows at depth ``rows.shape[1]`` of an ``n``-card DAG."""
    depth = rows.shape[1]
    counts = _suit_counts(rows)
    kept = counts >= depth + 5 - n
    case = (kept * np.array([1, 2, 4, 8])).sum(axis=1)
    flush = counts.max(axis=1) >= 5
    case[flush] = 16 + np.argmax(counts[flush], axis=1)
    out: npt.NDArray[np.uint8] = _REWRITE[case[:, None] * 66 + rows]
    out.sort(axis=1)
    return out


def row_keys(rows: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """One integer per row of symbols (each under 66), equal exactly where the rows are."""
    key = np.zeros(len(rows), dtype=np.int64)
    for j in range(rows.shape[1]):
        key = key * _BASE + rows[:, j]
    return key


def hand_values(rows: npt.NDArray[np.uint8], game: GameBuild = HOLDEM) -> npt.NDArray[np.uint16]:
    """``game``'s values of complete symbol rows (5 to 7 symbols, dropped cards as PAD).

    Suitless symbols cannot be part of a flush, and a row with PAD symbols
    already holds five suited cards, so the seed 000 signature follows from
    the symbols alone.
    """
    digits = _POW5[_RANK[rows]]
    counts = _suit_counts(rows)
    fs = np.argmax(counts, axis=1)
    in_flush = (rows < SUITLESS) & ((rows & 3) == fs[:, None])
    sig = np.where(
        counts.max(axis=1) >= 5,
        2 * (digits * in_flush).sum(axis=1),
        digits.sum(axis=1),
    )
    return game.lookup(sig)


def _leaf_values(
    states: npt.NDArray[np.uint8],
    cards: npt.NDArray[np.integer],
    valid: npt.NDArray[np.bool_] | None = None,
    game: GameBuild = HOLDEM,
) -> npt.NDArray[np.uint16]:
    """``(N, C)`` values of each node plus each of its ``C`` cards, 0 where not ``valid``.

    Per-node sums are formed once, so each of the N*C hands costs a few
    gathers instead of a pass over its symbols.
    """
    digits = _POW5[_RANK[states]]
    counts = _suit_counts(states)
    suit_sums = np.stack(
        [(digits * ((states < SUITLESS) & ((states & 3) == s))).sum(axis=1) for s in range(4)],
        axis=1,
    )
    card_suit = (cards & 3).astype(np.int64)
    card_digit = _POW5[_RANK[cards]]
    new_flush = np.take_along_axis(counts, card_suit, axis=1) >= 4
    old_flush = counts.max(axis=1, keepdims=True) >= 5
    held_flush = np.take_along_axis(suit_sums, np.argmax(counts, axis=1)[:, None], axis=1)
    sig = np.where(
        new_flush,
        2 * (np.take_along_axis(suit_sums, card_suit, axis=1) + card_digit),
        np.where(old_flush, 2 * held_flush, digits.sum(axis=1, keepdims=True) + card_digit),
    )
    if valid is None:
        return game.lookup(sig)
    sig[~valid] = game.table()[0][0]
    return np.where(valid, game.lookup(sig), 0).astype(np.uint16)


def enumerate_states(
    n: int, progress: Callable[[int], None] | None = None, game: GameBuild = HOLDEM
) -> list[Layer]:
    """All canonical nodes of an ``n``-card DAG of ``game``, depth 0 to ``n - 1``.

    ``progress`` is called with each depth as it completes.
    """
    if n not in (5, 6, 7):
        raise ValueError(f"a DAG is for 5, 6 or 7 cards, not {n}")
    states = np.zeros((1, 0), dtype=np.uint8)
    layers: list[Layer] = []
    for depth in range(n):
        valid = _valid(states, game)
        if depth + 1 == n:
            cards = np.broadcast_to(np.arange(52, dtype=np.uint8), valid.shape)
            values = _leaf_values(states, cards, valid, game).astype(np.int64)
            layers.append(Layer(depth, states, values))
            break
        flat = valid.ravel()
        canon = _canonical(_children(states)[flat], n)
        _, first, inverse = np.unique(row_keys(canon), return_index=True, return_inverse=True)
        nxt = np.full(flat.shape, DEAD, dtype=np.int64)
        nxt[flat] = inverse.ravel()
        layers.append(Layer(depth, states, nxt.reshape(-1, 52)))
        states = canon[first]
        if progress:
            progress(depth)
    if progress:
        progress(n - 1)
    return layers
