"""Short deck through the runtime's API: ``game="short-deck"`` and ``game="short-deck-classic"``.

Category counts over every 7-card hand are written out as numbers (issue
16). The rest holds single hands, prefixes, rankings, descriptions and
errors of the C path to those of the numpy path, which is the reference.
Every hand of the 36-card deck against the builder's independent oracle
(:mod:`twoplustwo_builder.oracles.short_deck`) is a builder's test:
``tests/builder/test_games_oracle.py``.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from enum import Enum, StrEnum
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import twoplustwo as tp
from tests.vocab.test_rules import ALL_GAMES, KNOWN
from twoplustwo.cli import main
from twoplustwo.kernels import numpy as numpy_backend
from twoplustwo.kernels.games import resolve, walker_of
from twoplustwo.tables.default import clear_cache, load_tables
from twoplustwo.tables.format import MANIFEST, TableError
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.cards import format_cards, parse_cards
from twoplustwo.vocab.rules import GAMES
from twoplustwo.vocab.rules import rules_of as tp_rules
from twoplustwo.vocab.values import CATEGORY_FIRST, CATEGORY_LAST, Category

VARIANTS = ("short-deck", "short-deck-classic")

#: Seven-card hands per category over all C(36, 7) = 8,347,680, weakest category first.
COUNTS7 = {
    "short-deck": {
        "high_card": 233_100,
        "pair": 2_316_600,
        "two_pair": 3_157_056,
        "straight": 1_139_580,
        "three_of_a_kind": 637_560,
        "full_house": 633_024,
        "flush": 175_560,
        "four_of_a_kind": 44_640,
        "straight_flush": 10_560,
    },
    "short-deck-classic": {
        "high_card": 233_100,
        "pair": 2_316_600,
        "two_pair": 3_157_056,
        "three_of_a_kind": 607_200,
        "straight": 1_169_940,
        "full_house": 633_024,
        "flush": 175_560,
        "four_of_a_kind": 44_640,
        "straight_flush": 10_560,
    },
}



def outcome(call: Callable[[], Any]) -> tuple[str, str]:
    try:
        value = call()
    except (ValueError, TypeError, IndexError) as e:
        return type(e).__name__, str(e)
    return "ok", repr(value.tolist() if isinstance(value, np.ndarray) else value)


def random_hands(rng: np.random.Generator, rows: int, n: int) -> np.ndarray:
    """``rows`` random hands of ``n`` distinct short-deck cards, in random order."""
    return (np.argsort(rng.random((rows, 36)), axis=1)[:, :n] + 16).astype(np.uint8)


# ------------------------------------------------- the C entry point


def test_single_calls_with_game_take_the_c_entry_point_of_the_default_tables() -> None:
    rng = np.random.default_rng(37)
    hands = random_hands(rng, 3000, 7).tolist()
    for game in VARIANTS:
        want = tp.evaluate_batch(np.array(hands, dtype=np.uint8), game=game).tolist()
        assert [tp.evaluate(h, game=game) for h in hands] == want  # past the walk-first calls, then small tables
        assert [tp.evaluate(tuple(h), game=game, tables=None) for h in hands[:50]] == want[:50]
    # A deuce still reaches the Python path, which names it.
    with pytest.raises(ValueError, match=r"card 0 \('2c'\): not in the short-deck deck"):
        tp.evaluate([0, 20, 24, 28, 32], game="short-deck")
    # A new default set drops the old set's game walkers.
    clear_cache()
    assert (
        tp.evaluate(hands[0], game="short-deck")
        == tp.evaluate_batch(np.array(hands[:1], dtype=np.uint8), game="short-deck")[0]
    )


# ------------------------------------------------------------- histograms


@pytest.mark.parametrize("game", VARIANTS)
def test_seven_card_category_counts(game: str, both: tuple[Tables, Tables]) -> None:
    names = [str(c) for c in type(tp.category_of(1, game=game))]
    for t in both:
        h = tp.histogram(7, game=game, tables=t)
        assert h.shape == (1405,) and h[0] == 0 and int(h.sum()) == 8_347_680
        per_category = np.bincount(tp.categories(np.arange(1, 1405), game=game), weights=h[1:]).astype(int)
        assert dict(zip(names, per_category.tolist())) == COUNTS7[game]
        assert list(COUNTS7[game]) == names  # weakest first, in the variant's order


def test_hands_are_counted_from_the_games_deck() -> None:
    assert tp.count_hands(7, game="short-deck") == 8_347_680
    assert tp.count_hands(5, include="Ah", dead="As", game="short-deck-classic") == comb(34, 4)
    assert tp.count_hands(6, include="6c 7c 8c 9c Tc Jc", game="short-deck") == 1
    assert tp.count_hands(7) == comb(52, 7)  # hold'em's deck stays 52 cards


# -------------------------------------------------------- single hands


def test_single_hands_equal_the_batch_path(both: tuple[Tables, Tables]) -> None:
    rng = np.random.default_rng(16)
    for n in (5, 6, 7):
        hands = random_hands(rng, 3000, n)
        for game in VARIANTS:
            want = tp.evaluate_batch(hands, game=game, tables=both[1])
            for t in both:
                rows = hands.tolist()
                assert [tp.evaluate(r, game=game, tables=t) for r in rows] == want.tolist()
                assert [tp.evaluate(tuple(r), game=game, tables=t) for r in rows[:300]] == want[:300].tolist()
                assert [tp.evaluate(format_cards(r), game=game, tables=t) for r in rows[:300]] == want[:300].tolist()
                assert [tp.evaluate(np.array(r), game=game, tables=t) for r in rows[:100]] == want[:100].tolist()
    # The default tables: the C entry point hands any game= call to Python.
    assert tp.evaluate("Ac 6d 7h 8s 9c", game="short-deck") == 877
    assert tp.evaluate("Ac 6d 7h 8s 9c", game="short-deck-classic") == 1129
    assert tp.evaluate("Ac 6d 7h 8s 9c", game="holdem") == tp.evaluate("Ac 6d 7h 8s 9c")


def test_the_rules_of_each_variant() -> None:
    for game in VARIANTS:

        def value(text: str) -> int:
            return tp.evaluate(text, game=game)  # noqa: B023

        # A flush beats a full house; the ace plays low only in A-6-7-8-9.
        assert value("6h 7h 8h 9h Jh") > value("Ah Ad Ac Kh Kd")
        assert value("Ac 6d 7h 8s 9c") < value("6d 7h 8s 9c Td")
        assert value("Ac 7d 8h 9s Tc") < value("6c 6d 7h 8s 9c")  # A-7-8-9-T is no straight: ace high
        assert value("Ah 6h 7h 8h 9h") == 1399 and value("Ah Kh Qh Jh Th") == 1404
        assert value("6c 7d 8h 9s Jc") == 1
    trips, straight, both_in_seven = "9c 9d 9h 6c 7d", "Ac 6d 7h 8s 9c", "Ac 6d 7h 8s 9c 9d 9h"
    assert tp.evaluate(trips, game="short-deck") > tp.evaluate(straight, game="short-deck")
    assert tp.evaluate(trips, game="short-deck-classic") < tp.evaluate(straight, game="short-deck-classic")
    triton = tp.evaluate(both_in_seven, game="short-deck")
    assert str(tp.category_of(triton, game="short-deck")) == "three_of_a_kind"
    assert tp.evaluate(both_in_seven, game="short-deck-classic") == 1129
    assert tp.best_five(both_in_seven, game="short-deck") == parse_cards("Ac 8s 9c 9d 9h")
    assert tp.best_five(both_in_seven, game="short-deck-classic") == parse_cards("Ac 6d 7h 8s 9c")


# -------------------------------------------------------------- bad cards

SINGLE_HANDS: list[object] = [
    "As Ks Qs Js 2c",  # a deuce
    "As Ks Qs Js 5h",  # a five, the highest rank outside the deck
    [51, 47, 43, 39, 15],
    (51, 47, 43, 39, 0, 16, 20),
    [51, 47, 43, 39, 14, 14],  # a duplicate of a card outside the deck
    [51, 47, 43, 39],  # too few cards, and all of the deck
    [51, 47, 43, 0],  # too few cards, one outside the deck
    [51, 47, 43, 39, 52],
    [51, 47, 43, 39, -1],
    [51, 47, 43, 39, 35, 35],
    [True, 47, 43, 39, 35],
    "As Ks Qs Js Xs",
    "As, Ks, Qs, Js, 10s",
    np.array([51, 47, 43, 39, 3]),
    np.array([51, 47, 43, 39, 35, 31]),
    None,
]


@pytest.mark.parametrize("hand", SINGLE_HANDS, ids=repr)
@pytest.mark.parametrize("game", VARIANTS)
def test_single_hand_outcomes_are_the_same_on_both_backends(
    hand: object, game: str, both: tuple[Tables, Tables]
) -> None:
    c, ref = both
    assert outcome(lambda: tp.evaluate(hand, game=game, tables=c)) == outcome(  # type: ignore[arg-type]
        lambda: tp.evaluate(hand, game=game, tables=ref)  # type: ignore[arg-type]
    )


def test_a_card_outside_the_deck_is_named(both: tuple[Tables, Tables]) -> None:
    for t in both:
        whole = r"^card 4 \('2c'\): not in the short-deck deck, the 36 cards from six to ace$"
        with pytest.raises(ValueError, match=whole):
            tp.evaluate("As Ks Qs Js 2c", game="short-deck", tables=t)
        with pytest.raises(ValueError, match=r"^card 1 \('5d'\): not in the short-deck-classic deck"):
            tp.evaluate([51, 13, 43, 39, 35, 31], game="short-deck-classic", tables=t)
        with pytest.raises(ValueError, match=r"^card 0 \('2c'\): not in the short-deck deck"):
            tp.evaluate([0, 1, 2, 3], game="short-deck", tables=t)  # the deck before the count
        # The same cards are fine in hold'em.
        assert tp.evaluate("As Ks Qs Js 2c", tables=t) == tp.evaluate("As Ks Qs Js 2c", game="holdem", tables=t)


BAD_BATCHES: list[object] = [
    [[51, 47, 43, 39, 35], [51, 47, 43, 39, 0]],
    [[51, 47, 43, 39, 35, 16, 17], [51, 47, 43, 15, 35, 16, 17]],
    [[51, 47, 43, 39, 35, 16], [51, 47, 43, 35, 35, 12]],  # a duplicate and a five in one row
    [[51, 47, 43, 39, 35], [51, 47, 43, 52, 0]],  # out of range before outside the deck
    [[51, 47, 43, 39, 35], [51, 47, 43, 43, 35], [0, 47, 43, 39, 35]],
    np.array([[16, 20, 24, 28, 33]] * 600_000 + [[16, 20, 24, 28, 13]], dtype=np.uint8),
    np.array([[16, 20, 24, 28, 33, 40, 44]] * 300_000 + [[16, 20, 24, 28, 33, 40, 4]], dtype=np.int64),
    [[0, 1, 2, 3, 4]],
]


@pytest.mark.parametrize("check", [True, False])
@pytest.mark.parametrize("hands", BAD_BATCHES, ids=lambda h: repr(h)[:40])
def test_batch_outcomes_are_the_same_on_both_backends(hands: object, check: bool, both: tuple[Tables, Tables]) -> None:
    c, ref = both
    for game in VARIANTS:
        for threads in (1, 2):
            got = outcome(lambda: tp.evaluate_batch(hands, check=check, game=game, tables=c, threads=threads))  # type: ignore[arg-type]  # noqa: B023
            want = outcome(lambda: tp.evaluate_batch(hands, check=check, game=game, tables=ref, threads=threads))  # type: ignore[arg-type]  # noqa: B023
            assert got == want
            if check:
                assert got[0] == "ValueError"  # every batch holds a bad row


def test_a_batch_names_the_row_and_card_outside_the_deck(both: tuple[Tables, Tables]) -> None:
    rows = np.array([[16, 20, 24, 28, 33]] * 5 + [[16, 20, 3, 28, 33]], dtype=np.uint8)
    for t in both:
        with pytest.raises(ValueError, match=r"^hand 5, card 2: 3 \(2s\) is not in the short-deck deck, the 36 cards"):
            tp.evaluate_batch(rows, game="short-deck", tables=t)
        assert tp.evaluate_batch(rows, tables=t).shape == (6,)  # hold'em takes them


def test_calls_that_take_cards_refuse_cards_outside_the_deck(both: tuple[Tables, Tables]) -> None:
    for t in both:
        for call, message in [
            (lambda: tp.prefix("As 2d", game="short-deck", tables=t), r"^card 1 \('2d'\): not"),  # noqa: B023
            (lambda: tp.prefix("As", game="short-deck", tables=t).evaluate("Ks Qs Js 5d"), r"^card 3 \('5d'\): not"),  # noqa: B023
            (lambda: tp.prefix("As", game="short-deck", tables=t).extend("4c"), r"^card 0 \('4c'\): not"),  # noqa: B023
            (
                lambda: tp.prefix("As Ks", game="short-deck", tables=t).evaluate_batch([[16, 20, 24], [16, 20, 8]]),  # noqa: B023
                r"^hand 1, card 2: 8 \(4c\) is not",
            ),
            (lambda: tp.rank_hands("As Ks 3d", game="short-deck", tables=t), r"^card 2 \('3d'\): not"),  # noqa: B023
            (lambda: tp.iter_hands(7, include="As 2c", game="short-deck", tables=t), r"^include card 1 \('2c'\): not"),  # noqa: B023
            (lambda: tp.histogram(7, dead="5s", game="short-deck", tables=t), r"^dead card 0 \('5s'\): not"),  # noqa: B023
            (lambda: tp.count_hands(5, dead="Ks 5s", game="short-deck", tables=t), r"^dead card 1 \('5s'\): not"),  # noqa: B023
            (lambda: tp.best_five("As Ks Qs Js 9s 2c", game="short-deck", tables=t), r"^card 5 \('2c'\): not"),  # noqa: B023
        ]:
            with pytest.raises(ValueError, match=message + " in the short-deck deck, the 36 cards from six to ace$"):
                call()


def test_unknown_games_are_refused_everywhere() -> None:
    known = r"unknown game 'pineapple'; " + KNOWN
    calls: list[Callable[[str], object]] = [
        lambda g: tp.evaluate("As Ks Qs Js Ts", game=g),
        lambda g: tp.evaluate_batch([[51, 47, 43, 39, 35]], game=g),
        lambda g: tp.prefix("As", game=g),
        lambda g: tp.iter_hands(5, game=g),
        lambda g: tp.histogram(5, game=g),
        lambda g: tp.count_hands(5, game=g),
        lambda g: tp.rank_hands("As Ks Qs", game=g),
        lambda g: tp.describe(1, game=g),
        lambda g: tp.categories([1], game=g),
        lambda g: tp.category_of(1, game=g),
        lambda g: tp.best_five("As Ks Qs Js Ts", game=g),
    ]
    for call in calls:
        with pytest.raises(ValueError, match=known):
            call("pineapple")
        with pytest.raises(ValueError, match="unknown game 'Short-Deck'"):
            call("Short-Deck")
        with pytest.raises(TypeError, match="game must be a str"):
            call(None)  # type: ignore[arg-type]
    assert GAMES == ALL_GAMES


class ShortDeck(StrEnum):
    TRITON = "short-deck"


class MixedIn(str, Enum):
    # str() of this member is 'MixedIn.TRITON', not its value: only the value names the game.
    TRITON = "short-deck"


# Every function that takes game=, as (game, tables) -> a plain comparable result.
GAME_CALLS: dict[str, Callable[[Any, Any], object]] = {
    "evaluate": lambda g, t: tp.evaluate("As Ks Qs Js Ts", game=g, tables=t),
    "evaluate list": lambda g, t: tp.evaluate([51, 47, 43, 39, 35, 16], game=g, tables=t),
    "evaluate_batch": lambda g, t: tp.evaluate_batch([[51, 47, 43, 39, 35]], game=g, tables=t).tolist(),
    "best_five": lambda g, t: tp.best_five("As Ks Qs Js Ts 6c", game=g, tables=t),
    "prefix": lambda g, t: (repr(p := tp.prefix("As Ks", game=g, tables=t)), p.evaluate("Qs Js Ts"), p.game),
    "describe": lambda g, t: str(tp.describe(1404, game=g, tables=t)),
    "category_of": lambda g, t: str(tp.category_of(1198, game=g, tables=t)),
    "categories": lambda g, t: tp.categories([1, 1198, 1404], game=g, tables=t).tolist(),
    "iter_hands": lambda g, t: [v.tolist() for _, v in tp.iter_hands(5, include="As Ks Qs Js", game=g, tables=t)],
    "histogram": lambda g, t: tp.histogram(5, include="As Ks Qs Js", game=g, tables=t).nonzero()[0].tolist(),
    "count_hands": lambda g, t: tp.count_hands(5, game=g, tables=t),
    "rank_hands": lambda g, t: tp.rank_hands("As Ks Qs Js Ts", game=g, tables=t).tolist(),
    "equity exact": lambda g, t: [
        (r.games, r.equity) for r in tp.equity(["AsAh", "KsKh"], "9c 8d 7h", game=g, method="exact", tables=t)
    ],
    "equity monte-carlo": lambda g, t: [
        (r.games, r.equity)
        for r in tp.equity(["AsAh", "KsKh"], game=g, method="monte-carlo", samples=2000, seed=3, tables=t)
    ],
    "equity message": lambda g, t: outcome(lambda: tp.equity(["AsAh", "22"], game=g, tables=t)),
}


@pytest.mark.parametrize(
    "game", [ShortDeck.TRITON, np.str_("short-deck"), MixedIn.TRITON], ids=lambda g: type(g).__name__
)
@pytest.mark.parametrize("name", GAME_CALLS)
def test_a_game_may_be_any_str_subclass(name: str, game: str, both: tuple[Tables, Tables]) -> None:
    call = GAME_CALLS[name]
    want = call("short-deck", None)
    # The default tables (evaluate's C entry point), then fresh sets of both
    # backends, where this call is the first to look the game up.
    for tables in (None, *both):
        got = call(game, tables)
        assert got == want and repr(got) == repr(want)


# ---------------------------------------------------- sets without a game


def copy_set(src: Path, dst: Path, edit: Callable[[dict], None]) -> Path:
    """A copy of the set at ``src`` (files linked, not copied) whose manifest ``edit`` changed."""
    dst.mkdir()
    m = json.loads((src / MANIFEST).read_text(encoding="utf-8"))
    for f in m["files"]:
        os.link(src / f["name"], dst / f["name"])
    edit(m)
    (dst / MANIFEST).write_text(json.dumps(m), encoding="utf-8")
    return dst


def test_a_set_without_the_games_dag_says_how_to_build_it(tmp_path: Path) -> None:
    def holdem_only(m: dict) -> None:
        m["files"] = [f for f in m["files"] if f["role"].startswith("dag")]
        del m["games"]

    t = load_tables(copy_set(load_tables().path, tmp_path / "holdem", holdem_only))
    for call in [
        lambda: tp.evaluate("As Ks Qs Js Ts", game="short-deck", tables=t),
        lambda: tp.evaluate_batch([[51, 47, 43, 39, 35]], game="short-deck-classic", tables=t),
        lambda: tp.histogram(5, game="short-deck", tables=t),
    ]:
        how = r"hold no short-deck(-classic)? DAG \(no short-deck(-classic)?/dag7/layer1\): rebuild them with "
        with pytest.raises(TableError, match=how + "`make` or `python -m twoplustwo_builder --out "):
            call()
    assert tp.evaluate("As Ks Qs Js Ts", tables=t) == 7462  # hold'em needs none of it
    # Describing a value reads no tables: the game's rules give its words.
    assert tp.describe(1, game="short-deck", tables=t).description == "High card, jack, nine, eight, seven, six"


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda g: g.pop("deck"), r"\.deck must be every card from some rank up to the aces"),
        (lambda g: g.update(deck=list(range(16, 48))), r"\.deck must be every card from some rank up to the aces"),
        (lambda g: g.update(deck=list(range(20)) + list(range(36, 52))), r"\.deck must be every card from some rank"),
        (
            lambda g: g.update(deck=list(range(52))),
            r"\.categories do not match a deck of 13 ranks: high card has 120 values, the rules give 1277$",
        ),
        (lambda g: g.update(deck=[float(c) for c in g["deck"]]), r"\.deck must be a list of integers"),
        (lambda g: g.update(values=True), r"\.values must be an integer from 1 to 65535, got True"),
        (lambda g: g.update(sizes=[7]), r"\.sizes must be \[5, 6, 7\]"),
        (lambda g: g.update(dags=["dag7"]), r"\.dags must be a list holding 'short-deck/dag7'"),
        (lambda g: g["categories"].reverse(), r"\.categories must be the nine categories"),
        (lambda g: g["categories"][0].__setitem__(0, "nothing"), r"\.categories must be the nine categories"),
        (lambda g: g["categories"][-1].__setitem__(2, 1405), r"\.categories must be the nine categories"),
        # Well formed and of a deck of 9 ranks, but another game's order: the classic rules' (a straight above trips).
        (
            lambda g: g.update(categories=[list(c) for c in tp_rules("short-deck-classic").categories]),
            r" describes another game than the short-deck rules: theirs has the cards 16\.\.51, the values 1\.\.1404",
        ),
        # Well formed, but not the ranking the runtime knows: two pair one value longer, straight one shorter.
        (
            lambda g: (g["categories"][2].__setitem__(2, 877), g["categories"][3].__setitem__(1, 878)),
            r"\.categories do not match a deck of 9 ranks: two pair has 253 values, the rules give 252$",
        ),
    ],
)
def test_a_damaged_games_entry_is_a_table_error(tmp_path: Path, edit: Callable[[dict], object], message: str) -> None:
    def damage(m: dict) -> None:
        edit(m["games"]["short-deck"])

    t = load_tables(copy_set(load_tables().path, tmp_path / "set", damage))
    with pytest.raises(TableError, match=re.escape(str(t.path / MANIFEST)) + r": games\['short-deck'\]" + message):
        tp.evaluate("As Ks Qs Js Ts", game="short-deck", tables=t)
    assert tp.evaluate("As Ks Qs Js Ts", game="short-deck-classic", tables=t) == 1404  # the other game is fine


# --------------------------------------------------- prefixes and rankings


def test_prefixes_finish_hands_of_their_game(both: tuple[Tables, Tables]) -> None:
    rng = np.random.default_rng(61)
    for game in VARIANTS:
        for n in (5, 6, 7):
            hands = random_hands(rng, 4000, n)
            want = tp.evaluate_batch(hands, game=game, tables=both[1])
            for m in range(0, min(n, 6) + 1):
                for t in both:
                    p = tp.prefix(hands[0, :m], game=game, tables=t)
                    assert p.game == game
                    # The rest of the first hand, then the rests of the others that share no card with the prefix.
                    apart = (~np.isin(hands[1:, m:], hands[0, :m])).all(axis=1)
                    rows = np.vstack([hands[:1, m:], hands[1:, m:][apart]])
                    full = np.hstack([np.tile(hands[0, :m], (len(rows), 1)), rows])
                    expect = tp.evaluate_batch(full, game=game, tables=both[1])
                    np.testing.assert_array_equal(p.evaluate_batch(rows), expect)
                    assert p.evaluate(rows[0]) == expect[0] == want[0]
                    if m < min(n, 6):
                        assert p.extend(rows[0, :1]).evaluate(rows[0, 1:]) == want[0]
    p = tp.prefix("Ah Kh Qh", game="short-deck")
    assert repr(p) == "Prefix('Ah Kh Qh', game='short-deck')" and repr(tp.prefix("Ah")) == "Prefix('Ah')"
    assert p.evaluate("Jh Th") == 1404 and p.extend("Jh Th").evaluate() == 1404


def test_rankings_of_every_combo_on_short_deck_boards(both: tuple[Tables, Tables]) -> None:
    rng = np.random.default_rng(36)
    combos = tp.COMBOS
    for game in VARIANTS:
        for size in (3, 4, 5):
            for board in random_hands(rng, 6, size).tolist():
                live = (~np.isin(combos, board).any(axis=1)) & (combos >= 16).all(axis=1)
                want = np.zeros(len(combos), dtype=np.uint16)
                full = np.hstack([np.tile(board, (int(live.sum()), 1)), combos[live]])
                want[live] = tp.evaluate_batch(full, game=game, tables=both[1])
                for t in both:
                    got = tp.rank_hands(board, game=game, tables=t)
                    np.testing.assert_array_equal(got, want)
                    assert int((got > 0).sum()) == comb(36 - size, 2)
    turn = tp.rank_hands("6c 7c 8c 9c", game="short-deck")
    assert turn[tp.combo_index("Ac", "Kd")] == 1399 and turn[tp.combo_index("Tc", "2d")] == 0


# ---------------------------------------------------------- descriptions


def test_descriptions_in_words() -> None:
    for game in VARIANTS:

        def words(text: str) -> str:
            return tp.describe(tp.evaluate(text, game=game), game=game).description  # noqa: B023

        assert words("Ac 6d 7h 8s 9c") == "Straight, nine high (ace low)"
        assert words("6d 7h 8s 9c Td") == "Straight, ten high"
        assert words("Ah 6h 7h 8h 9h") == "Straight flush, nine high (ace low)"
        assert words("Ah Kh Qh Jh Th") == "Royal flush"
        assert words("Ah Kh Qh Jh 9h") == "Flush, ace, king, queen, jack, nine"
        assert words("Ah Ad Ac Kh Kd") == "Full house, aces full of kings"
        assert words("6c 6d 6h 6s Ac") == "Four of a kind, sixes, ace kicker"
        assert words("9c 9d 9h Ac 6d") == "Three of a kind, nines, ace and six kickers"
        assert words("6c 7d 8h 9s Jc") == "High card, jack, nine, eight, seven, six"
        assert words("Ac 7d 8h 9s Tc") == "High card, ace, ten, nine, eight, seven"
    d = tp.describe(877, game="short-deck")
    got = (d.value, str(d.category), d.ranks, hex(d.code), d.cactus_kev_rank)
    assert got == (877, "straight", (7, 6, 5, 4, 12), "0x37654c", 528)
    # Hold'em keeps its words: the wheel says nothing of its ace.
    assert tp.describe(5854).description == "Straight, five high"


def test_categories_follow_each_variants_order() -> None:
    triton, classic = (type(tp.category_of(1, game=g)) for g in VARIANTS)
    assert triton.__name__ == "ShortDeckCategory" and classic.__name__ == "ShortDeckClassicCategory"
    assert triton.THREE_OF_A_KIND > triton.STRAIGHT and classic.THREE_OF_A_KIND < classic.STRAIGHT
    for enum in (triton, classic):
        assert enum.FLUSH > enum.FULL_HOUSE and int(enum.STRAIGHT_FLUSH) == 8 and int(enum.HIGH_CARD) == 0
    assert tp.categories([877, 883, 1129, 1135, 1207], game="short-deck").tolist() == [3, 4, 4, 5, 6]
    assert tp.categories(np.array([[877], [1129]]), game="short-deck-classic").tolist() == [[3], [4]]
    for bad in (0, 1405, True, 3.0):
        with pytest.raises(ValueError, match=r"hand value must be an int in 1\.\.1404"):
            tp.describe(bad, game="short-deck")  # type: ignore[arg-type]
        with pytest.raises(ValueError, match=r"1\.\.1404"):
            tp.category_of(bad, game="short-deck-classic")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"hand values must be in 1\.\.1404, got 1405 at flat index 1"):
        tp.categories([1, 1405], game="short-deck")
    # Hold'em's Category is what it always was, and its fixed ranges are the ones the runtime derives.
    assert isinstance(tp.category_of(7462), Category) and tp.describe(7462).category is Category.STRAIGHT_FLUSH
    holdem = resolve("holdem")
    assert [(f, last) for _, f, last in holdem.categories] == list(zip(CATEGORY_FIRST, CATEGORY_LAST))


# ---------------------------------------------------------------- the C walker


def test_a_game_walker_walks_its_own_dag_only(both: tuple[Tables, Tables]) -> None:
    c, ref = both
    w = resolve("short-deck", c).walker
    assert w is not walker_of(c) and isinstance(resolve("short-deck", ref).walker, numpy_backend.Walker)
    assert resolve("short-deck", c) is resolve("short-deck", c)  # one game, and walker, per table set
    assert w.evaluate([51, 47, 43, 39, 35]) == 1404 and w.evaluate([51, 47, 43, 39, 0]) is None
    assert w.evaluate("As Ks Qs Js 5s") is None and w.evaluate("As Ks Qs Js Ts") == 1404
    assert w.histogram(7, np.zeros(7463, dtype=np.int64)) is False  # the counting histogram is hold'em's
    for call, message in [
        (lambda: w.omaha([51, 47, 43, 39], [35, 31, 27]), "omaha needs the hold'em walker"),
        (
            lambda: w.fill_ordered(
                5,
                0,
                np.arange(52, dtype=np.uint8),
                np.zeros(0, dtype=np.uint8),
                0,
                np.zeros((1, 5), dtype=np.uint8),
                np.zeros(1, dtype=np.uint16),
            ),
            "free cards must be sorted, distinct and in the deck",
        ),  # fmt: skip
        (lambda: type(w)(None, [], [], b"", b""), "both sequences of layers or both None"),
        (lambda: type(w)(None, None, [], b"", b"", deck=0), "a mask of cards 0..51"),
        (lambda: type(w)(None, None, [], b"", b"", deck=1 << 52), "a mask of cards 0..51"),
    ]:
        with pytest.raises(ValueError, match=message):
            call()
    # Unchecked rows with cards outside the deck read dead entries, as the numpy path does.
    rows = np.array([[0, 4, 8, 12, 16]], dtype=np.uint8)
    out = np.zeros(1, dtype=np.uint16)
    assert w.walk_rows(rows, out, False) == -1 and w.walk_rows(rows, out, True) == 0
    assert out.tolist() == tp.evaluate_batch(rows, check=False, game="short-deck", tables=ref).tolist()


# ---------------------------------------------------------------- command line


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_eval_and_enumerate_take_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["eval", "--game", "short-deck-classic", "Ac 6d 7h 8s 9c 9d 9h"], capsys)
    assert (code, err) == (0, "")
    fields = {line[:12].strip(): line[13:] for line in out.splitlines()}
    assert fields["game"] == "short-deck-classic" and fields["value"] == "1129" and fields["category"] == "straight"
    assert fields["description"] == "Straight, nine high (ace low)" and fields["best five"] == "Ac 6d 7h 8s 9c"
    code, out, _ = run(["eval", "--json", "--game", "short-deck", "Ah Kh Qh Jh 9h"], capsys)
    doc = json.loads(out)
    got = (code, doc["game"], doc["value"], doc["category"], doc["code"])
    assert got == (0, "short-deck", 1326, "flush", "0x6cba97")
    assert json.loads(run(["eval", "--json", "Ah Kh Qh Jh 9h"], capsys)[1])["game"] == "holdem"

    code, out, err = run(["enumerate", "--game", "short-deck"], capsys)
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "7-card short-deck hands; include: none; dead: none"
    rows = {line.split()[0]: line.split()[1] for line in out.splitlines()[2:-1]}
    assert rows == {**{k: f"{v:,}" for k, v in COUNTS7["short-deck"].items()}, "total": "8,347,680"}
    assert list(rows)[:2] == ["straight_flush", "four_of_a_kind"]  # strongest first
    code, out, _ = run(["enumerate", "--game", "short-deck-classic", "-n", "5", "--include", "Ah Kh Qh Jh"], capsys)
    rows = {line.split()[0]: line.split()[1] for line in out.splitlines()[2:-1]}
    assert (code, rows["straight_flush"], rows["flush"], rows["straight"], rows["total"]) == (0, "1", "4", "3", "32")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["eval", "--game", "short-deck", "As Ks Qs Js 2s"], "card 4 ('2s'): not in the short-deck deck"),
        (["enumerate", "--game", "short-deck", "--dead", "5c"], "dead card 0 ('5c'): not in the short-deck deck"),
        (["eval", "--game", "pineapple", "As Ks Qs Js Ts"], "invalid choice: 'pineapple'"),
    ],
)
def test_bad_game_input_is_one_error_line(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    code, out, err = run(args, capsys)
    assert (code, out) == (2, "") and err.count("\n") == 1 and message in err
