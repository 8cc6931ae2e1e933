"""Exact Texas Hold'em equity: every completion of the board, no sampling.

>>> aa, kk = equity(["As Ah", "Kd Kc"])
>>> aa.wins, aa.ties, aa.losses, aa.boards
(1388072, 6538, 317694, 1712304)
>>> print(aa)
As Ah  win 81.065%  tie 0.382%  equity 81.255%  (1,388,072 wins, 6,538 ties, 1,712,304 boards)

Each player's walk starts at the DAG node of their hole cards plus the known
board, and the missing board cards are enumerated in sorted order with
shared prefixes walked once, so a completion costs about one table lookup
per player.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt

from . import pool
from .cards import check_disjoint, format_cards, parse_cards
from .draws import Cards, Draws
from .tables import Tables, get_tables

__all__ = ["MAX_PLAYERS", "PlayerEquity", "equity", "equity_table"]

#: Players :func:`equity` accepts at most (9 hands and a full board use 23 cards).
MAX_PLAYERS = 9

# A k-way split pays 1/k of the pot; over a common denominator every share
# is an integer.
_SPLIT = 2520  # lcm(1, ..., 9)
# Boards below which threads cost more than they save.
_PARALLEL_MIN = 1 << 15


@dataclass(frozen=True)
class PlayerEquity:
    """One player's exact results over all ``boards`` completions.

    ``wins`` counts boards the player wins alone, ``ties`` boards they
    share with at least one other player, and ``shares`` the pots won,
    exactly: a board split k ways adds ``1/k``.
    """

    hand: tuple[int, int]
    boards: int
    wins: int
    ties: int
    shares: Fraction

    @property
    def losses(self) -> int:
        """Boards some other player wins outright or shares without this player."""
        return self.boards - self.wins - self.ties

    @property
    def win(self) -> float:
        """Fraction of boards won alone."""
        return self.wins / self.boards

    @property
    def tie(self) -> float:
        """Fraction of boards shared with at least one other player."""
        return self.ties / self.boards

    @property
    def equity(self) -> float:
        """Expected share of the pot, ties split evenly."""
        return float(self.shares / self.boards)

    def __repr__(self) -> str:
        return (
            f"PlayerEquity(hand={format_cards(self.hand)!r}, boards={self.boards}, "
            f"wins={self.wins}, ties={self.ties}, shares={self.shares!s})"
        )

    def __str__(self) -> str:
        return (
            f"{format_cards(self.hand)}  win {100 * self.win:.3f}%  tie {100 * self.tie:.3f}%  "
            f"equity {100 * self.equity:.3f}%  "
            f"({self.wins:,} wins, {self.ties:,} ties, {self.boards:,} boards)"
        )


def equity_table(results: Sequence[PlayerEquity]) -> str:
    """Results as an aligned plain-text table, one row per player.

    >>> print(equity_table(equity(["AhKh", "AdKd", "7c7d"], board="Qh Jd 2c")))
    hand    win %   tie %  equity %  wins  ties  boards
    Ah Kh   4.762  32.337    20.930    43   292     903
    Ad Kd   3.987  32.337    20.155    36   292     903
    7c 7d  58.915   0.000    58.915   532     0     903
    """
    rows = [["hand", "win %", "tie %", "equity %", "wins", "ties", "boards"]]
    for r in results:
        rows.append(
            [
                format_cards(r.hand),
                f"{100 * r.win:.3f}",
                f"{100 * r.tie:.3f}",
                f"{100 * r.equity:.3f}",
                f"{r.wins:,}",
                f"{r.ties:,}",
                f"{r.boards:,}",
            ]
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths)))
        for row in rows
    )


def _parse_hands(hands: Sequence[Cards]) -> list[list[int]]:
    if isinstance(hands, (str, bytes)):
        raise ValueError("hands must be a sequence of hands, e.g. ['AsAh', 'KdKc'], not one string")
    parsed = []
    for i, hand in enumerate(hands):
        try:
            cards = parse_cards(hand)
        except ValueError as e:
            raise ValueError(f"hand {i + 1}: {e}") from None
        if len(cards) != 2:
            raise ValueError(f"hand {i + 1}: a Hold'em hand has 2 hole cards, got {len(cards)}")
        parsed.append(cards)
    if not 2 <= len(parsed) <= MAX_PLAYERS:
        raise ValueError(f"equity needs 2 to {MAX_PLAYERS} hands, got {len(parsed)}")
    return parsed


def equity(
    hands: Sequence[Cards],
    board: Cards = (),
    dead: Cards = (),
    *,
    tables: Tables | None = None,
    threads: int | None = None,
) -> list[PlayerEquity]:
    """Exact win, tie and equity of 2 to 9 Hold'em hands over every board completion.

    Each hand is two hole cards: a string (``"AsAh"``, ``"As Ah"``) or a
    sequence of card strings or ints. ``board`` holds 0, 3, 4 or 5 known
    cards and ``dead`` cards out of play; the missing board cards are drawn
    from the rest of the deck in every possible way. Results come back in
    the order of ``hands``. Raises ``ValueError`` for a card used twice, a
    hand without exactly two cards, fewer than 2 or more than 9 hands, a
    board of another size, or too few cards left to complete the board.
    Long enumerations run on ``threads`` threads (default: one per CPU).

    Memory: a call's own arrays (2 bytes per player and board) are freed
    when it returns. The first call also builds the process's index of card
    subsets (:func:`twoplustwo.draws.subsets`, 65 MiB), kept for later calls
    and for :func:`~twoplustwo.iter_hands`; with the allocator's reuse
    pools a process holds at most about 128 MiB more after equity than
    before, and no more after further calls (``tests/test_process_safety.py``).

    >>> [r.wins for r in equity(["AsKs", "Qh Qd", [0, 1]], board="Kh Qs 2h")]
    [60, 802, 41]
    >>> equity(["AsKs", "AsQd"])
    Traceback (most recent call last):
    ...
    ValueError: As is in both hand 1 and hand 2
    """
    workers = pool.resolve_threads(threads)
    holes = _parse_hands(hands)
    known = parse_cards(board)
    if len(known) not in (0, 3, 4, 5):
        raise ValueError(f"the board holds 0, 3, 4 or 5 cards, got {len(known)}")
    out = parse_cards(dead)
    check_disjoint(
        [(f"hand {i + 1}", h) for i, h in enumerate(holes)]
        + [("the board", known), ("the dead cards", out)]
    )
    used = {c for h in holes for c in h} | set(known) | set(out)
    rest = [c for c in range(52) if c not in used]
    missing = 5 - len(known)
    if len(rest) < missing:
        raise ValueError(f"only {len(rest)} cards left, the board needs {missing} more")
    t = get_tables(tables)
    layers = t.layers("dag7")
    starts = []
    for h in holes:
        node = 0
        for depth, card in enumerate(h + known):
            node = int(layers[depth][node * 52 + card])
        starts.append(node)
    n_boards = comb(len(rest), missing)
    values = np.empty((len(holes), n_boards), dtype=np.uint16)
    if missing == 0:
        values[:, 0] = starts  # after seven cards the node is the value
    else:
        depth = 2 + len(known)
        walker = t.walker
        if walker is not None:
            free = np.array(rest, dtype=np.uint8)

            def walk(i: int) -> None:
                # C: nested loops over the free cards, each prefix walked once.
                walker.draw_values(starts[i], depth, free, values[i])
        else:
            tail = Draws(rest, missing)
            r0, r1 = tail.rows()

            def walk(i: int) -> None:
                tail.values(layers, depth, starts[i], r0, r1, values[i])

        # The walks release the GIL, so players run on all cores.
        pool.run(workers if n_boards >= _PARALLEL_MIN else 1, walk, range(len(starts)))
    return _score(holes, values, t.walker)


def _score(holes: list[list[int]], values: npt.NDArray[np.uint16], walker: Any) -> list[PlayerEquity]:
    """Per-player results from the ``(players, boards)`` values (``walker``: the C backend's, or None)."""
    n_boards = values.shape[1]
    if walker is not None:
        # One pass over the boards in C, instead of numpy's several.
        return [
            PlayerEquity((h[0], h[1]), n_boards, wins, ties, Fraction(units, _SPLIT))
            for h, (wins, ties, units) in zip(holes, walker.score(values))
        ]
    if len(holes) == 2:
        # Heads-up needs no per-board winner count.
        a, b = values
        ties = int(np.count_nonzero(a == b))
        alone = [int(np.count_nonzero(a > b)), int(np.count_nonzero(b > a))]
        return [
            PlayerEquity((h[0], h[1]), n_boards, w, ties, Fraction(2 * w + ties, 2))
            for h, w in zip(holes, alone)
        ]
    best = values.max(axis=0)
    top = values == best
    winners = top.sum(axis=0, dtype=np.intp)
    results: list[PlayerEquity] = []
    for h, row in zip(holes, top):
        # How many boards this player shares k ways, for k = 1 .. players.
        by_k = np.bincount(winners[row], minlength=len(holes) + 1)
        units = sum(int(by_k[k]) * (_SPLIT // k) for k in range(1, len(holes) + 1))
        wins = int(by_k[1])
        results.append(
            PlayerEquity((h[0], h[1]), n_boards, wins, int(by_k[2:].sum()), Fraction(units, _SPLIT))
        )
    return results

