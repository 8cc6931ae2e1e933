"""Equity in stud, stud hi/lo, razz and the draws (twoplustwo/odds/own_cards.py) against a brute force of every deal."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import combinations

import pytest

from twoplustwo.odds.equity import equity
from twoplustwo.vocab.cards import parse_cards
from twoplustwo.vocab.rules import rules_of

FINAL = {"stud": 7, "stud-hilo": 7, "razz": 7, "lowball-27": 5, "lowball-a5": 5, "badugi": 4}


@cache
def value(game: str, hand: tuple[int, ...]) -> int:
    """The rules' own value of a hand (no tables): stud hi/lo's high is stud's."""
    return rules_of("stud" if game == "stud-hilo" else game).value_of(list(hand))


@cache
def low(hand: tuple[int, ...]) -> tuple[int, ...] | None:
    """The best eight-or-better low as its ranks high to low (ace = 1; smaller is better), or None."""
    ranks = sorted({1 if c >> 2 == 12 else (c >> 2) + 2 for c in hand})
    five = ranks[:5]
    return tuple(reversed(five)) if len(five) == 5 and five[-1] <= 8 else None


def brute_force(game: str, hands: list[str], dead: str | list[int]) -> list[tuple[int, int, int, Fraction]]:
    """(games, wins, ties, equity) per player over every deal of every player's missing cards, listed one by one."""
    known = [parse_cards(h) if h != "random" else [] for h in hands]
    out = parse_cards(dead)
    used = {c for h in known for c in h} | set(out)
    rest = [c for c in range(52) if c not in used]
    n = len(known)
    games, wins, ties, shares = 0, [0] * n, [0] * n, [Fraction(0)] * n

    def deal(i: int, left: list[int], full: list[tuple[int, ...]]) -> None:
        nonlocal games
        if i == n:
            share = pot_shares(game, full)
            games += 1
            for p in range(n):
                wins[p] += share[p] == 1
                ties[p] += 0 < share[p] < 1
                shares[p] += share[p]
            return
        for draw in combinations(left, FINAL[game] - len(known[i])):
            deal(i + 1, [c for c in left if c not in draw], [*full, tuple(sorted(known[i] + list(draw)))])

    deal(0, rest, [])
    return [(games, wins[p], ties[p], shares[p] / games) for p in range(n)]


def pot_shares(game: str, hands: list[tuple[int, ...]]) -> list[Fraction]:
    high = [value(game, h) for h in hands]
    top = [v == max(high) for v in high]
    lows = [low(h) for h in hands] if game == "stud-hilo" else [None] * len(hands)
    qualified = [x for x in lows if x is not None]
    pot = Fraction(1, 2) if qualified else Fraction(1)
    share = [pot * t / top.count(True) for t in top]
    if qualified:
        best = min(qualified)
        share = [s + Fraction(1, 2) * (x == best) / lows.count(best) for s, x in zip(share, lows)]
    return share


def dead_but(hands: list[str], keep: str) -> list[int]:
    """Every card but the hands' and ``keep``: dead, so that the brute force lists few deals."""
    live = {c for h in hands if h != "random" for c in parse_cards(h)} | set(parse_cards(keep))
    return [c for c in range(52) if c not in live]


@pytest.mark.parametrize(
    ("game", "hands", "keep"),
    [
        ("stud", ["As Ad 3c 4h 5s 9d", "Kh Kd 8c 9s Tc 2s"], None),  # one card to come each, the whole deck
        ("stud", ["As Ad Kc 7d 7s", "Qh Qd Jd Td 9d", "Kd 6c 6h 5h 4h"], "Ah Kh Qs Jh 8d 6d 3d 2d 2h 6s"),  # 3 players
        ("razz", ["As 2d 3c 4h Kd", "5s 6d 7c 8h 9d"], "2s 3s 4d 6h 7h 8s Ts Js Qs Kc"),  # two to come each
        ("razz", ["As 2d 3c 4h Kd Ks", "5s 6h 7s 8c 9s Qd", "Ah 2s Jd Js Qh Kc"], "2c 3d 4s 5c 6d 7d 9h Tc"),
        ("stud-hilo", ["As 2d 3c 4h Kd Ks", "5s 6h 7s 8c 9s Qd"], None),  # a low against a low draw
        ("stud-hilo", ["Ah Ad Kd Kh Qd", "2s 3s 4d 6h Jd"], "Ac Kc 5d 7h 8h 9c Jc Js Qh Qs"),  # scoops and splits
        ("stud-hilo", ["As Ac 2d 2s Kd Kh", "Ad 3c 3s 6h 8c Qc", "Qd Jd Js 8h Ks Kc"], "4c 5c 5h 7d 7s 9d Td Ah"),
        ("lowball-27", ["7s 5d 4c 3h", "8s 6d 4h 2s"], None),  # one draw against one
        ("lowball-27", ["7s 5d 4c", "8s 6h 4h 2s"], None),  # two against one
        ("lowball-27", ["7s 5d 4c 3h", "8s 6h 4h", "Qs 9d"], "2c 2d 3c 5c 6c 7c 9h"),  # three players
        ("lowball-a5", ["As 2d 3c 4h", "Ac 2s 3h 6h"], None),  # the wheel draw against a six
        ("lowball-a5", ["As 2d 3c", "Ac Kc Qd Js", "random"], "2c 3d 4d 5d 6d 7d 8d 9d Td 4c"),  # a random hand
        ("badugi", ["As 2d 3c", "Ac 2s 3h 6h"], None),  # one draw against a made badugi
        ("badugi", ["As 2d", "random", "Kh"], "2c 3c 3h 4h 4s 5d 6c 7h 8s 9d"),  # three players, one random
    ],
)
def test_exact_against_brute_force(game: str, hands: list[str], keep: str | None) -> None:
    dead = [] if keep is None else dead_but(hands, keep)
    got = equity(hands, game=game, dead=dead, method="exact")
    want = brute_force(game, hands, dead)
    for r, (games, wins, ties, share) in zip(got, want):
        assert (r.games, r.wins, r.ties) == (games, wins, ties)
        assert r.equity == pytest.approx(float(share), rel=1e-12, abs=1e-15) and r.stderr == 0
    assert sum(r.equity for r in got) == pytest.approx(1)


def test_stud_hilo_pots() -> None:
    # Nothing to come: each deal is one showdown. A wheel scoops a pair; two wheels split both halves
    # (each takes half); a low and a high split (each takes half); no low gives the high the whole pot.
    def pots(a: str, b: str) -> list[tuple[int, int, float]]:
        return [(r.wins, r.ties, r.equity) for r in equity([a, b], game="stud-hilo")]

    assert pots("As 2d 3c 4h 5s Kd Qc", "Kh Kc 9d 9s Jd Jh Ts") == [(1, 0, 1.0), (0, 0, 0.0)]
    assert pots("As 2d 3c 4h 5s Kd Qc", "Ad 2s 3h 4c 5d Kh Qs") == [(0, 1, 0.5), (0, 1, 0.5)]
    assert pots("As 2d 3c 4h 7s Kd Qc", "Kh Kc Ks 9s Jd Jh Ts") == [(0, 1, 0.5), (0, 1, 0.5)]
    assert pots("As 2d 3c 4h 9s Kd Qc", "Kh Kc 2s 9d Jd Jh Ts") == [(0, 0, 0.0), (1, 0, 1.0)]
    # A tied high beside a low won alone: three quarters and a quarter.
    assert pots("3d 4c 5h 6s 7s Ad Kc", "3h 4s 5d 6h 7c Qd Qh") == [(0, 1, 0.75), (0, 1, 0.25)]


@pytest.mark.parametrize(
    ("game", "hands", "keep"),
    [
        ("razz", ["As 2d 3c 4h Kd", "5s 6d 7c 8h 9d"], ""),  # the whole deck
        ("stud-hilo", ["As 2d 3c 4h Kd", "5s 6d 7c 8h 9d", "Ah Ac Kc Ks Qh"], "2c 3d 4s 5c 6h 7d 8s 9c Tc Td Jd Qd"),
        ("badugi", ["As 2d", "random"], "2c 3c 3h 4h 4s 5d 6c 7h 8s 9d Tc Jd Qh Ks"),
    ],
)
def test_monte_carlo_within_five_standard_errors(game: str, hands: list[str], keep: str) -> None:
    dead = dead_but(hands, keep) if keep else []
    exact = equity(hands, game=game, dead=dead, method="exact")
    sampled = equity(hands, game=game, dead=dead, method="monte-carlo", samples=40_000, seed=11)
    for e, s in zip(exact, sampled):
        assert s.games == 40_000 and 0 < s.stderr < 0.01
        assert abs(s.equity - e.equity) < 5 * s.stderr


@pytest.mark.parametrize(
    ("game", "hands"),
    [
        ("razz", ["As 2d 3c 4h", "Kh 7d 8c 9c"]),
        ("stud", ["As Ad 3c 4h 5s", "Kh Kd 8c 9s Tc"]),
        ("lowball-a5", ["As 2d", "Kh 7d 8c 9c"]),
        ("badugi", ["random", "Kh 7d"]),
    ],
)
def test_heads_up_counts_equal_listing(game: str, hands: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from twoplustwo.odds import own_cards

    dead = dead_but(hands, "2c 2h 3d 3h 4s 4d 5c 5h 6s 6d 7c 7h 8s 8d Ts Jd Qh")
    counted = equity(hands, game=game, dead=dead, method="exact")
    monkeypatch.setattr(own_cards, "COUNT_ENTRIES", 0)  # every deal listed instead
    listed = equity(hands, game=game, dead=dead, method="exact")
    assert [(r.games, r.wins, r.ties, r.equity) for r in counted] == [
        (r.games, r.wins, r.ties, r.equity) for r in listed
    ]


def test_seed_reproducible_on_any_threads() -> None:
    hands = ["As 2d 3c", "Kh 7d 8c"]
    one = equity(hands, game="razz", method="monte-carlo", samples=70_000, seed=5, threads=1)
    two = equity(hands, game="razz", method="monte-carlo", samples=70_000, seed=5, threads=2)
    other = equity(hands, game="razz", method="monte-carlo", samples=70_000, seed=6, threads=2)
    assert [(r.wins, r.ties, r.equity, r.stderr) for r in one] == [(r.wins, r.ties, r.equity, r.stderr) for r in two]
    assert [r.wins for r in one] != [r.wins for r in other]


def test_auto_enumerates_small_and_samples_large() -> None:
    small = equity(["As 2d 3c 4h Kd", "5s 6d 7c 8h 9d"], game="razz")
    assert (small[0].games, small[0].stderr) == (861 * 780, 0)  # C(42, 2) completions, then C(40, 2)
    # Heads-up (but in hi/lo) every deal is counted, however many: razz from third street.
    counted = equity(["As 2d 3c", "Kh 7d 8c"], game="razz")
    assert (counted[0].games, counted[0].stderr) == (163_185 * 111_930, 0)  # C(46, 4) x C(42, 4)
    large = equity(["As 2d 3c", "Kh 7d 8c"], game="stud-hilo", stderr=0.01, seed=1)
    assert large[0].stderr > 0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"board": "2h 3h 4h"}, "razz has no board"),
        ({"players": ["As 2d 3c 4h 5s 6d 7c 8h", "Kh"]}, "player 1: a razz player holds at most 7 cards, got 8"),
        ({"players": ["As 2d 3c", "As 7d"]}, "As is in both hand 1 and hand 2"),
        ({"dead": "2d"}, "2d is in both hand 1 and the dead cards"),
        ({"players": ["As 2d 3c", "Zz"]}, "player 2: "),
        ({"players": ["As 2d 3c", [52]]}, "player 2: "),
        ({"players": ["As 2d 3c"]}, "equity needs 2 to 9 players, got 1"),
        ({"players": ["random"] * 8}, "only 52 cards left to deal, the players need 56 more"),
        ({"players": ["AA", "KK"]}, "player 1: "),
        ({"game": "razzle"}, "equity plays holdem"),
        ({"method": "exact", "players": ["random", "random"]}, "use method='monte-carlo'"),
    ],
)
def test_bad_input(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"players": ["As 2d 3c", "Kh 7d 8c"], "game": "razz", **kwargs}
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        equity(**args)  # type: ignore[arg-type]
