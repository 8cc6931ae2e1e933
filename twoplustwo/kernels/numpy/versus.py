"""The walker's board sweeps, every combo against the others on five-card boards (the twin of ``c/versus.c``).

On each board every combo is valued, and a combo h = (c1, c2) beats the
weight of the opponents below it, less those holding c1 or c2 (no combo
below h holds both: only h does). The C kernels (``kernels/c/versus.c``)
sweep up the combos in order of value; here the weight below a value comes
from cumulative sums searched in sorted values, for the whole board and for
each card's 51 combos. Combos that touch the board weigh nothing and get
nothing. The tests hold the two backends together.

>>> from twoplustwo.kernels.numpy import DAGS, Walker
>>> from twoplustwo.tables.default import get_tables
>>> t = get_tables()
>>> w = Walker(*[[t.buffers[f"{d}/layer{k}"] for k in range(1, n + 1)] for d, n in DAGS], t.buffers["dag7/value5"],
...            t.buffers["dag7/value6"])
>>> out = np.zeros((N_COMBOS, 2), dtype=np.uint16)
>>> board_wins(w, np.array([[0, 1, 2, 3, 4]], dtype=np.uint8), out.reshape(1, N_COMBOS, 2))
>>> out[-1].tolist()  # AsAh on 2c 2d 2h 2s 3c: beats the 903 hands without an ace, ties the 87 with one
[903, 87]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from twoplustwo.kernels.numpy.args import array, long
from twoplustwo.kernels.numpy.enumerate import combo_values
from twoplustwo.vocab.combos import COMBOS, N_COMBOS

if TYPE_CHECKING:
    from twoplustwo.kernels.interface import F64, I64, U8, U16
    from twoplustwo.kernels.numpy.walker import Dags

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
        combo_values(layers[5:], node, sum(1 << c for c in board), values[i])
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


def _count_vs_random(
    layers: Layers, boards: npt.NDArray[np.uint8], weights: npt.NDArray[np.int64], out: npt.NDArray[np.int64]
) -> None:
    """On dag7's ``layers``: weight x (wins, wins + ties) per combo added to ``out``."""
    boards, weights = _checked(boards), np.array(weights, dtype=np.int64)
    ones = np.ones(N_COMBOS)
    for lo in range(0, len(boards), _STEP):
        wins, ties, _ = _sweep(_values(layers, boards[lo : lo + _STEP]), ones)
        w = weights[lo : lo + _STEP]
        out[:, 0] += w @ wins.astype(np.int64)
        out[:, 1] += w @ (wins + ties).astype(np.int64)


def _board_wins(layers: Layers, boards: npt.NDArray[np.uint8], out: npt.NDArray[np.uint16]) -> None:
    """On dag7's ``layers``: each combo's wins and ties on each board into ``out``."""
    boards = _checked(boards)
    ones = np.ones(N_COMBOS)
    for lo in range(0, len(boards), _STEP):
        wins, ties, _ = _sweep(_values(layers, boards[lo : lo + _STEP]), ones)
        out[lo : lo + _STEP, :, 0] = wins
        out[lo : lo + _STEP, :, 1] = ties


def _range_sweep(
    layers: Layers, boards: npt.NDArray[np.uint8], weights: npt.NDArray[np.float64], out: npt.NDArray[np.float64]
) -> None:
    """On dag7's ``layers``: the weight each combo beats, ties and faces, added to ``out``."""
    weights = np.array(weights, dtype=np.float64)
    if not ((weights >= 0) & (weights <= 1)).all():
        raise ValueError("range_sweep's weights must be in [0, 1]")
    boards = _checked(boards)
    for lo in range(0, len(boards), _STEP):
        wins, ties, faced = _sweep(_values(layers, boards[lo : lo + _STEP]), weights)
        out += np.stack([wins.sum(axis=0), ties.sum(axis=0), faced.sum(axis=0)], axis=1)


def _strength_sums(
    layers: Layers,
    boards: npt.NDArray[np.uint8],
    weights: npt.NDArray[np.int64],
    bins: int,
    first: npt.NDArray[np.int64],
    second: npt.NDArray[np.int64],
    histogram: npt.NDArray[np.int64],
) -> None:
    """On dag7's ``layers``: with x = 2W + T, weight x x, x x^2 and x its bin, added."""
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


def count_vs_random(w: Dags, boards: U8, weights: I64, out: I64, /) -> None:
    """Each combo's weighted wins and wins + ties against a random hand on (B, 5) boards, added to out (1326, 2)."""
    b, wt, o = array(boards), array(weights), array(out, writable=True)
    if b.ndim != 2 or b.itemsize != 1 or b.shape[1] != 5 or wt.itemsize != 8 or o.itemsize != 8 or o.size != 2652:
        raise ValueError("count_vs_random takes uint8 (boards, 5) boards, int64 weights and an int64 (1326, 2) out")
    if wt.size != b.shape[0]:
        raise ValueError("count_vs_random takes one weight per board")
    w.holdem_only("count_vs_random")
    _count_vs_random(w.layers(7), b.view("u1"), wt.view("i8").reshape(-1), o.view("i8").reshape(-1, 2))


def board_wins(w: Dags, boards: U8, out: U16, /) -> None:
    """Each combo's wins and ties against every other combo on each of (B, 5) boards, into out (B, 1326, 2)."""
    b, o = array(boards), array(out, writable=True)
    if b.ndim != 2 or b.itemsize != 1 or b.shape[1] != 5 or o.itemsize != 2 or o.size != b.shape[0] * 2652:
        raise ValueError("board_wins takes uint8 (boards, 5) boards and a uint16 (boards, 1326, 2) out")
    w.holdem_only("board_wins")
    _board_wins(w.layers(7), b.view("u1"), o.view("u2").reshape(-1, 1326, 2))


def strength_sums(w: Dags, boards: U8, weights: I64, bins: int, first: I64, second: I64, histogram: I64, /) -> None:
    """Each combo's Σ weight x (2W + T), its square and its histogram over (B, 5) boards, added to the outs."""
    b, wt, n = array(boards), array(weights), long(bins)
    f, s, h = (array(a, writable=True) for a in (first, second, histogram))
    if (
        b.ndim != 2 or b.itemsize != 1 or b.shape[1] != 5 or wt.itemsize != 8 or not 0 <= n <= 1980
        or any(a.itemsize != 8 for a in (f, s, h)) or f.size != 1326 or s.size != 1326 or h.size != 1326 * n
    ):  # fmt: skip
        raise ValueError(
            "strength_sums takes uint8 (boards, 5) boards, int64 weights, bins 0..1980, int64 (1326,) first "
            "and second and an int64 (1326, bins) histogram"
        )
    if wt.size != b.shape[0]:
        raise ValueError("strength_sums takes one weight per board")
    w.holdem_only("strength_sums")
    outs = f.view("i8").reshape(-1), s.view("i8").reshape(-1), h.view("i8").reshape(1326, n)
    _strength_sums(w.layers(7), b.view("u1"), wt.view("i8").reshape(-1), n, *outs)


def range_sweep(w: Dags, boards: U8, weights: F64, out: F64, /) -> None:
    """Each combo's weight beaten, tied and faced of a weighted range on (B, 5) boards, added to out (1326, 3)."""
    b, wt, o = array(boards), array(weights), array(out, writable=True)
    if (
        b.ndim != 2 or b.itemsize != 1 or b.shape[1] != 5 or wt.itemsize != 8 or wt.size != 1326
        or o.itemsize != 8 or o.size != 3978
    ):  # fmt: skip
        raise ValueError(
            "range_sweep takes uint8 (boards, 5) boards, float64 (1326,) weights and a float64 (1326, 3) out"
        )
    w.holdem_only("range_sweep")
    _range_sweep(w.layers(7), b.view("u1"), wt.view("f8").reshape(-1), o.view("f8").reshape(1326, 3))
