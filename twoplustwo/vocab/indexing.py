"""Suit-isomorphic hand indices: their layout, and each round's tables (its :class:`Plan`).

A hand is dealt in rounds of ``counts = (n_0, n_1, ...)`` cards (1 to
:data:`MAX_ROUNDS` rounds, :data:`MAX_CARDS` cards in all); the cards of a
round are a set, the rounds a sequence. Two hands are alike when a
renaming of the suits maps each round of one onto the same round of the
other, and the hands of rounds ``0..i`` take the indices ``0 .. size - 1``,
one per class of alike hands (Kevin Waugh's construction, 2013). Both
backends follow this layout to the bit:

**A suit's key and index.** In round ``j`` suit ``s`` holds a set of
``c_j`` ranks. The suit's *key* reads its counts as one number, round 0
first: ``(..(c_0 * (n_1 + 1) + c_1) * (n_2 + 1) + ..)``, less than 128. Its
*index* reads its rank sets as one number, round 0 first: round ``j``'s digit
is the colex rank of its set among the ``c_j``-sets of the ranks the suit
did not hold before round ``j`` (renumbered from 0 upwards), in the radix
``C(13 - held, c_j)``; the product of the radices, ``n(key)``, counts the
indices of a suit of that key.

**The configuration.** The four suits sorted by key, largest first, and
within equal keys by index, smallest first, give the keys
``k0 >= k1 >= k2 >= k3``: the configuration, coded
``k0 << 21 | k1 << 14 | k2 << 7 | k3``. Renaming suits changes neither.
Each configuration's hands take one block of indices, the blocks in
increasing order of code.

**Within a block.** Suits of one key make a group (they sit together in
the sorted order); ``g`` of them with indices ``a_1 <= .. <= a_g`` are a
multiset, of rank ``sum C(a_t + t - 1, t)`` among the ``C(n + g - 1, g)``
multisets of ``n = n(key)`` indices. The groups' ranks, in sorted order and
the first group the most significant digit, give the place in the block.

**Unindexing** writes each class's hand with the suit in sorted place
``p`` as suit ``3 - p`` (spades first) and each round's cards in decreasing
order: ``index(unindex(i)) == i``.


:func:`plan` makes a round's tables once per process; both backends'
``index_rows`` and ``unindex_rows`` (``kernels/c/indexer.c`` and its numpy
twin) take a plan's arrays, and :class:`twoplustwo.hands.indexer.HandIndexer`
makes the plans of its rounds here.

>>> p = plan((2,))
>>> p.size, [hex(c) for c in p.codes.tolist()]  # unsuited (pairs too) and suited hands
(169, ['0x204000', '0x400000'])
"""

from __future__ import annotations

import functools
from itertools import product
from math import comb, prod
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

__all__ = ["HASH", "MAX_CARDS", "MAX_ROUNDS", "Plan", "plan"]

#: Most rounds a hand may have.
MAX_ROUNDS = 8
#: Most cards in all a hand may have.
MAX_CARDS = 7
#: A code's slot in a plan's ``slots`` of ``2**b`` entries is the top ``b``
#: bits of ``code * HASH mod 2**32``; a taken slot passes on to the next one.
HASH = 0x9E3779B1

U8 = npt.NDArray[np.uint8]
U32 = npt.NDArray[np.uint32]
U64 = npt.NDArray[np.uint64]


class Plan(NamedTuple):
    """The tables of one round: what the backends' ``index_rows`` and ``unindex_rows`` take besides the hands."""

    counts: U8  # cards in each round up to this one
    codes: U32  # the configurations' codes, increasing
    offsets: U64  # each configuration's first index, then the number of indices
    slots: U32  # each code's configuration number + 1 at its slot (HASH), 0 in free slots

    @property
    def size(self) -> int:
        """The number of indices: classes of alike hands."""
        return int(self.offsets[-1])


def _splits(n: int) -> list[tuple[int, ...]]:
    """Every way to deal ``n`` cards to the four suits, as counts per suit."""
    return [c for c in product(range(n + 1), repeat=4) if sum(c) == n]


def _suit_size(cs: tuple[int, ...]) -> int:
    """How many indices a suit of round counts ``cs`` has."""
    size, held = 1, 0
    for c in cs:
        size *= comb(13 - held, c)
        held += c
    return size


@functools.cache
def plan(counts: tuple[int, ...]) -> Plan:
    """The tables of the hands of rounds of ``counts`` cards (a valid tuple: callers check it), made once.

    >>> [plan(c).size for c in [(2,), (2, 3), (2, 3, 1), (2, 3, 1, 1)]]
    [169, 1286792, 55190538, 2428287420]
    """
    sizes: dict[int, int] = {}
    for deal in product(*(_splits(n) for n in counts)):
        suits = sorted((tuple(d[s] for d in deal) for s in range(4)), reverse=True)
        keys = [_key(counts, cs) for cs in suits]
        code = keys[0] << 21 | keys[1] << 14 | keys[2] << 7 | keys[3]
        if code not in sizes:
            # One factor per group of equal suits: multisets of their indices.
            sizes[code] = prod(comb(_suit_size(cs) + suits.count(cs) - 1, suits.count(cs)) for cs in sorted(set(suits)))
    codes = sorted(sizes)
    offsets = np.cumsum([0] + [sizes[c] for c in codes], dtype=np.uint64)
    bits = max(4, (4 * len(codes) - 1).bit_length())  # a quarter full at most: probes stay short
    slots = np.zeros(1 << bits, dtype=np.uint32)
    for number, code in enumerate(codes):
        at = ((code * HASH) & 0xFFFFFFFF) >> (32 - bits)
        while slots[at]:
            at = (at + 1) & ((1 << bits) - 1)
        slots[at] = number + 1
    arrays = (np.array(counts, dtype=np.uint8), np.array(codes, dtype=np.uint32), offsets, slots)
    for a in arrays:
        a.setflags(write=False)  # every indexer of these rounds shares them
    return Plan(*arrays)


def _key(counts: tuple[int, ...], cs: tuple[int, ...]) -> int:
    key = 0
    for n, c in zip(counts, cs):
        key = key * (n + 1) + c
    return key
