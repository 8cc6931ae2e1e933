"""The new games through the public API: values at their ends, words, categories, bad input.

The exhaustive checks against the builder's oracles are tests/builder/test_low_games_oracle.py's; these
need the tables and the runtime only, and run on each backend as every test of tests/hands does.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import twoplustwo as tp
from twoplustwo.vocab.rules import rules_of


@pytest.mark.parametrize(
    ("game", "best", "worst", "values"),
    [
        ("stud", "As Ks Qs Js Ts 2c 3d", "7c 5d 4h 3s 2c", 7462),
        ("razz", "As 2d 3c 4h 5s Kd Kh", "Kc Kd Kh Ks Qc", 6175),
        ("lowball-a5", "5c 4d 3h 2s Ac", "Kc Kd Kh Ks Qc", 6175),
        ("lowball-27", "7c 5d 4h 3s 2c", "As Ks Qs Js Ts", 7462),
        ("badugi", "Ac 2d 3h 4s", "Kc Kd Kh Ks", 1092),
    ],
)
def test_each_scale_runs_from_its_worst_hand_to_its_best(game: str, best: str, worst: str, values: int) -> None:
    rules = rules_of(game)
    assert rules.values == values
    assert tp.evaluate(best, game=game) == values
    assert tp.evaluate(worst, game=game) == 1
    assert tp.evaluate_batch(np.array([tp.parse_cards(best)]), game=game).tolist() == [values]


def test_the_lows_go_by_their_own_rules() -> None:
    # Deuce-to-seven: the ace is only high and A-2-3-4-5 no straight; straights and flushes count against.
    wheel = tp.evaluate("Ac 2d 3h 4s 5c", game="lowball-27")
    assert tp.describe(wheel, game="lowball-27").description == "A-5-4-3-2"
    assert tp.evaluate("8c 6d 4h 3s 2c", game="lowball-27") > tp.evaluate("Kc Qd Jh 9s 8c", game="lowball-27") > wheel
    assert tp.evaluate("7c 6d 5h 4s 3c", game="lowball-27") < tp.evaluate("Ac Kd Qh Js 9c", game="lowball-27")
    assert tp.evaluate("7c 5c 4c 3c 2c", game="lowball-27") < tp.evaluate("Ac Kd Qh Js 9c", game="lowball-27")
    # Ace-to-five: straights and flushes do not count, pairs do; a pair of aces is the best pair.
    assert tp.evaluate("5c 4c 3c 2c Ac", game="lowball-a5") == 6175
    assert tp.evaluate("Ac Ad 2c 3c 4c", game="lowball-a5") > tp.evaluate("2c 2d 3c 4c 5c", game="lowball-a5")
    assert tp.evaluate("Kc Qd Jh Ts 9c", game="lowball-a5") > tp.evaluate("Ac Ad 2c 3c 4c", game="lowball-a5")
    # Razz plays the best five of seven; badugi's larger sets win, then the lower cards.
    assert tp.evaluate("8c 6d 4h 3s Ac Kd Kh", game="razz") == tp.evaluate("8c 6d 4h 3s Ac", game="lowball-a5")
    assert tp.evaluate("Kc Qd Jh Ts", game="badugi") > tp.evaluate("Ac 2d 3h 4h", game="badugi")


def test_describe_says_each_game_as_players_do() -> None:
    said = {
        ("lowball-27", "7c 5d 4h 3s 2c"): "7-5-4-3-2",
        ("lowball-27", "8c 6d 4h 3s 2c"): "8-6 low: 8-6-4-3-2",
        ("lowball-27", "Ac Ad 3h 4s 5c"): "Pair of aces, five, four and three kickers",
        ("razz", "8c 6d 4h 3s Ac Kd Kh"): "8-6 low: 8-6-4-3-A",
        ("lowball-a5", "Ac Ad 3h 4s 5c"): "Pair of aces, five, four and three kickers",
        ("badugi", "7c 4d 2h 2s"): "three-card badugi 7-4-2",
        ("badugi", "Ac 2d 3h 4s"): "badugi 4-3-2-A",
        ("stud", "Ah Ad Kc Kd Ks"): "Full house, kings full of aces",
    }
    for (game, hand), words in said.items():
        d = tp.describe(tp.evaluate(hand, game=game), game=game)
        assert d.description == words == str(d)
        assert d.cactus_kev_rank == rules_of(game).values + 1 - d.value
    assert tp.describe(6175, game="razz").category is None
    assert str(tp.category_of(1, game="lowball-27")) == "straight_flush"
    assert tp.categories([1, 378, 1092], game="badugi").tolist() == [0, 3, 3]
    for game in ("razz", "lowball-a5"):
        with pytest.raises(ValueError, match=f"^{game} values have no categories"):
            tp.categories([1], game=game)


def test_stud_hilo_splits_with_the_eight_or_better_low() -> None:
    hand = "As 2d 3c 4h 5s Kd Kh"
    assert tp.evaluate(hand, game="stud-hilo") == tp.evaluate(hand, game="stud") == tp.evaluate(hand)
    assert tp.evaluate_low(hand) == 56 and tp.evaluate_low("As 2d 3c 4h 9s Kd Kh") == 0
    assert tp.describe_low(tp.evaluate_low("8s 7d 6c 5h 4s Kd Kh")) == "8-7-6-5-4"
    assert tp.evaluate_low_batch(np.array([tp.parse_cards(hand)], dtype=np.int16)).tolist() == [56]


BAD: list[tuple[Callable[[], object], str]] = [
    (lambda: tp.evaluate("As 2d 3c 4h 5s 6s", game="lowball-27"), "^a lowball-27 hand has 5 cards, got 6$"),
    (lambda: tp.evaluate("As 2d 3c 4h 5s", game="badugi"), "^a badugi hand has 4 cards, got 5$"),
    (lambda: tp.evaluate("As 2d 3c", game="razz"), "^a hand has 5, 6 or 7 cards, got 3$"),
    (lambda: tp.evaluate([0, 1, 2, 52], game="badugi"), r"^card 3 \(52\): out of range 0\.\.51$"),
    (lambda: tp.evaluate("As As 3c 4h", game="badugi"), "duplicate"),
    (lambda: tp.evaluate_batch([[0, 1, 2, 3, 4]], game="badugi"), r"^hands must be an \(N, k\) array with k = 4"),
    (lambda: tp.evaluate_batch([[0, 1, 2, 3, 4, 5]], game="lowball-a5"), "with k = 5, got shape"),
    (lambda: tp.evaluate_batch([[0, 1, 2, 3, 60]], game="lowball-27"), "^hand 0, card 4: 60 is out of range"),
    (lambda: tp.evaluate_batch([[0, 1, 2, 3, 4, 5, 0]], game="razz"), "^hand 0: duplicate card"),
    (lambda: tp.evaluate_low("As 2d 3c 4h"), "^a stud-hilo hand has 5, 6 or 7 cards, got 4$"),
    (lambda: tp.evaluate_low_batch([[0, 1, 2, 3, 99]]), r"^hand 0: \[0, 1, 2, 3, 99\]"),
    (lambda: tp.count_hands(7, game="lowball-27"), "^n must be a lowball-27 hand size, 5, got 7$"),
    (lambda: tp.describe(1093, game="badugi"), r"^hand value must be an int in 1\.\.1092, got 1093$"),
]


@pytest.mark.parametrize(("call", "message"), BAD)
def test_bad_input_is_a_clear_value_error(call: Callable[[], object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()
