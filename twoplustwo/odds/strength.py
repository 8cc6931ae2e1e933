"""Exact hand strength against one random opponent: the expected hand strength, its square, its histogram.

The opponent holds two cards drawn uniformly from the unseen ones. On a
full board a hand wins ``W`` and ties ``T`` of the 990 opponent combos, and
its strength there is ``(W + T/2) / 990``. On an earlier street the board's
completions (46 rivers on the turn, 1,081 turn-river pairs on the flop,
2,118,760 boards before the flop) each give a river strength:

* ``ehs`` is their mean (before the flop: the exact equity against a random
  hand, :func:`~twoplustwo.preflop_vs_random`'s);
* ``ehs2`` is the mean of their squares, the hand's potential;
* with ``bins``, ``histogram`` counts the completions by bin
  ``min(bins - 1, (2W + T) * bins // 1980)``, in integers, so that every
  implementation agrees to the count.

All three are exact: sums of integers over every completion, divided once.

>>> s = strength("As Ah", "Kd 7c 2h", bins=5)  # aces on a dry flop: strong on nearly every runout
>>> round(s.ehs, 4), round(s.ehs2, 4), s.histogram.tolist()
(0.8873, 0.7888, [0, 0, 0, 3, 1078])

Every combo of a board is swept at once (the walker's ``board_wins``: one
sweep up the combos in order of value per completion), so
:func:`strength_batch` pays for each distinct board once, however many
hands share it; before the flop the 134,459 boards up to suit isomorphism
stand for all of them, and the results for every hand are kept.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Sequence
from math import comb
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from twoplustwo.hands.indexer import HandIndexer
from twoplustwo.hands.rows import read_rows, twice
from twoplustwo.kernels import pool
from twoplustwo.kernels.games import walker_of
from twoplustwo.odds.exact import completions
from twoplustwo.tables.default import get_tables
from twoplustwo.tables.format import MANIFEST, strength_served
from twoplustwo.tables.load import Tables
from twoplustwo.tables.optional import STRENGTH_BINS
from twoplustwo.vocab.cards import format_cards, parse_cards
from twoplustwo.vocab.combos import CLASS_OF, CLASS_ROWS, COMBO_ROW, N_COMBOS
from twoplustwo.vocab.suits import canonical_boards

__all__ = ["OPPONENTS", "Strength", "StrengthArrays", "class_shares", "from_tables", "strength", "strength_batch"]

#: Opponent combos a hand faces on a full board: C(45, 2).
OPPONENTS = comb(45, 2)
# Twice the opponents: a river's 2W + T is out of this.
_SCALE = 2 * OPPONENTS
# Completions swept per call of the kernel: a few megabytes of wins and ties.
_BLOCK = 512


class Strength(NamedTuple):
    """One hand's strength: ``ehs`` and ``ehs2`` in [0, 1], and the ``(bins,)`` int64 histogram or None."""

    ehs: float
    ehs2: float
    histogram: npt.NDArray[np.int64] | None


class StrengthArrays(NamedTuple):
    """Many hands' strengths: ``(N,)`` float64 ``ehs`` and ``ehs2``, and an ``(N, bins)`` int64 histogram or None."""

    ehs: npt.NDArray[np.float64]
    ehs2: npt.NDArray[np.float64]
    histogram: npt.NDArray[np.int64] | None


class _Sums(NamedTuple):
    """Per combo, over the completions it can see: Σ(2W+T), Σ(2W+T)², the histogram, and their number."""

    first: npt.NDArray[np.int64]
    second: npt.NDArray[np.int64]
    histogram: npt.NDArray[np.int64] | None
    runouts: int


def _check_bins(bins: object) -> int | None:
    if bins is None:
        return None
    if isinstance(bins, bool) or not hasattr(bins, "__index__"):
        raise TypeError(f"bins must be None or an int, got {type(bins).__name__}")
    n = operator.index(bins)
    if not 1 <= n <= _SCALE:
        raise ValueError(f"bins must be 1..{_SCALE}, got {n}")
    return int(n)


def _check_board(board: list[int], where: str = "board") -> None:
    if len(board) not in (0, 3, 4, 5):
        raise ValueError(f"{where} must hold 0, 3, 4 or 5 cards (a street), got {len(board)}")


def strength(
    hole: str | Sequence[int | str],
    board: str | Sequence[int | str] = (),
    *,
    bins: int | None = None,
    tables: Tables | None = None,
) -> Strength:
    """The exact strength of two hole cards on a board of 0, 3, 4 or 5 cards (see the module docstring).

    ``hole`` and ``board`` are card ints or text (``"As Kd"``); ``bins`` a
    positive int for the histogram. Raises ``ValueError`` for a card twice,
    a hand without two cards or a board of 1 or 2 cards, and
    :class:`~twoplustwo.tables.format.TableError` for a set that lists only
    part of the street's strength tables (spec/README.md, section 14).

    >>> s = strength("Ah Kh", "Qh Jh 2c 3d", bins=4)  # a flush draw and a gutshot, one card to come
    >>> round(s.ehs, 4), s.histogram.tolist()  # the 18 rivers that miss leave ace high; 18 make the nuts
    (0.631, [0, 18, 10, 18])
    """
    h, b = parse_cards(hole), parse_cards(board)
    if len(h) != 2:
        raise ValueError(f"hole must be 2 cards, got {len(h)}")
    _check_board(b)
    n_bins = _check_bins(bins)
    shared = set(h) & set(b)
    if shared:
        raise ValueError(f"{format_cards(sorted(shared))} is in both the hole and the board")
    t = get_tables(tables)
    read = from_tables(t, np.array([h]), np.array([b], dtype=np.intp).reshape(1, len(b)), n_bins)
    if read is not None:
        return Strength(float(read.ehs[0]), float(read.ehs2[0]), None if read.histogram is None else read.histogram[0])
    sums = _street(t, tuple(sorted(b)), n_bins)
    row = int(COMBO_ROW[h[0], h[1]])
    histogram = None if sums.histogram is None else sums.histogram[row].copy()
    ehs, ehs2 = _means(int(sums.first[row]), int(sums.second[row]), sums.runouts)
    return Strength(ehs, ehs2, histogram)


def strength_batch(
    holes: npt.ArrayLike,
    boards: npt.ArrayLike,
    *,
    bins: int | None = None,
    tables: Tables | None = None,
    threads: int | None = None,
) -> StrengthArrays:
    """:func:`strength` of every row: ``holes`` ``(N, 2)`` and ``boards`` ``(N, k)`` card ints, k in 0, 3, 4, 5.

    Each distinct board is swept once for all the hands on it, on
    ``threads`` threads (default: one per CPU).

    >>> s = strength_batch([[51, 50], [3, 7]], [[45, 20, 2], [45, 20, 2]])  # AsAh and 2s3s on Kd 7c 2h
    >>> [round(float(x), 4) for x in s.ehs]
    [0.8873, 0.5514]
    """
    h, b = _rows(holes, "holes", (2,)), _rows(boards, "boards", (0, 3, 4, 5))
    if len(h) != len(b):
        raise ValueError(f"holes and boards must have as many rows, got {len(h)} and {len(b)}")
    n_bins = _check_bins(bins)
    if not len(h):
        return StrengthArrays(np.empty(0), np.empty(0), None if n_bins is None else np.empty((0, n_bins), np.int64))
    pairs = twice(h)
    if pairs.any():
        raise ValueError(f"hole {int(np.argmax(pairs))} holds a card twice")
    shared = twice(np.concatenate([h, b], axis=1))
    if shared.any():
        raise ValueError(f"row {int(np.argmax(shared))} holds a card twice (hole and board)")
    t = get_tables(tables)
    read = from_tables(t, h, b, n_bins)
    if read is not None:
        return read
    workers = pool.resolve_threads(threads)
    keys, where = np.unique(np.sort(b, axis=1), axis=0, return_inverse=True)
    where = where.reshape(-1)
    rows = COMBO_ROW[h[:, 0], h[:, 1]]
    ehs = np.empty(len(h))
    ehs2 = np.empty(len(h))
    histogram = None if n_bins is None else np.empty((len(h), n_bins), dtype=np.int64)

    def fill(k: int) -> None:
        sums = _street(t, tuple(int(c) for c in keys[k]), n_bins)
        mine = np.flatnonzero(where == k)
        ehs[mine], ehs2[mine] = _means(sums.first[rows[mine]], sums.second[rows[mine]], sums.runouts)
        if histogram is not None and sums.histogram is not None:
            histogram[mine] = sums.histogram[rows[mine]]

    pool.run(min(workers, len(keys)) if len(keys) > 1 else 1, fill, range(len(keys)))
    return StrengthArrays(ehs, ehs2, histogram)


def from_tables(
    t: Tables, holes: npt.NDArray[np.intp], boards: npt.NDArray[np.intp], bins: int | None
) -> StrengthArrays | None:
    """The strengths of checked rows read from the set's strength tables, or None where it has none that serve.

    The tables (built by ``python -m twoplustwo_builder --strength``, spec
    section 14) hold exact sums per suit-isomorphic index; they serve every
    ``bins`` on the river, and ``bins`` None or :data:`STRENGTH_BINS` before it
    (None only, on the turn). Reads give exactly what the sweeps compute.
    A street is read from the roles
    :data:`~twoplustwo.tables.optional.STRENGTH_STREETS` gives it, all of
    them: a set that lists only some raises
    :class:`~twoplustwo.tables.format.TableError` naming the missing one
    (:func:`~twoplustwo.tables.format.strength_served`).
    """
    k = boards.shape[1]
    street = {0: "preflop", 3: "flop", 4: "turn", 5: "river"}[k]
    arrays = t.arrays
    if not strength_served(arrays.keys(), street, t.path / MANIFEST):
        return None
    if k != 5 and bins is not None and (bins != STRENGTH_BINS or f"strength/{street}/histogram" not in arrays):
        return None
    found = HandIndexer((2, k) if k else (2,)).index(np.concatenate([holes, boards], axis=1).astype(np.uint8))
    at = np.asarray(found, dtype=np.intp).reshape(-1)
    if k == 5:
        x = 2 * arrays["strength/river/wins"][at].astype(np.int64) + arrays["strength/river/ties"][at]
        histogram = None
        if bins is not None:
            histogram = np.zeros((len(at), bins), dtype=np.int64)
            histogram[np.arange(len(at)), np.minimum(bins - 1, x * bins // _SCALE)] = 1
        ehs, ehs2 = _means(x, x * x, 1)
        return StrengthArrays(ehs, ehs2, histogram)
    first = arrays[f"strength/{street}/sum"][at].astype(np.int64)
    if k == 0:
        words = arrays["strength/preflop/sum2"].reshape(-1, 2).astype(np.int64)
        second = words[at, 0] + (words[at, 1] << 32)
    else:
        second = arrays[f"strength/{street}/sum2"][at].astype(np.int64)
    histogram = None
    if bins is not None:
        histogram = arrays[f"strength/{street}/histogram"].reshape(-1, STRENGTH_BINS)[at].astype(np.int64)
    ehs, ehs2 = _means(first, second, comb(50 - k, 5 - k))
    return StrengthArrays(ehs, ehs2, histogram)


def _rows(a: npt.ArrayLike, what: str, widths: tuple[int, ...]) -> npt.NDArray[np.intp]:
    """``a`` read once into a private array of rows (an empty one is no rows of the first width), then checked."""
    arr = read_rows(a, what, widths, f"in {widths}")
    if arr.size and (arr.min() < 0 or arr.max() > 51):
        raise ValueError(f"{what} must be card ints 0..51")
    return arr.astype(np.intp)


def _means(first: Any, second: Any, runouts: int) -> tuple[Any, Any]:
    return first / (_SCALE * runouts), second / (_SCALE * _SCALE * runouts)


@functools.lru_cache(maxsize=16)
def _street(t: Tables, board: tuple[int, ...], bins: int | None) -> _Sums:
    """Every combo's sums over the completions of ``board`` (sorted) it can see; read-only, kept for reuse."""
    if not board:
        sums = _preflop(t, bins)
    else:
        runouts = completions(board)
        sums = _sweep(t, runouts, np.ones(len(runouts), dtype=np.int64), bins)
        sums = sums._replace(runouts=comb(50 - len(board), 5 - len(board)))
    for array in (sums.first, sums.second, sums.histogram):
        if array is not None:
            array.setflags(write=False)
    return sums


def _sweep(t: Tables, runouts: npt.NDArray[np.uint8], weights: npt.NDArray[np.int64], bins: int | None) -> _Sums:
    """Σ weight x (2W+T), x its square, and x its bin, per combo over the five-card ``runouts`` it misses.

    Many runouts are split over the package's threads (the sweeps release the GIL).
    """
    workers = pool.resolve_threads(None) if len(runouts) > 4 * _BLOCK else 1
    cuts = [len(runouts) * k // workers for k in range(workers + 1)]
    parts = pool.run(
        workers,
        lambda k: _sweep_part(t, runouts[cuts[k] : cuts[k + 1]], weights[cuts[k] : cuts[k + 1]], bins),
        range(workers),
    )
    first, second, histogram, _ = parts[0]
    for part in parts[1:]:
        first += part.first
        second += part.second
        if histogram is not None and part.histogram is not None:
            histogram += part.histogram
    return _Sums(first, second, histogram, 0)


def _sweep_part(t: Tables, runouts: npt.NDArray[np.uint8], weights: npt.NDArray[np.int64], bins: int | None) -> _Sums:
    first = np.zeros(N_COMBOS, dtype=np.int64)
    second = np.zeros(N_COMBOS, dtype=np.int64)
    histogram = np.zeros((N_COMBOS, bins or 0), dtype=np.int64)
    for lo in range(0, len(runouts), _BLOCK):
        block, w = np.ascontiguousarray(runouts[lo : lo + _BLOCK]), np.ascontiguousarray(weights[lo : lo + _BLOCK])
        walker_of(t).strength_sums(block, w, bins or 0, first, second, histogram)
    return _Sums(first, second, None if bins is None else histogram, 0)


def _preflop(t: Tables, bins: int | None) -> _Sums:
    """Every combo's sums over all C(50, 5) boards, from the boards up to suit isomorphism.

    Renaming the suits maps a class's combos and a board's class onto
    themselves, so a class's sums over the weighted canonical boards are
    its size times each of its combos' sums over every board.
    """
    boards, weights = canonical_boards()
    sums = _sweep(t, boards, weights, bins)
    first, second = (class_shares(a, CLASS_OF, len(CLASS_ROWS))[CLASS_OF] for a in (sums.first, sums.second))
    histogram = None if sums.histogram is None else class_shares(sums.histogram, CLASS_OF, len(CLASS_ROWS))[CLASS_OF]
    return _Sums(first, second, histogram, comb(50, 5))


def class_shares(
    sums: npt.NDArray[np.int64], classes: npt.NDArray[np.integer[Any]], n: int
) -> npt.NDArray[np.int64]:
    """Each class's share of per-combo ``sums`` taken over canonical boards: its combos' total over its size, exactly.

    ``classes`` gives each row of ``sums`` its class, ``0 .. n - 1``. Over
    every board a class's combos have equal sums, so the division is exact;
    ``AssertionError`` if it is not (the boards or their weights are wrong).

    >>> class_shares(np.array([6, 6, 2]), np.array([0, 0, 1]), 2).tolist()
    [6, 2]
    """
    at = np.asarray(classes, dtype=np.intp)
    per = np.zeros((n,) + sums.shape[1:], dtype=np.int64)
    np.add.at(per, at, sums)
    sizes = np.bincount(at, minlength=n).reshape((-1,) + (1,) * (sums.ndim - 1))
    if (per % sizes).any():
        raise AssertionError("a class's strength sums are not shared evenly by its combos")
    shares: npt.NDArray[np.int64] = per // sizes
    return shares
