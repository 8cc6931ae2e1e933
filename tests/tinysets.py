"""Tiny table sets, written with the runtime's own publish protocol and no builder.

Every node count is 1: each ``dagN/layerK`` holds 52 entries and
``dag7/value5`` and ``dag7/value6`` one each, all equal to a fill value. Such
a set is structurally complete (the reader loads and verifies it) and costs
milliseconds to write, so tests of the publish protocol (readers racing a
publisher, writers racing each other, writers killed at a chosen moment) need
no real build. File names carry a content hash, so two fill values share no
file and each publish replaces every file of the set before it. Nothing
walks a tiny set: its entries point at nodes that do not exist.

:func:`stage_tiny` writes a set into a staging directory of
:func:`twoplustwo.tables.publish.new_staging`, each array as a ``.part`` file
renamed to its content name, as any writer must;
:func:`twoplustwo.tables.publish.publish` moves it into place. The runtime's
tests need nothing more. The builder's tests run the same writer through the
builder's ``stage()`` (``tests/builder/tinybuild.py``).

A child process is the writer when the test must kill it or race it::

    python -m tests.tinysets TARGET [--fills 1,2] [--rounds N | --seconds S] [--pause POINT] [--times FILE]

It publishes sets cycling through the fill values and prints how many it
published; ``--times`` writes when each one ran to FILE, as a JSON list of
``[start, end]`` pairs of ``time.monotonic()`` (one clock for every process
of the machine). ``--pause`` stops it once, at the first set, at POINT: it prints
``paused POINT``, then waits for a line on stdin before going on, so a test
can SIGKILL it there or let it finish. The points:

- ``staged``: the whole set and its manifest staged, ``publish()`` not yet called;
- ``published``: ``publish()`` returned (a writer that must not exit before the test kills it).

>>> sorted({a.size for a in tiny_arrays(3).values()}), len(tiny_arrays(3))
([1, 52], 20)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import signal
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from twoplustwo.tables.format import (
    DAGS,
    FORMAT_VERSION,
    MANIFEST,
    ROLES,
    dag_depth,
    layer_role,
    npy_header,
    parse_manifest,
)
from twoplustwo.tables.games import game_roles
from twoplustwo.tables.load import Tables
from twoplustwo.tables.publish import content_name, discard, new_staging, publish
from twoplustwo.vocab.rules import rules_of

ROOT = Path(__file__).resolve().parent.parent
#: Where every writer can stop itself, around ``publish()``.
PAUSE_POINTS = ("staged", "published")
INFO: dict[str, Any] = {"nodes": {d: [1] * n for d, n in DAGS.items()}}
#: The header of every tiny array ends at this offset, as numpy's own does for them.
OFFSET = 128

#: ``stage(target, arrays, info)``: writes a set into a new staging directory of ``target``, returns it.
Stage = Callable[[Path, dict[str, npt.NDArray[np.uint8]], dict[str, Any]], Path]


def tiny_arrays(fill: int) -> dict[str, npt.NDArray[np.uint8]]:
    """Every role of a table set, each entry ``fill``."""
    out = {layer_role(d, k): np.full(52, fill, dtype=np.uint8) for d, n in DAGS.items() for k in range(1, n + 1)}
    out["dag7/value5"] = np.full(1, fill, dtype=np.uint8)
    out["dag7/value6"] = np.full(1, fill, dtype=np.uint8)
    return out


def stage_tiny(target: Path, arrays: dict[str, npt.NDArray[np.uint8]], info: dict[str, Any]) -> Path:
    """Stage ``arrays`` (uint8, 1-D) and their manifest in a new staging directory of ``target``; return it."""
    staging = new_staging(target)
    try:
        entries = []
        for role in sorted(arrays):
            a = np.ascontiguousarray(arrays[role], dtype=np.uint8)
            raw = npy_header(a.dtype.str, a.size, OFFSET) + a.tobytes()
            part = staging / (role.replace("/", ".") + ".npy.part")
            part.write_bytes(raw)
            sha = hashlib.sha256(raw).hexdigest()
            name = content_name(role, sha)
            os.replace(part, staging / name)
            entries.append({"name": name, "role": role, "dtype": a.dtype.str, "shape": [a.size],
                            "offset": OFFSET, "nbytes": a.size, "sha256": sha})  # fmt: skip
        text = json.dumps({"format_version": FORMAT_VERSION, **info, "files": entries}, indent=2) + "\n"
        parse_manifest(text, strict=True)  # what publish() would refuse fails here, with the staging removed
        (staging / MANIFEST).write_text(text)
    except BaseException:
        discard(staging)
        raise
    return staging


def write_tiny(target: Path, fill: int) -> Path:
    """Stage and publish the tiny set of ``fill`` in ``target``; return ``target``."""
    return publish(stage_tiny(target, tiny_arrays(fill), INFO))


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


def pause(point: str) -> None:
    """Say ``paused POINT`` and wait for a line on stdin (the test kills the writer here, or sends one)."""
    print(f"paused {point}", flush=True)
    sys.stdin.readline()


def tiny_files(seed: int, games: tuple[str, ...] = ()) -> tuple[dict[str, Any], dict[str, bytes]]:
    """The tiny set as bytes, made in memory: ``(manifest, {file name: bytes})``.

    Its bytes depend on ``seed``, for tests that craft bundles or stage files
    by hand. Each of ``games`` adds the roles of its DAG (short deck's 9 of
    ``<game>/dag7``, badugi's 4 of ``badugi/dag4``; stud's are hold'em's).
    """
    roles = sorted(ROLES) + [r for g in games for r in game_roles(rules_of(g)) if r not in ROLES]
    nodes = {d: [1] * n for d, n in DAGS.items()}
    for g in games:
        nodes |= {dag: [1] * dag_depth(dag) for dag in {rules_of(g).layout(n)[0] for n in rules_of(g).sizes}}
    entries = []
    files = {}
    for role in roles:
        length = 52 if "/layer" in role else 1
        raw = npy_header("|u1", length, OFFSET) + bytes([seed % 251]) * length
        sha = hashlib.sha256(raw).hexdigest()
        name = content_name(role, sha)
        files[name] = raw
        entries.append(
            {"name": name, "role": role, "dtype": "|u1", "shape": [length], "offset": OFFSET, "nbytes": length}
        )
        entries[-1]["sha256"] = sha
    manifest = {"format_version": FORMAT_VERSION, "nodes": nodes, "files": entries}
    return manifest, files


def main(
    argv: list[str] | None = None,
    *,
    stage: Stage = stage_tiny,
    inside: Mapping[str, Callable[[str], None]] | None = None,
    prog: str = "python -m tests.tinysets",
) -> int:
    """Publish tiny sets as the command line says, each staged by ``stage``.

    ``inside`` adds pause points within ``stage``: each maps a point's name
    to what arms it (called once with the name, before the first set).
    """
    inside = inside or {}
    p = argparse.ArgumentParser(prog=prog, description="Publish tiny table sets.")
    p.add_argument("target", type=Path)
    p.add_argument("--fills", default="1,2", help="fill values to cycle through (default 1,2)")
    how_long = p.add_mutually_exclusive_group()
    how_long.add_argument("--rounds", type=int, default=1, help="sets to publish (default 1)")
    how_long.add_argument("--seconds", type=float, help="publish for this long instead")
    p.add_argument("--pause", choices=(*inside, *PAUSE_POINTS), help="stop once there and wait for a line on stdin")
    p.add_argument("--times", type=Path, help="write when each publish ran to this file (JSON)")
    args = p.parse_args(argv)
    sets = [tiny_arrays(int(f)) for f in args.fills.split(",")]
    if args.pause in inside:
        inside[args.pause](args.pause)
    end = time.monotonic() + args.seconds if args.seconds is not None else None
    stopped: list[int] = []
    # SIGTERM ends the loop between publishes, never inside one.
    signal.signal(signal.SIGTERM, lambda signum, frame: stopped.append(signum))
    count = 0
    times: list[tuple[float, float]] = []
    while not stopped and ((count < args.rounds) if end is None else (time.monotonic() < end)):
        staging = stage(args.target, sets[count % len(sets)], INFO)
        if args.pause == "staged" and count == 0:
            pause(args.pause)
        began = time.monotonic()
        publish(staging)
        times.append((began, time.monotonic()))
        if args.pause == "published" and count == 0:
            pause(args.pause)
        count += 1
    if args.times is not None:
        args.times.write_text(json.dumps(times))
    print(count)
    return 0


if __name__ == "__main__":
    sys.exit(main())
