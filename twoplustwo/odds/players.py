"""Who plays: players read from what a caller wrote, and checked, in one place.

:func:`parse_player` reads one player of :func:`twoplustwo.equity` (a hand,
range notation or a :class:`~twoplustwo.Range`); :func:`check_players`
checks players given as arrays, which :func:`twoplustwo.odds.montecarlo.monte_carlo`
takes. Both refuse a wrong number of players with :func:`check_count`.

>>> p = parse_player(0, "QQ+,AKs", omaha=False)
>>> p.label, len(p.combos), p.ranged
('QQ+,AKs', 22, True)
>>> check_count(1, "equity")
Traceback (most recent call last):
...
ValueError: equity needs 2 to 9 players, got 1
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from twoplustwo.vocab.cards import format_cards, parse_cards
from twoplustwo.vocab.inputs import refuse_masked
from twoplustwo.vocab.ranges import Range, parse_range
from twoplustwo.vocab.rules import HOLDEM

__all__ = ["MAX_PLAYERS", "CheckedPlayer", "any_deal", "check_count", "check_players", "parse_player", "without"]

#: Players an equity calculation takes at most (9 hands and a full board use 23 cards).
MAX_PLAYERS = 9
# Nodes the search for one compatible deal may visit before giving up.
_SEARCH_BUDGET = 100_000


class CheckedPlayer(NamedTuple):
    """One checked player: a label for results, ``(n, k)`` uint8 combos, ``(n,)`` weights, and whether a range."""

    label: str
    combos: npt.NDArray[np.uint8]
    weights: npt.NDArray[np.float64]
    ranged: bool


def check_count(n: int, who: str) -> None:
    """Refuse fewer than 2 or more than :data:`MAX_PLAYERS` players; ``who`` names the calculation."""
    if not 2 <= n <= MAX_PLAYERS:
        raise ValueError(f"{who} needs 2 to {MAX_PLAYERS} players, got {n}")


def parse_player(i: int, player: object, omaha: bool) -> CheckedPlayer:
    """Player ``i`` (from 0) as :func:`twoplustwo.equity` takes one: a hand, range text or a Range."""
    where = f"player {i + 1}"
    if omaha:
        # Omaha hands only: no range notation of Omaha hands is standard.
        if isinstance(player, Range):
            raise ValueError(f"{where}: an Omaha player is a hand of 4 to 6 cards, not a range")
        cards = _cards(where, player)
        if not 4 <= len(cards) <= 6:
            raise ValueError(f"{where}: an Omaha hand has 4, 5 or 6 hole cards, got {len(cards)}")
        return _hand(cards)
    if isinstance(player, Range):
        return _range_player(where, player)
    if type(player) is str:
        try:
            return _text_player(player)
        except ValueError:
            pass  # said again below, with the player's number
    if isinstance(player, str):
        return _read_text(where, player)
    return _two_cards(where, _cards(where, player))


@functools.lru_cache(maxsize=1024)
def _text_player(text: str) -> CheckedPlayer:
    """A Hold'em player written as text, read once per text: its arrays are shared, so read-only."""
    p = _read_text("player 1", text)
    for array in (p.combos, p.weights):
        array.setflags(write=False)
    return p


def _read_text(where: str, text: str) -> CheckedPlayer:
    """A Hold'em hand or range written as text; errors start with ``where``."""
    try:
        cards = parse_cards(text)
    except ValueError as not_cards:
        try:
            r = parse_range(text)
        except ValueError as not_range:
            # Text with a range's marks was meant as a range; else say
            # why it is neither.
            if any(mark in text for mark in ",+-[:%") or text.strip().lower() in ("random", "any"):
                raise ValueError(f"{where}: {not_range}") from None
            raise ValueError(f"{where}: not a hand ({not_cards}) nor a range ({not_range})") from None
        return _range_player(where, r)
    if len(cards) not in (0, 2):
        # Combos listed: "AhKh,AsQs" reads as four cards too.
        try:
            return _range_player(where, parse_range(text))
        except ValueError:
            pass
    return _two_cards(where, cards)


def _two_cards(where: str, cards: list[int]) -> CheckedPlayer:
    if len(cards) != 2:
        raise ValueError(f"{where}: a Hold'em hand has 2 hole cards, got {len(cards)}")
    return _hand(cards)


def _cards(where: str, player: object) -> list[int]:
    try:
        return parse_cards(player)  # type: ignore[arg-type]
    except (TypeError, ValueError) as e:
        raise type(e)(f"{where}: {e}") from None


def _hand(cards: list[int]) -> CheckedPlayer:
    return CheckedPlayer(format_cards(cards), np.array([cards], dtype=np.uint8), np.ones(1), False)


def _range_player(where: str, r: Range) -> CheckedPlayer:
    if len(r) == 0:
        raise ValueError(f"{where}: the range is empty")
    return CheckedPlayer(str(r), np.asarray(r.combos), np.asarray(r.weights), True)


def without(i: int, p: CheckedPlayer, taken: set[int], game: str) -> CheckedPlayer:
    """Player ``i``'s range ``p`` less the combos holding a card of ``taken``; refused if none is left."""
    out = np.zeros(52, dtype=bool)
    out[list(taken)] = True
    keep = ~out[p.combos].any(axis=1)
    if not keep.any():
        deck = "" if game == HOLDEM else f" and the {game} deck"
        raise ValueError(
            f"player {i + 1}: no combo of {p.label} is left beside the board, the dead cards, the other hands{deck}"
        )
    return p._replace(combos=p.combos[keep], weights=p.weights[keep])


def check_players(
    players: Sequence[tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64]]],
    labels: Sequence[str],
    ranged: Sequence[bool],
    taken: Sequence[int],
    omaha: bool,
    deck: Sequence[int],
) -> list[CheckedPlayer]:
    """Players given as ``(combos, weights)`` arrays, checked: their count, shapes, cards in ``deck`` and none twice
    in a combo, weights in (0, 1], no combo holding a card of ``taken``."""
    check_count(len(players), "Monte Carlo equity")
    if len(labels) != len(players) or len(ranged) != len(players):
        raise ValueError(
            f"{len(players)} players need as many labels and ranged flags, got {len(labels)} and {len(ranged)}"
        )
    widths = range(4, 7) if omaha else range(2, 3)
    shape = "(n, 4..6)" if omaha else "(n, 2)"
    taken_cards = sorted({int(t) for t in taken})
    out = []
    for label, (combos, weights), is_range in zip(labels, players, ranged):
        # Private copies: the cards and weights checked are those cast and kept (a 300 checked on the caller's
        # array and then cast to uint8 would be card 44).
        refuse_masked(combos, f"{label}: combos")
        refuse_masked(weights, f"{label}: weights")
        c = np.array(combos)
        w = np.array(weights, dtype=np.float64)
        if c.ndim != 2 or c.shape[1] not in widths or len(c) == 0 or w.shape != (len(c),):
            raise ValueError(
                f"{label}: needs {shape} combos and (n,) weights with n >= 1, got shapes {c.shape} and {w.shape}"
            )
        if c.dtype.kind not in "iu" or c.min() < deck[0] or c.max() > 51:
            raise ValueError(f"{label}: combos must be card ints {deck[0]}..51")
        rows = np.sort(c, axis=1)
        # Unchecked hand rows with a card twice would get some value, silently.
        if np.any(rows[:, 1:] == rows[:, :-1]):
            raise ValueError(f"{label}: a combo holds a card twice")
        if not np.all((w > 0) & (w <= 1)):
            raise ValueError(f"{label}: weights must be in (0, 1]")
        touching = np.flatnonzero(np.isin(c, taken_cards).any(axis=1))
        if len(touching):
            raise ValueError(f"{label}: combo {format_cards(c[touching[0]])} uses a board or dead card")
        out.append(CheckedPlayer(label, np.asarray(c, dtype=np.uint8), w, bool(is_range)))
    return out


def any_deal(masks: list[list[int]]) -> bool | None:
    """Whether one card mask per player can be chosen with no card twice; ``None`` if the search ran out of budget.

    >>> any_deal([[0b011, 0b100], [0b001]]), any_deal([[0b1], [0b1]])
    (True, False)
    """
    # Small ranges first: they fail soonest, which prunes the search most.
    order = sorted(masks, key=len)
    visited = 0

    class OutOfBudget(Exception):
        pass

    def search(level: int, used: int) -> bool:
        nonlocal visited
        if level == len(order):
            return True
        for m in order[level]:
            visited += 1
            if visited > _SEARCH_BUDGET:
                raise OutOfBudget
            if not m & used and search(level + 1, used | m):
                return True
        return False

    try:
        return search(0, 0)
    except OutOfBudget:
        return None
