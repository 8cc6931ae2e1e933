"""The prefix API against whole-hand evaluation: same values for every split of a hand, same checks."""

from __future__ import annotations

import dataclasses
from itertools import combinations

import numpy as np
import pytest

import twoplustwo as tp
from twoplustwo.hands.prefixes import MAX_PREFIX


def test_every_split_of_random_hands_agrees() -> None:
    rng = np.random.default_rng(31)
    for _ in range(3000):
        n = int(rng.integers(5, 8))
        hand = rng.choice(52, size=n, replace=False).tolist()
        want = tp.evaluate(hand)
        m = int(rng.integers(0, min(n, MAX_PREFIX) + 1))
        p = tp.prefix(hand[:m])
        assert p.evaluate(hand[m:]) == want, (hand, m)
        if m < min(n, MAX_PREFIX):
            assert p.extend(hand[m : m + 1]).evaluate(hand[m + 1 :]) == want


@pytest.mark.parametrize("m", range(0, MAX_PREFIX + 1))
def test_batches_agree_with_evaluate_batch(m: int) -> None:
    rng = np.random.default_rng(m)
    board = rng.choice(52, size=m, replace=False)
    p = tp.prefix(board)
    rest = np.setdiff1d(np.arange(52), board)
    for k in range(max(0, 5 - m), 8 - m):
        holes = np.array([rng.choice(rest, size=k, replace=False) for _ in range(2000)], dtype=np.int64)
        full = np.hstack([np.tile(board, (len(holes), 1)), holes]).astype(np.int64)
        want = tp.evaluate_batch(full) if full.shape[1] else np.zeros(0)
        np.testing.assert_array_equal(p.evaluate_batch(holes), want)
        np.testing.assert_array_equal(p.evaluate_batch(holes, check=False, threads=1), want)


def test_every_hole_pair_against_one_river_board() -> None:
    board = tp.parse_cards("Ah Kh Qh 7c 2d")
    p = tp.prefix(board)
    rest = [c for c in range(52) if c not in board]
    holes = np.array(list(combinations(rest, 2)), dtype=np.uint8)
    assert len(holes) == 1081
    want = [tp.evaluate(board + h) for h in holes.tolist()]
    assert p.evaluate_batch(holes).tolist() == want


def test_shared_cards_are_refused() -> None:
    p = tp.prefix("As Ks Qs")
    with pytest.raises(ValueError, match="As is in both the prefix and the cards"):
        p.evaluate("As Js")
    with pytest.raises(ValueError, match="hand 1: .* shares a card with the prefix As Ks Qs"):
        p.evaluate_batch(np.array([[0, 1], [51, 2]]))
    with pytest.raises(ValueError, match="Ks is in both"):
        p.extend("Ks")
    with pytest.raises(ValueError, match="duplicate"):
        p.evaluate_batch(np.array([[0, 0]]))


def test_sizes_are_checked() -> None:
    with pytest.raises(ValueError, match="a prefix holds 0 to 6 cards, got 7"):
        tp.prefix("2c 3c 4c 5c 6c 7c 8c")
    with pytest.raises(ValueError, match="make 4"):
        tp.prefix("2c 3c").evaluate("4c 5c")
    with pytest.raises(ValueError, match="k in 3..5"):
        tp.prefix("2c 3c").evaluate_batch(np.zeros((1, 6), dtype=np.uint8))
    with pytest.raises(TypeError, match="threads"):
        tp.prefix("2c").evaluate_batch(np.array([[0, 1, 4, 5]]), threads=1.5)  # type: ignore[arg-type]


def test_a_full_hand_prefix_is_its_value() -> None:
    p = tp.prefix("As Ks Qs Js Ts 2c")
    assert p.evaluate() == tp.evaluate("As Ks Qs Js Ts 2c") == 7462
    assert p.evaluate_batch(np.zeros((3, 0), dtype=np.uint8)).tolist() == [7462] * 3
    assert p.evaluate("3d") == 7462


def test_a_prefix_is_immutable() -> None:
    p = tp.prefix("As Ks")
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.cards = (1, 2)  # type: ignore[misc]
    assert repr(p) == "Prefix('As Ks')"
