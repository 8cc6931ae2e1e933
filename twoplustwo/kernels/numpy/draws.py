"""Every way to draw some of a set of free cards, in order, and the walks of the draws.

:class:`Draws` lists every t-card draw (t = 1..5) from a set of free cards
in lexicographic order, and walks the draws from one DAG node with shared
prefixes walked once; :class:`Ordered` lists every hand of some include
and free cards that way. They are the numpy backend's enumeration
(:mod:`twoplustwo.kernels.numpy.enumerate`), twins of ``kernels/c/enumerate.c``.

>>> draws = Draws([0, 1, 2, 3], 2)
>>> draws.real_rows(draws.rows()[0]).tolist()
[[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from math import comb

import numpy as np
import numpy.typing as npt

from twoplustwo.kernels import pool

__all__ = ["MAX_DRAW", "Draws", "Ordered", "Subsets", "subsets", "take_into"]

#: Most cards one draw takes: blocks of all t-subsets of 0..51 are
#: precomputed up to this size; hands of 6 or 7 free cards fix their first
#: one or two cards in a Python loop and take the rest from the 5-subsets.
MAX_DRAW = 5
# Rows per vectorised step of the last layer: its temporaries (8 bytes a
# row) then stay in the per-core L2 cache.
_BLOCK = 1 << 16


class Subsets:
    """Every l-subset of 0..51 (l = 1..5) in lexicographic order, as a tree.

    The children of a subset ``s`` are ``s + (y,)`` for ``y > max(s)``: they
    are contiguous in the next level, in order, so ``off[l][i]`` is where the
    children of entry ``i`` start, ``cnt[l][i] = 51 - last[l][i]`` how many
    there are, and ``parent[l + 1][j]`` the entry a child ``j`` extends.
    Subsets whose smallest card is at least ``c`` are the suffix from
    ``starts[l][c]`` of their level, and so are their descendants.
    """

    def __init__(self) -> None:
        self.rows: dict[int, npt.NDArray[np.uint8]] = {1: np.arange(52, dtype=np.uint8)[:, None]}
        self.last: dict[int, npt.NDArray[np.uint8]] = {}
        self.last64: dict[int, npt.NDArray[np.int64]] = {}
        self.cnt: dict[int, npt.NDArray[np.int64]] = {}
        self.off: dict[int, npt.NDArray[np.int64]] = {}
        self.starts: dict[int, npt.NDArray[np.int64]] = {}
        self.parent: dict[int, npt.NDArray[np.intp]] = {}
        for level in range(1, MAX_DRAW + 1):
            rows = self.rows[level]
            self.last[level] = np.ascontiguousarray(rows[:, -1])
            self.last64[level] = self.last[level].astype(np.int64)
            self.starts[level] = np.searchsorted(rows[:, 0], np.arange(53)).astype(np.int64)
            if level == MAX_DRAW:
                break
            cnt = 51 - self.last64[level]
            off = np.zeros(len(rows) + 1, dtype=np.int64)
            np.cumsum(cnt, out=off[1:])
            # Parents as indices, not np.repeat on the fly: take() releases
            # the GIL, repeat() does not.
            self.parent[level + 1] = np.repeat(np.arange(len(rows), dtype=np.intp), cnt)
            child = np.empty((int(off[-1]), level + 1), dtype=np.uint8)
            child[:, :-1] = np.repeat(rows, cnt, axis=0)
            # The k-th child of a parent ending at x ends at x + 1 + k.
            child[:, -1] = np.arange(len(child)) - np.repeat(off[:-1] - self.last64[level] - 1, cnt)
            self.cnt[level], self.off[level], self.rows[level + 1] = cnt, off, child
        self._padded: dict[tuple[int, int], npt.NDArray[np.uint8]] = {}

    def padded(self, lead: int, t: int) -> npt.NDArray[np.uint8]:
        """The t-subsets after ``lead`` blank columns, so a chunk's cards are one copy."""
        key = (lead, t)
        block = self._padded.get(key)
        if block is None:
            with _subsets_lock:
                block = self._padded.get(key)
                if block is None:
                    block = np.zeros((len(self.rows[t]), lead + t), dtype=np.uint8)
                    block[:, lead:] = self.rows[t]
                    self._padded[key] = block
        return block


_subsets_cache: Subsets | None = None
_subsets_lock = threading.Lock()


def _fresh_lock_in_child() -> None:
    global _subsets_lock
    _subsets_lock = threading.Lock()


pool.after_fork(_fresh_lock_in_child)


def subsets() -> Subsets:
    """The process's one :class:`Subsets`, built on first use (about 65 MiB, 0.2 s)."""
    global _subsets_cache
    if _subsets_cache is None:
        with _subsets_lock:
            if _subsets_cache is None:
                _subsets_cache = Subsets()
    return _subsets_cache


class Draws:
    """The t-card draws (t = 1..5) from a set of free cards, in lexicographic order.

    The m free cards stand for the universe positions ``52 - m .. 51`` of
    :class:`Subsets`, whose subsets of those positions are a suffix of each
    level; ``real[l][i - base[l]]`` is the real last card of level-l entry
    ``i``. With all 52 cards free the mapping is the identity and nothing
    is copied.
    """

    def __init__(self, free: Sequence[int], t: int) -> None:
        self.subsets = s = subsets()
        self.t = t
        self.m = m = len(free)
        self.z = z = 52 - m
        self.identity = m == 52
        self.base = {level: int(s.starts[level][z]) for level in range(1, t + 1)}
        self.real: dict[int, npt.NDArray[np.uint8] | npt.NDArray[np.int64]]
        if self.identity:
            self.real = {level: s.last64[level] for level in range(1, t + 1)}
        else:
            # Cards as bytes: a level's real cards take an eighth of the memory.
            self.lut = np.zeros(52, dtype=np.uint8)
            self.lut[z:] = free
            self.real = {
                level: self.lut.take(s.last[level][self.base[level] :]) for level in range(1, t + 1)
            }

    def real_rows(self, base: int) -> npt.NDArray[np.uint8]:
        """The level-t entries from ``base`` on as real cards, one row per draw."""
        index: npt.NDArray[np.uint8] = self.subsets.rows[self.t][base:] - np.uint8(self.z)
        rows: npt.NDArray[np.uint8] = index.copy()
        # The i-th free card is i plus the number of taken cards below it;
        # the k-th taken card (from 0) is below it exactly when
        # taken[k] - k <= i. Comparisons on uint8 beat a take(), which
        # would widen every index to 64 bits.
        free = set(self.lut[self.z :].tolist())
        taken = [c for c in range(52) if c not in free]
        bump = np.empty_like(rows)
        for k, c in enumerate(taken):
            np.greater_equal(index, c - k, out=bump.view(np.bool_))
            rows += bump
        return rows

    def rows(self, lo: int = 0) -> tuple[int, int]:
        """Range of level-t entries whose cards are all free and at positions >= ``lo``."""
        return int(self.subsets.starts[self.t][max(lo, self.z)]), len(self.subsets.rows[self.t])

    def values(
        self,
        layers: list[npt.NDArray[np.unsignedinteger]],
        depth: int,
        node: int,
        r0: int,
        r1: int,
        out: npt.NDArray[np.uint16],
    ) -> None:
        """Write the values of draws ``r0 .. r1`` (level-t entries) added to ``node``.

        ``node`` is at ``depth`` of the DAG whose ``layers`` are given; the
        draw's cards take the next t layers, the last of which holds values.
        Every level walks only the prefixes the range needs, each once.
        """
        if r1 <= r0:
            return
        s, t, real, base = self.subsets, self.t, self.real, self.base
        last_layer = layers[depth + t - 1]
        if t == 1:
            ids = real[1][r0 - base[1] : r1 - base[1]].astype(np.int64) + node * 52
            take_into(last_layer, ids, out)
            return
        # The ancestors of the rows, level by level upwards: parents of a
        # contiguous range are a contiguous range.
        lo, hi = [0] * (t + 1), [0] * (t + 1)
        lo[t], hi[t] = r0, r1
        for level in range(t, 1, -1):
            lo[level - 1] = int(s.parent[level][lo[level]])
            hi[level - 1] = int(s.parent[level][hi[level] - 1]) + 1
        # nodes[l][i] is 52 * (node after level-l entry i), for the entries
        # in lo[l] .. hi[l]; the arrays span whole levels so that parent
        # indices need no offset, and belong to the thread.
        nodes = _scratch(s, t - 1)
        ids = real[1][lo[1] - base[1] : hi[1] - base[1]].astype(np.int64) + node * 52
        np.multiply(layers[depth].take(ids), 52, out=nodes[1][lo[1] : hi[1]], dtype=np.int64)
        for level in range(2, t):
            a, e = lo[level], hi[level]
            ids = nodes[level - 1].take(s.parent[level][a:e], mode="wrap")
            ids += real[level][a - base[level] : e - base[level]]
            walked = layers[depth + level - 1].take(ids, mode="wrap")
            np.multiply(walked, 52, out=nodes[level][a:e], dtype=np.int64)
        # The last level in blocks whose temporaries stay in cache.
        above, parent, last_real, b = nodes[t - 1], s.parent[t], real[t], base[t]
        buf = np.empty(min(_BLOCK, r1 - r0), dtype=np.int64)
        for a in range(r0, r1, _BLOCK):
            e = min(a + _BLOCK, r1)
            ids = buf[: e - a]
            above.take(parent[a:e], out=ids, mode="wrap")
            ids += last_real[a - b : e - b]
            take_into(last_layer, ids, out[a - r0 : e - r0])


_local = threading.local()


def _scratch(s: Subsets, levels: int) -> dict[int, npt.NDArray[np.int64]]:
    """Per-thread node arrays, one per level up to ``levels``, each as long as its level."""
    arrays: dict[int, npt.NDArray[np.int64]] = getattr(_local, "nodes", None) or {}
    for level in range(1, levels + 1):
        if level not in arrays:
            arrays[level] = np.empty(len(s.rows[level]), dtype=np.int64)
    _local.nodes = arrays
    return arrays


def take_into(layer: npt.NDArray[np.unsignedinteger], ids: npt.NDArray[np.int64], out: np.ndarray) -> None:
    # take() with out= buffers a copy of out unless the mode is 'wrap' or
    # 'clip'; the ids are always in range, so 'wrap' never wraps.
    if layer.dtype == out.dtype:
        layer.take(ids, out=out, mode="wrap")
    else:
        out[...] = layer.take(ids, mode="wrap")


class Ordered:
    """Fills any range of rows of an ordered enumeration (the reference of ``Walker.fill_ordered``); safe from threads.

    The hands are every n-card hand of the sorted ``include`` cards (walked
    already: ``node`` is where they lead) and k = n - len(include) of the
    sorted ``free`` cards, down ``layers`` (the n-card walk). The k free
    cards of a hand split into a prefix of p = k - t cards (one *group* per
    prefix, at most C(52, 2) of them) and a tail of t <= 5 cards taken from
    :class:`Draws`. A group's rows are its tail's suffix, and within a
    group every row's cards are a copy of a precomputed block row plus the
    group's constant leading columns.
    """

    def __init__(
        self, n: int, node: int, free: list[int], include: list[int], layers: list[npt.NDArray[np.unsignedinteger]]
    ) -> None:
        self.n, self.layers = n, layers
        k = n - len(include)
        self.t = t = min(k, MAX_DRAW)
        p = k - t
        self.tail = tail = Draws(free, t)
        z = tail.z
        prefixes: list[tuple[int, ...]] = [()]
        for _ in range(p):
            prefixes = [q + (u,) for q in prefixes for u in range(q[-1] + 1 if q else z, 52)]
        starts, leads, blocks, nodes = [], [], [], []
        depth0 = len(include)
        for q in prefixes:
            cards = [free[u - z] for u in q]
            at = node
            for i, c in enumerate(cards):
                at = int(layers[depth0 + i][at * 52 + c])
            top = cards[-1] if cards else -1
            # Include cards below the prefix's last card are fixed columns of
            # the group; those above interleave with the tail, row by row.
            leads.append(sorted(cards + [c for c in include if c < top]))
            blocks.append(tuple(c for c in include if c > top))
            starts.append(tail.rows(q[-1] + 1 if q else z)[0])
            nodes.append(at)
        self.depth = depth0 + p
        self.group_start = np.array(starts, dtype=np.int64)
        self.group_node, self.group_lead, self.group_block = nodes, leads, blocks
        end = len(tail.subsets.rows[t])
        sizes = end - self.group_start
        self.offsets = np.zeros(len(prefixes) + 1, dtype=np.int64)
        np.cumsum(sizes, out=self.offsets[1:])
        assert self.offsets[-1] == comb(len(free), k)
        self.blocks = {key: self._block(key) for key in set(blocks)}

    def _block(self, above: tuple[int, ...]) -> tuple[npt.NDArray[np.uint8], int]:
        """Rows of tail cards merged with the include cards ``above``, after blank lead columns."""
        tail, n, t = self.tail, self.n, self.t
        lead = n - t - len(above)
        if tail.identity and not above:
            return tail.subsets.padded(lead, t), 0
        base, _ = tail.rows()
        rows = tail.real_rows(base)
        if above:
            rows = _merge(rows, above)
        block = np.zeros((len(rows), n), dtype=np.uint8)
        block[:, lead:] = rows
        return block, base

    def fill(self, r0: int, r1: int, cards: npt.NDArray[np.uint8], values: npt.NDArray[np.uint16]) -> None:
        """Write rows ``r0 .. r1`` of the enumeration into ``cards`` and ``values``."""
        offsets = self.offsets
        g = int(np.searchsorted(offsets, r0, "right")) - 1
        pos = r0
        while pos < r1:
            g_end = int(offsets[g + 1])
            if g_end <= pos:
                g += 1
                continue
            end = min(g_end, r1)
            # Rows of group g, as level-t entries of the tail.
            a = int(self.group_start[g]) + pos - int(offsets[g])
            e = a + end - pos
            o0, o1 = pos - r0, end - r0
            block, base = self.blocks[self.group_block[g]]
            dst = cards[o0:o1]
            dst[...] = block[a - base : e - base]
            for col, card in enumerate(self.group_lead[g]):
                dst[:, col] = card
            self.tail.values(self.layers, self.depth, self.group_node[g], a, e, values[o0:o1])
            pos = end
            g += 1


def _merge(rows: npt.NDArray[np.uint8], extra: tuple[int, ...]) -> npt.NDArray[np.uint8]:
    """Each sorted row of ``rows`` with the sorted cards ``extra`` merged in, still sorted.

    >>> _merge(np.array([[1, 5], [6, 7]], dtype=np.uint8), (4, 9)).tolist()
    [[1, 4, 5, 9], [4, 6, 7, 9]]
    """
    n, t = rows.shape
    width = t + len(extra)
    out = np.full((n, width), 255, dtype=np.uint8)
    flat = out.reshape(-1)
    starts = np.arange(0, n * width, width)
    # A row's i-th card lands i places in, plus one per extra card below it.
    shift = np.empty(n, dtype=np.uint8)
    above = np.empty(n, dtype=np.bool_)
    for i in range(t):
        col = rows[:, i]
        shift.fill(i)
        for y in extra:
            np.greater(col, y, out=above)
            shift += above
        flat[starts + shift] = col
    # The places left over belong to the extra cards, in order, row by row.
    out[out == 255] = np.tile(np.array(extra, dtype=np.uint8), n)
    return out
