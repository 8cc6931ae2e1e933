"""What an equity calculation reports for one player: :class:`PlayerEquity`.

Exact enumeration, Monte Carlo sampling and the preflop tables all answer
with one :class:`PlayerEquity` per player, and :func:`equity_table` lays a
list of them out as text. :func:`~twoplustwo.equity` returns them as
:class:`EquityResults` and the preflop tables as :class:`PreflopResults`:
a list and a dict that print as a table and show as one in a notebook.

>>> r = PlayerEquity("As Ah", games=990, wins=907, ties=0, equity=907 / 990)
>>> r.losses, round(r.win, 4)
(83, 0.9162)
>>> print(r)
As Ah  win 91.616%  tie 0.000%  equity 91.616%  (907 wins, 0 ties, 990 games)
>>> r
PlayerEquity('As Ah', equity=91.616%, wins=907, ties=0, losses=83, games=990)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

import numpy as np
import numpy.typing as npt

from twoplustwo.vocab.combos import HAND_CLASSES
from twoplustwo.vocab.grid import class_grid_html

__all__ = ["EQUITY_SPAN", "EquityResults", "PlayerEquity", "PreflopResults", "equity_html", "equity_table"]

#: The equities against a random hand that the preflop grids shade from
#: lowest to highest (32o is about 32%, AA about 85%): the notebook's grid
#: and the PNG heat map (:mod:`twoplustwo.odds.charts`) alike.
EQUITY_SPAN = (0.30, 0.85)


@dataclass(frozen=True, eq=False)
class PlayerEquity:
    """One player's results.

    A *game* is one deal: a combo for every player (one per range, all
    cards distinct) and a completed board. ``wins`` counts the games the
    player wins alone, ``ties`` those whose pot they split with at least
    one other player, and ``losses`` the rest. ``equity`` is the expected
    share of the pot, a k-way split paying 1/k.

    Exact enumeration counts every game once (PokerStove's convention),
    and a range's weights multiply: the counts are ints when every weight
    is 1, and weighted sums (floats) otherwise; ``stderr`` is 0. Monte
    Carlo counts the sampled games, and ``stderr`` is the standard error
    of ``equity``.

    For a range, ``combos`` holds its combos (``(n, 2)`` card ints, higher
    card first), ``combo_games`` the (weighted) games each took part in and
    ``combo_equity`` each one's equity against the other players; for a
    single hand they are ``None``.
    """

    player: str
    games: float
    wins: float
    ties: float
    equity: float
    stderr: float = 0.0
    combos: npt.NDArray[np.uint8] | None = None
    combo_games: npt.NDArray[np.float64] | None = None
    combo_equity: npt.NDArray[np.float64] | None = None

    @property
    def losses(self) -> float:
        """Games in which the player gets no share of the pot."""
        return self.games - self.wins - self.ties

    @property
    def win(self) -> float:
        """Fraction of games won alone."""
        return self.wins / self.games if self.games else 0.0

    @property
    def tie(self) -> float:
        """Fraction of games whose pot the player splits."""
        return self.ties / self.games if self.games else 0.0

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlayerEquity):
            return NotImplemented
        return all(_same(getattr(self, f), getattr(other, f)) for f in self.__dataclass_fields__)

    __hash__ = None  # type: ignore[assignment]  # equal results may hold equal arrays

    def __repr__(self) -> str:
        # Concise, for a REPL: the fields keep full precision.
        share = f"{100 * self.equity:.3f}%" + (f" ± {100 * self.stderr:.3f}%" if self.stderr else "")
        text = (
            f"PlayerEquity({self.player!r}, equity={share}, wins={self.wins!r}, ties={self.ties!r}, "
            f"losses={self.losses!r}, games={self.games!r}"
        )
        if self.combos is not None:
            text += f", combos=<{len(self.combos)} combos>"
        return text + ")"

    def _repr_html_(self) -> str:
        return equity_html([self])

    def __str__(self) -> str:
        text = f"{self.player}  win {100 * self.win:.3f}%  tie {100 * self.tie:.3f}%  equity {100 * self.equity:.3f}%"
        if self.stderr:
            text += f" ± {100 * self.stderr:.3f}%"
        return text + f"  ({_count(self.wins)} wins, {_count(self.ties)} ties, {_count(self.games)} games)"


def _same(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is b
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        # A combo no sampled game used has nan equity: equal results hold it alike.
        floats = np.asarray(a).dtype.kind == "f" and np.asarray(b).dtype.kind == "f"
        return bool(np.array_equal(a, b, equal_nan=floats))
    return bool(a == b)


def _count(x: float) -> str:
    return f"{x:,}" if isinstance(x, (int, np.integer)) else f"{x:,.2f}"


def equity_table(results: Sequence[PlayerEquity]) -> str:
    """Results as an aligned plain-text table, one row per player.

    Monte Carlo results get a ``± stderr`` column.

    >>> rows = [PlayerEquity("As Ah", 990, 907, 0, 907 / 990), PlayerEquity("Ks Kh", 990, 83, 0, 83 / 990)]
    >>> print(equity_table(rows))
    player   win %  tie %  equity %  wins  ties  games
    As Ah   91.616  0.000    91.616   907     0    990
    Ks Kh    8.384  0.000     8.384    83     0    990
    """
    rows = _rows(results)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths)))
        for row in rows
    )


def _rows(results: Sequence[PlayerEquity]) -> list[list[str]]:
    """The header and one row of cells per player, as :func:`equity_table` and :func:`equity_html` show them."""
    sampled = any(r.stderr for r in results)
    head = ["player", "win %", "tie %", "equity %"] + (["± %"] if sampled else []) + ["wins", "ties", "games"]
    rows = [head]
    for r in results:
        rows.append(
            [r.player, f"{100 * r.win:.3f}", f"{100 * r.tie:.3f}", f"{100 * r.equity:.3f}"]
            + ([f"{100 * r.stderr:.3f}"] if sampled else [])
            + [_count(r.wins), _count(r.ties), _count(r.games)]
        )
    return rows


def equity_html(results: Sequence[PlayerEquity]) -> str:
    """Results as an HTML table, one row per player (what a notebook shows for them).

    >>> equity_html([PlayerEquity("As Ah", 990, 907, 0, 907 / 990)]).count("<tr>")
    2
    """
    head, *body = _rows(results)
    cells = "".join(f"<th>{escape(h)}</th>" for h in head)
    lines = [f"<tr>{cells}</tr>"]
    for row in body:
        aligns = ["left"] + ["right"] * (len(row) - 1)
        tds = "".join(f'<td style="text-align:{a}">{escape(c)}</td>' for a, c in zip(aligns, row))
        lines.append(f"<tr>{tds}</tr>")
    return f"<table>{''.join(lines)}</table>"


class EquityResults(list[PlayerEquity]):
    """The players' results, in order: a list that prints as :func:`equity_table` and shows as a table in a notebook."""

    def __str__(self) -> str:
        return equity_table(self)

    def _repr_html_(self) -> str:
        return equity_html(self)


class PreflopResults(dict[Any, PlayerEquity]):
    """Preflop results by class (``"AKs"``) or by matchup (``("AA", "KK")``): a dict that prints as a table.

    In a notebook, results by class show as the 13 x 13 grid of their
    equity, and matchups as a table.
    """

    def __str__(self) -> str:
        return equity_table(list(self.values()))

    def _repr_html_(self) -> str:
        if not all(isinstance(k, str) for k in self):
            return equity_html(list(self.values()))
        equity = {k: r.equity for k, r in self.items()}
        low, high = EQUITY_SPAN
        shares = [None if c not in equity else (equity[c] - low) / (high - low) for c in HAND_CLASSES]
        texts = ["" if c not in equity else f"{100 * equity[c]:.1f}" for c in HAND_CLASSES]
        return class_grid_html(shares, texts, caption="equity against a random hand, %")
