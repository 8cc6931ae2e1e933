"""Join equivalent nodes bottom-up by hashing whole rows.

Two nodes at one depth are equivalent when every card leads them to the
same place (the same child, or at the last depth the same value) and they
carry the same 5- or 6-card value. Working from the deepest layer up, each
layer's rows are renumbered through the joins already made below, and equal
rows are joined with one ``np.unique`` pass: linear in the table size, with
no pairwise comparison.

Dead entries (transitions no valid hand takes) may hold anything. Filling
each with the entry of the same rank in another suit makes rows that differ
only where one of them is dead come out equal, so they join too: a made
flush with a sixth suited card, say, behaves like the same flush with an
off-suit card, and only the held suited card is dead in one of them.

No single fill serves every pair, though: 2c 4c 5c 6c 8c 9c and
3c 4c 5c 6c 8c 9c agree everywhere both are live, but each one's dead card
must read the other's six-high straight flush. A second pass finds such
rows by hashing, per suit, everything outside that suit (where the dead
entries of most rows lie), and joins the rows of a bucket that agree on
every entry live in both.

A game with a smaller deck keeps 52-wide rows; the columns of cards
outside its deck are dead in every row alike. They are set to 0 and then
treated as live, so they never tell rows apart, and the second pass, which
looks for rows whose dead entries lie in one suit, still finds them.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from .states import DEAD, Layer

__all__ = ["fill_dead", "join_layers"]


def fill_dead(
    rows: npt.NDArray[np.int64], dead: npt.NDArray[np.bool_], fallback: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """Give each dead entry the entry of the same rank in the next live suit.

    Where all four cards of a rank are dead (quads held), the row's
    ``fallback`` is used, so such rows still agree with their twins.
    """
    out: npt.NDArray[np.int64] = rows.copy()
    by_rank = out.reshape(len(out), 13, 4)
    dead4 = dead.reshape(len(out), 13, 4)
    for s in range(4):
        for step in (1, 2, 3):
            other = (s + step) % 4
            take = dead4[:, :, s] & ~dead4[:, :, other]
            # Only fill from live entries, so the result is independent of order.
            by_rank[:, :, s] = np.where(take, by_rank[:, :, other], by_rank[:, :, s])
            dead4_s = dead4[:, :, s] & ~take
            if not dead4_s.any():
                break
            dead4 = dead4.copy()
            dead4[:, :, s] = dead4_s
    still = dead4.reshape(len(out), 52)
    out[still] = np.broadcast_to(fallback[:, None], out.shape)[still]
    return out


def _compatible_pairs(
    rows: npt.NDArray[np.int64], dead: npt.NDArray[np.bool_], extra: npt.NDArray[np.int64] | None
) -> list[tuple[int, int]]:
    """Pairs of rows that agree wherever both are live, among rows whose dead entries share a suit.

    Rows are bucketed by everything outside that suit (and the carried
    value); within a bucket only the suit's 13 entries are compared, all
    pairs at once, one offset between bucket members at a time.
    """
    n = len(rows)
    suit_dead = dead.reshape(n, 13, 4).any(axis=1)
    found: set[tuple[int, int]] = set()
    for s in range(4):
        cand = np.flatnonzero(~np.delete(suit_dead, s, axis=1).any(axis=1))
        on = np.arange(s, 52, 4)
        key = rows[np.ix_(cand, np.setdiff1d(np.arange(52), on))]
        if extra is not None:
            key = np.concatenate([key, extra[cand, None]], axis=1)
        _, bucket = _unique_rows(key)
        counts = np.bincount(bucket)
        order = np.argsort(bucket, kind="stable")
        bucket, members = bucket[order], cand[order]
        for k in range(1, int(counts.max())):
            same = bucket[k:] == bucket[:-k]
            i, j = members[:-k][same], members[k:][same]
            ok = ((rows[i][:, on] == rows[j][:, on]) | dead[i][:, on] | dead[j][:, on]).all(axis=1)
            ok &= (dead[i] != dead[j]).any(axis=1)  # equal rows were joined already
            found.update(zip(i[ok].tolist(), j[ok].tolist()))
    return sorted(found)


def _join_compatible(
    rows: npt.NDArray[np.int64], dead: npt.NDArray[np.bool_], extra: npt.NDArray[np.int64] | None
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Group rows that agree wherever both are live; return (group of each row, rows).

    Compatibility is not transitive, so each pair joins only when the two
    groups it would join still agree. Returned rows take, at each entry
    dead in their own row, the live entry of another member of their group.
    """
    n = len(rows)
    parent = np.arange(n)
    merged: dict[int, tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]] = {}
    for a, b in _compatible_pairs(rows, dead, extra):
        ra, rb = _find(parent, a), _find(parent, b)
        if ra == rb:
            continue
        row_a, dead_a = merged.get(ra, (rows[ra], dead[ra]))
        row_b, dead_b = merged.get(rb, (rows[rb], dead[rb]))
        both = ~dead_a & ~dead_b
        if not np.array_equal(row_a[both], row_b[both]):
            continue
        root, other = min(ra, rb), max(ra, rb)
        parent[other] = root
        merged.pop(other, None)
        joined = row_a.copy()
        joined[dead_a] = row_b[dead_a]
        merged[root] = (joined, dead_a & dead_b)
    group = np.array([_find(parent, i) for i in range(n)])
    out = rows.copy()
    for root, (row, _) in merged.items():
        out[group == root] = row
    return group, out


def _find(parent: npt.NDArray[np.int64], i: int) -> int:
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = int(parent[i])
    return i


_HASH_WEIGHTS = np.random.default_rng(2026).integers(1, 2**63, size=64, dtype=np.uint64) | np.uint64(1)


def _unique_rows(rows: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """``(first, inverse)`` of the distinct rows, like ``np.unique(axis=0)`` but hashed.

    Sorting 64-bit row hashes is several times faster than sorting rows;
    every row is then compared with its group's first row, so a hash
    collision can only cost time (the exact sort), never a wrong join.
    """
    with np.errstate(over="ignore"):
        h = rows.astype(np.uint64) @ _HASH_WEIGHTS[: rows.shape[1]]
    _, first, inverse = np.unique(h, return_index=True, return_inverse=True)
    inverse = inverse.ravel()
    if not np.array_equal(rows, rows[first[inverse]]):
        _, first, inverse = np.unique(rows, axis=0, return_index=True, return_inverse=True)
        inverse = inverse.ravel()
    return first, inverse


def join_layers(
    layers: list[Layer],
    carried: dict[int, npt.NDArray[np.int64]],
    progress: Callable[[int], None] | None = None,
    *,
    dont_care: bool = True,
    in_deck: npt.NDArray[np.bool_] | None = None,
) -> tuple[list[npt.NDArray[np.int64]], dict[int, npt.NDArray[np.int64]]]:
    """Join equivalent nodes at every depth, deepest first.

    ``carried[d]`` is a value each depth-``d`` node must keep (its 5- or
    6-card value). Returns the joined ``(N_d, 52)`` rows per depth, each
    entry a joined child index or, at the last depth, a hand value; and the
    carried values re-indexed to the joined nodes. With ``dont_care=False``
    dead entries all read 0 and rows join only when equal as they stand
    (the plain join, kept for comparison). ``in_deck`` marks the game's
    cards (default: all 52); the entries of the others are 0.
    """
    outside = None if in_deck is None or in_deck.all() else ~in_deck
    tables: list[npt.NDArray[np.int64]] = [np.empty(0, np.int64)] * len(layers)
    new_carried: dict[int, npt.NDArray[np.int64]] = {}
    child_map: npt.NDArray[np.int64] | None = None
    for layer in reversed(layers):
        d = layer.depth
        last = child_map is None
        if child_map is None:
            dead = layer.next == 0
            rows = layer.next
        else:
            dead = layer.next == DEAD
            rows = np.where(dead, 0, child_map[np.where(dead, 0, layer.next)])
        if outside is not None:
            rows = np.where(outside, 0, rows)
            dead = dead & ~outside
        extra = carried.get(d)
        fallback = extra if extra is not None else np.zeros(len(rows), np.int64)
        rows = fill_dead(rows, dead, fallback) if dont_care else np.where(dead, 0, rows)
        keyed = rows if extra is None else np.concatenate([rows, extra[:, None]], axis=1)
        first, inverse = _unique_rows(keyed)
        if dont_care and last:
            # Only the last layer has such pairs (every one of them made
            # flushes); higher up, the pass would cost far more than it joins.
            # A joined row is dead only where every member is.
            live = np.zeros((len(first), 52), dtype=bool)
            i, c = np.nonzero(~dead)
            live[inverse[i], c] = True
            group, joined_rows = _join_compatible(rows[first], ~live, None if extra is None else extra[first])
            rows = joined_rows[group][inverse]
            # Group ids are indices into ``first``; a group's first member is its smallest row index.
            roots, inverse = np.unique(group[inverse], return_inverse=True)
            first = np.full(len(roots), len(rows))
            np.minimum.at(first, inverse, np.arange(len(rows)))
        # Number joined nodes by first appearance so the order follows the
        # canonical enumeration, not the row contents.
        order = np.argsort(first, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        child_map = rank[inverse]
        tables[d] = rows[first[order]]
        if extra is not None:
            new_carried[d] = extra[first[order]]
        if progress:
            progress(d)
    return tables, new_carried
