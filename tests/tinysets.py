"""Tiny table sets, written through the builder's own ``stage()`` and ``publish()``.

Every node count is 1: each ``dagN/layerK`` holds 52 entries and
``dag7/value5`` and ``dag7/value6`` one each, all equal to a fill value. Such
a set is structurally complete (the reader loads and verifies it) and costs
milliseconds to write, so tests of the publish protocol (readers racing a
publisher, writers racing each other, writers killed at a chosen moment) need
no real build. File names carry a content hash, so two fill values share no
file and each publish replaces every file of the set before it. Nothing
walks a tiny set: its entries point at nodes that do not exist.

A child process is the writer when the test must kill it or race it::

    python -m tests.tinysets TARGET [--fills 1,2] [--rounds N | --seconds S] [--pause POINT]

It publishes sets cycling through the fill values and prints how many it
published. ``--pause`` stops it once, at the first set, at POINT: it prints
``paused POINT``, then waits for a line on stdin before going on, so a test
can SIGKILL it there or let it finish. The points:

- ``part``: the first array written into its ``.npy.part``, not yet renamed;
- ``npy``: the first array renamed to its ``.npy``, the second's ``.part`` just opened;
- ``staged``: the whole set and its manifest staged, ``publish()`` not yet called;
- ``published``: ``publish()`` returned (a writer that must not exit before the test kills it).

>>> sorted({a.size for a in tiny_arrays(3).values()}), len(tiny_arrays(3))
([1, 52], 20)
"""

from __future__ import annotations

import argparse
import hashlib
import signal
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from twoplustwo.tables.format import DAGS, FORMAT_VERSION, ROLES, layer_role, npy_header
from twoplustwo.tables.load import Tables
from twoplustwo_builder.write import publish, stage

ROOT = Path(__file__).resolve().parent.parent
PAUSE_POINTS = ("part", "npy", "staged", "published")
INFO: dict[str, Any] = {"nodes": {d: [1] * n for d, n in DAGS.items()}}


def tiny_arrays(fill: int) -> dict[str, npt.NDArray[np.uint8]]:
    """Every role of a table set, each entry ``fill``."""
    out = {layer_role(d, k): np.full(52, fill, dtype=np.uint8) for d, n in DAGS.items() for k in range(1, n + 1)}
    out["dag7/value5"] = np.full(1, fill, dtype=np.uint8)
    out["dag7/value6"] = np.full(1, fill, dtype=np.uint8)
    return out


def write_tiny(target: Path, fill: int) -> Path:
    """Stage and publish the tiny set of ``fill`` in ``target``; return ``target``."""
    return publish(stage(target, tiny_arrays(fill), INFO))


def is_tiny(t: Tables) -> bool:
    return t.nodes == INFO["nodes"]


def fill_of(t: Tables) -> int | None:
    """The fill value every array of a tiny set holds; None for a mixed or real set."""
    if not is_tiny(t):
        return None
    values = {int(v) for a in t.arrays.values() for v in np.unique(np.asarray(a))}
    return values.pop() if len(values) == 1 else None


def writer_cmd(target: Path, *options: str) -> list[str]:
    """The command line of a writer child (run it with ``cwd=ROOT``)."""
    return [sys.executable, "-m", "tests.tinysets", str(target), *options]


def _pause(point: str) -> None:
    print(f"paused {point}", flush=True)
    sys.stdin.readline()  # the test kills us here, or sends a line to go on


def _pause_inside_stage(point: str) -> None:
    # stage() writes each array as a .part file, hashes it, renames it to
    # its .npy name, then makes the next array's header: wrapping the hash
    # and the header stops the writer at those points without touching the
    # builder's code.
    from twoplustwo_builder import write

    real_hash, real_header = write.sha256_file, write.npy_header
    hashes = headers = 0  # calls of the hash; headers made (a too short try raises)
    paused = False

    def sha256_file(path: Any) -> str:
        nonlocal hashes
        hashes += 1
        if point == "part" and hashes == 1:
            _pause(point)  # the first array is complete on disk, still named .part
        return real_hash(path)

    def npy_header(*args: Any) -> bytes:
        nonlocal headers, paused
        if point == "npy" and headers == 1 and hashes == 1 and not paused:
            paused = True
            _pause(point)  # the next array begins: the first one is renamed to its .npy name
        header = real_header(*args)
        headers += 1
        return header

    write.sha256_file, write.npy_header = sha256_file, npy_header


def tiny_files(seed: int, games: tuple[str, ...] = ()) -> tuple[dict[str, Any], dict[str, bytes]]:
    """The tiny set as bytes, made without the builder: ``(manifest, {file name: bytes})``.

    Its bytes depend on ``seed``, for tests that craft bundles or stage files
    by hand. Each of ``games`` adds the 9 roles of its DAG ``<game>/dag7``.
    """
    parts = [f"layer{k}" for k in range(1, 8)] + ["value5", "value6"]
    roles = sorted(ROLES) + [f"{g}/dag7/{part}" for g in games for part in parts]
    nodes = {d: [1] * n for d, n in DAGS.items()} | {f"{g}/dag7": [1] * 7 for g in games}
    entries = []
    files = {}
    for role in roles:
        length = 52 if "/layer" in role else 1
        raw = npy_header("|u1", length, 128) + bytes([seed % 251]) * length
        sha = hashlib.sha256(raw).hexdigest()
        name = f"{role.replace('/', '.')}.{sha[:16]}.npy"
        files[name] = raw
        entries.append(
            {"name": name, "role": role, "dtype": "|u1", "shape": [length], "offset": 128, "nbytes": length}
        )
        entries[-1]["sha256"] = sha
    manifest = {"format_version": FORMAT_VERSION, "nodes": nodes, "files": entries}
    return manifest, files


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.tinysets", description="Publish tiny table sets.")
    p.add_argument("target", type=Path)
    p.add_argument("--fills", default="1,2", help="fill values to cycle through (default 1,2)")
    how_long = p.add_mutually_exclusive_group()
    how_long.add_argument("--rounds", type=int, default=1, help="sets to publish (default 1)")
    how_long.add_argument("--seconds", type=float, help="publish for this long instead")
    p.add_argument("--pause", choices=PAUSE_POINTS, help="stop once there and wait for a line on stdin")
    args = p.parse_args(argv)
    sets = [tiny_arrays(int(f)) for f in args.fills.split(",")]
    if args.pause in ("part", "npy"):
        _pause_inside_stage(args.pause)
    end = time.monotonic() + args.seconds if args.seconds is not None else None
    stopped: list[int] = []
    # SIGTERM ends the loop between publishes, never inside one.
    signal.signal(signal.SIGTERM, lambda signum, frame: stopped.append(signum))
    count = 0
    while not stopped and ((count < args.rounds) if end is None else (time.monotonic() < end)):
        staging = stage(args.target, sets[count % len(sets)], INFO)
        if args.pause == "staged" and count == 0:
            _pause(args.pause)
        publish(staging)
        if args.pause == "published" and count == 0:
            _pause(args.pause)
        count += 1
    print(count)
    return 0


if __name__ == "__main__":
    sys.exit(main())
