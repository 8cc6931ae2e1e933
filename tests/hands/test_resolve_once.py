"""Each public call of hands/ resolves its game once: its internals take the game as resolved."""

from __future__ import annotations

import pytest

import twoplustwo.hands.batch
import twoplustwo.hands.iterate
import twoplustwo.hands.prefixes
import twoplustwo.hands.rankings
import twoplustwo.hands.single
import twoplustwo.hands.space
import twoplustwo.hands.value_counts  # noqa: F401  (every module that may resolve, imported before counting)
from tests.resolving import count_resolves
from twoplustwo.hands.batch import best_five
from twoplustwo.hands.rankings import rank_hands
from twoplustwo.hands.space import HandSpace
from twoplustwo.hands.value_counts import histogram
from twoplustwo.vocab.cards import format_cards
from twoplustwo.vocab.combos import combo_index


@pytest.fixture
def resolved(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    return count_resolves(monkeypatch)


@pytest.mark.parametrize("game", ["holdem", "short-deck"])
def test_rank_hands_resolves_once(resolved: list[str], game: str) -> None:
    values = rank_hands("Ts Js Qs", game=game)
    assert values[combo_index("As", "Ks")] == (7462 if game == "holdem" else 1404)  # the royal flush
    assert resolved == [game]


@pytest.mark.parametrize(("game", "five"), [("holdem", "Ac 8s 9c 9d 9h"), ("short-deck-classic", "Ac 6d 7h 8s 9c")])
def test_best_five_resolves_once(resolved: list[str], game: str, five: str) -> None:
    # Once, for the whole hand's check and its fives: not again in evaluate(), nor once per five.
    assert format_cards(best_five("Ac 6d 7h 8s 9c 9d 9h", game=game)) == five
    assert resolved == [game]
    with pytest.raises(ValueError, match="card 1 .'2c'.: not in the short-deck-classic deck"):
        best_five("Ac 2c 7h 8s 9c 9d 9h", game="short-deck-classic")  # checked as evaluate() checks it


@pytest.mark.parametrize("game", ["holdem", "short-deck"])
def test_a_hand_space_resolves_once(resolved: list[str], game: str) -> None:
    space = HandSpace(5, include="As Ks", game=game)
    assert space.total == (50 * 49 * 48 // 6 if game == "holdem" else 34 * 33 * 32 // 6)
    assert resolved == [game]
    resolved.clear()
    assert int(histogram(5, include="As Ks Qs Js", game=game)[1404 if game != "holdem" else 7462]) == 1
    assert resolved == [game]
