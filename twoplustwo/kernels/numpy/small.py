"""The numpy twin of ``kernels/c/small.c``: the single-hand fast path's tables, which this backend does without.

C derives small tables from dag7 (each rank multiset's value, each
flush's) for single hands, and counts ``histogram`` through them. The
numpy backend has no derived tables (:data:`twoplustwo.kernels.numpy.DERIVED_TABLES`): its single
hands walk the DAG, so ``small_rows`` gives the DAG's values and says
False, and ``histogram`` checks its arguments and says False, the answer C
gives where its small tables do not stand for the table set. Callers then
count down the DAG (:func:`twoplustwo.hands.value_counts.histogram`), as
they do for C on such a table set.

>>> from twoplustwo.kernels.numpy import DAGS, Walker
>>> from twoplustwo.tables.default import get_tables
>>> t = get_tables()
>>> w = Walker(*[[t.buffers[f"{d}/layer{k}"] for k in range(1, n + 1)] for d, n in DAGS], t.buffers["dag7/value5"],
...            t.buffers["dag7/value6"])
>>> import numpy as np
>>> out = np.zeros(1, dtype=np.uint16)
>>> small_rows(w, np.array([[51, 47, 43, 39, 35]], dtype=np.uint8), out), int(out[0])
(False, 7462)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from twoplustwo.kernels.columns import walk_columns
from twoplustwo.kernels.numpy.args import ALL_CARDS, array, long
from twoplustwo.kernels.numpy.walker import DERIVED_TABLES

if TYPE_CHECKING:
    from twoplustwo.kernels.interface import I64, U8, U16
    from twoplustwo.kernels.numpy.walker import Dags

__all__ = ["histogram", "small_rows"]



def small_rows(w: Dags, hands: U8, out: U16, /) -> bool:
    """Values of (N, 5..7) rows of distinct cards of the deck, as single hands get them; False: no small tables."""
    h, o = array(hands), array(out, writable=True)
    k = h.shape[1] if h.ndim == 2 else 0
    ok = h.ndim == 2 and h.itemsize == 1 and 5 <= k <= 7 and k in w.sizes and o.ndim == 1 and o.itemsize == 2
    rows = h.view("u1").T.copy() if ok and o.shape[0] == h.shape[0] else None
    if rows is None or (rows.size and rows.max() > 51):
        raise ValueError("small_rows takes (N, 5..7) uint8 rows of cards 0..51 and a uint16 out")
    o.view("u2")[...] = walk_columns(w.layers(k), rows)
    return DERIVED_TABLES


def histogram(w: Dags, n: int, out: I64, /) -> bool:
    """False, out untouched: counting by rank multisets needs the small tables; the caller counts down the DAG."""
    size = long(n)
    if w.deck != ALL_CARDS:
        return False
    o = array(out, writable=True)
    if not 5 <= size <= 7 or o.dtype.kind != "i" or o.itemsize != 8 or o.size != 7463:
        raise ValueError("histogram takes n = 5..7 and an int64 array of 7463 entries")
    return DERIVED_TABLES
