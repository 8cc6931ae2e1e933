"""Weighted k-means of uint16 rows under L1 or L2: exact, and the same bytes on any threads or workers.

When each row is a cumulative histogram (or a sorted sample) of a hand's
equity, the L1 distance between two rows is the earth mover's distance
between the two distributions, in one dimension exactly. The clustering
alternates two steps (:mod:`twoplustwo.kernels.numpy.cluster`, in C when it is
built): every row to its nearest center, then every center to the point
nearest in sum to its rows. Under L1 that is their weighted median, entry
by entry (k-medians), and the cost never rises from one round to the next;
under L2 (``metric="l2"``, squared distances) it is their weighted mean,
rounded to the nearest integer. Under ``metric="emd"`` each row is a
histogram over the rows of ``ground`` (equal masses: counts of turn cards
by turn bucket, for potential-aware flop buckets), and the distance is the
earth mover's distance whose ground distance is L1 between ground rows,
solved exactly per pair (``transport_rows``). Its centers are the weighted
medians of the rows' cumulative counts, with the ground points in the order
of their rows' sums: where the ground points lie on a line (rows that
dominate one another, as sorted equity rows mostly do), that is exactly the
center of least EMD in sum, and elsewhere it stands in for it, so the cost
may rise a little from a round to the next. All arithmetic is on integers,
so nothing depends on how the rows are split.

The clustering sees only the distinct rows with their summed weights, in
sorted order: so the answer depends on the rows and weights alone, not on
their order, and repeated rows cost nothing. The first centers are drawn by
k-means++ (each next one a row drawn with chance proportional to its weight
times its distance to the nearest center so far) from a generator seeded
with ``seed``.

>>> rows = np.array([[0, 1], [0, 2], [9, 9], [8, 9], [0, 1]], dtype=np.uint16)
>>> c = kmeans(rows, k=2, seed=1)
>>> c.labels.tolist(), c.centers.tolist(), c.cost
([0, 0, 1, 1, 0], [[0, 1], [8, 9]], 2)
>>> kmeans(rows, k=2, seed=1, metric="l2").centers.tolist()  # means: (8 + 9) / 2 rounds half up
[[0, 1], [9, 9]]
>>> ground = np.array([[0], [1], [10]], dtype=np.uint16)  # three points on a line
>>> hist = np.array([[2, 0, 0], [1, 1, 0], [0, 0, 2], [0, 1, 1]], dtype=np.uint16)
>>> c = kmeans(hist, k=2, metric="emd", ground=ground)
>>> c.labels.tolist(), c.centers.tolist(), c.cost
([1, 1, 0, 0], [[0, 0, 2], [1, 1, 0]], 10)
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from twoplustwo.abstraction.distance import METRICS, check_ground, halves, metric_code, nearest, row_distances
from twoplustwo.abstraction.rows import check_mass, check_points, describe, distinct_rows, sum_by
from twoplustwo.kernels.choice import chosen
from twoplustwo.progress import progress
from twoplustwo.vocab.inputs import is_int, refuse_masked

# nearest, row_distances and METRICS live in distance.py (the assignment step) and are this module's API too.
__all__ = ["METRICS", "Clustering", "centers_of", "kmeans", "nearest", "row_distances"]


@dataclass(frozen=True)
class Clustering:
    """The result of :func:`kmeans`.

    ``labels`` holds each row's cluster (uint16, in the rows' order) and
    ``centers`` the ``(k, d)`` centers, ordered as :func:`kmeans` says;
    ``cost`` is the sum over rows of weight times distance to the row's
    center (L1, or squared L2), and ``weight`` the sum of the weights, so
    ``cost / weight`` is the mean distance. ``iterations`` counts the
    assignment rounds, and ``converged`` says whether the last one moved no
    row.
    """

    labels: npt.NDArray[np.uint16]
    centers: npt.NDArray[np.uint16]
    cost: int
    weight: int
    iterations: int
    converged: bool


def kmeans(
    points: npt.NDArray[np.uint16],
    weights: npt.NDArray[np.integer[Any]] | None = None,
    *,
    k: int,
    metric: str = "l1",
    seed: int = 0,
    max_iter: int = 100,
    strength: npt.NDArray[np.integer[Any]] | None = None,
    ground: npt.NDArray[np.uint16] | None = None,
    threads: int | None = None,
    executor: Executor | None = None,
    quiet: bool = False,
    report: Callable[[int, int, int], object] | None = None,
) -> Clustering:
    """Cluster the ``(N, d)`` uint16 ``points`` into ``k`` clusters, minimising the weighted sum of distances.

    ``metric`` is ``"l1"`` (centers are weighted medians), ``"l2"``
    (squared distances; centers are weighted means, rounded) or ``"emd"``
    (rows are histograms of equal mass over the ``(K, d)`` uint16 rows of
    ``ground``, at most 65,535 each; centers are cumulative medians). ``weights``
    (non-negative ints, default 1 each) count each row that many times.
    Under L1 the result is a local optimum: no row is nearer another
    center, and no center can move nearer in sum to its rows. It stops when
    a round moves no row or after ``max_iter`` rounds.

    Clusters are numbered by their rows' weighted mean ``strength`` (one int
    per row), weakest first, when it is given, and else by their centers in
    sorted order. ``k`` must not exceed the number of distinct rows of
    positive weight. ``report(round, moved_rows, cost)`` is called after each
    round; with ``quiet`` False a bar shows each round's progress on a
    terminal.

    >>> rows = np.array([[0], [1], [2], [10], [11], [30]], dtype=np.uint16)
    >>> kmeans(rows, k=3, strength=-rows[:, 0].astype(np.int64)).labels.tolist()
    [2, 2, 2, 1, 1, 0]
    """
    pts, w, total = check_points(points, weights, k)
    k = operator.index(k)
    code = metric_code(metric)
    if code == 3:
        # A private copy of the ground points (at most 2,048 rows): every distance reads the same.
        ground = np.array(check_ground(pts, ground))
    if not is_int(max_iter) or max_iter < 1:
        raise ValueError(f"max_iter must be an int of at least 1, got {max_iter!r}")
    if not is_int(seed) or seed < 0:
        raise ValueError(f"seed must be an int of at least 0, got {seed!r}")
    max_iter, seed = int(max_iter), int(seed)
    refuse_masked(strength, "strength")
    if strength is not None:
        if not isinstance(strength, np.ndarray) or strength.dtype.kind not in "iu" or strength.shape != (len(pts),):
            got = describe(strength)
            raise TypeError(f"strength must be None or an integer array of {len(pts)} entries, got {got}")
    seen = w > 0
    everywhere = bool(seen.all())
    # The caller's points are read here, once each (the distinct rows are a copy), and for the rows of weight 0
    # once more, into ``rest``; all else reads those copies.
    distinct, inverse = distinct_rows(pts if everywhere else pts[seen])
    rest = None if everywhere else pts[~seen]
    if code == 3:
        check_mass(distinct, inverse, None if everywhere else seen, rest)
    w_seen = w if everywhere else w[seen]
    mass = sum_by(inverse, w_seen, len(distinct), total)
    if k > len(distinct):
        raise ValueError(f"k = {k} exceeds the {len(distinct)} distinct rows of positive weight")
    if code != 1 and total * 65535 >= 1 << 53:
        raise ValueError(f"under {metric} the weights must sum below 2**53 / 65535, for exact sums of rows")
    on: dict[str, Any] = {"metric": metric, "threads": threads, "executor": executor, "ground": ground}
    centers = _seed(distinct, mass, k, np.random.default_rng(seed), on, quiet)
    labels = np.full(len(distinct), 0xFFFF, dtype=np.uint16)
    totals = np.empty(k, dtype=np.int64)
    # Hamerly's bounds: no row is skipped in the first round (its labels are none).
    bounds = (np.zeros(len(distinct)), np.zeros(k), np.zeros(k))
    converged, rounds, cost = False, 0, 0
    while rounds < max_iter:
        with progress(len(distinct), "rows", desc=f"round {rounds + 1}", quiet=quiet) as update:
            new, dists = nearest(distinct, centers, labels, update=update, bounds=bounds, **on)
        moved = int(np.count_nonzero(new != labels))
        labels = new
        rounds += 1
        cost = _weighted_sum(mass, dists)
        if report is not None:
            report(rounds, moved, cost)
        if moved == 0:
            converged = True
            break
        before = centers.copy()
        centers_of(distinct, labels, mass, centers, totals, metric, ground)
        bounds[0][_refill(distinct, labels, dists, totals, centers)] = 0  # rows moved onto a center: measured again
        bounds = (bounds[0], row_distances(before, centers, metric, ground), halves(centers, metric, ground))
    order = _order(centers, labels, mass, inverse, w_seen, total,
                   None if strength is None else strength if everywhere else strength[seen])  # fmt: skip
    rank = np.empty(k, dtype=np.uint16)
    rank[order] = np.arange(k, dtype=np.uint16)
    out = np.zeros(len(pts), dtype=np.uint16)
    if everywhere:
        out[:] = rank[labels][inverse]
    else:
        out[seen] = rank[labels][inverse]
    if rest is not None:  # rows of weight 0 go to their nearest center too
        out[~seen] = rank[nearest(rest, centers, metric=metric, threads=threads, ground=ground)[0]]
    return Clustering(out, centers[order], cost, int(mass.sum()), rounds, converged)


def centers_of(
    rows: npt.NDArray[np.uint16],
    labels: npt.NDArray[np.uint16],
    weights: npt.NDArray[np.integer[Any]],
    centers: npt.NDArray[np.uint16],
    totals: npt.NDArray[np.int64],
    metric: str = "l1",
    ground: npt.NDArray[np.uint16] | None = None,
) -> None:
    """Each cluster's weight into ``totals`` and, where it is positive, its best center into ``centers``.

    Under L1 the weighted median of its rows (the kernels' ``median_rows``);
    under L2 their weighted mean rounded half up, computed exactly (sums
    below 2**53); under EMD over ``ground`` the histogram whose cumulative
    counts are the weighted medians of the rows' cumulative counts, the
    ground points taken in the order of their rows' sums (the first among
    equal sums first). Empty clusters keep their centers.

    >>> rows = np.array([[0], [1], [9]], dtype=np.uint16); centers = np.zeros((1, 1), dtype=np.uint16)
    >>> totals = np.empty(1, dtype=np.int64); w = np.ones(3, dtype=np.int64)
    >>> centers_of(rows, np.zeros(3, dtype=np.uint16), w, centers, totals, "l2"); centers.tolist(), totals.tolist()
    ([[3]], [3])
    """
    code = metric_code(metric)
    if code == 1:
        chosen().median_rows(rows, labels, weights.astype(np.int64, copy=False), centers, totals)
        return
    if code == 3:
        ground = check_ground(rows, ground)
        # Medians of non-decreasing rows are non-decreasing, and all end at the mass: the differences are a histogram.
        order = np.argsort(ground.astype(np.int64).sum(axis=1), kind="stable")
        cumulative = np.ascontiguousarray(np.cumsum(rows[:, order], axis=1, dtype=np.uint16))
        at = np.ascontiguousarray(np.cumsum(centers[:, order], axis=1, dtype=np.uint16))
        chosen().median_rows(cumulative, labels, weights.astype(np.int64, copy=False), at, totals)
        centers[:, order] = np.diff(at, axis=1, prepend=np.uint16(0))
        return
    k, d = centers.shape
    if int(weights.sum(dtype=np.int64)) * 65535 >= 1 << 53:
        raise ValueError(f"under {metric} the weights must sum below 2**53 / 65535, for exact sums of rows")
    # Float sums of integers below 2**53 are exact in any order: bincount a block of rows at a time.
    sums, weight = np.zeros((k, d)), np.zeros(k)
    step = 1 << 22
    for a in range(0, len(rows), step):
        lab, w = labels[a : a + step], weights[a : a + step].astype(np.float64)
        weight += np.bincount(lab, weights=w, minlength=k)
        for j in range(d):
            sums[:, j] += np.bincount(lab, weights=w * rows[a : a + step, j], minlength=k)
    totals[:] = weight.astype(np.int64)
    full = totals > 0
    exact = sums[full].astype(np.int64)
    centers[full] = (2 * exact + totals[full, None]) // (2 * totals[full, None])


def _weighted_sum(weights: npt.NDArray[np.int64], dists: npt.NDArray[np.uint64]) -> int:
    """Σ weight x distance as a Python int: in int64 pieces small enough not to overflow."""
    top = max(1, int(dists.max()) if len(dists) else 1) * max(1, int(weights.max()) if len(weights) else 1)
    step = max(1, (1 << 62) // top)
    return sum(int(weights[a : a + step] @ dists[a : a + step].astype(np.int64)) for a in range(0, len(dists), step))


def _seed(
    rows: npt.NDArray[np.uint16],
    mass: npt.NDArray[np.int64],
    k: int,
    rng: np.random.Generator,
    on: dict[str, Any],
    quiet: bool,
) -> npt.NDArray[np.uint16]:
    """k-means++: each next center a row drawn with chance proportional to weight times distance (squared, for L2).

    Under EMD the distance is the kernel's first lower bound, the L1
    distance between the rows' mass-weighted sums of ground rows: exact
    EMDs from every row to every new center would take minutes on the flop.
    """
    at: npt.NDArray[np.float64] | None = None
    if on["metric"] == "emd":
        at = rows.astype(np.float64) @ on["ground"].astype(np.float64)  # sums of ints below 2**53: exact

    def to(i: int) -> npt.NDArray[np.uint64]:
        if at is None:
            return nearest(rows, rows[i : i + 1], **on)[1]
        bound: npt.NDArray[np.uint64] = np.abs(at - at[i]).sum(axis=1).astype(np.uint64)
        return bound

    centers = np.empty((k, rows.shape[1]), dtype=np.uint16)
    taken = np.zeros(len(rows), dtype=bool)
    drawn = _draw(mass, rng)
    centers[0], taken[drawn] = rows[drawn], True
    best = to(drawn)
    with progress(k, "centers", desc="seeding", quiet=quiet) as update:
        update(1)
        for c in range(1, k):
            # Rows already chosen are at distance 0, so each draw is a new distinct row. Under EMD every row
            # left may be at bound 0: then one not yet chosen is drawn by weight.
            drawn = _draw(mass, rng, best if best.any() else (~taken).astype(np.uint64))
            centers[c], taken[drawn] = rows[drawn], True
            np.minimum(best, to(drawn), out=best)
            update(1)
    return centers


def _draw(
    weights: npt.NDArray[np.int64], rng: np.random.Generator, dists: npt.NDArray[np.uint64] | None = None
) -> int:
    """A row drawn with chance proportional to its weight (times its distance): in integers where they fit."""
    if dists is None:
        step = weights
    elif int(dists.max()) * int(weights.max()) * len(weights) < 1 << 62:
        step = weights * dists.astype(np.int64)
    else:  # too large for int64 sums: floats, the same on every run all the same
        chance = np.cumsum(weights * dists.astype(np.float64))
        return int(np.searchsorted(chance, rng.random() * chance[-1], side="right"))
    cumulative = np.cumsum(step)
    return int(np.searchsorted(cumulative, rng.integers(int(cumulative[-1])), side="right"))


def _refill(
    rows: npt.NDArray[np.uint16],
    labels: npt.NDArray[np.uint16],
    dists: npt.NDArray[np.uint64],
    totals: npt.NDArray[np.int64],
    centers: npt.NDArray[np.uint16],
) -> list[int]:
    """Move each empty cluster's center onto the row farthest from its own (the first among equals).

    Returns the rows moved, which now sit on their new centers.
    """
    far = dists.astype(np.int64)
    moved: list[int] = []
    for c in np.flatnonzero(totals == 0):
        i = int(np.argmax(far))
        if far[i] == 0:
            break  # every row sits on a center: nothing better to move to
        centers[c] = rows[i]
        labels[i] = c
        far[i] = 0
        moved.append(i)
    return moved


def _order(
    centers: npt.NDArray[np.uint16],
    labels: npt.NDArray[np.uint16],
    mass: npt.NDArray[np.int64],
    inverse: npt.NDArray[np.integer[Any]],
    weights: npt.NDArray[np.integer[Any]],
    total: int,
    strength: npt.NDArray[np.integer[Any]] | None,
) -> npt.NDArray[np.intp]:
    """The clusters in their final order: by the weighted mean strength of their rows, else by center.

    ``labels`` and ``mass`` are the distinct rows'; ``inverse``, ``weights``
    and ``strength`` the raw rows' of positive weight. Means are compared
    as exact fractions, equal ones by center.
    """
    by_center: npt.NDArray[np.intp] = np.lexsort(centers.T[::-1])
    if strength is None:
        return by_center
    from fractions import Fraction

    k = len(centers)
    # Per distinct row, then per cluster: the sums of weight x strength, and the weights. ``strength`` may be the
    # caller's (a copy of the river's would be 250 MB): each block is read once, into a copy that is bounded and
    # summed, so that no value written meanwhile escapes the bound that keeps the sums exact.
    step, by_row, top = 1 << 22, np.zeros(len(mass), dtype=np.int64), 0
    for a in range(0, len(inverse), step):
        block = np.array(strength[a : a + step])
        top = max(top, abs(int(block.max())), abs(int(block.min())))
        if top * total >= 1 << 62:
            raise ValueError("strength times weight must stay below 2**62 in sum")
        part = block.astype(np.int64) * weights[a : a + step]
        by_row += sum_by(inverse[a : a + step], part, len(mass), top * total)
    num = sum_by(labels, by_row, k, top * total)
    den = sum_by(labels, mass, k, total)
    place = np.empty(k, dtype=np.intp)
    place[by_center] = np.arange(k)
    key = [(Fraction(int(num[c]), int(den[c])) if den[c] else Fraction(0), int(place[c])) for c in range(k)]
    return np.array(sorted(range(k), key=lambda c: key[c]), dtype=np.intp)
