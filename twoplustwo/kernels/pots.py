"""Splitting pots: who takes what share of each pot, in whole units.

A k-way split pays each winner 1/k of the pot. Counted in units of
1/:data:`POT_UNITS` of a pot (2520 = lcm(1..9)), every share of up to nine
players is a whole number, so sums are exact in any order. Hi/lo splits
each pot into a high half and a low half, counted in 1/:data:`HILO_UNIT`.

This module is the one place that splits pots: exact enumeration, Monte
Carlo and Omaha use it, and so does the numpy backend's twin of
``kernels/c/showdown.c`` (:mod:`twoplustwo.kernels.numpy.showdown`). It
sits on the kernels' floor so that both the kernels and the odds above may
use it; neither backend's twin holds it.

>>> values = np.array([[7000, 5000, 6000], [7000, 6000, 6000], [10, 20, 30]], dtype=np.uint16)
>>> shares(values).tolist()  # board 0 split two ways, board 1 won alone, board 2 split two ways
[[1260, 0, 1260], [1260, 2520, 1260], [0, 0, 0]]
>>> outcomes(shares(values), POT_UNITS)  # per player: boards won alone, boards shared, units
[(0, 2, 2520), (1, 2, 5040), (0, 0, 0)]
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["HILO_UNIT", "SHARES", "POT_UNITS", "hilo_shares", "outcomes", "shares"]

#: Units of a pot: 2520 = lcm(1, ..., 9), so a k-way split is exact for up to nine players.
POT_UNITS = 2520
#: ``SHARES[k]``: the units each of k winners of a pot takes.
SHARES = np.array([0] + [POT_UNITS // k for k in range(1, 10)], dtype=np.int64)
#: Hi/lo shares are counted in 1/HILO_UNIT of a pot: half a pot split k ways
#: for k = 1..9 is a whole number of units.
HILO_UNIT = 2 * POT_UNITS


def shares(values: npt.NDArray[np.unsignedinteger]) -> npt.NDArray[np.int64]:
    """Each player's share of each pot in units of 1/:data:`POT_UNITS`: the best hands split it.

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

    >>> outcomes(np.array([[2520, 1260, 0], [0, 1260, 2520]]), POT_UNITS)
    [(1, 1, 3780), (1, 1, 3780)]
    """
    out = []
    for row in units:
        wins = int(np.count_nonzero(row == pot))
        out.append((wins, int(np.count_nonzero(row)) - wins, int(row.sum())))
    return out
