"""Showdown: who wins each board, who ties, and their pot shares, the numpy twin of ``kernels/c/showdown.c``.

The walker's ``score`` and ``score_tuples``, for equity's exact and sampled
paths; the shares themselves are :mod:`twoplustwo.kernels.pots`'s.

>>> values = np.array([[7000, 5000, 6000], [7000, 6000, 6000], [10, 20, 30]], dtype=np.uint16)
>>> score(values)  # per player: boards won alone, boards shared, units
[(0, 2, 2520), (1, 2, 5040), (0, 0, 0)]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from twoplustwo.kernels.numpy.args import array
from twoplustwo.kernels.pots import POT_UNITS, SHARES, outcomes, shares

if TYPE_CHECKING:
    from twoplustwo.kernels.interface import I64, U16

__all__ = ["score", "score_tuples"]

# Deals scored per step of score_tuples, to bound its temporaries.
_SCORE_CHUNK = 64


def score(values: U16, /) -> list[tuple[int, int, int]]:
    """Per player (wins, ties, units) of (players, boards) uint16 values: boards won alone, shared, pot shares."""
    v = array(values)
    if v.ndim != 2 or v.itemsize != 2 or not 1 <= v.shape[0] <= 9:
        raise ValueError("score takes a (players, boards) uint16 array of 1 to 9 players")
    return _score(v.view("u2"))


def score_tuples(values: U16, tuples: npt.NDArray[np.int32], counts: I64, games: I64, /) -> None:
    """Add each deal's wins alone, ties and units (over the boards where all its rows are live) to the counts."""
    vb, tb = array(values), array(tuples)
    cb, gb = array(counts, writable=True), array(games, writable=True)
    if vb.ndim != 2 or vb.itemsize != 2 or tb.ndim != 2 or tb.itemsize != 4 or cb.itemsize != 8 or gb.itemsize != 8:
        raise ValueError(
            "score_tuples takes uint16 (rows, boards) values, int32 (deals, players) tuples, int64 counts and games"
        )
    (rows, boards), (deals, players) = vb.shape, tb.shape
    if not 2 <= players <= 9 or boards > 2**31 - 1:
        raise ValueError("score_tuples takes 2 to 9 players and fewer than 2**31 boards")
    if cb.nbytes != deals * players * 3 * 8 or gb.nbytes != deals * 8:
        raise ValueError("counts must be (deals, players, 3) and games (deals,)")
    named = tb.view("i4").copy()
    if named.size and (named.min() < 0 or named.max() >= rows):
        raise ValueError("a tuple names a row values does not have")
    _score_tuples(vb.view("u2"), named, cb.view("i8").reshape(deals, players, 3), gb.view("i8").reshape(-1))


def _score(values: npt.NDArray[np.uint16]) -> list[tuple[int, int, int]]:
    if len(values) == 2:
        # Heads-up needs no per-board winner count.
        a, b = values
        ties = int(np.count_nonzero(a == b))
        alone = [int(np.count_nonzero(a > b)), int(np.count_nonzero(b > a))]
        return [(w, ties, POT_UNITS * w + POT_UNITS // 2 * ties) for w in alone]
    return outcomes(shares(values), POT_UNITS)


def _score_tuples(
    values: npt.NDArray[np.uint16],
    deals: npt.NDArray[np.int32],
    counts: npt.NDArray[np.int64],
    games: npt.NDArray[np.int64],
) -> None:
    """Row ``deals[d]`` names each player's row of ``values``; a board where
    some player's value is 0 is not live. ``counts[d, p]`` gains the boards
    player p won alone, those shared and the units taken, and ``games[d]``
    the live boards.
    """
    for a in range(0, len(deals), _SCORE_CHUNK):
        v = values[deals[a : a + _SCORE_CHUNK]]  # (deals, players, boards)
        live = (v != 0).all(axis=1)
        best = v.max(axis=1)
        top = (v == best[:, None, :]) & live[:, None, :]
        n_top = top.sum(axis=1)
        counts[a : a + _SCORE_CHUNK, :, 0] += (top & (n_top == 1)[:, None, :]).sum(axis=2)
        counts[a : a + _SCORE_CHUNK, :, 1] += (top & (n_top > 1)[:, None, :]).sum(axis=2)
        counts[a : a + _SCORE_CHUNK, :, 2] += (top * SHARES[n_top][:, None, :]).sum(axis=2)
        games[a : a + _SCORE_CHUNK] += live.sum(axis=1)
