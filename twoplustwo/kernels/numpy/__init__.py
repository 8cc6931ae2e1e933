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
``walker.c``       :mod:`~twoplustwo.kernels.numpy.walker`
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

from twoplustwo.kernels.numpy.walker import ALL_CARDS, DAGS, Walker

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
    "index_rows",
    "median_rows",
    "nearest_rows",
    "omaha_low_rows",
    "transport_rows",
    "unindex_rows",
]

#: The tables C derives from the DAG for speed (small and keyed), this backend has none of:
#: the calls that read them give C's answer for tables that do not stand for the DAG.
DERIVED_TABLES = False


def omaha_low_rows(holes: U8, boards: U8, out: U8, /) -> int:
    """:func:`twoplustwo.kernels.numpy.omaha.omaha_low_rows`."""
    from twoplustwo.kernels.numpy import omaha

    return omaha.omaha_low_rows(holes, boards, out)


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
