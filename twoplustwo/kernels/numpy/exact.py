"""The numpy twin of ``kernels/c/exact.c``: exact showdowns by counting boards, which needs the keyed tables.

C counts each rank multiset of the missing board cards once, its values
read from the keyed tables; a walker without them (another game's, or any
walker of this backend: :func:`twoplustwo.kernels.numpy.keyed.keyed_tables`
is False) says False with nothing written, and the caller lists the boards
down the DAG (:mod:`twoplustwo.odds.exact`), the route the tests hold the
counting to. Here the arguments are checked as C checks them before it
looks for its tables.

>>> from twoplustwo.kernels.numpy import DAGS, Walker
>>> from twoplustwo.tables.default import get_tables
>>> t = get_tables()
>>> w = Walker(*[[t.buffers[f"{d}/layer{k}"] for k in range(1, n + 1)] for d, n in DAGS], t.buffers["dag7/value5"],
...            t.buffers["dag7/value6"])
>>> import numpy as np
>>> holes = np.array([[[51, 50], [45, 44]]], dtype=np.uint8)
>>> counts, games = np.zeros((1, 2, 3), dtype=np.int64), np.zeros(1, dtype=np.int64)
>>> count_showdowns(w, holes, np.zeros(0, np.uint8), np.zeros(0, np.uint8), counts, games), int(games[0])
(False, 0)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from twoplustwo.kernels.numpy.args import array
from twoplustwo.kernels.numpy.keyed import keyed_tables

if TYPE_CHECKING:
    from twoplustwo.kernels.interface import I64, U8
    from twoplustwo.kernels.numpy.walker import Dags

__all__ = ["count_showdowns"]


def count_showdowns(w: Dags, holes: U8, known: U8, dead: U8, counts: I64, games: I64, /) -> bool:
    """False, nothing written: counting needs the keyed tables (:func:`keyed_tables`); the caller lists the boards."""
    h, k, d = array(holes), array(known), array(dead)
    c, g = array(counts, writable=True), array(games, writable=True)
    if h.ndim != 3 or h.itemsize != 1 or h.shape[2] != 2 or k.itemsize != 1 or d.itemsize != 1:
        raise ValueError("count_showdowns takes uint8 (deals, players, 2) holes, uint8 known and dead cards")
    if c.nbytes != h.shape[0] * h.shape[1] * 3 * 8 or g.nbytes != h.shape[0] * 8:
        raise ValueError("counts must be (deals, players, 3) and games (deals,)")
    assert not keyed_tables(w)  # were there keyed tables here, this would count
    return False
