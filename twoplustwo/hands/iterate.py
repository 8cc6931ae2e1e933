"""Every hand of a kind, in order: ordered iteration and counting.

:func:`iter_hands` yields every n-card hand (n = 5, 6, 7) that holds the
``include`` cards and none of the ``dead`` ones, with its value, in
lexicographic order of the sorted card tuples:

>>> cards, values = next(iter_hands(5, chunk_size=3))
>>> cards.tolist(), values.tolist()
([[0, 1, 2, 3, 4], [0, 1, 2, 3, 5], [0, 1, 2, 3, 6]], [7297, 7297, 7297])
>>> count_hands(7, include="As Ah", dead="Kd Kc")
1712304
>>> count_hands(7, game="short-deck")  # C(36, 7): hands come from the game's deck
8347680

Sorted hands share their prefixes, and the DAG does not care in which order
cards arrive, so iteration walks the include cards first, then the free
cards in increasing order, touching each shared prefix once: about one
table lookup per hand.
"""

from __future__ import annotations

import operator
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from math import comb

import numpy as np
import numpy.typing as npt

from twoplustwo.hands.space import HandSpace, check_space
from twoplustwo.kernels import pool
from twoplustwo.kernels.games import resolve
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.cards import Cards
from twoplustwo.vocab.rules import HOLDEM

__all__ = ["DEFAULT_CHUNK_SIZE", "count_hands", "iter_hands"]

#: Rows per chunk of :func:`iter_hands`: 2.4 MB of 7-card hands and values,
#: large enough to amortise per-call overhead, small enough for the chunks
#: in flight to stay in the caches while they are filled and read.
DEFAULT_CHUNK_SIZE = 1 << 18

# Chunks smaller than this are filled in the calling thread.
_PARALLEL_MIN = 1 << 15

def count_hands(
    n: int = 7, *, include: Cards = (), dead: Cards = (), game: str = HOLDEM, tables: Tables | None = None
) -> int:
    """Number of ``n``-card hands of ``game``'s deck holding every ``include`` card and no ``dead`` card.

    Hold'em's count needs no tables; another game's deck is read from them.

    >>> count_hands(7), count_hands(5, dead="As")
    (133784560, 2349060)
    >>> count_hands(5, include="Ah", dead="As", game="short-deck-classic")  # C(34, 4)
    46376
    """
    g = resolve(game, tables) if game != HOLDEM else None
    inc, out = check_space(n, include, dead, g)
    size = len(g.deck) if g is not None else 52
    return comb(size - len(inc) - len(out), n - len(inc))


def _filler(space: HandSpace) -> Callable[[int, int, npt.NDArray[np.uint8], npt.NDArray[np.uint16]], None]:
    """The function that writes rows ``r0 .. r1`` of the enumeration, by the game's walker."""
    walker = space.game.walker
    free = np.array(space.free, dtype=np.uint8)
    held = np.array(space.include, dtype=np.uint8)

    def fill(r0: int, r1: int, cards: npt.NDArray[np.uint8], values: npt.NDArray[np.uint16]) -> None:
        walker.fill_ordered(space.n, space.node, free, held, r0, cards, values)

    return fill


def iter_hands(
    n: int = 7,
    *,
    include: Cards = (),
    dead: Cards = (),
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    reuse: bool = False,
    threads: int | None = None,
    game: str = HOLDEM,
    tables: Tables | None = None,
) -> Iterator[tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint16]]]:
    """Yield ``(cards, values)`` chunks of every n-card hand holding ``include`` and avoiding ``dead``.

    ``cards`` is an ``(M, n)`` uint8 array of sorted hands and ``values``
    their ``(M,)`` uint16 values; concatenated, the chunks list each hand
    once, in lexicographic order of the card tuples. Every chunk has
    ``chunk_size`` rows except perhaps the last. ``include`` and ``dead``
    are cards as :func:`~twoplustwo.vocab.cards.parse_cards` reads them; they
    must not overlap. Hands come from ``game``'s deck (``game`` as for
    :func:`~twoplustwo.evaluate`): C(36, n) of them in short deck, whose
    include and dead cards must be of its deck too. Chunks are computed
    ahead on ``threads`` threads (default: one per CPU), which only changes
    the speed, never the order.

    Each chunk is a fresh pair of arrays the caller may keep, unless
    ``reuse=True``: then the generator refills the same few buffers, which
    saves allocating and faulting in a chunk per step, and a chunk is valid
    only until the next ``next()`` (copy what you keep).

    Arguments are checked at the call, not at the first ``next()``:

    >>> iter_hands(7, include="As", dead="As Kd")
    Traceback (most recent call last):
    ...
    ValueError: card(s) As both included and dead
    >>> chunks = iter_hands(6, include="2c 3c 4c 5c", dead="6c")
    >>> cards, values = next(chunks)
    >>> len(cards), cards[0].tolist(), int(values.max())  # at best Ac: a wheel straight flush
    (1081, [0, 1, 2, 4, 8, 12], 7453)
    >>> sum(int(v.sum()) for _, v in iter_hands(5, reuse=True)) == sum(int(v.sum()) for _, v in iter_hands(5))
    True
    >>> cards, values = next(iter_hands(5, include="Ah Kh Qh Jh", game="short-deck"))
    >>> len(values), cards[values.argmax()].tolist(), int(values.max())  # Th Jh Qh Kh Ah: a royal flush
    (32, [34, 38, 42, 46, 50], 1404)
    """
    workers = pool.resolve_threads(threads)
    if isinstance(chunk_size, bool) or not hasattr(chunk_size, "__index__"):
        raise TypeError(f"chunk_size must be an int, got {type(chunk_size).__name__}")
    chunk_size = operator.index(chunk_size)
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be positive, got {chunk_size!r}")
    if not isinstance(reuse, bool):
        raise TypeError(f"reuse must be True or False, got {type(reuse).__name__}")
    space = HandSpace(n, include, dead, tables, game)
    return _iterate(space, chunk_size, workers, reuse)


Chunk = tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint16]]


def _iterate(space: HandSpace, chunk_size: int, n_threads: int, reuse: bool) -> Iterator[Chunk]:
    total, n = space.total, space.n
    if total == 0:
        return
    if space.k == 0:
        yield np.array([space.include], dtype=np.uint8), np.array([space.node], dtype=np.uint16)
        return
    fill = _filler(space)
    # With reuse, buffers cycle through a pool: one the caller holds and the
    # ones being filled ahead of it.
    spare: list[Chunk] = []

    def buffers(rows: int) -> Chunk:
        if spare and len(spare[-1][1]) == rows:
            return spare.pop()
        return np.empty((rows, n), dtype=np.uint8), np.empty(rows, dtype=np.uint16)

    def handed_back(chunk: Chunk) -> None:
        if reuse:
            spare.append(chunk)

    parallel = n_threads > 1 and chunk_size >= _PARALLEL_MIN
    if not parallel:
        for r0 in range(0, total, chunk_size):
            r1 = min(r0 + chunk_size, total)
            chunk = buffers(r1 - r0)
            fill(r0, r1, *chunk)
            yield chunk
            handed_back(chunk)
        return

    # Two tasks per thread and chunk: a thread slowed down by other work
    # on the machine takes fewer of them instead of holding up the chunk.
    parts = 2 * n_threads

    def launch(r0: int) -> tuple[Chunk, list[Future[None]]]:
        r1 = min(r0 + chunk_size, total)
        chunk = cards, values = buffers(r1 - r0)
        cuts = [r0 + (r1 - r0) * i // parts for i in range(parts + 1)]
        futures = [
            pool.submit(n_threads, fill, a, b, cards[a - r0 : b - r0], values[a - r0 : b - r0])
            for a, b in zip(cuts[:-1], cuts[1:])
            if b > a
        ]
        return chunk, futures

    # Two chunks in flight keep every thread busy while the caller works on
    # the one just yielded; results still come out strictly in order.
    ahead: deque[tuple[Chunk, list[Future[None]]]] = deque()
    starts = iter(range(0, total, chunk_size))
    try:
        for r0 in starts:
            ahead.append(launch(r0))
            if len(ahead) < 2:
                continue
            chunk, futures = ahead.popleft()
            for f in futures:
                f.result()
            yield chunk
            handed_back(chunk)
        while ahead:
            chunk, futures = ahead.popleft()
            for f in futures:
                f.result()
            yield chunk
            handed_back(chunk)
    finally:
        # An abandoned generator must not leave work queued behind it.
        for _, futures in ahead:
            for f in futures:
                f.cancel()
