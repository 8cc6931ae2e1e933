"""Memory of processes sharing one table set: RSS and PSS of 1, then 4 processes at once (Linux ``/proc``).

Each process (:func:`bench.fresh.memory`) evaluates :data:`N_HANDS` hands and reads every page of the
tables, then waits while all are measured. PSS splits each shared page between the processes mapping
it, so summed PSS is what they cost together: about one copy if the read-only maps share the page
cache. They read a private copy of the tables, so that no other process takes a share of the pages.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from twoplustwo import load_tables

from . import ROOT, SEED, fresh_command, say

N_HANDS = 1_000_000
PROCESS_COUNTS = (1, 4)


def random_hands(n: int, seed: int = SEED) -> Any:
    """``n`` random 7-card hands as a uint8 array, from numpy alone: measuring the runtime needs no builder."""
    import numpy as np

    rng = np.random.default_rng(seed)
    # The 7 smallest of a row's 52 keys pick a uniform hand in uniform card
    # order; blocks of rows bound the keys' memory.
    hands = np.empty((n, 7), dtype=np.uint8)
    for lo in range(0, n, 1 << 16):
        hands[lo : lo + (1 << 16)] = np.argsort(rng.random((min(1 << 16, n - lo), 52)), axis=1)[:, :7]
    return hands


def private_copy(dst: Path) -> Path:
    """Copy the default table set into ``dst`` (new inodes, so pages no other process maps)."""
    src = load_tables()
    dst.mkdir(parents=True, exist_ok=True)
    for name in [f["name"] for f in src.manifest["files"]] + ["manifest.json"]:
        shutil.copyfile(src.path / name, dst / name)
    return dst.resolve()


def _smaps(pid: int, under: Path) -> dict[str, int]:
    """kB of Rss, Pss and Shared (clean or dirty: a fresh copy stays dirty a while) of files under ``under``."""
    totals = {"Rss": 0, "Pss": 0, "Shared": 0}
    inside = False
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            key, *rest = line.split()
            if not key.endswith(":"):  # a mapping's header: range perms offset dev inode [path]
                inside = len(rest) == 5 and rest[4].startswith(f"{under}{os.sep}")
            elif inside and key in ("Rss:", "Pss:", "Shared_Clean:", "Shared_Dirty:"):
                totals[key[:-1].split("_")[0]] += int(rest[0])
    return totals


def _rollup(pid: int) -> dict[str, int]:
    with open(f"/proc/{pid}/smaps_rollup") as f:
        return {k[:-1]: int(v) for k, v, *_ in (line.split() for line in f) if k in ("Rss:", "Pss:")}


def other_mappers(under: Path, exclude: set[int]) -> list[int]:
    """Pids, besides ``exclude``, that map a file under ``under`` (they take a share of the PSS)."""
    found = []
    for pid in {int(e) for e in os.listdir("/proc") if e.isdigit()} - exclude:
        try:
            with open(f"/proc/{pid}/maps") as f:
                if any(f"{under}{os.sep}" in line for line in f):
                    found.append(pid)
        except OSError:  # gone, or not ours to read
            pass
    return found


def measure(n: int, tables: Path) -> tuple[list[dict[str, Any]], list[int]]:
    """Run ``n`` processes at once on ``tables``; their figures (kB), and other pids mapping those tables."""
    env = dict(os.environ, TWOPLUSTWO_TABLES=str(tables))
    cmd = fresh_command("memory", str(N_HANDS))
    procs = [subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT, env=env) for _ in range(n)]
    try:
        out = [json.loads(p.stdout.readline() or b"null") for p in procs if p.stdout]
        if None in out:
            raise RuntimeError("a measured process died")
        # Only once every process is loaded, so that each measurement sees all the sharers.
        for p, r in zip(procs, out):
            r.update(pid=p.pid, tables=_smaps(p.pid, tables), total=_rollup(p.pid))
        others = other_mappers(tables, {p.pid for p in procs})
    finally:
        for p in procs:
            p.communicate()  # closes its stdin, which ends it
    if len({r["checksum"] for r in out}) != 1:
        raise RuntimeError("the processes disagree on the same hands")
    return out, others


def run() -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    summed: dict[str, float] = {}
    others: set[int] = set()
    with tempfile.TemporaryDirectory(prefix="twoplustwo-memory-") as tmp:
        tables = private_copy(Path(tmp) / "tables")
        for n in PROCESS_COUNTS:
            say(f"memory: {n} process(es) evaluating {N_HANDS:,} hands each")
            reports, seen = measure(n, tables)
            others.update(seen)
            for i, r in enumerate(reports, start=1):
                row = {"processes": n, "process": str(i)}
                row |= {f"tables {k} MiB": r["tables"][k] / 1024 for k in ("Rss", "Pss", "Shared")}
                rows.append(row | {f"total {k} MiB": r["total"][k] / 1024 for k in ("Rss", "Pss")})
            if n > 1:
                rows.append({"processes": n, "process": "sum"} | {k: sum(r[k] for r in rows[-n:]) for k in rows[-1]
                                                                  if k.endswith("MiB")})
            summed[str(n)] = sum(r["tables"]["Pss"] for r in reports) / 1024
    return {
        "about": f"each process evaluates {N_HANDS:,} random 7-card hands (seed {SEED}) and reads every page of a "
        "private copy of the tables; measured alive; tables: the table file mappings, total: the whole process",
        "table_bytes": load_tables().nbytes,
        "processes": rows,
        "summed_table_pss_mib": summed,
        "other_processes_mapping_the_copy": len(others),
    }
