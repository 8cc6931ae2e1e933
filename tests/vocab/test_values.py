"""The hand-value scale, its codes, and their decoding into categories and words."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from twoplustwo.vocab.values import (
    CATEGORIES,
    CATEGORY_FIRST,
    CATEGORY_LAST,
    CODES,
    HAND_COUNTS,
    N_VALUES,
    Category,
    HandDescription,
    categories,
    category_counts,
    category_of,
    describe,
    value_from_code,
)

# Cactus Kev rank ranges per category, as published (seed 001), strongest first.
CK_RANGES = {
    "straight_flush": (1, 10),
    "four_of_a_kind": (11, 166),
    "full_house": (167, 322),
    "flush": (323, 1599),
    "straight": (1600, 1609),
    "three_of_a_kind": (1610, 2467),
    "two_pair": (2468, 3325),
    "pair": (3326, 6185),
    "high_card": (6186, 7462),
}


def ck_category(ck: int) -> str:
    for name, (lo, hi) in CK_RANGES.items():
        if lo <= ck <= hi:
            return name
    raise AssertionError(ck)


ALL_VALUES = range(1, N_VALUES + 1)


def test_ck_ranges_tile_the_scale() -> None:
    bounds = sorted(CK_RANGES.values())
    assert bounds[0][0] == 1 and bounds[-1][1] == N_VALUES
    assert all(a[1] + 1 == b[0] for a, b in zip(bounds, bounds[1:]))


def test_every_value_against_cactus_kev_ranges() -> None:
    for v in ALL_VALUES:
        d = describe(v)
        assert d.value == v
        assert d.cactus_kev_rank == 7463 - v
        assert str(d.category) == ck_category(d.cactus_kev_rank), v


def test_category_counts_match_cactus_kev() -> None:
    counts = Counter(str(describe(v).category) for v in ALL_VALUES)
    assert counts == {
        "straight_flush": 10,
        "four_of_a_kind": 156,
        "full_house": 156,
        "flush": 1277,
        "straight": 10,
        "three_of_a_kind": 858,
        "two_pair": 858,
        "pair": 2860,
        "high_card": 1277,
    }


def test_category_first_last_agree_with_ck_ranges() -> None:
    for i, name in enumerate(CATEGORIES):
        lo, hi = CK_RANGES[name]
        assert CATEGORY_FIRST[i] == 7463 - hi
        assert CATEGORY_LAST[i] == 7463 - lo


def test_codes_strictly_increasing() -> None:
    assert CODES[0] == 0
    assert len(CODES) == N_VALUES + 1
    assert np.all(np.diff(CODES.astype(np.int64)) > 0)


def test_code_and_ranks_fields_agree_with_table() -> None:
    for v in ALL_VALUES:
        d = describe(v)
        # (describe reads CODES[v] itself, so comparing the two would prove nothing.)
        assert d.code >> 20 == d.category == CATEGORIES.index(str(d.category))
        assert int("".join(f"{r:x}" for r in d.ranks), 16) == d.code & 0xFFFFF
        assert all(0 <= r <= 12 for r in d.ranks)


def test_descriptions_are_unique() -> None:
    # Distinct values are distinct hands, so the words must tell them apart.
    words = [describe(v).description for v in ALL_VALUES]
    assert len(set(words)) == N_VALUES


@pytest.mark.parametrize(
    ("code", "category", "words"),
    [
        (0x27744A, "two_pair", "Two pair, nines and sixes, queen kicker"),
        (0x6999CC, "full_house", "Full house, jacks full of aces"),
        (0x4A9876, "straight", "Straight, queen high"),
        (0x166953, "pair", "Pair of eights, jack, seven and five kickers"),
    ],
)
def test_seed_000_examples(code: int, category: str, words: str) -> None:
    v = int(value_from_code(code))
    d = describe(v)
    assert (d.code, str(d.category), d.description) == (code, category, words)
    assert category_of(v) is d.category
    assert str(category_of(v)) == category
    assert str(d) == words


@pytest.mark.parametrize(
    ("ck", "words"),
    [
        (1, "Royal flush"),
        (2, "Straight flush, king high"),
        (6, "Straight flush, nine high"),
        (10, "Straight flush, five high"),
        (11, "Four of a kind, aces, king kicker"),
        (12, "Four of a kind, aces, queen kicker"),
        (23, "Four of a kind, kings, ace kicker"),
        (165, "Four of a kind, twos, four kicker"),
        (166, "Four of a kind, twos, three kicker"),
        (167, "Full house, aces full of kings"),
        (168, "Full house, aces full of queens"),
        (321, "Full house, twos full of fours"),
        (322, "Full house, twos full of threes"),
        (323, "Flush, ace, king, queen, jack, nine"),
        (1599, "Flush, seven, five, four, three, two"),
        (1600, "Straight, ace high"),
        (1601, "Straight, king high"),
        (1609, "Straight, five high"),
        (1610, "Three of a kind, aces, king and queen kickers"),
        (2467, "Three of a kind, twos, four and three kickers"),
        (2468, "Two pair, aces and kings, queen kicker"),
        (3325, "Two pair, threes and twos, four kicker"),
        (3326, "Pair of aces, king, queen and jack kickers"),
        (6185, "Pair of twos, five, four and three kickers"),
        (6186, "High card, ace, king, queen, jack, nine"),
        (7462, "High card, seven, five, four, three, two"),
    ],
)
def test_cactus_kev_examples(ck: int, words: str) -> None:
    d = describe(7463 - ck)
    assert d.cactus_kev_rank == ck
    assert d.description == words


def test_wheel_ranks_put_the_ace_last() -> None:
    wheel = describe(7463 - 1609)
    assert wheel.ranks == (3, 2, 1, 0, 12)
    steel_wheel = describe(7463 - 10)
    assert steel_wheel.ranks == (3, 2, 1, 0, 12)
    assert steel_wheel.category is Category.STRAIGHT_FLUSH


def words_of(code: int) -> str:
    return describe(int(value_from_code(code))).description


def test_plurals_of_six() -> None:
    assert words_of(0x6444CC) == "Full house, sixes full of aces"
    assert words_of(0x74444C) == "Four of a kind, sixes, ace kicker"


def test_remaining_wording_examples() -> None:
    assert words_of(0x5CB752) == "Flush, ace, king, nine, seven, four"
    assert words_of(0x0CB752) == "High card, ace, king, nine, seven, four"
    assert words_of(0x3555CB) == "Three of a kind, sevens, ace and king kickers"
    assert words_of(0x188CA9) == "Pair of tens, ace, queen and jack kickers"
    assert words_of(0x8A9876) == "Straight flush, queen high"


def test_description_is_frozen_and_accepts_numpy_ints() -> None:
    d = describe(np.uint16(7462))
    assert isinstance(d, HandDescription)
    assert d.value == 7462 and type(d.value) is int
    assert d.description == "Royal flush"
    with pytest.raises(AttributeError):
        d.value = 1  # type: ignore[misc]
    assert describe(np.int64(1)) == describe(1)


@pytest.mark.parametrize(
    "bad", [0, -1, 7463, 10**9, True, False, 1.0, "5", None, np.int64(0), np.bool_(True)]
)
def test_describe_rejects_invalid(bad: object) -> None:
    with pytest.raises(ValueError, match=r"hand value must be an int in 1\.\.7462, got"):
        describe(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"1\.\.7462"):
        category_of(bad)  # type: ignore[arg-type]


def test_describe_message_shows_the_value() -> None:
    with pytest.raises(ValueError, match=r"got 7463$"):
        describe(7463)
    with pytest.raises(ValueError, match=r"got 0$"):
        describe(np.int64(0))


def test_categories_vectorised_matches_describe() -> None:
    values = np.arange(1, N_VALUES + 1)
    cats = categories(values)
    assert cats.dtype == np.uint8
    assert cats.shape == values.shape
    # The scalar and the vectorised form give the same category ints.
    assert [Category(c) for c in cats] == [describe(v).category for v in ALL_VALUES]
    assert [category_of(v) for v in ALL_VALUES] == cats.tolist()
    assert [CATEGORIES[c] for c in cats] == [str(category_of(v)) for v in ALL_VALUES]


def test_categories_index_order() -> None:
    assert categories([1, 7462]).tolist() == [0, 8]
    for i in range(9):
        assert categories([CATEGORY_FIRST[i], CATEGORY_LAST[i]]).tolist() == [i, i]


def test_categories_keeps_shape_and_accepts_int_dtypes() -> None:
    grid = np.array([[1, 7462], [7260, 5854]], dtype=np.uint16)
    assert categories(grid).tolist() == [[0, 8], [6, 4]]
    assert categories(np.array([7462], dtype=np.uint64)).tolist() == [8]
    assert categories(np.array([], dtype=np.int32)).shape == (0,)
    assert categories(7462).shape == ()


@pytest.mark.parametrize(
    ("values", "fragment"),
    [
        ([1, 0], "got 0 at flat index 1"),
        ([5, 6, 7463], "got 7463 at flat index 2"),
        (np.array([[1, 2], [-3, 4]]), "got -3 at flat index 2"),
        ([1.0, 2.0], "dtype float64"),
        (np.array([True]), "dtype bool"),
        (["7"], "dtype <U1"),
    ],
)
def test_categories_rejects_invalid(values: object, fragment: str) -> None:
    with pytest.raises(ValueError) as excinfo:
        categories(values)  # type: ignore[arg-type]
    assert fragment in str(excinfo.value)


def test_categories_large_input() -> None:
    rng = np.random.default_rng(7)
    values = rng.integers(1, N_VALUES + 1, size=1_000_000, dtype=np.uint16)
    cats = categories(values)
    # Categories occupy consecutive value ranges, so a binary search over
    # the last value of each is an independent way to compute them.
    expected = np.searchsorted(np.array(CATEGORY_LAST), values)
    assert np.array_equal(cats, expected)


def test_published_hand_counts_are_the_seed_figures() -> None:
    # Written out once more by hand: every whole-table test compares with HAND_COUNTS.
    assert HAND_COUNTS[5] == ((1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 40), 7462)
    assert HAND_COUNTS[6] == (
        (6612900, 9730740, 2532816, 732160, 361620, 205792, 165984, 14664, 1844),
        6075,
    )
    assert HAND_COUNTS[7] == (
        (23294460, 58627800, 31433400, 6461620, 6180020, 4047644, 3473184, 224848, 41584),
        4824,
    )
    for n, (counts, _) in HAND_COUNTS.items():
        assert sum(counts) == math.comb(52, n)
    # Seed 001: each 5-card class holds the same number of hands within its category.
    sizes = [b - a + 1 for a, b in zip(CATEGORY_FIRST, CATEGORY_LAST)]
    per_class = (1020, 384, 144, 64, 1020, 4, 24, 4, 4)
    assert HAND_COUNTS[5][0] == tuple(s * k for s, k in zip(sizes, per_class))


def test_category_counts_sums_each_category_range() -> None:
    hist = np.arange(N_VALUES + 1, dtype=np.int64)
    counts = category_counts(hist)
    assert counts[8] == sum(range(7453, 7463))
    assert sum(counts) == hist.sum()
    with pytest.raises(ValueError, match="7463 entries"):
        category_counts(hist[:-1])
