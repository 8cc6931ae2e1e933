"""The bucket tables of a table set: each canonical hand's bucket on a street, for solvers' card abstraction.

A bucket table holds one unsigned int per index of the street's
:class:`~twoplustwo.HandIndexer` (``(2, 3)`` on the flop, ``(2, 4)`` on the
turn, ``(2, 5)`` on the river), buckets numbered from the weakest up. The
builder makes them (``twoplustwo abstraction --street flop --method emd --k
200``) and publishes them into the set; spec/README.md, section 15, gives
their roles to any other reader. :func:`buckets` maps one, read-only;
:func:`bucket_of` looks up one hand, and a batch of ``(N, 5)`` flop hands is
one index call: ``buckets("flop", "emd", 200)[HandIndexer((2, 3)).index(hands)]``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from twoplustwo.hands.indexer import HandIndexer
from twoplustwo.tables.default import get_tables
from twoplustwo.tables.load import Tables
from twoplustwo.tables.optional import BUCKET_STREETS, bucket_role
from twoplustwo.vocab.cards import format_cards, parse_cards

__all__ = ["bucket_of", "buckets"]

_STREET_OF = {3: "flop", 4: "turn", 5: "river"}


def buckets(street: str, method: str, k: int, *, tables: Tables | None = None) -> npt.NDArray[np.unsignedinteger[Any]]:
    """The table of ``k`` buckets by ``method`` on ``street`` (``"flop"``, ``"turn"`` or ``"river"``), memory-mapped.

    Entry ``i`` is the bucket (``0..k-1``, the weakest first) of the hands of
    index ``i`` of the street's indexer. The array is the set's own mapped
    table, read-only and in the dtype it is stored in (the smallest unsigned
    one that holds ``k - 1``: uint8 up to 256 buckets, else uint16), so that
    every process shares its pages and none makes a copy; cast a slice of it,
    not the whole, where another dtype is wanted. A set without the table
    raises ``ValueError`` saying how to build it, and one with an entry of
    ``k`` or more is refused.

    >>> buckets("flop", "emd", 999, tables=None)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the table set at ... has no buckets/flop/emd/999 table: build it with twoplustwo abstraction ...
    """
    role = bucket_role(street, method, k)
    t = get_tables(tables)
    if role not in t.arrays:
        raise ValueError(
            f"the table set at {t.path} has no {role} table: build it with "
            f"twoplustwo abstraction --street {street} --method {method} --k {k}"
        )
    return _checked(t, role, int(k))


# Checked once per set (a set is immutable): the scan of 123 million river entries takes a tenth of a second.
@functools.lru_cache(maxsize=16)
def _checked(t: Tables, role: str, k: int) -> npt.NDArray[np.unsignedinteger[Any]]:
    table: npt.NDArray[Any] = t.arrays[role]
    if table.dtype.kind != "u" or (len(table) and int(table.max()) >= k):
        raise ValueError(f"{t.path}: the {role} table holds a bucket of {k} or more (or is not unsigned ints)")
    return table


def bucket_of(
    hole: str | Sequence[int | str],
    board: str | Sequence[int | str],
    method: str,
    k: int,
    *,
    tables: Tables | None = None,
) -> int:
    """The bucket of two hole cards on a board of 3, 4 or 5 cards, from the set's table of ``k`` buckets by ``method``.

    >>> bucket_of("As Ah", "Kd 7c", "emd", 200)
    Traceback (most recent call last):
    ...
    ValueError: board must be 3, 4 or 5 cards, got 2
    """
    h, b = parse_cards(hole), parse_cards(board)
    if len(h) != 2:
        raise ValueError(f"hole must be 2 cards, got {len(h)}")
    if len(b) not in _STREET_OF:
        raise ValueError(f"board must be 3, 4 or 5 cards, got {len(b)}")
    shared = set(h) & set(b)
    if shared:
        raise ValueError(f"{format_cards(sorted(shared))} is in both the hole and the board")
    street = _STREET_OF[len(b)]
    table = buckets(street, method, k, tables=tables)
    return int(table[HandIndexer(BUCKET_STREETS[street][0]).index([*h, *b])])
