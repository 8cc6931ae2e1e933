"""The numpy loops of the reference walker (:mod:`twoplustwo.kernels.reference`), its arguments checked.

Each function twins a C kernel of ``kernels/c/``: whole columns of cards go
down the layers together, one ``take`` per layer, so every lookup of a
layer is one vectorised pass.

>>> from twoplustwo.tables.default import get_tables
>>> walk_columns(get_tables().layers("dag5"), np.array([[51], [47], [43], [39], [35]])).tolist()
[7462]
"""

from __future__ import annotations

import threading
import weakref
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from twoplustwo.kernels import pool
from twoplustwo.kernels.draws import MAX_DRAW, Draws, draw_index
from twoplustwo.vocab.lows import LOW_BIT, LOW_VALUE

__all__ = ["draw_values", "omaha_rows", "range_values", "rank_combos", "walk_columns", "walk_rows"]

Layers = list[npt.NDArray[np.unsignedinteger[Any]]]
IntArray = npt.NDArray[np.intp]

# Rows per step of the Omaha kernels. A step's temporaries take 80 bytes a
# row per board triple and hole card (640 for PLO6), so at 4,096 rows they
# about fit a core's 1 MB L2 cache; twice as many rows ran at half the speed.
_OMAHA_STEP = 1 << 12
# For k board cards: the positions of every triple's first, second and third card.
_TRIPLES = {k: tuple(np.array(c, dtype=np.intp) for c in zip(*combinations(range(k), 3))) for k in (3, 4, 5)}
# The combos c1 < c2, c1 ascending, then c2.
_FIRST, _SECOND = np.triu_indices(52, 1)


def walk_columns(layers: Layers, cols: npt.NDArray[np.integer[Any]], start: int = 0) -> npt.NDArray[np.unsignedinteger]:
    """The entries ``cols`` (one column of cards per layer, a hand per column) reach from node ``start`` (no checks)."""
    if not np.can_cast(cols.dtype, np.intp):
        cols = cols.astype(np.intp)
    first = cols[0] if not start else cols[0].astype(np.intp) + start * 52
    node = layers[0][first].astype(np.intp)
    for j, layer in enumerate(layers[1:], start=1):
        node *= 52
        node += cols[j]
        node = layer.take(node)
        if j + 1 < len(layers):
            node = node.astype(np.intp)
    return np.asarray(node)  # a plain array, not a memmap of the layer's class


def walk_rows(
    layers: Layers, rows: npt.NDArray[np.uint8], out: npt.NDArray[np.uint16], check: bool, start: int, forbidden: int
) -> int:
    """``Walker.walk_rows``: the first bad row (a card over 51; with ``check`` a card twice or ``forbidden``) or -1."""
    cols = np.array(rows.T, order="C")  # read once: checked and walked from this copy
    bad = _bad_columns(cols, check, forbidden)
    if bad is not None:
        return int(np.argmax(bad))
    out[...] = walk_columns(layers, cols, start)
    return -1


def _bad_columns(cols: npt.NDArray[np.uint8], check: bool, forbidden: int) -> npt.NDArray[np.bool_] | None:
    """Which hands (columns) are bad, or None if none is.

    Comparing every pair of rows of cards (21 for seven cards) is cheaper
    than it sounds: each comparison is one vectorised pass over bytes.
    """
    bad = np.zeros(cols.shape[1], dtype=bool)
    if cols.size and cols.max() > 51:
        bad |= (cols > 51).any(axis=0)
    if check:
        eq = np.empty_like(bad)
        for i in range(len(cols)):
            for j in range(i + 1, len(cols)):
                np.equal(cols[i], cols[j], out=eq)
                bad |= eq
        # A deck of the top cards (short deck) forbids every card below its lowest.
        low = 0
        while low < 52 and forbidden >> low & 1:
            low += 1
        if low and cols.size:
            bad |= (cols < low).any(axis=0)
        others = [c for c in range(low, 52) if forbidden >> c & 1]
        if others:
            bad |= np.isin(cols, others).any(axis=0)
    return bad if bad.any() else None


def _walk_draws(
    layers: Layers, depth: int, nodes: npt.NDArray[np.int64], rows: npt.NDArray[np.uint8]
) -> npt.NDArray[Any]:
    """The entries each row of cards reaches from its node at ``depth``, one layer per card."""
    for j in range(rows.shape[1]):
        nodes = layers[depth + j].take(nodes * 52 + rows[:, j]).astype(np.int64)
    return nodes


def draw_values(
    layers: Layers, depth: int, node: int, free: npt.NDArray[np.uint8], out: npt.NDArray[np.uint16]
) -> None:
    """``Walker.draw_values``: every (7 - depth)-card draw from ``free`` added to ``node``, in lexicographic order."""
    t = 7 - depth
    if t > MAX_DRAW:
        rows = free[draw_index(len(free), t)]
        out[...] = _walk_draws(layers, depth, np.full(len(rows), node, dtype=np.int64), rows)
        return
    # Each shared prefix walked once.
    tail = _draws(free.tobytes(), t)
    r0, r1 = tail.rows()
    tail.values(layers, depth, node, r0, r1, out)


def _draws(free: bytes, t: int) -> Draws:
    """The draws from ``free``: one for the players an equity call walks side by side, gone when they are done."""
    with _draws_lock:
        draws = _live_draws.get((free, t))
        if draws is None:
            draws = _live_draws[free, t] = Draws(list(free), t)
        return draws


_live_draws: weakref.WeakValueDictionary[tuple[bytes, int], Draws] = weakref.WeakValueDictionary()
_draws_lock = threading.Lock()


def _fresh_lock_in_child() -> None:
    global _draws_lock
    _draws_lock = threading.Lock()


pool.after_fork(_fresh_lock_in_child)


def range_values(
    layers: Layers,
    starts: npt.NDArray[np.integer[Any]],
    held: npt.NDArray[np.uint64],
    depth: int,
    prefix: list[int],
    free: npt.NDArray[np.uint8],
    out: npt.NDArray[np.uint16],
) -> None:
    """``Walker.range_values``: each combo's value on every board of ``prefix`` and a draw from ``free``; 0 on a
    board that holds a card of the combo's ``held`` mask."""
    t = 7 - depth - len(prefix)
    rows = free[draw_index(len(free), t)]
    one = np.uint64(1)
    row_masks = np.bitwise_or.reduce(one << rows.astype(np.uint64), axis=1)
    on_prefix = sum(1 << c for c in prefix)
    out[...] = 0
    for i in range(len(starts)):
        if int(held[i]) & on_prefix:
            continue
        node = int(starts[i])
        for j, card in enumerate(prefix):
            node = int(layers[depth + j][node * 52 + card])
        live = (row_masks & held[i]) == 0
        nodes = np.full(int(np.count_nonzero(live)), node, dtype=np.int64)
        out[i, live] = _walk_draws(layers, depth + len(prefix), nodes, rows[live])


def rank_combos(layers: Layers, node: int, dead: int, out: npt.NDArray[np.uint16]) -> None:
    """``Walker.rank_combos``: each combo's value from ``node`` down two ``layers``; 0 if it holds a ``dead`` card."""
    rows = layers[0][node * 52 + np.arange(52)].astype(np.intp) * 52
    out[...] = layers[1].take(rows[_FIRST] + _SECOND)
    if dead:
        cards = np.array([c for c in range(52) if dead >> c & 1])
        out[np.isin(_FIRST, cards) | np.isin(_SECOND, cards)] = 0


def omaha_rows(
    layers: Layers | None, holes: npt.NDArray[np.uint8], boards: npt.NDArray[np.uint8], out: npt.NDArray[Any]
) -> int:
    """``Walker.omaha_rows`` (the best high down dag5's ``layers``) or ``omaha_low_rows`` (``layers`` None).

    Returns the first row with a card over 51 or a card twice, or -1.
    """
    shared = len(boards) == 1 and len(holes) != 1
    for a in range(0, len(holes), _OMAHA_STEP):
        z = min(a + _OMAHA_STEP, len(holes))
        # Private copies, read once: checked and walked from the same cards.
        h = np.array(holes[a:z].T, dtype=np.intp)
        b = np.array((boards if shared else boards[a:z]).T, dtype=np.intp)
        bad = _bad_deals(h, b)
        if bad is not None:
            return a + bad
        out[a:z] = _low_step(h, b) if layers is None else _high_step(layers, h, b)
    return -1


def _bad_deals(h: IntArray, b: IntArray) -> int | None:
    """The first deal (column) with a card over 51 or a card twice, or None. Whole columns at a time: numpy's
    reductions along a short row axis cost several times more."""
    over = np.zeros(h.shape[1], dtype=bool)
    seen = np.zeros(h.shape[1], dtype=np.uint64)
    for col in (*h, *b):
        over |= col > 51
        bit = np.left_shift(np.uint64(1), (col & 63).astype(np.uint64))
        over |= (seen & bit) != 0
        seen |= bit
    return int(np.argmax(over)) if over.any() else None


def _high_step(layers: Layers, h: IntArray, b: IntArray) -> npt.NDArray[Any]:
    l1, l2, l3, l4, l5 = layers
    # Board triples down layers 1..3: a (triples, rows) array of nodes, times 52.
    x, y, z = _TRIPLES[len(b)]
    n = np.multiply(l1.take(b[x]), 52, dtype=np.intp)
    n = np.multiply(l2.take(n + b[y]), 52, dtype=np.intp)
    n3 = np.multiply(l3.take(n + b[z]), 52, dtype=np.intp)
    # Layer 4 once per (triple, hole card); the last hole card only ever comes second.
    n4 = [np.multiply(l4.take(n3 + card), 52, dtype=np.intp) for card in h[:-1]]
    best = np.zeros((len(n3), h.shape[1]), dtype=np.uint16)
    for i, j in combinations(range(len(h)), 2):
        np.maximum(best, l5.take(n4[i] + h[j]), out=best)
    return np.asarray(best.max(axis=0))


def _low_step(h: IntArray, b: IntArray) -> npt.NDArray[Any]:
    hb, bb = LOW_BIT[h], LOW_BIT[b]
    x, y, z = _TRIPLES[len(b)]
    triples = bb[x] | bb[y] | bb[z]
    best = np.zeros((len(triples), h.shape[1]), dtype=np.uint8)
    for i, j in combinations(range(len(h)), 2):
        np.maximum(best, LOW_VALUE[triples | (hb[i] | hb[j])], out=best)
    return np.asarray(best.max(axis=0))
