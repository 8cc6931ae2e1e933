"""The bucket tables for card abstraction, built whole with k = 200, as ``twoplustwo abstraction`` builds them.

On a scratch copy of the table set (the strength tables built there first, and timed), each table is
built by its own ``python -m twoplustwo_builder --abstraction`` process, so that its peak resident memory
is its own (its ``VmHWM``, sampled). Each row gives the seconds, the peak, the within-bucket mean earth mover's
distance beside that of the percentile buckets of the same k (the baseline the clustering must beat),
and the rounds. The table read back through ``twoplustwo.buckets`` gives the checksum.

``python -m bench.abstraction`` runs this section alone and prints its figures.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

import twoplustwo
from twoplustwo.tables.load import default_path

from . import say

K = 200
# The flop's potential buckets count turns by the turn emd buckets: after them.
BUILDS = [("flop", "emd"), ("turn", "emd"), ("flop", "potential"), ("river", "ochs"), ("flop", "percentile"),
          ("turn", "percentile"), ("river", "percentile")]  # fmt: skip


def _builder(target: Path, *args: str) -> tuple[float, int]:
    """Seconds and peak resident bytes of one ``python -m twoplustwo_builder`` run on ``target``.

    The peak is the child's own high-water mark (``VmHWM``), sampled until it
    exits: a child's ``ru_maxrss`` would count this process's memory too,
    which a fork lends it before the builder runs.
    """
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "twoplustwo_builder", "--out", str(target), "--quiet", *args])
    status, peak = Path(f"/proc/{child.pid}/status"), 0
    while child.poll() is None:
        try:
            for line in status.read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peak = max(peak, int(line.split()[1]) * 1024)
        except OSError:
            pass  # gone between poll() and the read
        time.sleep(0.02)
    if child.returncode:
        raise RuntimeError(f"twoplustwo_builder {' '.join(args)} failed ({child.returncode})")
    return time.perf_counter() - start, peak


def run() -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="tpt-abstraction-") as scratch:
        target = Path(scratch) / "tables"
        shutil.copytree(default_path(), target, ignore=shutil.ignore_patterns(".*"))
        say("abstraction: the strength tables, first")
        seconds, peak = _builder(target, "--strength")
        rows.append({"figure": "strength tables, built and published", "seconds": seconds, "peak_bytes": peak})
        for street, method in BUILDS:
            say(f"abstraction: {street} {method} k={K}")
            seconds, peak = _builder(target, "--abstraction", "--street", street, "--method", method, "--k", str(K))
            t = twoplustwo.load_tables(target)
            summary = t.manifest["buckets"][f"{street}/{method}/{K}"]
            table = twoplustwo.buckets(street, method, K, tables=t)
            sizes = np.bincount(table, minlength=K)
            row = {"figure": f"{street} {method}, k = {K}", "seconds": seconds, "peak_bytes": peak,
                   "checksum": int(table.sum(dtype=np.uint64)), "empty_buckets": int((sizes == 0).sum())}  # fmt: skip
            if "mean_distance" in summary:
                keys = ("distance", "mean_distance", "percentile_mean_distance", "iterations", "converged")
                row |= {key: summary[key] for key in keys}
                row["agrees"] = summary["mean_distance"] < summary["percentile_mean_distance"]
            rows.append(row)
            del t, table
    return {"k": K, "rows": rows}


if __name__ == "__main__":
    json.dump(run(), sys.stdout, indent=1)
    print()
