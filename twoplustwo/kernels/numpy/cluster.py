"""The steps of k-means on uint16 rows, in numpy: the twins of ``kernels/c/cluster.c``.

Points are rows of uint16. With points that are cumulative histograms or
sorted samples, L1 is the earth mover's distance in one dimension. Both
steps are exact in integers, so any split of the rows gives the same bytes.

- :func:`nearest_rows`: each point's nearest center under L1 (metric 1) or
  squared L2 (metric 2), the lowest index among equals, and its distance;
- :func:`assign_rows`: the same with bounds that let the C twin skip rows
  whose label cannot change (Hamerly's); here every row is measured;
- :func:`median_rows`: each cluster's total weight and weighted median, per
  dimension the smallest value at which the weight so far reaches half the
  cluster's total. It minimises the weighted L1 distance to the cluster.
- the earth mover's distance over ground points, for potential-aware
  buckets, is :mod:`twoplustwo.kernels.numpy.transport`'s (``transport.c``).

>>> points = np.array([[0, 0], [1, 4], [9, 9], [8, 7]], dtype=np.uint16)
>>> labels = np.empty(4, dtype=np.uint16); dists = np.empty(4, dtype=np.uint64)
>>> nearest_rows(points, points[[0, 2]], labels, dists, 1)
>>> labels.tolist(), dists.tolist()
([0, 0, 1, 1], [0, 5, 0, 3])
>>> nearest_rows(points, points[[0, 2]], labels, dists, 2)
>>> dists.tolist()
[0, 17, 0, 5]
>>> centers = np.zeros((2, 2), dtype=np.uint16); totals = np.empty(2, dtype=np.int64)
>>> median_rows(points, labels, np.array([1, 3, 1, 1]), centers, totals)
>>> centers.tolist(), totals.tolist()
([[1, 4], [8, 7]], [4, 2])
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from twoplustwo.kernels.numpy.args import array

__all__ = ["assign_rows", "median_rows", "nearest_rows"]

_NEAREST = (
    "nearest_rows takes (N, d) uint16 points, (k, d) uint16 centers with 1 <= k <= 65536 and d <= 65536, "
    "a uint16 out of N labels, a uint64 out of N distances and the metric, 1 (L1) or 2 (squared L2)"
)
_MEDIAN = (
    "median_rows takes (N, d) uint16 points, N uint16 labels, N int64 weights, (k, d) uint16 centers "
    "and an int64 out of k totals"
)
_ASSIGN = (
    "assign_rows takes (N, d) uint16 points, (k, d) uint16 centers with 1 <= k <= 65536 and d <= 65536, "
    "uint16 labels, uint64 distances and float64 lower bounds of N, float64 drifts and halves of k, and the "
    "metric, 1 (L1) or 2 (squared L2)"
)
# Points compared with all the centers at once, a block at a time: a few megabytes of differences.
_ROWS = 1 << 12


def _is(a: Any, itemsize: int, ndim: int | None = None) -> bool:
    return isinstance(a, np.ndarray) and a.itemsize == itemsize and a.dtype.kind in "ui" and (
        ndim is None or a.ndim == ndim
    )


def _block_distances(block: npt.NDArray[Any], centers: npt.NDArray[Any], metric: int) -> npt.NDArray[np.int64]:
    """(rows, k) distances, summed one dimension at a time to keep memory to rows x k."""
    rows, c = block.astype(np.int64), centers.astype(np.int64)
    d = np.zeros((len(rows), len(c)), dtype=np.int64)
    for j in range(c.shape[1]):
        diff = rows[:, j, None] - c[None, :, j]
        d += np.abs(diff) if metric == 1 else diff * diff
    return d


def nearest_rows(
    points: npt.NDArray[np.uint16],
    centers: npt.NDArray[np.uint16],
    labels: npt.NDArray[np.uint16],
    dists: npt.NDArray[np.uint64],
    metric: int,
    /,
) -> None:
    """Each point's nearest center (the lowest index of equals) into ``labels``, its distance into ``dists``.

    The distance is L1 for ``metric`` 1 and squared L2 for 2.
    """
    points, centers = array(points), array(centers)
    labels, dists = array(labels, writable=True), array(dists, writable=True)
    ok = (
        _is(points, 2, 2) and _is(centers, 2, 2) and _is(labels, 2) and _is(dists, 8) and metric in (1, 2)
        and points.shape[1] == centers.shape[1] and 1 <= len(centers) <= 65536 and points.shape[1] <= 65536
        and labels.size == len(points) and dists.size == len(points)
    )  # fmt: skip
    if not ok:
        raise ValueError(_NEAREST)
    lab, dist = labels.view(np.uint16).reshape(-1), dists.view(np.uint64).reshape(-1)
    for a in range(0, len(points), _ROWS):
        d = _block_distances(points[a : a + _ROWS], centers, metric)
        best = np.argmin(d, axis=1)  # the first of equal minima
        lab[a : a + _ROWS] = best
        dist[a : a + _ROWS] = d[np.arange(len(d)), best]


def assign_rows(
    points: npt.NDArray[np.uint16],
    centers: npt.NDArray[np.uint16],
    labels: npt.NDArray[np.uint16],
    dists: npt.NDArray[np.uint64],
    lower: npt.NDArray[np.float64],
    drift: npt.NDArray[np.float64],
    half: npt.NDArray[np.float64],
    metric: int,
    /,
) -> None:
    """:func:`nearest_rows`, and in ``lower`` each row's true distance to its second nearest center.

    The bounds the C twin reads (``lower`` on the way in, ``drift`` and
    ``half``) only let it skip work, so they are checked and not used.
    """
    points, centers, drift, half = array(points), array(centers), array(drift), array(half)
    labels, dists, lower = (array(a, writable=True) for a in (labels, dists, lower))
    ok = (
        isinstance(lower, np.ndarray) and lower.dtype == np.float64 and lower.size == len(points)
        and isinstance(drift, np.ndarray) and drift.dtype == np.float64 and drift.size == len(centers)
        and isinstance(half, np.ndarray) and half.dtype == np.float64 and half.size == len(centers)
    )  # fmt: skip
    if not ok:
        raise ValueError(_ASSIGN)
    try:
        nearest_rows(points, centers, labels, dists, metric)
    except ValueError:
        raise ValueError(_ASSIGN) from None
    if len(centers) == 1:
        lower[:] = np.inf
        return
    for a in range(0, len(points), _ROWS):
        second = np.partition(_block_distances(points[a : a + _ROWS], centers, metric), 1, axis=1)[:, 1]
        second = second.astype(np.float64)
        lower.reshape(-1)[a : a + _ROWS] = second if metric == 1 else np.sqrt(second)


def median_rows(
    points: npt.NDArray[np.uint16],
    labels: npt.NDArray[np.uint16],
    weights: npt.NDArray[np.int64],
    centers: npt.NDArray[np.uint16],
    totals: npt.NDArray[np.int64],
    /,
) -> None:
    """Each cluster's total weight into ``totals`` and, where it is positive, its weighted median into ``centers``.

    Per dimension the median is the smallest value at which the weight of
    the cluster's points up to it reaches half the cluster's total. The
    rows of empty clusters stay as they were. Labels must be below k, and
    weights at least 0 with a sum below 2**62.
    """
    points, labels, weights = array(points), array(labels), array(weights)
    centers, totals = array(centers, writable=True), array(totals, writable=True)
    ok = (
        _is(points, 2, 2) and _is(labels, 2) and _is(weights, 8) and _is(centers, 2, 2) and _is(totals, 8)
        and points.shape[1] == centers.shape[1] and 1 <= len(centers) <= 65536
        and labels.size == len(points) and weights.size == len(points) and totals.size == len(centers)
    )  # fmt: skip
    if not ok:
        raise ValueError(_MEDIAN)
    k = len(centers)
    lab = labels.view(np.uint16).reshape(-1).astype(np.intp)
    w = weights.view(np.int64).reshape(-1)
    out, tot = centers.view(np.uint16), totals.view(np.int64).reshape(-1)
    if len(lab) and int(lab.max()) >= k:
        raise ValueError("median_rows: a label is not below k, the number of centers")
    # Python ints: the sum is checked without overflowing.
    if len(w) and (int(w.min()) < 0 or sum(int(x) for x in w.tolist()) >= 1 << 62):
        raise ValueError("median_rows: weights must be at least 0, with a sum below 2**62")
    tot[:] = 0
    np.add.at(tot, lab, w)
    full = tot > 0
    for j in range(points.shape[1]):
        order = np.lexsort((points[:, j], lab))  # by cluster, then by value
        cum = np.cumsum(w[order])
        start = np.searchsorted(lab[order], np.arange(k))  # each cluster's first place in the order
        before = np.where(start > 0, cum[np.maximum(start - 1, 0)], 0)
        # The first place where the cluster's weight so far is at least half its total, 2 (cum - before) >= total.
        at = np.searchsorted(cum, (before + (tot + 1) // 2)[full], side="left")
        out[full, j] = points[order[at], j]
