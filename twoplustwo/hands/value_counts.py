"""How many hands of a kind take each value, without listing them.

>>> h = histogram(5)
>>> int(h.sum()), int((h > 0).sum())
(2598960, 7462)

Counts are carried down the DAG per (node, last card) pair rather than per
hand, so all 133,784,560 seven-card hands cost a fraction of a second.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from twoplustwo.hands.space import HandSpace
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.cards import Cards
from twoplustwo.vocab.rules import HOLDEM

__all__ = ["histogram"]


def histogram(
    n: int = 7,
    *,
    include: Cards = (),
    dead: Cards = (),
    game: str = HOLDEM,
    tables: Tables | None = None,
) -> npt.NDArray[np.int64]:
    """Number of ``n``-card hands (n = 5, 6, 7) with each value; index = value.

    Only hands holding every ``include`` card and no ``dead`` card count.
    The result has length N + 1 for a game of N values (7463 in hold'em,
    1405 in short deck) and ``result[0] == 0``; it equals the ``bincount``
    of the values :func:`iter_hands` yields, but no hand is materialised.
    Hands come from ``game``'s deck, as in :func:`iter_hands`.

    >>> h = histogram(7, include="As Ks Qs Js", dead="Ts")
    >>> int(h.sum()), int(h[7462])  # C(47, 3) hands, no royal flush without the ten
    (16215, 0)
    >>> h = histogram(5, game="short-deck")
    >>> len(h), int(h.sum()), int(h[1404])  # C(36, 5) hands, four royal flushes
    (1405, 376992, 4)

    Counts are carried down the DAG per (node, last card) pair. The include
    cards are walked first, then every step adds a free card above the
    last one, so each sorted hand is counted once; a pair's prefixes may all
    take any card above their last, so one cumulative sum per node gives
    the count each (node, next card) transition carries. Only pairs some
    prefix reaches are kept, merged by sorting their keys.
    """
    sp = HandSpace(n, include, dead, tables, game)
    size = sp.game.values + 1
    hist = np.zeros(size, dtype=np.int64)
    # The C walker counts hold'em's full deck by rank multiset and suit
    # pattern (tens of ms); it says False where its small tables do not
    # stand for this table set (and the reference walker always does), and
    # the DAG walk below serves. Other games always walk the DAG.
    if sp.game.holdem and not sp.include and not sp.dead and sp.game.walker.histogram(n, hist):
        return hist
    if sp.total == 0:
        return hist
    if sp.k == 0:
        hist[sp.node] = 1
        return hist
    free = np.array(sp.free, dtype=np.int64)
    m = sp.m
    # Pairs as sorted unique keys: node, and pos = index of the last free
    # card + 1 (0 before the first free card), with their prefix counts.
    node = np.array([sp.node], dtype=np.int64)
    pos = np.zeros(1, dtype=np.int64)
    count = np.ones(1, dtype=np.int64)
    depth = len(sp.include)
    for step in range(sp.k):
        heads = np.flatnonzero(np.r_[True, node[1:] != node[:-1]])
        q = pos[heads]  # the lowest free card a node's prefixes may add
        rowlen = m - q
        rowoff = np.zeros(len(heads) + 1, dtype=np.int64)
        np.cumsum(rowlen, out=rowoff[1:])
        # One row per node over the free cards it may add; scatter each
        # pair's count at its own next card, then a running sum per row
        # is the number of prefixes that may add that card.
        group = np.repeat(np.arange(len(heads)), np.diff(np.r_[heads, len(node)]))
        buf = np.zeros(int(rowoff[-1]), dtype=np.int64)
        buf[rowoff[group] + pos - q[group]] = count
        np.cumsum(buf, out=buf)
        # Subtract each row's running total before it: the weights of
        # the row's cards.
        starts = rowoff[:-1]
        buf -= np.repeat(np.where(starts > 0, buf[np.maximum(starts - 1, 0)], 0), rowlen)
        weight = buf
        card = np.arange(len(buf))
        card -= np.repeat(starts - q, rowlen)
        ids = np.repeat(node[heads] * 52, rowlen)
        ids += card if m == 52 else free.take(card)
        child = sp.layers[depth + step].take(ids)
        if step == sp.k - 1:
            # Counts stay far below 2**53, so float weights are exact.
            hist += np.rint(np.bincount(child, weights=weight, minlength=size)).astype(np.int64)
            break
        # Merge equal (child, card) keys: sort key and weight packed in one
        # uint64 (keys < 2**24, weights <= C(52, 6) < 2**32).
        packed = child.astype(np.uint64)
        packed *= m + 1
        # Both are non-negative int64: viewing them as uint64 keeps the bits.
        packed += card.view(np.uint64)
        packed += 1
        packed <<= 32
        packed |= weight.view(np.uint64)
        packed.sort()
        keys = packed >> 32
        firsts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
        packed &= 0xFFFFFFFF
        count = np.add.reduceat(packed, firsts).astype(np.int64)
        node, pos = np.divmod(keys[firsts].astype(np.int64), m + 1)
        # A prefix ending at the last free card extends to nothing.
        live = pos < m
        node, pos, count = node[live], pos[live], count[live]
    return hist
