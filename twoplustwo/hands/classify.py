"""What a hold'em hand holds on a board: its made-hand class and its draws, one hand or arrays of them.

The classes and flags are those :mod:`twoplustwo.vocab.board_classes`
defines, by the names it gives (:data:`~twoplustwo.MADE_HANDS`,
:data:`~twoplustwo.DRAWS`):

>>> c = classify("Ah Kh", "Qh 7h 2c")
>>> c.made, sorted(c.draws)
('ace high', ['flush draw', 'nut flush draw', 'overcards'])
>>> classify("9s 8s", "Ts 7c 2s").draws == {"flush draw", "open-ended straight draw", "combo draw"}
True
>>> classify("Qs Qd", "Qh 7c 2d 7s 3h")
BoardClass(made='full house', draws=frozenset())

:func:`classify_batch` classifies ``(N, 2)`` holes on ``(N, k)`` boards (or
one board for all) in the backend's kernel, C or numpy, giving uint8 codes
(indices into :data:`~twoplustwo.MADE_HANDS`) and uint8 draw bits (bit
``i`` for ``DRAWS[i]``). The classes are a function of the cards alone:
no tables are read.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from twoplustwo.hands.rows import deal_error, read_deals
from twoplustwo.kernels import pool
from twoplustwo.kernels.choice import chosen
from twoplustwo.vocab.board_classes import MADE_HANDS, draw_names
from twoplustwo.vocab.cards import Cards, parse_deal
from twoplustwo.vocab.combos import COMBOS

__all__ = ["BOARD_SIZES", "NO_CLASS", "BoardClass", "classify", "classify_batch", "classify_combos"]

#: How many cards a board may hold: flop, turn, river.
BOARD_SIZES = (3, 4, 5)
# Batches smaller than this run in the calling thread.
_PARALLEL_MIN = 1 << 16


class BoardClass(NamedTuple):
    """A hand's class on a board: ``made``, one of :data:`~twoplustwo.MADE_HANDS`, and its ``draws``."""

    made: str
    draws: frozenset[str]


def _parse_deal(hole: Cards, board: Cards) -> tuple[list[int], list[int]]:
    """Hole cards and board as card lists, checked: two hole cards, 3 to 5 board cards, nothing twice."""
    return parse_deal(hole, board, (2,), BOARD_SIZES, "a hold'em hand has 2 hole cards", "a board has 3, 4 or 5 cards")


def classify(hole: Cards, board: Cards) -> BoardClass:
    """The made-hand class and draw flags of two ``hole`` cards on a ``board`` of 3, 4 or 5 cards.

    Cards are ints, card strings or one string, as
    :func:`~twoplustwo.parse_cards` takes them. Raises ``ValueError`` for a
    wrong number of cards, a bad card, or a card twice.

    >>> classify("7d 7c", "7s Kd 2h").made, classify("Kc 7c", "7s Kd 2h").made
    ('set', 'two pair')
    >>> classify("As 5d", "4c 3h 2s Kd Kh")  # the river: no draws
    BoardClass(made='straight', draws=frozenset())
    >>> classify("As Kd", "Ks Qh")
    Traceback (most recent call last):
    ...
    ValueError: a board has 3, 4 or 5 cards, got 2
    """
    h, b = _parse_deal(hole, board)
    made, draws = np.zeros(1, np.uint8), np.zeros(1, np.uint8)
    bad = chosen().classify_rows(np.array([h], np.uint8), np.array([b], np.uint8), made, draws)
    assert bad < 0, "checked cards were refused"
    return BoardClass(MADE_HANDS[int(made[0])], draw_names(int(draws[0])))


def classify_batch(
    holes: npt.ArrayLike, boards: npt.ArrayLike, *, threads: int | None = None
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """:func:`classify` of each row of ``(N, 2)`` holes on ``(N, k)`` boards (k = 3, 4, 5), as codes and bits.

    Returns ``(made, draws)``, two uint8 arrays of N: ``MADE_HANDS[made[i]]``
    is row i's class, and bit j of ``draws[i]`` says it has ``DRAWS[j]``.
    ``boards`` may also be one ``(k,)`` board that every row shares. Each
    row is checked (cards in 0..51, none twice); the first bad one raises
    ``ValueError`` naming it by its 0-based index. Large batches are split
    over ``threads`` threads (default: one per CPU).

    >>> from twoplustwo import MADE_HANDS, DRAWS, parse_cards
    >>> made, draws = classify_batch([parse_cards("Ah Kh"), parse_cards("Qd Qc")], parse_cards("Qh 7h 2c"))
    >>> [MADE_HANDS[m] for m in made], [[DRAWS[j] for j in range(len(DRAWS)) if d >> j & 1] for d in draws]
    (['ace high', 'set'], [['flush draw', 'nut flush draw', 'overcards'], []])
    >>> classify_batch([[51, 50], [47, 43]], [[0, 4, 8], [1, 5, 43]])
    Traceback (most recent call last):
    ...
    ValueError: row 1: Qs is in both the hole cards and the board
    """
    workers = pool.resolve_threads(threads)
    h8, b8, shared = read_deals(holes, boards, (2,), BOARD_SIZES, ("= 2", "= 3, 4 or 5"), _parse_deal)
    made, draws = np.empty(len(h8), dtype=np.uint8), np.empty(len(h8), dtype=np.uint8)
    rows = chosen().classify_rows

    def part(lo: int, hi: int) -> int:
        bad = rows(h8[lo:hi], b8 if shared else b8[lo:hi], made[lo:hi], draws[lo:hi])
        return bad if bad < 0 else lo + bad

    bad = pool.first_bad(workers if len(h8) >= _PARALLEL_MIN else 1, len(h8), part)
    if bad >= 0:
        raise deal_error(h8, b8, bad, _parse_deal)
    return made, draws


#: The code :func:`classify_combos` gives a combo that touches its board: no class.
NO_CLASS = 255


def classify_combos(boards: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """The class codes and draw bits of every combo of :data:`~twoplustwo.COMBOS` on each of ``(n, k)`` boards.

    The boards' cards are distinct and in 0..51 (the caller checked them).
    Returns ``(made, draws)``, each ``(n, 1326)`` uint8; a combo that
    touches its board has ``made`` :data:`NO_CLASS` and ``draws`` 0. What
    the board reports classify: all combos of many boards in one kernel call.

    >>> from twoplustwo import combo_index, parse_cards
    >>> made, draws = classify_combos(np.array([parse_cards("Qh 7c 2d")], np.uint8))
    >>> MADE_HANDS[made[0, combo_index("Qs", "Qd")]], int(made[0, combo_index("Qh", "Qd")]) == NO_CLASS
    ('set', True)
    """
    boards = np.ascontiguousarray(boards, dtype=np.uint8)
    card = np.zeros((len(boards), 52), dtype=bool)
    card[np.arange(len(boards))[:, None], boards] = True
    live = ~(card[:, COMBOS[:, 0]] | card[:, COMBOS[:, 1]])
    at, combo = np.nonzero(live)
    made = np.full((len(boards), len(COMBOS)), NO_CLASS, dtype=np.uint8)
    draws = np.zeros((len(boards), len(COMBOS)), dtype=np.uint8)
    m, d = np.empty(len(at), np.uint8), np.empty(len(at), np.uint8)
    bad = chosen().classify_rows(np.ascontiguousarray(COMBOS[combo]), np.ascontiguousarray(boards[at]), m, d)
    assert bad < 0, "checked boards were refused"
    made[at, combo], draws[at, combo] = m, d
    return made, draws
