"""The one interface both backends export: the C core and the numpy backend, split by job.

:mod:`twoplustwo.kernels.choice` picks a backend once; every caller then
holds a :class:`Walker` and calls its methods, never asking which backend
runs. A walker's methods come in five jobs: walking hands
(:class:`Evaluating`), enumerating hands and boards (:class:`Enumerating`),
scoring showdowns for exact equity (:class:`Scoring`), Monte Carlo games
(:class:`Sampling`) and sweeps of every combo on a board
(:class:`Sweeping`); a backend module adds hand indices
(:class:`Indexing`), k-means steps (:class:`Clustering`) and board classes
(:class:`Classifying`).
``twoplustwo.kernels._core`` (C, typed by its ``.pyi`` stub) and
:mod:`twoplustwo.kernels.numpy` both satisfy these protocols,
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

__all__ = [
    "Backend",
    "Classifying",
    "Clustering",
    "Enumerating",
    "Evaluating",
    "Indexing",
    "Layers",
    "Sampling",
    "Scoring",
    "Sweeping",
    "Walker",
    "WalkerClass",
]

#: A DAG's layers, or a value array: little-endian entries of 1, 2 or 4 bytes behind the buffer protocol.
Layers = Sequence[object]

U8 = npt.NDArray[np.uint8]
U16 = npt.NDArray[np.uint16]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]


class Evaluating(Protocol):
    """Walking hands to their values: single hands, batches of rows (c/single.c, walker.c, small.c, keyed.c, omaha.c).

    ``small_rows`` and ``keyed_tables`` say whether the tables C derives from
    the DAG for speed serve this walker (the numpy backend has none).
    """

    def evaluate(self, cards: object, /) -> int | None: ...
    # From the root, or on from node ``start`` at ``depth``, reached by the cards of the mask ``held``.
    @overload
    def walk_rows(self, hands: U8, out: U16, check: bool, /) -> int: ...
    @overload
    def walk_rows(self, hands: U8, out: U16, check: bool, depth: int, start: int, held: int, /) -> int: ...
    def small_rows(self, hands: U8, out: U16, /) -> bool: ...
    def keyed_tables(self) -> bool: ...
    def omaha(self, hole: object, board: object, /) -> int | None: ...
    def omaha_rows(self, holes: U8, boards: U8, out: U16, /) -> int: ...


class Enumerating(Protocol):
    """Every hand or board of a kind, walked with shared prefixes walked once (c/enumerate.c), and counted (small.c)."""

    def draw_values(self, node: int, depth: int, free: U8, out: U16, /) -> None: ...
    def fill_ordered(self, n: int, node: int, free: U8, include: U8, r0: int, cards: U8, values: U16, /) -> None: ...
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
    # False: the counting by rank multisets does not serve this walker (out untouched); count down the DAG.
    def histogram(self, n: int, out: I64, /) -> bool: ...


class Scoring(Protocol):
    """Exact equity: who wins each board, the pot shares (c/showdown.c), deals counted by rank multisets (exact.c)."""

    def score(self, values: U16, /) -> list[tuple[int, int, int]]: ...
    def score_tuples(self, values: U16, tuples: npt.NDArray[np.int32], counts: I64, games: I64, /) -> None: ...
    # False, nothing written, exactly where keyed_tables() is False: list the boards instead.
    def count_showdowns(self, holes: U8, known: U8, dead: U8, counts: I64, games: I64, /) -> bool: ...


class Sampling(Protocol):
    """Monte Carlo equity: a batch of sampled hold'em games played and tallied whole (c/sample.c)."""

    # False: not this walker's game (hold'em's walker alone plays them).
    def sample_games(self, hands: U8, board: U8, dead: U8, key: int, n: int, counts: I64, combos: I64, /) -> bool: ...


class Sweeping(Protocol):
    """Every combo against the others on five-card boards: preflop tables, strength, range equity (c/versus.c)."""

    def count_vs_random(self, boards: U8, weights: I64, out: I64, /) -> None: ...
    def board_wins(self, boards: U8, out: U16, /) -> None: ...
    def range_sweep(self, boards: U8, weights: F64, out: F64, /) -> None: ...
    def strength_sums(
        self, boards: U8, weights: I64, bins: int, first: I64, second: I64, histogram: I64, /
    ) -> None: ...


class Walker(Evaluating, Enumerating, Scoring, Sampling, Sweeping, Protocol):
    """Walks hands down one table set's DAGs: one game's deck, values and layers; its methods grouped by job."""


class WalkerClass(Protocol):
    """A backend's ``Walker`` type: hold'em's walker from dag5, dag6 and dag7, another game's from its dag7 alone,
    or from the DAGs of its own hand sizes (a 5-card ``dag5``, badugi's ``dag4``), the others None."""

    def __call__(
        self,
        dag5: Layers | None,
        dag6: Layers | None,
        dag7: Layers | None,
        value5: object,
        value6: object,
        *,
        deck: int | None = None,
        dag4: Layers | None = None,
        small: bool = True,
    ) -> Walker: ...


class Indexing(Protocol):
    """Suit-isomorphic hand indices under a round's plan (:mod:`twoplustwo.vocab.indexing`), and back (c/indexer.c)."""

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


class Clustering(Protocol):
    """The steps of k-means on uint16 rows (c/cluster.c), and under the earth mover's distance (transport.c)."""

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


class Classifying(Protocol):
    """What two hole cards hold on a board: made-hand codes and draw bits (c/classify.c), no tables."""

    def classify_rows(self, holes: U8, boards: U8, made: U8, draws: U8, /) -> int: ...


class Backend(Indexing, Clustering, Classifying, Protocol):
    """A backend module: its walker type, the Omaha low and board classes (no tables), hand indices, k-means steps."""

    @property
    def Walker(self) -> WalkerClass: ...  # noqa: N802 - the module's class
    def omaha_low_rows(self, holes: U8, boards: U8, out: U8, /) -> int: ...
