"""Rows of cards as the batch functions take them: read once, their shape checked, the first bad row named.

Every batch of cards (:func:`~twoplustwo.evaluate_batch`, the prefixes,
the Omaha batches, :func:`~twoplustwo.strength_batch`) is read and checked
here, so that the same mistake gets the same answer everywhere:

* :func:`read_rows` reads an array once into integers and checks its shape
  (an empty batch is no rows, whatever its shape);
* :func:`first_bad_row` finds the first row holding a card outside 0..51 or
  a card twice, and :func:`twice` says which rows hold a card twice;
* :func:`bad_hand` says what is wrong with the first bad hand of a batch
  walked down a DAG: a card out of range, outside the game's deck, twice,
  or one the prefix holds;
* :func:`read_deals` reads the hole cards and boards of a batch of deals
  (the Omaha batches, the board classes), and :func:`deal_error` names the
  first bad one as the single-deal call would.

>>> rows = read_rows([[51, 50, 49], [0, 1, 1]], "hands", (3,), "= 3")
>>> first_bad_row(rows), twice(rows).tolist()
(1, [False, True])
>>> read_rows([[51, 50]], "hands", (3,), "= 3")
Traceback (most recent call last):
...
ValueError: hands must be an (N, k) array with k = 3, got shape (1, 2)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from twoplustwo.vocab.cards import format_card, format_cards, parse_cards
from twoplustwo.vocab.inputs import int_array

if TYPE_CHECKING:
    from twoplustwo.kernels.games import Game

__all__ = ["as_hands", "bad_hand", "deal_error", "first_bad_row", "read_deals", "read_rows", "twice"]

#: A single deal's reader and checks: ``(hole, board) -> (hole cards, board cards)``, or the ``ValueError`` saying why.
DealParser = Callable[[Any, Any], tuple[list[int], list[int]]]


def read_rows(
    cards: npt.ArrayLike,
    what: str,
    widths: Sequence[int],
    k: str,
    *,
    copy: bool = True,
    one_row: bool = False,
) -> npt.NDArray[np.integer[Any]]:
    """``cards`` as an integer array of rows of one of ``widths`` cards, or the error (naming ``what``) saying why not.

    ``k`` says the widths in the error (``"in 5..7"``, ``"= 4, 5 or 6"``).
    An empty 1-D array is no rows of the first width; with ``one_row`` a
    1-D array of a width is one row, left 1-D. By default a private copy:
    every check, the walk and the error then read the same cards, even
    while another thread writes to the caller's array. ``copy=False``
    returns the caller's own array where it is one, for a caller that reads
    it once into a buffer of its own and checks that.
    """
    a = int_array(cards, what, copy=copy)
    if a.ndim == 1 and a.size == 0:
        a = a.reshape(0, widths[0])
    if a.ndim not in ((1, 2) if one_row else (2,)) or a.shape[-1] not in widths:
        raise ValueError(f"{what} must be an (N, k) array with k {k}, got shape {a.shape}")
    return a


def as_hands(hands: npt.ArrayLike, widths: range) -> npt.NDArray[np.integer[Any]]:
    """``hands`` as a 2-D integer array of ``widths`` columns (the caller's own where it is one), or the error.

    :func:`~twoplustwo.hands.batch.walk_batch` reads each step once into a
    buffer of its own and checks that, so a large batch is not copied.

    >>> as_hands([], range(5, 8)).shape
    (0, 5)
    """
    k = f"in {widths.start}..{widths.stop - 1}" if len(widths) > 1 else f"= {widths.start}"
    return read_rows(hands, "hands", widths, k, copy=False)


def _twice(cards: npt.NDArray[np.integer[Any]], out: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Which rows hold a card twice, among their cards in 0..51 (``out`` marks the others)."""
    bits = np.left_shift(np.uint64(1), np.where(out, 0, cards).astype(np.uint64))
    bits[out] = 0
    # Distinct cards are distinct bits, whose sum is their OR.
    found: npt.NDArray[np.bool_] = np.bitwise_or.reduce(bits, axis=1) != bits.sum(axis=1, dtype=np.uint64)
    return found


def twice(cards: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.bool_]:
    """Which rows of ``cards`` (every card in 0..51) hold a card twice."""
    return _twice(cards, np.zeros(cards.shape, dtype=bool))


def first_bad_row(cards: npt.NDArray[np.integer[Any]]) -> int:
    """The first row of ``cards`` with a card outside 0..51 or a card twice, or -1."""
    out = (cards < 0) | (cards > 51)
    bad = out.any(axis=1) | _twice(cards, out)
    return int(np.argmax(bad)) if bad.any() else -1


def bad_hand(
    h: npt.NDArray[np.integer[Any]], base: int = 0, held: Sequence[int] = (), game: Game | None = None
) -> ValueError:
    """The error for the first row out of range, outside ``game``'s deck, with a duplicate or with a ``held`` card.

    Rows count from ``base``.

    >>> str(bad_hand(np.array([[51, 50, 49, 48, 47], [0, 4, 8, 12, 12]]), base=10))
    'hand 11: duplicate card in [0, 4, 8, 12, 12]'
    """
    # A copy: the caller's array may be changing under another thread, and
    # each pass below (np.isin's own passes too) must see the same cards.
    h = np.array(h)
    out = (h < 0) | (h > 51)
    outside = (h < game.deck.start) & ~out if game is not None else np.zeros(h.shape, dtype=bool)
    dup = _twice(h, out)
    clash: npt.NDArray[np.bool_] = np.zeros(len(h), dtype=bool)
    if len(held):
        clash = np.asarray(np.isin(h, np.array(held, dtype=np.int64)).any(axis=1))
    bad = out.any(axis=1) | outside.any(axis=1) | dup | clash
    if not bad.any():
        # A check that read these rows earlier found a bad card: another
        # thread wrote to the array during the call and has put it back.
        last = base + len(h) - 1
        return ValueError(f"hands {base}..{last}: a bad card was found, but the rows changed during the call")
    row = int(np.argmax(bad))
    if out[row].any():
        col = int(np.argmax(out[row]))
        return ValueError(f"hand {base + row}, card {col}: {h[row, col]} is out of range 0..51")
    if outside[row].any():
        assert game is not None
        col = int(np.argmax(outside[row]))
        c = int(h[row, col])
        return ValueError(f"hand {base + row}, card {col}: {c} ({format_card(c)}) is {game.not_in_deck()}")
    if clash[row]:
        return ValueError(f"hand {base + row}: {h[row].tolist()} shares a card with the prefix {format_cards(held)}")
    return ValueError(f"hand {base + row}: duplicate card in {h[row].tolist()}")


def read_deals(
    holes: npt.ArrayLike,
    boards: npt.ArrayLike,
    hole_sizes: Sequence[int],
    board_sizes: Sequence[int],
    sizes_said: tuple[str, str],
    parse_deal: DealParser,
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8], bool]:
    """A batch of deals: ``(N, h)`` holes and ``(N, k)`` boards, or one ``(k,)`` board that every row shares.

    Returns both as contiguous uint8 rows (one board row where it is
    shared) and whether the board is shared. Checked here: the shapes
    (``sizes_said`` says the widths of each, as :func:`read_rows` takes
    them), a shared board's cards, and every card in 0..51 (the first row
    out of range is named by :func:`deal_error`). A card twice in a row is
    the kernel's to find; :func:`deal_error` names that row too.

    >>> read_deals([[51, 50]], [0, 1, 2], (2,), (3,), ("= 2", "= 3"), lambda h, b: (h, b))[2]
    False
    """
    h = read_rows(holes, "holes", hole_sizes, sizes_said[0], one_row=True)
    if h.ndim != 2:
        raise ValueError(f"holes must be an (N, k) array with k {sizes_said[0]}, got shape {h.shape}")
    b = read_rows(boards, "boards", board_sizes, sizes_said[1], one_row=True)
    if b.ndim == 1:
        b = b[None, :]
    elif len(b) != len(h):
        raise ValueError(f"{len(h)} rows of holes but {len(b)} boards (pass one (k,) board to share it)")
    shared = len(b) == 1 and len(h) != 1
    if shared:
        try:
            parse_cards(b[0])
        except ValueError as e:
            raise ValueError(f"the board: {e}") from None
    for a in (h, b):
        if a.size and (a.min() < 0 or a.max() > 51):
            raise deal_error(h, b, first_bad_row(np.hstack([h, np.broadcast_to(b, (len(h), b.shape[1]))])), parse_deal)
    return np.ascontiguousarray(h, dtype=np.uint8), np.ascontiguousarray(b, dtype=np.uint8), shared


def deal_error(
    holes: npt.NDArray[np.integer[Any]], boards: npt.NDArray[np.integer[Any]], row: int, parse_deal: DealParser
) -> ValueError:
    """The error of the bad deal at ``row`` (its board the shared one where ``boards`` is one row): ``parse_deal``'s."""
    try:
        parse_deal(holes[row], boards[row if len(boards) > 1 else 0])
    except ValueError as e:
        return ValueError(f"row {row}: {e}")
    raise AssertionError(f"row {row} was found bad but passes the single-deal checks")
