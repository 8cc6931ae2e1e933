"""Every two-card hand on one board at once: :func:`rank_hands`.

Range-vs-range equity, solvers and hand-strength tables all ask the same
question of a board: what is each of the 1,326 hole pairs worth on it?
The board is walked once, each first hole card costs one lookup and each
pair one more.

>>> from twoplustwo import combo_index
>>> values = rank_hands("Ah Kh Qh 7c 2d")
>>> int(values[combo_index("Jh", "Th")])  # a royal flush
7462
>>> int(values[combo_index("Ah", "2c")])  # shares the ace of hearts with the board
0
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from twoplustwo.kernels.games import resolve
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.cards import Cards, format_cards, parse_cards
from twoplustwo.vocab.combos import N_COMBOS
from twoplustwo.vocab.rules import HOLDEM, check_game

__all__ = ["rank_hands"]


def rank_hands(board: Cards, *, game: str = HOLDEM, tables: Tables | None = None) -> npt.NDArray[np.uint16]:
    """The value of each two-card combo of :data:`~twoplustwo.COMBOS` with ``board`` (3, 4 or 5 cards).

    Returns a ``(1326,)`` uint16 array in the order of ``COMBOS`` (``c1 <
    c2``, ``c1`` ascending, then ``c2``): a 5-, 6- or 7-card value on the
    game's scale (1..7462 in hold'em), or 0 where the combo shares a card
    with the board or holds a card outside the game's deck. Raises
    ``ValueError`` for a board of another size or a bad or repeated card.

    >>> from twoplustwo import combo_index
    >>> flop = rank_hands("2c 3c 4c")
    >>> int(flop[combo_index("5c", "6c")]), int((flop == 0).sum())  # six-high straight flush; 150 combos touch the flop
    (7454, 150)
    >>> turn = rank_hands("6c 7c 8c 9c", game="short-deck")
    >>> int(turn[combo_index("Ac", "2d")]), int(turn[combo_index("Ac", "Kd")]), int((turn > 0).sum())  # C(32, 2) live
    (0, 1399, 496)
    """
    check_game(game)
    cards = parse_cards(board)
    if len(cards) not in (3, 4, 5):
        raise ValueError(f"a board holds 3, 4 or 5 cards, got {len(cards)} ({format_cards(cards) or 'none'})")
    g = resolve(game, tables)
    g.check_cards(cards)
    # The board walked once, down the DAG of hands of two more cards.
    layers = g.layer_views(len(cards) + 2)
    node = 0
    for depth, card in enumerate(cards):
        node = layers[depth][node * 52 + card]
    out = np.zeros(N_COMBOS, dtype=np.uint16)
    held = sum(1 << c for c in cards)
    g.walker.rank_combos(node, len(cards), held, out)
    return out
