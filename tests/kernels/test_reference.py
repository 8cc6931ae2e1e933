"""The numpy reference walker against the C walker, method by method: the same results and the same errors.

Each case calls one method of both walkers (over the same mapped tables)
with the same arguments and fresh output arrays, and compares what they
return or raise and what they wrote. Where C serves a fast path the
reference leaves to its caller (card text, the counting histogram, the
small tables), the reference's answer is the documented "not mine".
"""

from __future__ import annotations

from collections.abc import Callable
from math import comb
from typing import Any

import numpy as np
import pytest

from twoplustwo.kernels import numpy as numpy_backend
from twoplustwo.kernels import pots
from twoplustwo.kernels.games import resolve, walker_of
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.cards import parse_cards

try:
    from twoplustwo.kernels import _core
except ImportError:  # pragma: no cover - only without a C compiler at install time
    _core = None  # type: ignore[assignment]

pytestmark = pytest.mark.skipif(_core is None, reason="the C extension was not built (no C compiler at install)")

U8, U16 = np.uint8, np.uint16


def run(call: Callable[[], Any], outs: list[np.ndarray]) -> tuple[str, str, list[list[Any]]]:
    """What ``call`` returned or raised, and what it left in ``outs``."""
    try:
        value = call()
    except (ValueError, TypeError, OverflowError, BufferError) as e:
        return type(e).__name__, str(e), []
    return "ok", repr(value), [o.tolist() for o in outs]


def same(c: Any, ref: Any, method: str, *args: Any, outs: tuple[int, ...] = (), compare_out: bool = True) -> None:
    """Call ``method`` on both walkers with copies of ``args``; the arguments at ``outs`` are output arrays."""

    def call(w: Any) -> tuple[str, str, list[list[Any]]]:
        copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        written = [copies[i] for i in outs] if compare_out else []
        return run(lambda: getattr(w, method)(*copies), written)

    got, want = call(c), call(ref)
    assert got == want, (method, args)


@pytest.fixture
def walkers(both: tuple[Tables, Tables]) -> tuple[Any, Any]:
    c, ref = both
    assert isinstance(walker_of(ref), numpy_backend.Walker) and isinstance(walker_of(c), _core.Walker)
    return walker_of(c), walker_of(ref)


@pytest.fixture
def game_walkers(both: tuple[Tables, Tables]) -> tuple[Any, Any]:
    c, ref = both
    return resolve("short-deck", c).walker, resolve("short-deck", ref).walker


def hands(n: int, k: int, seed: int, low: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (np.argsort(rng.random((n, 52 - low)), axis=1)[:, :k] + low).astype(U8)


def test_evaluate(walkers: tuple[Any, Any], game_walkers: tuple[Any, Any]) -> None:
    for c, ref in (walkers, game_walkers):
        low = 0 if c is walkers[0] else 16
        for k in (5, 6, 7):
            for row in hands(300, k, k, low).tolist():
                assert c.evaluate(row) == ref.evaluate(row) == ref.evaluate(tuple(row)) is not None
        for bad in ([0, 1, 2, 3], [0, 1, 2, 3, 3], [0, 1, 2, 3, 52], [True, 1, 2, 3, 4], [0, 1, 2, 3, 4, 5, 6, 7],
                    [0, 1, 2, 3, 4, 5, -1], None, np.arange(5), (0.0, 1, 2, 3, 4)):  # fmt: skip
            assert c.evaluate(bad) is None and ref.evaluate(bad) is None, bad
    # Card text: C reads the common forms itself; the reference leaves all text to its caller.
    assert walkers[0].evaluate("As Ks Qs Js Ts") == 7462 and walkers[1].evaluate("As Ks Qs Js Ts") is None
    assert walkers[1].evaluate([51, 47, 43, 39, 0]) == walkers[0].evaluate([51, 47, 43, 39, 0])
    assert game_walkers[1].evaluate([51, 47, 43, 39, 0]) is None  # a card outside the deck


def test_walk_rows(walkers: tuple[Any, Any], game_walkers: tuple[Any, Any]) -> None:
    for c, ref in (walkers, game_walkers):
        for k in (5, 6, 7):
            h = hands(1000, k, 10 + k)
            for check in (True, False):
                same(c, ref, "walk_rows", h, np.zeros(len(h), U16), check, outs=(1,))
            bad = h.copy()
            bad[700, 2] = bad[700, 4]  # a card twice
            same(c, ref, "walk_rows", bad, np.zeros(len(h), U16), True, compare_out=False)
            bad[300, 1] = 200  # past 51: bad even unchecked
            for check in (True, False):
                same(c, ref, "walk_rows", bad, np.zeros(len(h), U16), check, compare_out=False)
        # On from a prefix's node, with its cards held.
        prefix = [0, 13]
        node = int(ref.layers(7)[1][ref.layers(7)[0][0] * 52 + 13])
        rows = hands(500, 5, 3)
        rows = rows[~np.isin(rows, prefix).any(axis=1)]
        same(c, ref, "walk_rows", rows, np.zeros(len(rows), U16), True, 2, node, 1 | 1 << 13, outs=(1,))
        rows[5, 0] = 13
        same(c, ref, "walk_rows", rows, np.zeros(len(rows), U16), True, 2, node, 1 | 1 << 13, compare_out=False)
    c, ref = walkers
    h, out = hands(4, 5, 1), np.zeros(4, U16)
    for args in [
        (h, out, True, 1, 0),
        (h[:, :3], out, True),
        (h, out[:3], True),
        (h.astype(np.int16), out, True),
        (h, out, True, 2, 10**7, 0),
        (h, out, True, 2, -1, 0),
        (h, out, True, 2, 2**70, 0),
        (h.tolist(), out, True),
        (h[:, ::2], out, True),
        (h, np.zeros(4, U16)[::1].copy().view(U16), True, 0, 0, 0),
    ]:
        same(c, ref, "walk_rows", *args, compare_out=False)


def test_draw_values(walkers: tuple[Any, Any], game_walkers: tuple[Any, Any]) -> None:
    for c, ref in (walkers, game_walkers):
        deck = np.arange(16 if c is game_walkers[0] else 0, 52, dtype=U8)
        for depth, free in ((2, deck[:30]), (4, deck[3:]), (6, deck[5:9]), (3, deck[::2])):
            start = _node(ref, deck[-depth:].tolist())
            same(c, ref, "draw_values", start, depth, free.copy(), np.zeros(comb(len(free), 7 - depth), U16), outs=(3,))
        for args in [
            (10**6, 2, deck[:10], np.zeros(comb(10, 5), U16)),
            (0, 2, deck[:10], np.zeros(5, U16)),
            (0, 6, np.array([3, 2], U8), np.zeros(2, U16)),
            (0, 7, deck[:10], np.zeros(1, U16)),
            (0, 6, np.array([60], U8), np.zeros(1, U16)),
            (0, 2, deck[:10].astype(np.int32), np.zeros(comb(10, 5), U16)),
        ]:
            same(c, ref, "draw_values", *args, compare_out=False)


def _node(w: Any, cards: list[int]) -> int:
    """The dag7 node after ``cards``, as a walker's own arrays give it."""
    node = 0
    for depth, card in enumerate(cards):
        node = int(w.layers(7)[depth][node * 52 + int(card)])
    return node


def test_fill_ordered(walkers: tuple[Any, Any], game_walkers: tuple[Any, Any]) -> None:
    for c, ref in (walkers, game_walkers):
        low = 16 if c is game_walkers[0] else 0
        for n, include, free in (
            (5, [], range(low, 52)),
            (7, [low, low + 9], range(low + 1, 40)),
            (6, [50], range(low, 45)),
        ):
            inc, fr = np.array(include, U8), np.array([f for f in free if f not in include], U8)
            node = 0
            for depth, card in enumerate(include):
                node = int(ref.layers(n)[depth][node * 52 + card])
            total = comb(len(fr), n - len(inc))
            for r0, rows in ((0, 1000), (total - 77, 77), (total // 3, 5000)):
                same(
                    c,
                    ref,
                    "fill_ordered",
                    n,
                    node,
                    fr,
                    inc,
                    r0,
                    np.zeros((rows, n), U8),
                    np.zeros(rows, U16),
                    outs=(5, 6),
                )
        free, none = np.arange(low, 52, dtype=U8), np.zeros(0, U8)
        cards, values = np.zeros((4, 7), U8), np.zeros(4, U16)
        for args in [
            (7, 0, free, none, comb(len(free), 7) - 3, cards, values),
            (7, 0, free, none, -1, cards, values),
            (7, 10**6, free, none, 0, cards, values),
            (7, 0, free[::-1].copy(), none, 0, cards, values),
            (7, 0, free, np.array([60], U8), 0, cards, values),
            (7, 0, free, none, 0, cards[:3], values),
            (4, 0, free, none, 0, cards, values),
            (7, 0, free[:6], none, 0, cards, values),
            (5, 0, np.arange(52, dtype=U8), none, 0, np.zeros((1, 5), U8), np.zeros(1, U16)),
        ]:
            same(c, ref, "fill_ordered", *args, compare_out=False)


def test_rank_combos(walkers: tuple[Any, Any], game_walkers: tuple[Any, Any]) -> None:
    for c, ref in (walkers, game_walkers):
        low = 16 if c is game_walkers[0] else 0
        for board in ([low, low + 5, 40], [low + 1, 30, 44, 51], [20, 24, 28, 32, 50]):
            n = len(board) + 2
            node = 0
            for depth, card in enumerate(board):
                node = int(ref.layers(n)[depth][node * 52 + card])
            held = sum(1 << b for b in board)
            same(c, ref, "rank_combos", node, len(board), held, np.zeros(1326, U16), outs=(3,))
        for args in [
            (0, 2, 0, np.zeros(1326, U16)),
            (0, 3, 0, np.zeros(1325, U16)),
            (10**7, 3, 0, np.zeros(1326, U16)),
        ]:
            same(c, ref, "rank_combos", *args, compare_out=False)


def test_range_values_and_score_tuples(walkers: tuple[Any, Any]) -> None:
    c, ref = walkers
    board = parse_cards("Qh 7c 2d")
    combos = np.array([[0, 1], [4, 9], [50, 51], [12, 13], [8, 50]], dtype=U8)
    starts = np.array([_node(ref, [*cc.tolist(), *board]) for cc in combos], dtype=np.uint32)
    held = np.array([(1 << int(a)) | (1 << int(b)) for a, b in combos], dtype=np.uint64)
    free = np.array([x for x in range(52) if x not in board and x > 3], dtype=U8)
    for prefix in (np.zeros(0, U8), np.array([3], U8)):
        t = 2 - len(prefix)
        out = np.zeros((len(combos), comb(len(free), t)), U16)
        same(c, ref, "range_values", starts, held, 5, prefix, free, out, outs=(5,))
    out = np.zeros((len(combos), comb(len(free), 2)), U16)
    c.range_values(starts, held, 5, np.zeros(0, U8), free, out)
    for args in [
        (starts, held, 5, np.zeros(0, U8), free, out.ravel()[:239]),
        (starts, held, 5, np.array([12], U8), free, out),
        (np.array([10**8, 0], np.uint32), held[:2], 5, np.zeros(0, U8), free, out[:2]),
        (starts.astype(np.int64), held, 5, np.zeros(0, U8), free, out),
        (starts, held, 5, np.zeros(0, U8), free[::-1].copy(), out),
    ]:
        same(c, ref, "range_values", *args, compare_out=False)
    tuples = np.array([[0, 1], [1, 2], [2, 3], [0, 4], [3, 4]], dtype=np.int32)
    for players in (2, 3):
        deals = np.array([[i, (i + 1) % 5, (i + 2) % 5][:players] for i in range(5)], dtype=np.int32)
        same(c, ref, "score_tuples", out, deals, np.zeros((5, players, 3), np.int64), np.zeros(5, np.int64),
             outs=(2, 3))  # fmt: skip
    counts, games = np.zeros((5, 2, 3), np.int64), np.zeros(5, np.int64)
    for args in [
        (out, np.array([[0, 9]], np.int32), counts[:1], games[:1]),
        (out, tuples, counts[:, :1].copy(), games),
        (out, tuples.astype(np.int64), counts, games),
        (out, tuples[:, :1].copy(), counts[:, :1].copy(), games),
        (out.ravel(), tuples, counts, games),
    ]:
        same(c, ref, "score_tuples", *args, compare_out=False)


def test_count_vs_random(walkers: tuple[Any, Any], game_walkers: tuple[Any, Any]) -> None:
    from twoplustwo.vocab.suits import canonical_boards

    c, ref = walkers
    boards, weights = canonical_boards()
    rng = np.random.default_rng(11)
    picked = rng.choice(len(boards), 150, replace=False)
    # Canonical boards with their weights, and raw boards in any order: weights and card order must not matter.
    for b, w in [(boards[picked], weights[picked]), (hands(100, 5, 12), rng.integers(1, 30, 100))]:
        same(c, ref, "count_vs_random", np.ascontiguousarray(b), w.astype(np.int64), np.zeros((1326, 2), np.int64),
             outs=(2,))  # fmt: skip
    out = np.zeros((1326, 2), np.int64)
    c.count_vs_random(np.ascontiguousarray(boards[picked]), weights[picked].copy(), out)
    assert out[:, 0].sum() > 0 and (out[:, 1] >= out[:, 0]).all()  # something was counted, and ties add
    good, one = hands(3, 5, 13), np.ones(3, np.int64)
    for args in [
        (good, one[:2], out),
        (good, one, out[:1000]),
        (good.astype(np.int64), one, out),
        (np.array([[1, 2, 3, 4, 4]], U8), one[:1], out),
        (np.array([[1, 2, 3, 4, 52]], U8), one[:1], out),
        (good[:, :4].copy(), one, out),
    ]:
        same(c, ref, "count_vs_random", *args, compare_out=False)
    same(*game_walkers, "count_vs_random", good, one, out, compare_out=False)  # hold'em only, on both


def test_board_sweeps(walkers: tuple[Any, Any], game_walkers: tuple[Any, Any]) -> None:
    c, ref = walkers
    rng = np.random.default_rng(17)
    boards = hands(40, 5, 18)
    weights = rng.integers(1, 25, len(boards)).astype(np.int64)
    same(c, ref, "board_wins", boards, np.zeros((40, 1326, 2), U16), outs=(1,))
    for bins in (0, 1, 7, 50):
        outs = np.zeros(1326, np.int64), np.zeros(1326, np.int64), np.zeros((1326, bins), np.int64)
        same(c, ref, "strength_sums", boards, weights, bins, *outs, outs=(3, 4, 5))
    # Weights that are sums of halves add up exactly in any order: C and numpy agree to the bit.
    villain = np.where(rng.random(1326) < 0.3, rng.integers(1, 5, 1326) / 4, 0.0)
    same(c, ref, "range_sweep", boards, villain, np.zeros((1326, 3)), outs=(2,))
    wins = np.zeros((40, 1326, 2), U16)
    c.board_wins(boards, wins)
    live = wins.sum(axis=2) > 0
    assert (wins.sum(axis=2) <= 990).all() and live.sum(axis=1).min() >= 1000  # C(47, 2) = 1081 live combos
    for args in [
        ("board_wins", boards[:, :4].copy(), np.zeros((40, 1326, 2), U16)),
        ("board_wins", boards, np.zeros((40, 1326), U16)),
        ("board_wins", np.array([[1, 2, 3, 3, 4]], U8), np.zeros((1, 1326, 2), U16)),
        ("strength_sums", boards, weights[:3], 0, np.zeros(1326, np.int64), np.zeros(1326, np.int64),
         np.zeros((1326, 0), np.int64)),
        ("strength_sums", boards, weights, 1981, np.zeros(1326, np.int64), np.zeros(1326, np.int64),
         np.zeros((1326, 1981), np.int64)),
        ("range_sweep", boards, np.full(1326, 1.5), np.zeros((1326, 3))),
        ("range_sweep", boards, np.full(1326, np.nan), np.zeros((1326, 3))),
        ("range_sweep", boards, villain[:1000].copy(), np.zeros((1326, 3))),
        ("range_sweep", np.array([[1, 2, 3, 4, 60]], U8), villain, np.zeros((1326, 3))),
    ]:  # fmt: skip
        same(c, ref, *args, compare_out=False)
    same(*game_walkers, "board_wins", boards[:1], np.zeros((1, 1326, 2), U16), compare_out=False)
    same(*game_walkers, "range_sweep", boards[:1], villain, np.zeros((1326, 3)), compare_out=False)


def test_score(walkers: tuple[Any, Any]) -> None:
    c, ref = walkers
    rng = np.random.default_rng(5)
    for players in range(1, 10):
        values = rng.integers(1, 40, size=(players, 5000)).astype(U16)  # many ties
        same(c, ref, "score", values)
    for bad in (np.zeros((10, 3), U16), np.zeros(3, U16), np.zeros((2, 3), np.int32), [[1, 2]]):
        same(c, ref, "score", bad)


def test_histogram_and_small_rows(walkers: tuple[Any, Any], game_walkers: tuple[Any, Any]) -> None:
    c, ref = walkers
    # Both fast paths are C's own: the reference declines them, as C does where its small tables do not serve.
    hist = np.zeros(7463, np.int64)
    assert ref.histogram(7, hist) is False and not hist.any()
    for bad in ((4, np.zeros(7463, np.int64)), (7, np.zeros(7463, np.int32)), (7, np.zeros(7462, np.int64))):
        same(c, ref, "histogram", *bad, compare_out=False)
    same(*game_walkers, "histogram", 7, np.zeros(7463, np.int64), outs=(1,))  # False for another deck, on both
    for k in (5, 6, 7):
        h = hands(2000, k, 40 + k)
        small, walked = np.zeros(len(h), U16), np.zeros(len(h), U16)
        assert c.small_rows(h, small) is True and ref.small_rows(h, walked) is False
        np.testing.assert_array_equal(small, walked)
    for bad in ((np.full((1, 5), 255, U8), np.zeros(1, U16)), (hands(2, 4, 1), np.zeros(2, U16)),
                (hands(2, 5, 1), np.zeros(3, U16))):  # fmt: skip
        same(c, ref, "small_rows", *bad, compare_out=False)


def test_omaha(walkers: tuple[Any, Any], game_walkers: tuple[Any, Any]) -> None:
    c, ref = walkers
    rng = np.random.default_rng(7)
    for nh in (4, 5, 6):
        for nb in (3, 4, 5):
            deals = np.argsort(rng.random((500, 52)), axis=1)[:, : nh + nb].astype(U8)
            holes, boards = np.ascontiguousarray(deals[:, :nh]), np.ascontiguousarray(deals[:, nh:])
            for h, b in zip(holes[:50].tolist(), boards[:50].tolist()):
                assert c.omaha(h, b) == ref.omaha(h, b) == ref.omaha(tuple(h), tuple(b)) is not None
            same(c, ref, "omaha_rows", holes, boards, np.zeros(len(holes), U16), outs=(2,))
            same(_core, numpy_backend, "omaha_low_rows", holes, boards, np.zeros(len(holes), U8), outs=(2,))
            shared = holes[~np.isin(holes, boards[0]).any(axis=1)]
            same(c, ref, "omaha_rows", shared, boards[:1], np.zeros(len(shared), U16), outs=(2,))
            bad = holes.copy()
            bad[321, 1] = bad[321, 0]
            same(c, ref, "omaha_rows", bad, boards, np.zeros(len(holes), U16), compare_out=False)
            same(_core, numpy_backend, "omaha_low_rows", bad, boards, np.zeros(len(holes), U8), compare_out=False)
    for h, b in (([0, 1, 2], [4, 5, 6]), ([0, 1, 2, 3], [3, 5, 6]), ([0, 1, 2, 3], [4, 5]), ([0, 1, 2, 3], [4, 5, 60])):
        assert c.omaha(h, b) is None and ref.omaha(h, b) is None
    holes, boards = hands(3, 4, 1), hands(3, 5, 2)
    for args in [
        (holes, boards, np.zeros(3, U8)),
        (holes[:, :3], boards, np.zeros(3, U16)),
        (holes, boards[:2], np.zeros(3, U16)),
    ]:
        same(c, ref, "omaha_rows", *args, compare_out=False)
    same(_core, numpy_backend, "omaha_low_rows", holes, boards, np.zeros(3, U16), compare_out=False)
    same(*game_walkers, "omaha", [51, 47, 43, 39], [35, 31, 27])
    same(*game_walkers, "omaha_rows", holes, boards, np.zeros(3, U16), compare_out=False)


def test_the_walkers_are_made_alike(walkers: tuple[Any, Any]) -> None:
    c, ref = walkers
    for args, kw in [
        ((None, [], [], b"", b""), {}),
        ((None, None, [], b"", b""), {"deck": 0}),
        ((None, None, [], b"", b""), {"deck": 1 << 52}),
        ((None, None, [b""] * 6, b"", b""), {}),
        ((None, None, 7, b"", b""), {}),
    ]:
        assert run(lambda: type(c)(*args, **kw), []) == run(lambda: type(ref)(*args, **kw), [])  # noqa: B023


def test_one_pot_unit() -> None:
    # The C core splits pots in the same units as showdown.py, its numpy twin and the one home of pot splitting.
    assert getattr(_core, "POT_UNITS", pots.POT_UNITS) == pots.POT_UNITS == 2520
    assert pots.SHARES.tolist() == [0] + [pots.POT_UNITS // k for k in range(1, 10)]
