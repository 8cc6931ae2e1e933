"""Ctrl-C in k-means under the EMD, at the most ground points (K = 2,048): it stops within a few steps.

One row there may cost a second of EMDs, and a call of the kernel took 512
rows, so Ctrl-C once waited for half a minute or more. The kernel now looks
for a signal between its steps (every few dozen EMDs), and for a stop byte
that :func:`twoplustwo.abstraction.kmeans.nearest` sets when another of its
threads was interrupted or failed.

The latency is measured against work measured in the same run: SIGINT must
stop the clustering sooner than the kernel takes for 8 rows, where one of
its calls (512 rows) takes 64 times that.
"""

from __future__ import annotations

import select
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from twoplustwo.kernels import numpy as numpy_backend
from twoplustwo.kernels.choice import backend, extension
from twoplustwo.kernels.limits import MAX_GROUND

# The first backend only: the tests name the backends they run themselves.
pytestmark = pytest.mark.one_backend

ROOT = Path(__file__).resolve().parents[2]
BACKENDS = [pytest.param(numpy_backend, id="numpy")] + (
    [pytest.param(extension(), id="c")] if extension() is not None else []
)


def potential_like(K: int, n: int, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """``n`` histograms of 47 turns over ``K`` ground points, near one another as a flop's turns fall; the ground."""
    rng = np.random.default_rng(seed)
    ground = np.sort(rng.integers(0, 1981, size=(K, 46)), axis=1).astype(np.uint16)
    at = rng.integers(0, K, size=n)
    bins = np.clip(at[:, None] + rng.integers(-(K // 20) - 1, K // 20 + 2, size=(n, 47)), 0, K - 1)
    rows = np.zeros((n, K), dtype=np.uint16)
    np.add.at(rows, (np.repeat(np.arange(n), 47), bins.ravel()), 1)
    return rows, ground


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_set_stop_byte_leaves_the_rows_as_they_were(backend: object) -> None:
    rows, ground = potential_like(40, 6)
    centers = rows[:3]
    labels, dists, lower = np.full(6, 7, dtype=np.uint16), np.full(6, 9, dtype=np.uint64), np.full(6, 2.5)
    args = (rows, centers, ground, labels, dists, lower, np.zeros(3), np.zeros(3))
    backend.transport_rows(*args, np.ones(1, dtype=np.uint8))  # type: ignore[attr-defined]
    assert labels.tolist() == [7] * 6 and dists.tolist() == [9] * 6 and lower.tolist() == [2.5] * 6
    backend.transport_rows(*args, np.zeros(1, dtype=np.uint8))  # type: ignore[attr-defined]
    assert labels.tolist()[:3] == [0, 1, 2] and dists.tolist()[:3] == [0, 0, 0]
    with pytest.raises(ValueError, match="optionally a stop byte"):
        backend.transport_rows(*args, np.ones(0, dtype=np.uint8))  # type: ignore[attr-defined]


CHILD = """
    import sys, threading, time
    import numpy as np
    sys.path.insert(0, {root!r})
    from tests.abstraction.test_emd_interrupts import potential_like
    from twoplustwo.abstraction.kmeans import kmeans
    from twoplustwo.kernels.choice import chosen

    K, k = {K}, 256
    rows, ground = potential_like(K, 4 * k)
    backend = chosen()
    # The first round's work for 8 rows: each against every center, with no label to start from.
    start = time.perf_counter()
    backend.transport_rows(rows[k : k + 8], rows[:k], ground, np.full(8, 0xFFFF, dtype=np.uint16),
                           np.empty(8, dtype=np.uint64), np.zeros(8), np.zeros(k), np.zeros(k))
    print(time.perf_counter() - start, flush=True)
    real = backend.transport_rows
    told = threading.Lock()

    def watched(*args):
        # A block of the rounds' rows, not a center's distance to the others; once, whichever thread is first.
        if len(args[0]) > 1 and told.acquire(blocking=False):
            print("assigning", flush=True)
        return real(*args)

    backend.transport_rows = watched
    kmeans(rows, k=k, metric="emd", ground=ground, threads=2, quiet=True)
    print("finished", flush=True)
"""


# Give up on a child that never reaches its clustering: a hang fails the test rather than holding the run.
TIMEOUT = 120.0


def read_line(proc: subprocess.Popen[str], timeout: float) -> str:
    """The child's next line of output, waiting at most ``timeout`` seconds for it."""
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    assert ready, f"no output from the child in {timeout:.0f} s"
    return proc.stdout.readline()


@pytest.mark.skipif(backend() != "c", reason="the numpy twin is a Python loop, which Ctrl-C stops between steps")
def test_ctrl_c_stops_an_emd_clustering_at_the_most_ground_points_within_a_few_steps() -> None:
    code = textwrap.dedent(CHILD).format(root=str(ROOT), K=MAX_GROUND)
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT)  # fmt: skip
    try:
        assert proc.stdout is not None
        eight = float(read_line(proc, TIMEOUT))
        line = read_line(proc, TIMEOUT + 64 * eight)
        assert line == "assigning\n", line
        time.sleep(0.2)  # well inside the call: its set-up alone takes longer
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60 + 64 * eight)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "KeyboardInterrupt" in err and "finished" not in out, err
    print(f"\nK = {MAX_GROUND}, k = 256: 8 rows take {eight:.2f} s, a call of 512 {64 * eight:.0f} s; "
          f"stopped {took:.3f} s after SIGINT")
    assert took < eight, (took, eight)
