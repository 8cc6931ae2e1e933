"""The bucket tables: every canonical hand of a street in one of k buckets, for solvers' card abstraction.

Each table holds one uint16 bucket per index of the street's
:class:`twoplustwo.HandIndexer` (``(2, 3)`` flop, ``(2, 4)`` turn, ``(2, 5)``
river), numbered from the weakest bucket up by the weighted mean strength
(``ehs``) of their hands. Every canonical hand weighs as many hands as it
stands for (:meth:`twoplustwo.HandIndexer.counts`), so the buckets are those
of the game as dealt. The features come from the set's strength tables:

==========  ======  ===================================================================
method      street  a hand's row, clustered by :func:`twoplustwo.abstraction.kmedians`
==========  ======  ===================================================================
emd         flop    the cumulative 50-bin histogram of its equity over the 1,081 runouts
emd         turn    its 2W + T on each of the 46 rivers, sorted
percentile  any     none: the buckets split the hands, ordered by ``ehs``, into k equal
                    weights (hands of equal ``ehs`` share a bucket)
==========  ======  ===================================================================

Between two such rows the L1 distance, divided by the row's scale, is the
earth mover's distance between the two hands' equity distributions (Johanson
et al., 2013, cluster by it; in one dimension it is this, exactly). The
summary gives every table's within-bucket mean EMD, the one to compare with
the percentile buckets of the same k.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Executor
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from twoplustwo import HandIndexer, Tables
from twoplustwo.abstraction.kmedians import kmedians
from twoplustwo.kernels.pool import resolve_threads, run
from twoplustwo.tables.format import BUCKET_STREETS, STRENGTH_BINS, bucket_role, parse_bucket_role
from twoplustwo.tables.load import open_tables

from .write import publish, stage

__all__ = [
    "Features",
    "bucket_table",
    "describe_summary",
    "features",
    "percentile_buckets",
    "publish_buckets",
    "turn_rows",
    "within_cost",
]

# Canonical turn hands whose 46 rivers are looked up at once: some 30 MB of work each.
_TURN_BLOCK = 1 << 16


class Features(NamedTuple):
    """A street's rows for clustering and what goes with them, one per canonical index.

    ``points`` are the uint16 rows, and ``scale`` turns their L1 distances
    into equity (EMD = L1 / scale); ``strength`` is each hand's ``ehs``
    numerator (all over one denominator), and ``weights`` the hands each
    index stands for.
    """

    points: npt.NDArray[np.uint16] | None
    scale: int
    strength: npt.NDArray[np.int64]
    weights: npt.NDArray[np.uint8]


def _need(tables: Tables, roles: list[str]) -> None:
    missing = [r for r in roles if r not in tables.arrays]
    if missing:
        raise ValueError(
            f"the table set at {tables.path} lacks {', '.join(missing)}: build the strength tables first "
            f"(python -m twoplustwo_builder --strength)"
        )


def features(tables: Tables, street: str, method: str, *, threads: int | None = None) -> Features:
    """The rows :func:`bucket_table` clusters for ``method`` on ``street`` (None for percentile), and the rest."""
    bucket_role(street, method, 1)  # checks the pair
    rounds = BUCKET_STREETS[street][0]
    indexer = HandIndexer(rounds)
    weights = _counts(indexer, threads)
    if street == "river":
        _need(tables, ["strength/river/wins", "strength/river/ties"])
        a = tables.arrays
        strength = 2 * a["strength/river/wins"].astype(np.int64) + a["strength/river/ties"]
        return Features(None, 1, strength, weights)
    _need(tables, [f"strength/{street}/sum"])
    strength = tables.arrays[f"strength/{street}/sum"].astype(np.int64)
    if method == "percentile":
        return Features(None, 1, strength, weights)
    if street == "flop":
        _need(tables, ["strength/flop/histogram"])
        histogram = tables.arrays["strength/flop/histogram"].reshape(-1, STRENGTH_BINS)
        # The last entry of each cumulative row is the 1,081 runouts, the same for all: left out.
        points = np.cumsum(histogram[:, :-1], axis=1, dtype=np.uint16)
        return Features(points, 1081 * STRENGTH_BINS, strength, weights)
    rows = turn_rows(tables, np.arange(indexer.size(), dtype=np.uint64), threads=threads)
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
    tables: Tables, indices: npt.NDArray[np.integer[Any]], *, threads: int | None = None
) -> npt.NDArray[np.uint16]:
    """The ``emd`` rows of turn hands by index: each hand's 2W + T on each of its 46 rivers, sorted ((N, 46) uint16).

    W and T come from the set's ``strength/river/wins`` and ``ties`` tables.
    """
    _need(tables, ["strength/river/wins", "strength/river/ties"])
    turn, river = HandIndexer((2, 4)), HandIndexer((2, 5))
    wins, ties = tables.arrays["strength/river/wins"], tables.arrays["strength/river/ties"]
    at_turn = np.asarray(indices, dtype=np.uint64)
    out = np.empty((len(at_turn), 46), dtype=np.uint16)
    deck = np.arange(52, dtype=np.uint8)

    def part(a: int) -> None:
        hands = turn.unindex(at_turn[a : a + _TURN_BLOCK])
        n = len(hands)
        free = np.ones((n, 52), dtype=bool)
        free[np.arange(n)[:, None], hands] = False
        rivers = np.broadcast_to(deck, (n, 52))[free].reshape(n, 46)
        rows = np.concatenate([np.repeat(hands, 46, axis=0), rivers.reshape(-1, 1)], axis=1)
        at = river.index(rows)
        values = 2 * wins[at].astype(np.uint16) + ties[at]
        out[a : a + n] = np.sort(values.reshape(n, 46), axis=1)

    run(resolve_threads(threads), part, range(0, len(at_turn), _TURN_BLOCK))
    return out


def percentile_buckets(
    strength: npt.NDArray[np.int64], weights: npt.NDArray[np.integer[Any]], k: int
) -> npt.NDArray[np.uint16]:
    """Buckets by strength alone: a hand's bucket is ``k`` times the weight of the weaker hands over all, rounded down.

    >>> percentile_buckets(np.array([5, 1, 3, 3]), np.array([1, 1, 1, 1]), 2).tolist()
    [1, 0, 0, 0]
    """
    order = np.argsort(strength, kind="stable")
    s = strength[order]
    cum = np.cumsum(weights[order].astype(np.int64))
    first = np.searchsorted(s, s, side="left")  # each hand's first equal in the order
    below = np.where(first > 0, cum[np.maximum(first - 1, 0)], 0)
    out = np.empty(len(s), dtype=np.uint16)
    out[order] = below * k // int(cum[-1])
    return out


def within_cost(
    points: npt.NDArray[np.uint16], weights: npt.NDArray[np.integer[Any]], labels: npt.NDArray[np.uint16], k: int
) -> int:
    """The weighted sum of L1 distances from each row to the weighted median of its bucket: the buckets' cost."""
    from twoplustwo.kernels.choice import chosen

    centers = np.zeros((k, points.shape[1]), dtype=np.uint16)
    totals = np.empty(k, dtype=np.int64)
    w = weights.astype(np.int64)
    chosen().median_rows(points, labels, w, centers, totals)
    total = 0
    for a in range(0, len(points), 1 << 18):
        rows = points[a : a + (1 << 18)].astype(np.int32)
        d = np.abs(rows - centers[labels[a : a + (1 << 18)]]).sum(axis=1, dtype=np.int64)
        total += int(w[a : a + (1 << 18)] @ d)
    return total


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
    seconds, and ``mean_emd``, the within-bucket mean earth mover's
    distance (in equity, 0..1) beside ``percentile_mean_emd``, that of the
    percentile buckets of the same k (methods with rows only).
    """
    bucket_role(street, method, k)
    start = time.perf_counter()
    f = features(tables, street, method, threads=threads)
    summary: dict[str, Any] = {"street": street, "method": method, "k": k}
    if f.points is None:
        table = percentile_buckets(f.strength, f.weights, k)
        summary["seconds"] = round(time.perf_counter() - start, 1)
        return table, summary
    c = kmedians(f.points, f.weights, k=k, seed=seed, max_iter=max_iter, strength=f.strength, threads=threads,
                 executor=executor, quiet=quiet, report=report)  # fmt: skip
    baseline = within_cost(f.points, f.weights, percentile_buckets(f.strength, f.weights, k), k)
    summary.update(
        seed=seed,
        iterations=c.iterations,
        converged=c.converged,
        seconds=round(time.perf_counter() - start, 1),
        mean_emd=c.cost / (c.weight * f.scale),
        percentile_mean_emd=baseline / (c.weight * f.scale),
    )
    return c.labels, summary


def describe_summary(summary: dict[str, Any]) -> str:
    """One line of a bucket table's summary, as the command line prints it.

    >>> describe_summary({"street": "flop", "method": "emd", "k": 200, "seconds": 140.9, "iterations": 100,
    ...                   "converged": False, "mean_emd": 0.01763, "percentile_mean_emd": 0.04189})
    'flop emd k=200: mean EMD 0.01763 (percentile: 0.04189), 100 rounds (not converged), 140.9 s'
    """
    head = f"{summary['street']} {summary['method']} k={summary['k']}"
    if "mean_emd" not in summary:
        return f"{head}: {summary['seconds']} s"
    rounds = f"{summary['iterations']} rounds ({'converged' if summary['converged'] else 'not converged'})"
    return (
        f"{head}: mean EMD {summary['mean_emd']:.5f} (percentile: {summary['percentile_mean_emd']:.5f}), "
        f"{rounds}, {summary['seconds']} s"
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
    table of the same role is replaced. The manifest's ``buckets`` entry records each table's
    summary. Nothing is written until the table is whole. Returns the
    summary (:func:`bucket_table`) with the publishing time.
    """
    role = bucket_role(street, method, k)
    t = open_tables(target)
    table, summary = bucket_table(t, street, method, k, seed=seed, max_iter=max_iter, threads=threads,
                                  executor=executor, quiet=quiet, report=report)  # fmt: skip
    kept = [f for f in t.manifest["files"] if f["role"] != role]
    info = {key: v for key, v in t.manifest.items() if key not in ("format_version", "files")}
    # Summaries of tables the set no longer holds are dropped.
    held = {f["role"].removeprefix("buckets/") for f in kept if parse_bucket_role(f["role"]) is not None}
    old = info["buckets"] if isinstance(info.get("buckets"), dict) else {}
    info["buckets"] = {**{r: v for r, v in old.items() if r in held}, role.removeprefix("buckets/"): summary}
    start = time.perf_counter()
    publish(stage(target, {role: table}, info, keep=kept))
    summary["publish_seconds"] = round(time.perf_counter() - start, 1)
    return summary
