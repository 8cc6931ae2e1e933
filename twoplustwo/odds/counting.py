"""Exact equity by counting boards: each rank multiset of the missing cards scored once, one deal per suit class.

In hold'em on the C backend :func:`twoplustwo.odds.exact.deals` and
:func:`twoplustwo.odds.exact.hands` come here (:func:`count_showdowns`):
each rank multiset of the missing cards is scored once, weighted by the
ways the deck deals it, and the boards that can make a flush one suit and
rank set at a time. Range deals equal up to a renaming of the suits
(:func:`~twoplustwo.vocab.suits.suit_classes`) are counted once (:func:`count_classes`). With at
most two cards to come, the deals of a call that hold the same hole ranks
share their counts without flushes, and each deal then moves its flush
boards. Elsewhere the walker says it does not count (None), and the boards
are listed (:mod:`twoplustwo.odds.exact`), which the tests hold the
counting to.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from math import comb
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from twoplustwo.kernels import pool
from twoplustwo.progress import progress
from twoplustwo.vocab.combos import COMBO_ROW
from twoplustwo.vocab.suits import deal_classes, renamings_keeping

if TYPE_CHECKING:
    from twoplustwo.kernels.interface import Walker

__all__ = ["CLASS_SAMPLE", "count_classes", "count_showdowns", "deal_cost", "estimate_classes"]

# Deals times their cost in rank multisets (deal_cost) counted per call of the counting kernel: a few milliseconds.
_COUNT_STEP = 50_000
#: Deals :func:`estimate_classes` looks at, at most (an even sample of them).
CLASS_SAMPLE = 4096


def count_showdowns(
    walker: Walker, holes: npt.NDArray[np.uint8], known: Sequence[int], dead: Sequence[int]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]] | None:
    """Exact counts of deals of whole hands by counting boards, or None where that does not serve.

    ``holes`` is ``(deals, players, 2)``; returns ``(counts, games)`` as in
    :class:`~twoplustwo.odds.exact.DealCounts`. None for another game than hold'em, for more than 9
    players, or on the numpy backend (the C kernel alone counts): the
    caller then lists the boards.

    >>> from twoplustwo.kernels.games import walker_of
    >>> from twoplustwo.tables.default import get_tables
    >>> aces_kings = np.array([[[51, 50], [45, 44]]], dtype=np.uint8)  # AsAh vs KdKc
    >>> counted = count_showdowns(walker_of(get_tables()), aces_kings, [], [])
    >>> counted is None or counted[0][0, :, :2].tolist() == [[1388072, 6538], [317694, 6538]]
    True
    """
    if not 2 <= holes.shape[1] <= 9:
        return None
    counts = np.zeros((holes.shape[0], holes.shape[1], 3), dtype=np.int64)
    games = np.zeros(holes.shape[0], dtype=np.int64)
    cards = np.asarray(known, dtype=np.uint8), np.asarray(dead, dtype=np.uint8)
    if not walker.count_showdowns(np.ascontiguousarray(holes), *cards, counts, games):
        return None
    return counts, games


def count_classes(
    walker: Walker,
    holes: npt.NDArray[np.uint8],
    known: Sequence[int],
    dead: Sequence[int],
    workers: int,
    quiet: bool,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]] | None:
    """:func:`count_showdowns` of one deal of each suit class, on ``workers`` threads, spread back to every deal."""
    classes, inverse = deal_classes(holes, known, dead)
    n = len(classes)
    # Steps of a few milliseconds, so that Ctrl-C stops the threads soon,
    # and no more steps than the threads share evenly; threads only for
    # work worth more than a step.
    most = max(1, _COUNT_STEP // deal_cost(5 - len(known), holes.shape[1]))
    workers = min(workers, -(-n // most) if n > most else 1)
    if workers == 1 and n <= most:
        # One step, on the calling thread.
        with progress(n, "deals", quiet=quiet) as update:
            counted = count_showdowns(walker, classes, known, dead)
            if counted is None:
                return None
            counts, games = counted
            update(n)
    else:
        if not walker.keyed_tables():  # it says whether it counts (Scoring.count_showdowns)
            return None
        counts = np.empty((n, holes.shape[1], 3), dtype=np.int64)
        games = np.empty(n, dtype=np.int64)
        # Steps of equal size, as many as a multiple of the threads, each
        # taken by the first thread free. Deals differ in cost (suited
        # cards have flushes to count) and like deals lie side by side, so
        # a step takes every steps-th deal rather than a run of them (on
        # "QQ+,AKs" vs "AK" the two runs' times differed by 8%, the two
        # strided steps' by 4%).
        steps = workers * -(-n // (most * workers))
        todo = iter(range(steps))
        taking = threading.Lock()
        stop = threading.Event()

        def part(_: int) -> None:
            while not stop.is_set():
                with taking:
                    s = next(todo, steps)
                if s == steps:
                    return
                counted = count_showdowns(walker, classes[s::steps], known, dead)
                assert counted is not None  # as it was for no deal
                counts[s::steps], games[s::steps] = counted
                update(len(counted[1]))

        with progress(n, "deals", quiet=quiet) as update:
            pool.run(workers, part, range(workers), stop=stop)
    if inverse is None:
        return counts, games
    return counts[inverse], games[inverse]


def deal_cost(missing: int, players: int) -> int:
    """What counting one deal of ``players`` with ``missing`` board cards to come costs, in rank multisets scored.

    A deal walks every multiset of the missing ranks. With at most two to
    come the kernel scores each tuple of hole ranks once per call and then
    a deal's flush boards alone: at most about five multisets' time per
    player (a flush-heavy flop, every tuple new).
    """
    multisets = comb(12 + missing, missing)
    return multisets if missing > 2 else min(multisets, 5 * players)


def estimate_classes(
    players: Sequence[npt.NDArray[np.integer[Any]]],
    found: npt.NDArray[np.intp],
    known: Sequence[int],
    dead: Sequence[int],
) -> float:
    """About how many suit classes :func:`~twoplustwo.vocab.suits.suit_classes` makes of the deals ``found``, unmade.

    Burnside's count, over the renamings of suits that keep the board, the dead cards and every player's
    combos: the classes are the mean over those renamings of the deals each one leaves as they are, here
    measured on an even sample of :data:`CLASS_SAMPLE` deals at most. On a whole sample it is the count of
    :func:`~twoplustwo.vocab.suits.suit_classes` when every renaming that takes one deal to another keeps each
    player's combos, as the notation's ranges, ``"random"`` and single hands are kept; otherwise it may count
    more classes than there are.
    """
    if len(found) == 0:  # deals() then says so
        return 0.0
    renamings = renamings_keeping(tuple(sorted(int(c) for c in known)), tuple(sorted(int(c) for c in dead)))
    sample = found[:: -(-len(found) // CLASS_SAMPLE)]
    kept = np.ones(len(renamings), dtype=bool)
    left = np.ones((len(renamings), len(sample)), dtype=bool)  # each renaming: the sampled deals it leaves alone
    for i, p in enumerate(players):
        combos = np.asarray(p, dtype=np.intp)
        rows = COMBO_ROW[renamings[:, combos[:, 0]], renamings[:, combos[:, 1]]]  # (renamings, combos)
        kept &= (np.sort(rows, axis=1) == np.sort(rows[0])).all(axis=1)  # the identity comes first
        left &= rows[:, sample[:, i]] == rows[0, sample[:, i]]
    return float(len(found) * left[kept].mean(axis=1).sum() / kept.sum())
