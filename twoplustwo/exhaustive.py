"""Whole spaces of hands at once: value histograms by dynamic programming.

Sorted hands share their prefixes, so instead of walking every hand the
count of prefixes reaching each (node, last card) pair is carried down the
DAG: a hand ``c1 < ... < cn`` extends a prefix ending at card ``l`` with any
card above ``l``. One pass per layer, each linear in the layer's size.

>>> h = histogram(5)
>>> int(h.sum()), int((h > 0).sum())
(2598960, 7462)
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .tables import Tables, get_tables

__all__ = ["histogram"]


def _prefix_counts(tables: Tables, dag: str, depth: int) -> npt.NDArray[np.float64]:
    """``(nodes at depth, 52)``: sorted prefixes of ``depth`` cards per node and last card.

    Counts are float64 (exact below 2**53) because ``np.bincount`` weights are.
    """
    layers = tables.layers(dag)
    nodes = tables.nodes[dag]
    counts = np.zeros((nodes[1], 52))
    counts[np.asarray(layers[0]), np.arange(52)] += 1
    for d in range(1, depth):
        # Prefixes ending below card c, per node: they may all take c next.
        w = np.cumsum(counts, axis=1) - counts
        child = np.asarray(layers[d], dtype=np.int64).reshape(-1, 52) * 52 + np.arange(52)
        counts = np.bincount(child.ravel(), weights=w.ravel(), minlength=nodes[d + 1] * 52)
        counts = counts.reshape(-1, 52)
    return counts


def histogram(n: int = 7, tables: Tables | None = None) -> npt.NDArray[np.int64]:
    """Number of ``n``-card hands (n = 5, 6, 7) with each value; index = value.

    The result has length 7463 and ``result[0] == 0``.
    """
    if n not in (5, 6, 7):
        raise ValueError(f"n must be 5, 6 or 7, got {n}")
    t = tables or get_tables()
    counts = _prefix_counts(t, f"dag{n}", n - 1)
    w = np.cumsum(counts, axis=1) - counts
    values = np.asarray(t.layers(f"dag{n}")[-1], dtype=np.int64)
    hist = np.bincount(values, weights=w.ravel(), minlength=7463)
    return np.rint(hist).astype(np.int64)
