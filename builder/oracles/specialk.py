"""Seed 003's additive-key evaluator by SpecialK: one 32-bit sum per hand.

Every rank has a *face key* chosen so that no two multisets of up to seven
ranks (at most four of each) of the same size have the same sum, and every
suit a *suit key* from ``0, 1, 8, 57``, whose sums of up to seven are all
distinct too. A card's key is ``(face_key << 9) + suit_key``; a hand's key is
the sum of its cards' keys. The largest seven-card face sum, 7,825,759, fits
in 23 bits and the largest suit sum, 399, in 9, so the hand key fits in 32.

* The low 9 bits say which suit, if any, holds five or more cards
  (:data:`FLUSH_SUIT`, one 512-entry row per hand size).
* Without a flush the face sum alone fixes the rank multiset, so the value
  is one lookup in a direct table indexed by the face sum (one per hand
  size: the deuce's key is 0, so sums of different sizes can coincide).
* With a flush only the flush suit's ranks matter; their 13-bit mask indexes
  :data:`FLUSH_VALUES`, the best flush or straight flush among them.

The face keys are the lexicographically smallest such sequence, found by
the inductive search of :func:`search_face_keys`; they are stored in
:data:`FACE_KEYS` so that importing this module does not repeat the search.

>>> int(evaluate([[48, 44, 40, 36, 32, 0, 1]])[0])  # royal flush plus two deuces
7462
>>> evaluate([[51, 47, 43, 39, 35], [50, 47, 43, 39, 35]]).tolist()  # royal, then straight
[7462, 5863]
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, combinations_with_replacement

import numpy as np
import numpy.typing as npt

from twoplustwo.vocab.values import value_from_code

from ._input import as_hands

__all__ = [
    "CARD_KEYS",
    "FACE_KEYS",
    "FLUSH_SUIT",
    "FLUSH_VALUES",
    "SUIT_KEYS",
    "evaluate",
    "face_sum_table",
    "hand_keys",
    "search_face_keys",
]

#: Face key of each rank, deuce .. ace, as :func:`search_face_keys` finds them.
FACE_KEYS: tuple[int, ...] = (
    0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181,
)  # fmt: skip
#: Suit key of each suit, clubs .. spades (the seed gives them to the suits
#: in another order; any order works, only the set of sums matters).
SUIT_KEYS: tuple[int, ...] = (0, 1, 8, 57)

_MAX_CARDS = 7
_MAX_OF_A_RANK = 4
_SUIT_BITS = 9

# ---------------------------------------------------------------- key search


def _fast_length(n: int) -> int:
    # numpy's FFT is quick on lengths whose only factors are 2, 3 and 5.
    best = 1 << (n - 1).bit_length()
    p5 = 1
    while p5 < best:
        p35 = p5
        while p35 < best:
            m = p35
            while m < n:
                m *= 2
            best = min(best, m)
            p35 *= 3
        p5 *= 5
    return best


def _sums_by_size(keys: list[int]) -> list[npt.NDArray[np.int64]]:
    # sums[s]: the sums of all multisets of s ranks drawn from the keys so far.
    sums = [np.zeros(1, dtype=np.int64)] + [np.zeros(0, dtype=np.int64)] * _MAX_CARDS
    for key in keys:
        sums = [
            np.concatenate([sums[s - c] + c * key for c in range(min(s, _MAX_OF_A_RANK) + 1)])
            for s in range(_MAX_CARDS + 1)
        ]
    return sums


def search_face_keys(n_ranks: int = 13) -> tuple[int, ...]:
    """Find the lexicographically smallest face keys, one per rank.

    Having the first n keys, the next is the smallest integer above the
    last for which multisets of up to seven ranks (at most four of each)
    still have distinct sums whenever they have the same size. Testing
    candidates one by one is far too slow, so each step computes at once
    every candidate that would cause a collision:

    A new key x, used c1 times in one multiset and c2 > c1 times in the
    other, collides exactly when ``(c2 - c1) * x = u - v`` for a sum u of
    ``a`` old ranks and v of ``a - (c2 - c1)`` old ranks (multisets with the
    same count of x differ in their old ranks, distinct by induction). So
    the forbidden values of ``d * x`` are the lags at which the indicator
    arrays of those two sum sets overlap, their cross-correlation, taken
    for all sizes at once with one FFT per size and one inverse per d.

    >>> search_face_keys(6)
    (0, 1, 5, 22, 98, 453)
    """
    keys = [0]
    while len(keys) < n_ranks:
        sums = _sums_by_size(keys)
        top = int(max(s.max() for s in sums if len(s)))
        # Long enough that the wrap-around of the circular correlation
        # never reaches a lag in 0..top.
        length = _fast_length(2 * top + 1)
        # Single precision halves the memory traffic, which dominates here;
        # the overlap counts come out within 0.01 of integers, and the check
        # below turns any doubt into an error rather than a wrong key.
        signal = np.zeros(length, dtype=np.float32)
        spectra = []
        for s in sums:
            signal[:] = 0.0
            signal[s] = 1.0  # sums of one size are distinct, by induction
            spectra.append(np.fft.rfft(signal))
        total = np.empty_like(spectra[0])
        term = np.empty_like(total)
        forbidden = np.zeros(top + 2, dtype=bool)
        forbidden[: keys[-1] + 1] = True  # the search only moves upwards
        for d in range(1, _MAX_OF_A_RANK + 1):
            total[:] = 0.0
            for a in range(d, _MAX_CARDS + 1):
                np.conjugate(spectra[a - d], out=term)
                term *= spectra[a]
                total += term
            np.fft.irfft(total, length, out=signal)  # type: ignore[arg-type]  # float32 out: the stubs want float64
            overlaps = signal[: top + 1 : d]
            if np.any(np.abs(overlaps - np.rint(overlaps)) > 0.25):
                raise ArithmeticError("FFT round-off too large to count overlaps")
            forbidden[np.flatnonzero(overlaps > 0.5)] = True
        # A key above every old sum collides with nothing, so one always exists.
        keys.append(int(np.argmin(forbidden)))
    return tuple(keys)


# ------------------------------------------------------------- rank logic


def _straight_high(present: set[int]) -> int | None:
    for high in range(12, 3, -1):
        if all(r in present for r in range(high - 4, high + 1)):
            return high
    if {12, 0, 1, 2, 3} <= present:
        return 3  # the wheel: its ace plays low
    return None


def _straight_ranks(high: int) -> list[int]:
    return [3, 2, 1, 0, 12] if high == 3 else list(range(high, high - 5, -1))


def _code(category: int, ranks: list[int]) -> int:
    code = category
    for r in ranks:
        code = (code << 4) | r
    return code


def _plain_code(counts: list[int]) -> int:
    """Six-hex-digit code of the best five cards from ranks with these counts, no flush."""
    present = [r for r in range(12, -1, -1) if counts[r]]
    quads = [r for r in present if counts[r] == 4]
    trips = [r for r in present if counts[r] == 3]
    pairs = [r for r in present if counts[r] == 2]
    if quads:
        q = quads[0]
        return _code(7, [q] * 4 + [next(r for r in present if r != q)])
    if trips and (len(trips) > 1 or pairs):
        t = trips[0]
        # A second set of trips plays as the pair.
        p = max(trips[1:] + pairs)
        return _code(6, [t] * 3 + [p] * 2)
    high = _straight_high(set(present))
    if high is not None:
        return _code(4, _straight_ranks(high))
    if trips:
        t = trips[0]
        return _code(3, [t] * 3 + [r for r in present if r != t][:2])
    if len(pairs) > 1:
        p1, p2 = pairs[:2]
        return _code(2, [p1, p1, p2, p2] + [r for r in present if r not in (p1, p2)][:1])
    if pairs:
        p = pairs[0]
        return _code(1, [p, p] + [r for r in present if r != p][:3])
    return _code(0, present[:5])


def _flush_code(ranks: list[int]) -> int:
    """Code of the best five cards among five or more suited, distinct ranks."""
    high = _straight_high(set(ranks))
    if high is not None:
        return _code(8, _straight_ranks(high))
    return _code(5, sorted(ranks, reverse=True)[:5])


# ------------------------------------------------------------------ tables


def _card_keys() -> npt.NDArray[np.uint32]:
    return np.array(
        [(FACE_KEYS[c >> 2] << _SUIT_BITS) + SUIT_KEYS[c & 3] for c in range(52)],
        dtype=np.uint32,
    )


def _flush_suits() -> npt.NDArray[np.int8]:
    table = np.full((_MAX_CARDS + 1, 1 << _SUIT_BITS), -1, dtype=np.int8)
    for k in range(5, _MAX_CARDS + 1):
        for suits in combinations_with_replacement(range(4), k):
            total = sum(SUIT_KEYS[s] for s in suits)
            for s in range(4):
                if suits.count(s) >= 5:
                    table[k, total] = s
    return table


def _flush_values() -> npt.NDArray[np.uint16]:
    masks, codes = [], []
    for m in range(5, _MAX_CARDS + 1):
        for ranks in combinations(range(13), m):
            masks.append(sum(1 << r for r in ranks))
            codes.append(_flush_code(list(ranks)))
    table = np.zeros(1 << 13, dtype=np.uint16)
    table[masks] = value_from_code(codes)
    return table


#: Key of each card ``0..51``: ``(FACE_KEYS[rank] << 9) + SUIT_KEYS[suit]``.
CARD_KEYS: npt.NDArray[np.uint32] = _card_keys()
#: ``FLUSH_SUIT[k, key & 511]``: the suit with five or more of the k cards, or -1.
FLUSH_SUIT: npt.NDArray[np.int8] = _flush_suits()
#: Best flush or straight flush among the ranks of a 13-bit mask of 5 to 7 ranks (else 0).
FLUSH_VALUES: npt.NDArray[np.uint16] = _flush_values()
for _table in (CARD_KEYS, FLUSH_SUIT, FLUSH_VALUES):
    _table.setflags(write=False)
del _table

_SUIT_OF = np.arange(52, dtype=np.int8) & 3
_RANK_BIT = (1 << (np.arange(52) >> 2)).astype(np.uint16)


@cache
def face_sum_table(k: int) -> npt.NDArray[np.uint16]:
    """Value of every k-card hand without a flush, indexed by its face-key sum.

    Built on first use (about 15 MB for k = 7); entries no hand reaches are 0.

    >>> t = face_sum_table(5)
    >>> int(t[4 * FACE_KEYS[12] + FACE_KEYS[11]])  # four aces, king kicker
    7452
    """
    if k not in (5, 6, 7):
        raise ValueError(f"hand size must be 5, 6 or 7, got {k!r}")
    sums, codes = [], []
    for ranks in combinations_with_replacement(range(13), k):
        counts = [0] * 13
        for r in ranks:
            counts[r] += 1
        if max(counts) > _MAX_OF_A_RANK:
            continue
        sums.append(sum(FACE_KEYS[r] for r in ranks))
        codes.append(_plain_code(counts))
    table = np.zeros(max(sums) + 1, dtype=np.uint16)
    if len(set(sums)) != len(sums):
        raise AssertionError("face keys are not unique on rank multisets")
    table[sums] = value_from_code(codes)
    table.setflags(write=False)
    return table


# -------------------------------------------------------------- evaluation

# Rows per block: the temporaries of a block stay small enough for the
# CPU caches, while numpy's per-call overhead is still negligible.
_BLOCK = 1 << 16


def _checked(hands: npt.ArrayLike) -> npt.NDArray[np.integer]:
    # uint8 (N, k) arrays, as twoplustwo_builder.testdata.hands produces them, skip the int64
    # copy of as_hands: it would be the largest cost of an exhaustive run.
    if isinstance(hands, np.ndarray) and hands.dtype == np.uint8 and hands.ndim == 2:
        if not 5 <= hands.shape[1] <= _MAX_CARDS:
            raise ValueError(f"hands must have shape (N, 5..7), got {hands.shape}")
        if hands.size and hands.max() > 51:
            raise ValueError("cards must be in 0..51")
        return hands
    return as_hands(hands)


def hand_keys(hands: npt.ArrayLike) -> npt.NDArray[np.uint32]:
    """The 32-bit key of each hand: the sum of its cards' keys.

    >>> k = int(hand_keys([[0, 4, 8, 12, 17]])[0])  # 2c 3c 4c 5c 6d
    >>> k >> 9, k & 511  # face keys 0+1+5+22+98; suit keys 4*0 + 1
    (126, 1)
    """
    h = _checked(hands)
    keys: npt.NDArray[np.uint32] = CARD_KEYS[h].sum(axis=1, dtype=np.uint32)
    return keys


def evaluate(hands: npt.ArrayLike) -> npt.NDArray[np.uint16]:
    """Hand values (1..7462) of an ``(N, k)`` array of 5-, 6- or 7-card hands.

    Cards must be distinct within a hand; that is not checked.
    """
    h = _checked(hands)
    n, k = h.shape
    faces = face_sum_table(k)
    flush_suit = FLUSH_SUIT[k]
    out = np.empty(n, dtype=np.uint16)
    for lo in range(0, n, _BLOCK):
        block = h[lo : lo + _BLOCK]
        key = CARD_KEYS[block[:, 0]]
        for i in range(1, k):
            key += CARD_KEYS[block[:, i]]
        values = out[lo : lo + len(block)]
        faces.take(key >> _SUIT_BITS, out=values)
        suit = flush_suit[key & ((1 << _SUIT_BITS) - 1)]
        rows = np.flatnonzero(suit >= 0)
        if len(rows):
            # Flushes (about 3% of seven-card hands): only the flush suit's
            # ranks count; within one suit ranks are distinct, so a sum of
            # their bits is their mask.
            cards = block[rows]
            suited = _SUIT_OF[cards] == suit[rows, None]
            mask = np.where(suited, _RANK_BIT[cards], 0).sum(axis=1, dtype=np.intp)
            values[rows] = FLUSH_VALUES[mask]
    return out
