"""Cards as small ints, and their conversion to and from text.

A card is an int ``0..51`` equal to ``rank * 4 + suit``: rank 0 is a deuce
and 12 an ace; suit 0 is clubs, 1 diamonds, 2 hearts, 3 spades. So
``card >> 2`` is the rank and ``card & 3`` the suit.

Text cards are a rank (``2``-``9``, ``T`` or ``10``, ``J``, ``Q``, ``K``,
``A``, either case) followed by a suit (``c d h s`` in either case, or
``♣ ♦ ♥ ♠``):

>>> parse_cards("As Kd, 10♥ 2c")
[51, 45, 34, 0]
>>> format_cards([51, 45, 34, 0])
'As Kd Th 2c'

Every malformed input raises :class:`ValueError` naming the offending token
and its 0-based position:

>>> parse_cards("As Kd Qh Xs")
Traceback (most recent call last):
...
ValueError: card 3 ('Xs'): unknown rank 'X'
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Iterable, Sequence

# typing's names are for the type checker only (twoplustwo/__init__.py says why).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    import numpy as np
    import numpy.typing as npt

__all__ = [
    "RANKS",
    "SUITS",
    "CardLike",
    "Cards",
    "check_disjoint",
    "format_card",
    "format_cards",
    "parse_card",
    "parse_cards",
    "parse_deal",
    "parse_words",
]

#: Rank characters in rank order, as :func:`format_card` writes them.
RANKS = "23456789TJQKA"
#: Suit characters in suit order, as :func:`format_card` writes them.
SUITS = "cdhs"

#: Anything :func:`parse_card` accepts.
if TYPE_CHECKING:
    CardLike = int | np.integer | str
else:
    CardLike = int | str  # and numpy ints, which only exist once their caller imported numpy

#: Several cards as the public functions take them: one string, card strings or ints, or an integer array.
if TYPE_CHECKING:
    Cards = str | Sequence[CardLike] | npt.NDArray[np.integer[Any]]
else:
    Cards = str | Sequence[CardLike]  # and integer arrays, which only exist once their caller imported numpy

_RANK_OF: dict[str, int] = {ch: r for r, ch in enumerate(RANKS)}
_RANK_OF["10"] = 8
_SUIT_OF: dict[str, int] = {ch: s for s, ch in enumerate(SUITS)}
# Filled and outlined suit symbols are both common in pasted text.
_SUIT_OF.update({ch: s for s, ch in enumerate("♣♦♥♠")})
_SUIT_OF.update({ch: s for s, ch in enumerate("♧♢♡♤")})

# Emoji keyboards append VARIATION SELECTOR-16 to suit symbols ("♠️").
_VS16 = "\ufe0f"
# A comma (with optional blanks around it) or a run of blanks separates cards;
# two commas in a row therefore leave an empty token, which is reported.
_SEPARATOR = re.compile(r"\s*,\s*|\s+")


def _numpy() -> Any:
    """numpy if something imported it already, else None: then no value can be a numpy object.

    Parsing cards must not import numpy itself, so that a fresh process's
    first evaluate() stays cheap.
    """
    return sys.modules.get("numpy")


def _fail(pos: int, token: object, why: str) -> ValueError:
    np = _numpy()
    # np.int64(52) would print as "np.int64(52)"; the number is what matters.
    shown = token.item() if np is not None and isinstance(token, np.generic) else token
    # ascii(): the message is the same bytes whatever the terminal's locale.
    return ValueError(f"card {pos} ({ascii(shown)}): {why}")


def _parse_str(token: str, pos: int) -> int:
    text = token.strip().replace(_VS16, "")
    if not text:
        raise _fail(pos, token, "empty token")
    if text.isascii() and text.isdigit() and len(text) > 1 and text != "10":
        # "51" is card 51 written as text, not a five of suit "1".
        raise _fail(pos, token, "a number where a card name belongs (pass card ints 0..51 as ints)")
    rank_len = 2 if text.startswith("10") else 1
    rank_text, suit_text = text[:rank_len], text[rank_len:]
    rank = _RANK_OF.get(rank_text.upper())
    if rank is None:
        raise _fail(pos, token, f"unknown rank {ascii(rank_text)}")
    if not suit_text:
        raise _fail(pos, token, "missing suit")
    suit = _SUIT_OF.get(suit_text.lower())
    if suit is None:
        raise _fail(pos, token, f"unknown suit {ascii(suit_text)} (suits are c, d, h, s or the four suit symbols)")
    return rank * 4 + suit


def _parse_one(token: object, pos: int) -> int:
    np = _numpy()
    # bool is an int subclass, but True is a programming error, not card 1.
    if isinstance(token, bool) or (np is not None and isinstance(token, np.bool_)):
        raise _fail(pos, token, "a bool is not a card")
    if isinstance(token, int) or (np is not None and isinstance(token, np.integer)):
        if not 0 <= token <= 51:
            raise _fail(pos, token, "out of range 0..51")
        return int(token)
    if isinstance(token, str):
        return _parse_str(token, pos)
    raise _fail(
        pos,
        token,
        f"expected an int 0..51 or a string like 'As', got {type(token).__name__}",
    )


def parse_card(token: CardLike) -> int:
    """Return the card ``0..51`` for one token: a card string or an int.

    >>> parse_card("As"), parse_card("td"), parse_card("10♥"), parse_card("2C")
    (51, 33, 34, 0)
    >>> parse_card(7)
    7
    >>> parse_card("Ax")
    Traceback (most recent call last):
    ...
    ValueError: card 0 ('Ax'): unknown suit 'x' (suits are c, d, h, s or the four suit symbols)
    """
    return _parse_one(token, 0)


def _split(text: str) -> list[str]:
    # Each separated chunk may hold several cards written back to back
    # ("AsKd"); a rank is one character except "10", the suit is the next one.
    text = text.replace(_VS16, "").strip()
    if not text:
        return []
    tokens: list[str] = []
    for chunk in _SEPARATOR.split(text):
        if not chunk:
            tokens.append(chunk)
        i = 0
        while i < len(chunk):
            step = 3 if chunk.startswith("10", i) else 2
            tokens.append(chunk[i : i + step])
            i += step
    return tokens


def _from_array(arr: npt.NDArray[Any]) -> list[int]:
    from twoplustwo.vocab.inputs import refuse_masked

    # A masked entry has no card to give; guessing one would be a wrong answer.
    refuse_masked(arr, "cards")
    if arr.ndim != 1:
        raise ValueError(f"expected a 1-D array of cards, got {arr.ndim}-D")
    if arr.dtype.kind not in "iu":
        raise ValueError(f"cards must be integers, got dtype {arr.dtype}")  # as vocab.inputs words it
    # A hand's few cards: Python ints checked one by one beat numpy's whole-array passes.
    cards: list[int] = arr.tolist()
    for i, c in enumerate(cards):
        if not 0 <= c <= 51:
            raise _fail(i, c, "out of range 0..51")  # the value checked, not a second read of the array
    return cards


def parse_cards(cards: Cards) -> list[int]:
    """Parse several distinct cards into a list of ints, keeping their order.

    ``cards`` is a string of cards separated by blanks and/or commas or
    written back to back, a list or tuple mixing ints and card strings, or a
    1-D integer numpy array.

    >>> parse_cards("AsKdQh")
    [51, 45, 42]
    >>> parse_cards(["As", 45, "qH"])
    [51, 45, 42]
    >>> parse_cards("As Kd Qh Jc Kd")
    Traceback (most recent call last):
    ...
    ValueError: card 4 ('Kd'): duplicate of card 1
    """
    if type(cards) is str:
        return list(_parse_text(cards))
    return _parse_any(cards)


@functools.lru_cache(maxsize=4096)
def _parse_text(text: str) -> tuple[int, ...]:
    # The same few texts come back often (a hand, a board in a loop): parsed once each.
    return tuple(_parse_any(text))


def _parse_any(cards: Cards) -> list[int]:
    tokens: Sequence[object] | npt.NDArray[Any]
    np = _numpy()
    if np is not None and isinstance(cards, np.ndarray):
        parsed = _from_array(cards)
        tokens = parsed  # read once: a duplicate is named by the value that was checked
    elif isinstance(cards, str) or (
        isinstance(cards, Sequence) and not isinstance(cards, (bytes, bytearray))
    ):
        tokens = _split(cards) if isinstance(cards, str) else cards
        parsed = [_parse_one(t, i) for i, t in enumerate(tokens)]
    else:
        raise ValueError(
            "expected a string of cards, a list or tuple of cards, or a 1-D "
            f"integer array, got {type(cards).__name__}"
        )
    first_seen: dict[int, int] = {}
    for i, card in enumerate(parsed):
        j = first_seen.setdefault(card, i)
        if j != i:
            raise _fail(i, tokens[i], f"duplicate of card {j}")
    return parsed


def format_card(card: CardLike) -> str:
    """Return the two-character name of a card, e.g. ``'As'``, ``'Td'``.

    >>> format_card(51), format_card(33), format_card(0)
    ('As', 'Td', '2c')
    """
    c = parse_card(card)
    return RANKS[c >> 2] + SUITS[c & 3]


def format_cards(cards: Cards) -> str:
    """Return distinct cards as their names separated by single spaces.

    >>> format_cards([51, 33, 0])
    'As Td 2c'
    """
    return " ".join(RANKS[c >> 2] + SUITS[c & 3] for c in parse_cards(cards))


def check_disjoint(groups: Sequence[tuple[str, Sequence[int]]]) -> None:
    """Raise ``ValueError`` naming the first card that two named groups share.

    >>> check_disjoint([("hand 1", [51, 50]), ("the board", [0, 51, 3])])
    Traceback (most recent call last):
    ...
    ValueError: As is in both hand 1 and the board
    """
    owner: dict[int, str] = {}
    for name, cards in groups:
        for c in cards:
            if c in owner:
                raise ValueError(f"{format_card(c)} is in both {owner[c]} and {name}")
            owner[c] = name


def parse_deal(
    hole: Cards, board: Cards, hole_sizes: Sequence[int], board_sizes: Sequence[int], hands: str, boards: str
) -> tuple[list[int], list[int]]:
    """Hole cards and a board as card lists, checked: a bad card, a size not in ``hole_sizes`` or ``board_sizes``,
    or a card in both, each a ``ValueError`` that says which (``hands`` and ``boards`` state the sizes in words).

    >>> parse_deal("As Kd", "Qh 7c 2d", (2,), (3, 4, 5), "a hand has 2 hole cards", "a board has 3 to 5 cards")
    ([51, 45], [42, 20, 1])
    >>> parse_deal("As Kd", "Qh 7c", (2,), (3, 4, 5), "a hand has 2 hole cards", "a board has 3 to 5 cards")
    Traceback (most recent call last):
    ...
    ValueError: a board has 3 to 5 cards, got 2
    """
    try:
        h = parse_cards(hole)
    except ValueError as e:
        raise ValueError(f"the hole cards: {e}") from None
    try:
        b = parse_cards(board)
    except ValueError as e:
        raise ValueError(f"the board: {e}") from None
    if len(h) not in hole_sizes:
        raise ValueError(f"{hands}, got {len(h)}")
    if len(b) not in board_sizes:
        raise ValueError(f"{boards}, got {len(b)}")
    check_disjoint([("the hole cards", h), ("the board", b)])
    return h, b


def parse_words(words: Iterable[str]) -> list[int]:
    """Cards from words as a command line gives them: card names in any mix of words, or all ints.

    Words are joined, so ``["As", "Kd"]`` and ``["As Kd"]`` are the same
    hand. Words that are all plain ASCII numbers are card ints 0..51.

    >>> parse_words(["As Kd", "7h"])
    [51, 45, 22]
    >>> parse_words(["51", "45", "22"])
    [51, 45, 22]
    >>> parse_words(["As", "Xd"])
    Traceback (most recent call last):
    ...
    ValueError: card 1 ('Xd'): unknown rank 'X'
    """
    text = " ".join(words)
    tokens = [w for w in _SEPARATOR.split(text) if w]
    if tokens and all(w.isascii() and w.isdigit() for w in tokens):
        return parse_cards([int(w) for w in tokens])
    return parse_cards(text)
