"""The bucket tables: every canonical hand of a street in one of k buckets, for solvers' card abstraction.

Each table holds one uint16 bucket per index of the street's
:class:`twoplustwo.HandIndexer` (``(2, 3)`` flop, ``(2, 4)`` turn, ``(2, 5)``
river), numbered from the weakest bucket up by the weighted mean strength
(``ehs``) of their hands. Every canonical hand weighs as many hands as it
stands for (:meth:`twoplustwo.HandIndexer.counts`), so the buckets are those
of the game as dealt. The features come from the set's strength tables:

==========  ======  ===================================================================
method      street  a hand's row, clustered by :func:`twoplustwo.kmeans`
==========  ======  ===================================================================
emd         flop    the cumulative 50-bin histogram of its equity over the 1,081 runouts
emd         turn    its 2W + T on each of the 46 rivers, sorted
potential   flop    its histogram over the buckets of the turn's ``emd`` table with the same
                    k: how many of the 47 turns take it to each, under the EMD whose ground
                    distance is the L1 distance between those buckets' centers
ochs        river   its equity against each of 8 clusters of the 169 preflop classes,
                    in 65,535ths (opponent cluster hand strength), under L2
percentile  any     none: the buckets split the hands, ordered by ``ehs``, into k equal
                    weights (hands of equal ``ehs`` share a bucket)
==========  ======  ===================================================================

Between two ``emd`` rows the L1 distance, divided by the row's scale, is the
earth mover's distance between the two hands' equity distributions (Johanson
et al., 2013, cluster by it; in one dimension it is this, exactly). The
``potential`` buckets (Ganzfried and Sandholm, 2014) see where a flop hand
can go: its histogram over the turn buckets is compared by the earth
mover's distance over the turn buckets' centers (each bucket's weighted
median row), solved exactly per pair (:func:`twoplustwo.kmeans`,
``metric="emd"``), and so the turn table must be built first. The
preflop classes of ``ochs`` are themselves clustered by EMD, over their
histograms of equity on every board. The summary gives every table's
within-bucket mean distance (EMD, or L2 for ``ochs``), the one to compare
with the percentile buckets of the same k.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from concurrent.futures import Executor
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from twoplustwo import COMBOS, HandIndexer, Tables, buckets
from twoplustwo.abstraction.kmeans import centers_of, kmeans, row_distances
from twoplustwo.kernels.games import walker_of
from twoplustwo.kernels.limits import MAX_GROUND
from twoplustwo.kernels.pool import resolve_threads, run
from twoplustwo.progress import progress
from twoplustwo.tables.load import open_tables
from twoplustwo.tables.optional import BUCKET_STREETS, STRENGTH_BINS, bucket_role, parse_bucket_role

from ..dag.write import discard, new_staging, publish, stage
from .strength import canonical_boards_of, live_hands, run_blocks

__all__ = [
    "OPPONENT_CLUSTERS",
    "Features",
    "bucket_table",
    "describe_summary",
    "features",
    "mean_distance",
    "ochs_rows",
    "ochs_task",
    "percentile_buckets",
    "potential_rows",
    "preflop_clusters",
    "publish_buckets",
    "turn_centers",
    "turn_rows",
]

#: The clusters of preflop classes that ``ochs`` measures a river hand's equity against.
OPPONENT_CLUSTERS = 8
# Canonical turn hands whose 46 rivers are looked up at once: some 30 MB of work each.
_TURN_BLOCK = 1 << 16
# River boards swept per task of ochs_rows: a few megabytes of rows.
_RIVER_BLOCK = 256
# OCHS entries are equities in this many parts.
_OCHS_SCALE = 65535


class Features(NamedTuple):
    """A street's rows for clustering and what goes with them, one per canonical index.

    ``points`` are the uint16 rows, compared by ``metric`` (``"l1"``,
    ``"l2"``, or ``"emd"`` over the rows of ``ground``), and ``scale`` turns
    their distances into equity (EMD = L1 / scale); ``strength`` is each
    hand's ``ehs`` numerator (all over one denominator), and ``weights`` the
    hands each index stands for.
    """

    points: npt.NDArray[np.uint16] | None
    scale: int
    strength: npt.NDArray[np.integer[Any]]
    weights: npt.NDArray[np.uint8]
    metric: str = "l1"
    ground: npt.NDArray[np.uint16] | None = None


def _need(tables: Tables, roles: list[str]) -> None:
    missing = [r for r in roles if r not in tables.arrays]
    if missing:
        raise ValueError(
            f"the table set at {tables.path} lacks {', '.join(missing)}: build the strength tables first "
            f"(python -m twoplustwo_builder --strength)"
        )


def features(
    tables: Tables,
    street: str,
    method: str,
    *,
    threads: int | None = None,
    executor: Executor | None = None,
    quiet: bool = True,
    k: int = 1,
) -> Features:
    """The rows :func:`bucket_table` clusters for ``method`` on ``street`` (None for percentile), and the rest.

    ``k`` is the number of buckets, which ``potential`` needs: its rows are
    over the buckets of the turn's ``emd`` table with this k.
    """
    bucket_role(street, method, k)  # checks the pair
    rounds = BUCKET_STREETS[street][0]
    indexer = HandIndexer(rounds)
    weights = _counts(indexer, threads)
    if street == "river":
        _need(tables, ["strength/river/wins", "strength/river/ties"])
        a = tables.arrays
        strength = 2 * a["strength/river/wins"].astype(np.uint16) + a["strength/river/ties"]  # at most 1980
        if method == "percentile":
            return Features(None, 1, strength, weights)
        rows, written = ochs_rows(tables, quiet=quiet, executor=executor)
        if not written.all():
            raise AssertionError(f"the river's ochs rows miss {int((~written).sum())} indices")
        return Features(rows, _OCHS_SCALE, strength, weights, "l2")
    _need(tables, [f"strength/{street}/sum"])
    strength = tables.arrays[f"strength/{street}/sum"]  # mapped: no copy
    if method == "percentile":
        return Features(None, 1, strength, weights)
    if method == "potential":
        turn_role = bucket_role("turn", "emd", k)
        if turn_role not in tables.arrays:
            raise ValueError(
                f"the table set at {tables.path} lacks {turn_role}, whose buckets the potential rows count: build "
                f"it first (twoplustwo abstraction --street turn --method emd --k {k})"
            )
        if k > MAX_GROUND:
            raise ValueError(f"potential buckets are over at most {MAX_GROUND:,} turn buckets, got k = {k}")
        ground = turn_centers(tables, k, threads=threads, quiet=quiet)
        return Features(potential_rows(tables, k), 47 * 46 * 1980, strength, weights, "emd", ground)
    if street == "flop":
        _need(tables, ["strength/flop/histogram"])
        histogram = tables.arrays["strength/flop/histogram"].reshape(-1, STRENGTH_BINS)
        # The last entry of each cumulative row is the 1,081 runouts, the same for all: left out.
        points = np.cumsum(histogram[:, :-1], axis=1, dtype=np.uint16)
        return Features(points, 1081 * STRENGTH_BINS, strength, weights)
    rows = turn_rows(tables, np.arange(indexer.size(), dtype=np.uint64), threads=threads, quiet=quiet)
    return Features(rows, 46 * 1980, strength, weights)


def _counts(indexer: HandIndexer, threads: int | None) -> npt.NDArray[np.uint8]:
    size = indexer.size()
    out = np.empty(size, dtype=np.uint8)
    step = 1 << 20

    def part(a: int) -> None:
        out[a : a + step] = indexer.counts(np.arange(a, min(a + step, size), dtype=np.uint64))

    run(resolve_threads(threads), part, range(0, size, step))
    return out


def turn_rows(
    tables: Tables, indices: npt.NDArray[np.integer[Any]], *, threads: int | None = None, quiet: bool = True
) -> npt.NDArray[np.uint16]:
    """The ``emd`` rows of turn hands by index: each hand's 2W + T on each of its 46 rivers, sorted ((N, 46) uint16).

    W and T come from the set's ``strength/river/wins`` and ``ties`` tables.
    """
    _need(tables, ["strength/river/wins", "strength/river/ties"])
    turn, river = HandIndexer((2, 4)), HandIndexer((2, 5))
    wins, ties = tables.arrays["strength/river/wins"], tables.arrays["strength/river/ties"]
    at_turn = np.asarray(indices, dtype=np.uint64)
    out = np.empty((len(at_turn), 46), dtype=np.uint16)

    def part(a: int) -> None:
        hands = turn.unindex(at_turn[a : a + _TURN_BLOCK])
        n = len(hands)
        at = river.index(_dealt_on(hands))
        values = 2 * wins[at].astype(np.uint16) + ties[at]
        out[a : a + n] = np.sort(values.reshape(n, 46), axis=1)
        update(n)

    with progress(len(at_turn), "hands", desc="turn rows", quiet=quiet) as update:
        run(resolve_threads(threads), part, range(0, len(at_turn), _TURN_BLOCK))
    return out


def _dealt_on(hands: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """Each hand with each card it lacks dealt on, in card order: ``(n * (52 - c), c + 1)`` uint8 rows."""
    n, c = hands.shape
    free = np.ones((n, 52), dtype=bool)
    free[np.arange(n)[:, None], hands] = False
    cards = np.broadcast_to(np.arange(52, dtype=np.uint8), (n, 52))[free].reshape(-1, 1)
    return np.concatenate([np.repeat(hands, 52 - c, axis=0), cards], axis=1)


def turn_centers(tables: Tables, k: int, *, threads: int | None = None, quiet: bool = True) -> npt.NDArray[np.uint16]:
    """The centers of the turn's ``emd`` buckets with this ``k``: each bucket's weighted median :func:`turn_rows` row.

    They are the ground points of ``potential`` rows: ``(k, 46)`` uint16, a
    bucket with no hand all zeros.
    """
    turn = HandIndexer((2, 4))
    labels = buckets("turn", "emd", k, tables=tables).astype(np.uint16)  # stored as uint8 up to 256 buckets
    rows = turn_rows(tables, np.arange(turn.size(), dtype=np.uint64), threads=threads, quiet=quiet)
    centers, totals = np.zeros((k, 46), dtype=np.uint16), np.empty(k, dtype=np.int64)
    centers_of(rows, labels, _counts(turn, threads).astype(np.int64), centers, totals)
    return centers


def potential_rows(tables: Tables, k: int) -> npt.NDArray[np.uint16]:
    """The ``potential`` rows of every flop index: how many of its 47 turns fall in each turn ``emd`` bucket.

    ``(1,286,792, k)`` uint16, each row summing to 47.
    """
    flop, turn = HandIndexer((2, 3)), HandIndexer((2, 4))
    labels = buckets("turn", "emd", k, tables=tables)
    size = flop.size()
    out = np.empty((size, k), dtype=np.uint16)
    step = 1 << 14
    for a in range(0, size, step):
        hands = flop.unindex(np.arange(a, min(a + step, size), dtype=np.uint64))
        n = len(hands)
        at = turn.index(_dealt_on(hands))
        cells = (np.arange(n)[:, None] * k + labels[at].reshape(n, 47)).ravel()
        out[a : a + n] = np.bincount(cells, minlength=n * k).reshape(n, k)
    return out


def preflop_clusters(tables: Tables, k: int = OPPONENT_CLUSTERS, *, seed: int = 0) -> npt.NDArray[np.uint8]:
    """Each preflop class's cluster (by its ``(2,)`` index), the weakest first: the opponents of ``ochs``.

    The classes are clustered by EMD (:func:`twoplustwo.kmeans`, L1) over
    their cumulative histograms of equity on every board, in 65,535ths of
    the 2,118,760 boards, each weighing its combos.
    """
    _need(tables, ["strength/preflop/histogram", "strength/preflop/sum"])
    histogram = tables.arrays["strength/preflop/histogram"].reshape(169, STRENGTH_BINS).astype(np.int64)
    cumulative = np.cumsum(histogram[:, :-1], axis=1)
    rows = (cumulative * _OCHS_SCALE // histogram.sum(axis=1, keepdims=True)).astype(np.uint16)
    counts = HandIndexer((2,)).counts(np.arange(169))
    strength = tables.arrays["strength/preflop/sum"].astype(np.int64)
    return kmeans(rows, counts, k=k, seed=seed, strength=strength, quiet=True).labels.astype(np.uint8)


def ochs_task(tables: Tables | str, block: npt.NDArray[np.uint8], clusters: npt.NDArray[np.uint8]) -> Any:
    """Each combo's ``ochs`` row on each board of ``block``: ``(B, 1326, clusters)`` uint16, 0 off the board.

    Entry c is the combo's equity against the combos of cluster c that
    share no card with it or the board, in 65,535ths rounded half up
    (``(65535 (2W + T) + N) // 2N`` of N such combos); half when N is 0.
    """
    from twoplustwo.tables.default import tables_at

    walker = walker_of(tables if isinstance(tables, Tables) else tables_at(tables))
    groups = int(clusters.max()) + 1
    combo_cluster = clusters[HandIndexer((2,)).index(COMBOS).astype(np.intp)]
    member = [(combo_cluster == c).astype(np.float64) for c in range(groups)]
    out = np.zeros((len(block), len(COMBOS), groups), dtype=np.uint16)
    tally = np.empty((len(COMBOS), 3))
    for b in range(len(block)):
        board = np.ascontiguousarray(block[b : b + 1])
        for c in range(groups):
            tally[:] = 0
            walker.range_sweep(board, member[c], tally)
            won, faced = (2 * tally[:, 0] + tally[:, 1]).astype(np.int64), tally[:, 2].astype(np.int64)
            share = np.where(faced > 0, (_OCHS_SCALE * won + faced) // np.maximum(2 * faced, 1), _OCHS_SCALE // 2 + 1)
            out[b, :, c] = share
    return out


def ochs_rows(
    tables: Tables,
    boards: npt.NDArray[np.uint8] | None = None,
    *,
    quiet: bool = True,
    executor: Executor | None = None,
) -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.bool_]]:
    """Every river index's ``ochs`` row (:func:`ochs_task`), from the canonical river boards (or just ``boards``).

    Returns the ``(123,156,254, 8)`` rows and which indices the boards reached.
    """
    from tqdm import tqdm

    clusters = preflop_clusters(tables)
    indexer = HandIndexer((2, 5))
    boards = canonical_boards_of(5) if boards is None else boards
    rows = np.zeros((indexer.size(), int(clusters.max()) + 1), dtype=np.uint16)
    written = np.zeros(indexer.size(), dtype=bool)
    blocks = [np.ascontiguousarray(boards[a : a + _RIVER_BLOCK], dtype=np.uint8)
              for a in range(0, len(boards), _RIVER_BLOCK)]  # fmt: skip
    with tqdm(total=len(boards), unit="boards", desc="ochs", disable=True if quiet else None, file=sys.stderr) as bar:
        for block, out in zip(blocks, run_blocks(ochs_task, tables, blocks, executor, clusters)):
            (b, h), hands = live_hands(block)
            at = indexer.index(hands)
            rows[at] = out[b, h]
            written[at] = True
            bar.update(len(block))
    return rows, written


def percentile_buckets(
    strength: npt.NDArray[np.integer[Any]], weights: npt.NDArray[np.integer[Any]], k: int
) -> npt.NDArray[np.uint16]:
    """Buckets by strength alone: a hand's bucket is ``k`` times the weight of the weaker hands over all, rounded down.

    >>> percentile_buckets(np.array([5, 1, 3, 3]), np.array([1, 1, 1, 1]), 2).tolist()
    [1, 0, 0, 0]
    """
    s = np.asarray(strength)
    low = int(s.min())
    if low != 0:
        s = s.astype(np.int64) - low
    # Weight by value, then each value's weight below it: memory by the values' range, not by the hands.
    by_value = np.zeros(int(s.max()) + 1)
    step = 1 << 22
    for a in range(0, len(s), step):  # float sums of ints below 2**53: exact
        by_value += np.bincount(s[a : a + step], weights=weights[a : a + step].astype(np.float64),
                                minlength=len(by_value))  # fmt: skip
    below = np.concatenate([[0.0], np.cumsum(by_value)[:-1]]).astype(np.int64)
    total = int(by_value.sum())
    return (below * k // total).astype(np.uint16)[s]


def mean_distance(
    points: npt.NDArray[np.uint16],
    weights: npt.NDArray[np.integer[Any]],
    labels: npt.NDArray[np.uint16],
    k: int,
    metric: str = "l1",
    ground: npt.NDArray[np.uint16] | None = None,
) -> float:
    """The weighted mean distance (L1, L2 not squared, or EMD over ``ground``) from each row to its bucket's center.

    The center is the weighted median under L1, the weighted mean under L2
    and the cumulative median under EMD (the clustering's own,
    :func:`twoplustwo.abstraction.kmeans.centers_of`): the same
    measure for the clustering and for any other buckets, such as the
    percentile ones.
    """
    centers = np.zeros((k, points.shape[1]), dtype=np.uint16)
    totals = np.empty(k, dtype=np.int64)
    centers_of(points, labels, weights, centers, totals, metric, ground)
    total = 0.0
    step = 1 << 18
    for a in range(0, len(points), step):
        d = row_distances(points[a : a + step], centers[labels[a : a + step]], metric, ground)
        total += float(weights[a : a + step].astype(np.float64) @ d)
    return total / float(totals.sum())


def bucket_table(
    tables: Tables,
    street: str,
    method: str,
    k: int,
    *,
    seed: int = 0,
    max_iter: int = 100,
    threads: int | None = None,
    executor: Executor | None = None,
    quiet: bool = True,
    report: Callable[[int, int, int], object] | None = None,
) -> tuple[npt.NDArray[np.uint16], dict[str, Any]]:
    """The bucket table of ``street`` by ``method`` with ``k`` buckets, and a summary of how it was made.

    The summary holds the seed, the rounds and whether they converged, the
    seconds, and ``mean_distance``, the within-bucket mean distance (in
    equity: EMD, or L2 for ``ochs``, as ``distance`` says) beside
    ``percentile_mean_distance``, that of the percentile buckets of the
    same k (methods with rows only).
    """
    bucket_role(street, method, k)
    start = time.perf_counter()
    f = features(tables, street, method, threads=threads, executor=executor, quiet=quiet, k=k)
    summary: dict[str, Any] = {"street": street, "method": method, "k": k}
    if f.points is None:
        table = percentile_buckets(f.strength, f.weights, k)
        summary["seconds"] = round(time.perf_counter() - start, 1)
        return table, summary
    c = kmeans(f.points, f.weights, k=k, metric=f.metric, seed=seed, max_iter=max_iter, strength=f.strength,
               ground=f.ground, threads=threads, executor=executor, quiet=quiet, report=report)  # fmt: skip
    baseline = percentile_buckets(f.strength, f.weights, k)
    summary.update(
        seed=seed,
        iterations=c.iterations,
        converged=c.converged,
        distance="l2" if f.metric == "l2" else "emd",
        mean_distance=mean_distance(f.points, f.weights, c.labels, k, f.metric, f.ground) / f.scale,
        percentile_mean_distance=mean_distance(f.points, f.weights, baseline, k, f.metric, f.ground) / f.scale,
    )
    if method == "potential":
        summary["turn_table"] = f"turn/emd/{k}"
    summary["seconds"] = round(time.perf_counter() - start, 1)
    return c.labels, summary


def describe_summary(summary: dict[str, Any]) -> str:
    """One line of a bucket table's summary, as the command line prints it.

    >>> describe_summary({"street": "flop", "method": "emd", "k": 200, "seconds": 140.9, "iterations": 100,
    ...     "converged": False, "distance": "emd", "mean_distance": 0.01763, "percentile_mean_distance": 0.04189})
    'flop emd k=200: mean EMD 0.01763 (percentile: 0.04189), 100 rounds (not converged), 140.9 s'
    """
    head = f"{summary['street']} {summary['method']} k={summary['k']}"
    if "mean_distance" not in summary:
        return f"{head}: {summary['seconds']} s"
    rounds = f"{summary['iterations']} rounds ({'converged' if summary['converged'] else 'not converged'})"
    return (
        f"{head}: mean {summary['distance'].upper()} {summary['mean_distance']:.5f} "
        f"(percentile: {summary['percentile_mean_distance']:.5f}), {rounds}, {summary['seconds']} s"
    )


def publish_buckets(
    target: Path,
    street: str,
    method: str,
    k: int,
    *,
    seed: int = 0,
    max_iter: int = 100,
    threads: int | None = None,
    executor: Executor | None = None,
    quiet: bool = True,
    report: Callable[[int, int, int], object] | None = None,
) -> dict[str, Any]:
    """Build one bucket table from the set at ``target`` and publish the set again with it, atomically.

    The set's other files, its strength tables and other bucket tables
    among them, are published again as they are (linked, not rewritten); a
    table of the same role is replaced. The manifest's ``buckets`` entry
    records each table's summary. Its staging directory is made first, so
    that a target it cannot write fails before any work; nothing is written
    into it until the table is whole. Returns the summary
    (:func:`bucket_table`) with the publishing time.
    """
    role = bucket_role(street, method, k)
    t = open_tables(target)
    # Staged first, so that a target it cannot write fails now, not after the clustering.
    staging = new_staging(target)
    try:
        table, summary = bucket_table(t, street, method, k, seed=seed, max_iter=max_iter, threads=threads,
                                      executor=executor, quiet=quiet, report=report)  # fmt: skip
        kept = [f for f in t.manifest["files"] if f["role"] != role]
        info = {key: v for key, v in t.manifest.items() if key not in ("format_version", "files")}
        # Summaries of tables the set no longer holds are dropped.
        held = {f["role"].removeprefix("buckets/") for f in kept if parse_bucket_role(f["role"]) is not None}
        old = info["buckets"] if isinstance(info.get("buckets"), dict) else {}
        info["buckets"] = {**{r: v for r, v in old.items() if r in held}, role.removeprefix("buckets/"): summary}
        start = time.perf_counter()
        publish(stage(target, {role: table}, info, staging, keep=kept))
    except BaseException:
        discard(staging)
        raise
    summary["publish_seconds"] = round(time.perf_counter() - start, 1)
    return summary
