"""Omaha on the Hold'em tables: exactly two hole cards and exactly three board cards.

PLO4, PLO5 and PLO6 hands (4, 5 or 6 hole cards) against a board of 5
cards; a flop or turn board (3 or 4 cards) also works, and then the best
hand uses three of the board's cards as they stand. The high value is the
Hold'em value (1..7462, higher is stronger) of the best legal five:

>>> evaluate_omaha("Ah Kh 2c 3d", "Qh Jh Th 9s 2s")  # the hand's two hearts make a royal flush
7462
>>> evaluate_omaha("Ah Kc 2c 3d", "Qh Jh Th 9h 2s")  # one heart in the hand: a straight, no flush
5863

Each board triple is walked down the DAG once and finished by every hole
pair, one lookup per card; :func:`evaluate_omaha_batch` does the same for
``(N, h)`` and ``(N, k)`` arrays in numpy, on the 5-card DAG. No table is
added: the low needs none.

Hi/lo eight or better: the low is five distinct ranks 8 or lower, the ace
low, straights and flushes ignored, again two from the hand and three from
the board. :func:`evaluate_omaha_low` gives it on a dense scale of its
own: the ``C(8, 5) = 56`` possible lows compared highest card first, 1 for
8-7-6-5-4 up to 56 for 5-4-3-2-A, and 0 when no low qualifies.

>>> v = evaluate_omaha_low("As 2d Kc Kd", "3h 6c 8d Qs Js")
>>> v, describe_low(v)
(30, '8-6-3-2-A')
>>> describe_low(evaluate_omaha_low("As 2d Kc Kd", "3h 9c Td Qs Js"))  # one low board card
'no qualifying low'
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from twoplustwo.hands.rows import deal_error, read_deals
from twoplustwo.kernels import pool
from twoplustwo.kernels.choice import chosen
from twoplustwo.kernels.games import walker_of
from twoplustwo.tables.default import get_tables
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.cards import Cards, parse_deal
from twoplustwo.vocab.inputs import is_int
from twoplustwo.vocab.lows import LOW_BITS, LOW_MASKS, LOW_VALUES, N_LOWS

__all__ = [
    "HOLE_SIZES",
    "N_LOWS",
    "OMAHA_BOARD_SIZES",
    "describe_low",
    "evaluate_omaha",
    "evaluate_omaha_batch",
    "evaluate_omaha_low",
    "evaluate_omaha_low_batch",
]

#: How many hole cards an Omaha hand may hold: PLO4, PLO5, PLO6.
HOLE_SIZES = (4, 5, 6)
#: How many cards an Omaha board may hold: flop, turn, river.
OMAHA_BOARD_SIZES = (3, 4, 5)
# Batches smaller than this run in the calling thread.
_PARALLEL_MIN = 1 << 16


def _parse_deal(hole: Cards, board: Cards) -> tuple[list[int], list[int]]:
    """Hole cards and board as card lists, checked: sizes, cards, nothing twice."""
    return parse_deal(hole, board, HOLE_SIZES, OMAHA_BOARD_SIZES, "an Omaha hand has 4, 5 or 6 hole cards",
                      "an Omaha board has 3, 4 or 5 cards")  # fmt: skip


def evaluate_omaha(hole: Cards, board: Cards, *, tables: Tables | None = None) -> int:
    """Hold'em value (1..7462) of the best hand of two ``hole`` cards and three ``board`` cards.

    ``hole`` is 4, 5 or 6 cards and ``board`` 5 (or 3 or 4: then the
    board's cards are all the board there is, and the best of its
    3-subsets counts). Cards are ints, card strings or one string, as
    :func:`~twoplustwo.parse_cards` takes them. Raises ``ValueError`` for a
    wrong number of cards, a bad card, or a card twice.

    >>> evaluate_omaha("As Ad Ah 2c", "Kd Qh 7s 5c 3d")  # three aces held, two play: a pair
    4133
    >>> evaluate_omaha("As Ad Kh 2c", "As Kd Qh")
    Traceback (most recent call last):
    ...
    ValueError: As is in both the hole cards and the board
    """
    walker = walker_of(get_tables(tables))
    # Plain distinct ints (or, in C, card text) are evaluated at once;
    # anything else is parsed (which names the problem) first.
    value = walker.omaha(hole, board)
    if value is None:
        value = walker.omaha(*_parse_deal(hole, board))
    assert value is not None  # checked cards of the right counts always have one
    return value


def evaluate_omaha_low(hole: Cards, board: Cards) -> int:
    """Eight-or-better low value of the best legal low: 1..56, higher is better, 0 for none.

    Two ``hole`` cards and three ``board`` cards, five distinct ranks from
    ace (low) to eight; straights and flushes do not count. Takes and
    checks cards as :func:`evaluate_omaha` does. :func:`describe_low` turns
    the value into ranks.

    >>> evaluate_omaha_low("Ah 2h Kc Kd", "3s 4s 5d Ts Js")  # 5-4-3-2-A, the wheel
    56
    >>> evaluate_omaha_low("Ah 2h 3c Kd", "4s 5s 6d Ts Js")  # 6-5-4-2-A: only two of A-2-3 play
    53
    >>> evaluate_omaha_low("Ah 2h Qc Kd", "As 2s 3d 9s Ts")  # the board's ace and deuce pair the hand's
    0
    """
    h, b = _parse_deal(hole, board)
    bits = LOW_BITS
    pairs = {bits[x] | bits[y] for x, y in combinations(h, 2)}
    triples = {bits[x] | bits[y] | bits[z] for x, y, z in combinations(b, 3)}
    return max(LOW_VALUES[p | t] for p in pairs for t in triples)


def describe_low(value: int | np.integer[Any]) -> str:
    """A low value's five ranks, highest first, the ace as ``A``; ``'no qualifying low'`` for 0.

    Raises ``ValueError`` for anything but an int in 0..56.

    >>> describe_low(56), describe_low(1), describe_low(0)
    ('5-4-3-2-A', '8-7-6-5-4', 'no qualifying low')
    >>> describe_low(57)
    Traceback (most recent call last):
    ...
    ValueError: low value must be an int in 0..56, got 57
    """
    # bool passes isinstance(int) but is always a caller's mistake.
    if not (is_int(value) and 0 <= value <= N_LOWS):
        shown = value.item() if isinstance(value, np.generic) else value
        raise ValueError(f"low value must be an int in 0..{N_LOWS}, got {shown!r}")
    if value == 0:
        return "no qualifying low"
    mask = LOW_MASKS[N_LOWS - int(value)]
    return "-".join("A" if bit == 0 else str(bit + 1) for bit in range(7, -1, -1) if mask >> bit & 1)


# ------------------------------------------------------------------ batches


def evaluate_omaha_batch(
    holes: npt.ArrayLike, boards: npt.ArrayLike, *, tables: Tables | None = None, threads: int | None = None
) -> npt.NDArray[np.uint16]:
    """:func:`evaluate_omaha` of each row of ``(N, h)`` holes (h = 4, 5, 6) and ``(N, k)`` boards (k = 3, 4, 5).

    Values come back as uint16. ``boards`` may also be one ``(k,)`` board
    that every row shares. Each row is checked (cards in 0..51, none
    twice); the first bad one raises ``ValueError`` naming it by its
    0-based index. Large batches are split over ``threads`` threads
    (default: one per CPU) and worked through in steps of 4,096 rows.

    >>> from twoplustwo import parse_cards
    >>> board = parse_cards("Qh Jh Th 9h 2s")
    >>> evaluate_omaha_batch([parse_cards("Ah Kh 2c 3d"), parse_cards("Ah Kc 2c 3d")], board).tolist()
    [7462, 5863]
    >>> evaluate_omaha_batch([[51, 50, 0, 5], [12, 13, 14, 47]], [47, 43, 39, 35, 1])
    Traceback (most recent call last):
    ...
    ValueError: row 1: Ks is in both the hole cards and the board
    """
    high: npt.NDArray[np.uint16] = _run(holes, boards, threads, walker_of(get_tables(tables)).omaha_rows, np.uint16)
    return high


def _run(
    holes: npt.ArrayLike,
    boards: npt.ArrayLike,
    threads: int | None,
    rows: Callable[[Any, Any, Any], int],
    dtype: type[np.unsignedinteger[Any]],
) -> npt.NDArray[Any]:
    """Check the deals, then fill one value a row with the kernel ``rows`` (the walker's) on threads."""
    workers = pool.resolve_threads(threads)
    sizes_said = ("= 4, 5 or 6", "= 3, 4 or 5")
    h8, b8, shared = read_deals(holes, boards, HOLE_SIZES, OMAHA_BOARD_SIZES, sizes_said, _parse_deal)
    out = np.empty(len(h8), dtype=dtype)

    def part(lo: int, hi: int) -> int:
        bad = rows(h8[lo:hi], b8 if shared else b8[lo:hi], out[lo:hi])
        return bad if bad < 0 else lo + bad

    bad = pool.first_bad(workers if len(h8) >= _PARALLEL_MIN else 1, len(h8), part)
    if bad >= 0:
        raise deal_error(h8, b8, bad, _parse_deal)
    return out


def evaluate_omaha_low_batch(
    holes: npt.ArrayLike, boards: npt.ArrayLike, *, threads: int | None = None
) -> npt.NDArray[np.uint8]:
    """:func:`evaluate_omaha_low` of each row, as uint8 (0 = no low).

    Rows, checks and ``threads`` as :func:`evaluate_omaha_batch` takes them.

    >>> from twoplustwo import parse_cards
    >>> holes = [parse_cards("As 2d Kc Kd"), parse_cards("Ah 4h 7c 7d")]
    >>> [describe_low(v) for v in evaluate_omaha_low_batch(holes, parse_cards("3h 5c 8d Qs Js"))]
    ['8-5-3-2-A', '8-5-4-3-A']
    """
    low: npt.NDArray[np.uint8] = _run(holes, boards, threads, chosen().omaha_low_rows, np.uint8)
    return low
