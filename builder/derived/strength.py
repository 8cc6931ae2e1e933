"""The strength tables: every canonical hand's exact strength against a random opponent, street by street.

Each table is indexed by a :class:`twoplustwo.HandIndexer` (hole cards, then
the board as one round) and built one board class at a time: the boards of
a street up to a renaming of the suits are the indexer's canonical boards,
and on each every live combo is swept at once by the runtime's walker
(``board_wins`` on the river, ``strength_sums`` over the completions
before it). Every hand of a class has the board of one of those boards'
classes, so writing each (combo, canonical board) at its index covers every
index, and the build checks that it did.

=========  ==============  ===========================================================
street     indexer         per index
=========  ==============  ===========================================================
river      ``(2, 5)``      W and T: the opponent combos (of 990) beaten and tied
turn       ``(2, 4)``      Σ(2W + T) and Σ(2W + T)² over the 46 rivers
flop       ``(2, 3)``      the same over the 1,081 turn-river pairs, and a 50-bin histogram
preflop    ``(2,)``        the same over all 2,118,760 boards, and the histogram
=========  ==============  ===========================================================

The sums are exact integers: ``ehs = Σ(2W + T) / (1980 * runouts)`` and
``ehs2 = Σ(2W + T)² / (1980² * runouts)`` are what ``twoplustwo.strength``
computes directly, and the histogram bin of a runout is
``min(bins - 1, (2W + T) * bins // 1980)``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from math import comb
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
from tqdm import tqdm

from twoplustwo import COMBOS, HandIndexer, Tables
from twoplustwo.kernels.games import walker_of
from twoplustwo.odds.exact import completions
from twoplustwo.odds.strength import class_shares
from twoplustwo.tables.default import tables_at
from twoplustwo.tables.load import open_tables
from twoplustwo.tables.optional import STRENGTH_BINS, STRENGTH_ROLES
from twoplustwo.vocab.suits import canonical_boards

from ..dag.write import discard, new_staging, publish, stage

__all__ = [
    "BINS",
    "STREETS",
    "build_preflop",
    "build_river",
    "build_street",
    "canonical_boards_of",
    "live_hands",
    "publish_strength",
    "run_blocks",
    "strength_arrays",
]

#: The histogram's bins in the flop and preflop tables.
BINS = STRENGTH_BINS
#: Board cards of each street.
STREETS = {"flop": 3, "turn": 4, "river": 5}
# Canonical boards swept per call of the walker (a task, on an executor): a few megabytes of results.
_BLOCK = 256

T = TypeVar("T")

_BIT = np.left_shift(np.uint64(1), np.arange(52, dtype=np.uint64))
_COMBO_BITS = _BIT[COMBOS[:, 0]] | _BIT[COMBOS[:, 1]]


def _quiet(quiet: bool) -> bool | None:
    # None: tqdm draws a bar only on a terminal (as the pipeline's stages do).
    return True if quiet else None


def canonical_boards_of(cards: int) -> npt.NDArray[np.uint8]:
    """One board of each class of ``cards``-card boards up to a renaming of the suits (1,755 flops, ...)."""
    indexer = HandIndexer((cards,))
    return indexer.unindex(np.arange(indexer.size(), dtype=np.uint64))


def live_hands(boards: npt.NDArray[np.uint8]) -> tuple[Any, npt.NDArray[np.uint8]]:
    """The (board, combo) pairs where the combo misses the board, and their hands: the combo's cards, then the board's.

    A kernel's ``(B, 1326, ...)`` results at those pairs go to the hands' indices.
    """
    held = np.bitwise_or.reduce(_BIT[boards], axis=1)
    b, h = np.nonzero((held[:, None] & _COMBO_BITS) == 0)
    return (b, h), np.concatenate([COMBOS[h], boards[b]], axis=1)


def build_river(
    tables: Tables,
    boards: npt.NDArray[np.uint8] | None = None,
    *,
    quiet: bool = True,
    executor: Executor | None = None,
) -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.uint16], npt.NDArray[np.bool_]]:
    """W and T of every ``(2, 5)`` index, from the canonical river boards (or just ``boards``).

    Returns ``(wins, ties, written)``: ``written`` says which indices the
    boards reached (all of them for the canonical boards). With
    ``executor`` the sweeps run as its tasks, whose workers load the tables
    from this set's path; the tables come out the same, byte for byte.
    """
    indexer = HandIndexer((2, 5))
    if boards is None:
        boards = canonical_boards_of(5)
    size = indexer.size()
    wins = np.zeros(size, dtype=np.uint16)
    ties = np.zeros(size, dtype=np.uint16)
    written = np.zeros(size, dtype=bool)
    blocks = [np.ascontiguousarray(boards[lo : lo + _BLOCK], dtype=np.uint8) for lo in range(0, len(boards), _BLOCK)]
    with tqdm(total=len(boards), unit="boards", desc="river", disable=_quiet(quiet), file=sys.stderr) as bar:
        for block, out in zip(blocks, run_blocks(river_task, tables, blocks, executor)):
            (b, h), hands = live_hands(block)
            at = indexer.index(hands)
            wins[at] = out[b, h, 0]
            ties[at] = out[b, h, 1]
            written[at] = True
            bar.update(len(block))
    return wins, ties, written


def river_task(tables: Tables | str, block: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint16]:
    """Each combo's wins and ties on each board of ``block``: one task of :func:`build_river`."""
    out = np.empty((len(block), len(COMBOS), 2), dtype=np.uint16)
    walker_of(_tables(tables)).board_wins(block, out)
    return out


def build_street(
    tables: Tables,
    street: str,
    boards: npt.NDArray[np.uint8] | None = None,
    *,
    quiet: bool = True,
    executor: Executor | None = None,
) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.uint32], npt.NDArray[np.uint16] | None, npt.NDArray[np.bool_]]:
    """Σ(2W+T), Σ(2W+T)² (and on the flop the histogram) of every index of the ``street``'s indexer.

    ``street`` is ``"flop"`` or ``"turn"``; ``boards`` its canonical boards
    by default; ``executor`` as for :func:`build_river`. Returns ``(first,
    second, histogram, written)``; the histogram is ``(size, BINS)`` on the
    flop, None on the turn.
    """
    k = STREETS[street]
    if k not in (3, 4):
        raise ValueError(f"build_street makes the flop and turn tables, not the {street}'s")
    indexer = HandIndexer((2, k))
    if boards is None:
        boards = canonical_boards_of(k)
    size = indexer.size()
    bins = BINS if street == "flop" else 0
    first = np.zeros(size, dtype=np.uint32)
    second = np.zeros(size, dtype=np.uint32)
    histogram = np.zeros((size, bins), dtype=np.uint16) if bins else None
    written = np.zeros(size, dtype=bool)
    step = max(1, _BLOCK // 16)  # boards of a task: each is a thousand sweeps on the flop
    blocks = [np.ascontiguousarray(boards[lo : lo + step], dtype=np.uint8) for lo in range(0, len(boards), step)]
    with tqdm(total=len(boards), unit="boards", desc=street, disable=_quiet(quiet), file=sys.stderr) as bar:
        for block, (sums, squares, bars) in zip(blocks, run_blocks(street_task, tables, blocks, executor, bins)):
            (b, h), hands = live_hands(block)
            at = indexer.index(hands)
            first[at] = sums[b, h]
            second[at] = squares[b, h]
            if histogram is not None:
                histogram[at] = bars[b, h]
            written[at] = True
            bar.update(len(block))
    return first, second, histogram, written


def street_task(
    tables: Tables | str, block: npt.NDArray[np.uint8], bins: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Per board of ``block`` (3 or 4 cards), each combo's sums over its completions: a task of :func:`build_street`."""
    t = _tables(tables)
    n = len(block)
    sums = np.zeros((n, len(COMBOS)), dtype=np.int64)
    squares = np.zeros((n, len(COMBOS)), dtype=np.int64)
    bars = np.zeros((n, len(COMBOS), bins), dtype=np.int64)
    for i, board in enumerate(block.tolist()):
        runouts = completions(board)
        walker_of(t).strength_sums(runouts, np.ones(len(runouts), dtype=np.int64), bins, sums[i], squares[i], bars[i])
    return sums, squares, bars


def preflop_task(
    tables: Tables | str, block: tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Each combo's weighted sums over some canonical boards: a task of :func:`build_preflop`."""
    boards, weights = block
    first, second = np.zeros(len(COMBOS), dtype=np.int64), np.zeros(len(COMBOS), dtype=np.int64)
    bars = np.zeros((len(COMBOS), BINS), dtype=np.int64)
    walker_of(_tables(tables)).strength_sums(np.ascontiguousarray(boards), np.ascontiguousarray(weights), BINS,
                                         first, second, bars)  # fmt: skip
    return first, second, bars


def _tables(tables: Tables | str) -> Tables:
    """The tables themselves, or, in an executor's worker, those at their path (loaded once per process)."""
    return tables if isinstance(tables, Tables) else tables_at(tables)


def run_blocks(
    task: Callable[..., T], tables: Tables, blocks: list[Any], executor: Executor | None, *extra: Any
) -> Iterator[T]:
    """``task(tables, block, *extra)`` of each block in order: here, or on ``executor`` with the tables' path."""
    if executor is None:
        for block in blocks:
            yield task(tables, block, *extra)
        return
    path = str(tables.path)
    futures = [executor.submit(task, path, block, *extra) for block in blocks]
    try:
        for f in futures:
            yield f.result()
    finally:
        for f in futures:  # a failure, or a caller that stopped early, leaves nothing queued
            f.cancel()


def build_preflop(
    tables: Tables, *, executor: Executor | None = None
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64], npt.NDArray[np.uint32]]:
    """Σ(2W+T), Σ(2W+T)² and the histogram of each ``(2,)`` index over all C(50, 5) boards.

    From the 134,459 canonical boards, each weighted by the boards it stands
    for: a class's sums over them are its size times each combo's sums over
    every board. ``executor`` as for :func:`build_river`.
    """
    boards, weights = canonical_boards()
    step = 16 * _BLOCK
    blocks = [(boards[lo : lo + step], weights[lo : lo + step]) for lo in range(0, len(boards), step)]
    first, second = np.zeros(len(COMBOS), dtype=np.int64), np.zeros(len(COMBOS), dtype=np.int64)
    bars = np.zeros((len(COMBOS), BINS), dtype=np.int64)
    for part in run_blocks(preflop_task, tables, blocks, executor):
        for total, add in zip((first, second, bars), part):
            total += add
    indexer = HandIndexer((2,))
    at = indexer.index(np.ascontiguousarray(COMBOS))
    out = [class_shares(a, at, indexer.size()) for a in (first, second, bars)]
    if int(out[2].sum(axis=1).min()) != comb(50, 5):
        raise AssertionError("the preflop histogram does not count every board")
    return out[0].astype(np.uint64), out[1].astype(np.uint64), out[2].astype(np.uint32)



def strength_arrays(
    tables: Tables,
    boards: dict[str, npt.NDArray[np.uint8]] | None = None,
    *,
    quiet: bool = True,
    executor: Executor | None = None,
) -> tuple[dict[str, npt.NDArray[Any]], dict[str, npt.NDArray[np.bool_]]]:
    """Every strength role's array (``twoplustwo.tables.optional.STRENGTH_ROLES``), and which indices each street wrote.

    ``boards`` maps a street to the boards to build it from (its canonical
    boards by default): fewer give tables of the full length, written only
    at the indices those boards reach, for tests.
    """
    boards = boards or {}
    wins, ties, river = build_river(tables, boards.get("river"), quiet=quiet, executor=executor)
    turn_sum, turn_sum2, _, turn = build_street(tables, "turn", boards.get("turn"), quiet=quiet, executor=executor)
    flop_sum, flop_sum2, flop_histogram, flop = build_street(
        tables, "flop", boards.get("flop"), quiet=quiet, executor=executor
    )
    assert flop_histogram is not None
    pre_sum, pre_sum2, pre_histogram = build_preflop(tables, executor=executor)
    # The preflop sum of squares needs more than 32 bits: its low and high words, side by side.
    words = np.stack([pre_sum2 & np.uint64(0xFFFFFFFF), pre_sum2 >> np.uint64(32)], axis=1).astype(np.uint32)
    arrays: dict[str, npt.NDArray[Any]] = {
        "strength/river/wins": wins,
        "strength/river/ties": ties,
        "strength/turn/sum": turn_sum,
        "strength/turn/sum2": turn_sum2,
        "strength/flop/sum": flop_sum,
        "strength/flop/sum2": flop_sum2,
        "strength/flop/histogram": flop_histogram.reshape(-1),
        "strength/preflop/sum": pre_sum.astype(np.uint32),
        "strength/preflop/sum2": words.reshape(-1),
        "strength/preflop/histogram": pre_histogram.reshape(-1),
    }
    return arrays, {"river": river, "turn": turn, "flop": flop}


def publish_strength(target: Path, *, quiet: bool = True, executor: Executor | None = None) -> dict[str, float]:
    """Build the strength tables from the table set at ``target`` and publish the set again with them, atomically.

    The set's other files are published again as they are, linked (their names, from
    their contents, stay the same); a set without them is refused by the
    loader first. ``executor`` as for :func:`build_river`. Returns the seconds of each stage. Its staging
    directory is made first, so that a target it cannot write fails before any work; nothing is written into it
    until every table is whole: an interrupted build leaves the set as it was.
    """
    t = open_tables(target)
    # Staged first, so that a target it cannot write fails now, not after a minute and a half of work.
    staging = new_staging(target)
    try:
        seconds: dict[str, float] = {}
        start = time.perf_counter()
        arrays, written = strength_arrays(t, quiet=quiet, executor=executor)
        seconds["build"] = time.perf_counter() - start
        for street, mask in written.items():
            if not mask.all():
                raise AssertionError(f"the {street} table misses {int((~mask).sum())} indices")
        kept = [f for f in t.manifest["files"] if f["role"] not in STRENGTH_ROLES]
        info = {k: v for k, v in t.manifest.items() if k not in ("format_version", "files")}
        info["strength"] = {
            "bins": BINS,
            "indexers": {"river": [2, 5], "turn": [2, 4], "flop": [2, 3], "preflop": [2]},
            "about": "per suit-isomorphic index: river W and T of the 990 opponent combos; turn, flop and preflop "
            "the sums of 2W + T and of its square over every completion, and the histogram of the completions "
            "by bin min(bins - 1, (2W + T) * bins // 1980); spec/README.md section 14",
        }
        start = time.perf_counter()
        publish(stage(target, arrays, info, staging, keep=kept))
    except BaseException:
        discard(staging)
        raise
    seconds["publish"] = time.perf_counter() - start
    return seconds
