"""HandIndexer against brute force: the least image of a hand under the 24 suit renamings, computed here.

Exhaustive where the C backend makes it cheap (every index of (2,), (2, 3)
and (2, 4)), sampled on the numpy backend; both backends are held to each
other, and to the same errors.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import numpy.typing as npt
import pytest

from tests.racing import every_moment, race
from twoplustwo import HandIndexer, backend, format_cards
from twoplustwo.kernels.choice import ENV_VAR, chosen, extension
from twoplustwo.vocab.indexing import plan
from twoplustwo.vocab.suits import PERM_CARDS

#: Hold'em's configurations, and others that stress the layout: many
#: rounds, one big round, groups of equal suits.
ROUNDS = [
    (2,),
    (2, 3),
    (2, 3, 1),
    (2, 3, 1, 1),
    (2, 4),
    (2, 5),
    (1,),
    (5,),
    (7,),
    (1, 1),
    (1, 2, 1),
    (3, 2, 2),
    (4, 3),
    (1, 6),
    (1, 1, 5),
    (3, 1, 1, 1, 1),
    (1, 1, 1, 1, 1, 1, 1),
]
SIZES = {
    (2,): 169,
    (2, 3): 1_286_792,
    (2, 3, 1): 55_190_538,
    (2, 3, 1, 1): 2_428_287_420,
    (2, 4): 13_960_050,
    (2, 5): 123_156_254,
}

U8 = npt.NDArray[np.uint8]


def _c_built() -> bool:
    return extension() is not None


def _sample() -> int:
    """Rows per random batch: the numpy path is some fifty times slower."""
    return 20_000 if backend() == "c" else 1_000


def deal(rng: np.random.Generator, n: int, k: int) -> U8:
    """n random hands of k distinct cards."""
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.uint8)


def least_form(hands: npt.NDArray[np.integer], rounds: tuple[int, ...]) -> npt.NDArray[np.int64]:
    """Brute force: each hand's least image under the 24 renamings, each round's cards sorted, as a base-52 number."""
    images = PERM_CARDS[:, hands.astype(np.intp)]  # (24, N, k)
    parts, start = [], 0
    for n in rounds:
        parts.append(np.sort(images[:, :, start : start + n], axis=2))
        start += n
    cards = np.concatenate(parts, axis=2).astype(np.int64)
    code = np.zeros(cards.shape[:2], dtype=np.int64)
    for c in range(cards.shape[2]):
        code = code * 52 + cards[:, :, c]
    form: npt.NDArray[np.int64] = code.min(axis=0)
    return form


def test_sizes_of_the_holdem_rounds() -> None:
    for rounds, size in SIZES.items():
        assert HandIndexer(rounds).size() == size
    perfect = HandIndexer((2, 3, 1, 1))
    assert [perfect.size(i) for i in range(4)] == [169, 1_286_792, 55_190_538, 2_428_287_420]
    assert HandIndexer((2, 5)).size(0) == 169 and HandIndexer((2, 4)).size(1) == 13_960_050
    assert perfect.rounds == (2, 3, 1, 1)


@pytest.mark.parametrize("rounds", [(2,), (2, 3), (2, 4)])
def test_unindex_then_index_is_the_identity(rounds: tuple[int, ...]) -> None:
    indexer = HandIndexer(rounds)
    size = indexer.size()
    if backend() == "c":
        chunks = [np.arange(a, min(size, a + (1 << 21)), dtype=np.uint64) for a in range(0, size, 1 << 21)]
    else:
        rng = np.random.default_rng(len(rounds))
        chunks = [np.concatenate([[0, size - 1], rng.integers(0, size, 3_000)]).astype(np.uint64)]
    for x in chunks:
        hands = indexer.unindex(x)
        assert hands.dtype == np.uint8 and hands.shape == (len(x), sum(rounds))
        assert (indexer.index(hands) == x).all()
    # Canonical hands are hands: distinct cards, each round high to low.
    hands = hands[:: max(1, len(hands) // 50_000)]
    bits = np.left_shift(np.uint64(1), hands.astype(np.uint64))
    assert (np.bitwise_or.reduce(bits, axis=1) == bits.sum(axis=1, dtype=np.uint64)).all()
    start = 0
    for n in rounds:
        assert (np.diff(hands[:, start : start + n].astype(int), axis=1) < 0).all()
        start += n


@pytest.mark.parametrize("rounds", ROUNDS)
def test_index_is_the_same_under_every_renaming_of_the_suits(rounds: tuple[int, ...]) -> None:
    rng = np.random.default_rng(sum(rounds) * 10 + len(rounds))
    hands = deal(rng, _sample() // 10, sum(rounds))
    indexer = HandIndexer(rounds)
    first = indexer.index(hands)
    assert first.dtype == np.uint64 and (first < indexer.size()).all()
    for p in range(24):
        assert (indexer.index(PERM_CARDS[p][hands]) == first).all(), p
    # Cards within a round are a set: their order does not matter.
    shuffled, start = hands.copy(), 0
    for n in rounds:
        shuffled[:, start : start + n] = shuffled[:, start : start + n][:, ::-1]
        start += n
    assert (indexer.index(shuffled) == first).all()


@pytest.mark.parametrize("rounds", ROUNDS)
def test_an_index_gives_back_a_hand_alike_to_every_hand_of_it(rounds: tuple[int, ...]) -> None:
    # Were two hands that no renaming maps onto each other given one index,
    # unindexing it could match at most one of them.
    rng = np.random.default_rng(sum(rounds) * 7 + len(rounds))
    hands = deal(rng, _sample() // 4, sum(rounds))
    indexer = HandIndexer(rounds)
    back = indexer.unindex(indexer.index(hands))
    assert (least_form(back, rounds) == least_form(hands, rounds)).all()
    # And one index per form on the sample, with its renamed copies.
    hands = np.concatenate([hands, PERM_CARDS[rng.integers(0, 24, len(hands))[:, None], hands]])
    pairs = np.unique(np.stack([least_form(hands, rounds), indexer.index(hands).astype(np.int64)]), axis=1)
    assert len(np.unique(pairs[0])) == len(np.unique(pairs[1])) == pairs.shape[1]


def test_every_preflop_hand_exhaustively() -> None:
    hands = np.array(list(combinations(range(52), 2)), dtype=np.uint8)
    forms = least_form(hands, (2,))
    indices = HandIndexer((2,)).index(hands)
    assert len(np.unique(forms)) == 169 == len(np.unique(indices))
    assert len(np.unique(np.stack([forms, indices.astype(np.int64)]), axis=1)[0]) == 169


def test_the_flop_classes_by_brute_force_number_the_size() -> None:
    # Every class of (hole, flop) hands has a member whose hole is the least
    # form of its hole class (rename the suits to get there); two members of
    # that hole are alike exactly when a renaming that keeps the hole maps
    # one flop onto the other. So the classes are counted hole by hole.
    holes = np.array(list(combinations(range(52), 2)), dtype=np.uint8)
    forms = least_form(holes, (2,))
    least = np.unique(forms)
    assert len(least) == 169
    flops = np.array(list(combinations(range(52), 3)), dtype=np.intp)
    classes = 0
    for form in least.tolist():
        hole = [form // 52, form % 52]
        keep = [p for p in range(24) if sorted(PERM_CARDS[p][hole].tolist()) == hole]
        live = flops[~np.isin(flops, hole).any(axis=1)]
        images = np.sort(PERM_CARDS[keep][:, live].astype(np.int64), axis=2)
        codes = (images[:, :, 0] * 52 + images[:, :, 1]) * 52 + images[:, :, 2]
        classes += len(np.unique(codes.min(axis=0)))
    assert classes == HandIndexer((2, 3)).size() == 1_286_792


@pytest.mark.skipif(not _c_built(), reason="the C extension was not built (no C compiler at install)")
@pytest.mark.parametrize("rounds", ROUNDS)
@pytest.mark.one_backend
def test_c_and_numpy_give_the_same_indices_and_hands(rounds: tuple[int, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(sum(rounds) + 100 * len(rounds))
    indexer = HandIndexer(rounds)
    hands = deal(rng, 2_000, sum(rounds))
    x = rng.integers(0, indexer.size(), 2_000).astype(np.uint64)
    answers: dict[str, tuple[npt.NDArray[np.unsignedinteger], ...]] = {}
    for name in ("c", "numpy"):
        monkeypatch.setenv(ENV_VAR, name)
        answers[name] = (indexer.index(hands), indexer.unindex(x), indexer.index(hands[:, : rounds[0]]))
    for c, ref in zip(answers["c"], answers["numpy"]):
        assert c.dtype == ref.dtype and (c == ref).all()


def test_single_hands_and_rows_agree() -> None:
    indexer = HandIndexer((2, 3))
    rows = np.array([[51, 47, 0, 5, 10], [0, 1, 2, 3, 4]], dtype=np.uint8)
    batch = indexer.index(rows).tolist()
    assert [indexer.index(r.tolist()) for r in rows] == batch
    assert [indexer.index(format_cards(r)) for r in rows] == batch
    assert [indexer.index(r) for r in rows] == batch  # 1-D arrays are single hands
    assert indexer.index(rows.astype(np.int64).tolist()).tolist() == batch  # lists of rows are rows
    assert indexer.index(["As", "Ks", 0, "3d", "4h"]) == batch[0]
    assert indexer.index("AsKs") == indexer.index(rows[:, :2])[0] == indexer.index(np.array([51, 47]))
    assert isinstance(indexer.index("AsKs 2c3d4h"), int)
    empty = indexer.index(np.zeros((0, 5), dtype=np.uint8))
    assert empty.dtype == np.uint64 and empty.shape == (0,)
    assert indexer.unindex(np.zeros(0, dtype=np.uint64)).shape == (0, 5)
    hand = indexer.unindex(batch[1])
    assert hand.dtype == np.uint8 and hand.shape == (5,) and indexer.index(hand) == batch[1]
    assert indexer.unindex(np.uint64(batch[1])).tolist() == hand.tolist()
    assert indexer.unindex([batch[1]]).tolist() == [hand.tolist()]
    assert indexer.unindex(168, round=0).tolist() == [51, 47] == indexer.unindex(168, 0).tolist()


def test_rounds_are_checked() -> None:
    for bad, error in [
        ((2, 6), ValueError),
        ((), ValueError),
        ((0,), ValueError),
        ((2, -1), ValueError),
        ((1,) * 8, ValueError),
        ((1,) * 9, ValueError),
        (2, TypeError),
        ("23", TypeError),
        ((2.0,), TypeError),
        ((True,), TypeError),
        (None, TypeError),
    ]:
        with pytest.raises(error):
            HandIndexer(bad)  # type: ignore[arg-type]
    assert HandIndexer([2, 3]) == HandIndexer((2, 3)) != HandIndexer((2, 4))
    assert hash(HandIndexer([2, 3])) == hash(HandIndexer((2, 3)))
    assert repr(HandIndexer((2, 3))) == "HandIndexer((2, 3))  # sizes 169, 1286792"
    indexer = HandIndexer((2, 3))
    for round_, error in [(2, ValueError), (-1, ValueError), ("1", TypeError), (True, TypeError), (1.0, TypeError)]:
        with pytest.raises(error):
            indexer.size(round_)  # type: ignore[arg-type]
        with pytest.raises(error):
            indexer.unindex(0, round=round_)  # type: ignore[call-overload]


def test_bad_hands_are_refused_naming_the_card() -> None:
    indexer = HandIndexer((2, 3))
    good = np.array([[51, 47, 0, 5, 10]] * 3, dtype=np.uint8)
    cases: list[tuple[object, type[Exception], str]] = [
        ("As As 2c 3d 4h", ValueError, "card 1 ('As'): duplicate of card 0"),
        ("As Kx 2c 3d 4h", ValueError, "card 1 ('Kx'): unknown suit"),
        ([51, 52, 0, 1, 2], ValueError, "card 1 (52): out of range 0..51"),
        ("As Ks 2c", ValueError, "a hand of 3 cards complete no round of (2, 3): a hand holds 2 or 5 cards"),
        ("", ValueError, "a hand of 0 cards"),
        (np.vstack([good[:1], [[51, 47, 0, 5, 5]]]), ValueError, "row 1: card 4 (5): duplicate of card 3"),
        (np.vstack([good[:2], [[51, 47, 0, 5, 52]]]), ValueError, "row 2: card 4 (52): out of range 0..51"),
        (np.vstack([good[:1], [[51, 47, 255, 5, 6]]]), ValueError, "row 1: card 2 (255): out of range 0..51"),
        (np.array([[51, 47, 0, 5, 260]], dtype=np.int16), ValueError, "row 0: card 4 (260): out of range 0..51"),
        (np.array([[51, -1, 0, 5, 6]]), ValueError, "row 0: card 1 (-1): out of range 0..51"),
        (good[:, :4], ValueError, "rows of 4 cards complete no round"),
        (good.astype(np.float64), ValueError, "hands must be integers, got dtype float64"),
        (good.astype(bool), ValueError, "hands must be integers, got dtype bool"),
        (good[None], ValueError, "3-D"),
        ([[51, 47, 0, 5, 10], [1, 2]], ValueError, "the same number of cards"),
        (3.5, TypeError, ""),
    ]
    for cards, error, message in cases:
        with pytest.raises(error) as info:
            indexer.index(cards)  # type: ignore[call-overload]
        assert message in str(info.value), (cards, str(info.value))


def test_bad_indices_are_refused() -> None:
    indexer = HandIndexer((2, 3))
    size = indexer.size()
    for indices, error, message in [
        (size, ValueError, f"index {size} out of range 0..{size - 1} of round 1 of (2, 3)"),
        (-1, ValueError, "index -1 out of range"),
        ([0, 5, size + 7], ValueError, f"row 2: index {size + 7} out of range"),
        (np.array([1, -3]), ValueError, "row 1: index -3 out of range"),
        (np.array([0.5]), ValueError, "indices must be integers, got dtype float64"),
        ([[1, 2]], ValueError, "2-D"),
        (True, TypeError, ""),
        ("7", TypeError, ""),
    ]:
        with pytest.raises(error) as info:
            indexer.unindex(indices)  # type: ignore[call-overload]
        assert message in str(info.value), (indices, str(info.value))
    with pytest.raises(ValueError, match="index 169 out of range 0..168 of round 0"):
        indexer.unindex(169, round=0)


def test_the_kernels_check_their_arrays() -> None:
    # Both backends take a plan's arrays as they are given, and refuse what
    # does not add up rather than read or write outside an array.
    p = plan((2, 3))
    hands = np.array([[51, 47, 0, 5, 10], [51, 47, 0, 5, 99]], dtype=np.uint8)
    out = np.zeros(2, dtype=np.uint64)
    kernels = chosen()
    assert kernels.index_rows(hands, *p, out) == 1  # a card over 51, seen by the kernel itself
    assert out[0] == HandIndexer((2, 3)).index(hands[:1])[0]
    bad_plans = [
        (p.counts[:1], p.codes, p.offsets),  # 2 cards, rows of 5
        (np.array([2, 2], dtype=np.uint8), p.codes, p.offsets),  # codes of other rounds
        (np.array([4, 4], dtype=np.uint8), p.codes, p.offsets),  # 8 cards
        (np.array([2, 0, 3], dtype=np.uint8), p.codes, p.offsets),
        (p.counts, p.codes, p.offsets[:-1]),
        (p.counts, p.codes.astype(np.uint64), p.offsets),
        (p.counts, p.codes | np.uint32(1 << 28), p.offsets),
        (p.counts, p.codes, p.offsets[::-1].copy()),  # offsets out of order
    ]
    for counts, codes, offsets in bad_plans:
        with pytest.raises(ValueError, match="index_rows takes"):
            kernels.index_rows(hands, counts, codes, offsets, p.slots, out)
        with pytest.raises(ValueError, match="unindex_rows takes"):
            kernels.unindex_rows(out, counts, codes, offsets, np.zeros((2, 5), dtype=np.uint8))
    for slots in [p.slots[:-1], np.ones_like(p.slots)]:  # not a power of two; no free slot to end a probe
        with pytest.raises(ValueError, match="index_rows takes"):
            kernels.index_rows(hands, p.counts, p.codes, p.offsets, slots, out)
    with pytest.raises(ValueError, match="index_rows takes"):
        kernels.index_rows(hands, *p, np.zeros(3, dtype=np.uint64))
    with pytest.raises(ValueError, match="not in the plan"):
        kernels.index_rows(hands[:1], p.counts, p.codes, p.offsets, np.zeros_like(p.slots), out[:1])
    with pytest.raises(ValueError, match="unindex_rows takes"):
        kernels.unindex_rows(out, p.counts, p.codes, p.offsets, np.zeros((2, 4), dtype=np.uint8))
    rows = np.zeros((2, 5), dtype=np.uint8)
    assert kernels.unindex_rows(np.array([7, p.size], dtype=np.uint64), p.counts, p.codes, p.offsets, rows) == 1
    assert HandIndexer((2, 3)).index(rows[:1]).tolist() == [7]
    with pytest.raises(TypeError):
        kernels.index_rows(hands, *p)  # type: ignore[call-arg]


# ------------------------------------------- caller memory changing under a call


@pytest.mark.parametrize("dtype", [np.int64, np.int16, np.uint8])
def test_a_card_changed_during_index_is_an_error_or_the_right_index(dtype: type) -> None:
    # Checked on the caller's array and then cast to uint8, a 300 written in
    # between would be card 44 (Kc, in no row here): another hand's index.
    indexer = HandIndexer((2, 3))
    rows = np.array([[51, 47, 0, 5, 10]] * 8, dtype=dtype)
    want = indexer.index(rows)
    bad = 300 if dtype != np.uint8 else 52
    assert every_moment(rows, (3, 2), bad, lambda: indexer.index(rows), [want])
    one = rows[3].copy()
    assert every_moment(one, (2,), bad, lambda: indexer.index(one), [int(want[3])])
    other = rows.copy()
    other[3, 2] = 1  # 2d for 2c: the same hand up to suits
    assert every_moment(rows, (3, 2), 1, lambda: indexer.index(rows), [want, indexer.index(other)])


def test_a_card_flipped_by_a_thread_during_index_is_an_error_or_the_right_index() -> None:
    indexer = HandIndexer((2, 3))
    rows = np.array([[51, 47, 0, 5, 10]] * 20_000)  # passes long enough for writes to land in
    want = indexer.index(rows)
    race(rows, (7, 2), 300, lambda: indexer.index(rows), [want], least=20)


def test_an_index_changed_during_unindex_or_counts_gives_one_states_answer() -> None:
    indexer = HandIndexer((2, 3))
    indices = np.arange(0, 1_000_000, 99_991, dtype=np.int64)
    other = indices.copy()
    other[5] = 12345
    hands = [indexer.unindex(indices), indexer.unindex(other)]
    assert every_moment(indices, (5,), 12345, lambda: indexer.unindex(indices), hands)
    assert every_moment(indices, (5,), indexer.size() + 3, lambda: indexer.unindex(indices), hands[:1])
    counts = [indexer.counts(indices), indexer.counts(other)]
    assert every_moment(indices, (5,), 12345, lambda: indexer.counts(indices), counts)


def test_masked_arrays_are_refused() -> None:
    indexer = HandIndexer((2, 3))
    masked = np.ma.array([[51, 47, 0, 5, 10]], mask=[[0, 0, 0, 0, 1]])
    for call in (
        lambda: indexer.index(masked),
        lambda: indexer.index(masked[0]),
        lambda: indexer.unindex(np.ma.array([0, 7], mask=[0, 1])),
        lambda: indexer.counts(np.ma.array([0, 7], mask=[0, 1])),
    ):
        with pytest.raises(TypeError, match="not a masked array"):
            call()


def test_empty_batches_and_numpy_ints() -> None:
    indexer = HandIndexer((2, 3))
    assert indexer.unindex([]).shape == (0, 5) and indexer.unindex([]).dtype == np.uint8
    assert indexer.unindex([], round=np.int64(0)).shape == (0, 2)
    assert indexer.counts([]).shape == (0,)
    assert indexer.index(np.zeros((0, 5), dtype=np.int64)).shape == (0,)
    assert indexer.unindex(np.uint32(168), round=np.int8(0)).tolist() == [51, 47]
