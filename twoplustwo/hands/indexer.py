"""Hands up to suit isomorphism: :class:`HandIndexer` numbers their classes densely, round by round, and back.

Cards come in rounds, ``(2, 3, 1, 1)`` for hold'em with perfect recall
(hole cards, flop, turn, river) or ``(2, 5)`` for hole cards and a whole
board. Within a round the order of the cards does not matter; across rounds
it does. Two hands share an index exactly when a renaming of the suits maps
each round of one onto the same round of the other, and the indices of the
hands of rounds ``0..i`` are ``0 .. size(i) - 1`` (Kevin Waugh's hand
isomorphism, 2013; the layout is in :mod:`twoplustwo.vocab.indexing`).

>>> from twoplustwo import format_cards
>>> preflop = HandIndexer((2,))
>>> preflop.size(), preflop.index("As Ks"), preflop.index("Kh Ah")  # suited ace-king: one class
(169, 168, 168)
>>> format_cards(preflop.unindex(168)), format_cards(preflop.unindex(0))
('As Ks', '2s 2h')
>>> flop = HandIndexer((2, 3))
>>> flop.size(0), flop.size()
(169, 1286792)
>>> flop.index("AsKs 2c3d4h") == flop.index("AhKh 2s3d4c"), flop.index("AsKs 2c3d4h") == flop.index("AsKs 2s3d4h")
(True, False)
>>> flop.index("As Ks")  # two cards complete round 0
168
>>> flop.index(np.array([[51, 47, 0, 5, 10], [50, 46, 3, 5, 8]], dtype=np.uint8)).tolist()
[971300, 971300]
>>> format_cards(flop.unindex(971300))  # canonical: suits renamed spades first, each round high to low
'As Ks 4c 3d 2h'
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from itertools import accumulate, combinations, permutations
from typing import Any, cast, overload

import numpy as np
import numpy.typing as npt

from twoplustwo.kernels.choice import chosen
from twoplustwo.vocab.cards import CardLike, parse_cards
from twoplustwo.vocab.indexing import MAX_CARDS, MAX_ROUNDS, Plan, plan
from twoplustwo.vocab.inputs import check_int, int_array, is_int, refuse_masked

__all__ = ["HandIndexer"]


class HandIndexer:
    """Numbers the hands dealt in ``rounds`` (cards per round) up to a renaming of the suits.

    ``rounds`` is a tuple of positive ints (at most 8 of them) dealing at
    most 7 cards in all. Indexers of the same rounds share their tables
    (made once per process, on first use) and compare equal. The C backend
    does the work when it is built and chosen (:func:`twoplustwo.backend`),
    the numpy path otherwise, with the same answers and errors.

    >>> HandIndexer((2, 4))
    HandIndexer((2, 4))  # sizes 169, 13960050
    >>> HandIndexer((2, 6))
    Traceback (most recent call last):
    ...
    ValueError: rounds (2, 6) deal 8 cards; a hand holds at most 7
    """

    def __init__(self, rounds: Sequence[int]) -> None:
        self._rounds = _check_rounds(rounds)
        #: Cards dealt by the end of each round.
        self._dealt = tuple(accumulate(self._rounds))

    @property
    def rounds(self) -> tuple[int, ...]:
        """The cards dealt in each round."""
        return self._rounds

    def __repr__(self) -> str:
        sizes = ", ".join(str(self.size(i)) for i in range(len(self._rounds)))
        return f"HandIndexer({self._rounds!r})  # sizes {sizes}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HandIndexer) and other._rounds == self._rounds

    def __hash__(self) -> int:
        return hash((HandIndexer, self._rounds))

    def size(self, round: int | None = None) -> int:
        """The number of indices of the hands of rounds ``0..round`` (default: every round).

        >>> [HandIndexer((2, 3, 1, 1)).size(i) for i in range(4)]
        [169, 1286792, 55190538, 2428287420]
        >>> HandIndexer((2, 5)).size()
        123156254
        """
        return self._plan(self._round(round)).size

    # One hand gives an int, rows of hands an array; an array whose shape the
    # type checker does not know may be either.
    @overload
    def index(self, cards: str | Sequence[CardLike]) -> int: ...
    @overload
    def index(self, cards: Sequence[Sequence[int]]) -> npt.NDArray[np.uint64]: ...
    @overload
    def index(self, cards: np.ndarray[tuple[int, int], np.dtype[np.integer[Any]]]) -> npt.NDArray[np.uint64]: ...
    @overload
    def index(self, cards: np.ndarray[tuple[int], np.dtype[np.integer[Any]]]) -> int: ...
    @overload
    def index(self, cards: npt.NDArray[np.integer[Any]]) -> int | npt.NDArray[np.uint64]: ...
    def index(
        self, cards: str | Sequence[CardLike] | Sequence[Sequence[int]] | npt.NDArray[np.integer[Any]]
    ) -> int | npt.NDArray[np.uint64]:
        """The index of one hand (an int), or of each row of an ``(N, k)`` integer array (uint64).

        A hand is card text (``"AsKd 2c3h4s"``), a sequence of card ints
        ``0..51`` or card strings, or a 1-D integer array; its cards are
        those of rounds ``0..i`` in order, and the index is round ``i``'s:
        ``k`` cards must complete a round. Bad input raises ``ValueError``
        naming the card (and row), or ``TypeError`` for a wrong type.

        >>> HandIndexer((2, 3)).index([[51, 47, 0, 5], [1, 2, 3, 4]])
        Traceback (most recent call last):
        ...
        ValueError: rows of 4 cards complete no round of (2, 3): a hand holds 2 or 5 cards
        >>> HandIndexer((2,)).index([[51, 47], [12, 12]])
        Traceback (most recent call last):
        ...
        ValueError: row 1: card 1 (12): duplicate of card 0
        """
        if not isinstance(cards, (str, Sequence, np.ndarray)):
            raise TypeError(f"cards must be card text, a sequence of cards or an array, got {type(cards).__name__}")
        refuse_masked(cards, "cards")
        if isinstance(cards, np.ndarray):
            if cards.ndim == 2:
                return self._index_rows(cards)
            if cards.ndim != 1:
                raise ValueError(f"cards must be one hand or an (N, k) array of hands, got a {cards.ndim}-D array")
        elif not isinstance(cards, str) and _is_rows(cards):
            try:
                rows = np.asarray(cards)
            except ValueError:
                raise ValueError("rows of hands must all hold the same number of cards") from None
            return self._index_rows(rows)
        hand = parse_cards(cast("str | Sequence[CardLike] | npt.NDArray[np.integer[Any]]", cards))  # one hand
        out = self._run_index(np.array([hand], dtype=np.uint8), self._round_of(len(hand), "a hand of"))
        return int(out[0])

    def _index_rows(self, cards: npt.ArrayLike) -> npt.NDArray[np.uint64]:
        # uint8 rows go to the kernels as they are: they read each block once
        # into a copy of their own and check that. Any other dtype is read
        # once here, checked and cast from the copy: checked on the caller's
        # array and then cast, a 300 written in between would pass as 44.
        rows = int_array(cards, "hands", copy=False)
        if rows.ndim != 2:
            raise ValueError(f"hands must be an (N, k) array, got {rows.ndim}-D")
        i = self._round_of(rows.shape[1], "rows of")
        if rows.dtype != np.uint8:
            rows = np.array(rows)
            # Checked before the cast, or 256 + c would pass as card c.
            bad = (rows < 0) | (rows > 51)
            if bad.any():
                r, c = (int(x) for x in np.argwhere(bad)[0])
                raise ValueError(f"row {r}: card {c} ({int(rows[r, c])}): out of range 0..51")
        return self._run_index(np.ascontiguousarray(rows, dtype=np.uint8), i)

    def _run_index(self, hands: npt.NDArray[np.uint8], i: int) -> npt.NDArray[np.uint64]:
        out = np.empty(len(hands), dtype=np.uint64)
        bad = chosen().index_rows(hands, *self._plan(i), out)
        if bad >= 0:
            try:
                parse_cards(hands[bad])
            except ValueError as e:
                raise ValueError(f"row {bad}: {e}") from None
            # Another thread changed the row since it was read.
            raise ValueError(f"row {bad}: a card over 51 or a card twice")
        return out

    @overload
    def unindex(self, indices: int | np.integer[Any], round: int | None = None) -> npt.NDArray[np.uint8]: ...
    @overload
    def unindex(
        self, indices: Sequence[int] | npt.NDArray[np.integer[Any]], round: int | None = None
    ) -> npt.NDArray[np.uint8]: ...
    def unindex(
        self,
        indices: int | np.integer[Any] | Sequence[int] | npt.NDArray[np.integer[Any]],
        round: int | None = None,
    ) -> npt.NDArray[np.uint8]:
        """The canonical hand of an index of round ``round`` (default: the last), or of each of an array of them.

        A uint8 array of the hand's cards, ``(k,)`` for an int and ``(N, k)``
        for a 1-D array: the suits renamed spades first, each round's cards
        in decreasing order, so that ``index(unindex(i)) == i``. An index out
        of range raises ``ValueError``.

        >>> HandIndexer((2, 3)).unindex([0, 168], round=0).tolist()
        [[3, 2], [51, 47]]
        >>> HandIndexer((2,)).unindex(169)
        Traceback (most recent call last):
        ...
        ValueError: index 169 out of range 0..168 of round 0 of (2,)
        """
        i = self._round(round)
        p = self._plan(i)
        one = is_int(indices)
        if one:
            x = operator.index(indices)  # type: ignore[arg-type]  # an int or numpy integer, just checked
            if not 0 <= x < p.size:
                raise ValueError(f"index {x} out of range 0..{p.size - 1} of round {i} of {self._rounds}")
            a: npt.NDArray[Any] = np.array([x], dtype=np.uint64)
        elif isinstance(indices, str) or not isinstance(indices, (Sequence, np.ndarray)):
            raise TypeError(f"indices must be an int or a 1-D integer array, got {type(indices).__name__}")
        else:
            a = int_array(indices, "indices")  # a private copy: checked and read the same
            if a.ndim != 1:
                raise ValueError(f"indices must be one int or a 1-D array, got a {a.ndim}-D array")
            bad = (a < 0) | (a >= p.size)
            if bad.any():
                r = int(np.argmax(bad))
                raise ValueError(
                    f"row {r}: index {int(a[r])} out of range 0..{p.size - 1} of round {i} of {self._rounds}"
                )
            a = a.astype(np.uint64)
        out = np.empty((len(a), self._dealt[i]), dtype=np.uint8)
        bad_row = chosen().unindex_rows(a, p.counts, p.codes, p.offsets, out)
        if bad_row >= 0:
            raise AssertionError(f"row {bad_row}: an index in range was refused")
        return out[0] if one else out

    def counts(
        self, indices: Sequence[int] | npt.NDArray[np.integer[Any]], round: int | None = None
    ) -> npt.NDArray[np.uint8]:
        """How many hands each index of round ``round`` (default: the last) stands for: 24 over its suit symmetries.

        A hand here is its rounds' cards as sets, so the counts of all the
        indices of a round sum to the hands dealt: weights that make a table
        over indices count as the game deals. Bad indices raise as
        :meth:`unindex` does.

        >>> flop = HandIndexer((2, 3))
        >>> flop.counts(flop.index([[51, 47, 43, 39, 35], [51, 50, 49, 48, 47]])).tolist()
        [4, 12]
        >>> int(HandIndexer((2,)).counts(range(169)).sum(dtype=np.int64))
        1326
        """
        i = self._round(round)
        hands = self.unindex(indices, round=i)
        # A renaming of the suits keeps the hand exactly when it maps every
        # suit to one with the same ranks in every round. Each round's ranks
        # by suit: 16 bits a suit, suit s in bits 16s..16s+12.
        card = np.arange(52, dtype=np.uint64)
        bit = np.left_shift(np.uint64(1), (card >> np.uint64(2)) + np.uint64(16) * (card & np.uint64(3)))
        starts = (0, *self._dealt)
        rounds = [np.bitwise_or.reduce(bit[hands[:, starts[r] : starts[r + 1]]], axis=1) for r in range(i + 1)]
        same = {(a, a): np.ones(len(hands), dtype=bool) for a in range(4)}
        for a, b in combinations(range(4), 2):
            eq = np.ones(len(hands), dtype=bool)
            for x in rounds:
                eq &= ((x >> np.uint64(16 * a)) & np.uint64(0x1FFF)) == ((x >> np.uint64(16 * b)) & np.uint64(0x1FFF))
            same[a, b] = same[b, a] = eq
        kept = np.zeros(len(hands), dtype=np.uint8)
        for perm in permutations(range(4)):
            kept += same[0, perm[0]] & same[1, perm[1]] & same[2, perm[2]] & same[3, perm[3]]
        return (24 // kept).astype(np.uint8)

    def _round(self, round: int | None) -> int:
        """``round`` checked (0-based), or the last round for None."""
        if round is None:
            return len(self._rounds) - 1
        round = check_int(round, "round")
        if not 0 <= round < len(self._rounds):
            raise ValueError(f"round must be 0..{len(self._rounds) - 1} for rounds {self._rounds}, got {round}")
        return round

    def _round_of(self, k: int, what: str) -> int:
        """The round that ``k`` cards complete."""
        if k not in self._dealt:
            counts = " or ".join(str(n) for n in self._dealt)
            raise ValueError(f"{what} {k} cards complete no round of {self._rounds}: a hand holds {counts} cards")
        return self._dealt.index(k)

    def _plan(self, i: int) -> Plan:
        return plan(self._rounds[: i + 1])


def _check_rounds(rounds: object) -> tuple[int, ...]:
    if not isinstance(rounds, (tuple, list)):
        raise TypeError(f"rounds must be a tuple of cards per round, such as (2, 3), got {type(rounds).__name__}")
    for n in rounds:
        if not is_int(n):
            raise TypeError(f"rounds must hold ints, got {type(n).__name__}")
    counts = tuple(int(n) for n in rounds)
    if not 1 <= len(counts) <= MAX_ROUNDS:
        raise ValueError(f"rounds must have 1 to {MAX_ROUNDS} rounds, got {len(counts)}")
    if min(counts) < 1:
        raise ValueError(f"each round deals at least one card, got {counts}")
    if sum(counts) > MAX_CARDS:
        raise ValueError(f"rounds {counts} deal {sum(counts)} cards; a hand holds at most {MAX_CARDS}")
    return counts


def _is_rows(cards: object) -> bool:
    """Whether ``cards`` is a sequence of hands (rows) rather than one hand."""
    if not isinstance(cards, Sequence) or not cards:
        return False
    first = cards[0]
    return isinstance(first, np.ndarray) or (isinstance(first, Sequence) and not isinstance(first, str))
