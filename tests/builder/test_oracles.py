"""Fast checks of the four oracles and of the hand generators.

Expected values are written as six-hex-digit codes (seed 000) and turned
into values only through :func:`twoplustwo.vocab.values.value_from_code`, so no
oracle's own tables take part in deciding what is right.
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement
from math import comb
from types import ModuleType

import numpy as np
import pytest

from twoplustwo.vocab.cards import parse_cards
from twoplustwo.vocab.values import N_VALUES, value_from_code
from twoplustwo_builder.oracles import cactus_kev, categoriser, signature, specialk
from twoplustwo_builder.testdata.hands import N_HANDS, all_hands, random_hands

ORACLES: list[ModuleType] = [categoriser, cactus_kev, signature, specialk]
oracle_param = pytest.mark.parametrize("oracle", ORACLES, ids=lambda m: m.__name__.split(".")[-1])

# (cards, code of the best five, why the case is hard)
CASES: list[tuple[str, int, str]] = [
    # five cards
    ("As Ks Qs Js Ts", 0x8CBA98, "royal flush"),
    ("5h 4h 3h 2h Ah", 0x83210C, "steel wheel: the ace plays low"),
    ("5c 4d 3h 2s Ac", 0x43210C, "wheel"),
    ("Ac Kd Qh Js Tc", 0x4CBA98, "broadway, not a wheel-like wrap"),
    ("Kc Ad 2h 3s 4c", 0x0CB210, "no wrap-around straight K-A-2-3-4"),
    ("7c 5d 4h 3s 2c", 0x053210, "the worst hand"),
    ("Ac Ad Ah As Kd", 0x7CCCCB, "four aces, king kicker"),
    ("9s 9h 9c Jd Jh", 0x677799, "full house, trips rank below pair rank"),
    ("Ah Jh 9h 4h 2h", 0x5C9720, "flush"),
    ("8d 8c 4h 4s Ad", 0x26622C, "two pair, ace kicker"),
    # six cards
    ("2c 3d 4h 5s 6c 7d", 0x454321, "six-card straight plays the top five"),
    ("Ac 2d 3h 4s 5c 6d", 0x443210, "six-high straight beats the wheel in it"),
    ("Ah 2h 3h 4h 5h 6c", 0x83210C, "steel wheel beats a six-high straight"),
    ("Ah 2h 3h 4h 5h 6h", 0x843210, "six suited in a row: six-high straight flush"),
    ("2s 4s 6s 8s Ts Qs", 0x5A8642, "six suited cards: best five of the flush"),
    ("Kc Kd Kh Ks 2c 2d", 0x7BBBB0, "quads with a pair: the pair is only a kicker"),
    ("Tc Td Th 4c 4d 4h", 0x688822, "two sets of trips in six cards"),
    ("Ac Ad 9h 9s 4c 4d", 0x2CC772, "three pairs: the third pair is the kicker"),
    # seven cards
    ("9c Td Jh Qs Kc Ad 8h", 0x4CBA98, "seven-card straight"),
    ("2h 5h 9h Th Jh Qc Ks", 0x598730, "flush and straight, no straight flush: flush"),
    ("9h Th Jh Qh 2h Kc 8d", 0x5A9870, "flush plus K-high straight through it: flush"),
    ("5h 6h 7h 8h 9h Tc Jd", 0x876543, "straight flush below a higher plain straight"),
    ("Ah Kh Qh Jh Th 9h 8h", 0x8CBA98, "royal flush among seven hearts"),
    ("2d 4d 6d 8d Td Qd Ad", 0x5CA864, "seven suited cards"),
    ("Kc Kd Kh 7s 7c 7d 2h", 0x6BBB55, "two sets of trips: full house"),
    ("3c 3d 3h 2s 2c 2d Ah", 0x611100, "two low sets of trips, ace out"),
    ("5c 5d 5h 9c 9d Kc Kd", 0x6333BB, "trips and two pairs: the higher pair fills"),
    ("Ac Ad 9h 9s 4c 4d Kh", 0x2CC77B, "three pairs plus a higher single kicker"),
    ("Ac Ad 9h 9s Qc Qd 2h", 0x2CCAA7, "three pairs: third pair beats the single"),
    ("8c 8d 8h 8s Kc Kd Kh", 0x76666B, "quads with trips"),
    ("Ac Ad Ah As 2c 2d 2h", 0x7CCCC0, "quad aces with trips below"),
    ("Kh Qh 9h 5h 2h Kc Kd", 0x5BA730, "flush beats trips in the same seven"),
    ("5c 6d 7h 8s 9c 9d 9h", 0x476543, "straight beats trips in the same seven"),
    ("7c 7d 7h Ac Kd 2s 4h", 0x3555CB, "trips, two kickers from four"),
    ("Ac Ad 2h 5s 7c 9d Jh", 0x1CC975, "pair, three kickers from five"),
    ("Ac Kd 2h 5s 7c 9d Jh", 0x0CB975, "high card, five from seven"),
    ("Ac 2d 3h 4s 5c Kd Kh", 0x43210C, "wheel beats a pair of kings"),
]


def _case_id(case: tuple[str, int, str]) -> str:
    return case[0].replace(" ", "")


@oracle_param
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_hard_cases(oracle: ModuleType, case: tuple[str, int, str]) -> None:
    text, code, why = case
    hand = np.array([parse_cards(text)])
    assert int(oracle.evaluate(hand)[0]) == int(value_from_code(code)), why


@oracle_param
def test_all_cases_in_one_batch_per_size(oracle: ModuleType) -> None:
    # Batched calls go through the vectorised paths (flush rows mixed with
    # plain rows, blocks), where per-row indexing mistakes would show.
    for k in (5, 6, 7):
        chosen = [(parse_cards(t), c) for t, c, _ in CASES if len(t.split()) == k]
        hands = np.array([h for h, _ in chosen] * 3)
        expected = value_from_code([c for _, c in chosen] * 3)
        np.testing.assert_array_equal(oracle.evaluate(hands), expected)


@oracle_param
@pytest.mark.parametrize("k", [5, 6, 7])
def test_card_order_does_not_matter(oracle: ModuleType, k: int) -> None:
    hands = random_hands(5_000, k, seed=100 + k)
    shuffled = np.random.default_rng(k).permuted(hands, axis=1)
    reversed_ = hands[:, ::-1]
    expected = oracle.evaluate(hands)
    np.testing.assert_array_equal(oracle.evaluate(shuffled), expected)
    np.testing.assert_array_equal(oracle.evaluate(reversed_), expected)


@oracle_param
def test_output_type_and_range(oracle: ModuleType) -> None:
    for k in (5, 6, 7):
        values = oracle.evaluate(random_hands(1_000, k, seed=k))
        assert values.dtype == np.uint16
        assert values.shape == (1_000,)
        assert 1 <= values.min() and values.max() <= N_VALUES


@oracle_param
def test_accepts_lists_and_other_int_dtypes(oracle: ModuleType) -> None:
    hands = random_hands(50, 7, seed=5)
    expected = oracle.evaluate(hands)
    for dtype in (np.int8, np.int32, np.int64, np.uint16):
        np.testing.assert_array_equal(oracle.evaluate(hands.astype(dtype)), expected)
    np.testing.assert_array_equal(oracle.evaluate(hands.tolist()), expected)


@oracle_param
def test_empty_batch(oracle: ModuleType) -> None:
    for k in (5, 6, 7):
        values = oracle.evaluate(np.zeros((0, k), dtype=np.uint8))
        assert values.shape == (0,)


@oracle_param
@pytest.mark.parametrize(
    "bad",
    [
        np.zeros((3, 4), dtype=np.int64),
        np.zeros((3, 8), dtype=np.int64),
        np.zeros((3, 4), dtype=np.uint8),
        np.zeros((3, 8), dtype=np.uint8),
        np.zeros((2, 3, 5), dtype=np.int64),
        np.zeros((2, 3, 5), dtype=np.uint8),
        np.array([[0, 1, 2, 3, 52]]),
        np.array([[0, 1, 2, 3, 52]], dtype=np.uint8),
        np.array([[0, 1, 2, 3, -1]]),
        np.array([[0.0, 1.0, 2.0, 3.0, 4.0]]),
    ],
    ids=["4cols", "8cols", "4cols-u8", "8cols-u8", "3d", "3d-u8", "52", "52-u8", "neg", "float"],
)
def test_bad_input_raises(oracle: ModuleType, bad: np.ndarray) -> None:
    with pytest.raises(ValueError):
        oracle.evaluate(bad)


@pytest.mark.parametrize("k", [6, 7])
def test_oracles_agree_on_random_hands(k: int) -> None:
    hands = random_hands(200_000, k, seed=2024 + k)
    reference = specialk.evaluate(hands)
    for oracle in ORACLES:
        np.testing.assert_array_equal(oracle.evaluate(hands), reference, err_msg=oracle.__name__)


def test_oracles_agree_on_random_five_card_hands() -> None:
    hands = random_hands(100_000, 5, seed=2029)
    reference = specialk.evaluate(hands)
    for oracle in ORACLES:
        np.testing.assert_array_equal(oracle.evaluate(hands), reference, err_msg=oracle.__name__)


# ------------------------------------------------------------ Cactus Kev


def test_cactus_kev_tables_match_the_seed() -> None:
    # Seed 001 quotes entries in Cactus Kev's ranks; value = 7463 - rank.
    assert int(cactus_kev.FLUSHES[0x1F]) == 7463 - 9  # six-high straight flush
    assert int(cactus_kev.FLUSHES[0x1E80]) == 7463 - 323  # AKQJ9 flush
    assert int(cactus_kev.UNIQUE5[0x0F80]) == 7463 - 1601  # king-high straight
    assert int(cactus_kev.UNIQUE5[0x002F]) == 7463 - 7462  # 75432 offsuit
    assert len(cactus_kev.PRODUCTS) == 4888
    assert int(cactus_kev.PRODUCTS[0]) == 48  # 22223
    assert int(cactus_kev.PRODUCTS[-1]) == 104_553_157  # AAAAK
    assert int(cactus_kev.PRODUCT_VALUES[-1]) == 7463 - 11
    # Every class is in exactly one of the three tables.
    assert np.count_nonzero(cactus_kev.FLUSHES) == 1287
    assert np.count_nonzero(cactus_kev.UNIQUE5) == 1287
    found = np.concatenate(
        [
            cactus_kev.FLUSHES[cactus_kev.FLUSHES > 0],
            cactus_kev.UNIQUE5[cactus_kev.UNIQUE5 > 0],
            cactus_kev.PRODUCT_VALUES,
        ]
    )
    assert sorted(found.tolist()) == list(range(1, N_VALUES + 1))


def test_cactus_kev_card_words() -> None:
    # Seed 001's examples of the packed card word.
    assert int(cactus_kev.CARDS[parse_cards("Kd")[0]]) == 0b00001000_00000000_01001011_00100101
    assert int(cactus_kev.CARDS[parse_cards("5s")[0]]) == 0b00000000_00001000_00010011_00000111
    assert int(cactus_kev.CARDS[parse_cards("Jc")[0]]) == 0b00000010_00000000_10001001_00011101


# --------------------------------------------------------------- SpecialK


def test_specialk_face_keys_come_from_the_search() -> None:
    assert specialk.search_face_keys() == specialk.FACE_KEYS


def _rank_multisets(size: int) -> list[tuple[int, ...]]:
    return [
        m
        for m in combinations_with_replacement(range(13), size)
        if max(m.count(r) for r in set(m)) <= 4
    ]


@pytest.mark.parametrize("size", [5, 6, 7])
def test_specialk_face_sums_are_unique(size: int) -> None:
    keys = np.array(specialk.FACE_KEYS)
    sums = [int(keys[list(m)].sum()) for m in _rank_multisets(size)]
    assert len(set(sums)) == len(sums)


@pytest.mark.parametrize("size", [5, 6, 7])
def test_specialk_suit_sums_are_unique(size: int) -> None:
    suits = combinations_with_replacement(range(4), size)
    sums = [sum(specialk.SUIT_KEYS[s] for s in m) for m in suits]
    assert len(set(sums)) == len(sums)
    assert max(sums) < 1 << 9


def test_specialk_hand_key_fits_in_32_bits() -> None:
    keys = specialk.FACE_KEYS
    assert 4 * keys[12] + 3 * keys[11] == 7_825_759  # the seed's largest face sum
    biggest = int(specialk.hand_keys([parse_cards("Ac Ad Ah As Kc Kd Kh")])[0])
    assert biggest >> 9 == 7_825_759
    assert ((7_825_759 << 9) + 7 * 57) < 1 << 32


def test_specialk_flush_suit_table() -> None:
    for k in (5, 6, 7):
        row = specialk.FLUSH_SUIT[k]
        assert sorted(set(row.tolist())) == [-1, 0, 1, 2, 3]
    hand = parse_cards("2h 5h 9h Th Jh Qc Ks")
    key = int(specialk.hand_keys([hand])[0])
    assert int(specialk.FLUSH_SUIT[7, key & 511]) == 2  # hearts


def test_specialk_face_sum_table_rejects_other_sizes() -> None:
    with pytest.raises(ValueError):
        specialk.face_sum_table(4)


# ------------------------------------------------------------------ hands


def test_n_hands() -> None:
    assert N_HANDS == {k: comb(52, k) for k in (5, 6, 7)}


def _lexicographic_keys(hands: np.ndarray) -> np.ndarray:
    key = np.zeros(len(hands), dtype=np.int64)
    for col in range(hands.shape[1]):
        key = key * 52 + hands[:, col]
    return key


def test_all_five_card_hands_in_order() -> None:
    chunks = list(all_hands(5, chunk_size=1_000_003))
    assert all(c.dtype == np.uint8 and c.shape[1] == 5 for c in chunks)
    assert [len(c) for c in chunks] == [1_000_003, 1_000_003, 598_954]
    hands = np.concatenate(chunks)
    # Sorted rows, strictly increasing in lexicographic order and C(52, 5)
    # of them: that is every 5-subset exactly once.
    assert np.all(np.diff(hands.astype(np.int16), axis=1) > 0)
    assert np.all(np.diff(_lexicographic_keys(hands)) > 0)
    assert len(hands) == N_HANDS[5]


def test_all_hands_matches_itertools_at_the_start() -> None:
    for k in (5, 6, 7):
        first = next(all_hands(k, chunk_size=5_000))
        expected = [c for _, c in zip(range(5_000), combinations(range(52), k))]
        assert first.tolist() == [list(c) for c in expected]


def test_all_hands_small_chunks_cross_pair_boundaries() -> None:
    # Tiny chunks split the completions of one first pair over many chunks.
    a = np.concatenate(list(all_hands(5, chunk_size=997)))
    b = np.concatenate(list(all_hands(5)))
    np.testing.assert_array_equal(a, b)


def test_all_hands_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError):
        next(all_hands(4))
    with pytest.raises(ValueError):
        next(all_hands(5, chunk_size=0))


def test_random_hands() -> None:
    h = random_hands(100_000, 7, seed=9)
    assert h.shape == (100_000, 7) and h.dtype == np.uint8
    assert h.max() <= 51
    assert np.all(np.diff(np.sort(h, axis=1).astype(np.int16), axis=1) > 0)  # distinct
    np.testing.assert_array_equal(random_hands(100_000, 7, seed=9), h)
    assert not np.array_equal(random_hands(100_000, 7, seed=10), h)
    # Unsorted rows: oracles must not get away with assuming sorted input.
    assert np.mean(np.all(np.diff(h.astype(np.int16), axis=1) > 0, axis=1)) < 0.01
    # Every card in every position about equally often (700,000 / 52 each
    # overall, 100,000 / 52 per column).
    counts = np.bincount(h.ravel(), minlength=52)
    assert np.all(np.abs(counts - 7 * 100_000 / 52) < 600)
    per_column = np.stack([np.bincount(h[:, j], minlength=52) for j in range(7)])
    assert np.all(np.abs(per_column - 100_000 / 52) < 250)


def test_random_hands_edge_cases() -> None:
    assert random_hands(0, 5).shape == (0, 5)
    with pytest.raises(ValueError):
        random_hands(10, 8)
    with pytest.raises(ValueError):
        random_hands(-1, 5)
