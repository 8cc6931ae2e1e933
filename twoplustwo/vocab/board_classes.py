"""What a hold'em hand holds on a board: the made-hand classes and the draw flags, their names and codes.

A hand is two hole cards on a board of 3, 4 or 5 cards. It has one made
hand, the first of :data:`MADE_HANDS` that applies, and any set of the
:data:`DRAWS` flags (on the flop and turn only). The batch kernels give a
made hand as its index in :data:`MADE_HANDS` (a uint8 code) and the draws
as a uint8 of bits, bit ``i`` for ``DRAWS[i]``; these names and codes are
the one statement of both.

The definitions (a rank is a card's rank, the ace high; "the board's
ranks" are its distinct ranks, highest first):

Made hand, the first that applies:

1. ``straight flush``, ``four of a kind``, ``full house``, ``flush``,
   ``straight``: the best five of hole and board is of that category,
   whether or not the hole cards play.
2. The best five is three of a kind: ``set`` when the hole cards are a
   pair whose rank is once on the board; ``trips`` when they are not a
   pair and one hole card's rank is twice on the board; else ``three of a
   kind`` (the board's own trips).
3. Otherwise, from what the hole cards pair (board pairs alone count for
   nothing): ``two pair`` when the hole cards are of two ranks both on the
   board; a pocket pair whose rank is not on the board is an ``overpair``
   above the board's top rank, an ``underpair`` below its lowest, else a
   ``pocket pair``; exactly one hole card's rank on the board is ``top
   pair`` (the board's top rank), ``second pair`` (its second) or ``weak
   pair`` (lower); none is ``ace high`` when a hole card is an ace, else
   ``nothing``.

Draws, flags that combine, on the flop and turn only:

* ``flush draw``: exactly four cards of one suit among hole and board, at
  least one a hole card, and no flush made; ``nut flush draw``: a flush draw
  whose hole cards hold the highest card of that suit not on the board;
* ``backdoor flush draw`` (flop only): exactly three cards of one suit
  among the five, at least one a hole card;
* when hole and board hold no straight, the ranks x not among them such
  that a card of rank x makes five consecutive ranks (the ace also low)
  holding x and a hole card's rank that is not on the board: two such
  ranks are an ``open-ended straight draw`` (double gutshots too: eight
  outs), one a ``gutshot``;
* ``overcards``: made hand ``ace high`` or ``nothing``, both hole cards
  above the board's top rank;
* ``combo draw``: a flush draw with an open-ended straight draw or a gutshot.

>>> MADE_HANDS[MADE_CODE["top pair"]], len(MADE_HANDS)
('top pair', 17)
>>> sorted(draw_names(DRAW_BIT["flush draw"] | DRAW_BIT["gutshot"]))
['flush draw', 'gutshot']
"""

from __future__ import annotations

__all__ = ["DRAWS", "DRAW_BIT", "MADE_CODE", "MADE_HANDS", "N_MADE_HANDS", "draw_names"]

#: The made-hand classes, strongest first: a hand's class is its code, the index here.
MADE_HANDS = (
    "straight flush",
    "four of a kind",
    "full house",
    "flush",
    "straight",
    "set",
    "trips",
    "three of a kind",
    "two pair",
    "overpair",
    "underpair",
    "pocket pair",
    "top pair",
    "second pair",
    "weak pair",
    "ace high",
    "nothing",
)
#: How many made-hand classes there are.
N_MADE_HANDS = len(MADE_HANDS)
#: Each made-hand class's code, its index in :data:`MADE_HANDS`.
MADE_CODE = {name: code for code, name in enumerate(MADE_HANDS)}

#: The draw flags: ``DRAWS[i]`` is bit ``i`` of a hand's draws.
DRAWS = (
    "flush draw",
    "nut flush draw",
    "backdoor flush draw",
    "open-ended straight draw",
    "gutshot",
    "overcards",
    "combo draw",
)
#: Each draw flag's bit.
DRAW_BIT = {name: 1 << i for i, name in enumerate(DRAWS)}


def draw_names(bits: int) -> frozenset[str]:
    """The draw flags a byte of draw bits holds.

    >>> draw_names(0), sorted(draw_names(3))
    (frozenset(), ['flush draw', 'nut flush draw'])
    """
    if not 0 <= bits < 1 << len(DRAWS):
        raise ValueError(f"draw bits must be in 0..{(1 << len(DRAWS)) - 1}, got {bits}")
    return frozenset(name for i, name in enumerate(DRAWS) if bits >> i & 1)
