"""``eval`` of a hold'em hand and ``enumerate`` (twoplustwo/cli/hands.py)."""

from __future__ import annotations

import json

import pytest

from tests.cli.helpers import run
from twoplustwo.hands.batch import best_five
from twoplustwo.vocab.cards import parse_words as parse_hand


def test_eval_royal_flush(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["eval", "As Ks Qs Js Ts 2c 3d"], capsys)
    assert (code, err) == (0, "")
    fields = {line[:12].strip(): line[13:] for line in out.splitlines()}
    assert fields["value"] == "7462"
    assert fields["category"] == "straight_flush"
    assert fields["code"] == "0x8cba98"
    assert fields["description"] == "Royal flush"
    assert fields["best five"] == "As Ks Qs Js Ts"
    assert fields["hand"] == "As Ks Qs Js Ts 2c 3d"


def test_eval_separate_words_one_string_and_ints_agree(capsys: pytest.CaptureFixture[str]) -> None:
    _, one, _ = run(["eval", "As Kd 7h 7c 2s 3d 9c"], capsys)
    _, many, _ = run(["eval", "As", "Kd", "7h", "7c", "2s", "3d", "9c"], capsys)
    _, packed, _ = run(["eval", "AsKd7h7c2s3d9c"], capsys)
    _, ints, _ = run(["eval", "51", "45", "22", "20", "3", "5", "28"], capsys)
    assert one == many == packed == ints
    assert "Pair of sevens, ace, king and nine kickers" in one
    assert "best five    As Kd 7h 7c 9c" in one


@pytest.mark.parametrize(
    ("cards", "value", "category", "best"),
    [
        ("7c 5d 4h 3s 2c", 1, "high_card", "7c 5d 4h 3s 2c"),
        ("Ac 2d 3h 4s 5c 6d", 5855, "straight", "2d 3h 4s 5c 6d"),
        ("Kc Kd Kh 7s 7c 7d 2h", 7278, "full_house", "Kc Kd Kh 7s 7c"),
    ],
)
def test_eval_json(capsys: pytest.CaptureFixture[str], cards: str, value: int, category: str, best: str) -> None:
    code, out, err = run(["eval", "--json", cards], capsys)
    assert (code, err) == (0, "")
    doc = json.loads(out)
    assert doc["value"] == value
    assert doc["category"] == category
    assert doc["best_five"] == best.split()
    assert doc["cards"] == cards.split()
    assert doc["code"].startswith("0x") and len(doc["code"]) == 8
    assert doc["description"]


def test_best_five_has_the_hand_value() -> None:
    from twoplustwo.hands.batch import evaluate

    hand = parse_hand(["2h 5h 9h Th Jh Qc Ks"])
    five = best_five(hand)
    assert len(five) == 5 and set(five) <= set(hand)
    assert evaluate(five) == evaluate(hand)


def test_enumerate_five_cards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["enumerate", "-n", "5"], capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[1].split() == ["category", "hands", "probability"]
    rows = {line.split()[0]: line.split()[1:] for line in lines[2:]}
    assert rows["straight_flush"] == ["40", "0.000015390772"]
    assert rows["four_of_a_kind"] == ["624", "0.000240096038"]
    assert rows["high_card"] == ["1,302,540", "0.501177394035"]
    assert rows["total"] == ["2,598,960", "1.000000000000"]
    assert "distinct values: 7,462" in out


def test_enumerate_seven_cards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["enumerate"], capsys)
    assert code == 0
    assert "41,584" in out and "133,784,560" in out and "distinct values: 4,824" in out


def test_enumerate_with_include_and_dead(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["enumerate", "-n", "5", "--include", "As Ks Qs Js", "--dead", "Ts"], capsys)
    assert (code, err) == (0, "")
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()[2:]}
    # 47 fifth cards: the 8 spades 2s..9s make a flush (no royal: Ts is dead),
    # the other three tens a straight, the 12 other aces..jacks a pair, 24 nothing.
    assert rows["total"][0] == "47"
    assert rows["straight_flush"][0] == "0"
    assert rows["flush"][0] == "8"
    assert rows["straight"][0] == "3"
    assert rows["pair"][0] == "12"
    assert rows["high_card"][0] == "24"
    assert rows["four_of_a_kind"] == ["0", "0.000000000000"]
    assert "include: As Ks Qs Js; dead: Ts" in out


def test_enumerate_passes_include_and_dead(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import twoplustwo.hands.value_counts as exhaustive

    real = exhaustive.histogram
    seen: list[dict[str, object]] = []

    def histogram(n: int, **options: object) -> object:
        seen.append({"n": n, **options})
        return real(n)

    monkeypatch.setattr(exhaustive, "histogram", histogram)
    assert run(["enumerate", "-n", "6", "--include", "AsKs", "--dead", "2c", "--dead", "3c 4c"], capsys)[0] == 0
    assert seen == [{"n": 6, "include": [51, 47], "dead": [0, 4, 8]}]
