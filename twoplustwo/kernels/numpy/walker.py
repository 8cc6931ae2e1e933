"""The numpy walker: its DAGs, the batch walk and its method table, the twin of ``kernels/c/walker.c``.

:class:`Walker` takes the C walker's arguments and has its methods, with the
same results and errors; ``TWOPLUSTWO_BACKEND=numpy`` runs everything
through it, and the tests hold the C core to it method by method. As in C,
this module holds the type and ``walk_rows``, and each method's work and
checks live in the module named after its C unit (``enumerate.py`` for
``enumerate.c``, and so on), imported on first use: single hands
(:mod:`~twoplustwo.kernels.numpy.single`) walk ``memoryview`` objects, so
the numpy backend's first ``evaluate()`` imports no numpy.

>>> from twoplustwo.tables.default import get_tables
>>> t = get_tables()
>>> w = Walker(*[[t.buffers[f"{d}/layer{k}"] for k in range(1, n + 1)] for d, n in DAGS], t.buffers["dag7/value5"],
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

    from twoplustwo.kernels.interface import F64, I64, U8, U16, Layers
    from twoplustwo.kernels.numpy.draws import Ordered

__all__ = ["ALL_CARDS", "DAGS", "Walker"]

#: The DAGs of a hold'em walker and their depths.
DAGS = (("dag5", 5), ("dag6", 6), ("dag7", 7))


class Walker(Single):
    """Walks hands down one table set's DAGs (the numpy backend).

    ``Walker(dag5, dag6, dag7, value5, value6, deck=None)``: sequences of
    little-endian arrays behind the buffer protocol, as the C walker takes
    them. ``dag5`` and ``dag6`` may both be None: 5- and 6-card hands then
    walk ``dag7``'s first layers and finish in ``value5`` and ``value6``
    (another game's one DAG). ``deck`` is the mask of the cards hands may
    hold, by default all 52.
    """

    def __init__(
        self,
        dag5: Layers | None,
        dag6: Layers | None,
        dag7: Layers,
        value5: object,
        value6: object,
        *,
        deck: int | None = None,
    ) -> None:
        derived = dag5 is None and dag6 is None
        if not derived and (dag5 is None or dag6 is None):
            raise ValueError("dag5 and dag6 are both sequences of layers or both None")
        deck_mask = ALL_CARDS
        if deck is not None:
            deck_mask = operator.index(deck)
            if deck_mask < 0:
                raise OverflowError("can't convert negative int to unsigned")
            if deck_mask == 0 or deck_mask & ~ALL_CARDS:
                raise ValueError("deck is a mask of cards 0..51, at least one")
        self.deck = deck_mask
        dags: list[list[memoryview]] = []
        for d, layers in enumerate((dag5, dag6, dag7)):
            if layers is None:
                dags.append([])
                continue
            if isinstance(layers, (str, bytes)) or not hasattr(layers, "__len__"):
                raise TypeError("each DAG is a sequence of layer arrays")
            if len(layers) != 5 + d:
                raise ValueError(f"dag{5 + d} needs {5 + d} layers, got {len(layers)}")
            dags.append([entries(layer) for layer in layers])
        values = (entries(value5), entries(value6))
        self.derived = derived
        # An n-card walk: its layers, and the array its last node is looked
        # up in (None where the last layer holds values).
        self.walks: dict[int, tuple[list[memoryview], memoryview | None]] = {7: (dags[2], None)}
        for n in (5, 6):
            self.walks[n] = (dags[2][:n], values[n - 5]) if derived else (dags[n - 5], None)
        # Single hands walk dag7 and its value arrays, as C's single-hand path does.
        self._dag7 = tuple(dags[2])
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
        return len(self.walks[n][0][depth]) // 52

    def holdem_only(self, what: str) -> None:
        """Refuse ``what`` on another game's walker: Omaha and the board sweeps read hold'em's DAGs."""
        if self.derived or self.deck != ALL_CARDS:
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
        if h.ndim != 2 or h.itemsize != 1 or depth < 0 or not 5 <= depth + k <= 7 or k < 1:
            raise ValueError("hands must be a C-contiguous (N, k) uint8 array with depth + k in 5..7")
        if o.ndim != 1 or o.itemsize != 2 or o.shape[0] != h.shape[0]:
            raise ValueError("out must be a C-contiguous uint16 array of one entry per hand")
        if not 0 <= start < self.nodes(depth + k, depth):
            raise ValueError("start is not a node of that depth")
        forbidden = (held | ~self.deck) & ALL_CARDS
        return _walk_rows(self.layers(depth + k)[depth:], h.view("u1"), o.view("u2"), checked, start, forbidden)

    # ------------------------------------------------------------ the other units' methods

    def keyed_tables(self) -> bool:
        """False: no keyed tables here (:mod:`~twoplustwo.kernels.numpy.keyed`); every batch walks the DAG."""
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
