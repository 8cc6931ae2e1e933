"""The numpy twin of ``kernels/c/keyed.c`` and ``keyed_x86.c``: the keyed tables, which this backend does without.

C derives keyed tables from the small tables for checked batches of whole
hands and for exact counting (``count_showdowns``); ``keyed_tables()``
says whether a walker reads them. The numpy backend derives no tables
(:data:`twoplustwo.kernels.numpy.DERIVED_TABLES`): its batches walk
the DAG, and its walkers say False, as C's do for another game.

>>> from twoplustwo.kernels.numpy import DAGS, Walker
>>> from twoplustwo.tables.default import get_tables
>>> t = get_tables()
>>> keyed_tables(Walker(*[[t.buffers[f"{d}/layer{k}"] for k in range(1, n + 1)] for d, n in DAGS],
...                     t.buffers["dag7/value5"], t.buffers["dag7/value6"]))
False
"""

from __future__ import annotations

from twoplustwo.kernels.numpy.walker import DERIVED_TABLES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from twoplustwo.kernels.numpy.walker import Dags

__all__ = ["keyed_tables"]


def keyed_tables(w: Dags) -> bool:
    """Whether ``w`` reads keyed tables for checked batches and counts showdowns: never on this backend."""
    return DERIVED_TABLES
