"""rank_hands: every combo on a board, against full-hand batches on both backends."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

import twoplustwo as tp
from twoplustwo.kernels.games import walker_of
from twoplustwo.tables.load import Tables


def brute(board: list[int], tables: Tables) -> np.ndarray:
    """Each combo's value from a batch of whole hands (the board's cards and the combo's)."""
    out = np.zeros(len(tp.COMBOS), dtype=np.uint16)
    live = ~np.isin(tp.COMBOS, board).any(axis=1)
    rows = np.hstack([np.tile(np.array(board, dtype=np.uint8), (int(live.sum()), 1)), tp.COMBOS[live]])
    out[live] = tp.evaluate_batch(rows, tables=tables)
    return out


@pytest.mark.parametrize("size", [3, 4, 5])
def test_random_boards_on_both_backends(size: int, both: tuple[Tables, Tables]) -> None:
    rng = np.random.default_rng(size)
    for _ in range(150):
        board = rng.choice(52, size=size, replace=False).tolist()
        want = brute(board, both[1])
        assert int((want == 0).sum()) == 1326 - len(list(combinations(range(52 - size), 2)))
        for t in both:
            got = tp.rank_hands(board, tables=t)
            assert got.dtype == np.uint16 and got.shape == (1326,)
            np.testing.assert_array_equal(got, want, err_msg=str(board))


def test_every_flop() -> None:
    # All 22,100 flops x 1,326 combos (29 M hands) against the 5-card batch walk.
    flops = list(combinations(range(52), 3))
    for start in range(0, len(flops), 2000):
        chunk = flops[start : start + 2000]
        got = np.stack([tp.rank_hands(list(f)) for f in chunk])
        rows = np.concatenate([np.broadcast_to(np.array(f, dtype=np.uint8), (1326, 3)) for f in chunk])
        rows = np.hstack([rows, np.tile(tp.COMBOS, (len(chunk), 1))])
        live = (rows[:, 3:, None] != rows[:, None, :3]).all(axis=(1, 2))
        want = np.zeros(len(rows), dtype=np.uint16)
        want[live] = tp.evaluate_batch(rows[live], check=False)
        np.testing.assert_array_equal(got.ravel(), want)


@pytest.mark.parametrize(
    ("board", "message"),
    [
        ("As Ks", "a board holds 3, 4 or 5 cards, got 2"),
        ("As Ks Qs Js Ts 9s", "got 6"),
        ("As Ks As", "duplicate"),
        ("As Ks Xx", "unknown rank"),
        ([0, 1, 52], "out of range"),
    ],
)
def test_bad_boards(board: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        tp.rank_hands(board)  # type: ignore[arg-type]


def test_walker_refuses_what_it_cannot_walk(both: tuple[Tables, Tables]) -> None:
    w = walker_of(both[0])
    with pytest.raises(ValueError, match="depth of 3..5"):
        w.rank_combos(0, 2, 0, np.zeros(1326, dtype=np.uint16))
    with pytest.raises(ValueError, match="1326 entries"):
        w.rank_combos(0, 5, 0, np.zeros(1325, dtype=np.uint16))
    with pytest.raises(ValueError, match="not a node of that depth"):
        w.rank_combos(10**7, 5, 0, np.zeros(1326, dtype=np.uint16))
