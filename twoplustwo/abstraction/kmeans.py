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
import threading
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from twoplustwo.kernels.choice import chosen
from twoplustwo.kernels.pool import resolve_threads, run
from twoplustwo.progress import progress
from twoplustwo.vocab.inputs import check_int, is_int, refuse_masked

__all__ = ["METRICS", "Clustering", "centers_of", "kmeans", "nearest", "row_distances"]

#: The metrics, by name: the kernels' codes (``emd`` is ``transport_rows``'s).
METRICS = {"l1": 1, "l2": 2, "emd": 3}

# Rows per call of the kernel: a few milliseconds, so that Ctrl-C and a stop are prompt.
_STEP = 1 << 13
# Rows per task on an executor.
_TASK = 1 << 18


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


def nearest(
    points: npt.NDArray[np.uint16],
    centers: npt.NDArray[np.uint16],
    hints: npt.NDArray[np.uint16] | None = None,
    *,
    metric: str = "l1",
    threads: int | None = None,
    executor: Executor | None = None,
    update: Callable[[int], object] | None = None,
    bounds: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]] | None = None,
    ground: npt.NDArray[np.uint16] | None = None,
) -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.uint64]]:
    """Each row's nearest center (the lowest index among equals) and its distance: L1, squared L2, or EMD.

    ``hints``, a guess of each row's nearest center (its last one), only
    makes the search faster. So do ``bounds``, ``(lower, drift, half)`` as
    the kernels' ``assign_rows`` takes them, with ``hints`` last round's
    labels: ``lower`` is updated in place. With ``executor`` the rows go
    out in blocks as its tasks; otherwise they are split over ``threads``
    threads. ``update(rows)`` is told of the rows done as they are. Under
    ``"emd"``, ``ground`` holds the ground points' rows.

    >>> nearest(np.array([[1, 1], [5, 5]], dtype=np.uint16), np.array([[0, 0], [4, 6]], dtype=np.uint16))
    (array([0, 1], dtype=uint16), array([2, 2], dtype=uint64))
    """
    code = _metric(metric)
    if code == 3:
        _check_ground(points, ground)
    n = len(points)
    labels = np.full(n, 0xFFFF, dtype=np.uint16) if hints is None else np.array(hints, dtype=np.uint16)
    dists = np.empty(n, dtype=np.uint64)
    if executor is not None:
        starts = list(range(0, n, _TASK))
        futures = [
            executor.submit(_nearest_task, points[a : a + _TASK], centers, labels[a : a + _TASK], metric,
                            None if bounds is None else (bounds[0][a : a + _TASK], bounds[1], bounds[2]), ground)
            for a in starts
        ]  # fmt: skip
        try:
            for a, f in zip(starts, futures):
                labels[a : a + _TASK], dists[a : a + _TASK], lower = f.result()
                if bounds is not None:
                    bounds[0][a : a + _TASK] = lower
                if update is not None:
                    update(len(labels[a : a + _TASK]))
        finally:
            for f in futures:
                f.cancel()
        return labels, dists
    step = _STEP if code != 3 else _STEP // 16  # an EMD is some thousand times an L1 distance
    workers = min(resolve_threads(threads), max(1, n // step))
    # One row alone may cost a second of EMDs (K = k = 2,048), so rows do not bound a call's work: the EMD
    # kernel looks between its steps for Ctrl-C, and for this stop's byte (another part failed or was interrupted).
    stop = _Stop()
    backend = chosen()
    if code == 3 and bounds is None:  # zero bounds skip no row
        bounds = (np.zeros(n), np.zeros(len(centers)), np.zeros(len(centers)))

    def part(i: int) -> None:
        a, b = n * i // workers, n * (i + 1) // workers
        for lo in range(a, b, step):
            if stop.is_set():
                return
            hi = min(lo + step, b)
            if code == 3:
                assert bounds is not None and ground is not None
                backend.transport_rows(points[lo:hi], centers, ground, labels[lo:hi], dists[lo:hi], bounds[0][lo:hi],
                                       bounds[1], bounds[2], stop.byte)  # fmt: skip
            elif bounds is None:
                backend.nearest_rows(points[lo:hi], centers, labels[lo:hi], dists[lo:hi], code)
            else:
                lower, drift, half = bounds
                backend.assign_rows(points[lo:hi], centers, labels[lo:hi], dists[lo:hi], lower[lo:hi], drift, half,
                                    code)  # fmt: skip
            if update is not None:
                update(hi - lo)

    run(workers, part, range(workers), stop=stop)
    return labels, dists


class _Stop(threading.Event):
    """The stop of :func:`nearest`'s parts, with a byte the EMD kernel reads inside a call: set() sets both."""

    def __init__(self) -> None:
        super().__init__()
        self.byte = np.zeros(1, dtype=np.uint8)

    def set(self) -> None:
        self.byte[0] = 1
        super().set()


def _nearest_task(
    points: npt.NDArray[np.uint16],
    centers: npt.NDArray[np.uint16],
    hints: npt.NDArray[np.uint16],
    metric: str,
    bounds: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]] | None,
    ground: npt.NDArray[np.uint16] | None = None,
) -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.uint64], npt.NDArray[np.float64] | None]:
    """One executor task of :func:`nearest`: a block of rows, on one thread of its worker."""
    if bounds is not None:
        bounds = (bounds[0].copy(), bounds[1], bounds[2])  # the block's own, to send back
    labels, dists = nearest(points, centers, hints, metric=metric, threads=1, bounds=bounds, ground=ground)
    return labels, dists, None if bounds is None else bounds[0]


def _metric(metric: object) -> int:
    if not isinstance(metric, str) or metric not in METRICS:
        raise ValueError(f"metric must be one of {', '.join(map(repr, METRICS))}, got {metric!r}")
    return METRICS[metric]


def _check_ground(points: npt.NDArray[np.uint16], ground: Any) -> npt.NDArray[np.uint16]:
    """``ground``, checked to be uint16 rows, one for each entry of a point."""
    if not isinstance(ground, np.ndarray) or ground.dtype != np.uint16 or ground.ndim != 2:
        raise TypeError(f"under metric 'emd', ground must be a (K, d) uint16 array, got {_describe(ground)}")
    if len(ground) != points.shape[1] or not 1 <= len(ground) <= 2048 or not 1 <= ground.shape[1] <= 65536:
        raise ValueError(
            f"ground must hold one row for each of the {points.shape[1]} entries of a point (at most 2,048) "
            f"of 1 to 65,536 values, got shape {ground.shape}"
        )
    return ground


def _check(points: Any, weights: Any, k: Any) -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.integer[Any]], int]:
    """The points (as given: no copy of millions of rows), the weights (a private copy) and their sum, checked."""
    refuse_masked(points, "points")
    refuse_masked(weights, "weights")
    if not isinstance(points, np.ndarray) or points.dtype != np.uint16 or points.ndim != 2:
        raise TypeError(f"points must be an (N, d) uint16 array, got {_describe(points)}")
    if points.shape[1] < 1 or len(points) < 1:
        raise ValueError(f"points must hold at least one row of at least one value, got shape {points.shape}")
    if weights is None:
        w: npt.NDArray[np.integer[Any]] = np.ones(len(points), dtype=np.uint8)
        total = len(points)
    else:
        if not isinstance(weights, np.ndarray) or weights.dtype.kind not in "iu" or weights.shape != (len(points),):
            got = _describe(weights)
            raise TypeError(f"weights must be None or an integer array of {len(points)} entries, got {got}")
        # Read once, in its own dtype (a byte a row, for counts): checked and summed as used.
        w = np.array(weights)
        if (w < 0).any():
            raise ValueError(f"weights must be at least 0: row {int(np.argmax(w < 0))} has a negative weight")
        top = int(w.max())
        # In int64 when no sum can overflow it, else as Python ints.
        total = int(w.sum(dtype=np.int64)) if top * len(w) < 1 << 62 else sum(w.tolist())
        if total >= 1 << 62:
            raise ValueError("weights must sum below 2**62")
        if total == 0:
            raise ValueError("weights must not all be 0")
    n = check_int(k, "k")
    if not 1 <= n <= 65536:
        raise ValueError(f"k must be from 1 to 65536, got {n}")
    return np.ascontiguousarray(points), w, total


def _check_mass(
    distinct: npt.NDArray[np.uint16],
    inverse: npt.NDArray[np.integer[Any]],
    seen: npt.NDArray[np.bool_] | None,
    rest: npt.NDArray[np.uint16] | None,
) -> None:
    """Under EMD every row must hold the same mass, at most 65,535: checked on the rows as read once.

    ``distinct`` and ``inverse`` are the rows of positive weight (``seen``, or
    all of them for None), and ``rest`` the rows of weight 0, read once.
    """
    held = distinct.sum(axis=1, dtype=np.int64)
    left = np.zeros(0, dtype=np.int64) if rest is None else rest.sum(axis=1, dtype=np.int64)
    if seen is None or seen[0]:
        first = int(held[inverse[0]])
    else:
        first = int(left[0])
    if (held != first).any() or (left != first).any():
        by_row = np.empty(len(inverse) + len(left), dtype=np.int64)  # only on the way to the error
        if seen is None:
            by_row[:] = held[inverse]
        else:
            by_row[seen], by_row[~seen] = held[inverse], left
        i = int(np.argmax(by_row != first))
        raise ValueError(f"under metric 'emd' every row must hold the same mass: row {i} holds {by_row[i]}, "
                         f"row 0 holds {first}")  # fmt: skip
    if first > 65535:
        raise ValueError(f"under metric 'emd' the rows' mass must be at most 65,535, got {first}")


def _sum_by(
    index: npt.NDArray[np.integer[Any]], values: npt.NDArray[Any], length: int, bound: int
) -> npt.NDArray[np.int64]:
    """``out[i]`` = the sum of ``values`` where ``index`` is ``i``, exactly, given sums below ``bound``.

    Float sums of integers below 2**53 are exact in any order, so bincount
    (fast) does it a block at a time; larger sums go through int64.
    """
    if bound < 1 << 53:
        out = np.zeros(length)
        step = 1 << 22
        for a in range(0, len(index), step):
            out += np.bincount(index[a : a + step], weights=values[a : a + step].astype(np.float64), minlength=length)
        return out.astype(np.int64)
    exact = np.zeros(length, dtype=np.int64)
    np.add.at(exact, index, values.astype(np.int64))
    return exact


def _describe(a: Any) -> str:
    return f"a {a.ndim}-D {a.dtype} array" if isinstance(a, np.ndarray) else type(a).__name__


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
    pts, w, total = _check(points, weights, k)
    k = operator.index(k)
    code = _metric(metric)
    if code == 3:
        # A private copy of the ground points (at most 2,048 rows): every distance reads the same.
        ground = np.array(_check_ground(pts, ground))
    if not is_int(max_iter) or max_iter < 1:
        raise ValueError(f"max_iter must be an int of at least 1, got {max_iter!r}")
    if not is_int(seed) or seed < 0:
        raise ValueError(f"seed must be an int of at least 0, got {seed!r}")
    max_iter, seed = int(max_iter), int(seed)
    refuse_masked(strength, "strength")
    if strength is not None:
        if not isinstance(strength, np.ndarray) or strength.dtype.kind not in "iu" or strength.shape != (len(pts),):
            got = _describe(strength)
            raise TypeError(f"strength must be None or an integer array of {len(pts)} entries, got {got}")
    seen = w > 0
    everywhere = bool(seen.all())
    # The caller's points are read here, once each (the distinct rows are a copy), and for the rows of weight 0
    # once more, into ``rest``; all else reads those copies.
    distinct, inverse = _distinct(pts if everywhere else pts[seen])
    rest = None if everywhere else pts[~seen]
    if code == 3:
        _check_mass(distinct, inverse, None if everywhere else seen, rest)
    w_seen = w if everywhere else w[seen]
    mass = _sum_by(inverse, w_seen, len(distinct), total)
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
        bounds = (bounds[0], row_distances(before, centers, metric, ground), _halves(centers, metric, ground))
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
    code = _metric(metric)
    if code == 1:
        chosen().median_rows(rows, labels, weights.astype(np.int64, copy=False), centers, totals)
        return
    if code == 3:
        ground = _check_ground(rows, ground)
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


def row_distances(
    a: npt.NDArray[np.uint16],
    b: npt.NDArray[np.uint16],
    metric: str = "l1",
    ground: npt.NDArray[np.uint16] | None = None,
) -> npt.NDArray[np.float64]:
    """The true distance (L1, L2 not squared, or EMD over ``ground``) between each row of ``a`` and that of ``b``.

    >>> row_distances(np.array([[0, 0], [1, 1]], dtype=np.uint16), np.array([[3, 4], [1, 1]], dtype=np.uint16), "l2")
    array([5., 0.])
    """
    code = _metric(metric)
    if code == 3:  # by distinct row of b: one search against one center each
        emd = np.empty(len(a))
        distinct, inverse = _distinct(b)
        order = np.argsort(inverse, kind="stable")
        starts = np.searchsorted(inverse[order], np.arange(len(distinct) + 1))
        for j in range(len(distinct)):
            at = order[starts[j] : starts[j + 1]]
            emd[at] = nearest(a[at], distinct[j : j + 1], metric="emd", ground=ground)[1]
        return emd
    diff = a.astype(np.int64) - b.astype(np.int64)
    sums = (np.abs(diff) if code == 1 else diff * diff).sum(axis=1).astype(np.float64)
    out: npt.NDArray[np.float64] = sums if code == 1 else np.sqrt(sums)
    return out


def _halves(
    centers: npt.NDArray[np.uint16], metric: str, ground: npt.NDArray[np.uint16] | None
) -> npt.NDArray[np.float64]:
    """Half the true distance from each center to its nearest other (0 for more than 4,096 centers: no bound)."""
    k, code = len(centers), _metric(metric)
    if k == 1 or k > 4096:
        return np.zeros(k)
    labels, dists = np.empty(k, dtype=np.uint16), np.empty(k, dtype=np.uint64)
    nearest_to = np.empty(k)
    for c in range(k):  # each center against the others, by the kernel
        others = np.delete(centers, c, axis=0)
        labels[c : c + 1], dists[c : c + 1] = nearest(centers[c : c + 1], others, metric=metric, threads=1,
                                                      ground=ground)  # fmt: skip
        nearest_to[c] = float(np.sqrt(float(dists[c]))) if code == 2 else float(dists[c])
    return nearest_to / 2


def _weighted_sum(weights: npt.NDArray[np.int64], dists: npt.NDArray[np.uint64]) -> int:
    """Σ weight x distance as a Python int: in int64 pieces small enough not to overflow."""
    top = max(1, int(dists.max()) if len(dists) else 1) * max(1, int(weights.max()) if len(weights) else 1)
    step = max(1, (1 << 62) // top)
    return sum(int(weights[a : a + step] @ dists[a : a + step].astype(np.int64)) for a in range(0, len(dists), step))


def _hashes(rows: npt.NDArray[np.uint16]) -> npt.NDArray[np.uint64]:
    """A 64-bit hash of each row, a block of rows at a time."""
    factors = np.random.default_rng(0x5EED).integers(1, 1 << 63, rows.shape[1], dtype=np.uint64) | np.uint64(1)
    h = np.zeros(len(rows), dtype=np.uint64)
    step = 1 << 20
    for a in range(0, len(rows), step):
        block = rows[a : a + step].astype(np.uint64)
        block *= factors
        part = block.sum(axis=1, dtype=np.uint64)
        part ^= part >> np.uint64(29)  # the low bits of a sum of products mix poorly: fold the high ones in
        h[a : a + step] = part
    return h


def _distinct(
    rows: npt.NDArray[np.uint16], private: bool = False
) -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.integer[Any]]]:
    """The distinct rows, in an order that depends on their contents alone, and each row's place among them.

    Rows are sorted by a 64-bit hash of their values, and rows of equal hash
    are checked to be equal; were two different rows ever to share a hash,
    the rows are sorted by their values instead (``np.unique``, several
    times slower on millions of rows). Places are int32 below 2**31 rows:
    memory, on the river's 123 million.

    ``rows`` may be the caller's (not ``private``), read three times: hashed,
    copied where a row stands for others, compared with that copy. The
    copies are checked against their hashes too, so that a row another
    thread changed meanwhile is seen, and then the work is done again on a
    private copy of the rows: the answer is always that of rows that were.
    """
    n = len(rows)
    h = _hashes(rows)
    order = np.argsort(h, kind="stable")
    h = h[order]
    new = np.empty(n, dtype=bool)
    new[0] = True
    np.not_equal(h[1:], h[:-1], out=new[1:])
    small = np.int32 if n < 1 << 31 else np.int64
    group = np.cumsum(new, dtype=small)
    group -= 1
    at = np.flatnonzero(new)
    first, hashed = order[at], h[at]
    del h, new, at
    distinct = rows[first]
    same = bool((_hashes(distinct) == hashed).all())
    check = 1 << 16
    for a in range(0, n, check):
        if not same:
            break
        same = bool((rows[order[a : a + check]] == distinct[group[a : a + check]]).all())
    if not same and not private:
        return _distinct(np.array(rows), private=True)
    if not same:  # two different rows of one hash
        distinct, inverse = np.unique(rows, axis=0, return_inverse=True)
        return distinct, inverse.reshape(-1).astype(np.intp)
    inverse = np.empty(n, dtype=small)
    inverse[order] = group
    return distinct, inverse


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
        by_row += _sum_by(inverse[a : a + step], part, len(mass), top * total)
    num = _sum_by(labels, by_row, k, top * total)
    den = _sum_by(labels, mass, k, total)
    place = np.empty(k, dtype=np.intp)
    place[by_center] = np.arange(k)
    key = [(Fraction(int(num[c]), int(den[c])) if den[c] else Fraction(0), int(place[c])) for c in range(k)]
    return np.array(sorted(range(k), key=lambda c: key[c]), dtype=np.intp)
