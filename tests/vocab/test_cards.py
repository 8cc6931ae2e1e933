"""Card parsing and formatting: every accepted spelling and every error kind."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from twoplustwo.vocab.cards import (
    RANKS,
    SUITS,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
)

# Written out by hand so the tests do not reuse the module's own tables.
DECK = (
    "2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s 5c 5d 5h 5s 6c 6d 6h 6s 7c 7d 7h 7s "
    "8c 8d 8h 8s 9c 9d 9h 9s Tc Td Th Ts Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh Ks "
    "Ac Ad Ah As"
).split()


def test_deck_order_matches_the_contract() -> None:
    assert len(DECK) == 52
    assert [parse_card(name) for name in DECK] == list(range(52))
    assert [format_card(c) for c in range(52)] == DECK


def test_rank_and_suit_fields() -> None:
    assert parse_card("2c") == 0
    assert parse_card("As") == 51
    assert parse_card("Td") == 8 * 4 + 1
    assert parse_card("Jh") == 9 * 4 + 2
    assert RANKS == "23456789TJQKA"
    assert SUITS == "cdhs"


def test_a_number_as_text_is_not_read_as_rank_and_suit() -> None:
    # "51" once gave "unknown suit '1'", naming the wrong thing.
    with pytest.raises(ValueError, match=r"card 0 \('51'\): a number where a card name belongs"):
        parse_cards(["51"])


def test_messages_do_not_depend_on_the_terminal() -> None:
    # Non-ASCII input is shown escaped, so the message is the same text in every locale.
    with pytest.raises(ValueError) as excinfo:
        parse_cards("A\u2661\u2665x")
    assert str(excinfo.value).isascii()


@pytest.mark.parametrize("card", range(52))
def test_round_trip_every_card(card: int) -> None:
    name = format_card(card)
    assert len(name) == 2
    assert parse_card(name) == card
    assert parse_card(name.lower()) == card
    assert parse_card(name.upper()) == card


@pytest.mark.parametrize(
    ("spelling", "card"),
    [
        ("As", 51),
        ("as", 51),
        ("AS", 51),
        ("aS", 51),
        ("Td", 33),
        ("td", 33),
        ("tD", 33),
        ("10d", 33),
        ("10D", 33),
        ("2c", 0),
        ("2C", 0),
        ("A♠", 51),
        ("a♠", 51),
        ("10♥", 34),
        ("T♥", 34),
        ("K♦", 45),
        ("3♣", 4),
        ("A♤", 51),
        ("Q♡", 42),
        ("J♢", 37),
        ("9♧", 28),
        ("A♠\ufe0f", 51),  # emoji-style symbol with a variation selector
        (" Kh ", 46),
    ],
)
def test_accepted_spellings(spelling: str, card: int) -> None:
    assert parse_card(spelling) == card


def test_ints_and_numpy_integers() -> None:
    assert parse_card(0) == 0
    assert parse_card(51) == 51
    assert parse_card(np.int64(17)) == 17
    assert parse_card(np.uint8(3)) == 3
    assert type(parse_card(np.int16(5))) is int


@pytest.mark.parametrize(
    "text",
    [
        "As Kd Qh",
        "As,Kd,Qh",
        "As, Kd, Qh",
        "As ,Kd , Qh",
        "  As\tKd\nQh  ",
        "AsKdQh",
        "askdqh",
        "ASKDQH",
        "AsKd Qh",
        "As,KdQh",
        "A♠ K♦ Q♥",
        "A♠K♦Q♥",
    ],
)
def test_string_forms(text: str) -> None:
    assert parse_cards(text) == [51, 45, 42]


def test_ten_spelt_10_in_strings() -> None:
    assert parse_cards("10d 10h") == [33, 34]
    assert parse_cards("10d10hAs") == [33, 34, 51]
    assert parse_cards("As,10♠") == [51, 35]


def test_empty_inputs_give_no_cards() -> None:
    assert parse_cards("") == []
    assert parse_cards("   ") == []
    assert parse_cards([]) == []
    assert parse_cards(np.array([], dtype=np.int64)) == []
    assert format_cards([]) == ""


def test_sequences_and_arrays() -> None:
    assert parse_cards([51, 45, 42]) == [51, 45, 42]
    assert parse_cards((51, "Kd", "qh")) == [51, 45, 42]
    assert parse_cards(["As", np.int32(45), "Q♥"]) == [51, 45, 42]
    assert parse_cards(np.array([51, 45, 42], dtype=np.uint8)) == [51, 45, 42]
    assert parse_cards(np.array([0, 51], dtype=np.int64)) == [0, 51]
    out = parse_cards(np.array([7], dtype=np.int16))
    assert type(out[0]) is int


def test_order_is_kept() -> None:
    assert parse_cards("2c As 7h") == [0, 51, 22]
    assert format_cards([22, 0, 51]) == "7h 2c As"


def test_format_cards() -> None:
    assert format_cards([51, 33, 0]) == "As Td 2c"
    assert format_cards(np.array([51, 33, 0])) == "As Td 2c"
    assert format_cards("as 10d 2C") == "As Td 2c"
    assert format_card("10♥") == "Th"


def _message(excinfo: pytest.ExceptionInfo[ValueError]) -> str:
    return str(excinfo.value)


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("As Kd Qh Xs", "card 3 ('Xs'): unknown rank 'X'"),
        ("As 1d", "card 1 ('1d'): unknown rank '1'"),
        ("Ax", "card 0 ('Ax'): unknown suit 'x' (suits are c, d, h, s or the four suit symbols)"),
        ("As Kd Qh 10z", "card 3 ('10z'): unknown suit 'z' (suits are c, d, h, s or the four suit symbols)"),
        (["As", "Kdd"], "card 1 ('Kdd'): unknown suit 'dd' (suits are c, d, h, s or the four suit symbols)"),
        ("As K", "card 1 ('K'): missing suit"),
        (["As", "10"], "card 1 ('10'): missing suit"),
        ("As,,Kd", "card 1 (''): empty token"),
        ("As Kd,", "card 2 (''): empty token"),
        (["As", ""], "card 1 (''): empty token"),
        (["As", "  "], "card 1 ('  '): empty token"),
        ([3, 52], "card 1 (52): out of range 0..51"),
        ([-1], "card 0 (-1): out of range 0..51"),
        ([np.int64(60)], "card 0 (60): out of range 0..51"),
        (np.array([3, 4, 99]), "card 2 (99): out of range 0..51"),
        ("As Kd Qh Jc Kd", "card 4 ('Kd'): duplicate of card 1"),
        ("as AS", "card 1 ('AS'): duplicate of card 0"),
        (["Td", 33], "card 1 (33): duplicate of card 0"),
        ([33, "10d"], "card 1 ('10d'): duplicate of card 0"),
        (np.array([5, 6, 5]), "card 2 (5): duplicate of card 0"),
        ([1, True], "card 1 (True): a bool is not a card"),
        ([np.bool_(False)], "card 0 (False): a bool is not a card"),
        ([0, 1.0], "card 1 (1.0): expected an int 0..51 or a string like 'As', got float"),
        ([None], "card 0 (None): expected an int 0..51 or a string like 'As', got NoneType"),
    ],
)
def test_errors_name_token_and_position(cards: object, expected: str) -> None:
    with pytest.raises(ValueError) as excinfo:
        parse_cards(cards)  # type: ignore[arg-type]
    assert _message(excinfo) == expected


@pytest.mark.parametrize(
    ("token", "fragment"),
    [
        ("", "empty token"),
        ("Zs", "unknown rank 'Z'"),
        ("Sa", "unknown rank 'S'"),
        ("Ae", "unknown suit 'e'"),
        ("A", "missing suit"),
        (52, "out of range"),
        (-1, "out of range"),
        (True, "bool"),
        (False, "bool"),
        (0.0, "got float"),
        (None, "got NoneType"),
        (b"As", "got bytes"),
        ([51], "got list"),
    ],
)
def test_parse_card_errors(token: object, fragment: str) -> None:
    with pytest.raises(ValueError, match="^card 0 ") as excinfo:
        parse_card(token)  # type: ignore[arg-type]
    assert fragment in _message(excinfo)
    assert repr(token) in _message(excinfo)


def test_format_card_rejects_non_cards() -> None:
    for bad in (52, -1, True, None, 3.0):
        with pytest.raises(ValueError):
            format_card(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="duplicate"):
        format_cards([1, 1])


@pytest.mark.parametrize(
    ("cards", "fragment"),
    [
        (np.array([1.0, 2.0]), "dtype float64"),
        (np.array([True, False]), "dtype bool"),
        (np.array(["As", "Kd"]), "dtype <U2"),
        (np.array([[1, 2]]), "1-D"),
        (np.array(5), "0-D"),
        (5, "got int"),
        (None, "got NoneType"),
        (b"AsKd", "got bytes"),
        ({1, 2}, "got set"),
        ((c for c in [1, 2]), "got generator"),
    ],
)
def test_bad_containers(cards: object, fragment: str) -> None:
    with pytest.raises(ValueError) as excinfo:
        parse_cards(cards)  # type: ignore[arg-type]
    assert fragment in _message(excinfo)


distinct_cards = st.lists(st.integers(0, 51), unique=True, max_size=52)


@given(distinct_cards)
def test_property_format_then_parse(cards: list[int]) -> None:
    text = format_cards(cards)
    assert parse_cards(text) == cards
    assert parse_cards(text.replace(" ", "")) == cards
    assert parse_cards(text.replace(" ", ", ")) == cards
    assert parse_cards(np.array(cards, dtype=np.int64)) == cards
    assert parse_cards([format_card(c) for c in cards]) == cards


_SYMBOLS = "♣♦♥♠"


@st.composite
def spelled(draw: st.DrawFn) -> tuple[list[int], list[str]]:
    """Distinct cards plus one randomly chosen spelling for each."""
    cards = draw(distinct_cards)
    names = []
    for c in cards:
        rank, suit = c // 4, c % 4
        rank_spellings = {RANKS[rank], RANKS[rank].lower()} | ({"10"} if rank == 8 else set())
        rank_text = draw(st.sampled_from(sorted(rank_spellings)))
        suit_text = draw(st.sampled_from([SUITS[suit], SUITS[suit].upper(), _SYMBOLS[suit]]))
        names.append(rank_text + suit_text)
    return cards, names


@given(spelled(), st.sampled_from([" ", ",", ", ", ""]))
def test_property_any_spelling_parses(case: tuple[list[int], list[str]], sep: str) -> None:
    cards, names = case
    assert parse_cards(sep.join(names)) == cards
    assert parse_cards(names) == cards
    assert [parse_card(n) for n in names] == cards


@given(distinct_cards.filter(bool), st.data())
def test_property_duplicate_is_reported_at_its_position(
    cards: list[int], data: st.DataObject
) -> None:
    original = data.draw(st.integers(0, len(cards) - 1))
    with_dup = cards + [cards[original]]
    with pytest.raises(ValueError) as excinfo:
        parse_cards(format_cards(cards) + " " + format_card(cards[original]))
    assert _message(excinfo) == (
        f"card {len(cards)} ({format_card(cards[original])!r}): duplicate of card {original}"
    )
    with pytest.raises(ValueError, match=f"^card {len(cards)} .*duplicate of card {original}$"):
        parse_cards(with_dup)
