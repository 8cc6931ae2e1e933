"""Omaha equity, high and hi/lo, against a brute force over every hole pair and board triple."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from twoplustwo.hands.batch import evaluate
from twoplustwo.kernels.pots import HILO_UNIT, hilo_shares
from twoplustwo.odds.equity import equity
from twoplustwo.vocab.cards import parse_cards
from twoplustwo.vocab.ranges import parse_range


def best_high(hole: list[int], board: list[int]) -> int:
    return max(evaluate(list(h) + list(b)) for h in combinations(hole, 2) for b in combinations(board, 3))


def best_low(hole: list[int], board: list[int]) -> tuple[int, ...] | None:
    """The best eight-or-better low as its ranks high to low (ace = 1; smaller is better), or None."""
    lows = []
    for h in combinations(hole, 2):
        for b in combinations(board, 3):
            ranks = sorted({1 if c >> 2 == 12 else (c >> 2) + 2 for c in h + b}, reverse=True)
            if len(ranks) == 5 and ranks[0] <= 8:
                lows.append(tuple(ranks))
    return min(lows) if lows else None


def brute_force(hands: list[str], board: str, dead: str, hilo: bool) -> list[tuple[int, int, int, float]]:
    holes = [parse_cards(h) for h in hands]
    known, out = parse_cards(board), parse_cards(dead)
    used = {c for h in holes for c in h} | set(known) | set(out)
    rest = [c for c in range(52) if c not in used]
    n = len(holes)
    games, wins, ties, shares = 0, [0] * n, [0] * n, [0.0] * n
    for draw in combinations(rest, 5 - len(known)):
        full = known + list(draw)
        high = [best_high(h, full) for h in holes]
        top = [v == max(high) for v in high]
        share = [0.0] * n
        low = [best_low(h, full) for h in holes] if hilo else [None] * n
        qualified = [x for x in low if x is not None]
        pot = 0.5 if qualified else 1.0
        for i in range(n):
            share[i] += pot * top[i] / top.count(True)
        if qualified:
            best = min(qualified)
            for i in range(n):
                share[i] += 0.5 * (low[i] == best) / low.count(best)
        games += 1
        for i in range(n):
            wins[i] += share[i] == 1.0
            ties[i] += 0 < share[i] < 1
            shares[i] += share[i]
    return [(games, wins[i], ties[i], shares[i] / games) for i in range(n)]


@pytest.mark.parametrize("hilo", [False, True])
@pytest.mark.parametrize(
    ("hands", "board", "dead"),
    [
        (["As Kh Qs 2d", "Ah Ks 5c 4c"], "2h 3d 4d", ""),  # a low draw against a high draw
        (["Ac 2c 3d Kd", "Ad 2d 8h 8s", "Ts 9s 7c 6c"], "4c 5h Qs", "Jd"),  # quartered lows
        (["Ac 2c 3d Kd 9h", "As 2h 3c 4s Qd"], "5c 6d 7h Ks", ""),  # PLO5, turn: both make lows
        (["Ac 2c 3d Kd 9h Th", "Qs Qd Jc Jh 8c 7d"], "Kc Ks 8d Jd", ""),  # PLO6, board pairs
        (["Kh Kd 2s 3s", "Qh Jh Th 9c"], "Ah 8h 7c 6d 5s", ""),  # the river: one board
    ],
)
def test_against_brute_force(hands: list[str], board: str, dead: str, hilo: bool) -> None:
    game = "omaha-hilo" if hilo else "omaha"
    got = equity(hands, board=board, dead=dead, game=game)
    want = brute_force(hands, board, dead, hilo)
    for r, (games, wins, ties, share) in zip(got, want):
        assert (r.games, r.wins, r.ties) == (games, wins, ties)
        assert r.equity == pytest.approx(share, rel=1e-12) and r.stderr == 0
    assert sum(r.equity for r in got) == pytest.approx(1)


def test_heads_up_plo4_preflop_is_exact_over_every_board() -> None:
    a, b = equity(["As Kh Qs 2d", "Ah Ks 5c 4c"], game="omaha")
    assert a.games == b.games == 1_086_008  # C(44, 5)
    assert a.ties == b.ties and a.wins + b.wins + a.ties == a.games and a.stderr == 0
    # A pair of hands that mirror each other's suits splits exactly.
    c, d = equity(["As Ks Qs Js", "Ah Kh Qh Jh"], game="omaha-hilo")
    assert c.equity == d.equity == 0.5 and c.wins == d.wins


def test_hilo_shares_split_each_half() -> None:
    # Rows are players, columns boards.
    high = np.array([[9, 9, 5], [9, 5, 9], [1, 1, 9]], dtype=np.uint16)
    low = np.array([[0, 7, 0], [0, 7, 3], [0, 0, 3]], dtype=np.uint8)
    shares = hilo_shares(high, low)
    half, quarter = HILO_UNIT // 2, HILO_UNIT // 4
    assert shares[:, 0].tolist() == [half, half, 0]  # no low: two highs split the pot
    assert shares[:, 1].tolist() == [half + quarter, quarter, 0]  # the high alone, and a quartered low
    assert shares[:, 2].tolist() == [0, half, half]  # both halves split
    assert (shares.sum(axis=0) == HILO_UNIT).all()


@pytest.mark.parametrize(
    ("players", "kwargs", "message"),
    [
        (["As Kh Qs 2d", "QQ+"], {"game": "omaha"}, "player 2: .*unknown suit"),
        (["As Kh Qs 2d", parse_range("QQ+")], {"game": "omaha"}, "player 2: an Omaha player is a hand .* not a range"),
        (["As Kh Qs", "Ah Ks 5c 4c"], {"game": "omaha"}, "player 1: an Omaha hand has 4, 5 or 6 hole cards, got 3"),
        (["As Kh Qs 2d", "Ah Ks 5c 4c"], {"game": "omaha-hilo", "board": "As 3d 4d"}, "As is in both hand 1 and the"),
        (["As Kh Qs 2d", "Ah Ks 5c 4c"], {"game": "studd"}, "equity plays holdem, .* badugi; got game 'studd'"),
    ],
)
def test_bad_input(players: list[object], kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        equity(players, **kwargs)  # type: ignore[arg-type]
