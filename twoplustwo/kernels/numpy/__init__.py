"""The numpy backend: the C core's interface, one module per C unit of ``kernels/c/``, the same names.

``TWOPLUSTWO_BACKEND=numpy`` runs everything through it, and the tests hold
the C core (``twoplustwo.kernels._core``) to it call by call, on the same
inputs: each takes the C function's arguments, checks them as C does (the
same exceptions and messages, read by :mod:`~twoplustwo.kernels.numpy.args`
as ``args.c`` reads them) and gives the same result.

=================  ==============================================
C unit             numpy module
=================  ==============================================
``module.c``       this package: its functions and constants
``args.c``         :mod:`~twoplustwo.kernels.numpy.args`
``walker.c``       :mod:`~twoplustwo.kernels.numpy.walker`, and the method table :class:`Walker`
``single.c``       :mod:`~twoplustwo.kernels.numpy.single`
``small.c``        :mod:`~twoplustwo.kernels.numpy.small`
``keyed.c``        :mod:`~twoplustwo.kernels.numpy.keyed`
``enumerate.c``    :mod:`~twoplustwo.kernels.numpy.enumerate`
                   (its draws: :mod:`~twoplustwo.kernels.numpy.draws`)
``exact.c``        :mod:`~twoplustwo.kernels.numpy.exact`
``sample.c``       :mod:`~twoplustwo.kernels.numpy.sample`
``showdown.c``     :mod:`~twoplustwo.kernels.numpy.showdown`
``versus.c``       :mod:`~twoplustwo.kernels.numpy.versus`
``omaha.c``        :mod:`~twoplustwo.kernels.numpy.omaha`
``indexer.c``      :mod:`~twoplustwo.kernels.numpy.indexer`
``cluster.c``      :mod:`~twoplustwo.kernels.numpy.cluster`
``transport.c``    :mod:`~twoplustwo.kernels.numpy.transport`
``classify.c``     :mod:`~twoplustwo.kernels.numpy.classify`
=================  ==============================================

What the C core derives from the DAG for speed (the small and keyed
tables), this backend does without (:data:`DERIVED_TABLES` is False): the
calls that read them give the answer C gives where they do not stand for
the table set (``keyed_tables()``, ``small_rows``, ``histogram`` and
``count_showdowns`` say False), and single hands leave card text to the
caller, who parses it. The frameless ``evaluate`` entry point and its
registry (``set_default``, ``set_fallback``, ``set_game``) are C's alone:
:mod:`twoplustwo.kernels.choice` serves the numpy backend through Python.

Nothing here imports numpy until an array call needs it, so the numpy
backend's first ``evaluate()`` of a fresh process imports none.

>>> from twoplustwo.tables.default import get_tables
>>> t = get_tables()
>>> w = Walker(*[[t.buffers[f"{d}/layer{k}"] for k in range(1, n + 1)] for d, n in DAGS], t.buffers["dag7/value5"],
...            t.buffers["dag7/value6"])
>>> w.evaluate([51, 47, 43, 39, 35]), w.evaluate("As Ks Qs Js Ts")  # text: the caller parses it
(7462, None)
"""

from __future__ import annotations

from twoplustwo.kernels.numpy.walker import ALL_CARDS, DAGS, DERIVED_TABLES, Dags

TYPE_CHECKING = False
if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from twoplustwo.kernels.interface import F64, I64, U8, U16

__all__ = [
    "ALL_CARDS",
    "DAGS",
    "DERIVED_TABLES",
    "Walker",
    "assign_rows",
    "classify_rows",
    "index_rows",
    "median_rows",
    "nearest_rows",
    "omaha_low_rows",
    "transport_rows",
    "unindex_rows",
]



class Walker(Dags):
    """Walks hands down one table set's DAGs: :class:`~twoplustwo.kernels.numpy.walker.Dags` and every unit's methods.

    As ``walker.c``'s method table lists the methods of every C unit, this
    class lists those of every numpy module, each imported on first use.
    """

    def keyed_tables(self) -> bool:
        """:func:`twoplustwo.kernels.numpy.keyed.keyed_tables`."""
        from twoplustwo.kernels.numpy import keyed

        return keyed.keyed_tables(self)

    def small_rows(self, hands: U8, out: U16, /) -> bool:
        """:func:`twoplustwo.kernels.numpy.small.small_rows`."""
        from twoplustwo.kernels.numpy import small

        return small.small_rows(self, hands, out)

    def histogram(self, n: int, out: I64, /) -> bool:
        """:func:`twoplustwo.kernels.numpy.small.histogram`."""
        from twoplustwo.kernels.numpy import small

        return small.histogram(self, n, out)

    def draw_values(self, node: int, depth: int, free: U8, out: U16, /) -> None:
        """:func:`twoplustwo.kernels.numpy.enumerate.draw_values`."""
        from twoplustwo.kernels.numpy import enumerate as unit

        unit.draw_values(self, node, depth, free, out)

    def fill_ordered(self, n: int, node: int, free: U8, include: U8, r0: int, cards: U8, values: U16, /) -> None:
        """:func:`twoplustwo.kernels.numpy.enumerate.fill_ordered`."""
        from twoplustwo.kernels.numpy import enumerate as unit

        unit.fill_ordered(self, n, node, free, include, r0, cards, values)

    def rank_combos(self, node: int, depth: int, held: int, out: U16, /) -> None:
        """:func:`twoplustwo.kernels.numpy.enumerate.rank_combos`."""
        from twoplustwo.kernels.numpy import enumerate as unit

        unit.rank_combos(self, node, depth, held, out)

    def range_values(
        self,
        starts: npt.NDArray[np.uint32],
        held: npt.NDArray[np.uint64],
        depth: int,
        prefix: U8,
        free: U8,
        out: U16,
        /,
    ) -> None:
        """:func:`twoplustwo.kernels.numpy.enumerate.range_values`."""
        from twoplustwo.kernels.numpy import enumerate as unit

        unit.range_values(self, starts, held, depth, prefix, free, out)

    def count_showdowns(self, holes: U8, known: U8, dead: U8, counts: I64, games: I64, /) -> bool:
        """:func:`twoplustwo.kernels.numpy.exact.count_showdowns`."""
        from twoplustwo.kernels.numpy import exact

        return exact.count_showdowns(self, holes, known, dead, counts, games)

    def score(self, values: U16, /) -> list[tuple[int, int, int]]:
        """:func:`twoplustwo.kernels.numpy.showdown.score`."""
        from twoplustwo.kernels.numpy import showdown

        return showdown.score(values)

    def score_tuples(self, values: U16, tuples: npt.NDArray[np.int32], counts: I64, games: I64, /) -> None:
        """:func:`twoplustwo.kernels.numpy.showdown.score_tuples`."""
        from twoplustwo.kernels.numpy import showdown

        showdown.score_tuples(values, tuples, counts, games)

    def sample_games(self, hands: U8, board: U8, dead: U8, key: int, n: int, counts: I64, combos: I64, /) -> bool:
        """:func:`twoplustwo.kernels.numpy.sample.sample_games`."""
        from twoplustwo.kernels.numpy import sample

        return sample.sample_games(self, hands, board, dead, key, n, counts, combos)

    def count_vs_random(self, boards: U8, weights: I64, out: I64, /) -> None:
        """:func:`twoplustwo.kernels.numpy.versus.count_vs_random`."""
        from twoplustwo.kernels.numpy import versus

        versus.count_vs_random(self, boards, weights, out)

    def board_wins(self, boards: U8, out: U16, /) -> None:
        """:func:`twoplustwo.kernels.numpy.versus.board_wins`."""
        from twoplustwo.kernels.numpy import versus

        versus.board_wins(self, boards, out)

    def range_sweep(self, boards: U8, weights: F64, out: F64, /) -> None:
        """:func:`twoplustwo.kernels.numpy.versus.range_sweep`."""
        from twoplustwo.kernels.numpy import versus

        versus.range_sweep(self, boards, weights, out)

    def strength_sums(self, boards: U8, weights: I64, bins: int, first: I64, second: I64, histogram: I64, /) -> None:
        """:func:`twoplustwo.kernels.numpy.versus.strength_sums`."""
        from twoplustwo.kernels.numpy import versus

        versus.strength_sums(self, boards, weights, bins, first, second, histogram)

    def omaha(self, hole: object, board: object, /) -> int | None:
        """:func:`twoplustwo.kernels.numpy.omaha.omaha`."""
        from twoplustwo.kernels.numpy import omaha

        return omaha.omaha(self, hole, board)

    def omaha_rows(self, holes: U8, boards: U8, out: U16, /) -> int:
        """:func:`twoplustwo.kernels.numpy.omaha.omaha_rows`."""
        from twoplustwo.kernels.numpy import omaha

        return omaha.omaha_rows(self, holes, boards, out)


def omaha_low_rows(holes: U8, boards: U8, out: U8, /) -> int:
    """:func:`twoplustwo.kernels.numpy.omaha.omaha_low_rows`."""
    from twoplustwo.kernels.numpy import omaha

    return omaha.omaha_low_rows(holes, boards, out)


def classify_rows(holes: U8, boards: U8, made: U8, draws: U8, /) -> int:
    """:func:`twoplustwo.kernels.numpy.classify.classify_rows`."""
    from twoplustwo.kernels.numpy import classify

    return classify.classify_rows(holes, boards, made, draws)


def index_rows(
    hands: U8,
    counts: U8,
    codes: npt.NDArray[np.uint32],
    offsets: npt.NDArray[np.uint64],
    slots: npt.NDArray[np.uint32],
    out: npt.NDArray[np.uint64],
    /,
) -> int:
    """:func:`twoplustwo.kernels.numpy.indexer.index_rows`."""
    from twoplustwo.kernels.numpy import indexer

    return indexer.index_rows(hands, counts, codes, offsets, slots, out)


def unindex_rows(
    indices: npt.NDArray[np.uint64],
    counts: U8,
    codes: npt.NDArray[np.uint32],
    offsets: npt.NDArray[np.uint64],
    out: U8,
    /,
) -> int:
    """:func:`twoplustwo.kernels.numpy.indexer.unindex_rows`."""
    from twoplustwo.kernels.numpy import indexer

    return indexer.unindex_rows(indices, counts, codes, offsets, out)


def nearest_rows(points: U16, centers: U16, labels: U16, dists: npt.NDArray[np.uint64], metric: int, /) -> None:
    """:func:`twoplustwo.kernels.numpy.cluster.nearest_rows`."""
    from twoplustwo.kernels.numpy import cluster

    cluster.nearest_rows(points, centers, labels, dists, metric)


def assign_rows(
    points: U16,
    centers: U16,
    labels: U16,
    dists: npt.NDArray[np.uint64],
    lower: F64,
    drift: F64,
    half: F64,
    metric: int,
    /,
) -> None:
    """:func:`twoplustwo.kernels.numpy.cluster.assign_rows`."""
    from twoplustwo.kernels.numpy import cluster

    cluster.assign_rows(points, centers, labels, dists, lower, drift, half, metric)


def median_rows(points: U16, labels: U16, weights: I64, centers: U16, totals: I64, /) -> None:
    """:func:`twoplustwo.kernels.numpy.cluster.median_rows`."""
    from twoplustwo.kernels.numpy import cluster

    cluster.median_rows(points, labels, weights, centers, totals)


def transport_rows(
    points: U16,
    centers: U16,
    ground: U16,
    labels: U16,
    dists: npt.NDArray[np.uint64],
    lower: F64,
    drift: F64,
    half: F64,
    stop: npt.NDArray[np.uint8] | None = None,
    /,
) -> None:
    """:func:`twoplustwo.kernels.numpy.transport.transport_rows`."""
    from twoplustwo.kernels.numpy import transport

    transport.transport_rows(points, centers, ground, labels, dists, lower, drift, half, stop)
