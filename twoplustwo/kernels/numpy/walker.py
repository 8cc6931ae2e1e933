"""The numpy reference backend: a :class:`Walker` with the C walker's methods, results and errors.

``TWOPLUSTWO_BACKEND=numpy`` runs everything through it, and the tests hold
the C core (``kernels/c/``) to it, method by method, on the same inputs.
Each method takes the arguments of the C method of the same name, checks
them as C does (the same ``ValueError`` messages) and gives the same
result. Where a C method is a fast path with nothing of its own to twin,
the method gives the answer C documents for "not mine", which callers
already handle: :meth:`Walker.evaluate` and :meth:`Walker.omaha` read
plain ints and return None for card text (the caller parses it),
:meth:`Walker.histogram` returns False (the caller counts down the DAG),
and :meth:`Walker.small_rows` returns False (there are no small tables:
single hands walk the DAG).

Single hands walk ``memoryview`` objects, so the numpy backend's first
``evaluate()`` imports no numpy either; the array methods import it, and
their loops live in :mod:`twoplustwo.kernels.arrays`.

>>> from twoplustwo.tables.default import get_tables
>>> t = get_tables()
>>> w = Walker(*[[t.buffers[f"{d}/layer{k}"] for k in range(1, n + 1)] for d, n in DAGS], t.buffers["dag7/value5"],
...            t.buffers["dag7/value6"])
>>> w.evaluate([51, 47, 43, 39, 35]), w.evaluate("As Ks Qs Js Ts")  # text: the caller parses it
(7462, None)
"""

from __future__ import annotations

import operator
import sys

# numpy and typing cost milliseconds to import, which a fresh process's
# first evaluate() would pay: single hands need neither.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    import numpy as np
    import numpy.typing as npt

    from twoplustwo.kernels.draws import Ordered
    from twoplustwo.kernels.interface import F64, I64, U8, U16, Layers

__all__ = [
    "ALL_CARDS",
    "DAGS",
    "Walker",
    "assign_rows",
    "index_rows",
    "median_rows",
    "nearest_rows",
    "omaha_low_rows",
    "transport_rows",
    "unindex_rows",
]

#: Every card of the 52: hold'em's deck, as a mask.
ALL_CARDS = (1 << 52) - 1
#: The DAGs of a hold'em walker and their depths.
DAGS = (("dag5", 5), ("dag6", 6), ("dag7", 7))

_BITS = tuple(1 << i for i in range(52)) + (0,) * 52
_FORMAT = {1: "B", 2: "H", 4: "I"}
_MASK64 = (1 << 64) - 1
# The 1,326 two-card combos (c1 < c2, c1 ascending, then c2).
_N_COMBOS = 1326


def _entries(obj: object) -> memoryview:
    """A table array of little-endian entries as a memoryview of native entries, over the same pages."""
    view = _buffer_view(obj)
    if view.itemsize not in _FORMAT:
        raise ValueError(f"table arrays hold 1, 2 or 4 byte entries, got {view.itemsize}")
    raw = view.cast("B")
    if sys.byteorder == "big" and view.itemsize > 1:
        import numpy as np

        swapped: Any = np.frombuffer(raw, dtype=f"<u{view.itemsize}").astype(f"=u{view.itemsize}")
        raw = memoryview(swapped).cast("B")
    fmt: Any = _FORMAT[view.itemsize]  # typeshed wants a literal format
    return raw.cast(fmt)


def _buffer_view(obj: object) -> memoryview:
    try:
        view = memoryview(obj)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"a bytes-like object is required, not '{type(obj).__name__}'") from None
    if not view.c_contiguous:
        raise ValueError("ndarray is not C-contiguous")
    return view


def _array(obj: object, writable: bool = False) -> npt.NDArray[Any]:
    """The buffer ``obj`` as a numpy array, refused as C refuses a buffer it cannot take."""
    import numpy as np

    if isinstance(obj, np.ndarray):
        if not obj.flags.c_contiguous:
            raise ValueError("ndarray is not C-contiguous")
        if writable and not obj.flags.writeable:
            raise ValueError("buffer source array is read-only")
        return obj
    view = _buffer_view(obj)
    if writable and view.readonly:
        raise BufferError("Object is not writable.")
    return np.asarray(view)


def _long(x: int) -> int:
    """``x`` as C reads a ``long``: an int of 64 bits."""
    v = operator.index(x)
    if not -(1 << 63) <= v < 1 << 63:
        raise OverflowError("Python int too large to convert to C long")
    return int(v)


def _plain(cards: object, most: int) -> list[int] | None:
    """A list or tuple of at most ``most`` plain ints 0..51, else None."""
    if type(cards) is not list and type(cards) is not tuple:
        return None
    if len(cards) > most:
        return None
    for x in cards:
        if type(x) is not int or not 0 <= x <= 51:
            return None
    return list(cards)


def _sorted_cards(cards: npt.NDArray[Any], deck: int, increasing: bool = True) -> bool:
    """Whether ``cards`` are cards of the mask ``deck``, each above the one before if ``increasing``."""
    last = -1
    for c in cards.tolist():
        if c > 51 or not deck >> c & 1 or (increasing and c <= last):
            return False
        last = c
    return True


class Walker:
    """Walks hands down one table set's DAGs (numpy reference backend).

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
        mask = ALL_CARDS
        if deck is not None:
            mask = operator.index(deck)
            if mask < 0:
                raise OverflowError("can't convert negative int to unsigned")
            if mask == 0 or mask & ~ALL_CARDS:
                raise ValueError("deck is a mask of cards 0..51, at least one")
        self.deck = mask
        dags: list[list[memoryview]] = []
        for d, layers in enumerate((dag5, dag6, dag7)):
            if layers is None:
                dags.append([])
                continue
            if isinstance(layers, (str, bytes)) or not hasattr(layers, "__len__"):
                raise TypeError("each DAG is a sequence of layer arrays")
            if len(layers) != 5 + d:
                raise ValueError(f"dag{5 + d} needs {5 + d} layers, got {len(layers)}")
            dags.append([_entries(layer) for layer in layers])
        values = (_entries(value5), _entries(value6))
        self.derived = derived
        # An n-card walk: its layers, and the array its last node is looked
        # up in (None where the last layer holds values).
        self._walks: dict[int, tuple[list[memoryview], memoryview | None]] = {7: (dags[2], None)}
        for n in (5, 6):
            self._walks[n] = (dags[2][:n], values[n - 5]) if derived else (dags[n - 5], None)
        # Single hands walk dag7 and its value arrays, as C's single-hand path does.
        self._dag7 = tuple(dags[2])
        self._values = values
        self._arrays: dict[int, list[npt.NDArray[np.unsignedinteger[Any]]]] = {}
        self._ordered: dict[tuple[int, int, bytes, bytes], Ordered] = {}

    # ------------------------------------------------------------ single hands

    def evaluate(self, cards: object, /) -> int | None:
        """The value of a list or tuple of 5-7 distinct ints of the deck, else None (the caller parses and explains)."""
        if type(cards) is not list and type(cards) is not tuple:
            return None
        hand: Any = cards
        if len(hand) == 7:
            # The hot path: seven ints, checked with one bit per card from a
            # table. Cards 52..103 read 0, so they, like a duplicate, leave
            # fewer than 7 bits set; larger ones fail the lookup; negative
            # ones (which index from the end) fail the sign test of the OR.
            # bool is an int subclass, hence the type checks.
            try:
                a, b, c, d, e, f, g = hand
                m = _BITS[a] | _BITS[b] | _BITS[c] | _BITS[d] | _BITS[e] | _BITS[f] | _BITS[g]
            except (TypeError, IndexError):
                return None
            if (
                m.bit_count() == 7
                and a | b | c | d | e | f | g >= 0
                and not m & ~self.deck
                and type(a) is int
                and type(b) is int
                and type(c) is int
                and type(d) is int
                and type(e) is int
                and type(f) is int
                and type(g) is int
            ):
                l1, l2, l3, l4, l5, l6, l7 = self._dag7
                return int(l7[l6[l5[l4[l3[l2[l1[a] * 52 + b] * 52 + c] * 52 + d] * 52 + e] * 52 + f] * 52 + g])
            return None
        plain = _plain(hand, 7)
        if plain is None or len(plain) < 5:
            return None
        m = 0
        for x in plain:
            m |= _BITS[x]
        if m.bit_count() != len(plain) or m & ~self.deck:
            return None
        node = 0
        for layer, card in zip(self._dag7, plain):
            node = layer[node * 52 + card]
        return int(node if len(plain) == 7 else self._values[len(plain) - 5][node])

    def omaha(self, hole: object, board: object, /) -> int | None:
        """The Omaha value of 4-6 plain hole ints and 3-5 board ints, all distinct; else None (the caller parses)."""
        self._holdem_only("omaha")
        h, b = _plain(hole, 6), _plain(board, 5)
        if h is None or b is None or len(h) < 4 or len(b) < 3 or len({*h, *b}) != len(h) + len(b):
            return None
        l1, l2, l3, l4, l5 = self._walks[5][0]  # dag5: its last layer holds values
        best = 0
        for i, x in enumerate(b):
            n1 = l1[x] * 52
            for j in range(i + 1, len(b)):
                n2 = l2[n1 + b[j]] * 52
                for z in b[j + 1 :]:
                    n3 = l3[n2 + z] * 52
                    for p in range(len(h) - 1):
                        n4 = l4[n3 + h[p]] * 52
                        for q in h[p + 1 :]:
                            v = l5[n4 + q]
                            if v > best:
                                best = v
        return int(best)

    def _holdem_only(self, what: str) -> None:
        # Omaha reads dag5's last layer as values: hold'em's walker only.
        if self.derived or self.deck != ALL_CARDS:
            raise ValueError(f"{what} needs the hold'em walker")

    # ------------------------------------------------------------ arrays

    def _layers(self, n: int) -> list[npt.NDArray[np.unsignedinteger[Any]]]:
        """The numpy arrays of an n-card walk, the last one holding values (another game's value lookup fused in)."""
        layers = self._arrays.get(n)
        if layers is None:
            import numpy as np

            walk, value = self._walks[n]
            layers = [np.asarray(layer) for layer in walk]
            if value is not None:
                layers[-1] = np.asarray(value).take(layers[-1])
            self._arrays[n] = layers
        return layers

    def _nodes(self, n: int, depth: int) -> int:
        """How many nodes there are at ``depth`` of the n-card walk."""
        return len(self._walks[n][0][depth]) // 52

    def walk_rows(self, hands: U8, out: U16, check: bool, /, *args: int) -> int:
        """Values of (N, k) uint8 rows into out; the first bad row (a card over 51, or with check a duplicate or a card
        outside the deck or of ``held``), else -1. ``args``: ``depth, start, held`` to continue a walk from a node."""
        from twoplustwo.kernels import arrays

        if len(args) not in (0, 3):
            raise TypeError("walk_rows(hands, out, check[, depth, start, held])")
        checked = bool(check)
        depth, start, held = (_long(args[0]), _long(args[1]), operator.index(args[2]) & _MASK64) if args else (0, 0, 0)
        h, o = _array(hands), _array(out, writable=True)
        k = h.shape[1] if h.ndim == 2 else 0
        if h.ndim != 2 or h.itemsize != 1 or depth < 0 or not 5 <= depth + k <= 7 or k < 1:
            raise ValueError("hands must be a C-contiguous (N, k) uint8 array with depth + k in 5..7")
        if o.ndim != 1 or o.itemsize != 2 or o.shape[0] != h.shape[0]:
            raise ValueError("out must be a C-contiguous uint16 array of one entry per hand")
        if not 0 <= start < self._nodes(depth + k, depth):
            raise ValueError("start is not a node of that depth")
        forbidden = (held | ~self.deck) & ALL_CARDS
        return arrays.walk_rows(self._layers(depth + k)[depth:], h.view("u1"), o.view("u2"), checked, start, forbidden)

    def keyed_tables(self) -> bool:
        """False: the reference walks the DAG for every batch (the C core reads keyed tables for checked ones)."""
        return False

    def small_rows(self, hands: U8, out: U16, /) -> bool:
        """Values of (N, 5..7) rows of distinct cards of the deck, as single hands get them; False: no small tables."""
        from twoplustwo.kernels import arrays

        h, o = _array(hands), _array(out, writable=True)
        k = h.shape[1] if h.ndim == 2 else 0
        ok = h.ndim == 2 and h.itemsize == 1 and 5 <= k <= 7 and o.ndim == 1 and o.itemsize == 2
        rows = h.view("u1").T.copy() if ok and o.shape[0] == h.shape[0] else None
        if rows is None or (rows.size and rows.max() > 51):
            raise ValueError("small_rows takes (N, 5..7) uint8 rows of cards 0..51 and a uint16 out")
        o.view("u2")[...] = arrays.walk_columns(self._layers(k), rows)
        return False

    def draw_values(self, node: int, depth: int, free: U8, out: U16, /) -> None:
        """The values of every (7 - depth)-card draw from the sorted ``free`` cards added to dag7 node ``node``."""
        from twoplustwo.kernels import arrays

        at, d = _long(node), _long(depth)
        fr, o = _array(free), _array(out, writable=True)
        m, t = fr.size, 7 - d
        if fr.itemsize != 1 or o.itemsize != 2 or d < 0 or t < 1 or m > 52 or m < t:
            raise ValueError(
                "draw_values takes a node, a depth of 0..6, uint8 free cards (at least 7 - depth) and uint16 out"
            )
        if not 0 <= at < self._nodes(7, d):
            raise ValueError("node is not a node of that depth")
        cards = fr.view("u1").reshape(-1).copy()  # checked and walked from one copy
        if not _sorted_cards(cards, self.deck):
            raise ValueError("free cards must be sorted, distinct and in the deck")
        from math import comb

        if o.size != comb(m, t):
            raise ValueError("out must hold one entry per draw")
        arrays.draw_values(self._layers(7), d, at, cards, o.view("u2").reshape(-1))

    def fill_ordered(self, n: int, node: int, free: U8, include: U8, r0: int, cards: U8, values: U16, /) -> None:
        """Rows ``r0 ..`` of the ordered enumeration of the n-card hands of the ``include`` cards and ``free`` ones."""
        from math import comb

        from twoplustwo.kernels.draws import Ordered

        size, at, first = _long(n), _long(node), _long(r0)
        fr, inc = _array(free), _array(include)
        cb, vb = _array(cards, writable=True), _array(values, writable=True)
        m, h = fr.size, inc.size
        k, rows = size - h, vb.size
        if not 5 <= size <= 7 or fr.itemsize != 1 or inc.itemsize != 1 or k < 1 or m > 52 or m < k:
            raise ValueError(
                "fill_ordered takes n = 5..7, uint8 free cards (at least n - len(include)) and include cards"
            )
        if cb.itemsize != 1 or vb.itemsize != 2 or cb.size != rows * size:
            raise ValueError("cards must be (R, n) uint8 and values (R,) uint16")
        if not 0 <= at < self._nodes(size, h):
            raise ValueError("node is not a node of that depth")
        if first < 0 or first + rows > comb(m, k):
            raise ValueError("rows beyond the last hand")
        fcards, icards = fr.view("u1").reshape(-1).copy(), inc.view("u1").reshape(-1).copy()
        if not _sorted_cards(fcards, self.deck):
            raise ValueError("free cards must be sorted, distinct and in the deck")
        if not _sorted_cards(icards, self.deck):
            raise ValueError("include cards must be sorted, distinct and in the deck")
        # Made once for the many calls that fill one enumeration's chunks.
        key = (size, at, fcards.tobytes(), icards.tobytes())
        ordered = self._ordered.get(key)
        if ordered is None:
            ordered = Ordered(size, at, fcards.tolist(), icards.tolist(), self._layers(size))
            self._ordered = {key: ordered}
        ordered.fill(first, first + rows, cb.view("u1").reshape(rows, size), vb.view("u2").reshape(-1))

    def rank_combos(self, node: int, depth: int, held: int, out: U16, /) -> None:
        """The value of each two-card combo finishing node ``node`` at ``depth`` of the (depth + 2)-card walk."""
        from twoplustwo.kernels import arrays

        at, d, mask = _long(node), _long(depth), operator.index(held) & _MASK64
        o = _array(out, writable=True)
        if not 3 <= d <= 5 or o.itemsize != 2 or o.size != _N_COMBOS:
            raise ValueError("rank_combos takes a depth of 3..5 and a uint16 out of 1326 entries")
        if not 0 <= at < self._nodes(d + 2, d):
            raise ValueError("node is not a node of that depth")
        arrays.rank_combos(self._layers(d + 2)[d:], at, (mask | ~self.deck) & ALL_CARDS, o.view("u2").reshape(-1))

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
        """Each combo's value on every board of ``prefix`` and a draw from ``free``, from dag7 node ``starts[d]``."""
        from math import comb

        from twoplustwo.kernels import arrays

        d = _long(depth)
        sb, hb, pb, fb = _array(starts), _array(held), _array(prefix), _array(free)
        ob = _array(out, writable=True)
        n, p, m = sb.nbytes // 4, pb.nbytes, fb.nbytes
        t = 7 - d - p
        draws = comb(m, t) if t >= 0 else 0
        if (
            (sb.itemsize, hb.itemsize, pb.itemsize, fb.itemsize, ob.itemsize) != (4, 8, 1, 1, 2)
            or hb.nbytes != n * 8
            or d < 0
            or t < 1
            or m > 52
            or m < t
        ):
            raise ValueError(
                "range_values takes uint32 starts, uint64 held, a depth, uint8 prefix and free cards "
                "(at least 7 - depth - len(prefix)) and uint16 out"
            )
        if ob.nbytes != n * draws * 2:
            raise ValueError("out must hold one row per combo and one entry per draw")
        pre, cards = pb.view("u1").reshape(-1).copy(), fb.view("u1").reshape(-1).copy()
        if len(set(pre.tolist() + cards.tolist())) != p + m or not (
            _sorted_cards(pre, self.deck, increasing=False) and _sorted_cards(cards, self.deck)
        ):
            raise ValueError("prefix and free cards must be distinct cards of the deck, free cards sorted")
        nodes = sb.view("u4").reshape(-1).copy()
        if n and int(nodes.max()) >= self._nodes(7, d):
            raise ValueError("a start is not a node of that depth")
        masks = hb.view("u8").reshape(-1).copy()
        arrays.range_values(self._layers(7), nodes, masks, d, pre.tolist(), cards, ob.view("u2").reshape(n, draws))

    def score_tuples(
        self,
        values: U16,
        tuples: npt.NDArray[np.int32],
        counts: npt.NDArray[np.int64],
        games: npt.NDArray[np.int64],
        /,
    ) -> None:
        """Add each deal's wins alone, ties and units (over the boards where all its rows are live) to the counts."""
        from twoplustwo.kernels import showdown

        vb, tb = _array(values), _array(tuples)
        cb, gb = _array(counts, writable=True), _array(games, writable=True)
        if vb.ndim != 2 or vb.itemsize != 2 or tb.ndim != 2 or tb.itemsize != 4 or cb.itemsize != 8 or gb.itemsize != 8:
            raise ValueError(
                "score_tuples takes uint16 (rows, boards) values, int32 (deals, players) tuples, int64 counts and games"
            )
        (rows, boards), (deals, players) = vb.shape, tb.shape
        if not 2 <= players <= 9 or boards > 2**31 - 1:
            raise ValueError("score_tuples takes 2 to 9 players and fewer than 2**31 boards")
        if cb.nbytes != deals * players * 3 * 8 or gb.nbytes != deals * 8:
            raise ValueError("counts must be (deals, players, 3) and games (deals,)")
        named = tb.view("i4").copy()
        if named.size and (named.min() < 0 or named.max() >= rows):
            raise ValueError("a tuple names a row values does not have")
        showdown.score_tuples(vb.view("u2"), named, cb.view("i8").reshape(deals, players, 3), gb.view("i8").reshape(-1))

    def score(self, values: U16, /) -> list[tuple[int, int, int]]:
        """Per player (wins, ties, units) of (players, boards) uint16 values: boards won alone, shared, pot shares."""
        from twoplustwo.kernels import showdown

        v = _array(values)
        if v.ndim != 2 or v.itemsize != 2 or not 1 <= v.shape[0] <= 9:
            raise ValueError("score takes a (players, boards) uint16 array of 1 to 9 players")
        return showdown.score(v.view("u2"))

    def sample_games(self, hands: U8, board: U8, dead: U8, key: int, n: int, counts: I64, combos: I64, /) -> bool:
        """Play and tally a batch of sampled hold'em games: :func:`twoplustwo.kernels.sampling.sample_games`."""
        from twoplustwo.kernels import sampling

        k, games = operator.index(key) & _MASK64, _long(n)  # the scalars before the buffers, as C reads them
        h, b, d = _array(hands), _array(board), _array(dead)
        tally, per_combo = _array(counts, writable=True), _array(combos, writable=True)
        layers = self._layers(7) if self.deck == ALL_CARDS and not self.derived else None
        return sampling.sample_games(layers, h, b, d, k, games, tally, per_combo)

    def histogram(self, n: int, out: npt.NDArray[np.int64], /) -> bool:
        """False: the counting by rank multisets is C's alone (out untouched); the caller counts down the DAG."""
        size = _long(n)
        if self.deck != ALL_CARDS:
            return False
        o = _array(out, writable=True)
        if not 5 <= size <= 7 or o.dtype.kind != "i" or o.itemsize != 8 or o.size != 7463:
            raise ValueError("histogram takes n = 5..7 and an int64 array of 7463 entries")
        return False

    def count_showdowns(self, holes: U8, known: U8, dead: U8, counts: I64, games: I64, /) -> bool:
        """False: counting boards by rank multiset is C's alone (nothing written); the caller lists the boards."""
        h, k, d = _array(holes), _array(known), _array(dead)
        c, g = _array(counts, writable=True), _array(games, writable=True)
        if h.ndim != 3 or h.itemsize != 1 or h.shape[2] != 2 or k.itemsize != 1 or d.itemsize != 1:
            raise ValueError("count_showdowns takes uint8 (deals, players, 2) holes, uint8 known and dead cards")
        if c.nbytes != h.shape[0] * h.shape[1] * 3 * 8 or g.nbytes != h.shape[0] * 8:
            raise ValueError("counts must be (deals, players, 3) and games (deals,)")
        return False

    def count_vs_random(self, boards: U8, weights: I64, out: I64, /) -> None:
        """Each combo's weighted wins and wins + ties against a random hand on (B, 5) boards, added to out (1326, 2)."""
        from twoplustwo.kernels import versus

        b, w, o = _array(boards), _array(weights), _array(out, writable=True)
        if b.ndim != 2 or b.itemsize != 1 or b.shape[1] != 5 or w.itemsize != 8 or o.itemsize != 8 or o.size != 2652:
            raise ValueError("count_vs_random takes uint8 (boards, 5) boards, int64 weights and an int64 (1326, 2) out")
        if w.size != b.shape[0]:
            raise ValueError("count_vs_random takes one weight per board")
        self._holdem_only("count_vs_random")
        versus.count_vs_random(self._layers(7), b.view("u1"), w.view("i8").reshape(-1), o.view("i8").reshape(-1, 2))

    def board_wins(self, boards: U8, out: U16, /) -> None:
        """Each combo's wins and ties against every other combo on each of (B, 5) boards, into out (B, 1326, 2)."""
        from twoplustwo.kernels import versus

        b, o = _array(boards), _array(out, writable=True)
        if b.ndim != 2 or b.itemsize != 1 or b.shape[1] != 5 or o.itemsize != 2 or o.size != b.shape[0] * 2652:
            raise ValueError("board_wins takes uint8 (boards, 5) boards and a uint16 (boards, 1326, 2) out")
        self._holdem_only("board_wins")
        versus.board_wins(self._layers(7), b.view("u1"), o.view("u2").reshape(-1, 1326, 2))

    def strength_sums(self, boards: U8, weights: I64, bins: int, first: I64, second: I64, histogram: I64, /) -> None:
        """Each combo's Σ weight x (2W + T), its square and its histogram over (B, 5) boards, added to the outs."""
        from twoplustwo.kernels import versus

        b, w, n = _array(boards), _array(weights), _long(bins)
        f, s, h = (_array(a, writable=True) for a in (first, second, histogram))
        if (
            b.ndim != 2 or b.itemsize != 1 or b.shape[1] != 5 or w.itemsize != 8 or not 0 <= n <= 1980
            or any(a.itemsize != 8 for a in (f, s, h)) or f.size != 1326 or s.size != 1326 or h.size != 1326 * n
        ):  # fmt: skip
            raise ValueError(
                "strength_sums takes uint8 (boards, 5) boards, int64 weights, bins 0..1980, int64 (1326,) first "
                "and second and an int64 (1326, bins) histogram"
            )
        if w.size != b.shape[0]:
            raise ValueError("strength_sums takes one weight per board")
        self._holdem_only("strength_sums")
        outs = f.view("i8").reshape(-1), s.view("i8").reshape(-1), h.view("i8").reshape(1326, n)
        versus.strength_sums(self._layers(7), b.view("u1"), w.view("i8").reshape(-1), n, *outs)

    def range_sweep(self, boards: U8, weights: F64, out: F64, /) -> None:
        """Each combo's weight beaten, tied and faced of a weighted range on (B, 5) boards, added to out (1326, 3)."""
        from twoplustwo.kernels import versus

        b, w, o = _array(boards), _array(weights), _array(out, writable=True)
        if (
            b.ndim != 2 or b.itemsize != 1 or b.shape[1] != 5 or w.itemsize != 8 or w.size != 1326
            or o.itemsize != 8 or o.size != 3978
        ):  # fmt: skip
            raise ValueError(
                "range_sweep takes uint8 (boards, 5) boards, float64 (1326,) weights and a float64 (1326, 3) out"
            )
        self._holdem_only("range_sweep")
        versus.range_sweep(self._layers(7), b.view("u1"), w.view("f8").reshape(-1), o.view("f8").reshape(1326, 3))

    def omaha_rows(self, holes: U8, boards: U8, out: U16, /) -> int:
        """Omaha high values (uint16) of uint8 holes and boards; the first bad row (a card over 51 or twice) or -1."""
        self._holdem_only("omaha_rows")
        return _omaha_rows(self._layers(5), holes, boards, out, "omaha_rows", 2)


def omaha_low_rows(holes: U8, boards: U8, out: U8, /) -> int:
    """Omaha eight-or-better low values (uint8, 0 for no low) of uint8 rows; the first bad row, or -1."""
    return _omaha_rows(None, holes, boards, out, "omaha_low_rows", 1)


def index_rows(
    hands: U8,
    counts: U8,
    codes: npt.NDArray[np.uint32],
    offsets: npt.NDArray[np.uint64],
    slots: npt.NDArray[np.uint32],
    out: npt.NDArray[np.uint64],
    /,
) -> int:
    """Suit-isomorphic indices (uint64) of uint8 rows under a round's plan; the first bad row, or -1."""
    from twoplustwo.kernels import indexing

    h, n, c, f, s = (_array(a) for a in (hands, counts, codes, offsets, slots))
    return indexing.index_rows(h, n, c, f, s, _array(out, writable=True))


def unindex_rows(
    indices: npt.NDArray[np.uint64],
    counts: U8,
    codes: npt.NDArray[np.uint32],
    offsets: npt.NDArray[np.uint64],
    out: U8,
    /,
) -> int:
    """The canonical hand (uint8 rows) of each uint64 index under a round's plan; the first bad index, or -1."""
    from twoplustwo.kernels import indexing

    x, n, c, f = (_array(a) for a in (indices, counts, codes, offsets))
    return indexing.unindex_rows(x, n, c, f, _array(out, writable=True))


def nearest_rows(points: U16, centers: U16, labels: U16, dists: npt.NDArray[np.uint64], metric: int, /) -> None:
    """Each uint16 point's nearest center under L1 or squared L2 (the lowest index among equals), and its distance."""
    from twoplustwo.kernels import clustering

    p, c = _array(points), _array(centers)
    clustering.nearest_rows(p, c, _array(labels, writable=True), _array(dists, writable=True), metric)


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
    """nearest_rows, and each row's true distance to its second nearest center (no row is skipped here)."""
    from twoplustwo.kernels import clustering

    p, c, r, h = _array(points), _array(centers), _array(drift), _array(half)
    out = [_array(a, writable=True) for a in (labels, dists, lower)]
    clustering.assign_rows(p, c, out[0], out[1], out[2], r, h, metric)


def median_rows(
    points: U16, labels: U16, weights: npt.NDArray[np.int64], centers: U16, totals: npt.NDArray[np.int64], /
) -> None:
    """Each cluster's total weight, and its weighted median where that is positive."""
    from twoplustwo.kernels import clustering

    p, lab, w = _array(points), _array(labels), _array(weights)
    clustering.median_rows(p, lab, w, _array(centers, writable=True), _array(totals, writable=True))


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
    """Each uint16 histogram's nearest center under the EMD over the ground rows, and a bound on the others."""
    from twoplustwo.kernels import clustering

    p, c, g, r, h = _array(points), _array(centers), _array(ground), _array(drift), _array(half)
    out = [_array(a, writable=True) for a in (labels, dists, lower)]
    clustering.transport_rows(p, c, g, out[0], out[1], out[2], r, h, None if stop is None else _array(stop))

def _omaha_rows(
    layers: list[npt.NDArray[np.unsignedinteger[Any]]] | None,
    holes: U8,
    boards: U8,
    out: npt.NDArray[Any],
    name: str,
    out_size: int,
) -> int:
    from twoplustwo.kernels import arrays

    hb, bb, ob = _array(holes), _array(boards), _array(out, writable=True)
    ok = (
        hb.ndim == 2
        and bb.ndim == 2
        and hb.itemsize == 1
        and bb.itemsize == 1
        and ob.itemsize == out_size
        and 4 <= hb.shape[1] <= 6
        and 3 <= bb.shape[1] <= 5
        and bb.shape[0] in (hb.shape[0], 1)
        and ob.nbytes == hb.shape[0] * out_size
    )
    if not ok:
        raise ValueError(
            f"{name} takes (N, 4..6) uint8 holes, (N or 1, 3..5) uint8 boards and a uint{8 * out_size} out of N"
        )
    return arrays.omaha_rows(layers, hb.view("u1"), bb.view("u1"), ob.view(f"u{out_size}").reshape(-1))
