"""What exact enumeration costs, estimated before it runs: how ``method="auto"`` chooses to enumerate or sample.

:func:`work` prices :func:`~twoplustwo.odds.exact.deals` on the route it
takes for the game and backend: listing every board
(:func:`~twoplustwo.odds.exact.list_deals`), or counting rank multisets
for one deal of each suit class
(:func:`~twoplustwo.odds.counting.count_showdowns`), in the board-combo
steps of listing. :data:`twoplustwo.odds.equity.AUTO_EXACT_WORK` bounds
what ``method="auto"`` enumerates.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb, prod
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from twoplustwo.odds.counting import deal_cost, estimate_classes
from twoplustwo.odds.exact import board_cards
from twoplustwo.vocab.combos import combo_indices

if TYPE_CHECKING:
    from twoplustwo.kernels.games import Game

__all__ = ["COUNTED_STEP", "work"]

#: What counting costs (:func:`~twoplustwo.odds.counting.count_showdowns`) for one player on one rank multiset of
#: the missing cards, in the board-combo steps of listing that :func:`work` estimates in: about 35 ns against a
#: third of a nanosecond (heads-up and 3-way preflop ranges, one thread).
COUNTED_STEP = 100


def work(
    players: Sequence[npt.NDArray[np.integer[Any]]],
    known: Sequence[int],
    dead: Sequence[int],
    found: npt.NDArray[np.intp] | None = None,
    *,
    game: Game,
) -> float:
    """A cost estimate of :func:`~twoplustwo.odds.exact.deals` of ``game``, on its route, in board-combo steps.

    Listing (:func:`~twoplustwo.odds.exact.list_deals`) walks the boards of ``game``'s deck times (distinct
    combos + deals x players) board-combo steps, about a third of a nanosecond each. Counting (hold'em on the C
    backend, :func:`count_showdowns`) scores one deal of each suit class
    (:func:`~twoplustwo.vocab.suits.suit_classes`), each player on each rank multiset of the missing cards
    (:func:`deal_cost`), at about :data:`COUNTED_STEP` board-combo steps each; the classes are estimated from a
    sample of the deals (:func:`estimate_classes`). ``found`` is what :func:`~twoplustwo.odds.exact.find_deals`
    gave: the deals, or None for more than the product of the ranges' sizes.

    >>> from twoplustwo.odds.exact import find_deals
    >>> from twoplustwo.kernels.games import resolve
    >>> from twoplustwo.vocab.ranges import parse_range
    >>> aa, anything, holdem = parse_range("AA").combos, parse_range("random").combos, resolve("holdem")
    >>> counts = holdem.walker.keyed_tables()  # the walker counts showdowns where it has keyed tables
    >>> counted = 469 * comb(17, 5) * 2 * COUNTED_STEP  # 469 classes of the 7,350 deals, 6,188 multisets, 2 players
    >>> listed = comb(52, 5) * (1326 + 7350 * 2)  # boards x (distinct combos + deals x players)
    >>> round(work([anything, aa], [], [], find_deals([anything, aa]), game=holdem)) == (counted if counts else listed)
    True
    """
    n_deals = prod(len(p) for p in players) if found is None else len(found)
    walker = game.walker
    missing = 5 - len(known)
    if 2 <= len(players) <= 9 and walker.keyed_tables():  # the walker counts (count_showdowns)
        classes = n_deals if found is None else estimate_classes(players, found, known, dead)
        return classes * deal_cost(missing, len(players)) * len(players) * COUNTED_STEP
    boards = comb(len(board_cards(known, dead, game.deck)), missing)
    distinct = len(np.unique(np.concatenate([combo_indices(p[:, 0], p[:, 1]) for p in players])))
    return float(boards) * (distinct + n_deals * len(players))
