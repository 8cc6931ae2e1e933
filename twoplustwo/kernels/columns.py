"""Whole columns of cards down a DAG's layers at once: the numpy walk both backends' callers share.

Each layer is read by one ``take`` over a column of cards (one hand per
column), so every lookup of a layer is one vectorised pass. The numpy
backend's batch walk runs on it, and so do the callers above the kernels
that walk rows they checked themselves (:mod:`twoplustwo.hands.batch`).

>>> import numpy as np
>>> from twoplustwo.tables.default import get_tables
>>> walk_columns(get_tables().layers("dag5"), np.array([[51], [47], [43], [39], [35]])).tolist()
[7462]
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["walk_columns"]

Layers = list[npt.NDArray[np.unsignedinteger[Any]]]


def walk_columns(layers: Layers, cols: npt.NDArray[np.integer[Any]], start: int = 0) -> npt.NDArray[np.unsignedinteger]:
    """The entries ``cols`` (one column of cards per layer, a hand per column) reach from node ``start`` (no checks)."""
    if not np.can_cast(cols.dtype, np.intp):
        cols = cols.astype(np.intp)
    first = cols[0] if not start else cols[0].astype(np.intp) + start * 52
    node = layers[0][first].astype(np.intp)
    for j, layer in enumerate(layers[1:], start=1):
        node *= 52
        node += cols[j]
        node = layer.take(node)
        if j + 1 < len(layers):
            node = node.astype(np.intp)
    return np.asarray(node)  # a plain array, not a memmap of the layer's class
