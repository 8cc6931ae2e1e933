"""Omaha high and eight-or-better low against brute force over every two-plus-three split, and by hand."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import twoplustwo as tp
from tests.racing import every_moment
from twoplustwo.hands.omaha import (
    N_LOWS,
    describe_low,
    evaluate_omaha,
    evaluate_omaha_batch,
    evaluate_omaha_low,
    evaluate_omaha_low_batch,
)
from twoplustwo.tables.load import Tables

Array = npt.NDArray[Any]
DEALS = 100_000


def deals(rng: np.random.Generator, n: int, h: int, k: int = 5) -> tuple[Array, Array]:
    """``n`` random deals of ``h`` hole cards and a ``k``-card board, no card twice in a deal."""
    cards = rng.permuted(np.tile(np.arange(52, dtype=np.uint8), (n, 1)), axis=1).astype(np.int64)
    return cards[:, :h], cards[:, h : h + k]


def every_five(holes: Array, boards: Array) -> Array:
    """``(N, splits, 5)``: every hand of two hole cards and three board cards (or their ranks), for each deal."""
    n = len(holes)
    holes, boards = holes.astype(np.uint8), boards.astype(np.uint8)
    pairs = holes[:, np.array(list(combinations(range(holes.shape[1]), 2)))]
    triples = boards[:, np.array(list(combinations(range(boards.shape[1]), 3)))]
    p, t = pairs.shape[1], triples.shape[1]
    five = np.concatenate(
        [np.broadcast_to(pairs[:, :, None], (n, p, t, 2)), np.broadcast_to(triples[:, None], (n, p, t, 3))], axis=3
    )
    return five.reshape(n, p * t, 5)


def brute_high(holes: Array, boards: Array) -> Array:
    five = every_five(holes, boards)
    # The splits are valid hands by construction, so the checks are skipped.
    values = tp.evaluate_batch(five.reshape(-1, 5), check=False).reshape(five.shape[:2])
    best: Array = values.max(axis=1).astype(np.int64)
    return best


# The low scale written from the rules: ranks A=1 .. 8, a low compared by
# its highest card, then the next, and so on; the worst low gets 1.
LOWS = sorted(combinations(range(1, 9), 5), key=lambda c: sorted(c, reverse=True), reverse=True)
LOW_VALUE_OF = {tuple(sorted(c, reverse=True)): i + 1 for i, c in enumerate(LOWS)}
# The same by the lows' ranks in ascending order as base-9 digits, the highest card most significant.
LOW_VALUE_BY_KEY = np.zeros(9**5, dtype=np.int64)
for _low, _value in LOW_VALUE_OF.items():
    LOW_VALUE_BY_KEY[sum(r * 9**i for i, r in enumerate(reversed(_low)))] = _value
# Card -> low rank, 0 for nine and up.
LOW_RANK = np.array([1 if c >> 2 == 12 else (c >> 2) + 2 if c >> 2 <= 6 else 0 for c in range(52)], dtype=np.uint8)


def brute_low(holes: Array, boards: Array) -> Array:
    splits = every_five(LOW_RANK[holes], LOW_RANK[boards])
    n, s = splits.shape[:2]
    flat = splits.reshape(-1, 5)
    # Only splits of five low cards can qualify: sort just those.
    all_low = flat[:, 0] > 0
    for c in range(1, 5):
        all_low &= flat[:, c] > 0
    some = np.flatnonzero(all_low)
    ranks = np.sort(flat[some], axis=1)
    distinct = (np.diff(ranks, axis=1) > 0).all(axis=1)
    values = np.zeros(n * s, dtype=np.int64)
    values[some[distinct]] = LOW_VALUE_BY_KEY[(ranks[distinct] * 9 ** np.arange(5)).sum(axis=1)]
    best: Array = values.reshape(n, s).max(axis=1)
    return best


# ------------------------------------------------------------------ brute force


@pytest.mark.parametrize("h", [4, 5, 6])
def test_high_and_low_equal_brute_force_on_random_deals(h: int) -> None:
    holes, boards = deals(np.random.default_rng(h), DEALS, h)
    want_high = brute_high(holes, boards)
    got_high = evaluate_omaha_batch(holes, boards, threads=2)
    np.testing.assert_array_equal(got_high, want_high)
    np.testing.assert_array_equal(evaluate_omaha_batch(holes, boards, threads=1), want_high)
    want_low = brute_low(holes, boards)
    np.testing.assert_array_equal(evaluate_omaha_low_batch(holes, boards), want_low)
    # The deals cover the scales, so the comparison above had something to compare.
    assert len(np.unique(tp.categories(want_high))) >= 8
    assert 0.2 < (want_low > 0).mean() < 0.8
    assert len(np.unique(want_low)) == N_LOWS + 1


@pytest.mark.parametrize("k", [3, 4])
@pytest.mark.parametrize("h", [4, 5, 6])
def test_flop_and_turn_boards_equal_brute_force(h: int, k: int) -> None:
    holes, boards = deals(np.random.default_rng(10 * h + k), 20_000, h, k)
    np.testing.assert_array_equal(evaluate_omaha_batch(holes, boards), brute_high(holes, boards))
    np.testing.assert_array_equal(evaluate_omaha_low_batch(holes, boards), brute_low(holes, boards))


@pytest.mark.parametrize("k", [3, 4, 5])
@pytest.mark.parametrize("h", [4, 5, 6])
def test_single_deals_equal_the_batch(h: int, k: int) -> None:
    holes, boards = deals(np.random.default_rng(100 + 10 * h + k), 300, h, k)
    high = evaluate_omaha_batch(holes, boards).tolist()
    low = evaluate_omaha_low_batch(holes, boards).tolist()
    for i, (hole, board) in enumerate(zip(holes.tolist(), boards.tolist())):
        assert evaluate_omaha(hole, board) == high[i]
        assert evaluate_omaha_low(hole, board) == low[i]
        # The same deal as text gives the same values.
        assert evaluate_omaha(tp.format_cards(hole), tp.format_cards(board).split()) == high[i]
        assert evaluate_omaha_low(tp.format_cards(hole), tp.format_cards(board)) == low[i]


def test_one_shared_board_equals_it_on_every_row() -> None:
    rng = np.random.default_rng(7)
    board = rng.choice(52, size=5, replace=False)
    rest = np.setdiff1d(np.arange(52), board)
    holes = np.array([rng.choice(rest, size=5, replace=False) for _ in range(3000)])
    tiled = np.tile(board, (len(holes), 1))
    np.testing.assert_array_equal(evaluate_omaha_batch(holes, board), evaluate_omaha_batch(holes, tiled))
    np.testing.assert_array_equal(evaluate_omaha_low_batch(holes, board), evaluate_omaha_low_batch(holes, tiled))
    np.testing.assert_array_equal(evaluate_omaha_batch(holes, board), brute_high(holes, tiled))


def test_batch_dtypes_and_empty_batches() -> None:
    holes, boards = deals(np.random.default_rng(8), 50, 4)
    high = evaluate_omaha_batch(holes.astype(np.uint8), boards.astype(np.int16))
    assert high.dtype == np.uint16 and high.shape == (50,)
    np.testing.assert_array_equal(high, evaluate_omaha_batch(holes, boards))
    assert evaluate_omaha_low_batch(holes, boards).dtype == np.uint8
    assert evaluate_omaha_batch(np.zeros((0, 6), dtype=np.int64), np.zeros((0, 5), dtype=np.int64)).shape == (0,)
    assert evaluate_omaha_low_batch(np.zeros((0, 4), dtype=np.int64), [0, 1, 2, 3, 4]).shape == (0,)


# ------------------------------------------------------------------ by hand


@pytest.mark.parametrize(
    ("hole", "board", "description"),
    [
        # One heart in the hand: no flush, though the board has four.
        ("Ah Kc Qd Jc", "2h 5h 8h Th 3s", "High card, ace, king, ten, eight, five"),
        # Exactly two hearts in the hand and four on the board: a flush, with the best three of the board's.
        ("Ah 2h Kc Kd", "3h 7h 9h Jh Qs", "Flush, ace, jack, nine, seven, two"),
        # Quads on the board cannot play as quads: two hole cards always play.
        ("Ac Ad 2c 3d", "9c 9d 9h 9s Ks", "Full house, nines full of aces"),
        ("2c 3d 4h 5h", "9c 9d 9h 9s Ks", "Three of a kind, nines, five and four kickers"),
        # A full house on the board: its trips and two hole cards.
        ("Ac Qd 2h 3s", "Kc Kd Kh 7s 7d", "Three of a kind, kings, ace and queen kickers"),
        # ... and a pair in the hand matching the board's pair makes quads.
        ("7c 7h 2s 3d", "Kc Kd Kh 7s 7d", "Four of a kind, sevens, king kicker"),
        # Trips in the hand: only a pair of them plays.
        ("Ac Ad Ah 2c", "Kd Qh 7s 5c 3d", "Pair of aces, king, queen and seven kickers"),
        # A straight with exactly two hole cards; four to a straight on the board and one in the hand is none.
        ("9c Th 2d 2s", "Jd Qs Kh 3c 4d", "Straight, king high"),
        ("9h Ad Ac 2s", "5c 6d 7h 8s Kc", "Pair of aces, king, eight and seven kickers"),
        # The wheel needs two hole cards too: A-2 in the hand and 3-4-5 on the board.
        ("Ad 2c Kh Ks", "3h 4s 5c Qd Jd", "Straight, five high"),
        # A flop board: the three board cards are all the board there is.
        ("As Ks 2d 3d", "Qs Js Ts", "Royal flush"),
    ],
)
def test_tricky_high_hands(hole: str, board: str, description: str) -> None:
    value = evaluate_omaha(hole, board)
    assert tp.describe(value).description == description
    assert evaluate_omaha_batch([tp.parse_cards(hole)], [tp.parse_cards(board)]).tolist() == [value]


@pytest.mark.parametrize(
    ("hole", "board", "low"),
    [
        # A-2 in the hand is counterfeited by the board's A-2; 3-4 makes the wheel with the board's A-2-5.
        ("Ah 2h 3c 4d", "As 2c 5d Kh Qs", "5-4-3-2-A"),
        # Counterfeited: only 7-8 of the hand avoid the board's A-2-3.
        ("As 2s 7c 8c", "Ac 2d 3h Kc Qd", "8-7-3-2-A"),
        ("As 2s Kh Kd", "Ac 2d 3h Kc Qd", "no qualifying low"),
        ("As 2s 4c Kd", "Ac 2d 3h 8c Qd", "8-4-3-2-A"),
        # Two hole cards exactly: three low cards in the hand do not help.
        ("Ah 2h 3c Kd", "4s 5s 6d Ts Js", "6-5-4-2-A"),
        # Fewer than three distinct low ranks on the board: no low for anyone.
        ("3s 4s 5h 6h", "Ac 2d 9h Kc Qd", "no qualifying low"),
        ("3s 4s 5h 6h", "Ac Ad 2h 2c 9s", "no qualifying low"),
        # A pair in the hand gives one low rank, not two.
        ("3s 3h 9c Tc", "Ac 2d 4h Kc Qd", "no qualifying low"),
        # Straights and flushes do not spoil a low.
        ("4h 5h Kc Kd", "Ah 2h 3h Qs Js", "5-4-3-2-A"),
        # The worst low.
        ("7d 8d Kc Kd", "4c 5h 6s Qs Js", "8-7-6-5-4"),
    ],
)
def test_tricky_lows(hole: str, board: str, low: str) -> None:
    value = evaluate_omaha_low(hole, board)
    assert describe_low(value) == low
    assert evaluate_omaha_low_batch([tp.parse_cards(hole)], tp.parse_cards(board)).tolist() == [value]


def test_low_scale() -> None:
    assert [describe_low(v) for v in (N_LOWS, N_LOWS - 1, N_LOWS - 2, 2, 1, 0)] == [
        "5-4-3-2-A",
        "6-4-3-2-A",
        "6-5-3-2-A",
        "8-7-6-5-3",
        "8-7-6-5-4",
        "no qualifying low",
    ]
    # Every value names a different low, and higher values are better lows by the rules.
    described = [describe_low(v) for v in range(1, N_LOWS + 1)]
    ranks = [tuple(1 if r == "A" else int(r) for r in d.split("-")) for d in described]
    assert [LOW_VALUE_OF[r] for r in ranks] == list(range(1, N_LOWS + 1))
    assert describe_low(np.uint8(56)) == "5-4-3-2-A"


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    ("hole", "board", "message"),
    [
        ("As Ks Qs", "2c 3c 4c 5c 6c", "an Omaha hand has 4, 5 or 6 hole cards, got 3"),
        ("As Ks Qs Js Ts 9s 8s", "2c 3c 4c 5c 6c", "an Omaha hand has 4, 5 or 6 hole cards, got 7"),
        ("As Ks Qs Js", "2c 3c 4c 5c 6c 7c", "an Omaha board has 3, 4 or 5 cards, got 6"),
        ("As Ks Qs Js", "2c 3c", "an Omaha board has 3, 4 or 5 cards, got 2"),
        ("As Ks Qs Js", "2c 3c 4c 5c Js", "Js is in both the hole cards and the board"),
        ("As Ks Qs As", "2c 3c 4c 5c 6c", r"the hole cards: card 3 \('As'\): duplicate of card 0"),
        ("As Ks Qs Js", "2c 3c 4c 3c 6c", r"the board: card 3 \('3c'\): duplicate of card 1"),
        ([51, 50, 52, 48], "2c 3c 4c 5c 6c", r"the hole cards: card 2 \(52\): out of range 0..51"),
        ("As Ks Qs Js", [0, 1, 2, -1, 3], r"the board: card 3 \(-1\): out of range 0..51"),
        ("As Ks Qs Jx", "2c 3c 4c 5c 6c", r"the hole cards: card 3 \('Jx'\): unknown suit 'x'"),
    ],
)
def test_bad_deals_are_named(hole: object, board: object, message: str) -> None:
    for evaluate in (evaluate_omaha, evaluate_omaha_low):
        with pytest.raises(ValueError, match=f"^{message}"):
            evaluate(hole, board)  # type: ignore[arg-type]


def test_bad_rows_are_named() -> None:
    # Enough rows for two threads, each with its own half.
    holes, boards = deals(np.random.default_rng(9), 100_000, 5)
    holes[70_001, 2] = boards[70_001, 4]
    holes[70_500, 0] = 52  # a later bad row in the same step is not the one reported
    name = tp.format_card(int(boards[70_001, 4]))
    for evaluate in (evaluate_omaha_batch, evaluate_omaha_low_batch):
        with pytest.raises(ValueError, match=f"^row 70001: {name} is in both the hole cards and the board$"):
            evaluate(holes, boards, threads=2)
    boards[30_007, 1] = -3  # the first thread's bad row comes first
    for threads in (1, 2):
        with pytest.raises(ValueError, match=r"^row 30007: the board: card 1 \(-3\): out of range 0..51$"):
            evaluate_omaha_batch(holes, boards, threads=threads)
    holes[3, 4] = holes[3, 0]
    with pytest.raises(ValueError, match=r"^row 3: the hole cards: card 4 \(\d+\): duplicate of card 0$"):
        evaluate_omaha_low_batch(holes, boards)


def test_bad_batch_shapes_and_types() -> None:
    holes, boards = deals(np.random.default_rng(10), 4, 4)
    cases: list[tuple[object, object, str]] = [
        (holes[:, :3], boards, r"holes must be an \(N, k\) array with k = 4, 5 or 6, got shape \(4, 3\)"),
        (holes[0], boards, r"holes must be an \(N, k\) array with k = 4, 5 or 6, got shape \(4,\)"),
        (holes, boards[:, :2], r"boards must be an \(N, k\) array with k = 3, 4 or 5, got shape \(4, 2\)"),
        (holes, boards[:3], r"4 rows of holes but 3 boards"),
        (holes.astype(float), boards, "holes must be integers, got dtype float64"),
        (holes, [[0, 1, 2, 3, 4, 5]], r"boards must be an \(N, k\) array"),
        (np.array([[0, 1, 2, 3]] * 3), [4, 5, 6, 7, 5], r"^the board: card 4 \(5\): duplicate of card 1$"),
        (np.array([[0, 1, 2, 3]] * 3), [4, 5, 6, 7, 3], r"^row 0: 2s is in both the hole cards and the board$"),
    ]
    for h, b, message in cases:
        for evaluate in (evaluate_omaha_batch, evaluate_omaha_low_batch):
            with pytest.raises(ValueError, match=message):
                evaluate(h, b)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="threads must be None or an int from 1 to 256, got 0"):
        evaluate_omaha_batch(holes, boards, threads=0)


@pytest.mark.parametrize("value", [-1, 57, True, 1.0, "3"])
def test_describe_low_refuses_what_is_not_a_low_value(value: object) -> None:
    with pytest.raises(ValueError, match=r"^low value must be an int in 0\.\.56, got "):
        describe_low(value)  # type: ignore[arg-type]


def test_the_c_backend_agrees_with_the_numpy_path(both: tuple[Tables, Tables]) -> None:
    # The C walk (dag5, rows in C) against the numpy reference, value for
    # value and error for error, single deals and batches.
    c, ref = both
    rng = np.random.default_rng(77)
    for size in (4, 5, 6):
        for board_size in (3, 4, 5):
            deals = np.argsort(rng.random((3000, 52)), axis=1)[:, : size + board_size]
            holes, boards = deals[:, :size], deals[:, size:]
            want = tp.evaluate_omaha_batch(holes, boards, tables=ref, threads=1)
            np.testing.assert_array_equal(tp.evaluate_omaha_batch(holes, boards, tables=c, threads=2), want)
            for i in range(0, 3000, 300):
                assert tp.evaluate_omaha(holes[i].tolist(), boards[i].tolist(), tables=c) == want[i]
                text_hole = " ".join(tp.format_card(x) for x in holes[i])
                assert tp.evaluate_omaha(text_hole, tuple(boards[i].tolist()), tables=c) == want[i]
    shared = np.array(tp.parse_cards("Qh Jh Th 9h 2s"))
    holes = np.array([tp.parse_cards("Ah Kh 2c 3d"), tp.parse_cards("Ah Kc 2c 3d")])
    assert tp.evaluate_omaha_batch(holes, shared, tables=c).tolist() == [7462, 5863]
    bad_cases = [
        (("As Ad Kh 2c", "As Kd Qh"), {}),
        (([51, 50, 49, 48], [47, 46, 52]), {}),
        (([51, 50, 49, True], [47, 46, 45]), {}),
        (("As Ad Kh", "Qd Jh Tc"), {}),
        (("As Ad Kh 2c", "Qd Jh Tc 9s 8s 7s"), {}),
    ]
    for (hole, board), _ in bad_cases:
        errors = []
        for t in (c, ref):
            with pytest.raises((ValueError, TypeError)) as e:
                tp.evaluate_omaha(hole, board, tables=t)
            errors.append((type(e.value), str(e.value)))
        assert errors[0] == errors[1], (hole, board)
    rows = np.array([[51, 50, 0, 5], [12, 13, 14, 47], [1, 2, 3, 4]])
    errors = []
    for t in (c, ref):
        with pytest.raises(ValueError) as e:
            tp.evaluate_omaha_batch(rows, np.array([[47, 43, 39, 35, 6]] * 3), tables=t)
        errors.append(str(e.value))
    assert errors[0] == errors[1] == "row 1: Ks is in both the hole cards and the board"


# ------------------------------------------- caller memory changing under a call


@pytest.mark.parametrize("evaluate", [evaluate_omaha_batch, evaluate_omaha_low_batch])
def test_a_card_changed_during_a_batch_is_an_error_or_one_states_answer(evaluate: Any) -> None:
    holes, boards = (np.ascontiguousarray(a) for a in deals(np.random.default_rng(21), 6, 4))
    free = int(np.setdiff1d(np.arange(52), np.concatenate([holes[2], boards[2]]))[0])
    for cells, at in [(holes, (2, 1)), (boards, (2, 3))]:
        other = cells.copy()
        other[at] = free
        both = [evaluate(holes, boards), evaluate(*((other, boards) if cells is holes else (holes, other)))]
        assert every_moment(cells, at, 300, lambda: evaluate(holes, boards), both[:1])
        assert every_moment(cells, at, free, lambda: evaluate(holes, boards), both)
    board = boards[0].copy()  # one board shared by every row
    mine = holes[:, :4].copy()
    mine[np.isin(mine, board)] = -1
    mine = mine[(mine >= 0).all(axis=1)]
    assert len(mine)
    want = evaluate(mine, board)
    assert every_moment(board, (4,), 260, lambda: evaluate(mine, board), [want])


def test_masked_arrays_and_empty_batches() -> None:
    holes, boards = deals(np.random.default_rng(22), 2, 4)
    for evaluate in (evaluate_omaha_batch, evaluate_omaha_low_batch):
        with pytest.raises(TypeError, match="holes must be a plain array, not a masked array"):
            evaluate(np.ma.array(holes, mask=np.eye(2, 4)), boards)
        with pytest.raises(TypeError, match="boards must be a plain array, not a masked array"):
            evaluate(holes, np.ma.array(boards[0], mask=[0, 0, 1, 0, 0]))
        assert evaluate([], []).shape == (0,)
        assert evaluate(np.zeros((0, 6), dtype=np.int8), np.zeros((0, 3), dtype=np.int8)).shape == (0,)
