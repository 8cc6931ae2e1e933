"""The grammar of range notation: items, brackets, ``:w`` weights and percents, read into combo weights.

:func:`parse_weights` reads text into the weight of each of the 1,326
combos; :func:`twoplustwo.vocab.ranges.parse_range` wraps that in a
:class:`~twoplustwo.vocab.ranges.Range`, and its module docstring documents
the notation. :func:`class_combos` and :func:`class_index` read one class
name the way items read it.

>>> w = parse_weights("[50]AKs[/50], QQ:0.25")
>>> sorted(set(w.tolist()))
[0.0, 0.25, 0.5]
>>> class_index("AA"), len(class_combos("T9o"))
(0, 12)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from twoplustwo.vocab.cards import RANKS, parse_card
from twoplustwo.vocab.combos import (
    ALL_ROWS,
    CLASS_ROWS,
    COMBO_ROW,
    COMBOS,
    N_COMBOS,
    offsuit_class,
    pair_class,
    suited_class,
)
from twoplustwo.vocab.starting_hands import top_classes

__all__ = ["class_combos", "class_index", "parse_weights"]

_RANK = r"(10|[2-9tjqka])"
# Two ranks and an optional suitedness letter: one end of a class item.
_CLASS_RE = re.compile(_RANK + _RANK + r"([so]?)", re.IGNORECASE)
_SUIT = "[cdhs\u2663\u2666\u2665\u2660\u2667\u2662\u2661\u2664]"
# Rank, suit, rank, suit with one-character ranks, so "10" never appears.
_HAND_RE = re.compile(f"[2-9tjqka]{_SUIT}[2-9tjqka]{_SUIT}", re.IGNORECASE)
_NUMBER = r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+"
_WEIGHT_RE = re.compile(_NUMBER)
_PERCENT_RE = re.compile(f"(?:top\\s*)?({_NUMBER})%(?:-({_NUMBER})%)?", re.IGNORECASE)
# Emoji keyboards append VARIATION SELECTOR-16 to suit symbols.
_VS16 = "\ufe0f"
_RANK_OF = {ch: r for r, ch in enumerate(RANKS)}
_RANK_OF["10"] = 8

_SUFFIXES = "both ends of a '-' range of non-pairs need 's', both 'o' or both neither, as in 'A5s-A2s' or 'A5-A2'"
_SYNTAX = "expected a class like 'AKs', 'QQ+', 'A2s+' or 'A5s-A2s', a hand like 'AhKh', or 'random'"

# The longest weight (or percent) read, in characters: far beyond any weight a float
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


def _nonpair_classes(top: int, kickers: range, kind: str) -> list[int]:
    # kind "" stands for both: the suited classes, then the offsuit ones.
    out = [suited_class(top, k) for k in kickers] if kind in ("s", "") else []
    if kind in ("o", ""):
        out += [offsuit_class(top, k) for k in kickers]
    return out


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
        if (kind == "") != (kind2 == ""):
            raise _ItemError(_SUFFIXES)
        if kind != kind2:
            raise _ItemError("both ends of a '-' range must be suited or both offsuit")
        return _nonpair_classes(high, range(min(low, low2), max(low, low2) + 1), kind)
    if high == low:
        return [pair_class(r) for r in range(high, 13 if plus else high + 1)]
    return _nonpair_classes(high, range(low, high if plus else low + 1), kind)


def _number(text: str, what: str) -> Fraction:
    # A decimal already matched by _NUMBER, read exactly.
    if len(text) > _MAX_WEIGHT:
        # Python refuses to read an int of more than 4,300 digits, with a message naming no item.
        raise _ItemError(f"{what} has at most {_MAX_WEIGHT:,} characters")
    return Fraction(text)


def _rows(classes: Sequence[int]) -> npt.NDArray[np.intp]:
    return np.concatenate([CLASS_ROWS[c] for c in classes]) if classes else ALL_ROWS[:0]


def _percent_rows(text: str) -> npt.NDArray[np.intp]:
    # The rows of a percent item: "10%", "top 10%" or "5%-15%" (either order).
    m = _PERCENT_RE.fullmatch(text)
    if m is None:
        raise _ItemError("expected a percent like '10%', 'top 10%' or '5%-15%'")
    ends = sorted(_number(end, "a percent") for end in m.groups() if end is not None)
    if not 0 <= ends[0] <= ends[-1] <= 100:
        raise _ItemError("a percent must be at least 0 and at most 100")
    top = top_classes(ends[-1])
    return _rows(top[len(top_classes(ends[0])) :] if len(ends) == 2 else top)


def _item_rows(item: str) -> npt.NDArray[np.intp]:
    # The rows of COMBOS that one item without a ':' weight covers, or _ItemError.
    text = item.replace(_VS16, "")
    if text.lower() in ("random", "any"):
        return ALL_ROWS
    if "%" in text:
        return _percent_rows(text)
    if text.lower() == "top":
        raise _ItemError("'top' comes before a percent, as in 'top 10%'")
    if _HAND_RE.fullmatch(text):
        a, b = parse_card(text[:2]), parse_card(text[2:])
        if a == b:
            raise _ItemError("the same card twice")
        return np.array([COMBO_ROW[a, b]], dtype=np.intp)
    if len(text) == 2 and _HAND_RE.fullmatch(text + text):
        raise _ItemError("one card is not a hand (write two cards, as in 'AhKh')")
    return _rows(_item_classes(text))


def _item(item: str, bracket: tuple[str, int, Fraction] | None) -> tuple[npt.NDArray[np.intp], float | None]:
    # The rows of one item and its ':' weight (None without one), or _ItemError.
    body, colon, number = item.partition(":")
    if not colon:
        return _item_rows(body), None
    if bracket is not None:
        why = f"a ':' weight cannot go inside a bracket ({_quote(bracket[0])} at offset {bracket[1]} is open)"
        raise _ItemError(why)
    if not body:
        raise _ItemError("expected an item before ':', as in 'AK:0.5'")
    rows = _item_rows(body)
    if not _WEIGHT_RE.fullmatch(number):
        raise _ItemError("expected a weight from 0 to 1 after ':', as in 'AK:0.5'")
    fraction = _number(number, "a weight")
    if fraction > 1:
        raise _ItemError("a ':' weight must be at least 0 and at most 1")
    weight = float(fraction)
    if weight == 0.0 and fraction:
        raise _ItemError("the weight is too small for a float")
    return rows, weight


def _item_end(text: str, pos: int) -> int:
    # Where the item starting at pos ends: at a blank, a comma, a bracket or the end.
    end = pos
    while end < len(text) and not text[end].isspace() and text[end] not in ",[]":
        end += 1
    return end


def _item_error(number: int, item: str, offset: int, why: str) -> ValueError:
    return ValueError(f"item {number} ({_quote(item)}) at offset {offset}: {why}")


def _bracket_error(tag: str, offset: int, why: str) -> ValueError:
    return ValueError(f"bracket {_quote(tag)} at offset {offset}: {why}")


def parse_weights(text: str) -> npt.NDArray[np.float64]:
    """The weight of every row of ``COMBOS`` in the range ``text`` (0 where a combo is not in it).

    Raises ``ValueError`` naming the item or bracket at fault, as
    :func:`twoplustwo.vocab.ranges.parse_range` documents.
    """
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
            end = _item_end(text, pos)
            if text[pos:end].lower() == "top":
                # "top 10%" is one item, blanks and all.
                after = end
                while after < n and text[after].isspace():
                    after += 1
                if "%" in text[after : _item_end(text, after)]:
                    end = _item_end(text, after)
            items += 1
            item = text[pos:end]
            try:
                rows, own = _item(item, open_tag)
                weights[rows] = weight if own is None else own
            except _ItemError as e:
                raise _item_error(items, item, pos, str(e)) from None
            last = "other"
            pos = end
    if last == "comma":
        raise _item_error(items + 1, "", n, "empty item")
    if open_tag is not None:
        raise _bracket_error(open_tag[0], open_tag[1], "no closing bracket")
    return weights


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
