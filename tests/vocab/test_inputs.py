"""What a caller may pass as an int or an integer array (twoplustwo.vocab.inputs), and every entry point that takes one.

Masked arrays are refused everywhere with one wording; numpy integers are
ints everywhere; a caller's array is read once, so that a value another
thread writes during the call gives an error or the answer of one of the
array's two states (tests/racing.py), never a third answer.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import twoplustwo as tp
from tests.racing import every_moment
from twoplustwo.vocab.combos import combo_indices
from twoplustwo.vocab.inputs import check_int, int_array, is_int


def test_ints_are_python_and_numpy_integers_never_bools() -> None:
    for x in (0, -3, 2**70, np.int8(1), np.uint64(2**64 - 1), np.intp(7)):
        assert is_int(x) and check_int(x, "n") == int(x) and type(check_int(x, "n")) is int
    for x in (True, np.bool_(False), 1.0, np.float64(2), "3", None, np.array(3), [1]):
        assert not is_int(x)
        with pytest.raises(TypeError, match=f"n must be an int, got {type(x).__name__}"):
            check_int(x, "n")


def test_an_integer_array_is_a_private_copy_checked_once() -> None:
    a = np.arange(6, dtype=np.int16).reshape(2, 3)
    b = int_array(a, "cards")
    assert b is not a and not np.shares_memory(a, b) and b.dtype == np.int16 and b.tolist() == a.tolist()
    assert int_array(a, "cards", copy=False) is a
    assert int_array(a[:, ::2], "cards").flags.c_contiguous
    assert int_array([], "cards").dtype == np.uint8 and int_array(np.zeros((0, 5)), "cards").shape == (0, 5)
    for bad, message in [
        (np.zeros(2), "cards must be integers, got dtype float64"),
        (np.array([True]), "cards must be integers, got dtype bool"),
        (["As", "Kd"], "cards must be integers, got dtype <U2"),
        ([[1, 2], [3]], "cards must be an integer array: "),
    ]:
        with pytest.raises(ValueError, match=message):
            int_array(bad, "cards")
    with pytest.raises(TypeError, match=r"^cards must be a plain array, not a masked array \(fill or compress"):
        int_array(np.ma.array([1, 2], mask=[0, 1]), "cards")


def _masked(rows: Any) -> np.ma.MaskedArray:
    a = np.array(rows)
    return np.ma.array(a, mask=np.arange(a.size).reshape(a.shape) == a.size - 1)


HAND = [51, 47, 0, 5, 10]
BOARD = [45, 20, 8, 30, 33]
#: Every entry point that takes a caller's integer array, given a masked one.
MASKED: dict[str, Callable[[], object]] = {
    "parse_cards": lambda: tp.parse_cards(_masked(HAND)),
    "evaluate": lambda: tp.evaluate(_masked(HAND)),
    "evaluate_batch": lambda: tp.evaluate_batch(_masked([HAND])),
    "evaluate_omaha_batch": lambda: tp.evaluate_omaha_batch(_masked([[1, 2, 3, 4]]), BOARD),
    "evaluate_omaha_low_batch": lambda: tp.evaluate_omaha_low_batch([[1, 2, 3, 4]], _masked(BOARD)),
    "HandIndexer.index": lambda: tp.HandIndexer((2, 3)).index(_masked([HAND])),
    "HandIndexer.index one": lambda: tp.HandIndexer((2, 3)).index(_masked(HAND)),
    "HandIndexer.unindex": lambda: tp.HandIndexer((2, 3)).unindex(_masked([0, 1])),
    "HandIndexer.counts": lambda: tp.HandIndexer((2, 3)).counts(_masked([0, 1])),
    "strength_batch": lambda: tp.strength_batch(_masked([[51, 50]]), [[1, 2, 3]]),
    "kmeans": lambda: tp.kmeans(_masked(np.ones((3, 2), dtype=np.uint16)), k=1),
    "categories": lambda: tp.categories(_masked([1, 2])),
    "value_from_code": lambda: tp.value_from_code(_masked([0x8CBA98])),
    "handranks_value": lambda: tp.handranks_value(_masked([1, 2])),
    "value_from_handranks": lambda: tp.value_from_handranks(_masked([4097, 4098])),
    "combo_indices": lambda: combo_indices(_masked([0, 1]), [2, 3]),
    "equity_vs_range": lambda: tp.equity_vs_range(_masked(BOARD), "AA"),
    "bucket_of": lambda: tp.bucket_of(_masked([51, 50]), BOARD, "percentile", 5),
    "Range": lambda: tp.Range(_masked(np.ones(1326))),
    "Range.from_combos": lambda: tp.Range.from_combos(_masked([[51, 50], [1, 0]])),
    "Range.from_combos weights": lambda: tp.Range.from_combos([[51, 50], [1, 0]], _masked([0.5, 1.0])),
}


@pytest.mark.parametrize("name", list(MASKED))
def test_masked_arrays_are_refused_everywhere(name: str) -> None:
    with pytest.raises(TypeError, match="must be a plain array, not a masked array"):
        MASKED[name]()


@pytest.mark.parametrize(
    ("call", "cells", "at", "bad"),
    [
        (tp.categories, np.array([1, 1278, 7462, 5]), (2,), 7463),
        (tp.categories, np.array([1, 1278, 7462, 5]), (3,), 0),
        (tp.handranks_value, np.array([1, 1278, 7462, 5]), (2,), 7463),
        (tp.value_from_handranks, np.array([4097, 36865]), (1,), 1 << 20),
        (tp.value_from_code, np.array([0x8CBA98, 0x43210C]), (1,), 0x43210D),
        (lambda a: combo_indices(a, [50, 3]), np.array([51, 7]), (0,), 52),
        (lambda a: combo_indices(a, [50, 3]), np.array([51, 7]), (1,), -1),
    ],
    ids=["categories-high", "categories-zero", "handranks_value", "value_from_handranks", "value_from_code",
         "combo_indices-52", "combo_indices-minus"],  # fmt: skip
)
def test_a_value_changed_during_a_call_is_an_error_or_the_right_answer(
    call: Callable[[np.ndarray], Any], cells: np.ndarray, at: tuple[int], bad: int
) -> None:
    # Checked on the caller's array and then looked up from it again, a bad
    # value written in between was an IndexError or the entry of another.
    want = call(cells)
    assert every_moment(cells, at, bad, lambda: call(cells), [want])


def test_range_weights_changed_during_from_combos_give_one_states_range_or_an_error() -> None:
    combos = np.array([[51, 50], [1, 0], [47, 43]])
    weights = np.array([0.5, 1.0, 0.25])
    other = weights.copy()
    other[1] = 0.75
    both = [tp.Range.from_combos(combos, weights), tp.Range.from_combos(combos, other)]
    assert every_moment(weights, (1,), 0.75, lambda: tp.Range.from_combos(combos, weights), both, same=operator.eq)
    assert every_moment(weights, (1,), 0.0, lambda: tp.Range.from_combos(combos, weights), both[:1], same=operator.eq)
    assert every_moment(combos, (1, 0), 52, lambda: tp.Range.from_combos(combos, weights), both[:1], same=operator.eq)
