"""Sampled hold'em games played whole: the C core's ``sample_games`` against its numpy twin, the generator
against its definition, the deals against uniformity, and Monte Carlo equity against exact equity.

The C walker and the numpy reference must give the very same tallies for
the same key (that is what makes a seed mean the same on both backends);
the generator must be exactly what :mod:`twoplustwo.kernels.numpy.sample`
documents, and exactly uniform; and equity sampled this way must agree
with enumeration.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import permutations, product
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import twoplustwo as tp
from twoplustwo.kernels.choice import ENV_VAR, extension
from twoplustwo.kernels.games import resolve, walker_of
from twoplustwo.kernels.numpy import sample as sampling
from twoplustwo.kernels.pots import POT_UNITS
from twoplustwo.odds.montecarlo import BATCH
from twoplustwo.odds.players import check_players
from twoplustwo.odds.sampler import Sampler, Seat
from twoplustwo.tables.default import get_tables, load_tables
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.cards import parse_cards
from twoplustwo.vocab.combos import COMBOS
from twoplustwo.vocab.draws import RANDOM
from twoplustwo.vocab.ranges import parse_range

ROOT = Path(__file__).resolve().parents[2]
R = RANDOM
MASK = (1 << 64) - 1


@pytest.fixture
def walkers(both: tuple[Tables, Tables]) -> tuple[Any, Any]:
    c, ref = both
    return walker_of(c), walker_of(ref)


def play(w: Any, hands: list[list[int]], board: list[int], dead: list[int], key: int, n: int) -> tuple[Any, ...]:
    """What ``sample_games`` returns and the tallies it adds to fresh zeros."""
    h = np.array(hands, dtype=np.uint8)
    randoms = sum(row == [R, R] for row in hands)
    counts = np.zeros((len(hands), 5), dtype=np.int64)
    combos = np.zeros((randoms, 2, 1326), dtype=np.int64)
    ok = w.sample_games(h, np.array(board, dtype=np.uint8), np.array(dead, dtype=np.uint8), key, n, counts, combos)
    return ok, counts, combos


def deal_case(seed: int) -> tuple[list[list[int]], list[int], list[int]]:
    """2 to 9 players, some fixed and some random, a board of 0, 3, 4 or 5 cards, 0 to 2 dead cards."""
    rng = np.random.default_rng(seed)
    players = 2 + seed % 8
    deck = rng.permutation(52).tolist()
    hands = []
    for p in range(players):
        fixed = rng.random() < 0.4 or (p == 0 and seed % 3 == 0)
        hands.append(sorted(deck[2 * p : 2 * p + 2]) if fixed else [R, R])
    taken = 2 * players
    known = deck[taken : taken + [0, 3, 4, 5][seed % 4]]
    dead = deck[taken + 5 : taken + 5 + seed % 3]
    return hands, known, dead


# ------------------------------------------------------------ C against numpy


@pytest.mark.parametrize("case", range(16))
def test_c_and_numpy_tally_the_same_games(walkers: tuple[Any, Any], case: int) -> None:
    c, ref = walkers
    hands, board, dead = deal_case(case)
    for key in (case, 0x0123456789ABCDEF + case, MASK - case):
        got, want = play(c, hands, board, dead, key, 3001), play(ref, hands, board, dead, key, 3001)
        assert got[0] is True and want[0] is True
        assert np.array_equal(got[1], want[1]) and np.array_equal(got[2], want[2]), (hands, board, dead, key)
        counts, combos = got[1], got[2]
        assert np.all(counts[:, 4] == 3001)
        assert np.all(counts[:, 0] + counts[:, 1] <= 3001)
        assert counts[:, 2].sum() == 3001 * POT_UNITS  # each pot shared out whole
        for per in combos:  # every game counted once per random player, on combos of distinct live cards
            assert per[0].sum() == 3001
            used = np.flatnonzero(per[0])
            assert not np.isin(COMBOS[used], [*board, *dead, *[x for h in hands for x in h if x != R]]).any()


def test_pots_add_up(walkers: tuple[Any, Any]) -> None:
    c, _ = walkers
    _, counts, combos = play(c, [[51, 50], [R, R], [R, R], [47, 43]], parse_cards("2c 7d 9h"), [], 5, 20_000)
    assert counts[:, 2].sum() == 20_000 * POT_UNITS  # each pot shared out whole
    assert np.array_equal(combos[:, 1].sum(axis=1), counts[[1, 2], 2])  # the random players' units, per combo
    # A game's share is 0 or POT_UNITS / k for k winners: its square is between share * POT_UNITS / 4 and
    # share * POT_UNITS.
    assert np.all(counts[:, 3] <= counts[:, 2] * POT_UNITS) and np.all(counts[:, 3] * 4 >= counts[:, 2] * POT_UNITS)
    # Wins take the whole pot: units at least POT_UNITS per win, and under POT_UNITS per win or tie.
    assert np.all(counts[:, 2] >= counts[:, 0] * POT_UNITS) and np.all(
        counts[:, 2] < (counts[:, 0] + counts[:, 1] + 1) * POT_UNITS
    )


def test_rejected_groups_are_dealt_again_alike(walkers: tuple[Any, Any]) -> None:
    # Nine random players: 23 draws in groups near GROUP_LIMIT, rejected
    # about once in 40,000 games. Find keys whose batch has rejections and
    # hold both backends to each other there.
    c, ref = walkers
    hands = [[R, R]] * 9
    bounds = [52 - t for t in range(23)]
    n = 20_000
    keys = [k for k in range(200) if len(sampling.positions(k, n, bounds)[1])][:2]
    assert keys, "no key among 200 had a rejection: the test would prove nothing"
    for key in keys:
        got, want = play(c, hands, [], [], key, n), play(ref, hands, [], [], key, n)
        assert np.array_equal(got[1], want[1]) and np.array_equal(got[2], want[2])


def test_zero_games_and_other_games(walkers: tuple[Any, Any], both: tuple[Tables, Tables]) -> None:
    for w in walkers:
        ok, counts, combos = play(w, [[51, 50], [R, R]], [], [], 1, 0)
        assert ok is True and not counts.any() and not combos.any()
    # Another game's walker has no hold'em values: "not mine", nothing added, on both backends.
    for t in both:
        ok, counts, _ = play(resolve("short-deck", t).walker, [[51, 50], [R, R]], [], [], 1, 100)
        assert ok is False and not counts.any()


def test_tables_the_keyed_tables_cannot_serve_walk_the_dag(monkeypatch: pytest.MonkeyPatch) -> None:
    # The conformance fixtures' tiny set holds values that rank no poker
    # hands: C cannot build keyed tables for it, values each hand down
    # dag7 instead, and must still give the reference's tallies.
    if extension() is None:
        pytest.skip("twoplustwo.kernels._core was not built (no C compiler at install)")
    base = load_tables(ROOT / "spec" / "conformance" / "cases" / "valid")

    def walker(backend: str) -> Any:
        monkeypatch.setenv(ENV_VAR, backend)
        w = walker_of(Tables(base.path, base.manifest, base.buffers))
        monkeypatch.delenv(ENV_VAR)
        return w

    c, ref = walker("c"), walker("numpy")
    assert c.keyed_tables() is False
    hands, board, dead = [[51, 50], [R, R], [3, 7]], parse_cards("2c 7d 9h"), parse_cards("Ks")
    got, want = play(c, hands, board, dead, 31, 2000), play(ref, hands, board, dead, 31, 2000)
    assert got[0] is True and np.array_equal(got[1], want[1]) and np.array_equal(got[2], want[2])


def test_tallies_are_added(walkers: tuple[Any, Any]) -> None:
    c, _ = walkers
    h = np.array([[51, 50], [R, R]], dtype=np.uint8)
    none = np.zeros(0, dtype=np.uint8)
    counts, combos = np.zeros((2, 5), dtype=np.int64), np.zeros((1, 2, 1326), dtype=np.int64)
    c.sample_games(h, none, none, 9, 500, counts, combos)
    once = counts.copy(), combos.copy()
    c.sample_games(h, none, none, 9, 500, counts, combos)
    assert np.array_equal(counts, 2 * once[0]) and np.array_equal(combos, 2 * once[1])


# ------------------------------------------------------------ the generator


def spec_positions(key: int, g: int, bounds: list[int]) -> list[int]:
    """Game g's positions as the module docstring defines them, written out afresh, one int at a time."""

    def mix(z: int) -> int:
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    out: list[int] = []
    j, t = 0, 0
    while t < len(bounds):
        size, end = 1, t
        while end < len(bounds) and size * bounds[end] <= 1 << 48:
            size *= bounds[end]
            end += 1
        while True:
            word = mix((key + (j * 2**32 + g) * 0x9E3779B97F4A7C15) & MASK)
            j += 1
            # word * S = P * 2**64 + rest: accept unless rest < 2**64 mod S; P's digits are the positions.
            whole, rest = divmod(word * size, 1 << 64)
            if rest >= (1 << 64) % size:
                break
        digits = []
        for s in reversed(bounds[t:end]):
            whole, d = divmod(whole, s)
            digits.append(d)
        out += digits[::-1]
        t = end
    return out


@pytest.mark.parametrize("bounds", [[48, 47, 46, 45, 44, 43, 42], [45, 44], [52 - t for t in range(23)], [7]])
def test_positions_follow_the_definition(bounds: list[int]) -> None:
    n = 4000
    for key in (0, 77, MASK):
        got, redone = sampling.positions(key, n, bounds)
        games = [*range(0, n, 97), *redone.tolist()]
        assert [got[g].tolist() for g in games] == [spec_positions(key, g, bounds) for g in games]
    # The rejection path is exercised: 23 draws from 52 reject often enough to find one.
    if len(bounds) == 23:
        assert any(len(sampling.positions(k, 20_000, bounds)[1]) for k in range(200))


@pytest.mark.parametrize("bounds", [[7], [3, 2], [13, 12, 11], [52, 51, 50]])
def test_every_tuple_of_positions_has_as_many_accepted_words(bounds: list[int]) -> None:
    # Over all 2**64 words of a group, counted exactly: the words whose
    # product with S falls in P's slice [P * 2**64, (P + 1) * 2**64) are an
    # interval, their remainders step by S from the first one's, and only a
    # remainder under the threshold (< S) is rejected: at most the first.
    ((first, end, threshold),) = sampling.groups(bounds)
    size = math.prod(bounds)
    assert (first, end, threshold) == (0, len(bounds), (1 << 64) % size)
    want = (1 << 64) // size
    for p in range(size):
        lo, hi = -(-(p << 64) // size), -(-((p + 1) << 64) // size)  # words whose slice is P's
        accepted = hi - lo - ((lo * size - (p << 64)) < threshold)
        assert accepted == want, (bounds, p)


def test_the_shuffle_deals_every_ordered_draw_once() -> None:
    # Every tuple of positions deals a different ordered draw, so uniform
    # positions make uniform deals.
    deck = [3, 8, 20, 33, 51]
    tuples = np.array(list(product(range(5), range(4), range(3))), dtype=np.intp)
    dealt = sampling.shuffle(deck, tuples)
    assert sorted(map(tuple, dealt.tolist())) == sorted(permutations(deck, 3))


def test_dealt_combos_are_uniform(walkers: tuple[Any, Any]) -> None:
    # A random hand against a fixed one: each of the 1,225 combos of the 50
    # cards left is dealt n / 1225 times on average. Bernstein's inequality
    # bounds every count together with odds of failing under 1e-9 for a
    # uniform deal; a deal that favoured some cards by a few percent fails.
    c, _ = walkers
    n = 1 << 22
    _, _, combos = play(c, [[51, 50], [R, R]], [], [], 2024, n)
    games = combos[0, 0]
    live = ~np.isin(COMBOS, [50, 51]).any(axis=1)
    assert not games[~live].any() and games.sum() == n
    p = 1 / 1225
    mean, var = n * p, n * p * (1 - p)
    log_odds = math.log(2 * 1225 / 1e-9)
    bound = math.sqrt(2 * var * log_odds) + 2 / 3 * log_odds
    assert np.abs(games[live] - mean).max() <= bound
    # Per card, the same with 49 combos each: a tighter check on card removal.
    per_card = np.bincount(COMBOS[live].ravel(), weights=np.repeat(games[live], 2), minlength=52)[:50]
    p = 49 / 1225
    mean, var = n * p, n * p * (1 - p)
    log_odds = math.log(2 * 50 / 1e-9)
    assert np.abs(per_card - mean).max() <= math.sqrt(2 * var * log_odds) + 2 / 3 * log_odds


# ------------------------------------------------------------ equity


def exact_and_sampled(players: list[str], board: str = "", dead: str = "", samples: int = 400_000) -> None:
    exact = tp.equity(players, board, dead, method="exact")
    sampled = tp.equity(players, board, dead, method="monte-carlo", samples=samples, seed=17)
    for e, s in zip(exact, sampled):
        assert s.games == samples
        assert abs(s.equity - e.equity) <= 5 * s.stderr, (players, board, e.equity, s.equity, s.stderr)
        if e.combo_games is not None:
            assert s.combo_games is not None and s.combo_games.sum() == samples


@pytest.mark.parametrize(
    ("players", "board", "dead"),
    [
        (["As Ah", "random"], "Kd 7c 2h", ""),
        (["Ks Qs", "random", "random"], "Js Ts 2c 3d", "4h"),
        (["random", "8c 8d", "random"], "Ah 9s 4d 3c 2s", ""),
        (["7h 6h", "Ac Kd", "Qs Qd"], "", "2c 2d"),
        (["5c 4c", "random"], "Th 9c 3c", "As Kh"),
    ],
)
def test_sampled_equity_matches_exact(players: list[str], board: str, dead: str) -> None:
    exact_and_sampled(players, board, dead)


def test_threads_and_backends_give_the_same_result(both: tuple[Tables, Tables]) -> None:
    c, ref = both
    players = ["As Ah", "random", "random"]
    kw: dict[str, Any] = {"method": "monte-carlo", "samples": 3 * BATCH + 5, "seed": 42}
    one = tp.equity(players, **kw, threads=1, tables=c)
    for other in (tp.equity(players, **kw, threads=2, tables=c), tp.equity(players, **kw, threads=1, tables=ref)):
        for a, b in zip(one, other):
            assert (a.wins, a.ties, a.games, a.equity, a.stderr) == (b.wins, b.ties, b.games, b.equity, b.stderr)
            assert (a.combo_games is None) == (b.combo_games is None)
            if a.combo_games is not None:
                assert np.array_equal(a.combo_games, b.combo_games)
                assert np.array_equal(a.combo_equity, b.combo_equity, equal_nan=True)
    again = tp.equity(players, **{**kw, "seed": 43}, tables=c)
    assert any(a.wins != b.wins for a, b in zip(one, again))
    # Stopped at a standard error: the rounds, and so the games, do not depend on threads either.
    target: dict[str, Any] = {"method": "monte-carlo", "stderr": 0.002, "seed": 5, "tables": c}
    first, second = tp.equity(players, **target, threads=1), tp.equity(players, **target, threads=2)
    assert [(a.games, a.wins, a.ties) for a in first] == [(b.games, b.wins, b.ties) for b in second]
    assert first[0].games > 2 * BATCH and max(r.stderr for r in first) <= 0.002


def test_the_whole_game_path_serves_only_hands_and_random_players() -> None:
    t = get_tables()

    def sampler(players: list[tuple[Any, Any]], board: Sequence[int] = (), game: str = "holdem") -> Sampler:
        deck = range(16, 52) if game.startswith("short") else range(52)
        labels = [str(i) for i in range(len(players))]
        seats = [Seat(p) for p in check_players(players, labels, [True] * len(players), board, False, deck)]
        return Sampler(seats, list(board), [], np.random.SeedSequence(1), resolve(game, t))

    aa = (np.array([[51, 50]], dtype=np.uint8), np.ones(1))
    everything = parse_range("random")
    full = (np.asarray(everything.combos), np.asarray(everything.weights))
    assert sampler([aa, full]).whole is not None  # combos touching the hand are never dealt
    assert sampler([aa, (full[0], full[1] * 0.5)]).whole is not None  # equal weights, whatever they are
    weighted = full[1].copy()
    weighted[0] = 0.5
    assert sampler([aa, (full[0], weighted)]).whole is None
    assert sampler([aa, (full[0][1:], full[1][1:])]).whole is None  # one combo short of random
    twice = (np.vstack([full[0], full[0][:1]]), np.ones(1327))
    assert sampler([aa, twice]).whole is None
    kk = (np.array([[47, 46]], dtype=np.uint8), np.ones(1))
    assert sampler([aa, kk]).whole is not None
    short = (np.array([[47, 46]], dtype=np.uint8), np.ones(1))
    assert sampler([aa, short], game="short-deck").whole is None
    # On a flop, "random" is every combo of the cards off the board and out of the hands.
    board = parse_cards("2c 7d 9h")
    live = ~np.isin(full[0], board).any(axis=1)
    assert sampler([aa, (full[0][live], full[1][live])], board).whole is not None


def test_a_range_of_one_combo_gets_its_breakdown() -> None:
    results = tp.equity(["AsAh", "random", "KK"], dead="Kc Kd", method="monte-carlo", samples=5000, seed=3)
    kk = results[2]
    assert kk.combo_games is not None and kk.combo_games.tolist() == [5000.0]
    assert kk.combo_equity is not None and kk.combo_equity[0] == pytest.approx(kk.equity)


# ------------------------------------------------------------ bad input


def test_bad_input_is_refused_alike(walkers: tuple[Any, Any]) -> None:
    h = np.array([[51, 50], [R, R]], dtype=np.uint8)
    none = np.zeros(0, dtype=np.uint8)
    counts, combos = np.zeros((2, 5), dtype=np.int64), np.zeros((1, 2, 1326), dtype=np.int64)
    cases: list[tuple[tuple[Any, ...], type[Exception], str | None]] = [
        ((h, none, none, 1, 10, counts), TypeError, None),
        ((h, none, none, 1.5, 10, counts, combos), TypeError, "integer"),
        ((h, none, none, 1, "10", counts, combos), TypeError, "integer"),
        ((h, none, none, 1, 2**70, counts, combos), OverflowError, None),
        ((h.tolist(), none, none, 1, 10, counts, combos), TypeError, "bytes-like"),
        ((h[:1], none, none, 1, 10, counts[:1], combos), ValueError, "2 to 9 players"),
        ((np.full((10, 2), R, np.uint8), none, none, 1, 10, np.zeros((10, 5), np.int64), combos), ValueError, "2 to 9"),
        ((h.ravel(), none, none, 1, 10, counts, combos), ValueError, r"\(players, 2\)"),
        ((h, np.arange(6, dtype=np.uint8), none, 1, 10, counts, combos), ValueError, "0 to 5 cards"),
        ((h, none, np.zeros((1, 1), np.uint8), 1, 10, counts, combos), ValueError, "dead must be"),
        ((h, none, none, 1, -1, counts, combos), ValueError, "n must be"),
        ((h, none, none, 1, 2**32, counts, combos), ValueError, "n must be"),
        ((np.array([[51, 52], [R, R]], np.uint8), none, none, 1, 10, counts, combos), ValueError, "0..51"),
        ((np.array([[51, R], [R, R]], np.uint8), none, none, 1, 10, counts, combos), ValueError, "255 twice"),
        ((h, np.array([60], np.uint8), none, 1, 10, counts, combos), ValueError, "0..51"),
        ((np.array([[51, 51], [R, R]], np.uint8), none, none, 1, 10, counts, combos), ValueError, "twice"),
        ((h, np.array([51], np.uint8), none, 1, 10, counts, combos), ValueError, "twice"),
        ((h, none, np.array([3, 3], np.uint8), 1, 10, counts, combos), ValueError, "twice"),
        ((h, none, np.arange(45, dtype=np.uint8), 1, 10, counts, combos), ValueError, "too few cards"),
        ((h, none, none, 1, 10, counts.astype(np.float64), combos), ValueError, "counts must be"),
        ((h, none, none, 1, 10, counts[:1], combos), ValueError, "counts must be"),
        ((h, none, none, 1, 10, counts, combos[:, :1]), ValueError, "combos must be"),
        ((h, none, none, 1, 10, counts, combos.astype(np.uint64)), ValueError, "combos must be"),
        ((h[:, ::-1], none, none, 1, 10, counts, combos), ValueError, "contiguous"),
    ]
    frozen = counts.copy()
    frozen.setflags(write=False)
    cases.append(((h, none, none, 1, 10, frozen, combos), ValueError, "read-only"))
    for args, error, match in cases:
        messages = []
        for w in walkers:
            with pytest.raises(error, match=match) as e:
                w.sample_games(*args)
            messages.append(str(e.value))
        if error is ValueError:
            assert messages[0] == messages[1], (args[0], messages)
