"""Whole spaces of hands at once: ordered iteration and value histograms.

:func:`iter_hands` yields every n-card hand (n = 5, 6, 7) that holds the
``include`` cards and none of the ``dead`` ones, with its value, in
lexicographic order of the sorted card tuples:

>>> cards, values = next(iter_hands(5, chunk_size=3))
>>> cards.tolist(), values.tolist()
([[0, 1, 2, 3, 4], [0, 1, 2, 3, 5], [0, 1, 2, 3, 6]], [7297, 7297, 7297])

:func:`histogram` counts the same hands per value without materialising
them, and :func:`count_hands` says how many there are:

>>> h = histogram(5)
>>> int(h.sum()), int((h > 0).sum())
(2598960, 7462)
>>> count_hands(7, include="As Ah", dead="Kd Kc")
1712304

Sorted hands share their prefixes, and the DAG does not care in which order
cards arrive, so both walk the include cards first, then the free cards in
increasing order, touching each shared prefix once: iteration costs about
one table lookup per hand, the histogram about one per (node, last card)
pair that some sorted prefix reaches.
"""

from __future__ import annotations

import os
import threading
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from math import comb
from typing import Sequence

import numpy as np
import numpy.typing as npt

from .cards import CardLike, format_cards, parse_cards
from .tables import Tables, get_tables

__all__ = ["DEFAULT_CHUNK_SIZE", "count_hands", "histogram", "iter_hands"]

#: Rows per chunk of :func:`iter_hands`: 9 MB of 7-card hands and values,
#: large enough to amortise per-call overhead, small enough to stay cheap
#: to allocate and to keep a few chunks in flight.
DEFAULT_CHUNK_SIZE = 1 << 20

Cards = str | Sequence[CardLike] | npt.NDArray[np.integer]

# The free cards of a hand come from small precomputed blocks of all
# t-subsets of 0..51 (t <= 5); hands of 6 or 7 free cards fix their first
# one or two cards in a Python loop and take the rest from the 5-subsets.
_MAX_TAIL = 5
# Rows per vectorised step of the last layer: its temporaries (8 bytes a
# row) then stay in the per-core L2 cache.
_BLOCK = 1 << 16
# Chunks smaller than this are filled in the calling thread.
_PARALLEL_MIN = 1 << 15


class _Subsets:
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
        for level in range(1, _MAX_TAIL + 1):
            rows = self.rows[level]
            self.last[level] = np.ascontiguousarray(rows[:, -1])
            self.last64[level] = self.last[level].astype(np.int64)
            self.starts[level] = np.searchsorted(rows[:, 0], np.arange(53)).astype(np.int64)
            if level == _MAX_TAIL:
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
        self._lock = threading.Lock()

    def padded(self, lead: int, t: int) -> npt.NDArray[np.uint8]:
        """The t-subsets after ``lead`` blank columns, so a chunk's cards are one copy."""
        key = (lead, t)
        block = self._padded.get(key)
        if block is None:
            with self._lock:
                block = self._padded.get(key)
                if block is None:
                    block = np.zeros((len(self.rows[t]), lead + t), dtype=np.uint8)
                    block[:, lead:] = self.rows[t]
                    self._padded[key] = block
        return block


_subsets_cache: _Subsets | None = None
_subsets_lock = threading.Lock()


def _subsets() -> _Subsets:
    global _subsets_cache
    if _subsets_cache is None:
        with _subsets_lock:
            if _subsets_cache is None:
                _subsets_cache = _Subsets()
    return _subsets_cache


class _Tail:
    """The t-card draws (t = 1..5) from a set of free cards, in lexicographic order.

    The m free cards stand for the universe positions ``52 - m .. 51`` of
    :class:`_Subsets`, whose subsets of those positions are a suffix of each
    level; ``real[l][i - base[l]]`` is the real last card of level-l entry
    ``i``. With all 52 cards free the mapping is the identity and nothing
    is copied.
    """

    def __init__(self, free: Sequence[int], t: int) -> None:
        self.subsets = s = _subsets()
        self.t = t
        self.m = m = len(free)
        self.z = z = 52 - m
        self.identity = m == 52
        self.base = {level: int(s.starts[level][z]) for level in range(1, t + 1)}
        if self.identity:
            self.real = {level: s.last64[level] for level in range(1, t + 1)}
        else:
            self.lut = np.zeros(52, dtype=np.int64)
            self.lut[z:] = free
            self.real = {
                level: self.lut.take(s.last[level][self.base[level] :]) for level in range(1, t + 1)
            }

    def real_rows(self, base: int) -> npt.NDArray[np.uint8]:
        """The level-t entries from ``base`` on as real cards, one row per draw."""
        index = self.subsets.rows[self.t][base:] - np.uint8(self.z)
        rows = index.copy()
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
            ids = real[1][r0 - base[1] : r1 - base[1]] + node * 52
            _take(last_layer, ids, out)
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
        ids = real[1][lo[1] - base[1] : hi[1] - base[1]] + node * 52
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
            _take(last_layer, ids, out[a - r0 : e - r0])


_local = threading.local()


def _scratch(s: _Subsets, levels: int) -> dict[int, npt.NDArray[np.int64]]:
    """Per-thread node arrays, one per level up to ``levels``, each as long as its level."""
    arrays: dict[int, npt.NDArray[np.int64]] = getattr(_local, "nodes", None) or {}
    for level in range(1, levels + 1):
        if level not in arrays:
            arrays[level] = np.empty(len(s.rows[level]), dtype=np.int64)
    _local.nodes = arrays
    return arrays


def _take(layer: npt.NDArray[np.unsignedinteger], ids: npt.NDArray[np.int64], out: np.ndarray) -> None:
    # take() with out= buffers a copy of out unless the mode is 'wrap' or
    # 'clip'; the ids are always in range, so 'wrap' never wraps.
    if layer.dtype == out.dtype:
        layer.take(ids, out=out, mode="wrap")
    else:
        out[...] = layer.take(ids, mode="wrap")


def _layers(t: Tables, n: int) -> list[npt.NDArray[np.unsignedinteger]]:
    # Plain ndarray views of the memory maps: numpy's memmap subclass adds
    # overhead to every take().
    return [np.asarray(a) for a in t.layers(f"dag{n}")]


class _Space:
    """The hands of one ``(n, include, dead)`` query, checked, and how to walk them."""

    def __init__(self, n: int, include: Cards, dead: Cards, tables: Tables | None) -> None:
        inc, out = _check(n, include, dead)
        self.n, self.include, self.dead = n, inc, out
        taken = set(inc) | set(out)
        self.free = [c for c in range(52) if c not in taken]
        self.m = len(self.free)
        self.k = n - len(inc)  # free cards per hand
        self.total = comb(self.m, self.k)
        self.tables = tables or get_tables()
        self.layers = _layers(self.tables, n)
        node = 0
        for depth, card in enumerate(inc):
            node = int(self.layers[depth][node * 52 + card])
        self.node = node  # after the include cards; their value when k == 0


def _check(n: int, include: Cards, dead: Cards) -> tuple[list[int], list[int]]:
    """Sorted include and dead cards, after checking them against each other and ``n``."""
    if n not in (5, 6, 7):
        raise ValueError(f"n must be 5, 6 or 7, got {n!r}")
    inc = sorted(parse_cards(include))
    out = sorted(parse_cards(dead))
    both = sorted(set(inc) & set(out))
    if both:
        raise ValueError(f"card(s) {format_cards(both)} both included and dead")
    if len(inc) > n:
        raise ValueError(f"{len(inc)} include cards do not fit in a {n}-card hand")
    return inc, out


def count_hands(n: int = 7, *, include: Cards = (), dead: Cards = ()) -> int:
    """Number of ``n``-card hands holding every ``include`` card and no ``dead`` card.

    >>> count_hands(7), count_hands(5, dead="As")
    (133784560, 2349060)
    """
    inc, out = _check(n, include, dead)
    return comb(52 - len(inc) - len(out), n - len(inc))


class _Iteration:
    """Fills any range of rows of an ordered enumeration; safe to call from threads.

    The k free cards of a hand split into a prefix of p = k - t cards (one
    *group* per prefix, at most C(52, 2) of them) and a tail of t <= 5 cards
    taken from :class:`_Tail`. A group's rows are its tail's suffix, and
    within a group every row's cards are a copy of a precomputed block row
    plus the group's constant leading columns.
    """

    def __init__(self, space: _Space) -> None:
        self.space = sp = space
        self.t = t = min(sp.k, _MAX_TAIL)
        p = sp.k - t
        self.tail = tail = _Tail(sp.free, t)
        z, free, layers = tail.z, sp.free, sp.layers
        prefixes: list[tuple[int, ...]] = [()]
        for _ in range(p):
            prefixes = [q + (u,) for q in prefixes for u in range(q[-1] + 1 if q else z, 52)]
        starts, leads, blocks, nodes = [], [], [], []
        depth0 = len(sp.include)
        for q in prefixes:
            cards = [free[u - z] for u in q]
            node = sp.node
            for i, c in enumerate(cards):
                node = int(layers[depth0 + i][node * 52 + c])
            top = cards[-1] if cards else -1
            # Include cards below the prefix's last card are fixed columns of
            # the group; those above interleave with the tail, row by row.
            leads.append(sorted(cards + [c for c in sp.include if c < top]))
            blocks.append(tuple(c for c in sp.include if c > top))
            starts.append(tail.rows(q[-1] + 1 if q else z)[0])
            nodes.append(node)
        self.depth = depth0 + p
        self.group_start = np.array(starts, dtype=np.int64)
        self.group_node, self.group_lead, self.group_block = nodes, leads, blocks
        end = len(tail.subsets.rows[t])
        sizes = end - self.group_start
        self.offsets = np.zeros(len(prefixes) + 1, dtype=np.int64)
        np.cumsum(sizes, out=self.offsets[1:])
        assert self.offsets[-1] == sp.total
        self.blocks = {key: self._block(key) for key in set(blocks)}

    def _block(self, above: tuple[int, ...]) -> tuple[npt.NDArray[np.uint8], int]:
        """Rows of tail cards merged with the include cards ``above``, after blank lead columns."""
        tail, n, t = self.tail, self.space.n, self.t
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
            self.tail.values(self.space.layers, self.depth, self.group_node[g], a, e, values[o0:o1])
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


_pools: dict[int, ThreadPoolExecutor] = {}
_pool_lock = threading.Lock()


def _get_pool(workers: int | None = None) -> ThreadPoolExecutor:
    """A shared pool of ``workers`` threads (default: one per CPU)."""
    workers = workers or os.cpu_count() or 1
    pool = _pools.get(workers)
    if pool is None:
        with _pool_lock:
            pool = _pools.get(workers)
            if pool is None:
                pool = _pools[workers] = ThreadPoolExecutor(
                    max_workers=workers, thread_name_prefix="twoplustwo-exhaustive"
                )
    return pool


def iter_hands(
    n: int = 7,
    *,
    include: Cards = (),
    dead: Cards = (),
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    threads: int | None = None,
    tables: Tables | None = None,
) -> Iterator[tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint16]]]:
    """Yield ``(cards, values)`` chunks of every n-card hand holding ``include`` and avoiding ``dead``.

    ``cards`` is an ``(M, n)`` uint8 array of sorted hands and ``values``
    their ``(M,)`` uint16 values; concatenated, the chunks list each hand
    once, in lexicographic order of the card tuples. Every chunk has
    ``chunk_size`` rows except perhaps the last, and is a fresh array the
    caller may keep. ``include`` and ``dead`` are cards as
    :func:`~twoplustwo.cards.parse_cards` reads them; they must not
    overlap. Chunks are computed ahead on ``threads`` threads (default: one
    per CPU), which only changes the speed, never the order.

    Arguments are checked at the call, not at the first ``next()``:

    >>> iter_hands(7, include="As", dead="As Kd")
    Traceback (most recent call last):
    ...
    ValueError: card(s) As both included and dead
    >>> chunks = iter_hands(6, include="2c 3c 4c 5c", dead="6c")
    >>> cards, values = next(chunks)
    >>> len(cards), cards[0].tolist(), int(values.max())  # at best Ac: a wheel straight flush
    (1081, [0, 1, 2, 4, 8, 12], 7453)
    """
    space = _Space(n, include, dead, tables)
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be positive, got {chunk_size!r}")
    if threads is not None and threads < 1:
        raise ValueError(f"threads must be positive, got {threads!r}")
    return _iterate(space, chunk_size, threads or os.cpu_count() or 1)


def _iterate(
    space: _Space, chunk_size: int, n_threads: int
) -> Iterator[tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint16]]]:
    total, n = space.total, space.n
    if total == 0:
        return
    if space.k == 0:
        yield np.array([space.include], dtype=np.uint8), np.array([space.node], dtype=np.uint16)
        return
    it = _Iteration(space)
    parallel = n_threads > 1 and chunk_size >= _PARALLEL_MIN
    if not parallel:
        for r0 in range(0, total, chunk_size):
            r1 = min(r0 + chunk_size, total)
            cards = np.empty((r1 - r0, n), dtype=np.uint8)
            values = np.empty(r1 - r0, dtype=np.uint16)
            it.fill(r0, r1, cards, values)
            yield cards, values
        return

    pool = _get_pool(n_threads)
    # Two tasks per thread and chunk: a thread slowed down by other work
    # on the machine takes fewer of them instead of holding up the chunk.
    parts = 2 * n_threads

    def launch(r0: int) -> tuple[np.ndarray, np.ndarray, list[Future[None]]]:
        r1 = min(r0 + chunk_size, total)
        cards = np.empty((r1 - r0, n), dtype=np.uint8)
        values = np.empty(r1 - r0, dtype=np.uint16)
        cuts = [r0 + (r1 - r0) * i // parts for i in range(parts + 1)]
        futures = [
            pool.submit(it.fill, a, b, cards[a - r0 : b - r0], values[a - r0 : b - r0])
            for a, b in zip(cuts[:-1], cuts[1:])
            if b > a
        ]
        return cards, values, futures

    # Two chunks in flight keep every thread busy while the caller works on
    # the one just yielded; results still come out strictly in order.
    ahead: deque[tuple[np.ndarray, np.ndarray, list[Future[None]]]] = deque()
    starts = iter(range(0, total, chunk_size))
    try:
        for r0 in starts:
            ahead.append(launch(r0))
            if len(ahead) < 2:
                continue
            cards, values, futures = ahead.popleft()
            for f in futures:
                f.result()
            yield cards, values
        while ahead:
            cards, values, futures = ahead.popleft()
            for f in futures:
                f.result()
            yield cards, values
    finally:
        # An abandoned generator must not leave work queued behind it.
        for _, _, futures in ahead:
            for f in futures:
                f.cancel()


def histogram(
    n: int = 7,
    tables: Tables | None = None,
    *,
    include: Cards = (),
    dead: Cards = (),
) -> npt.NDArray[np.int64]:
    """Number of ``n``-card hands (n = 5, 6, 7) with each value; index = value.

    Only hands holding every ``include`` card and no ``dead`` card count.
    The result has length 7463 and ``result[0] == 0``; it equals the
    ``bincount`` of the values :func:`iter_hands` yields, but no hand is
    materialised.

    >>> h = histogram(7, include="As Ks Qs Js", dead="Ts")
    >>> int(h.sum()), int(h[7462])  # C(47, 3) hands, no royal flush without the ten
    (16215, 0)

    Counts are carried down the DAG per (node, last card) pair. The include
    cards are walked first, then every step adds a free card above the
    last one, so each sorted hand is counted once; a pair's prefixes may all
    take any card above their last, so one cumulative sum per node gives
    the count each (node, next card) transition carries. Only pairs some
    prefix reaches are kept, merged by sorting their keys.
    """
    sp = _Space(n, include, dead, tables)
    hist = np.zeros(7463, dtype=np.int64)
    if sp.total == 0:
        return hist
    if sp.k == 0:
        hist[sp.node] = 1
        return hist
    free = np.array(sp.free, dtype=np.int64)
    m = sp.m
    # Pairs as sorted unique keys: node, and pos = index of the last free
    # card + 1 (0 before the first free card), with their prefix counts.
    node = np.array([sp.node], dtype=np.int64)
    pos = np.zeros(1, dtype=np.int64)
    count = np.ones(1, dtype=np.int64)
    depth = len(sp.include)
    for step in range(sp.k):
        heads = np.flatnonzero(np.r_[True, node[1:] != node[:-1]])
        q = pos[heads]  # the lowest free card a node's prefixes may add
        rowlen = m - q
        rowoff = np.zeros(len(heads) + 1, dtype=np.int64)
        np.cumsum(rowlen, out=rowoff[1:])
        # One row per node over the free cards it may add; scatter each
        # pair's count at its own next card, then a running sum per row
        # is the number of prefixes that may add that card.
        group = np.repeat(np.arange(len(heads)), np.diff(np.r_[heads, len(node)]))
        buf = np.zeros(int(rowoff[-1]), dtype=np.int64)
        buf[rowoff[group] + pos - q[group]] = count
        np.cumsum(buf, out=buf)
        # Subtract each row's running total before it: the weights of
        # the row's cards.
        starts = rowoff[:-1]
        buf -= np.repeat(np.where(starts > 0, buf[np.maximum(starts - 1, 0)], 0), rowlen)
        weight = buf
        card = np.arange(len(buf))
        card -= np.repeat(starts - q, rowlen)
        ids = np.repeat(node[heads] * 52, rowlen)
        ids += card if m == 52 else free.take(card)
        child = sp.layers[depth + step].take(ids)
        if step == sp.k - 1:
            # Counts stay far below 2**53, so float weights are exact.
            hist += np.rint(np.bincount(child, weights=weight, minlength=7463)).astype(np.int64)
            break
        # Merge equal (child, card) keys: sort key and weight packed in one
        # uint64 (keys < 2**24, weights <= C(52, 6) < 2**32).
        packed = child.astype(np.uint64)
        packed *= m + 1
        # Both are non-negative int64: viewing them as uint64 keeps the bits.
        packed += card.view(np.uint64)
        packed += 1
        packed <<= 32
        packed |= weight.view(np.uint64)
        packed.sort()
        keys = packed >> 32
        firsts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
        packed &= 0xFFFFFFFF
        count = np.add.reduceat(packed, firsts).astype(np.int64)
        node, pos = np.divmod(keys[firsts].astype(np.int64), m + 1)
        # A prefix ending at the last free card extends to nothing.
        live = pos < m
        node, pos, count = node[live], pos[live], count[live]
    return hist
