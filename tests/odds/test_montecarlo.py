"""Monte Carlo equity against exact answers: honest within its standard error, reproducible, card removal, weights."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from itertools import combinations, product

import numpy as np
import numpy.typing as npt
import pytest

from tests.racing import every_moment
from twoplustwo.cli import main
from twoplustwo.hands.batch import evaluate_batch
from twoplustwo.kernels.games import resolve
from twoplustwo.odds import montecarlo
from twoplustwo.odds.equity import equity
from twoplustwo.odds.montecarlo import BATCH, DEFAULT_STDERR, MAX_SAMPLES, MIN_SAMPLES, monte_carlo
from twoplustwo.odds.players import check_players
from twoplustwo.odds.results import PlayerEquity
from twoplustwo.odds.sampler import Sampler, Seat, hand_rows
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.cards import format_cards, parse_cards
from twoplustwo.vocab.ranges import parse_range
from twoplustwo.vocab.rules import HOLDEM

Spec = tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64]]


def hand(text: str) -> Spec:
    return np.array([parse_cards(text)], dtype=np.uint8), np.ones(1)


def combos(hands: Sequence[str], weights: Sequence[float] | None = None) -> Spec:
    c = np.array([parse_cards(h) for h in hands], dtype=np.uint8)
    return c, np.array(weights if weights is not None else [1.0] * len(c), dtype=np.float64)


def from_range(text: str, taken: Sequence[int] = ()) -> Spec:
    r = parse_range(text)
    keep = ~np.isin(r.combos, list(taken)).any(axis=1)
    return np.asarray(r.combos)[keep], np.asarray(r.weights)[keep]


def mc(
    players: Sequence[Spec], board: Sequence[int] = (), dead: Sequence[int] = (), **kw: object
) -> list[PlayerEquity]:
    labels = [f"p{i + 1}" for i in range(len(players))]
    return monte_carlo(players, labels, [len(c) > 1 for c, _ in players], board, dead, **kw)  # type: ignore[arg-type]


def brute_force(
    players: Sequence[Spec], board: Sequence[int], dead: Sequence[int] = (), game: str = "holdem"
) -> tuple[list[float], list[npt.NDArray[np.float64]]]:
    """Each player's weighted equity and per-combo equity over every compatible deal and board completion.

    Deals weigh the product of their combos' weights; every completion of
    a deal counts once.
    """
    k = len(players)
    total = 0.0
    shares = [0.0] * k
    combo_games = [np.zeros(len(c)) for c, _ in players]
    combo_shares = [np.zeros(len(c)) for c, _ in players]
    for pick in product(*(range(len(c)) for c, _ in players)):
        holes = [[int(x) for x in players[p][0][i]] for p, i in enumerate(pick)]
        cards = [c for h in holes for c in h]
        if len(set(cards)) != len(cards):
            continue
        weight = math.prod(float(players[p][1][i]) for p, i in enumerate(pick))
        used = set(cards) | set(board) | set(dead)
        rest = [c for c in range(16 if game.startswith("short") else 0, 52) if c not in used]
        draws = list(combinations(rest, 5 - len(board)))
        n = len(draws)
        completions = np.array(draws, dtype=np.int64).reshape(n, 5 - len(board))
        values = np.array(
            [
                evaluate_batch(
                    np.hstack([np.tile(h + list(board), (n, 1)), completions]).astype(np.uint8), game=game
                )
                for h in holes
            ]
        )
        top = values == values.max(axis=0)
        share = top / top.sum(axis=0)
        total += weight * n
        for p, i in enumerate(pick):
            s = float(share[p].sum())
            shares[p] += weight * s
            combo_games[p][i] += weight * n
            combo_shares[p][i] += weight * s
    with np.errstate(invalid="ignore"):
        per_combo = [s / g for s, g in zip(combo_shares, combo_games)]
    return [s / total for s in shares], per_combo


def same(a: Sequence[PlayerEquity], b: Sequence[PlayerEquity]) -> bool:
    """Results equal field by field, a never-drawn combo's nan equal to itself."""
    fields = ["player", "games", "wins", "ties", "equity", "stderr", "combos", "combo_games", "combo_equity"]
    return len(a) == len(b) and all(
        (x is None and y is None)
        or (x is not None and y is not None and np.array_equal(x, y, equal_nan=np.asarray(x).dtype.kind == "f"))
        for r, q in zip(a, b)
        for x, y in ((getattr(r, f), getattr(q, f)) for f in fields)
    )


def assert_honest(results: Sequence[PlayerEquity], exact: Sequence[float], sigmas: float = 4.0) -> None:
    for r, e in zip(results, exact):
        assert abs(r.equity - e) <= sigmas * r.stderr + 1e-12, (r, e)


# ------------------------------------------------------------------ honesty


def _hand_cases() -> list[tuple[list[str], list[int], list[int]]]:
    """Random hands on random boards (mostly flops and turns, a few preflop), some with dead cards."""
    rnd = random.Random(2024)
    cases = []
    for i in range(32):
        deck = list(range(52))
        rnd.shuffle(deck)
        k = rnd.choice([2, 2, 3, 4])
        holes = [format_cards(deck[2 * j : 2 * j + 2]).replace(" ", "") for j in range(k)]
        size = 0 if i % 8 == 0 else rnd.choice([3, 4])
        board = deck[2 * k : 2 * k + size]
        dead = deck[2 * k + size : 2 * k + size + (i % 3)]
        cases.append((holes, board, dead))
    return cases


@pytest.mark.parametrize("case", range(32))
def test_hands_match_exact_equity(case: int) -> None:
    holes, board, dead = _hand_cases()[case]
    exact = [r.equity for r in equity(holes, board, dead)]
    results = mc([hand(h) for h in holes], board, dead, samples=BATCH, seed=case)
    assert all(r.games == BATCH and r.combos is None for r in results)
    assert sum(r.equity for r in results) == pytest.approx(1.0)
    assert_honest(results, exact)


def _range_cases() -> list[tuple[list[Spec], list[int]]]:
    """Small random weighted ranges (1 to 4 combos, some clashing) on turn and river boards."""
    rnd = random.Random(77)
    cases = []
    for i in range(16):
        deck = list(range(52))
        rnd.shuffle(deck)
        board = deck[: 4 + i % 2]
        # A small pool of cards shared by the ranges, so combos of different players clash.
        pool = deck[5:14]
        k = 2 + i % 2
        players = []
        for _ in range(k):
            n = rnd.randint(1, 4)
            picks = {tuple(sorted(rnd.sample(pool, 2))) for _ in range(n)}
            c = np.array(sorted(picks), dtype=np.uint8)
            w = np.array([rnd.choice([1.0, 0.5, 0.25, 0.8]) for _ in c])
            players.append((c, w))
        cases.append((players, board))
    return cases


@pytest.mark.parametrize("case", range(16))
def test_ranges_match_brute_force(case: int) -> None:
    players, board = _range_cases()[case]
    try:
        exact, _ = brute_force(players, board)
    except ZeroDivisionError:
        with pytest.raises(ValueError, match="no compatible deal"):
            mc(players, board, samples=BATCH, seed=case)
        return
    assert_honest(mc(players, board, samples=2 * BATCH, seed=case), exact)


# ------------------------------------------------------------ other games


def _game_cases() -> list[tuple[str, list[str], list[int], list[int]]]:
    """Random hands of short deck (both rules) and Omaha (4 to 6 cards, high and hi/lo) on flops and turns."""
    rnd = random.Random(16)
    cases = []
    for game in ["short-deck", "short-deck-classic", "omaha", "omaha-hilo"]:
        for i in range(4):
            deck = list(range(16 if game.startswith("short") else 0, 52))
            rnd.shuffle(deck)
            k = 2 + i % 2
            width = 2 if game.startswith("short") else 4 + i % 3
            holes = [format_cards(deck[width * j : width * (j + 1)]) for j in range(k)]
            board = deck[width * k : width * k + 3 + i % 2]
            dead = deck[width * k + 5 : width * k + 5 + i % 2]
            cases.append((game, holes, board, dead))
    return cases


@pytest.mark.parametrize("case", range(16))
def test_other_games_match_exact_equity(case: int) -> None:
    game, holes, board, dead = _game_cases()[case]
    exact = [r.equity for r in equity(holes, board, dead, game=game, method="exact")]
    players = [hand(h) for h in holes]
    results = mc(players, board, dead, game=game, samples=BATCH, seed=case)
    assert sum(r.equity for r in results) == pytest.approx(1.0)
    assert_honest(results, exact)


def test_short_deck_ranges_match_brute_force() -> None:
    board = parse_cards("As 9d 6c 7h")
    taken = [*board, *range(16)]
    players = [from_range("TT+,AK", taken), from_range("88,T8s,KQ", taken)]
    for game in ("short-deck", "short-deck-classic"):
        exact, _ = brute_force(players, board, game=game)
        assert_honest(mc(players, board, game=game, samples=2 * BATCH, seed=2), exact)


# ------------------------------------------------------------- card removal


def test_card_removal_overlapping_ranges() -> None:
    # Every player wants the same aces: independent draws would mostly
    # clash, and redrawing only a clashing player would skew the pairs.
    board = parse_cards("2c 7d 9h Ts")
    players = [
        from_range("AA"),
        from_range("AA,KK"),
        combos(["AsKs", "AhKd", "AcQc", "KcKh", "AdJd"]),
    ]
    exact, per_combo = brute_force(players, board)
    results = mc(players, board, samples=8 * BATCH, seed=5)
    assert_honest(results, exact)
    for r, e in zip(results, per_combo):
        assert r.combo_games is not None and r.combo_equity is not None
        sampled = r.combo_games > 0
        # Per-combo tolerance: a share's standard deviation is at most 1/2.
        assert np.all(np.abs(r.combo_equity[sampled] - e[sampled]) <= 4 * 0.5 / np.sqrt(r.combo_games[sampled]))


def test_card_removal_changes_the_answer() -> None:
    # The test above means something: with card removal ignored, AA would
    # face KK far more often than it does.
    board = parse_cards("2c 7d 9h Ts")
    aa, aakk = from_range("AA"), from_range("AA,KK")
    exact, _ = brute_force([aa, aakk], board)
    exact_kk, _ = brute_force([aa, from_range("KK")], board)
    assert abs(exact[0] - exact_kk[0]) > 0.05
    assert_honest(mc([aa, aakk], board, samples=4 * BATCH, seed=9), exact)


# ------------------------------------------------------------------ weights


def test_weights_match_brute_force() -> None:
    board = parse_cards("Ah 8d 5c 2s")
    weighted = combos(["KsKh", "Td9d", "AcQc", "6c7c"], [1.0, 0.25, 0.1, 0.5])
    hero = hand("Ad Js")
    exact, per_combo = brute_force([hero, weighted], board)
    flat, _ = brute_force([hero, (weighted[0], np.ones(4))], board)
    assert abs(exact[0] - flat[0]) > 0.05  # the weights matter
    results = mc([hero, weighted], board, samples=4 * BATCH, seed=11)
    assert_honest(results, exact)
    villain = results[1]
    assert villain.combo_games is not None and villain.combo_equity is not None
    # Combos are drawn in proportion to their weights.
    expected = weighted[1] / weighted[1].sum() * villain.games
    assert np.all(np.abs(villain.combo_games - expected) <= 4 * np.sqrt(expected))
    assert np.all(np.abs(villain.combo_equity - per_combo[1]) <= 4 * 0.5 / np.sqrt(villain.combo_games))


# ------------------------------------------------------- per-combo breakdown


def test_per_combo_breakdown() -> None:
    board = parse_cards("Qh Jd 2c")
    villain = combos(["AhKh", "7c7d", "AsKs"])
    hero = hand("Qs Qd")
    results = mc([hero, villain], board, samples=3 * BATCH + 17, seed=3)
    h, v = results
    assert h.combos is None and h.combo_games is None and h.combo_equity is None
    # The combos as given, in a copy of their own: the caller's array, read once when checked, may change later.
    assert v.combos is not None and np.array_equal(v.combos, villain[0]) and not np.shares_memory(v.combos, villain[0])
    assert v.combo_games is not None and v.combo_equity is not None
    assert v.combo_games.dtype == np.float64 and v.combo_games.sum() == v.games == 3 * BATCH + 17
    for i, c in enumerate(["AhKh", "7c7d", "AsKs"]):
        # Each combo alone against the fixed hand: an exact two-hand equity.
        exact = equity(["QsQd", c], board)[1].equity
        assert abs(v.combo_equity[i] - exact) <= 4 * 0.5 / math.sqrt(v.combo_games[i])
    assert v.equity == pytest.approx(float(v.combo_games @ v.combo_equity) / v.games)


def test_a_combo_never_drawn_is_nan() -> None:
    # AsAh can never be dealt beside the fixed AsKs.
    results = mc([combos(["AsAh", "KdKc"]), hand("AsKs")], samples=BATCH, seed=1)
    r = results[0]
    assert r.combo_games is not None and r.combo_equity is not None
    assert r.combo_games.tolist() == [0.0, BATCH]
    assert math.isnan(r.combo_equity[0]) and r.combo_equity[1] == pytest.approx(r.equity)


# --------------------------------------------------------- reproducibility


def test_same_seed_same_result_for_any_threads() -> None:
    players = [from_range("QQ+,AKs"), from_range("88+,AJs+,KQs"), hand("7h 6h")]
    for kw in ({"samples": 3 * BATCH + 5}, {"stderr": 0.003}):
        one = mc(players, seed=42, threads=1, **kw)
        assert same(one, mc(players, seed=42, threads=2, **kw))
        assert not same(one, mc(players, seed=43, threads=2, **kw))


def test_samples_exact_and_seed_none() -> None:
    players = [hand("AsAh"), hand("KdKc")]
    for n in (1, 5, BATCH, BATCH + 1, 100_003):
        assert [r.games for r in mc(players, samples=n, seed=0)] == [n, n]
    assert all(math.isnan(r.stderr) for r in mc(players, samples=1, seed=0))
    # Fresh entropy: two unseeded runs differ (their chance of agreeing is nil).
    assert not same(mc(players, samples=BATCH), mc(players, samples=BATCH))


def test_stderr_target_and_default() -> None:
    players = [hand("AsKs"), hand("7h 7d")]
    results = mc(players, stderr=0.002, seed=1)
    assert all(r.stderr <= 0.002 for r in results) and results[0].games >= MIN_SAMPLES
    results = mc(players, seed=1)
    assert all(r.stderr <= DEFAULT_STDERR for r in results)
    assert [r.games for r in mc(players, stderr=1e-6, samples=1000, seed=1)] == [1000, 1000]
    # A river board with fixed hands plays the same game every time: no variance, one round.
    river = mc(players, parse_cards("2c 3d 9h Th Js"), seed=1)
    assert river[0].games == MIN_SAMPLES and river[0].stderr == 0.0 and river[0].equity in (0.0, 0.5, 1.0)


def test_a_stderr_too_small_to_reach_plays_to_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    # 1e-170 squared underflows to 0 and 5e-324 divides a variance to inf:
    # a target no run meets, so the run plays every game it may.
    players = [hand("AsKs"), hand("7h 7d")]
    n = MIN_SAMPLES + BATCH + 3
    for tiny in (1e-170, 5e-324):
        assert [r.games for r in mc(players, stderr=tiny, samples=n, seed=1)] == [n, n]
    results = equity(["AsKs", "7h7d"], method="monte-carlo", stderr=1e-170, samples=n, seed=1)
    assert [r.games for r in results] == [n, n] and all(r.stderr > 0 for r in results)
    # Without samples, MAX_SAMPLES caps the games (made small here).
    monkeypatch.setattr(montecarlo, "MAX_SAMPLES", n)
    assert [r.games for r in mc(players, stderr=1e-170, seed=1)] == [n, n]


def test_cli_tiny_stderr_plays_to_the_samples(capsys: pytest.CaptureFixture[str]) -> None:
    n = MIN_SAMPLES + 5
    code = main(["equity", "AsKs", "7h7d", "--mc", "--stderr", "1e-170", "--samples", str(n), "--seed", "1"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    assert [line.split()[-1] for line in out.splitlines()[2:]] == [f"{n:,}", f"{n:,}"]


class SamplingBegan(Exception):
    """Raised in place of sampling, with the cap: a refused call never gets this far."""


def _never_sample(sampler: object, total: object, workers: object, cap: int, *rest: object) -> None:
    raise SamplingBegan(cap)


@pytest.mark.parametrize("n", [MAX_SAMPLES + 1, 10**23, 10**5000], ids=["cap+1", "1e23", "1e5000"])
def test_samples_over_the_cap_are_refused(monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    monkeypatch.setattr(montecarlo, "sample_rounds", _never_sample)
    players = [hand("AsAh"), hand("KdKc")]
    refused = r"^samples must be at most 100,000,000 \(MAX_SAMPLES\), got "
    for kw in ({}, {"stderr": 0.01}):
        with pytest.raises(ValueError, match=refused) as e:
            mc(players, samples=n, **kw)
        assert len(str(e.value)) < 100
    with pytest.raises(ValueError, match=refused):
        equity(["AsAh", "KdKc"], method="monte-carlo", samples=n)
    # MAX_SAMPLES itself is allowed.
    with pytest.raises(SamplingBegan) as began:
        mc(players, samples=MAX_SAMPLES)
    assert began.value.args == (MAX_SAMPLES,)


def test_cli_huge_samples_is_one_error_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(montecarlo, "sample_rounds", _never_sample)
    code = main(["equity", "AsAh", "KdKc", "--mc", "--samples", str(10**23)])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err == (
        "twoplustwo: error: samples must be at most 100,000,000 (MAX_SAMPLES), got 100,000,000,000,000,000,000,000\n"
    )


def test_both_backends_agree(both: tuple[Tables, Tables]) -> None:
    c, ref = both
    board = parse_cards("Js 8c 2d")
    taken = [*board, *parse_cards("Kh Qh")]
    players = [from_range("TT+,AQs+", taken), hand("Kh Qh"), from_range("22-55", taken)]
    one = mc(players, board, samples=BATCH + 99, seed=8, tables=c)
    assert same(one, mc(players, board, samples=BATCH + 99, seed=8, tables=ref))
    assert one[0].combo_games is not None and one[0].combo_games.all()
    for game, holes in [("short-deck", ["AsKs", "9h9d"]), ("omaha-hilo", ["AsKhQs2d", "AhKs5c4c", "7c8c9dTd"])]:
        players = [hand(h) for h in holes]
        assert same(
            mc(players, game=game, samples=5000, seed=1, tables=c),
            mc(players, game=game, samples=5000, seed=1, tables=ref),
        )


# ------------------------------------------------------------ the sampler


def test_boards_are_uniform() -> None:
    # Every free card turns up on the board equally often, whatever the holes.
    players = [from_range("AA,KK"), hand("Qs Qh")]
    board = parse_cards("2c")
    people = [Seat(p) for p in check_players(players, ["a", "b"], [True, False], (), False, range(52))]
    sampler = Sampler(people, board, [], np.random.SeedSequence(3), resolve(HOLDEM))
    rng = np.random.default_rng(4)
    n = 1 << 16
    idx = people[0].draw(rng, n)
    held = people[0].masks[idx] | people[1].masks[0]
    words = sampler._board(rng, held)
    cards = (words[:, None] >> np.arange(16, 56, 8, dtype=np.uint64)) & np.uint64(0xFF)
    assert np.all(cards[:, 0] == board[0])
    drawn = cards[:, 1:].astype(np.int64)
    assert np.all(np.sort(drawn, axis=1)[:, 1:] != np.sort(drawn, axis=1)[:, :-1])  # distinct
    hits = (held[:, None] >> drawn.astype(np.uint64)) & np.uint64(1)
    assert not hits.any()  # never a held card
    # Given the range's combo, a deal's board is uniform over the 47 other cards.
    for i, combo in enumerate(people[0].combos):
        counts = np.bincount(drawn[idx == i].ravel(), minlength=52)
        free = [c for c in range(52) if c not in {0, 42, 43, *combo.tolist()}]
        assert counts.sum() == counts[free].sum()
        expect = counts.sum() / 47
        assert np.all(np.abs(counts[free] - expect) <= 5 * np.sqrt(expect))


def test_rows_from_words() -> None:
    rng = np.random.default_rng(0)
    cards = rng.integers(0, 52, size=(1001, 7), dtype=np.uint8)
    words = (cards.astype(np.uint64) << np.arange(0, 56, 8, dtype=np.uint64)).sum(axis=1, dtype=np.uint64)
    rows = hand_rows(words)
    assert rows.flags.c_contiguous and rows.shape == (1001, 7)
    assert np.array_equal(rows, cards)


# ---------------------------------------------------------------- errors


def test_no_compatible_deal() -> None:
    with pytest.raises(ValueError, match="no compatible deal"):
        mc([from_range("AA")] * 3, samples=10)
    with pytest.raises(ValueError, match="no compatible deal"):
        mc([hand("AsKs"), hand("AsQs")], samples=10)


def test_compatible_deals_too_rare() -> None:
    # Deals exist (aces, kings and queens paired off), but six independent
    # draws almost never miss each other.
    with pytest.raises(ValueError, match="too rare to sample"):
        mc([from_range("AA,KK,QQ")] * 6, samples=10)


def test_too_few_cards() -> None:
    dead = list(range(30))
    with pytest.raises(ValueError, match="cards are left"):
        mc([from_range("random", dead)] * 9, dead=dead, samples=10)


@pytest.mark.parametrize(
    ("kw", "error", "match"),
    [
        ({"stderr": 0}, ValueError, "stderr"),
        ({"stderr": -0.1}, ValueError, "stderr"),
        ({"stderr": math.nan}, ValueError, "stderr"),
        ({"stderr": math.inf}, ValueError, "stderr"),
        ({"stderr": "0.01"}, TypeError, "stderr"),
        ({"stderr": True}, TypeError, "stderr"),
        ({"samples": 0}, ValueError, "samples"),
        ({"samples": -5}, ValueError, "samples"),
        ({"samples": 10.0}, TypeError, "samples"),
        ({"samples": True}, TypeError, "samples"),
        ({"seed": -1}, ValueError, "seed"),
        ({"seed": 1.5}, TypeError, "seed"),
        ({"seed": "1"}, TypeError, "seed"),
        ({"threads": 0}, ValueError, "threads"),
    ],
)
def test_bad_arguments(kw: dict[str, object], error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        mc([hand("AsAh"), hand("KdKc")], **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "kw",
    [{"samples": -1}, {"samples": 0}, {"samples": 1.5}, {"samples": 10**30}, {"stderr": -1}, {"stderr": math.nan},
     {"seed": -1}],
    ids=str,
)
@pytest.mark.parametrize(
    ("players", "game"),
    [(["AsAh", "KdKc"], "holdem"), (["AsKs", "QQ"], "holdem"), (["AsKhQs2d", "AhKs5c4c"], "omaha-hilo")],
    ids=["hands", "a range", "omaha"],
)
def test_auto_refuses_what_monte_carlo_refuses(kw: dict[str, object], players: list[str], game: str) -> None:
    # Each of these deals is small enough for "auto" to enumerate: the bad
    # argument gets the same error all the same, before anything is counted.
    with pytest.raises((ValueError, TypeError)) as sampled:
        equity(players, game=game, method="monte-carlo", **kw)  # type: ignore[arg-type]
    with pytest.raises(type(sampled.value)) as auto:
        equity(players, game=game, **kw)  # type: ignore[arg-type]
    assert str(auto.value) == str(sampled.value)


@pytest.mark.parametrize(
    ("players", "game"),
    [(["AsAh", "KdKc"], "holdem"), (["AsKs", "QQ"], "holdem"), (["AsKhQs2d", "AhKs5c4c"], "omaha-hilo")],
    ids=["hands", "a range", "omaha"],
)
def test_auto_enumerates_the_deals_above(players: list[str], game: str) -> None:
    # So the refusals above came from the enumeration's path, not from a Monte Carlo that auto chose.
    assert equity(players, game=game)[0].stderr == 0


def test_bad_game() -> None:
    # The one check of an equity game (twoplustwo.vocab.rules.check_equity_game), as equity() says it.
    plays = "equity plays holdem, short-deck, short-deck-classic, omaha, omaha-hilo, stud, .*, badugi; got game"
    with pytest.raises(ValueError, match=plays + " 'razzle'"):
        mc([hand("AsAh"), hand("KdKc")], game="razzle", samples=10)
    # A game without a board is equity()'s (twoplustwo/odds/own_cards.py), not this sampler's.
    with pytest.raises(ValueError, match="monte_carlo plays games with a board; razz is played by equity"):
        mc([hand("AsAh"), hand("KdKc")], game="razz", samples=10)
    with pytest.raises(ValueError, match=plays + " NoneType"):
        mc([hand("AsAh"), hand("KdKc")], game=None, samples=10)
    with pytest.raises(ValueError, match="card ints 16..51"):
        mc([hand("AsAh"), hand("5d5c")], game="short-deck", samples=10)
    with pytest.raises(ValueError, match=r"\(n, 4..6\) combos"):
        mc([hand("AsAh"), hand("KdKc")], game="omaha", samples=10)
    with pytest.raises(ValueError, match=r"\(n, 2\) combos"):
        mc([hand("AsAhKsKh"), hand("QdQcJdJc")], samples=10)


def test_bad_players() -> None:
    with pytest.raises(ValueError, match="2 to 9 players"):
        mc([hand("AsAh")], samples=10)
    with pytest.raises(ValueError, match="labels"):
        monte_carlo([hand("AsAh"), hand("KdKc")], ["a"], [False, False], (), (), samples=10)
    with pytest.raises(ValueError, match="weights"):
        mc([hand("AsAh"), combos(["KdKc"], [0.0])], samples=10)
    with pytest.raises(ValueError, match="twice"):
        mc([hand("AsAh"), (np.array([[3, 3]], dtype=np.uint8), np.ones(1))], samples=10)
    with pytest.raises(ValueError, match="board or dead"):
        mc([hand("AsAh"), combos(["KdKc", "2c2d"])], parse_cards("2c 3c 4c"), samples=10)
    with pytest.raises(ValueError, match="board or dead"):
        mc([hand("AsAh"), hand("KdKc")], dead=parse_cards("Kd"), samples=10)


def test_combos_and_weights_changed_while_checked_give_one_states_players_or_an_error() -> None:
    # Checked on the caller's array and then cast to uint8, a 300 written in
    # between was card 44 (Kc), unchecked against the board and the others.
    combos = np.array([[51, 50], [49, 48], [3, 7]], dtype=np.int64)
    weights = np.array([1.0, 0.5, 0.25])

    def call() -> list[tuple[list[list[int]], list[float]]]:
        checked = check_players([(combos, weights), hand("Qs Qh")], ["a", "b"], [True, False], [44], False, range(52))
        return [(p.combos.tolist(), p.weights.tolist()) for p in checked]

    def with_(a: np.ndarray, at: tuple[int, ...], v: float) -> list[tuple[list[list[int]], list[float]]]:
        saved = a[at].item()
        a[at] = v
        try:
            return call()
        finally:
            a[at] = saved

    same = lambda x, y: x == y  # noqa: E731
    assert every_moment(combos, (2, 1), 300, call, [call()], same=same)
    assert every_moment(combos, (2, 1), 8, call, [call(), with_(combos, (2, 1), 8)], same=same)
    assert every_moment(weights, (1,), 1.5, call, [call()], same=same)
    with pytest.raises(TypeError, match="a: combos must be a plain array, not a masked array"):
        masked = np.ma.array(combos, mask=np.eye(3, 2))
        check_players([(masked, weights), hand("Qs Qh")], ["a", "b"], [True, False], [], False, range(52))
