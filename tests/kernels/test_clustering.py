"""The k-medians kernels (kernels/c/cluster.c) against their numpy twins and against brute force."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from twoplustwo.kernels import reference

BACKENDS: list[Any] = [reference]
try:
    from twoplustwo.kernels import _core

    BACKENDS.append(_core)
except ImportError:  # no compiler at install: the numpy path alone
    pass


def run_both(n: int, d: int, k: int, top: int, seed: int) -> list[tuple[np.ndarray, ...]]:
    rng = np.random.default_rng(seed)
    points = rng.integers(0, top, (n, d)).astype(np.uint16)
    if k <= n:
        centers = points[rng.choice(n, k, replace=False)].copy()
    else:
        centers = rng.integers(0, top, (k, d)).astype(np.uint16)
    weights = rng.integers(0, 4, n).astype(np.int64)
    hints = rng.integers(0, 2 * k, n).astype(np.uint16)  # some below k, some not: neither changes the answer
    out = []
    for b in BACKENDS:
        labels, dists = hints.copy(), np.empty(n, dtype=np.uint32)
        b.nearest_rows(points, centers, labels, dists)
        moved, totals = centers.copy(), np.empty(k, dtype=np.int64)
        b.median_rows(points, labels, weights, moved, totals)
        out.append((labels, dists, moved, totals, points, weights, centers))
    return out


@pytest.mark.parametrize(
    ("n", "d", "k", "top"),
    [(1, 1, 1, 2), (500, 3, 7, 4), (3000, 49, 20, 1082), (2000, 46, 9, 65536), (300, 17, 300, 3), (50, 40, 60, 2000)],
)
def test_c_and_numpy_agree(n: int, d: int, k: int, top: int) -> None:
    results = run_both(n, d, k, top, seed=n + d + k)
    first = results[0]
    for other in results[1:]:
        for a, b in zip(first[:4], other[:4]):
            assert a.tobytes() == b.tobytes()


def test_nearest_is_the_brute_force_nearest() -> None:
    labels, dists, _, _, points, _, centers = run_both(400, 12, 15, 300, seed=3)[-1]
    full = np.abs(points[:, None, :].astype(np.int64) - centers[None, :, :]).sum(axis=2)
    assert (labels == np.argmin(full, axis=1)).all()  # argmin: the first of equal minima
    assert (dists == full.min(axis=1)).all()


def test_medians_minimise_the_weighted_distance_of_each_cluster() -> None:
    """Each center entry is the smallest value of least weighted L1 sum over its cluster, found by trying all."""
    labels, _, moved, totals, points, weights, centers = run_both(600, 5, 6, 40, seed=4)[-1]
    for c in range(6):
        rows = labels == c
        assert totals[c] == weights[rows].sum()
        if totals[c] == 0:
            assert (moved[c] == centers[c]).all()  # an empty cluster keeps its center
            continue
        for j in range(5):
            cost = [int((weights[rows] * np.abs(points[rows, j].astype(np.int64) - v)).sum()) for v in range(40)]
            assert int(moved[c, j]) == int(np.argmin(cost))


@pytest.mark.parametrize("backend", BACKENDS)
def test_bad_arguments_raise(backend: Any) -> None:
    p = np.zeros((4, 3), dtype=np.uint16)
    c = np.zeros((2, 3), dtype=np.uint16)
    lab, dist = np.zeros(4, dtype=np.uint16), np.zeros(4, dtype=np.uint32)
    w, tot = np.ones(4, dtype=np.int64), np.zeros(2, dtype=np.int64)
    with pytest.raises(ValueError, match="nearest_rows takes"):
        backend.nearest_rows(p, np.zeros((2, 4), dtype=np.uint16), lab, dist)
    with pytest.raises(ValueError, match="nearest_rows takes"):
        backend.nearest_rows(p.astype(np.uint32), c, lab, dist)
    with pytest.raises(ValueError, match="nearest_rows takes"):
        backend.nearest_rows(p, c[:0], lab, dist)
    with pytest.raises(ValueError, match="median_rows takes"):
        backend.median_rows(p, lab, w, c, np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="a label is not below k"):
        backend.median_rows(p, np.array([0, 1, 2, 0], dtype=np.uint16), w, c, tot)
    with pytest.raises(ValueError, match="weights must be at least 0"):
        backend.median_rows(p, lab, np.array([1, -1, 0, 0], dtype=np.int64), c, tot)
    with pytest.raises(ValueError, match="weights must be at least 0"):
        backend.median_rows(p, lab, np.full(4, 1 << 61, dtype=np.int64), c, tot)

