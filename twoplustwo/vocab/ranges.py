"""Starting-hand ranges in PokerStove/Equilab and solver notation, over the 1,326 two-card combos.

:func:`parse_range` reads the notation of PokerStove, Equilab and the
PioSolver/GTO+ exports into a :class:`Range`, a set of two-card combos each
with a weight in (0, 1]:

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
  without ``s`` or ``o`` (``A2+``, ``KT+``, ``AK-AJ``, ``87-82``) a run covers
  both, so ``A2+`` is ``A2s+,A2o+`` (as ``AK`` is ``AKs,AKo``), and both ends
  of a ``-`` run say ``s``, both ``o`` or both neither;
* a hand ``AhKh``: two cards of two characters each, as
  :func:`twoplustwo.vocab.cards.parse_card` spells them;
* a percent ``10%`` or ``top 10%`` (the same; blanks may follow ``top``):
  the strongest whole classes holding at least 10% of the combos, and
  ``5%-15%`` (either order): those of ``top 15%`` that are not in ``top 5%``.

A percent is a decimal number in [0, 100]. The classes go in the order of
:data:`twoplustwo.vocab.starting_hands.CLASS_ORDER`, by exact equity heads-up
against a random hand (ties, of which there are none, would keep the
``HAND_CLASSES`` order); ``top p%`` walks that order counting combos (6 a
pair, 4 a suited class, 12 an offsuit one) and takes each class whose
predecessors hold fewer than ``p`` percent of the 1,326 combos: the fewest
whole classes from the top holding at least ``p`` percent. So ``0%`` is
empty, ``100%`` is ``random``, and ``10%`` holds 134 combos:

>>> r = parse_range("top 10%")
>>> len(r), str(r), parse_range("10%") == r
(134, '66+,A8s+,KJs+,ATo+', True)
>>> str(parse_range("10%-15%")), str(parse_range("A2+")), str(parse_range("87-84"))
('55,A7s-A5s,KTs-K9s,QJs,A9o,KJo+', 'A2s+,A2o+', '84s+,84o+')

Ranks are ``2``-``9``, ``T`` or ``10``, ``J``, ``Q``, ``K``, ``A``, and every
letter may be in either case (``aks`` is ``AKs``). Items between ``[w]`` and
``[/w]`` weigh ``w / 100``, ``w`` a decimal number in (0, 100]; other items
weigh 1; brackets do not nest, and ``[/w]`` must repeat the weight of the
open ``[w]``; ``w`` has at most 1,000 characters. As in the solvers, an item
followed by ``:w``, ``w`` a decimal number in [0, 1], weighs ``w``, and ``:0``
leaves its combos out (``random,AA:0`` is every hand but aces); an item inside
brackets has no ``:w``. An item that repeats a combo overrides its weight: the
later item wins, so ``[50]AKs[/50],AhKh`` holds AhKh at weight 1.

>>> r = parse_range("AK:0.5,QQ+:0.25,AhKh:1,KK:0")
>>> len(r), r.weight_of("AhKh"), r.weight_of("AsKs"), r.weight_of("QsQh"), "KsKh" in r
(28, 1.0, 0.5, 0.25, False)
>>> str(r)
'AhKh,[50]AKo,AsKs,AdKd,AcKc[/50],[25]AA,QQ[/25]'
>>> parse_range("[50]AK:0.5[/50]")
Traceback (most recent call last):
...
ValueError: item 1 ('AK:0.5') at offset 4: a ':' weight cannot go inside a bracket ('[50]' at offset 0 is open)

``str()`` gives the canonical notation, which parses back to the same range;
it writes no ``A2+``, percent or ``:w`` items:

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

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import numpy as np
import numpy.typing as npt

from twoplustwo.vocab.cards import RANKS, CardLike, parse_cards
from twoplustwo.vocab.combos import (
    CLASS_OF,
    CLASS_SIZE,
    COMBO_ROW,
    COMBOS,
    N_COMBOS,
    card_name,
    combo_indices,
)
from twoplustwo.vocab.grid import class_grid_html
from twoplustwo.vocab.inputs import int_array, refuse_masked
from twoplustwo.vocab.range_notation import parse_weights

__all__ = ["Range", "parse_range"]

def parse_range(text: str) -> Range:
    """Parse a range written in PokerStove/Equilab or solver notation (see the module docstring).

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
    return Range(parse_weights(text))


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
        # AKs and AKo alone are written "AK"; longer runs keep their letter
        # ("ATs+,ATo+", not "AT+"), as the canonical form always has.
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
        refuse_masked(weights, "weights")
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
        arr = int_array(combos, "combos")
        if arr.size == 0:
            arr = arr.reshape(0, 2).astype(np.intp)
        if arr.ndim != 2 or arr.shape[1] != 2:
            raise ValueError(f"expected an (n, 2) array of card ints, got shape {arr.shape}")
        rows = combo_indices(arr[:, 0], arr[:, 1])
        refuse_masked(weights, "weights")
        # A private copy: the weights checked are the weights kept.
        w = np.broadcast_to(np.array(1.0 if weights is None else weights), rows.shape)
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

    def _repr_html_(self) -> str:
        """The 13 x 13 grid of classes, each with the (weighted) share of its combos in the range: a notebook's view."""
        held = np.bincount(CLASS_OF, weights=self._dense, minlength=169) / CLASS_SIZE
        shares = [float(x) if x > 0 else None for x in held]
        texts = [f"{100 * x:.0f}%" if x > 0 else "" for x in held]
        weight = float(self._dense.sum())
        caption = f"{len(self)} combos, weight {weight:g} of {N_COMBOS} ({100 * weight / N_COMBOS:.1f}%)"
        return class_grid_html(shares, texts, caption=caption)
