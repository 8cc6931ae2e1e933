"""Starting-hand ranges in PokerStove/Equilab notation, over the 1,326 two-card combos.

:func:`parse_range` reads the notation of PokerStove and Equilab into a
:class:`Range`, a set of two-card combos each with a weight in (0, 1]:

>>> len(parse_range("QQ+,AKs"))
22
>>> r = parse_range("[50]random[/50], 99-66, A5s-A2s, KTo+, AhKh")
>>> len(r), r.weight_of("AhKh"), r.weight_of("AsKs"), r.weight_of("9c9d")
(1326, 1.0, 0.5, 1.0)

Items are separated by commas and/or blanks; blank text is the empty range.
An item is one of:

* ``random`` or ``any``, in any case: all 1,326 combos;
* a pair ``QQ``, ``QQ+`` (queens and better), ``99-66`` (either order);
* a class ``AKs``, ``AKo`` or ``AK`` (suited and offsuit, 16 combos), higher
  rank first;
* ``A2s+`` raises the kicker up to one below the top card (``A2s`` .. ``AKs``),
  ``K9o-K6o`` covers the kickers between its ends inclusive (either order);
* a hand ``AhKh``: two cards of two characters each, as
  :func:`twoplustwo.vocab.cards.parse_card` spells them.

Ranks are ``2``-``9``, ``T`` or ``10``, ``J``, ``Q``, ``K``, ``A``, and every
letter may be in either case (``aks`` is ``AKs``). Items between ``[w]`` and
``[/w]`` weigh ``w / 100``, ``w`` a decimal number in (0, 100]; other items
weigh 1; brackets do not nest, and ``[/w]`` must repeat the weight of the
open ``[w]``; ``w`` has at most 1,000 characters. An item that repeats a
combo overrides its weight: the later item wins, so ``[50]AKs[/50],AhKh``
holds AhKh at weight 1.

``str()`` gives the canonical notation, which parses back to the same range:

>>> str(parse_range("KK, AA, AKs, AQs, AJs, AhKh, AdKd, [25]Q9o-Q7o, 87s[/25]"))
'KK+,AJs+,[25]87s,Q9o-Q7o[/25]'

A bad item raises :class:`ValueError` naming it (cut to 40 characters and
``...`` if longer), its number (items count from 1) and the 0-based
offset of its first character in the text:

>>> parse_range("QQ+, AKs, AAs")
Traceback (most recent call last):
...
ValueError: item 3 ('AAs') at offset 10: a pair cannot be suited or offsuit

A bad bracket is named with its offset the same way:

>>> parse_range("[50]AKs,QQ[/40]")
Traceback (most recent call last):
...
ValueError: bracket '[/40]' at offset 10: does not match '[50]' at offset 0

The combos and the 169 starting-hand classes themselves are in
:mod:`twoplustwo.vocab.combos`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from twoplustwo.vocab.cards import RANKS, CardLike, parse_card, parse_cards
from twoplustwo.vocab.combos import (
    ALL_ROWS,
    CLASS_OF,
    CLASS_ROWS,
    CLASS_SIZE,
    COMBO_ROW,
    COMBOS,
    N_COMBOS,
    card_name,
    combo_indices,
    offsuit_class,
    pair_class,
    suited_class,
)

__all__ = ["Range", "class_combos", "class_index", "parse_range"]

_RANK = r"(10|[2-9tjqka])"
# Two ranks and an optional suitedness letter: one end of a class item.
_CLASS_RE = re.compile(_RANK + _RANK + r"([so]?)", re.IGNORECASE)
_SUIT = "[cdhs\u2663\u2666\u2665\u2660\u2667\u2662\u2661\u2664]"
# Rank, suit, rank, suit with one-character ranks, so "10" never appears.
_HAND_RE = re.compile(f"[2-9tjqka]{_SUIT}[2-9tjqka]{_SUIT}", re.IGNORECASE)
_WEIGHT_RE = re.compile(r"[0-9]+(\.[0-9]*)?|\.[0-9]+")
# Emoji keyboards append VARIATION SELECTOR-16 to suit symbols.
_VS16 = "\ufe0f"
_RANK_OF = {ch: r for r, ch in enumerate(RANKS)}
_RANK_OF["10"] = 8

_SYNTAX = "expected a class like 'AKs', 'QQ+', 'A2s+' or 'A5s-A2s', a hand like 'AhKh', or 'random'"

# The longest weight read, in characters: far beyond any weight a float
# tells apart (the canonical notation writes at most about 330), and short
# enough that reading it as a fraction costs nothing.
_MAX_WEIGHT = 1000
# The most characters of the user's text a message quotes (escapes included).
_ECHO = 40


def _quote(text: str) -> str:
    """``text`` quoted for a message, cut to :data:`_ECHO` characters and ``...``: short whatever the input."""
    # ascii(): the message is the same bytes whatever the terminal's locale.
    # An escape (\u2660) counts its length, so a cut never splits one.
    shown = text[:_ECHO]
    while len(ascii(shown)) > _ECHO + 2:
        shown = shown[:-1]
    return ascii(shown) if shown == text else ascii(shown) + "..."


class _ItemError(Exception):
    """Why one item is wrong; the parser adds which item it is."""


def _class_end(text: str) -> tuple[int, int, str]:
    # One end of a class item as (higher rank, lower rank, "s" | "o" | "").
    m = _CLASS_RE.fullmatch(text)
    if m is None:
        raise _ItemError(_SYNTAX)
    first, second = _RANK_OF[m[1].upper()], _RANK_OF[m[2].upper()]
    kind = m[3].lower()
    if first == second and kind:
        raise _ItemError("a pair cannot be suited or offsuit")
    if first < second:
        raise _ItemError(f"write the higher rank first ({ascii(m[2] + m[1] + m[3])})")
    return first, second, kind


def _nonpair_classes(top: int, kickers: Iterable[int], kind: str) -> list[int]:
    if kind == "s":
        return [suited_class(top, k) for k in kickers]
    return [offsuit_class(top, k) for k in kickers]


def _item_classes(text: str) -> list[int]:
    # The classes a class item covers, or _ItemError.
    plus = text.endswith("+")
    body = text[:-1] if plus else text
    if "+" in body:
        raise _ItemError("'+' must come last, as in 'QQ+' or 'A2s+'")
    ends = body.split("-")
    if len(ends) > 2:
        raise _ItemError(_SYNTAX)
    if len(ends) == 2 and plus:
        raise _ItemError("a range has either '+' or '-', not both")
    high, low, kind = _class_end(ends[0])
    if len(ends) == 2:
        high2, low2, kind2 = _class_end(ends[1])
        if (high == low) != (high2 == low2):
            raise _ItemError("a '-' range joins two pairs or two non-pairs")
        if high == low:
            return [pair_class(r) for r in range(min(high, high2), max(high, high2) + 1)]
        if high != high2:
            raise _ItemError("both ends of a '-' range need the same top card, as in 'A5s-A2s'")
        if not kind or not kind2:
            raise _ItemError("both ends of a '-' range of non-pairs need 's' or 'o', as in 'A5s-A2s'")
        if kind != kind2:
            raise _ItemError("both ends of a '-' range must be suited or both offsuit")
        return _nonpair_classes(high, range(min(low, low2), max(low, low2) + 1), kind)
    if high == low:
        return [pair_class(r) for r in range(high, 13 if plus else high + 1)]
    if not kind:
        if plus:
            raise _ItemError(f"a '+' on a non-pair needs 's' or 'o', as in {ascii(body + 's+')}")
        return [suited_class(high, low), offsuit_class(high, low)]
    return _nonpair_classes(high, range(low, high if plus else low + 1), kind)


def _item_rows(item: str) -> npt.NDArray[np.intp]:
    # The rows of COMBOS that one item covers, or _ItemError.
    text = item.replace(_VS16, "")
    if text.lower() in ("random", "any"):
        return ALL_ROWS
    if _HAND_RE.fullmatch(text):
        a, b = parse_card(text[:2]), parse_card(text[2:])
        if a == b:
            raise _ItemError("the same card twice")
        return np.array([COMBO_ROW[a, b]], dtype=np.intp)
    if len(text) == 2 and _HAND_RE.fullmatch(text + text):
        raise _ItemError("one card is not a hand (write two cards, as in 'AhKh')")
    return np.concatenate([CLASS_ROWS[c] for c in _item_classes(text)])


def _item_error(number: int, item: str, offset: int, why: str) -> ValueError:
    return ValueError(f"item {number} ({_quote(item)}) at offset {offset}: {why}")


def _bracket_error(tag: str, offset: int, why: str) -> ValueError:
    return ValueError(f"bracket {_quote(tag)} at offset {offset}: {why}")


def _parse(text: str) -> npt.NDArray[np.float64]:
    weights = np.zeros(N_COMBOS)
    weight = 1.0
    # The open bracket as (its text, its offset, its weight in percent).
    open_tag: tuple[str, int, Fraction] | None = None
    items = 0
    # What came last, ignoring blanks: a comma right after the start or after
    # another comma, or right before the end, leaves an empty item.
    last = "start"
    pos, n = 0, len(text)
    while pos < n:
        ch = text[pos]
        if ch.isspace():
            pos += 1
        elif ch == ",":
            if last != "other":
                raise _item_error(items + 1, "", pos, "empty item")
            last = "comma"
            pos += 1
        elif ch == "[":
            end = text.find("]", pos)
            if end < 0:
                raise _bracket_error("[", pos, "no ']' closes it")
            tag = text[pos : end + 1]
            inner = tag[1:-1]
            closing = inner.startswith("/")
            number = inner[1:] if closing else inner
            if not _WEIGHT_RE.fullmatch(number):
                raise _bracket_error(tag, pos, "expected a weight in percent, as in '[50]' .. '[/50]'")
            if len(number) > _MAX_WEIGHT:
                # Python refuses to read an int of more than 4,300 digits, with a message naming no bracket.
                raise _bracket_error(tag, pos, f"a weight has at most {_MAX_WEIGHT:,} characters")
            percent = Fraction(number)
            if not 0 < percent <= 100:
                raise _bracket_error(tag, pos, "a weight must be more than 0 and at most 100")
            if closing:
                if open_tag is None:
                    raise _bracket_error(tag, pos, "no bracket is open")
                if percent != open_tag[2]:
                    raise _bracket_error(tag, pos, f"does not match {_quote(open_tag[0])} at offset {open_tag[1]}")
                open_tag, weight = None, 1.0
            else:
                if open_tag is not None:
                    why = f"brackets do not nest ({_quote(open_tag[0])} at offset {open_tag[1]} is open)"
                    raise _bracket_error(tag, pos, why)
                # Fraction to float rounds once, so "[33.3]" weighs exactly 0.333.
                weight = float(percent / 100)
                if weight == 0.0:
                    raise _bracket_error(tag, pos, "the weight is too small for a float")
                open_tag = (tag, pos, percent)
            last = "other"
            pos = end + 1
        elif ch == "]":
            raise _bracket_error("]", pos, "no '[' opens it")
        else:
            end = pos
            while end < n and not text[end].isspace() and text[end] not in ",[]":
                end += 1
            items += 1
            item = text[pos:end]
            try:
                weights[_item_rows(item)] = weight
            except _ItemError as e:
                raise _item_error(items, item, pos, str(e)) from None
            last = "other"
            pos = end
    if last == "comma":
        raise _item_error(items + 1, "", n, "empty item")
    if open_tag is not None:
        raise _bracket_error(open_tag[0], open_tag[1], "no closing bracket")
    return weights


def parse_range(text: str) -> Range:
    """Parse a range written in PokerStove/Equilab notation (see the module docstring).

    Blank text is the empty range.

    >>> r = parse_range("[50]AKs, QQ[/50], AhKh")
    >>> len(r), r.weight_of("AhKh"), r.weight_of("AdKd"), r.weight_of("QsQh")
    (10, 1.0, 0.5, 0.5)
    >>> len(parse_range("random")), len(parse_range("AK")), len(parse_range("22+"))
    (1326, 16, 78)
    >>> parse_range("AKs,,QQ")
    Traceback (most recent call last):
    ...
    ValueError: item 2 ('') at offset 4: empty item
    """
    if not isinstance(text, str):
        raise TypeError(f"expected a range as a str, got {type(text).__name__}")
    return Range(_parse(text))


def class_index(name: str) -> int:
    """The position of a class name in ``HAND_CLASSES``, read as :func:`class_combos` reads it.

    >>> class_index("AA"), class_index("aks"), class_index("32o"), class_index("22")
    (0, 1, 167, 168)
    """
    try:
        high, low, kind = _class_end(name)
        if high != low and not kind:
            raise _ItemError("say 's' or 'o' after a non-pair class")
    except _ItemError as e:
        raise ValueError(f"{_quote(name)} is not a hand class: {e}") from None
    if high == low:
        return pair_class(high)
    return suited_class(high, low) if kind == "s" else offsuit_class(high, low)


def class_combos(name: str) -> npt.NDArray[np.uint8]:
    """The combos of one of the 169 starting-hand classes, higher card first, in ``COMBOS`` order.

    A pair has 6 combos, a suited class 4 and an offsuit class 12. Letters may
    be in either case and ``10`` may stand for ``T``.

    >>> class_combos("AKs").tolist()
    [[48, 44], [49, 45], [50, 46], [51, 47]]
    >>> len(class_combos("qq")), len(class_combos("T9o"))
    (6, 12)
    """
    out: npt.NDArray[np.uint8] = COMBOS[CLASS_ROWS[class_index(name)]][:, ::-1].copy()
    return out


def _percent(weight: float) -> str:
    # repr() gives the shortest decimal that reads back as the same float;
    # moving its point two places keeps it exact, so "[w]" reads back as weight.
    return format(Decimal(repr(weight)).scaleb(2).normalize(), "f")


def _runs(ranks: list[int]) -> list[tuple[int, int]]:
    # Maximal runs of consecutive ranks, as (highest, lowest); ranks descending.
    runs: list[tuple[int, int]] = []
    for r in ranks:
        if runs and runs[-1][1] == r + 1:
            runs[-1] = (runs[-1][0], r)
        else:
            runs.append((r, r))
    return runs


def _items(present: npt.NDArray[np.bool_]) -> list[str]:
    # Canonical items covering exactly the rows where present is True.
    if present.all():
        return ["random"]
    full = np.bincount(CLASS_OF[present], minlength=169) == CLASS_SIZE
    # Ranks of the whole classes, keyed by kind ("" for pairs) and top card;
    # the grid order lists each key's ranks from high to low.
    whole: dict[tuple[str, int], list[int]] = {}
    for c in np.flatnonzero(full).tolist():
        row, col = divmod(c, 13)
        if row == col:
            whole.setdefault(("", 0), []).append(12 - row)
        elif row < col:
            whole.setdefault(("s", 12 - row), []).append(12 - col)
        else:
            whole.setdefault(("o", 12 - col), []).append(12 - row)
    items: list[str] = []
    for high, low in _runs(whole.get(("", 0), [])):
        p, q = RANKS[high] * 2, RANKS[low] * 2
        if high == low:
            items.append(p)
        elif high == 12:
            items.append(q + "+")
        else:
            items.append(f"{p}-{q}")
    suited_items: list[str] = []
    offsuit_items: list[str] = []
    for top in range(12, 0, -1):
        if ("s", top) not in whole and ("o", top) not in whole:
            continue
        suited = _runs(whole.get(("s", top), []))
        offsuit = _runs(whole.get(("o", top), []))
        # AKs and AKo alone are written "AK"; longer runs keep their letter,
        # since "AT+" is not part of the notation.
        both = {run for run in suited if run[0] == run[1] and run in offsuit}
        for runs, kind, out in ((suited, "s", suited_items), (offsuit, "o", offsuit_items)):
            t = RANKS[top]
            for high, low in runs:
                if (high, low) in both:
                    if kind == "s":
                        out.append(t + RANKS[high])
                elif high == low:
                    out.append(t + RANKS[high] + kind)
                elif high == top - 1:
                    out.append(t + RANKS[low] + kind + "+")
                else:
                    out.append(f"{t}{RANKS[high]}{kind}-{t}{RANKS[low]}{kind}")
    items += suited_items + offsuit_items
    loose = np.flatnonzero(present & ~full[CLASS_OF])
    hands = sorted(((int(COMBOS[i, 1]), int(COMBOS[i, 0])) for i in loose), reverse=True)
    items += [card_name(a) + card_name(b) for a, b in hands]
    return items


def _combo_row(combo: object) -> int:
    if isinstance(combo, (str, Sequence, np.ndarray)):
        cards = parse_cards(combo)
    else:
        raise TypeError(f"expected a hand like 'AhKh' or a pair of cards, got {type(combo).__name__}")
    if len(cards) != 2:
        raise ValueError(f"a hand has 2 cards, got {len(cards)}")
    return int(COMBO_ROW[cards[0], cards[1]])


class Range:
    """An immutable set of two-card combos, each with a weight in (0, 1].

    ``Range(weights)`` takes the weight of every row of :data:`COMBOS`, 0 for a
    combo not in the range (a bool mask of the rows works too); :func:`parse_range` and :meth:`from_combos` are the
    usual ways to make one. Ranges compare equal when they hold the same combos
    with the same weights, and are hashable.

    :attr:`combos` lists the combos as rows of card ints, higher card first,
    in :data:`COMBOS` order (by lower card, then higher card); :attr:`weights`
    gives their weights.

    >>> r = parse_range("KK+")
    >>> len(r), r.combos[:2].tolist(), r.weights[:2].tolist()
    (12, [[45, 44], [46, 44]], [1.0, 1.0])
    >>> "KdKc" in r, ("As", "Ah") in r, "AhKh" in r
    (True, True, False)
    >>> r == parse_range("AA, KK"), str(r), r
    (True, 'KK+', parse_range('KK+'))
    """

    __slots__ = ("_dense", "_rows", "_combos", "_weights", "_hash")

    def __init__(self, weights: npt.ArrayLike) -> None:
        w = np.asarray(weights)
        if w.shape != (N_COMBOS,):
            raise ValueError(f"expected {N_COMBOS} weights, one per row of COMBOS, got shape {w.shape}")
        if w.dtype.kind not in "biuf":
            raise ValueError(f"expected real weights, got dtype {w.dtype}")
        w = w.astype(np.float64)
        # -0.0 equals 0.0 but has other bytes, which would split the hash.
        w[w == 0] = 0.0
        bad = np.flatnonzero(~((w >= 0) & (w <= 1)))
        if bad.size:
            i = int(bad[0])
            raise ValueError(f"weight {w[i]} of combo {i} is not in [0, 1]")
        w.setflags(write=False)
        self._dense: npt.NDArray[np.float64] = w
        self._rows = np.flatnonzero(w)
        self._combos: npt.NDArray[np.uint8] = np.ascontiguousarray(COMBOS[self._rows][:, ::-1])
        self._combos.setflags(write=False)
        self._weights: npt.NDArray[np.float64] = w[self._rows]
        self._weights.setflags(write=False)
        self._hash = hash(w.tobytes())

    @classmethod
    def from_combos(cls, combos: npt.ArrayLike, weights: npt.ArrayLike | None = None) -> Range:
        """A range from an ``(n, 2)`` array of card ints, cards of a row in either order.

        ``weights`` is one weight in (0, 1] for all (default 1) or one per row.
        A combo given twice takes the weight of its later row.

        >>> r = Range.from_combos([[51, 47], [0, 1], [47, 51]], [0.5, 1, 0.25])
        >>> str(r), len(r)
        ('2d2c,[25]AsKs[/25]', 2)
        """
        arr = np.asarray(combos)
        if arr.size == 0:
            arr = arr.reshape(0, 2).astype(np.intp)
        if arr.ndim != 2 or arr.shape[1] != 2:
            raise ValueError(f"expected an (n, 2) array of card ints, got shape {arr.shape}")
        rows = combo_indices(arr[:, 0], arr[:, 1])
        w = np.broadcast_to(np.asarray(1.0 if weights is None else weights), rows.shape)
        if w.dtype.kind not in "iuf":
            raise ValueError(f"expected real weights, got dtype {w.dtype}")
        bad = np.flatnonzero(~((w > 0) & (w <= 1)))
        if bad.size:
            i = int(bad[0])
            raise ValueError(f"weight {w[i]} of row {i} is not in (0, 1]")
        dense = np.zeros(N_COMBOS)
        # The last occurrence of each combo wins: reverse, keep first occurrences.
        _, first = np.unique(rows[::-1], return_index=True)
        keep = len(rows) - 1 - first
        dense[rows[keep]] = w[keep]
        return cls(dense)

    @property
    def combos(self) -> npt.NDArray[np.uint8]:
        """The ``(n, 2)`` card ints of the combos, higher card first, read-only."""
        return self._combos

    @property
    def weights(self) -> npt.NDArray[np.float64]:
        """The ``(n,)`` weights of :attr:`combos`, each in (0, 1], read-only."""
        return self._weights

    @property
    def dense(self) -> npt.NDArray[np.float64]:
        """The weight of every row of :data:`COMBOS`, 0 where absent, read-only."""
        return self._dense

    def weight_of(self, combo: str | Sequence[CardLike] | npt.NDArray[Any]) -> float:
        """The weight of one combo (``'AhKh'`` or two cards), 0.0 if it is not in the range."""
        return float(self._dense[_combo_row(combo)])

    def __contains__(self, combo: object) -> bool:
        return bool(self._dense[_combo_row(combo)] > 0)

    def __len__(self) -> int:
        return len(self._rows)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Range):
            return NotImplemented
        return bool(np.array_equal(self._dense, other._dense))

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        """The canonical notation: weight 1 first, then brackets by falling weight.

        Within one weight: pairs (``QQ+``, ``99-66``, ``55``), then suited
        classes and kicker runs by top card, then offsuit ones, then the combos
        of partly covered classes as hands, highest first; see the module
        docstring for an example.
        """
        w = self._dense
        groups: list[str] = []
        if (w == 1).any():
            groups.append(",".join(_items(w == 1)))
        for value in sorted(set(w[(w > 0) & (w < 1)].tolist()), reverse=True):
            p = _percent(value)
            groups.append(f"[{p}]" + ",".join(_items(w == value)) + f"[/{p}]")
        return ",".join(groups)

    def __repr__(self) -> str:
        return f"parse_range({str(self)!r})"
