"""The numpy reference of ``Walker.count_vs_random``: every combo against a random hand, board by board.

On each board every combo is valued, the values are sorted, and a combo
h = (c1, c2) beats the opponents below it, less those holding c1 or c2
(inclusion-exclusion: h itself holds both and is below nothing; for "at
most" it counts once in each term, so it is added back once). Combos that
touch the board (value 0) sit below every live one and are taken off as
constants. The C kernel sweeps up the sorted combos instead; the tests hold
the two together on sampled boards.

>>> from twoplustwo.tables.default import get_tables
>>> layers = get_tables().layers("dag7")
>>> out = np.zeros((N_COMBOS, 2), dtype=np.int64)
>>> count_vs_random(layers, np.array([[0, 1, 2, 3, 4]], dtype=np.uint8), np.array([1]), out)
>>> int(out[-1, 0]), int(out[-1, 1])  # AsAh on 2c 2d 2h 2s 3c: beats the 903 hands without an ace, ties 87
(903, 990)
"""

from __future__ import annotations

import functools
from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt

from twoplustwo.kernels.arrays import rank_combos
from twoplustwo.vocab.combos import COMBOS, N_COMBOS

__all__ = ["count_vs_random"]

Layers = list[npt.NDArray[np.unsignedinteger[Any]]]

# Boards valued and counted together: big enough numpy calls, arrays of a few MB.
_STEP = 128

# Combos a live combo cannot face on a five-card board: those touching the
# board (C(52, 2) - C(47, 2)), and in one card's row of 51 combos those
# whose other card is on the board.
_DEAD = N_COMBOS - comb(47, 2)
_DEAD_IN_ROW = 5

# _CARD_ROWS[c]: the 51 combos holding card c, in COMBOS order; each
# combo's place in the flattened rows, by its first card and by its second.
_CARD_ROWS = np.array([np.flatnonzero((COMBOS == c).any(axis=1)) for c in range(52)], dtype=np.intp)
_ROW_POS = np.empty((N_COMBOS, 2), dtype=np.intp)
for _c in range(52):
    _ROW_POS[_CARD_ROWS[_c], (COMBOS[_CARD_ROWS[_c], 1] == _c).astype(np.intp)] = np.arange(51)
del _c
_AT_FIRST = COMBOS[:, 0].astype(np.intp) * 51 + _ROW_POS[:, 0]
_AT_SECOND = COMBOS[:, 1].astype(np.intp) * 51 + _ROW_POS[:, 1]


def count_vs_random(
    layers: Layers, boards: npt.NDArray[np.uint8], weights: npt.NDArray[np.int64], out: npt.NDArray[np.int64]
) -> None:
    """``Walker.count_vs_random`` on dag7's ``layers``: weight x (wins, wins + ties) per combo added to ``out``.

    Raises ``ValueError`` unless every board is five distinct cards 0..51.
    """
    boards, weights = boards.copy(), weights.copy()  # read once: checked and counted from these copies
    ordered = np.sort(boards, axis=1)
    if boards.size and (boards.max() > 51 or (ordered[:, 1:] == ordered[:, :-1]).any()):
        raise ValueError("each board must be five distinct cards 0..51")
    total = np.zeros((2, N_COMBOS), dtype=np.int64)
    values = np.empty((_STEP, N_COMBOS), dtype=np.uint16)
    for lo in range(0, len(boards), _STEP):
        block = boards[lo : lo + _STEP]
        for i, board in enumerate(block.tolist()):
            node = 0
            for depth, card in enumerate(board):
                node = int(layers[depth][node * 52 + card])
            rank_combos(layers[5:], node, sum(1 << c for c in board), values[i])
        total += _count_block(values[: len(block)], weights[lo : lo + _STEP].astype(np.int64))
    out += total.T


@functools.lru_cache(maxsize=8)
def _columns(m: int) -> npt.NDArray[np.uint32]:
    out = np.arange(m, dtype=np.uint32)
    out.setflags(write=False)  # shared by every thread
    return out


@functools.lru_cache(maxsize=8)
def _row_starts(n_rows: int, m: int) -> npt.NDArray[np.int32]:
    out = np.repeat(np.arange(0, n_rows * m, m, dtype=np.int32), m)
    out.setflags(write=False)
    return out


def _sorted_keys(values: npt.NDArray[np.uint16], shift: int) -> npt.NDArray[np.uint32]:
    # The column rides below the value so that a plain sort of each row
    # (vectorised, far faster than argsort) still says where each entry was.
    keys = values.astype(np.uint32)
    keys <<= np.uint32(shift)
    keys |= _columns(values.shape[1])
    keys.sort(axis=1)
    return keys


def _runs(keys: npt.NDArray[np.uint32], shift: int) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """For each entry of rows sorted by value: how many entries of its row are below its value, and how many at most.

    ``keys`` holds ``value << shift | column`` sorted along each row; the
    answers come flat, in sorted order, counted within the row.
    """
    m = keys.shape[1]
    s = keys.ravel()
    n = len(s)
    value = s >> np.uint32(shift)
    new = np.empty(n, dtype=bool)
    np.not_equal(value[1:], value[:-1], out=new[1:])
    new[::m] = True
    run = np.cumsum(new, dtype=np.int32)
    run -= 1
    starts = np.flatnonzero(new).astype(np.int32)
    ends = np.empty_like(starts)
    ends[:-1] = starts[1:]
    ends[-1] = n
    row = starts - starts % m
    starts -= row
    ends -= row
    return np.take(starts, run), np.take(ends, run)


def _below_all(values: npt.NDArray[np.uint16]) -> npt.NDArray[np.int32]:
    """(B, 1326) values in, ``below | at_most << 16`` of each combo among all 1,326 on its board out."""
    boards, m = values.shape
    keys = _sorted_keys(values, 11)
    below, at_most = _runs(keys, 11)
    at_most <<= 16
    at_most |= below
    where = (keys.ravel() & np.uint32(2047)).view(np.int32)
    where += _row_starts(boards, m)
    out = np.empty(boards * m, dtype=np.int32)
    out[where] = at_most
    return out.reshape(boards, m)


def _below_in_rows(values: npt.NDArray[np.uint16]) -> npt.NDArray[np.int32]:
    """(N, 51) values in, ``below | at_most << 8`` of each entry within its row out, in the input's order."""
    keys = _sorted_keys(values, 6)
    below, at_most = _runs(keys, 6)
    # Back to column order by a second row sort, on the column, with the two
    # counts packed below it: cheaper than scattering them.
    s = keys.ravel()
    s &= np.uint32(63)
    s <<= np.uint32(16)
    at_most <<= 8
    s |= below.view(np.uint32)
    s |= at_most.view(np.uint32)
    keys.sort(axis=1)
    keys &= np.uint32(0xFFFF)
    return keys.view(np.int32)


def _count_block(values: npt.NDArray[np.uint16], weights: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Σ weight x (wins, wins + ties) of each combo over a block of boards, as a (2, 1326) array."""
    n = len(values)
    whole = _below_all(values)
    rows = _below_in_rows(values[:, _CARD_ROWS].reshape(-1, 51)).reshape(n, -1)
    blocked = rows[:, _AT_FIRST]
    blocked += rows[:, _AT_SECOND]
    # blocked holds below | at_most << 8 (each sum < 256); line it up with whole's 16-bit halves.
    below = blocked & 0xFF
    blocked >>= 8
    blocked <<= 16
    blocked |= below
    whole -= blocked
    whole -= (_DEAD - 2 * _DEAD_IN_ROW) + ((_DEAD - 2 * _DEAD_IN_ROW - 1) << 16)
    whole[values == 0] = 0
    out = np.empty((2, N_COMBOS), dtype=np.int64)
    out[0] = weights @ (whole & 0xFFFF)
    out[1] = weights @ (whole >> 16)
    return out
