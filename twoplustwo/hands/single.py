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

from twoplustwo.kernels.choice import core, extension
from twoplustwo.tables.load import HandViews, Tables, get_tables
from twoplustwo.vocab.cards import CardLike, parse_cards
from twoplustwo.vocab.games import HOLDEM, Game, resolve

# typing itself costs milliseconds to import, which a fresh process's first
# evaluate() would pay: its names are for the type checker only.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    import numpy as np
    import numpy.typing as npt

__all__ = ["evaluate"]


_BITS = tuple(1 << i for i in range(52)) + (0,) * 52


def _count_error(n: int) -> ValueError:
    return ValueError(f"a hand has 5, 6 or 7 cards, got {n}")


def _evaluate_parsed(w: HandViews, cards: Sequence[int]) -> int:
    n = len(cards)
    if n not in (5, 6, 7):
        raise _count_error(n)
    node = 0
    for layer, card in zip((w.l1, w.l2, w.l3, w.l4, w.l5, w.l6, w.l7), cards):
        node = layer[node * 52 + card]
    if n == 5:
        return w.v5[node]
    if n == 6:
        return w.v6[node]
    return node


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
    """
    if game != HOLDEM:
        return _evaluate_game(cards, game, tables)
    t = get_tables(tables)
    walker = t.walker
    if walker is not None:
        # C backend: distinct ints in a list or tuple are evaluated at once;
        # anything else is parsed (which names a bad card), then evaluated.
        value: int | None = walker.evaluate(cards)
        if value is None:
            parsed = parse_cards(cards)
            value = walker.evaluate(parsed)
            if value is None:
                raise _count_error(len(parsed))
        return value
    w = t.hand_views
    if type(cards) is tuple or type(cards) is list:
        hand: Any = cards  # any items at all: the checks below sort them out
        if len(hand) == 7:
            # The hot path: seven ints, checked with one bit per card from a
            # table. Cards 52..103 read 0, so they, like a duplicate, leave
            # fewer than 7 bits set; larger ones fail the lookup; negative ones
            # (which index from the end) fail the sign test of the OR. All fall
            # through to the slow path, which names the problem. bool is an int
            # subclass, hence the type checks.
            try:
                a, b, c, d, e, f, g = hand
                m = _BITS[a] | _BITS[b] | _BITS[c] | _BITS[d] | _BITS[e] | _BITS[f] | _BITS[g]
            except (TypeError, IndexError):
                m = 0
            if (
                m.bit_count() == 7
                and a | b | c | d | e | f | g >= 0
                and type(a) is int
                and type(b) is int
                and type(c) is int
                and type(d) is int
                and type(e) is int
                and type(f) is int
                and type(g) is int
            ):
                return w.l7[
                    w.l6[w.l5[w.l4[w.l3[w.l2[w.l1[a] * 52 + b] * 52 + c] * 52 + d] * 52 + e] * 52 + f]
                    * 52
                    + g
                ]
        ints = _distinct_ints(cards)
        if ints is not None:
            return _evaluate_parsed(w, ints)
    return _evaluate_parsed(w, parse_cards(cards))


_evaluate.__name__ = _evaluate.__qualname__ = "evaluate"


def _evaluate_game(cards: Any, game: str, tables: Tables | None) -> int:
    """:func:`evaluate` for a game other than hold'em: its DAG walked, no small tables."""
    g = resolve(game, tables)
    walker = g.walker
    if walker is not None:
        if tables is None:
            ext = extension()
            if ext is not None:
                # The C entry point serves this game's next calls itself,
                # under the plain name (game may be a str subclass).
                ext.set_game(g.name, walker)
        # Distinct ints of the deck (or plain card text) at once; anything
        # else is parsed and explained below, as on the numpy path.
        value: int | None = walker.evaluate(cards)
        if value is not None:
            return value
    parsed = parse_cards(cards)
    g.check_cards(parsed)
    if len(parsed) not in (5, 6, 7):
        raise _count_error(len(parsed))
    if walker is not None:
        value = walker.evaluate(parsed)
        assert value is not None  # distinct cards of the deck, 5 to 7 of them
        return value
    return _walk_game(g, parsed)


def _walk_game(g: Game, cards: Sequence[int]) -> int:
    """The value of checked ``cards`` down the first layers of ``g``'s DAG, then ``value5`` or ``value6``."""
    node = 0
    for layer, card in zip(g.tables.layer_views(g.dag), cards):
        node = layer[node * 52 + card]
    n = len(cards)
    return node if n == 7 else g.tables.native_view(f"{g.dag}/value{n}")[node]


def _entry_point() -> Any:
    """The C extension's evaluate (the default tables without a Python frame), or None."""
    ext = extension()
    if ext is None or core() is None:
        return None
    ext.set_fallback(_evaluate)
    return ext.evaluate


if TYPE_CHECKING:
    evaluate = _evaluate
else:
    evaluate = _entry_point() or _evaluate


def _distinct_ints(cards: Sequence[Any]) -> Sequence[int] | None:
    """``cards`` if it is distinct plain ints 0..51, else None (for parse_cards to explain)."""
    m = 0
    for x in cards:
        if type(x) is not int or not 0 <= x <= 51:
            return None
        m |= _BITS[x]
    return cards if m.bit_count() == len(cards) else None
