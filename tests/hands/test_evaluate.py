"""The runtime against the oracles: every 5-, 6- and 7-card hand, random samples, bad input.

The DAG is checked three ways: hand by hand against all four oracles on
every five-card hand; by category counts and distinct values against the
published figures on every six- and seven-card hand (the oracles agree with
those figures in ``test_oracles_exhaustive.py``); and hand by hand against
:mod:`twoplustwo_builder.oracles.specialk` on a million random hands per size in random
card order. Takes about 30 seconds on two cores.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twoplustwo.hands.batch import evaluate, evaluate_batch, walk
from twoplustwo.tables.load import get_tables
from twoplustwo.vocab.cards import format_card, format_cards, parse_cards
from twoplustwo.vocab.values import CATEGORIES, HAND_COUNTS, N_VALUES, categories
from twoplustwo_builder.hands import N_HANDS, all_hands, random_hands
from twoplustwo_builder.oracles import cactus_kev, categoriser, signature, specialk

ORACLES: list[ModuleType] = [categoriser, signature, cactus_kev, specialk]

# Hands per category, by name, as published.
PUBLISHED: dict[int, dict[str, int]] = {n: dict(zip(CATEGORIES, HAND_COUNTS[n][0])) for n in (6, 7)}
DISTINCT = {n: HAND_COUNTS[n][1] for n in (6, 7)}


def _per_category(histogram: npt.NDArray[np.int64]) -> dict[str, int]:
    per = np.bincount(categories(np.arange(1, N_VALUES + 1)), weights=histogram[1:], minlength=9)
    return {CATEGORIES[c]: int(per[c]) for c in range(8, -1, -1)}


@pytest.fixture(scope="module")
def five_card_hands() -> npt.NDArray[np.uint8]:
    return np.concatenate(list(all_hands(5)))


@pytest.fixture(scope="module")
def five_card_values(five_card_hands: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint16]:
    return evaluate_batch(five_card_hands)


# ------------------------------------------------------- every five-card hand


@pytest.mark.parametrize("oracle", ORACLES, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_batch_agrees_with_oracle_on_every_five_card_hand(
    oracle: ModuleType, five_card_hands: npt.NDArray[np.uint8], five_card_values: npt.NDArray[np.uint16]
) -> None:
    assert len(five_card_hands) == N_HANDS[5]
    np.testing.assert_array_equal(five_card_values, oracle.evaluate(five_card_hands))


def test_every_five_card_hand_takes_every_value(five_card_values: npt.NDArray[np.uint16]) -> None:
    assert five_card_values.dtype == np.uint16
    assert np.unique(five_card_values).tolist() == list(range(1, N_VALUES + 1))


def test_single_path_tables_on_every_five_card_hand(
    five_card_hands: npt.NDArray[np.uint8], five_card_values: npt.NDArray[np.uint16]
) -> None:
    # evaluate() walks five cards down the 7-card DAG and reads dag7/value5,
    # while evaluate_batch() uses dag5: both routes must agree everywhere.
    t = get_tables()
    nodes = walk(t.layers("dag7")[:5], five_card_hands)
    np.testing.assert_array_equal(t.arrays["dag7/value5"][nodes], five_card_values)


def test_single_agrees_on_a_random_subset_of_five_card_hands(
    five_card_hands: npt.NDArray[np.uint8], five_card_values: npt.NDArray[np.uint16]
) -> None:
    rows = np.random.default_rng(5).choice(len(five_card_hands), 20_000, replace=False)
    got = [evaluate(h) for h in five_card_hands[rows].tolist()]
    assert got == five_card_values[rows].tolist()


# ------------------------------------------- every six- and seven-card hand


@pytest.mark.parametrize("k", [6, 7])
def test_category_counts_over_every_hand(k: int) -> None:
    t = get_tables()
    histogram = np.zeros(N_VALUES + 1, dtype=np.int64)
    # The 6-card run also walks the 7-card DAG to depth six and reads
    # dag7/value6, the table evaluate() uses for six cards.
    via_dag7 = np.zeros(N_VALUES + 1, dtype=np.int64) if k == 6 else None
    for chunk in all_hands(k):
        values = evaluate_batch(chunk, check=False)
        histogram += np.bincount(values, minlength=N_VALUES + 1)
        if via_dag7 is not None:
            nodes = walk(t.layers("dag7")[:6], chunk)
            single = t.arrays["dag7/value6"][nodes]
            np.testing.assert_array_equal(single, values)
            via_dag7 += np.bincount(single, minlength=N_VALUES + 1)
    assert histogram[0] == 0
    assert int(histogram.sum()) == N_HANDS[k]
    assert _per_category(histogram) == PUBLISHED[k]
    assert int((histogram > 0).sum()) == DISTINCT[k]


# ------------------------------------------------------- large random samples


@pytest.mark.parametrize("k", [5, 6, 7])
def test_random_hands_in_random_order_agree_with_specialk(k: int) -> None:
    hands = random_hands(1_000_000, k, seed=4000 + k)  # rows come in random card order
    expected = specialk.evaluate(hands)
    np.testing.assert_array_equal(evaluate_batch(hands), expected)
    np.testing.assert_array_equal(evaluate_batch(hands, check=False, threads=1), expected)
    np.testing.assert_array_equal(evaluate_batch(hands, threads=2), expected)
    # Another order of the same cards: the walk must not care.
    shuffled = np.random.default_rng(k).permuted(hands, axis=1)
    np.testing.assert_array_equal(evaluate_batch(shuffled), expected)


@pytest.mark.parametrize("k", [5, 6, 7])
def test_single_agrees_with_specialk_on_random_hands(k: int) -> None:
    hands = random_hands(20_000, k, seed=5000 + k)
    expected = specialk.evaluate(hands).tolist()
    rows = hands.tolist()
    assert [evaluate(h) for h in rows] == expected
    assert [evaluate(tuple(h)) for h in rows[:2_000]] == expected[:2_000]


# ------------------------------------------------------------------- properties

_hands = st.integers(5, 7).flatmap(
    lambda k: st.lists(st.integers(0, 51), min_size=k, max_size=k, unique=True)
)


@settings(max_examples=300, deadline=None)
@given(hand=_hands, data=st.data())
def test_card_order_does_not_matter(hand: list[int], data: st.DataObject) -> None:
    other = data.draw(st.permutations(hand))
    assert evaluate(other) == evaluate(hand)
    assert evaluate(tuple(other)) == evaluate(hand)


@settings(max_examples=100, deadline=None)
@given(batch=st.integers(5, 7).flatmap(
    lambda k: st.lists(st.lists(st.integers(0, 51), min_size=k, max_size=k, unique=True), min_size=1, max_size=30)
))
def test_batch_equals_single(batch: list[list[int]]) -> None:
    expected = [evaluate(h) for h in batch]
    assert evaluate_batch(np.array(batch)).tolist() == expected
    assert evaluate_batch(np.array(batch, dtype=np.uint8), check=False).tolist() == expected


@settings(max_examples=300, deadline=None)
@given(hand=_hands)
def test_string_input_equals_int_input(hand: list[int]) -> None:
    value = evaluate(hand)
    assert evaluate(format_cards(hand)) == value
    assert evaluate([format_card(c) for c in hand]) == value
    assert evaluate(format_cards(hand).replace(" ", "")) == value
    assert evaluate(np.array(hand)) == value


@settings(max_examples=200, deadline=None)
@given(hand=_hands)
def test_value_is_in_range_and_matches_specialk(hand: list[int]) -> None:
    value = evaluate(hand)
    assert type(value) is int
    assert 1 <= value <= N_VALUES
    assert value == int(specialk.evaluate(np.array([hand]))[0])


# --------------------------------------------------------------- known hands


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("As Ks Qs Js Ts 2c 3d", 7462),
        ("As Ks Qs Js Ts", 7462),
        ("7c 5d 4h 3s 2c", 1),
        ("Ah Ad Kc Kd Ks", 7284),
        ("2c 3c 4c 5c 6d", 5855),
        ("Ac 2d 3h 4s 5c 6d", 5855),  # six-high straight beats the wheel in it
        ("5c 4d 3h 2s Ac", 5854),
    ],
)
def test_known_values(text: str, value: int) -> None:
    assert evaluate(text) == value
    assert evaluate_batch(np.array([parse_cards(text)])).tolist() == [value]


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ([0, 0, 1, 2, 3], "duplicate"),
        ([0, 1, 2, 3, 4, 5, 0], "duplicate"),
        ("As Kd Qh Jc As", "duplicate"),
        ([0, 1, 2, 3, 52], "out of range"),
        ([0, 1, 2, 3, 4, 5, 52], "out of range"),
        ([-1, 1, 2, 3, 4], "out of range"),
        ([0, 1, 2, 3, 4, 5, -1], "out of range"),
        ([0, 1, 2, 3], "got 4"),
        (list(range(8)), "got 8"),
        ([], "got 0"),
        ("As Kd Qh Jc", "got 4"),
        ("As Kd Qh Jc Xs", "unknown rank 'X'"),
        ("As Kd Qh Jc Tx", "unknown suit 'x'"),
        ("As Kd Qh Jc T", "missing suit"),
        ("As Kd Qh Jc Ts 2c 3d 4h", "got 8"),
        ([0, 1, 2, 3, 4.0], "got float"),
        ([0, 1, 2, 3, 4, 5, 6.0], "got float"),
        ([0, 1, 2, 3, None], "got NoneType"),
        ([True, 1, 2, 3, 4], "bool"),
        (np.array([0.0, 1, 2, 3, 4]), "integer array"),
        (np.array([[0, 1, 2, 3, 4]]), "1-D"),
        (12345, "got int"),
        (b"AsKsQsJsTs", "got bytes"),
    ],
    ids=repr,
)
def test_bad_single_input_names_the_problem(cards: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        evaluate(cards)  # type: ignore[arg-type]


def test_bad_card_message_names_position_and_card() -> None:
    with pytest.raises(ValueError, match=r"card 6 \(52\): out of range 0\.\.51"):
        evaluate([0, 1, 2, 3, 4, 5, 52])
    with pytest.raises(ValueError, match=r"card 6 \(0\): duplicate of card 0"):
        evaluate([0, 1, 2, 3, 4, 5, 0])


def test_bool_is_no_card_on_the_fast_path() -> None:
    with pytest.raises(ValueError, match="bool"):
        evaluate([True, 2, 3, 4, 5, 6, 7])


def test_huge_card_is_out_of_range_on_the_fast_path() -> None:
    # 1 << 10**7 would build a 1.25 MB int before the range is noticed;
    # whatever the fast path does, the answer must be a ValueError.
    with pytest.raises(ValueError, match="out of range"):
        evaluate([0, 1, 2, 3, 4, 5, 10**7])


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        (np.zeros((3, 4), dtype=np.int64), r"shape \(3, 4\)"),
        (np.zeros((3, 8), dtype=np.int64), r"shape \(3, 8\)"),
        (np.zeros(5, dtype=np.int64), r"shape \(5,\)"),
        (np.zeros((2, 3, 5), dtype=np.int64), r"shape \(2, 3, 5\)"),
        (np.zeros((2, 5)), "must be integers, got dtype float64"),
        (np.array([[0, 1, 2, 3, 4]], dtype=object), "must be integers, got dtype object"),
        (np.array([[0, 1, 2, 3, 4]], dtype=bool), "must be integers, got dtype bool"),
        ([["As", "Kd", "Qh", "Jc", "Ts"]], "must be integers"),
    ],
    ids=["4cols", "8cols", "1d", "3d", "float", "object", "bool", "strings"],
)
def test_bad_batch_shape_or_dtype(hands: object, message: str) -> None:
    for check in (True, False):
        with pytest.raises(ValueError, match=message):
            evaluate_batch(hands, check=check)  # type: ignore[arg-type]


def _good(n: int, k: int = 7) -> npt.NDArray[np.int64]:
    return random_hands(n, k, seed=n).astype(np.int64)


@pytest.mark.parametrize(
    ("card", "message"),
    [(52, "52 is out of range"), (-1, "-1 is out of range"), (200, "200 is out of range")],
)
def test_batch_check_names_the_first_out_of_range_row(card: int, message: str) -> None:
    hands = _good(10)
    hands[3, 2] = card
    hands[7, 0] = card
    with pytest.raises(ValueError, match=rf"hand 3, card 2: {message}"):
        evaluate_batch(hands)


def test_batch_check_names_the_first_duplicate_row() -> None:
    hands = _good(100_000)
    hands[70_000, 4] = hands[70_000, 1]  # past the first check block
    hands[90_000, 0] = hands[90_000, 6]
    with pytest.raises(ValueError, match=r"hand 70000: duplicate card"):
        evaluate_batch(hands)


def test_batch_check_names_the_first_bad_row_of_either_kind() -> None:
    hands = _good(10)
    hands[2, 1] = hands[2, 0]
    hands[5, 0] = 52
    with pytest.raises(ValueError, match=r"hand 2\b"):
        evaluate_batch(hands)


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16, np.uint16, np.int32, np.int64, ">i4"])
def test_integer_dtypes(dtype: npt.DTypeLike) -> None:
    hands = random_hands(1_000, 7, seed=9)
    expected = specialk.evaluate(hands)
    converted = hands.astype(dtype)
    np.testing.assert_array_equal(evaluate_batch(converted), expected)
    np.testing.assert_array_equal(evaluate_batch(converted, check=False), expected)
    np.testing.assert_array_equal(evaluate_batch(converted.tolist()), expected)
    assert evaluate(converted[0]) == int(expected[0])


def test_uint64_without_check() -> None:
    hands = random_hands(100, 7, seed=9)
    np.testing.assert_array_equal(
        evaluate_batch(hands.astype(np.uint64), check=False), specialk.evaluate(hands)
    )


@pytest.mark.parametrize("k", [5, 6, 7])
def test_empty_batch(k: int) -> None:
    out = evaluate_batch(np.zeros((0, k), dtype=np.uint8))
    assert out.shape == (0,) and out.dtype == np.uint16


def test_batch_is_uint16_and_does_not_touch_its_input() -> None:
    hands = random_hands(300_000, 7, seed=11)  # large enough to be split over threads
    before = hands.copy()
    out = evaluate_batch(hands)
    assert out.dtype == np.uint16 and out.shape == (300_000,)
    np.testing.assert_array_equal(hands, before)


# ------------------------------------------------------------------ importing


def _run(code: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_import_loads_neither_builder_nor_tables() -> None:
    out = _run(
        """
        import sys
        import twoplustwo
        import twoplustwo.cli
        import twoplustwo.tables.load as tables
        leaked = sorted(m for m in sys.modules if m == "twoplustwo_builder" or m.startswith("twoplustwo_builder."))
        assert not leaked, leaked
        assert tables._cached is None, "tables loaded at import"
        def mapped():
            try:
                with open("/proc/self/maps") as f:
                    return ".npy" in f.read()
            except OSError:
                return False
        assert not mapped(), "table files mapped at import"
        twoplustwo.evaluate("As Ks Qs Js Ts 2c 3d")
        assert tables._cached is not None
        assert mapped() or not __import__("os").path.exists("/proc/self/maps")
        print("ok")
        """
    )
    assert out == "ok"


def test_import_works_without_tables(tmp_path: Path) -> None:
    # Missing tables are an error of the first evaluation, never of the import.
    out = _run(
        f"""
        import os
        os.environ["TWOPLUSTWO_TABLES"] = {str(tmp_path)!r}
        import twoplustwo
        try:
            twoplustwo.evaluate("As Ks Qs Js Ts")
        except twoplustwo.TableError as e:
            print("TableError", "twoplustwo build" in str(e))
        """
    )
    assert out == "TableError True"
