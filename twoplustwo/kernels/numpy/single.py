"""One hand to its value, the numpy twin of ``kernels/c/single.c``'s ``Walker.evaluate``.

A list or tuple of 5-7 distinct plain ints of the walker's deck walks
``dag7`` (and its value arrays for 5 and 6 cards) through ``memoryview``
objects, so that the numpy backend's first ``evaluate()`` imports no numpy.
Anything else is None: the caller parses and explains. Card text is among
what this path leaves to its caller, where C reads the common forms itself
(both then give the same value or the same error).

>>> from twoplustwo.kernels.numpy import DAGS, Walker
>>> from twoplustwo.tables.default import get_tables
>>> t = get_tables()
>>> w = Walker(*[[t.buffers[f"{d}/layer{k}"] for k in range(1, n + 1)] for d, n in DAGS], t.buffers["dag7/value5"],
...            t.buffers["dag7/value6"])
>>> w.evaluate([51, 47, 43, 39, 35]), w.evaluate("As Ks Qs Js Ts")  # text: the caller parses it
(7462, None)
"""

from __future__ import annotations

from twoplustwo.kernels.numpy.args import plain

# typing costs milliseconds to import, which a fresh process's first evaluate() would pay.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Single"]

# One bit per card; cards 52..103 read 0, so they, like a duplicate, leave
# fewer bits set than cards.
_BITS = tuple(1 << i for i in range(52)) + (0,) * 52


class Single:
    """The walker's single-hand method (a part of :class:`twoplustwo.kernels.numpy.Walker`)."""

    deck: int
    _dag7: tuple[memoryview, ...]
    _values: tuple[memoryview, ...]
    walks: dict[int, tuple[list[memoryview], memoryview | None]]

    def evaluate(self, cards: object, /) -> int | None:
        """The value of a list or tuple of 5-7 distinct ints of the deck (or of the walker's sizes), else None
        (the caller parses and explains)."""
        if type(cards) is not list and type(cards) is not tuple:
            return None
        hand: Any = cards
        if len(hand) == 7 and self._dag7:
            # The hot path: seven ints, checked with one bit per card from a
            # table. Cards 52..103 read 0, so they, like a duplicate, leave
            # fewer than 7 bits set; larger ones fail the lookup; negative
            # ones (which index from the end) fail the sign test of the OR.
            # bool is an int subclass, hence the type checks.
            try:
                a, b, c, d, e, f, g = hand
                m = _BITS[a] | _BITS[b] | _BITS[c] | _BITS[d] | _BITS[e] | _BITS[f] | _BITS[g]
            except (TypeError, IndexError):
                return None
            if (
                m.bit_count() == 7
                and a | b | c | d | e | f | g >= 0
                and not m & ~self.deck
                and type(a) is int
                and type(b) is int
                and type(c) is int
                and type(d) is int
                and type(e) is int
                and type(f) is int
                and type(g) is int
            ):
                l1, l2, l3, l4, l5, l6, l7 = self._dag7
                return int(l7[l6[l5[l4[l3[l2[l1[a] * 52 + b] * 52 + c] * 52 + d] * 52 + e] * 52 + f] * 52 + g])
            return None
        listed = plain(hand, 7)
        if listed is None or len(listed) not in self.walks:
            return None
        m = 0
        for x in listed:
            m |= _BITS[x]
        if m.bit_count() != len(listed) or m & ~self.deck:
            return None
        node = 0
        if not self._dag7:  # a game of one small DAG: its own walk
            layers, value = self.walks[len(listed)]
            for layer, card in zip(layers, listed):
                node = layer[node * 52 + card]
            return int(node if value is None else value[node])
        for layer, card in zip(self._dag7, listed):
            node = layer[node * 52 + card]
        return int(node if len(listed) == 7 else self._values[len(listed) - 5][node])
