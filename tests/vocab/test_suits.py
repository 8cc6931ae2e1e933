"""Suit isomorphism: renamings, boards, deals and pairs up to them, against permutations written out here."""

from __future__ import annotations

from itertools import permutations
from math import comb

import numpy as np

from twoplustwo.vocab.combos import COMBO_ROW
from twoplustwo.vocab.suits import (
    CARDS,
    N_CANONICAL_BOARDS,
    PERM_CARDS,
    SUIT_PERMS,
    canonical_boards,
    deal_classes,
    pair_keys,
    renamings_keeping,
    suit_classes,
)


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


#: The 24 renamings as maps of the 52 cards, written out here.
PERMS = [[(c & ~3) | p[c & 3] for c in range(52)] for p in permutations(range(4))]


def _brute_renamings(known: tuple[int, ...], dead: tuple[int, ...]) -> list[list[int]]:
    """The renamings that keep the sets ``known`` and ``dead``."""
    return [p for p in PERMS if {p[c] for c in known} == set(known) and {p[c] for c in dead} == set(dead)]


def test_renamings_keeping_every_board_of_up_to_two_cards_and_a_dead_card() -> None:
    # Exhaustive over every known card and pair of known cards, and a known card with a dead one.
    cases = [((a,), ()) for a in range(52)] + [((a, b), ()) for a in range(52) for b in range(a + 1, 52)]
    cases += [((a,), (d,)) for a in range(52) for d in range(52) if d != a]
    for known, dead in cases:
        got = renamings_keeping(known, dead)
        assert sorted(got.tolist()) == sorted(_brute_renamings(known, dead)), (known, dead)
        assert got[0].tolist() == list(range(52))  # the identity first
        assert not got.flags.writeable


def test_suit_classes_are_the_orbits_under_the_renamings_that_keep_the_cards() -> None:
    rng = np.random.default_rng(37)
    for players, known, dead in [(2, (), ()), (3, (51,), ()), (2, (0, 5, 10), (20,)), (6, (), ()), (6, (12,), ())]:
        deals = []
        while len(deals) < 400:
            cards = rng.choice([c for c in range(52) if c not in known + dead], 2 * players, replace=False)
            deals.append(np.sort(cards.reshape(players, 2), axis=1))
        holes = np.array(deals, dtype=np.uint8)
        classes, inverse = suit_classes(holes, known, dead)
        keep = _brute_renamings(known, dead)
        # Brute force: a deal's class is its least image, each player's combo as its row.
        images = []
        for deal in holes.tolist():
            least = min(tuple(COMBO_ROW[min(p[a], p[b]), max(p[a], p[b])] for a, b in deal) for p in keep)
            images.append(least)
        first: dict[tuple[int, ...], int] = {}
        for i, key in enumerate(images):
            # Two deals share a class exactly when their least images agree.
            assert inverse[first.setdefault(key, i)] == inverse[i]
        assert len(classes) == len(first) == len(set(inverse.tolist()))
        for i in range(len(images)):  # each class's deal is one of its own
            assert tuple(COMBO_ROW[c[0], c[1]] for c in classes[inverse[i]].tolist()) in {
                tuple(COMBO_ROW[min(p[a], p[b]), max(p[a], p[b])] for a, b in holes[i].tolist()) for p in keep
            }


def test_deal_classes_keeps_every_deal_when_only_the_identity_keeps_the_cards() -> None:
    holes = np.array([[[0, 1], [2, 3]], [[4, 5], [6, 7]]], dtype=np.uint8)
    known, dead = (42, 45, 48), (39,)  # one card of each suit (sorted, as callers give them): the identity alone
    assert len(renamings_keeping(known, dead)) == 1
    classes, inverse = deal_classes(holes, known, dead)
    assert inverse is None and classes is holes


def test_pair_keys_are_the_least_image_of_the_unordered_deal() -> None:
    rng = np.random.default_rng(38)
    cards = np.array([rng.choice(52, 4, replace=False) for _ in range(3000)], dtype=np.uint8)
    a, b = np.sort(cards[:, :2], axis=1), np.sort(cards[:, 2:], axis=1)
    keys, swapped = pair_keys(a, b)
    perms = PERMS

    def packed(x: list[int], y: list[int], p: list[int]) -> int:
        u, v = sorted((p[x[0]], p[x[1]])), sorted((p[y[0]], p[y[1]]))
        return (u[0] << 18) | (u[1] << 12) | (v[0] << 6) | v[1]

    for i in range(len(a)):
        x, y = a[i].tolist(), b[i].tolist()
        forward = min(packed(x, y, p) for p in perms)
        backward = min(packed(y, x, p) for p in perms)
        assert int(keys[i]) == min(forward, backward)
        assert bool(swapped[i]) is (backward < forward)
