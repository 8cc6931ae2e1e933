"""Section 14.1 of the spec, the suit-isomorphic index, written out plainly from its text and held to HandIndexer.

A reader in another language has only the text: if this plain reading of it and the runtime disagree
on any hand, the text is wrong.
"""

from __future__ import annotations

import functools
import random
from itertools import product
from math import comb, prod

import pytest

from twoplustwo import HandIndexer


def _suit(rounds: tuple[int, ...], hand: list[list[int]], s: int) -> tuple[int, int, int]:
    """A suit's key, index and n(key), by steps 1 and 2."""
    key = index = 0
    held: set[int] = set()
    radices = []
    for n_j, cards in zip(rounds, hand):
        ranks = sorted(c >> 2 for c in cards if c & 3 == s)
        key = key * (n_j + 1) + len(ranks)
        free = [r for r in range(13) if r not in held]
        digit = sum(comb(free.index(r), t + 1) for t, r in enumerate(ranks))
        radix = comb(13 - len(held), len(ranks))
        index = index * radix + digit
        radices.append(radix)
        held |= set(ranks)
    return key, index, prod(radices)


def _n_of_counts(rounds: tuple[int, ...], counts: tuple[int, ...]) -> tuple[int, int]:
    """Key and n(key) of a suit holding counts[j] cards in round j."""
    key, held, n = 0, 0, 1
    for n_j, c in zip(rounds, counts):
        key = key * (n_j + 1) + c
        n *= comb(13 - held, c)
        held += c
    return key, n


@functools.cache
def _blocks(rounds: tuple[int, ...]) -> dict[int, int]:
    """Every configuration's code and the first index of its block (step 3)."""
    sizes: dict[int, int] = {}
    per_round = [[p for p in product(range(n + 1), repeat=4) if sum(p) == n] for n in rounds]
    for split in product(*per_round):
        suits = sorted((_n_of_counts(rounds, tuple(r[s] for r in split)) for s in range(4)), reverse=True)
        code = suits[0][0] << 21 | suits[1][0] << 14 | suits[2][0] << 7 | suits[3][0]
        size = 1
        for key in {k for k, _ in suits}:
            g = sum(1 for k, _ in suits if k == key)
            size *= comb(dict(suits)[key] + g - 1, g)
        sizes[code] = size
    first, at = {}, 0
    for code in sorted(sizes):
        first[code], at = at, at + sizes[code]
    return first


def spec_index(rounds: tuple[int, ...], hand: list[list[int]]) -> int:
    suits = sorted((_suit(rounds, hand, s) for s in range(4)), key=lambda x: (-x[0], x[1]))
    code = suits[0][0] << 21 | suits[1][0] << 14 | suits[2][0] << 7 | suits[3][0]
    place = 0
    i = 0
    while i < 4:  # step 4: each group's multiset rank, the first group the most significant digit
        key, n = suits[i][0], suits[i][2]
        group = [x[1] for x in suits if x[0] == key]
        rank = sum(comb(a + t - 1, t) for t, a in enumerate(sorted(group), start=1))
        place = place * comb(n + len(group) - 1, len(group)) + rank
        i += len(group)
    return _blocks(rounds)[code] + place


@pytest.mark.parametrize("rounds", [(2,), (2, 3), (2, 4), (2, 5), (2, 3, 1), (2, 3, 1, 1), (1, 1, 1), (3, 4)])
def test_the_spec_text_gives_the_runtime_index(rounds: tuple[int, ...]) -> None:
    indexer = HandIndexer(rounds)
    rng = random.Random(sum(rounds) * 31 + len(rounds))
    sizes = [sum(rounds[: j + 1]) for j in range(len(rounds))]
    for _ in range(150):
        cards = rng.sample(range(52), sizes[-1])
        hand = [cards[a:b] for a, b in zip([0, *sizes], sizes)]
        assert spec_index(rounds, hand) == indexer.index(cards), (rounds, cards)
    assert max(_blocks(rounds).values()) < indexer.size()
