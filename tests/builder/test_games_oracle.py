"""Short deck through the runtime's API against the builder's independent oracle, on both backends.

Every 5-, 6- and 7-card hand of the 36-card deck goes through
``evaluate_batch``, the single-hand tables, ordered iteration, include and
dead cards and histograms, and is compared with
:mod:`twoplustwo_builder.oracles.short_deck`; each value's description
with the oracle's category of a hand of that value. The runtime's own tests
of the games (``tests/vocab/test_games.py``) need no builder.
"""

from __future__ import annotations

from math import comb

import numpy as np
import pytest

import twoplustwo as tp
from twoplustwo.kernels.games import resolve
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.cards import parse_cards
from twoplustwo.vocab.values import GameCategory
from twoplustwo_builder.oracles import short_deck

VARIANTS = ("short-deck", "short-deck-classic")


@pytest.fixture(scope="module")
def every_hand(short_deck_hands: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
    """Every 5-, 6- and 7-card hand of the short deck, sorted rows in lexicographic order (from the builder)."""
    return short_deck_hands


@pytest.fixture(scope="module")
def oracle(short_deck_oracle: dict[int, dict[str, np.ndarray]]) -> dict[int, dict[str, np.ndarray]]:
    # Computed once a session, with test_short_deck_tables.py (conftest.py).
    assert all(tuple(by_variant) == VARIANTS for by_variant in short_deck_oracle.values())
    return short_deck_oracle


@pytest.mark.parametrize("n", [5, 6, 7])
def test_every_hand_on_both_backends_against_the_oracle(
    n: int, both: tuple[Tables, Tables], every_hand: dict[int, np.ndarray], oracle: dict
) -> None:
    hands = every_hand[n]
    assert len(hands) == comb(36, n)
    # The same hands with their cards in another order, which must not matter.
    rng = np.random.default_rng(n)
    shuffled = np.take_along_axis(hands, rng.random(hands.shape).argsort(axis=1), axis=1)
    for game in VARIANTS:
        for t in both:
            np.testing.assert_array_equal(tp.evaluate_batch(hands, game=game, tables=t), oracle[n][game])
            np.testing.assert_array_equal(tp.evaluate_batch(shuffled, game=game, tables=t), oracle[n][game])


@pytest.mark.parametrize("n", [5, 6, 7])
def test_the_single_hand_tables_equal_the_oracle_on_every_hand(
    n: int, both: tuple[Tables, Tables], every_hand: dict[int, np.ndarray], oracle: dict
) -> None:
    # Single calls read small tables (a value per rank multiset, one per
    # flush's suited ranks) that each game walker derives from its DAG.
    for game in VARIANTS:
        small = np.empty(comb(36, n), dtype=np.uint16)
        assert resolve(game, both[0]).walker.small_rows(every_hand[n], small) is True  # single calls use them
        np.testing.assert_array_equal(small, oracle[n][game])


@pytest.mark.parametrize("n", [5, 7])
def test_iteration_lists_every_hand_of_the_deck_in_order(
    n: int, both: tuple[Tables, Tables], every_hand: dict[int, np.ndarray], oracle: dict
) -> None:
    for game, t in zip(VARIANTS, both):  # one variant on each backend
        chunks = list(tp.iter_hands(n, game=game, tables=t, chunk_size=1 << 20))
        np.testing.assert_array_equal(np.concatenate([c for c, _ in chunks]), every_hand[n])
        np.testing.assert_array_equal(np.concatenate([v for _, v in chunks]), oracle[n][game])
        assert tp.count_hands(n, game=game, tables=t) == comb(36, n) == len(every_hand[n])


@pytest.mark.parametrize(
    ("n", "include", "dead"),
    [
        (7, "Ah Kh", "6c 7d"),
        (6, "6c Ts", ""),
        (5, "", "As Ks Qs Js Ts"),
        (7, "Qd Ac 9h 6s", "Kd"),
        (5, "Ac 6d 7h 8s 9c", ""),
    ],
)
def test_include_and_dead_cards_pick_the_hands_that_hold_and_avoid_them(
    n: int, include: str, dead: str, both: tuple[Tables, Tables], every_hand: dict[int, np.ndarray], oracle: dict
) -> None:
    # Include cards above and below the free ones exercise the C fill's merged rows.
    hands = every_hand[n]
    inc, out = parse_cards(include), parse_cards(dead)
    keep = np.isin(hands, inc).sum(axis=1) == len(inc)
    keep &= ~np.isin(hands, out).any(axis=1)
    for game in VARIANTS:
        want = oracle[n][game][keep]
        for t in both:
            for chunk_size, threads in ((7, 1), (1 << 16, 2)):
                if chunk_size < 1000 and len(want) > 100_000:
                    continue
                got = list(
                    tp.iter_hands(n, include=inc, dead=out, chunk_size=chunk_size, threads=threads, game=game, tables=t)
                )
                np.testing.assert_array_equal(np.concatenate([c for c, _ in got]), hands[keep])
                np.testing.assert_array_equal(np.concatenate([v for _, v in got]), want)
            assert tp.count_hands(n, include=include, dead=dead, game=game, tables=t) == len(want)
            np.testing.assert_array_equal(
                tp.histogram(n, include=include, dead=dead, game=game, tables=t), np.bincount(want, minlength=1405)
            )


def test_five_and_six_card_histograms_match_the_oracle(both: tuple[Tables, Tables], oracle: dict) -> None:
    for n in (5, 6):
        for game in VARIANTS:
            want = np.bincount(oracle[n][game], minlength=1405)
            for t in both:
                np.testing.assert_array_equal(tp.histogram(n, game=game, tables=t), want)
    assert int((tp.histogram(5, game="short-deck") > 0).sum()) == 1404  # every value is some 5-card hand


@pytest.mark.parametrize("game", VARIANTS)
def test_every_value_describes_a_hand_of_its_value(game: str, every_hand: dict, oracle: dict) -> None:
    # One five-card hand per value, from the oracle: its category and ranks are the value's.
    values, first = np.unique(oracle[5][game], return_index=True)
    assert values.tolist() == list(range(1, 1405))
    hands = every_hand[5][first]
    names = short_deck.CATEGORIES
    oracle_category = short_deck.categories(game)
    cats = tp.categories(values, game=game)
    enum = type(tp.category_of(1, game=game))
    assert issubclass(enum, GameCategory)
    assert [str(c) for c in enum] == [c.replace(" ", "_") for c in short_deck.VARIANTS[game]]
    for v, hand, c in zip(values.tolist(), hands.tolist(), cats.tolist()):
        d = tp.describe(v, game=game)
        assert str(d.category) == names[oracle_category[v]].replace(" ", "_") == str(enum(c))
        assert d.category is tp.category_of(v, game=game)
        assert sorted(d.ranks) == sorted(card >> 2 for card in hand)
        assert d.code >> 20 == c and d.cactus_kev_rank == 1405 - v
        ace_low = sorted(card >> 2 for card in hand) == [4, 5, 6, 7, 12] and str(d.category).startswith("straight")
        assert d.description.endswith("(ace low)") == ace_low
    codes = [tp.describe(v, game=game).code for v in range(1, 1405)]
    assert codes == sorted(set(codes))  # one code per value, in the order of the values


@pytest.mark.parametrize("game", VARIANTS)
def test_seven_card_histograms_match_the_oracle(game: str, both: tuple[Tables, Tables], oracle: dict) -> None:
    for t in both:
        want = np.bincount(oracle[7][game], minlength=1405)
        np.testing.assert_array_equal(tp.histogram(7, game=game, tables=t), want)
