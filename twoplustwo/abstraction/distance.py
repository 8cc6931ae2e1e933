"""The assignment step of :func:`~twoplustwo.abstraction.kmeans.kmeans`: each row's nearest center, and distances.

Under L1, squared L2, or the earth mover's distance over the rows of a
``ground`` (the kernels' nearest_rows and transport_rows, in C when it is built),
split over threads or handed to an executor in blocks, and stopped
promptly by Ctrl-C or by another part's failure.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

import numpy as np
import numpy.typing as npt

from twoplustwo.abstraction.rows import describe, distinct_rows
from twoplustwo.kernels.choice import chosen
from twoplustwo.kernels.pool import resolve_threads, run

__all__ = ["METRICS", "check_ground", "halves", "metric_code", "nearest", "row_distances"]

#: The metrics, by name: the kernels' codes (``emd`` is ``transport_rows``'s).
METRICS = {"l1": 1, "l2": 2, "emd": 3}

# Rows per call of the kernel: a few milliseconds, so that Ctrl-C and a stop are prompt.
_STEP = 1 << 13
# Rows per task on an executor.
_TASK = 1 << 18


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
    code = metric_code(metric)
    if code == 3:
        check_ground(points, ground)
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


def metric_code(metric: object) -> int:
    """The kernels' code of ``metric`` (:data:`METRICS`); ValueError naming the metrics for any other."""
    if not isinstance(metric, str) or metric not in METRICS:
        raise ValueError(f"metric must be one of {', '.join(map(repr, METRICS))}, got {metric!r}")
    return METRICS[metric]


def check_ground(points: npt.NDArray[np.uint16], ground: Any) -> npt.NDArray[np.uint16]:
    """``ground``, checked to be uint16 rows, one for each entry of a point."""
    if not isinstance(ground, np.ndarray) or ground.dtype != np.uint16 or ground.ndim != 2:
        raise TypeError(f"under metric 'emd', ground must be a (K, d) uint16 array, got {describe(ground)}")
    if len(ground) != points.shape[1] or not 1 <= len(ground) <= 2048 or not 1 <= ground.shape[1] <= 65536:
        raise ValueError(
            f"ground must hold one row for each of the {points.shape[1]} entries of a point (at most 2,048) "
            f"of 1 to 65,536 values, got shape {ground.shape}"
        )
    return ground


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
    code = metric_code(metric)
    if code == 3:  # by distinct row of b: one search against one center each
        emd = np.empty(len(a))
        distinct, inverse = distinct_rows(b)
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


def halves(
    centers: npt.NDArray[np.uint16], metric: str, ground: npt.NDArray[np.uint16] | None
) -> npt.NDArray[np.float64]:
    """Half the true distance from each center to its nearest other (0 for more than 4,096 centers: no bound)."""
    k, code = len(centers), metric_code(metric)
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
