"""Exact Omaha equity, high or hi/lo eight or better: every completion of the board.

:func:`twoplustwo.equity` comes here for ``game="omaha"`` and
``game="omaha-hilo"`` when it enumerates. Every missing board card set is
drawn from the cards nobody holds, and each player's hand is valued on each
board with :func:`~twoplustwo.evaluate_omaha_batch` (and
:func:`~twoplustwo.evaluate_omaha_low_batch` for hi/lo).

In hi/lo the pot splits into a high half and a low half. The best high
hands share the high half, the best qualifying lows the low half; with no
qualifying low, the high hands take the whole pot. A player with the best
high alone beside a tied low gets three quarters, and so on
(:func:`twoplustwo.kernels.pots.hilo_shares`).

>>> from twoplustwo.kernels.games import resolve
>>> hands, holdem = [[51, 46, 43, 1], [50, 47, 12, 8]], resolve("holdem")  # As Kh Qs 2d, Ah Ks 5c 4c
>>> [(g, w, t, round(e, 4)) for g, w, t, e in counts(hands, [2, 5, 9], [], hilo=False, game=holdem)]  # on 2h 3d 4d
[(820, 18, 96, 0.0805), (820, 706, 96, 0.9195)]
>>> [(g, w, t, round(e, 4)) for g, w, t, e in counts(hands, [2, 5, 9], [], hilo=True, game=holdem)]
[(820, 0, 135, 0.0759), (820, 685, 135, 0.9241)]
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from twoplustwo.hands.omaha import evaluate_omaha_batch, evaluate_omaha_low_batch
from twoplustwo.kernels.pots import HILO_UNIT, POT_UNITS, hilo_shares, outcomes
from twoplustwo.odds import exact
from twoplustwo.vocab.draws import draw_index

if TYPE_CHECKING:
    from twoplustwo.kernels.games import Game

__all__ = ["boards", "counts"]


def boards(known: Sequence[int], rest: Sequence[int]) -> npt.NDArray[np.uint8]:
    """Every completion of ``known`` to five cards by cards of ``rest``, one row each, in lexicographic order."""
    missing = 5 - len(known)
    rows = np.empty((comb(len(rest), missing), 5), dtype=np.uint8)
    rows[:, : len(known)] = known
    if missing:
        rows[:, len(known) :] = np.asarray(rest, dtype=np.uint8)[draw_index(len(rest), missing)]
    return rows


def counts(
    holes: list[list[int]],
    known: Sequence[int],
    dead: Sequence[int],
    *,
    hilo: bool,
    game: Game,
    threads: int | None = None,
) -> list[tuple[int, int, int, float]]:
    """Exact ``(games, wins, ties, equity)`` per Omaha hand over every completion of ``known``.

    ``wins`` counts the boards whose whole pot the player takes alone;
    ``ties`` those where they take part of it. The caller has checked the
    cards and that enough are left, and resolved ``game``: hold'em, whose
    tables Omaha plays on.
    """
    t = game.tables
    rest = exact.board_cards(known, [*dead, *(c for h in holes for c in h)])
    rows = boards(known, rest)
    n = len(rows)
    # Each hand beside every board, once for the high and the low.
    tiled = [np.tile(np.array(h, np.uint8), (n, 1)) for h in holes]
    high = np.stack([evaluate_omaha_batch(h, rows, tables=t, threads=threads) for h in tiled])
    if not hilo:
        return [(g, w, ties, u / (POT_UNITS * g)) for g, w, ties, u in exact.score_hands(high, game.walker)]
    low = np.stack([evaluate_omaha_low_batch(h, rows, threads=threads) for h in tiled])
    return [(n, w, ties, u / (HILO_UNIT * n)) for w, ties, u in outcomes(hilo_shares(high, low), HILO_UNIT)]
