"""Exact Hold'em equity against a published result and a brute-force loop."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twoplustwo.cards import format_cards, parse_cards
from twoplustwo.equity import PlayerEquity, equity, equity_table
from twoplustwo.evaluate import evaluate


def brute_force(
    hands: list[str], board: str = "", dead: str = ""
) -> list[tuple[int, int, int, Fraction]]:
    """(boards, wins, ties, shares) per player, one evaluate() per player and board."""
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
    return [(boards, wins[i], ties[i], shares[i]) for i in range(n)]


def _as_tuples(results: list[PlayerEquity]) -> list[tuple[int, int, int, Fraction]]:
    return [(r.boards, r.wins, r.ties, r.shares) for r in results]


def test_aces_against_kings_preflop() -> None:
    aa, kk = equity(["AsAh", "KdKc"])
    assert (aa.boards, aa.wins, aa.ties, aa.losses) == (1_712_304, 1_388_072, 6_538, 317_694)
    assert (kk.boards, kk.wins, kk.ties, kk.losses) == (1_712_304, 317_694, 6_538, 1_388_072)
    assert aa.shares == Fraction(2 * 1_388_072 + 6_538, 2)
    assert aa.shares + kk.shares == aa.boards
    assert aa.win == pytest.approx(1_388_072 / 1_712_304)
    assert aa.tie == pytest.approx(6_538 / 1_712_304)
    assert aa.equity + kk.equity == pytest.approx(1.0)
    assert aa.hand == (51, 50)


def test_symmetry_preflop() -> None:
    ab = equity(["Ah Kh", "7c 7d"])
    ba = equity(["7c 7d", "Ah Kh"])
    assert _as_tuples(ab) == _as_tuples(ba)[::-1]
    assert ab[0].boards == comb(48, 5)


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
    assert sum(r.shares for r in results) == results[0].boards


def test_multiway_symmetry_and_nine_players_preflop() -> None:
    hands = ["AsAh", "KdKc", "QsQh", "JdJc", "Tc9c", "8h7h", "6d5d", "4s3s", "2c2d"]
    results = equity(hands)
    assert results[0].boards == comb(52 - 18, 5)
    assert sum(r.shares for r in results) == results[0].boards
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
    assert "As Ah" in str(aa) and "907 wins" in str(aa) and "990 boards" in str(aa)
    assert repr(aa).startswith("PlayerEquity(hand='As Ah', boards=990, wins=907, ties=0")
    lines = equity_table([aa, kk]).splitlines()
    assert len(lines) == 3 and lines[0].split()[0] == "hand" and lines[2].startswith("Kd Kc")
    with pytest.raises(AttributeError):
        aa.wins = 0  # type: ignore[misc]


@pytest.mark.parametrize(
    "args, kwargs, message",
    [
        ((["AsAh", "AsKd"],), {}, "As is in both hand 1 and hand 2"),
        ((["AsAh", "KdKc"],), {"board": "Kd 2c 3c"}, "Kd is in both hand 2 and the board"),
        ((["AsAh", "KdKc"],), {"dead": "Ah"}, "Ah is in both hand 1 and the dead cards"),
        ((["AsAh", "KdKc"],), {"board": "2c 3c 4c", "dead": "4c"}, "4c is in both the board and the dead"),
        ((["AsAhKs", "KdKc"],), {}, "hand 1: a Hold'em hand has 2 hole cards, got 3"),
        ((["AsAh", "Kd"],), {}, "hand 2: a Hold'em hand has 2 hole cards, got 1"),
        ((["AsAh", "KdKd"],), {}, "hand 2: .*duplicate"),
        ((["AsAh", "KdXc"],), {}, "hand 2: .*unknown rank"),
        ((["AsAh"],), {}, "2 to 9 hands, got 1"),
        (([],), {}, "2 to 9 hands, got 0"),
        (([f"{r}c {r}d" for r in "23456789TJ"],), {}, "2 to 9 hands, got 10"),
        (("AsAh KdKc",), {}, "sequence of hands"),
        ((["AsAh", "KdKc"],), {"board": "2c"}, "0, 3, 4 or 5 cards, got 1"),
        ((["AsAh", "KdKc"],), {"board": "2c 3c"}, "0, 3, 4 or 5 cards, got 2"),
        ((["AsAh", "KdKc"],), {"board": "2c 3c 4c 5c 6c 7c"}, "0, 3, 4 or 5 cards, got 6"),
        (
            (["AsAh", "KdKc"],),
            {"dead": list(range(44))},
            "only 4 cards left, the board needs 5 more",
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
    assert results[0].boards == comb(4, 2)
    assert _as_tuples(results) == brute_force(["AsAh", "KdKc"], "2c 2d 2h", _names(dead))
