"""Each game's rules against an independent brute force over its five-card hands, and the registry of games.

The brute force here is written from the rules as players state them
(issue 16 for short deck), not from :mod:`twoplustwo.vocab.rules`: a
five-card hand's category, then the ranks that decide, give a key; the
game's values are the distinct keys in order. The rules' categories,
values, value of a hand and words must agree with it, and a 7-card hand's
value from the rules alone with the tables' value.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement, product
from math import comb, prod

import numpy as np
import pytest

import twoplustwo as tp
from twoplustwo.vocab.rules import EQUITY_GAMES, GAMES, HOLDEM, RULES, check_equity_game, check_game, rules_of
from twoplustwo.vocab.values import HAND_COUNTS

# The categories, weakest first, as each game's rules state them.
HOLDEM_ORDER = ("high card", "pair", "two pair", "three of a kind", "straight", "flush", "full house",
                "four of a kind", "straight flush")  # fmt: skip
ORDERS = {
    "holdem": HOLDEM_ORDER,
    # Triton: a flush beats a full house, three of a kind a straight.
    "short-deck": (
        "high card",
        "pair",
        "two pair",
        "straight",
        "three of a kind",
        "full house",
        "flush",
        "four of a kind",
        "straight flush",
    ),  # fmt: skip
    # Classic: a flush beats a full house; a straight still beats three of a kind.
    "short-deck-classic": (
        "high card",
        "pair",
        "two pair",
        "three of a kind",
        "straight",
        "full house",
        "flush",
        "four of a kind",
        "straight flush",
    ),  # fmt: skip
}
LOWEST = {"holdem": 0, "short-deck": 4, "short-deck-classic": 4, "stud": 0, "stud-hilo": 0}
ORDERS["stud"] = ORDERS["stud-hilo"] = HOLDEM_ORDER
#: The best-five-high games, whose five-card classes this module's brute force knows (the lows' and badugi's
#: are tests/vocab/test_low_rules.py's).
HIGH_GAMES = tuple(LOWEST)

ALL_GAMES = (
    "holdem",
    "short-deck",
    "short-deck-classic",
    "stud",
    "stud-hilo",
    "razz",
    "lowball-27",
    "lowball-a5",
    "badugi",
)
KNOWN = "known games: " + ", ".join(ALL_GAMES)


def brute_key(ranks: tuple[int, ...], suited: bool, game: str) -> tuple[int, tuple[int, ...]]:
    """(place of the category in the game's order, ranks that decide) of five cards with these ranks."""
    low = LOWEST[game]
    distinct = sorted(set(ranks), reverse=True)
    straight_top = None
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            straight_top = distinct[0]
        elif set(distinct) == {12, low, low + 1, low + 2, low + 3}:
            straight_top = low + 3  # the ace plays low: the straight is as high as its top low card
    groups = sorted(Counter(ranks).items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = [c for _, c in groups]
    if straight_top is not None:
        name, ties = ("straight flush" if suited else "straight"), (straight_top,)
    elif suited:
        name, ties = "flush", tuple(distinct)
    else:
        name = {
            (4, 1): "four of a kind", (3, 2): "full house", (3, 1, 1): "three of a kind",
            (2, 2, 1): "two pair", (2, 1, 1, 1): "pair", (1, 1, 1, 1, 1): "high card",
        }[tuple(shape)]  # fmt: skip
        ties = tuple(r for r, _ in groups)
    return ORDERS[game].index(name), ties


def classes(game: str) -> list[tuple[tuple[int, tuple[int, ...]], tuple[int, ...], bool, int]]:
    """Every five-card class of the game: (key, ranks, suited, how many hands of the deck have it)."""
    ranks = range(LOWEST[game], 13)
    out = []
    for hand in combinations_with_replacement(ranks, 5):
        counts = Counter(hand)
        if max(counts.values()) > 4:
            continue
        # Suits for each rank group, less the hands all of one suit.
        hands = prod(comb(4, c) for c in counts.values()) - (4 if len(counts) == 5 else 0)
        out.append((brute_key(hand, False, game), hand, False, hands))
        if len(counts) == 5:
            out.append((brute_key(hand, True, game), hand, True, 4))
    return out


@pytest.mark.parametrize("game", HIGH_GAMES)
def test_the_rules_agree_with_a_brute_force_over_five_card_hands(game: str) -> None:
    rules = rules_of(game)
    found = classes(game)
    keys = sorted({k for k, *_ in found})
    assert len(keys) == len(found)  # no two classes tie
    assert rules.values == len(keys)
    value = {k: i + 1 for i, k in enumerate(keys)}
    # Each category's first and last values, in the game's order.
    want = tuple(
        (name, min(v for k, v in value.items() if k[0] == p), max(v for k, v in value.items() if k[0] == p))
        for p, name in enumerate(ORDERS[game])
    )
    assert rules.categories == want
    assert rules.deck == range(4 * LOWEST[game], 52) and rules.sizes == (5, 6, 7)
    for key, hand, suited, _ in found:
        suits = [0] * 5 if suited else [i % 4 if i < 4 else (i + 1) % 4 for i in range(5)]
        cards = [r * 4 + s for r, s in zip(hand, suits)]
        assert rules.value_of(cards) == value[key], (game, hand, suited)
    if game == HOLDEM:
        # Hands per category over all C(52, 5): the published figures.
        per = [sum(n for k, _, _, n in found if k[0] == p) for p in range(9)]
        assert tuple(per) == HAND_COUNTS[5][0]


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_value_every_hand_as_the_tables_do(game: str) -> None:
    rules = rules_of(game)
    rng = np.random.default_rng(38)
    deck = np.array(rules.deck)
    for n in rules.sizes:
        hands = np.array([rng.choice(deck, size=n, replace=False) for _ in range(300)], dtype=np.uint8)
        got = [rules.value_of(h.tolist()) for h in hands]
        assert got == tp.evaluate_batch(hands, game=game).tolist()
    # And every five-card hand of short deck, class by class, through the tables.
    if len(rules.deck) < 52:
        five = np.array(list(combinations(rules.deck, 5)), dtype=np.uint8)
        values = tp.evaluate_batch(five, game=game)
        per = np.bincount(values, minlength=rules.values + 1)
        hands = {key: n for key, *_, n in classes(game)}
        keys = sorted(hands)
        assert per[1:].tolist() == [hands[k] for k in keys]


def test_the_rules_say_values_in_words() -> None:
    holdem, triton = rules_of("holdem"), rules_of("short-deck")
    assert holdem.words(7260) == "Full house, jacks full of aces" and holdem.words(7462) == "Royal flush"
    assert holdem.words(5854) == "Straight, five high"  # hold'em's wheel says nothing of its ace
    assert triton.words(877) == "Straight, nine high (ace low)"
    for game in GAMES:
        rules = rules_of(game)
        for v in (1, rules.values // 2, rules.values):
            assert rules.words(v) == tp.describe(v, game=game).description
    assert [c[0] for c in triton.categories] == list(ORDERS["short-deck"])


def test_the_rules_name_the_dags_their_hands_walk() -> None:
    assert [rules_of("holdem").layout(n) for n in (5, 6, 7)] == [("dag5", None), ("dag6", None), ("dag7", None)]
    assert rules_of("short-deck-classic").layout(6) == ("short-deck-classic/dag7", "short-deck-classic/dag7/value6")
    assert rules_of("short-deck").layout(7) == ("short-deck/dag7", None)


def test_one_registry_checks_every_game() -> None:
    assert GAMES == tuple(RULES) == ALL_GAMES and tp.GAMES == GAMES
    assert EQUITY_GAMES == (*GAMES[:3], "omaha", "omaha-hilo", *GAMES[3:])
    assert check_game("short-deck") == "short-deck" and type(check_game(np.str_("holdem"))) is str
    with pytest.raises(ValueError, match="unknown game 'pineapple'; " + KNOWN):
        check_game("pineapple")
    with pytest.raises(TypeError, match="game must be a str such as 'holdem', got int"):
        rules_of(7)
    assert check_equity_game(np.str_("omaha-hilo")) == "omaha-hilo"
    assert check_equity_game(np.str_("razz")) == "razz"
    for bad, shown in (("razzle", "'razzle'"), (3, "int")):
        with pytest.raises(
            ValueError,
            match=f"equity plays holdem, short-deck, short-deck-classic, omaha, omaha-hilo, stud, stud-hilo, razz, "
            f"lowball-27, lowball-a5, badugi; got game {shown}",
        ):
            check_equity_game(bad)
    # A card outside a short deck is named with its place.
    with pytest.raises(
        ValueError, match=r"^include card 1 \('5d'\): not in the short-deck deck, the 36 cards from six to ace$"
    ):
        rules_of("short-deck").check_cards([51, 13], "include card")
    rules_of("holdem").check_cards(list(range(52)))  # the whole deck: nothing to refuse


def test_suits_change_a_value_only_through_a_flush() -> None:
    rules = rules_of("short-deck")
    seen: dict[bool, set[int]] = {False: set(), True: set()}
    for suits in product(range(4), repeat=5):
        cards = [r * 4 + s for r, s in zip((12, 11, 10, 9, 7), suits)]
        seen[len(set(suits)) == 1].add(rules.value_of(cards))
    assert len(seen[False]) == len(seen[True]) == 1 and min(seen[True]) > max(seen[False])
    assert rules.words(min(seen[True])) == "Flush, ace, king, queen, jack, nine"


def test_category_names_have_one_home() -> None:
    # The rules name the categories (vocab/classes.CATEGORY_NAMES, in hold'em's order); hold'em's public
    # Category enum and CATEGORIES spell the same names, and the builder reads the rules' order.
    from twoplustwo.vocab.five_cards import CATEGORY_NAMES
    from twoplustwo.vocab.values import CATEGORIES, Category

    assert [str(c) for c in Category] == list(CATEGORIES) == [n.replace(" ", "_") for n in CATEGORY_NAMES]
    assert [c[0] for c in rules_of("holdem").categories] == list(CATEGORY_NAMES)
