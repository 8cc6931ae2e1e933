"""Evaluate hands by walking the DAG: one lookup per card.

``evaluate`` takes one hand of 5, 6 or 7 cards; ``evaluate_batch`` an
``(N, k)`` array. Both check their input (range, duplicates, count, the
game's deck) and return values on the game's scale: 1..7462 in hold'em,
1..1404 in short deck.

>>> evaluate("As Ks Qs Js Ts 2c 3d")
7462
>>> evaluate([0, 4, 8, 12, 17])  # 2c 3c 4c 5c 6d: six-high straight
5855
>>> evaluate_batch(np.array([[51, 47, 43, 39, 35, 0, 5]])).tolist()
[7462]
>>> evaluate_batch([[51, 47, 43, 39, 35, 16, 21]], game="short-deck").tolist()
[1404]
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from twoplustwo.hands.rows import as_hands, bad_hand
from twoplustwo.hands.single import evaluate, value_on
from twoplustwo.kernels import pool
from twoplustwo.kernels.columns import walk_columns
from twoplustwo.kernels.games import Game, resolve
from twoplustwo.tables.format import TableError
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.cards import CardLike, format_cards, parse_cards
from twoplustwo.vocab.rules import HOLDEM, rules_of

if TYPE_CHECKING:
    from twoplustwo.kernels.interface import Walker

__all__ = ["best_five", "evaluate", "evaluate_batch", "walk", "walk_batch"]


def _card_bytes(h: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.uint8] | None:
    """``h`` as C-contiguous uint8 rows for the C walker, or None if a card is outside 0..51."""
    if h.dtype == np.uint8:
        return np.ascontiguousarray(h)  # the walker checks a private copy of each block itself
    # Read once into a copy that is then checked: checking the caller's
    # array and then casting it would wrap a 300 written in between to 44.
    # Clipping keeps every card outside 0..51 outside (52, or 255 for -1).
    rows = np.empty(h.shape, dtype=np.uint8)
    np.clip(h, -1 if h.dtype.kind == "i" else 0, 52, out=rows, casting="unsafe")
    return None if rows.size and rows.max() > 51 else rows


def walk(
    layers: list[npt.NDArray[np.unsignedinteger]], h: npt.NDArray[np.integer]
) -> npt.NDArray[np.unsignedinteger]:
    """Walk each row of ``h`` down ``layers``: the last layer's entries (no checks).

    >>> from twoplustwo.tables.default import get_tables
    >>> walk(get_tables().layers("dag5"), np.array([[51, 47, 43, 39, 35]])).tolist()
    [7462]
    """
    return walk_columns(layers, h.T)


# Rows per step of a batch. The temporaries of one step (uint8 card
# columns, duplicate flags, intp node indices: about 40 bytes a row) stay
# near 20 MB per thread, so a batch's peak memory is its input and output
# plus a few steps, however many rows it has.
_CHUNK = 1 << 19
# Batches smaller than this run in the calling thread.
_PARALLEL_MIN = 1 << 18


def evaluate_batch(
    hands: npt.ArrayLike,
    *,
    check: bool = True,
    game: str = HOLDEM,
    tables: Tables | None = None,
    threads: int | None = None,
) -> npt.NDArray[np.uint16]:
    """Values of an ``(N, k)`` integer array of hands, k in 5..7 (or the game's sizes: 5 in the draw lowballs,
    4 in badugi), as uint16.

    Five- and six-card hold'em hands walk their own small DAGs, which stay
    in cache. ``check=False`` skips the range, duplicate and deck checks:
    faster, but a bad hand then gives an arbitrary value (or an
    ``IndexError`` for a card far out of range). Large batches are split
    over ``threads`` threads (default: one per CPU), since ``take``
    releases the GIL, and worked through in steps of bounded size.

    ``game`` is as for :func:`~twoplustwo.evaluate`; with ``check``, a
    card outside the game's deck is a ``ValueError`` naming its row.

    >>> evaluate_batch([[48, 49, 50, 51, 44], [0, 4, 8, 12, 49]]).tolist()
    [7452, 5854]
    >>> straights = [[48, 17, 22, 27, 28], [17, 22, 27, 28, 33]]  # A-6-7-8-9 and 6-7-8-9-T
    >>> evaluate_batch(straights, game="short-deck-classic").tolist()
    [1129, 1130]
    >>> evaluate_batch([[48, 17, 22, 27, 28], [17, 22, 27, 28, 12]], game="short-deck")
    Traceback (most recent call last):
    ...
    ValueError: hand 1, card 4: 12 (5c) is not in the short-deck deck, the 36 cards from six to ace
    """
    workers = pool.resolve_threads(threads)
    sizes = rules_of(game).sizes
    h = as_hands(hands, range(min(sizes), max(sizes) + 1))
    g = resolve(game, tables)
    return walk_batch(h, g.layers(h.shape[1]), g.walker, check=check, workers=workers, game=g)


def walk_batch(
    h: npt.NDArray[np.integer[Any]],
    layers: list[npt.NDArray[np.unsignedinteger[Any]]],
    walker: Walker,
    *,
    depth: int = 0,
    start: int = 0,
    held: Sequence[int] = (),
    check: bool = True,
    workers: int = 1,
    game: Game | None = None,
) -> npt.NDArray[np.uint16]:
    """The rows of ``h`` walked by ``walker`` from node ``start``, in bounded steps on ``workers`` threads.

    ``layers`` are a DAG's layers from ``depth`` on, and ``start`` a node at
    that depth, reached by the cards ``held``; ``walker`` walks the same
    DAG (of ``game``, over the same table set). With ``check``, a row with
    a card outside 0..51 or outside ``game``'s deck, a card twice or a card
    of ``held`` raises ``ValueError`` naming the first such row.
    """
    out = np.empty(len(h), dtype=np.uint16)
    held_mask = sum(1 << c for c in held)

    def part(lo: int, hi: int) -> int:
        """Fill rows lo..hi of ``out``; the start of the first step with a bad row, or -1."""
        for a in range(lo, hi, _CHUNK):
            b = min(a + _CHUNK, hi)
            rows = _card_bytes(h[a:b])
            if rows is not None and walker.walk_rows(rows, out[a:b], check, depth, start, held_mask) < 0:
                continue
            if check:
                return a
            # Unchecked rows with cards out of range: whatever numpy's
            # indexing gives them (some value, or an IndexError), on either
            # backend, and never a read past the tables.
            out[a:b] = walk_columns(layers, np.ascontiguousarray(h[a:b].T), start)
        return -1

    a = pool.first_bad(workers if len(h) >= _PARALLEL_MIN else 1, len(h), part)
    if a >= 0:
        raise bad_hand(h[a : a + _CHUNK], a, held, game)
    return out


def best_five(
    cards: str | Sequence[CardLike] | npt.NDArray[np.integer[Any]],
    *,
    game: str = HOLDEM,
    tables: Tables | None = None,
) -> list[int]:
    """The five cards of a 5-7 card hand that make its value: the first such five in
    :func:`itertools.combinations` order of the cards as given.

    >>> format_cards(best_five("2c As Ks Qs Js Ts 3d"))
    'As Ks Qs Js Ts'
    >>> format_cards(best_five("Ah Ad Kc Kd 2s 2h 7c"))  # two pair: the higher pairs, best kicker
    'Ah Ad Kc Kd 7c'
    >>> format_cards(best_five("Ac 6d 7h 8s 9c 9d 9h", game="short-deck-classic"))  # a straight beats trips
    'Ac 6d 7h 8s 9c'
    >>> format_cards(best_five("As 2d 3c 4h 5s Kd Kh", game="razz"))
    'As 2d 3c 4h 5s'

    In badugi, the cards the hand plays: ``best_five("Kc 4c 2d 3h", game="badugi")`` is 2d 3h 4c.
    """
    g = resolve(game, tables)
    hand = parse_cards(cards)
    value = value_on(g, hand)  # the hand checked as evaluate checks it
    played = g.rules.played(hand)
    if played is not None:  # a game whose hands play fewer than five (badugi): the cards it plays
        return played
    # Its fives are distinct cards of the deck: walked without checking or resolving again.
    for five in combinations(hand, 5):
        if g.walker.evaluate(list(five)) == value:
            return list(five)
    # Unreachable for correct tables: a hand's value is that of its best five.
    raise TableError(f"no five of {format_cards(hand)} reach the hand's value {value}")
