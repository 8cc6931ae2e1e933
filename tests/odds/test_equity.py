"""Exact Hold'em equity against a published result and a brute-force loop."""

from __future__ import annotations

import os
import subprocess
import sys
from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twoplustwo import backend
from twoplustwo.hands.batch import evaluate
from twoplustwo.kernels.games import resolve, walker_of
from twoplustwo.odds import cost, counting, exact
from twoplustwo.odds.equity import AUTO_EXACT_WORK, PlayerEquity, equity, equity_table
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.cards import format_cards, parse_cards
from twoplustwo.vocab.ranges import Range, parse_range
from twoplustwo.vocab.rules import HOLDEM
from twoplustwo.vocab.suits import suit_classes


def brute_force(hands: list[str], board: str = "", dead: str = "") -> list[tuple[int, int, int, float]]:
    """(games, wins, ties, equity) per player, one evaluate() per player and board."""
    holes = [parse_cards(h) for h in hands]
    known, out = parse_cards(board), parse_cards(dead)
    used = {c for h in holes for c in h} | set(known) | set(out)
    rest = [c for c in range(52) if c not in used]
    n = len(holes)
    wins, ties, shares = [0] * n, [0] * n, [Fraction(0)] * n
    boards = 0
    for draw in combinations(rest, 5 - len(known)):
        boards += 1
        values = [evaluate(h + known + list(draw)) for h in holes]
        best = max(values)
        top = [i for i, v in enumerate(values) if v == best]
        for i in top:
            shares[i] += Fraction(1, len(top))
            if len(top) == 1:
                wins[i] += 1
            else:
                ties[i] += 1
    return [(boards, wins[i], ties[i], float(shares[i] / boards)) for i in range(n)]


def _as_tuples(results: list[PlayerEquity]) -> list[tuple[float, float, float, float]]:
    return [(r.games, r.wins, r.ties, r.equity) for r in results]


def test_aces_against_kings_preflop() -> None:
    aa, kk = equity(["AsAh", "KdKc"])
    assert (aa.games, aa.wins, aa.ties, aa.losses) == (1_712_304, 1_388_072, 6_538, 317_694)
    assert (kk.games, kk.wins, kk.ties, kk.losses) == (1_712_304, 317_694, 6_538, 1_388_072)
    assert aa.equity == (2 * 1_388_072 + 6_538) / (2 * 1_712_304)
    assert aa.stderr == 0 and aa.combos is None
    assert aa.win == pytest.approx(1_388_072 / 1_712_304)
    assert aa.tie == pytest.approx(6_538 / 1_712_304)
    assert aa.equity + kk.equity == pytest.approx(1.0)
    assert aa.player == "As Ah"


def test_symmetry_preflop() -> None:
    ab = equity(["Ah Kh", "7c 7d"])
    ba = equity(["7c 7d", "Ah Kh"])
    assert _as_tuples(ab) == _as_tuples(ba)[::-1]
    assert ab[0].games == comb(48, 5)


@pytest.mark.parametrize(
    "hands, board, dead",
    [
        (["AsAh", "KdKc"], "2c 7d 9h", ""),
        (["AsAh", "KdKc"], "2c 7d 9h Th", ""),
        (["AsAh", "KdKc"], "2c 7d 9h Th Kh", ""),
        (["AhKh", "AdKd"], "Qh Jd 2c", ""),  # mostly split pots
        (["8c 8d", "As Ks"], "8h Qs Js", "Ts 2s"),
        (["Tc 9c", "Ah Ad"], "8c 7c 2h 2d", "6c"),
        (["2c 3c", "2d 3d"], "4h 5s 6c 7d 8h", ""),  # board plays: a tie
        # No board, but only 12 cards left: every board from a short deck.
        (["AsAh", "KdKc"], "", " ".join(f"{r}{s}" for r in "23456789T" for s in "cdhs")),
    ],
)
def test_heads_up_against_brute_force(hands: list[str], board: str, dead: str) -> None:
    assert _as_tuples(equity(hands, board=board, dead=dead)) == brute_force(hands, board, dead)


@pytest.mark.parametrize(
    "hands, board, dead",
    [
        (["AsKs", "QhQd", "2c2d"], "Kh Qc 2h", ""),
        (["AhKh", "AdKd", "AcKc", "AsKs"], "Qs Js 2d", ""),  # 4-way splits
        (["AcKc", "7s7h", "Td9d", "2s3s"], "4s 5s 6c", "Ah"),
        (["7c2d", "8h3s", "9d4c", "Ts5h", "Jc6d", "Qh8d", "Ks9c", "As3d", "4h4s"], "2h 5c Kd", ""),
        (["Jh Th", "9s 9c", "Ad 5d"], "Qh 8s 2h 3d", "Kh"),
        (["Jh Th", "9s 9c", "Ad 5d"], "", " ".join(f"{r}{s}" for r in "234678" for s in "cdhs")),
    ],
)
def test_multiway_against_brute_force(hands: list[str], board: str, dead: str) -> None:
    results = equity(hands, board=board, dead=dead)
    assert _as_tuples(results) == brute_force(hands, board, dead)
    assert sum(r.equity for r in results) == pytest.approx(1)


def test_multiway_symmetry_and_nine_players_preflop() -> None:
    hands = ["AsAh", "KdKc", "QsQh", "JdJc", "Tc9c", "8h7h", "6d5d", "4s3s", "2c2d"]
    results = equity(hands)
    assert results[0].games == comb(52 - 18, 5)
    assert sum(r.equity for r in results) == pytest.approx(1)
    rotated = equity(hands[3:] + hands[:3])
    assert _as_tuples(rotated) == _as_tuples(results[3:] + results[:3])


@settings(max_examples=20, deadline=None)
@given(
    players=st.integers(2, 4),
    board_size=st.sampled_from([3, 4, 5]),
    n_dead=st.integers(0, 3),
    deck=st.permutations(list(range(52))),
)
def test_random_deals_against_brute_force(
    players: int, board_size: int, n_dead: int, deck: list[int]
) -> None:
    holes = [deck[2 * i : 2 * i + 2] for i in range(players)]
    rest = deck[2 * players :]
    board, dead = rest[:board_size], rest[board_size : board_size + n_dead]
    got = equity(holes, board=board, dead=dead)
    want = brute_force([_names(h) for h in holes], _names(board), _names(dead))
    assert _as_tuples(got) == want


def _names(cards: list[int]) -> str:
    return format_cards(cards)


def test_input_forms() -> None:
    want = _as_tuples(equity(["As Ah", "Kd Kc"], board="2c 7d 9h"))
    for hands in (["AsAh", "KdKc"], [["As", "Ah"], [45, 44]], [np.array([51, 50]), ("Kd", 44)]):
        assert _as_tuples(equity(hands, board=[0, "7d", 30])) == want


def test_text() -> None:
    aa, kk = equity(["As Ah", "Kd Kc"], board="2c 7d 9h")
    assert "As Ah" in str(aa) and "907 wins" in str(aa) and "990 games" in str(aa)
    assert repr(aa).startswith("PlayerEquity('As Ah', equity=91.616%, wins=907, ties=0, losses=83, games=990")
    lines = equity_table([aa, kk]).splitlines()
    assert len(lines) == 3 and lines[0].split()[0] == "player" and lines[2].startswith("Kd Kc")
    with pytest.raises(AttributeError):
        aa.wins = 0  # type: ignore[misc]


@pytest.mark.parametrize(
    "args, kwargs, message",
    [
        ((["AsAh", "AsKd"],), {}, "As is in both hand 1 and hand 2"),
        ((["AsAh", "KdKc"],), {"board": "Kd 2c 3c"}, "Kd is in both hand 2 and the board"),
        ((["AsAh", "KdKc"],), {"dead": "Ah"}, "Ah is in both hand 1 and the dead cards"),
        ((["AsAh", "KdKc"],), {"board": "2c 3c 4c", "dead": "4c"}, "4c is in both the board and the dead"),
        ((["AsAhKs", "KdKc"],), {}, "player 1: a Hold'em hand has 2 hole cards, got 3"),
        ((["AsAh", "Kd"],), {}, "player 2: a Hold'em hand has 2 hole cards, got 1"),
        ((["AsAh", "KdKd"],), {}, "player 2: not a hand .*duplicate.* nor a range .*KdKd"),
        # Solver weights and percents mark text as a range: only the range's error is given.
        ((["AsAh", "AK:2"],), {}, r"^player 2: item 1 \('AK:2'\) at offset 0: .*"),
        ((["AsAh", "101%"],), {}, r"^player 2: item 1 \('101%'\) at offset 0: .*"),
        ((["AsAh", "KdXc"],), {}, "player 2: not a hand .*unknown rank"),
        ((["AsAh", "QQ+,AKx"],), {}, r"player 2: item 2 \('AKx'\) at offset 4"),
        ((["AsAh", ""],), {}, "player 2: a Hold'em hand has 2 hole cards, got 0"),
        ((["AsAh", parse_range("")],), {}, "player 2: the range is empty"),
        ((["AsAh", "AA"],), {"board": "Ad Ac"}, "player 2: no combo of AA is left"),
        ((["AsAh", "AKo", "KK"],), {"board": "Kd Kc Ks"}, "player 3: no combo of KK"),
        ((["AA", "AA"],), {"dead": "Ad Ac"}, "no deal gives every player a combo"),
        ((["AsAh"],), {}, "2 to 9 players, got 1"),
        (([],), {}, "2 to 9 players, got 0"),
        (([f"{r}c {r}d" for r in "23456789TJ"],), {}, "2 to 9 players, got 10"),
        (("AsAh KdKc",), {}, "sequence of hands or ranges"),
        ((["AsAh", "KdKc"],), {"board": "2c 3c 4c 5c 6c 7c"}, "at most 5 cards, got 6"),
        ((["AsAh", "KdKc"],), {"method": "fast"}, "method must be one of"),
        ((["AsAh", "KdKc"],), {"method": "exact", "seed": 1}, "method='exact' takes none"),
        (
            (["AsAh", "KdKc"],),
            {"dead": list(range(44))},
            "only 4 cards left after the hands, the board needs 5 more",
        ),
    ],
)
def test_bad_input(args: tuple[object, ...], kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        equity(*args, **kwargs)  # type: ignore[arg-type]


def test_exactly_enough_cards() -> None:
    # 44 dead plus the 4 hole cards leave 4 cards: a known flop needs 2.
    dead = [c for c in range(52) if c not in (51, 50, 45, 44, 0, 1, 2, 3, 4, 5, 6)]
    results = equity(["AsAh", "KdKc"], board=[0, 1, 2], dead=dead)
    assert results[0].games == comb(4, 2)
    assert _as_tuples(results) == brute_force(["AsAh", "KdKc"], "2c 2d 2h", _names(dead))


# ---------------------------------------------------------------- ranges


def brute_force_ranges(
    players: list[str], board: str = "", dead: str = ""
) -> tuple[list[tuple[float, float, float, float]], list[dict[tuple[int, ...], float]]]:
    """Per player (games, wins, ties, equity), weighted, and each combo's equity: every deal, every board."""
    known, out = parse_cards(board), parse_cards(dead)
    options = []
    for p in players:
        r = parse_range(p)
        options.append(
            [(tuple(c), w) for c, w in zip(r.combos.tolist(), r.weights.tolist()) if not set(c) & set(known + out)]
        )
    n = len(players)
    games, wins, ties, shares = [0.0] * n, [0.0] * n, [0.0] * n, [0.0] * n
    combo_games: list[dict[tuple[int, ...], float]] = [{} for _ in range(n)]
    combo_shares: list[dict[tuple[int, ...], float]] = [{} for _ in range(n)]

    def deal(i: int, held: list[tuple[int, ...]], weight: float, used: set[int]) -> None:
        if i < n:
            for c, w in options[i]:
                if not used & set(c):
                    deal(i + 1, held + [c], weight * w, used | set(c))
            return
        rest = [c for c in range(52) if c not in used and c not in known and c not in out]
        for draw in combinations(rest, 5 - len(known)):
            values = [evaluate(list(h) + known + list(draw)) for h in held]
            best = max(values)
            top = [v == best for v in values]
            for j, h in enumerate(held):
                others = weight / dict(options[j])[h]
                share = top[j] / top.count(True)
                games[j] += weight
                wins[j] += weight * (top[j] and top.count(True) == 1)
                ties[j] += weight * (top[j] and top.count(True) > 1)
                shares[j] += weight * share
                combo_games[j][h] = combo_games[j].get(h, 0.0) + others
                combo_shares[j][h] = combo_shares[j].get(h, 0.0) + others * share

    deal(0, [], 1.0, set())
    totals = [(games[j], wins[j], ties[j], shares[j] / games[j]) for j in range(n)]
    per_combo = [{h: combo_shares[j][h] / g for h, g in combo_games[j].items()} for j in range(n)]
    return totals, per_combo


@pytest.mark.parametrize(
    "players, board, dead",
    [
        (["QQ+,AKs", "AK"], "Qh 7c 2d 3s", ""),
        (["JJ-99", "AhKh,AsQs", "T9s"], "2h 3h 4d Ts", "Jc"),  # 3-way, with a dead card
        (["[50]AKs,QQ[/50]", "[25]KK[/25],AQo"], "Ks 8c 2c", ""),  # weights multiply
        (["AA", "AA"], "Kd 7c 2s 2d", ""),  # heavy card removal between ranges
        (["AsAh", "KK,AKs", "AhKh,QQ"], "Qs 7c 2d", "3c 4c 5c 6c 7d 8d 9d Td Jd Qd Kd Ad 2h 3h 4h 5h 6h 7h 8h 9h"),
        (["77,AKs", "As5s"], "2c", " ".join(f"{r}{s}" for r in "3456789T" for s in "cdh")),  # a 1-card board
        (["TT,AKo", "9c8c"], "2c 3d", " ".join(f"{r}{s}" for r in "456789J" for s in "dh")),  # a 2-card board
    ],
)
def test_ranges_against_brute_force(players: list[str], board: str, dead: str) -> None:
    got = equity(players, board=board, dead=dead, method="exact")
    want, per_combo = brute_force_ranges(players, board, dead)
    for r, (games, wins, ties, share), combos in zip(got, want, per_combo):
        assert (r.games, r.wins, r.ties) == pytest.approx((games, wins, ties), rel=1e-12)
        assert r.equity == pytest.approx(share, rel=1e-12) and r.stderr == 0
        if r.combos is None:
            assert len(combos) == 1
            continue
        # A combo's games leave out its own weight: weighted back in, they add up to the player's.
        weight_of = parse_range(r.player).weight_of
        assert sum(weight_of(c) * g for c, g in zip(r.combos.tolist(), r.combo_games)) == pytest.approx(r.games)
        for c, e in zip(r.combos.tolist(), r.combo_equity.tolist()):
            if tuple(c) in combos:
                assert e == pytest.approx(combos[tuple(c)], rel=1e-12)
            else:
                assert np.isnan(e)  # a combo no deal could use


def test_unweighted_counts_are_exact_ints() -> None:
    hero, villain = equity(["QQ+", "AKs"], board="2c 7d")
    assert all(isinstance(x, int) for x in (hero.games, hero.wins, hero.ties, villain.wins))
    assert hero.wins + villain.wins + hero.ties == hero.games  # heads-up: a tie is both players'


def test_a_one_combo_range_is_the_hand() -> None:
    for board in ("", "Qh 7c 2d", "Qh 7c 2d 9s"):
        hands = equity(["AsKs", "QdQc"], board=board)
        ranged = equity(["AsKs", "QdQc,AdKh"], board=board)  # AdKh conflicts with nothing here
        single = equity(["AsKs", parse_range("QdQc")], board=board)
        assert _as_tuples(single) == _as_tuples(hands)
        assert single[1].combos is not None and single[1].combos.tolist() == [[41, 40]]
        assert ranged[1].combos is not None and ranged[1].combo_equity is not None
        queens = ranged[1].combos.tolist().index([41, 40])
        assert ranged[1].combo_equity[queens] == pytest.approx(hands[1].equity, rel=1e-12)


@pytest.mark.slow  # 14 s on the numpy path, which the quick lane skips
def test_range_against_range_preflop_equals_pairs_summed() -> None:
    # 22 combos against 16, preflop: every deal's own enumeration, summed.
    hero, villain = equity(["QQ+,AKs", "AK"], method="exact")
    a, b = parse_range("QQ+,AKs").combos.tolist(), parse_range("AK").combos.tolist()
    total = [0, 0, 0, 0]
    for x in a:
        for y in b:
            if set(x) & set(y):
                continue
            r, s = equity([x, y])
            total = [total[0] + r.games, total[1] + r.wins, total[2] + r.ties, total[3] + s.wins]
    assert (hero.games, hero.wins, hero.ties, villain.wins) == tuple(total)


def test_auto_enumerates_small_and_samples_big() -> None:
    small = equity(["QQ+", "AKs"], board="2c 7d 9h", seed=None)
    assert small[0].stderr == 0
    big = equity(["random", "random", "random"], samples=20_000, seed=3)
    assert big[0].stderr > 0 and big[0].games == 20_000


def _deals_of(players: list[str], board: str = "", dead: str = "") -> tuple[list[np.ndarray], np.ndarray, list[int]]:
    """Each player's combos (without the cards of the board, the dead cards and the hands), the deals, the board."""
    known, out = parse_cards(board), parse_cards(dead)
    taken = set(known) | set(out) | {c for p in players if len(parse_range(p).combos) == 1 for c in parse_cards(p)}
    combos = []
    for p in players:
        c = parse_range(p).combos
        if len(c) > 1:
            c = c[~np.isin(c, list(taken)).any(axis=1)]
        combos.append(c)
    found = exact.find_deals(combos)
    assert found is not None
    return combos, found, known


@pytest.mark.parametrize(
    ("players", "board", "dead"),
    [
        (["random", "AA"], "", ""),
        (["QQ+,AKs", "AK"], "", ""),
        (["22+,A2s+,KTo+", "AK,AQ"], "", ""),
        (["AsAh", "KK+,AKs", "random"], "", ""),  # over 4,096 deals: a sample
        (["QQ+,AKs", "AK"], "Qh 7c 2d", ""),
        (["JJ-99", "AhKh,AsQs", "T9s"], "2h 3h 4d Ts", "Jc"),
        (["random", "22"], "", "2c"),
        (["AhKh,AsQs", "22"], "", ""),  # a range that renamings of suits change
    ],
)
def test_work_estimates_the_suit_classes_counting_enumerates(players: list[str], board: str, dead: str) -> None:
    # Burnside's count of the classes over the renamings that keep every range: exact on a whole sample when
    # they are all the renamings that keep the board and dead cards, within a few percent on a sample of
    # 4,096 deals, and never fewer than there are.
    combos, found, known = _deals_of(players, board, dead)
    holes = np.stack([c[found[:, i]] for i, c in enumerate(combos)], axis=1).astype(np.uint8)
    classes = len(suit_classes(holes, known, parse_cards(dead))[0])
    estimate = counting.estimate_classes(combos, found, known, parse_cards(dead))
    if len(found) <= counting.CLASS_SAMPLE and "AhKh,AsQs" not in players:
        assert round(estimate) == classes
    assert classes * 0.95 <= estimate <= classes * (1.05 if "AhKh,AsQs" not in players else len(found))


def test_work_prices_the_route_deals_take(both: tuple[Tables, Tables]) -> None:
    # Counting (the C backend) scores one deal of each suit class per rank multiset and player; listing (the
    # numpy backend) walks every board for every combo and scores every deal on it.
    c, ref = both
    combos, found, known = _deals_of(["random", "AA"])
    listed = comb(52, 5) * (1326 + len(found) * 2)
    assert cost.work(combos, known, [], found, game=resolve(HOLDEM, ref)) == listed
    # The short deck lists boards of its own 36 cards.
    assert cost.work(combos, known, [], found, game=resolve("short-deck", c)) == comb(36, 5) * (1326 + 14700)
    counted = cost.work(combos, known, [], found, game=resolve(HOLDEM, c))
    assert round(counted) == 469 * comb(17, 5) * 2 * cost.COUNTED_STEP  # 469 classes of 7,350 deals
    # Counting them takes a fifth of a second, listing them many seconds: method="auto" enumerates on the
    # route that counts and samples on the one that lists.
    assert counted <= AUTO_EXACT_WORK < listed
    counts = equity(["random", "AA"], samples=20_000, seed=3, tables=c)
    assert counts[0].stderr == 0 and counts[0].games == len(found) * comb(48, 5)
    lists = equity(["random", "AA"], samples=20_000, seed=3, tables=ref)
    assert lists[0].stderr > 0 and lists[0].games == 20_000


def test_too_many_deals_to_enumerate() -> None:
    with pytest.raises(ValueError, match="more than 2,000,000 deals"):
        equity(["random", "random", "random"], board="2c 3d 4h 5s 6c", method="exact")


def test_ranges_agree_across_backends(both: tuple[Tables, Tables]) -> None:
    c, ref = both
    cases = [
        (["QQ+,AKs", "AK"], "Qh 7c 2d", ""),
        (["JJ-99", "AhKh,AsQs", "T9s"], "2h 3h 4d Ts", "Jc"),
        (["[50]AKs,QQ[/50]", "22", "AsKd"], "Ks 8c", "2c 3c 4c 5c 6c 7c 8d 9d Td Jd Qd"),
    ]
    for players, board, dead in cases:
        got = equity(players, board=board, dead=dead, method="exact", tables=c, threads=2)
        want = equity(players, board=board, dead=dead, method="exact", tables=ref, threads=1)
        assert got == want, players


def test_range_kernels_refuse_bad_arguments(both: tuple[Tables, Tables]) -> None:
    walker = walker_of(both[0])
    starts, held = np.zeros(2, dtype=np.uint32), np.array([3, 12], dtype=np.uint64)
    free, pre = np.arange(10, 20, dtype=np.uint8), np.array([5], dtype=np.uint8)
    out = np.empty((2, 120), dtype=np.uint16)  # C(10, 3) draws per combo
    walker.range_values(starts, held, 3, pre, free, out)  # a well-formed call, for contrast
    with pytest.raises(ValueError, match="one row per combo"):
        walker.range_values(starts, held, 3, pre, free, out.ravel()[:239])
    with pytest.raises(ValueError, match="distinct cards of the deck"):
        walker.range_values(starts, held, 3, np.array([12], dtype=np.uint8), free, out)
    with pytest.raises(ValueError, match="not a node of that depth"):
        walker.range_values(np.array([10**8, 0], dtype=np.uint32), held, 3, pre, free, out)
    with pytest.raises(ValueError, match="uint32 starts"):
        walker.range_values(starts.astype(np.int64), held, 3, pre, free, out)
    values = np.ones((3, 5), dtype=np.uint16)
    counts, games = np.zeros((1, 2, 3), dtype=np.int64), np.zeros(1, dtype=np.int64)
    with pytest.raises(ValueError, match="names a row"):
        walker.score_tuples(values, np.array([[0, 3]], dtype=np.int32), counts, games)
    with pytest.raises(ValueError, match="counts must be"):
        walker.score_tuples(values, np.array([[0, 1]], dtype=np.int32), counts[0, :1].copy(), games)
    walker.score_tuples(values, np.array([[0, 1]], dtype=np.int32), counts, games)
    assert counts.tolist() == [[[0, 5, 5 * 1260], [0, 5, 5 * 1260]]] and games.tolist() == [5]


# ---------------------------------------------------------------- short deck


def test_short_deck_preflop_heads_up_over_every_board() -> None:
    # Every one of the C(32, 5) boards, valued by the game's batch walk: an independent route.
    from twoplustwo.hands.batch import evaluate_batch

    hands = [[51, 47], [42, 41]]  # As Ks, Qh Qd
    rest = [c for c in range(16, 52) if c not in (51, 47, 42, 41)]
    boards = np.array(list(combinations(rest, 5)), dtype=np.uint8)
    assert len(boards) == comb(32, 5) == 201_376
    for game in ("short-deck", "short-deck-classic"):
        a, b = (evaluate_batch(np.hstack([np.tile(np.array(h, np.uint8), (len(boards), 1)), boards]), game=game)
                for h in hands)
        ak, qq = equity(hands, game=game)
        assert (ak.games, ak.wins, ak.ties, qq.wins) == (len(boards), (a > b).sum(), (a == b).sum(), (b > a).sum())


@pytest.mark.parametrize("game", ["short-deck", "short-deck-classic"])
def test_short_deck_ranges_against_brute_force(game: str) -> None:
    # The range keeps its combos of six and up; a deuce range would be empty.
    board, players = "Ts 9c 6d 7h", ["AK,QQ", "88,JTs"]
    got = equity(players, board=board, game=game)
    known = parse_cards(board)
    live = [[c for c in parse_range(p).combos.tolist() if min(c) >= 16 and not set(c) & set(known)] for p in players]
    games = wins = ties = 0
    for x in live[0]:
        for y in live[1]:
            if set(x) & set(y):
                continue
            for river in (c for c in range(16, 52) if c not in set(x) | set(y) | set(known)):
                vx, vy = (evaluate(h + known + [river], game=game) for h in (x, y))
                games, wins, ties = games + 1, wins + (vx > vy), ties + (vx == vy)
    assert (got[0].games, got[0].wins, got[0].ties) == (games, wins, ties)
    with pytest.raises(ValueError, match=f"player 2: no combo of 22 is left .* and the {game} deck"):
        equity(["AsKs", "22"], game=game)
    with pytest.raises(ValueError, match=rf"hand 2: card 0 \('2c'\): not in the {game} deck"):
        equity(["AsKs", "2c 2d"], game=game)


def test_long_enumerations_and_sampling_show_progress_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from twoplustwo import progress

    equity(["QQ+", "AKs"], board="2c")  # not a terminal: no bar
    assert capsys.readouterr().err == ""
    pytest.importorskip("tqdm")
    monkeypatch.setattr(progress, "is_terminal", lambda stream: True)
    monkeypatch.setattr(progress, "DELAY", 0)
    equity(["QQ+", "AKs"], board="2c")
    # The C backend counts deals (odds.counting.count_showdowns); the numpy one lists boards.
    assert ("deals" if backend() == "c" else "boards") in capsys.readouterr().err
    equity(["QQ+", "AKs"], method="monte-carlo", samples=100_000, seed=1)
    assert "games" in capsys.readouterr().err
    equity(["QQ+", "AKs"], board="2c", quiet=True)
    equity(["QQ+", "AKs"], method="monte-carlo", samples=100_000, seed=1, quiet=True)
    assert capsys.readouterr().err == ""


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 3),
    board_size=st.sampled_from([4, 5]),
    sizes=st.lists(st.integers(1, 4), min_size=3, max_size=3),
    halves=st.lists(st.booleans(), min_size=12, max_size=12),
    deck=st.permutations(list(range(52))),
)
def test_random_small_ranges_against_brute_force(
    players: int, board_size: int, sizes: list[int], halves: list[bool], deck: list[int]
) -> None:
    # Ranges drawn from a few shared cards, so that deals clash often.
    board, pool_cards = deck[:board_size], deck[board_size : board_size + 7]
    pairs = list(combinations(pool_cards, 2))
    ranges = []
    for i in range(players):
        rows = [pairs[(7 * i + 5 * k) % len(pairs)] for k in range(sizes[i])]
        weights = [0.5 if halves[4 * i + k] else 1.0 for k in range(sizes[i])]
        ranges.append(str(Range.from_combos(rows, weights)))
    board_text = format_cards(board)
    # As Range objects: the text of a one-combo range would read as a hand.
    as_ranges = [parse_range(r) for r in ranges]
    try:
        want, per_combo = brute_force_ranges(ranges, board_text)
    except ZeroDivisionError:  # no compatible deal: equity must say so
        with pytest.raises(ValueError, match="no deal"):
            equity(as_ranges, board=board_text, method="exact")
        return
    got = equity(as_ranges, board=board_text, method="exact")
    for r, (games, wins, ties, share), combos in zip(got, want, per_combo):
        assert (r.games, r.wins, r.ties) == pytest.approx((games, wins, ties), rel=1e-12)
        assert r.equity == pytest.approx(share, rel=1e-12)
        assert r.combos is not None and r.combo_equity is not None
        for c, e in zip(r.combos.tolist(), r.combo_equity.tolist()):
            assert np.isnan(e) if tuple(c) not in combos else e == pytest.approx(combos[tuple(c)], rel=1e-12)


# ---------------------------------------------------------------- memory

PEAK_GROWTH = """
import sys
import twoplustwo as tp

def peak_mib():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM"):
            return int(line.split()[1]) / 1024

tp.equity(["AA", "KK"], board="2c 7d 9h 3s", method="exact", threads=1)  # tables mapped outside the measurement
before = peak_mib()
hero, _ = tp.equity(["random", "random"], board="2c 7d 9h 3s", method="exact", threads=int(sys.argv[1]), quiet=True)
print(peak_mib() - before, hero.wins)
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="no /proc/self/status to read the peak RSS")
def test_range_counters_do_not_grow_with_threads() -> None:
    # 1,167,480 deals of random against random on the turn: 56 MB of
    # counters, where the tables and the rest of the call take a few.
    grew, wins = {}, {}
    for threads in (1, 8):
        r = subprocess.run(
            [sys.executable, "-c", PEAK_GROWTH, str(threads)], capture_output=True, text=True, timeout=120
        )
        assert r.returncode == 0, r.stderr
        mib, won = r.stdout.split()
        grew[threads], wins[threads] = float(mib), int(won)
    assert wins[8] == wins[1]
    assert grew[8] <= 1.2 * grew[1] + 16, f"peak RSS grew {grew[1]:.0f} MiB on 1 thread, {grew[8]:.0f} MiB on 8"


def test_parts_share_counters_within_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    from twoplustwo.odds import exact

    for workers in (1, 2, 3, 8, 64):
        for blocks in (1, 5, 1326):
            for n_deals, n_players in ((10, 2), (1_624_350, 2), (exact.MAX_DEALS, 9)):
                groups, slices = exact.layout(workers, blocks, n_deals, n_players)
                size = n_deals * (24 * n_players + 8)
                assert 1 <= groups <= blocks and groups * slices <= workers and slices <= n_deals
                assert groups * size <= max(exact.COUNTER_BYTES, size)
    # One set of counters shared by every thread, written in small steps,
    # over several blocks: the same counts as one thread.
    players, board = ["QQ+,AKs", "AK,T9s"], "2c"
    want = equity(players, board=board, method="exact", threads=1)
    monkeypatch.setattr(exact, "COUNTER_BYTES", 1)
    monkeypatch.setattr(exact, "SCORE_STEP", 1000)
    assert exact.layout(3, 48, 100, 2) == (1, 3)
    assert equity(players, board=board, method="exact", threads=3) == want
