"""The earth mover's distance between histograms over ground points: the numpy twin of ``kernels/c/transport.c``.

:func:`transport_rows` gives each histogram its nearest center under the
earth mover's distance over ground points whose distances are L1 between
their rows (potential-aware buckets): a transportation problem per pair,
solved here by shortest paths found by Bellman-Ford (:func:`emd`), where
the C twin uses the network simplex and skips centers by lower bounds.

>>> emd(np.array([0, 1]), np.array([1, 0]), np.array([[0, 5], [5, 0]]))
5
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from twoplustwo.kernels.limits import MAX_GROUND
from twoplustwo.kernels.numpy.args import array

__all__ = ["emd", "transport_rows"]

_TRANSPORT = (
    "transport_rows takes (N, K) uint16 points, (k, K) uint16 centers with 1 <= k <= 65536, (K, d) uint16 ground "
    f"rows with 1 <= K <= {MAX_GROUND}, uint16 labels, uint64 distances and float64 lower bounds of N, float64 "
    "drifts and halves of k, and optionally a stop byte"
)


def _is(a: Any, itemsize: int, ndim: int | None = None) -> bool:
    return isinstance(a, np.ndarray) and a.itemsize == itemsize and a.dtype.kind in "ui" and (
        ndim is None or a.ndim == ndim
    )


def emd(p: npt.NDArray[Any], q: npt.NDArray[Any], cost: npt.NDArray[np.int64]) -> int:
    """The least cost of moving histogram ``p`` onto ``q`` (equal masses), a unit from i to j costing ``cost[i, j]``.

    Mass the two share stays put (the cost is a metric), and the rest moves
    along one cheapest path at a time from a source with supply left to a
    sink with demand left, found by Bellman-Ford on the residual graph.

    >>> emd(np.array([2, 0, 0]), np.array([0, 1, 1]), np.array([[0, 1, 3], [1, 0, 2], [3, 2, 0]]))
    4
    """
    diff = np.asarray(p, dtype=np.int64) - np.asarray(q, dtype=np.int64)
    src, snk = np.flatnonzero(diff > 0), np.flatnonzero(diff < 0)
    supply, demand = diff[src], -diff[snk]
    c = cost[np.ix_(src, snk)].astype(np.float64)
    flow = np.zeros(c.shape, dtype=np.int64)
    ns, nt = c.shape
    while supply.sum() > 0:
        at_s, at_t = np.where(supply > 0, 0.0, np.inf), np.full(nt, np.inf)
        by_s, by_t = np.full(nt, -1), np.full(ns, -1)  # a sink's source on the path, a source's sink
        for _ in range(ns + nt + 1):
            to_t = at_s[:, None] + c
            s_best = np.argmin(to_t, axis=0)
            better_t = to_t[s_best, np.arange(nt)] < at_t
            at_t[better_t], by_s[better_t] = to_t[s_best, np.arange(nt)][better_t], s_best[better_t]
            to_s = np.where(flow > 0, at_t[None, :] - c, np.inf)
            t_best = np.argmin(to_s, axis=1)
            better_s = to_s[np.arange(ns), t_best] < at_s
            at_s[better_s], by_t[better_s] = to_s[np.arange(ns), t_best][better_s], t_best[better_s]
            if not better_t.any() and not better_s.any():
                break
        t = int(np.argmin(np.where(demand > 0, at_t, np.inf)))
        path, move, s = [], int(demand[t]), int(by_s[t])
        while True:  # back from the sink to a source with supply, through the flows the path undoes
            path.append((s, t))
            if by_t[s] < 0:
                break
            t = int(by_t[s])
            move = min(move, int(flow[s, t]))
            path.append((s, -1 - t))
            s = int(by_s[t])
        move = min(move, int(supply[s]))
        supply[s] -= move
        demand[path[0][1]] -= move
        for s, t in path:
            if t >= 0:
                flow[s, t] += move
            else:
                flow[s, -1 - t] -= move
    return int((flow * cost[np.ix_(src, snk)]).sum())


def transport_rows(
    points: npt.NDArray[np.uint16],
    centers: npt.NDArray[np.uint16],
    ground: npt.NDArray[np.uint16],
    labels: npt.NDArray[np.uint16],
    dists: npt.NDArray[np.uint64],
    lower: npt.NDArray[np.float64],
    drift: npt.NDArray[np.float64],
    half: npt.NDArray[np.float64],
    stop: npt.NDArray[np.uint8] | None = None,
    /,
) -> None:
    """Each histogram's nearest center under the EMD (:func:`emd`) over the ground rows' L1 distances.

    The lowest index among equals goes into ``labels``, the distance into
    ``dists``, and the distance to the second nearest into ``lower``. Every
    point and center must hold the same total mass. The bounds the C twin
    reads (``lower`` on the way in, ``drift`` and ``half``) only let it skip
    work, so they are checked and not used; it gives in ``lower`` a lower
    bound of the second distance, this its exact value. Once ``stop[0]`` is
    nonzero (set by another thread) the call returns early, its rows part
    done.
    """
    points, centers, ground, drift, half = (array(a) for a in (points, centers, ground, drift, half))
    labels, dists, lower = (array(a, writable=True) for a in (labels, dists, lower))
    stop = None if stop is None else array(stop)
    ok = (
        _is(points, 2, 2) and _is(centers, 2, 2) and _is(ground, 2, 2) and _is(labels, 2) and _is(dists, 8)
        and points.shape[1] == centers.shape[1] == len(ground) and 1 <= len(ground) <= MAX_GROUND
        and 1 <= ground.shape[1] <= 65536 and 1 <= len(centers) <= 65536
        and labels.size == len(points) and dists.size == len(points)
        and isinstance(lower, np.ndarray) and lower.dtype == np.float64 and lower.size == len(points)
        and isinstance(drift, np.ndarray) and drift.dtype == np.float64 and drift.size == len(centers)
        and isinstance(half, np.ndarray) and half.dtype == np.float64 and half.size == len(centers)
        and (stop is None or (isinstance(stop, np.ndarray) and stop.itemsize == 1 and stop.size >= 1))
    )  # fmt: skip
    if not ok:
        raise ValueError(_TRANSPORT)
    masses = np.concatenate([centers.sum(axis=1, dtype=np.int64), points.sum(axis=1, dtype=np.int64)])
    if len(np.unique(masses)) > 1:
        raise ValueError("transport_rows: every point and center must hold the same total mass")
    g = ground.astype(np.int64)
    cost = np.abs(g[:, None, :] - g[None, :, :]).sum(axis=2)
    lab, dist, low = labels.view(np.uint16).reshape(-1), dists.view(np.uint64).reshape(-1), lower.reshape(-1)
    flag = None if stop is None else stop.reshape(-1)
    for i, p in enumerate(points):
        found = []
        for c in centers:
            if flag is not None and flag[0]:
                return  # the row is left as it was
            found.append(emd(p, c, cost))
        d = np.array(found)
        lab[i] = int(np.argmin(d))  # the first of equal minima
        dist[i] = d[lab[i]]
        low[i] = float(np.partition(d, 1)[1]) if len(d) > 1 else np.inf
