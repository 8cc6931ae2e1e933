"""Exact equity by enumeration: every deal of the players' combos with every board completion.

:func:`twoplustwo.equity` parses and checks its input, resolves the game
once, then comes here when it enumerates: :func:`deals` for ranges,
:func:`hands` for hands alone, each given the resolved game. In hold'em on
the C backend the boards are **counted** (:mod:`twoplustwo.odds.counting`:
each rank multiset of the missing cards scored once, one deal per suit
class). Elsewhere they are **listed**, by two routes that give the same
counts (and that the tests hold the counting to):

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

What enumerating will cost, before it runs, is :mod:`twoplustwo.odds.cost`'s.

>>> from twoplustwo.kernels.games import resolve
>>> from twoplustwo.vocab.ranges import parse_range
>>> kings, aces = parse_range("KK"), parse_range("AA")
>>> players = [(kings.combos, kings.weights), (aces.combos, aces.weights)]
>>> found, weight = deals(players, [0, 21, 30, 35], [], game=resolve("holdem"))
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
from twoplustwo.odds import counting
from twoplustwo.progress import progress
from twoplustwo.vocab.combos import combo_indices

if TYPE_CHECKING:
    from twoplustwo.kernels.games import Game
    from twoplustwo.kernels.interface import Walker

__all__ = [
    "COUNTER_BYTES",
    "MAX_DEALS",
    "DealCounts",
    "board_cards",
    "completions",
    "count_deals",
    "deals",
    "find_deals",
    "hands",
    "layout",
    "list_deals",
    "list_hands",
    "score_hands",
    "score_step",
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
    game: Game,
    threads: int | None = None,
    quiet: bool = False,
    found: npt.NDArray[np.intp] | None = None,
) -> tuple[DealCounts, npt.NDArray[np.float64]]:
    """Exact counts of every compatible deal of the players' combos over every completion of ``known``.

    ``players`` gives each player's ``(n, 2)`` combos and ``(n,)`` weights;
    no combo may touch ``known`` or ``dead``, or hold a card outside
    ``game``'s deck (the caller removes those). ``game`` is the game as
    the caller resolved it on its table set.
    Returns the :class:`DealCounts` and each deal's weight, the product of
    its combos' weights. Raises ``ValueError`` when no deal is compatible or
    there are more than :data:`MAX_DEALS`. A long run shows a progress bar
    of boards on a terminal unless ``quiet``. ``found`` is the deals
    :func:`find_deals` found already, if it did.

    In hold'em on the C backend the deals are counted
    (:func:`~twoplustwo.odds.counting.count_classes`), one of each class of
    deals equal up to a renaming of the suits; otherwise every board is listed (:func:`list_deals`).
    Both give the same counts. Memory: 24 bytes per player and deal and 8 per
    deal for the counts; listing may take more (see :func:`list_deals`).
    Ctrl-C (or a failure) stops every thread within one short step and
    leaves the pool idle.
    """
    workers = pool.resolve_threads(threads)
    combos = [np.asarray(c, dtype=np.intp) for c, _ in players]
    found, weight = _weighted_deals(players, combos, found)
    holes = np.empty((len(found), len(combos), 2), dtype=np.uint8)
    for i, c in enumerate(combos):
        holes[:, i] = c[found[:, i]]
    counted = counting.count_classes(game.walker, holes, known, dead, workers, quiet)
    if counted is not None:
        return DealCounts(found, *counted), weight
    return list_deals(players, known, dead, game=game, threads=workers, quiet=quiet, found=found)


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
    game: Game,
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
    # One row of values per distinct combo, whichever players hold it.
    ids = [combo_indices(c[:, 0], c[:, 1]) for c in combos]
    _, at, where = np.unique(np.concatenate(ids), return_index=True, return_inverse=True)
    offsets = np.cumsum([0] + [len(i) for i in ids])
    rows = np.stack([where[offsets[i] + found[:, i]] for i in range(len(combos))], axis=1).astype(np.int32)
    first = np.concatenate(combos)[at]
    layers = game.layers(7)
    known_cols = np.broadcast_to(np.asarray(known, dtype=np.intp), (len(first), len(known)))
    starts = _starts(layers, np.concatenate([first, known_cols], axis=1))
    held = _masks(first)
    n_deals, n_players = rows.shape
    rest = board_cards(known, dead, game.deck)
    missing = 5 - len(known)
    walker = game.walker
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
    game: Game,
    threads: int | None = None,
) -> list[tuple[int, int, int, int]]:
    """Exact ``(games, wins, ties, units)`` per hand: every completion of ``known`` by cards no hand holds.

    ``units`` are pot shares in 1/2520 of a pot. The caller has checked that
    no card appears twice, that all are in ``game``'s deck and that enough
    cards are left.
    """
    counted = counting.count_showdowns(game.walker, np.array([holes], dtype=np.uint8), known, dead)
    if counted is not None:
        counts, games = counted
        return [(int(games[0]), int(w), int(t), int(u)) for w, t, u in counts[0]]
    return list_hands(holes, known, dead, game=game, threads=threads)


def list_hands(
    holes: list[list[int]],
    known: Sequence[int],
    dead: Sequence[int],
    *,
    game: Game,
    threads: int | None = None,
) -> list[tuple[int, int, int, int]]:
    """What :func:`hands` returns, by walking every board down the DAG: the route counting is tested against."""
    workers = pool.resolve_threads(threads)
    layers = game.layers(7)
    starts = [int(s) for s in _starts(layers, np.array([h + list(known) for h in holes], dtype=np.intp))]
    rest = board_cards(known, [*dead, *(c for h in holes for c in h)], game.deck)
    missing = 5 - len(known)
    n_boards = comb(len(rest), missing)
    values = np.empty((len(holes), n_boards), dtype=np.uint16)
    if missing == 0:
        values[:, 0] = starts  # after seven cards the node is the value
    else:
        depth = 2 + len(known)
        walker = game.walker
        free = np.array(rest, dtype=np.uint8)

        def walk(i: int) -> None:
            # Every draw from the free cards, each shared prefix walked once.
            walker.draw_values(starts[i], depth, free, values[i])

        # The walks release the GIL, so players run on all cores.
        pool.run(workers if n_boards >= _PARALLEL_MIN else 1, walk, range(len(starts)))
    return score_hands(values, game.walker)


def score_hands(values: npt.NDArray[np.uint16], walker: Walker) -> list[tuple[int, int, int, int]]:
    """Per-player ``(games, wins, ties, units)`` from the ``(players, boards)`` values, scored by ``walker``."""
    return [(values.shape[1], w, t, u) for w, t, u in walker.score(values)]

