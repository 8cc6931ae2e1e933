"""The numpy reference of the walker's board sweeps: every combo against the others on five-card boards.

On each board every combo is valued, and a combo h = (c1, c2) beats the
weight of the opponents below it, less those holding c1 or c2 (no combo
below h holds both: only h does). The C kernels (``kernels/c/versus.c``)
sweep up the combos in order of value; here the weight below a value comes
from cumulative sums searched in sorted values, for the whole board and for
each card's 51 combos. Combos that touch the board weigh nothing and get
nothing. The tests hold the two backends together.

>>> from twoplustwo.tables.default import get_tables
>>> layers = get_tables().layers("dag7")
>>> out = np.zeros((N_COMBOS, 2), dtype=np.uint16)
>>> board_wins(layers, np.array([[0, 1, 2, 3, 4]], dtype=np.uint8), out.reshape(1, N_COMBOS, 2))
>>> out[-1].tolist()  # AsAh on 2c 2d 2h 2s 3c: beats the 903 hands without an ace, ties the 87 with one
[903, 87]
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from twoplustwo.kernels.arrays import rank_combos
from twoplustwo.vocab.combos import COMBOS, N_COMBOS

__all__ = ["board_wins", "count_vs_random", "range_sweep", "strength_sums"]

Layers = list[npt.NDArray[np.unsignedinteger[Any]]]

# Boards valued and swept together: big numpy calls, arrays of a few MB.
_STEP = 64
# Above every hand value: each board's (or row's) values get their own span of the keys.
_SPAN = 8192

# _CARD_ROWS[c]: the 51 combos holding card c, in COMBOS order.
_CARD_ROWS = np.array([np.flatnonzero((COMBOS == c).any(axis=1)) for c in range(52)], dtype=np.intp)
_FIRST, _SECOND = COMBOS[:, 0].astype(np.intp), COMBOS[:, 1].astype(np.intp)
# Where each combo sits in the card rows laid end to end: in its first card's row, and in its second's.
_AT_FIRST = (_CARD_ROWS[_FIRST] == np.arange(N_COMBOS)[:, None]).argmax(axis=1) + _FIRST * 51
_AT_SECOND = (_CARD_ROWS[_SECOND] == np.arange(N_COMBOS)[:, None]).argmax(axis=1) + _SECOND * 51


def _checked(boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """A copy of ``boards`` (read once: checked and swept from it), or ``ValueError``."""
    boards = np.array(boards, dtype=np.uint8).reshape(-1, 5)
    ordered = np.sort(boards, axis=1)
    if boards.size and (boards.max() > 51 or (ordered[:, 1:] == ordered[:, :-1]).any()):
        raise ValueError("each board must be five distinct cards 0..51")
    return boards


def _values(layers: Layers, boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint16]:
    """(B, 1326): every combo's value on each board, 0 where it touches the board."""
    values = np.empty((len(boards), N_COMBOS), dtype=np.uint16)
    for i, board in enumerate(boards.tolist()):
        node = 0
        for depth, card in enumerate(board):
            node = int(layers[depth][node * 52 + card])
        rank_combos(layers[5:], node, sum(1 << c for c in board), values[i])
    return values


def _below(values: npt.NDArray[Any], weights: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float64], ...]:
    """For rows of values and weights (R, m): each entry's row weight below its value, at most its value, and in all."""
    rows, m = values.shape
    keys = (values.astype(np.int64) + (np.arange(rows) * _SPAN)[:, None]).ravel()
    order = np.argsort(keys, kind="stable")
    sums = np.concatenate([[0.0], np.cumsum(weights.ravel()[order])])
    ranked = keys[order]
    starts = sums[np.arange(rows) * m]
    below = sums[np.searchsorted(ranked, keys, "left")].reshape(rows, m) - starts[:, None]
    at_most = sums[np.searchsorted(ranked, keys, "right")].reshape(rows, m) - starts[:, None]
    return below, at_most, (sums[np.arange(1, rows + 1) * m] - starts)[:, None]


def _sweep(
    values: npt.NDArray[np.uint16], weights: npt.NDArray[np.float64]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """(B, 1326) each: the weight each combo beats, ties and could face, on each board (0 where it touches it)."""
    n = len(values)
    live = values != 0
    w = np.where(live, weights, 0.0)
    below, at_most, total = _below(values, w)
    # The same within each card's 51 combos: the opponents that share a card with h.
    row_values, row_weights = values[:, _CARD_ROWS].reshape(n * 52, 51), w[:, _CARD_ROWS].reshape(n * 52, 51)
    card_below, card_at_most, card_total = _below(row_values, row_weights)
    cb, ca = card_below.reshape(n, -1), card_at_most.reshape(n, -1)
    ct = np.repeat(card_total.reshape(n, 52), 51, axis=1)
    wins = below - cb[:, _AT_FIRST] - cb[:, _AT_SECOND]
    # h itself is at most its value in all three sums, and holds both cards: added back once.
    ties = at_most - ca[:, _AT_FIRST] - ca[:, _AT_SECOND] + w - wins
    faced = total - ct[:, _AT_FIRST] - ct[:, _AT_SECOND] + w
    return np.where(live, wins, 0), np.where(live, ties, 0), np.where(live, faced, 0)


def count_vs_random(
    layers: Layers, boards: npt.NDArray[np.uint8], weights: npt.NDArray[np.int64], out: npt.NDArray[np.int64]
) -> None:
    """``Walker.count_vs_random`` on dag7's ``layers``: weight x (wins, wins + ties) per combo added to ``out``."""
    boards, weights = _checked(boards), np.array(weights, dtype=np.int64)
    ones = np.ones(N_COMBOS)
    for lo in range(0, len(boards), _STEP):
        wins, ties, _ = _sweep(_values(layers, boards[lo : lo + _STEP]), ones)
        w = weights[lo : lo + _STEP]
        out[:, 0] += w @ wins.astype(np.int64)
        out[:, 1] += w @ (wins + ties).astype(np.int64)


def board_wins(layers: Layers, boards: npt.NDArray[np.uint8], out: npt.NDArray[np.uint16]) -> None:
    """``Walker.board_wins`` on dag7's ``layers``: each combo's wins and ties on each board into ``out``."""
    boards = _checked(boards)
    ones = np.ones(N_COMBOS)
    for lo in range(0, len(boards), _STEP):
        wins, ties, _ = _sweep(_values(layers, boards[lo : lo + _STEP]), ones)
        out[lo : lo + _STEP, :, 0] = wins
        out[lo : lo + _STEP, :, 1] = ties


def range_sweep(
    layers: Layers, boards: npt.NDArray[np.uint8], weights: npt.NDArray[np.float64], out: npt.NDArray[np.float64]
) -> None:
    """``Walker.range_sweep`` on dag7's ``layers``: the weight each combo beats, ties and faces, added to ``out``."""
    weights = np.array(weights, dtype=np.float64)
    if not ((weights >= 0) & (weights <= 1)).all():
        raise ValueError("range_sweep's weights must be in [0, 1]")
    boards = _checked(boards)
    for lo in range(0, len(boards), _STEP):
        wins, ties, faced = _sweep(_values(layers, boards[lo : lo + _STEP]), weights)
        out += np.stack([wins.sum(axis=0), ties.sum(axis=0), faced.sum(axis=0)], axis=1)


def strength_sums(
    layers: Layers,
    boards: npt.NDArray[np.uint8],
    weights: npt.NDArray[np.int64],
    bins: int,
    first: npt.NDArray[np.int64],
    second: npt.NDArray[np.int64],
    histogram: npt.NDArray[np.int64],
) -> None:
    """``Walker.strength_sums`` on dag7's ``layers``: with x = 2W + T, weight x x, x x^2 and x its bin, added."""
    boards, weights = _checked(boards), np.array(weights, dtype=np.int64)
    ones = np.ones(N_COMBOS)
    for lo in range(0, len(boards), _STEP):
        values = _values(layers, boards[lo : lo + _STEP])
        wins, ties, _ = _sweep(values, ones)
        x = (2 * wins + ties).astype(np.int64)
        w = np.where(values != 0, weights[lo : lo + _STEP, None], 0)
        first += (w * x).sum(axis=0)
        second += (w * x * x).sum(axis=0)
        if bins:
            at = np.minimum(bins - 1, x * bins // 1980) + np.arange(N_COMBOS) * bins
            histogram += np.bincount(at.ravel(), w.ravel(), N_COMBOS * bins).astype(np.int64).reshape(N_COMBOS, bins)
