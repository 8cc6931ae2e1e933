"""The rows :func:`~twoplustwo.abstraction.kmeans.kmeans` clusters: their checks, and their distinct values.

The clustering sees only the distinct rows with their summed weights, in an
order that depends on their contents alone (:func:`distinct_rows`); the
checks read the caller's arrays once and copy no more than they must.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from twoplustwo.vocab.inputs import check_int, refuse_masked

__all__ = ["check_mass", "check_points", "describe", "distinct_rows", "sum_by"]


def check_points(points: Any, weights: Any, k: Any) -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.integer[Any]], int]:
    """The points (as given: no copy of millions of rows), the weights (a private copy) and their sum, checked."""
    refuse_masked(points, "points")
    refuse_masked(weights, "weights")
    if not isinstance(points, np.ndarray) or points.dtype != np.uint16 or points.ndim != 2:
        raise TypeError(f"points must be an (N, d) uint16 array, got {describe(points)}")
    if points.shape[1] < 1 or len(points) < 1:
        raise ValueError(f"points must hold at least one row of at least one value, got shape {points.shape}")
    if weights is None:
        w: npt.NDArray[np.integer[Any]] = np.ones(len(points), dtype=np.uint8)
        total = len(points)
    else:
        if not isinstance(weights, np.ndarray) or weights.dtype.kind not in "iu" or weights.shape != (len(points),):
            got = describe(weights)
            raise TypeError(f"weights must be None or an integer array of {len(points)} entries, got {got}")
        # Read once, in its own dtype (a byte a row, for counts): checked and summed as used.
        w = np.array(weights)
        if (w < 0).any():
            raise ValueError(f"weights must be at least 0: row {int(np.argmax(w < 0))} has a negative weight")
        top = int(w.max())
        # In int64 when no sum can overflow it, else as Python ints.
        total = int(w.sum(dtype=np.int64)) if top * len(w) < 1 << 62 else sum(w.tolist())
        if total >= 1 << 62:
            raise ValueError("weights must sum below 2**62")
        if total == 0:
            raise ValueError("weights must not all be 0")
    n = check_int(k, "k")
    if not 1 <= n <= 65536:
        raise ValueError(f"k must be from 1 to 65536, got {n}")
    return np.ascontiguousarray(points), w, total


def check_mass(
    distinct: npt.NDArray[np.uint16],
    inverse: npt.NDArray[np.integer[Any]],
    seen: npt.NDArray[np.bool_] | None,
    rest: npt.NDArray[np.uint16] | None,
) -> None:
    """Under EMD every row must hold the same mass, at most 65,535: checked on the rows as read once.

    ``distinct`` and ``inverse`` are the rows of positive weight (``seen``, or
    all of them for None), and ``rest`` the rows of weight 0, read once.
    """
    held = distinct.sum(axis=1, dtype=np.int64)
    left = np.zeros(0, dtype=np.int64) if rest is None else rest.sum(axis=1, dtype=np.int64)
    if seen is None or seen[0]:
        first = int(held[inverse[0]])
    else:
        first = int(left[0])
    if (held != first).any() or (left != first).any():
        by_row = np.empty(len(inverse) + len(left), dtype=np.int64)  # only on the way to the error
        if seen is None:
            by_row[:] = held[inverse]
        else:
            by_row[seen], by_row[~seen] = held[inverse], left
        i = int(np.argmax(by_row != first))
        raise ValueError(f"under metric 'emd' every row must hold the same mass: row {i} holds {by_row[i]}, "
                         f"row 0 holds {first}")  # fmt: skip
    if first > 65535:
        raise ValueError(f"under metric 'emd' the rows' mass must be at most 65,535, got {first}")


def sum_by(
    index: npt.NDArray[np.integer[Any]], values: npt.NDArray[Any], length: int, bound: int
) -> npt.NDArray[np.int64]:
    """``out[i]`` = the sum of ``values`` where ``index`` is ``i``, exactly, given sums below ``bound``.

    Float sums of integers below 2**53 are exact in any order, so bincount
    (fast) does it a block at a time; larger sums go through int64.
    """
    if bound < 1 << 53:
        out = np.zeros(length)
        step = 1 << 22
        for a in range(0, len(index), step):
            out += np.bincount(index[a : a + step], weights=values[a : a + step].astype(np.float64), minlength=length)
        return out.astype(np.int64)
    exact = np.zeros(length, dtype=np.int64)
    np.add.at(exact, index, values.astype(np.int64))
    return exact


def describe(a: Any) -> str:
    """What ``a`` is, for a message: "a 2-D uint8 array", or its type's name."""
    return f"a {a.ndim}-D {a.dtype} array" if isinstance(a, np.ndarray) else type(a).__name__


def _hashes(rows: npt.NDArray[np.uint16]) -> npt.NDArray[np.uint64]:
    """A 64-bit hash of each row, a block of rows at a time."""
    factors = np.random.default_rng(0x5EED).integers(1, 1 << 63, rows.shape[1], dtype=np.uint64) | np.uint64(1)
    h = np.zeros(len(rows), dtype=np.uint64)
    step = 1 << 20
    for a in range(0, len(rows), step):
        block = rows[a : a + step].astype(np.uint64)
        block *= factors
        part = block.sum(axis=1, dtype=np.uint64)
        part ^= part >> np.uint64(29)  # the low bits of a sum of products mix poorly: fold the high ones in
        h[a : a + step] = part
    return h


def distinct_rows(
    rows: npt.NDArray[np.uint16], private: bool = False
) -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.integer[Any]]]:
    """The distinct rows, in an order that depends on their contents alone, and each row's place among them.

    Rows are sorted by a 64-bit hash of their values, and rows of equal hash
    are checked to be equal; were two different rows ever to share a hash,
    the rows are sorted by their values instead (``np.unique``, several
    times slower on millions of rows). Places are int32 below 2**31 rows:
    memory, on the river's 123 million.

    ``rows`` may be the caller's (not ``private``), read three times: hashed,
    copied where a row stands for others, compared with that copy. The
    copies are checked against their hashes too, so that a row another
    thread changed meanwhile is seen, and then the work is done again on a
    private copy of the rows: the answer is always that of rows that were.
    """
    n = len(rows)
    h = _hashes(rows)
    order = np.argsort(h, kind="stable")
    h = h[order]
    new = np.empty(n, dtype=bool)
    new[0] = True
    np.not_equal(h[1:], h[:-1], out=new[1:])
    small = np.int32 if n < 1 << 31 else np.int64
    group = np.cumsum(new, dtype=small)
    group -= 1
    at = np.flatnonzero(new)
    first, hashed = order[at], h[at]
    del h, new, at
    distinct = rows[first]
    same = bool((_hashes(distinct) == hashed).all())
    check = 1 << 16
    for a in range(0, n, check):
        if not same:
            break
        same = bool((rows[order[a : a + check]] == distinct[group[a : a + check]]).all())
    if not same and not private:
        return distinct_rows(np.array(rows), private=True)
    if not same:  # two different rows of one hash
        distinct, inverse = np.unique(rows, axis=0, return_inverse=True)
        return distinct, inverse.reshape(-1).astype(np.intp)
    inverse = np.empty(n, dtype=small)
    inverse[order] = group
    return distinct, inverse
