"""The games there are, each one piece of rules: the registry of ``game=`` names.

Every function that evaluates takes a keyword-only ``game=`` naming one of
:data:`GAMES`; :func:`~twoplustwo.equity` plays them all (:data:`EQUITY_GAMES`), and ``OMAHA_GAMES`` (Omaha is
hold'em's hands with two hole cards of four to six: no rules of its own).
Each game's rules (deck, hand sizes, how a hand gets its value, its
categories, value scale and words) are one :class:`~twoplustwo.vocab.rules.base.Rules`
object of the module of its family:

- :mod:`twoplustwo.vocab.rules.high`: best five high (hold'em, short deck,
  seven-card stud and the high half of stud hi/lo, which play hold'em's DAGs);
- :mod:`twoplustwo.vocab.rules.low`: the lows (razz and ace-to-five,
  deuce-to-seven, and stud hi/lo's eight-or-better low);
- :mod:`twoplustwo.vocab.rules.badugi`: badugi.

:func:`check_game` is the one check of a ``game=`` argument, and
:func:`rules_of` gives a game's rules.

>>> rules_of("short-deck").values
1404
>>> check_game("omaha")
Traceback (most recent call last):
...
ValueError: unknown game 'omaha'; known games: holdem, short-deck, short-deck-classic, stud, stud-hilo, razz, \
lowball-27, lowball-a5, badugi

Adding a game is adding its rules object here (README, "Adding a game").
This package imports nothing heavy: a fresh process's first evaluate() of
any game passes through it.
"""

from __future__ import annotations

import reprlib

from twoplustwo.vocab.rules.badugi import BADUGI_RULES
from twoplustwo.vocab.rules.base import Rules
from twoplustwo.vocab.rules.high import (
    HOLDEM_RULES,
    SHORT_DECK_CLASSIC_RULES,
    SHORT_DECK_RULES,
    STUD_HILO_RULES,
    STUD_RULES,
)
from twoplustwo.vocab.rules.low import LOWBALL_27_RULES, LOWBALL_A5_RULES, RAZZ_RULES

__all__ = [
    "EQUITY_GAMES",
    "GAMES",
    "HOLDEM",
    "OMAHA_GAMES",
    "OWN_CARD_GAMES",
    "RULES",
    "Rules",
    "check_equity_game",
    "check_game",
    "rules_of",
]

HOLDEM = "holdem"

#: Every game's rules, by name, in the order :data:`GAMES` lists them.
RULES: dict[str, Rules] = {
    r.name: r
    for r in (
        HOLDEM_RULES,
        SHORT_DECK_RULES,
        SHORT_DECK_CLASSIC_RULES,
        STUD_RULES,
        STUD_HILO_RULES,
        RAZZ_RULES,
        LOWBALL_27_RULES,
        LOWBALL_A5_RULES,
        BADUGI_RULES,
    )
}

#: The games the runtime evaluates. A table set holds hold'em always, the
#: others when it was built with them (``make`` builds them all).
GAMES: tuple[str, ...] = tuple(RULES)

#: Omaha, high only and hi/lo eight or better: hold'em's hands, two of four
#: to six hole cards with three of the board, on the hold'em tables.
OMAHA_GAMES: tuple[str, ...] = ("omaha", "omaha-hilo")

#: The games without a board, each player dealt their own cards (stud and the draws).
OWN_CARD_GAMES: tuple[str, ...] = tuple(
    r.name for r in (STUD_RULES, STUD_HILO_RULES, RAZZ_RULES, LOWBALL_27_RULES, LOWBALL_A5_RULES, BADUGI_RULES)
)

#: The games :func:`~twoplustwo.equity` plays: every game, and Omaha.
EQUITY_GAMES: tuple[str, ...] = (
    *(r.name for r in (HOLDEM_RULES, SHORT_DECK_RULES, SHORT_DECK_CLASSIC_RULES)),
    *OMAHA_GAMES,
    *OWN_CARD_GAMES,
)

_show = reprlib.Repr()
_show.maxstring = 40
_show.maxother = 40


def check_game(game: object) -> str:
    """The name in :data:`GAMES` that ``game`` equals, else the ``TypeError`` or ``ValueError`` that says so.

    A str subclass equal to a name (a ``StrEnum`` member, ``np.str_``) gives
    that plain name: its ``str()`` or f-string need not be the name, and
    the C entry point looks games up by plain str.
    """
    if type(game) is str and game in RULES:  # first, as every call that evaluates comes here
        return game
    if isinstance(game, str) and game in RULES:
        return GAMES[GAMES.index(game)]
    if not isinstance(game, str):
        raise TypeError(f"game must be a str such as {HOLDEM!r}, got {type(game).__name__}")
    raise ValueError(f"unknown game {_show.repr(game)}; known games: {', '.join(GAMES)}")


def check_equity_game(game: object) -> str:
    """The name in :data:`EQUITY_GAMES` that ``game`` equals (the plain str), else a ``ValueError`` that says so."""
    if not isinstance(game, str) or game not in EQUITY_GAMES:
        shown = repr(game) if isinstance(game, str) else type(game).__name__
        raise ValueError(f"equity plays {', '.join(EQUITY_GAMES)}; got game {shown}")
    return EQUITY_GAMES[EQUITY_GAMES.index(game)]


def rules_of(game: object) -> Rules:
    """The rules of the game ``game`` names, after :func:`check_game`."""
    return RULES[check_game(game)]
