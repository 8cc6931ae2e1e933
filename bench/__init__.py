"""Benchmarks: ``python -m bench`` measures into ``bench/results.json``, ``python -m bench.peers`` into
``bench/peers.json``, and ``python -m bench.render`` (run by both) makes ``bench/results.md`` and the
performance table of ``README.md`` from them.

Only the standard library is imported here: the peers' virtualenv (no numpy) and the fresh
interpreters of :mod:`bench.fresh` (whose first imports are what they time) import this too.
"""

from __future__ import annotations

import gc
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).with_name("results.json")
PEERS_RESULTS = Path(__file__).with_name("peers.json")

#: The seed of every random input, so that reruns, sections and peers time the same hands.
SEED = 20_240_601
N_BATCH = 1_000_000
N_SINGLE = 100_000
#: Timed runs per figure unless a section says otherwise; the fastest counts.
REPEATS = 5
THREADS = (1, 2)

T = TypeVar("T")


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def best_of(fn: Callable[..., T], *args: Any, repeats: int = REPEATS, **kwargs: Any) -> tuple[float, T]:
    """Seconds of the fastest of ``repeats`` calls ``fn(*args, **kwargs)``, and the last result.

    The collector is off while timing, as in :mod:`timeit`: a collection owed to earlier work lands nowhere.
    """
    best = float("inf")
    for _ in range(repeats):
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            result = fn(*args, **kwargs)
            best = min(best, time.perf_counter() - start)
        finally:
            gc.enable()
    return best, result


def per_call(fn: Callable[[Any], object], hands: Sequence[Any], repeats: int = REPEATS) -> float:
    """Calls per second of ``fn``, one call per hand in a plain loop (the loop's cost included)."""

    def loop() -> None:
        for h in hands:
            fn(h)

    return len(hands) / best_of(loop, repeats=repeats)[0]


def single_hands() -> list[tuple[int, ...]]:
    """The fixed-seed 7-card hands of every single-hand figure, here and in the peers' run."""
    rng = random.Random(SEED)
    return [tuple(rng.sample(range(52), 7)) for _ in range(N_SINGLE)]


def checksum(values: Any) -> str:
    """First 12 hex digits of the SHA-256 of values (1..7462) as little-endian uint16.

    ``values`` is one array or sequence, or an iterator of arrays hashed as if concatenated.
    """
    import hashlib

    import numpy as np

    h = hashlib.sha256()
    for chunk in values if isinstance(values, Iterator) else [values]:
        h.update(np.asarray(chunk).astype("<u2").tobytes())
    return h.hexdigest()[:12]


def fresh_command(probe: str, *args: str) -> list[str]:
    return [sys.executable, "-m", "bench.fresh", probe, *args]


def fresh(probe: str, *args: str, times: int = 1) -> dict[str, Any]:
    """Run a :mod:`bench.fresh` probe ``times`` times; the median of each figure it reports."""
    cmd = fresh_command(probe, *args)
    runs = [json.loads(subprocess.run(cmd, capture_output=True, check=True, cwd=ROOT).stdout.splitlines()[-1])
            for _ in range(times)]
    return {k: statistics.median(r[k] for r in runs) if isinstance(v, float) else v for k, v in runs[0].items()}


def machine() -> dict[str, Any]:
    """Where and when the figures were taken (Linux)."""
    import numpy as np

    with open("/proc/cpuinfo") as f:
        cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), platform.machine())
    from twoplustwo.tables.default import load_tables
    from twoplustwo.tables.pages import huge_page_bytes

    # How the tables' large files are mapped: random walks run about 1.35x as fast with 2 MiB pages.
    pages = huge_page_bytes(load_tables())
    return {"cpu": cpu, "cores": os.cpu_count(), "usable_cores": len(os.sched_getaffinity(0)),
            "system": f"{platform.machine()} {platform.system()}", "python": platform.python_version(),
            "numpy": np.__version__, "date": time.strftime("%Y-%m-%d"), "load_average": os.getloadavg()[0],
            "huge_page_bytes": None if pages is None else sum(h for h, _ in pages.values()),
            "large_file_bytes": None if pages is None else sum(n for _, n in pages.values())}
