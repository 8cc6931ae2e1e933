"""Exact equity by enumeration: every deal of the players' combos with every board completion.

:func:`twoplustwo.equity` parses and checks its input, then comes here when
it enumerates. In hold'em on the C backend the boards are **counted**
(:func:`count_showdowns`): each rank multiset of the missing cards is
scored once, weighted by the ways the deck deals it, and the boards that
can make a flush one suit and rank set at a time; range deals equal up to a
renaming of the suits (:func:`~twoplustwo.vocab.suits.suit_classes`) are counted once. With at most
two cards to come, the deals of a call that hold the same hole ranks share
their counts without flushes, and each deal then moves its flush boards. Elsewhere
they are **listed**, by two routes that give the same counts (and that the
tests hold the counting to):

* **Hands only** (:func:`list_hands`): each player's walk starts at the DAG node
  of their hole cards and the known board, and the missing board cards are
  drawn in sorted order from the cards nobody holds, each shared prefix
  walked once: about one table lookup per player and board.
* **Ranges** (:func:`list_deals`): the boards are drawn from every card not on
  the board or dead, in blocks that share their first cards. For each block
  every distinct combo of every range is walked once over all the block's
  boards (value 0 on a board that holds one of its cards), and then every
  compatible deal, one combo per player with no card shared, is scored on
  the boards where all its combos are live. A board is thus walked once per
  combo, not once per deal.

>>> from twoplustwo.vocab.ranges import parse_range
>>> kings, aces = parse_range("KK"), parse_range("AA")
>>> found, weight = deals([(kings.combos, kings.weights), (aces.combos, aces.weights)], [0, 21, 30, 35], [])
>>> found.counts.sum(axis=0).tolist()  # per player: wins, ties, shares (KK vs AA on 2c 7d 9h Ts)
[[72, 0, 181440], [1512, 0, 3810240]]
>>> int(found.games.sum()), len(found.deals)  # 36 deals, 44 rivers each
(1584, 36)
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from itertools import combinations
from math import comb, prod
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import numpy.typing as npt

from twoplustwo.kernels import pool
from twoplustwo.progress import progress
from twoplustwo.tables.default import get_tables
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.combos import COMBO_ROW, combo_indices
from twoplustwo.vocab.games import HOLDEM, resolve
from twoplustwo.vocab.suits import deal_classes, renamings_keeping

if TYPE_CHECKING:
    from twoplustwo.kernels.interface import Walker

__all__ = [
    "CLASS_SAMPLE",
    "COUNTED_STEP",
    "COUNTER_BYTES",
    "MAX_DEALS",
    "DealCounts",
    "board_cards",
    "completions",
    "count_deals",
    "count_showdowns",
    "deals",
    "estimate_classes",
    "find_deals",
    "hands",
    "layout",
    "list_deals",
    "list_hands",
    "score_hands",
    "score_step",
    "work",
]

#: Most deals (tuples of combos, one per player) :func:`deals` enumerates;
#: a set of its counters takes 24 bytes per player and deal, and 8 per deal.
MAX_DEALS = 2_000_000
#: Bytes all sets of counters of one :func:`deals` call take together at
#: most, however many threads it runs on; one set, when that alone is more
#: (at most 448 MB, for 9 players and :data:`MAX_DEALS`).
COUNTER_BYTES = 1 << 30

# Boards below which threads cost more than they save.
_PARALLEL_MIN = 1 << 15
# Boards per block: the board cards after the first `p` come as a draw of at
# most this many from the rest, so a block's values (2 bytes per combo and
# board) stay small; the first cards of a board fix its block.
_BLOCK_DRAW = 3
# Deals times their cost in rank multisets (_deal_cost) counted per call of the counting kernel: a few milliseconds.
_COUNT_STEP = 50_000
#: What counting costs (:func:`count_showdowns`) for one player on one rank multiset of the missing cards, in
#: the board-combo steps of listing that :func:`work` estimates in: about 35 ns against a third of a
#: nanosecond (heads-up and 3-way preflop ranges, one thread).
COUNTED_STEP = 100
#: Deals :func:`estimate_classes` looks at, at most (an even sample of them).
CLASS_SAMPLE = 4096
#: Player-boards scored per call of the kernel: tens of milliseconds, so
#: that an interrupted enumeration stops soon, even on the calling thread.
SCORE_STEP = 1 << 26


class DealCounts(NamedTuple):
    """Exact counts over every compatible deal and board, before weighting.

    ``deals`` is ``(T, P)``: each deal's combo, per player, as an index into
    that player's combos. ``counts`` is ``(T, P, 3)`` int64: for each deal and
    player the boards won alone, the boards split, and the pot shares in
    units of 1/2520. ``games`` is ``(T,)``: the boards each deal was scored on
    (all alike, since every deal takes the same number of cards).
    """

    deals: npt.NDArray[np.intp]
    counts: npt.NDArray[np.int64]
    games: npt.NDArray[np.int64]


def board_cards(known: Sequence[int], dead: Sequence[int], deck: Sequence[int] = range(52)) -> list[int]:
    """The cards a board completion may draw: the deck but the known board and the dead cards."""
    out = set(known) | set(dead)
    return [c for c in deck if c not in out]


def completions(known: Sequence[int], dead: Sequence[int] = ()) -> npt.NDArray[np.uint8]:
    """Every five-card board completing ``known`` (0 to 5 cards) by hold'em cards not known or ``dead``.

    Rows of the known cards as given, then a draw in increasing order (the
    draws in lexicographic order).

    >>> completions([48, 44, 40], [0]).shape, completions([48, 44, 40])[0].tolist()
    ((1128, 5), [48, 44, 40, 0, 1])
    """
    draws = combinations(board_cards(known, dead), 5 - len(known))
    return np.array([[*known, *draw] for draw in draws], dtype=np.uint8).reshape(-1, 5)


# Each card's bit in a mask of cards.
_CARD_BITS = np.uint64(1) << np.arange(52, dtype=np.uint64)


def _masks(combos: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.uint64]:
    masks: npt.NDArray[np.uint64] = _CARD_BITS[combos[:, 0]] | _CARD_BITS[combos[:, 1]]
    return masks


def find_deals(players: Sequence[npt.NDArray[np.integer[Any]]]) -> npt.NDArray[np.intp] | None:
    """Every compatible deal (as :func:`deals` enumerates them), or None when there may be more than :data:`MAX_DEALS`.

    None without enumerating when the product of the players' combo counts
    is over the limit; :func:`work` and :func:`deals` both take the result,
    so the deals are enumerated once.
    """
    if prod(len(p) for p in players) > MAX_DEALS:
        return None
    return _compatible(players, MAX_DEALS)


def count_deals(players: Sequence[npt.NDArray[np.integer[Any]]], limit: int = MAX_DEALS) -> int:
    """How many deals give every player one of their combos with no card shared; ``limit + 1`` if more.

    >>> from twoplustwo.vocab.ranges import parse_range
    >>> count_deals([parse_range("AA").combos, parse_range("AKs").combos])  # 6 x 4, less the 3 x 4 sharing an ace
    12
    """
    found = _compatible(players, limit)
    return limit + 1 if found is None else len(found)


def _compatible(players: Sequence[npt.NDArray[np.integer[Any]]], limit: int) -> npt.NDArray[np.intp] | None:
    """Every compatible deal as rows of per-player combo indices, in lexicographic order; None past ``limit``."""
    masks = [_masks(p) for p in players]
    rows = np.arange(len(masks[0]), dtype=np.intp)[:, None]
    used = masks[0]
    for m in masks[1:]:
        # Deals extended a slice at a time, so that a hopeless product
        # stops at the limit instead of filling memory.
        step = max(1, (1 << 22) // max(1, len(m)))
        firsts: list[npt.NDArray[np.intp]] = []
        nexts: list[npt.NDArray[np.intp]] = []
        kept = 0
        for a in range(0, len(rows), step):
            i, j = np.nonzero((used[a : a + step, None] & m[None, :]) == 0)
            kept += len(i)
            if kept > limit:
                return None
            firsts.append(i + a if a else i)
            nexts.append(j)
        first = np.concatenate(firsts) if len(firsts) > 1 else firsts[0] if firsts else np.empty(0, dtype=np.intp)
        after = np.concatenate(nexts) if len(nexts) > 1 else nexts[0] if nexts else np.empty(0, dtype=np.intp)
        extended = np.empty((len(first), rows.shape[1] + 1), dtype=np.intp)
        extended[:, :-1] = rows[first]
        extended[:, -1] = after
        rows = extended
        used = used[first] | m[after]
    return rows


def _starts(layers: list[Any], cards: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.int64]:
    """The dag7 node after each row of ``cards``, walked left to right."""
    nodes = np.zeros(len(cards), dtype=np.int64)
    for depth in range(cards.shape[1]):
        nodes = layers[depth].take(nodes * 52 + cards[:, depth]).astype(np.int64)
    return nodes


def layout(workers: int, blocks: int, n_deals: int, n_players: int) -> tuple[int, int]:
    """How :func:`deals` splits its work: ``(groups, slices)``, one part each of ``groups * slices``.

    A group of blocks counts into a set of counters of its own, so there are
    no more groups than blocks or than :data:`COUNTER_BYTES` holds sets. The
    threads left over split each group's deals into slices: the parts of a
    group walk the same boards and write disjoint rows of its counters.
    """
    size = n_deals * (24 * n_players + 8)
    groups = max(1, min(workers, blocks, COUNTER_BYTES // size))
    return groups, max(1, min(workers // groups, n_deals))


def _blocks(rest: list[int], missing: int) -> tuple[int, list[tuple[int, ...]]]:
    """The board blocks: each a prefix of the first ``p`` board cards, after which a draw of the rest follows."""
    p = max(0, missing - _BLOCK_DRAW)
    t = missing - p
    prefixes = [pre for pre in combinations(range(len(rest)), p) if len(rest) - 1 - (pre[-1] if pre else -1) >= t]
    return p, [tuple(rest[i] for i in pre) for pre in prefixes]


def deals(
    players: Sequence[tuple[npt.NDArray[np.integer[Any]], npt.NDArray[np.float64]]],
    known: Sequence[int],
    dead: Sequence[int],
    *,
    game: str = HOLDEM,
    tables: Tables | None = None,
    threads: int | None = None,
    quiet: bool = False,
    found: npt.NDArray[np.intp] | None = None,
) -> tuple[DealCounts, npt.NDArray[np.float64]]:
    """Exact counts of every compatible deal of the players' combos over every completion of ``known``.

    ``players`` gives each player's ``(n, 2)`` combos and ``(n,)`` weights;
    no combo may touch ``known`` or ``dead``, or hold a card outside
    ``game``'s deck (the caller removes those).
    Returns the :class:`DealCounts` and each deal's weight, the product of
    its combos' weights. Raises ``ValueError`` when no deal is compatible or
    there are more than :data:`MAX_DEALS`. A long run shows a progress bar
    of boards on a terminal unless ``quiet``. ``found`` is the deals
    :func:`find_deals` found already, if it did.

    In hold'em on the C backend the deals are counted (:func:`count_showdowns`),
    one of each class of deals equal up to a renaming of the suits
    (:func:`~twoplustwo.vocab.suits.suit_classes`); otherwise every board is listed (:func:`list_deals`).
    Both give the same counts. Memory: 24 bytes per player and deal and 8 per
    deal for the counts; listing may take more (see :func:`list_deals`).
    Ctrl-C (or a failure) stops every thread within one short step and
    leaves the pool idle.
    """
    workers = pool.resolve_threads(threads)
    combos = [np.asarray(c, dtype=np.intp) for c, _ in players]
    found, weight = _weighted_deals(players, combos, found)
    g = resolve(game, get_tables(tables))
    holes = np.empty((len(found), len(combos), 2), dtype=np.uint8)
    for i, c in enumerate(combos):
        holes[:, i] = c[found[:, i]]
    counted = _count_classes(g.walker, holes, known, dead, workers, quiet)
    if counted is not None:
        return DealCounts(found, *counted), weight
    return list_deals(players, known, dead, game=game, tables=tables, threads=workers, quiet=quiet, found=found)


def _weighted_deals(
    players: Sequence[tuple[npt.NDArray[np.integer[Any]], npt.NDArray[np.float64]]],
    combos: list[npt.NDArray[np.intp]],
    found: npt.NDArray[np.intp] | None,
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.float64]]:
    """The compatible deals (``found``, or enumerated now) and their weights; ``ValueError`` for none or too many."""
    if found is None:
        found = _compatible(combos, MAX_DEALS)
    if found is None:
        raise ValueError(f"more than {MAX_DEALS:,} deals of the ranges to enumerate; use method='monte-carlo'")
    if len(found) == 0:
        raise ValueError("no deal gives every player a combo without a card another player holds")
    weight: npt.NDArray[np.float64] = np.asarray(players[0][1], dtype=np.float64)[found[:, 0]]
    for i, (_, w) in enumerate(players[1:], 1):
        weight *= w[found[:, i]]
    return found, weight


def list_deals(
    players: Sequence[tuple[npt.NDArray[np.integer[Any]], npt.NDArray[np.float64]]],
    known: Sequence[int],
    dead: Sequence[int],
    *,
    game: str = HOLDEM,
    tables: Tables | None = None,
    threads: int | None = None,
    quiet: bool = False,
    found: npt.NDArray[np.intp] | None = None,
) -> tuple[DealCounts, npt.NDArray[np.float64]]:
    """What :func:`deals` returns, by walking every board down the DAG: any game, either backend.

    Memory: the counters take 24 bytes per player and deal and 8 per deal,
    once for each group of blocks counted side by side, all groups together
    at most :data:`COUNTER_BYTES` (or one group's counters, when that alone
    is more), whatever ``threads``; each thread also holds its block's
    values, 2 bytes per distinct combo and board (at most C(50, 3) boards).
    """
    workers = pool.resolve_threads(threads)
    combos = [np.asarray(c, dtype=np.intp) for c, _ in players]
    found, weight = _weighted_deals(players, combos, found)
    t = get_tables(tables)
    g = resolve(game, t)
    # One row of values per distinct combo, whichever players hold it.
    ids = [combo_indices(c[:, 0], c[:, 1]) for c in combos]
    _, at, where = np.unique(np.concatenate(ids), return_index=True, return_inverse=True)
    offsets = np.cumsum([0] + [len(i) for i in ids])
    rows = np.stack([where[offsets[i] + found[:, i]] for i in range(len(combos))], axis=1).astype(np.int32)
    first = np.concatenate(combos)[at]
    layers = g.layers(7)
    known_cols = np.broadcast_to(np.asarray(known, dtype=np.intp), (len(first), len(known)))
    starts = _starts(layers, np.concatenate([first, known_cols], axis=1))
    held = _masks(first)
    n_deals, n_players = rows.shape
    rest = board_cards(known, dead, g.deck)
    missing = 5 - len(known)
    walker = g.walker
    if missing == 0:
        values = np.ascontiguousarray(starts.astype(np.uint16)[:, None])  # after seven cards the node is the value
        counts = np.zeros((n_deals, n_players, 3), dtype=np.int64)
        games = np.zeros(n_deals, dtype=np.int64)
        score_step(walker, values, rows, counts, games)
        return DealCounts(found, counts, games), weight
    depth = 2 + len(known)
    p, prefixes = _blocks(rest, missing)
    starts32 = starts.astype(np.uint32)
    boards = comb(len(rest), missing)
    groups, slices = layout(workers if boards * len(starts) >= _PARALLEL_MIN else 1, len(prefixes), n_deals, n_players)
    sums = [np.zeros((n_deals, n_players, 3), dtype=np.int64) for _ in range(groups)]
    played = [np.zeros(n_deals, dtype=np.int64) for _ in range(groups)]
    cuts = [n_deals * i // slices for i in range(slices + 1)]
    stop = threading.Event()

    def part(k: int) -> None:
        g, s = divmod(k, slices)
        lo, hi = cuts[s], cuts[s + 1]
        # Groups take every n-th block: blocks shrink along the order, so
        # each group gets its share of big and small ones.
        for pre in prefixes[g::groups]:
            if stop.is_set():
                return
            after = pre[-1] if pre else -1
            free = np.array([c for c in rest if c > after], dtype=np.uint8)
            values = np.empty((len(starts), comb(len(free), missing - p)), dtype=np.uint16)
            walker.range_values(starts32, held, depth, np.array(pre, dtype=np.uint8), free, values)
            step = max(1, SCORE_STEP // (n_players * values.shape[1]))
            for a in range(lo, hi, step):
                if stop.is_set():
                    return
                b = min(a + step, hi)
                score_step(walker, values, rows[a:b], sums[g][a:b], played[g][a:b])
            if s == 0:
                update(values.shape[1])

    with progress(boards, "boards", quiet=quiet) as update:
        pool.run(groups * slices, part, range(groups * slices), stop=stop)
    for c, n in zip(sums[1:], played[1:]):
        sums[0] += c
        played[0] += n
    return DealCounts(found, sums[0], played[0]), weight


def count_showdowns(
    walker: Walker, holes: npt.NDArray[np.uint8], known: Sequence[int], dead: Sequence[int]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]] | None:
    """Exact counts of deals of whole hands by counting boards, or None where that does not serve.

    ``holes`` is ``(deals, players, 2)``; returns ``(counts, games)`` as in
    :class:`DealCounts`. None for another game than hold'em, for more than 9
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


def _count_classes(
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
    most = max(1, _COUNT_STEP // _deal_cost(5 - len(known), holes.shape[1]))
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


def _deal_cost(missing: int, players: int) -> int:
    """What counting one deal of ``players`` with ``missing`` board cards to come costs, in rank multisets scored.

    A deal walks every multiset of the missing ranks. With at most two to
    come the kernel scores each tuple of hole ranks once per call and then
    a deal's flush boards alone: at most about five multisets' time per
    player (a flush-heavy flop, every tuple new).
    """
    multisets = comb(12 + missing, missing)
    return multisets if missing > 2 else min(multisets, 5 * players)


def score_step(
    walker: Walker,
    values: npt.NDArray[np.uint16],
    rows: npt.NDArray[np.int32],
    counts: npt.NDArray[np.int64],
    games: npt.NDArray[np.int64],
) -> None:
    """Score one step of deals on one block of boards into ``counts`` and ``games``.

    A function of the module's own, looked up at each step: the interrupt
    tests wrap it to see an enumeration begin.
    """
    walker.score_tuples(values, rows, counts, games)


def hands(
    holes: list[list[int]],
    known: Sequence[int],
    dead: Sequence[int],
    *,
    game: str = HOLDEM,
    tables: Tables | None = None,
    threads: int | None = None,
) -> list[tuple[int, int, int, int]]:
    """Exact ``(games, wins, ties, units)`` per hand: every completion of ``known`` by cards no hand holds.

    ``units`` are pot shares in 1/2520 of a pot. The caller has checked that
    no card appears twice, that all are in ``game``'s deck and that enough
    cards are left.
    """
    workers = pool.resolve_threads(threads)
    t = get_tables(tables)
    g = resolve(game, t)
    counted = count_showdowns(g.walker, np.array([holes], dtype=np.uint8), known, dead)
    if counted is not None:
        counts, games = counted
        return [(int(games[0]), int(w), int(t), int(u)) for w, t, u in counts[0]]
    return list_hands(holes, known, dead, game=game, tables=t, threads=workers)


def list_hands(
    holes: list[list[int]],
    known: Sequence[int],
    dead: Sequence[int],
    *,
    game: str = HOLDEM,
    tables: Tables | None = None,
    threads: int | None = None,
) -> list[tuple[int, int, int, int]]:
    """What :func:`hands` returns, by walking every board down the DAG: the route counting is tested against."""
    workers = pool.resolve_threads(threads)
    g = resolve(game, get_tables(tables))
    layers = g.layers(7)
    starts = [int(s) for s in _starts(layers, np.array([h + list(known) for h in holes], dtype=np.intp))]
    rest = board_cards(known, [*dead, *(c for h in holes for c in h)], g.deck)
    missing = 5 - len(known)
    n_boards = comb(len(rest), missing)
    values = np.empty((len(holes), n_boards), dtype=np.uint16)
    if missing == 0:
        values[:, 0] = starts  # after seven cards the node is the value
    else:
        depth = 2 + len(known)
        walker = g.walker
        free = np.array(rest, dtype=np.uint8)

        def walk(i: int) -> None:
            # Every draw from the free cards, each shared prefix walked once.
            walker.draw_values(starts[i], depth, free, values[i])

        # The walks release the GIL, so players run on all cores.
        pool.run(workers if n_boards >= _PARALLEL_MIN else 1, walk, range(len(starts)))
    return score_hands(values, g.walker)


def score_hands(values: npt.NDArray[np.uint16], walker: Walker) -> list[tuple[int, int, int, int]]:
    """Per-player ``(games, wins, ties, units)`` from the ``(players, boards)`` values, scored by ``walker``."""
    return [(values.shape[1], w, t, u) for w, t, u in walker.score(values)]


def work(
    players: Sequence[npt.NDArray[np.integer[Any]]],
    known: Sequence[int],
    dead: Sequence[int],
    deck: Sequence[int] = range(52),
    found: npt.NDArray[np.intp] | None = None,
    *,
    game: str = HOLDEM,
    tables: Tables | None = None,
) -> float:
    """A cost estimate of :func:`deals` with the same ``game`` and ``tables``, on its route, in board-combo steps.

    Listing (:func:`list_deals`) walks boards times (distinct combos + deals x players) board-combo steps, about
    a third of a nanosecond each. Counting (hold'em on the C backend, :func:`count_showdowns`) scores one deal of
    each suit class (:func:`~twoplustwo.vocab.suits.suit_classes`), each player on each rank multiset of the missing
    cards (:func:`_deal_cost`), at about :data:`COUNTED_STEP` board-combo steps each; the classes are estimated from a
    sample of the deals (:func:`estimate_classes`). ``found`` is what :func:`find_deals` gave: the deals, or None for
    more than the product of the ranges' sizes.

    >>> from twoplustwo.tables.default import get_tables
    >>> from twoplustwo.vocab.ranges import parse_range
    >>> aa, anything = parse_range("AA").combos, parse_range("random").combos
    >>> counts = get_tables().walker.keyed_tables()  # the walker counts showdowns where it has keyed tables
    >>> counted = 469 * comb(17, 5) * 2 * COUNTED_STEP  # 469 classes of the 7,350 deals, 6,188 multisets, 2 players
    >>> listed = comb(52, 5) * (1326 + 7350 * 2)  # boards x (distinct combos + deals x players)
    >>> round(work([anything, aa], [], [], found=find_deals([anything, aa]))) == (counted if counts else listed)
    True
    """
    n_deals = prod(len(p) for p in players) if found is None else len(found)
    walker = resolve(game, get_tables(tables)).walker
    missing = 5 - len(known)
    if 2 <= len(players) <= 9 and walker.keyed_tables():  # the walker counts (count_showdowns)
        classes = n_deals if found is None else estimate_classes(players, found, known, dead)
        return classes * _deal_cost(missing, len(players)) * len(players) * COUNTED_STEP
    boards = comb(len(board_cards(known, dead, deck)), missing)
    distinct = len(np.unique(np.concatenate([combo_indices(p[:, 0], p[:, 1]) for p in players])))
    return float(boards) * (distinct + n_deals * len(players))


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
