"""Figures that need a fresh interpreter: ``python -m bench.fresh PROBE [ARG]`` prints one JSON line.

A probe starts its clock before it imports anything of the project (this module and :mod:`bench`
import only the standard library), so every import it times is a first import.
"""

from __future__ import annotations

import json
import resource
import sys
import time
from collections.abc import Callable
from typing import Any

HAND = (0, 4, 8, 12, 17, 21, 25)
KEEP: list[object] = []


def load() -> dict[str, Any]:
    t0 = time.perf_counter()
    import twoplustwo

    t1 = time.perf_counter()
    tables = twoplustwo.load_tables()
    t2 = time.perf_counter()
    twoplustwo.evaluate(HAND, tables=tables)
    t3 = time.perf_counter()
    twoplustwo.equity(["As Ah", "Kd Kc"])  # on the default tables: their own load and cached blocks
    t4 = time.perf_counter()
    return {"import_s": t1 - t0, "load_tables_s": t2 - t1, "first_evaluate_s": t3 - t2, "total_s": t3 - t0,
            "import_and_first_preflop_equity_s": (t1 - t0) + (t4 - t3)}


def specialk() -> dict[str, Any]:
    t0 = time.perf_counter()
    from twoplustwo_builder.oracles import specialk

    specialk.evaluate([HAND])  # builds the 7-card table
    t1 = time.perf_counter()
    faces = [specialk.face_sum_table(k) for k in (5, 6, 7)]
    t2 = time.perf_counter()
    arrays = [specialk.CARD_KEYS, specialk.FLUSH_SUIT, specialk.FLUSH_VALUES, *faces]
    return {"first_evaluate_s": t1 - t0, "all_tables_s": t2 - t0, "nbytes": sum(int(a.nbytes) for a in arrays)}


def build(target: str) -> dict[str, Any]:
    t0 = time.perf_counter()
    from twoplustwo_builder.dag.pipeline import build

    t1 = time.perf_counter()
    r = build(target, quiet=True, check=False)
    t2 = time.perf_counter()
    # Read here, not as RUSAGE_CHILDREN in the parent, which would count every earlier child too.
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return {"import_s": t1 - t0, "wall_s": t2 - t1, "seconds": r.seconds, "nodes_before": r.nodes_before,
            "nodes": r.nodes, "nbytes": r.nbytes, "peak_bytes": peak}


def memory(n_hands: str) -> dict[str, Any]:
    """Load, evaluate and read every page; :mod:`bench.memory` measures the process afterwards."""
    import numpy as np

    import twoplustwo
    from bench.memory import random_hands

    tables = twoplustwo.load_tables()
    values = twoplustwo.evaluate_batch(random_hands(int(n_hands)), tables=tables)
    touched = sum(int(np.asarray(a).sum(dtype=np.uint64)) for a in tables.arrays.values())
    KEEP.append(tables)  # the maps go with the last reference to the tables, and must outlive this call
    return {"checksum": int(values.sum(dtype=np.uint64)), "touched": touched}


PROBES: dict[str, Callable[..., dict[str, Any]]] = {
    "load": load, "specialk": specialk, "build": build, "memory": memory
}

if __name__ == "__main__":
    probe, *args = sys.argv[1:]
    print(json.dumps(PROBES[probe](*args)), flush=True)
    if probe == "memory":
        sys.stdin.read()  # stay alive, pages mapped, until the parent has measured every process
