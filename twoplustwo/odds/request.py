"""One equity question, checked: what :func:`twoplustwo.equity` hands down to the route that answers it.

The public entry points (:func:`twoplustwo.equity`, and
:func:`~twoplustwo.odds.montecarlo.monte_carlo` for players given as
arrays) read and check what a caller wrote, resolve the game on its table
set once, and pass one :class:`Request` down: the routes that enumerate or
sample neither check nor resolve again.

>>> from twoplustwo.odds.players import parse_player
>>> from twoplustwo.kernels.games import resolve
>>> players = [parse_player(0, "AsAh", omaha=False), parse_player(1, "QQ+", omaha=False)]
>>> r = Request(players, [], [], resolve("holdem"), "holdem", workers=1)
>>> r.ranged, r.omaha, r.labels
(True, False, ['As Ah', 'QQ+'])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from twoplustwo.odds.players import CheckedPlayer

if TYPE_CHECKING:
    from twoplustwo.kernels.games import Game

__all__ = ["Request"]


@dataclass(frozen=True)
class Request:
    """Checked players, board and dead cards, and the resolved game they play, with how to run.

    ``game`` is the table game as the caller's table set holds it (its deck,
    walker and layers): hold'em's for Omaha, which plays on the hold'em
    tables. ``variant`` is the game :func:`twoplustwo.equity` plays: the
    table game's name, ``"omaha"`` or ``"omaha-hilo"``. Every player's
    combos already miss the board, the dead cards and the other hands, and
    enough cards are left to deal. ``workers`` is a thread count already
    resolved; ``quiet`` hides the progress bar.
    """

    players: list[CheckedPlayer]
    board: list[int]
    dead: list[int]
    game: Game
    variant: str
    workers: int
    quiet: bool = False

    @property
    def omaha(self) -> bool:
        """Whether the players hold Omaha hands (4 to 6 hole cards)."""
        return self.variant.startswith("omaha")

    @property
    def ranged(self) -> bool:
        """Whether some player holds a range rather than one hand."""
        return any(p.ranged for p in self.players)

    @property
    def labels(self) -> list[str]:
        """The players' names in the results."""
        return [p.label for p in self.players]

    def holes(self) -> list[list[int]]:
        """Each player's one hand (a player with a range gets its first combo)."""
        return [p.combos[0].tolist() for p in self.players]
