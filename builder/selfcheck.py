"""Check freshly built tables against the oracles before they are published.

The checks read the staged files through the runtime's own loader, so the
format is tested end to end, and compare with evaluators that share no code
with the DAG: every 5-card hand against the plain categoriser, the 5-, 6-
and 7-card category counts over every hand against the published figures,
and random 7-card hands in random card order against two oracles.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from twoplustwo.evaluate import walk
from twoplustwo.histograms import histogram
from twoplustwo.tables import load_tables
from twoplustwo.values import differs_from_published

from .hands import all_hands, random_hands
from .oracles import categoriser, signature

__all__ = ["SelfCheckError", "self_check"]

class SelfCheckError(RuntimeError):
    """The built tables disagree with an oracle."""


def _compare(what: str, got: np.ndarray, want: np.ndarray, hands: np.ndarray) -> None:
    bad = np.flatnonzero(got != want)
    if len(bad):
        i = bad[0]
        raise SelfCheckError(
            f"{what}: {len(bad)} hands differ, first {hands[i].tolist()}: "
            f"tables {int(got[i])}, oracle {int(want[i])}"
        )


def self_check(path: Path, *, sample: int = 1_000_000, step: Callable[[str], None] | None = None) -> None:
    """Raise :class:`SelfCheckError` unless the tables at ``path`` are right."""
    t = load_tables(path, verify=True)
    note = step or (lambda _: None)

    note("5-card hands")
    hands5 = np.concatenate(list(all_hands(5)))
    want = categoriser.evaluate(hands5)
    _compare("dag5, all 5-card hands", walk(t.layers("dag5"), hands5), want, hands5)
    node5 = walk(t.layers("dag7")[:5], hands5)
    _compare("dag7 value5, all 5-card hands", t.arrays["dag7/value5"][node5], want, hands5)

    note("category counts")
    for n in (5, 6, 7):
        problem = differs_from_published(n, histogram(n, tables=t))
        if problem:
            raise SelfCheckError(f"dag{n}: {problem}")

    note("random 7-card hands")
    hands = random_hands(sample, 7, seed=20261121)
    values = walk(t.layers("dag7"), hands)
    _compare("dag7, random hands", values, signature.evaluate(hands), hands)
    few = hands[:50_000]
    _compare("dag7, random hands", values[:50_000], categoriser.evaluate(few), few)
    node6 = walk(t.layers("dag7")[:6], hands[:, :6])
    six = hands[:50_000, :6]
    _compare("dag7 value6, random hands", t.arrays["dag7/value6"][node6[:50_000]], categoriser.evaluate(six), six)
    _compare("dag6, random hands", walk(t.layers("dag6"), six), categoriser.evaluate(six), six)
