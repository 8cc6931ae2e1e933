"""The k-means kernels (kernels/c/cluster.c) against their numpy twins and against brute force."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from twoplustwo.kernels import numpy as numpy_backend

BACKENDS: list[Any] = [numpy_backend]
try:
    from twoplustwo.kernels import _core

    BACKENDS.append(_core)
except ImportError:  # no compiler at install: the numpy path alone
    pass


def run_both(n: int, d: int, k: int, top: int, seed: int, metric: int = 1) -> list[tuple[np.ndarray, ...]]:
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
        labels, dists = hints.copy(), np.empty(n, dtype=np.uint64)
        b.nearest_rows(points, centers, labels, dists, metric)
        moved, totals = centers.copy(), np.empty(k, dtype=np.int64)
        b.median_rows(points, labels, weights, moved, totals)
        out.append((labels, dists, moved, totals, points, weights, centers))
    return out


@pytest.mark.parametrize(
    ("n", "d", "k", "top"),
    [(1, 1, 1, 2), (500, 3, 7, 4), (3000, 49, 20, 1082), (2000, 46, 9, 65536), (300, 17, 300, 3), (50, 40, 60, 2000)],
)
@pytest.mark.parametrize("metric", [1, 2])
def test_c_and_numpy_agree(n: int, d: int, k: int, top: int, metric: int) -> None:
    results = run_both(n, d, k, top, seed=n + d + k, metric=metric)
    first = results[0]
    for other in results[1:]:
        for a, b in zip(first[:4], other[:4]):
            assert a.tobytes() == b.tobytes()


@pytest.mark.parametrize("metric", [1, 2])
def test_nearest_is_the_brute_force_nearest(metric: int) -> None:
    for backend in BACKENDS:
        labels, dists, _, _, points, _, centers = run_both(400, 12, 15, 300, seed=3, metric=metric)[
            BACKENDS.index(backend)
        ]
        diff = points[:, None, :].astype(np.int64) - centers[None, :, :]
        full = np.abs(diff).sum(axis=2) if metric == 1 else (diff * diff).sum(axis=2)
        assert (labels == np.argmin(full, axis=1)).all()  # argmin: the first of equal minima
        assert (dists == full.min(axis=1)).all()


def test_the_largest_distances_do_not_overflow() -> None:
    points = np.zeros((2, 65536), dtype=np.uint16)
    points[1] = 65535
    for backend in BACKENDS:
        for metric, want in ((1, 65536 * 65535), (2, 65536 * 65535**2)):
            labels, dists = np.zeros(2, dtype=np.uint16), np.empty(2, dtype=np.uint64)
            backend.nearest_rows(points, points[:1], labels, dists, metric)
            assert dists.tolist() == [0, want]


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
    lab, dist = np.zeros(4, dtype=np.uint16), np.zeros(4, dtype=np.uint64)
    w, tot = np.ones(4, dtype=np.int64), np.zeros(2, dtype=np.int64)
    with pytest.raises(ValueError, match="nearest_rows takes"):
        backend.nearest_rows(p, np.zeros((2, 4), dtype=np.uint16), lab, dist, 1)
    with pytest.raises(ValueError, match="nearest_rows takes"):
        backend.nearest_rows(p.astype(np.uint32), c, lab, dist, 1)
    with pytest.raises(ValueError, match="nearest_rows takes"):
        backend.nearest_rows(p, c[:0], lab, dist, 1)
    with pytest.raises(ValueError, match="nearest_rows takes"):
        backend.nearest_rows(p, c, lab, dist.astype(np.uint32), 1)
    with pytest.raises(ValueError, match="the metric, 1 \\(L1\\) or 2"):
        backend.nearest_rows(p, c, lab, dist, 3)
    with pytest.raises(ValueError, match="median_rows takes"):
        backend.median_rows(p, lab, w, c, np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="a label is not below k"):
        backend.median_rows(p, np.array([0, 1, 2, 0], dtype=np.uint16), w, c, tot)
    with pytest.raises(ValueError, match="weights must be at least 0"):
        backend.median_rows(p, lab, np.array([1, -1, 0, 0], dtype=np.int64), c, tot)
    with pytest.raises(ValueError, match="weights must be at least 0"):
        backend.median_rows(p, lab, np.full(4, 1 << 61, dtype=np.int64), c, tot)



@pytest.mark.parametrize("metric", [1, 2])
def test_bounded_rounds_give_what_a_full_search_gives(metric: int) -> None:
    """Rounds of assign_rows with Hamerly's bounds, centers moving between them, against nearest_rows afresh."""
    rng = np.random.default_rng(13 + metric)
    points = rng.integers(0, 400, (3000, 6)).astype(np.uint16)
    centers = points[rng.choice(3000, 25, replace=False)].copy()
    true = (lambda s: s.astype(np.float64)) if metric == 1 else (lambda s: np.sqrt(s.astype(np.float64)))
    state = {id(b): (np.full(3000, 0xFFFF, dtype=np.uint16), np.zeros(3000)) for b in BACKENDS}
    drift, half = np.zeros(25), np.zeros(25)
    for _ in range(6):
        fresh_labels, fresh = np.zeros(3000, dtype=np.uint16), np.empty(3000, dtype=np.uint64)
        BACKENDS[0].nearest_rows(points, centers, fresh_labels, fresh, metric)
        all_d = np.stack([((points.astype(np.int64) - c) ** 2).sum(axis=1) if metric == 2
                          else np.abs(points.astype(np.int64) - c).sum(axis=1) for c in centers], axis=1)  # fmt: skip
        second = np.sort(all_d, axis=1)[:, 1]
        for b in BACKENDS:
            labels, lower = state[id(b)]
            dists = np.empty(3000, dtype=np.uint64)
            b.assign_rows(points, centers, labels, dists, lower, drift, half, metric)
            assert (labels == fresh_labels).all() and (dists == fresh).all()
            assert (lower <= true(second) * (1 + 1e-9) + 1e-9).all()  # still lower bounds
        moved = np.clip(centers.astype(np.int64) + rng.integers(-9, 10, centers.shape), 0, 399).astype(np.uint16)
        drift = true(np.abs(moved.astype(np.int64) - centers).sum(axis=1) if metric == 1
                     else ((moved.astype(np.int64) - centers) ** 2).sum(axis=1))  # fmt: skip
        gaps = np.stack([np.abs(moved.astype(np.int64) - c).sum(axis=1) if metric == 1
                         else ((moved.astype(np.int64) - c) ** 2).sum(axis=1) for c in moved])  # fmt: skip
        np.fill_diagonal(gaps, np.iinfo(np.int64).max)
        half = true(gaps.min(axis=1)) / 2
        centers = moved


@pytest.mark.parametrize("backend", BACKENDS)
def test_bad_bounds_arguments_raise(backend: Any) -> None:
    p, c = np.zeros((4, 3), dtype=np.uint16), np.zeros((2, 3), dtype=np.uint16)
    lab, dist, low, two = np.zeros(4, dtype=np.uint16), np.zeros(4, dtype=np.uint64), np.zeros(4), np.zeros(2)
    with pytest.raises(ValueError, match="assign_rows takes"):
        backend.assign_rows(p, c, lab, dist, low[:3], two, two, 1)
    with pytest.raises(ValueError, match="assign_rows takes"):
        backend.assign_rows(p, c, lab, dist, low, two.astype(np.float32), two, 1)
    with pytest.raises(ValueError, match="assign_rows takes"):
        backend.assign_rows(p, c, lab, dist, low, two, two, 0)


def plans(p: list[int], q: list[int]) -> Any:
    """Every integer transport plan moving histogram p onto q, as (from, to, units) moves (brute force)."""
    i = next((a for a, x in enumerate(p) if x), None)
    if i is None:
        yield []
        return
    for j, room in enumerate(q):
        if room:
            for rest in plans(p[:i] + [p[i] - 1] + p[i + 1 :], q[:j] + [room - 1] + q[j + 1 :]):
                yield [(i, j)] + rest


def histograms(rng: np.random.Generator, n: int, size: int, mass: int) -> np.ndarray:
    out = np.zeros((n, size), dtype=np.uint16)
    for row in out:
        np.add.at(row, rng.integers(0, size, mass), 1)
    return out


def transport(backend: Any, points: np.ndarray, centers: np.ndarray, ground: np.ndarray,
              hints: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    n, k = len(points), len(centers)
    labels = np.full(n, 0xFFFF, dtype=np.uint16) if hints is None else hints.copy()
    dists, lower = np.empty(n, dtype=np.uint64), np.zeros(n)
    backend.transport_rows(points, centers, ground, labels, dists, lower, np.zeros(k), np.zeros(k))
    return labels, dists, lower


@pytest.mark.parametrize("seed", range(4))
def test_emd_is_the_least_cost_of_every_transport_plan(seed: int) -> None:
    """Unit by unit, every way of moving one histogram onto the other: the least cost is what both backends give."""
    rng = np.random.default_rng(40 + seed)
    for _ in range(12):
        size, mass = int(rng.integers(1, 5)), int(rng.integers(0, 5))
        ground = rng.integers(0, 9, (size, int(rng.integers(1, 3)))).astype(np.uint16)
        cost = np.abs(ground[:, None, :].astype(np.int64) - ground[None]).sum(axis=2)
        p, q = histograms(rng, 2, size, mass)
        least = min(sum(int(cost[i, j]) for i, j in plan) for plan in plans(p.tolist(), q.tolist()))
        for backend in BACKENDS:
            assert transport(backend, p[None], q[None], ground)[1][0] == least


@pytest.mark.parametrize(("n", "size", "d", "k", "mass", "top"),
                         [(1, 1, 1, 1, 0, 1), (60, 6, 2, 5, 9, 30), (40, 12, 4, 7, 47, 2000), (30, 40, 3, 6, 20, 65535),
                          (40, 8, 1, 9, 12, 3)])  # fmt: skip
def test_transport_c_and_numpy_agree(n: int, size: int, d: int, k: int, mass: int, top: int) -> None:
    """Nearest centers and distances, from any hints; each lower bound at most the exact second nearest distance.

    Ground rows are drawn from few values, so that some coincide (distance 0) and distances tie."""
    rng = np.random.default_rng(n + size + k)
    ground = np.sort(rng.integers(0, top, (size, d)), axis=1).astype(np.uint16)
    ground[size // 2 :] = ground[: size - size // 2]
    points, centers = histograms(rng, n, size, mass), histograms(rng, k, size, mass)
    centers[: k // 2] = points[: k // 2]  # some points on a center
    want = transport(numpy_backend, points, centers, ground)
    for backend in BACKENDS:
        for hints in (None, rng.integers(0, 2 * k, n).astype(np.uint16)):
            labels, dists, lower = transport(backend, points, centers, ground, hints)
            assert labels.tobytes() == want[0].tobytes() and dists.tobytes() == want[1].tobytes()
            assert (lower <= want[2]).all()


def test_bounded_transport_rounds_give_what_a_full_search_gives() -> None:
    """Rounds of transport_rows with Hamerly's bounds, centers moving between them, against a fresh search."""
    rng = np.random.default_rng(17)
    ground = np.sort(rng.integers(0, 500, (10, 4)), axis=1).astype(np.uint16)
    points, centers = histograms(rng, 1500, 10, 15), histograms(rng, 12, 10, 15)
    backend = BACKENDS[-1]
    labels, lower = np.full(1500, 0xFFFF, dtype=np.uint16), np.zeros(1500)
    drift, half = np.zeros(12), np.zeros(12)
    for _ in range(5):
        fresh = transport(backend, points, centers, ground)
        dists = np.empty(1500, dtype=np.uint64)
        backend.transport_rows(points, centers, ground, labels, dists, lower, drift, half)
        assert (labels == fresh[0]).all() and (dists == fresh[1]).all()
        moved = centers.copy()
        for c in moved:  # move a few units
            for _ in range(3):
                a, b = rng.integers(0, 10, 2)
                if c[a]:
                    c[a] -= 1
                    c[b] += 1
        drift = np.array([transport(backend, moved[c : c + 1], centers[c : c + 1], ground)[1][0] for c in range(12)],
                         dtype=np.float64)  # fmt: skip
        gaps = np.array([[transport(backend, moved[a : a + 1], moved[b : b + 1], ground)[1][0] if a != b else 1 << 60
                          for b in range(12)] for a in range(12)])  # fmt: skip
        half = gaps.min(axis=1).astype(np.float64) / 2
        centers = moved


@pytest.mark.parametrize("backend", BACKENDS)
def test_bad_transport_arguments_raise(backend: Any) -> None:
    p, c, g = np.zeros((4, 3), dtype=np.uint16), np.zeros((2, 3), dtype=np.uint16), np.zeros((3, 2), dtype=np.uint16)
    lab, dist, low, two = np.zeros(4, dtype=np.uint16), np.zeros(4, dtype=np.uint64), np.zeros(4), np.zeros(2)
    with pytest.raises(ValueError, match="transport_rows takes"):
        backend.transport_rows(p, c, g[:2], lab, dist, low, two, two)
    with pytest.raises(ValueError, match="transport_rows takes"):
        backend.transport_rows(p, c, g, lab, dist, low[:3], two, two)
    with pytest.raises(ValueError, match="transport_rows takes"):
        backend.transport_rows(p, c, g, lab, dist, low, two.astype(np.float32), two)
    big = np.zeros((4, 2049), dtype=np.uint16)
    with pytest.raises(ValueError, match="transport_rows takes"):
        backend.transport_rows(big, big[:2], np.zeros((2049, 1), dtype=np.uint16), lab, dist, low, two, two)
    heavy = p.copy()
    heavy[2, 1] = 1
    with pytest.raises(ValueError, match="same total mass"):
        backend.transport_rows(heavy, c, g, lab, dist, low, two, two)
