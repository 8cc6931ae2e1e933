"""Suit isomorphism: the 24 suit renamings and the boards up to them, against permutations written out here."""

from __future__ import annotations

from itertools import permutations
from math import comb

import numpy as np

from twoplustwo.hands.isomorphism import CARDS, N_CANONICAL_BOARDS, PERM_CARDS, SUIT_PERMS, canonical_boards


def test_the_24_renamings_are_every_permutation_of_the_suits() -> None:
    assert sorted(map(tuple, SUIT_PERMS.tolist())) == sorted(permutations(range(4)))
    for p, perm in enumerate(SUIT_PERMS.tolist()):
        # A renaming keeps each card's rank and moves its suit.
        assert PERM_CARDS[p].tolist() == [4 * (c // 4) + perm[c % 4] for c in range(52)]
    assert CARDS.tolist() == list(range(52))
    assert not any(a.flags.writeable for a in (SUIT_PERMS, PERM_CARDS, CARDS))


def test_canonical_boards_are_the_suit_classes() -> None:
    boards, weights = canonical_boards()
    assert boards.shape == (N_CANONICAL_BOARDS, 5) == (134_459, 5) and boards.dtype == np.uint8
    assert int(weights.sum()) == comb(52, 5) and set(np.unique(weights).tolist()) == {4, 12, 24}
    assert (np.diff(boards.astype(int), axis=1) > 0).all()
    assert not boards.flags.writeable and not weights.flags.writeable
    # The orbit of a few boards under the 24 suit permutations: its size is the weight,
    # and no other canonical board lies in it.
    # Each of the 24 suit permutations as a map of the 52 cards, written out here.
    perms = [np.array([(c & ~3) | p[c & 3] for c in range(52)]) for p in permutations(range(4))]
    rows = {tuple(b) for b in boards.tolist()}
    for i in np.random.default_rng(5).choice(len(boards), 300, replace=False):
        orbit = {tuple(sorted(p[boards[i]].tolist())) for p in perms}
        assert len(orbit) == weights[i]
        assert len(orbit & rows) == 1
