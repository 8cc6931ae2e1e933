"""Memory of processes sharing one table set: RSS and PSS with 1 and then 4 processes at once.

Each process loads the tables, evaluates :data:`N_HANDS` fixed-seed 7-card
hands with ``evaluate_batch`` and reads every page of every array, then
waits while all of them are measured alive: the table mappings from
``/proc/<pid>/smaps`` (mappings of files in the tables directory) and the
whole process from ``/proc/<pid>/smaps_rollup``. RSS counts every resident
page a process maps; PSS (proportional set size) splits each shared page
evenly between the processes mapping it, so summed PSS is what the
processes cost the machine together. Read-only memory maps of one file
share the page cache, so 4 processes should sum to about one copy of the
tables, not four.

The processes read a private copy of the tables made for the run: any other
process on the machine that maps the usual tables would otherwise take a
share of their pages and make the figures look better than they are.

``python -m bench.memory`` prints the report; :func:`section` returns it
for ``python -m bench``. Linux only (``/proc``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from . import ROOT, child_env, markdown_table

__all__ = ["N_HANDS", "PROCESS_COUNTS", "measure", "other_mappers", "private_copy", "section"]

#: Hands each process evaluates before it is measured.
N_HANDS = 1_000_000
#: Processes at once, one measurement per entry.
PROCESS_COUNTS = (1, 4)
SEED = 20261122

# Runs in each measured process: load, evaluate, touch every page, report,
# then block until the parent closes stdin so all stay alive while measured.
_CHILD = """
import json, sys
import numpy as np
from twoplustwo_builder.hands import random_hands
from twoplustwo.evaluate import evaluate_batch
from twoplustwo.tables import get_tables

t = get_tables()
values = evaluate_batch(random_hands(int(sys.argv[1]), 7, seed=int(sys.argv[2])))
touched = sum(int(np.asarray(a).sum(dtype=np.uint64)) for a in t.arrays.values())
print(json.dumps({"checksum": int(values.sum(dtype=np.uint64)), "touched": touched}), flush=True)
sys.stdin.read()
"""


def private_copy(dst: Path) -> Path:
    """Copy the default table set into ``dst`` (new inodes, so pages no other process maps)."""
    from twoplustwo.format import MANIFEST
    from twoplustwo.tables import load_tables

    src = load_tables()
    dst.mkdir(parents=True, exist_ok=True)
    for f in src.manifest["files"]:
        shutil.copyfile(src.path / f["name"], dst / f["name"])
    shutil.copyfile(src.path / MANIFEST, dst / MANIFEST)
    return dst.resolve()


def _smaps(pid: int, under: Path) -> dict[str, int]:
    """kB of Rss, Pss and Shared (clean or dirty) over the mappings of files under ``under``."""
    prefix = str(under) + os.sep
    totals = {"Rss": 0, "Pss": 0, "Shared": 0}
    inside = False
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            first = line.split(maxsplit=1)[0]
            if not first.endswith(":"):  # a mapping's header: range perms offset dev inode [path]
                parts = line.split(maxsplit=5)
                inside = len(parts) == 6 and parts[5].strip().startswith(prefix)
            elif inside and first[:-1] in totals:
                totals[first[:-1]] += int(line.split()[1])
            elif inside and first in ("Shared_Clean:", "Shared_Dirty:"):
                # A fresh copy's pages stay dirty until written back; shared either way.
                totals["Shared"] += int(line.split()[1])
    return totals


def _rollup(pid: int) -> dict[str, int]:
    """kB of Rss and Pss of the whole process."""
    out = {}
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            key, _, rest = line.partition(":")
            if key in ("Rss", "Pss"):
                out[key] = int(rest.split()[0])
    return out


def other_mappers(under: Path, exclude: set[int]) -> list[int]:
    """Pids, besides ``exclude``, that map a file under ``under`` (they take a share of the PSS)."""
    prefix = str(under) + os.sep
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in exclude:
            continue
        try:
            with open(f"/proc/{entry}/maps") as f:
                if any(prefix in line for line in f):
                    found.append(int(entry))
        except OSError:  # gone, or not ours to read
            continue
    return found


def measure(n: int, tables: Path) -> tuple[list[dict[str, Any]], list[int]]:
    """Run ``n`` processes at once on ``tables``; their figures (kB), and other pids mapping those tables."""
    env = child_env(TWOPLUSTWO_TABLES=str(tables))
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _CHILD, str(N_HANDS), str(SEED)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=env,
        )
        for _ in range(n)
    ]
    try:
        out = []
        for p in procs:
            line = p.stdout.readline()  # type: ignore[union-attr]
            if not line:
                raise RuntimeError(f"measured process {p.pid} died (exit {p.wait()})")
            out.append(json.loads(line))
        for p, report in zip(procs, out):
            report.update(pid=p.pid, tables=_smaps(p.pid, tables), total=_rollup(p.pid))
        others = other_mappers(tables, {p.pid for p in procs})
    finally:
        for p in procs:
            p.stdin.close()  # type: ignore[union-attr]
        for p in procs:
            p.wait()
    if len({r["checksum"] for r in out}) != 1:
        raise RuntimeError("the processes disagree on the same hands")
    return out, others


def _mib(kb: float) -> str:
    return f"{kb / 1024:.1f}"


def section() -> list[str]:
    """Markdown lines: RSS and PSS per process and summed, for 1 and 4 processes at once."""
    lines = ["## Memory: processes sharing the tables", ""]
    if not Path("/proc/self/smaps_rollup").exists():
        return lines + ["_Skipped: needs Linux `/proc/<pid>/smaps`._"]
    with tempfile.TemporaryDirectory(prefix="twoplustwo-memory-") as tmp:
        tables = private_copy(Path(tmp) / "tables")
        table_bytes = sum(p.stat().st_size for p in tables.glob("*.npy"))
        rows = []
        summed: dict[int, float] = {}
        others_seen: set[int] = set()
        for n in PROCESS_COUNTS:
            print(f"memory: {n} process(es) evaluating {N_HANDS:,} hands each", file=sys.stderr, flush=True)
            reports, others = measure(n, tables)
            others_seen.update(others)
            for i, r in enumerate(reports, start=1):
                t, total = r["tables"], r["total"]
                rows.append([str(n), str(i), *(_mib(v) for v in (t["Rss"], t["Pss"], t["Shared"], total["Rss"], total["Pss"]))])
            sums = [sum(r["tables"][k] for r in reports) for k in ("Rss", "Pss", "Shared")]
            sums += [sum(r["total"][k] for r in reports) for k in ("Rss", "Pss")]
            if n > 1:
                rows.append([str(n), "sum", *(_mib(v) for v in sums)])
            summed[n] = sums[1]

    one, many = summed[PROCESS_COUNTS[0]], summed[PROCESS_COUNTS[-1]]
    lines += [
        f"Each process evaluates {N_HANDS:,} random 7-card hands and reads every page of a "
        f"private copy of the tables ({table_bytes / 2**20:.1f} MiB of files); all are measured "
        "while alive. MiB; \"tables\" sums the table file mappings, \"total\" is the whole process.",
        "",
        *markdown_table(
            ["processes", "process", "tables RSS", "tables PSS", "tables shared", "total RSS", "total PSS"], rows
        ),
        "",
        f"Summed table PSS: {_mib(one)} MiB for {PROCESS_COUNTS[0]} process, {_mib(many)} MiB for "
        f"{PROCESS_COUNTS[-1]} at once ({many / one:.2f}x; {PROCESS_COUNTS[-1]} private copies would be "
        f"{PROCESS_COUNTS[-1]:.2f}x, {_mib(PROCESS_COUNTS[-1] * table_bytes / 1024)} MiB).",
    ]
    if others_seen:
        lines.append(
            f"{len(others_seen)} other process(es) mapped the copied tables during the run and took "
            "a share of their PSS."
        )
    return lines


if __name__ == "__main__":
    print("\n".join(section()))
