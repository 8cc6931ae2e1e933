"""The hand-value contract: 1..7462, higher is stronger, equal is a tie.

A value ``v`` is ``7463 - cactus_kev_rank``. Every value also has a
six-hex-digit *code* (seed 000): the category digit 0..8 followed by the
five significant ranks 0..c in order of significance, e.g. ``0x6999cc`` for
jacks full of aces. Codes sort exactly like hand strength, so the table of
all 7,462 codes in ascending order *is* the value scale: ``CODES[v]`` is the
code of value ``v`` (``CODES[0] == 0`` marks the invalid value 0).

>>> hex(int(CODES[7462]))  # royal flush
'0x8cba98'
>>> int(value_from_code(0x6999cc))
7260

:func:`describe` turns a value into words, :func:`categories` and
:func:`category_of` give just the category:

>>> describe(7260).description
'Full house, jacks full of aces'
>>> category_of(7260)
<Category.FULL_HOUSE: 6>
>>> print(category_of(7260))
full_house

Other games (``game="short-deck"``, ``"short-deck-classic"``) have values
``1..N`` of their own, N = 1404 in short deck, and their categories in
another order, named by the table set's manifest; each game gets a
:class:`GameCategory` enum whose ints follow its order:

>>> describe(877, game="short-deck").description
'Straight, nine high (ace low)'
>>> category_of(1326, game="short-deck"), category_of(1206, game="short-deck")
(<ShortDeckCategory.FLUSH: 6>, <ShortDeckCategory.FULL_HOUSE: 5>)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any

import numpy as np
import numpy.typing as npt

from twoplustwo.vocab.inputs import int_array, refuse_masked
from twoplustwo.vocab.rules import HOLDEM, Rules, rules_of
from twoplustwo.vocab.rules.high import hand_words

__all__ = [
    "HAND_COUNTS",
    "differs_from_published",
    "category_counts",
    "CATEGORIES",
    "CATEGORY_FIRST",
    "CATEGORY_LAST",
    "CODES",
    "N_VALUES",
    "Category",
    "GameCategory",
    "HandDescription",
    "categories",
    "category_of",
    "describe",
    "value_from_code",
]

#: Number of distinct hand values (Cactus Kev's equivalence classes).
N_VALUES = 7462

class Category(IntEnum):
    """A hand category; its int is the category digit of the code, its ``str`` its name.

    :func:`category_of` returns one; :func:`categories` returns arrays of
    their ints, which ``Category(x)`` turns back into members.

    >>> Category.FLUSH > Category.STRAIGHT, str(Category.FLUSH), Category(8).name
    (True, 'flush', 'STRAIGHT_FLUSH')
    """

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    def __str__(self) -> str:
        return self.name.lower()


#: Category names, indexed by the category digit of the code.
CATEGORIES: tuple[str, ...] = tuple(str(c) for c in Category)


#: ``CODES[v]`` is the six-hex-digit code of hand value ``v`` (index 0 unused).
CODES: npt.NDArray[np.uint32] = np.array([0, *rules_of(HOLDEM).codes], dtype=np.uint32)
CODES.setflags(write=False)
assert len(CODES) == N_VALUES + 1

_cats = CODES >> 20
_cats[0] = 99  # value 0 belongs to no category
#: First and last value of each category, indexed like :data:`CATEGORIES`.
CATEGORY_FIRST: tuple[int, ...] = tuple(int(np.argmax(_cats == c)) for c in range(9))
CATEGORY_LAST: tuple[int, ...] = tuple(
    N_VALUES - int(np.argmax(_cats[::-1] == c)) for c in range(9)
)
del _cats


def value_from_code(code: int | npt.ArrayLike) -> npt.NDArray[np.uint16]:
    """Map six-hex-digit codes to hand values, raising on codes that are no hand.

    >>> value_from_code([0x43210c, 0x8cba98]).tolist()
    [5854, 7462]
    """
    refuse_masked(code, "hand codes")
    raw = np.asarray(code)
    if raw.dtype.kind not in "iu" or isinstance(code, bool):
        # A float such as 0x8cba98 + 0.5 would silently truncate to a valid code.
        raise ValueError(f"hand codes must be integers, got {raw.dtype} {code!r}"[:200])
    # Codes are below 2**24; anything larger must not wrap into range.
    c = np.where(raw > 0xFFFFFF, 0xFFFFFF, raw).astype(np.int64) if raw.size else raw.astype(np.int64)
    idx = np.searchsorted(CODES, c)
    ok = (idx <= N_VALUES) & (CODES[np.minimum(idx, N_VALUES)] == c) & (c != 0)
    if not np.all(ok):
        bad = raw[~ok] if raw.ndim else raw
        raise ValueError(f"not a hand code: {hex(int(np.ravel(bad)[0]))}")
    return idx.astype(np.uint16)


# Category of every value, so vectorised decoding is a single gather.
_CATEGORY_OF_VALUE: npt.NDArray[np.uint8] = (CODES >> 20).astype(np.uint8)
_CATEGORY_OF_VALUE.setflags(write=False)

def _check_value(value: object, top: int = N_VALUES) -> int:
    # bool passes isinstance(int) but is always a caller's mistake.
    if (
        isinstance(value, (int, np.integer))
        and not isinstance(value, (bool, np.bool_))
        and 1 <= value <= top
    ):
        return int(value)
    shown = value.item() if isinstance(value, np.generic) else value
    raise ValueError(f"hand value must be an int in 1..{top}, got {shown!r}")


class GameCategory(IntEnum):
    """The base of the category enums of games other than hold'em, made from the manifest's names.

    A member's int is its place in the game's order, weakest first, and its
    ``str`` its name as :class:`Category` writes names:

    >>> c = category_of(1206, game="short-deck")
    >>> type(c).__name__, str(c), [str(x) for x in type(c)][3:5]
    ('ShortDeckCategory', 'full_house', ['straight', 'three_of_a_kind'])
    """

    def __str__(self) -> str:
        return self.name.lower()


@dataclass(frozen=True, repr=False)
class HandDescription:
    """Everything a hand value stands for; ``str()`` gives the words.

    ``ranks`` are the five rank digits of ``code`` in order of significance
    (0 = deuce .. 12 = ace), so the wheel's ace comes last: ``(3, 2, 1, 0, 12)``.

    In another game, ``category`` is a member of the game's
    :class:`GameCategory` enum, the first digit of ``code`` is its int (its
    place in the game's order), and ``cactus_kev_rank`` counts from the top
    in the same way: N + 1 - value for a game of N values. A game without
    categories (razz, ace-to-five) has ``category`` None and a code of its
    ranks alone; its rules module says how a low's code reads.
    """

    value: int
    category: Category | GameCategory | None
    code: int
    ranks: tuple[int, int, int, int, int]
    cactus_kev_rank: int
    description: str

    def __str__(self) -> str:
        return self.description

    def __repr__(self) -> str:
        # The code in hex, as the category digit and five rank digits read.
        return (
            f"HandDescription(value={self.value}, category={self.category!s}, code={self.code:#08x}, "
            f"ranks={self.ranks}, cactus_kev_rank={self.cactus_kev_rank}, description={self.description!r})"
        )


def describe(value: int | np.integer, *, game: str = "holdem", tables: object = None) -> HandDescription:
    """Decode a hand value ``1..7462`` into its category, code and words.

    Wording, one form per category (ranks spelt "two" .. "ace", plurals
    "twos", "sixes", "aces"):

    - ``Royal flush`` / ``Straight flush, nine high``
    - ``Four of a kind, aces, king kicker``
    - ``Full house, jacks full of aces``
    - ``Flush, ace, king, nine, seven, four``
    - ``Straight, queen high`` (the wheel is ``Straight, five high``)
    - ``Three of a kind, sevens, ace and king kickers``
    - ``Two pair, nines and sixes, queen kicker``
    - ``Pair of eights, jack, seven and five kickers``
    - ``High card, ace, king, nine, seven, four``

    >>> d = describe(int(value_from_code(0x27744a)))
    >>> d.category, hex(d.code), d.ranks, d.cactus_kev_rank
    (<Category.TWO_PAIR: 2>, '0x27744a', (7, 7, 4, 4, 10), 3042)
    >>> print(d)
    Two pair, nines and sixes, queen kicker
    >>> describe(0)
    Traceback (most recent call last):
    ...
    ValueError: hand value must be an int in 1..7462, got 0

    ``game`` is as for :func:`~twoplustwo.evaluate`; its values, ranks and
    categories are those of the game, in the same words, and the straight
    whose ace plays low says so: ``Straight, nine high (ace low)`` for
    A-6-7-8-9 in short deck. No game needs tables: its rules
    (:mod:`twoplustwo.vocab.rules`) give its values, categories and words,
    and ``tables`` is accepted and unused, as by every function that takes
    ``game=``.

    >>> d = describe(1326, game="short-deck")
    >>> d.category, hex(d.code), d.description
    (<ShortDeckCategory.FLUSH: 6>, '0x6cba97', 'Flush, ace, king, queen, jack, nine')
    >>> describe(1399, game="short-deck-classic").description
    'Straight flush, nine high (ace low)'

    The lows say a hand as players do: ``"7-5-4-3-2"``, ``"8-6 low:
    8-6-4-3-2"``, ``"Pair of aces, ..."``; badugi by the size of the set it
    plays: ``"three-card badugi 7-4-2"``.

    >>> describe(7462, game="lowball-27").description, describe(6175, game="razz").description
    ('7-5-4-3-2', '5-4-3-2-A')
    >>> d = describe(6000, game="razz")
    >>> d.category, hex(d.code), d.description
    (None, '0x86420', 'T-8 low: T-8-6-4-2')
    >>> describe(300, game="badugi").description
    'three-card badugi 9-8-A'
    """
    if game != HOLDEM:
        return _describe_game(value, rules_of(game))
    v = _check_value(value)
    code = int(CODES[v])
    category = code >> 20
    d = [(code >> shift) & 0xF for shift in (16, 12, 8, 4, 0)]
    ranks = (d[0], d[1], d[2], d[3], d[4])
    return HandDescription(
        value=v,
        category=Category(category),
        code=code,
        ranks=ranks,
        cactus_kev_rank=N_VALUES + 1 - v,
        description=hand_words(category, ranks),
    )


def categories(
    values: npt.ArrayLike, *, game: str = "holdem", tables: object = None
) -> npt.NDArray[np.uint8]:
    """The :class:`Category` ints (0 = high card .. 8 = straight flush) of hand values, as an array.

    The result has the shape of ``values``; any value outside ``1..7462``
    raises ``ValueError``. In another ``game`` (as for
    :func:`~twoplustwo.evaluate`) they are the ints of the game's
    :class:`GameCategory` enum, its places in the game's order (weakest 0),
    and values run from 1 to the game's N.

    >>> categories([1, 1278, 7462]).tolist()
    [0, 1, 8]
    >>> [str(Category(c)) for c in categories([5854, 7260])]
    ['straight', 'full_house']
    >>> categories([877, 883, 1206, 1207], game="short-deck").tolist()  # straight < trips < full house < flush
    [3, 4, 5, 6]
    """
    if game != HOLDEM:
        gv = _values_of(_with_categories(rules_of(game)))
        out: npt.NDArray[np.uint8] = gv.category[_checked_values(values, len(gv.category) - 1)]
        return out
    out = _CATEGORY_OF_VALUE[_checked_values(values, N_VALUES)]
    return out


def _checked_values(values: npt.ArrayLike, top: int) -> npt.NDArray[np.integer[Any]]:
    """``values`` as an integer array, after checking every one is in ``1..top``."""
    v = int_array(values, "hand values")  # a private copy: the values checked are the values looked up
    if v.size and (v.min() < 1 or v.max() > top):
        # Only the error path pays for locating the culprit.
        i = int(np.flatnonzero((v < 1) | (v > top))[0])
        raise ValueError(f"hand values must be in 1..{top}, got {int(v.flat[i])} at flat index {i}")
    return v


def category_of(
    value: int | np.integer[Any], *, game: str = "holdem", tables: object = None
) -> Category | GameCategory:
    """The :class:`Category` of one hand value: the scalar form of :func:`categories`.

    In another ``game``, a member of the game's :class:`GameCategory` enum.

    >>> category_of(7462), str(category_of(1))
    (<Category.STRAIGHT_FLUSH: 8>, 'high_card')
    >>> category_of(900, game="short-deck"), category_of(900, game="short-deck-classic")
    (<ShortDeckCategory.THREE_OF_A_KIND: 4>, <ShortDeckClassicCategory.THREE_OF_A_KIND: 3>)
    >>> category_of(7462, game="lowball-27"), category_of(1092, game="badugi")
    (<Lowball27Category.HIGH_CARD: 8>, <BadugiCategory.BADUGI: 3>)
    >>> category_of(6175, game="razz")
    Traceback (most recent call last):
    ...
    ValueError: razz values have no categories: a low is said by its ranks (describe(value, game='razz'))
    """
    if game != HOLDEM:
        gv = _values_of(_with_categories(rules_of(game)))
        return gv.enum(int(gv.category[_check_value(value, len(gv.category) - 1)]))
    return Category(int(_CATEGORY_OF_VALUE[_check_value(value)]))


# ------------------------------------------------------------ other games


@dataclass(frozen=True)
class _GameValues:
    """What the values of a game other than hold'em stand for, as arrays by value."""

    codes: npt.NDArray[np.uint32]  # as CODES, with the game's category places as first digits
    category: npt.NDArray[np.uint8]  # its category's place in the game's order
    enum: type[GameCategory]


_game_values: dict[str, _GameValues] = {}


def _values_of(rules: Rules) -> _GameValues:
    """The codes, categories and enum of the values of the game of ``rules``, made once per game."""
    gv = _game_values.get(rules.name)
    if gv is not None:
        return gv
    codes = np.array([0, *rules.codes], dtype=np.uint32)
    category = (codes >> 20).astype(np.uint8)
    codes.setflags(write=False)
    category.setflags(write=False)
    words = "".join(w.title() for w in rules.name.split("-")) + "Category"
    members = [(name.upper().replace(" ", "_"), i) for i, (name, _, _) in enumerate(rules.categories)]
    make: Any = GameCategory  # the functional API makes a subclass; the stubs know only lookups by value
    enum: type[GameCategory] = make(words, members)
    gv = _game_values.setdefault(rules.name, _GameValues(codes, category, enum))
    return gv


def _with_categories(rules: Rules) -> Rules:
    """``rules``, after checking that its family has categories (a ``ValueError`` if not)."""
    if not rules.categories:
        raise ValueError(
            f"{rules.name} values have no categories: a low is said by its ranks (describe(value, game={rules.name!r}))"
        )
    return rules


def _describe_game(value: object, rules: Rules) -> HandDescription:
    gv = _values_of(rules)
    v = _check_value(value, rules.values)
    code = int(gv.codes[v])
    return HandDescription(
        value=v,
        category=gv.enum(code >> 20) if rules.categories else None,
        code=code,
        ranks=rules.ranks(v),
        cactus_kev_rank=rules.values + 1 - v,
        description=rules.words(v),
    )


#: Published figures over every ``n``-card hand (n = 5, 6, 7): hands per
#: category, indexed like :data:`CATEGORIES`, and distinct values.
HAND_COUNTS: dict[int, tuple[tuple[int, ...], int]] = {
    5: ((1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 40), 7462),
    6: ((6612900, 9730740, 2532816, 732160, 361620, 205792, 165984, 14664, 1844), 6075),
    7: ((23294460, 58627800, 31433400, 6461620, 6180020, 4047644, 3473184, 224848, 41584), 4824),
}


def category_counts(hist: npt.ArrayLike) -> tuple[int, ...]:
    """Hands per category, indexed like :data:`CATEGORIES`, from a histogram indexed by value.

    >>> h = np.zeros(N_VALUES + 1, dtype=np.int64); h[[1, 7462]] = [3, 4]
    >>> category_counts(h)
    (3, 0, 0, 0, 0, 0, 0, 0, 4)
    """
    h = np.asarray(hist)
    if h.shape != (N_VALUES + 1,):
        raise ValueError(f"a histogram has {N_VALUES + 1} entries (index = value), got shape {h.shape}")
    return tuple(int(h[a : b + 1].sum()) for a, b in zip(CATEGORY_FIRST, CATEGORY_LAST))


def differs_from_published(n: int, hist: npt.ArrayLike) -> str | None:
    """How a histogram of every ``n``-card hand differs from :data:`HAND_COUNTS`, or None.

    The one check behind ``twoplustwo verify`` and the builder's self-check.

    >>> h = np.zeros(N_VALUES + 1, dtype=np.int64); h[1] = 5
    >>> differs_from_published(5, h)
    '5-card straight_flush count is 0, published figure 40'
    """
    want, distinct = HAND_COUNTS[n]
    got = category_counts(hist)
    for c in reversed(range(len(want))):
        if got[c] != want[c]:
            return f"{n}-card {CATEGORIES[c]} count is {got[c]:,}, published figure {want[c]:,}"
    seen = int((np.asarray(hist) > 0).sum())
    if seen != distinct:
        return f"{n}-card hands take {seen:,} distinct values, published figure {distinct:,}"
    return None
