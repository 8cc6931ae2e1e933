"""The hands of the conformance vectors, in the card text notation, and their values.

``vectors.txt`` holds hands for the real tables, each value checked against the
categoriser oracle as it is written; ``tiny-vectors.txt`` holds hands for the
tiny set (:mod:`.tinyset`). A fixed generator makes both the same bytes on every run.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from twoplustwo.hands.batch import evaluate_batch
from twoplustwo.tables.default import load_tables
from twoplustwo.vocab.cards import RANKS, SUITS, parse_cards
from twoplustwo.vocab.values import N_VALUES

from ..oracles import badugi, categoriser, lowball
from .tinyset import tiny_value

__all__ = ["GAME_VECTORS", "VECTOR_HANDS", "game_vectors_text", "tiny_vectors_text", "vector_hands", "vectors_text"]

#: Hands of each size (5, 6 and 7 cards) in vectors.txt, after the fixed ones.
VECTOR_HANDS = 3334


class _Rng:
    """splitmix64: fixed forever, unlike library generators, so the vectors never change."""

    def __init__(self, seed: int) -> None:
        self.state = seed

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & (2**64 - 1)
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & (2**64 - 1)
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        # Rejection keeps every outcome equally likely.
        limit = (2**64 // n) * n
        while True:
            x = self.next()
            if x < limit:
                return x % n


def _spell(card: int, rng: _Rng) -> str:
    """A card in one of the spellings of the notation: mostly canonical, sometimes not."""
    rank, suit = RANKS[card >> 2], SUITS[card & 3]
    style = rng.below(10)
    if style == 7 and rank == "T":
        rank = "10"
    elif style == 8:
        rank, suit = rank.lower(), suit.upper()
    elif style == 9:
        suit = "♣♦♥♠"[card & 3]
    return rank + suit


def _parse(text: str) -> list[int]:
    return [RANKS.index(t[:-1].upper()) * 4 + SUITS.index(t[-1]) for t in text.split()]


# Hands at the edges of the value scale, in canonical spelling.
_FIXED = (
    "As Ks Qs Js Ts",  # royal flush: 7462
    "5d 4d 3d 2d Ad",  # five-high straight flush: 7453
    "7c 5d 4h 3s 2c",  # the weakest hand: 1
    "Ah 5c 4d 3s 2h",  # five-high straight: 5854
    "As Ah Ad Ac Ks Kh Kd",  # four aces, king kicker
    "2c 3d 4h 5s 7c 8d 9h",  # the weakest 7-card hand
    "Th 9h 8h 7h 6h 5h",  # six hearts in a row: a straight flush
)


def vector_hands() -> list[list[int]]:
    """The hands of vectors.txt, in order: the fixed ones, then random 5-, 6- and 7-card hands."""
    hands = [_parse(h) for h in _FIXED]
    rng = _Rng(20261123)
    for _ in range(VECTOR_HANDS):
        for n in (5, 6, 7):
            deck = list(range(52))
            for i in range(n):  # a partial Fisher-Yates shuffle: random cards in random order
                j = i + rng.below(52 - i)
                deck[i], deck[j] = deck[j], deck[i]
            hands.append(deck[:n])
    return hands


def vectors_text(tables: Path) -> str:
    """vectors.txt for the real tables at ``tables``; raise if the runtime and the oracle disagree anywhere."""
    t = load_tables(tables)
    hands = vector_hands()
    values = [0] * len(hands)
    for n in (5, 6, 7):
        idx = [i for i, h in enumerate(hands) if len(h) == n]
        batch = np.array([hands[i] for i in idx])
        got = evaluate_batch(batch, tables=t)
        want = categoriser.evaluate(batch)
        bad = np.flatnonzero(got != want)
        if bad.size:
            j = int(bad[0])
            raise RuntimeError(
                f"{tables}: hand {hands[idx[j]]} is {int(got[j])} by the tables but {int(want[j])} by the "
                f"categoriser oracle ({bad.size} of {len(idx)} {n}-card hands disagree): no vectors written"
            )
        for i, v in zip(idx, got.tolist()):
            values[i] = v
    rng = _Rng(7)
    lines = [
        "# twoplustwo conformance vectors: spec/README.md, format version 1.\n",
        "# One hand per line: 5 to 7 cards in the card text notation (section 6.1) separated by spaces,\n",
        "# a tab, and the hand's value (section 7). Every correct table set gives these values.\n",
    ]
    for h, v in zip(hands, values):
        text = " ".join(_spell(c, rng) for c in h)
        if parse_cards(text) != h or not 1 <= v <= N_VALUES:
            raise RuntimeError(f"vector {text!r} -> {v} does not parse back to {h} or is no value")
        lines.append(f"{text}\t{v}\n")
    return "".join(lines)


#: The games of ``<game>-vectors.txt`` (section 13 of the spec), each with its builder oracle and hand sizes.
GAME_VECTORS = {
    "razz": (lowball.evaluate_a5, (5, 6, 7)),
    "lowball-a5": (lowball.evaluate_a5, (5,)),
    "lowball-27": (lowball.evaluate_27, (5,)),
    "badugi": (badugi.evaluate, (4,)),
}


def game_vectors_text(tables: Path, game: str, each: int = 300) -> str:
    """``<game>-vectors.txt``: ``each`` random hands of each of the game's sizes and their values on the real
    tables at ``tables``; raise if the runtime and the game's builder oracle disagree anywhere."""
    oracle, sizes = GAME_VECTORS[game]
    t = load_tables(tables)
    rng = _Rng(20261202)
    lines = [
        f"# twoplustwo conformance vectors of the game {game} (spec/README.md, section 13), format version 1.\n",
        "# As vectors.txt: the cards, a tab, and the hand's value on the game's scale.\n",
    ]
    for n in sizes:
        hands = np.array([_draw(list(range(52)), n, rng) for _ in range(each)])
        got = evaluate_batch(hands, game=game, tables=t)
        want = oracle(hands)
        if not np.array_equal(got, want):
            j = int(np.flatnonzero(got != want)[0])
            raise RuntimeError(
                f"{tables}: {game} hand {hands[j].tolist()} is {int(got[j])} by the tables but "
                f"{int(want[j])} by the oracle: no vectors written"
            )
        for h, v in zip(hands.tolist(), got.tolist()):
            text = " ".join(_spell(c, rng) for c in h)
            if parse_cards(text) != h:
                raise RuntimeError(f"vector {text!r} does not parse back to {h}")
            lines.append(f"{text}\t{v}\n")
    return "".join(lines)


def _draw(pool: list[int], k: int, rng: _Rng) -> list[int]:
    pool = list(pool)
    for i in range(k):
        j = i + rng.below(len(pool) - i)
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:k]


def tiny_vectors_text() -> str:
    """tiny-vectors.txt: hands of every size, with none to all of their cards high, and their tiny-set values."""
    rng = _Rng(5)
    lines = [
        "# Values a walk of the tiny set (cases/valid) gives: 1000 per card, 100 more if any card is a ten\n",
        "# or higher, plus 1. Same layout as vectors.txt: cards, a tab, the value.\n",
    ]
    for n in (5, 6, 7):
        for high in sorted({0, 1, 2, n}):
            for _ in range(2):
                cards = _draw(_draw(list(range(32, 52)), high, rng) + _draw(list(range(32)), n - high, rng), n, rng)
                lines.append(" ".join(_spell(c, rng) for c in cards) + f"\t{tiny_value(cards)}\n")
    return "".join(lines)
