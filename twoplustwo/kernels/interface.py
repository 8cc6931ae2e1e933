"""The one interface both backends export: the C core and the numpy reference.

:mod:`twoplustwo.kernels.choice` picks a backend once; every caller then
holds a :class:`Walker` and calls its methods, never asking which backend
runs. ``twoplustwo.kernels._core`` (C, typed by its ``.pyi`` stub) and
:mod:`twoplustwo.kernels.reference` (numpy) both satisfy these protocols,
which the type checker holds them to. Each method's arguments, results and
errors are those the C docstrings in ``kernels/c/`` give; arrays are
C-contiguous and of the item size each method names.

Modules import this one for the type checker only: ``typing`` costs
milliseconds, which a fresh process's first ``evaluate()`` would pay.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, overload

import numpy as np
import numpy.typing as npt

__all__ = ["Backend", "Layers", "Walker", "WalkerClass"]

#: A DAG's layers, or a value array: little-endian entries of 1, 2 or 4 bytes behind the buffer protocol.
Layers = Sequence[object]

U8 = npt.NDArray[np.uint8]
U16 = npt.NDArray[np.uint16]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]


class Walker(Protocol):
    """Walks hands down one table set's DAGs: one game's deck, values and layers."""

    def evaluate(self, cards: object, /) -> int | None: ...
    # From the root, or on from node ``start`` at ``depth``, reached by the cards of the mask ``held``.
    @overload
    def walk_rows(self, hands: U8, out: U16, check: bool, /) -> int: ...
    @overload
    def walk_rows(self, hands: U8, out: U16, check: bool, depth: int, start: int, held: int, /) -> int: ...
    def small_rows(self, hands: U8, out: U16, /) -> bool: ...
    def keyed_tables(self) -> bool: ...
    def draw_values(self, node: int, depth: int, free: U8, out: U16, /) -> None: ...
    def fill_ordered(self, n: int, node: int, free: U8, include: U8, r0: int, cards: U8, values: U16, /) -> None: ...
    def omaha(self, hole: object, board: object, /) -> int | None: ...
    def omaha_rows(self, holes: U8, boards: U8, out: U16, /) -> int: ...
    def rank_combos(self, node: int, depth: int, held: int, out: U16, /) -> None: ...
    def range_values(
        self,
        starts: npt.NDArray[np.uint32],
        held: npt.NDArray[np.uint64],
        depth: int,
        prefix: U8,
        free: U8,
        out: U16,
        /,
    ) -> None: ...
    def score_tuples(self, values: U16, tuples: npt.NDArray[np.int32], counts: I64, games: I64, /) -> None: ...
    def score(self, values: U16, /) -> list[tuple[int, int, int]]: ...
    def histogram(self, n: int, out: I64, /) -> bool: ...
    # A batch of sampled hold'em games (kernels/c/sample.c, kernels/sampling.py); False: not this walker's game.
    def sample_games(self, hands: U8, board: U8, dead: U8, key: int, n: int, counts: I64, combos: I64, /) -> bool: ...
    def count_showdowns(self, holes: U8, known: U8, dead: U8, counts: I64, games: I64, /) -> bool: ...
    def count_vs_random(self, boards: U8, weights: I64, out: I64, /) -> None: ...
    def board_wins(self, boards: U8, out: U16, /) -> None: ...
    def range_sweep(self, boards: U8, weights: F64, out: F64, /) -> None: ...
    def strength_sums(
        self, boards: U8, weights: I64, bins: int, first: I64, second: I64, histogram: I64, /
    ) -> None: ...


class WalkerClass(Protocol):
    """A backend's ``Walker`` type: hold'em's walker from dag5, dag6 and dag7, or another game's from its dag7 alone."""

    def __call__(
        self,
        dag5: Layers | None,
        dag6: Layers | None,
        dag7: Layers,
        value5: object,
        value6: object,
        *,
        deck: int | None = None,
    ) -> Walker: ...


class Backend(Protocol):
    """A backend module: its walker type, and the Omaha low, which needs no tables."""

    @property
    def Walker(self) -> WalkerClass: ...  # noqa: N802 - the module's class
    def omaha_low_rows(self, holes: U8, boards: U8, out: U8, /) -> int: ...
    # Suit-isomorphic hand indices under a round's plan (twoplustwo.kernels.indexing), and back.
    def index_rows(
        self,
        hands: U8,
        counts: U8,
        codes: npt.NDArray[np.uint32],
        offsets: npt.NDArray[np.uint64],
        slots: npt.NDArray[np.uint32],
        out: npt.NDArray[np.uint64],
        /,
    ) -> int: ...
    def unindex_rows(
        self,
        indices: npt.NDArray[np.uint64],
        counts: U8,
        codes: npt.NDArray[np.uint32],
        offsets: npt.NDArray[np.uint64],
        out: U8,
        /,
    ) -> int: ...
    # The steps of k-means on uint16 rows (twoplustwo.kernels.clustering).
    def nearest_rows(
        self, points: U16, centers: U16, labels: U16, dists: npt.NDArray[np.uint64], metric: int, /
    ) -> None: ...
    def assign_rows(
        self, points: U16, centers: U16, labels: U16, dists: npt.NDArray[np.uint64], lower: F64, drift: F64,
        half: F64, metric: int, /,
    ) -> None: ...  # fmt: skip
    def median_rows(
        self, points: U16, labels: U16, weights: I64, centers: U16, totals: I64, /
    ) -> None: ...
    def transport_rows(
        self, points: U16, centers: U16, ground: U16, labels: U16, dists: npt.NDArray[np.uint64], lower: F64,
        drift: F64, half: F64, stop: npt.NDArray[np.uint8] | None = None, /,
    ) -> None: ...  # fmt: skip
