"""Splitting pots: who takes what share of each pot, in whole units (the numpy twin of ``c/showdown.c``).

A k-way split pays each winner 1/k of the pot. Counted in units of
1/:data:`SPLIT` of a pot (2520 = lcm(1..9)), every share of up to nine
players is a whole number, so sums are exact in any order. Hi/lo splits
each pot into a high half and a low half, counted in 1/:data:`HILO_UNIT`.

This module is the one place that splits pots: exact enumeration, Monte
Carlo and Omaha use it, and so does the numpy reference walker for its
``score`` and ``score_tuples`` (the C core's scoring twins them). It sits
on the kernels' floor so that both the kernels and the odds above may use it.

>>> values = np.array([[7000, 5000, 6000], [7000, 6000, 6000], [10, 20, 30]], dtype=np.uint16)
>>> shares(values).tolist()  # board 0 split two ways, board 1 won alone, board 2 split two ways
[[1260, 0, 1260], [1260, 2520, 1260], [0, 0, 0]]
>>> score(values)  # per player: boards won alone, boards shared, units
[(0, 2, 2520), (1, 2, 5040), (0, 0, 0)]
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["HILO_UNIT", "SHARES", "SPLIT", "hilo_shares", "outcomes", "score", "score_tuples", "shares"]

#: Units of a pot: 2520 = lcm(1, ..., 9), so a k-way split is exact for up to nine players.
SPLIT = 2520
#: ``SHARES[k]``: the units each of k winners of a pot takes.
SHARES = np.array([0] + [SPLIT // k for k in range(1, 10)], dtype=np.int64)
#: Hi/lo shares are counted in 1/HILO_UNIT of a pot: half a pot split k ways
#: for k = 1..9 is a whole number of units.
HILO_UNIT = 2 * SPLIT

# Deals scored per step of score_tuples, to bound its temporaries.
_SCORE_CHUNK = 64


def shares(values: npt.NDArray[np.unsignedinteger]) -> npt.NDArray[np.int64]:
    """Each player's share of each pot in units of 1/:data:`SPLIT`: the best hands split it.

    ``values`` is ``(players, games)``; so is the result.
    """
    top = values == values.max(axis=0)
    share: npt.NDArray[np.int64] = top * SHARES[top.sum(axis=0)]
    return share


def hilo_shares(high: npt.NDArray[np.uint16], low: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """Each player's share of each pot, in 1/:data:`HILO_UNIT`: ``(players, boards)`` high and low values.

    A low of 0 does not qualify. Below, on the first board the second
    player wins the high half and the two split the low half (the first is
    quartered); on the second nobody has a low and the two split the pot.

    >>> hilo_shares(np.array([[5, 9], [7, 9]], dtype=np.uint16), np.array([[3, 0], [3, 0]], dtype=np.uint8)).tolist()
    [[1260, 2520], [3780, 2520]]
    """
    top_high = high == high.max(axis=0)
    n_high = top_high.sum(axis=0)
    best_low = low.max(axis=0)
    split = best_low > 0
    top_low = (low == best_low) & split
    n_low = np.maximum(top_low.sum(axis=0), 1)
    high_pot = np.where(split, HILO_UNIT // 2, HILO_UNIT)
    out: npt.NDArray[np.int64] = top_high * (high_pot // n_high) + top_low * (HILO_UNIT // 2 // n_low)
    return out


def outcomes(units: npt.NDArray[np.int64], pot: int) -> list[tuple[int, int, int]]:
    """Per player ``(wins, ties, units)`` from ``(players, games)`` shares of pots of ``pot`` units.

    A win takes the whole pot alone; a tie takes part of it.

    >>> outcomes(np.array([[2520, 1260, 0], [0, 1260, 2520]]), SPLIT)
    [(1, 1, 3780), (1, 1, 3780)]
    """
    out = []
    for row in units:
        wins = int(np.count_nonzero(row == pot))
        out.append((wins, int(np.count_nonzero(row)) - wins, int(row.sum())))
    return out


def score(values: npt.NDArray[np.uint16]) -> list[tuple[int, int, int]]:
    """Per player ``(wins, ties, units)`` over the boards of ``(players, boards)`` values, as ``Walker.score`` gives."""
    if len(values) == 2:
        # Heads-up needs no per-board winner count.
        a, b = values
        ties = int(np.count_nonzero(a == b))
        alone = [int(np.count_nonzero(a > b)), int(np.count_nonzero(b > a))]
        return [(w, ties, SPLIT * w + SPLIT // 2 * ties) for w in alone]
    return outcomes(shares(values), SPLIT)


def score_tuples(
    values: npt.NDArray[np.uint16],
    deals: npt.NDArray[np.int32],
    counts: npt.NDArray[np.int64],
    games: npt.NDArray[np.int64],
) -> None:
    """Add each deal's counts over its live boards, as ``Walker.score_tuples`` does (arguments checked).

    Row ``deals[d]`` names each player's row of ``values``; a board where
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
