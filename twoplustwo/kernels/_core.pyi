"""Types of the C extension ``twoplustwo.kernels._core`` (sources in ``kernels/c/``, one unit per job).

Arrays are C-contiguous numpy arrays (or any object with the buffer
protocol and the same item size) of the dtypes given here; the methods
check them and raise ``ValueError``, or ``TypeError`` for a wrong count
of arguments. The C docstrings in ``kernels/c/`` say what each computes.
"""

from collections.abc import Callable, Sequence
from typing import Final, overload

import numpy as np
import numpy.typing as npt

from twoplustwo.tables.load import Tables

_U8 = npt.NDArray[np.uint8]
_U16 = npt.NDArray[np.uint16]
_I64 = npt.NDArray[np.int64]
_F64 = npt.NDArray[np.float64]

#: Pot shares are counted in units of 1/POT_UNITS of a pot: lcm(1..9).
POT_UNITS: Final = 2520
#: Single hands walk the DAG until SMALL_AFTER of them have, then read the small tables until KEYED_AFTER more
#: have, then the keyed tables (the tests size their runs by these).
SMALL_AFTER: Final = 2048
KEYED_AFTER: Final = 65536
#: The loop that checked batches of whole hold'em hands run: "scalar", "avx2" or "avx512", as
#: $TWOPLUSTWO_BATCH_LOOP chose at import (unset: the best this processor has).
VECTOR_BATCHES: Final[str]
#: The loops this processor has, the scalar loop first and the best last.
BATCH_LOOPS: Final[tuple[str, ...]]

class Walker:
    # Layers and value arrays: little-endian entries of 1, 2 or 4 bytes
    # behind the buffer protocol. dag5 and dag6 are both None for another
    # game's walker, whose 5- and 6-card hands walk dag7 into value5 and value6;
    # a game of other sizes gives the DAGs of its sizes (dag4: badugi's), the rest
    # None. small=False: no small or keyed tables stand for the DAG.
    def __init__(
        self,
        dag5: Sequence[object] | None,
        dag6: Sequence[object] | None,
        dag7: Sequence[object] | None,
        value5: object,
        value6: object,
        *,
        deck: int | None = None,
        dag4: Sequence[object] | None = None,
        small: bool = True,
    ) -> None: ...
    def evaluate(self, cards: object, /) -> int | None: ...
    # From the root, or on from node `start` at `depth`, reached by the
    # cards of the mask `held`: all three or none (else TypeError).
    @overload
    def walk_rows(self, hands: _U8, out: _U16, check: bool, /) -> int: ...
    @overload
    def walk_rows(self, hands: _U8, out: _U16, check: bool, depth: int, start: int, held: int, /) -> int: ...
    def small_rows(self, hands: _U8, out: _U16, /) -> bool: ...
    def keyed_tables(self) -> bool: ...
    # The checked batches' loop numbered `loop` through the keyed tables (twoplustwo.kernels.choice.LOOPS: 0
    # scalar, 1 avx2, 2 avx512; ValueError for one this processor lacks), for the tests: the first bad row, or -1.
    def keyed_rows(self, hands: _U8, out: _U16, loop: int, /) -> int: ...
    def draw_values(self, node: int, depth: int, free: _U8, out: _U16, /) -> None: ...
    def fill_ordered(
        self, n: int, node: int, free: _U8, include: _U8, r0: int, cards: _U8, values: _U16, /
    ) -> None: ...
    def range_values(
        self,
        starts: npt.NDArray[np.uint32],
        held: npt.NDArray[np.uint64],
        depth: int,
        prefix: _U8,
        free: _U8,
        out: _U16,
        /,
    ) -> None: ...
    def rank_combos(self, node: int, depth: int, held: int, out: _U16, /) -> None: ...
    def histogram(self, n: int, out: _I64, /) -> bool: ...
    def sample_games(
        self, hands: _U8, board: _U8, dead: _U8, key: int, n: int, counts: _I64, combos: _I64, /
    ) -> bool: ...
    def count_showdowns(self, holes: _U8, known: _U8, dead: _U8, counts: _I64, games: _I64, /) -> bool: ...
    def count_vs_random(self, boards: _U8, weights: _I64, out: _I64, /) -> None: ...
    def board_wins(self, boards: _U8, out: _U16, /) -> None: ...
    def range_sweep(self, boards: _U8, weights: _F64, out: _F64, /) -> None: ...
    def strength_sums(
        self, boards: _U8, weights: _I64, bins: int, first: _I64, second: _I64, histogram: _I64, /
    ) -> None: ...
    def score(self, values: _U16, /) -> list[tuple[int, int, int]]: ...
    def score_tuples(self, values: _U16, tuples: npt.NDArray[np.int32], counts: _I64, games: _I64, /) -> None: ...
    def omaha(self, hole: object, board: object, /) -> int | None: ...
    def omaha_rows(self, holes: _U8, boards: _U8, out: _U16, /) -> int: ...

def evaluate(cards: object, *, game: str = "holdem", tables: Tables | None = None) -> int: ...
def set_default(walker: Walker | None, /) -> None: ...
def set_fallback(fn: Callable[..., int], /) -> None: ...
def set_game(name: str, walker: Walker, /) -> None: ...
def omaha_low_rows(holes: _U8, boards: _U8, out: _U8, /) -> int: ...
def classify_rows(holes: _U8, boards: _U8, made: _U8, draws: _U8, /) -> int: ...
# A round's plan: twoplustwo.vocab.indexing.plan (counts, codes, offsets, slots).
def index_rows(
    hands: _U8,
    counts: _U8,
    codes: npt.NDArray[np.uint32],
    offsets: npt.NDArray[np.uint64],
    slots: npt.NDArray[np.uint32],
    out: npt.NDArray[np.uint64],
    /,
) -> int: ...
def unindex_rows(
    indices: npt.NDArray[np.uint64],
    counts: _U8,
    codes: npt.NDArray[np.uint32],
    offsets: npt.NDArray[np.uint64],
    out: _U8,
    /,
) -> int: ...
# k-means steps on uint16 rows (twoplustwo.kernels.numpy.cluster, .transport).
def nearest_rows(
    points: _U16, centers: _U16, labels: _U16, dists: npt.NDArray[np.uint64], metric: int, /
) -> None: ...
def assign_rows(
    points: _U16,
    centers: _U16,
    labels: _U16,
    dists: npt.NDArray[np.uint64],
    lower: npt.NDArray[np.float64],
    drift: npt.NDArray[np.float64],
    half: npt.NDArray[np.float64],
    metric: int,
    /,
) -> None: ...
def median_rows(
    points: _U16, labels: _U16, weights: npt.NDArray[np.int64], centers: _U16, totals: npt.NDArray[np.int64], /
) -> None: ...
def transport_rows(
    points: _U16,
    centers: _U16,
    ground: _U16,
    labels: _U16,
    dists: npt.NDArray[np.uint64],
    lower: npt.NDArray[np.float64],
    drift: npt.NDArray[np.float64],
    half: npt.NDArray[np.float64],
    stop: npt.NDArray[np.uint8] | None = None,
    /,
) -> None: ...
