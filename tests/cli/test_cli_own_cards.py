"""``equity --game`` for the games without a board: stud, stud hi/lo, razz and the draws."""

from __future__ import annotations

import pytest

from tests.cli.helpers import assert_one_error_line, run
from twoplustwo.odds.equity import equity


def _rows(out: str) -> list[list[str]]:
    return [line.split() for line in out.splitlines()[2:]]


def test_razz_as_the_issue_writes_it(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["equity", "--game", "razz", "As 2d 3c", "Kh 7d 8c", "--quiet"], capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "game: razz; dead: none"
    assert lines[1].split()[:5] == ["player", "win", "%", "tie", "%"]
    # Third street, four cards to come each: 18 billion deals, counted exactly (no standard error column).
    assert lines[1].split()[-3:] == ["wins", "ties", "games"]
    (a, b) = _rows(out)
    assert a[:3] == ["As", "2d", "3c"] and b[:3] == ["Kh", "7d", "8c"]
    assert a[-1] == b[-1] == "18,265,297,050"  # C(46, 4) x C(42, 4)
    assert abs(float(a[5]) + float(b[5]) - 100) < 2e-3 and 70 < float(a[5]) < 85  # three wheel cards against 8-7


@pytest.mark.parametrize(
    ("game", "players", "dead"),
    [
        ("stud", ["As Ad 3c 4h 5s", "Kh Kd 8c 9s Tc"], ""),  # fifth street, two to come each
        ("stud-hilo", ["As 2d 3c 4h Kd", "5s 6d 7c 8h 9d"], "Qs"),
        ("lowball-27", ["7s 5d 4c 3h", "8s 6d 4h"], ""),  # one draws one, the other two
        ("badugi", ["As 2d 3c", "random"], "Kh Kd Ks"),
    ],
)
def test_each_family_matches_the_library(
    capsys: pytest.CaptureFixture[str], game: str, players: list[str], dead: str
) -> None:
    argv = ["equity", "--game", game, *players, "--exact"] + (["--dead", dead] if dead else [])
    code, out, err = run(argv, capsys)
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == f"game: {game}; dead: {dead or 'none'}"
    for row, r in zip(_rows(out), equity(players, game=game, dead=dead, method="exact")):
        assert row[-4:] == [f"{100 * r.equity:.3f}", f"{r.wins:,}", f"{r.ties:,}", f"{r.games:,}"]


def test_a_board_or_a_bad_player_is_one_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    line = assert_one_error_line(*run(["equity", "--game", "razz", "As 2d 3c", "Kh 7d 8c", "--board", "2h"], capsys))
    assert "razz has no board" in line
    line = assert_one_error_line(*run(["equity", "--game", "badugi", "As 2d 3c 4h 5h", "Kh"], capsys))
    assert "player 1: a badugi player holds at most 4 cards, got 5" in line
