"""The runtime against the builder's oracles: every 5-, 6- and 7-card hand, random samples, on both backends.

The DAG is checked three ways: hand by hand against all four oracles on
every five-card hand; by category counts and distinct values against the
published figures on every six- and seven-card hand (the oracles agree with
those figures in ``test_oracles_exhaustive.py``); and hand by hand against
:mod:`twoplustwo_builder.oracles.specialk` on a million random hands per size in random
card order. Each check runs on the C backend and on the numpy reference.
The runtime's own tests (``tests/hands/test_evaluate.py``) hold it to the
committed conformance vectors instead, and need no builder.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twoplustwo.hands.batch import evaluate, evaluate_batch, walk
from twoplustwo.kernels.choice import BACKENDS, ENV_VAR, extension
from twoplustwo.kernels.games import walker_of
from twoplustwo.tables.default import load_tables
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.values import CATEGORIES, HAND_COUNTS, N_VALUES, categories
from twoplustwo_builder.oracles import cactus_kev, categoriser, signature, specialk
from twoplustwo_builder.testdata.hands import N_HANDS, all_hands, random_hands

ORACLES: list[ModuleType] = [categoriser, signature, cactus_kev, specialk]

# Hands per category, by name, as published.
PUBLISHED: dict[int, dict[str, int]] = {n: dict(zip(CATEGORIES, HAND_COUNTS[n][0])) for n in (6, 7)}
DISTINCT = {n: HAND_COUNTS[n][1] for n in (6, 7)}


def _per_category(histogram: npt.NDArray[np.int64]) -> dict[str, int]:
    per = np.bincount(categories(np.arange(1, N_VALUES + 1)), weights=histogram[1:], minlength=9)
    return {CATEGORIES[c]: int(per[c]) for c in range(8, -1, -1)}


@pytest.fixture(scope="module", params=BACKENDS)
def tables(request: pytest.FixtureRequest) -> Tables:
    """The default table set on one backend, chosen for this set alone."""
    if request.param == "c" and extension() is None:
        pytest.skip("the C extension was not built (no C compiler at install)")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(ENV_VAR, request.param)
        t = load_tables()
        _ = walker_of(t)  # chosen now, while the variable says so
    return t


@pytest.fixture(scope="module")
def five_card_values(five_card_hands: npt.NDArray[np.uint8], tables: Tables) -> npt.NDArray[np.uint16]:
    return evaluate_batch(five_card_hands, tables=tables)


# ------------------------------------------------------- every five-card hand


@pytest.mark.parametrize("oracle", ORACLES, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_batch_agrees_with_oracle_on_every_five_card_hand(
    oracle: ModuleType,
    five_card_hands: npt.NDArray[np.uint8],
    five_card_values: npt.NDArray[np.uint16],
    oracle_five_card_values: dict[str, npt.NDArray[np.uint16]],
) -> None:
    assert len(five_card_hands) == N_HANDS[5]
    # The oracle's values of these hands, computed once for both backends (conftest.py).
    np.testing.assert_array_equal(five_card_values, oracle_five_card_values[oracle.__name__])


def test_every_five_card_hand_takes_every_value(five_card_values: npt.NDArray[np.uint16]) -> None:
    assert five_card_values.dtype == np.uint16
    assert np.unique(five_card_values).tolist() == list(range(1, N_VALUES + 1))


def test_single_path_tables_on_every_five_card_hand(
    five_card_hands: npt.NDArray[np.uint8], five_card_values: npt.NDArray[np.uint16], tables: Tables
) -> None:
    # evaluate() walks five cards down the 7-card DAG and reads dag7/value5,
    # while evaluate_batch() uses dag5: both routes must agree everywhere.
    nodes = walk(tables.layers("dag7")[:5], five_card_hands)
    np.testing.assert_array_equal(tables.arrays["dag7/value5"][nodes], five_card_values)


def test_single_agrees_on_a_random_subset_of_five_card_hands(
    five_card_hands: npt.NDArray[np.uint8], five_card_values: npt.NDArray[np.uint16], tables: Tables
) -> None:
    rows = np.random.default_rng(5).choice(len(five_card_hands), 20_000, replace=False)
    got = [evaluate(h, tables=tables) for h in five_card_hands[rows].tolist()]
    assert got == five_card_values[rows].tolist()


# ------------------------------------------- every six- and seven-card hand


@pytest.mark.parametrize("k", [6, 7])
def test_category_counts_over_every_hand(k: int, tables: Tables) -> None:
    histogram = np.zeros(N_VALUES + 1, dtype=np.int64)
    # The 6-card run also walks the 7-card DAG to depth six and reads
    # dag7/value6, the table evaluate() uses for six cards.
    via_dag7 = np.zeros(N_VALUES + 1, dtype=np.int64) if k == 6 else None
    for chunk in all_hands(k):
        values = evaluate_batch(chunk, check=False, tables=tables)
        histogram += np.bincount(values, minlength=N_VALUES + 1)
        if via_dag7 is not None:
            nodes = walk(tables.layers("dag7")[:6], chunk)
            single = tables.arrays["dag7/value6"][nodes]
            np.testing.assert_array_equal(single, values)
            via_dag7 += np.bincount(single, minlength=N_VALUES + 1)
    assert histogram[0] == 0
    assert int(histogram.sum()) == N_HANDS[k]
    assert _per_category(histogram) == PUBLISHED[k]
    assert int((histogram > 0).sum()) == DISTINCT[k]


# ------------------------------------------------------- large random samples


@pytest.fixture(scope="module")
def large_samples() -> dict[int, tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint16]]]:
    """A million random hands per size and their specialk values, made once for both backends (read-only)."""
    out = {}
    for k in (5, 6, 7):
        hands = random_hands(1_000_000, k, seed=4000 + k)  # rows come in random card order
        expected = specialk.evaluate(hands)
        hands.flags.writeable = expected.flags.writeable = False
        out[k] = hands, expected
    return out


@pytest.mark.parametrize("k", [5, 6, 7])
def test_random_hands_in_random_order_agree_with_specialk(
    k: int, tables: Tables, large_samples: dict[int, tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint16]]]
) -> None:
    hands, expected = large_samples[k]
    np.testing.assert_array_equal(evaluate_batch(hands, tables=tables), expected)
    np.testing.assert_array_equal(evaluate_batch(hands, check=False, threads=1, tables=tables), expected)
    np.testing.assert_array_equal(evaluate_batch(hands, threads=2, tables=tables), expected)
    # Another order of the same cards: the walk must not care.
    shuffled = np.random.default_rng(k).permuted(hands, axis=1)
    np.testing.assert_array_equal(evaluate_batch(shuffled, tables=tables), expected)


@pytest.mark.parametrize("k", [5, 6, 7])
def test_single_agrees_with_specialk_on_random_hands(k: int, tables: Tables) -> None:
    hands = random_hands(20_000, k, seed=5000 + k)
    expected = specialk.evaluate(hands).tolist()
    rows = hands.tolist()
    assert [evaluate(h, tables=tables) for h in rows] == expected
    assert [evaluate(tuple(h), tables=tables) for h in rows[:2_000]] == expected[:2_000]


_hands = st.integers(5, 7).flatmap(
    lambda k: st.lists(st.integers(0, 51), min_size=k, max_size=k, unique=True)
)


@settings(max_examples=200, deadline=None)
@given(hand=_hands)
def test_value_is_in_range_and_matches_specialk(hand: list[int], tables: Tables) -> None:
    value = evaluate(hand, tables=tables)
    assert type(value) is int
    assert 1 <= value <= N_VALUES
    assert value == int(specialk.evaluate(np.array([hand]))[0])


# ------------------------------------------------------------------ dtypes


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16, np.uint16, np.int32, np.int64, ">i4"])
def test_integer_dtypes(dtype: npt.DTypeLike, tables: Tables) -> None:
    hands = random_hands(1_000, 7, seed=9)
    expected = specialk.evaluate(hands)
    converted = hands.astype(dtype)
    np.testing.assert_array_equal(evaluate_batch(converted, tables=tables), expected)
    np.testing.assert_array_equal(evaluate_batch(converted, check=False, tables=tables), expected)
    np.testing.assert_array_equal(evaluate_batch(converted.tolist(), tables=tables), expected)
    assert evaluate(converted[0], tables=tables) == int(expected[0])


def test_uint64_without_check(tables: Tables) -> None:
    hands = random_hands(100, 7, seed=9)
    np.testing.assert_array_equal(
        evaluate_batch(hands.astype(np.uint64), check=False, tables=tables), specialk.evaluate(hands)
    )
