"""Whole-space figures: ordered iteration, histograms and exact equity.

Each DAG route is timed warm (best of :data:`REPEATS`, after one untimed
run that maps the tables and builds the cached subset blocks) next to the
route an oracle would take for the same answer:

- ``iter_hands(7)`` over all 133,784,560 hands, on the default threads and
  on one, against ``twoplustwo_builder.hands.all_hands`` chunks walked by
  ``evaluate_batch`` (the plain layer-by-layer numpy walk) and evaluated by
  :mod:`twoplustwo_builder.oracles.specialk`. Those two run on the first
  :data:`ORACLE_SLICE` hands only and are extrapolated, which the table
  says;
- ``histogram(7)`` against the ``bincount`` of ``iter_hands`` values;
- heads-up preflop ``equity`` (AsAh vs KdKc, 1,712,304 boards) against
  specialk on every board, 2 x 1,712,304 hands built beforehand (only the
  evaluation and the comparison are timed).

Checksums: the first 12 hex digits of the SHA-256 of the values in
iteration order (as in ``bench.oracles``), of the histogram as int64, and
the equity counts themselves.

>>> lines = section()  # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from collections.abc import Callable
from itertools import combinations
from math import comb

import numpy as np

from twoplustwo_builder.hands import all_hands
from twoplustwo_builder.oracles import specialk

from . import best_of, fresh_runs, markdown_table

__all__ = ["ORACLE_SLICE", "REPEATS", "run", "section"]

#: Timed runs per figure; the best is kept.
REPEATS = 3
#: Hands the oracle routes over all 7-card hands are timed on.
ORACLE_SLICE = 10_000_000
#: The issue's goals, in seconds.
GOAL_ITER7 = 1.5
GOAL_HIST7 = 0.2
GOAL_PREFLOP = 0.1

N7 = comb(52, 7)
HANDS = ["As Ah", "Kd Kc"]


def _progress(message: str) -> None:
    print(f"exhaustive: {message}", file=sys.stderr, flush=True)


def _drain(threads: int | None) -> int:
    from twoplustwo.exhaustive import iter_hands

    n = 0
    for _, values in iter_hands(7, threads=threads):
        n += len(values)
    return n


def _values_digest() -> tuple[str, int, np.ndarray]:
    """SHA-256 prefix and sum of all 7-card values in order, and their bincount."""
    from twoplustwo.exhaustive import iter_hands

    h = hashlib.sha256()
    total = 0
    counts = np.zeros(7463, dtype=np.int64)
    for _, values in iter_hands(7):
        h.update(values.astype("<u2").tobytes())
        total += int(values.sum(dtype=np.int64))
        counts += np.bincount(values, minlength=7463)
    return h.hexdigest()[:12], total, counts


def _oracle_slice(evaluate: Callable[[np.ndarray], np.ndarray]) -> tuple[float, str]:
    """Seconds for the first ORACLE_SLICE hands via all_hands, and their digest."""
    h = hashlib.sha256()
    start = time.perf_counter()
    done = 0
    for chunk in all_hands(7):
        chunk = chunk[: ORACLE_SLICE - done]
        values = evaluate(chunk)
        h.update(np.asarray(values).astype("<u2").tobytes())
        done += len(chunk)
        if done >= ORACLE_SLICE:
            break
    return time.perf_counter() - start, h.hexdigest()[:12]


def _first_values_digest() -> str:
    from twoplustwo.exhaustive import iter_hands

    h = hashlib.sha256()
    done = 0
    for _, values in iter_hands(7):
        values = values[: ORACLE_SLICE - done]
        h.update(values.astype("<u2").tobytes())
        done += len(values)
        if done >= ORACLE_SLICE:
            break
    return h.hexdigest()[:12]


def _preflop_hands() -> tuple[np.ndarray, np.ndarray]:
    """AsAh and KdKc each completed by every board: two (1,712,304, 7) arrays."""
    from twoplustwo.cards import parse_cards

    a, b = (parse_cards(h) for h in HANDS)
    rest = [c for c in range(52) if c not in a + b]
    boards = np.array(list(combinations(rest, 5)), dtype=np.uint8)
    hands_a = np.empty((len(boards), 7), dtype=np.uint8)
    hands_b = np.empty((len(boards), 7), dtype=np.uint8)
    hands_a[:, :2], hands_b[:, :2] = a, b
    hands_a[:, 2:] = hands_b[:, 2:] = boards
    return hands_a, hands_b


def _specialk_preflop(hands_a: np.ndarray, hands_b: np.ndarray) -> tuple[int, int, int]:
    """AsAh vs KdKc the brute way: evaluate both hands on every board and compare."""
    va, vb = specialk.evaluate(hands_a), specialk.evaluate(hands_b)
    return int((va > vb).sum()), int((va == vb).sum()), int((va < vb).sum())


_COLD_SCRIPT = """
import time
t0 = time.perf_counter()
from twoplustwo.equity import equity
equity(["As Ah", "Kd Kc"])
print(time.perf_counter() - t0)
"""


def _cold_equity() -> float:
    """Seconds for import and a first preflop equity call in a fresh interpreter."""
    runs = [float(r) for r in fresh_runs(_COLD_SCRIPT, 3)]
    return sorted(runs)[1]


def section() -> list[str]:
    """Time iteration, histogram and equity against their oracle routes; return markdown lines."""
    from twoplustwo.equity import equity
    from twoplustwo.evaluate import evaluate_batch
    from twoplustwo.exhaustive import histogram

    cores = os.cpu_count() or 1
    _progress("warm-up")
    _drain(None)
    histogram(7)
    equity(HANDS)
    specialk.evaluate(np.arange(7, dtype=np.uint8)[None, :])

    rows: list[list[str]] = []
    notes: list[str] = []

    _progress("checksum of all 7-card values")
    digest, value_sum, counts = _values_digest()
    for threads, label in ((None, f"default ({cores})"), (1, "1")):
        _progress(f"iter_hands(7), threads={label}")
        seconds, n = best_of(lambda: _drain(threads), REPEATS)
        assert n == N7
        rows.append(
            [
                f"`iter_hands(7)`, threads {label}",
                f"{N7:,}",
                f"{seconds:.3f}",
                f"{N7 / seconds:,.0f}",
                digest,
                "measured",
            ]
        )
        if threads is None:
            iter_s = seconds
    slice_digest = _first_values_digest()
    for name, fn in (
        ("`all_hands` + `evaluate_batch` (plain layer walk)", lambda h: evaluate_batch(h, check=False)),
        ("`all_hands` + specialk", specialk.evaluate),
    ):
        _progress(f"oracle route: {name}, first {ORACLE_SLICE:,} hands")
        seconds, d = min((_oracle_slice(fn) for _ in range(REPEATS)), key=lambda r: r[0])
        whole = seconds * N7 / ORACLE_SLICE
        rows.append(
            [
                name,
                f"{N7:,}",
                f"{whole:.3f}",
                f"{N7 / whole:,.0f}",
                d if d != slice_digest else f"{d} (= first {ORACLE_SLICE:,})",
                f"extrapolated from the first {ORACLE_SLICE:,} hands",
            ]
        )
        if d != slice_digest:
            notes.append(f"**{name} disagrees with iter_hands on the first {ORACLE_SLICE:,} hands.**")

    _progress("histogram(7)")
    hist_s, hist = best_of(lambda: histogram(7), 5)
    assert isinstance(hist, np.ndarray)
    hist_digest = hashlib.sha256(hist.astype("<i8").tobytes()).hexdigest()[:12]
    agrees = np.array_equal(hist, counts)
    rows.append(
        ["`histogram(7)`", f"{N7:,}", f"{hist_s:.4f}", f"{N7 / hist_s:,.0f}", hist_digest, "measured"]
    )
    _progress("bincount of iter_hands values")
    bincount_s, _ = best_of(_bincount_all, 1)
    rows.append(
        [
            "`bincount` of `iter_hands(7)` values",
            f"{N7:,}",
            f"{bincount_s:.3f}",
            f"{N7 / bincount_s:,.0f}",
            hist_digest if agrees else "**differs**",
            "measured",
        ]
    )

    _progress("preflop equity")
    eq_s, results = best_of(lambda: equity(HANDS), 5)
    aa = results[0]  # type: ignore[index]
    boards = aa.boards
    eq_check = f"{aa.wins:,} / {aa.ties:,} / {aa.losses:,}"
    rows.append(
        [
            "`equity(['As Ah', 'Kd Kc'])` preflop",
            f"{2 * boards:,}",
            f"{eq_s:.4f}",
            f"{2 * boards / eq_s:,.0f}",
            eq_check,
            "measured",
        ]
    )
    _progress("preflop equity, specialk on every board")
    hands_a, hands_b = _preflop_hands()
    sk_s, sk = best_of(lambda: _specialk_preflop(hands_a, hands_b), REPEATS)
    sk_check = "{:,} / {:,} / {:,}".format(*sk)  # type: ignore[str-format]
    rows.append(
        [
            "specialk on all 2 x 1,712,304 hands",
            f"{2 * boards:,}",
            f"{sk_s:.4f}",
            f"{2 * boards / sk_s:,.0f}",
            sk_check,
            "measured (board arrays built beforehand, not timed)",
        ]
    )
    if sk_check != eq_check:
        notes.append("**specialk disagrees with equity() on AsAh vs KdKc.**")

    _progress("cold preflop equity, fresh interpreters")
    cold_s = _cold_equity()

    def verdict(seconds: float, goal: float) -> str:
        return f"{'met' if seconds < goal else '**not met**'} ({seconds:.3f} s, goal < {goal} s)"

    lines = [
        "## Exhaustive iteration, histograms and equity",
        "",
        f"Best of {REPEATS} warm runs (histogram and equity: best of 5). `hands` counts "
        "hand evaluations; the checksum is the SHA-256 prefix of the values in order "
        "(histogram: of the int64 counts; equity: AsAh's wins / ties / losses).",
        "",
        *markdown_table(["route", "hands", "seconds", "hands/s", "checksum", "how"], rows),
        "",
        f"- Sum of all 7-card values: {value_sum:,}; histogram equals the bincount of "
        f"`iter_hands` values: {'yes' if agrees else '**NO**'}.",
        f"- Goals: `iter_hands(7)` {verdict(iter_s, GOAL_ITER7)}; `histogram(7)` "
        f"{verdict(hist_s, GOAL_HIST7)}; preflop equity {verdict(eq_s, GOAL_PREFLOP)}.",
        f"- Cold start: import, table load, the one-off subset blocks and the first preflop "
        f"equity take {cold_s:.3f} s in a fresh interpreter (median of 3).",
        *[f"- {note}" for note in notes],
    ]
    return lines


def _bincount_all() -> np.ndarray:
    from twoplustwo.exhaustive import iter_hands

    counts = np.zeros(7463, dtype=np.int64)
    for _, values in iter_hands(7):
        counts += np.bincount(values, minlength=7463)
    return counts


#: The name ``bench.oracles`` uses for its section function.
run = section
