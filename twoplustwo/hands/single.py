"""One hand at a time: :func:`evaluate`, without numpy.

The single-hand path is what most callers use first, so it imports no
numpy: a fresh interpreter pays for the C entry point (or a walk over
``memoryview`` objects) and the table mapping, nothing more. numpy is
imported only when an array API is first used.

>>> evaluate("As Ks Qs Js Ts 2c 3d")
7462
>>> evaluate([0, 4, 8, 12, 17])  # 2c 3c 4c 5c 6d: six-high straight
5855
>>> evaluate("Ac 6d 7h 8s 9c", game="short-deck")  # the lowest short-deck straight
877
"""

from __future__ import annotations

from collections.abc import Sequence

from twoplustwo.kernels.choice import entry_point, serve_game
from twoplustwo.kernels.games import resolve, walker_of
from twoplustwo.tables.default import get_tables
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.cards import CardLike, parse_cards
from twoplustwo.vocab.rules import HOLDEM

# typing itself costs milliseconds to import, which a fresh process's first
# evaluate() would pay: its names are for the type checker only.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    import numpy as np
    import numpy.typing as npt

    from twoplustwo.kernels.games import Game

__all__ = ["evaluate", "value_on"]


def _count_error(n: int, sizes: tuple[int, ...] = (5, 6, 7), game: str = HOLDEM) -> ValueError:
    if sizes == (5, 6, 7):
        return ValueError(f"a hand has 5, 6 or 7 cards, got {n}")
    return ValueError(f"a {game} hand has {' or '.join(map(str, sizes))} cards, got {n}")


def _evaluate(
    cards: str | Sequence[CardLike] | npt.NDArray[np.integer[Any]],
    *,
    game: str = HOLDEM,
    tables: Tables | None = None,
) -> int:
    """Value of one hand of 5, 6 or 7 cards, in any order: 1..7462 in hold'em.

    ``cards`` is a sequence of ints 0..51 or card strings, or one string
    such as ``"As Kd Qh Jc Ts 2c 3d"``. Raises ``ValueError`` naming the
    bad card for a duplicate, a card out of range, a malformed string or a
    wrong card count.

    ``game`` is ``"holdem"``, ``"short-deck"`` (Triton rules: a flush beats
    a full house, three of a kind a straight) or ``"short-deck-classic"``
    (a flush beats a full house, a straight three of a kind); short-deck
    values are 1..1404 and a card below the six a ``ValueError``.

    >>> evaluate(["Ah", "Ad", "Kc", "Kd", "Ks"])  # kings full of aces
    7284
    >>> evaluate("Ah Ad Kc Kd Ks", game="short-deck"), evaluate("Ah Qh Jh 9h 7h", game="short-deck")  # a flush wins
    (1198, 1287)
    >>> evaluate("As Ks Qs Js 2c", game="short-deck")
    Traceback (most recent call last):
    ...
    ValueError: card 4 ('2c'): not in the short-deck deck, the 36 cards from six to ace

    The other games: ``"stud"`` and ``"stud-hilo"`` (the high; hold'em's
    values, 5 to 7 cards), ``"razz"`` (the best ace-to-five low of 5 to 7
    cards) and ``"lowball-a5"`` (5 cards), 1..6175; ``"lowball-27"``
    (deuce-to-seven, 5 cards), 1..7462; ``"badugi"`` (4 cards), 1..1092;
    higher is the better hand in every one.

    >>> evaluate("As 2d 3c 4h 5s Kd Kh", game="razz"), evaluate("7c 5d 4h 3s 2c", game="lowball-27")
    (6175, 7462)
    >>> evaluate("Ac 2d 3h 4s", game="badugi")
    1092
    >>> evaluate("Ac 2d 3h 4s 5c", game="badugi")
    Traceback (most recent call last):
    ...
    ValueError: a badugi hand has 4 cards, got 5
    """
    if game != HOLDEM:
        return _evaluate_game(cards, game, tables)
    walker = walker_of(get_tables(tables))
    # Distinct ints in a list or tuple (or, in C, plain card text) are
    # evaluated at once; anything else is parsed (which names a bad card),
    # then evaluated.
    value = walker.evaluate(cards)
    if value is None:
        parsed = parse_cards(cards)
        value = walker.evaluate(parsed)
        if value is None:
            raise _count_error(len(parsed))
    return value


_evaluate.__name__ = _evaluate.__qualname__ = "evaluate"


def _evaluate_game(cards: Any, game: str, tables: Tables | None) -> int:
    """:func:`evaluate` for a game other than hold'em: its DAG walked, no small tables."""
    g = resolve(game, tables)
    if tables is None:
        # The C entry point serves this game's next calls itself, under the
        # plain name (game may be a str subclass).
        serve_game(g.name, g.walker)
    return value_on(g, cards)


def value_on(g: Game, cards: Any) -> int:
    """:func:`evaluate` of ``cards`` in the resolved game ``g``: checked as evaluate checks them, resolved no more.

    >>> from twoplustwo.kernels.games import resolve
    >>> value_on(resolve("short-deck"), "Ah Qh Jh 9h 7h")
    1287
    """
    walker = g.walker
    # Distinct ints of the deck (or, in C, plain card text) at once; anything
    # else is parsed and explained below.
    value = walker.evaluate(cards)
    if value is not None:
        return value
    parsed = parse_cards(cards)
    g.check_cards(parsed)
    sizes = g.rules.sizes
    if len(parsed) not in sizes:
        raise _count_error(len(parsed), sizes, g.name)
    value = walker.evaluate(parsed)
    assert value is not None  # distinct cards of the deck, as many as the game's hands hold
    return value


if TYPE_CHECKING:
    evaluate = _evaluate
else:
    evaluate = entry_point(_evaluate) or _evaluate
