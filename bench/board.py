"""Board analysis: ``classify_batch`` of random hands on each street, ``board_report`` and ``flop_report``.

Each figure is the fastest of :data:`~bench.REPEATS` warm calls (``flop_report`` with a villain: of one),
against the goals of issue 39: ``classify`` batch at 50 M hands a second or more on one thread;
``board_report`` of all 1,326 combos on a flop within 1 ms, 20 ms with a villain; ``flop_report`` within 2 s,
60 s with a villain on 2 threads.

``python -m bench.board`` runs this section alone and prints its figures.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import numpy as np

import twoplustwo
from twoplustwo.kernels.choice import chosen

from . import N_BATCH, SEED, best_of, say

FLOP = "Qh 7c 2d"
VILLAIN = "QQ+,AKs,[50]JTs[/50],[25]A5s-A2s[/25]"


def run() -> dict[str, Any]:
    rng = np.random.default_rng(SEED)
    rows: list[dict[str, Any]] = []
    for street, k in (("flop", 3), ("turn", 4), ("river", 5)):
        say(f"board: classify_batch of {N_BATCH:,} random hands, {street}, one thread")
        cards = np.argsort(rng.random((N_BATCH, 52)), axis=1)[:, : 2 + k].astype(np.uint8)
        holes, boards = np.ascontiguousarray(cards[:, :2]), np.ascontiguousarray(cards[:, 2:])
        seconds, (made, draws) = best_of(twoplustwo.classify_batch, holes, boards, threads=1)
        rows.append({"figure": f"classify_batch, {N_BATCH:,} random hands, {street}, one thread", "seconds": seconds,
                     "rate": N_BATCH / seconds, "goal_rate": 50e6,
                     "checksum": int(made.sum(dtype=np.int64) * 256 + draws.sum(dtype=np.int64))})
        made, draws = np.empty(N_BATCH, np.uint8), np.empty(N_BATCH, np.uint8)
        kernel_s, _ = best_of(chosen().classify_rows, holes, boards, made, draws)
        rows.append({"figure": f"the kernel classify_rows alone, {street}", "seconds": kernel_s,
                     "rate": N_BATCH / kernel_s})
    hero = twoplustwo.parse_range("random")
    say("board: board_report of all 1,326 combos on a flop")
    seconds, r = best_of(twoplustwo.board_report, hero, FLOP)
    rows.append({"figure": f"board_report, all 1,326 combos, flop {FLOP}", "seconds": seconds, "goal_seconds": 1e-3,
                 "checksum": r.made["top pair"]})
    seconds, r = best_of(twoplustwo.board_report, hero, FLOP, villain=VILLAIN)
    rows.append({"figure": "board_report with a villain", "seconds": seconds, "goal_seconds": 20e-3,
                 "checksum": round(float(r.equity or 0.0), 12)})
    say("board: flop_report of all 1,326 combos")
    seconds, f = best_of(twoplustwo.flop_report, hero, repeats=3)
    rows.append({"figure": "flop_report, all 1,326 combos, 1,755 flops", "seconds": seconds, "goal_seconds": 2.0,
                 "checksum": round(f.made_share["set"], 12)})
    say("board: flop_report with a villain, 2 threads (about a minute)")
    seconds, f = best_of(twoplustwo.flop_report, hero, villain=VILLAIN, threads=2, quiet=True, repeats=1)
    rows.append({"figure": "flop_report with a villain, 2 threads", "seconds": seconds, "goal_seconds": 60.0,
                 "checksum": round((f.class_equity or {})["set"], 12)})
    return {"about": f"flop {FLOP}; villain {VILLAIN!r}; hero every combo; best of warm calls", "rows": rows}


if __name__ == "__main__":
    json.dump(run(), sys.stdout, indent=1)
    print()
