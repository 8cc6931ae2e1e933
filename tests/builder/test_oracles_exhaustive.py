"""Every hand: all 2,598,960 five-card hands through each oracle, and all
20,358,520 six-card and 133,784,560 seven-card hands through the fastest.

The expected counts per category are the published ones (seed 001 for five
cards; the standard enumerations for six and seven). On five cards the
oracles must also agree hand by hand. Takes about 20 seconds on two cores.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

from twoplustwo.vocab.values import CATEGORIES, CATEGORY_FIRST, CATEGORY_LAST, HAND_COUNTS, N_VALUES
from twoplustwo_builder.oracles import cactus_kev, categoriser, signature, specialk
from twoplustwo_builder.testdata.hands import N_HANDS, all_hands

pytestmark = pytest.mark.slow

ORACLES: list[ModuleType] = [categoriser, cactus_kev, signature, specialk]
#: The oracle that goes through all six- and seven-card hands.
FASTEST = specialk

# Hands per category, indexed like CATEGORIES (high card .. straight flush).
COUNTS = {n: counts for n, (counts, _) in HAND_COUNTS.items()}
DISTINCT = {n: distinct for n, (_, distinct) in HAND_COUNTS.items()}
# Five-card hands per value in each category (seed 001's groups on the field).
PER_VALUE_5 = (1_020, 384, 144, 64, 1_020, 4, 24, 4, 4)


def _per_category(histogram: np.ndarray) -> tuple[int, ...]:
    return tuple(
        int(histogram[first : last + 1].sum())
        for first, last in zip(CATEGORY_FIRST, CATEGORY_LAST)
    )


def _category_of_values() -> np.ndarray:
    out = np.full(N_VALUES + 1, -1)
    for c in range(len(CATEGORIES)):
        out[CATEGORY_FIRST[c] : CATEGORY_LAST[c] + 1] = c
    return out


def _check_histogram(histogram: np.ndarray, k: int) -> None:
    assert histogram[0] == 0, "value 0 is no hand"
    assert int(histogram.sum()) == N_HANDS[k]
    assert dict(zip(CATEGORIES, _per_category(histogram))) == dict(zip(CATEGORIES, COUNTS[k]))
    assert int(np.count_nonzero(histogram)) == DISTINCT[k]


def test_expected_counts_add_up() -> None:
    for k, counts in COUNTS.items():
        assert sum(counts) == N_HANDS[k]
    assert CATEGORY_FIRST[0] == 1 and CATEGORY_LAST[-1] == N_VALUES


@pytest.mark.parametrize("oracle", ORACLES, ids=lambda m: m.__name__.split(".")[-1])
def test_five_cards_every_class(
    oracle: ModuleType, oracle_five_card_values: dict[str, np.ndarray]
) -> None:
    values = oracle_five_card_values[oracle.__name__]
    assert values.dtype == np.uint16 and len(values) == N_HANDS[5]
    histogram = np.bincount(values, minlength=N_VALUES + 1)
    assert len(histogram) == N_VALUES + 1
    _check_histogram(histogram, 5)
    # Every value 1..7462 occurs, each exactly as often as its category says.
    expected = np.array(PER_VALUE_5)[_category_of_values()[1:]]
    np.testing.assert_array_equal(histogram[1:], expected)


def test_five_cards_oracles_agree_hand_by_hand(
    five_card_hands: np.ndarray, oracle_five_card_values: dict[str, np.ndarray]
) -> None:
    assert sorted(oracle_five_card_values) == sorted(oracle.__name__ for oracle in ORACLES)
    reference = oracle_five_card_values[categoriser.__name__]
    for name, values in oracle_five_card_values.items():
        mismatch = np.flatnonzero(values != reference)
        assert len(mismatch) == 0, (
            f"{name} differs from the categoriser on {len(mismatch)} hands, "
            f"first {five_card_hands[mismatch[0]].tolist()}"
        )


@pytest.mark.parametrize("k", [6, 7])
def test_every_hand_through_the_fastest_oracle(k: int) -> None:
    histogram = np.zeros(N_VALUES + 1, dtype=np.int64)
    previous_last = -1
    for chunk in all_hands(k):
        histogram += np.bincount(FASTEST.evaluate(chunk), minlength=N_VALUES + 1)
        # Chunks follow each other in lexicographic order (cheap to check
        # at the seams; within a chunk the order is all_hands' own test).
        first = int.from_bytes(chunk[0].tobytes(), "big")
        assert first > previous_last
        previous_last = int.from_bytes(chunk[-1].tobytes(), "big")
    _check_histogram(histogram, k)
