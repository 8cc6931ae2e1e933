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
"""

from __future__ import annotations

from typing import Callable

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
    out = rows.copy()
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


def join_layers(
    layers: list[Layer],
    carried: dict[int, npt.NDArray[np.int64]],
    progress: Callable[[int], None] | None = None,
    *,
    dont_care: bool = True,
) -> tuple[list[npt.NDArray[np.int64]], dict[int, npt.NDArray[np.int64]]]:
    """Join equivalent nodes at every depth, deepest first.

    ``carried[d]`` is a value each depth-``d`` node must keep (its 5- or
    6-card value). Returns the joined ``(N_d, 52)`` rows per depth, each
    entry a joined child index or, at the last depth, a hand value; and the
    carried values re-indexed to the joined nodes. With ``dont_care=False``
    dead entries all read 0 and rows join only when equal as they stand
    (the plain join, kept for comparison).
    """
    tables: list[npt.NDArray[np.int64]] = [np.empty(0, np.int64)] * len(layers)
    new_carried: dict[int, npt.NDArray[np.int64]] = {}
    child_map: npt.NDArray[np.int64] | None = None
    for layer in reversed(layers):
        d = layer.depth
        if child_map is None:
            dead = layer.next == 0
            rows = layer.next
        else:
            dead = layer.next == DEAD
            rows = np.where(dead, 0, child_map[np.where(dead, 0, layer.next)])
        extra = carried.get(d)
        fallback = extra if extra is not None else np.zeros(len(rows), np.int64)
        rows = fill_dead(rows, dead, fallback) if dont_care else np.where(dead, 0, rows)
        keyed = rows if extra is None else np.concatenate([rows, extra[:, None]], axis=1)
        uniq, first, inverse = np.unique(keyed, axis=0, return_index=True, return_inverse=True)
        # Number joined nodes by first appearance so the order follows the
        # canonical enumeration, not the row contents.
        order = np.argsort(first, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        child_map = rank[inverse.ravel()]
        tables[d] = rows[first[order]]
        if extra is not None:
            new_carried[d] = extra[first[order]]
        if progress:
            progress(d)
    return tables, new_carried
