"""Evaluate hands by walking the DAG: one lookup per card.

``evaluate`` takes one hand of 5, 6 or 7 cards; ``evaluate_batch`` an
``(N, k)`` array. Both check their input (range, duplicates, count) and
return values on the contract scale 1..7462.

>>> evaluate("As Ks Qs Js Ts 2c 3d")
7462
>>> evaluate([0, 4, 8, 12, 17])  # 2c 3c 4c 5c 6d: six-high straight
5855
>>> evaluate_batch(np.array([[51, 47, 43, 39, 35, 0, 5]])).tolist()
[7462]
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Sequence

import numpy as np
import numpy.typing as npt

from .cards import CardLike, parse_cards
from .tables import Tables, get_tables, on_clear

__all__ = ["evaluate", "evaluate_batch", "walk"]


class _Walker:
    """Python-level views of one table set, for the single-hand path.

    ``memoryview`` indexing returns plain ints without numpy's per-call
    overhead, and the views still point into the shared read-only pages.
    """

    def __init__(self, t: Tables) -> None:
        def view(a: npt.NDArray[Any]) -> memoryview:
            return memoryview(a).cast("B").cast(a.dtype.char)

        self.tables = t
        self.l1, self.l2, self.l3, self.l4, self.l5, self.l6, self.l7 = (
            view(a) for a in t.layers("dag7")
        )
        self.v5 = view(t.arrays["dag7/value5"])
        self.v6 = view(t.arrays["dag7/value6"])


_walker: _Walker | None = None
_walker_lock = threading.Lock()
_BITS = tuple(1 << i for i in range(52)) + (0,) * 52


def _forget_walker() -> None:
    global _walker
    _walker = None


on_clear(_forget_walker)


def _get_walker() -> _Walker:
    global _walker
    t = get_tables()
    w = _walker
    if w is None or w.tables is not t:
        with _walker_lock:
            w = _walker = _Walker(t)
    return w


def _evaluate_parsed(w: _Walker, cards: list[int]) -> int:
    n = len(cards)
    if n not in (5, 6, 7):
        raise ValueError(f"a hand has 5, 6 or 7 cards, got {n}")
    node = 0
    for layer, card in zip((w.l1, w.l2, w.l3, w.l4, w.l5, w.l6, w.l7), cards):
        node = layer[node * 52 + card]
    if n == 5:
        return w.v5[node]
    if n == 6:
        return w.v6[node]
    return node


def evaluate(cards: str | Sequence[CardLike] | npt.NDArray[np.integer]) -> int:
    """Value (1..7462) of one hand of 5, 6 or 7 cards, in any order.

    ``cards`` is a sequence of ints 0..51 or card strings, or one string
    such as ``"As Kd Qh Jc Ts 2c 3d"``. Raises ``ValueError`` naming the
    bad card for a duplicate, a card out of range, a malformed string or a
    wrong card count.

    >>> evaluate(["Ah", "Ad", "Kc", "Kd", "Ks"])  # kings full of aces
    7284
    """
    w = _walker or _get_walker()
    if type(cards) is tuple or type(cards) is list:
        if len(cards) == 7:
            # The hot path: seven ints, checked with one bit per card from a
            # table. Cards 52..103 read 0, so they, like a duplicate, leave
            # fewer than 7 bits set; larger ones fail the lookup; negative ones
            # (which index from the end) fail the sign test of the OR. All fall
            # through to the slow path, which names the problem. bool is an int
            # subclass, hence the type checks.
            try:
                a, b, c, d, e, f, g = cards
                m = _BITS[a] | _BITS[b] | _BITS[c] | _BITS[d] | _BITS[e] | _BITS[f] | _BITS[g]
            except (TypeError, IndexError):
                m = 0
            if (
                m.bit_count() == 7
                and a | b | c | d | e | f | g >= 0
                and type(a) is int
                and type(b) is int
                and type(c) is int
                and type(d) is int
                and type(e) is int
                and type(f) is int
                and type(g) is int
            ):
                return w.l7[
                    w.l6[w.l5[w.l4[w.l3[w.l2[w.l1[a] * 52 + b] * 52 + c] * 52 + d] * 52 + e] * 52 + f]
                    * 52
                    + g
                ]
        ints = _distinct_ints(cards)
        if ints is not None:
            return _evaluate_parsed(w, ints)
    return _evaluate_parsed(w, parse_cards(cards))


def _distinct_ints(cards: Sequence[Any]) -> Sequence[int] | None:
    """``cards`` if it is distinct plain ints 0..51, else None (for parse_cards to explain)."""
    m = 0
    for x in cards:
        if type(x) is not int or not 0 <= x <= 51:
            return None
        m |= _BITS[x]
    return cards if m.bit_count() == len(cards) else None


def _first_bad_row(h: npt.NDArray[np.integer]) -> ValueError:
    """The error for the first row that is out of range or holds a duplicate."""
    out = (h < 0) | (h > 51)
    s = np.sort(np.where(out, -1, h), axis=1)
    dup = (s[:, 1:] == s[:, :-1]).any(axis=1)
    row = int(np.argmax(out.any(axis=1) | dup))
    if out[row].any():
        col = int(np.argmax(out[row]))
        return ValueError(f"hand {row}, card {col}: {h[row, col]} is out of range 0..51")
    return ValueError(f"hand {row}: duplicate card in {h[row].tolist()}")


def _checked_columns(h: npt.NDArray[np.integer]) -> npt.NDArray[np.uint8] | None:
    """``(k, N)`` contiguous uint8 card columns of ``h``, or None if a row is bad.

    Comparing every pair of columns (21 for seven cards) is cheaper than
    it sounds: each comparison is one vectorised pass over bytes.
    """
    if h.size and (h.max() > 51 or (h.dtype.kind == "i" and h.min() < 0)):
        return None
    cols = np.ascontiguousarray(h.T, dtype=np.uint8)
    dup = np.zeros(h.shape[0], dtype=bool)
    eq = np.empty_like(dup)
    for i in range(len(cols)):
        for j in range(i + 1, len(cols)):
            np.equal(cols[i], cols[j], out=eq)
            dup |= eq
    return None if dup.any() else cols


def _walk_columns(
    layers: list[npt.NDArray[np.unsignedinteger]], cols: npt.NDArray[np.integer]
) -> npt.NDArray[np.unsignedinteger]:
    if not np.can_cast(cols.dtype, np.intp):
        cols = cols.astype(np.intp)
    node = layers[0][cols[0]].astype(np.intp)
    for j, layer in enumerate(layers[1:], start=1):
        node *= 52
        node += cols[j]
        node = layer.take(node)
        if j + 1 < len(layers):
            node = node.astype(np.intp)
    return np.asarray(node)  # a plain array, not a memmap of the layer's class


def walk(
    layers: list[npt.NDArray[np.unsignedinteger]], h: npt.NDArray[np.integer]
) -> npt.NDArray[np.unsignedinteger]:
    """Walk each row of ``h`` down ``layers``: the last layer's entries (no checks).

    >>> from twoplustwo.tables import get_tables
    >>> walk(get_tables().layers("dag5"), np.array([[51, 47, 43, 39, 35]])).tolist()
    [7462]
    """
    return _walk_columns(layers, h.T)


_pool: ThreadPoolExecutor | None = None
_PARALLEL_MIN = 1 << 18


def evaluate_batch(
    hands: npt.ArrayLike, *, check: bool = True, threads: int | None = None
) -> npt.NDArray[np.uint16]:
    """Values of an ``(N, k)`` integer array of hands, k in 5..7, as uint16.

    Five- and six-card hands walk their own small DAGs, which stay in
    cache. ``check=False`` skips the range and duplicate checks: faster,
    but a bad hand then gives an arbitrary value (or an ``IndexError``
    for a card far out of range). Large batches are split over
    ``threads`` (default: all cores), since ``take`` releases the GIL.

    >>> evaluate_batch([[48, 49, 50, 51, 44], [0, 4, 8, 12, 49]]).tolist()
    [7452, 5854]
    """
    h = np.asarray(hands)
    if h.ndim != 2 or not 5 <= h.shape[1] <= 7:
        raise ValueError(f"hands must be an (N, k) array with k in 5..7, got shape {h.shape}")
    if h.dtype.kind not in "iu":
        if h.size:
            raise ValueError(f"hands must be integers, got dtype {h.dtype}")
        h = h.astype(np.uint8)  # an empty list arrives as float64
    layers = get_tables().layers(f"dag{h.shape[1]}")

    def part(lo: int, hi: int) -> npt.NDArray[np.unsignedinteger] | None:
        # Each thread checks its own rows, so the check is split over the cores too.
        cols = _checked_columns(h[lo:hi]) if check else np.ascontiguousarray(h[lo:hi].T)
        return None if cols is None else _walk_columns(layers, cols)

    n_threads = threads or os.cpu_count() or 1
    if n_threads == 1 or len(h) < _PARALLEL_MIN:
        parts = [part(0, len(h))]
    else:
        global _pool
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=os.cpu_count() or 1)
        bounds = np.linspace(0, len(h), n_threads + 1).astype(int)
        parts = list(_pool.map(part, bounds[:-1], bounds[1:]))
    if any(p is None for p in parts):
        raise _first_bad_row(h)
    out = np.concatenate(parts) if len(parts) > 1 else parts[0]
    return out.astype(np.uint16, copy=False)
