"""``eval --game`` for the games beyond hold'em, short deck and Omaha."""

from __future__ import annotations

import json

import pytest

import twoplustwo as tp
from tests.cli.helpers import assert_one_error_line, run

NEW_GAMES = ("stud", "stud-hilo", "razz", "lowball-27", "lowball-a5", "badugi")


@pytest.mark.parametrize("game", NEW_GAMES)
def test_eval_on_the_command_line(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    hand = {"lowball-27": "7c 5d 4h 3s 2c", "lowball-a5": "5c 4d 3h 2s Ac", "badugi": "Kc 4c 2d 3h"}
    cards = hand.get(game, "As 2d 3c 4h 5s Kd Kh").split()
    code, out, _ = run(["eval", "--game", game, *cards, "--json"], capsys)
    got = json.loads(out)
    assert code == 0 and got["game"] == game and got["value"] == tp.evaluate(cards, game=game)
    assert got["description"] == tp.describe(got["value"], game=game).description
    if game == "badugi":
        assert got["best_five"] == ["2d", "3h", "4c"] and got["category"] == "three-card"
    if game == "stud-hilo":
        assert got["low"] == 56 and got["low_description"] == "5-4-3-2-A"
    code, out, _ = run(["eval", "--game", game, *cards], capsys)
    assert code == 0 and f"game         {game}" in out
    too_many = [*cards, "9h"] if game != "razz" else [*cards, "9h", "9c"]
    line = assert_one_error_line(*run(["eval", "--game", game, *too_many], capsys))
    assert "cards, got" in line
