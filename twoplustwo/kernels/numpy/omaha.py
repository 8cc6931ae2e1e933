"""Omaha: the best high of two hole cards and three board cards down dag5, and the ace-to-five eight-or-better
low, for one deal or for rows: the numpy twin of ``kernels/c/omaha.c``.

>>> from twoplustwo.kernels.numpy import DAGS, Walker
>>> from twoplustwo.tables.default import get_tables
>>> t = get_tables()
>>> w = Walker(*[[t.buffers[f"{d}/layer{k}"] for k in range(1, n + 1)] for d, n in DAGS], t.buffers["dag7/value5"],
...            t.buffers["dag7/value6"])
>>> omaha(w, [51, 47, 0, 1], [43, 39, 35])  # As Ks 2c 2d on Qs Js Ts: the royal flush
7462
>>> holes, boards = np.array([[51, 47, 0, 1]], dtype=np.uint8), np.array([[43, 39, 35]], dtype=np.uint8)
>>> out = np.zeros(1, dtype=np.uint8)
>>> omaha_low_rows(holes, boards, out), int(out[0])  # no three board cards of eight or under: no low
(-1, 0)
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from twoplustwo.kernels.numpy.args import array, plain
from twoplustwo.vocab.lows import LOW_BIT, LOW_VALUE

if TYPE_CHECKING:
    from twoplustwo.kernels.interface import U8, U16
    from twoplustwo.kernels.numpy.walker import Dags

__all__ = ["omaha", "omaha_low_rows", "omaha_rows"]

Layers = list[npt.NDArray[np.unsignedinteger[Any]]]
IntArray = npt.NDArray[np.intp]

# Rows per step of the Omaha kernels. A step's temporaries take 80 bytes a
# row per board triple and hole card (640 for PLO6), so at 4,096 rows they
# about fit a core's 1 MB L2 cache; twice as many rows ran at half the speed.
_OMAHA_STEP = 1 << 12
# For k board cards: the positions of every triple's first, second and third card.
_TRIPLES = {k: tuple(np.array(c, dtype=np.intp) for c in zip(*combinations(range(k), 3))) for k in (3, 4, 5)}


def omaha(w: Dags, hole: object, board: object, /) -> int | None:
    """The Omaha value of 4-6 plain hole ints and 3-5 board ints, all distinct; else None (the caller parses)."""
    w.holdem_only("omaha")
    h, b = plain(hole, 6), plain(board, 5)
    if h is None or b is None or len(h) < 4 or len(b) < 3 or len({*h, *b}) != len(h) + len(b):
        return None
    l1, l2, l3, l4, l5 = w.walks[5][0]  # dag5: its last layer holds values
    best = 0
    for i, x in enumerate(b):
        n1 = l1[x] * 52
        for j in range(i + 1, len(b)):
            n2 = l2[n1 + b[j]] * 52
            for z in b[j + 1 :]:
                n3 = l3[n2 + z] * 52
                for p in range(len(h) - 1):
                    n4 = l4[n3 + h[p]] * 52
                    for q in h[p + 1 :]:
                        v = l5[n4 + q]
                        if v > best:
                            best = v
    return int(best)


def omaha_rows(w: Dags, holes: U8, boards: U8, out: U16, /) -> int:
    """Omaha high values (uint16) of uint8 holes and boards; the first bad row (a card over 51 or twice) or -1."""
    w.holdem_only("omaha_rows")
    return _checked_rows(w.layers(5), holes, boards, out, "omaha_rows", 2)


def omaha_low_rows(holes: U8, boards: U8, out: U8, /) -> int:
    """Omaha eight-or-better low values (uint8, 0 for no low) of uint8 rows; the first bad row, or -1."""
    return _checked_rows(None, holes, boards, out, "omaha_low_rows", 1)


def _checked_rows(
    layers: Layers | None,
    holes: U8,
    boards: U8,
    out: npt.NDArray[Any],
    name: str,
    out_size: int,
) -> int:
    hb, bb, ob = array(holes), array(boards), array(out, writable=True)
    ok = (
        hb.ndim == 2
        and bb.ndim == 2
        and hb.itemsize == 1
        and bb.itemsize == 1
        and ob.itemsize == out_size
        and 4 <= hb.shape[1] <= 6
        and 3 <= bb.shape[1] <= 5
        and bb.shape[0] in (hb.shape[0], 1)
        and ob.nbytes == hb.shape[0] * out_size
    )
    if not ok:
        raise ValueError(
            f"{name} takes (N, 4..6) uint8 holes, (N or 1, 3..5) uint8 boards and a uint{8 * out_size} out of N"
        )
    return _rows(layers, hb.view("u1"), bb.view("u1"), ob.view(f"u{out_size}").reshape(-1))


def _rows(
    layers: Layers | None, holes: npt.NDArray[np.uint8], boards: npt.NDArray[np.uint8], out: npt.NDArray[Any]
) -> int:
    """``Walker.omaha_rows`` (the best high down dag5's ``layers``) or ``omaha_low_rows`` (``layers`` None).

    Returns the first row with a card over 51 or a card twice, or -1.
    """
    shared = len(boards) == 1 and len(holes) != 1
    for a in range(0, len(holes), _OMAHA_STEP):
        z = min(a + _OMAHA_STEP, len(holes))
        # Private copies, read once: checked and walked from the same cards.
        h = np.array(holes[a:z].T, dtype=np.intp)
        b = np.array((boards if shared else boards[a:z]).T, dtype=np.intp)
        bad = _bad_deals(h, b)
        if bad is not None:
            return a + bad
        out[a:z] = _low_step(h, b) if layers is None else _high_step(layers, h, b)
    return -1


def _bad_deals(h: IntArray, b: IntArray) -> int | None:
    """The first deal (column) with a card over 51 or a card twice, or None. Whole columns at a time: numpy's
    reductions along a short row axis cost several times more."""
    over = np.zeros(h.shape[1], dtype=bool)
    seen = np.zeros(h.shape[1], dtype=np.uint64)
    for col in (*h, *b):
        over |= col > 51
        bit = np.left_shift(np.uint64(1), (col & 63).astype(np.uint64))
        over |= (seen & bit) != 0
        seen |= bit
    return int(np.argmax(over)) if over.any() else None


def _high_step(layers: Layers, h: IntArray, b: IntArray) -> npt.NDArray[Any]:
    l1, l2, l3, l4, l5 = layers
    # Board triples down layers 1..3: a (triples, rows) array of nodes, times 52.
    x, y, z = _TRIPLES[len(b)]
    n = np.multiply(l1.take(b[x]), 52, dtype=np.intp)
    n = np.multiply(l2.take(n + b[y]), 52, dtype=np.intp)
    n3 = np.multiply(l3.take(n + b[z]), 52, dtype=np.intp)
    # Layer 4 once per (triple, hole card); the last hole card only ever comes second.
    n4 = [np.multiply(l4.take(n3 + card), 52, dtype=np.intp) for card in h[:-1]]
    best = np.zeros((len(n3), h.shape[1]), dtype=np.uint16)
    for i, j in combinations(range(len(h)), 2):
        np.maximum(best, l5.take(n4[i] + h[j]), out=best)
    return np.asarray(best.max(axis=0))


def _low_step(h: IntArray, b: IntArray) -> npt.NDArray[Any]:
    hb, bb = LOW_BIT[h], LOW_BIT[b]
    x, y, z = _TRIPLES[len(b)]
    triples = bb[x] | bb[y] | bb[z]
    best = np.zeros((len(triples), h.shape[1]), dtype=np.uint8)
    for i, j in combinations(range(len(h)), 2):
        np.maximum(best, LOW_VALUE[triples | (hb[i] | hb[j])], out=best)
    return np.asarray(best.max(axis=0))
