"""Rows of cards read and checked in one place (hands/rows.py), held to a brute force and to every batch's messages."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twoplustwo.hands.batch import evaluate_batch
from twoplustwo.hands.omaha import evaluate_omaha_batch
from twoplustwo.hands.prefixes import prefix
from twoplustwo.hands.rows import as_hands, bad_hand, first_bad_row, read_rows, twice
from twoplustwo.odds.strength import strength_batch


def _bad(row: list[int]) -> bool:
    return any(not 0 <= c <= 51 for c in row) or len(set(row)) != len(row)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(-3, 55), min_size=4, max_size=4), max_size=12))
def test_first_bad_row_and_twice_match_a_brute_force(rows: list[list[int]]) -> None:
    a = np.array(rows, dtype=np.int64).reshape(-1, 4)
    want = next((i for i, r in enumerate(rows) if _bad(r)), -1)
    assert first_bad_row(a) == want
    live = a[~((a < 0) | (a > 51)).any(axis=1)]
    assert twice(live).tolist() == [len(set(r)) != len(r) for r in live.tolist()]


def test_read_rows_shapes() -> None:
    assert read_rows([], "holes", (2,), "in (2,)").shape == (0, 2)
    assert read_rows([51, 50, 49], "boards", (3, 4, 5), "= 3, 4 or 5", one_row=True).shape == (3,)
    with pytest.raises(ValueError, match=r"^boards must be an \(N, k\) array with k = 3, 4 or 5, got shape \(3,\)$"):
        read_rows([51, 50, 49], "boards", (3, 4, 5), "= 3, 4 or 5")
    with pytest.raises(ValueError, match=r"^hands must be an \(N, k\) array with k in 5..7, got shape \(1, 1, 5\)$"):
        as_hands([[[0, 1, 2, 3, 4]]], range(5, 8))
    own = np.zeros((2, 5), dtype=np.uint8)
    assert as_hands(own, range(5, 8)) is own  # no copy of the caller's batch
    assert read_rows(own, "hands", (5,), "= 5") is not own  # a private copy


def test_bad_hand_names_the_first_fault_in_order() -> None:
    rows = np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, 60], [5, 5, 6, 7, 8]])
    assert str(bad_hand(rows, 3)) == "hand 4, card 4: 60 is out of range 0..51"
    assert str(bad_hand(rows[[0, 2]])) == "hand 1: duplicate card in [5, 5, 6, 7, 8]"
    assert str(bad_hand(rows[:1], held=[4])) == "hand 0: [0, 1, 2, 3, 4] shares a card with the prefix 3c"
    assert "changed during the call" in str(bad_hand(rows[:1]))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: evaluate_batch([[0, 1, 2, 3, 4], [0, 1, 2, 3, 3]]), "hand 1: duplicate card in [0, 1, 2, 3, 3]"),
        (lambda: evaluate_batch([[0, 1, 2, 3, 52]]), "hand 0, card 4: 52 is out of range 0..51"),
        (lambda: evaluate_batch([[0, 1, 2, 3]]), "hands must be an (N, k) array with k in 5..7, got shape (1, 4)"),
        (lambda: prefix("2c 2d").evaluate_batch([[1, 2, 3]]), "hand 0: [1, 2, 3] shares a card with the prefix 2c 2d"),
        (
            lambda: evaluate_omaha_batch([[0, 1, 2, 3]], [[4, 5, 3]]),
            "row 0: 2s is in both the hole cards and the board",
        ),
        (lambda: strength_batch([[51, 51]], [[1, 2, 3]]), "hole 0 holds a card twice"),
        (lambda: strength_batch([[51, 50]], [[1, 2, 50]]), "row 0 holds a card twice (hole and board)"),
        (
            lambda: strength_batch([[51, 50]], [[1, 2]]),
            "boards must be an (N, k) array with k in (0, 3, 4, 5), got shape (1, 2)",
        ),
        (lambda: strength_batch([[51, 52]], [[1, 2, 3]]), "holes must be card ints 0..51"),
    ],
)
def test_every_batch_says_the_same_as_before(call: object, message: str) -> None:
    with pytest.raises(ValueError) as e:
        call()  # type: ignore[operator]
    assert str(e.value) == message
