"""Processes, threads and memory: fork after threaded work, threads= checks, bounded memory, fds.

Each case that could hang or needs a clean process runs in a child
interpreter with a timeout, so a regression fails the test instead of
stalling the suite.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

import twoplustwo as tp
from twoplustwo.tables.default import load_tables
from twoplustwo.tables.load import Tables

ROOT = Path(__file__).resolve().parents[2]


def run_child(code: str, timeout: float = 120) -> str:
    """Run ``code`` in a fresh interpreter; its stdout, or a failure naming what it printed."""
    try:
        r = subprocess.run(
            [sys.executable, "-c", textwrap.dedent(code)],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=ROOT,
        )
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"child did not finish in {timeout} s (hung?): {e.stdout!r} {e.stderr!r}")
    assert r.returncode == 0, r.stderr
    return r.stdout


# ------------------------------------------------------------------- fork


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
@pytest.mark.slow
def test_fork_after_threaded_work_gives_the_parents_answers() -> None:
    out = run_child(
        """
        import json, multiprocessing as mp
        import numpy as np
        import twoplustwo as tp

        rng = np.random.default_rng(7)
        hands = np.argsort(rng.random((300_000, 52)), axis=1)[:, :7].astype(np.uint8)

        def answers(_=None):
            eq = [r.wins for r in tp.equity(["AsAh", "KdKc"], threads=2)]
            cards, values = next(tp.iter_hands(6, chunk_size=1 << 16, threads=2))
            batch = tp.evaluate_batch(hands, threads=2)
            return eq, int(values.sum()), int(batch.astype(np.int64).sum())

        parent = answers()  # leaves the thread pool running
        with mp.get_context("fork").Pool(2) as pool:
            children = pool.map(answers, range(2))
        print(json.dumps([parent, *children]))
        """,
        timeout=180,
    )
    parent, *children = json.loads(out)
    assert children == [parent, parent]


# ---------------------------------------------------------------- threads


@pytest.mark.parametrize("threads", [-1, 0, tp.MAX_THREADS + 1, 10**9])
def test_threads_out_of_range(threads: int) -> None:
    hands = np.array([[0, 1, 2, 3, 4]])
    for call in (
        lambda: tp.evaluate_batch(hands, threads=threads),
        lambda: tp.iter_hands(5, threads=threads),
        lambda: tp.equity(["AsAh", "KdKc"], board="2c 3c 4c", threads=threads),
    ):
        with pytest.raises(ValueError, match=rf"threads must be None or an int from 1 to {tp.MAX_THREADS}"):
            call()


@pytest.mark.parametrize("threads", [1.5, "2", True])
def test_threads_of_the_wrong_type(threads: object) -> None:
    with pytest.raises(TypeError, match="threads must be None or an int"):
        tp.evaluate_batch(np.array([[0, 1, 2, 3, 4]]), threads=threads)  # type: ignore[arg-type]


def test_one_pool_however_many_sizes_are_asked_for() -> None:
    hands = np.tile(np.arange(7, dtype=np.uint8), (1 << 18, 1))
    for threads in (1, 2, 3, 4, 2, 3, 4, 1, 4):
        tp.evaluate_batch(hands, threads=threads)
    ours = [t for t in threading.enumerate() if t.name.startswith("twoplustwo")]
    assert len(ours) <= 4, [t.name for t in ours]


# ----------------------------------------------------------------- memory


def test_batch_memory_stays_within_input_output_and_64_mb() -> None:
    rows = 4_000_000
    rng = np.random.default_rng(11)
    hands = np.empty((rows, 7), dtype=np.uint8)
    for a in range(0, rows, 500_000):  # make the input without a large temporary
        hands[a : a + 500_000] = np.argsort(rng.random((500_000, 52)), axis=1)[:, :7]
    tp.evaluate_batch(hands[:10])  # tables and views loaded outside the measurement
    tracemalloc.start()
    try:
        values = tp.evaluate_batch(hands, threads=2)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak <= values.nbytes + 64 * 2**20, f"peak {peak / 2**20:.0f} MiB"
    # Steps and threads change nothing in the answers.
    assert np.array_equal(values[:1000], tp.evaluate_batch(hands[:1000], threads=1))


def test_equity_memory_is_bounded_and_not_leaked() -> None:
    out = run_child(
        """
        import twoplustwo as tp

        def anon_mib():
            for line in open("/proc/self/status"):
                if line.startswith("RssAnon"):
                    return int(line.split()[1]) / 1024

        tp.evaluate("As Ks Qs Js Ts 2c 3d")
        before = anon_mib()
        tp.equity(["AsAh", "KdKc"])
        first = anon_mib()
        for _ in range(4):
            tp.equity(["AsAh", "KdKc", "7c7d"])
        print(before, first, anon_mib())
        """
    )
    before, first, last = map(float, out.split())
    # The bound the README documents: the subset index (65 MiB) plus freed
    # temporaries the allocator keeps for reuse.
    assert first - before <= 128, (before, first)
    assert last - first <= 16, "equity keeps more memory with every call"


# -------------------------------------------------------------------- fds


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="no /proc/self/fd to count descriptors")
def test_a_loaded_table_set_holds_no_file_descriptors() -> None:
    before = _open_fds()
    sets = [load_tables() for _ in range(5)]
    assert _open_fds() == before
    assert all(tp.evaluate("As Ks Qs Js Ts 2c 3d", tables=t) == 7462 for t in sets)


# ------------------------------------------------------------- byte order


def test_single_hands_read_through_the_stored_byte_order() -> None:
    t = load_tables()
    swapped = {
        role: a.byteswap().view(a.dtype.newbyteorder()) if a.dtype.itemsize > 1 else a
        for role, a in t.arrays.items()
    }
    other = Tables(t.path, t.manifest, swapped)
    rng = np.random.default_rng(3)
    for _ in range(300):
        hand = rng.choice(52, size=int(rng.integers(5, 8)), replace=False).tolist()
        assert tp.evaluate(hand, tables=other) == tp.evaluate(hand, tables=t), hand


# ---------------------------------------------------------- small escapes


def test_masked_arrays_are_refused() -> None:
    masked = np.ma.array([0, 1, 2, 3, 4], mask=[0, 0, 0, 0, 1])
    with pytest.raises(TypeError, match="masked"):
        tp.evaluate(masked)
    with pytest.raises(TypeError, match="masked"):
        tp.evaluate_batch(masked[None])
    with pytest.raises(TypeError, match="masked"):
        tp.categories(np.ma.array([1, 2], mask=[0, 1]))
    with pytest.raises(TypeError, match="masked"):
        tp.value_from_code(np.ma.array([0x8CBA98], mask=[1]))


def test_codes_must_be_integers_and_never_wrap() -> None:
    with pytest.raises(ValueError, match="must be integers"):
        tp.value_from_code(0x8CBA98 + 0.5)
    with pytest.raises(ValueError, match="not a hand code: 0xffffffffffffffff"):
        tp.value_from_code(np.uint64(2**64 - 1))


def test_chunk_size_is_checked_at_the_call() -> None:
    with pytest.raises(TypeError, match="chunk_size must be an int"):
        tp.iter_hands(5, chunk_size=1.5)  # type: ignore[arg-type]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
def test_output_that_cannot_be_written_fails() -> None:
    with open("/dev/full", "w") as full:
        r = subprocess.run(
            [sys.executable, "-m", "twoplustwo", "eval", "As Ks Qs Js Ts"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            timeout=60,
        )
    assert r.returncode != 0
    assert "No space left on device" in r.stderr
