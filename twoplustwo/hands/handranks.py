"""Export the dag7 DAG as a classic 2+2 ``HandRanks.dat``, and convert between the two value scales.

Many programs already read ``HandRanks.dat``: one flat array of
little-endian int32, followed card by card. Cards are coded ``1..52``
(our card int + 1), a walk is ``p = HR[53 + c1]; p = HR[p + c2]; ...``, the
read of the seventh card gives the value, and for 5 or 6 cards one more read
``HR[p + 0]`` does. Classic values are ``category << 12 | rank``, with
categories 1 (high card) .. 9 (straight flush) and ranks counting from 1 for
the weakest hand of the category; 0 is invalid.

The export lays out every dag7 node as 53 slots: slot 0 is the value of the
hand so far (depths 5 and 6; 0 above), slot ``1 + card`` is the offset of the
child node, or at depth 6 the classic value of the seven-card hand. Offsets
0..52 are an all-zero dummy node, the root sits at 53, and each depth
follows the one before, so the file has ``53 * (1 + total nodes)`` entries.

>>> handranks_value(7462) == 9 << 12 | 10  # royal flush: 10th straight flush
True
>>> handranks_value(7462), hex(handranks_value(1))
(36874, '0x1001')
>>> value_from_handranks(36874)
7462
>>> handranks_value(np.array([1, 1277, 1278])).tolist()
[4097, 5373, 8193]
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, overload

import numpy as np
import numpy.typing as npt

from twoplustwo.progress import progress
from twoplustwo.tables.atomic import check_target, write_file
from twoplustwo.tables.default import get_tables
from twoplustwo.tables.format import TableError
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.inputs import int_array, is_int
from twoplustwo.vocab.values import CATEGORY_FIRST, CATEGORY_LAST, N_VALUES

__all__ = ["export_handranks", "handranks_value", "value_from_handranks"]

#: Slots per node: the value slot, then one per card.
_ROW = 53
#: Offset of the root node; offsets below it are the all-zero dummy node.
_ROOT = _ROW
_SHIFT = 12


def _classic_scale() -> tuple[npt.NDArray[np.int32], npt.NDArray[np.uint16]]:
    to = np.zeros(N_VALUES + 1, dtype=np.int32)  # our 0 (invalid) stays 0
    back = np.zeros((len(CATEGORY_FIRST) + 1) << _SHIFT, dtype=np.uint16)  # 0: no hand
    for cat, (first, last) in enumerate(zip(CATEGORY_FIRST, CATEGORY_LAST)):
        ours = np.arange(first, last + 1)
        classic = (cat + 1) << _SHIFT | (ours - first + 1)
        to[ours] = classic
        back[classic] = ours
    to.setflags(write=False)
    back.setflags(write=False)
    return to, back


# Lookup tables both ways, so that arrays convert with one gather.
_TO_CLASSIC, _FROM_CLASSIC = _classic_scale()


def _int_array(x: npt.NDArray[Any], what: str) -> npt.NDArray[Any]:
    """``x`` read once into a private copy, so that the values checked are the values converted."""
    if x.dtype.kind not in "iu":  # an array of the wrong type: the TypeError this module always raised
        raise TypeError(f"{what} must be integers, got an array of {x.dtype}")
    return int_array(x, what)


@overload
def handranks_value(value: int | np.integer[Any]) -> int: ...
@overload
def handranks_value(value: npt.NDArray[Any]) -> npt.NDArray[np.int32]: ...
def handranks_value(value: int | np.integer[Any] | npt.NDArray[Any]) -> int | npt.NDArray[np.int32]:
    """Our hand value ``1..7462`` as its classic ``HandRanks.dat`` value; an array maps element-wise.

    The order is kept: a stronger hand has the larger classic value too.

    >>> handranks_value(5854), handranks_value(7453) == 9 << 12 | 1  # the wheel, the steel wheel
    (20481, True)
    >>> handranks_value(0)
    Traceback (most recent call last):
    ...
    ValueError: hand value must be an int in 1..7462, got 0
    """
    if isinstance(value, np.ndarray):
        v = _int_array(value, "hand values")
        if v.size and (v.min() < 1 or v.max() > N_VALUES):
            i = int(np.flatnonzero((v < 1) | (v > N_VALUES))[0])
            raise ValueError(f"hand values must be in 1..{N_VALUES}, got {int(v.flat[i])} at flat index {i}")
        out: npt.NDArray[np.int32] = _TO_CLASSIC[v]
        return out
    if not is_int(value):
        raise TypeError(f"hand value must be an int or a numpy array of ints, got {type(value).__name__}")
    if not 1 <= value <= N_VALUES:
        raise ValueError(f"hand value must be an int in 1..{N_VALUES}, got {int(value)}")
    return int(_TO_CLASSIC[int(value)])


@overload
def value_from_handranks(classic: int | np.integer[Any]) -> int: ...
@overload
def value_from_handranks(classic: npt.NDArray[Any]) -> npt.NDArray[np.uint16]: ...
def value_from_handranks(classic: int | np.integer[Any] | npt.NDArray[Any]) -> int | npt.NDArray[np.uint16]:
    """The inverse of :func:`handranks_value`: a classic value as our ``1..7462``.

    Anything that is no classic value of a hand (0, a category outside 1..9,
    a rank past its category's last) raises ``ValueError`` naming it.

    >>> value_from_handranks(9 << 12 | 1)
    7453
    >>> value_from_handranks(5 << 12 | 11)  # there are 10 straights
    Traceback (most recent call last):
    ...
    ValueError: not a classic HandRanks.dat value: 20491 (0x500b)
    """
    if isinstance(classic, np.ndarray):
        c = _int_array(classic, "classic values")
        inside = (c >= 0) & (c < len(_FROM_CLASSIC))
        ours = _FROM_CLASSIC[np.where(inside, c, 0)]
        if not ours.all():
            bad = int(c.flat[int(np.flatnonzero(ours == 0)[0])])
            raise ValueError(f"not a classic HandRanks.dat value: {bad} ({bad:#x})")
        out: npt.NDArray[np.uint16] = ours
        return out
    if not is_int(classic):
        raise TypeError(f"classic value must be an int or a numpy array of ints, got {type(classic).__name__}")
    x = int(classic)
    v = int(_FROM_CLASSIC[x]) if 0 <= x < len(_FROM_CLASSIC) else 0
    if v == 0:
        raise ValueError(f"not a classic HandRanks.dat value: {x} ({x:#x})")
    return v


# ------------------------------------------------------------------- export


def _blocks(t: Tables) -> tuple[int, Iterator[npt.NDArray[np.int32]]]:
    """The number of entries of the export, and its entries in file order, a depth at a time.

    The table set is range-checked first: an entry out of range would become
    an offset outside its depth, or outside the file, for every reader.
    """
    nodes = t.nodes["dag7"]
    layers = t.layers("dag7")
    slot0 = {len(nodes) - 2: t.arrays["dag7/value5"], len(nodes) - 1: t.arrays["dag7/value6"]}
    for d, layer in enumerate(layers):
        last = d == len(layers) - 1
        limit = N_VALUES + 1 if last else nodes[d + 1]
        if layer.size and int(layer.max()) >= limit:
            raise TableError(f"{t.path}: dag7/layer{d + 1} holds {int(layer.max())}, not below {limit}: damaged tables")
    for depth, a in slot0.items():
        if a.size and int(a.max()) > N_VALUES:
            raise TableError(f"{t.path}: the value array of depth {depth} holds {int(a.max())}: damaged tables")
    base = [_ROOT]
    for n in nodes:
        base.append(base[-1] + _ROW * n)
    if base[-1] > 2**31 - 1:
        raise TableError(f"{t.path}: {base[-1]:,} entries do not fit the int32 offsets of HandRanks.dat")

    def blocks() -> Iterator[npt.NDArray[np.int32]]:
        yield np.zeros(_ROOT, dtype="<i4")
        for d, layer in enumerate(layers):
            rows = np.zeros((nodes[d], _ROW), dtype="<i4")
            cells = layer.reshape(nodes[d], 52)
            if d == len(layers) - 1:
                rows[:, 1:] = _TO_CLASSIC[cells]  # a dead 0 stays 0
            else:
                rows[:, 1:] = base[d + 1] + _ROW * cells.astype(np.int64)
            if d in slot0:
                rows[:, 0] = _TO_CLASSIC[slot0[d]]
            yield rows

    return base[-1], blocks()


def export_handranks(path: str | os.PathLike[str], *, tables: Tables | None = None, quiet: bool = False) -> Path:
    """Write the dag7 DAG of ``tables`` to ``path`` as a classic ``HandRanks.dat``; return the path.

    Every loader of the classic file reads it unchanged; from the current
    tables it is 114,563,316 bytes, against the original's 129,951,336. The
    bytes depend on the tables alone, so two exports of one set are
    identical. The file is written under a temporary name in the same
    directory, synced and renamed into place: a failure or an interrupt
    removes the temporary file and leaves whatever was at ``path``
    untouched. A symbolic link at ``path`` is followed and its target
    written so; a FIFO or a character device is written into, never
    replaced (:mod:`twoplustwo.tables.atomic`). A progress bar goes to stderr on a
    terminal unless ``quiet``.
    """
    target = check_target(path, "HandRanks.dat")
    write_handranks(target, tables, quiet)
    return target


def write_handranks(target: Path | int, tables: Tables | None, quiet: bool) -> int:
    """:func:`export_handranks` to a checked path or an open file descriptor; return the bytes written."""
    total, blocks = _blocks(get_tables(tables))
    with progress(4 * total, "B", desc="HandRanks.dat", quiet=quiet) as update:
        return write_file(target, blocks, update)
