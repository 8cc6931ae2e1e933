"""k-medians under L1 (twoplustwo.kmeans): against brute force on small cases, and its promises.

Its promises: a local optimum (every row at its nearest center, every
center the best point for its rows), the global one where clusters are
planted apart, the same answer for any order of the rows, any threads or
executor, and weights that count exactly as repeated rows.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from itertools import product

import numpy as np
import pytest

import twoplustwo as tp
from tests.racing import every_moment
from twoplustwo.abstraction.kmeans import nearest


def l1(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.abs(a[:, None, :].astype(np.int64) - b[None, :, :]).sum(axis=2)


def best_cost(points: np.ndarray, weights: np.ndarray, k: int) -> int:
    """The least weighted L1 cost of any split of the rows into k clusters, each at its best center (brute force)."""
    best = None
    for labels in product(range(k), repeat=len(points)):
        lab = np.array(labels)
        if len(set(labels)) != k or labels[0] != 0:  # each split once: the first row in cluster 0
            continue
        cost = 0
        for c in range(k):
            rows, w = points[lab == c].astype(np.int64), weights[lab == c]
            # Per entry the best center is some row's value (a weighted median): try them all.
            for j in range(points.shape[1]):
                cost += min(int((w * np.abs(rows[:, j] - v)).sum()) for v in rows[:, j])
        best = cost if best is None else min(best, cost)
    assert best is not None
    return best


def planted(seed: int, n: int, k: int, d: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    middles = rng.permutation(k) * 1000 + 100
    rows = middles[rng.integers(0, k, n)][:, None] + rng.integers(0, 30, (n, d))
    rows[:k, :] = middles[:, None] + rng.integers(0, 30, (k, d))  # every cluster planted at least once
    return rows.astype(np.uint16), rng.integers(1, 5, n)


@pytest.mark.parametrize(("seed", "n", "k", "d"), [(1, 8, 2, 2), (2, 9, 3, 1), (3, 8, 3, 3), (4, 7, 4, 2)])
def test_planted_clusters_reach_the_brute_force_optimum(seed: int, n: int, k: int, d: int) -> None:
    points, weights = planted(seed, n, k, d)
    c = tp.kmeans(points, weights, k=k, seed=seed)
    assert c.converged and c.cost == best_cost(points, weights, k)
    assert c.weight == weights.sum()


@pytest.mark.parametrize("seed", range(6))
def test_a_random_case_ends_at_a_local_optimum(seed: int) -> None:
    rng = np.random.default_rng(seed)
    points = rng.integers(0, 50, (300, 4)).astype(np.uint16)
    weights = rng.integers(0, 6, 300)
    weights[0] = 1
    c = tp.kmeans(points, weights, k=7, seed=seed, max_iter=500)
    assert c.converged
    dist = l1(points, c.centers)
    assert (dist[np.arange(300), c.labels] == dist.min(axis=1)).all()  # no row nearer another center
    assert c.cost == int((weights * dist[np.arange(300), c.labels]).sum())
    for b in range(7):  # no center can move nearer in sum to its rows, entry by entry
        rows, w = points[c.labels == b].astype(np.int64), weights[c.labels == b]
        for j in range(4):
            cost = [int((w * np.abs(rows[:, j] - v)).sum()) for v in range(50)]
            assert cost[int(c.centers[b, j])] == min(cost)


@pytest.mark.parametrize("seed", range(4))
def test_l2_ends_with_rows_at_their_nearest_mean(seed: int) -> None:
    rng = np.random.default_rng(20 + seed)
    points = rng.integers(0, 1000, (400, 3)).astype(np.uint16)
    weights = rng.integers(1, 5, 400)
    c = tp.kmeans(points, weights, k=6, metric="l2", seed=seed, max_iter=500)
    assert c.converged
    diff = points[:, None, :].astype(np.int64) - c.centers[None, :, :]
    dist = (diff * diff).sum(axis=2)
    assert (dist[np.arange(400), c.labels] == dist.min(axis=1)).all()
    assert c.cost == int((weights * dist[np.arange(400), c.labels]).sum())
    for b in range(6):  # each center the weighted mean of its rows, rounded half up
        rows, w = points[c.labels == b].astype(np.int64), weights[c.labels == b]
        assert (c.centers[b] == (2 * (w[:, None] * rows).sum(axis=0) + w.sum()) // (2 * w.sum())).all()


def test_the_order_of_the_rows_changes_nothing() -> None:
    rng = np.random.default_rng(7)
    points = rng.integers(0, 9, (2000, 3)).astype(np.uint16)
    weights = rng.integers(1, 4, 2000)
    strength = rng.integers(0, 100, 2000)
    c = tp.kmeans(points, weights, k=12, seed=3, strength=strength)
    perm = rng.permutation(2000)
    d = tp.kmeans(points[perm], weights[perm], k=12, seed=3, strength=strength[perm])
    assert (d.labels == c.labels[perm]).all() and (d.centers == c.centers).all()
    assert (d.cost, d.iterations) == (c.cost, c.iterations)


def test_weights_count_as_repeated_rows() -> None:
    rng = np.random.default_rng(8)
    points = rng.integers(0, 30, (500, 2)).astype(np.uint16)
    weights = rng.integers(0, 4, 500)
    weights[:3] = 1
    c = tp.kmeans(points, weights, k=9, seed=2)
    repeated = np.repeat(points, weights, axis=0)
    r = tp.kmeans(repeated, k=9, seed=2)
    assert (r.centers == c.centers).all() and r.cost == c.cost
    assert (r.labels == np.repeat(c.labels, weights)).all()


def test_rows_of_weight_zero_go_to_their_nearest_center() -> None:
    points = np.array([[0], [1], [10], [11], [4], [8]], dtype=np.uint16)
    c = tp.kmeans(points, np.array([1, 1, 1, 1, 0, 0]), k=2, seed=0)
    assert c.labels.tolist() == [0, 0, 1, 1, 0, 1] and c.cost == 2


def test_threads_and_executors_give_the_same_bytes() -> None:
    rng = np.random.default_rng(9)
    points = np.sort(rng.integers(0, 1981, (40_000, 6)), axis=1).astype(np.uint16)
    weights = rng.integers(1, 25, 40_000)
    one = tp.kmeans(points, weights, k=30, seed=5, threads=1, max_iter=15)
    two = tp.kmeans(points, weights, k=30, seed=5, threads=2, max_iter=15)
    with ThreadPoolExecutor(3) as pool:
        pooled = tp.kmeans(points, weights, k=30, seed=5, executor=pool, max_iter=15)
    for other in (two, pooled):
        assert other.labels.tobytes() == one.labels.tobytes() and other.centers.tobytes() == one.centers.tobytes()
        assert other.cost == one.cost
    assert tp.kmeans(points, weights, k=30, seed=6, max_iter=15).cost != one.cost  # the seed matters


def test_the_cost_never_rises_and_reports_each_round() -> None:
    rng = np.random.default_rng(10)
    points = rng.integers(0, 500, (5000, 5)).astype(np.uint16)
    rounds: list[tuple[int, int, int]] = []
    c = tp.kmeans(points, k=40, seed=1, report=lambda *r: rounds.append(r))
    assert [r[0] for r in rounds] == list(range(1, c.iterations + 1))
    costs = [r[2] for r in rounds]
    assert costs == sorted(costs, reverse=True) and costs[-1] == c.cost
    assert (rounds[-1][1] == 0) == c.converged


def test_buckets_are_numbered_by_mean_strength() -> None:
    points = np.array([[0], [1], [50], [51], [100]], dtype=np.uint16)
    by_center = tp.kmeans(points, k=3, seed=0)
    assert by_center.labels.tolist() == [0, 0, 1, 1, 2]
    weakest_high = tp.kmeans(points, k=3, seed=0, strength=-points[:, 0].astype(np.int64))
    assert weakest_high.labels.tolist() == [2, 2, 1, 1, 0]
    assert weakest_high.centers[:, 0].tolist() == [100, 50, 0]


def test_nearest_splits_like_one_call() -> None:
    rng = np.random.default_rng(11)
    points = rng.integers(0, 100, (30_000, 3)).astype(np.uint16)
    centers = rng.integers(0, 100, (17, 3)).astype(np.uint16)
    labels, dists = nearest(points, centers, threads=2)
    full = l1(points, centers)
    assert (labels == full.argmin(axis=1)).all() and (dists == full.min(axis=1)).all()


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "match"),
    [
        ((np.zeros((3, 2), dtype=np.int64),), {"k": 1}, TypeError, "points must be an \\(N, d\\) uint16 array"),
        ((np.zeros((0, 2), dtype=np.uint16),), {"k": 1}, ValueError, "at least one row"),
        ((np.zeros((3, 2), dtype=np.uint16), np.ones(2, dtype=np.int64)), {"k": 1}, TypeError, "weights must be"),
        ((np.zeros((3, 2), dtype=np.uint16), np.array([1, -1, 1])), {"k": 1}, ValueError, "row 1 has a negative"),
        ((np.zeros((3, 2), dtype=np.uint16), np.zeros(3, dtype=np.int64)), {"k": 1}, ValueError, "not all be 0"),
        ((np.zeros((3, 2), dtype=np.uint16),), {"k": 2}, ValueError, "exceeds the 1 distinct rows"),
        ((np.zeros((3, 2), dtype=np.uint16),), {"k": 0}, ValueError, "k must be from 1"),
        ((np.zeros((3, 2), dtype=np.uint16),), {"k": 1.5}, TypeError, "k must be an int"),
        ((np.zeros((3, 2), dtype=np.uint16),), {"k": 1, "max_iter": 0}, ValueError, "max_iter must be"),
        ((np.zeros((3, 2), dtype=np.uint16),), {"k": 1, "strength": np.zeros(2)}, TypeError, "strength must be"),
        ((np.zeros((3, 2), dtype=np.uint16),), {"k": 1, "metric": "cosine"}, ValueError, "metric must be one of"),
        ((np.zeros((3, 2), dtype=np.uint16),), {"k": 1, "metric": "emd"}, TypeError, "ground must be"),
        ((np.zeros((3, 2), dtype=np.uint16),), {"k": 1, "metric": "emd", "ground": np.zeros((3, 1), dtype=np.uint16)},
         ValueError, "one row for each of the 2 entries"),
        ((np.array([[1, 0], [0, 2]], dtype=np.uint16),), {"k": 1, "metric": "emd",
         "ground": np.zeros((2, 1), dtype=np.uint16)}, ValueError, "row 1 holds 2, row 0 holds 1"),
        ((np.zeros((3, 2), dtype=np.uint16),), {"k": 1, "seed": -1}, ValueError, "seed must be an int of at least 0"),
    ],
)
def test_bad_input_raises(args: tuple, kwargs: dict, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        tp.kmeans(*args, **kwargs)


@pytest.mark.one_backend
def test_ctrl_c_stops_a_long_clustering_promptly() -> None:
    """SIGINT in the middle of the rounds: a KeyboardInterrupt within seconds, not after the rounds."""
    if tp.backend() != "c":
        pytest.skip("the same Python loop stops both; the C one is the long one")
    import signal
    import subprocess
    import sys
    import textwrap
    import time

    code = textwrap.dedent("""
        import numpy as np, twoplustwo as tp
        rows = np.random.default_rng(1).integers(0, 60000, (1_000_000, 8)).astype(np.uint16)
        tp.kmeans(rows, k=150, metric="l2", max_iter=1000, report=lambda *r: r[0] == 1 and print("round", flush=True))
        print("finished", flush=True)
    """)
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()  # once the first round is done
        assert first == "round\n", (first, proc.stderr.read() if proc.stderr else "")
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "KeyboardInterrupt" in err and "finished" not in out
    assert took < 10, took


def cumulative_median(rows: np.ndarray, weights: np.ndarray, ground: np.ndarray) -> np.ndarray:
    """The histogram whose cumulative counts (ground points by their rows' sums) are the rows' weighted medians."""
    order = sorted(range(len(ground)), key=lambda j: (int(ground[j].sum()), j))
    cumulative = np.cumsum(rows[:, order].astype(np.int64), axis=1)
    medians = []
    for column in cumulative.T:
        pairs, seen = sorted(zip(column.tolist(), weights.tolist())), 0
        for value, w in pairs:  # the smallest value at which the weight so far reaches half
            seen += w
            if 2 * seen >= weights.sum():
                medians.append(value)
                break
    center = np.zeros(len(ground), dtype=np.int64)
    center[order] = np.diff(medians, prepend=0)
    return center


def emd_case(seed: int, n: int, size: int, mass: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    ground = np.sort(rng.integers(0, 2000, (size, 5)), axis=1).astype(np.uint16)
    rows = np.zeros((n, size), dtype=np.uint16)
    for row in rows:
        np.add.at(row, rng.integers(0, size, mass), 1)
    return rows, rng.integers(1, 5, n), ground


@pytest.mark.slow  # the numpy twin solves every pair in Python: the C path's test
@pytest.mark.parametrize(("seed", "n", "k"), [(1, 7, 2), (2, 8, 3), (3, 7, 3)])
def test_emd_planted_clusters_reach_the_brute_force_optimum(seed: int, n: int, k: int) -> None:
    """Histograms planted near k far-apart ground points: no split of the rows costs less, each at its center."""
    from twoplustwo.kernels.numpy.transport import emd

    rng = np.random.default_rng(seed)
    ground = np.array([[0, 0], [1, 3], [2, 2], [500, 510], [502, 509], [1000, 1000], [1003, 1001]], dtype=np.uint16)
    near = [[0, 1, 2], [3, 4], [5, 6]][:k]
    rows = np.zeros((n, len(ground)), dtype=np.uint16)
    for i, row in enumerate(rows):
        np.add.at(row, rng.choice(near[i % k], 6), 1)
    weights = rng.integers(1, 4, n)
    cost = np.abs(ground[:, None, :].astype(np.int64) - ground[None]).sum(axis=2)
    best = None
    for labels in product(range(k), repeat=n):
        lab = np.array(labels)
        if len(set(labels)) != k or labels[0] != 0:
            continue
        total = 0
        for c in range(k):
            center = cumulative_median(rows[lab == c], weights[lab == c], ground)
            total += sum(int(w) * emd(r, center, cost) for r, w in zip(rows[lab == c], weights[lab == c]))
        best = total if best is None else min(best, total)
    c = tp.kmeans(rows, weights, k=k, metric="emd", ground=ground, seed=seed)
    assert c.converged and c.cost == best


@pytest.mark.slow  # the numpy twin solves every pair in Python: the C path's test
@pytest.mark.parametrize("seed", range(3))
def test_emd_ends_with_rows_at_their_nearest_cumulative_median(seed: int) -> None:
    from twoplustwo.kernels.numpy.transport import emd

    rows, weights, ground = emd_case(20 + seed, 300, 9, 12)
    c = tp.kmeans(rows, weights, k=6, metric="emd", ground=ground, seed=seed, max_iter=200)
    assert c.converged
    cost = np.abs(ground[:, None, :].astype(np.int64) - ground[None]).sum(axis=2)
    for b in range(6):
        mine = c.labels == b
        assert (c.centers[b] == cumulative_median(rows[mine], weights[mine], ground)).all()
    d = np.array([[emd(r, center, cost) for center in c.centers] for r in rows])
    assert (d[np.arange(len(rows)), c.labels] == d.min(axis=1)).all()
    assert c.cost == int((weights * d.min(axis=1)).sum())


@pytest.mark.slow  # the numpy twin solves every pair in Python: the C path's test
def test_emd_answers_do_not_depend_on_order_repeats_threads_or_executors() -> None:
    rows, weights, ground = emd_case(30, 300, 12, 10)
    run = {"k": 8, "metric": "emd", "ground": ground, "seed": 4, "max_iter": 4}
    one = tp.kmeans(rows, weights, threads=1, **run)
    perm = np.random.default_rng(31).permutation(len(rows))
    shuffled = tp.kmeans(rows[perm], weights[perm], threads=2, **run)
    assert (shuffled.labels == one.labels[perm]).all() and shuffled.centers.tobytes() == one.centers.tobytes()
    repeated = tp.kmeans(np.repeat(rows, weights, axis=0), **run)
    assert (repeated.labels == np.repeat(one.labels, weights)).all() and repeated.cost == one.cost
    with ThreadPoolExecutor(3) as pool:
        pooled = tp.kmeans(rows, weights, executor=pool, **run)
    assert pooled.labels.tobytes() == one.labels.tobytes() and pooled.cost == one.cost


# ------------------------------------------- caller memory changing under a call


def _same(a: tp.Clustering, b: tp.Clustering) -> bool:
    return bool(np.array_equal(a.labels, b.labels) and np.array_equal(a.centers, b.centers)) and (
        a.cost, a.weight, a.iterations, a.converged) == (b.cost, b.weight, b.iterations, b.converged)  # fmt: skip


def _rows() -> np.ndarray:
    return np.array([[0, 1], [0, 2], [1, 1], [9, 9], [8, 9], [9, 7], [4, 4], [0, 1]], dtype=np.uint16)


@pytest.mark.slow  # a clustering before each of its steps: a few seconds on a loaded machine
def test_weights_changed_during_a_call_give_one_states_answer_or_an_error() -> None:
    points = _rows()
    weights = np.ones(len(points), dtype=np.int64)

    def call() -> tp.Clustering:
        return tp.kmeans(points, weights, k=2, seed=3, max_iter=1, quiet=True, threads=1)

    other = weights.copy()
    other[6] = 3
    both = [call(), tp.kmeans(points, other, k=2, seed=3, max_iter=1, quiet=True, threads=1)]
    assert every_moment(weights, (6,), -1, call, both[:1], same=_same)
    assert every_moment(weights, (6,), 3, call, both, same=_same)


@pytest.mark.slow
def test_points_and_strength_changed_during_a_call_give_one_states_answer_or_an_error() -> None:
    points = _rows()
    strength = np.arange(len(points), dtype=np.int64)

    def call() -> tp.Clustering:
        return tp.kmeans(points, k=3, seed=3, max_iter=1, strength=strength, quiet=True, threads=1)

    other = points.copy()
    other[6, 0] = 9
    both = [call(), tp.kmeans(other, k=3, seed=3, max_iter=1, strength=strength, quiet=True, threads=1)]
    assert every_moment(points, (6, 0), 9, call, both, same=_same)
    assert every_moment(strength, (2,), 1 << 61, call, both[:1], same=_same)  # too large a strength: an error


@pytest.mark.slow
def test_a_row_changed_to_another_mass_under_emd_is_an_error_or_the_right_answer() -> None:
    hist = np.array([[2, 0, 0], [1, 1, 0], [0, 0, 2], [0, 1, 1], [2, 0, 0]], dtype=np.uint16)
    ground = np.array([[0], [1], [10]], dtype=np.uint16)

    def call() -> tp.Clustering:
        return tp.kmeans(hist, k=2, metric="emd", ground=ground, max_iter=1, quiet=True, threads=1)

    assert every_moment(hist, (3, 2), 3, call, [call()], same=_same)


def test_masked_arrays_are_refused_and_numpy_ints_are_ints() -> None:
    points = _rows()
    with pytest.raises(TypeError, match="points must be a plain array, not a masked array"):
        tp.kmeans(np.ma.array(points, mask=np.eye(8, 2)), k=2)
    with pytest.raises(TypeError, match="weights must be a plain array, not a masked array"):
        tp.kmeans(points, np.ma.array(np.ones(8, dtype=np.int64), mask=np.eye(1, 8)[0]), k=2)
    with pytest.raises(TypeError, match="strength must be a plain array, not a masked array"):
        tp.kmeans(points, k=2, strength=np.ma.array(np.arange(8), mask=np.eye(1, 8)[0]))
    want = tp.kmeans(points, k=2, seed=1, max_iter=5, quiet=True)
    got = tp.kmeans(points, k=np.int64(2), seed=np.int64(1), max_iter=np.uint8(5), quiet=True)
    assert _same(got, want)
