"""The numpy walker's DAGs and its batch walk, ``walk_rows``: the twin of ``kernels/c/walker.c``.

:class:`Dags` takes the C walker's arguments and holds the layers every
unit's methods walk; :class:`twoplustwo.kernels.numpy.Walker` adds the
other units' methods, each in the module named after its C unit
(``enumerate.py`` for ``enumerate.c``, and so on), imported on first use.
Single hands (:mod:`~twoplustwo.kernels.numpy.single`) walk ``memoryview``
objects, so the numpy backend's first ``evaluate()`` imports no numpy.

>>> from twoplustwo.tables.default import get_tables
>>> t = get_tables()
>>> w = Dags(*[[t.buffers[f"{d}/layer{k}"] for k in range(1, n + 1)] for d, n in DAGS], t.buffers["dag7/value5"],
...            t.buffers["dag7/value6"])
>>> w.evaluate([51, 47, 43, 39, 35]), w.derived
(7462, False)
"""

from __future__ import annotations

import operator

from twoplustwo.kernels.numpy.args import ALL_CARDS, array, entries, long, mask
from twoplustwo.kernels.numpy.single import Single

# numpy and typing cost milliseconds to import, which a fresh process's
# first evaluate() would pay: single hands need neither.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    import numpy as np
    import numpy.typing as npt

    from twoplustwo.kernels.interface import U8, U16, Layers
    from twoplustwo.kernels.numpy.draws import Ordered

__all__ = ["ALL_CARDS", "DAGS", "DERIVED_TABLES", "Dags"]

#: The DAGs of a hold'em walker and their depths.
DAGS = (("dag5", 5), ("dag6", 6), ("dag7", 7))
#: The tables C derives from the DAG for speed (small and keyed), this backend has none of:
#: the calls that read them give C's answer for tables that do not stand for the DAG.
DERIVED_TABLES = False


class Dags(Single):
    """A table set's DAGs as the numpy walker holds them, and its batch walk (the package's ``Walker`` adds the rest).

    ``Dags(dag5, dag6, dag7, value5, value6, deck=None, dag4=None, small=True)``:
    sequences of little-endian arrays behind the buffer protocol, as the C
    walker takes them, any DAG None where the game has no hands of its size.
    ``dag5`` and ``dag6`` may both be None beside a ``dag7``: 5- and 6-card
    hands then walk ``dag7``'s first layers and finish in ``value5`` and
    ``value6`` (another game's one DAG); else the value arrays are read only
    beside a ``dag7``. ``deck`` is the mask of the cards hands may hold, by
    default all 52. ``small`` says whether C's small tables may stand for the
    DAG; this backend has none, and takes it only as C does.
    """

    def __init__(
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
    ) -> None:
        derived = dag7 is not None and dag5 is None and dag6 is None
        if dag7 is not None and not derived and (dag5 is None or dag6 is None):
            raise ValueError("dag5 and dag6 are both sequences of layers or both None")
        if dag7 is None and dag5 is None and dag6 is None and dag4 is None:
            raise ValueError("a walker needs at least one DAG")
        deck_mask = ALL_CARDS
        if deck is not None:
            deck_mask = operator.index(deck)
            if deck_mask < 0:
                raise OverflowError("can't convert negative int to unsigned")
            if deck_mask == 0 or deck_mask & ~ALL_CARDS:
                raise ValueError("deck is a mask of cards 0..51, at least one")
        self.deck = deck_mask
        dags: dict[int, list[memoryview]] = {}
        for n, layers in ((5, dag5), (6, dag6), (7, dag7), (4, dag4)):
            if layers is None:
                continue
            if isinstance(layers, (str, bytes)) or not hasattr(layers, "__len__"):
                raise TypeError("each DAG is a sequence of layer arrays")
            if len(layers) != n:
                raise ValueError(f"dag{n} needs {n} layers, got {len(layers)}")
            dags[n] = [entries(layer) for layer in layers]
        self.derived = derived
        # An n-card walk: its layers, and the array its last node is looked
        # up in (None where the last layer holds values).
        self.walks: dict[int, tuple[list[memoryview], memoryview | None]] = {n: (w, None) for n, w in dags.items()}
        values: tuple[memoryview, ...] = ()
        if 7 in dags:
            values = (entries(value5), entries(value6))
        if derived:
            for n in (5, 6):
                self.walks[n] = (dags[7][:n], values[n - 5])
        #: The hand sizes the walker walks.
        self.sizes = frozenset(self.walks)
        # Single hands walk dag7 and its value arrays, as C's single-hand
        # path does, where there is a dag7; else their own DAG.
        self._dag7 = tuple(dags.get(7, ()))
        self._values = values
        self._arrays: dict[int, list[npt.NDArray[np.unsignedinteger[Any]]]] = {}
        # fill_ordered's enumeration, made once for the many calls that fill its chunks.
        self.ordered: dict[tuple[int, int, bytes, bytes], Ordered] = {}


    def layers(self, n: int) -> list[npt.NDArray[np.unsignedinteger[Any]]]:
        """The numpy arrays of an n-card walk, the last one holding values (another game's value lookup fused in)."""
        layers = self._arrays.get(n)
        if layers is None:
            import numpy as np

            walk, value = self.walks[n]
            layers = [np.asarray(layer) for layer in walk]
            if value is not None:
                layers[-1] = np.asarray(value).take(layers[-1])
            self._arrays[n] = layers
        return layers

    def nodes(self, n: int, depth: int) -> int:
        """How many nodes there are at ``depth`` of the n-card walk."""
        walk = self.walks.get(n)
        return 0 if walk is None else len(walk[0][depth]) // 52

    def holdem_only(self, what: str) -> None:
        """Refuse ``what`` on another game's walker: Omaha and the board sweeps read hold'em's DAGs."""
        if self.derived or self.deck != ALL_CARDS or self.sizes != {5, 6, 7}:
            raise ValueError(f"{what} needs the hold'em walker")

    # ------------------------------------------------------------ walker.c

    def walk_rows(self, hands: U8, out: U16, check: bool, /, *args: int) -> int:
        """Values of (N, k) uint8 rows into out; the first bad row (a card over 51, or with check a duplicate or a card
        outside the deck or of ``held``), else -1. ``args``: ``depth, start, held`` to continue a walk from a node."""
        if len(args) not in (0, 3):
            raise TypeError("walk_rows(hands, out, check[, depth, start, held])")
        checked = bool(check)
        depth, start, held = (long(args[0]), long(args[1]), mask(args[2])) if args else (0, 0, 0)
        h, o = array(hands), array(out, writable=True)
        k = h.shape[1] if h.ndim == 2 else 0
        if h.ndim != 2 or h.itemsize != 1 or depth < 0 or depth + k not in self.sizes or k < 1:
            if self.sizes == {5, 6, 7}:
                raise ValueError("hands must be a C-contiguous (N, k) uint8 array with depth + k in 5..7")
            raise ValueError(
                "hands must be a C-contiguous (N, k) uint8 array with depth + k a hand size the walker walks"
            )
        if o.ndim != 1 or o.itemsize != 2 or o.shape[0] != h.shape[0]:
            raise ValueError("out must be a C-contiguous uint16 array of one entry per hand")
        if not 0 <= start < self.nodes(depth + k, depth):
            raise ValueError("start is not a node of that depth")
        forbidden = (held | ~self.deck) & ALL_CARDS
        return _walk_rows(self.layers(depth + k)[depth:], h.view("u1"), o.view("u2"), checked, start, forbidden)


def _walk_rows(
    layers: list[npt.NDArray[np.unsignedinteger[Any]]],
    rows: npt.NDArray[np.uint8],
    out: npt.NDArray[np.uint16],
    check: bool,
    start: int,
    forbidden: int,
) -> int:
    """``Walker.walk_rows``: the first bad row (a card over 51; with ``check`` a card twice or ``forbidden``) or -1."""
    import numpy as np

    from twoplustwo.kernels.columns import walk_columns

    cols = np.array(rows.T, order="C")  # read once: checked and walked from this copy
    bad = _bad_columns(cols, check, forbidden)
    if bad is not None:
        return int(np.argmax(bad))
    out[...] = walk_columns(layers, cols, start)
    return -1


def _bad_columns(cols: npt.NDArray[np.uint8], check: bool, forbidden: int) -> npt.NDArray[np.bool_] | None:
    """Which hands (columns) are bad, or None if none is.

    Comparing every pair of rows of cards (21 for seven cards) is cheaper
    than it sounds: each comparison is one vectorised pass over bytes.
    """
    import numpy as np

    bad = np.zeros(cols.shape[1], dtype=bool)
    if cols.size and cols.max() > 51:
        bad |= (cols > 51).any(axis=0)
    if check:
        eq = np.empty_like(bad)
        for i in range(len(cols)):
            for j in range(i + 1, len(cols)):
                np.equal(cols[i], cols[j], out=eq)
                bad |= eq
        # A deck of the top cards (short deck) forbids every card below its lowest.
        low = 0
        while low < 52 and forbidden >> low & 1:
            low += 1
        if low and cols.size:
            bad |= (cols < low).any(axis=0)
        others = [c for c in range(low, 52) if forbidden >> c & 1]
        if others:
            bad |= np.isin(cols, others).any(axis=0)
    return bad if bad.any() else None
