"""The tables for poker AI: hand strength and every combo's equity against a range, per street, with checksums.

Each figure is the fastest of :data:`~bench.REPEATS` warm calls, except the strength before the flop, whose
first call sweeps the 134,459 canonical boards (later calls read what it kept): that one is a first call on a
freshly loaded table set, and its ehs is checked against ``preflop_vs_random``.

``python -m bench.poker_ai`` runs this section alone and prints its figures.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import numpy as np

import twoplustwo
from twoplustwo.tables.load import open_tables

from . import N_BATCH, SEED, best_of, say

BOARDS = {"flop": "Qh 7c 2d", "turn": "Qh 7c 2d 5s", "river": "Qh 7c 2d 5s 9h"}
VILLAIN = "QQ+,AKs,[50]JTs[/50],[25]A5s-A2s[/25]"
HOLE = "As Ah"


def run() -> dict[str, Any]:
    rows = indexers()
    for street, board in BOARDS.items():
        say(f"poker AI: equity_vs_range on the {street}")
        # Microseconds on the river: a loop of calls, as a solver makes them, timed whole (best of 5 loops).
        calls = 1 if street == "flop" else 200

        def loop(board: str = board, calls: int = calls) -> Any:
            for _ in range(calls):
                eq = twoplustwo.equity_vs_range(board, VILLAIN)
            return eq

        seconds, eq = best_of(loop)
        seconds /= calls
        rows.append({"figure": f"equity_vs_range, {street}", "seconds": seconds,
                     "checksum": round(float(np.nansum(eq)), 9)})
        say(f"poker AI: strength of every hand on the {street} (strength_batch of all of them)")
        holes = np.array([c for c in twoplustwo.COMBOS.tolist() if not set(c) & set(twoplustwo.parse_cards(board))])
        boards = np.tile(np.array(twoplustwo.parse_cards(board)), (len(holes), 1))

        # A freshly opened set: strength keeps each board's sweep per set, and a first call is what is timed.
        fresh = open_tables(twoplustwo.load_tables().path)
        first_s, s = best_of(twoplustwo.strength_batch, holes, boards, bins=50, tables=fresh, repeats=1)
        rows.append({"figure": f"strength_batch of all {len(holes):,} hands, {street}, first call",
                     "seconds": first_s, "checksum": round(float(s.ehs.sum()), 9)})
    say("poker AI: strength before the flop, a first call")
    t = open_tables(twoplustwo.load_tables().path)
    start = time.perf_counter()
    pre = twoplustwo.strength(HOLE, bins=50, tables=t)
    pre_s = time.perf_counter() - start
    aa = twoplustwo.preflop_vs_random(["AA"], quiet=True)["AA"].equity
    rows.append({"figure": "strength before the flop, every hand (a first call)", "seconds": pre_s,
                 "checksum": round(pre.ehs, 12), "agrees": pre.ehs == aa})
    rows += strength_tables()
    return {
        "about": f"villain {VILLAIN!r}; boards {BOARDS}; best of warm calls but where it says first call",
        "rows": rows,
    }


def indexers() -> list[dict[str, Any]]:
    """HandIndexer on random hands of a flop and of a river, one thread: indices a second, both ways."""
    rng = np.random.default_rng(SEED)
    rows = []
    for rounds in ((2, 3), (2, 5)):
        k = sum(rounds)
        say(f"poker AI: HandIndexer({rounds}), {N_BATCH:,} random hands")
        hands = np.argsort(rng.random((N_BATCH, 52)), axis=1)[:, :k].astype(np.uint8)
        indexer = twoplustwo.HandIndexer(rounds)
        seconds, found = best_of(indexer.index, hands)
        back_s, back = best_of(indexer.unindex, found)
        agrees = bool((indexer.index(back) == found).all())
        rows.append({"figure": f"HandIndexer({rounds}).index, {N_BATCH:,} random hands", "seconds": seconds,
                     "rate": N_BATCH / seconds, "checksum": int(found.sum(dtype=np.uint64))})
        rows.append({"figure": f"HandIndexer({rounds}).unindex of those", "seconds": back_s,
                     "rate": N_BATCH / back_s, "checksum": int(back.sum(dtype=np.uint64)), "agrees": agrees})
    return rows


def strength_tables() -> list[dict[str, Any]]:
    """The builder's strength tables, whole: seconds, the peak of numpy's allocations, every index written."""
    import tracemalloc

    from twoplustwo_builder.derived import strength as st

    t = twoplustwo.load_tables()
    builds = {
        "river": lambda: st.build_river(t),
        "turn": lambda: st.build_street(t, "turn"),
        "flop": lambda: st.build_street(t, "flop"),
        "preflop": lambda: st.build_preflop(t),
    }
    rows = []
    for street, build in builds.items():
        say(f"poker AI: the {street} strength table, whole")
        tracemalloc.start()
        start = time.perf_counter()
        made = build()
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        covered = bool(made[-1].all()) if street != "preflop" else True
        rows.append({"figure": f"build the {street} strength table (peak {peak / 2**20:,.0f} MiB)",
                     "seconds": seconds, "checksum": int(made[0].sum(dtype=np.uint64)), "agrees": covered})
        del made
    return rows


if __name__ == "__main__":
    json.dump(run(), sys.stdout, indent=1)
    print()
