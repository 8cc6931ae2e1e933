"""``eval --game omaha`` and ``omaha-hilo`` (twoplustwo/cli/omaha.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.helpers import assert_one_error_line, run
from twoplustwo.vocab.cards import parse_words as parse_hand


def _omaha_deals(n: int, seed: int) -> list[tuple[list[int], list[int]]]:
    """``n`` random Omaha deals: 4-6 hole cards and a board of 3-5, all sizes in turn."""
    import random

    rng = random.Random(seed)
    deals = []
    for i in range(n):
        cards = rng.sample(range(52), 11)
        h, b = 4 + i % 3, 3 + (i // 3) % 3
        deals.append((cards[:h], cards[h : h + b]))
    return deals


def _brute_force_omaha(hole: list[int], board: list[int]) -> tuple[int, int]:
    """High (hold'em value) and eight-or-better low (0..56) by trying every two hole and three board cards."""
    from itertools import combinations

    from twoplustwo.hands.batch import evaluate

    high, low = 0, 0
    for pair in combinations(hole, 2):
        for three in combinations(board, 3):
            five = [*pair, *three]
            high = max(high, evaluate(five))
            low = max(low, _low_of(five))
    return high, low


def _low_of(five: list[int]) -> int:
    """The eight-or-better low value (1..56, 0 for none) of five cards, from the ranks themselves."""
    from twoplustwo.vocab.lows import LOW_MASKS, N_LOWS

    ranks = {c >> 2 for c in five if c >> 2 <= 6 or c >> 2 == 12}  # deuce..eight and the ace
    if len(ranks) != 5:
        return 0
    # The ace is bit 0 and the rank r (0 = deuce) bit r + 1; LOW_MASKS lists the lows best first.
    mask = sum(1 if r == 12 else 1 << (r + 1) for r in ranks)
    return N_LOWS - LOW_MASKS.index(mask)


def _legal_five(five: list[str], hole: list[int], board: list[int]) -> list[int]:
    cards = parse_hand(five)
    assert len(cards) == 5 and len(set(cards) & set(hole)) == 2 and len(set(cards) & set(board)) == 3
    return cards


def test_eval_omaha_matches_the_library_and_a_brute_force(capsys: pytest.CaptureFixture[str]) -> None:
    import twoplustwo
    from twoplustwo.hands.batch import evaluate
    from twoplustwo.vocab.cards import format_cards

    lows = 0
    for hole, board in _omaha_deals(45, seed=5):
        argv = ["eval", "--game", "omaha-hilo", format_cards(hole), "--board", format_cards(board), "--json"]
        code, out, err = run(argv, capsys)
        assert (code, err) == (0, ""), argv
        doc = json.loads(out)
        value, low = twoplustwo.evaluate_omaha(hole, board), twoplustwo.evaluate_omaha_low(hole, board)
        assert (doc["value"], doc["low_value"]) == (value, low) == _brute_force_omaha(hole, board), argv
        d = twoplustwo.describe(value)
        assert (doc["category"], doc["description"], doc["code"]) == (str(d.category), d.description, f"0x{d.code:06x}")
        assert (doc["cards"], doc["board"], doc["game"]) == (format_cards(hole).split(), format_cards(board).split(),
                                                             "omaha-hilo")
        assert evaluate(_legal_five(doc["best_five"], hole, board)) == value
        assert doc["low"] == twoplustwo.describe_low(low)
        if low:
            lows += 1
            assert _low_of(_legal_five(doc["low_five"], hole, board)) == low
        else:
            assert doc["low_five"] is None
        # Plain Omaha: the same high, and nothing about a low.
        high = json.loads(run([*argv[:2], "omaha", *argv[3:]], capsys)[1])
        assert high["value"] == value and high["game"] == "omaha" and "low" not in high and "low_value" not in high
    assert lows >= 3  # both kinds of answer were seen


def test_eval_omaha_text(capsys: pytest.CaptureFixture[str]) -> None:
    import twoplustwo

    # The board may be given in parts, as --board of equity takes it.
    code, out, err = run(["eval", "--game", "omaha-hilo", "As", "2d Kc Kd", "--board", "3h 6c", "--board", "8d Qs Js"],
                         capsys)
    assert (code, err) == (0, "")
    fields = {line[:12].strip(): line[13:] for line in out.splitlines()}
    value = twoplustwo.evaluate_omaha("As 2d Kc Kd", "3h 6c 8d Qs Js")
    assert list(fields) == ["hand", "board", "game", "value", "category", "code", "description", "best five",
                            "low value", "low", "low five"]
    assert fields["hand"] == "As 2d Kc Kd" and fields["board"] == "3h 6c 8d Qs Js" and fields["game"] == "omaha-hilo"
    assert fields["value"] == str(value) and fields["description"] == twoplustwo.describe(value).description
    assert fields["low value"] == "30" and fields["low"] == "8-6-3-2-A" and fields["low five"] == "As 2d 3h 6c 8d"
    # One low board card: no low. Plain Omaha prints no low lines; PLO6 on a flop works.
    code, out, _ = run(["eval", "--game", "omaha-hilo", "As 2d Kc Kd", "--board", "3h 9c Td Qs Js"], capsys)
    assert "low value    0\nlow          no qualifying low\nlow five     none\n" in out
    code, out, err = run(["eval", "--game", "omaha", "Ah Kh 2c 3d 4s 5s", "--board", "Qh Jh Th"], capsys)
    assert (code, err) == (0, "")
    assert "description  Royal flush\nbest five    Ah Kh Qh Jh Th\n" in out and "low" not in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "omaha", "As Kd Qh", "--board", "2c 3c 4c"], "an Omaha hand has 4, 5 or 6 hole cards, got 3"),
        (["--game", "omaha", "As Kd Qh Jh Th 9h 8h", "--board", "2c 3c 4c"],
         "an Omaha hand has 4, 5 or 6 hole cards, got 7"),
        (["--game", "omaha-hilo", "As Kd Qh Jh", "--board", "2c 3c"], "an Omaha board has 3, 4 or 5 cards, got 2"),
        (["--game", "omaha", "As Kd Qh Jh", "--board", "2c 3c 4c 5c 6c 7c"],
         "an Omaha board has 3, 4 or 5 cards, got 6"),
        (["--game", "omaha", "As Kd Qh Jh", "--board", "2c Kd 4c"], "Kd is in both the hole cards and the board"),
        (["--game", "omaha", "As Kd Qh As", "--board", "2c 3c 4c"],
         "the hole cards: card 3 ('As'): duplicate of card 0"),
        (["--game", "omaha", "As Kd Qh Jh", "--board", "2c 2c 4c"], "the board: card 1 ('2c'): duplicate of card 0"),
        (["--game", "omaha", "As Kd Qh Jh", "--board", "Xc 3c 4c"], "the board: card 0 ('Xc'): unknown rank 'X'"),
        (["--game", "omaha", "As Kd Qh Jh"], "--game omaha needs the board: --board CARDS (3, 4 or 5 cards)"),
        (["As Kd Qh Jh Th", "--board", "2c"],
         "--board is for --game omaha and omaha-hilo; a holdem hand is all in CARDS"),
    ],
    ids=lambda a: " ".join(a) if isinstance(a, list) else None,
)
def test_eval_omaha_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, use_tables: object, args: list[str], message: str
) -> None:
    # Checked before any table is needed: the same line with no tables at all.
    use_tables(tmp_path / "none")  # type: ignore[operator]
    code, out, err = run(["eval", *args], capsys)
    assert code == 2
    assert assert_one_error_line(code, out, err) == f"twoplustwo: error: {message}"
