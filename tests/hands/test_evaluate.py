"""Single hands and batches on the runtime alone: the conformance vectors, properties, bad input, imports.

The values are held to ``spec/conformance/vectors.txt``, the committed
vectors every correct table set gives (10,009 hands of 5, 6 and 7 cards, in
every card spelling), on a single call and a batch of every integer dtype.
Random hands come from numpy. The exhaustive sweeps and the comparisons
with the builder's independent oracles are the builder's tests
(``tests/builder/test_evaluate_oracles.py``).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.randomhands import random_hands
from twoplustwo.hands.batch import evaluate, evaluate_batch
from twoplustwo.hands.prefixes import prefix
from twoplustwo.vocab.cards import format_card, format_cards, parse_cards
from twoplustwo.vocab.values import N_VALUES

VECTORS = Path(__file__).resolve().parents[2] / "spec" / "conformance" / "vectors.txt"


@pytest.fixture(scope="module")
def vectors() -> dict[int, tuple[list[str], npt.NDArray[np.uint8], npt.NDArray[np.uint16]]]:
    """``{n: (texts, cards, values)}`` of the conformance vectors of n cards."""
    rows: dict[int, list[tuple[str, list[int], int]]] = {5: [], 6: [], 7: []}
    for line in VECTORS.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        text, value = line.split("\t")
        cards = parse_cards(text)
        rows[len(cards)].append((text, cards, int(value)))
    return {
        n: ([t for t, _, _ in r], np.array([c for _, c, _ in r], dtype=np.uint8),
            np.array([v for _, _, v in r], dtype=np.uint16))
        for n, r in rows.items()
    }  # fmt: skip


# ------------------------------------------------------------ the vectors


@pytest.mark.parametrize("n", [5, 6, 7])
def test_the_conformance_vectors_single_and_batch(
    n: int, vectors: dict[int, tuple[list[str], npt.NDArray[np.uint8], npt.NDArray[np.uint16]]]
) -> None:
    texts, cards, values = vectors[n]
    assert len(values) > 3000 and 1 <= values.min() and values.max() <= N_VALUES
    np.testing.assert_array_equal(evaluate_batch(cards), values)
    np.testing.assert_array_equal(evaluate_batch(cards, check=False, threads=1), values)
    np.testing.assert_array_equal(evaluate_batch(cards, threads=2), values)
    # Another order of the same cards: the walk must not care.
    shuffled = np.random.default_rng(n).permuted(cards, axis=1)
    np.testing.assert_array_equal(evaluate_batch(shuffled), values)
    assert [evaluate(t) for t in texts] == values.tolist()
    assert [evaluate(h) for h in cards.tolist()] == values.tolist()
    assert [evaluate(tuple(h)) for h in shuffled[:2_000].tolist()] == values[:2_000].tolist()


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16, np.uint16, np.int32, np.int64, ">i4"])
def test_integer_dtypes(
    dtype: npt.DTypeLike, vectors: dict[int, tuple[list[str], npt.NDArray[np.uint8], npt.NDArray[np.uint16]]]
) -> None:
    _, cards, values = vectors[7]
    converted = cards.astype(dtype)
    np.testing.assert_array_equal(evaluate_batch(converted), values)
    np.testing.assert_array_equal(evaluate_batch(converted, check=False), values)
    np.testing.assert_array_equal(evaluate_batch(converted.tolist()), values)
    assert evaluate(converted[0]) == int(values[0])


def test_uint64_without_check(
    vectors: dict[int, tuple[list[str], npt.NDArray[np.uint8], npt.NDArray[np.uint16]]]
) -> None:
    _, cards, values = vectors[7]
    np.testing.assert_array_equal(evaluate_batch(cards.astype(np.uint64), check=False), values)


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
def test_value_is_an_int_in_range(hand: list[int]) -> None:
    value = evaluate(hand)
    assert type(value) is int
    assert 1 <= value <= N_VALUES


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
        (np.array([0.0, 1, 2, 3, 4]), "cards must be integers, got dtype float64"),
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
        import gc, sys
        import twoplustwo
        import twoplustwo.cli
        from twoplustwo.tables.load import Tables
        leaked = sorted(m for m in sys.modules if m == "twoplustwo_builder" or m.startswith("twoplustwo_builder."))
        assert not leaked, leaked
        def loaded():
            return any(isinstance(o, Tables) for o in gc.get_objects())
        assert not loaded(), "tables loaded at import"
        def mapped():
            try:
                with open("/proc/self/maps") as f:
                    return ".npy" in f.read()
            except OSError:
                return False
        assert not mapped(), "table files mapped at import"
        twoplustwo.evaluate("As Ks Qs Js Ts 2c 3d")
        assert loaded()
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


def test_an_empty_batch_gives_an_empty_answer() -> None:
    for hands in ([], np.zeros((0, 7), dtype=np.int64), np.zeros((0, 5), dtype=np.uint8)):
        got = evaluate_batch(hands)
        assert got.shape == (0,) and got.dtype == np.uint16
    assert prefix("As Ks").evaluate_batch([]).shape == (0,)
