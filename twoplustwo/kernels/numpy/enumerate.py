"""Every hand or board of a kind, walked with shared prefixes walked once: the numpy twin of ``kernels/c/enumerate.c``.

``draw_values`` (each draw completing a dag7 walk), ``fill_ordered`` (every
hand in lexicographic order, for ``iter_hands``), ``range_values`` (each
combo of a range on every board of a block, for exact range equity) and
``rank_combos`` (each two-card combo finishing a walk, for rankings): the
numpy walker's methods of those names, each checking its arguments as C
does. The draws themselves are listed by :mod:`twoplustwo.kernels.numpy.draws`.

>>> from twoplustwo.kernels.numpy import DAGS, Walker
>>> from twoplustwo.tables.default import get_tables
>>> t = get_tables()
>>> w = Walker(*[[t.buffers[f"{d}/layer{k}"] for k in range(1, n + 1)] for d, n in DAGS], t.buffers["dag7/value5"],
...            t.buffers["dag7/value6"])
>>> node = 0
>>> for depth, card in enumerate([51, 47, 43, 39, 35]):  # As Ks Qs Js Ts
...     node = int(w.layers(7)[depth][node * 52 + card])
>>> out = np.empty(3, dtype=np.uint16)  # the draws 2c 2d, 2c 2h, 2d 2h: a royal flush each time
>>> draw_values(w, node, 5, np.array([0, 1, 2], dtype=np.uint8), out)
>>> out.tolist()
[7462, 7462, 7462]
"""

from __future__ import annotations

import threading
import weakref
from math import comb
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from twoplustwo.kernels import pool
from twoplustwo.kernels.numpy.args import ALL_CARDS, array, long, mask, sorted_cards
from twoplustwo.kernels.numpy.draws import MAX_DRAW, Draws, Ordered
from twoplustwo.vocab.draws import draw_index

if TYPE_CHECKING:
    from twoplustwo.kernels.interface import U8, U16
    from twoplustwo.kernels.numpy.walker import Dags

__all__ = ["combo_values", "draw_values", "fill_ordered", "range_values", "rank_combos"]

Layers = list[npt.NDArray[np.unsignedinteger[Any]]]

# The 1,326 two-card combos (c1 < c2, c1 ascending, then c2).
_N_COMBOS = 1326
# The combos c1 < c2, c1 ascending, then c2.
_FIRST, _SECOND = np.triu_indices(52, 1)


def _walk_draws(
    layers: Layers, depth: int, nodes: npt.NDArray[np.int64], rows: npt.NDArray[np.uint8]
) -> npt.NDArray[Any]:
    """The entries each row of cards reaches from its node at ``depth``, one layer per card."""
    for j in range(rows.shape[1]):
        nodes = layers[depth + j].take(nodes * 52 + rows[:, j]).astype(np.int64)
    return nodes


def _draw_values(
    layers: Layers, depth: int, node: int, free: npt.NDArray[np.uint8], out: npt.NDArray[np.uint16]
) -> None:
    """Every (7 - depth)-card draw from ``free`` added to ``node``, in lexicographic order."""
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


def _range_values(
    layers: Layers,
    starts: npt.NDArray[np.integer[Any]],
    held: npt.NDArray[np.uint64],
    depth: int,
    prefix: list[int],
    free: npt.NDArray[np.uint8],
    out: npt.NDArray[np.uint16],
) -> None:
    """Each combo's value on every board of ``prefix`` and a draw from ``free``; 0 on a
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


def combo_values(layers: Layers, node: int, dead: int, out: npt.NDArray[np.uint16]) -> None:
    """Each combo's value from ``node`` down two ``layers``; 0 if it holds a ``dead`` card (no checks)."""
    rows = layers[0][node * 52 + np.arange(52)].astype(np.intp) * 52
    out[...] = layers[1].take(rows[_FIRST] + _SECOND)
    if dead:
        cards = np.array([c for c in range(52) if dead >> c & 1])
        out[np.isin(_FIRST, cards) | np.isin(_SECOND, cards)] = 0


def draw_values(w: Dags, node: int, depth: int, free: U8, out: U16, /) -> None:
    """The values of every (7 - depth)-card draw from the sorted ``free`` cards added to dag7 node ``node``."""
    at, d = long(node), long(depth)
    fr, o = array(free), array(out, writable=True)
    m, t = fr.size, 7 - d
    if fr.itemsize != 1 or o.itemsize != 2 or d < 0 or t < 1 or m > 52 or m < t:
        raise ValueError(
            "draw_values takes a node, a depth of 0..6, uint8 free cards (at least 7 - depth) and uint16 out"
        )
    if not 0 <= at < w.nodes(7, d):
        raise ValueError("node is not a node of that depth")
    cards = fr.view("u1").reshape(-1).copy()  # checked and walked from one copy
    if not sorted_cards(cards, w.deck):
        raise ValueError("free cards must be sorted, distinct and in the deck")
    if o.size != comb(m, t):
        raise ValueError("out must hold one entry per draw")
    _draw_values(w.layers(7), d, at, cards, o.view("u2").reshape(-1))


def fill_ordered(w: Dags, n: int, node: int, free: U8, include: U8, r0: int, cards: U8, values: U16, /) -> None:
    """Rows ``r0 ..`` of the ordered enumeration of the n-card hands of the ``include`` cards and ``free`` ones."""
    size, at, first = long(n), long(node), long(r0)
    fr, inc = array(free), array(include)
    cb, vb = array(cards, writable=True), array(values, writable=True)
    m, h = fr.size, inc.size
    k, rows = size - h, vb.size
    if not 5 <= size <= 7 or fr.itemsize != 1 or inc.itemsize != 1 or k < 1 or m > 52 or m < k:
        raise ValueError(
            "fill_ordered takes n = 5..7, uint8 free cards (at least n - len(include)) and include cards"
        )
    if cb.itemsize != 1 or vb.itemsize != 2 or cb.size != rows * size:
        raise ValueError("cards must be (R, n) uint8 and values (R,) uint16")
    if not 0 <= at < w.nodes(size, h):
        raise ValueError("node is not a node of that depth")
    if first < 0 or first + rows > comb(m, k):
        raise ValueError("rows beyond the last hand")
    fcards, icards = fr.view("u1").reshape(-1).copy(), inc.view("u1").reshape(-1).copy()
    if not sorted_cards(fcards, w.deck):
        raise ValueError("free cards must be sorted, distinct and in the deck")
    if not sorted_cards(icards, w.deck):
        raise ValueError("include cards must be sorted, distinct and in the deck")
    # Made once for the many calls that fill one enumeration's chunks.
    key = (size, at, fcards.tobytes(), icards.tobytes())
    ordered = w.ordered.get(key)
    if ordered is None:
        ordered = Ordered(size, at, fcards.tolist(), icards.tolist(), w.layers(size))
        w.ordered = {key: ordered}
    ordered.fill(first, first + rows, cb.view("u1").reshape(rows, size), vb.view("u2").reshape(-1))


def rank_combos(w: Dags, node: int, depth: int, held: int, out: U16, /) -> None:
    """The value of each two-card combo finishing node ``node`` at ``depth`` of the (depth + 2)-card walk."""
    at, d, cards = long(node), long(depth), mask(held)
    o = array(out, writable=True)
    if not 3 <= d <= 5 or o.itemsize != 2 or o.size != _N_COMBOS:
        raise ValueError("rank_combos takes a depth of 3..5 and a uint16 out of 1326 entries")
    if not 0 <= at < w.nodes(d + 2, d):
        raise ValueError("node is not a node of that depth")
    combo_values(w.layers(d + 2)[d:], at, (cards | ~w.deck) & ALL_CARDS, o.view("u2").reshape(-1))


def range_values(
    w: Dags,
    starts: npt.NDArray[np.uint32],
    held: npt.NDArray[np.uint64],
    depth: int,
    prefix: U8,
    free: U8,
    out: U16,
    /,
) -> None:
    """Each combo's value on every board of ``prefix`` and a draw from ``free``, from dag7 node ``starts[d]``."""
    d = long(depth)
    sb, hb, pb, fb = array(starts), array(held), array(prefix), array(free)
    ob = array(out, writable=True)
    n, p, m = sb.nbytes // 4, pb.nbytes, fb.nbytes
    t = 7 - d - p
    draws = comb(m, t) if t >= 0 else 0
    if (
        (sb.itemsize, hb.itemsize, pb.itemsize, fb.itemsize, ob.itemsize) != (4, 8, 1, 1, 2)
        or hb.nbytes != n * 8
        or d < 0
        or t < 1
        or m > 52
        or m < t
    ):
        raise ValueError(
            "range_values takes uint32 starts, uint64 held, a depth, uint8 prefix and free cards "
            "(at least 7 - depth - len(prefix)) and uint16 out"
        )
    if ob.nbytes != n * draws * 2:
        raise ValueError("out must hold one row per combo and one entry per draw")
    pre, cards = pb.view("u1").reshape(-1).copy(), fb.view("u1").reshape(-1).copy()
    if len(set(pre.tolist() + cards.tolist())) != p + m or not (
        sorted_cards(pre, w.deck, increasing=False) and sorted_cards(cards, w.deck)
    ):
        raise ValueError("prefix and free cards must be distinct cards of the deck, free cards sorted")
    nodes = sb.view("u4").reshape(-1).copy()
    if n and int(nodes.max()) >= w.nodes(7, d):
        raise ValueError("a start is not a node of that depth")
    masks = hb.view("u8").reshape(-1).copy()
    _range_values(w.layers(7), nodes, masks, d, pre.tolist(), cards, ob.view("u2").reshape(n, draws))
