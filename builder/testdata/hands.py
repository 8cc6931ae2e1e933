"""Every k-card hand in order, and seeded random hands, as numpy arrays.

Cards are ints ``0..51`` (``rank * 4 + suit``). :func:`all_hands` walks all
``C(52, k)`` hands in lexicographic order of their sorted card tuples, in
chunks, so exhaustive checks never hold more than one chunk in memory:

>>> first = next(all_hands(5, chunk_size=3))
>>> first.tolist()
[[0, 1, 2, 3, 4], [0, 1, 2, 3, 5], [0, 1, 2, 3, 6]]
>>> sum(len(c) for c in all_hands(5)) == N_HANDS[5]
True
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations

import numpy as np
import numpy.typing as npt

__all__ = ["DEFAULT_CHUNK_SIZE", "N_HANDS", "all_hands", "deck_hands", "random_hands"]

#: Number of distinct k-card hands, ``C(52, k)``.
N_HANDS: dict[int, int] = {5: 2598960, 6: 20358520, 7: 133784560}

#: Rows per chunk of :func:`all_hands`: large enough to amortise numpy's
#: per-call overhead, small enough (14 MB of 7-card hands) to stay in memory
#: alongside an oracle's temporaries.
DEFAULT_CHUNK_SIZE = 1 << 21


def _check_k(k: int) -> None:
    if k not in N_HANDS:
        raise ValueError(f"hand size must be 5, 6 or 7, got {k!r}")


@cache
def _tails(m: int) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    """All m-subsets of 0..51 in lexicographic order, and where each first card starts.

    ``starts[c]`` is the first row whose leading card is ``>= c``; the rows
    from there on are exactly the subsets whose cards all exceed ``c - 1``.
    """
    rows = np.array(list(combinations(range(52), m)), dtype=np.uint8)
    rows.setflags(write=False)
    starts = np.searchsorted(rows[:, 0], np.arange(53), side="left")
    return rows, starts


def all_hands(k: int, *, chunk_size: int = DEFAULT_CHUNK_SIZE) -> Iterator[npt.NDArray[np.uint8]]:
    """Yield every k-card hand (k = 5, 6, 7) as ``(M, k)`` uint8 chunks.

    Chunks hold ``chunk_size`` rows, the last one possibly fewer.

    Rows are sorted card tuples in lexicographic order; concatenating the
    chunks gives all ``N_HANDS[k]`` hands exactly once. Each chunk is a fresh
    array the caller may keep or modify.

    >>> chunks = list(all_hands(6, chunk_size=5_000_000))
    >>> [len(c) for c in chunks]
    [5000000, 5000000, 5000000, 5000000, 358520]
    >>> chunks[-1][-1].tolist()
    [46, 47, 48, 49, 50, 51]
    """
    _check_k(k)
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be positive, got {chunk_size!r}")
    # Fixing the first two cards (a, b) leaves as completions exactly the
    # (k-2)-subsets whose smallest card exceeds b, which in lexicographic
    # order is one contiguous suffix of the precomputed (k-2)-subsets.
    tails, starts = _tails(k - 2)
    out = np.empty((min(chunk_size, N_HANDS[k]), k), dtype=np.uint8)
    filled = 0
    for a in range(52):
        for b in range(a + 1, 52):
            suffix = tails[starts[b + 1] :]
            pos = 0
            while pos < len(suffix):
                take = min(len(suffix) - pos, len(out) - filled)
                dst = out[filled : filled + take]
                dst[:, 0] = a
                dst[:, 1] = b
                dst[:, 2:] = suffix[pos : pos + take]
                filled += take
                pos += take
                if filled == len(out):
                    yield out
                    out = np.empty_like(out)
                    filled = 0
    if filled:
        yield out[:filled]


def deck_hands(k: int, deck: Sequence[int]) -> npt.NDArray[np.uint8]:
    """Every k-card hand of ``deck`` (cards in increasing order) as one ``(C(len(deck), k), k)`` uint8 array.

    Rows are sorted card tuples in lexicographic order. Meant for small
    decks: the 36-card short deck has 8,347,680 seven-card hands (58 MB).

    >>> deck_hands(3, [16, 17, 18, 19]).tolist()
    [[16, 17, 18], [16, 17, 19], [16, 18, 19], [17, 18, 19]]
    """
    if k < 1:
        raise ValueError(f"hand size must be positive, got {k!r}")
    cards = np.asarray(deck, dtype=np.uint8)
    if len(cards) > 1 and not (np.diff(cards.astype(np.int64)) > 0).all():
        raise ValueError("deck cards must be increasing")
    n = len(cards)
    rows = np.arange(n, dtype=np.uint8)[:, None]
    for _ in range(k - 1):
        # Each row extends with every position above its last one; rows
        # that run out of positions drop out on the way.
        last = rows[:, -1].astype(np.int64)
        room = n - 1 - last
        first = np.repeat(np.cumsum(room) - room, room)
        nxt = np.repeat(last + 1, room) + np.arange(int(room.sum())) - first
        rows = np.concatenate([np.repeat(rows, room, axis=0), nxt.astype(np.uint8)[:, None]], axis=1)
    out: npt.NDArray[np.uint8] = cards[rows]
    return out


def random_hands(
    n: int, k: int, seed: int | np.random.Generator | None = 0
) -> npt.NDArray[np.uint8]:
    """``n`` random k-card hands (k = 5, 6, 7) as an ``(n, k)`` uint8 array.

    Each row holds k distinct cards, uniform over all hands and in random
    card order (oracles must not rely on sorted input). The same ``seed``
    always gives the same hands.

    >>> h = random_hands(4, 7, seed=1)
    >>> h.shape, h.dtype.name
    ((4, 7), 'uint8')
    >>> all(len(set(row)) == 7 for row in h.tolist())
    True
    >>> bool((random_hands(4, 7, seed=1) == h).all())
    True
    """
    _check_k(k)
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n!r}")
    rng = np.random.default_rng(seed)
    out = np.empty((n, k), dtype=np.uint8)
    # Independent keys per card: the k smallest pick a uniform k-subset and
    # their order is a uniform permutation of it. Blocks bound the memory of
    # the (rows, 52) key matrix.
    block = 1 << 16
    for lo in range(0, n, block):
        rows = min(block, n - lo)
        keys = rng.random((rows, 52))
        picked = np.argpartition(keys, k - 1, axis=1)[:, :k]
        order = np.argsort(np.take_along_axis(keys, picked, axis=1), axis=1)
        out[lo : lo + rows] = np.take_along_axis(picked, order, axis=1)
    return out

