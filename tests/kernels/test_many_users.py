"""Many users of one table set: threads agree with one thread, processes share the pages.

- 8 threads evaluate the same fixed-seed hands through ``evaluate`` and
  ``evaluate_batch`` at once (small batches, and batches big enough to go
  through the shared worker pool) and must get exactly what one thread gets;
- 8 threads race the first load after ``clear_cache()``: one table set is
  loaded and every thread gets the right value;
- 4 processes map the tables and touch every page at once; their
  proportional set size (PSS) for the table mappings, read from
  ``/proc/<pid>/smaps``, must add up to about one copy of the tables, not
  four. They read a private copy of the tables, so that no other process
  on the machine (this one included) takes a share of the pages.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from bench import memory
from tests.randomhands import random_hands
from twoplustwo.hands.batch import evaluate, evaluate_batch
from twoplustwo.tables.default import clear_cache, get_tables

THREADS = 8
PROCESSES = 4
SEED = 7_000_007


@pytest.fixture(scope="module")
def hands() -> dict[int, npt.NDArray[np.uint8]]:
    """Fixed-seed hands per size: a few thousand for single calls, and more for batches."""
    return {k: random_hands(3_000, k, seed=SEED + k) for k in (5, 6, 7)}


@pytest.fixture(scope="module")
def big_batch() -> npt.NDArray[np.uint8]:
    # Above evaluate_batch's threshold for splitting over its worker pool,
    # so 8 callers share that pool at once.
    return random_hands(300_000, 7, seed=SEED)


def _run_together(fn: Any, n: int = THREADS) -> list[Any]:
    """Run ``fn(i)`` in ``n`` threads released together by a barrier; return the results."""
    barrier = threading.Barrier(n)

    def start(i: int) -> Any:
        barrier.wait()
        return fn(i)

    with ThreadPoolExecutor(max_workers=n) as pool:
        return list(pool.map(start, range(n)))  # re-raises a thread's exception here


def test_threads_agree_with_one_thread(
    hands: dict[int, npt.NDArray[np.uint8]], big_batch: npt.NDArray[np.uint8]
) -> None:
    rows = {k: h.tolist() for k, h in hands.items()}
    # One thread first: the reference.
    want_single = {k: [evaluate(r) for r in rows[k]] for k in rows}
    want_batch = {k: evaluate_batch(h, threads=1).tolist() for k, h in hands.items()}
    want_big = evaluate_batch(big_batch, threads=1)
    assert want_single == want_batch  # the two paths agree before any threading

    def work(i: int) -> tuple[dict[int, list[int]], dict[int, list[int]], npt.NDArray[np.uint16]]:
        # Each thread takes the sizes in its own order, lists or tuples, so
        # the threads interleave different work on the same tables.
        order = [5, 6, 7][i % 3 :] + [5, 6, 7][: i % 3]
        single = {k: [evaluate(tuple(r) if i % 2 else r) for r in rows[k]] for k in order}
        batch = {k: evaluate_batch(hands[k]).tolist() for k in order}
        return single, batch, evaluate_batch(big_batch)

    for single, batch, big in _run_together(work):
        assert single == want_single
        assert batch == want_batch
        np.testing.assert_array_equal(big, want_big)


def test_concurrent_first_load(hands: dict[int, npt.NDArray[np.uint8]]) -> None:
    row = hands[7][0].tolist()
    want = evaluate(row)
    for _ in range(20):  # the race is short; run it a few times
        clear_cache()
        results = _run_together(lambda i: (evaluate(row), id(get_tables())))
        assert [v for v, _ in results] == [want] * THREADS
        # One load, shared: every thread saw the same table set.
        assert len({t for _, t in results}) == 1
    assert evaluate_batch(hands[7]).tolist() == [evaluate(r) for r in hands[7].tolist()]


# ----------------------------------------------------------------- processes

# The same measurement as `python -m bench.memory`, with assertions.


@pytest.fixture(scope="module")
def private_tables(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real copy of the table set: new inodes, whose pages only the measured processes map."""
    return memory.private_copy(tmp_path_factory.mktemp("private") / "tables")


@pytest.mark.skipif(not Path("/proc/self/smaps_rollup").exists(), reason="needs Linux /proc/<pid>/smaps")
@pytest.mark.slow
def test_processes_share_the_mapped_pages(private_tables: Path) -> None:
    n_arrays = len(get_tables().arrays)
    table_kb = get_tables().nbytes / 1024
    hands = memory.random_hands(memory.N_HANDS)
    expected = int(evaluate_batch(hands).sum(dtype=np.uint64))

    one = memory.measure(1, private_tables)[0][0]
    many, _ = memory.measure(PROCESSES, private_tables)
    for m in [one, *many]:
        assert m["checksum"] == expected
        # Every page was read, so all of the tables is resident in each process
        # (each file's mapping starts at its header and ends on a page: 8 kB slack).
        assert 0.99 * table_kb <= m["tables"]["Rss"] <= table_kb + 8 * n_arrays
    # Alone, a process pays for the whole copy.
    assert one["tables"]["Pss"] >= 0.99 * table_kb
    summed = sum(m["tables"]["Pss"] for m in many)
    # Four processes pay for about one copy between them, not four.
    assert summed < 1.5 * table_kb, f"{PROCESSES} processes' table PSS {summed} kB vs tables {table_kb:.0f} kB"
    assert summed <= one["tables"]["Pss"] + 8 * n_arrays
    for m in many:
        assert m["tables"]["Shared"] >= 0.99 * table_kb
