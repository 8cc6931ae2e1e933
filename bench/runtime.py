"""Runtime figures: table load time, single-hand calls/s, batch hands/s.

Three tables, each measured on fixed-seed input so reruns compare:

- loading: ``import twoplustwo``, ``load_tables()`` and the first
  ``evaluate`` call, each in a fresh subprocess (median of :data:`LOADS`),
  since inside this process everything is already mapped;
- single hands: ``evaluate`` over :data:`N_SINGLE` pre-encoded hands with
  :mod:`timeit` (best of 3), next to the cost of the bare Python loop and
  call, which bound what any pure-Python ``evaluate`` can reach;
- batches: ``evaluate_batch`` on :data:`N_BATCH` random 5-, 6- and 7-card
  hands (best of :data:`REPEATS`), with and without the input check, on one
  thread and on the default number, each next to the fastest oracle
  (:mod:`twoplustwo_builder.oracles.specialk`) on the same batch. The 7-card batch is
  the one ``bench.oracles`` uses, so its checksum must match that section's.

>>> rows = section()  # doctest: +SKIP
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import timeit
from collections.abc import Callable

import numpy as np

from twoplustwo_builder.hands import random_hands
from twoplustwo_builder.oracles import specialk

from . import best_of, fresh_runs, markdown_table
from .oracles import SEED, checksum

__all__ = ["GOAL_BATCH7", "GOAL_SINGLE7", "LOADS", "N_BATCH", "N_SINGLE", "REPEATS", "run", "section"]

#: Fresh subprocesses whose load times are summarised by their median.
LOADS = 5
#: Pre-encoded hands for the single-hand loop.
N_SINGLE = 100_000
#: Hands per batch, and timed runs per batch measurement (best is kept).
N_BATCH = 1_000_000
REPEATS = 5
#: The issue's goals: calls/s for 7 ints, one-core hands/s for 7-card batches.
GOAL_SINGLE7 = 1_500_000
GOAL_BATCH7 = 25_000_000


# Runs in a fresh interpreter; prints the three timings in seconds as JSON.
_LOAD_SCRIPT = """
import json, time
t0 = time.perf_counter()
import twoplustwo
t1 = time.perf_counter()
twoplustwo.load_tables()
t2 = time.perf_counter()
from twoplustwo.evaluate import evaluate
evaluate([0, 4, 8, 12, 17, 21, 25])
t3 = time.perf_counter()
print(json.dumps([t1 - t0, t2 - t1, t3 - t2]))
"""


def _progress(message: str) -> None:
    print(f"runtime: {message}", file=sys.stderr, flush=True)


def _load_times() -> list[float]:
    """Median seconds of import, load_tables() and first evaluate, fresh processes."""
    runs = fresh_runs(_LOAD_SCRIPT, LOADS)
    return [statistics.median(r[i] for r in runs) for i in range(3)]


def _load_section() -> list[str]:
    _progress(f"load time, {LOADS} fresh subprocesses")
    import_s, load_s, first_s = _load_times()
    from twoplustwo.tables import get_tables

    t = get_tables()
    rows = [
        ["import twoplustwo", f"{import_s * 1e3:.1f}"],
        ["load_tables()", f"{load_s * 1e3:.1f}"],
        ["first evaluate() after load_tables()", f"{first_s * 1e3:.1f}"],
    ]
    return [
        f"Median of {LOADS} fresh subprocesses; {len(t.arrays)} arrays, "
        f"{t.nbytes:,} bytes memory-mapped read-only (page cache warm).",
        "",
        *markdown_table(["step", "ms"], rows),
    ]


def _single_section() -> list[str]:
    from twoplustwo.cards import format_cards
    from twoplustwo.evaluate import evaluate

    rng = random.Random(SEED)
    tuples7 = [tuple(rng.sample(range(52), 7)) for _ in range(N_SINGLE)]
    lists7 = [list(h) for h in tuples7]
    lists5 = [list(h[:5]) for h in tuples7]
    strings7 = [format_cards(h) for h in tuples7]
    evaluate(tuples7[0])  # loads the tables outside the timing

    def noop(cards: object) -> int:
        return 0

    cases: list[tuple[str, list[object], Callable[[object], object]]] = [
        ("empty loop `for h in hands: pass` (bound)", list(tuples7), lambda h: None),
        ("call of a no-op Python function (bound)", list(tuples7), noop),
        ("`evaluate` 7 ints, tuple", list(tuples7), evaluate),
        ("`evaluate` 7 ints, list", list(lists7), evaluate),
        ("`evaluate` 5 ints, list", list(lists5), evaluate),
        ("`evaluate` 7 cards, one string", list(strings7), evaluate),
    ]
    rows = []
    seconds_by: dict[str, float] = {}
    for name, hands, fn in cases:
        _progress(f"single hands: {name}")
        if name.startswith("empty loop"):
            stmt = "for h in hands: pass"
        else:
            stmt = "for h in hands: fn(h)"
        seconds = min(timeit.repeat(stmt, globals={"hands": hands, "fn": fn}, number=1, repeat=3))
        seconds_by[name] = seconds
        rows.append([name, f"{len(hands):,}", f"{seconds:.3f}", f"{len(hands) / seconds:,.0f}"])
    rate7 = N_SINGLE / seconds_by["`evaluate` 7 ints, tuple"]
    verdict = "met" if rate7 >= GOAL_SINGLE7 else "**not met**"
    return [
        f"{N_SINGLE:,} random hands, seed {SEED}, pre-encoded; best of 3 `timeit` runs "
        "(loop overhead included).",
        "",
        *markdown_table(["call", "hands", "seconds", "calls/s"], rows),
        "",
        f"Goal for 7 ints: {GOAL_SINGLE7:,} calls/s: {verdict} (measured {rate7:,.0f}).",
    ]


def _batch_section() -> list[str]:
    from twoplustwo.evaluate import evaluate_batch

    cores = os.cpu_count() or 1
    rows = []
    notes = []
    for k in (5, 6, 7):
        hands = random_hands(N_BATCH, k, seed=SEED)
        specialk.evaluate(hands[:100])  # warm-up: tables built on first use
        evaluate_batch(hands[:100])
        _progress(f"batches: {k} cards, specialk")
        oracle_s, reference = best_of(lambda: specialk.evaluate(hands), REPEATS)
        assert isinstance(reference, np.ndarray)
        rows.append(
            [
                f"{k}",
                "specialk",
                "-",
                "1",
                f"{oracle_s:.4f}",
                f"{N_BATCH / oracle_s:,.0f}",
                "1.00",
                checksum(reference),
                "yes",
            ]
        )
        seconds_by: dict[tuple[bool, int | None], float] = {}
        for check in (True, False):
            for threads in (1, None):
                label = "1" if threads == 1 else f"default ({cores})"
                _progress(f"batches: {k} cards, check={check}, threads={label}")
                s, values = best_of(
                    lambda: evaluate_batch(hands, check=check, threads=threads), REPEATS
                )
                assert isinstance(values, np.ndarray)
                seconds_by[check, threads] = s
                rows.append(
                    [
                        f"{k}",
                        "evaluate_batch",
                        "yes" if check else "no",
                        label,
                        f"{s:.4f}",
                        f"{N_BATCH / s:,.0f}",
                        f"{oracle_s / s:.2f}",
                        checksum(values),
                        "yes" if np.array_equal(values, reference) else "**NO**",
                    ]
                )
        check_cost = seconds_by[True, 1] / seconds_by[False, 1] - 1
        notes.append(
            f"{k} cards: sum of values {int(reference.sum(dtype=np.int64)):,}; on one thread "
            f"check=True takes {check_cost:+.0%} vs check=False (goal: under +20%; a negative "
            "figure is timing noise)."
        )
        if k == 7:
            rate = N_BATCH / min(seconds_by[True, 1], seconds_by[False, 1])
            verdict = "met" if rate >= GOAL_BATCH7 else "**not met**"
            notes.append(
                f"Goal for 7 cards on one core: {GOAL_BATCH7:,} hands/s: {verdict} (best {rate:,.0f})."
            )
    header = [
        "cards", "evaluator", "check", "threads", "seconds", "hands/s", "× specialk", "sha256[:12]", "agrees"
    ]  # fmt: skip
    return [
        f"{N_BATCH:,} random hands per size, seed {SEED}, random card order, uint8; best of {REPEATS} runs. "
        "`× specialk` is throughput relative to the fastest oracle on the same batch.",
        "",
        *markdown_table(header, rows),
        "",
        *[f"- {note}" for note in notes],
    ]


def section() -> list[str]:
    """Measure load time, single-hand and batch throughput; return markdown lines."""
    lines = ["## Runtime", "", "### Loading", ""]
    lines += _load_section()
    lines += ["", "### Single hands", ""]
    lines += _single_section()
    lines += ["", "### Batches", ""]
    lines += _batch_section()
    return lines


#: The name ``bench.oracles`` uses for its section function.
run = section


if __name__ == "__main__":
    print("\n".join(section()))
