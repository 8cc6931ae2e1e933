"""Oracle throughput on one fixed-seed batch of random seven-card hands.

Each oracle is timed on the same 1,000,000 hands (best of a few runs for the
quick ones), after a warm-up call so that tables built on first use are not
counted. An oracle too slow for the whole batch within :data:`BUDGET_S` runs on a
prefix instead, and the table says so. The checksum is the first 12 hex
digits of the SHA-256 of the values as little-endian uint16, so equal
checksums on equal batches mean identical results.
"""

from __future__ import annotations

import hashlib
import time
from types import ModuleType

import numpy as np
import numpy.typing as npt

from twoplustwo_builder.hands import random_hands
from twoplustwo_builder.oracles import cactus_kev, categoriser, signature, specialk

from . import markdown_table

__all__ = ["BUDGET_S", "N_HANDS", "ORACLES", "SEED", "checksum", "run"]

#: Size and seed of the batch every oracle evaluates.
N_HANDS = 1_000_000
SEED = 20_240_601
#: Rough time limit per oracle; slower oracles get a smaller batch.
BUDGET_S = 20.0
#: Hands in the probe that estimates an oracle's speed.
PROBE = 20_000

ORACLES: list[ModuleType] = [specialk, signature, cactus_kev, categoriser]


def checksum(values: npt.NDArray[np.uint16]) -> str:
    """First 12 hex digits of the SHA-256 of the values as little-endian uint16.

    >>> checksum(np.array([1, 7462], dtype=np.uint16))
    '6e5439596d39'
    """
    return hashlib.sha256(values.astype("<u2").tobytes()).hexdigest()[:12]


def _time(oracle: ModuleType, hands: np.ndarray, repeats: int) -> tuple[float, np.ndarray]:
    best = float("inf")
    values = np.empty(0, dtype=np.uint16)
    for _ in range(repeats):
        start = time.perf_counter()
        values = oracle.evaluate(hands)
        best = min(best, time.perf_counter() - start)
    return best, values


def run() -> list[str]:
    """Time every oracle; return the section's markdown lines."""
    hands = random_hands(N_HANDS, 7, seed=SEED)
    reference = specialk.evaluate(hands)
    rows = []
    notes = []
    for oracle in ORACLES:
        name = oracle.__name__.rsplit(".", 1)[-1]
        oracle.evaluate(hands[:100])  # warm-up: tables built on first use
        probe_s, _ = _time(oracle, hands[:PROBE], 1)
        estimate = probe_s * N_HANDS / PROBE
        n = N_HANDS
        if estimate > BUDGET_S:
            n = max(PROBE, int(N_HANDS * BUDGET_S / estimate) // PROBE * PROBE)
            notes.append(f"{name} is slow: timed on the first {n:,} hands only.")
        # Repeat quick runs so that one hiccup does not decide the figure.
        repeats = 5 if estimate < 1.0 else 1
        seconds, values = _time(oracle, hands[:n], repeats)
        agrees = np.array_equal(values, reference[:n])
        rows.append(
            [
                name,
                f"{n:,}",
                f"{seconds:.3f}",
                f"{n / seconds:,.0f}",
                checksum(values),
                "yes" if agrees else "**NO**",
            ]
        )
    header = ["oracle", "hands", "seconds", "hands/s", "sha256[:12]", "agrees"]
    lines = [
        "## Oracles",
        "",
        f"{N_HANDS:,} random 7-card hands, seed {SEED}; "
        "best of 5 runs for oracles under a second, else 1.",
        "",
        *markdown_table(header, rows),
    ]
    if notes:
        lines += [""] + [f"- {note}" for note in notes]
    full = checksum(reference)
    lines += ["", f"Checksum of all {N_HANDS:,} values: `{full}`."]
    return lines
