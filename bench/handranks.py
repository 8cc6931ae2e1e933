"""The classic ``HandRanks.dat`` export: its time and size, and a C walk of it against the same walk of our layers.

The export goes to a scratch directory. ``bench/handranks_walk.c``, built with the system C compiler, first
checks both layouts against each other on every 7-card hand (untimed), then times each walk: every 7-card hand
in order (nested loops, one read per level), and :data:`N_RANDOM` hands of 7 random cards seeded with
:data:`bench.SEED`. The fastest of :data:`REPEATS` runs counts; the sums of the values each walk read are its
checksums.

On the same random hands it also times every read the walk makes with no read waiting on another: what the
memory gives those reads, a reference for how close a walk comes to it (not a bound: a walk knows its next read
only once the last arrives). ``evaluate_batch`` (1 thread, checked) runs on the same hands in this section, so
the two compare directly.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

import twoplustwo
from twoplustwo.hands.handranks import export_handranks, handranks_value
from twoplustwo.tables.default import load_tables
from twoplustwo.tables.pages import uncache
from twoplustwo.vocab.values import N_VALUES
from twoplustwo_builder.testdata.hands import random_hands

from . import SEED, best_of, say

SOURCE = Path(__file__).with_name("handranks_walk.c")
N_RANDOM = 10_000_000
REPEATS = 3
#: Entries of the original generator's file, as issue 17 gives them.
ORIGINAL_ENTRIES = 32_487_834


def _compiler() -> str:
    for name in ("cc", "gcc", "clang"):
        if path := shutil.which(name):
            return path
    raise RuntimeError("the handranks bench needs a C compiler (cc, gcc or clang) on PATH")


def _checked(cmd: list[str]) -> str:
    """The stdout of ``cmd``; its stderr in the error if it fails."""
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{Path(cmd[0]).name} failed with status {r.returncode}: {r.stderr.strip()}")
    return r.stdout


def run() -> dict[str, Any]:
    t = load_tables()
    files = {f["role"]: f for f in t.manifest["files"]}
    with tempfile.TemporaryDirectory(prefix="twoplustwo-handranks-") as scratch:
        tmp = Path(scratch)
        say("handranks: export")
        start = time.perf_counter()
        out = export_handranks(tmp / "HandRanks.dat", tables=t, quiet=True)
        export_s = time.perf_counter() - start
        # Written in pieces, the export is cached in small ones; read afresh it
        # maps with 2 MiB pages, as the layers do, so the walks compare layouts only.
        uncache(out)
        file_bytes = out.stat().st_size

        expected = np.zeros(N_VALUES + 1, dtype="<i4")
        expected[1:] = handranks_value(np.arange(1, N_VALUES + 1))
        expected.tofile(tmp / "expected.bin")
        exe = tmp / "handranks_walk"
        cmd = [_compiler(), "-O2", "-std=c99", "-Wall", "-Wextra", "-Werror", "-o", str(exe), str(SOURCE)]
        _checked(cmd)
        hands = np.ascontiguousarray(random_hands(N_RANDOM, 7, seed=SEED), dtype=np.uint8)
        hands.tofile(tmp / "hands.bin")
        args = [str(exe), str(out), str(tmp / "expected.bin"), str(tmp / "hands.bin"), str(REPEATS)]
        for k in range(1, 8):
            f = files[f"dag7/layer{k}"]
            args += [str(t.path / f["name"]), str(f["offset"]), str(np.dtype(f["dtype"]).itemsize), str(f["shape"][0])]
        say(f"handranks: C walks, all 7-card hands in order and {N_RANDOM:,} random hands, best of {REPEATS}")
        walks = json.loads(_checked(args))
    say(f"handranks: evaluate_batch of the same random hands, 1 thread, best of {REPEATS}")
    batch_s, values = best_of(twoplustwo.evaluate_batch, hands, threads=1, repeats=REPEATS)

    rows = []
    for order, w in (("in order", walks["in_order"]), ("random", walks["random"])):
        for layout, key in (("HandRanks.dat export", "handranks"), ("typed dag7 layers", "layers")):
            rows.append({"order": order, "layout": layout, "hands": w["hands"], "seconds": w[f"{key}_s"],
                         "hands_per_s": w["hands"] / w[f"{key}_s"], "checksum": format(w[key + "_sum"], "x"),
                         "agrees": w["mismatches"] == 0})
    say(f"handranks: export {export_s:.2f} s, {file_bytes:,} bytes; checksums "
        + ", ".join(f"{r['order']} {r['layout']} {r['checksum']}" for r in rows))
    return {
        "export_s": export_s,
        "file_bytes": file_bytes,
        "original_bytes": 4 * ORIGINAL_ENTRIES,
        "random_seed": SEED,
        "walks": rows,
        # The random walk's reads with none waiting on another: what the memory gives them.
        "reference": {"hands": N_RANDOM, "independent_reads_s": walks["random"]["independent_reads_s"],
                    "hands_per_s": N_RANDOM / walks["random"]["independent_reads_s"],
                    "checksum": format(walks["random"]["independent_reads_sum"], "x"),
                    "evaluate_batch_s": batch_s, "evaluate_batch_hands_per_s": N_RANDOM / batch_s,
                    # The C walk summed the values it read; evaluate_batch must give the same sum.
                    "evaluate_batch_agrees": int(values.sum(dtype=np.uint64)) == walks["random"]["layers_sum"],
                    "backend": twoplustwo.backend()},
        # Above 1: our layers walk faster than the export.
        "layers_speed_over_handranks": {
            order: walks[key]["handranks_s"] / walks[key]["layers_s"]
            for order, key in (("in order", "in_order"), ("random", "random"))
        },
    }
