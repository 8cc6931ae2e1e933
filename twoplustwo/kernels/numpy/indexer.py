"""Suit-isomorphic hand indices, the numpy twin of ``kernels/c/indexer.c``: ``index_rows`` and ``unindex_rows``.

The layout both backends follow to the bit, and each round's tables (its
plan), are :mod:`twoplustwo.vocab.indexing`'s; these functions take a
plan's arrays as the C functions of the same names do, check them as C
does, and give the same answers.

>>> from twoplustwo.vocab.indexing import plan
>>> p = plan((2,))
>>> out = np.empty(1, dtype=np.uint64)
>>> index_rows(np.array([[51, 47]], dtype=np.uint8), *p, out), int(out[0])  # As Ks: suited, the last
(-1, 168)
"""

from __future__ import annotations

from math import comb

import numpy as np
import numpy.typing as npt

from twoplustwo.kernels.numpy.args import array
from twoplustwo.vocab.indexing import HASH, MAX_CARDS, MAX_ROUNDS

__all__ = ["index_rows", "unindex_rows"]

U8 = npt.NDArray[np.uint8]
U32 = npt.NDArray[np.uint32]
U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]

# The most configurations and slots a plan may hold (7 rounds of one card
# have 715 configurations): C copies a plan, and refuses one larger.
_MOST_CODES = 1024
_MOST_SLOTS = 8192
# Rows per vectorised step: a few MB of temporaries.
_STEP = 1 << 15

_INDEX_ERROR = (
    "index_rows takes (N, k) uint8 hands, a plan of k cards (uint8 counts, uint32 codes, uint64 offsets, "
    "uint32 slots) and a uint64 out of N"
)
_UNINDEX_ERROR = (
    "unindex_rows takes (N,) uint64 indices, a plan of k cards (uint8 counts, uint32 codes, uint64 offsets) "
    "and a uint8 (N, k) out"
)
_LOST = "index_rows: a hand's configuration is not in the plan"


# C(n, k) for n = 0..13, k = 0..7; C(x, t) for x below 2048 (C(x, 1) is x:
# the only x that may be larger); popcounts of rank sets, and their colex
# ranks among the sets of their size (for up to 7 ranks) plus their size
# times 2**12; the r-th rank not in a set of held ranks (column 13: a
# harmless 0 for lanes that read past); a rank set spread to the cards of
# suit 0; the bits above bit b of a hand's word (suit s's ranks in bits
# 16s..16s+12) within its suit.
_CHOOSE = np.array([[comb(n, k) for k in range(8)] for n in range(14)], dtype=np.int64)
_CX = np.array([[comb(x, t) for x in range(2048)] for t in range(5)], dtype=np.int64)
_BITS = (np.arange(1 << 13)[:, None] >> np.arange(13)) & 1
_POP = _BITS.sum(axis=1)
_RANK_INFO = (_BITS * _CHOOSE[np.arange(13), np.minimum(np.cumsum(_BITS, axis=1), 7)]).sum(axis=1) | _POP << 12
_NTH_FREE = np.zeros((1 << 13, 14), dtype=np.int64)
_NTH_FREE[:, :13] = np.argsort(_BITS, axis=1, kind="stable")  # free ranks first, increasing
_SPREAD = (_BITS.astype(np.uint64) << (4 * np.arange(13, dtype=np.uint64))).sum(axis=1, dtype=np.uint64)
_LANES = np.array([0, 16, 32, 48])
_ABOVE = np.array([(0x1FFF << (b & 48)) & ~((2 << b) - 1) for b in range(61)], dtype=np.int64)


def _check_plan(counts: U8, codes: U32, offsets: U64, slots: U32 | None, error: str) -> int:
    """The cards of a plan's hands, after checking its arrays as C does (ValueError ``error``)."""
    c = np.asarray(counts)
    ok = c.ndim == 1 and c.itemsize == 1 and 1 <= c.size <= MAX_ROUNDS and c.all() and int(c.sum()) <= MAX_CARDS
    ok = ok and codes.ndim == 1 and codes.itemsize == 4 and 1 <= codes.size <= _MOST_CODES
    ok = ok and offsets.ndim == 1 and offsets.itemsize == 8 and offsets.size == codes.size + 1
    if ok and slots is not None:
        h = slots.size
        ok = slots.ndim == 1 and slots.itemsize == 4 and 16 <= h <= _MOST_SLOTS and h & (h - 1) == 0
        ok = ok and int(slots.max()) <= codes.size and int(slots.min()) == 0
    if ok:
        # Each configuration deals each round's cards exactly: unindexing writes that many.
        keys = (codes.astype(np.int64)[:, None] >> np.array([21, 14, 7, 0])) & 127
        for n in c.astype(np.int64)[::-1]:
            ok = ok and bool((keys % (n + 1)).sum(axis=1).tolist() == [n] * codes.size)
            keys //= n + 1
        ok = ok and not keys.any() and not (codes >> 28).any()
        ok = ok and int(offsets[0]) == 0 and bool((offsets[1:] >= offsets[:-1]).all())
    if not ok:
        raise ValueError(error)
    return int(c.sum())


def index_rows(hands: U8, counts: U8, codes: U32, offsets: U64, slots: U32, out: U64, /) -> int:
    """The index of each (N, k) uint8 row of cards under a plan of k cards, into ``out`` (uint64).

    Returns the first row with a card over 51 or a card twice, or -1; rows
    before it are written.
    """
    hands, counts, codes, offsets, slots = (array(a) for a in (hands, counts, codes, offsets, slots))
    out = array(out, writable=True)
    k = _check_plan(counts, codes, offsets, slots, _INDEX_ERROR)
    if hands.ndim != 2 or hands.itemsize != 1 or hands.shape[1] != k or out.itemsize != 8 or out.size != len(hands):
        raise ValueError(_INDEX_ERROR)
    o = out.view(np.uint64).reshape(-1)
    c = [int(n) for n in counts]
    for a in range(0, len(hands), _STEP):
        z = min(a + _STEP, len(hands))
        h = np.array(hands[a:z], dtype=np.int64)  # a private copy, read once
        bad = _first_bad(h)
        if bad >= 0:
            if bad:
                o[a : a + bad] = _index_step(h[:bad], c, codes, offsets, slots)
            return a + bad
        o[a:z] = _index_step(h, c, codes, offsets, slots)
    return -1


def _first_bad(h: I64) -> int:
    """The first row with a card over 51 or a card twice, or -1."""
    bad = np.zeros(len(h), dtype=bool)
    seen = np.zeros(len(h), dtype=np.int64)
    for col in h.T:
        bit = np.left_shift(1, col & 63)
        bad |= (col > 51) | ((seen & bit) != 0)
        seen |= bit
    return int(np.argmax(bad)) if bad.any() else -1


def _index_step(h: I64, counts: list[int], codes: U32, offsets: U64, slots: U32) -> U64:
    n = len(h)
    # Each card's bit in a hand's word, suit s's ranks in bits 16s..16s+12.
    pos = (h & 3) << 4 | h >> 2
    bits = np.left_shift(1, pos)
    key = np.zeros((n, 4), dtype=np.int64)
    index = np.zeros((n, 4), dtype=np.int64)
    size = np.ones((n, 4), dtype=np.int64)
    left = np.full((n, 4), 13, dtype=np.int64)
    first = 0
    for c in counts:
        m = bits[:, first : first + c].sum(axis=1)  # distinct bits: their sum is their OR
        # The round's ranks less those its suit held before, renumbered
        # downwards over them: the highest held first, so that the places of
        # those below stand.
        for b in np.sort(pos[:, :first], axis=1).T[::-1]:
            above = _ABOVE[b]
            m = (m & ~above) | ((m & above) >> 1)
        info = _RANK_INFO[(m[:, None] >> _LANES) & 0x1FFF]
        m = info >> 12
        radix = _CHOOSE[left, m]
        key = key * (c + 1) + m
        index = index * radix + (info & 0xFFF)
        size *= radix
        left -= m
        first += c
    # One sort orders the suits by key (largest first), then index (smallest first).
    order = ((127 - key) << 48) | (size << 24) | index
    order.sort(axis=1)
    key, size, index = 127 - (order >> 48), (order >> 24) & 0xFFFFFF, order & 0xFFFFFF
    place = np.zeros(n, dtype=np.int64)
    rank = np.zeros(n, dtype=np.int64)
    t = np.ones(n, dtype=np.int64)
    for p in range(4):
        if p:
            same = key[:, p] == key[:, p - 1]
            t = np.where(same, t + 1, 1)
            rank = np.where(same, rank, 0)
        rank = rank + _mchoose(index[:, p] + t - 1, t)
        end = key[:, p + 1] != key[:, p] if p < 3 else np.ones(n, dtype=bool)
        place = np.where(end, place * _mchoose(size[:, p] + t - 1, t) + rank, place)
    code = key[:, 0] << 21 | key[:, 1] << 14 | key[:, 2] << 7 | key[:, 3]
    result: U64 = offsets[_lookup(code, codes, slots)] + place.astype(np.uint64)
    return result


def _mchoose(x: I64, t: I64) -> I64:
    """C(x, t) for t = 1..4, where x < 2048 unless t = 1 (as in any group of two or more suits)."""
    result: I64 = np.where(t == 1, x, _CX[t, np.minimum(x, 2047)])
    return result


def _lookup(code: I64, codes: U32, slots: U32) -> npt.NDArray[np.intp]:
    """Each code's configuration number, probing ``slots`` as C does."""
    bits = len(slots).bit_length() - 1
    at = ((code.astype(np.uint64) * np.uint64(HASH)) & np.uint64(0xFFFFFFFF)) >> np.uint64(32 - bits)
    at = at.astype(np.intp)
    number = np.empty(len(code), dtype=np.intp)
    todo = np.arange(len(code))
    while len(todo):
        s = slots[at[todo]].astype(np.intp)
        if not s.all():
            raise ValueError(_LOST)
        hit = codes[s - 1] == code[todo]
        number[todo[hit]] = s[hit] - 1
        todo = todo[~hit]
        at[todo] = (at[todo] + 1) & (len(slots) - 1)
    return number


def unindex_rows(indices: U64, counts: U8, codes: U32, offsets: U64, out: U8, /) -> int:
    """The hand of each (N,) uint64 index under a plan of k cards, into ``out`` (uint8, (N, k)).

    Returns the first index out of range (at least the plan's size), or -1;
    rows before it are written.
    """
    indices, counts, codes, offsets = (array(a) for a in (indices, counts, codes, offsets))
    out = array(out, writable=True)
    k = _check_plan(counts, codes, offsets, None, _UNINDEX_ERROR)
    if indices.ndim != 1 or indices.itemsize != 8 or out.itemsize != 1 or out.size != indices.size * k:
        raise ValueError(_UNINDEX_ERROR)
    o = out.view(np.uint8).reshape(len(indices), k)
    c = [int(n) for n in counts]
    for a in range(0, len(indices), _STEP):
        z = min(a + _STEP, len(indices))
        x = np.array(indices[a:z]).view(np.uint64)  # a private copy, read once
        over = x >= offsets[-1]
        if over.any():
            bad = int(np.argmax(over))
            o[a : a + bad] = _unindex_step(x[:bad], c, codes, offsets)
            return a + bad
        o[a:z] = _unindex_step(x, c, codes, offsets)
    return -1


def _unindex_step(x: U64, counts: list[int], codes: U32, offsets: U64) -> U8:
    n = len(x)
    number = np.searchsorted(offsets, x, side="right") - 1
    rem = (x - offsets[number]).astype(np.int64)
    key = (codes[number].astype(np.int64)[:, None] >> np.array([21, 14, 7, 0])) & 127
    # Each suit's count in each round, round 0 first, and the ranks it has left.
    cnt: list[I64] = []
    k = key.copy()
    for c in reversed(counts):
        cnt.insert(0, k % (c + 1))
        k //= c + 1
    lefts = [13 - sum(cnt[:j], np.zeros_like(key)) for j in range(len(counts))]
    size = np.ones_like(key)
    for j in range(len(counts)):
        size *= _CHOOSE[lefts[j], cnt[j]]
    t = np.ones_like(key)
    for p in range(1, 4):
        t[:, p] = np.where(key[:, p] == key[:, p - 1], t[:, p - 1] + 1, 1)
    # The groups' ranks, last group first, and the indices of their suits.
    index = np.zeros_like(key)
    rank = np.zeros(n, dtype=np.int64)
    for p in (3, 2, 1, 0):
        tp = t[:, p]
        end = key[:, p + 1] != key[:, p] if p < 3 else np.ones(n, dtype=bool)
        radix = _mchoose(size[:, p] + tp - 1, tp)
        rank = np.where(end, rem % radix, rank)
        rem = np.where(end, rem // radix, rem)
        top = _largest(rank, tp, size[:, p])
        index[:, p] = top - tp + 1
        rank = rank - _mchoose(top, tp)
    digits: list[I64] = [np.zeros_like(key)] * len(counts)
    for j in reversed(range(len(counts))):
        radix = _CHOOSE[lefts[j], cnt[j]]
        digits[j] = index % radix
        index //= radix
    out = np.empty((n, sum(counts)), dtype=np.uint8)
    held = np.zeros_like(key)
    first = 0
    for j, c in enumerate(counts):
        u, ranks = digits[j], np.zeros_like(key)
        for s in range(c, 0, -1):
            on = cnt[j] >= s
            r = np.searchsorted(_CHOOSE[:, s], u, side="right") - 1
            u = np.where(on, u - _CHOOSE[r, s], u)
            ranks = np.where(on, ranks | np.left_shift(1, _NTH_FREE[held, r]), ranks)
        held |= ranks
        # Sorted place p is suit 3 - p; the round's cards as one 52-bit mask, read from the top.
        cards = np.bitwise_or.reduce(_SPREAD[ranks] << np.array([3, 2, 1, 0], dtype=np.uint64), axis=1)
        for i in range(c):
            top = np.frexp(cards.astype(np.float64))[1] - 1  # exact: below 2**53
            out[:, first + i] = top
            cards ^= np.left_shift(np.uint64(1), top.astype(np.uint64))
        first += c
    return out


def _largest(rank: I64, t: I64, size: I64) -> I64:
    """The largest x with C(x, t) <= rank: bisection, knowing C(t - 1, t) = 0 and C(size + t - 1, t) > rank."""
    one = t == 1
    lo = np.where(one, rank, t - 1)
    hi = np.where(one, rank + 1, size + t - 1)
    while True:
        wide = hi - lo > 1
        if not wide.any():
            return lo
        mid = (lo + hi) // 2
        ok = _mchoose(mid, t) <= rank
        lo = np.where(wide & ok, mid, lo)
        hi = np.where(wide & ~ok, mid, hi)
