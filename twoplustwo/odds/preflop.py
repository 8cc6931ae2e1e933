"""Exact preflop tables: the 169 starting-hand classes against a random hand, and heads-up class against class.

:func:`preflop_vs_random` plays each class against a uniformly random
opponent hand, exact over every opponent combo and every five-card board:
every combo of a class takes part in C(50, 2) x C(48, 5) = 2,097,572,400
games, and aces, for example, win 1,781,508,418 of them and tie 11,402,312
(PokerStove's figures). All 169 classes take about a second, not
PokerStove's hour: the boards are enumerated once, up to suit isomorphism
(134,459 boards stand for all 2,598,960), every combo is valued on each,
and the opponents a combo beats are counted, card removal included, from
the combos in order of value (the walker's ``count_vs_random``: a C sweep,
or the numpy reference of :mod:`twoplustwo.kernels.numpy.versus`).

:func:`preflop_matchups` gives the heads-up grid, one :func:`~twoplustwo.equity`
per deal of two combos up to suit isomorphism:

>>> grid = preflop_matchups(["AA"], ["KK", "AKs"], quiet=True)
>>> r = grid["AA", "KK"]
>>> r.games == 36 * 1_712_304, r.wins, r.ties
(True, 50371344, 285228)
>>> from twoplustwo.odds.charts import preflop_table
>>> print(preflop_table(grid))
player      win %  tie %  equity %        wins     ties       games
AA vs KK   81.715  0.463    81.946  50,371,344  285,228  61,642,944
AA vs AKs  87.232  1.256    87.859  17,924,040  258,036  20,547,648

``executor=`` spreads the work over any :class:`concurrent.futures.Executor`:
a process pool, or a dask cluster's ``Client(address).get_executor()``. The
workers load the tables from the same path, so it must name the same files
there.

:mod:`twoplustwo.odds.charts` presents the results: as text, as CSV, and as
the 13 x 13 heat map (with matplotlib: ``pip install 'twoplustwo[plot]'``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future, as_completed
from math import comb
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from twoplustwo.kernels import pool
from twoplustwo.kernels.games import Game, resolve, walker_of
from twoplustwo.odds.results import PlayerEquity, PreflopResults
from twoplustwo.progress import progress
from twoplustwo.tables.default import get_tables, tables_at
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.combos import CLASS_ROWS, COMBOS, HAND_CLASSES, N_COMBOS
from twoplustwo.vocab.range_notation import class_combos, class_index
from twoplustwo.vocab.rules import HOLDEM
from twoplustwo.vocab.suits import canonical_boards, pair_keys

__all__ = [
    "BOARDS_HEADS_UP",
    "GAMES_VS_RANDOM",
    "preflop_matchups",
    "preflop_vs_random",
]

#: Boards that complete a heads-up deal of two combos: C(48, 5).
BOARDS_HEADS_UP = comb(48, 5)
#: Games of one combo against a random hand: an opponent combo and a board, C(50, 2) x C(48, 5).
GAMES_VS_RANDOM = comb(50, 2) * BOARDS_HEADS_UP

# Boards per task on the local thread pool (about 0.1 s of work), and the
# number of tasks an executor gets.
_BLOCK = 1024
_EXECUTOR_TASKS = 64
# Canonical matchups per task.
_MATCHUP_BLOCK = 64

T = TypeVar("T")


# ---------------------------------------------------------------------------
# Input checks


def _class_ids(classes: object, what: str) -> list[int]:
    """The class numbers (into HAND_CLASSES) of ``classes``, duplicates dropped, order kept."""
    if classes is None:
        return list(range(len(HAND_CLASSES)))
    if isinstance(classes, (str, bytes)):
        raise TypeError(f"{what} must be a sequence of class names such as ['AA', 'AKs'], not a single string")
    if not isinstance(classes, Iterable):
        raise TypeError(f"{what} must be None or a sequence of class names, got {type(classes).__name__}")
    ids: dict[int, None] = {}
    for i, name in enumerate(classes):
        if not isinstance(name, str):
            raise TypeError(f"{what}[{i}] must be a class name (str) such as 'AKs', got {type(name).__name__}")
        ids.setdefault(_class_id(name, f"{what}[{i}]"), None)
    return list(ids)


def _class_id(name: str, where: str) -> int:
    try:
        return class_index(name)
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None


def _check_executor(executor: object) -> Executor | None:
    if executor is not None and not isinstance(executor, Executor):
        raise TypeError(f"executor must be a concurrent.futures.Executor or None, got {type(executor).__name__}")
    return executor


# ---------------------------------------------------------------------------
# Counting against a random hand


@functools.lru_cache(maxsize=16)
def _targets(class_ids: tuple[int, ...]) -> npt.NDArray[np.intp]:
    """The combos of the asked classes, class after class."""
    targets = np.concatenate([CLASS_ROWS[k] for k in class_ids])
    targets.setflags(write=False)  # shared by every thread and later call
    return targets


def _count_boards(
    boards: npt.NDArray[np.uint8], weights: npt.NDArray[np.int64], targets: npt.NDArray[np.intp], tables: Tables
) -> npt.NDArray[np.int64]:
    """Σ weight x (wins, wins + ties) of each target combo against a random hand over ``boards``, as (2, T)."""
    out = np.zeros((N_COMBOS, 2), dtype=np.int64)
    walker_of(tables).count_vs_random(np.ascontiguousarray(boards), np.ascontiguousarray(weights, dtype=np.int64), out)
    return np.ascontiguousarray(out[targets].T)


def _vs_random_task(
    path: str, boards: npt.NDArray[np.uint8], weights: npt.NDArray[np.int64], class_ids: tuple[int, ...]
) -> npt.NDArray[np.int64]:
    """One executor task: the counts of :func:`_count_boards` over some boards, tables loaded from ``path``."""
    return _count_boards(boards, weights, _targets(class_ids), tables_at(path))


def preflop_vs_random(
    classes: Sequence[str] | None = None,
    *,
    tables: Tables | None = None,
    threads: int | None = None,
    executor: Executor | None = None,
    quiet: bool = False,
) -> PreflopResults:
    """Each starting-hand class heads-up against a uniformly random hand, exact.

    ``classes`` is a sequence of :data:`~twoplustwo.HAND_CLASSES` names
    (``"AA"``, ``"AKs"``, ``"72o"``; either case) or ``None`` for all 169;
    the result maps each class's :data:`~twoplustwo.HAND_CLASSES` spelling,
    in the order asked, to a :class:`~twoplustwo.odds.results.PlayerEquity` per
    combo of the class (every combo of a class scores the same): ``games`` is
    :data:`GAMES_VS_RANDOM` = 2,097,572,400 (each opponent combo that shares
    no card, each board of the other 48 cards), ``wins`` and ``ties`` exact
    ints, ``equity = (wins + ties / 2) / games``. ``combos`` lists the class's
    combos, with ``combo_games`` and ``combo_equity`` the same for each.

    The work runs on ``threads`` threads of this process, or, with
    ``executor``, as tasks on it (the workers load the tables from this
    set's path). A progress bar goes to stderr when it is a terminal and
    ``quiet`` is false.
    """
    ids = _class_ids(classes, "classes")
    t = get_tables(tables)
    workers = pool.resolve_threads(threads)
    ex = _check_executor(executor)
    if not ids:
        return PreflopResults()
    targets = _targets(tuple(ids))
    boards, weights = canonical_boards()
    spans = _spans(len(boards), _BLOCK if ex is None else -(-len(boards) // _EXECUTOR_TASKS))
    if ex is None:
        work = [functools.partial(_count_boards, boards[lo:hi], weights[lo:hi], targets, t) for lo, hi in spans]
        parts = _run_local(workers, work, spans)
    else:
        path = str(t.path)
        futures = [ex.submit(_vs_random_task, path, boards[lo:hi], weights[lo:hi], tuple(ids)) for lo, hi in spans]
        parts = _gather(futures, spans)
    total = np.zeros((2, len(targets)), dtype=np.int64)
    with progress(len(boards), "boards", quiet=quiet) as bar:
        for part, (lo, hi) in parts:
            total += part
            bar(hi - lo)
    out = PreflopResults()
    at = 0
    for k in ids:
        size = len(CLASS_ROWS[k])
        wins, wins_ties = (int(x) for x in total[:, at : at + size].sum(axis=1))
        at += size
        if wins % size or wins_ties % size:
            raise AssertionError(f"{HAND_CLASSES[k]}: counts not shared evenly by the class's {size} combos")
        out[HAND_CLASSES[k]] = _vs_random_result(HAND_CLASSES[k], wins // size, wins_ties // size - wins // size)
    return out


def _vs_random_result(name: str, wins: int, ties: int) -> PlayerEquity:
    combos = class_combos(name)
    equity = (wins + ties / 2) / GAMES_VS_RANDOM
    return PlayerEquity(
        name,
        GAMES_VS_RANDOM,
        wins,
        ties,
        equity,
        combos=combos,
        combo_games=np.full(len(combos), float(GAMES_VS_RANDOM)),
        combo_equity=np.full(len(combos), equity),
    )


# ---------------------------------------------------------------------------
# Running parts: local threads or an executor, with progress


_Span = tuple[int, int]


def _spans(n: int, step: int) -> list[_Span]:
    return [(lo, min(lo + step, n)) for lo in range(0, n, step)]


def _run_local(workers: int, work: Sequence[Callable[[], T]], spans: Sequence[_Span]) -> Iterator[tuple[T, _Span]]:
    """Each part's result with its span, as parts finish, on ``workers`` threads of the package's pool."""
    if workers == 1:
        for fn, span in zip(work, spans):
            yield fn(), span
        return
    yield from _gather([pool.submit(workers, fn) for fn in work], spans)


def _gather(futures: Sequence[Future[T]], spans: Sequence[_Span]) -> Iterator[tuple[T, _Span]]:
    span_of = dict(zip(futures, spans))
    try:
        for f in as_completed(futures):
            yield f.result(), span_of[f]
    finally:
        # A failed part, or a caller that stopped early, must not leave the rest queued.
        for f in futures:
            f.cancel()


# ---------------------------------------------------------------------------
# Class against class


def _matchup_counts(keys: npt.NDArray[np.int64], holdem: Game) -> npt.NDArray[np.int64]:
    """(n, 3): the first combo's wins, the ties and the second's wins of each keyed deal, over every board.

    Counted in one call where the backend counts showdowns (C, hold'em),
    else one exact enumeration (:func:`twoplustwo.odds.exact.hands`) per deal.
    """
    from twoplustwo.odds import exact
    from twoplustwo.odds.counting import count_showdowns

    shifts = np.array([[18, 12], [6, 0]], dtype=np.int64)
    holes = ((keys[:, None, None] >> shifts) & 63).astype(np.uint8)
    counted = count_showdowns(holdem.walker, holes, [], [])
    if counted is not None:
        found, games = counted
        if (games != BOARDS_HEADS_UP).any():
            raise AssertionError(f"counted {games.min()} boards, not {BOARDS_HEADS_UP}")
        return np.stack([found[:, 0, 0], found[:, 0, 1], found[:, 1, 0]], axis=1)
    out = np.empty((len(keys), 3), dtype=np.int64)
    for i, key in enumerate(keys.tolist()):
        x = [(key >> 18) & 63, (key >> 12) & 63]
        y = [(key >> 6) & 63, key & 63]
        first, second = exact.hands([x, y], [], [], game=holdem, threads=1)
        if first[0] != BOARDS_HEADS_UP:
            raise AssertionError(f"enumerated {first[0]} boards, not {BOARDS_HEADS_UP}")
        out[i] = first[1], first[2], second[1]
    return out


def _matchup_task(path: str, keys: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """One executor task: :func:`_matchup_counts` with the tables loaded from ``path``."""
    return _matchup_counts(keys, resolve(HOLDEM, tables_at(path)))


def preflop_matchups(
    classes_a: Sequence[str] | None = None,
    classes_b: Sequence[str] | None = None,
    *,
    tables: Tables | None = None,
    threads: int | None = None,
    executor: Executor | None = None,
    quiet: bool = False,
) -> PreflopResults:
    """Each class of ``classes_a`` heads-up against each of ``classes_b``, exact.

    ``None`` stands for all 169 classes. ``result[a, b]`` is ``a``'s side:
    ``games`` counts every deal of a combo of ``a`` against a combo of ``b``
    sharing no card, times the C(48, 5) boards, ``wins`` and ``ties`` are
    exact ints and ``equity = (wins + ties / 2) / games``; ``combos`` are
    ``a``'s combos, ``combo_games`` and ``combo_equity`` each one's games and
    equity against ``b``. The player is named ``"a vs b"``.

    Deals equal up to a renaming of suits are computed once (the whole
    169 x 169 grid is about 47,000 of them): counted by rank multisets on
    the C backend (:func:`twoplustwo.odds.counting.count_showdowns`, seconds
    for the grid), enumerated one by one on the numpy one. ``threads``, ``executor`` and ``quiet`` work as in
    :func:`preflop_vs_random`.
    """
    ids_a = _class_ids(classes_a, "classes_a")
    ids_b = _class_ids(classes_b, "classes_b")
    t = get_tables(tables)
    workers = pool.resolve_threads(threads)
    ex = _check_executor(executor)
    if not ids_a or not ids_b:
        return PreflopResults()
    # Every ordered deal of a combo of an a class against one of a b class;
    # cells number the (a, b) pairs row-major, slots a's combos in its class.
    combo_a = np.concatenate([CLASS_ROWS[k] for k in ids_a])
    class_a = np.repeat(np.arange(len(ids_a)), [len(CLASS_ROWS[k]) for k in ids_a])
    slot_a = np.concatenate([np.arange(len(CLASS_ROWS[k])) for k in ids_a])
    combo_b = np.concatenate([CLASS_ROWS[k] for k in ids_b])
    class_b = np.repeat(np.arange(len(ids_b)), [len(CLASS_ROWS[k]) for k in ids_b])
    pick_a = np.repeat(np.arange(len(combo_a)), len(combo_b))
    pick_b = np.tile(np.arange(len(combo_b)), len(combo_a))
    a, b = COMBOS[combo_a[pick_a]], COMBOS[combo_b[pick_b]]
    disjoint = (a[:, 0] != b[:, 0]) & (a[:, 0] != b[:, 1]) & (a[:, 1] != b[:, 0]) & (a[:, 1] != b[:, 1])
    pick_a, pick_b, a, b = pick_a[disjoint], pick_b[disjoint], a[disjoint], b[disjoint]
    cells = class_a[pick_a] * len(ids_b) + class_b[pick_b]
    slots = slot_a[pick_a]
    keys, swapped = pair_keys(a, b)
    unique, which = np.unique(keys, return_inverse=True)
    which = which.ravel()

    counts = np.empty((len(unique), 3), dtype=np.int64)
    spans = _spans(len(unique), _MATCHUP_BLOCK if ex is None else max(1, -(-len(unique) // _EXECUTOR_TASKS)))
    if ex is None:
        holdem = resolve(HOLDEM, t)
        parts = _run_local(
            workers, [functools.partial(_matchup_counts, unique[lo:hi], holdem) for lo, hi in spans], spans
        )
    else:
        parts = _gather([ex.submit(_matchup_task, str(t.path), unique[lo:hi]) for lo, hi in spans], spans)
    with progress(len(unique), "deals", quiet=quiet) as bar:
        for part, (lo, hi) in parts:
            counts[lo:hi] = part
            bar(hi - lo)

    wins = np.where(swapped, counts[which, 2], counts[which, 0])
    ties = counts[which, 1]
    n_cells = len(ids_a) * len(ids_b)
    deals = np.bincount(cells, minlength=n_cells)
    cell_wins = np.zeros(n_cells, dtype=np.int64)
    cell_ties = np.zeros(n_cells, dtype=np.int64)
    np.add.at(cell_wins, cells, wins)
    np.add.at(cell_ties, cells, ties)
    by_slot = cells * 12 + slots
    slot_games = np.bincount(by_slot, minlength=n_cells * 12).reshape(n_cells, 12) * float(BOARDS_HEADS_UP)
    # Twice each combo's share of the pots: an int.
    shares = np.zeros(n_cells * 12, dtype=np.int64)
    np.add.at(shares, by_slot, 2 * wins + ties)
    slot_equity = np.divide(
        shares.reshape(n_cells, 12), 2 * slot_games, out=np.zeros_like(slot_games), where=slot_games > 0
    )

    out = PreflopResults()
    for i, ka in enumerate(ids_a):
        combos = class_combos(HAND_CLASSES[ka])
        n = len(combos)
        for j, kb in enumerate(ids_b):
            c = i * len(ids_b) + j
            # Every two classes have deals that share no card: games > 0.
            games = int(deals[c]) * BOARDS_HEADS_UP
            w, ti = int(cell_wins[c]), int(cell_ties[c])
            out[HAND_CLASSES[ka], HAND_CLASSES[kb]] = PlayerEquity(
                f"{HAND_CLASSES[ka]} vs {HAND_CLASSES[kb]}",
                games,
                w,
                ti,
                (w + ti / 2) / games,
                combos=combos,
                combo_games=slot_games[c, :n].copy(),
                combo_equity=slot_equity[c, :n].copy(),
            )
    return out
