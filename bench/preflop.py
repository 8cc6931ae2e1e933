"""Exact preflop tables: all 169 classes against a random hand, and a small heads-up grid, with checksums.

The vs-random run is checked against PokerStove's published aces (1,781,508,418 wins, 11,402,312 ties of
2,097,572,400 games) and checksummed over every class's (wins, ties) as int64; the grid's checksum is over
its (games, wins, ties). The suit classes of the boards are made, and cached, outside the timing; each figure
is the fastest of :data:`REPEATS` runs (one by default: a run is seconds).

``python -m bench.preflop`` runs this section alone and prints its figures.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from typing import Any

import numpy as np

from twoplustwo.kernels.pool import resolve_threads
from twoplustwo.odds.preflop import GAMES_VS_RANDOM, preflop_matchups, preflop_vs_random
from twoplustwo.vocab.suits import canonical_boards

from . import best_of, say

REPEATS = 1
#: PokerStove's aces against a random hand: wins, ties, losses.
AA = (1_781_508_418, 11_402_312, 304_661_670)
GRID_A = ["AA", "KK", "AKs", "72o"]
GRID_B = ["AA", "KK", "QQ", "AKs", "AKo", "JTs", "22"]


def digest(rows: list[list[int]]) -> str:
    """First 12 hex digits of the SHA-256 of the rows as little-endian int64."""
    return hashlib.sha256(np.asarray(rows, dtype="<i8").tobytes()).hexdigest()[:12]


def run() -> dict[str, Any]:
    threads = resolve_threads(None)
    say("preflop: the suit classes of the boards (once per process)")
    start = time.perf_counter()
    boards, _ = canonical_boards()
    boards_s = time.perf_counter() - start

    say(f"preflop: all 169 classes against a random hand, threads={threads}")
    vs_random_s, results = best_of(preflop_vs_random, threads=None, quiet=True, repeats=REPEATS)
    aa = results["AA"]
    got_aa = (aa.wins, aa.ties, aa.losses)

    say(f"preflop: heads-up grid {len(GRID_A)} x {len(GRID_B)}, threads={threads}")
    grid_s, grid = best_of(preflop_matchups, GRID_A, GRID_B, threads=None, quiet=True, repeats=REPEATS)
    say(f"preflop: the whole 169 x 169 grid, threads={threads}")
    full_s, full = best_of(preflop_matchups, threads=None, quiet=True, repeats=REPEATS)
    say(f"preflop: vs random {vs_random_s:.1f} s, grid {grid_s:.2f} s, whole grid {full_s:.1f} s")
    return {
        "threads": threads,
        "canonical_boards": len(boards),
        "canonical_boards_s": boards_s,
        "vs_random_about": "preflop_vs_random(), all 169 classes, each combo against every opponent combo and board",
        "vs_random_s": vs_random_s,
        "vs_random_games": len(results) * GAMES_VS_RANDOM,
        "aa": list(got_aa),
        "aa_agrees": got_aa == AA,
        "vs_random_checksum": digest([[r.wins, r.ties] for r in results.values()]),
        "grid_about": f"preflop_matchups({GRID_A}, {GRID_B})",
        "grid_s": grid_s,
        "grid_cells": len(grid),
        "grid_checksum": digest([[r.games, r.wins, r.ties] for r in grid.values()]),
        "full_grid_s": full_s,
        "full_grid_cells": len(full),
        "full_grid_checksum": digest([[r.games, r.wins, r.ties] for r in full.values()]),
    }


if __name__ == "__main__":
    json.dump(run(), sys.stdout, indent=1)
    print()
