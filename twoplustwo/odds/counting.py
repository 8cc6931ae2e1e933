"""Exact equity by counting boards: each rank multiset of the missing cards scored once, one deal per suit class.

In hold'em on the C backend :func:`twoplustwo.odds.exact.deals` and
:func:`twoplustwo.odds.exact.hands` come here (:func:`count_showdowns`):
each rank multiset of the missing cards is scored once, weighted by the
ways the deck deals it, and the boards that can make a flush one suit and
rank set at a time. Range deals equal up to a renaming of the suits
(:func:`suit_classes`) are counted once (:func:`count_classes`). With at
most two cards to come, the deals of a call that hold the same hole ranks
share their counts without flushes, and each deal then moves its flush
boards. Elsewhere the walker says it does not count (None), and the boards
are listed (:mod:`twoplustwo.odds.exact`), which the tests hold the
counting to.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Sequence
from math import comb
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from twoplustwo.hands.isomorphism import PERM_CARDS
from twoplustwo.kernels import pool
from twoplustwo.progress import progress
from twoplustwo.vocab.combos import COMBO_ROW, COMBOS

if TYPE_CHECKING:
    from twoplustwo.kernels.interface import Walker

__all__ = ["CLASS_SAMPLE", "count_classes", "count_showdowns", "deal_cost", "estimate_classes", "suit_classes"]

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

    >>> from twoplustwo.tables.default import get_tables
    >>> aces_kings = np.array([[[51, 50], [45, 44]]], dtype=np.uint8)  # AsAh vs KdKc
    >>> counted = count_showdowns(get_tables().walker, aces_kings, [], [])
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
    classes, inverse = _suit_classes(holes, known, dead)
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
        if count_showdowns(walker, classes[:0], known, dead) is None:  # asks whether the walker counts, for free
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


def suit_classes(
    holes: npt.NDArray[np.uint8], known: Sequence[int], dead: Sequence[int]
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.intp]]:
    """The deals up to the renamings of suits that keep the board and the dead cards, and where each deal went.

    ``holes`` is ``(deals, players, 2)``. Returns ``(classes, inverse)``: one
    ``(classes, players, 2)`` deal per class (the least, as combo rows) and
    each deal's class. Deals of one class have equal counts, player by
    player, since renaming the suits maps their boards onto each other.

    >>> aa = np.array([[[51, 50]], [[49, 48]], [[51, 48]]], dtype=np.uint8)  # AsAh, AdAc, AsAc
    >>> classes, inverse = suit_classes(aa, [], [])
    >>> len(classes), inverse.tolist()
    (1, [0, 0, 0])
    >>> len(suit_classes(aa, [50], [])[0])  # with Ah on the board: AsAh and AdAc differ
    2
    """
    classes, inverse = _suit_classes(holes, known, dead)
    return classes, np.arange(len(holes)) if inverse is None else inverse


@functools.lru_cache(maxsize=256)
def _renamings(known: tuple[int, ...], dead: tuple[int, ...]) -> npt.NDArray[np.integer[Any]]:
    """The renamings of suits (rows of ``PERM_CARDS``, the identity first) that keep the sorted board and dead cards."""
    keeps = np.ones(len(PERM_CARDS), dtype=bool)
    for group in (np.array(known, dtype=np.uint8), np.array(dead, dtype=np.uint8)):
        keeps &= (np.sort(PERM_CARDS[:, group], axis=1) == group).all(axis=1)
    kept = PERM_CARDS[keeps]
    kept.setflags(write=False)  # shared by every call with these cards
    return kept


def _suit_classes(
    holes: npt.NDArray[np.uint8], known: Sequence[int], dead: Sequence[int]
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.intp] | None]:
    """:func:`suit_classes`, with None for ``inverse`` when every deal is its own class, in order: ``holes``."""
    cards = tuple(sorted(int(c) for c in known)), tuple(sorted(int(c) for c in dead))
    renamings = _renamings(*cards)
    if len(renamings) == 1:  # the identity alone
        return holes, None
    if holes.shape[1] <= 5:
        return _suit_classes_by_key(_combo_renamings(*cards), holes)
    least = None
    for p in renamings:
        mapped = p[holes]
        rows = COMBO_ROW[mapped[..., 0], mapped[..., 1]]
        if least is None:
            least = rows
            continue
        # Keep each deal's lexicographically least image.
        differ = rows != least
        first = differ.argmax(axis=1)
        at = np.arange(len(rows))
        less = differ.any(axis=1) & (rows[at, first] < least[at, first])
        least[less] = rows[less]
    assert least is not None  # the identity keeps everything
    classes, inverse = np.unique(least, axis=0, return_inverse=True)
    return COMBOS[classes], inverse.reshape(-1)


@functools.lru_cache(maxsize=256)
def _combo_renamings(known: tuple[int, ...], dead: tuple[int, ...]) -> npt.NDArray[np.int64]:
    """:func:`_renamings` as maps of combo rows, ``(renamings, 1326)``."""
    renamings = _renamings(known, dead)
    rows: npt.NDArray[np.int64] = COMBO_ROW[renamings[:, COMBOS[:, 0]], renamings[:, COMBOS[:, 1]]]
    rows.setflags(write=False)  # shared by every call with these cards
    return rows


def _suit_classes_by_key(
    renamings: npt.NDArray[np.int64], holes: npt.NDArray[np.uint8]
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.intp]]:
    """:func:`_suit_classes` of at most five players, a deal's combo rows (11 bits each) read as one integer.

    ``renamings`` map combo rows (:func:`_combo_renamings`). The first
    player's row goes in the highest bits, so that the least integer is the
    lexicographically least image; every renaming of a slice of deals at
    once (this is time a second thread cannot share).
    """
    players = holes.shape[1]
    shifts = 11 * np.arange(players - 1, -1, -1, dtype=np.int64)
    rows = COMBO_ROW[holes[..., 0], holes[..., 1]]
    least = np.empty(len(holes), dtype=np.int64)
    step = max(1, (1 << 20) // (len(renamings) * players))
    for a in range(0, len(holes), step):
        least[a : a + step] = (renamings[:, rows[a : a + step]] << shifts).sum(axis=2).min(axis=0)
    keys, inverse = np.unique(least, return_inverse=True)
    return COMBOS[(keys[:, None] >> shifts) & 2047], inverse.reshape(-1)


def estimate_classes(
    players: Sequence[npt.NDArray[np.integer[Any]]],
    found: npt.NDArray[np.intp],
    known: Sequence[int],
    dead: Sequence[int],
) -> float:
    """About how many suit classes :func:`suit_classes` makes of the deals ``found``, without making them.

    Burnside's count, over the renamings of suits that keep the board, the dead cards and every player's
    combos: the classes are the mean over those renamings of the deals each one leaves as they are, here
    measured on an even sample of :data:`CLASS_SAMPLE` deals at most. On a whole sample it is the count of
    :func:`suit_classes` when every renaming that takes one deal to another keeps each player's combos, as the
    notation's ranges, ``"random"`` and single hands are kept; otherwise it may count more classes than there are.
    """
    if len(found) == 0:  # deals() then says so
        return 0.0
    renamings = _renamings(tuple(sorted(int(c) for c in known)), tuple(sorted(int(c) for c in dead)))
    sample = found[:: -(-len(found) // CLASS_SAMPLE)]
    kept = np.ones(len(renamings), dtype=bool)
    left = np.ones((len(renamings), len(sample)), dtype=bool)  # each renaming: the sampled deals it leaves alone
    for i, p in enumerate(players):
        combos = np.asarray(p, dtype=np.intp)
        rows = COMBO_ROW[renamings[:, combos[:, 0]], renamings[:, combos[:, 1]]]  # (renamings, combos)
        kept &= (np.sort(rows, axis=1) == np.sort(rows[0])).all(axis=1)  # the identity comes first
        left &= rows[:, sample[:, i]] == rows[0, sample[:, i]]
    return float(len(found) * left[kept].mean(axis=1).sum() / kept.sum())
