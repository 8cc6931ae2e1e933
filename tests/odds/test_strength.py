"""Hand strength (odds.strength) against a brute force: every completion, every opponent combo, one evaluate each."""

from __future__ import annotations

import random
from itertools import combinations
from math import comb

import numpy as np
import pytest

from tests.racing import every_moment
from twoplustwo import backend
from twoplustwo.hands.batch import evaluate_batch
from twoplustwo.odds.preflop import preflop_vs_random
from twoplustwo.odds.strength import OPPONENTS, strength, strength_batch


def brute(hole: list[int], board: list[int], bins: int) -> tuple[float, float, list[int]]:
    rest = [c for c in range(52) if c not in hole + board]
    xs = []
    for draw in combinations(rest, 5 - len(board)):
        full = board + list(draw)
        opponents = np.array(list(combinations([c for c in rest if c not in draw], 2)), dtype=np.uint8)
        assert len(opponents) == OPPONENTS
        hands = np.vstack([hole + full, np.hstack([opponents, np.tile(np.array(full, np.uint8), (OPPONENTS, 1))])])
        values = evaluate_batch(hands.astype(np.uint8))
        mine, theirs = values[0], values[1:]
        xs.append(2 * int((theirs < mine).sum()) + int((theirs == mine).sum()))
    x = np.array(xs, dtype=np.int64)
    histogram = np.bincount(np.minimum(bins - 1, x * bins // 1980), minlength=bins)
    return x.sum() / (1980 * len(x)), (x * x).sum() / (1980 * 1980 * len(x)), histogram.tolist()


def deals(street: int, n: int, seed: int) -> list[tuple[list[int], list[int]]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        cards = rng.sample(range(52), 2 + street)
        out.append((sorted(cards[:2]), cards[2:]))
    return out


@pytest.mark.parametrize(("street", "n"), [(5, 8), (4, 4), (3, 2)])
def test_strength_matches_brute_force(street: int, n: int) -> None:
    if street == 3 and backend() != "c":
        n = 1  # the numpy backend sweeps a flop's completions far slower: one flop there
    for hole, board in deals(street, n, seed=street):
        got = strength(hole, board, bins=7)
        assert got.histogram is not None
        assert (got.ehs, got.ehs2, got.histogram.tolist()) == brute(hole, board, 7), (hole, board)


def test_chosen_hands() -> None:
    nuts = strength("As Ks", "Qs Js Ts 2c 3d")  # a royal flush beats all 990
    assert (nuts.ehs, nuts.ehs2, nuts.histogram) == (1.0, 1.0, None)
    board_plays = strength("2c 3d", "As Ks Qs Js Ts", bins=3)  # everyone splits the royal flush on the board
    assert board_plays.ehs == 0.5 and board_plays.histogram is not None
    assert board_plays.histogram.tolist() == [0, 1, 0]
    draw = strength("Ah Kh", "Qh Jh 2c 3d", bins=4)
    assert draw.histogram is not None and draw.histogram.sum() == 46


@pytest.mark.one_backend
def test_preflop_strength_is_the_equity_against_a_random_hand() -> None:
    if backend() != "c":
        pytest.skip("before the flop the numpy backend sweeps 134,459 boards for a minute")
    vs_random = preflop_vs_random(["AA", "72o", "T9s"], quiet=True)
    for hole, name in (("As Ah", "AA"), ("7c 2d", "72o"), ("Th 9h", "T9s")):
        got = strength(hole, bins=10)
        assert got.ehs == vs_random[name].equity
        assert got.histogram is not None and got.histogram.sum() == comb(50, 5)
        assert got.ehs**2 < got.ehs2 < got.ehs  # a spread of river strengths in (0, 1)
    # Every combo of a class alike.
    assert strength("Ad Ac", bins=10).histogram.tolist() == strength("As Ah", bins=10).histogram.tolist()  # type: ignore[union-attr]


def test_batch_matches_single_calls() -> None:
    rows = deals(5, 6, 1) + deals(4, 3, 2) + deals(5, 2, 3)
    by_street: dict[int, list[tuple[list[int], list[int]]]] = {}
    for hole, board in rows:
        by_street.setdefault(len(board), []).append((hole, board))
    for hands in by_street.values():
        holes = np.array([h for h, _ in hands])
        boards = np.array([b for _, b in hands])
        got = strength_batch(holes, boards, bins=5, threads=2)
        assert got.histogram is not None
        for i, (hole, board) in enumerate(hands):
            one = strength(hole, board, bins=5)
            assert (got.ehs[i], got.ehs2[i], got.histogram[i].tolist()) == (one.ehs, one.ehs2, one.histogram.tolist())  # type: ignore[union-attr]
    # Hands sharing a board are swept once: the same answers in any order.
    holes = np.array([[51, 50], [3, 7], [51, 50]])
    boards = np.array([[45, 20, 2, 9, 13], [45, 20, 2, 9, 13], [2, 45, 20, 13, 9]])
    got = strength_batch(holes, boards)
    assert got.ehs[0] == got.ehs[2] and got.histogram is None


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: strength("As", "Kd 7c 2h"), ValueError, "hole must be 2 cards"),
        (lambda: strength("As Ah", "Kd 7c"), ValueError, "0, 3, 4 or 5 cards"),
        (lambda: strength("As Ah", "As 7c 2h"), ValueError, "As is in both"),
        (lambda: strength("As Ah", "Kd 7c 2h", bins=0), ValueError, "bins must be 1..1980"),
        (lambda: strength("As Ah", "Kd 7c 2h", bins=2.5), TypeError, "bins must be None or an int"),  # type: ignore[arg-type]
        (lambda: strength_batch([[51, 50]], [[1, 2]]), ValueError, "boards must be an"),
        (lambda: strength_batch([[51, 50]], [[1, 2, 3], [4, 5, 6]]), ValueError, "as many rows"),
        (lambda: strength_batch([[51, 51]], [[1, 2, 3]]), ValueError, "hole 0 holds a card twice"),
        (lambda: strength_batch([[51, 50]], [[1, 2, 50]]), ValueError, "row 0 holds a card twice"),
        (lambda: strength_batch([[51, 52]], [[1, 2, 3]]), ValueError, "card ints 0..51"),
        (lambda: strength_batch([[51.0, 50.0]], [[1, 2, 3]]), ValueError, "holes must be integers, got dtype float64"),
    ],
)
def test_bad_input(call: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        call()  # type: ignore[operator]


def _same(a: object, b: object) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a, b))  # type: ignore[call-overload]


def test_a_card_changed_during_a_batch_is_an_error_or_the_right_strength() -> None:
    # Checked by min and max on the caller's array and then copied, a 258
    # written in between passed: an IndexError, or (cast to uint8 for the
    # strength tables) card 2, another hand.
    holes = np.array([[51, 50], [3, 7], [12, 13]], dtype=np.int64)
    boards = np.array([[45, 20, 8, 30, 33]] * 3, dtype=np.int64)
    def call() -> object:
        return strength_batch(holes, boards, bins=4, threads=1)

    want = call()
    assert every_moment(holes, (1, 1), 258, call, [want], same=_same)
    other = boards.copy()
    other[2, 4] = 34
    both = [want, strength_batch(holes, other, bins=4, threads=1)]
    assert every_moment(boards, (2, 4), 34, call, both, same=_same)


def test_masked_arrays_empty_batches_and_numpy_ints() -> None:
    with pytest.raises(TypeError, match="holes must be a plain array, not a masked array"):
        strength_batch(np.ma.array([[51, 50]], mask=[[0, 1]]), [[1, 2, 3]])
    with pytest.raises(TypeError, match="boards must be a plain array, not a masked array"):
        strength_batch([[51, 50]], np.ma.array([[1, 2, 3]], mask=[[0, 1, 0]]))
    for holes, boards, bins in [([], [], None), ([], [], 3), (np.zeros((0, 2), np.int8), np.zeros((0, 4), np.int8), 5)]:
        s = strength_batch(holes, boards, bins=bins)
        assert s.ehs.shape == s.ehs2.shape == (0,)
        assert (s.histogram is None) if bins is None else s.histogram.shape == (0, bins)
    one = strength_batch([[51, 50]], [[45, 20, 2]], bins=np.int64(5))
    alone = strength("As Ah", "Kd 7c 2h", bins=5).histogram
    assert one.histogram is not None and alone is not None and one.histogram.tolist() == [alone.tolist()]
