"""The C backend against the numpy reference: the same values on every hand, the same errors.

The numpy path is the reference (``TWOPLUSTWO_BACKEND=numpy``); the C
extension ``twoplustwo.kernels._core`` must agree with it everywhere. Each test
builds one :class:`~twoplustwo.Tables` per backend over the same mapped
arrays and compares what the public functions return or raise.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import sysconfig
from collections import Counter
from collections.abc import Callable, Iterator
from itertools import combinations, combinations_with_replacement
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import twoplustwo as tp
from tests.racing import race
from twoplustwo.kernels.choice import ENV_VAR, LOOP_VAR, LOOPS
from twoplustwo.kernels.games import resolve, walker_of
from twoplustwo.tables.default import load_tables
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.rules import GAMES, HOLDEM, rules_of

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "twoplustwo" / "kernels" / "c"  # core.h and its units, one job each

try:
    from twoplustwo.kernels import _core  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - only without a C compiler at install time
    _core = None

needs_core = pytest.mark.skipif(_core is None, reason="the C extension was not built (no C compiler at install)")


def outcome(call: Callable[[], Any]) -> tuple[str, str]:
    try:
        value = call()
    except (ValueError, TypeError, IndexError) as e:
        return type(e).__name__, str(e)
    return "ok", repr(value.tolist() if isinstance(value, np.ndarray) else value)


def assert_same(got: Any, want: Any) -> None:
    """np.testing.assert_array_equal, whose checks took half of this file's time on the rows of every hand:
    equal arrays pass on one comparison, and only arrays that differ get its report."""
    if not np.array_equal(got, want):
        np.testing.assert_array_equal(got, want)


# ------------------------------------------------------------- every hand


@needs_core
@pytest.mark.slow
@pytest.mark.parametrize("n", [5, 6, 7])
def test_c_paths_agree_with_the_dag_on_every_hand(n: int, both: tuple[Tables, Tables]) -> None:
    # iter_hands walks the DAG with numpy. The C batch walk must agree (a
    # checked batch of whole hands reads the keyed tables, which do not walk
    # the DAG), and so must the small tables of the single-hand path (rank
    # multisets and flush masks derived from dag7), which do not either.
    c, ref = both
    # Checked batches of whole hands go through the keyed tables (kernels/c/keyed.c), not the DAG.
    assert walker_of(c).keyed_tables() is True and walker_of(ref).keyed_tables() is False
    total = 0
    ordered = tp.iter_hands(n, chunk_size=1 << 22, tables=c, reuse=True)
    for cards, values in tp.iter_hands(n, chunk_size=1 << 22, tables=ref):
        c_cards, c_values = next(ordered)  # the C enumeration, in the same order
        assert_same(c_cards, cards)
        assert_same(c_values, values)
        assert_same(tp.evaluate_batch(cards, tables=c), values)
        small = np.empty(len(values), dtype=np.uint16)
        assert walker_of(c).small_rows(cards, small) is True  # the single-hand path uses them
        assert_same(small, values)
        # The batch above ran the loop chosen at import; every loop this processor has, again.
        for loop in _core.BATCH_LOOPS:
            keyed = np.zeros(len(values), dtype=np.uint16)
            assert walker_of(c).keyed_rows(cards, keyed, LOOPS.index(loop)) == -1
            assert_same(keyed, values)
        total += len(values)
    assert total == tp.count_hands(n)
    assert next(ordered, None) is None
    # The C histogram counts rank multisets and suit patterns instead.
    assert_same(tp.histogram(n, tables=c), tp.histogram(n, tables=ref))


@needs_core
@pytest.mark.parametrize(
    ("n", "include", "dead"),
    [
        (5, "", "As Kd"),
        (6, "As", ""),
        (7, "2c 3c", "Kd"),
        (7, "Ah Kh Qh Jh Th 9h", ""),
        (6, "", "2c 3d 4h 5s 6c 7c 8c 9c Tc Jc Qc Kc Ac"),
        (7, "2c Ad", "5h 6h 7h"),
        (7, "7c 8d 9h Ts", "As Ks Qs Js"),
        (5, "Ts 9s 8s 7s 6s", ""),
    ],
)
def test_ordered_hands_agree_with_include_and_dead_cards(
    n: int, include: str, dead: str, both: tuple[Tables, Tables]
) -> None:
    # Include cards above and below the free ones exercise the C fill's
    # merged rows; odd chunk sizes its resuming mid-row-of-the-last-layer.
    c, ref = both
    want_cards = np.concatenate([x for x, _ in tp.iter_hands(n, include=include, dead=dead, tables=ref)])
    want_values = np.concatenate([v for _, v in tp.iter_hands(n, include=include, dead=dead, tables=ref)])
    for chunk_size in (1, 7, 1000, 1 << 20):
        if chunk_size < 1000 and len(want_values) > 200_000:
            continue
        for threads in (1, 2):
            got = list(tp.iter_hands(n, include=include, dead=dead, chunk_size=chunk_size, threads=threads, tables=c))
            assert_same(np.concatenate([x for x, _ in got]), want_cards)
            assert_same(np.concatenate([v for _, v in got]), want_values)
    assert_same(
        tp.histogram(n, include=include, dead=dead, tables=c), tp.histogram(n, include=include, dead=dead, tables=ref)
    )


@needs_core
def test_ordered_fill_refuses_bad_arguments(both: tuple[Tables, Tables]) -> None:
    w = walker_of(both[0])
    free, none = np.arange(52, dtype=np.uint8), np.zeros(0, dtype=np.uint8)
    cards, values = np.empty((4, 7), dtype=np.uint8), np.empty(4, dtype=np.uint16)
    for args, match in [
        ((7, 0, free, none, 133784560 - 3, cards, values), "beyond the last hand"),
        ((7, 0, free, none, -1, cards, values), "beyond the last hand"),
        ((7, 10**6, free, none, 0, cards, values), "not a node of that depth"),
        ((7, 0, free[::-1].copy(), none, 0, cards, values), "sorted, distinct"),
        ((7, 0, free, np.array([60], dtype=np.uint8), 0, cards, values), "sorted, distinct"),
        ((7, 0, free, none, 0, cards[:3], values), r"\(R, n\) uint8"),
        ((4, 0, free, none, 0, cards, values), "n = 5..7"),
        ((7, 0, free[:6], none, 0, cards, values), "n = 5..7"),
    ]:
        with pytest.raises(ValueError, match=match):
            w.fill_ordered(*args)
    w.fill_ordered(7, 0, free, none, 133784560 - 4, cards, values)  # the very last rows
    assert cards[-1].tolist() == list(range(45, 52)) and values[-1] == tp.evaluate(list(range(45, 52)))
    with pytest.raises(ValueError, match="int64 array of 7463"):
        w.histogram(7, np.zeros(7463, dtype=np.int32))
    with pytest.raises(ValueError, match="1 to 9 players"):
        w.score(np.zeros((10, 3), dtype=np.uint16))


@needs_core
def test_tables_of_other_values_walk_the_dag_for_single_hands() -> None:
    # The conformance fixtures' tiny set holds values that rank no poker
    # hands: the small tables cannot stand for it, and single hands must
    # still give what the DAG gives.
    t = load_tables(ROOT / "spec" / "conformance" / "cases" / "valid")
    assert walker_of(t).small_rows(np.zeros((0, 5), dtype=np.uint8), np.zeros(0, dtype=np.uint16)) is False
    assert walker_of(t).keyed_tables() is False  # nor can the keyed tables of batches
    rng = np.random.default_rng(29)
    hands = np.array([rng.permutation(52)[:7] for _ in range(500)], dtype=np.uint8)
    want = tp.evaluate_batch(hands, tables=t)
    assert [tp.evaluate(h, tables=t) for h in hands.tolist()] == want.tolist()


@needs_core
def test_the_default_tables_take_the_c_entry_point(both: tuple[Tables, Tables]) -> None:
    _, ref = both
    assert type(tp.evaluate).__name__ == "builtin_function_or_method"
    rng = np.random.default_rng(23)
    for _ in range(20_000):
        hand = rng.choice(52, size=int(rng.integers(5, 8)), replace=False).tolist()
        assert tp.evaluate(hand) == tp.evaluate(hand, tables=ref), hand
    for hand in BAD_HANDS:
        assert outcome(lambda: tp.evaluate(hand)) == outcome(lambda: tp.evaluate(hand, tables=ref))  # type: ignore[arg-type]  # noqa: B023
    with pytest.raises(TypeError):
        tp.evaluate([0, 1, 2, 3, 4], [5])  # type: ignore[misc]


@needs_core
@pytest.mark.parametrize("game", GAMES)
def test_the_c_entry_point_reads_keywords_by_name_however_they_are_made(game: str) -> None:
    # A call site's keyword names are interned strings; names built at run time ("**kwargs") are not, and
    # must read the same. A keyword evaluate does not take is the fallback's TypeError.
    hand = [51, 47, 43, 39, 30, 26, 16][: max(rules_of(game).sizes)]
    want = tp.evaluate(hand, game=game, tables=None)
    made = {"".join(["ga", "me"]): "".join(game), "".join(["tab", "les"]): None}
    assert all(type(k) is str and k is not sys.intern(k) for k in made)
    assert tp.evaluate(hand, **made) == want
    assert tp.evaluate(hand, **{"".join(["ga", "me"]): game}) == tp.evaluate(hand, game=game) == want
    with pytest.raises(TypeError, match="unexpected keyword argument 'gam'"):
        tp.evaluate(hand, gam=game)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected keyword argument 'gamey'"):
        tp.evaluate(hand, **{"gamey": game})  # type: ignore[arg-type]


@needs_core
def test_the_c_entry_point_follows_clear_cache() -> None:
    from twoplustwo.tables.default import clear_cache, get_tables

    before = get_tables()
    clear_cache()
    assert tp.evaluate("As Ks Qs Js Ts") == 7462  # loads the default set again
    assert get_tables() is not before


@needs_core
def test_single_hands_agree_in_any_order(both: tuple[Tables, Tables]) -> None:
    c, ref = both
    rng = np.random.default_rng(17)
    for _ in range(20_000):
        hand = rng.choice(52, size=int(rng.integers(5, 8)), replace=False).tolist()
        assert tp.evaluate(hand, tables=c) == tp.evaluate(hand, tables=ref), hand
        assert tp.evaluate(tuple(hand), tables=c) == tp.evaluate(hand, tables=ref), hand


def table_entry_hands(low: int, least: int, rng: np.random.Generator) -> list[list[int]]:
    """At least ``least`` hands of 5-7 cards of ranks ``low``..12, in random order: one for each rank multiset
    (suits in turn, so no flush) and one for each set of suited ranks, which is one for each entry of the
    single-hand tables, then random hands (flushes among them with cards of other suits beside)."""
    hands: list[list[int]] = []
    for n in (5, 6, 7):
        for ranks in combinations_with_replacement(range(low, 13), n):
            if max(Counter(ranks).values()) <= 4:
                hands.append([r * 4 + i % 4 for i, r in enumerate(ranks)])
        for ranks in combinations(range(low, 13), n):
            suit = int(rng.integers(4))
            hands.append([r * 4 + suit for r in ranks])
    deck = np.arange(4 * low, 52)
    for _ in range(max(20_000, least - len(hands))):
        hands.append(rng.choice(deck, size=int(rng.integers(5, 8)), replace=False).tolist())
    for h in hands:
        rng.shuffle(h)
    return hands


class Card(int):
    """An int subclass: not a card the fast path reads, but one the Python path takes."""


@needs_core
@pytest.mark.parametrize("batch_first", [False, True])
# Games of 5 to 7 cards with a walker of their own (stud's is hold'em's, tested as hold'em).
@pytest.mark.parametrize(
    "game", [g for g in GAMES if rules_of(g).sizes == (5, 6, 7) and (g == HOLDEM or rules_of(g).layout(7)[0] != "dag7")]
)
def test_single_hands_agree_with_the_dag_through_each_table_phase(
    game: str, batch_first: bool, both: tuple[Tables, Tables]
) -> None:
    # A fresh walker's single hands walk the DAG (the first SMALL_AFTER), read
    # the small tables (KEYED_AFTER more), then the keyed tables, or at once
    # once a batch has built them. Every entry of those tables, in all three
    # phases and then again in the last, must give the DAG walk's value (the
    # numpy path's), for ints in a tuple or list and for text.
    c, ref = both
    walker = resolve(game, c).walker
    if batch_first:
        assert walker.keyed_tables() is (game == HOLDEM)  # built either way; batches read them in hold'em alone
    low = resolve(game, c).deck.start >> 2
    phases = _core.SMALL_AFTER + _core.KEYED_AFTER
    hands = table_entry_hands(low, phases + 1, np.random.default_rng(41))
    assert len(hands) > phases  # the second pass reads the keyed tables throughout
    want = [0] * len(hands)
    for n in (5, 6, 7):
        at = [i for i, h in enumerate(hands) if len(h) == n]
        values = tp.evaluate_batch(np.array([hands[i] for i in at], dtype=np.uint8), game=game, tables=ref)
        for i, v in zip(at, values.tolist()):
            want[i] = v
    forms = [tuple, list, tp.format_cards]
    for _ in range(2):
        got = [walker.evaluate(forms[i % 3](h)) for i, h in enumerate(hands)]  # type: ignore[operator]
        assert got == want
    # Whatever the phase, anything but distinct plain ints or card text of the deck is the Python path's to
    # answer or explain, alike on both backends.
    suited = [Card(x) for x in hands[-1]]
    big = [[0, 1, 2, 3, x] for x in (2**30, 2**31, -(2**30), 2**64)]  # past one 30-bit digit, or negative
    for hand in [*BAD_HANDS, suited, *big]:
        assert outcome(lambda: tp.evaluate(hand, game=game, tables=c)) == outcome(  # type: ignore[arg-type]  # noqa: B023
            lambda: tp.evaluate(hand, game=game, tables=ref)  # type: ignore[arg-type]  # noqa: B023
        )
    assert tp.evaluate(suited, game=game, tables=c) == want[-1]


@needs_core
@pytest.mark.parametrize("n", [5, 6, 7])
def test_random_batches_agree_on_threads(n: int, both: tuple[Tables, Tables]) -> None:
    c, ref = both
    rng = np.random.default_rng(n)
    hands = np.argsort(rng.random((300_000, 52)), axis=1)[:, :n]
    for dtype in (np.uint8, np.int16, np.int64):
        h = hands.astype(dtype)
        want = tp.evaluate_batch(h, tables=ref, threads=1)
        for threads in (1, 2):
            assert_same(tp.evaluate_batch(h, tables=c, threads=threads), want)
            assert_same(tp.evaluate_batch(h, tables=c, threads=threads, check=False), want)


# ------------------------------------------------------------------ errors

BAD_HANDS: list[object] = [
    [0, 1, 2, 3],
    [0, 1, 2, 3, 4, 5, 6, 7],
    [0, 1, 2, 3, 3],
    [0, 1, 2, 3, 52],
    [0, 1, 2, 3, -1],
    [0, 1, 2, 3, 2**70],
    [True, 1, 2, 3, 4],
    [0.0, 1, 2, 3, 4],
    [np.int64(4), 0, 1, 2, 3],
    (0, 1, 2, 3, 4, 5, 6),
    "As Ks Qs Js Ts",
    "As Ks Qs Js Js",
    "As Ks Qs Jx Ts",
    np.array([51, 47, 43, 39, 35]),
    None,
    {0: 1},
]


@needs_core
@pytest.mark.parametrize("hand", BAD_HANDS, ids=repr)
def test_single_hand_outcomes_are_the_same(hand: object, both: tuple[Tables, Tables]) -> None:
    c, ref = both
    assert outcome(lambda: tp.evaluate(hand, tables=c)) == outcome(lambda: tp.evaluate(hand, tables=ref))  # type: ignore[arg-type]


BAD_BATCHES: list[object] = [
    [[0, 1, 2, 3, 4], [0, 1, 2, 3, 3]],
    [[0, 1, 2, 3, 4], [0, 1, 2, 3, 52]],
    [[0, 1, 2, 3, 4], [0, 1, 2, 3, -5]],
    np.array([[0, 1, 2, 3, 4]] * 600_000 + [[9, 9, 1, 2, 3]], dtype=np.uint8),
    np.array([[0, 1, 2, 3, 300]], dtype=np.int64),
    [[0, 1, 2, 3]],
    [[0.5, 1, 2, 3, 4]],
]


@needs_core
@pytest.mark.parametrize("check", [True, False])
@pytest.mark.parametrize("hands", BAD_BATCHES, ids=lambda h: repr(h)[:40])
def test_batch_outcomes_are_the_same(hands: object, check: bool, both: tuple[Tables, Tables]) -> None:
    c, ref = both
    for threads in (1, 2):
        got = outcome(lambda: tp.evaluate_batch(hands, tables=c, check=check, threads=threads))  # type: ignore[arg-type]  # noqa: B023
        want = outcome(lambda: tp.evaluate_batch(hands, tables=ref, check=check, threads=threads))  # type: ignore[arg-type]  # noqa: B023
        assert got == want


@needs_core
def test_unchecked_cards_far_out_of_range_never_read_past_the_tables(both: tuple[Tables, Tables]) -> None:
    c, _ = both
    rows = np.array([[0, 1, 2, 3, 255]], dtype=np.uint8)
    out = np.zeros(1, dtype=np.uint16)
    # The walker refuses the row (index 0) instead of reading entry 255 of a 52-wide row.
    assert walker_of(c).walk_rows(rows, out, False) == 0


# ------------------------------------------------------------ choosing


def test_backend_reports_what_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_VAR, "numpy")
    assert tp.backend() == "numpy"
    monkeypatch.setenv(ENV_VAR, "")
    assert tp.backend() == ("numpy" if _core is None else "c")
    monkeypatch.setenv(ENV_VAR, "fortran")
    with pytest.raises(ValueError, match="must be 'c', 'numpy' or unset"):
        tp.backend()


@needs_core
def test_info_names_the_backend() -> None:
    for choice in ("c", "numpy"):
        r = subprocess.run(
            [sys.executable, "-m", "twoplustwo", "info"],
            capture_output=True,
            text=True,
            env={**os.environ, ENV_VAR: choice},
            timeout=60,
        )
        assert r.returncode == 0, r.stderr
        assert f"backend         {choice} " in r.stdout


# ---------------------------------------------------------- the C source


def _compile(tmp: Path, *flags: str) -> Path:
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler on PATH")
    out = tmp / ("_core" + (sysconfig.get_config_var("EXT_SUFFIX") or ".so"))
    cmd = [
        cc, "-shared", "-fPIC", "-std=c99", "-O2", "-Wall", "-Wextra", "-Werror", *flags,
        f"-I{sysconfig.get_paths()['include']}", *map(str, sorted(SOURCES.glob("*.c"))), "-o", str(out),
    ]  # fmt: skip
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, f"{' '.join(cmd)}\n{r.stderr}"
    return out


def test_the_core_compiles_without_warnings(tmp_path: Path) -> None:
    _compile(tmp_path)


@needs_core
def test_the_core_splits_pots_in_the_units_of_the_python_side() -> None:
    from twoplustwo.kernels.pots import POT_UNITS

    assert _core.POT_UNITS == POT_UNITS == 2520


@pytest.fixture
def sanitized_core(tmp_path: Path) -> Iterator[Path]:
    """A copy of the package whose _core is built with ASan and UBSan."""
    pkg = tmp_path / "pkg"
    shutil.copytree(ROOT / "twoplustwo", pkg / "twoplustwo", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    # At -O0 (the last -O counts) the sanitizers check every load, store and
    # operation as written, where optimizing may drop some, and the build
    # takes 2.5 s instead of 10; the warnings at -O2 are the test above's.
    try:
        _compile(
            pkg / "twoplustwo" / "kernels", "-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-g", "-O0"
        )
    except AssertionError as e:
        if "sanitize" in str(e) and ("cannot find" in str(e) or "unrecognized" in str(e)):
            pytest.skip(f"the compiler cannot build with sanitizers: {e}")
        raise
    yield pkg


@pytest.mark.slow
def test_the_core_under_address_and_undefined_sanitizers(sanitized_core: Path) -> None:
    cc = shutil.which("gcc") or shutil.which("cc")
    asan = subprocess.run([cc or "cc", "-print-file-name=libasan.so"], capture_output=True, text=True).stdout.strip()
    if not asan or not Path(asan).exists():
        pytest.skip("libasan.so not found to preload into Python")
    env = {
        **os.environ,
        "PYTHONPATH": str(sanitized_core),
        "LD_PRELOAD": asan,
        "ASAN_OPTIONS": "detect_leaks=0",
        ENV_VAR: "c",
        "TWOPLUSTWO_TABLES": str(load_tables().path),
    }
    code = """
import numpy as np, twoplustwo as tp
from twoplustwo.kernels import _core
assert _core.__file__.startswith(PKG), _core.__file__
rng = np.random.default_rng(5)
for n in (5, 6, 7):
    h = np.argsort(rng.random((100_000, 52)), axis=1)[:, :n].astype(np.uint8)
    c = tp.evaluate_batch(h, threads=2)
    for row, v in zip(h[:2000].tolist(), c[:2000].tolist()):
        assert tp.evaluate(row) == v
    bad = h.copy(); bad[-1, 0] = 200
    try:
        tp.evaluate_batch(bad, check=False)  # the numpy path's IndexError, never a read past the tables
    except IndexError:
        pass
for hand in ([0, 1, 2, 3], [0, 1, 2, 3, 3], [0, 1, 2, 3, 2**70], "As Ks Qs Js Ts"):
    try:
        tp.evaluate(hand)
    except ValueError:
        pass
# Range equity's kernels (block values with held cards, deal scoring) and
# the game entry point with its small tables.
a, b, _ = tp.equity(["QQ+,AKs", "AK", "22"], board="Qh 7c", threads=2)
assert a.games == b.games > 0
sd = (np.argsort(rng.random((3000, 36)), axis=1)[:, :7] + 16).astype(np.uint8)
want = tp.evaluate_batch(sd, game="short-deck").tolist()
assert [tp.evaluate(h, game="short-deck") for h in sd.tolist()] == want
# Single hands on the keyed tables too (in hold'em the batches above built them; here, at once).
from twoplustwo.kernels.games import resolve
resolve("short-deck").walker.keyed_tables()
assert [tp.evaluate(h, game="short-deck") for h in sd.tolist()] == want
assert [tp.evaluate(tp.format_cards(h), game="short-deck") for h in sd[:500].tolist()] == want[:500]
# Omaha's high and low rows, every hole and board size.
d = np.argsort(rng.random((3000, 52)), axis=1)[:, :11].astype(np.uint8)
for nh, nb in ((4, 5), (5, 4), (6, 3)):
    assert tp.evaluate_omaha_batch(d[:, :nh], d[:, nh:nh + nb]).all()
    tp.evaluate_omaha_low_batch(d[:, :nh], d[:, nh:nh + nb])
assert tp.equity(["As Kh Qs 2d", "Ah Ks 5c 4c"], board="2h 3d 4d", game="omaha-hilo")[0].games == 820
# Every batch loop this processor has, on rows that end where a block of 8 and of 16 ends, good and with a
# bad row in the last block.
w = resolve("holdem").walker
for n in (5, 6, 7):
    h = np.argsort(rng.random((1008, 52)), axis=1)[:, :n].astype(np.uint8)
    want = np.empty(len(h), dtype=np.uint16)
    assert w.walk_rows(h, want, False) == -1
    for i, loop in enumerate(("scalar", "avx2", "avx512")):
        if loop in _core.BATCH_LOOPS:
            out = np.zeros(len(h), dtype=np.uint16)
            assert w.keyed_rows(h, out, i) == -1 and (out == want).all(), loop
            bad = h.copy(); bad[-2, 0] = 52
            assert w.keyed_rows(bad, out, i) == len(h) - 2, loop
print("ok")
""".replace("PKG", repr(str(sanitized_core)))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=sanitized_core,
                       timeout=300)  # fmt: skip
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-4000:]


@needs_core
def test_walks_from_a_node_refuse_nodes_outside_the_layer(both: tuple[Tables, Tables]) -> None:
    c, _ = both
    rows = np.array([[0, 1]], dtype=np.uint8)
    out = np.zeros(1, dtype=np.uint16)
    nodes5 = c.nodes["dag7"][5]
    for start in (-1, nodes5, 2**40):
        with pytest.raises((ValueError, OverflowError)):
            walker_of(c).walk_rows(rows, out, True, 5, start, 0)
    assert walker_of(c).walk_rows(rows, out, True, 5, nodes5 - 1, 0) == -1
    # A row holding a card the walk already took is refused when checking.
    assert walker_of(c).walk_rows(rows, out, True, 5, 0, 1 << 1) == 0


@needs_core
def test_prefix_batches_agree_across_backends(both: tuple[Tables, Tables]) -> None:
    c, ref = both
    rng = np.random.default_rng(37)
    for m in range(0, 7):
        board = rng.choice(52, size=m, replace=False).tolist()
        for k in range(max(1, 5 - m), 8 - m):
            rows = np.array([rng.choice(52, size=k, replace=False) for _ in range(500)])
            got = outcome(lambda: tp.prefix(board, tables=c).evaluate_batch(rows))  # noqa: B023
            want = outcome(lambda: tp.prefix(board, tables=ref).evaluate_batch(rows))  # noqa: B023
            assert got == want, (board, k)


@needs_core
def test_card_text_gives_the_same_outcome_on_both_backends(both: tuple[Tables, Tables]) -> None:
    # The C path reads the common ASCII forms itself and hands everything
    # else to the Python parser: over many written forms and mutations of
    # them, values and error messages must be those of the numpy path.
    c, ref = both
    rng = np.random.default_rng(41)
    alphabet = list(" ,\t10xAaKkQqJjTt9sShHdDcC\x1c\u2660\ufe0f") + ["10", ",,", "  "]
    for _ in range(6000):
        n = int(rng.integers(3, 9))
        cards = [tp.format_card(int(x)) for x in rng.choice(52, size=n, replace=False)]
        cards = [cd.lower() if rng.random() < 0.3 else cd for cd in cards]
        cards = [("10" + cd[1]) if cd[0] == "T" and rng.random() < 0.5 else cd for cd in cards]
        sep = str(rng.choice(["", " ", ", ", ",", "  ", "\t"]))
        text = sep.join(cards)
        if rng.random() < 0.4:  # a mutation somewhere
            i = int(rng.integers(0, len(text) + 1))
            text = text[:i] + str(rng.choice(alphabet)) + text[i + int(rng.integers(0, 2)) :]
        want = outcome(lambda: tp.evaluate(text, tables=ref))  # noqa: B023
        assert outcome(lambda: tp.evaluate(text, tables=c)) == want, repr(text)  # noqa: B023
        assert outcome(lambda: tp.evaluate(text)) == want, repr(text)  # noqa: B023


@needs_core
def test_equity_agrees_across_backends(both: tuple[Tables, Tables]) -> None:
    c, ref = both
    rng = np.random.default_rng(43)
    for case in range(40):
        players = int(rng.integers(2, 5))
        board_size = int(rng.choice([0, 3, 4, 5])) if case % 4 else 0
        cards = rng.choice(52, size=2 * players + board_size + 2, replace=False).tolist()
        hands = [cards[2 * i : 2 * i + 2] for i in range(players)]
        board = cards[2 * players : 2 * players + board_size]
        dead = cards[-2:] if case % 3 == 0 else []
        got = tp.equity(hands, board=board, dead=dead, tables=c, threads=2)
        want = tp.equity(hands, board=board, dead=dead, tables=ref, threads=1)
        assert got == want, (hands, board, dead)
    with pytest.raises(ValueError, match="node is not a node of that depth"):
        walker_of(c).draw_values(10**6, 2, np.arange(48, dtype=np.uint8), np.empty(1712304, dtype=np.uint16))
    with pytest.raises(ValueError, match="one entry per draw"):
        walker_of(c).draw_values(0, 2, np.arange(48, dtype=np.uint8), np.empty(5, dtype=np.uint16))
    with pytest.raises(ValueError, match="sorted, distinct"):
        walker_of(c).draw_values(0, 6, np.array([3, 2], dtype=np.uint8), np.empty(2, dtype=np.uint16))


def _bad_copies(good: np.ndarray, row: int, cards: tuple[int, ...]) -> Iterator[np.ndarray]:
    """Copies of ``good`` whose ``row`` holds a duplicate at each pair of positions, or one of ``cards`` at each."""
    k = good.shape[1]
    for a in range(k):
        for b in range(a + 1, k):
            h = good.copy()
            h[row, b] = h[row, a]
            yield h
        for card in cards:
            h = good.copy()
            h[row, a] = card
            yield h


@needs_core
@pytest.mark.parametrize("k", [5, 6, 7])
def test_every_bad_card_position_is_caught_on_both_backends(both: tuple[Tables, Tables], k: int) -> None:
    # The C check finds duplicates by comparing the sum of a row's card bits
    # with their union, so try a duplicate at every pair of positions, and a
    # card past 51 at every position, in a row past the first block of rows.
    c, ref = both
    rng = np.random.default_rng(k)
    good = np.array([rng.choice(52, size=k, replace=False) for _ in range(300)], dtype=np.uint8)
    row = 200
    for h in _bad_copies(good, row, (52, 63, 64, 116, 255)):
        got = outcome(lambda: tp.evaluate_batch(h, tables=c))  # noqa: B023
        assert got == outcome(lambda: tp.evaluate_batch(h, tables=ref)), h[row]  # noqa: B023
        assert got[0] == "ValueError" and f"hand {row}" in got[1], got
        # Unchecked, a duplicate walks to some value and a card past 51 gets the numpy path's own outcome.
        unchecked = outcome(lambda: tp.evaluate_batch(h, tables=c, check=False))  # noqa: B023
        assert unchecked == outcome(lambda: tp.evaluate_batch(h, tables=ref, check=False)), h[row]  # noqa: B023


def _cpu_flags() -> set[str]:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    return set()


@needs_core
def test_every_loop_the_processor_has_is_there() -> None:
    # Else the tests of every loop would test fewer loops than the processor runs.
    flags = _cpu_flags()
    if not flags:
        pytest.skip("no /proc/cpuinfo to read the processor's features from")
    want = ("scalar",) + ("avx2",) * ("avx2" in flags)
    want += ("avx512",) * ({"avx512f", "avx512bw", "avx512vbmi", "avx512_bitalg"} <= flags)
    assert _core.BATCH_LOOPS == want
    assert _core.VECTOR_BATCHES == (os.environ.get(LOOP_VAR) or want[-1])


@needs_core
@pytest.mark.parametrize("k", [5, 6, 7])
def test_every_keyed_loop_finds_the_first_bad_row(both: tuple[Tables, Tables], k: int) -> None:
    # A vector loop hands a block (8 or 16 rows) with a bad row to the scalar
    # loop: a bad row at each place of the blocks and of the rows after
    # them, a duplicate at every pair of positions or a byte past 51 at
    # every position, gives the same first bad row and the same values
    # before it, by every loop.
    c, _ = both
    rng = np.random.default_rng(100 + k)
    good = np.argsort(rng.random((40, 52)), axis=1)[:, :k].astype(np.uint8)
    want = np.empty(len(good), dtype=np.uint16)
    assert walker_of(c).walk_rows(good, want, False) == -1
    for row in range(len(good)):
        for h in _bad_copies(good, row, (52, 63, 64, 255)):
            for loop in _core.BATCH_LOOPS:
                out = np.zeros(len(h), dtype=np.uint16)
                assert walker_of(c).keyed_rows(h, out, LOOPS.index(loop)) == row, (h[row], loop)
                assert_same(out[:row], want[:row])
    with pytest.raises(ValueError, match="not one this processor has"):
        walker_of(c).keyed_rows(good, want, len(LOOPS))


_LOOP_CHILD = """
import numpy as np, twoplustwo as tp
from twoplustwo.kernels import _core
from twoplustwo.kernels.games import walker_of
print(_core.VECTOR_BATCHES)
rng = np.random.default_rng(9)
for k in (5, 6, 7):
    h = np.argsort(rng.random((5000, 52)), axis=1)[:, :k].astype(np.uint8)
    want = np.empty(len(h), dtype=np.uint16)
    assert walker_of(tp.load_tables()).walk_rows(h, want, False) == -1  # the DAG walk
    assert np.array_equal(tp.evaluate_batch(h, threads=2), want), k
    h[4321, 1] = h[4321, 3]
    try:
        tp.evaluate_batch(h)
    except ValueError as e:
        print(e)
"""


@needs_core
def test_the_batch_loop_is_the_variables_choice() -> None:
    # Each loop the processor has, chosen by $TWOPLUSTWO_BATCH_LOOP in a child
    # Python, runs the public batches: the DAG's values, the errors of the
    # scalar loop. A word it does not know, or a loop the processor lacks,
    # stops the import with a message naming the variable, the value and the choices.
    def child(word: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, LOOP_VAR: word, ENV_VAR: "c", "TWOPLUSTWO_TABLES": str(load_tables().path)}
        return subprocess.run([sys.executable, "-c", _LOOP_CHILD], capture_output=True, text=True, env=env,
                              timeout=120)  # fmt: skip

    outputs = {}
    for word in LOOPS:
        r = child(word)
        if word in _core.BATCH_LOOPS:
            assert r.returncode == 0, r.stderr[-2000:]
            outputs[word] = r.stdout.splitlines()
            assert outputs[word][0] == word
        else:
            assert r.returncode != 0 and f"ValueError: ${LOOP_VAR}={word}, but this processor lacks" in r.stderr
            assert "the loops it has: " + ", ".join(map(repr, _core.BATCH_LOOPS)) in r.stderr
    errors = outputs["scalar"][1:]
    assert len(errors) == 3 and all("hand 4321" in e for e in errors), errors
    assert all(lines[1:] == errors for lines in outputs.values()), outputs
    for word in ("fast", "AVX2", " scalar"):
        r = child(word)
        assert r.returncode != 0, word
        assert f"ValueError: ${LOOP_VAR} must be 'scalar', 'avx2', 'avx512' or unset" in r.stderr, r.stderr
        assert f"got '{word}'" in r.stderr


@needs_core
def test_omaha_lows_agree_across_backends(monkeypatch: pytest.MonkeyPatch) -> None:
    # Lows need no tables, so the backend is the environment's choice.
    rng = np.random.default_rng(41)
    cases = []
    for nh in (4, 5, 6):
        for nb in (3, 4, 5):
            deals = np.array([rng.permutation(52)[: nh + nb] for _ in range(2_000)], dtype=np.uint8)
            cases.append((deals[:, :nh], deals[:, nh:]))
    holes, boards = cases[0]
    board = [0, 5, 10]  # one board for every row
    cases.append((holes[~np.isin(holes, board).any(axis=1)], board))
    for bad_hole, bad_board in (((0, 0), None), ((1, None), 52), ((2, None), "board")):
        h, b = holes.copy().astype(np.int64), boards.copy().astype(np.int64)
        row, col = bad_hole
        if col is not None:
            h[row, 1] = h[row, col]  # a card twice in the hole
        elif bad_board == 52:
            b[row, 0] = 52
        else:
            b[row, 2] = h[row, 3]  # a card in the hole and on the board
        cases.append((h, b))

    def lows() -> list[tuple[str, str]]:
        return [outcome(lambda: tp.evaluate_omaha_low_batch(h, b)) for h, b in cases]  # noqa: B023

    monkeypatch.setenv(ENV_VAR, "c")
    got = lows()
    monkeypatch.setenv(ENV_VAR, "numpy")
    assert got == lows()
    assert [o[0] for o in got] == ["ok"] * 10 + ["ValueError"] * 3, got
    assert all(o[1].startswith("row ") for o in got[10:]), got


# ------------------------------------------- caller memory changing under a walk


def _race(cells: np.ndarray, at: tuple[int, int], bad: int, call: Callable[[], Any], want: np.ndarray) -> None:
    """Call ``call`` over and over while another thread writes ``bad`` and the card back into ``cells[at]``.

    The C kernels work with the GIL released, and so does numpy's copy that
    writes the cell (tests/racing.py), so the writes land in the middle of
    the kernels' checks and walks. Every call must raise ValueError (it saw
    the bad card) or return ``want`` (it saw the card): a kernel that checks
    a card and then reads it again to walk it walks an unchecked bad card
    now and then.
    """
    returned, errors = race(cells, at, bad, call, [want], least=100)
    assert errors and returned, (errors, returned)  # else no write ever landed inside a call


@needs_core
@pytest.mark.parametrize("backend", ["c", "numpy"])
def test_a_card_changed_during_a_checked_batch_is_never_walked_unchecked(
    both: tuple[Tables, Tables], backend: str
) -> None:
    # One block of rows (the C walk's 256): no later block's check can see
    # the bad card and turn a wrong value into an error.
    t = both[0] if backend == "c" else both[1]
    rng = np.random.default_rng(53)
    h = np.argsort(rng.random((256, 52)), axis=1)[:, :7].astype(np.uint8)
    want = tp.evaluate_batch(h, tables=t, threads=1)
    _race(h, (200, 6), 255, lambda: tp.evaluate_batch(h, tables=t, threads=1), want)


@needs_core
def test_a_card_changed_during_a_prefix_batch_is_never_walked_unchecked(both: tuple[Tables, Tables]) -> None:
    c, _ = both
    rng = np.random.default_rng(59)
    board = tp.prefix([0, 13], tables=c)
    h = np.argsort(rng.random((256, 50)), axis=1)[:, :5].astype(np.uint8) + 1
    h[h >= 13] += 1  # the 50 cards but the prefix's
    want = board.evaluate_batch(h, threads=1)
    _race(h, (200, 4), 255, lambda: board.evaluate_batch(h, threads=1), want)


@needs_core
@pytest.mark.parametrize("low", [False, True])
def test_a_card_changed_during_omaha_rows_is_never_walked_unchecked(both: tuple[Tables, Tables], low: bool) -> None:
    # The kernels themselves: a row they find bad is an index, else -1.
    # The flip puts a hole card on the last row's board, where it would make
    # a royal flush, or a wheel where the row has no low; the board's last
    # three cards are the last triple walked, so the card is read again at
    # the end of the row. (No row follows whose check could see the bad card.)
    c, _ = both
    rng = np.random.default_rng(61)
    deals = np.argsort(rng.random((16, 52)), axis=1)[:, :11].astype(np.uint8)
    holes, boards = np.ascontiguousarray(deals[:, :6]), np.ascontiguousarray(deals[:, 6:])
    if low:
        hole, board, bad = "Ac 2c 5d Kh Kd Qc", "Js Tc 3d 4h 9d", "Ac"
    else:
        hole, board, bad = "As Ks Ts 2d 3c 4c", "9c 8d Qs Js 4h", "Ts"
    holes[15], boards[15] = tp.parse_cards(hole), tp.parse_cards(board)
    kernel = _core.omaha_low_rows if low else walker_of(c).omaha_rows
    out = np.empty(len(holes), dtype=np.uint8 if low else np.uint16)

    def call() -> np.ndarray:
        if kernel(holes, boards, out) >= 0:
            raise ValueError("a bad row")
        return out.copy()

    want = call()
    _race(boards, (15, 4), tp.parse_cards(bad)[0], call, want)


@needs_core
def test_small_rows_refuse_a_card_past_51_in_any_column(both: tuple[Tables, Tables]) -> None:
    # The tests' window on the single-hand tables: a card past 51 would count past the 13 ranks.
    c, _ = both
    out = np.zeros(1, dtype=np.uint16)
    for col in range(5):
        row = np.array([[0, 1, 2, 3, 4]], dtype=np.uint8)
        row[0, col] = 255
        with pytest.raises(ValueError, match="cards 0..51"):
            walker_of(c).small_rows(row, out)


@needs_core
@pytest.mark.parametrize("backend", ["c", "numpy"])
def test_a_card_changed_during_an_omaha_batch_is_an_error_or_the_right_value(
    both: tuple[Tables, Tables], backend: str
) -> None:
    # Through the public call: its own checks and its error message must
    # read the cards the kernel walked, not the caller's changing array.
    t = both[0] if backend == "c" else both[1]
    rng = np.random.default_rng(67)
    deals = np.argsort(rng.random((16, 52)), axis=1)[:, :9].astype(np.uint8)
    holes, boards = np.ascontiguousarray(deals[:, :4]), np.ascontiguousarray(deals[:, 4:])
    want = tp.evaluate_omaha_batch(holes, boards, tables=t, threads=1)
    _race(boards, (15, 4), 255, lambda: tp.evaluate_omaha_batch(holes, boards, tables=t, threads=1), want)


@needs_core
def test_only_holdems_walker_reads_keyed_tables(both: tuple[Tables, Tables]) -> None:
    # The keys count ranks of the full deck; another game's walker walks its DAG.
    from twoplustwo.kernels.games import resolve

    c, _ = both
    assert resolve("short-deck", c).walker.keyed_tables() is False
    assert walker_of(c).keyed_tables() is True
